//! Verification: a candidate pair's scores, the thresholds in force, and the relation they give.
//!
//! Every pair that candidate generation proposes is scored on all signals ([`Scores`]) and the
//! rules below decide, in this order:
//!
//! 1. **duplicate by near-copy** ([`Method::NearCopy`]): the smaller text's shingles are
//!    contained in the larger (MinHash containment at least
//!    [`Thresholds::duplicate_containment`]) and the shorter text is not a mere fragment (length
//!    ratio at least [`Thresholds::duplicate_length_ratio`]);
//! 2. **duplicate by rewording** ([`Method::Reworded`]): embedding cosine at least
//!    [`Thresholds::duplicate_cosine`], POS-filtered Jaccard at least
//!    [`Thresholds::duplicate_content`] and the same length-ratio floor: the same text after
//!    edits dense enough to break most shingles (synonyms, typos, reordering);
//! 3. **similar** ([`Method::Similar`]): cosine at least [`Thresholds::similar_cosine`] and
//!    POS-filtered Jaccard at least [`Thresholds::similar_content`]: the same story written
//!    differently (this is the Spanish study's rule, with tuned thresholds).
//!
//! The defaults were tuned on the tuning split of the evaluation set (see `docs/dedup.md`).

use crate::minhash;
use crate::signature::Signature;

/// The two relations between documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// The same text, edited (new headline, cut, boilerplate, typos, rewording).
    Duplicate,
    /// The same story, written differently.
    Similar,
}

impl Relation {
    /// `duplicate` or `similar`.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Duplicate => "duplicate",
            Relation::Similar => "similar",
        }
    }
}

/// Which rule matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// MinHash containment of word shingles (a syndicated copy).
    NearCopy,
    /// Embedding cosine plus a high POS-filtered Jaccard (a copy edited word by word).
    Reworded,
    /// Embedding cosine plus POS-filtered Jaccard (the same story).
    Similar,
}

impl Method {
    /// A short stable name: `minhash`, `embedding+pos-jaccard/duplicate` or
    /// `embedding+pos-jaccard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::NearCopy => "minhash",
            Method::Reworded => "embedding+pos-jaccard/duplicate",
            Method::Similar => "embedding+pos-jaccard",
        }
    }

    /// The relation this rule gives.
    pub fn relation(self) -> Relation {
        match self {
            Method::NearCopy | Method::Reworded => Relation::Duplicate,
            Method::Similar => Relation::Similar,
        }
    }
}

/// Every signal of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scores {
    /// Estimated Jaccard similarity of the word-shingle sets (MinHash).
    pub shingle_jaccard: f32,
    /// Estimated share of the smaller shingle set inside the larger.
    pub containment: f32,
    /// Jaccard similarity of the folded, stemmed, POS-filtered token sets.
    pub content_jaccard: f32,
    /// Cosine of the embeddings.
    pub cosine: f32,
    /// Words of the shorter text over words of the longer (1 for equal lengths).
    pub length_ratio: f32,
}

impl Scores {
    /// The score that decided a match by `method`: containment for a near-copy, cosine otherwise.
    pub fn primary(&self, method: Method) -> f32 {
        match method {
            Method::NearCopy => self.containment,
            Method::Reworded | Method::Similar => self.cosine,
        }
    }
}

/// The thresholds of the three rules (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Near-copy: least MinHash containment.
    pub duplicate_containment: f32,
    /// Both duplicate rules: least length ratio (shorter fragments are at most similar).
    pub duplicate_length_ratio: f32,
    /// Reworded duplicate: least cosine.
    pub duplicate_cosine: f32,
    /// Reworded duplicate: least POS-filtered Jaccard.
    pub duplicate_content: f32,
    /// Similar: least cosine.
    pub similar_cosine: f32,
    /// Similar: least POS-filtered Jaccard.
    pub similar_content: f32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            duplicate_containment: 0.75,
            duplicate_length_ratio: 0.1,
            duplicate_cosine: 0.96,
            duplicate_content: 0.6,
            similar_cosine: 0.75,
            similar_content: 0.22,
        }
    }
}

impl Thresholds {
    /// The rule that matches these scores, if any.
    pub fn decide(&self, s: &Scores) -> Option<Method> {
        let long_enough = s.length_ratio >= self.duplicate_length_ratio;
        if long_enough && s.containment >= self.duplicate_containment {
            Some(Method::NearCopy)
        } else if long_enough
            && s.cosine >= self.duplicate_cosine
            && s.content_jaccard >= self.duplicate_content
        {
            Some(Method::Reworded)
        } else if s.cosine >= self.similar_cosine && s.content_jaccard >= self.similar_content {
            Some(Method::Similar)
        } else {
            None
        }
    }

    /// Whether no rule can match whatever the POS-filtered Jaccard: lets verification skip
    /// that (dearer) signal for most candidate pairs.
    fn hopeless(&self, containment: f32, cosine: f32, length_ratio: f32) -> bool {
        let near_copy = length_ratio >= self.duplicate_length_ratio
            && containment >= self.duplicate_containment;
        !near_copy && cosine < self.similar_cosine.min(self.duplicate_cosine)
    }
}

/// All scores of two signatures, or `None` when no rule could match (the POS-filtered Jaccard is
/// then not computed).
pub(crate) fn score(a: &Signature, b: &Signature, thresholds: &Thresholds) -> Option<Scores> {
    let shingle_jaccard = minhash::jaccard(&a.minhash, &b.minhash);
    let containment = minhash::containment(shingle_jaccard, a.shingles, b.shingles);
    let cosine = a.cosine(b);
    let length_ratio = length_ratio(a.words, b.words);
    if thresholds.hopeless(containment, cosine, length_ratio) {
        return None;
    }
    let content_jaccard = sorted_jaccard(&a.content, &b.content);
    Some(Scores { shingle_jaccard, containment, content_jaccard, cosine, length_ratio })
}

/// The signals that every candidate pair reads, packed row by row in rank order: each pair then
/// costs one memory fetch per side instead of three pointer chases, and a document's own row stays
/// in cache while its candidates stream past. Rows that do not have the usual shape (a MinHash of
/// another length, an embedding of another dimension) fall back to the signatures themselves; the
/// scores are [`score`]'s either way.
pub(crate) struct Packed<'s> {
    sigs: &'s [&'s Signature],
    dim: usize,
    minhash: Vec<u32>,
    embedding: Vec<i8>,
    counts: Vec<Counts>,
    regular: Vec<bool>,
}

impl<'s> Packed<'s> {
    pub(crate) fn new(sigs: &'s [&'s Signature]) -> Self {
        let dim = sigs.first().map_or(0, |s| s.embedding.len());
        let mut minhash = Vec::with_capacity(sigs.len() * minhash::MINHASH_LEN);
        let mut embedding = Vec::with_capacity(sigs.len() * dim);
        let mut regular = Vec::with_capacity(sigs.len());
        let counts = sigs
            .iter()
            .map(|s| Counts { words: s.words, shingles: s.shingles, scale: s.embedding_scale })
            .collect();
        for sig in sigs {
            let ok = sig.minhash.len() == minhash::MINHASH_LEN && sig.embedding.len() == dim;
            if ok {
                minhash.extend_from_slice(&sig.minhash);
                embedding.extend_from_slice(&sig.embedding);
            } else {
                minhash.extend(std::iter::repeat_n(minhash::EMPTY, minhash::MINHASH_LEN));
                embedding.extend(std::iter::repeat_n(0, dim));
            }
            regular.push(ok);
        }
        Self { sigs, dim, minhash, embedding, counts, regular }
    }

    /// [`score`] of the signatures at two positions, except that a pair only the embedding
    /// family proposed (`by_minhash` false) is dropped as soon as its cosine is below both cosine
    /// thresholds, without reading its MinHash: such a pair could only be a near-copy that shares
    /// no MinHash band, and a near-copy that also reads far apart in meaning is not worth the
    /// memory traffic of checking every embedding candidate for it (most candidates in a full
    /// window are such pairs).
    pub(crate) fn score(
        &self,
        a: usize,
        b: usize,
        by_minhash: bool,
        thresholds: &Thresholds,
    ) -> Option<Scores> {
        let lowest_cosine = thresholds.similar_cosine.min(thresholds.duplicate_cosine);
        if !(self.regular[a] && self.regular[b]) {
            let (sa, sb) = (self.sigs[a], self.sigs[b]);
            if !by_minhash && sa.cosine(sb) < lowest_cosine {
                return None;
            }
            return score(sa, sb, thresholds);
        }
        let (ea, eb) = (
            &self.embedding[a * self.dim..][..self.dim],
            &self.embedding[b * self.dim..][..self.dim],
        );
        let (pa, pb) = (self.counts[a], self.counts[b]);
        let cosine = crate::signature::dot_i8(ea, eb) as f32 * pa.scale * pb.scale;
        if !by_minhash && cosine < lowest_cosine {
            return None;
        }
        let row = |i: usize| &self.minhash[i * minhash::MINHASH_LEN..][..minhash::MINHASH_LEN];
        let shingle_jaccard = minhash::jaccard(row(a), row(b));
        let containment = minhash::containment(shingle_jaccard, pa.shingles, pb.shingles);
        let length_ratio = length_ratio(pa.words, pb.words);
        if thresholds.hopeless(containment, cosine, length_ratio) {
            return None;
        }
        let content_jaccard = sorted_jaccard(&self.sigs[a].content, &self.sigs[b].content);
        Some(Scores { shingle_jaccard, containment, content_jaccard, cosine, length_ratio })
    }
}

/// The small fields of a signature that every pair reads.
#[derive(Clone, Copy)]
struct Counts {
    words: u32,
    shingles: u32,
    scale: f32,
}

/// All scores of two signatures, whether or not they would be candidates or match: for
/// explaining why two documents were not linked, and for tuning thresholds.
pub fn scores(a: &Signature, b: &Signature) -> Scores {
    let shingle_jaccard = minhash::jaccard(&a.minhash, &b.minhash);
    Scores {
        shingle_jaccard,
        containment: minhash::containment(shingle_jaccard, a.shingles, b.shingles),
        content_jaccard: sorted_jaccard(&a.content, &b.content),
        cosine: a.cosine(b),
        length_ratio: length_ratio(a.words, b.words),
    }
}

fn length_ratio(a: u32, b: u32) -> f32 {
    let (small, large) = (a.min(b), a.max(b));
    if large == 0 { 0.0 } else { small as f32 / large as f32 }
}

/// The Jaccard similarity of two sorted sets without repeats (0 when both are empty).
pub(crate) fn sorted_jaccard(a: &[u32], b: &[u32]) -> f32 {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - common;
    if union == 0 { 0.0 } else { common as f32 / union as f32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(containment: f32, content: f32, cosine: f32, length_ratio: f32) -> Scores {
        Scores { shingle_jaccard: 0.0, containment, content_jaccard: content, cosine, length_ratio }
    }

    #[test]
    fn rules_in_order() {
        let t = Thresholds::default();
        assert_eq!(t.decide(&scores(0.9, 0.0, 0.0, 0.5)), Some(Method::NearCopy));
        // A short fragment of a long text is not a duplicate, but it may be similar.
        assert_eq!(t.decide(&scores(0.9, 0.3, 0.8, 0.05)), Some(Method::Similar));
        assert_eq!(t.decide(&scores(0.1, 0.6, 0.97, 0.9)), Some(Method::Reworded));
        assert_eq!(t.decide(&scores(0.1, 0.3, 0.8, 0.9)), Some(Method::Similar));
        // The Jaccard floor keeps same-topic stories with close embeddings apart.
        assert_eq!(t.decide(&scores(0.1, 0.05, 0.8, 0.9)), None);
        assert_eq!(t.decide(&scores(0.1, 0.9, 0.5, 0.9)), None);
    }

    #[test]
    fn thresholds_are_inclusive() {
        let t = Thresholds::default();
        let at = scores(t.duplicate_containment, 0.0, 0.0, t.duplicate_length_ratio);
        assert_eq!(t.decide(&at), Some(Method::NearCopy));
        let below = scores(t.duplicate_containment - 1e-3, 0.0, 0.0, 1.0);
        assert_eq!(t.decide(&below), None);
    }

    #[test]
    fn hopeless_pairs_skip_the_jaccard() {
        let t = Thresholds::default();
        assert!(t.hopeless(0.1, 0.2, 1.0));
        assert!(!t.hopeless(0.9, 0.2, 1.0));
        assert!(!t.hopeless(0.1, 0.95, 1.0));
    }

    #[test]
    fn packed_scores_are_the_signatures_scores() {
        let sig = |id: &str, seed: u32, embedding: &[f32], words: u32| {
            let (embedding, embedding_scale) = Signature::quantise(embedding);
            Signature {
                id: id.into(),
                published: None,
                language: None,
                words,
                shingles: words.saturating_sub(3),
                minhash: (0..minhash::MINHASH_LEN as u32).map(|i| i * 7 + seed * (i % 3)).collect(),
                content: vec![1, 2, 3, seed].into(),
                embedding,
                embedding_scale,
                keys: Default::default(),
            }
        };
        let sigs = [
            sig("a", 0, &[0.6, 0.8, 0.0], 100),
            sig("b", 1, &[0.6, 0.7, 0.387], 90),
            sig("c", 5, &[0.0, 0.0, 1.0], 300),
            // Another embedding dimension: the slow path.
            sig("d", 0, &[0.6, 0.8], 100),
        ];
        let refs: Vec<&Signature> = sigs.iter().collect();
        let packed = Packed::new(&refs);
        let open = Thresholds {
            duplicate_containment: 0.0,
            duplicate_length_ratio: 0.0,
            duplicate_cosine: -1.0,
            duplicate_content: 0.0,
            similar_cosine: -1.0,
            similar_content: 0.0,
        };
        for a in 0..refs.len() {
            for b in 0..refs.len() {
                assert_eq!(packed.score(a, b, true, &open), score(refs[a], refs[b], &open));
                assert_eq!(packed.score(a, b, false, &open), score(refs[a], refs[b], &open));
            }
        }
        // With the shipped thresholds, an embedding-only pair far apart in meaning stops early.
        let shipped = Thresholds::default();
        assert_eq!(packed.score(0, 2, false, &shipped), None);
        assert_eq!(packed.score(0, 2, true, &shipped), score(refs[0], refs[2], &shipped));
    }

    #[test]
    fn jaccard_of_sorted_sets() {
        assert_eq!(sorted_jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
        assert_eq!(sorted_jaccard(&[], &[]), 0.0);
        assert_eq!(sorted_jaccard(&[1], &[]), 0.0);
        assert_eq!(length_ratio(0, 0), 0.0);
        assert_eq!(length_ratio(50, 100), 0.5);
    }
}
