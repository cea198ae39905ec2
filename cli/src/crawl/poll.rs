//! Phase two: poll due feeds and sitemaps, queue their new items, schedule the next poll.

use std::collections::HashSet;
use std::sync::Arc;

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use crawler::explore::{self, Document};
use crawler::fetch::{FetchError, Validators};
use crawler::schedule::{self, FeedState, Outcome, Severity};
use crawler::sitemap::{self, Kind};
use serde_json::json;
use store::feeds::{Feed, FeedKind, NewFeed, Poll};
use store::frontier::NewUrl;
use tokio::task::JoinSet;
use url::Url;

use super::discovery::feed_kind;
use super::{Engine, http_status};
use crate::progress::Counter;

/// How deep nested sitemap indexes are followed (an index's children are at depth 1).
const MAX_SITEMAP_DEPTH: i32 = 3;

/// One URL a feed or sitemap lists, with what it says about it.
struct Listed {
    url: String,
    published: Option<DateTime<Utc>>,
    title: Option<String>,
    meta: Option<serde_json::Value>,
}

impl Engine {
    /// Polls every due feed (every feed, when forced) until none is due. Returns how many polls.
    pub(super) async fn poll_due(self: &Arc<Self>, force: bool) -> Result<usize> {
        let mut done: HashSet<i64> = HashSet::new();
        let mut first = true;
        loop {
            if self.stopping() {
                break;
            }
            let batch: Vec<Feed> = if force && first {
                store::feeds::list(&self.archive).await?
            } else {
                store::feeds::due(&self.archive, Utc::now(), 500).await?
            };
            first = false;
            let batch: Vec<Feed> = batch.into_iter().filter(|feed| done.insert(feed.id)).collect();
            if batch.is_empty() {
                break;
            }
            let mut tasks = JoinSet::new();
            for feed in batch {
                let this = Arc::clone(self);
                tasks.spawn(async move { this.poll_one(feed).await });
            }
            while let Some(joined) = tasks.join_next().await {
                joined??;
            }
        }
        Ok(done.len())
    }

    async fn poll_one(&self, feed: Feed) -> Result<()> {
        let now = Utc::now();
        let validators =
            Validators { etag: feed.etag.clone(), last_modified: feed.last_modified.clone() };
        let (outcome, status, body_hash, hint, etag, last_modified) = match Url::parse(&feed.url) {
            Err(_) => (
                Outcome::Failed { severity: Severity::Hard, status: None, retry_after: None },
                "bad URL".to_owned(),
                None,
                None,
                None,
                None,
            ),
            Ok(url) => {
                let result = self.client.get(&url, &validators, explore::FEED_ACCEPT).await;
                if !matches!(result, Err(FetchError::Denied { .. })) {
                    self.archive_exchange(&feed.url, result.as_ref(), None, Some(feed.id)).await?;
                }
                match result {
                    Err(err) => {
                        let severity = match &err {
                            FetchError::Dns { .. } => Severity::Temporary,
                            FetchError::NotHttp { .. }
                            | FetchError::Refused { .. }
                            | FetchError::Denied { .. } => Severity::Hard,
                            _ => Severity::Soft,
                        };
                        let status = err.status();
                        let outcome = Outcome::Failed { severity, status: None, retry_after: None };
                        (outcome, status, None, None, None, None)
                    }
                    Ok(fetched) => {
                        let etag = fetched.header("etag").map(str::to_owned);
                        let last_modified = fetched.header("last-modified").map(str::to_owned);
                        if fetched.status == 304 {
                            (
                                Outcome::Unchanged,
                                "Not modified".to_owned(),
                                None,
                                None,
                                etag,
                                last_modified,
                            )
                        } else if fetched.status != 200 {
                            let retry_after = fetched
                                .retry_after()
                                .and_then(|wait| Duration::from_std(wait).ok());
                            let outcome = Outcome::Failed {
                                severity: Severity::of_status(fetched.status),
                                status: Some(fetched.status),
                                retry_after,
                            };
                            (outcome, http_status(fetched.status), None, None, None, None)
                        } else {
                            let hash = store::fetches::sha256_hex(&fetched.body);
                            if feed.body_hash.as_deref() == Some(hash.as_str()) {
                                (
                                    Outcome::Unchanged,
                                    "Unchanged".to_owned(),
                                    None,
                                    None,
                                    etag,
                                    last_modified,
                                )
                            } else {
                                let max = self.settings.client.fetch.max_decoded_bytes;
                                match explore::read_document(
                                    &fetched.body,
                                    &fetched.final_url,
                                    max,
                                    true,
                                    true,
                                ) {
                                    Err(reason) => {
                                        let outcome = Outcome::Failed {
                                            severity: Severity::Soft,
                                            status: Some(200),
                                            retry_after: None,
                                        };
                                        (
                                            outcome,
                                            format!("unreadable: {reason}"),
                                            None,
                                            None,
                                            None,
                                            None,
                                        )
                                    }
                                    Ok(document) => {
                                        let kind = feed_kind(document.kind());
                                        if kind != feed.kind {
                                            store::feeds::set_kind(&self.archive, feed.id, kind)
                                                .await?;
                                        }
                                        let hint = match &document {
                                            Document::Feed(parsed) => parsed.update_hint,
                                            Document::Sitemap(_) => None,
                                        };
                                        let (new, total) =
                                            self.take_items(&feed, document, now).await?;
                                        (
                                            Outcome::Items { new, total },
                                            "Working".to_owned(),
                                            Some(hash),
                                            hint,
                                            etag,
                                            last_modified,
                                        )
                                    }
                                }
                            }
                        }
                    }
                }
            }
        };
        self.progress.add(Counter::Polled, 1);
        if matches!(outcome, Outcome::Failed { .. }) {
            self.progress.add(Counter::Failed, 1);
            tracing::warn!(feed = %feed.url, %status, "poll failed");
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
        for item in listed {
            if item.published.is_some_and(|at| at < since) {
                continue;
            }
            if self.enqueue(feed, item).await? {
                new += 1;
            }
        }
        self.progress.add(Counter::Queued, u64::from(new));
        Ok((new, total))
    }

    /// Puts a URL in the frontier, after its host's last queued URL. Returns whether it is new.
    async fn enqueue(&self, feed: &Feed, item: Listed) -> Result<bool> {
        let Some(lossy_url) = normalizer::lossy_url(&item.url) else { return Ok(false) };
        let host = store::frontier::host_of(&item.url);
        let interval = Duration::from_std(self.client.gate().interval(&host).await)
            .unwrap_or(Duration::seconds(5));
        let mut slots = self.slots.lock().await;
        let now = Utc::now();
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
            hint_title: item.title,
            hint_meta: item.meta,
        };
        let (_, is_new) = store::frontier::enqueue(&self.archive, &new).await?;
        if is_new {
            slots.insert(host, slot + interval);
        } else {
            slots.insert(host, slot);
        }
        Ok(is_new)
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
            if crawler::discover::sitemap_preference(&url).is_none() {
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
