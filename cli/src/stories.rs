//! `morgue stories`: the engine's selection of stories ([`engine::selection`]) exported as CSV,
//! JSON lines or WARC ([`engine::warc`]), to standard output or to a file.
//!
//! A file given with `--output` is written beside its final name and renamed into place at the
//! end: an interrupted export leaves no half-written file behind. Beside it goes a sidecar,
//! `FILE.meta.json`, so that the export can be regenerated and its provenance told: the query
//! and filters, the format, the rows written, when it was taken, how long it took, the morgue
//! version and the archive (password masked).

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use engine::selection::{self, Export, Format, Selection};
use engine::warc;
use store::Archive;
use store::stories::Filter;

use crate::args::{ExportFormat, StoriesArgs};
use crate::dedup::is_dash;

/// Writes the stories `args` selects; returns how many rows were written, `None` when the reader
/// of standard output stopped reading (`| head`), which is not an error.
pub(crate) async fn run(archive: &Archive, args: &StoriesArgs) -> Result<Option<u64>> {
    let selection = select(
        archive,
        &args.sources,
        &args.collections,
        Filter {
            from_day: args.since,
            to_day: args.until,
            language: args.language.clone(),
            ..Filter::default()
        },
        args.query.as_deref().or(args.search.as_deref()),
        args.one_per_cluster,
    )
    .await?;
    let output = args.output.as_deref().filter(|path| !is_dash(path));
    let gzip = output.is_some_and(|path| path.extension().is_some_and(|ext| ext == "gz"));
    match output {
        None => {
            // Standard output is line-buffered: one write per row without a buffer of its own.
            let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let result = match write(archive, &selection, args, gzip, &mut out).await {
                Ok(written) => out.flush().map(|()| written).context("cannot write the output"),
                Err(err) => Err(err.into()),
            };
            match result {
                Err(err) if is_broken_pipe(&err) => Ok(None),
                result => result.map(Some),
            }
        }
        Some(path) => {
            let taken_at = chrono::Utc::now();
            let started = std::time::Instant::now();
            let partial = partial_path(path);
            let file = File::create(&partial)
                .with_context(|| format!("cannot create {}", partial.display()))?;
            let mut out = BufWriter::new(file);
            let written = match write(archive, &selection, args, gzip, &mut out).await {
                Ok(written) => written,
                Err(err) => {
                    drop(out);
                    let _ = std::fs::remove_file(&partial);
                    return Err(err.into());
                }
            };
            let file = out.into_inner().context("cannot write the output")?;
            file.sync_all().context("cannot write the output")?;
            std::fs::rename(&partial, path)
                .with_context(|| format!("cannot move the output to {}", path.display()))?;
            let meta = sidecar(archive, args, written, taken_at, started.elapsed());
            write_sidecar(path, &meta)?;
            Ok(Some(written))
        }
    }
}

/// Writes the selection in the format `args` asks for; returns how many stories were written.
async fn write(
    archive: &Archive,
    selection: &Selection,
    args: &StoriesArgs,
    gzip: bool,
    out: &mut impl Write,
) -> engine::Result<u64> {
    let format = match args.format {
        ExportFormat::Csv => Format::Csv,
        ExportFormat::Jsonl => Format::Jsonl,
        ExportFormat::Warc => {
            let info = warc::Info {
                software: format!("morgue {}", env!("CARGO_PKG_VERSION")),
                fields: selection_fields(args),
                taken_at: chrono::Utc::now(),
            };
            let written = warc::export(archive, selection, &info, args.limit, gzip, out).await?;
            if written.skipped > 0 {
                tracing::warn!(
                    skipped = written.skipped,
                    "stories without an archived response were left out of the WARC file"
                );
            }
            return Ok(written.stories);
        }
    };
    let export = Export { format, text: args.text, limit: args.limit };
    selection::export(archive, selection, export, out).await
}

/// What selected the stories, as the `name: value` fields an export carries to be regenerated.
fn selection_fields(args: &StoriesArgs) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    if let Some(query) = args.query.as_ref().or(args.search.as_ref()) {
        fields.push(("query".to_owned(), query.clone()));
    }
    for source in &args.sources {
        fields.push(("source".to_owned(), source.clone()));
    }
    for collection in &args.collections {
        fields.push(("collection".to_owned(), collection.clone()));
    }
    if let Some(day) = args.since {
        fields.push(("since".to_owned(), day.to_string()));
    }
    if let Some(day) = args.until {
        fields.push(("until".to_owned(), day.to_string()));
    }
    if let Some(language) = &args.language {
        fields.push(("language".to_owned(), language.clone()));
    }
    if args.one_per_cluster {
        fields.push(("one-per-cluster".to_owned(), "true".to_owned()));
    }
    if let Some(limit) = args.limit {
        fields.push(("limit".to_owned(), limit.to_string()));
    }
    fields
}

/// What an export to a file says of itself in its sidecar.
fn sidecar(
    archive: &Archive,
    args: &StoriesArgs,
    rows: u64,
    taken_at: chrono::DateTime<chrono::Utc>,
    took: std::time::Duration,
) -> serde_json::Value {
    let fields = selection_fields(args);
    let all = |name: &str| -> Vec<&str> {
        fields.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str()).collect()
    };
    let one = |name: &str| all(name).first().map(|value| (*value).to_owned());
    let format = match args.format {
        ExportFormat::Csv => "csv",
        ExportFormat::Jsonl => "jsonl",
        ExportFormat::Warc => "warc",
    };
    serde_json::json!({
        "query": one("query"),
        "filters": {
            "sources": all("source"),
            "collections": all("collection"),
            "since": one("since"),
            "until": one("until"),
            "language": one("language"),
            "one_per_cluster": args.one_per_cluster,
            "limit": args.limit,
        },
        "format": format,
        "text": args.text,
        "rows": rows,
        "taken_at": taken_at.to_rfc3339(),
        "seconds": took.as_secs_f64(),
        "morgue_version": env!("CARGO_PKG_VERSION"),
        "archive": archive.display_url(),
        "command": command_line(args, format),
    })
}

/// The `morgue stories` arguments that export the same stories again (to standard output).
fn command_line(args: &StoriesArgs, format: &str) -> Vec<String> {
    let mut line = vec!["morgue".to_owned(), "stories".to_owned()];
    let mut query = None;
    for (name, value) in selection_fields(args) {
        match name.as_str() {
            "query" => query = Some(value),
            "one-per-cluster" => line.push("--one-per-cluster".to_owned()),
            name => line.extend([format!("--{name}"), value]),
        }
    }
    line.extend(["--format".to_owned(), format.to_owned()]);
    if args.text {
        line.push("--text".to_owned());
    }
    // Last, after `--`, so that a query starting with `-` is read as the query.
    if let Some(query) = query {
        line.extend(["--".to_owned(), query]);
    }
    line
}

/// Writes `FILE.meta.json` beside `path`, renamed into place like the export.
fn write_sidecar(path: &Path, meta: &serde_json::Value) -> Result<()> {
    let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    let sidecar = path.with_file_name(format!("{name}.meta.json"));
    let partial = partial_path(&sidecar);
    let mut text = serde_json::to_string_pretty(meta).context("cannot write the sidecar")?;
    text.push('\n');
    std::fs::write(&partial, text)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &sidecar)
        .with_context(|| format!("cannot move the sidecar to {}", sidecar.display()))
}

/// The engine's selection, an unknown source name said with where to look.
pub(crate) async fn select(
    archive: &Archive,
    sources: &[String],
    collections: &[String],
    filter: Filter,
    search: Option<&str>,
    one_per_cluster: bool,
) -> Result<Selection> {
    match Selection::new(archive, sources, collections, filter, search, one_per_cluster).await {
        Ok(selection) => Ok(selection),
        Err(err) => Err(explained(err)),
    }
}

/// An engine error, with where to look when it names something the archive does not have.
pub(crate) fn explained(err: engine::Error) -> anyhow::Error {
    match err {
        engine::Error::UnknownSource { name } => {
            anyhow::anyhow!("no source named {name:?} (see `morgue sources list`)")
        }
        engine::Error::UnknownName { .. } => {
            anyhow::anyhow!("{err} (see `morgue sources list` and `morgue collections list`)")
        }
        err => err.into(),
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            || cause.downcast_ref::<engine::Error>().is_some_and(engine::Error::is_broken_pipe)
    })
}

/// Where the output is written before it is complete: beside `path`, hidden.
fn partial_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    path.with_file_name(format!(".{name}.partial"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_partial_file_sits_beside_the_output() {
        assert_eq!(partial_path(Path::new("out/x.csv")), PathBuf::from("out/.x.csv.partial"));
    }
}
