//! Prints the single-thread throughput of `lossy_url` and `normalized_title` over the benchmark lists,
//! in the same format as `benches/mediacloud_baseline.py`, for `benches/compare.sh`.
//!
//! Run with `cargo run --release -p normalizer --example throughput`; `-- --dump` prints each input
//! and its key, tab-separated, instead (`<none>` when there is no key), for diffing with the Python side.

#![allow(clippy::print_stdout)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use normalizer::{lossy_url, normalized_title};

const URLS: &str = include_str!("../benches/data/urls.txt");
const TITLES: &str = include_str!("../benches/data/titles.txt");
const SECONDS_PER_FUNCTION: u64 = 3;

/// Items per second of `f` over `items`, after one warm-up pass.
fn rate<T>(items: &[&str], f: impl Fn(&str) -> T) -> f64 {
    for item in items {
        black_box(f(black_box(item)));
    }
    let start = Instant::now();
    let mut done = 0usize;
    while start.elapsed() < Duration::from_secs(SECONDS_PER_FUNCTION) {
        for item in items {
            black_box(f(black_box(item)));
        }
        done += items.len();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let urls: Vec<&str> = URLS.lines().collect();
    let titles: Vec<&str> = TITLES.lines().collect();
    if std::env::args().any(|a| a == "--dump") {
        for url in &urls {
            println!("url\t{url}\t{}", lossy_url(url).unwrap_or_else(|| "<none>".to_owned()));
        }
        for title in &titles {
            println!("title\t{title}\t{}", normalized_title(title, None));
        }
        return;
    }
    println!("implementation: rust normalizer {}", env!("CARGO_PKG_VERSION"));
    println!("inputs: {} urls, {} titles", urls.len(), titles.len());
    println!("url items/s: {:.0}", rate(&urls, lossy_url));
    println!("title items/s: {:.0}", rate(&titles, |t| normalized_title(t, None)));
}
