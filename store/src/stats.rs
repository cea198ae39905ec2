//! What the collection did, per source and day (UTC), for collection health (`morgue stats`):
//! feed and sitemap polls, article pages fetched, failures by kind, stories kept and duplicate
//! links found. Counted in SQL, grouped, from a day on; nothing here changes the archive.
//!
//! A fetch counts for the source of its feed (a poll) or of its frontier entry (an article page);
//! fetches for neither (robots.txt, a source's search) are not counted. A fetch failed when no
//! response came (its kind read from the error: `timeout`, `dns`, `connect`, `refused`,
//! `redirects`, `too large`, `robots.txt`, `other`) or when the status is 400 or more
//! (`HTTP 404`). A story counts on the day it was kept (archived), a link on the day it was found,
//! for the source of its later story.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use sea_orm::{ConnectionTrait, QueryResult, Statement};

use crate::error::{Context as _, Error, Result};
use crate::{Archive, Backend};

/// One source's counts on one day.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceDay {
    /// The source.
    pub source_id: i64,
    /// The day (UTC).
    pub day: NaiveDate,
    /// Feed and sitemap polls.
    pub feeds_polled: u64,
    /// Article pages fetched (each attempt).
    pub pages_fetched: u64,
    /// Failed requests (polls and pages) by kind.
    pub failures: BTreeMap<String, u64>,
    /// Stories kept.
    pub stories_kept: u64,
    /// Duplicate links found for its stories.
    pub duplicates_found: u64,
}

impl SourceDay {
    /// Every failed request, whatever its kind.
    pub fn failed(&self) -> u64 {
        self.failures.values().sum()
    }
}

/// The error kinds of failed requests, from the crawler's messages.
const ERROR_KIND: &str = "CASE WHEN x.error IS NULL THEN NULL \
     WHEN x.error LIKE '%timeout%' THEN 'timeout' \
     WHEN x.error LIKE 'cannot resolve%' THEN 'dns' \
     WHEN x.error LIKE 'cannot connect%' THEN 'connect' \
     WHEN x.error LIKE 'refused to connect%' THEN 'refused' \
     WHEN x.error LIKE '%robots.txt%' THEN 'robots.txt' \
     WHEN x.error LIKE '%redirect%' THEN 'redirects' \
     WHEN x.error LIKE '%body larger than%' THEN 'too large' \
     ELSE 'other' END";

/// The UTC day of a timestamp column, as `YYYY-MM-DD` text.
fn day_of(backend: Backend, column: &str) -> String {
    match backend {
        // Stored as RFC 3339 text in UTC.
        Backend::Sqlite => format!("substr({column}, 1, 10)"),
        Backend::Postgres => format!("to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')"),
    }
}

/// The condition "`column` is on `since` or later".
fn on_or_after(backend: Backend, column: &str, since: NaiveDate) -> String {
    match backend {
        Backend::Sqlite => format!("{column} >= '{since}'"),
        Backend::Postgres => format!("{column} >= TIMESTAMPTZ '{since} 00:00:00+00'"),
    }
}

/// Each source's counts per day from `since` on, by source then day; days without anything are
/// left out.
pub async fn per_source_day(archive: &Archive, since: NaiveDate) -> Result<Vec<SourceDay>> {
    let backend = archive.backend();
    let mut days: BTreeMap<(i64, NaiveDate), SourceDay> = BTreeMap::new();

    let fetches = format!(
        "SELECT COALESCE(f.source_id, q.source_id), {day}, \
         CASE WHEN x.feed_id IS NOT NULL THEN 1 ELSE 0 END, x.status, {ERROR_KIND}, COUNT(*) \
         FROM fetches x LEFT JOIN feeds f ON f.id = x.feed_id \
         LEFT JOIN frontier q ON q.id = x.frontier_id \
         WHERE {since} AND (x.feed_id IS NOT NULL OR x.frontier_id IS NOT NULL) \
         GROUP BY 1, 2, 3, 4, 5",
        day = day_of(backend, "x.started_at"),
        since = on_or_after(backend, "x.started_at", since),
    );
    for row in query(archive, &fetches, "counting fetches per source and day").await? {
        let Some(source_id) = get::<Option<i64>>(&row, 0)? else { continue };
        let day = parse_day(&get::<String>(&row, 1)?)?;
        let feed = get::<i32>(&row, 2).or_else(|_| get::<i64>(&row, 2).map(|n| n as i32))? == 1;
        let status: Option<i32> = get(&row, 3)?;
        let kind: Option<String> = get(&row, 4)?;
        let n = count(&row, 5)?;
        let counts = entry(&mut days, source_id, day);
        if feed {
            counts.feeds_polled += n;
        } else {
            counts.pages_fetched += n;
        }
        let failure = match (kind, status) {
            (Some(kind), _) => Some(kind),
            (None, Some(status)) if status >= 400 => Some(format!("HTTP {status}")),
            _ => None,
        };
        if let Some(kind) = failure {
            *counts.failures.entry(kind).or_default() += n;
        }
    }

    let stories = format!(
        "SELECT s.source_id, {day}, COUNT(*) FROM stories s WHERE {since} GROUP BY 1, 2",
        day = day_of(backend, "s.created_at"),
        since = on_or_after(backend, "s.created_at", since),
    );
    for row in query(archive, &stories, "counting stories per source and day").await? {
        let day = parse_day(&get::<String>(&row, 1)?)?;
        entry(&mut days, get(&row, 0)?, day).stories_kept += count(&row, 2)?;
    }

    let links = format!(
        "SELECT s.source_id, {day}, COUNT(*) FROM duplicate_links d \
         JOIN stories s ON s.id = d.story_id WHERE {since} GROUP BY 1, 2",
        day = day_of(backend, "d.created_at"),
        since = on_or_after(backend, "d.created_at", since),
    );
    for row in query(archive, &links, "counting duplicate links per source and day").await? {
        let day = parse_day(&get::<String>(&row, 1)?)?;
        entry(&mut days, get(&row, 0)?, day).duplicates_found += count(&row, 2)?;
    }
    Ok(days.into_values().collect())
}

/// The day each source last kept a story, whenever that was.
pub async fn last_kept(archive: &Archive) -> Result<BTreeMap<i64, NaiveDate>> {
    let sql = format!(
        "SELECT s.source_id, MAX({day}) FROM stories s GROUP BY 1",
        day = day_of(archive.backend(), "s.created_at")
    );
    let mut last = BTreeMap::new();
    for row in query(archive, &sql, "reading each source's last story").await? {
        last.insert(get(&row, 0)?, parse_day(&get::<String>(&row, 1)?)?);
    }
    Ok(last)
}

/// The counts of a source and day, new ones empty.
fn entry(
    days: &mut BTreeMap<(i64, NaiveDate), SourceDay>,
    source_id: i64,
    day: NaiveDate,
) -> &mut SourceDay {
    days.entry((source_id, day)).or_insert_with(|| SourceDay {
        source_id,
        day,
        ..SourceDay::default()
    })
}

async fn query(archive: &Archive, sql: &str, doing: &'static str) -> Result<Vec<QueryResult>> {
    let backend = archive.db.get_database_backend();
    archive.db.query_all_raw(Statement::from_string(backend, sql.to_owned())).await.doing(doing)
}

fn get<T: sea_orm::TryGetable>(row: &QueryResult, index: usize) -> Result<T> {
    row.try_get_by_index(index).doing("reading collection statistics")
}

fn count(row: &QueryResult, index: usize) -> Result<u64> {
    Ok(u64::try_from(get::<i64>(row, index)?).unwrap_or(0))
}

fn parse_day(text: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| Error::Corrupt { what: format!("a day in the statistics: {text:?}") })
}
