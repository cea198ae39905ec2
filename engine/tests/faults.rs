//! The crawl under faults, on both backends: a worker whose clock is off, and an archive whose
//! disk fills up mid-crawl.

use std::time::Duration;

use engine::crawl::Mode;
use store::testing::TestArchive;
use store::{Archive, OpenMode};

use crate::crawl::{
    assert_no_leases_or_workers_left, assert_reachable_stored_once, config, crawl_once, engine,
    on_both_backends, settings, web,
};

on_both_backends! {
    a_worker_whose_clock_is_minutes_off_refuses_to_start_and_touches_nothing:
        refuses_a_clock_far_off;
    a_worker_whose_clock_is_seconds_off_stamps_its_work_in_the_databases_time:
        corrects_a_clock_a_little_off;
    a_crawl_that_fills_the_disk_stops_with_full_and_the_rerun_loses_nothing:
        stops_on_a_full_disk_and_finishes_after;
}

async fn refuses_a_clock_far_off(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(61, 2, 3)).await;
    for skew in [chrono::Duration::minutes(5), chrono::Duration::minutes(-3)] {
        let (engine, _progress, _stop) =
            engine(archive, settings("skewed", Duration::ZERO), Mode::Once);
        engine.clock().set_skew(skew);
        let err = engine.run().await.expect_err("a clock minutes off is refused");
        assert!(matches!(err, engine::Error::ClockSkew { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.contains("clock") && !message.contains('\n'), "{message}");
    }
    assert!(web.requests().is_empty(), "a refused worker fetched something");
    assert_no_leases_or_workers_left(archive).await;
    let sources = store::sources::list(archive).await.expect("sources");
    assert!(sources.iter().all(|source| source.discovered_at.is_none()));
}

async fn corrects_a_clock_a_little_off(test: TestArchive) {
    let archive = &test.archive;
    let web = web(archive, config(62, 3, 4)).await;
    let skew = chrono::Duration::seconds(40);
    let (engine, _progress, _stop) =
        engine(archive, settings("ahead", Duration::from_millis(20)), Mode::Once);
    engine.clock().set_skew(skew);
    engine.run().await.expect("a clock 40 s off is corrected, not refused");
    let measured = engine.clock().offset();
    assert!((measured + skew).abs() < chrono::Duration::seconds(2), "offset {measured}");
    assert_reachable_stored_once(archive, &web).await;
    assert_no_leases_or_workers_left(archive).await;
    // Every time the worker wrote is the database's, not its clock 40 s ahead.
    let database = store::workers::database_now(archive).await.expect("the database's clock");
    let slack = chrono::Duration::seconds(2);
    let sources = store::sources::list(archive).await.expect("sources");
    for source in &sources {
        let at = source.discovered_at.expect("searched");
        assert!(at <= database + slack, "searched at {at}, database now {database}");
    }
    let feeds = store::feeds::list(archive).await.expect("feeds");
    let polled: Vec<_> = feeds.iter().filter_map(|feed| feed.last_polled_at).collect();
    assert!(!polled.is_empty());
    assert!(polled.iter().all(|at| *at <= database + slack), "{polled:?} vs {database}");
}

/// Makes the archive's disk full after a few stories: on SQLite a page limit a little above the
/// file's size; on PostgreSQL a trigger raising `disk_full` (SQLSTATE 53100) on inserting a story
/// once there are three. Returns the archive to crawl into.
async fn nearly_full(test: &TestArchive) -> Archive {
    match test.backend() {
        "sqlite" => {
            let (check, pages) = store::testing::sqlite_integrity(&test.archive).await;
            assert_eq!(check, "ok");
            // One pool on the file at a time, as one `morgue crawl` has.
            test.archive.clone().close().await.expect("close");
            Archive::open_sqlite_with_page_limit(&test.url, pages + 60)
                .await
                .expect("open with a page limit")
        }
        _ => {
            test.archive
                .execute_unprepared(
                    "CREATE FUNCTION morgue_test_disk_full() RETURNS trigger AS $$ BEGIN \
                     IF (SELECT count(*) FROM stories) >= 3 THEN \
                     RAISE EXCEPTION 'could not extend file: No space left on device' \
                     USING ERRCODE = '53100'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql; \
                     CREATE TRIGGER morgue_test_disk_full BEFORE INSERT ON stories \
                     FOR EACH ROW EXECUTE FUNCTION morgue_test_disk_full();",
                )
                .await
                .expect("the disk-full trigger");
            test.archive.clone()
        }
    }
}

/// Frees the space [`nearly_full`] took away.
async fn free_space(test: &TestArchive) {
    if test.backend() == "postgres" {
        test.archive
            .execute_unprepared(
                "DROP TRIGGER morgue_test_disk_full ON stories; \
                 DROP FUNCTION morgue_test_disk_full();",
            )
            .await
            .expect("drop the trigger");
    }
}

async fn stops_on_a_full_disk_and_finishes_after(test: TestArchive) {
    let web = web(&test.archive, config(63, 4, 8)).await;
    let full = nearly_full(&test).await;
    let (engine, _progress, _stop) = engine(&full, settings("filler", Duration::ZERO), Mode::Once);
    let err = engine.run().await.expect_err("the disk fills up");
    assert!(err.is_full(), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("disk is full") && !message.contains('\n'), "{message}");
    engine.finish().await;
    drop(engine);
    if test.backend() == "sqlite" {
        full.close().await.expect("close");
    }

    // The archive opens, is sound, and every story stored is whole.
    let archive = Archive::open(&test.url, OpenMode::Existing).await.expect("opens afterwards");
    archive.check_schema().await.expect("the schema is intact");
    if test.backend() == "sqlite" {
        let (check, _pages) = store::testing::sqlite_integrity(&archive).await;
        assert_eq!(check, "ok");
    }
    let stored =
        store::stories::page(&archive, &Default::default(), 0, 10_000).await.expect("read");
    assert!(!stored.is_empty(), "some stories were stored before the disk filled up");
    for story in &stored {
        let urls = store::stories::urls(&archive, story.id).await.expect("urls");
        assert!(!urls.is_empty(), "story {} has no URL rows", story.id);
        assert!(!story.story.text.is_empty(), "story {} has no text", story.id);
        assert!(urls.iter().any(|url| url.url == story.story.url), "story {}", story.id);
    }

    // Space freed, the same worker crawls again: nothing is lost or stored twice.
    free_space(&test).await;
    crawl_once(&archive, settings("filler", Duration::ZERO)).await;
    let stories = assert_reachable_stored_once(&archive, &web).await;
    assert!(stories > stored.len() as u64, "the rerun stored what the full disk kept out");
    assert_no_leases_or_workers_left(&archive).await;
    archive.close().await.expect("close");
}
