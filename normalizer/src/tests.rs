//! Crate-level tests: the crate documentation's example, and a tidy check of module documentation.

use crate::{lossy_url, title_key};

#[test]
fn crate_docs_example() {
    let a = lossy_url("https://www.example.com/News/Story?utm_source=rss#comments");
    let b = lossy_url("http://m.example.com/news/story?fbclid=IwAR0");
    assert_eq!(a.as_deref(), Some("http://example.com/news/story"));
    assert_eq!(a, b);

    let k = title_key(
        "Mayor announces new budget plan for city schools | The Boston Globe",
        Some("The Boston Globe"),
    );
    assert_eq!(k.as_deref(), Some("mayor announces new budget plan for city schools"));
}

#[test]
fn large_inputs_take_linear_time() {
    // Each of these was quadratic in a first version; at this size quadratic work takes minutes.
    let n = 100_000;
    let schemes = format!("{}example.com/a", "http://".repeat(n));
    assert_eq!(lossy_url(&schemes).as_deref(), Some("http://example.com/a"));
    let labels = format!("http://{}example.com/", "www.".repeat(n));
    assert_eq!(lossy_url(&labels).as_deref(), Some("http://example.com/"));
    let wrappers = format!("https://{}example.com/a", "archive.is/o/ab1/".repeat(20));
    assert_eq!(lossy_url(&wrappers).as_deref(), Some("http://example.com/a"));
    // Past 32 nested wrappers there is no key: deterministic, and no one links like that.
    let wrappers = format!("https://{}example.com/a", "archive.is/o/ab1/".repeat(40));
    assert_eq!(lossy_url(&wrappers), None);
    let homes = format!("{}Story", "Home | ".repeat(n));
    assert_eq!(crate::clean_title(&homes, None), "Story");
    let title = "word | ".repeat(n);
    assert!(crate::normalized_title(&title, Some("word")).len() <= 1023);
    assert!(
        crate::fold_text(&"Ä ".repeat(n), crate::FoldOptions { diacritics: true }).len() < 3 * n
    );
}

#[test]
fn every_module_has_docs() {
    // Read at compile time, so that the crate's source does no I/O even in tests.
    let sources = [
        ("lib.rs", include_str!("lib.rs")),
        ("canonical.rs", include_str!("canonical.rs")),
        ("canonical/tests.rs", include_str!("canonical/tests.rs")),
        ("detect.rs", include_str!("detect.rs")),
        ("detect/tests.rs", include_str!("detect/tests.rs")),
        ("domain.rs", include_str!("domain.rs")),
        ("domain/tests.rs", include_str!("domain/tests.rs")),
        ("fix.rs", include_str!("fix.rs")),
        ("fix/tests.rs", include_str!("fix/tests.rs")),
        ("fold.rs", include_str!("fold.rs")),
        ("fold/tests.rs", include_str!("fold/tests.rs")),
        ("html.rs", include_str!("html.rs")),
        ("html/tests.rs", include_str!("html/tests.rs")),
        ("lossy.rs", include_str!("lossy.rs")),
        ("lossy/tests.rs", include_str!("lossy/tests.rs")),
        ("params.rs", include_str!("params.rs")),
        ("params/tests.rs", include_str!("params/tests.rs")),
        ("parts.rs", include_str!("parts.rs")),
        ("parts/tests.rs", include_str!("parts/tests.rs")),
        ("percent.rs", include_str!("percent.rs")),
        ("percent/tests.rs", include_str!("percent/tests.rs")),
        ("proptests.rs", include_str!("proptests.rs")),
        ("tests.rs", include_str!("tests.rs")),
        ("title.rs", include_str!("title.rs")),
        ("title/tests.rs", include_str!("title/tests.rs")),
    ];
    for (name, text) in sources {
        assert!(text.starts_with("//! "), "{name} does not open with a `//!` line");
    }
}

#[test]
fn invisible_formatting_characters_match_nothing() {
    use crate::{FoldOptions, clean_title, fold_text, normalized_title};
    let marked = "Paläs\u{AD}ti\u{AD}nenser for\u{200B}dern mehr Hil\u{2060}fe\u{FEFF}";
    let plain = "Palästinenser fordern mehr Hilfe";
    assert_eq!(clean_title(marked, None), plain);
    assert_eq!(normalized_title(marked, None), normalized_title(plain, None));
    assert_eq!(title_key(marked, None), title_key(plain, None));
    let options = FoldOptions { diacritics: true };
    assert_eq!(fold_text(marked, options), fold_text(plain, options));
    // The joiners that shape Persian, Indic scripts and emoji stay.
    assert_eq!(fold_text("می\u{200C}خواهم", options), "می\u{200C}خواهم");
}
