//! Learns the Chinese re-segmentation table and post-tagger from UD Chinese-GSDSimp, and
//! measures them with their own segmentation.
//!
//! ```sh
//! cargo run --release -p dedup --example train_chinese -- ../shared/data/ud [--out dedup/models/zh]
//! ```
//!
//! The treebank has only dev and test splits here. Both directions are run: learned on dev and
//! measured on test (what ships, written to `--out` as `zh.upos` and `splits.tsv`), and learned
//! on test and measured on dev. For each, the table of words to cut is learned first (every
//! jieba word whose span the gold words cut into the same pieces in most of its occurrences,
//! at least `--least` times, default 2), then the averaged perceptron is trained over the cut
//! words, each with its hint (jieba's tag and the rule-based tag) and the gold tag of the gold
//! word it matches, or else of the first content gold word it overlaps, else the first.
//!
//! Prints a Markdown row per measurement: segmentation precision, recall and F1 against the
//! gold words, UPOS accuracy on the words whose boundaries match gold ones, UPOS F1, content
//! class precision and recall on those words; for the rule-based tags of jieba's words (as
//! before), the rules over the cut words, and the post-tagger. Other options: `--bits 18`,
//! `--epochs 40`, `--dropout 400`, `--word-dropout 100`, `--no-splits`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[path = "common/placed.rs"]
mod placed;

use placed::{Sentence, read};

use dedup::tagger::chinese::{self, Splits};
use dedup::tagger::train::{self, TaggedSentence, TrainConfig};
use dedup::tagger::{Model, Upos, is_content};

const FOLDER: &str = "UD_Chinese-GSDSimp";

struct Options {
    ud: PathBuf,
    out: Option<PathBuf>,
    bits: u8,
    epochs: u32,
    dropout: u64,
    word_dropout: u64,
    least: usize,
    affix: usize,
    join: usize,
    splits: bool,
    second_pass: bool,
    gold_copies: bool,
    balance_content: bool,
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
        least: 1,
        affix: 3,
        join: 2,
        splits: true,
        second_pass: false,
        gold_copies: false,
        balance_content: true,
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
            "--least" => options.least = number(value("--least")?)? as usize,
            "--join" => options.join = number(value("--join")?)? as usize,
            "--affix" => options.affix = number(value("--affix")?)? as usize,
            "--unbalanced" => options.balance_content = false,
            "--two-pass" => options.second_pass = true,
            "--gold-copies" => options.gold_copies = true,
            "--no-splits" => options.splits = false,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => ud = Some(PathBuf::from(arg)),
        }
    }
    options.ud = ud.ok_or("usage: train_chinese UD_DIR [--out DIR] [--bits 18] [...]")?;
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

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let read_split = |split: &str| {
        let path = options.ud.join(FOLDER).join(format!("zh_gsdsimp-ud-{split}.conllu"));
        read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let (dev, test) = (read_split("dev")?, read_split("test")?);
    println!(
        "| learned on | measured on | tagged by | gold words | seg P | seg R | seg F1 | UPOS aligned | UPOS F1 | content P | content R |"
    );
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (learned, measured, train_set, eval_set) in
        [("dev", "test", &dev, &test), ("test", "dev", &test, &dev)]
    {
        let splits = if options.splits {
            learn_splits(train_set, options.least, options.affix, options.join)
        } else {
            String::new()
        };
        let table = Splits::parse(&splits);
        eprintln!("learned on {learned}: {} rules", table.len());
        let none = Splits::default();
        let row = |tagged_by: &str, score: Score| {
            println!("| {learned} | {measured} | {tagged_by} | {} |", score.row());
        };
        row("jieba + rules", evaluate(eval_set, &none, None));
        row("jieba, cut + rules", evaluate(eval_set, &table, None));
        let mut tagged: Vec<TaggedSentence> =
            train_set.iter().map(|sentence| training_sentence(sentence, &table)).collect();
        if options.gold_copies {
            tagged.extend(train_set.iter().map(|sentence| gold_sentence(sentence, &table)));
        }
        let config = TrainConfig {
            language: "zh".to_owned(),
            description: format!(
                "averaged perceptron over jieba's words with jieba's tags as hints, trained on \
                 {FOLDER} {learned}"
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
        row("jieba, cut + post-tagger", evaluate(eval_set, &table, Some(&model)));
        if learned == "dev"
            && let Some(out) = &options.out
        {
            std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            let header = format!(
                "# Where to cut jieba's Chinese words, learned by `train_chinese` from the dev split\n\
                 # of {FOLDER} (CC BY-SA 4.0; dedup/models/zh/ATTRIBUTION.md) over jieba's\n\
                 # segmentation. WORD<TAB>PIECES: a word the gold words cut into these pieces in\n\
                 # most of its occurrences, at least {} times (one piece: kept whole, though a rule\n\
                 # below would cut it). *C<TAB>* C and C*<TAB>C *: a character cut off the end or\n\
                 # the start of other words of Han characters (cut at least {} times, and at least\n\
                 # twice as often as left on). {} rules.\n",
                options.least,
                options.affix,
                table.len()
            );
            let written = [
                (out.join("splits.tsv"), format!("{header}{splits}").into_bytes()),
                (out.join("zh.upos"), model.to_bytes()),
            ];
            for (path, bytes) in written {
                std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
            }
        }
    }
    Ok(())
}

/// Learns the words to cut from `sentences`, as the lines of a [`Splits`] table: whole words
/// the gold words cut into the same pieces in most of their occurrences and at least `least`
/// times; with `affix` (a least count, 0 for none), the single characters the gold words cut
/// off the end or the start of jieba's words of Han characters at least that often and at
/// least twice as often as they leave them on, and the words those rules would cut that are
/// more often whole.
fn learn_splits(sentences: &[Sentence], least: usize, affix: usize, join: usize) -> String {
    // Per jieba word: how often it was seen, how often it is a gold word, and how often the
    // gold words cut it, by pieces.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut whole: HashMap<String, usize> = HashMap::new();
    let mut cut: HashMap<String, HashMap<Vec<String>, usize>> = HashMap::new();
    // Per character: how often it was cut off the end (start) of a word, and how often left on.
    let mut suffixes: HashMap<char, (usize, usize)> = HashMap::new();
    let mut prefixes: HashMap<char, (usize, usize)> = HashMap::new();
    // Per pair of jieba words in a row: how often seen, and how often one gold word.
    let mut pairs: HashMap<(String, String), (usize, usize)> = HashMap::new();
    let han = |word: &str| {
        word.chars().count() >= 2 && word.chars().all(|ch| ch.is_alphabetic() && !ch.is_ascii())
    };
    for sentence in sentences {
        let starts: HashMap<usize, usize> =
            sentence.words.iter().enumerate().map(|(i, (r, _))| (r.start, i)).collect();
        let ends: HashSet<usize> = sentence.words.iter().map(|(r, _)| r.end).collect();
        let found = chinese::jieba_words(&sentence.text);
        for pair in found.windows(2) {
            let (a, b) = (&pair[0].0, &pair[1].0);
            if a.end != b.start {
                continue;
            }
            let key = (sentence.text[a.clone()].to_owned(), sentence.text[b.clone()].to_owned());
            let entry = pairs.entry(key).or_insert((0, 0));
            entry.0 += 1;
            if starts.get(&a.start).is_some_and(|&i| sentence.words[i].0.end == b.end) {
                entry.1 += 1;
            }
        }
        for (range, _) in found {
            let form = sentence.text[range.clone()].to_owned();
            *seen.entry(form.clone()).or_default() += 1;
            let Some(&first) = starts.get(&range.start) else { continue };
            if !ends.contains(&range.end) {
                continue;
            }
            let is_whole = sentence.words[first].0.end == range.end;
            if han(&form) {
                let (Some(head), Some(tail)) = (form.chars().next(), form.chars().last()) else {
                    continue;
                };
                let suffix = suffixes.entry(tail).or_default();
                let prefix = prefixes.entry(head).or_default();
                if is_whole {
                    suffix.1 += 1;
                    prefix.1 += 1;
                } else {
                    if ends.contains(&(range.end - tail.len_utf8())) {
                        suffix.0 += 1;
                    }
                    if starts.contains_key(&(range.start + head.len_utf8())) {
                        prefix.0 += 1;
                    }
                }
            }
            if is_whole {
                *whole.entry(form).or_default() += 1;
                continue;
            }
            let pieces: Vec<String> = sentence.words[first..]
                .iter()
                .take_while(|(r, _)| r.end <= range.end)
                .map(|(r, _)| sentence.text[r.clone()].to_owned())
                .collect();
            *cut.entry(form).or_default().entry(pieces).or_default() += 1;
        }
    }
    let mut lines: Vec<String> = cut
        .iter()
        .filter_map(|(form, patterns)| {
            let (pieces, count) = patterns.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
            (*count >= least && 2 * count > seen[form])
                .then(|| format!("{form}\t{}", pieces.join(" ")))
        })
        .collect();
    let mut rules = Vec::new();
    if affix > 0 {
        let kept = |(cut, left): (usize, usize)| cut >= affix && cut >= 2 * left;
        rules.extend(
            suffixes.iter().filter(|(_, n)| kept(**n)).map(|(ch, _)| format!("*{ch}\t* {ch}")),
        );
        rules.extend(
            prefixes.iter().filter(|(_, n)| kept(**n)).map(|(ch, _)| format!("{ch}*\t{ch} *")),
        );
        let affixes = Splits::parse(&rules.join("\n"));
        let listed = Splits::parse(&lines.join("\n"));
        for (form, n) in &whole {
            let times_cut: usize = cut.get(form).map_or(0, |p| p.values().sum());
            if *n >= times_cut && listed.listed(form).is_none() && affixes.pieces(form).is_some() {
                lines.push(format!("{form}\t{form}"));
            }
        }
    }
    if join > 0 {
        lines.extend(
            pairs
                .iter()
                .filter(|(_, (seen, joined))| *joined >= join && 2 * joined > *seen)
                .map(|((a, b), _)| format!("{a} {b}\t{a}{b}")),
        );
    }
    lines.sort();
    rules.sort();
    lines.iter().chain(&rules).map(|line| format!("{line}\n")).collect()
}

fn training_sentence(sentence: &Sentence, splits: &Splits) -> TaggedSentence {
    let words = chinese::words(&sentence.text, splits);
    TaggedSentence {
        tags: sentence.gold_tags(&words),
        words: words.iter().map(|(r, _)| sentence.text[r.clone()].to_owned()).collect(),
        hints: words.into_iter().map(|(_, hint)| hint).collect(),
    }
}

/// A training sentence of the gold words, each with the hint of the word found by jieba (and
/// cut) that it matches or else that overlaps its start.
fn gold_sentence(sentence: &Sentence, splits: &Splits) -> TaggedSentence {
    let words = chinese::words(&sentence.text, splits);
    let hints = sentence
        .words
        .iter()
        .map(|(gold, _)| {
            words
                .iter()
                .find(|(r, _)| r == gold)
                .or_else(|| words.iter().find(|(r, _)| r.start <= gold.start && gold.start < r.end))
                .map_or_else(String::new, |(_, hint)| hint.clone())
        })
        .collect();
    TaggedSentence {
        words: sentence.words.iter().map(|(r, _)| sentence.text[r.clone()].to_owned()).collect(),
        tags: sentence.words.iter().map(|(_, tag)| *tag).collect(),
        hints,
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

/// Segments and tags `sentences`: with `model`, by the post-tagger, else by the rules (the
/// second half of each word's hint).
fn evaluate(sentences: &[Sentence], splits: &Splits, model: Option<&Model>) -> Score {
    let mut score = Score::default();
    let mut confusions: HashMap<(String, Upos, Upos), usize> = HashMap::new();
    // System words that are not gold words: spanning several gold words, inside one, or across.
    let mut wrong: [HashMap<String, usize>; 3] = Default::default();
    for sentence in sentences {
        let words = chinese::words(&sentence.text, splits);
        let starts: HashSet<usize> = sentence.words.iter().map(|(r, _)| r.start).collect();
        let ends: HashSet<usize> = sentence.words.iter().map(|(r, _)| r.end).collect();
        let gold: HashSet<&Range<usize>> = sentence.words.iter().map(|(r, _)| r).collect();
        for (range, _) in &words {
            if gold.contains(range) {
                continue;
            }
            let kind = if starts.contains(&range.start) && ends.contains(&range.end) {
                0
            } else if sentence
                .words
                .iter()
                .any(|(g, _)| g.start <= range.start && range.end <= g.end)
            {
                1
            } else {
                2
            };
            *wrong[kind].entry(sentence.text[range.clone()].to_owned()).or_default() += 1;
        }
        let tags: Vec<Upos> = match model {
            Some(model) => chinese::tag(model, &sentence.text, &words),
            None => words
                .iter()
                .map(|(_, hint)| {
                    hint.split(':').nth(1).and_then(|tag| tag.parse().ok()).unwrap_or(Upos::X)
                })
                .collect(),
        };
        let system: HashMap<&Range<usize>, Upos> =
            words.iter().map(|(r, _)| r).zip(tags.iter().copied()).collect();
        score.gold += sentence.words.len();
        score.system += words.len();
        for (range, gold) in &sentence.words {
            let Some(&tag) = system.get(range) else { continue };
            score.aligned += 1;
            if tag == *gold {
                score.right += 1;
            } else {
                let form = sentence.text[range.clone()].to_owned();
                *confusions.entry((form, *gold, tag)).or_default() += 1;
            }
            match (is_content(*gold), is_content(tag)) {
                (true, true) => score.tp += 1,
                (false, true) => score.fp += 1,
                (true, false) => score.fneg += 1,
                (false, false) => {}
            }
        }
    }
    if model.is_some() {
        for (name, kinds) in
            ["spanning gold words", "inside a gold word", "across gold words"].iter().zip(&wrong)
        {
            let mut kinds: Vec<_> = kinds.iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let total: usize = kinds.iter().map(|(_, n)| **n).sum();
            let shown: Vec<String> =
                kinds.iter().take(25).map(|(w, n)| format!("{w} {n}")).collect();
            eprintln!("{name}: {total}: {}", shown.join(", "));
        }
        let mut confusions: Vec<_> = confusions.into_iter().collect();
        confusions.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let shown: Vec<String> = confusions
            .iter()
            .take(30)
            .map(|((form, gold, tag), n)| format!("{form} {}→{} {n}", gold.as_str(), tag.as_str()))
            .collect();
        eprintln!("confusions (gold→tagged): {}", shown.join(", "));
        let mut pairs: HashMap<(Upos, Upos), usize> = HashMap::new();
        for ((_, gold, tag), n) in &confusions {
            *pairs.entry((*gold, *tag)).or_default() += n;
        }
        let mut pairs: Vec<_> = pairs.into_iter().collect();
        pairs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let shown: Vec<String> = pairs
            .iter()
            .take(16)
            .map(|((gold, tag), n)| format!("{}→{} {n}", gold.as_str(), tag.as_str()))
            .collect();
        eprintln!("by tag (gold→tagged): {}", shown.join(", "));
    }
    score
}
