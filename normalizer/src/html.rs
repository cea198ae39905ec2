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
                out.push(decoded);
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
pub(crate) fn scan_reference(after: &str) -> (Option<(char, usize)>, usize) {
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
        return (Some((numeric(value), used)), end);
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

/// Named references: the markup five, Latin-1 (U+00A0 to U+00FF), and common punctuation.
const NAMED: [(&str, char); 135] = [
    ("nbsp", '\u{00A0}'),
    ("iexcl", '\u{00A1}'),
    ("cent", '\u{00A2}'),
    ("pound", '\u{00A3}'),
    ("curren", '\u{00A4}'),
    ("yen", '\u{00A5}'),
    ("brvbar", '\u{00A6}'),
    ("sect", '\u{00A7}'),
    ("uml", '\u{00A8}'),
    ("copy", '\u{00A9}'),
    ("ordf", '\u{00AA}'),
    ("laquo", '\u{00AB}'),
    ("not", '\u{00AC}'),
    ("shy", '\u{00AD}'),
    ("reg", '\u{00AE}'),
    ("macr", '\u{00AF}'),
    ("deg", '\u{00B0}'),
    ("plusmn", '\u{00B1}'),
    ("sup2", '\u{00B2}'),
    ("sup3", '\u{00B3}'),
    ("acute", '\u{00B4}'),
    ("micro", '\u{00B5}'),
    ("para", '\u{00B6}'),
    ("middot", '\u{00B7}'),
    ("cedil", '\u{00B8}'),
    ("sup1", '\u{00B9}'),
    ("ordm", '\u{00BA}'),
    ("raquo", '\u{00BB}'),
    ("frac14", '\u{00BC}'),
    ("frac12", '\u{00BD}'),
    ("frac34", '\u{00BE}'),
    ("iquest", '\u{00BF}'),
    ("Agrave", '\u{00C0}'),
    ("Aacute", '\u{00C1}'),
    ("Acirc", '\u{00C2}'),
    ("Atilde", '\u{00C3}'),
    ("Auml", '\u{00C4}'),
    ("Aring", '\u{00C5}'),
    ("AElig", '\u{00C6}'),
    ("Ccedil", '\u{00C7}'),
    ("Egrave", '\u{00C8}'),
    ("Eacute", '\u{00C9}'),
    ("Ecirc", '\u{00CA}'),
    ("Euml", '\u{00CB}'),
    ("Igrave", '\u{00CC}'),
    ("Iacute", '\u{00CD}'),
    ("Icirc", '\u{00CE}'),
    ("Iuml", '\u{00CF}'),
    ("ETH", '\u{00D0}'),
    ("Ntilde", '\u{00D1}'),
    ("Ograve", '\u{00D2}'),
    ("Oacute", '\u{00D3}'),
    ("Ocirc", '\u{00D4}'),
    ("Otilde", '\u{00D5}'),
    ("Ouml", '\u{00D6}'),
    ("times", '\u{00D7}'),
    ("Oslash", '\u{00D8}'),
    ("Ugrave", '\u{00D9}'),
    ("Uacute", '\u{00DA}'),
    ("Ucirc", '\u{00DB}'),
    ("Uuml", '\u{00DC}'),
    ("Yacute", '\u{00DD}'),
    ("THORN", '\u{00DE}'),
    ("szlig", '\u{00DF}'),
    ("agrave", '\u{00E0}'),
    ("aacute", '\u{00E1}'),
    ("acirc", '\u{00E2}'),
    ("atilde", '\u{00E3}'),
    ("auml", '\u{00E4}'),
    ("aring", '\u{00E5}'),
    ("aelig", '\u{00E6}'),
    ("ccedil", '\u{00E7}'),
    ("egrave", '\u{00E8}'),
    ("eacute", '\u{00E9}'),
    ("ecirc", '\u{00EA}'),
    ("euml", '\u{00EB}'),
    ("igrave", '\u{00EC}'),
    ("iacute", '\u{00ED}'),
    ("icirc", '\u{00EE}'),
    ("iuml", '\u{00EF}'),
    ("eth", '\u{00F0}'),
    ("ntilde", '\u{00F1}'),
    ("ograve", '\u{00F2}'),
    ("oacute", '\u{00F3}'),
    ("ocirc", '\u{00F4}'),
    ("otilde", '\u{00F5}'),
    ("ouml", '\u{00F6}'),
    ("divide", '\u{00F7}'),
    ("oslash", '\u{00F8}'),
    ("ugrave", '\u{00F9}'),
    ("uacute", '\u{00FA}'),
    ("ucirc", '\u{00FB}'),
    ("uuml", '\u{00FC}'),
    ("yacute", '\u{00FD}'),
    ("thorn", '\u{00FE}'),
    ("yuml", '\u{00FF}'),
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("OElig", '\u{0152}'),
    ("oelig", '\u{0153}'),
    ("Scaron", '\u{0160}'),
    ("scaron", '\u{0161}'),
    ("Yuml", '\u{0178}'),
    ("fnof", '\u{0192}'),
    ("circ", '\u{02C6}'),
    ("tilde", '\u{02DC}'),
    ("ensp", '\u{2002}'),
    ("emsp", '\u{2003}'),
    ("thinsp", '\u{2009}'),
    ("zwnj", '\u{200C}'),
    ("zwj", '\u{200D}'),
    ("ndash", '\u{2013}'),
    ("mdash", '\u{2014}'),
    ("lsquo", '\u{2018}'),
    ("rsquo", '\u{2019}'),
    ("sbquo", '\u{201A}'),
    ("ldquo", '\u{201C}'),
    ("rdquo", '\u{201D}'),
    ("bdquo", '\u{201E}'),
    ("dagger", '\u{2020}'),
    ("Dagger", '\u{2021}'),
    ("bull", '\u{2022}'),
    ("hellip", '\u{2026}'),
    ("permil", '\u{2030}'),
    ("prime", '\u{2032}'),
    ("lsaquo", '\u{2039}'),
    ("rsaquo", '\u{203A}'),
    ("euro", '\u{20AC}'),
    ("trade", '\u{2122}'),
    ("larr", '\u{2190}'),
    ("rarr", '\u{2192}'),
    ("minus", '\u{2212}'),
];

/// The longest name [`name_key`] keys, in bytes (a `u64`'s); every name in [`NAMED`] is shorter.
const NAME_MAX: usize = 8;
/// Slots of [`NAMED_INDEX`]: a power of two, under half of them filled.
const INDEX_SLOTS: usize = 512;

/// A name's bytes as a number (zero for no name, or one too long to be in [`NAMED`]).
const fn name_key(name: &[u8]) -> u64 {
    if name.len() > NAME_MAX {
        return 0;
    }
    let mut key = 0u64;
    let mut i = name.len();
    while i > 0 {
        i -= 1;
        key = key << 8 | name[i] as u64;
    }
    key
}

/// Where a name's search in [`NAMED_INDEX`] starts.
const fn first_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - INDEX_SLOTS.trailing_zeros())) as usize
}

/// [`NAMED`] by [`name_key`], open addressing from [`first_slot`]: a key and its character, or a
/// zero key for an empty slot. Looking a name up is a multiplication and one or two compares, where a
/// `match` on the name compared it with every name of its length.
const NAMED_INDEX: [(u64, char); INDEX_SLOTS] = {
    let mut index = [(0u64, '\0'); INDEX_SLOTS];
    let mut i = 0;
    while i < NAMED.len() {
        let key = name_key(NAMED[i].0.as_bytes());
        assert!(key != 0, "a name of NAMED is longer than NAME_MAX");
        let mut slot = first_slot(key);
        while index[slot].0 != 0 {
            assert!(index[slot].0 != key, "a name is twice in NAMED");
            slot = (slot + 1) % INDEX_SLOTS;
        }
        index[slot] = (key, NAMED[i].1);
        i += 1;
    }
    index
};

/// The character a named reference stands for, if it is one of [`NAMED`].
fn named(name: &str) -> Option<char> {
    let key = name_key(name.as_bytes());
    if key == 0 {
        return None;
    }
    let mut slot = first_slot(key);
    loop {
        let (found, c) = *NAMED_INDEX.get(slot)?;
        if found == key {
            return Some(c);
        }
        if found == 0 {
            return None;
        }
        slot = (slot + 1) % INDEX_SLOTS;
    }
}

#[cfg(test)]
mod tests;
