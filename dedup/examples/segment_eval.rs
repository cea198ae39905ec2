//! Measures the segmenting taggers (Japanese, Chinese, Korean) against Universal Dependencies
//! treebanks: segmentation F1, UPOS accuracy on the words whose boundaries agree with the
//! gold ones, content-class precision and recall on those words, tagging of gold tokens, and
//! speed on raw text.
//!
//! ```sh
//! cargo run --release -p dedup --example segment_eval -- ../shared/data/ud
//! ```
//!
//! Reads the dev and test files of UD_Japanese-GSD, UD_Chinese-GSDSimp, UD_Korean-Kaist and
//! UD_Korean-GSD, each measured apart: the dictionaries are not trained on them, the Japanese
//! tag mapping was adjusted by looking at the dev files' confusions only, the Chinese
//! re-segmentation table and post-tagger are learned from the Chinese dev file
//! (`train_chinese`), and the Korean eojeol table and post-tagger from the Korean dev files
//! (`train_korean`), so the test rows are the results. Each sentence's raw text is its `# text =`
//! comment; gold words are placed in it in order. Prints a Markdown row per treebank; the
//! most frequent confusions go to standard error.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

#[path = "common/placed.rs"]
mod placed;

use placed::{Sentence, read};

use dedup::tagger::{Tagger, Upos, is_content};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(ud) = args.first() else {
        eprintln!("usage: segment_eval /path/to/ud [--only LANG]");
        return ExitCode::FAILURE;
    };
    let option =
        |name: &str| args.iter().position(|a| a == name).and_then(|at| args.get(at + 1)).cloned();
    let only = option("--only");
    println!(
        "| lang | treebank | gold words | seg P | seg R | seg F1 | UPOS aligned | UPOS F1 | content P | content R | UPOS gold tokens | words/s raw |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (lang, folder, prefix) in [
        ("ja", "UD_Japanese-GSD", "ja_gsd"),
        ("zh", "UD_Chinese-GSDSimp", "zh_gsdsimp"),
        ("ko", "UD_Korean-Kaist", "ko_kaist"),
        ("ko", "UD_Korean-GSD", "ko_gsd"),
    ] {
        if only.as_ref().is_some_and(|only| only != lang) {
            continue;
        }
        for split in ["dev", "test"] {
            let path = Path::new(ud).join(folder).join(format!("{prefix}-ud-{split}.conllu"));
            match read(&path) {
                Ok(sentences) => evaluate(lang, &format!("{folder} {split}"), &sentences),
                Err(err) => {
                    eprintln!("error: {}: {err}", path.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn evaluate(lang: &str, treebank: &str, sentences: &[Sentence]) {
    let tagger = Tagger::for_language(lang);
    let (mut gold_n, mut system_n, mut aligned, mut right) = (0_usize, 0_usize, 0_usize, 0_usize);
    let (mut tp, mut fp, mut fneg) = (0_usize, 0_usize, 0_usize);
    let (mut gold_token_right, mut gold_token_n) = (0_usize, 0_usize);
    let mut confusions: HashMap<(Upos, Upos), usize> = HashMap::new();
    let mut word_confusions: HashMap<(String, Upos, Upos), usize> = HashMap::new();
    let mut spurious: HashMap<String, usize> = HashMap::new();
    // The dictionary is loaded before the speed is measured.
    let started = Instant::now();
    tagger.tag_text("始め");
    eprintln!("{lang}: dictionary loaded in {:.2} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    let mut raw_words = 0;
    for sentence in sentences {
        raw_words += tagger.tag_text(&sentence.text).len();
    }
    let speed = raw_words as f64 / started.elapsed().as_secs_f64();
    for sentence in sentences {
        let base = sentence.text.as_ptr() as usize;
        let system: HashMap<Range<usize>, Upos> = tagger
            .tag_text(&sentence.text)
            .into_iter()
            .map(|(word, tag)| {
                let start = word.as_ptr() as usize - base;
                (start..start + word.len(), tag)
            })
            .collect();
        gold_n += sentence.words.len();
        system_n += system.len();
        let gold_ranges: std::collections::HashSet<&Range<usize>> =
            sentence.words.iter().map(|(r, _)| r).collect();
        for range in system.keys().filter(|r| !gold_ranges.contains(r)) {
            *spurious.entry(sentence.text[range.clone()].to_owned()).or_default() += 1;
        }
        // Korean confusions are shown with the morphemes' key.
        #[cfg(feature = "ko")]
        let keys: HashMap<Range<usize>, String> = if lang == "ko" {
            dedup::tagger::korean_words(&sentence.text)
                .into_iter()
                .filter_map(|(range, key)| Some((range, key?)))
                .collect()
        } else {
            HashMap::new()
        };
        for (range, gold) in &sentence.words {
            let Some(&tag) = system.get(range) else { continue };
            aligned += 1;
            if tag == *gold {
                right += 1;
            } else {
                *confusions.entry((*gold, tag)).or_default() += 1;
                #[allow(unused_mut)]
                let mut form = sentence.text[range.clone()].to_owned();
                #[cfg(feature = "ko")]
                if let Some(key) = keys.get(range) {
                    form = format!("{form} [{key}]");
                }
                *word_confusions.entry((form, *gold, tag)).or_default() += 1;
            }
            match (is_content(*gold), is_content(tag)) {
                (true, true) => tp += 1,
                (false, true) => fp += 1,
                (true, false) => fneg += 1,
                (false, false) => {}
            }
        }
        let tokens: Vec<&str> =
            sentence.words.iter().map(|(r, _)| &sentence.text[r.clone()]).collect();
        for (tag, (_, gold)) in tagger.tag(&tokens).into_iter().zip(&sentence.words) {
            gold_token_n += 1;
            gold_token_right += usize::from(tag == *gold);
        }
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let (p, r) = (pct(aligned, system_n), pct(aligned, gold_n));
    println!(
        "| {lang} | {treebank} | {gold_n} | {p:.2}% | {r:.2}% | {:.2}% | **{:.2}%** | {:.2}% | {:.2}% | {:.2}% | {:.2}% | {:.0} |",
        2.0 * p * r / (p + r),
        pct(right, aligned),
        2.0 * pct(right, system_n) * pct(right, gold_n)
            / (pct(right, system_n) + pct(right, gold_n)),
        pct(tp, tp + fp),
        pct(tp, tp + fneg),
        pct(gold_token_right, gold_token_n),
        speed,
    );
    let mut confusions: Vec<_> = confusions.into_iter().collect();
    confusions.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = confusions
        .iter()
        .take(12)
        .map(|((gold, tag), n)| format!("{}→{} {n}", gold.as_str(), tag.as_str()))
        .collect();
    eprintln!("{lang}: confusions (gold→tagged): {}", shown.join(", "));
    let mut words: Vec<_> = word_confusions.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = words
        .iter()
        .take(40)
        .map(|((form, gold, tag), n)| format!("{form} {}→{} {n}", gold.as_str(), tag.as_str()))
        .collect();
    eprintln!("{lang}: words: {}", shown.join(", "));
    let mut spurious: Vec<_> = spurious.into_iter().collect();
    spurious.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<String> = spurious.iter().take(40).map(|(w, n)| format!("{w} {n}")).collect();
    eprintln!("{lang}: words not in the gold segmentation: {}", shown.join(", "));
}
