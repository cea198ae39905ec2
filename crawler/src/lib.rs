//! Media sources in, fetched pages out: discovery, polite fetching and the crawl schedule.
//!
//! Built so far, all pure:
//! - [`schedule`]: the feed poll policy (adaptive intervals and failure backoff);
//! - [`robots`]: robots.txt per RFC 9309;
//! - [`sitemap`]: sitemaps, sitemap indexes and Google News sitemaps;
//! - [`feed`]: RSS (any version), RDF, Atom, CDF and JSON feeds, read liberally: a partial parse
//!   with warnings beats a rejected feed;
//! - [`decode`]: the bytes of a feed or sitemap as text (BOM, byte layout, HTTP charset, XML
//!   declaration, detection; UTF-16 and UTF-32 too) and the HTML entities feeds leave undeclared;
//! - [`dates`]: the date formats feeds and sitemaps use;
//! - [`discover`] (with [`tags`]): where a source's feeds and sitemaps might be.
//!
//! Every error type of the crate is in [`error`], re-exported by the module that returns it.
//!
//! And with I/O: [`fetch`], one bounded HTTP GET with its redirect chain; [`net`], the address
//! policy and resolver; [`polite`], per-host start slots; [`client`], the polite client every
//! request goes through (robots.txt, slots, `Retry-After`); and [`explore`], discovery of one
//! source by fetching and confirming candidates. The crawl loop that ties these to the archive
//! lives in `engine` (`engine/src/crawl/`), which knows both the crawler and the store.
//! The crawler never interprets article content and does not depend on `store`: `engine` carries
//! its results into the archive.

pub mod client;
pub mod dates;
pub mod decode;
pub mod discover;
pub mod error;
pub mod explore;
pub mod feed;
pub mod fetch;
pub mod net;
pub mod polite;
pub mod robots;
pub mod schedule;
pub mod sitemap;
pub mod tags;
