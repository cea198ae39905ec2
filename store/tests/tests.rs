//! Store tests, each run on SQLite and on PostgreSQL (`store::on_both_backends!`, from the
//! `test-support` feature's `store::testing`).

// Opening archives, migrations and bad database URLs.
mod archive;
// Round trips and idempotent inserts, one module per repository.
mod clusters;
// Counts over time, raw and folded.
mod counts;
mod duplicates;
mod feeds;
mod fetches;
// Exact-match merging by lossy URL and title.
mod frontier;
mod merge;
// The query language run on each backend's index.
mod query;
mod sentences;
mod signatures;
mod sources;
// Collection health per source and day.
mod stats;
mod stories;
// The text boundary: every column, arbitrary strings, both backends.
mod text;
// Host turns and claims shared by workers.
mod turns;
mod workers;

use chrono::{DateTime, TimeZone, Utc};
use store::Archive;
use store::sources::{NewSource, Source};

/// A timestamp on 2026-11-`day` at `hour`:00 UTC.
pub(crate) fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).single().expect("valid test time")
}

/// Inserts a bare story of `source_id` at `http://daily.example/{path}`; returns its id.
pub(crate) async fn story(archive: &Archive, source_id: i64, path: &str) -> i64 {
    let new = store::stories::NewStory {
        source_id,
        url: format!("http://daily.example/{path}"),
        lossy_url: format!("http://daily.example/{path}"),
        extractor_version: "test-1".to_owned(),
        ..store::stories::NewStory::default()
    };
    store::stories::insert(archive, &new).await.expect("insert story").story().id
}

/// Adds a source named `name` with a homepage derived from it.
pub(crate) async fn source(archive: &Archive, name: &str) -> Source {
    let new = NewSource {
        name: name.to_owned(),
        homepage: format!("https://{name}.example/"),
        canonical_domain: format!("{name}.example"),
        timezone: "Europe/Madrid".to_owned(),
    };
    store::sources::add(archive, &new).await.expect("add source").source().clone()
}
