//! Measures tagging speed of the shipped models, single-threaded, on CoNLL-U files.
//!
//! ```sh
//! cargo run --release -p dedup --example bench_tagger -- en /path/to/en_ewt-ud-dev.conllu
//! ```
//!
//! Tags every sentence of the files (gold tokenisation) repeatedly for at least two seconds and
//! prints tokens per second, then the same for raw text through `Tagger::tag_text`. Seconds are
//! the thread's time on a CPU (Linux `/proc/thread-self/schedstat`), so other processes on a
//! busy machine do not count; where that file is missing, wall-clock time. For Turkish, whose
//! model remembers each word's root-lexicon hint per thread (so every round after the first
//! finds them all), it also prints what computing the hints alone costs.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use dedup::tagger::conllu::{self, Line};
use dedup::tagger::{Analyser, Tagger, turkish};

/// Nanoseconds this thread has run on a CPU, or since `start` when that is unknown.
fn cpu_seconds(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns / 1e9)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(language), files) = (args.next(), args.collect::<Vec<_>>()) else {
        eprintln!("usage: bench_tagger LANG FILE.conllu...");
        return ExitCode::FAILURE;
    };
    let mut sentences: Vec<Vec<String>> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            eprintln!("error: cannot read {file}");
            return ExitCode::FAILURE;
        };
        let mut words = Vec::new();
        for line in text.lines() {
            match conllu::parse_line(line) {
                Ok(Line::Word(fields)) => words.push(fields.form().to_owned()),
                Ok(Line::Blank) if !words.is_empty() => sentences.push(std::mem::take(&mut words)),
                Ok(Line::Comment(comment)) => {
                    if let Some(text) = comment.trim().strip_prefix("text =") {
                        texts.push(text.trim().to_owned());
                    }
                }
                _ => {}
            }
        }
        if !words.is_empty() {
            sentences.push(words);
        }
    }
    let tagger = Tagger::for_language(&language);
    let sentences: Vec<Vec<&str>> =
        sentences.iter().map(|s| s.iter().map(String::as_str).collect()).collect();
    let tokens: usize = sentences.iter().map(Vec::len).sum();
    let mut checksum = tagger.tag(&["warm", "up"]).len();
    let (mut rounds, start) = (0_u64, Instant::now());
    let cpu = cpu_seconds(start);
    while start.elapsed() < Duration::from_secs(2) {
        for sentence in &sentences {
            checksum += tagger.tag(sentence).len();
        }
        rounds += 1;
    }
    let seconds = cpu_seconds(start) - cpu;
    println!(
        "{language} ({:?}): {:.0} tokens/s tagging {} sentences, {tokens} tokens, {rounds} rounds",
        tagger.method(),
        (tokens as u64 * rounds) as f64 / seconds,
        sentences.len()
    );
    let document = texts.join(" ");
    let (mut rounds, start) = (0_u64, Instant::now());
    let cpu = cpu_seconds(start);
    let mut raw_tokens = 0;
    while start.elapsed() < Duration::from_secs(2) {
        raw_tokens = tagger.tag_text(&document).len();
        checksum += raw_tokens;
        rounds += 1;
    }
    let seconds = cpu_seconds(start) - cpu;
    println!(
        "{language}: {:.0} tokens/s tokenizing, splitting and tagging raw text ({raw_tokens} tokens, {:.1} MB)",
        (raw_tokens as u64 * rounds) as f64 / seconds,
        document.len() as f64 / 1e6
    );
    if tagger.model().is_some_and(|model| {
        matches!(model.analyser(), Analyser::TurkishRoots | Analyser::TurkishWeb)
    }) {
        // The tagging above remembers each word's hint after its first round; this is what a
        // word seen for the first time costs on top of tagging.
        let (mut rounds, start) = (0_u64, Instant::now());
        let cpu = cpu_seconds(start);
        while start.elapsed() < Duration::from_secs(2) {
            for word in sentences.iter().flatten() {
                checksum += turkish::hint(word).len();
            }
            rounds += 1;
        }
        let seconds = cpu_seconds(start) - cpu;
        println!(
            "{language}: {:.0} words/s computing root-lexicon hints, none remembered",
            (tokens as u64 * rounds) as f64 / seconds
        );
    }
    std::hint::black_box(checksum);
    ExitCode::SUCCESS
}
