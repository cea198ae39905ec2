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
