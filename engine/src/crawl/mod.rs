//! The crawl loop: sources in, stories out, with everything in between kept in the archive.
//!
//! A pass (`Engine::pass`) runs rounds of three stages, which overlap, until none has work left:
//!
//! 1. **discover** (`discovery.rs`): sources never searched get their feeds and sitemaps found,
//!    several at a time;
//! 2. **poll** (`poll.rs`): due feeds and sitemaps are fetched with conditional GET, unchanged
//!    bodies are recognised by hash, new items go into the frontier (deduplicated by lossy URL,
//!    limited to [`Settings::since`]), sitemap indexes add their children as sitemaps of their
//!    own, and the next poll is scheduled adaptively. The due feeds of sources searched before
//!    start at once; a source searched in this round has its feeds polled as soon as its own
//!    search ends, not when every search has;
//! 3. **fetch** (`articles.rs`): due frontier entries are leased, fetched, archived, extracted and
//!    merged into stories, while the first two stages still run (they say when they queue new
//!    URLs); pages that could touch the same stories (one source, a URL in common) are stored one
//!    at a time, others at once (`locks.rs`).
//!
//! Everything goes through one polite [`Client`] (robots.txt, per-host turns, a global limit),
//! and every response is archived: article and feed responses with their frontier entry or feed,
//! the rest (robots.txt, discovery) through the client's journal.
//!
//! **What one source serves never ends a crawl.** A search, poll or article whose work fails in
//! the archive is recorded as that source's, feed's or URL's failure; only when recording the
//! failure fails too (the archive itself is unusable) does the crawl stop with an error.
//!
//! **Workers and restarts.** All state is in the archive: feeds' schedules, the frontier and its
//! leases, and the workers. A worker registers under its name ([`Settings::worker`], `HOST:PID` by
//! default), refreshes its heartbeat every [`HEARTBEAT`] while it runs, and removes itself when
//! it stops; every heartbeat also gives back the leases of workers whose heartbeat is older than
//! [`WORKER_TIMEOUT`] (dead on any machine, whatever became of their process) and removes them. A
//! worker started under the name of a dead one takes its leases back at once; any lease also
//! expires after [`LEASE`]. Stories are keyed by lossy URL in the schema, so a page fetched twice
//! across a crash is stored once.
//!
//! **Clocks.** Leases, heartbeats, host turns and due polls are times one worker writes and others
//! compare, so every one of them is read from the worker's [`clock::Clock`]: the machine's clock
//! corrected by its offset to the database's, measured at start and every 10 minutes after. A
//! worker whose clock is more than [`clock::MAX_CLOCK_SKEW`] off refuses to start
//! ([`Error::ClockSkew`]).
//!
//! **A full disk** (`store::Error::Full`) stops the crawl with that error: recording the failure
//! would fail too, and every write is a transaction, so nothing is half-written.
//!
//! **Spreading.** New URLs of one host are queued an interval apart (after the host's last queued
//! URL), so leasing earliest-due-first interleaves hosts instead of draining one at a time.

mod articles;
pub mod clock;
mod discovery;
mod locks;
mod poll;
mod turns;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use crawler::client::{Client, Exchange, Journal};
use crawler::fetch::{FetchError, Fetched};
use store::Archive;
use store::fetches::{RawFetch, SentRequest};
use store::sources::Source;
use store::workers::NewWorker;
use tokio::sync::{mpsc, oneshot, watch};

use self::clock::Clock;
use self::locks::MergeLocks;
use crate::progress::{Counter, Progress};
use crate::{Error, Result};

/// Everything a crawl needs to know, resolved by the front end (flags, a configuration file,
/// defaults).
#[derive(Debug, Clone)]
pub struct Settings {
    /// How far back articles are fetched, by their feed or sitemap dates.
    pub since: chrono::Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// The polite client's settings.
    pub client: crawler::client::ClientConfig,
    /// Poll every feed now, due or not.
    pub force_poll: bool,
    /// This worker's name, which owns its leases (`HOST:PID` unless told otherwise).
    pub worker: String,
    /// This machine's name, recorded with the worker.
    pub host: String,
    /// How repeated sentences are removed.
    pub sentences: extractor::sentences::Mode,
    /// Whether each pass ends with fuzzy dedup of the new stories.
    pub dedup: bool,
    /// Where per-host turns are kept.
    pub politeness: Politeness,
}

/// Where a crawl keeps its per-host turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Politeness {
    /// Shared through the archive on PostgreSQL (the archive of many workers), in this process
    /// on SQLite (one worker at a time).
    #[default]
    ByBackend,
    /// In this process only: other workers on the archive do not see them.
    InProcess,
    /// Claimed in the archive's host turns, so the interval holds across every worker.
    Shared,
}

/// How long a worker holds a leased URL before others may take it, even with a live heartbeat.
pub const LEASE: Duration = Duration::from_secs(30 * 60);

/// How often a running worker says it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// Every how many heartbeats a running worker measures its clock against the database's again.
const REMEASURE_EVERY: u32 = 40;

/// How old a worker's last heartbeat may be before it is taken for dead and its leases are given
/// back: eight missed heartbeats, which also covers a heartbeat kept waiting by a busy SQLite.
pub const WORKER_TIMEOUT: Duration = Duration::from_secs(120);

/// How often a pass with nothing to do asks again whether other workers' searches and polls are
/// done (they may queue URLs this worker shares).
const OTHERS_POLL: Duration = Duration::from_millis(500);

/// How a crawl ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One pass; every URL queued in it is fetched.
    Once,
    /// Passes on the schedule until stopped.
    Forever,
}

enum JournalMessage {
    Exchange(Box<Exchange>),
    Flush(oneshot::Sender<()>),
}

/// One crawl: the archive, the polite client, the settings and the counters.
pub struct Engine {
    archive: Archive,
    client: Client,
    settings: Settings,
    progress: Arc<Progress>,
    mode: Mode,
    sources: Mutex<HashMap<i64, Arc<Source>>>,
    /// Where the next new URL of each host goes in the frontier.
    slots: tokio::sync::Mutex<HashMap<String, DateTime<Utc>>>,
    /// Extraction is CPU work: at most one per core at a time.
    cpu: Arc<tokio::sync::Semaphore>,
    /// Pages that could touch the same stories are stored one at a time ([`locks`]).
    merging: MergeLocks,
    journal: mpsc::UnboundedSender<JournalMessage>,
    stop: watch::Receiver<bool>,
    /// Set when a stage failed in a way that ends the crawl (the disk is full, say): the other
    /// stages finish what they are doing and start nothing new, as on a stop. They are never
    /// cancelled mid-way, which would cut a transaction short on a connection still in use.
    halted: std::sync::atomic::AtomicBool,
    /// Told when the frontier gets new URLs, so that a fetch stage waiting for them goes on.
    queued: tokio::sync::Notify,
    /// Time spent in the rounds' fetch stages (which overlap their searches and polls), in
    /// microseconds, for benchmarks.
    article_micros: std::sync::atomic::AtomicU64,
    /// The fuzzy-dedup models, loaded at the first pass that needs them.
    deduper: tokio::sync::OnceCell<Arc<dedup::Deduper>>,
    /// This worker's clock, corrected to the database's: every time that decides leases,
    /// heartbeats, host turns or due polls is read from it.
    clock: Arc<Clock>,
}

impl Engine {
    /// Starts an engine (on a tokio runtime: it spawns the task that archives the client's
    /// journal); `stop` turning true asks it to finish the work in flight and return.
    pub fn new(
        archive: Archive,
        settings: Settings,
        progress: Arc<Progress>,
        mode: Mode,
        stop: watch::Receiver<bool>,
    ) -> Result<Engine> {
        let (journal, messages) = mpsc::unbounded_channel();
        tokio::spawn(archive_journal(archive.clone(), messages));
        let sender = journal.clone();
        let journal_fn: Journal = Arc::new(move |exchange: Exchange| {
            let _ = sender.send(JournalMessage::Exchange(Box::new(exchange)));
        });
        let mut client_config = settings.client.clone();
        client_config.max_in_flight = settings.concurrency;
        let clock = Arc::new(Clock::default());
        let shared = match settings.politeness {
            Politeness::ByBackend => archive.backend() == store::Backend::Postgres,
            Politeness::InProcess => false,
            Politeness::Shared => true,
        };
        let client = if shared {
            let turns = Arc::new(turns::ArchiveTurns {
                archive: archive.clone(),
                worker: settings.worker.clone(),
                clock: Arc::clone(&clock),
            });
            Client::with_shared_turns(client_config, Some(journal_fn), turns)
        } else {
            Client::new(client_config, Some(journal_fn))
        }
        .map_err(|err| Error::Client { source: Box::new(err) })?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(Engine {
            archive,
            client,
            settings,
            progress,
            mode,
            sources: Mutex::new(HashMap::new()),
            slots: tokio::sync::Mutex::new(HashMap::new()),
            cpu: Arc::new(tokio::sync::Semaphore::new(cores)),
            merging: MergeLocks::new(locks::STRIPES),
            journal,
            stop,
            halted: std::sync::atomic::AtomicBool::new(false),
            queued: tokio::sync::Notify::new(),
            article_micros: std::sync::atomic::AtomicU64::new(0),
            deduper: tokio::sync::OnceCell::new(),
            clock,
        })
    }

    /// This worker's clock (to play a machine whose clock is off, in tests: set its skew before
    /// [`Engine::run`]).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Whether a stop was asked for, or a failure ends the crawl ([`Engine::halt`]).
    fn stopping(&self) -> bool {
        *self.stop.borrow() || self.halted.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Asks every stage to finish what it is doing and start nothing new: a failure ends the
    /// crawl.
    fn halt(&self) {
        self.halted.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// This worker, as the archive's `workers` table knows it.
    fn worker(&self) -> NewWorker {
        NewWorker {
            name: self.settings.worker.clone(),
            host: self.settings.host.clone(),
            pid: std::process::id(),
        }
    }

    /// Runs passes: one for [`Mode::Once`], until stopped for [`Mode::Forever`]; registered as a
    /// worker with a heartbeat for as long as it runs.
    pub async fn run(self: &Arc<Self>) -> Result<()> {
        // A failure ended an earlier run of this engine, not this one.
        self.halted.store(false, std::sync::atomic::Ordering::Relaxed);
        let me = self.worker();
        self.clock.measure(&self.archive).await?;
        let now = self.clock.now();
        let registered = store::workers::register(&self.archive, &me, now).await?;
        if let Some(earlier) = &registered.predecessor {
            tracing::info!(
                worker = %me.name, earlier_host = %earlier.host, earlier_pid = earlier.pid,
                released = registered.released,
                "took over from an earlier worker of the same name"
            );
        }
        reap_dead_workers(&self.archive, now).await?;
        let heartbeat = tokio::spawn(heartbeat(self.archive.clone(), me, Arc::clone(&self.clock)));
        let result = self.run_inner().await;
        heartbeat.abort();
        // Whatever happened, leases this worker still holds go back at once.
        let released =
            store::frontier::release(&self.archive, &self.settings.worker, self.clock.now()).await;
        let given_back = store::claims::give_back_all(&self.archive, &self.settings.worker).await;
        // Host turns held by exchanges a failure cut short: given back, each host's next request
        // an interval from now, rather than kept until their hold expires.
        if let Err(err) =
            store::turns::release_holder(&self.archive, &self.settings.worker, self.clock.now())
                .await
        {
            tracing::warn!("cannot give back the host turns this worker held: {err}");
        }
        let removed = store::workers::remove(&self.archive, &self.settings.worker).await;
        self.flush_journal().await;
        // The crawl's own failure first: what came after may have failed because of it.
        result?;
        released?;
        given_back?;
        removed?;
        Ok(())
    }

    async fn run_inner(self: &Arc<Self>) -> Result<()> {
        let mut force = self.settings.force_poll;
        loop {
            self.pass(force).await?;
            force = false;
            if self.settings.dedup && !self.stopping() {
                self.dedup_new().await?;
            }
            if self.mode == Mode::Once || self.stopping() {
                return Ok(());
            }
            let next = self.next_due().await?;
            let wait = next
                .map(|at| (at - self.clock.now()).to_std().unwrap_or(Duration::ZERO))
                .unwrap_or(Duration::from_secs(60))
                .clamp(Duration::from_secs(1), Duration::from_secs(60));
            tracing::debug!(?wait, "waiting for the next due feed or URL");
            let mut stop = self.stop.clone();
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                _ = stop.changed() => return Ok(()),
            }
        }
    }

    /// Fuzzy dedup of the stories stored since the last run, unless another worker is running a
    /// batch (one batch at a time over the archive, so that no two build conflicting clusters;
    /// stories stored meanwhile go into the next batch; see [`crate::dedup_archive`]).
    async fn dedup_new(&self) -> Result<()> {
        let worker = &self.settings.worker;
        let ran = crate::exclusive::under_claim(
            &self.archive,
            store::claims::Kind::Dedup,
            worker,
            &self.clock,
            self.dedup_claimed(),
        )
        .await?;
        if ran.is_none() {
            tracing::debug!("another worker is running a dedup batch");
        }
        Ok(())
    }

    async fn dedup_claimed(&self) -> Result<()> {
        let deduper = self
            .deduper
            .get_or_try_init(|| async {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                crate::dedup_archive::load(dedup::Config { threads, ..dedup::Config::default() })
                    .await
            })
            .await?;
        let done = crate::dedup_archive::compare_new(&self.archive, deduper).await?;
        self.progress.add(Counter::Linked, done.links);
        Ok(())
    }

    /// Whether other workers hold claims on searches or polls now.
    async fn others_searching_or_polling(&self) -> Result<bool> {
        let now = self.clock.now();
        let claims = store::claims::list(&self.archive).await?;
        Ok(claims.iter().any(|claim| {
            claim.owner != self.settings.worker
                && claim.until > now
                && matches!(
                    store::claims::Kind::parse(&claim.kind),
                    Some(store::claims::Kind::Discover | store::claims::Kind::Poll)
                )
        }))
    }

    /// The earliest of the next feed poll and the next frontier attempt.
    async fn next_due(&self) -> Result<Option<DateTime<Utc>>> {
        let feed = store::feeds::next_due(&self.archive).await?;
        let url = store::frontier::next_due(&self.archive).await?;
        Ok([feed, url].into_iter().flatten().min())
    }

    /// One pass: rounds of discovery, polls and article fetches, until none of them has work.
    async fn pass(self: &Arc<Self>, force_poll: bool) -> Result<()> {
        let mut force = force_poll;
        let mut round = 0;
        loop {
            let done = self.round(force).await?;
            force = false;
            if self.stopping() || round > 20 {
                break;
            }
            if done.discovered + done.polled + done.fetched == 0 {
                // Searches and polls other workers are making will queue URLs this pass may
                // share: wait for them rather than end.
                if self.others_searching_or_polling().await? {
                    let mut stop = self.stop.clone();
                    tokio::select! {
                        () = tokio::time::sleep(OTHERS_POLL) => {}
                        _ = stop.changed() => {}
                    }
                    continue;
                }
                break;
            }
            round += 1;
            // Retries may have become due during this round.
            let feed_due = store::feeds::next_due(&self.archive)
                .await?
                .is_some_and(|at| at <= self.clock.now());
            if !feed_due && done.discovered == 0 && !self.others_searching_or_polling().await? {
                break;
            }
        }
        Ok(())
    }

    /// One round: searches and polls in one task, article fetches alongside until both are done
    /// and nothing is left to lease.
    async fn round(self: &Arc<Self>, force_poll: bool) -> Result<Round> {
        let (upstream_done, upstream_watch) = watch::channel(false);
        let this = Arc::clone(self);
        let mut upstream = tokio::spawn(async move {
            let result = this.discover_and_poll(force_poll).await;
            // Turns true however the stage ended (the fetch stage also sees the sender dropped).
            let _ = upstream_done.send(true);
            result
        });
        let phase = std::time::Instant::now();
        let fetched = self.fetch_due(upstream_watch).await;
        let micros = u64::try_from(phase.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.article_micros.fetch_add(micros, std::sync::atomic::Ordering::Relaxed);
        let fetched = match fetched {
            Ok(fetched) => fetched,
            Err(err) => {
                // The searches and polls stop at their next step and are waited for, so that
                // the worker gives back its leases and claims after the last of them.
                self.halt();
                let _ = (&mut upstream).await;
                return Err(err);
            }
        };
        let (discovered, polled) =
            (&mut upstream).await.map_err(|source| Error::Task { what: "crawl", source })??;
        Ok(Round { discovered, polled, fetched })
    }

    /// Claims a piece of work (a source's search, a feed's poll, a dedup batch) for [`LEASE`].
    /// Returns whether this worker holds it.
    async fn claim(&self, kind: store::claims::Kind, key: &str) -> Result<bool> {
        let lease = chrono::Duration::from_std(LEASE).unwrap_or(chrono::Duration::MAX);
        let worker = &self.settings.worker;
        Ok(store::claims::take(&self.archive, kind, key, worker, self.clock.now(), lease).await?)
    }

    /// Gives back a claim when its work is done. A failure is logged: the claim expires by
    /// itself, and the work was recorded as done in the archive before.
    async fn give_back(&self, kind: store::claims::Kind, key: &str) {
        let worker = &self.settings.worker;
        if let Err(err) = store::claims::give_back(&self.archive, kind, key, worker).await {
            tracing::warn!(kind = kind.as_str(), key, "cannot give back a claim: {err}");
        }
    }

    /// The source with this id (cached).
    async fn source(&self, id: i64) -> Result<Arc<Source>> {
        if let Some(source) = self.sources.lock().unwrap_or_else(|p| p.into_inner()).get(&id) {
            return Ok(Arc::clone(source));
        }
        let source = Arc::new(store::sources::get(&self.archive, id).await?);
        self.sources.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::clone(&source));
        Ok(source)
    }

    /// Seconds spent in fetch stages so far (each lasts as long as its round's searches and polls,
    /// at least).
    pub fn article_phase_seconds(&self) -> f64 {
        self.article_micros.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1e6
    }

    /// Archives what is still in the journal; call before closing the archive.
    pub async fn finish(&self) {
        self.flush_journal().await;
    }

    /// Waits until every journal entry sent so far is archived.
    async fn flush_journal(&self) {
        let (done, flushed) = oneshot::channel();
        if self.journal.send(JournalMessage::Flush(done)).is_ok() {
            let _ = flushed.await;
        }
    }

    /// Archives one exchange made for a frontier entry or a feed. Returns the fetch id.
    async fn archive_exchange(
        &self,
        url: &str,
        result: Result<&Fetched, &FetchError>,
        frontier_id: Option<i64>,
        feed_id: Option<i64>,
    ) -> Result<i64> {
        crate::metrics::global().fetch(result);
        let raw = raw_fetch(url, result, frontier_id, feed_id);
        Ok(store::fetches::insert(&self.archive, &raw).await?)
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("worker", &self.settings.worker)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

/// What one round did.
#[derive(Debug, Clone, Copy, Default)]
struct Round {
    /// Sources searched (not those put off because their robots.txt could not be read).
    discovered: usize,
    /// Feed and sitemap polls.
    polled: usize,
    /// Article fetches started.
    fetched: usize,
}

/// Says every [`HEARTBEAT`] that `me` is alive, and gives back the leases of dead workers.
/// Failures are logged and tried again at the next beat: a worker that cannot reach the archive
/// for longer than [`WORKER_TIMEOUT`] may see others take its URLs, which costs a refetch at most.
pub(crate) async fn heartbeat(archive: Archive, me: NewWorker, clock: Arc<Clock>) {
    let mut ticks = tokio::time::interval(HEARTBEAT);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    let mut beats = 0u32;
    loop {
        ticks.tick().await;
        beats = beats.wrapping_add(1);
        // A clock that drifts or is set while the worker runs is followed: measured again every
        // 40 beats (10 minutes). Too far off now, it can only be reported, not refused.
        if beats.is_multiple_of(REMEASURE_EVERY)
            && let Err(err) = clock.measure(&archive).await
        {
            tracing::error!("{err}");
        }
        let now = clock.now();
        match store::workers::heartbeat(&archive, &me, now).await {
            Ok(true) => {}
            Ok(false) => tracing::warn!(
                worker = %me.name,
                "this worker had been taken for dead (heartbeats missed); registered again"
            ),
            Err(err) => tracing::warn!(worker = %me.name, "cannot record a heartbeat: {err}"),
        }
        if let Err(err) = reap_dead_workers(&archive, now).await {
            tracing::warn!("cannot check for dead workers: {err}");
        }
    }
}

/// Gives back the leases of workers whose heartbeat is older than [`WORKER_TIMEOUT`] at `now`.
pub(crate) async fn reap_dead_workers(archive: &Archive, now: DateTime<Utc>) -> Result<()> {
    let timeout = chrono::Duration::from_std(WORKER_TIMEOUT).unwrap_or(chrono::Duration::MAX);
    let reaped = store::workers::reap(archive, now - timeout, now).await?;
    if !reaped.workers.is_empty() || reaped.leases > 0 {
        tracing::info!(
            workers = ?reaped.workers, leases = reaped.leases,
            "gave back the leases of workers that are gone"
        );
    }
    Ok(())
}

/// Archives the journal's exchanges (robots.txt, discovery) as they come.
async fn archive_journal(archive: Archive, mut messages: mpsc::UnboundedReceiver<JournalMessage>) {
    while let Some(message) = messages.recv().await {
        match message {
            JournalMessage::Exchange(exchange) => {
                crate::metrics::global().fetch(exchange.result.as_ref());
                let raw = raw_fetch(exchange.url.as_str(), exchange.result.as_ref(), None, None);
                if let Err(err) = store::fetches::insert(&archive, &raw).await {
                    tracing::warn!(url = %exchange.url, "cannot archive a {} response: {err}", exchange.purpose.as_str());
                }
            }
            JournalMessage::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}

/// The archive's record of a request, whatever came of it.
fn raw_fetch(
    url: &str,
    result: Result<&Fetched, &FetchError>,
    frontier_id: Option<i64>,
    feed_id: Option<i64>,
) -> RawFetch {
    match result {
        Ok(fetched) => RawFetch {
            frontier_id,
            feed_id,
            requested_url: url.to_owned(),
            final_url: fetched.final_url.to_string(),
            redirect_chain: fetched.redirect_chain.iter().map(ToString::to_string).collect(),
            status: Some(fetched.status),
            request: Some(SentRequest {
                http_version: fetched.http_version.clone(),
                headers: fetched.request_headers.clone(),
            }),
            headers: fetched.headers.clone(),
            content_type: fetched.header("content-type").map(str::to_owned),
            body: fetched.body.clone(),
            error: None,
            started_at: fetched.started_at,
            first_byte_ms: Some(fetched.first_byte_ms),
            total_ms: Some(fetched.total_ms),
        },
        Err(err) => RawFetch {
            frontier_id,
            feed_id,
            requested_url: url.to_owned(),
            final_url: url.to_owned(),
            redirect_chain: Vec::new(),
            status: None,
            request: None,
            headers: Vec::new(),
            content_type: None,
            body: Vec::new(),
            error: Some(err.to_string()),
            started_at: Utc::now(),
            first_byte_ms: None,
            total_ms: None,
        },
    }
}

/// `HTTP 404 Not Found`, for people.
pub(crate) fn http_status(status: u16) -> String {
    match reason_phrase(status) {
        "" => format!("HTTP {status}"),
        reason => format!("HTTP {status} {reason}"),
    }
}

/// The standard reason phrase of a status code (empty for codes without one): for people's
/// messages and for the status lines of a WARC export.
pub(crate) fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        206 => "Partial Content",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}
