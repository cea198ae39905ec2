//! Opening archives, migrations, and bad database URLs.

use store::{Archive, Error, OpenMode};

use store::on_both_backends;

on_both_backends! {
    async fn migrating_twice_is_a_no_op(archive: &Archive) {
        // The harness migrated once already; data written since must survive a second run.
        crate::source(archive, "kept").await;
        let second = archive.migrate().await.expect("second migration");
        assert!(second.applied.is_empty(), "nothing to apply: {second:?}");
        assert_eq!(second.current, ["m0001_archive", "m0002_word_search", "m0003_workers", "m0004_link_explanations", "m0005_refold_search_words", "m0006_queries_and_collections", "m0007_cluster_representatives", "m0008_host_turns", "m0009_claims", "m0011_fetch_requests", "m0012_phrase_pairs", "m0013_fetch_lossy_urls", "m0014_story_days", "m0015_folded_totals", "m0016_story_words", "m0017_fact_changes", "m0018_fact_changes_trimmed", "m0019_story_day_ids", "m0020_story_terms"]);
        let third = archive.migrate().await.expect("third migration");
        assert_eq!(third, second);
        archive.check_schema().await.expect("schema is current");
        assert_eq!(store::sources::list(archive).await.unwrap().len(), 1);
    }
}

#[tokio::test]
async fn a_new_sqlite_archive_reports_what_it_applied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    let url = format!("sqlite:{}", path.display());
    let archive = Archive::open(&url, OpenMode::Create).await.unwrap();
    assert!(matches!(archive.check_schema().await, Err(Error::SchemaOutOfDate { pending: 19 })));
    let report = archive.migrate().await.unwrap();
    assert_eq!(
        report.applied,
        [
            "m0001_archive",
            "m0002_word_search",
            "m0003_workers",
            "m0004_link_explanations",
            "m0005_refold_search_words",
            "m0006_queries_and_collections",
            "m0007_cluster_representatives",
            "m0008_host_turns",
            "m0009_claims",
            "m0011_fetch_requests",
            "m0012_phrase_pairs",
            "m0013_fetch_lossy_urls",
            "m0014_story_days",
            "m0015_folded_totals",
            "m0016_story_words",
            "m0017_fact_changes",
            "m0018_fact_changes_trimmed",
            "m0019_story_day_ids",
            "m0020_story_terms"
        ]
    );
    assert_eq!(report.current, report.applied);
    archive.close().await.unwrap();

    // Reopening an existing archive needs no creation and finds the schema current.
    let reopened = Archive::open(&url, OpenMode::Existing).await.unwrap();
    reopened.check_schema().await.unwrap();
    assert!(reopened.migrate().await.unwrap().applied.is_empty());
}

#[tokio::test]
async fn a_missing_sqlite_archive_is_not_created_by_accident() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.db");
    let err = Archive::open(path.to_str().unwrap(), OpenMode::Existing).await.unwrap_err();
    assert!(matches!(err, Error::Connect { .. }), "{err:?}");
    assert!(!path.exists());
}

#[tokio::test]
async fn an_unreachable_postgres_names_the_url_without_its_password() {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    let err = Archive::open("postgres://morgue:hunter2@127.0.0.1:1/archive", OpenMode::Existing)
        .await
        .unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, Error::Connect { .. }), "{err:?}");
    assert!(message.contains("postgres://morgue:***@127.0.0.1:1/archive"), "{message}");
    assert!(!format!("{err:?}").contains("hunter2"), "{err:?}");
}

#[tokio::test]
async fn malformed_urls_are_refused_before_connecting() {
    for url in ["mysql://u:hunter2@h/db", "postgres://u:hunter2@[::1/db", "sqlite:"] {
        let err = Archive::open(url, OpenMode::Create).await.unwrap_err();
        assert!(matches!(err, Error::BadUrl { .. }), "{url}: {err:?}");
        assert!(!err.to_string().contains("hunter2"), "{err}");
    }
}

/// A write transaction that the full disk ended must not leave its connection believing it is
/// still in one: sqlx then opens the next "transaction" on that connection as a `SAVEPOINT`,
/// which SQLite starts deferred, without the write lock, and whose first write after another
/// connection's commit fails at once with `SQLITE_BUSY_SNAPSHOT` (a crawl that filled the disk
/// stopped with "database is locked" instead of "disk is full"). Every write transaction taken
/// afterwards must hold the write lock from its start: a second connection cannot take it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_full_disk_every_write_transaction_holds_the_write_lock_from_its_start() {
    use sea_orm::sqlx::{Connection as _, Executor as _};

    let test = store::testing::sqlite().await;
    let source = crate::source(&test.archive, "filling").await;
    let first = crate::story(&test.archive, source.id, "first").await;
    let (_check, pages) = store::testing::sqlite_integrity(&test.archive).await;
    test.archive.clone().close().await.expect("close");
    let full = Archive::open_sqlite_with_page_limit(&test.url, pages + 4).await.expect("open");

    // Stories of many sizes and their sentences until the disk has been found full many times,
    // on concurrent tasks so that the pool opens more than one connection. Which statement of a
    // transaction finds the disk full varies; when it is one without a statement journal (a
    // sentence's one row), SQLite rolls back the whole transaction itself.
    let (mut full_stories, mut full_sentences) = (0, 0);
    for round in 0..400_i64 {
        let writes: Vec<_> = (0..3_i64)
            .map(|task| {
                let new = store::stories::NewStory {
                    source_id: source.id,
                    url: format!("http://daily.example/{round}/{task}"),
                    lossy_url: format!("http://daily.example/{round}/{task}"),
                    extractor_version: "test-1".to_owned(),
                    text: "Words that fill the disk. "
                        .repeat(((round * 37 + task * 11) % 300) as usize),
                    ..store::stories::NewStory::default()
                };
                let full = full.clone();
                tokio::spawn(async move {
                    let hashes: Vec<i64> =
                        (0..1 + (round + task) % 4).map(|k| round * 16 + task * 4 + k).collect();
                    let sentences = store::sentences::StorySentences {
                        source_id: source.id,
                        week_start: chrono::NaiveDate::from_ymd_opt(2026, 11, 23).expect("a day"),
                        story_id: first,
                        published_at: crate::at(23, 9),
                        hashes: &hashes,
                    };
                    let recorded = store::sentences::record_story(&full, &sentences).await;
                    (store::stories::insert(&full, &new).await.map(|_| ()), recorded.map(|_| ()))
                })
            })
            .collect();
        for write in writes {
            let (story, sentences) = write.await.expect("the task");
            for (result, count) in [(story, &mut full_stories), (sentences, &mut full_sentences)] {
                match result {
                    Ok(()) => {}
                    Err(err) if err.is_full() => *count += 1,
                    Err(err) => panic!("{err:?}"),
                }
            }
        }
        if full_sentences >= 3 {
            break;
        }
    }
    assert!(full_sentences >= 3, "sentences found the disk full {full_sentences} times");
    assert!(full_stories > 0, "stories never found the disk full");

    let options = sea_orm::sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&test.url)
        .busy_timeout(std::time::Duration::ZERO);
    let mut other = sea_orm::sqlx::SqliteConnection::connect_with(&options).await.expect("connect");
    // More rounds than the pool has connections: the pool hands its idle connections out in
    // turn, so every one of them is tried.
    for round in 0..12 {
        let held = store::testing::uncommitted(&full, "SELECT 1").await;
        let taken = other.execute("BEGIN IMMEDIATE").await;
        if taken.is_ok() {
            other.execute("ROLLBACK").await.expect("rollback");
        }
        assert!(taken.is_err(), "round {round}: a write transaction did not hold the write lock");
        drop(held);
    }
    other.close().await.expect("close");
    full.close().await.expect("close");
}

/// Every pooled PostgreSQL connection plans each statement for its own values: a generic plan
/// kept after five runs of a prepared statement walked a window of days testing every story's
/// terms (`archive.rs`, `postgres_options`).
#[tokio::test]
async fn every_postgres_connection_plans_each_statement_for_its_values() {
    let Some(test) = store::testing::postgres().await else { return };
    // Asked at once (each holds its connection a moment), so that the pool opens several.
    let sql = "SELECT current_setting('plan_cache_mode') || left(pg_sleep(0.05)::text, 0)";
    let ask = || store::testing::text(&test.archive, sql);
    let modes = tokio::join!(ask(), ask(), ask(), ask());
    assert_eq!(<[String; 4]>::from(modes), ["force_custom_plan"; 4].map(String::from));
}
