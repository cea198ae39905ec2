//! An archive's health, for operators (`morgue status`): the workers and what each holds, the
//! queues by kind, the oldest overdue work, sources failing or silent, and how far dedup lags.
//!
//! Read from the archive alone, so it shows every worker on every machine; nothing here changes
//! the archive.

use chrono::{DateTime, Duration, Utc};
use store::Archive;
use store::frontier::State;

use crate::Result;
use crate::crawl::WORKER_TIMEOUT;

/// How long a source may go without a new item before it counts as silent.
pub const SILENT_AFTER: Duration = Duration::days(7);

/// One registered worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerHealth {
    /// Its name.
    pub name: String,
    /// Its machine and process id there.
    pub host: String,
    /// Its process id.
    pub pid: i64,
    /// When it last said it was alive.
    pub heartbeat_at: DateTime<Utc>,
    /// Whether that is recent enough (within the crawl's worker timeout).
    pub alive: bool,
    /// Frontier entries it holds leased.
    pub leases: i64,
    /// The other work it has claimed, as `kind key` (`discover 12`, `poll 40`, `dedup archive`).
    pub claims: Vec<String>,
    /// Hosts whose turn it holds (a request in flight).
    pub turns: Vec<String>,
}

/// A feed that failed at its last polls.
#[derive(Debug, Clone, PartialEq)]
pub struct FailingFeed {
    /// Its source's name.
    pub source: String,
    /// The feed's URL.
    pub url: String,
    /// The schedule's failure count.
    pub failures: f64,
    /// The last status, for people.
    pub last_status: String,
}

/// The archive's health at a moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Health {
    /// When it was read.
    pub now: DateTime<Utc>,
    /// Registered workers, by name.
    pub workers: Vec<WorkerHealth>,
    /// Frontier entries in each state.
    pub frontier: Vec<(State, i64)>,
    /// The earliest due time among pending entries, when it has passed.
    pub oldest_overdue_url: Option<DateTime<Utc>>,
    /// Sources.
    pub sources: usize,
    /// Sources never searched.
    pub unsearched: usize,
    /// Feeds and sitemaps.
    pub feeds: usize,
    /// Feeds and sitemaps due for a poll now.
    pub feeds_due: usize,
    /// The most overdue feed poll, `(url, due since)`.
    pub oldest_overdue_feed: Option<(String, DateTime<Utc>)>,
    /// Feeds whose last poll failed, most failures first.
    pub failing: Vec<FailingFeed>,
    /// Searched sources with feeds but no new item within [`SILENT_AFTER`], by name.
    pub silent: Vec<String>,
    /// Stories, and how many have not been through fuzzy dedup yet.
    pub stories: u64,
    /// Stories without a dedup signature (not compared yet).
    pub dedup_lag: u64,
}

/// The archive database's clock now: the time workers stamp heartbeats and leases in, for reading
/// the health at.
pub async fn database_now(archive: &Archive) -> Result<DateTime<Utc>> {
    Ok(store::workers::database_now(archive).await?)
}

/// Reads the archive's health at `now`.
pub async fn read(archive: &Archive, now: DateTime<Utc>) -> Result<Health> {
    let timeout = Duration::from_std(WORKER_TIMEOUT).unwrap_or(Duration::MAX);
    let leases = store::frontier::lease_counts(archive).await?;
    let claims = store::claims::list(archive).await?;
    let turns = store::turns::held(archive).await?;
    let mut workers: Vec<WorkerHealth> = store::workers::list(archive)
        .await?
        .into_iter()
        .map(|worker| WorkerHealth {
            alive: worker.heartbeat_at >= now - timeout,
            leases: leases.iter().find(|(owner, _)| *owner == worker.name).map_or(0, |(_, n)| *n),
            claims: claims
                .iter()
                .filter(|claim| claim.owner == worker.name && claim.until > now)
                .map(|claim| format!("{} {}", claim.kind, claim.key))
                .collect(),
            turns: turns
                .iter()
                .filter(|turn| turn.holder.as_deref() == Some(worker.name.as_str()))
                .map(|turn| turn.host.clone())
                .collect(),
            name: worker.name,
            host: worker.host,
            pid: worker.pid,
            heartbeat_at: worker.heartbeat_at,
        })
        .collect();
    workers.sort_by(|a, b| a.name.cmp(&b.name));

    let sources = store::sources::list(archive).await?;
    let feeds = store::feeds::list(archive).await?;
    let due = |at: Option<DateTime<Utc>>| at.is_none_or(|at| at <= now);
    let oldest_overdue_feed = feeds
        .iter()
        .filter_map(|feed| {
            feed.next_poll_at.filter(|at| *at <= now).map(|at| (feed.url.clone(), at))
        })
        .min_by_key(|(_, at)| *at);
    let name_of = |source_id: i64| {
        sources
            .iter()
            .find(|source| source.id == source_id)
            .map_or_else(String::new, |s| s.name.clone())
    };
    let mut failing: Vec<FailingFeed> = feeds
        .iter()
        .filter(|feed| feed.failure_count > 0.0)
        .map(|feed| FailingFeed {
            source: name_of(feed.source_id),
            url: feed.url.clone(),
            failures: feed.failure_count,
            last_status: feed.last_status.clone().unwrap_or_default(),
        })
        .collect();
    failing.sort_by(|a, b| b.failures.total_cmp(&a.failures).then_with(|| a.url.cmp(&b.url)));
    let silent: Vec<String> = sources
        .iter()
        .filter(|source| source.discovered_at.is_some())
        .filter(|source| {
            let own: Vec<_> = feeds.iter().filter(|feed| feed.source_id == source.id).collect();
            !own.is_empty()
                && own
                    .iter()
                    .all(|feed| feed.last_new_item_at.is_none_or(|at| at < now - SILENT_AFTER))
        })
        .map(|source| source.name.clone())
        .collect();
    let stories = store::stories::count(archive).await?;
    let signed = store::signatures::count(archive).await?;
    Ok(Health {
        now,
        workers,
        frontier: store::frontier::counts(archive).await?,
        oldest_overdue_url: store::frontier::next_due(archive).await?.filter(|at| *at <= now),
        sources: sources.len(),
        unsearched: sources.iter().filter(|source| source.discovered_at.is_none()).count(),
        feeds: feeds.len(),
        feeds_due: feeds.iter().filter(|feed| due(feed.next_poll_at)).count(),
        oldest_overdue_feed,
        failing,
        silent,
        stories,
        dedup_lag: stories.saturating_sub(signed),
    })
}
