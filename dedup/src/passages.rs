//! Passages: winnowed fingerprints of word shingles, the containment signal that works whatever
//! the length ratio.
//!
//! MinHash estimates the Jaccard similarity of two shingle sets; the containment of a 60-word
//! brief in a 1,500-word article follows from it only roughly (their Jaccard is about 0.04, a
//! fraction of one of 128 agreeing positions), and its bands almost never propose the pair. So
//! each document also keeps a local sample of its shingles: **winnowing** (Schleimer, Wilkerson
//! and Aiken, 2003) takes, in every window of [`WINDOW`] consecutive shingles, the one of least
//! hash. Because the choice depends only on the window, two texts that share a run of words pick
//! the same fingerprints inside it, whatever surrounds it, and any shared run of at least
//! `WINDOW + SHINGLE_WORDS - 1` words (9) is guaranteed a common fingerprint. About
//! `2 / (WINDOW + 1)` of the shingles are kept (0.29); each with its word position.
//!
//! - **Containment**: the share of the shorter text's fingerprints found in the longer, and the
//!   positions of the shared ones on each side: the span of text the two documents share (see
//!   `facts.rs`, which compares facts inside it).
//! - **Candidates**: the fingerprints of the first [`LEDE_WORDS`] words, each joined with the next
//!   one, are candidate keys ([`lede_keys`]: a brief or teaser repeats the lede of its article,
//!   and two consecutive fingerprints in common mean a shared run of some twelve words or more,
//!   which a common phrase of four words alone does not make), see `candidates.rs`.
//!
//! Only the first [`PASSAGE_WORDS`] words are fingerprinted: a brief or excerpt is matched
//! against the start of its article, and MinHash covers whole texts. A shared span that reaches
//! the last fingerprinted words is taken to run to the end of the document.

use crate::facts::{Mark, Span};
use crate::minhash::SHINGLE_WORDS;
use crate::text::mix64;

/// Shingles per winnowing window.
pub const WINDOW: usize = 6;
/// Words of a text that are fingerprinted.
pub const PASSAGE_WORDS: usize = 1_000;
/// Words at the start of a text whose fingerprints are candidate keys.
pub const LEDE_WORDS: usize = 60;

/// The winnowed fingerprints of a text, given its folded words' hashes: sorted by key, each key
/// once (at its first position). Positions are word positions counted from 1.
pub fn fingerprints(word_hashes: &[u64]) -> Box<[Mark]> {
    let words = &word_hashes[..word_hashes.len().min(PASSAGE_WORDS)];
    if words.is_empty() {
        return Box::new([]);
    }
    let shingles: Vec<u32> = if words.len() < SHINGLE_WORDS {
        vec![shingle(words)]
    } else {
        words.windows(SHINGLE_WORDS).map(shingle).collect()
    };
    let mut out: Vec<Mark> = Vec::with_capacity(shingles.len() * 2 / (WINDOW + 1) + 2);
    let mut last: Option<usize> = None;
    let window = WINDOW.min(shingles.len());
    for start in 0..=shingles.len() - window {
        // The rightmost least hash of the window (so a run of equal hashes is picked once).
        let mut best = start;
        for i in start..start + window {
            if shingles[i] <= shingles[best] {
                best = i;
            }
        }
        if last != Some(best) {
            out.push(Mark {
                key: shingles[best],
                position: (best + 1).min(usize::from(u16::MAX)) as u16,
                count: 1,
            });
            last = Some(best);
        }
    }
    out.sort_unstable();
    out.dedup_by_key(|m| m.key);
    out.into()
}

/// The candidate keys of a text's lede: its fingerprints within the first [`LEDE_WORDS`] words
/// in text order, each joined with the next (the one alone if there is just one).
pub fn lede_keys(marks: &[Mark]) -> Vec<u64> {
    let mut lede: Vec<&Mark> =
        marks.iter().filter(|m| usize::from(m.position) <= LEDE_WORDS).collect();
    lede.sort_by_key(|m| m.position);
    if lede.len() == 1 {
        return vec![mix64(u64::from(lede[0].key))];
    }
    lede.windows(2).map(|w| mix64(u64::from(w[0].key) << 32 | u64::from(w[1].key))).collect()
}

fn shingle(words: &[u64]) -> u32 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in words {
        h = mix64(h ^ w);
    }
    (h >> 32) as u32
}

/// What two documents' fingerprints say about the text they share.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shared {
    /// Shared fingerprints over the fingerprints of the document that has fewer (0 when either
    /// has none).
    pub containment: f32,
    /// Shared fingerprints.
    pub count: u16,
    /// The span of the first document that the shared fingerprints cover.
    pub first: Span,
    /// The same in the second document.
    pub second: Span,
}

impl Shared {
    /// Nothing shared: the spans are the whole documents.
    pub const NONE: Shared =
        Shared { containment: 0.0, count: 0, first: Span::ALL, second: Span::ALL };
}

/// Compares two sets of fingerprints. The spans run from the first shared fingerprint to the last
/// one's shingle end (a shared run may begin up to a window before its first fingerprint and end
/// up to a window after its last, but a span that reached that far would take in a byline or a
/// footer as often as the run's own first or last words); with fewer than two shared
/// fingerprints they are the whole documents.
pub fn shared(a: &[Mark], b: &[Mark]) -> Shared {
    let (mut i, mut j, mut count) = (0, 0, 0u16);
    let (mut a_lo, mut a_hi, mut b_lo, mut b_hi) = (u16::MAX, 0u16, u16::MAX, 0u16);
    while i < a.len() && j < b.len() {
        match a[i].key.cmp(&b[j].key) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                count = count.saturating_add(1);
                a_lo = a_lo.min(a[i].position);
                a_hi = a_hi.max(a[i].position);
                b_lo = b_lo.min(b[j].position);
                b_hi = b_hi.max(b[j].position);
                i += 1;
                j += 1;
            }
        }
    }
    let fewer = a.len().min(b.len());
    if count < 2 || fewer == 0 {
        let containment = if fewer == 0 { 0.0 } else { f32::from(count) / fewer as f32 };
        return Shared { containment, count, ..Shared::NONE };
    }
    let reach = (SHINGLE_WORDS - 1) as u16;
    // Only the first PASSAGE_WORDS words are fingerprinted: a span that runs to their end runs
    // on to the end of the document as far as anyone can tell.
    let last_fingerprinted = (PASSAGE_WORDS - SHINGLE_WORDS - WINDOW) as u16;
    let span = |lo: u16, hi: u16| Span {
        from: lo.max(1),
        to: if hi >= last_fingerprinted { u16::MAX } else { hi.saturating_add(reach) },
    };
    Shared {
        containment: f32::from(count) / fewer as f32,
        count,
        first: span(a_lo, a_hi),
        second: span(b_lo, b_hi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{fold, hash_bytes};

    fn hashes(text: &str) -> Vec<u64> {
        text.split_whitespace().map(|w| hash_bytes(fold(w).as_bytes())).collect()
    }

    fn text(seed: u64, words: usize) -> String {
        (0..words)
            .map(|i| format!("w{}", mix64(seed * 1_000_003 + i as u64) % 5_000))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_brief_is_contained_in_its_article() {
        let lede = text(1, 80);
        let article = format!("{lede} {}", text(2, 900));
        let brief =
            format!("By Maria Santos (Reuters) {lede} Copyright Reuters all rights reserved");
        let (a, b) = (fingerprints(&hashes(&article)), fingerprints(&hashes(&brief)));
        let s = shared(&b, &a);
        assert!(s.containment > 0.7, "{s:?}");
        // The brief's span is its body, the article's its lede.
        assert!(s.first.from >= 5 && s.first.from <= 12 && s.first.to >= 76, "{s:?}");
        assert!(s.second.from <= 7 && s.second.to >= 72 && s.second.to <= 80, "{s:?}");
        // Unrelated texts share nothing.
        let other = fingerprints(&hashes(&text(3, 500)));
        assert_eq!(shared(&other, &a).count, 0);
    }

    #[test]
    fn shared_runs_of_nine_words_always_share_a_fingerprint() {
        for seed in 0..200 {
            let run = text(seed + 10, 9);
            let a = format!("{} {run} {}", text(seed + 1_000, 30), text(seed + 2_000, 30));
            let b = format!("{} {run} {}", text(seed + 3_000, 17), text(seed + 4_000, 40));
            let s = shared(&fingerprints(&hashes(&a)), &fingerprints(&hashes(&b)));
            assert!(s.count >= 1, "seed {seed}");
        }
    }

    #[test]
    fn ledes_that_share_a_run_share_a_key_and_common_phrases_do_not() {
        let lede = text(7, 40);
        let article = format!("{lede} {}", text(8, 500));
        let brief = format!("By Maria Santos (Reuters) {lede} Copyright Reuters");
        let keys = |t: &str| lede_keys(&fingerprints(&hashes(t)));
        let (a, b) = (keys(&article), keys(&brief));
        assert!(a.iter().any(|k| b.contains(k)), "{a:?} {b:?}");
        // Two texts that share one four-word phrase only.
        let one = format!("{} one of the most {}", text(9, 20), text(10, 30));
        let two = format!("{} one of the most {}", text(11, 20), text(12, 30));
        let (x, y) = (keys(&one), keys(&two));
        assert!(!x.iter().any(|k| y.contains(k)), "{x:?} {y:?}");
        assert!(lede_keys(&[]).is_empty());
    }

    #[test]
    fn short_and_empty_texts() {
        assert!(fingerprints(&[]).is_empty());
        assert_eq!(fingerprints(&hashes("one two")).len(), 1);
        assert_eq!(shared(&[], &fingerprints(&hashes("a b c d e"))), Shared::NONE);
        // Only the first PASSAGE_WORDS words count; a span that reaches their end runs on.
        let long = fingerprints(&hashes(&text(5, 5_000)));
        assert!(long.iter().all(|m| usize::from(m.position) <= PASSAGE_WORDS));
        let s = shared(&long, &long);
        assert_eq!((s.first.to, s.second.to), (u16::MAX, u16::MAX));
    }
}
