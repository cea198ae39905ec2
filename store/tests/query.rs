//! Running queries: one crafted archive, a set of queries, the same stories on both backends,
//! with every story's words written and with none written (every story a candidate, decided by
//! the check over its text).

use store::Archive;
use store::clusters::{self, Member};
use store::matching::Matcher;
use store::on_both_backends;
use store::query::Query;
use store::stories::{self, Filter, NewStory};

/// The stories of the crafted archive: source, title, text, language.
const STORIES: [(&str, Option<&str>, &str, Option<&str>); 8] = [
    (
        "daily",
        Some("Storm hits coast"),
        "A powerful storm hit the coast on Monday. Climate change made it worse.",
        Some("en"),
    ),
    (
        "daily",
        Some("Budget vote delayed"),
        "The vote on the budget was delayed. Storm clouds gather over parliament.",
        Some("en"),
    ),
    (
        "tribune",
        Some("Hurricane season"),
        "Hurricanes and storms: the change in climate is real.",
        Some("en"),
    ),
    (
        "tribune",
        Some("Malmö wins the cup"),
        "Football: Malmö beat the visitors. Sport news.",
        Some("sv"),
    ),
    (
        "herald",
        Some("Climate change summit"),
        "Leaders met to discuss the climate. Vaccination drive continues.",
        Some("es"),
    ),
    (
        "herald",
        Some("Vaccine trial results"),
        "The vaccine trial showed results. No storm today.",
        Some("en"),
    ),
    ("herald", Some("東京で地震"), "被害の情報は入っていません。", Some("ja")),
    ("daily", None, "the cat and the hat", None),
];

/// Queries and the stories (numbered from 1 in [`STORIES`]) each matches.
const EXPECTED: &[(&str, &[usize])] = &[
    ("storm", &[1, 2, 6]),
    ("STÖRM", &[1, 2, 6]),
    ("storm*", &[1, 2, 3, 6]),
    ("\"climate change\"", &[1, 5]),
    ("climate change", &[1, 3, 5]),
    ("climate AND change", &[1, 3, 5]),
    ("storm OR hurricane", &[1, 2, 3, 6]),
    ("storm -vote", &[1, 6]),
    ("storm NOT title:storm", &[2, 6]),
    ("title:storm", &[1]),
    ("title:\"climate change\"", &[5]),
    ("title:(vaccine OR hurricane)", &[3, 6]),
    ("-\"climate change\"", &[2, 3, 4, 6, 7, 8]),
    ("NOT storm", &[3, 4, 5, 7, 8]),
    ("vote NOT (budget OR clouds)", &[]),
    ("malmo", &[4]),
    ("source:herald storm", &[6]),
    ("source:herald -\"no storm\"", &[5, 7]),
    ("collection:National climate", &[1, 3]),
    ("collection:\"Nobody's\"", &[]),
    ("collection:Nobody's OR cat", &[8]),
    ("lang:sv OR lang:JA", &[4, 7]),
    ("-lang:en", &[4, 5, 7, 8]),
    ("(storm OR vaccin*) AND -source:daily", &[5, 6]),
    ("地震", &[7]),
    ("\"the cat and the hat\"", &[8]),
    ("\"the hat and the cat\"", &[]),
    ("\"the cat\" OR title:malmo", &[4, 8]),
    ("sea* OR wor*", &[1, 3]),
    // Phrases by the index's pairs of neighbours: within the title or within the text, never
    // across; three words or more by their pairs, checked (`and the` and `the cat` both stand
    // in story 8, not `and the cat`).
    ("\"hits coast\"", &[1]),
    ("\"storm hit\"", &[1]),
    ("\"coast a\"", &[]),
    ("\"climate is real\"", &[3]),
    ("\"the cat and\"", &[8]),
    ("\"and the cat\"", &[]),
    ("\"cat cat\"", &[]),
    ("\"東京で\"", &[7]),
    ("-\"the cat\"", &[1, 2, 3, 4, 5, 6, 7]),
    ("\"storm hit\" OR \"the hat\"", &[1, 8]),
    // Longer than any word the index keeps: never found, also under NOT.
    (
        "storm OR xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx*",
        &[1, 2, 6],
    ),
    (
        "NOT xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx -storm",
        &[3, 4, 5, 7, 8],
    ),
];

/// The crafted archive; returns the stories' ids in [`STORIES`] order.
async fn craft(archive: &Archive) -> Vec<i64> {
    let mut sources = std::collections::BTreeMap::new();
    for name in ["daily", "tribune", "herald"] {
        sources.insert(name, crate::source(archive, name).await.id);
    }
    let national = store::collections::add(archive, "National").await.unwrap();
    store::collections::add_sources(archive, national.id, &[sources["daily"], sources["tribune"]])
        .await
        .unwrap();
    store::collections::add(archive, "Nobody's").await.unwrap();
    let mut ids = Vec::new();
    for (i, (source, title, text, language)) in STORIES.into_iter().enumerate() {
        let new = NewStory {
            source_id: sources[source],
            url: format!("https://{source}.example/{i}"),
            lossy_url: format!("http://{source}.example/{i}"),
            title: title.map(str::to_owned),
            text: text.to_owned(),
            language: language.map(str::to_owned),
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        };
        ids.push(stories::insert(archive, &new).await.unwrap().story().id);
    }
    ids
}

/// The stories (numbered from 1) `text` matches: the archive's candidates, each checked. When
/// the matcher says its condition is exact, the candidates must be the matches already.
async fn run(archive: &Archive, ids: &[i64], text: &str, words_written: bool) -> Vec<usize> {
    let query = Query::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"));
    let matcher = Matcher::new(archive, &query).await.unwrap();
    let filter = Filter { query: Some(matcher.clone()), ..Filter::default() };
    let candidates = stories::page(archive, &filter, 0, 100).await.unwrap();
    let number = |id: i64| ids.iter().position(|&known| known == id).unwrap() + 1;
    let found: Vec<usize> = candidates
        .iter()
        .filter(|story| matcher.matches(story))
        .map(|story| number(story.id))
        .collect();
    if matcher.exact() && words_written {
        let all: Vec<usize> = candidates.iter().map(|story| number(story.id)).collect();
        assert_eq!(all, found, "{text}: the condition said it was exact");
    }
    found
}

on_both_backends! {
    async fn queries_find_the_same_stories_on_both_backends(archive: &Archive) {
        let ids = craft(archive).await;
        for (text, expected) in EXPECTED {
            assert_eq!(run(archive, &ids, text, true).await, *expected, "{text}");
        }
        // Stories whose words are not written yet are candidates of every query, and the check
        // over their text gives the same answers.
        archive.execute_unprepared("UPDATE stories SET search_words = NULL").await.unwrap();
        for (text, expected) in EXPECTED {
            assert_eq!(run(archive, &ids, text, false).await, *expected, "{text}, words not written");
        }
    }

    // The index follows the stories' words (PostgreSQL keeps a copy of each story's terms in
    // `story_terms` by triggers, which the facts list matches from; SQLite its FTS5 table):
    // cleared, written again, copied by the migration that made the table (undone and done
    // again), and gone with a deleted story. On PostgreSQL the copy's matches are compared with
    // those of the stories' own terms at each step.
    async fn the_index_follows_the_stories_words(archive: &Archive) {
        let ids = craft(archive).await;
        let postgres = archive.backend() == store::Backend::Postgres;
        let terms = async || store::testing::integer(archive, "SELECT COUNT(*) FROM story_terms").await;
        let agree = async || {
            for word in ["storm", "climate", "the·cat", "malmo"] {
                let list = |table: &str, id: &str, column: &str| {
                    format!("SELECT COALESCE(string_agg({id}::text, ',' ORDER BY {id}), '') FROM {table} \
                             WHERE {column} @@ CAST('''{word}''' AS tsquery)")
                };
                let copy = store::testing::text(archive, &list("story_terms", "story_id", "terms")).await;
                let own = store::testing::text(archive, &list("stories", "id", "search_terms")).await;
                assert_eq!(copy, own, "{word}");
                assert!(!own.is_empty(), "{word} found nowhere");
            }
        };
        let all_exact = async || {
            for (text, expected) in EXPECTED {
                assert_eq!(run(archive, &ids, text, true).await, *expected, "{text}");
            }
        };
        if postgres {
            assert_eq!(terms().await, ids.len() as i64, "every story has its terms");
            agree().await;
        }
        archive
            .execute_unprepared("UPDATE stories SET search_words = NULL, search_pairs = NULL")
            .await
            .unwrap();
        if postgres {
            assert_eq!(terms().await, 0, "words cleared, terms gone");
        }
        assert_eq!(store::search::fill_missing(archive).await.unwrap(), ids.len() as u64);
        all_exact().await;
        if postgres {
            agree().await;
        }
        store::testing::undo_migrations(archive, 1).await;
        archive.migrate().await.unwrap();
        all_exact().await;
        if postgres {
            assert_eq!(terms().await, ids.len() as i64, "the migration copied every story's terms");
            agree().await;
        }
        archive.execute_unprepared(&format!("DELETE FROM stories WHERE id = {}", ids[0])).await.unwrap();
        if postgres {
            assert_eq!(terms().await, ids.len() as i64 - 1, "a deleted story's terms are gone");
            agree().await;
        }
        let storm = run(archive, &ids, "storm", true).await;
        assert_eq!(storm, [2, 6]);
    }

    async fn unknown_names_are_errors(archive: &Archive) {
        craft(archive).await;
        for text in ["source:nobody", "storm OR collection:Nowhere"] {
            let query = Query::parse(text).unwrap();
            let err = Matcher::new(archive, &query).await.unwrap_err();
            assert!(matches!(err, store::Error::NotFound { .. }), "{text}: {err}");
        }
    }

    // A page of a text query over a window of days keeps exactly the stories of those days,
    // whatever order they were archived in (SQLite bounds the index's matches by the window's
    // ids: a story archived long after its day widens them and must still be found).
    async fn a_window_of_days_finds_its_stories_whatever_order_they_came_in(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2025, 3, d).unwrap();
        // Archived mostly in day order, with late arrivals of early days, a story without a
        // day, and words in some of them.
        let days: [Option<u32>; 12] =
            [Some(1), Some(2), Some(2), Some(4), Some(5), Some(1), None, Some(7), Some(8), Some(3), Some(9), Some(5)];
        let mut stored = Vec::new();
        for (i, published) in days.into_iter().enumerate() {
            let text = if i % 3 == 1 { "quiet day" } else { "storm over the coast" };
            let new = NewStory {
                source_id: source.id,
                url: format!("https://daily.example/{i}"),
                lossy_url: format!("http://daily.example/{i}"),
                title: Some(format!("Story {i}")),
                text: text.to_owned(),
                published_day: published.map(day),
                extractor_version: "test-1".to_owned(),
                ..NewStory::default()
            };
            let id = stories::insert(archive, &new).await.unwrap().story().id;
            stored.push((id, published.map(day), text));
        }
        for text in ["storm", "NOT storm", "storm OR quiet", "coast -quiet"] {
            let matcher = Matcher::new(archive, &Query::parse(text).unwrap()).await.unwrap();
            let windows = [
                (Some(1), Some(2)),
                (Some(2), Some(4)),
                (Some(3), Some(3)),
                (Some(5), None),
                (None, Some(3)),
                (Some(6), Some(6)),
                (Some(10), Some(20)),
                (Some(4), Some(2)),
            ];
            for (from, to) in windows {
                let filter = Filter {
                    from_day: from.map(day),
                    to_day: to.map(day),
                    query: Some(matcher.clone()),
                    ..Filter::default()
                };
                let found: Vec<i64> = stories::page(archive, &filter, 0, 100)
                    .await
                    .unwrap()
                    .iter()
                    .filter(|story| matcher.matches(story))
                    .map(|story| story.id)
                    .collect();
                let expected: Vec<i64> = stored
                    .iter()
                    .filter(|(_, published, _)| {
                        published.is_some_and(|p| {
                            from.is_none_or(|f| p >= day(f)) && to.is_none_or(|t| p <= day(t))
                        })
                    })
                    .filter(|(_, _, words)| match text {
                        "storm" => words.contains("storm"),
                        "NOT storm" => !words.contains("storm"),
                        "storm OR quiet" => true,
                        _ => words.contains("coast"),
                    })
                    .map(|(id, _, _)| *id)
                    .collect();
                assert_eq!(found, expected, "{text} from {from:?} to {to:?}");
            }
        }
    }
}

/// A filter with the query `text` (which must parse and resolve).
pub(crate) async fn filter(archive: &Archive, text: &str) -> Filter {
    let query = Query::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"));
    Filter { query: Some(Matcher::new(archive, &query).await.unwrap()), ..Filter::default() }
}

/// The deduplicated view, as the archive's condition.
mod folded {
    use super::*;

    on_both_backends! {
        async fn a_folded_page_over_many_copies_is_full(archive: &Archive) {
            let source = crate::source(archive, "wire").await;
            let mut copies = Vec::new();
            for i in 0..1200 {
                copies.push(crate::story(archive, source.id, &format!("copy/{i}")).await);
            }
            let alone: Vec<i64> = [crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await].into();
            let members: Vec<Member> = copies
                .iter()
                .map(|&story_id| Member { story_id, relation: Some("duplicate".to_owned()), score: Some(1.0) })
                .collect();
            let cluster = clusters::create(archive, copies[600], &members).await.unwrap();
            let folded = Filter { one_per_cluster: true, ..Filter::default() };
            let ids = |page: Vec<stories::Story>| page.iter().map(|story| story.id).collect::<Vec<_>>();
            // Past the first 600 copies in one statement: the representative and the two alone.
            assert_eq!(ids(stories::page(archive, &folded, 0, 3).await.unwrap()), [copies[600], alone[0], alone[1]]);
            // A new representative, then a copy taken out: the view follows.
            clusters::replace(archive, cluster.id, copies[5], &members).await.unwrap();
            assert_eq!(ids(stories::page(archive, &folded, 0, 2).await.unwrap()), [copies[5], alone[0]]);
            clusters::remove_story(archive, copies[7]).await.unwrap();
            assert_eq!(ids(stories::page(archive, &folded, 0, 2).await.unwrap()), [copies[5], copies[7]]);
            // Re-clustering moves stories out of the old cluster.
            let small = clusters::create(archive, copies[9], &[Member { story_id: copies[5], relation: None, score: None }]).await.unwrap();
            assert_eq!(clusters::get(archive, small.id).await.unwrap().members.len(), 2);
            let page = ids(stories::page(archive, &folded, 0, 3).await.unwrap());
            assert_eq!(page, [copies[7], copies[9], alone[0]], "the old cluster's representative left it");
        }
    }
}
