//! What the friendly sites serve: homepages, robots.txt, feeds, sitemaps, redirects and articles.

use std::io::Write;

use crate::http::{Request, Response};
use crate::text::{self, Rng, escape};
use crate::world::{Article, FeedStyle, Site, SitemapStyle, World};

/// Answers a request to a friendly site. `origin` is `http://host:port` of the requested host.
pub(crate) fn respond(world: &World, site: &Site, request: &Request, origin: &str) -> Response {
    let base = base_origin(site, origin);
    let path = request.path.split('?').next().unwrap_or("/");
    let response = match path {
        "/" | "/index.html" => Some(Response::html(homepage(world, site, &base))),
        "/robots.txt" if site.robots => Some(Response::text(robots(site, &base))),
        "/feed.xml" if matches!(site.feed, FeedStyle::LinkRss | FeedStyle::Mobile) => {
            Some(conditional(request, "application/rss+xml", rss(world, site, &base)))
        }
        "/atom.xml" if site.feed == FeedStyle::LinkAtom => {
            Some(conditional(request, "application/atom+xml", atom(world, site, &base)))
        }
        "/feeds/all.xml" if site.feed == FeedStyle::Anchor => {
            Some(conditional(request, "application/rss+xml", rss(world, site, &base)))
        }
        "/rss.xml" if site.feed == FeedStyle::Guessed => {
            Some(conditional(request, "application/rss+xml", rss(world, site, &base)))
        }
        "/sitemap_index.xml" if site.sitemap == SitemapStyle::RobotsIndex => {
            Some(conditional(request, "application/xml", sitemap_index(world, &base)))
        }
        "/sitemaps/news.xml.gz" if site.sitemap == SitemapStyle::RobotsIndex => {
            Some(gzip_file(request, news_sitemap(world, site, &base)))
        }
        "/sitemaps/all.xml.gz" if site.sitemap == SitemapStyle::RobotsIndex => {
            Some(gzip_file(request, urlset(world, site, &base)))
        }
        "/sitemap.xml" if site.sitemap == SitemapStyle::WellKnown => {
            Some(conditional(request, "application/xml", urlset(world, site, &base)))
        }
        _ => None,
    };
    if let Some(response) = response {
        return response;
    }
    if let Some(article) = world.redirected(site, path) {
        return Response::redirect(301, &format!("{base}{}", article.path));
    }
    match world.article_at(site, path) {
        Some(article) => Response::html(article_page(world, site, &article, &base)),
        None => Response::not_found(),
    }
}

/// The site's own origin: `m.` and `www.` hosts serve the same site, whose canonical host is bare.
fn base_origin(site: &Site, origin: &str) -> String {
    let port = origin.rsplit_once(':').map(|(_, port)| port).unwrap_or("80");
    format!("http://{}:{port}", site.host)
}

/// The URL a feed gives for an article: tracking parameters always, a `/go/` redirect for every
/// ninth article, the `m.` host on mobile sites.
pub(crate) fn feed_link(site: &Site, article: &Article, base: &str) -> String {
    let base = if site.feed == FeedStyle::Mobile {
        base.replacen("http://", "http://m.", 1)
    } else {
        base.to_owned()
    };
    let path = if article.number % 9 == 4 {
        format!("/go/{}", article.number)
    } else {
        article.path.clone()
    };
    format!("{base}{path}?utm_source=rss&utm_medium=feed&utm_campaign=site{}", site.index)
}

fn homepage(world: &World, site: &Site, base: &str) -> String {
    let mut head = String::new();
    match site.feed {
        FeedStyle::LinkRss | FeedStyle::Mobile => head.push_str(&format!(
            r#"<link rel="alternate" type="application/rss+xml" title="{} - All stories" href="/feed.xml">"#,
            escape(&site.name)
        )),
        FeedStyle::LinkAtom => head.push_str(r#"<link rel="alternate" type="application/atom+xml" href="/atom.xml">"#),
        _ => {}
    }
    let mut list = String::new();
    for article in world.articles(site).iter().filter(|a| !a.stale).take(20) {
        list.push_str(&format!(
            "<li><a href=\"{base}{}\">{}</a></li>\n",
            article.path,
            escape(&article.headline)
        ));
    }
    let anchor = if site.feed == FeedStyle::Anchor {
        r#"<p class="subscribe"><a href="/feeds/all.xml">Subscribe to our news feed</a></p>"#
    } else {
        ""
    };
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}: news from the region</title>{head}</head>\
         <body><header><h1>{name}</h1><nav><a href=\"/\">Home</a> <a href=\"/politics/\">Politics</a> <a href=\"/sport/\">Sport</a></nav></header>\
         <main><h2>Latest</h2><ul>\n{list}</ul>{anchor}</main><footer>&copy; {name}</footer></body></html>\n",
        name = escape(&site.name)
    )
}

fn robots(site: &Site, base: &str) -> String {
    let mut text =
        String::from("# robots.txt for a test site\nUser-agent: *\nDisallow: /private/\n");
    if let Some(delay) = site.crawl_delay {
        text.push_str(&format!("Crawl-delay: {delay}\n"));
    }
    text.push_str("\nUser-agent: BadBot\nDisallow: /\n");
    if site.sitemap == SitemapStyle::RobotsIndex {
        text.push_str(&format!("\nSitemap: {base}/sitemap_index.xml\n"));
    }
    text
}

fn feed_articles(world: &World, site: &Site) -> Vec<Article> {
    world.articles(site).into_iter().filter(|a| world.in_feed(site, a)).collect()
}

fn rss(world: &World, site: &Site, base: &str) -> String {
    let mut items = String::new();
    for article in feed_articles(world, site) {
        items.push_str(&format!(
            "<item><title>{}</title><link>{}</link><guid isPermaLink=\"false\">{}-{}</guid><pubDate>{}</pubDate><description>{}</description></item>\n",
            escape(&article.headline),
            escape(&feed_link(site, &article, base)),
            site.host,
            article.number,
            article.published.to_rfc2822(),
            escape(&lead(world, site, &article)),
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\"><channel>\
         <title>{name}</title><link>{base}/</link><description>Latest stories</description>\
         <sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>\n{items}</channel></rss>\n",
        name = escape(&site.name)
    )
}

fn atom(world: &World, site: &Site, base: &str) -> String {
    let articles = feed_articles(world, site);
    let updated = articles.first().map_or(world.config.now, |a| a.published);
    let mut entries = String::new();
    for article in articles {
        entries.push_str(&format!(
            "<entry><title>{}</title><link rel=\"alternate\" href=\"{}\"/><id>tag:{},2026:{}</id><published>{}</published><updated>{}</updated><summary>{}</summary></entry>\n",
            escape(&article.headline),
            escape(&feed_link(site, &article, base)),
            site.host,
            article.number,
            article.published.to_rfc3339(),
            article.published.to_rfc3339(),
            escape(&lead(world, site, &article)),
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>{name}</title>\
         <link href=\"{base}/\"/><id>{base}/</id><updated>{}</updated>\n{entries}</feed>\n",
        updated.to_rfc3339(),
        name = escape(&site.name)
    )
}

fn sitemap_index(world: &World, base: &str) -> String {
    let now = world.config.now.to_rfc3339();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
         <sitemap><loc>{base}/sitemaps/news.xml.gz</loc><lastmod>{now}</lastmod></sitemap>\
         <sitemap><loc>{base}/sitemaps/all.xml.gz</loc><lastmod>{now}</lastmod></sitemap></sitemapindex>\n"
    )
}

/// A Google News sitemap: articles of the last two days, with their news fields.
fn news_sitemap(world: &World, site: &Site, base: &str) -> String {
    let cutoff = world.config.now - chrono::Duration::days(2);
    let mut urls = String::new();
    for article in world.articles(site).iter().filter(|a| a.published >= cutoff) {
        urls.push_str(&format!(
            "<url><loc>{base}{}</loc><news:news><news:publication><news:name>{}</news:name><news:language>en</news:language></news:publication>\
             <news:publication_date>{}</news:publication_date><news:title>{}</news:title></news:news></url>\n",
            article.path,
            escape(&site.name),
            article.published.to_rfc3339(),
            escape(&article.headline),
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n{urls}</urlset>\n"
    )
}

/// A plain urlset of every article, with `lastmod`.
fn urlset(world: &World, site: &Site, base: &str) -> String {
    let mut urls = String::new();
    for article in world.articles(site) {
        urls.push_str(&format!(
            "<url><loc>{base}{}</loc><lastmod>{}</lastmod></url>\n",
            article.path,
            article.published.to_rfc3339()
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{urls}</urlset>\n"
    )
}

/// The paragraphs of an article: a wire story's (with the site's small edits) or its own.
pub(crate) fn paragraphs(world: &World, site: &Site, article: &Article) -> Vec<String> {
    let mut own = Rng::new(world.config.seed, &[3, site.index as u64, article.number as u64]);
    let topic = world.topic(site, article.number, article.wire);
    match article.wire {
        Some(story) => {
            let mut rng = Rng::new(world.config.seed, &[4, story as u64]);
            let count = rng.between(6, 9);
            let mut paragraphs: Vec<String> =
                (0..count).map(|_| text::paragraph(&topic, &mut rng)).collect();
            // Sites trim the tail or add their own line.
            match own.below(3) {
                0 => {
                    paragraphs.pop();
                }
                1 => paragraphs.push(format!(
                    "{} contributed reporting from {}.",
                    text::person(&mut own),
                    site.name
                )),
                _ => {}
            }
            paragraphs
        }
        None => {
            let count = own.between(5, 9);
            (0..count).map(|_| text::paragraph(&topic, &mut own)).collect()
        }
    }
}

/// The sentence every article of a site ends with.
pub(crate) fn house_sentence(site: &Site) -> String {
    format!(
        "{} has covered the region's councils, courts and schools for decades, and its reporters live in the towns they write about.",
        site.name
    )
}

fn lead(world: &World, site: &Site, article: &Article) -> String {
    paragraphs(world, site, article).into_iter().next().unwrap_or_default()
}

fn article_page(world: &World, site: &Site, article: &Article, base: &str) -> String {
    let mut rng = Rng::new(world.config.seed, &[5, site.index as u64, article.number as u64]);
    let author = text::person(&mut rng);
    let mut body = String::new();
    for paragraph in paragraphs(world, site, article) {
        body.push_str(&format!("<p>{}</p>\n", escape(&paragraph)));
    }
    // Every article of a site ends with the same sentence: the repeated-sentence rule's target.
    body.push_str(&format!("<p>{}</p>\n", escape(&house_sentence(site))));
    let related: String = (1..=3)
        .filter_map(|k| {
            world
                .config
                .articles_per_host
                .checked_sub(1)
                .map(|last| (article.number + k) % (last + 1))
        })
        .map(|n| {
            let other = world.article(site, n);
            format!("<li><a href=\"{base}{}\">{}</a></li>", other.path, escape(&other.headline))
        })
        .collect();
    let published = article.published.to_rfc3339();
    let headline = escape(&article.headline);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{headline} | {name}</title>\
         <meta property=\"og:title\" content=\"{headline}\">\
         <meta property=\"og:site_name\" content=\"{name}\">\
         <meta property=\"article:published_time\" content=\"{published}\">\
         <meta name=\"author\" content=\"{author}\">\
         <link rel=\"canonical\" href=\"{base}{path}\"></head>\n\
         <body><div class=\"cookie-banner\">We use cookies to improve your experience. <button>Accept all</button></div>\
         <header><a href=\"/\">{name}</a><nav><a href=\"/politics/\">Politics</a> <a href=\"/sport/\">Sport</a> <a href=\"/weather/\">Weather</a></nav></header>\n\
         <main><article><h1>{headline}</h1><p class=\"byline\">By {author}</p><time datetime=\"{published}\">{display}</time>\n\
         {body}</article>\
         <aside class=\"related\"><h2>Related stories</h2><ul>{related}</ul></aside></main>\n\
         <footer><p>&copy; 2026 {name}. All rights reserved.</p><a href=\"/about\">About us</a></footer></body></html>\n",
        name = escape(&site.name),
        path = article.path,
        display = article.published.format("%-d %B %Y, %H:%M"),
    )
}

/// A response that honours `If-None-Match` and `If-Modified-Since` with a `304`.
fn conditional(request: &Request, content_type: &str, body: String) -> Response {
    let etag = format!("\"{:016x}\"", fnv(body.as_bytes()));
    // The content is a function of the seed and start time, so a fixed date is honest enough.
    let last_modified = "Sat, 21 Nov 2026 12:00:00 GMT";
    let unchanged = request.header("if-none-match").is_some_and(|tag| tag == etag)
        || (request.header("if-none-match").is_none()
            && request.header("if-modified-since") == Some(last_modified));
    let mut response = if unchanged {
        Response::status(304)
    } else {
        Response::bytes(200, content_type, body.into_bytes())
    };
    response.headers.push(("ETag".into(), etag));
    response.headers.push(("Last-Modified".into(), last_modified.into()));
    response
}

/// A `.xml.gz` file: a gzip body served as `application/x-gzip`, no content encoding.
fn gzip_file(request: &Request, xml: String) -> Response {
    let mut response = conditional(request, "application/x-gzip", xml);
    if let crate::http::Body::Bytes(xml) = &response.body
        && response.status == 200
    {
        response.body = crate::http::Body::Bytes(gzip(xml));
    }
    response
}

pub(crate) fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// FNV-1a, for ETags.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
