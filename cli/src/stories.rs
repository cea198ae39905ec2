//! `morgue stories`: the archive's stories for research, filtered, one row per story with its
//! cluster, as CSV or JSON lines.
//!
//! The archive is read a page of stories at a time (by id, so memory stays flat on any archive),
//! their clusters looked up per page, and rows written as they come. Word search asks the archive's
//! word index for candidates and checks each with the same folding (`store::search`), so it finds
//! the same stories on SQLite and PostgreSQL. A file given with `--output` is written beside its
//! final name and renamed into place at the end: an interrupted export leaves no half-written file
//! behind.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use store::Archive;
use store::clusters::Placement;
use store::stories::{Filter, Story};

use crate::args::{ExportFormat, StoriesArgs};
use crate::dedup::is_dash;

/// Stories read from the archive at a time.
const PAGE: u64 = 500;
/// A progress line on standard error every this many rows.
const PROGRESS_EVERY: u64 = 50_000;

/// One exported story (also what the web API answers for each story of a page).
#[derive(Debug, Serialize)]
pub(crate) struct Row<'a> {
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

/// Writes the stories `args` selects; returns how many rows were written, `None` when the reader
/// of standard output stopped reading (`| head`), which is not an error.
pub(crate) async fn run(archive: &Archive, args: &StoriesArgs) -> Result<Option<u64>> {
    let selection = Selection::new(
        archive,
        &args.sources,
        Filter {
            from_day: args.since,
            to_day: args.until,
            language: args.language.clone(),
            ..Filter::default()
        },
        args.search.as_deref(),
        args.one_per_cluster,
    )
    .await?;
    match args.output.as_deref().filter(|path| !is_dash(path)) {
        None => {
            let mut out = std::io::stdout().lock();
            let result = match export(archive, args, &selection, &mut out).await {
                Ok(written) => out.flush().map(|()| written).context("cannot write the output"),
                Err(err) => Err(err),
            };
            match result {
                Err(err) if is_broken_pipe(&err) => Ok(None),
                result => result.map(Some),
            }
        }
        Some(path) => {
            let partial = partial_path(path);
            let file = File::create(&partial)
                .with_context(|| format!("cannot create {}", partial.display()))?;
            let mut out = BufWriter::new(file);
            let written = match export(archive, args, &selection, &mut out).await {
                Ok(written) => written,
                Err(err) => {
                    drop(out);
                    let _ = std::fs::remove_file(&partial);
                    return Err(err);
                }
            };
            let file = out.into_inner().context("cannot write the output")?;
            file.sync_all().context("cannot write the output")?;
            std::fs::rename(&partial, path)
                .with_context(|| format!("cannot move the output to {}", path.display()))?;
            Ok(Some(written))
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            || cause.downcast_ref::<csv::Error>().is_some_and(|csv| {
                matches!(csv.kind(), csv::ErrorKind::Io(io) if io.kind() == ErrorKind::BrokenPipe)
            })
            || cause.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind)
                == Some(ErrorKind::BrokenPipe)
    })
}

/// Where the output is written before it is complete: beside `path`, hidden.
fn partial_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    path.with_file_name(format!(".{name}.partial"))
}

async fn export(
    archive: &Archive,
    args: &StoriesArgs,
    selection: &Selection,
    out: &mut impl Write,
) -> Result<u64> {
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut sink = match args.format {
        ExportFormat::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            let mut header = HEADER.to_vec();
            if args.text {
                header.push("text");
            }
            writer.write_record(&header).context("cannot write the output")?;
            Sink::Csv(Box::new(writer))
        }
        ExportFormat::Jsonl => Sink::Jsonl(out),
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
            sink.write(&selection.row(selected, args.text)).context("cannot write the output")?;
            written += 1;
            if written % PROGRESS_EVERY == 0 {
                tracing::info!(stories = written, "exporting");
            }
        }
    }
    sink.finish().context("cannot write the output")?;
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
            Sink::Csv(writer) => writer.write_record(csv_record(row))?,
            Sink::Jsonl(out) => {
                serde_json::to_writer(&mut **out, row)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<()> {
        match self {
            Sink::Csv(mut writer) => writer.flush()?,
            Sink::Jsonl(out) => out.flush()?,
        }
        Ok(())
    }
}

/// What a researcher asks for: the archive's filters, words to find, and whether to keep only
/// each cluster's representative. Shared by the export and the web API.
#[derive(Debug)]
pub(crate) struct Selection {
    /// The archive's filters, words included: the index selects the candidates.
    filter: Filter,
    one_per_cluster: bool,
    /// Source names by id.
    sources: BTreeMap<i64, String>,
}

/// A story a [`Selection`] keeps, with its cluster.
#[derive(Debug)]
pub(crate) struct Selected {
    pub(crate) story: Story,
    pub(crate) placement: Option<Placement>,
}

impl Selection {
    /// `filter` (its sources given by name in `sources`), the words of `search`, and the
    /// deduplicated view. An unknown source name is an error.
    pub(crate) async fn new(
        archive: &Archive,
        sources: &[String],
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
                None => bail!("no source named {name:?} (see `morgue sources list`)"),
            }
        }
        filter.words = search.map(store::search::words).unwrap_or_default();
        Ok(Selection { filter, one_per_cluster, sources: names })
    }

    /// Up to `limit` selected stories with ids above `after`, by id, reading at most about
    /// `budget` stories of the archive; and the id to go on after, `None` when the archive has
    /// no more.
    pub(crate) async fn page(
        &self,
        archive: &Archive,
        mut after: i64,
        limit: u64,
        budget: u64,
    ) -> Result<(Vec<Selected>, Option<i64>)> {
        let mut selected = Vec::new();
        let mut read = 0;
        while (selected.len() as u64) < limit {
            if read >= budget {
                return Ok((selected, Some(after)));
            }
            let page = store::stories::page(archive, &self.filter, after, PAGE).await?;
            if page.is_empty() {
                return Ok((selected, None));
            }
            read += page.len() as u64;
            let ids: Vec<i64> = page.iter().map(|story| story.id).collect();
            let mut placements = store::clusters::placements(archive, &ids).await?;
            for story in page {
                if selected.len() as u64 == limit {
                    break;
                }
                after = story.id;
                let placement = placements.remove(&story.id);
                if self.one_per_cluster
                    && placement.as_ref().is_some_and(|p| p.representative_story_id != story.id)
                {
                    continue;
                }
                // The index also lets through the stories whose words are not written yet (archived
                // before word search, until `morgue migrate`); the words decide.
                let words = &self.filter.words;
                if !words.is_empty()
                    && !store::search::has_words(
                        story.story.title.as_deref(),
                        story.searchable(),
                        words,
                    )
                {
                    continue;
                }
                selected.push(Selected { story, placement });
            }
        }
        Ok((selected, Some(after)))
    }

    /// The name of a source.
    pub(crate) fn source_name(&self, source_id: i64) -> &str {
        self.sources.get(&source_id).map_or("", String::as_str)
    }

    /// The row of a selected story, with its text if `with_text`.
    pub(crate) fn row<'a>(&'a self, selected: &'a Selected, with_text: bool) -> Row<'a> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_partial_file_sits_beside_the_output() {
        assert_eq!(partial_path(Path::new("out/x.csv")), PathBuf::from("out/.x.csv.partial"));
    }
}
