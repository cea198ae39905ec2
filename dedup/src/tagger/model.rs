//! A trained model: a hashed table of integer weights, its binary format, and greedy decoding.
//!
//! # The binary format (version 1)
//!
//! All integers are little-endian.
//!
//! | field | bytes | meaning |
//! | --- | --- | --- |
//! | magic | 8 | `MGUPOS\0\x01` |
//! | feature set | 4 | the feature templates' version the weights were trained for |
//! | tags | 1 | the number of tags, 17 |
//! | bits | 1 | the table has `2^bits` rows, one per feature hash bucket |
//! | scale | 4 | f32, stored weight = averaged perceptron weight × scale (informative) |
//! | language | 1 + n | length, then the ISO 639-1 code in UTF-8 |
//! | description | 2 + n | length, then what the model was trained on, in UTF-8 |
//! | rows | 4 | how many rows follow (rows whose weights are all zero are left out) |
//! | each row | | varint: rows skipped since the previous stored row; 3 bytes: a bit mask of the tags with a weight; then each such weight as a zigzag varint |
//! | checksum | 8 | [`hash_bytes`](super::features::hash_bytes) with seed 0 of every byte before it |
//!
//! A feature's row is the top `bits` bits of its 64-bit hash; features that collide share a row,
//! as they did in training.

use std::fmt;

use super::features::{self, TokenInfo};
use super::upos::Upos;

const MAGIC: &[u8; 8] = b"MGUPOS\0\x01";
const TAGS: usize = Upos::COUNT;

/// A model file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError(String);

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unusable tagger model: {}", self.0)
    }
}

impl std::error::Error for ModelError {}

/// A trained averaged-perceptron model.
#[derive(Clone, PartialEq)]
pub struct Model {
    bits: u8,
    scale: f32,
    language: String,
    description: String,
    /// `2^bits` rows of `TAGS` weights.
    weights: Vec<i16>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("language", &self.language)
            .field("description", &self.description)
            .field("bits", &self.bits)
            .finish_non_exhaustive()
    }
}

impl Model {
    /// A model from its weights, `2^bits` rows of 17.
    pub(crate) fn new(
        bits: u8,
        scale: f32,
        language: &str,
        description: &str,
        weights: Vec<i16>,
    ) -> Model {
        assert_eq!(weights.len(), TAGS << bits, "a table of 2^bits rows");
        Model {
            bits,
            scale,
            language: language.to_owned(),
            description: description.to_owned(),
            weights,
        }
    }

    /// The ISO 639-1 code of the model's language.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// What the model was trained on.
    pub fn description(&self) -> &str {
        &self.description
    }

    #[inline]
    fn row(&self, hash: u64) -> &[i16] {
        let at = (hash >> (64 - u32::from(self.bits))) as usize * TAGS;
        &self.weights[at..at + TAGS]
    }

    #[inline]
    fn add(&self, scores: &mut [i32; TAGS], hash: u64) {
        for (score, weight) in scores.iter_mut().zip(self.row(hash)) {
            *score += i32::from(*weight);
        }
    }

    /// Tags one sentence, left to right, each token's best tag given the ones before it.
    pub(crate) fn tag(&self, tokens: &[&str]) -> Vec<Upos> {
        let infos: Vec<TokenInfo> = tokens.iter().map(|token| TokenInfo::new(token)).collect();
        let mut tags: Vec<Upos> = Vec::with_capacity(tokens.len());
        for i in 0..infos.len() {
            let mut scores = [0_i32; TAGS];
            for hash in features::static_features(&infos, i) {
                self.add(&mut scores, hash);
            }
            let prev = i.checked_sub(1).map(|j| tags[j]);
            let prev2 = i.checked_sub(2).map(|j| tags[j]);
            for hash in features::history_features(&infos[i], prev, prev2) {
                self.add(&mut scores, hash);
            }
            tags.push(best(&scores));
        }
        tags
    }

    /// The model in its binary format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 << 20);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&features::FEATURE_SET.to_le_bytes());
        out.push(TAGS as u8);
        out.push(self.bits);
        out.extend_from_slice(&self.scale.to_le_bytes());
        let language = truncate(&self.language, u8::MAX as usize);
        out.push(language.len() as u8);
        out.extend_from_slice(language.as_bytes());
        let description = truncate(&self.description, u16::MAX as usize);
        out.extend_from_slice(&(description.len() as u16).to_le_bytes());
        out.extend_from_slice(description.as_bytes());
        let rows: Vec<(usize, &[i16])> = self
            .weights
            .chunks_exact(TAGS)
            .enumerate()
            .filter(|(_, row)| row.iter().any(|&w| w != 0))
            .collect();
        out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
        let mut next = 0;
        for (index, row) in rows {
            write_varint(&mut out, (index - next) as u64);
            next = index + 1;
            let mask = row
                .iter()
                .enumerate()
                .filter(|(_, w)| **w != 0)
                .fold(0_u32, |mask, (tag, _)| mask | 1 << tag);
            out.extend_from_slice(&mask.to_le_bytes()[..3]);
            for &weight in row.iter().filter(|w| **w != 0) {
                write_varint(&mut out, zigzag(weight));
            }
        }
        let checksum = features::hash_bytes(0, &out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a model written by [`Model::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let error = |what: &str| ModelError(what.to_owned());
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(error("not a morgue tagger model (bad magic bytes)"));
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 8);
        if features::hash_bytes(0, body).to_le_bytes() != checksum {
            return Err(error("checksum mismatch (the file is damaged)"));
        }
        let mut input = Reader { bytes: body, at: MAGIC.len() };
        let feature_set = u32::from_le_bytes(input.array()?);
        if feature_set != features::FEATURE_SET {
            return Err(ModelError(format!(
                "trained for feature set {feature_set}, this build computes feature set {}",
                features::FEATURE_SET
            )));
        }
        if usize::from(input.byte()?) != TAGS {
            return Err(error("wrong number of tags"));
        }
        let bits = input.byte()?;
        if !(8..=24).contains(&bits) {
            return Err(error("table size out of range"));
        }
        let scale = f32::from_le_bytes(input.array()?);
        let length = usize::from(input.byte()?);
        let language = input.text(length)?;
        let length = usize::from(u16::from_le_bytes(input.array()?));
        let description = input.text(length)?;
        let rows = u32::from_le_bytes(input.array()?);
        let mut weights = vec![0_i16; TAGS << bits];
        let mut next = 0_usize;
        for _ in 0..rows {
            let index = usize::try_from(input.varint()?)
                .ok()
                .and_then(|gap| next.checked_add(gap))
                .filter(|&index| index < 1 << bits)
                .ok_or_else(|| error("row out of range"))?;
            let mut mask = [0_u8; 4];
            mask[..3].copy_from_slice(&input.array::<3>()?);
            let mask = u32::from_le_bytes(mask);
            if mask >> TAGS != 0 {
                return Err(error("bad tag mask"));
            }
            for tag in (0..TAGS).filter(|tag| mask & (1 << tag) != 0) {
                let value = unzigzag(input.varint()?).ok_or_else(|| error("weight too large"))?;
                weights[index * TAGS + tag] = value;
            }
            next = index + 1;
        }
        if input.at != body.len() {
            return Err(error("trailing bytes"));
        }
        Ok(Model { bits, scale, language, description, weights })
    }
}

/// The tag with the highest score; the lowest index wins a tie.
#[inline]
pub(crate) fn best<T: PartialOrd + Copy>(scores: &[T; TAGS]) -> Upos {
    let mut best = 0;
    for tag in 1..TAGS {
        if scores[tag] > scores[best] {
            best = tag;
        }
    }
    Upos::ALL[best]
}

fn truncate(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn zigzag(value: i16) -> u64 {
    let value = i64::from(value);
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> Option<i16> {
    let value = ((value >> 1) as i64) ^ -((value & 1) as i64);
    i16::try_from(value).ok()
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn truncated() -> ModelError {
        ModelError("truncated".to_owned())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ModelError> {
        let end = self.at.checked_add(N).ok_or_else(Self::truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or_else(Self::truncated)?;
        self.at = end;
        Ok(slice.try_into().unwrap_or([0; N]))
    }

    fn byte(&mut self) -> Result<u8, ModelError> {
        Ok(self.array::<1>()?[0])
    }

    fn text(&mut self, length: usize) -> Result<String, ModelError> {
        let end = self.at.checked_add(length).ok_or_else(Self::truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or_else(Self::truncated)?;
        self.at = end;
        String::from_utf8(slice.to_vec()).map_err(|_| ModelError("text is not UTF-8".to_owned()))
    }

    fn varint(&mut self) -> Result<u64, ModelError> {
        let mut value = 0_u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ModelError("varint too long".to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_model() -> Model {
        let bits = 8;
        let mut weights = vec![0_i16; TAGS << bits];
        weights[5] = 300;
        weights[17 * 9 + 16] = -2;
        weights[17 * 200] = i16::MIN;
        weights[17 * 255 + 3] = i16::MAX;
        Model::new(bits, 12.5, "xx", "a test model: ünïcode", weights)
    }

    #[test]
    fn format_round_trips() {
        let model = small_model();
        let bytes = model.to_bytes();
        assert_eq!(Model::from_bytes(&bytes), Ok(model.clone()));
        assert_eq!(Model::from_bytes(&bytes).unwrap().to_bytes(), bytes);
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = small_model().to_bytes();
        assert!(Model::from_bytes(&[]).is_err());
        assert!(Model::from_bytes(b"MGUPOS\0\x01").is_err());
        for cut in [9, 20, bytes.len() - 1] {
            assert!(Model::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        let error = Model::from_bytes(&flipped).unwrap_err();
        assert!(error.to_string().contains("checksum"), "{error}");
    }

    #[test]
    fn zigzag_round_trips() {
        for value in [0, 1, -1, 63, -64, 1000, i16::MIN, i16::MAX] {
            assert_eq!(unzigzag(zigzag(value)), Some(value));
        }
        assert_eq!(unzigzag(u64::MAX), None);
    }
}
