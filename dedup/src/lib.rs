//! Documents in, duplicate links and story clusters out.
//!
//! [`Deduper`] runs the fuzzy-dedup pipeline: each [`Document`] becomes a [`Signature`] (its
//! signals), candidate pairs come from a time window and two locality-sensitive hashes (never
//! all pairs), every candidate is verified into a [`Link`] of relation `duplicate` (the same
//! text, edited) or `similar` (the same story, written differently) carrying its [`Method`],
//! every [`Scores`] and the [`Thresholds`] in force, and links become story clusters that do not
//! chain, each with a representative. It is pure: no I/O, no clock, no randomness; the same
//! input gives the same output whatever the thread count.
//!
//! ```ignore
//! let dedup = Deduper::new(Config { threads: 2, ..Config::default() })?; // ~0.5 s: keep it
//! let outcome = dedup.run(&documents);             // batch: one Assignment per document
//! // Archive: store each signature's bytes, then compare each new batch with the window.
//! let new = dedup.signatures(&new_documents);
//! let update = dedup.update(&new, &window_signatures, &window_links);
//! // update.links: links to store; update.assignments: clusters that changed.
//! ```
//!
//! # Signals (per document; limits in [`Limits`])
//!
//! - **Near-copy**: 4-word shingles of the folded text (first 2,000 words), MinHash of 128 fixed
//!   hash functions ([`minhash`]); containment of the smaller text's shingles in the larger.
//! - **POS-filtered Jaccard**: the title and the first 500 tokens of the text, tokenised and
//!   tagged by [`tagger`], nouns, proper nouns, numbers and verbs kept, folded (the normalizer's
//!   NFKC, case and diacritics folding), stemmed (Snowball, [`text::Stemmers`]) and hashed.
//! - **Embedding cosine**: [`embed::default_model`] over the title and the start of the text.
//! - **Passages**: winnowed fingerprints of the first 600 words' shingles ([`passages`]): the
//!   share of the shorter text found in the longer whatever the length ratio (briefs), and the
//!   span of text two documents share.
//! - **Facts**: names and numbers ([`facts`]), compared over that shared span: names that
//!   disagree refuse a link (another story on the same template), numbers that changed make a
//!   copy a later version (`similar`).
//! - **Length ratio** of the word counts.
//!
//! The language is the document's label or else a guess from function words
//! ([`text::guess_language`]); it picks the tagger's model and the stemmer. Texts are cut to
//! 200 KB before anything, so a 1 MB text costs what a long article does.
//!
//! # Candidates, verification, clusters
//!
//! See `candidates.rs` (MinHash bands, cross-polytope tables and lede passages, time window,
//! undated documents), `verify.rs` (the wording rules, then the facts), `explain.rs` (every link
//! and refusal in words) and `cluster.rs` (two-level average linkage on the link graph,
//! representatives); `docs/dedup.md` gives the design, the evaluation set, how the thresholds
//! were tuned, the figures per kind, and the deviations from the Spanish study.

mod ann;
mod candidates;
mod cluster;
mod conflict;
pub mod embed;
mod explain;
pub mod facts;
pub mod minhash;
mod parallel;
pub mod passages;
mod pipeline;
mod pos;
mod signature;
pub mod tagger;
pub mod text;
mod verify;

pub use candidates::{CandidateConfig, FoundBy};
pub use cluster::ClusterConfig;
pub use facts::{Agreement, Facts};
pub use pipeline::{
    Assignment, Config, ContentTokens, Deduper, Document, Limits, Link, Outcome, Rejection, Stats,
    Ties, Update,
};
pub use signature::{FORMAT_VERSION, Signature, SignatureError};
pub use verify::{Method, Relation, Scores, Thresholds, Verdict, Veto, scores};
