//! Candidate pairs: a time window and two locality-sensitive hashes, never all pairs.
//!
//! Each signature gets keys from two families:
//!
//! - **MinHash bands** ([`CandidateConfig::minhash_bands`] bands of
//!   [`CandidateConfig::minhash_rows`] rows): two texts sharing a band are likely near-copies
//!   (with 42 bands of 3 rows, a pair of shingle Jaccard 0.3 shares one with probability 0.68,
//!   0.5 with 0.996, 0.05 with 0.005);
//! - **cross-polytope tables** over the embedding ([`CandidateConfig::embedding_tables`], see
//!   `ann`): two texts sharing a table key are likely close in meaning, the candidates for
//!   rewrites;
//! - **lede passages** ([`CandidateConfig::lede_passages`]): the winnowed fingerprints of the
//!   first [`crate::passages::LEDE_WORDS`] words, each joined with the next
//!   ([`crate::passages::lede_keys`]); a run of a dozen or more words that two ledes share gives
//!   them a common key, so a brief is proposed with its article however much longer the article
//!   is (MinHash bands see a Jaccard of a few percent there).
//!
//! Keys go into one sorted table of `(key, rank)` entries, ranks being positions in the order of
//! the documents' dates (dated first, then undated, ties as [`crate::Ties`] says). A document's candidates are the
//! documents that share one of its keys and fall inside its **time window** (published within
//! [`crate::Config::window_secs`] of it). **Undated documents** have no window: they are candidates
//! of every document, and every document is theirs, so a story without a date is still matched
//! (the LSH keys keep that cheap); the archive should pass a fetch date as `published` when it has
//! one.
//!
//! A bucket holding more than [`CandidateConfig::max_bucket_scan`] documents inside a window (a
//! boilerplate text copied everywhere, a flood of identical alerts) is scanned only that far on
//! each side of the document, nearest in time first, which bounds the work per document; it is
//! the one place where whether two documents are compared can depend on the others in the batch.

use crate::ann::Polytopes;
use crate::minhash::band_keys;
use crate::signature::Signature;

/// Parameters of candidate generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CandidateConfig {
    /// MinHash bands (at most 128 / rows are used).
    pub minhash_bands: usize,
    /// MinHash rows per band.
    pub minhash_rows: usize,
    /// Cross-polytope tables over the embeddings (one rotation each).
    pub embedding_tables: usize,
    /// Cross-polytope hashes joined into each table's key, one per block of the table's rotated
    /// vector (more: fewer, closer candidates).
    pub embedding_hashes: usize,
    /// Most documents looked at per bucket on each side of a document (module docs).
    pub max_bucket_scan: usize,
    /// Whether the ledes' passage fingerprints are keys too.
    pub lede_passages: bool,
}

impl Default for CandidateConfig {
    fn default() -> Self {
        Self {
            minhash_bands: 42,
            minhash_rows: 3,
            embedding_tables: 96,
            embedding_hashes: 4,
            max_bucket_scan: 100,
            lede_passages: true,
        }
    }
}

/// Which family proposed a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FoundBy {
    /// The two texts share a MinHash band.
    pub minhash: bool,
    /// The two embeddings share a cross-polytope key.
    pub embedding: bool,
    /// The two ledes share a passage fingerprint.
    pub passage: bool,
}

/// The family of a key is in its two top bits: 1x for the embedding tables, 01 for the lede
/// passages, 00 for the MinHash bands.
const EMBEDDING_KEY: u64 = 1 << 63;
const PASSAGE_KEY: u64 = 1 << 62;
const FAMILY_BITS: u64 = EMBEDDING_KEY | PASSAGE_KEY;

/// The keys of all signatures, sorted for look-up.
#[derive(Debug)]
pub(crate) struct Index {
    keys: Vec<u64>,
    ranks: Vec<u32>,
    /// Each rank's buckets: ranges of `keys` and `ranks` holding one of its keys.
    own: Vec<Vec<(u32, u32)>>,
    /// Publication times by rank (dated ranks first, ascending).
    published: Vec<Option<i64>>,
    dated: usize,
}

impl Index {
    /// Indexes signatures given in rank order (dated ascending, then undated). Positions are kept
    /// as `u32`: a batch plus its window may hold up to about 30 million documents (138 keys each).
    pub(crate) fn build(
        sigs: &[&Signature],
        polytopes: &Polytopes,
        config: &CandidateConfig,
        pool: &crate::parallel::Pool,
    ) -> Self {
        let rows = config.minhash_rows.max(1);
        let bands = config.minhash_bands.min(crate::minhash::MINHASH_LEN / rows);
        let lede = if config.lede_passages { crate::passages::LEDE_WORDS } else { 0 };
        let setup = crate::text::mix64(
            polytopes.fingerprint() ^ (bands as u64) << 48 ^ (rows as u64) << 40 ^ lede as u64,
        );
        let keys_of: Vec<std::borrow::Cow<'_, [u64]>> = pool.map(sigs, |sig| {
            sig.keys.get_or(setup ^ sig.signal_hash(), || {
                let mut keys: Vec<u64> = band_keys(&sig.minhash, bands, rows)
                    .into_iter()
                    .map(|k| k & !FAMILY_BITS)
                    .collect();
                keys.extend(
                    polytopes.keys(&sig.embedding_f32()).into_iter().map(|k| k | EMBEDDING_KEY),
                );
                if lede > 0 {
                    keys.extend(
                        crate::passages::lede_keys(&sig.passages)
                            .into_iter()
                            .map(|k| (k & !FAMILY_BITS) | PASSAGE_KEY),
                    );
                }
                keys
            })
        });
        let mut entries: Vec<(u64, u32)> = keys_of
            .iter()
            .enumerate()
            .flat_map(|(rank, keys)| keys.iter().map(move |&k| (k, rank as u32)))
            .collect();
        entries.sort_unstable();
        entries.dedup();
        // Each rank's buckets, found in one pass over the sorted entries (no look-ups later).
        let mut own: Vec<Vec<(u32, u32)>> =
            keys_of.iter().map(|k| Vec::with_capacity(k.len())).collect();
        drop(keys_of);
        let mut from = 0;
        while from < entries.len() {
            let key = entries[from].0;
            let to = from + entries[from..].partition_point(|&(k, _)| k == key);
            for &(_, rank) in &entries[from..to] {
                own[rank as usize].push((from as u32, to as u32));
            }
            from = to;
        }
        let (keys, ranks) = entries.into_iter().unzip();
        let published: Vec<Option<i64>> = sigs.iter().map(|s| s.published).collect();
        let dated = published.iter().take_while(|p| p.is_some()).count();
        Self { keys, ranks, own, published, dated }
    }

    /// The candidates of the document at `rank`: ranks in its window sharing one of its keys, each
    /// with the families that proposed it, sorted by rank. `wanted(other)` filters the ranks.
    pub(crate) fn candidates(
        &self,
        rank: usize,
        window: i64,
        max_scan: usize,
        wanted: impl Fn(usize) -> bool,
    ) -> Vec<(usize, FoundBy)> {
        let n = self.published.len();
        // The ranges of ranks inside the window: dated ones near in time, and all undated ones.
        let ranges: [(usize, usize); 2] = match self.published[rank] {
            Some(t) => {
                let dated = &self.published[..self.dated];
                let lo = dated.partition_point(|p| p.is_some_and(|p| p < t.saturating_sub(window)));
                let hi =
                    dated.partition_point(|p| p.is_some_and(|p| p <= t.saturating_add(window)));
                [(lo, hi), (self.dated, n)]
            }
            None => [(0, self.dated), (self.dated, n)],
        };
        SEEN.with_borrow_mut(|seen| {
            seen.start(n);
            for &(from, to) in &self.own[rank] {
                let (from, to) = (from as usize, to as usize);
                let bucket = &self.ranks[from..to];
                let key = self.keys[from];
                let family = if key & EMBEDDING_KEY != 0 {
                    EMBEDDING
                } else if key & PASSAGE_KEY != 0 {
                    PASSAGE
                } else {
                    MINHASH
                };
                for &(lo, hi) in &ranges {
                    let start = bucket.partition_point(|&r| (r as usize) < lo);
                    let end = bucket.partition_point(|&r| (r as usize) < hi);
                    let inside = &bucket[start..end];
                    // Nearest ranks on each side of the document first, at most `max_scan` each.
                    let split = inside.partition_point(|&r| (r as usize) < rank);
                    let before = inside[..split].iter().rev().take(max_scan);
                    let after = inside[split..].iter().take(max_scan + 1);
                    for &other in before.chain(after) {
                        let other = other as usize;
                        if other != rank && wanted(other) {
                            seen.mark(other, family);
                        }
                    }
                }
            }
            seen.found.sort_unstable();
            seen.found
                .iter()
                .map(|&r| {
                    let families = seen.families[r as usize];
                    let by = FoundBy {
                        minhash: families & MINHASH != 0,
                        embedding: families & EMBEDDING != 0,
                        passage: families & PASSAGE != 0,
                    };
                    (r as usize, by)
                })
                .collect()
        })
    }
}

const MINHASH: u8 = 1;
const EMBEDDING: u8 = 2;
const PASSAGE: u8 = 4;

std::thread_local! {
    /// Each thread's marks of the candidates found so far for one document.
    static SEEN: std::cell::RefCell<Seen> = std::cell::RefCell::new(Seen::default());
}

/// The ranks found for one document, each once, with the families that found it: a mark per
/// rank (the number of the look-up that set it) instead of sorting every bucket entry.
#[derive(Default)]
struct Seen {
    stamps: Vec<u32>,
    families: Vec<u8>,
    stamp: u32,
    found: Vec<u32>,
}

impl Seen {
    /// Starts a look-up over `n` ranks.
    fn start(&mut self, n: usize) {
        if self.stamps.len() < n {
            self.stamps.resize(n, 0);
            self.families.resize(n, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        self.found.clear();
    }

    fn mark(&mut self, rank: usize, family: u8) {
        if self.stamps[rank] == self.stamp {
            self.families[rank] |= family;
        } else {
            self.stamps[rank] = self.stamp;
            self.families[rank] = family;
            self.found.push(rank as u32);
        }
    }
}
