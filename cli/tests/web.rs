//! `morgue serve` on a crafted archive: every route and parameter of the API, good and bad
//! (injection strings, huge and negative numbers, bad UTF-8 in escapes, unknown names, repeats),
//! the methods it refuses, HEAD, conditional requests, the body limit, and what each page shows.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};

use chrono::{NaiveDate, TimeZone, Utc};
use serde_json::Value;
use store::stories::{NewStory, RemovedSentence, UrlKind};
use store::{Archive, OpenMode};

use crate::{morgue, spawn_morgue, stderr, stdout};

fn block_on<T>(future: impl Future<Output = T>) -> T {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(future)
}

/// The crafted archive's stories, by what they are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Crafted {
    /// "Storm floods the coast" (Daily Planet), the cluster's representative; one sentence of it
    /// was removed as repeated (kept by `budget`).
    pub(crate) storm: i64,
    /// Its copy at the Evening Star, linked to it by `near_copy` with an explanation.
    pub(crate) storm_copy: i64,
    /// A third copy (Quiet Gazette), linked by `embedding`.
    pub(crate) storm_echo: i64,
    /// "Council approves budget" (Daily Planet), in no cluster.
    pub(crate) budget: i64,
    /// A story whose title is markup and whose URL is `javascript:`.
    pub(crate) hostile: i64,
    /// The day the archive was crafted (UTC): the Quiet Gazette kept its last story 5 days
    /// before, and the Evening Star's failures jumped on it.
    pub(crate) today: NaiveDate,
}

/// Why the copy was linked, in words.
pub(crate) const COPY_REASON: &str =
    "the texts share 93% of their word shingles; names and numbers agree (Harbourton, 40 homes)";
/// Why the echo was linked, in words.
pub(crate) const ECHO_REASON: &str =
    "the texts mean the same (cosine 0.91) and share the names Harbourton and Mayor Reyes";
/// The sentence removed from the storm story as repeated.
pub(crate) const REPEATED: &str = "Subscribe to the Daily Planet for more local news.";

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

/// Writes the crafted archive at `url` (a new SQLite file): three sources, a collection, five
/// stories of which three are one cluster with explained links, a removed sentence, URLs.
pub(crate) fn craft(url: &str) -> Crafted {
    block_on(async {
        let archive = Archive::open(url, OpenMode::Create).await.unwrap();
        archive.migrate().await.unwrap();
        let crafted = craft_into(&archive).await;
        archive.close().await.unwrap();
        crafted
    })
}

async fn craft_into(archive: &Archive) -> Crafted {
    let mut sources = BTreeMap::new();
    for (name, host) in
        [("Daily Planet", "planet"), ("Evening Star", "star"), ("Quiet Gazette", "gazette")]
    {
        let new = store::sources::NewSource {
            name: name.to_owned(),
            homepage: format!("https://{host}.example/"),
            canonical_domain: format!("{host}.example"),
            timezone: "UTC".to_owned(),
        };
        let added = store::sources::add(archive, &new).await.unwrap();
        sources.insert(host, added.source().id);
    }
    let metro = store::collections::add(archive, "Metro").await.unwrap();
    store::collections::add_sources(archive, metro.id, &[sources["planet"], sources["star"]])
        .await
        .unwrap();
    let story = async |host: &str, slug: &str, title: &str, text: &str, d: u32| -> i64 {
        let url = if slug.starts_with("javascript:") {
            slug.to_owned()
        } else {
            format!("https://{host}.example/news/{slug}")
        };
        let new = NewStory {
            source_id: sources[host],
            url: url.clone(),
            lossy_url: format!("{host}.example/news/{slug}"),
            title: Some(title.to_owned()),
            text: text.to_owned(),
            language: Some("en".to_owned()),
            authors: vec!["Lois Lane".to_owned()],
            published_at: Some(Utc.with_ymd_and_hms(2026, 11, d, 9, 30, 0).unwrap()),
            published_day: Some(day(d)),
            provenance: [("title".to_owned(), "og:title".to_owned())].into(),
            extractor_version: "test-1".to_owned(),
            ..NewStory::default()
        };
        store::stories::insert(archive, &new).await.unwrap().story().id
    };
    let storm_text = format!(
        "A storm flooded the coast of Harbourton on Monday, and 40 homes were evacuated.\n\nMayor Reyes asked residents to stay away from the harbour.\n\n{REPEATED}"
    );
    let storm = story("planet", "storm", "Storm floods the coast", &storm_text, 2).await;
    let storm_copy = story(
        "star",
        "storm-coast",
        "Storm floods the coast, 40 homes evacuated",
        "A storm flooded the coast of Harbourton on Monday; 40 homes were evacuated.\n\nMayor Reyes asked residents to stay away.",
        2,
    )
    .await;
    let storm_echo = story(
        "gazette",
        "harbourton-weather",
        "Harbourton evacuates homes as sea rises",
        "Residents of Harbourton left 40 homes as the sea rose. Mayor Reyes urged caution.",
        3,
    )
    .await;
    let budget = story(
        "planet",
        "budget",
        "Council approves budget",
        &format!("The council approved the budget for next year.\n\n{REPEATED}"),
        3,
    )
    .await;
    let hostile = story(
        "star",
        "javascript:alert(1)",
        "<script>alert('title')</script> & more",
        "Text with <b>markup</b> that must be shown, not run.",
        4,
    )
    .await;
    let link = async |story_id, of_story_id, method: &str, score, why: &str| {
        let new = store::duplicates::NewLink {
            story_id,
            of_story_id,
            method: method.to_owned(),
            score,
            scores: [(method.to_owned(), score)].into(),
            thresholds: [(method.to_owned(), 0.8)].into(),
            explanation: Some(why.to_owned()),
        };
        store::duplicates::link(archive, &new).await.unwrap();
    };
    link(storm_copy, storm, "near_copy", 0.93, COPY_REASON).await;
    link(storm_echo, storm, "embedding", 0.91, ECHO_REASON).await;
    let member = |story_id, relation: Option<&str>, score| store::clusters::Member {
        story_id,
        relation: relation.map(str::to_owned),
        score,
    };
    store::clusters::create(
        archive,
        storm,
        &[
            member(storm, None, None),
            member(storm_copy, Some("duplicate"), Some(0.93)),
            member(storm_echo, Some("similar"), Some(0.91)),
        ],
    )
    .await
    .unwrap();
    let kept = storm_text.replace(REPEATED, "");
    let removed =
        [RemovedSentence { position: 2, sentence: REPEATED.to_owned(), owner_story_id: budget }];
    store::stories::set_sentence_removal(archive, storm, Some(kept.trim_end()), &removed)
        .await
        .unwrap();
    store::stories::add_url(
        archive,
        storm,
        "https://planet.example/news/storm?utm_source=feed",
        "planet.example/news/storm?variant",
        UrlKind::Variant,
    )
    .await
    .unwrap();
    let today = Utc::now().date_naive();
    crawl_activity(archive, &sources, today).await;
    // The Quiet Gazette's only story was kept five days ago: it went silent since.
    let five_days_ago = today - chrono::Days::new(5);
    archive
        .execute_unprepared(&format!(
            "UPDATE stories SET created_at = '{five_days_ago}T09:00:00+00:00' WHERE id = {storm_echo}"
        ))
        .await
        .unwrap();
    Crafted { storm, storm_copy, storm_echo, budget, hostile, today }
}

/// Four days of polls and page fetches: the Daily Planet and the Quiet Gazette without a
/// failure, the Evening Star with one failure in ten polls a day, then eight in ten today
/// (timeouts and 503s).
async fn crawl_activity(archive: &Archive, sources: &BTreeMap<&str, i64>, today: NaiveDate) {
    for (host, source_id) in sources {
        let feed_url = format!("https://{host}.example/feed.xml");
        let new_feed = store::feeds::NewFeed {
            source_id: *source_id,
            url: feed_url.clone(),
            url_key: format!("{host}.example/feed.xml"),
            kind: store::feeds::FeedKind::Rss,
            title: None,
            discovered_via: "manual".to_owned(),
            depth: 0,
            update_hint_secs: None,
            poll_interval_secs: 3600,
            next_poll_at: None,
        };
        let (feed, _) = store::feeds::add(archive, &new_feed).await.unwrap();
        let new_url = store::frontier::NewUrl {
            url: format!("https://{host}.example/news/page"),
            lossy_url: format!("{host}.example/news/page"),
            source_id: *source_id,
            feed_id: Some(feed.id),
            next_attempt_at: Utc::now(),
            hint_published_at: None,
            hint_title: None,
            hint_meta: None,
        };
        let (entry, _) = store::frontier::enqueue(archive, &new_url).await.unwrap();
        for back in (0..4).rev() {
            let day = today - chrono::Days::new(back);
            let failing = match (*host, back) {
                ("star", 0) => 8,
                ("star", _) => 1,
                _ => 0,
            };
            for poll in 0..10 {
                let at = Utc.from_utc_datetime(&day.and_hms_opt(1, poll, 0).unwrap());
                let (status, error) = match poll {
                    p if p < failing && p % 2 == 0 => {
                        (None, Some(format!("{feed_url}: read timeout")))
                    }
                    p if p < failing => (Some(503), None),
                    _ => (Some(200), None),
                };
                let fetch = |frontier_id, feed_id, status, error| store::fetches::RawFetch {
                    frontier_id,
                    feed_id,
                    requested_url: feed_url.clone(),
                    final_url: feed_url.clone(),
                    redirect_chain: Vec::new(),
                    status,
                    request: None,
                    headers: Vec::new(),
                    content_type: None,
                    body: Vec::new(),
                    error,
                    started_at: at,
                    first_byte_ms: None,
                    total_ms: None,
                };
                store::fetches::insert(archive, &fetch(None, Some(feed.id), status, error))
                    .await
                    .unwrap();
                if poll < 2 {
                    store::fetches::insert(archive, &fetch(Some(entry.id), None, Some(200), None))
                        .await
                        .unwrap();
                }
            }
        }
    }
}

/// `morgue serve` on a crafted archive, stopped (SIGTERM) when dropped.
pub(crate) struct Server {
    /// The archive's directory (`morgue.db`), removed when the server is dropped.
    pub(crate) dir: tempfile::TempDir,
    pub(crate) port: u16,
    pub(crate) crafted: Crafted,
    child: Option<Child>,
}

impl Server {
    pub(crate) fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        let crafted = craft(dir.path().join("morgue.db").to_str().unwrap());
        let mut child = spawn_morgue(dir.path(), &["serve", "--listen", "127.0.0.1:0"], true);
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let port: u16 = first
            .trim()
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        Server { dir, port, crafted, child: Some(child) }
    }

    /// Sends `head` (the request line and headers, without the blank line) and `body`.
    pub(crate) fn raw(&self, head: &str, body: &[u8]) -> Answer {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(stream, "{head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
        stream.write_all(body).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let response = String::from_utf8(response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let mut lines = head.lines();
        let status = lines.next().unwrap().split_whitespace().nth(1).unwrap().parse().unwrap();
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        Answer { status, headers, body: body.to_owned() }
    }

    pub(crate) fn get(&self, path: &str) -> Answer {
        self.raw(&format!("GET {path} HTTP/1.1"), b"")
    }

    /// `GET path`, its JSON; panics unless the answer is JSON.
    pub(crate) fn json(&self, path: &str) -> (u16, Value) {
        let answer = self.get(path);
        assert_eq!(answer.header("content-type"), Some("application/json"), "{path}");
        let value = serde_json::from_str(&answer.body)
            .unwrap_or_else(|_| panic!("{path}: not JSON: {}", answer.body));
        (answer.status, value)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = self.child.take() {
            let term = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            let output = child.wait_with_output().unwrap();
            if !std::thread::panicking() {
                assert!(term.unwrap().success());
                assert!(output.status.success(), "serve failed: {}", stderr(&output));
            }
        }
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

fn ids(value: &Value) -> Vec<i64> {
    value["stories"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect()
}

#[test]
fn the_api_answers_every_route_and_parameter() {
    let server = Server::start();
    let c = server.crafted;
    let all = {
        let mut all = vec![c.storm, c.storm_copy, c.storm_echo, c.budget, c.hostile];
        all.sort_unstable();
        all
    };

    // Stories: everything, then each filter.
    let (status, page) = server.json("/api/stories");
    assert_eq!(status, 200);
    assert_eq!(ids(&page), all);
    assert!(page["next"].is_null());
    assert!(page["stories"][0].get("text").is_none());
    let (_, page) = server.json("/api/stories?text=1&limit=1");
    assert!(page["stories"][0]["text"].is_string());
    // Cursor pages: two at a time, every story once.
    let mut seen = Vec::new();
    let mut after = 0;
    loop {
        let (status, page) = server.json(&format!("/api/stories?limit=2&after={after}"));
        assert_eq!(status, 200);
        let got = ids(&page);
        assert!(got.len() <= 2);
        seen.extend(got);
        match page["next"].as_i64() {
            Some(next) => after = next,
            None => break,
        }
    }
    assert_eq!(seen, all);
    let (_, page) = server.json("/api/stories?one_per_cluster=1");
    assert_eq!(ids(&page), [c.storm, c.budget, c.hostile]);
    let (_, page) = server.json("/api/stories?one_per_cluster=0");
    assert_eq!(ids(&page).len(), 5);
    let (_, page) = server.json("/api/stories?source=Evening+Star");
    assert_eq!(ids(&page), [c.storm_copy, c.hostile]);
    let (_, page) = server.json("/api/stories?source=Evening%20Star&source=Quiet+Gazette");
    assert_eq!(ids(&page), [c.storm_copy, c.storm_echo, c.hostile]);
    let (_, page) = server.json("/api/stories?collection=Metro&since=2026-11-03");
    assert_eq!(ids(&page), [c.budget, c.hostile]);
    let (_, page) = server.json("/api/stories?until=2026-11-02");
    assert_eq!(ids(&page), [c.storm, c.storm_copy]);
    let (_, page) = server.json("/api/stories?language=en&q=harbourton+homes");
    assert_eq!(ids(&page), [c.storm, c.storm_copy, c.storm_echo]);
    let (_, page) = server.json("/api/stories?language=fr");
    assert!(ids(&page).is_empty());
    let (_, page) =
        server.json("/api/stories?q=%22storm+flooded%22+NOT+source%3A%22Evening+Star%22");
    assert_eq!(ids(&page), [c.storm]);
    // The removed sentence is not searchable in the story it was removed from.
    let (_, page) = server.json("/api/stories?q=subscribe");
    assert_eq!(ids(&page), [c.budget]);
    // Injection strings are words like any other: nothing found, nothing broken.
    for q in ["%27%3B+DROP+TABLE+stories%3B+--", "%22%29+OR+1%3D1+--", "%3Ciframe%3E", "%00"] {
        // Found nothing, or refused as a query that does not parse.
        let (status, page) = server.json(&format!("/api/stories?q={q}"));
        match status {
            200 => assert!(ids(&page).is_empty(), "{q}: {page}"),
            400 => assert!(page["error"].as_str().unwrap().starts_with("query: "), "{q}: {page}"),
            _ => panic!("{q}: {status} {page}"),
        }
    }
    let (status, _) = server.json("/api/stories?source=%27%3B+DROP+TABLE+stories%3B+--");
    assert_eq!(status, 400);
    assert_eq!(server.json("/api/stories").1["stories"].as_array().unwrap().len(), 5);

    // One story, with everything said of it.
    let (status, story) = server.json(&format!("/api/stories/{}", c.storm));
    assert_eq!(status, 200);
    assert_eq!(story["title"], "Storm floods the coast");
    assert_eq!(story["source"], "Daily Planet");
    assert!(!story["text"].as_str().unwrap().contains("Subscribe"));
    assert_eq!(story["removed_sentences"][0]["sentence"], REPEATED);
    assert_eq!(story["removed_sentences"][0]["kept_by"], c.budget);
    assert_eq!(story["urls"].as_array().unwrap().len(), 2, "{story}");
    assert_eq!(story["provenance"]["title"], "og:title");
    assert_eq!(story["cluster"]["size"], 3);
    let members = story["cluster"]["members"].as_array().unwrap();
    assert_eq!(members.len(), 3);
    let copy = members.iter().find(|m| m["story"] == c.storm_copy).unwrap();
    assert_eq!(copy["source"], "Evening Star");
    assert_eq!(copy["relation"], "duplicate");
    assert_eq!(copy["links"][0]["explanation"], COPY_REASON);
    assert_eq!(story["duplicates"].as_array().unwrap().len(), 2);
    let (_, budget) = server.json(&format!("/api/stories/{}", c.budget));
    assert!(budget["cluster"].is_null());

    // Counts and top lists.
    let (status, counts) = server.json("/api/counts?q=harbourton");
    assert_eq!(status, 200);
    let periods: Vec<(&str, u64, u64)> = counts["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["period"].as_str().unwrap(),
                r["stories"].as_u64().unwrap(),
                r["clusters"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        periods,
        [("2026-11-02", 2, 1), ("2026-11-03", 1, 1), ("2026-11-04", 0, 0)],
        "{counts}"
    );
    for by in ["day", "week", "month"] {
        let (status, counts) =
            server.json(&format!("/api/counts?by={by}&source=Daily+Planet&collection=Metro&since=2026-11-01&until=2026-11-30"));
        assert_eq!(status, 200, "{counts}");
        assert!(!counts["counts"].as_array().unwrap().is_empty());
    }
    let (status, top) = server.json("/api/top/sources?q=harbourton&limit=2");
    assert_eq!(status, 200);
    assert_eq!(top["top"].as_array().unwrap().len(), 2, "{top}");
    let (status, top) = server.json("/api/top/words?limit=3&by=week&collection=Metro");
    assert_eq!(status, 200);
    assert_eq!(top["top"].as_array().unwrap().len(), 3, "{top}");
    let (_, sources) = server.json("/api/sources");
    assert_eq!(sources["sources"].as_array().unwrap().len(), 3);
    let (_, collections) = server.json("/api/collections");
    assert_eq!(collections["collections"][0]["name"], "Metro");
    assert_eq!(
        collections["collections"][0]["sources"],
        serde_json::json!(["Daily Planet", "Evening Star"])
    );
}

#[test]
fn bad_parameters_get_a_400_that_says_why_on_one_line() {
    let server = Server::start();
    let routes = [
        "/api/stories",
        "/api/counts",
        "/api/top/words",
        "/api/top/sources",
        "/",
        "/panels/chart",
        "/panels/top/sources",
        "/panels/top/words",
    ];
    // Bad for every route that takes the parameter, and what the message starts with.
    let bad: &[(&[&str], &str, &str)] = &[
        (&["/api/stories", "/"], "limit=0", "limit must be a whole number from 1 to 500"),
        (&["/api/stories", "/"], "limit=-1", "limit must be a whole number"),
        (&["/api/stories", "/"], "limit=501", "limit must be a whole number"),
        (&["/api/stories", "/"], "limit=1e2", "limit must be a whole number"),
        (
            &["/api/top/words", "/api/top/sources", "/panels/top/words"],
            "limit=99999999999999999999999",
            "limit must be",
        ),
        (&["/api/stories", "/"], "after=-5", "after must be a whole number"),
        (&["/api/stories", "/"], "after=9223372036854775808", "after must be a whole number"),
        (&["/api/stories", "/"], "after=1%3B+DROP+TABLE+stories", "after must be a whole number"),
        (&["/api/stories"], "text=maybe", "text is not true or false"),
        (&["/api/stories", "/"], "one_per_cluster=2", "one_per_cluster is not true or false"),
        (&routes, "since=yesterday", "since is not a day (YYYY-MM-DD)"),
        (&routes, "until=2026-13-01", "until is not a day"),
        (&routes, "since=%27+OR+%271%27%3D%271", "since is not a day"),
        (&routes, "q=%FF", "q is not UTF-8"),
        (&routes, "q=%C3%28", "q is not UTF-8"),
        (&routes, "q=100%25%", "q has a % not followed by two hexadecimal digits"),
        (&routes, "source=%E2%82", "source is not UTF-8"),
        (&routes, "q=%28storm+OR", "query: at character"),
        (&routes, "q=collection%3ANowhere", "query: collection \"Nowhere\" is not in the archive"),
        (&routes, "source=Nowhere", ""),
        (&routes, "collection=Nowhere", ""),
        (&routes, "sort=id", "unknown parameter \"sort\""),
        (&routes, "%3Cscript%3E=1", "unknown parameter \"<script>\""),
        (&routes, "q=a&q=b", "q is given more than once"),
        (
            &["/api/counts", "/api/top/words", "/", "/panels/chart", "/panels/top/sources"],
            "by=year",
            "by must be day or week or month",
        ),
    ];
    for (on, query, starts) in bad {
        for route in *on {
            let answer = server.get(&format!("{route}?{query}"));
            assert_eq!(answer.status, 400, "{route}?{query}: {}", answer.body);
            let message = if route.starts_with("/api/") {
                let value: Value = serde_json::from_str(&answer.body).unwrap();
                value["error"].as_str().unwrap().to_owned()
            } else {
                assert!(answer.body.contains("<h1>error</h1>"), "{}", answer.body);
                answer.body.clone()
            };
            assert!(!message.contains('\n') || !route.starts_with("/api/"), "{message}");
            if route.starts_with("/api/") {
                assert!(message.starts_with(starts), "{route}?{query}: {message}");
            } else {
                assert!(!answer.body.contains("<script>"), "{}", answer.body);
            }
        }
    }
    // A huge value, and a flood of parameters.
    let huge = format!("/api/stories?q={}", "storm+".repeat(1000));
    assert_eq!(server.json(&huge).0, 400);
    let flood = format!("/api/stories?{}", "source=Daily+Planet&".repeat(300));
    let (status, flood) = server.json(&flood);
    assert_eq!((status, flood["error"].as_str().unwrap()), (400, "more than 200 parameters"));
    // Routes that take no parameters refuse them; stories are named by positive ids.
    assert_eq!(server.json("/api/sources?limit=1").0, 400);
    assert_eq!(server.json("/api/collections?x").0, 400);
    // The engine's Prometheus metrics, with the archive's gauges read when asked.
    let metrics = server.get("/metrics");
    assert_eq!(metrics.status, 200);
    assert!(
        metrics.header("content-type").unwrap_or("").starts_with("application/openmetrics-text")
    );
    assert!(metrics.body.contains("morgue_archive_stories"), "{}", metrics.body);
    assert!(metrics.body.trim_end().ends_with("# EOF"), "{}", metrics.body);
    assert_eq!(server.get("/metrics?x=1").status, 400);
    assert_eq!(server.get("/sources?x=1").status, 400);
    for id in ["0", "-1", "abc", "99999999999999999999", "1.0", "%FF"] {
        assert_eq!(server.json(&format!("/api/stories/{id}")).0, 404, "{id}");
        assert_eq!(server.get(&format!("/stories/{id}")).status, 404, "{id}");
    }
    assert_eq!(server.json("/api/stories/999999").0, 404);
    assert_eq!(server.json("/api/nothing").0, 404);
    let missing = server.get("/nothing/%3Cscript%3E");
    assert_eq!(missing.status, 404);
    assert!(!missing.body.contains("<script>"));
}

#[test]
fn read_only_with_head_conditional_requests_and_a_body_limit() {
    let server = Server::start();
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for path in ["/api/stories", "/", "/api/nothing"] {
            let answer = server.raw(&format!("{method} {path} HTTP/1.1\r\nContent-Length: 0"), b"");
            assert_eq!(answer.status, 405, "{method} {path}");
            assert_eq!(answer.header("allow"), Some("GET, HEAD"));
        }
    }
    let (status, refused) = {
        let answer = server.raw("DELETE /api/stories/1 HTTP/1.1", b"");
        (answer.status, serde_json::from_str::<Value>(&answer.body).unwrap())
    };
    assert_eq!((status, refused["error"].as_str().unwrap()), (405, "read-only: only GET and HEAD"));
    // A body over the limit is refused before anything reads it.
    let body = vec![b'x'; 20_000];
    let answer =
        server.raw(&format!("GET /api/stories HTTP/1.1\r\nContent-Length: {}", body.len()), &body);
    assert_eq!(answer.status, 413);

    // HEAD: the headers of GET, no body.
    let get = server.get("/api/stories?limit=2");
    let head = server.raw("HEAD /api/stories?limit=2 HTTP/1.1", b"");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(head.header("etag"), get.header("etag"));
    assert_eq!(head.header("content-type"), Some("application/json"));

    // Conditional GET: the same ETag for the same answer, a 304 when it is named.
    let story = format!("/stories/{}", server.crafted.storm);
    let first = server.get(&story);
    let etag = first.header("etag").expect("an ETag").to_owned();
    assert_eq!(server.get(&story).header("etag"), Some(etag.as_str()));
    assert_ne!(
        server.get(&format!("/stories/{}", server.crafted.budget)).header("etag"),
        Some(etag.as_str())
    );
    let again = server.raw(&format!("GET {story} HTTP/1.1\r\nIf-None-Match: {etag}"), b"");
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    let other = server.raw(&format!("GET {story} HTTP/1.1\r\nIf-None-Match: \"other\""), b"");
    assert_eq!(other.status, 200);
    // Errors are not cached.
    assert!(server.get("/api/stories?limit=0").header("etag").is_none());
}

#[test]
fn the_pages_show_folded_results_the_chart_a_story_that_explains_and_the_sources() {
    let server = Server::start();
    let c = server.crafted;
    // Search: folded by cluster, copies counted and listed, the chart, the top lists.
    let search = server.get("/?q=harbourton");
    assert_eq!(search.status, 200);
    let html = &search.body;
    assert!(html.contains(r#"<form method="get" action="/" id="search">"#));
    assert_eq!(html.matches(r#"<tr class="result">"#).count(), 1, "{html}");
    assert!(html.contains("<summary>2 copies</summary>"), "{html}");
    assert!(html.contains(&format!(
        r#"<a href="/stories/{}">Storm floods the coast, 40 homes evacuated</a>"#,
        c.storm_copy
    )));
    assert!(html.contains(&format!(
        r#"<a href="/stories/{}">Harbourton evacuates homes as sea rises</a>"#,
        c.storm_echo
    )));
    // The chart and the top lists are frames of their own, for the same query and filters.
    for (id, path) in [
        ("chart-panel", "/panels/chart?q=harbourton"),
        ("top-sources-panel", "/panels/top/sources?q=harbourton"),
        ("top-words-panel", "/panels/top/words?q=harbourton"),
    ] {
        assert!(html.contains(&format!(r#"<iframe id="{id}" "#)), "{html}");
        assert!(html.contains(&format!(r#" src="{path}" "#)), "{html}");
    }
    assert!(!html.contains("<script"), "no script on a page");
    let chart = server.get("/panels/chart?q=harbourton");
    assert_eq!(chart.status, 200);
    assert_eq!(chart.body.matches("<polyline").count(), 2, "raw and folded lines");
    assert!(chart.body.contains("Attention over time: harbourton"), "{}", chart.body);
    assert!(!chart.body.contains("<nav>") && !chart.body.contains("<script"));
    let sources = server.get("/panels/top/sources?q=harbourton");
    assert!(sources.body.contains(r#"<table id="top-sources">"#), "{}", sources.body);
    for source in ["Daily Planet", "Evening Star", "Quiet Gazette"] {
        assert!(sources.body.contains(&format!("<td>{source}</td>")), "{}", sources.body);
    }
    let words = server.get("/panels/top/words?q=harbourton");
    assert!(words.body.contains(r#"<table id="top-words">"#), "{}", words.body);
    assert!(words.body.contains("<td>harbourton</td>"), "{}", words.body);
    // The filters reach the frames: another source's stories are not counted.
    let planet = server.get("/?q=harbourton&source=Daily+Planet&since=2026-11-01&by=week");
    let framed =
        "/panels/top/sources?q=harbourton&amp;source=Daily+Planet&amp;since=2026-11-01&amp;by=week";
    assert!(planet.body.contains(framed), "{}", planet.body);
    let sources = server.get(&framed.replace("&amp;", "&"));
    assert!(sources.body.contains("<td>Daily Planet</td>"), "{}", sources.body);
    assert!(!sources.body.contains("Evening Star"), "{}", sources.body);
    // A frame asked wrongly says why, inside the frame.
    let bad = server.get("/panels/top/words?q=%28storm");
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("expected"), "{}", bad.body);
    assert_eq!(server.get("/panels/chart?limit=3").status, 400, "the chart takes no limit");
    assert_eq!(server.get("/panels/top/words?limit=501").status, 400);
    // Every copy when asked.
    let raw = server.get("/?q=harbourton&one_per_cluster=0");
    assert_eq!(raw.body.matches(r#"<tr class="result">"#).count(), 3);
    // The chart's data link asks only what `/api/counts` takes.
    assert!(raw.body.contains(r#"<a href="/api/counts?q=harbourton">JSON</a>"#), "{}", raw.body);
    // Filters are kept in the form; markup is escaped everywhere.
    let hostile = server.get("/?q=%3Cscript%3E&source=Evening+Star&since=2026-11-01");
    assert_eq!(hostile.status, 200);
    assert!(hostile.body.contains("value=\"&lt;script&gt;\""));
    assert!(hostile.body.contains(r#"<option value="Evening Star" selected>"#));
    let every = server.get("/");
    assert!(every.body.contains("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; &amp; more"));
    assert!(!every.body.contains("javascript:"), "a javascript: URL is never linked");
    // Paging on: the next page keeps the filters.
    let first = server.get("/?limit=1&one_per_cluster=0&source=Daily+Planet");
    assert!(
        first.body.contains(&format!(
            r#"href="/?limit=1&amp;one_per_cluster=0&amp;source=Daily+Planet&amp;after={}""#,
            c.storm
        )),
        "{}",
        first.body
    );

    // A story: text, metadata, provenance, the removed sentence, its URLs, its cluster and why.
    let story = server.get(&format!("/stories/{}", c.storm));
    assert_eq!(story.status, 200);
    let html = &story.body;
    assert!(html.contains("<h1>Storm floods the coast</h1>"));
    assert!(html.contains(
        "<p>A storm flooded the coast of Harbourton on Monday, and 40 homes were evacuated.</p>"
    ));
    assert!(html.contains("<td>og:title</td>"), "provenance");
    assert!(html.contains(&format!(r#"<span class="removed">{REPEATED}</span>"#)));
    assert!(
        html.contains(&format!(r#"kept by <a href="/stories/{b}">story {b}</a>"#, b = c.budget))
    );
    assert!(html.contains("https://planet.example/news/storm?utm_source=feed"));
    assert!(html.contains("(variant)"));
    assert!(html.contains("Cluster ") && html.contains(" of 3 stories"));
    for (id, source, relation) in [
        (c.storm_copy, "Evening Star", "duplicate (0.93)"),
        (c.storm_echo, "Quiet Gazette", "similar (0.91)"),
    ] {
        assert!(
            html.contains(&format!(
                r#"<td><a href="/stories/{id}">{id}</a></td><td>{source}</td>"#
            )),
            "{html}"
        );
        assert!(html.contains(&format!("<td>{relation}</td>")), "{html}");
    }
    assert!(html.contains(&format!("by near_copy (0.93): {}", COPY_REASON)), "{html}");
    assert!(html.contains(&format!("by embedding (0.91): {}", ECHO_REASON)), "{html}");
    let alone = server.get(&format!("/stories/{}", c.budget));
    assert!(alone.body.contains("This story is in no cluster"));
    let hostile = server.get(&format!("/stories/{}", c.hostile));
    assert!(!hostile.body.contains("<script>") && !hostile.body.contains("href=\"javascript:"));
    assert!(hostile.body.contains("&lt;b&gt;markup&lt;/b&gt;"));

    // Sources and collections.
    let sources = server.get("/sources");
    assert_eq!(sources.status, 200);
    assert!(sources.body.contains(r#"<a href="/?collection=Metro">Metro</a>"#), "{}", sources.body);
    assert!(sources.body.contains(r#"<a href="/?source=Quiet+Gazette">Quiet Gazette</a>"#));
}

#[test]
fn stats_count_each_source_and_day_and_flag_the_silent_source_and_the_failing_one() {
    let server = Server::start();
    let today = server.crafted.today;
    let days_ago = |n: u64| (today - chrono::Days::new(n)).to_string();

    // The command, by source: totals over the window, flagged sources first.
    let output = morgue(server.dir.path(), &["stats", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["last_active"], today.to_string());
    let sources = report["sources"].as_array().unwrap();
    let source = |name: &str| sources.iter().find(|s| s["source"] == name).unwrap().clone();
    let star = source("Evening Star");
    assert_eq!(star["feeds_polled"], 40);
    assert_eq!(star["pages_fetched"], 8);
    assert_eq!(star["failures"], serde_json::json!({"HTTP 503": 4, "timeout": 7}));
    assert_eq!(star["stories_kept"], 2);
    assert_eq!(star["duplicates_found"], 1);
    assert_eq!(star["flags"][0]["flag"], "failures_jumped");
    assert_eq!(star["flags"][0]["day"], today.to_string());
    assert_eq!(star["flags"][0]["failures"], 8);
    let quiet = source("Quiet Gazette");
    assert_eq!(quiet["flags"][0]["flag"], "silent");
    assert_eq!(quiet["flags"][0]["last_kept"], days_ago(5));
    assert_eq!(quiet["flags"][0]["days"], 5);
    assert_eq!(quiet["stories_kept"], 1);
    let planet = source("Daily Planet");
    assert_eq!(planet["flags"], serde_json::json!([]));
    assert_eq!(planet["stories_kept"], 2);
    assert_eq!(planet["failures"], serde_json::json!({}));
    assert_eq!(sources[2]["source"], "Daily Planet", "flagged sources first");
    // A longer silence allowed: nobody is silent.
    let output = morgue(server.dir.path(), &["stats", "--silent-after", "5", "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(
        report["sources"].as_array().unwrap().iter().all(|s| s["flags"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["flag"] != "silent"))
    );

    // By day: one row per day and source, as CSV.
    let output = morgue(server.dir.path(), &["stats", "--by", "day", "--format", "csv"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let csv = stdout(&output);
    assert!(
        csv.starts_with(
            "day,source,feeds_polled,pages_fetched,failed,failures,stories_kept,duplicates_found\n"
        ),
        "{csv}"
    );
    assert!(
        csv.contains(&format!("{},Evening Star,10,2,8,\"HTTP 503 4, timeout 4\",2,1\n", today)),
        "{csv}"
    );
    assert!(csv.contains(&format!("{},Evening Star,10,2,1,timeout 1,0,0\n", days_ago(1))), "{csv}");
    assert!(csv.contains(&format!("{},Quiet Gazette,0,0,0,,1,0\n", days_ago(5))), "{csv}");
    // Only the last day: the silence is older than the window and still flagged.
    let output = morgue(server.dir.path(), &["stats", "--days", "1"]);
    let table = stdout(&output);
    assert!(table.contains("silent: no story kept for 5 days"), "{table}");
    assert!(table.lines().nth(1).unwrap().starts_with("source "), "{table}");
    let bad = morgue(server.dir.path(), &["stats", "--days", "0"]);
    assert!(!bad.status.success());

    // The page and the API say the same.
    let page = server.get("/stats");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(
            r#"<span class="flag">Quiet Gazette</span>: silent: no story kept for 5 days"#
        ),
        "{}",
        page.body
    );
    assert!(page.body.contains(r#"<span class="flag">Evening Star</span>: failures jumped on "#));
    assert_eq!(page.body.matches(r#"<tr class="flagged">"#).count(), 2);
    let by_day = server.get("/stats?by=day&days=2");
    assert_eq!(by_day.body.matches("<td>Evening Star</td>").count(), 2, "{}", by_day.body);
    let (status, api) = server.json("/api/stats?days=7&silent_after=1");
    assert_eq!(status, 200);
    assert_eq!(api["sources"][0]["source"], "Evening Star");
    for bad in ["days=0", "days=-1", "days=99999", "silent_after=x", "by=week", "since=2026-01-01"]
    {
        assert_eq!(server.json(&format!("/api/stats?{bad}")).0, 400, "{bad}");
        assert_eq!(server.get(&format!("/stats?{bad}")).status, 400, "{bad}");
    }
}

#[test]
fn exports_to_a_file_carry_a_sidecar_that_says_how_to_take_them_again() {
    let dir = tempfile::tempdir().unwrap();
    craft(dir.path().join("morgue.db").to_str().unwrap());
    for (format, file, rows) in
        [("csv", "out.csv", 2), ("jsonl", "out.jsonl", 2), ("warc", "out.warc.gz", 0)]
    {
        let args = [
            "stories",
            "--source",
            "Daily Planet",
            "--since",
            "2026-11-01",
            "--one-per-cluster",
            "--format",
            format,
            "-o",
            file,
            "storm OR budget",
        ];
        let output = morgue(dir.path(), &args);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = std::fs::read_to_string(dir.path().join(format!("{file}.meta.json"))).unwrap();
        let meta: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(meta["query"], "storm OR budget");
        assert_eq!(meta["filters"]["sources"], serde_json::json!(["Daily Planet"]));
        assert_eq!(meta["filters"]["since"], "2026-11-01");
        assert_eq!(meta["filters"]["one_per_cluster"], true);
        assert!(meta["filters"]["until"].is_null() && meta["filters"]["limit"].is_null());
        assert_eq!(meta["format"], format);
        assert_eq!(meta["rows"], rows, "{meta}");
        assert_eq!(meta["morgue_version"], env!("CARGO_PKG_VERSION"));
        assert!(chrono::DateTime::parse_from_rfc3339(meta["taken_at"].as_str().unwrap()).is_ok());
        assert!(meta["seconds"].as_f64().unwrap() >= 0.0);
        assert!(meta["archive"].as_str().unwrap().ends_with("morgue.db"), "{meta}");
        // Its command takes the same export again, to standard output.
        if format != "warc" {
            let command: Vec<&str> =
                meta["command"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
            assert_eq!(command[..2], ["morgue", "stories"]);
            let again = morgue(dir.path(), &command[1..]);
            assert!(again.status.success(), "{}", stderr(&again));
            let first = std::fs::read_to_string(dir.path().join(file)).unwrap();
            assert_eq!(stdout(&again), first);
            assert_eq!(first.lines().count(), if format == "csv" { 3 } else { 2 });
        }
    }
    // An export to standard output has no file to sit beside.
    let output = morgue(dir.path(), &["stories", "--format", "csv"]);
    assert!(output.status.success());
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".meta.json"))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}
