//! `morgue tag --lang LANG`: fills the UPOS column of CoNLL-U read on standard input.
//!
//! Output is line for line: comments, blank lines, multiword-token ranges (`1-2`) and empty
//! nodes (`1.1`) pass through unchanged; each word line comes back with the UPOS column filled
//! and the other columns as they were (missing trailing columns written as `_`). Lines are held
//! back only until their sentence ends (or 10,000 words, for input without blank lines). A malformed line is written back unchanged, is not
//! tagged, and is reported on standard error with its line number; the command then ends with
//! an error naming the first one, after the whole output has been written.

use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result, bail};
use dedup::tagger::conllu::{self, Line};
use dedup::tagger::{Method, Tagger};

/// How many malformed lines are reported one by one.
const REPORTED: usize = 10;

/// A "sentence" longer than this (input without blank lines) is tagged and written in parts,
/// so memory stays bounded.
const LONGEST_SENTENCE: usize = 10_000;

/// One buffered line of the current sentence.
enum Held {
    /// Written back as it was.
    Verbatim(String),
    /// A word line: its text, and where its tag lands in the sentence's tags.
    Word(String, usize),
}

/// Runs `morgue tag`.
pub(crate) fn run(language: &str, stdin: impl BufRead, stdout: impl Write) -> Result<()> {
    let tagger = Tagger::for_language(language);
    if tagger.method() == Method::Heuristic {
        let own = dedup::tagger::OWN_MODELS_VAR;
        let own = if std::env::var_os(own).is_some() {
            format!("none usable as {language}.upos in ${own}")
        } else {
            format!("for one of your own, set {own} to a directory with {language}.upos")
        };
        tracing::warn!(
            "no tagger model for {language:?}; using the rule-based fallback (models: {}; {own}: \
             docs/tagger.md)",
            dedup::tagger::languages().collect::<Vec<_>>().join(", "),
        );
    }
    let mut out = BufWriter::new(stdout);
    let mut malformed: Vec<(u64, String)> = Vec::new();
    let mut malformed_count = 0_u64;
    let written = tag_stream(&tagger, stdin, &mut out, |number, message| {
        malformed_count += 1;
        if malformed.len() < REPORTED {
            tracing::warn!("line {number}: {message}; written back untagged");
            malformed.push((number, message));
        }
    })
    .and_then(|()| out.flush());
    match written {
        // The reader went away (`| head`): stop quietly, as other Unix tools do.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        other => other.context("cannot tag the input")?,
    }
    if let Some((number, message)) = malformed.first() {
        let more = malformed_count - 1;
        let more =
            if more > 0 { format!(" (and {more} more malformed lines)") } else { String::new() };
        bail!("line {number}: {message}{more}");
    }
    Ok(())
}

/// Tags every sentence of `input` into `out`, calling `malformed` for each unusable line.
fn tag_stream(
    tagger: &Tagger,
    mut input: impl BufRead,
    out: &mut impl Write,
    mut malformed: impl FnMut(u64, String),
) -> io::Result<()> {
    let mut held: Vec<Held> = Vec::new();
    let mut forms: Vec<String> = Vec::new();
    let mut buffer = Vec::new();
    let mut number = 0_u64;
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            break;
        }
        number += 1;
        let text = String::from_utf8_lossy(&buffer);
        let line = text.trim_end_matches(['\n', '\r']);
        match conllu::parse_line(line) {
            Ok(Line::Blank) => {
                flush_sentence(tagger, &mut held, &mut forms, out)?;
                writeln!(out, "{line}")?;
            }
            Ok(Line::Word(fields)) => {
                forms.push(fields.form().to_owned());
                held.push(Held::Word(line.to_owned(), forms.len() - 1));
                if forms.len() >= LONGEST_SENTENCE {
                    flush_sentence(tagger, &mut held, &mut forms, out)?;
                }
            }
            Ok(Line::Comment(_) | Line::Range { .. } | Line::Empty(_)) => {
                held.push(Held::Verbatim(line.to_owned()));
            }
            Err(error) => {
                malformed(number, error.to_string());
                held.push(Held::Verbatim(line.to_owned()));
            }
        }
    }
    flush_sentence(tagger, &mut held, &mut forms, out)
}

/// Tags the held sentence and writes its lines.
fn flush_sentence(
    tagger: &Tagger,
    held: &mut Vec<Held>,
    forms: &mut Vec<String>,
    out: &mut impl Write,
) -> io::Result<()> {
    let tokens: Vec<&str> = forms.iter().map(String::as_str).collect();
    let tags = tagger.tag(&tokens);
    for line in held.drain(..) {
        match line {
            Held::Verbatim(line) => writeln!(out, "{line}")?,
            Held::Word(line, at) => match conllu::parse_line(&line) {
                Ok(Line::Word(fields)) => writeln!(out, "{}", fields.with_upos(tags[at].as_str()))?,
                _ => writeln!(out, "{line}")?,
            },
        }
    }
    forms.clear();
    Ok(())
}
