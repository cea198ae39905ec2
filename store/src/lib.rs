//! The archive: everything morgue keeps, through sea-orm, on SQLite or PostgreSQL.
//!
//! [`Archive`] is an open database (an embedded SQLite file by default, a PostgreSQL server for a
//! standing archive and many workers). The modules are repositories of plain async functions that
//! take `&Archive` and exchange plain owned structs:
//!
//! - [`sources`]: media sources (name, homepage, canonical domain, timezone);
//! - [`feeds`]: RSS/Atom feeds and sitemaps with their conditional-GET state and poll schedule;
//! - [`frontier`]: article URLs waiting to be fetched, keyed by lossy URL, with leases for workers;
//! - [`fetches`]: every raw response, body compressed, with its redirect chain and timings;
//! - [`stories`]: extracted stories and every URL variant seen for each;
//! - [`search`]: the words each story is found by, and the index over them;
//! - [`query`]: the researchers' query language, parsed (words, phrases, `OR`, `NOT`, fields);
//! - [`matching`]: running a query over each backend's index, the same stories on both;
//! - [`collections`]: named groups of sources, which queries and counts filter by;
//! - [`counts`]: stories and story clusters a query selects per day, week or month;
//! - [`top`]: the sources and words of a selection, raw and folded;
//! - [`facts`]: every story's source, day, cluster and language in memory, for a long-lived
//!   process's counts and top sources;
//! - [`stats`]: polls, fetches, failures, stories and links per source and day (collection health);
//! - [`merge`]: exact-match merging by lossy URL and by source, day and normalized title;
//! - [`sentences`]: which story first had each sentence, per source and week;
//! - [`signatures`]: each story's fuzzy-dedup signals, for comparing later batches;
//! - [`duplicates`]: duplicate links between stories, with method, scores and thresholds;
//! - [`clusters`]: story clusters and their representatives;
//! - [`workers`]: the crawl processes sharing the archive, and their heartbeats;
//! - [`claims`]: leases on discovery, polls and dedup batches, so that one worker of many does each;
//! - [`turns`]: per-host politeness shared by every worker (each host's next allowed request).
//!
//! Text reaches the database through one boundary ([`text`]): NUL, which PostgreSQL refuses,
//! becomes U+FFFD in every statement, and every column's length is capped, the same way on both
//! backends.
//!
//! This is the only crate that names `sea_orm`: entities, active models and driver errors never
//! leave it. Uniqueness lives in the schema (lossy URL, story URL, feed key, source name), so
//! inserting the same thing twice is idempotent even with many concurrent writers.
//!
//! ```ignore
//! let archive = store::Archive::open("morgue.db", store::OpenMode::Create).await?;
//! archive.migrate().await?;
//! let added = store::sources::add(&archive, &new_source).await?;
//! ```

mod archive;
mod db;
mod entity;
mod error;
mod json;

pub mod claims;
pub mod clusters;
pub mod collections;
pub mod copy;
pub mod counts;
pub mod duplicates;
pub mod facts;
pub mod feeds;
pub mod fetches;
pub mod frontier;
pub mod matching;
pub mod merge;
pub mod query;
pub mod search;
pub mod sentences;
pub mod signatures;
pub mod sources;
pub mod stats;
pub mod stories;
#[cfg(feature = "test-support")]
pub mod testing;
pub mod text;
pub mod top;
pub mod turns;
pub mod workers;

pub use archive::{
    Archive, Backend, Location, MigrationReport, OpenMode, ServerActivity, mask_password,
};
pub use error::{Error, Result};
