//! Prints the single-thread throughput of `lossy_url` and `normalized_title` over the benchmark lists,
//! in the same format as `benches/mediacloud_baseline.py`, for `benches/compare.sh`.
//!
//! Run with `cargo run --release -p normalizer --example throughput`; `-- --dump` prints each input
//! and its key, tab-separated, instead (`<none>` when there is no key), for diffing with the Python side.
//! `-- --classes` prints the time per title of `normalized_title` for each kind of title in the list,
//! and of `title_key` with a source's name for the whole list, beside a floor: copying the title into a new string and lower-casing its ASCII letters
//! (`str::to_ascii_lowercase`), which any key function returning a `String` pays about. These are the
//! best of many short passes, so that other processes on the machine disturb them less.

#![allow(clippy::print_stdout)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use normalizer::{lossy_url, normalized_title, title_key};

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
    if std::env::args().any(|a| a == "--classes") {
        classes(&titles);
        return;
    }
    println!("implementation: rust normalizer {}", env!("CARGO_PKG_VERSION"));
    println!("inputs: {} urls, {} titles", urls.len(), titles.len());
    println!("url items/s: {:.0}", rate(&urls, lossy_url));
    println!("title items/s: {:.0}", rate(&titles, |t| normalized_title(t, None)));
}

/// Nanoseconds per item of `f` over `items`: the best of 200 passes.
fn best_ns<T>(items: &[&str], f: impl Fn(&str) -> T) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..200 {
        let start = Instant::now();
        for item in items {
            black_box(f(black_box(item)));
        }
        best = best.min(start.elapsed());
    }
    best.as_secs_f64() * 1e9 / items.len().max(1) as f64
}

/// Whether a title has character references or tags.
fn has_markup(title: &str) -> bool {
    title.contains(['&', '<'])
}

/// Whether a title is Latin script, Latin-1 and general punctuation (curly quotes, dashes).
fn is_latin(title: &str) -> bool {
    title.chars().all(|c| c < '\u{370}' || ('\u{2000}'..='\u{206F}').contains(&c))
}

/// A kind of title: its name, and which titles are of it.
type Kind = (&'static str, fn(&str) -> bool);

/// Time per title by kind of title, beside the floor of copying and lower-casing it.
fn classes(titles: &[&str]) {
    let kinds: [Kind; 5] = [
        ("all", |_| true),
        ("ascii", |t| t.is_ascii() && !has_markup(t)),
        ("ascii, references or tags", |t| t.is_ascii() && has_markup(t)),
        ("latin, non-ascii", |t| !t.is_ascii() && is_latin(t)),
        ("other scripts", |t| !t.is_ascii() && !is_latin(t)),
    ];
    println!("{:28} {:>6} {:>10} {:>10} {:>6}", "titles", "count", "ns/title", "floor ns", "ratio");
    for (name, keep) in kinds {
        let items: Vec<&str> = titles.iter().copied().filter(|t| keep(t)).collect();
        let ns = best_ns(&items, |t| normalized_title(t, None));
        let floor = best_ns(&items, str::to_ascii_lowercase);
        println!("{name:28} {:>6} {ns:>10.1} {floor:>10.1} {:>6.1}", items.len(), ns / floor);
    }
    // The archive's own call: with the source's name, which takes the folder and the general path.
    let ns = best_ns(titles, |t| title_key(t, Some("The Boston Globe")));
    let floor = best_ns(titles, str::to_ascii_lowercase);
    println!(
        "{:28} {:>6} {ns:>10.1} {floor:>10.1} {:>6.1}",
        "all, title_key with source",
        titles.len(),
        ns / floor
    );
}
