//! Dedup quality on the evaluation set: threshold tuning on one split, figures on the other.
//!
//! `cargo run --release -p dedup --example dedup_eval [-- GROUND_TRUTH_DIR] [--seed N]`
//!
//! Builds the evaluation set (see `evalset/mod.rs`) from the wcxb-dev ground-truth texts
//! (default `../shared/data/extraction/wcxb-dev/ground-truth`), splitting the base articles in
//! two by a hash of their file id: **tune** and **test**. On the tune split it scores every
//! candidate pair and grid-searches the thresholds (duplicate rules for the best duplicate F1,
//! then the similar rule for the best similar F1, then the clusters' link density for the best
//! B-cubed F1). On the test split it runs the real pipeline with those thresholds and reports
//! pairwise precision, recall and F1 per relation, B-cubed F1 of the clusters, candidate recall,
//! the hard negatives that were linked, and the Spanish study's rule (cosine ≥ 0.6 and
//! POS-Jaccard ≥ 0.1) for comparison.
#![allow(clippy::print_stdout)]

mod evalset;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use dedup::{Config, Deduper, Method, Relation, Scores, Signature, Thresholds};
use evalset::{Doc, Kind, Mix, Rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/extraction/wcxb-dev/ground-truth");
    let mut seed = 20_260_101u64;
    let mut lsh_grid = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--lsh-grid" => lsh_grid = true,
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            other => dir = PathBuf::from(other),
        }
    }
    let bases = evalset::load_bases(&dir, 150);
    let (tune_bases, test_bases): (Vec<_>, Vec<_>) =
        bases.iter().partition(|b| dedup::text::hash_bytes(b.file_id.as_bytes()).is_multiple_of(2));
    let mut rng = Rng::new(seed);
    let tune_stories = evalset::stories(&tune_bases, &mut rng);
    let tune = evalset::generate(&tune_stories, &Mix::eval(), &mut rng, "tune-");
    let test_stories = evalset::stories(&test_bases, &mut rng);
    let test = evalset::generate(&test_stories, &Mix::eval(), &mut rng, "test-");
    describe("tune", &tune);
    describe("test", &test);

    let base_config = Config { threads: 2, ..Config::default() };
    let dedup = Deduper::new(base_config).expect("model");
    let tune_sigs = dedup.signatures(&tune.iter().map(Doc::to_document).collect::<Vec<_>>());
    let test_sigs = dedup.signatures(&test.iter().map(Doc::to_document).collect::<Vec<_>>());

    if lsh_grid {
        for (bands, rows, tables, hashes) in [
            (42, 3, 32, 2),
            (42, 3, 64, 2),
            (42, 3, 64, 3),
            (42, 3, 64, 4),
            (42, 3, 96, 4),
            (42, 3, 128, 4),
            (42, 3, 128, 5),
        ] {
            let candidates = dedup::CandidateConfig {
                minhash_bands: bands,
                minhash_rows: rows,
                embedding_tables: tables,
                embedding_hashes: hashes,
                ..dedup::CandidateConfig::default()
            };
            let d =
                Deduper::new(Config { thresholds: open_thresholds(), candidates, ..base_config })
                    .expect("model");
            let links = d.run_signatures(&tune_sigs).links;
            let index: HashMap<&str, usize> =
                tune_sigs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
            let by = |f: &dyn Fn(&dedup::FoundBy) -> bool| {
                links
                    .iter()
                    .filter(|l| f(&l.found_by))
                    .map(|l| (index[l.doc.as_str()], index[l.of.as_str()], l.scores))
                    .collect::<Vec<_>>()
            };
            println!(
                "bands {bands} x rows {rows}, tables {tables} x hashes {hashes}: {} candidate pairs",
                links.len()
            );
            report_candidate_recall("  minhash", &tune, &by(&|f| f.minhash));
            report_candidate_recall("  embedding", &tune, &by(&|f| f.embedding));
            report_candidate_recall("  both", &tune, &by(&|_| true));
        }
        return;
    }

    // Every candidate pair with its scores: thresholds at zero make every candidate a link.
    let open = open_thresholds();
    let candidates = |sigs: &[Signature]| {
        let permissive = Deduper::new(Config { thresholds: open, ..base_config }).expect("model");
        let links = permissive.run_signatures(sigs).links;
        let index: HashMap<&str, usize> =
            sigs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
        links
            .iter()
            .map(|l| (index[l.doc.as_str()], index[l.of.as_str()], l.scores))
            .collect::<Vec<_>>()
    };
    let tune_pairs = candidates(&tune_sigs);
    report_candidate_recall("tune", &tune, &tune_pairs);

    // Tuning.
    let thresholds = tune_thresholds(&tune, &tune_pairs);
    println!("\ntuned thresholds: {thresholds:?}");
    let mut best = (f64::MIN, 0.5f32);
    for density in [0.25f32, 0.34, 0.5, 0.67] {
        let mut config = Config { thresholds, ..base_config };
        config.clustering.min_link_density = density;
        let d = Deduper::new(config).expect("model");
        let outcome = d.run_signatures(&tune_sigs);
        let b = bcubed(&tune, &outcome);
        println!("tune: link density {density}: B-cubed F1 {:.4}", b.2);
        if b.2 > best.0 {
            best = (b.2, density);
        }
    }
    println!("tuned link density: {}", best.1);

    // Test.
    let mut config = Config { thresholds, ..base_config };
    config.clustering.min_link_density = best.1;
    let test_pairs = candidates(&test_sigs);
    report_candidate_recall("test", &test, &test_pairs);
    println!("\n== test split, tuned thresholds ==");
    let d = Deduper::new(config).expect("model");
    let outcome = d.run_signatures(&test_sigs);
    report(&test, &outcome);

    println!("\n== test split, default thresholds (as shipped) ==");
    let shipped = Deduper::new(Config { threads: 2, ..Config::default() }).expect("model");
    report(&test, &shipped.run_signatures(&test_sigs));

    println!(
        "\n== test split, the Spanish study's rule (cosine >= 0.6, POS-Jaccard >= 0.1, as similar) =="
    );
    let spanish = Thresholds {
        duplicate_containment: 2.0,
        duplicate_length_ratio: 2.0,
        duplicate_cosine: 2.0,
        duplicate_content: 2.0,
        similar_cosine: 0.6,
        similar_content: 0.1,
    };
    let d = Deduper::new(Config { thresholds: spanish, ..base_config }).expect("model");
    let outcome = d.run_signatures(&test_sigs);
    let any = pairwise_any(&test, &outcome);
    println!("same-story pairs (any relation): P {:.4} R {:.4} F1 {:.4}", any.0, any.1, any.2);
    let b = bcubed(&test, &outcome);
    println!("B-cubed: P {:.4} R {:.4} F1 {:.4}", b.0, b.1, b.2);
}

fn open_thresholds() -> Thresholds {
    Thresholds {
        duplicate_containment: 0.0,
        duplicate_length_ratio: 0.0,
        duplicate_cosine: 0.0,
        duplicate_content: 0.0,
        similar_cosine: 0.0,
        similar_content: 0.0,
    }
}

fn describe(name: &str, docs: &[Doc]) {
    let count = |k: Kind| docs.iter().filter(|d| d.kind == k).count();
    let stories: HashSet<usize> = docs.iter().map(|d| d.story).collect();
    let (dup, sim) = true_counts(docs);
    println!(
        "{name}: {} documents ({} originals, {} copies, {} rewrites, {} roundups), {} stories; true pairs: {dup} duplicate, {sim} similar",
        docs.len(),
        count(Kind::Original),
        count(Kind::Duplicate),
        count(Kind::Rewrite),
        count(Kind::Roundup),
        stories.len()
    );
}

fn report_candidate_recall(name: &str, docs: &[Doc], pairs: &[(usize, usize, Scores)]) {
    let found: HashSet<(usize, usize)> =
        pairs.iter().map(|&(a, b, _)| (a.min(b), a.max(b))).collect();
    let (mut dup, mut dup_found, mut sim, mut sim_found) = (0, 0, 0, 0);
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            match evalset::truth(&docs[i], &docs[j]) {
                Some(Relation::Duplicate) => {
                    dup += 1;
                    dup_found += usize::from(found.contains(&(i, j)));
                }
                Some(Relation::Similar) => {
                    sim += 1;
                    sim_found += usize::from(found.contains(&(i, j)));
                }
                None => {}
            }
        }
    }
    let n = docs.len() as f64;
    println!(
        "{name}: {} candidate pairs ({:.2}% of all pairs); candidate recall: duplicate {:.4}, similar {:.4}",
        pairs.len(),
        100.0 * pairs.len() as f64 / (n * (n - 1.0) / 2.0),
        dup_found as f64 / dup.max(1) as f64,
        sim_found as f64 / sim.max(1) as f64
    );
}

/// Precision, recall, F1.
fn prf(tp: usize, fp: usize, fn_: usize) -> (f64, f64, f64) {
    let p = if tp + fp == 0 { 1.0 } else { tp as f64 / (tp + fp) as f64 };
    let r = if tp + fn_ == 0 { 1.0 } else { tp as f64 / (tp + fn_) as f64 };
    let f = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
    (p, r, f)
}

/// Pairwise scores of a relation given predictions on candidate pairs.
fn pairwise(
    docs: &[Doc],
    predicted: &HashMap<(usize, usize), Relation>,
    relation: Relation,
    true_count: usize,
) -> (f64, f64, f64) {
    let mut tp = 0;
    let mut fp = 0;
    for (&(a, b), &r) in predicted {
        if r != relation {
            continue;
        }
        if evalset::truth(&docs[a], &docs[b]) == Some(relation) {
            tp += 1;
        } else {
            fp += 1;
        }
    }
    prf(tp, fp, true_count - tp)
}

fn true_counts(docs: &[Doc]) -> (usize, usize) {
    let (mut dup, mut sim) = (0, 0);
    for (i, a) in docs.iter().enumerate() {
        for b in &docs[i + 1..] {
            match evalset::truth(a, b) {
                Some(Relation::Duplicate) => dup += 1,
                Some(Relation::Similar) => sim += 1,
                None => {}
            }
        }
    }
    (dup, sim)
}

fn predict(pairs: &[(usize, usize, Scores)], t: &Thresholds) -> HashMap<(usize, usize), Relation> {
    pairs
        .iter()
        .filter_map(|&(a, b, s)| t.decide(&s).map(|m| ((a.min(b), a.max(b)), m.relation())))
        .collect()
}

fn tune_thresholds(docs: &[Doc], pairs: &[(usize, usize, Scores)]) -> Thresholds {
    let (dup_true, sim_true) = true_counts(docs);
    let steps = |lo: f32, hi: f32, step: f32| {
        let mut v = Vec::new();
        let mut x = lo;
        while x <= hi + 1e-6 {
            v.push((x * 1000.0).round() / 1000.0);
            x += step;
        }
        v
    };
    let off = 2.0f32;
    let mut best = (f64::MIN, open_thresholds());
    let mut base = Thresholds { similar_cosine: off, similar_content: off, ..open_thresholds() };
    for &c in &steps(0.3, 0.9, 0.05) {
        for &lr in &[0.0f32, 0.1, 0.15, 0.2, 0.3] {
            for &dc in &[0.85f32, 0.88, 0.9, 0.92, 0.94, 0.96, off] {
                for &dj in &steps(0.3, 0.8, 0.1) {
                    base.duplicate_containment = c;
                    base.duplicate_length_ratio = lr;
                    base.duplicate_cosine = dc;
                    base.duplicate_content = dj;
                    let f = pairwise(docs, &predict(pairs, &base), Relation::Duplicate, dup_true).2;
                    if f > best.0 + 1e-9 {
                        best = (f, base);
                    }
                }
            }
        }
    }
    println!("tune: best duplicate F1 {:.4} with {:?}", best.0, best.1);
    // How sharp the optimum is: each duplicate threshold moved alone.
    let mut line = String::from("tune: duplicate F1 by containment:");
    for &c in &steps(0.4, 0.9, 0.05) {
        let t = Thresholds { duplicate_containment: c, ..best.1 };
        let f = pairwise(docs, &predict(pairs, &t), Relation::Duplicate, dup_true).2;
        line.push_str(&format!(" {c}:{f:.4}"));
    }
    println!("{line}");
    let mut line = String::from("tune: duplicate F1 by length ratio:");
    for &lr in &[0.0f32, 0.1, 0.2, 0.3, 0.4] {
        let t = Thresholds { duplicate_length_ratio: lr, ..best.1 };
        let f = pairwise(docs, &predict(pairs, &t), Relation::Duplicate, dup_true).2;
        line.push_str(&format!(" {lr}:{f:.4}"));
    }
    println!("{line}");
    let mut t = best.1;
    let mut best_sim = (f64::MIN, 0.0f32, 0.0f32);
    for &sc in &steps(0.5, 0.95, 0.025) {
        for &sj in &steps(0.05, 0.5, 0.025) {
            t.similar_cosine = sc;
            t.similar_content = sj;
            let f = pairwise(docs, &predict(pairs, &t), Relation::Similar, sim_true).2;
            if f > best_sim.0 + 1e-9 {
                best_sim = (f, sc, sj);
            }
        }
    }
    println!(
        "tune: best similar F1 {:.4} at cosine {} and POS-Jaccard {}",
        best_sim.0, best_sim.1, best_sim.2
    );
    t.similar_cosine = best_sim.1;
    t.similar_content = best_sim.2;
    for &sc in &steps(0.7, 0.9, 0.025) {
        let mut line = format!("tune: similar F1 at cosine {sc} by POS-Jaccard:");
        for &sj in &steps(0.1, 0.35, 0.05) {
            let f = pairwise(
                docs,
                &predict(pairs, &Thresholds { similar_cosine: sc, similar_content: sj, ..t }),
                Relation::Similar,
                sim_true,
            )
            .2;
            line.push_str(&format!(" {sj}:{f:.3}"));
        }
        println!("{line}");
    }
    t
}

fn links_as_predictions(
    docs: &[Doc],
    outcome: &dedup::Outcome,
) -> HashMap<(usize, usize), Relation> {
    let index: HashMap<&str, usize> =
        docs.iter().enumerate().map(|(i, d)| (d.id.as_str(), i)).collect();
    outcome
        .links
        .iter()
        .map(|l| {
            let (a, b) = (index[l.doc.as_str()], index[l.of.as_str()]);
            ((a.min(b), a.max(b)), l.relation)
        })
        .collect()
}

fn pairwise_any(docs: &[Doc], outcome: &dedup::Outcome) -> (f64, f64, f64) {
    let predicted = links_as_predictions(docs, outcome);
    let (dup, sim) = true_counts(docs);
    let tp = predicted.keys().filter(|&&(a, b)| docs[a].story == docs[b].story).count();
    prf(tp, predicted.len() - tp, dup + sim - tp)
}

fn bcubed(docs: &[Doc], outcome: &dedup::Outcome) -> (f64, f64, f64) {
    let mut predicted: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, a) in outcome.assignments.iter().enumerate() {
        predicted.entry(a.cluster.as_str()).or_default().push(i);
    }
    let mut truth: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, d) in docs.iter().enumerate() {
        truth.entry(d.story).or_default().push(i);
    }
    let (mut p, mut r) = (0.0, 0.0);
    for (i, a) in outcome.assignments.iter().enumerate() {
        let cluster = &predicted[a.cluster.as_str()];
        let story = &truth[&docs[i].story];
        let both = cluster.iter().filter(|&&j| docs[j].story == docs[i].story).count() as f64;
        p += both / cluster.len() as f64;
        r += both / story.len() as f64;
    }
    let n = docs.len() as f64;
    let (p, r) = (p / n, r / n);
    (p, r, 2.0 * p * r / (p + r))
}

fn report(docs: &[Doc], outcome: &dedup::Outcome) {
    let predicted = links_as_predictions(docs, outcome);
    let (dup, sim) = true_counts(docs);
    for (name, relation, count) in
        [("duplicate", Relation::Duplicate, dup), ("similar", Relation::Similar, sim)]
    {
        let (p, r, f) = pairwise(docs, &predicted, relation, count);
        println!("{name:>9} pairs: P {p:.4} R {r:.4} F1 {f:.4}  ({count} true pairs)");
    }
    let any = pairwise_any(docs, outcome);
    println!("same-story pairs (any relation): P {:.4} R {:.4} F1 {:.4}", any.0, any.1, any.2);
    let b = bcubed(docs, outcome);
    println!("B-cubed: P {:.4} R {:.4} F1 {:.4}", b.0, b.1, b.2);
    // Hard negatives linked.
    let (mut same_source, mut roundup, mut other) = (0, 0, 0);
    for &(a, b) in predicted.keys().filter(|&&(a, b)| docs[a].story != docs[b].story) {
        if docs[a].kind == Kind::Roundup || docs[b].kind == Kind::Roundup {
            roundup += 1;
        } else if docs[a].source == docs[b].source {
            same_source += 1;
        } else {
            other += 1;
        }
    }
    println!("false links: {same_source} same source, {roundup} with a roundup, {other} other");
    let mut methods: HashMap<Method, usize> = HashMap::new();
    for l in &outcome.links {
        *methods.entry(l.method).or_default() += 1;
    }
    let mut methods: Vec<_> = methods.into_iter().collect();
    methods.sort();
    println!("links by method: {methods:?}");
    let largest = {
        let mut sizes: HashMap<&str, usize> = HashMap::new();
        for a in &outcome.assignments {
            *sizes.entry(a.cluster.as_str()).or_default() += 1;
        }
        sizes.values().copied().max().unwrap_or(0)
    };
    println!("largest cluster: {largest} documents");
}
