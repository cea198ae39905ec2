//! The generated web: which sites exist, how each announces its feeds and sitemaps, and its articles.
//!
//! A [`World`] is a pure function of a [`Config`]. Sites differ on purpose, in a fixed rotation by
//! index, so that a small web already covers every discovery path:
//!
//! | index mod 6 | feeds | sitemaps | robots.txt |
//! | --- | --- | --- | --- |
//! | 0 | RSS 2.0 announced by `<link rel=alternate>` | index in robots.txt → news + monthly (gzip) | yes |
//! | 1 | Atom announced by `<link rel=alternate>` | none | yes |
//! | 2 | RSS linked only from an anchor | `/sitemap.xml` (well-known, no robots line) | yes |
//! | 3 | RSS at a guessed path (`/rss.xml`), announced nowhere | index in robots.txt | no robots.txt (404) |
//! | 4 | none | index in robots.txt → news + monthly (gzip) | yes |
//! | 5 | RSS announced by `<link>`, links through `m.` hosts | none | yes |
//!
//! Feeds list the newest [`Config::feed_items`] articles, with tracking parameters on every link;
//! every ninth article is linked through a `/go/` redirect. Sitemaps list every article with its
//! `lastmod`, and on sites with sitemaps every tenth article lives under `/private/`, which
//! robots.txt disallows. Sites with sitemaps also list [`Config::stale_articles`] old articles
//! (a month old) that a crawl limited to recent days must not fetch. A share of articles are
//! copies of wire stories, syndicated across sites with a new headline and small edits.

use chrono::{DateTime, Duration, Utc};

use crate::text::{self, Rng};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Config {
    /// Everything derives from it.
    pub seed: u64,
    /// How many friendly news sites.
    pub hosts: usize,
    /// Recent articles per site.
    pub articles_per_host: usize,
    /// Articles a month old per site with sitemaps (outside any recent window).
    pub stale_articles: usize,
    /// Items per feed (the newest articles).
    pub feed_items: usize,
    /// Recent articles are spread over this many hours before `now`.
    pub spread_hours: i64,
    /// The moment the web pretends it is; articles are dated before it.
    pub now: DateTime<Utc>,
    /// `Crawl-delay` (seconds) announced by every site whose index is a multiple of
    /// `crawl_delay_every` (0: no site announces one).
    pub crawl_delay_secs: f64,
    /// See `crawl_delay_secs`.
    pub crawl_delay_every: usize,
    /// Out of 100 articles, how many are copies of a wire story.
    pub wire_percent: usize,
    /// Adds the hostile sites (see [`crate::hostile_sites`]).
    pub hostile: bool,
    /// Adds the sites with garbled feeds (see [`crate::trouble`]).
    pub garbled_feeds: bool,
    /// Adds a site whose articles' host has its robots.txt answer `503` once.
    pub robots_outage: bool,
    /// Adds a site whose discovery tries every candidate.
    pub long_search: bool,
}

impl Config {
    /// A small web: `hosts` sites with `articles` recent articles each, no crawl delays, hostile
    /// sites off.
    pub fn small(seed: u64, hosts: usize, articles: usize, now: DateTime<Utc>) -> Config {
        Config {
            seed,
            hosts,
            articles_per_host: articles,
            stale_articles: 2,
            feed_items: 50,
            spread_hours: 72,
            now,
            crawl_delay_secs: 0.0,
            crawl_delay_every: 0,
            wire_percent: 20,
            hostile: false,
            garbled_feeds: false,
            robots_outage: false,
            long_search: false,
        }
    }
}

/// How a site announces its feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedStyle {
    /// RSS 2.0 at `/feed.xml`, in a `<link rel=alternate>`.
    LinkRss,
    /// Atom at `/atom.xml`, in a `<link rel=alternate>`.
    LinkAtom,
    /// RSS at `/feeds/all.xml`, only in an `<a href>`.
    Anchor,
    /// RSS at `/rss.xml`, announced nowhere.
    Guessed,
    /// No feed.
    None,
    /// RSS at `/feed.xml` in a `<link>`, item links on the `m.` host.
    Mobile,
}

/// How a site announces its sitemaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitemapStyle {
    /// `Sitemap: /sitemap_index.xml` in robots.txt; the index names a gzip news sitemap and a
    /// gzip monthly sitemap.
    RobotsIndex,
    /// `/sitemap.xml`, a plain urlset, at the well-known path only.
    WellKnown,
    /// No sitemap.
    None,
}

/// One news site.
#[derive(Debug, Clone)]
pub struct Site {
    /// Its position in the web.
    pub index: usize,
    /// Its host name, under `.test`.
    pub host: String,
    /// Its name as a publisher.
    pub name: String,
    /// How it announces feeds.
    pub feed: FeedStyle,
    /// How it announces sitemaps.
    pub sitemap: SitemapStyle,
    /// Whether it serves a robots.txt.
    pub robots: bool,
    /// Its `Crawl-delay`, if any.
    pub crawl_delay: Option<f64>,
}

/// One article.
#[derive(Debug, Clone)]
pub struct Article {
    /// The site's index.
    pub site: usize,
    /// Its number on the site (0 is the newest).
    pub number: usize,
    /// Its path on the site.
    pub path: String,
    /// Its headline.
    pub headline: String,
    /// When it was published.
    pub published: DateTime<Utc>,
    /// The wire story it copies, if any.
    pub wire: Option<usize>,
    /// Under `/private/`, disallowed by robots.txt.
    pub private: bool,
    /// A month old, listed by sitemaps only.
    pub stale: bool,
}

/// The whole generated web.
#[derive(Debug, Clone)]
pub struct World {
    /// What it was made from.
    pub config: Config,
    /// The friendly sites.
    pub sites: Vec<Site>,
}

const NAME_WORDS: &[&str] = &[
    "Courier",
    "Herald",
    "Gazette",
    "Ledger",
    "Tribune",
    "Chronicle",
    "Observer",
    "Sentinel",
    "Dispatch",
    "Examiner",
    "Post",
    "Record",
];

impl World {
    /// Generates the web of `config`.
    pub fn new(config: Config) -> World {
        let sites = (0..config.hosts).map(|index| site(&config, index)).collect();
        World { config, sites }
    }

    /// The site with this host name (the `www.` and `m.` forms included).
    pub fn site_by_host(&self, host: &str) -> Option<&Site> {
        let host = host.strip_prefix("www.").or_else(|| host.strip_prefix("m.")).unwrap_or(host);
        let index = host.strip_prefix("site")?.split('.').next()?;
        let index: usize = index.parse().ok()?;
        self.sites.get(index).filter(|site| site.host == host)
    }

    /// Every article of a site: recent ones first (newest first), then stale ones.
    pub fn articles(&self, site: &Site) -> Vec<Article> {
        let recent = self.config.articles_per_host;
        let stale = if site.sitemap == SitemapStyle::None { 0 } else { self.config.stale_articles };
        (0..recent + stale).map(|number| self.article(site, number)).collect()
    }

    /// The article with this number on a site (which must exist).
    pub fn article(&self, site: &Site, number: usize) -> Article {
        let config = &self.config;
        let stale = number >= config.articles_per_host;
        let mut rng = Rng::new(config.seed, &[1, site.index as u64, number as u64]);
        let published = if stale {
            config.now - Duration::days(30) - Duration::minutes(rng.below(600) as i64)
        } else {
            // Evenly spread, newest first, with a little jitter that keeps the order.
            let step = config.spread_hours * 60 / config.articles_per_host.max(1) as i64;
            let minutes = number as i64 * step + rng.below(step.max(1) as usize) as i64 / 2;
            config.now - Duration::minutes(minutes + 5)
        };
        let wire = (rng.below(100) < config.wire_percent).then(|| {
            // A pool small enough that each wire story lands on several sites.
            let pool = (config.hosts * config.articles_per_host * config.wire_percent / 300).max(1);
            rng.below(pool)
        });
        let headline = match wire {
            Some(story) => {
                let mut wire_rng = Rng::new(config.seed, &[2, story as u64]);
                let base = text::headline(&self.topic(site, number, wire), &mut wire_rng);
                // Each site rewrites the wire headline a little.
                match rng.below(3) {
                    0 => base,
                    1 => format!("{base}, officials say"),
                    _ => format!("Update: {base}"),
                }
            }
            None => text::headline(&self.topic(site, number, wire), &mut rng),
        };
        let private =
            site.robots && site.sitemap != SitemapStyle::None && !stale && number % 10 == 7;
        let slug = text::slug(&headline);
        let date = published.format("%Y/%m/%d");
        let path = if private {
            format!("/private/{slug}-{number}.html")
        } else {
            format!("/{date}/{slug}-{number}.html")
        };
        Article { site: site.index, number, path, headline, published, wire, private, stale }
    }

    /// What an article is about: its wire story's topic, or its own.
    pub(crate) fn topic(&self, site: &Site, number: usize, wire: Option<usize>) -> text::Topic {
        match wire {
            Some(story) => text::Topic::new(self.config.seed, &[6, story as u64]),
            None => text::Topic::new(self.config.seed, &[7, site.index as u64, number as u64]),
        }
    }

    /// The article at this path on a site, if any.
    pub fn article_at(&self, site: &Site, path: &str) -> Option<Article> {
        let stem = path.strip_suffix(".html")?;
        let number: usize = stem.rsplit('-').next()?.parse().ok()?;
        let total = self.config.articles_per_host
            + if site.sitemap == SitemapStyle::None { 0 } else { self.config.stale_articles };
        if number >= total {
            return None;
        }
        let article = self.article(site, number);
        (article.path == path).then_some(article)
    }

    /// The article a `/go/N` redirect at this path leads to, if the path is one.
    pub fn redirected(&self, site: &Site, path: &str) -> Option<Article> {
        let number: usize = path.strip_prefix("/go/")?.parse().ok()?;
        (number < self.config.articles_per_host).then(|| self.article(site, number))
    }

    /// The paths of the stale articles (older than a crawl's week), which a crawl must not fetch.
    pub fn stale_paths(&self) -> Vec<String> {
        let articles = self.sites.iter().flat_map(|site| self.articles(site));
        articles.filter(|article| article.stale).map(|article| article.path).collect()
    }

    /// The articles a polite crawl that fetches everything published after `since` must store:
    /// listed by a feed or sitemap the site announces, not disallowed, not older than `since`.
    pub fn reachable(&self, since: DateTime<Utc>) -> Vec<Article> {
        let mut out = Vec::new();
        for site in &self.sites {
            for article in self.articles(site) {
                let listed = self.in_feed(site, &article) || site.sitemap != SitemapStyle::None;
                if listed && !article.private && article.published >= since {
                    out.push(article);
                }
            }
        }
        out
    }

    /// Whether a site's feed lists the article.
    pub fn in_feed(&self, site: &Site, article: &Article) -> bool {
        site.feed != FeedStyle::None && !article.stale && article.number < self.config.feed_items
    }
}

fn site(config: &Config, index: usize) -> Site {
    let mut rng = Rng::new(config.seed, &[0, index as u64]);
    let (feed, sitemap, robots) = match index % 6 {
        0 => (FeedStyle::LinkRss, SitemapStyle::RobotsIndex, true),
        1 => (FeedStyle::LinkAtom, SitemapStyle::None, true),
        2 => (FeedStyle::Anchor, SitemapStyle::WellKnown, true),
        3 => (FeedStyle::Guessed, SitemapStyle::RobotsIndex, false),
        4 => (FeedStyle::None, SitemapStyle::RobotsIndex, true),
        _ => (FeedStyle::Mobile, SitemapStyle::None, true),
    };
    // Without robots.txt a sitemap index can only be found at a well-known path.
    let sitemap = if !robots && sitemap == SitemapStyle::RobotsIndex {
        SitemapStyle::WellKnown
    } else {
        sitemap
    };
    let crawl_delay =
        (robots && config.crawl_delay_every > 0 && index.is_multiple_of(config.crawl_delay_every))
            .then_some(config.crawl_delay_secs);
    let word = rng.pick(NAME_WORDS);
    Site {
        index,
        host: format!("site{index}.test"),
        name: format!("The {} {word}", text::capitalised_place(&mut rng)),
        feed,
        sitemap,
        robots,
        crawl_delay,
    }
}
