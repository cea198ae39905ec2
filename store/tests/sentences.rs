//! Sentence ownership per source and week.

use chrono::NaiveDate;
use store::Archive;
use store::sentences::{self, Holder, Owner, Sighting, StorySentences};
use store::stories::{self, RemovedSentence};

use store::on_both_backends;

on_both_backends! {
    async fn the_earliest_published_story_owns_a_sentence_whatever_the_order(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let week = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        let early = crate::story(archive, source.id, "early").await;
        let late = crate::story(archive, source.id, "late").await;
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
        let first = crate::story(archive, source.id, "a").await;
        let second = crate::story(archive, source.id, "b").await;
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
        let a = crate::story(archive, daily.id, "a").await;
        let b = crate::story(archive, other.id, "b").await;
        let c = crate::story(archive, daily.id, "c").await;
        let record = |source_id, week_start, story_id, day| {
            let sighting = Sighting { source_id, week_start, hash: 1, story_id, published_at: crate::at(day, 0) };
            async move { sentences::record(archive, &sighting).await.unwrap() }
        };
        assert_eq!(record(daily.id, week, a, 3).await.story_id, a);
        assert_eq!(record(other.id, week, b, 4).await.story_id, b, "another source keeps its own");
        assert_eq!(record(daily.id, next_week, c, 10).await.story_id, c, "another week starts afresh");
        assert_eq!(sentences::owner(archive, daily.id, week, 2).await.unwrap(), None);
    }

    async fn a_story_records_all_its_sentences_and_learns_whom_it_displaced(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let week = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        let early = crate::story(archive, source.id, "early").await;
        let late = crate::story(archive, source.id, "late").await;
        let record = |story_id, day, hashes: &'static [i64]| StorySentences {
            source_id: source.id,
            week_start: week,
            story_id,
            published_at: crate::at(day, 8),
            hashes,
        };
        let first = sentences::record_story(archive, &record(late, 5, &[1, 2, 3])).await.unwrap();
        assert!(first.displaced.is_empty() && first.now_shared.is_empty());
        assert_eq!(first.holders[&1], Holder { first_story_id: late, first_published_at: crate::at(5, 8), shared: false });
        // The earlier story arrives later: it takes over the shared sentences.
        let second = sentences::record_story(archive, &record(early, 3, &[2, 3, 4])).await.unwrap();
        assert_eq!(second.displaced, vec![late]);
        assert_eq!(second.holders[&2], Holder { first_story_id: early, first_published_at: crate::at(3, 8), shared: true });
        assert!(!second.holders[&4].shared);
        // Recording again changes nothing and displaces no one.
        let again = sentences::record_story(archive, &record(late, 5, &[1, 2, 3])).await.unwrap();
        assert!(again.displaced.is_empty() && again.now_shared.is_empty());
        assert_eq!(again.holders[&2].first_story_id, early);
        let looked_up = sentences::holders(archive, source.id, week, &[1, 2, 9]).await.unwrap();
        assert_eq!(looked_up.len(), 2);
        assert!(!looked_up[&1].shared);
        assert!(looked_up[&2].shared);
        // A later story that shares an owner's sentence makes it shared.
        let later = crate::story(archive, source.id, "later").await;
        let third = sentences::record_story(archive, &record(later, 6, &[4])).await.unwrap();
        assert_eq!(third.now_shared, vec![early]);
    }

    async fn removed_sentences_are_recorded_with_their_owner_and_replaced(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let owner = crate::story(archive, source.id, "owner").await;
        let copy = crate::story(archive, source.id, "copy").await;
        let removed = vec![RemovedSentence { position: 2, sentence: "Subscribe now.".to_owned(), owner_story_id: owner }];
        stories::set_sentence_removal(archive, copy, Some("First. Second."), &removed).await.unwrap();
        assert_eq!(stories::removed_sentences(archive, copy).await.unwrap(), removed);
        assert_eq!(stories::get(archive, copy).await.unwrap().searchable_text.as_deref(), Some("First. Second."));
        stories::set_sentence_removal(archive, copy, None, &[]).await.unwrap();
        assert!(stories::removed_sentences(archive, copy).await.unwrap().is_empty());
        assert_eq!(stories::get(archive, copy).await.unwrap().searchable_text, None);
        assert!(stories::set_sentence_removal(archive, 999, None, &[]).await.is_err());
    }
}
