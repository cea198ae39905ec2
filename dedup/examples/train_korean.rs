//! Learns the Korean eojeol table and post-tagger from UD Korean-Kaist and -GSD, and measures
//! them with their own segmentation.
//!
//! ```sh
//! cargo run --release -p dedup --example train_korean -- ../shared/data/ud [--out dedup/models/ko]
//! ```
//!
//! Both treebanks have only dev and test splits here. As for the tagger's other languages
//! without a train split, each treebank's dev and test sentences are pooled and a fixed fifth
//! of them (by the FNV-1a hash of treebank and text) is held apart: learned on the other four
//! fifths and measured on that fifth (what ships, written to `--out` as `eojeol-upos.tsv` and
//! `ko.upos`). With `--dev-test`, the two directions used before: learned on the two dev files
//! and measured on the two test files, and learned on the test files and measured on the dev
//! files (the direction the settings were chosen on, `--tune`).
//!
//! For each direction, the eojeol table is learned first: every word whose boundaries the
//! analyser finds is counted under each of its key's six levels
//! (`dedup/src/tagger/segment/ko.rs`) with its gold tag; a key's tag is its most frequent one
//! (ties to the smaller tag index), kept when seen often enough and when the less detailed
//! levels would not give the same tag anyway. Then the averaged perceptron is trained over the
//! analyser's words, each with its gold tag (that of the gold word it matches, else of the
//! first content gold word it overlaps, else the first) and its hint: the word's table tag and
//! its first and last morphemes' tags (`ADV:NNG~JKB`). The table tags of the training words
//! are jackknifed (each fifth of the sentences hinted by a table learned on the other four
//! fifths), so the model learns how far to trust the table on words it was not learned from.
//!
//! Prints a Markdown row per treebank and both pooled: segmentation precision, recall and F1
//! against the gold words, UPOS accuracy on the words whose boundaries match gold ones, UPOS
//! F1, content class precision and recall on those words; for the table alone (as before) and
//! for the post-tagger. Other options: `--bits 18`, `--epochs 40`, `--dropout 400`,
//! `--word-dropout 100`, `--style tf` (the hint; see `hint_with`), `--propn` (the rule that
//! makes a `NOUN` whose first morpheme is `NNP` a `PROPN`, shipped until stop 44; `--no-propn`
//! leaves it out, the default since), `--in-sample-table` (hint
//! the training words by the table learned on all of them), `--unbalanced`, `--two-pass`,
//! `--tune` (only the direction learned on test, measured on dev: what settings were chosen on),
//! `--dev-test` (both directions between the dev and test files, as above),
//! `--only Kaist` or `--only GSD` (one treebank alone, learned and measured).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[path = "common/fifth.rs"]
mod fifth;
#[path = "common/placed.rs"]
mod placed;

use placed::{Sentence, read};

use dedup::tagger::korean;
use dedup::tagger::train::{self, TaggedSentence, TrainConfig};
use dedup::tagger::{Model, Upos, is_content};

/// The treebanks: folder and file prefix.
const TREEBANKS: [(&str, &str); 2] = [("UD_Korean-Kaist", "ko_kaist"), ("UD_Korean-GSD", "ko_gsd")];

/// The least count of a key at each level for its tag to be kept.
const LEAST: [usize; 6] = [3, 3, 2, 3, 2, 1];

/// How many parts the training sentences are cut into for the jackknifed table hints.
const FOLDS: usize = 5;

struct Options {
    ud: PathBuf,
    out: Option<PathBuf>,
    bits: u8,
    epochs: u32,
    dropout: u64,
    word_dropout: u64,
    style: String,
    propn: bool,
    jackknife: bool,
    second_pass: bool,
    balance_content: bool,
    tune: bool,
    only: Option<String>,
    dev_test: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        ud: PathBuf::new(),
        out: None,
        bits: 18,
        epochs: 40,
        dropout: 400,
        word_dropout: 100,
        style: korean::HINT_STYLE.to_owned(),
        propn: korean::PROPN_RULE,
        jackknife: true,
        second_pass: false,
        balance_content: true,
        tune: false,
        only: None,
        dev_test: false,
    };
    let mut ud = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let number = |text: String| text.parse::<u64>().map_err(|e| format!("{e}"));
        match arg.as_str() {
            "--out" => options.out = Some(PathBuf::from(value("--out")?)),
            "--bits" => options.bits = number(value("--bits")?)? as u8,
            "--epochs" => options.epochs = number(value("--epochs")?)? as u32,
            "--dropout" => options.dropout = number(value("--dropout")?)?,
            "--word-dropout" => options.word_dropout = number(value("--word-dropout")?)?,
            "--style" => options.style = value("--style")?,
            "--no-propn" => options.propn = false,
            "--propn" => options.propn = true,
            "--in-sample-table" => options.jackknife = false,
            "--unbalanced" => options.balance_content = false,
            "--two-pass" => options.second_pass = true,
            "--tune" => options.tune = true,
            "--dev-test" => options.dev_test = true,
            "--only" => options.only = Some(value("--only")?),
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => ud = Some(PathBuf::from(arg)),
        }
    }
    options.ud = ud.ok_or("usage: train_korean UD_DIR [--out DIR] [--bits 18] [...]")?;
    Ok(options)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

/// A gold sentence with the analyser's words: per sentence the tagger cuts its text into, the
/// words as byte ranges of the whole text, each with its morphemes' key (`None`: punctuation).
struct Analysed {
    sentence: Sentence,
    pieces: Vec<Vec<(Range<usize>, Option<String>)>>,
}

fn analyse(sentence: Sentence) -> Analysed {
    let pieces = korean::sentences(&sentence.text)
        .into_iter()
        .map(|range| {
            let offset = range.start;
            korean::words(&sentence.text[range])
                .into_iter()
                .map(|(r, key)| (r.start + offset..r.end + offset, key))
                .collect()
        })
        .collect();
    Analysed { sentence, pieces }
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    // Per split: per treebank, its analysed sentences.
    let mut splits: HashMap<&str, Vec<(&str, Vec<Analysed>)>> = HashMap::new();
    let started = Instant::now();
    for split in ["dev", "test"] {
        for (folder, prefix) in TREEBANKS {
            if options.only.as_ref().is_some_and(|only| !folder.ends_with(only.as_str())) {
                continue;
            }
            let path = options.ud.join(folder).join(format!("{prefix}-ud-{split}.conllu"));
            let sentences = read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let analysed = sentences.into_iter().map(analyse).collect();
            splits.entry(split).or_default().push((folder, analysed));
        }
    }
    eprintln!("analysed in {:.1} s", started.elapsed().as_secs_f64());
    let directions: &[(&str, &str)] = if options.tune {
        &[("test", "dev")]
    } else if options.dev_test {
        &[("dev", "test"), ("test", "dev")]
    } else {
        // As the tagger's other languages without a train split: each treebank's dev and test
        // pooled, a fixed fifth of the sentences (by the hash of treebank and text) held apart.
        let mut rest: Vec<(&str, Vec<Analysed>)> = Vec::new();
        let mut fifth: Vec<(&str, Vec<Analysed>)> = Vec::new();
        for (folder, _) in TREEBANKS {
            let mut pooled: Vec<Analysed> = Vec::new();
            for split in ["dev", "test"] {
                for (f, sentences) in splits.get_mut(split).into_iter().flatten() {
                    if *f == folder {
                        pooled.append(sentences);
                    }
                }
            }
            let (held, kept): (Vec<Analysed>, Vec<Analysed>) = pooled
                .into_iter()
                .partition(|a| fifth::held_apart(&format!("{folder}/{}", a.sentence.text)));
            if !kept.is_empty() {
                rest.push((folder, kept));
                fifth.push((folder, held));
            }
        }
        splits.insert("four fifths", rest);
        splits.insert("held-apart fifth", fifth);
        &[("four fifths", "held-apart fifth")]
    };
    println!(
        "| learned on | measured on | tagged by | gold words | seg P | seg R | seg F1 | UPOS aligned | UPOS F1 | content P | content R |"
    );
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &(learned, measured) in directions {
        let train_set: Vec<&Analysed> = splits[learned].iter().flat_map(|(_, s)| s).collect();
        let (table_text, keys) = learn_table(&train_set);
        let table = owned(&table_text);
        eprintln!("learned on {learned}: {keys} table keys");
        let lookup = |table: &HashMap<String, Upos>| {
            let table = table.clone();
            move |level: &str| table.get(level).copied()
        };
        // The training words' table tags: from tables learned without them.
        let tables: Vec<HashMap<String, Upos>> = if options.jackknife {
            (0..FOLDS)
                .map(|fold| {
                    let rest: Vec<&Analysed> = train_set
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % FOLDS != fold)
                        .map(|(_, a)| *a)
                        .collect();
                    owned(&learn_table(&rest).0)
                })
                .collect()
        } else {
            vec![table.clone(); FOLDS]
        };
        let mut tagged: Vec<TaggedSentence> = Vec::new();
        for (i, analysed) in train_set.iter().enumerate() {
            let fold = lookup(&tables[i % FOLDS]);
            for words in &analysed.pieces {
                if words.is_empty() {
                    continue;
                }
                tagged.push(training_sentence(&analysed.sentence, words, &fold, &options.style));
            }
        }
        let data = if learned == "four fifths" {
            "four fifths of their dev and test sentences".to_owned()
        } else {
            format!("their {learned} files")
        };
        let config = TrainConfig {
            language: "ko".to_owned(),
            description: format!(
                "averaged perceptron over mecab-ko-dic's eojeols with the eojeol table's tag and \
                 the first and last morphemes' tags as hints, trained on UD_Korean-Kaist and \
                 UD_Korean-GSD ({data})"
            ),
            bits: options.bits,
            epochs: options.epochs,
            seed: 0x6d6f_7267_7565,
            dropout: options.dropout,
            word_dropout: options.word_dropout,
            second_pass: options.second_pass,
            balance_content: options.balance_content,
            contractions: Vec::new(),
            analyser: Default::default(),
        };
        let started = Instant::now();
        let model = train::train(&config, &tagged, |_| {});
        let tokens: usize = tagged.iter().map(|s| s.words.len()).sum();
        eprintln!(
            "learned on {learned}: {tokens} training words, trained in {:.1} s, {} bytes",
            started.elapsed().as_secs_f64(),
            model.to_bytes().len()
        );
        let full = lookup(&table);
        let mut pooled = [Score::default(), Score::default()];
        for (folder, sentences) in &splits[measured] {
            let name = folder.trim_start_matches("UD_");
            let mut scores = [Score::default(), Score::default()];
            for (k, method) in [Method::Table, Method::Model].into_iter().enumerate() {
                let started = Instant::now();
                scores[k] = evaluate(sentences, method, &model, &full, &options);
                let seconds = started.elapsed().as_secs_f64();
                eprintln!(
                    "{name} {measured}, {method:?}: {:.0} k words/s tagged (analysis apart)",
                    scores[k].system as f64 / seconds / 1000.0
                );
                println!(
                    "| {learned} | {name} {measured} | {} | {} |",
                    method.name(),
                    scores[k].row()
                );
            }
            for (all, one) in pooled.iter_mut().zip(&scores) {
                all.add(one);
            }
        }
        for (method, score) in [Method::Table, Method::Model].into_iter().zip(&pooled) {
            println!("| {learned} | both {measured} | {} | {} |", method.name(), score.row());
        }
        if learned == "four fifths"
            && let Some(out) = &options.out
        {
            std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            let written = [
                (out.join("eojeol-upos.tsv"), table_text.into_bytes()),
                (out.join("ko.upos"), model.to_bytes()),
            ];
            for (path, bytes) in written {
                std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
            }
        }
    }
    Ok(())
}

/// A table's text parsed as the tagger parses it, with owned keys.
fn owned(text: &str) -> HashMap<String, Upos> {
    korean::parse_table(text).into_iter().map(|(key, tag)| (key.to_owned(), tag)).collect()
}

/// Learns the eojeol table from `sentences` (see the module's documentation); returns the
/// table file's text and how many keys it has.
fn learn_table(sentences: &[&Analysed]) -> (String, usize) {
    let mut counts: [BTreeMap<String, [usize; Upos::COUNT]>; 6] = Default::default();
    let (mut words, mut aligned) = (0, 0);
    for analysed in sentences {
        let found: HashMap<&Range<usize>, &str> = analysed
            .pieces
            .iter()
            .flatten()
            .filter_map(|(range, key)| Some((range, key.as_deref()?)))
            .collect();
        for (range, gold) in &analysed.sentence.words {
            words += 1;
            let Some(key) = found.get(range) else { continue };
            aligned += 1;
            for (level, lookup) in korean::levels(key).into_iter().enumerate() {
                // Level 1 is only for words after a connective ending; for the others it is
                // level 2.
                if level == 0 && !lookup.contains('>') {
                    continue;
                }
                counts[level].entry(lookup).or_insert([0; Upos::COUNT])[gold.index()] += 1;
            }
        }
    }
    let majority = |row: &[usize; Upos::COUNT]| {
        let best = (0..Upos::COUNT).max_by_key(|&i| (row[i], std::cmp::Reverse(i))).unwrap_or(0);
        (Upos::from_index(best).unwrap_or(Upos::Noun), row.iter().sum::<usize>())
    };
    // From the least detailed level up: a key is kept when seen often enough and when the
    // levels below would tag it otherwise.
    let mut kept: [BTreeMap<String, Upos>; 6] = Default::default();
    for level in (0..6).rev() {
        for (lookup, row) in &counts[level] {
            let (tag, total) = majority(row);
            if total < LEAST[level] {
                continue;
            }
            // Level 3 (every tag, no form) stands before level 4 (first and last tags with the
            // form), which differs between the words it covers when the last morpheme is a
            // particle or an ending: then it is always kept.
            let last = lookup.rsplit('+').next().unwrap_or_default();
            let varies = level == 2 && (last.starts_with('J') || last.starts_with('E'));
            let below = (level + 1..6).find_map(|lower| {
                let key = lower_key(lookup, level, lower);
                kept[lower].get(&key).copied()
            });
            if varies || below != Some(tag) {
                kept[level].insert(lookup.clone(), tag);
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Korean eojeol tags: KEY<TAB>UPOS, learned by `train_korean` from four fifths of the\n\
         # dev and test sentences of UD_Korean-Kaist and UD_Korean-GSD (CC BY-SA 4.0) over\n\
         # mecab-ko-dic's analyses:\n\
         # {aligned} of {words} gold words found as eojeols by the analyser (the others are\n\
         # mostly punctuation). Levels: see\n\
         # dedup/src/tagger/segment/ko.rs."
    );
    for (level, entries) in kept.iter().enumerate() {
        let _ = writeln!(text, "# level {}: {} keys", level + 1, entries.len());
        for (key, tag) in entries {
            let _ = writeln!(text, "{key}\t{}", tag.as_str());
        }
    }
    (text, kept.iter().map(BTreeMap::len).sum())
}

/// The lookup at level `lower` of the word whose lookup at level `level` is `lookup`.
fn lower_key(lookup: &str, level: usize, lower: usize) -> String {
    // Levels 1 and 3 carry the form; every level's lookup is derived from level 1's, so
    // rebuild a level 1 key from this one where it can be, else from its tags.
    match level {
        // Full tags (with or without context and form): all lower levels derive from it.
        0..=2 => korean::levels(lookup)[lower].clone(),
        // `FIRST~LAST[/form]`: as the key `FIRST+LAST[/form]`, whose levels 4 to 6 are these.
        3 | 4 => korean::levels(&lookup.replacen('~', "+", 1))[lower].clone(),
        _ => lookup.to_owned(),
    }
}

/// A training sentence: the analyser's `words`, their gold tags and hints (table tags by
/// `lookup`).
fn training_sentence(
    sentence: &Sentence,
    words: &[(Range<usize>, Option<String>)],
    lookup: &impl Fn(&str) -> Option<Upos>,
    style: &str,
) -> TaggedSentence {
    TaggedSentence {
        tags: sentence.gold_tags(words),
        words: words.iter().map(|(r, _)| sentence.text[r.clone()].to_owned()).collect(),
        hints: korean::hints(&sentence.text, words, lookup, style),
    }
}

#[derive(Debug, Clone, Copy)]
enum Method {
    Table,
    Model,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Table => "eojeol table (before)",
            Method::Model => "post-tagger",
        }
    }
}

#[derive(Default)]
struct Score {
    gold: usize,
    system: usize,
    aligned: usize,
    right: usize,
    tp: usize,
    fp: usize,
    fneg: usize,
}

impl Score {
    fn add(&mut self, other: &Score) {
        self.gold += other.gold;
        self.system += other.system;
        self.aligned += other.aligned;
        self.right += other.right;
        self.tp += other.tp;
        self.fp += other.fp;
        self.fneg += other.fneg;
    }

    fn row(&self) -> String {
        let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        let f1 = |p: f64, r: f64| if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
        let (p, r) = (pct(self.aligned, self.system), pct(self.aligned, self.gold));
        format!(
            "{} | {p:.2}% | {r:.2}% | {:.2}% | **{:.2}%** | {:.2}% | {:.2}% | {:.2}%",
            self.gold,
            f1(p, r),
            pct(self.right, self.aligned),
            f1(pct(self.right, self.system), pct(self.right, self.gold)),
            pct(self.tp, self.tp + self.fp),
            pct(self.tp, self.tp + self.fneg),
        )
    }
}

/// Tags `sentences` (already analysed) by the table alone or by the post-tagger, and scores
/// them; the most frequent confusions go to standard error.
fn evaluate(
    sentences: &[Analysed],
    method: Method,
    model: &Model,
    lookup: &impl Fn(&str) -> Option<Upos>,
    options: &Options,
) -> Score {
    let mut score = Score::default();
    let mut confusions: HashMap<(String, Upos, Upos), usize> = HashMap::new();
    let mut pairs: HashMap<(Upos, Upos), usize> = HashMap::new();
    for analysed in sentences {
        let sentence = &analysed.sentence;
        let mut system: HashMap<&Range<usize>, (Upos, Option<&str>)> = HashMap::new();
        for words in &analysed.pieces {
            let tags: Vec<Upos> = match method {
                Method::Model => korean::tag_with(
                    model,
                    &sentence.text,
                    words,
                    lookup,
                    &options.style,
                    options.propn,
                ),
                Method::Table => korean::table_tags(&sentence.text, words, lookup),
            };
            for ((range, key), tag) in words.iter().zip(tags) {
                system.insert(range, (tag, key.as_deref()));
            }
        }
        score.gold += sentence.words.len();
        score.system += system.len();
        for (range, gold) in &sentence.words {
            let Some(&(tag, key)) = system.get(range) else { continue };
            score.aligned += 1;
            if tag == *gold {
                score.right += 1;
            } else {
                let form =
                    format!("{} [{}]", &sentence.text[range.clone()], key.unwrap_or_default());
                *confusions.entry((form, *gold, tag)).or_default() += 1;
                *pairs.entry((*gold, tag)).or_default() += 1;
            }
            match (is_content(*gold), is_content(tag)) {
                (true, true) => score.tp += 1,
                (false, true) => score.fp += 1,
                (true, false) => score.fneg += 1,
                (false, false) => {}
            }
        }
    }
    let mut pairs: Vec<_> = pairs.into_iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = pairs
        .iter()
        .take(14)
        .map(|((gold, tag), n)| format!("{}→{} {n}", gold.as_str(), tag.as_str()))
        .collect();
    eprintln!("{method:?}: by tag (gold→tagged): {}", shown.join(", "));
    let mut confusions: Vec<_> = confusions.into_iter().collect();
    confusions.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = confusions
        .iter()
        .take(20)
        .map(|((form, gold, tag), n)| format!("{form} {}→{} {n}", gold.as_str(), tag.as_str()))
        .collect();
    eprintln!("{method:?}: words: {}", shown.join(", "));
    score
}
