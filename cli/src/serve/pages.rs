//! The pages researchers read: search (results folded by cluster; the attention chart and the top
//! sources and words in frames, `panels.rs`), one story (text, metadata and provenance, removed sentences, URLs, its
//! cluster and why each link was made), and the sources with their collections.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use store::Archive;
use store::duplicates::Link;

use super::api::{self, NONE, StoryView};
use super::html::{escape, link_out, linkable, page};
use super::panels;
use super::params::{Known, Params};
use super::{Answer, App, Problem, html_response, page_answer};

/// The search page's parameters: a selection, and the chart's period.
const SEARCH: Known = Known {
    once: &["since", "until", "language", "q", "one_per_cluster", "limit", "after", "by"],
    repeated: &["source", "collection"],
};
/// Copies listed under a folded result (the count is always given).
const COPIES_SHOWN: usize = 20;

pub(super) async fn search(State(app): State<App>, uri: Uri) -> Response {
    page_answer(search_page(&app.archive, uri.query()).await)
}

pub(super) async fn story(State(app): State<App>, uri: Uri) -> Response {
    page_answer(
        async {
            Params::parse(uri.query(), NONE)?;
            let id = api::story_id(uri.path(), "/stories/")?;
            Ok(html_response(story_page(&StoryView::read(&app.archive, id).await?)))
        }
        .await,
    )
}

pub(super) async fn sources(State(app): State<App>, uri: Uri) -> Response {
    page_answer(
        async {
            Params::parse(uri.query(), NONE)?;
            sources_page(&app.archive).await
        }
        .await,
    )
}

/// The help under the search box: the query language in one paragraph.
const QUERY_HELP: &str = r#"<p class="help">Words must all appear (<code>storm coast</code>);
<code>"a phrase"</code> in that order; <code>OR</code>, <code>NOT</code> and parentheses combine;
<code>flood*</code> is a prefix; fields: <code>title:word</code>, <code>source:"Name"</code>,
<code>collection:"Name"</code>, <code>language:en</code>. Results are folded by story cluster: one row
per cluster, its copies counted and listed under it.</p>"#;

async fn search_page(archive: &Archive, query: Option<&str>) -> Answer {
    let params = Params::parse(query, SEARCH)?;
    // Folded unless asked otherwise.
    let folded = params.flag("one_per_cluster")?.unwrap_or(true);
    let sources = store::sources::list(archive).await.map_err(Problem::store)?;
    let collections = store::collections::list(archive).await.map_err(Problem::store)?;
    let value = |name: &str| escape(params.one(name).unwrap_or_default());
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<form method="get" action="/" id="search">
<input name="q" placeholder="query" size="40" value="{q}" autofocus>
<select name="source"><option value="">every source</option>"#,
        q = value("q")
    );
    let chosen: Vec<&str> = params.all("source").collect();
    for source in &sources {
        let selected = if chosen.contains(&source.name.as_str()) { " selected" } else { "" };
        let name = escape(&source.name);
        let _ = write!(body, r#"<option value="{name}"{selected}>{name}</option>"#);
    }
    body.push_str(
        r#"</select><select name="collection"><option value="">every collection</option>"#,
    );
    let chosen: Vec<&str> = params.all("collection").collect();
    for collection in &collections {
        let selected = if chosen.contains(&collection.name.as_str()) { " selected" } else { "" };
        let name = escape(&collection.name);
        let _ = write!(body, r#"<option value="{name}"{selected}>{name}</option>"#);
    }
    let by = params.choice("by", &["day", "week", "month"])?;
    let option = |name: &str, on: bool| {
        format!(r#"<option value="{name}"{}>{name}</option>"#, if on { " selected" } else { "" })
    };
    let _ = write!(
        body,
        r#"</select>
<label>from <input type="date" name="since" value="{since}"></label>
<label>to <input type="date" name="until" value="{until}"></label>
<input name="language" placeholder="language (en)" size="10" value="{language}">
<select name="one_per_cluster"><option value="1"{fold}>one row per story cluster</option><option value="0"{raw}>every copy</option></select>
<label>chart by <select name="by">{day}{week}{month}</select></label>
<button>search</button>
</form>
{QUERY_HELP}
"#,
        since = value("since"),
        until = value("until"),
        language = value("language"),
        fold = if folded { " selected" } else { "" },
        raw = if folded { "" } else { " selected" },
        day = option("day", by == "day"),
        week = option("week", by == "week"),
        month = option("month", by == "month"),
    );

    let (selection, found) = api::select(archive, &params, folded).await?;
    // The copies of each folded cluster on the page, by cluster id: every cluster's members in
    // one statement, the stories listed in another.
    let mut copies: BTreeMap<i64, (Vec<store::stories::Story>, usize)> = BTreeMap::new();
    if folded {
        let shown: Vec<(i64, i64)> = found
            .stories
            .iter()
            .filter_map(|s| {
                s.placement.as_ref().filter(|p| p.size > 1).map(|p| (p.cluster_id, s.story.id))
            })
            .collect();
        let cluster_ids: Vec<i64> = shown.iter().map(|(cluster, _)| *cluster).collect();
        let members =
            store::clusters::members_of(archive, &cluster_ids).await.map_err(Problem::store)?;
        // Per cluster: the copies listed, and how many there are.
        let mut listed: Vec<(i64, Vec<i64>, usize)> = Vec::new();
        for (cluster, shown_story) in shown {
            let ids: Vec<i64> = members
                .get(&cluster)
                .map(|m| m.iter().copied().filter(|id| *id != shown_story).collect())
                .unwrap_or_default();
            let total = ids.len();
            listed.push((cluster, ids.into_iter().take(COPIES_SHOWN).collect(), total));
        }
        let wanted: Vec<i64> = listed.iter().flat_map(|(_, ids, _)| ids.iter().copied()).collect();
        let mut stories: BTreeMap<i64, store::stories::Story> =
            store::stories::get_many(archive, &wanted)
                .await
                .map_err(Problem::store)?
                .into_iter()
                .map(|story| (story.id, story))
                .collect();
        for (cluster, ids, total) in listed {
            let members = ids.iter().filter_map(|id| stories.remove(id)).collect();
            copies.insert(cluster, (members, total));
        }
    }
    body.push_str(r#"<h2>Stories</h2>"#);
    if found.stories.is_empty() {
        body.push_str("<p id=\"results\">No stories.</p>\n");
    } else {
        body.push_str(
            "<table id=\"results\">\n<tr><th>day</th><th>source</th><th>title</th><th>language</th><th>copies</th></tr>\n",
        );
        for selected in &found.stories {
            let story = &selected.story;
            let fields = &story.story;
            let mut cell = String::new();
            if let Some(placement) = &selected.placement {
                if folded && placement.size > 1 {
                    let (members, total) = copies
                        .get(&placement.cluster_id)
                        .map_or((&[][..], 0), |(m, t)| (&m[..], *t));
                    let _ = write!(
                        cell,
                        r#"<details class="copies"><summary>{total} {word}</summary><ul>"#,
                        word = if total == 1 { "copy" } else { "copies" }
                    );
                    for member in members {
                        let f = &member.story;
                        let _ = write!(
                            cell,
                            r#"<li>{day} · {source} · <a href="/stories/{id}">{title}</a></li>"#,
                            day = f.published_day.map(|d| d.to_string()).unwrap_or_default(),
                            source = escape(selection.source_name(f.source_id)),
                            id = member.id,
                            title = escape(f.title.as_deref().unwrap_or("(no title)")),
                        );
                    }
                    if total > members.len() {
                        let _ = write!(
                            cell,
                            r#"<li><a href="/stories/{}">and {} more</a></li>"#,
                            story.id,
                            total - members.len()
                        );
                    }
                    cell.push_str("</ul></details>");
                } else if !folded {
                    let _ = write!(
                        cell,
                        "cluster {} ({} stories{})",
                        placement.cluster_id,
                        placement.size,
                        placement.relation.as_deref().map(|r| format!(", {r}")).unwrap_or_default()
                    );
                }
            }
            let _ = writeln!(
                body,
                r#"<tr class="result"><td>{day}</td><td>{source}</td><td><a class="story" href="/stories/{id}">{title}</a> {original}</td><td>{language}</td><td>{cell}</td></tr>"#,
                day = fields.published_day.map(|d| d.to_string()).unwrap_or_default(),
                source = escape(selection.source_name(fields.source_id)),
                original = if linkable(&fields.url).is_empty() {
                    String::new()
                } else {
                    format!(
                        r#"<a class="aside" href="{}" rel="noreferrer">original</a>"#,
                        escape(&fields.url)
                    )
                },
                title = escape(fields.title.as_deref().unwrap_or("(no title)")),
                id = story.id,
                language = escape(fields.language.as_deref().unwrap_or_default()),
            );
        }
        body.push_str("</table>\n");
    }
    if let Some(next) = found.next {
        let _ = writeln!(
            body,
            r#"<p><a id="more" href="/?{}">more</a></p>"#,
            escape(&params.with("after", Some(&next.to_string())))
        );
    }

    // The attention chart and the top lists, for the same query and filters: panels the
    // browser fetches beside the page, so the results do not wait for them.
    let panel_query = params.keeping(panels::CHART);
    let _ = writeln!(
        body,
        r#"<h2>Attention over time</h2>
<p class="help">Stories per {by} (blue, every copy) and story clusters (orange, copies folded). As data: <a href="/api/counts?{query}">JSON</a>.</p>
{frame}"#,
        query = escape(&panel_query),
        frame = panels::frame(
            "chart-panel",
            "attention over time",
            panels::CHART_PATH,
            &panel_query,
            panels::CHART_HEIGHT
        ),
    );
    body.push_str(r#"<div class="columns">"#);
    for (heading, id, path) in [
        ("Top sources", "top-sources-panel", panels::TOP_SOURCES_PATH),
        ("Top words", "top-words-panel", panels::TOP_WORDS_PATH),
    ] {
        let _ = write!(
            body,
            "<div><h2>{heading}</h2>{}</div>",
            panels::frame(id, heading, path, &panel_query, panels::TOP_HEIGHT)
        );
    }
    body.push_str("</div>\n");
    Ok(html_response(page("search", &body)))
}

/// One story's page.
fn story_page(view: &StoryView) -> String {
    let story = &view.story;
    let fields = &story.story;
    let mut body = String::new();
    let day = fields.published_day.map(|d| d.to_string()).unwrap_or_default();
    body.push_str(r#"<table id="metadata">"#);
    let mut row = |name: &str, value: String| {
        let _ = write!(body, "<tr><th>{name}</th><td>{value}</td></tr>");
    };
    row("source", escape(&view.source));
    row("day", escape(&day));
    row("published", escape(&fields.published_at.map(|at| at.to_rfc3339()).unwrap_or_default()));
    row("language", escape(fields.language.as_deref().unwrap_or_default()));
    row("authors", escape(&fields.authors.join(", ")));
    row("URL", link_out(&fields.url, &fields.url));
    if let Some(canonical) = &fields.canonical_url {
        row("canonical URL", link_out(canonical, canonical));
    }
    row("archived", escape(&story.created_at.to_rfc3339()));
    row(
        "extracted by",
        format!(
            "{}{}",
            escape(&fields.extractor_version),
            fields.fetch_id.map(|id| format!(" from fetch {id}")).unwrap_or_default()
        ),
    );
    row("as data", format!(r#"<a href="/api/stories/{}">JSON</a>"#, story.id));
    body.push_str("</table>\n");

    // The text.
    body.push_str("<h2>Text</h2>\n<div id=\"text\">");
    for paragraph in story.searchable().split('\n') {
        if !paragraph.trim().is_empty() {
            let _ = writeln!(body, "<p>{}</p>", escape(paragraph));
        }
    }
    body.push_str("</div>\n");

    // Where each field came from.
    if !fields.provenance.is_empty() {
        body.push_str("<h2>Provenance</h2>\n<table id=\"provenance\"><tr><th>field</th><th>taken from</th></tr>");
        for (field, rule) in &fields.provenance {
            let _ = write!(body, "<tr><td>{}</td><td>{}</td></tr>", escape(field), escape(rule));
        }
        body.push_str("</table>\n");
    }

    // The sentences taken out as repeated.
    body.push_str("<h2>Sentences removed as repeated</h2>\n");
    if view.removed.is_empty() {
        body.push_str("<p id=\"removed\">None: no sentence of this story was repeated from an earlier story of its source that week.</p>\n");
    } else {
        body.push_str("<p class=\"help\">Left out of the text above and of word search, because an earlier story of the same source and week has them (boilerplate).</p>\n<ul id=\"removed\">");
        for removed in &view.removed {
            let _ = write!(
                body,
                r#"<li><span class="removed">{}</span> <span class="aside">(sentence {}; kept by <a href="/stories/{o}">story {o}</a>)</span></li>"#,
                escape(&removed.sentence),
                removed.position,
                o = removed.owner_story_id,
            );
        }
        body.push_str("</ul>\n");
    }

    // Every URL it was seen at.
    body.push_str("<h2>Seen at</h2>\n<ul id=\"urls\">");
    for url in &view.urls {
        let _ = write!(
            body,
            "<li>{} <span class=\"aside\">({})</span></li>",
            link_out(&url.url, &url.url),
            url.kind.as_str()
        );
    }
    body.push_str("</ul>\n");

    // Its cluster, member by member, with why.
    body.push_str("<h2>Story cluster</h2>\n");
    match &view.cluster {
        None => body.push_str("<p id=\"cluster\">This story is in no cluster: no other story was found to be the same or similar.</p>\n"),
        Some(cluster) => {
            let _ = writeln!(
                body,
                r#"<p>Cluster {} of {} stories, represented by <a href="/stories/{r}">story {r}</a>{shown}.</p>
<table id="cluster"><tr><th>story</th><th>source</th><th>day</th><th>title</th><th>relation</th><th>why</th></tr>"#,
                cluster.id,
                cluster.members.len(),
                r = cluster.representative_story_id,
                shown = if cluster.members.len() > view.members.len() {
                    format!("; the first {} are listed", view.members.len())
                } else {
                    String::new()
                },
            );
            for member in &view.members {
                let f = &member.story.story;
                let relation = match (&member.relation, member.story.id == cluster.representative_story_id) {
                    (_, true) => "representative".to_owned(),
                    (Some(relation), false) => match member.score {
                        Some(score) => format!("{relation} ({score:.2})"),
                        None => relation.clone(),
                    },
                    (None, false) => String::new(),
                };
                let this = if member.story.id == story.id { " class=\"this\"" } else { "" };
                let _ = write!(
                    body,
                    r#"<tr{this}><td><a href="/stories/{id}">{id}</a></td><td>{source}</td><td>{day}</td><td>{title}</td><td>{relation}</td><td><ul class="reasons">{why}</ul></td></tr>"#,
                    id = member.story.id,
                    source = escape(&member.source),
                    day = f.published_day.map(|d| d.to_string()).unwrap_or_default(),
                    title = escape(f.title.as_deref().unwrap_or("(no title)")),
                    relation = escape(&relation),
                    why = member
                        .links
                        .iter()
                        .map(|link| reason(link, member.story.id))
                        .collect::<String>(),
                );
            }
            body.push_str("</table>\n");
        }
    }

    // Every link it takes part in, with the scores.
    if !view.links.is_empty() {
        body.push_str("<h2>Duplicate links</h2>\n<table id=\"links\"><tr><th>story</th><th>of story</th><th>method</th><th>score</th><th>scores (thresholds)</th><th>why</th></tr>");
        for link in &view.links {
            let l = &link.link;
            let scores: Vec<String> = l
                .scores
                .iter()
                .map(|(name, score)| match l.thresholds.get(name) {
                    Some(threshold) => format!("{name} {score:.3} ({threshold:.3})"),
                    None => format!("{name} {score:.3}"),
                })
                .collect();
            let _ = write!(
                body,
                r#"<tr><td><a href="/stories/{a}">{a}</a></td><td><a href="/stories/{b}">{b}</a></td><td>{method}</td><td>{score:.3}</td><td>{scores}</td><td>{why}</td></tr>"#,
                a = l.story_id,
                b = l.of_story_id,
                method = escape(&l.method),
                score = l.score,
                scores = escape(&scores.join(", ")),
                why = escape(l.explanation.as_deref().unwrap_or("(no explanation recorded)")),
            );
        }
        body.push_str("</table>\n");
    }
    page(fields.title.as_deref().unwrap_or("(no title)"), &body)
}

/// One link of a cluster member, in words, as seen from `member`.
fn reason(link: &Link, member: i64) -> String {
    let l = &link.link;
    let other = if l.story_id == member { l.of_story_id } else { l.story_id };
    format!(
        r#"<li class="reason">with <a href="/stories/{other}">{other}</a>, by {method} ({score:.2}): {why}</li>"#,
        method = escape(&l.method),
        score = l.score,
        why = escape(l.explanation.as_deref().unwrap_or("no explanation recorded")),
    )
}

pub(super) async fn stats(State(app): State<App>, uri: Uri) -> Response {
    page_answer(
        async {
            let params = Params::parse(uri.query(), api::STATS)?;
            let (report, by) = api::stats_report(&app.archive, &params).await?;
            Ok(html_response(stats_page(&report, by, &params)))
        }
        .await,
    )
}

/// The collection health page: the sources to look at, then the table asked for.
fn stats_page(report: &engine::stats::Stats, by: crate::args::StatsBy, params: &Params) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        r#"<form method="get" action="/stats"><label>last <input type="number" name="days" min="1" max="3660" value="{days}"> days</label>
<label>silent after <input type="number" name="silent_after" min="0" max="3660" value="{silent}"> days without a story</label>
<select name="by"><option value="source"{source}>by source</option><option value="day"{day}>by day and source</option></select>
<button>show</button></form>
<p class="help">{from} to {to} (UTC){active}. A source is <span class="flag">silent</span> when it kept stories before but none for more than the days asked before the archive's last active day; its <span class="flag">failures jumped</span> on a day when at least {min} requests failed at twice or more its earlier rate (and {margin:.0} points above it). As data: <a href="/api/stats?{query}">JSON</a>.</p>"#,
        days = report.to.signed_duration_since(report.from).num_days() + 1,
        silent = escape(params.one("silent_after").unwrap_or("2")),
        source = if by == crate::args::StatsBy::Source { " selected" } else { "" },
        day = if by == crate::args::StatsBy::Day { " selected" } else { "" },
        from = report.from,
        to = report.to,
        active = report
            .last_active
            .map(|d| format!("; the archive was last active on {d}"))
            .unwrap_or_else(|| "; nothing happened in these days".to_owned()),
        min = engine::stats::JUMP_MIN,
        margin = engine::stats::JUMP_MARGIN * 100.0,
        query = escape(&params.keeping(api::STATS)),
    );
    let flagged: Vec<&engine::stats::Source> =
        report.sources.iter().filter(|s| !s.flags.is_empty()).collect();
    body.push_str("<h2>To look at</h2>\n");
    if flagged.is_empty() {
        body.push_str("<p id=\"flags\">No source went silent or failed more than before.</p>\n");
    } else {
        body.push_str("<ul id=\"flags\">");
        for source in flagged {
            for flag in &source.flags {
                let _ = write!(
                    body,
                    r#"<li><span class="flag">{}</span>: {}</li>"#,
                    escape(&source.source),
                    escape(&flag.describe())
                );
            }
        }
        body.push_str("</ul>\n");
    }
    let (header, rows) = crate::stats::cells(report, by);
    let _ = write!(
        body,
        r#"<h2>{}</h2><table id="stats"><tr>"#,
        if by == crate::args::StatsBy::Source { "By source" } else { "By day and source" }
    );
    for name in &header {
        let _ = write!(body, "<th>{}</th>", escape(&name.replace('_', " ")));
    }
    body.push_str("</tr>");
    for row in rows {
        let flagged =
            by == crate::args::StatsBy::Source && row.last().is_some_and(|f| !f.is_empty());
        body.push_str(if flagged { r#"<tr class="flagged">"# } else { "<tr>" });
        for cell in row {
            let _ = write!(body, "<td>{}</td>", escape(&cell));
        }
        body.push_str("</tr>");
    }
    body.push_str("</table>\n");
    page("collection health", &body)
}

async fn sources_page(archive: &Archive) -> Answer {
    let sources = store::sources::list(archive).await.map_err(Problem::store)?;
    let collections = store::collections::list(archive).await.map_err(Problem::store)?;
    let names: BTreeMap<i64, &str> = sources.iter().map(|s| (s.id, s.name.as_str())).collect();
    let search_link = |key: &str, name: &str| {
        let query =
            url::form_urlencoded::Serializer::new(String::new()).append_pair(key, name).finish();
        format!(r#"<a href="/?{}">{}</a>"#, escape(&query), escape(name))
    };
    let mut body = String::new();
    let _ = writeln!(body, "<h2>Collections</h2>");
    if collections.is_empty() {
        body.push_str("<p id=\"collections\">No collections (<code>morgue collections add</code> makes them).</p>\n");
    } else {
        body.push_str("<table id=\"collections\"><tr><th>collection</th><th>sources</th></tr>");
        for collection in &collections {
            let members: Vec<String> = collection
                .source_ids
                .iter()
                .filter_map(|id| names.get(id))
                .map(|name| search_link("source", name))
                .collect();
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td></tr>",
                search_link("collection", &collection.name),
                members.join(", ")
            );
        }
        body.push_str("</table>\n");
    }
    let _ = writeln!(body, "<h2>Sources</h2>");
    body.push_str("<table id=\"sources\"><tr><th>source</th><th>homepage</th><th>timezone</th><th>collections</th><th>feeds last searched</th></tr>");
    for source in &sources {
        let member_of: Vec<String> = collections
            .iter()
            .filter(|c| c.source_ids.contains(&source.id))
            .map(|c| escape(&c.name))
            .collect();
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            search_link("source", &source.name),
            link_out(&source.homepage, &source.homepage),
            escape(&source.timezone),
            member_of.join(", "),
            source
                .discovered_at
                .map(|at| at.format("%Y-%m-%d %H:%M UTC").to_string())
                .unwrap_or_else(|| "never".to_owned()),
        );
    }
    body.push_str("</table>\n");
    Ok(html_response(page("sources", &body)))
}
