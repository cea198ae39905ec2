//! Trains the UPOS tagger models from Universal Dependencies treebanks and reports accuracy.
//!
//! ```sh
//! cargo run --release -p dedup --example train_tagger -- /path/to/ud [--out dedup/models/tagger]
//! ```
//!
//! Prints, per language, a Markdown table row: accuracy and content-class precision and recall
//! on the held-apart test data, model size and tagging speed; progress, per-test-set numbers and
//! the most frequent confusions go to standard error. With `--out`, writes `LANG.upos` there.
//!
//! Options (defaults are what the shipped models use): `--only en,fr` (some languages),
//! `--tune` (five-fold cross-validation inside the training part instead: how settings were
//! chosen; writes nothing), `--epochs 40`, `--bits 19`, `--dropout 400` and
//! `--word-dropout 100` (per mille), `--seed N`, `--two-pass`, `--unbalanced` (no content
//! bias), `--no-analyser` (Turkish without its root lexicon's hints), `--roots-only` (Turkish with
//! the root lexicon's hints but not the web treebank model's tags), `--turkish-web DIR` (train
//! the Turkish web treebank model on `DIR/web.conllu` and `DIR/wiki.conllu` of PyPI's
//! `turkish-treebanks` first, and hint the Turkish model with it rather than with the shipped
//! one; `--turkish-web-out FILE` writes it), `--adapt-web` (with `--turkish-web DIR`: train the
//! Turkish model with that treebank's sentences as auxiliary data, `train::train_adapted`),
//! `--auxiliary UD_German-GSD/de_gsd-ud-dev.conllu,...` (any other treebank's files as auxiliary
//! data for every language trained, to measure what they bring), `--without UD_Italian-TWITTIRO,...` (leave treebanks out of training, to choose which
//! to combine; their test data stay), `--surface` (surface copies of sentences with multiword
//! tokens in every language, not only those whose plan has them). A language whose data may not
//! ship (Polish, GNU GPL) is trained and measured but never written by `--out`; `--own DIR`
//! writes every language trained, Polish too, for your own use: `morgue` tags a language that
//! ships no model with `DIR/LANG.upos` when `MORGUE_TAGGER_MODELS=DIR` (docs/tagger.md, "Polish:
//! measured, not shipped"). Standard error also gives,
//! per test set, multiword tokens tagged as raw text has them, and the rule-based fallback's
//! accuracy on the same data.
//!
//! See docs/tagger.md for the data, the splits and the numbers.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[path = "common/fifth.rs"]
mod fifth;
#[path = "common/turkish_web.rs"]
mod turkish_web;

use dedup::tagger::conllu::{self, Line};
use dedup::tagger::train::{self, TaggedSentence, TrainConfig};
use dedup::tagger::{Analyser, Model, Tagger, Upos, is_content};

/// One sentence of a treebank.
struct Sentence {
    /// The treebank folder it comes from.
    treebank: String,
    id: String,
    words: Vec<String>,
    tags: Vec<Upos>,
    /// Multiword tokens: surface form, first and last word (from 1).
    ranges: Vec<(String, usize, usize)>,
}

impl Sentence {
    fn new() -> Sentence {
        Sentence {
            treebank: String::new(),
            id: String::new(),
            words: Vec::new(),
            tags: Vec::new(),
            ranges: Vec::new(),
        }
    }

    /// The tag a multiword token gets as one token: its first content tag (`dámelo` → VERB),
    /// or else its first word's tag (`du` → ADP).
    fn range_tag(&self, first: usize, last: usize) -> Option<Upos> {
        let tags = self.tags.get(first.checked_sub(1)?..last.min(self.tags.len()))?;
        tags.iter().copied().find(|&tag| is_content(tag)).or_else(|| tags.first().copied())
    }
}

/// The contractions of `sentences`: each multiword token form seen at least twice, lowercase,
/// with its most frequent tag as one token (ties to the lower tag index) and its count.
/// A token of a sentence as raw text has it.
struct SurfaceToken<'a> {
    form: &'a str,
    /// A word's tag, or a multiword token's [`Sentence::range_tag`].
    tag: Option<Upos>,
    /// Whether it is a multiword token.
    contraction: bool,
}

impl Sentence {
    /// The sentence as raw text has it: each multiword token in place of its words.
    fn surface(&self) -> Vec<SurfaceToken<'_>> {
        let mut out = Vec::new();
        let mut word = 1;
        while word <= self.words.len() {
            match self.ranges.iter().find(|(_, first, last)| *first == word && *last >= word) {
                Some((form, first, last)) => {
                    let tag = self.range_tag(*first, *last);
                    out.push(SurfaceToken { form, tag, contraction: true });
                    word = last + 1;
                }
                None => {
                    let (form, tag) = (&self.words[word - 1], self.tags.get(word - 1).copied());
                    out.push(SurfaceToken { form, tag, contraction: false });
                    word += 1;
                }
            }
        }
        out
    }
}

fn contractions<'a>(sentences: impl Iterator<Item = &'a Sentence>) -> Vec<(String, Upos, u32)> {
    let mut counts: BTreeMap<String, [u32; Upos::COUNT]> = BTreeMap::new();
    for sentence in sentences {
        for (form, first, last) in &sentence.ranges {
            if let Some(tag) = sentence.range_tag(*first, *last) {
                counts.entry(form.to_lowercase()).or_insert([0; Upos::COUNT])[tag.index()] += 1;
            }
        }
    }
    counts
        .into_iter()
        .filter(|(_, counts)| counts.iter().sum::<u32>() >= 2)
        .filter_map(|(form, counts)| {
            let best = (0..Upos::COUNT).max_by_key(|&tag| (counts[tag], std::cmp::Reverse(tag)))?;
            Some((form, Upos::from_index(best)?, counts.iter().sum()))
        })
        .collect()
}

fn read_treebank(path: &Path) -> Result<Vec<Sentence>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sentences = Vec::new();
    let mut current = Sentence::new();
    for (n, line) in text.lines().enumerate() {
        let parsed =
            conllu::parse_line(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        match parsed {
            Line::Blank => {
                if !current.words.is_empty() {
                    sentences.push(std::mem::replace(&mut current, Sentence::new()));
                }
            }
            Line::Comment(comment) => {
                if let Some(id) = comment.trim().strip_prefix("sent_id =") {
                    current.id = id.trim().to_owned();
                }
            }
            Line::Word(fields) => {
                let tag: Upos = fields
                    .upos()
                    .parse()
                    .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
                current.words.push(fields.form().to_owned());
                current.tags.push(tag);
            }
            Line::Range { first, last, fields } => {
                current.ranges.push((fields.form().to_owned(), first as usize, last as usize));
            }
            Line::Empty(_) => {}
        }
    }
    if !current.words.is_empty() {
        sentences.push(current);
    }
    let treebank = path
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    for sentence in &mut sentences {
        sentence.treebank.clone_from(&treebank);
    }
    Ok(sentences)
}

/// A sentence of a treebank without a train split is held apart for testing when the FNV-1a
/// hash of `treebank/sent_id` is 0 modulo 5: a fixed fifth of the sentences.
fn held_apart(treebank: &str, sentence: &Sentence) -> bool {
    fifth::held_apart(&format!("{treebank}/{}", sentence.id))
}

/// With `--tune`, settings are chosen by five-fold cross-validation inside the training part:
/// the fold of a sentence.
fn fold(sentence: &Sentence) -> u64 {
    fifth::fnv1a(&format!("tune/{}", sentence.id)) % 5
}

/// Where a model's data comes from.
struct Plan {
    code: &'static str,
    /// Treebank folder and files used whole for training.
    train: &'static [(&'static str, &'static str)],
    /// Treebank folder and files used whole for testing.
    test: &'static [(&'static str, &'static str)],
    /// Treebank folder and files pooled and split by [`held_apart`].
    split: &'static [(&'static str, &'static str)],
    /// Whether `--out` writes the model: false when the data's licence does not let the model
    /// ship in this repository (it is still trained and measured).
    ship: bool,
    /// Whether sentences with multiword tokens are also trained on as raw text has them
    /// ([`training_sentences`]).
    surface: bool,
    /// The analyser whose hints the model is trained with and computes (Turkish roots).
    analyser: Analyser,
}

const PLANS: &[Plan] = &[
    Plan {
        code: "en",
        train: &[("UD_English-EWT", "en_ewt-ud-train.conllu")],
        test: &[("UD_English-EWT", "en_ewt-ud-dev.conllu")],
        split: &[],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "pt",
        train: &[("UD_Portuguese-Bosque", "pt_bosque-ud-train.conllu")],
        test: &[("UD_Portuguese-Bosque", "pt_bosque-ud-dev.conllu")],
        split: &[],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "fr",
        train: &[
            ("UD_French-Sequoia", "fr_sequoia-ud-train.conllu"),
            ("UD_French-Sequoia", "fr_sequoia-ud-dev.conllu"),
        ],
        test: &[("UD_French-Sequoia", "fr_sequoia-ud-test.conllu")],
        split: &[
            ("UD_French-GSD", "fr_gsd-ud-dev.conllu"),
            ("UD_French-GSD", "fr_gsd-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "de",
        train: &[],
        test: &[],
        split: &[
            ("UD_German-GSD", "de_gsd-ud-dev.conllu"),
            ("UD_German-GSD", "de_gsd-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "es",
        train: &[],
        test: &[],
        split: &[
            ("UD_Spanish-GSD", "es_gsd-ud-dev.conllu"),
            ("UD_Spanish-GSD", "es_gsd-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "da",
        train: &[],
        test: &[],
        split: &[
            ("UD_Danish-DDT", "da_ddt-ud-dev.conllu"),
            ("UD_Danish-DDT", "da_ddt-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "nl",
        train: &[],
        test: &[],
        split: &[
            ("UD_Dutch-Alpino", "nl_alpino-ud-dev.conllu"),
            ("UD_Dutch-Alpino", "nl_alpino-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "id",
        train: &[("UD_Indonesian-CSUI", "id_csui-ud-train.conllu")],
        test: &[("UD_Indonesian-CSUI", "id_csui-ud-test.conllu")],
        split: &[
            ("UD_Indonesian-GSD", "id_gsd-ud-dev.conllu"),
            ("UD_Indonesian-GSD", "id_gsd-ud-test.conllu"),
        ],
        ship: true,
        surface: true,
        analyser: Analyser::None,
    },
    Plan {
        code: "it",
        train: &[
            ("UD_Italian-MarkIT", "it_markit-ud-train.conllu"),
            ("UD_Italian-MarkIT", "it_markit-ud-dev.conllu"),
            ("UD_Italian-ParlaMint", "it_parlamint-ud-train.conllu"),
            ("UD_Italian-TWITTIRO", "it_twittiro-ud-train.conllu"),
            ("UD_Italian-TWITTIRO", "it_twittiro-ud-dev.conllu"),
        ],
        test: &[
            ("UD_Italian-MarkIT", "it_markit-ud-test.conllu"),
            ("UD_Italian-ParlaMint", "it_parlamint-ud-test.conllu"),
            ("UD_Italian-TWITTIRO", "it_twittiro-ud-test.conllu"),
        ],
        split: &[],
        ship: true,
        surface: true,
        analyser: Analyser::None,
    },
    Plan {
        code: "ru",
        train: &[],
        test: &[],
        split: &[
            ("UD_Russian-GSD", "ru_gsd-ud-dev.conllu"),
            ("UD_Russian-GSD", "ru_gsd-ud-test.conllu"),
            ("UD_Russian-Taiga", "ru_taiga-ud-dev.conllu"),
            ("UD_Russian-Taiga", "ru_taiga-ud-test.conllu"),
        ],
        ship: true,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "pl",
        train: &[],
        test: &[],
        split: &[
            ("UD_Polish-LFG", "pl_lfg-ud-dev.conllu"),
            ("UD_Polish-LFG", "pl_lfg-ud-test.conllu"),
        ],
        // LFG is under the GNU GPL 3.0: a model derived from it is not shipped (docs/tagger.md).
        ship: false,
        surface: false,
        analyser: Analyser::None,
    },
    Plan {
        code: "tr",
        train: &[],
        test: &[],
        split: &[
            ("UD_Turkish-BOUN", "tr_boun-ud-dev.conllu"),
            ("UD_Turkish-BOUN", "tr_boun-ud-test.conllu"),
        ],
        ship: true,
        surface: true,
        analyser: Analyser::TurkishWeb,
    },
];

struct Options {
    ud: PathBuf,
    out: Option<PathBuf>,
    /// Where to write every language trained, those that may not ship too (`--own`).
    own: Option<PathBuf>,
    only: Option<Vec<String>>,
    /// Treebank folders left out of training (their test data stay).
    without: Vec<String>,
    /// Train on the surface form of sentences with multiword tokens too, in every language.
    surface: bool,
    tune: bool,
    epochs: u32,
    bits: u8,
    dropout: u64,
    word_dropout: u64,
    second_pass: bool,
    balance_content: bool,
    seed: u64,
    /// Train without the plans' analysers (to measure what they bring).
    no_analyser: bool,
    /// Turkish: instead of the shipped web treebank model, train one on Google's Turkish Web
    /// Treebank in this folder (`web.conllu`, `wiki.conllu`), and write it here.
    turkish_web: Option<PathBuf>,
    turkish_web_out: Option<PathBuf>,
    /// Turkish: the root lexicon's hints only, without the web treebank model's tags.
    roots_only: bool,
    /// Turkish: train with the web treebank in `turkish_web` as auxiliary sentences
    /// (`train::train_adapted`).
    adapt_web: bool,
    /// CoNLL-U files (relative to the UD folder) whose sentences train every language of the
    /// run as auxiliary data (`train::train_adapted`): to measure what another treebank brings.
    auxiliary: Vec<String>,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        ud: PathBuf::new(),
        out: None,
        own: None,
        only: None,
        without: Vec::new(),
        surface: false,
        tune: false,
        epochs: 40,
        bits: 19,
        dropout: 400,
        word_dropout: 100,
        second_pass: false,
        balance_content: true,
        seed: 0x6d6f_7267_7565,
        no_analyser: false,
        turkish_web: None,
        turkish_web_out: None,
        roots_only: false,
        adapt_web: false,
        auxiliary: Vec::new(),
    };
    let mut ud = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--out" => options.out = Some(PathBuf::from(value("--out")?)),
            "--own" => options.own = Some(PathBuf::from(value("--own")?)),
            "--only" => {
                options.only = Some(value("--only")?.split(',').map(str::to_owned).collect());
            }
            "--without" => {
                options.without = value("--without")?.split(',').map(str::to_owned).collect();
            }
            "--tune" => options.tune = true,
            "--surface" => options.surface = true,
            "--two-pass" => options.second_pass = true,
            "--seed" => options.seed = value("--seed")?.parse().map_err(|e| format!("{e}"))?,
            "--unbalanced" => options.balance_content = false,
            "--no-analyser" => options.no_analyser = true,
            "--roots-only" => options.roots_only = true,
            "--adapt-web" => options.adapt_web = true,
            "--auxiliary" => {
                options.auxiliary = value("--auxiliary")?.split(',').map(str::to_owned).collect();
            }
            "--turkish-web" => options.turkish_web = Some(PathBuf::from(value("--turkish-web")?)),
            "--turkish-web-out" => {
                options.turkish_web_out = Some(PathBuf::from(value("--turkish-web-out")?));
            }
            "--word-dropout" => {
                options.word_dropout =
                    value("--word-dropout")?.parse().map_err(|e| format!("{e}"))?
            }
            "--dropout" => {
                options.dropout = value("--dropout")?.parse().map_err(|e| format!("{e}"))?
            }
            "--epochs" => {
                options.epochs = value("--epochs")?.parse().map_err(|e| format!("{e}"))?
            }
            "--bits" => options.bits = value("--bits")?.parse().map_err(|e| format!("{e}"))?,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => ud = Some(PathBuf::from(arg)),
        }
    }
    options.ud = ud.ok_or(
        "usage: train_tagger UD_DIR [--out DIR] [--own DIR] [--only en,fr] [--tune] [...]",
    )?;
    Ok(options)
}

#[derive(Default)]
struct Score {
    tokens: u64,
    correct: u64,
    /// Content class: predicted and gold, predicted only, gold only.
    both: u64,
    predicted_only: u64,
    gold_only: u64,
    confusions: BTreeMap<(Upos, Upos), u64>,
}

impl Score {
    fn add(&mut self, gold: &[Upos], predicted: &[Upos]) {
        for (&g, &p) in gold.iter().zip(predicted) {
            self.tokens += 1;
            if g == p {
                self.correct += 1;
            } else {
                *self.confusions.entry((g, p)).or_default() += 1;
            }
            match (is_content(g), is_content(p)) {
                (true, true) => self.both += 1,
                (false, true) => self.predicted_only += 1,
                (true, false) => self.gold_only += 1,
                (false, false) => {}
            }
        }
    }

    /// Adds the counts of `other` (not its confusions).
    fn add_all(&mut self, other: &Score) {
        self.tokens += other.tokens;
        self.correct += other.correct;
        self.both += other.both;
        self.predicted_only += other.predicted_only;
        self.gold_only += other.gold_only;
    }

    fn accuracy(&self) -> f64 {
        100.0 * self.correct as f64 / self.tokens.max(1) as f64
    }

    fn precision(&self) -> f64 {
        100.0 * self.both as f64 / (self.both + self.predicted_only).max(1) as f64
    }

    fn recall(&self) -> f64 {
        100.0 * self.both as f64 / (self.both + self.gold_only).max(1) as f64
    }
}

fn evaluate(tagger: &Tagger, sentences: &[Sentence]) -> (Score, f64) {
    let mut score = Score::default();
    let start = Instant::now();
    let mut all = Vec::with_capacity(sentences.len());
    for sentence in sentences {
        let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
        all.push(tagger.tag(&words));
    }
    let seconds = start.elapsed().as_secs_f64();
    for (sentence, predicted) in sentences.iter().zip(&all) {
        score.add(&sentence.tags, predicted);
    }
    let speed = score.tokens as f64 / seconds.max(1e-9);
    (score, speed)
}

/// Sentences tagged as raw text has them, multiword tokens as one token each (`del`, not
/// `di il`), each expected to get the tag of its first content word (else first word): the
/// multiword tokens and how many of them are right, then all tokens and how many are right.
fn score_surface<'a>(
    tagger: &Tagger,
    sentences: impl Iterator<Item = &'a Sentence>,
) -> [(u64, u64); 2] {
    let mut counts = [(0, 0); 2];
    for sentence in sentences {
        let surface = sentence.surface();
        let forms: Vec<&str> = surface.iter().map(|token| token.form).collect();
        for (token, tag) in surface.iter().zip(tagger.tag(&forms)) {
            let right = u64::from(token.tag == Some(tag));
            for slot in if token.contraction { &mut counts[..] } else { &mut counts[1..] } {
                slot.0 += 1;
                slot.1 += right;
            }
        }
    }
    counts
}

/// The sentences to train on: each as its words and, with `surface` and when it has multiword
/// tokens, once more as raw text has it (`del` for `di il`).
fn training_sentences<'a>(
    sentences: impl Iterator<Item = &'a Sentence>,
    surface: bool,
) -> Vec<TaggedSentence> {
    let mut out = Vec::new();
    for sentence in sentences {
        out.push(TaggedSentence {
            words: sentence.words.clone(),
            tags: sentence.tags.clone(),
            hints: Vec::new(),
        });
        if !surface || sentence.ranges.is_empty() {
            continue;
        }
        let tokens = sentence.surface();
        if let Some(tags) = tokens.iter().map(|token| token.tag).collect::<Option<Vec<Upos>>>() {
            let words = tokens.iter().map(|token| token.form.to_owned()).collect();
            out.push(TaggedSentence { words, tags, hints: Vec::new() });
        }
    }
    out
}

/// The sentences of the Turkish Web Treebank in `dir` (`web.conllu`, `wiki.conllu`), with their
/// tags mapped to UPOS.
fn turkish_web_sentences(dir: &Path) -> Result<Vec<TaggedSentence>, String> {
    let mut sentences = Vec::new();
    for file in ["web.conllu", "wiki.conllu"] {
        for turkish_web::Sentence { words, tags } in turkish_web::read(&dir.join(file))? {
            sentences.push(TaggedSentence { words, tags, hints: Vec::new() });
        }
    }
    Ok(sentences)
}

/// How the Turkish web treebank model is trained: `options`' settings, the root lexicon's hints.
fn web_config(options: &Options, description: String) -> TrainConfig {
    TrainConfig {
        language: "tr".to_owned(),
        description,
        bits: options.bits,
        epochs: options.epochs,
        seed: options.seed,
        dropout: options.dropout,
        second_pass: false,
        balance_content: options.balance_content,
        contractions: Vec::new(),
        word_dropout: options.word_dropout,
        analyser: Analyser::TurkishRoots,
    }
}

/// The web treebank's `sentences` with the hints `Analyser::TurkishWeb` gives, each tagged by a
/// web treebank model trained without the fifth it is in (a jackknife: a model's tags of its own
/// training sentences would be almost all right, which new text's are not).
fn jackknifed_web_hints(options: &Options, sentences: &[TaggedSentence]) -> Vec<TaggedSentence> {
    let mut hinted = sentences.to_vec();
    for part in 0..5 {
        let rest: Vec<TaggedSentence> = sentences
            .iter()
            .enumerate()
            .filter(|(j, _)| j % 5 != part)
            .map(|(_, sentence)| sentence.clone())
            .collect();
        let model = train::train(&web_config(options, String::new()), &rest, |_| {});
        for (_, sentence) in hinted.iter_mut().enumerate().filter(|(j, _)| j % 5 == part) {
            let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
            sentence.hints = dedup::tagger::turkish::web_hints(&model, &words);
        }
    }
    hinted
}

/// Trains the Turkish web treebank model (`dedup::tagger::turkish::web_model`) on the Turkish Web
/// Treebank's `sentences`, with the Turkish root lexicon's hints and `options`' settings, makes it the
/// one the Turkish model's hints come from, and writes it to `--turkish-web-out` if given.
fn train_turkish_web(sentences: &[TaggedSentence], options: &Options) -> Result<(), String> {
    let tokens: usize = sentences.iter().map(|s| s.words.len()).sum();
    let description = format!(
        "averaged perceptron trained on the Turkish Web Treebank (turkish-treebanks 1.0.0), {} sentences, {tokens} words, tags mapped to UPOS",
        sentences.len()
    );
    let bytes = train::train(&web_config(options, description), sentences, |_| {}).to_bytes();
    eprintln!(
        "tr: web treebank model: {} sentences, {tokens} words, {} bytes",
        sentences.len(),
        bytes.len()
    );
    if let Some(path) = &options.turkish_web_out {
        std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("tr: wrote {}", path.display());
    }
    let model = Model::from_bytes(&bytes).map_err(|e| e.to_string())?;
    if !dedup::tagger::turkish::use_web_model(model) {
        return Err("the Turkish web model was in use before it was trained".to_owned());
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let web = options.turkish_web.as_deref().map(turkish_web_sentences).transpose()?;
    println!(
        "| lang | train sentences | train tokens | test tokens | UPOS accuracy | content P | content R | model bytes | tokens/s |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for plan in PLANS {
        if options.only.as_ref().is_some_and(|only| !only.iter().any(|code| code == plan.code)) {
            continue;
        }
        let analyser = match plan.analyser {
            _ if options.no_analyser => Analyser::None,
            Analyser::TurkishWeb if options.roots_only => Analyser::TurkishRoots,
            Analyser::TurkishWeb => {
                if let Some(web) = &web {
                    train_turkish_web(web, &options)?;
                }
                Analyser::TurkishWeb
            }
            analyser => analyser,
        };
        let mut auxiliary_sources = options.auxiliary.join(", ");
        let auxiliary = match &web {
            Some(web) if options.adapt_web && plan.code == "tr" => {
                auxiliary_sources = format!(
                    "the Turkish Web Treebank (turkish-treebanks 1.0.0, {} sentences, tags mapped to UPOS)",
                    web.len()
                );
                if analyser == Analyser::TurkishWeb {
                    jackknifed_web_hints(&options, web)
                } else {
                    web.clone()
                }
            }
            _ => {
                let mut sentences = Vec::new();
                for file in &options.auxiliary {
                    let treebank = read_treebank(&options.ud.join(file))?;
                    sentences.extend(training_sentences(treebank.iter(), plan.surface));
                }
                sentences
            }
        };
        let mut train_set = Vec::new();
        let mut test_sets: Vec<(String, Vec<Sentence>)> = Vec::new();
        let mut sources = Vec::new();
        let trained = |folder: &str| !options.without.iter().any(|left_out| left_out == folder);
        for (folder, file) in plan.train.iter().filter(|(folder, _)| trained(folder)) {
            train_set.extend(read_treebank(&options.ud.join(folder).join(file))?);
            sources.push(format!("{folder} {file}"));
        }
        for (folder, file) in plan.test {
            test_sets.push((file.to_string(), read_treebank(&options.ud.join(folder).join(file))?));
        }
        for (folder, file) in plan.split {
            let (test, train): (Vec<Sentence>, Vec<Sentence>) =
                read_treebank(&options.ud.join(folder).join(file))?
                    .into_iter()
                    .partition(|sentence| held_apart(folder, sentence));
            test_sets.push((format!("{file} (held-apart fifth)"), test));
            if trained(folder) {
                train_set.extend(train);
                sources.push(format!("{folder} {file} (four fifths)"));
            }
        }
        if options.tune {
            let mut total = Score::default();
            let mut by_treebank: BTreeMap<&str, Score> = BTreeMap::new();
            let mut multiword = (0, 0);
            let mut unknown_stats = [(0_u64, 0_u64, 0_u64); 2];
            for k in 0..5 {
                let train = training_sentences(
                    train_set.iter().filter(|s| fold(s) != k),
                    options.surface || plan.surface,
                );
                let test: Vec<&Sentence> = train_set.iter().filter(|s| fold(s) == k).collect();
                let config = TrainConfig {
                    language: plan.code.to_owned(),
                    description: String::new(),
                    bits: options.bits,
                    epochs: options.epochs,
                    seed: options.seed,
                    dropout: options.dropout,
                    second_pass: options.second_pass,
                    balance_content: options.balance_content,
                    contractions: contractions(train_set.iter().filter(|s| fold(s) != k)),
                    word_dropout: options.word_dropout,
                    analyser,
                };
                let model = train::train_adapted(&config, &train, &auxiliary, |_| {});
                let vocabulary: std::collections::HashSet<String> =
                    train.iter().flat_map(|s| s.words.iter().map(|w| w.to_lowercase())).collect();
                let tagger = Tagger::with_model(model);
                let [(count, right), _] = score_surface(&tagger, test.iter().copied());
                multiword = (multiword.0 + count, multiword.1 + right);
                for sentence in test {
                    let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
                    let predicted = tagger.tag(&words);
                    total.add(&sentence.tags, &predicted);
                    by_treebank
                        .entry(&sentence.treebank)
                        .or_default()
                        .add(&sentence.tags, &predicted);
                    for ((w, g), p) in words.iter().zip(&sentence.tags).zip(&predicted) {
                        let known = vocabulary.contains(&w.to_lowercase());
                        let slot = &mut unknown_stats[usize::from(!known)];
                        slot.0 += 1;
                        slot.1 += u64::from(g == p);
                        slot.2 += u64::from(is_content(*g) != is_content(*p));
                    }
                }
            }
            for (treebank, score) in &by_treebank {
                eprintln!(
                    "{}:   cv {treebank}: {} tokens, accuracy {:.2}%, content P {:.2}% R {:.2}%",
                    plan.code,
                    score.tokens,
                    score.accuracy(),
                    score.precision(),
                    score.recall()
                );
            }
            if multiword.0 > 0 {
                eprintln!(
                    "{}:   cv: {} multiword tokens tagged as one token: {:.2}% get the tag of their first content word (else first word)",
                    plan.code,
                    multiword.0,
                    100.0 * multiword.1 as f64 / multiword.0 as f64
                );
            }
            for (name, (n, ok, class_errors)) in ["known", "unknown"].iter().zip(unknown_stats) {
                eprintln!(
                    "{}:   {name} words: {n} tokens, accuracy {:.2}%, content-class errors {class_errors}",
                    plan.code,
                    100.0 * ok as f64 / n.max(1) as f64
                );
            }
            let mut worst: Vec<_> = total.confusions.iter().collect();
            worst.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let worst: Vec<String> =
                worst.iter().take(14).map(|((g, p), n)| format!("{g}→{p} {n}")).collect();
            eprintln!("{}:   most confused (gold→tagged): {}", plan.code, worst.join(", "));
            println!(
                "| {} | cv | {} | {} | {:.2}% | {:.2}% | {:.2}% | | |",
                plan.code,
                train_set.iter().map(|s| s.words.len()).sum::<usize>(),
                total.tokens,
                total.accuracy(),
                total.precision(),
                total.recall(),
            );
            continue;
        }
        if !auxiliary.is_empty() {
            sources.push(format!(
                "and, as auxiliary data by feature augmentation, {auxiliary_sources}"
            ));
        }
        let tagged = training_sentences(train_set.iter(), options.surface || plan.surface);
        let config = TrainConfig {
            language: plan.code.to_owned(),
            description: format!("averaged perceptron trained on {}", sources.join(", ")),
            bits: options.bits,
            epochs: options.epochs,
            seed: options.seed,
            dropout: options.dropout,
            second_pass: options.second_pass,
            balance_content: options.balance_content,
            contractions: contractions(train_set.iter()),
            word_dropout: options.word_dropout,
            analyser,
        };
        let started = Instant::now();
        let model = train::train_adapted(&config, &tagged, &auxiliary, |report| {
            eprintln!(
                "{}: {} epoch {} training accuracy {:.2}% ({:.0?})",
                plan.code,
                report.stage,
                report.epoch,
                100.0 * report.correct as f64 / report.total.max(1) as f64,
                started.elapsed()
            );
        });
        eprintln!("{}: content bias {}", plan.code, model.content_bias());
        let bytes = model.to_bytes();
        let model = Model::from_bytes(&bytes).map_err(|e| e.to_string())?;
        let tagger = Tagger::with_model(model);
        let shipped = options.out.as_ref().filter(|_| plan.ship);
        for out in shipped.into_iter().chain(options.own.as_ref()) {
            std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            let path = out.join(format!("{}.upos", plan.code));
            std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("{}: wrote {}", plan.code, path.display());
        }
        let mut total = Score::default();
        let mut speeds = Vec::new();
        for (name, sentences) in &test_sets {
            let (score, speed) = evaluate(&tagger, sentences);
            eprintln!(
                "{}: {name}: {} tokens, accuracy {:.2}%, content P {:.2}% R {:.2}%",
                plan.code,
                score.tokens,
                score.accuracy(),
                score.precision(),
                score.recall()
            );
            let mut worst: Vec<_> = score.confusions.iter().collect();
            worst.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let worst: Vec<String> =
                worst.iter().take(8).map(|((g, p), n)| format!("{g}→{p} {n}")).collect();
            eprintln!("{}:   most confused (gold→tagged): {}", plan.code, worst.join(", "));
            let [(contractions, right), (tokens, tokens_right)] =
                score_surface(&tagger, sentences.iter());
            if contractions > 0 {
                eprintln!(
                    "{}:   {contractions} multiword tokens tagged as one token: {:.2}% get the tag of their first content word (else first word); all {tokens} tokens as raw text has them: accuracy {:.2}%",
                    plan.code,
                    100.0 * right as f64 / contractions as f64,
                    100.0 * tokens_right as f64 / tokens as f64
                );
            }
            speeds.push(speed);
            total.add_all(&score);
        }
        let mut fallback = Score::default();
        for (_, sentences) in &test_sets {
            fallback.add_all(&evaluate(&Tagger::heuristic(plan.code), sentences).0);
        }
        eprintln!(
            "{}: the rule-based fallback on the same data: accuracy {:.2}%, content P {:.2}% R {:.2}%",
            plan.code,
            fallback.accuracy(),
            fallback.precision(),
            fallback.recall()
        );
        let speed = speeds.iter().sum::<f64>() / speeds.len().max(1) as f64;
        println!(
            "| {} | {} | {} | {} | {:.2}% | {:.2}% | {:.2}% | {} | {:.0} |",
            plan.code,
            train_set.len(),
            train_set.iter().map(|s| s.words.len()).sum::<usize>(),
            total.tokens,
            total.accuracy(),
            total.precision(),
            total.recall(),
            bytes.len(),
            speed
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
