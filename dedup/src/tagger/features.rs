//! Feature extraction shared by training and tagging: every feature is a 64-bit hash.
//!
//! A token is looked at once ([`TokenInfo`]): its lowercase form, exact form, character prefixes
//! and suffixes and shape are hashed. A feature is then a template id mixed with one or two of
//! those hashes, so no string is built per feature. The same code runs when training and when
//! tagging, and [`FEATURE_SET`] names this exact list: a model trained on another list is refused.

use super::lexicon;
use super::upos::Upos;

/// The version of the feature templates below; bump it whenever a template changes.
pub(crate) const FEATURE_SET: u32 = 1;

/// The longest prefix and suffix, in characters.
const MAX_AFFIX: usize = 5;

/// The first features of [`static_features`] and [`dynamic_features`] that name the word
/// itself: left out together when training simulates an unknown word.
pub(crate) const IDENTITY_STATIC: usize = 6;
pub(crate) const IDENTITY_DYNAMIC: usize = 1;

/// The features of [`static_features`] after the identity ones that are the analogies.
pub(crate) const ANALOGY_FEATURES: std::ops::Range<usize> = IDENTITY_STATIC..IDENTITY_STATIC + 4;

/// The analogy features of [`static_features`] for `analogies`.
pub(crate) fn analogy_features(analogies: &[u64; ANALOGIES]) -> [u64; ANALOGIES] {
    let mut out = [0; ANALOGIES];
    for (k, (out, &value)) in out.iter_mut().zip(analogies).enumerate() {
        *out = mix(fmix(template::ANALOGY + k as u64), value);
    }
    out
}

/// How many features [`static_features`] produces for every token.
pub(crate) const STATIC_FEATURES: usize = 35;

/// How many features [`dynamic_features`] produces for every token in the first pass.
pub(crate) const HISTORY_FEATURES: usize = 3;

/// How many features [`dynamic_features`] produces for every token in the second pass.
pub(crate) const DYNAMIC_FEATURES: usize = 8;

/// The most features of one token.
pub(crate) const MAX_FEATURES: usize = STATIC_FEATURES + DYNAMIC_FEATURES;

/// What the features need to know about one token, computed once per token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TokenInfo {
    lower: u64,
    form: u64,
    prefix: [u64; MAX_AFFIX],
    suffix: [u64; MAX_AFFIX],
    shape: u64,
    /// The word's ambiguity class in the lexicon.
    pub(crate) class: u32,
    /// For a word the lexicon does not know, what related known words say: see [`analogies`].
    pub(crate) analogies: [u64; ANALOGIES],
}

/// Stands in for the tokens before the first and after the last.
const BEGIN: TokenInfo = sentinel(0xb0b0);
const END: TokenInfo = sentinel(0xe0e0);

const fn sentinel(seed: u64) -> TokenInfo {
    let h = fmix(seed);
    TokenInfo {
        lower: h,
        form: h,
        prefix: [h; MAX_AFFIX],
        suffix: [h; MAX_AFFIX],
        shape: h,
        class: h as u32,
        analogies: [h; ANALOGIES],
    }
}

impl TokenInfo {
    /// Hashes what the features look at in `token`.
    pub(crate) fn new(token: &str) -> TokenInfo {
        // Most tokens are short and ASCII: lowercase them on the stack.
        let mut buffer = [0_u8; 32];
        let owned: String;
        let lower: &str = match buffer.get_mut(..token.len()) {
            Some(bytes) if token.is_ascii() => {
                bytes.copy_from_slice(token.as_bytes());
                bytes.make_ascii_lowercase();
                std::str::from_utf8(bytes).unwrap_or_default()
            }
            _ => {
                owned = token.to_lowercase();
                &owned
            }
        };
        // Character boundaries of the lowercase form: prefixes and suffixes count characters.
        let mut ends = [0_usize; MAX_AFFIX];
        let mut starts = [0_usize; MAX_AFFIX];
        let mut count = 0;
        for (n, (at, ch)) in lower.char_indices().enumerate() {
            if n < MAX_AFFIX {
                ends[n] = at + ch.len_utf8();
            }
            count = n + 1;
        }
        let mut back = lower.char_indices().rev();
        for start in &mut starts {
            match back.next() {
                Some((at, _)) => *start = at,
                None => break,
            }
        }
        let mut prefix = [0; MAX_AFFIX];
        let mut suffix = [0; MAX_AFFIX];
        for k in 0..MAX_AFFIX {
            // An affix as long as the whole word or longer is the word itself: hash a marker so
            // short words do not repeat their identity in every affix template.
            if k + 1 < count {
                prefix[k] = hash_bytes(1 + k as u64, &lower.as_bytes()[..ends[k]]);
                suffix[k] = hash_bytes(31 + k as u64, &lower.as_bytes()[starts[k]..]);
            } else {
                prefix[k] = fmix(0x5107 + k as u64);
                suffix[k] = fmix(0x5117 + k as u64);
            }
        }
        TokenInfo {
            lower: hash_bytes(21, lower.as_bytes()),
            form: hash_bytes(22, token.as_bytes()),
            prefix,
            suffix,
            shape: shape_hash(token),
            class: lexicon::UNKNOWN,
            analogies: KNOWN,
        }
    }

    /// [`TokenInfo::new`] with a hint from another analyser (Chinese: jieba's tag of the word)
    /// mixed into the shape, so the four shape features (the word's, with the sentence start,
    /// the previous and the next word's) also see the hints. Models trained without hints never
    /// meet this: their features are unchanged. A hint may have up to three fields separated by
    /// `|` (Korean): the first is mixed into the shape, the second and third take the place of
    /// the 5- and 4-character prefixes (features of the word alone).
    pub(crate) fn with_hint(token: &str, hint: &str) -> TokenInfo {
        let mut info = TokenInfo::new(token);
        let mut fields = hint.split('|');
        let first = fields.next().unwrap_or_default();
        info.shape = mix(info.shape, hash_bytes(24, first.as_bytes()));
        for (k, field) in fields.take(2).enumerate() {
            info.prefix[MAX_AFFIX - 1 - k] = hash_bytes(25 + k as u64, field.as_bytes());
        }
        info
    }

    /// The hash of the lowercase form of `word`, the lexicon's key.
    pub(crate) fn lower_hash(word: &str) -> u64 {
        TokenInfo::new(word).lower
    }

    /// The hash of the lowercase form, the lexicon's key.
    pub(crate) fn lower(&self) -> u64 {
        self.lower
    }
}

/// How many analogy features a token has.
pub(crate) const ANALOGIES: usize = 4;

/// The analogies of a word the lexicon knows: none needed.
pub(crate) const KNOWN: [u64; ANALOGIES] = [fmix(0xa0), fmix(0xa1), fmix(0xa2), fmix(0xa3)];

/// What known words say about an unknown one: for each of the 1, 2 and 3 last characters, the
/// class of the word without them (`voldsomt` → `voldsom`, `læser` → `læse`) together with the
/// characters taken off; and the class of the longest known word the word ends with, at least
/// four characters and not the whole word (`portørgruppe` → `gruppe`), the head of a compound.
/// `lookup` gives the class of a lowercase-form hash. Tokens longer than 64 bytes get none.
pub(crate) fn analogies(token: &str, lookup: impl Fn(u64) -> u32) -> [u64; ANALOGIES] {
    if token.len() > 64 {
        return [fmix(0xc0), fmix(0xc1), fmix(0xc2), fmix(0xc3)];
    }
    let lower = token.to_lowercase();
    let bytes = lower.as_bytes();
    let starts: Vec<usize> = lower.char_indices().map(|(at, _)| at).collect();
    let n = starts.len();
    let mut out = [0; ANALOGIES];
    for k in 1..=3 {
        out[k - 1] = if n >= k + 3 {
            let cut = starts[n - k];
            let class = lookup(hash_bytes(21, &bytes[..cut]));
            if class == lexicon::UNKNOWN {
                fmix(0xb0 + k as u64)
            } else {
                mix(hash_bytes(41, &bytes[cut..]), u64::from(class))
            }
        } else {
            fmix(0xb8 + k as u64)
        };
    }
    out[3] = starts
        .iter()
        .skip(2)
        .take(n.saturating_sub(5))
        .map(|&at| lookup(hash_bytes(21, &bytes[at..])))
        .find(|&class| class != lexicon::UNKNOWN)
        .map_or(fmix(0xbf), u64::from);
    out
}

/// The shape of a token: upper-case letters become `X`, lower-case `x`, other letters `a`,
/// digits `d`, anything else stays; runs of one class collapse, and only the first 8 classes
/// count (`Paris` → `Xx`, `1,234.5` → `d,d.d`, `COVID-19` → `X-d`).
fn shape_hash(token: &str) -> u64 {
    let mut shape = [0_u32; 8];
    let mut len = 0;
    let mut last = u32::MAX;
    let mut total = 0_u64;
    for ch in token.chars() {
        let class = if ch.is_uppercase() {
            'X'
        } else if ch.is_lowercase() {
            'x'
        } else if ch.is_alphabetic() {
            'a'
        } else if ch.is_numeric() {
            'd'
        } else {
            ch
        } as u32;
        total += 1;
        if class != last && len < shape.len() {
            shape[len] = class;
            len += 1;
        }
        last = class;
    }
    let mut h = hash_u64(31, len as u64);
    for class in &shape[..len] {
        h = mix(h, u64::from(*class));
    }
    // Long and short tokens of one shape behave differently (`I` and `IBM`, `a` and `ab`).
    mix(h, total.min(4))
}

/// The template ids: one per feature template, mixed into its value.
mod template {
    pub(super) const BIAS: u64 = 1;
    pub(super) const LOWER: u64 = 2;
    pub(super) const FORM: u64 = 3;
    pub(super) const PREFIX: u64 = 50; // 50..55
    pub(super) const SUFFIX: u64 = 60; // 60..65
    pub(super) const SHAPE: u64 = 12;
    pub(super) const SHAPE_FIRST: u64 = 13;
    pub(super) const PREV_LOWER: u64 = 14;
    pub(super) const NEXT_LOWER: u64 = 15;
    pub(super) const PREV2_LOWER: u64 = 16;
    pub(super) const NEXT2_LOWER: u64 = 17;
    pub(super) const PREV_SUFFIX: u64 = 18;
    pub(super) const NEXT_SUFFIX: u64 = 19;
    pub(super) const PREV_SHAPE: u64 = 20;
    pub(super) const NEXT_SHAPE: u64 = 21;
    pub(super) const PREV_LOWER_LOWER: u64 = 22;
    pub(super) const LOWER_NEXT_LOWER: u64 = 23;
    pub(super) const CLASS: u64 = 24;
    pub(super) const NEXT_CLASS: u64 = 25;
    pub(super) const NEXT2_CLASS: u64 = 26;
    pub(super) const CLASS_NEXT_CLASS: u64 = 27;
    pub(super) const PREV_TAG: u64 = 40;
    pub(super) const PREV2_TAGS: u64 = 41;
    pub(super) const PREV_TAG_LOWER: u64 = 42;
    pub(super) const ANALOGY: u64 = 80; // 80..84
    pub(super) const PREV_LOWER_SUFFIX: u64 = 28;
    pub(super) const NEXT_LOWER_SUFFIX: u64 = 29;
    pub(super) const GUESS: u64 = 70;
    pub(super) const NEXT_GUESS: u64 = 71;
    pub(super) const NEXT_GUESSES: u64 = 72;
    pub(super) const NEXT_GUESS_SUFFIX: u64 = 73;
    pub(super) const PREV_TAG_NEXT_GUESS: u64 = 74;
}

/// The features of token `i` that do not depend on the tags already chosen.
pub(crate) fn static_features(tokens: &[TokenInfo], i: usize) -> [u64; STATIC_FEATURES] {
    use template::*;
    let at = |offset: isize| -> &TokenInfo {
        let j = i as isize + offset;
        if j < 0 { &BEGIN } else { tokens.get(j as usize).unwrap_or(&END) }
    };
    let (p2, p1, t, n1, n2) = (at(-2), at(-1), at(0), at(1), at(2));
    let f = |template: u64, value: u64| mix(fmix(template), value);
    [
        f(LOWER, t.lower),
        f(FORM, t.form),
        f(PREV_LOWER_LOWER, mix(p1.lower, t.lower)),
        f(LOWER_NEXT_LOWER, mix(t.lower, n1.lower)),
        f(CLASS, u64::from(t.class)),
        f(CLASS_NEXT_CLASS, u64::from(t.class) << 32 | u64::from(n1.class)),
        f(ANALOGY, t.analogies[0]),
        f(ANALOGY + 1, t.analogies[1]),
        f(ANALOGY + 2, t.analogies[2]),
        f(ANALOGY + 3, t.analogies[3]),
        fmix(BIAS),
        f(PREFIX, t.prefix[0]),
        f(PREFIX + 1, t.prefix[1]),
        f(PREFIX + 2, t.prefix[2]),
        f(PREFIX + 3, t.prefix[3]),
        f(SUFFIX, t.suffix[0]),
        f(SUFFIX + 1, t.suffix[1]),
        f(SUFFIX + 2, t.suffix[2]),
        f(SUFFIX + 3, t.suffix[3]),
        f(SUFFIX + 4, t.suffix[4]),
        f(PREFIX + 4, t.prefix[4]),
        f(SHAPE, t.shape),
        f(SHAPE_FIRST, mix(t.shape, u64::from(i == 0))),
        f(PREV_LOWER, p1.lower),
        f(NEXT_LOWER, n1.lower),
        f(PREV2_LOWER, p2.lower),
        f(NEXT2_LOWER, n2.lower),
        f(PREV_SUFFIX, p1.suffix[2]),
        f(NEXT_SUFFIX, n1.suffix[2]),
        f(PREV_SHAPE, p1.shape),
        f(NEXT_SHAPE, n1.shape),
        f(NEXT_CLASS, u64::from(n1.class)),
        f(NEXT2_CLASS, u64::from(n2.class)),
        f(PREV_LOWER_SUFFIX, mix(p1.lower, t.suffix[1])),
        f(NEXT_LOWER_SUFFIX, mix(n1.lower, t.suffix[1])),
    ]
}

/// The features of token `i` that depend on tags: the tags chosen for the two tokens before it
/// (`None` before the start of the sentence) and, in the second pass, the first pass's tags
/// (`guesses`) of the token and the two after it. Returns the features and how many there are.
pub(crate) fn dynamic_features(
    tokens: &[TokenInfo],
    i: usize,
    prev: Option<Upos>,
    prev2: Option<Upos>,
    guesses: Option<&[Upos]>,
) -> ([u64; DYNAMIC_FEATURES], usize) {
    use template::*;
    let code = |tag: Option<Upos>| tag.map_or(99, |tag| tag.index() as u64);
    let f = |template: u64, value: u64| mix(fmix(template), value);
    let token = &tokens[i];
    let mut out = [0; DYNAMIC_FEATURES];
    out[0] = f(PREV_TAG_LOWER, mix(code(prev), token.lower));
    out[1] = f(PREV_TAG, code(prev));
    out[2] = f(PREV2_TAGS, code(prev) * 128 + code(prev2));
    let Some(guesses) = guesses else { return (out, HISTORY_FEATURES) };
    let guess = |offset: usize| code(guesses.get(i + offset).copied());
    out[3] = f(GUESS, guess(0));
    out[4] = f(NEXT_GUESS, guess(1));
    out[5] = f(NEXT_GUESSES, guess(1) * 128 + guess(2));
    out[6] = f(NEXT_GUESS_SUFFIX, mix(guess(1), token.suffix[2]));
    out[7] = f(PREV_TAG_NEXT_GUESS, code(prev) * 128 + guess(1));
    (out, DYNAMIC_FEATURES)
}

/// The finalizer of MurmurHash3: a bijection on `u64` that spreads every input bit.
pub(crate) const fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Mixes `value` into the hash `h`; not symmetric.
pub(crate) fn mix(h: u64, value: u64) -> u64 {
    fmix(h.rotate_left(23) ^ value.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn hash_u64(seed: u64, value: u64) -> u64 {
    mix(fmix(seed), value)
}

/// Hashes bytes eight at a time; the same on every platform.
pub(crate) fn hash_bytes(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = fmix(seed ^ (bytes.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        h = (h ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    let mut tail = [0_u8; 8];
    let rest = chunks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    fmix(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_fixed() {
        // The model files depend on these values: they must never change without a new
        // FEATURE_SET.
        assert_eq!(hash_bytes(0, b""), hash_bytes(0, b""));
        assert_ne!(hash_bytes(0, b"a"), hash_bytes(0, b"a\0"));
        assert_ne!(hash_bytes(0, b"abcdefgh"), hash_bytes(1, b"abcdefgh"));
        assert_eq!(fmix(1), 0xb456_bcfc_34c2_cb2c);
    }

    #[test]
    fn shapes() {
        assert_eq!(shape_hash("Paris"), shape_hash("Londres"));
        assert_ne!(shape_hash("Paris"), shape_hash("paris"));
        assert_eq!(shape_hash("1,234.5"), shape_hash("12,345.67"));
        assert_ne!(shape_hash("I"), shape_hash("IBM"));
    }

    #[test]
    fn affixes_count_characters_not_bytes() {
        let a = TokenInfo::new("Ändern");
        let b = TokenInfo::new("ändern");
        assert_eq!(a.lower, b.lower);
        assert_eq!(a.prefix, b.prefix);
        assert_ne!(a.form, b.form);
        let c = TokenInfo::new("äb");
        assert_eq!(c.prefix[0], hash_bytes(1, "ä".as_bytes()));
        assert_eq!(c.suffix[0], hash_bytes(31, b"b"));
    }

    #[test]
    fn hints_change_the_shape_only() {
        let plain = TokenInfo::new("北京");
        let hinted = TokenInfo::with_hint("北京", "ns");
        assert_ne!(hinted.shape, plain.shape);
        assert_eq!(
            (hinted.lower, hinted.form, hinted.suffix),
            (plain.lower, plain.form, plain.suffix)
        );
        assert_ne!(hinted.shape, TokenInfo::with_hint("北京", "n").shape);
        // A hint without `|` leaves the prefixes alone; its further fields take the place of
        // the two longest prefixes.
        assert_eq!(hinted.prefix, plain.prefix);
        let fields = TokenInfo::with_hint("북경에서", "ns|a|b");
        let plain = TokenInfo::new("북경에서");
        assert_eq!(fields.shape, TokenInfo::with_hint("북경에서", "ns").shape);
        assert_eq!(fields.prefix[..3], plain.prefix[..3]);
        assert_ne!(fields.prefix[3], plain.prefix[3]);
        assert_ne!(fields.prefix[4], plain.prefix[4]);
        assert_ne!(fields.prefix[4], TokenInfo::with_hint("북경에서", "ns|c|b").prefix[4]);
        assert_eq!(fields.prefix[3], TokenInfo::with_hint("북경에서", "ns|c|b").prefix[3]);
    }
}
