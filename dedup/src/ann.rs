//! Cross-polytope locality-sensitive hashing of embeddings: the candidates for rewrites.
//!
//! One cross-polytope hash rotates a vector pseudo-randomly and keeps the axis of its largest
//! coordinate and that coordinate's sign: one of `2 d` buckets. Close vectors (high cosine) tend
//! to land on the same axis, and unlike one random hyperplane, a hash tells apart far more than
//! two regions, so a table needs few of them to be selective. Each table's key joins
//! [`HASHES_PER_TABLE`] hashes; a pair is a candidate when its two vectors share a key in any of
//! the tables. Whether two documents are candidates depends on those two documents alone, never
//! on the rest of the batch, which is what lets an incremental run find exactly the pairs a
//! batch run would.
//!
//! The rotation is `H D3 H D2 H D1` (Walsh-Hadamard transforms `H` between diagonal ±1 sign
//! flips drawn from a fixed seed), the fast pseudo-random rotation of Andoni et al. (2015),
//! on the vector zero-padded to a power of two.

use crate::text::mix64;

/// The fixed seed of the rotations.
const SEED: u64 = 0x6d6f_7267_7565_2d32; // "morgue-2"

/// A family of tables of cross-polytope hashes for vectors of one dimension.
#[derive(Debug, Clone)]
pub(crate) struct Polytopes {
    dim: usize,
    padded: usize,
    tables: usize,
    hashes: usize,
    /// Three sign vectors per hash, `tables * hashes` hashes.
    signs: Vec<Vec<[f32; 3]>>,
}

impl Polytopes {
    /// `tables` tables of `hashes` hashes each for vectors of `dim` dimensions.
    pub(crate) fn new(dim: usize, tables: usize, hashes: usize) -> Self {
        let hashes = hashes.max(1);
        let padded = dim.max(2).next_power_of_two();
        let mut state = SEED;
        let mut bit = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            if mix64(state) & 1 == 0 { 1.0 } else { -1.0 }
        };
        let signs = (0..tables * hashes)
            .map(|_| (0..padded).map(|_| [bit(), bit(), bit()]).collect())
            .collect();
        Self { dim, padded, tables, hashes, signs }
    }

    /// One key per table, or none for the zero vector (a text with no known token).
    pub(crate) fn keys(&self, vector: &[f32]) -> Vec<u64> {
        if vector.len() != self.dim || vector.iter().all(|&x| x == 0.0) {
            return Vec::new();
        }
        let mut buffer = vec![0.0f32; self.padded];
        (0..self.tables)
            .map(|table| {
                let mut key = mix64(0xc0ff_ee00 ^ table as u64);
                for hash in 0..self.hashes {
                    let signs = &self.signs[table * self.hashes + hash];
                    let axis = self.hash(vector, signs, &mut buffer);
                    key = mix64(key ^ axis);
                }
                key
            })
            .collect()
    }

    /// The signed axis of the largest coordinate after the rotation, as a number in `0..2 d`.
    fn hash(&self, vector: &[f32], signs: &[[f32; 3]], buffer: &mut [f32]) -> u64 {
        buffer.fill(0.0);
        buffer[..self.dim].copy_from_slice(vector);
        for round in 0..3 {
            for (x, s) in buffer.iter_mut().zip(signs) {
                *x *= s[round];
            }
            hadamard(buffer);
        }
        let mut best = 0;
        let mut best_abs = -1.0f32;
        for (i, &x) in buffer.iter().enumerate() {
            if x.abs() > best_abs {
                best_abs = x.abs();
                best = i;
            }
        }
        (best as u64) << 1 | u64::from(buffer[best] < 0.0)
    }
}

/// The unnormalised fast Walsh-Hadamard transform, in place; the length is a power of two.
fn hadamard(x: &mut [f32]) {
    let mut h = 1;
    while h < x.len() {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*a, *b);
                *a = u + v;
                *b = u - v;
            }
        }
        h *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: Vec<f32>) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn hadamard_is_its_own_inverse_up_to_scale() {
        let mut x = vec![1.0, 2.0, 3.0, 4.0];
        hadamard(&mut x);
        hadamard(&mut x);
        assert_eq!(x, [4.0, 8.0, 12.0, 16.0]);
    }

    #[test]
    fn near_vectors_share_keys_far_ones_rarely() {
        let family = Polytopes::new(256, 32, 2);
        let base: Vec<f32> = (0..256).map(|i| mix64(i) as f32 / u64::MAX as f32 - 0.5).collect();
        let near: Vec<f32> = base
            .iter()
            .enumerate()
            .map(|(i, &x)| x + 0.1 * (mix64(i as u64 + 999) as f32 / u64::MAX as f32 - 0.5))
            .collect();
        let far: Vec<f32> =
            (0..256).map(|i| mix64(i + 5000) as f32 / u64::MAX as f32 - 0.5).collect();
        let (a, b, c) =
            (family.keys(&unit(base)), family.keys(&unit(near)), family.keys(&unit(far)));
        let shared = |x: &[u64], y: &[u64]| x.iter().zip(y).filter(|(p, q)| p == q).count();
        assert!(shared(&a, &b) >= 16, "{}", shared(&a, &b));
        assert!(shared(&a, &c) <= 2, "{}", shared(&a, &c));
        assert!(family.keys(&[0.0; 256]).is_empty());
    }
}
