//! robots.txt, as RFC 9309 specifies it, plus the `Crawl-delay` and `Sitemap` extensions.
//!
//! [`Robots::parse`] takes the raw bytes and the crawler's product token and keeps only what
//! concerns us: the rules of the groups that name our token (or of the `*` groups when none
//! does), their crawl delay, and every `Sitemap:` line. Matching follows the RFC: the longest
//! matching pattern wins, `allow` wins a tie, `*` matches any run of characters and a final `$`
//! anchors the end; paths and patterns are compared after the same percent-encoding
//! normalisation. `/robots.txt` itself is always allowed.
//!
//! What to do when robots.txt cannot be fetched is the polite client's policy (RFC 9309 §2.3.1,
//! see `crate::client`): a 4xx means no rules ([`Robots::allow_all`]); a 5xx, a 429 or a network
//! failure makes the host unreachable for now, retried with backoff, its last good copy or
//! [`Robots::disallow_all`] applying after a long outage.

/// The most of a robots.txt that is parsed (the RFC asks for at least 500 KiB).
pub const MAX_ROBOTS_BYTES: usize = 512 * 1024;

/// The parsed rules that apply to one crawler.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Robots {
    rules: Vec<Rule>,
    crawl_delay: Option<f64>,
    sitemaps: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct Rule {
    allow: bool,
    /// The normalised pattern, without a trailing `$`.
    pattern: String,
    anchored: bool,
}

impl Robots {
    /// No rules: everything is allowed.
    pub fn allow_all() -> Robots {
        Robots::default()
    }

    /// Everything (but `/robots.txt`) is disallowed.
    pub fn disallow_all() -> Robots {
        Robots {
            rules: vec![Rule { allow: false, pattern: "/".to_owned(), anchored: false }],
            ..Robots::default()
        }
    }

    /// Parses a robots.txt body for the crawler whose product token is `agent` (e.g. `morgue`).
    /// Never fails: lines that do not parse are ignored, as the RFC asks.
    pub fn parse(body: &[u8], agent: &str) -> Robots {
        let body = &body[..body.len().min(MAX_ROBOTS_BYTES)];
        let text = String::from_utf8_lossy(body);
        let agent = agent.trim().to_ascii_lowercase();

        // Groups: the user agents they name and their lines.
        let mut ours = Group::default();
        let mut star = Group::default();
        let mut named_us = false;
        let mut sitemaps = Vec::new();
        let mut current_agents: Vec<String> = Vec::new();
        let mut in_rules = false;

        for raw_line in text.lines() {
            let line = raw_line.split('#').next().unwrap_or_default().trim();
            let Some((field, value)) = line.split_once(':') else { continue };
            let field = field.trim().to_ascii_lowercase();
            let value = value.trim();
            match field.as_str() {
                "user-agent" => {
                    if in_rules {
                        current_agents.clear();
                        in_rules = false;
                    }
                    current_agents.push(product_token(value));
                }
                "allow" | "disallow" | "crawl-delay" => {
                    in_rules = true;
                    let applies_to_us = current_agents.contains(&agent);
                    let applies_to_star = current_agents.iter().any(|name| name == "*");
                    if applies_to_us {
                        named_us = true;
                        ours.add(&field, value);
                    }
                    if applies_to_star {
                        star.add(&field, value);
                    }
                }
                "sitemap" | "site-map"
                    if (value.starts_with("http://") || value.starts_with("https://"))
                        && !sitemaps.iter().any(|known| known == value) =>
                {
                    sitemaps.push(value.to_owned());
                }
                _ => {}
            }
        }
        let group = if named_us { ours } else { star };
        Robots { rules: group.rules, crawl_delay: group.crawl_delay, sitemaps }
    }

    /// Whether the path (with its query) of a URL may be fetched.
    ///
    /// `path_and_query` starts with `/`, e.g. `/news/a?id=3`.
    pub fn allowed(&self, path_and_query: &str) -> bool {
        let path = normalize(if path_and_query.is_empty() { "/" } else { path_and_query });
        if path == "/robots.txt" {
            return true;
        }
        let mut best: Option<(&Rule, usize)> = None;
        for rule in &self.rules {
            if matches(rule, &path) {
                let length = rule.pattern.len() + usize::from(rule.anchored);
                let better = match best {
                    None => true,
                    Some((current, current_length)) => {
                        length > current_length
                            || (length == current_length && rule.allow && !current.allow)
                    }
                };
                if better {
                    best = Some((rule, length));
                }
            }
        }
        best.is_none_or(|(rule, _)| rule.allow)
    }

    /// The `Crawl-delay` of our group, in seconds, if it gave a usable one.
    pub fn crawl_delay(&self) -> Option<f64> {
        self.crawl_delay
    }

    /// Every `Sitemap:` URL, in order, without repeats.
    pub fn sitemaps(&self) -> &[String] {
        &self.sitemaps
    }
}

#[derive(Debug, Default)]
struct Group {
    rules: Vec<Rule>,
    crawl_delay: Option<f64>,
}

impl Group {
    fn add(&mut self, field: &str, value: &str) {
        match field {
            "crawl-delay" => {
                if let Ok(seconds) = value.parse::<f64>()
                    && seconds.is_finite()
                    && seconds >= 0.0
                {
                    // Several groups may name us; the most cautious delay wins.
                    self.crawl_delay = Some(self.crawl_delay.map_or(seconds, |d| d.max(seconds)));
                }
            }
            _ => {
                // An empty `Disallow:` means nothing is disallowed: not a rule.
                if value.is_empty() {
                    return;
                }
                let (pattern, anchored) = match value.strip_suffix('$') {
                    Some(pattern) => (pattern, true),
                    None => (value, false),
                };
                let mut pattern = normalize(pattern);
                if !pattern.starts_with('/') && !pattern.starts_with('*') {
                    pattern.insert(0, '/');
                }
                self.rules.push(Rule { allow: field == "allow", pattern, anchored });
            }
        }
    }
}

/// The product token of a `User-agent` value, lower-cased: `Morgue/1.0 (+url)` is `morgue`.
fn product_token(value: &str) -> String {
    if value.trim() == "*" {
        return "*".to_owned();
    }
    value
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Whether `path` matches a rule's pattern (`*` wildcards, optional end anchor).
fn matches(rule: &Rule, path: &str) -> bool {
    let mut pieces = rule.pattern.split('*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = path.strip_prefix(first) else { return false };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        // No wildcard: a prefix match, or an exact one when anchored.
        return !rule.anchored || rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    if rule.anchored { rest.ends_with(last) } else { rest.contains(last) }
}

/// Percent-encoding normalisation shared by paths and patterns: escapes of unreserved characters
/// are decoded, other escapes get upper-case hex, and bytes outside printable ASCII are escaped.
fn normalize(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(i + 1).and_then(|b| (*b as char).to_digit(16)),
                bytes.get(i + 2).and_then(|b| (*b as char).to_digit(16)),
            )
        {
            let decoded = (high * 16 + low) as u8;
            if decoded.is_ascii_alphanumeric() || b"-._~".contains(&decoded) {
                out.push(decoded as char);
            } else {
                out.push_str(&format!("%{decoded:02X}"));
            }
            i += 3;
            continue;
        }
        if byte.is_ascii_graphic() {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(robots: &str, agent: &str, cases: &[(&str, bool)]) {
        let parsed = Robots::parse(robots.as_bytes(), agent);
        for (path, expected) in cases {
            assert_eq!(parsed.allowed(path), *expected, "{path} in {parsed:?}");
        }
    }

    #[test]
    fn groups_for_us_replace_the_star_group() {
        let robots =
            "User-agent: *\nDisallow: /private\n\nUser-agent: Morgue\nDisallow: /archive\n";
        check(robots, "morgue", &[("/private/x", true), ("/archive/1", false), ("/", true)]);
        check(robots, "otherbot", &[("/private/x", false), ("/archive/1", true)]);
    }

    #[test]
    fn consecutive_user_agents_share_a_group_and_groups_merge() {
        let robots =
            "User-agent: a\nUser-agent: morgue\nDisallow: /x\n\nUser-agent: morgue\nDisallow: /y\n";
        check(robots, "morgue", &[("/x", false), ("/y", false), ("/z", true)]);
    }

    #[test]
    fn longest_match_wins_and_allow_wins_ties() {
        let robots =
            "User-agent: *\nDisallow: /news\nAllow: /news/public\nAllow: /page\nDisallow: /page\n";
        check(robots, "morgue", &[("/news/a", false), ("/news/public/a", true), ("/page", true)]);
    }

    #[test]
    fn wildcards_and_anchors() {
        let robots = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*q=\nDisallow: /exact$\n";
        check(
            robots,
            "morgue",
            &[
                ("/files/a.pdf", false),
                ("/files/a.pdf?x=1", true),
                ("/search?q=rust", false),
                ("/search/all?page=2&q=x", false),
                ("/searching", true),
                ("/exact", false),
                ("/exact/more", true),
            ],
        );
    }

    #[test]
    fn empty_disallow_and_no_rules_allow_everything() {
        check("User-agent: *\nDisallow:\n", "morgue", &[("/anything", true)]);
        check("", "morgue", &[("/anything", true)]);
        check("garbage\n\u{0}\u{1}:::\n", "morgue", &[("/anything", true)]);
    }

    #[test]
    fn robots_txt_is_always_allowed() {
        assert!(Robots::disallow_all().allowed("/robots.txt"));
        assert!(!Robots::disallow_all().allowed("/"));
        assert!(Robots::allow_all().allowed("/"));
    }

    #[test]
    fn percent_encoding_is_compared_normalised() {
        let robots = "User-agent: *\nDisallow: /%7Euser\nDisallow: /caf\u{e9}\nDisallow: /a%2fb\n";
        check(
            robots,
            "morgue",
            &[("/~user/x", false), ("/caf%C3%A9", false), ("/a%2Fb", false), ("/a/b", true)],
        );
    }

    #[test]
    fn crawl_delay_and_sitemaps() {
        let robots = "Sitemap: https://x.example/sitemap.xml\nUser-agent: *\nCrawl-delay: 2.5\n\
                      Disallow: /tmp\nsitemap: https://x.example/news.xml # news\n\
                      Sitemap: https://x.example/sitemap.xml\nSitemap: /relative.xml\n\
                      User-agent: morgue\nCrawl-delay: 10\nCrawl-delay: nonsense\n";
        let ours = Robots::parse(robots.as_bytes(), "morgue");
        assert_eq!(ours.crawl_delay(), Some(10.0));
        assert_eq!(
            ours.sitemaps(),
            ["https://x.example/sitemap.xml", "https://x.example/news.xml"]
        );
        assert!(ours.allowed("/tmp/x"), "our own group has no disallow");
        let others = Robots::parse(robots.as_bytes(), "otherbot");
        assert_eq!(others.crawl_delay(), Some(2.5));
        assert!(!others.allowed("/tmp/x"));
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token("Morgue/0.1 (+https://example.org)"), "morgue");
        assert_eq!(product_token(" * "), "*");
        assert_eq!(product_token("Googlebot-News"), "googlebot-news");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body: Vec<u8>, path: String) {
            let robots = Robots::parse(&body, "morgue");
            let _ = robots.allowed(&path);
            let _ = robots.allowed(&format!("/{path}"));
        }

        #[test]
        fn arbitrary_rules_never_panic(lines: Vec<(bool, String)>, path: String) {
            let mut body = String::from("User-agent: *\n");
            for (allow, pattern) in &lines {
                body.push_str(if *allow { "Allow: " } else { "Disallow: " });
                body.push_str(pattern);
                body.push('\n');
            }
            let robots = Robots::parse(body.as_bytes(), "morgue");
            let _ = robots.allowed(&format!("/{path}"));
        }
    }
}
