//! The POS filter: which tokens of a text count for the POS-filtered Jaccard.
//!
//! Content tokens are nouns, proper nouns, numbers and verbs (NOUN, PROPN, NUM, VERB: the
//! tagger's [`is_content`]), the words that say what a story is about; determiners, pronouns,
//! adpositions, auxiliaries, adjectives and punctuation are left out. Text is cut into tokens
//! and sentences by the tagger's own tokenizer and tagged by [`Tagger::for_language`]: a trained
//! model for da, de, en, es, fr, id, it, nl, pt, ru and tr; Japanese and Chinese text is
//! segmented and tagged by a dictionary ([`Tagger::tag_sentences`]); the tagger's rule-based
//! fallback for any other language or when the language is unknown.

#[cfg(test)]
use crate::tagger::is_content;
use crate::tagger::{Key, Tagger, Upos};

/// Calls `keep` with each content token of `text`, tagging at most `budget` tokens (whole
/// sentences, the last one cut); returns how many tokens were tagged.
#[cfg(test)]
pub(crate) fn content_tokens<'t>(
    language: Option<&str>,
    text: &'t str,
    budget: usize,
    mut keep: impl FnMut(&'t str),
) -> usize {
    tag_sentences(language, text, budget, |tokens, tags| {
        for (token, &tag) in tokens.iter().zip(tags) {
            if is_content(tag) {
                keep(token);
            }
        }
    })
}

/// Tags at most `budget` tokens of `text` (whole sentences, the last one cut) and calls `visit`
/// with each sentence's tokens and tags; returns how many tokens were tagged.
#[cfg(test)]
pub(crate) fn tag_sentences<'t>(
    language: Option<&str>,
    text: &'t str,
    budget: usize,
    mut visit: impl FnMut(&[&'t str], &[Upos]),
) -> usize {
    tag_sentences_keyed(language, text, budget, |tokens, tags, _keys| visit(tokens, tags))
}

/// [`tag_sentences`], and each token's [`Key`] ([`Tagger::tag_sentences_keyed`]: a Korean
/// word's noun without its particles, any other token itself).
pub(crate) fn tag_sentences_keyed<'t>(
    language: Option<&str>,
    text: &'t str,
    budget: usize,
    visit: impl FnMut(&[&'t str], &[Upos], &[Key<'t>]),
) -> usize {
    Tagger::for_language(language.unwrap_or("und")).tag_sentences_keyed(text, budget, visit)
}

#[cfg(test)]
mod tests {
    #[test]
    fn nouns_verbs_names_and_numbers_are_kept() {
        let mut kept = Vec::new();
        let n = super::content_tokens(
            Some("en"),
            "The minister announced 3 new taxes in Lisbon on Monday.",
            100,
            |t| kept.push(t),
        );
        assert_eq!(n, 11);
        for word in ["minister", "announced", "3", "taxes", "Lisbon", "Monday"] {
            assert!(kept.contains(&word), "{word} missing from {kept:?}");
        }
        for word in ["The", "in", "on", "."] {
            assert!(!kept.contains(&word), "{word} kept in {kept:?}");
        }
    }

    #[test]
    fn unknown_languages_fall_back_and_budgets_hold() {
        let mut kept = Vec::new();
        let n = super::content_tokens(None, "Zorbl 42 flimflam. Again 7!", 3, |t| kept.push(t));
        assert_eq!(n, 3);
        assert!(kept.contains(&"42"), "{kept:?}");
    }
}
