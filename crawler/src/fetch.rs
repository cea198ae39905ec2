//! The fetcher: one HTTP GET, bounded in time and memory, with its redirect chain recorded.
//!
//! [`Fetcher::get`] follows redirects itself (up to [`FetchConfig::max_redirects`], refusing
//! loops) so that every hop is recorded and re-checked against the address policy; literal IP
//! hosts are checked before connecting and names through [`Resolver`]. Content encodings are
//! undone here, not by the HTTP client, so that the decompressed size has a cap (gzip bombs).
//! Time is bounded three ways: to the first byte, between two chunks of the body (slow drips),
//! and for the whole exchange. The body is never decoded to text: the bytes go onward as they
//! came, with the headers that say what they are.
//!
//! Politeness (robots.txt, per-host intervals) is the caller's layer; this is one request.

// `FetchError` carries the URLs it is about by value. It is built once per failed request, whose
// cost is network time, so its size does not matter the way clippy's lint assumes.
#![allow(clippy::result_large_err)]

use std::future::Future;
use std::io::Read;
use std::net::IpAddr;
use std::pin::Pin;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use reqwest::header::{ACCEPT, ACCEPT_ENCODING, HeaderMap, IF_MODIFIED_SINCE, IF_NONE_MATCH};
use url::Url;

pub use crate::error::FetchError;
use crate::net::{Refused, Resolver};

/// The fetcher's limits and identity.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// The `User-Agent` header; its first word is the robots.txt product token.
    pub user_agent: String,
    /// Time allowed to connect (TCP and TLS).
    pub connect_timeout: Duration,
    /// Time allowed from sending the request to the response headers.
    pub first_byte_timeout: Duration,
    /// Time allowed between two chunks of the body.
    pub idle_timeout: Duration,
    /// Time allowed for the whole exchange, redirects included.
    pub total_timeout: Duration,
    /// The largest body accepted as sent (compressed or not).
    pub max_body_bytes: usize,
    /// The largest body accepted after undoing its content encoding.
    pub max_decoded_bytes: usize,
    /// The most redirects followed.
    pub max_redirects: usize,
    /// Whether loopback, private and link-local addresses may be fetched (tests, the demo).
    pub allow_private_addresses: bool,
    /// `--resolve` rules.
    pub resolve: Vec<crate::net::ResolveRule>,
}

impl Default for FetchConfig {
    fn default() -> FetchConfig {
        FetchConfig {
            user_agent: concat!("morgue/", env!("CARGO_PKG_VERSION"), " (news archive crawler)")
                .to_owned(),
            connect_timeout: Duration::from_secs(10),
            first_byte_timeout: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(60),
            max_body_bytes: 10 << 20,
            max_decoded_bytes: 50 << 20,
            max_redirects: 10,
            allow_private_addresses: false,
            resolve: Vec::new(),
        }
    }
}

/// Validators from an earlier fetch of the same URL, for a conditional GET.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validators {
    /// The last `ETag`.
    pub etag: Option<String>,
    /// The last `Last-Modified`.
    pub last_modified: Option<String>,
}

/// A response, whatever its status.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    /// The URL asked for.
    pub requested_url: Url,
    /// The URL that answered, after redirects.
    pub final_url: Url,
    /// Every URL redirected to, in order, ending with the final one (empty without redirects).
    pub redirect_chain: Vec<Url>,
    /// The HTTP status of the final response.
    pub status: u16,
    /// Its protocol version as a status line writes it (`HTTP/1.1`, `HTTP/2`).
    pub http_version: String,
    /// The headers this client set on the final request, in order, names lower-cased (`host`,
    /// `user-agent`, `accept`, `accept-encoding`, the validators): what an archive's request
    /// record shows.
    pub request_headers: Vec<(String, String)>,
    /// Its headers, in order, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Its body, content encoding undone.
    pub body: Vec<u8>,
    /// When the request started.
    pub started_at: DateTime<Utc>,
    /// Milliseconds to the final response's headers.
    pub first_byte_ms: u64,
    /// Milliseconds to the end of the body.
    pub total_ms: u64,
}

impl Fetched {
    /// The first value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The media type of `Content-Type`, lower-cased, without parameters.
    pub fn media_type(&self) -> Option<String> {
        let value = self.header("content-type")?;
        Some(value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
    }

    /// How long the server asked us to wait (`Retry-After`, seconds or an HTTP date), if at all.
    pub fn retry_after(&self) -> Option<Duration> {
        let value = self.header("retry-after")?.trim();
        if let Ok(seconds) = value.parse::<u64>() {
            return Some(Duration::from_secs(seconds));
        }
        let at = DateTime::parse_from_rfc2822(value).ok()?.with_timezone(&Utc);
        (at - self.started_at).to_std().ok()
    }
}

/// The future a [`BeforeHop`] hook returns.
pub type HopFuture<'a> = Pin<Box<dyn Future<Output = Result<(), FetchError>> + Send + 'a>>;

/// Called before each request of a fetch (the first and every redirect hop).
pub trait BeforeHop: Sync {
    /// Waits until `url` may be requested, or says why it may not.
    fn before_hop<'a>(&'a self, url: &'a Url) -> HopFuture<'a>;
}

/// The hook that lets every request through at once.
#[derive(Debug, Clone, Copy)]
pub struct NoHook;

impl BeforeHop for NoHook {
    fn before_hop<'a>(&'a self, _url: &'a Url) -> HopFuture<'a> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// An HTTP client with the crawler's policy. Cheap to clone and share across tasks.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    resolver: Resolver,
    config: FetchConfig,
}

impl Fetcher {
    /// Builds the client: rustls on the ring provider, no automatic redirects or decompression,
    /// our resolver.
    pub fn new(config: FetchConfig) -> Result<Fetcher, reqwest::Error> {
        // The process needs one rustls provider; a second install attempt is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let resolver = Resolver::new(config.resolve.clone(), config.allow_private_addresses);
        let client = reqwest::Client::builder()
            .user_agent(config.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(config.connect_timeout)
            .dns_resolver(resolver.clone())
            .no_proxy()
            .pool_max_idle_per_host(2)
            .build()?;
        Ok(Fetcher { client, resolver, config })
    }

    /// The configuration in force.
    pub fn config(&self) -> &FetchConfig {
        &self.config
    }

    /// GETs `url`, following redirects, sending the validators for a conditional GET.
    pub async fn get(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
    ) -> Result<Fetched, FetchError> {
        self.get_with(url, validators, accept, &NoHook).await
    }

    /// Like [`Fetcher::get`], calling `hook` before each request (the first and every
    /// redirect hop): the polite layer checks robots.txt and waits for the host's turn there, and
    /// an error it returns ends the fetch. Time spent in the hook does not count against the
    /// fetch's time limits.
    pub async fn get_with(
        &self,
        url: &Url,
        validators: &Validators,
        accept: &str,
        hook: &dyn BeforeHop,
    ) -> Result<Fetched, FetchError> {
        self.check_address(url)?;
        hook.before_hop(url).await?;
        let started = Instant::now();
        let started_at = Utc::now();
        let mut deadline = started + self.config.total_timeout;
        let mut current = url.clone();
        let mut chain: Vec<Url> = Vec::new();
        loop {
            if !chain.is_empty() {
                self.check_address(&current)?;
                let waiting = Instant::now();
                hook.before_hop(&current).await?;
                deadline += waiting.elapsed();
            }
            let mut request = self
                .client
                .get(current.clone())
                .header(ACCEPT, accept)
                .header(ACCEPT_ENCODING, "gzip, deflate");
            let mut sent = vec![
                ("host".to_owned(), host_header(&current)),
                ("user-agent".to_owned(), self.config.user_agent.clone()),
                ("accept".to_owned(), accept.to_owned()),
                ("accept-encoding".to_owned(), "gzip, deflate".to_owned()),
            ];
            if let Some(etag) = &validators.etag {
                request = request.header(IF_NONE_MATCH, etag);
                sent.push(("if-none-match".to_owned(), etag.clone()));
            }
            if let Some(modified) = &validators.last_modified {
                request = request.header(IF_MODIFIED_SINCE, modified);
                sent.push(("if-modified-since".to_owned(), modified.clone()));
            }
            let budget = self.config.first_byte_timeout.min(remaining(deadline));
            let mut response = match tokio::time::timeout(budget, request.send()).await {
                Ok(Ok(response)) => response,
                Ok(Err(err)) => return Err(classify(&current, err)),
                Err(_) => return Err(self.timeout(&current, deadline, "first byte")),
            };
            let status = response.status().as_u16();
            if (300..400).contains(&status)
                && status != 304
                && let Some(location) = response.headers().get(reqwest::header::LOCATION)
            {
                let next = location
                    .to_str()
                    .ok()
                    .and_then(|location| current.join(location.trim()).ok())
                    .ok_or_else(|| FetchError::NotHttp {
                        url: format!("{current} -> {location:?}"),
                    })?;
                if next == *url || chain.contains(&next) {
                    return Err(FetchError::RedirectLoop {
                        url: url.clone(),
                        repeated: next.into(),
                    });
                }
                if chain.len() >= self.config.max_redirects {
                    return Err(FetchError::TooManyRedirects {
                        url: url.clone(),
                        limit: self.config.max_redirects,
                    });
                }
                chain.push(next.clone());
                current = next;
                continue;
            }
            let first_byte_ms = millis(started.elapsed());
            let http_version = version_name(response.version()).to_owned();
            let headers = header_list(response.headers());
            let mut body = Vec::new();
            loop {
                let budget = self.config.idle_timeout.min(remaining(deadline));
                match tokio::time::timeout(budget, response.chunk()).await {
                    Ok(Ok(Some(chunk))) => {
                        if body.len() + chunk.len() > self.config.max_body_bytes {
                            return Err(FetchError::TooLarge {
                                url: current,
                                limit: self.config.max_body_bytes,
                            });
                        }
                        body.extend_from_slice(&chunk);
                    }
                    Ok(Ok(None)) => break,
                    Ok(Err(err)) => return Err(classify(&current, err)),
                    Err(_) => return Err(self.timeout(&current, deadline, "idle")),
                }
            }
            let encoding = headers
                .iter()
                .find(|(name, _)| name == "content-encoding")
                .map(|(_, value)| value.trim().to_ascii_lowercase());
            let body = decode(body, encoding.as_deref(), self.config.max_decoded_bytes, &current)?;
            return Ok(Fetched {
                requested_url: url.clone(),
                final_url: current,
                redirect_chain: chain,
                status,
                http_version,
                request_headers: sent,
                headers,
                body,
                started_at,
                first_byte_ms,
                total_ms: millis(started.elapsed()),
            });
        }
    }

    fn check_address(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::NotHttp { url: url.to_string() });
        }
        let literal: Option<IpAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => Some(ip.into()),
            Some(url::Host::Ipv6(ip)) => Some(ip.into()),
            Some(url::Host::Domain(_)) => None,
            None => return Err(FetchError::NotHttp { url: url.to_string() }),
        };
        match literal {
            Some(ip) if !self.resolver.allows(ip) => Err(FetchError::Refused {
                url: url.clone(),
                reason: format!("{ip} is not a public address"),
            }),
            _ => Ok(()),
        }
    }

    fn timeout(&self, url: &Url, deadline: Instant, phase: &'static str) -> FetchError {
        let phase = if Instant::now() >= deadline { "total" } else { phase };
        FetchError::Timeout { url: url.clone(), phase }
    }
}

fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

fn millis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
}

/// The `Host` header a request to `url` carries: the host, and the port when it is not the
/// scheme's default.
fn host_header(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

/// A protocol version as a status line writes it.
fn version_name(version: reqwest::Version) -> &'static str {
    match version {
        reqwest::Version::HTTP_09 => "HTTP/0.9",
        reqwest::Version::HTTP_10 => "HTTP/1.0",
        reqwest::Version::HTTP_2 => "HTTP/2",
        reqwest::Version::HTTP_3 => "HTTP/3",
        _ => "HTTP/1.1",
    }
}

fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned())
        })
        .collect()
}

/// Sorts a client error into the kinds people and the backoff policy care about.
fn classify(url: &Url, err: reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<Refused>() {
            return FetchError::Refused { url: url.clone(), reason: refused.to_string() };
        }
        source = cause.source();
    }
    if err.is_timeout() {
        return FetchError::Timeout { url: url.clone(), phase: "connect" };
    }
    if err.is_connect() {
        let text = format!("{err:?}").to_ascii_lowercase();
        if text.contains("dns") || text.contains("lookup") || text.contains("resolve") {
            return FetchError::Dns { url: url.clone(), source: err };
        }
        return FetchError::Connect { url: url.clone(), source: err };
    }
    FetchError::Http { url: url.clone(), source: err }
}

/// Undoes a `Content-Encoding`, with a cap on the result.
fn decode(
    body: Vec<u8>,
    encoding: Option<&str>,
    max: usize,
    url: &Url,
) -> Result<Vec<u8>, FetchError> {
    let bad = |reason: String| FetchError::BadEncoding {
        url: url.clone(),
        encoding: encoding.unwrap_or_default().to_owned(),
        reason,
    };
    let mut out = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    let read = match encoding {
        None | Some("" | "identity") => return Ok(body),
        Some("gzip" | "x-gzip") => {
            flate2::read::MultiGzDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out)
        }
        // "deflate" is zlib-wrapped by the standard, raw deflate by some servers.
        Some("deflate") if body.first().is_some_and(|b| b & 0x0f == 8) => {
            flate2::read::ZlibDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out)
        }
        Some("deflate") => {
            flate2::read::DeflateDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out)
        }
        Some(other) => return Err(bad(format!("unsupported encoding {other}"))),
    };
    read.map_err(|err| bad(err.to_string()))?;
    if out.len() > max {
        return Err(FetchError::TooLarge { url: url.clone(), limit: max });
    }
    Ok(out)
}
