//! What the one-pass title folder does with each non-ASCII character: a table, built lazily per block
//! of 128 code points from the general path's own functions.
//!
//! A character is folded on its own only when that gives what folding the whole title would: its NFKC
//! form and its folded form consist of *stable starters* (canonical combining class 0, NFKC-stable,
//! never the second character of a canonical composition). A string of stable starters is NFKC
//! (the quick check says yes), so the NFKC form of a string of such characters is the concatenation of
//! their NFKC forms, lower-casing it changes nothing that another normalisation would undo, and
//! dropping punctuation between them cannot denormalise a part. Every other character (combining
//! marks, Hangul jamo, Indic vowel signs that compose, `İ`, whose lower case has a combining dot) makes
//! the title take the general path.

use std::sync::OnceLock;

use icu_normalizer::properties::CanonicalCombiningClassMapBorrowed;
use icu_properties::props::GeneralCategoryGroup;

use crate::fold::{self, NFKC};

/// How the key treats one character of folded text (the rules of `TitleParts::from_folded`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Punctuation, symbols, controls and letters' marks with nothing to attach to: dropped.
    Drop,
    /// Letters and numbers: kept.
    Keep,
    /// Combining marks: kept after a kept character, dropped otherwise.
    Mark,
    /// Whitespace: one space between kept text.
    Space,
    /// `:` and `|`: always separate parts.
    Separator,
    /// `-`, `–` and `—`: separate parts when whitespace follows, dropped otherwise.
    Dash,
}

/// The class of one character of folded text.
pub(super) fn class_of(c: char) -> Class {
    match c {
        ':' | '|' => Class::Separator,
        '-' | '\u{2013}' | '\u{2014}' => Class::Dash,
        _ if c.is_whitespace() => Class::Space,
        _ if c.is_ascii() => {
            if c.is_ascii_alphanumeric() {
                Class::Keep
            } else {
                Class::Drop
            }
        }
        _ => {
            let category = fold::general_category(c);
            if GeneralCategoryGroup::Mark.contains(category) {
                Class::Mark
            } else if GeneralCategoryGroup::Letter.contains(category)
                || GeneralCategoryGroup::Number.contains(category)
            {
                Class::Keep
            } else {
                Class::Drop
            }
        }
    }
}

/// One character as UTF-8: `bytes[..len]`, zeros after. Made only from a `char`, so those bytes are
/// always one whole, well-formed character, which keeps the folder's text UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Utf8Char {
    bytes: [u8; 4],
    len: u8,
}

impl Utf8Char {
    pub(super) const fn new(c: char) -> Self {
        let mut bytes = [0; 4];
        let len = c.encode_utf8(&mut bytes).len() as u8;
        Utf8Char { bytes, len }
    }

    /// The four bytes, the character's first.
    #[inline(always)]
    pub(super) fn bytes(self) -> [u8; 4] {
        self.bytes
    }

    /// How many of the bytes are the character's (1 to 4).
    #[inline(always)]
    pub(super) fn len(self) -> usize {
        usize::from(self.len)
    }
}

/// What folding does to one input character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fold {
    /// The character cannot be folded on its own: the title takes the general path.
    General,
    /// It folds to one character, of class `class`.
    One { utf8: Utf8Char, class: Class },
    /// It folds to several characters: `many[start..start + len]` of its block.
    Many { start: u16, len: u8 },
}

/// The folds of 128 consecutive code points.
#[derive(Debug)]
pub(super) struct Block {
    pub(super) folds: [Fold; BLOCK_LEN],
    pub(super) many: Vec<(char, Class)>,
}

/// Blocks are `1 << BLOCK_BITS` code points: a code point's block number is `code_point >> BLOCK_BITS`.
pub(super) const BLOCK_BITS: u32 = 7;
const BLOCK_LEN: usize = 1 << BLOCK_BITS;
/// Code points from here on always take the general path (planes 0 to 2 have blocks).
const TABLE_END: u32 = 0x3_0000;
const BLOCK_COUNT: usize = TABLE_END as usize / BLOCK_LEN;

static BLOCKS: [OnceLock<Box<Block>>; BLOCK_COUNT] = [const { OnceLock::new() }; BLOCK_COUNT];

/// The block of a code point, built on first use; `None` past the table.
pub(super) fn block(code_point: u32) -> Option<&'static Block> {
    let index = (code_point >> BLOCK_BITS) as usize;
    let cell = BLOCKS.get(index)?;
    Some(cell.get_or_init(|| Box::new(build_block(index as u32 * BLOCK_LEN as u32))))
}

/// The fold of a code point of `block` (the low seven bits pick it).
pub(super) fn fold_in(block: &Block, code_point: u32) -> Fold {
    block.folds[code_point as usize % BLOCK_LEN]
}

fn build_block(first: u32) -> Block {
    let mut block = Block { folds: [Fold::General; BLOCK_LEN], many: Vec::new() };
    for (slot, code_point) in block.folds.iter_mut().zip(first..) {
        // ASCII never reaches the table, and surrogates are not characters.
        let Some(c) = char::from_u32(code_point).filter(|c| !c.is_ascii()) else {
            continue;
        };
        let Some(folded) = fold_alone(c) else {
            continue;
        };
        let mut chars = folded.chars();
        *slot = match (chars.next(), chars.next()) {
            (Some(one), None) => Fold::One { utf8: Utf8Char::new(one), class: class_of(one) },
            _ => {
                let start = block.many.len();
                block.many.extend(folded.chars().map(|c| (c, class_of(c))));
                let len = block.many.len() - start;
                match (u16::try_from(start), u8::try_from(len)) {
                    (Ok(start), Ok(len)) if len > 0 => Fold::Many { start, len },
                    _ => Fold::General,
                }
            }
        };
    }
    block
}

/// The folded text of one character, when it can be folded on its own (see the module docs).
fn fold_alone(c: char) -> Option<String> {
    let mut utf8 = [0; 4];
    let text: &str = c.encode_utf8(&mut utf8);
    if !NFKC.normalize(text).chars().all(is_stable_starter) {
        return None;
    }
    let folded = fold::fold_chars(text, false);
    folded.chars().all(is_stable_starter).then(|| folded.into_owned())
}

/// Whether a character is unchanged by NFKC in any context: combining class 0, NFKC-stable on its own,
/// and never composed with a preceding character.
fn is_stable_starter(c: char) -> bool {
    let mut utf8 = [0; 4];
    CanonicalCombiningClassMapBorrowed::new().get_u8(c) == 0
        && NFKC.is_normalized(c.encode_utf8(&mut utf8))
        && STARTER_SECONDS.binary_search(&c).is_err()
}

/// Characters of combining class 0 that are the second of a canonical decomposition pair, so compose
/// with the character before them (Indic length marks and vowel signs, Hangul vowel and trailing jamo).
/// A test checks this list against the normalisation data.
pub(super) const STARTER_SECONDS: &[char] = &[
    '\u{09BE}',
    '\u{09D7}',
    '\u{0B3E}',
    '\u{0B56}',
    '\u{0B57}',
    '\u{0BBE}',
    '\u{0BD7}',
    '\u{0CC2}',
    '\u{0CD5}',
    '\u{0CD6}',
    '\u{0D3E}',
    '\u{0D57}',
    '\u{0DCF}',
    '\u{0DDF}',
    '\u{0FB5}',
    '\u{0FB7}',
    '\u{102E}',
    '\u{1161}',
    '\u{1162}',
    '\u{1163}',
    '\u{1164}',
    '\u{1165}',
    '\u{1166}',
    '\u{1167}',
    '\u{1168}',
    '\u{1169}',
    '\u{116A}',
    '\u{116B}',
    '\u{116C}',
    '\u{116D}',
    '\u{116E}',
    '\u{116F}',
    '\u{1170}',
    '\u{1171}',
    '\u{1172}',
    '\u{1173}',
    '\u{1174}',
    '\u{1175}',
    '\u{11A8}',
    '\u{11A9}',
    '\u{11AA}',
    '\u{11AB}',
    '\u{11AC}',
    '\u{11AD}',
    '\u{11AE}',
    '\u{11AF}',
    '\u{11B0}',
    '\u{11B1}',
    '\u{11B2}',
    '\u{11B3}',
    '\u{11B4}',
    '\u{11B5}',
    '\u{11B6}',
    '\u{11B7}',
    '\u{11B8}',
    '\u{11B9}',
    '\u{11BA}',
    '\u{11BB}',
    '\u{11BC}',
    '\u{11BD}',
    '\u{11BE}',
    '\u{11BF}',
    '\u{11C0}',
    '\u{11C1}',
    '\u{11C2}',
    '\u{1B35}',
    '\u{11127}',
    '\u{1133E}',
    '\u{11357}',
    '\u{113B8}',
    '\u{113BB}',
    '\u{113C2}',
    '\u{113C9}',
    '\u{114B0}',
    '\u{114BA}',
    '\u{114BD}',
    '\u{115AF}',
    '\u{11930}',
    '\u{1611E}',
    '\u{1611F}',
    '\u{16120}',
    '\u{16129}',
    '\u{16D67}',
];
