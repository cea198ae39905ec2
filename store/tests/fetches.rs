//! Raw fetches.

use store::fetches::{self, RawFetch, SentRequest};
use store::{Archive, Error};

use store::on_both_backends;

fn raw(body: Vec<u8>) -> RawFetch {
    RawFetch {
        frontier_id: None,
        feed_id: None,
        requested_url: "http://daily.example/a".to_owned(),
        final_url: "https://www.daily.example/a".to_owned(),
        redirect_chain: vec![
            "https://daily.example/a".to_owned(),
            "https://www.daily.example/a".to_owned(),
        ],
        status: Some(200),
        request: Some(SentRequest {
            http_version: "HTTP/1.1".to_owned(),
            headers: vec![
                ("host".to_owned(), "www.daily.example".to_owned()),
                ("if-none-match".to_owned(), "\"w\"".to_owned()),
            ],
        }),
        headers: vec![
            ("content-type".to_owned(), "text/html; charset=iso-8859-1".to_owned()),
            ("etag".to_owned(), "\"x\"".to_owned()),
        ],
        content_type: Some("text/html; charset=iso-8859-1".to_owned()),
        body,
        error: None,
        started_at: crate::at(3, 10),
        first_byte_ms: Some(120),
        total_ms: Some(480),
    }
}

async fn feed(archive: &Archive) -> i64 {
    let source = crate::source(archive, "daily").await;
    let new = store::feeds::NewFeed {
        source_id: source.id,
        url: "https://daily.example/c".to_owned(),
        url_key: "daily.example/c".to_owned(),
        kind: store::feeds::FeedKind::Rss,
        title: None,
        discovered_via: "link".to_owned(),
        depth: 0,
        update_hint_secs: None,
        poll_interval_secs: 3600,
        next_poll_at: None,
    };
    store::feeds::add(archive, &new).await.unwrap().0.id
}

on_both_backends! {
    async fn round_trip_keeps_bytes_exactly(archive: &Archive) {
        // Not UTF-8, with NULs: the raw bytes are archived, never decoded.
        let mut body = b"<html><body>Caf\xe9 \x00 ".to_vec();
        body.extend(std::iter::repeat_n(b"la noticia ".as_slice(), 2000).flatten());
        let id = fetches::insert(archive, &raw(body.clone())).await.unwrap();
        let stored = fetches::get(archive, id).await.unwrap();
        assert_eq!(stored.fetch, raw(body.clone()));
        assert_eq!(stored.body_sha256, fetches::sha256_hex(&body));
    }

    async fn a_page_archived_once_is_found_by_its_lossy_url(archive: &Archive) {
        let since = crate::at(3, 0);
        // The final URL's lossy key finds it, whatever the URL asked for.
        let id = fetches::insert(archive, &raw(b"<html>a</html>".to_vec())).await.unwrap();
        let found = fetches::reusable(archive, "http://daily.example/a", since).await.unwrap();
        assert_eq!(found.map(|f| f.id), Some(id));
        assert_eq!(fetches::archived_pages(archive).await.unwrap(), ["http://daily.example/a"]);
        assert!(fetches::reusable(archive, "http://daily.example/b", since).await.unwrap().is_none());
        // Too old, not a 2xx, a failure or a feed poll: never found.
        assert!(fetches::reusable(archive, "http://daily.example/a", crate::at(3, 11)).await.unwrap().is_none());
        let mut other = raw(Vec::new());
        other.final_url = "https://daily.example/c".to_owned();
        other.status = Some(404);
        fetches::insert(archive, &other).await.unwrap();
        other.status = None;
        other.error = Some("idle timeout".to_owned());
        fetches::insert(archive, &other).await.unwrap();
        other.status = Some(200);
        other.error = None;
        other.feed_id = Some(feed(archive).await);
        fetches::insert(archive, &other).await.unwrap();
        assert!(fetches::reusable(archive, "http://daily.example/c", since).await.unwrap().is_none());
        // The newest response of a page is the one found.
        let newer = fetches::insert(archive, &raw(b"<html>a2</html>".to_vec())).await.unwrap();
        let found = fetches::reusable(archive, "http://daily.example/a", since).await.unwrap();
        assert_eq!(found.map(|f| (f.id, f.fetch.body)), Some((newer, b"<html>a2</html>".to_vec())));
    }

    async fn failed_requests_are_archived_too(archive: &Archive) {
        let mut failed = raw(Vec::new());
        failed.status = None;
        failed.request = None;
        failed.headers.clear();
        failed.content_type = None;
        failed.error = Some("connect timeout".to_owned());
        failed.first_byte_ms = None;
        let id = fetches::insert(archive, &failed).await.unwrap();
        assert_eq!(fetches::get(archive, id).await.unwrap().fetch, failed);
    }

    async fn a_damaged_body_is_reported(archive: &Archive) {
        let id = fetches::insert(archive, &raw(b"<p>text</p>".to_vec())).await.unwrap();
        archive
            .execute_unprepared(&format!("UPDATE fetches SET body_sha256 = 'bad' WHERE id = {id}"))
            .await
            .unwrap();
        assert!(matches!(fetches::get(archive, id).await, Err(Error::Corrupt { .. })));
    }

    async fn fetches_of_a_frontier_entry_come_in_order(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let new = store::frontier::NewUrl {
            url: "http://daily.example/a".to_owned(),
            lossy_url: "http://daily.example/a".to_owned(),
            source_id: source.id,
            feed_id: None,
            next_attempt_at: crate::at(3, 0),
            hint_published_at: None,
            hint_title: None,
            hint_meta: None,
        };
        let (entry, _) = store::frontier::enqueue(archive, &new).await.unwrap();
        let mut first = raw(b"first".to_vec());
        first.frontier_id = Some(entry.id);
        let mut second = raw(b"second".to_vec());
        second.frontier_id = Some(entry.id);
        fetches::insert(archive, &first).await.unwrap();
        fetches::insert(archive, &second).await.unwrap();
        let all = fetches::for_frontier_entry(archive, entry.id).await.unwrap();
        let bodies: Vec<&[u8]> = all.iter().map(|stored| stored.fetch.body.as_slice()).collect();
        assert_eq!(bodies, vec![b"first".as_slice(), b"second".as_slice()]);
    }
}
