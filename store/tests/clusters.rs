//! Story clusters.

use store::clusters::{self, Member};
use store::{Archive, Error};

use store::on_both_backends;

fn member(story_id: i64, relation: &str, score: f64) -> Member {
    Member { story_id, relation: Some(relation.to_owned()), score: Some(score) }
}

on_both_backends! {
    async fn round_trip(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let cluster = clusters::create(archive, a, &[member(b, "duplicate", 0.95), member(c, "similar", 0.7)]).await.unwrap();
        assert_eq!(cluster.representative_story_id, a);
        assert_eq!(
            cluster.members,
            vec![
                Member { story_id: a, relation: None, score: None },
                member(b, "duplicate", 0.95),
                member(c, "similar", 0.7),
            ]
        );
        assert_eq!(clusters::get(archive, cluster.id).await.unwrap(), cluster);
        assert_eq!(clusters::of_story(archive, c).await.unwrap(), Some(cluster));
    }

    async fn a_story_moves_between_clusters_and_empty_clusters_go(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let (a, b, c) = (crate::story(archive, source.id, "a").await, crate::story(archive, source.id, "b").await, crate::story(archive, source.id, "c").await);
        let first = clusters::create(archive, a, &[]).await.unwrap();
        let second = clusters::create(archive, b, &[member(c, "similar", 0.6)]).await.unwrap();
        // Merge: the second cluster takes a, emptying the first, which is deleted.
        let merged = clusters::replace(archive, second.id, b, &[member(a, "similar", 0.65), member(c, "similar", 0.6)]).await.unwrap();
        assert_eq!(merged.members.len(), 3);
        assert!(matches!(clusters::get(archive, first.id).await, Err(Error::NotFound { .. })));
        assert_eq!(clusters::of_story(archive, a).await.unwrap().map(|cluster| cluster.id), Some(second.id));
        assert!(clusters::replace(archive, 999, a, &[]).await.is_err());
    }

    async fn placements_of_many_stories(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let mut ids = Vec::new();
        for path in ["a", "b", "c", "d", "e"] {
            ids.push(crate::story(archive, source.id, path).await);
        }
        let (a, b, c, d, e) = (ids[0], ids[1], ids[2], ids[3], ids[4]);
        let first = clusters::create(archive, a, &[member(b, "duplicate", 0.95), member(c, "similar", 0.7)]).await.unwrap();
        let second = clusters::create(archive, d, &[member(e, "similar", 0.6)]).await.unwrap();
        let placements = clusters::placements(archive, &[a, c, e, 999]).await.unwrap();
        assert_eq!(placements.len(), 3);
        let placement = |story| placements.get(&story).cloned().unwrap();
        assert_eq!(placement(a), clusters::Placement { cluster_id: first.id, representative_story_id: a, size: 3, relation: None });
        assert_eq!(placement(c).relation.as_deref(), Some("similar"));
        assert_eq!(placement(e), clusters::Placement { cluster_id: second.id, representative_story_id: d, size: 2, relation: Some("similar".to_owned()) });
        assert!(clusters::placements(archive, &[]).await.unwrap().is_empty());
        let members = clusters::members_of(archive, &[second.id, first.id, 999]).await.unwrap();
        assert_eq!(members.len(), 2);
        assert_eq!(members[&first.id], [a, b, c]);
        assert_eq!(members[&second.id], [d, e]);
        assert!(clusters::members_of(archive, &[]).await.unwrap().is_empty());
    }

    async fn many_clusters_at_once(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let mut ids = Vec::new();
        for path in ["a", "b", "c", "d", "e", "f"] {
            ids.push(crate::story(archive, source.id, path).await);
        }
        let (a, b, c, d, e, f) = (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]);
        let created = clusters::create_many(archive, &[(a, vec![member(b, "duplicate", 1.0)]), (c, vec![member(d, "similar", 0.7), member(e, "similar", 0.6)])]).await.unwrap();
        assert_eq!(created.len(), 2);
        let first = clusters::get(archive, created[0]).await.unwrap();
        assert_eq!(first.representative_story_id, a);
        assert_eq!(first.members, vec![Member { story_id: a, relation: None, score: None }, member(b, "duplicate", 1.0)]);
        assert_eq!(clusters::get(archive, created[1]).await.unwrap().members.len(), 3);
        // The deduplicated view reads the representatives written on the stories.
        let folded = store::stories::Filter { one_per_cluster: true, ..Default::default() };
        let page: Vec<i64> = store::stories::page(archive, &folded, 0, 10).await.unwrap().iter().map(|story| story.id).collect();
        assert_eq!(page, [a, c, f]);
        // A story already in a cluster, or in two new ones, is refused, and nothing is written.
        for clusters in [vec![(f, vec![member(a, "similar", 0.5)])], vec![(f, vec![]), (f, vec![])]] {
            let err = clusters::create_many(archive, &clusters).await.unwrap_err();
            assert!(matches!(err, Error::Conflict { .. }), "{err}");
        }
        assert_eq!(clusters::count(archive).await.unwrap(), 2);
        assert_eq!(clusters::of_story(archive, f).await.unwrap(), None);
    }
}
