//! The crawl loop in-process against the generated test web on loopback, each test on a fresh
//! SQLite archive and on a fresh PostgreSQL database (`store::testing`): completeness, robots.txt,
//! `since`, politeness, conditional GET, what the counters say, a worker that dies midway and its
//! successor, and a stop asked for.
//!
//! The clock is the real one. Tokio's paused clock jumps to the next timer whenever the runtime
//! waits for nothing but I/O, and here everything waits on I/O (the test web in another thread, the
//! database): tried, a paused-clock test failed before its first request, the archive's connection
//! pool timing out while SQLite opened its file. Intervals are kept short instead (tens of ms).

use std::sync::Arc;
use std::time::Duration;

use crawler::client::ClientConfig;
use crawler::fetch::FetchConfig;
use engine::crawl::{Engine, Mode, Politeness, Settings};
use engine::progress::{Counter, Progress};
use store::testing::TestArchive;
use store::{Archive, OpenMode};
use testweb::{Config, Seen, TestWeb};
use tokio::sync::watch;

/// Defines each check twice, as `sqlite::name` and `postgres::name`, each on a fresh archive.
macro_rules! on_both_backends {
    ($($name:ident: $check:ident;)*) => {
        mod sqlite {
            use super::*;
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    $check(store::testing::sqlite().await).await;
                }
            )*
        }
        mod postgres {
            use super::*;
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(test) = store::testing::postgres().await {
                        $check(test).await;
                    }
                }
            )*
        }
    };
}
pub(crate) use on_both_backends;

on_both_backends! {
    a_pass_stores_every_reachable_article_once_obeys_robots_txt_and_counts_its_work:
        stored_once_and_counted;
    a_forced_second_pass_is_answered_by_304_and_fetches_no_article_again:
        second_pass_does_no_work;
    requests_to_one_host_keep_the_interval_and_the_crawl_delay:
        keeps_the_interval_and_the_crawl_delay;
    a_worker_that_dies_midway_is_finished_by_its_successor_with_nothing_lost_or_doubled:
        dies_midway_and_its_successor_finishes;
    a_standing_crawl_asked_to_stop_finishes_its_work_in_flight_and_gives_its_leases_back:
        stops_when_asked;
    two_workers_share_one_archive_search_each_source_once_and_keep_each_hosts_interval:
        two_workers_share_the_work_and_the_turns;
}

pub(crate) fn config(seed: u64, hosts: usize, articles: usize) -> Config {
    Config::small(seed, hosts, articles, chrono::Utc::now())
}

/// A crawl's settings for the test web: `*.test` on loopback, this interval between requests to
/// a host, and the worker's name.
pub(crate) fn settings(worker: &str, host_interval: Duration) -> Settings {
    let fetch = FetchConfig {
        allow_private_addresses: true,
        resolve: vec!["*.test=127.0.0.1".parse().expect("a resolve rule")],
        ..FetchConfig::default()
    };
    Settings {
        since: chrono::Duration::days(7),
        concurrency: 16,
        client: ClientConfig { fetch, host_interval, ..ClientConfig::default() },
        force_poll: false,
        worker: worker.to_owned(),
        host: "test-machine".to_owned(),
        sentences: extractor::sentences::Mode::Normal,
        dedup: false,
        politeness: Politeness::Shared,
    }
}

/// Starts the test web and adds its sites to the archive as sources.
pub(crate) async fn web(archive: &Archive, config: Config) -> Arc<TestWeb> {
    let web = TestWeb::start(config).expect("start the test web");
    for (name, homepage) in web.sources() {
        let new = store::sources::NewSource {
            canonical_domain: normalizer::canonical_domain(&homepage).unwrap_or_default(),
            name,
            homepage,
            timezone: "Europe/Lisbon".to_owned(),
        };
        store::sources::add(archive, &new).await.expect("add a source");
    }
    Arc::new(web)
}

/// An engine over `archive`, its counters, and the sender that asks it to stop.
pub(crate) fn engine(
    archive: &Archive,
    settings: Settings,
    mode: Mode,
) -> (Arc<Engine>, Arc<Progress>, watch::Sender<bool>) {
    let progress = Progress::new();
    let (stop, stopping) = watch::channel(false);
    let engine = Engine::new(archive.clone(), settings, Arc::clone(&progress), mode, stopping)
        .expect("an engine");
    (Arc::new(engine), progress, stop)
}

/// One pass, as `morgue crawl --once`; returns the counters.
pub(crate) async fn crawl_once(archive: &Archive, settings: Settings) -> Arc<Progress> {
    let (engine, progress, _stop) = engine(archive, settings, Mode::Once);
    engine.run().await.expect("the crawl ends well");
    progress
}

fn is_article(seen: &Seen) -> bool {
    seen.path.contains(".html") || seen.path.starts_with("/go/")
}

/// Every article a correct crawl stores is a story, and there are no other stories. Returns how
/// many stories there are.
pub(crate) async fn assert_reachable_stored_once(archive: &Archive, web: &TestWeb) -> u64 {
    let reachable = web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7));
    assert!(!reachable.is_empty());
    let mut missing = Vec::new();
    for article in &reachable {
        let url = web.article_url(article);
        let key = normalizer::lossy_url(&url).expect("a lossy URL");
        if store::stories::by_any_lossy_url(archive, &key).await.expect("read").is_none() {
            // What the frontier holds of it, to tell a URL never queued from one left waiting.
            let entry = store::frontier::by_lossy_url(archive, &key).await.expect("read");
            missing.push(format!("{url} (frontier: {entry:?})"));
        }
    }
    assert!(missing.is_empty(), "{} of {} missing: {missing:?}", missing.len(), reachable.len());
    let stories = store::stories::count(archive).await.expect("count");
    let mut extra = Vec::new();
    if stories != reachable.len() as u64 {
        let wanted: Vec<String> =
            reachable.iter().filter_map(|a| normalizer::lossy_url(&web.article_url(a))).collect();
        let all =
            store::stories::page(archive, &Default::default(), 0, 10_000).await.expect("read");
        for story in all {
            let urls = store::stories::urls(archive, story.id).await.expect("urls");
            let lossy = |url: &str| normalizer::lossy_url(url).is_some_and(|k| wanted.contains(&k));
            if !urls.iter().any(|u| lossy(&u.url)) {
                extra.push(urls.into_iter().map(|u| u.url).collect::<Vec<_>>());
            }
        }
    }
    assert_eq!(
        stories,
        reachable.len() as u64,
        "one story per reachable article; extra: {extra:?}"
    );
    stories
}

/// No URL is leased and no worker registered: every worker gave its leases back and removed
/// itself, or was found dead and removed.
pub(crate) async fn assert_no_leases_or_workers_left(archive: &Archive) {
    let leased = store::frontier::lease_owners(archive).await.expect("read the leases");
    assert!(leased.is_empty(), "leases left behind: {leased:?}");
    let workers = store::workers::list(archive).await.expect("read the workers");
    assert!(workers.is_empty(), "workers left registered: {workers:?}");
}

async fn stored_once_and_counted(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(41, 5, 10)).await;
    let progress = crawl_once(archive, settings("tester", Duration::ZERO)).await;
    let stories = assert_reachable_stored_once(archive, &web).await;
    assert_no_leases_or_workers_left(archive).await;

    let seen = web.requests();
    assert!(seen.iter().all(|s| !s.path.starts_with("/private/")), "a disallowed path was fetched");
    let stale = web.world().stale_paths();
    assert!(!stale.is_empty());
    assert!(
        seen.iter().all(|s| !stale.contains(&s.path)),
        "an article older than since was fetched"
    );

    // The counters say what was done, as the archive has it.
    let sources = store::sources::list(archive).await.expect("sources");
    assert_eq!(progress.get(Counter::Discovered), sources.len() as u64);
    assert!(sources.iter().all(|source| source.discovered_at.is_some()));
    let feeds = store::feeds::list(archive).await.expect("feeds");
    let polled = feeds.iter().filter(|feed| feed.last_polled_at.is_some()).count() as u64;
    assert!(polled > 0 && progress.get(Counter::Polled) >= polled, "{feeds:?}");
    assert_eq!(progress.get(Counter::Stored), stories);
    let article_responses = seen.iter().filter(|s| is_article(s) && s.status == 200).count();
    assert!(progress.get(Counter::Fetched) >= stories);
    assert!(progress.get(Counter::Fetched) <= article_responses as u64);
    assert!(progress.get(Counter::Queued) >= stories);
    assert_eq!(progress.get(Counter::Failed), 0, "a friendly web fails nothing");
    assert_eq!(progress.get(Counter::Linked), 0, "no dedup unless asked for");

    // Searching the sources again on request (`morgue discover --all`) searches each again.
    let (engine, _progress, _stop) =
        engine(archive, settings("tester", Duration::ZERO), Mode::Once);
    let searched = engine.discover(sources.clone()).await.expect("search again");
    assert_eq!(searched, sources.len());
}

async fn second_pass_does_no_work(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(42, 4, 6)).await;
    crawl_once(archive, settings("tester", Duration::ZERO)).await;
    let before = web.requests().len();
    let again = Settings { force_poll: true, ..settings("tester", Duration::ZERO) };
    let progress = crawl_once(archive, again).await;
    let second: Vec<Seen> = web.requests().split_off(before);
    let polls: Vec<&Seen> = second.iter().filter(|s| s.path.contains(".xml")).collect();
    assert!(!polls.is_empty(), "the feeds were polled again");
    assert!(polls.iter().all(|s| s.conditional && s.status == 304), "{polls:?}");
    assert!(second.iter().all(|s| !is_article(s)), "an article was fetched again");
    assert_eq!(progress.get(Counter::Polled), polls.len() as u64);
    assert_eq!(progress.get(Counter::Fetched), 0);
    assert_eq!(progress.get(Counter::Queued), 0);
    assert_reachable_stored_once(archive, &web).await;
}

async fn keeps_the_interval_and_the_crawl_delay(test: TestArchive) {
    let archive = &test.archive;
    let mut config = config(43, 3, 4);
    config.crawl_delay_every = 2;
    config.crawl_delay_secs = 0.4;
    let web = web(archive, config).await;
    let interval = Duration::from_millis(200);
    crawl_once(archive, settings("tester", interval)).await;
    assert_reachable_stored_once(archive, &web).await;
    // Measured where the server reads the request: loopback adds well under 10 ms.
    let too_soon = web.too_soon(interval, Duration::from_millis(10));
    assert!(too_soon.is_empty(), "{too_soon:?}");
    assert!(
        web.world().sites.iter().any(|site| site.crawl_delay.is_some()),
        "no crawl delay asked"
    );
}

async fn dies_midway_and_its_successor_finishes(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(44, 4, 20)).await;
    let reachable =
        web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7)).len() as u64;
    // The first worker runs on a runtime of its own, which is then shut down with everything it
    // runs: its tasks end where they are, as in a process killed, leaving their leases and their
    // worker registered.
    let (url, seen) = (test.url.clone(), Arc::clone(&web));
    let midway = tokio::task::spawn_blocking(move || {
        let doomed = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        doomed.spawn(async move {
            let archive = Archive::open(&url, OpenMode::Existing).await.expect("open");
            let (engine, _progress, _stop) =
                engine(&archive, settings("crawler-1", Duration::from_millis(20)), Mode::Once);
            engine.run().await
        });
        let midway = seen.wait_for(Duration::from_secs(120), |seen| {
            seen.iter().filter(|s| is_article(s)).count() >= 20
        });
        doomed.shutdown_background();
        midway
    })
    .await
    .expect("the first worker's thread");
    assert!(midway, "the first worker never got halfway");
    let stored_before = store::stories::count(archive).await.expect("count");
    assert!(stored_before < reachable, "the first worker finished before it died");
    let workers = store::workers::list(archive).await.expect("workers");
    assert!(workers.iter().any(|w| w.name == "crawler-1"), "the dead worker is registered");

    // Its successor under the same name (a service restarted) takes its leases back at once.
    crawl_once(archive, settings("crawler-1", Duration::from_millis(20))).await;
    assert_reachable_stored_once(archive, &web).await;
    assert_no_leases_or_workers_left(archive).await;
}

async fn stops_when_asked(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(45, 3, 30)).await;
    let (engine, progress, stop) =
        engine(archive, settings("standing", Duration::from_millis(30)), Mode::Forever);
    let running = tokio::spawn(async move { engine.run().await });
    let busy = tokio::task::block_in_place(|| {
        web.wait_for(Duration::from_secs(120), |seen| {
            seen.iter().filter(|s| is_article(s)).count() >= 10
        })
    });
    assert!(busy, "the crawl never got going");
    stop.send(true).expect("the engine listens");
    running.await.expect("the crawl's task").expect("a stopped crawl ends well");
    assert!(progress.get(Counter::Fetched) >= 10);
    let stories = store::stories::count(archive).await.expect("count");
    assert_eq!(progress.get(Counter::Stored), stories);
    assert_no_leases_or_workers_left(archive).await;
}

async fn two_workers_share_the_work_and_the_turns(test: TestArchive) {
    let archive = &test.archive;
    let mut config = config(46, 6, 8);
    config.crawl_delay_every = 3;
    config.crawl_delay_secs = 0.3;
    let web = web(archive, config).await;
    let interval = Duration::from_millis(150);
    let workers: Vec<_> = ["worker-a", "worker-b"]
        .into_iter()
        .map(|name| {
            let (engine, progress, _stop) = engine(archive, settings(name, interval), Mode::Once);
            (tokio::spawn(async move { engine.run().await }), progress)
        })
        .collect();
    let mut counters = Vec::new();
    for (running, progress) in workers {
        running.await.expect("a worker's task").expect("a worker's crawl ends well");
        counters.push(progress);
    }
    assert_reachable_stored_once(archive, &web).await;
    assert_no_leases_or_workers_left(archive).await;
    assert!(store::claims::list(archive).await.expect("claims").is_empty(), "claims left behind");
    assert!(store::turns::held(archive).await.expect("turns").is_empty(), "host turns left held");

    // No host saw two requests closer than its interval or crawl delay, from either worker.
    let too_soon = web.too_soon(interval, Duration::from_millis(10));
    assert!(too_soon.is_empty(), "{too_soon:?}");

    // Each source was searched by one worker: its homepage asked for once, counted once.
    let seen = web.requests();
    for site in &web.world().sites {
        let homepages = seen.iter().filter(|s| s.host == site.host && s.path == "/").count();
        assert_eq!(homepages, 1, "{} searched {homepages} times", site.host);
    }
    let total = |counter| counters.iter().map(|progress| progress.get(counter)).sum::<u64>();
    let sources = store::sources::list(archive).await.expect("sources");
    assert_eq!(total(Counter::Discovered), sources.len() as u64);
    // Each feed was polled by one worker, once.
    let feeds = store::feeds::list(archive).await.expect("feeds");
    let polled = feeds.iter().filter(|feed| feed.last_polled_at.is_some()).count() as u64;
    assert!(polled > 0);
    assert_eq!(total(Counter::Polled), polled, "a feed was polled twice");
    // Between them they fetched every story (which of them fetched what is up to timing).
    let stories = store::stories::count(archive).await.expect("count");
    assert!(total(Counter::Fetched) >= stories);
}

/// PostgreSQL only: the server drops every connection of the archive (as a restart does) three
/// times during a crawl; the crawl reconnects and ends with every article stored once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_mid_crawl_lose_nothing_on_postgres() {
    let Some(test) = store::testing::postgres().await else { return };
    let archive = &test.archive;
    let web = web(archive, config(47, 4, 20)).await;
    let (engine, _progress, _stop) =
        engine(archive, settings("survivor", Duration::from_millis(20)), Mode::Once);
    let running = tokio::spawn(async move { engine.run().await });
    let admin = Archive::open(&test.url, OpenMode::Existing).await.expect("open");
    for round in 1..=3 {
        let busy = tokio::task::block_in_place(|| {
            web.wait_for(Duration::from_secs(120), |seen| {
                seen.iter().filter(|s| is_article(s)).count() >= 12 * round
            })
        });
        assert!(busy, "the crawl never got to round {round}");
        admin
            .execute_unprepared(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .await
            .expect("drop the connections");
    }
    running.await.expect("the crawl's task").expect("the crawl survives dropped connections");
    assert_reachable_stored_once(archive, &web).await;
    assert_no_leases_or_workers_left(archive).await;
}
