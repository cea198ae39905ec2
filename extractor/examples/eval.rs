//! Quality evaluation over a WCXB-style directory: main-text word F1, date accuracy, title match.
//!
//! Usage: `cargo run --release -p extractor --example eval -- <dir> [--candidate NAME] [--tsv FILE] [--now RFC3339]`
//!
//! `<dir>` holds `html/<id>.html.gz` and `ground-truth/<id>.json` (fields under `ground_truth`:
//! `title`, `publish_date`, `main_content`; the page URL at the top level).
//! Candidates: `morgue` (this crate, the default); with `--features compare` also `dom_smoothie`,
//! `readability` (the crate 0.3, an arc90 port; text and title only, no dates), `trafilatura`
//! (the Rust crate 0.6) and `rs_trafilatura` (0.2).
//!
//! Definitions, per page:
//! - **Word F1**: both texts are lower-cased and cut into tokens, each a maximal run of Unicode word
//!   characters (`char::is_alphanumeric` or `_`, which approximates Python's `\w+`); the two token
//!   multisets are intersected (each token counts `min(count in prediction, count in truth)` times);
//!   precision = overlap / predicted tokens, recall = overlap / true tokens, F1 their harmonic mean.
//!   Two empty texts score 1, one empty text scores 0. The mean is over all pages.
//! - **Date accuracy**: on pages whose ground truth has `publish_date`, the share where the
//!   candidate's publication date, written `YYYY-MM-DD` in the page's own offset, equals it.
//! - **Title**: exact string equality, and equality after collapsing whitespace and lower-casing.
//!
//! `--show ID` prints one page's texts. `--tsv FILE` writes one line per page (id, F1, precision, recall, date truth and guess, title match,
//! modification date, date provenance, URL, exact title match, both titles) for error analysis. `--now` fixes "now" for the future-date rule (default 2026-11-22T00:00:00Z),
//! so runs are reproducible.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What a candidate extractor returns for one page.
#[derive(Debug, Default)]
struct Output {
    text: String,
    title: Option<String>,
    date: Option<String>,
    modified: Option<String>,
    /// Where the date came from, when the candidate says.
    date_source: &'static str,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir: Option<PathBuf> = None;
    let mut candidate = "morgue".to_owned();
    let mut tsv: Option<PathBuf> = None;
    let mut now = "2026-11-22T00:00:00Z".to_owned();
    let mut show: Option<String> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--candidate" => candidate = args.next().expect("--candidate needs a name"),
            "--tsv" => tsv = args.next().map(PathBuf::from),
            "--now" => now = args.next().expect("--now needs a date"),
            "--show" => show = args.next(),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.expect("usage: eval <dir> [--candidate NAME] [--tsv FILE] [--now RFC3339]");
    let now = chrono::DateTime::parse_from_rfc3339(&now).expect("--now must be RFC 3339").to_utc();
    let mut pages = load(&dir);
    if let Some(id) = &show {
        pages.retain(|p| &p.id == id);
    }
    let mut rows = Vec::new();
    let (mut f1_sum, mut date_total, mut date_ok, mut title_exact, mut title_norm) =
        (0.0, 0, 0, 0, 0);
    let started = std::time::Instant::now();
    for page in &pages {
        let output = run(&candidate, &page.html, page.url.as_deref(), now);
        let (p, r, f1) = word_f1(&output.text, &page.truth_text);
        if show.is_some() {
            println!(
                "--- truth title: {}\n--- ours: {:?}\n--- date {:?} / {:?}",
                page.truth_title, output.title, page.truth_date, output.date
            );
            println!("--- ours text:\n{}\n--- truth text:\n{}\n---", output.text, page.truth_text);
        }
        f1_sum += f1;
        if let Some(truth) = &page.truth_date {
            date_total += 1;
            if output.date.as_deref() == Some(truth.as_str()) {
                date_ok += 1;
            }
        }
        let exact = output.title.as_deref() == Some(page.truth_title.as_str());
        let norm = output.title.as_deref().map(normalize) == Some(normalize(&page.truth_title));
        title_exact += usize::from(exact);
        title_norm += usize::from(norm);
        let cell = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        rows.push(format!(
            "{}\t{f1:.4}\t{p:.4}\t{r:.4}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            page.id,
            page.truth_date.as_deref().unwrap_or("-"),
            output.date.as_deref().unwrap_or("-"),
            u8::from(norm),
            output.modified.as_deref().unwrap_or("-"),
            output.date_source,
            page.url.as_deref().unwrap_or("-"),
            u8::from(exact),
            cell(&page.truth_title),
            cell(output.title.as_deref().unwrap_or("-")),
        ));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let n = pages.len().max(1) as f64;
    println!("candidate      {candidate}");
    println!("pages          {}", pages.len());
    println!("word F1 mean   {:.4}", f1_sum / n);
    println!(
        "date accuracy  {:.4} ({date_ok}/{date_total})",
        date_ok as f64 / date_total.max(1) as f64
    );
    println!("title exact    {:.4} ({title_exact})", title_exact as f64 / n);
    println!("title norm     {:.4} ({title_norm})", title_norm as f64 / n);
    println!(
        "seconds        {elapsed:.2} ({:.1} pages/s, one core, includes nothing but extraction)",
        n / elapsed
    );
    if let Some(path) = tsv {
        let mut file = std::fs::File::create(&path).expect("cannot create the TSV file");
        writeln!(
            file,
            "id\tf1\tprecision\trecall\tdate_truth\tdate_guess\ttitle_ok\tmodified\tdate_source\turl\ttitle_exact\ttitle_truth\ttitle_guess"
        )
        .unwrap();
        for row in rows {
            writeln!(file, "{row}").unwrap();
        }
    }
}

/// One page with its ground truth.
struct Page {
    id: String,
    html: Vec<u8>,
    url: Option<String>,
    truth_text: String,
    truth_title: String,
    truth_date: Option<String>,
}

/// Reads every page with a ground-truth file into memory.
fn load(dir: &Path) -> Vec<Page> {
    let mut ids: Vec<String> = std::fs::read_dir(dir.join("ground-truth"))
        .expect("no ground-truth directory")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name().to_str().and_then(|n| n.strip_suffix(".json")).map(str::to_owned)
        })
        .collect();
    ids.sort();
    let mut pages = Vec::new();
    for id in ids {
        let json =
            std::fs::read_to_string(dir.join("ground-truth").join(format!("{id}.json"))).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let truth = &value["ground_truth"];
        let Ok(gz) = std::fs::read(dir.join("html").join(format!("{id}.html.gz"))) else {
            continue;
        };
        let mut html = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut html).unwrap();
        let text = |key: &str| truth[key].as_str().unwrap_or("").to_owned();
        pages.push(Page {
            id,
            html,
            url: value["url"].as_str().map(str::to_owned),
            truth_text: text("main_content"),
            truth_title: text("title"),
            truth_date: truth["publish_date"]
                .as_str()
                .filter(|d| !d.is_empty())
                .map(|d| d.chars().take(10).collect()),
        });
    }
    pages
}

/// Runs the named candidate on one page.
fn run(
    candidate: &str,
    html: &[u8],
    url: Option<&str>,
    now: chrono::DateTime<chrono::Utc>,
) -> Output {
    match candidate {
        "morgue" => {
            let ctx = extractor::Context { url, ..extractor::Context::new(now) };
            let extracted = extractor::extract(html, &ctx);
            Output {
                text: extracted.text,
                title: extracted.title.map(|t| t.value),
                date: extracted.published.as_ref().map(|d| d.value.format("%Y-%m-%d").to_string()),
                modified: extracted.modified.map(|d| d.value.format("%Y-%m-%d").to_string()),
                date_source: extracted.published.map_or("-", |d| d.provenance),
            }
        }
        other => compare::run(other, html, url),
    }
}

#[cfg(feature = "compare")]
mod compare {
    use super::Output;

    pub(super) fn run(candidate: &str, html: &[u8], url: Option<&str>) -> Output {
        let html = String::from_utf8_lossy(html);
        match candidate {
            "dom_smoothie" => {
                let Ok(mut readability) = dom_smoothie::Readability::new(&*html, url, None) else {
                    return Output::default();
                };
                match readability.parse() {
                    Ok(article) => Output {
                        text: article.text_content.to_string(),
                        title: Some(article.title),
                        date: article.published_time.map(|d| d.chars().take(10).collect()),
                        modified: None,
                        date_source: "-",
                    },
                    Err(_) => Output::default(),
                }
            }
            "readability" => {
                // It resolves links against the page's URL, which it requires.
                let base = url
                    .and_then(|url| url::Url::parse(url).ok())
                    .or_else(|| url::Url::parse("http://localhost/").ok());
                let Some(base) = base else { return Output::default() };
                match readability::extractor::extract(&mut html.as_bytes(), &base) {
                    Ok(product) => Output {
                        text: product.text,
                        title: Some(product.title),
                        date: None,
                        modified: None,
                        date_source: "-",
                    },
                    Err(_) => Output::default(),
                }
            }
            "trafilatura" => match trafilatura::extract(&html, &trafilatura::Options::default()) {
                Ok(result) => Output {
                    text: result.content_text,
                    title: Some(result.metadata.title),
                    date: result.metadata.date.map(|d| d.format("%Y-%m-%d").to_string()),
                    modified: None,
                    date_source: "-",
                },
                Err(_) => Output::default(),
            },
            "rs_trafilatura" => match rs_trafilatura::extract(&html) {
                Ok(result) => Output {
                    text: result.content_text,
                    title: result.metadata.title,
                    date: result.metadata.date.map(|d| d.format("%Y-%m-%d").to_string()),
                    modified: None,
                    date_source: "-",
                },
                Err(_) => Output::default(),
            },
            other => panic!("unknown candidate {other}"),
        }
    }
}

#[cfg(not(feature = "compare"))]
mod compare {
    use super::Output;

    pub(super) fn run(candidate: &str, _html: &[u8], _url: Option<&str>) -> Output {
        panic!("unknown candidate {candidate} (other extractors need `--features compare`)")
    }
}

/// Lower-cased word tokens, as defined in the module docs.
fn tokens(text: &str) -> HashMap<String, u32> {
    let mut counts = HashMap::new();
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|t| !t.is_empty())
    {
        *counts.entry(token.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

/// Bag-of-words precision, recall and F1 (see the module docs).
fn word_f1(predicted: &str, truth: &str) -> (f64, f64, f64) {
    let predicted = tokens(predicted);
    let truth = tokens(truth);
    let p_total: u32 = predicted.values().sum();
    let t_total: u32 = truth.values().sum();
    if p_total == 0 && t_total == 0 {
        return (1.0, 1.0, 1.0);
    }
    if p_total == 0 || t_total == 0 {
        return (0.0, 0.0, 0.0);
    }
    let overlap: u32 =
        predicted.iter().map(|(token, &count)| count.min(*truth.get(token).unwrap_or(&0))).sum();
    let precision = f64::from(overlap) / f64::from(p_total);
    let recall = f64::from(overlap) / f64::from(t_total);
    let f1 = if overlap == 0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    (precision, recall, f1)
}

/// Whitespace-collapsed, lower-cased title for the lenient comparison.
fn normalize(title: &str) -> String {
    title.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}
