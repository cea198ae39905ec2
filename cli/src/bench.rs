//! `morgue bench`: measurements on generated data, for release builds.
//!
//! `morgue bench crawl` serves a generated test web (`testweb`) from this process on loopback,
//! adds its sites as sources of a fresh archive, and runs one full crawl pass over it with no
//! per-host interval: discovery, polls, article fetches, extraction and storage. It reports the
//! article pages fetched per second (over the whole pass and over the article phase alone) and
//! the process's peak resident memory, which includes the test web's own.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use store::{Archive, OpenMode};

use engine::crawl::{Engine, Mode};
use engine::progress::Counter;

use crate::args::CrawlArgs;
use crate::config::FileConfig;
use crate::progress::Status;

/// Runs `morgue bench crawl`.
pub(crate) async fn crawl(
    hosts: usize,
    articles: usize,
    concurrency: usize,
    seed: u64,
    archive_url: Option<String>,
) -> Result<()> {
    let mut config = testweb::Config::small(seed, hosts, articles, chrono::Utc::now());
    config.stale_articles = 0;
    config.spread_hours = 120;
    let web = testweb::TestWeb::start(config).context("cannot start the test web")?;
    let temp = tempfile_dir()?;
    let url = archive_url.unwrap_or_else(|| temp.join("bench.db").display().to_string());
    let archive = Archive::open(&url, OpenMode::Create).await?;
    archive.migrate().await?;
    crate::demo::add_sources(&archive, &web).await?;
    let args = CrawlArgs {
        concurrency: Some(concurrency),
        host_interval: Some("0s".to_owned()),
        allow_private_addresses: true,
        resolve: vec!["*.test=127.0.0.1".to_owned()],
        ..CrawlArgs::default()
    };
    let settings = crate::config::crawl_settings(&args, &FileConfig::default())?;
    let status = Status::new();
    let (_never, stop) = tokio::sync::watch::channel(false);
    let engine =
        Arc::new(Engine::new(archive.clone(), settings, status.counts(), Mode::Once, stop)?);
    let started = Instant::now();
    {
        let _ticker = status.show();
        engine.run().await?;
    }
    let total = started.elapsed();
    let phase = engine.article_phase_seconds();
    let fetched = status.get(Counter::Fetched);
    let stored = store::stories::count(&archive).await?;
    let expected = web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7)).len();
    archive.close().await?;
    let peak_mib = peak_rss_kib().map(|kib| kib as f64 / 1024.0);
    outln!("sites                {hosts}");
    outln!("articles reachable   {expected}");
    outln!("article pages        {fetched}");
    outln!("stories stored       {stored}");
    outln!("requests served      {}", web.requests().len());
    outln!("seconds              {:.1}", total.as_secs_f64());
    outln!("pages/s, whole pass  {:.1}", fetched as f64 / total.as_secs_f64());
    outln!("pages/s, fetch phase {:.1}", fetched as f64 / phase.max(0.001));
    match peak_mib {
        Some(mib) => outln!("peak memory (MiB)    {mib:.0}"),
        None => outln!("peak memory          unknown on this system"),
    }
    let _ = std::fs::remove_dir_all(&temp);
    Ok(())
}

/// A fresh directory under the system's temporary directory.
fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("morgue-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// The process's peak resident set size (Linux's `VmHWM`), in KiB.
pub(crate) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `morgue bench archive`: fills an archive with `stories` generated stories, then times
/// the research queries (module docs of [`archive_bench`]).
pub(crate) async fn archive(stories: u64, seed: u64, archive_url: Option<String>) -> Result<()> {
    archive_bench::run(stories, seed, archive_url).await
}

/// `morgue bench archive`: a generated archive of realistic shape (`engine::generate`), and the
/// research queries timed over it: each kind runs 20 times with different words, and the p50 and
/// p95 of its wall time are reported, with the index sizes.
mod archive_bench {
    use std::time::{Duration, Instant};

    use std::io::Write as _;

    use anyhow::Result;
    use chrono::{Days, NaiveDate};
    use engine::generate::{COLLECTIONS, Rng};
    use engine::selection::{CountsRequest, Selection, TopKind};
    use store::counts::Period;
    use store::stories::Filter;
    use store::{Archive, OpenMode};

    const RUNS: usize = 20;

    pub(super) async fn run(stories: u64, seed: u64, archive_url: Option<String>) -> Result<()> {
        let temp = super::tempfile_dir()?;
        let url = archive_url.unwrap_or_else(|| temp.join("bench.db").display().to_string());
        let archive = Archive::open(&url, OpenMode::Create).await?;
        archive.migrate().await?;
        let started = Instant::now();
        let generated = engine::generate::fill(&archive, stories, seed).await?;
        let words = &generated.words;
        let mut rng = engine::generate::Rng(seed ^ 0x5EED);
        outln!("archive              {}", archive.display_url());
        outln!("stories              {stories}");
        outln!("fill seconds         {:.0}", started.elapsed().as_secs_f64());
        report(&archive, words, &mut rng).await?;
        for (name, bytes) in archive.story_index_sizes().await? {
            outln!("size {name:<40} {:>8.1} MiB", bytes as f64 / (1024.0 * 1024.0));
        }
        archive.close().await?;
        let _ = std::fs::remove_dir_all(&temp);
        Ok(())
    }

    /// Times `RUNS` runs of each kind of query and prints p50 and p95.
    async fn report(archive: &Archive, words: &[String], rng: &mut Rng) -> Result<()> {
        // Words of middling frequency (ranks 20 to 520): neither in every story nor in none.
        let word = |rng: &mut Rng| words[20 + rng.below(500)].clone();
        let day = |d: u64| NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or_default() + Days::new(d);
        let kinds = [
            "folded word query, 30 days",
            "phrase query",
            "boolean query with a field",
            "counts by day, a year",
            "top sources",
            "top words",
        ];
        for (k, kind) in kinds.into_iter().enumerate() {
            let mut times = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                let (a, b, c) = (word(rng), word(rng), word(rng));
                let start = day(rng.below(330) as u64);
                let t = Instant::now();
                match k {
                    0 => {
                        let filter = Filter {
                            from_day: Some(start),
                            to_day: Some(start + Days::new(30)),
                            ..Filter::default()
                        };
                        let selection =
                            Selection::new(archive, &[], &[], filter, Some(&a), true).await?;
                        selection.page(archive, 0, 50, 20_000).await?;
                    }
                    1 => {
                        // Two neighbours of a generated text: a phrase that occurs.
                        let phrase =
                            format!("\"{} {}\"", words[rng.below(50)], words[rng.below(50)]);
                        let selection = Selection::new(
                            archive,
                            &[],
                            &[],
                            Filter::default(),
                            Some(&phrase),
                            false,
                        )
                        .await?;
                        selection.page(archive, 0, 50, 20_000).await?;
                    }
                    2 => {
                        let query = format!(
                            "({a} OR {b}) -{c} collection:\"collection {}\"",
                            rng.below(COLLECTIONS)
                        );
                        let selection = Selection::new(
                            archive,
                            &[],
                            &[],
                            Filter::default(),
                            Some(&query),
                            false,
                        )
                        .await?;
                        selection.page(archive, 0, 50, 20_000).await?;
                    }
                    3 => {
                        let request = CountsRequest {
                            query: Some(a),
                            period: Some(Period::Day),
                            ..CountsRequest::default()
                        };
                        engine::selection::counts(archive, &request).await?;
                    }
                    4 => {
                        let request = CountsRequest { query: Some(a), ..CountsRequest::default() };
                        engine::selection::top(archive, &request, TopKind::Sources, 20).await?;
                    }
                    _ => {
                        let request = CountsRequest { query: Some(a), ..CountsRequest::default() };
                        engine::selection::top(archive, &request, TopKind::Words, 20).await?;
                    }
                }
                times.push(t.elapsed());
            }
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            outln!(
                "{kind:<28} p50 {:>8.1} ms  p95 {:>8.1} ms",
                ms(times[RUNS / 2]),
                ms(times[(RUNS * 95).div_ceil(100) - 1])
            );
        }
        Ok(())
    }
}
