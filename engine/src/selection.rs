//! The researchers' selection of stories: filters, queries, collections, the deduplicated
//! one-per-cluster view, pages of stories by id with their clusters, their export as CSV or JSON
//! lines, and their counts over time.
//!
//! The archive is read a page of stories at a time (by id, so memory stays flat on any archive),
//! their clusters looked up per page. A query (`store::query`) asks the archive's word index for
//! candidates and checks each with the same folding (`store::matching`), so it finds the same
//! stories on SQLite and PostgreSQL. Shared by `morgue stories` (the export) and `morgue serve` (pages).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use serde::Serialize;
use store::Archive;
use store::clusters::Placement;
use store::counts::{Period, PeriodCount};
use store::matching::Matcher;
use store::query::Query;
use store::stories::{Filter, Story};

use crate::{Error, Result};

/// Stories read from the archive at a time.
const PAGE: u64 = 500;
/// A progress line in the log every this many rows exported.
const PROGRESS_EVERY: u64 = 50_000;

/// One exported story (also what the web API answers for each story of a page).
#[derive(Debug, Serialize)]
pub struct Row<'a> {
    id: i64,
    source: &'a str,
    published_day: Option<String>,
    published_at: Option<String>,
    language: Option<&'a str>,
    title: Option<&'a str>,
    url: &'a str,
    canonical_url: Option<&'a str>,
    authors: &'a [String],
    cluster: Option<i64>,
    cluster_size: Option<u64>,
    representative: Option<i64>,
    relation: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
}

const HEADER: [&str; 13] = [
    "id",
    "source",
    "published_day",
    "published_at",
    "language",
    "title",
    "url",
    "canonical_url",
    "authors",
    "cluster",
    "cluster_size",
    "representative",
    "relation",
];

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A header, then one record per story.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// What an export writes: the format, whether rows carry the story's text, and at most how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Export {
    /// CSV or JSON lines.
    pub format: Format,
    /// Whether each row carries the story's searchable text.
    pub text: bool,
    /// At most this many rows.
    pub limit: Option<u64>,
}

/// Writes the stories `selection` keeps to `out`, by id; returns how many rows were written.
/// A failed write is [`Error::Write`] (see [`Error::is_broken_pipe`]).
pub async fn export(
    archive: &Archive,
    selection: &Selection,
    export: Export,
    out: &mut impl Write,
) -> Result<u64> {
    let limit = export.limit.unwrap_or(u64::MAX);
    let mut sink = match export.format {
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            let mut header = HEADER.to_vec();
            if export.text {
                header.push("text");
            }
            writer.write_record(&header).map_err(csv_error)?;
            Sink::Csv(Box::new(writer))
        }
        Format::Jsonl => Sink::Jsonl(out),
    };
    let mut written = 0;
    let mut after = Some(0);
    while let Some(from) = after
        && written < limit
    {
        let page;
        (page, after) =
            selection.page(archive, from, (limit - written).min(PAGE), u64::MAX).await?;
        for selected in &page {
            sink.write(&selection.row(selected, export.text))?;
            written += 1;
            if written % PROGRESS_EVERY == 0 {
                tracing::info!(stories = written, "exporting");
            }
        }
    }
    sink.finish()?;
    Ok(written)
}

/// Where rows go.
enum Sink<'w, W: Write> {
    Csv(Box<csv::Writer<&'w mut W>>),
    Jsonl(&'w mut W),
}

impl<W: Write> Sink<'_, W> {
    fn write(&mut self, row: &Row<'_>) -> Result<()> {
        match self {
            Sink::Csv(writer) => writer.write_record(csv_record(row)).map_err(csv_error),
            Sink::Jsonl(out) => {
                serde_json::to_writer(&mut **out, row)
                    .map_err(|err| Error::Write { source: err.into() })?;
                out.write_all(b"\n").map_err(|source| Error::Write { source })
            }
        }
    }

    fn finish(self) -> Result<()> {
        match self {
            Sink::Csv(mut writer) => writer.flush(),
            Sink::Jsonl(out) => out.flush(),
        }
        .map_err(|source| Error::Write { source })
    }
}

/// A CSV writer's error as the I/O error it is (a closed pipe, say), or wrapped in one.
fn csv_error(err: csv::Error) -> Error {
    let source = if err.is_io_error() {
        match err.into_kind() {
            csv::ErrorKind::Io(io) => io,
            other => std::io::Error::other(format!("{other:?}")),
        }
    } else {
        std::io::Error::other(err)
    };
    Error::Write { source }
}

/// What a researcher asks for: the archive's filters, a query, and whether to keep only each
/// cluster's representative. Shared by the export and the web API.
#[derive(Debug)]
pub struct Selection {
    /// The archive's filters, the query included: the index selects the candidates.
    filter: Filter,
    /// Source names by id.
    sources: BTreeMap<i64, String>,
}

/// The query `search` (if any) and the stories of any of `collections` (if any), resolved.
pub async fn matcher(
    archive: &Archive,
    search: Option<&str>,
    collections: &[String],
) -> Result<Option<Matcher>> {
    let mut parts = Vec::new();
    if let Some(search) = search.filter(|search| !search.trim().is_empty()) {
        parts.push(Query::parse(search)?);
    }
    if !collections.is_empty() {
        parts.push(Query::Or(collections.iter().cloned().map(Query::Collection).collect()));
    }
    let query = match parts.len() {
        0 => return Ok(None),
        1 => parts.remove(0),
        _ => Query::And(parts),
    };
    match Matcher::new(archive, &query).await {
        Ok(matcher) => Ok(Some(matcher)),
        Err(store::Error::NotFound { what }) => Err(Error::UnknownName { what }),
        Err(err) => Err(err.into()),
    }
}

/// What `counts` counts: the stories of these sources and collections (by name; all when both
/// are empty), between these days, that the query matches.
#[derive(Debug, Clone, Default)]
pub struct CountsRequest {
    /// Sources by name.
    pub sources: Vec<String>,
    /// Collections by name (their sources are added to `sources`).
    pub collections: Vec<String>,
    /// The first day counted.
    pub from_day: Option<chrono::NaiveDate>,
    /// The last day counted.
    pub to_day: Option<chrono::NaiveDate>,
    /// The query (the query language, [`store::query`]).
    pub query: Option<String>,
    /// Days, weeks or months.
    pub period: Option<Period>,
}

/// Stories and story clusters per period, and all of the chosen sources' stories and clusters
/// (for shares): [`store::counts::counts`] with names resolved. Unknown names and queries that do
/// not parse are errors ([`Error::is_bad_request`]).
pub async fn counts(archive: &Archive, request: &CountsRequest) -> Result<Vec<PeriodCount>> {
    let Some(filter) = request_filter(archive, request).await? else { return Ok(Vec::new()) };
    Ok(store::counts::counts(archive, &filter, request.period.unwrap_or(Period::Day)).await?)
}

/// What a top list ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopKind {
    /// Sources, by how many stories.
    Sources,
    /// Words, by how many stories have them.
    Words,
}

/// One entry of a top list: a source's name or a word, with its stories and clusters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopEntry {
    /// The source's name, or the word.
    pub name: String,
    /// Stories.
    pub stories: u64,
    /// Story clusters (copies folded).
    pub clusters: u64,
}

/// The top `limit` sources or words of what `request` selects ([`store::top`]; its period is
/// not used), raw and folded.
pub async fn top(
    archive: &Archive,
    request: &CountsRequest,
    kind: TopKind,
    limit: usize,
) -> Result<Vec<TopEntry>> {
    let Some(filter) = request_filter(archive, request).await? else { return Ok(Vec::new()) };
    Ok(match kind {
        TopKind::Sources => {
            let names: BTreeMap<i64, String> = store::sources::list(archive)
                .await?
                .into_iter()
                .map(|source| (source.id, source.name))
                .collect();
            store::top::sources(archive, &filter, limit)
                .await?
                .into_iter()
                .map(|top| TopEntry {
                    name: names.get(&top.key).cloned().unwrap_or_default(),
                    stories: top.stories,
                    clusters: top.clusters,
                })
                .collect()
        }
        TopKind::Words => store::top::words(archive, &filter, limit)
            .await?
            .into_iter()
            .map(|top| TopEntry { name: top.key, stories: top.stories, clusters: top.clusters })
            .collect(),
    })
}

/// The archive's filter for a request, names resolved; `None` when its collections hold no
/// source (nothing to count).
async fn request_filter(archive: &Archive, request: &CountsRequest) -> Result<Option<Filter>> {
    let mut source_ids = BTreeSet::new();
    for name in &request.sources {
        match store::sources::by_name(archive, name).await? {
            Some(source) => source_ids.insert(source.id),
            None => return Err(Error::UnknownSource { name: name.clone() }),
        };
    }
    for name in &request.collections {
        match store::collections::by_name(archive, name).await? {
            Some(collection) => source_ids.extend(collection.source_ids),
            None => return Err(Error::UnknownName { what: format!("collection {name:?}") }),
        }
    }
    let query = matcher(archive, request.query.as_deref(), &[]).await?;
    if source_ids.is_empty() && !(request.sources.is_empty() && request.collections.is_empty()) {
        // Empty collections: no source, so nothing to count.
        return Ok(None);
    }
    Ok(Some(Filter {
        source_ids: source_ids.into_iter().collect(),
        from_day: request.from_day,
        to_day: request.to_day,
        query,
        ..Filter::default()
    }))
}

/// A story a [`Selection`] keeps, with its cluster.
#[derive(Debug)]
pub struct Selected {
    pub story: Story,
    pub placement: Option<Placement>,
}

impl Selection {
    /// `filter` (its sources given by name in `sources`), the stories of the `collections` named
    /// (any of them), those `search` matches (the query language, [`store::query`]), and the
    /// deduplicated view. An unknown source or collection name, or a query that does not parse,
    /// is an error ([`Error::is_bad_request`]).
    pub async fn new(
        archive: &Archive,
        sources: &[String],
        collections: &[String],
        mut filter: Filter,
        search: Option<&str>,
        one_per_cluster: bool,
    ) -> Result<Selection> {
        let names: BTreeMap<i64, String> = store::sources::list(archive)
            .await?
            .into_iter()
            .map(|source| (source.id, source.name))
            .collect();
        for name in sources {
            match names.iter().find(|(_, known)| *known == name) {
                Some((&id, _)) => filter.source_ids.push(id),
                None => return Err(Error::UnknownSource { name: name.clone() }),
            }
        }
        filter.query = matcher(archive, search, collections).await?;
        filter.one_per_cluster = one_per_cluster;
        Ok(Selection { filter, sources: names })
    }

    /// Up to `limit` selected stories with ids above `after`, by id, and the id to go on after,
    /// `None` when the archive has no more. The archive's condition selects the page (filters,
    /// the deduplicated view, and the query where its index decides); only candidates of phrases
    /// and `title:` are checked here, and after about `budget` candidates rejected the page ends
    /// early, with the id to go on after.
    pub async fn page(
        &self,
        archive: &Archive,
        mut after: i64,
        limit: u64,
        budget: u64,
    ) -> Result<(Vec<Selected>, Option<i64>)> {
        let mut selected = Vec::new();
        let mut rejected = 0;
        // When the index decides the query, every story read is kept: read no more than needed.
        let exact = self.filter.query.as_ref().is_none_or(Matcher::exact);
        while (selected.len() as u64) < limit {
            if rejected >= budget {
                return Ok((selected, Some(after)));
            }
            let want = if exact { limit - selected.len() as u64 } else { PAGE };
            let page = store::stories::page(archive, &self.filter, after, want.min(PAGE)).await?;
            if page.is_empty() {
                return Ok((selected, None));
            }
            let ids: Vec<i64> = page.iter().map(|story| story.id).collect();
            let mut placements = store::clusters::placements(archive, &ids).await?;
            for story in page {
                if selected.len() as u64 == limit {
                    break;
                }
                after = story.id;
                let placement = placements.remove(&story.id);
                // The index lets through candidates (phrases, `title:`, the stories whose words are
                // not written yet); the query over the story's words decides.
                if self.filter.query.as_ref().is_some_and(|query| !query.matches(&story)) {
                    rejected += 1;
                    continue;
                }
                selected.push(Selected { story, placement });
            }
        }
        Ok((selected, Some(after)))
    }

    /// The name of a source.
    pub fn source_name(&self, source_id: i64) -> &str {
        self.sources.get(&source_id).map_or("", String::as_str)
    }

    /// The row of a selected story, with its text if `with_text`.
    pub fn row<'a>(&'a self, selected: &'a Selected, with_text: bool) -> Row<'a> {
        let story = &selected.story;
        let fields = &story.story;
        let placement = selected.placement.as_ref();
        Row {
            id: story.id,
            source: self.source_name(fields.source_id),
            published_day: fields.published_day.map(|day| day.to_string()),
            published_at: fields.published_at.map(|at| at.to_rfc3339()),
            language: fields.language.as_deref(),
            title: fields.title.as_deref(),
            url: &fields.url,
            canonical_url: fields.canonical_url.as_deref(),
            authors: &fields.authors,
            cluster: placement.map(|p| p.cluster_id),
            cluster_size: placement.map(|p| p.size),
            representative: placement.map(|p| p.representative_story_id),
            relation: placement.and_then(|p| p.relation.as_deref()),
            text: with_text.then(|| story.searchable()),
        }
    }
}

/// A row's CSV cells, in the order of [`HEADER`] (then the text, if asked for).
fn csv_record(row: &Row<'_>) -> Vec<String> {
    let number = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    let mut cells = vec![
        row.id.to_string(),
        row.source.to_owned(),
        row.published_day.clone().unwrap_or_default(),
        row.published_at.clone().unwrap_or_default(),
        row.language.unwrap_or_default().to_owned(),
        row.title.unwrap_or_default().to_owned(),
        row.url.to_owned(),
        row.canonical_url.unwrap_or_default().to_owned(),
        row.authors.join("; "),
        number(row.cluster),
        row.cluster_size.map(|n| n.to_string()).unwrap_or_default(),
        number(row.representative),
        row.relation.unwrap_or_default().to_owned(),
    ];
    if let Some(text) = row.text {
        cells.push(text.to_owned());
    }
    cells
}
