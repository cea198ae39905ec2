//! What a crawl reports as it goes: shared counters of work done and of work in progress.
//!
//! The engine only counts; a front end reads the counts when it likes (the `morgue` command draws
//! a status line from them, a worker may export them as metrics). Counting is a relaxed atomic
//! add, so it costs the crawl nothing measurable.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a crawl counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// Sources whose feeds and sitemaps were searched.
    Discovered,
    /// Feed and sitemap polls.
    Polled,
    /// URLs newly put in the frontier.
    Queued,
    /// Article responses received.
    Fetched,
    /// Article pages taken from the archive instead of requested again (fetched during discovery,
    /// at the end of another URL's redirects, or before a crash).
    Reused,
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

impl Counter {
    /// Every counter, in the order a summary gives them.
    pub const ALL: [Counter; 11] = [
        Counter::Discovered,
        Counter::Polled,
        Counter::Queued,
        Counter::Fetched,
        Counter::Reused,
        Counter::Stored,
        Counter::Known,
        Counter::Skipped,
        Counter::Deferred,
        Counter::Failed,
        Counter::Linked,
    ];
}

/// Work in progress, counted while it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Activity {
    /// Sources whose feeds and sitemaps are being searched.
    Searching,
    /// Feeds and sitemaps being polled.
    Polling,
}

impl Activity {
    /// Every activity, in the order a summary gives them.
    pub const ALL: [Activity; 2] = [Activity::Searching, Activity::Polling];
}

/// The shared counters of a run.
#[derive(Debug, Default)]
pub struct Progress {
    counts: [AtomicU64; Counter::ALL.len()],
    active: [AtomicU64; Activity::ALL.len()],
}

/// Counts one piece of work in progress until dropped.
#[derive(Debug)]
pub struct Busy {
    progress: Arc<Progress>,
    activity: Activity,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.progress.active[self.activity as usize].fetch_sub(1, Ordering::Relaxed);
    }
}

impl Progress {
    /// Counters at zero, to share between the engine and whoever shows them.
    pub fn new() -> Arc<Progress> {
        Arc::new(Progress::default())
    }

    /// Counts one piece of work as in progress until the returned guard is dropped.
    pub fn begin(self: &Arc<Progress>, activity: Activity) -> Busy {
        self.active[activity as usize].fetch_add(1, Ordering::Relaxed);
        Busy { progress: Arc::clone(self), activity }
    }

    /// Adds `n` to a counter.
    pub fn add(&self, counter: Counter, n: u64) {
        self.counts[counter as usize].fetch_add(n, Ordering::Relaxed);
    }

    /// A counter's value.
    pub fn get(&self, counter: Counter) -> u64 {
        self.counts[counter as usize].load(Ordering::Relaxed)
    }

    /// How many pieces of this work are in progress.
    pub fn active(&self, activity: Activity) -> u64 {
        self.active[activity as usize].load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_work_in_progress_ends_with_its_guard() {
        let progress = Progress::new();
        progress.add(Counter::Fetched, 3);
        progress.add(Counter::Fetched, 2);
        assert_eq!(progress.get(Counter::Fetched), 5);
        assert_eq!(progress.get(Counter::Stored), 0);
        let searching = progress.begin(Activity::Searching);
        let _also = progress.begin(Activity::Searching);
        assert_eq!(progress.active(Activity::Searching), 2);
        drop(searching);
        assert_eq!(progress.active(Activity::Searching), 1);
        assert_eq!(progress.active(Activity::Polling), 0);
    }
}
