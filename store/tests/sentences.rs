//! Sentence ownership per source and week.

use chrono::NaiveDate;
use store::Archive;
use store::sentences::{self, Owner, Sighting};
use store::stories::{self, NewStory};

use crate::support::on_both_backends;

async fn story(archive: &Archive, source_id: i64, path: &str) -> i64 {
    let new = NewStory {
        source_id,
        url: format!("http://daily.example/{path}"),
        lossy_url: format!("http://daily.example/{path}"),
        extractor_version: "test-1".to_owned(),
        ..NewStory::default()
    };
    stories::insert(archive, &new).await.unwrap().story().id
}

on_both_backends! {
    async fn the_earliest_published_story_owns_a_sentence_whatever_the_order(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let week = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        let early = story(archive, source.id, "early").await;
        let late = story(archive, source.id, "late").await;
        let sighting = |story_id, day| Sighting {
            source_id: source.id,
            week_start: week,
            hash: -42,
            story_id,
            published_at: crate::at(day, 8),
        };
        // The later story is processed first.
        let owner = sentences::record(archive, &sighting(late, 5)).await.unwrap();
        assert_eq!(owner, Owner { story_id: late, published_at: crate::at(5, 8) });
        let owner = sentences::record(archive, &sighting(early, 3)).await.unwrap();
        assert_eq!(owner, Owner { story_id: early, published_at: crate::at(3, 8) });
        // Re-processing converges: nothing changes.
        assert_eq!(sentences::record(archive, &sighting(late, 5)).await.unwrap(), owner);
        assert_eq!(sentences::record(archive, &sighting(early, 3)).await.unwrap(), owner);
        assert_eq!(sentences::owner(archive, source.id, week, -42).await.unwrap(), Some(owner));
    }

    async fn ties_go_to_the_smaller_story_id(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let week = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        let first = story(archive, source.id, "a").await;
        let second = story(archive, source.id, "b").await;
        let sighting = |story_id| Sighting {
            source_id: source.id, week_start: week, hash: 7, story_id, published_at: crate::at(3, 8),
        };
        sentences::record(archive, &sighting(second)).await.unwrap();
        let owner = sentences::record(archive, &sighting(first)).await.unwrap();
        assert_eq!(owner.story_id, first);
    }

    async fn sources_and_weeks_are_separate(archive: &Archive) {
        let daily = crate::source(archive, "daily").await;
        let other = crate::source(archive, "other").await;
        let week = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        let next_week = NaiveDate::from_ymd_opt(2026, 11, 9).unwrap();
        let a = story(archive, daily.id, "a").await;
        let b = story(archive, other.id, "b").await;
        let c = story(archive, daily.id, "c").await;
        let record = |source_id, week_start, story_id, day| {
            let sighting = Sighting { source_id, week_start, hash: 1, story_id, published_at: crate::at(day, 0) };
            async move { sentences::record(archive, &sighting).await.unwrap() }
        };
        assert_eq!(record(daily.id, week, a, 3).await.story_id, a);
        assert_eq!(record(other.id, week, b, 4).await.story_id, b, "another source keeps its own");
        assert_eq!(record(daily.id, next_week, c, 10).await.story_id, c, "another week starts afresh");
        assert_eq!(sentences::owner(archive, daily.id, week, 2).await.unwrap(), None);
    }
}
