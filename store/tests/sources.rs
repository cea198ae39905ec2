//! Media sources.

use store::sources::{self, Added, NewSource};
use store::{Archive, Error};

use store::on_both_backends;

fn new(name: &str, homepage: &str) -> NewSource {
    NewSource {
        name: name.to_owned(),
        homepage: homepage.to_owned(),
        canonical_domain: "example.com".to_owned(),
        timezone: "America/New_York".to_owned(),
    }
}

on_both_backends! {
    async fn round_trip(archive: &Archive) {
        let added = sources::add(archive, &new("Daily", "https://daily.example/")).await.unwrap();
        let Added::New(source) = added else { panic!("expected a new source: {added:?}") };
        assert_eq!(source.name, "Daily");
        assert_eq!(source.homepage, "https://daily.example/");
        assert_eq!(source.canonical_domain, "example.com");
        assert_eq!(source.timezone, "America/New_York");
        assert_eq!(source.discovered_at, None);
        assert_eq!(sources::get(archive, source.id).await.unwrap(), source);
        assert_eq!(sources::by_name(archive, "Daily").await.unwrap(), Some(source.clone()));
        assert_eq!(sources::list(archive).await.unwrap(), vec![source.clone()]);
        assert_eq!(sources::undiscovered(archive).await.unwrap(), vec![source.clone()]);

        sources::mark_discovered(archive, source.id, crate::at(3, 12)).await.unwrap();
        let discovered = sources::get(archive, source.id).await.unwrap();
        assert_eq!(discovered.discovered_at, Some(crate::at(3, 12)));
        assert!(sources::undiscovered(archive).await.unwrap().is_empty());
    }

    async fn adding_again_is_idempotent(archive: &Archive) {
        let first = sources::add(archive, &new("Daily", "https://daily.example/")).await.unwrap();
        let again = sources::add(archive, &new("Daily", "https://daily.example/")).await.unwrap();
        assert_eq!(again, Added::Existing(first.source().clone()));
        assert_eq!(sources::list(archive).await.unwrap().len(), 1);
    }

    async fn the_same_name_with_another_homepage_conflicts(archive: &Archive) {
        sources::add(archive, &new("Daily", "https://daily.example/")).await.unwrap();
        let err = sources::add(archive, &new("Daily", "https://other.example/")).await.unwrap_err();
        assert!(matches!(err, Error::Conflict { .. }), "{err:?}");
        assert_eq!(sources::list(archive).await.unwrap().len(), 1);
    }

    async fn missing_sources_are_not_found(archive: &Archive) {
        assert!(matches!(sources::get(archive, 99).await, Err(Error::NotFound { .. })));
        assert!(matches!(
            sources::mark_discovered(archive, 99, crate::at(1, 0)).await,
            Err(Error::NotFound { .. })
        ));
        assert_eq!(sources::by_name(archive, "nobody").await.unwrap(), None);
    }
}
