//! A part-of-speech tagger of our own: UPOS tags for the POS-filtered Jaccard of fuzzy dedup.
//!
//! (Design notes to be written.)

pub mod conllu;
mod features;
mod lexicon;
mod model;
pub mod train;
mod upos;

pub use model::{Model, ModelError};
pub use upos::{UnknownTag, Upos, is_content};

use std::sync::Arc;

/// Tags sentences of one language.
#[derive(Debug, Clone)]
pub struct Tagger {
    model: Arc<Model>,
}

impl Tagger {
    /// A tagger using `model`.
    pub fn with_model(model: Model) -> Tagger {
        Tagger { model: Arc::new(model) }
    }

    /// One tag per token of one sentence.
    pub fn tag(&self, tokens: &[&str]) -> Vec<Upos> {
        self.model.tag(tokens)
    }
}
