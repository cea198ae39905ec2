//! End-to-end dedup speed and memory on a synthetic news corpus, fed the way the archive feeds it.
//!
//! `cargo run --release -p dedup --example dedup_bench -- [--articles 40000] [--threads 2]
//!  [--chunk 20000] [--tables N] [--hashes N] [GROUND_TRUTH_DIR]`
//!
//! The corpus (see `evalset/mod.rs`): the wcxb-dev ground-truth articles plus synthetic stories
//! (real articles with their content words replaced from other articles' vocabularies, so
//! distinct texts with real sentence structure), about 17% of the articles in groups of edited
//! copies, a few rewrites and roundups, 40,000 articles a day (the inflow of a national media
//! monitor), so `--articles 1000000` spans 25 days. Documents are generated and turned into
//! signatures a chunk at a time, so the texts of a million articles never sit in memory together;
//! generation is not timed.
//!
//! Each day's batch is compared with the stored window through `Deduper::update`, as
//! `morgue dedup` does: the window holds the signatures published within the window of the next
//! day's start (about 200,000 with the default 5 days) and the links among them. Reports, per day
//! when there are several, the candidate pairs, links, matching time and peak memory; then the
//! time of each step on `--threads` threads (signatures; candidates, verification and
//! clustering), the tagger's tokens per second and the embedder's articles per second (each step
//! run alone over the first 40,000 documents), and the peak resident memory.
#![allow(clippy::print_stdout)]

mod evalset;

use std::path::PathBuf;
use std::time::Instant;

use dedup::{Config, Deduper, Document, Link, Signature};
use evalset::{Mix, Rng, Synth};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/extraction/wcxb-dev/ground-truth");
    let (mut articles, mut threads, mut chunk) = (40_000usize, 2usize, 20_000usize);
    let mut candidates = dedup::CandidateConfig::default();
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse().ok()).expect("a number");
        match arg.as_str() {
            "--articles" => articles = value(),
            "--threads" => threads = value(),
            "--chunk" => chunk = value(),
            "--tables" => candidates.embedding_tables = value(),
            "--hashes" => candidates.embedding_hashes = value(),
            other => dir = PathBuf::from(other),
        }
    }
    let bases = evalset::load_bases(&dir, 150);
    let synth = Synth::new(&bases);
    let config = Config { threads, candidates, ..Config::default() };
    let started = Instant::now();
    let dedup = Deduper::new(config).expect("model");
    println!("model loaded in {:.2} s", started.elapsed().as_secs_f64());

    let mix = Mix {
        with_duplicates: 0.065,
        max_duplicates: 3,
        with_rewrites: 0.02,
        roundups_per_100: 0.2,
        undated: 0.02,
        days: 1,
        with_templates: 0.01,
        with_updates: 0.02,
        with_briefs: 0.02,
        template_ledes_differ: false,
        template_acronyms: false,
    };
    let mut rng = Rng::new(7);
    let per_day = 40_000usize;
    let window = config.window_secs;
    // The archive's state: the signatures of the stories inside the window, with their links.
    let mut existing: Vec<Signature> = Vec::new();
    let mut existing_links: Vec<Link> = Vec::new();
    let (mut sig_secs, mut match_secs, mut tag_secs, mut embed_secs) = (0.0, 0.0, 0.0, 0.0);
    let (mut tagged, mut words, mut measured) = (0usize, 0usize, 0usize);
    let (mut done, mut chunk_no, mut pairs, mut links, mut matched) =
        (0usize, 0, 0u64, 0u64, 0usize);
    let mut clusters: std::collections::HashSet<String> = std::collections::HashSet::new();
    let days = articles.div_ceil(per_day);
    for day in 0..days {
        let today = per_day.min(articles - done);
        let mut new: Vec<Signature> = Vec::with_capacity(today);
        while new.len() < today {
            // One chunk of documents, dated on its day.
            let mut stories = Vec::new();
            if chunk_no == 0 {
                let refs: Vec<&evalset::Base> = bases.iter().collect();
                stories.extend(evalset::stories(&refs, &mut rng));
            }
            let want = chunk.min(today - new.len());
            while (stories.len() as f64) * 1.15 < want as f64 {
                stories.push(synth.story(&mut rng));
            }
            let mut docs = evalset::generate(&stories, &mix, &mut rng, &format!("c{chunk_no}-"));
            docs.truncate(want);
            let docs: Vec<Document> = docs
                .iter()
                .map(|d| {
                    let mut doc = d.to_document();
                    doc.published = doc.published.map(|p| p + day as i64 * 86_400);
                    doc
                })
                .collect();
            words += docs.iter().map(|d| d.text.split_whitespace().count()).sum::<usize>();
            let t = Instant::now();
            new.extend(dedup.signatures(&docs));
            sig_secs += t.elapsed().as_secs_f64();
            // The tagger and the embedder alone, on the first 40,000 documents.
            if measured < 40_000 {
                let t = Instant::now();
                let counts = parallel(&docs, threads, |d| {
                    let language = dedup.language(d);
                    dedup.content_tokens(d, language.as_deref()).tagged
                });
                tag_secs += t.elapsed().as_secs_f64();
                tagged += counts.iter().sum::<usize>();
                let t = Instant::now();
                let _ = parallel(&docs, threads, |d| dedup.embedding(d).len());
                embed_secs += t.elapsed().as_secs_f64();
                measured += docs.len();
            }
            chunk_no += 1;
        }
        // What the archive does for a day's batch: compare it with the stored window.
        let t = Instant::now();
        let update = dedup.update(&new, &existing, &existing_links);
        let secs = t.elapsed().as_secs_f64();
        match_secs += secs;
        pairs += update.stats.candidate_pairs;
        links += update.stats.links;
        for a in &update.assignments[..new.len()] {
            matched += usize::from(a.link.is_some());
            clusters.insert(a.cluster.clone());
        }
        if days > 1 {
            println!(
                "day {day}: {} new against {} stored, {} candidate pairs, {} links, matching {secs:.1} s; {}",
                new.len(),
                existing.len(),
                update.stats.candidate_pairs,
                update.stats.links,
                peak_memory()
            );
        }
        done += new.len();
        existing_links.extend(update.links);
        // Keep what the next day's window can reach: dated stories within the window of its
        // start, undated ones for one day (the archive would date them by their fetch).
        let next_start = (day as i64 + 1) * 86_400 + evalset::EPOCH;
        existing.retain(|s| s.published.is_some_and(|p| p >= next_start - window));
        existing.extend(new);
        let kept: std::collections::HashSet<&str> =
            existing.iter().map(|s| s.id.as_str()).collect();
        existing_links.retain(|l| kept.contains(l.doc.as_str()) && kept.contains(l.of.as_str()));
    }
    let n = done;
    println!(
        "{n} articles ({:.0} words each), {threads} threads, {days} day(s)",
        words as f64 / n as f64
    );
    println!("signatures: {sig_secs:.1} s ({:.0} articles/s)", n as f64 / sig_secs);
    println!(
        "  POS-filtered tokens alone: {tag_secs:.1} s for {measured} articles, {:.0} tokens/s",
        tagged as f64 / tag_secs
    );
    println!(
        "  embeddings alone: {embed_secs:.1} s for {measured} articles, {:.0} articles/s",
        measured as f64 / embed_secs
    );
    println!(
        "candidates, verification, clustering: {match_secs:.1} s ({pairs} candidate pairs, {links} links)"
    );
    println!(
        "{matched} articles matched to another ({:.1}%), {} clusters",
        100.0 * matched as f64 / n as f64,
        clusters.len()
    );
    println!(
        "end to end (signatures + matching): {:.1} s ({:.0} articles/s); peak resident memory {}",
        sig_secs + match_secs,
        n as f64 / (sig_secs + match_secs),
        peak_memory()
    );
}

fn parallel<R: Send>(
    docs: &[Document],
    threads: usize,
    f: impl Fn(&Document) -> R + Sync,
) -> Vec<R> {
    let per = docs.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> =
            docs.chunks(per).map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    })
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| "unknown".into())
}
