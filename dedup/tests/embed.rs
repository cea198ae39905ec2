//! The shipped static embedder: loading, known tokenisation, determinism, edge cases, no panics.

use std::sync::OnceLock;

use dedup::embed::{Embedder, ModelError, StaticEmbedder, cosine, default_model};
use proptest::prelude::*;

/// Built once per test process: parsing the tokenizer is the slow part in a debug build.
fn model() -> &'static StaticEmbedder {
    static MODEL: OnceLock<StaticEmbedder> = OnceLock::new();
    MODEL.get_or_init(|| default_model().expect("the shipped model loads"))
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

#[test]
fn shipped_model_has_the_documented_shape() {
    let model = model();
    assert_eq!(model.dim(), 256);
    assert_eq!(model.max_tokens(), dedup::embed::DEFAULT_MAX_TOKENS);
    let v = model.embed("The central bank raised interest rates.");
    assert_eq!(v.len(), 256);
    assert!((norm(&v) - 1.0).abs() < 1e-5);
}

#[test]
fn tokenisation_matches_sentencepiece_on_known_text() {
    // Ids from the `sentencepiece` package on the original sp.model.
    let cases: [(&str, &[u32]); 2] = [
        (
            "Hello   world,  héllo ﬁ  Ｔｏｋｙｏ 東京都  مرحبا",
            &[17486, 1017, 7, 105497, 540, 7950, 20769, 71549, 21991, 33916, 668],
        ),
        ("The central bank raised interest rates.", &[76, 5552, 4913, 8998, 4469, 11567, 8]),
    ];
    for (text, ids) in cases {
        assert_eq!(model().token_ids(text), ids, "{text}");
        assert_eq!(model().embedded_ids(text), ids, "{text}");
    }
    // Whitespace that SentencePiece keeps inside a word (vertical tab, U+0085) is no word break.
    let text = "a\u{b}b c\u{85}d\u{a0}e\u{3000}f\u{2028}g";
    assert_eq!(model().embedded_ids(text), model().token_ids(text));
}

#[test]
fn embedding_is_deterministic_and_identical_texts_have_cosine_one() {
    let text =
        "Le gouvernement a annoncé lundi de nouvelles mesures de soutien aux petites entreprises.";
    let a = model().embed(text);
    let b = model().embed(text);
    assert_eq!(a, b);
    assert!((cosine(&a, &b) - 1.0).abs() < 1e-5);
    // Another instance (its own cache) and another thread give the same bits.
    let fresh = default_model().unwrap().with_cache_capacity(0);
    assert_eq!(fresh.embed(text), a);
    let other = std::thread::scope(|s| s.spawn(|| model().embed(text)).join().unwrap());
    assert_eq!(other, a);
    assert_eq!(model().embed_batch(&[text, "x"]), vec![a, model().embed("x")]);
}

#[test]
fn empty_and_unknown_texts_give_zero_vectors() {
    for text in ["", "   \n\t ", "\u{2603}\u{2603} \u{2603}", "\u{0}\u{1}", "\u{200b}"] {
        let v = model().embed(text);
        assert_eq!(v.len(), 256);
        assert!(v.iter().all(|x| *x == 0.0), "{text:?}");
        assert_eq!(cosine(&v, &model().embed("news")), 0.0);
    }
}

#[test]
fn edited_copies_and_translations_score_above_unrelated_text() {
    let text = "Heavy snow closed several roads in the capital overnight. City workers cleared the \
                main streets by morning. Schools will stay closed on Tuesday, the mayor said.";
    let edited = "City workers cleared the main streets by morning. Heavy snow closed several \
                  roads in the capital overnight. Die Schulen bleiben am Dienstag geschlossen.";
    let translation = "Una fuerte nevada cerró varias carreteras de la capital durante la noche.";
    let unrelated = "The company reported record profits as sales of its new phone rose sharply \
                     in Asia and Europe during the third quarter.";
    let [t, e, tr, u] = [text, edited, translation, unrelated].map(|s| model().embed(s));
    assert!(cosine(&t, &e) > 0.7, "{}", cosine(&t, &e));
    assert!(cosine(&t, &e) > cosine(&t, &u) + 0.3);
    assert!(cosine(&t, &tr) > cosine(&t, &u));
}

#[test]
fn only_the_first_max_tokens_pieces_count() {
    let model = default_model().unwrap().with_max_tokens(8);
    let long = "one two three four five six seven eight nine ten eleven twelve";
    assert_eq!(model.embedded_ids(long).len(), 8);
    assert_eq!(model.embed(long), model.embed("one two three four five six seven eight"));
    // A very long text without spaces is cut too, and still embeds.
    let huge = "\u{6771}".repeat(1 << 20);
    assert!(model.embedded_ids(&huge).len() <= 8);
    assert!((norm(&model.embed(&huge)) - 1.0).abs() < 1e-5);
}

#[test]
fn malformed_model_files_are_errors() {
    assert!(matches!(StaticEmbedder::from_bytes(b"{", b""), Err(ModelError::Tokenizer(_))));
    let tokenizer = br#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],
        "normalizer":null,"pre_tokenizer":{"type":"Metaspace","replacement":"\u2581",
        "prepend_scheme":"always","split":true},"post_processor":null,"decoder":null,
        "model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0.0],["\u2581a",-1.0]],
        "byte_fallback":false}}"#;
    assert!(matches!(StaticEmbedder::from_bytes(tokenizer, b"junk"), Err(ModelError::Weights(_))));
    let weights = safetensors(3);
    let error = StaticEmbedder::from_bytes(tokenizer, &weights).unwrap_err();
    assert!(matches!(error, ModelError::Mismatch { vocab: 2, rows: 3 }), "{error}");
    let tiny = StaticEmbedder::from_bytes(tokenizer, &safetensors(2)).unwrap();
    assert_eq!(tiny.dim(), 2);
    assert_eq!(tiny.embed("a a"), vec![0.6, 0.8]);
    assert_eq!(tiny.embed("b"), vec![0.0, 0.0]);
}

/// A table of `rows` rows of dimension 2: every row (3, 4) with scale 1, except row 0 (zero).
fn safetensors(rows: usize) -> Vec<u8> {
    let header = format!(
        r#"{{"embeddings":{{"dtype":"I8","shape":[{rows},2],"data_offsets":[0,{e}]}},"scales":{{"dtype":"F32","shape":[{rows}],"data_offsets":[{e},{end}]}}}}"#,
        e = rows * 2,
        end = rows * 2 + rows * 4,
    );
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header.as_bytes());
    out.extend([0, 0]);
    for _ in 1..rows {
        out.extend([3, 4]);
    }
    out.extend(0f32.to_le_bytes());
    for _ in 1..rows {
        out.extend(1f32.to_le_bytes());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics_and_is_unit_or_zero(text in any::<String>()) {
        let v = model().embed(&text);
        prop_assert_eq!(v.len(), 256);
        prop_assert!(v.iter().all(|x| x.is_finite()));
        let n = norm(&v);
        prop_assert!(n == 0.0 || (n - 1.0).abs() < 1e-4, "norm {}", n);
    }

    #[test]
    fn word_by_word_matches_whole_text_tokenisation(
        text in "[ \t\n\r\u{b}\u{c}\u{85}\u{a0}\u{2028}\u{3000}a-zA-Z0-9éüßçñ.,;:!?'()\\-Ж東京]{0,80}"
    ) {
        prop_assert_eq!(model().embedded_ids(&text), model().token_ids(&text));
    }
}
