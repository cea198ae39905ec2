//! [`Signature`]: everything dedup keeps of a document, and its byte form for storage.
//!
//! A signature holds the document's id and date, its word count, its MinHash signature and
//! shingle count, its set of POS-filtered token hashes, its embedding (int8, one scale), its
//! passage fingerprints (`passages.rs`) and its facts (names and numbers, `facts.rs`). It is
//! all that candidate generation, verification and clustering read, so the archive can keep the
//! signatures of the window's stories and compare a new batch against them without the texts.
//!
//! [`Signature::to_bytes`] writes a little-endian, length-prefixed form that starts with the
//! magic `MGDS` and a format version; [`Signature::from_bytes`] reads it back and refuses any
//! other version (version 1, before passages and facts, version 2, before number places, and
//! version 3, before Korean names were read by their nouns without particles, are refused: the
//! archive computes such signatures again from the stories' texts). About 2.5 KB
//! for a typical article (512 B of MinHash, 256 B of embedding, 4 B per distinct content token,
//! 6 B per passage fingerprint, 6 B and a label per fact, 14 B per number place).

use crate::facts::{Facts, Mark, Place};
use crate::minhash::MINHASH_LEN;

/// The current byte format.
pub const FORMAT_VERSION: u8 = 4;
const MAGIC: &[u8; 4] = b"MGDS";

/// The signals of one document.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    /// The caller's document id.
    pub id: String,
    /// Publication time, seconds since the Unix epoch (UTC), if known.
    pub published: Option<i64>,
    /// The language the signals were computed for: the document's own label, else the guessed
    /// one, else `None`.
    pub language: Option<String>,
    /// Words in the text (after the text was cut to the byte limit).
    pub words: u32,
    /// Distinct word shingles the MinHash was computed over.
    pub shingles: u32,
    /// The MinHash of the shingles ([`MINHASH_LEN`] values).
    pub minhash: Box<[u32]>,
    /// Hashes of the distinct folded, stemmed, POS-filtered tokens, sorted.
    pub content: Box<[u32]>,
    /// The embedding, quantised: `embedding[i] * embedding_scale` is the i-th coordinate.
    pub embedding: Box<[i8]>,
    /// The embedding's scale.
    pub embedding_scale: f32,
    /// Winnowed fingerprints of the first words' shingles, sorted by key (`passages.rs`).
    pub passages: Box<[Mark]>,
    /// Names and numbers (`facts.rs`).
    pub facts: Facts,
    /// The candidate keys, computed on first use (not part of the byte form).
    pub(crate) keys: KeyCache,
}

/// A signature's candidate keys, remembered so that a signature kept in memory across many
/// incremental runs (a day's window compared with each new batch) is hashed once. The entry is
/// tagged with a fingerprint of the key settings and of the signals it was computed from, so a
/// signature whose fields were changed afterwards, or one read with other settings, is hashed
/// again rather than given stale keys. Never compared: two signatures are equal whatever their
/// caches hold.
#[derive(Clone, Default)]
pub(crate) struct KeyCache(std::sync::OnceLock<(u64, Box<[u64]>)>);

impl KeyCache {
    /// The cached keys if they were computed under `fingerprint`, else `compute()`'s (cached
    /// when nothing was yet).
    pub(crate) fn get_or(
        &self,
        fingerprint: u64,
        compute: impl Fn() -> Vec<u64>,
    ) -> std::borrow::Cow<'_, [u64]> {
        if self.0.get().is_none() {
            // Another thread may fill it first; either way the entry is then set.
            let _ = self.0.set((fingerprint, compute().into()));
        }
        match self.0.get() {
            Some((f, keys)) if *f == fingerprint => std::borrow::Cow::Borrowed(keys),
            _ => std::borrow::Cow::Owned(compute()),
        }
    }
}

impl std::fmt::Debug for KeyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "KeyCache(filled)" } else { "KeyCache(empty)" })
    }
}

impl PartialEq for KeyCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Why bytes are not a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// The bytes do not start with the magic `MGDS`.
    #[error("not a dedup signature (bad magic)")]
    Magic,
    /// A format version this build cannot read.
    #[error("signature format version {0} is not supported (this build reads {FORMAT_VERSION})")]
    Version(u8),
    /// The bytes end early, or a field is malformed.
    #[error("truncated or malformed signature at byte {0}")]
    Malformed(usize),
}

impl Signature {
    /// A hash of the signals candidate keys are computed from.
    pub(crate) fn signal_hash(&self) -> u64 {
        let mut h = crate::text::mix64(u64::from(self.embedding_scale.to_bits()));
        for &v in self.minhash.iter() {
            h = crate::text::mix64(h ^ u64::from(v));
        }
        for chunk in self.embedding.chunks(8) {
            let mut word = [0u8; 8];
            for (w, &b) in word.iter_mut().zip(chunk) {
                *w = b.cast_unsigned();
            }
            h = crate::text::mix64(h ^ u64::from_le_bytes(word));
        }
        for m in self.passages.iter() {
            h = crate::text::mix64(h ^ u64::from(m.key) ^ u64::from(m.position) << 32);
        }
        crate::text::mix64(h ^ self.embedding.len() as u64)
    }

    /// The cosine of two signatures' embeddings (0 when either is the zero vector).
    pub fn cosine(&self, other: &Signature) -> f32 {
        if self.embedding.len() != other.embedding.len() {
            return 0.0;
        }
        dot_i8(&self.embedding, &other.embedding) as f32
            * self.embedding_scale
            * other.embedding_scale
    }

    /// The embedding as floats.
    pub fn embedding_f32(&self) -> Vec<f32> {
        self.embedding.iter().map(|&q| f32::from(q) * self.embedding_scale).collect()
    }

    /// Quantises a unit (or zero) vector to int8 with one scale.
    pub(crate) fn quantise(vector: &[f32]) -> (Box<[i8]>, f32) {
        let max = vector.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        if max == 0.0 || !max.is_finite() {
            return (vec![0; vector.len()].into(), 0.0);
        }
        let scale = max / 127.0;
        let q = vector.iter().map(|&x| (x / scale).round().clamp(-127.0, 127.0) as i8).collect();
        (q, scale)
    }

    /// The byte form (module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            64 + self.id.len()
                + 4 * (self.minhash.len() + self.content.len())
                + self.embedding.len(),
        );
        out.extend_from_slice(MAGIC);
        out.push(FORMAT_VERSION);
        put_bytes(&mut out, self.id.as_bytes());
        match self.published {
            Some(t) => {
                out.push(1);
                out.extend_from_slice(&t.to_le_bytes());
            }
            None => out.push(0),
        }
        put_bytes(&mut out, self.language.as_deref().unwrap_or("").as_bytes());
        out.extend_from_slice(&self.words.to_le_bytes());
        out.extend_from_slice(&self.shingles.to_le_bytes());
        put_u32s(&mut out, &self.minhash);
        put_u32s(&mut out, &self.content);
        out.extend_from_slice(&(self.embedding.len() as u32).to_le_bytes());
        out.extend(self.embedding.iter().map(|&q| q.cast_unsigned()));
        out.extend_from_slice(&self.embedding_scale.to_le_bytes());
        put_marks(&mut out, &self.passages, false);
        put_marks(&mut out, &self.facts.names, true);
        put_marks(&mut out, &self.facts.numbers, true);
        put_bytes(&mut out, self.facts.labels.as_bytes());
        let places = self.facts.places();
        out.extend_from_slice(&(places.len() as u32).to_le_bytes());
        for p in places {
            out.extend_from_slice(&p.value.to_le_bytes());
            out.extend_from_slice(&p.left.to_le_bytes());
            out.extend_from_slice(&p.right.to_le_bytes());
            out.extend_from_slice(&p.position.to_le_bytes());
        }
        out
    }

    /// Reads the byte form back.
    ///
    /// # Errors
    ///
    /// [`SignatureError`] when the bytes are not a signature of this format version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, SignatureError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err(SignatureError::Magic);
        }
        let version = r.take(1)?[0];
        if version != FORMAT_VERSION {
            return Err(SignatureError::Version(version));
        }
        let id = r.string()?;
        let published = match r.take(1)?[0] {
            0 => None,
            1 => Some(i64::from_le_bytes(r.array()?)),
            _ => return Err(SignatureError::Malformed(r.pos - 1)),
        };
        let language = Some(r.string()?).filter(|l| !l.is_empty());
        let words = r.u32()?;
        let shingles = r.u32()?;
        let minhash = r.u32s()?;
        if minhash.len() != MINHASH_LEN {
            return Err(SignatureError::Malformed(r.pos));
        }
        let content = r.u32s()?;
        let n = r.u32()? as usize;
        let embedding = r.take(n)?.iter().map(|&b| b.cast_signed()).collect();
        let embedding_scale = f32::from_le_bytes(r.array()?);
        let passages = r.marks(false)?;
        let names = r.marks(true)?;
        let numbers = r.marks(true)?;
        let labels = r.string()?;
        let places = r.places()?;
        let sorted = |m: &[Mark]| m.windows(2).all(|w| w[0].key < w[1].key);
        if !(sorted(&passages) && sorted(&names) && sorted(&numbers)) {
            return Err(SignatureError::Malformed(r.pos));
        }
        if r.pos != bytes.len() || !embedding_scale.is_finite() {
            return Err(SignatureError::Malformed(r.pos));
        }
        Ok(Signature {
            id,
            published,
            language,
            words,
            shingles,
            minhash,
            content,
            embedding,
            embedding_scale,
            passages,
            facts: Facts::from_parts(names, numbers, labels.into()).with_places(places),
            keys: KeyCache::default(),
        })
    }
}

/// The dot product of two int8 vectors of the same length.
pub(crate) fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    a.iter().zip(b).map(|(&x, &y)| i32::from(x) * i32::from(y)).sum()
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// Marks as their count, then key and position (and count, for facts) each.
fn put_marks(out: &mut Vec<u8>, marks: &[Mark], counted: bool) {
    out.extend_from_slice(&(marks.len() as u32).to_le_bytes());
    for m in marks {
        out.extend_from_slice(&m.key.to_le_bytes());
        out.extend_from_slice(&m.position.to_le_bytes());
        if counted {
            out.extend_from_slice(&m.count.to_le_bytes());
        }
    }
}

fn put_u32s(out: &mut Vec<u8>, values: &[u32]) {
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SignatureError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(SignatureError::Malformed(self.pos))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], SignatureError> {
        let at = self.pos;
        self.take(N)?.try_into().map_err(|_| SignatureError::Malformed(at))
    }

    fn u32(&mut self) -> Result<u32, SignatureError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, SignatureError> {
        let n = self.u32()? as usize;
        let at = self.pos;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| SignatureError::Malformed(at))
    }

    fn marks(&mut self, counted: bool) -> Result<Box<[Mark]>, SignatureError> {
        let n = self.u32()? as usize;
        let size = if counted { 8 } else { 6 };
        let bytes = self.take(n.checked_mul(size).ok_or(SignatureError::Malformed(self.pos))?)?;
        Ok(bytes
            .chunks_exact(size)
            .map(|c| Mark {
                key: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                position: u16::from_le_bytes([c[4], c[5]]),
                count: if counted { u16::from_le_bytes([c[6], c[7]]) } else { 1 },
            })
            .collect())
    }

    /// Number places, at most [`crate::facts::MAX_PLACES`].
    fn places(&mut self) -> Result<Box<[Place]>, SignatureError> {
        let n = self.u32()? as usize;
        if n > crate::facts::MAX_PLACES {
            return Err(SignatureError::Malformed(self.pos));
        }
        let mut places = Vec::with_capacity(n);
        for _ in 0..n {
            let value = self.u32()?;
            let left = self.u32()?;
            let right = self.u32()?;
            let position = u16::from_le_bytes(self.array()?);
            places.push(Place { value, left, right, position });
        }
        Ok(places.into())
    }

    fn u32s(&mut self) -> Result<Box<[u32]>, SignatureError> {
        let n = self.u32()? as usize;
        let bytes = self.take(n.checked_mul(4).ok_or(SignatureError::Malformed(self.pos))?)?;
        Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Signature {
        let (embedding, embedding_scale) = Signature::quantise(&[0.6, -0.8, 0.0]);
        Signature {
            id: "story-1".into(),
            published: Some(1_700_000_000),
            language: Some("en".into()),
            words: 321,
            shingles: 300,
            minhash: (0..MINHASH_LEN as u32).collect(),
            content: vec![3, 9, 27].into(),
            embedding,
            embedding_scale,
            passages: vec![
                Mark { key: 4, position: 1, count: 1 },
                Mark { key: 8, position: 30, count: 1 },
            ]
            .into(),
            facts: Facts::from_parts(
                vec![Mark { key: 5, position: 3, count: 2 }].into(),
                vec![
                    Mark { key: 1, position: 0, count: 1 },
                    Mark { key: 2, position: 9, count: 4 },
                ]
                .into(),
                "Lisbon\u{1f}3\u{1f}Monday".into(),
            )
            .with_places(vec![Place { value: 2, left: 11, right: 12, position: 9 }].into()),
            keys: KeyCache::default(),
        }
    }

    #[test]
    fn bytes_round_trip() {
        let sig = sample();
        assert_eq!(Signature::from_bytes(&sig.to_bytes()), Ok(sig.clone()));
        let undated = Signature { published: None, language: None, ..sig };
        assert_eq!(Signature::from_bytes(&undated.to_bytes()), Ok(undated));
    }

    #[test]
    fn bad_bytes_are_errors_never_panics() {
        let bytes = sample().to_bytes();
        assert_eq!(Signature::from_bytes(b"nope"), Err(SignatureError::Magic));
        let mut future = bytes.clone();
        future[4] = 99;
        assert_eq!(Signature::from_bytes(&future), Err(SignatureError::Version(99)));
        for cut in 0..bytes.len() {
            assert!(Signature::from_bytes(&bytes[..cut]).is_err());
        }
        let mut longer = bytes;
        longer.push(0);
        assert!(Signature::from_bytes(&longer).is_err());
    }

    #[test]
    fn quantised_cosine_is_close() {
        let a = sample();
        assert!((a.cosine(&a) - 1.0).abs() < 0.01);
        let (zero, scale) = Signature::quantise(&[0.0; 3]);
        let z = Signature { embedding: zero, embedding_scale: scale, ..sample() };
        assert_eq!(a.cosine(&z), 0.0);
    }

    #[test]
    fn cached_keys_follow_their_fingerprint_and_never_affect_equality() {
        let sig = sample();
        let fingerprint = 7 ^ sig.signal_hash();
        assert_eq!(&*sig.keys.get_or(fingerprint, || vec![1, 2]), &[1, 2]);
        // Cached: the computation is not run again.
        assert_eq!(&*sig.keys.get_or(fingerprint, || vec![9]), &[1, 2]);
        // Other settings, or changed signals, compute afresh.
        assert_eq!(&*sig.keys.get_or(fingerprint ^ 1, || vec![3]), &[3]);
        let mut changed = sig.clone();
        changed.minhash[0] ^= 1;
        assert_ne!(changed.signal_hash(), sig.signal_hash());
        assert_eq!(sample(), sig);
        assert_eq!(Signature::from_bytes(&sig.to_bytes()).unwrap(), sig);
    }
}
