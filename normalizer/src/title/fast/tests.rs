//! The one-pass folder against the general path: on every title it accepts it must give the same text
//! and parts, byte for byte; and it must accept the titles that matter for speed.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::RngSeed;

use super::super::TitleParts;
use super::super::chars::{self, Fold, STARTER_SECONDS};
use super::super::plain;
use super::{Lanes, key, with_folded};

/// Folded text, and each part's start, end and length in characters.
type Parts = (String, Vec<(usize, usize, usize)>);

/// The folder's text and parts, or `None` when it leaves the title to the general path.
fn folded(title: &str) -> Option<Parts> {
    with_folded(title, |text, ranges| (text.to_owned(), ranges.to_vec()))
}

/// Whether the folder agrees with the general path on `title` (trivially when it declines it).
#[track_caller]
fn check(title: &str) -> bool {
    let Some((text, ranges)) = folded(title) else {
        return false;
    };
    let general = TitleParts::general(title);
    assert_eq!(text, general.text, "text of {title:?}");
    assert_eq!(ranges, general.ranges.to_vec(), "parts of {title:?}");
    check_key(title);
    true
}

/// Whether the key without a source, folded straight into its buffer, is the one `choose_key` picks
/// from the folder's parts (trivially when it declines the title).
#[track_caller]
fn check_key(title: &str) -> bool {
    let Some(fast) = key(title) else {
        return false;
    };
    assert_eq!(fast, super::super::key_text(title, None), "key of {title:?}");
    true
}

#[test]
fn examples() {
    let titles = [
        "",
        " ",
        "Mayor announces new budget plan for city schools - The Boston Globe",
        "NYT: Trump Avoids Impeachment",
        "a  b\tc\u{a0}d\u{3000}e\u{85}f",
        "Self-driving cars -x - y -",
        "a –b – c —\u{a0}d -\u{2003}e",
        "AT&amp;T &amp;amp; &amp;#039;s &#039; &#x27; &nbsp &nbspx &bogus; & &#; &#x;",
        "caf&eacute; &Eacute;T&Eacute; &hellip; &#8211; x &#150; y &#0; &#55296;",
        "<b>Bold</b> a < b > c <a <b>x</b> <i",
        "Le gouvernement présente son budget pour l’année prochaine | Le Monde",
        "Bundesregierung beschließt STRAẞE – DER SPIEGEL",
        "ΣΟΦΙΑ σοφίας ΟΔΟΣ",
        "Москва: ПУТИН",
        "人民网｜新闻 ＮＨＫニュース ｶﾞｲﾄﾞ",
        "™ ½ ℅ ﬁnance Ⅻ ㈱ x² 𝐁𝐨𝐥𝐝 ǅ ﷺ …",
        "🗞️ Breaking 💥 👩\u{200d}💻 🇺🇸",
        "한국어 뉴스 가\u{11a8}",
        "e\u{301} ᄀ\u{1161} ㄱㅏ İstanbul",
    ];
    for title in titles {
        check(title);
    }
}

#[test]
fn lengths_around_the_lanes_limits() {
    // The lanes take 16 to 48, 49 to 112 and 113 to 240 bytes, word arithmetic the rest.
    let pieces = ["Ab ", "cd  ", "e: ", "f - ", "g-h ", "&amp; ", "i\u{e9} ", "|j ", "k,l ", "m\t"];
    for len in (0..300).chain([1000, 1100]) {
        for (n, first) in pieces.iter().enumerate() {
            let mut title = String::new();
            for piece in pieces.iter().cycle().skip(n) {
                if title.len() >= len {
                    break;
                }
                title.push_str(piece);
            }
            let mut end = len.min(title.len());
            while !title.is_char_boundary(end) {
                end -= 1;
            }
            title.truncate(end);
            check(&title);
            check(&format!("{first}{title}"));
        }
    }
}

#[test]
fn the_benchmark_titles_take_the_folder() {
    let titles = include_str!("../../../benches/data/titles.txt");
    let mut declined = Vec::new();
    for title in titles.lines() {
        if !check(title) {
            declined.push(title);
        }
        assert_eq!(check_key(title), !declined.contains(&title), "{title:?}");
    }
    // Only `İ` (its lower case has a combining dot) needs the general path there.
    assert_eq!(declined, ["İstanbul'da deprem tatbikatı yapıldı - Son Dakika Haberleri"]);
}

#[test]
fn the_folder_declines_what_it_cannot_fold_alone() {
    for title in [
        "cafe\u{301}",             // a combining mark composes with the letter before it
        "\u{1100}\u{1161}",        // Hangul jamo compose
        "\u{3131}\u{314f}",        // so do compatibility jamo, once NFKC made them jamo
        "İ",                       // lower case with a combining dot
        "a&amp;&amp;b",            // a second pass could read the text after a decoded `&`
        "&am<b>p;",                // tag stripping joins a reference
        "x".repeat(1100).as_str(), // the length limit
    ] {
        assert_eq!(folded(title), None, "{title:?}");
    }
}

#[test]
fn every_character_alone_and_in_context() {
    // Every code point with a table entry, alone and between letters, spaces, dashes and marks.
    for code_point in 0x80..0x3_0000 {
        let Some(c) = char::from_u32(code_point) else { continue };
        let Some(block) = chars::block(code_point) else { continue };
        if chars::fold_in(block, code_point) == Fold::General {
            continue;
        }
        for title in [
            format!("Ab{c}Cd"),
            format!("a -{c} b"),
            format!("{c}\u{308}"),
            format!("{c}{c}:{c} \u{301}"),
            // Long enough for the lanes, with the character at a sixteen-byte boundary.
            format!("Sixteen bytes, a{c} -{c} b{c}:"),
        ] {
            check(&title);
        }
    }
}

#[test]
fn starter_seconds_match_the_normalisation_data() {
    use icu_normalizer::properties::{
        CanonicalCombiningClassMapBorrowed, CanonicalDecompositionBorrowed, Decomposed,
    };
    let decompositions = CanonicalDecompositionBorrowed::new();
    let ccc = CanonicalCombiningClassMapBorrowed::new();
    let mut seconds: Vec<char> = (0..0x11_0000)
        .filter_map(char::from_u32)
        .filter_map(|c| match decompositions.decompose(c) {
            Decomposed::Expansion(_, second) => Some(second),
            _ => None,
        })
        .filter(|&c| ccc.get_u8(c) == 0)
        .collect();
    seconds.sort_unstable();
    seconds.dedup();
    assert_eq!(seconds, STARTER_SECONDS);
}

/// Titles built from the pieces the rules look at, densely.
fn tricky() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[A-Za-z0-9]{1,9}",
        2 => select(vec![" ", " ", "  ", "\t", "\n", "\u{a0}", "\u{2003}", "\u{3000}", "\u{85}"]).prop_map(str::to_owned),
        2 => select(vec![
            ":", "|", "-", "–", "—", " - ", " – ", " —", "- ", "｜", "：", "－", "…", "’", "“", "«",
            "\u{2011}", ",", ".", "'", "!", "?", "(", ")", "#", "®", "×", "•",
        ]).prop_map(str::to_owned),
        2 => select(vec![
            "&amp;", "&amp;amp;", "&amp;#039;", "&#039;", "&#x27;", "&quot;", "&lt;", "&gt;",
            "&nbsp;", "&nbsp", "&eacute;", "&Eacute;", "&ndash;", "&mdash;", "&#8211;", "&#150;",
            "&#x2014;", "&hellip;", "&#0;", "&#55296;", "&#99999999999;", "&bogus;", "&amp", "&",
            "&#", "&#x", "&#;", "&am", "&#65;", "&#x301;", "&#12443;", "&#xFDFA;", "&AMP;",
        ]).prop_map(str::to_owned),
        1 => select(vec!["<b>", "</b>", "<", ">", "<a <b>", "<br/>", "< >"]).prop_map(str::to_owned),
        2 => select(vec![
            "é", "É", "ß", "ẞ", "İ", "ı", "ΣΟΦΙΑ", "σοφίας", "Москва", "中文", "ニュース", "ｶﾞ",
            "ＮＨＫ", "한국", "ᄀ", "ᅡ", "ㄱ", "ㅏ", "ǅ", "ﬁ", "½", "™", "ﷺ", "𝐁", "🗞️", "\u{200d}",
            "\u{301}", "\u{308}", "\u{338}", "\u{3099}", "\u{93c}", "\u{bbe}", "\u{fe0f}",
            "हिन्दी", "தமிழ்", "שָׁלוֹם", "مُحَمَّد",
        ]).prop_map(str::to_owned),
        1 => "\\PC",
        1 => any::<char>().prop_map(String::from),
    ];
    vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// Where the processor has AVX-512, the lanes come from `plain::wide_lanes`, and where it has AVX2,
/// from 32-byte chunks: they must be the sixteen-byte ones (for the lowered bytes, within the
/// title). Without either there is nothing to compare.
fn check_wide_lanes(bytes: &[u8]) {
    fn compare<const N: usize>(bytes: &[u8]) {
        if !(Lanes::<N>::MIN..=Lanes::<N>::MAX).contains(&bytes.len()) {
            return;
        }
        let mut chunked = Lanes::<N>::EMPTY;
        chunked.fill_by_chunks::<16>(bytes);
        let same = |lanes: &Lanes<N>, how: &str| {
            assert_eq!(lanes.stops, chunked.stops, "stops of {bytes:?} ({how})");
            let len = bytes.len();
            assert_eq!(
                lanes.lowered[..len],
                chunked.lowered[..len],
                "lowered of {bytes:?} ({how})"
            );
        };
        let mut wide = Lanes::<N>::EMPTY;
        if plain::wide_lanes(bytes, &mut wide.lowered, &mut wide.stops) {
            same(&wide, "AVX-512");
        }
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 32 && is_x86_feature_detected!("avx2") {
            let mut avx2 = Lanes::<N>::EMPTY;
            #[allow(unsafe_code)]
            // SAFETY: the processor has AVX2 (checked just above).
            unsafe {
                avx2.fill_avx2(bytes);
            }
            same(&avx2, "AVX2");
        }
    }
    compare::<64>(bytes);
    compare::<128>(bytes);
    compare::<256>(bytes);
}

/// Bytes of the classes the lanes tell apart, and any others.
fn lane_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => select(b"aZz09 -:|&<\t\r\x0b\x0c\n.,\x80\xbf\xc3\xe2\xff\0".to_vec()),
        1 => any::<u8>(),
    ];
    vec(byte, 16..=240)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(20_260_519),
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_folder_agrees_on_tricky_titles(title in tricky()) {
        check(&title);
    }

    #[test]
    fn the_folder_agrees_on_arbitrary_strings(title in any::<String>()) {
        check(&title);
    }

    #[test]
    fn wide_lanes_are_the_sixteen_byte_ones(bytes in lane_bytes()) {
        check_wide_lanes(&bytes);
    }

    #[test]
    fn wide_lanes_are_the_sixteen_byte_ones_on_titles(title in tricky()) {
        check_wide_lanes(title.as_bytes());
    }
}
