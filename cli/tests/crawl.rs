//! `morgue crawl` against the generated test web on loopback: completeness, robots.txt,
//! politeness, conditional GET, hostile hosts, a crash in the middle of a crawl, and what `reextract`,
//! `dedup`, `stories` and `serve` do with the archive. The tests of how pages are stored (at once,
//! from many tasks), of a crash, of repeated sentences, of `dedup` and of `stories` also run on
//! PostgreSQL, as `..._on_postgres`, on the server `MORGUE_TEST_POSTGRES_URL` names; unset, they
//! fail and say how to run or skip them (`store::testing`).

use std::process::{Command, Output};
use std::time::Duration;

use store::testing::TestDatabase;
use store::{Archive, OpenMode};
use testweb::{Config, Seen, TestWeb};

use crate::{morgue, spawn_morgue, spawn_morgue_logging, stderr, stdout};

/// Where a test's archive is.
enum Backend {
    /// `morgue.db` in the test's directory, the default.
    Sqlite,
    /// A database of its own on the server `MORGUE_TEST_POSTGRES_URL` names, created by
    /// `morgue init` and dropped when the test ends, also when it fails (`store::testing`).
    Postgres(TestDatabase),
}

impl Backend {
    /// A new PostgreSQL database's place, or `None` when the run skips PostgreSQL explicitly;
    /// without a server named, the test fails and says how to run or skip it.
    fn postgres() -> Option<Backend> {
        TestDatabase::new().map(Backend::Postgres)
    }
}

fn block_on<T>(future: impl Future<Output = T>) -> T {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(future)
}

/// A test web and an archive (its own files in a temporary directory), its sources imported.
struct Setup {
    dir: tempfile::TempDir,
    web: TestWeb,
    backend: Backend,
}

impl Setup {
    fn new(config: Config) -> Setup {
        Setup::on(Backend::Sqlite, config)
    }

    /// A setup on a PostgreSQL archive, or `None` when the run skips PostgreSQL.
    fn on_postgres(config: Config) -> Option<Setup> {
        Some(Setup::on(Backend::postgres()?, config))
    }

    fn on(backend: Backend, config: Config) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let web = TestWeb::start(config).unwrap();
        let setup = Setup { dir, web, backend };
        let init = setup.morgue(&["init"]);
        assert!(init.status.success(), "{}", stderr(&init));
        let mut csv = String::from("name,homepage,timezone\n");
        for (name, homepage) in setup.web.sources() {
            csv.push_str(&format!("\"{name}\",{homepage},Europe/Lisbon\n"));
        }
        std::fs::write(setup.dir.path().join("sources.csv"), csv).unwrap();
        let import = setup.morgue(&["sources", "import", "sources.csv"]);
        assert!(import.status.success(), "{}", stderr(&import));
        setup
    }

    /// The archive's URL: `morgue.db` in the test's directory, or the test's PostgreSQL database.
    fn database_url(&self) -> String {
        match &self.backend {
            Backend::Sqlite => self.dir.path().join("morgue.db").to_str().unwrap().to_owned(),
            Backend::Postgres(database) => database.url.clone(),
        }
    }

    /// `args`, and `--database-url` when the archive is not the default one.
    fn with_database<'a>(&'a self, args: &[&'a str]) -> Vec<&'a str> {
        let mut args = args.to_vec();
        if let Backend::Postgres(database) = &self.backend {
            args.extend(["--database-url", database.url.as_str()]);
        }
        args
    }

    /// `morgue ARGS` in the test's directory, on its archive.
    fn morgue(&self, args: &[&str]) -> Output {
        morgue(self.dir.path(), &self.with_database(args))
    }

    fn crawl_args<'a>(&'a self, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args =
            vec!["crawl", "--once", "--allow-private-addresses", "--resolve", "*.test=127.0.0.1"];
        args.extend_from_slice(extra);
        self.with_database(&args)
    }

    fn crawl(&self, extra: &[&str]) -> Output {
        let output = morgue(self.dir.path(), &self.crawl_args(extra));
        assert!(output.status.success(), "{}", stderr(&output));
        output
    }

    fn archive<T>(&self, read: impl AsyncFnOnce(&Archive) -> T) -> T {
        block_on(async {
            let archive = Archive::open(&self.database_url(), OpenMode::Existing).await.unwrap();
            let value = read(&archive).await;
            archive.close().await.unwrap();
            value
        })
    }

    /// No URL is leased and no worker registered: every worker that ran gave its leases back and
    /// removed itself, or was found dead and removed.
    fn assert_no_leases_or_workers_left(&self) {
        let (leased, workers) = self.archive(async |archive| {
            let leased = store::frontier::lease_owners(archive).await.unwrap();
            (leased, store::workers::list(archive).await.unwrap())
        });
        assert!(leased.is_empty(), "leases left behind: {leased:?}");
        assert!(workers.is_empty(), "workers left registered: {workers:?}");
    }

    /// Every reachable article's page was requested exactly once, as the test web's request log
    /// shows, except those in `maybe_twice` (host and path), which may have been twice, and those
    /// whose frontier entry records more than one attempt (a fetch that failed, a timeout among
    /// them, is tried again later), which may have been requested once per attempt. A page
    /// requested more often is reported with its frontier entry and the workers' log lines that
    /// name it.
    fn assert_each_article_page_requested_once(
        &self,
        maybe_twice: &std::collections::HashSet<String>,
    ) {
        let fetched = article_requests(&self.web.requests());
        let since = chrono::Utc::now() - chrono::Duration::days(7);
        let world = self.web.world();
        let mut wrong = Vec::new();
        for article in world.reachable(since) {
            let site = &world.sites[article.site];
            let key = format!("{}{}", site.host, article.path);
            let times = fetched.get(&key).copied().unwrap_or(0);
            let allowed = if maybe_twice.contains(&key) { 2 } else { 1 };
            if times > 0 && times <= allowed {
                continue;
            }
            let url = format!("http://{}:{}{}", site.host, self.web.port(), article.path);
            let lossy = normalizer::lossy_url(&url).unwrap_or_default();
            let entry = self.archive(async |archive| {
                store::frontier::by_lossy_url(archive, &lossy).await.unwrap()
            });
            let attempts = entry.as_ref().map_or(0, |entry| entry.attempts);
            if times > 0 && times <= usize::try_from(attempts).unwrap_or(0) {
                continue;
            }
            let mut logged = Vec::new();
            for file in std::fs::read_dir(self.dir.path()).unwrap().flatten() {
                let path = file.path();
                if path.extension().is_some_and(|extension| extension == "log") {
                    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
                    logged.extend(
                        read_log(&path)
                            .lines()
                            .filter(|line| line.contains(&article.path))
                            .map(|line| format!("{name}: {line}")),
                    );
                }
            }
            wrong.push(format!(
                "{key} requested {times} times; frontier entry: {entry:?}; log lines: {logged:#?}"
            ));
        }
        assert!(wrong.is_empty(), "{} article pages not requested once: {wrong:#?}", wrong.len());
    }

    /// Every reachable article leads to a story, and there are no other stories.
    fn assert_reachable_stored_once(&self, extra_stories: u64) {
        let (count, reachable) = self.assert_reachable_stored();
        assert_eq!(count, reachable + extra_stories, "one story per reachable article");
    }

    /// Every reachable article leads to a story. Returns how many stories there are and how many
    /// articles are reachable.
    fn assert_reachable_stored(&self) -> (u64, u64) {
        let since = chrono::Utc::now() - chrono::Duration::days(7);
        let reachable = self.web.world().reachable(since);
        let urls: Vec<String> = reachable.iter().map(|a| self.web.article_url(a)).collect();
        let (count, missing) = self.archive(async |archive| {
            let mut missing = Vec::new();
            for url in &urls {
                let key = normalizer::lossy_url(url).unwrap();
                if store::stories::by_any_lossy_url(archive, &key).await.unwrap().is_none() {
                    missing.push(url.clone());
                }
            }
            (store::stories::count(archive).await.unwrap(), missing)
        });
        assert!(
            missing.is_empty(),
            "{} of {} missing, e.g. {:?}",
            missing.len(),
            urls.len(),
            &missing[..missing.len().min(3)]
        );
        (count, urls.len() as u64)
    }
}

/// Defines a test on SQLite and the same test on PostgreSQL (see [`Setup::on_postgres`]): both
/// names, then the check to run on a setup made with the test web's config.
macro_rules! on_both_backends {
    ($sqlite:ident, $postgres:ident: $check:ident($config:expr);) => {
        #[test]
        fn $sqlite() {
            $check(Setup::new($config));
        }

        #[test]
        fn $postgres() {
            if let Some(setup) = Setup::on_postgres($config) {
                $check(setup);
            }
        }
    };
}

fn is_article(seen: &Seen) -> bool {
    seen.path.contains(".html") || seen.path.starts_with("/go/")
}

/// How many times each article page (host without `m.`, and path) was answered 200.
fn article_requests(seen: &[Seen]) -> std::collections::HashMap<String, usize> {
    let mut fetched = std::collections::HashMap::<String, usize>::new();
    for s in seen.iter().filter(|s| is_article(s) && s.status == 200) {
        let path = s.path.split('?').next().unwrap_or_default();
        *fetched.entry(format!("{}{path}", s.host.trim_start_matches("m."))).or_default() += 1;
    }
    fetched
}

fn config(seed: u64, hosts: usize, articles: usize) -> Config {
    Config::small(seed, hosts, articles, chrono::Utc::now())
}

on_both_backends! {
    every_reachable_article_is_stored_once_and_robots_txt_is_obeyed,
    every_reachable_article_is_stored_once_and_robots_txt_is_obeyed_on_postgres:
        stored_once_and_robots_txt_obeyed(config(21, 6, 14));
}

fn stored_once_and_robots_txt_obeyed(setup: Setup) {
    let output = setup.crawl(&["--host-interval", "0s"]);
    assert!(stdout(&output).contains("stories stored"), "{}", stdout(&output));
    setup.assert_reachable_stored_once(0);
    let seen = setup.web.requests();
    assert!(seen.iter().all(|s| !s.path.starts_with("/private/")), "a disallowed path was fetched");
    let stale = setup.web.world().stale_paths();
    assert!(!stale.is_empty());
    assert!(
        seen.iter().all(|s| !stale.contains(&s.path)),
        "an article older than --since was fetched"
    );
    // Each reachable article page was requested exactly once (URL variants are one lossy key),
    // also a page behind a `/go/` redirect that a sitemap lists under its own URL: whichever
    // comes second finds the page archived.
    setup.assert_each_article_page_requested_once(&std::collections::HashSet::new());
    let list = setup.morgue(&["sources", "list", "--format", "csv"]);
    assert!(stdout(&list).lines().count() == 7, "{}", stdout(&list));
}

#[test]
fn requests_to_one_host_keep_the_interval_and_the_crawl_delay() {
    let mut config = config(22, 3, 5);
    config.crawl_delay_every = 2;
    config.crawl_delay_secs = 0.5;
    let setup = Setup::new(config);
    setup.crawl(&["--host-interval", "250ms"]);
    setup.assert_reachable_stored_once(0);
    // Measured where the server reads the request: loopback adds well under 10 ms.
    let too_soon = setup.web.too_soon(Duration::from_millis(250), Duration::from_millis(10));
    assert!(too_soon.is_empty(), "{too_soon:?}");
}

#[test]
fn a_second_pass_is_answered_by_304_and_does_no_work() {
    let setup = Setup::new(config(23, 6, 8));
    setup.crawl(&["--host-interval", "0s"]);
    let before = setup.web.requests().len();
    let again = setup.crawl(&["--host-interval", "0s", "--force-poll"]);
    let second: Vec<Seen> = setup.web.requests().split_off(before);
    let polls: Vec<&Seen> = second.iter().filter(|s| s.path.contains(".xml")).collect();
    assert!(!polls.is_empty(), "the feeds were polled again");
    assert!(polls.iter().all(|s| s.conditional && s.status == 304), "{polls:?}");
    assert!(second.iter().all(|s| !is_article(s)), "an article was fetched again");
    assert!(stdout(&again).contains("polls"), "{}", stdout(&again));
    setup.assert_reachable_stored_once(0);
}

#[test]
fn hostile_hosts_fail_on_their_own_and_leave_the_rest_alone() {
    let mut config = config(24, 4, 6);
    config.hostile = true;
    let setup = Setup::new(config);
    setup.crawl(&["--host-interval", "0s", "--max-time", "3s", "--max-filesize", "2M"]);
    // The friendly sites are complete, and the hostile articles that can be stored are.
    setup.assert_reachable_stored_once(testweb::hostile_sites::STORABLE.len() as u64);
    for (host, path) in testweb::hostile_sites::STORABLE {
        let url = format!("{}{path}", setup.web.origin(host));
        let key = normalizer::lossy_url(&url).unwrap();
        let found = setup.archive(async |archive| {
            store::stories::by_any_lossy_url(archive, &key).await.unwrap()
        });
        let story = found.unwrap_or_else(|| panic!("{url} not stored"));
        if host == "charset.test" {
            assert!(
                story.story.title.as_deref().unwrap_or_default().contains("Café"),
                "{:?}",
                story.story.title
            );
        }
    }
    // Failures are recorded for people.
    let statuses = setup.archive(async |archive| {
        store::feeds::list(archive)
            .await
            .unwrap()
            .into_iter()
            .map(|f| (f.url, f.last_status))
            .collect::<Vec<_>>()
    });
    let status_of = |host: &str| {
        let of_host = statuses.iter().filter(|(url, _)| url.contains(host));
        of_host.filter_map(|(_, status)| status.clone()).collect::<Vec<_>>().join("; ")
    };
    assert!(status_of("broken.test").contains("500"), "{statuses:?}");
    assert!(status_of("bomb.test").contains("large"), "{statuses:?}");
    assert!(status_of("badxml.test").contains("unreadable"), "{statuses:?}");
}

on_both_backends! {
    a_crawl_killed_midway_finishes_on_restart_with_nothing_lost_or_doubled,
    a_crawl_killed_midway_finishes_on_restart_with_nothing_lost_or_doubled_on_postgres:
        killed_midway_finishes_on_restart(config(25, 4, 25));
}

fn killed_midway_finishes_on_restart(setup: Setup) {
    let log = setup.dir.path().join("first-crawl.log");
    // A stable name, as a service has: the worker restarted under it takes back the leases of the
    // one killed at once (a worker of another name frees them when the heartbeat is two minutes
    // old, see `a_dead_workers_leases_are_freed_by_its_heartbeat_age_on_any_machine`).
    let args = setup.crawl_args(&["--host-interval", "20ms", "--worker", "crawler-1"]);
    let mut child = spawn_morgue_logging(setup.dir.path(), &args, &log);
    let midway = setup.web.wait_for(Duration::from_secs(120), |seen| {
        seen.iter().filter(|s| is_article(s)).count() >= 30
    });
    let ended_by_itself = child.try_wait().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        midway,
        "the crawl never got halfway ({} article requests seen; morgue {}); its log:\n{}",
        setup.web.requests().iter().filter(|s| is_article(s)).count(),
        ended_by_itself.map_or("was still running".to_owned(), |status| format!("ended: {status}")),
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    let stored_before =
        setup.archive(async |archive| store::stories::count(archive).await.unwrap());
    let reachable =
        setup.web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7)).len() as u64;
    assert!(stored_before < reachable, "the crawl finished before it was killed");

    setup.crawl(&["--host-interval", "20ms", "--max-time", "5s", "--worker", "crawler-1"]);
    setup.assert_reachable_stored_once(0);
    setup.assert_no_leases_or_workers_left();
}

on_both_backends! {
    garbled_feeds_are_recorded_as_their_own_and_the_crawl_goes_on,
    garbled_feeds_are_recorded_as_their_own_and_the_crawl_goes_on_on_postgres:
        garbled_feeds_are_recorded_as_their_own(Config { garbled_feeds: true, ..config(33, 3, 5) });
}

fn garbled_feeds_are_recorded_as_their_own(setup: Setup) {
    use testweb::trouble::{GARBLED_HOSTS, LONG_URL_BYTES};
    // `crawl` asserts that each run exits 0; the second polls every feed again, which used to
    // fail the same way every time on PostgreSQL.
    setup.crawl(&["--host-interval", "0s"]);
    setup.crawl(&["--host-interval", "0s", "--force-poll"]);
    let (stories, reachable) = setup.assert_reachable_stored();
    assert!(stories >= reachable);
    let (feeds, entries) = setup.archive(async |archive| {
        let feeds = store::feeds::list(archive).await.unwrap();
        // The entries of the items the garbled feeds list (those that parsed).
        let mut entries = Vec::new();
        for host in GARBLED_HOSTS {
            let name = host.trim_end_matches(".test");
            for n in 1..=2 {
                let url = format!("{}/news/{name}-{n}.html", setup.web.origin(host));
                let key = normalizer::lossy_url(&url).unwrap();
                if let Some(entry) = store::frontier::by_lossy_url(archive, &key).await.unwrap() {
                    entries.push(entry);
                }
            }
        }
        (feeds, entries)
    });
    for host in GARBLED_HOSTS {
        let feed = feeds
            .iter()
            .find(|f| f.url.contains(host))
            .unwrap_or_else(|| panic!("{host}: no feed in {feeds:?}"));
        let status =
            feed.last_status.as_deref().unwrap_or_else(|| panic!("{host}: no poll recorded"));
        assert!(!status.contains('\0'), "{host}: {status:?}");
        assert!(status.len() <= store::text::MAX_LINE);
        assert!(feed.last_polled_at.is_some(), "{host}");
    }
    let oversize = feeds.iter().find(|f| f.url.contains("oversize.test")).unwrap();
    assert!(oversize.last_success_at.is_some(), "a well-formed feed with big fields: {oversize:?}");

    for entry in &entries {
        let title = entry.hint_title.as_deref().unwrap_or_default();
        assert!(!title.contains('\0') && title.len() <= store::text::MAX_LINE, "{entry:?}");
        assert!(entry.url.len() < LONG_URL_BYTES);
    }
    let big = entries
        .iter()
        .find(|e| e.url.ends_with("/news/oversize-1.html"))
        .expect("the big title's item is queued");
    assert!(
        big.hint_title.as_deref().is_some_and(|t| t.starts_with("Headline very long")),
        "{:?}",
        big.hint_title
    );
    let long_url =
        format!("{}/news/{}.html", setup.web.origin("oversize.test"), "a".repeat(LONG_URL_BYTES));
    let key = normalizer::lossy_url(&long_url).unwrap();
    let queued =
        setup.archive(async |archive| store::frontier::by_lossy_url(archive, &key).await.unwrap());
    assert_eq!(queued, None, "a URL too long to keep is left out, not cut");
    assert!(
        setup.web.requests().iter().all(|s| s.path.len() < LONG_URL_BYTES),
        "and never fetched"
    );
}

on_both_backends! {
    a_robots_txt_outage_defers_articles_and_the_next_run_fetches_them,
    a_robots_txt_outage_defers_articles_and_the_next_run_fetches_them_on_postgres:
        robots_outage_defers_articles(Config { robots_outage: true, ..config(34, 2, 4) });
}

fn robots_outage_defers_articles(setup: Setup) {
    use testweb::trouble::{OUTAGE_ARTICLE_HOST, OUTAGE_ARTICLES};
    let keys: Vec<String> = OUTAGE_ARTICLES
        .iter()
        .map(|path| {
            normalizer::lossy_url(&format!("{}{path}", setup.web.origin(OUTAGE_ARTICLE_HOST)))
                .unwrap()
        })
        .collect();
    let entries = |setup: &Setup| {
        setup.archive(async |archive| {
            let mut entries = Vec::new();
            for key in &keys {
                entries.push(
                    store::frontier::by_lossy_url(archive, key).await.unwrap().expect("queued"),
                );
            }
            entries
        })
    };

    // robots.txt of the articles' host answers 503: nothing is fetched there, nothing is given up.
    // The first article leased is deferred with the reason; once the host is known to be down,
    // its other articles are not even leased.
    let first = setup.crawl(&["--host-interval", "0s"]);
    assert!(stdout(&first).contains(" deferred"), "{}", stdout(&first));
    let seen = setup.web.requests();
    let asked: Vec<&str> =
        seen.iter().filter(|s| s.host == OUTAGE_ARTICLE_HOST).map(|s| s.path.as_str()).collect();
    assert_eq!(asked, ["/robots.txt"], "only robots.txt was asked for");
    let waiting = entries(&setup);
    for entry in &waiting {
        assert_eq!(entry.state, store::frontier::State::Pending, "{entry:?}");
        assert_eq!(entry.attempts, 0, "no attempt was made: {entry:?}");
        let error = entry.last_error.as_deref();
        assert!(error.is_none_or(|e| e == "robots.txt unreachable (HTTP 503)"), "{entry:?}");
    }
    assert!(waiting.iter().any(|e| e.last_error.is_some()), "{waiting:?}");
    setup.assert_reachable_stored_once(0);

    // The next run finds robots.txt readable and fetches every article.
    setup.crawl(&["--host-interval", "0s"]);
    for entry in entries(&setup) {
        assert_eq!(entry.state, store::frontier::State::Done, "{entry:?}");
    }
    setup.assert_reachable_stored_once(OUTAGE_ARTICLES.len() as u64);
}

#[test]
fn each_sources_feeds_are_polled_as_soon_as_its_own_search_ends() {
    use testweb::trouble::HAYSTACK_HOST;
    let setup = Setup::new(Config { long_search: true, ..config(35, 1, 4) });
    // Each of haystack.test's fifty-odd requests waits 50 ms for its turn: its search ends a few
    // seconds in, while site0.test's ends after four requests.
    setup.crawl(&["--host-interval", "50ms"]);
    setup.assert_reachable_stored_once(0);
    let seen = setup.web.requests();
    let haystack: Vec<&Seen> = seen.iter().filter(|s| s.host == HAYSTACK_HOST).collect();
    assert!(haystack.len() > 40, "haystack.test's search tried {} candidates", haystack.len());
    let search_ended = haystack.last().unwrap().at;
    let site = &setup.web.world().sites[0];
    let mut paths = std::collections::HashMap::<&str, usize>::new();
    let polled = seen.iter().filter(|s| s.host == site.host).find(|s| {
        let count = paths.entry(s.path.as_str()).or_default();
        *count += 1;
        s.path.contains(".xml") && *count == 2
    });
    let polled = polled.expect("site0.test's feed was polled");
    assert!(
        polled.at < search_ended,
        "site0.test's feed was polled only after haystack.test's search ended"
    );
    let first_article = seen.iter().find(|s| s.host == site.host && is_article(s)).unwrap();
    assert!(first_article.at < search_ended, "its first article waited for haystack.test's search");
}

/// A full disk (PostgreSQL's `disk_full`, raised here by a trigger on stories) stops `morgue crawl`
/// with one line naming the archive; with space again, the next crawl stores every article once.
#[test]
fn a_full_disk_stops_the_crawl_with_one_line_naming_the_archive() {
    let Some(setup) = Setup::on_postgres(config(39, 3, 4)) else { return };
    setup.archive(async |archive| {
        archive
            .execute_unprepared(
                "CREATE FUNCTION test_disk_full() RETURNS trigger AS $$ BEGIN \
                 RAISE EXCEPTION 'could not extend file: No space left on device' \
                 USING ERRCODE = '53100'; END $$ LANGUAGE plpgsql; \
                 CREATE TRIGGER test_disk_full BEFORE INSERT ON stories \
                 FOR EACH ROW EXECUTE FUNCTION test_disk_full();",
            )
            .await
            .unwrap();
    });
    let output = morgue(setup.dir.path(), &setup.crawl_args(&["--host-interval", "0s"]));
    assert!(!output.status.success(), "a crawl on a full disk fails");
    let err = stderr(&output);
    let line = err.lines().find(|line| line.starts_with("error:")).expect("an error line");
    let url = setup.database_url();
    assert!(
        line.starts_with(&format!("error: crawling {url} ")) && line.contains("disk is full"),
        "{err}"
    );
    setup.archive(async |archive| {
        assert_eq!(store::stories::count(archive).await.unwrap(), 0);
        archive
            .execute_unprepared(
                "DROP TRIGGER test_disk_full ON stories; DROP FUNCTION test_disk_full();",
            )
            .await
            .unwrap();
    });
    setup.crawl(&["--host-interval", "0s"]);
    setup.assert_reachable_stored_once(0);
    setup.assert_no_leases_or_workers_left();
}

#[test]
fn work_that_cannot_be_stored_fails_its_own_source_feed_or_url_never_the_crawl() {
    let setup = Setup::new(config(37, 4, 4));
    let hosts: Vec<String> = setup.web.world().sites.iter().map(|site| site.host.clone()).collect();
    // The archive refuses one source's feeds (its search), another's frontier entries (its
    // polls) and a third's stories (its articles), as a database may refuse a write.
    let refuse = |table: &str, column: &str, host: &str| {
        format!(
            "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} \
             WHEN NEW.{column} LIKE '%//{host}:%' BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    };
    setup.archive(async |archive| {
        for sql in [
            refuse("feeds", "url", &hosts[0]),
            refuse("frontier", "url", &hosts[1]),
            refuse("stories", "url", &hosts[2]),
        ] {
            archive.execute_unprepared(&sql).await.unwrap();
        }
    });
    setup.crawl(&["--host-interval", "0s"]);
    setup.crawl(&["--host-interval", "0s", "--force-poll"]);
    let (sources, feeds, stories, entries) = setup.archive(async |archive| {
        let sources = store::sources::list(archive).await.unwrap();
        let feeds = store::feeds::list(archive).await.unwrap();
        let stories = store::stories::page(archive, &Default::default(), 0, 10_000).await.unwrap();
        let mut entries = Vec::new();
        for article in setup.web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7)) {
            let key = normalizer::lossy_url(&setup.web.article_url(&article)).unwrap();
            entries
                .push((article.site, store::frontier::by_lossy_url(archive, &key).await.unwrap()));
        }
        (sources, feeds, stories, entries)
    });
    let on = |url: &str, site: usize| url.contains(&format!("//{}:", hosts[site]));
    // The first source was searched all the same, and has no feeds.
    assert!(sources.iter().all(|source| source.discovered_at.is_some()), "{sources:?}");
    assert!(!feeds.iter().any(|feed| on(&feed.url, 0)), "{feeds:?}");
    // The second source's polls failed, each recorded as its feed's failure.
    let second: Vec<_> = feeds.iter().filter(|feed| on(&feed.url, 1)).collect();
    assert!(!second.is_empty());
    for feed in &second {
        let status = feed.last_status.as_deref().unwrap_or_default();
        assert!(status.starts_with("cannot store the poll: "), "{feed:?}");
        assert!(feed.failure_count > 0.0 && feed.last_success_at.is_none(), "{feed:?}");
    }
    // The third source's articles wait for a retry, with the reason.
    let third: Vec<_> = entries.iter().filter(|(site, _)| *site == 2).collect();
    assert!(!third.is_empty());
    for (_, entry) in &third {
        let entry = entry.as_ref().expect("queued");
        assert_eq!(entry.state, store::frontier::State::Pending, "{entry:?}");
        let error = entry.last_error.as_deref().unwrap_or_default();
        assert!(error.starts_with("cannot store the page: "), "{entry:?}");
    }
    // The fourth source is whole.
    let fourth = entries.iter().filter(|(site, _)| *site == 3).count();
    assert!(fourth > 0);
    assert_eq!(stories.iter().filter(|story| on(&story.story.url, 3)).count(), fourth);
}

#[test]
fn a_dead_workers_leases_are_freed_by_its_heartbeat_age_on_any_machine() {
    let setup = Setup::new(config(36, 2, 5));
    let site = setup.web.world().sites[0].clone();
    let urls: Vec<String> = setup
        .web
        .world()
        .articles(&site)
        .iter()
        .filter(|a| !a.private && !a.stale)
        .map(|a| setup.web.article_url(a))
        .collect();
    let name = setup.web.sources()[0].0.clone();
    let now = chrono::Utc::now();
    // Two workers died holding leases for a day: one on another machine, one on this machine as
    // a process that is still there (a zombie, say); both stopped their heartbeats ten minutes ago.
    setup.archive(async |archive| {
        let source = store::sources::by_name(archive, &name).await.unwrap().unwrap();
        for (i, url) in urls.iter().enumerate() {
            let new = store::frontier::NewUrl {
                url: url.clone(),
                lossy_url: normalizer::lossy_url(url).unwrap(),
                source_id: source.id,
                feed_id: None,
                next_attempt_at: now - chrono::Duration::minutes(20),
                hint_published_at: None,
                hint_title: None,
                hint_meta: None,
            };
            store::frontier::enqueue(archive, &new).await.unwrap();
            let owner =
                if i % 2 == 0 { "elsewhere:4242".to_owned() } else { format!("{}:1", hostname()) };
            let ten_minutes_ago = now - chrono::Duration::minutes(10);
            let worker = store::workers::NewWorker {
                name: owner.clone(),
                host: owner.split(':').next().unwrap().to_owned(),
                pid: 1,
            };
            store::workers::register(archive, &worker, ten_minutes_ago).await.unwrap();
            let leased =
                store::frontier::lease_due(archive, now, 1, &owner, chrono::Duration::days(1))
                    .await
                    .unwrap();
            assert_eq!(leased.len(), 1);
        }
    });
    setup.crawl(&["--host-interval", "0s"]);
    setup.assert_reachable_stored_once(0);
    setup.assert_no_leases_or_workers_left();
}

/// This machine's name, as morgue reads it.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .unwrap_or_else(|_| "localhost".to_owned())
}

#[test]
fn sources_import_reports_bad_rows_and_keeps_the_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    assert!(morgue(dir.path(), &["init"]).status.success());
    let csv = "name,homepage,timezone,feeds\n\
               Good,https://good.example/,Europe/Madrid,https://good.example/rss https://good.example/sitemap.xml\n\
               Bad URL,not a url,,\n\
               Bad zone,https://zone.example/,Mars/Olympus,\n\
               Plain,http://plain.example/,,\n";
    std::fs::write(dir.path().join("s.csv"), csv).unwrap();
    let import = morgue(dir.path(), &["sources", "import", "s.csv"]);
    assert_eq!(import.status.code(), Some(1));
    assert!(stdout(&import).contains("2 new sources"), "{}", stdout(&import));
    let err = stderr(&import);
    assert!(err.contains("line 3") && err.contains("line 4"), "{err}");
    assert!(err.contains("Mars/Olympus"), "{err}");
    let again = morgue(dir.path(), &["sources", "import", "s.csv"]);
    assert!(stdout(&again).contains("0 new sources, 2 already present"), "{}", stdout(&again));
    let list = stdout(&morgue(dir.path(), &["sources", "list"]));
    assert!(list.contains("Good") && list.contains("Plain") && !list.contains("Bad"), "{list}");
    assert!(list.lines().nth(1).unwrap().contains(" 2 "), "two feeds given: {list}");
    let add =
        morgue(dir.path(), &["sources", "add", "--name", "X", "--homepage", "ftp://x.example/"]);
    assert_eq!(add.status.code(), Some(1));
    assert_eq!(stderr(&add).lines().count(), 1, "{}", stderr(&add));
}

#[test]
fn the_demo_crawls_a_generated_web_into_demo_db() {
    let dir = tempfile::tempdir().unwrap();
    let demo = morgue(dir.path(), &["demo", "--sites", "3", "--articles", "4", "--port", "0"]);
    assert!(demo.status.success(), "{}", stderr(&demo));
    let out = stdout(&demo);
    assert!(out.contains("story clusters in sqlite:demo.db"), "{out}");
    assert!(dir.path().join("demo.db").exists());
    let list = morgue(dir.path(), &["--database-url", "demo.db", "sources", "list"]);
    assert_eq!(stdout(&list).lines().count(), 4, "{}", stdout(&list));
}

#[test]
fn settings_come_from_morgue_toml() {
    let setup = Setup::new(config(26, 2, 4));
    std::fs::write(
        setup.dir.path().join("morgue.toml"),
        "allow-private-addresses = true\nresolve = [\"*.test=127.0.0.1\"]\nhost-interval = \"0s\"\nuser-agent = \"TomlBot/1.0\"\n",
    )
    .unwrap();
    let output = setup.morgue(&["crawl", "--once"]);
    assert!(output.status.success(), "{}", stderr(&output));
    setup.assert_reachable_stored_once(0);
    let bad = std::fs::write(setup.dir.path().join("morgue.toml"), "host-intervall = \"1s\"\n");
    bad.unwrap();
    let refused = setup.morgue(&["crawl", "--once"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = stderr(&refused);
    assert!(err.starts_with("error: morgue.toml: unknown field `host-intervall`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn run_stops_gracefully_on_sigterm_and_gives_its_leases_back() {
    let setup = Setup::new(config(27, 3, 40));
    let mut args = setup.crawl_args(&["--host-interval", "30ms"]);
    args[0] = "run";
    args.retain(|a| *a != "--once");
    let child = spawn_morgue(setup.dir.path(), &args, true);
    let busy = setup.web.wait_for(Duration::from_secs(120), |seen| {
        seen.iter().filter(|s| is_article(s)).count() >= 10
    });
    assert!(busy, "the crawl never got going");
    let term = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(term.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("pages fetched"), "{}", stdout(&output));
    setup.assert_no_leases_or_workers_left();
}

on_both_backends! {
    a_sources_repeated_sentences_leave_all_but_its_earliest_story_and_never_another_sources,
    a_sources_repeated_sentences_leave_all_but_its_earliest_story_on_postgres:
        repeated_sentences_leave_the_earliest_story(config(28, 3, 12));
}

fn repeated_sentences_leave_the_earliest_story(setup: Setup) {
    setup.crawl(&["--host-interval", "0s"]);
    let world = setup.web.world();
    let since = chrono::Utc::now() - chrono::Duration::days(7);
    let reachable = world.reachable(since);
    let checks = setup.archive(async |archive| {
        let mut checks = Vec::new();
        for article in &reachable {
            let key = normalizer::lossy_url(&setup.web.article_url(article)).unwrap();
            let story = store::stories::by_any_lossy_url(archive, &key).await.unwrap().unwrap();
            let removed = store::stories::removed_sentences(archive, story.id).await.unwrap();
            let mut owners = Vec::new();
            for sentence in &removed {
                owners.push(store::stories::get(archive, sentence.owner_story_id).await.unwrap());
            }
            checks.push((article.clone(), story, removed, owners));
        }
        checks
    });
    let mut removals = 0;
    for (article, story, removed, owners) in &checks {
        let site = &world.sites[article.site];
        let house = setup.web.house_sentence(site);
        let full = &story.story.text;
        assert!(full.contains(&house), "the story's own text keeps everything");
        let searchable = story.searchable_text.as_deref().unwrap_or(full);
        for (sentence, owner) in removed.iter().zip(owners) {
            removals += 1;
            assert_eq!(
                owner.story.source_id, story.story.source_id,
                "another source's sentence was removed"
            );
            assert!(owner.story.published_at <= story.story.published_at, "the owner is earlier");
            assert!(owner.story.text.contains(&sentence.sentence));
        }
        // The house sentence stays only in the earliest story of its source and week.
        let keeps_house = searchable.contains(&house);
        // Sources were imported with the timezone Europe/Lisbon: weeks are Lisbon weeks.
        let week = |s: &store::stories::Story| {
            chrono::Datelike::iso_week(
                &s.story.published_at.unwrap().with_timezone(&chrono_tz::Europe::Lisbon),
            )
        };
        let earliest_of_week = checks
            .iter()
            .filter(|(a, s, ..)| a.site == article.site && week(s) == week(story))
            .map(|(_, s, ..)| (s.story.published_at, s.id))
            .min()
            .unwrap();
        assert_eq!(
            keeps_house,
            (story.story.published_at, story.id) == earliest_of_week,
            "{}",
            article.path
        );
    }
    assert!(removals > 0);
}

#[test]
fn reextract_rebuilds_stories_from_their_raw_pages() {
    let setup = Setup::new(config(29, 2, 6));
    setup.crawl(&["--host-interval", "0s"]);
    let before = setup.archive(async |archive| {
        let page = store::stories::page_for_reextraction(archive, None, 0, 1000).await.unwrap();
        archive
            .execute_unprepared(
                "UPDATE stories SET text = 'garbled', title = 'garbled', extractor_version = 'old'",
            )
            .await
            .unwrap();
        page
    });
    // One re-extraction at a time: while a live worker re-extracts, another run does nothing.
    setup.archive(async |archive| {
        hold_archive_claim(archive, "w2", "elsewhere", 2, store::claims::Kind::Reextract).await;
    });
    let refused = setup.morgue(&["reextract"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("w2 is running a re-extraction"), "{}", stderr(&refused));
    setup.archive(async |archive| {
        let waiting =
            store::stories::page_for_reextraction(archive, Some("old"), 0, 1000).await.unwrap();
        assert!(waiting.is_empty(), "nothing was extracted again");
        store::workers::remove_gone(archive, "w2", chrono::Utc::now()).await.unwrap();
    });
    let run = setup.morgue(&["reextract"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stdout(&run).contains(&format!("{} stories extracted again", before.len())),
        "{}",
        stdout(&run)
    );
    let after = setup.archive(async |archive| {
        store::stories::page_for_reextraction(archive, None, 0, 1000).await.unwrap()
    });
    assert_eq!(after.len(), before.len());
    for (old, new) in before.iter().zip(&after) {
        assert_eq!(old.story, new.story, "the same fields come back from the raw page");
        assert_eq!(old.searchable_text, new.searchable_text, "and the same sentences are removed");
    }
    let again = setup.morgue(&["reextract"]);
    assert!(stdout(&again).contains("0 stories extracted again"), "{}", stdout(&again));
}

on_both_backends! {
    dedup_links_and_clusters_the_archives_syndicated_copies_once,
    dedup_links_and_clusters_the_archives_syndicated_copies_once_on_postgres:
        dedup_links_and_clusters_once(config(30, 6, 10));
}

on_both_backends! {
    dedup_computes_signatures_of_an_earlier_format_again,
    dedup_computes_signatures_of_an_earlier_format_again_on_postgres:
        dedup_recomputes_old_signatures(config(30, 6, 10));
}

/// An archive upgraded from a morgue whose signatures had another format: the stories that have
/// one are compared as the window of the new ones, their signatures computed again from their
/// texts and stored in the current format.
///
/// The old signatures go to one copy of each wire story that has another copy within the dedup
/// window, so a link to an old story is owed whatever order the crawl fetched the pages in (every
/// other story in page order left that to the crawl's order: a run could give old signatures to
/// no copy at all).
fn dedup_recomputes_old_signatures(setup: Setup) {
    setup.crawl(&["--host-interval", "0s"]);
    let reachable = setup.web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7));
    let mut first_copies: Vec<&testweb::world::Article> = Vec::new();
    for (i, a) in reachable.iter().enumerate() {
        let copied_later = reachable.iter().skip(i + 1).any(|b| copies_within_window(a, b));
        if copied_later && !first_copies.iter().any(|c| c.wire == a.wire) {
            first_copies.push(a);
        }
    }
    assert!(!first_copies.is_empty(), "the test web syndicated nothing");
    let old: Vec<i64> = setup.archive(async |archive| {
        let mut stories = Vec::new();
        for article in &first_copies {
            let key = normalizer::lossy_url(&setup.web.article_url(article)).unwrap();
            stories.push(store::stories::by_any_lossy_url(archive, &key).await.unwrap().unwrap());
        }
        let mut old = Vec::new();
        for story in &stories {
            // The magic and format version 1, which this build refuses to read.
            let stored = store::signatures::Stored {
                story_id: story.id,
                published_at: Some(story.story.published_at.unwrap_or(story.created_at)),
                bytes: b"MGDS\x01".to_vec(),
            };
            store::signatures::put(archive, &stored).await.unwrap();
            old.push(story.id);
        }
        old
    });
    let run = setup.morgue(&["dedup", "--threads", "2"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let (stories, signatures, linked_to_old) = setup.archive(async |archive| {
        let far = chrono::Duration::days(10_000);
        let now = chrono::Utc::now();
        let signatures = store::signatures::between(archive, now - far, now + far).await.unwrap();
        let mut linked = 0;
        for id in &old {
            linked += store::duplicates::involving(archive, *id).await.unwrap().len();
        }
        (store::stories::count(archive).await.unwrap(), signatures, linked)
    });
    assert_eq!(signatures.len() as u64, stories, "every story has one signature");
    for stored in &signatures {
        let signature = dedup::Signature::from_bytes(&stored.bytes);
        assert!(signature.is_ok(), "story {}: {signature:?}", stored.story_id);
    }
    assert!(linked_to_old > 0, "the stories with old signatures were compared with the new ones");
}

/// Whether two articles of the test web are copies of one wire story published within the dedup
/// window of each other (four days), which dedup must put in one cluster.
fn copies_within_window(a: &testweb::world::Article, b: &testweb::world::Article) -> bool {
    a.wire.is_some() && a.wire == b.wire && (a.published - b.published).num_days().abs() <= 4
}

fn dedup_links_and_clusters_once(setup: Setup) {
    setup.crawl(&["--host-interval", "0s"]);
    let run = setup.morgue(&["dedup", "--threads", "2"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stdout(&run).contains("stories compared"), "{}", stdout(&run));
    let world = setup.web.world();
    let since = chrono::Utc::now() - chrono::Duration::days(7);
    let reachable = world.reachable(since);
    let (stories, links, clusters) = setup.archive(async |archive| {
        let mut stories = Vec::new();
        let mut links = Vec::new();
        let mut clusters = Vec::new();
        for article in &reachable {
            let key = normalizer::lossy_url(&setup.web.article_url(article)).unwrap();
            let story = store::stories::by_any_lossy_url(archive, &key).await.unwrap().unwrap();
            links.extend(store::duplicates::involving(archive, story.id).await.unwrap());
            clusters
                .push(store::clusters::of_story(archive, story.id).await.unwrap().map(|c| c.id));
            stories.push((article.clone(), story.id));
        }
        (stories, links, clusters)
    });
    let wire_of = |id: i64| stories.iter().find(|(_, s)| *s == id).and_then(|(a, _)| a.wire);
    let duplicates: Vec<_> = links
        .iter()
        .filter(|l| l.link.method == "minhash" || l.link.method.ends_with("/duplicate"))
        .collect();
    for link in &duplicates {
        let (a, b) = (wire_of(link.link.story_id), wire_of(link.link.of_story_id));
        assert!(
            a.is_some() && a == b,
            "a duplicate link between different stories: {:?}",
            link.link
        );
        assert!(
            link.link.thresholds.contains_key("duplicate_containment"),
            "thresholds are recorded"
        );
        assert!(link.link.scores.contains_key("cosine"), "scores are recorded");
    }
    // Copies of one wire story published within the window share a cluster.
    let mut copies = 0;
    for (i, (a, _)) in stories.iter().enumerate() {
        for (j, (b, _)) in stories.iter().enumerate().skip(i + 1) {
            if copies_within_window(a, b) {
                copies += 1;
                assert!(
                    clusters[i].is_some() && clusters[i] == clusters[j],
                    "{} and {} apart",
                    a.path,
                    b.path
                );
            }
        }
    }
    assert!(copies > 0, "the test web syndicated nothing");
    let again = setup.morgue(&["dedup"]);
    assert!(stdout(&again).contains("dedup: 0 stories compared"), "{}", stdout(&again));
}

on_both_backends! {
    stories_export_every_story_once_with_its_cluster_and_the_deduplicated_view,
    stories_export_every_story_once_with_its_cluster_and_the_deduplicated_view_on_postgres:
        stories_export_every_story_once(config(31, 5, 8));
}

/// Registers worker `name` of machine `host` with process id `pid`, holding the archive's claim
/// of `kind` for 30 minutes, as a worker running that work would.
async fn hold_archive_claim(
    archive: &Archive,
    name: &str,
    host: &str,
    pid: u32,
    kind: store::claims::Kind,
) {
    let worker = store::workers::NewWorker { name: name.into(), host: host.into(), pid };
    let now = chrono::Utc::now();
    store::workers::register(archive, &worker, now).await.unwrap();
    let lease = chrono::Duration::minutes(30);
    assert!(store::claims::take(archive, kind, "archive", name, now, lease).await.unwrap());
}

fn stories_export_every_story_once(setup: Setup) {
    setup.crawl(&["--host-interval", "0s"]);
    // While a live worker runs a dedup batch, `morgue dedup` runs none of its own (two batches at
    // once would write clusters that disagree): it says who holds the batch and compares nothing.
    let unsigned = setup.archive(async |archive| {
        hold_archive_claim(archive, "crawler-7", "elsewhere", 7, store::claims::Kind::Dedup).await;
        store::signatures::missing(archive, 0, 10_000).await.unwrap().len()
    });
    let refused = setup.morgue(&["dedup"]);
    assert!(!refused.status.success());
    let message = stderr(&refused);
    assert!(
        message.contains("crawler-7 is running a dedup batch")
            && message.trim().lines().count() == 1,
        "{message}"
    );
    setup.archive(async |archive| {
        assert_eq!(
            store::signatures::missing(archive, 0, 10_000).await.unwrap().len(),
            unsigned,
            "nothing compared"
        );
        let workers: Vec<String> =
            store::workers::list(archive).await.unwrap().into_iter().map(|w| w.name).collect();
        assert_eq!(workers, ["crawler-7"], "the refused run removed itself");
        assert!(
            store::claims::give_back(archive, store::claims::Kind::Dedup, "archive", "crawler-7")
                .await
                .unwrap()
        );
        store::workers::remove(archive, "crawler-7").await.unwrap();
        // A `morgue dedup` of this machine killed midway: its heartbeat is fresh, its process gone
        // (no process has an id above Linux's largest, 2^22).
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap().trim().to_owned();
        hold_archive_claim(archive, "killed", &host, 5_000_000, store::claims::Kind::Dedup).await;
    });
    let run = setup.morgue(&["dedup"]);
    assert!(
        run.status.success(),
        "the batch of a process that is gone is taken over: {}",
        stderr(&run)
    );
    let (claims, workers) = setup.archive(async |archive| {
        (store::claims::list(archive).await.unwrap(), store::workers::list(archive).await.unwrap())
    });
    assert!(claims.is_empty() && workers.is_empty(), "{claims:?} {workers:?}");
    let export = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut all = vec!["stories", "--format", "jsonl"];
        all.extend_from_slice(args);
        let output = setup.morgue(&all);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let rows = export(&[]);
    let (count, placements) = setup.archive(async |archive| {
        let count = store::stories::count(archive).await.unwrap();
        let ids: Vec<i64> = rows.iter().map(|row| row["id"].as_i64().unwrap()).collect();
        (count, store::clusters::placements(archive, &ids).await.unwrap())
    });
    assert_eq!(rows.len() as u64, count, "one row per story");
    let ids: Vec<i64> = rows.iter().map(|row| row["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "in the order stored, once each");
    assert!(!placements.is_empty(), "the test web syndicated nothing");
    for row in &rows {
        let id = row["id"].as_i64().unwrap();
        let placement = placements.get(&id);
        assert_eq!(row["cluster"].as_i64(), placement.map(|p| p.cluster_id), "{row}");
        assert_eq!(row["representative"].as_i64(), placement.map(|p| p.representative_story_id));
        assert!(row["source"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(row.get("text").is_none(), "no text unless asked for");
    }

    // The deduplicated view: representatives and stories in no cluster.
    let deduplicated = export(&["--one-per-cluster"]);
    let followers = placements.iter().filter(|(id, p)| p.representative_story_id != **id).count();
    assert_eq!(deduplicated.len(), rows.len() - followers);
    assert!(
        deduplicated
            .iter()
            .all(|row| row["representative"].is_null() || row["representative"] == row["id"])
    );

    // Filters: a source, a word of a title (any case), a limit.
    let source = rows[0]["source"].as_str().unwrap().to_owned();
    let of_source = export(&["--source", &source]);
    assert!(!of_source.is_empty() && of_source.iter().all(|row| row["source"] == *source.as_str()));
    let title = rows[0]["title"].as_str().unwrap();
    let word = title
        .split_whitespace()
        .max_by_key(|w| w.len())
        .unwrap()
        .trim_matches(|c: char| !c.is_alphanumeric());
    let found = export(&["--search", &word.to_uppercase(), "--text"]);
    assert!(found.iter().any(|row| row["id"] == rows[0]["id"]), "{word}");
    for row in &found {
        let haystack = format!("{} {}", row["title"], row["text"]).to_lowercase();
        assert!(haystack.contains(&word.to_lowercase()), "{word} not in {haystack}");
    }
    assert_eq!(export(&["--limit", "2"]).len(), 2);

    // CSV to a file: a header and one record per story; nothing left beside it.
    let output = setup.morgue(&["stories", "-o", "stories.csv"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("stories={count}")), "{}", stderr(&output));
    let mut reader = csv::Reader::from_path(setup.dir.path().join("stories.csv")).unwrap();
    assert_eq!(reader.headers().unwrap().get(0), Some("id"));
    assert_eq!(reader.records().map(Result::unwrap).count() as u64, count);
    let left: Vec<_> = std::fs::read_dir(setup.dir.path())
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // WARC, gzipped record by record: the warcinfo record with the selection, then each story's
    // request, response and metadata records, as another WARC reader reads them.
    let output =
        setup.morgue(&["stories", "--format", "warc", "--source", &source, "-o", "s.warc.gz"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let gzipped = std::fs::read(setup.dir.path().join("s.warc.gz")).unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&gzipped[..]), &mut plain)
        .unwrap();
    let records: Vec<rust_warc::WarcRecord> =
        rust_warc::WarcReader::new(&plain[..]).map(Result::unwrap).collect();
    let of_type = |kind: &str| {
        records.iter().filter(|r| r.header[&"WARC-Type".into()] == kind).collect::<Vec<_>>()
    };
    let info = String::from_utf8_lossy(&of_type("warcinfo")[0].content).into_owned();
    assert!(info.contains(&format!("morgue-source: {source}\r\n")), "{info}");
    assert_eq!(of_type("response").len(), of_source.len());
    assert_eq!(of_type("request").len(), of_source.len());
    for request in of_type("request") {
        let text = String::from_utf8_lossy(&request.content);
        assert!(text.starts_with("GET /") && text.contains("\r\nuser-agent: "), "{text}");
    }
    for response in of_type("response") {
        assert!(response.content.starts_with(b"HTTP/1.1 200 OK\r\n"));
    }

    // A source that does not exist: one line, and a failure.
    let output = setup.morgue(&["stories", "--source", "Nowhere Daily"]);
    assert!(!output.status.success());
    assert_eq!(stderr(&output).trim().lines().count(), 1, "{}", stderr(&output));
    assert!(stderr(&output).starts_with("error: no source named"), "{}", stderr(&output));
}

/// `GET path` on `port`, one request per connection: the status code and the body.
fn get(port: u16, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

#[test]
fn serve_answers_the_api_and_the_search_page_read_only_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader};
    let setup = Setup::new(config(32, 4, 8));
    setup.crawl(&["--host-interval", "0s"]);
    let run = setup.morgue(&["dedup"]);
    assert!(run.status.success(), "{}", stderr(&run));
    // Counts over time, with a chart.
    let counts = setup.morgue(&["counts", "--by", "month", "--format", "csv", "--chart", "c.svg"]);
    assert!(counts.status.success(), "{}", stderr(&counts));
    let csv = stdout(&counts);
    assert!(csv.starts_with("period,stories,clusters,all_stories,all_clusters,"), "{csv}");
    assert!(csv.lines().count() > 1, "{csv}");
    let svg = std::fs::read_to_string(setup.dir.path().join("c.svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2);
    let words = setup.morgue(&["top", "words", "--format", "csv", "--limit", "5"]);
    assert!(words.status.success(), "{}", stderr(&words));
    assert_eq!(stdout(&words).lines().count(), 6, "{}", stdout(&words));
    let png = setup.morgue(&["counts", "--chart", "c.png"]);
    assert_eq!(
        stderr(&png).trim_end(),
        "error: c.png: charts are drawn as SVG only (name the file .svg)"
    );
    let mut child = spawn_morgue(
        setup.dir.path(),
        &setup.with_database(&["serve", "--listen", "127.0.0.1:0"]),
        true,
    );
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let port: u16 = first
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let json = |path: &str| -> (u16, serde_json::Value) {
        let (status, body) = get(port, path);
        (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("{path}: {body}")))
    };

    // Pages follow on from `next` and together hold every story once.
    let count = setup.archive(async |archive| store::stories::count(archive).await.unwrap());
    let mut ids = Vec::new();
    let mut after = 0;
    loop {
        let (status, page) = json(&format!("/api/stories?limit=7&after={after}"));
        assert_eq!(status, 200);
        ids.extend(page["stories"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()));
        match page["next"].as_i64() {
            Some(next) => after = next,
            None => break,
        }
    }
    assert_eq!(ids.len() as u64, count);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));

    // The deduplicated view leaves out every story whose cluster another story stands for.
    let (_, deduplicated) = json("/api/stories?one_per_cluster=1&limit=500");
    let rows = deduplicated["stories"].as_array().unwrap();
    assert!(rows.len() < ids.len(), "nothing clustered");
    assert!(rows.iter().all(|r| r["representative"].is_null() || r["representative"] == r["id"]));

    // One story: its text, URLs and cluster.
    let clustered = rows.iter().find(|r| r["cluster"].is_i64()).expect("a clustered story");
    let (status, story) = json(&format!("/api/stories/{}", clustered["id"]));
    assert_eq!(status, 200);
    assert!(story["text"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(!story["urls"].as_array().unwrap().is_empty());
    assert_eq!(story["cluster"]["id"], clustered["cluster"]);

    // Errors: JSON with a status, never a crash.
    assert_eq!(json("/api/stories/999999").0, 404);
    assert_eq!(json("/api/stories?since=yesterday").0, 400);
    assert_eq!(json("/api/stories?source=Nowhere").0, 400);
    assert_eq!(json("/api/stories?limit=0").0, 400);
    // A query that does not parse, or names what the archive does not have: 400 and why.
    let (status, bad) = json("/api/stories?q=%28storm%20OR");
    assert_eq!(status, 400);
    assert!(bad["error"].as_str().unwrap().starts_with("query: at character 10: "), "{bad}");
    let (status, bad) = json("/api/stories?q=collection%3ANowhere");
    assert_eq!(
        (status, bad["error"].as_str().unwrap()),
        (400, "query: collection \"Nowhere\" is not in the archive")
    );
    assert_eq!(get(port, "/?q=%22open").0, 400);
    assert_eq!(json("/api/counts?q=NOT").0, 400);
    assert_eq!(json("/api/counts?by=year").0, 400);
    let (status, counts) = json("/api/counts?by=week");
    assert_eq!(status, 200);
    let weeks = counts["counts"].as_array().unwrap();
    assert!(!weeks.is_empty());
    let n = |week: &serde_json::Value, key: &str| week[key].as_u64().unwrap();
    assert!(
        weeks
            .iter()
            .all(|w| n(w, "clusters") <= n(w, "stories") && n(w, "stories") == n(w, "all_stories"))
    );
    assert!(weeks.iter().any(|w| n(w, "clusters") < n(w, "stories")), "copies folded: {counts}");
    let (status, top) = json("/api/top/sources?limit=3");
    assert_eq!(status, 200);
    let sources = top["top"].as_array().unwrap();
    assert!(!sources.is_empty() && sources.len() <= 3, "{top}");
    assert!(sources.windows(2).all(|p| n(&p[0], "stories") >= n(&p[1], "stories")), "{top}");
    let (status, top) = json("/api/top/words?limit=5");
    assert_eq!(status, 200);
    assert_eq!(top["top"].as_array().unwrap().len(), 5, "{top}");
    assert_eq!(json("/api/top/words?q=%28").0, 400);
    assert_eq!(json("/api/nothing").0, 404);

    // The page: a form and the titles, escaped.
    let (status, html) = get(port, "/?q=%3Cscript%3E");
    assert_eq!(status, 200);
    assert!(
        html.contains("<form") && html.contains("&lt;script&gt;") && !html.contains("<script>")
    );
    let title = story["title"].as_str().unwrap();
    let word = title.split_whitespace().max_by_key(|w| w.len()).unwrap();
    let (_, html) =
        get(port, &format!("/?q={}", word.trim_matches(|c: char| !c.is_alphanumeric())));
    assert!(html.contains(r#"<tr class="result">"#), "{html}");
    let story_page = format!("/stories/{}", clustered["id"]);
    let (status, html) = get(port, &story_page);
    assert_eq!(status, 200);
    assert!(html.contains("Seen at") && html.contains("Cluster "), "{html}");
    assert_eq!(get(port, "/stories/nothing").0, 404);

    let term = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(term.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

/// Issue 24's acceptance, on PostgreSQL: three `morgue crawl` workers on one archive, one killed
/// with SIGKILL midway and started again under its name; the run finishes with every article
/// stored once, every source searched once, no host asked twice within its interval by any two
/// workers (from the test web's request log), and nothing left leased, claimed or held.
#[test]
fn three_workers_on_one_postgres_archive_one_killed_and_restarted_share_the_work_politely() {
    let mut config = config(24, 8, 12);
    config.crawl_delay_every = 3;
    config.crawl_delay_secs = 0.3;
    let Some(setup) = Setup::on_postgres(config) else { return };
    let interval = Duration::from_millis(150);
    let worker_args = |name: &'static str| {
        setup.crawl_args(&["--host-interval", "150ms", "--max-time", "5s", "--worker", name])
    };
    let log = |name: &str| setup.dir.path().join(format!("{name}.log"));
    let mut workers: Vec<(&str, std::process::Child)> = ["w1", "w2", "w3"]
        .into_iter()
        .map(|name| (name, spawn_morgue_logging(setup.dir.path(), &worker_args(name), &log(name))))
        .collect();
    let midway = setup.web.wait_for(Duration::from_secs(120), |seen| {
        seen.iter().filter(|s| is_article(s)).count() >= 25
    });
    assert!(midway, "the workers never got going; w2's log:\n{}", read_log(&log("w2")));
    // Killed once every source is searched (a search killed midway is searched again, rightly),
    // checked at each request the web sees.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let unsearched = setup
            .archive(async |archive| store::sources::undiscovered(archive).await.unwrap().len());
        if unsearched == 0 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{unsearched} sources never searched");
        let before = setup.web.requests().len();
        setup.web.wait_for(Duration::from_secs(5), |seen| seen.len() > before);
    }
    // `morgue status` sees the workers at work.
    let status = setup.morgue(&["status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let shown = stdout(&status);
    assert!(shown.contains(": alive, heartbeat ") && shown.contains(" leased URLs"), "{shown}");
    // A worker still at work is killed (one with nothing left to do may have ended already: a
    // `--once` pass ends when it finds nothing to do and no search or poll elsewhere).
    let victim = workers
        .iter_mut()
        .position(|(_, child)| child.try_wait().unwrap().is_none())
        .expect("every worker ended before one could be killed");
    let name = workers[victim].0;
    assert!(shown.contains(&format!("  {name} on ")), "{name} missing from:\n{shown}");
    workers[victim].1.kill().unwrap(); // SIGKILL
    workers[victim].1.wait().unwrap();
    // Pages requested by then but not archived (in flight in any worker, the victim's among
    // them) may be requested again; every other page never is.
    let archived: std::collections::HashSet<String> = setup.archive(async |archive| {
        store::fetches::archived_pages(archive).await.unwrap().into_iter().collect()
    });
    let mut in_flight: std::collections::HashSet<String> = article_requests(&setup.web.requests())
        .into_keys()
        .filter(|page| {
            let (host, path) = page.split_once('/').unwrap_or((page.as_str(), ""));
            let url = format!("http://{host}:{}/{path}", setup.web.port());
            let key = normalizer::lossy_url(&url).unwrap_or_default();
            !archived.contains(&key)
        })
        .collect();
    // The victim's leases too: a request it sent just before it died may reach the test web's
    // log only after the snapshot above (the server reads it from the socket when its turn comes).
    // A lease of a `/go/` link stands for the article it redirects to: the victim may have
    // followed the redirect, its article request still unread when it died.
    let leased =
        setup.archive(async |archive| store::frontier::leased_by(archive, name).await.unwrap());
    let world = setup.web.world();
    for entry in leased {
        let url = url::Url::parse(&entry.url).unwrap();
        let host = url.host_str().unwrap_or_default().trim_start_matches("m.");
        let path = world
            .site_by_host(host)
            .and_then(|site| world.redirected(site, url.path()))
            .map_or_else(|| url.path().to_owned(), |article| article.path);
        in_flight.insert(format!("{host}{path}"));
    }
    let again = format!("{name}-again");
    let restarted = spawn_morgue_logging(setup.dir.path(), &worker_args(name), &log(&again));
    workers[victim] = (name, restarted);
    for (name, child) in &mut workers {
        let status = child.wait().unwrap();
        assert!(status.success(), "{name} failed: {}", read_log(&log(name)));
    }

    setup.assert_reachable_stored_once(0);
    setup.assert_no_leases_or_workers_left();
    let (claims, held) = setup.archive(async |archive| {
        (store::claims::list(archive).await.unwrap(), store::turns::held(archive).await.unwrap())
    });
    assert!(claims.is_empty(), "claims left behind: {claims:?}");
    let status = stdout(&setup.morgue(&["status"]));
    assert!(status.starts_with("workers: 0\n"), "{status}");
    assert!(status.contains("sources: 8 (0 never searched)"), "{status}");
    assert!(held.is_empty(), "host turns left held: {held:?}");
    let too_soon = setup.web.too_soon(interval, Duration::from_millis(10));
    assert!(too_soon.is_empty(), "requests closer than a host's interval: {too_soon:?}");
    let seen = setup.web.requests();
    for site in &setup.web.world().sites {
        let searches = seen.iter().filter(|s| s.host == site.host && s.path == "/").count();
        assert_eq!(searches, 1, "{} was searched {searches} times", site.host);
    }
    assert!(in_flight.len() <= 3 * 16, "{} pages in flight at the kill", in_flight.len());
    setup.assert_each_article_page_requested_once(&in_flight);
}

fn read_log(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The value of the sample `name` (with its labels, as written) in Prometheus text.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[test]
fn run_serves_metrics_whose_counters_move_with_the_crawl() {
    use std::io::{BufRead, BufReader};
    let setup = Setup::new(config(29, 3, 6));
    let mut args = setup.crawl_args(&["--host-interval", "0s", "--metrics", "127.0.0.1:0"]);
    args[0] = "run";
    args.retain(|a| *a != "--once");
    let mut child = spawn_morgue(setup.dir.path(), &args, true);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let addr = first.strip_prefix("metrics on http://").unwrap().trim_end_matches("/metrics");
    let port: u16 = addr.rsplit_once(':').unwrap().1.parse().unwrap();

    let (status, text) = get(port, "/metrics");
    assert_eq!(status, 200, "{text}");
    for family in [
        "# TYPE morgue_fetches counter",
        "# TYPE morgue_fetched_bytes counter",
        "# TYPE morgue_fetch_duration_seconds histogram",
        "# TYPE morgue_queue_depth gauge",
        "# TYPE morgue_stories_per_minute gauge",
        "# TYPE morgue_dedup_lag_stories gauge",
    ] {
        assert!(text.contains(family), "{family} missing from:\n{text}");
    }
    assert!(text.ends_with("# EOF\n"), "{text}");
    assert_eq!(get(port, "/other").0, 404);

    // Waits for the crawl to store every reachable article, as the metrics say.
    let since = chrono::Utc::now() - chrono::Duration::days(7);
    let reachable = setup.web.world().reachable(since).len() as f64;
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let text = loop {
        let before = setup.web.requests().len();
        let (_, text) = get(port, "/metrics");
        if sample(&text, "morgue_stories_stored_total") == Some(reachable) {
            break text;
        }
        assert!(std::time::Instant::now() < deadline, "the crawl never finished:\n{text}");
        setup.web.wait_for(Duration::from_millis(500), |seen| seen.len() > before);
    };
    assert!(sample(&text, "morgue_fetches_total{outcome=\"2xx\"}").unwrap() >= reachable, "{text}");
    assert!(sample(&text, "morgue_fetched_bytes_total").unwrap() > 0.0, "{text}");
    assert!(sample(&text, "morgue_fetch_duration_seconds_count").unwrap() >= reachable, "{text}");
    assert!(sample(&text, "morgue_stories_per_minute").unwrap() >= reachable / 10.0, "{text}");
    assert_eq!(sample(&text, "morgue_archive_stories"), Some(reachable), "{text}");
    assert_eq!(sample(&text, "morgue_dedup_lag_stories"), Some(reachable), "{text}");
    assert_eq!(sample(&text, "morgue_queue_depth{kind=\"frontier_pending\"}"), Some(0.0), "{text}");
    assert!(sample(&text, "morgue_queue_depth{kind=\"frontier_done\"}").unwrap() >= reachable);

    let term = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(term.success());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

/// An archive's content, independent of ids and of the test web's port: stories (URL, title,
/// text), the URLs each is known by (their lossy keys), duplicate links and clusters, each named
/// by their stories' lossy URLs.
#[derive(Debug, PartialEq, Eq)]
struct Content {
    stories: std::collections::BTreeSet<(String, String, String)>,
    urls: std::collections::BTreeSet<(String, String)>,
    links: std::collections::BTreeSet<(String, String, String)>,
    clusters: std::collections::BTreeSet<Vec<String>>,
}

impl Setup {
    fn content(&self) -> Content {
        content_of(&self.database_url(), self.web.port())
    }
}

/// The content of the archive at `url`, the test web's `port` left out of its URLs.
fn content_of(url: &str, port: u16) -> Content {
    let port = format!(":{port}");
    let strip = |url: &str| url.replace(&port, "");
    block_on(async {
        let archive = Archive::open(url, OpenMode::Existing).await.unwrap();
        let content = {
            let archive = &archive;
            let mut all = Vec::new();
            let mut after = 0;
            loop {
                let filter = store::stories::Filter::default();
                let page = store::stories::page(archive, &filter, after, 500).await.unwrap();
                let Some(last) = page.last() else { break };
                after = last.id;
                all.extend(page);
            }
            // A story is named by the least lossy key of its URLs, not by the URL it was first
            // stored under: a page reached both by a feed's redirecting link and by the sitemap
            // keeps whichever came first as its URL (in any run; a crash changes the order),
            // while the set of its URLs is the same.
            let mut urls_of: std::collections::HashMap<i64, Vec<String>> = Default::default();
            for story in &all {
                let mut urls: Vec<String> = store::stories::urls(archive, story.id)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|url| strip(&normalizer::lossy_url(&url.url).unwrap_or(url.url)))
                    .collect();
                urls.push(strip(&story.story.lossy_url));
                urls.sort();
                urls.dedup();
                urls_of.insert(story.id, urls);
            }
            let key_of: std::collections::HashMap<i64, String> =
                urls_of.iter().map(|(&id, urls)| (id, urls[0].clone())).collect();
            let mut content = Content {
                stories: Default::default(),
                urls: Default::default(),
                links: Default::default(),
                clusters: Default::default(),
            };
            for story in &all {
                let key = key_of[&story.id].clone();
                let title = story.story.title.clone().unwrap_or_default();
                content.stories.insert((key.clone(), title, story.story.text.clone()));
                // By lossy key: which variant of a URL a story keeps (a feed's with tracking
                // parameters, or a sitemap's) depends on which poll queued it first, in any run.
                for url in &urls_of[&story.id] {
                    content.urls.insert((key.clone(), url.clone()));
                }
                for link in store::duplicates::involving(archive, story.id).await.unwrap() {
                    let (a, b) = (&key_of[&link.link.story_id], &key_of[&link.link.of_story_id]);
                    content.links.insert((a.clone(), b.clone(), link.link.method.clone()));
                }
                if let Some(cluster) = store::clusters::of_story(archive, story.id).await.unwrap() {
                    let mut members: Vec<String> =
                        cluster.members.iter().map(|m| key_of[&m.story_id].clone()).collect();
                    members.sort();
                    content.clusters.insert(members);
                }
            }
            content
        };
        archive.close().await.unwrap();
        content
    })
}

impl Setup {
    /// Runs `morgue ARGS` and kills it (SIGKILL) once `ready` says so, asked at every request the
    /// test web sees (every 10 ms without requests); returns whether it was killed (it may end
    /// first).
    fn killed_when(&self, args: &[&str], ready: impl Fn(&Setup) -> bool) -> bool {
        let log = self.dir.path().join("killed.log");
        let mut child = spawn_morgue_logging(self.dir.path(), &self.with_database(args), &log);
        loop {
            if child.try_wait().unwrap().is_some() {
                return false;
            }
            if ready(self) {
                child.kill().unwrap();
                child.wait().unwrap();
                return true;
            }
            let before = self.web.requests().len();
            self.web.wait_for(Duration::from_millis(10), |seen| seen.len() > before);
        }
    }
}

/// A seeded generator (splitmix64) of kill points.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n.max(1)
    }
}

/// Crawls, re-extracts and dedups the web of `config` on an archive, uninterrupted, and for each
/// seed on a new archive with the process killed at a random point of each stage (by observed
/// progress: article requests for the crawl, signatures stored for `dedup`; a moment of the
/// uninterrupted run's length for `reextract`) and run again: the archives end the same.
fn killed_at_random_points_ends_like_an_uninterrupted_run(
    backend: fn() -> Option<Backend>,
    seeds: &[u64],
) {
    let config = config(41, 5, 8);
    let crawl: &[&str] = &[
        "crawl",
        "--once",
        "--allow-private-addresses",
        "--resolve",
        "*.test=127.0.0.1",
        "--host-interval",
        "0s",
        "--worker",
        "crasher",
    ];
    let reextract: &[&str] = &["reextract", "--all"];
    let dedup: &[&str] = &["dedup", "--threads", "2"];
    let Some(place) = backend() else { return };
    let reference = Setup::on(place, config.clone());
    let mut reextract_time = Duration::ZERO;
    for args in [crawl, reextract, dedup] {
        let started = std::time::Instant::now();
        let output = reference.morgue(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        if args == reextract {
            reextract_time = started.elapsed();
        }
    }
    let expected = reference.content();
    let stories = expected.stories.len() as u64;
    assert!(stories > 20 && !expected.links.is_empty() && !expected.clusters.is_empty());
    // How many re-extractions and dedup runs were killed before they ended (a kill point late in
    // a run may come after its end).
    let mut kills = [0u32; 3];
    for &seed in seeds {
        let mut rng = Rng(seed);
        let Some(place) = backend() else { return };
        let setup = Setup::on(place, config.clone());
        // The crawl, killed after a random number of article requests.
        let articles = 1 + rng.below(stories - 1) as usize;
        setup.killed_when(crawl, |s| {
            s.web.requests().iter().filter(|r| is_article(r)).count() >= articles
        });
        let output = setup.morgue(crawl);
        assert!(output.status.success(), "seed {seed}: {}", stderr(&output));
        // Re-extraction, killed at a random moment of its length in the uninterrupted run
        // (re-extracting `--all` with the same extractor changes no row it could be watched by).
        let at = reextract_time.mul_f64(rng.below(1000) as f64 / 1000.0);
        let started = std::time::Instant::now();
        kills[1] += u32::from(setup.killed_when(reextract, |_| started.elapsed() >= at));
        let output = setup.morgue(reextract);
        assert!(output.status.success(), "seed {seed}: {}", stderr(&output));
        // Dedup, killed once a random number of signatures are stored.
        let signed = 1 + rng.below(stories);
        kills[2] += u32::from(setup.killed_when(dedup, |s| {
            s.archive(async |archive| store::signatures::count(archive).await.unwrap()) >= signed
        }));
        let output = setup.morgue(dedup);
        assert!(output.status.success(), "seed {seed}: {}", stderr(&output));
        let content = setup.content();
        assert_eq!(content.stories, expected.stories, "seed {seed}: stories");
        assert_eq!(content.urls, expected.urls, "seed {seed}: story URLs");
        assert_eq!(content.links, expected.links, "seed {seed}: duplicate links");
        assert_eq!(content.clusters, expected.clusters, "seed {seed}: clusters");
    }
    assert!(kills[2] > 0, "no dedup run was killed before it ended");
}

#[test]
fn killed_at_random_points_of_crawl_reextract_and_dedup_the_archive_ends_the_same() {
    killed_at_random_points_ends_like_an_uninterrupted_run(|| Some(Backend::Sqlite), &[1, 2, 3]);
}

#[test]
fn killed_at_random_points_of_crawl_reextract_and_dedup_the_archive_ends_the_same_on_postgres() {
    killed_at_random_points_ends_like_an_uninterrupted_run(Backend::postgres, &[4, 5]);
}

#[test]
fn copy_moves_a_sqlite_archive_to_postgres_every_row_verified_all_or_nothing() {
    let setup = Setup::new(config(43, 4, 6));
    setup.crawl(&["--host-interval", "0s"]);
    let dedup = setup.morgue(&["dedup", "--threads", "2"]);
    assert!(dedup.status.success(), "{}", stderr(&dedup));
    let Some(Backend::Postgres(target)) = Backend::postgres() else { return };
    let output = setup.morgue(&["copy", "--to", &target.url]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    let expected = setup.content();
    assert!(!expected.links.is_empty() && !expected.clusters.is_empty());
    let stories = expected.stories.len();
    for table in ["media_sources", "feeds", "frontier", "fetches", "story_urls", "sentences"] {
        assert!(
            printed.lines().any(|l| l.starts_with(table) && l.contains(" rows  sha256 ")),
            "{table}: {printed}"
        );
    }
    let line = printed.lines().find(|l| l.starts_with("stories ")).unwrap();
    assert!(line.contains(&format!(" {stories} rows  sha256 ")), "{printed}");
    assert!(printed.contains("counts and checksums match"), "{printed}");
    assert_eq!(content_of(&target.url, setup.web.port()), expected);

    // The copy is an archive of its own: new rows get new ids.
    let add = morgue(
        setup.dir.path(),
        &[
            "sources",
            "add",
            "--name",
            "later",
            "--homepage",
            "http://later.test/",
            "--database-url",
            &target.url,
        ],
    );
    assert!(add.status.success(), "{}", stderr(&add));

    // A destination that is not empty is refused with one line, and left as it was.
    let again = setup.morgue(&["copy", "--to", &target.url]);
    assert!(!again.status.success());
    let error = stderr(&again);
    assert!(error.contains("not empty: media_sources has"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert_eq!(content_of(&target.url, setup.web.port()), expected);
}
