//! Prometheus metrics of this process and its archive, through `prometheus-client`'s registry,
//! rendered as OpenMetrics text by [`render`] (which `morgue run --metrics ADDR` serves at
//! `/metrics`, and any front end may route).
//!
//! What this process did is counted as it happens: requests by outcome (`2xx` … `5xx`, `error`
//! when no response came, `archived` for an article page found archived instead of requested),
//! bytes received, request latency, stories stored. What the archive holds is read when rendered,
//! so that every worker (and `morgue serve`) reports the same queues: frontier entries by state,
//! feeds due for a poll, stories stored per minute over the last ten minutes (every worker's),
//! and dedup lag (stories not compared yet). One registry per process ([`global`]): a scrape sees
//! this process's counters since it started, as Prometheus expects.

use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;

use chrono::{Duration, Utc};
use crawler::fetch::{FetchError, Fetched};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use store::Archive;

use crate::Result;

/// The `Content-Type` of what [`render`] returns.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// How far back "stories per minute" looks.
const RATE_WINDOW_MINUTES: i64 = 10;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Queue {
    kind: &'static str,
}

/// The process's metrics.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    fetches: Family<Outcome, Counter>,
    bytes: Counter,
    latency: Histogram,
    stories: Counter,
    queues: Family<Queue, Gauge>,
    stories_per_minute: Gauge<f64, AtomicU64>,
    dedup_lag: Gauge,
    stories_total: Gauge,
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("morgue");
        let fetches = Family::<Outcome, Counter>::default();
        // Every outcome shows from the start, at zero.
        for outcome in ["2xx", "3xx", "4xx", "5xx", "other", "error", "archived"] {
            let _ = fetches.get_or_create(&Outcome { outcome });
        }
        registry.register(
            "fetches",
            "HTTP requests made, by outcome (status class, error, or archived: not requested)",
            fetches.clone(),
        );
        let bytes = Counter::default();
        registry.register("fetched_bytes", "Response body bytes received", bytes.clone());
        // 5 ms to about 82 s.
        let latency = Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(
            0.005, 2.0, 15,
        ));
        registry.register(
            "fetch_duration_seconds",
            "Time from request to the end of the body, redirects included",
            latency.clone(),
        );
        let stories = Counter::default();
        registry.register("stories_stored", "New stories stored by this process", stories.clone());
        let queues = Family::<Queue, Gauge>::default();
        registry.register(
            "queue_depth",
            "Work waiting in the archive: frontier entries by state, feeds due for a poll",
            queues.clone(),
        );
        let stories_per_minute = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "stories_per_minute",
            "Stories stored by every worker, per minute over the last ten minutes",
            stories_per_minute.clone(),
        );
        let dedup_lag = Gauge::default();
        registry.register(
            "dedup_lag_stories",
            "Stories not yet compared by fuzzy dedup",
            dedup_lag.clone(),
        );
        let stories_total = Gauge::default();
        registry.register("archive_stories", "Stories in the archive", stories_total.clone());
        Metrics {
            registry,
            fetches,
            bytes,
            latency,
            stories,
            queues,
            stories_per_minute,
            dedup_lag,
            stories_total,
        }
    }

    /// Counts one request and what came of it.
    pub(crate) fn fetch(&self, result: std::result::Result<&Fetched, &FetchError>) {
        match result {
            Ok(fetched) => {
                let outcome = match fetched.status {
                    200..=299 => "2xx",
                    300..=399 => "3xx",
                    400..=499 => "4xx",
                    500..=599 => "5xx",
                    _ => "other",
                };
                self.fetches.get_or_create(&Outcome { outcome }).inc();
                self.bytes.inc_by(fetched.body.len() as u64);
                self.latency.observe(fetched.total_ms as f64 / 1000.0);
            }
            // Never requested: nothing to count.
            Err(
                FetchError::Denied { .. }
                | FetchError::RobotsUnreachable { .. }
                | FetchError::Declined { .. },
            ) => {}
            Err(_) => {
                self.fetches.get_or_create(&Outcome { outcome: "error" }).inc();
            }
        }
    }

    /// Counts an article page found archived instead of requested.
    pub(crate) fn reused(&self) {
        self.fetches.get_or_create(&Outcome { outcome: "archived" }).inc();
    }

    /// Counts a new story.
    pub(crate) fn stored(&self) {
        self.stories.inc();
    }

    /// Reads the archive's gauges.
    async fn refresh(&self, archive: &Archive) -> Result<()> {
        let now = Utc::now();
        for state in store::frontier::State::ALL {
            self.queues.get_or_create(&Queue { kind: frontier_kind(state) }).set(0);
        }
        for (state, count) in store::frontier::counts(archive).await? {
            self.queues.get_or_create(&Queue { kind: frontier_kind(state) }).set(count);
        }
        let due = store::feeds::count_due(archive, now).await?;
        self.queues.get_or_create(&Queue { kind: "feeds_due" }).set(saturating(due));
        let recent = store::stories::count_created_since(
            archive,
            now - Duration::minutes(RATE_WINDOW_MINUTES),
        )
        .await?;
        self.stories_per_minute.set(recent as f64 / RATE_WINDOW_MINUTES as f64);
        let stories = store::stories::count(archive).await?;
        let signed = store::signatures::count(archive).await?;
        self.stories_total.set(saturating(stories));
        self.dedup_lag.set(saturating(stories.saturating_sub(signed)));
        Ok(())
    }
}

fn saturating(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn frontier_kind(state: store::frontier::State) -> &'static str {
    use store::frontier::State;
    match state {
        State::Pending => "frontier_pending",
        State::Leased => "frontier_leased",
        State::Done => "frontier_done",
        State::Failed => "frontier_failed",
        State::Skipped => "frontier_skipped",
    }
}

/// This process's metrics.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// The metrics as OpenMetrics text ([`CONTENT_TYPE`]), the archive's gauges read now.
pub async fn render(archive: &Archive) -> Result<String> {
    let metrics = global();
    metrics.refresh(archive).await?;
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut text, &metrics.registry);
    Ok(text)
}
