//! `morgue stats`: the engine's collection health (`engine::stats`) as a table, CSV or JSON,
//! by source (the window's totals, flagged) or by day and source. The web's `/stats` page and
//! `/api/stats` render the same report.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Result;
use chrono::Utc;
use engine::stats::{Request, Stats};
use serde_json::{Value, json};
use store::Archive;

use crate::args::{CountsFormat, StatsArgs, StatsBy};

/// Prints the report `args` asks for.
pub(crate) async fn run(archive: &Archive, args: &StatsArgs, out: &mut impl Write) -> Result<()> {
    let request = Request {
        today: Utc::now().date_naive(),
        days: args.days,
        silent_after: args.silent_after,
    };
    let stats = engine::stats::stats(archive, &request).await?;
    match args.format {
        CountsFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &json(&stats))?;
            writeln!(out)?;
        }
        CountsFormat::Csv => {
            let mut writer = csv::Writer::from_writer(&mut *out);
            let (header, rows) = cells(&stats, args.by);
            writer.write_record(&header)?;
            for row in rows {
                writer.write_record(&row)?;
            }
            writer.flush()?;
        }
        CountsFormat::Table => {
            writeln!(
                out,
                "collection health, {} to {} (UTC){}",
                stats.from,
                stats.to,
                stats
                    .last_active
                    .map(|day| format!("; last active day {day}"))
                    .unwrap_or_else(|| "; nothing happened".to_owned())
            )?;
            let (header, rows) = cells(&stats, args.by);
            write_table(out, &header, &rows)?;
        }
    }
    Ok(())
}

/// `timeout 2, HTTP 503 1`.
pub(crate) fn failures(kinds: &BTreeMap<String, u64>) -> String {
    kinds.iter().map(|(kind, n)| format!("{kind} {n}")).collect::<Vec<_>>().join(", ")
}

/// The report's rows as text cells, with their header.
pub(crate) fn cells(stats: &Stats, by: StatsBy) -> (Vec<&'static str>, Vec<Vec<String>>) {
    match by {
        StatsBy::Source => (
            vec![
                "source",
                "feeds_polled",
                "pages_fetched",
                "failed",
                "failures",
                "stories_kept",
                "duplicates_found",
                "last_story",
                "flags",
            ],
            stats
                .sources
                .iter()
                .map(|s| {
                    vec![
                        s.source.clone(),
                        s.feeds_polled.to_string(),
                        s.pages_fetched.to_string(),
                        s.failures.values().sum::<u64>().to_string(),
                        failures(&s.failures),
                        s.stories_kept.to_string(),
                        s.duplicates_found.to_string(),
                        s.last_kept.map(|d| d.to_string()).unwrap_or_default(),
                        s.flags.iter().map(|f| f.describe()).collect::<Vec<_>>().join("; "),
                    ]
                })
                .collect(),
        ),
        StatsBy::Day => (
            vec![
                "day",
                "source",
                "feeds_polled",
                "pages_fetched",
                "failed",
                "failures",
                "stories_kept",
                "duplicates_found",
            ],
            stats
                .days
                .iter()
                .map(|d| {
                    vec![
                        d.day.to_string(),
                        d.source.clone(),
                        d.feeds_polled.to_string(),
                        d.pages_fetched.to_string(),
                        d.failures.values().sum::<u64>().to_string(),
                        failures(&d.failures),
                        d.stories_kept.to_string(),
                        d.duplicates_found.to_string(),
                    ]
                })
                .collect(),
        ),
    }
}

fn write_table(out: &mut impl Write, header: &[&str], rows: &[Vec<String>]) -> Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| {
                let pad = width.saturating_sub(cell.chars().count());
                format!("{cell}{}", " ".repeat(pad))
            })
            .collect();
        padded.join("  ").trim_end().to_owned()
    };
    writeln!(out, "{}", line(header.to_vec()))?;
    for row in rows {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

/// The report as the JSON document `morgue stats --format json` and `/api/stats` answer.
pub(crate) fn json(stats: &Stats) -> Value {
    let flag = |f: &engine::stats::Flag| match f {
        engine::stats::Flag::Silent { last_kept, days } => json!({
            "flag": "silent", "last_kept": last_kept.to_string(), "days": days,
            "description": f.describe(),
        }),
        engine::stats::Flag::FailuresJumped { day, failures, rate, before } => json!({
            "flag": "failures_jumped", "day": day.to_string(), "failures": failures,
            "rate": rate, "before": before, "description": f.describe(),
        }),
    };
    json!({
        "from": stats.from.to_string(),
        "to": stats.to.to_string(),
        "last_active": stats.last_active.map(|d| d.to_string()),
        "sources": stats.sources.iter().map(|s| json!({
            "source": s.source,
            "feeds_polled": s.feeds_polled,
            "pages_fetched": s.pages_fetched,
            "failures": s.failures,
            "stories_kept": s.stories_kept,
            "duplicates_found": s.duplicates_found,
            "last_kept": s.last_kept.map(|d| d.to_string()),
            "flags": s.flags.iter().map(flag).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "days": stats.days.iter().map(|d| json!({
            "day": d.day.to_string(),
            "source": d.source,
            "feeds_polled": d.feeds_polled,
            "pages_fetched": d.pages_fetched,
            "failures": d.failures,
            "stories_kept": d.stories_kept,
            "duplicates_found": d.duplicates_found,
        })).collect::<Vec<_>>(),
    })
}
