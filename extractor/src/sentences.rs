//! Repeated-sentence removal per source and week: the pure algorithm (splitting, clean-up, ownership).
//!
//! Media Cloud's legacy backend dropped, from each story, the sentences that an earlier-processed story
//! of the same source had in the same ISO week (mediacloud.md section 4). This module keeps its rule
//! and fixes its weaknesses; the counts and the index live in `store`.
//!
//! 1. [`split`]: Media Cloud's text clean-up, then a splitter in the style of the Koehn/Schroeder
//!    one: breaks after `?`, `!` and `.` when the next word starts a sentence, except after
//!    per-language non-breaking prefixes ("Dr.", "Mr.", "Jan."; "No." before a number), single
//!    capitals and acronyms ("U.S."); every line break is a boundary.
//! 2. [`clean`]: drops code-like sentences (five or more `[`...`{` groups) and all-ASCII sentences of
//!    at most five characters; short non-ASCII sentences (Chinese, Japanese) stay.
//! 3. [`dedup_within`]: the first occurrence of each exact sentence in a story.
//! 4. [`decide`]: which sentences a story keeps, given a [`SentenceIndex`] that knows the other
//!    stories of the same (source, week). Unlike the reference, the **earliest-published** story
//!    owns a sentence (ties broken by story id), whatever order stories are processed in, so
//!    re-processing converges; every drop names its owner (auditable), nothing is deleted
//!    (reversible: the store keeps all sentences and flags), and [`Mode::Strict`] also drops the
//!    owner's copy.
//!
//! The week is the ISO week (starting Monday) of the story's publication time in the source's time
//! zone ([`week_start`]); stories without a publication time are never deduplicated.

use std::collections::HashSet;

use chrono::{DateTime, NaiveDate, TimeZone, Utc, Weekday};

/// Texts are cut to this many bytes before splitting, as Media Cloud does.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Splits a story's text into sentences (see the module docs). `language` is an ISO 639-1 code.
pub fn split(text: &str, language: Option<&str>) -> Vec<String> {
    let text = prepare(text);
    let prefixes = prefixes(language.unwrap_or("en"));
    let mut sentences = Vec::new();
    for line in text.split('\n') {
        let words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
        let mut start = 0;
        for i in 0..words.len() {
            let Some(next) = words.get(i + 1) else { break };
            if breaks_after(words[i], next, prefixes) {
                sentences.push(words[start..=i].join(" "));
                start = i + 1;
            }
        }
        if start < words.len() {
            sentences.push(words[start..].join(" "));
        }
    }
    sentences
}

/// Media Cloud's pre-split clean-up: single line breaks join lines, blank lines become one break,
/// tabs and no-break spaces become spaces, spaces collapse, spaces before a period go, a missing
/// space after a period between words is restored, and `…` becomes `...`.
fn prepare(text: &str) -> String {
    let mut cut = text.len().min(MAX_TEXT_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let text = &text[..cut];
    // Paragraphs (blank-line separated) stay apart; lines inside a paragraph are joined.
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| p.replace(['\n', '\t', '\u{a0}'], " ").replace('…', "..."))
        .collect();
    let mut out = String::with_capacity(text.len());
    for paragraph in paragraphs {
        let collapsed =
            paragraph.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
        let collapsed = collapsed.replace(" .", ".");
        if collapsed.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&restore_space_after_period(&collapsed));
    }
    out
}

/// `word.Next` becomes `word. Next` when the word has at least two lower-case letters before the
/// period and the next word is capitalised then lower-case (Media Cloud's rule).
fn restore_space_after_period(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if c == '.'
            && i >= 2
            && chars[i - 1].is_ascii_lowercase()
            && chars[i - 2].is_ascii_lowercase()
            && chars.get(i + 1).is_some_and(char::is_ascii_uppercase)
            && chars.get(i + 2).is_some_and(char::is_ascii_lowercase)
        {
            out.push(' ');
        }
    }
    out
}

/// Closing punctuation that may follow the end of a sentence.
fn is_closing(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '»' | '”' | '’' | '%')
}

/// Opening punctuation that may precede the start of a sentence.
fn is_opening(c: char) -> bool {
    matches!(c, '"' | '\'' | '(' | '[' | '«' | '“' | '‘' | '¿' | '¡')
}

/// Whether the next word can start a sentence: an upper-case letter, a digit, or a letter without
/// case (Chinese, Arabic), possibly after opening punctuation.
fn starts_sentence(word: &str) -> bool {
    let first = word.chars().find(|c| !is_opening(*c));
    first.is_some_and(|c| {
        c.is_uppercase() || c.is_numeric() || (c.is_alphabetic() && !c.is_lowercase())
    })
}

/// Whether a sentence ends after `word`, given the `next` word.
fn breaks_after(word: &str, next: &str, prefixes: &Prefixes) -> bool {
    let core = word.trim_end_matches(is_closing);
    if core.ends_with(['?', '!']) || core.ends_with("..") {
        return starts_sentence(next);
    }
    let Some(prefix) = core.strip_suffix('.') else { return false };
    if !starts_sentence(next) {
        return false;
    }
    let prefix = prefix.trim_start_matches(|c: char| is_opening(c) || c == '-');
    if prefix.is_empty() {
        return true;
    }
    // Acronyms and initials: "U.S.", "e.g.", "J.".
    if prefix.contains('.') && prefix.chars().any(char::is_alphabetic) {
        return false;
    }
    let mut letters = prefix.chars();
    if let (Some(c), None) = (letters.next(), letters.next())
        && c.is_uppercase()
    {
        return false;
    }
    if prefixes.always.contains(&prefix) {
        return false;
    }
    if prefixes.before_number.contains(&prefix) && next.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    true
}

/// Non-breaking prefixes of one language.
#[derive(Debug)]
struct Prefixes {
    /// Never end a sentence.
    always: &'static [&'static str],
    /// Do not end a sentence before a number ("No. 5").
    before_number: &'static [&'static str],
}

/// The prefixes for a language; English ones for languages without a list.
fn prefixes(language: &str) -> &'static Prefixes {
    const EN: Prefixes = Prefixes {
        always: &[
            "Mr", "Mrs", "Ms", "Dr", "Prof", "Sr", "Jr", "St", "Mt", "Rev", "Hon", "Gen", "Gov",
            "Sen", "Rep", "Lt", "Col", "Capt", "Sgt", "Cmdr", "Adm", "Maj", "Supt", "Insp", "Inc",
            "Ltd", "Co", "Corp", "vs", "etc", "approx", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul",
            "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Ave", "Blvd", "Rd", "Ft", "Fig", "Ph",
            "Esq", "Messrs",
        ],
        before_number: &["No", "Nos", "Art", "pp", "p", "Vol", "Ch", "ch", "para", "ed", "nr"],
    };
    const FR: Prefixes = Prefixes {
        always: &[
            "M", "MM", "Mme", "Mmes", "Mlle", "Dr", "Pr", "Me", "St", "Ste", "av", "bd", "etc",
            "cf", "env",
        ],
        before_number: &["No", "no", "n°", "p", "art", "vol"],
    };
    const DE: Prefixes = Prefixes {
        always: &[
            "Dr", "Prof", "Hr", "Fr", "Hrn", "bzw", "ca", "usw", "vgl", "Str", "St", "Nr", "Bd",
            "evtl", "ggf", "inkl", "zzgl", "Mio", "Mrd", "Jh", "Abs", "Tel", "Dipl", "Ing",
        ],
        before_number: &["Nr", "Art", "S", "Abs", "Bd"],
    };
    const ES: Prefixes = Prefixes {
        always: &[
            "Sr", "Sra", "Srta", "Dr", "Dra", "Ud", "Uds", "Lic", "Ing", "Prof", "etc", "Av",
            "Avda", "Gral",
        ],
        before_number: &["pág", "núm", "No", "art", "vol"],
    };
    const PT: Prefixes = Prefixes {
        always: &[
            "Sr", "Sra", "Srta", "Dr", "Dra", "Prof", "Profa", "Eng", "etc", "Av", "Exmo", "Exma",
        ],
        before_number: &["pág", "n", "nº", "art", "vol"],
    };
    const IT: Prefixes = Prefixes {
        always: &[
            "Sig", "Sigg", "Sigra", "Dott", "Dr", "Prof", "Ing", "Avv", "ecc", "Geom", "On", "Sen",
        ],
        before_number: &["n", "pag", "art", "vol"],
    };
    const NL: Prefixes = Prefixes {
        always: &[
            "dhr", "mevr", "dr", "prof", "ir", "drs", "mr", "bijv", "enz", "o.a", "mw", "St", "ca",
        ],
        before_number: &["nr", "blz", "art"],
    };
    match language.get(..2).unwrap_or("") {
        "fr" => &FR,
        "de" => &DE,
        "es" => &ES,
        "pt" => &PT,
        "it" => &IT,
        "nl" => &NL,
        _ => &EN,
    }
}

/// Drops junk sentences (Media Cloud's rule, see the module docs).
pub fn clean(sentences: Vec<String>) -> Vec<String> {
    sentences.into_iter().filter(|s| !((s.is_ascii() && s.len() <= 5) || code_like(s))).collect()
}

/// Five or more `[` ... `{` groups in a row from the start: serialized data, not prose.
fn code_like(sentence: &str) -> bool {
    let mut rest = sentence;
    for _ in 0..5 {
        let Some(open) = rest.find('[') else { return false };
        let Some(brace) = rest[open..].find('{') else { return false };
        rest = &rest[open + brace + 1..];
    }
    sentence.starts_with('[')
}

/// Keeps the first occurrence of each exact sentence, in order.
pub fn dedup_within(sentences: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    sentences.into_iter().filter(|s| seen.insert(s.clone())).collect()
}

/// Split, clean and deduplicate a story's text: the sentences the store records, numbered by position.
pub fn story_sentences(text: &str, language: Option<&str>) -> Vec<String> {
    dedup_within(clean(split(text, language)))
}

/// The Monday starting the ISO week of `published`, in the source's time zone `tz`.
pub fn week_start<Tz: TimeZone>(published: DateTime<Utc>, tz: &Tz) -> NaiveDate {
    let local = published.with_timezone(tz).date_naive();
    local.week(Weekday::Mon).first_day()
}

/// A stable 64-bit key of a sentence (FNV-1a), for indexes; equality still compares the text.
pub fn sentence_key(sentence: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in sentence.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Where a story stands in the ownership order: earlier publication first, then smaller id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank {
    pub published: DateTime<Utc>,
    pub story_id: u64,
}

/// The scope of deduplication: one source, one week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scope {
    pub source_id: u64,
    /// The Monday of the week, from [`week_start`].
    pub week: NaiveDate,
}

/// What the store knows about other stories' sentences.
pub trait SentenceIndex {
    /// The earliest-ranked story other than `except` in `scope` whose sentences include `sentence`.
    fn earliest_other(&self, scope: Scope, sentence: &str, except: Rank) -> Option<Rank>;
}

/// Whether the owner keeps its copy of a repeated sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The earliest story keeps the sentence; later ones drop it (Media Cloud's rule, made deterministic).
    Normal,
    /// Every story drops a sentence that any other story of the scope also has.
    Strict,
}

/// The verdict on one sentence of a story.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The sentence stays in the story's searchable text.
    Keep,
    /// The sentence repeats one of `owner`'s (the earliest story with it; in strict mode possibly a
    /// later one).
    Drop { owner: Rank },
}

/// Decides, for each sentence of a story (already through [`story_sentences`]), whether it stays.
///
/// Stories without a publication time (`rank == None`) keep everything, as in the reference. The
/// result depends only on the set of stories in the index, not on the order they were added.
pub fn decide(
    sentences: &[String],
    scope: Scope,
    rank: Option<Rank>,
    index: &impl SentenceIndex,
    mode: Mode,
) -> Vec<Verdict> {
    let Some(rank) = rank else {
        return vec![Verdict::Keep; sentences.len()];
    };
    sentences
        .iter()
        .map(|sentence| match index.earliest_other(scope, sentence, rank) {
            Some(owner) if owner < rank || mode == Mode::Strict => Verdict::Drop { owner },
            _ => Verdict::Keep,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use chrono::FixedOffset;

    use super::*;

    #[test]
    fn splits_sentences_but_not_abbreviations() {
        let text = "Dr. Smith went to the U.S. on Monday. He met Mr. Jones at 5 p.m. yesterday! Was it fun? \
                    See No. 5 for details. It cost $3.50 in total.\n\nA new paragraph starts here";
        assert_eq!(
            split(text, Some("en")),
            [
                "Dr. Smith went to the U.S. on Monday.",
                "He met Mr. Jones at 5 p.m. yesterday!",
                "Was it fun?",
                "See No. 5 for details.",
                "It cost $3.50 in total.",
                "A new paragraph starts here",
            ]
        );
        assert_eq!(
            split("Er traf Dr. Müller bzw. Frau Schmidt. Dann ging er.", Some("de")),
            ["Er traf Dr. Müller bzw. Frau Schmidt.", "Dann ging er."]
        );
        assert_eq!(
            split("Il a vu M. Dupont. Puis il est parti.", Some("fr")),
            ["Il a vu M. Dupont.", "Puis il est parti."]
        );
        assert_eq!(
            split("one line\nstill the same sentence. Next one", None),
            ["one line still the same sentence.", "Next one"]
        );
        assert_eq!(
            split("He said \"stop.\" Then he left.", None),
            ["He said \"stop.\"", "Then he left."]
        );
        assert_eq!(
            split("missing space.Next sentence here", None),
            ["missing space.", "Next sentence here"]
        );
    }

    #[test]
    fn cleaning_and_within_story_dedup() {
        let sentences = vec![
            "Hi.".to_owned(),
            "Real sentence here.".to_owned(),
            "中文短句".to_owned(),
            "[a{ [b{ [c{ [d{ [e{ x".to_owned(),
            "Real sentence here.".to_owned(),
        ];
        assert_eq!(dedup_within(clean(sentences)), ["Real sentence here.", "中文短句"]);
    }

    #[test]
    fn week_boundaries_follow_the_source_time_zone() {
        let utc = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let eastern = FixedOffset::west_opt(5 * 3600).unwrap();
        // Monday 02:00 UTC is still Sunday evening in New York: the previous week there.
        let published = utc("2024-05-06T02:00:00Z");
        assert_eq!(week_start(published, &Utc), NaiveDate::from_ymd_opt(2024, 5, 6).unwrap());
        assert_eq!(week_start(published, &eastern), NaiveDate::from_ymd_opt(2024, 4, 29).unwrap());
        // A Sunday belongs to the week that started the Monday before; years roll over mid-week.
        assert_eq!(
            week_start(utc("2024-05-12T23:59:59Z"), &Utc),
            NaiveDate::from_ymd_opt(2024, 5, 6).unwrap()
        );
        assert_eq!(
            week_start(utc("2025-01-01T12:00:00Z"), &Utc),
            NaiveDate::from_ymd_opt(2024, 12, 30).unwrap()
        );
    }

    /// An in-memory index: every story's sentences by scope.
    #[derive(Debug, Default)]
    struct Memory(HashMap<(Scope, String), Vec<Rank>>);

    impl Memory {
        fn add(&mut self, scope: Scope, rank: Rank, sentences: &[String]) {
            for sentence in sentences {
                self.0.entry((scope, sentence.clone())).or_default().push(rank);
            }
        }
    }

    impl SentenceIndex for Memory {
        fn earliest_other(&self, scope: Scope, sentence: &str, except: Rank) -> Option<Rank> {
            self.0
                .get(&(scope, sentence.to_owned()))?
                .iter()
                .filter(|r| **r != except)
                .min()
                .copied()
        }
    }

    #[test]
    fn earliest_published_story_owns_a_sentence_in_any_order() {
        let scope = Scope { source_id: 7, week: NaiveDate::from_ymd_opt(2024, 5, 6).unwrap() };
        let rank = |day: u32, id: u64| Rank {
            published: Utc.with_ymd_and_hms(2024, 5, day, 12, 0, 0).unwrap(),
            story_id: id,
        };
        let stories = [
            (
                rank(8, 1),
                story_sentences(
                    "Subscribe to our newsletter. The mayor resigned on Wednesday.",
                    None,
                ),
            ),
            (
                rank(7, 2),
                story_sentences("Subscribe to our newsletter. Rain is expected on Tuesday.", None),
            ),
            (
                rank(9, 3),
                story_sentences("A new bridge opened. Subscribe to our newsletter.", None),
            ),
        ];
        let kept = |order: &[usize], mode: Mode| -> Vec<Vec<Verdict>> {
            let mut index = Memory::default();
            for &i in order {
                index.add(scope, stories[i].0, &stories[i].1);
            }
            stories.iter().map(|(r, s)| decide(s, scope, Some(*r), &index, mode)).collect()
        };
        let forward = kept(&[0, 1, 2], Mode::Normal);
        assert_eq!(forward, kept(&[2, 1, 0], Mode::Normal));
        let owner = Verdict::Drop { owner: rank(7, 2) };
        assert_eq!(forward[0], [owner.clone(), Verdict::Keep]);
        assert_eq!(forward[1], [Verdict::Keep, Verdict::Keep]);
        assert_eq!(forward[2], [Verdict::Keep, owner]);
        let strict = kept(&[1, 0, 2], Mode::Strict);
        assert_eq!(strict[1], [Verdict::Drop { owner: rank(8, 1) }, Verdict::Keep]);
        // No publication time: nothing is dropped.
        let index = Memory::default();
        assert_eq!(
            decide(&stories[0].1, scope, None, &index, Mode::Strict),
            [Verdict::Keep, Verdict::Keep]
        );
    }

    proptest::proptest! {
        #[test]
        fn splitting_never_panics_and_loses_no_words(text in "[a-zA-Z.?!\"'() \n…é中]{0,300}") {
            let sentences = split(&text, Some("en"));
            let words = |t: &str| t.replace('…', "...").split_whitespace().map(str::len).sum::<usize>();
            let joined = sentences.join(" ");
            proptest::prop_assert!(words(&joined) <= words(&text) + sentences.len());
            let _ = story_sentences(&text, Some("de"));
        }
    }

    #[test]
    fn sentence_keys_are_stable() {
        assert_eq!(sentence_key(""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(sentence_key("a"), sentence_key("b"));
    }
}
