//! Stage one: find the feeds and sitemaps of sources never searched.
//!
//! A source whose robots.txt cannot be read now (a 5xx, no answer) is not searched: nothing may be
//! fetched from it, and searching it anyway would find nothing and mark it searched for good. It
//! stays unsearched and is tried again at the next round or run.

use std::sync::Arc;

use crawler::client::RobotsVerdict;
use crawler::explore::{self, DocKind, Found, Limits};
use crawler::feed::Format;
use crawler::schedule;
use store::claims::Kind;
use store::feeds::{FeedKind, NewFeed};
use store::sources::Source;
use tokio::task::JoinSet;
use url::Url;

use super::Engine;
use crate::progress::{Activity, Counter};
use crate::{Error, Result};

/// How the search of one source ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Searched {
    /// Searched (whatever was found): this source id's feeds may be polled.
    Done(i64),
    /// Put off: its robots.txt cannot be read now.
    Deferred,
    /// Left to another worker, which has claimed it or searched it already.
    Elsewhere,
}

impl Engine {
    /// Searches these sources (again), several at a time. Returns how many were searched.
    pub async fn discover(self: &Arc<Self>, sources: Vec<Source>) -> Result<usize> {
        // Its claims are compared with other workers' (see `clock.rs`).
        self.clock.measure(&self.archive).await?;
        let mut tasks = JoinSet::new();
        for source in sources {
            if self.stopping() {
                break;
            }
            let this = Arc::clone(self);
            tasks.spawn(async move { this.search(source).await });
        }
        let mut searched = 0;
        while let Some(joined) = tasks.join_next().await {
            if let Searched::Done(_) =
                joined.map_err(|source| Error::Task { what: "discovery", source })??
            {
                searched += 1;
            }
        }
        Ok(searched)
    }

    /// Searches one source, unless another worker has claimed or searched it (one worker
    /// searches a source). What the source serves never makes this fail: a failure to store
    /// what was found is logged and the source marked searched; only a failure to mark it (the
    /// archive is unusable) is an error.
    pub(super) async fn search(self: Arc<Self>, source: Source) -> Result<Searched> {
        let key = source.id.to_string();
        if !self.claim(Kind::Discover, &key).await? {
            return Ok(Searched::Elsewhere);
        }
        // Claimed: unless another worker searched it between the list and the claim (a source
        // searched again on request was listed with its earlier search time).
        let fresh = store::sources::get(&self.archive, source.id).await?;
        let result = if fresh.discovered_at != source.discovered_at {
            Ok(Searched::Elsewhere)
        } else {
            Arc::clone(&self).search_claimed(fresh).await
        };
        self.give_back(Kind::Discover, &key).await;
        result
    }

    async fn search_claimed(self: Arc<Self>, source: Source) -> Result<Searched> {
        let _busy = self.progress.begin(Activity::Searching);
        match self.discover_one(&source).await {
            Ok(searched) => Ok(searched),
            // Not the source's failure: searched again at the next round or run.
            Err(err) if err.connection_lost() => {
                tracing::warn!(source = %source.name, "discovery put off: {}", crate::chain(&err));
                Ok(Searched::Deferred)
            }
            // Not the source's failure either, and nothing more can be stored: the crawl stops.
            Err(err) if err.is_full() => Err(err),
            Err(err) => {
                tracing::warn!(source = %source.name, "discovery failed: {}", crate::chain(&err));
                store::sources::mark_discovered(&self.archive, source.id, self.clock.now()).await?;
                self.progress.add(Counter::Discovered, 1);
                Ok(Searched::Done(source.id))
            }
        }
    }

    async fn discover_one(&self, source: &Source) -> Result<Searched> {
        let Ok(homepage) = Url::parse(&source.homepage) else {
            tracing::warn!(source = %source.name, homepage = %source.homepage, "not a usable homepage URL");
            store::sources::mark_discovered(&self.archive, source.id, self.clock.now()).await?;
            return Ok(Searched::Done(source.id));
        };
        if let RobotsVerdict::Unreachable { reason, retry_in } =
            self.client.robots_verdict(&homepage).await
        {
            tracing::warn!(
                source = %source.name, %reason, retry_in = ?retry_in,
                "robots.txt of {homepage} cannot be read; the source will be searched later"
            );
            return Ok(Searched::Deferred);
        }
        let limits = Limits {
            max_decoded_bytes: self.settings.client.fetch.max_decoded_bytes,
            ..Limits::default()
        };
        let discovery = explore::discover(&self.client, &homepage, limits).await;
        // The pages discovery fetched are archived before the source counts as searched, so that
        // an article among them is found archived (not requested again) by whichever worker
        // fetches it.
        self.flush_journal().await;
        let mut added = 0;
        for found in &discovery.found {
            if self.add_found(source, found).await? {
                added += 1;
            }
        }
        // A feed the site announces but that fails now is kept when nothing else was found, so
        // that it is polled (with backoff) and its failure shows, rather than the source looking
        // empty.
        let no_feeds = !discovery.found.iter().any(|f| matches!(f.kind, DocKind::Feed(_)));
        if no_feeds {
            for unconfirmed in &discovery.unconfirmed {
                tracing::warn!(
                    source = %source.name, feed = %unconfirmed.url,
                    reason = %store::text::line(&unconfirmed.reason),
                    "keeping an announced feed that could not be read"
                );
                let found = Found {
                    url: unconfirmed.url.clone(),
                    via: crawler::discover::Via::LinkTag,
                    kind: DocKind::Feed(Format::Rss),
                    title: None,
                    update_hint: None,
                };
                if self.add_found(source, &found).await? {
                    added += 1;
                }
            }
        }
        store::sources::mark_discovered(&self.archive, source.id, self.clock.now()).await?;
        self.progress.add(Counter::Discovered, 1);
        match (&discovery.homepage, discovery.found.is_empty()) {
            (Err(status), _) => tracing::warn!(
                source = %source.name, found = discovery.found.len(),
                "homepage {} failed ({}); {added} new feeds or sitemaps", source.homepage,
                store::text::line(status)
            ),
            (Ok(_), true) => tracing::warn!(
                source = %source.name, tried = discovery.tried,
                "no feeds or sitemaps found at {}", source.homepage
            ),
            (Ok(_), false) => tracing::debug!(
                source = %source.name, found = discovery.found.len(), added,
                "discovered feeds and sitemaps"
            ),
        }
        Ok(Searched::Done(source.id))
    }

    /// Adds a discovered feed or sitemap. Returns whether it is new to the archive.
    async fn add_found(&self, source: &Source, found: &Found) -> Result<bool> {
        // A URL the archive would cut leads elsewhere: not kept.
        if !store::text::fits_line(found.url.as_str()) {
            tracing::debug!(source = %source.name, "a feed URL too long to keep");
            return Ok(false);
        }
        let Some(url_key) = normalizer::feed_url_key(found.url.as_str()) else {
            return Ok(false);
        };
        let hint = found.update_hint;
        let new = NewFeed {
            source_id: source.id,
            url: found.url.to_string(),
            url_key,
            kind: feed_kind(found.kind),
            title: found.title.as_deref().map(|title| store::text::line(title).into_owned()),
            discovered_via: found.via.as_str().to_owned(),
            depth: 0,
            update_hint_secs: hint.map(|h| h.num_seconds()),
            poll_interval_secs: schedule::initial_interval(hint).num_seconds(),
            next_poll_at: None,
        };
        let (_, is_new) = store::feeds::add(&self.archive, &new).await?;
        Ok(is_new)
    }
}

/// The archive's name for a document kind.
pub(super) fn feed_kind(kind: DocKind) -> FeedKind {
    match kind {
        DocKind::Feed(Format::Rss) => FeedKind::Rss,
        DocKind::Feed(Format::Atom) => FeedKind::Atom,
        DocKind::Feed(Format::Rdf) => FeedKind::Rdf,
        DocKind::Feed(Format::Json) => FeedKind::Json,
        DocKind::SitemapIndex => FeedKind::SitemapIndex,
        DocKind::Sitemap => FeedKind::Sitemap,
        DocKind::NewsSitemap => FeedKind::NewsSitemap,
    }
}
