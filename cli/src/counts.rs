//! `morgue counts` and `morgue top`: the engine's counts over time and top lists as a table, CSV
//! or JSON, and counts as a chart.

use std::io::Write;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use store::Archive;
use store::counts::{Period, PeriodCount};

use crate::args::{CountPeriod, CountsArgs, CountsFormat, ListFormat, TopWhat};
use crate::sources::write_list;
use engine::selection::TopKind;

/// Counts what `args` asks for and writes it (and the chart, if asked).
pub(crate) async fn run(archive: &Archive, args: &CountsArgs, out: &mut impl Write) -> Result<()> {
    if let Some(path) = &args.chart
        && !path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("svg"))
    {
        bail!("{}: charts are drawn as SVG only (name the file .svg)", path.display());
    }
    let period = match args.by {
        CountPeriod::Day => Period::Day,
        CountPeriod::Week => Period::Week,
        CountPeriod::Month => Period::Month,
    };
    let request = request(args, period);
    let rows =
        engine::selection::counts(archive, &request).await.map_err(crate::stories::explained)?;
    match args.format {
        CountsFormat::Json => writeln!(out, "{}", json(&rows))?,
        CountsFormat::Table | CountsFormat::Csv => {
            let cells: Vec<[String; 7]> = rows.iter().map(cells).collect();
            let format =
                if args.format == CountsFormat::Csv { ListFormat::Csv } else { ListFormat::Table };
            write_list(out, format, &HEADER, &cells)?;
        }
    }
    if let Some(path) = &args.chart {
        let title = args.query.as_deref().unwrap_or("all stories");
        std::fs::write(path, crate::chart::svg(title, &rows))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn request(args: &CountsArgs, period: Period) -> engine::selection::CountsRequest {
    engine::selection::CountsRequest {
        sources: args.sources.clone(),
        collections: args.collections.clone(),
        from_day: args.since,
        to_day: args.until,
        query: args.query.clone(),
        period: Some(period),
    }
}

/// `morgue top sources|words`: name, stories, clusters.
pub(crate) async fn top(
    archive: &Archive,
    kind: TopWhat,
    args: &CountsArgs,
    limit: usize,
    out: &mut impl Write,
) -> Result<()> {
    if args.chart.is_some() {
        bail!("--chart draws counts over time; `morgue top` has none");
    }
    let kind = match kind {
        TopWhat::Sources => TopKind::Sources,
        TopWhat::Words => TopKind::Words,
    };
    let entries = engine::selection::top(archive, &request(args, Period::Day), kind, limit)
        .await
        .map_err(crate::stories::explained)?;
    match args.format {
        CountsFormat::Json => writeln!(out, "{}", json!({ "top": entries }))?,
        CountsFormat::Table | CountsFormat::Csv => {
            let cells: Vec<[String; 3]> = entries
                .iter()
                .map(|e| [e.name.clone(), e.stories.to_string(), e.clusters.to_string()])
                .collect();
            let format =
                if args.format == CountsFormat::Csv { ListFormat::Csv } else { ListFormat::Table };
            write_list(out, format, &["name", "stories", "clusters"], &cells)?;
        }
    }
    Ok(())
}

const HEADER: [&str; 7] = [
    "period",
    "stories",
    "clusters",
    "all_stories",
    "all_clusters",
    "stories_share",
    "clusters_share",
];

/// `part / whole`, 0 when there is no whole.
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

fn cells(row: &PeriodCount) -> [String; 7] {
    [
        row.start.to_string(),
        row.stories.to_string(),
        row.clusters.to_string(),
        row.all_stories.to_string(),
        row.all_clusters.to_string(),
        format!("{:.4}", share(row.stories, row.all_stories)),
        format!("{:.4}", share(row.clusters, row.all_clusters)),
    ]
}

/// The rows as the JSON document `morgue counts --format json` and `/api/counts` answer.
pub(crate) fn json(rows: &[PeriodCount]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            json!({
                "period": row.start.to_string(),
                "stories": row.stories,
                "clusters": row.clusters,
                "all_stories": row.all_stories,
                "all_clusters": row.all_clusters,
                "stories_share": share(row.stories, row.all_stories),
                "clusters_share": share(row.clusters, row.all_clusters),
            })
        })
        .collect();
    json!({ "counts": rows })
}
