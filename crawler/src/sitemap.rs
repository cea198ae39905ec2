//! Sitemaps: `<urlset>`, `<sitemapindex>`, Google News fields, and plain-text URL lists.
//!
//! [`parse`] reads a (decompressed) body with a streaming XML reader and never fails on a broken
//! document: what was parsed before the error is kept and the error becomes a warning, as
//! Media Cloud's sitemap parser does. Only a body that is not a sitemap at all is an error.
//! [`gunzip`] undoes gzip (detected by its magic bytes, not by the URL or header, which lie)
//! with a cap on the decompressed size, so a gzip bomb costs at most that much memory.

use std::io::Read;

use chrono::{DateTime, Utc};
use quick_xml::Reader;
use quick_xml::events::Event;

use crate::dates;

/// The most entries kept from one sitemap (the protocol allows 50,000).
pub const MAX_ENTRIES: usize = 50_000;

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
    /// `loc`, trimmed.
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

/// Why a body is not a sitemap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotASitemap {
    /// XML whose root is neither `urlset` nor `sitemapindex`.
    #[error("the document's root element is <{0}>, not <urlset> or <sitemapindex>")]
    Root(String),
    /// Neither XML nor a list of URLs.
    #[error("the body is neither XML nor a list of URLs")]
    NotXml,
}

/// Parses a decompressed sitemap body.
pub fn parse(body: &[u8]) -> Result<Sitemap, NotASitemap> {
    let text = String::from_utf8_lossy(body);
    let text = text.trim_start_matches('\u{feff}');
    let start = text.trim_start();
    if !start.starts_with('<') {
        return parse_text(start);
    }
    parse_xml(text)
}

fn parse_text(text: &str) -> Result<Sitemap, NotASitemap> {
    let entries: Vec<Entry> = text
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("http://") || line.starts_with("https://"))
        .filter(|line| !line.contains(char::is_whitespace))
        .take(MAX_ENTRIES)
        .map(|line| Entry { loc: line.to_owned(), ..Entry::default() })
        .collect();
    if entries.is_empty() {
        return Err(NotASitemap::NotXml);
    }
    Ok(Sitemap { kind: Kind::Text, entries, warnings: Vec::new() })
}

fn parse_xml(text: &str) -> Result<Sitemap, NotASitemap> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    let mut kind: Option<Kind> = None;
    let mut entries = Vec::new();
    let mut warnings = Vec::new();
    // The local names of the open elements, and the text of the innermost one.
    let mut path: Vec<String> = Vec::new();
    let mut buffer = String::new();
    let mut entry = Entry::default();
    let mut news = News::default();
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(err) => {
                warnings.push(format!("malformed XML at byte {}: {err}", reader.buffer_position()));
                break;
            }
        };
        match event {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_ascii_lowercase();
                if kind.is_none() {
                    kind = Some(root_kind(&name)?);
                }
                path.push(name);
                buffer.clear();
            }
            Event::Empty(empty) if kind.is_none() => {
                let name = empty.local_name().as_ref().to_ascii_lowercase();
                kind = Some(root_kind(&name)?);
            }
            Event::Text(content) => buffer.push_str(&content.xml10_content()),
            Event::CData(content) => buffer.push_str(&content.xml10_content()),
            Event::GeneralRef(reference) => match reference.resolve_char_ref() {
                Ok(Some(c)) => buffer.push(c),
                _ => buffer.push_str(match reference.xml10_content().as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                }),
            },
            Event::End(_) => {
                let value = buffer.trim().to_owned();
                buffer.clear();
                let names: Vec<&str> = path.iter().map(String::as_str).collect();
                match names.as_slice() {
                    [_, "url" | "sitemap", "loc"] => entry.loc = value,
                    [_, "url" | "sitemap", "lastmod"] => entry.lastmod = dates::parse(&value),
                    [_, "url", "news", "publication", "name"] => {
                        news.publication_name = non_empty(value)
                    }
                    [_, "url", "news", "publication", "language"] => {
                        news.language = non_empty(value)
                    }
                    [_, "url", "news", "publication_date"] => {
                        news.publication_date = dates::parse(&value)
                    }
                    [_, "url", "news", "title"] => news.title = non_empty(value),
                    [_, "url", "news", "keywords"] => news.keywords = non_empty(value),
                    [_, "url" | "sitemap"] => {
                        let mut done = std::mem::take(&mut entry);
                        let found = std::mem::take(&mut news);
                        if found != News::default() {
                            done.news = Some(found);
                        }
                        let usable =
                            done.loc.starts_with("http://") || done.loc.starts_with("https://");
                        if usable && entries.len() < MAX_ENTRIES {
                            entries.push(done);
                        } else if usable && entries.len() == MAX_ENTRIES {
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
    match kind {
        Some(kind) => Ok(Sitemap { kind, entries, warnings }),
        None => Err(NotASitemap::NotXml),
    }
}

fn root_kind(name: &str) -> Result<Kind, NotASitemap> {
    match name {
        "urlset" => Ok(Kind::UrlSet),
        "sitemapindex" => Ok(Kind::Index),
        other => Err(NotASitemap::Root(other.chars().take(64).collect())),
    }
}

fn non_empty(value: String) -> Option<String> {
    (!value.is_empty()).then_some(value)
}

/// Why a gzip body could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GunzipError {
    /// It decompresses to more than the cap.
    #[error("the body decompresses to more than {0} bytes")]
    TooLarge(usize),
    /// It is not valid gzip.
    #[error("the body is not valid gzip: {0}")]
    Corrupt(String),
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
        assert!(sitemap.warnings.is_empty(), "{:?}", sitemap.warnings);
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
        assert_eq!(parse(b"<html><body>hi</body></html>"), Err(NotASitemap::Root("html".into())));
        assert_eq!(parse(b"<rss version=\"2.0\"></rss>"), Err(NotASitemap::Root("rss".into())));
        assert_eq!(parse(b"just words"), Err(NotASitemap::NotXml));
        assert_eq!(parse(b""), Err(NotASitemap::NotXml));
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
