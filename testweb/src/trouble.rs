//! Sites that are trouble in ways the hostile ones are not, each group switched on by its own
//! [`crate::Config`] flag so that the tests of other things stay as they are.
//!
//! **Garbled feeds** (`garbled_feeds`): feeds whose text no archive column can take as it is.
//!
//! | host | behaviour |
//! | --- | --- |
//! | `nul.test` | an RSS feed with a NUL byte in an item title and in a description |
//! | `utf16.test` | an RSS feed in UTF-16LE without a byte order mark, its prolog saying `UTF-16` |
//! | `oversize.test` | an RSS feed with a 3 MB item title, an item URL of 5,000 bytes and a 100 kB guid |
//!
//! **A robots.txt outage** (`robots_outage`): `outage.test` serves a feed whose items are articles
//! on `news.outage.test`, whose robots.txt answers `503` the first time it is asked for and `200`
//! (allowing everything) after that.
//!
//! **A long search** (`long_search`): `haystack.test` announces no feed, lists no sitemap and
//! answers `404` to every guess, so its discovery tries every candidate there is.
//!
//! Each of these sites (but `haystack.test`) serves a homepage with a `<link rel=alternate>` to
//! `/feed.xml` and, on `.html` paths, short but real articles.

use std::sync::Mutex;

use chrono::{DateTime, Utc};

use crate::hostile::article_html;
use crate::http::{Request, Response};
use crate::text::escape;

/// The garbled-feed hosts.
pub const GARBLED_HOSTS: [&str; 3] = ["nul.test", "utf16.test", "oversize.test"];

/// The host whose feed lists articles on [`OUTAGE_ARTICLE_HOST`].
pub const OUTAGE_HOST: &str = "outage.test";

/// The host whose robots.txt answers `503` once.
pub const OUTAGE_ARTICLE_HOST: &str = "news.outage.test";

/// The paths of the articles [`OUTAGE_HOST`]'s feed lists, on [`OUTAGE_ARTICLE_HOST`].
pub const OUTAGE_ARTICLES: [&str; 3] =
    ["/politics/vote-1.html", "/politics/vote-2.html", "/politics/vote-3.html"];

/// The host whose discovery tries every candidate.
pub const HAYSTACK_HOST: &str = "haystack.test";

/// The length of `oversize.test`'s long item URL, in bytes.
pub const LONG_URL_BYTES: usize = 5000;

/// State the troubled sites keep between requests.
#[derive(Debug, Default)]
pub(crate) struct Trouble {
    /// How often `news.outage.test`'s robots.txt was asked for.
    outage_robots: Mutex<u32>,
}

impl Trouble {
    /// Answers a request to a troubled host that `config` switches on, or `None`.
    pub(crate) fn respond(
        &self,
        request: &Request,
        config: &crate::Config,
        now: DateTime<Utc>,
    ) -> Option<Response> {
        let host = request.host.as_str();
        let path = request.path.split('?').next().unwrap_or("/");
        let origin = request.origin();
        if config.garbled_feeds && GARBLED_HOSTS.contains(&host) {
            return Some(match path {
                "/" => Response::html(homepage(host)),
                "/robots.txt" => Response::text("User-agent: *\nAllow: /\n".to_owned()),
                "/feed.xml" => garbled_feed(host, &origin, now),
                _ => page(path),
            });
        }
        if config.robots_outage && host == OUTAGE_HOST {
            return Some(match path {
                "/" => Response::html(homepage(host)),
                "/robots.txt" => Response::text("User-agent: *\nAllow: /\n".to_owned()),
                "/feed.xml" => {
                    let article_origin = origin.replacen(OUTAGE_HOST, OUTAGE_ARTICLE_HOST, 1);
                    let items: Vec<(String, String)> = OUTAGE_ARTICLES
                        .iter()
                        .enumerate()
                        .map(|(i, path)| {
                            (
                                format!("Parliament votes, part {}", i + 1),
                                format!("{article_origin}{path}"),
                            )
                        })
                        .collect();
                    rss(host, &origin, now, &items)
                }
                _ => Response::not_found(),
            });
        }
        if config.robots_outage && host == OUTAGE_ARTICLE_HOST {
            return Some(match path {
                "/robots.txt" => {
                    let asked = {
                        let mut count =
                            self.outage_robots.lock().unwrap_or_else(|p| p.into_inner());
                        *count += 1;
                        *count
                    };
                    if asked == 1 {
                        Response::bytes(503, "text/plain", b"down for maintenance\n".to_vec())
                    } else {
                        Response::text("User-agent: *\nAllow: /\n".to_owned())
                    }
                }
                _ => page(path),
            });
        }
        if config.long_search && host == HAYSTACK_HOST {
            return Some(match path {
                "/" => Response::html(format!(
                    "<!doctype html><html><head><title>{host}</title></head>\
                     <body><h1>{host}</h1><p>Nothing to find here.</p></body></html>"
                )),
                "/robots.txt" => Response::text("User-agent: *\nAllow: /\n".to_owned()),
                _ => Response::not_found(),
            });
        }
        None
    }
}

/// The troubled hosts `config` switches on that are sources of their own (not
/// [`OUTAGE_ARTICLE_HOST`], which only serves articles).
pub(crate) fn source_hosts(config: &crate::Config) -> Vec<&'static str> {
    let mut hosts = Vec::new();
    if config.garbled_feeds {
        hosts.extend(GARBLED_HOSTS);
    }
    if config.robots_outage {
        hosts.push(OUTAGE_HOST);
    }
    if config.long_search {
        hosts.push(HAYSTACK_HOST);
    }
    hosts
}

fn homepage(host: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{host}</title>\
         <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head>\
         <body><h1>{host}</h1><p>A site that is trouble.</p></body></html>"
    )
}

fn page(path: &str) -> Response {
    if path.ends_with(".html") {
        Response::html(article_html(path, "Trouble makes the news", "utf-8"))
    } else {
        Response::not_found()
    }
}

/// An RSS 2.0 feed of `(title, link)` items, an hour apart before `now`.
fn rss(host: &str, origin: &str, now: DateTime<Utc>, items: &[(String, String)]) -> Response {
    Response::bytes(200, "application/rss+xml", rss_text(host, origin, now, items).into_bytes())
}

fn rss_text(host: &str, origin: &str, now: DateTime<Utc>, items: &[(String, String)]) -> String {
    let mut body = String::new();
    for (i, (title, link)) in items.iter().enumerate() {
        let published = now - chrono::Duration::hours(i as i64 + 1);
        body.push_str(&format!(
            "<item><title>{}</title><link>{}</link><pubDate>{}</pubDate></item>\n",
            escape(title),
            escape(link),
            published.to_rfc2822()
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>{host}</title>\
         <link>{origin}/</link>\n{body}</channel></rss>\n"
    )
}

fn garbled_feed(host: &str, origin: &str, now: DateTime<Utc>) -> Response {
    let item = |n: usize| format!("{origin}/news/{}-{n}.html", host.trim_end_matches(".test"));
    match host {
        "nul.test" => {
            let published = (now - chrono::Duration::hours(1)).to_rfc2822();
            let feed = format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>\
                 <title>nul.test</title><link>{origin}/</link>\n\
                 <item><title>A title with a \0 NUL byte</title><link>{}</link>\
                 <description>Text \0 with a NUL</description><pubDate>{published}</pubDate></item>\n\
                 <item><title>A clean title</title><link>{}</link><pubDate>{published}</pubDate></item>\n\
                 </channel></rss>\n",
                item(1),
                item(2)
            );
            Response::bytes(200, "application/rss+xml", feed.into_bytes())
        }
        "utf16.test" => {
            let items = [
                ("Caf\u{e9} society, in UTF-16".to_owned(), item(1)),
                ("Another story, in UTF-16".to_owned(), item(2)),
            ];
            let text = rss_text(host, origin, now, &items).replacen("UTF-8", "UTF-16", 1);
            let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            Response::bytes(200, "application/rss+xml", bytes)
        }
        _ => {
            let long_path = format!("/news/{}.html", "a".repeat(LONG_URL_BYTES));
            let items = [
                (format!("Headline {}", "very long ".repeat(300_000)), item(1)),
                ("A URL too long to keep".to_owned(), format!("{origin}{long_path}")),
                ("A sensible item".to_owned(), item(2)),
            ];
            let text = rss_text(host, origin, now, &items).replacen(
                "<title>A sensible item</title>",
                &format!("<title>A sensible item</title><guid>{}</guid>", "g".repeat(100_000)),
                1,
            );
            Response::bytes(200, "application/rss+xml", text.into_bytes())
        }
    }
}
