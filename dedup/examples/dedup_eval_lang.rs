//! Dedup quality per language, on texts built from the Universal Dependencies treebanks' real
//! sentences: Japanese, Chinese, Korean and Indonesian, with English built the same way beside
//! them.
//!
//! ```sh
//! cargo run --release -p dedup --example dedup_eval_lang -- ../shared/data/ud [--seed N]
//! ```
//!
//! `dedup_eval` measures on wcxb-dev's articles, which hold almost no text in these languages.
//! Here each treebank's sentences are grouped back into documents: by the document ids where a
//! treebank has them (`# newdoc id` in English EWT, the `sent_id` prefix in Korean Kaist,
//! `M2TA_069-s1`), else as runs of ten consecutive sentences in file order (Japanese GSD,
//! Chinese GSDSimp, Korean GSD, Indonesian CSUI and GSD, whose sentences carry no document;
//! neighbouring sentences there are often, not always, of one text). Each document of at least
//! six sentences, in paragraphs of three, is a story, and the dedup issue's kinds are made from
//! it where they can be (a seeded generator; gold words from the treebank find the names and
//! numbers, never the tagger under test):
//!
//! - **copy** (truth `duplicate`): the text under a dateline of an agency and with a footer;
//! - **edited copy** (`duplicate`): a sentence after the first paragraph dropped, the last two
//!   paragraphs swapped, a dateline;
//! - **brief** (`duplicate`): the first paragraph (three sentences) of a story of at least nine
//!   sentences, under a dateline;
//! - **update** (`similar`): a third to a half of the numbers changed (at least one), and a
//!   sentence of another document added as a paragraph;
//! - **template story** (a story of its own, a negative of the original): every name (gold
//!   `PROPN` words; for Korean every eojeol whose first morpheme is a proper noun by its XPOS,
//!   Kaist's `nq` or GSD's `NNP`, whatever its UPOS, and the name is the first morpheme of the
//!   eojeol's lemma, `서울` of `서울의`) replaced
//!   by another name of the language's documents, every number by another of the same shape;
//!   made when the story has at least two names and one number.
//!
//! The rules are the shipped ones (`Config::default()`), nothing is tuned here. Prints per
//! language the pairwise precision, recall and F1 of each relation, B-cubed F1 of the clusters,
//! the share of each kind's pairs given the true relation, and the share of template pairs and
//! of other pairs linked.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod evalset;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use dedup::{Config, Deduper, Document, Relation};
use evalset::Rng;

/// One sentence: its text and the names and numbers its gold words hold.
#[derive(Debug, Clone)]
struct Sentence {
    text: String,
    names: Vec<String>,
    numbers: Vec<String>,
}

/// A language's treebank files, how its documents are found, its sentence separator and
/// its agencies' datelines and footers.
struct Language {
    code: &'static str,
    files: &'static [&'static str],
    separator: &'static str,
    datelines: &'static [&'static str],
    footers: &'static [&'static str],
}

const LANGUAGES: [Language; 5] = [
    Language {
        code: "en",
        files: &["UD_English-EWT/en_ewt-ud-dev.conllu"],
        separator: " ",
        datelines: &["LONDON (Reuters) -", "(AP) —", "WASHINGTON —"],
        footers: &["Reporting by staff; editing by the desk.", "© 2024 The Associated Press."],
    },
    Language {
        code: "ja",
        files: &["UD_Japanese-GSD/ja_gsd-ud-dev.conllu", "UD_Japanese-GSD/ja_gsd-ud-test.conllu"],
        separator: "",
        datelines: &["【共同】", "【ロイター】", "（時事通信）"],
        footers: &["（共同通信）", "無断転載を禁じます。"],
    },
    Language {
        code: "zh",
        files: &[
            "UD_Chinese-GSDSimp/zh_gsdsimp-ud-dev.conllu",
            "UD_Chinese-GSDSimp/zh_gsdsimp-ud-test.conllu",
        ],
        separator: "",
        datelines: &["新华社北京电", "（中新网）", "据人民网报道，"],
        footers: &["（完）", "责任编辑：王明"],
    },
    Language {
        code: "ko",
        files: &[
            "UD_Korean-Kaist/ko_kaist-ud-dev.conllu",
            "UD_Korean-Kaist/ko_kaist-ud-test.conllu",
            "UD_Korean-GSD/ko_gsd-ud-dev.conllu",
            "UD_Korean-GSD/ko_gsd-ud-test.conllu",
        ],
        separator: " ",
        datelines: &["(서울=연합뉴스)", "[뉴스1]", "(서울=뉴시스)"],
        footers: &["(끝)", "무단 전재 및 재배포 금지"],
    },
    Language {
        code: "id",
        files: &[
            "UD_Indonesian-CSUI/id_csui-ud-train.conllu",
            "UD_Indonesian-CSUI/id_csui-ud-test.conllu",
            "UD_Indonesian-GSD/id_gsd-ud-dev.conllu",
            "UD_Indonesian-GSD/id_gsd-ud-test.conllu",
        ],
        separator: " ",
        datelines: &["JAKARTA, KOMPAS.com -", "Jakarta (ANTARA) -", "TEMPO.CO, Jakarta -"],
        footers: &["(Antara)", "Baca berita lainnya di kanal kami."],
    },
];

/// Sentences of a document without ids grouped by this many.
const RUN: usize = 10;
/// At most this many stories per language.
const MOST_STORIES: usize = 150;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut ud = None;
    let mut seed = 20_260_125_u64;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            other => ud = Some(other.to_owned()),
        }
    }
    let Some(ud) = ud else {
        eprintln!("usage: dedup_eval_lang /path/to/ud [--seed N]");
        std::process::exit(2);
    };
    let dedup = Deduper::new(Config { threads: 2, ..Config::default() }).expect("model");
    println!(
        "| lang | documents (stories) | duplicate P / R / F1 | similar P / R / F1 | B-cubed F1 | copy | edited copy | brief | update | template pairs linked | other pairs linked |"
    );
    println!("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for language in &LANGUAGES {
        let mut documents = Vec::new();
        for file in language.files {
            let path = Path::new(&ud).join(file);
            match read_documents(&path, language.code) {
                Ok(found) => documents.extend(found),
                Err(err) => {
                    eprintln!("error: {}: {err}", path.display());
                    std::process::exit(1);
                }
            }
        }
        let mut rng = Rng::new(seed ^ evalset_hash(language.code));
        let docs = generate(language, &documents, &mut rng);
        evaluate(language.code, &docs, &dedup);
    }
}

fn evalset_hash(text: &str) -> u64 {
    dedup::text::hash_bytes(text.as_bytes())
}

/// The documents of a CoNLL-U file, each a list of sentences.
fn read_documents(path: &Path, language: &str) -> Result<Vec<Vec<Sentence>>, String> {
    let data = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut documents: Vec<Vec<Sentence>> = Vec::new();
    let mut current_id: Option<String> = None;
    let mut has_ids = false;
    let mut sentence = Sentence { text: String::new(), names: Vec::new(), numbers: Vec::new() };
    let mut sent_id = String::new();
    let mut newdoc = false;
    for line in data.lines().chain(std::iter::once("")) {
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            if let Some(text) = comment.strip_prefix("text = ") {
                text.clone_into(&mut sentence.text);
            } else if let Some(id) = comment.strip_prefix("sent_id = ") {
                id.clone_into(&mut sent_id);
            } else if comment.starts_with("newdoc") {
                newdoc = true;
            }
            continue;
        }
        if line.is_empty() {
            if sentence.text.is_empty() {
                continue;
            }
            // Korean Kaist: `M2TA_069-s1` is sentence 1 of document M2TA_069.
            let prefix = sent_id
                .rsplit_once("-s")
                .map(|(p, _)| p.to_owned())
                .filter(|p| language == "ko" && p.contains('_'));
            let starts = if newdoc && language == "en" {
                has_ids = true;
                true
            } else if let Some(prefix) = prefix {
                has_ids = true;
                let new = current_id.as_deref() != Some(prefix.as_str());
                current_id = Some(prefix);
                new
            } else {
                !has_ids && documents.last().is_none_or(|d| d.len() >= RUN)
            };
            if starts || documents.is_empty() {
                documents.push(Vec::new());
            }
            if let Some(last) = documents.last_mut() {
                last.push(std::mem::replace(
                    &mut sentence,
                    Sentence { text: String::new(), names: Vec::new(), numbers: Vec::new() },
                ));
            }
            newdoc = false;
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 10 || !fields[0].chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let (form, lemma, upos, xpos) = (fields[1], fields[2], fields[3], fields[4]);
        // A Korean eojeol is a name when its first morpheme is a proper noun (Kaist's `nq`,
        // GSD's `NNP`), whatever its UPOS: GSD tags most names `NOUN`, and both tag a name
        // with an adverbial particle `ADV` (`서울에서`).
        let korean_name = language == "ko" && matches!(xpos.split('+').next(), Some("nq" | "NNP"));
        if upos == "PROPN" && language != "ko" || korean_name {
            // A Korean eojeol holds its particles: the name is the lemma's first morpheme.
            let name = if language == "ko" {
                lemma.split('+').next().filter(|m| form.starts_with(m)).unwrap_or(form)
            } else {
                form
            };
            if name.chars().count() >= 2 && name.chars().all(char::is_alphanumeric) {
                sentence.names.push(name.to_owned());
            }
        }
        if form.chars().any(|c| c.is_ascii_digit()) {
            let number: String = form
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
                .collect();
            let number = number.trim_end_matches(['.', ',']).to_owned();
            if !number.is_empty() {
                sentence.numbers.push(number);
            }
        }
    }
    Ok(documents)
}

/// What a generated document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Original,
    Copy,
    EditedCopy,
    Brief,
    Update,
    Template,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Original => "original",
            Kind::Copy => "copy",
            Kind::EditedCopy => "edited copy",
            Kind::Brief => "brief",
            Kind::Update => "update",
            Kind::Template => "template",
        }
    }
}

/// A generated document with its truth.
struct Doc {
    document: Document,
    story: usize,
    family: usize,
    kind: Kind,
}

/// The true relation of two documents.
fn truth(a: &Doc, b: &Doc) -> Option<Relation> {
    if a.story != b.story {
        return None;
    }
    if a.kind == Kind::Update || b.kind == Kind::Update {
        Some(Relation::Similar)
    } else {
        Some(Relation::Duplicate)
    }
}

fn join(language: &Language, paragraphs: &[Vec<String>]) -> String {
    paragraphs.iter().map(|p| p.join(language.separator)).collect::<Vec<_>>().join("\n\n")
}

/// Replaces every whole occurrence of each `from` by its `to`, the longest first, in one pass
/// per pair (a replacement is not replaced again: placeholders in between).
fn replace_all(text: &str, map: &[(String, String)]) -> String {
    let mut order: Vec<usize> = (0..map.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(map[i].0.len()));
    let mut out = text.to_owned();
    for &i in &order {
        out = out.replace(&map[i].0, &format!("\u{E000}{i}\u{E001}"));
    }
    for (i, (_, to)) in map.iter().enumerate() {
        out = out.replace(&format!("\u{E000}{i}\u{E001}"), to);
    }
    out
}

/// Another number of the same shape: each digit replaced, the first never by 0.
fn other_number(number: &str, rng: &mut Rng) -> String {
    let mut out = String::new();
    for (at, ch) in number.chars().enumerate() {
        if ch.is_ascii_digit() {
            let lowest = u32::from(at == 0);
            let mut digit = lowest + rng.below((10 - lowest) as usize) as u32;
            if char::from_digit(digit, 10) == Some(ch) {
                digit = if digit == 9 { lowest } else { digit + 1 };
            }
            out.push(char::from_digit(digit, 10).unwrap_or('1'));
        } else {
            out.push(ch);
        }
    }
    out
}

fn generate(language: &Language, documents: &[Vec<Sentence>], rng: &mut Rng) -> Vec<Doc> {
    let stories: Vec<&Vec<Sentence>> =
        documents.iter().filter(|d| d.len() >= 6).take(MOST_STORIES).collect();
    let name_pool: Vec<String> = {
        let mut seen = HashSet::new();
        documents
            .iter()
            .flatten()
            .flat_map(|s| s.names.iter())
            .filter(|n| seen.insert(n.as_str()))
            .cloned()
            .collect()
    };
    let all_sentences: Vec<&Sentence> = documents.iter().flatten().collect();
    let mut docs = Vec::new();
    let mut next_story = stories.len();
    let time = 1_733_000_000_i64;
    for (s, sentences) in stories.iter().enumerate() {
        let paragraphs: Vec<Vec<String>> =
            sentences.chunks(3).map(|c| c.iter().map(|s| s.text.clone()).collect()).collect();
        let title: String = sentences[0].text.chars().take(40).collect();
        let text = join(language, &paragraphs);
        let push = |docs: &mut Vec<Doc>, kind: Kind, story: usize, title: &str, text: String| {
            let n = docs.len();
            docs.push(Doc {
                document: Document {
                    id: format!("{}-{n}", language.code),
                    source: format!("source-{}", n % 23),
                    url: format!("https://example.test/{}/{n}", language.code),
                    title: title.to_owned(),
                    text,
                    published: Some(time + 3_600 * (n as i64 % 48)),
                    language: Some(language.code.to_owned()),
                },
                story,
                family: s,
                kind,
            });
        };
        push(&mut docs, Kind::Original, s, &title, text.clone());
        let dateline = |rng: &mut Rng| rng.pick(language.datelines).to_string();
        let footer = |rng: &mut Rng| rng.pick(language.footers).to_string();
        if rng.chance(0.5) {
            let copy = format!("{} {text}\n\n{}", dateline(rng), footer(rng));
            push(&mut docs, Kind::Copy, s, &title, copy);
        }
        if rng.chance(0.4) {
            let mut edited = paragraphs.clone();
            let at = 1 + rng.below(edited.len() - 1);
            if edited[at].len() > 1 {
                let drop = rng.below(edited[at].len());
                edited[at].remove(drop);
            }
            let last = edited.len() - 1;
            edited.swap(last - 1, last);
            let text = format!("{} {}", dateline(rng), join(language, &edited));
            push(&mut docs, Kind::EditedCopy, s, &title, text);
        }
        if sentences.len() >= 9 && rng.chance(0.4) {
            let brief = format!("{} {}", dateline(rng), join(language, &paragraphs[..1]));
            push(&mut docs, Kind::Brief, s, &title, brief);
        }
        let numbers: Vec<String> = {
            let mut seen = HashSet::new();
            sentences
                .iter()
                .flat_map(|s| s.numbers.iter())
                .filter(|n| seen.insert(n.as_str()))
                .cloned()
                .collect()
        };
        if !numbers.is_empty() && rng.chance(0.4) {
            let mut changed: Vec<(String, String)> = Vec::new();
            let share = rng.range(0.34, 0.5);
            for number in &numbers {
                if changed.is_empty() || rng.chance(share) {
                    changed.push((number.clone(), other_number(number, rng)));
                }
            }
            let added = rng.pick(&all_sentences).text.clone();
            let text = format!("{}\n\n{added}", replace_all(&text, &changed));
            push(&mut docs, Kind::Update, s, &title, text);
        }
        let names: Vec<String> = {
            let mut seen = HashSet::new();
            sentences
                .iter()
                .flat_map(|s| s.names.iter())
                .filter(|n| seen.insert(n.as_str()))
                .cloned()
                .collect()
        };
        if names.len() >= 2 && !numbers.is_empty() && name_pool.len() > names.len() + 1 {
            let mut map: Vec<(String, String)> = Vec::new();
            for name in &names {
                let mut other = rng.pick(&name_pool).clone();
                while names.contains(&other) {
                    other = rng.pick(&name_pool).clone();
                }
                map.push((name.clone(), other));
            }
            for number in &numbers {
                map.push((number.clone(), other_number(number, rng)));
            }
            let story = next_story;
            next_story += 1;
            push(
                &mut docs,
                Kind::Template,
                story,
                &replace_all(&title, &map),
                replace_all(&text, &map),
            );
        }
    }
    docs
}

fn prf(tp: usize, fp: usize, fneg: usize) -> (f64, f64, f64) {
    let p = if tp + fp == 0 { 1.0 } else { tp as f64 / (tp + fp) as f64 };
    let r = if tp + fneg == 0 { 1.0 } else { tp as f64 / (tp + fneg) as f64 };
    let f = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
    (p, r, f)
}

fn evaluate(code: &str, docs: &[Doc], dedup: &Deduper) {
    let documents: Vec<Document> = docs.iter().map(|d| d.document.clone()).collect();
    let outcome = dedup.run(&documents);
    let index: HashMap<&str, usize> =
        docs.iter().enumerate().map(|(i, d)| (d.document.id.as_str(), i)).collect();
    let predicted: HashMap<(usize, usize), Relation> = outcome
        .links
        .iter()
        .map(|l| {
            let (a, b) = (index[l.doc.as_str()], index[l.of.as_str()]);
            ((a.min(b), a.max(b)), l.relation)
        })
        .collect();
    // Per relation, and per kind of pair.
    let mut counts: HashMap<Relation, (usize, usize, usize)> = HashMap::new();
    let mut kinds: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            let truth = truth(&docs[i], &docs[j]);
            let got = predicted.get(&(i, j)).copied();
            for relation in [Relation::Duplicate, Relation::Similar] {
                let entry = counts.entry(relation).or_default();
                match (truth == Some(relation), got == Some(relation)) {
                    (true, true) => entry.0 += 1,
                    (false, true) => entry.1 += 1,
                    (true, false) => entry.2 += 1,
                    (false, false) => {}
                }
            }
            let kind = if docs[i].story == docs[j].story {
                docs[i].kind.max(docs[j].kind).name()
            } else if docs[i].family == docs[j].family {
                "template pair"
            } else {
                "other pair"
            };
            let entry = kinds.entry(kind).or_default();
            entry.0 += 1;
            entry.1 += usize::from(match truth {
                Some(relation) => got == Some(relation),
                None => got.is_some(),
            });
        }
    }
    // B-cubed.
    let mut clusters: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, a) in outcome.assignments.iter().enumerate() {
        clusters.entry(a.cluster.as_str()).or_default().push(i);
    }
    let mut stories: HashMap<usize, usize> = HashMap::new();
    for d in docs {
        *stories.entry(d.story).or_default() += 1;
    }
    let (mut p, mut r) = (0.0, 0.0);
    for (i, a) in outcome.assignments.iter().enumerate() {
        let cluster = &clusters[a.cluster.as_str()];
        let both = cluster.iter().filter(|&&j| docs[j].story == docs[i].story).count() as f64;
        p += both / cluster.len() as f64;
        r += both / stories[&docs[i].story] as f64;
    }
    let n = docs.len() as f64;
    let (p, r) = (p / n, r / n);
    let bcubed = 2.0 * p * r / (p + r);
    let relation = |relation: Relation| {
        let (tp, fp, fneg) = counts.get(&relation).copied().unwrap_or_default();
        let (p, r, f) = prf(tp, fp, fneg);
        format!("{p:.3} / {r:.3} / **{f:.3}** ({})", tp + fneg)
    };
    let kind = |name: &str| match kinds.get(name) {
        Some((all, right)) => format!("{:.3} ({all})", *right as f64 / (*all).max(1) as f64),
        None => "–".to_owned(),
    };
    let linked = |name: &str| match kinds.get(name) {
        Some((all, linked)) => {
            format!("{:.2}% ({linked} of {all})", 100.0 * *linked as f64 / (*all).max(1) as f64)
        }
        None => "–".to_owned(),
    };
    println!(
        "| {code} | {} ({}) | {} | {} | {bcubed:.3} | {} | {} | {} | {} | {} | {} |",
        docs.len(),
        stories.len(),
        relation(Relation::Duplicate),
        relation(Relation::Similar),
        kind("copy"),
        kind("edited copy"),
        kind("brief"),
        kind("update"),
        linked("template pair"),
        linked("other pair"),
    );
    let made: BTreeMap<&str, usize> = docs.iter().fold(BTreeMap::new(), |mut m, d| {
        *m.entry(d.kind.name()).or_default() += 1;
        m
    });
    eprintln!("{code}: documents by kind {made:?}");
}
