//! Dedup signatures, links among a set of stories, and leaving clusters.

use store::Archive;
use store::clusters::{self, Member};
use store::duplicates::{self, NewLink};
use store::signatures::{self, Stored};

use store::on_both_backends;

on_both_backends! {
    async fn signatures_round_trip_and_mark_stories_done(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let a = crate::story(archive, source.id, "a").await;
        let b = crate::story(archive, source.id, "b").await;
        let c = crate::story(archive, source.id, "c").await;
        let missing: Vec<i64> = signatures::missing(archive, 0, 10).await.unwrap().iter().map(|s| s.id).collect();
        assert_eq!(missing, vec![a, b, c]);
        let stored = Stored { story_id: b, published_at: Some(crate::at(3, 9)), bytes: vec![0, 1, 2, 255] };
        signatures::put(archive, &stored).await.unwrap();
        signatures::put(archive, &Stored { story_id: a, published_at: Some(crate::at(9, 9)), bytes: vec![7] }).await.unwrap();
        let missing: Vec<i64> = signatures::missing(archive, 0, 10).await.unwrap().iter().map(|s| s.id).collect();
        assert_eq!(missing, vec![c]);
        assert_eq!(signatures::missing(archive, c, 10).await.unwrap(), vec![]);
        assert_eq!(signatures::between(archive, crate::at(3, 0), crate::at(4, 0)).await.unwrap(), vec![stored.clone()]);
        // Storing again replaces.
        let again = Stored { bytes: vec![9, 9], ..stored };
        signatures::put(archive, &again).await.unwrap();
        assert_eq!(signatures::between(archive, crate::at(3, 0), crate::at(4, 0)).await.unwrap(), vec![again]);
        assert_eq!(signatures::count(archive).await.unwrap(), 2);
    }

    async fn links_among_a_set_of_stories(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let link = |story_id, of_story_id, method: &str| NewLink { story_id, of_story_id, method: method.to_owned(), score: 0.9, ..NewLink::default() };
        duplicates::link(archive, &link(b, a, "near_copy")).await.unwrap();
        duplicates::link(archive, &link(c, a, "near_copy")).await.unwrap();
        duplicates::link(archive, &link(c, b, "title")).await.unwrap();
        let among = duplicates::among(archive, &[a, b], &["near_copy"]).await.unwrap();
        assert_eq!(among.len(), 1);
        assert_eq!((among[0].link.story_id, among[0].link.of_story_id), (b, a));
        assert_eq!(duplicates::among(archive, &[a, b, c], &["near_copy", "title"]).await.unwrap().len(), 3);
    }

    async fn a_story_leaves_its_cluster_and_a_lone_member_dissolves_it(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let member = |story_id| Member { story_id, relation: Some("duplicate".to_owned()), score: Some(0.9) };
        let cluster = clusters::create(archive, a, &[member(b), member(c)]).await.unwrap();
        clusters::remove_story(archive, c).await.unwrap();
        assert_eq!(clusters::get(archive, cluster.id).await.unwrap().members.len(), 2);
        assert_eq!(clusters::of_story(archive, c).await.unwrap(), None);
        clusters::remove_story(archive, b).await.unwrap();
        assert!(clusters::get(archive, cluster.id).await.is_err(), "a cluster of one is no cluster");
        assert_eq!(clusters::of_story(archive, a).await.unwrap(), None);
        clusters::remove_story(archive, a).await.unwrap();
    }
}
