//! The search page's panels: the attention chart, the top sources and the top words of a query,
//! each a small HTML document of its own that the search page embeds in an `<iframe>` (no
//! script: the browser fetches them itself, at once, beside the page).
//!
//! The folded results are what a researcher reads first and what costs least; the chart and the
//! top lists count over every matching story (or a sample of thousands), and took four fifths
//! of a search page's time at a million stories. As requests of their own, they no longer hold
//! the results back, and they take their own turns: at most `morgue serve --panel-lanes` panels
//! (default 1) are worked on at once, so that under load the pages and the story pages, cheap,
//! are not queued behind them for the archive's few connections and the machine's cores.

use std::fmt::Write as _;

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use engine::selection::TopKind;

use super::api;
use super::html::{escape, panel};
use super::params::{Known, Params};
use super::{Answer, App, Problem, html_response, page_answer};

/// The parameters of the chart panel: those of `/api/counts`.
pub(super) const CHART: Known = api::COUNTS;
/// The parameters of a top list's panel: those of `/api/top/...`.
const TOP: Known = api::TOP;
/// Entries a top list's panel shows unless `limit` says otherwise.
const TOP_SHOWN: u64 = 10;
/// The heights the search page gives each panel's frame, in CSS pixels (a frame does not grow
/// to what it holds without a script): the chart's, a top list's.
pub(super) const CHART_HEIGHT: u32 = 450;
pub(super) const TOP_HEIGHT: u32 = 420;

/// The panels' paths, by what they show: the chart, top sources, top words.
pub(super) const CHART_PATH: &str = "/panels/chart";
pub(super) const TOP_SOURCES_PATH: &str = "/panels/top/sources";
pub(super) const TOP_WORDS_PATH: &str = "/panels/top/words";

/// `/panels/chart`: stories and story clusters per period, as SVG.
pub(super) async fn chart(State(app): State<App>, uri: Uri) -> Response {
    page_answer(
        async {
            let params = Params::parse(uri.query(), CHART)?;
            let request = api::counts_request(&params)?;
            let _turn = app.panel_turn().await;
            let rows =
                engine::selection::counts(&app.archive, &request).await.map_err(Problem::engine)?;
            let title = params.one("q").unwrap_or("every story");
            let body = format!(r#"<div id="chart">{}</div>"#, crate::chart::svg(title, &rows));
            Ok(html_response(panel("attention over time", &body)))
        }
        .await,
    )
}

/// `/panels/top/sources`.
pub(super) async fn top_sources(State(app): State<App>, uri: Uri) -> Response {
    page_answer(top(&app, &uri, TopKind::Sources).await)
}

/// `/panels/top/words`.
pub(super) async fn top_words(State(app): State<App>, uri: Uri) -> Response {
    page_answer(top(&app, &uri, TopKind::Words).await)
}

async fn top(app: &App, uri: &Uri, kind: TopKind) -> Answer {
    let params = Params::parse(uri.query(), TOP)?;
    let limit = params.number("limit", 1, super::MAX_LIMIT, TOP_SHOWN)?;
    let request = api::counts_request(&params)?;
    let _turn = app.panel_turn().await;
    let entries = api::top_list(&app.archive, &request, kind, limit).await?;
    let (title, id, what) = match kind {
        TopKind::Sources => ("top sources", "top-sources", "source"),
        TopKind::Words => ("top words", "top-words", "word"),
    };
    let mut body = format!(
        r#"<table id="{id}"><tr><th>{what}</th><th class="n">stories</th><th class="n">clusters</th></tr>"#
    );
    for entry in entries {
        let _ = write!(
            body,
            r#"<tr><td>{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
            escape(&entry.name),
            entry.stories,
            entry.clusters
        );
    }
    body.push_str("</table>");
    Ok(html_response(panel(title, &body)))
}

/// The frame of a panel on the search page: `title` names it for assistive technology, `path`
/// is one of the panels' paths, `query` its query string (form-encoded, not yet escaped).
pub(super) fn frame(id: &str, title: &str, path: &str, query: &str, height: u32) -> String {
    let src = if query.is_empty() { path.to_owned() } else { format!("{path}?{query}") };
    format!(
        r#"<iframe id="{id}" class="panel" title="{title}" src="{src}" height="{height}"></iframe>"#,
        src = escape(&src),
        title = escape(title),
    )
}
