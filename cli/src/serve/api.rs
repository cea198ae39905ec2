//! The JSON API's handlers, and what the API and the pages share: the selection of a request's
//! parameters, the counts and top lists asked for, and one story with everything said of it.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use engine::selection::{CountsRequest, Selected, Selection, TopEntry, TopKind};
use serde_json::{Value, json};
use store::Archive;
use store::clusters::Cluster;
use store::duplicates::Link;
use store::stories::{Filter, RemovedSentence, Story, StoryUrl};

use super::params::{Known, Params};
use super::{
    Answer, App, DEFAULT_LIMIT, MAX_LIMIT, Problem, SCAN_BUDGET, api_answer, json_response,
};

/// The parameters of a selection of stories (`/api/stories`, `/`).
const SELECTION: Known = Known {
    once: &["since", "until", "language", "q", "one_per_cluster", "text", "limit", "after"],
    repeated: &["source", "collection"],
};
/// The parameters of `/api/counts`.
pub(super) const COUNTS: Known =
    Known { once: &["q", "by", "since", "until"], repeated: &["source", "collection"] };
/// The parameters of `/api/top/...`.
pub(super) const TOP: Known =
    Known { once: &["q", "by", "since", "until", "limit"], repeated: &["source", "collection"] };
/// No parameters.
pub(super) const NONE: Known = Known { once: &[], repeated: &[] };
/// The most member stories of a cluster a story's answer lists (the count is always given).
pub(super) const MAX_MEMBERS: usize = 200;

pub(super) async fn stories(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            let params = Params::parse(uri.query(), SELECTION)?;
            let with_text = params.flag("text")?.unwrap_or(false);
            let one_per_cluster = params.flag("one_per_cluster")?.unwrap_or(false);
            let (selection, page) = select(&app.archive, &params, one_per_cluster).await?;
            let rows: Vec<Value> =
                page.stories.iter().map(|s| json!(selection.row(s, with_text))).collect();
            Ok(json_response(&json!({ "stories": rows, "next": page.next })))
        }
        .await,
    )
}

pub(super) async fn story(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            Params::parse(uri.query(), NONE)?;
            let id = story_id(uri.path(), "/api/stories/")?;
            Ok(json_response(&StoryView::read(&app.archive, id).await?.json()))
        }
        .await,
    )
}

pub(super) async fn counts(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            let params = Params::parse(uri.query(), COUNTS)?;
            let request = counts_request(&params)?;
            let rows =
                engine::selection::counts(&app.archive, &request).await.map_err(Problem::engine)?;
            Ok(json_response(&crate::counts::json(&rows)))
        }
        .await,
    )
}

pub(super) async fn top_sources(State(app): State<App>, uri: Uri) -> Response {
    api_answer(top(&app.archive, &uri, TopKind::Sources).await)
}

pub(super) async fn top_words(State(app): State<App>, uri: Uri) -> Response {
    api_answer(top(&app.archive, &uri, TopKind::Words).await)
}

async fn top(archive: &Archive, uri: &Uri, kind: TopKind) -> Answer {
    let params = Params::parse(uri.query(), TOP)?;
    let limit = params.number("limit", 1, MAX_LIMIT, 20)?;
    let entries = top_list(archive, &counts_request(&params)?, kind, limit).await?;
    Ok(json_response(&json!({ "top": entries })))
}

pub(super) async fn sources(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            Params::parse(uri.query(), NONE)?;
            let sources = store::sources::list(&app.archive).await.map_err(Problem::store)?;
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
        .await,
    )
}

pub(super) async fn collections(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            Params::parse(uri.query(), NONE)?;
            let names = source_names(&app.archive).await?;
            let collections =
                store::collections::list(&app.archive).await.map_err(Problem::store)?;
            let rows: Vec<Value> = collections
                .iter()
                .map(|c| {
                    let sources: Vec<&str> = c
                        .source_ids
                        .iter()
                        .filter_map(|id| names.get(id).map(String::as_str))
                        .collect();
                    json!({ "id": c.id, "name": c.name, "sources": sources })
                })
                .collect();
            Ok(json_response(&json!({ "collections": rows })))
        }
        .await,
    )
}

/// The parameters of `/api/stats` and `/stats`.
pub(super) const STATS: Known = Known { once: &["days", "silent_after", "by"], repeated: &[] };

pub(super) async fn stats(State(app): State<App>, uri: Uri) -> Response {
    api_answer(
        async {
            let params = Params::parse(uri.query(), STATS)?;
            let (report, _) = stats_report(&app.archive, &params).await?;
            Ok(json_response(&crate::stats::json(&report)))
        }
        .await,
    )
}

/// The collection health the parameters ask for, and whether by source or by day.
pub(super) async fn stats_report(
    archive: &Archive,
    params: &Params,
) -> Result<(engine::stats::Stats, crate::args::StatsBy), Problem> {
    let by = match params.choice("by", &["source", "day"])? {
        "day" => crate::args::StatsBy::Day,
        _ => crate::args::StatsBy::Source,
    };
    let days = params.number("days", 1, 3660, 14)?;
    let silent_after = params.number("silent_after", 0, 3660, 2)?;
    let request = engine::stats::Request {
        today: chrono::Utc::now().date_naive(),
        days: u32::try_from(days).unwrap_or(14),
        silent_after: u32::try_from(silent_after).unwrap_or(2),
    };
    let report = engine::stats::stats(archive, &request).await.map_err(Problem::engine)?;
    Ok((report, by))
}

/// The story id at the end of `path`, after `prefix`; anything else there is not a story.
pub(super) fn story_id(path: &str, prefix: &str) -> Result<i64, Problem> {
    let tail = path.strip_prefix(prefix).unwrap_or_default();
    match tail.parse::<i64>() {
        Ok(id) if id > 0 && tail.bytes().all(|b| b.is_ascii_digit()) => Ok(id),
        _ => Err(Problem::not_found(format!(
            "no story {:?}: a story is named by its id, a positive whole number",
            super::params::shorten(tail)
        ))),
    }
}

/// Source names by id.
pub(super) async fn source_names(archive: &Archive) -> Result<BTreeMap<i64, String>, Problem> {
    Ok(store::sources::list(archive)
        .await
        .map_err(Problem::store)?
        .into_iter()
        .map(|source| (source.id, source.name))
        .collect())
}

/// A page of selected stories and where the next starts.
pub(super) struct Page {
    pub(super) stories: Vec<Selected>,
    pub(super) next: Option<i64>,
}

/// The stories a request's parameters select, a page of them from its cursor.
pub(super) async fn select(
    archive: &Archive,
    params: &Params,
    one_per_cluster: bool,
) -> Result<(Selection, Page), Problem> {
    let filter = Filter {
        from_day: params.day("since")?,
        to_day: params.day("until")?,
        language: params.one("language").map(str::to_owned),
        ..Filter::default()
    };
    let limit = params.number("limit", 1, MAX_LIMIT, DEFAULT_LIMIT)?;
    let after = params.number("after", 0, i64::MAX as u64, 0)?;
    let after = i64::try_from(after).map_err(|_| Problem::bad("after is too large"))?;
    let search = params.one("q").filter(|q| !q.trim().is_empty());
    let selection = Selection::new(
        archive,
        &params.names("source"),
        &params.names("collection"),
        filter,
        search,
        one_per_cluster,
    )
    .await
    .map_err(Problem::engine)?;
    let (stories, next) = selection
        .page(archive, after, limit, SCAN_BUDGET)
        .await
        .map_err(|err| Problem::internal(&err.into()))?;
    Ok((selection, Page { stories, next }))
}

/// What `/api/counts` and `/api/top/...` count, from the parameters.
pub(super) fn counts_request(params: &Params) -> Result<CountsRequest, Problem> {
    let period = match params.choice("by", &["day", "week", "month"])? {
        "week" => store::counts::Period::Week,
        "month" => store::counts::Period::Month,
        _ => store::counts::Period::Day,
    };
    Ok(CountsRequest {
        sources: params.names("source"),
        collections: params.names("collection"),
        from_day: params.day("since")?,
        to_day: params.day("until")?,
        query: params.one("q").filter(|q| !q.trim().is_empty()).map(str::to_owned),
        period: Some(period),
    })
}

/// A top list.
pub(super) async fn top_list(
    archive: &Archive,
    request: &CountsRequest,
    kind: TopKind,
    limit: u64,
) -> Result<Vec<TopEntry>, Problem> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    engine::selection::top(archive, request, kind, limit).await.map_err(Problem::engine)
}

/// A member of a story's cluster, with what links it to the others shown.
pub(super) struct MemberView {
    pub(super) story: Story,
    pub(super) source: String,
    pub(super) relation: Option<String>,
    pub(super) score: Option<f64>,
    /// The links between it and the other members listed, either side.
    pub(super) links: Vec<Link>,
}

/// One story and everything the archive says of it.
pub(super) struct StoryView {
    pub(super) story: Story,
    pub(super) source: String,
    pub(super) urls: Vec<StoryUrl>,
    pub(super) removed: Vec<RemovedSentence>,
    /// Every link it takes part in.
    pub(super) links: Vec<Link>,
    pub(super) cluster: Option<Cluster>,
    /// The cluster's members, up to [`MAX_MEMBERS`] (this story and the representative first).
    pub(super) members: Vec<MemberView>,
}

impl StoryView {
    pub(super) async fn read(archive: &Archive, id: i64) -> Result<StoryView, Problem> {
        let story = match store::stories::get(archive, id).await {
            Ok(story) => story,
            Err(store::Error::NotFound { .. }) => {
                return Err(Problem::not_found(format!("no story {id}")));
            }
            Err(err) => return Err(Problem::store(err)),
        };
        let names = source_names(archive).await?;
        let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
        let urls = store::stories::urls(archive, id).await.map_err(Problem::store)?;
        let removed =
            store::stories::removed_sentences(archive, id).await.map_err(Problem::store)?;
        let links = store::duplicates::involving(archive, id).await.map_err(Problem::store)?;
        let cluster = store::clusters::of_story(archive, id).await.map_err(Problem::store)?;
        let mut members = Vec::new();
        if let Some(cluster) = &cluster {
            // This story and the representative first, then the others, up to the cap.
            let mut ids = vec![cluster.representative_story_id];
            if id != cluster.representative_story_id {
                ids.push(id);
            }
            ids.extend(
                cluster
                    .members
                    .iter()
                    .map(|m| m.story_id)
                    .filter(|m| *m != id && *m != cluster.representative_story_id),
            );
            ids.truncate(MAX_MEMBERS);
            let stories = store::stories::get_many(archive, &ids).await.map_err(Problem::store)?;
            let within = store::duplicates::within(archive, &ids).await.map_err(Problem::store)?;
            let mut by_id: BTreeMap<i64, Story> = stories.into_iter().map(|s| (s.id, s)).collect();
            for member_id in ids {
                let Some(member_story) = by_id.remove(&member_id) else { continue };
                let member = cluster.members.iter().find(|m| m.story_id == member_id);
                members.push(MemberView {
                    source: name(member_story.story.source_id),
                    story: member_story,
                    relation: member.and_then(|m| m.relation.clone()),
                    score: member.and_then(|m| m.score),
                    links: within
                        .iter()
                        .filter(|l| l.link.story_id == member_id || l.link.of_story_id == member_id)
                        .cloned()
                        .collect(),
                });
            }
        }
        Ok(StoryView {
            source: name(story.story.source_id),
            story,
            urls,
            removed,
            links,
            cluster,
            members,
        })
    }

    /// The answer of `/api/stories/{id}`.
    pub(super) fn json(&self) -> Value {
        let mut value = story_fields(&self.story, &self.source);
        value["provenance"] = json!(self.story.story.provenance);
        value["extractor_version"] = json!(self.story.story.extractor_version);
        value["archived_at"] = json!(self.story.created_at.to_rfc3339());
        value["fetch"] = json!(self.story.story.fetch_id);
        value["text"] = json!(self.story.searchable());
        value["removed_sentences"] = json!(
            self.removed
                .iter()
                .map(|r| json!({
                    "position": r.position,
                    "sentence": r.sentence,
                    "kept_by": r.owner_story_id,
                }))
                .collect::<Vec<_>>()
        );
        value["urls"] = json!(
            self.urls
                .iter()
                .map(|u| json!({ "url": u.url, "kind": u.kind.as_str() }))
                .collect::<Vec<_>>()
        );
        value["duplicates"] = json!(self.links.iter().map(link_json).collect::<Vec<_>>());
        value["cluster"] = json!(self.cluster.as_ref().map(|c| json!({
            "id": c.id,
            "representative": c.representative_story_id,
            "size": c.members.len(),
            "members": self.members.iter().map(|m| {
                let mut fields = story_fields(&m.story, &m.source);
                fields["story"] = json!(m.story.id);
                fields["relation"] = json!(m.relation);
                fields["score"] = json!(m.score);
                fields["links"] = json!(m.links.iter().map(link_json).collect::<Vec<_>>());
                fields
            }).collect::<Vec<_>>(),
        })));
        value
    }
}

fn link_json(link: &Link) -> Value {
    let l = &link.link;
    json!({
        "story": l.story_id,
        "of_story": l.of_story_id,
        "method": l.method,
        "score": l.score,
        "scores": l.scores,
        "thresholds": l.thresholds,
        "explanation": l.explanation,
    })
}

/// What every answer says of a story.
fn story_fields(story: &Story, source: &str) -> Value {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn story_ids_are_positive_whole_numbers() {
        assert_eq!(story_id("/stories/12", "/stories/").unwrap(), 12);
        for bad in ["", "0", "-1", "+1", "1.5", "abc", "99999999999999999999", "1%20"] {
            let problem = story_id(&format!("/stories/{bad}"), "/stories/").unwrap_err();
            assert_eq!(problem.status, axum::http::StatusCode::NOT_FOUND, "{bad}");
        }
    }
}
