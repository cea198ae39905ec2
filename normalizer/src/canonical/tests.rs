//! Table tests for `canonical_url` (section 1.5) and `feed_url_key` (section 1.10).

use super::{canonical_url, feed_url_key};

#[track_caller]
fn check(url: &str, expected: Option<&str>) {
    let actual = canonical_url(url);
    assert_eq!(actual.as_deref(), expected, "canonical_url({url:?})");
    if let Some(c) = &actual {
        assert_eq!(
            canonical_url(c).as_deref(),
            Some(c.as_str()),
            "canonical_url is not a fixed point on {c:?}"
        );
    }
}

#[track_caller]
fn check_feed(url: &str, expected: Option<&str>) {
    let actual = feed_url_key(url);
    assert_eq!(actual.as_deref(), expected, "feed_url_key({url:?})");
    if let Some(k) = &actual {
        assert_eq!(
            feed_url_key(k).as_deref(),
            Some(k.as_str()),
            "feed_url_key is not a fixed point on {k:?}"
        );
    }
}

#[test]
fn canonical_urls() {
    check(
        "https://www.facebook.com/BerkmanCenter?ref=br_tf",
        Some("https://www.facebook.com/BerkmanCenter"),
    );
    check(
        "HTTP://WWW.Example.COM:80/A/./b/../C?utm_source=x&b=2&a=1#frag",
        Some("http://www.example.com/A/C?b=2&a=1"),
    );
    check("https://exämple.com/ä", Some("https://xn--exmple-cua.com/%C3%A4"));
    check("https://example.com:8443/a", Some("https://example.com:8443/a"));
    check("https://example.com:443/a", Some("https://example.com/a"));
    check("http://user:pw@example.com/a", Some("http://example.com/a"));
    check("http://example.com/a?q=a+b&c=", Some("http://example.com/a?q=a+b&c"));
    check("http://example.com/%7Euser//x", Some("http://example.com/~user/x"));
    check("http://foo-bar/", Some("http://foo-bar/"));
    check("http://example.com?x=1", Some("http://example.com/?x=1"));
    check("gopher://example.com/", None);
    check("", None);
}

#[test]
fn deviation_canonical_tracking_names_in_any_case() {
    check(
        "http://example.com/a?PHPSESSID=1&ITO=2&Fbclid=3&id=3",
        Some("http://example.com/a?id=3"),
    );
}

#[test]
fn feed_keys() {
    check_feed("https://www.peoplesdailyng.com/feed", Some("http://peoplesdailyng.com/feed"));
    check_feed("http://peoplesdailyng.com/feed/", Some("http://peoplesdailyng.com/feed"));
    check_feed(
        "https://www.example.com:443/Feed/?b=2&a=1#Frag",
        Some("http://example.com/feed?a=1&b=2#frag"),
    );
    check_feed("http://example.com:8080/rss", Some("http://example.com:8080/rss"));
    check_feed("https://example.com:80/rss", Some("http://example.com/rss"));
    check_feed("http://example.com:443/rss", Some("http://example.com:443/rss"));
    check_feed("https://example.com/", Some("http://example.com"));
    check_feed("https://www.com/rss", Some("http://www.com/rss"));
    check_feed("feed://example.com/rss", None);
}

#[test]
fn deviation_feed_keys_are_fixed_points() {
    check_feed("http://www.www.example.com/feed//", Some("http://example.com/feed"));
    check_feed("http://example.com/rss?&&b&a", Some("http://example.com/rss?a&b"));
}
