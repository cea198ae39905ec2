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
            // Checked candidates (a phrase of three words) are counted from the same column.
            let longer = crate::query::filter(archive, "\"flood in the\"").await;
            assert_eq!(top::words(archive, &longer, 1).await.unwrap(), [top("city".to_owned(), 3, 1)]);
            // Stories whose words are not written yet are folded from their text: the same list.
            archive.execute_unprepared("UPDATE stories SET search_words = NULL").await.unwrap();
            assert_eq!(top::words(archive, &flood, 3).await.unwrap(), words);
            assert_eq!(top::words(archive, &longer, 1).await.unwrap(), [top("city".to_owned(), 3, 1)]);
        }
    }
}
