//! Re-extraction (`morgue reextract`): run the current extractor again over the archived raw pages.
//!
//! Stories extracted by another extractor version (or all of them, with `all`) are extracted
//! again from their raw fetch, on all cores, and their extracted fields replaced; the URLs a story
//! is known by never change. The repeated-sentence index of every source-week a re-extracted story
//! belongs to (before or after) is then rebuilt from the stories' new texts, so no sentence stays
//! owned by a story that no longer has it. A page the new extractor no longer considers a story
//! (too short, not HTML) keeps its old fields and is counted, never dropped silently.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use chrono::{NaiveDate, TimeZone, Utc};
use extractor::sentences::{self, Mode};
use store::Archive;
use store::sources::Source;
use store::stories::Story;

use crate::ingest::{self, EXTRACTOR_VERSION, Page};
use crate::{Error, Result};

/// Stories read and extracted at a time.
const PAGE: u64 = 256;

/// What a run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Stories extracted again and their fields replaced.
    pub extracted: u64,
    /// Stories without a raw page to extract again (left as they were).
    pub no_raw_page: u64,
    /// Stories whose page the extractor no longer takes for a story (left as they were).
    pub not_stories: u64,
    /// Source-weeks whose repeated-sentence index was rebuilt.
    pub weeks: usize,
}

/// [`run`] as worker `me`, holding the archive's re-extraction claim, so that two runs never
/// rebuild one source-week's sentence index at once (see [`crate::exclusive`]). Fails with
/// [`Error::BatchRunning`] when another live worker is re-extracting.
pub async fn run_as(
    archive: &Archive,
    all: bool,
    mode: Mode,
    me: &store::workers::NewWorker,
) -> Result<Counts> {
    crate::exclusive::as_worker(archive, me, store::claims::Kind::Reextract, || {
        run(archive, all, mode)
    })
    .await
}

/// Extracts again the stories of another extractor version (every story with `all`), then
/// rebuilds the sentence index of the source-weeks they belong to; `mode` is how repeated
/// sentences are removed. It takes no claim: see [`run_as`].
pub async fn run(archive: &Archive, all: bool, mode: Mode) -> Result<Counts> {
    let version = if all { None } else { Some(EXTRACTOR_VERSION) };
    let mut sources: HashMap<i64, Arc<Source>> = HashMap::new();
    let mut touched: BTreeSet<(i64, NaiveDate)> = BTreeSet::new();
    let mut counts = Counts::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu = Arc::new(tokio::sync::Semaphore::new(cores));
    let mut after = 0;
    loop {
        let stories = store::stories::page_for_reextraction(archive, version, after, PAGE).await?;
        let Some(last) = stories.last() else { break };
        after = last.id;
        let mut tasks = Vec::new();
        for story in stories {
            let Some(fetch_id) = story.story.fetch_id else {
                counts.no_raw_page += 1;
                continue;
            };
            let fetch = match store::fetches::get(archive, fetch_id).await {
                Ok(fetch) => fetch,
                Err(err) => {
                    tracing::warn!(story = story.id, "cannot read the raw page: {err}");
                    counts.no_raw_page += 1;
                    continue;
                }
            };
            let source_id = story.story.source_id;
            if let std::collections::hash_map::Entry::Vacant(slot) = sources.entry(source_id) {
                slot.insert(Arc::new(store::sources::get(archive, source_id).await?));
            }
            let page = Page {
                url: story.story.url.clone(),
                lossy_url: story.story.lossy_url.clone(),
                final_url: fetch.fetch.final_url.clone(),
                fetch_id: Some(fetch_id),
                content_type: fetch.fetch.content_type.clone(),
                body: fetch.fetch.body,
                hint_published: story.story.published_at,
                hint_title: None,
                fetched_at: fetch.fetch.started_at,
            };
            let permit = Arc::clone(&cpu).acquire_owned().await?;
            tasks.push(tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let extracted = ingest::extract_page(&page);
                (story, page, extracted)
            }));
        }
        for task in tasks {
            let (story, page, extracted) =
                task.await.map_err(|source| Error::Task { what: "extraction", source })?;
            if ingest::not_story(&extracted).is_some() {
                counts.not_stories += 1;
                continue;
            }
            let source = Arc::clone(&sources[&story.story.source_id]);
            let sighting = ingest::sighting(&source, &page, &extracted);
            let updated =
                store::stories::replace_extraction(archive, story.id, &sighting.story).await?;
            for published in
                [story.story.published_at, updated.story.published_at].into_iter().flatten()
            {
                touched.insert((source.id, sentences::week_start(published, &timezone(&source))));
            }
            if updated.story.published_at.is_none() {
                store::stories::set_sentence_removal(archive, story.id, None, &[]).await?;
            }
            counts.extracted += 1;
        }
    }
    counts.weeks = touched.len();
    for (source_id, week) in touched {
        let source = match sources.get(&source_id) {
            Some(source) => Arc::clone(source),
            None => Arc::new(store::sources::get(archive, source_id).await?),
        };
        rebuild_week(archive, &source, week, mode).await?;
    }
    Ok(counts)
}

fn timezone(source: &Source) -> chrono_tz::Tz {
    source.timezone.parse().unwrap_or(chrono_tz::UTC)
}

/// Forgets a source-week's sentence index and records its stories again.
async fn rebuild_week(
    archive: &Archive,
    source: &Source,
    week: NaiveDate,
    mode: Mode,
) -> Result<()> {
    let tz = timezone(source);
    let start = |day: NaiveDate| {
        let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
        tz.from_local_datetime(&midnight).earliest().map(|at| at.with_timezone(&Utc))
    };
    let (Some(from), Some(to)) = (start(week), start(week + chrono::Duration::days(7))) else {
        return Ok(());
    };
    store::sentences::clear_week(archive, source.id, week).await?;
    let stories: Vec<Story> =
        store::stories::published_between(archive, source.id, from, to).await?;
    for story in &stories {
        ingest::remove_repeated_sentences(archive, source, story, mode, ingest::Fresh::No).await?;
    }
    Ok(())
}
