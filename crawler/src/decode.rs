//! Bytes to text for feeds and sitemaps: which character encoding a body is in, the HTML entities
//! feeds use without declaring them, the bare `&` they write as text, and how far to read past
//! XML errors (`XmlErrors`).
//!
//! [`decode`] chooses the encoding in the order the XML specification (appendix F) and RFC 7303
//! give, with the HTML standard's distrust of labels the bytes contradict:
//!
//! 1. a byte-order mark (UTF-8, UTF-16LE/BE, UTF-32LE/BE);
//! 2. the layout of the first four bytes, which tells UTF-16 and UTF-32 apart from ASCII-based
//!    encodings even without a BOM (a document starts with `<`, `{` or white space);
//! 3. the `charset` parameter of the HTTP `Content-Type`;
//! 4. the `encoding` of the XML declaration;
//! 5. UTF-8 if the bytes are UTF-8, else a guess by `chardetng` (with the URL's top-level domain as
//!    a hint when there is one).
//!
//! A label the bytes contradict is passed over with a warning: a 16- or 32-bit label on bytes laid
//! out as ASCII, UTF-8 on bytes that are not UTF-8, or a legacy encoding on bytes that are valid
//! UTF-8 with non-ASCII characters (servers that default to ISO-8859-1 while the feed is UTF-8).
//! Decoding itself never fails: malformed sequences become U+FFFD.
//!
//! Unlike feedparser, a `text/xml` body without a charset is not taken as US-ASCII (RFC 3023);
//! RFC 7303 withdrew that rule and real `text/xml` feeds are mostly UTF-8.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

/// How many leading bytes are searched for the XML declaration.
const DECLARATION_BYTES: usize = 1024;

/// How many bytes `chardetng` looks at when it has to guess.
const DETECTION_BYTES: usize = 1 << 20;

/// A character encoding: one of `encoding_rs`'s, or UTF-32, which the Encoding Standard leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
    /// An encoding of the Encoding Standard.
    Standard(&'static Encoding),
}

impl Charset {
    /// Its name, as the Encoding Standard spells it (`UTF-8`, `windows-1252`, `UTF-16LE`), or
    /// `UTF-32LE` / `UTF-32BE`.
    pub fn name(self) -> &'static str {
        match self {
            Charset::Utf32Le => "UTF-32LE",
            Charset::Utf32Be => "UTF-32BE",
            Charset::Standard(encoding) => encoding.name(),
        }
    }

    /// The encoding a label names: the Encoding Standard's labels, UTF-32's, and the same with
    /// `_` for `-` (`utf_8`, `iso_8859_1`, as Python writes them).
    pub fn for_label(label: &str) -> Option<Charset> {
        let label = label.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        let lower = label.to_ascii_lowercase().replace('_', "-");
        match lower.as_str() {
            "utf-32le" | "ucs-4le" => return Some(Charset::Utf32Le),
            "utf-32" | "utf-32be" | "ucs-4" | "ucs-4be" | "iso-10646-ucs-4" => {
                return Some(Charset::Utf32Be);
            }
            _ => {}
        }
        Encoding::for_label(label.as_bytes())
            .or_else(|| Encoding::for_label(lower.as_bytes()))
            .filter(|&encoding| encoding != encoding_rs::REPLACEMENT)
            .map(Charset::Standard)
    }

    /// Whether ASCII text is written as single bytes in this encoding (so `<?xml` reads as is).
    fn is_ascii_based(self) -> bool {
        match self {
            Charset::Utf32Le | Charset::Utf32Be => false,
            Charset::Standard(encoding) => {
                encoding != encoding_rs::UTF_16LE && encoding != encoding_rs::UTF_16BE
            }
        }
    }

    /// Decodes `bytes` (without a BOM); malformed sequences become U+FFFD.
    fn decode(self, bytes: &[u8]) -> Cow<'_, str> {
        match self {
            Charset::Utf32Le => Cow::Owned(utf32(bytes, u32::from_le_bytes)),
            Charset::Utf32Be => Cow::Owned(utf32(bytes, u32::from_be_bytes)),
            Charset::Standard(encoding) => encoding.decode_without_bom_handling(bytes).0,
        }
    }
}

/// Which rule chose the encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A byte-order mark.
    Bom,
    /// The layout of the first bytes (UTF-16 or UTF-32 without a BOM).
    Layout,
    /// The `charset` of the HTTP `Content-Type`.
    Header,
    /// The XML declaration's `encoding`.
    Declaration,
    /// Nothing usable was declared: UTF-8 because the bytes are UTF-8, or a `chardetng` guess.
    Detected,
}

/// A body turned into text.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<'a> {
    /// The text, without the BOM (borrowed when the body was UTF-8).
    pub text: Cow<'a, str>,
    /// The encoding used.
    pub charset: Charset,
    /// Which rule chose it.
    pub source: Source,
    /// Labels passed over and why, for people.
    pub warnings: Vec<String>,
}

impl Decoded<'_> {
    /// The name of the encoding used.
    pub fn encoding(&self) -> &'static str {
        self.charset.name()
    }
}

/// Decodes a feed or sitemap body: the encoding from the BOM, the byte layout, the HTTP
/// `Content-Type` (its `charset`), the XML declaration, then detection, as the module docs say.
/// `tld` is the top-level domain the body came from, a hint for detection.
pub fn decode<'a>(body: &'a [u8], content_type: Option<&str>, tld: Option<&str>) -> Decoded<'a> {
    let mut warnings = Vec::new();
    let header_label = content_type.and_then(charset_param);
    let header = header_label.and_then(|label| {
        let charset = Charset::for_label(label);
        if charset.is_none() {
            warnings.push(format!("unknown charset {label:?} in the Content-Type header ignored"));
        }
        charset
    });
    if let Some((charset, bom_len)) = bom(body) {
        let text = charset.decode(&body[bom_len..]);
        return Decoded { text, charset, source: Source::Bom, warnings };
    }
    if let Some(charset) = layout(body) {
        if let Some(header) = header.filter(|header| header.is_ascii_based()) {
            warnings.push(format!(
                "the Content-Type header says {}, but the bytes are {}",
                header.name(),
                charset.name()
            ));
        }
        let text = charset.decode(body);
        return Decoded { text, charset, source: Source::Layout, warnings };
    }
    let declaration_label = declared_encoding(&body[..body.len().min(DECLARATION_BYTES)]);
    let declared = declaration_label.and_then(|label| {
        let charset = Charset::for_label(label);
        if charset.is_none() {
            warnings.push(format!("unknown encoding {label:?} in the XML declaration ignored"));
        }
        charset
    });
    let utf8 = utf8_state(body);
    for (charset, source, what) in [
        (header, Source::Header, "the Content-Type header"),
        (declared, Source::Declaration, "the XML declaration"),
    ] {
        let Some(charset) = charset else { continue };
        if !charset.is_ascii_based() {
            warnings.push(format!(
                "{what} says {}, but the bytes are laid out as an ASCII-based encoding",
                charset.name()
            ));
            continue;
        }
        if charset == Charset::Standard(UTF_8) {
            if utf8 == Utf8::Invalid {
                warnings.push(format!("{what} says UTF-8, but the bytes are not UTF-8"));
                continue;
            }
        } else if utf8 == Utf8::NonAscii {
            warnings.push(format!(
                "{what} says {}, but the bytes are UTF-8; read as UTF-8",
                charset.name()
            ));
            let charset = Charset::Standard(UTF_8);
            return Decoded {
                text: charset.decode(body),
                charset,
                source: Source::Detected,
                warnings,
            };
        }
        return Decoded { text: charset.decode(body), charset, source, warnings };
    }
    let charset = if utf8 == Utf8::Invalid {
        let guess = detect(body, tld);
        warnings.push(format!("the bytes are not UTF-8; {} guessed", guess.name()));
        guess
    } else {
        Charset::Standard(UTF_8)
    };
    Decoded { text: charset.decode(body), charset, source: Source::Detected, warnings }
}

/// The `charset` parameter of a `Content-Type` value, unquoted (`text/xml; charset="utf-8"`).
pub fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then_some(value)
    })
}

/// The encoding a byte-order mark names, and the mark's length.
fn bom(body: &[u8]) -> Option<(Charset, usize)> {
    // UTF-32LE's mark starts like UTF-16LE's; XML has no NUL characters to make it ambiguous.
    if body.starts_with(&[0xff, 0xfe, 0, 0]) {
        return Some((Charset::Utf32Le, 4));
    }
    if body.starts_with(&[0, 0, 0xfe, 0xff]) {
        return Some((Charset::Utf32Be, 4));
    }
    Encoding::for_bom(body).map(|(encoding, len)| (Charset::Standard(encoding), len))
}

/// UTF-16 or UTF-32 told by where the zero bytes of the first (ASCII) character fall.
fn layout(body: &[u8]) -> Option<Charset> {
    let head: [u8; 4] = body.get(..4)?.try_into().ok()?;
    match head {
        [0, 0, 0, c] if c != 0 => Some(Charset::Utf32Be),
        [c, 0, 0, 0] if c != 0 => Some(Charset::Utf32Le),
        [0, a, 0, b] if a != 0 && b != 0 => Some(Charset::Standard(encoding_rs::UTF_16BE)),
        [a, 0, b, 0] if a != 0 && b != 0 => Some(Charset::Standard(encoding_rs::UTF_16LE)),
        _ => None,
    }
}

/// The `encoding` pseudo-attribute of an XML declaration at the start of ASCII-based bytes.
fn declared_encoding(head: &[u8]) -> Option<&str> {
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let head = head[start..].strip_prefix(b"<?xml")?;
    let end = head.windows(2).position(|w| w == b"?>").unwrap_or(head.len());
    let declaration = std::str::from_utf8(&head[..end]).ok()?;
    let at = declaration.find("encoding")?;
    let rest = declaration[at + "encoding".len()..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let value = &rest[1..];
    let value = &value[..value.find(quote)?];
    (!value.trim().is_empty()).then_some(value)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Utf8 {
    /// Only ASCII bytes.
    Ascii,
    /// Valid UTF-8 with non-ASCII characters (or cut short only in its last character).
    NonAscii,
    /// Not UTF-8.
    Invalid,
}

fn utf8_state(body: &[u8]) -> Utf8 {
    if body.is_ascii() {
        return Utf8::Ascii;
    }
    match std::str::from_utf8(body) {
        Ok(_) => Utf8::NonAscii,
        // Only the last character is cut short: a truncated body, not another encoding.
        Err(error) if error.error_len().is_none() && error.valid_up_to() + 4 > body.len() => {
            Utf8::NonAscii
        }
        Err(_) => Utf8::Invalid,
    }
}

fn detect(body: &[u8], tld: Option<&str>) -> Charset {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&body[..body.len().min(DETECTION_BYTES)], true);
    // chardetng insists on a lower-case ASCII label without dots.
    let tld = tld.filter(|tld| {
        !tld.is_empty()
            && tld.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    });
    let guess = detector.guess(tld.map(str::as_bytes), chardetng::Utf8Detection::Deny);
    if guess == encoding_rs::REPLACEMENT {
        Charset::Standard(encoding_rs::WINDOWS_1252)
    } else {
        Charset::Standard(guess)
    }
}

fn utf32(bytes: &[u8], read: fn([u8; 4]) -> u32) -> String {
    let mut text = String::with_capacity(bytes.len() / 4);
    let mut units = bytes.chunks_exact(4);
    for unit in &mut units {
        let unit: [u8; 4] = [unit[0], unit[1], unit[2], unit[3]];
        text.push(char::from_u32(read(unit)).unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    if !units.remainder().is_empty() {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    text
}

/// The character an entity name stands for: XML's five and HTML 4's 252 (`&eacute;`, `&hellip;`),
/// which feeds use without declaring them.
pub fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => return Some('&'),
        "lt" => return Some('<'),
        "gt" => return Some('>'),
        "quot" => return Some('"'),
        "apos" => return Some('\''),
        _ => {}
    }
    HTML_ENTITIES.binary_search_by(|(key, _)| (*key).cmp(name)).ok().map(|at| HTML_ENTITIES[at].1)
}

/// The character a reference names: `#233`, `#xE9` or an [`entity`] name. Numeric references to
/// characters that cannot be (NUL, surrogates, beyond U+10FFFF) are U+FFFD.
pub fn reference(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let (digits, radix) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16),
            None => (number, 10),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        let c = u32::from_str_radix(digits, radix).ok().and_then(char::from_u32);
        return Some(c.filter(|&c| c != '\0').unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    entity(name)
}

/// Decodes character and entity references (XML's and HTML 4's); unknown ones stay as written.
pub fn unescape(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let name_end = rest.bytes().take(40).position(|b| b == b';');
        match name_end.and_then(|end| reference(&rest[1..end]).map(|c| (c, end))) {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Replaces each `&` that does not start a reference with `&amp;`, outside CDATA sections and
/// comments, so that `AT&T` reads as text instead of an XML error.
pub fn escape_bare_ampersands(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'&' || b == b'<') {
        let at = i + offset;
        i = at + 1;
        if bytes[at] == b'<' {
            let skip_to =
                |end: &str| text[at..].find(end).map_or(bytes.len(), |e| at + e + end.len());
            if bytes[at..].starts_with(b"<![CDATA[") {
                i = skip_to("]]>");
            } else if bytes[at..].starts_with(b"<!--") {
                i = skip_to("-->");
            }
            continue;
        }
        if !starts_reference(&bytes[at + 1..]) {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 64));
            out.push_str(&text[copied..=at]);
            out.push_str("amp;");
            copied = at + 1;
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Whether the bytes after a `&` make a reference: `#123;`, `#x1F;` or `name;`.
fn starts_reference(after: &[u8]) -> bool {
    let Some(end) = after.iter().take(40).position(|&b| b == b';') else { return false };
    match &after[..end] {
        [b'#', b'x' | b'X', hex @ ..] => !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit),
        [b'#', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
        [first, rest @ ..] => {
            (first.is_ascii_alphabetic() || *first == b'_')
                && rest.iter().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(b))
        }
        [] => false,
    }
}

/// At most this many XML errors of a document are worded one by one.
const REPORTED_ERRORS: usize = 5;

/// Reading a document stops after this many XML errors.
const MAX_ERRORS: usize = 1000;

/// The XML errors of one document, for readers that go on after an error where `quick-xml`
/// resumes: each is worded with its line, the first few are worth a warning, and reading stops
/// after [`MAX_ERRORS`] or when the reader no longer moves.
#[derive(Debug, Default)]
pub(crate) struct XmlErrors {
    count: usize,
    last_resume: Option<u64>,
}

/// One error as [`XmlErrors::record`] words it.
#[derive(Debug)]
pub(crate) struct XmlError {
    /// `malformed XML at line N: …`.
    pub(crate) message: String,
    /// Whether it is among the first few, worth a warning of its own.
    pub(crate) report: bool,
    /// Why reading stops here, if it does.
    pub(crate) stop: Option<String>,
}

impl XmlErrors {
    /// Records an error found at byte `error_at` of `text`, the reader now at `resume_at`.
    pub(crate) fn record(
        &mut self,
        text: &str,
        error: &quick_xml::Error,
        error_at: u64,
        resume_at: u64,
    ) -> XmlError {
        self.count += 1;
        let at = usize::try_from(error_at).unwrap_or(usize::MAX).min(text.len());
        let line = text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let stuck = self.last_resume == Some(resume_at);
        self.last_resume = Some(resume_at);
        XmlError {
            message: format!("malformed XML at line {line}: {error}"),
            report: self.count <= REPORTED_ERRORS,
            stop: (stuck || self.count >= MAX_ERRORS)
                .then(|| format!("{} XML errors; reading stopped at line {line}", self.count)),
        }
    }
}

/// HTML 4's named character references, sorted by name.
const HTML_ENTITIES: [(&str, char); 252] = [
    ("AElig", '\u{c6}'),
    ("Aacute", '\u{c1}'),
    ("Acirc", '\u{c2}'),
    ("Agrave", '\u{c0}'),
    ("Alpha", '\u{391}'),
    ("Aring", '\u{c5}'),
    ("Atilde", '\u{c3}'),
    ("Auml", '\u{c4}'),
    ("Beta", '\u{392}'),
    ("Ccedil", '\u{c7}'),
    ("Chi", '\u{3a7}'),
    ("Dagger", '\u{2021}'),
    ("Delta", '\u{394}'),
    ("ETH", '\u{d0}'),
    ("Eacute", '\u{c9}'),
    ("Ecirc", '\u{ca}'),
    ("Egrave", '\u{c8}'),
    ("Epsilon", '\u{395}'),
    ("Eta", '\u{397}'),
    ("Euml", '\u{cb}'),
    ("Gamma", '\u{393}'),
    ("Iacute", '\u{cd}'),
    ("Icirc", '\u{ce}'),
    ("Igrave", '\u{cc}'),
    ("Iota", '\u{399}'),
    ("Iuml", '\u{cf}'),
    ("Kappa", '\u{39a}'),
    ("Lambda", '\u{39b}'),
    ("Mu", '\u{39c}'),
    ("Ntilde", '\u{d1}'),
    ("Nu", '\u{39d}'),
    ("OElig", '\u{152}'),
    ("Oacute", '\u{d3}'),
    ("Ocirc", '\u{d4}'),
    ("Ograve", '\u{d2}'),
    ("Omega", '\u{3a9}'),
    ("Omicron", '\u{39f}'),
    ("Oslash", '\u{d8}'),
    ("Otilde", '\u{d5}'),
    ("Ouml", '\u{d6}'),
    ("Phi", '\u{3a6}'),
    ("Pi", '\u{3a0}'),
    ("Prime", '\u{2033}'),
    ("Psi", '\u{3a8}'),
    ("Rho", '\u{3a1}'),
    ("Scaron", '\u{160}'),
    ("Sigma", '\u{3a3}'),
    ("THORN", '\u{de}'),
    ("Tau", '\u{3a4}'),
    ("Theta", '\u{398}'),
    ("Uacute", '\u{da}'),
    ("Ucirc", '\u{db}'),
    ("Ugrave", '\u{d9}'),
    ("Upsilon", '\u{3a5}'),
    ("Uuml", '\u{dc}'),
    ("Xi", '\u{39e}'),
    ("Yacute", '\u{dd}'),
    ("Yuml", '\u{178}'),
    ("Zeta", '\u{396}'),
    ("aacute", '\u{e1}'),
    ("acirc", '\u{e2}'),
    ("acute", '\u{b4}'),
    ("aelig", '\u{e6}'),
    ("agrave", '\u{e0}'),
    ("alefsym", '\u{2135}'),
    ("alpha", '\u{3b1}'),
    ("amp", '\u{26}'),
    ("and", '\u{2227}'),
    ("ang", '\u{2220}'),
    ("aring", '\u{e5}'),
    ("asymp", '\u{2248}'),
    ("atilde", '\u{e3}'),
    ("auml", '\u{e4}'),
    ("bdquo", '\u{201e}'),
    ("beta", '\u{3b2}'),
    ("brvbar", '\u{a6}'),
    ("bull", '\u{2022}'),
    ("cap", '\u{2229}'),
    ("ccedil", '\u{e7}'),
    ("cedil", '\u{b8}'),
    ("cent", '\u{a2}'),
    ("chi", '\u{3c7}'),
    ("circ", '\u{2c6}'),
    ("clubs", '\u{2663}'),
    ("cong", '\u{2245}'),
    ("copy", '\u{a9}'),
    ("crarr", '\u{21b5}'),
    ("cup", '\u{222a}'),
    ("curren", '\u{a4}'),
    ("dArr", '\u{21d3}'),
    ("dagger", '\u{2020}'),
    ("darr", '\u{2193}'),
    ("deg", '\u{b0}'),
    ("delta", '\u{3b4}'),
    ("diams", '\u{2666}'),
    ("divide", '\u{f7}'),
    ("eacute", '\u{e9}'),
    ("ecirc", '\u{ea}'),
    ("egrave", '\u{e8}'),
    ("empty", '\u{2205}'),
    ("emsp", '\u{2003}'),
    ("ensp", '\u{2002}'),
    ("epsilon", '\u{3b5}'),
    ("equiv", '\u{2261}'),
    ("eta", '\u{3b7}'),
    ("eth", '\u{f0}'),
    ("euml", '\u{eb}'),
    ("euro", '\u{20ac}'),
    ("exist", '\u{2203}'),
    ("fnof", '\u{192}'),
    ("forall", '\u{2200}'),
    ("frac12", '\u{bd}'),
    ("frac14", '\u{bc}'),
    ("frac34", '\u{be}'),
    ("frasl", '\u{2044}'),
    ("gamma", '\u{3b3}'),
    ("ge", '\u{2265}'),
    ("gt", '\u{3e}'),
    ("hArr", '\u{21d4}'),
    ("harr", '\u{2194}'),
    ("hearts", '\u{2665}'),
    ("hellip", '\u{2026}'),
    ("iacute", '\u{ed}'),
    ("icirc", '\u{ee}'),
    ("iexcl", '\u{a1}'),
    ("igrave", '\u{ec}'),
    ("image", '\u{2111}'),
    ("infin", '\u{221e}'),
    ("int", '\u{222b}'),
    ("iota", '\u{3b9}'),
    ("iquest", '\u{bf}'),
    ("isin", '\u{2208}'),
    ("iuml", '\u{ef}'),
    ("kappa", '\u{3ba}'),
    ("lArr", '\u{21d0}'),
    ("lambda", '\u{3bb}'),
    ("lang", '\u{2329}'),
    ("laquo", '\u{ab}'),
    ("larr", '\u{2190}'),
    ("lceil", '\u{2308}'),
    ("ldquo", '\u{201c}'),
    ("le", '\u{2264}'),
    ("lfloor", '\u{230a}'),
    ("lowast", '\u{2217}'),
    ("loz", '\u{25ca}'),
    ("lrm", '\u{200e}'),
    ("lsaquo", '\u{2039}'),
    ("lsquo", '\u{2018}'),
    ("lt", '\u{3c}'),
    ("macr", '\u{af}'),
    ("mdash", '\u{2014}'),
    ("micro", '\u{b5}'),
    ("middot", '\u{b7}'),
    ("minus", '\u{2212}'),
    ("mu", '\u{3bc}'),
    ("nabla", '\u{2207}'),
    ("nbsp", '\u{a0}'),
    ("ndash", '\u{2013}'),
    ("ne", '\u{2260}'),
    ("ni", '\u{220b}'),
    ("not", '\u{ac}'),
    ("notin", '\u{2209}'),
    ("nsub", '\u{2284}'),
    ("ntilde", '\u{f1}'),
    ("nu", '\u{3bd}'),
    ("oacute", '\u{f3}'),
    ("ocirc", '\u{f4}'),
    ("oelig", '\u{153}'),
    ("ograve", '\u{f2}'),
    ("oline", '\u{203e}'),
    ("omega", '\u{3c9}'),
    ("omicron", '\u{3bf}'),
    ("oplus", '\u{2295}'),
    ("or", '\u{2228}'),
    ("ordf", '\u{aa}'),
    ("ordm", '\u{ba}'),
    ("oslash", '\u{f8}'),
    ("otilde", '\u{f5}'),
    ("otimes", '\u{2297}'),
    ("ouml", '\u{f6}'),
    ("para", '\u{b6}'),
    ("part", '\u{2202}'),
    ("permil", '\u{2030}'),
    ("perp", '\u{22a5}'),
    ("phi", '\u{3c6}'),
    ("pi", '\u{3c0}'),
    ("piv", '\u{3d6}'),
    ("plusmn", '\u{b1}'),
    ("pound", '\u{a3}'),
    ("prime", '\u{2032}'),
    ("prod", '\u{220f}'),
    ("prop", '\u{221d}'),
    ("psi", '\u{3c8}'),
    ("quot", '\u{22}'),
    ("rArr", '\u{21d2}'),
    ("radic", '\u{221a}'),
    ("rang", '\u{232a}'),
    ("raquo", '\u{bb}'),
    ("rarr", '\u{2192}'),
    ("rceil", '\u{2309}'),
    ("rdquo", '\u{201d}'),
    ("real", '\u{211c}'),
    ("reg", '\u{ae}'),
    ("rfloor", '\u{230b}'),
    ("rho", '\u{3c1}'),
    ("rlm", '\u{200f}'),
    ("rsaquo", '\u{203a}'),
    ("rsquo", '\u{2019}'),
    ("sbquo", '\u{201a}'),
    ("scaron", '\u{161}'),
    ("sdot", '\u{22c5}'),
    ("sect", '\u{a7}'),
    ("shy", '\u{ad}'),
    ("sigma", '\u{3c3}'),
    ("sigmaf", '\u{3c2}'),
    ("sim", '\u{223c}'),
    ("spades", '\u{2660}'),
    ("sub", '\u{2282}'),
    ("sube", '\u{2286}'),
    ("sum", '\u{2211}'),
    ("sup", '\u{2283}'),
    ("sup1", '\u{b9}'),
    ("sup2", '\u{b2}'),
    ("sup3", '\u{b3}'),
    ("supe", '\u{2287}'),
    ("szlig", '\u{df}'),
    ("tau", '\u{3c4}'),
    ("there4", '\u{2234}'),
    ("theta", '\u{3b8}'),
    ("thetasym", '\u{3d1}'),
    ("thinsp", '\u{2009}'),
    ("thorn", '\u{fe}'),
    ("tilde", '\u{2dc}'),
    ("times", '\u{d7}'),
    ("trade", '\u{2122}'),
    ("uArr", '\u{21d1}'),
    ("uacute", '\u{fa}'),
    ("uarr", '\u{2191}'),
    ("ucirc", '\u{fb}'),
    ("ugrave", '\u{f9}'),
    ("uml", '\u{a8}'),
    ("upsih", '\u{3d2}'),
    ("upsilon", '\u{3c5}'),
    ("uuml", '\u{fc}'),
    ("weierp", '\u{2118}'),
    ("xi", '\u{3be}'),
    ("yacute", '\u{fd}'),
    ("yen", '\u{a5}'),
    ("yuml", '\u{ff}'),
    ("zeta", '\u{3b6}'),
    ("zwj", '\u{200d}'),
    ("zwnj", '\u{200c}'),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf32be(text: &str) -> Vec<u8> {
        text.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect()
    }

    #[test]
    fn the_entity_table_is_sorted() {
        assert!(HTML_ENTITIES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(entity("eacute"), Some('\u{e9}'));
        assert_eq!(entity("hellip"), Some('\u{2026}'));
        assert_eq!(entity("apos"), Some('\''));
        assert_eq!(entity("bogus"), None);
        assert_eq!(reference("#233"), Some('\u{e9}'));
        assert_eq!(reference("#xE9"), Some('\u{e9}'));
        assert_eq!(reference("#0"), Some(char::REPLACEMENT_CHARACTER));
        assert_eq!(reference("#xD800"), Some(char::REPLACEMENT_CHARACTER));
        assert_eq!(reference("#"), None);
    }

    #[test]
    fn bare_ampersands_are_escaped_outside_cdata() {
        assert_eq!(escape_bare_ampersands("a &amp; b"), "a &amp; b");
        assert_eq!(
            escape_bare_ampersands("AT&T & co &#38; &#xZZ; <![CDATA[&]]> <!-- & --> &"),
            "AT&amp;T &amp; co &#38; &amp;#xZZ; <![CDATA[&]]> <!-- & --> &amp;"
        );
        assert!(matches!(escape_bare_ampersands("no refs"), Cow::Borrowed(_)));
        assert_eq!(
            unescape("&lt;caf&eacute;&gt; &bogus; &#233; & x"),
            "<caf\u{e9}> &bogus; \u{e9} & x"
        );
    }

    #[test]
    fn charset_params() {
        assert_eq!(charset_param("text/xml; charset=\"UTF-8\""), Some("UTF-8"));
        assert_eq!(charset_param("application/xml;charset = us-ascii"), Some("us-ascii"));
        assert_eq!(charset_param("text/xml; qs=0.9"), None);
        assert_eq!(charset_param("text/xml"), None);
        assert_eq!(charset_param("text/xml; charset="), None);
    }

    #[test]
    fn byte_order_marks_win() {
        let mut body = vec![0xff, 0xfe];
        body.extend(utf16le("<?xml version='1.0' encoding='iso-8859-1'?><rss/>"));
        let decoded = decode(&body, Some("text/xml; charset=utf-8"), None);
        assert_eq!(decoded.encoding(), "UTF-16LE");
        assert_eq!(decoded.source, Source::Bom);
        assert!(decoded.text.starts_with("<?xml"));

        let mut body = vec![0, 0, 0xfe, 0xff];
        body.extend(utf32be("<rss>\u{1f600}</rss>"));
        let decoded = decode(&body, None, None);
        assert_eq!(
            (decoded.encoding(), decoded.text.as_ref()),
            ("UTF-32BE", "<rss>\u{1f600}</rss>")
        );
    }

    #[test]
    fn utf16_and_utf32_without_a_bom_are_told_by_their_layout() {
        let body = utf16le("<?xml version='1.0'?><rss/>");
        let decoded = decode(&body, None, None);
        assert_eq!((decoded.encoding(), decoded.source), ("UTF-16LE", Source::Layout));
        let body = utf32be("\n<feed/>");
        let decoded = decode(&body, Some("text/xml; charset=iso-8859-1"), None);
        assert_eq!(decoded.encoding(), "UTF-32BE");
        assert_eq!(decoded.text, "\n<feed/>");
        assert_eq!(decoded.warnings.len(), 1, "{:?}", decoded.warnings);
    }

    #[test]
    fn the_header_beats_the_declaration_unless_the_bytes_say_otherwise() {
        let body = b"<?xml version='1.0' encoding='iso-8859-1'?><rss>caf\xe9</rss>";
        let decoded = decode(body, Some("text/xml; charset=windows-1251"), None);
        assert_eq!((decoded.encoding(), decoded.source), ("windows-1251", Source::Header));
        let decoded = decode(body, Some("text/xml"), None);
        assert_eq!((decoded.encoding(), decoded.source), ("windows-1252", Source::Declaration));
        assert_eq!(decoded.text, "<?xml version='1.0' encoding='iso-8859-1'?><rss>caf\u{e9}</rss>");

        // A server default of ISO-8859-1 over a UTF-8 feed.
        let body = "<?xml version='1.0' encoding='utf-8'?><rss>caf\u{e9}</rss>";
        let decoded = decode(body.as_bytes(), Some("text/xml; charset=ISO-8859-1"), None);
        assert_eq!(decoded.encoding(), "UTF-8");
        assert_eq!(decoded.text, body);
        assert_eq!(decoded.warnings.len(), 1);

        // A declared UTF-16 on single bytes is a copy-paste error.
        let decoded = decode(b"<?xml version=\"1.0\" encoding=\"utf-16\"?><rss/>", None, None);
        assert_eq!(decoded.encoding(), "UTF-8");
        assert_eq!(decoded.warnings.len(), 1);
    }

    #[test]
    fn undeclared_bytes_are_utf8_or_guessed() {
        let decoded = decode(b"<rss>plain</rss>", None, None);
        assert_eq!((decoded.encoding(), decoded.source), ("UTF-8", Source::Detected));
        assert!(matches!(decoded.text, Cow::Borrowed(_)));
        let body = "<rss>Привет, это новости дня о погоде и политике</rss>";
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(body);
        let decoded = decode(&cp1251, Some("text/xml; charset=utf-8"), Some("ru"));
        assert_eq!(decoded.encoding(), "windows-1251");
        assert_eq!(decoded.text, body);
        let decoded =
            decode(b"<?xml version='1.0' encoding='bogus'?><rss/>", None, Some("Not.A.Tld"));
        assert_eq!(decoded.encoding(), "UTF-8");
        assert_eq!(decoded.warnings.len(), 1);
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>, content_type: String, tld: String) {
            let _ = decode(&body, Some(&content_type), Some(&tld));
            let _ = reference(&content_type);
            let _ = unescape(&content_type);
            let _ = escape_bare_ampersands(&content_type);
        }

        /// The feed and sitemap readers, over arbitrary bytes after the starts of real documents.
        #[test]
        fn arbitrary_bytes_after_a_prolog_never_panic_a_reader(tail: Vec<u8>, prolog in 0..9_usize) {
            let prologs: [&[u8]; 9] = [
                b"<?xml version='1.0' encoding='utf-8'?><rss><channel><item>",
                b"\xef\xbb\xbf<?xml version='1.0'?>",
                b"\xff\xfe<\0?\0x\0m\0l\0",
                b"\0\0\xfe\xff",
                b"<feed xmlns='http://www.w3.org/2005/Atom'><entry><title type='html'>",
                b"{\"version\":\"https://jsonfeed.org/version/1\",\"items\":[",
                b"<?xml version='1.0' encoding='windows-1251'?><urlset><url><loc>",
                b"<sitemapindex><sitemap><loc>https://x.example/",
                b"<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><item rdf:about='",
            ];
            let body = [prologs[prolog], &tail].concat();
            let url = url::Url::parse("https://x.example/feed").unwrap();
            let _ = crate::feed::parse_with_content_type(&body, &url, Some("text/xml; charset=utf-16"));
            let _ = crate::feed::parse(&body, &url);
            let _ = crate::feed::sniff(&body);
            let _ = crate::sitemap::parse(&body);
            let _ = crate::sitemap::parse_with_content_type(&body, Some("text/xml; charset=utf-16"));
        }
    }
}
