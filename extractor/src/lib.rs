//! HTML in, article fields out: main text as paragraphs plus metadata, each field with its provenance.
//!
//! [`extract`] takes the raw bytes of a fetched page and a [`Context`] (URL, `Content-Type` header,
//! a publication date from a feed or sitemap, and "now"), and returns an [`Extracted`]. It never fails
//! and never panics: messy input gives fewer fields and more [`Warning`]s, and [`Quality`] says whether
//! the text is worth storing as a story (video pages, paywalls and script-only pages come out as
//! [`Quality::TooShort`] or [`Quality::Empty`], binary data as [`Quality::NotHtml`]).
//! Every metadata value is a [`Field`]: the value and the tag or rule that produced it
//! (`json-ld:datePublished`, `og:title`, `h1`, `text:byline`, `lingua`...). Warnings are kept once
//! each, at most [`MAX_WARNINGS`].
//!
//! The pipeline, one module per step:
//! - [`charset`]: BOM, header, `<meta charset>` prescan, then `chardetng` detection.
//! - `prepare` (here): inputs over [`MAX_INPUT_BYTES`] are cut, script, style, SVG, `noscript`
//!   and `template` bodies dropped, attributes nobody reads removed, tags nested deeper than
//!   [`MAX_DEPTH`] removed, so parsing stays linear, bounded and cheap. Binary data (known
//!   signatures, control bytes) stops here.
//! - `dom`: one `html5ever` parse (through `scraper`), flattened iteratively into elements, text
//!   blocks and the elements that mark dates (`<time>`, `class="post-date"`).
//! - `content`: boilerplate marks, a readability-style container choice, a climb to the ancestor
//!   with the most net prose, and block filtering.
//! - `meta`: title, dates, authors, canonical URL, site name, description and lead image from
//!   JSON-LD, Open Graph and other `<meta>` tags, `<time>` and the URL; [`dates`] parses and
//!   bounds dates, finds the dates shown by the headline and chooses between them (see [`extract`]).
//! - `language`: `lingua` over the explicit list [`LANGUAGES`], combined with `<html lang>` as
//!   Media Cloud does.
//! - `title`: [`clean_title`], which delegates to `normalizer::clean_title`.
//! - [`sentences`]: the pure part of per-source, per-week repeated-sentence removal.
//!
//! The crate does no I/O and never reads the clock. It sits between `crawler` (which hands over raw
//! bytes) and `store` (which keeps the fields and the sentence index); it uses `normalizer` for
//! titles, and `cli` wires the stages together. Quality and speed are measured by
//! `examples/eval.rs` and `examples/bench.rs`; `benches/compare.sh` runs both next to Python
//! trafilatura (see `benches/README.md`).
//!
//! ```ignore
//! let ctx = extractor::Context { url: Some("https://news.example/2024/05/01/story"), ..extractor::Context::new(now) };
//! let extracted = extractor::extract(&body, &ctx);
//! if extracted.quality == extractor::Quality::Ok {
//!     println!("{}: {}", extracted.title.map(|t| t.value).unwrap_or_default(), extracted.text);
//! }
//! ```

pub mod charset;
mod content;
pub mod dates;
mod dom;
mod language;
mod meta;
pub mod sentences;
mod title;

use chrono::{DateTime, FixedOffset, Utc};

pub use language::LANGUAGES;
pub use title::clean_title;

/// Inputs beyond the bytes themselves.
#[derive(Debug, Clone, PartialEq)]
pub struct Context<'a> {
    /// The final URL of the page (after redirects), used for URL dates, relative links and charset hints.
    pub url: Option<&'a str>,
    /// The HTTP `Content-Type` header, if any.
    pub content_type: Option<&'a str>,
    /// A publication time from the feed or sitemap that listed the page.
    pub hint_published: Option<DateTime<Utc>>,
    /// The time of the fetch: dates more than [`dates::FUTURE_TOLERANCE_HOURS`] after it are rejected.
    pub now: DateTime<Utc>,
}

impl<'a> Context<'a> {
    /// A context with only "now" set.
    pub fn new(now: DateTime<Utc>) -> Self {
        Context { url: None, content_type: None, hint_published: None, now }
    }
}

/// A value with the tag or rule that produced it, e.g. `json-ld:datePublished` or `meta:og:title`.
#[derive(Debug, Clone, PartialEq)]
pub struct Field<T> {
    pub value: T,
    pub provenance: &'static str,
}

impl<T> Field<T> {
    fn new(value: T, provenance: &'static str) -> Self {
        Field { value, provenance }
    }
}

/// Whether the extracted text is a story worth storing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quality {
    /// The main text has at least [`MIN_TEXT_CHARS`] characters.
    Ok,
    /// Some text, but less than [`MIN_TEXT_CHARS`] characters (video pages, paywalls, teasers).
    TooShort,
    /// No main text at all (script-only pages, empty documents).
    Empty,
    /// The bytes do not look like HTML (binary data, JSON, images).
    NotHtml,
}

/// Media Cloud's minimum content length: shorter extractions are not stories.
pub const MIN_TEXT_CHARS: usize = 200;

/// Inputs larger than this are cut before parsing, with a [`Warning::Truncated`].
pub const MAX_INPUT_BYTES: usize = 8 << 20;

/// Something doubtful met during extraction; the result is still usable.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// The input was longer than [`MAX_INPUT_BYTES`] and only its start was processed.
    Truncated { original_bytes: usize, kept_bytes: usize },
    /// The declared charset did not fit the bytes; another encoding was used.
    CharsetMismatch { declared: &'static str, used: &'static str },
    /// The bytes had sequences invalid in the encoding used; they became U+FFFD.
    MalformedBytes { encoding: &'static str },
    /// The bytes look binary rather than HTML.
    NotHtml,
    /// A date was found but rejected (impossible, before 1990, in the future, or a publication
    /// after the page's modification).
    DateRejected { provenance: &'static str, value: String },
    /// A JSON-LD block could not be parsed.
    BadJsonLd,
    /// The page's markup is nested deeper than [`MAX_DEPTH`] and the excess was flattened.
    DeepNesting,
    /// A tag longer than [`MAX_TAG_BYTES`] lost its attributes.
    OversizedTag,
}

/// At most this many warnings are kept, each once.
pub const MAX_WARNINGS: usize = 32;

/// Tags longer than this lose their attributes before parsing.
pub const MAX_TAG_BYTES: usize = 64 << 10;

/// Nesting depth past which tags are dropped before parsing (their text is kept).
pub const MAX_DEPTH: usize = 512;

/// Everything extracted from one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    pub title: Option<Field<String>>,
    /// The publication time, with the offset the page wrote (so its calendar day is the page's own).
    pub published: Option<Field<DateTime<FixedOffset>>>,
    pub modified: Option<Field<DateTime<FixedOffset>>>,
    pub authors: Vec<Field<String>>,
    /// A lower-case language code such as `en` or `pt-br`.
    pub language: Option<Field<String>>,
    pub canonical_url: Option<Field<String>>,
    pub site_name: Option<Field<String>>,
    pub description: Option<Field<String>>,
    pub image: Option<Field<String>>,
    /// The main text: paragraphs joined by a blank line.
    pub text: String,
    pub paragraphs: Vec<String>,
    /// The encoding the bytes were decoded with.
    pub encoding: Field<&'static str>,
    pub quality: Quality,
    /// Doubtful things met on the way, each once (at most [`MAX_WARNINGS`]).
    pub warnings: Vec<Warning>,
}

/// Extracts main text and metadata from a page's raw bytes. Never panics, never fails.
///
/// Publication date: the metadata order is in the `meta` module (JSON-LD, `<meta>` tags, `<time>`,
/// URL, feed hint); the dates shown by the headline are then weighed against it (`dates::choose`):
/// a shown date agreeing with the metadata keeps the metadata's value, a shown publication or bare
/// date otherwise wins, and an "Updated ..." line only stands in for a publication date the
/// metadata lacks. Last resorts are a short date line anywhere and the modification time.
pub fn extract(raw: &[u8], ctx: &Context<'_>) -> Extracted {
    let _span = tracing::debug_span!("extract", url = ctx.url, html_bytes = raw.len()).entered();
    let mut warnings = Vec::new();
    let raw = if raw.len() > MAX_INPUT_BYTES {
        warnings
            .push(Warning::Truncated { original_bytes: raw.len(), kept_bytes: MAX_INPUT_BYTES });
        &raw[..MAX_INPUT_BYTES]
    } else {
        raw
    };
    let tld = ctx.url.and_then(tld_of);
    let decoded = charset::decode(raw, ctx.content_type, tld, &mut warnings);
    let encoding = Field::new(decoded.encoding, decoded.provenance);
    if looks_binary(raw, &decoded) {
        warnings.push(Warning::NotHtml);
        return Extracted::empty(encoding, Quality::NotHtml, warnings);
    }
    let html_text = prepare(&decoded.text, &mut warnings);
    let html = scraper::Html::parse_document(&html_text);
    let mut page_meta = meta::collect(&html, ctx, &mut warnings);
    let dom = dom::flatten(&html);
    let main = content::main_text(&dom, page_meta.title.as_ref().map(|t| t.value.as_str()));
    // The dates shown by the headline, weighed against the metadata (see `dates::choose`).
    let order = dates::SlashOrder::of_page(
        page_meta.declared_language.as_ref().map(|l| l.value.as_str()),
        ctx.url,
    );
    let shown = dates::near_headline(&dom, main.first_block, order);
    let url_date =
        ctx.url.and_then(dates::from_url).filter(|(_, full)| *full).map(|(date, _)| date);
    page_meta.published = dates::choose(
        page_meta.published.take(),
        page_meta.modified.as_ref(),
        url_date,
        shown,
        ctx.now,
    );
    // Last resorts: a short date line anywhere on the page, then the modification time (a page
    // was published no later than its last change).
    if page_meta.published.is_none() {
        page_meta.published = dates::anywhere(&dom, order)
            .filter(|d| dates::plausible(d, ctx.now))
            .map(|d| Field::new(d, "text:anywhere"))
            .or_else(|| page_meta.modified.clone().map(|m| Field::new(m.value, "modified")));
    }
    let mut paragraphs = main.paragraphs;
    if paragraphs.is_empty()
        && let Some(body) = &page_meta.article_body
    {
        paragraphs = normalizer::strip_invisible(body)
            .split('\n')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect();
    }
    let text = paragraphs.join("\n\n");
    let chars = text.chars().count();
    let quality = match chars {
        0 => Quality::Empty,
        c if c < MIN_TEXT_CHARS => Quality::TooShort,
        _ => Quality::Ok,
    };
    let language = language::decide(page_meta.declared_language.as_ref(), &text);
    let mut seen = Vec::new();
    warnings.retain(|w| {
        let new = !seen.contains(w) && seen.len() < MAX_WARNINGS;
        if new {
            seen.push(w.clone());
        }
        new
    });
    Extracted {
        title: page_meta.title,
        published: page_meta.published,
        modified: page_meta.modified,
        authors: page_meta.authors,
        language,
        canonical_url: page_meta.canonical_url,
        site_name: page_meta.site_name,
        description: page_meta.description,
        image: page_meta.image,
        text,
        paragraphs,
        encoding,
        quality,
        warnings,
    }
}

impl Extracted {
    fn empty(encoding: Field<&'static str>, quality: Quality, warnings: Vec<Warning>) -> Self {
        Extracted {
            title: None,
            published: None,
            modified: None,
            authors: Vec::new(),
            language: None,
            canonical_url: None,
            site_name: None,
            description: None,
            image: None,
            text: String::new(),
            paragraphs: Vec::new(),
            encoding,
            quality,
            warnings,
        }
    }
}

/// The top-level domain of a URL, as `chardetng` wants it.
fn tld_of(url: &str) -> Option<&[u8]> {
    let host = url.split("://").nth(1)?.split(['/', '?', '#', ':']).next()?;
    let tld = host.rsplit('.').next()?;
    (!tld.is_empty() && tld.is_ascii()).then_some(tld.as_bytes())
}

/// Signatures of binary formats that are sometimes served where a page was expected: gzip and zstd
/// (a compressed body nobody decoded), PNG, JPEG, GIF, PDF, ZIP, WebP and MP4.
const BINARY_SIGNATURES: &[(usize, &[u8])] = &[
    (0, b"\x1f\x8b"),
    (0, b"\x28\xb5\x2f\xfd"),
    (0, b"\x89PNG"),
    (0, b"\xff\xd8\xff"),
    (0, b"GIF8"),
    (0, b"%PDF-"),
    (0, b"PK\x03\x04"),
    (8, b"WEBP"),
    (4, b"ftyp"),
];

/// Whether the input is binary data rather than markup: a known binary signature, control bytes
/// in more than one in [`MAX_CONTROL_SHARE`] of its first bytes (unless a byte-order mark
/// announced UTF-16), or decoded text with many control or replacement characters, or no `<`.
fn looks_binary(raw: &[u8], decoded: &charset::Decoded<'_>) -> bool {
    if BINARY_SIGNATURES
        .iter()
        .any(|(at, magic)| raw.get(*at..).is_some_and(|r| r.starts_with(magic)))
    {
        return true;
    }
    let control = |b: &u8| *b < b' ' && !matches!(b, b'\n' | b'\r' | b'\t' | b'\x0c');
    let head = &raw[..raw.len().min(4096)];
    if decoded.provenance != "bom"
        && head.iter().filter(|b| control(b)).count() * MAX_CONTROL_SHARE > head.len()
    {
        return true;
    }
    let sample: Vec<char> = decoded.text.chars().take(4096).collect();
    if sample.is_empty() {
        return false;
    }
    let control = sample
        .iter()
        .filter(|&&c| (c < ' ' && !matches!(c, '\n' | '\r' | '\t' | '\x0c')) || c == '\u{fffd}')
        .count();
    control * 10 > sample.len() || !sample.contains(&'<')
}

/// Markup has almost no control bytes: more than one in this many marks binary data.
const MAX_CONTROL_SHARE: usize = 50;

/// Prepares the text for parsing: drops the bodies of script, style, SVG, `noscript` and
/// `template` elements, the attributes outside [`KEPT_ATTRIBUTES`] (see [`slim_tag`]), and start
/// and end tags nested deeper than [`MAX_DEPTH`], so parsing stays linear and cheap.
///
/// The HTML tree builder checks element scopes by walking its stack of open elements, which makes
/// pathological nesting quadratic; real articles never nest this deep. The scan is a cheap
/// approximation of tokenization (tags, comments, void elements), good enough to bound the depth.
fn prepare<'t>(text: &'t str, warnings: &mut Vec<Warning>) -> std::borrow::Cow<'t, str> {
    const VOID: &[&[u8]] = &[
        b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
        b"param", b"source", b"track", b"wbr",
    ];
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut deep = false;
    let mut out: Option<String> = None;
    let mut copied = 0usize;
    let mut i = 0usize;
    // The next `>` at or after the current `<`: cached, so runs of `<` without `>` stay linear.
    let mut next_gt = 0usize;
    while let Some(offset) = memchr_lt(&bytes[i..]) {
        let start = i + offset;
        if next_gt <= start {
            let Some(close) = memchr::memchr(b'>', &bytes[start..]) else { break };
            next_gt = start + close;
        }
        let end = next_gt + 1;
        let tag = &bytes[start + 1..end - 1];
        let (closing, name_start) = match tag.first() {
            Some(b'/') => (true, 1),
            Some(c) if c.is_ascii_alphabetic() => (false, 0),
            _ => {
                i = start + 1;
                continue;
            }
        };
        let name_end = tag[name_start..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .map_or(tag.len(), |p| p + name_start);
        // Tag names that matter here are short; longer ones are compared as empty.
        let raw_name = &tag[name_start..name_end];
        let mut lower = [0u8; 10];
        let name: &[u8] = if raw_name.len() <= lower.len() {
            for (to, from) in lower.iter_mut().zip(raw_name) {
                *to = from.to_ascii_lowercase();
            }
            &lower[..raw_name.len()]
        } else {
            b""
        };
        let raw_text_end: Option<&[u8]> = match name {
            b"script" => Some(b"</script"),
            b"style" => Some(b"</style"),
            b"textarea" => Some(b"</textarea"),
            b"title" => Some(b"</title"),
            b"svg" => Some(b"</svg"),
            b"noscript" => Some(b"</noscript"),
            b"template" => Some(b"</template"),
            _ => None,
        };
        // A self-closing `<svg/>` has no body (for HTML elements the slash means nothing).
        let self_closed_svg = name == b"svg" && tag.last() == Some(&b'/');
        if let Some(closing_tag) = raw_text_end
            && !closing
            && !self_closed_svg
        {
            // Raw text, or a subtree never shown as text: jump past its end tag. Script, style,
            // SVG, `noscript` and `template` bodies are dropped (JSON-LD kept): they are often half
            // of a page's bytes and the tree builder would copy them for nothing.
            let rest = &bytes[end..];
            let skip = charset::find_ci(rest, closing_tag).unwrap_or(rest.len());
            let keep = name == b"title"
                || name == b"textarea"
                || charset::find_ci(tag, b"ld+json").is_some();
            if !keep && skip > 0 {
                let buffer = out.get_or_insert_with(|| String::with_capacity(text.len()));
                buffer.push_str(&text[copied..end]);
                copied = end + skip;
            }
            i = end + skip;
            continue;
        }
        let self_closing = tag.last() == Some(&b'/') || VOID.contains(&name);
        let drop = if closing {
            let drop = depth > MAX_DEPTH;
            depth = depth.saturating_sub(1);
            drop
        } else if self_closing {
            false
        } else {
            depth += 1;
            depth > MAX_DEPTH
        };
        if drop {
            deep = true;
            let buffer = out.get_or_insert_with(|| String::with_capacity(text.len()));
            buffer.push_str(&text[copied..start]);
            copied = end;
        } else if tag.len() > MAX_TAG_BYTES && name_end > name_start {
            // Thousands of attributes make the tree builder quadratic; the element keeps its name.
            let buffer = out.get_or_insert_with(|| String::with_capacity(text.len()));
            buffer.push_str(&text[copied..start + 1 + name_end]);
            buffer.push('>');
            copied = end;
            if !warnings.contains(&Warning::OversizedTag) {
                warnings.push(Warning::OversizedTag);
            }
        } else if !closing && !matches!(name, b"meta" | b"link" | b"base") {
            // Attributes nobody reads (styles, `data-*`, `srcset`, link targets) are a fifth of
            // what is left of a page, and the tree builder interns and copies every one.
            let name_end = start + 1 + name_end;
            if let Some((tag_end, slim)) = slim_tag(bytes, name_end) {
                if let Some(slim) = slim {
                    let buffer = out.get_or_insert_with(|| String::with_capacity(text.len()));
                    buffer.push_str(&text[copied..name_end]);
                    buffer.push_str(&slim);
                    copied = tag_end;
                }
                i = tag_end;
                continue;
            }
        }
        i = end;
    }
    match out {
        Some(mut buffer) => {
            buffer.push_str(&text[copied..]);
            if deep {
                warnings.push(Warning::DeepNesting);
            }
            std::borrow::Cow::Owned(buffer)
        }
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// Attributes kept by [`slim_tag`]: all that `dom`, `content` and `meta` read on elements other
/// than `<meta>`, `<link>` and `<base>` (whose tags are kept whole).
const KEPT_ATTRIBUTES: &[&[u8]] = &[
    b"class",
    b"id",
    b"role",
    b"aria-hidden",
    b"itemprop",
    b"content",
    b"datetime",
    b"lang",
    b"xml:lang",
    b"rel",
    b"pubdate",
];

/// Reads the attributes of the start tag whose name ends at `name_end`, the way the HTML tokenizer
/// does (quoted values may hold `>`), and returns where the tag ends and, when it had attributes
/// outside [`KEPT_ATTRIBUTES`], its rest rewritten with only the kept ones (`None` when nothing
/// is dropped). Gives up (`None`) on a tag that never ends or a quote that never closes.
pub(crate) fn slim_tag(bytes: &[u8], name_end: usize) -> Option<(usize, Option<String>)> {
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut dropped = false;
    let mut i = name_end;
    let at = |i: usize| bytes.get(i).copied();
    loop {
        while at(i).is_some_and(|b| b.is_ascii_whitespace() || b == b'/') {
            i += 1;
        }
        match at(i)? {
            b'>' => break,
            _ => {
                let start = i;
                while at(i)
                    .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
                {
                    i += 1;
                }
                let name = &bytes[start..i];
                let mut j = i;
                while at(j).is_some_and(|b| b.is_ascii_whitespace()) {
                    j += 1;
                }
                if at(j) == Some(b'=') {
                    j += 1;
                    while at(j).is_some_and(|b| b.is_ascii_whitespace()) {
                        j += 1;
                    }
                    match at(j)? {
                        quote @ (b'"' | b'\'') => {
                            j += 1 + memchr::memchr(quote, bytes.get(j + 1..)?)? + 1;
                        }
                        _ => {
                            while at(j).is_some_and(|b| !b.is_ascii_whitespace() && b != b'>') {
                                j += 1;
                            }
                        }
                    }
                    i = j;
                }
                if KEPT_ATTRIBUTES.iter().any(|k| k.eq_ignore_ascii_case(name)) {
                    kept.push((start, i));
                } else {
                    dropped = true;
                }
            }
        }
    }
    let end = i + 1;
    if !dropped {
        return Some((end, None));
    }
    let self_closing = bytes[name_end..i].last() == Some(&b'/');
    let mut slim = String::new();
    for (from, to) in kept {
        slim.push(' ');
        // Attribute boundaries are ASCII, so the slice is valid UTF-8.
        slim.push_str(std::str::from_utf8(&bytes[from..to]).unwrap_or_default());
    }
    if self_closing {
        slim.push('/');
    }
    slim.push('>');
    Some((end, Some(slim)))
}

/// Position of the next `<`.
fn memchr_lt(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'<', bytes)
}

#[cfg(test)]
mod tests;
