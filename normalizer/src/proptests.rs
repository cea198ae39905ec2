//! Property tests: no public function panics on any string, and the keys that claim it are fixed points.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::RngSeed;

use crate::{
    FoldOptions, canonical_domain, canonical_url, clean_title, feed_url_key, fold_text,
    is_homepage_url, is_non_news_domain, is_shortened_url, lossy_url, normalized_title, title_key,
};

/// Strings shaped like the URLs found in feeds, with the parts the rules look at over-represented.
fn url_like() -> impl Strategy<Value = String> {
    let scheme = select(vec![
        "http://",
        "https://",
        "HTTP://",
        "//",
        "",
        "http:/",
        "http://http://",
        "https:\\\\",
        "ftp://",
        "https://www.google.com/amp/s/",
        "http://archive.is/o/ab1/",
        "https://www-x-com.cdn.ampproject.org/c/s/",
    ]);
    let user = proptest::option::of("[a-z]{1,4}(:[a-z]{0,4})?@");
    let label = prop_oneof![
        Just("www".to_owned()),
        Just("m".to_owned()),
        Just("amp".to_owned()),
        Just("mobile".to_owned()),
        Just("news".to_owned()),
        Just("youtube".to_owned()),
        Just("youtu".to_owned()),
        Just("blogspot".to_owned()),
        Just("r2".to_owned()),
        Just("pronk".to_owned()),
        Just("podomatic".to_owned()),
        Just("google".to_owned()),
        "[0-9]{1,4}",
        "[a-z]{1,8}",
        "[a-zA-Z0-9-]{1,6}",
        "[a-zäöüßçøéñ]{1,6}",
        "[A-Z]{1,4}",
        "xn--[a-z0-9]{2,6}",
        "[a-z]{2,4}-[a-z]{2,4}(--[a-z]{2})?",
    ];
    let tld = select(vec![
        "com",
        "co.uk",
        "gov.br",
        "be",
        "ly",
        "is",
        "org",
        "de",
        "jp",
        "рф",
        "unknowntld",
        "",
    ]);
    let host = prop_oneof![
        (vec(label, 0..4), tld).prop_map(|(labels, tld)| {
            let mut h = labels.join(".");
            if !tld.is_empty() {
                h.push('.');
                h.push_str(tld);
            }
            h
        }),
        "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}",
        "\\[[0-9a-fA-F:]{2,10}\\]",
        "[a-z.]{0,5}",
    ];
    let port = proptest::option::of(prop_oneof![
        Just(":80".to_owned()),
        Just(":443".to_owned()),
        ":[0-9]{0,5}"
    ]);
    let segment = prop_oneof![
        "[a-zA-Z0-9._~-]{0,8}",
        "%[0-9a-fA-F]{2}",
        "%[0-9a-zA-Z]{0,2}",
        "(%[cC][0-9a-fA-F]%[89abAB][0-9a-fA-F]){1,2}",
        select(vec![
            "amp",
            "AMP",
            "x.amp",
            "a.amp.html",
            ".",
            "..",
            "watch",
            "embed",
            "shorts",
            "channel",
            "user",
            "c",
            "s",
            "o",
            "ab1"
        ])
        .prop_map(str::to_owned),
        "[äöüÜ€ßİıΣς\u{301} ]{1,3}",
        "[!$&'()*+,;=:@|^\\[\\]{}\"<>`\\\\]{1,2}",
        "\\PC{0,3}",
    ];
    let path = vec(segment, 0..5).prop_map(|s| s.join("/"));
    let name = prop_oneof![
        select(vec![
            "utm_source",
            "fbclid",
            "v",
            "V",
            "m",
            "nk",
            "amp",
            "outputType",
            "ref",
            "sort",
            "PHPSESSID",
            "list",
            "id",
            ""
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z_]{0,5}",
        "%[0-9A-Fa-f]{2}",
        "\\PC{0,3}",
    ];
    let value = proptest::option::of(prop_oneof![
        "[a-zA-Z0-9]{0,6}",
        "[0-9a-f]{1,6}",
        Just("amp".to_owned()),
        "[+ ]{1,2}",
        "%[0-9a-fA-F]{2}",
        "\\PC{0,4}",
    ]);
    let query = proptest::option::of(vec((name, value), 0..4).prop_map(|params| {
        params
            .into_iter()
            .map(|(n, v)| match v {
                Some(v) => format!("{n}={v}"),
                None => n,
            })
            .collect::<Vec<_>>()
            .join("&")
    }));
    let fragment = proptest::option::of("\\PC{0,5}");
    (scheme, user, host, port, path, query, fragment).prop_map(
        |(scheme, user, host, port, path, query, fragment)| {
            let mut s = format!(
                "{scheme}{}{host}{}/{path}",
                user.unwrap_or_default(),
                port.unwrap_or_default()
            );
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        },
    )
}

/// Strings shaped like titles: words in several scripts, separators, references and tags.
fn title_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[A-Za-z]{1,10}",
        "[áéíóúñçãõäöüßÆØÅ]{1,4}",
        "[А-Яа-яЁё]{1,8}",
        "[Α-Ωα-ωάές]{1,8}",
        "[一-龥ぁ-んァ-ンｦ-ﾟ]{1,6}",
        "[Ａ-Ｚａ-ｚ０-９｜：]{1,4}",
        select(vec![
            " - ",
            " | ",
            ": ",
            " – ",
            " — ",
            " : ",
            "-",
            "|",
            ":",
            "&amp;",
            "&#039;",
            "&eacute;",
            "<b>",
            "</b>",
            "<",
            ">",
            "&",
            "  ",
            "\t",
            "\u{a0}",
            "(no title)",
            "Home"
        ])
        .prop_map(str::to_owned),
        "\\PC{0,4}",
    ];
    vec(piece, 0..12).prop_map(|p| p.join(" "))
}

fn call_everything(s: &str) {
    let _ = lossy_url(s);
    let _ = canonical_url(s);
    let _ = canonical_domain(s);
    let _ = feed_url_key(s);
    let _ = is_homepage_url(s);
    let _ = is_shortened_url(s);
    let _ = is_non_news_domain(s);
    let _ = normalized_title(s, Some(s));
    let _ = title_key(s, None);
    let _ = clean_title(s, Some("Source"));
    let _ = fold_text(s, FoldOptions { diacritics: true });
}

#[track_caller]
fn assert_url_keys_are_fixed_points(s: &str) {
    if let Some(k) = lossy_url(s) {
        assert!(k.starts_with("http://"), "{s:?} -> {k:?}");
        assert_eq!(lossy_url(&k).as_deref(), Some(k.as_str()), "lossy_url: {s:?} -> {k:?}");
    }
    if let Some(c) = canonical_url(s) {
        assert_eq!(canonical_url(&c).as_deref(), Some(c.as_str()), "canonical_url: {s:?} -> {c:?}");
    }
    if let Some(f) = feed_url_key(s) {
        assert_eq!(feed_url_key(&f).as_deref(), Some(f.as_str()), "feed_url_key: {s:?} -> {f:?}");
    }
}

proptest! {
    // A fixed seed keeps CI deterministic; set another one locally to explore (several hundred thousand
    // random cases passed while this crate was written).
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(20_261_122),
        ..ProptestConfig::default()
    })]

    #[test]
    fn nothing_panics_on_arbitrary_strings(s in any::<String>()) {
        call_everything(&s);
    }

    #[test]
    fn nothing_panics_on_url_like_strings(s in url_like()) {
        call_everything(&s);
    }

    #[test]
    fn url_keys_are_fixed_points_on_url_like_strings(s in url_like()) {
        assert_url_keys_are_fixed_points(&s);
    }

    #[test]
    fn url_keys_are_fixed_points_on_arbitrary_strings(s in any::<String>()) {
        assert_url_keys_are_fixed_points(&s);
    }

    #[test]
    fn lossy_url_ignores_fragment_and_tracking(s in url_like()) {
        let base = s.split('#').next().unwrap_or("").trim().to_owned();
        if let Some(k) = lossy_url(&base) {
            let joiner = if base.contains('?') { "&" } else { "?" };
            if let Some(d) = lossy_url(&format!("{base}{joiner}utm_source=x&fbclid=y#section")) {
                prop_assert_eq!(d, k);
            }
        }
    }

    #[test]
    fn fold_text_is_a_fixed_point(s in any::<String>(), diacritics in any::<bool>()) {
        let options = FoldOptions { diacritics };
        let once = fold_text(&s, options);
        prop_assert_eq!(fold_text(&once, options), once);
    }

    #[test]
    fn titles_are_fixed_points(s in title_like()) {
        call_everything(&s);
        let key = normalized_title(&s, None);
        prop_assert_eq!(normalized_title(&key, None), key);
    }
}
