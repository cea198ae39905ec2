//! Quality of the shipped embedder on the synthetic pairs of `dedup/tools/eval_pairs.py`.
//!
//! ```text
//! python3 dedup/tools/eval_corpus.py ../shared/data > /tmp/paragraphs.jsonl
//! python3 dedup/tools/eval_pairs.py /tmp/paragraphs.jsonl > /tmp/pairs.jsonl
//! cargo run --release -p dedup --example embed_eval -- /tmp/pairs.jsonl
//! ```
//!
//! Prints the ROC AUC of edited copies against random paragraphs and against other paragraphs
//! of the same document, the mean cosine of each kind of pair, and for the hand-written
//! translations the mean cosine and the share whose nearest candidate is the translation. Word
//! Jaccard (lowercased whitespace tokens) is shown beside the embedding for comparison.
#![allow(clippy::print_stdout)]

use std::collections::{BTreeMap, HashSet};

use dedup::embed::{Embedder, cosine, default_model};

fn main() {
    let path = std::env::args().nth(1).expect("usage: embed_eval PAIRS.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let model = default_model().expect("shipped model");
    let mut by_kind: BTreeMap<String, Vec<(f32, f32, String, String)>> = BTreeMap::new();
    for line in text.lines() {
        let pair: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let (a, b) =
            (pair["a"].as_str().unwrap_or_default(), pair["b"].as_str().unwrap_or_default());
        let score = cosine(&model.embed(a), &model.embed(b));
        by_kind.entry(pair["kind"].as_str().unwrap_or_default().into()).or_default().push((
            score,
            jaccard(a, b),
            a.into(),
            b.into(),
        ));
    }
    let column = |kind: &str, pick: fn(&(f32, f32, String, String)) -> f32| -> Vec<f32> {
        by_kind.get(kind).map(|rows| rows.iter().map(pick).collect()).unwrap_or_default()
    };
    println!("kind | pairs | mean cosine | mean word Jaccard");
    println!("--- | --- | --- | ---");
    for (kind, rows) in &by_kind {
        let n = rows.len() as f32;
        let cos = rows.iter().map(|r| r.0).sum::<f32>() / n;
        let jac = rows.iter().map(|r| r.1).sum::<f32>() / n;
        println!("{kind} | {} | {cos:.3} | {jac:.3}", rows.len());
    }
    println!();
    for negatives in ["random", "same_doc"] {
        println!(
            "ROC AUC edited vs {negatives}: embedding {:.4}, word Jaccard {:.4}",
            auc(&column("edited", |r| r.0), &column(negatives, |r| r.0)),
            auc(&column("edited", |r| r.1), &column(negatives, |r| r.1)),
        );
    }
    // Translations: is each English sentence nearest to its own translation?
    let (mut hits, mut total) = (0, 0);
    for (kind, rows) in by_kind.iter().filter(|(k, _)| k.starts_with("translation_")) {
        let english: Vec<_> = rows.iter().map(|r| model.embed(&r.2)).collect();
        let foreign: Vec<_> = rows.iter().map(|r| model.embed(&r.3)).collect();
        let mut kind_hits = 0;
        for (i, e) in english.iter().enumerate() {
            let best = (0..foreign.len())
                .max_by(|&x, &y| cosine(e, &foreign[x]).total_cmp(&cosine(e, &foreign[y])))
                .unwrap_or(usize::MAX);
            kind_hits += usize::from(best == i);
        }
        let others: Vec<f32> = english
            .iter()
            .enumerate()
            .flat_map(|(i, e)| {
                foreign.iter().enumerate().filter(move |(j, _)| *j != i).map(|(_, f)| cosine(e, f))
            })
            .collect();
        println!(
            "{kind}: translation is nearest {kind_hits}/{}, mean cosine of non-translations {:.3}",
            rows.len(),
            others.iter().sum::<f32>() / others.len() as f32
        );
        hits += kind_hits;
        total += rows.len();
    }
    println!("translations nearest overall: {hits}/{total}");
}

fn jaccard(a: &str, b: &str) -> f32 {
    let words = |s: &str| s.split_whitespace().map(str::to_lowercase).collect::<HashSet<_>>();
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 { 0.0 } else { a.intersection(&b).count() as f32 / union as f32 }
}

/// ROC AUC: the chance that a random positive scores above a random negative (ties count half).
fn auc(positives: &[f32], negatives: &[f32]) -> f64 {
    let mut wins = 0.0;
    for p in positives {
        for n in negatives {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (positives.len() * negatives.len()) as f64
}
