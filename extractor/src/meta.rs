//! Metadata from the parsed page: title, dates, authors, canonical URL, site name, description, image.
//!
//! One iterative walk collects `<meta>`, `<link>`, JSON-LD scripts, `<time>` elements, `<title>`, the
//! `<h1>` elements and `<html lang>`. Each field then takes the first source that has it, in an order
//! written next to the field below, and records that source as its provenance.
//!
//! Publication date order: JSON-LD `datePublished` (article types first), the `article:published_time`
//! family of `<meta>` tags (and `itemprop` microdata), `<time>` marked as the publication date, any
//! other `<meta>` key containing "publish", the URL's date (when it names a day), the first
//! `<time datetime>`, a month-only URL date, then the feed or sitemap hint. `extract` may then
//! prefer the date shown by the headline (see its docs).
//!
//! Title: the first `<h1>` at least [`MIN_LIKENESS`] alike to one of the metadata titles (an `<h1>`
//! naming only the site never counts; without metadata titles, the first `<h1>`), else the first
//! metadata title: `og:title`, `twitter:title`, `dc.title`, JSON-LD `headline`, `<title>`, through
//! `clean_title`. An all-capitals `<h1>` gives way to a metadata title with the same words in
//! normal case.
//! Every candidate goes through [`dates::plausible`], and a publication more than a day after the
//! modification time (JSON-LD `dateModified`, `article:modified_time` and the like, read first) is
//! impossible; a rejected one leaves a warning and the next source is tried. JSON-LD is read from
//! `<script type="application/ld+json">` and from `<meta>` contents that hold a JSON-LD object.

use chrono::{DateTime, FixedOffset};
use scraper::Html;
use scraper::node::Node;
use serde_json::Value;

use crate::{Context, Field, Warning, dates, title};

/// Metadata found on a page, before the language decision.
#[derive(Debug, Default)]
pub(crate) struct PageMeta {
    pub(crate) title: Option<Field<String>>,
    pub(crate) published: Option<Field<DateTime<FixedOffset>>>,
    pub(crate) modified: Option<Field<DateTime<FixedOffset>>>,
    pub(crate) authors: Vec<Field<String>>,
    pub(crate) canonical_url: Option<Field<String>>,
    pub(crate) site_name: Option<Field<String>>,
    pub(crate) description: Option<Field<String>>,
    pub(crate) image: Option<Field<String>>,
    pub(crate) declared_language: Option<Field<String>>,
    pub(crate) article_body: Option<String>,
}

/// Raw material gathered by the walk.
#[derive(Debug, Default)]
struct Raw {
    /// `<meta>` tags: lower-cased `name`/`property`/`itemprop`/`http-equiv` key and `content`.
    metas: Vec<(String, String)>,
    /// `<link rel=canonical>` hrefs.
    canonical: Vec<String>,
    /// `<a rel=author>` or `itemprop=author` texts.
    author_links: Vec<String>,
    json_ld: Vec<String>,
    /// `<time>` elements: datetime attribute (or text), and whether marked as the publication date.
    times: Vec<(String, bool)>,
    title: Option<String>,
    /// The texts of the first [`MAX_H1S`] `<h1>` elements.
    h1s: Vec<String>,
    html_lang: Option<String>,
}

/// Collects all metadata fields from a parsed page.
pub(crate) fn collect(html: &Html, ctx: &Context<'_>, warnings: &mut Vec<Warning>) -> PageMeta {
    let raw = walk(html);
    let mut meta = PageMeta::default();
    let ld = JsonLd::parse(&raw.json_ld, warnings);

    // Site name: og:site_name, JSON-LD publisher, application-name.
    meta.site_name = first_meta(&raw, &["og:site_name", "application-name", "twitter:site"])
        .map(|(v, p)| Field::new(v, p))
        .or_else(|| ld.publisher.clone().map(|v| Field::new(v, "json-ld:publisher")));

    // Title: the page's own headline beats the sharing metadata, which is often an SEO variant
    // of it: the first `<h1>` alike enough to one of the metadata titles (other `<h1>`s are
    // logos, section names or widgets). Otherwise the metadata title: og:title, twitter:title,
    // dc.title, JSON-LD headline, <title>, cleaned of the site name. An all-capitals `<h1>` gives
    // way to the same title written in normal case.
    let site = meta.site_name.as_ref().map(|s| s.value.as_str());
    let mut titles: Vec<(String, &'static str)> = Vec::new();
    for &key in &["og:title", "twitter:title", "dc.title"] {
        titles.extend(first_meta(&raw, &[key]));
    }
    titles.extend(ld.headline.clone().map(|v| (v, "json-ld:headline")));
    titles.extend(raw.title.clone().map(|v| (v, "title")));
    let raw_titles: Vec<String> = titles.iter().map(|(value, _)| value.clone()).collect();
    let titles: Vec<Field<String>> = titles
        .into_iter()
        .map(|(value, provenance)| Field::new(title::clean_title(&value, site), provenance))
        .filter(|t| !t.value.is_empty())
        .collect();
    meta.title = titles.first().cloned();
    // The last part of a `<title>` such as "Story | Publisher" names the site, even unannounced.
    let title_site = raw.title.as_deref().and_then(|t| {
        [" | ", " - ", " – ", " — ", " · "]
            .iter()
            .filter_map(|separator| t.rsplit_once(separator).map(|(_, last)| last.trim()))
            .min_by_key(|last| last.len())
    });
    let headline = raw.h1s.iter().find(|h1| {
        let names_site = |s: Option<&str>| s.is_some_and(|s| s.eq_ignore_ascii_case(h1));
        if h1.chars().count() < 8 || names_site(site) || names_site(title_site) {
            return false;
        }
        // Raw titles count too: the clean-up sometimes keeps the wrong part.
        titles.is_empty()
            || titles
                .iter()
                .map(|t| &t.value)
                .chain(&raw_titles)
                .any(|t| likeness(h1, t) >= MIN_LIKENESS)
    });
    if let Some(h1) = headline {
        let shouting = h1.chars().any(char::is_alphabetic) && !h1.chars().any(char::is_lowercase);
        let same = titles.iter().find(|t| shouting && t.value.to_lowercase() == h1.to_lowercase());
        meta.title = Some(same.cloned().unwrap_or_else(|| Field::new(h1.clone(), "h1")));
    }

    // Dates: the modification time first, because a publication after it is impossible.
    let now = ctx.now;
    let mut accept = |value: &str,
                      provenance: &'static str,
                      latest: Option<DateTime<FixedOffset>>|
     -> Option<Field<DateTime<FixedOffset>>> {
        let date = dates::parse(value)?;
        let after_modified = latest.is_some_and(|m| date > m + chrono::Duration::days(1));
        if dates::plausible(&date, now) && !after_modified {
            Some(Field::new(date, provenance))
        } else {
            warnings.push(Warning::DateRejected {
                provenance,
                value: value.chars().take(80).collect(),
            });
            None
        }
    };
    let mut modified = None;
    for (value, provenance) in &ld.modified {
        modified = modified.or_else(|| accept(value, provenance, None));
    }
    for &key in MODIFIED_KEYS {
        for (k, v) in &raw.metas {
            if k == key && modified.is_none() {
                modified = accept(v, meta_provenance(key), None);
            }
        }
    }
    // Any other `<meta>` whose key names a modification ("modified-time", "last-updated").
    for (key, value) in &raw.metas {
        if modified.is_none() && (key.contains("modif") || key.contains("updated")) {
            modified = accept(value, "meta:*modified*", None);
        }
    }
    let latest = modified.as_ref().map(|m: &Field<DateTime<FixedOffset>>| m.value);
    let mut published = None;
    for (value, provenance) in &ld.published {
        published = published.or_else(|| accept(value, provenance, latest));
    }
    for &key in PUBLISHED_KEYS {
        if published.is_some() {
            break;
        }
        for (k, v) in &raw.metas {
            if k == key && published.is_none() {
                published = accept(v, meta_provenance(key), latest);
            }
        }
    }
    for (value, marked) in &raw.times {
        if published.is_none() && *marked {
            published = accept(value, "time:pubdate", latest);
        }
    }
    // Any other `<meta>` (or `itemprop` element) whose key names a publication date.
    for (key, value) in &raw.metas {
        if published.is_none() && key.contains("publish") && !key.contains("publisher") {
            published = accept(value, "meta:*publish*", latest);
        }
    }
    let url_date = ctx.url.and_then(dates::from_url);
    if published.is_none()
        && let Some((date, true)) = url_date
        && dates::plausible(&date, now)
    {
        published = Some(Field::new(date, "url"));
    }
    for (value, _) in &raw.times {
        if published.is_none() {
            published = accept(value, "time", latest);
        }
    }
    if published.is_none()
        && let Some((date, false)) = url_date
        && dates::plausible(&date, now)
    {
        published = Some(Field::new(date, "url:month"));
    }
    if published.is_none()
        && let Some(hint) = ctx.hint_published
    {
        let date = hint.fixed_offset();
        if dates::plausible(&date, now) {
            published = Some(Field::new(date, "hint"));
        }
    }
    meta.published = published;
    meta.modified = modified;

    // Authors: JSON-LD, then meta tags (known keys, then any key naming an author), then
    // rel=author / itemprop=author links.
    let mut authors: Vec<Field<String>> = Vec::new();
    let add = |authors: &mut Vec<Field<String>>, name: &str, provenance: &'static str| {
        let name = clean_author(name);
        if !name.is_empty()
            && !authors.iter().any(|a| a.value.eq_ignore_ascii_case(&name))
            && authors.len() < 10
        {
            authors.push(Field::new(name, provenance));
        }
    };
    for name in &ld.authors {
        add(&mut authors, name, "json-ld:author");
    }
    if authors.is_empty() {
        for &key in AUTHOR_KEYS {
            for (k, v) in &raw.metas {
                if k == key {
                    for name in v.split([';', '|']) {
                        add(&mut authors, name, meta_provenance(key));
                    }
                }
            }
        }
    }
    // Any other `<meta>` whose key names an author or a byline.
    if authors.is_empty() {
        for (key, value) in &raw.metas {
            if key.contains("author") || key.contains("byline") {
                for name in value.split([';', '|']) {
                    add(&mut authors, name, "meta:*author*");
                }
            }
        }
    }
    if authors.is_empty() {
        for name in &raw.author_links {
            add(&mut authors, name, "link:author");
        }
    }
    meta.authors = authors;

    // Canonical URL: <link rel=canonical>, og:url, JSON-LD url; resolved against the page URL.
    let base = ctx.url.and_then(|u| url::Url::parse(u).ok());
    let resolve = |href: &str| -> Option<String> {
        let href = href.trim();
        if href.is_empty() {
            return None;
        }
        match &base {
            Some(base) => base.join(href).ok().map(String::from),
            None => url::Url::parse(href).ok().map(String::from),
        }
    };
    meta.canonical_url = raw
        .canonical
        .iter()
        .find_map(|h| resolve(h))
        .map(|v| Field::new(v, "link:canonical"))
        .or_else(|| {
            first_meta(&raw, &["og:url"]).and_then(|(v, p)| resolve(&v).map(|v| Field::new(v, p)))
        });

    meta.description = first_meta(
        &raw,
        &["og:description", "description", "twitter:description", "dc.description"],
    )
    .map(|(v, p)| Field::new(collapse(&v), p))
    .or_else(|| ld.description.clone().map(|v| Field::new(v, "json-ld:description")));
    meta.image = first_meta(
        &raw,
        &["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"],
    )
    .and_then(|(v, p)| resolve(&v).map(|v| Field::new(v, p)))
    .or_else(|| ld.image.as_deref().and_then(resolve).map(|v| Field::new(v, "json-ld:image")));

    // Declared language: Media Cloud's order (dc.language, Content-Language, <html lang>).
    meta.declared_language = first_meta(&raw, &["dc.language", "content-language"])
        .map(|(v, p)| Field::new(v, p))
        .or_else(|| raw.html_lang.clone().map(|v| Field::new(v, "html:lang")))
        .map(|f| Field::new(f.value.trim().to_ascii_lowercase().replace('_', "-"), f.provenance))
        .filter(|f| !f.value.is_empty());
    meta.article_body = ld.article_body;
    meta
}

/// How many `<h1>` elements are weighed as the headline.
const MAX_H1S: usize = 10;

/// How alike (see [`likeness`]) an `<h1>` and a metadata title must be for the `<h1>` to be taken
/// as the headline.
const MIN_LIKENESS: f32 = 0.25;

/// How alike two titles are: the Dice coefficient of their sets of lower-case words.
fn likeness(a: &str, b: &str) -> f32 {
    let words = |t: &str| -> std::collections::HashSet<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (a, b) = (words(a), words(b));
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    2.0 * a.intersection(&b).count() as f32 / (a.len() + b.len()) as f32
}

/// `<meta>` keys for the publication date, in order of trust.
const PUBLISHED_KEYS: &[&str] = &[
    "article:published_time",
    "og:published_time",
    "datepublished",
    "parsely-pub-date",
    "sailthru.date",
    "publish-date",
    "publishdate",
    "publish_date",
    "pubdate",
    "publication_date",
    "article.published",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "dc.date.created",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "date",
    "og:article:published_time",
    "datecreated",
    "published",
    "published_at",
    "article:published",
    "date_published",
];

const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
    "og:article:modified_time",
];

const AUTHOR_KEYS: &[&str] = &[
    "author",
    "article:author",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
    "dcterms.creator",
    "byline",
];

/// A `'static` provenance for a meta key (keys come from the fixed lists above).
fn meta_provenance(key: &str) -> &'static str {
    const ALL: &[&[&str]] = &[PUBLISHED_KEYS, MODIFIED_KEYS, AUTHOR_KEYS, OTHER_KEYS];
    for list in ALL {
        if let Some(k) = list.iter().find(|k| **k == key) {
            return k;
        }
    }
    "meta"
}

const OTHER_KEYS: &[&str] = &[
    "og:site_name",
    "application-name",
    "twitter:site",
    "og:title",
    "twitter:title",
    "dc.title",
    "og:url",
    "og:description",
    "description",
    "twitter:description",
    "dc.description",
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "twitter:image:src",
    "dc.language",
    "content-language",
];

/// The first non-empty `<meta>` content among `keys`, in key order.
fn first_meta(raw: &Raw, keys: &[&str]) -> Option<(String, &'static str)> {
    keys.iter().find_map(|&key| {
        raw.metas
            .iter()
            .find(|(k, v)| k == key && !v.trim().is_empty())
            .map(|(_, v)| (v.trim().to_owned(), meta_provenance(key)))
    })
}

/// Walks the whole tree once, iteratively, gathering the raw material.
fn walk(html: &Html) -> Raw {
    let mut raw = Raw::default();
    for node in html.tree.root().descendants() {
        let Node::Element(element) = node.value() else { continue };
        match element.name() {
            "html" => {
                raw.html_lang =
                    element.attr("lang").or_else(|| element.attr("xml:lang")).map(str::to_owned);
            }
            "meta" => {
                let Some(content) = element.attr("content") else { continue };
                // JSON-LD carried in a `<meta>` content (some frameworks render it so).
                if content.trim_start().starts_with('{')
                    && content.contains("\"@type\"")
                    && raw.json_ld.len() < 20
                {
                    raw.json_ld.push(content.chars().take(1 << 20).collect());
                    continue;
                }
                for attr in ["property", "name", "itemprop", "http-equiv"] {
                    if let Some(key) = element.attr(attr) {
                        raw.metas.push((key.trim().to_ascii_lowercase(), content.to_owned()));
                    }
                }
            }
            "link" => {
                let rel = element.attr("rel").unwrap_or("");
                if rel.split_whitespace().any(|r| r.eq_ignore_ascii_case("canonical"))
                    && let Some(href) = element.attr("href")
                {
                    raw.canonical.push(href.to_owned());
                }
            }
            "script" => {
                let kind = element.attr("type").unwrap_or("");
                if kind.trim().eq_ignore_ascii_case("application/ld+json") && raw.json_ld.len() < 20
                {
                    raw.json_ld.push(text_of(node, 1 << 20));
                }
            }
            "time" => {
                let marked = element.attr("pubdate").is_some()
                    || element
                        .attr("itemprop")
                        .is_some_and(|p| p.eq_ignore_ascii_case("datePublished"))
                    || element.attr("class").is_some_and(|c| {
                        let c = c.to_ascii_lowercase();
                        c.contains("publish") || c.contains("entry-date") || c.contains("post-date")
                    });
                let value = element
                    .attr("datetime")
                    .map(str::to_owned)
                    .unwrap_or_else(|| text_of(node, 200));
                if raw.times.len() < 20 {
                    raw.times.push((value, marked));
                }
            }
            "title" if raw.title.is_none() => {
                let text = collapse(&text_of(node, 2000));
                if !text.is_empty() {
                    raw.title = Some(text);
                }
            }
            "h1" if raw.h1s.len() < MAX_H1S => {
                let text = collapse(&text_of(node, 2000));
                if !text.is_empty() {
                    raw.h1s.push(text);
                }
            }
            _ => {
                // Microdata on ordinary elements: `<span itemprop="datePublished" content="...">`.
                if let Some(key) = element.attr("itemprop")
                    && let Some(value) =
                        element.attr("content").or_else(|| element.attr("datetime"))
                {
                    raw.metas.push((key.trim().to_ascii_lowercase(), value.to_owned()));
                }
                let is_author_link = element.attr("rel").is_some_and(|r| {
                    r.split_whitespace().any(|r| r.eq_ignore_ascii_case("author"))
                }) || element
                    .attr("itemprop")
                    .is_some_and(|p| p.eq_ignore_ascii_case("author"));
                if is_author_link && raw.author_links.len() < 10 {
                    let text = collapse(&text_of(node, 200));
                    if !text.is_empty() {
                        raw.author_links.push(text);
                    }
                }
            }
        }
    }
    raw
}

/// Concatenated text of a node's descendants, up to `max` bytes.
fn text_of(node: ego_tree::NodeRef<'_, Node>, max: usize) -> String {
    let mut out = String::new();
    for child in node.descendants() {
        if let Node::Text(text) = child.value() {
            out.push_str(&text[..]);
            if out.len() >= max {
                let mut cut = max;
                while !out.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.truncate(cut);
                break;
            }
        }
    }
    out
}

/// Collapses whitespace runs to single spaces and trims; invisible formatting characters
/// ([`normalizer::is_invisible`]) are left out.
pub(crate) fn collapse(text: &str) -> String {
    normalizer::strip_invisible(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cleans an author name: whitespace, a leading "By", URLs and e-mail-only values dropped.
fn clean_author(name: &str) -> String {
    let name = collapse(name);
    let lower = name.to_ascii_lowercase();
    let name = if lower.starts_with("by ") { name[3..].trim().to_owned() } else { name };
    if name.contains("://")
        || name.starts_with('@')
        || name.contains('{')
        || name.chars().count() > 80
    {
        return String::new();
    }
    name
}

/// The fields read from JSON-LD blocks.
#[derive(Debug, Default)]
struct JsonLd {
    published: Vec<(String, &'static str)>,
    modified: Vec<(String, &'static str)>,
    authors: Vec<String>,
    headline: Option<String>,
    publisher: Option<String>,
    description: Option<String>,
    image: Option<String>,
    article_body: Option<String>,
}

/// JSON-LD `@type`s that describe the article itself (their dates beat a `WebPage`'s).
const ARTICLE_TYPES: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "techarticle",
    "scholarlyarticle",
    "liveblogposting",
    "review",
    "socialmediaposting",
    "backgroundnewsarticle",
    "posting",
    "recipe",
    "howto",
];

impl JsonLd {
    fn parse(blocks: &[String], warnings: &mut Vec<Warning>) -> JsonLd {
        let mut out = JsonLd::default();
        let mut objects: Vec<(bool, serde_json::Map<String, Value>)> = Vec::new();
        for block in blocks {
            let trimmed = block.trim().trim_start_matches("<!--").trim_end_matches("-->").trim();
            let value: Value = match serde_json::from_str(trimmed) {
                Ok(value) => value,
                Err(_) => {
                    warnings.push(Warning::BadJsonLd);
                    continue;
                }
            };
            // Iterative walk over arrays, `@graph` and `mainEntity`, bounded in size.
            let mut stack = vec![value];
            while let Some(value) = stack.pop() {
                if objects.len() > 200 {
                    break;
                }
                match value {
                    Value::Array(items) => stack.extend(items.into_iter().rev()),
                    Value::Object(mut map) => {
                        if let Some(graph) = map.remove("@graph") {
                            stack.push(graph);
                        }
                        if let Some(main) = map.get("mainEntity").cloned()
                            && main.is_object()
                        {
                            stack.push(main);
                        }
                        let is_article =
                            types_of(&map).iter().any(|t| ARTICLE_TYPES.contains(&t.as_str()));
                        objects.push((is_article, map));
                    }
                    _ => {}
                }
            }
        }
        // Article objects first, then the rest, each group in document order.
        objects.sort_by_key(|(is_article, _)| !*is_article);
        for (is_article, map) in &objects {
            let (pub_prov, mod_prov) = if *is_article {
                ("json-ld:datePublished", "json-ld:dateModified")
            } else {
                ("json-ld:other:datePublished", "json-ld:other:dateModified")
            };
            if let Some(v) = map.get("datePublished").and_then(Value::as_str) {
                out.published.push((v.to_owned(), pub_prov));
            } else if let Some(v) = map.get("dateCreated").and_then(Value::as_str) {
                out.published.push((v.to_owned(), "json-ld:dateCreated"));
            }
            if let Some(v) = map.get("dateModified").and_then(Value::as_str) {
                out.modified.push((v.to_owned(), mod_prov));
            }
            if (*is_article || out.authors.is_empty())
                && let Some(author) = map.get("author").or_else(|| map.get("creator"))
            {
                let mut names = Vec::new();
                names_of(author, &mut names);
                if out.authors.is_empty() {
                    out.authors = names;
                }
            }
            if out.headline.is_none() && *is_article {
                out.headline = map
                    .get("headline")
                    .or_else(|| map.get("name"))
                    .and_then(Value::as_str)
                    .map(collapse);
            }
            if out.publisher.is_none()
                && let Some(publisher) = map.get("publisher")
            {
                let mut names = Vec::new();
                names_of(publisher, &mut names);
                out.publisher = names.into_iter().next();
            }
            if out.description.is_none() && *is_article {
                out.description = map.get("description").and_then(Value::as_str).map(collapse);
            }
            if out.image.is_none() && *is_article {
                out.image = map.get("image").and_then(url_of);
            }
            if out.article_body.is_none() && *is_article {
                out.article_body =
                    map.get("articleBody").and_then(Value::as_str).map(str::to_owned);
            }
        }
        out
    }
}

/// Lower-cased `@type` values of a JSON-LD object.
fn types_of(map: &serde_json::Map<String, Value>) -> Vec<String> {
    match map.get("@type") {
        Some(Value::String(t)) => vec![t.to_ascii_lowercase()],
        Some(Value::Array(items)) => {
            items.iter().filter_map(Value::as_str).map(str::to_ascii_lowercase).collect()
        }
        _ => Vec::new(),
    }
}

/// Names in a JSON-LD person or organisation value (string, object or array).
fn names_of(value: &Value, names: &mut Vec<String>) {
    match value {
        Value::String(name) => names.push(name.clone()),
        Value::Object(map) => {
            if let Some(name) = map.get("name").and_then(Value::as_str) {
                names.push(name.to_owned());
            }
        }
        Value::Array(items) => {
            for item in items.iter().take(10) {
                match item {
                    Value::String(name) => names.push(name.clone()),
                    Value::Object(map) => {
                        if let Some(name) = map.get("name").and_then(Value::as_str) {
                            names.push(name.to_owned());
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// A URL in a JSON-LD image value (string, `ImageObject` or array of either).
fn url_of(value: &Value) -> Option<String> {
    match value {
        Value::String(url) => Some(url.clone()),
        Value::Object(map) => map
            .get("url")
            .or_else(|| map.get("contentUrl"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        Value::Array(items) => items.iter().find_map(url_of),
        _ => None,
    }
}
