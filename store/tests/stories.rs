//! Stories and their URLs.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use store::search;
use store::stories::{self, Inserted, NewStory, UrlKind};
use store::{Archive, Error};

use store::on_both_backends;

fn new(source_id: i64, path: &str, title: &str) -> NewStory {
    NewStory {
        source_id,
        fetch_id: None,
        url: format!("https://www.daily.example/{path}?utm_source=rss"),
        lossy_url: format!("http://daily.example/{path}"),
        canonical_url: Some(format!("https://daily.example/{path}")),
        title: Some(title.to_owned()),
        normalized_title: Some(title.to_lowercase()),
        text: "Primer párrafo.\n\nSegundo párrafo.".to_owned(),
        language: Some("es".to_owned()),
        authors: vec!["Ana Pérez".to_owned(), "Luis Gómez".to_owned()],
        published_at: Some(crate::at(3, 9)),
        published_day: NaiveDate::from_ymd_opt(2026, 11, 3),
        provenance: BTreeMap::from([
            ("title".to_owned(), "og:title".to_owned()),
            ("published_at".to_owned(), "json-ld:datePublished".to_owned()),
        ]),
        extractor_version: "test-1".to_owned(),
    }
}

on_both_backends! {
    async fn writers_at_once_never_find_the_database_locked(archive: &Archive) {
        // Four writers at once over the pool's connections: on SQLite a deferred transaction failed
        // with "database is locked" when another committed between its first statement and its
        // write, which no busy timeout waits out.
        let source = crate::source(archive, "daily").await;
        let writer = |name: &'static str| async move {
            for i in 0..40 {
                let story = new(source.id, &format!("{name}/{i}"), "Headline");
                stories::insert(archive, &story).await.unwrap();
            }
        };
        tokio::join!(writer("a"), writer("b"), writer("c"), writer("d"));
        assert_eq!(stories::count(archive).await.unwrap(), 160);
    }

    async fn round_trip(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let inserted = stories::insert(archive, &new(source.id, "a", "Headline")).await.unwrap();
        let Inserted::New(story) = inserted else { panic!("expected new: {inserted:?}") };
        assert_eq!(story.story, new(source.id, "a", "Headline"));
        assert_eq!(stories::get(archive, story.id).await.unwrap(), story);
        assert_eq!(stories::by_lossy_url(archive, "http://daily.example/a").await.unwrap(), Some(story.clone()));
        assert_eq!(stories::count(archive).await.unwrap(), 1);

        let urls = stories::urls(archive, story.id).await.unwrap();
        assert_eq!(urls.len(), 1);
        assert_eq!((urls[0].url.as_str(), urls[0].kind), (story.story.url.as_str(), UrlKind::First));
        assert_eq!(stories::by_url(archive, &story.story.url).await.unwrap(), Some(story));
    }

    async fn a_batch_is_inserted_as_each_story_would_be(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let stored = stories::insert(archive, &new(source.id, "a", "Headline")).await.unwrap().story().id;
        let mut again = new(source.id, "b", "Second sighting");
        again.url = "https://m.daily.example/b".to_owned();
        let batch = [new(source.id, "a", "Later"), new(source.id, "b", "Headline b"), new(source.id, "c", "Headline c"), again];
        let ids = stories::insert_batch(archive, &batch).await.unwrap();
        assert_eq!(ids.len(), 4);
        assert_eq!(ids[0], (stored, false));
        assert!(ids[1].1 && ids[2].1 && ids[1].0 != ids[2].0);
        // The second sighting of `b` in the batch finds the first.
        assert_eq!(ids[3], (ids[1].0, false));
        assert_eq!(stories::count(archive).await.unwrap(), 3);
        let b = stories::get(archive, ids[1].0).await.unwrap();
        assert_eq!(b.story, new(source.id, "b", "Headline b"));
        let urls = stories::urls(archive, b.id).await.unwrap();
        assert_eq!((urls.len(), urls[0].kind), (1, UrlKind::First));
        assert_eq!(stories::get(archive, stored).await.unwrap().story.title.as_deref(), Some("Headline"));
        // Found by its words and its phrases, as a story inserted alone.
        for text in ["segundo", "\"headline c\""] {
            let filter = crate::query::filter(archive, text).await;
            let found: Vec<i64> = stories::page(archive, &filter, 0, 10).await.unwrap().iter().map(|story| story.id).collect();
            let expected = if text == "segundo" { vec![stored, ids[1].0, ids[2].0] } else { vec![ids[2].0] };
            assert_eq!(found, expected, "{text}");
        }
        assert!(stories::insert_batch(archive, &[]).await.unwrap().is_empty());
    }

    async fn the_first_sighting_of_a_lossy_url_wins(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let first = stories::insert(archive, &new(source.id, "a", "Headline")).await.unwrap();
        let mut later = new(source.id, "a", "Another headline");
        later.url = "https://m.daily.example/a#comments".to_owned();
        let again = stories::insert(archive, &later).await.unwrap();
        assert_eq!(again, Inserted::Existing(first.story().clone()));
        assert_eq!(stories::count(archive).await.unwrap(), 1);
        assert_eq!(stories::urls(archive, first.story().id).await.unwrap().len(), 1);
    }

    async fn url_variants_are_recorded_once(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let story = stories::insert(archive, &new(source.id, "a", "Headline")).await.unwrap();
        let id = story.story().id;
        let variant = "https://m.daily.example/a#comments";
        let (row, is_new) = stories::add_url(archive, id, variant, "http://daily.example/a", UrlKind::Variant).await.unwrap();
        assert!(is_new);
        assert_eq!((row.story_id, row.kind), (id, UrlKind::Variant));
        let (again, is_new) = stories::add_url(archive, id, variant, "http://daily.example/a", UrlKind::Variant).await.unwrap();
        assert!(!is_new);
        assert_eq!(again, row);
        for kind in [UrlKind::Redirect, UrlKind::Canonical, UrlKind::Title] {
            let url = format!("https://daily.example/{}", kind.as_str());
            stories::add_url(archive, id, &url, "http://daily.example/x", kind).await.unwrap();
        }
        let kinds: Vec<UrlKind> = stories::urls(archive, id).await.unwrap().iter().map(|url| url.kind).collect();
        assert_eq!(kinds, vec![UrlKind::First, UrlKind::Variant, UrlKind::Redirect, UrlKind::Canonical, UrlKind::Title]);
        let via_recorded = stories::by_any_lossy_url(archive, "http://daily.example/x").await.unwrap();
        assert_eq!(via_recorded.map(|s| s.id), Some(id));
        let own = stories::by_any_lossy_url(archive, "http://daily.example/a").await.unwrap();
        assert_eq!(own.map(|s| s.id), Some(id));
        assert_eq!(stories::by_any_lossy_url(archive, "http://daily.example/none").await.unwrap(), None);
    }

    async fn stories_without_metadata_round_trip(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let bare = NewStory {
            source_id: source.id,
            url: "http://daily.example/bare".to_owned(),
            lossy_url: "http://daily.example/bare".to_owned(),
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        };
        let stored = stories::insert(archive, &bare).await.unwrap();
        assert_eq!(stored.story().story, bare);
    }

    async fn titles_match_within_a_source_and_day(archive: &Archive) {
        let daily = crate::source(archive, "daily").await;
        let other = crate::source(archive, "other").await;
        let a = stories::insert(archive, &new(daily.id, "a", "Headline")).await.unwrap();
        let b = stories::insert(archive, &new(daily.id, "b", "Headline")).await.unwrap();
        let c = stories::insert(archive, &new(other.id, "c", "Headline")).await.unwrap();
        let day = NaiveDate::from_ymd_opt(2026, 11, 3).unwrap();
        let (a, b, c) = (a.story().id, b.story().id, c.story().id);
        assert_eq!(stories::title_match(archive, daily.id, day, "headline", b).await.unwrap().map(|s| s.id), Some(a));
        assert_eq!(stories::title_match(archive, other.id, day, "headline", c).await.unwrap(), None);
        let next_day = day.succ_opt().unwrap();
        assert_eq!(stories::title_match(archive, daily.id, next_day, "headline", b).await.unwrap(), None);
    }

    async fn missing_stories_are_not_found(archive: &Archive) {
        assert!(matches!(stories::get(archive, 5).await, Err(Error::NotFound { .. })));
        assert_eq!(stories::by_url(archive, "http://nowhere.example/").await.unwrap(), None);
    }

    async fn pages_filter_by_source_day_and_language(archive: &Archive) {
        let daily = crate::source(archive, "daily").await;
        let weekly = crate::source(archive, "weekly").await;
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d);
        let mut ids = Vec::new();
        for (i, (source, published, language)) in [
            (daily.id, day(1), "es"),
            (daily.id, day(2), "en"),
            (weekly.id, day(2), "es"),
            (daily.id, None, "es"),
            (weekly.id, day(3), "es"),
        ]
        .into_iter()
        .enumerate()
        {
            let mut story = new(source, &format!("p{i}"), &format!("Story {i}"));
            story.published_day = published;
            story.language = Some(language.to_owned());
            ids.push(stories::insert(archive, &story).await.unwrap().story().id);
        }
        let page = async |filter: &stories::Filter, after, limit| -> Vec<i64> {
            stories::page(archive, filter, after, limit).await.unwrap().iter().map(|s| s.id).collect()
        };
        let all = stories::Filter::default();
        assert_eq!(page(&all, 0, 100).await, ids);
        // Pages follow on from the last id, and end empty.
        assert_eq!(page(&all, 0, 2).await, ids[..2]);
        assert_eq!(page(&all, ids[1], 2).await, ids[2..4]);
        assert_eq!(page(&all, ids[4], 2).await, Vec::<i64>::new());
        let daily_only = stories::Filter { source_ids: vec![daily.id], ..all.clone() };
        assert_eq!(page(&daily_only, 0, 100).await, vec![ids[0], ids[1], ids[3]]);
        // Days are inclusive; stories without a date are left out once a day is set.
        let days = stories::Filter { from_day: day(2), to_day: day(2), ..all.clone() };
        assert_eq!(page(&days, 0, 100).await, vec![ids[1], ids[2]]);
        let from = stories::Filter { from_day: day(2), ..all.clone() };
        assert_eq!(page(&from, 0, 100).await, vec![ids[1], ids[2], ids[4]]);
        let spanish = stories::Filter { language: Some("es".to_owned()), ..daily_only };
        assert_eq!(page(&spanish, 0, 100).await, vec![ids[0], ids[3]]);
    }

    async fn words_find_stories_by_title_and_searchable_text(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let mut state = 1u64;
        let blob: String = (0..6000)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                char::from(b'a' + (state >> 59) as u8 % 26)
            })
            .collect();
        let mut ids = Vec::new();
        for (path, title, text) in [
            ("a", "Malmö wins the cup", "The match was close."),
            ("b", "Fans", "MALMO fans celebrated. Subscribe now."),
            ("c", "Nothing", "Unrelated news."),
            ("d", "МОСКВА: Ἀθῆναι", "東京 नमस्ते São-Paulo"),
            // Far past PostgreSQL's limit for one GIN entry (and incompressible): not indexed,
            // and no error.
            ("e", "Blob", &blob),
        ] {
            let story = NewStory { text: text.to_owned(), ..new(source.id, path, title) };
            ids.push(stories::insert(archive, &story).await.unwrap().story().id);
        }
        let found = async |query: &str| -> Vec<i64> {
            let filter = crate::query::filter(archive, query).await;
            stories::page(archive, &filter, 0, 100).await.unwrap().iter().map(|s| s.id).collect()
        };
        assert_eq!(found("malmo").await, ids[..2]);
        assert_eq!(found("Malmø cup").await, ids[..1]);
        assert_eq!(found("subscribe").await, ids[1..2]);
        assert_eq!(found("malm").await, Vec::<i64>::new(), "whole words only");
        assert_eq!(found("malmo unrelated").await, Vec::<i64>::new(), "every word, in one story");
        // Any script: the index holds the folded words themselves, so it is exact.
        for query in ["москва", "αθηναι", "東京", "नमस्ते", "sao paulo"] {
            assert_eq!(found(query).await, ids[3..4], "{query}");
        }
        for part in ["моск", "阪", "sao-paulo2"] {
            assert_eq!(found(part).await, Vec::<i64>::new(), "{part}");
        }
        // A CJK word is one of its characters, or its pairs of neighbours.
        assert_eq!(found("東").await, ids[3..4]);
        // With the other filters, and after an id.
        let filter = stories::Filter {
            query: crate::query::filter(archive, "malmo").await.query,
            source_ids: vec![source.id],
            language: Some("es".to_owned()),
            from_day: NaiveDate::from_ymd_opt(2026, 11, 3),
            ..Default::default()
        };
        let page = stories::page(archive, &filter, ids[0], 100).await.unwrap();
        assert_eq!(page.iter().map(|s| s.id).collect::<Vec<_>>(), ids[1..2]);
        // Removed sentences are not searched; the title still is.
        stories::set_sentence_removal(archive, ids[1], Some("MALMO fans celebrated."), &[]).await.unwrap();
        assert_eq!(found("subscribe").await, Vec::<i64>::new());
        assert_eq!(found("fans").await, ids[1..2]);
        stories::set_sentence_removal(archive, ids[1], None, &[]).await.unwrap();
        assert_eq!(found("subscribe").await, ids[1..2]);
        // A new extraction replaces the words.
        let again = NewStory { text: "Malmö again.".to_owned(), ..new(source.id, "c", "Nothing") };
        stories::replace_extraction(archive, ids[2], &again).await.unwrap();
        assert_eq!(found("malmo").await, ids[..3]);
        assert_eq!(found("blob").await, ids[4..5]);
        // A word longer than the index keeps is never found (queries stop at 4,000 characters).
        assert_eq!(found(&blob[..3000]).await, Vec::<i64>::new());
        assert_eq!(found("unrelated").await, Vec::<i64>::new());
        index_is_sound(archive).await;
    }

    async fn words_inside_chinese_japanese_and_korean_sentences_are_found(archive: &Archive) {
        let source = crate::source(archive, "asia").await;
        let mut ids = Vec::new();
        for (path, title, text) in [
            ("ja", "東京で震度5強の地震", "気象庁によると、被害の情報は入っていません。"),
            ("zh", "北京发生地震", "据新华社报道，目前没有人员伤亡。"),
            ("ko", "서울에서 지진 발생", "기상청은 피해가 없다고 밝혔다."),
            ("kyoto", "京都の紅葉", "観光客が多い。"),
        ] {
            let story = NewStory { text: text.to_owned(), ..new(source.id, path, title) };
            ids.push(stories::insert(archive, &story).await.unwrap().story().id);
        }
        let found = async |query: &str| -> Vec<i64> {
            let filter = crate::query::filter(archive, query).await;
            stories::page(archive, &filter, 0, 100).await.unwrap().iter().map(|s| s.id).collect()
        };
        assert_eq!(found("地震").await, ids[..2], "a word inside a Japanese and a Chinese title");
        assert_eq!(found("気象庁").await, ids[..1]);
        assert_eq!(found("震度5強").await, ids[..1], "digits inside a CJK run");
        assert_eq!(found("新华社").await, ids[1..2]);
        assert_eq!(found("서울").await, ids[2..3], "a Korean word with its particle");
        assert_eq!(found("기상청").await, ids[2..3]);
        assert_eq!(found("京都").await, ids[3..4], "東京で has no pair 京都");
        assert_eq!(found("東京 地震").await, ids[..1]);
        assert_eq!(found("大阪").await, Vec::<i64>::new());
        index_is_sound(archive).await;
    }

    async fn migrating_writes_the_words_of_cjk_stories_again(archive: &Archive) {
        let source = crate::source(archive, "tokyo").await;
        let story = NewStory {
            text: "被害の情報は入っていません。".to_owned(),
            ..new(source.id, "a", "東京で地震")
        };
        let id = stories::insert(archive, &story).await.unwrap().story().id;
        // The words an earlier release wrote: whole runs, and a soft hyphen kept.
        archive
            .execute_unprepared(&format!(
                "UPDATE stories SET search_words = '東京で地震 被害の情報は入っていません pa\u{AD}per' \
                 WHERE id = {id}"
            ))
            .await
            .unwrap();
        // As if the archive had not yet met migration m0005.
        archive
            .execute_unprepared(
                "DELETE FROM seaql_migrations WHERE version = 'm0005_refold_search_words'",
            )
            .await
            .unwrap();
        let filter = crate::query::filter(archive, "地震").await;
        let report = archive.migrate().await.unwrap();
        assert_eq!(report.applied, ["m0005_refold_search_words"]);
        assert_eq!(report.search_words_filled, 1);
        let page = stories::page(archive, &filter, 0, 100).await.unwrap();
        assert_eq!(page.iter().map(|s| s.id).collect::<Vec<_>>(), [id]);
        index_is_sound(archive).await;
    }

    async fn stories_archived_before_word_search_are_candidates_until_filled(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let a = stories::insert(archive, &new(source.id, "a", "Storm warning")).await.unwrap().story().id;
        let b = stories::insert(archive, &new(source.id, "b", "Budget vote")).await.unwrap().story().id;
        // What migration m0002 leaves for stories it finds: no words yet.
        archive.execute_unprepared("UPDATE stories SET search_words = NULL").await.unwrap();
        let filter = crate::query::filter(archive, "storm").await;
        let ids = async || -> Vec<i64> {
            stories::page(archive, &filter, 0, 100).await.unwrap().iter().map(|s| s.id).collect()
        };
        assert_eq!(ids().await, vec![a, b], "without words every story is a candidate");
        assert_eq!(search::fill_missing(archive).await.unwrap(), 2);
        assert_eq!(ids().await, vec![a]);
        assert_eq!(search::fill_missing(archive).await.unwrap(), 0);
        assert_eq!(archive.migrate().await.unwrap().search_words_filled, 0);
        index_is_sound(archive).await;
    }
}

/// Fails if SQLite's full-text index disagrees with the words it was given (FTS5's own check).
async fn index_is_sound(archive: &Archive) {
    if archive.backend() == store::Backend::Sqlite {
        let check = "INSERT INTO story_search(story_search) VALUES ('integrity-check')";
        archive.execute_unprepared(check).await.expect("FTS5 integrity check");
    }
}
