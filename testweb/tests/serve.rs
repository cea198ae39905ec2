//! The test web over real loopback connections, with a minimal blocking client.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use testweb::world::{FeedStyle, SitemapStyle};
use testweb::{Config, TestWeb};

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn get(web: &TestWeb, host: &str, path: &str, extra: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(web.addr()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}:{}\r\nConnection: close\r\n", web.port());
    for (name, value) in extra {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply { status, headers, body: raw[split + 4..].to_vec() }
}

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
}

fn gunzip(bytes: &[u8]) -> String {
    let mut out = String::new();
    flate2::read::GzDecoder::new(bytes).read_to_string(&mut out).unwrap();
    out
}

#[test]
fn every_site_announces_its_feeds_and_sitemaps_as_its_profile_says() {
    let web = TestWeb::start(Config::small(1, 6, 12, now())).unwrap();
    for site in &web.world().sites {
        let home = get(&web, &site.host, "/", &[]).text();
        let robots = get(&web, &site.host, "/robots.txt", &[]);
        assert_eq!(robots.status == 200, site.robots, "{}", site.host);
        match site.feed {
            FeedStyle::LinkRss | FeedStyle::Mobile => assert!(home.contains("application/rss+xml")),
            FeedStyle::LinkAtom => assert!(home.contains("application/atom+xml")),
            FeedStyle::Anchor => assert!(home.contains("href=\"/feeds/all.xml\"")),
            FeedStyle::Guessed => {
                assert!(!home.contains("xml"));
                assert_eq!(get(&web, &site.host, "/rss.xml", &[]).status, 200);
            }
            FeedStyle::None => assert!(!home.contains("rss")),
        }
        match site.sitemap {
            SitemapStyle::RobotsIndex => {
                assert!(robots.text().contains("Sitemap: http://"), "{}", robots.text());
                let index = get(&web, &site.host, "/sitemap_index.xml", &[]).text();
                assert!(index.contains("/sitemaps/news.xml.gz"));
                let news = gunzip(&get(&web, &site.host, "/sitemaps/news.xml.gz", &[]).body);
                assert!(news.contains("<news:publication_date>"));
                let all = gunzip(&get(&web, &site.host, "/sitemaps/all.xml.gz", &[]).body);
                assert_eq!(all.matches("<url>").count(), web.world().articles(site).len());
            }
            SitemapStyle::WellKnown => {
                assert!(get(&web, &site.host, "/sitemap.xml", &[]).text().contains("<urlset"));
            }
            SitemapStyle::None => {
                assert_eq!(get(&web, &site.host, "/sitemap.xml", &[]).status, 404)
            }
        }
    }
}

#[test]
fn reachable_articles_are_served_and_listed_somewhere() {
    let web = TestWeb::start(Config::small(2, 6, 15, now())).unwrap();
    let since = now() - chrono::Duration::days(7);
    let reachable = web.world().reachable(since);
    assert!(!reachable.is_empty());
    for article in &reachable {
        let site = &web.world().sites[article.site];
        let page = get(&web, &site.host, &article.path, &[]);
        assert_eq!(page.status, 200, "{}", article.path);
        assert!(
            page.text()
                .contains(&format!("rel=\"canonical\" href=\"{}\"", web.article_url(article)))
        );
        assert!(!article.private && !article.stale && article.published >= since);
    }
    // Sites without a sitemap only reach what their feed lists.
    let feed_only = web.world().sites.iter().find(|s| s.sitemap == SitemapStyle::None).unwrap();
    let listed = reachable.iter().filter(|a| a.site == feed_only.index).count();
    assert_eq!(listed, web.world().config.feed_items.min(15));
}

#[test]
fn feeds_answer_conditional_gets_with_304() {
    let web = TestWeb::start(Config::small(3, 1, 5, now())).unwrap();
    let first = get(&web, "site0.test", "/feed.xml", &[]);
    assert_eq!(first.status, 200);
    let etag = first.header("etag").unwrap().to_owned();
    assert_eq!(get(&web, "site0.test", "/feed.xml", &[("If-None-Match", &etag)]).status, 304);
    assert_eq!(get(&web, "site0.test", "/feed.xml", &[("If-None-Match", "\"other\"")]).status, 200);
    let seen = web.requests();
    assert_eq!(seen.iter().filter(|s| s.conditional).count(), 2);
}

#[test]
fn feed_links_carry_tracking_parameters_redirects_and_mobile_hosts() {
    let web = TestWeb::start(Config::small(4, 6, 12, now())).unwrap();
    let rss = get(&web, "site0.test", "/feed.xml", &[]).text();
    assert!(rss.contains("utm_source=rss"));
    assert!(rss.contains("/go/4?"), "every ninth item goes through a redirect");
    let go = get(&web, "site0.test", "/go/4", &[]);
    assert_eq!(go.status, 301);
    let article = web.world().article(&web.world().sites[0], 4);
    assert_eq!(go.header("location"), Some(web.article_url(&article).as_str()));
    let mobile = get(&web, "site5.test", "/feed.xml", &[]).text();
    assert!(mobile.contains("http://m.site5.test:"));
    let site5 = &web.world().sites[5];
    let path = &web.world().article(site5, 0).path;
    assert_eq!(get(&web, "m.site5.test", path, &[]).status, 200);
}

#[test]
fn private_articles_are_disallowed_and_stale_ones_only_in_sitemaps() {
    let web = TestWeb::start(Config::small(5, 1, 12, now())).unwrap();
    let site = &web.world().sites[0];
    let articles = web.world().articles(site);
    assert!(articles.iter().any(|a| a.private && a.path.starts_with("/private/")));
    assert!(get(&web, &site.host, "/robots.txt", &[]).text().contains("Disallow: /private/"));
    let stale: Vec<_> = articles.iter().filter(|a| a.stale).collect();
    assert_eq!(stale.len(), 2);
    let rss = get(&web, &site.host, "/feed.xml", &[]).text();
    assert!(stale.iter().all(|a| !rss.contains(&a.path)));
}

#[test]
fn wire_stories_are_syndicated_with_edits() {
    let web = TestWeb::start(Config::small(6, 6, 30, now())).unwrap();
    let world = web.world();
    let mut by_wire = std::collections::HashMap::<usize, Vec<(usize, usize)>>::new();
    for site in &world.sites {
        for article in world.articles(site) {
            if let Some(wire) = article.wire {
                by_wire.entry(wire).or_default().push((site.index, article.number));
            }
        }
    }
    assert!(by_wire.values().any(|copies| {
        copies.iter().map(|c| c.0).collect::<std::collections::HashSet<_>>().len() > 1
    }));
}

#[test]
fn the_same_seed_serves_the_same_bytes() {
    let a = TestWeb::start(Config::small(9, 2, 5, now())).unwrap();
    let b = TestWeb::start(Config::small(9, 2, 5, now())).unwrap();
    let path = a.world().article(&a.world().sites[1], 3).path;
    let page_a = get(&a, "site1.test", &path, &[]).text().replace(&a.port().to_string(), "PORT");
    let page_b = get(&b, "site1.test", &path, &[]).text().replace(&b.port().to_string(), "PORT");
    assert_eq!(page_a, page_b);
}

#[test]
fn hostile_sites_misbehave_as_documented() {
    let mut config = Config::small(7, 1, 3, now());
    config.hostile = true;
    let web = TestWeb::start(config).unwrap();
    assert_eq!(
        get(&web, "loop.test", "/loop/a", &[]).header("location").map(|l| l.ends_with("/loop/b")),
        Some(true)
    );
    assert_eq!(get(&web, "broken.test", "/feed.xml", &[]).status, 500);
    let busy: Vec<u16> =
        (0..3).map(|_| get(&web, "busy.test", "/news/patience-1.html", &[]).status).collect();
    assert_eq!(busy, [503, 429, 200]);
    let bomb = get(&web, "bomb.test", "/feed.xml", &[]);
    assert_eq!(bomb.header("content-encoding"), Some("gzip"));
    assert!(bomb.body.len() < 1 << 20, "{} compressed bytes", bomb.body.len());
    let charset = get(&web, "charset.test", "/news/mojibake-1.html", &[]);
    assert!(charset.body.contains(&0xE9) && std::str::from_utf8(&charset.body).is_err());
    assert_eq!(
        get(&web, "binary.test", "/files/report.pdf", &[]).header("content-type"),
        Some("application/pdf")
    );
    assert_eq!(
        get(&web, "huge.test", "/news/enormous-1.html", &[]).header("content-length"),
        Some("104857600")
    );
}

#[test]
fn waiting_on_the_log_wakes_on_requests() {
    let web = TestWeb::start(Config::small(8, 1, 3, now())).unwrap();
    let addr = web.addr();
    let port = web.port();
    let client = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        let request = format!(
            "GET /robots.txt HTTP/1.1\r\nHost: site0.test:{port}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut sink = Vec::new();
        stream.read_to_end(&mut sink).unwrap();
    });
    assert!(
        web.wait_for(Duration::from_secs(30), |seen| seen.iter().any(|s| s.path == "/robots.txt"))
    );
    client.join().unwrap();
    assert!(!web.wait_for(Duration::from_millis(1), |seen| seen.len() > 1));
}
