//! From a fetched page to a story: extract, compute the normalizer's keys, merge into the archive.
//!
//! Shared by the crawler (`crawl`) and by re-extraction of archived pages. The extraction itself is
//! CPU work: callers run [`extract_page`] on a blocking thread, then [`store_page`] on the runtime.

use std::collections::BTreeMap;

use anyhow::Result;
use chrono::{DateTime, Utc};
use extractor::{Extracted, Quality};
use store::Archive;
use store::merge::{AlsoUrl, Merged, Sighting};
use store::sources::Source;
use store::stories::{NewStory, UrlKind};

/// The extractor version recorded with each story; `reextract` looks for older ones.
pub(crate) const EXTRACTOR_VERSION: &str = concat!("morgue-extractor/", env!("CARGO_PKG_VERSION"));

/// A fetched page and what is known about it before extraction.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    /// The URL it was requested under (its lossy key is the story's).
    pub(crate) url: String,
    /// That URL's lossy key.
    pub(crate) lossy_url: String,
    /// Where the request ended, after redirects.
    pub(crate) final_url: String,
    /// The archived raw fetch.
    pub(crate) fetch_id: Option<i64>,
    /// The `Content-Type` header.
    pub(crate) content_type: Option<String>,
    /// The body.
    pub(crate) body: Vec<u8>,
    /// A publication time from the feed or sitemap.
    pub(crate) hint_published: Option<DateTime<Utc>>,
    /// A title from the feed or sitemap.
    pub(crate) hint_title: Option<String>,
    /// When it was fetched.
    pub(crate) fetched_at: DateTime<Utc>,
}

/// What became of a page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ingested {
    /// A new story.
    New { story_id: i64, title_duplicate_of: Option<i64> },
    /// The page is a story already stored (same lossy URL, redirect target or canonical URL).
    Known { story_id: i64 },
    /// Not a story: too short, empty or not HTML. The raw fetch stays archived.
    NotStory { reason: &'static str },
}

/// Runs the extractor over a page (CPU-bound: call it off the async runtime).
pub(crate) fn extract_page(page: &Page) -> Extracted {
    let context = extractor::Context {
        url: Some(&page.final_url),
        content_type: page.content_type.as_deref(),
        hint_published: page.hint_published,
        now: page.fetched_at,
    };
    extractor::extract(&page.body, &context)
}

/// Stores what was extracted from a page of `source`.
pub(crate) async fn store_page(
    archive: &Archive,
    source: &Source,
    page: &Page,
    extracted: &Extracted,
) -> Result<Ingested> {
    let reason = match extracted.quality {
        Quality::Ok => None,
        Quality::TooShort => Some("too short to be a story"),
        Quality::Empty => Some("no main text"),
        Quality::NotHtml => Some("not HTML"),
    };
    if let Some(reason) = reason {
        return Ok(Ingested::NotStory { reason });
    }
    let sighting = sighting(source, page, extracted);
    Ok(match store::merge::merge(archive, &sighting).await? {
        Merged::New { story, title_duplicate_of } => {
            Ingested::New { story_id: story.id, title_duplicate_of }
        }
        Merged::Known { story } => Ingested::Known { story_id: story.id },
    })
}

/// The story and its other URLs, keyed by the normalizer.
pub(crate) fn sighting(source: &Source, page: &Page, extracted: &Extracted) -> Sighting {
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
