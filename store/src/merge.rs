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

use std::collections::BTreeMap;

use crate::Archive;
use crate::duplicates::{self, NewLink};
use crate::error::Result;
use crate::stories::{self, Inserted, NewStory, Story, UrlKind};

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
    if let Some(story) = known_story(archive, sighting).await? {
        record_urls(archive, &story, sighting).await?;
        return Ok(Merged::Known { story });
    }
    let story = match stories::insert(archive, new).await? {
        Inserted::New(story) => story,
        // Another worker stored the same lossy URL between our look-up and our insert.
        Inserted::Existing(story) => {
            record_urls(archive, &story, sighting).await?;
            return Ok(Merged::Known { story });
        }
    };
    record_urls(archive, &story, sighting).await?;
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

/// The stored story that any of the sighting's lossy keys already leads to, the oldest first.
async fn known_story(archive: &Archive, sighting: &Sighting) -> Result<Option<Story>> {
    let keys: Vec<&str> = std::iter::once(sighting.story.lossy_url.as_str())
        .chain(sighting.also.iter().map(|also| also.lossy_url.as_str()))
        .collect();
    let mut found: Option<Story> = None;
    for key in &keys {
        if let Some(story) = stories::by_lossy_url(archive, key).await?
            && found.as_ref().is_none_or(|best| story.id < best.id)
        {
            found = Some(story);
        }
    }
    let via_urls = stories::oldest_recorded(&archive.db, &keys).await?;
    if let Some(story_id) = via_urls
        && found.as_ref().is_none_or(|best| story_id < best.id)
    {
        found = Some(stories::get(archive, story_id).await?);
    }
    Ok(found)
}

/// Records every URL of a sighting for a story (idempotent).
async fn record_urls(archive: &Archive, story: &Story, sighting: &Sighting) -> Result<()> {
    let first = &sighting.story;
    if first.url != story.story.url {
        stories::add_url(archive, story.id, &first.url, &first.lossy_url, UrlKind::Variant).await?;
    }
    for also in &sighting.also {
        stories::add_url(archive, story.id, &also.url, &also.lossy_url, also.kind).await?;
    }
    Ok(())
}
