//! From a fetched page to a story: extract, compute the normalizer's keys, merge into the archive,
//! and take out the sentences the source repeated that week.
//!
//! Shared by the crawl loop ([`crate::crawl`]) and by re-extraction of archived pages. The
//! extraction itself is CPU work: callers run [`extract_page`] on a blocking thread, then
//! [`store_sighting`] on the runtime.
//!
//! **Repeated sentences** (Media Cloud's per-source, per-week rule; the algorithm is
//! `extractor::sentences`, the index `store::sentences`): a new story's sentences are recorded in
//! its (source, ISO week in the source's timezone) index; each sentence an earlier-published story
//! of that source-week also has is left out of the story's searchable text and recorded, with the
//! story that keeps it, in `removed_sentences`. When a story turns out to be earlier than the one
//! that held its sentences (stories arrive in any order), that story is decided again, so the
//! result is the same whatever order stories come in. The story's own `text` is never changed.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use extractor::sentences::{self, Holders, Mode, Rank};
use extractor::{Extracted, Quality};
use store::Archive;
use store::merge::{AlsoUrl, Merged, Sighting};
use store::sentences::{Holder, StorySentences};
use store::sources::Source;
use store::stories::{NewStory, RemovedSentence, Story, UrlKind};

use crate::Result;

/// The extractor version recorded with each story; `reextract` looks for older ones.
pub const EXTRACTOR_VERSION: &str = concat!("morgue-extractor/", env!("CARGO_PKG_VERSION"));

/// A fetched page and what is known about it before extraction.
#[derive(Debug, Clone)]
pub struct Page {
    /// The URL it was requested under (its lossy key is the story's).
    pub url: String,
    /// That URL's lossy key.
    pub lossy_url: String,
    /// Where the request ended, after redirects.
    pub final_url: String,
    /// The archived raw fetch.
    pub fetch_id: Option<i64>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
    /// A publication time from the feed or sitemap.
    pub hint_published: Option<DateTime<Utc>>,
    /// A title from the feed or sitemap.
    pub hint_title: Option<String>,
    /// When it was fetched.
    pub fetched_at: DateTime<Utc>,
}

/// What became of a page.
#[derive(Debug, Clone, PartialEq)]
pub enum Ingested {
    /// A new story.
    New {
        /// The new story.
        story_id: i64,
        /// The story of the same source, day and title it duplicates, if any.
        title_duplicate_of: Option<i64>,
    },
    /// The page is a story already stored (same lossy URL, redirect target or canonical URL).
    Known {
        /// The story stored before.
        story_id: i64,
    },
}

/// Runs the extractor over a page (CPU-bound: call it off the async runtime).
pub fn extract_page(page: &Page) -> Extracted {
    let context = extractor::Context {
        url: Some(&page.final_url),
        content_type: page.content_type.as_deref(),
        hint_published: page.hint_published,
        now: page.fetched_at,
    };
    extractor::extract(&page.body, &context)
}

/// Why what was extracted from a page is not a story, if it is not.
pub fn not_story(extracted: &Extracted) -> Option<&'static str> {
    match extracted.quality {
        Quality::Ok => None,
        Quality::TooShort => Some("too short to be a story"),
        Quality::Empty => Some("no main text"),
        Quality::NotHtml => Some("not HTML"),
    }
}

/// Stores a sighting of a story of `source` ([`sighting`]): merges it, then takes out the sentences
/// the source repeated that week. Callers that store pages at once hold the sighting's locks
/// (`crawl::locks`).
pub async fn store_sighting(
    archive: &Archive,
    source: &Source,
    sighting: &Sighting,
    mode: Mode,
) -> Result<Ingested> {
    Ok(match store::merge::merge(archive, sighting).await? {
        Merged::New { story, title_duplicate_of } => {
            remove_repeated_sentences(archive, source, &story, mode, Fresh::Yes).await?;
            Ingested::New { story_id: story.id, title_duplicate_of }
        }
        Merged::Known { story } => Ingested::Known { story_id: story.id },
    })
}

/// Whether a story was just created, with nothing recorded of its sentence removal yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// Just created: when nothing is removed there is nothing to write.
    Yes,
    /// It may hold an earlier decision, which must be overwritten.
    No,
}

/// Records a story's sentences in its source-week and decides which stay searchable; then
/// decides again every story whose sentences it took over (or, in strict mode, made shared).
pub async fn remove_repeated_sentences(
    archive: &Archive,
    source: &Source,
    story: &Story,
    mode: Mode,
    fresh: Fresh,
) -> Result<()> {
    let Some(published_at) = story.story.published_at else {
        // Undated stories are never deduplicated, as in the reference.
        return Ok(());
    };
    let timezone: chrono_tz::Tz = source.timezone.parse().unwrap_or(chrono_tz::UTC);
    let week_start = sentences::week_start(published_at, &timezone);
    let list = sentences::story_sentences(&story.story.text, story.story.language.as_deref());
    let hashes: Vec<i64> = list.iter().map(|s| key(s)).collect();
    let request = StorySentences {
        source_id: source.id,
        week_start,
        story_id: story.id,
        published_at,
        hashes: &hashes,
    };
    let recorded = store::sentences::record_story(archive, &request).await?;
    decide_and_store(archive, story.id, published_at, &list, &recorded.holders, mode, fresh)
        .await?;
    let mut again = recorded.displaced;
    if mode == Mode::Strict {
        again.extend(recorded.now_shared);
    }
    again.sort_unstable();
    again.dedup();
    for other in again.into_iter().filter(|&id| id != story.id) {
        let other = store::stories::get(archive, other).await?;
        let Some(other_published) = other.story.published_at else { continue };
        let other_list =
            sentences::story_sentences(&other.story.text, other.story.language.as_deref());
        let other_hashes: Vec<i64> = other_list.iter().map(|s| key(s)).collect();
        let holders =
            store::sentences::holders(archive, source.id, week_start, &other_hashes).await?;
        decide_and_store(
            archive,
            other.id,
            other_published,
            &other_list,
            &holders,
            mode,
            Fresh::No,
        )
        .await?;
    }
    Ok(())
}

/// A sentence's index key.
fn key(sentence: &str) -> i64 {
    // The hash's bits, reinterpreted: the index stores signed 64-bit integers.
    sentences::sentence_key(sentence) as i64
}

async fn decide_and_store(
    archive: &Archive,
    story_id: i64,
    published_at: DateTime<Utc>,
    list: &[String],
    holders: &HashMap<i64, Holder>,
    mode: Mode,
    fresh: Fresh,
) -> Result<()> {
    let rank = Rank { published: published_at, story_id: story_id as u64 };
    let verdicts = sentences::decide(
        list,
        Some(rank),
        |sentence| {
            holders.get(&key(sentence)).map(|holder| Holders {
                first: Rank {
                    published: holder.first_published_at,
                    story_id: holder.first_story_id as u64,
                },
                stories: if holder.shared { 2 } else { 1 },
            })
        },
        mode,
    );
    let dropped = sentences::dropped(list, &verdicts);
    let searchable = (!dropped.is_empty()).then(|| sentences::searchable_text(list, &verdicts));
    let removed: Vec<RemovedSentence> = dropped
        .into_iter()
        .map(|dropped| RemovedSentence {
            position: i32::try_from(dropped.position).unwrap_or(i32::MAX),
            sentence: dropped.sentence,
            owner_story_id: dropped.owner.story_id as i64,
        })
        .collect();
    if fresh == Fresh::Yes && removed.is_empty() {
        // A new story starts with its whole text searchable and no removed sentences.
        return Ok(());
    }
    store::stories::set_sentence_removal(archive, story_id, searchable.as_deref(), &removed)
        .await?;
    Ok(())
}

/// The story and its other URLs, keyed by the normalizer.
pub fn sighting(source: &Source, page: &Page, extracted: &Extracted) -> Sighting {
    let mut provenance = BTreeMap::new();
    let mut note = |field: &str, from: &str| {
        provenance.insert(field.to_owned(), from.to_owned());
    };
    let title = match (&extracted.title, &page.hint_title) {
        (Some(field), _) => {
            note("title", field.provenance);
            Some(normalizer::clean_title(&field.value, Some(&source.name)))
        }
        (None, Some(hint)) => {
            note("title", "feed");
            Some(normalizer::clean_title(hint, Some(&source.name)))
        }
        (None, None) => None,
    }
    .filter(|title| !title.is_empty());
    let published_at = match (&extracted.published, page.hint_published) {
        (Some(field), _) => {
            note("published_at", field.provenance);
            Some(field.value.with_timezone(&Utc))
        }
        (None, Some(hint)) => {
            note("published_at", "feed");
            Some(hint)
        }
        (None, None) => None,
    };
    let timezone: chrono_tz::Tz = source.timezone.parse().unwrap_or(chrono_tz::UTC);
    let published_day = published_at.map(|at| at.with_timezone(&timezone).date_naive());
    let language = extracted.language.as_ref().map(|field| {
        note("language", field.provenance);
        field.value.clone()
    });
    if let Some(first) = extracted.authors.first() {
        note("authors", first.provenance);
    }
    let canonical_url = extracted.canonical_url.as_ref().map(|field| {
        note("canonical_url", field.provenance);
        field.value.clone()
    });
    note("text", extracted.encoding.provenance);
    let mut also = Vec::new();
    if page.final_url != page.url
        && let Some(lossy) = normalizer::lossy_url(&page.final_url)
    {
        also.push(AlsoUrl {
            url: page.final_url.clone(),
            lossy_url: lossy,
            kind: UrlKind::Redirect,
        });
    }
    if let Some(canonical) = &canonical_url
        && let Some(lossy) = normalizer::lossy_url(canonical)
        && canonical != &page.url
    {
        also.push(AlsoUrl { url: canonical.clone(), lossy_url: lossy, kind: UrlKind::Canonical });
    }
    let normalized_title =
        title.as_deref().and_then(|title| normalizer::title_key(title, Some(&source.name)));
    Sighting {
        story: NewStory {
            source_id: source.id,
            fetch_id: page.fetch_id,
            url: page.url.clone(),
            lossy_url: page.lossy_url.clone(),
            canonical_url,
            title,
            normalized_title,
            text: extracted.text.clone(),
            language,
            authors: extracted.authors.iter().map(|author| author.value.clone()).collect(),
            published_at,
            published_day,
            provenance,
            extractor_version: EXTRACTOR_VERSION.to_owned(),
        },
        also,
    }
}
