//! Tests of the public tagger: the shipped models, training determinism, the fallback, and
//! robustness on arbitrary input.

use proptest::prelude::*;

use super::train::{TaggedSentence, TrainConfig, train, train_adapted};
use super::*;

fn tags(text: &str) -> Vec<Upos> {
    text.split(' ').map(|tag| tag.parse().expect("a tag")).collect()
}

#[test]
fn every_shipped_model_loads_and_tags() {
    for (code, _) in MODELS {
        let tagger = Tagger::for_language(code);
        assert_eq!(tagger.method(), Method::Model, "{code}");
        assert_eq!(tagger.model().map(Model::language), Some(code));
        assert_eq!(tagger.tag(&["2024", "."]).len(), 2);
        // Only Turkish computes hints of its own (its root lexicon).
        let analyser = if code == "tr" { Analyser::TurkishWeb } else { Analyser::None };
        assert_eq!(tagger.model().map(Model::analyser), Some(analyser), "{code}");
    }
    // The languages whose dictionary's feature is on (all of them in the default build).
    let dictionaries = [
        ("ja", cfg!(feature = "ja")),
        ("zh", cfg!(feature = "zh")),
        ("ZH-hant", cfg!(feature = "zh")),
        ("ko", cfg!(feature = "ko")),
    ];
    for (code, on) in dictionaries {
        let tagger = Tagger::for_language(code);
        let method = if on { Method::Dictionary } else { Method::Heuristic };
        assert_eq!(tagger.method(), method, "{code}");
        if on {
            assert_eq!(tagger.tag(&["2024", "."]), [Upos::Num, Upos::Punct], "{code}");
        }
    }
    // Eleven shipped models, and ja, zh and ko as far as their features are on (14 in all).
    let segmented = [cfg!(feature = "ja"), cfg!(feature = "zh"), cfg!(feature = "ko")];
    assert_eq!(languages().count(), 11 + segmented.iter().filter(|&&on| on).count());
}

#[test]
#[cfg(all(feature = "ja", feature = "zh"))]
fn japanese_and_chinese_text_is_segmented_into_words() {
    let ja = Tagger::for_language("ja")
        .tag_text("政府は新しい法律を発表した。東京で 3人が参加しました！");
    let words: Vec<&str> = ja.iter().map(|(word, _)| *word).collect();
    assert_eq!(
        words,
        [
            "政府",
            "は",
            "新しい",
            "法律",
            "を",
            "発表",
            "し",
            "た",
            "。",
            "東京",
            "で",
            "3",
            "人",
            "が",
            "参加",
            "し",
            "まし",
            "た",
            "！"
        ]
    );
    let tags: Vec<&str> = ja.iter().map(|(_, tag)| tag.as_str()).collect();
    assert_eq!(
        tags.join(" "),
        "NOUN ADP ADJ NOUN ADP VERB AUX AUX PUNCT PROPN ADP NUM NOUN ADP VERB AUX AUX AUX PUNCT"
    );
    let zh = Tagger::for_language("zh").tag_text("国务院在北京发表了新政策。");
    let content: Vec<&str> =
        zh.iter().filter(|(_, tag)| is_content(*tag)).map(|(word, _)| *word).collect();
    // UD Chinese-GSD cuts 国务院 into 国务 院, and so does the re-segmentation learned from it.
    for word in ["北京", "发表", "政策"] {
        assert!(content.contains(&word), "{word} in {zh:?}");
    }
    assert!(!content.contains(&"了") && !content.contains(&"。"), "{zh:?}");
    let words: String = zh.iter().map(|(word, _)| *word).collect();
    assert_eq!(words, "国务院在北京发表了新政策。");

    // A budget cuts the last sentence.
    let mut seen = Vec::new();
    let tagged = Tagger::for_language("ja").tag_sentences(
        "東京は晴れ。大阪は雨。",
        5,
        |tokens, _| seen.push(tokens.len()),
    );
    assert_eq!((tagged, seen), (5, vec![4, 1]));
}

#[test]
fn shipped_models_tag_plain_sentences() {
    let en = Tagger::for_language("EN-us");
    assert_eq!(en.language(), "en");
    assert_eq!(
        en.tag(&["The", "president", "signed", "3", "new", "laws", "in", "Paris", "."]),
        tags("DET NOUN VERB NUM ADJ NOUN ADP PROPN PUNCT")
    );
    let es = Tagger::for_language("es");
    assert_eq!(
        es.tag(&["El", "Gobierno", "aprobó", "tres", "decretos", "."]),
        tags("DET NOUN VERB NUM NOUN PUNCT")
    );
    let de = Tagger::for_language("de");
    assert_eq!(
        de.tag(&["Die", "Regierung", "hat", "das", "Gesetz", "beschlossen", "."]),
        tags("DET NOUN AUX DET NOUN VERB PUNCT")
    );
}

#[test]
fn tag_text_tokenizes_and_splits_sentences() {
    let tagged = Tagger::for_language("en").tag_text("It rained. The match was cancelled!");
    let words: Vec<&str> = tagged.iter().map(|(word, _)| *word).collect();
    assert_eq!(words, ["It", "rained", ".", "The", "match", "was", "cancelled", "!"]);
    assert_eq!(tagged[2].1, Upos::Punct);
    assert_eq!(tagged[4].1, Upos::Noun);
}

#[test]
fn contractions_are_tagged_as_one_token() {
    // Treebanks split them into words (`di il`, `kata nya`, `var dır`); raw text does not.
    let it = Tagger::for_language("it");
    assert_eq!(it.tag(&["Il", "ministro", "del", "governo", "."]), tags("DET NOUN ADP NOUN PUNCT"));
    assert_eq!(
        it.tag(&["Vive", "negli", "Stati", "Uniti", "."]),
        tags("VERB ADP PROPN PROPN PUNCT")
    );
    let id = Tagger::for_language("id");
    assert_eq!(id.tag(&["Hujan", "akan", "turun", ",", "katanya", "."])[4], Upos::Verb);
    let tr = Tagger::for_language("tr");
    assert_eq!(tr.tag(&["Bu", "konuda", "bir", "sorun", "vardır", "."])[4], Upos::Noun);
}

#[test]
fn languages_without_a_model_fall_back_to_the_rules() {
    assert_eq!(Tagger::for_language("it").method(), Method::Model);
    assert_eq!(Tagger::for_language("pl").method(), Method::Heuristic, "GPL data: no model");
    let tagger = Tagger::heuristic("it");
    assert_eq!(tagger.method(), Method::Heuristic);
    assert_eq!(
        tagger.tag(&["Il", "governo", "di", "Roma", "ha", "approvato", "12", "decreti", "."]),
        tags("DET NOUN ADP PROPN AUX VERB NUM NOUN PUNCT")
    );
    assert_eq!(Tagger::heuristic("en").method(), Method::Heuristic);
    assert_eq!(Tagger::for_language("").method(), Method::Heuristic);
}

/// A made-up language for training tests: determiners, nouns, verbs, numbers.
fn toy_corpus() -> Vec<TaggedSentence> {
    let nouns = ["cat", "dog", "house", "river", "tree", "city"];
    let verbs = ["sees", "likes", "finds", "paints"];
    let mut sentences = Vec::new();
    for (i, noun) in nouns.iter().enumerate() {
        for (j, verb) in verbs.iter().enumerate() {
            let object = nouns[(i + j + 1) % nouns.len()];
            let words = ["the", noun, verb, &(i * 7 + j).to_string(), object, "."];
            sentences.push(TaggedSentence {
                words: words.iter().map(|word| (*word).to_owned()).collect(),
                tags: tags("DET NOUN VERB NUM NOUN PUNCT"),
                hints: Vec::new(),
            });
        }
    }
    sentences
}

fn toy_config() -> TrainConfig {
    TrainConfig {
        language: "xx".to_owned(),
        description: "toy".to_owned(),
        bits: 12,
        epochs: 4,
        seed: 7,
        dropout: 400,
        word_dropout: 100,
        second_pass: false,
        balance_content: true,
        contractions: vec![("thedog".to_owned(), Upos::Det, 2), ("the".to_owned(), Upos::Adp, 9)],
        analyser: Default::default(),
    }
}

#[test]
fn training_is_deterministic_and_the_format_round_trips() {
    let corpus = toy_corpus();
    let mut epochs = 0;
    let model = train(&toy_config(), &corpus, |_| epochs += 1);
    assert!(epochs >= 4, "progress is reported");
    let bytes = model.to_bytes();
    assert_eq!(train(&toy_config(), &corpus, |_| {}).to_bytes(), bytes, "same data, same bytes");
    let read = Model::from_bytes(&bytes).expect("the model reads back");
    assert_eq!(read, model);
    assert_eq!(read.to_bytes(), bytes);
    let tagger = Tagger::with_model(read);
    assert_eq!(tagger.language(), "xx");
    assert_eq!(tagger.tag(&["TheDog", "sees"])[0], Upos::Det, "a contraction is sure of its tag");
    assert_eq!(tagger.tag(&["the", "dog"])[0], Upos::Det, "a frequent word is not overridden");
    assert_eq!(
        tagger.tag(&["the", "dog", "paints", "41", "tree", "."]),
        tags("DET NOUN VERB NUM NOUN PUNCT")
    );

    let mut two_pass = toy_config();
    two_pass.second_pass = true;
    let model = train(&two_pass, &corpus, |_| {});
    let read = Model::from_bytes(&model.to_bytes()).expect("a two-pass model reads back");
    assert_eq!(
        Tagger::with_model(read).tag(&["the", "city", "likes", "3", "river", "."]),
        tags("DET NOUN VERB NUM NOUN PUNCT")
    );
}

/// Feature augmentation: where another treebank's conventions differ, the model keeps its own
/// treebank's (pooled, the larger treebank's win).
#[test]
fn an_auxiliary_treebank_does_not_impose_its_conventions() {
    let corpus = toy_corpus();
    assert_eq!(
        train_adapted(&toy_config(), &corpus, &[], |_| {}).to_bytes(),
        train(&toy_config(), &corpus, |_| {}).to_bytes(),
        "no auxiliary sentences: the model of `train`, byte for byte"
    );
    // Another treebank, twice as large, tags `city` `PROPN` (the toy corpus: `NOUN`).
    let mut auxiliary = Vec::new();
    for copy in 0..16 {
        for verb in ["ran", "ate", "saw"] {
            let words = ["the", "city", verb, &(copy + 1).to_string(), "lake", "."];
            auxiliary.push(TaggedSentence {
                words: words.iter().map(|word| (*word).to_owned()).collect(),
                tags: tags("DET PROPN VERB NUM NOUN PUNCT"),
                hints: Vec::new(),
            });
        }
    }
    let mut config = toy_config();
    config.epochs = 8;
    let sentence = ["the", "city", "ran", "3", "tree", "."];
    let adapted = Tagger::with_model(train_adapted(&config, &corpus, &auxiliary, |_| {}));
    assert_eq!(adapted.tag(&sentence), tags("DET NOUN VERB NUM NOUN PUNCT"));
    let pooled: Vec<TaggedSentence> = corpus.iter().chain(&auxiliary).cloned().collect();
    let pooled = Tagger::with_model(train(&config, &pooled, |_| {}));
    assert_eq!(pooled.tag(&sentence)[1], Upos::Propn, "pooled, the other convention wins");
}

/// A model trained for your own use tags a language that ships none, and only that.
#[test]
fn own_models_tag_a_language_that_ships_none() {
    let mut config = toy_config();
    config.language = "pl".to_owned();
    let model = train(&config, &toy_corpus(), |_| {});
    let mut danish = config.clone();
    danish.language = "da".to_owned();
    let mut own = OwnModels::default();
    own.add(model);
    own.add(train(&danish, &toy_corpus(), |_| {}));
    assert_eq!(own.languages().collect::<Vec<_>>(), ["da", "pl"]);
    let sentence = ["the", "dog", "paints", "41", "tree", "."];

    let tagger = Tagger::for_language_in("pl-PL", Some(&own));
    assert_eq!(tagger.method(), Method::Model);
    assert_eq!(tagger.tag(&sentence), tags("DET NOUN VERB NUM NOUN PUNCT"));
    assert_eq!(Tagger::for_language_in("pl", None).method(), Method::Heuristic);
    assert_eq!(Tagger::for_language_in("cs", Some(&own)).method(), Method::Heuristic);
    // A shipped model is not replaced.
    let shipped = Tagger::for_language_in("da", Some(&own));
    assert_eq!(
        shipped.model().map(Model::description),
        Tagger::for_language("da").model().map(Model::description)
    );
}

#[test]
fn a_model_for_another_feature_set_is_refused() {
    let mut bytes = train(&toy_config(), &toy_corpus(), |_| {}).to_bytes();
    bytes[8] ^= 0xff;
    let error = Model::from_bytes(&bytes).unwrap_err().to_string();
    assert!(error.contains("checksum"), "{error}");
}

#[test]
fn a_megabyte_token_is_tagged_in_linear_time() {
    let long = "ab".repeat(1 << 19);
    let text = format!("{long} {long}.");
    for tagger in [Tagger::for_language("da"), Tagger::for_language("xx")] {
        assert_eq!(tagger.tag(&[&long, &long]).len(), 2);
        assert_eq!(tagger.tag_text(&text).len(), 3);
    }
    #[cfg(all(feature = "ja", feature = "zh"))]
    for tagger in [Tagger::for_language("ja"), Tagger::for_language("zh")] {
        let kanji = "東京大阪".repeat(1 << 16);
        assert_eq!(tagger.tag(&[&long, &kanji]).len(), 2);
        let joined: String = tagger.tag_text(&text).into_iter().map(|(word, _)| word).collect();
        assert_eq!(joined.len(), text.len() - 1);
        let words = tagger.tag_text(&kanji);
        assert!(words.len() >= 1 << 17, "{}", words.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_tokens_never_panic(tokens in prop::collection::vec(".{0,12}", 0..12)) {
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        for tagger in [Tagger::for_language("fr"), Tagger::for_language("sv")] {
            prop_assert_eq!(tagger.tag(&tokens).len(), tokens.len());
        }
    }

    #[test]
    fn tokens_are_the_text_without_white_space(text in "\\PC{0,60}") {
        let tokens = tokenize(&text);
        let joined: String = tokens.concat();
        let expected: String = text.split(char::is_whitespace).collect();
        prop_assert_eq!(joined, expected);
        prop_assert!(tokens.iter().all(|token| !token.is_empty()));
        let tagged = Tagger::for_language("de").tag_text(&text);
        prop_assert_eq!(tagged.len(), tokens.len());
    }

    #[test]
    fn segmented_words_are_the_text_without_white_space(
        text in "[\\p{Han}\\p{Hiragana}\\p{Katakana}a-z0-9 、。！？「」\\n]{0,40}|\\PC{0,40}",
        language in "ja|zh",
    ) {
        let tagger = Tagger::for_language(&language);
        let words = tagger.tag_text(&text);
        prop_assert!(words.iter().all(|(word, _)| !word.is_empty() && word.trim() == *word));
        let joined: String = words.iter().map(|(word, _)| *word).collect::<String>().split(char::is_whitespace).collect();
        let expected: String = text.split(char::is_whitespace).collect();
        prop_assert_eq!(joined, expected);
        let tokens: Vec<&str> = words.iter().map(|(word, _)| *word).collect();
        prop_assert_eq!(tagger.tag(&tokens).len(), tokens.len());
    }

    /// Every key is a non-empty prefix of its token (a Korean word's noun, or the token), one per
    /// token, whatever the text.
    #[cfg(feature = "ko")]
    #[test]
    fn korean_keys_are_prefixes_of_their_words(
        text in "[\\p{Hangul}a-z0-9 .,!?\"()\n]{0,40}|\\PC{0,40}",
    ) {
        let mut checked = Ok(());
        Tagger::for_language("ko").tag_sentences_keyed(&text, usize::MAX, |tokens, tags, keys| {
            let ok = tokens.len() == tags.len()
                && tokens.len() == keys.len()
                && tokens.iter().zip(keys).all(|(token, key)| {
                    !key.form.is_empty()
                        && token.starts_with(key.form)
                        && token.as_ptr() == key.form.as_ptr()
                });
            if !ok && checked.is_ok() {
                checked = Err(format!("{tokens:?} {keys:?}"));
            }
        });
        prop_assert!(checked.is_ok(), "{:?}", checked);
    }
}
