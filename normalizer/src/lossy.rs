//! The lossy URL key: Media Cloud's `normalize_url` (mcmetadata, section 1.3), with its bugs fixed.
//!
//! Steps, in order: clean up and parse ([`crate::fix`]); unwrap archive.today, AMP cache and Google AMP
//! viewer links; rewrite YouTube links to one form; lower-case everything but YouTube ids; strip leading
//! host labels such as `www.`, `m.` and `news.`; drop the port when it is 80 or 443, the user info and the
//! fragment; write the scheme as `http`; normalise the path and query escapes; drop empty path segments
//! and AMP path markers; drop tracking parameters; sort the rest.

use url::{Host, Url};

use crate::{domain, fix, parts};

/// The dedup key of a URL: two URLs with the same key are taken to be the same story.
///
/// Returns `None` when the input is not a usable http(s) URL (another scheme, a relative reference,
/// an invalid host, more than 32 nested archive or AMP wrappers). The key is itself a valid URL, always `http://`, and applying `lossy_url` to it
/// returns it unchanged.
///
/// ```text
/// https://www.Example.com:443/News/Story.html?utm_source=x&b=2&a=1#top  ->  http://example.com/news/story.html?a=1&b=2
/// ```
pub fn lossy_url(url: &str) -> Option<String> {
    lossy_parts(url).map(|p| p.into_url())
}

/// The pieces of a lossy key, for callers that want one of them (the host, for [`crate::canonical_domain`]).
#[derive(Debug)]
pub(crate) struct LossyParts {
    pub(crate) host: String,
    port: Option<u16>,
    path: String,
    query: String,
}

impl LossyParts {
    /// The length of the key written out with this path.
    fn len_with_path(&self, path: &str) -> usize {
        let port = self.port.map_or(0, |p| 1 + p.to_string().len());
        let query = if self.query.is_empty() { 0 } else { 1 + self.query.len() };
        7 + self.host.len() + port + path.len() + query
    }

    fn into_url(self) -> String {
        let mut out =
            String::with_capacity(7 + self.host.len() + 6 + self.path.len() + 1 + self.query.len());
        out.push_str("http://");
        out.push_str(&self.host);
        if let Some(port) = self.port {
            out.push(':');
            out.push_str(&port.to_string());
        }
        out.push_str(&self.path);
        if !self.query.is_empty() {
            out.push('?');
            out.push_str(&self.query);
        }
        out
    }
}

/// Host labels stripped from the front of a host (Media Cloud's list, plus `mobile` and `amp`).
const STRIPPED_LABELS: &[&str] = &[
    "m", "mobile", "amp", "beta", "media", "data", "image", "www", "cdn", "topic", "article",
    "news", "archive", "blog", "video", "search", "preview", "login", "shop", "sport", "sports",
    "act", "donate", "press", "web", "photo", "photos",
];

/// The archive.today mirrors whose `/<x>/<id>/<url>` links are unwrapped.
const ARCHIVE_TODAY: &[&str] = &[
    "archive.is",
    "archive.ph",
    "archive.today",
    "archive.li",
    "archive.vn",
    "archive.fo",
    "archive.md",
];

/// The lossy key in pieces; `None` when the input is not a usable http(s) URL.
pub(crate) fn lossy_parts(raw: &str) -> Option<LossyParts> {
    let mut url = fix::parse_http(raw)?;
    // An unwrapped URL is always shorter than the key it came from; the cap only guards against a
    // cycle that no input is known to make.
    for _ in 0..32 {
        let (mut host, is_domain) = match url.host()? {
            Host::Domain(d) => (d.trim_matches('.').to_owned(), true),
            Host::Ipv4(ip) => (ip.to_string(), false),
            Host::Ipv6(ip) => (format!("[{ip}]"), false),
        };
        if host.is_empty() {
            return None;
        }
        let port = url.port().filter(|p| *p != 80 && *p != 443);
        if is_domain && let Some((path, query)) = youtube(&host, &url) {
            let host = "youtube.com".to_owned();
            let query = parts::clean_query(&query, &host, false, true);
            let path = parts::normalize_path(&path, false, false);
            return Some(LossyParts { host, port, path, query });
        }
        if is_domain {
            strip_labels(&mut host);
            if host.contains("pron") && host.ends_with(".podomatic.com") {
                // The reference folds these spam podcast hosts into one.
                host = "pronkpops.podomatic.com".to_owned();
            }
        }
        let mut path = parts::normalize_path(url.path(), true, false);
        let query = parts::clean_query(url.query().unwrap_or(""), &host, true, true);
        let key = LossyParts { host, port, path: String::new(), query };
        // Wrappers are recognised on the key's own pieces, so that a key that is still a wrapper (its
        // inner URL unusable) is treated the same way when it is normalised again.
        if is_domain
            && let Some(inner) =
                unwrap_wrapper(&key.host, &path, &key.query).and_then(|s| fix::parse_http(&s))
            && inner.as_str().len() < key.len_with_path(&path)
        {
            url = inner;
            continue;
        }
        parts::strip_amp_path(&mut path);
        return Some(LossyParts { path, ..key });
    }
    None
}

/// Strips leading labels from the list while the rest still has two labels and is not a public suffix.
///
/// Hosts under `r2.ly` keep their labels: that shortener puts the link id in the host.
fn strip_labels(host: &mut String) {
    if host == "r2.ly" || host.ends_with(".r2.ly") {
        return;
    }
    // Find where the kept host starts, then cut once.
    let mut start = 0;
    while let Some(dot) = host[start..].find('.') {
        let (label, rest) = (&host[start..start + dot], &host[start + dot + 1..]);
        let stays = !rest.contains('.') || rest.starts_with('.') || !is_stripped_label(label);
        if stays || domain::is_public_suffix(rest) {
            break;
        }
        start += dot + 1;
    }
    host.replace_range(..start, "");
}

/// `www`, `www2`, `news`, `blogs`, `123`: a listed label, optionally followed by digits or a plural `s`.
fn is_stripped_label(label: &str) -> bool {
    if !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    let base = label.trim_end_matches(|c: char| c.is_ascii_digit());
    if base.len() < label.len() {
        return STRIPPED_LABELS.contains(&base);
    }
    STRIPPED_LABELS.contains(&label)
        || label.strip_suffix('s').is_some_and(|b| b.len() > 1 && STRIPPED_LABELS.contains(&b))
}

/// The URL inside an archive.today, AMP cache or Google AMP viewer link, if this is one.
///
/// `host`, `path` and `query` are the key's (lower case, normalised, no empty segments).
fn unwrap_wrapper(host: &str, path: &str, query: &str) -> Option<String> {
    let bare = host.strip_prefix("www.").unwrap_or(host);
    let mut inner = if ARCHIVE_TODAY.contains(&bare) {
        // `/o/vWkgm/www.example.com/x`: one character, an id, then the original URL.
        let mut pieces = path.strip_prefix('/')?.splitn(3, '/');
        let (kind, id, rest) = (pieces.next()?, pieces.next()?, pieces.next()?);
        let alnum = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
        if kind.len() != 1 || !alnum(kind) || !alnum(id) || rest.is_empty() {
            return None;
        }
        rest.to_owned()
    } else {
        let rest = if host.ends_with(".cdn.ampproject.org") {
            path.strip_prefix("/c/").or_else(|| path.strip_prefix("/v/"))?
        } else if is_google_host(bare) {
            path.strip_prefix("/amp/")?
        } else {
            return None;
        };
        // `s/` marks an https origin.
        match rest.strip_prefix("s/") {
            Some(r) if !r.is_empty() => format!("https://{r}"),
            _ if !rest.is_empty() => format!("http://{rest}"),
            _ => return None,
        }
    };
    if !query.is_empty() {
        inner.push('?');
        inner.push_str(query);
    }
    Some(inner)
}

/// `google.com`, `google.co.uk`, `google.com.br`: Google's own hosts.
fn is_google_host(host: &str) -> bool {
    host.strip_prefix("google.").is_some_and(domain::is_public_suffix)
}

/// The path and query of the one YouTube form for this link, if it is a YouTube link.
fn youtube(host: &str, url: &Url) -> Option<(String, String)> {
    let on =
        |d: &str| host == d || (host.ends_with(d) && host[..host.len() - d.len()].ends_with('.'));
    let mut segments = url.path().split('/').filter(|s| !s.is_empty());
    let first = segments.next();
    let second = segments.next();
    // An id from the path goes into a query value, where `&` and `+` would mean something else.
    let watch = |id: &str| {
        Some(("/watch".to_owned(), format!("v={}", id.replace('&', "%26").replace('+', "%2B"))))
    };
    if on("youtu.be") {
        return first.and_then(watch);
    }
    if !on("youtube.com") && !on("youtube-nocookie.com") {
        return None;
    }
    let query = url.query().unwrap_or("");
    let kind = first.map(str::to_ascii_lowercase);
    match (kind.as_deref(), second) {
        (Some("watch"), None) => {
            let v = query.split('&').find_map(|p| {
                let (name, value) = p.split_once('=')?;
                (name.eq_ignore_ascii_case("v") && !value.is_empty()).then_some(value)
            });
            match v {
                Some(id) => watch(id),
                None => Some((url.path().to_owned(), query.to_owned())),
            }
        }
        (Some("embed" | "shorts" | "live" | "v"), Some(id)) => watch(id),
        // Channel and user pages drop their query (mcmetadata's user branch forgot to).
        (Some("channel" | "user"), Some(_)) => Some((url.path().to_owned(), String::new())),
        _ => Some((url.path().to_owned(), query.to_owned())),
    }
}

#[cfg(test)]
mod tests;
