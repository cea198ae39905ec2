//! [`StaticEmbedder`]: a SentencePiece tokenizer plus an int8 table of pre-weighted rows.

use safetensors::{Dtype, SafeTensors};
use tokenizers::Tokenizer;

use super::Embedder;
use super::cache::WordCache;

/// The shipped `tokenizer.json` (see `dedup/models/use-m/README.md`).
static TOKENIZER_JSON: &[u8] = include_bytes!("../../models/use-m/tokenizer.json");
/// The shipped `embeddings.safetensors`.
static EMBEDDINGS: &[u8] = include_bytes!("../../models/use-m/embeddings.safetensors");

/// Pieces that count per text unless [`StaticEmbedder::with_max_tokens`] says otherwise.
pub const DEFAULT_MAX_TOKENS: usize = 512;
/// Words each thread's cache holds unless [`StaticEmbedder::with_cache_capacity`] says otherwise.
pub const DEFAULT_CACHE_WORDS: usize = 1 << 19;
/// Longer words (in bytes) are tokenised but not cached: they are rarely seen twice.
const MAX_CACHED_WORD: usize = 64;

/// The default model: the converted Universal Sentence Encoder multilingual table, compiled into
/// the binary. Parsing the tokenizer takes a few hundred milliseconds: build it once and share it.
///
/// # Errors
///
/// Never, unless the shipped files were damaged; the crate's tests load them.
pub fn default_model() -> Result<StaticEmbedder, ModelError> {
    StaticEmbedder::from_bytes(TOKENIZER_JSON, EMBEDDINGS)
}

/// Why model files could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The tokenizer file is not a `tokenizers` JSON file.
    #[error("invalid tokenizer.json: {0}")]
    Tokenizer(String),
    /// The weights file is not a safetensors file with an I8 `embeddings` matrix and an F32
    /// `scales` vector of one value per row.
    #[error("invalid embeddings file: {0}")]
    Weights(String),
    /// The tokenizer's vocabulary and the table have different sizes.
    #[error("tokenizer has {vocab} pieces but the table has {rows} rows")]
    Mismatch {
        /// Pieces in the tokenizer.
        vocab: usize,
        /// Rows in the table.
        rows: usize,
    },
}

/// A static embedding: tokenise, sum the pieces' rows, normalise.
///
/// Rows are stored as int8 with one f32 scale per row, already weighted (see the module docs),
/// so the vector of a text is the normalised sum of its pieces' rows.
pub struct StaticEmbedder {
    tokenizer: Tokenizer,
    rows: Vec<i8>,
    scales: Vec<f32>,
    dim: usize,
    max_tokens: usize,
    /// The whitespace that the normaliser turns into a word break (a few dozen characters).
    breaks: Vec<char>,
    /// Bytes of the vocabulary's longest piece.
    longest_piece: usize,
    cache: WordCache,
}

impl std::fmt::Debug for StaticEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticEmbedder")
            .field("vocab", &self.scales.len())
            .field("dim", &self.dim)
            .field("max_tokens", &self.max_tokens)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl StaticEmbedder {
    /// Loads a model from the bytes of its `tokenizer.json` and `embeddings.safetensors`.
    ///
    /// # Errors
    ///
    /// [`ModelError`] when either file is malformed or they do not fit together.
    pub fn from_bytes(tokenizer_json: &[u8], weights: &[u8]) -> Result<Self, ModelError> {
        let tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|error| ModelError::Tokenizer(error.to_string()))?;
        let tensors = SafeTensors::deserialize(weights)
            .map_err(|error| ModelError::Weights(error.to_string()))?;
        let table = tensors
            .tensor("embeddings")
            .map_err(|error| ModelError::Weights(format!("embeddings: {error}")))?;
        let scales = tensors
            .tensor("scales")
            .map_err(|error| ModelError::Weights(format!("scales: {error}")))?;
        let [rows, dim] = *table.shape() else {
            return Err(ModelError::Weights("embeddings is not a matrix".into()));
        };
        if table.dtype() != Dtype::I8 || dim == 0 {
            return Err(ModelError::Weights("embeddings is not a non-empty I8 matrix".into()));
        }
        if scales.dtype() != Dtype::F32 || scales.shape() != [rows] {
            return Err(ModelError::Weights("scales is not one F32 per row".into()));
        }
        let vocab = tokenizer.get_vocab_size(true);
        if vocab != rows {
            return Err(ModelError::Mismatch { vocab, rows });
        }
        let scales: Vec<f32> = scales
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .map(|s| if s.is_finite() { s } else { 0.0 })
            .collect();
        let rows = table.data().iter().map(|&b| b.cast_signed()).collect();
        let mut embedder = Self {
            tokenizer,
            rows,
            scales,
            dim,
            max_tokens: DEFAULT_MAX_TOKENS,
            breaks: Vec::new(),
            longest_piece: 1,
            cache: WordCache::new(DEFAULT_CACHE_WORDS),
        };
        embedder.longest_piece =
            embedder.tokenizer.get_vocab(true).keys().map(String::len).max().unwrap_or(1).max(1);
        embedder.breaks = embedder.find_breaks();
        Ok(embedder)
    }

    /// Counts only the first `max_tokens` pieces of each text (at least 1).
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: usize) -> Self {
        self.max_tokens = max_tokens.max(1);
        self
    }

    /// Caches the ids of at most `words` words per thread; 0 turns the cache off.
    #[must_use]
    pub fn with_cache_capacity(mut self, words: usize) -> Self {
        self.cache = WordCache::new(words);
        self
    }

    /// How many pieces of a text count.
    #[must_use]
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The piece ids of a text, as the full `tokenizers` pipeline gives them (no cache, no
    /// limit): what SentencePiece would give, for checking the conversion.
    #[must_use]
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        self.tokenizer
            .encode_fast(text, false)
            .map(|encoding| encoding.get_ids().to_vec())
            .unwrap_or_default()
    }

    /// The piece ids of a text as the embedder sees them: word by word, through the cache,
    /// at most [`Self::max_tokens`].
    #[must_use]
    pub fn embedded_ids(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_id(text, |id| out.push(id));
        out
    }

    /// The whitespace characters that the normaliser maps to a space, so that splitting on them
    /// gives the same pieces as tokenising the whole text (not all do: SentencePiece keeps a
    /// vertical tab or U+0085 as an unknown character).
    fn find_breaks(&self) -> Vec<char> {
        let reference = self.token_ids("a b");
        ('\0'..=char::MAX)
            .filter(|c| c.is_whitespace())
            .filter(|c| self.token_ids(&format!("a{c}b")) == reference)
            .collect()
    }

    fn is_break(&self, c: char) -> bool {
        c == ' ' || (c.is_whitespace() && self.breaks.contains(&c))
    }

    /// Calls `f` with each piece id of the text, up to the limit.
    fn for_each_id(&self, text: &str, mut f: impl FnMut(u32)) {
        let mut left = self.max_tokens;
        // Pieces never span a word break and no piece is longer than `longest_piece` bytes (runs
        // of unknown characters aside), so a word is cut (at a character boundary) after as many
        // bytes as the limit's worth of the longest pieces: a 1 MB text without spaces costs no
        // more than a normal one.
        let max_word = self.max_tokens.saturating_mul(self.longest_piece);
        self.cache.with(|cache| {
            for word in text.split(|c| self.is_break(c)).filter(|w| !w.is_empty()) {
                let word = crate::text::truncate(word, max_word);
                let mut take = |ids: &[u32]| {
                    for &id in ids.iter().take(left) {
                        f(id);
                    }
                    left = left.saturating_sub(ids.len());
                };
                if word.len() > MAX_CACHED_WORD {
                    take(&self.token_ids(word));
                } else {
                    cache.with_ids(word, |w| self.token_ids(w).into(), take);
                }
                if left == 0 {
                    break;
                }
            }
        });
    }

    fn add_row(&self, acc: &mut [f32], id: u32) {
        let id = id as usize;
        let Some(&scale) = self.scales.get(id) else { return };
        if scale == 0.0 {
            return;
        }
        let row = &self.rows[id * self.dim..(id + 1) * self.dim];
        for (a, &q) in acc.iter_mut().zip(row) {
            *a += scale * f32::from(q);
        }
    }
}

impl Embedder for StaticEmbedder {
    fn dim(&self) -> usize {
        self.dim
    }

    fn embed(&self, text: &str) -> Vec<f32> {
        let mut acc = vec![0.0f32; self.dim];
        self.for_each_id(text, |id| self.add_row(&mut acc, id));
        let norm = acc.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 && norm.is_finite() {
            acc.iter_mut().for_each(|x| *x /= norm);
        } else {
            acc.fill(0.0);
        }
        acc
    }
}
