//! Sitemaps: `<urlset>`, `<sitemapindex>`, Google News fields, and plain-text URL lists.
//!
//! [`parse_with_content_type`] decodes the (decompressed) body as feeds are decoded
//! ([`crate::decode`]: BOM, byte layout, HTTP charset, XML declaration, detection), then reads a
//! body that starts with `<` with a streaming XML reader and anything else as a list of URLs, one
//! per line. It never fails on a broken document: a bare `&` is taken as text, and after a syntax
//! error reading goes on where `quick-xml` resumes, each error becoming a warning, as Media
//! Cloud's sitemap parser keeps what it can. Only a body that is not a sitemap at all is an error
//! ([`NotASitemap`]), whose message names what the body was taken to be, in which encoding.
//! Every field from the web is capped: `loc` at [`crate::feed::MAX_URL_LEN`] bytes (longer ones,
//! and ones that are not http(s), are skipped and counted), `news:title` at
//! [`crate::feed::MAX_TITLE_LEN`] bytes and the other news fields at [`MAX_FIELD_LEN`] (cut at a
//! character boundary), at most [`MAX_ENTRIES`] entries.
//! [`gunzip`] undoes gzip (detected by its magic bytes, not by the URL or header, which lie)
//! with a cap on the decompressed size, so a gzip bomb costs at most that much memory.

use std::io::Read;

use chrono::{DateTime, Utc};
use quick_xml::Reader;
use quick_xml::events::Event;

use crate::dates;
use crate::decode::{self, XmlErrors, escape_bare_ampersands};
pub use crate::error::{GunzipError, NotASitemap};
use crate::feed::{MAX_TITLE_LEN, MAX_URL_LEN};

/// The most entries kept from one sitemap (the protocol allows 50,000).
pub const MAX_ENTRIES: usize = 50_000;

/// The longest `news:name`, `news:language` or `news:keywords` kept, in bytes.
pub const MAX_FIELD_LEN: usize = 1024;

/// How much text one element may gather before the rest is ignored.
const BUFFER_BYTES: usize = 4 * MAX_URL_LEN;

/// What a sitemap document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `<urlset>` of pages.
    UrlSet,
    /// A `<sitemapindex>` of further sitemaps.
    Index,
    /// A plain-text list of URLs, one per line.
    Text,
}

/// Google News fields of a `<url>` (`news:` namespace).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct News {
    /// `news:publication/news:name`.
    pub publication_name: Option<String>,
    /// `news:publication/news:language`.
    pub language: Option<String>,
    /// `news:publication_date`, parsed.
    pub publication_date: Option<DateTime<Utc>>,
    /// `news:title`.
    pub title: Option<String>,
    /// `news:keywords`.
    pub keywords: Option<String>,
}

impl News {
    /// Whether any field marks this as a Google News entry (a title alone does not, as in
    /// Media Cloud's sitemap tools).
    pub fn is_news(&self) -> bool {
        self.publication_name.is_some()
            || self.language.is_some()
            || self.publication_date.is_some()
            || self.keywords.is_some()
    }
}

/// One `<url>` of a urlset, or one `<sitemap>` of an index.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    /// `loc`, trimmed: an http(s) URL of at most [`MAX_URL_LEN`] bytes.
    pub loc: String,
    /// `lastmod`, parsed.
    pub lastmod: Option<DateTime<Utc>>,
    /// The Google News fields, when the entry has any.
    pub news: Option<News>,
}

/// A parsed sitemap.
#[derive(Debug, Clone, PartialEq)]
pub struct Sitemap {
    /// What it is.
    pub kind: Kind,
    /// Its entries, in document order, at most [`MAX_ENTRIES`].
    pub entries: Vec<Entry>,
    /// What went wrong while parsing, for people.
    pub warnings: Vec<String>,
}

impl Sitemap {
    /// Whether this is a Google News sitemap: a urlset with news fields.
    pub fn is_news(&self) -> bool {
        self.kind == Kind::UrlSet
            && self.entries.iter().any(|entry| entry.news.as_ref().is_some_and(News::is_news))
    }
}

/// Parses a decompressed sitemap body, with no HTTP `Content-Type` to go by.
pub fn parse(body: &[u8]) -> Result<Sitemap, NotASitemap> {
    parse_with_content_type(body, None)
}

/// Parses a decompressed sitemap body served with `content_type` (the HTTP `Content-Type` value,
/// whose `charset` beats the XML declaration but not a BOM).
pub fn parse_with_content_type(
    body: &[u8],
    content_type: Option<&str>,
) -> Result<Sitemap, NotASitemap> {
    let decoded = decode::decode(body, content_type, None);
    let encoding = decoded.encoding();
    let text = decoded.text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let mut sitemap = match text.chars().next() {
        None => return Err(NotASitemap::Empty),
        Some('<') => parse_xml(text, encoding)?,
        Some('{' | '[') => return Err(NotASitemap::Json { encoding }),
        Some(_) => parse_text(text, encoding)?,
    };
    let mut warnings = decoded.warnings;
    warnings.append(&mut sitemap.warnings);
    sitemap.warnings = warnings;
    Ok(sitemap)
}

/// Whether a `loc` is usable: an http(s) URL of at most [`MAX_URL_LEN`] bytes.
fn usable(loc: &str) -> bool {
    let scheme = loc.get(..8).unwrap_or(loc).to_ascii_lowercase();
    (scheme.starts_with("http://") || scheme.starts_with("https://")) && loc.len() <= MAX_URL_LEN
}

fn parse_text(text: &str, encoding: &'static str) -> Result<Sitemap, NotASitemap> {
    let mut skipped = 0;
    let entries: Vec<Entry> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.contains(char::is_whitespace))
        .filter(|line| {
            let keep = usable(line);
            skipped += usize::from(!keep);
            keep
        })
        .take(MAX_ENTRIES)
        .map(|line| Entry { loc: line.to_owned(), ..Entry::default() })
        .collect();
    if entries.is_empty() {
        return Err(NotASitemap::NoUrls { encoding, start: text.chars().take(24).collect() });
    }
    let mut warnings = Vec::new();
    if skipped > 0 {
        warnings.push(skipped_message(skipped, true));
    }
    Ok(Sitemap { kind: Kind::Text, entries, warnings })
}

/// The warning for `count` entries (or lines) skipped for their `loc`.
fn skipped_message(count: usize, lines: bool) -> String {
    let what = match (lines, count) {
        (true, 1) => "line",
        (true, _) => "lines",
        (false, 1) => "entry",
        (false, _) => "entries",
    };
    format!("{count} {what} skipped: not an http(s) URL of at most {MAX_URL_LEN} bytes")
}

fn parse_xml(text: &str, encoding: &'static str) -> Result<Sitemap, NotASitemap> {
    let text = escape_bare_ampersands(text);
    let mut reader = Reader::from_str(&text);
    reader.config_mut().check_end_names = false;
    let mut kind: Option<Kind> = None;
    let mut entries = Vec::new();
    let mut warnings = Vec::new();
    let (mut errors, mut first_error) = (XmlErrors::default(), None);
    let mut skipped = 0;
    // The local names of the open elements, and the text of the innermost one.
    let mut path: Vec<String> = Vec::new();
    let mut buffer = String::new();
    let mut entry = Entry::default();
    let mut news = News::default();
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(err) => {
                let error =
                    errors.record(&text, &err, reader.error_position(), reader.buffer_position());
                if error.report {
                    warnings.push(error.message.clone());
                }
                first_error.get_or_insert(error.message);
                if let Some(stop) = error.stop {
                    warnings.push(stop);
                    break;
                }
                continue;
            }
        };
        match event {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_ascii_lowercase();
                if kind.is_none() {
                    kind = Some(root_kind(&name, &start, encoding)?);
                }
                path.push(name);
                buffer.clear();
            }
            Event::Empty(empty) if kind.is_none() => {
                let name = empty.local_name().as_ref().to_ascii_lowercase();
                kind = Some(root_kind(&name, &empty, encoding)?);
            }
            Event::Text(content) => push_capped(&mut buffer, &content.xml10_content()),
            Event::CData(content) => push_capped(&mut buffer, &content.xml10_content()),
            Event::GeneralRef(reference) => {
                let name = reference.xml10_content();
                match decode::reference(&name) {
                    Some(c) => push_capped(&mut buffer, c.encode_utf8(&mut [0; 4])),
                    None => push_capped(&mut buffer, &format!("&{name};")),
                }
            }
            Event::End(_) => {
                let value = buffer.trim().to_owned();
                buffer.clear();
                let names: Vec<&str> = path.iter().map(String::as_str).collect();
                match names.as_slice() {
                    [_, "url" | "sitemap", "loc"] => entry.loc = value,
                    [_, "url" | "sitemap", "lastmod"] => entry.lastmod = dates::parse(&value),
                    [_, "url", "news", "publication", "name"] => {
                        news.publication_name = capped(value, MAX_FIELD_LEN)
                    }
                    [_, "url", "news", "publication", "language"] => {
                        news.language = capped(value, MAX_FIELD_LEN)
                    }
                    [_, "url", "news", "publication_date"] => {
                        news.publication_date = dates::parse(&value)
                    }
                    [_, "url", "news", "title"] => news.title = capped(value, MAX_TITLE_LEN),
                    [_, "url", "news", "keywords"] => news.keywords = capped(value, MAX_FIELD_LEN),
                    [_, "url" | "sitemap"] => {
                        let mut done = std::mem::take(&mut entry);
                        let found = std::mem::take(&mut news);
                        if found != News::default() {
                            done.news = Some(found);
                        }
                        if !usable(&done.loc) {
                            skipped += 1;
                        } else if entries.len() < MAX_ENTRIES {
                            entries.push(done);
                        } else {
                            warnings.push(format!(
                                "more than {MAX_ENTRIES} entries; the rest are ignored"
                            ));
                            path.pop();
                            break;
                        }
                    }
                    _ => {}
                }
                path.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if skipped > 0 {
        warnings.push(skipped_message(skipped, false));
    }
    match kind {
        Some(kind) => Ok(Sitemap { kind, entries, warnings }),
        None => Err(NotASitemap::NoRoot {
            encoding,
            reason: first_error.unwrap_or_else(|| "the document ends first".to_owned()),
        }),
    }
}

fn root_kind(
    name: &str,
    start: &quick_xml::events::BytesStart<'_>,
    encoding: &'static str,
) -> Result<Kind, NotASitemap> {
    let root = || start.name().as_ref().chars().take(64).collect();
    match name {
        "urlset" => Ok(Kind::UrlSet),
        "sitemapindex" => Ok(Kind::Index),
        "html" => Err(NotASitemap::Html { encoding, root: root() }),
        _ => Err(NotASitemap::Root { encoding, root: root() }),
    }
}

/// Appends to an element's text up to [`BUFFER_BYTES`].
fn push_capped(buffer: &mut String, text: &str) {
    let room = BUFFER_BYTES.saturating_sub(buffer.len());
    buffer.push_str(crate::feed::cut(text, room));
}

/// A non-empty field cut to `max` bytes at a character boundary.
fn capped(value: String, max: usize) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    Some(crate::feed::cut(&value, max).trim_end().to_owned())
}

/// Decompresses a gzip body (recognised by its magic bytes) up to `max` bytes; any other body is
/// returned as it is.
pub fn gunzip(body: &[u8], max: usize) -> Result<std::borrow::Cow<'_, [u8]>, GunzipError> {
    if !body.starts_with(&[0x1f, 0x8b]) {
        return Ok(std::borrow::Cow::Borrowed(body));
    }
    let mut out = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    flate2::read::MultiGzDecoder::new(body)
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|err| GunzipError::Corrupt(err.to_string()))?;
    if out.len() > max {
        return Err(GunzipError::TooLarge(max));
    }
    Ok(std::borrow::Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const NEWS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc> https://daily.example/2026/11/03/budget?a=1&amp;b=2 </loc>
    <lastmod>2026-11-03T10:05:00+01:00</lastmod>
    <image:image><image:loc>https://daily.example/photo.jpg</image:loc></image:image>
    <news:news>
      <news:publication><news:name>The Daily</news:name><news:language>es</news:language></news:publication>
      <news:publication_date>2026-11-03T10:00:00+01:00</news:publication_date>
      <news:title><![CDATA[Budget & schools]]> &#8212; today</news:title>
    </news:news>
  </url>
  <url><loc>https://daily.example/about</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>"#;

    #[test]
    fn news_sitemap() {
        let sitemap = parse(NEWS.as_bytes()).unwrap();
        assert_eq!(sitemap.kind, Kind::UrlSet);
        assert!(sitemap.is_news());
        assert_eq!(sitemap.entries.len(), 2, "{:?}", sitemap.entries);
        let first = &sitemap.entries[0];
        assert_eq!(first.loc, "https://daily.example/2026/11/03/budget?a=1&b=2");
        assert_eq!(first.lastmod, dates::parse("2026-11-03T09:05:00Z"));
        let news = first.news.as_ref().unwrap();
        assert_eq!(news.publication_name.as_deref(), Some("The Daily"));
        assert_eq!(news.language.as_deref(), Some("es"));
        assert_eq!(news.publication_date, dates::parse("2026-11-03T09:00:00Z"));
        assert_eq!(news.title.as_deref(), Some("Budget & schools \u{2014} today"));
        assert_eq!(sitemap.entries[1].news, None);
        assert_eq!(sitemap.warnings, ["1 entry skipped: not an http(s) URL of at most 2048 bytes"]);
    }

    #[test]
    fn index() {
        let body = b"<sitemapindex><sitemap><loc>https://x.example/a.xml.gz</loc><lastmod>2026-11-01</lastmod></sitemap><sitemap><loc>https://x.example/b.xml</loc></sitemap></sitemapindex>";
        let sitemap = parse(body).unwrap();
        assert_eq!(sitemap.kind, Kind::Index);
        let locs: Vec<&str> = sitemap.entries.iter().map(|e| e.loc.as_str()).collect();
        assert_eq!(locs, ["https://x.example/a.xml.gz", "https://x.example/b.xml"]);
        assert_eq!(sitemap.entries[0].lastmod, dates::parse("2026-11-01"));
        assert!(!sitemap.is_news());
    }

    #[test]
    fn a_broken_document_keeps_what_came_before() {
        let body = b"<urlset><url><loc>https://x.example/a</loc></url><url><loc>https://x.example/b</loc></url><url><loc>https://x.ex";
        let sitemap = parse(body).unwrap();
        assert_eq!(sitemap.entries.len(), 2);
        let body = b"<urlset><url><loc>https://x.example/a</loc></url><url><loc>https://x.example/b</lo></url></urlset>";
        let sitemap = parse(body).unwrap();
        assert!(!sitemap.entries.is_empty());
    }

    #[test]
    fn other_documents_are_not_sitemaps() {
        let message = |body: &[u8]| parse(body).unwrap_err().to_string();
        assert_eq!(
            message(b"<html><body>hi</body></html>"),
            "not a sitemap: UTF-8 HTML page (root element <html>)"
        );
        assert_eq!(
            message(b"<rss version=\"2.0\"></rss>"),
            "not a sitemap: UTF-8 XML, root element <rss>: not <urlset> or <sitemapindex>"
        );
        let utf16: Vec<u8> =
            "<?xml version='1.0'?><foo/>".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(
            message(&utf16),
            "not a sitemap: UTF-16LE XML, root element <foo>: not <urlset> or <sitemapindex>"
        );
        assert_eq!(
            message(b"just words"),
            "not a sitemap: UTF-8 text with no line that is an http(s) URL (it starts \"just words\")"
        );
        assert_eq!(message(b"{\"urls\": []}"), "not a sitemap: UTF-8 JSON");
        assert_eq!(message(b" \n"), "not a sitemap: the body is empty");
        assert_eq!(
            message(b"<!-- x -->"),
            "not a sitemap: UTF-8 XML with no root element (the document ends first)"
        );
    }

    #[test]
    fn utf16_sitemaps_bare_ampersands_and_errors_midway() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><urlset><url><loc>https://x.example/?a=1&b=2</loc></url>\
                    <url><loc>https://x.example/c</lo></url><url><loc>https://x.example/d</loc></url></urlset>";
        let body: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        let sitemap = parse(&body).unwrap();
        let locs: Vec<&str> = sitemap.entries.iter().map(|e| e.loc.as_str()).collect();
        assert_eq!(locs[0], "https://x.example/?a=1&b=2");
        assert_eq!(locs.last(), Some(&"https://x.example/d"), "{locs:?}");
    }

    #[test]
    fn fields_from_the_web_are_capped() {
        let long = "t".repeat(9 << 20);
        let long_url = format!("https://x.example/{}", "u".repeat(MAX_URL_LEN));
        let body = format!(
            "<urlset xmlns:news='n'><url><loc>https://x.example/a</loc><news:news><news:title>{long}</news:title>\
             <news:keywords>{long}</news:keywords></news:news></url><url><loc>{long_url}</loc></url></urlset>"
        );
        let sitemap = parse(body.as_bytes()).unwrap();
        assert_eq!(sitemap.entries.len(), 1);
        let news = sitemap.entries[0].news.as_ref().unwrap();
        assert_eq!(news.title.as_ref().map(String::len), Some(MAX_TITLE_LEN));
        assert_eq!(news.keywords.as_ref().map(String::len), Some(MAX_FIELD_LEN));
        assert_eq!(sitemap.warnings, [skipped_message(1, false)]);
        let text = format!("https://x.example/a\n{long_url}\n");
        assert_eq!(parse(text.as_bytes()).unwrap().warnings, [skipped_message(1, true)]);
    }

    #[test]
    fn plain_text_sitemaps() {
        let sitemap =
            parse(b"https://x.example/a\n\n  https://x.example/b  \nnot a url\n").unwrap();
        assert_eq!(sitemap.kind, Kind::Text);
        assert_eq!(sitemap.entries.len(), 2);
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gzip_is_recognised_by_content_and_capped() {
        let packed = gzip(NEWS.as_bytes());
        assert_eq!(gunzip(&packed, 1 << 20).unwrap().as_ref(), NEWS.as_bytes());
        assert_eq!(
            gunzip(NEWS.as_bytes(), 10).unwrap().as_ref(),
            NEWS.as_bytes(),
            "not gzip: as is"
        );
        // A bomb: 64 MiB of zeros packs into about 64 KiB.
        let bomb = gzip(&vec![0_u8; 64 << 20]);
        assert!(bomb.len() < 1 << 20);
        assert_eq!(gunzip(&bomb, 1 << 20), Err(GunzipError::TooLarge(1 << 20)));
        assert!(matches!(gunzip(&[0x1f, 0x8b, 0, 1, 2], 100), Err(GunzipError::Corrupt(_))));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>) {
            let _ = parse(&body);
            let _ = gunzip(&body, 1 << 16);
        }

        #[test]
        fn arbitrary_xml_like_text_never_panics(inner: String) {
            let _ = parse(format!("<urlset><url><loc>{inner}</loc></url>{inner}</urlset>").as_bytes());
            let _ = parse(format!("<sitemapindex>{inner}").as_bytes());
        }
    }
}
