//! Table tests for `fix_common_url_mistakes` and scheme detection (section 1.1).

use super::prepare;

#[track_caller]
fn check(raw: &str, expected: Option<&str>) {
    assert_eq!(prepare(raw).as_deref(), expected, "prepare({raw:?})");
}

#[test]
fn repairs() {
    check(" http://x.com/a ", Some("http://x.com/a"));
    check("http://http://x.com", Some("http://x.com"));
    check("https://http:x.com", Some("https://http:x.com"));
    check("http://https://x.com", Some("http://x.com"));
    check("http://https//x.com", Some("http://x.com"));
    check("http://http:////x.com", Some("http:////x.com"));
    check("http:/x.com", Some("http://x.com"));
    check("HTTPS:/x.com", Some("HTTPS://x.com"));
    check("http:/\u{e9}.com", Some("http://\u{e9}.com"));
    check("//x.com/a", Some("http://x.com/a"));
    check("x.com\\a\\b", Some("http://x.com/a/b"));
}

#[test]
fn schemes() {
    check("x.com", Some("http://x.com"));
    check("localhost:8080/a", Some("http://localhost:8080/a"));
    check("www.x.com:/a", Some("http://www.x.com:/a"));
    check("HTTP://x.com", Some("HTTP://x.com"));
    check("ftp://x.com", None);
    check("mailto:a@b.c", None);
    check("javascript:alert(1)", None);
    check("/a", None);
    check("./a", None);
    check("?a", None);
    check("#a", None);
    check(":8080", None);
    check("", None);
}
