//! Raw fetches: every HTTP response the crawler received, kept whole so extraction can be re-run.
//!
//! Bodies are stored gzip-compressed with the SHA-256 of the raw bytes; reading one back
//! decompresses it and checks the hash, so a damaged row is reported, never silently used.

use std::io::{Read, Write};

use chrono::{DateTime, Utc};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Archive;
use crate::entity::fetch;
use crate::error::{Context as _, Error, Result};
use crate::json;
use crate::text::{MAX_TEXT, line_opt, line_owned};

/// One response (or one failed request) as the crawler saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFetch {
    /// The frontier entry it was fetched for, if an article.
    pub frontier_id: Option<i64>,
    /// The feed or sitemap it was fetched for, if one.
    pub feed_id: Option<i64>,
    /// The URL requested.
    pub requested_url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// Every URL in between, in order (excluding the requested and including the final one).
    pub redirect_chain: Vec<String>,
    /// The HTTP status; `None` when no response arrived.
    pub status: Option<u16>,
    /// The request that got the response, when one was sent and recorded (fetches archived before
    /// requests were kept have none).
    pub request: Option<SentRequest>,
    /// Response headers, in order, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The raw body bytes, as received (after transfer decoding).
    pub body: Vec<u8>,
    /// Why the request failed, when it did.
    pub error: Option<String>,
    /// When the request started.
    pub started_at: DateTime<Utc>,
    /// Milliseconds to the first byte of the response.
    pub first_byte_ms: Option<u64>,
    /// Milliseconds to the end of the body.
    pub total_ms: Option<u64>,
}

/// The request behind a response, as the crawler sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentRequest {
    /// The protocol version of the response's status line (`HTTP/1.1`, `HTTP/2`).
    pub http_version: String,
    /// The headers the crawler set, in order, names lower-cased.
    pub headers: Vec<(String, String)>,
}

/// A stored fetch, with its body decompressed and verified.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredFetch {
    /// The archive's id.
    pub id: i64,
    /// The response as recorded.
    pub fetch: RawFetch,
    /// The SHA-256 of the body, hex.
    pub body_sha256: String,
}

/// The hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    Sha256::digest(bytes).iter().fold(String::with_capacity(64), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

fn compress(body: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(body.len() / 4 + 64), Compression::fast());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(body);
    encoder.finish().unwrap_or_default()
}

/// Archives a fetch. Returns its id. The body is kept whole; text is kept as [`crate::text`] says
/// (URLs, the content type and the error as one-line values; header names and values, which the
/// HTTP client bounds already, up to [`MAX_TEXT`]).
pub async fn insert(archive: &Archive, raw: &RawFetch) -> Result<i64> {
    let body_len = i64::try_from(raw.body.len()).unwrap_or(i64::MAX);
    let row = fetch::ActiveModel {
        id: NotSet,
        frontier_id: Set(raw.frontier_id),
        feed_id: Set(raw.feed_id),
        requested_url: Set(line_owned(&raw.requested_url)),
        final_url: Set(line_owned(&raw.final_url)),
        redirect_chain: Set(json::encode(&raw.redirect_chain)),
        status: Set(raw.status.map(i32::from)),
        headers: Set(json::encode_capped(&raw.headers, MAX_TEXT)),
        content_type: Set(line_opt(raw.content_type.as_deref())),
        body: Set(Some(compress(&raw.body))),
        body_encoding: Set("gzip".to_owned()),
        body_len: Set(body_len),
        body_sha256: Set(Some(sha256_hex(&raw.body))),
        error: Set(line_opt(raw.error.as_deref())),
        started_at: Set(raw.started_at),
        first_byte_ms: Set(raw.first_byte_ms.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX))),
        total_ms: Set(raw.total_ms.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX))),
        request: Set(raw.request.as_ref().map(|request| json::encode_capped(request, MAX_TEXT))),
        lossy_url: Set(answered_key(raw)),
    };
    let result = fetch::Entity::insert(row).exec(&archive.db).await.doing("archiving a fetch")?;
    Ok(result.last_insert_id)
}

/// The lossy key of the page a fetch got: its final URL's, when a response arrived.
fn answered_key(raw: &RawFetch) -> Option<String> {
    raw.status?;
    let key = normalizer::lossy_url(&raw.final_url)?;
    crate::text::fits_line(&key).then_some(key)
}

/// The newest fetch of the page whose lossy key is `lossy_url` that can stand for a new request
/// of it: a response with a 2xx status and no error, started at `since` or later, and not a feed
/// or sitemap poll (fetches archived before their lossy key was kept are never found). This is
/// how a page is fetched once: one fetched during discovery, at the end of another URL's redirect
/// chain, or by a worker killed before it stored the story, is the article's fetch.
pub async fn reusable(
    archive: &Archive,
    lossy_url: &str,
    since: DateTime<Utc>,
) -> Result<Option<StoredFetch>> {
    let row = fetch::Entity::find()
        .filter(fetch::Column::LossyUrl.eq(crate::text::line(lossy_url).as_ref()))
        .filter(fetch::Column::Status.between(200, 299))
        .filter(fetch::Column::Error.is_null())
        .filter(fetch::Column::FeedId.is_null())
        .filter(fetch::Column::StartedAt.gte(since))
        .order_by_desc(fetch::Column::Id)
        .one(&archive.db)
        .await
        .doing("finding an archived fetch of a page")?;
    row.map(stored).transpose()
}

/// The lossy keys of every page the archive holds a 2xx response of (see [`reusable`]), without
/// repeats: the pages no worker needs to request again.
pub async fn archived_pages(archive: &Archive) -> Result<Vec<String>> {
    let keys: Vec<Option<String>> = fetch::Entity::find()
        .select_only()
        .column(fetch::Column::LossyUrl)
        .distinct()
        .filter(fetch::Column::LossyUrl.is_not_null())
        .filter(fetch::Column::Status.between(200, 299))
        .filter(fetch::Column::Error.is_null())
        .into_tuple()
        .all(&archive.db)
        .await
        .doing("listing archived pages")?;
    Ok(keys.into_iter().flatten().collect())
}

fn decode_body(row: &fetch::Model) -> Result<Vec<u8>> {
    let corrupt = |why: String| Error::Corrupt { what: format!("body of fetch {}: {why}", row.id) };
    let stored = row.body.as_deref().unwrap_or_default();
    let body = match row.body_encoding.as_str() {
        "identity" => stored.to_vec(),
        "gzip" => {
            let mut body = Vec::with_capacity(usize::try_from(row.body_len).unwrap_or(0));
            GzDecoder::new(stored)
                .read_to_end(&mut body)
                .map_err(|err| corrupt(err.to_string()))?;
            body
        }
        other => return Err(corrupt(format!("unknown encoding {other:?}"))),
    };
    if let Some(expected) = &row.body_sha256
        && sha256_hex(&body) != *expected
    {
        return Err(corrupt("SHA-256 mismatch".to_owned()));
    }
    Ok(body)
}

fn stored(row: fetch::Model) -> Result<StoredFetch> {
    let body = decode_body(&row)?;
    let fetch = RawFetch {
        frontier_id: row.frontier_id,
        feed_id: row.feed_id,
        requested_url: row.requested_url,
        final_url: row.final_url,
        redirect_chain: json::decode(&row.redirect_chain, "redirect chain")?,
        status: row.status.and_then(|status| u16::try_from(status).ok()),
        request: row.request.as_deref().map(|json| json::decode(json, "request")).transpose()?,
        headers: json::decode(&row.headers, "response headers")?,
        content_type: row.content_type,
        body,
        error: row.error,
        started_at: row.started_at,
        first_byte_ms: row.first_byte_ms.and_then(|ms| u64::try_from(ms).ok()),
        total_ms: row.total_ms.and_then(|ms| u64::try_from(ms).ok()),
    };
    Ok(StoredFetch { id: row.id, body_sha256: row.body_sha256.unwrap_or_default(), fetch })
}

/// The fetch with this id, body decompressed.
pub async fn get(archive: &Archive, id: i64) -> Result<StoredFetch> {
    let row = fetch::Entity::find_by_id(id)
        .one(&archive.db)
        .await
        .doing("reading a fetch")?
        .ok_or_else(|| Error::NotFound { what: format!("fetch {id}") })?;
    stored(row)
}

/// Every fetch made for a frontier entry, oldest first.
pub async fn for_frontier_entry(archive: &Archive, frontier_id: i64) -> Result<Vec<StoredFetch>> {
    fetch::Entity::find()
        .filter(fetch::Column::FrontierId.eq(frontier_id))
        .order_by_asc(fetch::Column::Id)
        .all(&archive.db)
        .await
        .doing("reading fetches")?
        .into_iter()
        .map(stored)
        .collect()
}
