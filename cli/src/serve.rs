//! `morgue serve`: a read-only JSON API and a search page over the archive.
//!
//! Routes (GET or HEAD; anything else is 405):
//!
//! - `/api/stories`: the selection of `morgue stories` as query parameters (`source`, repeatable,
//!   by name; `since` and `until`, days; `language`; `q`, words; `one_per_cluster`; `text`), a
//!   page at a time: `limit` (1 to 500, default 50) rows after the story `after` (default 0).
//!   Answers `{"stories": [...], "next": ID}`: ask again with `after=ID` for more; `next` is null
//!   at the end. `q` is the query language (`store::query`); `collection`, repeatable, by name.
//!   The archive's indexes select the page, the deduplicated view included, so pages are full;
//!   only the candidates of phrases and `title:` are checked one by one, and after
//!   [`SCAN_BUDGET`] of them rejected a page ends early, with fewer rows and a `next`.
//! - `/api/stories/{id}`: one story with its text, every URL it was seen at, its duplicate links
//!   (method, scores, thresholds, and why in words) and its cluster.
//! - `/api/counts`: `morgue counts` (`q`, `by` = day, week or month, `source`, `collection`,
//!   `since`, `until`): `{"counts": [{"period", "stories", "clusters", "all_stories",
//!   "all_clusters", "stories_share", "clusters_share"}, ...]}`.
//! - `/api/top/sources`, `/api/top/words`: `morgue top` (the parameters of `/api/counts`, and
//!   `limit`, default 20): `{"top": [{"name", "stories", "clusters"}, ...]}`.
//! - `/api/sources`: the sources.
//! - `/`: the search page (the same parameters), each row linked to its story's page,
//!   `/stories/{id}` (its text, cluster, duplicate links and URLs), and to the article.
//!
//! Errors are JSON under `/api/` (`{"error": "..."}`) and a short page elsewhere: 400 for a bad
//! parameter, 404 for an unknown path or story. The server binds loopback unless told otherwise;
//! it never writes to the archive. SIGINT or SIGTERM stop it after the requests in flight.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use bytes::Bytes;
use chrono::NaiveDate;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::{Value, json};
use store::Archive;
use store::stories::{Filter, Story};
use tokio::net::TcpListener;

use engine::selection::{Selected, Selection};

/// Rows a page of `/api/stories` has unless `limit` says otherwise.
const DEFAULT_LIMIT: u64 = 50;
/// The most rows a page may ask for.
const MAX_LIMIT: u64 = 500;
/// The most candidates of a phrase or `title:` query one page rejects before it answers.
const SCAN_BUDGET: u64 = 20_000;
/// How long a client may take to send a request's headers, so that idle or slow connections
/// cannot pile up.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The pause after a failed accept.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves the archive on `listen` until SIGINT or SIGTERM; prints the address it listens on.
pub(crate) async fn run(
    archive: Archive,
    listen: SocketAddr,
    out: &mut impl std::io::Write,
) -> Result<()> {
    let listener =
        TcpListener::bind(listen).await.with_context(|| format!("cannot listen on {listen}"))?;
    let addr = listener.local_addr().context("cannot read the listening address")?;
    writeln!(out, "serving {} on http://{addr}/", archive.display_url())?;
    out.flush()?;
    let archive = Arc::new(archive);
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
                let archive = Arc::clone(&archive);
                let mut stopping = stopping.clone();
                connections.spawn(async move {
                    let service = service_fn(move |request| {
                        let archive = Arc::clone(&archive);
                        async move { Ok::<_, Infallible>(respond(&archive, &request).await) }
                    });
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
    if let Ok(archive) = Arc::try_unwrap(archive) {
        archive.close().await?;
    }
    Ok(())
}

/// A request's answer, or why it has none.
type Answer = std::result::Result<Response<Full<Bytes>>, Problem>;

/// What went wrong with a request.
#[derive(Debug)]
struct Problem {
    status: StatusCode,
    message: String,
}

impl Problem {
    fn bad(message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    fn not_found(message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// The archive failed: the details go to the server's log, not to the client.
    fn internal(err: &anyhow::Error) -> Problem {
        tracing::warn!("request failed: {err:#}");
        Problem {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the archive could not answer (the server's log says why)".to_owned(),
        }
    }
}

async fn respond(archive: &Archive, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let path = request.uri().path();
    let api = path.starts_with("/api/");
    let answer = if request.method() != Method::GET && request.method() != Method::HEAD {
        Err(Problem {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: "read-only: only GET and HEAD".to_owned(),
        })
    } else {
        let params = Params::parse(request.uri().query().unwrap_or_default());
        route(archive, path, &params).await
    };
    let mut response = answer.unwrap_or_else(|problem| {
        let mut response = if api {
            json_response(&json!({ "error": problem.message }))
        } else {
            html_response(page("error", &format!("<p>{}</p>", escape(&problem.message))))
        };
        *response.status_mut() = problem.status;
        if problem.status == StatusCode::METHOD_NOT_ALLOWED {
            response.headers_mut().insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        response
    });
    if request.method() == Method::HEAD {
        *response.body_mut() = Full::new(Bytes::new());
    }
    response
}

async fn route(archive: &Archive, path: &str, params: &Params) -> Answer {
    match path.trim_end_matches('/') {
        "" => search_page(archive, params).await,
        "/api/stories" => {
            let with_text = params.flag("text")?;
            let (selection, page) = select(archive, params).await?;
            let rows: Vec<Value> = page
                .stories
                .iter()
                .map(|selected| json!(selection.row(selected, with_text)))
                .collect();
            Ok(json_response(&json!({ "stories": rows, "next": page.next })))
        }
        "/api/counts" => {
            let request = counts_request(params)?;
            let rows =
                engine::selection::counts(archive, &request).await.map_err(engine_problem)?;
            Ok(json_response(&crate::counts::json(&rows)))
        }
        "/api/top/sources" | "/api/top/words" => {
            let kind = if path.trim_end_matches('/').ends_with("sources") {
                engine::selection::TopKind::Sources
            } else {
                engine::selection::TopKind::Words
            };
            let limit = params.number("limit")?.unwrap_or(20);
            if !(1..=MAX_LIMIT).contains(&limit) {
                return Err(Problem::bad(format!("limit must be 1 to {MAX_LIMIT}")));
            }
            let request = counts_request(params)?;
            let entries = engine::selection::top(archive, &request, kind, limit as usize)
                .await
                .map_err(engine_problem)?;
            Ok(json_response(&json!({ "top": entries })))
        }
        "/api/sources" => {
            let sources =
                store::sources::list(archive).await.map_err(|e| Problem::internal(&e.into()))?;
            let rows: Vec<Value> = sources
                .iter()
                .map(|source| {
                    json!({
                        "id": source.id,
                        "name": source.name,
                        "homepage": source.homepage,
                        "timezone": source.timezone,
                    })
                })
                .collect();
            Ok(json_response(&json!({ "sources": rows })))
        }
        other => {
            if let Some(Ok(id)) = other.strip_prefix("/api/stories/").map(str::parse::<i64>) {
                Ok(json_response(&story_value(archive, id).await?))
            } else if let Some(Ok(id)) = other.strip_prefix("/stories/").map(str::parse::<i64>) {
                Ok(html_response(story_page(&story_value(archive, id).await?)))
            } else {
                Err(Problem::not_found(format!("nothing at {path}")))
            }
        }
    }
}

/// A page of selected stories and where the next starts.
struct Page {
    stories: Vec<Selected>,
    next: Option<i64>,
}

async fn select(
    archive: &Archive,
    params: &Params,
) -> std::result::Result<(Selection, Page), Problem> {
    let filter = Filter {
        from_day: params.day("since")?,
        to_day: params.day("until")?,
        language: params.one("language").filter(|l| !l.is_empty()).map(str::to_owned),
        ..Filter::default()
    };
    let sources: Vec<String> =
        params.all("source").filter(|s| !s.is_empty()).map(str::to_owned).collect();
    let search = params.one("q").filter(|q| !q.trim().is_empty());
    let collections: Vec<String> =
        params.all("collection").filter(|s| !s.is_empty()).map(str::to_owned).collect();
    let selection = Selection::new(
        archive,
        &sources,
        &collections,
        filter,
        search,
        params.flag("one_per_cluster")?,
    )
    .await
    .map_err(engine_problem)?;
    let limit = params.number("limit")?.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Problem::bad(format!("limit must be 1 to {MAX_LIMIT}")));
    }
    let after = params.number("after")?.unwrap_or(0);
    let after = i64::try_from(after).map_err(|_| Problem::bad("after is too large"))?;
    let (stories, next) = selection
        .page(archive, after, limit, SCAN_BUDGET)
        .await
        .map_err(|err| Problem::internal(&err.into()))?;
    Ok((selection, Page { stories, next }))
}

/// What `/api/counts` and `/api/top/...` count, from the parameters.
fn counts_request(
    params: &Params,
) -> std::result::Result<engine::selection::CountsRequest, Problem> {
    let period = match params.one("by").unwrap_or("day") {
        "day" => store::counts::Period::Day,
        "week" => store::counts::Period::Week,
        "month" => store::counts::Period::Month,
        other => return Err(Problem::bad(format!("by must be day, week or month, not {other:?}"))),
    };
    let names = |key| params.all(key).filter(|s| !s.is_empty()).map(str::to_owned).collect();
    Ok(engine::selection::CountsRequest {
        sources: names("source"),
        collections: names("collection"),
        from_day: params.day("since")?,
        to_day: params.day("until")?,
        query: params.one("q").map(str::to_owned),
        period: Some(period),
    })
}

/// An engine error as an answer: 400 for what the caller asked wrongly (a query that does not
/// parse, an unknown name), 500 for the rest.
fn engine_problem(err: engine::Error) -> Problem {
    if err.is_bad_request() {
        Problem::bad(err.to_string())
    } else {
        Problem::internal(&err.into())
    }
}

/// What every answer says of a story.
fn story_fields(story: &Story, source: Option<&str>) -> Value {
    let fields = &story.story;
    json!({
        "id": story.id,
        "source": source,
        "published_day": fields.published_day.map(|day| day.to_string()),
        "published_at": fields.published_at.map(|at| at.to_rfc3339()),
        "language": fields.language,
        "title": fields.title,
        "url": fields.url,
        "canonical_url": fields.canonical_url,
        "authors": fields.authors,
    })
}

/// One story as `/api/stories/{id}` has it.
async fn story_value(archive: &Archive, id: i64) -> std::result::Result<Value, Problem> {
    let story = match store::stories::get(archive, id).await {
        Ok(story) => story,
        Err(store::Error::NotFound { .. }) => {
            return Err(Problem::not_found(format!("no story {id}")));
        }
        Err(err) => return Err(Problem::internal(&err.into())),
    };
    let internal = |err: store::Error| Problem::internal(&err.into());
    let urls = store::stories::urls(archive, id).await.map_err(internal)?;
    let links = store::duplicates::involving(archive, id).await.map_err(internal)?;
    let cluster = store::clusters::of_story(archive, id).await.map_err(internal)?;
    let source = store::sources::list(archive)
        .await
        .map_err(internal)?
        .into_iter()
        .find(|source| source.id == story.story.source_id)
        .map(|source| source.name);
    let mut value = story_fields(&story, source.as_deref());
    value["provenance"] = json!(story.story.provenance);
    value["extractor_version"] = json!(story.story.extractor_version);
    value["text"] = json!(story.searchable());
    value["urls"] = json!(
        urls.iter().map(|u| json!({ "url": u.url, "kind": u.kind.as_str() })).collect::<Vec<_>>()
    );
    value["duplicates"] = json!(
        links
            .iter()
            .map(|l| json!({
                "story": l.link.story_id,
                "of_story": l.link.of_story_id,
                "method": l.link.method,
                "score": l.link.score,
                "scores": l.link.scores,
                "thresholds": l.link.thresholds,
                "explanation": l.link.explanation,
            }))
            .collect::<Vec<_>>()
    );
    value["cluster"] = json!(cluster.map(|c| json!({
        "id": c.id,
        "representative": c.representative_story_id,
        "members": c.members.iter().map(|m| json!({
            "story": m.story_id,
            "relation": m.relation,
            "score": m.score,
        })).collect::<Vec<_>>(),
    })));
    Ok(value)
}

/// One story's page: its text, where it was seen, its cluster and its duplicate links.
fn story_page(value: &Value) -> String {
    let text = |v: &Value| escape(v.as_str().unwrap_or_default());
    let id = &value["id"];
    let mut body = String::new();
    let url = value["url"].as_str().unwrap_or_default();
    let _ = writeln!(
        body,
        r#"<p>{source} · {day} · {language} · <a href="{url}">original</a> · <a href="/api/stories/{id}">json</a></p>"#,
        source = text(&value["source"]),
        day = text(&value["published_day"]),
        language = text(&value["language"]),
        url = escape(linkable(url)),
    );
    let authors: Vec<String> =
        value["authors"].as_array().into_iter().flatten().map(text).collect();
    if !authors.is_empty() {
        let _ = writeln!(body, "<p>By {}</p>", authors.join(", "));
    }
    if let Some(cluster) = value["cluster"].as_object() {
        let members = cluster["members"].as_array().map_or(0, Vec::len);
        let _ = writeln!(
            body,
            r#"<p>Cluster {} of {members} stories, represented by <a href="/stories/{r}">story {r}</a>.</p>"#,
            cluster["id"],
            r = cluster["representative"],
        );
    }
    for paragraph in value["text"].as_str().unwrap_or_default().split('\n') {
        if !paragraph.trim().is_empty() {
            let _ = writeln!(body, "<p>{}</p>", escape(paragraph));
        }
    }
    let links = value["duplicates"].as_array().map(Vec::as_slice).unwrap_or_default();
    if !links.is_empty() {
        body.push_str("<h2>Duplicate links</h2>\n<table>\n<tr><th>story</th><th>of story</th><th>method</th><th>score</th><th>why</th></tr>\n");
        for link in links {
            let _ = writeln!(
                body,
                r#"<tr><td><a href="/stories/{a}">{a}</a></td><td><a href="/stories/{b}">{b}</a></td><td>{method}</td><td>{score:.3}</td><td>{why}</td></tr>"#,
                a = link["story"],
                b = link["of_story"],
                method = text(&link["method"]),
                score = link["score"].as_f64().unwrap_or_default(),
                why = text(&link["explanation"]),
            );
        }
        body.push_str("</table>\n");
    }
    let urls: Vec<String> = value["urls"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| format!("<li>{} ({})</li>", text(&u["url"]), text(&u["kind"])))
        .collect();
    let _ = writeln!(body, "<h2>Seen at</h2>\n<ul>{}</ul>", urls.join(""));
    page(value["title"].as_str().unwrap_or("(no title)"), &body)
}

async fn search_page(archive: &Archive, params: &Params) -> Answer {
    let sources = store::sources::list(archive).await.map_err(|e| Problem::internal(&e.into()))?;
    let chosen: Vec<&str> = params.all("source").collect();
    let value = |name: &str| escape(params.one(name).unwrap_or_default());
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<form method="get" action="/">
<input name="q" placeholder="words" value="{q}" autofocus>
<select name="source"><option value="">every source</option>"#,
        q = value("q")
    );
    for source in &sources {
        let selected = if chosen.contains(&source.name.as_str()) { " selected" } else { "" };
        let name = escape(&source.name);
        let _ = write!(body, r#"<option value="{name}"{selected}>{name}</option>"#);
    }
    let checked = if params.flag("one_per_cluster").unwrap_or(false) { " checked" } else { "" };
    let _ = write!(
        body,
        r#"</select>
<label>from <input type="date" name="since" value="{since}"></label>
<label>to <input type="date" name="until" value="{until}"></label>
<input name="language" placeholder="language" size="8" value="{language}">
<label><input type="checkbox" name="one_per_cluster" value="1"{checked}> one per story cluster</label>
<button>search</button>
</form>
"#,
        since = value("since"),
        until = value("until"),
        language = value("language"),
    );
    let (selection, page_of) = select(archive, params).await?;
    if page_of.stories.is_empty() {
        body.push_str("<p>No stories.</p>\n");
    } else {
        body.push_str(
            "<table>\n<tr><th>day</th><th>source</th><th>title</th><th>language</th><th>cluster</th></tr>\n",
        );
        for selected in &page_of.stories {
            let story = &selected.story;
            let fields = &story.story;
            let cluster = selected
                .placement
                .as_ref()
                .map_or(String::new(), |p| format!("{} ({} stories)", p.cluster_id, p.size));
            let _ = writeln!(
                body,
                r#"<tr><td>{day}</td><td>{source}</td><td><a href="/stories/{id}">{title}</a> <a class="json" href="{url}">original</a></td><td>{language}</td><td>{cluster}</td></tr>"#,
                day = fields.published_day.map(|d| d.to_string()).unwrap_or_default(),
                source = escape(selection.source_name(fields.source_id)),
                url = escape(linkable(&fields.url)),
                title = escape(fields.title.as_deref().unwrap_or("(no title)")),
                id = story.id,
                language = escape(fields.language.as_deref().unwrap_or_default()),
                cluster = escape(&cluster),
            );
        }
        body.push_str("</table>\n");
    }
    if let Some(next) = page_of.next {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (key, value) in &params.pairs {
            if key != "after" {
                query.append_pair(key, value);
            }
        }
        query.append_pair("after", &next.to_string());
        let _ = writeln!(body, r#"<p><a href="/?{}">more</a></p>"#, escape(&query.finish()));
    }
    Ok(html_response(page("morgue", &body)))
}

/// The URL if a page may link to it (http or https), else nothing: a story's URL came from the
/// web, and a `javascript:` link must never reach a researcher's browser.
fn linkable(url: &str) -> &str {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") { url } else { "" }
}

/// A whole HTML page.
fn page(title: &str, body: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }}
form {{ display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: 1em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; padding: .3em .6em; border-bottom: 1px solid #ddd; vertical-align: top; }}
a.json {{ font-size: 80%; color: #888; }}
</style></head>
<body><h1>{title}</h1>
{body}</body></html>
"#,
        title = escape(title),
    )
}

/// Text for HTML, in element content and in quoted attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn json_response(value: &Value) -> Response<Full<Bytes>> {
    let mut body = serde_json::to_vec(value).unwrap_or_default();
    body.push(b'\n');
    with_type(body, "application/json")
}

fn html_response(page: String) -> Response<Full<Bytes>> {
    with_type(page.into_bytes(), "text/html; charset=utf-8")
}

fn with_type(body: Vec<u8>, content_type: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A request's query parameters, in order.
struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    fn parse(query: &str) -> Params {
        Params { pairs: url::form_urlencoded::parse(query.as_bytes()).into_owned().collect() }
    }

    fn one(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.pairs.iter().filter(move |(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    fn day(&self, name: &str) -> std::result::Result<Option<NaiveDate>, Problem> {
        match self.one(name).filter(|v| !v.is_empty()) {
            None => Ok(None),
            Some(text) => NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .map(Some)
                .map_err(|_| Problem::bad(format!("{name} is not a day (YYYY-MM-DD): {text:?}"))),
        }
    }

    fn number(&self, name: &str) -> std::result::Result<Option<u64>, Problem> {
        match self.one(name).filter(|v| !v.is_empty()) {
            None => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| Problem::bad(format!("{name} is not a number: {text:?}"))),
        }
    }

    fn flag(&self, name: &str) -> std::result::Result<bool, Problem> {
        match self.one(name) {
            None => Ok(false),
            Some("" | "1" | "true" | "yes" | "on") => Ok(true),
            Some("0" | "false" | "no" | "off") => Ok(false),
            Some(other) => Err(Problem::bad(format!("{name} is not true or false: {other:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn only_web_urls_are_linked() {
        assert_eq!(linkable("https://daily.example/a"), "https://daily.example/a");
        assert_eq!(linkable("HTTP://daily.example/a"), "HTTP://daily.example/a");
        assert_eq!(linkable("javascript:alert(1)"), "");
        assert_eq!(linkable("data:text/html,x"), "");
        assert_eq!(linkable(""), "");
    }

    #[test]
    fn params_read_repeats_days_numbers_and_flags() {
        let params = Params::parse(
            "source=A+Daily&source=B&since=2026-11-01&limit=5&one_per_cluster=1&q=caf%C3%A9",
        );
        assert_eq!(params.all("source").collect::<Vec<_>>(), ["A Daily", "B"]);
        assert_eq!(params.day("since").unwrap(), NaiveDate::from_ymd_opt(2026, 11, 1));
        assert_eq!(params.number("limit").unwrap(), Some(5));
        assert!(params.flag("one_per_cluster").unwrap());
        assert!(!params.flag("text").unwrap());
        assert_eq!(params.one("q"), Some("café"));
        assert!(Params::parse("since=yesterday").day("since").is_err());
        assert!(Params::parse("limit=-1").number("limit").is_err());
        assert!(Params::parse("text=maybe").flag("text").is_err());
    }
}
