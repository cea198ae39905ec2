//! Path and query assembly shared by the lossy key, the canonical URL and homepage detection.

use crate::params::{self, Param};
use crate::percent::{self, Part, Style};

/// Normalises a serialised path: empty segments dropped, escapes normalised, `/` when nothing is left.
///
/// A trailing slash is kept. With `strip_amp`, AMP renditions are folded onto the article path:
/// a last segment `amp` (`/story/amp` becomes `/story/`), a first segment `amp` followed by more
/// (`/amp/story` becomes `/story`), and an `.amp` extension (`/story.amp`, `/story.amp.html`).
pub(crate) fn normalize_path(raw: &str, lowercase: bool, strip_amp: bool) -> String {
    let style = Style { part: Part::Path, lowercase, plus_is_space: false };
    let mut body = String::with_capacity(raw.len() + 8);
    let trailing = raw.ends_with('/');
    for segment in raw.split('/').filter(|s| !s.is_empty()) {
        let mark = body.len();
        body.push('/');
        percent::normalize_into(segment, style, &mut body);
        if body.len() == mark + 1 {
            body.truncate(mark);
        }
    }
    if body.is_empty() || trailing {
        body.push('/');
    }
    if strip_amp {
        strip_amp_path(&mut body);
    }
    body
}

/// Folds AMP path markers of a normalised path (see [`normalize_path`]) onto the article path.
pub(crate) fn strip_amp_path(path: &mut String) {
    let mut trailing = path.ends_with('/');
    if trailing {
        path.pop();
    }
    strip_amp_segments(path, &mut trailing);
    if path.is_empty() || trailing {
        path.push('/');
    }
}

fn strip_amp_segments(body: &mut String, trailing: &mut bool) {
    loop {
        let Some(last_start) = body.rfind('/') else { return };
        let last = &body[last_start + 1..];
        if last == "amp" {
            body.truncate(last_start);
            *trailing = true;
        } else if let Some(stem) = last.strip_suffix(".amp").filter(|s| !s.is_empty()) {
            let end = last_start + 1 + stem.len();
            body.truncate(end);
        } else if let Some(stem) = last.strip_suffix(".amp.html").filter(|s| !s.is_empty()) {
            let at = last_start + 1 + stem.len();
            body.replace_range(at..at + 4, "");
        } else if body.starts_with("/amp/") {
            body.replace_range(..4, "");
        } else {
            return;
        }
    }
}

/// Parses and normalises a serialised query into parameters, in their original order.
pub(crate) fn parse_query(raw: &str, lowercase: bool, plus_is_space: bool) -> Vec<Param> {
    let style = Style { part: Part::Query, lowercase, plus_is_space };
    let mut params = Vec::new();
    for piece in raw.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = match piece.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (piece, None),
        };
        let mut normalized_name = String::with_capacity(name.len());
        percent::normalize_into(name, style, &mut normalized_name);
        let normalized_value = value.map(|v| {
            let mut out = String::with_capacity(v.len());
            percent::normalize_into(v, style, &mut out);
            out
        });
        params.push(Param { name: normalized_name, value: normalized_value });
    }
    params
}

/// Normalises a query: tracking parameters removed, `a=` written `a`; no leading `?`.
///
/// With `lossy`, parameters are sorted and a `+` is read as the space it means in form encoding
/// (written `%20`); otherwise their order and their `+` are kept.
pub(crate) fn clean_query(raw: &str, host: &str, lowercase: bool, lossy: bool) -> String {
    let mut params = parse_query(raw, lowercase, lossy);
    params::remove_tracking(&mut params, host);
    let mut rendered: Vec<String> = params
        .into_iter()
        .map(|p| match p.value {
            Some(v) if !v.is_empty() => {
                let mut s = p.name;
                s.push('=');
                s.push_str(&v);
                s
            }
            _ => p.name,
        })
        .collect();
    if lossy {
        rendered.sort_unstable();
    }
    rendered.join("&")
}

#[cfg(test)]
mod tests;
