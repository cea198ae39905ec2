//! Table tests for shortener and homepage detection (section 1.9).

use super::{SHORTENERS, is_homepage_url, is_shortened_url};

#[track_caller]
fn check_short(url: &str, expected: bool) {
    assert_eq!(is_shortened_url(url), expected, "is_shortened_url({url:?})");
}

#[track_caller]
fn check_home(url: &str, expected: bool) {
    assert_eq!(is_homepage_url(url), expected, "is_homepage_url({url:?})");
}

#[test]
fn shortened() {
    check_short("https://bit.ly/3xYzAbC", true);
    check_short("https://www.bit.ly/3xYzAbC", true);
    check_short("https://t.co/abc", true);
    check_short("http://feeds.feedburner.com/~r/a/b", true);
    check_short("https://wapo.st/4FGH5Re3", true);
    check_short("https://abc.de/abc123", true);
    check_short("https://abc.de/abc123/", true);
    check_short("https://bit.ly/", false);
    check_short("https://bit.ly", false);
    check_short("https://abcde.de/abc123", false);
    check_short("https://abc.de/ab", false);
    check_short("https://abc.de/abc?x=1", false);
    check_short("https://abc.com/abc123", false);
    check_short("https://www.nytimes.com/2020/01/01/a.html", false);
    check_short("not a url", false);
}

#[test]
fn homepages() {
    check_home("http://www.nytimes.com", true);
    check_home("http://www.nytimes.com/", true);
    check_home("http://m.wired.com///", true);
    check_home("https://www.bbc.com/news/", true);
    check_home("https://example.com/en/", true);
    check_home("https://example.com/US", true);
    check_home("https://example.com/global/", true);
    check_home("https://example.com/trends/explore", true);
    check_home("https://example.com/abcdefghijklmnopq/", true);
    check_home("https://example.com/abcdefghijklmnopqr/", false);
    check_home("https://example.com/abcdefghijklmnopqr", false);
    check_home("https://example.com/oKyFAMiZMbU", false);
    check_home("https://example.com/1uSjCJp", false);
    check_home("https://example.com/2020/01/01/story.html", false);
    check_home("https://www.france24.com/en/?altcast_code=x", true);
    check_home("https://bit.ly/abcdef", false);
    check_home("", false);
}

#[test]
fn deviation_a_remaining_query_is_not_a_homepage() {
    check_home("http://bash.org/?244321", false);
    check_home("https://example.com/?p=123", false);
    check_home("https://example.com/?utm_source=x", true);
}

#[test]
fn shortener_list_is_sorted() {
    assert!(SHORTENERS.windows(2).all(|w| w[0] < w[1]));
}
