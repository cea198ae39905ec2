//! The text boundary: arbitrary strings in every text column are stored without an error and read
//! back as `store::text` documents (NUL replaced, lengths capped), the same on both backends.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRunner};
use store::feeds::{self, FeedKind, NewFeed, Poll};
use store::fetches::{self, RawFetch};
use store::frontier::{self, NewUrl, State};
use store::sources::{self, Added, NewSource};
use store::stories::{self, NewStory, RemovedSentence, UrlKind};
use store::text::{MAX_LINE, MAX_TEXT, line, long};
use store::workers::{self, NewWorker};
use store::{Archive, clusters, duplicates};

use store::on_both_backends;

/// How many strings one case writes.
const FIELDS: usize = 47;

/// Arbitrary text, NUL-heavy text, and text around and past [`MAX_LINE`], repetitive or not
/// (PostgreSQL compresses index entries, so only text that does not compress finds its limit).
fn text() -> impl Strategy<Value = String> {
    proptest::prop_oneof![
        proptest::arbitrary::any::<String>(),
        "[\\x00a\u{e9}\u{FFFD}\u{1F600} ]{0,40}",
        ("[\\x00a\u{e9}]", 600usize..800).prop_map(|(c, n)| c.repeat(n)),
        proptest::collection::vec(proptest::arbitrary::any::<char>(), 500..1000)
            .prop_map(String::from_iter),
    ]
}

fn lines(texts: &[String]) -> Vec<String> {
    texts.iter().map(|t| line(t).into_owned()).collect()
}

/// Writes one case's strings through every repository function that stores text, and checks
/// what comes back.
async fn check(archive: &Archive, case: usize, fields: &[String]) {
    // Each value is prefixed with its case and place, so that keys never collide across values.
    let f: Vec<String> =
        fields.iter().enumerate().map(|(i, text)| format!("{case}.{i}:{text}")).collect();
    let l = |i: usize| line(&f[i]).into_owned();

    let added = sources::add(
        archive,
        &NewSource {
            name: f[0].clone(),
            homepage: f[1].clone(),
            canonical_domain: f[2].clone(),
            timezone: f[3].clone(),
        },
    )
    .await
    .unwrap();
    let Added::New(source) = added else { panic!("a new source: {added:?}") };
    assert_eq!((&source.name, &source.homepage), (&l(0), &l(1)));
    assert_eq!((&source.canonical_domain, &source.timezone), (&l(2), &l(3)));
    assert_eq!(sources::get(archive, source.id).await.unwrap(), source);
    assert_eq!(sources::by_name(archive, &f[0]).await.unwrap(), Some(source.clone()));
    let again = NewSource {
        name: f[0].clone(),
        homepage: f[1].clone(),
        canonical_domain: String::new(),
        timezone: String::new(),
    };
    assert_eq!(sources::add(archive, &again).await.unwrap(), Added::Existing(source.clone()));

    let new_feed = NewFeed {
        source_id: source.id,
        url: f[4].clone(),
        url_key: f[5].clone(),
        kind: FeedKind::Rss,
        title: Some(f[6].clone()),
        discovered_via: f[7].clone(),
        depth: 0,
        update_hint_secs: None,
        poll_interval_secs: 3600,
        next_poll_at: None,
    };
    let (feed, is_new) = feeds::add(archive, &new_feed).await.unwrap();
    assert!(is_new);
    assert_eq!((&feed.url, &feed.url_key), (&l(4), &l(5)));
    assert_eq!((feed.title.clone(), &feed.discovered_via), (Some(l(6)), &l(7)));
    assert_eq!(feeds::add(archive, &new_feed).await.unwrap(), (feed.clone(), false));
    let poll = Poll {
        polled_at: crate::at(3, 1),
        success: false,
        status: f[8].clone(),
        etag: Some(f[9].clone()),
        last_modified: Some(f[10].clone()),
        body_hash: Some(f[11].clone()),
        found_new_items: false,
        update_hint_secs: None,
        failure_count: 0.5,
        poll_interval_secs: 3600,
        next_poll_at: crate::at(3, 2),
    };
    let polled = feeds::record_poll(archive, feed.id, &poll).await.unwrap();
    assert_eq!((polled.last_status, polled.etag), (Some(l(8)), Some(l(9))));
    assert_eq!((polled.last_modified, polled.body_hash), (Some(l(10)), Some(l(11))));

    let new_url = NewUrl {
        url: f[12].clone(),
        lossy_url: f[13].clone(),
        source_id: source.id,
        feed_id: Some(feed.id),
        next_attempt_at: crate::at(3, 0),
        hint_published_at: None,
        hint_title: Some(f[14].clone()),
        hint_meta: Some(serde_json::json!({ "guid": { "value": f[15], "from": "feed" } })),
    };
    let (entry, is_new) = frontier::enqueue(archive, &new_url).await.unwrap();
    assert!(is_new);
    assert_eq!(
        (&entry.url, &entry.lossy_url, entry.hint_title.clone()),
        (&l(12), &l(13), Some(l(14)))
    );
    assert_eq!(
        entry.hint_meta,
        Some(serde_json::json!({ "guid": { "value": l(15), "from": "feed" } }))
    );
    assert_eq!(frontier::by_lossy_url(archive, &f[13]).await.unwrap(), Some(entry.clone()));
    assert_eq!(frontier::enqueue(archive, &new_url).await.unwrap(), (entry.clone(), false));
    let leased =
        frontier::lease_due(archive, crate::at(3, 1), 10, &f[17], chrono::Duration::minutes(5))
            .await
            .unwrap();
    assert_eq!(leased.iter().map(|e| e.lease_owner.clone()).collect::<Vec<_>>(), vec![Some(l(17))]);
    assert!(frontier::lease_owners(archive).await.unwrap().contains(&l(17)));
    assert_eq!(frontier::release(archive, &f[17], crate::at(3, 1)).await.unwrap(), 1);
    let deferred = frontier::defer(archive, entry.id, &f[18], crate::at(3, 2)).await.unwrap();
    assert_eq!(deferred.last_error, Some(l(18)));
    let settled =
        frontier::settle(archive, entry.id, State::Failed, Some(&f[16]), None).await.unwrap();
    assert_eq!(settled.last_error, Some(l(16)));

    let raw = RawFetch {
        frontier_id: Some(entry.id),
        feed_id: None,
        requested_url: f[19].clone(),
        final_url: f[20].clone(),
        redirect_chain: vec![f[21].clone()],
        status: None,
        request: None,
        headers: vec![(f[22].clone(), f[23].clone())],
        content_type: Some(f[24].clone()),
        body: f[25].clone().into_bytes(),
        error: Some(f[25].clone()),
        started_at: crate::at(3, 1),
        first_byte_ms: None,
        total_ms: None,
    };
    let id = fetches::insert(archive, &raw).await.unwrap();
    let stored = fetches::get(archive, id).await.unwrap().fetch;
    assert_eq!((&stored.requested_url, &stored.final_url), (&l(19), &l(20)));
    assert_eq!(stored.redirect_chain, vec![l(21)]);
    // Headers are long text (the HTTP client bounds them already).
    assert_eq!(stored.headers, vec![(long(&f[22]).into_owned(), long(&f[23]).into_owned())]);
    assert_eq!((stored.content_type, stored.error), (Some(l(24)), Some(l(25))));
    assert_eq!(stored.body, raw.body, "bodies are bytes, kept exactly");

    let day = NaiveDate::from_ymd_opt(2026, 11, 3);
    let new_story = NewStory {
        source_id: source.id,
        fetch_id: Some(id),
        url: f[26].clone(),
        lossy_url: f[27].clone(),
        canonical_url: Some(f[28].clone()),
        title: Some(f[29].clone()),
        normalized_title: Some(f[30].clone()),
        text: f[31].clone(),
        language: Some(f[32].clone()),
        authors: vec![f[33].clone()],
        published_at: Some(crate::at(3, 9)),
        published_day: day,
        provenance: BTreeMap::from([(f[34].clone(), f[35].clone())]),
        extractor_version: f[36].clone(),
    };
    let story = stories::insert(archive, &new_story).await.unwrap().story().clone();
    let expected = NewStory {
        url: l(26),
        lossy_url: l(27),
        canonical_url: Some(l(28)),
        title: Some(l(29)),
        normalized_title: Some(l(30)),
        text: long(&f[31]).into_owned(),
        language: Some(l(32)),
        authors: lines(&f[33..34]),
        provenance: BTreeMap::from([(l(34), l(35))]),
        extractor_version: l(36),
        ..new_story.clone()
    };
    assert_eq!(story.story, expected);
    assert_eq!(stories::get(archive, story.id).await.unwrap(), story);
    assert_eq!(stories::by_lossy_url(archive, &f[27]).await.unwrap(), Some(story.clone()));
    assert_eq!(stories::by_url(archive, &f[26]).await.unwrap(), Some(story.clone()));
    let matched = stories::title_match(archive, source.id, day.unwrap(), &f[30], 0).await.unwrap();
    assert_eq!(matched.map(|s| s.id), Some(story.id));
    let (url, _) =
        stories::add_url(archive, story.id, &f[37], &f[38], UrlKind::Variant).await.unwrap();
    assert_eq!((url.url, url.lossy_url), (l(37), l(38)));
    assert_eq!(
        stories::by_any_lossy_url(archive, &f[38]).await.unwrap().map(|s| s.id),
        Some(story.id)
    );
    let removed =
        [RemovedSentence { position: 0, sentence: f[40].clone(), owner_story_id: story.id }];
    stories::set_sentence_removal(archive, story.id, Some(&f[39]), &removed).await.unwrap();
    let after = stories::get(archive, story.id).await.unwrap();
    assert_eq!(after.searchable_text, Some(long(&f[39]).into_owned()));
    let back = stories::removed_sentences(archive, story.id).await.unwrap();
    assert_eq!(
        back.iter().map(|r| r.sentence.clone()).collect::<Vec<_>>(),
        vec![long(&f[40]).into_owned()]
    );
    let filter = stories::Filter { language: Some(f[32].clone()), ..stories::Filter::default() };
    let page = stories::page(archive, &filter, 0, 1000).await.unwrap();
    assert!(page.iter().any(|s| s.id == story.id));

    let other = crate::story(archive, source.id, &format!("other-{case}")).await;
    let link = duplicates::NewLink {
        story_id: other,
        of_story_id: story.id,
        method: f[41].clone(),
        score: 1.0,
        scores: BTreeMap::from([(f[42].clone(), 0.5)]),
        thresholds: BTreeMap::new(),
        explanation: Some(f[46].clone()),
    };
    let (stored_link, is_new) = duplicates::link(archive, &link).await.unwrap();
    assert!(is_new);
    assert_eq!(stored_link.link.method, l(41));
    assert_eq!(stored_link.link.explanation, Some(l(46)));
    assert_eq!(stored_link.link.scores, BTreeMap::from([(l(42), 0.5)]));
    assert_eq!(duplicates::link(archive, &link).await.unwrap(), (stored_link, false));
    let member = clusters::Member { story_id: other, relation: Some(f[43].clone()), score: None };
    let cluster = clusters::create(archive, story.id, &[member]).await.unwrap();
    let relation = cluster.members.iter().find(|m| m.story_id == other).unwrap().relation.clone();
    assert_eq!(relation, Some(l(43)));

    let me = NewWorker { name: f[44].clone(), host: f[45].clone(), pid: 7 };
    workers::register(archive, &me, crate::at(3, 1)).await.unwrap();
    let worker = workers::get(archive, &f[44]).await.unwrap().unwrap();
    assert_eq!((&worker.name, &worker.host), (&l(44), &l(45)));
    assert!(workers::heartbeat(archive, &me, crate::at(3, 2)).await.unwrap());
    workers::remove(archive, &f[44]).await.unwrap();
}

/// Shows a failing case's fields (their first characters) when the check panics.
struct Shows<'a>(usize, &'a [String]);

impl Drop for Shows<'_> {
    #[allow(clippy::print_stderr, reason = "the failing case, beside the test's panic message")]
    fn drop(&mut self) {
        if std::thread::panicking() {
            let shown: Vec<String> = self.1.iter().map(|f| f.chars().take(60).collect()).collect();
            eprintln!("failing case {} (each field's first 60 characters): {shown:?}", self.0);
        }
    }
}

on_both_backends! {
    async fn arbitrary_text_in_every_column_round_trips_as_documented(archive: &Archive) {
        let mut runner = TestRunner::new(Config { cases: 16, ..Config::default() });
        let strategy = proptest::collection::vec(text(), FIELDS);
        for case in 0..16 {
            let fields = strategy.new_tree(&mut runner).unwrap().current();
            let _shows = Shows(case, &fields);
            check(archive, case, &fields).await;
        }
    }

    async fn edge_cases_round_trip(archive: &Archive) {
        let nul_run = "\0".repeat(MAX_LINE);
        let cut_in_a_character = format!("{}\u{e9}", "x".repeat(MAX_LINE - 1));
        let mut fields = vec![String::new(); FIELDS];
        for (i, field) in fields.iter_mut().enumerate() {
            *field = match i % 4 {
                0 => nul_run.clone(),
                1 => cut_in_a_character.clone(),
                2 => "\u{0}\u{1}\u{7f}\u{FFFD}\u{10FFFF}".to_owned(),
                _ => String::new(),
            };
        }
        check(archive, 0, &fields).await;
    }

    async fn long_text_is_cut_at_its_own_cap(archive: &Archive) {
        let source = crate::source(archive, "daily").await;
        let text = format!("{}\0{}", "a".repeat(MAX_TEXT - 2), "b".repeat(10));
        let new = NewStory {
            source_id: source.id,
            url: "http://daily.example/long".to_owned(),
            lossy_url: "http://daily.example/long".to_owned(),
            text: text.clone(),
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        };
        let story = stories::insert(archive, &new).await.unwrap().story().clone();
        assert_eq!(story.story.text.len(), MAX_TEXT - 2, "the replacement character does not fit");
        assert_eq!(story.story.text, long(&text));
    }
}
