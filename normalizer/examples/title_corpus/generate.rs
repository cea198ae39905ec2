//! The generated title corpus: deterministic titles (a fixed-seed generator) that mix what the key
//! rules look at, and each title's line of keys. Shared by `examples/title_corpus` and
//! `tests/title_keys.rs`, which checks that the keys of the corpus do not change.
//!
//! The titles mix words in many scripts and cases, separators, whitespace of all kinds, character
//! references (single, double, broken), tags, combining marks, compatibility characters, and a few
//! titles long enough to reach the key length limit.

use std::fmt::Write as _;

use normalizer::{clean_title, normalized_title, title_key};

/// The source name the corpus's keys are computed with.
pub(crate) const SOURCE: &str = "The Globe";

/// The titles of the corpus, in order: the first `n` are the same whatever `n`.
pub(crate) fn titles() -> impl Iterator<Item = String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    std::iter::repeat_with(move || title(&mut rng))
}

/// A title's line: `{:?}`-quoted and tab-separated, the title, its key without a source, with the
/// source [`SOURCE`], `title_key` with that source, and `clean_title` with it.
pub(crate) fn line(title: &str) -> String {
    format!(
        "{:?}\t{:?}\t{:?}\t{:?}\t{:?}",
        title,
        normalized_title(title, None),
        normalized_title(title, Some(SOURCE)),
        title_key(title, Some(SOURCE)),
        clean_title(title, Some(SOURCE)),
    )
}

/// 64-bit FNV-1a, continued from `hash` (start from [`FNV_START`]): a fixed hash of the lines, to
/// compare a build's keys with a recorded one.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

/// FNV-1a's offset basis.
pub(crate) const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

/// xorshift64*: small, fixed, good enough to mix tokens.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "Mayor", "announces", "NEW", "budget", "plan", "for", "city", "schools", "The", "Globe", "x", "a1",
    "2025", "AT", "T", "Self", "driving", "Ünïcödé", "café", "STRAẞE", "straße", "Malmö", "ΣΟΦΙΑ",
    "σοφίας", "ΟΔΟΣ", "Москва", "ПУТИН", "Երևան", "İstanbul", "ırmak", "שָׁלוֹם", "مُحَمَّد", "हिन्दी",
    "क़िला", "தமிழ்", "கொ", "한국어", "뉴스", "ニュース", "ガ", "ｶﾞｲﾄﾞ", "人民网", "新闻", "ＮＨＫ",
    "ｎｅｗｓ", "１２３", "™", "½", "℅", "ﬁnance", "Ⅻ", "㈱", "x²", "𝐁𝐨𝐥𝐝", "ǅemal", "ŉ", "ﷺ",
    "Ǆ", "ᾈ", "ΐ", "ϐ", "µ", "ſ", "K", "Å", "Ω", "ﬀ", "㍿", "🗞️", "💥", "👩‍💻", "🇺🇸",
];

#[rustfmt::skip]
const GLUE: &[&str] = &[
    " ", " ", " ", " ", " - ", " | ", ": ", " : ", " – ", " — ", "-", "|", ":", "–", "—", "—\u{a0}",
    "-\u{2003}", " -\t", "\t", "\n", "  ", "\u{a0}", "\u{2009}", "\u{3000}", "\u{85}", "\u{1680}",
    "\u{2028}", "\u{200b}", "\u{feff}", "…", "...", "’", "‘", "“", "”", "«", "»", "‹", "›", "•", "·",
    "‑", "‐", "/", "(", ")", "[", "]", "!", "?", ",", ".", "'", "\"", "#", "@", "$", "%", "*", "+",
    "=", "~", "^", "_", "`", "{", "}", "\\", ";", "®", "©", "°", "×", "¿", "¡", "§", "¶", "|",
    "｜", "：", "－ ", "，", "。", "、", "「", "」", "【", "】", "·", "\u{301}", "\u{308}", "\u{338}",
    "\u{323}", "\u{3099}", "\u{309b}", "\u{fe0f}", "\u{200d}", "\u{93c}", "\u{bbe}", "\u{1161}",
    "\u{11a8}", "\u{314f}", "\u{1100}", "\u{0}", "\u{7}", "\u{7f}", "\u{9f}",
];

#[rustfmt::skip]
const REFS: &[&str] = &[
    "&amp;", "&amp;amp;", "&amp;amp;amp;", "&#39;", "&#039;", "&#x27;", "&#X2019;", "&amp;#039;",
    "&amp;quot;", "&quot;", "&lt;", "&gt;", "&lt;b&gt;", "&nbsp;", "&nbsp", "&eacute;", "&Eacute;",
    "&ndash;", "&mdash;", "&mdash; ", "&#8211;", "&#150;", "&#151; ", "&#x2014;", "&hellip;", "&rsquo;",
    "&#0;", "&#55296;", "&#1114112;", "&#99999999999;", "&bogus;", "&amp", "&ampx", "&", "& ", "&#",
    "&#;", "&#x;", "&#x", "&amp;&amp;", "&amp;&lt;", "&&amp;", "&am&#112;;", "&amp<b>;", "&<b>amp;",
    "&#769;", "&#x301;", "&#8203;", "&#65306;", "&#124;", "&#58;", "&#45; ", "&#12443;", "&#xFDFA;",
    "&trade;", "&frac12;", "&szlig;", "&yuml;", "&Yuml;", "&thinsp;", "&ensp;", "&zwj;", "&#160;",
    "&amp;nbsp;", "&amp;#8211; ", "&AMP;", "&Amp;", "&amp;#x41;", "&#65;", "&#x61;",
];

#[rustfmt::skip]
const TAGS: &[&str] = &[
    "<b>", "</b>", "<br/>", "<a href='x'>", "</a>", "<", ">", "< b >", "<<b>>", "<a <b>", "<i",
    "a<b", "</", "<>", "<!-- c -->", "<span class=\"x\">",
];

/// A random character from blocks that exercise different rules, or any character at all.
fn random_char(rng: &mut Rng) -> char {
    const RANGES: &[(u32, u32)] = &[
        (0x80, 0x250),
        (0x250, 0x800),
        (0x900, 0xE00),
        (0x1100, 0x1200),
        (0x1E00, 0x2000),
        (0x2000, 0x2200),
        (0x2460, 0x2500),
        (0x3000, 0x3100),
        (0x3130, 0x3190),
        (0x3200, 0x3400),
        (0x4E00, 0x4F00),
        (0xAC00, 0xAD00),
        (0xF900, 0xFB50),
        (0xFE00, 0xFE70),
        (0xFF00, 0xFFF0),
        (0x1D400, 0x1D500),
        (0x1F300, 0x1F700),
        (0x0, 0x11_0000),
    ];
    loop {
        let (lo, hi) = RANGES[rng.below(RANGES.len())];
        let c = lo + (rng.next() % u64::from(hi - lo)) as u32;
        if let Some(c) = char::from_u32(c) {
            return c;
        }
    }
}

fn title(rng: &mut Rng) -> String {
    let mut t = String::new();
    let tokens = match rng.below(20) {
        0 => 300 + rng.below(400),
        1..=4 => rng.below(4),
        _ => 2 + rng.below(24),
    };
    for _ in 0..tokens {
        match rng.below(16) {
            0..=5 => t.push_str(rng.pick(WORDS)),
            6..=9 => t.push_str(rng.pick(GLUE)),
            10 | 11 => t.push_str(rng.pick(REFS)),
            12 => t.push_str(rng.pick(TAGS)),
            13 => {
                for _ in 0..1 + rng.below(3) {
                    t.push(random_char(rng));
                }
            }
            14 => t.push_str("The Globe"),
            _ => {
                let w = rng.pick(WORDS);
                let _ = write!(t, "{}", w.to_uppercase());
            }
        }
    }
    t
}
