//! The POS filter: which tokens of a sentence count for the POS-filtered Jaccard.
//!
//! Content tokens are nouns, proper nouns, numbers and verbs (NOUN, PROPN, NUM, VERB), the words
//! that say what a story is about; determiners, pronouns, adpositions, auxiliaries and the like
//! are left out.
//!
//! FIXME: until the tagger lands, this is a heuristic: a token counts when it has a digit, or
//! when it is at least two characters long and not a function word of its language. It is the
//! one place to switch to `tagger::Tagger`.

use crate::text::is_function_word;

/// Decides which tokens are content tokens.
#[derive(Debug, Default)]
pub(crate) struct ContentFilter {}

impl ContentFilter {
    pub(crate) fn new() -> Self {
        Self {}
    }

    /// One flag per token of a sentence (`sentence` as written, `folded` the same tokens folded).
    pub(crate) fn mask(
        &self,
        language: Option<&str>,
        sentence: &[&str],
        folded: &[String],
        out: &mut Vec<bool>,
    ) {
        debug_assert_eq!(sentence.len(), folded.len());
        out.clear();
        out.extend(folded.iter().map(|word| {
            word.chars().any(|c| c.is_numeric())
                || (word.chars().count() >= 2 && !is_function_word(language, word))
        }));
    }
}
