//! Training: the averaged perceptron, in memory and deterministic.
//!
//! Each epoch visits the sentences in an order shuffled from a fixed seed and tags each one
//! greedily, left to right, with the current weights and its own earlier predictions as the
//! history; on a wrong tag the gold tag's features gain 1 and the predicted tag's lose 1. The
//! model keeps the average of every weight over all steps (kept lazily, with integer
//! arithmetic, so the result is the same on every machine), scaled and rounded to `i8`.

use super::features::ANALOGIES;
use super::features::{self, TokenInfo};
use super::lexicon::{self, Counts, Lexicon};
use super::model::{self, Analyser, Model};
use super::upos::{Upos, is_content};

const TAGS: usize = Upos::COUNT;

/// A sentence with its gold tags, one per word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaggedSentence {
    /// The words, as tokenised.
    pub words: Vec<String>,
    /// The gold tag of each word.
    pub tags: Vec<Upos>,
    /// A hint per word from another analyser (Chinese: jieba's tag), seen by the shape
    /// features; empty when there are none (every language but Chinese).
    pub hints: Vec<String>,
}

impl TaggedSentence {
    /// The token information of the words, with their hints if they have them.
    fn infos(&self) -> Vec<TokenInfo> {
        if self.hints.len() == self.words.len() {
            self.words.iter().zip(&self.hints).map(|(w, h)| TokenInfo::with_hint(w, h)).collect()
        } else {
            self.words.iter().map(|word| TokenInfo::new(word)).collect()
        }
    }

    /// The hints as string slices, if every word has one.
    fn hint_slices(&self) -> Option<Vec<&str>> {
        (self.hints.len() == self.words.len())
            .then(|| self.hints.iter().map(String::as_str).collect())
    }
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
    /// Per mille of feature occurrences left out at each training step, at random.
    pub dropout: u64,
    /// Per mille of tokens whose own word features are all left out at a training step, at
    /// random, to learn how to tag words never seen.
    pub word_dropout: u64,
    /// Whether to train a second pass that also sees the first pass's tags ahead.
    pub second_pass: bool,
    /// Whether to choose a content bias that evens the content class's precision and recall.
    pub balance_content: bool,
    /// Multiword tokens of the training data (French `du`, Portuguese `do`), lowercase, with
    /// the tag a single token of that form should get (see `docs/tagger.md`) and how often they
    /// occur. Treebanks split them into words, so the model never sees them; raw text does not.
    /// Forms seen as a multiword token at least ten times as often as as a word are entered in
    /// the lexicon as sure of their tag.
    pub contractions: Vec<(String, Upos, u32)>,
    /// The analyser whose hints every sentence without hints of its own is trained with, and
    /// which the model then computes for every token it tags (Turkish: its root lexicon).
    pub analyser: Analyser,
}

/// What one epoch did, for progress reports.
#[derive(Debug, Clone)]
pub struct EpochReport {
    /// What is being trained: the first pass, a jackknife part, the second pass.
    pub stage: String,
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
    /// The analogy features each token would have if it were unknown, for word dropout.
    unknown: Vec<[u64; ANALOGIES]>,
    statics: Vec<[u64; features::STATIC_FEATURES]>,
    gold: Vec<Upos>,
    /// Whether the sentence is from the auxiliary treebank (see [`train_adapted`]).
    auxiliary: bool,
}

/// Computes the features of `sentences` and `auxiliary` that do not depend on tags; returns them
/// with the lexicon, which counts `sentences` alone. Each token of `sentences` gets its lexicon
/// class as if its own occurrence had not been counted, each of `auxiliary` the lexicon's class
/// of its word, as new text would.
fn prepare(
    sentences: &[&TaggedSentence],
    auxiliary: &[&TaggedSentence],
) -> (Vec<Prepared>, Lexicon, Counts) {
    let mut counts = Counts::default();
    let mut all: Vec<Vec<TokenInfo>> = Vec::with_capacity(sentences.len() + auxiliary.len());
    for sentence in sentences {
        let infos = sentence.infos();
        for (info, &tag) in infos.iter().zip(&sentence.tags) {
            counts.add(info.lower(), tag);
        }
        all.push(infos);
    }
    all.extend(auxiliary.iter().map(|sentence| sentence.infos()));
    let lexicon = counts.lexicon();
    let prepared = sentences
        .iter()
        .map(|sentence| (sentence, false))
        .chain(auxiliary.iter().map(|sentence| (sentence, true)))
        .zip(all)
        .map(|((sentence, auxiliary), mut infos)| {
            let mut unknown = Vec::with_capacity(infos.len());
            for ((info, &tag), word) in infos.iter_mut().zip(&sentence.tags).zip(&sentence.words) {
                info.class = if auxiliary {
                    lexicon.class(info.lower())
                } else {
                    counts.class_without(info.lower(), tag)
                };
                let analogies = features::analogies(word, |word| lexicon.class(word));
                if info.class == lexicon::UNKNOWN {
                    info.analogies = analogies;
                }
                unknown.push(features::analogy_features(&analogies));
            }
            let statics = (0..infos.len()).map(|i| features::static_features(&infos, i)).collect();
            Prepared { infos, unknown, statics, gold: sentence.tags.clone(), auxiliary }
        })
        .collect();
    (prepared, lexicon, counts)
}

/// The weights while training: current values and the lazily kept sums for the average.
///
/// With an auxiliary treebank there are three tables of `TAGS << bits` weights each (shared,
/// the target treebank's own, the auxiliary treebank's own); otherwise one.
struct Learner {
    bits: u8,
    tables: usize,
    current: Vec<i32>,
    total: Vec<i64>,
    stamp: Vec<u32>,
    now: u32,
}

impl Learner {
    fn new(bits: u8, tables: usize) -> Learner {
        let size = (TAGS << bits) * tables;
        Learner {
            bits,
            tables,
            current: vec![0; size],
            total: vec![0; size],
            stamp: vec![0; size],
            now: 0,
        }
    }

    /// The first weight of the row of `hash` in table `table`.
    #[inline]
    fn row(&self, hash: u64, table: usize) -> usize {
        (table << self.bits) * TAGS + (hash >> (64 - u32::from(self.bits))) as usize * TAGS
    }

    /// The tables a sentence is scored and updated with: the shared one and, with an auxiliary
    /// treebank, the sentence's treebank's own.
    fn tables_of(&self, auxiliary: bool) -> &'static [usize] {
        match (self.tables, auxiliary) {
            (1, _) => &[0],
            (_, false) => &[0, 1],
            (_, true) => &[0, 2],
        }
    }

    #[inline]
    fn add(&self, scores: &mut [i32; TAGS], hash: u64, tables: &[usize]) {
        for &table in tables {
            let at = self.row(hash, table);
            for (score, weight) in scores.iter_mut().zip(&self.current[at..at + TAGS]) {
                *score += *weight;
            }
        }
    }

    fn update(&mut self, hash: u64, tag: Upos, delta: i32, tables: &[usize]) {
        for &table in tables {
            let at = self.row(hash, table) + tag.index();
            self.total[at] += i64::from(self.now - self.stamp[at]) * i64::from(self.current[at]);
            self.stamp[at] = self.now;
            self.current[at] += delta;
        }
    }

    /// The averaged weights the model keeps: the shared table's, plus the target treebank's
    /// own when there is an auxiliary treebank.
    fn averaged(&self) -> Vec<f64> {
        let steps = f64::from(self.now.max(1));
        let size = TAGS << self.bits;
        let average = |at: usize| {
            let total =
                self.total[at] + i64::from(self.now - self.stamp[at]) * i64::from(self.current[at]);
            total as f64 / steps
        };
        (0..size)
            .map(|at| if self.tables == 1 { average(at) } else { average(at) + average(size + at) })
            .collect()
    }
}

/// Trains one pass's weights; the second pass (`guesses` given) also sees the first pass's tags.
fn train_pass(
    config: &TrainConfig,
    prepared: &[Prepared],
    guesses: Option<&[Vec<Upos>]>,
    stage: &str,
    progress: &mut dyn FnMut(EpochReport),
) -> Vec<f64> {
    let adapted = prepared.iter().any(|sentence| sentence.auxiliary);
    let mut learner = Learner::new(config.bits, if adapted { 3 } else { 1 });
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    let mut rng = SplitMix64(config.seed);
    let mut predicted = Vec::new();
    let identity = |k: usize| {
        k < features::IDENTITY_STATIC
            || (features::STATIC_FEATURES..features::STATIC_FEATURES + features::IDENTITY_DYNAMIC)
                .contains(&k)
    };
    for epoch in 1..=config.epochs {
        shuffle(&mut order, &mut rng);
        let (mut correct, mut total) = (0, 0);
        for &s in &order {
            let sentence = &prepared[s];
            // Auxiliary sentences have no first-pass tags: the second pass sees none for them.
            let guesses = guesses
                .map(|guesses| guesses[s].as_slice())
                .filter(|guesses| guesses.len() == sentence.gold.len());
            let tables = learner.tables_of(sentence.auxiliary);
            predicted.clear();
            for (i, statics) in sentence.statics.iter().enumerate() {
                if let Some(tag) = lexicon::sure(sentence.infos[i].class) {
                    correct += u64::from(tag == sentence.gold[i]);
                    total += 1;
                    predicted.push(tag);
                    continue;
                }
                let prev = i.checked_sub(1).map(|j| predicted[j]);
                let prev2 = i.checked_sub(2).map(|j| predicted[j]);
                let (dynamic, count) =
                    features::dynamic_features(&sentence.infos, i, prev, prev2, guesses);
                let unknown = rng.next() % 1000 < config.word_dropout;
                let mut active = [0_u64; features::MAX_FEATURES];
                let mut n = 0;
                for (k, &hash) in statics.iter().chain(&dynamic[..count]).enumerate() {
                    if (unknown && identity(k)) || rng.next() % 1000 < config.dropout {
                        continue;
                    }
                    let hash = if unknown && features::ANALOGY_FEATURES.contains(&k) {
                        sentence.unknown[i][k - features::ANALOGY_FEATURES.start]
                    } else {
                        hash
                    };
                    active[n] = hash;
                    n += 1;
                }
                let active = &active[..n];
                let mut scores = [0_i32; TAGS];
                for &hash in active {
                    learner.add(&mut scores, hash, tables);
                }
                let guess = model::best(&scores);
                let gold = sentence.gold[i];
                learner.now += 1;
                if guess == gold {
                    correct += 1;
                } else {
                    for &hash in active {
                        learner.update(hash, gold, 1, tables);
                        learner.update(hash, guess, -1, tables);
                    }
                }
                total += 1;
                predicted.push(guess);
            }
        }
        progress(EpochReport { stage: stage.to_owned(), epoch, correct, total });
    }
    learner.averaged()
}

/// Scales averaged weights so the largest magnitude becomes 127, and rounds them to `i8`.
fn quantize(weights: &[f64]) -> (Vec<i8>, f64) {
    let largest = weights.iter().fold(0.0_f64, |max, w| max.max(w.abs()));
    let scale = if largest > 0.0 { 127.0 / largest } else { 1.0 };
    (weights.iter().map(|w| (w * scale).round() as i8).collect(), scale)
}

/// Trains a model on `sentences`, calling `progress` after every epoch.
///
/// With `config.balance_content` or `config.second_pass`, the first pass is also trained
/// `JACKKNIFE` times, each time without one of that many interleaved parts of the sentences,
/// to tag that part as if it were unseen text. Those tags teach the second pass what first-pass
/// tags are worth, and their scores choose the content bias: the amount taken off the content
/// tags' scores that makes the content class's precision and recall on them most even.
///
/// The same sentences and configuration always give the same model, byte for byte.
pub fn train(
    config: &TrainConfig,
    sentences: &[TaggedSentence],
    progress: impl FnMut(EpochReport),
) -> Model {
    train_adapted(config, sentences, &[], progress)
}

/// Trains a model on `sentences` as [`train`] does, with `auxiliary` sentences from another
/// treebank annotated in other conventions, by feature augmentation (Daumé III 2007,
/// "Frustratingly easy domain adaptation"): every weight has a shared copy and one per
/// treebank, a sentence is scored with the shared weights plus its own treebank's, and an update
/// changes both. What the treebanks agree on is learned in the shared weights from both; where
/// they disagree, the treebanks' own weights take the difference. The model keeps the shared
/// weights plus those of `sentences`' treebank, so it is the size of any other and tags as
/// `sentences` are tagged.
///
/// The lexicon, the contractions and the content bias come from `sentences` alone (the
/// jackknife leaves out parts of `sentences` and always trains with all of `auxiliary`). The
/// auxiliary sentences get the analyser's hints as the others do. Without auxiliary sentences
/// this is [`train`], byte for byte.
pub fn train_adapted(
    config: &TrainConfig,
    sentences: &[TaggedSentence],
    auxiliary: &[TaggedSentence],
    mut progress: impl FnMut(EpochReport),
) -> Model {
    assert!((8..=24).contains(&config.bits), "bits must be in 8..=24");
    // Each sentence with the analyser's hints if it has none of its own, and only those whose
    // words, tags and hints agree.
    let usable = |sentences: &[TaggedSentence]| -> Vec<TaggedSentence> {
        sentences
            .iter()
            .map(|sentence| {
                let mut sentence = sentence.clone();
                if sentence.hints.is_empty() && config.analyser != Analyser::None {
                    let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
                    sentence.hints = config.analyser.hints(&words).unwrap_or_default();
                }
                sentence
            })
            .filter(|sentence| {
                !sentence.words.is_empty()
                    && sentence.words.len() == sentence.tags.len()
                    && (sentence.hints.is_empty() || sentence.hints.len() == sentence.words.len())
            })
            .collect()
    };
    let (usable, auxiliary) = (usable(sentences), usable(auxiliary));
    let usable: Vec<&TaggedSentence> = usable.iter().collect();
    let auxiliary: Vec<&TaggedSentence> = auxiliary.iter().collect();
    let (prepared, lexicon, counts) = prepare(&usable, &auxiliary);
    let contractions: Vec<(u64, Upos)> = config
        .contractions
        .iter()
        .map(|(form, tag, count)| (TokenInfo::lower_hash(form), *tag, *count))
        .filter(|&(lower, _, count)| counts.total(lower).saturating_mul(10) < count)
        .map(|(lower, tag, _)| (lower, tag))
        .collect();
    let lexicon = lexicon.with_sure_forms(&contractions);
    let first = train_pass(config, &prepared, None, "first pass", &mut progress);
    let (first, scale) = quantize(&first);
    let mut guesses = vec![Vec::new(); prepared.len()];
    // Per held-out token: the best content score less the best other score, and the gold class.
    let mut margins: Vec<(i32, bool)> = Vec::new();
    if config.balance_content || config.second_pass {
        for part in 0..JACKKNIFE {
            let rest: Vec<&TaggedSentence> = usable
                .iter()
                .enumerate()
                .filter(|(j, _)| j % JACKKNIFE != part)
                .map(|(_, sentence)| *sentence)
                .collect();
            let (rest, rest_lexicon, _) = prepare(&rest, &auxiliary);
            let stage = format!("jackknife {} of {JACKKNIFE}", part + 1);
            let weights = train_pass(config, &rest, None, &stage, &mut progress);
            let (weights, scale) = quantize(&weights);
            let model = Model::new(config.bits, scale as f32, "", "", rest_lexicon, weights, None);
            for (j, sentence) in usable.iter().enumerate().filter(|(j, _)| j % JACKKNIFE == part) {
                let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
                let hints = sentence.hint_slices();
                guesses[j] =
                    model.first_pass(&model.infos(&words, hints.as_deref()), |i, scores| {
                        margins.push((margin(scores), is_content(sentence.tags[i])));
                    });
            }
        }
    }
    let second = config.second_pass.then(|| {
        let second = train_pass(config, &prepared, Some(&guesses), "second pass", &mut progress);
        quantize(&second).0
    });
    let mut model = Model::new(
        config.bits,
        scale as f32,
        &config.language,
        &config.description,
        lexicon,
        first,
        second,
    );
    if config.balance_content {
        model.set_content_bias(balance(&mut margins));
    }
    model.set_analyser(config.analyser);
    model
}

/// The best content tag's score less the best other tag's.
fn margin(scores: &[i32; TAGS]) -> i32 {
    let (mut content, mut other) = (i32::MIN, i32::MIN);
    for tag in Upos::ALL {
        let score = scores[tag.index()];
        if is_content(tag) {
            content = content.max(score);
        } else {
            other = other.max(score);
        }
    }
    content.saturating_sub(other)
}

/// The bias that makes the content class's precision and recall most even, from each token's
/// margin and gold class: a token is taken as content when its margin exceeds the bias.
fn balance(margins: &mut [(i32, bool)]) -> i32 {
    if margins.is_empty() {
        return 0;
    }
    // Sorted by margin, highest first: a bias just below the k-th margin takes the first k.
    margins.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let gold: u64 = margins.iter().map(|&(_, content)| u64::from(content)).sum();
    let (mut best, mut best_score) = (0, f64::MIN);
    let mut true_positives = 0_u64;
    for (k, &(margin, content)) in margins.iter().enumerate() {
        true_positives += u64::from(content);
        // Only a cut between two different margins is a bias that can be used.
        if margins.get(k + 1).is_some_and(|next| next.0 == margin) {
            continue;
        }
        let precision = true_positives as f64 / (k + 1) as f64;
        let recall = true_positives as f64 / gold.max(1) as f64;
        let score = precision.min(recall);
        if score > best_score {
            best_score = score;
            // The bias sits halfway between this margin and the next lower one.
            let next = margins.get(k + 1).map_or(margin.saturating_sub(2), |next| next.0);
            best = next / 2 + margin / 2;
        }
    }
    best
}

/// How many parts the first pass is trained without, to tag the training sentences for the
/// second pass.
const JACKKNIFE: usize = 5;

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
