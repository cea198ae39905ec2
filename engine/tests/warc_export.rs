//! The WARC export read back by two independent WARC readers (the `warc` and `rust_warc` crates),
//! plain and gzipped record by record, on both backends: every selected story's request, response
//! and metadata records, the response's headers and body as archived, the selection's fields in
//! the `warcinfo` record, and stories without an archived response left out and counted.

use std::collections::BTreeMap;
use std::io::Read;

use chrono::{TimeZone, Utc};
use engine::selection::Selection;
use engine::warc::{self, Info};
use store::Archive;
use store::fetches::{RawFetch, SentRequest};
use store::on_both_backends;
use store::sources::NewSource;
use store::stories::{Filter, NewStory};

const BODY: &[u8] =
    b"<html><body><p>Caf\xc3\xa9 and \x00 bytes, exactly as served.</p></body></html>";

/// An archived fetch: a response served gzipped (its body kept decoded), reached through one
/// redirect; or a request that got no response.
fn fetch(url: &str, answered: bool) -> RawFetch {
    RawFetch {
        frontier_id: None,
        feed_id: None,
        requested_url: format!("{url}?from=feed"),
        final_url: url.to_owned(),
        redirect_chain: vec![url.to_owned()],
        status: answered.then_some(200),
        request: answered.then(|| SentRequest {
            http_version: "HTTP/1.1".to_owned(),
            headers: vec![
                ("host".to_owned(), "daily.example".to_owned()),
                ("user-agent".to_owned(), "morgue-test/1".to_owned()),
                ("if-none-match".to_owned(), "\"v1\"".to_owned()),
            ],
        }),
        headers: if answered {
            vec![
                ("content-type".to_owned(), "text/html; charset=utf-8".to_owned()),
                ("content-encoding".to_owned(), "gzip".to_owned()),
                ("content-length".to_owned(), "61".to_owned()),
                ("etag".to_owned(), "\"v2\"".to_owned()),
            ]
        } else {
            Vec::new()
        },
        content_type: answered.then(|| "text/html; charset=utf-8".to_owned()),
        body: if answered { BODY.to_vec() } else { Vec::new() },
        error: (!answered).then(|| "connect timeout".to_owned()),
        started_at: Utc.with_ymd_and_hms(2026, 3, 10, 8, 30, 0).unwrap(),
        first_byte_ms: answered.then_some(40),
        total_ms: answered.then_some(90),
    }
}

fn story(source_id: i64, fetch_id: Option<i64>, url: &str) -> NewStory {
    NewStory {
        source_id,
        fetch_id,
        url: url.to_owned(),
        lossy_url: url.trim_start_matches("https://").to_owned(),
        canonical_url: None,
        title: Some(format!("Story at {url}")),
        normalized_title: None,
        text: "Text.".to_owned(),
        language: Some("en".to_owned()),
        authors: Vec::new(),
        published_at: None,
        published_day: None,
        provenance: BTreeMap::new(),
        extractor_version: "test".to_owned(),
    }
}

/// Three stories: one with an archived response, one whose request failed, one with no fetch.
/// Returns the first one's id.
async fn fill(archive: &Archive) -> i64 {
    let source = store::sources::add(
        archive,
        &NewSource {
            name: "Daily".to_owned(),
            homepage: "https://daily.example/".to_owned(),
            canonical_domain: "daily.example".to_owned(),
            timezone: "UTC".to_owned(),
        },
    )
    .await
    .unwrap()
    .source()
    .id;
    let answered = "https://daily.example/news/one";
    let fetch_id = store::fetches::insert(archive, &fetch(answered, true)).await.unwrap();
    let first = store::stories::insert(archive, &story(source, Some(fetch_id), answered))
        .await
        .unwrap()
        .story()
        .id;
    let failed = "https://daily.example/news/two";
    let failed_id = store::fetches::insert(archive, &fetch(failed, false)).await.unwrap();
    store::stories::insert(archive, &story(source, Some(failed_id), failed)).await.unwrap();
    store::stories::insert(archive, &story(source, None, "https://daily.example/news/three"))
        .await
        .unwrap();
    first
}

async fn export(archive: &Archive, gzip: bool) -> (Vec<u8>, warc::Written) {
    let selection =
        Selection::new(archive, &[], &[], Filter::default(), None, false).await.expect("selection");
    let info = Info {
        software: "morgue test".to_owned(),
        fields: vec![("search".to_owned(), "café".to_owned())],
        taken_at: Utc.with_ymd_and_hms(2026, 11, 26, 4, 0, 0).unwrap(),
    };
    let mut out = Vec::new();
    let written = warc::export(archive, &selection, &info, None, gzip, &mut out).await.unwrap();
    (out, written)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut plain).expect("gzip members");
    plain
}

/// The records as the `warc` crate reads them: (type, headers by lower-case name, body).
fn read_with_warc(bytes: &[u8]) -> Vec<(String, BTreeMap<String, String>, Vec<u8>)> {
    use ::warc::{WarcHeader, WarcReader};
    WarcReader::new(bytes)
        .iter_records()
        .map(|record| {
            let record = record.expect("a record the warc crate reads");
            let mut headers = BTreeMap::new();
            for name in [
                WarcHeader::TargetURI,
                WarcHeader::ConcurrentTo,
                WarcHeader::RefersTo,
                WarcHeader::PayloadDigest,
                WarcHeader::BlockDigest,
                WarcHeader::ContentType,
            ] {
                if let Some(value) = record.header(name.clone()) {
                    headers.insert(name.to_string(), value.into_owned());
                }
            }
            headers.insert("warc-record-id".to_owned(), record.warc_id().to_owned());
            headers.insert("warc-date".to_owned(), record.date().to_rfc3339());
            (record.warc_type().to_string(), headers, record.body().to_vec())
        })
        .collect()
}

on_both_backends! {
    async fn a_warc_export_reads_back_with_two_readers(archive: &Archive) {
        let first = fill(archive).await;
        let (plain, written) = export(archive, false).await;
        assert_eq!(written, warc::Written { stories: 1, records: 4, skipped: 2 });

        let records = read_with_warc(&plain);
        let types: Vec<&str> = records.iter().map(|(kind, _, _)| kind.as_str()).collect();
        assert_eq!(types, ["warcinfo", "request", "response", "metadata"]);

        let info = String::from_utf8(records[0].2.clone()).unwrap();
        assert!(info.contains("software: morgue test\r\n"), "{info}");
        assert!(info.contains("morgue-search: café\r\n"), "{info}");
        assert!(info.contains("morgue-exported-at: 2026-11-26T04:00:00Z\r\n"), "{info}");

        let (_, request_headers, request) = &records[1];
        let request = String::from_utf8(request.clone()).unwrap();
        assert!(request.starts_with("GET /news/one HTTP/1.1\r\nhost: daily.example\r\n"), "{request}");
        assert!(request.contains("if-none-match: \"v1\"\r\n"), "{request}");
        let (_, response_headers, response) = &records[2];
        assert_eq!(request_headers["warc-concurrent-to"], response_headers["warc-record-id"]);
        assert_eq!(response_headers["warc-target-uri"], "https://daily.example/news/one");
        assert_eq!(response_headers["content-type"], "application/http;msgtype=response");
        assert!(response_headers["warc-date"].starts_with("2026-03-10T08:30:00"));
        // The body is the archived one, byte for byte, after the HTTP headers; the content coding
        // it was served with is kept under another name, since the body is stored decoded.
        let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let (head, body) = (String::from_utf8_lossy(&response[..split]), &response[split + 4..]);
        assert_eq!(body, BODY);
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(head.contains("x-archive-orig-content-encoding: gzip"), "{head}");
        assert!(head.contains(&format!("content-length: {}", BODY.len())), "{head}");
        assert!(!head.contains("\r\ncontent-encoding"), "{head}");
        assert!(response_headers["warc-payload-digest"].starts_with("sha256:"));

        let metadata = String::from_utf8(records[3].2.clone()).unwrap();
        assert!(metadata.contains(&format!("morgue-story-id: {first}\r\n")), "{metadata}");
        assert!(metadata.contains("via: https://daily.example/news/one?from=feed\r\n"), "{metadata}");
        assert_eq!(records[3].1["warc-refers-to"], response_headers["warc-record-id"]);

        // A second, independent reader agrees on every record and body.
        let second: Vec<rust_warc::WarcRecord> = rust_warc::WarcReader::new(plain.as_slice())
            .map(|record| record.expect("a record rust_warc reads"))
            .collect();
        assert_eq!(second.len(), records.len());
        for (theirs, ours) in second.iter().zip(&records) {
            assert_eq!(theirs.header[&"WARC-Type".into()], ours.0);
            assert_eq!(theirs.content, ours.2);
        }

        // Gzipped record by record: the same records, and the same bytes once inflated.
        let (gzipped, _) = export(archive, true).await;
        assert_eq!(gunzip(&gzipped), plain);

        // A damaged body is one story left out, not a failed export.
        archive.execute_unprepared("UPDATE fetches SET body_sha256 = 'bad'").await.unwrap();
        let (damaged, written) = export(archive, false).await;
        assert_eq!(written, warc::Written { stories: 0, records: 1, skipped: 3 });
        assert_eq!(read_with_warc(&damaged).len(), 1);
    }
}
