//! Prints the feed conformance table: per family of `crawler/tests/fixtures/feeds/`, how many
//! files parse and how many checked expectations hold (see `tests/conformance/mod.rs`).
//!
//! `cargo run -p crawler --example feed_conformance [-- --verbose] [-- --speed]`: `--verbose`
//! also lists each file that fails or does not match, and why; `--speed` times the reader over
//! feed-rs's fixtures (real feeds), best of 9 rounds; run it with `--release`.

#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

#[path = "../tests/conformance/mod.rs"]
mod conformance;

fn main() {
    let verbose = std::env::args().any(|arg| arg == "--verbose");
    let speed = std::env::args().any(|arg| arg == "--speed");
    let root = conformance::fixtures();
    let families = conformance::run(&root);
    println!("{}", conformance::table(&families));
    if verbose {
        for family in &families {
            for note in &family.notes {
                println!("{note}");
            }
        }
    }
    if speed {
        let bodies = real_feeds(&root.join("feed-rs"));
        let bytes: usize = bodies.iter().map(Vec::len).sum();
        let url = url::Url::parse("https://feeds.example/feed").expect("a valid URL");
        let mut best = Duration::MAX;
        let mut items = 0;
        for _ in 0..9 {
            let start = Instant::now();
            items = 0;
            for _ in 0..20 {
                for body in &bodies {
                    items += crawler::feed::parse(body, &url).map_or(0, |feed| feed.items.len());
                }
            }
            best = best.min(start.elapsed());
        }
        let megabytes = (bytes * 20) as f64 / 1e6;
        println!(
            "{} feeds, {megabytes:.1} MB, {items} items: {:.1} MB/s (best of 9)",
            bodies.len(),
            megabytes / best.as_secs_f64()
        );
    }
}

/// The feed files under `dir` (not their expected parses).
fn real_feeds(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut bodies = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.to_string_lossy();
            if path.is_dir() {
                dirs.push(path);
            } else if (name.ends_with(".xml") || name.ends_with(".json"))
                && !name.ends_with(".serde.json")
            {
                bodies.extend(std::fs::read(&path));
            }
        }
    }
    bodies
}
