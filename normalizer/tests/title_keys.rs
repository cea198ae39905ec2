//! The title keys of two fixed corpora must not change: the benchmark list (`benches/data/titles.txt`,
//! real titles) and the first titles of the generated corpus (`examples/title_corpus`, every rule's
//! corner). Each title's line (its keys without and with a source, `title_key`, `clean_title`) is
//! hashed, and the hash compared with a recorded one: first from the build before the title paths
//! were reduced to one (commit 6552dc1, whose AVX-512, AVX2 and SSE2 paths gave the same keys),
//! then after invisible characters were left out (`benches/README.md`, "The keys").
//!
//! A deliberate change of the keys changes these hashes: print the lines before and after
//! (`cargo run --release -p normalizer --example title_corpus -- 20000`), read the difference, and
//! record the new hashes here and in `benches/README.md`.

#[path = "../examples/title_corpus/generate.rs"]
mod generate;

use generate::{FNV_START, fnv1a, line};

/// The hash of the lines of `titles`, each ending in a newline.
fn hash<'a>(titles: impl Iterator<Item = &'a str>) -> u64 {
    titles.fold(FNV_START, |hash, title| fnv1a(fnv1a(hash, line(title).as_bytes()), b"\n"))
}

#[test]
fn benchmark_title_keys_are_unchanged() {
    let titles = include_str!("../benches/data/titles.txt");
    assert_eq!(format!("{:016x}", hash(titles.lines())), "74f83c041825e0e2");
}

#[test]
fn generated_title_keys_are_unchanged() {
    let titles: Vec<String> = generate::titles().take(20_000).collect();
    assert_eq!(format!("{:016x}", hash(titles.iter().map(String::as_str))), "cab7a3904eb067b6");
}
