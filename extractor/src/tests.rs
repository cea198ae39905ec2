//! End-to-end tests of `extract` on small pages and hostile inputs.

use chrono::{TimeZone, Utc};

use crate::{Context, Extracted, Quality, Warning, extract};

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 6, 1, 12, 0, 0).unwrap()
}

fn run(html: &str) -> Extracted {
    let ctx =
        Context { url: Some("https://news.example/2025/05/20/storm-story"), ..Context::new(now()) };
    extract(html.as_bytes(), &ctx)
}

/// A stable rendering: one field per line, then the paragraphs.
fn render(e: &Extracted) -> String {
    let field = |name: &str, f: Option<(String, &str)>| match f {
        Some((v, p)) => format!("{name}: {v} [{p}]\n"),
        None => format!("{name}: -\n"),
    };
    let mut out = String::new();
    out += &field("title", e.title.as_ref().map(|f| (f.value.clone(), f.provenance)));
    out += &field("published", e.published.as_ref().map(|f| (f.value.to_rfc3339(), f.provenance)));
    out += &field("modified", e.modified.as_ref().map(|f| (f.value.to_rfc3339(), f.provenance)));
    let authors: Vec<String> =
        e.authors.iter().map(|a| format!("{} [{}]", a.value, a.provenance)).collect();
    out += &format!("authors: {}\n", authors.join(", "));
    out += &field("canonical", e.canonical_url.as_ref().map(|f| (f.value.clone(), f.provenance)));
    out += &field("site", e.site_name.as_ref().map(|f| (f.value.clone(), f.provenance)));
    out += &field("image", e.image.as_ref().map(|f| (f.value.clone(), f.provenance)));
    out += &format!("quality: {:?}\n", e.quality);
    for p in &e.paragraphs {
        out += &format!("| {p}\n");
    }
    out
}

const ARTICLE: &str = r##"<!doctype html><html lang="en"><head>
<meta charset="utf-8"><title>Storm hits the coast | Daily Planet</title>
<meta property="og:site_name" content="Daily Planet">
<meta property="og:image" content="/img/storm.jpg">
<link rel="canonical" href="/2025/05/20/storm-story">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebPage","datePublished":"2020-01-01"},
 {"@type":"NewsArticle","headline":"Storm hits the coast","datePublished":"2025-05-20T08:30:00-04:00",
  "dateModified":"2025-05-21T10:00:00Z","author":[{"@type":"Person","name":"Lois Lane"},{"name":"Jimmy Olsen"}]}]}</script>
<script>var junk = "<p>not text</p>";</script><style>p { color: red }</style>
</head><body>
<header><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
<div class="cookie-banner">We use cookies to improve your experience on our website, please accept them all now.</div>
<main><article>
<h1>Storm hits the coast</h1>
<p>A powerful storm hit the coast on Tuesday, bringing heavy rain, strong winds and flooding to several towns.</p>
<p>Officials said thousands of homes lost power, and emergency crews worked through the night to clear roads.</p>
<h2>What comes next</h2>
<p>Forecasters expect the weather to calm by the weekend, although more rain is likely in the north.</p>
<div class="share-bar"><a href="#">Share on Facebook</a> <a href="#">Share on X</a></div>
</article>
<aside class="related"><h3>Related stories</h3><ul><li><a href="/a">Another storm story that is long enough</a></li></ul></aside>
</main>
<footer><p>Copyright 2025 Daily Planet. All rights reserved. Contact us at the newsroom for corrections.</p></footer>
</body></html>"##;

#[test]
fn article_with_furniture() {
    let rendered = render(&run(ARTICLE));
    let expected = "\
title: Storm hits the coast [h1]
published: 2025-05-20T08:30:00-04:00 [json-ld:datePublished]
modified: 2025-05-21T10:00:00+00:00 [json-ld:dateModified]
authors: Lois Lane [json-ld:author], Jimmy Olsen [json-ld:author]
canonical: https://news.example/2025/05/20/storm-story [link:canonical]
site: Daily Planet [og:site_name]
image: https://news.example/img/storm.jpg [og:image]
quality: Ok
| A powerful storm hit the coast on Tuesday, bringing heavy rain, strong winds and flooding to several towns.
| Officials said thousands of homes lost power, and emergency crews worked through the night to clear roads.
| What comes next
| Forecasters expect the weather to calm by the weekend, although more rain is likely in the north.
";
    assert_eq!(rendered, expected, "\n{rendered}");
}

#[test]
fn language_combines_declaration_and_detection() {
    let e = run(ARTICLE);
    let language = e.language.expect("a language");
    assert_eq!((language.value.as_str(), language.provenance), ("en", "declared+function-words"));
    // A wrong CMS default loses to the detector.
    let spanish = "<html lang=\"en\"><body><p>El gobierno anunció hoy nuevas medidas para reducir el precio de la \
        electricidad en todo el país, según informaron fuentes oficiales.</p></body></html>";
    assert_eq!(run(spanish).language.map(|l| l.value).as_deref(), Some("es"));
    // A more specific declaration wins over the same detected language.
    let brazil = "<html lang=\"pt-BR\"><body><p>O governo anunciou hoje novas medidas para reduzir o preço da \
        eletricidade em todo o país, segundo fontes oficiais do ministério.</p></body></html>";
    assert_eq!(run(brazil).language.map(|l| l.value).as_deref(), Some("pt-br"));
}

#[test]
fn dates_from_meta_url_and_rejection() {
    let html = r#"<html><head><meta property="article:published_time" content="2031-01-01T00:00:00Z"></head>
        <body><p>Short.</p></body></html>"#;
    let e = run(html);
    let published = e.published.expect("the URL date");
    assert_eq!(
        (published.value.to_rfc3339().as_str(), published.provenance),
        ("2025-05-20T00:00:00+00:00", "url")
    );
    assert!(
        e.warnings.iter().any(|w| matches!(w, Warning::DateRejected { .. })),
        "{:?}",
        e.warnings
    );
    assert_eq!(e.quality, Quality::TooShort);

    let ctx = Context {
        hint_published: Some(Utc.with_ymd_and_hms(2025, 5, 1, 9, 0, 0).unwrap()),
        ..Context::new(now())
    };
    let e = extract(b"<html><body><p>No date here.</p></body></html>", &ctx);
    assert_eq!(e.published.map(|p| p.provenance), Some("hint"));
}

#[test]
fn visible_date_near_headline() {
    let page = |line: &str| {
        format!(
            r#"<html><head><meta property="article:published_time" content="2015-04-06T10:00:00Z"></head><body>
            <h1>A guide to gardening in small spaces</h1><div class="meta">{line}</div>
            <p>Gardening in small spaces takes planning, patience and a few good containers on the balcony.</p>
            <p>Start with herbs, which grow quickly and forgive mistakes, then move on to tomatoes and beans.</p>
            </body></html>"#
        )
    };
    let date = |line: &str| {
        let published = run(&page(line)).published.expect("a date");
        (published.value.date_naive().to_string(), published.provenance)
    };
    assert_eq!(date("By Ann Lee | May 12, 2025"), ("2025-05-12".to_owned(), "text:byline"));
    // An update line does not replace the publication date of the metadata.
    assert_eq!(date("Updated May 12, 2025"), ("2015-04-06".to_owned(), "article:published_time"));
}

#[test]
fn shown_dates_by_the_headline() {
    let page = |head: &str, before: &str, after: &str| {
        format!(
            r#"<html><head>{head}</head><body>
            <div class="ticker"><a href="/other">{before}</a></div>
            <h1>A guide to gardening in small spaces</h1><div class="meta">{after}</div>
            <p>Gardening in small spaces takes planning, patience and a few good containers on the balcony.</p>
            <p>Start with herbs, which grow quickly and forgive mistakes, then move on to tomatoes and beans.</p>
            </body></html>"#
        )
    };
    let date = |html: String| {
        let published = run(&html).published.expect("a date");
        (published.value.to_rfc3339(), published.provenance)
    };
    // A `<time>` gives its attribute's instant; a teaser's date in a link is not the page's.
    assert_eq!(
        date(page(
            "",
            "[ May 30, 2025 ] Other story",
            r#"<time datetime="2025-05-12T09:30:00+02:00">May 12</time> · 4 min read"#
        )),
        ("2025-05-12T09:30:00+02:00".to_owned(), "text:byline")
    );
    // A sentence of prose that mentions a date is not a date line.
    assert_eq!(
        date(page(
            r#"<meta property="article:published_time" content="2025-05-02T10:00:00Z">"#,
            "",
            "The deadline for most gardeners in the region is April 15, 2025, according to officials."
        ))
        .1,
        "article:published_time"
    );
    // A publication after the modification is impossible; JSON-LD may sit in a `<meta>` content.
    let html = page(
        r#"<meta name="published-time" content="2025-05-20T10:00:00Z">
           <meta name="published-date" content="2021-02-16">
           <meta name="modified-time" content="2024-07-30T10:00:00Z">"#,
        "",
        "",
    );
    let e = run(&html);
    assert_eq!(e.published.map(|p| p.value.date_naive().to_string()), Some("2021-02-16".into()));
    assert!(e.warnings.iter().any(|w| matches!(w, Warning::DateRejected { .. })));
    let html = page(
        r#"<meta name="script:ld+json" content="{&quot;@type&quot;:&quot;Article&quot;,&quot;datePublished&quot;:&quot;2025-03-01T09:00:00-05:00&quot;}">"#,
        "",
        "",
    );
    assert_eq!(date(html), ("2025-03-01T09:00:00-05:00".to_owned(), "json-ld:datePublished"));
}

#[test]
fn the_headline_is_the_h1_that_matches_the_metadata() {
    let title = |head: &str, body: &str| {
        let html = format!(
            "<html><head>{head}</head><body>{body}<p>Some text of the article, long enough to count as \
             a paragraph of prose, with a comma or two, and more.</p></body></html>"
        );
        run(&html).title.map(|t| (t.value, t.provenance))
    };
    let og =
        r#"<meta property="og:title" content="Storm hits the coast, thousands without power">"#;
    // The headline's own wording beats the sharing title.
    assert_eq!(
        title(og, "<h1>Storm hits the coast: thousands are without power</h1>"),
        Some(("Storm hits the coast: thousands are without power".into(), "h1"))
    );
    // An `<h1>` that shares nothing with the metadata is a logo or a section name.
    assert_eq!(
        title(og, "<h1>Latest news and analysis</h1><h1>Storm hits the coast tonight</h1>"),
        Some(("Storm hits the coast tonight".into(), "h1"))
    );
    assert_eq!(
        title(og, "<h1>Our blog</h1><h1>Contact us today</h1>"),
        Some(("Storm hits the coast, thousands without power".into(), "og:title"))
    );
    // The site's name at the end of the `<title>`, and an all-capitals headline.
    assert_eq!(
        title("<title>Storm warning | The Coastal Gazette</title>", "<h1>The Coastal Gazette</h1>"),
        Some(("Storm warning".into(), "title"))
    );
    assert_eq!(
        title(og, "<h1>STORM HITS THE COAST, THOUSANDS WITHOUT POWER</h1>"),
        Some(("Storm hits the coast, thousands without power".into(), "og:title"))
    );
    // Without metadata titles, the first `<h1>`.
    assert_eq!(
        title("", "<h1>Storm hits the coast</h1>"),
        Some(("Storm hits the coast".into(), "h1"))
    );
}

#[test]
fn short_and_empty_pages_are_flagged() {
    assert_eq!(run("").quality, Quality::Empty);
    assert_eq!(run("<html><body><script>render()</script></body></html>").quality, Quality::Empty);
    assert_eq!(
        run("<html><body><p>Subscribe to read this article.</p></body></html>").quality,
        Quality::TooShort
    );
    let binary: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let e = extract(&binary, &Context::new(now()));
    assert_eq!(e.quality, Quality::NotHtml);
}

#[test]
fn json_ld_article_body_is_the_fallback() {
    let html = r#"<html><head><script type="application/ld+json">{"@type":"NewsArticle",
        "articleBody":"First paragraph of the body.\nSecond paragraph of the body."}</script></head>
        <body><div id="app"></div></body></html>"#;
    assert_eq!(
        run(html).paragraphs,
        ["First paragraph of the body.", "Second paragraph of the body."]
    );
}

#[test]
fn invisible_bodies_are_dropped_before_parsing() {
    let html = "<html><body><svg viewBox='0 0 1 1'><text>icon label</text></svg><svg/>\
        <noscript><p>Please enable JavaScript to read this site properly today.</p></noscript>\
        <p>The council approved the new budget on Monday, after a long debate about schools.</p>\
        </body></html>";
    let e = run(html);
    assert_eq!(
        e.paragraphs,
        ["The council approved the new budget on Monday, after a long debate about schools."]
    );
}

// Truncated, binary, huge, deeply nested and mislabelled inputs.
mod hostile;

#[test]
fn invisible_formatting_characters_are_left_out_of_title_text_and_authors() {
    // Soft hyphens as characters and as an entity, a zero-width space inside a word, a word
    // joiner and a byte-order mark.
    let html = "<html lang=\"de\"><head><title>Paläs\u{AD}ti\u{AD}nenser fordern Hilfe</title>\
        <meta name=\"author\" content=\"Ma\u{AD}ria Mül\u{2060}ler\"></head><body><article>\
        <h1>Paläs&shy;ti&shy;nenser fordern Hilfe</h1>\
        <p>Die Paläs\u{AD}ti\u{AD}nenser fordern mehr Hilfe von der internationalen Gemeinschaft, \
        sagte ein Spre\u{200B}cher am Montag in Ramallah, wo die Lage ernst sei.</p>\
        <p>\u{FEFF}Weitere Gespräche sollen in der kommenden Woche stattfinden, hieß es aus dem \
        Büro des Ministers, der die Lieferungen zugesagt hat.</p></article></body></html>";
    let e = run(html);
    assert_eq!(e.title.as_ref().map(|t| t.value.as_str()), Some("Palästinenser fordern Hilfe"));
    assert!(e.paragraphs[0].starts_with("Die Palästinenser fordern"), "{:?}", e.paragraphs);
    assert!(e.paragraphs[0].contains("ein Sprecher am"), "{:?}", e.paragraphs);
    assert!(e.paragraphs[1].starts_with("Weitere"), "{:?}", e.paragraphs);
    let authors: Vec<&str> = e.authors.iter().map(|a| a.value.as_str()).collect();
    assert_eq!(authors, ["Maria Müller"]);
}

#[test]
fn a_turkish_page_writes_the_day_first_with_slashes() {
    let page = |lang: &str| {
        format!(
            "<html lang=\"{lang}\"><head><title>Deprem haberi</title></head><body><article>\
             <h1>Deprem haberi</h1><p class=\"date\">03/12/2024</p>\
             <p>Kandilli Rasathanesi verilerine göre bugün sabah saatlerinde bir deprem meydana \
             geldi ve vatandaşlar sokaklara döküldü, yetkililer açıklama yaptı.</p>\
             <p>Yetkililer hasar tespit çalışmalarının sürdüğünü ve şu ana kadar can kaybı \
             bildirilmediğini açıkladı, ekipler bölgede çalışıyor.</p></article></body></html>"
        )
    };
    let published = |lang: &str| {
        let html = page(lang);
        let ctx = Context { url: Some("https://haber.example/deprem"), ..Context::new(now()) };
        extract(html.as_bytes(), &ctx).published.map(|d| d.value.format("%Y-%m-%d").to_string())
    };
    assert_eq!(published("tr").as_deref(), Some("2024-12-03"));
    assert_eq!(published("en-US").as_deref(), Some("2024-03-12"));
}
