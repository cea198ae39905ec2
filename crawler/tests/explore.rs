//! Discovery and the polite client against the generated test web.

use std::time::Duration;

use crawler::client::{Client, ClientConfig, Exchange, Journal, Purpose};
use crawler::discover::Via;
use crawler::explore::{self, DocKind, Limits};
use crawler::feed::Format;
use crawler::fetch::{FetchConfig, FetchError, Validators};
use testweb::world::{FeedStyle, SitemapStyle};
use testweb::{Config, TestWeb};
use url::Url;

fn client(interval: Duration, journal: Option<Journal>) -> Client {
    let fetch = FetchConfig {
        allow_private_addresses: true,
        resolve: vec!["*.test=127.0.0.1".parse().unwrap()],
        ..FetchConfig::default()
    };
    let config = ClientConfig {
        fetch,
        host_interval: interval,
        max_retry_wait: Duration::from_secs(2),
        ..ClientConfig::default()
    };
    Client::new(config, journal).unwrap()
}

fn web(hosts: usize, hostile: bool) -> TestWeb {
    let mut config = Config::small(11, hosts, 8, chrono::Utc::now());
    config.hostile = hostile;
    TestWeb::start(config).unwrap()
}

#[tokio::test]
async fn every_site_profile_is_discovered() {
    let web = web(6, false);
    let client = client(Duration::ZERO, None);
    for site in &web.world().sites {
        let homepage = Url::parse(&web.homepage(site)).unwrap();
        let found = explore::discover(&client, &homepage, Limits::default()).await;
        assert!(found.homepage.is_ok(), "{}", site.host);
        let feeds: Vec<_> =
            found.found.iter().filter(|f| matches!(f.kind, DocKind::Feed(_))).collect();
        let sitemaps: Vec<_> =
            found.found.iter().filter(|f| !matches!(f.kind, DocKind::Feed(_))).collect();
        let expected_feed = match site.feed {
            FeedStyle::LinkRss | FeedStyle::Mobile => {
                Some(("/feed.xml", Via::LinkTag, Format::Rss))
            }
            FeedStyle::LinkAtom => Some(("/atom.xml", Via::LinkTag, Format::Atom)),
            FeedStyle::Anchor => Some(("/feeds/all.xml", Via::Anchor, Format::Rss)),
            FeedStyle::Guessed => Some(("/rss.xml", Via::Guess, Format::Rss)),
            FeedStyle::None => None,
        };
        match expected_feed {
            Some((path, via, format)) => {
                assert_eq!(feeds.len(), 1, "{}: {feeds:?}", site.host);
                assert_eq!(feeds[0].url.path(), path);
                assert_eq!((feeds[0].via, feeds[0].kind), (via, DocKind::Feed(format)));
            }
            None => assert!(feeds.is_empty(), "{}: {feeds:?}", site.host),
        }
        match site.sitemap {
            SitemapStyle::RobotsIndex => {
                assert_eq!(sitemaps.len(), 1, "{}: {sitemaps:?}", site.host);
                assert_eq!(
                    (sitemaps[0].via, sitemaps[0].kind),
                    (Via::Robots, DocKind::SitemapIndex)
                );
            }
            SitemapStyle::WellKnown => {
                assert_eq!(sitemaps.len(), 1, "{}: {sitemaps:?}", site.host);
                assert_eq!(sitemaps[0].url.path(), "/sitemap.xml");
                assert_eq!(sitemaps[0].kind, DocKind::Sitemap);
            }
            SitemapStyle::None => assert!(sitemaps.is_empty(), "{}: {sitemaps:?}", site.host),
        }
    }
}

#[tokio::test]
async fn robots_txt_is_fetched_once_per_host_and_obeyed() {
    let web = web(1, false);
    let journal_log = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(Purpose, String)>::new()));
    let log = std::sync::Arc::clone(&journal_log);
    let journal: Journal = std::sync::Arc::new(move |exchange: Exchange| {
        log.lock().unwrap().push((exchange.purpose, exchange.url.to_string()));
    });
    let client = client(Duration::ZERO, Some(journal));
    let site = &web.world().sites[0];
    let private = web.world().articles(site).into_iter().find(|a| a.private).unwrap();
    let public = web.world().article(site, 0);
    let private_url = Url::parse(&web.article_url(&private)).unwrap();
    let public_url = Url::parse(&web.article_url(&public)).unwrap();
    let denied = client.get(&private_url, &Validators::default(), "text/html").await;
    assert!(matches!(denied, Err(FetchError::Denied { .. })), "{denied:?}");
    let fetched = client.get(&public_url, &Validators::default(), "text/html").await.unwrap();
    assert_eq!(fetched.status, 200);
    let seen = web.requests();
    assert_eq!(seen.iter().filter(|s| s.path == "/robots.txt").count(), 1);
    assert!(seen.iter().all(|s| !s.path.starts_with("/private/")));
    assert_eq!(
        journal_log.lock().unwrap().iter().filter(|(p, _)| *p == Purpose::Robots).count(),
        1
    );
}

#[tokio::test]
async fn requests_to_one_host_keep_the_interval() {
    let web = web(2, false);
    let interval = Duration::from_millis(150);
    let client = client(interval, None);
    let mut tasks = Vec::new();
    for site in web.world().sites.clone() {
        for article in web.world().articles(&site).into_iter().filter(|a| !a.private).take(4) {
            let client = client.clone();
            let url = Url::parse(&web.article_url(&article)).unwrap();
            tasks.push(tokio::spawn(async move {
                client.get(&url, &Validators::default(), "text/html").await.map(|f| f.status)
            }));
        }
    }
    for task in tasks {
        assert_eq!(task.await.unwrap().unwrap(), 200);
    }
    let seen = web.requests();
    for site in &web.world().sites {
        let mut times: Vec<_> = seen.iter().filter(|s| s.host == site.host).map(|s| s.at).collect();
        times.sort();
        assert_eq!(times.len(), 5, "robots.txt and four articles");
        for pair in times.windows(2) {
            // Measured where the server reads the request head: loopback adds well under 10 ms.
            assert!(
                pair[1] - pair[0] >= interval - Duration::from_millis(10),
                "{:?}",
                pair[1] - pair[0]
            );
        }
    }
}

#[tokio::test]
async fn retry_after_is_waited_out_in_place() {
    let web = web(1, true);
    let client = client(Duration::ZERO, None);
    let url = Url::parse(&format!("{}/news/patience-1.html", web.origin("busy.test"))).unwrap();
    let fetched = client.get(&url, &Validators::default(), "text/html").await.unwrap();
    assert_eq!(fetched.status, 200);
    let times: Vec<_> = web
        .requests()
        .into_iter()
        .filter(|s| s.path == "/news/patience-1.html")
        .map(|s| s.at)
        .collect();
    assert_eq!(times.len(), 3, "503, 429, then 200");
    for pair in times.windows(2) {
        assert!(pair[1] - pair[0] >= Duration::from_millis(990), "{:?}", pair[1] - pair[0]);
    }
}

#[tokio::test]
async fn hostile_discovery_fails_softly() {
    let web = web(1, true);
    let client = client(Duration::ZERO, None);
    for host in ["broken.test", "bomb.test", "badxml.test"] {
        let homepage = Url::parse(&format!("{}/", web.origin(host))).unwrap();
        let found = explore::discover(&client, &homepage, Limits::default()).await;
        assert!(found.homepage.is_ok(), "{host}");
        assert!(
            found.found.iter().all(|f| !matches!(f.kind, DocKind::Feed(_))),
            "{host}: {:?}",
            found.found
        );
    }
}
