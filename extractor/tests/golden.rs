//! Golden tests: real pages of different shapes, extracted, against snapshots checked in beside them.
//!
//! Each page in `tests/golden/` (`NAME.html.gz`, from the WCXB dev split, CC-BY-4.0; see
//! `tests/golden/ATTRIBUTION.md`) is extracted with its own URL and a fixed "now", and the result is
//! rendered field by field (value and provenance), then the paragraphs, into `NAME.txt`. A change in
//! extraction shows in review as a diff of those files. After a deliberate change, regenerate them
//! with `UPDATE_EXPECT=1 cargo nextest run -p extractor --test golden` and read the diff.

use std::fmt::Write as _;
use std::io::Read as _;

use chrono::{DateTime, TimeZone, Utc};
use expect_test::expect_file;
use extractor::{Context, Extracted, Field, extract};

/// A page: its file name in `tests/golden/` (without `.html.gz`) and the URL it was fetched from.
struct Page {
    name: &'static str,
    url: &'static str,
}

/// The fetch time of every page: after all of them were published, so that no date is in the future.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 0, 0, 0).single().unwrap_or_default()
}

/// The extraction, one field a line (`-` when absent, the provenance in brackets), then the
/// paragraphs, separated by blank lines.
fn render(page: &Page, e: &Extracted) -> String {
    fn field<T>(out: &mut String, name: &str, f: Option<&Field<T>>, show: impl Fn(&T) -> String) {
        let _ = match f {
            Some(f) => writeln!(out, "{name}: {} [{}]", show(&f.value), f.provenance),
            None => writeln!(out, "{name}: -"),
        };
    }
    let mut out = String::new();
    let _ = writeln!(out, "url: {}", page.url);
    field(&mut out, "title", e.title.as_ref(), String::clone);
    field(&mut out, "published", e.published.as_ref(), DateTime::to_rfc3339);
    field(&mut out, "modified", e.modified.as_ref(), DateTime::to_rfc3339);
    let authors: Vec<String> =
        e.authors.iter().map(|a| format!("{} [{}]", a.value, a.provenance)).collect();
    let _ = writeln!(
        out,
        "authors: {}",
        if authors.is_empty() { "-".to_owned() } else { authors.join(", ") }
    );
    field(&mut out, "language", e.language.as_ref(), String::clone);
    field(&mut out, "canonical_url", e.canonical_url.as_ref(), String::clone);
    field(&mut out, "site_name", e.site_name.as_ref(), String::clone);
    field(&mut out, "description", e.description.as_ref(), String::clone);
    field(&mut out, "image", e.image.as_ref(), String::clone);
    field(&mut out, "encoding", Some(&e.encoding), |v| (*v).to_owned());
    let _ = writeln!(out, "quality: {:?}", e.quality);
    let _ = writeln!(out, "warnings: {:?}", e.warnings);
    let _ = writeln!(
        out,
        "text: {} paragraphs, {} characters",
        e.paragraphs.len(),
        e.text.chars().count()
    );
    for paragraph in &e.paragraphs {
        let _ = write!(out, "\n{paragraph}\n");
    }
    out
}

fn check(page: &Page) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let path = dir.join(format!("{}.html.gz", page.name));
    let compressed =
        std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(compressed.as_slice())
        .read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("cannot decompress {}: {e}", path.display()));
    let ctx = Context { url: Some(page.url), ..Context::new(now()) };
    let extracted = extract(&raw, &ctx);
    expect_file![dir.join(format!("{}.txt", page.name))].assert_eq(&render(page, &extracted));
}

/// A test for each page, and [`PAGES`], their names.
macro_rules! golden {
    ($($(#[doc = $why:literal])* $name:ident: $url:literal,)*) => {
        $(
            $(#[doc = $why])*
            #[test]
            fn $name() {
                check(&Page { name: stringify!($name), url: $url });
            }
        )*

        /// The names of the pages with a test.
        const PAGES: &[&str] = &[$(stringify!($name)),*];
    };
}

#[test]
fn every_page_and_snapshot_has_a_test() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut untested = Vec::new();
    for entry in entries {
        let name = entry.map(|e| e.file_name().to_string_lossy().into_owned()).unwrap_or_default();
        let Some(page) = name.strip_suffix(".html.gz").or_else(|| name.strip_suffix(".txt")) else {
            continue;
        };
        if !PAGES.contains(&page) {
            untested.push(name);
        }
    }
    assert!(untested.is_empty(), "files in tests/golden without a test: {untested:?}");
}

golden! {
    /// A national news story: JSON-LD, two authors, a `<time>` element.
    news_npr: "https://www.npr.org/2023/10/17/1206601882/plumbers-are-training-as-substitute-teachers-so-full-time-teachers-can-protest-a",
    /// A local television station's investigation.
    news_local_tv: "https://abc7ny.com/post/7-side-moving-company-investigation/18153161/",
    /// A news story dated by `<meta>` tags (and its URL): no JSON-LD date, no `<time>`.
    news_date_only_in_meta: "https://siliconangle.com/2025/12/19/google-cloud-runs-ai-inference-real-world-scale-googlecloud",
    /// A national news agency outside Europe and America, on its own CMS, no JSON-LD date.
    news_agency_bangladesh: "https://www.bssnews.net/district/343604",
    /// Long-form magazine science writing (26,000 characters) under a subscription prompt.
    long_form_magazine: "https://www.scientificamerican.com/article/brains-are-not-required-when-it-comes-to-thinking-and-solving-problems-simple-cells-can-do-it",
    /// A ranked listicle with headings per item and a comment section.
    listicle_ranked: "https://movieweb.com/best-anime-2025-ranked-dandadan-chainsaw-man-takopis-original-sin",
    /// An opinion piece from a magazine's archive (2014).
    opinion_archive: "https://www.theatlantic.com/education/archive/2014/04/plato-to-plumbers/361373/",
    /// A personal blog with comments, declaring ISO-8859-1 for bytes that are UTF-8, its `<h1>` the
    /// site's name.
    blog_comments_wrong_charset: "https://davidbau.com/archives/2025/12/16/vibe_coding.html",
    /// A newsletter post for paid subscribers: a teaser, then the paywall.
    paywall_teaser: "https://aimaker.substack.com/p/ai-agent-automation-news-research-perplexity-make-google-sheets",
    /// A press release.
    press_release: "https://www.searchlight.vc/press-release/2025/12/19/enrolment-now-open-spanish-classes-venezuelan-institute",
    /// A government information page whose only date is a "Date Last Reviewed" `<time>`.
    government_page: "https://www.hrsa.gov/oral-health",
    /// A short university page (about 600 characters of text).
    short_page: "https://ml.gatech.edu/agency",
    /// A tutorial on a minimal blog, with code blocks and lists.
    tutorial_with_code: "https://owain.bearblog.dev/turning-a-tinybox-green-v2-into-a-private-ai-home-server",
}
