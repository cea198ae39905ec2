//! Tag stripping and character-reference decoding for titles that arrive as HTML text.

use std::borrow::Cow;

/// Removes `<...>` runs the way the reference's `<[^<]*>` does: from a `<` to the next `>` with no
/// other `<` in between. A `<` without such a `>` is kept as text.
pub(crate) fn strip_tags(text: &str) -> Cow<'_, str> {
    if !text.contains('<') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(['<', '>']) {
            Some(i) if after.as_bytes()[i] == b'>' => rest = &after[i + 1..],
            Some(i) => {
                // Another `<` first: this one is text, and the scan restarts at the next.
                out.push('<');
                out.push_str(&after[..i]);
                rest = &after[i..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Decodes HTML character references, twice at most (feeds often escape titles twice: `&amp;#039;`).
pub(crate) fn decode_entities(text: &str) -> Cow<'_, str> {
    match decode_once(text) {
        Cow::Borrowed(b) => Cow::Borrowed(b),
        Cow::Owned(once) => match decode_once(&once) {
            Cow::Borrowed(_) => Cow::Owned(once),
            Cow::Owned(twice) => Cow::Owned(twice),
        },
    }
}

fn decode_once(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match scan_reference(after).0 {
            Some((decoded, used)) => {
                match decoded {
                    DecodedText::Char(c) => out.push(c),
                    DecodedText::Str(s) => out.push_str(s),
                }
                rest = &after[used..];
                changed = true;
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if changed { Cow::Owned(out) } else { Cow::Borrowed(text) }
}

/// A decoded character reference and how many bytes after the `&` it used, and where the reference's
/// name or digits end (the byte there, if any, was looked at to decide; a `;` there is used).
pub(crate) fn scan_reference(after: &str) -> (Option<(DecodedText, usize)>, usize) {
    let bytes = after.as_bytes();
    if bytes.first() == Some(&b'#') {
        let (digits_start, radix) = match bytes.get(1) {
            Some(b'x' | b'X') => (2, 16),
            _ => (1, 10),
        };
        let digits = bytes[digits_start..]
            .iter()
            .take_while(|b| if radix == 16 { b.is_ascii_hexdigit() } else { b.is_ascii_digit() })
            .count();
        let end = digits_start + digits;
        if digits == 0 {
            return (None, end);
        }
        // More than eight digits is out of range whatever they say.
        let value = if digits > 8 {
            u32::MAX
        } else {
            u32::from_str_radix(&after[digits_start..end], radix).unwrap_or(u32::MAX)
        };
        let used = if bytes.get(end) == Some(&b';') { end + 1 } else { end };
        return (Some((DecodedText::Char(numeric(value)), used)), end);
    }
    let name_len = bytes.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    if name_len == 0 {
        return (None, 0);
    }
    let name = &after[..name_len];
    if bytes.get(name_len) == Some(&b';') {
        return (named(name).map(|d| (d, name_len + 1)), name_len);
    }
    // The few references that HTML also accepts without a semicolon, when they stand alone.
    let decoded = match name {
        "amp" | "lt" | "gt" | "quot" | "nbsp" => named(name).map(|d| (d, name_len)),
        _ => None,
    };
    (decoded, name_len)
}

/// Decoded text of one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecodedText {
    Char(char),
    Str(&'static str),
}

/// A numeric reference's character, with the HTML standard's Windows-1252 repair for 128 to 159.
fn numeric(value: u32) -> char {
    const CP1252: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}',
        '\u{017D}', '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}',
        '\u{2013}', '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}',
        '\u{9D}', '\u{017E}', '\u{0178}',
    ];
    match value {
        0 => '\u{FFFD}',
        0x80..=0x9F => CP1252[(value - 0x80) as usize],
        _ => char::from_u32(value).unwrap_or('\u{FFFD}'),
    }
}

/// Named references: the markup five, Latin-1 (in code point order from U+00A0), and common punctuation.
fn named(name: &str) -> Option<DecodedText> {
    const LATIN1: [&str; 96] = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf",
        "laquo", "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro",
        "para", "middot", "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
        "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave",
        "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve",
        "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc",
        "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring",
        "aelig", "ccedil", "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc",
        "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash",
        "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ];
    const OTHER: &[(&str, &str)] = &[
        ("amp", "&"),
        ("lt", "<"),
        ("gt", ">"),
        ("quot", "\""),
        ("apos", "'"),
        ("OElig", "\u{0152}"),
        ("oelig", "\u{0153}"),
        ("Scaron", "\u{0160}"),
        ("scaron", "\u{0161}"),
        ("Yuml", "\u{0178}"),
        ("fnof", "\u{0192}"),
        ("circ", "\u{02C6}"),
        ("tilde", "\u{02DC}"),
        ("ensp", "\u{2002}"),
        ("emsp", "\u{2003}"),
        ("thinsp", "\u{2009}"),
        ("zwnj", "\u{200C}"),
        ("zwj", "\u{200D}"),
        ("ndash", "\u{2013}"),
        ("mdash", "\u{2014}"),
        ("lsquo", "\u{2018}"),
        ("rsquo", "\u{2019}"),
        ("sbquo", "\u{201A}"),
        ("ldquo", "\u{201C}"),
        ("rdquo", "\u{201D}"),
        ("bdquo", "\u{201E}"),
        ("dagger", "\u{2020}"),
        ("Dagger", "\u{2021}"),
        ("bull", "\u{2022}"),
        ("hellip", "\u{2026}"),
        ("permil", "\u{2030}"),
        ("prime", "\u{2032}"),
        ("lsaquo", "\u{2039}"),
        ("rsaquo", "\u{203A}"),
        ("euro", "\u{20AC}"),
        ("trade", "\u{2122}"),
        ("larr", "\u{2190}"),
        ("rarr", "\u{2192}"),
        ("minus", "\u{2212}"),
    ];
    if let Some(i) = LATIN1.iter().position(|n| *n == name) {
        return char::from_u32(0xA0 + i as u32).map(DecodedText::Char);
    }
    OTHER.iter().find(|(n, _)| *n == name).map(|(_, s)| DecodedText::Str(s))
}

#[cfg(test)]
mod tests;
