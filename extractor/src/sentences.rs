//! Repeated-sentence removal per source and week: the pure algorithm (splitting, clean-up, ownership).
//!
//! Media Cloud's legacy backend dropped, from each story, the sentences that an earlier-processed story
//! of the same source had in the same ISO week (mediacloud.md section 4). This module keeps its rule
//! and fixes its weaknesses; the index of which story first had each sentence lives in `store`.
//!
//! 1. [`split`]: Media Cloud's text clean-up, then a splitter in the style of the Koehn/Schroeder
//!    one: breaks after `?`, `!` and `.` when the next word starts a sentence, except after
//!    per-language non-breaking prefixes ("Dr.", "Mr.", "Jan."; "No." before a number), single
//!    capitals and acronyms ("U.S."); always after `。`, `！`, `？` (Chinese, Japanese), `।`
//!    (Hindi) and `؟` (Arabic), which need no space after them, unless a closing quotation mark
//!    follows and the text goes on; every line break is a boundary.
//! 2. [`clean`]: drops code-like sentences (five or more `[`...`{` groups) and all-ASCII sentences of
//!    at most five characters; short non-ASCII sentences (Chinese, Japanese) stay.
//! 3. [`dedup_within`]: the first occurrence of each exact sentence in a story.
//! 4. [`decide`]: which sentences a story keeps, given a lookup of each sentence's [`Holders`] in
//!    the story's (source, week): the key is the source, the Monday of the ISO week of the story's
//!    publication in the source's time zone ([`week_start`]) and the exact sentence
//!    ([`sentence_key`] is a stable 64-bit hash of it for indexes). Unlike the reference:
//!    - deterministic: the **earliest-published** story owns a sentence (ties go to the smaller
//!      story id, see [`Rank`]), whatever order stories are processed in, and re-processing a
//!      story once the index holds every story gives the same answer whatever happened before;
//!    - auditable: every dropped sentence names its owner ([`Verdict::Drop`]);
//!    - reversible: nothing is deleted; [`searchable_text`] joins the kept sentences and
//!      [`restore`] puts the dropped ones back in place;
//!    - [`Mode::Strict`] also drops the owner's own copy of a sentence that other stories share.
//!
//! Stories without a publication time are never deduplicated, as in the reference.

use std::collections::HashSet;

use chrono::{DateTime, NaiveDate, TimeZone, Utc, Weekday};

/// Texts are cut to this many bytes before splitting, as Media Cloud does.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Splits a story's text into sentences (see the module docs). `language` is an ISO 639-1 code.
pub fn split(text: &str, language: Option<&str>) -> Vec<String> {
    let text = prepare(text);
    let prefixes = prefixes(language.unwrap_or("en"));
    let mut sentences = Vec::new();
    for segment in text.split('\n').flat_map(hard_segments) {
        let words: Vec<&str> = segment.split(' ').filter(|w| !w.is_empty()).collect();
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

/// Sentence ends that need no space or capital after them: Chinese and Japanese full stops and
/// marks, the Devanagari danda, the Arabic question mark and the Urdu full stop.
const HARD_ENDS: &[char] = &['。', '！', '？', '।', '؟', '۔'];

/// Cuts a line after every hard sentence end (and the closing quotes or brackets that follow it).
fn hard_segments(line: &str) -> impl Iterator<Item = &str> {
    let mut rest = line;
    std::iter::from_fn(move || {
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            return None;
        }
        let mut chars = trimmed.char_indices().peekable();
        let mut end = trimmed.len();
        while let Some((i, c)) = chars.next() {
            if HARD_ENDS.contains(&c) {
                let mut cut = i + c.len_utf8();
                let mut quoted = false;
                while let Some(&(j, next)) = chars.peek() {
                    if !(is_closing(next) || matches!(next, '」' | '』' | '）' | '】')) {
                        break;
                    }
                    cut = j + next.len_utf8();
                    quoted = true;
                    chars.next();
                }
                // A quotation that text goes on after ("「本当？」と彼は言った。") is inside the sentence.
                if quoted && chars.peek().is_some_and(|&(_, next)| next.is_alphanumeric()) {
                    continue;
                }
                end = cut;
                break;
            }
        }
        rest = &trimmed[end..];
        Some(trimmed[..end].trim_end())
    })
}

/// Media Cloud's pre-split clean-up: single line breaks join lines, blank lines become one break,
/// tabs and no-break spaces become spaces, spaces collapse, spaces before a period go, a missing
/// space after a period between words is restored, and `…` becomes `...`.
fn prepare(text: &str) -> String {
    let mut cut = text.len().min(MAX_TEXT_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let text = text[..cut].replace("\r\n", "\n").replace('\r', "\n");
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

/// What the index knows about one sentence in a story's (source, week).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holders {
    /// The earliest-ranked story with the sentence (it may be the story being decided).
    pub first: Rank,
    /// How many distinct stories have the sentence (including the story being decided, if it is
    /// already recorded).
    pub stories: u32,
}

/// Whether the owner keeps its copy of a repeated sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The earliest story keeps the sentence; later ones drop it (Media Cloud's rule, made deterministic).
    Normal,
    /// Every story drops a sentence that any other story of the scope also has, the owner too.
    Strict,
}

/// The verdict on one sentence of a story.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The sentence stays in the story's searchable text.
    Keep,
    /// The sentence repeats one of `owner`'s, the earliest story with it. In strict mode the owner
    /// drops its own copy too, and then `owner` is the story itself.
    Drop { owner: Rank },
}

/// Decides, for each sentence of a story (already through [`story_sentences`]), whether it stays.
///
/// `holders` looks a sentence up in the index of the story's (source, week); the story itself may
/// or may not be recorded there yet, the answer is the same. Stories without a publication time
/// (`rank == None`) keep everything, as in the reference. The result depends only on the set of
/// stories in the index, never on the order they were added.
pub fn decide(
    sentences: &[String],
    rank: Option<Rank>,
    mut holders: impl FnMut(&str) -> Option<Holders>,
    mode: Mode,
) -> Vec<Verdict> {
    let Some(rank) = rank else {
        return vec![Verdict::Keep; sentences.len()];
    };
    sentences
        .iter()
        .map(|sentence| {
            let Some(found) = holders(sentence) else { return Verdict::Keep };
            if found.first < rank {
                return Verdict::Drop { owner: found.first };
            }
            // This story is the owner: the sentence is shared when another story is recorded
            // with it (a later first story means this one is not recorded yet).
            let shared = found.first != rank || found.stories >= 2;
            if mode == Mode::Strict && shared {
                Verdict::Drop { owner: rank }
            } else {
                Verdict::Keep
            }
        })
        .collect()
}

/// The story's searchable text: its kept sentences joined by spaces, as Media Cloud indexed them.
pub fn searchable_text(sentences: &[String], verdicts: &[Verdict]) -> String {
    sentences
        .iter()
        .zip(verdicts)
        .filter(|(_, verdict)| **verdict == Verdict::Keep)
        .map(|(sentence, _)| sentence.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A dropped sentence, where it was and who owns it: what an audit trail records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The sentence's position in the story's sentences.
    pub position: usize,
    pub sentence: String,
    pub owner: Rank,
}

/// The dropped sentences of a story, in order.
pub fn dropped(sentences: &[String], verdicts: &[Verdict]) -> Vec<Dropped> {
    sentences
        .iter()
        .zip(verdicts)
        .enumerate()
        .filter_map(|(position, (sentence, verdict))| match verdict {
            Verdict::Keep => None,
            Verdict::Drop { owner } => {
                Some(Dropped { position, sentence: sentence.clone(), owner: *owner })
            }
        })
        .collect()
}

/// The story's sentences again, from the kept ones in order and the dropped ones with their
/// positions: removal can always be undone.
pub fn restore(kept: &[String], dropped: &[Dropped]) -> Vec<String> {
    let mut out = Vec::with_capacity(kept.len() + dropped.len());
    let mut kept = kept.iter();
    let mut dropped = dropped.iter().peekable();
    loop {
        match dropped.peek() {
            Some(d) if d.position == out.len() => {
                out.push(d.sentence.clone());
                dropped.next();
            }
            _ => match kept.next() {
                Some(sentence) => out.push(sentence.clone()),
                None => break,
            },
        }
    }
    // Dropped sentences past the end (positions beyond the kept ones) follow in order.
    out.extend(dropped.map(|d| d.sentence.clone()));
    out
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

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

    /// An in-memory index of the sentences of many stories, keyed like the store's:
    /// (source, week start, sentence) to the ranks of the stories that have it.
    #[derive(Debug, Default, Clone)]
    struct Index(HashMap<(u64, NaiveDate, String), BTreeSet<Rank>>);

    /// A story as a caller sees it: source, rank, the source's time zone, text.
    #[derive(Debug, Clone)]
    struct Story {
        source: u64,
        rank: Rank,
        tz: FixedOffset,
        sentences: Vec<String>,
    }

    impl Story {
        fn new(source: u64, id: u64, published: &str, text: &str) -> Story {
            let published = DateTime::parse_from_rfc3339(published).unwrap().to_utc();
            Story {
                source,
                rank: Rank { published, story_id: id },
                tz: FixedOffset::east_opt(0).unwrap(),
                sentences: story_sentences(text, Some("en")),
            }
        }

        fn week(&self) -> NaiveDate {
            week_start(self.rank.published, &self.tz)
        }
    }

    impl Index {
        fn record(&mut self, story: &Story) {
            for sentence in &story.sentences {
                let key = (story.source, story.week(), sentence.clone());
                self.0.entry(key).or_default().insert(story.rank);
            }
        }

        fn forget(&mut self, story: &Story) {
            for ranks in self.0.values_mut() {
                ranks.remove(&story.rank);
            }
            self.0.retain(|_, ranks| !ranks.is_empty());
        }

        fn decide(&self, story: &Story, mode: Mode) -> Vec<Verdict> {
            let holders = |sentence: &str| {
                let ranks = self.0.get(&(story.source, story.week(), sentence.to_owned()))?;
                let first = *ranks.first()?;
                Some(Holders { first, stories: ranks.len() as u32 })
            };
            decide(&story.sentences, Some(story.rank), holders, mode)
        }
    }

    fn stories() -> Vec<Story> {
        vec![
            Story::new(
                7,
                1,
                "2024-05-08T12:00:00Z",
                "Subscribe to our newsletter. The mayor resigned on Wednesday.",
            ),
            Story::new(
                7,
                2,
                "2024-05-07T12:00:00Z",
                "Subscribe to our newsletter. Rain is expected on Tuesday.",
            ),
            Story::new(
                7,
                3,
                "2024-05-09T12:00:00Z",
                "A new bridge opened. Subscribe to our newsletter.",
            ),
            // Same time as story 2: the smaller id wins the tie.
            Story::new(
                7,
                4,
                "2024-05-07T12:00:00Z",
                "Rain is expected on Tuesday. Roads will close.",
            ),
        ]
    }

    #[test]
    fn the_earliest_story_owns_a_sentence() {
        let stories = stories();
        let mut index = Index::default();
        stories.iter().for_each(|s| index.record(s));
        let owner = |i: usize| Verdict::Drop { owner: stories[i].rank };
        assert_eq!(index.decide(&stories[0], Mode::Normal), [owner(1), Verdict::Keep]);
        assert_eq!(index.decide(&stories[1], Mode::Normal), [Verdict::Keep, Verdict::Keep]);
        assert_eq!(index.decide(&stories[2], Mode::Normal), [Verdict::Keep, owner(1)]);
        assert_eq!(index.decide(&stories[3], Mode::Normal), [owner(1), Verdict::Keep]);
        // Strict: the owner drops its shared sentences too, and names itself.
        assert_eq!(index.decide(&stories[1], Mode::Strict), [owner(1), owner(1)]);
        assert_eq!(index.decide(&stories[2], Mode::Strict), [Verdict::Keep, owner(1)]);
        // No publication time: nothing is dropped.
        let none = decide(&stories[0].sentences, None, |_| None, Mode::Strict);
        assert_eq!(none, [Verdict::Keep, Verdict::Keep]);
        // The audit trail names the owner of each dropped sentence.
        let verdicts = index.decide(&stories[2], Mode::Normal);
        assert_eq!(
            dropped(&stories[2].sentences, &verdicts),
            [Dropped {
                position: 1,
                sentence: "Subscribe to our newsletter.".into(),
                owner: stories[1].rank
            }]
        );
        assert_eq!(searchable_text(&stories[2].sentences, &verdicts), "A new bridge opened.");
    }

    #[test]
    fn the_answer_does_not_depend_on_processing_order() {
        let stories = stories();
        let mut full = Index::default();
        stories.iter().for_each(|s| full.record(s));
        let expected: Vec<Vec<Verdict>> =
            stories.iter().map(|s| full.decide(s, Mode::Normal)).collect();
        // Every order of arrival. Each story is decided when it arrives (before or after it is
        // recorded, both happen in practice); once all are in, re-processing converges.
        let mut order: Vec<usize> = (0..stories.len()).collect();
        let mut orders = Vec::new();
        permutations(&mut order, 0, &mut orders);
        assert_eq!(orders.len(), 24);
        for order in orders {
            let mut index = Index::default();
            for (step, &i) in order.iter().enumerate() {
                let before = index.decide(&stories[i], Mode::Strict);
                index.record(&stories[i]);
                assert_eq!(index.decide(&stories[i], Mode::Strict), before, "{order:?} at {step}");
            }
            let again: Vec<Vec<Verdict>> =
                stories.iter().map(|s| index.decide(s, Mode::Normal)).collect();
            assert_eq!(again, expected, "{order:?}");
        }
    }

    fn permutations(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
        if k == items.len() {
            out.push(items.clone());
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            permutations(items, k + 1, out);
            items.swap(k, i);
        }
    }

    #[test]
    fn weeks_and_time_zones_separate_scopes() {
        let text = "Subscribe to our newsletter today. Other news follows here.";
        // Sunday 23:30 and Monday 00:30 UTC: two weeks for a UTC source.
        let sunday = Story::new(1, 1, "2024-05-12T23:30:00Z", text);
        let monday = Story::new(1, 2, "2024-05-13T00:30:00Z", text);
        let mut index = Index::default();
        index.record(&sunday);
        index.record(&monday);
        assert_eq!(index.decide(&monday, Mode::Normal), [Verdict::Keep, Verdict::Keep]);
        // For a source two hours east of UTC both are Monday: one week, the earlier one owns.
        let east = FixedOffset::east_opt(2 * 3600).unwrap();
        let (sunday, monday) = (Story { tz: east, ..sunday }, Story { tz: east, ..monday });
        let mut index = Index::default();
        index.record(&sunday);
        index.record(&monday);
        let owner = Verdict::Drop { owner: sunday.rank };
        assert_eq!(index.decide(&monday, Mode::Normal), [owner, owner]);
    }

    #[test]
    fn one_source_never_removes_another_sources_sentences() {
        let text = "Subscribe to our newsletter today. Other news follows here.";
        let first = Story::new(1, 1, "2024-05-07T12:00:00Z", text);
        let other = Story::new(2, 2, "2024-05-08T12:00:00Z", text);
        let mut index = Index::default();
        index.record(&first);
        index.record(&other);
        assert_eq!(index.decide(&other, Mode::Strict), [Verdict::Keep, Verdict::Keep]);
    }

    #[test]
    fn removal_can_be_undone() {
        let stories = stories();
        let mut index = Index::default();
        stories.iter().for_each(|s| index.record(s));
        for story in &stories {
            for mode in [Mode::Normal, Mode::Strict] {
                let verdicts = index.decide(story, mode);
                let kept: Vec<String> = story
                    .sentences
                    .iter()
                    .zip(&verdicts)
                    .filter(|(_, v)| **v == Verdict::Keep)
                    .map(|(s, _)| s.clone())
                    .collect();
                assert_eq!(restore(&kept, &dropped(&story.sentences, &verdicts)), story.sentences);
            }
        }
        // Forgetting the owner (a story deleted or re-dated) gives the sentence back.
        index.forget(&stories[1]);
        index.forget(&stories[3]);
        assert_eq!(index.decide(&stories[0], Mode::Normal), [Verdict::Keep, Verdict::Keep]);
        assert_eq!(
            searchable_text(&stories[0].sentences, &index.decide(&stories[0], Mode::Normal)),
            "Subscribe to our newsletter. The mayor resigned on Wednesday."
        );
    }

    #[test]
    fn sentences_in_scripts_without_spaces() {
        assert_eq!(
            split("今日は雨です。明日は晴れるでしょう！「本当？」と彼は言った。", Some("ja")),
            ["今日は雨です。", "明日は晴れるでしょう！", "「本当？」と彼は言った。"]
        );
        assert_eq!(
            split("他说：“我们走吧。”他们离开了。", Some("zh")),
            ["他说：“我们走吧。”他们离开了。"]
        );
        assert_eq!(
            split("我们走吧。“好的。” 他们离开了。", Some("zh")),
            ["我们走吧。", "“好的。”", "他们离开了。"]
        );
        assert_eq!(
            split("यह पहला वाक्य है। यह दूसरा है।", Some("hi")),
            ["यह पहला वाक्य है।", "यह दूसरा है।"]
        );
        assert_eq!(split("هل أنت بخير؟ نعم، شكرا.", Some("ar")), ["هل أنت بخير؟", "نعم، شكرا."]);
        assert_eq!(split("Line one.\r\n\r\nLine two.", None), ["Line one.", "Line two."]);
    }

    proptest::proptest! {
        /// Random stories over a small vocabulary: in normal mode exactly one story of a
        /// (source, week) keeps each sentence, the earliest; in strict mode a sentence stays only
        /// where no other story has it; the order of recording changes nothing.
        #[test]
        fn exactly_the_owner_keeps_each_sentence(
            specs in proptest::collection::vec((0u64..2, 0u32..3, 0u32..40, proptest::collection::vec(0usize..6, 1..5)), 1..8),
            seed in 0usize..1000,
        ) {
            const VOCABULARY: [&str; 6] = [
                "Subscribe to our newsletter.", "Read more stories here.", "The mayor resigned.",
                "Rain is expected.", "Roads will close.", "A bridge opened.",
            ];
            let stories: Vec<Story> = specs
                .iter()
                .enumerate()
                .map(|(id, (source, day, hour, words))| {
                    let text: Vec<&str> = words.iter().map(|&w| VOCABULARY[w]).collect();
                    let published = format!("2024-05-{:02}T{:02}:00:00Z", 6 + day * 3, hour % 24);
                    Story::new(*source, id as u64 + 1, &published, &text.join(" "))
                })
                .collect();
            let mut index = Index::default();
            stories.iter().for_each(|s| index.record(s));
            let mut shuffled = Index::default();
            // Another order: rotated, and reversed for odd seeds.
            let mut order: Vec<usize> = (0..stories.len()).map(|i| (i + seed) % stories.len()).collect();
            if seed % 2 == 1 {
                order.reverse();
            }
            order.iter().for_each(|&i| shuffled.record(&stories[i]));
            let mut keepers: HashMap<(u64, NaiveDate, String), Vec<Rank>> = HashMap::new();
            for story in &stories {
                let verdicts = index.decide(story, Mode::Normal);
                proptest::prop_assert_eq!(&verdicts, &shuffled.decide(story, Mode::Normal));
                let strict = index.decide(story, Mode::Strict);
                for ((sentence, verdict), strict) in story.sentences.iter().zip(&verdicts).zip(&strict) {
                    let key = (story.source, story.week(), sentence.clone());
                    let holders = &index.0[&key];
                    if *verdict == Verdict::Keep {
                        keepers.entry(key).or_default().push(story.rank);
                    } else {
                        proptest::prop_assert_eq!(*verdict, Verdict::Drop { owner: *holders.first().unwrap() });
                    }
                    proptest::prop_assert_eq!(*strict == Verdict::Keep, holders.len() == 1);
                }
            }
            for (key, ranks) in keepers {
                proptest::prop_assert_eq!(ranks, vec![*index.0[&key].first().unwrap()]);
            }
        }

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
