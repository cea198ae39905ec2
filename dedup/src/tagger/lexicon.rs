//! The lexicon: for each word seen in training, the tags it was seen with.
//!
//! A word's *ambiguity class* is the set of tags that make up at least 5% of its training
//! occurrences (`{NOUN, VERB}` for *walk*). The classes of the word and of the words after it
//! are features: they tell the left-to-right decoder what is coming. Words are keyed by the top
//! 32 bits of the hash of their lowercase form.

use std::collections::HashMap;

use super::upos::Upos;

const TAGS: usize = Upos::COUNT;

/// The class of a word the lexicon does not know.
pub(crate) const UNKNOWN: u32 = 1 << 31;

/// Marks the class of a word seen at least [`SURE_COUNT`] times, each time with the same tag
/// but for at most one in [`SURE_RATIO`]: the tagger gives it that tag without scoring.
const SURE: u32 = 1 << 30;
const SURE_COUNT: u32 = 20;
const SURE_RATIO: u32 = 200;

/// The tag of a class marked sure.
#[inline]
pub(crate) fn sure(class: u32) -> Option<Upos> {
    if class & SURE == 0 || class & UNKNOWN != 0 {
        return None;
    }
    Upos::from_index((class & !SURE).trailing_zeros() as usize)
}

/// A read-only hash table from word keys to ambiguity classes.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Lexicon {
    /// Open addressing, linear probing; key 0 marks an empty slot.
    slots: Vec<(u32, u32)>,
}

/// The lexicon key of a lowercase-form hash; never 0.
pub(crate) fn key(lower: u64) -> u32 {
    ((lower >> 32) as u32).max(1)
}

/// The ambiguity class of tag counts, or [`UNKNOWN`] when there are none.
pub(crate) fn class(counts: &[u32; TAGS]) -> u32 {
    let total: u32 = counts.iter().sum();
    if total == 0 {
        return UNKNOWN;
    }
    let mask = counts
        .iter()
        .enumerate()
        .filter(|(_, count)| **count * 20 >= total)
        .fold(0, |mask, (tag, _)| mask | 1 << tag);
    let top = counts.iter().max().copied().unwrap_or(0);
    if total >= SURE_COUNT && (total - top) * SURE_RATIO <= total { mask | SURE } else { mask }
}

impl std::fmt::Debug for Lexicon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lexicon").field("words", &self.entries().len()).finish()
    }
}

impl Lexicon {
    /// A lexicon of `(key, class)` entries; keys must be distinct and non-zero.
    pub(crate) fn new(entries: &[(u32, u32)]) -> Lexicon {
        let capacity = (entries.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![(0, 0); capacity];
        for &(key, class) in entries {
            let mut at = Self::start(key, capacity);
            while slots[at].0 != 0 && slots[at].0 != key {
                at = (at + 1) & (capacity - 1);
            }
            slots[at] = (key, class);
        }
        Lexicon { slots }
    }

    fn start(key: u32, capacity: usize) -> usize {
        (key.wrapping_mul(0x9e37_79b1) as usize) & (capacity - 1)
    }

    /// The class of the word whose lowercase form hashes to `lower`.
    #[inline]
    pub(crate) fn class(&self, lower: u64) -> u32 {
        let key = key(lower);
        let mut at = Self::start(key, self.slots.len());
        loop {
            let (slot, class) = self.slots[at];
            if slot == key {
                return class;
            }
            if slot == 0 {
                return UNKNOWN;
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }

    /// The entries, sorted by key.
    pub(crate) fn entries(&self) -> Vec<(u32, u32)> {
        let mut entries: Vec<(u32, u32)> =
            self.slots.iter().copied().filter(|&(key, _)| key != 0).collect();
        entries.sort_unstable();
        entries
    }
}

/// Counts of tags per word, to build a lexicon from training data.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    words: HashMap<u32, [u32; TAGS]>,
}

impl Counts {
    pub(crate) fn add(&mut self, lower: u64, tag: Upos) {
        self.words.entry(key(lower)).or_insert([0; TAGS])[tag.index()] += 1;
    }

    /// The class a training occurrence of a word would have if it had not been counted
    /// (leave one out): what the tagger will see for words of that frequency.
    pub(crate) fn class_without(&self, lower: u64, tag: Upos) -> u32 {
        match self.words.get(&key(lower)) {
            Some(counts) => {
                let mut counts = *counts;
                counts[tag.index()] = counts[tag.index()].saturating_sub(1);
                class(&counts)
            }
            None => UNKNOWN,
        }
    }

    /// The lexicon of the words counted.
    pub(crate) fn lexicon(&self) -> Lexicon {
        let mut entries: Vec<(u32, u32)> =
            self.words.iter().map(|(&key, counts)| (key, class(counts))).collect();
        entries.sort_unstable();
        Lexicon::new(&entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_keep_tags_of_five_percent_or_more() {
        let mut counts = [0; TAGS];
        assert_eq!(class(&counts), UNKNOWN);
        counts[Upos::Noun.index()] = 95;
        counts[Upos::Verb.index()] = 6;
        counts[Upos::Adj.index()] = 4;
        assert_eq!(class(&counts), 1 << Upos::Noun.index() | 1 << Upos::Verb.index());
        assert_eq!(sure(class(&counts)), None);
        let mut counts = [0; TAGS];
        counts[Upos::Det.index()] = 400;
        counts[Upos::Pron.index()] = 2;
        assert_eq!(sure(class(&counts)), Some(Upos::Det));
        counts[Upos::Pron.index()] = 3;
        assert_eq!(sure(class(&counts)), None);
        assert_eq!(sure(UNKNOWN), None);
    }

    #[test]
    fn lookups_and_leave_one_out() {
        let mut counts = Counts::default();
        let (walk, once, never) = (0x1234_5678_0000_0000, 0x2222_0000_0000_0000, 7 << 40);
        counts.add(walk, Upos::Noun);
        counts.add(walk, Upos::Verb);
        counts.add(once, Upos::Adj);
        assert_eq!(counts.class_without(walk, Upos::Noun), 1 << Upos::Verb.index());
        assert_eq!(counts.class_without(once, Upos::Adj), UNKNOWN);
        let lexicon = counts.lexicon();
        assert_eq!(lexicon.entries().len(), 2);
        assert_eq!(lexicon.class(walk), 1 << Upos::Noun.index() | 1 << Upos::Verb.index());
        assert_eq!(lexicon.class(once), 1 << Upos::Adj.index());
        assert_eq!(lexicon.class(never), UNKNOWN);
        assert_eq!(Lexicon::new(&lexicon.entries()), lexicon);
    }
}
