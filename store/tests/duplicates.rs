//! Duplicate links.

use std::collections::BTreeMap;

use store::duplicates::{self, NewLink};
use store::{Archive, Error};

use store::on_both_backends;

on_both_backends! {
    async fn round_trip_and_idempotence(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let new = NewLink {
            story_id: b,
            of_story_id: a,
            method: "near_copy".to_owned(),
            score: 0.93,
            scores: BTreeMap::from([("jaccard".to_owned(), 0.93), ("cosine".to_owned(), 0.97)]),
            thresholds: BTreeMap::from([("jaccard".to_owned(), 0.8)]),
            explanation: Some("near-copy: 93% of the shorter text's word sequences are in the longer".to_owned()),
        };
        let (link, is_new) = duplicates::link(archive, &new).await.unwrap();
        assert!(is_new);
        assert_eq!(link.link, new);
        let (again, is_new) = duplicates::link(archive, &new).await.unwrap();
        assert!(!is_new);
        assert_eq!(again, link);

        // Another method for the same pair is another piece of evidence.
        let title = NewLink { method: "title".to_owned(), score: 1.0, ..new.clone() };
        duplicates::link(archive, &title).await.unwrap();
        let other = NewLink { story_id: c, ..title.clone() };
        duplicates::link(archive, &other).await.unwrap();
        let of_a = duplicates::involving(archive, a).await.unwrap();
        assert_eq!(of_a.len(), 3);
        assert_eq!(duplicates::involving(archive, c).await.unwrap().len(), 1);
    }

    async fn unlink_deletes_one_link_only(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let link = NewLink { story_id: b, of_story_id: a, method: "minhash".to_owned(), score: 0.9, ..NewLink::default() };
        duplicates::link(archive, &link).await.unwrap();
        let other_method = NewLink { method: "passage".to_owned(), ..link.clone() };
        duplicates::link(archive, &other_method).await.unwrap();
        let other_pair = NewLink { story_id: c, ..link.clone() };
        duplicates::link(archive, &other_pair).await.unwrap();
        // The other direction is not the link.
        assert!(!duplicates::unlink(archive, a, b, "minhash").await.unwrap());
        assert!(duplicates::unlink(archive, b, a, "minhash").await.unwrap());
        assert!(!duplicates::unlink(archive, b, a, "minhash").await.unwrap());
        let left: Vec<(i64, String)> = duplicates::involving(archive, a).await.unwrap().into_iter().map(|l| (l.link.story_id, l.link.method)).collect();
        assert_eq!(left, vec![(b, "passage".to_owned()), (c, "minhash".to_owned())]);
        // Linked again later, it is a new link.
        assert!(duplicates::link(archive, &link).await.unwrap().1);
    }

    async fn a_story_cannot_duplicate_itself(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let a = crate::story(archive, source.id, "a").await;
        let selfie = NewLink { story_id: a, of_story_id: a, method: "title".to_owned(), ..NewLink::default() };
        assert!(matches!(duplicates::link(archive, &selfie).await, Err(Error::Conflict { .. })));
    }
}
