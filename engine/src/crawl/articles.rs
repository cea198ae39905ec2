//! Stage three: lease due URLs, fetch them politely, archive, extract and store, while the round's
//! searches and polls may still queue more.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use crawler::explore::PAGE_ACCEPT;
use crawler::fetch::{FetchError, Fetched, Validators};
use store::frontier::{Entry, LeaseRequest, State};
use tokio::sync::watch;
use tokio::task::JoinSet;
use url::Url;

use super::{Engine, LEASE, Mode, http_status};
use crate::ingest::{self, Ingested, Page};
use crate::progress::Counter;
use crate::{Error, Result, chain};

/// Attempts before a URL is given up on.
const MAX_ATTEMPTS: i32 = 4;

/// How long a URL may wait for its host's robots.txt to become readable, counted from when it was
/// queued: after that the outage is taken as a full disallow and the URL is skipped.
const ROBOTS_GIVE_UP: Duration = Duration::days(30);

/// How old an archived response of a page may be and still stand for its fetch.
const REUSE_WINDOW: Duration = Duration::days(1);

/// How many times one article waits for another fetch of its redirect target before it follows
/// its redirects unchecked.
const BUSY_WAITS: u32 = 3;

/// Why a redirect was not followed.
enum Declined {
    /// The target page is archived already: this response is its fetch.
    Archived(Box<store::fetches::StoredFetch>),
    /// The target's frontier entry (this lossy key) is leased to another fetch now.
    Busy(String),
}

/// The redirect check of one article fetch: follows no redirect to a page archived already or
/// being fetched elsewhere, and leases the target's own frontier entry from its request until
/// its response is archived.
struct RedirectCheck<'e> {
    engine: &'e Engine,
    entry: &'e Entry,
    state: tokio::sync::Mutex<CheckState>,
}

#[derive(Default)]
struct CheckState {
    declined: Option<Declined>,
    /// Frontier entries leased until this fetch's response is archived (redirect targets).
    leased: Vec<i64>,
    /// An archive error met while checking, reported when the fetch ends.
    error: Option<store::Error>,
}

impl<'e> RedirectCheck<'e> {
    fn new(engine: &'e Engine, entry: &'e Entry) -> RedirectCheck<'e> {
        RedirectCheck { engine, entry, state: tokio::sync::Mutex::new(CheckState::default()) }
    }

    async fn check(&self, url: &Url) -> std::result::Result<(), FetchError> {
        let Some(lossy) = normalizer::lossy_url(url.as_str()) else { return Ok(()) };
        if lossy == self.entry.lossy_url {
            return Ok(());
        }
        let mut state = self.state.lock().await;
        let archive = &self.engine.archive;
        let since = Utc::now() - REUSE_WINDOW;
        let decline =
            |reason: &str| FetchError::Declined { url: url.clone(), reason: reason.to_owned() };
        match store::fetches::reusable(archive, &lossy, since).await {
            Ok(Some(archived)) => {
                state.declined = Some(Declined::Archived(Box::new(archived)));
                return Err(decline("the page is archived already"));
            }
            Ok(None) => {}
            Err(err) => {
                state.error = Some(err);
                return Err(decline("the archive could not be read"));
            }
        }
        let lease = Duration::from_std(LEASE).unwrap_or(Duration::minutes(30));
        let owner = &self.engine.settings.worker;
        match store::frontier::lease_page(archive, &lossy, owner, self.engine.clock.now(), lease)
            .await
        {
            Ok(store::frontier::PageLease::Leased(target)) => state.leased.push(target.id),
            Ok(store::frontier::PageLease::Held(_)) => {
                state.declined = Some(Declined::Busy(lossy));
                return Err(decline("the page is being fetched elsewhere"));
            }
            Ok(_) => {}
            Err(err) => {
                state.error = Some(err);
                return Err(decline("the archive could not be read"));
            }
        }
        Ok(())
    }

    /// Says why a redirect was declined, if one was, or the archive error met while checking.
    /// The leases taken for redirect targets stand until [`RedirectCheck::release`].
    async fn outcome(&self) -> Result<Option<Declined>> {
        let mut state = self.state.lock().await;
        if let Some(err) = state.error.take() {
            return Err(err.into());
        }
        Ok(state.declined.take())
    }

    /// Gives back the leases taken for redirect targets. Called once the response is archived
    /// (or there is none): a target is then fetched again as itself, which finds this response
    /// archived. Given back earlier, another worker could lease the target and request it while
    /// this response was still on its way to the archive.
    async fn release(self) -> Result<()> {
        let state = self.state.into_inner();
        for id in &state.leased {
            store::frontier::release_page(&self.engine.archive, *id, &self.engine.settings.worker)
                .await?;
        }
        Ok(())
    }
}

impl crawler::fetch::BeforeHop for RedirectCheck<'_> {
    fn before_hop<'a>(&'a self, url: &'a Url) -> crawler::fetch::HopFuture<'a> {
        Box::pin(self.check(url))
    }
}

/// How a fetched article ends.
enum Settle {
    Done,
    Skipped(String),
    Retry {
        error: String,
        at: Option<DateTime<Utc>>,
    },
    Failed(String),
    /// Not requested: kept for `at`, its attempt not counted.
    Deferred {
        reason: String,
        at: DateTime<Utc>,
    },
}

impl Engine {
    /// Fetches due URLs (in [`Mode::Once`], every URL never attempted counts as due) until none
    /// is due and the round's searches and polls, which `upstream` says are done by turning true
    /// or closing, can queue no more. Returns how many fetches were started.
    pub(super) async fn fetch_due(
        self: &Arc<Self>,
        mut upstream: watch::Receiver<bool>,
    ) -> Result<usize> {
        let batch = (self.settings.concurrency * 8).max(64);
        let mut tasks: JoinSet<Result<()>> = JoinSet::new();
        let mut started = 0;
        let mut upstream_done = *upstream.borrow_and_update();
        // Nothing to lease, and no need to look again until new URLs are queued.
        let mut idle = false;
        let mut exhausted = false;
        let mut feeds_checked = std::time::Instant::now();
        // The first failure that ends the crawl (a fetch's, or the archive's while leasing):
        // returned once the fetches in flight are done, none of them cancelled mid-transaction.
        let mut failed: Option<Error> = None;
        loop {
            // A standing crawl never lets a long backlog of articles keep due feeds waiting: once
            // one is due, no more URLs are leased and the pass moves on after the work in flight.
            if self.mode == Mode::Forever
                && upstream_done
                && !exhausted
                && feeds_checked.elapsed() >= std::time::Duration::from_secs(30)
            {
                feeds_checked = std::time::Instant::now();
                match store::feeds::next_due(&self.archive).await {
                    Ok(due) => exhausted = due.is_some_and(|at| at <= self.clock.now()),
                    Err(err) => {
                        self.halt();
                        failed.get_or_insert(err.into());
                    }
                }
            }
            if !exhausted && !idle && !self.stopping() && tasks.len() < batch / 2 {
                let limit = (batch - tasks.len()) as u64;
                let leased = match self.lease(limit, upstream_done && tasks.is_empty()).await {
                    Ok(leased) => leased,
                    Err(err) => {
                        self.halt();
                        failed.get_or_insert(err);
                        Vec::new()
                    }
                };
                if leased.is_empty() {
                    if upstream_done {
                        exhausted = true;
                    } else {
                        idle = true;
                    }
                }
                for entry in leased {
                    started += 1;
                    let this = Arc::clone(self);
                    tasks.spawn(async move { this.fetch_one(entry).await });
                }
            }
            if tasks.is_empty() && (exhausted || self.stopping()) {
                break;
            }
            tokio::select! {
                Some(joined) = tasks.join_next() => {
                    let outcome = joined
                        .map_err(|source| Error::Task { what: "fetch", source })
                        .and_then(|result| result);
                    if let Err(err) = outcome {
                        // The crawl ends: the fetches in flight finish (or fail) rather than
                        // being cancelled mid-transaction, and nothing new is leased.
                        self.halt();
                        failed.get_or_insert(err);
                    }
                }
                () = self.queued.notified(), if idle => idle = false,
                _ = upstream.changed(), if !upstream_done => {
                    upstream_done = true;
                    idle = false;
                }
                else => {}
            }
        }
        match failed {
            Some(err) => Err(err),
            None => Ok(started),
        }
    }

    /// Leases up to `limit` due URLs for this worker. With `settled` (the searches and polls
    /// are done and nothing is in flight) and nothing due, leases left under this worker's name
    /// are taken back first: they can only be a killed predecessor's.
    async fn lease(&self, limit: u64, settled: bool) -> Result<Vec<Entry>> {
        let now = self.clock.now();
        let fresh_until = match self.mode {
            Mode::Once => now + Duration::days(3650),
            Mode::Forever => now + Duration::seconds(30),
        };
        // Hosts whose robots.txt cannot be read now: their URLs can only wait.
        let skip_hosts = self.client.unreachable_hosts();
        let request = LeaseRequest {
            now,
            fresh_until,
            limit,
            owner: &self.settings.worker,
            lease_for: Duration::from_std(LEASE).unwrap_or(Duration::minutes(30)),
            skip_hosts: &skip_hosts,
        };
        let leased = store::frontier::lease(&self.archive, &request).await?;
        if !leased.is_empty() || !settled {
            return Ok(leased);
        }
        // Nothing in flight, so any lease under this worker's name is not its own: a statement
        // of a killed predecessor of the same name that the server committed after this worker
        // took its leases back. Take those back too before calling the work done.
        let stray = store::frontier::release(&self.archive, request.owner, now).await?;
        if stray == 0 {
            return Ok(leased);
        }
        tracing::info!(
            worker = request.owner,
            released = stray,
            "took back leases a killed predecessor of the same name left"
        );
        Ok(store::frontier::lease(&self.archive, &request).await?)
    }

    /// Fetches and stores one leased URL, then settles it. What the page is never makes this
    /// fail: when storing it fails, the URL is retried later like a failed fetch; only a failure
    /// to settle the URL (the archive is unusable) is an error.
    async fn fetch_one(&self, entry: Entry) -> Result<()> {
        let settle = match self.fetch_article(&entry).await {
            Ok(settle) => settle,
            // The archive's connection was lost while storing (a transaction died with it): the
            // page is fetched and stored again at once, its attempt not counted.
            Err(err) if err.connection_lost() => Settle::Deferred {
                reason: format!("the archive's connection was lost: {}", chain(&err)),
                at: self.clock.now(),
            },
            // Nothing more can be stored: the crawl stops; the URL's lease is given back when
            // the worker stops, and it is fetched again by the next crawl.
            Err(err) if err.is_full() => return Err(err),
            Err(err) => {
                Settle::Retry { error: format!("cannot store the page: {}", chain(&err)), at: None }
            }
        };
        let now = self.clock.now();
        match settle {
            Settle::Done => {
                store::frontier::settle(&self.archive, entry.id, State::Done, None, None).await?;
            }
            Settle::Skipped(reason) => {
                self.progress.add(Counter::Skipped, 1);
                tracing::debug!(url = %entry.url, %reason, "skipped");
                store::frontier::settle(
                    &self.archive,
                    entry.id,
                    State::Skipped,
                    Some(&reason),
                    None,
                )
                .await?;
            }
            Settle::Deferred { reason, at } => {
                self.progress.add(Counter::Deferred, 1);
                tracing::debug!(url = %entry.url, %reason, %at, "deferred");
                store::frontier::defer(&self.archive, entry.id, &reason, at).await?;
            }
            Settle::Retry { error, at } if entry.attempts < MAX_ATTEMPTS => {
                // 15 minutes, then 30, then an hour, unless the server said when.
                let backoff = Duration::minutes(15 << (entry.attempts - 1).clamp(0, 6));
                let at = at.unwrap_or(now + backoff);
                tracing::debug!(url = %entry.url, %error, %at, "will retry");
                store::frontier::settle(
                    &self.archive,
                    entry.id,
                    State::Pending,
                    Some(&error),
                    Some(at),
                )
                .await?;
            }
            Settle::Retry { error, .. } | Settle::Failed(error) => {
                self.progress.add(Counter::Failed, 1);
                tracing::info!(url = %entry.url, %error, attempts = entry.attempts, "gave up");
                store::frontier::settle(&self.archive, entry.id, State::Failed, Some(&error), None)
                    .await?;
            }
        }
        Ok(())
    }

    /// Fetches, archives, extracts and stores one URL; says how it ends.
    ///
    /// **Each page is requested once.** A response of this page already archived (fetched while
    /// discovery checked the homepage's links or guessed feeds, at the end of another URL's
    /// redirect chain, or by a worker killed before it stored the story) is this article's fetch,
    /// and nothing is requested. A redirect is not followed to a page that is archived already
    /// (that response is used) or that another task or worker is fetching now (its frontier entry
    /// is leased: this URL waits for it, then uses its response; after three waits it follows its
    /// redirects unchecked, so two URLs redirecting to each other end); a redirect target with an entry
    /// of its own is leased from the request until its response is archived, so that no one else
    /// requests it meanwhile.
    async fn fetch_article(&self, entry: &Entry) -> Result<Settle> {
        let Ok(url) = Url::parse(&entry.url) else {
            return Ok(Settle::Failed("bad URL".to_owned()));
        };
        let since = Utc::now() - REUSE_WINDOW;
        if let Some(archived) =
            store::fetches::reusable(&self.archive, &entry.lossy_url, since).await?
        {
            return self.settle_archived(entry, archived).await;
        }
        let mut waits = 0;
        let (result, check) = loop {
            if waits >= BUSY_WAITS {
                // The target stayed busy (two URLs redirecting to each other, each fetch waiting
                // for the other's, or a fetch elsewhere that takes minutes): follow redirects
                // unchecked rather than wait for ever.
                break (self.client.get(&url, &Validators::default(), PAGE_ACCEPT).await, None);
            }
            let check = RedirectCheck::new(self, entry);
            let result = self
                .client
                .get_checking_redirects(&url, &Validators::default(), PAGE_ACCEPT, &check)
                .await;
            let outcome = match check.outcome().await {
                Ok(outcome) => outcome,
                Err(err) => {
                    check.release().await?;
                    return Err(err);
                }
            };
            // A declined fetch archives no response: the leases its check took go back now.
            let check = if outcome.is_some() {
                check.release().await?;
                None
            } else {
                Some(check)
            };
            match (result, outcome) {
                (Err(FetchError::Declined { .. }), Some(Declined::Archived(archived))) => {
                    return self.settle_archived(entry, *archived).await;
                }
                (Err(FetchError::Declined { .. }), Some(Declined::Busy(lossy))) => {
                    // Another fetch of the target is under way: wait for it to settle, then ask
                    // again (its response will be archived by then, or it failed).
                    waits += 1;
                    if !self.wait_until_settled(&lossy).await? {
                        waits = BUSY_WAITS;
                    }
                    if let Some(archived) =
                        store::fetches::reusable(&self.archive, &lossy, since).await?
                    {
                        return self.settle_archived(entry, archived).await;
                    }
                }
                (result, _) => break (result, check),
            }
        };
        // The redirect targets' leases stand until the response is archived.
        let settled = self.settle_fetch(entry, result).await;
        if let Some(check) = check {
            check.release().await?;
        }
        settled
    }

    /// How a fetch of `entry`'s page ends: its response (or error) archived, then settled.
    async fn settle_fetch(
        &self,
        entry: &Entry,
        result: std::result::Result<Fetched, FetchError>,
    ) -> Result<Settle> {
        Ok(match result {
            Err(FetchError::Denied { reason, .. }) => Settle::Skipped(reason),
            Err(FetchError::RobotsUnreachable { reason, retry_in, .. }) => {
                let now = self.clock.now();
                if now - entry.discovered_at >= ROBOTS_GIVE_UP {
                    Settle::Skipped(format!(
                        "robots.txt unreachable ({reason}) for the {} days since the URL was \
                         queued: taken as disallowed",
                        ROBOTS_GIVE_UP.num_days()
                    ))
                } else {
                    let wait = Duration::from_std(retry_in).unwrap_or(Duration::hours(1));
                    Settle::Deferred {
                        reason: format!("robots.txt unreachable ({reason})"),
                        at: now + wait,
                    }
                }
            }
            Err(err) => {
                self.archive_exchange(&entry.url, Err(&err), Some(entry.id), None).await?;
                let permanent = matches!(
                    err,
                    FetchError::NotHttp { .. }
                        | FetchError::Refused { .. }
                        | FetchError::TooLarge { .. }
                        | FetchError::BadEncoding { .. }
                        | FetchError::TooManyRedirects { .. }
                        | FetchError::RedirectLoop { .. }
                );
                if permanent {
                    Settle::Failed(err.to_string())
                } else {
                    Settle::Retry { error: err.to_string(), at: None }
                }
            }
            Ok(fetched) => {
                let fetch_id =
                    self.archive_exchange(&entry.url, Ok(&fetched), Some(entry.id), None).await?;
                self.progress.add(Counter::Fetched, 1);
                self.settle_response(entry, fetched, fetch_id).await?
            }
        })
    }

    /// Stores an archived response of this entry's page as its fetch.
    async fn settle_archived(
        &self,
        entry: &Entry,
        archived: store::fetches::StoredFetch,
    ) -> Result<Settle> {
        let raw = archived.fetch;
        let (Ok(requested_url), Ok(final_url), Some(status)) =
            (Url::parse(&raw.requested_url), Url::parse(&raw.final_url), raw.status)
        else {
            return Ok(Settle::Retry {
                error: format!("archived fetch {} is not a response", archived.id),
                at: None,
            });
        };
        tracing::debug!(url = %entry.url, fetch = archived.id, "the page is archived already");
        self.progress.add(Counter::Reused, 1);
        crate::metrics::global().reused();
        let fetched = Fetched {
            requested_url,
            final_url,
            redirect_chain: raw.redirect_chain.iter().filter_map(|u| Url::parse(u).ok()).collect(),
            status,
            http_version: raw.request.as_ref().map(|r| r.http_version.clone()).unwrap_or_default(),
            request_headers: raw.request.map(|r| r.headers).unwrap_or_default(),
            headers: raw.headers,
            body: raw.body,
            started_at: raw.started_at,
            first_byte_ms: raw.first_byte_ms.unwrap_or_default(),
            total_ms: raw.total_ms.unwrap_or_default(),
        };
        self.settle_response(entry, fetched, archived.id).await
    }

    /// Waits until the frontier entry of `lossy_url` is no longer leased (its fetch settled, or
    /// its lease given back or expired). Returns false when it still is after 20 seconds.
    async fn wait_until_settled(&self, lossy_url: &str) -> Result<bool> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::time::Instant::now() < deadline && !self.stopping() {
            match store::frontier::by_lossy_url(&self.archive, lossy_url).await? {
                Some(other)
                    if other.state == State::Leased
                        && other.lease_until.is_some_and(|until| until > self.clock.now()) => {}
                _ => return Ok(true),
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        Ok(false)
    }

    async fn settle_response(
        &self,
        entry: &Entry,
        fetched: Fetched,
        fetch_id: i64,
    ) -> Result<Settle> {
        match fetched.status {
            200..=299 => {}
            429 | 503 => {
                let at = fetched
                    .retry_after()
                    .and_then(|wait| Duration::from_std(wait).ok())
                    .map(|wait| self.clock.now() + wait.min(Duration::days(1)));
                return Ok(Settle::Retry { error: http_status(fetched.status), at });
            }
            408 | 500..=599 => {
                return Ok(Settle::Retry { error: http_status(fetched.status), at: None });
            }
            status => return Ok(Settle::Failed(http_status(status))),
        }
        if let Some(media) = fetched.media_type()
            && !is_page(&media)
        {
            return Ok(Settle::Skipped(format!("not HTML ({media})")));
        }
        let source = self.source(entry.source_id).await?;
        let page = Page {
            url: entry.url.clone(),
            lossy_url: entry.lossy_url.clone(),
            final_url: fetched.final_url.to_string(),
            fetch_id: Some(fetch_id),
            content_type: fetched.header("content-type").map(str::to_owned),
            body: fetched.body,
            hint_published: entry.hint_published_at,
            hint_title: entry.hint_title.clone(),
            fetched_at: fetched.started_at,
        };
        let permit = Arc::clone(&self.cpu).acquire_owned().await?;
        let (page, extracted) = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let extracted = ingest::extract_page(&page);
            (page, extracted)
        })
        .await
        .map_err(|source| Error::Task { what: "extraction", source })?;
        if let Some(reason) = ingest::not_story(&extracted) {
            return Ok(Settle::Skipped(reason.to_owned()));
        }
        let sighting = ingest::sighting(&source, &page, &extracted);
        let stored = {
            let _locks = self.merging.lock(&sighting).await;
            ingest::store_sighting(&self.archive, &source, &sighting, self.settings.sentences)
                .await?
        };
        match stored {
            Ingested::New { .. } => {
                self.progress.add(Counter::Stored, 1);
                crate::metrics::global().stored();
            }
            Ingested::Known { .. } => self.progress.add(Counter::Known, 1),
        }
        Ok(Settle::Done)
    }
}

/// Whether a media type is a page the extractor reads.
fn is_page(media: &str) -> bool {
    matches!(
        media,
        "text/html" | "application/xhtml+xml" | "text/plain" | "application/xml" | "text/xml"
    ) || media.is_empty()
}
