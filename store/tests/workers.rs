//! Workers, heartbeats, and the leases of dead workers.

use chrono::Duration;
use store::Archive;
use store::frontier::{self, NewUrl, State};
use store::workers::{self, NewWorker};

use store::on_both_backends;

fn worker(name: &str) -> NewWorker {
    NewWorker { name: name.to_owned(), host: "crawler-a".to_owned(), pid: 41 }
}

/// Queues `n` URLs and leases them all to `owner` for a day.
async fn lease(archive: &Archive, source_id: i64, owner: &str, n: usize) -> Vec<i64> {
    for i in 0..n {
        let url = format!("http://daily.example/{owner}/{i}");
        let new = NewUrl {
            url: url.clone(),
            lossy_url: url,
            source_id,
            feed_id: None,
            next_attempt_at: crate::at(3, 0),
            hint_published_at: None,
            hint_title: None,
            hint_meta: None,
        };
        frontier::enqueue(archive, &new).await.unwrap();
    }
    let leased = frontier::lease_due(archive, crate::at(3, 0), n as u64, owner, Duration::days(1))
        .await
        .unwrap();
    assert_eq!(leased.len(), n);
    leased.into_iter().map(|entry| entry.id).collect()
}

on_both_backends! {
    async fn a_silent_worker_is_reaped_on_any_machine_and_a_live_one_never(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        workers::register(archive, &worker("alive"), crate::at(3, 0)).await.unwrap();
        let mut elsewhere = worker("silent");
        elsewhere.host = "another-machine".to_owned();
        workers::register(archive, &elsewhere, crate::at(3, 0)).await.unwrap();
        let alive = lease(archive, source.id, "alive", 2).await;
        let silent = lease(archive, source.id, "silent", 3).await;

        // Three minutes later only `alive` has said it is alive (a minute ago).
        let now = crate::at(3, 0) + Duration::minutes(3);
        let beat = now - Duration::minutes(1);
        assert!(workers::heartbeat(archive, &worker("alive"), beat).await.unwrap());
        let reaped = workers::reap(archive, now - Duration::minutes(2), now).await.unwrap();
        assert_eq!(reaped.workers, vec!["silent".to_owned()]);
        assert_eq!(reaped.leases, 3);
        for id in silent {
            let entry = frontier::get(archive, id).await.unwrap();
            assert_eq!((entry.state, entry.lease_owner, entry.next_attempt_at), (State::Pending, None, now));
        }
        for id in alive {
            assert_eq!(frontier::get(archive, id).await.unwrap().state, State::Leased);
        }
        let names: Vec<String> = workers::list(archive).await.unwrap().into_iter().map(|w| w.name).collect();
        assert_eq!(names, vec!["alive".to_owned()]);
        assert_eq!(workers::reap(archive, now - Duration::minutes(2), now).await.unwrap(), workers::Reaped::default());
    }

    async fn leases_of_owners_never_registered_are_given_back(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        workers::register(archive, &worker("alive"), crate::at(3, 0)).await.unwrap();
        lease(archive, source.id, "alive", 1).await;
        let orphans = lease(archive, source.id, "old-binary:77", 2).await;
        let now = crate::at(3, 0);
        let reaped = workers::reap(archive, now - Duration::minutes(2), now).await.unwrap();
        assert!(reaped.workers.is_empty());
        assert_eq!(reaped.leases, 2);
        for id in orphans {
            assert_eq!(frontier::get(archive, id).await.unwrap().state, State::Pending);
        }
        assert_eq!(frontier::lease_owners(archive).await.unwrap(), vec!["alive".to_owned()]);
    }

    async fn a_worker_started_under_a_dead_ones_name_takes_its_leases_back(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let first = workers::register(archive, &worker("crawler-1"), crate::at(3, 0)).await.unwrap();
        assert_eq!(first.predecessor, None);
        let held = lease(archive, source.id, "crawler-1", 2).await;
        let mut restarted = worker("crawler-1");
        restarted.pid = 42;
        let second = workers::register(archive, &restarted, crate::at(3, 1)).await.unwrap();
        assert_eq!(second.predecessor.map(|w| (w.pid, w.started_at)), Some((41, crate::at(3, 0))));
        assert_eq!(second.released, 2);
        for id in held {
            assert_eq!(frontier::get(archive, id).await.unwrap().state, State::Pending);
        }
        let now = workers::get(archive, "crawler-1").await.unwrap().unwrap();
        assert_eq!((now.pid, now.started_at, now.heartbeat_at), (42, crate::at(3, 1), crate::at(3, 1)));
    }

    async fn a_worker_taken_for_dead_registers_again_at_its_next_heartbeat(archive: &Archive) {
        workers::register(archive, &worker("slow"), crate::at(3, 0)).await.unwrap();
        let now = crate::at(3, 5);
        workers::reap(archive, now - Duration::minutes(2), now).await.unwrap();
        assert_eq!(workers::get(archive, "slow").await.unwrap(), None);
        assert!(!workers::heartbeat(archive, &worker("slow"), now).await.unwrap());
        assert_eq!(workers::get(archive, "slow").await.unwrap().map(|w| w.heartbeat_at), Some(now));
        workers::remove(archive, "slow").await.unwrap();
        assert!(workers::list(archive).await.unwrap().is_empty());
    }

    async fn the_database_clock_agrees_with_this_machines_within_seconds(archive: &Archive) {
        // The test's server runs on this machine, so both clocks are one: read twice, in order.
        let before = chrono::Utc::now();
        let database = workers::database_now(archive).await.unwrap();
        let later = workers::database_now(archive).await.unwrap();
        let after = chrono::Utc::now();
        assert!(later >= database, "{database} then {later}");
        let slack = Duration::seconds(2);
        assert!(database > before - slack && database < after + slack, "{before} {database} {after}");
    }
}
