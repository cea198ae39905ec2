//! Facts: the names and numbers a story states, compared between two documents.
//!
//! Wording alone cannot tell a copy from another story written on the same template (a match
//! report, a market close, an earthquake bulletin: the same sentences with other names and
//! numbers), nor a copy from a later version of the story whose figures changed. Facts can:
//!
//! - **Names**: runs of proper nouns (the tagger's PROPN, and acronyms it took for nouns),
//!   joined across name particles (`Bank of England`, `Ursula von der Leyen`), keyed by their
//!   folded last word, so `Joe Biden` and a later `Biden` are one name. Past the tagged start of
//!   the text (the first [`crate::Limits::content_words`] tokens), runs of capitalised words
//!   that do not begin a sentence: tagging the whole text would cost as much again as the rest
//!   of the signature, and a story's later names matter (a rewrite quotes any part of it). A
//!   one-word name that the text also writes in lower case (`Government` at the start of a
//!   sentence) is a slip and left out; so are names in the headline, whose capitals often mean
//!   nothing.
//! - **Numbers**: every word with a digit, normalised to its value where the language says how
//!   (`1,200` = `1200` = `1.2k` = `1.2 thousand` in English, `1.200` = `1200` in German or
//!   Spanish; `$`, `%` and units dropped), scores and dates as written without leading zeros
//!   (`3-1`, `2024-1-5`), plus the names of weekdays and months: dates are numbers too. Numbers
//!   come from the headline and the whole text (a later version of a long story may change a
//!   figure anywhere in it), at most [`MAX_NUMBERS`].
//! - **Number places**: every occurrence of a number in the text (not the headline), keyed by its
//!   value with the word before it and with the word after it ([`Place`], at most
//!   [`MAX_PLACES`]): [`place_agreement`] sees a figure changed into another figure that the text
//!   states elsewhere, which leaves the set of values as it was.
//!
//! Each fact keeps the word position of its first occurrence (in the words that
//! [`crate::text::tokens`] counts; for names approximately: the tagger's tokens with a letter or
//! digit) so
//! that two documents can be compared on **the text they share**: [`agreement`] is told the range
//! of words each document shares with the other (from their common passages) and counts, on
//! each side, the facts stated inside that range and how many of those the other document states
//! anywhere. A brief's own byline and footer, or the paragraphs of a long article that its brief
//! left out, then do not count against the match, while a template story, whose shared wording
//! runs through the whole text, is compared on all its names.
//!
//! At most [`MAX_FACTS`] names (the first in the text) and [`MAX_NUMBERS`] numbers are kept; each
//! label is cut to [`MAX_LABEL_BYTES`].

use std::collections::HashSet;

use crate::tagger::{Key, Upos};
use crate::text::{fold, hash_bytes};

/// Most names kept per document.
pub const MAX_FACTS: usize = 64;
/// Most numbers kept per document: they are read from the whole text.
pub const MAX_NUMBERS: usize = 64;
/// Longest label kept for a fact, in bytes (cut at a character boundary).
pub const MAX_LABEL_BYTES: usize = 48;
/// Most number places kept per document (the first in the text).
pub const MAX_PLACES: usize = 96;
/// Most words in a name.
const MAX_NAME_WORDS: usize = 6;

/// A keyed mark at a word position: a fact, or a passage fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    /// The hash the mark is compared by.
    pub key: u32,
    /// The word position of its first occurrence; 0 for a fact of the headline (which belongs
    /// to every part of the text), text positions start at 1.
    pub position: u16,
    /// How many times the document states it (at most `u16::MAX`; 1 for a passage).
    pub count: u16,
}

/// A document's names and numbers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Facts {
    /// Names by key (the hash of the folded last word), each once.
    pub(crate) names: Box<[Mark]>,
    /// Numbers by key (the hash of the normalised value), each once.
    pub(crate) numbers: Box<[Mark]>,
    /// How each name and number was first written: names then numbers, in key order, separated
    /// by U+001F.
    pub(crate) labels: Box<str>,
    /// Where each number of the text stands, every occurrence in text order (the first
    /// [`MAX_PLACES`]): a number changed into another that the text states elsewhere (a list's
    /// `3` into `5`) leaves the set of numbers as it was, not the words around it.
    pub(crate) places: Box<[Place]>,
}

/// One occurrence of a number in a text: its value keyed with the word before it, and with the
/// word after it. Two occurrences are the same figure in the same place when either key agrees
/// (a copy's synonym or typo next to a figure changes one neighbour, rarely both; a later
/// version that changed the figure changes both keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// The value's key (the key of its mark among the numbers).
    pub value: u32,
    /// The value with the word before it.
    pub left: u32,
    /// The value with the word after it.
    pub right: u32,
    /// The word position.
    pub position: u16,
}

impl Facts {
    /// The marks of one kind: numbers or names.
    fn marks(&self, numbers: bool) -> &[Mark] {
        if numbers { &self.numbers } else { &self.names }
    }

    /// The facts' labels, names then numbers, in key order.
    fn label(&self, index: usize) -> &str {
        self.labels.split('\u{1f}').nth(index).unwrap_or_default()
    }

    /// The labels of the names, in key order.
    pub fn names(&self) -> Vec<&str> {
        (0..self.names.len()).map(|i| self.label(i)).collect()
    }

    /// The labels of the numbers, in key order.
    pub fn numbers(&self) -> Vec<&str> {
        (0..self.numbers.len()).map(|i| self.label(self.names.len() + i)).collect()
    }

    /// Builds facts from parts (for the byte form).
    pub(crate) fn from_parts(names: Box<[Mark]>, numbers: Box<[Mark]>, labels: Box<str>) -> Self {
        Facts { names, numbers, labels, places: Box::default() }
    }

    /// The same facts with these number places (for the byte form).
    pub(crate) fn with_places(self, places: Box<[Place]>) -> Self {
        Facts { places, ..self }
    }

    /// The number places, in text order.
    pub fn places(&self) -> &[Place] {
        &self.places
    }
}

/// The key of a number's value (`value`, the hash of its normalised form) next to a word
/// (`word`, the hash of the folded word; 0 at the text's start or end) on one side.
fn place_key(value: u64, word: u64, after: bool) -> u32 {
    let mut x = value ^ word.rotate_left(29) ^ if after { 0x9e37_79b9_7f4a_7c15 } else { 0 };
    // splitmix64's finaliser.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (x ^ (x >> 31)) as u32
}

/// Compares two documents' numbers by place over the spans each shares with the other: on each
/// side, the occurrences of numbers in its span, and how many of them the other document states
/// anywhere next to the same word before or after. A figure changed into another figure that the
/// text states elsewhere is missing on both sides here, though the sets of values agree.
pub fn place_agreement(a: &Facts, a_span: Span, b: &Facts, b_span: Span) -> Agreement {
    let side = |x: &Facts, span: Span, y: &Facts| -> (u16, u16) {
        let mut keys: Vec<u32> = y.places.iter().flat_map(|p| [p.left, p.right]).collect();
        keys.sort_unstable();
        let (mut n, mut found) = (0u16, 0u16);
        for place in x.places.iter().filter(|p| span.contains(p.position)) {
            n = n.saturating_add(1);
            if keys.binary_search(&place.left).is_ok() || keys.binary_search(&place.right).is_ok() {
                found = found.saturating_add(1);
            }
        }
        (n, found)
    };
    let (first, first_found) = side(a, a_span, b);
    let (second, second_found) = side(b, b_span, a);
    Agreement { first, first_found, second, second_found }
}

/// Which words of a document the comparison looks at: positions `from..=to`, and the headline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First word position.
    pub from: u16,
    /// Last word position.
    pub to: u16,
}

impl Span {
    /// The whole document.
    pub const ALL: Span = Span { from: 0, to: u16::MAX };

    fn contains(&self, position: u16) -> bool {
        position == 0 || (self.from..=self.to).contains(&position)
    }
}

/// How the facts of one kind agree between two documents: on each side, how many facts it states
/// in the span it shares with the other, and how many of those the other states anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Agreement {
    /// Facts in the first document's shared span.
    pub first: u16,
    /// Of those, found anywhere in the second document.
    pub first_found: u16,
    /// Facts in the second document's shared span.
    pub second: u16,
    /// Of those, found anywhere in the first document.
    pub second_found: u16,
}

impl Agreement {
    /// The larger of the two sides' shares of facts found in the other document (1 when neither
    /// side states any): a brief whose byline names are its own still agrees through the
    /// article's side, a template story disagrees on both.
    pub fn share(&self) -> f32 {
        let side = |n: u16, found: u16| (n > 0).then(|| f32::from(found) / f32::from(n));
        match (side(self.first, self.first_found), side(self.second, self.second_found)) {
            (Some(a), Some(b)) => a.max(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => 1.0,
        }
    }

    /// The fewer facts of the two sides.
    pub fn fewer(&self) -> u16 {
        self.first.min(self.second)
    }

    /// How many facts each side at least states that the other does not (the fewer of the two
    /// sides' missing facts): one side's missing facts alone are text the other does not have
    /// (a byline, a cut paragraph); facts missing on both sides are values that differ.
    pub fn differ(&self) -> u16 {
        (self.first - self.first_found).min(self.second - self.second_found)
    }

    /// Whether each side states a fact the other does not: a value that changed.
    pub fn changed(&self) -> bool {
        self.differ() > 0
    }

    /// The facts that differ ([`Agreement::differ`]) as a share of the side that states fewer
    /// (0 when a side states none): one figure of 60 that differs is an edit or a typo, a third of
    /// them a later version.
    pub fn changed_share(&self) -> f32 {
        let fewer = self.fewer();
        if fewer == 0 { 0.0 } else { f32::from(self.differ()) / f32::from(fewer) }
    }
}

/// Compares two documents' facts of one kind over the spans each shares with the other, counting
/// on each side only the facts it states at least `least` times. Numbers match by value; names
/// by key, or by a spelling within one edit of a name the other states (`Other::states`).
pub fn agreement(
    a: &Facts,
    a_span: Span,
    b: &Facts,
    b_span: Span,
    numbers: bool,
    least: u16,
) -> Agreement {
    let side = |x: &Facts, span: Span, y: &Facts| -> (u16, u16) {
        let mut other = Other::new(y, numbers);
        let (mut n, mut found) = (0u16, 0u16);
        for (i, mark) in x.marks(numbers).iter().enumerate() {
            if mark.count < least || !span.contains(mark.position) {
                continue;
            }
            n = n.saturating_add(1);
            if other.states(x, i) {
                found = found.saturating_add(1);
            }
        }
        (n, found)
    };
    let (first, first_found) = side(a, a_span, b);
    let (second, second_found) = side(b, b_span, a);
    Agreement { first, first_found, second, second_found }
}

/// The labels of the facts of `a` inside `span` that `b` does not state, at most `most`.
pub(crate) fn missing<'f>(
    a: &'f Facts,
    numbers: bool,
    span: Span,
    b: &Facts,
    most: usize,
) -> Vec<&'f str> {
    let offset = if numbers { a.names.len() } else { 0 };
    let mut other = Other::new(b, numbers);
    let mut out: Vec<(u16, &str)> = a
        .marks(numbers)
        .iter()
        .enumerate()
        .filter(|(i, m)| span.contains(m.position) && !other.states(a, *i))
        .map(|(i, m)| (m.position, a.label(offset + i)))
        .collect();
    // In the order the text states them.
    out.sort_by_key(|&(position, _)| position);
    out.into_iter().take(most).map(|(_, label)| label).collect()
}

/// The labels of the numbers of `a` inside `span` that stand where `b` states them nowhere
/// ([`place_agreement`]), each once, in text order, at most `most`.
pub(crate) fn misplaced<'f>(a: &'f Facts, span: Span, b: &Facts, most: usize) -> Vec<&'f str> {
    let mut keys: Vec<u32> = b.places.iter().flat_map(|p| [p.left, p.right]).collect();
    keys.sort_unstable();
    let mut out: Vec<&str> = Vec::new();
    for place in a.places.iter().filter(|p| span.contains(p.position)) {
        if keys.binary_search(&place.left).is_ok() || keys.binary_search(&place.right).is_ok() {
            continue;
        }
        let Ok(i) = a.numbers.binary_search_by_key(&place.value, |m| m.key) else { continue };
        let label = a.label(a.names.len() + i);
        if !out.contains(&label) {
            out.push(label);
        }
        if out.len() == most {
            break;
        }
    }
    out
}

/// Widest stretch of unshared words, in either text, around a name that
/// [`replaced_names`] reads as a slot of shared sentences: a name replaced by another breaks
/// the word sequences around it (a few words, plus the winnowing window), a paragraph inserted or
/// rewritten leaves a wider gap.
pub const SLOT_GAP: u16 = 16;

/// Names replaced in place: on each side, the names the text states (first occurrence) inside a
/// narrow gap between two runs of words it shares with the other text (`passages`: each text's
/// winnowed fingerprints with their word positions; at most [`SLOT_GAP`] words from one run to
/// the next on both sides), that the other text lacks, and of those, how many stand where the
/// other text, in its gap between the same two runs and as many words after the first run, states
/// a name of its own that the first lacks and that has no word in common with it (each name of
/// the other text counted once): the same sentence with
/// another name in it, as a story written on a template is, and as neither a copy (whose names
/// are the story's) nor an update (which keeps its actors, and adds its news in paragraphs of its
/// own, not in the story's sentences) is. A byline, a promo or a paragraph inserted stands in a
/// gap too wide, or where the other text has no name.
pub fn replaced_names(a: &Facts, a_passages: &[Mark], b: &Facts, b_passages: &[Mark]) -> Agreement {
    let pairs = aligned(a_passages, b_passages);
    if pairs.len() < 2 {
        return Agreement::default();
    }
    let count = |x: &Facts, y: &Facts, pairs: &[(u16, u16)]| {
        let (mut n, mut partners) = (0u16, Vec::new());
        for (_, other) in slots(x, y, pairs) {
            n = n.saturating_add(1);
            partners.extend(other);
        }
        // A name of the other text replaces one name: two names in its slots are one replaced.
        partners.sort_unstable();
        partners.dedup();
        (n, partners.len().min(usize::from(u16::MAX)) as u16)
    };
    let (first, first_found) = count(a, b, &pairs);
    let mut back: Vec<(u16, u16)> = pairs.iter().map(|&(x, y)| (y, x)).collect();
    back.sort_unstable();
    let (second, second_found) = count(b, a, &back);
    Agreement { first, first_found, second, second_found }
}

/// The names of `a` replaced in place by names of `b` ([`replaced_names`]), as labels (`a`'s,
/// `b`'s), in text order, at most `most`.
pub(crate) fn replacements<'f>(
    a: &'f Facts,
    a_passages: &[Mark],
    b: &'f Facts,
    b_passages: &[Mark],
    most: usize,
) -> Vec<(&'f str, &'f str)> {
    let pairs = aligned(a_passages, b_passages);
    if pairs.len() < 2 {
        return Vec::new();
    }
    let mut out: Vec<(&str, &str)> = Vec::new();
    for (i, other) in slots(a, b, &pairs) {
        if let Some(j) = other
            && !out.iter().any(|&(_, theirs)| theirs == b.label(j))
        {
            out.push((a.label(i), b.label(j)));
        }
    }
    out.truncate(most);
    out
}

/// The word positions of the fingerprints two texts share, (first's, second's), sorted.
fn aligned(a: &[Mark], b: &[Mark]) -> Vec<(u16, u16)> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        match a[i].key.cmp(&b[j].key) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push((a[i].position, b[j].position));
                i += 1;
                j += 1;
            }
        }
    }
    out.sort_unstable();
    out
}

/// `x`'s names that `y` lacks standing in a narrow gap between shared runs (`pairs`, sorted by
/// `x`'s positions), in text order, each with the index of the name of `y` that stands in the
/// same slot (one `x` lacks, no word in common), if any.
fn slots<'p>(
    x: &'p Facts,
    y: &'p Facts,
    pairs: &'p [(u16, u16)],
) -> impl Iterator<Item = (usize, Option<usize>)> + 'p {
    let reach = (crate::minhash::SHINGLE_WORDS - 1) as u16;
    let mut other = Other::new(y, false);
    let mut back = Other::new(x, false);
    // `y`'s own names (not in the headline), by position.
    let mut own: Vec<(u16, usize)> = (0..y.names.len())
        .filter(|&j| y.names[j].position > 0 && !back.states(y, j))
        .map(|j| (y.names[j].position, j))
        .collect();
    own.sort_unstable();
    let mut missing: Vec<(u16, usize)> = (0..x.names.len())
        .filter(|&i| x.names[i].position > 0 && !other.states(x, i))
        .map(|i| (x.names[i].position, i))
        .collect();
    missing.sort_unstable();
    missing.into_iter().filter_map(move |(p, i)| {
        let k = pairs.partition_point(|&(pa, _)| pa < p);
        if k == 0 || k == pairs.len() {
            return None;
        }
        let ((a0, b0), (a1, b1)) = (pairs[k - 1], pairs[k]);
        // The run before must end before the name, and both gaps be narrow and in order.
        if a0 + reach >= p || a1 - a0 > SLOT_GAP || b1 <= b0 || b1 - b0 > SLOT_GAP {
            return None;
        }
        let offset = p - a0;
        let label = x.label(i);
        let found = own
            .iter()
            .filter(|&&(q, _)| q > b0 + reach && q < b1)
            .find(|&&(q, j)| q - b0 == offset && other_name(label, y.label(j)))
            .map(|&(_, j)| j);
        Some((i, found))
    })
}

/// Whether two names standing in the same slot are two names, not one written two ways: no word
/// in common, not within one edit of each other (a typo of a short name: `Tre`, `True`), and no
/// digit in either (`PS3`, `AES-256`: a figure that changed, which the numbers judge).
fn other_name(a: &str, b: &str) -> bool {
    if a.chars().chain(b.chars()).any(|c| c.is_ascii_digit()) {
        return false;
    }
    let (a, b) = (fold(a), fold(b));
    let words_b: Vec<&str> = b.split(' ').collect();
    !a.split(' ').any(|w| words_b.contains(&w)) && !within_one_edit(&a, &b)
}

/// The other document of a comparison, asked whether it states a fact.
struct Other<'f> {
    facts: &'f Facts,
    numbers: bool,
    /// The folded last word of each of its names, in key order, read when first needed.
    spellings: Option<Vec<String>>,
}

impl<'f> Other<'f> {
    fn new(facts: &'f Facts, numbers: bool) -> Self {
        Other { facts, numbers, spellings: None }
    }

    /// Whether this document states fact `i` of `x` (of the kind it was made for): the same key;
    /// or, for a name, a last word spelled within one edit of the name's (at least
    /// [`MIN_RESPELLED_CHARS`] letters): a typo, or the same person transliterated twice
    /// (`Zelensky`, `Zelenskyy`), is not another name. Names come in one at a time and rarely
    /// miss, so the other side's spellings are read only when a name misses by key.
    fn states(&mut self, x: &Facts, i: usize) -> bool {
        let key = x.marks(self.numbers)[i].key;
        if self.facts.marks(self.numbers).binary_search_by_key(&key, |m| m.key).is_ok() {
            return true;
        }
        if self.numbers {
            return false;
        }
        let word = last_word(x.label(i));
        if word.chars().count() < MIN_RESPELLED_CHARS {
            return false;
        }
        let facts = self.facts;
        self.spellings
            .get_or_insert_with(|| facts.names().into_iter().map(last_word).collect())
            .iter()
            .any(|other| within_one_edit(&word, other))
    }
}

/// Shortest last word of a name whose respelling is matched (shorter names are too alike:
/// `Lee`, `Lim`).
const MIN_RESPELLED_CHARS: usize = 5;

/// The folded last word of a name's label, or nothing when the label was cut (its last word may
/// be a fragment).
fn last_word(label: &str) -> String {
    if label.len() + 4 > MAX_LABEL_BYTES {
        return String::new();
    }
    label.rsplit(' ').next().map(fold).unwrap_or_default()
}

/// Whether two words differ by at most one edit: a character replaced, inserted or deleted, or two
/// neighbours swapped.
fn within_one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let prefix = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        if prefix == short.len() {
            return true;
        }
        // Replaced, or swapped with the next.
        let rest = prefix + 1;
        short[rest..] == long[rest..]
            || (rest < short.len()
                && short[prefix] == long[rest]
                && short[rest] == long[prefix]
                && short[rest + 1..] == long[rest + 1..])
    } else {
        // One character inserted in the longer at `prefix`.
        short[prefix..] == long[prefix + 1..]
    }
}

/// Collects a document's facts from its tagged tokens.
#[derive(Debug)]
pub(crate) struct Collector {
    comma_decimal: bool,
    billion: u32,
    /// Names found so far: (key, byte offset in the text until located, then word position,
    /// label, one word, count).
    names: Vec<(u32, u32, String, bool, u16)>,
    numbers: Vec<(u32, u16, String, u16)>,
    /// Folded words the text writes in lower case.
    lower: HashSet<u64>,
    /// Where the tagged stretch of the text ends (bytes): names past it are found by capitals.
    tagged_end: u32,
    /// A run of capitalised words being read, and where it starts.
    run: Vec<String>,
    run_offset: u32,
    /// Number places so far, in text order.
    places: Vec<Place>,
    /// The hash of the text's last word read (0 before the first).
    previous_word: u64,
    /// A place waiting for the word after it: its index and its value's hash.
    pending_place: Option<(usize, u64)>,
}

/// A word of a text, for [`Collector::read_words`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Word<'a> {
    /// As written.
    pub(crate) text: &'a str,
    /// Folded ([`crate::text::fold`]).
    pub(crate) folded: &'a str,
    /// [`crate::text::hash_bytes`] of the folded word.
    pub(crate) hash: u64,
    /// Byte offset in the text.
    pub(crate) offset: u32,
    /// Word position (from 1; 0 for the headline's words).
    pub(crate) position: u16,
    /// Whether it begins a sentence.
    pub(crate) sentence_start: bool,
}

impl Collector {
    /// A collector for a document in `language` (an ISO 639-1 code, if known).
    pub(crate) fn new(language: Option<&str>) -> Self {
        let language = language.unwrap_or("en");
        // Languages that write `1.234,5`.
        let comma_decimal = matches!(
            language,
            "de" | "es"
                | "fr"
                | "pt"
                | "it"
                | "nl"
                | "da"
                | "sv"
                | "nb"
                | "no"
                | "fi"
                | "pl"
                | "ru"
                | "tr"
                | "id"
                | "cs"
                | "ro"
                | "hu"
                | "el"
                | "uk"
                | "ca"
                | "hr"
                | "sk"
                | "sl"
                | "bg"
                | "sr"
                | "vi"
        );
        // Where `billion` means a million millions.
        let billion =
            if matches!(language, "de" | "fr" | "es" | "it" | "nl" | "da" | "pl") { 12 } else { 9 };
        Collector {
            comma_decimal,
            billion,
            names: Vec::new(),
            numbers: Vec::new(),
            lower: HashSet::new(),
            tagged_end: 0,
            run: Vec::new(),
            run_offset: 0,
            places: Vec::new(),
            previous_word: 0,
            pending_place: None,
        }
    }

    /// Reads the names of one run of tagged tokens, slices of `text`: the headline (`headline`
    /// true: its words only tell which words the document writes in lower case) or a stretch
    /// of the document's text. Names are read from the tokens' [`Key`]s (one per token: a
    /// Korean word's noun without its particles, tagged `PROPN` if it is a proper noun; any
    /// other token itself with its tag), so they are keyed and labelled by them. A name is
    /// placed by its byte offset in `text` until [`Collector::locate`] turns offsets into word
    /// positions.
    pub(crate) fn read_names(
        &mut self,
        text: &str,
        tokens: &[&str],
        keys: &[Key<'_>],
        headline: bool,
    ) {
        let base = text.as_ptr() as usize;
        let mut i = 0;
        while i < keys.len() {
            let Key { form: token, tag } = keys[i];
            // (Which words the text writes in lower case is read with its numbers, from every
            // word: `read_words`.)
            if headline || !is_name(token, tag) || calendar(&fold(token)).is_some() {
                i += 1;
                continue;
            }
            // A run of proper nouns, across particles that stand between two of them.
            let start = i;
            let mut end = i + 1;
            // A word whose key lost a particle ends its name (`부산의 박지영` is two names).
            let whole =
                |at: usize| tokens.get(at).is_none_or(|token| token.len() == keys[at].form.len());
            while end < keys.len() && end - start < MAX_NAME_WORDS && whole(end - 1) {
                let Key { form, tag } = keys[end];
                if is_name(form, tag) && calendar(&fold(form)).is_none() {
                    end += 1;
                } else if is_particle(form)
                    && keys.get(end + 1).is_some_and(|next| is_name(next.form, next.tag))
                {
                    end += 2;
                } else {
                    break;
                }
            }
            let words: Vec<&str> = keys[start..end].iter().map(|key| key.form).collect();
            let last = words.last().copied().unwrap_or_default();
            let key = hash_bytes(fold(last).as_bytes()) as u32;
            // Keys are slices of `text`: the offset of the first word.
            let offset = (keys[start].form.as_ptr() as usize).saturating_sub(base);
            let offset = u32::try_from(offset).unwrap_or(u32::MAX);
            self.add_name(key, offset, &words.join(" "), words.len() == 1);
            i = end;
        }
        if !headline && let Some(last) = tokens.last() {
            let end = (last.as_ptr() as usize + last.len()).saturating_sub(base);
            self.tagged_end = self.tagged_end.max(u32::try_from(end).unwrap_or(u32::MAX));
        }
    }

    /// Turns the names' byte offsets into word positions, given the byte offset at which each
    /// word of the text starts (word `i` at `word_starts[i]`, position `i + 1`).
    pub(crate) fn locate(&mut self, word_starts: &[u32]) {
        self.end_run();
        for name in &mut self.names {
            // The word that starts at the name's offset, or the last one before it.
            let words_before = word_starts.partition_point(|&start| start <= name.1);
            name.1 = words_before.max(1) as u32;
        }
    }

    /// Reads a stretch of a text's words (as [`crate::text::tokens`] cuts them): their numbers
    /// and dates, which words the text writes in lower case, and, past the stretch of the text
    /// that was tagged, names by their capitals (a run of capitalised words that does not begin
    /// a sentence: the tagger's work would cost as much again as the rest of the signature).
    /// The headline's words come with position 0: its numbers belong to every part of the text.
    pub(crate) fn read_words(&mut self, words: &[Word<'_>]) {
        let mut i = 0;
        while i < words.len() {
            let word = &words[i];
            i += 1;
            let previous = self.previous_word;
            if word.position > 0 {
                if let Some((at, value)) = self.pending_place.take() {
                    self.places[at].right = place_key(value, word.hash, true);
                }
                self.previous_word = word.hash;
            }
            if word.text.bytes().any(|b| b.is_ascii_digit()) {
                self.end_run();
                let next = words.get(i).map(|w| w.text);
                if let Some((value, used_next)) =
                    number_value(word.text, next, self.comma_decimal, self.billion)
                {
                    if used_next {
                        let label = format!("{} {}", word.text, next.unwrap_or_default());
                        self.add_number(&value, word.position, &label);
                        if word.position > 0 {
                            self.previous_word = words[i].hash;
                        }
                        i += 1;
                    } else {
                        self.add_number(&value, word.position, word.text);
                    }
                    self.add_place(&value, word.position, previous);
                }
                continue;
            }
            if let Some(date) = calendar_by_hash(word.hash, word.folded) {
                self.end_run();
                self.add_number(date, word.position, word.text);
                self.add_place(date, word.position, previous);
                continue;
            }
            let first = word.text.chars().next().unwrap_or(' ');
            if first.is_lowercase() {
                self.lower.insert(word.hash);
            }
            if word.position == 0 || word.offset < self.tagged_end {
                continue;
            }
            let capitalised = first.is_uppercase() && is_name(word.text, Upos::Propn) && {
                let letters = word.text.chars().filter(|c| c.is_alphabetic());
                word.text.chars().any(char::is_lowercase) || letters.count() <= 6
            };
            if capitalised && !word.sentence_start && self.run.len() < MAX_NAME_WORDS {
                if self.run.is_empty() {
                    self.run_offset = word.offset;
                }
                self.run.push(word.text.to_owned());
            } else if !self.run.is_empty()
                && is_particle(word.text)
                && words.get(i).is_some_and(|n| {
                    (n.text.starts_with(char::is_uppercase) || is_particle(n.text))
                        && !n.sentence_start
                })
            {
                self.run.push(word.text.to_owned());
            } else {
                self.end_run();
            }
        }
    }

    /// Ends a run of capitalised words: a name.
    fn end_run(&mut self) {
        // A particle does not end a name.
        while self.run.last().is_some_and(|w| is_particle(w)) {
            self.run.pop();
        }
        if let Some(last) = self.run.last() {
            let key = hash_bytes(fold(last).as_bytes()) as u32;
            let label = self.run.join(" ");
            let one_word = self.run.len() == 1;
            self.add_name(key, self.run_offset, &label, one_word);
        }
        self.run.clear();
    }

    fn add_name(&mut self, key: u32, position: u32, label: &str, one_word: bool) {
        if self.names.len() >= MAX_FACTS * 2 {
            return;
        }
        match self.names.iter_mut().find(|(k, ..)| *k == key) {
            // The longest form is the best label (`Joe Biden` over `Biden`).
            Some(entry) => {
                if !one_word && entry.2.len() < label.len() {
                    entry.2 = label.to_owned();
                }
                entry.3 &= one_word;
                entry.4 = entry.4.saturating_add(1);
            }
            None => self.names.push((key, position, label.to_owned(), one_word, 1)),
        }
    }

    fn add_number(&mut self, value: &str, position: u16, label: &str) {
        if self.numbers.len() >= MAX_NUMBERS {
            return;
        }
        let key = hash_bytes(value.as_bytes()) as u32;
        match self.numbers.iter_mut().find(|(k, ..)| *k == key) {
            // A number of the headline belongs to the whole text; else its first place counts.
            Some(entry) => {
                entry.1 = entry.1.min(position);
                entry.3 = entry.3.saturating_add(1);
            }
            None => self.numbers.push((key, position, label.to_owned(), 1)),
        }
    }

    /// Records where a number of the text (not the headline) stands: after the word hashed
    /// `previous`, before the next word read.
    fn add_place(&mut self, value: &str, position: u16, previous: u64) {
        if position == 0 || self.places.len() >= MAX_PLACES {
            return;
        }
        let value = hash_bytes(value.as_bytes());
        let left = place_key(value, previous, false);
        self.pending_place = Some((self.places.len(), value));
        let right = place_key(value, 0, true);
        self.places.push(Place { value: value as u32, left, right, position });
    }

    /// The facts: one-word names the text also writes in lower case left out, the first
    /// [`MAX_FACTS`] of each kind in text order kept, sorted by key.
    pub(crate) fn finish(self) -> Facts {
        let lower = self.lower;
        let mut names: Vec<(u32, u16, String, u16)> = self
            .names
            .into_iter()
            .filter(|(_, _, label, one_word, _)| {
                !(*one_word && lower.contains(&hash_bytes(fold(label).as_bytes())))
            })
            .map(|(k, p, l, _, c)| (k, u16::try_from(p).unwrap_or(u16::MAX).max(1), l, c))
            .take(MAX_FACTS)
            .collect();
        let mut numbers: Vec<(u32, u16, String, u16)> = self.numbers;
        names.sort_by_key(|n| n.0);
        numbers.sort_by_key(|n| n.0);
        let labels: Vec<&str> = names
            .iter()
            .chain(&numbers)
            .map(|(_, _, label, _)| {
                crate::text::truncate(label.trim_matches('\u{1f}'), MAX_LABEL_BYTES)
            })
            .collect();
        let labels = labels.join("\u{1f}");
        let marks = |v: &[(u32, u16, String, u16)]| -> Box<[Mark]> {
            v.iter().map(|&(key, position, _, count)| Mark { key, position, count }).collect()
        };
        Facts {
            names: marks(&names),
            numbers: marks(&numbers),
            labels: labels.into(),
            places: self.places.into(),
        }
    }
}

/// Whether a tagged token is a word of a name: a proper noun, or an acronym of two to six
/// capitals that the tagger took for a noun or a foreign word (`PSV`, `NATO`); a letter, and
/// not only one.
fn is_name(token: &str, tag: Upos) -> bool {
    let letters = token.chars().filter(|c| c.is_alphabetic()).count();
    if letters == 0 || token.chars().count() < 2 {
        return false;
    }
    match tag {
        Upos::Propn => true,
        Upos::Noun | Upos::X | Upos::Adj => {
            (2..=6).contains(&letters)
                && token.chars().all(|c| c.is_uppercase() || !c.is_alphabetic())
        }
        _ => false,
    }
}

/// Lower-case particles that join the parts of a name.
fn is_particle(token: &str) -> bool {
    matches!(
        token,
        "of" | "de"
            | "del"
            | "della"
            | "di"
            | "da"
            | "do"
            | "dos"
            | "das"
            | "du"
            | "van"
            | "von"
            | "der"
            | "den"
            | "ter"
            | "al"
            | "el"
            | "bin"
            | "ibn"
            | "la"
            | "le"
    )
}

/// [`calendar`] of a folded word whose [`hash_bytes`] is known: one look-up in a set of the
/// names' hashes first, since it runs on every word of every text.
fn calendar_by_hash(hash: u64, folded: &str) -> Option<&'static str> {
    static HASHES: std::sync::OnceLock<HashSet<u64>> = std::sync::OnceLock::new();
    let hashes = HASHES
        .get_or_init(|| CALENDAR.iter().map(|(name, _)| hash_bytes(name.as_bytes())).collect());
    if hashes.contains(&hash) { calendar(folded) } else { None }
}

/// The date fact of a weekday or month name (folded), in the languages with tagger models.
fn calendar(folded: &str) -> Option<&'static str> {
    CALENDAR.iter().find(|(name, _)| *name == folded).map(|(_, fact)| *fact)
}

/// Weekday and month names, folded, with their date facts.
const CALENDAR: &[(&str, &str)] = &[
    ("monday", "weekday:1"),
    ("tuesday", "weekday:2"),
    ("wednesday", "weekday:3"),
    ("thursday", "weekday:4"),
    ("friday", "weekday:5"),
    ("saturday", "weekday:6"),
    ("sunday", "weekday:7"),
    ("montag", "weekday:1"),
    ("dienstag", "weekday:2"),
    ("mittwoch", "weekday:3"),
    ("donnerstag", "weekday:4"),
    ("freitag", "weekday:5"),
    ("samstag", "weekday:6"),
    ("sonntag", "weekday:7"),
    ("lunes", "weekday:1"),
    ("martes", "weekday:2"),
    ("miercoles", "weekday:3"),
    ("jueves", "weekday:4"),
    ("viernes", "weekday:5"),
    ("sabado", "weekday:6"),
    ("domingo", "weekday:7"),
    ("lundi", "weekday:1"),
    ("mardi", "weekday:2"),
    ("mercredi", "weekday:3"),
    ("jeudi", "weekday:4"),
    ("vendredi", "weekday:5"),
    ("samedi", "weekday:6"),
    ("dimanche", "weekday:7"),
    ("january", "month:1"),
    ("february", "month:2"),
    ("march", "month:3"),
    ("april", "month:4"),
    ("june", "month:6"),
    ("july", "month:7"),
    ("august", "month:8"),
    ("september", "month:9"),
    ("october", "month:10"),
    ("november", "month:11"),
    ("december", "month:12"),
    ("januar", "month:1"),
    ("februar", "month:2"),
    ("marz", "month:3"),
    ("juni", "month:6"),
    ("juli", "month:7"),
    ("oktober", "month:10"),
    ("dezember", "month:12"),
    ("enero", "month:1"),
    ("febrero", "month:2"),
    ("marzo", "month:3"),
    ("abril", "month:4"),
    ("mayo", "month:5"),
    ("junio", "month:6"),
    ("julio", "month:7"),
    ("agosto", "month:8"),
    ("septiembre", "month:9"),
    ("octubre", "month:10"),
    ("noviembre", "month:11"),
    ("diciembre", "month:12"),
    ("janvier", "month:1"),
    ("fevrier", "month:2"),
    ("mars", "month:3"),
    ("avril", "month:4"),
    ("juin", "month:6"),
    ("juillet", "month:7"),
    ("aout", "month:8"),
    ("septembre", "month:9"),
    ("octobre", "month:10"),
    ("novembre", "month:11"),
    ("decembre", "month:12"),
];

/// The normalised value of a number token, and whether the next token (a scale word such as
/// `million`) was part of it; `None` for a token that is not a number (`COVID-19`, `A320`).
/// Hangul syllables and jamo, and the CJK ideographs (unified, extension A, compatibility).
fn is_cjk_or_hangul(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{AC00}'..='\u{D7AF}'
        | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

pub(crate) fn number_value(
    token: &str,
    next: Option<&str>,
    comma_decimal: bool,
    billion: u32,
) -> Option<(String, bool)> {
    let core = token.trim_matches(|c: char| !c.is_alphanumeric());
    if core.len() > 40 {
        // Not a figure anyone states: a serial number, a hash, a run of digits.
        return None;
    }
    let lower = core.to_lowercase();
    // A trailing unit or scale glued to the digits.
    let digits_end = lower.rfind(|c: char| c.is_ascii_digit())? + 1;
    let (number, suffix) = lower.split_at(digits_end);
    if !number.starts_with(|c: char| c.is_ascii_digit())
        || !number.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':' | '/' | '-'))
    {
        // Letters before or among the digits: an identifier.
        return None;
    }
    let mut exponent: u32 = match suffix {
        "" | "st" | "nd" | "rd" | "th" | "s" | "h" | "am" | "pm" | "a.m" | "p.m" | "e" | "er"
        | "eme" | "º" | "ª" | "°" => 0,
        "k" => 3,
        "m" | "mn" | "mln" => 6,
        "bn" | "b" | "mrd" | "mld" => 9,
        // Korean, Chinese and Japanese write a counter or a unit, and in Korean a particle,
        // straight after the digits (`3일`, `1950년에`, `5명이`, `2024年`): dropped like English
        // units, except a leading scale (`12조원` is 12 trillion won, `3万` 30,000).
        _ if suffix.chars().next().is_some_and(is_cjk_or_hangul)
            && suffix.chars().all(|c| !c.is_ascii()) =>
        {
            match suffix.chars().next() {
                Some('천' | '千') => 3,
                Some('만' | '万' | '萬') => 4,
                Some('억' | '億' | '亿') => 8,
                Some('조' | '兆') => 12,
                _ => 0,
            }
        }
        _ => return None,
    };
    if number.contains([':', '/', '-']) {
        // A time, a score or a date: parts without leading zeros, separators kept.
        let mut out = String::with_capacity(number.len());
        let mut part = String::new();
        let flush = |part: &mut String, out: &mut String| {
            let trimmed = part.trim_start_matches('0');
            out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
            part.clear();
        };
        for c in number.chars() {
            if c.is_ascii_digit() {
                part.push(c);
            } else if matches!(c, ':' | '/' | '-') && !part.is_empty() {
                flush(&mut part, &mut out);
                out.push(c);
            } else {
                return None;
            }
        }
        if part.is_empty() {
            return None;
        }
        flush(&mut part, &mut out);
        return Some((out, false));
    }
    let mut used_next = false;
    if exponent == 0
        && let Some(word) = next
    {
        let word = word.to_lowercase();
        let scale = match word.as_str() {
            "thousand" | "thousands" | "mil" | "tausend" | "mille" | "duizend" | "tsd" => 3,
            "lakh" | "lakhs" => 5,
            "million" | "millions" | "millón" | "millones" | "millon" | "mio" | "millionen"
            | "milhão" | "milhões" | "milhao" | "milhoes" | "miljoen" | "miljoenen" | "milioni"
            | "milione" | "mln" | "mn" => 6,
            "crore" | "crores" => 7,
            "milliard" | "milliards" | "milliarde" | "milliarden" | "mrd" | "miljard"
            | "miljarden" | "miliardi" | "miliardo" | "bilhão" | "bilhões" | "bilhao"
            | "bilhoes" | "bn" => 9,
            "billion" | "billions" => billion,
            "billón" | "billones" | "trillion" | "trillions" => 12,
            _ => 0,
        };
        if scale > 0 {
            exponent = scale;
            used_next = true;
        }
    }
    // Which mark is the decimal one.
    let commas = number.matches(',').count();
    let dots = number.matches('.').count();
    let decimal = match (commas, dots) {
        (0, 0) => None,
        (_, 0) if commas > 1 => None,
        (0, _) if dots > 1 => None,
        (1, 0) => {
            let after = number.len() - number.rfind(',').unwrap_or(0) - 1;
            (after != 3 || comma_decimal).then_some(',')
        }
        (0, 1) => {
            let after = number.len() - number.rfind('.').unwrap_or(0) - 1;
            (after != 3 || !comma_decimal || exponent > 0).then_some('.')
        }
        _ => {
            let last_comma = number.rfind(',').unwrap_or(0);
            let last_dot = number.rfind('.').unwrap_or(0);
            Some(if last_comma > last_dot { ',' } else { '.' })
        }
    };
    let (whole, fraction) = match decimal {
        Some(mark) => number.rsplit_once(mark).unwrap_or((number, "")),
        None => (number, ""),
    };
    let whole: String = whole.chars().filter(char::is_ascii_digit).collect();
    let fraction: String = fraction.chars().filter(char::is_ascii_digit).collect();
    Some((scaled(&whole, &fraction, exponent), used_next))
}

/// `whole.fraction` times ten to the `exponent`, as a plain decimal without leading or trailing
/// zeros.
fn scaled(whole: &str, fraction: &str, exponent: u32) -> String {
    let mut digits = format!("{whole}{fraction}");
    let point = whole.len() + exponent as usize;
    // Pad so that the point falls inside or at the end of the digits.
    while digits.len() < point {
        digits.push('0');
    }
    let (int, frac) = digits.split_at(point);
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    match (int.is_empty(), frac.is_empty()) {
        (true, true) => "0".to_owned(),
        (false, true) => int.to_owned(),
        (true, false) => format!("0.{frac}"),
        (false, false) => format!("{int}.{frac}"),
    }
}

#[cfg(test)]
mod tests;
