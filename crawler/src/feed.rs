//! Feeds: RSS (any version, or none), RDF (RSS 0.90 and 1.0), Atom (0.3 and 1.0), CDF and JSON
//! Feed, reduced to the items the crawler needs.
//!
//! Reading is liberal, in the feedparser tradition: a partial parse with warnings beats a rejected
//! feed. The body is first decoded to text ([`crate::decode`]: BOM, byte layout, HTTP charset, XML
//! declaration, detection); then a body that starts with `{` or `[` is read as JSON, anything with
//! a `<` as XML (text before the first `<` is skipped with a warning). Only a body that is not a
//! feed at all is an error ([`NotAFeed`]); its message names what the body was taken to be, in
//! which encoding, and why it is not a feed.
//!
//! XML is read by a streaming reader of our own over `quick-xml` (see `feed/xml.rs`): the root
//! element decides the format whatever its `version` says; elements are recognised by namespace
//! and lower-cased local name, the root's own namespaces counting as the core vocabulary; undeclared
//! HTML entities (`&eacute;`) are decoded, a bare `&` is taken literally, and after a syntax error
//! reading goes on where `quick-xml` resumes, so a truncated or broken document keeps what came
//! before (and usually after) the error. A broken document that yields no item at all is an
//! error ([`NotAFeed::Broken`]): to the poll schedule that is a failed fetch, not a quiet feed. JSON Feed is parsed as JSON and read field by field
//! (`feed/json.rs`): a field of the wrong type is skipped, not the feed.
//!
//! Per item the crawler keeps the article URL (resolved against `xml:base` and the feed's URL),
//! title, date and guid. An item without a usable http(s) URL is skipped; every skip, cut and
//! oddity is counted in [`Feed::warnings`]. Every field that comes from the web is capped:
//! URLs at [`MAX_URL_LEN`] bytes (longer ones are unusable and skipped), titles at
//! [`MAX_TITLE_LEN`] bytes (cut at a character boundary), guids at [`MAX_GUID_LEN`] bytes (longer
//! ones dropped), at most [`MAX_ITEMS`] items (Media Cloud's limit) and [`MAX_WARNINGS`] warnings.
//! Titles are text: Atom `html` titles lose their tags and entities, `xhtml` titles keep their
//! text; RSS titles are kept as the feed writes them, trimmed.

mod json;
mod xml;

use chrono::{DateTime, Duration, Utc};
use url::Url;

pub use crate::error::NotAFeed;
use crate::{dates, decode};

/// The most items kept from one feed document.
pub const MAX_ITEMS: usize = 2000;

/// The longest item (or feed) URL kept, in bytes (Media Cloud's limit); longer URLs are unusable.
pub const MAX_URL_LEN: usize = 2048;

/// The longest title kept, in bytes; longer titles are cut at a character boundary.
pub const MAX_TITLE_LEN: usize = 2048;

/// The longest guid kept, in bytes; a longer guid is dropped (a cut identifier would not be one).
pub const MAX_GUID_LEN: usize = 2048;

/// The most warnings kept for one document; the last one says how many more there were.
pub const MAX_WARNINGS: usize = 32;

/// What kind of feed a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// RSS 0.9x or 2.0 (whatever its `version`, or none), and its ancestor CDF.
    Rss,
    /// RSS 0.90 or 1.0 (RDF).
    Rdf,
    /// Atom 0.3 or 1.0 (also a lone Atom entry document).
    Atom,
    /// JSON Feed.
    Json,
}

/// One item of a feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The article URL, absolute http(s), at most [`MAX_URL_LEN`] bytes.
    pub url: String,
    /// The item's title as text, trimmed, at most [`MAX_TITLE_LEN`] bytes.
    pub title: Option<String>,
    /// When it was published (or, failing that, updated).
    pub published: Option<DateTime<Utc>>,
    /// The item's id or guid, as written, at most [`MAX_GUID_LEN`] bytes.
    pub guid: Option<String>,
}

/// A parsed feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// Its format.
    pub format: Format,
    /// The encoding its bytes were read in (`UTF-8`, `windows-1252`, `UTF-16LE`, `UTF-32BE`, …).
    pub encoding: &'static str,
    /// Its title.
    pub title: Option<String>,
    /// The site it belongs to (RSS `<link>`, Atom's alternate link, JSON `home_page_url`).
    pub link: Option<String>,
    /// Its items, in document order, at most [`MAX_ITEMS`].
    pub items: Vec<Item>,
    /// The update interval it asks for (`sy:updatePeriod` / `sy:updateFrequency`), if any.
    pub update_hint: Option<Duration>,
    /// What was odd, skipped or cut while reading it, for people (at most [`MAX_WARNINGS`]).
    pub warnings: Vec<String>,
}

/// Parses a feed document fetched from `feed_url`, with no HTTP `Content-Type` to go by.
pub fn parse(body: &[u8], feed_url: &Url) -> Result<Feed, NotAFeed> {
    parse_with_content_type(body, feed_url, None)
}

/// Parses a feed document fetched from `feed_url`, served with `content_type` (the HTTP
/// `Content-Type` value, whose `charset` beats the XML declaration but not a BOM).
pub fn parse_with_content_type(
    body: &[u8],
    feed_url: &Url,
    content_type: Option<&str>,
) -> Result<Feed, NotAFeed> {
    let decoded = decode::decode(body, content_type, top_level_domain(feed_url).as_deref());
    let encoding = decoded.encoding();
    let mut collect = Collect::new(feed_url);
    for warning in &decoded.warnings {
        collect.warn(warning.clone());
    }
    let text = decoded.text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let (format, head) = match text.chars().next() {
        None => return Err(NotAFeed::Empty),
        Some('{' | '[') => (Format::Json, json::read(text, encoding, &mut collect)?),
        Some(_) => {
            let Some(start) = text.find('<') else {
                return Err(NotAFeed::Unrecognised {
                    encoding,
                    start: text.chars().take(24).collect(),
                });
            };
            if start > 0 {
                collect.warn(format!("{start} bytes of text before the markup skipped"));
            }
            xml::read(&text[start..], encoding, &mut collect)?
        }
    };
    Ok(collect.finish(format, encoding, head))
}

/// Whether a body looks like a feed without parsing it all: its root element is `rss`, `feed`,
/// `RDF` or CDF's `channel` (in whatever encoding), or it is JSON (a JSON Feed is the only JSON
/// the crawler reads, so JSON goes to [`parse`], which says whether it is one).
pub fn sniff(body: &[u8]) -> Option<Format> {
    // Enough for any prolog, even in UTF-32.
    let head = &body[..body.len().min(64 * 1024)];
    let decoded = decode::decode(head, None, None);
    let text = decoded.text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if text.starts_with(['{', '[']) {
        return Some(Format::Json);
    }
    let start = text.find('<')?;
    match xml::root(&text[start..]).ok()? {
        xml::Root::Feed(format) => Some(format),
        xml::Root::Other(_) => None,
    }
}

/// The top-level domain of a URL's host, a hint for guessing an undeclared encoding.
fn top_level_domain(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    let tld = host.trim_end_matches('.').rsplit('.').next()?;
    (!tld.is_empty() && tld.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then(|| tld.to_ascii_lowercase())
}

/// What the format readers found besides the items.
#[derive(Debug, Default)]
struct Head {
    title: Option<String>,
    link: Option<Link>,
    update_hint: Option<Duration>,
}

/// A candidate URL for an item or feed.
#[derive(Debug, Clone)]
struct Link {
    /// Lower is better; among equals the first in the document wins.
    rank: u8,
    href: String,
    /// What it is relative to (`None`: the feed's URL), or `None` with `absolute` for ids and
    /// guids, which stand for a link only when they are absolute URLs.
    base: Option<Url>,
    absolute: bool,
}

impl Link {
    fn relative(rank: u8, href: String, base: Option<Url>) -> Link {
        Link { rank, href, base, absolute: false }
    }

    fn absolute(rank: u8, href: String) -> Link {
        Link { rank, href, base: None, absolute: true }
    }
}

/// One item as read, before its URL is chosen and its fields are checked.
#[derive(Debug, Default)]
struct Draft {
    /// Candidate URLs.
    links: Vec<Link>,
    title: Option<String>,
    guid: Option<String>,
    /// Candidate dates, each with its rank (lower is better).
    dates: Vec<(u8, String)>,
}

impl Draft {
    /// Adds a date candidate; a few are plenty.
    fn date(&mut self, rank: u8, value: String) {
        if self.dates.len() < 8 && !value.trim().is_empty() {
            self.dates.push((rank, value));
        }
    }
}

/// Why items were skipped or fields cut, counted for one warning each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Oddity {
    NoLink,
    UnusableLink,
    LongTitle,
    LongGuid,
    BadDate,
    NotAnObject,
    WrongType,
}

impl Oddity {
    fn describe(self, count: usize) -> String {
        let items = if count == 1 { "1 item" } else { &format!("{count} items") };
        match self {
            Oddity::NoLink => format!("{items} without a link skipped"),
            Oddity::UnusableLink => format!(
                "{items} skipped: no link is an absolute http(s) URL of at most {MAX_URL_LEN} bytes"
            ),
            Oddity::LongTitle => format!("{items} with a title cut to {MAX_TITLE_LEN} bytes"),
            Oddity::LongGuid => format!("{items} with a guid over {MAX_GUID_LEN} bytes, dropped"),
            Oddity::BadDate => format!("{items} with an unreadable date, kept without one"),
            Oddity::NotAnObject => format!("{items} skipped: not a JSON object"),
            Oddity::WrongType => format!("{items} with a field of the wrong JSON type, ignored"),
        }
    }
}

/// Gathers items and warnings, applying the caps; shared by the XML and JSON readers.
#[derive(Debug)]
struct Collect<'u> {
    feed_url: &'u Url,
    items: Vec<Item>,
    warnings: Vec<String>,
    dropped_warnings: usize,
    oddities: Vec<(Oddity, usize)>,
}

impl<'u> Collect<'u> {
    fn new(feed_url: &'u Url) -> Collect<'u> {
        Collect {
            feed_url,
            items: Vec::new(),
            warnings: Vec::new(),
            dropped_warnings: 0,
            oddities: Vec::new(),
        }
    }

    /// Whether [`MAX_ITEMS`] items are kept already.
    fn full(&self) -> bool {
        self.items.len() >= MAX_ITEMS
    }

    fn warn(&mut self, warning: String) {
        if self.warnings.len() < MAX_WARNINGS - 1 {
            self.warnings.push(warning);
        } else {
            self.dropped_warnings += 1;
        }
    }

    fn odd(&mut self, oddity: Oddity) {
        match self.oddities.iter_mut().find(|(seen, _)| *seen == oddity) {
            Some((_, count)) => *count += 1,
            None => self.oddities.push((oddity, 1)),
        }
    }

    /// An absolute http(s) URL of at most [`MAX_URL_LEN`] bytes, from a candidate link.
    fn resolve(&self, link: &Link) -> Option<Url> {
        let href = link.href.trim();
        if href.is_empty() || href.len() > MAX_URL_LEN {
            return None;
        }
        let url = if link.absolute {
            Url::parse(href).ok()?
        } else {
            link.base.as_ref().unwrap_or(self.feed_url).join(href).ok()?
        };
        let usable = matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some_and(|host| !host.is_empty())
            && url.as_str().len() <= MAX_URL_LEN;
        usable.then_some(url)
    }

    /// Keeps an item if it has a usable URL.
    fn item(&mut self, draft: Draft) {
        if self.full() {
            return;
        }
        let mut links = draft.links;
        links.sort_by_key(|link| link.rank);
        let Some(url) = links.iter().find_map(|link| self.resolve(link)) else {
            self.odd(if links.is_empty() { Oddity::NoLink } else { Oddity::UnusableLink });
            return;
        };
        let title = draft.title.and_then(|title| self.title(title));
        let guid = draft.guid.map(|guid| guid.trim().to_owned()).filter(|guid| !guid.is_empty());
        let guid = match guid {
            Some(guid) if guid.len() > MAX_GUID_LEN => {
                self.odd(Oddity::LongGuid);
                None
            }
            guid => guid,
        };
        let mut dates = draft.dates;
        dates.sort_by_key(|(rank, _)| *rank);
        let published = dates.iter().find_map(|(_, text)| dates::parse(text));
        if published.is_none() && !dates.is_empty() {
            self.odd(Oddity::BadDate);
        }
        self.items.push(Item { url: url.into(), title, published, guid });
        if self.full() {
            self.warn(format!("more than {MAX_ITEMS} items; the rest are ignored"));
        }
    }

    /// A title trimmed and cut to [`MAX_TITLE_LEN`]; `None` when empty.
    fn title(&mut self, title: String) -> Option<String> {
        let trimmed = title.trim();
        if trimmed.is_empty() {
            return None;
        }
        if trimmed.len() <= MAX_TITLE_LEN {
            return Some(trimmed.to_owned());
        }
        self.odd(Oddity::LongTitle);
        Some(cut(trimmed, MAX_TITLE_LEN).trim_end().to_owned())
    }

    fn finish(mut self, format: Format, encoding: &'static str, head: Head) -> Feed {
        let title = head.title.and_then(|title| {
            let trimmed = title.trim();
            (!trimmed.is_empty()).then(|| cut(trimmed, MAX_TITLE_LEN).trim_end().to_owned())
        });
        let link = head.link.and_then(|link| self.resolve(&link)).map(String::from);
        let mut oddities = std::mem::take(&mut self.oddities);
        oddities.sort();
        for (oddity, count) in oddities {
            self.warn(oddity.describe(count));
        }
        if self.dropped_warnings > 0 {
            self.warnings.push(format!("{} more warnings", self.dropped_warnings));
        }
        Feed {
            format,
            encoding,
            title,
            link,
            items: self.items,
            update_hint: head.update_hint,
            warnings: self.warnings,
        }
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends at a character boundary.
pub(crate) fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
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
<channel><title>The Daily</title><link>/</link><sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>
<item><title> Caf@ opens </title><link>/2026/11/03/cafe</link><guid>x-1</guid><pubDate>Tue, 03 Nov 2026 10:00:00 +0100</pubDate></item>
<item><title>No link</title></item>
<item><title>Mail</title><link>mailto:a@b.c</link></item>
<item><link>https://other.example/a</link><pubDate>not a date</pubDate></item>
</channel></rss>"#;
        // The title is Latin-1, as the prolog declares.
        let body: Vec<u8> = body.iter().map(|&b| if b == b'@' { 0xe9 } else { b }).collect();
        let feed = parse(&body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Rss);
        assert_eq!(feed.encoding, "windows-1252");
        assert_eq!(feed.title.as_deref(), Some("The Daily"));
        assert_eq!(feed.link.as_deref(), Some("https://daily.example/"));
        assert_eq!(feed.update_hint, Some(Duration::minutes(30)));
        assert_eq!(feed.items.len(), 2, "{:?}", feed.items);
        assert_eq!(feed.items[0].url, "https://daily.example/2026/11/03/cafe");
        assert_eq!(feed.items[0].title.as_deref(), Some("Caf\u{e9} opens"));
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T09:00:00Z"));
        assert_eq!(feed.items[0].guid.as_deref(), Some("x-1"));
        assert_eq!(feed.items[1].published, None);
        assert_eq!(
            feed.warnings,
            [
                "1 item without a link skipped",
                "1 item skipped: no link is an absolute http(s) URL of at most 2048 bytes",
                "1 item with an unreadable date, kept without one",
            ]
        );
    }

    #[test]
    fn any_rss_version_or_none() {
        for version in
            ["", " version=\"2.0\"", " version=\"0.94\"", " version=\"2.01\"", " version=\"x\""]
        {
            let body = format!(
                "<rss{version}><channel><title>T</title><item><link>https://x.example/1</link></item></channel></rss>"
            );
            let feed = parse(body.as_bytes(), &feed_url()).unwrap();
            assert_eq!((feed.format, feed.items.len()), (Format::Rss, 1), "{version}");
        }
        // Items outside the channel, as some RSS 0.9x feeds have them.
        let feed = parse(b"<rss><item><link>/a</link></item></rss>", &feed_url()).unwrap();
        assert_eq!(feed.items[0].url, "https://daily.example/a");
    }

    #[test]
    fn atom_prefers_the_alternate_link_and_reads_html_titles_as_text() {
        let body = br#"<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://x.example/blog/"><title type="html">A &amp;lt;b&amp;gt;</title>
<link rel="self" href="https://x.example/feed"/><link href="/"/>
<entry><id>tag:x,2026:1</id><title type="html">&lt;b&gt;One&lt;/b&gt; &amp;amp; two</title><link rel="self" href="https://x.example/self/1"/>
<link rel="alternate" href="one"/><updated>2026-11-03T10:00:00Z</updated></entry>
<entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Two <b>bold</b></div></title><link rel="edit" href="https://x.example/edit/2"/><id>https://x.example/two</id></entry></feed>"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Atom);
        assert_eq!(feed.title.as_deref(), Some("A <b>"));
        assert_eq!(feed.link.as_deref(), Some("https://x.example/"));
        assert_eq!(feed.items[0].url, "https://x.example/blog/one");
        assert_eq!(feed.items[0].title.as_deref(), Some("One & two"));
        assert_eq!(feed.items[0].guid.as_deref(), Some("tag:x,2026:1"));
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T10:00:00Z"));
        assert_eq!(feed.items[1].url, "https://x.example/two", "an http id stands in for a link");
        assert_eq!(feed.items[1].title.as_deref(), Some("Two bold"));
        assert_eq!(feed.update_hint, None);
    }

    #[test]
    fn rdf_and_cdf() {
        let body = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<image rdf:about="https://x.example/logo.png"><title>Logo</title><link>https://x.example/logo</link></image>
<channel rdf:about="https://x.example/"><title>R</title><link>https://x.example/</link></channel>
<item rdf:about="https://x.example/r1"><title>R1</title><dc:date>2026-11-03</dc:date></item></rdf:RDF>"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Rdf);
        assert_eq!(feed.title.as_deref(), Some("R"));
        assert_eq!(feed.link.as_deref(), Some("https://x.example/"));
        assert_eq!(feed.items[0].url, "https://x.example/r1");
        assert_eq!(feed.items[0].guid.as_deref(), Some("https://x.example/r1"));
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03"));
        let body = br#"<CHANNEL HREF="https://x.example/"><TITLE>C</TITLE><ITEM HREF="/c1" LASTMOD="2026-11-03T10:00"><TITLE>C1</TITLE></ITEM></CHANNEL>"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!((feed.format, feed.title.as_deref()), (Format::Rss, Some("C")));
        assert_eq!(feed.items[0].url, "https://daily.example/c1");
        assert_eq!(feed.items[0].title.as_deref(), Some("C1"));
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T10:00:00Z"));
    }

    #[test]
    fn undeclared_entities_and_bare_ampersands() {
        let body = "<rss><channel><title>Caf&eacute; &hellip; AT&T &amp; Co &bogus; &#8212;</title>\
                    <item><link>https://x.example/?a=1&b=2</link><title><![CDATA[Q&A &amp;]]></title></item></channel></rss>";
        let feed = parse(body.as_bytes(), &feed_url()).unwrap();
        assert_eq!(feed.title.as_deref(), Some("Caf\u{e9} \u{2026} AT&T & Co &bogus; \u{2014}"));
        assert_eq!(feed.items[0].url, "https://x.example/?a=1&b=2");
        assert_eq!(feed.items[0].title.as_deref(), Some("Q&A &amp;"));
    }

    fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
        let units = (bom.then_some(0xfeff_u16)).into_iter().chain(text.encode_utf16());
        units.flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect()
    }

    #[test]
    fn utf16_and_utf32_feeds() {
        let text = "<?xml version=\"1.0\" encoding=\"utf-16\"?><rss><channel><title>\u{17d}ivot</title>\
                    <item><link>https://x.example/\u{e9}</link></item></channel></rss>";
        for (big_endian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
            let feed = parse(&utf16(text, big_endian, bom), &feed_url()).unwrap();
            assert_eq!(feed.encoding, if big_endian { "UTF-16BE" } else { "UTF-16LE" });
            assert_eq!(feed.title.as_deref(), Some("\u{17d}ivot"));
            assert_eq!(feed.items[0].url, "https://x.example/%C3%A9");
        }
        let utf32: Vec<u8> = text.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        let feed = parse(&utf32, &feed_url()).unwrap();
        assert_eq!((feed.encoding, feed.items.len()), ("UTF-32LE", 1));
    }

    #[test]
    fn the_http_charset_beats_the_declaration() {
        let body = b"<?xml version='1.0' encoding='utf-8'?><rss><channel><title>\xcf\xf0\xe8\xe2\xe5\xf2</title></channel></rss>";
        let feed =
            parse_with_content_type(body, &feed_url(), Some("text/xml; charset=windows-1251"))
                .unwrap();
        assert_eq!((feed.encoding, feed.title.as_deref()), ("windows-1251", Some("Привет")));
    }

    #[test]
    fn a_broken_document_keeps_what_it_can() {
        let body = b"<rss><channel><title>T</title><item><link>https://x.example/1</link></item>\
                     <item><title>Two</title><link>https://x.example/2</link></ite></item>\
                     <item><link>https://x.example/3</link><title>cut sh";
        let feed = parse(body, &feed_url()).unwrap();
        let urls: Vec<&str> = feed.items.iter().map(|item| item.url.as_str()).collect();
        assert_eq!(urls, ["https://x.example/1", "https://x.example/2", "https://x.example/3"]);
        assert!(!feed.warnings.is_empty());
    }

    #[test]
    fn json_feed() {
        let body = br#"{"version":"https:\/\/jsonfeed.org\/version\/1.1","title":"J","home_page_url":"https:\/\/x.example\/","items":[{"id":"1","url":"https:\/\/x.example\/j","title":"Jay","date_published":"2026-11-03T10:00:00Z"}]}"#;
        let feed = parse(body, &feed_url()).unwrap();
        assert_eq!(feed.format, Format::Json);
        assert_eq!(feed.link.as_deref(), Some("https://x.example/"));
        assert_eq!(feed.items[0].url, "https://x.example/j");
        assert_eq!(feed.items[0].published, dates::parse("2026-11-03T10:00:00Z"));
        assert_eq!(sniff(body), Some(Format::Json));
    }

    #[test]
    fn json_feed_read_field_by_field() {
        // The version comes after 2 KB, one item's url is a number, one item is a string.
        let padding = "x".repeat(3000);
        let body = format!(
            r#"{{"title":"{padding}","items":[{{"url":42,"id":"https://x.example/a"}},"junk",{{"url":"/b","title":7}},{{"external_url":"https://y.example/c"}}],"version":"https://jsonfeed.org/version/1"}}"#
        );
        let feed = parse(body.as_bytes(), &feed_url()).unwrap();
        let urls: Vec<&str> = feed.items.iter().map(|item| item.url.as_str()).collect();
        assert_eq!(urls, ["https://x.example/a", "https://daily.example/b", "https://y.example/c"]);
        assert_eq!(
            feed.warnings,
            [
                "1 item skipped: not a JSON object",
                "2 items with a field of the wrong JSON type, ignored"
            ]
        );
        let feed = parse(br#"{"items":[]}"#, &feed_url()).unwrap();
        assert_eq!(feed.warnings, ["no JSON Feed version; read as one for its items array"]);
    }

    #[test]
    fn errors_name_what_the_body_was_taken_to_be() {
        let url = feed_url();
        let message = |body: &[u8]| parse(body, &url).unwrap_err().to_string();
        assert_eq!(message(b""), "not a feed: the body is empty");
        assert_eq!(
            message(&utf16("<?xml version='1.0'?><foo/>", false, false)),
            "not a feed: UTF-16LE XML, root element <foo>: not RSS, Atom or RDF"
        );
        assert_eq!(
            message(b"<!DOCTYPE html><html><body>no</body></html>"),
            "not a feed: UTF-8 HTML page (root element <html>)"
        );
        assert_eq!(
            message(br#"{"a":1}"#),
            "not a feed: UTF-8 JSON, but not a JSON Feed: no items array"
        );
        assert_eq!(
            message(b"[1,2]"),
            "not a feed: UTF-8 JSON, but not a JSON Feed: an array, not an object"
        );
        assert!(
            message(b"{\"items\": [")
                .starts_with("not a feed: UTF-8 text that starts like JSON but is not: ")
        );
        assert_eq!(
            message(b"just words"),
            "not a feed: UTF-8 text, neither XML nor JSON (it starts \"just words\")"
        );
        assert_eq!(
            message(b"<rss version=\"2.0\"><channel><title>Broken<item><title>Unclosed <link>"),
            "not a feed: UTF-8 RSS that breaks off before any item (the document ends with 6 \
             elements open)"
        );
        assert_eq!(
            message(b"<!-- only a comment -->"),
            "not a feed: UTF-8 XML with no root element (the document ends first)"
        );
    }

    #[test]
    fn fields_from_the_web_are_capped() {
        let title = "t".repeat(9 << 20);
        let guid = "g".repeat(MAX_GUID_LEN + 1);
        let long_url = format!("https://x.example/{}", "u".repeat(MAX_URL_LEN));
        let body = format!(
            "<rss><channel><title>{title}</title><item><title>{title}</title><guid>{guid}</guid><link>https://x.example/1</link></item>\
             <item><link>{long_url}</link></item></channel></rss>"
        );
        let feed = parse(body.as_bytes(), &feed_url()).unwrap();
        assert_eq!(feed.title.as_ref().map(String::len), Some(MAX_TITLE_LEN));
        assert_eq!(feed.items.len(), 1);
        assert_eq!(feed.items[0].title.as_ref().map(String::len), Some(MAX_TITLE_LEN));
        assert_eq!(feed.items[0].guid, None);
        assert_eq!(feed.warnings.len(), 3, "{:?}", feed.warnings);
        // Multi-byte characters are cut at a boundary.
        assert_eq!(cut("\u{e9}\u{e9}", 3), "\u{e9}");
    }

    #[test]
    fn at_most_max_items() {
        let items = "<item><link>https://x.example/a</link></item>".repeat(MAX_ITEMS + 5);
        let feed = parse(format!("<rss><channel>{items}</channel></rss>").as_bytes(), &feed_url())
            .unwrap();
        assert_eq!(feed.items.len(), MAX_ITEMS);
        assert_eq!(feed.warnings, [format!("more than {MAX_ITEMS} items; the rest are ignored")]);
    }

    #[test]
    fn sniffing() {
        assert_eq!(
            sniff(b"\xef\xbb\xbf<?xml version='1.0'?><!-- c --><rss version='2.0'>"),
            Some(Format::Rss)
        );
        assert_eq!(sniff(b"<rdf:RDF xmlns:rdf='x'>"), Some(Format::Rdf));
        assert_eq!(sniff(b"<feed xmlns='http://www.w3.org/2005/Atom'>"), Some(Format::Atom));
        assert_eq!(sniff(&utf16("<?xml version='1.0'?><rss>", true, false)), Some(Format::Rss));
        assert_eq!(sniff(b"<!DOCTYPE html><html><head>"), None);
        assert_eq!(sniff(b"<urlset>"), None);
        assert_eq!(sniff(b"{\"a\":1}"), Some(Format::Json));
        assert_eq!(sniff(b""), None);
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>, content_type: String) {
            let _ = parse_with_content_type(&body, &feed_url(), Some(&content_type));
            let _ = sniff(&body);
        }

        #[test]
        fn arbitrary_items_never_panic(link: String, date: String, title: String) {
            let body = format!("<rss><channel><item><title>{title}</title><link>{link}</link><pubDate>{date}</pubDate></item></channel></rss>");
            let _ = parse(body.as_bytes(), &feed_url());
            let body = format!("<feed><entry xml:base=\"{link}\"><title type=\"html\">{title}</title><link href=\"{link}\"/></entry></feed>");
            let _ = parse(body.as_bytes(), &feed_url());
        }
    }
}
