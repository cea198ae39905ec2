//! `morgue serve`: the archive read-only on the web, as pages for researchers and a JSON API, on
//! axum with tower layers.
//!
//! Pages (HTML drawn on the server, no script, nothing fetched from elsewhere):
//!
//! - `/`: the search page: the query language, filters (source, collection, days, language),
//!   results folded by story cluster (copies counted, listed in a `<details>`), and three frames
//!   the browser fills beside it: the attention chart and the top sources and words.
//! - `/panels/chart`, `/panels/top/sources`, `/panels/top/words`: those frames, for the query and
//!   filters of the page (the parameters of `/api/counts`, and `limit` for a top list): the chart
//!   (stories and clusters per period, SVG) and the top lists, each a small page without
//!   navigation. At most `--panel-lanes` (default 1) are worked on at once, so that under load
//!   the results and the story pages do not wait behind them (`panels.rs`).
//! - `/stories/{id}`: one story: text, metadata and provenance, the sentences removed as
//!   repeated, every URL it was seen at, and its cluster's member stories (source, day, title,
//!   relation) with the reason for each duplicate link in words.
//! - `/sources`: the sources and the collections they are in.
//! - `/stats`: collection health (`morgue stats`): per source, or per day and source, feeds
//!   polled, pages fetched, failures by kind, stories kept, duplicates found; sources that went
//!   silent or whose failures jumped are flagged (`days`, `silent_after`, `by`).
//!
//! The JSON API:
//!
//! - `/api/stories`: the selection of `morgue stories` (`source`, `collection`, repeatable, by
//!   name; `since`, `until`, days; `language`; `q`, the query language; `one_per_cluster`;
//!   `text`), a page at a time: `limit` (1 to [`MAX_LIMIT`], default 50) rows after the cursor
//!   `after` (a story id, default 0). Answers `{"stories": [...], "next": ID}`: ask again with
//!   `after=ID` for more; `next` is null at the end. Only the candidates of phrases and `title:`
//!   are checked one by one; after [`SCAN_BUDGET`] of them rejected a page ends early, with
//!   fewer rows and a `next`.
//! - `/api/stories/{id}`: one story with its text, URLs, removed sentences, duplicate links
//!   (method, scores, thresholds, why in words) and its cluster with its member stories.
//! - `/api/counts`: `morgue counts` (`q`, `by` = day, week or month, `source`, `collection`,
//!   `since`, `until`).
//! - `/api/top/sources`, `/api/top/words`: `morgue top` (those parameters, and `limit`).
//! - `/api/sources`, `/api/collections`, `/api/stats` (the parameters of `/stats`).
//!
//! Every parameter is checked (`params.rs`): an unknown name, a repeat, a bad percent-escape or
//! bad UTF-8, an overlong value, a number out of bounds or a day that is not one is a 400 with a
//! one-line message (JSON `{"error": "..."}` under `/api/`, a short page elsewhere); an unknown
//! path or story is a 404. Only GET and HEAD are answered (anything else is 405 with `Allow`);
//! every 200 carries a strong `ETag` over its bytes, and a matching `If-None-Match` gets a 304.
//!
//! The layers, outermost first: request bodies over [`MAX_BODY`] bytes are refused (413); a
//! request not answered within [`REQUEST_TIMEOUT`] gets a 503; at most [`MAX_IN_FLIGHT`]
//! requests are worked on at once, the rest wait their turn (within the timeout); panels wait
//! for their own turns instead, and do not take those places. Connections
//! must send their headers within [`HEADER_TIMEOUT`]. The server binds loopback unless told
//! otherwise and never writes to the archive; SIGINT or SIGTERM stop it after the requests in
//! flight.
//!
//! The server keeps every story's facts (source, day, cluster, language) in memory, read when it
//! starts and brought up to date before each answer (`store::facts`), so that the chart's counts
//! and the top sources count a query's matches without a database lookup each.

mod api;
mod html;
mod pages;
mod panels;
mod params;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderValue, IF_NONE_MATCH};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::{Value, json};
use store::Archive;
use tokio::net::TcpListener;
use tower::ServiceBuilder;

/// Rows a page of `/api/stories` has unless `limit` says otherwise.
const DEFAULT_LIMIT: u64 = 50;
/// The most rows a page may ask for: the hard cap on pagination.
pub(crate) const MAX_LIMIT: u64 = 500;
/// The most candidates of a phrase or `title:` query one page rejects before it answers.
const SCAN_BUDGET: u64 = 20_000;
/// How long a client may take to send a request's headers, so that idle or slow connections
/// cannot pile up.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request may take to be answered, waiting for its turn included.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most requests worked on at once; more wait for a turn. Twice the archive's pool of
/// connections: a request holds one only while a statement runs.
pub(crate) const MAX_IN_FLIGHT: usize = 32;
/// The largest request body accepted: the server reads none, so a small one.
pub(crate) const MAX_BODY: usize = 16 * 1024;
/// The largest answer whose bytes are hashed for an `ETag` (every answer is smaller).
const MAX_ETAGGED: usize = 64 * 1024 * 1024;
/// The pause after a failed accept.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// What every handler shares: the archive, and the panels' turns.
#[derive(Debug, Clone)]
pub(super) struct App {
    archive: Arc<Archive>,
    /// The panels' turns: at most `morgue serve --panel-lanes` are worked on at once.
    panel_turns: Arc<tokio::sync::Semaphore>,
}

impl App {
    fn new(archive: Arc<Archive>, panel_lanes: usize) -> App {
        let lanes = panel_lanes.max(1);
        App { archive, panel_turns: Arc::new(tokio::sync::Semaphore::new(lanes)) }
    }

    /// A panel's turn, held until dropped; waits while as many panels as there are lanes are
    /// worked on. The semaphore is never closed, so a turn always comes.
    async fn panel_turn(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        self.panel_turns.acquire().await.ok()
    }
}

/// Serves the archive on `listen` until SIGINT or SIGTERM, `panel_lanes` panels at a time;
/// prints the address it listens on.
pub(crate) async fn run(
    archive: Archive,
    listen: SocketAddr,
    panel_lanes: usize,
    out: &mut impl std::io::Write,
) -> Result<()> {
    let listener =
        TcpListener::bind(listen).await.with_context(|| format!("cannot listen on {listen}"))?;
    let addr = listener.local_addr().context("cannot read the listening address")?;
    writeln!(out, "serving {} on http://{addr}/", archive.display_url())?;
    out.flush()?;
    let archive = Arc::new(archive);
    // Counts and top sources from every story's facts kept in memory (`store::facts`), read now
    // beside the first requests rather than by the first chart.
    archive.keep_facts(true);
    let loading = Arc::clone(&archive);
    tokio::spawn(async move {
        if let Err(err) = loading.load_facts().await {
            tracing::warn!("cannot read the stories' facts: {err}");
        }
    });
    // The routes inside the limits, outermost first.
    let service = ServiceBuilder::new()
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .map_response(explain_timeout)
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            REQUEST_TIMEOUT,
        ))
        .service(router(App::new(Arc::clone(&archive), panel_lanes)));
    let signal = crate::signals::wait_for_signal();
    tokio::pin!(signal);
    // Tells every connection to finish its request in flight and close.
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            () = &mut signal => break,
            // Finished connections are let go of as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(err) => {
                        // Out of file descriptors, say: wait a little rather than spin.
                        tracing::warn!("cannot accept a connection: {err}");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                        continue;
                    }
                };
                let service = TowerToHyperService::new(service.clone());
                let mut stopping = stopping.clone();
                connections.spawn(async move {
                    let connection = hyper::server::conn::http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(HEADER_TIMEOUT)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(connection);
                    tokio::select! {
                        _ = connection.as_mut() => {}
                        _ = stopping.changed() => {
                            connection.as_mut().graceful_shutdown();
                            let _ = connection.await;
                        }
                    }
                });
            }
        }
    }
    tracing::info!("stopping: answering the requests in flight");
    drop(listener);
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
    drop(service);
    if let Ok(archive) = Arc::try_unwrap(archive) {
        archive.close().await?;
    }
    Ok(())
}

/// The routes, with the read-only guard and conditional requests.
fn router(app: App) -> Router {
    use axum::routing::get;
    // Panels take turns of their own (`--panel-lanes`): one waiting for its turn must not hold
    // one of the in-flight places the pages and the story pages need, so they stand outside.
    let panels = Router::new()
        .route(panels::CHART_PATH, get(panels::chart))
        .route(panels::TOP_SOURCES_PATH, get(panels::top_sources))
        .route(panels::TOP_WORDS_PATH, get(panels::top_words));
    Router::new()
        .route("/", get(pages::search))
        .route("/stories/{id}", get(pages::story))
        .route("/sources", get(pages::sources))
        .route("/stats", get(pages::stats))
        .route("/api/stories", get(api::stories))
        .route("/api/stories/{id}", get(api::story))
        .route("/api/counts", get(api::counts))
        .route("/api/top/sources", get(api::top_sources))
        .route("/api/top/words", get(api::top_words))
        .route("/api/sources", get(api::sources))
        .route("/api/collections", get(api::collections))
        .route("/api/stats", get(api::stats))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .layer(tower::limit::GlobalConcurrencyLimitLayer::new(MAX_IN_FLIGHT))
        .merge(panels)
        .with_state(app)
        .layer(axum::middleware::from_fn(conditional))
        .layer(axum::middleware::from_fn(read_only))
}

/// `/metrics`: the engine's Prometheus metrics as OpenMetrics text (the same as
/// `morgue run --metrics` serves; counters are this process's, gauges read from the archive).
async fn metrics(
    axum::extract::State(app): axum::extract::State<App>,
    uri: axum::http::Uri,
) -> Response {
    api_answer(
        async {
            params::Params::parse(uri.query(), api::NONE)?;
            let text = engine::metrics::render(&app.archive).await.map_err(Problem::engine)?;
            Ok(with_type(text.into_bytes(), engine::metrics::CONTENT_TYPE))
        }
        .await,
    )
}

/// Anything but GET and HEAD is refused, whatever the path.
async fn read_only(request: Request, next: Next) -> Response {
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return next.run(request).await;
    }
    let problem = Problem {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "read-only: only GET and HEAD".to_owned(),
    };
    let mut response = problem.answer(request.uri().path().starts_with("/api/"));
    response.headers_mut().insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// Every 200 gets a strong `ETag` over its bytes; a request whose `If-None-Match` names it gets
/// a 304 without them.
async fn conditional(request: Request, next: Next) -> Response {
    let asked: Option<String> =
        request.headers().get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let response = next.run(request).await;
    if response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_ETAGGED).await {
        Ok(bytes) => bytes,
        Err(err) => {
            return Problem::internal(&anyhow::anyhow!("reading an answer: {err}")).answer(true);
        }
    };
    let tag = etag(&bytes);
    parts.headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&tag) {
        parts.headers.insert(ETAG, value);
    }
    if asked.is_some_and(|asked| matches_etag(&asked, &tag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(CONTENT_TYPE);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// The strong entity tag of an answer's bytes.
fn etag(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(bytes);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether an `If-None-Match` value names `tag` (or is `*`); weak tags compare weakly.
fn matches_etag(asked: &str, tag: &str) -> bool {
    asked.split(',').map(str::trim).any(|one| one == "*" || one.trim_start_matches("W/") == tag)
}

/// The timeout's own answer carries no words: say what happened, on one line.
fn explain_timeout(response: Response) -> Response {
    if response.status() != StatusCode::SERVICE_UNAVAILABLE
        || response.headers().contains_key(CONTENT_TYPE)
    {
        return response;
    }
    let message = format!(
        "the archive took longer than {} s to answer; try a narrower query\n",
        REQUEST_TIMEOUT.as_secs()
    );
    let (mut parts, _) = response.into_parts();
    parts.headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(message))
}

async fn not_found(request: Request) -> Response {
    let path = request.uri().path();
    Problem::not_found(format!("nothing at {}", params::shorten(path)))
        .answer(path.starts_with("/api/"))
}

/// A request's answer, or why it has none.
pub(super) type Answer = std::result::Result<Response, Problem>;

/// What went wrong with a request.
#[derive(Debug)]
pub(super) struct Problem {
    status: StatusCode,
    message: String,
}

impl Problem {
    pub(super) fn bad(message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    pub(super) fn not_found(message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// The archive failed: the details go to the server's log, not to the client.
    pub(super) fn internal(err: &anyhow::Error) -> Problem {
        tracing::warn!("request failed: {err:#}");
        Problem {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the archive could not answer (the server's log says why)".to_owned(),
        }
    }

    /// A store error: the archive failed.
    pub(super) fn store(err: store::Error) -> Problem {
        Problem::internal(&err.into())
    }

    /// An engine error: 400 for what the caller asked wrongly (a query that does not parse, an
    /// unknown name), 500 for the rest.
    pub(super) fn engine(err: engine::Error) -> Problem {
        if err.is_bad_request() {
            Problem::bad(err.to_string())
        } else {
            Problem::internal(&err.into())
        }
    }

    /// The answer: JSON for the API, a short page elsewhere.
    pub(super) fn answer(&self, api: bool) -> Response {
        let mut response = if api {
            json_response(&json!({ "error": self.message }))
        } else {
            html_response(html::page("error", &format!("<p>{}</p>", html::escape(&self.message))))
        };
        *response.status_mut() = self.status;
        response
    }
}

/// The answer of an API handler.
pub(super) fn api_answer(answer: Answer) -> Response {
    answer.unwrap_or_else(|problem| problem.answer(true))
}

/// The answer of a page handler.
pub(super) fn page_answer(answer: Answer) -> Response {
    answer.unwrap_or_else(|problem| problem.answer(false))
}

pub(super) fn json_response(value: &Value) -> Response {
    let mut body = serde_json::to_vec(value).unwrap_or_default();
    body.push(b'\n');
    with_type(body, "application/json")
}

pub(super) fn html_response(page: String) -> Response {
    with_type(page.into_bytes(), "text/html; charset=utf-8")
}

fn with_type(body: Vec<u8>, content_type: &'static str) -> Response {
    ([(CONTENT_TYPE, HeaderValue::from_static(content_type))], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_follow_the_bytes_and_match_as_clients_send_them() {
        let tag = etag(b"one");
        assert_ne!(tag, etag(b"two"));
        assert_eq!(tag, etag(b"one"));
        assert!(matches_etag(&tag, &tag));
        assert!(matches_etag(&format!("W/{tag}"), &tag));
        assert!(matches_etag(&format!("\"x\", {tag}"), &tag));
        assert!(matches_etag("*", &tag));
        assert!(!matches_etag("\"x\"", &tag));
    }
}
