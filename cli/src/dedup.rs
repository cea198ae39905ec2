//! `morgue dedup --input FILE.jsonl`: fuzzy dedup of a researcher's own corpus, without an
//! archive.
//!
//! Input: one JSON object per line, `{"id", "source", "url", "title", "text", "published",
//! "language"}`; `id` is required, `published` is RFC 3339 (or a bare `YYYY-MM-DD`, read as
//! midnight UTC), the rest optional. Output: one line per input line, in the same order:
//! `{"id", "cluster", "relation", "duplicate_of", "score", "method", "explanation"}`, where
//! `cluster` is the id of the cluster's representative, `relation` is null for the representative
//! itself and `explanation` says in words why the document was linked (the rule, its scores, how
//! the names and numbers agreed); with `--explain`, also every score and the thresholds in force,
//! every link of the document (`links`) and every document alike in wording that its facts kept
//! apart (`not_linked`, e.g. another story on the same template). A line that cannot be used (not
//! JSON, no id, a bad date, an id already seen) gives `{"line": N, "error": "..."}` in its place
//! and the run goes on.
//!
//! Clustering needs the whole batch, so no result is known before the last line is read. The run
//! therefore streams what it can: each line is parsed and turned into a signature as it is read
//! (texts are dropped right away, so memory holds only signatures), per-line errors go to
//! stderr at once, a progress line every 10,000 documents, and the output is written, in input
//! order, as soon as clustering is done. Signatures are computed in chunks under a panic guard:
//! should a document ever make the pipeline panic, that line gets an error and the run goes on.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use anyhow::{Context, Result};
use dedup::{Assignment, Config, Deduper, Document, Link, Rejection, Signature};
use serde::Deserialize;
use serde_json::{Value, json};

/// Documents turned into signatures at a time.
const CHUNK: usize = 2_048;

/// What `morgue dedup` was asked.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) input: Option<std::path::PathBuf>,
    pub(crate) output: Option<std::path::PathBuf>,
    pub(crate) window_secs: i64,
    pub(crate) threads: usize,
    pub(crate) explain: bool,
}

#[derive(Debug, Deserialize)]
struct InputLine {
    id: Option<Value>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    published: Option<String>,
    #[serde(default)]
    language: Option<String>,
}

/// One input line's fate.
enum Line {
    Error(String),
    /// Index into the signatures.
    Doc(usize),
}

pub(crate) fn run(options: &Options) -> Result<()> {
    let reader: Box<dyn BufRead> = match options.input.as_deref().filter(|p| !is_dash(p)) {
        Some(path) => Box::new(std::io::BufReader::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )),
        None => Box::new(std::io::stdin().lock()),
    };
    let writer: Box<dyn Write> = match options.output.as_deref().filter(|p| !is_dash(p)) {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut writer = std::io::BufWriter::new(writer);
    let config =
        Config { window_secs: options.window_secs, threads: options.threads, ..Config::default() };
    let dedup = Deduper::new(config).context("cannot load the dedup models")?;

    let mut lines: Vec<Line> = Vec::new();
    let mut signatures: Vec<Signature> = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    let mut pending: Vec<(usize, Document)> = Vec::new();
    let mut errors = 0usize;
    let mut report = |line: usize, message: &str| {
        errors += 1;
        tracing::warn!(line, error = message, "input line skipped");
    };
    let mut buffer = Vec::new();
    let mut reader = reader;
    loop {
        buffer.clear();
        let read = reader.read_until(b'\n', &mut buffer).context("cannot read the input")?;
        if read == 0 {
            break;
        }
        let number = lines.len() + 1;
        match parse(&buffer, &mut first_line, number) {
            Ok(doc) => {
                lines.push(Line::Doc(usize::MAX));
                pending.push((number - 1, doc));
            }
            Err(message) => {
                report(number, &message);
                lines.push(Line::Error(message));
            }
        }
        if pending.len() >= CHUNK {
            flush(&dedup, &mut pending, &mut lines, &mut signatures, &mut report);
        }
        if number.is_multiple_of(10_000) {
            tracing::info!(lines = number, "read");
        }
    }
    flush(&dedup, &mut pending, &mut lines, &mut signatures, &mut report);
    tracing::info!(documents = signatures.len(), "signatures done; matching and clustering");

    let outcome = dedup.run_signatures(&signatures);
    let clusters: std::collections::HashSet<&str> =
        outcome.assignments.iter().map(|a| a.cluster.as_str()).collect();
    let mut links: HashMap<&str, Vec<&Link>> = HashMap::new();
    let mut rejected: HashMap<&str, Vec<&Rejection>> = HashMap::new();
    if options.explain {
        for link in &outcome.links {
            links.entry(link.doc.as_str()).or_default().push(link);
            links.entry(link.of.as_str()).or_default().push(link);
        }
        for r in &outcome.rejected {
            rejected.entry(r.doc.as_str()).or_default().push(r);
            rejected.entry(r.of.as_str()).or_default().push(r);
        }
    }
    for (n, line) in lines.iter().enumerate() {
        let value = match line {
            Line::Error(message) => json!({ "line": n + 1, "error": message }),
            Line::Doc(i) => {
                let assignment = &outcome.assignments[*i];
                let mut value = record(assignment, options.explain);
                if options.explain {
                    let id = assignment.id.as_str();
                    let other = |doc: &str, of: &str| {
                        if doc == id { of.to_owned() } else { doc.to_owned() }
                    };
                    value["links"] = links
                        .get(id)
                        .into_iter()
                        .flatten()
                        .map(|l| {
                            json!({
                                "with": other(&l.doc, &l.of),
                                "relation": l.relation.as_str(),
                                "method": l.method.as_str(),
                                "score": round(l.score()),
                                "explanation": l.explanation,
                            })
                        })
                        .collect();
                    value["not_linked"] = rejected
                        .get(id)
                        .into_iter()
                        .flatten()
                        .map(|r| json!({ "with": other(&r.doc, &r.of), "explanation": r.explanation }))
                        .collect();
                }
                value
            }
        };
        serde_json::to_writer(&mut writer, &value).context("cannot write the output")?;
        writer.write_all(b"\n").context("cannot write the output")?;
    }
    writer.flush().context("cannot write the output")?;
    tracing::info!(
        documents = signatures.len(),
        errors,
        links = outcome.links.len(),
        clusters = clusters.len(),
        "dedup done"
    );
    Ok(())
}

pub(crate) fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Turns the pending documents into signatures, guarding against a panic per chunk and then
/// per document, and drops their texts.
fn flush(
    dedup: &Deduper,
    pending: &mut Vec<(usize, Document)>,
    lines: &mut [Line],
    signatures: &mut Vec<Signature>,
    report: &mut impl FnMut(usize, &str),
) {
    if pending.is_empty() {
        return;
    }
    let docs: Vec<Document> = pending.iter().map(|(_, d)| d.clone()).collect();
    let computed = catch_unwind(AssertUnwindSafe(|| dedup.signatures(&docs)))
        .map(|sigs| sigs.into_iter().map(Some).collect::<Vec<_>>())
        .unwrap_or_else(|_| {
            docs.iter()
                .map(|d| catch_unwind(AssertUnwindSafe(|| dedup.signature(d))).ok())
                .collect()
        });
    for ((line, _), signature) in pending.drain(..).zip(computed) {
        match signature {
            Some(signature) => {
                lines[line] = Line::Doc(signatures.len());
                signatures.push(signature);
            }
            None => {
                let message = "internal error while computing this document's signals".to_owned();
                report(line + 1, &message);
                lines[line] = Line::Error(message);
            }
        }
    }
}

/// Parses one input line into a document, or says why it cannot be used.
fn parse(
    bytes: &[u8],
    first_line: &mut HashMap<String, usize>,
    number: usize,
) -> Result<Document, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the line is not UTF-8".to_owned())?;
    let text = text.trim();
    if text.is_empty() {
        return Err("empty line".to_owned());
    }
    let input: InputLine =
        serde_json::from_str(text).map_err(|e| format!("not a JSON document object: {e}"))?;
    let id = match input.id {
        Some(Value::String(s)) if !s.is_empty() => s,
        Some(Value::Number(n)) => n.to_string(),
        _ => return Err("missing id (a non-empty string or a number)".to_owned()),
    };
    let published = match input.published.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(parse_time(s).ok_or_else(|| {
            format!("bad published {s:?}: expected RFC 3339, e.g. 2026-01-31T08:00:00Z")
        })?),
    };
    if let Some(first) = first_line.get(&id) {
        return Err(format!("duplicate id {id:?} (first on line {first})"));
    }
    first_line.insert(id.clone(), number);
    Ok(Document {
        id,
        source: input.source.unwrap_or_default(),
        url: input.url.unwrap_or_default(),
        title: input.title.unwrap_or_default(),
        text: input.text.unwrap_or_default(),
        published,
        language: input.language.filter(|l| !l.trim().is_empty()),
    })
}

/// RFC 3339, or a bare date at midnight UTC.
fn parse_time(s: &str) -> Option<i64> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t.timestamp());
    }
    let date = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some(date.and_hms_opt(0, 0, 0)?.and_utc().timestamp())
}

/// The output line of a document.
fn record(assignment: &Assignment, explain: bool) -> Value {
    let link = assignment.link.as_ref();
    let mut value = json!({
        "id": assignment.id,
        "cluster": assignment.cluster,
        "relation": link.map(|l| l.relation.as_str()),
        "duplicate_of": assignment.duplicate_of(),
        "score": link.map(|l| round(l.score())),
        "method": link.map(|l| l.method.as_str()),
        "explanation": link.map(|l| l.explanation.as_str()),
    });
    if explain && let Some(link) = link {
        let scores: serde_json::Map<String, Value> = link
            .scores
            .fields()
            .into_iter()
            .map(|(name, v)| (name, json!((v * 10_000.0).round() / 10_000.0)))
            .collect();
        value["scores"] = Value::Object(scores);
        let thresholds: serde_json::Map<String, Value> = link
            .thresholds
            .fields()
            .into_iter()
            .map(|(name, v)| (name.to_owned(), json!(v)))
            .collect();
        value["thresholds"] = Value::Object(thresholds);
        value["found_by"] = json!({
            "minhash": link.found_by.minhash,
            "embedding": link.found_by.embedding,
            "passage": link.found_by.passage,
        });
    }
    value
}

/// Four decimals are plenty and keep the output stable to read.
fn round(x: f32) -> f64 {
    (f64::from(x) * 10_000.0).round() / 10_000.0
}
