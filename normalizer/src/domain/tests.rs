//! Table tests for `canonical_domain` (section 1.8), the skip list, and the pinned public suffix list.

use super::{PUBLIC_SUFFIX_LIST_VERSION, canonical_domain, is_non_news_domain};

#[track_caller]
fn check(url: &str, expected: Option<&str>) {
    assert_eq!(canonical_domain(url).as_deref(), expected, "canonical_domain({url:?})");
}

#[test]
fn registrable_domains() {
    check("https://www.bbc.co.uk/news", Some("bbc.co.uk"));
    check("http://news.bbc.co.uk/a", Some("bbc.co.uk"));
    check("https://edition.cnn.com/2020/a", Some("cnn.com"));
    check("https://news.google.com/rss/articles/CBMi", Some("google.com"));
    check("https://www.bücher.de/", Some("xn--bcher-kva.de"));
    check("https://WWW.Example.COM:8080/a", Some("example.com"));
    check("example.com/a", Some("example.com"));
}

#[test]
fn ip_addresses() {
    check("http://147.182.248.18/x", Some("147.182.248.18"));
    check("http://[2001:db8::1]/x", Some("2001:db8::1"));
}

#[test]
fn blogging_platforms_keep_the_subdomain() {
    check("https://foo.wordpress.com/2020/a", Some("foo.wordpress.com"));
    check("https://www.foo.wordpress.com/2020/a", Some("foo.wordpress.com"));
    check("https://abcnews.go.com/US/a", Some("abcnews.go.com"));
    check("https://someone.substack.com/p/a", Some("someone.substack.com"));
    check("https://foo.blogspot.com.br/a", Some("foo.blogspot.com.br"));
    check("https://wordpress.com/a", Some("wordpress.com"));
}

#[test]
fn suffix_only_hosts() {
    check("http://gov.cn/", Some("gov.cn"));
    check("http://ma.gov.br/", Some("ma.gov.br"));
    check("http://www.planalto.gov.br/", Some("planalto.gov.br"));
}

#[test]
fn private_suffixes_are_off() {
    check("http://shop.myshopify.com/", Some("myshopify.com"));
    check("http://bucket.s3.amazonaws.com/a", Some("amazonaws.com"));
}

#[test]
fn amp() {
    check(
        "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/a/amp/",
        Some("example.com"),
    );
    check("https://www.google.com/amp/s/www.example.com/a", Some("example.com"));
}

#[test]
fn not_domains() {
    check("", None);
    check("mailto:a@b.c", None);
    check("http://localhost/", None);
}

#[test]
fn deviation_platform_pattern_on_the_host_only() {
    check("https://example.com/story/on.wordpress.com/a", Some("example.com"));
}

#[test]
fn deviation_amp_cache_hosts_decoded() {
    check("https://www-kenya--today-com.cdn.ampproject.org/", Some("kenya-today.com"));
    check("https://foo-wordpress-com.cdn.ampproject.org/", Some("foo.wordpress.com"));
}

#[test]
fn deviation_unknown_tlds_use_the_default_rule() {
    check("http://a.b.unknowntld/", Some("b.unknowntld"));
}

#[test]
fn non_news_domains() {
    assert!(is_non_news_domain("youtube.com"));
    assert!(is_non_news_domain("www.youtube.com"));
    assert!(is_non_news_domain("en.wikipedia.org"));
    assert!(is_non_news_domain("YouTube.COM."));
    assert!(!is_non_news_domain("notyoutube.com"));
    assert!(!is_non_news_domain("nytimes.com"));
    assert!(!is_non_news_domain(""));
}

#[test]
fn public_suffix_list_is_pinned() {
    // The workspace manifest pins the `psl` crate exactly (every version is set there once); the
    // version names the compiled list snapshot.
    let manifest = include_str!("../../../Cargo.toml");
    let pinned = PUBLIC_SUFFIX_LIST_VERSION.strip_prefix("psl ").unwrap_or_default();
    assert!(
        manifest.contains(&format!("psl = \"={pinned}\"")),
        "Cargo.toml does not pin {PUBLIC_SUFFIX_LIST_VERSION}"
    );
    // Facts of that snapshot that the keys depend on.
    check("http://a.b.city.kawasaki.jp/", Some("city.kawasaki.jp"));
    check("http://x.sch.uk/", Some("x.sch.uk"));
    check("http://news.example.com.au/", Some("example.com.au"));
}
