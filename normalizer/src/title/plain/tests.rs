//! The plain-title key against the general path, byte for byte, on every title it accepts; and it must
//! accept the plain titles.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use super::{classify, classify_portable, key, key_sse2};

/// Whether `key` agrees with the general path on `title` (trivially when it declines it), and so do
/// the sixteen-byte path, and the AVX2 path where the processor has it, whichever `key` takes here.
#[track_caller]
fn check(title: &str) -> bool {
    let general = super::super::key_text(title, None);
    if let Some(key) = key_sse2(title) {
        assert_eq!(key, general, "sixteen-byte key of {title:?}");
    }
    if let Some(Some(key)) = key_avx2(title) {
        assert_eq!(key, general, "AVX2 key of {title:?}");
    }
    let Some(plain) = key(title) else {
        return false;
    };
    assert_eq!(plain, general, "key of {title:?}");
    true
}

/// The AVX2 path's key, if the processor has AVX2 (whether or not `key` takes that path).
fn key_avx2(title: &str) -> Option<Option<String>> {
    #[cfg(target_arch = "x86_64")]
    if super::avx2::available() {
        #[allow(unsafe_code)]
        // SAFETY: `available` said this processor has what `avx2::key` needs.
        return Some(unsafe { super::avx2::key(title) });
    }
    None
}

/// Whether `key` takes a path that also takes titles with a few other characters (AVX-512 or AVX2).
fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        super::avx512::available() || super::avx2::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Titles a path must take: plain ASCII, and for a `wide` one also titles with a few other
/// characters.
fn is_plain(title: &str, wide: bool) -> bool {
    let ascii = title.is_ascii() && !title.contains(['&', '<']);
    title.len() <= 128 && (ascii || (wide && is_nearly_plain(title)))
}

/// Titles `key` must decline: long ones, tags, and non-ASCII characters that fold to letters.
fn is_not_plain(title: &str) -> bool {
    title.len() > 128 || title.contains('<') || !title.chars().all(|c| c.is_ascii() || is_rare(c))
}

/// The characters besides ASCII that the wide paths take: the no-break space, the spaces from
/// U+2000 to U+200A, U+2028, U+2029, U+202F, the en and em dashes, the curly quotes and the ellipsis.
fn is_rare(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2013}'
                | '\u{2014}'
                | '\u{2018}'
                | '\u{2019}'
                | '\u{201c}'
                | '\u{201d}'
                | '\u{2026}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
    )
}

/// A title with no tag, no `&` that may start a reference, and besides ASCII only [`is_rare`]
/// characters.
fn is_nearly_plain(title: &str) -> bool {
    let reference = title.as_bytes().windows(2).any(|pair| {
        pair[0] == b'&' && (pair[1].is_ascii_alphanumeric() || pair[1] == b'#' || pair[1] == b'&')
    });
    !title.contains('<') && !reference && title.chars().all(|c| c.is_ascii() || is_rare(c))
}

/// Checks `title` (see [`check`]), and that `key`, and the AVX2 path where the processor has it,
/// take it or decline it where they must.
#[track_caller]
fn expect(title: &str) {
    let taken = check(title);
    if is_plain(title, wide()) {
        assert!(taken, "declined {title:?}");
    }
    if is_not_plain(title) {
        assert!(!taken, "took {title:?}");
    }
    if let Some(key) = key_avx2(title) {
        if is_plain(title, true) {
            assert!(key.is_some(), "AVX2 declined {title:?}");
        }
        if is_not_plain(title) {
            assert!(key.is_none(), "AVX2 took {title:?}");
        }
    }
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
    for title in [
        "caf&eacute;",
        "&#65;",
        "a &amp;amp; b",
        "a&&amp;b",
        "a &amp;&lt; b",
        "&amp;#39;",
        "<b>x</b>",
        "caf\u{e9}",
        "\u{200b}",
        "\u{2012}",
        "\u{2015}",
        "\u{201e}",
        "\u{2030}",
        "\u{a1}",
        "\u{1e80}",
        "\u{ff5c}",
        &"a".repeat(129),
    ] {
        assert_eq!(key(title), None, "{title:?}");
    }
}

#[test]
fn quotes_dashes_spaces_and_ampersands() {
    let titles = [
        "Budget Traveler\u{2019}s Guide To Travel Insurance",
        "\u{201c}Quoted\u{201d} and \u{2018}single\u{2019}\u{2026}",
        "Cybersecurity Sector Update\u{2013}Fall 2025",
        "A long enough first part of the title \u{2014} Site",
        "Site \u{2013} A long enough last part of the title",
        "Short \u{2013} title",
        "a \u{2013}\u{a0}b",
        "a -\u{a0}b",
        "a -\u{2009}b",
        "a \u{2014}\u{2019} b",
        "a -\u{2014} b",
        "a\u{a0}b\u{202f}c\u{2028}d\u{2029}e\u{2000}f",
        "end dash \u{2014}",
        "\u{2014}",
        "\u{2014} ",
        "Trends & Why They\u{2019}re Smart",
        "& a &",
        "a && b",
        "a &; b &- c & | d",
        "a&\u{2019}b",
        // Across the 64-byte halves.
        "A title that is long enough to cross the first half of sixty\u{2014} four bytes",
        "A title that is long enough to cross the first half of sixty-\u{a0}four bytes, yes",
    ];
    for title in titles {
        expect(title);
    }
}

#[test]
fn references() {
    let titles = [
        "AT&amp;T",
        "AT&T",
        "M&amp;A Roundup",
        "&#8217;",
        "a&#",
        "a &; b",
        "Benefits &amp; Use Cases",
        "Guide &#8211; Site",
        "Guide&#8211; Site",
        "&mdash; x",
        "a&nbsp;b",
        "a -&nbsp;b",
        "a&ndash;&nbsp;b",
        "a&ndash;&#32;b",
        "x&#58;y",
        "x&#124; y",
        "x&colon;y",
        "&lt;b&gt;",
        "&copy 2025",
        "&amp",
        "&amp x",
        "The Beginner&#039;s Guide",
        "It&#x27;s",
        "&#0;",
        "&#128;",
        "a &#150; b",
        "&bull; one &#8226; two",
        "wait&#8230;",
        "Brand&reg; news",
        "&#99999999999; x",
        "&#x110000;",
        "The title of this story is long enough &amp; crosses sixty-four bytes &ndash; Site",
    ];
    for title in titles {
        expect(title);
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
    let plain = titles.lines().filter(|t| is_plain(t, wide())).count();
    assert!(plain > 1000, "{plain} plain titles");
    for title in titles.lines() {
        expect(title);
    }
}

/// Plain titles made of the characters that matter to the rules.
fn plain_title() -> impl Strategy<Value = String> {
    let pieces = select(vec![
        "a", "Z", "7", "word", "Longer", " ", "  ", "\t", "\n", "-", " - ", "--", ":", "|", " | ",
        ",", ".", "'", "\"", "!", "(", ")", ">", "\x0B", "\x1F", "\x7F", "\0", "&", "#", "&#",
        "\u{a0}", "\u{2002}", "\u{2013}", "\u{2014}", "\u{2019}", "\u{201c}", "\u{2026}",
        "\u{2029}", "\u{202f}", "\u{e9}", "\u{2012}",
    ]);
    vec(pieces, 0..48).prop_map(|pieces| pieces.concat())
}

/// Titles of 60 to 128 bytes, so that runs, gaps and characters of several bytes straddle the
/// 64-byte halves.
fn straddling_title() -> impl Strategy<Value = String> {
    let pieces = select(vec![
        "a", "Z", "7", "word", " ", ":", "|", " - ", "-", ",", "&", "\u{a0}", "\u{2014}",
        "\u{2019}", "\u{2009}",
    ]);
    (vec(select(vec!["x"]), 58..62), vec(pieces, 0..24)).prop_map(|(head, tail)| {
        let mut title = head.concat();
        title.push(' ');
        title.push_str(&tail.concat());
        title
    })
}

/// Titles with character references, bare and doubled `&`s, and tags.
fn referencing_title() -> impl Strategy<Value = String> {
    let pieces = select(vec![
        "a", "Z", "7", "word", " ", ":", "|", " - ", "-", ",", "#", ";", "&", "&amp;", "&amp",
        "amp;", "&#039;", "&#x27;", "&ndash;", "&mdash;", "&nbsp;", "&nbsp", "&#8211;", "&#58;",
        "&#124;", "&lt;", "&gt;", "&eacute;", "&#65;", "&#", "&#x", "&copy", "&bull;", "&#8230;",
        "&#32;", "&#150;", "<b>", "\u{a0}", "\u{2014}",
    ]);
    vec(pieces, 0..32).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_references(title in referencing_title()) {
        expect(&title);
    }

    #[test]
    fn agrees_with_the_general_path(title in plain_title()) {
        expect(&title);
    }

    #[test]
    fn agrees_on_arbitrary_ascii(title in "[\\x00-\\x7F]{0,140}") {
        expect(&title);
    }

    #[test]
    fn agrees_across_the_halves(title in straddling_title()) {
        expect(&title);
    }

    #[test]
    fn agrees_on_arbitrary_text(title in "[\\x00-\\x7F\u{a0}-\u{a2}\u{2000}-\u{2030}]{0,140}") {
        expect(&title);
    }

    #[test]
    fn agrees_on_any_characters(title in "\\PC{0,70}|[&<#;a-z0-9 \u{80}-\u{10FFFF}]{0,70}") {
        expect(&title);
    }

    #[test]
    fn classify_is_the_portable_classify(chunk in any::<[u8; 16]>()) {
        prop_assert_eq!(classify(&chunk), classify_portable(&chunk));
    }
}
