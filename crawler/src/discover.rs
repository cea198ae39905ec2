//! Discovery: where a source's feeds and sitemaps might be, before fetching confirms them.
//!
//! Candidates come in tiers, best first, and every candidate must be confirmed by fetching and
//! parsing it (see `feed::sniff`, `sitemap::parse`); the fetcher confirms tier by tier and stops
//! at the first tier that yields feeds, so a site that announces its feeds costs no guessing.
//!
//! Feeds (Media Cloud's feed_seeker and legacy scraper, §5.1 and §5.6 of the reference):
//! 1. `<link>` tags with a feed `type` (any `rel`);
//! 2. `<a href>` whose path ends in `.rss`, `.rdf`, `.atom` or `.xml`, then those whose path or
//!    query contains `rss`, `rdf`, `atom`, `xml` or `feed`; off-site anchors count only on known
//!    feed hosts (FeedBurner and the like), and there whatever their path. The site's own host is
//!    never looked at (deviation: feed_seeker and the legacy scraper looked at the whole URL, so
//!    every page of `ardfernsehen.de` was a feed candidate for its `rdf`);
//! 3. the usual paths (`/feed`, `/rss.xml`, `?feed=rss2`, …), against the site root and, when the
//!    homepage is deeper, against its directory too (deviation: feed_seeker guessed only relative
//!    to the page, missing root feeds of sources whose homepage is a section).
//!
//! Candidates are deduplicated by the normalizer's feed-URL key.
//!
//! Sitemaps (§5.3 and §5.5): robots.txt's `Sitemap:` lines first, then the well-known Google News
//! paths, then the well-known index paths. Children of a sitemap index are ranked by
//! [`sitemap_preference`], which skips date archives and section sitemaps.

use url::Url;

use crate::tags;

/// How a candidate was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    /// A `<link>` tag with a feed type.
    LinkTag,
    /// An `<a href>` that looks like a feed.
    Anchor,
    /// A usual feed path.
    Guess,
    /// A `Sitemap:` line of robots.txt.
    Robots,
    /// A well-known Google News sitemap path.
    NewsPath,
    /// A well-known sitemap index path.
    IndexPath,
}

impl Via {
    /// The name recorded as the feed's `discovered_via`.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::LinkTag => "link[type]",
            Via::Anchor => "a[href]",
            Via::Guess => "guessed path",
            Via::Robots => "robots.txt",
            Via::NewsPath => "well-known news sitemap path",
            Via::IndexPath => "well-known sitemap path",
        }
    }
}

/// A URL that may be a feed or sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The URL.
    pub url: Url,
    /// How it was found; also its tier.
    pub via: Via,
}

const FEED_TYPES: [&str; 8] = [
    "application/rss+xml",
    "application/atom+xml",
    "application/rdf+xml",
    "application/feed+json",
    "application/x.atom+xml",
    "application/x-atom+xml",
    "application/xml",
    "text/xml",
];

const GUESSES: [&str; 24] = [
    "feed",
    "feed/",
    "rss",
    "rss.xml",
    "feed.xml",
    "atom.xml",
    "index.xml",
    "feeds",
    "feeds/default",
    "feed/default",
    "feeds/posts/default",
    "?feed=rss2",
    "?feed=rss",
    "?feed=atom",
    "?feed=rdf",
    "atom",
    "rdf",
    "index.rss",
    "index.rdf",
    "index.atom",
    "?type=100",
    "?format=feed&type=rss",
    "data/rss",
    "articles.rss",
];

/// Hosts whose feeds publishers use for their own (off-site anchors are kept only here).
const FEED_HOSTS: [&str; 5] = [
    "feeds.feedburner.com",
    "feedproxy.google.com",
    "feeds.feedblitz.com",
    "rss.app",
    "feedpress.me",
];

/// Fragments that disqualify an anchor (the legacy scraper's list).
const NOT_FEEDS: [&str; 12] = [
    "add.my.yahoo.com",
    "login.",
    "fusion.google.com/add",
    "xml:lang",
    "feedback",
    "digg.com",
    "bloglines",
    "doubleclick",
    "classified",
    "sitemap",
    "javascript:",
    "mailto:",
];

/// The well-known Google News sitemap paths (Media Cloud's sitemap tools).
pub const NEWS_SITEMAP_PATHS: [&str; 14] = [
    "arc/outboundfeeds/news-sitemap/?outputType=xml",
    "arc/outboundfeeds/sitemap/latest/?outputType=xml",
    "feeds/sitemap_news.xml",
    "google-news-sitemap.xml",
    "googlenewssitemap.xml",
    "news-sitemap.xml",
    "news-sitemap-content.xml",
    "news/sitemap_news.xml",
    "sitemap_news.xml",
    "sitemap/news.xml",
    "sitemaps/news.xml",
    "sitemaps/new/news.xml.gz",
    "sitemaps/sitemap-google-news.xml",
    "tncms/sitemap/news.xml",
];

/// The well-known sitemap index paths (Media Cloud's sitemap tools and sitemap parser).
pub const INDEX_SITEMAP_PATHS: [&str; 11] = [
    "sitemap.xml",
    "sitemap_index.xml",
    "sitemap-index.xml",
    "sitemap.xml.gz",
    "sitemap_index.xml.gz",
    "sitemap-index.xml.gz",
    "sitemap/sitemap-index.xml",
    "sitemap-news.xml",
    "arc/outboundfeeds/sitemap-index/?outputType=xml",
    "arc/outboundfeeds/news-sitemap-index/?outputType=xml",
    "admin/config/search/xmlsitemap",
];

/// Feed candidates from a homepage, best tier first, without repeats.
pub fn feed_candidates(homepage_html: &[u8], homepage: &Url) -> Vec<Candidate> {
    let mut out = Candidates::default();
    let tags = tags::scan(homepage_html, &["link", "a", "base"]);
    let base = tags
        .iter()
        .find(|tag| tag.name == "base")
        .and_then(|tag| tag.get("href"))
        .and_then(|href| homepage.join(href).ok())
        .unwrap_or_else(|| homepage.clone());

    for tag in tags.iter().filter(|tag| tag.name == "link") {
        let is_feed_type = tag
            .get("type")
            .map(|kind| kind.trim().to_ascii_lowercase())
            .is_some_and(|kind| FEED_TYPES.contains(&kind.as_str()));
        let rel = tag.get("rel").unwrap_or_default().to_ascii_lowercase();
        // Stylesheets, icons and the like sometimes carry an XML type.
        let wrong_rel = rel
            .split_whitespace()
            .any(|r| ["stylesheet", "icon", "search", "pingback"].contains(&r));
        if is_feed_type
            && !wrong_rel
            && let Some(url) = tag.get("href").and_then(|href| resolve(&base, href))
        {
            out.push(url, Via::LinkTag);
        }
    }

    let anchors: Vec<Url> = tags
        .iter()
        .filter(|tag| tag.name == "a")
        .filter_map(|tag| tag.get("href"))
        .filter(|href| href.len() <= 256)
        .filter_map(|href| resolve(&base, href))
        .filter(|url| {
            same_site(url, homepage) || url.host_str().is_some_and(|h| FEED_HOSTS.contains(&h))
        })
        .collect();
    // What the anchor rules look at: the path and the query, never the host.
    let lower = |url: &Url| match url.query() {
        Some(query) => format!("{}?{query}", url.path()).to_ascii_lowercase(),
        None => url.path().to_ascii_lowercase(),
    };
    let disqualified = |url: &Url| {
        let text = lower(url);
        NOT_FEEDS.iter().any(|bad| text.contains(bad))
            || [".gif", ".jpg", ".jpeg", ".png", ".css", ".js", ".pdf"]
                .iter()
                .any(|ext| url.path().to_ascii_lowercase().ends_with(ext))
    };
    for url in anchors.iter().filter(|url| !disqualified(url)) {
        let path = url.path().to_ascii_lowercase();
        if [".rss", ".rdf", ".atom", ".xml"].iter().any(|ext| path.ends_with(ext)) {
            out.push(url.clone(), Via::Anchor);
        }
    }
    for url in anchors.iter().filter(|url| !disqualified(url)) {
        let text = lower(url);
        // A known feed host is evidence enough by itself.
        let feed_host = url.host_str().is_some_and(|h| FEED_HOSTS.contains(&h));
        if feed_host || ["rss", "rdf", "atom", "xml", "feed"].iter().any(|word| text.contains(word))
        {
            out.push(url.clone(), Via::Anchor);
        }
    }

    let root = site_root(homepage);
    let directory = homepage.join("./").ok().filter(|dir| *dir != root);
    for base in std::iter::once(&root).chain(directory.as_ref()) {
        for guess in GUESSES {
            if let Ok(url) = base.join(guess) {
                out.push(url, Via::Guess);
            }
        }
    }
    out.into_vec()
}

/// Sitemap candidates: robots.txt's lines, then well-known news paths, then index paths.
pub fn sitemap_candidates(homepage: &Url, robots_sitemaps: &[String]) -> Vec<Candidate> {
    let mut out = Candidates::default();
    for listed in robots_sitemaps {
        if let Ok(url) = Url::parse(listed)
            && matches!(url.scheme(), "http" | "https")
        {
            out.push(url, Via::Robots);
        }
    }
    let root = site_root(homepage);
    for (paths, via) in
        [(&NEWS_SITEMAP_PATHS[..], Via::NewsPath), (&INDEX_SITEMAP_PATHS[..], Via::IndexPath)]
    {
        for path in paths {
            if let Ok(url) = root.join(path) {
                out.push(url, via);
            }
        }
    }
    out.into_vec()
}

/// How worth following a child of a sitemap index is: lower is better, `None` means skip.
///
/// Media Cloud's rules (§5.3): date-archive and numbered sitemaps are skipped, section words
/// (`category`, `tags`, `video`, …) add 5 each and two of them skip; `google-news` subtracts 10,
/// `news` 5, and `.html` adds 10.
pub fn sitemap_preference(url: &Url) -> Option<i32> {
    let text =
        format!("{}{}", url.path(), url.query().map(|q| format!("?{q}")).unwrap_or_default())
            .to_ascii_lowercase();
    let dated = ["date=", "year=", "yyyy=", "high-school-answers", "high-school-textbooks"]
        .iter()
        .any(|marker| text.contains(marker))
        || text.as_bytes().windows(2).any(|pair| pair.iter().all(u8::is_ascii_digit));
    if dated {
        return None;
    }
    let mut score: i32 =
        SECTION_WORDS.iter().filter(|word| text.contains(*word)).count() as i32 * 5;
    if score >= 10 {
        return None;
    }
    if text.contains("google-news") || text.contains("googlenews") {
        score -= 10;
    }
    if text.contains("news") {
        score -= 5;
    }
    if text.contains(".html") {
        score += 10;
    }
    Some(score)
}

const SECTION_WORDS: [&str; 41] = [
    "athletic",
    "author",
    "best",
    "books",
    "cities",
    "category",
    "categories",
    "collects",
    "companies",
    "company",
    "cooking",
    "event",
    "high-school-answers",
    "games",
    "local",
    "market-data",
    "papers",
    "people",
    "performer",
    "profile",
    "recipe",
    "region",
    "review",
    "roster",
    "schedule",
    "section",
    "seller",
    "sports",
    "staff",
    "stats",
    "tags",
    "taxonomy",
    "taxonomies",
    "teams",
    "venue",
    "vertical",
    "video",
    "weather",
    "wirecutter",
    "topics",
    "tag/",
];

#[derive(Debug, Default)]
struct Candidates {
    seen: std::collections::HashSet<String>,
    list: Vec<Candidate>,
}

impl Candidates {
    fn push(&mut self, url: Url, via: Via) {
        let key = normalizer::feed_url_key(url.as_str()).unwrap_or_else(|| url.to_string());
        if self.seen.insert(key) {
            self.list.push(Candidate { url, via });
        }
    }

    fn into_vec(self) -> Vec<Candidate> {
        self.list
    }
}

fn resolve(base: &Url, href: &str) -> Option<Url> {
    let mut url = base.join(href.trim()).ok()?;
    url.set_fragment(None);
    matches!(url.scheme(), "http" | "https").then_some(url)
}

fn site_root(url: &Url) -> Url {
    let mut root = url.clone();
    root.set_path("/");
    root.set_query(None);
    root.set_fragment(None);
    root
}

fn same_site(url: &Url, homepage: &Url) -> bool {
    match (
        normalizer::canonical_domain(url.as_str()),
        normalizer::canonical_domain(homepage.as_str()),
    ) {
        (Some(a), Some(b)) => a == b,
        _ => url.host_str() == homepage.host_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(candidates: &[Candidate], via: Via) -> Vec<String> {
        candidates.iter().filter(|c| c.via == via).map(|c| c.url.to_string()).collect()
    }

    #[test]
    fn link_tags_anchors_and_guesses_in_tiers() {
        let html = br#"<html><head><base href="https://www.daily.example/">
<link rel="alternate" type="application/rss+xml" href="/rss/all.xml">
<link rel="alternate" type="application/atom+xml" href="https://daily.example/rss/all.xml">
<link rel="stylesheet" type="text/xml" href="/style.xml">
<link rel="alternate" type="text/html" href="/en/">
</head><body>
<a href="/podcasts.rss">Podcasts</a><a href="/news/feed/">News feed</a>
<a href="https://feeds.feedburner.com/TheDaily">FeedBurner</a>
<a href="https://elsewhere.example/feed.xml">Not ours</a>
<a href="/sitemap.xml">sitemap</a><a href="/logo.png?rss">img</a>
</body></html>"#;
        let homepage = Url::parse("https://www.daily.example/").unwrap();
        let found = feed_candidates(html, &homepage);
        assert_eq!(
            urls(&found, Via::LinkTag),
            ["https://www.daily.example/rss/all.xml"],
            "the https/www twin is one feed"
        );
        assert_eq!(
            urls(&found, Via::Anchor),
            [
                "https://www.daily.example/podcasts.rss",
                "https://www.daily.example/news/feed/",
                "https://feeds.feedburner.com/TheDaily"
            ]
        );
        let guesses = urls(&found, Via::Guess);
        assert!(guesses.contains(&"https://www.daily.example/feed".to_owned()), "{guesses:?}");
        assert!(guesses.contains(&"https://www.daily.example/?feed=rss2".to_owned()));
        let tiers: Vec<Via> = found.iter().map(|c| c.via).collect();
        assert!(tiers.windows(2).all(|pair| pair[0] <= pair[1]), "tiers in order: {tiers:?}");
    }

    #[test]
    fn anchor_rules_look_at_the_path_and_query_never_the_host() {
        let html = br#"<a href="/nachrichten/wetter-1.html">Wetter</a>
<a href="/sport/">Sport</a><a href="/service/rss.html">RSS</a><a href="/?format=feed">Feed</a>
<a href="https://www.ardfernsehen.example/kontakt">Kontakt</a>"#;
        for host in ["www.ardfernsehen.example", "feedback-atom-xml.example"] {
            let homepage = Url::parse(&format!("https://{host}/")).unwrap();
            let anchors = urls(&feed_candidates(html, &homepage), Via::Anchor);
            assert_eq!(
                anchors,
                [
                    format!("https://{host}/service/rss.html"),
                    format!("https://{host}/?format=feed")
                ],
                "{host}"
            );
        }
    }

    #[test]
    fn a_section_homepage_also_guesses_at_the_root() {
        let homepage = Url::parse("https://daily.example/es/portada/").unwrap();
        let guesses = urls(&feed_candidates(b"", &homepage), Via::Guess);
        assert!(guesses.contains(&"https://daily.example/feed".to_owned()));
        assert!(guesses.contains(&"https://daily.example/es/portada/feed".to_owned()));
    }

    #[test]
    fn sitemaps_from_robots_then_well_known_paths() {
        let homepage = Url::parse("https://daily.example/es/").unwrap();
        let listed = ["https://daily.example/sitemap_news.xml".to_owned(), "ftp://x/y".to_owned()];
        let found = sitemap_candidates(&homepage, &listed);
        assert_eq!(found[0].url.as_str(), "https://daily.example/sitemap_news.xml");
        assert_eq!(found[0].via, Via::Robots);
        assert_eq!(
            found
                .iter()
                .filter(|c| c.url.as_str() == "https://daily.example/sitemap_news.xml")
                .count(),
            1
        );
        assert!(found.iter().any(|c| c.url.as_str()
            == "https://daily.example/arc/outboundfeeds/news-sitemap/?outputType=xml"));
        assert_eq!(found.last().map(|c| c.via), Some(Via::IndexPath));
    }

    #[test]
    fn sitemap_preferences() {
        let score = |url: &str| sitemap_preference(&Url::parse(url).unwrap());
        assert_eq!(score("https://x.example/sitemap-2019-03.xml"), None, "date archive");
        assert_eq!(score("https://x.example/sitemap.xml?yyyy=2020"), None);
        assert_eq!(
            score("https://x.example/sitemap-video-category.xml"),
            None,
            "two section words"
        );
        assert_eq!(score("https://x.example/google-news-sitemap.xml"), Some(-15));
        assert_eq!(score("https://x.example/news.xml"), Some(-5));
        assert_eq!(score("https://x.example/sitemap-tags.xml"), Some(5));
        assert!(score("https://x.example/news.xml") < score("https://x.example/sitemap-pages.xml"));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_pages_never_panic(body: Vec<u8>, path: String) {
            let homepage = Url::parse("https://daily.example/").unwrap().join(&path).unwrap_or_else(|_| Url::parse("https://daily.example/").unwrap());
            let _ = feed_candidates(&body, &homepage);
            let _ = sitemap_candidates(&homepage, &[String::from_utf8_lossy(&body).into_owned()]);
            let _ = sitemap_preference(&homepage);
        }
    }
}
