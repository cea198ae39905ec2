//! The shared pre-step of every URL function: Media Cloud's `fix_common_url_mistakes`, then parsing.
//!
//! The reference runs eight regular expressions over the string (section 1.1).
//! Here the ones that the `url` crate's WHATWG parser already covers (an empty port, a missing `/` before
//! `?`, spaces) are left to the parser, and the rest are done by hand at the start of the string only.

use url::Url;

/// Cleans up a raw URL string and parses it; `None` unless it is an http or https URL with a host.
///
/// A string without a scheme (`www.example.com/a`) is read as `http://`; a string with another scheme
/// (`ftp:`, `mailto:`, `javascript:`) or a relative reference (`/a/b`, `?q`, `#x`) is refused.
pub(crate) fn parse_http(raw: &str) -> Option<Url> {
    let prepared = prepare(raw)?;
    let url = Url::parse(&prepared).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    match url.host()? {
        url::Host::Domain(d) if d.trim_matches('.').is_empty() => None,
        _ => Some(url),
    }
}

/// Applies `fix_common_url_mistakes` and makes sure the string starts with `http://` or `https://`.
pub(crate) fn prepare(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return None;
    }
    // Backslashes become slashes everywhere, as in the reference (step 5).
    let mut s =
        if trimmed.contains('\\') { trimmed.replace('\\', "/") } else { trimmed.to_owned() };
    // Scheme-relative `//host/path` is read as http (step 4).
    if s.starts_with("//") {
        s.insert_str(0, "http:");
    }
    // `http:/www.x` gets its second slash (step 3).
    if let Some(n) = scheme_single_slash(&s) {
        s.insert(n, '/');
    }
    // `http://http://x`, `http://https//x` lose the inner scheme (step 2), repeated so that the result
    // is a fixed point (the reference's single regex pass leaves `http://http://x` from three copies).
    if let Some(start) = http_prefix_len(&s) {
        let mut end = start;
        while let Some(n) = doubled_scheme_len(&s[end..]) {
            end += n;
        }
        s.replace_range(start..end, "");
    }
    match scheme_of(&s) {
        Scheme::Http => Some(s),
        Scheme::Other => None,
        Scheme::Missing if s.starts_with(['/', '?', '#', '.', ':']) => None,
        Scheme::Missing => {
            s.insert_str(0, "http://");
            Some(s)
        }
    }
}

/// The length of a leading `http://` or `https://` (any case).
fn http_prefix_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() >= 7 && b[..7].eq_ignore_ascii_case(b"http://") {
        Some(7)
    } else if b.len() >= 8 && b[..8].eq_ignore_ascii_case(b"https://") {
        Some(8)
    } else {
        None
    }
}

/// The length of a leading `https?:?//` (any case): a repeated scheme.
fn doubled_scheme_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() < 4 || !b[..4].eq_ignore_ascii_case(b"http") {
        return None;
    }
    let mut i = 4;
    if b.get(i).is_some_and(|c| c.eq_ignore_ascii_case(&b's')) {
        i += 1;
    }
    if b.get(i) == Some(&b':') {
        i += 1;
    }
    (b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/')).then_some(i + 2)
}

/// Where to insert the missing slash in `http:/x` (`x` a word character), if anywhere.
fn scheme_single_slash(s: &str) -> Option<usize> {
    let lower_start = s.get(..6)?.to_ascii_lowercase();
    let n = if lower_start == "http:/" {
        6
    } else if lower_start == "https:" && s.get(6..7) == Some("/") {
        7
    } else {
        return None;
    };
    let next = s[n..].chars().next()?;
    (next.is_alphanumeric() || next == '_').then_some(n)
}

enum Scheme {
    Http,
    Other,
    Missing,
}

fn scheme_of(s: &str) -> Scheme {
    let Some(colon) = s.find(':') else {
        return Scheme::Missing;
    };
    let name = &s[..colon];
    let mut chars = name.bytes();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !valid {
        return Scheme::Missing;
    }
    if name.eq_ignore_ascii_case("http") || name.eq_ignore_ascii_case("https") {
        return Scheme::Http;
    }
    let rest = &s[colon + 1..];
    if rest.starts_with("//") {
        return Scheme::Other;
    }
    // `example.com:8080/x` and `localhost:80` are a host and a port, not a scheme.
    if name.contains('.') || rest.starts_with(|c: char| c.is_ascii_digit()) {
        return Scheme::Missing;
    }
    Scheme::Other
}

#[cfg(test)]
mod tests;
