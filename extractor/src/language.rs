//! Language: `lingua` over an explicit list of news languages, combined with the page's declaration.
//!
//! Combination rule (Media Cloud's): with both a declared language (`dc.language`,
//! `Content-Language` or `<html lang>`) and a detected one, the detection wins when it starts with
//! the declaration, the declaration wins when it starts with the detection (it is more specific,
//! e.g. `pt-br`), and otherwise the detection wins, because CMS defaults are often wrong. With only
//! one of them, that one is used. Detection needs at least [`MIN_DETECT_CHARS`] characters and reads
//! at most [`MAX_DETECT_CHARS`], which keeps its cost near a third of a millisecond per page (the detector dominated the profile at 2,000).
//!
//! When the declared language is one of seven common ones and its function words clearly dominate
//! the text, the declaration is confirmed without running the detector (the result would be the
//! same, and detection was most of the extraction time); undeclared text whose English function
//! words dominate even more clearly is taken as English the same way.
//!
//! The languages are listed in [`LANGUAGES`] and enabled as `lingua` features in the workspace's
//! `Cargo.toml`; every language model adds several megabytes to each binary that links this crate.

use std::sync::OnceLock;

use lingua::{Language, LanguageDetector, LanguageDetectorBuilder};

use crate::Field;

/// The languages the detector knows, as ISO 639-1 codes.
pub const LANGUAGES: &[&str] = &[
    "ar", "da", "de", "en", "es", "fr", "hi", "id", "it", "ja", "ko", "nl", "pl", "pt", "ru", "sv",
    "tr", "uk", "zh",
];

/// Texts shorter than this are not given to the detector.
const MIN_DETECT_CHARS: usize = 40;
/// The detector reads at most this many characters of the text.
const MAX_DETECT_CHARS: usize = 250;

fn detector() -> &'static LanguageDetector {
    static DETECTOR: OnceLock<LanguageDetector> = OnceLock::new();
    DETECTOR.get_or_init(|| {
        LanguageDetectorBuilder::from_languages(&[
            Language::Arabic,
            Language::Danish,
            Language::German,
            Language::English,
            Language::Spanish,
            Language::French,
            Language::Hindi,
            Language::Indonesian,
            Language::Italian,
            Language::Japanese,
            Language::Korean,
            Language::Dutch,
            Language::Polish,
            Language::Portuguese,
            Language::Russian,
            Language::Swedish,
            Language::Turkish,
            Language::Ukrainian,
            Language::Chinese,
        ])
        .with_low_accuracy_mode()
        .build()
    })
}

/// Detects the language of a text, as a lower-case ISO 639-1 code.
pub(crate) fn detect(text: &str) -> Option<String> {
    let mut end = 0;
    let mut count = 0;
    for (i, c) in text.char_indices() {
        if count == MAX_DETECT_CHARS {
            break;
        }
        end = i + c.len_utf8();
        count += 1;
    }
    if count < MIN_DETECT_CHARS {
        return None;
    }
    let language = detector().detect_language_of(&text[..end])?;
    Some(language.iso_code_639_1().to_string().to_ascii_lowercase())
}

/// The prose of a text for language identification: paragraphs of at least 80 characters (headings,
/// list items and captions mislead detectors), up to a little more than [`MAX_DETECT_CHARS`];
/// the text itself when it has no such paragraph.
fn sample(text: &str) -> String {
    let mut out = String::new();
    for paragraph in text.split("\n\n").filter(|p| p.chars().count() >= 80) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(paragraph);
        if out.len() >= 4 * MAX_DETECT_CHARS {
            break;
        }
    }
    if out.is_empty() { text.chars().take(4 * MAX_DETECT_CHARS).collect() } else { out }
}

/// Frequent, mostly distinctive function words of the languages most pages declare.
const STOPWORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "of", "to", "a", "in", "is", "that", "for", "on", "with", "as", "are",
            "was", "this", "you", "your", "it", "be", "by", "from", "at", "have", "can", "or",
            "an", "not", "we", "our", "they", "their", "will", "more", "has", "but", "if",
        ],
    ),
    (
        "es",
        &[
            "el", "los", "las", "del", "y", "que", "una", "para", "con", "por", "es", "se", "al",
            "lo", "como", "más", "su", "sus", "pero", "este",
        ],
    ),
    (
        "pt",
        &[
            "os", "do", "da", "dos", "das", "e", "não", "uma", "para", "com", "no", "na", "ao",
            "é", "mais", "seu", "sua", "pelo", "pela", "também",
        ],
    ),
    (
        "fr",
        &[
            "le", "les", "des", "et", "du", "est", "une", "pour", "dans", "qui", "que", "sur",
            "pas", "au", "aux", "avec", "sont", "ce", "cette", "il",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "zu", "den", "von", "mit",
            "sich", "auf", "für", "im", "dem", "auch", "es", "sie",
        ],
    ),
    (
        "it",
        &[
            "il", "di", "che", "è", "della", "per", "una", "sono", "gli", "delle", "nel", "con",
            "non", "più", "anche", "alla", "dei", "come", "questo", "ha",
        ],
    ),
    (
        "nl",
        &[
            "de", "het", "een", "en", "van", "is", "dat", "niet", "op", "te", "voor", "zijn",
            "met", "ook", "worden", "deze", "wordt", "aan", "bij", "naar",
        ],
    ),
];

/// Confirms a declared language cheaply: when its function words make up at least a fifth of the
/// sample's words and at least twice as many as any other listed language's, the detector could
/// only agree, so it is not run (it is most of the extraction time otherwise).
fn confirm(declared: &str, text: &str) -> bool {
    confirm_with(declared, text, 5, 2)
}

/// [`confirm`] with its thresholds: at least `1 / share` of the words, `ratio` times any other list.
fn confirm_with(declared: &str, text: &str, share: usize, ratio: usize) -> bool {
    let code = declared.get(..2).unwrap_or("");
    let Some(own) = STOPWORDS.iter().position(|(c, _)| *c == code) else { return false };
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(150)
        .map(str::to_lowercase)
        .collect();
    if words.len() < 30 {
        return false;
    }
    let hits: Vec<usize> = STOPWORDS
        .iter()
        .map(|(_, list)| words.iter().filter(|w| list.contains(&w.as_str())).count())
        .collect();
    let best_other =
        hits.iter().enumerate().filter(|(i, _)| *i != own).map(|(_, h)| *h).max().unwrap_or(0);
    hits[own] * share >= words.len() && hits[own] >= ratio * best_other
}

/// Combines the declared language with the detected one (see the module docs).
pub(crate) fn decide(declared: Option<&Field<String>>, text: &str) -> Option<Field<String>> {
    let sample = sample(text);
    let text = sample.as_str();
    if let Some(declared) = declared
        && confirm(&declared.value, text)
    {
        return Some(Field::new(declared.value.clone(), "declared+function-words"));
    }
    // Undeclared English, the most common case, is recognised by its function words alone: no other
    // listed language shares them.
    if declared.is_none() && confirm_with("en", text, 4, 3) {
        return Some(Field::new("en".to_owned(), "function-words"));
    }
    let guess = detect(text);
    match (declared, guess) {
        (Some(declared), Some(guess)) => {
            if guess.starts_with(&declared.value) {
                Some(Field::new(guess, "lingua"))
            } else if declared.value.starts_with(&guess) {
                Some(declared.clone())
            } else {
                Some(Field::new(guess, "lingua"))
            }
        }
        (Some(declared), None) => Some(declared.clone()),
        (None, Some(guess)) => Some(Field::new(guess, "lingua")),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_words_confirm_only_the_right_language() {
        let english = "The council said on Monday that the new bridge, which was paid for by the state, \
            will open to traffic in the spring, and that the old one is to be closed for repairs for \
            most of the year, with buses running from the station to the town centre every hour.";
        assert!(confirm("en", english));
        assert!(confirm("en-gb", english));
        assert!(!confirm("es", english));
        assert!(!confirm("fr", english));
        let spanish = "El ayuntamiento anunció el lunes que el nuevo puente, que fue pagado por el estado, \
            se abrirá al tráfico en la primavera, y que el antiguo se cerrará por reparaciones durante \
            la mayor parte del año, con autobuses desde la estación hasta el centro cada hora.";
        assert!(confirm("es", spanish));
        assert!(!confirm("pt", spanish));
        assert!(!confirm("en", spanish));
        let declared = Field::new("en".to_owned(), "html:lang");
        assert_eq!(decide(Some(&declared), spanish).map(|f| f.value).as_deref(), Some("es"));
        assert_eq!(
            decide(None, english).map(|f| (f.value, f.provenance)),
            Some(("en".to_owned(), "function-words"))
        );
        assert_eq!(
            decide(None, spanish).map(|f| (f.value, f.provenance)),
            Some(("es".to_owned(), "lingua"))
        );
    }
}
