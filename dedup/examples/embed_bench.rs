//! Embedder throughput on real text, one core and two.
//!
//! `cargo run --release -p dedup --example embed_bench [-- GROUND_TRUTH_DIR]`
//!
//! Reads the wcxb-dev ground-truth texts (default `../shared/data/extraction/wcxb-dev/ground-truth`,
//! relative to the workspace root) and embeds them as paragraphs (blank-line separated) and as
//! articles (each text's first 600 words, texts of at least 300 words); paragraphs of fewer than
//! 25 words (headings, captions, list items) are left out. Every figure is the best
//! of three passes. "no cache" tokenises every word; "cold" starts with an empty word cache, as
//! the first batch of a run does; "warm" repeats the pass with the cache filled, as later batches
//! of a day's news mostly are. Times are the threads' on-CPU times (Linux schedstat), so the
//! figures hold on a machine shared with other work; "two threads" is texts / the slower
//! thread's time, each thread embedding half the texts with its own warm cache.
#![allow(clippy::print_stdout)]

use std::path::PathBuf;
use std::time::Instant;

use dedup::embed::{Embedder, StaticEmbedder, default_model};

fn main() {
    let dir = std::env::args().nth(1).map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../shared/data/extraction/wcxb-dev/ground-truth")
        },
        PathBuf::from,
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("dir entry").path())
        .collect();
    files.sort();
    let mut paragraphs = Vec::new();
    let mut articles = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        let content = value["ground_truth"]["main_content"].as_str().unwrap_or_default();
        paragraphs.extend(
            content
                .split("\n\n")
                .map(str::trim)
                .filter(|p| p.split_whitespace().count() >= 25)
                .map(String::from),
        );
        let words: Vec<&str> = content.split_whitespace().collect();
        if words.len() >= 300 {
            articles.push(words[..words.len().min(600)].join(" "));
        }
    }
    let words =
        |texts: &[String]| texts.iter().map(|t| t.split_whitespace().count()).sum::<usize>();
    println!(
        "{} paragraphs ({:.0} words each), {} articles ({:.0} words each)",
        paragraphs.len(),
        words(&paragraphs) as f64 / paragraphs.len() as f64,
        articles.len(),
        words(&articles) as f64 / articles.len() as f64,
    );
    let start = Instant::now();
    let model = default_model().expect("shipped model");
    println!("model load: {:.0} ms", start.elapsed().as_secs_f64() * 1e3);

    let tokens: usize = articles.iter().map(|a| model.embedded_ids(a).len()).sum();
    println!(
        "articles: {:.0} pieces each (limit {})",
        tokens as f64 / articles.len() as f64,
        model.max_tokens()
    );

    for (name, texts) in [("paragraphs", &paragraphs), ("articles", &articles)] {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let rate = |secs: f64| refs.len() as f64 / secs;
        let nocache = best(|| pass(&fresh(0), &refs));
        let cold = best(|| pass(&fresh(dedup::embed::DEFAULT_CACHE_WORDS), &refs));
        let warm_model = fresh(dedup::embed::DEFAULT_CACHE_WORDS);
        let warm = warm_pass(&warm_model, &refs);
        // Two threads, each with its own warm cache (caches are per thread), on half the texts.
        let halves: Vec<&[&str]> = refs.chunks(refs.len().div_ceil(2)).collect();
        let two = std::thread::scope(|scope| {
            let handles: Vec<_> =
                halves.iter().map(|half| scope.spawn(|| warm_pass(&warm_model, half))).collect();
            handles.into_iter().map(|h| h.join().expect("thread")).fold(0.0, f64::max)
        });
        let full = fresh(dedup::embed::DEFAULT_CACHE_WORDS).with_max_tokens(usize::MAX);
        let unlimited = warm_pass(&full, &refs);
        println!("{name}/s, one core, warm cache, no piece limit: {:.0}", rate(unlimited));
        println!(
            "{name}/s, one core: no cache {:.0}, cold cache {:.0}, warm cache {:.0}; two threads, warm: {:.0}",
            rate(nocache),
            rate(cold),
            rate(warm),
            rate(two)
        );
    }
}

fn fresh(cache: usize) -> StaticEmbedder {
    default_model().expect("shipped model").with_cache_capacity(cache)
}

/// Seconds to embed every text on this thread: on-CPU time where Linux reports it (so that other
/// work on a shared machine does not count), else wall time.
fn pass(model: &StaticEmbedder, texts: &[&str]) -> f64 {
    let (start, cpu) = (Instant::now(), thread_cpu());
    let sum: f32 = texts.iter().map(|t| model.embed(t)[0]).sum();
    std::hint::black_box(sum);
    match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b - a,
        _ => start.elapsed().as_secs_f64(),
    }
}

/// This thread's time on a CPU, in seconds (first field of /proc/thread-self/schedstat, in ns).
fn thread_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Best seconds of three passes after one that fills this thread's cache.
fn warm_pass(model: &StaticEmbedder, texts: &[&str]) -> f64 {
    pass(model, texts);
    best(|| pass(model, texts))
}

fn best(mut run: impl FnMut() -> f64) -> f64 {
    (0..3).map(|_| run()).fold(f64::INFINITY, f64::min)
}
