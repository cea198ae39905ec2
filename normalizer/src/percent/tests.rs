//! Table tests for escape normalisation of one component.

use super::{Part, Style, normalize_into};

#[track_caller]
fn check(part: Part, lowercase: bool, input: &str, expected: &str) {
    let style = Style { part, lowercase, plus_is_space: part == Part::Query && lowercase };
    let mut out = String::new();
    normalize_into(input, style, &mut out);
    assert_eq!(out, expected, "normalize_into({input:?}, {part:?}, lowercase: {lowercase})");
    let mut again = String::new();
    normalize_into(&out, style, &mut again);
    assert_eq!(again, out, "not a fixed point on {out:?}");
}

#[test]
fn unreserved_characters_are_decoded() {
    check(Part::Path, false, "%41%62%7e%2D%2e%5F", "Ab~-._");
    check(Part::Path, true, "%41%62%7E", "ab~");
    check(Part::Query, false, "%7e", "~");
}

#[test]
fn hex_is_upper_case() {
    check(Part::Path, false, "%2f%3f%23%25", "%2F%3F%23%25");
    check(Part::Query, false, "%26%3d%2b%23%27", "%26%3D%2B%23%27");
}

#[test]
fn safe_reserved_characters_are_decoded_per_component() {
    check(Part::Path, false, "%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A%40", "!$&'()*+,;=:@");
    check(Part::Query, false, "%21%24%28%29%2A%2C%2F%3A%3B%3F%40%5B%5D", "!$()*,/:;?@[]");
    check(Part::Path, false, "%2F%3F", "%2F%3F");
    check(Part::Query, false, "%26%3D", "%26%3D");
}

#[test]
fn plus_in_a_lossy_query() {
    check(Part::Query, true, "a+b", "a%20b");
    check(Part::Query, false, "a+b", "a+b");
    check(Part::Path, true, "a+b", "a+b");
}

#[test]
fn non_ascii() {
    check(Part::Path, false, "%c3%bc", "%C3%BC");
    check(Part::Path, true, "%C3%9C", "%C3%BC");
    check(Part::Path, false, "e%CC%81", "%C3%A9");
    check(Part::Path, false, "%E9t%E9", "%E9t%E9");
    check(Part::Path, true, "%C9T%C9", "%C9t%C9");
    check(Part::Path, true, "%E2%84%AA", "k");
}

#[test]
fn stray_percent_signs() {
    check(Part::Path, false, "100%", "100%25");
    check(Part::Path, false, "%zz%4", "%25zz%254");
}
