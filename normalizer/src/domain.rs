//! Canonical domains (public-suffix aware), the non-news skip list, and public suffix helpers.
//!
//! The public suffix list is the `psl` crate's compiled copy, pinned by an exact version in the
//! workspace's Cargo.toml (see [`PUBLIC_SUFFIX_LIST_VERSION`]). Only the ICANN section counts, as
//! with Media Cloud's tldextract defaults: `foo.blogspot.com` has the suffix `com`, not the private
//! suffix `blogspot.com`.

use psl::{Psl as _, Type};
use url::Host;

use crate::{fix, lossy};

/// The public suffix list snapshot compiled into this crate: the exact version of the `psl` crate.
pub const PUBLIC_SUFFIX_LIST_VERSION: &str = "psl 2.1.247";

/// Hosts on blogging and hosting platforms where the subdomain is the publisher (from mcmetadata).
/// Each entry is looked for as a substring of the host, never of the path.
const PLATFORM_HOSTS: &[&str] = &[
    ".go.com",
    ".wordpress.com",
    ".blogspot.",
    ".livejournal.com",
    ".privet.ru",
    ".wikia.com",
    ".24open.ru",
    ".patch.com",
    ".tumblr.com",
    ".github.io",
    ".typepad.com",
    ".squarespace.com",
    ".substack.com",
    ".iheart.com",
    ".ampproject.org",
    ".mail.ru",
    ".wixsite.com",
    ".medium.com",
    ".free.fr",
    ".list-manage.com",
    ".over-blog.com",
    ".weebly.com",
    ".typeform.com",
    ".nationbuilder.com",
    ".tripod.com",
    ".insanejournal.com",
    ".cloudfront.net",
    ".wpengine.com",
    ".noblogs.org",
    ".formstack.com",
    ".altervista.org",
    ".home.blog",
    ".kinja.com",
    ".sagepub.com",
    ".ning.com",
    ".hypotheses.org",
    ".narod.ru",
    ".submittable.com",
    ".smalltownpapers.com",
    ".herokuapp.com",
    ".newsvine.com",
    ".newsmemory.com",
    ".beforeitsnews.com",
    ".jimdo.com",
    ".wickedlocal.com",
    ".radio.com",
    ".stackexchange.com",
    ".buzzsprout.com",
    ".appspot.com",
    ".simplecast.com",
    ".fc2.com",
    ".podomatic.com",
    ".azurewebsites.",
    ".sharepoint.com",
    ".windows.net",
    ".wix.com",
    ".googleblog.com",
    ".hubpages.com",
    ".gitlab.io",
    ".blogs.com",
    ".shinyapps.io",
];

/// High-volume domains that are not news (mcmetadata's `domain-skip-list.txt`, 19 entries).
const NON_NEWS_DOMAINS: &[&str] = &[
    "archive.org",
    "archive.ph",
    "booking.com",
    "etsy.com",
    "flickr.com",
    "goodreads.com",
    "iheart.com",
    "imdb.com",
    "instagram.com",
    "linkedin.com",
    "pinterest.com",
    "slideshare.net",
    "tiktok.com",
    "twitter.com",
    "whatsapp.com",
    "wikidata.org",
    "wikimedia.org",
    "wikipedia.org",
    "youtube.com",
];

/// The domain a URL's story is attributed to: usually the registrable domain, `bbc.co.uk` for
/// `https://news.bbc.co.uk/x`.
///
/// Follows mcmetadata's `canonical_domain`: IP hosts are returned as they are; hosts on blogging
/// platforms keep their subdomain (`someone.wordpress.com`); AMP cache hosts map back to the publisher.
/// The host is taken from [`crate::lossy_url`], so AMP and archive.today wrappers are already unwrapped.
/// Returns `None` when the input is not an http(s) URL or its host is a single label that is not a
/// known suffix (`http://localhost/`).
pub fn canonical_domain(url: &str) -> Option<String> {
    let parsed = fix::parse_http(url)?;
    match parsed.host()? {
        Host::Ipv4(ip) => return Some(ip.to_string()),
        Host::Ipv6(ip) => return Some(ip.to_string()),
        Host::Domain(_) => {}
    }
    let mut host = lossy::lossy_parts(url)?.host;
    if let Some(decoded) = host.strip_suffix(".cdn.ampproject.org").and_then(decode_amp_cache_label)
        && let Some(origin) = lossy::lossy_parts(&format!("http://{decoded}/"))
    {
        host = origin.host;
    }
    if PLATFORM_HOSTS.iter().any(|needle| host.contains(needle)) {
        return Some(host);
    }
    registrable_or_self(&host)
}

/// Whether a host (`www.youtube.com`) is, or is under, a domain known not to publish news.
pub fn is_non_news_domain(host: &str) -> bool {
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    NON_NEWS_DOMAINS.iter().any(|d| {
        host == *d || (host.ends_with(d) && host.as_bytes()[host.len() - d.len() - 1] == b'.')
    })
}

/// The registrable domain of a host, the host itself when it is a public suffix (`gov.cn`), or the
/// last two labels when its top-level domain is unknown (the public suffix list's default rule).
fn registrable_or_self(host: &str) -> Option<String> {
    if host.is_empty() {
        return None;
    }
    let suffix_len = match icann_suffix(host) {
        Some(len) => len,
        None if host.contains('.') => host.len() - host.rfind('.').map_or(0, |i| i + 1),
        None => return None,
    };
    if suffix_len >= host.len() {
        return Some(host.to_owned());
    }
    let before = &host[..host.len() - suffix_len - 1];
    let start = before.rfind('.').map_or(0, |i| i + 1);
    Some(host[start..].to_owned())
}

/// The byte length of the host's ICANN public suffix, if a rule of the list matches.
///
/// A match on a private rule is retried on that private suffix less its first label, which finds the
/// ICANN suffix beneath it (`s3.amazonaws.com` gives `com`).
pub(crate) fn icann_suffix(host: &str) -> Option<usize> {
    let mut tail = host;
    loop {
        let info = psl::List.find(tail.as_bytes().rsplit(|b| *b == b'.'));
        match info.typ {
            Some(Type::Icann) => return Some(info.len),
            Some(Type::Private) => {
                let private = &tail[tail.len() - info.len..];
                let dot = private.find('.')?;
                tail = &private[dot + 1..];
            }
            None => return None,
        }
    }
}

/// Whether a host is exactly an ICANN public suffix (`co.uk`, `gov.br`).
pub(crate) fn is_public_suffix(host: &str) -> bool {
    icann_suffix(host) == Some(host.len())
}

/// Decodes an AMP cache subdomain: `www-example-com` is `www.example.com`, `--` is a literal `-`.
fn decode_amp_cache_label(label: &str) -> Option<String> {
    if label.is_empty() || label.contains('.') || label.starts_with("xn--") {
        return None;
    }
    let mut out = String::with_capacity(label.len());
    let mut chars = label.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '-' {
            if chars.peek() == Some(&'-') {
                chars.next();
                out.push('-');
            } else {
                out.push('.');
            }
        } else {
            out.push(c);
        }
    }
    let out = out.trim_matches('.').to_owned();
    out.contains('.').then_some(out)
}

#[cfg(test)]
mod tests;
