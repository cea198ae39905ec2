//! Text folding for matching: Unicode NFKC, full case folding, optional diacritics folding, whitespace.

use std::borrow::Cow;

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
use icu_properties::CodePointMapData;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};

/// Unicode normalisation forms, from ICU4X's compiled data.
pub(crate) const NFC: ComposingNormalizerBorrowed<'static> = ComposingNormalizerBorrowed::new_nfc();
pub(crate) const NFKC: ComposingNormalizerBorrowed<'static> =
    ComposingNormalizerBorrowed::new_nfkc();
const NFD: DecomposingNormalizerBorrowed<'static> = DecomposingNormalizerBorrowed::new_nfd();

/// Whether a character is invisible formatting that says nothing of the words: the soft hyphen
/// (U+00AD, where a word may break: `Paläs\u{AD}ti\u{AD}nenser`), the zero-width space (U+200B),
/// the word joiner (U+2060) and the zero-width no-break space or byte-order mark (U+FEFF). Titles,
/// text and keys leave them out, so a word matches its copy and search whether or not a page
/// marked its hyphenation points. (The zero-width joiner and non-joiner change how Persian, Indic
/// scripts and emoji are written, and stay.)
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// `text` without [`is_invisible`] characters (borrowed when it has none).
pub fn strip_invisible(text: &str) -> Cow<'_, str> {
    if text.contains(is_invisible) {
        Cow::Owned(text.chars().filter(|&c| !is_invisible(c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// The general category of a character.
pub(crate) fn general_category(c: char) -> GeneralCategory {
    CodePointMapData::<GeneralCategory>::new().get(c)
}

/// Whether a character is a combining mark (general category M).
pub(crate) fn is_mark(c: char) -> bool {
    GeneralCategoryGroup::Mark.contains(general_category(c))
}

/// What [`fold_text`] folds besides compatibility forms, case and whitespace, which it always folds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FoldOptions {
    /// Also fold diacritics away, so that `Malmö`, `Malmø` and `Malmo` all become `malmo`.
    ///
    /// Combining marks of the general diacritic blocks, Hebrew points and Arabic vowel marks are removed,
    /// and letters that carry a stroke or are ligatures rather than a combining mark are spelled out
    /// (`ø` as `o`, `ł` as `l`, `đ` and `ð` as `d`, `þ` as `th`, `æ` as `ae`, `œ` as `oe`, `ı` as `i`).
    /// Marks that make a different letter in their script (Japanese voicing marks, Indic vowel signs)
    /// are kept.
    pub diacritics: bool,
}

/// Folds text for comparison: NFKC, full case folding (`ß` is `ss`, final `ς` is `σ`), optionally no
/// diacritics, and every run of whitespace one space, trimmed.
///
/// Folding is idempotent: folding folded text changes nothing.
///
/// ```text
/// fold_text("  Ｍａｌｍö  STRAẞE ", FoldOptions { diacritics: true })  ->  "malmo strasse"
/// ```
pub fn fold_text(text: &str, options: FoldOptions) -> String {
    let folded = fold_chars(text, options.diacritics);
    let mut out = String::with_capacity(folded.len());
    for word in folded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Everything [`fold_text`] does except the whitespace.
pub(crate) fn fold_chars(text: &str, diacritics: bool) -> Cow<'_, str> {
    if text.is_ascii() {
        return if text.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        };
    }
    let text = strip_invisible(text);
    // Full case folding is lower-casing plus these two; `str::to_lowercase` writes a final sigma `ς`.
    let normalized = NFKC.normalize(&text);
    let mut folded = normalized.to_lowercase();
    if folded.contains(['ß', 'ς']) {
        folded = folded.replace('ß', "ss").replace('ς', "σ");
    }
    // Lower-casing can denormalise (`İ` gives `i` and a combining dot); when it changed nothing, it did not.
    let folded = if folded == normalized {
        folded
    } else {
        match NFKC.normalize(&folded) {
            Cow::Borrowed(_) => folded,
            Cow::Owned(renormalized) => renormalized,
        }
    };
    if !diacritics {
        return Cow::Owned(folded);
    }
    let mut bare = String::with_capacity(folded.len());
    for c in NFD.normalize(&folded).chars() {
        if is_diacritic(c) {
            continue;
        }
        match spelled_out(c) {
            Some(s) => bare.push_str(s),
            None => bare.push(c),
        }
    }
    Cow::Owned(NFC.normalize(&bare).into_owned())
}

/// A combining mark that only decorates a letter: general diacritics, Hebrew points, Arabic vowels.
fn is_diacritic(c: char) -> bool {
    matches!(
            c,
            '\u{0300}'..='\u{036F}'
                | '\u{1AB0}'..='\u{1AFF}'
                | '\u{1DC0}'..='\u{1DFF}'
                | '\u{20D0}'..='\u{20FF}'
                | '\u{FE20}'..='\u{FE2F}'
                | '\u{0591}'..='\u{05C7}'
                | '\u{064B}'..='\u{065F}'
                | '\u{0670}'
    ) && is_mark(c)
}

/// Lower-case letters whose diacritic is part of the letter (no decomposition), spelled without it.
fn spelled_out(c: char) -> Option<&'static str> {
    Some(match c {
        'ø' => "o",
        'ł' => "l",
        'đ' | 'ð' => "d",
        'þ' => "th",
        'æ' => "ae",
        'œ' => "oe",
        'ı' => "i",
        'ħ' => "h",
        'ŧ' => "t",
        'ƀ' => "b",
        'ƒ' => "f",
        'ǥ' => "g",
        'ɨ' => "i",
        'ʉ' => "u",
        'ƶ' | 'ȥ' => "z",
        'ȼ' => "c",
        'ɇ' => "e",
        'ɍ' => "r",
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
