//! The plain-title key against the general path, byte for byte, on every title it accepts; and it must
//! accept the plain titles.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use super::{classify, classify_portable, key};

/// Whether `key` agrees with the general path on `title` (trivially when it declines it).
#[track_caller]
fn check(title: &str) -> bool {
    let Some(plain) = key(title) else {
        return false;
    };
    assert_eq!(plain, super::super::key_text(title, None), "key of {title:?}");
    true
}

fn is_plain(title: &str) -> bool {
    title.len() <= 128 && title.is_ascii() && !title.contains(['&', '<'])
}

#[test]
fn examples() {
    let titles = [
        "",
        " ",
        "a",
        "-",
        "|",
        "Mayor announces new budget plan for city schools - The Boston Globe",
        "NYT: Trump Avoids Impeachment",
        "The Boston Globe | Mayor announces new budget plan for city schools",
        "Mayor announces new budget plan for city schools | Mayor announces new budget plan for city",
        "  leading and trailing spaces  ",
        "a  b\tc\nd\x0Be\x0Cf\rg",
        "Self-driving cars -x - y -",
        "a -b - c -\td --e",
        "don't stop: U.S. news, 2026 | | a||b::c",
        "|a|",
        ": - |",
        "a - ",
        " - a",
        "x\x1Cy\x1Fz\x00w\x7Fv",
        "Ab1 ,. Cd2 ;; Ef3 -- Gh4 - - Ij5",
        "It's a 32-character part exactly! | x",
        "abcdefghijklmnopqrstuvwxyz012345 | x",
        "abcdefghijklmnopqrstuvwxyz01234 | x",
        ">not a tag> but text",
    ];
    for title in titles {
        assert!(check(title), "declined {title:?}");
    }
}

#[test]
fn declines_what_is_not_plain() {
    for title in ["AT&amp;T", "<b>x</b>", "caf\u{e9}", &"a".repeat(129)] {
        assert_eq!(key(title), None, "{title:?}");
    }
}

#[test]
fn every_length_up_to_the_limit() {
    // Runs, gaps and separators across the sixteen-byte pieces and the 64-byte boundary.
    let pattern = "Ab cd-ef: gh | ij  KL,mn - op\tqr ";
    for n in 0..=128 {
        let title: String = pattern.chars().cycle().take(n).collect();
        assert!(check(&title), "declined {title:?}");
        let title: String = "x".repeat(n);
        assert!(check(&title), "declined {title:?}");
        let title: String = "- ".repeat(n).chars().take(n).collect();
        assert!(check(&title), "declined {title:?}");
    }
}

#[test]
fn every_ascii_byte_in_context() {
    for b in (0..128u8).filter(|&b| b != b'&' && b != b'<') {
        let c = char::from(b);
        for title in [
            format!("{c}"),
            format!("a{c}b"),
            format!("a {c} b"),
            format!("a{c} b"),
            format!("a {c}b"),
            format!("{c} a long enough part to be the key alone {c} x"),
            format!("-{c}"),
            format!("a -{c}b"),
            format!("a{c}-"),
        ] {
            assert!(check(&title), "declined {title:?}");
        }
    }
}

#[test]
fn the_benchmark_titles_agree() {
    let titles = include_str!("../../../benches/data/titles.txt");
    let plain: Vec<&str> = titles.lines().filter(|t| is_plain(t)).collect();
    assert!(plain.len() > 1000, "{} plain titles", plain.len());
    for title in plain {
        assert!(check(title), "declined {title:?}");
    }
}

/// Plain titles made of the characters that matter to the rules.
fn plain_title() -> impl Strategy<Value = String> {
    let pieces = select(vec![
        "a", "Z", "7", "word", "Longer", " ", "  ", "\t", "\n", "-", " - ", "--", ":", "|", " | ",
        ",", ".", "'", "\"", "!", "(", ")", ">", "\x0B", "\x1F", "\x7F", "\0",
    ]);
    vec(pieces, 0..48).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_the_general_path(title in plain_title()) {
        prop_assert_eq!(check(&title), is_plain(&title));
    }

    #[test]
    fn agrees_on_arbitrary_ascii(title in "[\\x00-\\x7F]{0,140}") {
        prop_assert_eq!(check(&title), is_plain(&title));
    }

    #[test]
    fn classify_is_the_portable_classify(chunk in any::<[u8; 16]>()) {
        prop_assert_eq!(classify(&chunk), classify_portable(&chunk));
    }
}
