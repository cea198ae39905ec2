//! robots.txt outages as RFC 9309 §2.3.1 and Google's crawlers treat them, against scripted
//! loopback servers: a 4xx means no rules; a 5xx, a 429, a refused connection or a timeout mean
//! nothing may be fetched for now (a temporary error, never a "disallowed"), until robots.txt is
//! asked for again and can be read; redirects are followed; after a long outage the last good copy
//! applies.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crawler::client::{Client, ClientConfig, RobotsVerdict};
use crawler::fetch::{FetchConfig, FetchError, Validators};
use url::Url;

use crate::support::{Reply, Seen, response, serve};

fn polite(adjust: impl FnOnce(&mut ClientConfig)) -> Client {
    let fetch = FetchConfig {
        allow_private_addresses: true,
        first_byte_timeout: Duration::from_millis(300),
        ..FetchConfig::default()
    };
    let mut config =
        ClientConfig { fetch, host_interval: Duration::ZERO, ..ClientConfig::default() };
    adjust(&mut config);
    Client::new(config, None).unwrap()
}

fn url(addr: std::net::SocketAddr, path: &str) -> Url {
    Url::parse(&format!("http://{addr}{path}")).unwrap()
}

async fn get(client: &Client, url: &Url) -> Result<u16, FetchError> {
    client.get(url, &Validators::default(), "text/html").await.map(|fetched| fetched.status)
}

fn requests(log: &std::sync::Mutex<Vec<Seen>>, path: &str) -> usize {
    log.lock().unwrap().iter().filter(|seen| seen.path == path).count()
}

/// A server whose robots.txt answers `robots` (by how many times it was asked before), and whose
/// other paths answer `200`.
async fn site(
    robots: impl Fn(usize) -> Reply + Send + Sync + 'static,
) -> (std::net::SocketAddr, Arc<std::sync::Mutex<Vec<Seen>>>) {
    let asked = AtomicUsize::new(0);
    serve(move |seen| {
        if seen.path == "/robots.txt" {
            robots(asked.fetch_add(1, Ordering::SeqCst))
        } else {
            response("200 OK", &[("Content-Type", "text/html")], b"<p>page</p>")
        }
    })
    .await
}

#[tokio::test]
async fn a_4xx_means_no_rules() {
    for status in ["404 Not Found", "403 Forbidden", "410 Gone", "401 Unauthorized"] {
        let (addr, log) = site(move |_| response(status, &[], b"no")).await;
        let client = polite(|_| {});
        assert_eq!(get(&client, &url(addr, "/private/a")).await.unwrap(), 200, "{status}");
        assert_eq!(get(&client, &url(addr, "/b")).await.unwrap(), 200);
        assert_eq!(requests(&log, "/robots.txt"), 1, "{status}: asked for once");
        assert!(client.unreachable_hosts().is_empty());
    }
}

#[tokio::test]
async fn a_5xx_or_429_holds_everything_back_as_a_temporary_error() {
    for status in ["503 Service Unavailable", "500 Internal Server Error", "429 Too Many Requests"]
    {
        let (addr, log) = site(move |_| response(status, &[], b"down")).await;
        let client = polite(|config| config.robots_retry = Duration::from_secs(600));
        let page = url(addr, "/news/a.html");
        let err = get(&client, &page).await.unwrap_err();
        let FetchError::RobotsUnreachable { reason, retry_in, .. } = &err else {
            panic!("{status}: a temporary error, not {err:?}")
        };
        let code = &status[..3];
        assert_eq!(reason, &format!("HTTP {code}"));
        assert!(*retry_in > Duration::from_secs(590) && *retry_in <= Duration::from_secs(600));
        assert!(err.to_string().contains("robots.txt unreachable"), "{err}");
        assert_eq!(err.status(), format!("robots.txt unreachable (HTTP {code})"));
        // Until it is due to be asked for again, nothing more is requested.
        assert!(matches!(get(&client, &page).await, Err(FetchError::RobotsUnreachable { .. })));
        assert_eq!(requests(&log, "/robots.txt"), 1);
        assert_eq!(requests(&log, "/news/a.html"), 0, "{status}: the page was never requested");
        assert_eq!(client.unreachable_hosts(), vec!["127.0.0.1".to_owned()]);
        assert!(matches!(client.robots_verdict(&page).await, RobotsVerdict::Unreachable { .. }));
    }
}

#[tokio::test]
async fn a_refused_connection_or_a_timeout_is_unreachable_too() {
    // Nothing listens on a port just given back.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let client = polite(|_| {});
    let err = get(&client, &url(closed, "/a")).await.unwrap_err();
    assert!(
        matches!(&err, FetchError::RobotsUnreachable { reason, .. } if reason == "connection error"),
        "{err:?}"
    );

    // robots.txt never answers; the first-byte limit is 300 ms.
    let (addr, log) = site(|_| Reply::Drip {
        head: Vec::new(),
        chunk: Vec::new(),
        every: Duration::from_secs(30),
        count: 1,
    })
    .await;
    let err = get(&client, &url(addr, "/a")).await.unwrap_err();
    assert!(
        matches!(&err, FetchError::RobotsUnreachable { reason, .. } if reason == "first byte timeout"),
        "{err:?}"
    );
    assert_eq!(requests(&log, "/a"), 0);
}

#[tokio::test]
async fn robots_txt_is_asked_for_again_when_due_and_its_recovery_lets_everything_through() {
    let (addr, log) = site(|asked| match asked {
        0 | 1 => response("503 Service Unavailable", &[], b"down"),
        _ => response("200 OK", &[], b"User-agent: *\nDisallow: /private\n"),
    })
    .await;
    // Due again at once after each failure, so that the test need not wait.
    let client = polite(|config| config.robots_retry = Duration::ZERO);
    let page = url(addr, "/news/a.html");
    assert!(matches!(get(&client, &page).await, Err(FetchError::RobotsUnreachable { .. })));
    assert!(matches!(get(&client, &page).await, Err(FetchError::RobotsUnreachable { .. })));
    assert_eq!(get(&client, &page).await.unwrap(), 200, "robots.txt is readable again");
    assert!(matches!(get(&client, &url(addr, "/private/b")).await, Err(FetchError::Denied { .. })));
    assert_eq!(requests(&log, "/robots.txt"), 3);
    assert_eq!(requests(&log, "/news/a.html"), 1);
    assert!(client.unreachable_hosts().is_empty());
}

#[tokio::test]
async fn redirects_are_followed_and_too_many_mean_no_rules() {
    let (addr, log) = serve(|seen| match seen.path.as_str() {
        "/robots.txt" => {
            response("301 Moved Permanently", &[("Location", "/real-robots.txt")], b"")
        }
        "/real-robots.txt" => response("200 OK", &[], b"User-agent: *\nDisallow: /private\n"),
        _ => response("200 OK", &[], b"page"),
    })
    .await;
    let client = polite(|_| {});
    assert!(matches!(get(&client, &url(addr, "/private/a")).await, Err(FetchError::Denied { .. })));
    assert_eq!(get(&client, &url(addr, "/a")).await.unwrap(), 200);
    assert_eq!(requests(&log, "/private/a"), 0);

    let (addr, _) = serve(|seen| match seen.path.as_str() {
        "/robots.txt" => response("302 Found", &[("Location", "/robots.txt?again")], b""),
        "/robots.txt?again" => response("302 Found", &[("Location", "/robots.txt")], b""),
        _ => response("200 OK", &[], b"page"),
    })
    .await;
    let client = polite(|_| {});
    assert_eq!(get(&client, &url(addr, "/private/a")).await.unwrap(), 200, "a redirect loop");
}

#[tokio::test]
async fn after_a_long_outage_the_last_good_copy_applies_and_without_one_everything_waits() {
    let (addr, _) = site(|asked| match asked {
        0 => response("200 OK", &[], b"User-agent: *\nDisallow: /private\n"),
        _ => response("503 Service Unavailable", &[], b"down"),
    })
    .await;
    // The copy expires at once, and any outage counts as long.
    let client = polite(|config| {
        config.robots_ttl = Duration::ZERO;
        config.robots_outage_limit = Duration::ZERO;
        config.robots_retry = Duration::from_secs(600);
    });
    assert_eq!(get(&client, &url(addr, "/a")).await.unwrap(), 200);
    // robots.txt is asked for again (expired), fails, and the last good copy holds.
    assert_eq!(get(&client, &url(addr, "/b")).await.unwrap(), 200);
    assert!(matches!(get(&client, &url(addr, "/private/c")).await, Err(FetchError::Denied { .. })));

    let (addr, _) = site(|_| response("503 Service Unavailable", &[], b"down")).await;
    let client = polite(|config| config.robots_outage_limit = Duration::ZERO);
    assert!(matches!(
        get(&client, &url(addr, "/a")).await,
        Err(FetchError::RobotsUnreachable { .. })
    ));
}
