//! Runs the extractor on one file and prints a summary: quality, warnings, field provenance, text size.
//!
//! Usage: `cargo run --release -p extractor --example extract_file -- <file> [url]`

#![allow(clippy::print_stdout)]

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: extract_file <file> [url]");
    let url = args.next();
    let raw = std::fs::read(&path).expect("cannot read the file");
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T00:00:00Z").unwrap().to_utc();
    let ctx = extractor::Context { url: url.as_deref(), ..extractor::Context::new(now) };
    let started = std::time::Instant::now();
    let e = extractor::extract(&raw, &ctx);
    let elapsed = started.elapsed();
    println!("bytes      {}", raw.len());
    println!("time       {elapsed:.2?}");
    println!("quality    {:?}", e.quality);
    println!("encoding   {} [{}]", e.encoding.value, e.encoding.provenance);
    println!("warnings   {:?}", e.warnings.iter().take(5).collect::<Vec<_>>());
    println!("title      {:?}", e.title.map(|f| (f.value, f.provenance)));
    println!("published  {:?}", e.published.map(|f| (f.value.to_rfc3339(), f.provenance)));
    println!("language   {:?}", e.language.map(|f| (f.value, f.provenance)));
    println!("paragraphs {} ({} chars)", e.paragraphs.len(), e.text.len());
}
