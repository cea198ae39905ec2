//! Discovery of one source, with I/O: fetch the homepage and robots.txt, then confirm the
//! candidates of [`crate::discover`] tier by tier by fetching and parsing them.
//!
//! Feeds and sitemaps are confirmed independently. Within each, a tier that confirms anything ends
//! the search, so a site that announces its feeds costs no guessing; at most
//! [`Limits::per_tier`] candidates of a tier are tried. Every fetch made here goes to the
//! client's journal, so the archive keeps discovery's raw responses too.
//!
//! [`read_document`] is shared with feed polling: one place decides what a body is.

use url::Url;

use crate::client::{Client, Exchange, Purpose};
use crate::discover::{self, Candidate, Via};
use crate::feed::{self, Format};
use crate::fetch::{FetchError, Validators};
use crate::sitemap::{self, Kind, NotASitemap};

/// What `Accept` says for feeds and sitemaps.
pub const FEED_ACCEPT: &str = "application/rss+xml, application/atom+xml, application/feed+json, \
                               application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5";

/// What `Accept` says for pages.
pub const PAGE_ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

/// How much discovery may try.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Candidates tried per tier.
    pub per_tier: usize,
    /// The largest decompressed sitemap accepted.
    pub max_decoded_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { per_tier: 30, max_decoded_bytes: 50 << 20 }
    }
}

/// What a feed or sitemap document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// A feed of this format.
    Feed(Format),
    /// A `<sitemapindex>`.
    SitemapIndex,
    /// A `<urlset>` or a text list of URLs.
    Sitemap,
    /// A Google News sitemap.
    NewsSitemap,
}

/// A parsed feed or sitemap.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// A feed.
    Feed(feed::Feed),
    /// A sitemap of any kind.
    Sitemap(sitemap::Sitemap),
}

impl Document {
    /// Its kind.
    pub fn kind(&self) -> DocKind {
        match self {
            Document::Feed(feed) => DocKind::Feed(feed.format),
            Document::Sitemap(map) if map.kind == Kind::Index => DocKind::SitemapIndex,
            Document::Sitemap(map) if map.is_news() => DocKind::NewsSitemap,
            Document::Sitemap(_) => DocKind::Sitemap,
        }
    }
}

/// Reads a fetched body as a feed or a sitemap (gzip undone, by magic bytes), with no
/// `Content-Type` to go by; see [`read_document_with_content_type`].
pub fn read_document(
    body: &[u8],
    url: &Url,
    max_decoded: usize,
    want_feed: bool,
    want_sitemap: bool,
) -> Result<Document, String> {
    read_document_with_content_type(body, url, None, max_decoded, want_feed, want_sitemap)
}

/// Reads a fetched body as a feed or a sitemap (gzip undone, by magic bytes). `content_type` is
/// the response's `Content-Type`, whose charset the decoders weigh; `want_feed` and
/// `want_sitemap` say which are acceptable. When both are, a body whose root element (or JSON)
/// makes it a feed is read as one, anything else as a sitemap. The error says what the body was
/// taken to be.
pub fn read_document_with_content_type(
    body: &[u8],
    url: &Url,
    content_type: Option<&str>,
    max_decoded: usize,
    want_feed: bool,
    want_sitemap: bool,
) -> Result<Document, String> {
    let body = sitemap::gunzip(body, max_decoded).map_err(|err| err.to_string())?;
    if want_feed && (!want_sitemap || feed::sniff(&body).is_some()) {
        return feed::parse_with_content_type(&body, url, content_type)
            .map(Document::Feed)
            .map_err(|err| err.to_string());
    }
    if !want_sitemap {
        return Err("neither a feed nor a sitemap is wanted".to_owned());
    }
    sitemap::parse_with_content_type(&body, content_type).map(Document::Sitemap).map_err(|err| {
        match err {
            NotASitemap::Root { encoding, root } if want_feed => format!(
                "not a feed or sitemap: {encoding} XML, root element <{root}>: not RSS, Atom, \
                 RDF, <urlset> or <sitemapindex>"
            ),
            NotASitemap::Html { encoding, root } if want_feed => {
                format!("not a feed or sitemap: {encoding} HTML page (root element <{root}>)")
            }
            other => other.to_string(),
        }
    })
}

/// A confirmed feed or sitemap.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Its URL (after redirects).
    pub url: Url,
    /// How it was found.
    pub via: Via,
    /// What it is.
    pub kind: DocKind,
    /// Its title, for feeds that have one.
    pub title: Option<String>,
    /// The poll interval it asks for (`sy:` hints), if any.
    pub update_hint: Option<chrono::Duration>,
}

/// A feed the homepage announces in a `<link>` tag but that could not be confirmed.
#[derive(Debug, Clone, PartialEq)]
pub struct Unconfirmed {
    /// Its URL.
    pub url: Url,
    /// Why it was not confirmed, for people.
    pub reason: String,
}

/// What discovery found for one source.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// The homepage after redirects, or why it could not be fetched.
    pub homepage: Result<Url, String>,
    /// Confirmed feeds and sitemaps, best first.
    pub found: Vec<Found>,
    /// Feeds announced by `<link>` tags that failed to confirm (an error, an unreadable body).
    /// A site that names its feed usually has one that is down for now: callers may keep these
    /// when nothing else was found, so that the failure is polled and shown rather than lost.
    pub unconfirmed: Vec<Unconfirmed>,
    /// How many candidates were fetched.
    pub tried: usize,
}

/// Discovers the feeds and sitemaps of the source whose homepage is `homepage`.
pub async fn discover(client: &Client, homepage: &Url, limits: Limits) -> Discovery {
    let robots = client.robots(homepage).await;
    let (homepage_result, html) =
        match client.get(homepage, &Validators::default(), PAGE_ACCEPT).await {
            Ok(fetched) if fetched.status == 200 => {
                let result = Ok(fetched.final_url.clone());
                let html = fetched.body.clone();
                client.journal(Exchange {
                    purpose: Purpose::Homepage,
                    url: homepage.clone(),
                    result: Ok(fetched),
                });
                (result, html)
            }
            Ok(fetched) => {
                let status = format!("HTTP {}", fetched.status);
                client.journal(Exchange {
                    purpose: Purpose::Homepage,
                    url: homepage.clone(),
                    result: Ok(fetched),
                });
                (Err(status), Vec::new())
            }
            Err(err) => {
                let status = err.to_string();
                client.journal(Exchange {
                    purpose: Purpose::Homepage,
                    url: homepage.clone(),
                    result: Err(err),
                });
                (Err(status), Vec::new())
            }
        };
    let base = homepage_result.as_ref().unwrap_or(homepage).clone();
    let mut search = Search::default();
    let feed_candidates = discover::feed_candidates(&html, &base);
    confirm_tiers(client, &feed_candidates, limits, true, &mut search).await;
    let sitemap_candidates = discover::sitemap_candidates(&base, robots.sitemaps());
    confirm_tiers(client, &sitemap_candidates, limits, false, &mut search).await;
    Discovery {
        homepage: homepage_result,
        found: search.found,
        unconfirmed: search.unconfirmed,
        tried: search.tried,
    }
}

#[derive(Default)]
struct Search {
    found: Vec<Found>,
    unconfirmed: Vec<Unconfirmed>,
    tried: usize,
}

/// Confirms candidates tier by tier, stopping after the first tier that confirms any.
async fn confirm_tiers(
    client: &Client,
    candidates: &[Candidate],
    limits: Limits,
    feeds: bool,
    search: &mut Search,
) {
    let mut tiers: Vec<Via> = candidates.iter().map(|c| c.via).collect();
    tiers.dedup();
    for tier in tiers {
        let before = search.found.len();
        for candidate in candidates.iter().filter(|c| c.via == tier).take(limits.per_tier) {
            search.tried += 1;
            match confirm(client, candidate, limits, feeds).await {
                Ok(confirmed) => {
                    if !search.found.iter().any(|f| f.url == confirmed.url) {
                        search.found.push(confirmed);
                    }
                }
                Err(reason) if candidate.via == Via::LinkTag => {
                    search.unconfirmed.push(Unconfirmed { url: candidate.url.clone(), reason })
                }
                Err(_) => {}
            }
        }
        if search.found.len() > before {
            return;
        }
    }
}

async fn confirm(
    client: &Client,
    candidate: &Candidate,
    limits: Limits,
    feeds: bool,
) -> Result<Found, String> {
    let result = client.get(&candidate.url, &Validators::default(), FEED_ACCEPT).await;
    let confirmed = match &result {
        Ok(fetched) if fetched.status == 200 => {
            match read_document_with_content_type(
                &fetched.body,
                &fetched.final_url,
                fetched.header("content-type"),
                limits.max_decoded_bytes,
                feeds,
                !feeds,
            ) {
                Ok(document) => Ok(Found {
                    url: fetched.final_url.clone(),
                    via: candidate.via,
                    kind: document.kind(),
                    title: match &document {
                        Document::Feed(feed) => feed.title.clone(),
                        Document::Sitemap(_) => None,
                    },
                    update_hint: match &document {
                        Document::Feed(feed) => feed.update_hint,
                        Document::Sitemap(_) => None,
                    },
                }),
                Err(reason) => Err(format!("unreadable: {reason}")),
            }
        }
        Ok(fetched) => Err(format!("HTTP {}", fetched.status)),
        Err(err) => Err(err.status()),
    };
    // A candidate refused by robots.txt was never requested: nothing to archive.
    if !matches!(result, Err(FetchError::Denied { .. })) {
        client.journal(Exchange {
            purpose: Purpose::Candidate,
            url: candidate.url.clone(),
            result,
        });
    }
    confirmed
}
