//! Training: the averaged perceptron, in memory and deterministic.
//!
//! Each epoch visits the sentences in an order shuffled from a fixed seed and tags each one
//! greedily, left to right, with the current weights and its own earlier predictions as the
//! history; on a wrong tag the gold tag's features gain 1 and the predicted tag's lose 1. The
//! model keeps the average of every weight over all steps (kept lazily, with integer
//! arithmetic, so the result is the same on every machine), scaled and rounded to `i16`.

use super::features::{self, TokenInfo};
use super::model::{self, Model};
use super::upos::Upos;

const TAGS: usize = Upos::COUNT;

/// A sentence with its gold tags, one per word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaggedSentence {
    /// The words, as tokenised.
    pub words: Vec<String>,
    /// The gold tag of each word.
    pub tags: Vec<Upos>,
}

/// How to train.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// The ISO 639-1 code recorded in the model.
    pub language: String,
    /// What the model is trained on, recorded in the model.
    pub description: String,
    /// The weight table has `2^bits` rows.
    pub bits: u8,
    /// Passes over the training sentences.
    pub epochs: u32,
    /// The seed of the shuffles.
    pub seed: u64,
    /// The largest stored weight magnitude: averaged weights are scaled so the largest becomes
    /// this.
    pub weight_range: i16,
}

/// What one epoch did, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Tokens tagged correctly with the weights as they were while training.
    pub correct: u64,
    /// Tokens seen.
    pub total: u64,
}

/// One training sentence with its features computed once.
struct Prepared {
    infos: Vec<TokenInfo>,
    /// The static features' rows, `STATIC_FEATURES` per token.
    rows: Vec<u32>,
    gold: Vec<Upos>,
}

struct Weights {
    bits: u8,
    current: Vec<i32>,
    total: Vec<i64>,
    stamp: Vec<u32>,
    now: u32,
}

impl Weights {
    fn row(&self, hash: u64) -> u32 {
        (hash >> (64 - u32::from(self.bits))) as u32
    }

    fn add_scores(&self, scores: &mut [i64; TAGS], row: u32) {
        let at = row as usize * TAGS;
        for (score, weight) in scores.iter_mut().zip(&self.current[at..at + TAGS]) {
            *score += i64::from(*weight);
        }
    }

    fn update(&mut self, row: u32, tag: Upos, delta: i32) {
        let at = row as usize * TAGS + tag.index();
        self.total[at] += i64::from(self.now - self.stamp[at]) * i64::from(self.current[at]);
        self.stamp[at] = self.now;
        self.current[at] += delta;
    }

    fn averaged(&self) -> Vec<f64> {
        let steps = f64::from(self.now.max(1));
        (0..self.current.len())
            .map(|at| {
                let total = self.total[at]
                    + i64::from(self.now - self.stamp[at]) * i64::from(self.current[at]);
                total as f64 / steps
            })
            .collect()
    }
}

/// Trains a model on `sentences`, calling `progress` after every epoch.
///
/// The same sentences and configuration always give the same model, byte for byte.
pub fn train(
    config: &TrainConfig,
    sentences: &[TaggedSentence],
    mut progress: impl FnMut(EpochReport),
) -> Model {
    assert!((8..=24).contains(&config.bits), "bits must be in 8..=24");
    let size = TAGS << config.bits;
    let mut weights = Weights {
        bits: config.bits,
        current: vec![0; size],
        total: vec![0; size],
        stamp: vec![0; size],
        now: 0,
    };
    let prepared: Vec<Prepared> = sentences
        .iter()
        .filter(|sentence| {
            !sentence.words.is_empty() && sentence.words.len() == sentence.tags.len()
        })
        .map(|sentence| {
            let infos: Vec<TokenInfo> =
                sentence.words.iter().map(|word| TokenInfo::new(word)).collect();
            let rows = (0..infos.len())
                .flat_map(|i| features::static_features(&infos, i))
                .map(|hash| weights.row(hash))
                .collect();
            Prepared { infos, rows, gold: sentence.tags.clone() }
        })
        .collect();
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    let mut rng = SplitMix64(config.seed);
    let mut predicted = Vec::new();
    for epoch in 1..=config.epochs {
        shuffle(&mut order, &mut rng);
        let (mut correct, mut total) = (0, 0);
        for &s in &order {
            let sentence = &prepared[s];
            predicted.clear();
            for i in 0..sentence.gold.len() {
                let statics = &sentence.rows
                    [i * features::STATIC_FEATURES..(i + 1) * features::STATIC_FEATURES];
                let prev = i.checked_sub(1).map(|j| predicted[j]);
                let prev2 = i.checked_sub(2).map(|j| predicted[j]);
                let history = features::history_features(&sentence.infos[i], prev, prev2)
                    .map(|hash| weights.row(hash));
                let mut scores = [0_i64; TAGS];
                for &row in statics.iter().chain(&history) {
                    weights.add_scores(&mut scores, row);
                }
                let guess = model::best(&scores);
                let gold = sentence.gold[i];
                weights.now += 1;
                if guess != gold {
                    for &row in statics.iter().chain(&history) {
                        weights.update(row, gold, 1);
                        weights.update(row, guess, -1);
                    }
                } else {
                    correct += 1;
                }
                total += 1;
                predicted.push(guess);
            }
        }
        progress(EpochReport { epoch, correct, total });
    }
    let averaged = weights.averaged();
    let largest = averaged.iter().fold(0.0_f64, |max, w| max.max(w.abs()));
    let scale = if largest > 0.0 { f64::from(config.weight_range) / largest } else { 1.0 };
    let stored = averaged.iter().map(|w| (w * scale).round() as i16).collect();
    Model::new(config.bits, scale as f32, &config.language, &config.description, stored)
}

/// SplitMix64: a small, fixed pseudo-random sequence for shuffling.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        features::fmix(self.0)
    }
}

/// Fisher–Yates.
fn shuffle(items: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}
