//! `morgue normalize url|title`: the normalizer's keys for people and scripts.
//!
//! Inputs come from the arguments or, with none, one per line from standard input. Exactly one
//! output line is written per input, in order, so the output can be pasted beside the input; an
//! input with no usable result gives an empty line, and the count of those goes to standard error.

use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};

use crate::args::{NormalizeCommand, TitleMode, UrlMode};

/// Turns one input into its output line, or `None` when the input has no usable result.
type Mapper = Box<dyn Fn(&str) -> Option<String>>;

/// Runs `morgue normalize`, reading `stdin` when no inputs were given.
pub(crate) fn run(
    command: &NormalizeCommand,
    stdin: impl BufRead,
    stdout: impl Write,
) -> Result<()> {
    let (inputs, map): (&[String], Mapper) = match command {
        NormalizeCommand::Url { mode, urls } => {
            let mode = *mode;
            (urls, Box::new(move |url| normalize_url(mode, url)))
        }
        NormalizeCommand::Title { source, mode, titles } => {
            let (source, mode) = (source.clone(), *mode);
            (titles, Box::new(move |title| normalize_title(mode, title, source.as_deref())))
        }
    };
    let what = match command {
        NormalizeCommand::Url { .. } => "inputs were not usable http(s) URLs",
        NormalizeCommand::Title { .. } => "titles have no usable key",
    };
    let mut out = BufWriter::new(stdout);
    let mut unusable = 0_u64;
    let mut total = 0_u64;
    let mut emit = |input: &str, out: &mut BufWriter<_>| -> io::Result<()> {
        total += 1;
        let result = map(input);
        if result.is_none() {
            unusable += 1;
        }
        out.write_all(result.as_deref().unwrap_or_default().as_bytes())?;
        out.write_all(b"\n")
    };
    let written = if inputs.is_empty() {
        stream_lines(stdin, |line| emit(line, &mut out))
    } else {
        inputs.iter().try_for_each(|input| emit(input, &mut out))
    }
    .and_then(|()| out.flush());
    match written {
        // The reader went away (`| head`): stop quietly, as other Unix tools do.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        other => other.context("cannot write the output")?,
    }
    if unusable > 0 {
        tracing::warn!("{unusable} of {total} {what} (empty lines in the output)");
    }
    Ok(())
}

/// Calls `each` with every line of `input`, without its line ending; bytes that are not UTF-8
/// are replaced rather than ending the batch.
fn stream_lines(
    mut input: impl BufRead,
    mut each: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buffer);
        each(line.trim_end_matches(['\n', '\r']))?;
    }
}

fn normalize_url(mode: UrlMode, url: &str) -> Option<String> {
    match mode {
        UrlMode::Lossy => normalizer::lossy_url(url),
        UrlMode::Canonical => normalizer::canonical_url(url),
        UrlMode::Domain => normalizer::canonical_domain(url),
    }
}

fn normalize_title(mode: TitleMode, title: &str, source: Option<&str>) -> Option<String> {
    match mode {
        TitleMode::Key => normalizer::title_key(title, source),
        TitleMode::Clean => Some(normalizer::clean_title(title, source)).filter(|t| !t.is_empty()),
    }
}
