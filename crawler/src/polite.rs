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
//!
//! **Across processes.** A gate made with [`HostGate::shared`] also claims each turn from a
//! [`SharedTurns`] (the archive's table of host turns, when several workers crawl one archive)
//! once the process's own turn has come, and gives it back with the host's next allowed time when
//! the exchange ends: the same rule, held across every worker. The process's own turns stay the
//! fast path (its tasks queue in memory; only the head of a host's queue asks the shared table).
//! A shared claim lasts at most [`HostGate::hold`] (a worker that dies holding one blocks the host
//! that long); a turn kept longer (waiting for a slot) renews its claim first ([`Turn::keep`]).
//! While the shared table cannot be reached, turns wait and ask again with backoff: politeness is
//! never given up for progress.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;
use tokio::time::Instant;

/// The longest `Crawl-delay` honoured; a larger one is capped (and the host stays reachable).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(120);

/// The longest `Retry-After` honoured for a whole host.
pub const MAX_HOST_BACKOFF: Duration = Duration::from_secs(3600);

/// The longest wait between two asks for a shared turn that another process holds.
const MAX_SHARED_POLL: Duration = Duration::from_secs(1);

/// The longest wait between two asks while the shared turns cannot be reached.
const MAX_SHARED_RETRY: Duration = Duration::from_secs(30);

/// What [`SharedTurns::claim`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedClaim {
    /// The turn is this process's, under the token it gave.
    Taken,
    /// Not now: ask again in `retry_in` at the latest.
    Busy {
        /// When the host's turn comes (or the claim of a process holding it expires).
        retry_in: Duration,
        /// Whether another process holds the turn now (and may give it back sooner).
        held: bool,
    },
}

/// The future a [`SharedTurns`] method returns; an error is a message for the logs.
pub type SharedFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, String>> + Send + 'a>>;

/// Host turns shared with other processes (the archive's `host_turns`, in the engine).
pub trait SharedTurns: Send + Sync {
    /// Claims `host`'s turn under `token` for at most `hold`, if its next allowed time has come;
    /// `interval` is the host's interval as this process knows it (kept with the claim, for a
    /// successor of this process that takes over its turns).
    fn claim<'a>(
        &'a self,
        host: &'a str,
        token: i64,
        interval: Duration,
        hold: Duration,
    ) -> SharedFuture<'a, SharedClaim>;
    /// Keeps a claimed turn another `hold`; `false` when it is not this process's any more.
    fn renew<'a>(&'a self, host: &'a str, token: i64, hold: Duration) -> SharedFuture<'a, bool>;
    /// Gives a claimed turn back: the host's next request may start `next_in` from now.
    fn release<'a>(&'a self, host: &'a str, token: i64, next_in: Duration) -> SharedFuture<'a, ()>;
}

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

    /// From now, how long until the host's next request may start, once an exchange ends now.
    fn next_in(&self, now: Instant) -> Duration {
        let blocked =
            self.blocked_until.map_or(Duration::ZERO, |at| at.saturating_duration_since(now));
        self.interval.max(blocked)
    }
}

/// Where a gate's turns are shared with other processes.
#[derive(Clone)]
struct Sharing {
    turns: Arc<dyn SharedTurns>,
    hold: Duration,
    tokens: Arc<AtomicI64>,
}

impl std::fmt::Debug for Sharing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sharing").field("hold", &self.hold).finish_non_exhaustive()
    }
}

/// Per-host turns. Share one gate across all tasks of a crawl.
#[derive(Debug)]
pub struct HostGate {
    default_interval: Duration,
    hosts: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Host>>>>,
    sharing: Option<Sharing>,
}

/// A shared claim a turn holds.
#[derive(Debug)]
struct Claimed {
    token: i64,
    at: Instant,
}

/// The right to send the next request to one host. Hold it until the request is done, then
/// give it back with [`Turn::finish`] (dropping it gives it back too, the shared part from a
/// task of its own).
#[derive(Debug)]
pub struct Turn {
    host: OwnedMutexGuard<Host>,
    name: String,
    sharing: Option<Sharing>,
    claimed: Option<Claimed>,
}

impl Turn {
    /// For a second request within one turn (a redirect back to the same host): the previous
    /// response has come back, so waits an interval from now.
    pub async fn again(&mut self) {
        self.give_back_shared().await;
        self.host.last_done = Some(Instant::now());
        self.wait().await;
    }

    /// Makes sure the shared claim still holds before sending (the turn may have waited for a
    /// slot): renews it when half its time has passed, or claims the turn again if it was lost.
    pub async fn keep(&mut self) {
        let Some(sharing) = self.sharing.clone() else { return };
        let Some(claimed) = &self.claimed else {
            self.claim_shared().await;
            return;
        };
        if claimed.at.elapsed() < sharing.hold / 2 {
            return;
        }
        let token = claimed.token;
        match sharing.turns.renew(&self.name, token, sharing.hold).await {
            Ok(true) => {
                self.claimed = Some(Claimed { token, at: Instant::now() });
            }
            Ok(false) | Err(_) => {
                self.claimed = None;
                self.claim_shared().await;
            }
        }
    }

    /// Applies a robots.txt `Crawl-delay` (seconds) to this turn's host, if longer than `floor`.
    pub fn set_crawl_delay(&mut self, floor: Duration, seconds: f64) {
        self.host.interval = floor.max(crawl_delay(seconds));
    }

    /// Gives the turn back at the end of an exchange; `block` keeps the host's next request from
    /// starting for that long (a `Retry-After`, capped), if longer than its interval.
    pub async fn finish(mut self, block: Option<Duration>) {
        let now = Instant::now();
        if let Some(wait) = block {
            let until = now + wait.min(MAX_HOST_BACKOFF);
            self.host.blocked_until = self.host.blocked_until.max(Some(until));
        }
        self.host.last_done = Some(now);
        self.give_back_shared().await;
    }

    async fn wait(&mut self) {
        if let Some(at) = self.host.ready_at() {
            tokio::time::sleep_until(at).await;
        }
        self.claim_shared().await;
    }

    /// Claims the shared turn, waiting while another process holds it or the host's time has not
    /// come, and asking again with backoff while the shared turns cannot be reached.
    async fn claim_shared(&mut self) {
        let Some(sharing) = self.sharing.clone() else { return };
        let mut poll = Duration::from_millis(10);
        let mut retry = Duration::from_millis(250);
        loop {
            let token = sharing.tokens.fetch_add(1, Ordering::Relaxed);
            let interval = self.host.interval;
            match sharing.turns.claim(&self.name, token, interval, sharing.hold).await {
                Ok(SharedClaim::Taken) => {
                    self.claimed = Some(Claimed { token, at: Instant::now() });
                    return;
                }
                Ok(SharedClaim::Busy { retry_in, held }) => {
                    let wait = if held { retry_in.min(poll) } else { retry_in };
                    poll = (poll * 2).min(MAX_SHARED_POLL);
                    tokio::time::sleep(wait.max(Duration::from_millis(1))).await;
                }
                Err(message) => {
                    tracing::warn!(host = %self.name, "cannot claim the host's shared turn ({message}); asking again in {retry:?}");
                    tokio::time::sleep(retry).await;
                    retry = (retry * 2).min(MAX_SHARED_RETRY);
                }
            }
        }
    }

    async fn give_back_shared(&mut self) {
        let (Some(sharing), Some(claimed)) = (&self.sharing, self.claimed.take()) else { return };
        let next_in = self.host.next_in(Instant::now());
        if let Err(message) = sharing.turns.release(&self.name, claimed.token, next_in).await {
            // The claim expires by itself; the host waits that long.
            tracing::warn!(host = %self.name, "cannot give back the host's shared turn: {message}");
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let now = Instant::now();
        self.host.last_done = Some(now);
        if let (Some(sharing), Some(claimed)) = (self.sharing.take(), self.claimed.take()) {
            let next_in = self.host.next_in(now);
            let name = std::mem::take(&mut self.name);
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    let _ = sharing.turns.release(&name, claimed.token, next_in).await;
                });
            }
        }
    }
}

fn crawl_delay(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds).unwrap_or(MAX_CRAWL_DELAY).min(MAX_CRAWL_DELAY)
}

impl HostGate {
    /// A gate with this minimum interval between request starts to one host.
    pub fn new(default_interval: Duration) -> HostGate {
        HostGate { default_interval, hosts: Mutex::new(HashMap::new()), sharing: None }
    }

    /// A gate whose turns are also claimed from `turns`, shared with other processes, each claim
    /// lasting at most `hold` unless renewed (longer than any exchange takes).
    pub fn shared(
        default_interval: Duration,
        turns: Arc<dyn SharedTurns>,
        hold: Duration,
    ) -> HostGate {
        // Tokens need only differ between this process's claims and a predecessor's of the same
        // name: start from the clock.
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| i64::try_from(since.as_micros()).unwrap_or(0));
        let sharing = Sharing { turns, hold, tokens: Arc::new(AtomicI64::new(start)) };
        HostGate { sharing: Some(sharing), ..HostGate::new(default_interval) }
    }

    /// How long a shared claim lasts unless renewed; `None` when turns are not shared.
    pub fn hold(&self) -> Option<Duration> {
        self.sharing.as_ref().map(|sharing| sharing.hold)
    }

    /// The default interval.
    pub fn default_interval(&self) -> Duration {
        self.default_interval
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

    /// Waits for `host`'s turn: no other holder, and its interval (or block) has passed; with
    /// shared turns, the shared turn claimed too.
    pub async fn acquire(&self, host: &str) -> Turn {
        let mut turn = Turn {
            host: self.host(host).lock_owned().await,
            name: host.to_ascii_lowercase(),
            sharing: self.sharing.clone(),
            claimed: None,
        };
        turn.wait().await;
        turn
    }

    /// Applies a robots.txt `Crawl-delay` (seconds) to `host`, if longer than the default.
    pub async fn set_crawl_delay(&self, host: &str, seconds: f64) {
        let cell = self.host(host);
        let mut state = cell.lock().await;
        state.interval = self.default_interval.max(crawl_delay(seconds));
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

    /// Turns shared in memory, as two processes would share the archive's table.
    #[derive(Default)]
    struct Table {
        /// Per host: the next allowed start, and the token of a claim in force.
        hosts: Mutex<HashMap<String, (Instant, Option<i64>)>>,
        claims: std::sync::atomic::AtomicUsize,
    }

    impl SharedTurns for Table {
        fn claim<'a>(
            &'a self,
            host: &'a str,
            token: i64,
            _interval: Duration,
            hold: Duration,
        ) -> SharedFuture<'a, SharedClaim> {
            Box::pin(async move {
                self.claims.fetch_add(1, Ordering::Relaxed);
                let now = Instant::now();
                let mut hosts = self.hosts.lock().unwrap();
                let entry = hosts.entry(host.to_owned()).or_insert((now, None));
                if entry.0 <= now {
                    *entry = (now + hold, Some(token));
                    return Ok(SharedClaim::Taken);
                }
                Ok(SharedClaim::Busy { retry_in: entry.0 - now, held: entry.1.is_some() })
            })
        }

        fn renew<'a>(
            &'a self,
            host: &'a str,
            token: i64,
            hold: Duration,
        ) -> SharedFuture<'a, bool> {
            Box::pin(async move {
                let now = Instant::now();
                let mut hosts = self.hosts.lock().unwrap();
                match hosts.get_mut(host) {
                    Some(entry) if entry.1 == Some(token) && entry.0 > now => {
                        entry.0 = now + hold;
                        Ok(true)
                    }
                    _ => Ok(false),
                }
            })
        }

        fn release<'a>(
            &'a self,
            host: &'a str,
            token: i64,
            next_in: Duration,
        ) -> SharedFuture<'a, ()> {
            Box::pin(async move {
                let mut hosts = self.hosts.lock().unwrap();
                if let Some(entry) = hosts.get_mut(host).filter(|entry| entry.1 == Some(token)) {
                    *entry = (Instant::now() + next_in, None);
                }
                Ok(())
            })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn two_processes_sharing_turns_never_start_closer_than_the_interval() {
        let table = Arc::new(Table::default());
        let hold = Duration::from_secs(90);
        let gates: Vec<Arc<HostGate>> = (0..2)
            .map(|_| {
                let turns: Arc<dyn SharedTurns> = Arc::clone(&table) as Arc<dyn SharedTurns>;
                Arc::new(HostGate::shared(Duration::from_millis(200), turns, hold))
            })
            .collect();
        let start = Instant::now();
        let tasks: Vec<_> = (0..10)
            .map(|i| {
                let gate = Arc::clone(&gates[i % 2]);
                tokio::spawn(async move {
                    let turn = gate.acquire("daily.example").await;
                    let started = Instant::now() - start;
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    let ended = Instant::now() - start;
                    turn.finish(None).await;
                    (started, ended)
                })
            })
            .collect();
        let mut exchanges = Vec::new();
        for task in tasks {
            exchanges.push(task.await.unwrap());
        }
        exchanges.sort();
        for pair in exchanges.windows(2) {
            assert!(pair[1].0 >= pair[0].1 + Duration::from_millis(200), "{exchanges:?}");
        }
        // Only the head of each process's queue asks the table, and not much more often than
        // there are turns (a busy host is asked again when its time comes).
        assert!(
            table.claims.load(Ordering::Relaxed) < 60,
            "{}",
            table.claims.load(Ordering::Relaxed)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_shared_block_and_a_crawl_delay_hold_for_the_other_process() {
        let table = Arc::new(Table::default());
        let hold = Duration::from_secs(90);
        let shared = || Arc::clone(&table) as Arc<dyn SharedTurns>;
        let first = HostGate::shared(Duration::from_secs(1), shared(), hold);
        let second = HostGate::shared(Duration::from_secs(1), shared(), hold);
        let start = Instant::now();
        let mut turn = first.acquire("daily.example").await;
        turn.set_crawl_delay(Duration::from_secs(1), 7.0);
        turn.finish(None).await;
        let turn = second.acquire("daily.example").await;
        assert_eq!(Instant::now() - start, Duration::from_secs(7), "the first's crawl delay");
        turn.finish(Some(Duration::from_secs(60))).await;
        let _turn = first.acquire("daily.example").await;
        assert_eq!(Instant::now() - start, Duration::from_secs(67), "the second's Retry-After");
    }

    #[tokio::test(start_paused = true)]
    async fn a_claim_lost_while_waiting_is_claimed_again_before_sending() {
        let table = Arc::new(Table::default());
        let shared = || Arc::clone(&table) as Arc<dyn SharedTurns>;
        let hold = Duration::from_secs(10);
        let slow = HostGate::shared(Duration::from_secs(1), shared(), hold);
        let other = HostGate::shared(Duration::from_secs(1), shared(), hold);
        let start = Instant::now();
        let mut turn = slow.acquire("daily.example").await;
        // Held past its claim (waiting for a slot, say): the other process takes the host.
        tokio::time::sleep(Duration::from_secs(11)).await;
        let taken = other.acquire("daily.example").await;
        assert_eq!(Instant::now() - start, Duration::from_secs(11));
        let waiting = tokio::spawn(async move {
            turn.keep().await;
            Instant::now()
        });
        tokio::time::sleep(Duration::from_secs(2)).await;
        taken.finish(None).await;
        let kept_at = waiting.await.unwrap();
        assert_eq!(
            kept_at - start,
            Duration::from_secs(14),
            "after the other's exchange and interval"
        );
    }
}
