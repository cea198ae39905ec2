//! Stage two: poll due feeds and sitemaps, queue their new items, schedule the next poll; and the
//! round's first two stages together ([`Engine::discover_and_poll`]).

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use crawler::explore::{self, Document};
use crawler::fetch::{FetchError, Validators};
use crawler::schedule::{self, FeedState, Outcome, Severity};
use crawler::sitemap::{self, Kind};
use serde_json::json;
use store::claims::Kind as Work;
use store::feeds::{Feed, FeedKind, NewFeed, Poll};
use store::frontier::NewUrl;
use tokio::task::JoinSet;
use url::Url;

use super::discovery::{Searched, feed_kind};
use super::{Engine, http_status};
use crate::progress::{Activity, Counter};
use crate::{Error, Result, chain};

/// How deep nested sitemap indexes are followed (an index's children are at depth 1).
const MAX_SITEMAP_DEPTH: i32 = 3;

/// What became of a listed URL.
enum Queued {
    /// New to the frontier.
    New,
    /// Already there (or not a URL that can be keyed).
    Known,
    /// Left out: longer than the archive keeps.
    TooLong,
}

/// One URL a feed or sitemap lists, with what it says about it.
struct Listed {
    url: String,
    published: Option<DateTime<Utc>>,
    title: Option<String>,
    meta: Option<serde_json::Value>,
}

/// What one poll came to, before it is scheduled and recorded.
struct Polled {
    outcome: Outcome,
    /// The status for people: `Working`, `HTTP 404 Not Found`, `unreadable: …`.
    status: String,
    body_hash: Option<String>,
    hint: Option<Duration>,
    etag: Option<String>,
    last_modified: Option<String>,
}

impl Polled {
    fn failed(severity: Severity, status: Option<u16>, text: String) -> Polled {
        Polled::failed_until(severity, status, None, text)
    }

    /// A failure after which the server (or robots.txt) said how long to wait.
    fn failed_until(
        severity: Severity,
        status: Option<u16>,
        retry_after: Option<Duration>,
        text: String,
    ) -> Polled {
        Polled {
            outcome: Outcome::Failed { severity, status, retry_after },
            status: text,
            body_hash: None,
            hint: None,
            etag: None,
            last_modified: None,
        }
    }
}

impl Engine {
    /// Stages one and two of a round: searches the sources never searched and polls due feeds
    /// (every feed, when forced), polling each source's feeds as soon as its own search ends, then
    /// whatever became due meanwhile (sitemap children), until nothing is due. Returns how many
    /// sources were searched and how many polls were made.
    pub(super) async fn discover_and_poll(self: &Arc<Self>, force: bool) -> Result<(usize, usize)> {
        let mut searches = JoinSet::new();
        for source in store::sources::undiscovered(&self.archive).await? {
            let this = Arc::clone(self);
            searches.spawn(this.search(source));
        }
        let mut polls: JoinSet<Result<()>> = JoinSet::new();
        let mut done: HashSet<i64> = HashSet::new();
        let started = self.clock.now();
        let first = if force {
            store::feeds::list(&self.archive).await?
        } else {
            store::feeds::due(&self.archive, started, 500).await?
        };
        let forced = force.then_some(started);
        self.start_polls(first, forced, &mut done, &mut polls);
        let mut searched = 0;
        loop {
            tokio::select! {
                Some(joined) = searches.join_next() => {
                    let outcome = joined.map_err(|source| Error::Task { what: "search", source });
                    if let Searched::Done(source_id) = outcome?? {
                        searched += 1;
                        let now = self.clock.now();
                        let feeds = store::feeds::for_source(&self.archive, source_id).await?;
                        let due = feeds.into_iter().filter(|f| f.next_poll_at.is_none_or(|at| at <= now));
                        self.start_polls(due.collect(), None, &mut done, &mut polls);
                    }
                }
                Some(joined) = polls.join_next() => {
                    joined.map_err(|source| Error::Task { what: "poll", source })??;
                }
                else => {
                    // Nothing in flight: what became due meanwhile (sitemap children, say).
                    if self.stopping() {
                        break;
                    }
                    let due = store::feeds::due(&self.archive, self.clock.now(), 500).await?;
                    if !self.start_polls(due, None, &mut done, &mut polls) {
                        break;
                    }
                }
            }
        }
        Ok((searched, done.len()))
    }

    /// Starts a poll of each of these feeds not polled yet in this round (forced: each not polled
    /// since `forced`, due or not). Returns whether any was.
    fn start_polls(
        self: &Arc<Self>,
        feeds: Vec<Feed>,
        forced: Option<DateTime<Utc>>,
        done: &mut HashSet<i64>,
        polls: &mut JoinSet<Result<()>>,
    ) -> bool {
        let mut started = false;
        for feed in feeds {
            if self.stopping() || !done.insert(feed.id) {
                continue;
            }
            let this = Arc::clone(self);
            polls.spawn(async move { this.poll_claimed(feed, forced).await });
            started = true;
        }
        started
    }

    /// Polls one feed if this worker can claim its poll and it is still due when claimed (another
    /// worker may have polled it since it was read): one worker polls a feed when it is due.
    async fn poll_claimed(&self, feed: Feed, forced: Option<DateTime<Utc>>) -> Result<()> {
        let key = feed.id.to_string();
        if !self.claim(Work::Poll, &key).await? {
            return Ok(());
        }
        let fresh = store::feeds::get(&self.archive, feed.id).await?;
        let now = self.clock.now();
        let due = match forced {
            Some(since) => fresh.last_polled_at.is_none_or(|at| at < since),
            None => fresh.next_poll_at.is_none_or(|at| at <= now),
        };
        let result = if due { self.poll_one(fresh).await } else { Ok(()) };
        self.give_back(Work::Poll, &key).await;
        result
    }

    /// Polls one feed and records the outcome. What the feed serves never makes this fail: when
    /// storing what it listed fails, that is recorded as the poll's failure; only a failure to
    /// record the poll at all (the archive is unusable) is an error.
    async fn poll_one(&self, feed: Feed) -> Result<()> {
        let _busy = self.progress.begin(Activity::Polling);
        let now = self.clock.now();
        let polled = match self.poll_feed(&feed, now).await {
            Ok(polled) => polled,
            // Not the feed's failure: it stays due, and is polled again at the next round.
            Err(err) if err.connection_lost() => {
                tracing::warn!(feed = %feed.url, "poll put off: {}", chain(&err));
                return Ok(());
            }
            // Nothing more can be stored: the crawl stops, the feed still due.
            Err(err) if err.is_full() => return Err(err),
            Err(err) => Polled::failed(
                Severity::Soft,
                None,
                format!("cannot store the poll: {}", chain(&err)),
            ),
        };
        if let Err(err) = self.record(&feed, now, polled).await {
            if err.is_full() {
                return Err(err);
            }
            let err = chain(&err);
            tracing::warn!(feed = %feed.url, "cannot record a poll: {err}");
            let failure =
                Polled::failed(Severity::Soft, None, format!("cannot record the poll: {err}"));
            self.record(&feed, now, failure).await?;
        }
        Ok(())
    }

    /// Fetches and reads a feed, and queues its new items.
    async fn poll_feed(&self, feed: &Feed, now: DateTime<Utc>) -> Result<Polled> {
        let Ok(url) = Url::parse(&feed.url) else {
            return Ok(Polled::failed(Severity::Hard, None, "bad URL".to_owned()));
        };
        let validators =
            Validators { etag: feed.etag.clone(), last_modified: feed.last_modified.clone() };
        let result = self.client.get(&url, &validators, explore::FEED_ACCEPT).await;
        // Nothing was requested when the polite layer held the request back.
        if !matches!(result, Err(FetchError::Denied { .. } | FetchError::RobotsUnreachable { .. }))
        {
            self.archive_exchange(&feed.url, result.as_ref(), None, Some(feed.id)).await?;
        }
        let fetched = match result {
            Err(FetchError::RobotsUnreachable { reason, retry_in, .. }) => {
                return Ok(Polled::failed_until(
                    Severity::Temporary,
                    None,
                    Duration::from_std(retry_in).ok(),
                    format!("robots.txt unreachable ({reason})"),
                ));
            }
            Err(err) => {
                let severity = match &err {
                    FetchError::Dns { .. } => Severity::Temporary,
                    FetchError::NotHttp { .. }
                    | FetchError::Refused { .. }
                    | FetchError::Denied { .. } => Severity::Hard,
                    _ => Severity::Soft,
                };
                return Ok(Polled::failed(severity, None, err.status()));
            }
            Ok(fetched) => fetched,
        };
        let etag = fetched.header("etag").map(str::to_owned);
        let last_modified = fetched.header("last-modified").map(str::to_owned);
        let unchanged = |status: &str| Polled {
            outcome: Outcome::Unchanged,
            status: status.to_owned(),
            body_hash: None,
            hint: None,
            etag: etag.clone(),
            last_modified: last_modified.clone(),
        };
        if fetched.status == 304 {
            return Ok(unchanged("Not modified"));
        }
        if fetched.status != 200 {
            return Ok(Polled::failed_until(
                Severity::of_status(fetched.status),
                Some(fetched.status),
                fetched.retry_after().and_then(|wait| Duration::from_std(wait).ok()),
                http_status(fetched.status),
            ));
        }
        let hash = store::fetches::sha256_hex(&fetched.body);
        if feed.body_hash.as_deref() == Some(hash.as_str()) {
            return Ok(unchanged("Unchanged"));
        }
        let max = self.settings.client.fetch.max_decoded_bytes;
        let content_type = fetched.header("content-type");
        let document = match explore::read_document_with_content_type(
            &fetched.body,
            &fetched.final_url,
            content_type,
            max,
            true,
            true,
        ) {
            Err(reason) => {
                return Ok(Polled::failed(
                    Severity::Soft,
                    Some(200),
                    format!("unreadable: {reason}"),
                ));
            }
            Ok(document) => document,
        };
        if let explore::Document::Feed(parsed) = &document
            && !parsed.warnings.is_empty()
        {
            tracing::info!(feed = %feed.url, warnings = ?parsed.warnings, "feed read with warnings");
        }
        let kind = feed_kind(document.kind());
        if kind != feed.kind {
            store::feeds::set_kind(&self.archive, feed.id, kind).await?;
        }
        let hint = match &document {
            Document::Feed(parsed) => parsed.update_hint,
            Document::Sitemap(_) => None,
        };
        let (new, total) = self.take_items(feed, document, now).await?;
        Ok(Polled {
            outcome: Outcome::Items { new, total },
            status: "Working".to_owned(),
            body_hash: Some(hash),
            hint,
            etag,
            last_modified,
        })
    }

    /// Schedules the next poll after this one and records both.
    async fn record(&self, feed: &Feed, now: DateTime<Utc>, polled: Polled) -> Result<()> {
        let Polled { outcome, status, body_hash, hint, etag, last_modified } = polled;
        self.progress.add(Counter::Polled, 1);
        if matches!(outcome, Outcome::Failed { .. }) {
            self.progress.add(Counter::Failed, 1);
            tracing::warn!(feed = %feed.url, status = %store::text::line(&status), "poll failed");
        }
        let hint = hint.or_else(|| feed.update_hint_secs.map(Duration::seconds));
        let state = FeedState {
            interval: Duration::seconds(feed.poll_interval_secs),
            hint,
            failures: feed.failure_count,
            last_success: feed.last_success_at,
            last_new_item: feed.last_new_item_at.or(Some(feed.created_at)),
        };
        let polls_seed = feed.last_polled_at.map_or(0, |at| at.timestamp() as u64);
        let next = schedule::next_poll(&state, outcome, now, feed.id as u64 ^ polls_seed);
        let found_new = matches!(outcome, Outcome::Items { new, .. } if new > 0);
        let poll = Poll {
            polled_at: now,
            success: !matches!(outcome, Outcome::Failed { .. }),
            status,
            etag,
            last_modified,
            body_hash,
            found_new_items: found_new,
            update_hint_secs: hint.map(|h| h.num_seconds()),
            failure_count: next.failures,
            poll_interval_secs: next.interval.num_seconds(),
            next_poll_at: next.at,
        };
        store::feeds::record_poll(&self.archive, feed.id, &poll).await?;
        Ok(())
    }

    /// Queues a document's items (or adds a sitemap index's children). Returns (new, total).
    async fn take_items(
        &self,
        feed: &Feed,
        document: Document,
        now: DateTime<Utc>,
    ) -> Result<(u32, u32)> {
        let listed: Vec<Listed> = match document {
            Document::Feed(parsed) => parsed
                .items
                .into_iter()
                .map(|item| Listed {
                    url: item.url,
                    published: item.published,
                    title: item.title,
                    meta: item.guid.map(|guid| json!({"guid": {"value": guid, "from": "feed"}})),
                })
                .collect(),
            Document::Sitemap(map) if map.kind == Kind::Index => {
                return self.add_children(feed, &map.entries).await;
            }
            Document::Sitemap(map) => map
                .entries
                .into_iter()
                .map(|entry| {
                    let news = entry.news.unwrap_or_default();
                    let mut meta = serde_json::Map::new();
                    let from = "news sitemap";
                    for (key, value) in [
                        ("news:name", news.publication_name.clone()),
                        ("news:language", news.language.clone()),
                        ("news:keywords", news.keywords.clone()),
                    ] {
                        if let Some(value) = value {
                            meta.insert(key.to_owned(), json!({"value": value, "from": from}));
                        }
                    }
                    if let Some(lastmod) = entry.lastmod {
                        meta.insert(
                            "lastmod".to_owned(),
                            json!({"value": lastmod.to_rfc3339(), "from": "sitemap"}),
                        );
                    }
                    Listed {
                        url: entry.loc,
                        published: news.publication_date.or(entry.lastmod),
                        title: news.title,
                        meta: (!meta.is_empty()).then_some(serde_json::Value::Object(meta)),
                    }
                })
                .collect(),
        };
        let total = listed.len() as u32;
        let since = now - self.settings.since;
        let mut new = 0;
        let mut too_long = 0;
        for item in listed {
            if item.published.is_some_and(|at| at < since) {
                continue;
            }
            match self.enqueue(feed, item).await? {
                Queued::New => new += 1,
                Queued::Known => {}
                Queued::TooLong => too_long += 1,
            }
        }
        if too_long > 0 {
            tracing::warn!(
                feed = %feed.url, too_long,
                "left out items whose URL is longer than {} bytes", store::text::MAX_LINE
            );
        }
        if new > 0 {
            self.queued.notify_one();
        }
        self.progress.add(Counter::Queued, u64::from(new));
        Ok((new, total))
    }

    /// Puts a URL in the frontier, after its host's last queued URL.
    async fn enqueue(&self, feed: &Feed, item: Listed) -> Result<Queued> {
        // A URL the archive would cut leads elsewhere: such items are left out whole. The title
        // is cut here already, as the archive would (a feed may give megabytes of it).
        let Some(lossy_url) = normalizer::lossy_url(&item.url) else { return Ok(Queued::Known) };
        if !store::text::fits_line(&item.url) || !store::text::fits_line(&lossy_url) {
            return Ok(Queued::TooLong);
        }
        let title = item.title.as_deref().map(|title| store::text::line(title).into_owned());
        let host = store::frontier::host_of(&item.url);
        let interval = Duration::from_std(self.client.gate().interval(&host).await)
            .unwrap_or(Duration::seconds(5));
        let mut slots = self.slots.lock().await;
        let now = self.clock.now();
        let slot = match slots.get(&host) {
            Some(&next) => next.max(now),
            None => match store::frontier::last_slot(&self.archive, &host).await? {
                Some(last) => (last + interval).max(now),
                None => now,
            },
        };
        let new = NewUrl {
            url: item.url,
            lossy_url,
            source_id: feed.source_id,
            feed_id: Some(feed.id),
            next_attempt_at: slot,
            hint_published_at: item.published,
            hint_title: title,
            hint_meta: item.meta,
        };
        let (_, is_new) = store::frontier::enqueue(&self.archive, &new).await?;
        if is_new {
            slots.insert(host, slot + interval);
            Ok(Queued::New)
        } else {
            slots.insert(host, slot);
            Ok(Queued::Known)
        }
    }

    /// Adds the children of a sitemap index as sitemaps of their own. Returns (new, total).
    async fn add_children(&self, index: &Feed, entries: &[sitemap::Entry]) -> Result<(u32, u32)> {
        if index.depth >= MAX_SITEMAP_DEPTH {
            tracing::warn!(sitemap = %index.url, "sitemap index nested too deep; children not followed");
            return Ok((0, entries.len() as u32));
        }
        let mut new = 0;
        for entry in entries {
            let Ok(url) = Url::parse(&entry.loc) else { continue };
            if crawler::discover::sitemap_preference(&url).is_none()
                || !store::text::fits_line(url.as_str())
            {
                continue;
            }
            let Some(url_key) = normalizer::feed_url_key(url.as_str()) else { continue };
            let child = NewFeed {
                source_id: index.source_id,
                url: url.to_string(),
                url_key,
                // What it really is shows at its first poll; the kind is corrected then.
                kind: FeedKind::Sitemap,
                title: None,
                discovered_via: format!("sitemap index {}", index.url),
                depth: index.depth + 1,
                update_hint_secs: None,
                poll_interval_secs: schedule::DEFAULT_INTERVAL.num_seconds(),
                next_poll_at: None,
            };
            let (_, is_new) = store::feeds::add(&self.archive, &child).await?;
            if is_new {
                new += 1;
            }
        }
        Ok((new, entries.len() as u32))
    }
}
