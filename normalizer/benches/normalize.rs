//! Criterion benchmark of `lossy_url` and `normalized_title` over the benchmark lists in `benches/data`.
//!
//! Each iteration normalises the whole list, so the reported throughput is in items per second.
//! `benches/compare.sh` sets these figures beside Media Cloud's Python implementation.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use normalizer::{lossy_url, normalized_title};

const URLS: &str = include_str!("data/urls.txt");
const TITLES: &str = include_str!("data/titles.txt");

fn bench(c: &mut Criterion) {
    let urls: Vec<&str> = URLS.lines().collect();
    let titles: Vec<&str> = TITLES.lines().collect();

    let mut group = c.benchmark_group("lossy_url");
    group.throughput(Throughput::Elements(urls.len() as u64));
    group.bench_function("mixed_urls", |b| {
        b.iter(|| {
            for url in &urls {
                black_box(lossy_url(black_box(url)));
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("normalized_title");
    group.throughput(Throughput::Elements(titles.len() as u64));
    group.bench_function("mixed_titles", |b| {
        b.iter(|| {
            for title in &titles {
                black_box(normalized_title(black_box(title), None));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
