//! `morgue extract`: article fields from raw pages, as JSON, one page or a stream of them.
//!
//! One page: the raw bytes of a file (or of standard input) give one JSON object. A stream
//! (`--jsonl`): each input line is a JSON object `{"id", "url", "html"}` and gives one output line
//! with the same `id`, in input order, as soon as it and the lines before it are done. Workers on
//! every core extract pages; a bounded window of lines in flight keeps memory bounded however
//! long the stream, and a line that cannot be used gives `{"id": ..., "error": "..."}` (the `id`
//! is null when the line is not a JSON object) instead of ending the stream. Blank lines are
//! skipped. JSON serialization lives here: the extractor's types know nothing of it.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc;

use anyhow::{Context as _, Result};
use chrono::{DateTime, Utc};
use extractor::{Extracted, Field, Quality, Warning};
use serde_json::{Value, json};

use crate::args::ExtractArgs;

/// Inputs (a page, or a line of `--jsonl`) longer than this are refused (a line) or cut (a page).
pub(crate) const MAX_INPUT_BYTES: usize = 64 << 20;

/// Lines in flight per worker: read but not yet written.
const WINDOW_PER_WORKER: usize = 2;

/// Runs `morgue extract`.
pub(crate) fn run(args: &ExtractArgs) -> Result<()> {
    let now = args.now.unwrap_or_else(Utc::now);
    if args.jsonl {
        let workers = args.workers.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let summary = match stream(io::stdin(), io::stdout().lock(), workers.max(1), now) {
            // The reader went away (`| head`): stop quietly, as other Unix tools do.
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        };
        if summary.errors > 0 {
            tracing::warn!(
                "{} of {} lines were not usable (error objects in the output)",
                summary.errors,
                summary.lines
            );
        }
        return Ok(());
    }
    let raw = match &args.file {
        Some(path) => read_capped(
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?,
        )
        .with_context(|| format!("cannot read {}", path.display()))?,
        None => read_capped(io::stdin().lock()).context("cannot read standard input")?,
    };
    let ctx = extractor::Context {
        url: args.url.as_deref(),
        content_type: args.content_type.as_deref(),
        ..extractor::Context::new(now)
    };
    let extracted = extractor::extract(&raw, &ctx);
    let text = serde_json::to_string_pretty(&to_json(&extracted, args.url.as_deref()))
        .context("cannot serialize the result")?;
    let mut stdout = io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write the output"),
    }
}

/// Reads at most [`MAX_INPUT_BYTES`] bytes.
fn read_capped(input: impl Read) -> io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    input.take(MAX_INPUT_BYTES as u64).read_to_end(&mut raw)?;
    Ok(raw)
}

/// What a stream did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Input lines that were not blank.
    pub(crate) lines: u64,
    /// Lines that gave an error object.
    pub(crate) errors: u64,
}

/// One line read from the stream: its number among non-blank lines, and its bytes (or `None` when
/// it was longer than [`MAX_INPUT_BYTES`]).
type Line = (u64, Option<Vec<u8>>);

/// Extracts every line of `input` on `workers` threads and writes the results to `out` in input
/// order, flushing whenever it has written all it can.
pub(crate) fn stream(
    input: impl Read + Send + 'static,
    mut out: impl Write,
    workers: usize,
    now: DateTime<Utc>,
) -> io::Result<Summary> {
    let window = workers * WINDOW_PER_WORKER;
    let (line_tx, line_rx) = mpsc::sync_channel::<Line>(window);
    let (result_tx, result_rx) = mpsc::sync_channel::<(u64, String, bool)>(window);
    // One credit per line in flight: the reader takes one before sending a line, the writer gives
    // one back after writing one, so at most `window` lines wait in the reorder buffer.
    let (credit_tx, credit_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        let _ = credit_tx.send(());
    }
    // The reader is not joined: on a closed output it may be blocked on a read that never ends.
    let reader = std::thread::spawn(move || read_lines(input, &line_tx, &credit_rx));
    let line_rx = std::sync::Arc::new(std::sync::Mutex::new(line_rx));
    let mut handles = Vec::with_capacity(workers);
    for _ in 0..workers {
        let line_rx = std::sync::Arc::clone(&line_rx);
        let result_tx = result_tx.clone();
        handles.push(std::thread::spawn(move || {
            loop {
                // The lock is held only to take a line, never while extracting it.
                let next = line_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((number, line))) = next else { return };
                let (text, failed) = process(line.as_deref(), now);
                if result_tx.send((number, text, failed)).is_err() {
                    return;
                }
            }
        }));
    }
    drop(result_tx);
    let mut summary = Summary::default();
    let mut pending: BTreeMap<u64, (String, bool)> = BTreeMap::new();
    let mut next = 0u64;
    let written = |result: io::Result<()>| {
        result.map_err(|err| io::Error::new(err.kind(), format!("cannot write the output: {err}")))
    };
    for (number, text, failed) in result_rx {
        pending.insert(number, (text, failed));
        while let Some((text, failed)) = pending.remove(&next) {
            written(out.write_all(text.as_bytes()).and_then(|()| out.write_all(b"\n")))?;
            summary.lines += 1;
            summary.errors += u64::from(failed);
            next += 1;
            let _ = credit_tx.send(());
        }
        written(out.flush())?;
    }
    for handle in handles {
        let _ = handle.join();
    }
    // All workers are done, so the reader has finished or failed.
    match reader.join() {
        Ok(result) => result.map_err(|err| {
            io::Error::new(err.kind(), format!("cannot read standard input: {err}"))
        })?,
        Err(_) => return Err(io::Error::other("the reader thread panicked")),
    }
    Ok(summary)
}

/// Reads non-blank lines, each after taking a credit, until the input ends or nobody listens.
fn read_lines(
    input: impl Read,
    lines: &mpsc::SyncSender<Line>,
    credits: &mpsc::Receiver<()>,
) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut number = 0u64;
    loop {
        let Some(line) = read_line(&mut input)? else { return Ok(()) };
        if line.as_ref().is_some_and(|l| l.iter().all(u8::is_ascii_whitespace)) {
            continue;
        }
        if credits.recv().is_err() || lines.send((number, line)).is_err() {
            return Ok(());
        }
        number += 1;
    }
}

/// The next line without its end, `Some(None)` for a line longer than [`MAX_INPUT_BYTES`] (read
/// through but not kept), or `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Option<Vec<u8>>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match memchr(buffer) {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        if line.len() + chunk.len() > MAX_INPUT_BYTES {
            too_long = true;
            line = Vec::new();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buffer.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some((!too_long).then_some(line)))
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// One input line to one output line, and whether it is an error object.
fn process(line: Option<&[u8]>, now: DateTime<Utc>) -> (String, bool) {
    let Some(line) = line else {
        return (error_line(&Value::Null, "line longer than 64 MiB"), true);
    };
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(err) => return (error_line(&Value::Null, &format!("invalid JSON: {err}")), true),
    };
    let Value::Object(object) = value else {
        return (error_line(&Value::Null, "expected a JSON object with id, url and html"), true);
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    let url = match object.get("url") {
        None | Some(Value::Null) => None,
        Some(Value::String(url)) => Some(url.as_str()),
        Some(_) => return (error_line(&id, "\"url\" must be a string"), true),
    };
    let Some(Value::String(html)) = object.get("html") else {
        return (error_line(&id, "missing \"html\" string"), true);
    };
    let content_type = object.get("content_type").and_then(Value::as_str);
    let ctx = extractor::Context { url, content_type, ..extractor::Context::new(now) };
    // The extractor never panics by contract; should it ever, one line fails, not the stream.
    let extracted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        extractor::extract(html.as_bytes(), &ctx)
    }));
    match extracted {
        Ok(extracted) => (with_id(&id, &to_json(&extracted, url)), false),
        Err(_) => (error_line(&id, "the extractor failed on this page"), true),
    }
}

/// `{"id": ..., "error": ...}` on one line.
fn error_line(id: &Value, message: &str) -> String {
    json!({ "id": id, "error": message }).to_string()
}

/// The result object on one line, `id` first.
fn with_id(id: &Value, result: &Value) -> String {
    let rest = result.to_string();
    let rest = rest.strip_prefix('{').unwrap_or(&rest);
    let id = id.to_string();
    if rest == "}" { format!("{{\"id\":{id}}}") } else { format!("{{\"id\":{id},{rest}") }
}

/// The extracted page as JSON: every field as `{"value", "provenance"}` (or null), the text and
/// its paragraphs, the quality and the warnings.
pub(crate) fn to_json(e: &Extracted, url: Option<&str>) -> Value {
    fn field<T>(f: Option<&Field<T>>, value: impl Fn(&T) -> Value) -> Value {
        f.map_or(Value::Null, |f| json!({ "value": value(&f.value), "provenance": f.provenance }))
    }
    let string = |s: &String| Value::String(s.clone());
    let date = |d: &DateTime<chrono::FixedOffset>| Value::String(d.to_rfc3339());
    json!({
        "url": url,
        "quality": match e.quality {
            Quality::Ok => "ok",
            Quality::TooShort => "too_short",
            Quality::Empty => "empty",
            Quality::NotHtml => "not_html",
        },
        "title": field(e.title.as_ref(), string),
        "published": field(e.published.as_ref(), date),
        "modified": field(e.modified.as_ref(), date),
        "authors": e.authors.iter().map(|a| field(Some(a), string)).collect::<Vec<_>>(),
        "language": field(e.language.as_ref(), string),
        "canonical_url": field(e.canonical_url.as_ref(), string),
        "site_name": field(e.site_name.as_ref(), string),
        "description": field(e.description.as_ref(), string),
        "image": field(e.image.as_ref(), string),
        "encoding": field(Some(&e.encoding), |s: &&str| Value::String((*s).to_owned())),
        "text": e.text,
        "paragraphs": e.paragraphs,
        "warnings": e.warnings.iter().map(warning).collect::<Vec<_>>(),
    })
}

/// A warning as `{"kind", ...details}`.
fn warning(w: &Warning) -> Value {
    match w {
        Warning::Truncated { original_bytes, kept_bytes } => {
            json!({ "kind": "truncated", "original_bytes": original_bytes, "kept_bytes": kept_bytes })
        }
        Warning::CharsetMismatch { declared, used } => {
            json!({ "kind": "charset_mismatch", "declared": declared, "used": used })
        }
        Warning::MalformedBytes { encoding } => {
            json!({ "kind": "malformed_bytes", "encoding": encoding })
        }
        Warning::NotHtml => json!({ "kind": "not_html" }),
        Warning::DateRejected { provenance, value } => {
            json!({ "kind": "date_rejected", "provenance": provenance, "value": value })
        }
        Warning::BadJsonLd => json!({ "kind": "bad_json_ld" }),
        Warning::DeepNesting => json!({ "kind": "deep_nesting" }),
        Warning::OversizedTag => json!({ "kind": "oversized_tag" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2025-06-01T00:00:00Z").unwrap().to_utc()
    }

    fn run_stream(input: &str, workers: usize) -> (Vec<Value>, Summary) {
        let mut out = Vec::new();
        let summary = stream(io::Cursor::new(input.to_owned()), &mut out, workers, now()).unwrap();
        let lines = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (lines, summary)
    }

    #[test]
    fn lines_come_back_in_order_with_their_ids() {
        let input: String = (0..200)
            .map(|i| {
                let html = format!(
                    "<html><body><h1>Story number {i}</h1><p>Paragraph {i}.</p></body></html>"
                );
                format!(
                    "{}\n",
                    json!({ "id": i, "url": format!("https://x.test/{i}"), "html": html })
                )
            })
            .collect();
        for workers in [1, 3] {
            let (lines, summary) = run_stream(&input, workers);
            assert_eq!(summary, Summary { lines: 200, errors: 0 });
            for (i, line) in lines.iter().enumerate() {
                assert_eq!(line["id"], json!(i));
                assert_eq!(line["title"]["value"], json!(format!("Story number {i}")));
            }
        }
    }

    #[test]
    fn bad_lines_give_error_objects() {
        let input = "{\"id\": \"a\", \"html\": \"<p>x</p>\"}\n\nnot json\n[1, 2]\n{\"id\": 7}\n\
            {\"id\": 8, \"url\": 5, \"html\": \"\"}\r\n{\"id\": null, \"url\": null, \"html\": \"\"}";
        let (lines, summary) = run_stream(input, 2);
        assert_eq!(summary, Summary { lines: 6, errors: 4 });
        assert_eq!(lines[0]["id"], json!("a"));
        assert!(lines[1]["error"].as_str().unwrap().starts_with("invalid JSON"), "{}", lines[1]);
        assert_eq!(lines[1]["id"], Value::Null);
        assert_eq!(lines[2]["error"], json!("expected a JSON object with id, url and html"));
        assert_eq!(lines[3], json!({ "id": 7, "error": "missing \"html\" string" }));
        assert_eq!(lines[4], json!({ "id": 8, "error": "\"url\" must be a string" }));
        assert_eq!(lines[5]["quality"], json!("empty"));
    }

    #[test]
    fn over_long_lines_are_refused_without_keeping_them() {
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"id\":1,\"html\":\"");
        input.resize(MAX_INPUT_BYTES + 10, b'a');
        input.extend_from_slice(b"\"}\n{\"id\":2,\"html\":\"<p>ok</p>\"}\n");
        let mut reader = BufReader::new(&input[..]);
        assert_eq!(read_line(&mut reader).unwrap(), Some(None));
        assert!(read_line(&mut reader).unwrap().unwrap().unwrap().starts_with(b"{\"id\":2"));
        assert_eq!(read_line(&mut reader).unwrap(), None);
    }

    #[test]
    fn the_result_object_starts_with_the_id() {
        assert_eq!(with_id(&json!("x"), &json!({ "a": 1 })), r#"{"id":"x","a":1}"#);
        assert_eq!(with_id(&json!(3), &json!({})), r#"{"id":3}"#);
    }
}
