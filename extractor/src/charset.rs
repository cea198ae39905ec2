//! Turning raw bytes into text: BOM, HTTP header, `<meta charset>` prescan, then detection.
//!
//! The order follows the HTML standard's encoding sniffing, cut down to what a crawler archive needs.
//! A byte-order mark wins, then the `charset` parameter of the `Content-Type` header, then a
//! `<meta charset>` or `<meta http-equiv="Content-Type">` found in the first [`PRESCAN_BYTES`] bytes.
//! A declared encoding the bytes do not fit is not trusted: a declared UTF-8 that does not decode
//! cleanly goes to `chardetng`, a declared legacy encoding gives way to valid non-ASCII UTF-8 or to
//! a detected encoding that decodes the bytes without errors, and a warning records the
//! disagreement. With no declaration at all, `chardetng` guesses (with the URL's
//! top-level domain as a hint when one is known).

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use crate::Warning;

/// How many leading bytes the `<meta charset>` prescan looks at.
pub const PRESCAN_BYTES: usize = 4096;

/// Text decoded from raw bytes, with the encoding used and how it was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<'a> {
    /// The decoded text (malformed sequences replaced by U+FFFD), borrowed when the bytes were UTF-8.
    pub text: Cow<'a, str>,
    /// The WHATWG name of the encoding used, e.g. `UTF-8` or `windows-1252`.
    pub encoding: &'static str,
    /// Which rule chose the encoding: `bom`, `http-header`, `meta`, `detected` or `default`.
    pub provenance: &'static str,
}

/// Decodes `raw` following BOM, header, meta prescan and detection, pushing warnings for doubtful cases.
pub fn decode<'a>(
    raw: &'a [u8],
    content_type: Option<&str>,
    tld: Option<&[u8]>,
    warnings: &mut Vec<Warning>,
) -> Decoded<'a> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(raw) {
        let (text, _) = encoding.decode_without_bom_handling(&raw[bom_len..]);
        return Decoded { text, encoding: encoding.name(), provenance: "bom" };
    }
    let declared = content_type
        .and_then(charset_param)
        .and_then(|label| Encoding::for_label(label.as_bytes()))
        .map(|e| (e, "http-header"))
        .or_else(|| prescan_meta(&raw[..raw.len().min(PRESCAN_BYTES)]).map(|e| (e, "meta")));
    if let Some((encoding, provenance)) = declared {
        // A page cannot really be UTF-16 once the BOM check failed; the standard maps it to UTF-8.
        let encoding = if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            UTF_8
        } else {
            encoding
        };
        if encoding == UTF_8 {
            match std::str::from_utf8(raw) {
                Ok(text) => {
                    return Decoded { text: Cow::Borrowed(text), encoding: "UTF-8", provenance };
                }
                Err(error)
                    if error.error_len().is_none() && error.valid_up_to() + 4 > raw.len() =>
                {
                    // Only the last character is cut short: the page was truncated, not mislabelled.
                    let (text, _) = UTF_8.decode_without_bom_handling(raw);
                    return Decoded { text, encoding: "UTF-8", provenance };
                }
                Err(_) => {
                    let detected = detect(raw, tld);
                    if detected != UTF_8 {
                        warnings.push(Warning::CharsetMismatch {
                            declared: "UTF-8",
                            used: detected.name(),
                        });
                        let (text, _) = detected.decode_without_bom_handling(raw);
                        return Decoded { text, encoding: detected.name(), provenance: "detected" };
                    }
                    warnings.push(Warning::MalformedBytes { encoding: "UTF-8" });
                    let (text, _) = UTF_8.decode_without_bom_handling(raw);
                    return Decoded { text, encoding: "UTF-8", provenance };
                }
            }
        }
        // A page declared as a legacy encoding that is in fact valid non-ASCII UTF-8 is common
        // (templates copied between sites); UTF-8 validity is a strong signal, so it wins.
        if !raw.is_ascii() && std::str::from_utf8(raw).is_ok() {
            warnings.push(Warning::CharsetMismatch { declared: encoding.name(), used: "UTF-8" });
            let text = String::from_utf8_lossy(raw);
            return Decoded { text, encoding: "UTF-8", provenance: "detected" };
        }
        let (text, had_errors) = encoding.decode_without_bom_handling(raw);
        if had_errors {
            // Bytes invalid in the declared encoding: a detected one that fits them wins.
            let detected = detect(raw, tld);
            if detected != encoding {
                let (other, other_errors) = detected.decode_without_bom_handling(raw);
                if !other_errors {
                    warnings.push(Warning::CharsetMismatch {
                        declared: encoding.name(),
                        used: detected.name(),
                    });
                    return Decoded {
                        text: other,
                        encoding: detected.name(),
                        provenance: "detected",
                    };
                }
            }
            warnings.push(Warning::MalformedBytes { encoding: encoding.name() });
        }
        return Decoded { text, encoding: encoding.name(), provenance };
    }
    if let Ok(text) = std::str::from_utf8(raw) {
        let provenance = if raw.is_ascii() { "default" } else { "detected" };
        return Decoded { text: Cow::Borrowed(text), encoding: "UTF-8", provenance };
    }
    let detected = detect(raw, tld);
    let (text, _) = detected.decode_without_bom_handling(raw);
    Decoded { text, encoding: detected.name(), provenance: "detected" }
}

/// Guesses the encoding of bytes that are not valid UTF-8 with `chardetng`.
fn detect(raw: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // Feeding the first megabyte is plenty for a guess and bounds the cost.
    detector.feed(&raw[..raw.len().min(1 << 20)], true);
    let guess = detector.guess(tld, chardetng::Utf8Detection::Deny);
    if guess == encoding_rs::REPLACEMENT { WINDOWS_1252 } else { guess }
}

/// The `charset=` parameter of a `Content-Type` value, without quotes.
fn charset_param(content_type: &str) -> Option<&str> {
    let lower_start = content_type.to_ascii_lowercase().find("charset")?;
    let rest = content_type[lower_start + "charset".len()..].trim_start();
    let rest = rest.strip_prefix('=')?.trim_start();
    let rest = rest.trim_start_matches(['"', '\'']);
    let end = rest.find(|c: char| c == ';' || c == '"' || c == '\'' || c.is_whitespace());
    let value = &rest[..end.unwrap_or(rest.len())];
    (!value.is_empty()).then_some(value)
}

/// Finds a charset declared by a `<meta>` tag in the first bytes of a page.
///
/// This is a simplified version of the standard's prescan: it looks at each `<meta` tag's
/// attributes for `charset=` (either as its own attribute or inside a `content` value).
fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while let Some(offset) = find_ci(&head[pos..], b"<meta") {
        let start = pos + offset + 5;
        let end = head[start..].iter().position(|&b| b == b'>').map_or(head.len(), |e| start + e);
        let tag = &head[start..end];
        if let Some(c) = find_ci(tag, b"charset") {
            let mut rest = &tag[c + 7..];
            while let [b' ' | b'\t' | b'\n' | b'\r', tail @ ..] = rest {
                rest = tail;
            }
            if let [b'=', tail @ ..] = rest {
                let mut value = tail;
                while let [b' ' | b'"' | b'\'', tail @ ..] = value {
                    value = tail;
                }
                let len = value
                    .iter()
                    .position(|&b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
                    .unwrap_or(value.len());
                if let Some(encoding) = Encoding::for_label(&value[..len]) {
                    return Some(encoding);
                }
            }
        }
        pos = end;
    }
    None
}

/// Case-insensitive ASCII search of `needle` in `haystack`.
pub(crate) fn find_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return None;
    }
    let (lower, upper) = (needle[0].to_ascii_lowercase(), needle[0].to_ascii_uppercase());
    let last_start = haystack.len() - needle.len();
    let mut i = 0;
    while i <= last_start {
        // Jump to the next occurrence of the first byte, in either case, then compare the rest.
        i += memchr::memchr2(lower, upper, &haystack[i..=last_start])?;
        if haystack[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(
        raw: &[u8],
        content_type: Option<&str>,
    ) -> (String, &'static str, &'static str, usize) {
        let mut warnings = Vec::new();
        let decoded = decode(raw, content_type, None, &mut warnings);
        (decoded.text.into_owned(), decoded.encoding, decoded.provenance, warnings.len())
    }

    #[test]
    fn bom_wins_over_everything() {
        let raw = b"\xEF\xBB\xBF<meta charset=latin1>caf\xC3\xA9";
        let (text, encoding, provenance, _) = check(raw, Some("text/html; charset=koi8-r"));
        assert_eq!(
            (text.as_str(), encoding, provenance),
            ("<meta charset=latin1>café", "UTF-8", "bom")
        );
    }

    #[test]
    fn header_then_meta() {
        let raw = b"<meta charset=\"iso-8859-1\">caf\xE9";
        assert_eq!(check(raw, None).0, "<meta charset=\"iso-8859-1\">café");
        assert_eq!(check(raw, None).2, "meta");
        let raw = b"caf\xE9";
        assert_eq!(check(raw, Some("text/html; charset=\"windows-1252\"")).2, "http-header");
        let raw = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\xCF\xF0\xE8";
        assert_eq!(check(raw, None).1, "windows-1251");
    }

    #[test]
    fn wrong_declared_utf8_is_detected_with_a_warning() {
        let raw = "<meta charset=utf-8><p>Le café était très fréquenté à Paris.</p>".as_bytes();
        let latin1: Vec<u8> =
            String::from_utf8_lossy(raw).chars().map(|c| c as u32 as u8).collect();
        let (text, encoding, _, warnings) = check(&latin1, None);
        assert!(text.contains("café était très"), "{text}");
        assert_eq!((encoding, warnings), ("windows-1252", 1));
    }

    #[test]
    fn truncated_utf8_is_not_mislabelled() {
        let raw = "<meta charset=utf-8>café".as_bytes();
        let (_, encoding, _, warnings) = check(&raw[..raw.len() - 1], None);
        assert_eq!((encoding, warnings), ("UTF-8", 0));
    }

    #[test]
    fn charset_parameter_parsing() {
        assert_eq!(charset_param("text/html; Charset=\"UTF-8\""), Some("UTF-8"));
        assert_eq!(charset_param("text/html"), None);
        assert_eq!(charset_param("text/html; charset="), None);
    }
}
