//! Documents in, duplicate links and story clusters out.
//!
//! (Crate docs: see the end of the work.)

mod ann;
mod candidates;
mod cluster;
pub mod embed;
pub mod minhash;
mod parallel;
mod pipeline;
mod pos;
mod signature;
pub mod text;
mod verify;

pub use candidates::{CandidateConfig, FoundBy};
pub use cluster::ClusterConfig;
pub use pipeline::{
    Assignment, Config, ContentTokens, Deduper, Document, Limits, Link, Outcome, Stats, Update,
};
pub use signature::{FORMAT_VERSION, Signature, SignatureError};
pub use verify::{Method, Relation, Scores, Thresholds, scores};
