//! The canonical (non-lossy) URL and the feed-URL comparison key.

use url::Host;

use crate::{fix, parts};

/// A clean, fetchable form of a URL that still names the same resource.
///
/// This is the backend's `normalize_url` (section 1.5 of the reference): `fix_common_url_mistakes`;
/// scheme and host lower-cased; IDNA hosts in punycode; default port, user info and fragment dropped;
/// dot segments resolved and empty segments dropped; escapes normalised (unreserved characters decoded,
/// hex in upper case, non-ASCII encoded); tracking parameters removed, matching names in any case.
/// Scheme, `www.`, the case of path and query and the order of parameters are kept.
/// Returns `None` when the input is not an http(s) URL. Applying it to its own output changes nothing.
///
/// ```text
/// https://www.facebook.com/BerkmanCenter?ref=br_tf  ->  https://www.facebook.com/BerkmanCenter
/// ```
pub fn canonical_url(url: &str) -> Option<String> {
    let parsed = fix::parse_http(url)?;
    let host = match parsed.host()? {
        Host::Domain(d) => d.trim_matches('.').to_owned(),
        Host::Ipv4(ip) => ip.to_string(),
        Host::Ipv6(ip) => format!("[{ip}]"),
    };
    let path = parts::normalize_path(parsed.path(), false, false);
    let query = parts::clean_query(parsed.query().unwrap_or(""), &host, false, false);
    let mut out = String::with_capacity(8 + host.len() + path.len() + query.len() + 8);
    out.push_str(parsed.scheme());
    out.push_str("://");
    out.push_str(&host);
    if let Some(port) = parsed.port() {
        out.push(':');
        out.push_str(&port.to_string());
    }
    out.push_str(&path);
    if !query.is_empty() {
        out.push('?');
        out.push_str(&query);
    }
    Some(out)
}

/// The key under which two feed URLs are the same feed (mcmetadata `feeds.normalize_url`, section 1.10).
///
/// Everything lower-cased; `https` written `http`; the default port dropped; leading `www.` labels
/// dropped; trailing slashes of the path dropped; query parameters sorted; the fragment kept.
/// Returns `None` when the input is not an http(s) URL. Applying it to its own output changes nothing.
///
/// ```text
/// https://www.peoplesdailyng.com/feed  and  http://peoplesdailyng.com/feed/  ->  http://peoplesdailyng.com/feed
/// ```
pub fn feed_url_key(url: &str) -> Option<String> {
    let parsed = fix::parse_http(url)?;
    let mut host = match parsed.host()? {
        Host::Domain(d) => d.trim_matches('.'),
        _ => parsed.host_str()?,
    };
    while let Some(rest) = host.strip_prefix("www.").filter(|r| r.contains('.')) {
        host = rest;
    }
    let mut out = String::with_capacity(parsed.as_str().len());
    out.push_str("http://");
    out.push_str(host);
    // The key is http, so port 80 is the default there whatever the scheme was.
    if let Some(port) = parsed.port().filter(|p| *p != 80) {
        out.push(':');
        out.push_str(&port.to_string());
    }
    out.push_str(&parsed.path().trim_end_matches('/').to_ascii_lowercase());
    if let Some(query) = parsed.query() {
        let lower = query.to_ascii_lowercase();
        let mut pieces: Vec<&str> = lower.split('&').filter(|p| !p.is_empty()).collect();
        pieces.sort_unstable();
        if !pieces.is_empty() {
            out.push('?');
            out.push_str(&pieces.join("&"));
        }
    }
    if let Some(fragment) = parsed.fragment().filter(|f| !f.is_empty()) {
        out.push('#');
        out.push_str(&fragment.to_ascii_lowercase());
    }
    Some(out)
}

#[cfg(test)]
mod tests;
