//! Counts over time on a crafted archive where the raw and folded answers are known, by day,
//! week and month, exact in SQL and checked one by one (a phrase), on both backends.

use chrono::NaiveDate;
use store::Archive;
use store::clusters::{self, Member};
use store::counts::{Period, PeriodCount, counts};
use store::on_both_backends;
use store::stories::{self, Filter, NewStory};

fn day(month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, month, day).unwrap()
}

/// Sources `a` and `b`; a wire story carried three times over two days (one cluster), and others.
async fn craft(archive: &Archive) -> (i64, i64) {
    let a = crate::source(archive, "a").await.id;
    let b = crate::source(archive, "b").await.id;
    let mut ids = Vec::new();
    for (i, (source, published, text)) in [
        (a, Some(day(11, 2)), "Flood in the city"),
        (b, Some(day(11, 2)), "Flood in the city"),
        (b, Some(day(11, 3)), "Flood warning issued, flood in the city"),
        (a, Some(day(11, 3)), "Budget talk"),
        (a, Some(day(11, 9)), "Flood again"),
        (b, Some(day(12, 1)), "River flood"),
        (a, None, "Flood undated"),
    ]
    .into_iter()
    .enumerate()
    {
        let new = NewStory {
            source_id: source,
            url: format!("https://x.example/{i}"),
            lossy_url: format!("http://x.example/{i}"),
            text: text.to_owned(),
            published_day: published,
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        };
        ids.push(stories::insert(archive, &new).await.unwrap().story().id);
    }
    let copies = [ids[1], ids[2]].map(|story_id| Member {
        story_id,
        relation: Some("duplicate".to_owned()),
        score: None,
    });
    clusters::create(archive, ids[0], &copies).await.unwrap();
    (a, b)
}

fn row(
    start: NaiveDate,
    stories: u64,
    clusters: u64,
    all_stories: u64,
    all_clusters: u64,
) -> PeriodCount {
    PeriodCount { start, stories, clusters, all_stories, all_clusters }
}

on_both_backends! {
    async fn raw_and_folded_counts_per_period(archive: &Archive) {
        let (_, b) = craft(archive).await;
        let flood = crate::query::filter(archive, "flood").await;
        assert_eq!(
            counts(archive, &flood, Period::Day).await.unwrap(),
            [
                row(day(11, 2), 2, 1, 2, 1),
                row(day(11, 3), 1, 1, 2, 2),
                row(day(11, 9), 1, 1, 1, 1),
                row(day(12, 1), 1, 1, 1, 1),
            ]
        );
        assert_eq!(
            counts(archive, &flood, Period::Week).await.unwrap(),
            [row(day(11, 2), 3, 1, 4, 2), row(day(11, 9), 1, 1, 1, 1), row(day(11, 30), 1, 1, 1, 1)]
        );
        assert_eq!(
            counts(archive, &flood, Period::Month).await.unwrap(),
            [row(day(11, 1), 4, 2, 5, 3), row(day(12, 1), 1, 1, 1, 1)]
        );
        // A phrase of two words, answered by the index's pairs; of three, the candidates with its
        // pairs checked one by one: the same counts either way.
        for text in ["\"flood in\"", "\"flood in the\""] {
            let phrase = crate::query::filter(archive, text).await;
            assert_eq!(
                counts(archive, &phrase, Period::Week).await.unwrap(),
                [row(day(11, 2), 3, 1, 4, 2), row(day(11, 9), 0, 0, 1, 1), row(day(11, 30), 0, 0, 1, 1)],
                "{text}"
            );
        }
        // One source, and a date range: the shares' totals follow them.
        let b_only = Filter { source_ids: vec![b], from_day: Some(day(11, 3)), ..flood };
        assert_eq!(
            counts(archive, &b_only, Period::Month).await.unwrap(),
            [row(day(11, 1), 1, 1, 1, 1), row(day(12, 1), 1, 1, 1, 1)]
        );
    }
}

/// Top sources and words, over the same archive.
mod top {
    use super::*;
    use store::top::{self, Top};

    fn top<K>(key: K, stories: u64, clusters: u64) -> Top<K> {
        Top { key, stories, clusters }
    }

    on_both_backends! {
        async fn top_sources_and_words_raw_and_folded(archive: &Archive) {
            let (a, b) = craft(archive).await;
            let flood = crate::query::filter(archive, "flood").await;
            assert_eq!(top::sources(archive, &flood, 10).await.unwrap(), [top(a, 3, 3), top(b, 3, 2)]);
            let phrase = crate::query::filter(archive, "\"flood in\"").await;
            assert_eq!(top::sources(archive, &phrase, 10).await.unwrap(), [top(b, 2, 1), top(a, 1, 1)]);
            assert_eq!(top::sources(archive, &phrase, 1).await.unwrap(), [top(b, 2, 1)]);
            let words = [top("flood".to_owned(), 6, 4), top("city".to_owned(), 3, 1), top("issued".to_owned(), 1, 1)];
            assert_eq!(top::words(archive, &flood, 3).await.unwrap(), words);
            // Every match, not a sample: read row by row, the same list.
            assert_eq!(top::words_of(archive, &flood, 3, u64::MAX).await.unwrap(), words);
            // Checked candidates (a phrase of three words) are counted from the same column.
            let longer = crate::query::filter(archive, "\"flood in the\"").await;
            assert_eq!(top::words(archive, &longer, 1).await.unwrap(), [top("city".to_owned(), 3, 1)]);
            // Stories whose words are not written yet are folded from their text: the same list.
            archive.execute_unprepared("UPDATE stories SET search_words = NULL").await.unwrap();
            super::words_follow_the_stories(archive).await;
            assert_eq!(top::words(archive, &flood, 3).await.unwrap(), words);
            assert_eq!(top::words(archive, &longer, 1).await.unwrap(), [top("city".to_owned(), 3, 1)]);
            // Written again (as `Archive::migrate` writes missing words), they are kept again.
            archive.migrate().await.unwrap();
            super::words_follow_the_stories(archive).await;
            assert_eq!(top::words(archive, &flood, 3).await.unwrap(), words);
        }

        async fn a_sample_of_top_words_is_the_newest_matching_stories(archive: &Archive) {
            // A word in every fifth of 120 stories, each of those with a word of its own: a
            // sample of 4 counts the own words of the newest 4 and no other (on PostgreSQL the
            // newest ids are asked first, over ranges widened until they hold the sample).
            let source = crate::source(archive, "a").await.id;
            let own = |i: usize| format!("own{}", char::from(b'a' + (i % 26) as u8).to_string() + &"q".repeat(i / 26 + 1));
            for i in 0..120 {
                let text = if i % 5 == 0 { format!("Alpha {}", own(i)) } else { "Beta filler".to_owned() };
                let new = NewStory {
                    source_id: source,
                    url: format!("https://x.example/{i}"),
                    lossy_url: format!("http://x.example/{i}"),
                    text,
                    extractor_version: "test-1".to_owned(),
                    ..NewStory::default()
                };
                stories::insert(archive, &new).await.unwrap();
            }
            let alpha = crate::query::filter(archive, "alpha").await;
            let mut listed: Vec<String> =
                top::words_of(archive, &alpha, 100, 4).await.unwrap().into_iter().map(|t| t.key).collect();
            listed.sort();
            let mut newest: Vec<String> = [115, 110, 105, 100].map(own).to_vec();
            newest.push("alpha".to_owned());
            newest.sort();
            assert_eq!(listed, newest);
            // Every match: every own word.
            assert_eq!(top::words_of(archive, &alpha, 100, u64::MAX).await.unwrap().len(), 25);
        }

        async fn top_words_of_stories_stored_before_their_words_were_kept(archive: &Archive) {
            // The schema before `m0016_story_words`, with stories stored in it.
            store::testing::undo_migrations(archive, 2).await;
            craft(archive).await;
            archive.migrate().await.unwrap();
            super::words_follow_the_stories(archive).await;
            let flood = crate::query::filter(archive, "flood").await;
            let words = [top("flood".to_owned(), 6, 4), top("city".to_owned(), 3, 1), top("issued".to_owned(), 1, 1)];
            assert_eq!(top::words(archive, &flood, 3).await.unwrap(), words);
        }
    }
}

/// The totals kept per source and day (`story_days`) and per period (`period_clusters`, from
/// `cluster_periods`) against the stories themselves: with no query, every period's stories and
/// clusters (counted from the stories) are its totals (kept), by day, week and month, over all
/// the days and over days that cut weeks and months; and on SQLite each story's facts
/// (`story_facts`, which the counts read) are its own. Returns the counts by day.
async fn totals_follow_the_stories(archive: &Archive, filter: &Filter) -> Vec<PeriodCount> {
    if archive.backend() == store::Backend::Sqlite {
        let differ = store::testing::integer(
            archive,
            "SELECT COUNT(*) FROM stories s LEFT JOIN story_facts f ON f.id = s.id \
             WHERE f.id IS NULL OR f.source_id IS NOT s.source_id \
             OR f.published_day IS NOT s.published_day \
             OR f.cluster_representative IS NOT s.cluster_representative \
             OR f.language IS NOT s.language",
        )
        .await;
        let facts = store::testing::integer(archive, "SELECT COUNT(*) FROM story_facts").await;
        let stories = store::testing::integer(archive, "SELECT COUNT(*) FROM stories").await;
        assert_eq!((differ, facts), (0, stories), "story_facts against stories");
        words_follow_the_stories(archive).await;
    }
    let cut = Filter { from_day: Some(day(11, 3)), to_day: Some(day(12, 2)), ..filter.clone() };
    let within = Filter { from_day: Some(day(11, 3)), to_day: Some(day(11, 6)), ..filter.clone() };
    for filter in [filter, &cut, &within] {
        for period in [Period::Day, Period::Week, Period::Month] {
            for row in counts(archive, filter, period).await.unwrap() {
                assert_eq!(
                    (row.all_stories, row.all_clusters),
                    (row.stories, row.clusters),
                    "{period:?} {row:?}"
                );
            }
        }
    }
    counts(archive, filter, Period::Day).await.unwrap()
}

/// On SQLite, each story's words kept by its id (`story_words`, which top words read) are its own
/// `search_words`, and a story without words has no row.
async fn words_follow_the_stories(archive: &Archive) {
    if archive.backend() != store::Backend::Sqlite {
        return;
    }
    let differ = store::testing::integer(
        archive,
        "SELECT COUNT(*) FROM stories s LEFT JOIN story_words w ON w.id = s.id \
         WHERE w.words IS NOT s.search_words",
    )
    .await;
    let kept = store::testing::integer(archive, "SELECT COUNT(*) FROM story_words").await;
    let with_words = store::testing::integer(
        archive,
        "SELECT COUNT(*) FROM stories WHERE search_words IS NOT NULL",
    )
    .await;
    assert_eq!((differ, kept), (0, with_words), "story_words against stories");
}

/// Moves a story to another day, by SQL (as a re-extraction would).
async fn move_day(archive: &Archive, id: i64, to: NaiveDate) {
    archive
        .execute_unprepared(&format!("UPDATE stories SET published_day = '{to}' WHERE id = {id}"))
        .await
        .unwrap();
}

async fn delete_story(archive: &Archive, id: i64) {
    archive
        .execute_unprepared(&format!("DELETE FROM story_urls WHERE story_id = {id}"))
        .await
        .unwrap();
    archive.execute_unprepared(&format!("DELETE FROM stories WHERE id = {id}")).await.unwrap();
}

/// The ids of the crafted archive's stories, by id.
async fn ids(archive: &Archive) -> Vec<i64> {
    let all = stories::page(archive, &Filter::default(), 0, 100).await.unwrap();
    all.iter().map(|story| story.id).collect()
}

mod totals {
    use super::*;

    on_both_backends! {
        async fn totals_per_day_follow_inserts_deletes_clusters_and_days(archive: &Archive) {
            let (a, b) = craft(archive).await;
            let everything = Filter::default();
            assert_eq!(
                totals_follow_the_stories(archive, &everything).await,
                [
                    row(day(11, 2), 2, 1, 2, 1),
                    row(day(11, 3), 2, 2, 2, 2),
                    row(day(11, 9), 1, 1, 1, 1),
                    row(day(12, 1), 1, 1, 1, 1),
                ]
            );
            let ids = ids(archive).await;
            // A copy leaves its cluster: a cluster and a story in none on 11-03.
            clusters::remove_story(archive, ids[2]).await.unwrap();
            totals_follow_the_stories(archive, &everything).await;
            // Clustered again, with the budget story too.
            let members = [ids[2], ids[3]].map(|story_id| Member {
                story_id,
                relation: Some("duplicate".to_owned()),
                score: None,
            });
            clusters::create(archive, ids[4], &members).await.unwrap();
            assert_eq!(
                totals_follow_the_stories(archive, &everything).await,
                [
                    row(day(11, 2), 2, 1, 2, 1),
                    row(day(11, 3), 2, 1, 2, 1),
                    row(day(11, 9), 1, 1, 1, 1),
                    row(day(12, 1), 1, 1, 1, 1),
                ]
            );
            // A story moved to another day, and the undated one given a day.
            move_day(archive, ids[5], day(11, 9)).await;
            move_day(archive, ids[6], day(11, 2)).await;
            assert_eq!(
                totals_follow_the_stories(archive, &everything).await,
                [row(day(11, 2), 3, 2, 3, 2), row(day(11, 3), 2, 1, 2, 1), row(day(11, 9), 2, 2, 2, 2)]
            );
            // Deleted: a clustered story and one in no cluster; a new story inserted.
            delete_story(archive, ids[1]).await;
            delete_story(archive, ids[5]).await;
            crate::story(archive, b, "fresh").await; // no day: not counted
            let new = NewStory {
                source_id: a,
                url: "https://x.example/new".to_owned(),
                lossy_url: "http://x.example/new".to_owned(),
                text: "Flood news".to_owned(),
                published_day: Some(day(12, 24)),
                extractor_version: "test-1".to_owned(),
                ..NewStory::default()
            };
            stories::insert(archive, &new).await.unwrap();
            assert_eq!(
                totals_follow_the_stories(archive, &everything).await,
                [
                    row(day(11, 2), 2, 2, 2, 2),
                    row(day(11, 3), 2, 1, 2, 1),
                    row(day(11, 9), 1, 1, 1, 1),
                    row(day(12, 24), 1, 1, 1, 1),
                ]
            );
            // By source, and by week: the totals of the others are left out.
            let a_only = Filter { source_ids: vec![a], ..Filter::default() };
            totals_follow_the_stories(archive, &a_only).await;
            let weeks = counts(archive, &a_only, Period::Week).await.unwrap();
            for row in weeks {
                assert_eq!((row.all_stories, row.all_clusters), (row.stories, row.clusters));
            }
        }

        async fn migrating_fills_the_totals_of_stories_stored_before(archive: &Archive) {
            // The schema before `m0014_story_days` (and the later ones), with stories and
            // a cluster stored in it.
            store::testing::undo_migrations(archive, 4).await;
            craft(archive).await;
            archive.migrate().await.unwrap();
            assert_eq!(
                totals_follow_the_stories(archive, &Filter::default()).await,
                [
                    row(day(11, 2), 2, 1, 2, 1),
                    row(day(11, 3), 2, 2, 2, 2),
                    row(day(11, 9), 1, 1, 1, 1),
                    row(day(12, 1), 1, 1, 1, 1),
                ]
            );
            let flood = crate::query::filter(archive, "flood").await;
            assert_eq!(
                counts(archive, &flood, Period::Month).await.unwrap(),
                [row(day(11, 1), 4, 2, 5, 3), row(day(12, 1), 1, 1, 1, 1)]
            );
        }

        async fn migrating_fills_the_folded_totals_of_stories_stored_before(archive: &Archive) {
            // The schema before `m0015_folded_totals` (and the later ones), with stories and a
            // cluster stored in it.
            store::testing::undo_migrations(archive, 3).await;
            craft(archive).await;
            archive.migrate().await.unwrap();
            let everything = Filter::default();
            let weeks = [row(day(11, 2), 4, 2, 4, 2), row(day(11, 9), 1, 1, 1, 1), row(day(11, 30), 1, 1, 1, 1)];
            assert_eq!(counts(archive, &everything, Period::Week).await.unwrap(), weeks);
            totals_follow_the_stories(archive, &everything).await;
            // The triggers follow what comes after: the cluster gets a copy a week later.
            let ids = ids(archive).await;
            let member = Member { story_id: ids[4], relation: Some("duplicate".to_owned()), score: None };
            let cluster = clusters::of_story(archive, ids[0]).await.unwrap().unwrap();
            let mut members = cluster.members.clone();
            members.push(member);
            clusters::create(archive, ids[0], &members).await.unwrap();
            assert_eq!(
                totals_follow_the_stories(archive, &everything).await,
                [
                    row(day(11, 2), 2, 1, 2, 1),
                    row(day(11, 3), 2, 2, 2, 2),
                    row(day(11, 9), 1, 1, 1, 1),
                    row(day(12, 1), 1, 1, 1, 1),
                ]
            );
            assert_eq!(
                counts(archive, &everything, Period::Month).await.unwrap(),
                [row(day(11, 1), 5, 2, 5, 2), row(day(12, 1), 1, 1, 1, 1)]
            );
        }
    }
}

/// Counts and top sources from the facts a long-lived process keeps in memory (`store::facts`)
/// against the SQL path, over the crafted archive and after every kind of change.
mod kept_facts {
    use super::*;
    use store::top;

    /// The filters compared: words, `OR`, `NOT`, a prefix, a phrase of two words (all answered
    /// from the facts), with sources, days and a language; a phrase of three words and a source
    /// in the query (answered in SQL either way); and no query.
    async fn filters(archive: &Archive, a: i64, b: i64) -> Vec<Filter> {
        let mut filters = vec![Filter::default()];
        for text in [
            "flood",
            "flood OR budget",
            "flood -warning",
            "flo*",
            "\"flood in\"",
            "\"flood in the\"",
        ] {
            let filter = crate::query::filter(archive, text).await;
            filters.push(Filter { source_ids: vec![b], ..filter.clone() });
            filters.push(Filter {
                source_ids: vec![a, b],
                from_day: Some(day(11, 3)),
                ..filter.clone()
            });
            filters.push(Filter { to_day: Some(day(11, 9)), ..filter.clone() });
            filters.push(Filter { language: Some("en".to_owned()), ..filter.clone() });
            filters.push(filter);
        }
        let named = crate::query::filter(archive, "flood source:b").await;
        filters.push(named);
        filters
    }

    /// Asserts that the facts give what SQL gives, for every filter, period and top list; returns
    /// how many of those the facts answered.
    async fn same(archive: &Archive, filters: &[Filter]) -> u64 {
        let before = archive.facts_answers();
        for filter in filters {
            for period in [Period::Day, Period::Week, Period::Month] {
                archive.keep_facts(false);
                let sql = counts(archive, filter, period).await.unwrap();
                archive.keep_facts(true);
                let kept = counts(archive, filter, period).await.unwrap();
                assert_eq!(kept, sql, "{period:?} {filter:?}");
            }
            archive.keep_facts(false);
            let sql = top::sources(archive, filter, 100).await.unwrap();
            archive.keep_facts(true);
            let kept = top::sources(archive, filter, 100).await.unwrap();
            assert_eq!(kept, sql, "top sources {filter:?}");
        }
        archive.facts_answers() - before
    }

    on_both_backends! {
        async fn kept_facts_count_what_sql_counts_after_every_change(archive: &Archive) {
            let (a, b) = craft(archive).await;
            archive
                .execute_unprepared("UPDATE stories SET language = 'en' WHERE id % 2 = 0")
                .await
                .unwrap();
            let filters = filters(archive, a, b).await;
            archive.keep_facts(true);
            assert!(archive.load_facts().await.unwrap() > 0);
            // Every filter but the three-word phrase's five and, on SQLite, the query with a
            // source (PostgreSQL lists its matches with the source's condition).
            let answered = same(archive, &filters).await;
            let in_sql = if archive.backend() == store::Backend::Sqlite { 6 } else { 5 };
            // Three counts (their totals from the facts, and their matches but for those in
            // SQL) and a top list each.
            let from_facts = filters.len() as u64 - in_sql;
            assert_eq!(answered, from_facts * 7 + in_sql * 3, "answers from the facts");
            let flood = crate::query::filter(archive, "flood").await;
            assert_eq!(
                counts(archive, &flood, Period::Month).await.unwrap(),
                [row(day(11, 1), 4, 2, 5, 3), row(day(12, 1), 1, 1, 1, 1)]
            );
            let ids = ids(archive).await;
            // A copy leaves its cluster; then a new cluster takes it and the budget story.
            clusters::remove_story(archive, ids[2]).await.unwrap();
            same(archive, &filters).await;
            let members = [ids[2], ids[3]].map(|story_id| Member {
                story_id,
                relation: Some("duplicate".to_owned()),
                score: None,
            });
            clusters::create(archive, ids[4], &members).await.unwrap();
            same(archive, &filters).await;
            // Days and languages changed, stories deleted and inserted.
            move_day(archive, ids[5], day(11, 9)).await;
            move_day(archive, ids[6], day(11, 2)).await;
            archive
                .execute_unprepared(&format!("UPDATE stories SET language = 'fr' WHERE id = {}", ids[0]))
                .await
                .unwrap();
            same(archive, &filters).await;
            delete_story(archive, ids[1]).await;
            delete_story(archive, ids[5]).await;
            let new = NewStory {
                source_id: b,
                url: "https://x.example/new".to_owned(),
                lossy_url: "http://x.example/new".to_owned(),
                text: "Flood news in the city".to_owned(),
                published_day: Some(day(12, 24)),
                language: Some("en".to_owned()),
                extractor_version: "test-1".to_owned(),
                ..NewStory::default()
            };
            let fresh = stories::insert(archive, &new).await.unwrap().story().id;
            let copy = Member { story_id: fresh, relation: Some("duplicate".to_owned()), score: None };
            clusters::create(archive, ids[0], &[copy]).await.unwrap();
            same(archive, &filters).await;
            // The new story is counted from the facts.
            let counted = counts(archive, &flood, Period::Day).await.unwrap();
            assert_eq!(counted.last(), Some(&row(day(12, 24), 1, 1, 1, 1)));
            // A story moved to another source.
            archive
                .execute_unprepared(&format!("UPDATE stories SET source_id = {a} WHERE id = {fresh}"))
                .await
                .unwrap();
            same(archive, &filters).await;
        }

        async fn kept_facts_are_read_again_when_the_log_was_trimmed_past_them(archive: &Archive) {
            let (a, b) = craft(archive).await;
            let filters = filters(archive, a, b).await;
            archive.keep_facts(true);
            archive.load_facts().await.unwrap();
            same(archive, &filters).await;
            let ids = ids(archive).await;
            // Three changes the facts have not seen; the log then trimmed to its last row, so
            // the first two are gone from it: followed from the log alone, the facts would
            // keep the first story on its old day.
            move_day(archive, ids[0], day(12, 20)).await;
            move_day(archive, ids[5], day(11, 9)).await;
            move_day(archive, ids[6], day(11, 2)).await;
            assert!(archive.trim_fact_changes_to(1).await.unwrap() >= 2);
            same(archive, &filters).await;
            let counted = counts(archive, &Filter::default(), Period::Day).await.unwrap();
            assert!(counted.iter().any(|r| r.start == day(12, 20)), "{counted:?}");
            // Up to date again, the facts follow the log as before: a change after the trim.
            move_day(archive, ids[0], day(12, 21)).await;
            same(archive, &filters).await;
            // Nothing to trim: the log holds fewer rows than asked to keep.
            assert_eq!(archive.trim_fact_changes().await.unwrap(), 0);
            same(archive, &filters).await;
        }

        async fn kept_facts_follow_a_change_committed_while_they_looked(archive: &Archive) {
            let (a, b) = craft(archive).await;
            let filters = filters(archive, a, b).await;
            archive.keep_facts(true);
            archive.load_facts().await.unwrap();
            let ids = ids(archive).await;
            let flood = crate::query::filter(archive, "flood").await;
            let before = counts(archive, &flood, Period::Day).await.unwrap();
            // A story moved to another day in a transaction still running while the facts are
            // brought up to date: on PostgreSQL after another change was committed, so that
            // they look past the running one's transaction id (SQLite has one writer at a time).
            let running = store::testing::uncommitted(
                archive,
                &format!("UPDATE stories SET published_day = '2026-12-24' WHERE id = {}", ids[4]),
            )
            .await;
            if archive.backend() == store::Backend::Postgres {
                move_day(archive, ids[5], day(11, 10)).await;
            }
            same(archive, &filters).await;
            running.commit().await;
            let after = counts(archive, &flood, Period::Day).await.unwrap();
            assert_ne!(after, before);
            assert!(after.contains(&row(day(12, 24), 1, 1, 1, 1)), "{after:?}");
            same(archive, &filters).await;
        }
    }
}
