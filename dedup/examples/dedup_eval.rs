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
//!
//! `--show KIND` prints instead the tune split's pairs of one kind that the shipped rules get
//! wrong (at most `SHOW`, default 25; with `SHOW_ALL` set, right ones too), with their scores,
//! explanation and facts; `--conflicts` reports instead the link-conflict rule
//! (`Thresholds::conflict_margin`): the objective on tune by margin (and off), then the test
//! split with the rule off and at the shipped margin; `--conflict-list` lists every link the rule
//! drops on tune (the kinds of the hub, the link's other end and the rival, whether the two
//! "twins" are truly different stories, the three pairs' scores); `--tune-report` prints the tune
//! split's figures per kind through the pipeline; `--pair ID ID` one tune pair's scores, verdict
//! and facts (`SHOW_TEXT` set: the texts too); `DEDUP_THRESHOLDS=name=value,…` overrides shipped
//! thresholds (to read one rule's curve through the pipeline); `DEDUP_EVAL_DUMP=FILE` writes the
//! facts of every wording-matched tune pair as tab-separated lines; `--seeds N` runs the
//! shipped rules on the sets of seeds 1 to N and prints each seed's figures per split and the
//! splits pooled (with `--tune-report`, the tune split alone): one seed's per-kind figures move
//! by a few points with the draw. `--old-templates` and `--old-names` build the set as it was
//! before the template ledes' check and before template stories replaced acronyms.
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
    let mut seeds: Option<u64> = None;
    let mut lsh_grid = false;
    let mut show: Option<String> = None;
    let mut conflicts = false;
    let mut conflict_list = false;
    let mut tune_report = false;
    let mut pair: Option<(String, String)> = None;
    let mut dump_tune: Option<String> = None;
    let mut mix = Mix::eval();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--lsh-grid" => lsh_grid = true,
            "--conflicts" => conflicts = true,
            "--conflict-list" => conflict_list = true,
            "--tune-report" => tune_report = true,
            "--pair" => pair = args.next().zip(args.next()),
            "--show" => show = args.next(),
            "--dump-tune" => dump_tune = args.next(),
            "--old-templates" => mix.template_ledes_differ = false,
            "--old-names" => mix.template_acronyms = false,
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            "--seeds" => seeds = Some(args.next().and_then(|s| s.parse().ok()).expect("--seeds N")),
            other => dir = PathBuf::from(other),
        }
    }
    let bases = evalset::load_bases(&dir, 150);
    let (tune_bases, test_bases): (Vec<_>, Vec<_>) =
        bases.iter().partition(|b| dedup::text::hash_bytes(b.file_id.as_bytes()).is_multiple_of(2));
    let (tune, test) = sets([&tune_bases, &test_bases], &mix, seed);
    describe("tune", &tune);
    describe("test", &test);

    let mut base_config = Config { threads: 2, ..Config::default() };
    // `DEDUP_THRESHOLDS=name=value,…` overrides shipped thresholds (for reading one rule's curve
    // through the pipeline with `--tune-report`).
    if let Ok(overrides) = std::env::var("DEDUP_THRESHOLDS") {
        let shipped: HashMap<&str, f64> = Thresholds::default().fields().into_iter().collect();
        let given: HashMap<&str, f64> = overrides
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k, v.parse().expect("a number")))
            .collect();
        assert!(given.keys().all(|k| shipped.contains_key(k)), "unknown threshold in {overrides}");
        base_config.thresholds =
            Thresholds::from_fields(|n| given.get(n).or(shipped.get(n)).copied());
    }
    if let Some(seeds) = seeds {
        report_seeds([&tune_bases, &test_bases], &mix, seeds, tune_report, base_config);
        return;
    }
    let dedup = Deduper::new(base_config).expect("model");
    let tune_sigs = dedup.signatures(&tune.iter().map(Doc::to_document).collect::<Vec<_>>());
    let test_sigs = dedup.signatures(&test.iter().map(Doc::to_document).collect::<Vec<_>>());

    if let Some(kind) = show {
        show_errors(&kind, &tune, &tune_sigs, &Deduper::new(base_config).expect("model"));
        return;
    }

    if let Some((a, b)) = pair {
        show_pair(&tune, &tune_sigs, &a, &b);
        return;
    }

    if tune_report {
        let outcome = Deduper::new(base_config).expect("model").run_signatures(&tune_sigs);
        println!("== tune split, shipped rules ==");
        println!(
            "objective {:.4}, conflicts {}",
            objective_of_links(&tune, &outcome),
            outcome.stats.conflicts
        );
        report(&tune, &outcome);
        return;
    }

    if conflict_list {
        list_conflicts(&tune, &tune_sigs, &Deduper::new(base_config).expect("model"));
        return;
    }

    if conflicts {
        report_conflicts(&tune, &tune_sigs, &test, &test_sigs, base_config);
        return;
    }

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
            let index = positions(tune_sigs.iter().map(|s| s.id.as_str()));
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
        let index = positions(sigs.iter().map(|s| s.id.as_str()));
        // The permissive rules take every pair for a near-copy, so the whole-text names that the
        // pipeline compares for `similar` pairs only are filled in here for the tuner.
        let all = dedup::facts::Span::ALL;
        links
            .iter()
            .map(|l| {
                let (a, b) = (index[l.doc.as_str()], index[l.of.as_str()]);
                let doc_names =
                    dedup::facts::agreement(&sigs[a].facts, all, &sigs[b].facts, all, false, 1);
                let doc_numbers =
                    dedup::facts::agreement(&sigs[a].facts, all, &sigs[b].facts, all, true, 1);
                (a, b, Scores { doc_names, doc_numbers, ..l.scores })
            })
            .collect::<Vec<_>>()
    };
    let tune_pairs = candidates(&tune_sigs);
    if let Some(path) = dump_tune {
        dump_pairs(&path, &tune, &tune_pairs);
        return;
    }
    report_candidate_recall("tune", &tune, &tune_pairs);
    fact_histograms(&tune, &tune_sigs, &tune_pairs);

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
    {
        // What the lede passages add: the same without them.
        let no_ledes = dedup::CandidateConfig { lede_passages: false, ..base_config.candidates };
        let d = Deduper::new(Config { thresholds: open, candidates: no_ledes, ..base_config })
            .expect("model");
        let links = d.run_signatures(&test_sigs).links;
        let index = positions(test_sigs.iter().map(|s| s.id.as_str()));
        let pairs: Vec<_> =
            links.iter().map(|l| (index[l.doc.as_str()], index[l.of.as_str()], l.scores)).collect();
        report_candidate_recall("test without lede passages", &test, &pairs);
    }
    println!("\n== test split, tuned thresholds ==");
    let d = Deduper::new(config).expect("model");
    let outcome = d.run_signatures(&test_sigs);
    report(&test, &outcome);

    println!("\n== test split, default thresholds (as shipped) ==");
    let shipped = Deduper::new(Config { threads: 2, ..Config::default() }).expect("model");
    report(&test, &shipped.run_signatures(&test_sigs));

    println!(
        "\n== test split, the rules before facts and passages (containment 0.75, rewording 0.96/0.6, similar 0.75/0.22, no lede keys) =="
    );
    let before = Thresholds {
        duplicate_containment: 0.75,
        duplicate_length_ratio: 0.1,
        duplicate_cosine: 0.96,
        duplicate_content: 0.6,
        similar_cosine: 0.75,
        similar_content: 0.22,
        ..without_facts_or_passages()
    };
    let candidates_before =
        dedup::CandidateConfig { lede_passages: false, ..base_config.candidates };
    let d =
        Deduper::new(Config { thresholds: before, candidates: candidates_before, ..base_config })
            .expect("model");
    report(&test, &d.run_signatures(&test_sigs));

    println!(
        "\n== test split, the Spanish study's rule (cosine >= 0.6, POS-Jaccard >= 0.1, as similar) =="
    );
    let spanish = Thresholds {
        duplicate_containment: 2.0,
        duplicate_cosine: 2.0,
        similar_cosine: 0.6,
        similar_content: 0.1,
        ..without_facts_or_passages()
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
        passage_containment: 0.0,
        passage_words: 0.0,
        update_numbers: 1,
        ..without_facts_or_passages()
    }
}

/// The shipped wording rules with neither the passage rule nor any facts: no veto, no update.
fn without_facts_or_passages() -> Thresholds {
    Thresholds {
        passage_containment: 2.0,
        passage_words: f32::MAX,
        key_name_differ: u16::MAX,
        key_name_agreement: 0.0,
        name_differ: u16::MAX,
        name_agreement: 0.0,
        name_min: u16::MAX,
        name_few_agreement: -1.0,
        number_differ: u16::MAX,
        number_agreement: 0.0,
        update_numbers: u16::MAX,
        update_name_agreement: 0.0,
        similar_name_differ: u16::MAX,
        similar_number_differ: u16::MAX,
        replaced_names: u16::MAX,
        ..Thresholds::default()
    }
}

fn describe(name: &str, docs: &[Doc]) {
    let stories: HashSet<usize> = docs.iter().map(|d| d.story).collect();
    let (dup, sim) = true_counts(docs);
    let kinds: Vec<String> = Kind::ALL
        .iter()
        .map(|&k| format!("{} {}", docs.iter().filter(|d| d.kind == k).count(), k.name()))
        .collect();
    println!(
        "{name}: {} documents ({}), {} stories; true pairs: {dup} duplicate, {sim} similar",
        docs.len(),
        kinds.join(", "),
        stories.len()
    );
}

/// What a pair of documents is, for the per-kind figures: the kind of its less original
/// document for pairs of one story; a template pair, a roundup pair, a same-source pair or
/// another pair for documents of different stories.
fn pair_kind(a: &Doc, b: &Doc) -> &'static str {
    let rank = |k: Kind| match k {
        Kind::Original | Kind::Template => 0,
        Kind::Duplicate => 1,
        Kind::Rewrite => 2,
        Kind::Update => 3,
        Kind::Brief => 4,
        Kind::Roundup => 5,
    };
    if a.story == b.story {
        let k = if rank(a.kind) >= rank(b.kind) { a.kind } else { b.kind };
        return match k {
            Kind::Original | Kind::Template | Kind::Duplicate => "copy",
            other => other.name(),
        };
    }
    if a.kind == Kind::Roundup || b.kind == Kind::Roundup {
        "roundup (negative)"
    } else if a.family == b.family {
        "template (negative)"
    } else if a.source == b.source {
        "same source (negative)"
    } else {
        "other (negative)"
    }
}

/// Per kind of pair: for pairs of one story, how many there are, how many got the true relation,
/// how many another relation, and how many no link; for pairs of different stories, how many
/// were linked. Then per document: the share of briefs linked as duplicates, of updates linked as
/// similar, and of template stories linked to another story of their template.
fn report_kinds(
    docs: &[Doc],
    outcome: &dedup::Outcome,
    predicted: &HashMap<(usize, usize), Relation>,
) {
    #[derive(Default)]
    struct Tally {
        pairs: usize,
        right: usize,
        wrong_relation: usize,
        linked: usize,
        same_cluster: usize,
    }
    let cluster: Vec<&str> = outcome.assignments.iter().map(|a| a.cluster.as_str()).collect();
    let mut tallies: std::collections::BTreeMap<&str, Tally> = Default::default();
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            let kind = pair_kind(&docs[i], &docs[j]);
            let truth = evalset::truth(&docs[i], &docs[j]);
            let got = predicted.get(&(i, j)).copied();
            if truth.is_none() && got.is_none() && cluster[i] != cluster[j] {
                // Only negatives that were linked or clustered are counted, except for the kinds
                // whose denominators matter.
                if !kind.starts_with("template") && !kind.starts_with("roundup") {
                    continue;
                }
            }
            let t = tallies.entry(kind).or_default();
            t.pairs += 1;
            t.same_cluster += usize::from(cluster[i] == cluster[j]);
            match (truth, got) {
                (Some(r), Some(g)) if r == g => t.right += 1,
                (Some(_), Some(_)) => t.wrong_relation += 1,
                (None, Some(_)) => t.linked += 1,
                _ => {}
            }
        }
    }
    println!(
        "per kind of pair (one story: true relation / other relation / same cluster; different stories: linked / same cluster):"
    );
    for (kind, t) in &tallies {
        if kind.ends_with("(negative)") {
            if kind.starts_with("template") || kind.starts_with("roundup") {
                println!(
                    "  {kind:<24} {:>6} pairs: linked {} ({:.2}%), same cluster {} ({:.2}%)",
                    t.pairs,
                    t.linked,
                    100.0 * t.linked as f64 / t.pairs.max(1) as f64,
                    t.same_cluster,
                    100.0 * t.same_cluster as f64 / t.pairs.max(1) as f64
                );
            } else {
                println!("  {kind:<24} linked {}, same cluster {}", t.linked, t.same_cluster);
            }
        } else {
            println!(
                "  {kind:<24} {:>6} pairs: true relation {:.4}, other relation {:.4}, same cluster {:.4}",
                t.pairs,
                t.right as f64 / t.pairs.max(1) as f64,
                t.wrong_relation as f64 / t.pairs.max(1) as f64,
                t.same_cluster as f64 / t.pairs.max(1) as f64
            );
        }
    }
    let DocCounts {
        briefs,
        briefs_found,
        briefs_clustered,
        long_briefs,
        long_briefs_found,
        updates,
        updates_similar,
        updates_duplicate,
        templates,
        templates_linked,
        templates_clustered,
    } = doc_counts(docs, &cluster, predicted);
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "briefs: {briefs}, linked to their story's original as duplicate {:.1}%, in its cluster {:.1}%",
        pct(briefs_found, briefs),
        pct(briefs_clustered, briefs)
    );
    println!(
        "  of which {long_briefs} have at least 25 words of their own between byline and footer: linked {:.1}%; {} have fewer: linked {:.1}%",
        pct(long_briefs_found, long_briefs),
        briefs - long_briefs,
        pct(briefs_found - long_briefs_found, briefs - long_briefs)
    );
    println!(
        "updates: {updates}, linked to the original as similar {:.1}%, as duplicate {:.1}%",
        pct(updates_similar, updates),
        pct(updates_duplicate, updates)
    );
    println!(
        "template stories: {templates}, linked to another story of their template {:.1}%, in its cluster {:.1}%",
        pct(templates_linked, templates),
        pct(templates_clustered, templates)
    );
    // What the template stories' wrong links are: the other document's kind and the rule.
    let index = positions(docs.iter().map(|d| d.id.as_str()));
    let mut by_kind: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for link in &outcome.links {
        let (a, b) = ordered(&index, &link.doc, &link.of);
        let (t, other) = match (docs[a].kind, docs[b].kind) {
            (Kind::Template, _) => (a, b),
            (_, Kind::Template) => (b, a),
            _ => continue,
        };
        if docs[t].family == docs[other].family && docs[t].story != docs[other].story {
            *by_kind.entry((docs[other].kind.name(), link.method.as_str())).or_default() += 1;
        }
    }
    let listed: Vec<String> =
        by_kind.iter().map(|((kind, method), n)| format!("{kind} by {method}: {n}")).collect();
    println!("  template stories' links within their template: {}", listed.join(", "));
}

/// What happened to the documents of the kinds issue 19 sets targets for.
#[derive(Debug, Default, Clone, Copy)]
struct DocCounts {
    briefs: usize,
    /// Briefs linked to their story's original as `duplicate`.
    briefs_found: usize,
    briefs_clustered: usize,
    /// Briefs whose own text (between the byline and the footer) is at least a short
    /// paragraph's worth of words: the floor below which a shared lede must not be enough.
    long_briefs: usize,
    long_briefs_found: usize,
    updates: usize,
    /// Updates linked to their original as `similar`.
    updates_similar: usize,
    updates_duplicate: usize,
    templates: usize,
    /// Template stories linked to another story of their template.
    templates_linked: usize,
    templates_clustered: usize,
}

impl DocCounts {
    fn add(&mut self, o: &DocCounts) {
        self.briefs += o.briefs;
        self.briefs_found += o.briefs_found;
        self.briefs_clustered += o.briefs_clustered;
        self.long_briefs += o.long_briefs;
        self.long_briefs_found += o.long_briefs_found;
        self.updates += o.updates;
        self.updates_similar += o.updates_similar;
        self.updates_duplicate += o.updates_duplicate;
        self.templates += o.templates;
        self.templates_linked += o.templates_linked;
        self.templates_clustered += o.templates_clustered;
    }
}

fn doc_counts(
    docs: &[Doc],
    cluster: &[&str],
    predicted: &HashMap<(usize, usize), Relation>,
) -> DocCounts {
    let original_of: HashMap<usize, usize> = docs
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(d.kind, Kind::Original | Kind::Template))
        .map(|(i, d)| (d.story, i))
        .collect();
    let linked_to = |i: usize, j: usize| predicted.get(&(i.min(j), i.max(j))).copied();
    let mut c = DocCounts::default();
    for (i, d) in docs.iter().enumerate() {
        match d.kind {
            Kind::Brief => {
                c.briefs += 1;
                let o = original_of[&d.story];
                let found = linked_to(i, o) == Some(Relation::Duplicate);
                c.briefs_found += usize::from(found);
                c.briefs_clustered += usize::from(cluster[i] == cluster[o]);
                let paragraphs: Vec<&str> = d.text.split("\n\n").collect();
                let body = paragraphs.get(1..paragraphs.len().saturating_sub(1)).unwrap_or(&[]);
                if body.iter().map(|p| p.split_whitespace().count()).sum::<usize>() >= 25 {
                    c.long_briefs += 1;
                    c.long_briefs_found += usize::from(found);
                }
            }
            Kind::Update => {
                c.updates += 1;
                let o = original_of[&d.story];
                match linked_to(i, o) {
                    Some(Relation::Similar) => c.updates_similar += 1,
                    Some(Relation::Duplicate) => c.updates_duplicate += 1,
                    None => {}
                }
            }
            Kind::Template => {
                c.templates += 1;
                let others: Vec<usize> = (0..docs.len())
                    .filter(|&j| docs[j].family == d.family && docs[j].story != d.story)
                    .collect();
                c.templates_linked +=
                    usize::from(others.iter().any(|&j| linked_to(i, j).is_some()));
                c.templates_clustered +=
                    usize::from(others.iter().any(|&j| cluster[i] == cluster[j]));
            }
            _ => {}
        }
    }
    c
}

/// The tune and test sets of one seed, drawn from one generator in that order.
fn sets(
    [tune_bases, test_bases]: [&[&evalset::Base]; 2],
    mix: &Mix,
    seed: u64,
) -> (Vec<Doc>, Vec<Doc>) {
    let mut rng = Rng::new(seed);
    let tune_stories = evalset::stories(tune_bases, &mut rng);
    let tune = evalset::generate(&tune_stories, mix, &mut rng, "tune-");
    let test_stories = evalset::stories(test_bases, &mut rng);
    let test = evalset::generate(&test_stories, mix, &mut rng, "test-");
    (tune, test)
}

/// The shipped rules (with `DEDUP_THRESHOLDS`) on the sets of seeds 1 to `seeds`: a line per
/// seed and split, then each split pooled (`tune_only`: the tune split alone, for reading a
/// rule's curve without seeing the test split). One seed's set has 80 to 190 documents of each of
/// the kinds issue 19 sets targets for, so a figure on one seed is a few points either way of
/// what the rules do; pooled over sixteen seeds, a fraction of a point.
fn report_seeds(
    [tune_bases, test_bases]: [&[&evalset::Base]; 2],
    mix: &Mix,
    seeds: u64,
    tune_only: bool,
    config: Config,
) {
    let dedup = Deduper::new(config).expect("model");
    let mut pooled = [DocCounts::default(); 2];
    let mut scores: [Vec<[f64; 4]>; 2] = [Vec::new(), Vec::new()];
    println!(
        "| seed | split | objective | duplicate F1 | similar F1 | B-cubed F1 | template stories linked | briefs found | updates similar |"
    );
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let splits = if tune_only { 1 } else { 2 };
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    for seed in 1..=seeds {
        let (tune, test) = sets([tune_bases, test_bases], mix, seed);
        for (split, docs) in [(0, &tune), (1, &test)].into_iter().take(splits) {
            let sigs = dedup.signatures(&docs.iter().map(Doc::to_document).collect::<Vec<_>>());
            let outcome = dedup.run_signatures(&sigs);
            let predicted = links_as_predictions(docs, &outcome);
            let (dup, sim) = true_counts(docs);
            let dup_f1 = pairwise(docs, &predicted, Relation::Duplicate, dup).2;
            let sim_f1 = pairwise(docs, &predicted, Relation::Similar, sim).2;
            let b3 = bcubed(docs, &outcome).2;
            let objective = objective_of_links(docs, &outcome);
            let cluster: Vec<&str> =
                outcome.assignments.iter().map(|a| a.cluster.as_str()).collect();
            let c = doc_counts(docs, &cluster, &predicted);
            println!(
                "| {seed} | {} | {objective:.4} | {dup_f1:.4} | {sim_f1:.4} | {b3:.4} | {} of {} ({:.1}%) | {:.1}% | {:.1}% |",
                ["tune", "test"][split],
                c.templates_linked,
                c.templates,
                pct(c.templates_linked, c.templates),
                pct(c.briefs_found, c.briefs),
                pct(c.updates_similar, c.updates)
            );
            pooled[split].add(&c);
            scores[split].push([dup_f1, sim_f1, b3, objective]);
        }
    }
    for split in 0..splits {
        let c = pooled[split];
        let mean = |k: usize| scores[split].iter().map(|s| s[k]).sum::<f64>() / seeds as f64;
        let min = |k: usize| scores[split].iter().map(|s| s[k]).fold(f64::MAX, f64::min);
        println!(
            "| 1-{seeds} | {} | {:.4} | {:.4} (min {:.4}) | {:.4} | {:.4} (min {:.4}) | {} of {} ({:.2}%) | {} of {} ({:.1}%) | {} of {} ({:.1}%) |",
            ["tune", "test"][split],
            mean(3),
            mean(0),
            min(0),
            mean(1),
            mean(2),
            min(2),
            c.templates_linked,
            c.templates,
            pct(c.templates_linked, c.templates),
            c.briefs_found,
            c.briefs,
            pct(c.briefs_found, c.briefs),
            c.updates_similar,
            c.updates,
            pct(c.updates_similar, c.updates)
        );
    }
}

fn report_candidate_recall(name: &str, docs: &[Doc], pairs: &[(usize, usize, Scores)]) {
    let found: HashSet<(usize, usize)> =
        pairs.iter().map(|&(a, b, _)| (a.min(b), a.max(b))).collect();
    let (mut dup, mut dup_found, mut sim, mut sim_found) = (0, 0, 0, 0);
    let mut by_kind: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            let truth = evalset::truth(&docs[i], &docs[j]);
            let hit = usize::from(found.contains(&(i, j)));
            match truth {
                Some(Relation::Duplicate) => {
                    dup += 1;
                    dup_found += hit;
                }
                Some(Relation::Similar) => {
                    sim += 1;
                    sim_found += hit;
                }
                None => continue,
            }
            let entry = by_kind.entry(pair_kind(&docs[i], &docs[j])).or_default();
            entry.0 += 1;
            entry.1 += hit;
        }
    }
    let n = docs.len() as f64;
    let kinds: Vec<String> = by_kind
        .iter()
        .map(|(kind, (all, hit))| format!("{kind} {:.4}", *hit as f64 / (*all).max(1) as f64))
        .collect();
    println!(
        "{name}: {} candidate pairs ({:.2}% of all pairs); candidate recall: duplicate {:.4}, similar {:.4}; by kind: {}",
        pairs.len(),
        100.0 * pairs.len() as f64 / (n * (n - 1.0) / 2.0),
        dup_found as f64 / dup.max(1) as f64,
        sim_found as f64 / sim.max(1) as f64,
        kinds.join(", ")
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

/// One tunable threshold: its name, the values tried, and how to read and set it.
struct Knob {
    name: &'static str,
    values: Vec<f32>,
    get: fn(&Thresholds) -> f32,
    set: fn(&mut Thresholds, f32),
}

/// A knob of a threshold field (counts are read and set through `f32`).
macro_rules! knob {
    ($field:ident, $values:expr) => {
        Knob {
            name: stringify!($field),
            values: $values,
            get: |t| t.$field as f32,
            set: |t, v| t.$field = v as _,
        }
    };
}

#[allow(clippy::unnecessary_cast)]
fn knobs() -> Vec<Knob> {
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
    let counts = |v: &[u16]| v.iter().map(|&x| f32::from(x)).collect::<Vec<_>>();
    vec![
        knob!(duplicate_containment, steps(0.4, 0.95, 0.05)),
        knob!(duplicate_length_ratio, vec![0.0, 0.1, 0.2, 0.3, 0.4]),
        knob!(passage_containment, [steps(0.3, 0.9, 0.05), vec![off]].concat()),
        knob!(passage_words, vec![10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 80.0]),
        knob!(duplicate_cosine, vec![0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98, off]),
        knob!(duplicate_content, steps(0.3, 0.9, 0.1)),
        knob!(similar_cosine, steps(0.6, 0.95, 0.025)),
        knob!(similar_content, steps(0.05, 0.5, 0.025)),
        knob!(key_name_differ, counts(&[1, 2, 3, 4, 5, u16::MAX])),
        knob!(key_name_agreement, [steps(0.5, 0.95, 0.05), vec![1.01]].concat()),
        knob!(name_differ, counts(&[1, 2, 3, 4, 5, 6, 8, 10, u16::MAX])),
        knob!(name_min, counts(&[1, 2, 3, 4, 5, 6, 8])),
        knob!(name_few_agreement, vec![-1.0, 0.0, 0.2, 0.25, 0.34, 0.4, 0.5, 0.6]),
        knob!(name_agreement, steps(0.0, 0.9, 0.05)),
        knob!(number_differ, counts(&[1, 2, 3, 4, 5, 6, 8, 10, u16::MAX])),
        knob!(update_numbers, counts(&[1, 2, 3, u16::MAX])),
        knob!(update_number_share, vec![0.0, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1, 0.15]),
        knob!(update_name_agreement, [steps(0.0, 0.9, 0.1), vec![1.01]].concat()),
        knob!(similar_name_differ, counts(&[1, 2, 3, 4, 5, 6, u16::MAX])),
        knob!(similar_name_agreement, steps(0.0, 0.7, 0.05)),
        knob!(similar_number_differ, counts(&[1, 2, 3, 4, 5, 6, u16::MAX])),
        knob!(similar_number_agreement, steps(0.0, 0.7, 0.05)),
        knob!(number_agreement, steps(0.0, 0.9, 0.05)),
    ]
}

/// The tuning objective: duplicate F1, similar F1 and same-story F1 (either relation) of the
/// pairwise predictions: the last counts a link between different stories once more, whatever
/// its relation.
fn objective(
    docs: &[Doc],
    pairs: &[(usize, usize, Scores)],
    t: &Thresholds,
    truth: (usize, usize),
) -> f64 {
    let predicted = predict(pairs, t);
    let same_story = predicted.keys().filter(|&&(a, b)| docs[a].story == docs[b].story).count();
    let any = prf(
        same_story,
        predicted.len() - same_story,
        truth.0 + truth.1 - same_story.min(truth.0 + truth.1),
    );
    pairwise(docs, &predicted, Relation::Duplicate, truth.0).2
        + pairwise(docs, &predicted, Relation::Similar, truth.1).2
        + any.2
}

/// The tuning objective of a pipeline run's links.
fn objective_of_links(docs: &[Doc], outcome: &dedup::Outcome) -> f64 {
    let predicted = links_as_predictions(docs, outcome);
    let truth = true_counts(docs);
    let any = pairwise_any(docs, outcome);
    pairwise(docs, &predicted, Relation::Duplicate, truth.0).2
        + pairwise(docs, &predicted, Relation::Similar, truth.1).2
        + any.2
}

/// The link-conflict rule: the objective on tune by margin (the pipeline's links, since the rule
/// judges links together, not pairs alone), then the test split without it and with it.
fn report_conflicts(
    tune: &[Doc],
    tune_sigs: &[Signature],
    test: &[Doc],
    test_sigs: &[Signature],
    base: Config,
) {
    let with = |margin: Option<u16>| {
        let thresholds = Thresholds { conflict_margin: margin, ..base.thresholds };
        Deduper::new(Config { thresholds, ..base }).expect("model")
    };
    let mut line = "tune: objective by conflict_margin: ".to_owned();
    for margin in [None, Some(0), Some(1), Some(2), Some(3), Some(4)] {
        let outcome = with(margin).run_signatures(tune_sigs);
        let name = margin.map_or("off".to_owned(), |m| m.to_string());
        line.push_str(&format!(
            " {name}:{:.4} (B-cubed {:.4}, conflicts {})",
            objective_of_links(tune, &outcome),
            bcubed(tune, &outcome).2,
            outcome.stats.conflicts
        ));
    }
    println!("{line}");
    for margin in [None, Thresholds::default().conflict_margin] {
        let name = margin.map_or("off".to_owned(), |m| format!("margin {m}"));
        println!("\n== test split, link conflicts {name} ==");
        let outcome = with(margin).run_signatures(test_sigs);
        println!("conflicts: {}", outcome.stats.conflicts);
        report(test, &outcome);
    }
}

/// Coordinate descent from the shipped defaults over every threshold (three rounds), then each
/// threshold's curve around the optimum, printed so that plateaus, not points, can be read.
fn tune_thresholds(docs: &[Doc], pairs: &[(usize, usize, Scores)]) -> Thresholds {
    let truth = true_counts(docs);
    let knobs = knobs();
    let mut best = Thresholds::default();
    let mut best_score = objective(docs, pairs, &best, truth);
    for round in 0..3 {
        for knob in &knobs {
            for &v in &knob.values {
                let mut t = best;
                (knob.set)(&mut t, v);
                let f = objective(docs, pairs, &t, truth);
                if f > best_score + 1e-9 {
                    best_score = f;
                    best = t;
                }
            }
        }
        println!(
            "tune: round {round}: duplicate F1 + similar F1 + same-story F1 = {best_score:.4}"
        );
    }
    println!("tune: best {best:?}");
    for knob in &knobs {
        let mut line = format!("tune: objective by {}:", knob.name);
        for &v in &knob.values {
            let mut t = best;
            (knob.set)(&mut t, v);
            let mark = if (knob.get)(&best) == v { "*" } else { "" };
            line.push_str(&format!(" {v}:{:.4}{mark}", objective(docs, pairs, &t, truth)));
        }
        println!("{line}");
    }
    let predicted = predict(pairs, &best);
    let d = pairwise(docs, &predicted, Relation::Duplicate, truth.0);
    let s = pairwise(docs, &predicted, Relation::Similar, truth.1);
    println!("tune: duplicate F1 {:.4}, similar F1 {:.4}", d.2, s.2);
    best
}

/// Each document's position, by id.
fn positions<'d>(ids: impl Iterator<Item = &'d str>) -> HashMap<&'d str, usize> {
    ids.enumerate().map(|(i, id)| (id, i)).collect()
}

/// The positions of two documents, the smaller first.
fn ordered(index: &HashMap<&str, usize>, doc: &str, of: &str) -> (usize, usize) {
    let (a, b) = (index[doc], index[of]);
    (a.min(b), a.max(b))
}

fn links_as_predictions(
    docs: &[Doc],
    outcome: &dedup::Outcome,
) -> HashMap<(usize, usize), Relation> {
    let index = positions(docs.iter().map(|d| d.id.as_str()));
    outcome.links.iter().map(|l| (ordered(&index, &l.doc, &l.of), l.relation)).collect()
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
    report_kinds(docs, outcome, &predicted);
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

/// Prints the errors of one kind of pair on the tune split (never the test split), with the
/// scores, the explanation and each side's facts: for reading what the rules get wrong.
fn show_errors(kind: &str, docs: &[Doc], sigs: &[Signature], dedup: &Deduper) {
    let outcome = dedup.run_signatures(sigs);
    let predicted = links_as_predictions(docs, &outcome);
    let explanation: HashMap<(usize, usize), String> =
        {
            let index = positions(docs.iter().map(|d| d.id.as_str()));
            outcome
                .links
                .iter()
                .map(|l| (ordered(&index, &l.doc, &l.of), l.explanation.clone()))
                .chain(outcome.rejected.iter().map(|r| {
                    (ordered(&index, &r.doc, &r.of), format!("REJECTED {}", r.explanation))
                }))
                .collect()
        };
    let mut shown = 0;
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            if pair_kind(&docs[i], &docs[j]) != kind {
                continue;
            }
            let truth = evalset::truth(&docs[i], &docs[j]);
            let got = predicted.get(&(i, j)).copied();
            if truth == got && std::env::var_os("SHOW_ALL").is_none() {
                continue;
            }
            shown += 1;
            if shown > std::env::var("SHOW").ok().and_then(|v| v.parse().ok()).unwrap_or(25) {
                continue;
            }
            let all = dedup::scores(&sigs[i], &sigs[j]);
            println!(
                "--- {} ({}) vs {} ({}): truth {truth:?}, got {got:?}",
                docs[i].id,
                docs[i].kind.name(),
                docs[j].id,
                docs[j].kind.name()
            );
            println!("    {}", explanation.get(&(i, j)).map_or("no link", String::as_str));
            println!("    {all:?}");
            print_facts(docs, sigs, [i, j]);
        }
    }
    println!("{shown} errors of kind {kind}");
}

/// Each document's word count, names and numbers, one line each.
fn print_facts(docs: &[Doc], sigs: &[Signature], which: [usize; 2]) {
    for k in which {
        println!(
            "    {} words {}: names {:?} numbers {:?}",
            docs[k].id,
            sigs[k].words,
            sigs[k].facts.names(),
            sigs[k].facts.numbers()
        );
    }
}

/// One tune pair's scores, verdict and facts, by the documents' ids.
fn show_pair(docs: &[Doc], sigs: &[Signature], a: &str, b: &str) {
    let index = positions(docs.iter().map(|d| d.id.as_str()));
    let (i, j) = (index[a], index[b]);
    let s = dedup::scores(&sigs[i], &sigs[j]);
    println!(
        "{a} ({}) vs {b} ({}): truth {:?}",
        docs[i].kind.name(),
        docs[j].kind.name(),
        evalset::truth(&docs[i], &docs[j])
    );
    println!("    verdict {:?}", Thresholds::default().verdict(&s));
    let alone = Deduper::new(Config { threads: 1, ..Config::default() })
        .expect("model")
        .run_signatures(&[sigs[i].clone(), sigs[j].clone()]);
    for l in &alone.links {
        println!("    link: {}", l.explanation);
    }
    for r in &alone.rejected {
        println!("    not linked: {}", r.explanation);
    }
    println!("    {s:?}");
    print_facts(docs, sigs, [i, j]);
    if std::env::var_os("SHOW_TEXT").is_some() {
        for k in [i, j] {
            println!("===== {}\n{}\n{}", docs[k].id, docs[k].title, docs[k].text);
        }
    }
}

/// Every link the conflict rule drops on the tune split (never the test split): the link's kind and
/// truth, the hub, its rival and whether the rival and the link's other end (the "twins") are
/// truly different stories, with the explanation.
fn list_conflicts(docs: &[Doc], sigs: &[Signature], dedup: &Deduper) {
    let outcome = dedup.run_signatures(sigs);
    let index = positions(docs.iter().map(|d| d.id.as_str()));
    let mut tally: std::collections::BTreeMap<String, usize> = Default::default();
    for r in outcome.rejected.iter().filter(|r| r.veto == dedup::Veto::Conflict) {
        let (a, b) = (index[r.doc.as_str()], index[r.of.as_str()]);
        let text = r.explanation.split("; dropped: conflicts with the link of story ").nth(1);
        let Some(rest) = text else { continue };
        let mut ids = rest.split(' ');
        let hub = ids.next().unwrap_or_default();
        let rival = ids.nth(2).unwrap_or_default();
        let (h, v) = (index[hub], index[rival]);
        let partner = if h == a { b } else { a };
        let truth = evalset::truth(&docs[a], &docs[b]);
        let twins_truth = evalset::truth(&docs[partner], &docs[v]);
        let rival_truth = evalset::truth(&docs[h], &docs[v]);
        let line = format!(
            "link {} ({truth:?}) hub {} partner {} rival {} (hub-rival {rival_truth:?}, twins {twins_truth:?})",
            pair_kind(&docs[a], &docs[b]),
            docs[h].kind.name(),
            docs[partner].kind.name(),
            docs[v].kind.name(),
        );
        let twins = dedup::scores(&sigs[partner], &sigs[v]);
        let t = Thresholds::default();
        let line = format!("{line} twins by {:?}", t.verdict(&twins));
        *tally.entry(line.clone()).or_default() += 1;
        println!("--- {} vs {}: {line}\n    {}", docs[a].id, docs[b].id, r.explanation);
        let brief = |x: &Scores| {
            format!(
                "containment {:.3} passage {:.3} shared words {:.0} cosine {:.3} content {:.3} names {:?} numbers {:?}",
                x.containment,
                x.passage,
                x.shared_words,
                x.cosine,
                x.content_jaccard,
                x.names,
                x.numbers
            )
        };
        println!("    hub-partner {}", brief(&dedup::scores(&sigs[h], &sigs[partner])));
        println!("    hub-rival   {}", brief(&dedup::scores(&sigs[h], &sigs[v])));
        println!("    twins       {}", brief(&twins));
    }
    for (line, n) in tally {
        println!("{n:>4} {line}");
    }
}

/// Per kind of pair, among the tune split's candidate pairs whose wording matches a shipped rule:
/// how many names and numbers differ on both sides, and the names' share, as histograms.
fn fact_histograms(docs: &[Doc], sigs: &[Signature], pairs: &[(usize, usize, Scores)]) {
    let t = Thresholds::default();
    let mut by_kind: std::collections::BTreeMap<&str, Vec<&Scores>> = Default::default();
    let mut dump = String::new();
    for (a, b, s) in pairs {
        if let Some(method) = t.wording(s) {
            let kind = pair_kind(&docs[*a], &docs[*b]);
            by_kind.entry(kind).or_default().push(s);
            let ag = |g: &dedup::Agreement| {
                format!("{},{},{},{}", g.first, g.first_found, g.second, g.second_found)
            };
            let whole = |numbers: bool, least: u16| {
                let all = dedup::facts::Span::ALL;
                dedup::facts::agreement(&sigs[*a].facts, all, &sigs[*b].facts, all, numbers, least)
            };
            dump.push_str(&format!(
                "{kind}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{}\t{}\t{}\t{}\t{}\n",
                method.as_str(),
                ag(&s.names),
                ag(&s.key_names),
                ag(&s.numbers),
                s.containment,
                s.passage,
                s.cosine,
                s.content_jaccard,
                s.length_ratio,
                ag(&whole(false, 1)),
                ag(&whole(false, 2)),
                ag(&whole(true, 1)),
                sigs[*a].words,
                sigs[*b].words
            ));
        }
    }
    if let Ok(path) = std::env::var("DEDUP_EVAL_DUMP") {
        std::fs::write(path, dump).expect("dump");
    }
    println!(
        "facts of wording-matched tune pairs (names differ 0,1,2,3,4,5,6-9,10+ | names share <.3,<.5,<.7,<.9,>=.9 | numbers differ 0,1,2,3,4,5,6-9,10+ | key names differ | key names share):"
    );
    for (kind, scores) in by_kind {
        let bucket = |d: u16| match d {
            0..=5 => d as usize,
            6..=9 => 6,
            _ => 7,
        };
        let mut nd = [0; 8];
        let mut ns = [0; 5];
        let mut md = [0; 8];
        let mut kd = [0; 8];
        let mut ks = [0; 5];
        let share_bucket = |share: f32| {
            if share < 0.3 {
                0
            } else if share < 0.5 {
                1
            } else if share < 0.7 {
                2
            } else if share < 0.9 {
                3
            } else {
                4
            }
        };
        for s in &scores {
            nd[bucket(s.names.differ())] += 1;
            md[bucket(s.numbers.differ())] += 1;
            kd[bucket(s.key_names.differ())] += 1;
            ns[share_bucket(s.names.share())] += 1;
            ks[share_bucket(s.key_names.share())] += 1;
        }
        println!("  {kind:<24} {:>5}: {nd:?} | {ns:?} | {md:?} | {kd:?} | {ks:?}", scores.len());
    }
}

/// Every tune candidate pair whose wording matches a shipped rule, one tab-separated line each:
/// the two ids and kinds, the kind of pair, the truth, the shipped verdict, then every score by
/// name (`Scores::fields`), for reading a rule's effect on the pairs before building it.
fn dump_pairs(path: &str, docs: &[Doc], pairs: &[(usize, usize, Scores)]) {
    let t = Thresholds::default();
    let mut out = String::new();
    for (a, b, s) in pairs {
        let Some(method) = t.wording(s) else { continue };
        let (x, y) = (&docs[*a], &docs[*b]);
        let fields: Vec<String> =
            s.fields().into_iter().map(|(name, value)| format!("{name}={value}")).collect();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{:?}\t{}\t{:?}\t{}\n",
            x.id,
            y.id,
            x.kind.name(),
            y.kind.name(),
            pair_kind(x, y),
            evalset::truth(x, y),
            method.as_str(),
            t.verdict(s),
            fields.join(" ")
        ));
    }
    std::fs::write(path, out).expect("dump");
}
