//! Collection health for researchers and operators (`morgue stats`, the `/stats` page): per
//! source and day, feeds polled, pages fetched, failures by kind, stories kept and duplicates
//! found ([`store::stats`]), and the sources to look at: those that went silent and those whose
//! failures jumped.
//!
//! The rules, over the days asked for (the last [`Request::days`] before `today`):
//!
//! - The archive's last active day is the last day any source had a request or a story. A source
//!   went **silent** when it kept stories before (in the window or earlier) and has kept none
//!   for more than [`Request::silent_after`] days before that last active day. Measured against
//!   the archive's activity, not the clock, so an archive nobody crawled this week does not call
//!   every source silent.
//! - A source's **failures jumped** on a day when at least [`JUMP_MIN`] of its requests failed
//!   and its failure rate that day is at least twice its rate over its earlier days in the window
//!   and at least [`JUMP_MARGIN`] above it; the latest such day is reported. Rates, not counts,
//!   so a source polled more often is not flagged for failing as often as before.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};
use store::Archive;
use store::stats::SourceDay;

use crate::Result;

/// The fewest failures in a day that can count as a jump.
pub const JUMP_MIN: u64 = 5;
/// How far above its earlier rate a day's failure rate must be to count as a jump.
pub const JUMP_MARGIN: f64 = 0.2;

/// What to report on.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The last day reported on (today, UTC).
    pub today: NaiveDate,
    /// How many days, `today` included.
    pub days: u32,
    /// Days without a story, before the archive's last active day, after which a source is
    /// silent.
    pub silent_after: u32,
}

/// One source's day, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Day {
    /// The source's name.
    pub source: String,
    /// The day (UTC).
    pub day: NaiveDate,
    /// Feed and sitemap polls.
    pub feeds_polled: u64,
    /// Article pages fetched.
    pub pages_fetched: u64,
    /// Failed requests by kind (`timeout`, `HTTP 503`, …).
    pub failures: BTreeMap<String, u64>,
    /// Stories kept.
    pub stories_kept: u64,
    /// Duplicate links found.
    pub duplicates_found: u64,
}

/// Why a source needs looking at.
#[derive(Debug, Clone, PartialEq)]
pub enum Flag {
    /// No story kept for `days` days before the archive's last active day.
    Silent {
        /// The last day it kept a story.
        last_kept: NaiveDate,
        /// Days since then, to the archive's last active day.
        days: i64,
    },
    /// Its failure rate jumped on `day`.
    FailuresJumped {
        /// The day.
        day: NaiveDate,
        /// Failed requests that day.
        failures: u64,
        /// Its failure rate that day.
        rate: f64,
        /// Its failure rate over its earlier days in the window.
        before: f64,
    },
}

impl Flag {
    /// The flag in words, for people.
    pub fn describe(&self) -> String {
        match self {
            Flag::Silent { last_kept, days } => {
                format!("silent: no story kept for {days} days (last on {last_kept})")
            }
            Flag::FailuresJumped { day, failures, rate, before } => format!(
                "failures jumped on {day}: {failures} failed ({:.0}% of requests, against {:.0}% before)",
                rate * 100.0,
                before * 100.0
            ),
        }
    }
}

/// One source over the whole window.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// Its name.
    pub source: String,
    /// Feed and sitemap polls.
    pub feeds_polled: u64,
    /// Article pages fetched.
    pub pages_fetched: u64,
    /// Failed requests by kind.
    pub failures: BTreeMap<String, u64>,
    /// Stories kept.
    pub stories_kept: u64,
    /// Duplicate links found.
    pub duplicates_found: u64,
    /// The last day it kept a story, ever.
    pub last_kept: Option<NaiveDate>,
    /// What to look at.
    pub flags: Vec<Flag>,
}

/// The report.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// The first day reported on.
    pub from: NaiveDate,
    /// The last day reported on.
    pub to: NaiveDate,
    /// The archive's last active day in the window (`None`: nothing happened in it).
    pub last_active: Option<NaiveDate>,
    /// Every source, flagged ones first, then by name.
    pub sources: Vec<Source>,
    /// Each source's days, by day then source name.
    pub days: Vec<Day>,
}

/// The report on `request`'s days.
pub async fn stats(archive: &Archive, request: &Request) -> Result<Stats> {
    let from = request
        .today
        .checked_sub_days(Days::new(u64::from(request.days.max(1) - 1)))
        .unwrap_or(request.today);
    let rows: Vec<SourceDay> = store::stats::per_source_day(archive, from)
        .await?
        .into_iter()
        .filter(|row| row.day <= request.today)
        .collect();
    let last_kept = store::stats::last_kept(archive).await?;
    let names: BTreeMap<i64, String> = store::sources::list(archive)
        .await?
        .into_iter()
        .map(|source| (source.id, source.name))
        .collect();
    Ok(report(from, request, &rows, &last_kept, &names))
}

/// The report from the counts (pure, for tests).
fn report(
    from: NaiveDate,
    request: &Request,
    rows: &[SourceDay],
    last_kept: &BTreeMap<i64, NaiveDate>,
    names: &BTreeMap<i64, String>,
) -> Stats {
    let last_active = rows.iter().map(|row| row.day).max();
    let name = |id: i64| names.get(&id).cloned().unwrap_or_else(|| format!("source {id}"));
    let mut sources = Vec::new();
    for (&id, source_name) in names {
        let own: Vec<&SourceDay> = rows.iter().filter(|row| row.source_id == id).collect();
        let mut failures = BTreeMap::new();
        for row in &own {
            for (kind, n) in &row.failures {
                *failures.entry(kind.clone()).or_default() += n;
            }
        }
        let mut flags = Vec::new();
        let kept = last_kept.get(&id).copied();
        if let (Some(kept), Some(active)) = (kept, last_active) {
            let days = (active - kept).num_days();
            if days > i64::from(request.silent_after) {
                flags.push(Flag::Silent { last_kept: kept, days });
            }
        }
        if let Some(jump) = failures_jumped(&own) {
            flags.push(jump);
        }
        sources.push(Source {
            source: source_name.clone(),
            feeds_polled: own.iter().map(|row| row.feeds_polled).sum(),
            pages_fetched: own.iter().map(|row| row.pages_fetched).sum(),
            failures,
            stories_kept: own.iter().map(|row| row.stories_kept).sum(),
            duplicates_found: own.iter().map(|row| row.duplicates_found).sum(),
            last_kept: kept,
            flags,
        });
    }
    // Flagged sources first, then by name.
    sources.sort_by(|a, b| (a.flags.is_empty(), &a.source).cmp(&(b.flags.is_empty(), &b.source)));
    let mut days: Vec<Day> = rows
        .iter()
        .map(|row| Day {
            source: name(row.source_id),
            day: row.day,
            feeds_polled: row.feeds_polled,
            pages_fetched: row.pages_fetched,
            failures: row.failures.clone(),
            stories_kept: row.stories_kept,
            duplicates_found: row.duplicates_found,
        })
        .collect();
    days.sort_by(|a, b| a.day.cmp(&b.day).then_with(|| a.source.cmp(&b.source)));
    Stats { from, to: request.today, last_active, sources, days }
}

/// The latest day a source's failure rate jumped, if any (its days in order).
fn failures_jumped(days: &[&SourceDay]) -> Option<Flag> {
    let mut jump = None;
    let (mut failed_before, mut asked_before) = (0u64, 0u64);
    for day in days {
        let asked = day.feeds_polled + day.pages_fetched;
        let failed = day.failed();
        if asked_before > 0 && asked > 0 && failed >= JUMP_MIN {
            let rate = failed as f64 / asked as f64;
            let before = failed_before as f64 / asked_before as f64;
            if rate >= 2.0 * before && rate >= before + JUMP_MARGIN {
                jump = Some(Flag::FailuresJumped { day: day.day, failures: failed, rate, before });
            }
        }
        failed_before += failed;
        asked_before += asked;
    }
    jump
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn row(source_id: i64, d: u32, asked: u64, failed: u64, kept: u64) -> SourceDay {
        SourceDay {
            source_id,
            day: day(d),
            feeds_polled: asked,
            failures: if failed > 0 {
                [("timeout".to_owned(), failed)].into()
            } else {
                BTreeMap::new()
            },
            stories_kept: kept,
            ..SourceDay::default()
        }
    }

    #[test]
    fn silent_sources_and_jumped_failures_are_flagged() {
        let names: BTreeMap<i64, String> = [
            (1, "Steady".to_owned()),
            (2, "Quiet".to_owned()),
            (3, "Failing".to_owned()),
            (4, "New".to_owned()),
        ]
        .into();
        let rows = vec![
            row(1, 20, 10, 1, 5),
            row(1, 25, 10, 1, 5),
            row(2, 20, 10, 0, 5),
            row(2, 22, 10, 0, 0),
            row(3, 20, 10, 1, 5),
            row(3, 21, 10, 0, 5),
            row(3, 25, 10, 8, 1),
        ];
        let last_kept = [(1, day(25)), (2, day(20)), (3, day(25))].into();
        let request = Request { today: day(26), days: 7, silent_after: 2 };
        let stats = report(day(20), &request, &rows, &last_kept, &names);
        assert_eq!(stats.last_active, Some(day(25)));
        let flags: BTreeMap<&str, &[Flag]> =
            stats.sources.iter().map(|s| (s.source.as_str(), s.flags.as_slice())).collect();
        assert_eq!(flags["Quiet"], [Flag::Silent { last_kept: day(20), days: 5 }]);
        assert!(flags["Steady"].is_empty());
        assert!(flags["New"].is_empty(), "never kept a story: nothing to fall silent from");
        let [Flag::FailuresJumped { day: jumped, failures: 8, .. }] = flags["Failing"] else {
            panic!("{:?}", flags["Failing"]);
        };
        assert_eq!(*jumped, day(25));
        // Flagged sources first.
        assert_eq!(stats.sources[0].source, "Failing");
        assert_eq!(stats.sources[1].source, "Quiet");
        assert_eq!(
            stats.sources.iter().find(|s| s.source == "Steady").unwrap().failures["timeout"],
            2
        );
        assert_eq!(stats.days.len(), 7);
        assert!(stats.days.windows(2).all(|w| w[0].day <= w[1].day));
    }

    #[test]
    fn a_busier_source_failing_at_its_usual_rate_is_not_flagged() {
        let names: BTreeMap<i64, String> = [(1, "Busy".to_owned())].into();
        let rows = vec![row(1, 20, 10, 2, 5), row(1, 21, 100, 20, 50)];
        let request = Request { today: day(21), days: 7, silent_after: 2 };
        let stats = report(day(15), &request, &rows, &[(1, day(21))].into(), &names);
        assert!(stats.sources[0].flags.is_empty(), "{:?}", stats.sources[0].flags);
    }
}
