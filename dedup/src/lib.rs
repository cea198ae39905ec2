//! Documents in, duplicate links and story clusters out.
//!
//! Built so far: [`embed`], text embeddings behind a small trait, with a static multilingual
//! model shipped in the crate; and [`tagger`], our own part-of-speech tagger (UPOS) with a word
//! tokenizer, whose content words (nouns, proper nouns, numerals, verbs) feed the POS-filtered
//! Jaccard. The rest of fuzzy dedup is tracked by the dedup issue.

pub mod embed;
pub mod tagger;
