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
    peak_rss_kib_of("self")
}

/// The peak resident set size of process `pid` (a number, or `self`), in KiB.
pub(crate) fn peak_rss_kib_of(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) use archive_bench::load_average;

/// Runs `morgue bench archive`: fills an archive with `stories` generated stories, then times
/// the research queries (module docs of [`archive_bench`]).
pub(crate) async fn archive(
    stories: u64,
    seed: u64,
    archive_url: Option<String>,
    reuse: bool,
) -> Result<()> {
    archive_bench::run(stories, seed, archive_url, reuse).await
}

/// `morgue bench archive`: a generated archive of realistic shape (`engine::generate`), and the
/// research queries timed over it: each kind runs 20 times with different words, and the p50 and
/// p95 of its wall time are reported, with the index sizes. Every story's facts are kept in memory
/// as the server keeps them (`store::facts`), read before the clock starts, and their counts and
/// top sources compared with SQL's at the end.
mod archive_bench {
    use std::time::{Duration, Instant};

    use std::io::Write as _;

    use anyhow::{Result, bail};
    use chrono::{Days, NaiveDate};
    use engine::generate::{COLLECTIONS, Rng};
    use engine::selection::{CountsRequest, Selection, TopKind};
    use store::counts::Period;
    use store::stories::Filter;
    use store::{Archive, OpenMode};

    const RUNS: usize = 20;

    pub(super) async fn run(
        stories: u64,
        seed: u64,
        archive_url: Option<String>,
        reuse: bool,
    ) -> Result<()> {
        let temp = super::tempfile_dir()?;
        let result = measure(stories, seed, archive_url, reuse, &temp).await;
        let _ = std::fs::remove_dir_all(&temp);
        result
    }

    async fn measure(
        stories: u64,
        seed: u64,
        archive_url: Option<String>,
        reuse: bool,
        temp: &std::path::Path,
    ) -> Result<()> {
        let url = archive_url.unwrap_or_else(|| temp.join("bench.db").display().to_string());
        let archive = Archive::open(&url, OpenMode::Create).await?;
        archive.migrate().await?;
        let held = store::stories::count(&archive).await?;
        let started = Instant::now();
        let words = match (held, reuse) {
            (0, false) => {
                // PostgreSQL's GIN index is built once after the load, not updated per story.
                let dropped = store::stories::drop_bulk_indexes(&archive).await?;
                let filled = engine::generate::fill(&archive, stories, seed).await;
                store::stories::restore_indexes(&archive, &dropped).await?;
                let words = filled?.words;
                // Statistics for the planners (and PostgreSQL's visibility map), as after any
                // bulk load.
                let analyze = match archive.backend() {
                    store::Backend::Postgres => "VACUUM ANALYZE",
                    store::Backend::Sqlite => "ANALYZE",
                };
                archive.execute_unprepared(analyze).await?;
                words
            }
            (held, true) if held == stories => engine::generate::vocabulary(seed),
            (held, true) => bail!(
                "the archive at {} holds {held} stories, not the {stories} of `--stories`: \
                 `--reuse` measures an archive an earlier run filled with the same `--stories` \
                 and `--seed`",
                archive.display_url()
            ),
            (held, false) => bail!(
                "the archive at {} holds {held} stories already: name an empty or new database, \
                 or add `--reuse` to measure it as it is",
                archive.display_url()
            ),
        };
        // As the server does: every story's facts kept in memory (`store::facts`), read before
        // the queries are timed.
        archive.keep_facts(true);
        let loading = Instant::now();
        let kept = archive.load_facts().await?;
        let loaded = loading.elapsed();
        let mut rng = engine::generate::Rng(seed ^ 0x5EED);
        outln!("archive              {}", archive.display_url());
        outln!("stories              {stories}");
        if reuse {
            outln!("fill seconds         (reused)");
        } else {
            outln!("fill seconds         {:.0}", started.elapsed().as_secs_f64());
        }
        outln!(
            "facts kept          {:>8.1} ms to read those of {kept} story ids",
            loaded.as_secs_f64() * 1000.0
        );
        report(&archive, &words, &mut rng).await?;
        if let Some(load) = load_average() {
            outln!("load average         {load} (1, 5, 15 min; {} cores)", cores());
        }
        for (name, bytes) in archive.story_index_sizes().await? {
            outln!("size {name:<40} {:>8.1} MiB", bytes as f64 / (1024.0 * 1024.0));
        }
        archive.close().await?;
        Ok(())
    }

    fn cores() -> usize {
        std::thread::available_parallelism().map_or(1, usize::from)
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
            let mut cpu = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                let (a, b, c) = (word(rng), word(rng), word(rng));
                let start = day(rng.below(330) as u64);
                let t = Instant::now();
                let on_cpu = process_cpu();
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
                if let (Some(before), Some(after)) = (on_cpu, process_cpu()) {
                    cpu.push(after.saturating_sub(before));
                }
            }
            times.sort();
            cpu.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            let p95 = (RUNS * 95).div_ceil(100) - 1;
            let on_cpu = match cpu.len() {
                RUNS => format!(
                    "  (this process on a CPU: p50 {:>7.1} ms  p95 {:>7.1} ms)",
                    ms(cpu[RUNS / 2]),
                    ms(cpu[p95])
                ),
                _ => String::new(),
            };
            outln!(
                "{kind:<28} p50 {:>8.1} ms  p95 {:>8.1} ms{on_cpu}",
                ms(times[RUNS / 2]),
                ms(times[p95])
            );
        }
        sample_accuracy(archive, words, rng).await?;
        facts_against_sql(archive, words, rng).await
    }

    /// Queries whose counts and top sources are compared with and without the kept facts.
    const FACTS_CHECKS: usize = 10;

    /// Counts by day and by week and top sources of a few words (ranks 20 to 520, as timed), from
    /// the facts kept in memory and in SQL: how many were equal.
    async fn facts_against_sql(archive: &Archive, words: &[String], rng: &mut Rng) -> Result<()> {
        let mut equal = 0;
        let mut matches = 0;
        for _ in 0..FACTS_CHECKS {
            let request = CountsRequest {
                query: Some(words[20 + rng.below(500)].clone()),
                period: Some(Period::Day),
                ..CountsRequest::default()
            };
            let weeks = CountsRequest { period: Some(Period::Week), ..request.clone() };
            let mut answers = Vec::new();
            for keep in [true, false] {
                archive.keep_facts(keep);
                answers.push((
                    engine::selection::counts(archive, &request).await?,
                    engine::selection::counts(archive, &weeks).await?,
                    engine::selection::top(archive, &request, TopKind::Sources, 20).await?,
                ));
            }
            archive.keep_facts(true);
            matches += answers[0].0.iter().map(|row| row.stories).sum::<u64>();
            if answers[0] == answers[1] {
                equal += 1;
            }
        }
        outln!(
            "facts against SQL    {equal} of {FACTS_CHECKS} queries equal (counts by day and week, top sources; {matches} matches in all)"
        );
        if equal != FACTS_CHECKS {
            bail!("the kept facts and SQL counted differently");
        }
        Ok(())
    }

    /// Queries whose top words are compared with and without the sample.
    const SAMPLE_CHECKS: usize = 5;

    /// What counting top words over a sample of the newest matches (`store::top::WORD_SAMPLE`)
    /// costs in accuracy: for a few words (ranks 100 to 520, in 1% to 14% of the generated
    /// stories), the top 20 words of the sample against those of all matching stories: how many
    /// of the 20 both lists have, and the largest difference of a listed word's share of the
    /// stories (its stories over the stories counted) between the two, in percentage points.
    async fn sample_accuracy(archive: &Archive, words: &[String], rng: &mut Rng) -> Result<()> {
        let mut common = Vec::new();
        let mut worst: f64 = 0.0;
        for _ in 0..SAMPLE_CHECKS {
            let word = &words[100 + rng.below(420)];
            let query = store::query::Query::parse(word)?;
            let filter = Filter {
                query: Some(store::matching::Matcher::new(archive, &query).await?),
                ..Filter::default()
            };
            let sampled = store::top::words(archive, &filter, 20).await?;
            let every = store::top::words_of(archive, &filter, usize::MAX, u64::MAX).await?;
            let all = &every[..every.len().min(20)];
            // The stories each list counted: its first word's (the query's own word, in every
            // matching story).
            let (Some(n_sampled), Some(n_all)) = (sampled.first(), all.first()) else { continue };
            let share = |stories: u64, of: u64| stories as f64 / of.max(1) as f64;
            common.push(sampled.iter().filter(|s| all.iter().any(|a| a.key == s.key)).count());
            for entry in &sampled {
                let exact = every.iter().find(|a| a.key == entry.key).map_or(0, |a| a.stories);
                let difference =
                    (share(entry.stories, n_sampled.stories) - share(exact, n_all.stories)).abs();
                worst = worst.max(difference * 100.0);
            }
        }
        if !common.is_empty() {
            outln!(
                "top words, sample of {} against all matches ({} queries): top 20 in common min {} mean {:.1}; largest share difference {:.2} points",
                store::top::WORD_SAMPLE,
                common.len(),
                common.iter().min().copied().unwrap_or(0),
                common.iter().sum::<usize>() as f64 / common.len() as f64,
                worst
            );
        }
        Ok(())
    }

    /// The time this process's threads have spent on a CPU (Linux: the first field of each
    /// thread's `schedstat`, in ns): unlike wall time, not inflated by other processes taking
    /// the cores, but blind to the work of a database server in another process.
    fn process_cpu() -> Option<Duration> {
        let mut total = 0u64;
        for task in std::fs::read_dir("/proc/self/task").ok()? {
            let path = task.ok()?.path().join("schedstat");
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            total += text.split_whitespace().next()?.parse::<u64>().ok()?;
        }
        Some(Duration::from_nanos(total))
    }

    /// The system's load averages over 1, 5 and 15 minutes (Linux), as written.
    pub(crate) fn load_average() -> Option<String> {
        let text = std::fs::read_to_string("/proc/loadavg").ok()?;
        Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
    }
}
