//! Collection health counts per source and day, the same on both backends.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use store::Archive;
use store::feeds::{FeedKind, NewFeed};
use store::fetches::RawFetch;
use store::frontier::NewUrl;
use store::on_both_backends;
use store::stats::SourceDay;

fn fetch(
    frontier_id: Option<i64>,
    feed_id: Option<i64>,
    day: u32,
    status: Option<u16>,
    error: Option<&str>,
) -> RawFetch {
    RawFetch {
        frontier_id,
        feed_id,
        requested_url: "http://daily.example/feed".to_owned(),
        final_url: "http://daily.example/feed".to_owned(),
        redirect_chain: Vec::new(),
        status,
        request: None,
        headers: Vec::new(),
        content_type: None,
        body: Vec::new(),
        error: error.map(str::to_owned),
        started_at: crate::at(day, 23),
        first_byte_ms: None,
        total_ms: None,
    }
}

on_both_backends! {
    async fn polls_pages_failures_stories_and_links_per_source_and_day(archive: &Archive) {
        let source = crate::source(archive, "daily").await.id;
        let new_feed = NewFeed {
            source_id: source,
            url: "http://daily.example/feed".to_owned(),
            url_key: "daily.example/feed".to_owned(),
            kind: FeedKind::Rss,
            title: None,
            discovered_via: "manual".to_owned(),
            depth: 0,
            update_hint_secs: None,
            poll_interval_secs: 3600,
            next_poll_at: None,
        };
        let (feed, _) = store::feeds::add(archive, &new_feed).await.unwrap();
        let new_url = NewUrl {
            url: "http://daily.example/a".to_owned(),
            lossy_url: "daily.example/a".to_owned(),
            source_id: source,
            feed_id: Some(feed.id),
            next_attempt_at: crate::at(2, 0),
            hint_published_at: None,
            hint_title: None,
            hint_meta: None,
        };
        let (entry, _) = store::frontier::enqueue(archive, &new_url).await.unwrap();
        let feed_id = Some(feed.id);
        let page = Some(entry.id);
        for raw in [
            fetch(None, feed_id, 2, Some(200), None),
            fetch(None, feed_id, 2, Some(304), None),
            fetch(None, feed_id, 2, None, Some("http://daily.example/feed: read timeout")),
            fetch(page, None, 2, Some(404), None),
            fetch(page, None, 2, None, Some("cannot connect to http://daily.example/a")),
            fetch(page, None, 3, Some(200), None),
            fetch(None, feed_id, 3, None, Some("cannot resolve the host of http://daily.example/")),
            // Neither a poll nor a page (robots.txt): not counted.
            fetch(None, None, 3, Some(200), None),
            // Before the first day asked for.
            fetch(None, feed_id, 1, Some(200), None),
        ] {
            store::fetches::insert(archive, &raw).await.unwrap();
        }
        let a = crate::story(archive, source, "a").await;
        let b = crate::story(archive, source, "b").await;
        let link = store::duplicates::NewLink {
            story_id: b,
            of_story_id: a,
            method: "title".to_owned(),
            score: 1.0,
            ..store::duplicates::NewLink::default()
        };
        store::duplicates::link(archive, &link).await.unwrap();
        let today = chrono::Utc::now().date_naive();
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        let rows = store::stats::per_source_day(archive, day(2)).await.unwrap();
        let failures = |pairs: &[(&str, u64)]| -> BTreeMap<String, u64> {
            pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
        };
        let mut expected = vec![
            SourceDay {
                source_id: source,
                day: day(2),
                feeds_polled: 3,
                pages_fetched: 2,
                failures: failures(&[("HTTP 404", 1), ("connect", 1), ("timeout", 1)]),
                ..SourceDay::default()
            },
            SourceDay {
                source_id: source,
                day: day(3),
                feeds_polled: 1,
                pages_fetched: 1,
                failures: failures(&[("dns", 1)]),
                ..SourceDay::default()
            },
        ];
        // The stories and the link were kept today.
        expected.push(SourceDay { source_id: source, day: today, stories_kept: 2, duplicates_found: 1, ..SourceDay::default() });
        assert_eq!(rows, expected);
        assert_eq!(rows[0].failed(), 3);
        let last = store::stats::last_kept(archive).await.unwrap();
        assert_eq!(last, [(source, today)].into());
        assert!(store::stats::per_source_day(archive, today + chrono::Days::new(1)).await.unwrap().is_empty());
    }
}
