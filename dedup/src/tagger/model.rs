//! A trained model: a hashed table of integer weights, its binary format, and greedy decoding.
//!
//! # The binary format (versions 1 and 2)
//!
//! All integers are little-endian. Version 2 differs only by the `analyser` byte; a model
//! without an analyser is written as version 1, so those files stay as they were.
//!
//! | field | bytes | meaning |
//! | --- | --- | --- |
//! | magic | 8 | `MGUPOS\0\x01`, or `MGUPOS\0\x02` for version 2 |
//! | feature set | 4 | the feature templates' version the weights were trained for |
//! | tags | 1 | the number of tags, 17 |
//! | bits | 1 | the table has `2^bits` rows, one per feature hash bucket |
//! | scale | 4 | f32, stored weight = averaged perceptron weight × scale, rounded (informative) |
//! | language | 1 + n | length, then the ISO 639-1 code in UTF-8 |
//! | description | 2 + n | length, then what the model was trained on, in UTF-8 |
//! | analyser | 1 | version 2 only: the [`Analyser`] whose hints the model computes for every token, 3 for Turkish roots, 4 for Turkish roots and the web treebank model's tags (1 and 2 were those hints before stop 47, with a parser of suffix chains where the morphological analyser's categories are now: refused, since their features would differ) |
//! | content bias | 4 | i32, taken off the content tags' scores before choosing |
//! | passes | 1 | 1, or 2 when a second weight table follows the first |
//! | then, per pass: rows | 4 | how many rows follow (rows whose weights are all zero are left out) |
//! | each row | | varint: rows skipped since the previous stored row; 3 bytes: a bit mask of the tags with a weight; then each such `i8` weight as a zigzag varint |
//! | lexicon words | 4 | how many lexicon entries follow |
//! | each entry | | varint: the word key (top 32 bits of the lowercase form's hash, at least 1) less the previous entry's key, keys ascending; varint: the ambiguity class (bit `t` for tag index `t`, bit 30 "sure", bit 31 "unknown") |
//! | checksum | 8 | [`hash_bytes`](super::features::hash_bytes) with seed 0 of every byte before it |
//!
//! A feature's row is the top `bits` bits of its 64-bit hash; features that collide share a row,
//! as they did in training.

use std::fmt;

use super::features::{self, TokenInfo};
use super::lexicon::{self, Lexicon};
use super::upos::Upos;

const MAGIC: &[u8; 8] = b"MGUPOS\0\x01";
/// The magic bytes of version 2, which has the analyser byte.
const MAGIC_2: &[u8; 8] = b"MGUPOS\0\x02";

/// An analyser of the model's language whose hint (see `TokenInfo::with_hint`) the model
/// computes for every token itself, as it was trained: unlike the Chinese and Korean hints,
/// which their segmenters pass in, these need nothing but the sentence's tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Analyser {
    /// No hints of its own.
    #[default]
    None,
    /// The Turkish root lexicon and morphological analyser (`turkish.rs`): the longest root a
    /// word starts with, its classes, the suffixes after it, and the categories the analyser
    /// says the word can end as.
    TurkishRoots,
    /// The Turkish root lexicon and analyser, and the tag that a model trained on another
    /// Turkish treebank (Google's Turkish Web Treebank, `turkish::web_model`) gives the word in
    /// its sentence.
    TurkishWeb,
}

impl Analyser {
    fn code(self) -> u8 {
        match self {
            Analyser::None => 0,
            Analyser::TurkishRoots => 3,
            Analyser::TurkishWeb => 4,
        }
    }

    fn from_code(code: u8) -> Result<Analyser, ModelError> {
        match code {
            0 => Ok(Analyser::None),
            3 => Ok(Analyser::TurkishRoots),
            4 => Ok(Analyser::TurkishWeb),
            1 | 2 => Err(ModelError(
                "trained with the Turkish hints of before stop 47; train it again".to_owned(),
            )),
            _ => Err(ModelError(format!("unknown analyser {code}"))),
        }
    }

    /// The hints of a sentence's `tokens`, if the analyser gives hints (for training).
    pub(crate) fn hints(self, tokens: &[&str]) -> Option<Vec<String>> {
        match self {
            Analyser::None => None,
            Analyser::TurkishRoots => {
                Some(tokens.iter().map(|token| super::turkish::hint(token)).collect())
            }
            Analyser::TurkishWeb => {
                Some(super::turkish::web_hints(super::turkish::web_model(), tokens))
            }
        }
    }

    /// What the features look at in a sentence's `tokens`, with their hints if the analyser
    /// gives them (the Turkish roots' hints remembered per thread).
    fn infos(self, tokens: &[&str]) -> Vec<TokenInfo> {
        match self {
            Analyser::None => tokens.iter().map(|token| TokenInfo::new(token)).collect(),
            Analyser::TurkishRoots => tokens
                .iter()
                .map(|token| {
                    super::turkish::with_hint(token, |hint| TokenInfo::with_hint(token, hint))
                })
                .collect(),
            Analyser::TurkishWeb => {
                let hints = super::turkish::web_hints(super::turkish::web_model(), tokens);
                tokens
                    .iter()
                    .zip(&hints)
                    .map(|(token, hint)| TokenInfo::with_hint(token, hint))
                    .collect()
            }
        }
    }
}

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
    lexicon: Lexicon,
    /// Taken off the scores of the content tags before choosing, to balance the content class's
    /// precision and recall.
    content_bias: i32,
    /// The analyser whose hints every token gets when none are passed in.
    analyser: Analyser,
    /// The first pass: `2^bits` rows of `TAGS` weights.
    first: Vec<i8>,
    /// The second pass, which also sees the first pass's tags of the tokens ahead.
    second: Option<Vec<i8>>,
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
    /// A model from its lexicon and weight tables, `2^bits` rows of 17 each.
    pub(crate) fn new(
        bits: u8,
        scale: f32,
        language: &str,
        description: &str,
        lexicon: Lexicon,
        first: Vec<i8>,
        second: Option<Vec<i8>>,
    ) -> Model {
        assert_eq!(first.len(), TAGS << bits, "a table of 2^bits rows");
        assert!(second.as_ref().is_none_or(|second| second.len() == first.len()));
        Model {
            bits,
            scale,
            language: language.to_owned(),
            description: description.to_owned(),
            lexicon,
            content_bias: 0,
            analyser: Analyser::None,
            first,
            second,
        }
    }

    /// The analyser whose hints the model computes for every token.
    pub fn analyser(&self) -> Analyser {
        self.analyser
    }

    /// Sets the analyser whose hints the model computes for every token (as it was trained).
    pub(crate) fn set_analyser(&mut self, analyser: Analyser) {
        self.analyser = analyser;
    }

    /// The ISO 639-1 code of the model's language.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// What the model was trained on.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The token information the features look at, lexicon classes included; with `hints`
    /// (one per token, as the model was trained: Chinese), each token's hint too. Without,
    /// each token gets the hint of the model's own [`Analyser`], if it has one.
    pub(crate) fn infos(&self, tokens: &[&str], hints: Option<&[&str]>) -> Vec<TokenInfo> {
        let mut infos = match hints {
            Some(hints) => tokens
                .iter()
                .enumerate()
                .map(|(i, token)| match hints.get(i) {
                    Some(hint) => TokenInfo::with_hint(token, hint),
                    None => TokenInfo::new(token),
                })
                .collect(),
            None => self.analyser.infos(tokens),
        };
        for (info, token) in infos.iter_mut().zip(tokens) {
            info.class = self.lexicon.class(info.lower());
            if info.class == lexicon::UNKNOWN {
                info.analogies = features::analogies(token, |word| self.lexicon.class(word));
            }
        }
        infos
    }

    /// Tags one sentence: the first pass left to right, then, when the model has one, the
    /// second pass, which also sees the first pass's tags of the tokens ahead.
    pub(crate) fn tag(&self, tokens: &[&str]) -> Vec<Upos> {
        self.tag_hinted(tokens, None)
    }

    /// Tags one sentence with a hint per token from another analyser, for a model trained with
    /// them (Chinese: jieba's tags); hints missing at the end count as none.
    pub fn tag_with_hints(&self, tokens: &[&str], hints: &[&str]) -> Vec<Upos> {
        self.tag_hinted(tokens, Some(hints))
    }

    /// [`Model::tag`] with a hint per token from another analyser, for a model trained with
    /// them (Chinese: jieba's tags).
    pub(crate) fn tag_hinted(&self, tokens: &[&str], hints: Option<&[&str]>) -> Vec<Upos> {
        let infos = self.infos(tokens, hints);
        let first = Table { bits: self.bits, weights: &self.first };
        match &self.second {
            Some(second) => {
                let guesses = decode(&first, &infos, None, 0, |_, _| {});
                let second = Table { bits: self.bits, weights: second };
                decode(&second, &infos, Some(&guesses), self.content_bias, |_, _| {})
            }
            None => decode(&first, &infos, None, self.content_bias, |_, _| {}),
        }
    }

    /// The first pass alone, without the content bias; `observe` sees the scores.
    pub(crate) fn first_pass(
        &self,
        infos: &[TokenInfo],
        observe: impl FnMut(usize, &[i32; TAGS]),
    ) -> Vec<Upos> {
        decode(&Table { bits: self.bits, weights: &self.first }, infos, None, 0, observe)
    }

    /// The amount taken off the content tags' scores before choosing.
    pub fn content_bias(&self) -> i32 {
        self.content_bias
    }

    /// Sets the amount taken off the scores of the content tags before choosing.
    pub(crate) fn set_content_bias(&mut self, bias: i32) {
        self.content_bias = bias;
    }

    /// The model in its binary format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 << 20);
        let version_2 = self.analyser != Analyser::None;
        out.extend_from_slice(if version_2 { MAGIC_2 } else { MAGIC });
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
        if version_2 {
            out.push(self.analyser.code());
        }
        out.extend_from_slice(&self.content_bias.to_le_bytes());
        out.push(if self.second.is_some() { 2 } else { 1 });
        write_table(&mut out, &self.first);
        if let Some(second) = &self.second {
            write_table(&mut out, second);
        }
        let entries = self.lexicon.entries();
        out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        let mut previous = 0;
        for (key, class) in entries {
            write_varint(&mut out, u64::from(key - previous));
            write_varint(&mut out, u64::from(class));
            previous = key;
        }
        let checksum = features::hash_bytes(0, &out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a model written by [`Model::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let error = |what: &str| ModelError(what.to_owned());
        let magic = bytes.get(..MAGIC.len());
        let version_2 = magic == Some(MAGIC_2);
        if bytes.len() < MAGIC.len() + 8 || !(version_2 || magic == Some(MAGIC)) {
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
        let analyser = if version_2 { Analyser::from_code(input.byte()?)? } else { Analyser::None };
        let content_bias = i32::from_le_bytes(input.array()?);
        let passes = input.byte()?;
        let first = input.table(bits)?;
        let second = match passes {
            1 => None,
            2 => Some(input.table(bits)?),
            _ => return Err(error("bad number of passes")),
        };
        let count = u32::from_le_bytes(input.array()?);
        let mut entries = Vec::new();
        let mut previous = 0_u32;
        for _ in 0..count {
            let key = u32::try_from(input.varint()?)
                .ok()
                .and_then(|gap| previous.checked_add(gap))
                .filter(|&key| key > previous)
                .ok_or_else(|| error("lexicon keys out of order"))?;
            let class = u32::try_from(input.varint()?).map_err(|_| error("bad class"))?;
            entries.push((key, class));
            previous = key;
        }
        let lexicon = Lexicon::new(&entries);
        if input.at != body.len() {
            return Err(error("trailing bytes"));
        }
        Ok(Model {
            bits,
            scale,
            language,
            description,
            lexicon,
            content_bias,
            analyser,
            first,
            second,
        })
    }
}

/// A table of weights, `TAGS` per row.
pub(crate) trait Weights {
    /// Adds the weights of the row of `hash` to `scores`.
    fn add(&self, scores: &mut [i32; TAGS], hash: u64);
}

struct Table<'a> {
    bits: u8,
    weights: &'a [i8],
}

impl Weights for Table<'_> {
    #[inline]
    fn add(&self, scores: &mut [i32; TAGS], hash: u64) {
        let at = (hash >> (64 - u32::from(self.bits))) as usize * TAGS;
        let row: &[i8; TAGS] = self.weights[at..at + TAGS].try_into().unwrap_or(&[0; TAGS]);
        for (score, weight) in scores.iter_mut().zip(row) {
            *score += i32::from(*weight);
        }
    }
}

/// Greedy decoding, left to right: each token gets its best tag given the tags before it and,
/// in a second pass, the first pass's `guesses`. Words the lexicon is sure of get their tag
/// without scoring. `content_bias` is taken off the scores of the content tags before choosing;
/// `observe` sees every token's scores before that.
pub(crate) fn decode(
    weights: &impl Weights,
    infos: &[TokenInfo],
    guesses: Option<&[Upos]>,
    content_bias: i32,
    mut observe: impl FnMut(usize, &[i32; TAGS]),
) -> Vec<Upos> {
    // The features that do not depend on tags first, for all tokens at once: their weight rows
    // are independent loads, so the memory system fetches many of them together.
    let hashes: Vec<Option<[u64; features::STATIC_FEATURES]>> = (0..infos.len())
        .map(|i| match lexicon::sure(infos[i].class) {
            Some(_) => None,
            None => Some(features::static_features(infos, i)),
        })
        .collect();
    let statics: Vec<[i32; TAGS]> = hashes
        .iter()
        .map(|hashes| {
            let mut scores = [0_i32; TAGS];
            for &hash in hashes.iter().flatten() {
                weights.add(&mut scores, hash);
            }
            scores
        })
        .collect();
    let mut tags: Vec<Upos> = Vec::with_capacity(infos.len());
    for (i, statics) in statics.iter().enumerate() {
        if let Some(tag) = lexicon::sure(infos[i].class) {
            tags.push(tag);
            continue;
        }
        let prev = i.checked_sub(1).map(|j| tags[j]);
        let prev2 = i.checked_sub(2).map(|j| tags[j]);
        let (dynamic, count) = features::dynamic_features(infos, i, prev, prev2, guesses);
        let mut scores = *statics;
        for &hash in &dynamic[..count] {
            weights.add(&mut scores, hash);
        }
        observe(i, &scores);
        if content_bias != 0 {
            for tag in CONTENT {
                scores[tag.index()] -= content_bias;
            }
        }
        tags.push(best(&scores));
    }
    tags
}

/// The content tags, as in [`is_content`](super::is_content).
pub(crate) const CONTENT: [Upos; 4] = [Upos::Noun, Upos::Num, Upos::Propn, Upos::Verb];

fn write_table(out: &mut Vec<u8>, weights: &[i8]) {
    let rows: Vec<(usize, &[i8])> = weights
        .chunks_exact(TAGS)
        .enumerate()
        .filter(|(_, row)| row.iter().any(|&w| w != 0))
        .collect();
    out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
    let mut next = 0;
    for (index, row) in rows {
        write_varint(out, (index - next) as u64);
        next = index + 1;
        let mask = row
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0)
            .fold(0_u32, |mask, (tag, _)| mask | 1 << tag);
        out.extend_from_slice(&mask.to_le_bytes()[..3]);
        for &weight in row.iter().filter(|w| **w != 0) {
            write_varint(out, zigzag(weight));
        }
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

fn zigzag(value: i8) -> u64 {
    let value = i64::from(value);
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> Option<i8> {
    let value = ((value >> 1) as i64) ^ -((value & 1) as i64);
    i8::try_from(value).ok()
}

/// Appends `value` as a LEB128 varint (7 bits a byte, low bits first); also the morphology
/// transducer's format.
pub(super) fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a LEB128 varint at `*at` and moves past it: what is wrong if the bytes end first or it
/// is longer than 64 bits.
pub(super) fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u64, &'static str> {
    let mut value = 0_u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).ok_or("truncated")?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("varint too long")
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

    fn table(&mut self, bits: u8) -> Result<Vec<i8>, ModelError> {
        let error = |what: &str| ModelError(what.to_owned());
        let rows = u32::from_le_bytes(self.array()?);
        let mut weights = vec![0_i8; TAGS << bits];
        let mut next = 0_usize;
        for _ in 0..rows {
            let index = usize::try_from(self.varint()?)
                .ok()
                .and_then(|gap| next.checked_add(gap))
                .filter(|&index| index < 1 << bits)
                .ok_or_else(|| error("row out of range"))?;
            let mut mask = [0_u8; 4];
            mask[..3].copy_from_slice(&self.array::<3>()?);
            let mask = u32::from_le_bytes(mask);
            if mask >> TAGS != 0 || mask == 0 {
                return Err(error("bad tag mask"));
            }
            for tag in (0..TAGS).filter(|tag| mask & (1 << tag) != 0) {
                let value = unzigzag(self.varint()?).ok_or_else(|| error("weight too large"))?;
                weights[index * TAGS + tag] = value;
            }
            next = index + 1;
        }
        Ok(weights)
    }

    fn varint(&mut self) -> Result<u64, ModelError> {
        read_varint(self.bytes, &mut self.at).map_err(|what| ModelError(what.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_model() -> Model {
        let bits = 8;
        let mut weights = vec![0_i8; TAGS << bits];
        weights[5] = 100;
        weights[17 * 9 + 16] = -2;
        weights[17 * 200] = i8::MIN;
        weights[17 * 255 + 3] = i8::MAX;
        let lexicon = Lexicon::new(&[(1, 5), (77, lexicon::UNKNOWN), (u32::MAX, 1 << 16)]);
        let mut second = weights.clone();
        second[17 * 3 + 4] = 7;
        let mut model =
            Model::new(bits, 12.5, "xx", "a test model: ünïcode", lexicon, weights, Some(second));
        model.set_content_bias(-1234);
        model
    }

    #[test]
    fn format_round_trips() {
        let model = small_model();
        let bytes = model.to_bytes();
        assert_eq!(Model::from_bytes(&bytes), Ok(model.clone()));
        assert_eq!(Model::from_bytes(&bytes).unwrap().to_bytes(), bytes);
    }

    #[test]
    fn an_analyser_is_kept_and_only_then_version_2() {
        let plain = small_model().to_bytes();
        assert_eq!(&plain[..8], MAGIC);
        let mut model = small_model();
        model.set_analyser(Analyser::TurkishRoots);
        let bytes = model.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_2);
        assert_eq!(bytes.len(), plain.len() + 1);
        let read = Model::from_bytes(&bytes).unwrap();
        assert_eq!(read.analyser(), Analyser::TurkishRoots);
        assert_eq!(read, model);
        assert_eq!(Model::from_bytes(&plain).unwrap().analyser(), Analyser::None);
        model.set_analyser(Analyser::TurkishWeb);
        assert_eq!(Model::from_bytes(&model.to_bytes()).unwrap().analyser(), Analyser::TurkishWeb);
        let mut unknown = bytes.clone();
        let at = bytes.len() - 8;
        // An analyser code the build does not know is refused, not misread.
        let code_at = 8 + 4 + 1 + 1 + 4 + 1 + 2 + 2 + "a test model: ünïcode".len();
        assert_eq!(unknown[code_at], 3);
        for (code, says) in [(9, "unknown analyser 9"), (1, "train it again"), (2, "stop 47")] {
            unknown[code_at] = code;
            let checksum = features::hash_bytes(0, &unknown[..at]);
            unknown[at..].copy_from_slice(&checksum.to_le_bytes());
            let error = Model::from_bytes(&unknown).unwrap_err();
            assert!(error.to_string().contains(says), "{error}");
        }
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
        for value in [0, 1, -1, 63, -64, 100, i8::MIN, i8::MAX] {
            assert_eq!(unzigzag(zigzag(value)), Some(value));
        }
        assert_eq!(unzigzag(u64::MAX), None);
    }
}
