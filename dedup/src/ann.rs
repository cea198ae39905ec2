//! Cross-polytope locality-sensitive hashing of embeddings: the candidates for rewrites.
//!
//! One cross-polytope hash rotates a vector pseudo-randomly and keeps the axis of its largest
//! coordinate and that coordinate's sign: one of `2 d` buckets. Close vectors (high cosine) tend
//! to land on the same axis, and unlike one random hyperplane, a hash tells apart far more than
//! two regions, so a table needs few of them to be selective. Whether two documents are
//! candidates depends on those two documents alone, never on the rest of the batch, which is
//! what lets an incremental run find exactly the pairs a batch run would.
//!
//! Each table has one rotation `H D3 H D2 H D1` (Walsh-Hadamard transforms `H` between diagonal
//! ±1 sign flips drawn from a fixed seed: the fast pseudo-random rotation of Andoni et al.,
//! 2015) of the vector zero-padded to a power of two. The rotated vector is cut into `hashes`
//! blocks and each block gives one cross-polytope hash (its own largest coordinate and sign):
//! the blocks of one rotation are orthogonal subspaces, so one rotation yields several nearly
//! independent hashes for the price of one. The table's key joins them; a pair is a candidate
//! when its two vectors share a key in any table. More blocks per key make a table more
//! selective (random pairs rarely agree on every block), more tables bring back the recall of
//! close pairs; `docs/dedup.md` has the measurements behind the defaults.

use crate::text::mix64;

/// The fixed seed of the rotations.
const SEED: u64 = 0x6d6f_7267_7565_2d32; // "morgue-2"

/// A family of tables of cross-polytope hashes for vectors of one dimension.
#[derive(Debug, Clone)]
pub(crate) struct Polytopes {
    dim: usize,
    padded: usize,
    tables: usize,
    /// Blocks of the rotated vector, one hash each.
    hashes: usize,
    /// Three sign vectors per table.
    signs: Vec<Vec<[f32; 3]>>,
}

impl Polytopes {
    /// `tables` tables of `hashes` block hashes each for vectors of `dim` dimensions (`hashes`
    /// is clamped so that every block has at least two coordinates).
    pub(crate) fn new(dim: usize, tables: usize, hashes: usize) -> Self {
        let padded = dim.max(2).next_power_of_two();
        let hashes = hashes.clamp(1, padded / 2);
        let mut state = SEED;
        let mut bit = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            if mix64(state) & 1 == 0 { 1.0 } else { -1.0 }
        };
        let signs =
            (0..tables).map(|_| (0..padded).map(|_| [bit(), bit(), bit()]).collect()).collect();
        Self { dim, padded, tables, hashes, signs }
    }

    /// A number that changes with the dimension, the tables and the hashes per table.
    pub(crate) fn fingerprint(&self) -> u64 {
        mix64(mix64(mix64(self.dim as u64) ^ self.tables as u64) ^ self.hashes as u64)
    }

    /// One key per table, or none for the zero vector (a text with no known token).
    pub(crate) fn keys(&self, vector: &[f32]) -> Vec<u64> {
        if vector.len() != self.dim || vector.iter().all(|&x| x == 0.0) {
            return Vec::new();
        }
        let mut buffer = vec![0.0f32; self.padded];
        let block = self.padded / self.hashes;
        self.signs
            .iter()
            .enumerate()
            .map(|(table, signs)| {
                self.rotate(vector, signs, &mut buffer);
                let mut key = mix64(0xc0ff_ee00 ^ table as u64);
                for part in buffer.chunks_exact(block).take(self.hashes) {
                    key = mix64(key ^ axis(part));
                }
                key
            })
            .collect()
    }

    /// The pseudo-random rotation of `vector` (zero-padded) into `buffer`.
    fn rotate(&self, vector: &[f32], signs: &[[f32; 3]], buffer: &mut [f32]) {
        buffer.fill(0.0);
        buffer[..self.dim].copy_from_slice(vector);
        for round in 0..3 {
            for (x, s) in buffer.iter_mut().zip(signs) {
                *x *= s[round];
            }
            hadamard(buffer);
        }
    }
}

/// The signed axis of the largest coordinate, as a number in `0..2 len`.
fn axis(part: &[f32]) -> u64 {
    let mut best = 0;
    let mut best_abs = -1.0f32;
    for (i, &x) in part.iter().enumerate() {
        if x.abs() > best_abs {
            best_abs = x.abs();
            best = i;
        }
    }
    (best as u64) << 1 | u64::from(part[best] < 0.0)
}

/// The unnormalised fast Walsh-Hadamard transform, in place; the length is a power of two.
///
/// The first three stages run on blocks of eight held in locals (strides 1, 2 and 4 are too short
/// for the compiler to vectorise as loops); the wider stages are plain loops over halves, which it
/// does vectorise.
fn hadamard(x: &mut [f32]) {
    let mut h = 1;
    if x.len() >= 8 {
        for b in x.chunks_exact_mut(8) {
            let [a0, a1, a2, a3, a4, a5, a6, a7] = [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]];
            let (b0, b1, b2, b3) = (a0 + a1, a0 - a1, a2 + a3, a2 - a3);
            let (b4, b5, b6, b7) = (a4 + a5, a4 - a5, a6 + a7, a6 - a7);
            let (c0, c1, c2, c3) = (b0 + b2, b1 + b3, b0 - b2, b1 - b3);
            let (c4, c5, c6, c7) = (b4 + b6, b5 + b7, b4 - b6, b5 - b7);
            b.copy_from_slice(&[
                c0 + c4,
                c1 + c5,
                c2 + c6,
                c3 + c7,
                c0 - c4,
                c1 - c5,
                c2 - c6,
                c3 - c7,
            ]);
        }
        h = 8;
    }
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
        let original: Vec<f32> = (0..64).map(|i| (i * 7 % 13) as f32 - 6.0).collect();
        let mut y = original.clone();
        hadamard(&mut y);
        hadamard(&mut y);
        assert!(y.iter().zip(&original).all(|(a, b)| *a == 64.0 * b));
    }

    #[test]
    fn hadamard_matches_its_definition() {
        // H[i][j] = (-1)^popcount(i & j).
        let x: Vec<f32> = (0..32).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
        let mut fast = x.clone();
        hadamard(&mut fast);
        for (i, &f) in fast.iter().enumerate() {
            let slow: f32 = x
                .iter()
                .enumerate()
                .map(|(j, &v)| if (i & j).count_ones() % 2 == 0 { v } else { -v })
                .sum();
            assert_eq!(f, slow, "coefficient {i}");
        }
    }

    #[test]
    fn near_vectors_share_keys_far_ones_rarely() {
        let family = Polytopes::new(256, 32, 4);
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
