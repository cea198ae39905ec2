//! Prints title keys for a large generated corpus, one line per title, for diffing two builds:
//! `cargo run --release -p normalizer --example title_corpus [-- COUNT] > keys.txt` (200,000 titles
//! unless COUNT says). With `--hash`, prints only the FNV-1a hash of the lines (each ending in a
//! newline), which `benches/README.md` records for this corpus.
//!
//! Each line holds, `{:?}`-quoted and tab-separated: the title, its key without a source, with the
//! source `The Globe`, `title_key` with that source, and `clean_title` (see `generate.rs`).

#![allow(clippy::print_stdout)]

mod generate;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hash_only = args.iter().any(|a| a == "--hash");
    let count: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(200_000);
    let mut hash = generate::FNV_START;
    for title in generate::titles().take(count) {
        let line = generate::line(&title);
        if hash_only {
            hash = generate::fnv1a(hash, line.as_bytes());
            hash = generate::fnv1a(hash, b"\n");
        } else {
            println!("{line}");
        }
    }
    if hash_only {
        println!("{count} titles, FNV-1a {hash:016x}");
    }
}
