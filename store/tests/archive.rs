//! Opening archives, migrations, and bad database URLs.

use store::{Archive, Error, OpenMode};

use store::on_both_backends;

on_both_backends! {
    async fn migrating_twice_is_a_no_op(archive: &Archive) {
        // The harness migrated once already; data written since must survive a second run.
        crate::source(archive, "kept").await;
        let second = archive.migrate().await.expect("second migration");
        assert!(second.applied.is_empty(), "nothing to apply: {second:?}");
        assert_eq!(second.current, ["m0001_archive", "m0002_word_search", "m0003_workers", "m0004_link_explanations", "m0005_refold_search_words", "m0006_queries_and_collections", "m0007_cluster_representatives", "m0008_host_turns", "m0009_claims", "m0011_fetch_requests", "m0012_phrase_pairs", "m0013_fetch_lossy_urls", "m0014_story_days", "m0015_folded_totals", "m0016_story_words", "m0017_fact_changes", "m0018_fact_changes_trimmed"]);
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
    assert!(matches!(archive.check_schema().await, Err(Error::SchemaOutOfDate { pending: 17 })));
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
            "m0018_fact_changes_trimmed"
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
