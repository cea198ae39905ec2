//! A part-of-speech tagger of our own: UPOS tags for the POS-filtered Jaccard of fuzzy dedup.
//!
//! ```ignore
//! let tagger = Tagger::for_language("es");
//! let tokens = tokenize("El Gobierno aprobó 3 decretos.");
//! let tags = tagger.tag(&tokens); // [DET, NOUN, VERB, NUM, NOUN, PUNCT]
//! let content: Vec<&str> = tokens.iter().zip(&tags).filter(|(_, t)| is_content(**t)).map(|(w, _)| *w).collect();
//! ```
//!
//! # The model
//!
//! A greedy left-to-right averaged perceptron over hashed features (see `features.rs`): the
//! word, its lowercase form, prefixes and suffixes of 1 to 5 characters, its shape, the two
//! words on each side and their suffixes and shapes, word bigrams, the two previous tags, and
//! a lexicon of the training words' *ambiguity classes* (the tags a word was seen with) for the
//! word and the two after it; a word the lexicon does not know gets *analogies* instead (the
//! class of the word less its last one to three letters, and of the longest known word it ends
//! with). Words seen at least 20 times with one tag in at least 199 of 200 are tagged from the
//! lexicon without scoring, and so are the training data's contractions (`du`, `do`, `zum`),
//! which treebanks split into words but raw text does not. Training (`train.rs`) shuffles from a fixed seed, leaves out 40% of
//! the feature occurrences and, for 10% of the tokens, all the word's own features at each
//! step (so the model learns to tag unseen words), and averages the weights with integer
//! arithmetic; the same data give the same bytes. A content bias, chosen on jackknifed
//! predictions, evens the precision and recall of the content class.
//!
//! One model per language ships in `dedup/models/tagger/` (format in `model.rs`), trained by
//! `cargo run --release -p dedup --example train_tagger -- /path/to/ud --out
//! dedup/models/tagger` from the Universal Dependencies treebanks listed in `docs/tagger.md`,
//! which also gives the data splits and the accuracy of each model. The models are derived
//! from CC BY-SA 4.0 data (and, for French, LGPL-LR data): their licences and attributions are
//! in that folder.
//!
//! Languages without a model get a rule-based fallback (`heuristic.rs`): punctuation, numbers,
//! a short list of function words, capitalisation and a few suffixes. [`Tagger::method`] says
//! which one tags.

pub mod conllu;
mod features;
mod heuristic;
mod lexicon;
mod model;
pub mod morphology;
mod segment;
mod tokenize;
pub mod train;
pub mod turkish;
mod upos;

pub use model::{Analyser, Model, ModelError};
pub use tokenize::{sentences, tokenize};
pub use upos::{UnknownTag, Upos, is_content};

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// The languages with a model, by ISO 639-1 code, and the model files.
const MODELS: [(&str, &[u8]); 11] = [
    ("da", include_bytes!("../../models/tagger/da.upos")),
    ("de", include_bytes!("../../models/tagger/de.upos")),
    ("en", include_bytes!("../../models/tagger/en.upos")),
    ("es", include_bytes!("../../models/tagger/es.upos")),
    ("fr", include_bytes!("../../models/tagger/fr.upos")),
    ("id", include_bytes!("../../models/tagger/id.upos")),
    ("it", include_bytes!("../../models/tagger/it.upos")),
    ("nl", include_bytes!("../../models/tagger/nl.upos")),
    ("pt", include_bytes!("../../models/tagger/pt.upos")),
    ("ru", include_bytes!("../../models/tagger/ru.upos")),
    ("tr", include_bytes!("../../models/tagger/tr.upos")),
];

/// The models, each read from its file the first time it is asked for.
static LOADED: [OnceLock<Arc<Model>>; 11] = [const { OnceLock::new() }; 11];

/// The environment variable that names a directory of models trained for your own use
/// (`LANG.upos`, as `train_tagger --own DIR` writes them), such as Polish's, whose only treebank
/// at hand is under the GNU GPL, so no Polish model ships (`docs/tagger.md`). This crate does no
/// I/O: the `morgue` command reads the directory and registers its models ([`set_own_models`]).
pub const OWN_MODELS_VAR: &str = "MORGUE_TAGGER_MODELS";

/// Tagger models trained for your own use, by language: each tags a language that ships no model
/// and no segmenting dictionary, never in place of a shipped one.
#[derive(Debug, Clone, Default)]
pub struct OwnModels {
    models: BTreeMap<String, Arc<Model>>,
}

impl OwnModels {
    /// Adds `model` for the language it records (replacing one added before for it).
    pub fn add(&mut self, model: Model) {
        self.models.insert(model.language().to_owned(), Arc::new(model));
    }

    /// The languages that have a model here.
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.models.keys().map(String::as_str)
    }
}

/// The process's own models, once [`set_own_models`] set them.
static OWN: OnceLock<OwnModels> = OnceLock::new();

/// Makes `models` the ones [`Tagger::for_language`] uses for the rest of the process. Only the
/// first call counts: false when models were set already (they stay).
pub fn set_own_models(models: OwnModels) -> bool {
    OWN.set(models).is_ok()
}

/// The ISO 639-1 codes of the languages that have a model or a segmenting dictionary.
pub fn languages() -> impl Iterator<Item = &'static str> {
    MODELS.iter().map(|(code, _)| *code).chain(SEGMENTED.iter().copied())
}

/// The languages that a dictionary segments and tags (`segment.rs`), as far as their cargo
/// features (`ja`, `ko`, `zh`) are on.
const SEGMENTED: &[&str] = &[
    #[cfg(feature = "ja")]
    "ja",
    #[cfg(feature = "ko")]
    "ko",
    #[cfg(feature = "zh")]
    "zh",
];

/// How a tagger tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// A trained model.
    Model,
    /// The rule-based fallback for languages without a model.
    Heuristic,
    /// A dictionary that segments the text and tags the words (Japanese, Chinese, Korean).
    Dictionary,
}

/// How a token compares across texts ([`Tagger::tag_sentences_keyed`]): a slice of it and a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key<'a> {
    /// The token, or for Korean the noun a word begins with (`서울` of `서울에서`).
    pub(crate) form: &'a str,
    /// The token's tag, or `PROPN` for a Korean word that begins with a proper noun.
    pub(crate) tag: Upos,
}

/// Tags sentences of one language. Cheap to clone; models are shared.
#[derive(Debug, Clone)]
pub struct Tagger {
    language: String,
    model: Option<Arc<Model>>,
    segmenter: Option<segment::Segmenter>,
}

impl Tagger {
    /// The tagger for an ISO 639-1 language code (`da`, `de`, `en`, `es`, `fr`, `id`, `it`,
    /// `nl`, `pt`, `ru`, `tr` have models, `ja`, `ko` and `zh` segmenting dictionaries, as far
    /// as their cargo features are on; case and a
    /// region suffix such as `pt-BR` or `zh-Hant` are ignored). Any other code gets the
    /// rule-based fallback.
    ///
    /// A language with neither gets its model among the process's own ([`set_own_models`]), if
    /// there is one.
    pub fn for_language(code: &str) -> Tagger {
        Tagger::for_language_in(code, OWN.get())
    }

    /// [`Tagger::for_language`], with `own` as the models trained for your own use: used only
    /// for a language that ships no model and no segmenting dictionary.
    pub fn for_language_in(code: &str, own: Option<&OwnModels>) -> Tagger {
        let language = code.split(['-', '_']).next().unwrap_or_default().to_lowercase();
        let model = MODELS.iter().position(|(code, _)| *code == language).map(|at| {
            LOADED[at]
                .get_or_init(|| {
                    // The shipped files are checked by the tests: failing here is a build defect.
                    Arc::new(Model::from_bytes(MODELS[at].1).expect("a shipped tagger model"))
                })
                .clone()
        });
        let segmenter = segment::Segmenter::for_language(&language);
        let model = match (model, segmenter, own) {
            (None, None, Some(own)) => own.models.get(&language).cloned(),
            (model, ..) => model,
        };
        Tagger { language, model, segmenter }
    }

    /// A tagger using `model`, for example one just trained.
    pub fn with_model(model: Model) -> Tagger {
        Tagger {
            language: model.language().to_owned(),
            model: Some(Arc::new(model)),
            segmenter: None,
        }
    }

    /// The rule-based fallback for `language`, even where a model exists.
    pub fn heuristic(language: &str) -> Tagger {
        Tagger { language: language.to_lowercase(), model: None, segmenter: None }
    }

    /// The language code the tagger was made for, lowercase.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// Whether a model, a segmenting dictionary or the fallback tags.
    pub fn method(&self) -> Method {
        if self.model.is_some() {
            Method::Model
        } else if self.segmenter.is_some() {
            Method::Dictionary
        } else {
            Method::Heuristic
        }
    }

    /// The model, if there is one.
    pub fn model(&self) -> Option<&Model> {
        self.model.as_deref()
    }

    /// One tag per token of one sentence. Any tokens, even empty ones, get a tag. A
    /// segmenting dictionary analyses the tokens as one sentence, and each token gets the tag
    /// of the first content word it overlaps, else of the first word.
    pub fn tag(&self, tokens: &[&str]) -> Vec<Upos> {
        match (&self.model, self.segmenter) {
            (Some(model), _) => model.tag(tokens),
            (None, Some(segmenter)) => segmenter.tag_tokens(tokens),
            (None, None) => heuristic::tag(&self.language, tokens),
        }
    }

    /// Tokenizes raw text, splits it into sentences and tags them: every token with its tag,
    /// in order.
    pub fn tag_text<'a>(&self, text: &'a str) -> Vec<(&'a str, Upos)> {
        let mut out = Vec::new();
        self.tag_sentences(text, usize::MAX, |tokens, tags| {
            out.extend(tokens.iter().copied().zip(tags.iter().copied()));
        });
        out
    }

    /// Cuts raw text into tokens and sentences the language's way (the tokenizer, or a
    /// segmenting dictionary for Japanese, Chinese and Korean), tags at most `budget` tokens (whole
    /// sentences, the last one cut) and calls `visit` with each sentence's tokens and tags;
    /// returns how many tokens were tagged.
    pub fn tag_sentences<'a>(
        &self,
        text: &'a str,
        budget: usize,
        mut visit: impl FnMut(&[&'a str], &[Upos]),
    ) -> usize {
        self.tag_sentences_keyed(text, budget, |tokens, tags, _keys| visit(tokens, tags))
    }

    /// [`Tagger::tag_sentences`], and each token's [`Key`], for what compares words across
    /// texts (names): the token and its tag, but for Korean the noun a word begins with,
    /// without the particles, copula and endings that follow it (`서울의`, `서울에서` and
    /// `서울은` are all `서울`), `PROPN` when it is a proper noun whatever the word's tag.
    pub(crate) fn tag_sentences_keyed<'a>(
        &self,
        text: &'a str,
        budget: usize,
        mut visit: impl FnMut(&[&'a str], &[Upos], &[Key<'a>]),
    ) -> usize {
        let Some(segmenter) = self.segmenter else {
            let tokens = tokenize(text);
            let tokens = &tokens[..tokens.len().min(budget)];
            let mut keys = Vec::new();
            for sentence in sentences(tokens) {
                let tags = self.tag(sentence);
                keys.clear();
                keys.extend(sentence.iter().zip(&tags).map(|(&form, &tag)| Key { form, tag }));
                visit(sentence, &tags, &keys);
            }
            return tokens.len();
        };
        let mut tagged = 0;
        let mut words = Vec::new();
        let mut ranges = Vec::new();
        let mut tokens = Vec::new();
        let mut tags = Vec::new();
        let mut keys = Vec::new();
        for range in segmenter.sentences(text) {
            if tagged >= budget {
                break;
            }
            let sentence = &text[range];
            words.clear();
            ranges.clear();
            segmenter.analyse_keyed(sentence, &mut words, &mut ranges);
            words.truncate(budget - tagged);
            if words.is_empty() {
                continue;
            }
            tokens.clear();
            tags.clear();
            keys.clear();
            for ((word, tag), (key, key_tag)) in words.drain(..).zip(ranges.drain(..)) {
                tokens.push(&sentence[word]);
                tags.push(tag);
                keys.push(Key { form: &sentence[key], tag: key_tag });
            }
            tagged += tokens.len();
            visit(&tokens, &tags, &keys);
        }
        tagged
    }
}

/// The words of Korean text (sentence by sentence) as byte ranges of
/// `text`, each with its morphemes' key (`NNG+JKB/에`; `None` for punctuation): what
/// `segment_eval` shows confusions with. Not for other uses.
#[cfg(feature = "ko")]
#[doc(hidden)]
pub fn korean_words(text: &str) -> Vec<(std::ops::Range<usize>, Option<String>)> {
    let mut out = Vec::new();
    for sentence in segment::Segmenter::Korean.sentences(text) {
        let offset = sentence.start;
        for (range, key) in segment::ko::words(&text[sentence]) {
            out.push((range.start + offset..range.end + offset, key));
        }
    }
    out
}

/// Korean analysis and post-tagging pieces, for `dedup/examples/train_korean.rs`, which learns
/// the eojeol table and the post-tagger. Not for other uses.
#[cfg(feature = "ko")]
#[doc(hidden)]
pub mod korean {
    pub use super::segment::ko::{
        HINT_STYLE, PROPN_RULE, fallback, hint_with, hints, levels, parse_table, table_tag,
        table_tags, tag, tag_with, words,
    };

    /// The sentences of Korean text, as byte ranges, as the tagger cuts them.
    pub fn sentences(text: &str) -> Vec<std::ops::Range<usize>> {
        super::segment::Segmenter::Korean.sentences(text)
    }
}

/// Chinese segmentation and post-tagging pieces, for `dedup/examples/train_chinese.rs`, which
/// learns the re-segmentation table and the post-tagger. Not for other uses.
#[cfg(feature = "zh")]
#[doc(hidden)]
pub mod chinese {
    pub use super::segment::zh::{Splits, Word, jieba_words, tag, words};
}

#[cfg(test)]
mod tests;
