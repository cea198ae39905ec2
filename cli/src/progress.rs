//! Progress of long runs: a status line on a terminal, periodic `tracing` summaries otherwise.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a crawl counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counter {
    /// Sources whose feeds and sitemaps were searched.
    Discovered,
    /// Feed and sitemap polls.
    Polled,
    /// URLs newly put in the frontier.
    Queued,
    /// Article responses received.
    Fetched,
    /// New stories stored.
    Stored,
    /// Articles that led to a story already stored.
    Known,
    /// URLs deliberately not stored (robots.txt, not HTML, too short).
    Skipped,
    /// URLs kept for later without a request (their host's robots.txt cannot be read now).
    Deferred,
    /// Requests or polls that failed.
    Failed,
    /// Fuzzy dedup links found (duplicate or similar).
    Linked,
}

const COUNTERS: [Counter; 10] = [
    Counter::Discovered,
    Counter::Polled,
    Counter::Queued,
    Counter::Fetched,
    Counter::Stored,
    Counter::Known,
    Counter::Skipped,
    Counter::Deferred,
    Counter::Failed,
    Counter::Linked,
];

impl Counter {
    fn name(self) -> &'static str {
        match self {
            Counter::Discovered => "sources searched",
            Counter::Polled => "polls",
            Counter::Queued => "URLs queued",
            Counter::Fetched => "pages fetched",
            Counter::Stored => "stories stored",
            Counter::Known => "already known",
            Counter::Skipped => "skipped",
            Counter::Deferred => "deferred",
            Counter::Failed => "failed",
            Counter::Linked => "dedup links",
        }
    }
}

/// Work in progress, shown while it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Activity {
    /// Sources whose feeds and sitemaps are being searched.
    Searching,
    /// Feeds and sitemaps being polled.
    Polling,
}

const ACTIVITIES: [Activity; 2] = [Activity::Searching, Activity::Polling];

impl Activity {
    fn describe(self, n: u64) -> String {
        match self {
            Activity::Searching => format!("searching {n} source{}", if n == 1 { "" } else { "s" }),
            Activity::Polling => format!("polling {n} feed{}", if n == 1 { "" } else { "s" }),
        }
    }
}

/// Shared counters of a run.
#[derive(Debug)]
pub(crate) struct Progress {
    counts: [AtomicU64; COUNTERS.len()],
    active: [AtomicU64; ACTIVITIES.len()],
    started: Instant,
}

/// Counts one piece of work in progress until dropped.
#[derive(Debug)]
pub(crate) struct Busy {
    progress: Arc<Progress>,
    activity: Activity,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.progress.active[self.activity as usize].fetch_sub(1, Ordering::Relaxed);
    }
}

impl Progress {
    pub(crate) fn new() -> Arc<Progress> {
        Arc::new(Progress {
            counts: Default::default(),
            active: Default::default(),
            started: Instant::now(),
        })
    }

    /// Counts one piece of work as in progress until the returned guard is dropped.
    pub(crate) fn begin(self: &Arc<Progress>, activity: Activity) -> Busy {
        self.active[activity as usize].fetch_add(1, Ordering::Relaxed);
        Busy { progress: Arc::clone(self), activity }
    }

    pub(crate) fn add(&self, counter: Counter, n: u64) {
        self.counts[counter as usize].fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn get(&self, counter: Counter) -> u64 {
        self.counts[counter as usize].load(Ordering::Relaxed)
    }

    /// `searching 2 sources, 12 polls, 240 pages fetched, 231 stories stored, … in 1m12s`: the
    /// work in progress, then the counts, leaving out zeros.
    pub(crate) fn summary(&self) -> String {
        let busy = ACTIVITIES.iter().filter_map(|&activity| {
            let n = self.active[activity as usize].load(Ordering::Relaxed);
            (n > 0).then(|| activity.describe(n))
        });
        let parts: Vec<String> = busy
            .chain(
                COUNTERS
                    .iter()
                    .filter(|&&c| self.get(c) > 0)
                    .map(|&c| format!("{} {}", self.get(c), c.name())),
            )
            .collect();
        let what = if parts.is_empty() { "nothing to do".to_owned() } else { parts.join(", ") };
        format!("{what} in {}", human(self.started.elapsed()))
    }

    /// Shows progress until the returned guard is dropped: a status line redrawn four times a
    /// second when standard error is a terminal, an info log every 30 s otherwise.
    pub(crate) fn show(self: &Arc<Progress>) -> Ticker {
        let terminal = std::io::stderr().is_terminal();
        let progress = Arc::clone(self);
        let every = if terminal { Duration::from_millis(250) } else { Duration::from_secs(30) };
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                if terminal {
                    let pages = progress.get(Counter::Fetched) as f64;
                    let rate = pages / progress.started.elapsed().as_secs_f64().max(0.001);
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r\x1b[2K{} ({rate:.0} pages/s)", progress.summary());
                    let _ = err.flush();
                } else {
                    tracing::info!(progress = %progress.summary(), "crawling");
                }
            }
        });
        Ticker { task, terminal }
    }
}

/// Stops the progress display when dropped, clearing the status line.
#[derive(Debug)]
pub(crate) struct Ticker {
    task: tokio::task::JoinHandle<()>,
    terminal: bool,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.task.abort();
        if self.terminal {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

/// `1h02m`, `3m05s`, `12.3s`.
pub(crate) fn human(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    if secs >= 3600 {
        format!("{}h{:02}m", secs / 3600, secs % 3600 / 60)
    } else if secs >= 60 {
        format!("{}m{:02}s", secs / 60, secs % 60)
    } else {
        format!("{:.1}s", elapsed.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_leave_out_zeros() {
        let progress = Progress::new();
        assert!(progress.summary().starts_with("nothing to do in "));
        progress.add(Counter::Fetched, 3);
        progress.add(Counter::Stored, 2);
        assert!(progress.summary().starts_with("3 pages fetched, 2 stories stored in "));
        let searching = progress.begin(Activity::Searching);
        let _polling = progress.begin(Activity::Polling);
        assert!(
            progress.summary().starts_with("searching 1 source, polling 1 feed, 3 pages fetched"),
            "{}",
            progress.summary()
        );
        drop(searching);
        assert!(progress.summary().starts_with("polling 1 feed, 3 pages"));
        assert_eq!(human(Duration::from_secs(3725)), "1h02m");
        assert_eq!(human(Duration::from_secs(185)), "3m05s");
    }
}
