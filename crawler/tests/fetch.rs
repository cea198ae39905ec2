//! The fetcher against scripted loopback servers.

use std::io::Write;
use std::time::Duration;

use crawler::fetch::{FetchConfig, FetchError, Fetcher, Validators};
use url::Url;

use crate::support::{Reply, response, serve};

fn fetcher(adjust: impl FnOnce(&mut FetchConfig)) -> Fetcher {
    let mut config = FetchConfig { allow_private_addresses: true, ..FetchConfig::default() };
    adjust(&mut config);
    Fetcher::new(config).expect("client")
}

fn url(addr: std::net::SocketAddr, path: &str) -> Url {
    Url::parse(&format!("http://{addr}{path}")).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[tokio::test]
async fn a_plain_page_with_its_headers_and_timings() {
    let (addr, log) = serve(|_| {
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], b"<p>hi</p>")
    })
    .await;
    let fetched =
        fetcher(|_| {}).get(&url(addr, "/a"), &Validators::default(), "text/html").await.unwrap();
    assert_eq!((fetched.status, fetched.body.as_slice()), (200, b"<p>hi</p>".as_slice()));
    assert_eq!(fetched.media_type().as_deref(), Some("text/html"));
    assert!(fetched.redirect_chain.is_empty());
    assert_eq!(fetched.final_url, url(addr, "/a"));
    assert!(fetched.total_ms >= fetched.first_byte_ms);
    let seen = log.lock().unwrap()[0].clone();
    assert!(seen.header("user-agent").unwrap().starts_with("morgue/"));
    assert_eq!(seen.header("accept"), Some("text/html"));
}

#[tokio::test]
async fn redirects_are_followed_and_recorded() {
    let (addr, _) = serve(move |seen| match seen.path.as_str() {
        "/old" => response("301 Moved Permanently", &[("Location", "/middle?x=1")], b""),
        "/middle?x=1" => response("302 Found", &[("Location", "http://localhost:1/unused")], b""),
        _ => response("200 OK", &[], b"final"),
    })
    .await;
    // The second hop points elsewhere; rewrite it to stay on this server.
    let (addr2, _) = serve(move |seen| match seen.path.as_str() {
        "/old" => response("301 Moved Permanently", &[("Location", "/middle")], b""),
        "/middle" => {
            response("307 Temporary Redirect", &[("Location", &format!("http://{addr}/end"))], b"")
        }
        _ => response("200 OK", &[], b"unexpected"),
    })
    .await;
    let fetched =
        fetcher(|_| {}).get(&url(addr2, "/old"), &Validators::default(), "*/*").await.unwrap();
    assert_eq!(fetched.body, b"final");
    assert_eq!(fetched.redirect_chain, vec![url(addr2, "/middle"), url(addr, "/end")]);
    assert_eq!(fetched.final_url, url(addr, "/end"));
    assert_eq!(fetched.requested_url, url(addr2, "/old"));
}

#[tokio::test]
async fn redirect_loops_and_long_chains_end() {
    let (addr, _) = serve(|seen| match seen.path.as_str() {
        "/a" => response("302 Found", &[("Location", "/b")], b""),
        "/b" => response("302 Found", &[("Location", "/a")], b""),
        path => {
            let n: u32 = path.trim_start_matches("/n").parse().unwrap_or(0);
            response("302 Found", &[("Location", &format!("/n{}", n + 1))], b"")
        }
    })
    .await;
    let fetcher = fetcher(|config| config.max_redirects = 5);
    let looped = fetcher.get(&url(addr, "/a"), &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(looped, FetchError::RedirectLoop { .. }), "{looped}");
    let long = fetcher.get(&url(addr, "/n0"), &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(long, FetchError::TooManyRedirects { limit: 5, .. }), "{long}");
    assert_eq!(long.status(), "too many redirects");
}

#[tokio::test]
async fn gzip_is_undone_and_bombs_are_refused() {
    let page = b"<html>".repeat(1000);
    let packed = gzip(&page);
    let bomb = gzip(&vec![b'a'; 32 << 20]);
    let (addr, _) = serve(move |seen| match seen.path.as_str() {
        "/page" => response("200 OK", &[("Content-Encoding", "gzip")], &packed),
        "/bomb" => response("200 OK", &[("Content-Encoding", "gzip")], &bomb),
        _ => response("200 OK", &[("Content-Encoding", "gzip")], b"not gzip at all"),
    })
    .await;
    let fetcher = fetcher(|config| config.max_decoded_bytes = 1 << 20);
    let fetched = fetcher.get(&url(addr, "/page"), &Validators::default(), "*/*").await.unwrap();
    assert_eq!(fetched.body, page);
    let bomb = fetcher.get(&url(addr, "/bomb"), &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(bomb, FetchError::TooLarge { limit, .. } if limit == 1 << 20), "{bomb}");
    let broken =
        fetcher.get(&url(addr, "/broken"), &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(broken, FetchError::BadEncoding { .. }), "{broken}");
}

#[tokio::test]
async fn huge_bodies_stop_at_the_cap() {
    let (addr, _) = serve(|_| Reply::Drip {
        head: b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".to_vec(),
        chunk: vec![b'x'; 64 << 10],
        every: Duration::ZERO,
        count: 10_000,
    })
    .await;
    let err = fetcher(|config| config.max_body_bytes = 1 << 20)
        .get(&url(addr, "/huge"), &Validators::default(), "*/*")
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::TooLarge { .. }), "{err}");
}

#[tokio::test]
async fn slow_drips_time_out() {
    let (addr, _) = serve(|_| Reply::Drip {
        head: b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".to_vec(),
        chunk: b"x".to_vec(),
        every: Duration::from_millis(100),
        count: 1000,
    })
    .await;
    let idle = fetcher(|config| config.idle_timeout = Duration::from_millis(20))
        .get(&url(addr, "/drip"), &Validators::default(), "*/*")
        .await
        .unwrap_err();
    assert!(matches!(idle, FetchError::Timeout { phase: "idle", .. }), "{idle}");
    let total = fetcher(|config| config.total_timeout = Duration::from_millis(500))
        .get(&url(addr, "/drip"), &Validators::default(), "*/*")
        .await
        .unwrap_err();
    assert!(matches!(total, FetchError::Timeout { phase: "total", .. }), "{total}");
}

#[tokio::test]
async fn conditional_get_is_answered_by_304() {
    let (addr, log) = serve(|seen| {
        if seen.header("if-none-match") == Some("\"v1\"") {
            response("304 Not Modified", &[("ETag", "\"v1\"")], b"")
        } else {
            response(
                "200 OK",
                &[("ETag", "\"v1\""), ("Last-Modified", "Tue, 03 Nov 2026 10:00:00 GMT")],
                b"<rss/>",
            )
        }
    })
    .await;
    let fetcher = fetcher(|_| {});
    let first = fetcher.get(&url(addr, "/feed"), &Validators::default(), "*/*").await.unwrap();
    assert_eq!(first.status, 200);
    let validators = Validators {
        etag: first.header("etag").map(str::to_owned),
        last_modified: first.header("last-modified").map(str::to_owned),
    };
    let second = fetcher.get(&url(addr, "/feed"), &validators, "*/*").await.unwrap();
    assert_eq!((second.status, second.body.len()), (304, 0));
    let log = log.lock().unwrap();
    assert_eq!(log[1].header("if-modified-since"), Some("Tue, 03 Nov 2026 10:00:00 GMT"));
    // What the fetch records it sent (for an archive's request record) is what the server got.
    assert_eq!(second.http_version, "HTTP/1.1");
    let names: Vec<&str> = second.request_headers.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["host", "user-agent", "accept", "accept-encoding", "if-none-match", "if-modified-since"]
    );
    for (name, value) in &second.request_headers {
        assert_eq!(log[1].header(name), Some(value.as_str()), "{name}");
    }
}

#[tokio::test]
async fn retry_after_is_read() {
    let (addr, _) = serve(|seen| match seen.path.as_str() {
        "/busy" => response("503 Service Unavailable", &[("Retry-After", "120")], b""),
        _ => response("429 Too Many Requests", &[("Retry-After", "nonsense")], b""),
    })
    .await;
    let fetcher = fetcher(|_| {});
    let busy = fetcher.get(&url(addr, "/busy"), &Validators::default(), "*/*").await.unwrap();
    assert_eq!((busy.status, busy.retry_after()), (503, Some(Duration::from_secs(120))));
    let limited = fetcher.get(&url(addr, "/limited"), &Validators::default(), "*/*").await.unwrap();
    assert_eq!((limited.status, limited.retry_after()), (429, None));
}

#[tokio::test]
async fn private_addresses_are_refused_by_default() {
    let (addr, log) = serve(|_| response("200 OK", &[], b"internal")).await;
    let strict = Fetcher::new(FetchConfig::default()).unwrap();
    let literal = strict.get(&url(addr, "/"), &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(literal, FetchError::Refused { .. }), "{literal}");
    let named = Fetcher::new(FetchConfig {
        resolve: vec!["*.internal.test=127.0.0.1".parse().unwrap()],
        ..FetchConfig::default()
    })
    .unwrap();
    let target = Url::parse(&format!("http://intranet.internal.test:{}/", addr.port())).unwrap();
    let by_name = named.get(&target, &Validators::default(), "*/*").await.unwrap_err();
    assert!(matches!(by_name, FetchError::Refused { .. }), "{by_name}");
    assert!(log.lock().unwrap().is_empty(), "nothing reached the server");
}

#[tokio::test]
async fn every_redirect_hop_is_checked_again() {
    // Loopback stands for the public side here, so the refused hop is a non-http scheme; the
    // same per-hop check refuses private addresses (see private_addresses_are_refused_by_default).
    let (addr, log) = serve(|seen| match seen.path.as_str() {
        "/to-file" => response("302 Found", &[("Location", "file:///etc/passwd")], b""),
        _ => response("302 Found", &[("Location", "ftp://files.example/x")], b""),
    })
    .await;
    let fetcher = fetcher(|_| {});
    for path in ["/to-file", "/to-ftp"] {
        let err = fetcher.get(&url(addr, path), &Validators::default(), "*/*").await.unwrap_err();
        assert!(matches!(err, FetchError::NotHttp { .. }), "{path}: {err}");
    }
    assert_eq!(log.lock().unwrap().len(), 2, "one request each, nothing followed");
}

#[tokio::test]
async fn resolve_rules_route_names_to_loopback() {
    let (addr, log) = serve(|_| response("200 OK", &[], b"ok")).await;
    let fetcher =
        fetcher(|config| config.resolve = vec!["*.daily.test=127.0.0.1".parse().unwrap()]);
    let target = Url::parse(&format!("http://www.daily.test:{}/x", addr.port())).unwrap();
    let fetched = fetcher.get(&target, &Validators::default(), "*/*").await.unwrap();
    assert_eq!(fetched.body, b"ok");
    assert_eq!(
        log.lock().unwrap()[0].header("host"),
        Some(format!("www.daily.test:{}", addr.port()).as_str())
    );
}

#[tokio::test]
async fn refused_connections_are_connection_errors() {
    // Bind and drop a listener to get a port where nothing listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let err = fetcher(|_| {})
        .get(
            &Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap(),
            &Validators::default(),
            "*/*",
        )
        .await
        .unwrap_err();
    assert!(matches!(err, FetchError::Connect { .. }), "{err:?}");
    assert_eq!(err.status(), "connection error");
}
