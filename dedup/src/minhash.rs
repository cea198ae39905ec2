//! Word shingles and MinHash: the near-copy signal.
//!
//! A text's shingles are its runs of [`SHINGLE_WORDS`] consecutive folded words (a text shorter
//! than that is one shingle). The MinHash of the shingle set keeps, for each of [`MINHASH_LEN`]
//! hash functions, the least value over the shingles; the share of positions where two
//! signatures agree estimates the Jaccard similarity of the two sets (standard error about
//! `sqrt(J (1 - J) / 128)`, 0.044 at J = 0.5). The hash functions are `(a x + b) >> 32` over the
//! 64-bit shingle hash with `a` odd, `a` and `b` drawn from SplitMix64 with a fixed seed: the
//! same text gives the same signature everywhere, always.
//!
//! Since the signature also records how many distinct shingles the text had, the *containment*
//! of the smaller set in the larger follows from the Jaccard estimate: a copy whose tail was cut
//! keeps most of its shingles inside the original even though their Jaccard similarity drops.

use crate::text::mix64;

/// Words per shingle.
pub const SHINGLE_WORDS: usize = 4;
/// Hash functions per MinHash signature.
pub const MINHASH_LEN: usize = 128;
/// The value of an empty signature's positions (no shingle at all).
pub const EMPTY: u32 = u32::MAX;

/// The fixed seed of the hash functions.
const SEED: u64 = 0x6d6f_7267_7565_2d31; // "morgue-1"

/// The `(a, b)` pairs of the hash functions.
fn coefficients() -> &'static [(u64, u64); MINHASH_LEN] {
    static COEFFICIENTS: std::sync::OnceLock<[(u64, u64); MINHASH_LEN]> =
        std::sync::OnceLock::new();
    COEFFICIENTS.get_or_init(|| {
        let mut state = SEED;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            mix64(state)
        };
        std::array::from_fn(|_| (next() | 1, next()))
    })
}

/// The hashes of a text's distinct shingles, given its folded words' hashes.
pub fn shingles(word_hashes: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = if word_hashes.len() < SHINGLE_WORDS {
        if word_hashes.is_empty() {
            return Vec::new();
        }
        vec![shingle_hash(word_hashes)]
    } else {
        word_hashes.windows(SHINGLE_WORDS).map(shingle_hash).collect()
    };
    out.sort_unstable();
    out.dedup();
    out
}

fn shingle_hash(words: &[u64]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &w in words {
        h = mix64(h ^ w);
    }
    h
}

/// The MinHash signature of a set of (distinct) shingle hashes; all [`EMPTY`] for no shingle.
pub fn minhash(shingles: &[u64]) -> [u32; MINHASH_LEN] {
    let mut sig = [EMPTY; MINHASH_LEN];
    let coefficients = coefficients();
    for &x in shingles {
        for (slot, &(a, b)) in sig.iter_mut().zip(coefficients.iter()) {
            // The high half of a multiply-add: a universal hash of the 64-bit input.
            let v = (x.wrapping_mul(a).wrapping_add(b) >> 32) as u32;
            *slot = (*slot).min(v);
        }
    }
    sig
}

/// The estimated Jaccard similarity of two shingle sets: the share of agreeing positions
/// (0 when either set is empty).
pub fn jaccard(a: &[u32], b: &[u32]) -> f32 {
    if a.first() == Some(&EMPTY) || b.first() == Some(&EMPTY) || a.is_empty() {
        return 0.0;
    }
    let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
    same as f32 / a.len().min(b.len()) as f32
}

/// The share of the smaller set's shingles found in the larger one, from the Jaccard estimate
/// `j` and the sets' sizes: `|A ∩ B| = j (|A| + |B|) / (1 + j)`, over `min(|A|, |B|)`, at most 1.
pub fn containment(j: f32, size_a: u32, size_b: u32) -> f32 {
    let small = size_a.min(size_b);
    if small == 0 || j <= 0.0 {
        return 0.0;
    }
    let common = j * (size_a as f32 + size_b as f32) / (1.0 + j);
    (common / small as f32).min(1.0)
}

/// The band keys of a signature for locality-sensitive hashing: `bands` keys, each the hash of
/// `rows` consecutive positions and the band's number. An empty signature has no keys.
pub fn band_keys(sig: &[u32], bands: usize, rows: usize) -> Vec<u64> {
    if sig.first() == Some(&EMPTY) {
        return Vec::new();
    }
    (0..bands)
        .filter_map(|band| {
            let values = sig.get(band * rows..(band + 1) * rows)?;
            let mut h = mix64(0x5bd1_e995 ^ band as u64);
            for &v in values {
                h = mix64(h ^ u64::from(v));
            }
            Some(h)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<u64> {
        text.split_whitespace().map(|w| crate::text::hash_bytes(w.as_bytes())).collect()
    }

    #[test]
    fn identical_texts_agree_everywhere_and_disjoint_ones_almost_nowhere() {
        let a = minhash(&shingles(&words("the quick brown fox jumps over the lazy dog again")));
        let b = minhash(&shingles(&words("the quick brown fox jumps over the lazy dog again")));
        let c = minhash(&shingles(&words("completely different words make another set here now")));
        assert_eq!(jaccard(&a, &b), 1.0);
        assert!(jaccard(&a, &c) < 0.1);
    }

    #[test]
    fn estimate_tracks_the_true_jaccard() {
        // 200 shared shingles out of 400 distinct ones: J = 0.5.
        let shared: Vec<u64> = (0..200).map(mix64).collect();
        let only_a: Vec<u64> = (200..300).map(mix64).collect();
        let only_b: Vec<u64> = (300..400).map(mix64).collect();
        let a = minhash(&[shared.clone(), only_a].concat());
        let b = minhash(&[shared, only_b].concat());
        let j = jaccard(&a, &b);
        assert!((j - 0.5).abs() < 0.15, "{j}");
        let c = containment(j, 300, 300);
        assert!((c - 0.667).abs() < 0.15, "{c}");
    }

    #[test]
    fn a_cut_copy_is_contained() {
        // B is the first half of A: J = 0.5, containment 1.
        assert!((containment(0.5, 1000, 500) - 1.0).abs() < 1e-6);
        assert_eq!(containment(0.0, 10, 10), 0.0);
        assert_eq!(containment(0.5, 0, 10), 0.0);
    }

    #[test]
    fn empty_and_short_texts() {
        assert!(shingles(&[]).is_empty());
        assert_eq!(minhash(&[]), [EMPTY; MINHASH_LEN]);
        assert_eq!(jaccard(&minhash(&[]), &minhash(&[])), 0.0);
        assert!(band_keys(&minhash(&[]), 42, 3).is_empty());
        assert_eq!(shingles(&words("one")).len(), 1);
        let sig = minhash(&shingles(&words("a b c d e f")));
        assert_eq!(band_keys(&sig, 42, 3).len(), 42);
    }
}
