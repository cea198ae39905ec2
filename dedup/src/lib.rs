//! Documents in, duplicate links and story clusters out.
//!
//! Built so far: [`embed`], text embeddings behind a small trait, with a static multilingual
//! model shipped in the crate. The rest of the fuzzy-dedup work is tracked by the dedup issue.

pub mod embed;
