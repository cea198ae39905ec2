//! Feeds: RSS 0.9x/1.0/2.0, Atom and JSON Feed, reduced to the items the crawler needs.
//!
//! Parsing is `feed-rs` on the raw bytes (so the XML prolog's encoding is honoured), with our
//! own lenient date parser behind its strict one. Item links are resolved against the feed's
//! URL; items without a usable http(s) link are dropped, and at most [`MAX_ITEMS`] are kept
//! (Media Cloud's limit). The RSS 1.0 syndication module's `sy:updatePeriod` and
//! `sy:updateFrequency`, which feed-rs does not keep, are read by a second, small pass.

use chrono::{DateTime, Duration, Utc};
use feed_rs::model::FeedType;
use quick_xml::Reader;
use quick_xml::events::Event;
use url::Url;

use crate::{dates, schedule};

/// The most items kept from one feed document.
pub const MAX_ITEMS: usize = 2000;

/// The longest item URL kept (Media Cloud's limit).
pub const MAX_URL_LEN: usize = 2048;

/// What kind of feed a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// RSS 0.9x or 2.0.
    Rss,
    /// RSS 1.0 (RDF).
    Rdf,
    /// Atom.
    Atom,
    /// JSON Feed.
    Json,
}

/// One item of a feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The article URL, absolute.
    pub url: String,
    /// The item's title, trimmed.
    pub title: Option<String>,
    /// When it was published (or, failing that, updated).
    pub published: Option<DateTime<Utc>>,
    /// The item's id or guid.
    pub guid: Option<String>,
}

/// A parsed feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// Its format.
    pub format: Format,
    /// Its title.
    pub title: Option<String>,
    /// Its items, in document order, at most [`MAX_ITEMS`].
    pub items: Vec<Item>,
    /// The update interval it asks for (`sy:updatePeriod` / `sy:updateFrequency`), if any.
    pub update_hint: Option<Duration>,
}

/// Why a body is not a feed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a feed: {0}")]
pub struct NotAFeed(String);

/// Parses a feed document fetched from `feed_url`.
pub fn parse(body: &[u8], feed_url: &Url) -> Result<Feed, NotAFeed> {
    let parser = feed_rs::parser::Builder::new()
        .sanitize_content(false)
        .timestamp_parser(dates::parse)
        .build();
    let parsed = parser.parse(body).map_err(|err| NotAFeed(err.to_string()))?;
    let format = match parsed.feed_type {
        FeedType::RSS0 | FeedType::RSS2 => Format::Rss,
        FeedType::RSS1 => Format::Rdf,
        FeedType::Atom => Format::Atom,
        FeedType::JSON => Format::Json,
    };
    let items = parsed
        .entries
        .into_iter()
        .filter_map(|entry| {
            let link = entry
                .links
                .iter()
                .find(|link| link.rel.as_deref().is_none_or(|rel| rel == "alternate"))
                .or_else(|| entry.links.first())
                .map(|link| link.href.as_str())
                .or_else(|| Some(entry.id.as_str()).filter(|id| id.starts_with("http")))?;
            let url = feed_url.join(link.trim()).ok()?;
            let usable = matches!(url.scheme(), "http" | "https")
                && url.host_str().is_some()
                && url.as_str().len() <= MAX_URL_LEN;
            usable.then(|| Item {
                url: url.into(),
                title: entry
                    .title
                    .map(|title| title.content.trim().to_owned())
                    .filter(|t| !t.is_empty()),
                published: entry.published.or(entry.updated),
                guid: Some(entry.id).filter(|id| !id.is_empty()),
            })
        })
        .take(MAX_ITEMS)
        .collect();
    Ok(Feed {
        format,
        title: parsed.title.map(|title| title.content.trim().to_owned()).filter(|t| !t.is_empty()),
        items,
        update_hint: syndication_hint(body),
    })
}

/// Whether a body looks like a feed without parsing it all: its root element is `rss`, `feed`
/// or `RDF`, or it is a JSON Feed.
pub fn sniff(body: &[u8]) -> Option<Format> {
    let head = String::from_utf8_lossy(&body[..body.len().min(2048)]);
    let head = head.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with('{') {
        return head.contains("jsonfeed.org/version").then_some(Format::Json);
    }
    let mut reader = Reader::from_str(head);
    loop {
        match reader.read_event() {
            Ok(Event::Start(start) | Event::Empty(start)) => {
                return match start.local_name().as_ref().to_ascii_lowercase().as_str() {
                    "rss" => Some(Format::Rss),
                    "rdf" => Some(Format::Rdf),
                    "feed" => Some(Format::Atom),
                    _ => None,
                };
            }
            Ok(Event::Eof) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// `sy:updatePeriod` and `sy:updateFrequency` of the channel, as an interval.
fn syndication_hint(body: &[u8]) -> Option<Duration> {
    let text = String::from_utf8_lossy(&body[..body.len().min(64 * 1024)]);
    if !text.contains("updatePeriod") {
        return None;
    }
    let mut reader = Reader::from_str(&text);
    reader.config_mut().check_end_names = false;
    let (mut period, mut frequency, mut current) = (None, None, None::<String>);
    loop {
        match reader.read_event() {
            Ok(Event::Start(start)) => current = Some(start.local_name().as_ref().to_owned()),
            Ok(Event::Text(content)) => {
                let value = content.xml10_content().trim().to_owned();
                match current.as_deref() {
                    Some("updatePeriod") => period = Some(value),
                    Some("updateFrequency") => frequency = Some(value),
                    _ => {}
                }
            }
            Ok(Event::End(_)) => current = None,
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
        if period.is_some() && frequency.is_some() {
            break;
        }
    }
    schedule::update_hint(period.as_deref(), frequency.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_url() -> Url {
        Url::parse("https://daily.example/rss/").unwrap()
    }

    #[test]
    fn rss2_with_relative_links_and_syndication_hints() {
        let body = br#"<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">
<channel><title>The Daily</title><sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>
<item><title> Caf@ opens </title><link>/2026/11/03/cafe</link><guid>x-1</guid><pubDate>Tue, 03 Nov 2026 10:00:00 +0100</pubDate></item>
<item><title>No link</title></item>
<item><title>Mail</title><link>mailto:a@b.c</link></item>
<item><link>https://other.example/a</link><pubDate>not a date</pubDate></item>
</channel></rss>"#;
        // The title is Latin-1, as the prolog declares.
        let body: Vec<u8> = body.iter().map(|&b| if b == b'@' { 0xe9 } else { b }).collect();
        let feed = parse(&body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Rss);
        assert_eq!(feed.title.as_deref(), Some("The Daily"));
        assert_eq!(feed.update_hint, Some(Duration::minutes(30)));
        assert_eq!(feed.items.len(), 2, "{:?}", feed.items);
        assert_eq!(feed.items[0].url, "https://daily.example/2026/11/03/cafe");
        assert_eq!(feed.items[0].title.as_deref(), Some("Caf\u{e9} opens"));
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T09:00:00Z"));
        assert_eq!(feed.items[0].guid.as_deref(), Some("x-1"));
        assert_eq!(feed.items[1].published, None);
    }

    #[test]
    fn atom_prefers_the_alternate_link() {
        let body = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
<entry><id>tag:x,2026:1</id><title>One</title><link rel="self" href="https://x.example/self/1"/>
<link rel="alternate" href="https://x.example/one"/><updated>2026-11-03T10:00:00Z</updated></entry></feed>"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Atom);
        assert_eq!(feed.items[0].url, "https://x.example/one");
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T10:00:00Z"));
        assert_eq!(feed.update_hint, None);
    }

    #[test]
    fn json_feed() {
        let body = br#"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","url":"https://x.example/j","title":"Jay","date_published":"2026-11-03T10:00:00Z"}]}"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Json);
        assert_eq!(feed.items[0].url, "https://x.example/j");
        assert_eq!(sniff(body), Some(Format::Json));
    }

    #[test]
    fn sniffing() {
        assert_eq!(
            sniff(b"\xef\xbb\xbf<?xml version='1.0'?><!-- c --><rss version='2.0'>"),
            Some(Format::Rss)
        );
        assert_eq!(sniff(b"<rdf:RDF xmlns:rdf='x'>"), Some(Format::Rdf));
        assert_eq!(sniff(b"<feed xmlns='http://www.w3.org/2005/Atom'>"), Some(Format::Atom));
        assert_eq!(sniff(b"<!DOCTYPE html><html><head>"), None);
        assert_eq!(sniff(b"{\"a\":1}"), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn html_is_not_a_feed() {
        assert!(parse(b"<html><body>no</body></html>", &feed_url()).is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>) {
            let _ = parse(&body, &feed_url());
            let _ = sniff(&body);
        }

        #[test]
        fn arbitrary_items_never_panic(link: String, date: String, title: String) {
            let body = format!("<rss><channel><item><title>{title}</title><link>{link}</link><pubDate>{date}</pubDate></item></channel></rss>");
            let _ = parse(body.as_bytes(), &feed_url());
        }
    }
}
