//! Homepage and link-shortener detection (section 1.9 of the reference).

use crate::{fix, parts};

/// Well-known link shorteners and redirectors: general services, publishers' own short domains, and the
/// feed and archive redirectors the reference names. Sorted, so that it can be binary-searched.
///
/// Media Cloud's list has about 430 hostnames, mostly of services that closed around 2010; this one is
/// written afresh from the services and publisher short domains seen in news feeds today.
const SHORTENERS: &[&str] = &[
    "4sq.com",
    "aje.io",
    "amzn.to",
    "apne.ws",
    "archive.is",
    "archive.ph",
    "archive.today",
    "bbc.in",
    "bit.do",
    "bit.ly",
    "bitly.com",
    "bloom.bg",
    "buff.ly",
    "bzfd.it",
    "cbsn.ws",
    "cnb.cx",
    "cnet.co",
    "cnn.it",
    "cutt.ly",
    "db.tt",
    "dlvr.it",
    "econ.st",
    "engt.co",
    "fb.me",
    "feedproxy.google.com",
    "feeds.feedburner.com",
    "flip.it",
    "fxn.ws",
    "gizmo.do",
    "go.usa.gov",
    "goo.gl",
    "gu.com",
    "hill.cm",
    "ht.ly",
    "hubs.ly",
    "huff.to",
    "ift.tt",
    "ind.pn",
    "is.gd",
    "j.mp",
    "lat.ms",
    "lnkd.in",
    "n.pr",
    "nbcnews.to",
    "nyp.st",
    "nyti.ms",
    "on.ft.com",
    "on.wsj.com",
    "ow.ly",
    "po.st",
    "politi.co",
    "qr.ae",
    "rb.gy",
    "rebrand.ly",
    "reut.rs",
    "s.id",
    "shorturl.at",
    "snip.ly",
    "t.co",
    "t.ly",
    "tcrn.ch",
    "tgam.ca",
    "thebea.st",
    "ti.me",
    "tiny.cc",
    "tinyurl.com",
    "tr.im",
    "trib.al",
    "u.to",
    "usat.ly",
    "v.gd",
    "wapo.st",
    "wp.me",
    "wrd.cm",
    "x.co",
    "yhoo.it",
    "youtu.be",
];

/// Whether a URL goes through a link shortener (`https://bit.ly/3xYz`), so must be resolved by fetching.
///
/// True when the host (less `www.`) is a known shortener, or the URL has the typical short shape
/// `https://wapo.st/4FGH5Re3` (a host of 1 to 4 letters, a dot, 2 letters; a path of 3 to 12 letters or
/// digits; nothing else). A bare host with no path is never shortened.
pub fn is_shortened_url(url: &str) -> bool {
    let Some(parsed) = fix::parse_http(url) else {
        return false;
    };
    let path = parsed.path();
    if path == "/" {
        return false;
    }
    let host = parsed.host_str().unwrap_or("").trim_end_matches('.');
    let bare = host.strip_prefix("www.").unwrap_or(host);
    if SHORTENERS.binary_search(&bare).is_ok() {
        return true;
    }
    let plain = parsed.port().is_none()
        && parsed.username().is_empty()
        && parsed.password().is_none()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    plain && is_short_host(host) && is_short_path(path)
}

/// Whether a URL looks like a homepage or section front rather than an article.
///
/// Follows the backend's `is_homepage_url`: shortened URLs are not homepages (they must be resolved
/// first); a query left after tracking parameters are removed means not a homepage; otherwise the path
/// is empty, only slashes, or at most 18 characters of only lower-case or only upper-case letters,
/// `/`, `-` and `_` (`/en/`, `/world`, `/US`). Inputs that are not http(s) URLs are not homepages.
pub fn is_homepage_url(url: &str) -> bool {
    if is_shortened_url(url) {
        return false;
    }
    let Some(parsed) = fix::parse_http(url) else {
        return false;
    };
    let host = parsed.host_str().unwrap_or("");
    if !parts::clean_query(parsed.query().unwrap_or(""), host, false, false).is_empty() {
        return false;
    }
    let path = parsed.path();
    path.bytes().all(|b| b == b'/')
        || is_section_path(path, |b| b.is_ascii_lowercase())
        || is_section_path(path, |b| b.is_ascii_uppercase())
}

/// `^[a-z/\-_]{1,18}/?$` with the letter class given by `letter`.
fn is_section_path(path: &str, letter: impl Fn(u8) -> bool) -> bool {
    let b = path.as_bytes();
    let in_class = |c: &u8| letter(*c) || matches!(c, b'/' | b'-' | b'_');
    let body = if b.len() == 19 && b[18] == b'/' { &b[..18] } else { b };
    !body.is_empty() && body.len() <= 18 && body.iter().all(in_class)
}

/// `[a-z]{1,4}\.[a-z]{2}`, any case.
fn is_short_host(host: &str) -> bool {
    match host.split_once('.') {
        Some((name, tld)) => {
            (1..=4).contains(&name.len())
                && name.bytes().all(|b| b.is_ascii_alphabetic())
                && tld.len() == 2
                && tld.bytes().all(|b| b.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// `/` then 3 to 12 letters or digits, then an optional `/`.
fn is_short_path(path: &str) -> bool {
    let body = path.strip_prefix('/').unwrap_or(path);
    let body = body.strip_suffix('/').unwrap_or(body);
    (3..=12).contains(&body.len()) && body.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests;
