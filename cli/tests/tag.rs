//! `morgue tag`: CoNLL-U in, the same lines out with the UPOS column filled.

use crate::{morgue_with_stdin, morgue_with_stdin_and_env, stderr, stdout};

/// Made-up sentences in the shapes the treebanks use: comments, a multiword token, an empty
/// node, full and minimal columns.
const INPUT: &str = "\
# sent_id = 1
# text = The court ruled on 12 May.
1\tThe\t_\t_\t_\t_\t_\t_\t_\t_
2\tcourt\t_\t_\t_\t_\t_\t_\t_\t_
3\truled\t_\t_\t_\t_\t_\t_\t_\t_
4\ton\t_\t_\t_\t_\t_\t_\t_\t_
5\t12\t_\t_\t_\t_\t_\t_\t_\t_
6\tMay\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
7\t.\t_\t_\t_\t_\t_\t_\t_\t_

# sent_id = 2
1-2\twon't\t_\t_\t_\t_\t_\t_\t_\t_
1\two\t_\t_\t_\t_\t_\t_\t_\t_
2\tn't\t_\t_\t_\t_\t_\t_\t_\t_
3\tgo\t_\t_\t_\t_\t_\t_\t_\t_
3.1\tgo\t_\t_\t_\t_\t_\t_\t_\t_
4\thome
";

fn columns(line: &str) -> Vec<&str> {
    line.split('\t').collect()
}

#[test]
fn fills_upos_and_passes_everything_else_through() {
    let output = morgue_with_stdin(&["tag", "--lang", "en"], INPUT.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let (inputs, outputs): (Vec<&str>, Vec<&str>) =
        (INPUT.lines().collect(), out.lines().collect());
    assert_eq!(inputs.len(), outputs.len(), "{out}");
    for (input, output) in inputs.iter().zip(&outputs) {
        let id = input.split('\t').next().unwrap_or_default();
        if input.starts_with('#') || input.is_empty() || id.contains(['-', '.']) {
            assert_eq!(input, output);
        } else {
            let (mut expected, got) = (columns(input), columns(output));
            expected.resize(10, "_");
            assert_eq!(got.len(), 10, "{output}");
            for k in (0..10).filter(|&k| k != 3) {
                assert_eq!(got[k], expected[k], "{output}");
            }
        }
    }
    let upos: Vec<&str> = outputs
        .iter()
        .map(|line| columns(line))
        .filter(|c| c.len() == 10 && !c[0].contains(['-', '.']))
        .map(|c| c[3])
        .collect();
    assert_eq!(
        upos,
        ["DET", "NOUN", "VERB", "ADP", "NUM", "PROPN", "PUNCT", "AUX", "PART", "VERB", "ADV"]
    );
    assert!(outputs[7].ends_with("SpaceAfter=No"), "{}", outputs[7]);
}

#[test]
fn a_malformed_line_is_reported_with_its_number_and_nothing_is_lost() {
    let input = "1\tBonjour\n2\t!\n\noops no tabs\n1\tMerci\n\n1\tmaison\tmaison\n";
    let output = morgue_with_stdin(&["tag", "--lang", "fr"], input.as_bytes());
    assert!(!output.status.success());
    let err = stderr(&output);
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: line 4: "), "{err}");
    assert!(last.contains("ID and FORM"), "{err}");
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert_eq!(lines[3], "oops no tabs");
    assert_eq!(columns(lines[4])[1], "Merci");
    assert_eq!(columns(lines[4])[3], "INTJ");
    assert_eq!(columns(lines[6])[3], "NOUN", "the last sentence is tagged too");
}

#[test]
fn counts_the_malformed_lines_beyond_the_first() {
    let output = morgue_with_stdin(&["tag", "--lang", "de"], b"x\ty\n0\tnull\n1-x\tz\n");
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(err.contains("error: line 1: bad ID \"x\""), "{err}");
    assert!(err.contains("(and 2 more malformed lines)"), "{err}");
    assert_eq!(stdout(&output), "x\ty\n0\tnull\n1-x\tz\n");
}

/// One made-up news sentence per language added with issue 25, in CoNLL-U with some columns
/// filled, and the tags its model should give (the UD conventions of each treebank).
const NEW_LANGUAGES: [(&str, &str, &str); 4] = [
    (
        "id",
        "Presiden meresmikan tiga jembatan baru di Surabaya pada hari Senin .",
        "NOUN VERB NUM NOUN ADJ ADP PROPN ADP NOUN PROPN PUNCT",
    ),
    (
        "it",
        "Il governo ha approvato 12 decreti di il ministro .",
        "DET NOUN AUX VERB NUM NOUN ADP DET NOUN PUNCT",
    ),
    ("ru", "Правительство утвердило новый закон в Москве .", "NOUN VERB ADJ NOUN ADP PROPN PUNCT"),
    ("tr", "Hükümet yeni yasayı Ankara'da kabul etti .", "NOUN ADJ NOUN PROPN NOUN VERB PUNCT"),
];

/// `words` as one CoNLL-U sentence with a comment, the lemma column filled with the word in
/// capitals and, for Italian, `di il` as the multiword token `del`.
fn conllu_sentence(words: &str) -> String {
    let mut out = format!("# text = {words}\n");
    let words: Vec<&str> = words.split(' ').collect();
    for (at, word) in words.iter().enumerate() {
        if *word == "di" && words.get(at + 1) == Some(&"il") {
            out.push_str(&format!("{}-{}\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n", at + 1, at + 2));
        }
        let lemma = word.to_uppercase();
        out.push_str(&format!("{}\t{word}\t{lemma}\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n", at + 1));
    }
    out.push('\n');
    out
}

/// The UPOS column of the word lines of `output`, and every other line and column unchanged.
fn tags_after_round_trip(input: &str, output: &str) -> Vec<String> {
    let (inputs, outputs): (Vec<&str>, Vec<&str>) =
        (input.lines().collect(), output.lines().collect());
    assert_eq!(inputs.len(), outputs.len(), "{output}");
    let mut tags = Vec::new();
    for (input, output) in inputs.iter().zip(&outputs) {
        let (expected, got) = (columns(input), columns(output));
        if input.starts_with('#') || input.is_empty() || expected[0].contains('-') {
            assert_eq!(input, output);
            continue;
        }
        assert_eq!(got.len(), 10, "{output}");
        for k in (0..10).filter(|&k| k != 3) {
            assert_eq!(got[k], expected[k], "{output}");
        }
        tags.push(got[3].to_owned());
    }
    tags
}

#[test]
fn indonesian_italian_russian_and_turkish_have_models_and_round_trip() {
    for (language, words, expected) in NEW_LANGUAGES {
        let input = conllu_sentence(words);
        let output = morgue_with_stdin(&["tag", "--lang", language], input.as_bytes());
        assert!(output.status.success(), "{language}: {}", stderr(&output));
        assert!(!stderr(&output).contains("no tagger model"), "{language}: {}", stderr(&output));
        let tags = tags_after_round_trip(&input, &stdout(&output));
        assert_eq!(tags.join(" "), expected, "{language}");
    }
}

#[test]
fn languages_without_a_model_use_the_fallback() {
    // Polish has no model: its treebank is under the GNU GPL (docs/tagger.md).
    let input = conllu_sentence("Rząd przyjął nową ustawę w Warszawie .");
    let output = morgue_with_stdin(&["tag", "--lang", "pl"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("no tagger model for \"pl\""), "{}", stderr(&output));
    let tags = tags_after_round_trip(&input, &stdout(&output));
    assert_eq!(tags.join(" "), "NOUN NOUN NOUN NOUN NOUN PROPN PUNCT");
}

/// A model trained for your own use (`train_tagger --own DIR`) tags Polish when
/// `MORGUE_TAGGER_MODELS` names its directory; a file there that is no model is said once and
/// the fallback tags.
#[test]
fn a_model_of_your_own_tags_a_language_that_ships_none() {
    use dedup::tagger::train::{TaggedSentence, TrainConfig, train};
    use dedup::tagger::{OWN_MODELS_VAR, Upos};
    // A made-up corpus whose words the fallback would tag otherwise (it calls them all nouns).
    let tags = [Upos::Det, Upos::Noun, Upos::Verb, Upos::Adv, Upos::Punct];
    let nouns = ["rząd", "sejm", "miasto", "ustawa"];
    let verbs = ["przyjął", "odrzucił", "zmienił"];
    let mut corpus = Vec::new();
    for noun in nouns {
        for verb in verbs {
            corpus.push(TaggedSentence {
                words: ["ten", noun, verb, "szybko", "."].map(str::to_owned).to_vec(),
                tags: tags.to_vec(),
                hints: Vec::new(),
            });
        }
    }
    let config = TrainConfig {
        language: "pl".to_owned(),
        description: "a test's own model".to_owned(),
        bits: 12,
        epochs: 8,
        seed: 1,
        dropout: 0,
        word_dropout: 0,
        second_pass: false,
        balance_content: false,
        contractions: Vec::new(),
        analyser: Default::default(),
    };
    let dir = tempfile::tempdir().expect("a directory");
    let model = train(&config, &corpus, |_| {});
    std::fs::write(dir.path().join("pl.upos"), model.to_bytes()).expect("write the model");

    let input = conllu_sentence("ten sejm odrzucił szybko .");
    let env = [(OWN_MODELS_VAR, dir.path().as_os_str())];
    let output = morgue_with_stdin_and_env(&["tag", "--lang", "pl"], input.as_bytes(), &env);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stderr(&output).contains("no tagger model"), "{}", stderr(&output));
    let tags = tags_after_round_trip(&input, &stdout(&output));
    assert_eq!(tags.join(" "), "DET NOUN VERB ADV PUNCT");

    std::fs::write(dir.path().join("pl.upos"), b"not a model").expect("spoil the model");
    let output = morgue_with_stdin_and_env(&["tag", "--lang", "pl"], input.as_bytes(), &env);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stderr(&output);
    assert_eq!(said.matches("cannot use the tagger model").count(), 1, "{said}");
    assert!(said.contains("no tagger model for \"pl\""), "{said}");
}

#[test]
fn crlf_bytes_and_a_missing_final_newline() {
    let input = b"# caf\xe9\r\n1\tNo\xffel\r\n2\tarrive\r\n\r\n1\tFin";
    let output = morgue_with_stdin(&["tag", "--lang", "fr"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[0], "# caf\u{fffd}");
    assert_eq!(lines[3], "");
    assert_eq!(columns(lines[4])[1], "Fin");
}

#[test]
fn a_large_input_stays_in_order() {
    let input: String = (0..5_000)
        .map(|i| format!("# sent_id = {i}\n1\tSentence\n2\tnumber\n3\t{i}\n4\t.\n\n"))
        .collect();
    let output = morgue_with_stdin(&["tag", "--lang", "en"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30_000);
    assert_eq!(lines[6 * 4321], "# sent_id = 4321");
    assert_eq!(columns(lines[6 * 4321 + 3])[1], "4321");
    assert_eq!(columns(lines[6 * 4321 + 3])[3], "NUM");
}

#[test]
fn input_without_blank_lines_is_tagged_in_bounded_parts() {
    let input: String = (1..=25_000).map(|i| format!("{i}\tword\n")).collect();
    let output = morgue_with_stdin(&["tag", "--lang", "nl"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    assert_eq!(out.lines().count(), 25_000);
    assert!(out.lines().all(|line| columns(line)[3] != "_"));
}
