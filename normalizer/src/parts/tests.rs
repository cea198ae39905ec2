//! Table tests for path and query assembly.

use super::{clean_query, normalize_path};

#[track_caller]
fn check_path(raw: &str, lowercase: bool, strip_amp: bool, expected: &str) {
    assert_eq!(normalize_path(raw, lowercase, strip_amp), expected, "normalize_path({raw:?})");
}

#[track_caller]
fn check_query(raw: &str, lossy: bool, expected: &str) {
    assert_eq!(clean_query(raw, "example.com", lossy, lossy), expected, "clean_query({raw:?})");
}

#[test]
fn paths() {
    check_path("/", false, false, "/");
    check_path("", false, false, "/");
    check_path("//", false, false, "/");
    check_path("/A//B/", false, false, "/A/B/");
    check_path("/A//B/", true, false, "/a/b/");
    check_path("/a/amp", false, false, "/a/amp");
}

#[test]
fn amp_paths() {
    check_path("/a/amp", true, true, "/a/");
    check_path("/a/amp/", true, true, "/a/");
    check_path("/amp/a", true, true, "/a");
    check_path("/amp/amp/", true, true, "/");
    check_path("/a.amp", true, true, "/a");
    check_path("/a.amp.html", true, true, "/a.html");
    check_path("/y.amp/amp.amp", true, true, "/y/");
    check_path("/.amp", true, true, "/.amp");
    check_path("/ampere/amplify", true, true, "/ampere/amplify");
}

#[test]
fn queries() {
    check_query("b=2&a=1", true, "a=1&b=2");
    check_query("b=2&a=1", false, "b=2&a=1");
    check_query("a=&b", true, "a&b");
    check_query("utm_source=x", true, "");
    check_query("q=a+b", true, "q=a%20b");
    check_query("q=a+b", false, "q=a+b");
    check_query("&&", true, "");
}
