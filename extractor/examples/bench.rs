//! Throughput benchmark: pages per second on one core and on all cores over a WCXB-style directory.
//!
//! Usage: `cargo run --release -p extractor --example bench -- <dir> [--rounds N] [--parse-only]`
//!
//! All pages (`html/*.html.gz`) are decompressed into memory first, so only extraction is timed.
//! Each round runs every page once; the best round is reported (the machine is shared).
//! `--parse-only` times the `html5ever` parse alone, to show how much of the cost is parsing.
//! The all-cores figure splits the pages over `std::thread::available_parallelism()` threads.
//! On Linux the one-core loop is also timed in CPU seconds of its thread, which a machine shared
//! with other work disturbs much less than the wall clock.

#![allow(clippy::print_stdout)]

use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir: Option<PathBuf> = None;
    let mut rounds = 3usize;
    let mut parse_only = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = args.next().and_then(|r| r.parse().ok()).expect("--rounds needs a number")
            }
            "--parse-only" => parse_only = true,
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.expect("usage: bench <dir> [--rounds N] [--parse-only]");
    let mut pages: Vec<Vec<u8>> = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("html"))
        .expect("no html directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    paths.sort();
    for path in paths {
        let gz = std::fs::read(&path).expect("cannot read a page");
        let mut html = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut html).expect("bad gzip");
        pages.push(html);
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    println!(
        "pages {} ({:.1} MB, mean {:.0} KB)",
        pages.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / pages.len() as f64
    );
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T00:00:00Z").unwrap().to_utc();
    let work = |page: &[u8]| -> usize {
        if parse_only {
            let text = String::from_utf8_lossy(page);
            let html = scraper::Html::parse_document(&text);
            html.tree.values().count()
        } else {
            let ctx = extractor::Context::new(now);
            extractor::extract(page, &ctx).text.len()
        }
    };
    // Warm-up: loads the language models once, as a long-running process would.
    let _ = work(&pages[0]);
    let mut best_one = f64::MAX;
    let mut best_all = f64::MAX;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut best_cpu = f64::MAX;
    for _ in 0..rounds {
        let started = Instant::now();
        let cpu_started = thread_cpu_seconds();
        let mut sink = 0usize;
        for page in &pages {
            sink = sink.wrapping_add(work(page));
        }
        best_one = best_one.min(started.elapsed().as_secs_f64());
        if let (Some(from), Some(to)) = (cpu_started, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(to - from);
        }
        std::hint::black_box(sink);
        let started = Instant::now();
        let chunk = pages.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in pages.chunks(chunk) {
                scope.spawn(|| part.iter().map(|p| work(p)).fold(0usize, usize::wrapping_add));
            }
        });
        best_all = best_all.min(started.elapsed().as_secs_f64());
    }
    let n = pages.len() as f64;
    let what = if parse_only { "parse only" } else { "extract" };
    println!("{what}: one core {:.1} pages/s ({:.2} ms/page)", n / best_one, 1e3 * best_one / n);
    println!("{what}: {threads} cores {:.1} pages/s", n / best_all);
    if best_cpu < f64::MAX {
        println!("{what}: one core {:.1} pages per CPU second", n / best_cpu);
    }
}

/// CPU time of this thread so far, from Linux's `/proc/thread-self/schedstat` (time on a CPU, in
/// nanoseconds): unlike the wall clock, it does not count time other processes took the core.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}
