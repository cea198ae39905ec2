//! Words, languages, folding, stemming and hashing: the text side of the signals.
//!
//! Text is cut into word tokens and sentence ends by [`tokens`]: a word is a run of letters,
//! digits and combining marks, with `'`, `’`, `-`, `.` and `,` kept inside it when letters or
//! digits stand on both sides (`don't`, `U.S`, `1,000`, `3.5`, `e-mail`). Han, Hiragana and
//! Katakana characters are one word each (those scripts do not separate words with spaces), and a
//! run longer than [`MAX_WORD_CHARS`] characters (Thai, base64, a URL without separators) is cut
//! into pieces of that length, so no input makes a word unbounded.
//!
//! Words are compared after [`fold`]: the normalizer's folding (NFKC, full case folding and
//! diacritics), so `Malmö` and `MALMO` are one word. Stems come from the Snowball stemmers of
//! `rust-stemmers` for the languages that have one ([`Stemmers`]); other languages keep the folded
//! word. Hashes are FNV-1a with a fixed final mix, never randomly keyed: the same text always gives
//! the same signature, in every process.

use normalizer::{FoldOptions, fold_text};
use rust_stemmers::{Algorithm, Stemmer};

/// Longest word, in characters; longer runs are cut.
pub const MAX_WORD_CHARS: usize = 32;

/// One token of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// A word (letters, digits, marks and joiners), as written.
    Word(&'a str),
    /// A sentence ends here (`.`, `!`, `?`, `;`, `:`, their full-width and Arabic forms, or a
    /// blank line).
    End,
}

/// The tokens of a text, in order.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens { text, pos: 0 }
}

/// The iterator of [`tokens`].
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    text: &'a str,
    pos: usize,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || ('\u{0300}'..='\u{036F}').contains(&c)
}

/// Scripts written without spaces between words, one character per word.
fn is_single_char_word(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2FFFF}')
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '’' | '-' | '.' | ',')
}

fn ends_sentence(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | ';' | ':' | '。' | '！' | '？' | '؟' | '।')
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let rest = &self.text[self.pos..];
        let mut chars = rest.char_indices().peekable();
        let mut newlines = 0;
        // Skip to the start of a word, reporting a sentence end on the way.
        let start = loop {
            let (i, c) = chars.next()?;
            if is_word_char(c) {
                break i;
            }
            if c == '\n' {
                newlines += 1;
            } else if !c.is_whitespace() {
                newlines = 0;
            }
            if ends_sentence(c) || newlines >= 2 {
                self.pos += i + c.len_utf8();
                return Some(Token::End);
            }
        };
        let first = rest[start..].chars().next().unwrap_or(' ');
        let mut end = start + first.len_utf8();
        if !is_single_char_word(first) {
            let mut count = 1;
            let mut iter = rest[end..].char_indices().peekable();
            while let Some((i, c)) = iter.next() {
                if count >= MAX_WORD_CHARS || is_single_char_word(c) {
                    break;
                }
                if is_word_char(c) {
                    end = start + first.len_utf8() + i + c.len_utf8();
                    count += 1;
                    continue;
                }
                // A joiner stays inside the word only between two word characters.
                let next_is_word = iter.peek().is_some_and(|&(_, n)| is_word_char(n));
                if is_joiner(c) && next_is_word {
                    continue;
                }
                break;
            }
        }
        self.pos += end;
        Some(Token::Word(&rest[start..end]))
    }
}

/// A word folded for matching: NFKC, case and diacritics (the normalizer's [`fold_text`]).
pub fn fold(word: &str) -> String {
    if word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        return word.to_owned();
    }
    fold_text(word, FoldOptions { diacritics: true })
}

/// FNV-1a over the bytes, then a 64-bit finaliser (so that every output bit depends on every byte).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix64(h)
}

/// The SplitMix64 finaliser.
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A language's two-letter code as morgue uses it: lower case, region and script dropped
/// (`en-GB` and `EN_us` are `en`), or `None` when the label is not a language code at all.
pub fn language_code(label: &str) -> Option<String> {
    let code = label.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    let ok = (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase());
    ok.then_some(code)
}

/// Function words of the languages that [`guess_language`] tells apart, folded: the most
/// frequent words of each language; a text's language is the list it hits most.
const FUNCTION_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "of", "to", "in", "is", "that", "for", "it", "on", "was", "with", "as",
            "be", "by", "at", "are", "have", "from", "this", "but", "not", "has", "they", "an",
            "were", "had", "which", "their", "been", "we", "who", "will", "would", "its", "or",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "und", "das", "ist", "nicht", "ein", "eine", "zu", "den", "von", "mit",
            "sich", "des", "auf", "fur", "im", "dem", "es", "auch", "als", "wie", "bei", "nach",
            "aus", "wird", "werden", "hat", "sie", "ich", "einer", "zum", "zur", "uber",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "des", "et", "est", "un", "une", "du", "que", "qui", "dans", "pour",
            "pas", "sur", "au", "par", "il", "elle", "ce", "avec", "plus", "sont", "ont", "aux",
            "cette", "mais", "ou", "nous", "vous", "leur", "ses",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "de", "que", "y", "en", "los", "del", "se", "las", "por", "un", "una",
            "para", "con", "no", "es", "al", "lo", "como", "mas", "pero", "sus", "su", "fue", "ha",
            "este", "esta", "entre", "tambien", "muy", "sobre",
        ],
    ),
    (
        "pt",
        &[
            "o", "de", "que", "e", "do", "da", "em", "um", "uma", "para", "com", "nao", "os",
            "dos", "das", "no", "na", "por", "mais", "se", "foi", "ao", "pelo", "pela", "como",
            "mas", "ja", "sao", "ele", "ela", "seu", "sua", "tambem",
        ],
    ),
    (
        "nl",
        &[
            "de", "het", "een", "en", "van", "is", "dat", "op", "te", "zijn", "voor", "met", "die",
            "niet", "aan", "er", "ook", "als", "bij", "door", "naar", "wordt", "om", "heeft",
            "hij", "zij", "maar", "nog", "wel", "worden", "werd", "deze",
        ],
    ),
    (
        "da",
        &[
            "og", "i", "at", "det", "er", "en", "til", "af", "pa", "den", "med", "for", "de",
            "som", "ikke", "har", "et", "var", "om", "fra", "han", "der", "kan", "vil", "blev",
            "efter", "ogsa", "men", "sig", "hun", "skal", "over",
        ],
    ),
    (
        "it",
        &[
            "il", "di", "che", "e", "la", "per", "un", "una", "non", "del", "della", "in", "sono",
            "con", "si", "le", "gli", "ha", "da", "al", "nel", "dei", "delle", "alla", "anche",
            "piu", "come", "ma", "questo", "stato", "essere", "sua",
        ],
    ),
];

// `guess_language` keeps one bit per language.
const _: () = assert!(FUNCTION_WORDS.len() <= 16);

/// Guesses a text's language from its folded words: the language whose function words it uses
/// most, if they make up at least a tenth of the words (and three words in all); otherwise
/// `None`. Only the languages in the table can be guessed; others are unknown, which is the
/// honest answer for the POS filter (it falls back to its heuristic) and harmless for the rest.
pub fn guess_language<'w>(folded: impl IntoIterator<Item = &'w str>) -> Option<&'static str> {
    // Each function word with the set of languages that use it (one bit per table row).
    static LOOKUP: std::sync::OnceLock<std::collections::HashMap<&'static str, u16>> =
        std::sync::OnceLock::new();
    let lookup = LOOKUP.get_or_init(|| {
        let mut map = std::collections::HashMap::new();
        for (n, (_, list)) in FUNCTION_WORDS.iter().enumerate() {
            for &word in *list {
                *map.entry(word).or_insert(0u16) |= 1 << n;
            }
        }
        map
    });
    let mut hits = [0usize; FUNCTION_WORDS.len()];
    let mut total = 0usize;
    for word in folded {
        total += 1;
        // Function words are short: longer words need no look-up.
        if word.len() > 8 {
            continue;
        }
        if let Some(&languages) = lookup.get(word) {
            for (n, hit) in hits.iter_mut().enumerate() {
                *hit += usize::from(languages >> n & 1 == 1);
            }
        }
    }
    let (best, &count) = hits.iter().enumerate().max_by_key(|&(n, &c)| (c, usize::MAX - n))?;
    (count >= 3 && count * 10 >= total).then_some(FUNCTION_WORDS[best].0)
}

/// One Snowball stemmer per language that has one.
pub struct Stemmers {
    stemmers: Vec<(&'static str, Stemmer)>,
}

impl std::fmt::Debug for Stemmers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let codes: Vec<_> = self.stemmers.iter().map(|(code, _)| *code).collect();
        f.debug_struct("Stemmers").field("languages", &codes).finish()
    }
}

impl Default for Stemmers {
    fn default() -> Self {
        Self::new()
    }
}

impl Stemmers {
    /// The stemmers of every language `rust-stemmers` knows.
    pub fn new() -> Self {
        let all = [
            ("ar", Algorithm::Arabic),
            ("da", Algorithm::Danish),
            ("nl", Algorithm::Dutch),
            ("en", Algorithm::English),
            ("fi", Algorithm::Finnish),
            ("fr", Algorithm::French),
            ("de", Algorithm::German),
            ("el", Algorithm::Greek),
            ("hu", Algorithm::Hungarian),
            ("it", Algorithm::Italian),
            ("no", Algorithm::Norwegian),
            ("nb", Algorithm::Norwegian),
            ("pt", Algorithm::Portuguese),
            ("ro", Algorithm::Romanian),
            ("ru", Algorithm::Russian),
            ("es", Algorithm::Spanish),
            ("sv", Algorithm::Swedish),
            ("ta", Algorithm::Tamil),
            ("tr", Algorithm::Turkish),
        ];
        Self { stemmers: all.into_iter().map(|(code, a)| (code, Stemmer::create(a))).collect() }
    }

    /// The stem of a folded word, or the word itself when the language has no stemmer.
    pub fn stem<'w>(&self, language: Option<&str>, folded: &'w str) -> std::borrow::Cow<'w, str> {
        let stemmer = language
            .and_then(|l| self.stemmers.iter().find(|(code, _)| *code == l))
            .map(|(_, s)| s);
        match stemmer {
            // Stemming digits or very short words gains nothing and can only merge them.
            Some(stemmer) if folded.chars().count() > 3 => stemmer.stem(folded),
            _ => std::borrow::Cow::Borrowed(folded),
        }
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends at a character boundary.
pub fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        tokens(text)
            .map(|t| match t {
                Token::Word(w) => w.to_owned(),
                Token::End => "|".to_owned(),
            })
            .collect()
    }

    #[test]
    fn words_keep_joiners_inside() {
        assert_eq!(
            words("Don't panic: U.S. GDP rose 3.5% to $1,000 in e-mail-land. Next"),
            [
                "Don't",
                "panic",
                "|",
                "U.S",
                "|",
                "GDP",
                "rose",
                "3.5",
                "to",
                "1,000",
                "in",
                "e-mail-land",
                "|",
                "Next"
            ]
        );
    }

    #[test]
    fn blank_lines_end_sentences_and_cjk_is_one_char_per_word() {
        assert_eq!(words("Title\n\nBody 東京都"), ["Title", "|", "Body", "東", "京", "都"]);
    }

    #[test]
    fn long_runs_are_cut() {
        let long = "a".repeat(100);
        let cut = words(&long);
        assert_eq!(cut.len(), 4);
        assert!(cut.iter().all(|w| w.chars().count() <= MAX_WORD_CHARS));
    }

    #[test]
    fn folding_and_stemming() {
        assert_eq!(fold("MALMÖ"), "malmo");
        let stemmers = Stemmers::new();
        assert_eq!(stemmers.stem(Some("en"), "elections"), "elect");
        assert_eq!(stemmers.stem(Some("xx"), "elections"), "elections");
        assert_eq!(stemmers.stem(Some("en"), "2024"), "2024");
    }

    #[test]
    fn languages() {
        let guess = |text: &str| {
            let folded: Vec<String> = tokens(text)
                .filter_map(|t| match t {
                    Token::Word(w) => Some(fold(w)),
                    Token::End => None,
                })
                .collect();
            guess_language(folded.iter().map(String::as_str))
        };
        assert_eq!(guess("The minister said that the plan was not ready for the vote"), Some("en"));
        assert_eq!(
            guess("Der Minister sagte, dass der Plan nicht fertig ist und die Wahl"),
            Some("de")
        );
        assert_eq!(
            guess("Le ministre a dit que le plan n'est pas prêt pour le vote des élus"),
            Some("fr")
        );
        assert_eq!(guess("xyzzy plugh"), None);
        assert_eq!(language_code("en-GB").as_deref(), Some("en"));
        assert_eq!(language_code("  "), None);
    }
}
