//! Politeness: one request at a time per host, each starting at least an interval after the
//! previous one ended.
//!
//! [`HostGate::acquire`] gives out a [`Turn`] per host, one holder at a time (waiting tasks queue
//! in order). A turn waits until the interval has passed since the host's previous turn was given
//! back (and past any `Retry-After` block); the holder sends and keeps the turn until the response
//! is read. Counting from the end of the previous exchange
//! rather than from its start makes the guarantee hold as the server sees it: two requests arrive
//! at least an interval apart whatever the network delays, however many tasks ask at once.
//!
//! A host's interval is the crawler's default or its robots.txt `Crawl-delay`, whichever is
//! longer (capped at [`MAX_CRAWL_DELAY`]); a `Retry-After` (429, 503) blocks the host for a while
//! (capped at [`MAX_HOST_BACKOFF`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;
use tokio::time::Instant;

/// The longest `Crawl-delay` honoured; a larger one is capped (and the host stays reachable).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(120);

/// The longest `Retry-After` honoured for a whole host.
pub const MAX_HOST_BACKOFF: Duration = Duration::from_secs(3600);

#[derive(Debug)]
struct Host {
    /// When the last exchange with the host ended (its turn was given back, or a redirect
    /// response came back within a turn).
    last_done: Option<Instant>,
    interval: Duration,
    blocked_until: Option<Instant>,
}

impl Host {
    fn ready_at(&self) -> Option<Instant> {
        let after_last = self.last_done.map(|at| at + self.interval);
        after_last.max(self.blocked_until)
    }
}

/// Per-host turns. Share one gate across all tasks of a crawl.
#[derive(Debug)]
pub struct HostGate {
    default_interval: Duration,
    hosts: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Host>>>>,
}

/// The right to send the next request to one host. Hold it until the request is done.
#[derive(Debug)]
pub struct Turn {
    host: OwnedMutexGuard<Host>,
}

impl Turn {
    /// For a second request within one turn (a redirect back to the same host): the previous
    /// response has come back, so waits an interval from now.
    pub async fn again(&mut self) {
        self.host.last_done = Some(Instant::now());
        self.wait().await;
    }

    async fn wait(&mut self) {
        if let Some(at) = self.host.ready_at() {
            tokio::time::sleep_until(at).await;
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.host.last_done = Some(Instant::now());
    }
}

impl HostGate {
    /// A gate with this minimum interval between request starts to one host.
    pub fn new(default_interval: Duration) -> HostGate {
        HostGate { default_interval, hosts: Mutex::new(HashMap::new()) }
    }

    fn host(&self, host: &str) -> Arc<tokio::sync::Mutex<Host>> {
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(hosts.entry(host.to_ascii_lowercase()).or_insert_with(|| {
            Arc::new(tokio::sync::Mutex::new(Host {
                last_done: None,
                interval: self.default_interval,
                blocked_until: None,
            }))
        }))
    }

    /// Waits for `host`'s turn: no other holder, and its interval (or block) has passed.
    pub async fn acquire(&self, host: &str) -> Turn {
        let mut turn = Turn { host: self.host(host).lock_owned().await };
        turn.wait().await;
        turn
    }

    /// Applies a robots.txt `Crawl-delay` (seconds) to `host`, if longer than the default.
    pub async fn set_crawl_delay(&self, host: &str, seconds: f64) {
        let delay =
            Duration::try_from_secs_f64(seconds).unwrap_or(MAX_CRAWL_DELAY).min(MAX_CRAWL_DELAY);
        let cell = self.host(host);
        let mut state = cell.lock().await;
        state.interval = self.default_interval.max(delay);
    }

    /// Keeps every request to `host` from starting for `wait` (a `Retry-After`), capped.
    pub async fn back_off(&self, host: &str, wait: Duration) {
        let until = Instant::now() + wait.min(MAX_HOST_BACKOFF);
        let cell = self.host(host);
        let mut state = cell.lock().await;
        state.blocked_until = state.blocked_until.max(Some(until));
    }

    /// The interval in force for `host`.
    pub async fn interval(&self, host: &str) -> Duration {
        let cell = self.host(host);
        let state = cell.lock().await;
        state.interval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The clock is tokio's paused test clock: waits complete instantly and exactly.

    #[tokio::test(start_paused = true)]
    async fn starts_to_one_host_are_an_interval_apart() {
        let gate = HostGate::new(Duration::from_secs(5));
        let start = Instant::now();
        let mut starts = Vec::new();
        for _ in 0..4 {
            let _turn = gate.acquire("Daily.example").await;
            starts.push(Instant::now() - start);
            // The exchange takes a second; the next starts an interval after it ended.
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        assert_eq!(starts, [0, 6, 12, 18].map(Duration::from_secs));
        let _other = gate.acquire("other.example").await;
        assert_eq!(Instant::now() - start, Duration::from_secs(19), "hosts are independent");
    }

    #[tokio::test(start_paused = true)]
    async fn concurrent_tasks_never_start_closer_than_the_interval() {
        let gate = Arc::new(HostGate::new(Duration::from_millis(200)));
        let start = Instant::now();
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let gate = Arc::clone(&gate);
                tokio::spawn(async move {
                    let _turn = gate.acquire("daily.example").await;
                    // Some holders are held up after their turn came (a busy connection pool).
                    if i % 3 == 0 {
                        tokio::time::sleep(Duration::from_millis(70)).await;
                    }
                    let started = Instant::now() - start;
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    started
                })
            })
            .collect();
        let mut starts = Vec::new();
        for task in tasks {
            starts.push(task.await.unwrap());
        }
        starts.sort();
        for pair in starts.windows(2) {
            assert!(pair[1] - pair[0] >= Duration::from_millis(200), "{starts:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_redirect_back_to_a_held_host_waits_its_interval() {
        let gate = HostGate::new(Duration::from_secs(2));
        let start = Instant::now();
        let mut turn = gate.acquire("daily.example").await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        turn.again().await;
        assert_eq!(Instant::now() - start, Duration::from_secs(3));
    }

    #[tokio::test(start_paused = true)]
    async fn crawl_delay_lengthens_and_retry_after_pushes_out() {
        let gate = HostGate::new(Duration::from_secs(5));
        gate.set_crawl_delay("daily.example", 12.5).await;
        assert_eq!(gate.interval("daily.example").await, Duration::from_millis(12_500));
        gate.set_crawl_delay("fast.example", 1.0).await;
        assert_eq!(
            gate.interval("fast.example").await,
            Duration::from_secs(5),
            "never below the default"
        );
        gate.set_crawl_delay("slow.example", 1e9).await;
        assert_eq!(gate.interval("slow.example").await, MAX_CRAWL_DELAY);
        gate.set_crawl_delay("odd.example", f64::NAN).await;
        assert_eq!(gate.interval("odd.example").await, MAX_CRAWL_DELAY);

        let start = Instant::now();
        gate.back_off("busy.example", Duration::from_secs(60)).await;
        let _turn = gate.acquire("busy.example").await;
        assert_eq!(Instant::now() - start, Duration::from_secs(60));
    }
}
