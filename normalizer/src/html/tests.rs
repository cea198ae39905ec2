//! Table tests for tag stripping and reference decoding.

use super::{decode_entities, strip_tags};

#[track_caller]
fn check_strip(text: &str, expected: &str) {
    assert_eq!(strip_tags(text), expected, "strip_tags({text:?})");
}

#[track_caller]
fn check_decode(text: &str, expected: &str) {
    assert_eq!(decode_entities(text), expected, "decode_entities({text:?})");
}

#[test]
fn tags() {
    check_strip("<b>a</b> b", "a b");
    check_strip("a < b", "a < b");
    check_strip("a < b > c", "a  c");
    check_strip("a << b >", "a <");
    check_strip("<<>>", "<>");
    check_strip("no tags", "no tags");
    check_strip("<", "<");
}

#[test]
fn references() {
    check_decode("Tom &amp; Jerry", "Tom & Jerry");
    check_decode("&lt;b&gt;", "<b>");
    check_decode("caf&eacute; &Eacute;T&Eacute;", "café ÉTÉ");
    check_decode("&#8217;&#x2019;&#X2019;", "’’’");
    check_decode("&#150;", "\u{2013}");
    check_decode("&#0;&#99999999999;&#xD800;", "\u{fffd}\u{fffd}\u{fffd}");
    check_decode("&amp;#039;", "'");
    check_decode("&amp;amp;amp;", "&amp;");
    check_decode("AT&T", "AT&T");
    check_decode("a &unknown; b", "a &unknown; b");
    check_decode("&nbsp", "\u{a0}");
    check_decode("&", "&");
    check_decode("&#", "&#");
    check_decode("&#x;", "&#x;");
}

#[test]
fn every_named_reference_is_found() {
    for (name, c) in super::NAMED {
        assert_eq!(super::named(name), Some(c), "{name}");
        assert_eq!(decode_entities(&format!("&{name};")), c.to_string(), "&{name};");
    }
    for name in ["", "AMP", "Amp", "ampx", "am", "nbspx", "abcdefgh", "abcdefghijklmnop", "ETh"] {
        assert_eq!(super::named(name), None, "{name}");
    }
}
