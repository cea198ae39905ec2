//! The crawler's errors, in one place: why a fetch produced no response ([`FetchError`]), why a
//! body is not a feed ([`NotAFeed`]) or a sitemap ([`NotASitemap`]), why a gzip body cannot be used
//! ([`GunzipError`]), and the address policy's refusals ([`BadResolveRule`], [`Refused`]).
//!
//! Each is also re-exported from the module whose functions return it (`fetch::FetchError`,
//! `feed::NotAFeed`, `sitemap::NotASitemap`, `sitemap::GunzipError`, `net::BadResolveRule`,
//! `net::Refused`), where callers already name it. They stay separate types rather than one enum:
//! each function fails in its own few ways, and callers match on those.

use std::time::Duration;

use url::Url;

// Fetching (`fetch`, `client`).

/// Why a fetch produced no response.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The URL is not http(s) or has no host.
    #[error("{url} is not an http(s) URL")]
    NotHttp {
        /// The URL.
        url: String,
    },
    /// The host is, or only resolves to, an address the policy refuses.
    #[error("refused to connect to {url}: {reason}")]
    Refused {
        /// The URL.
        url: Url,
        /// Which address and why.
        reason: String,
    },
    /// The host name does not resolve.
    #[error("cannot resolve the host of {url}")]
    Dns {
        /// The URL.
        url: Url,
        /// The resolver's error.
        #[source]
        source: reqwest::Error,
    },
    /// Connecting failed (refused, reset, TLS).
    #[error("cannot connect to {url}")]
    Connect {
        /// The URL.
        url: Url,
        /// The client's error.
        #[source]
        source: reqwest::Error,
    },
    /// A time limit passed.
    #[error("{url}: {phase} timeout")]
    Timeout {
        /// The URL.
        url: Url,
        /// Which limit: `connect`, `first byte`, `idle` or `total`.
        phase: &'static str,
    },
    /// More redirects than allowed.
    #[error("{url}: too many redirects (more than {limit})")]
    TooManyRedirects {
        /// The URL first asked for.
        url: Url,
        /// The limit.
        limit: usize,
    },
    /// A redirect led back to a URL already visited.
    #[error("{url}: redirect loop through {repeated}")]
    RedirectLoop {
        /// The URL first asked for.
        url: Url,
        /// The URL seen twice.
        repeated: String,
    },
    /// The body is larger than allowed.
    #[error("{url}: body larger than {limit} bytes")]
    TooLarge {
        /// The URL.
        url: Url,
        /// The limit that was passed.
        limit: usize,
    },
    /// The content encoding could not be undone.
    #[error("{url}: bad {encoding} body: {reason}")]
    BadEncoding {
        /// The URL.
        url: Url,
        /// The encoding.
        encoding: String,
        /// What went wrong.
        reason: String,
    },
    /// The polite layer refused the request (robots.txt disallows it).
    #[error("{url}: {reason}")]
    Denied {
        /// The URL.
        url: Url,
        /// Why, for people: `disallowed by robots.txt`.
        reason: String,
    },
    /// The polite layer held the request back: the host's robots.txt cannot be read now (a 5xx,
    /// a 429 or no answer), which RFC 9309 §2.3.1.4 makes a full disallow for as long as it lasts.
    /// Temporary: the request may be made once robots.txt can be read, asked for again in
    /// `retry_in`.
    #[error("{url}: robots.txt unreachable ({reason}); asked for again in {}", seconds(*retry_in))]
    RobotsUnreachable {
        /// The URL.
        url: Url,
        /// What went wrong with robots.txt: `HTTP 503`, `connection error`, `connect timeout`.
        reason: String,
        /// When robots.txt will be asked for again.
        retry_in: Duration,
    },
    /// The caller's redirect check declined to follow a redirect to `url` (the page is archived
    /// already, or being fetched elsewhere); nothing was requested from `url`.
    #[error("{url}: redirect not followed: {reason}")]
    Declined {
        /// The redirect's target.
        url: Url,
        /// Why, for people.
        reason: String,
    },
    /// Any other failure of the exchange.
    #[error("{url}: request failed")]
    Http {
        /// The URL.
        url: Url,
        /// The client's error.
        #[source]
        source: reqwest::Error,
    },
}

impl FetchError {
    /// A short status for people, as stored in a feed's `last_status`.
    pub fn status(&self) -> String {
        match self {
            FetchError::NotHttp { .. } => "bad URL".to_owned(),
            FetchError::Refused { .. } => "refused address".to_owned(),
            FetchError::Dns { .. } => "unknown hostname".to_owned(),
            FetchError::Connect { .. } => "connection error".to_owned(),
            FetchError::Timeout { phase, .. } => format!("{phase} timeout"),
            FetchError::TooManyRedirects { .. } | FetchError::RedirectLoop { .. } => {
                "too many redirects".to_owned()
            }
            FetchError::TooLarge { .. } => "body too large".to_owned(),
            FetchError::BadEncoding { .. } => "decoding error".to_owned(),
            FetchError::Denied { reason, .. } => reason.clone(),
            FetchError::RobotsUnreachable { reason, .. } => {
                format!("robots.txt unreachable ({reason})")
            }
            FetchError::Declined { .. } => "redirect not followed".to_owned(),
            FetchError::Http { .. } => "fetch error".to_owned(),
        }
    }
}

/// `90 s`, `12 min`: a wait for people.
fn seconds(wait: Duration) -> String {
    let secs = wait.as_secs_f64();
    if secs < 120.0 { format!("{secs:.0} s") } else { format!("{:.0} min", secs / 60.0) }
}

// Feeds (`feed`).

/// Why a body is not a feed. Each message names what the body was taken to be (and in which
/// encoding) and the first real problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAFeed {
    /// The body is empty or only white space.
    #[error("not a feed: the body is empty")]
    Empty,
    /// An HTML page.
    #[error("not a feed: {encoding} HTML page (root element <{root}>)")]
    Html {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The root element's name.
        root: String,
    },
    /// XML whose root element is not a feed's.
    #[error("not a feed: {encoding} XML, root element <{root}>: not RSS, Atom or RDF")]
    Root {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The root element's name (at most 64 characters of it).
        root: String,
    },
    /// A feed document that breaks off or breaks down before any item could be read: a failed
    /// fetch (a server that died mid-feed), not an empty feed.
    #[error("not a feed: {encoding} {format} that breaks off before any item ({reason})")]
    Broken {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// `RSS`, `RDF` or `Atom`.
        format: &'static str,
        /// The first XML error, or how many elements were left open.
        reason: String,
    },
    /// Markup in which no element could be found.
    #[error("not a feed: {encoding} XML with no root element ({reason})")]
    NoRoot {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// What was found instead.
        reason: String,
    },
    /// A body that starts like JSON but does not parse.
    #[error("not a feed: {encoding} text that starts like JSON but is not: {reason}")]
    BadJson {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The JSON parser's message.
        reason: String,
    },
    /// JSON that is not a JSON Feed.
    #[error("not a feed: {encoding} JSON, but not a JSON Feed: {reason}")]
    NotJsonFeed {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// What is missing.
        reason: String,
    },
    /// Neither markup nor JSON.
    #[error("not a feed: {encoding} text, neither XML nor JSON (it starts {start:?})")]
    Unrecognised {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The first few characters.
        start: String,
    },
}

// Sitemaps (`sitemap`).

/// Why a body is not a sitemap. Each message names what the body was taken to be (and in which
/// encoding) and why it is not a sitemap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotASitemap {
    /// The body is empty or only white space.
    #[error("not a sitemap: the body is empty")]
    Empty,
    /// An HTML page.
    #[error("not a sitemap: {encoding} HTML page (root element <{root}>)")]
    Html {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The root element's name.
        root: String,
    },
    /// XML whose root is neither `urlset` nor `sitemapindex`.
    #[error("not a sitemap: {encoding} XML, root element <{root}>: not <urlset> or <sitemapindex>")]
    Root {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The root element's name (at most 64 characters of it).
        root: String,
    },
    /// Markup in which no element could be found.
    #[error("not a sitemap: {encoding} XML with no root element ({reason})")]
    NoRoot {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// What was found instead.
        reason: String,
    },
    /// JSON.
    #[error("not a sitemap: {encoding} JSON")]
    Json {
        /// The encoding the body was read in.
        encoding: &'static str,
    },
    /// Text without a single http(s) URL line.
    #[error(
        "not a sitemap: {encoding} text with no line that is an http(s) URL (it starts {start:?})"
    )]
    NoUrls {
        /// The encoding the body was read in.
        encoding: &'static str,
        /// The first few characters.
        start: String,
    },
}

/// Why a gzip body could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GunzipError {
    /// It decompresses to more than the cap.
    #[error("the body decompresses to more than {0} bytes")]
    TooLarge(usize),
    /// It is not valid gzip.
    #[error("the body is not valid gzip: {0}")]
    Corrupt(String),
}

// The address policy (`net`).

/// A `--resolve` value that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --resolve value {value:?}: expected HOST=IP or *.DOMAIN=IP")]
pub struct BadResolveRule {
    pub(crate) value: String,
}

/// The resolver error that means "the name only leads to addresses we refuse".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{host} resolves only to non-public addresses ({addresses})")]
pub struct Refused {
    /// The host name.
    pub host: String,
    /// The addresses it resolved to.
    pub addresses: String,
}
