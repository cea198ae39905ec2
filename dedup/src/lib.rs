//! Documents in, duplicate links and story clusters out.
//!
//! Not built yet: the fuzzy-dedup work is tracked by the dedup issue.
//! The crate exists so the workspace has its final shape and its dependency rules can be checked.

pub mod tagger;
