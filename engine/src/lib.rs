//! The standing archive's jobs over the store: the crawl loop, re-extraction, dedup over the
//! archive, and the researchers' selection of stories.
//!
//! - [`crawl`]: discover sources' feeds and sitemaps, poll them, fetch and store their articles,
//!   as a worker sharing the archive with others ([`crawl::Engine`], set up by a plain
//!   [`crawl::Settings`]);
//! - [`ingest`]: from a fetched page to a story (extract, normalizer keys, merge, repeated-sentence
//!   removal), shared by the crawl and by [`reextract`];
//! - [`reextract`]: the current extractor again over the archived raw pages;
//! - [`dedup_archive`]: fuzzy dedup of the archive's new stories, links and clusters stored;
//! - [`selection`]: filters, queries, collections, the deduplicated one-per-cluster view, pages of
//!   stories by id with their clusters, the CSV and JSON-lines export of them, counts over time
//!   and top lists;
//! - [`generate`]: a generated archive of realistic shape, for benchmarks;
//! - [`warc`]: the archived raw responses of a selection as a WARC 1.1 file;
//! - [`progress`]: what a crawl counts, as shared counters a front end renders or exports;
//! - [`health`]: an archive's health for operators (workers, queues, overdue work, failing and
//!   silent sources, dedup lag).
//!
//! The engine never prints, parses arguments or reads the environment: front ends (the `morgue`
//! command, its web server, a worker) do, and call it. Errors are [`Error`].
//!
//! ```ignore
//! let progress = engine::progress::Progress::new();
//! let crawl = engine::crawl::Engine::new(archive, settings, progress, Mode::Once, stop)?;
//! Arc::new(crawl).run().await?;
//! ```

pub mod crawl;
pub mod dedup_archive;
mod error;
pub mod exclusive;
pub mod generate;
pub mod health;
pub mod ingest;
pub mod metrics;
pub mod progress;
pub mod reextract;
pub mod selection;
pub mod stats;
pub mod warc;

pub use error::{Error, Result, chain};
