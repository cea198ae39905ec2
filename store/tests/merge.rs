//! Exact-match merging with the normalizer's real keys.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use store::Archive;
use store::merge::{self, AlsoUrl, Merged, Sighting, TITLE_METHOD};
use store::stories::{self, NewStory, UrlKind};

use store::on_both_backends;

const SOURCE: &str = "The Daily";

/// The calendar day of `at` in the source's timezone.
fn local_day(at: DateTime<Utc>, timezone: &str) -> NaiveDate {
    let tz: Tz = timezone.parse().expect("IANA timezone");
    at.with_timezone(&tz).date_naive()
}

/// A sighting of `url` with `title`, published at `at`, keyed by the normalizer.
fn sighting(source_id: i64, url: &str, title: &str, at: DateTime<Utc>) -> Sighting {
    Sighting {
        story: NewStory {
            source_id,
            url: url.to_owned(),
            lossy_url: normalizer::lossy_url(url).expect("usable URL"),
            title: Some(normalizer::clean_title(title, Some(SOURCE))),
            normalized_title: normalizer::title_key(title, Some(SOURCE)),
            text: "The mayor announced a new budget plan for the city's schools on Tuesday."
                .to_owned(),
            published_at: Some(at),
            published_day: Some(local_day(at, "Europe/Madrid")),
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        },
        also: Vec::new(),
    }
}

async fn daily(archive: &Archive) -> i64 {
    let new = store::sources::NewSource {
        name: SOURCE.to_owned(),
        homepage: "https://www.daily.example/".to_owned(),
        canonical_domain: "daily.example".to_owned(),
        timezone: "Europe/Madrid".to_owned(),
    };
    store::sources::add(archive, &new).await.unwrap().source().id
}

fn at(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0).single().unwrap()
}

on_both_backends! {
    // See: the normalizer issue's end-to-end acceptance.
    async fn three_url_variants_and_a_decorated_title_make_one_story_and_one_title_link(archive: &Archive) {
        let source_id = daily(archive).await;
        let title = "Mayor announces new budget plan for city schools";
        let variants = [
            "https://www.daily.example/2026/11/03/budget-plan?utm_source=twitter&utm_medium=social&fbclid=IwAR0x",
            "https://m.daily.example/2026/11/03/budget-plan",
            "https://daily.example/2026/11/03/budget-plan#comments",
        ];
        let mut merged = Vec::new();
        for url in variants {
            merged.push(merge::merge(archive, &sighting(source_id, url, title, at(3, 9, 0))).await.unwrap());
        }
        let first = merged[0].story().clone();
        assert!(matches!(merged[0], Merged::New { title_duplicate_of: None, .. }), "{:?}", merged[0]);
        for later in &merged[1..] {
            assert_eq!(later, &Merged::Known { story: first.clone() });
        }
        let urls: Vec<(String, UrlKind)> = stories::urls(archive, first.id)
            .await
            .unwrap()
            .into_iter()
            .map(|url| (url.url, url.kind))
            .collect();
        assert_eq!(
            urls,
            vec![
                (variants[0].to_owned(), UrlKind::First),
                (variants[1].to_owned(), UrlKind::Variant),
                (variants[2].to_owned(), UrlKind::Variant),
            ]
        );

        // The same story republished at another address under a decorated title, same day.
        let decorated = format!("{title} - {SOURCE}");
        let again = sighting(source_id, "https://www.daily.example/news/budget-plan-schools", &decorated, at(3, 15, 30));
        let republished = merge::merge(archive, &again).await.unwrap();
        let Merged::New { story, title_duplicate_of } = republished else { panic!("{republished:?}") };
        assert_eq!(title_duplicate_of, Some(first.id));
        let links = store::duplicates::involving(archive, first.id).await.unwrap();
        assert_eq!(links.len(), 1);
        assert_eq!((links[0].link.story_id, links[0].link.of_story_id), (story.id, first.id));
        assert_eq!(links[0].link.method, TITLE_METHOD);
        assert_eq!(stories::count(archive).await.unwrap(), 2);

        // Re-ingesting everything changes nothing.
        for url in variants {
            merge::merge(archive, &sighting(source_id, url, title, at(3, 9, 0))).await.unwrap();
        }
        merge::merge(archive, &again).await.unwrap();
        assert_eq!(stories::count(archive).await.unwrap(), 2);
        assert_eq!(stories::urls(archive, first.id).await.unwrap().len(), 3);
        assert_eq!(store::duplicates::involving(archive, first.id).await.unwrap().len(), 1);
    }

    async fn the_day_is_the_sources_calendar_day(archive: &Archive) {
        let source_id = daily(archive).await;
        let title = "Regional parliament approves the new housing law after long debate";
        // Madrid is UTC+1 in November: 23:30 UTC on the 3rd is already the 4th there, like
        // 00:30 UTC on the 4th; noon UTC on the 3rd is the 3rd.
        let late = sighting(source_id, "https://daily.example/a", title, at(3, 23, 30));
        let early = sighting(source_id, "https://daily.example/b", title, at(4, 0, 30));
        let before = sighting(source_id, "https://daily.example/c", title, at(3, 12, 0));
        assert!(matches!(merge::merge(archive, &late).await.unwrap(), Merged::New { title_duplicate_of: None, .. }));
        let second = merge::merge(archive, &early).await.unwrap();
        assert!(matches!(second, Merged::New { title_duplicate_of: Some(_), .. }), "{second:?}");
        let third = merge::merge(archive, &before).await.unwrap();
        assert!(matches!(third, Merged::New { title_duplicate_of: None, .. }), "the 3rd in Madrid: {third:?}");
    }

    async fn generic_titles_never_match(archive: &Archive) {
        let source_id = daily(archive).await;
        for (path, title) in [("a", SOURCE), ("b", SOURCE), ("c", "(no title)"), ("d", "(no title)"), ("e", ""), ("f", "")] {
            let merged = merge::merge(archive, &sighting(source_id, &format!("https://daily.example/{path}"), title, at(3, 9, 0))).await.unwrap();
            assert!(matches!(merged, Merged::New { title_duplicate_of: None, .. }), "{title:?}: {merged:?}");
        }
    }

    async fn other_sources_do_not_match_by_title(archive: &Archive) {
        let daily = daily(archive).await;
        let other = crate::source(archive, "other").await.id;
        let title = "Mayor announces new budget plan for city schools";
        merge::merge(archive, &sighting(daily, "https://daily.example/a", title, at(3, 9, 0))).await.unwrap();
        let elsewhere = merge::merge(archive, &sighting(other, "https://other.example/a", title, at(3, 9, 0))).await.unwrap();
        assert!(matches!(elsewhere, Merged::New { title_duplicate_of: None, .. }), "{elsewhere:?}");
    }

    async fn a_canonical_url_leads_to_the_story_it_names(archive: &Archive) {
        let source_id = daily(archive).await;
        let title = "Mayor announces new budget plan for city schools";
        let original = merge::merge(archive, &sighting(source_id, "https://daily.example/2026/budget", title, at(3, 9, 0))).await.unwrap();
        // An AMP copy at another path whose rel=canonical names the original.
        let mut amp = sighting(source_id, "https://daily.example/amp/2026/budget-amp", title, at(3, 9, 0));
        let canonical = "https://daily.example/2026/budget";
        amp.also.push(AlsoUrl { url: format!("{canonical}?ref=amp"), lossy_url: normalizer::lossy_url(canonical).unwrap(), kind: UrlKind::Canonical });
        let merged = merge::merge(archive, &amp).await.unwrap();
        assert_eq!(merged, Merged::Known { story: original.story().clone() });
        let kinds: Vec<UrlKind> = stories::urls(archive, original.story().id).await.unwrap().iter().map(|url| url.kind).collect();
        assert_eq!(kinds, vec![UrlKind::First, UrlKind::Variant, UrlKind::Canonical]);
    }

    // See: the workers issue (two workers, one page under two URLs at once).
    async fn a_redirect_and_its_target_sighted_at_once_make_one_story(archive: &Archive) {
        let source_id = daily(archive).await;
        let pages = 24;
        for page in 0..pages {
            let target = format!("https://daily.example/2026/story-{page}");
            let title = format!("Council votes on the new tram line, part {page}");
            let direct = sighting(source_id, &target, &title, at(3, 9, 0));
            let mut redirected = sighting(source_id, &format!("https://daily.example/go/{page}"), &title, at(3, 9, 0));
            redirected.also.push(AlsoUrl { url: target.clone(), lossy_url: normalizer::lossy_url(&target).unwrap(), kind: UrlKind::Redirect });
            // Both merges run at once, on connections of their own; which starts first alternates.
            let (first, second) = if page % 2 == 0 { (&direct, &redirected) } else { (&redirected, &direct) };
            let (a, b) = tokio::join!(merge::merge(archive, first), merge::merge(archive, second));
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!(a.story().id, b.story().id, "page {page}: {a:?} and {b:?}");
            assert!(matches!((&a, &b), (Merged::New { .. }, Merged::Known { .. }) | (Merged::Known { .. }, Merged::New { .. })), "page {page}: {a:?} and {b:?}");
            assert_eq!(stories::urls(archive, a.story().id).await.unwrap().len(), 2, "page {page}");
        }
        assert_eq!(stories::count(archive).await.unwrap(), pages);
    }
}
