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

/// `morgue bench archive`: a generated archive of realistic shape, and the research queries timed
/// over it.
///
/// The archive: 200 sources in 10 collections; stories over the 365 days of 2025, their words
/// drawn from a vocabulary of 20,000 made-up words with Zipf frequencies (so some words are in
/// most stories and most words in few), titles of 8 words and texts of 150, each text ending in
/// its source's boilerplate sentence (repeated by every story of the source); one story in five
/// is a copy of an earlier one (a wire story) carried by another source within two days, and
/// copies are clustered with their original. Then each kind of query runs 20 times with
/// different words and the p50 and p95 of its wall time are reported, with the index sizes.
mod archive_bench {
    use std::time::{Duration, Instant};

    use std::io::Write as _;

    use anyhow::Result;
    use chrono::{Days, NaiveDate};
    use engine::selection::{CountsRequest, Selection, TopKind};
    use store::clusters::Member;
    use store::counts::Period;
    use store::stories::{Filter, NewStory};
    use store::{Archive, OpenMode};

    const SOURCES: usize = 200;
    const COLLECTIONS: usize = 10;
    const VOCABULARY: usize = 20_000;
    const RUNS: usize = 20;

    /// A small deterministic generator (splitmix64).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    struct Words {
        words: Vec<String>,
        /// Cumulative Zipf weights.
        cumulative: Vec<f64>,
    }

    impl Words {
        fn new(rng: &mut Rng) -> Words {
            const SYLLABLES: [&str; 24] = [
                "ka", "lo", "mi", "ren", "sa", "to", "vi", "del", "mar", "no", "pe", "ri", "su",
                "tan", "go", "be", "lu", "ci", "dor", "fa", "ne", "os", "quin", "ya",
            ];
            let mut seen = std::collections::HashSet::new();
            let mut words = Vec::with_capacity(VOCABULARY);
            while words.len() < VOCABULARY {
                let n = 2 + rng.below(3);
                let word: String = (0..n).map(|_| SYLLABLES[rng.below(SYLLABLES.len())]).collect();
                if seen.insert(word.clone()) {
                    words.push(word);
                }
            }
            let mut total = 0.0;
            let cumulative = (0..VOCABULARY)
                .map(|rank| {
                    total += 1.0 / (rank as f64 + 1.0);
                    total
                })
                .collect();
            Words { words, cumulative }
        }

        fn pick(&self, rng: &mut Rng) -> &str {
            let total = self.cumulative[VOCABULARY - 1];
            let at = (rng.next() as f64 / u64::MAX as f64) * total;
            let rank = self.cumulative.partition_point(|&c| c < at).min(VOCABULARY - 1);
            &self.words[rank]
        }

        fn sentence(&self, rng: &mut Rng, n: usize) -> String {
            (0..n).map(|_| self.pick(rng)).collect::<Vec<_>>().join(" ")
        }
    }

    pub(super) async fn run(stories: u64, seed: u64, archive_url: Option<String>) -> Result<()> {
        let temp = super::tempfile_dir()?;
        let url = archive_url.unwrap_or_else(|| temp.join("bench.db").display().to_string());
        let archive = Archive::open(&url, OpenMode::Create).await?;
        archive.migrate().await?;
        let mut rng = Rng(seed);
        let words = Words::new(&mut rng);
        let started = Instant::now();
        fill(&archive, stories, &words, &mut rng).await?;
        outln!("archive              {}", archive.display_url());
        outln!("stories              {stories}");
        outln!("fill seconds         {:.0}", started.elapsed().as_secs_f64());
        report(&archive, &words, &mut rng).await?;
        for (name, bytes) in archive.story_index_sizes().await? {
            outln!("size {name:<40} {:>8.1} MiB", bytes as f64 / (1024.0 * 1024.0));
        }
        archive.close().await?;
        let _ = std::fs::remove_dir_all(&temp);
        Ok(())
    }

    async fn fill(archive: &Archive, stories: u64, words: &Words, rng: &mut Rng) -> Result<()> {
        let mut source_ids = Vec::new();
        for i in 0..SOURCES {
            let new = store::sources::NewSource {
                name: format!("source {i}"),
                homepage: format!("https://source{i}.example/"),
                canonical_domain: format!("source{i}.example"),
                timezone: "UTC".to_owned(),
            };
            source_ids.push(store::sources::add(archive, &new).await?.source().id);
        }
        for c in 0..COLLECTIONS {
            let collection = store::collections::add(archive, &format!("collection {c}")).await?;
            let members: Vec<i64> =
                source_ids.iter().copied().skip(c).step_by(COLLECTIONS).collect();
            store::collections::add_sources(archive, collection.id, &members).await?;
        }
        let first = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or_default();
        // Originals that copies may be made of: (id, title, text, day).
        let mut originals: Vec<(i64, String, String, NaiveDate)> = Vec::new();
        let mut clusters: std::collections::BTreeMap<i64, Vec<i64>> = Default::default();
        for i in 0..stories {
            let source = rng.below(SOURCES);
            let copy = !originals.is_empty() && rng.below(5) == 0;
            let (title, text, day) = if copy {
                let (_, title, text, day) =
                    &originals[originals.len() - 1 - rng.below(originals.len().min(500))];
                (title.clone(), text.clone(), *day + Days::new(rng.below(3) as u64))
            } else {
                let day = first + Days::new((i * 365 / stories.max(1)) as u64);
                let text = format!(
                    "{}. {}. Subscribe to source {source} for more news.",
                    words.sentence(rng, 75),
                    words.sentence(rng, 75)
                );
                (words.sentence(rng, 8), text, day)
            };
            let new = NewStory {
                source_id: source_ids[source],
                url: format!("https://source{source}.example/{i}"),
                lossy_url: format!("http://source{source}.example/{i}"),
                title: Some(title.clone()),
                text: text.clone(),
                language: Some("en".to_owned()),
                published_day: Some(day),
                extractor_version: "bench".to_owned(),
                ..NewStory::default()
            };
            let id = store::stories::insert(archive, &new).await?.story().id;
            if copy {
                let of = originals.iter().rev().find(|o| o.1 == title).map_or(id, |o| o.0);
                clusters.entry(of).or_default().push(id);
            } else {
                originals.push((id, title, text, day));
                if originals.len() > 5_000 {
                    originals.drain(..2_500);
                }
            }
            if (i + 1) % 100_000 == 0 {
                tracing::info!(stories = i + 1, "filling the archive");
            }
        }
        for (representative, copies) in clusters {
            let members: Vec<Member> = copies
                .into_iter()
                .map(|story_id| Member {
                    story_id,
                    relation: Some("duplicate".to_owned()),
                    score: Some(1.0),
                })
                .collect();
            store::clusters::create(archive, representative, &members).await?;
        }
        Ok(())
    }

    /// Times `RUNS` runs of each kind of query and prints p50 and p95.
    async fn report(archive: &Archive, words: &Words, rng: &mut Rng) -> Result<()> {
        // Words of middling frequency (ranks 20 to 520): neither in every story nor in none.
        let word = |rng: &mut Rng| words.words[20 + rng.below(500)].clone();
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
                        let phrase = format!(
                            "\"{} {}\"",
                            words.words[rng.below(50)],
                            words.words[rng.below(50)]
                        );
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
