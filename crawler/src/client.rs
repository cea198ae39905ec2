//! Polite fetching: robots.txt, per-host start slots and `Retry-After`, around the fetcher.
//!
//! [`Client::get`] is how everything the crawler fetches is fetched (discovery, feeds, sitemaps,
//! articles), so the rules hold across all of it:
//!
//! - **robots.txt** is fetched once per host (single-flight: concurrent tasks wait for one fetch)
//!   and kept for [`ClientConfig::robots_ttl`]. A 4xx means no rules; a 5xx or a network failure
//!   means everything is disallowed for [`ClientConfig::robots_retry`], then it is fetched again
//!   (RFC 9309 §2.3.1). Every hop of a redirect chain is checked against its own host's rules.
//! - **Per-host turns** ([`HostGate`]): one request at a time per host, and two request starts to
//!   one host never closer than the host's interval: the configured one, or its `Crawl-delay` if
//!   longer. robots.txt fetches take turns too. A redirect to another host takes that host's turn
//!   as well; a redirect back to a host the request already holds waits out its interval.
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

use tokio::sync::OnceCell;
use tokio::time::Instant;
use url::Url;

use crate::fetch::{BeforeHop, FetchConfig, FetchError, Fetched, Fetcher, HopFuture, Validators};
use crate::polite::{HostGate, Turn};
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
    /// How long "everything disallowed" lasts after robots.txt could not be fetched.
    pub robots_retry: Duration,
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
            robots_retry: Duration::from_secs(600),
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

#[derive(Debug)]
struct RobotsEntry {
    rules: OnceCell<Arc<Robots>>,
    /// When the rules stop being trusted; set once they are known.
    expires: Mutex<Option<Instant>>,
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
        let fetcher = Fetcher::new(config.fetch.clone())?;
        let agent = product_token(&config.fetch.user_agent);
        Ok(Client {
            inner: Arc::new(Inner {
                fetcher,
                gate: HostGate::new(config.host_interval),
                in_flight: Arc::new(tokio::sync::Semaphore::new(config.max_in_flight.max(1))),
                robots: Mutex::new(HashMap::new()),
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
    pub async fn get(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
    ) -> Result<Fetched, FetchError> {
        let mut retries = 0;
        loop {
            let hook = Polite::new(self, true);
            let fetched = self.inner.fetcher.get_with(url, validators, accept, &hook).await;
            // Release the turns and the slot before anything else waits.
            drop(hook);
            let fetched = fetched?;
            if !matches!(fetched.status, 429 | 503) {
                return Ok(fetched);
            }
            let wait = fetched.retry_after().unwrap_or(Duration::from_secs(60));
            self.inner.gate.back_off(host_key(&fetched.final_url), wait).await;
            if wait > self.inner.config.max_retry_wait || retries >= self.inner.config.max_retries {
                return Ok(fetched);
            }
            retries += 1;
        }
    }

    /// The robots.txt rules for `url`'s host, fetching them when unknown or expired.
    pub async fn robots(&self, url: &Url) -> Arc<Robots> {
        let origin = url.origin().ascii_serialization();
        let entry = {
            let mut table = self.inner.robots.lock().unwrap_or_else(|p| p.into_inner());
            let expired = table.get(&origin).is_some_and(|entry| {
                let expires = entry.expires.lock().unwrap_or_else(|p| p.into_inner());
                expires.is_some_and(|at| at <= Instant::now())
            });
            if expired {
                table.remove(&origin);
            }
            Arc::clone(table.entry(origin.clone()).or_insert_with(|| {
                Arc::new(RobotsEntry { rules: OnceCell::new(), expires: Mutex::new(None) })
            }))
        };
        let rules = entry
            .rules
            .get_or_init(|| async {
                let (rules, ttl) = self.fetch_robots(url).await;
                *entry.expires.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some(Instant::now() + ttl);
                Arc::new(rules)
            })
            .await;
        Arc::clone(rules)
    }

    /// The robots.txt rules for `url`'s host if they were fetched, expired or not.
    fn cached_robots(&self, url: &Url) -> Option<Arc<Robots>> {
        let origin = url.origin().ascii_serialization();
        let table = self.inner.robots.lock().unwrap_or_else(|p| p.into_inner());
        table.get(&origin).and_then(|entry| entry.rules.get().cloned())
    }

    async fn fetch_robots(&self, url: &Url) -> (Robots, Duration) {
        let config = &self.inner.config;
        let Ok(robots_url) = url.join("/robots.txt") else {
            return (Robots::allow_all(), config.robots_ttl);
        };
        let host = host_key(url).to_owned();
        let result = self
            .inner
            .fetcher
            .get_with(
                &robots_url,
                &Validators::default(),
                "text/plain,*/*;q=0.5",
                &Polite::new(self, false),
            )
            .await;
        let outcome = match &result {
            Ok(fetched) if fetched.status == 200 => {
                let rules = Robots::parse(&fetched.body, &self.inner.agent);
                if let Some(delay) = rules.crawl_delay() {
                    self.inner.gate.set_crawl_delay(&host, delay).await;
                }
                (rules, config.robots_ttl)
            }
            // Redirects the fetcher could not follow end here too: no rules we can read.
            Ok(fetched) if (400..500).contains(&fetched.status) => {
                (Robots::allow_all(), config.robots_ttl)
            }
            Ok(fetched) if (300..400).contains(&fetched.status) => {
                (Robots::allow_all(), config.robots_ttl)
            }
            _ => (Robots::disallow_all(), config.robots_retry),
        };
        self.journal(Exchange { purpose: Purpose::Robots, url: robots_url, result });
        outcome
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

    async fn admit(&self, url: &Url) -> Result<(), FetchError> {
        let host = host_key(url).to_ascii_lowercase();
        let held_turn = {
            let mut held = self.held();
            held.turns.iter().position(|(name, _)| *name == host).map(|i| held.turns.remove(i).1)
        };
        if self.check_robots {
            // A host this request already holds had its rules fetched moments ago: use them as
            // they are rather than fetch again (which would need the turn we hold).
            let robots = match &held_turn {
                Some(_) => self.client.cached_robots(url),
                None => Some(self.client.robots(url).await),
            };
            let target = match url.query() {
                Some(query) => format!("{}?{query}", url.path()),
                None => url.path().to_owned(),
            };
            if robots.is_some_and(|robots| !robots.allowed(&target)) {
                return Err(FetchError::Denied {
                    url: url.clone(),
                    reason: "disallowed by robots.txt".to_owned(),
                });
            }
        }
        let turn = match held_turn {
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
    fn product_tokens() {
        assert_eq!(product_token("morgue/0.1.0 (news archive crawler)"), "morgue");
        assert_eq!(product_token("ResearchBot"), "ResearchBot");
        assert_eq!(product_token(""), "");
    }
}
