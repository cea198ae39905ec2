//! Host turns shared by workers, and claims on discovery, polls and dedup.

use chrono::Duration;
use store::Archive;
use store::claims::{self, Kind};
use store::turns::{self, Claim};
use store::workers::{self, NewWorker};

use store::on_both_backends;

/// Claims a host's turn for `holder`, whose interval for it is 5 s.
async fn claim(
    archive: &Archive,
    host: &str,
    holder: &str,
    token: i64,
    now: chrono::DateTime<chrono::Utc>,
    hold: Duration,
) -> store::Result<Claim> {
    let ask = turns::Ask { host, holder, token, interval: Duration::seconds(5) };
    turns::claim(archive, ask, now, hold).await
}

on_both_backends! {
    async fn a_host_turn_goes_to_one_worker_and_comes_back_an_interval_after_the_exchange(archive: &Archive) {
        let now = crate::at(3, 0);
        let hold = Duration::seconds(90);
        assert_eq!(claim(archive, "Daily.example", "a", 1, now, hold).await.unwrap(), Claim::Taken);
        // Held: another worker waits, told by whom and until when at the latest.
        let busy = claim(archive, "daily.example", "b", 7, now, hold).await.unwrap();
        assert_eq!(busy, Claim::Busy { next_at: now + hold, holder: Some("a".to_owned()) });
        assert!(!claim(archive, "daily.example", "a", 2, now, hold).await.unwrap().eq(&Claim::Taken),
            "a turn held is not taken twice, even by its holder");
        // Another host is independent.
        assert_eq!(claim(archive, "other.example", "b", 7, now, hold).await.unwrap(), Claim::Taken);
        assert_eq!(turns::held(archive).await.unwrap().len(), 2);

        // Only the holder, under its token, gives the turn back.
        let end = now + Duration::seconds(2);
        let next = end + Duration::seconds(5);
        assert!(!turns::release(archive, "daily.example", "b", 1, now).await.unwrap());
        assert!(!turns::release(archive, "daily.example", "a", 2, now).await.unwrap());
        assert!(turns::release(archive, "daily.example", "a", 1, next).await.unwrap());
        assert!(!turns::release(archive, "daily.example", "a", 1, now).await.unwrap(), "released once");
        let early = claim(archive, "daily.example", "b", 8, next - Duration::milliseconds(1), hold).await.unwrap();
        assert_eq!(early, Claim::Busy { next_at: next, holder: None });
        assert_eq!(claim(archive, "daily.example", "b", 8, next, hold).await.unwrap(), Claim::Taken);
    }

    async fn a_dead_holders_turn_expires_and_cannot_be_renewed_or_released_by_it(archive: &Archive) {
        let now = crate::at(3, 0);
        let hold = Duration::seconds(60);
        assert_eq!(claim(archive, "daily.example", "dead", 3, now, hold).await.unwrap(), Claim::Taken);
        let later = now + Duration::seconds(30);
        assert!(turns::renew(archive, "daily.example", "dead", 3, later, hold).await.unwrap());
        let expired = later + hold;
        assert_eq!(claim(archive, "daily.example", "alive", 4, expired, hold).await.unwrap(), Claim::Taken);
        assert!(!turns::renew(archive, "daily.example", "dead", 3, expired, hold).await.unwrap());
        assert!(!turns::release(archive, "daily.example", "dead", 3, now).await.unwrap());
        let held = turns::held(archive).await.unwrap();
        assert_eq!(held.len(), 1);
        assert_eq!((held[0].holder.as_deref(), held[0].next_at), (Some("alive"), expired + hold));
    }

    async fn concurrent_claims_of_one_host_give_it_to_exactly_one(archive: &Archive) {
        let now = crate::at(3, 0);
        let mut tasks = Vec::new();
        for i in 0..8_i64 {
            let archive = archive.clone();
            tasks.push(tokio::spawn(async move {
                claim(&archive, "daily.example", &format!("w{i}"), i, now, Duration::seconds(60)).await
            }));
        }
        let mut taken = 0;
        for task in tasks {
            if task.await.unwrap().unwrap() == Claim::Taken {
                taken += 1;
            }
        }
        assert_eq!(taken, 1);
    }

    async fn work_is_claimed_by_one_worker_until_given_back_or_expired(archive: &Archive) {
        let now = crate::at(3, 0);
        let lease = Duration::minutes(30);
        assert!(claims::take(archive, Kind::Discover, "7", "a", now, lease).await.unwrap());
        assert!(!claims::take(archive, Kind::Discover, "7", "b", now, lease).await.unwrap());
        assert!(claims::take(archive, Kind::Poll, "7", "b", now, lease).await.unwrap(), "kinds are apart");
        assert!(claims::take(archive, Kind::Discover, "7", "a", now, lease).await.unwrap(), "its holder renews");
        assert!(!claims::give_back(archive, Kind::Discover, "7", "b").await.unwrap());
        assert!(claims::give_back(archive, Kind::Discover, "7", "a").await.unwrap());
        assert!(claims::take(archive, Kind::Discover, "7", "b", now, lease).await.unwrap());
        // Expired: another takes it over.
        let expired = now + lease;
        assert!(claims::take(archive, Kind::Discover, "7", "c", expired, lease).await.unwrap());
        let list = claims::list(archive).await.unwrap();
        let owners: Vec<(&str, &str, &str)> =
            list.iter().map(|c| (c.kind.as_str(), c.key.as_str(), c.owner.as_str())).collect();
        assert_eq!(owners, [("discover", "7", "c"), ("poll", "7", "b")]);
        assert_eq!(claims::give_back_all(archive, "b").await.unwrap(), 1);
    }

    async fn a_dead_workers_claims_are_given_back_when_it_is_reaped_or_succeeded(archive: &Archive) {
        let now = crate::at(3, 0);
        let worker = |name: &str| NewWorker { name: name.to_owned(), host: "m".to_owned(), pid: 1 };
        workers::register(archive, &worker("dead"), now).await.unwrap();
        workers::register(archive, &worker("restarted"), now).await.unwrap();
        let lease = Duration::hours(1);
        assert!(claims::take(archive, Kind::Poll, "1", "dead", now, lease).await.unwrap());
        assert!(claims::take(archive, Kind::Dedup, "archive", "restarted", now, lease).await.unwrap());
        assert!(claims::take(archive, Kind::Poll, "2", "never-registered", now, lease).await.unwrap());

        let registered = workers::register(archive, &worker("restarted"), now).await.unwrap();
        assert_eq!(registered.released, 1, "a successor takes its predecessor's claims back");
        let later = now + Duration::minutes(3);
        workers::heartbeat(archive, &worker("restarted"), later).await.unwrap();
        let reaped = workers::reap(archive, later - Duration::minutes(2), later).await.unwrap();
        assert_eq!(reaped.workers, ["dead"]);
        assert_eq!(reaped.claims, 2, "the dead worker's, and the unregistered owner's");
        assert!(claims::list(archive).await.unwrap().is_empty());
    }

    async fn a_successor_gives_back_its_predecessors_host_turns_an_interval_after_it_starts(archive: &Archive) {
        let now = crate::at(3, 0);
        let worker = NewWorker { name: "crawler-1".to_owned(), host: "m".to_owned(), pid: 1 };
        workers::register(archive, &worker, now).await.unwrap();
        let hold = Duration::seconds(90);
        assert_eq!(claim(archive, "daily.example", "crawler-1", 1, now, hold).await.unwrap(), Claim::Taken);
        assert_eq!(claim(archive, "other.example", "someone", 2, now, hold).await.unwrap(), Claim::Taken);
        // Killed, and started again ten seconds later under its name.
        let restart = now + Duration::seconds(10);
        workers::register(archive, &worker, restart).await.unwrap();
        let held = turns::held(archive).await.unwrap();
        assert_eq!(held.len(), 1, "only the predecessor's turn is given back: {held:?}");
        let next = claim(archive, "daily.example", "crawler-1", 3, restart, hold).await.unwrap();
        assert_eq!(next, Claim::Busy { next_at: restart + Duration::seconds(5), holder: None });
    }
}
