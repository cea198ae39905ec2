//! A local test web: many generated news sites, friendly and hostile, served on loopback by one
//! process, for the crawler's integration tests, its benchmark and `morgue demo`.
//!
//! [`TestWeb::start`] binds `127.0.0.1:0` and serves every site from that one port, telling them
//! apart by the `Host` header: site *n* is `site<n>.test` (also reachable as `www.` and `m.`), the
//! hostile and troubled sites have names of their own ([`hostile::HOSTS`], [`trouble`]). A crawler
//! reaches them by resolving `*.test` to `127.0.0.1` (morgue: `--resolve '*.test=127.0.0.1'
//! --allow-private-addresses`), and URLs carry the port: `http://site3.test:41234/`.
//!
//! What the sites hold is a pure function of a [`Config`] ([`world`] describes the variety: feed
//! and sitemap styles, robots.txt rules, redirects, tracking parameters, syndicated wire copies).
//! [`World::reachable`] says which articles a correct crawl must store, so tests compare against
//! it rather than against numbers written by hand.
//!
//! Every request is logged with its arrival time ([`TestWeb::requests`]), so politeness can be
//! checked after the fact, and [`TestWeb::wait_for`] blocks on a condition variable until the log
//! satisfies a predicate: a test can act at a precise point of a crawl (kill it, say) without
//! sleeping.
//!
//! ```ignore
//! let web = testweb::TestWeb::start(testweb::Config::small(7, 6, 20, chrono::Utc::now()))?;
//! for (name, homepage) in web.sources() { /* morgue sources add --name … --homepage … */ }
//! ```

mod hostile;
mod http;
mod pages;
mod text;
pub mod trouble;
pub mod world;

use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use http::{Request, Response};
pub use world::{Article, Config, Site, World};

/// The hostile sites' names and what of them can be stored.
pub mod hostile_sites {
    pub use crate::hostile::{HOSTS, STORABLE};
}

/// A request the test web answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The `Host` header, without the port.
    pub host: String,
    /// Path and query.
    pub path: String,
    /// When the request head had arrived.
    pub at: Instant,
    /// The status answered.
    pub status: u16,
    /// Whether it carried `If-None-Match` or `If-Modified-Since`.
    pub conditional: bool,
}

#[derive(Debug, Default)]
struct Log {
    seen: Mutex<Vec<Seen>>,
    changed: Condvar,
}

/// A running test web. Dropping it stops the server.
#[derive(Debug)]
pub struct TestWeb {
    world: Arc<World>,
    addr: SocketAddr,
    log: Arc<Log>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TestWeb {
    /// Generates the web of `config` and serves it on `127.0.0.1`, on a port the system picks.
    pub fn start(config: Config) -> std::io::Result<TestWeb> {
        TestWeb::start_on(config, SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Like [`TestWeb::start`], on a given address.
    pub fn start_on(config: Config, addr: SocketAddr) -> std::io::Result<TestWeb> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let world = Arc::new(World::new(config));
        let log = Arc::new(Log::default());
        let handler = handler(Arc::clone(&world), Arc::clone(&log));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let thread = std::thread::Builder::new().name("testweb".into()).spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
                tokio::select! {
                    () = http::serve(listener, handler) => {}
                    _ = stopped => {}
                }
            });
        })?;
        Ok(TestWeb { world, addr, log, stop: Some(stop), thread: Some(thread) })
    }

    /// The port every site is served on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The generated web.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// `http://host:port` for a host name.
    pub fn origin(&self, host: &str) -> String {
        format!("http://{host}:{}", self.port())
    }

    /// The sentence every article of a site ends with (the same on every page of the site).
    pub fn house_sentence(&self, site: &Site) -> String {
        pages::house_sentence(site)
    }

    /// A site's homepage URL.
    pub fn homepage(&self, site: &Site) -> String {
        format!("{}/", self.origin(&site.host))
    }

    /// The canonical URL of an article.
    pub fn article_url(&self, article: &Article) -> String {
        let site = &self.world.sites[article.site];
        format!("{}{}", self.origin(&site.host), article.path)
    }

    /// Every site as a media source, `(name, homepage)`: the friendly ones, then the hostile and
    /// troubled ones the config asked for.
    pub fn sources(&self) -> Vec<(String, String)> {
        let mut sources: Vec<(String, String)> = self
            .world
            .sites
            .iter()
            .map(|site| (format!("{} ({})", site.name, site.index), self.homepage(site)))
            .collect();
        if self.world.config.hostile {
            for host in hostile::HOSTS {
                sources.push((host.to_owned(), format!("{}/", self.origin(host))));
            }
        }
        for host in trouble::source_hosts(&self.world.config) {
            sources.push((host.to_owned(), format!("{}/", self.origin(host))));
        }
        sources
    }

    /// A copy of the request log.
    pub fn requests(&self) -> Vec<Seen> {
        self.log.seen.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The requests that came too soon after the one before to the same host (a site or its `m.`
    /// mirror): sooner than the site's robots.txt crawl delay, or than `interval` for a site
    /// without one, less `slack` (arrival times are read by the server, after loopback). Each as
    /// `host: gap < interval`; empty when the crawl was polite.
    pub fn too_soon(&self, interval: Duration, slack: Duration) -> Vec<String> {
        let seen = self.requests();
        let mut found = Vec::new();
        for site in &self.world.sites {
            let interval = site.crawl_delay.map_or(interval, Duration::from_secs_f64);
            for host in [site.host.clone(), format!("m.{}", site.host)] {
                let mut times: Vec<Instant> =
                    seen.iter().filter(|s| s.host == host).map(|s| s.at).collect();
                times.sort();
                for pair in times.windows(2) {
                    let gap = pair[1] - pair[0];
                    if gap + slack < interval {
                        found.push(format!("{host}: {gap:?} < {interval:?}"));
                    }
                }
            }
        }
        found
    }

    /// Blocks until `done` holds for the request log, or `limit` passes; returns whether it held.
    /// Woken by each request, so it never polls.
    pub fn wait_for(&self, limit: Duration, done: impl Fn(&[Seen]) -> bool) -> bool {
        let seen = self.log.seen.lock().unwrap_or_else(|p| p.into_inner());
        let (seen, _) = self
            .log
            .changed
            .wait_timeout_while(seen, limit, |seen| !done(seen))
            .unwrap_or_else(|p| p.into_inner());
        done(&seen)
    }
}

impl Drop for TestWeb {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn handler(world: Arc<World>, log: Arc<Log>) -> http::Handler {
    let hostile = hostile::Hostile::default();
    let trouble = trouble::Trouble::default();
    Arc::new(move |request: &Request| {
        let at = Instant::now();
        let host = request.host.as_str();
        let response = if world.config.hostile
            && let Some(response) = hostile.respond(request, world.config.now)
        {
            response
        } else if let Some(response) = trouble.respond(request, &world.config, world.config.now) {
            response
        } else {
            match world.site_by_host(host) {
                Some(site) => pages::respond(&world, site, request, &request.origin()),
                None => Response::not_found(),
            }
        };
        let seen = Seen {
            host: host.to_owned(),
            path: request.path.clone(),
            at,
            status: response.status,
            conditional: request.header("if-none-match").is_some()
                || request.header("if-modified-since").is_some(),
        };
        log.seen.lock().unwrap_or_else(|p| p.into_inner()).push(seen);
        log.changed.notify_all();
        response
    })
}
