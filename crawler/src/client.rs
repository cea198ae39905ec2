//! Polite fetching: robots.txt, per-host start slots and `Retry-After`, around the fetcher.
//!
//! [`Client::get`] is how everything the crawler fetches is fetched (discovery, feeds, sitemaps,
//! articles), so the rules hold across all of it:
//!
//! - **robots.txt** is fetched once per origin (single-flight: concurrent tasks wait for one
//!   fetch) and kept for [`ClientConfig::robots_ttl`], as RFC 9309 §2.3.1 and Google's crawlers
//!   treat it ([`RobotsVerdict`]): a 4xx (but 429), or redirects that cannot be followed, mean no
//!   rules; a 5xx, a 429 or no answer at all (refused, reset, timeout, DNS) mean the host is
//!   *unreachable*, which is temporary: nothing is fetched from it ([`FetchError::RobotsUnreachable`],
//!   so callers keep the work for later rather than give it up) and robots.txt is asked for again
//!   after [`ClientConfig::robots_retry`], doubled at each further failure up to
//!   [`ClientConfig::robots_retry_max`]. After [`ClientConfig::robots_outage_limit`] of outage the
//!   last good copy applies, when there is one; without one, everything stays disallowed. Every hop
//!   of a redirect chain is checked against its own host's rules.
//! - **Per-host turns** ([`HostGate`]): one request at a time per host, and two request starts to
//!   one host never closer than the host's interval: the configured one, or its `Crawl-delay` if
//!   longer. robots.txt fetches take turns too. A redirect to another host takes that host's turn
//!   as well; a redirect back to a host the request already holds waits out its interval.
//!   With [`Client::with_shared_turns`] each turn is also claimed from turns shared with other
//!   processes (see [`crate::polite`]), so the interval holds across every worker of an archive.
//! - **A global limit** of [`ClientConfig::max_in_flight`] requests at once; a request takes its
//!   slot after its host's turn has come, so tasks waiting for a busy host hold no slot.
//! - **429 and 503** with a `Retry-After` (or without: a minute) push the host's next slot out;
//!   when the wait is at most [`ClientConfig::max_retry_wait`] the request is retried in place,
//!   up to [`ClientConfig::max_retries`] times, otherwise the response goes back to the caller,
//!   who schedules a later attempt.
//!
//! Responses fetched on the caller's behalf but not returned to it (robots.txt) go to the
//! [`Journal`], so that the archive can keep every raw response.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use tracing::Instrument;
use url::Url;

use crate::fetch::{BeforeHop, FetchConfig, FetchError, Fetched, Fetcher, HopFuture, Validators};
use crate::polite::{HostGate, SharedTurns, Turn};
use crate::robots::Robots;

/// The polite layer's settings.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The fetcher's limits and identity.
    pub fetch: FetchConfig,
    /// The least time between two request starts to one host.
    pub host_interval: Duration,
    /// How long a fetched robots.txt is trusted.
    pub robots_ttl: Duration,
    /// How long after a failure to read robots.txt (5xx, 429, no answer) it is asked for again;
    /// doubled at each further failure in a row, up to [`ClientConfig::robots_retry_max`].
    pub robots_retry: Duration,
    /// The longest wait between two attempts to read an unreachable robots.txt.
    pub robots_retry_max: Duration,
    /// How long robots.txt may stay unreachable before its last good copy (when there is one)
    /// applies again (Google's crawlers wait 12 hours).
    pub robots_outage_limit: Duration,
    /// The longest `Retry-After` waited out in place.
    pub max_retry_wait: Duration,
    /// How many times one request is retried in place after 429 or 503.
    pub max_retries: u32,
    /// Requests in flight at once, across all hosts (waiting for a host's turn does not count).
    pub max_in_flight: usize,
}

impl Default for ClientConfig {
    fn default() -> ClientConfig {
        ClientConfig {
            fetch: FetchConfig::default(),
            host_interval: Duration::from_secs(5),
            robots_ttl: Duration::from_secs(24 * 3600),
            robots_retry: Duration::from_secs(60),
            robots_retry_max: Duration::from_secs(3600),
            robots_outage_limit: Duration::from_secs(12 * 3600),
            max_retry_wait: Duration::from_secs(60),
            max_retries: 3,
            max_in_flight: 16,
        }
    }
}

/// Why something was fetched, for the archive and the logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// A host's robots.txt.
    Robots,
    /// A source's homepage, for discovery.
    Homepage,
    /// A feed or sitemap candidate, for discovery.
    Candidate,
    /// A feed or sitemap poll.
    Feed,
    /// An article.
    Article,
}

impl Purpose {
    /// The name used in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Robots => "robots.txt",
            Purpose::Homepage => "homepage",
            Purpose::Candidate => "discovery",
            Purpose::Feed => "feed",
            Purpose::Article => "article",
        }
    }
}

/// One request and what came of it.
#[derive(Debug)]
pub struct Exchange {
    /// Why it was made.
    pub purpose: Purpose,
    /// The URL asked for.
    pub url: Url,
    /// The response, or why there was none.
    pub result: Result<Fetched, FetchError>,
}

/// Where exchanges the caller did not ask for go (robots.txt; discovery's candidates).
pub type Journal = Arc<dyn Fn(Exchange) + Send + Sync>;

/// What robots.txt says about a host now.
#[derive(Debug, Clone, PartialEq)]
pub enum RobotsVerdict {
    /// These rules apply: the fetched robots.txt, none at all (it answered 4xx), or the last good
    /// copy after a long outage.
    Rules(Arc<Robots>),
    /// robots.txt cannot be read now: nothing may be fetched from the host until it is asked for
    /// again, in `retry_in`.
    Unreachable {
        /// What went wrong, for people: `HTTP 503`, `connection error`, `first byte timeout`.
        reason: String,
        /// When robots.txt will be asked for again.
        retry_in: Duration,
    },
}

/// What is known of one origin's robots.txt.
#[derive(Debug, Default)]
enum RobotsState {
    /// Never asked for.
    #[default]
    Unknown,
    /// Read (or known to be absent), trusted until `expires`.
    Known { rules: Arc<Robots>, expires: Instant },
    /// Could not be read, `failures` times in a row since `since`; asked for again at `retry_at`.
    Unreachable {
        reason: String,
        since: Instant,
        failures: u32,
        retry_at: Instant,
        last_good: Option<Arc<Robots>>,
    },
}

#[derive(Debug, Default)]
struct RobotsEntry {
    /// Held while robots.txt is fetched, so that concurrent tasks wait for one fetch.
    state: tokio::sync::Mutex<RobotsState>,
}

/// The polite client. Share one per crawl (it is cheap to clone).
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    fetcher: Fetcher,
    gate: HostGate,
    in_flight: Arc<tokio::sync::Semaphore>,
    robots: Mutex<HashMap<String, Arc<RobotsEntry>>>,
    /// Hosts whose robots.txt is unreachable, and when it will be asked for again.
    outages: Mutex<HashMap<String, Instant>>,
    journal: Option<Journal>,
    config: ClientConfig,
    agent: String,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("config", &self.inner.config).finish_non_exhaustive()
    }
}

impl Client {
    /// A client with this configuration; `journal` receives the exchanges made on the caller's
    /// behalf.
    pub fn new(config: ClientConfig, journal: Option<Journal>) -> Result<Client, reqwest::Error> {
        let gate = HostGate::new(config.host_interval);
        Client::with_gate(config, journal, gate)
    }

    /// A client whose per-host turns are also claimed from `turns`, shared with other processes
    /// (the workers of one archive), so that the interval holds across all of them. A claim lasts
    /// the exchange's time limit and half a minute more, unless renewed.
    pub fn with_shared_turns(
        config: ClientConfig,
        journal: Option<Journal>,
        turns: Arc<dyn SharedTurns>,
    ) -> Result<Client, reqwest::Error> {
        let hold = config.fetch.total_timeout + Duration::from_secs(30);
        let gate = HostGate::shared(config.host_interval, turns, hold);
        Client::with_gate(config, journal, gate)
    }

    fn with_gate(
        config: ClientConfig,
        journal: Option<Journal>,
        gate: HostGate,
    ) -> Result<Client, reqwest::Error> {
        let fetcher = Fetcher::new(config.fetch.clone())?;
        let agent = product_token(&config.fetch.user_agent);
        Ok(Client {
            inner: Arc::new(Inner {
                fetcher,
                gate,
                in_flight: Arc::new(tokio::sync::Semaphore::new(config.max_in_flight.max(1))),
                robots: Mutex::new(HashMap::new()),
                outages: Mutex::new(HashMap::new()),
                journal,
                config,
                agent,
            }),
        })
    }

    /// The settings in force.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// The per-host gate.
    pub fn gate(&self) -> &HostGate {
        &self.inner.gate
    }

    /// Hands an exchange to the journal, if there is one.
    pub fn journal(&self, exchange: Exchange) {
        if let Some(journal) = &self.inner.journal {
            journal(exchange);
        }
    }

    /// GETs `url` politely: robots.txt allows it (every hop), the host's turn has come, and short
    /// `Retry-After`s are waited out. A response of any status is `Ok`.
    ///
    /// Runs in a `debug` span `request` with fields `method`, `host`, `purpose` (`get`), and
    /// `status` once known (or `error`, the short status of a failure); robots.txt fetched on its
    /// behalf has a span of its own (`purpose = "robots.txt"`).
    pub async fn get(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
    ) -> Result<Fetched, FetchError> {
        let span = request_span("get", url);
        let result = self.get_politely(url, validators, accept).instrument(span.clone()).await;
        record_outcome(&span, &result);
        result
    }

    /// Like [`Client::get`], with `redirects` asked before each redirect hop (not the first
    /// request) whether to follow it, before robots.txt and the hop's host's turn: an error it
    /// returns (usually [`FetchError::Declined`]) ends the fetch with nothing requested from the
    /// hop's URL. The crawl uses it to follow no redirect to a page that is archived already or
    /// being fetched by another task or worker.
    pub async fn get_checking_redirects(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
        redirects: &dyn BeforeHop,
    ) -> Result<Fetched, FetchError> {
        let span = request_span("get", url);
        let result = self
            .get_politely_with(url, validators, accept, Some(redirects))
            .instrument(span.clone())
            .await;
        record_outcome(&span, &result);
        result
    }

    async fn get_politely(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
    ) -> Result<Fetched, FetchError> {
        self.get_politely_with(url, validators, accept, None).await
    }

    async fn get_politely_with(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
        redirects: Option<&dyn BeforeHop>,
    ) -> Result<Fetched, FetchError> {
        let mut retries = 0;
        loop {
            let hook = Polite::new(self, true);
            let fetched = match redirects {
                None => self.inner.fetcher.get_with(url, validators, accept, &hook).await,
                Some(redirects) => {
                    let checked = CheckedRedirects { first: url, redirects, polite: &hook };
                    self.inner.fetcher.get_with(url, validators, accept, &checked).await
                }
            };
            // A 429 or 503 blocks the host that answered it, given back with its turn.
            let block = match &fetched {
                Ok(fetched) if matches!(fetched.status, 429 | 503) => {
                    let wait = fetched.retry_after().unwrap_or(Duration::from_secs(60));
                    Some((host_key(&fetched.final_url).to_ascii_lowercase(), wait))
                }
                _ => None,
            };
            // Release the turns and the slot before anything else waits.
            hook.finish(block.as_ref().map(|(host, wait)| (host.as_str(), *wait))).await;
            let fetched = fetched?;
            let Some((host, wait)) = block else {
                return Ok(fetched);
            };
            self.inner.gate.back_off(&host, wait).await;
            if wait > self.inner.config.max_retry_wait || retries >= self.inner.config.max_retries {
                return Ok(fetched);
            }
            retries += 1;
        }
    }

    /// The robots.txt rules for `url`'s host, fetching them when unknown or expired; while
    /// robots.txt is unreachable, everything is disallowed (see [`Client::robots_verdict`]).
    pub async fn robots(&self, url: &Url) -> Arc<Robots> {
        match self.robots_verdict(url).await {
            RobotsVerdict::Rules(rules) => rules,
            RobotsVerdict::Unreachable { .. } => Arc::new(Robots::disallow_all()),
        }
    }

    /// What robots.txt says about `url`'s host now, fetching it when unknown, expired, or due to
    /// be asked for again after a failure.
    pub async fn robots_verdict(&self, url: &Url) -> RobotsVerdict {
        let entry = self.robots_entry(url);
        let mut state = entry.state.lock().await;
        if let Some(verdict) = self.verdict_of(&state, Instant::now(), false) {
            return verdict;
        }
        let previous = std::mem::take(&mut *state);
        *state = self.fetch_robots(url, previous).await;
        let host = host_key(url).to_ascii_lowercase();
        let mut outages = self.inner.outages.lock().unwrap_or_else(|p| p.into_inner());
        match &*state {
            RobotsState::Unreachable { retry_at, .. } => {
                outages.insert(host, *retry_at);
            }
            _ => {
                outages.remove(&host);
            }
        }
        drop(outages);
        self.verdict_of(&state, Instant::now(), true).unwrap_or_else(|| {
            // A state just fetched always has a verdict; this is the cautious answer regardless.
            RobotsVerdict::Rules(Arc::new(Robots::disallow_all()))
        })
    }

    /// The hosts (as [`host_key`] gives them, lower-cased) whose robots.txt is unreachable and not
    /// yet due to be asked for again: work for them can wait.
    pub fn unreachable_hosts(&self) -> Vec<String> {
        let now = Instant::now();
        let outages = self.inner.outages.lock().unwrap_or_else(|p| p.into_inner());
        outages
            .iter()
            .filter(|(_, retry_at)| **retry_at > now)
            .map(|(host, _)| host.clone())
            .collect()
    }

    fn robots_entry(&self, url: &Url) -> Arc<RobotsEntry> {
        let origin = url.origin().ascii_serialization();
        let mut table = self.inner.robots.lock().unwrap_or_else(|p| p.into_inner());
        Arc::clone(table.entry(origin).or_default())
    }

    /// The verdict a state gives at `now`, or `None` when robots.txt must be fetched first. A
    /// state `just_fetched` gives its verdict even when it is already due again (a zero TTL or
    /// retry wait): the request that fetched it goes by it.
    fn verdict_of(
        &self,
        state: &RobotsState,
        now: Instant,
        just_fetched: bool,
    ) -> Option<RobotsVerdict> {
        match state {
            RobotsState::Unknown => None,
            RobotsState::Known { rules, expires } => {
                (just_fetched || now < *expires).then(|| RobotsVerdict::Rules(Arc::clone(rules)))
            }
            RobotsState::Unreachable { reason, since, retry_at, last_good, .. } => {
                if now >= *retry_at && !just_fetched {
                    return None;
                }
                let long = now.duration_since(*since) >= self.inner.config.robots_outage_limit;
                Some(match last_good {
                    Some(rules) if long => RobotsVerdict::Rules(Arc::clone(rules)),
                    _ => RobotsVerdict::Unreachable {
                        reason: reason.clone(),
                        retry_in: retry_at.saturating_duration_since(now),
                    },
                })
            }
        }
    }

    /// The verdict for `url`'s host if robots.txt is known now, without fetching or waiting.
    fn cached_verdict(&self, url: &Url) -> Option<RobotsVerdict> {
        let entry = self.robots_entry(url);
        let state = entry.state.try_lock().ok()?;
        self.verdict_of(&state, Instant::now(), false)
    }

    async fn fetch_robots(&self, url: &Url, previous: RobotsState) -> RobotsState {
        let config = &self.inner.config;
        let known = |rules: Robots| RobotsState::Known {
            rules: Arc::new(rules),
            expires: Instant::now() + config.robots_ttl,
        };
        let Ok(robots_url) = url.join("/robots.txt") else {
            return known(Robots::allow_all());
        };
        let host = host_key(url).to_owned();
        let span = request_span("robots.txt", &robots_url);
        let hook = Polite::new(self, false);
        let result = self
            .inner
            .fetcher
            .get_with(&robots_url, &Validators::default(), "text/plain,*/*;q=0.5", &hook)
            .instrument(span.clone())
            .await;
        record_outcome(&span, &result);
        let mut delay = None;
        let read: Result<Robots, String> = match &result {
            Ok(fetched) if fetched.status == 200 => {
                let rules = Robots::parse(&fetched.body, &self.inner.agent);
                // Set on the turn still held, so that the turn is given back with it.
                delay = rules.crawl_delay().filter(|delay| !hook.set_crawl_delay(&host, *delay));
                Ok(rules)
            }
            Ok(fetched) if fetched.status == 429 || fetched.status >= 500 => {
                Err(format!("HTTP {}", fetched.status))
            }
            // Other statuses (4xx; 1xx, 2xx other than 200; redirects that could not be followed)
            // mean there is no robots.txt to obey.
            Ok(_) => Ok(Robots::allow_all()),
            // So do more redirects than allowed (RFC 9309 §2.3.1.2) and a redirect off the web.
            Err(
                FetchError::TooManyRedirects { .. }
                | FetchError::RedirectLoop { .. }
                | FetchError::NotHttp { .. },
            ) => Ok(Robots::allow_all()),
            Err(err) => Err(err.status()),
        };
        hook.finish(None).await;
        if let Some(delay) = delay {
            self.inner.gate.set_crawl_delay(&host, delay).await;
        }
        let state = match read {
            Ok(rules) => known(rules),
            Err(reason) => {
                let now = Instant::now();
                let (since, failures, last_good) = match previous {
                    RobotsState::Unreachable { since, failures, last_good, .. } => {
                        (since, failures.saturating_add(1), last_good)
                    }
                    RobotsState::Known { rules, .. } => (now, 1, Some(rules)),
                    RobotsState::Unknown => (now, 1, None),
                };
                let wait = retry_wait(config, failures);
                RobotsState::Unreachable {
                    reason,
                    since,
                    failures,
                    retry_at: now + wait,
                    last_good,
                }
            }
        };
        self.journal(Exchange { purpose: Purpose::Robots, url: robots_url, result });
        state
    }
}

/// What one polite request holds: the turns of the hosts it has asked, and its global slot.
#[derive(Default)]
struct Held {
    turns: Vec<(String, Turn)>,
    slot: Option<tokio::sync::OwnedSemaphorePermit>,
}

/// The hook of polite requests: robots.txt (unless this is the robots.txt request itself), then
/// the host's turn, then a global slot; all kept until the hook is dropped.
struct Polite<'c> {
    client: &'c Client,
    check_robots: bool,
    held: Mutex<Held>,
}

impl<'c> Polite<'c> {
    fn new(client: &'c Client, check_robots: bool) -> Polite<'c> {
        Polite { client, check_robots, held: Mutex::new(Held::default()) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Applies a `Crawl-delay` to the held turn of `host`; `false` when none is held.
    fn set_crawl_delay(&self, host: &str, seconds: f64) -> bool {
        let floor = self.client.inner.gate.default_interval();
        let mut held = self.held();
        let Some((_, turn)) =
            held.turns.iter_mut().find(|(name, _)| name.eq_ignore_ascii_case(host))
        else {
            return false;
        };
        turn.set_crawl_delay(floor, seconds);
        true
    }

    /// Gives back the slot and every turn at the end of the exchange, `block` keeping one host
    /// (the one that answered 429 or 503) from the next request for a while.
    async fn finish(self, block: Option<(&str, Duration)>) {
        let Held { turns, slot } = self.held.into_inner().unwrap_or_else(|p| p.into_inner());
        drop(slot);
        for (name, turn) in turns {
            let wait = block.filter(|(host, _)| *host == name).map(|(_, wait)| wait);
            turn.finish(wait).await;
        }
    }

    async fn admit(&self, url: &Url) -> Result<(), FetchError> {
        let host = host_key(url).to_ascii_lowercase();
        let held_turn = {
            let mut held = self.held();
            held.turns.iter().position(|(name, _)| *name == host).map(|i| held.turns.remove(i).1)
        };
        if self.check_robots {
            // A host this request already holds had its rules fetched moments ago: use them as
            // they are rather than fetch again (which would need the turn we hold).
            let verdict = match &held_turn {
                Some(_) => self.client.cached_verdict(url),
                None => Some(self.client.robots_verdict(url).await),
            };
            let target = match url.query() {
                Some(query) => format!("{}?{query}", url.path()),
                None => url.path().to_owned(),
            };
            match verdict {
                Some(RobotsVerdict::Rules(robots)) if !robots.allowed(&target) => {
                    return Err(FetchError::Denied {
                        url: url.clone(),
                        reason: "disallowed by robots.txt".to_owned(),
                    });
                }
                Some(RobotsVerdict::Unreachable { reason, retry_in }) => {
                    return Err(FetchError::RobotsUnreachable {
                        url: url.clone(),
                        reason,
                        retry_in,
                    });
                }
                _ => {}
            }
        }
        let mut turn = match held_turn {
            Some(mut turn) => {
                turn.again().await;
                turn
            }
            None => self.client.inner.gate.acquire(&host).await,
        };
        let has_slot = self.held().slot.is_some();
        let slot = if has_slot {
            None
        } else {
            // The semaphore is never closed.
            Arc::clone(&self.client.inner.in_flight).acquire_owned().await.ok()
        };
        // Waiting for the slot may have outlasted a shared claim.
        turn.keep().await;
        let mut held = self.held();
        if slot.is_some() {
            held.slot = slot;
        }
        held.turns.push((host, turn));
        Ok(())
    }
}

impl BeforeHop for Polite<'_> {
    fn before_hop<'a>(&'a self, url: &'a Url) -> HopFuture<'a> {
        Box::pin(self.admit(url))
    }
}

/// The polite hook with the caller's check before every redirect hop.
struct CheckedRedirects<'h, 'c> {
    first: &'h Url,
    redirects: &'h dyn BeforeHop,
    polite: &'h Polite<'c>,
}

impl BeforeHop for CheckedRedirects<'_, '_> {
    fn before_hop<'a>(&'a self, url: &'a Url) -> HopFuture<'a> {
        Box::pin(async move {
            if url != self.first {
                self.redirects.before_hop(url).await?;
            }
            self.polite.admit(url).await
        })
    }
}

/// How long to wait before asking again for a robots.txt that failed `failures` times in a row:
/// [`ClientConfig::robots_retry`], doubled at each further failure, at most
/// [`ClientConfig::robots_retry_max`].
fn retry_wait(config: &ClientConfig, failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(20);
    config
        .robots_retry
        .saturating_mul(1 << doublings)
        .min(config.robots_retry_max.max(config.robots_retry))
}

/// The span of one request, for a caller (`purpose = "get"`) or for robots.txt, at `debug` level
/// so that it costs nothing unless asked for (`RUST_LOG=crawler=debug`). Fields, never
/// interpolated strings; `status` or `error` is recorded when the exchange ends.
fn request_span(purpose: &'static str, url: &Url) -> tracing::Span {
    tracing::debug_span!(
        "request",
        method = "GET",
        host = host_key(url),
        purpose,
        status = tracing::field::Empty,
        error = tracing::field::Empty
    )
}

/// Records a request's status, or its failure's short status, on its span.
fn record_outcome(span: &tracing::Span, result: &Result<Fetched, FetchError>) {
    if span.is_disabled() {
        return;
    }
    match result {
        Ok(fetched) => span.record("status", fetched.status),
        Err(err) => span.record("error", err.status()),
    };
}

/// The key of a URL's host for politeness: its name (or address), lower-cased, port ignored.
pub fn host_key(url: &Url) -> &str {
    url.host_str().unwrap_or("")
}

/// The robots.txt product token of a User-Agent: its first word, before any `/`.
fn product_token(user_agent: &str) -> String {
    user_agent.split_whitespace().next().unwrap_or("").split('/').next().unwrap_or("").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_retries_back_off_to_a_ceiling() {
        let config = ClientConfig::default();
        let waits: Vec<u64> = [1, 2, 3, 6, 7, 100, u32::MAX]
            .into_iter()
            .map(|failures| retry_wait(&config, failures).as_secs())
            .collect();
        assert_eq!(waits, [60, 120, 240, 1920, 3600, 3600, 3600]);
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token("morgue/0.1.0 (news archive crawler)"), "morgue");
        assert_eq!(product_token("ResearchBot"), "ResearchBot");
        assert_eq!(product_token(""), "");
    }
}
