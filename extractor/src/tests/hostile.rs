//! Hostile inputs: truncated HTML, binary garbage, huge pages, deep nesting, wrong charsets.
//!
//! Every case checks that `extract` returns (no panic) a result that is consistent and bounded:
//! warnings each once and at most [`MAX_WARNINGS`], text no longer than the input could give, and a
//! quality that agrees with the text. None of them measures time.

use proptest::prelude::*;

use super::{ARTICLE, now, run};
use crate::{Context, Extracted, MAX_INPUT_BYTES, MAX_WARNINGS, Quality, Warning, extract};

/// The invariants every result keeps, whatever the input.
fn assert_sane(e: &Extracted, input_len: usize) {
    assert!(e.warnings.len() <= MAX_WARNINGS, "{:?}", e.warnings);
    for (i, w) in e.warnings.iter().enumerate() {
        assert!(!e.warnings[..i].contains(w), "repeated warning {w:?}");
    }
    // A byte becomes at most one U+FFFD (three bytes); markup only shrinks.
    assert!(e.text.len() <= 3 * input_len.min(MAX_INPUT_BYTES), "{} bytes", e.text.len());
    assert_eq!(e.text, e.paragraphs.join("\n\n"));
    match e.quality {
        Quality::Empty | Quality::NotHtml => assert!(e.text.is_empty()),
        Quality::TooShort => assert!(!e.text.is_empty()),
        Quality::Ok => assert!(e.text.chars().count() >= crate::MIN_TEXT_CHARS),
    }
}

fn run_bytes(bytes: &[u8]) -> Extracted {
    let e = extract(bytes, &Context::new(now()));
    assert_sane(&e, bytes.len());
    e
}

fn words(text: &str) -> std::collections::HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn truncated_html_still_gives_text() {
    let cut = &ARTICLE[..ARTICLE.find("What comes next").unwrap() + 4];
    let e = run(cut);
    assert_sane(&e, cut.len());
    assert!(e.text.contains("Officials said thousands of homes lost power"), "{}", e.text);
}

#[test]
fn truncated_inside_a_character_is_not_mislabelled() {
    let page = "<html><head><meta charset=utf-8></head><body><p>Ein Bericht über die Straßenbahn \
        in Zürich, die seit Jahren für Ärger sorgt, weil sie zu spät kommt.</p><p>Zweiter Absatz \
        über München</p></body></html>";
    let bytes = page.as_bytes();
    for cut in 0..bytes.len() {
        let e = run_bytes(&bytes[..cut]);
        assert_eq!(e.encoding.value, "UTF-8", "cut at {cut}");
        assert!(
            !e.warnings.iter().any(|w| matches!(w, Warning::CharsetMismatch { .. })),
            "cut at {cut}: {:?}",
            e.warnings
        );
    }
}

#[test]
fn binary_garbage_is_not_html() {
    let gzip = {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(ARTICLE.as_bytes()).unwrap();
        encoder.finish().unwrap()
    };
    let noise: Vec<u8> =
        (0..50_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let png = [b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".as_slice(), &noise[..5000]].concat();
    let pdf = [b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".as_slice(), &noise[..5000]].concat();
    let cases: [(&str, Vec<u8>); 6] = [
        ("gzip", gzip),
        ("noise", noise.clone()),
        ("png", png),
        ("pdf", pdf),
        ("nul", vec![0; 100_000]),
        ("json", br#"{"status": "ok", "items": [1, 2, 3]}"#.to_vec()),
    ];
    for (name, bytes) in cases {
        let e = run_bytes(&bytes);
        assert_eq!(e.quality, Quality::NotHtml, "{name}");
        assert!(e.warnings.contains(&Warning::NotHtml), "{name}: {:?}", e.warnings);
    }
    // UTF-16 without a byte-order mark decodes as something else; it must not blow up either.
    let utf16: Vec<u8> = ARTICLE.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let _ = run_bytes(&utf16);
    // Binary data inside an otherwise ordinary page stays a page.
    let mixed = [ARTICLE.as_bytes(), &noise[..300]].concat();
    let e = run_bytes(&mixed);
    assert_eq!(e.quality, Quality::Ok);
}

#[test]
fn huge_input_is_capped() {
    let mut html = String::from("<html><body>");
    let paragraph =
        "<p>A long paragraph of filler text, repeated to make a very large page indeed.</p>\n";
    while html.len() < 50 << 20 {
        html.push_str(paragraph);
    }
    let e = run(&html);
    assert_sane(&e, html.len());
    assert!(
        e.warnings.contains(&Warning::Truncated {
            original_bytes: html.len(),
            kept_bytes: MAX_INPUT_BYTES
        })
    );
    // The repeated paragraph is kept once, beside the one the cut left unfinished.
    assert!(e.paragraphs.len() <= 2, "{:?}", e.paragraphs);
}

#[test]
fn huge_input_without_markup_or_with_one_giant_tag() {
    let text = "word ".repeat(10 << 20);
    let e = run_bytes(text.as_bytes());
    assert_eq!(e.quality, Quality::NotHtml);
    let giant = format!(
        "<html><body><div title=\"{}\">x</div><p>{}</p></body></html>",
        "a".repeat(50 << 20),
        "tail"
    );
    let e = run_bytes(giant.as_bytes());
    assert!(e.warnings.iter().any(|w| matches!(w, Warning::Truncated { .. })));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 100_000;
    let paragraph =
        "<p>Deep text that is long enough to be a paragraph of an article, with commas, too.</p>";
    for (open, close) in [
        ("<div>", "</div>"),
        ("<section><div>", "</div></section>"),
        ("<ul><li>", "</li></ul>"),
        ("<blockquote>", "</blockquote>"),
    ] {
        let html = format!("<html><body>{}{paragraph}{}", open.repeat(depth), close.repeat(depth));
        let e = run(&html);
        assert_sane(&e, html.len());
        assert!(e.warnings.contains(&Warning::DeepNesting), "{open}");
        assert!(e.text.contains("Deep text"), "{open}: {}", e.text);
    }
    // Nested links (the adoption agency algorithm): only link text, so no main text.
    let html = "<a href=x>".repeat(depth) + "text";
    assert_sane(&run(&html), html.len());
    // Unclosed, inline, formatting and table nesting.
    for html in [
        "<div>".repeat(depth) + "text",
        "<span><b>".repeat(50_000) + "text",
        "<b><i><u>".repeat(depth / 3) + "text",
        "<p>".repeat(depth) + "text",
        "<table><tr><td>".repeat(20_000) + "text",
        "<table>".repeat(20_000) + &"<td>x".repeat(20_000),
    ] {
        let e = run(&html);
        assert_sane(&e, html.len());
        assert!(e.text.contains("text") || e.text.contains('x'), "{}", &html[..20]);
    }
}

#[test]
fn pathological_markup() {
    let attributes: Vec<String> = (0..100_000).map(|i| format!("a{i}=\"{i}\"")).collect();
    let html = format!("<div {}>hi</div>", attributes.join(" "));
    let e = run(&html);
    assert_sane(&e, html.len());
    assert!(e.warnings.contains(&Warning::OversizedTag));
    // Oversized tags beyond the depth limit, and oversized closing tags: one warning each.
    let long = format!("<div {}>", "a=1 ".repeat(20_000));
    let html = long.repeat(600) + "text" + &format!("</div {}>", "b=2 ".repeat(20_000)).repeat(600);
    let e = run(&html);
    assert_sane(&e, html.len());
    assert!(e.warnings.contains(&Warning::OversizedTag));
    for html in [
        "<".repeat(1_000_000) + ">",
        "<!--".repeat(200_000),
        "<script>".repeat(100_000),
        "<svg>".repeat(100_000) + "text",
        "<title>".repeat(100_000),
        format!(
            "<html><head><script type=\"application/ld+json\">{}</script></head></html>",
            "[".repeat(100_000)
        ),
        format!("<html><body><p>{}</p></body></html>", "&amp;".repeat(200_000)),
    ] {
        let e = run(&html);
        assert_sane(&e, html.len());
    }
}

#[test]
fn wrong_declared_charsets() {
    let page = "<html><head><meta charset=\"utf-8\"></head><body><p>Le café était très fréquenté, \
        à Paris comme à Lyon, pendant tout l'été dernier.</p></body></html>";
    let latin1: Vec<u8> = page.chars().map(|c| c as u32 as u8).collect();
    let mismatch =
        |e: &Extracted| e.warnings.iter().any(|w| matches!(w, Warning::CharsetMismatch { .. }));
    // Declared UTF-8, written in Latin-1.
    let e = run_bytes(&latin1);
    assert!(e.text.contains("café était très fréquenté"), "{}", e.text);
    assert!(mismatch(&e));
    // Declared Latin-1 (in the header, which wins over the page), written in UTF-8.
    let ctx =
        Context { content_type: Some("text/html; charset=ISO-8859-1"), ..Context::new(now()) };
    let e = extract(page.as_bytes(), &ctx);
    assert_sane(&e, page.len());
    assert!(e.text.contains("café était très fréquenté"), "{}", e.text);
    assert!(mismatch(&e));
    // Declared Shift_JIS, written in Latin-1: the bytes do not fit, detection wins.
    let sjis = String::from_utf8_lossy(&latin1).replace("utf-8", "shift_jis");
    let sjis: Vec<u8> =
        sjis.chars().map(|c| if c == '\u{fffd}' { b'?' } else { c as u32 as u8 }).collect();
    let sjis = [&sjis[..], &latin1[page.find("<body>").unwrap()..]].concat();
    let e = run_bytes(&sjis);
    assert!(e.text.contains("café était très fréquenté"), "{}", e.text);
    // An unknown label and a declaration past the prescan window are ignored.
    for html in [
        page.replace("utf-8", "utf-9"),
        format!("<!--{}-->{page}", " ".repeat(crate::charset::PRESCAN_BYTES)),
    ] {
        let e = run_bytes(html.as_bytes());
        assert!(e.text.contains("café était très fréquenté"), "{}", e.text);
    }
    // A declared UTF-16 without a byte-order mark is read as UTF-8, as the standard says.
    let e = run_bytes(page.replace("utf-8", "utf-16").as_bytes());
    assert_eq!(e.encoding.value, "UTF-8");
}

#[test]
fn attributes_nobody_reads_are_dropped_and_quotes_respected() {
    let slim = |tag: &str| {
        let name_end = tag.find([' ', '>', '/']).unwrap();
        crate::slim_tag(tag.as_bytes(), name_end)
    };
    assert_eq!(
        slim(r#"<div class="a" style="color: red" data-x='1 > 0' id=main>rest"#),
        Some((57, Some(r#" class="a" id=main>"#.to_owned())))
    );
    assert_eq!(slim(r#"<p class="lead">"#), Some((16, None)));
    assert_eq!(slim(r#"<br clear=all/>"#), Some((15, Some("/>".to_owned()))));
    assert_eq!(slim(r#"<span title="never closed>text"#), None);
    assert_eq!(slim(r#"<span hidden"#), None);
    // A `>` inside a quoted value does not end the tag, and no attribute text leaks out.
    let html = r#"<html><body><p title="a > b" data-n="5" class="x">The council approved the new
        budget on Monday, after a long and heated debate about the schools.</p></body></html>"#;
    let e = run(html);
    assert_sane(&e, html.len());
    assert_eq!(
        e.text,
        "The council approved the new budget on Monday, after a long and heated debate about the schools."
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..4000)) {
        let _ = run_bytes(&bytes);
    }

    #[test]
    fn any_prefix_of_a_page_gives_a_subset_of_its_words(cut in 0..ARTICLE.len()) {
        // Text that the whole page treats as furniture may be all a prefix has, so the words
        // are compared with the page's source: nothing is invented.
        let all = words(ARTICLE);
        let mut cut = cut;
        while !ARTICLE.is_char_boundary(cut) {
            cut -= 1;
        }
        let e = run(&ARTICLE[..cut]);
        assert_sane(&e, cut);
        // A word cut in half is a new word; every other word is in the source.
        let extra: Vec<String> = words(&e.text).difference(&all).cloned().collect();
        prop_assert!(extra.len() <= 1, "{:?}", extra);
    }

    #[test]
    fn never_panics_on_tag_soup(parts in proptest::collection::vec(
        prop_oneof![
            Just("<div>".to_owned()), Just("</div>".to_owned()), Just("<p>".to_owned()), Just("</p>".to_owned()),
            Just("<a href=x>".to_owned()), Just("</a>".to_owned()), Just("<br>".to_owned()), Just("<script>".to_owned()),
            Just("<h1>".to_owned()), Just("<nav class=menu>".to_owned()), Just("<time datetime=2024-01-01>".to_owned()),
            Just("</time>".to_owned()), Just("<span class=post-date>".to_owned()), Just("<svg/>".to_owned()),
            Just("<meta property=article:published_time content=9999-99-99>".to_owned()),
            Just("<script type=application/ld+json>{\"@type\":\"Article\",".to_owned()),
            Just("Published 3 March 2024".to_owned()), Just("2024年3月3日".to_owned()),
            "[a-zA-Z ,.éü中]{0,40}",
        ],
        0..200,
    )) {
        let html = parts.concat();
        let ctx = Context { url: Some("https://x.test/2024/13/45/a"), ..Context::new(now()) };
        let e = extract(html.as_bytes(), &ctx);
        assert_sane(&e, html.len());
    }
}
