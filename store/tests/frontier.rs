//! The URL frontier.

use chrono::Duration;
use store::Archive;
use store::frontier::{self, NewUrl, State};

use store::on_both_backends;

fn new(source_id: i64, path: &str) -> NewUrl {
    NewUrl {
        url: format!("https://daily.example/{path}?utm_source=rss"),
        lossy_url: format!("http://daily.example/{path}"),
        source_id,
        feed_id: None,
        next_attempt_at: crate::at(3, 0),
        hint_published_at: Some(crate::at(2, 23)),
        hint_title: Some("A headline".to_owned()),
        hint_meta: Some(
            serde_json::json!({"news:language": {"value": "es", "from": "news sitemap"}}),
        ),
    }
}

on_both_backends! {
    async fn round_trip(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (entry, is_new) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        assert!(is_new);
        assert_eq!(entry.state, State::Pending);
        assert_eq!(entry.attempts, 0);
        assert_eq!(entry.url, "https://daily.example/a?utm_source=rss");
        assert_eq!(entry.hint_published_at, Some(crate::at(2, 23)));
        assert_eq!(entry.hint_meta, new(source.id, "a").hint_meta);
        assert_eq!(frontier::get(archive, entry.id).await.unwrap(), entry);
        assert_eq!(
            frontier::by_lossy_url(archive, "http://daily.example/a").await.unwrap(),
            Some(entry)
        );
    }

    async fn the_same_lossy_url_is_enqueued_once(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (first, _) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        let mut variant = new(source.id, "a");
        variant.url = "https://m.daily.example/a#top".to_owned();
        let (again, is_new) = frontier::enqueue(archive, &variant).await.unwrap();
        assert!(!is_new);
        assert_eq!(again, first);
    }

    async fn a_lease_goes_to_one_worker_until_it_expires(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, _) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        let mut not_yet = new(source.id, "b");
        not_yet.next_attempt_at = crate::at(5, 0);
        frontier::enqueue(archive, &not_yet).await.unwrap();

        let now = crate::at(3, 1);
        let first = frontier::lease_due(archive, now, 10, "worker-1", Duration::minutes(5)).await.unwrap();
        assert_eq!(first.iter().map(|entry| entry.id).collect::<Vec<_>>(), vec![a.id]);
        assert_eq!(first[0].state, State::Leased);
        assert_eq!(first[0].attempts, 1);
        assert_eq!(first[0].lease_owner.as_deref(), Some("worker-1"));
        let second = frontier::lease_due(archive, now, 10, "worker-2", Duration::minutes(5)).await.unwrap();
        assert!(second.is_empty(), "already leased: {second:?}");

        // worker-1 died: after the lease expires, another worker gets the URL.
        let later = now + Duration::minutes(6);
        let retried = frontier::lease_due(archive, later, 10, "worker-2", Duration::minutes(5)).await.unwrap();
        assert_eq!(retried.len(), 1);
        assert_eq!(retried[0].lease_owner.as_deref(), Some("worker-2"));
        assert_eq!(retried[0].attempts, 2);

        let done = frontier::settle(archive, a.id, State::Done, None, None).await.unwrap();
        assert_eq!((done.state, done.lease_owner.as_deref()), (State::Done, None));
        let counts = frontier::counts(archive).await.unwrap();
        assert!(counts.contains(&(State::Done, 1)) && counts.contains(&(State::Pending, 1)), "{counts:?}");
    }

    async fn a_redirect_target_is_leased_as_a_page_and_given_back(archive: &Archive) {
        use store::frontier::PageLease;
        let source = crate::source(archive, "daily").await;
        let (a, _) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        let (b, _) = frontier::enqueue(archive, &new(source.id, "b")).await.unwrap();
        let now = crate::at(3, 1);
        let lease = Duration::minutes(5);
        let key = |path: &str| format!("http://daily.example/{path}");
        assert_eq!(frontier::lease_page(archive, &key("none"), "w1", now, lease).await.unwrap(), PageLease::Absent);
        let PageLease::Leased(leased) = frontier::lease_page(archive, &key("a"), "w1", now, lease).await.unwrap() else {
            panic!("a pending entry is leased as a page");
        };
        assert_eq!((leased.id, leased.attempts, leased.lease_owner.as_deref()), (a.id, 0, Some("w1")));
        // Neither another worker nor another task of the same one gets it meanwhile.
        assert!(matches!(frontier::lease_page(archive, &key("a"), "w2", now, lease).await.unwrap(), PageLease::Held(_)));
        assert!(matches!(frontier::lease_page(archive, &key("a"), "w1", now, lease).await.unwrap(), PageLease::Held(_)));
        let due = frontier::lease_due(archive, now, 10, "w2", lease).await.unwrap();
        assert_eq!(due.iter().map(|e| e.id).collect::<Vec<_>>(), vec![b.id]);
        // Given back by another worker's name: nothing happens; by its own: pending again.
        frontier::release_page(archive, a.id, "w2").await.unwrap();
        assert_eq!(frontier::get(archive, a.id).await.unwrap().state, State::Leased);
        frontier::release_page(archive, a.id, "w1").await.unwrap();
        let back = frontier::get(archive, a.id).await.unwrap();
        assert_eq!((back.state, back.attempts, back.next_attempt_at), (State::Pending, 0, a.next_attempt_at));
        frontier::settle(archive, b.id, State::Done, None, None).await.unwrap();
        assert!(matches!(frontier::lease_page(archive, &key("b"), "w1", now, lease).await.unwrap(), PageLease::Other(_)));
    }

    async fn a_failed_attempt_is_retried_later(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, _) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        frontier::lease_due(archive, crate::at(3, 1), 1, "w", Duration::minutes(5)).await.unwrap();
        let retry = frontier::settle(archive, a.id, State::Pending, Some("HTTP 503"), Some(crate::at(3, 2)))
            .await
            .unwrap();
        assert_eq!(retry.last_error.as_deref(), Some("HTTP 503"));
        assert_eq!(retry.next_attempt_at, crate::at(3, 2));
        let early = frontier::lease_due(archive, crate::at(3, 1), 1, "w", Duration::minutes(5)).await.unwrap();
        assert!(early.is_empty());
        let due = frontier::lease_due(archive, crate::at(3, 2), 1, "w", Duration::minutes(5)).await.unwrap();
        assert_eq!(due.len(), 1);
    }

    async fn a_dead_workers_leases_are_released_and_next_due_is_known(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        assert_eq!(frontier::next_due(archive).await.unwrap(), None);
        frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        let mut later = new(source.id, "b");
        later.next_attempt_at = crate::at(4, 0);
        frontier::enqueue(archive, &later).await.unwrap();
        assert_eq!(frontier::next_due(archive).await.unwrap(), Some(crate::at(3, 0)));

        let leased = frontier::lease_due(archive, crate::at(3, 1), 10, "host:1", Duration::hours(1)).await.unwrap();
        assert_eq!(leased.len(), 1);
        assert_eq!(frontier::lease_owners(archive).await.unwrap(), vec!["host:1".to_owned()]);
        let held = frontier::leased_by(archive, "host:1").await.unwrap();
        assert_eq!(held.iter().map(|entry| entry.id).collect::<Vec<_>>(), vec![leased[0].id]);
        assert!(frontier::leased_by(archive, "someone-else").await.unwrap().is_empty());
        assert_eq!(frontier::next_due(archive).await.unwrap(), Some(crate::at(3, 2)), "the lease expiry");

        assert_eq!(frontier::release(archive, "someone-else", crate::at(3, 5)).await.unwrap(), 0);
        assert_eq!(frontier::release(archive, "host:1", crate::at(3, 5)).await.unwrap(), 1);
        assert!(frontier::lease_owners(archive).await.unwrap().is_empty());
        let again = frontier::get(archive, leased[0].id).await.unwrap();
        assert_eq!((again.state, again.attempts, again.next_attempt_at), (State::Pending, 1, crate::at(3, 5)));
    }

    async fn fresh_entries_can_be_taken_early_and_hosts_have_last_slots(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let mut fresh = new(source.id, "later");
        fresh.next_attempt_at = crate::at(9, 0);
        frontier::enqueue(archive, &fresh).await.unwrap();
        assert_eq!(frontier::last_slot(archive, "daily.example").await.unwrap(), Some(crate::at(9, 0)));
        assert_eq!(frontier::last_slot(archive, "other.example").await.unwrap(), None);
        assert_eq!(frontier::host_of("https://WWW.Daily.example:8080/a"), "www.daily.example");

        let request = |fresh_until| frontier::LeaseRequest {
            now: crate::at(3, 0),
            fresh_until,
            limit: 10,
            owner: "w",
            lease_for: Duration::minutes(5),
            skip_hosts: &[],
        };
        assert!(frontier::lease(archive, &request(crate::at(3, 0))).await.unwrap().is_empty());
        let early = frontier::lease(archive, &request(crate::at(10, 0))).await.unwrap();
        assert_eq!(early.len(), 1);
        // A retry is due only at its time, however far `fresh_until` reaches.
        frontier::settle(archive, early[0].id, State::Pending, Some("HTTP 500"), Some(crate::at(4, 0))).await.unwrap();
        assert!(frontier::lease(archive, &request(crate::at(10, 0))).await.unwrap().is_empty());
    }

    async fn a_deferred_entry_keeps_its_attempts_and_skipped_hosts_wait(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, _) = frontier::enqueue(archive, &new(source.id, "a")).await.unwrap();
        let mut other = new(source.id, "b");
        other.url = "https://news.other.example/b".to_owned();
        other.lossy_url = "http://news.other.example/b".to_owned();
        let (b, _) = frontier::enqueue(archive, &other).await.unwrap();

        let skip = ["news.other.example".to_owned()];
        let request = frontier::LeaseRequest {
            now: crate::at(3, 1),
            fresh_until: crate::at(3, 1),
            limit: 10,
            owner: "w",
            lease_for: Duration::minutes(5),
            skip_hosts: &skip,
        };
        let leased = frontier::lease(archive, &request).await.unwrap();
        assert_eq!(leased.iter().map(|e| e.id).collect::<Vec<_>>(), vec![a.id], "b's host waits");
        assert_eq!(leased[0].attempts, 1);

        let reason = "robots.txt unreachable (HTTP 503)";
        let deferred = frontier::defer(archive, a.id, reason, crate::at(3, 2)).await.unwrap();
        assert_eq!(deferred.state, State::Pending);
        assert_eq!(deferred.attempts, 0, "nothing was requested: no attempt counted");
        assert_eq!(deferred.lease_owner, None);
        assert_eq!(deferred.next_attempt_at, crate::at(3, 2));
        assert_eq!(deferred.last_error.as_deref(), Some(reason));
        // Never attempted, so a pass that takes fresh entries early may take it again.
        let early = frontier::LeaseRequest { skip_hosts: &[], fresh_until: crate::at(4, 0), ..request };
        let again = frontier::lease(archive, &early).await.unwrap();
        assert_eq!(again.iter().map(|e| e.id).collect::<Vec<_>>(), vec![b.id, a.id], "earliest due first");
        assert!(frontier::defer(archive, 999_999, reason, crate::at(3, 2)).await.is_err());
    }
}
