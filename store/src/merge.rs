//! Exact-match merging: the first rung of the dedup ladder.
//!
//! Two rules, both exact, both keyed by the normalizer:
//!
//! - **Lossy URL.** The lossy URL is unique across the archive and the first sighting wins. A later
//!   sighting whose URL, redirect target or `rel=canonical` has the lossy key of a stored story
//!   (as the story's own key or one of its recorded URLs) stores nothing new: its URLs are
//!   recorded as story URLs of that story.
//! - **Title.** A new story of the same source, on the same calendar day (in the source's
//!   timezone, computed by the caller), with the same normalized title as an earlier story is
//!   stored, and recorded as a duplicate of it with method `title`. Stories without a title key
//!   (the normalizer refuses empty, generic or source-name titles) never match.
//!
//! **Many workers.** The look-up of a sighting's keys, the insert and the recording of its URLs are
//! one write transaction, so two workers that sight one page under different URLs at once (one
//! requested a redirect, the other its target) cannot both find nothing and both store a story.
//! On SQLite the write transaction is `BEGIN IMMEDIATE`, which already runs one at a time. On
//! PostgreSQL, transactions run side by side, so the transaction first takes a transaction-level
//! advisory lock on each of the sighting's lossy keys (a 64-bit FNV-1a hash of the key, taken in
//! ascending order so that two sightings sharing keys cannot deadlock): sightings with a key in
//! common then merge one after the other, and the second finds the first's story. Two keys whose
//! hashes collide only make two unrelated merges wait for each other. The title rule runs after
//! the commit and needs no lock: of two same-title stories, only the later one links to the other.

use std::collections::BTreeMap;

use sea_orm::sea_query::Value;
use sea_orm::{ConnectionTrait, DbBackend, Statement};

use crate::duplicates::{self, NewLink};
use crate::error::{Context as _, Result};
use crate::stories::{self, Inserted, NewStory, Prepared, Story, UrlKind};
use crate::text;
use crate::{Archive, Backend};

/// The method name of title duplicate links.
pub const TITLE_METHOD: &str = "title";

/// A URL that also leads to the sighted page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlsoUrl {
    /// The URL, verbatim.
    pub url: String,
    /// Its lossy key.
    pub lossy_url: String,
    /// How it relates to the page: a redirect target or the page's canonical URL.
    pub kind: UrlKind,
}

/// One sighting of a page: the story as extracted, and the other URLs that lead to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sighting {
    /// The story, keyed by the URL it was requested under.
    pub story: NewStory,
    /// Redirect targets and the canonical URL.
    pub also: Vec<AlsoUrl>,
}

/// What [`merge`] did with a sighting.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    /// A new story; `title_duplicate_of` names the earlier story with the same title key, if any.
    New {
        /// The stored story.
        story: Story,
        /// The earlier same-source, same-day story with the same normalized title.
        title_duplicate_of: Option<i64>,
    },
    /// One of the sighting's URLs already leads to this story; its URLs were recorded for it.
    Known {
        /// The stored story.
        story: Story,
    },
}

impl Merged {
    /// The story the sighting landed on.
    pub fn story(&self) -> &Story {
        match self {
            Merged::New { story, .. } | Merged::Known { story } => story,
        }
    }
}

/// Merges a sighting into the archive by the exact rules above.
pub async fn merge(archive: &Archive, sighting: &Sighting) -> Result<Merged> {
    let new = &sighting.story;
    let keys = lossy_keys(sighting);
    // The search terms are folded before the write transaction begins.
    let prepared = Prepared::new(new);
    let txn = archive.begin_write().await?;
    if archive.backend() == Backend::Postgres {
        lock_keys(&txn, &keys).await?;
    }
    let (story, is_new) = match known_story(&txn, &keys).await? {
        Some(story) => (story, false),
        None => match prepared.insert(&txn).await? {
            Inserted::New(story) => (story, true),
            // Stored by a write that did not go through `merge` (a bulk load, say).
            Inserted::Existing(story) => (story, false),
        },
    };
    record_urls(&txn, &story, sighting).await?;
    txn.commit().await.doing("committing a sighting")?;
    if !is_new {
        return Ok(Merged::Known { story });
    }
    let mut title_duplicate_of = None;
    if let (Some(key), Some(day)) = (&new.normalized_title, new.published_day)
        && let Some(earlier) =
            stories::title_match(archive, new.source_id, day, key, story.id).await?
        && earlier.id < story.id
    {
        let link = NewLink {
            story_id: story.id,
            of_story_id: earlier.id,
            method: TITLE_METHOD.to_owned(),
            score: 1.0,
            scores: BTreeMap::new(),
            thresholds: BTreeMap::new(),
            explanation: Some("same source, day and normalized title".to_owned()),
        };
        duplicates::link(archive, &link).await?;
        title_duplicate_of = Some(earlier.id);
    }
    Ok(Merged::New { story, title_duplicate_of })
}

/// The lossy keys a sighting's page is known by: the requested URL's, then its redirect targets'
/// and canonical URL's.
fn lossy_keys(sighting: &Sighting) -> Vec<&str> {
    std::iter::once(sighting.story.lossy_url.as_str())
        .chain(sighting.also.iter().map(|also| also.lossy_url.as_str()))
        .collect()
}

/// The advisory lock ids of lossy keys: each key's 64-bit FNV-1a hash (the key as stored), once
/// each, in ascending order.
fn lock_ids(keys: &[&str]) -> Vec<i64> {
    let mut ids: Vec<i64> = keys
        .iter()
        .map(|key| {
            let hash = text::line(key).bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
            i64::from_ne_bytes(hash.to_ne_bytes())
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Takes PostgreSQL's transaction-level advisory lock on each of `keys`, released when the
/// transaction ends.
async fn lock_keys(txn: &impl ConnectionTrait, keys: &[&str]) -> Result<()> {
    for id in lock_ids(keys) {
        txn.query_one_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT pg_advisory_xact_lock($1)",
            [Value::from(id)],
        ))
        .await
        .doing("locking a sighting's URLs")?;
    }
    Ok(())
}

/// The stored story that any of the sighting's lossy keys already leads to, the oldest first.
async fn known_story(db: &impl ConnectionTrait, keys: &[&str]) -> Result<Option<Story>> {
    let mut found: Option<Story> = None;
    for key in keys {
        if let Some(story) = stories::find_by_lossy_url(db, key).await?
            && found.as_ref().is_none_or(|best| story.id < best.id)
        {
            found = Some(story);
        }
    }
    let via_urls = stories::oldest_recorded(db, keys).await?;
    if let Some(story_id) = via_urls
        && found.as_ref().is_none_or(|best| story_id < best.id)
    {
        found = Some(stories::get_in(db, story_id).await?);
    }
    Ok(found)
}

/// Records every URL of a sighting for a story (idempotent).
async fn record_urls(db: &impl ConnectionTrait, story: &Story, sighting: &Sighting) -> Result<()> {
    let first = &sighting.story;
    if first.url != story.story.url {
        stories::insert_url(db, story.id, &first.url, &first.lossy_url, UrlKind::Variant).await?;
    }
    for also in &sighting.also {
        stories::insert_url(db, story.id, &also.url, &also.lossy_url, also.kind).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_ids_are_each_keys_hash_once_in_ascending_order_whatever_the_order_of_the_keys() {
        let one =
            lock_ids(&["daily.example/go/1", "daily.example/2026/story-1", "daily.example/go/1"]);
        let other = lock_ids(&["daily.example/2026/story-1", "daily.example/go/1"]);
        assert_eq!(one, other);
        assert_eq!(one.len(), 2);
        assert!(one[0] < one[1]);
        // A key shared by two sightings gets the same lock in both.
        assert!(lock_ids(&["daily.example/2026/story-1"]).iter().all(|id| one.contains(id)));
    }
}
