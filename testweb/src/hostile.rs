//! Sites that misbehave on purpose, each in one way, so a crawl can be shown to survive them.
//!
//! | host | behaviour |
//! | --- | --- |
//! | `slow.test` | every response drips one byte every 200 ms for two minutes |
//! | `loop.test` | feed items redirect in a loop, or through more hops than any limit |
//! | `busy.test` | each article answers `503` (then `429`) with `Retry-After: 1` before it answers `200` |
//! | `broken.test` | the feed answers `500` |
//! | `huge.test` | articles are 100 MB bodies |
//! | `bomb.test` | the feed is a gzip bomb (64 MB of zeros in about 64 KB) |
//! | `badxml.test` | the feed and the sitemap are malformed XML |
//! | `charset.test` | articles say UTF-8 but are Windows-1252 |
//! | `binary.test` | feed items lead to a PDF and a JPEG besides one article |
//!
//! Every hostile site serves its homepage with a `<link rel=alternate>` to `/feed.xml` (except
//! `slow.test`, which drips even that) and a robots.txt that allows everything.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::http::{Body, Request, Response};
use crate::text::escape;

/// The hostile host names.
pub const HOSTS: [&str; 9] = [
    "slow.test",
    "loop.test",
    "busy.test",
    "broken.test",
    "huge.test",
    "bomb.test",
    "badxml.test",
    "charset.test",
    "binary.test",
];

/// Paths of hostile sites that a well-behaved crawl stores as stories, by host.
pub const STORABLE: [(&str, &str); 5] = [
    ("busy.test", "/news/patience-1.html"),
    ("busy.test", "/news/patience-2.html"),
    ("charset.test", "/news/mojibake-1.html"),
    ("charset.test", "/news/mojibake-2.html"),
    ("binary.test", "/news/plain-1.html"),
];

/// State the hostile sites keep between requests.
#[derive(Debug, Default)]
pub(crate) struct Hostile {
    /// How often each `busy.test` path was asked for.
    busy: Mutex<HashMap<String, u32>>,
}

impl Hostile {
    /// Answers a request to a hostile host, or `None` for any other host.
    pub(crate) fn respond(&self, request: &Request, now: DateTime<Utc>) -> Option<Response> {
        let host = request.host.as_str();
        if !HOSTS.contains(&host) {
            return None;
        }
        let path = request.path.split('?').next().unwrap_or("/");
        let origin = request.origin();
        if host == "slow.test" {
            return Some(Response {
                status: 200,
                headers: vec![("Content-Type".into(), "text/html".into())],
                body: Body::Drip {
                    chunk: b" ".to_vec(),
                    every: Duration::from_millis(200),
                    count: 600,
                },
            });
        }
        Some(match path {
            "/" => Response::html(homepage(host)),
            "/robots.txt" => Response::text(format!(
                "User-agent: *\nAllow: /\n{}",
                if host == "badxml.test" {
                    format!("Sitemap: {origin}/sitemap.xml\n")
                } else {
                    String::new()
                }
            )),
            "/feed.xml" => self.feed(host, &origin, now),
            "/sitemap.xml" if host == "badxml.test" => Response::bytes(
                200,
                "application/xml",
                b"<?xml version=\"1.0\"?><urlset><url><loc>http://badxml.test/a</loc><url><loc>"
                    .to_vec(),
            ),
            _ => self.page(host, path, &origin),
        })
    }

    fn feed(&self, host: &str, origin: &str, now: DateTime<Utc>) -> Response {
        match host {
            "broken.test" => {
                return Response::bytes(500, "text/plain", b"internal error\n".to_vec());
            }
            "bomb.test" => {
                return Response::bytes(200, "application/rss+xml", bomb().to_vec())
                    .with_header("Content-Encoding", "gzip");
            }
            "badxml.test" => {
                return Response::bytes(
                    200,
                    "application/rss+xml",
                    b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Broken<item><title>Unclosed &bogus; <link>".to_vec(),
                );
            }
            _ => {}
        }
        let paths: &[&str] = match host {
            "loop.test" => &["/loop/a", "/hops/0"],
            "busy.test" => &["/news/patience-1.html", "/news/patience-2.html"],
            "huge.test" => &["/news/enormous-1.html"],
            "charset.test" => &["/news/mojibake-1.html", "/news/mojibake-2.html"],
            "binary.test" => &["/files/report.pdf", "/files/photo.jpg", "/news/plain-1.html"],
            _ => &[],
        };
        let mut items = String::new();
        for (i, path) in paths.iter().enumerate() {
            let published = now - chrono::Duration::hours(i as i64 + 1);
            items.push_str(&format!(
                "<item><title>Hostile item {i} on {host}</title><link>{origin}{path}</link><pubDate>{}</pubDate></item>\n",
                published.to_rfc2822()
            ));
        }
        Response::bytes(
            200,
            "application/rss+xml",
            format!(
                "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{host}</title><link>{origin}/</link>\n{items}</channel></rss>\n"
            )
            .into_bytes(),
        )
    }

    fn page(&self, host: &str, path: &str, origin: &str) -> Response {
        match (host, path) {
            ("loop.test", "/loop/a") => Response::redirect(302, &format!("{origin}/loop/b")),
            ("loop.test", "/loop/b") => Response::redirect(302, &format!("{origin}/loop/a")),
            ("loop.test", hop) if hop.starts_with("/hops/") => {
                let n: u32 = hop["/hops/".len()..].parse().unwrap_or(0);
                Response::redirect(302, &format!("{origin}/hops/{}", n + 1))
            }
            ("busy.test", _) if path.starts_with("/news/") => {
                let count = {
                    let mut busy = self.busy.lock().unwrap_or_else(|p| p.into_inner());
                    let count = busy.entry(path.to_owned()).or_insert(0);
                    *count += 1;
                    *count
                };
                match count {
                    1 => Response::bytes(503, "text/plain", b"busy\n".to_vec())
                        .with_header("Retry-After", "1"),
                    2 => Response::bytes(429, "text/plain", b"slow down\n".to_vec())
                        .with_header("Retry-After", "1"),
                    _ => Response::html(article_html(path, "Patience rewarded", "utf-8")),
                }
            }
            ("huge.test", _) if path.starts_with("/news/") => {
                let mut chunk = b"<p>".to_vec();
                chunk.extend(std::iter::repeat_n(b'a', 64 * 1024 - 8));
                chunk.extend_from_slice(b"</p>\n");
                Response {
                    status: 200,
                    headers: vec![("Content-Type".into(), "text/html".into())],
                    body: Body::Repeat { chunk, count: 1600 },
                }
            }
            ("charset.test", _) if path.starts_with("/news/") => {
                let page = article_html(path, "Caf\u{e9} owners fear the na\u{ef}ve plan", "utf-8");
                // Declared UTF-8, sent as Windows-1252: every non-ASCII letter is one byte.
                let bytes =
                    page.chars().map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect();
                Response::bytes(200, "text/html; charset=utf-8", bytes)
            }
            ("binary.test", "/files/report.pdf") => Response::bytes(
                200,
                "application/pdf",
                b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n".repeat(100),
            ),
            ("binary.test", "/files/photo.jpg") => {
                Response::bytes(200, "image/jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00".repeat(200))
            }
            ("binary.test", "/news/plain-1.html") => {
                Response::html(article_html(path, "Plain text survives among binaries", "utf-8"))
            }
            _ => Response::not_found(),
        }
    }
}

fn homepage(host: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{host}</title>\
         <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head>\
         <body><h1>{host}</h1><p>A site that misbehaves.</p></body></html>"
    )
}

/// A short but real article, so that a crawl that gets through stores it.
pub(crate) fn article_html(path: &str, headline: &str, charset: &str) -> String {
    let sentences = [
        "The owners of the small shops along the river said on Monday that the plan had been rushed through without a proper consultation.",
        "Several of them had written to the council in the spring, but they said none of their letters had received an answer.",
        "A spokesperson for the council said the consultation had been open for six weeks and that every response would be published.",
        "The plan, which would close the street to traffic on weekends, is due to be voted on before the end of the month.",
        "Supporters say it would bring more visitors to the area, while critics fear that deliveries would become impossible.",
    ];
    let paragraphs: String = sentences.iter().map(|s| format!("<p>{}</p>\n", escape(s))).collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"{charset}\"><title>{title}</title></head>\
         <body><article><h1>{title}</h1><p class=\"byline\">By Staff Reporter</p>\n{paragraphs}<p>Story {path}.</p></article></body></html>",
        title = escape(headline)
    )
}

/// 64 MB of zeros, gzip-compressed once per process.
fn bomb() -> &'static [u8] {
    static BOMB: OnceLock<Vec<u8>> = OnceLock::new();
    BOMB.get_or_init(|| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0_u8; 1 << 20];
        for _ in 0..64 {
            let _ = encoder.write_all(&zeros);
        }
        encoder.finish().unwrap_or_default()
    })
}
