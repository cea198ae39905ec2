//! Feeds and sitemaps.

use store::Archive;
use store::feeds::{self, FeedKind, NewFeed, Poll};

use store::on_both_backends;

fn new(source_id: i64, key: &str, next_poll_at: Option<chrono::DateTime<chrono::Utc>>) -> NewFeed {
    NewFeed {
        source_id,
        url: format!("https://www.daily.example/{key}/"),
        url_key: format!("http://daily.example/{key}"),
        kind: FeedKind::Rss,
        title: Some("Daily news".to_owned()),
        discovered_via: "link[rel=alternate]".to_owned(),
        depth: 0,
        update_hint_secs: Some(7200),
        poll_interval_secs: 3600,
        next_poll_at,
    }
}

on_both_backends! {
    async fn round_trip(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (feed, is_new) = feeds::add(archive, &new(source.id, "feed", None)).await.unwrap();
        assert!(is_new);
        assert_eq!(feed.kind, FeedKind::Rss);
        assert_eq!(feed.url, "https://www.daily.example/feed/");
        assert_eq!(feed.discovered_via, "link[rel=alternate]");
        assert_eq!((feed.depth, feed.update_hint_secs), (0, Some(7200)));
        assert_eq!((feed.etag.as_deref(), feed.failure_count), (None, 0.0));
        assert_eq!(feeds::get(archive, feed.id).await.unwrap(), feed);
        assert_eq!(feeds::for_source(archive, source.id).await.unwrap(), vec![feed]);
    }

    async fn the_same_key_is_one_feed(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (first, _) = feeds::add(archive, &new(source.id, "feed", None)).await.unwrap();
        let mut variant = new(source.id, "feed", None);
        variant.url = "http://daily.example/feed".to_owned();
        let (again, is_new) = feeds::add(archive, &variant).await.unwrap();
        assert!(!is_new);
        assert_eq!(again, first);
    }

    async fn every_kind_round_trips(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        for kind in FeedKind::ALL {
            let mut feed = new(source.id, kind.as_str(), None);
            feed.kind = kind;
            let (stored, _) = feeds::add(archive, &feed).await.unwrap();
            assert_eq!(feeds::get(archive, stored.id).await.unwrap().kind, kind);
        }
    }

    async fn due_feeds_come_never_polled_first_then_most_overdue(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (late, _) = feeds::add(archive, &new(source.id, "a", Some(crate::at(2, 9)))).await.unwrap();
        let (later, _) = feeds::add(archive, &new(source.id, "b", Some(crate::at(2, 10)))).await.unwrap();
        let (never, _) = feeds::add(archive, &new(source.id, "c", None)).await.unwrap();
        let (future, _) = feeds::add(archive, &new(source.id, "d", Some(crate::at(9, 0)))).await.unwrap();
        let due = feeds::due(archive, crate::at(3, 0), 10).await.unwrap();
        let ids: Vec<i64> = due.iter().map(|feed| feed.id).collect();
        assert_eq!(ids, vec![never.id, late.id, later.id]);
        assert!(!ids.contains(&future.id));
        assert_eq!(feeds::due(archive, crate::at(3, 0), 1).await.unwrap().len(), 1);
        assert!(feeds::next_due(archive).await.unwrap().unwrap() < crate::at(1, 0), "never polled");
        let all = feeds::list(archive).await.unwrap();
        assert_eq!(all.iter().map(|f| f.id).collect::<Vec<_>>(), vec![late.id, later.id, never.id, future.id]);
    }

    async fn next_due_is_the_earliest_poll(archive: &Archive) {
        assert_eq!(feeds::next_due(archive).await.unwrap(), None);
        let source = crate::source(archive, "daily").await;
        feeds::add(archive, &new(source.id, "a", Some(crate::at(5, 0)))).await.unwrap();
        feeds::add(archive, &new(source.id, "b", Some(crate::at(4, 0)))).await.unwrap();
        assert_eq!(feeds::next_due(archive).await.unwrap(), Some(crate::at(4, 0)));
    }

    async fn polls_are_recorded_and_validators_kept(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (feed, _) = feeds::add(archive, &new(source.id, "feed", None)).await.unwrap();
        let success = Poll {
            polled_at: crate::at(3, 10),
            success: true,
            status: "Working".to_owned(),
            etag: Some("\"v1\"".to_owned()),
            last_modified: Some("Tue, 03 Nov 2026 10:00:00 GMT".to_owned()),
            body_hash: Some("abc".to_owned()),
            found_new_items: true,
            update_hint_secs: Some(3600),
            failure_count: 0.0,
            poll_interval_secs: 600,
            next_poll_at: crate::at(3, 11),
        };
        let polled = feeds::record_poll(archive, feed.id, &success).await.unwrap();
        assert_eq!(polled.etag.as_deref(), Some("\"v1\""));
        assert_eq!(polled.last_success_at, Some(crate::at(3, 10)));
        assert_eq!(polled.last_new_item_at, Some(crate::at(3, 10)));
        assert_eq!(polled.next_poll_at, Some(crate::at(3, 11)));
        assert_eq!(polled.poll_interval_secs, 600);
        assert_eq!(polled.update_hint_secs, Some(3600));

        let failure = Poll {
            polled_at: crate::at(3, 11),
            success: false,
            status: "HTTP 503 Service Unavailable".to_owned(),
            etag: None,
            last_modified: None,
            body_hash: None,
            found_new_items: false,
            update_hint_secs: None,
            failure_count: 0.5,
            poll_interval_secs: 600,
            next_poll_at: crate::at(3, 12),
        };
        let failed = feeds::record_poll(archive, feed.id, &failure).await.unwrap();
        assert_eq!(failed.etag.as_deref(), Some("\"v1\""), "validators survive a failure");
        assert_eq!(failed.body_hash.as_deref(), Some("abc"));
        assert_eq!(failed.last_success_at, Some(crate::at(3, 10)));
        assert_eq!(failed.last_status.as_deref(), Some("HTTP 503 Service Unavailable"));
        assert_eq!(failed.failure_count, 0.5);
        assert_eq!(failed.update_hint_secs, Some(3600), "a hint survives a poll that gave none");
        assert!(feeds::record_poll(archive, 999, &failure).await.is_err());
    }
}
