//! Progress of long runs, rendered from the engine's counters: a status line on a terminal,
//! periodic `tracing` summaries otherwise.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::progress::{Activity, Counter, Progress};

/// A counter's name for people.
fn name(counter: Counter) -> &'static str {
    match counter {
        Counter::Discovered => "sources searched",
        Counter::Polled => "polls",
        Counter::Queued => "URLs queued",
        Counter::Fetched => "pages fetched",
        Counter::Reused => "pages found archived",
        Counter::Stored => "stories stored",
        Counter::Known => "already known",
        Counter::Skipped => "skipped",
        Counter::Deferred => "deferred",
        Counter::Failed => "failed",
        Counter::Linked => "dedup links",
    }
}

/// Work in progress for people: `searching 2 sources`.
fn describe(activity: Activity, n: u64) -> String {
    let s = if n == 1 { "" } else { "s" };
    match activity {
        Activity::Searching => format!("searching {n} source{s}"),
        Activity::Polling => format!("polling {n} feed{s}"),
    }
}

/// The counters of a run and when it started.
#[derive(Debug)]
pub(crate) struct Status {
    counts: Arc<Progress>,
    started: Instant,
}

impl Status {
    /// Counters at zero, started now.
    pub(crate) fn new() -> Arc<Status> {
        Arc::new(Status { counts: Progress::new(), started: Instant::now() })
    }

    /// The counters, for the engine to count on.
    pub(crate) fn counts(&self) -> Arc<Progress> {
        Arc::clone(&self.counts)
    }

    pub(crate) fn get(&self, counter: Counter) -> u64 {
        self.counts.get(counter)
    }

    /// `searching 2 sources, 12 polls, 240 pages fetched, 231 stories stored, … in 1m12s`: the
    /// work in progress, then the counts, leaving out zeros.
    pub(crate) fn summary(&self) -> String {
        let busy = Activity::ALL.iter().filter_map(|&activity| {
            let n = self.counts.active(activity);
            (n > 0).then(|| describe(activity, n))
        });
        let parts: Vec<String> = busy
            .chain(
                Counter::ALL
                    .iter()
                    .filter(|&&c| self.get(c) > 0)
                    .map(|&c| format!("{} {}", self.get(c), name(c))),
            )
            .collect();
        let what = if parts.is_empty() { "nothing to do".to_owned() } else { parts.join(", ") };
        format!("{what} in {}", human(self.started.elapsed()))
    }

    /// Shows progress until the returned guard is dropped: a status line redrawn four times a
    /// second when standard error is a terminal, an info log every 30 s otherwise.
    pub(crate) fn show(self: &Arc<Status>) -> Ticker {
        let terminal = std::io::stderr().is_terminal();
        let status = Arc::clone(self);
        let every = if terminal { Duration::from_millis(250) } else { Duration::from_secs(30) };
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                if terminal {
                    let pages = status.get(Counter::Fetched) as f64;
                    let rate = pages / status.started.elapsed().as_secs_f64().max(0.001);
                    let mut err = std::io::stderr().lock();
                    let _ = write!(err, "\r\x1b[2K{} ({rate:.0} pages/s)", status.summary());
                    let _ = err.flush();
                } else {
                    tracing::info!(progress = %status.summary(), "crawling");
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
        let status = Status::new();
        assert!(status.summary().starts_with("nothing to do in "));
        let counts = status.counts();
        counts.add(Counter::Fetched, 3);
        counts.add(Counter::Stored, 2);
        assert!(status.summary().starts_with("3 pages fetched, 2 stories stored in "));
        let searching = counts.begin(Activity::Searching);
        let _polling = counts.begin(Activity::Polling);
        assert!(
            status.summary().starts_with("searching 1 source, polling 1 feed, 3 pages fetched"),
            "{}",
            status.summary()
        );
        drop(searching);
        assert!(status.summary().starts_with("polling 1 feed, 3 pages"));
        assert_eq!(human(Duration::from_secs(3725)), "1h02m");
        assert_eq!(human(Duration::from_secs(185)), "3m05s");
    }
}
