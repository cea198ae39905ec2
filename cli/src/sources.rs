//! `morgue sources add|import|list`.
//!
//! `import` reads two kinds of CSV, told apart by their header:
//! - ours: `name`, `homepage`, and optionally `timezone`, `feeds` (URLs separated by spaces) and
//!   `collections` (names separated by `;`);
//! - a source list exported from Media Cloud's directory (a collection's sources, or a search's):
//!   no `homepage` but `url` and `name`. The homepage is `url` (`http://` is put in front when it
//!   has no scheme), the name is `name`; every other column (`id`, `pub_country`, `pub_state`,
//!   `primary_language`, `media_type`, …) is ignored, and the timezone is UTC. The file does not
//!   name its collection: give it with `--collection`.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use store::Archive;
use store::feeds::{FeedKind, NewFeed};
use store::sources::{Added, NewSource};

use crate::args::ListFormat;

/// A source as given by a person or a CSV row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SourceInput {
    pub(crate) name: String,
    pub(crate) homepage: String,
    pub(crate) timezone: String,
    pub(crate) feeds: Vec<String>,
    /// The collections to put it in, by name (created if missing).
    pub(crate) collections: Vec<String>,
}

/// What adding a source did, for the message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AddOutcome {
    New { id: i64, feeds: usize },
    Existing { id: i64, feeds: usize },
}

/// Validates and adds one source and its manual feeds.
pub(crate) async fn add(archive: &Archive, input: &SourceInput) -> Result<AddOutcome> {
    let name = input.name.trim();
    if name.is_empty() {
        bail!("the source name is empty");
    }
    let homepage = url::Url::parse(input.homepage.trim())
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
        .with_context(|| format!("{:?} is not an http(s) homepage URL", input.homepage))?;
    let timezone = input.timezone.trim();
    let timezone = if timezone.is_empty() { "UTC" } else { timezone };
    if timezone.parse::<chrono_tz::Tz>().is_err() {
        bail!("unknown timezone {timezone:?} (use an IANA name such as Europe/Madrid)");
    }
    let canonical_domain = normalizer::canonical_domain(homepage.as_str())
        .or_else(|| homepage.host_str().map(str::to_owned))
        .unwrap_or_default();
    let new = NewSource {
        name: name.to_owned(),
        homepage: homepage.to_string(),
        canonical_domain,
        timezone: timezone.to_owned(),
    };
    let added = store::sources::add(archive, &new).await?;
    let source = added.source();
    let mut feeds = 0;
    for feed in &input.feeds {
        let url = url::Url::parse(feed.trim())
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .with_context(|| format!("{feed:?} is not an http(s) feed URL"))?;
        let Some(url_key) = normalizer::feed_url_key(url.as_str()) else {
            bail!("{feed:?} is not a usable feed URL");
        };
        // What it really is shows at its first poll; the kind is corrected then.
        let kind = if url.path().to_ascii_lowercase().contains("sitemap") {
            FeedKind::Sitemap
        } else {
            FeedKind::Rss
        };
        let new_feed = NewFeed {
            source_id: source.id,
            url: url.to_string(),
            url_key,
            kind,
            title: None,
            discovered_via: "manual".to_owned(),
            depth: 0,
            update_hint_secs: None,
            poll_interval_secs: crawler::schedule::DEFAULT_INTERVAL.num_seconds(),
            next_poll_at: None,
        };
        if store::feeds::add(archive, &new_feed).await?.1 {
            feeds += 1;
        }
    }
    for name in input.collections.iter().map(|name| name.trim()).filter(|name| !name.is_empty()) {
        let collection = store::collections::add(archive, name).await?;
        store::collections::add_sources(archive, collection.id, &[source.id]).await?;
    }
    Ok(match added {
        Added::New(source) => AddOutcome::New { id: source.id, feeds },
        Added::Existing(source) => AddOutcome::Existing { id: source.id, feeds },
    })
}

/// Imports a CSV file (or standard input for `-`), ours or Media Cloud's (module docs), putting
/// every source also in `collection` if given. Good rows are added even when others are
/// rejected; each rejection is reported with its line, and then the whole import fails.
pub(crate) async fn import(
    archive: &Archive,
    path: &Path,
    collection: Option<&str>,
    out: &mut impl Write,
) -> Result<()> {
    let reader: Box<dyn std::io::Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )
    };
    let mut csv = csv::ReaderBuilder::new().flexible(true).trim(csv::Trim::All).from_reader(reader);
    let headers =
        csv.headers().with_context(|| format!("cannot read the header of {}", path.display()))?;
    let column = |name: &str| {
        headers
            .iter()
            .position(|header| header.trim_start_matches('\u{feff}').eq_ignore_ascii_case(name))
    };
    // Media Cloud's directory exports have `url` where ours have `homepage`.
    let media_cloud = column("homepage").is_none() && column("url").is_some();
    let (Some(name_at), Some(homepage_at)) =
        (column("name"), column("homepage").or_else(|| column("url")))
    else {
        bail!(
            "{}: the header must name the columns `name` and `homepage` (and optionally `timezone`, `feeds` and `collections`), or be a Media Cloud source list (`url` and `name`)",
            path.display()
        );
    };
    let (timezone_at, feeds_at) = (column("timezone"), column("feeds"));
    let collections_at = column("collections");
    let (mut new, mut existing, mut rejected) = (0, 0, 0);
    for (i, record) in csv.records().enumerate() {
        let line =
            record.as_ref().ok().and_then(|r| r.position()).map_or(i as u64 + 2, |p| p.line());
        let input = match record {
            Ok(record) => SourceInput {
                name: record.get(name_at).unwrap_or_default().to_owned(),
                homepage: homepage(record.get(homepage_at).unwrap_or_default(), media_cloud),
                timezone: timezone_at.and_then(|at| record.get(at)).unwrap_or_default().to_owned(),
                feeds: feeds_at
                    .and_then(|at| record.get(at))
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
                collections: collections_at
                    .and_then(|at| record.get(at))
                    .unwrap_or_default()
                    .split(';')
                    .chain(collection)
                    .map(str::to_owned)
                    .collect(),
            },
            Err(err) => {
                rejected += 1;
                tracing::error!("{}: line {line}: {err}", path.display());
                continue;
            }
        };
        match add(archive, &input).await {
            Ok(AddOutcome::New { .. }) => new += 1,
            Ok(AddOutcome::Existing { .. }) => existing += 1,
            Err(err) => {
                rejected += 1;
                tracing::error!("{}: line {line}: {err:#}", path.display());
            }
        }
    }
    let _ = writeln!(
        out,
        "imported {new} new sources, {existing} already present, {rejected} rejected"
    );
    if rejected > 0 {
        bail!("{rejected} rows of {} were rejected (see the messages above)", path.display());
    }
    Ok(())
}

/// A homepage as a row gives it: Media Cloud's `url` may lack its scheme (`example.com/news`).
fn homepage(cell: &str, media_cloud: bool) -> String {
    let cell = cell.trim();
    if media_cloud && !cell.is_empty() && !cell.contains("://") {
        format!("http://{cell}")
    } else {
        cell.to_owned()
    }
}

/// Prints every source with its feed count and discovery state.
pub(crate) async fn list(
    archive: &Archive,
    format: ListFormat,
    out: &mut impl Write,
) -> Result<()> {
    let sources = store::sources::list(archive).await?;
    let feeds = store::feeds::list(archive).await?;
    let rows: Vec<[String; 6]> = sources
        .iter()
        .map(|source| {
            let count = feeds.iter().filter(|feed| feed.source_id == source.id).count();
            [
                source.id.to_string(),
                source.name.clone(),
                source.homepage.clone(),
                source.timezone.clone(),
                count.to_string(),
                source.discovered_at.map_or_else(
                    || "never".to_owned(),
                    |at| at.format("%Y-%m-%d %H:%M").to_string(),
                ),
            ]
        })
        .collect();
    let header = ["id", "name", "homepage", "timezone", "feeds", "discovered"];
    write_list(out, format, &header, &rows)
}

/// Prints rows under a header: aligned columns, or CSV.
pub(crate) fn write_list<const N: usize>(
    out: &mut impl Write,
    format: ListFormat,
    header: &[&str; N],
    rows: &[[String; N]],
) -> Result<()> {
    match format {
        ListFormat::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            writer.write_record(header)?;
            for row in rows {
                writer.write_record(row)?;
            }
            writer.flush()?;
        }
        ListFormat::Table => {
            let mut widths = header.map(str::len);
            for row in rows {
                for (width, cell) in widths.iter_mut().zip(row) {
                    *width = (*width).max(cell.chars().count());
                }
            }
            let mut print = |cells: [&str; N]| {
                let line: Vec<String> = cells
                    .iter()
                    .zip(widths)
                    .map(|(cell, width)| format!("{cell:<width$}"))
                    .collect();
                writeln!(out, "{}", line.join("  ").trim_end())
            };
            print(*header)?;
            for row in rows {
                print(row.each_ref().map(String::as_str))?;
            }
        }
    }
    Ok(())
}
