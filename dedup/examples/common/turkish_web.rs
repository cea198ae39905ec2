//! Google's Turkish Web Treebank (TWT: forum, blog and Wikipedia sentences), as the PyPI
//! package `turkish-treebanks` 1.0.0 carries it (`data/web.conllu`, `data/wiki.conllu`; Apache
//! 2.0), read into words with UPOS tags for `train_tagger`'s Turkish web model.
//!
//! TWT splits a word into its inflectional groups, one line each (`Açık` `la` `nma` `yan`: a
//! root line, then lines whose lemma is `_`), tagged with Google's universal tags (12, no
//! `PROPN`, `AUX`, `SCONJ`) and a fine tag (`NNP` proper noun, `VN` verbal noun, `VJ`
//! participle, `CRB` converb, `NOMP` nominal predicate). A word is its groups joined, tagged
//! by its last group, mapped to UPOS as UD Turkish-BOUN tags such words (the majority of BOUN's
//! tags for the words both treebanks hold): verbal nouns, participles and converbs are `VERB`,
//! a nominal predicate takes the tag of the group before it (a `-li`/`-siz` derivation `ADJ`,
//! the question particle `mı` with its copula `AUX`), `CONJ` `CCONJ`, particles `AUX` (`mı`,
//! `değil`) or `CCONJ` (`da`, `de`) or `PART`. The mapping is rough; the tags are used only as
//! hints for the Turkish model, which learns how far to trust them (docs/tagger.md).

use std::path::Path;

use dedup::tagger::Upos;

/// One inflectional group: form, lemma, coarse tag, fine tag, features.
struct Group<'a> {
    form: &'a str,
    lemma: &'a str,
    coarse: &'a str,
    fine: &'a str,
    features: &'a str,
}

/// One sentence: its words and their tags.
pub(crate) struct Sentence {
    pub(crate) words: Vec<String>,
    pub(crate) tags: Vec<Upos>,
}

/// The sentences of one TWT file.
pub(crate) fn read(path: &Path) -> Result<Vec<Sentence>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for line in text.lines().chain([""]) {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            if !groups.is_empty() {
                let (words, tags) = words(&groups);
                out.push(Sentence { words, tags });
                groups.clear();
            }
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 10 {
            return Err(format!("{}: not a CoNLL-U line: {line}", path.display()));
        }
        groups.push(Group {
            form: fields[1],
            lemma: fields[2],
            coarse: fields[3],
            fine: fields[4],
            features: fields[5],
        });
    }
    Ok(out)
}

/// The words of a sentence's groups: a group whose lemma is `_` continues the word before it
/// (punctuation never does).
fn words(groups: &[Group]) -> (Vec<String>, Vec<Upos>) {
    let mut words = Vec::new();
    let mut tags = Vec::new();
    let mut start = 0;
    for end in 1..=groups.len() {
        let continues =
            groups.get(end).is_some_and(|group| group.lemma == "_" && group.coarse != "PUNCT");
        if continues {
            continue;
        }
        let word = &groups[start..end];
        words.push(word.iter().map(|group| group.form).collect());
        tags.push(tag(word));
        start = end;
    }
    (words, tags)
}

/// The UPOS of a word from its groups (module docs).
fn tag(word: &[Group]) -> Upos {
    let (first, last) = (&word[0], &word[word.len() - 1]);
    if first.fine == "NNP" || last.fine == "NNP" {
        return Upos::Propn;
    }
    match (last.coarse, last.fine) {
        ("NOUN", "VN") | ("ADJ", "VJ") | ("ADV", "CRB") => Upos::Verb,
        ("NOUN", _) => Upos::Noun,
        ("ADJ", _) => Upos::Adj,
        ("ADV", _) => Upos::Adv,
        ("VERB", "NOMP") => {
            let question = |group: &Group| matches!(group.lemma, "mı" | "mi" | "mu" | "mü");
            if question(first) || question(last) {
                Upos::Aux
            } else if last.features.contains("Derivation=With")
                || last.features.contains("Derivation=Wout")
            {
                Upos::Adj
            } else if word.len() == 1 {
                Upos::Noun
            } else {
                match word[word.len() - 2].coarse {
                    "VERB" => Upos::Verb,
                    "ADJ" => Upos::Adj,
                    "PRON" => Upos::Pron,
                    "ADV" => Upos::Adv,
                    "NUM" => Upos::Num,
                    "DET" => Upos::Det,
                    _ => Upos::Noun,
                }
            }
        }
        ("VERB", _) => Upos::Verb,
        ("CONJ", _) => Upos::Cconj,
        ("PRT", "RPQ" | "RPNEG") => Upos::Aux,
        ("PRT", "RPC") => Upos::Cconj,
        ("PRT", _) => Upos::Part,
        ("PRON", _) => Upos::Pron,
        ("DET", _) => Upos::Det,
        ("ADP", _) => Upos::Adp,
        ("NUM", _) => Upos::Num,
        ("PUNCT", _) => Upos::Punct,
        ("X", "SYM") => Upos::Sym,
        ("X", "UH") => Upos::Intj,
        ("X", "NFP") => Upos::Punct,
        ("ONOM", _) => Upos::Adv,
        _ => Upos::X,
    }
}
