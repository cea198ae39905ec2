//! Percent-encoding normalisation of one path segment or one query key or value, built to be a fixed point.
//!
//! The rules follow RFC 3986 section 6.2.2 with two practical additions taken from `url_normalize`:
//! characters that mean the same thing encoded or not in that component are decoded, and non-ASCII text is
//! normalised to NFC (and optionally lower-cased) before it is encoded again as upper-case UTF-8 escapes.
//! Characters that change the meaning of the component (`/`, `?`, `#`, `%`, and `&`, `=`, `+` in a query)
//! keep their escapes, which is where this differs from `url_normalize` (it decodes `%2F` and `%23`).
//!
//! The input is always text that the `url` crate has already serialised, so every literal ASCII character
//! in it is one the `url` crate leaves alone; decoding only to such characters keeps the output stable
//! when it is parsed and normalised again.

use crate::fold::NFC;

/// Which URL component a piece of text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// One path segment (never contains a literal `/`).
    Path,
    /// One query parameter name or value (never contains a literal `&` or `#`).
    Query,
}

/// How to normalise a component.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    /// The component the text comes from.
    pub(crate) part: Part,
    /// Lower-case the decoded text (the lossy key does, the canonical URL does not).
    pub(crate) lowercase: bool,
    /// Read a literal `+` as a space and write it as `%20` (form encoding, query only).
    pub(crate) plus_is_space: bool,
}

/// Appends the normalised form of `input` to `out`.
pub(crate) fn normalize_into(input: &str, style: Style, out: &mut String) {
    let bytes = input.as_bytes();
    // A run is a stretch of text characters (unreserved ASCII or non-ASCII, literal or escaped) that is
    // normalised as a whole, so that a base letter and a following combining mark can compose.
    let mut run_start: Option<usize> = None;
    let mut run_non_ascii = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (value, width) = if b == b'%' {
            match hex_pair(bytes, i + 1) {
                Some(v) => (Some(v), 3),
                None => (None, 1),
            }
        } else {
            (Some(b), 1)
        };
        match value {
            Some(v) if v >= 0x80 || is_unreserved(v) => {
                if run_start.is_none() {
                    run_start = Some(i);
                }
                run_non_ascii |= v >= 0x80;
            }
            _ => {
                if let Some(start) = run_start.take() {
                    flush_run(&bytes[start..i], run_non_ascii, style, out);
                    run_non_ascii = false;
                }
                match value {
                    // A `%` that starts no escape is itself escaped.
                    None => out.push_str("%25"),
                    Some(v) if width == 3 => {
                        if decodes_to_literal(style.part, v) {
                            out.push(char::from(v));
                        } else {
                            push_escape(out, v);
                        }
                    }
                    Some(b'+') if style.plus_is_space => out.push_str("%20"),
                    Some(v) if must_escape(style.part, v) => push_escape(out, v),
                    Some(v) => out.push(char::from(v)),
                }
            }
        }
        i += width;
    }
    if let Some(start) = run_start {
        flush_run(&bytes[start..], run_non_ascii, style, out);
    }
}

/// Unreserved characters in the sense of RFC 3986: never need an escape, always safe to decode.
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Whether an escaped reserved ASCII character is decoded in this component.
fn decodes_to_literal(part: Part, b: u8) -> bool {
    match part {
        // Sub-delimiters, `:` and `@` are legal in a path segment and the `url` crate leaves them alone.
        Part::Path => matches!(
            b,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
        ),
        // In a query `&`, `=`, `+`, `#`, `%` and `'` keep their escapes; the `url` crate escapes `'` itself.
        Part::Query => matches!(
            b,
            b'!' | b'$'
                | b'('
                | b')'
                | b'*'
                | b','
                | b'/'
                | b':'
                | b';'
                | b'?'
                | b'@'
                | b'['
                | b']'
        ),
    }
}

/// Literal ASCII that the `url` crate escapes in this component (its WHATWG percent-encode sets).
fn must_escape(part: Part, b: u8) -> bool {
    b < 0x20
        || b == 0x7f
        || match part {
            Part::Path => matches!(b, b' ' | b'"' | b'#' | b'<' | b'>' | b'?' | b'`' | b'{' | b'}'),
            Part::Query => matches!(b, b' ' | b'"' | b'#' | b'<' | b'>' | b'\''),
        }
}

fn hex_pair(bytes: &[u8], at: usize) -> Option<u8> {
    let hi = hex_value(*bytes.get(at)?)?;
    let lo = hex_value(*bytes.get(at + 1)?)?;
    Some(hi << 4 | lo)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn push_escape(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0x0f)]));
}

/// Decodes a run's escapes into raw bytes.
fn decode_run(run: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(run.len());
    let mut i = 0;
    while i < run.len() {
        if run[i] == b'%'
            && let Some(v) = hex_pair(run, i + 1)
        {
            raw.push(v);
            i += 3;
        } else {
            raw.push(run[i]);
            i += 1;
        }
    }
    raw
}

fn flush_run(run: &[u8], non_ascii: bool, style: Style, out: &mut String) {
    if !non_ascii {
        // Fast path: every escape in an ASCII run is an unreserved character, so decode it.
        let mut i = 0;
        while i < run.len() {
            let (b, width) = match run[i] {
                b'%' => (hex_pair(run, i + 1).unwrap_or(b'%'), 3),
                b => (b, 1),
            };
            out.push(char::from(if style.lowercase { b.to_ascii_lowercase() } else { b }));
            i += width;
        }
        return;
    }
    let raw = decode_run(run);
    match std::str::from_utf8(&raw) {
        Ok(text) => {
            let folded = if style.lowercase {
                NFC.normalize(&text.to_lowercase()).into_owned()
            } else {
                NFC.normalize(text).into_owned()
            };
            for c in folded.chars() {
                // Normalisation can produce reserved ASCII (U+037E is `;` in NFC); it is written the way
                // an escape of it would be written, so that the output stays a fixed point.
                if c.is_ascii()
                    && (is_unreserved(c as u8) || decodes_to_literal(style.part, c as u8))
                {
                    out.push(c);
                } else {
                    let mut buf = [0u8; 4];
                    for &b in c.encode_utf8(&mut buf).as_bytes() {
                        push_escape(out, b);
                    }
                }
            }
        }
        // Bytes that are not UTF-8 (a Latin-1 escape, say) stay as they are, escaped.
        Err(_) => {
            for b in raw {
                if b.is_ascii() {
                    out.push(char::from(if style.lowercase { b.to_ascii_lowercase() } else { b }));
                } else {
                    push_escape(out, b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
