//! Politeness: at most one request start per host per interval, across everything the crawler does.
//!
//! [`HostGate::turn`] hands out start times per host: each caller reserves the next free slot
//! (the later of now and the host's previous slot plus its interval) and waits for it, so two
//! request starts to one host are never closer than the interval, however many tasks ask at once.
//! A host's interval is the crawler's default or its robots.txt `Crawl-delay`, whichever is
//! longer; a `Retry-After` (429, 503) pushes the host's next slot out.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// The longest `Crawl-delay` honoured; a larger one is capped (and the host stays reachable).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(120);

/// The longest `Retry-After` honoured for a whole host.
pub const MAX_HOST_BACKOFF: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, Copy)]
struct Host {
    next: Instant,
    interval: Duration,
}

/// Per-host start times. Share one gate across all tasks of a crawl.
#[derive(Debug)]
pub struct HostGate {
    default_interval: Duration,
    hosts: Mutex<HashMap<String, Host>>,
}

impl HostGate {
    /// A gate with this minimum interval between request starts to one host.
    pub fn new(default_interval: Duration) -> HostGate {
        HostGate { default_interval, hosts: Mutex::new(HashMap::new()) }
    }

    /// Reserves the next start slot for `host` and returns when it is; does not wait.
    pub fn reserve(&self, host: &str) -> Instant {
        let now = Instant::now();
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = hosts
            .entry(host.to_ascii_lowercase())
            .or_insert(Host { next: now, interval: self.default_interval });
        let slot = entry.next.max(now);
        entry.next = slot + entry.interval;
        slot
    }

    /// Waits for `host`'s next slot. Call right before starting a request.
    pub async fn turn(&self, host: &str) {
        let slot = self.reserve(host);
        tokio::time::sleep_until(slot).await;
    }

    /// Applies a robots.txt `Crawl-delay` (seconds) to `host`, if longer than the default.
    pub fn set_crawl_delay(&self, host: &str, seconds: f64) {
        let delay =
            Duration::try_from_secs_f64(seconds).unwrap_or(MAX_CRAWL_DELAY).min(MAX_CRAWL_DELAY);
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        let entry = hosts
            .entry(host.to_ascii_lowercase())
            .or_insert(Host { next: now, interval: self.default_interval });
        entry.interval = self.default_interval.max(delay);
    }

    /// Keeps every request to `host` from starting for `wait` (a `Retry-After`), capped.
    pub fn back_off(&self, host: &str, wait: Duration) {
        let until = Instant::now() + wait.min(MAX_HOST_BACKOFF);
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = hosts
            .entry(host.to_ascii_lowercase())
            .or_insert(Host { next: until, interval: self.default_interval });
        entry.next = entry.next.max(until);
    }

    /// The interval in force for `host`.
    pub fn interval(&self, host: &str) -> Duration {
        let hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        hosts.get(&host.to_ascii_lowercase()).map_or(self.default_interval, |h| h.interval)
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
        let slots: Vec<Duration> = (0..4).map(|_| gate.reserve("Daily.example") - start).collect();
        assert_eq!(slots, [0, 5, 10, 15].map(Duration::from_secs));
        assert_eq!(gate.reserve("other.example") - start, Duration::ZERO, "hosts are independent");
    }

    #[tokio::test(start_paused = true)]
    async fn concurrent_tasks_never_start_closer_than_the_interval() {
        let gate = std::sync::Arc::new(HostGate::new(Duration::from_millis(200)));
        let start = Instant::now();
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let gate = std::sync::Arc::clone(&gate);
                tokio::spawn(async move {
                    gate.turn("daily.example").await;
                    Instant::now() - start
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
    async fn crawl_delay_lengthens_and_retry_after_pushes_out() {
        let gate = HostGate::new(Duration::from_secs(5));
        gate.set_crawl_delay("daily.example", 12.5);
        assert_eq!(gate.interval("daily.example"), Duration::from_millis(12_500));
        gate.set_crawl_delay("fast.example", 1.0);
        assert_eq!(
            gate.interval("fast.example"),
            Duration::from_secs(5),
            "never below the default"
        );
        gate.set_crawl_delay("slow.example", 1e9);
        assert_eq!(gate.interval("slow.example"), MAX_CRAWL_DELAY);
        gate.set_crawl_delay("odd.example", f64::NAN);
        assert_eq!(gate.interval("odd.example"), MAX_CRAWL_DELAY);

        let start = Instant::now();
        gate.back_off("busy.example", Duration::from_secs(60));
        assert_eq!(gate.reserve("busy.example") - start, Duration::from_secs(60));
    }
}
