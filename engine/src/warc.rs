//! The archived raw responses of selected stories as a WARC 1.1 file, the format web archivists
//! read (ISO 28500:2017).
//!
//! The file opens with a `warcinfo` record that says what it holds: the software, the query and
//! filters that selected the stories, and when the export was taken, so it can be regenerated.
//! Then, for each selected story whose page the archive fetched, in story-id order:
//! - a `request` record: the request line and the headers the crawler set (fetches archived
//!   before requests were kept have none, and go without this record);
//! - a `response` record: the status line, the response headers as received, and the body;
//! - a `metadata` record: the story's id and the URLs the request was redirected through.
//!
//! Records are written one story at a time, so memory stays flat whatever the selection's size;
//! with `gzip`, each record is its own gzip member (a `.warc.gz` file that tools can seek in).
//!
//! **Deviations**, each forced by what the archive keeps:
//! - The archive keeps bodies with their content coding undone (it decompressed them to extract
//!   text), so a response record carries the decoded body: its `Content-Encoding` and
//!   `Transfer-Encoding` headers are renamed `X-Archive-Orig-Content-Encoding` and
//!   `X-Archive-Orig-Transfer-Encoding`, and `Content-Length` is the decoded body's (the
//!   received one kept as `X-Archive-Orig-Content-Length`), as archival replay tools do for
//!   rewritten headers.
//! - Header names are lower-case (HTTP/2 sends them so; the HTTP/1.1 client keeps them in a
//!   case-insensitive map); a status line's reason phrase is the standard one for its code.
//! - Only the final response of a redirect chain is archived; the hops are listed in the
//!   metadata record (`via`).
//! - Record ids are `urn:uuid:` values derived from the fetch (its id, URL, time and body hash)
//!   rather than random, so exporting the same stories twice gives the same file but for the
//!   `warcinfo` record's date.
//! - Digests are SHA-256 in base 32 (`sha256:…`), which WARC 1.1 allows; readers that only know
//!   SHA-1 skip them.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use flate2::Compression;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};
use store::Archive;
use store::fetches::StoredFetch;

use crate::crawl::reason_phrase;
use crate::error::{Error, Result};
use crate::selection::Selection;

/// What the export says about itself in its `warcinfo` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// The software that wrote it, with its version (`morgue 0.1.0`).
    pub software: String,
    /// The query and filters that selected the stories, as `name: value` fields (written in
    /// order; names and values on one line each).
    pub fields: Vec<(String, String)>,
    /// When the export was taken.
    pub taken_at: DateTime<Utc>,
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Stories whose response was written.
    pub stories: u64,
    /// Records written (the `warcinfo` record included).
    pub records: u64,
    /// Selected stories left out: no archived fetch, a fetch that got no response, or one whose
    /// stored body is damaged (logged with the story's id).
    pub skipped: u64,
}

/// Stories read from the selection at a time.
const PAGE: u64 = 200;

/// Writes the archived responses of the stories `selection` keeps (at most `limit`) to `out` as
/// WARC 1.1, each record a gzip member when `gzip`. A failed write is [`Error::Write`].
pub async fn export(
    archive: &Archive,
    selection: &Selection,
    info: &Info,
    limit: Option<u64>,
    gzip: bool,
    out: &mut impl Write,
) -> Result<Written> {
    let limit = limit.unwrap_or(u64::MAX);
    let mut written = Written::default();
    let mut record = Vec::new();
    warcinfo(info, &mut record);
    emit(&record, gzip, out)?;
    written.records += 1;
    let mut after = Some(0);
    while let Some(from) = after
        && written.stories < limit
    {
        let page;
        (page, after) = selection.page(archive, from, PAGE, u64::MAX).await?;
        for selected in &page {
            if written.stories == limit {
                break;
            }
            let fetch = match selected.story.story.fetch_id {
                Some(id) => match store::fetches::get(archive, id).await {
                    Ok(fetch) => fetch,
                    // A damaged row is one story left out and said, not the end of the export.
                    Err(err @ store::Error::Corrupt { .. }) => {
                        tracing::warn!(story = selected.story.id, error = %err, "left out of the WARC file");
                        written.skipped += 1;
                        continue;
                    }
                    Err(err) => return Err(err.into()),
                },
                None => {
                    written.skipped += 1;
                    continue;
                }
            };
            let Some(status) = fetch.fetch.status else {
                written.skipped += 1;
                continue;
            };
            let id = fetch_key(&fetch);
            let response_id = record_id(&id, "response");
            if let Some(request) = &fetch.fetch.request {
                record.clear();
                request_record(&fetch, request, &response_id, &mut record);
                emit(&record, gzip, out)?;
                written.records += 1;
            }
            record.clear();
            response_record(&fetch, status, &response_id, &mut record);
            emit(&record, gzip, out)?;
            record.clear();
            metadata_record(&fetch, selected.story.id, &response_id, &mut record);
            emit(&record, gzip, out)?;
            written.records += 2;
            written.stories += 1;
        }
    }
    out.flush().map_err(|source| Error::Write { source })?;
    Ok(written)
}

/// Writes one record, compressed as its own gzip member when asked.
fn emit(record: &[u8], gzip: bool, out: &mut impl Write) -> Result<()> {
    let result = if gzip {
        let mut encoder = GzEncoder::new(&mut *out, Compression::default());
        encoder.write_all(record).and_then(|()| encoder.finish().map(drop))
    } else {
        out.write_all(record)
    };
    result.map_err(|source| Error::Write { source })
}

/// What makes a fetch's records' ids its own.
fn fetch_key(fetch: &StoredFetch) -> String {
    format!(
        "{}\n{}\n{}\n{}",
        fetch.id,
        fetch.fetch.final_url,
        warc_date(fetch.fetch.started_at),
        fetch.body_sha256
    )
}

/// A `urn:uuid:` id derived from `key` and the record's kind (a version-8 UUID: custom bits).
fn record_id(key: &str, kind: &str) -> String {
    let digest = Sha256::new().chain_update(key).chain_update([0]).chain_update(kind).finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|byte| format!("{byte:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A WARC date: UTC, to the second or finer.
fn warc_date(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// `sha256:` and the base-32 digest of `bytes`.
fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", base32(&Sha256::digest(bytes)))
}

/// RFC 4648 base 32, upper case, padded.
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    for chunk in bytes.chunks(5) {
        let mut buffer = [0u8; 5];
        buffer[..chunk.len()].copy_from_slice(chunk);
        let bits = buffer.iter().fold(0u64, |acc, &byte| (acc << 8) | u64::from(byte));
        let symbols = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < symbols {
                let index = ((bits >> (35 - 5 * i)) & 31) as usize;
                out.push(char::from(ALPHABET[index]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A header value on one line: line breaks (which would end the header) become spaces.
fn one_line(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains(['\r', '\n']) {
        value.replace(['\r', '\n'], " ").into()
    } else {
        value.into()
    }
}

/// Appends a record: the WARC header lines (with `Content-Length` and `WARC-Block-Digest` of
/// `block`), a blank line, the block, and the two line breaks that end a record.
fn record(headers: &[(&str, String)], content_type: &str, block: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(b"WARC/1.1\r\n");
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {}\r\n", one_line(value)).as_bytes());
    }
    out.extend_from_slice(format!("WARC-Block-Digest: {}\r\n", digest(block)).as_bytes());
    out.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
}

/// `application/warc-fields` lines: `name: value`, one per line.
fn fields(fields: &[(String, String)]) -> Vec<u8> {
    let mut block = Vec::new();
    for (name, value) in fields {
        block.extend_from_slice(format!("{}: {}\r\n", one_line(name), one_line(value)).as_bytes());
    }
    block
}

fn warcinfo(info: &Info, out: &mut Vec<u8>) {
    let date = warc_date(info.taken_at);
    let mut all = vec![
        ("software".to_owned(), info.software.clone()),
        ("format".to_owned(), "WARC File Format 1.1".to_owned()),
        (
            "conformsTo".to_owned(),
            "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
                .to_owned(),
        ),
        (
            "description".to_owned(),
            "archived responses of stories selected from a morgue archive".to_owned(),
        ),
        ("morgue-exported-at".to_owned(), date.clone()),
    ];
    all.extend(info.fields.iter().map(|(name, value)| (format!("morgue-{name}"), value.clone())));
    let block = fields(&all);
    let id =
        record_id(&format!("warcinfo\n{date}\n{}", String::from_utf8_lossy(&block)), "warcinfo");
    record(
        &[("WARC-Type", "warcinfo".to_owned()), ("WARC-Date", date), ("WARC-Record-ID", id)],
        "application/warc-fields",
        &block,
        out,
    );
}

/// The request target of a request line: the URL's path and query.
fn request_target(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(url) => match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_owned(),
        },
        Err(_) => "/".to_owned(),
    }
}

/// The recorded protocol version for a message's first line, `HTTP/1.1` when none was recorded
/// (WARC holds HTTP/2 messages in the HTTP/1.1 syntax, under their own version's name).
fn version_token(version: &str) -> &str {
    if version.is_empty() { "HTTP/1.1" } else { version }
}

fn request_record(
    fetch: &StoredFetch,
    request: &store::fetches::SentRequest,
    response_id: &str,
    out: &mut Vec<u8>,
) {
    let raw = &fetch.fetch;
    let mut block = format!(
        "GET {} {}\r\n",
        request_target(&raw.final_url),
        version_token(&request.http_version)
    )
    .into_bytes();
    for (name, value) in &request.headers {
        block.extend_from_slice(format!("{name}: {}\r\n", one_line(value)).as_bytes());
    }
    block.extend_from_slice(b"\r\n");
    record(
        &[
            ("WARC-Type", "request".to_owned()),
            ("WARC-Date", warc_date(raw.started_at)),
            ("WARC-Record-ID", record_id(&fetch_key(fetch), "request")),
            ("WARC-Concurrent-To", response_id.to_owned()),
            ("WARC-Target-URI", raw.final_url.clone()),
        ],
        "application/http;msgtype=request",
        &block,
        out,
    );
}

fn response_record(fetch: &StoredFetch, status: u16, response_id: &str, out: &mut Vec<u8>) {
    let raw = &fetch.fetch;
    let version = raw.request.as_ref().map_or("HTTP/1.1", |r| version_token(&r.http_version));
    let mut block = format!("{version} {status} {}\r\n", reason_phrase(status)).into_bytes();
    for (name, value) in &raw.headers {
        let name = match name.as_str() {
            "content-encoding" => "x-archive-orig-content-encoding",
            "transfer-encoding" => "x-archive-orig-transfer-encoding",
            "content-length" => "x-archive-orig-content-length",
            name => name,
        };
        block.extend_from_slice(format!("{name}: {}\r\n", one_line(value)).as_bytes());
    }
    block.extend_from_slice(format!("content-length: {}\r\n\r\n", raw.body.len()).as_bytes());
    block.extend_from_slice(&raw.body);
    record(
        &[
            ("WARC-Type", "response".to_owned()),
            ("WARC-Date", warc_date(raw.started_at)),
            ("WARC-Record-ID", response_id.to_owned()),
            ("WARC-Target-URI", raw.final_url.clone()),
            ("WARC-Payload-Digest", digest(&raw.body)),
        ],
        "application/http;msgtype=response",
        &block,
        out,
    );
}

fn metadata_record(fetch: &StoredFetch, story_id: i64, response_id: &str, out: &mut Vec<u8>) {
    let raw = &fetch.fetch;
    let mut lines = vec![
        ("morgue-story-id".to_owned(), story_id.to_string()),
        ("morgue-fetch-id".to_owned(), fetch.id.to_string()),
    ];
    if raw.requested_url != raw.final_url {
        lines.push(("via".to_owned(), raw.requested_url.clone()));
        let hops = raw.redirect_chain.iter().filter(|hop| **hop != raw.final_url);
        lines.extend(hops.map(|hop| ("via".to_owned(), hop.clone())));
    }
    if let Some(ms) = raw.total_ms {
        lines.push(("fetchTimeMs".to_owned(), ms.to_string()));
    }
    record(
        &[
            ("WARC-Type", "metadata".to_owned()),
            ("WARC-Date", warc_date(raw.started_at)),
            ("WARC-Record-ID", record_id(&fetch_key(fetch), "metadata")),
            ("WARC-Refers-To", response_id.to_owned()),
            ("WARC-Target-URI", raw.final_url.clone()),
        ],
        "application/warc-fields",
        &fields(&lines),
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_follows_rfc_4648() {
        // The RFC's test vectors.
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY======");
        assert_eq!(base32(b"fo"), "MZXQ====");
        assert_eq!(base32(b"foo"), "MZXW6===");
        assert_eq!(base32(b"foob"), "MZXW6YQ=");
        assert_eq!(base32(b"fooba"), "MZXW6YTB");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI======");
    }

    #[test]
    fn record_ids_are_uuids_of_their_key_and_kind() {
        let a = record_id("fetch 1", "response");
        assert_eq!(a, record_id("fetch 1", "response"));
        assert_ne!(a, record_id("fetch 1", "request"));
        assert_ne!(a, record_id("fetch 2", "response"));
        let uuid = a.trim_start_matches("<urn:uuid:").trim_end_matches('>');
        let groups: Vec<usize> = uuid.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12]);
        assert!(uuid.chars().all(|c| c == '-' || c.is_ascii_hexdigit()));
    }

    #[test]
    fn a_record_is_framed_by_its_length_and_header_values_stay_on_one_line() {
        let mut out = Vec::new();
        record(
            &[("WARC-Type", "metadata".to_owned()), ("X", "a\r\nb".to_owned())],
            "text/plain",
            b"hi",
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("WARC/1.1\r\nWARC-Type: metadata\r\nX: a  b\r\n"));
        assert!(text.ends_with("Content-Length: 2\r\n\r\nhi\r\n\r\n"));
    }

    #[test]
    fn request_targets_keep_the_query() {
        assert_eq!(request_target("https://a.example/x/y?z=1&w"), "/x/y?z=1&w");
        assert_eq!(request_target("https://a.example"), "/");
        assert_eq!(request_target("not a url"), "/");
    }
}
