//! The plain-title key with AVX-512, on processors that have it (checked at run time): the same
//! classes and marks as [`super::key_in`], and the key's bytes gathered with one compress
//! instruction instead of a loop over runs.
//!
//! The title is loaded into one or two 64-byte registers with a masked load (nothing is read past its
//! end), each class is one compare into a mask register, and [`super::marks`] says which bytes the key
//! keeps. The gap before a run that writes a space or a separator keeps its last byte, made `' '` or
//! `'|'`; `vpcompressb` packs the kept bytes together. Then the parts are the text between the
//! `'|'`s: the longest if it is long enough, or the whole text with each `'|'` written `" | "`.
//!
//! A title with `&`, `<` or non-ASCII bytes has them settled from its bytes, a character at a time,
//! as in the AVX2 path ([`Settled`]): character references and a few non-ASCII characters (curly
//! quotes, en and em dashes, Unicode spaces) take the classes of what they stand for, the rest are
//! declined. They are never kept, so the same masks and the same text make their key. (Loading the
//! title again and classifying its rarer bytes with a compare each, as this path did before, took
//! 1.5 to 3 ns a title more on such titles.)

use std::arch::x86_64::{
    __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_mask_blend_epi8,
    _mm512_mask_storeu_epi8, _mm512_maskz_compress_epi8, _mm512_maskz_expand_epi8,
    _mm512_maskz_loadu_epi8, _mm512_maskz_mov_epi8, _mm512_movepi8_mask, _mm512_or_si512,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi8,
};

use super::wide::{Detected, Settled, kept, longest_part};
use super::{Classes, KEY_PART_MIN_CHARS, Mask, marks};

/// Whether [`key`] may be called here (checked once, [`Detected`]).
#[inline]
pub(super) fn available() -> bool {
    static AVAILABLE: Detected = Detected::new();
    AVAILABLE.get(|| {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("popcnt")
    })
}

/// The key of `title` if it is plain, else `None`: what [`super::key`] gives.
///
/// # Safety
///
/// [`available`] must have said yes.
#[allow(unsafe_code)]
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
pub(super) unsafe fn key(title: &str) -> Option<String> {
    let bytes = title.as_bytes();
    let n = bytes.len();
    if n <= 64 {
        let v = load(bytes);
        let mut classes = classify(v);
        settle(&mut classes, title)?;
        Some(key_from([v], &classes, n))
    } else if n <= 128 {
        let (low, high) = bytes.split_at(64);
        let texts = [load(low), load(high)];
        let mut classes: Classes<u128> = join(texts.map(|v| classify(v)));
        settle(&mut classes, title)?;
        Some(key_from(texts, &classes, n))
    } else {
        None
    }
}

/// The one-pass folder's lanes of `bytes` (at most 256): what `fast::Lanes::chunk` computes sixteen
/// bytes at a time, here from [`classify`]'s masks, 64 bytes at a time. `lowered` and `stops` are
/// written for every 64-byte block the title reaches (so at most the first `bytes.len()` rounded up
/// to 64 bytes of each), the bytes past the title in them as the folder wants them: stops `0x80`,
/// lowered bytes of no matter.
///
/// # Safety
///
/// [`available`] must have said yes.
#[allow(unsafe_code)]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn lanes(bytes: &[u8], lowered: &mut [u8], stops: &mut [u8]) {
    const BLOCKS: usize = 4;
    let mut texts = [_mm512_setzero_si512(); BLOCKS];
    let mut classes = [Classes::<u64>::default(); BLOCKS];
    let mut chunks = bytes.chunks(64);
    for (text, classes) in texts.iter_mut().zip(&mut classes) {
        let Some(chunk) = chunks.next() else {
            break;
        };
        *text = load(chunk);
        *classes = classify(*text);
    }
    let splat = |b: u8| _mm512_set1_epi8(i8::from_le_bytes([b]));
    let mut before = Classes::<u64>::default();
    for k in 0..bytes.len().div_ceil(64).min(BLOCKS) {
        let c = classes[k];
        let after = classes.get(k + 1).copied().unwrap_or_default();
        // The bits of the byte before each byte, and of the byte after, across blocks.
        let previous = |m: fn(&Classes<u64>) -> u64| m(&c) << 1 | m(&before) >> 63;
        let next = |m: fn(&Classes<u64>) -> u64| m(&c) >> 1 | m(&after) << 63;
        let copied = c.alnum | (c.space & previous(|c| c.alnum) & next(|c| c.alnum));
        let separator = c.separator | (c.dash & next(|c| c.whitespace));
        let special = c.other | (c.dash & next(|c| c.other));
        let gap = !copied;
        let lanes = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_maskz_mov_epi8(gap, splat(0x80)),
                _mm512_maskz_mov_epi8(gap & c.whitespace, splat(0x01)),
            ),
            _mm512_or_si512(
                _mm512_maskz_mov_epi8(gap & separator, splat(0x02)),
                _mm512_maskz_mov_epi8(gap & special, splat(0x04)),
            ),
        );
        let at = 64 * k;
        store(lowered.get_mut(at..at + 64), _mm512_or_si512(texts[k], splat(0x20)));
        store(stops.get_mut(at..at + 64), lanes);
        before = c;
    }
}

/// Writes the 64 bytes of `v` to `out`, if it is there and that long.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(out: Option<&mut [u8]>, v: __m512i) {
    if let Some(out) = out.and_then(|out| out.first_chunk_mut::<64>()) {
        #[allow(unsafe_code)]
        // SAFETY: `out` is 64 bytes long; the store is unaligned.
        unsafe {
            _mm512_storeu_si512(out.as_mut_ptr().cast(), v);
        }
    }
}

/// Settles the title's other bytes, if it has any, into its classes ([`Settled`]); `None` when one
/// of them may not be let be.
#[inline(always)]
fn settle<M: Mask>(classes: &mut Classes<M>, title: &str) -> Option<()> {
    if classes.other != M::default() {
        Settled::scan(classes.other, title)?.apply(classes);
    }
    Some(())
}

/// The key from the title's 64-byte pieces and its classes (`n` bytes).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
fn key_from<M: Mask + Halves, const H: usize>(
    texts: [__m512i; H],
    classes: &Classes<M>,
    n: usize,
) -> String {
    let marks = marks(classes, n);
    let (spaces, separators) = (marks.spaced >> 1, marks.separated >> 1);
    let kept = kept(&marks);
    let mut h = 0;
    let texts = texts.map(|v| {
        let text = text(v, spaces.half(h), separators.half(h));
        h += 1;
        text
    });
    finish(texts, kept, separators)
}

/// The classes of up to two 64-byte pieces as one mask each.
#[inline(always)]
fn join<M: Mask + Halves, const H: usize>(pieces: [Classes<u64>; H]) -> Classes<M> {
    Classes {
        alnum: M::from_halves(pieces.map(|c| c.alnum)),
        space: M::from_halves(pieces.map(|c| c.space)),
        whitespace: M::from_halves(pieces.map(|c| c.whitespace)),
        separator: M::from_halves(pieces.map(|c| c.separator)),
        dash: M::from_halves(pieces.map(|c| c.dash)),
        other: M::from_halves(pieces.map(|c| c.other)),
    }
}

/// Up to 64 bytes, zeros after them.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load(bytes: &[u8]) -> __m512i {
    let n = bytes.len().min(64);
    #[allow(unsafe_code)]
    // SAFETY: the mask selects the first `n` bytes, which are in `bytes`; a masked load reads no
    // other byte (and faults on none).
    unsafe {
        _mm512_maskz_loadu_epi8(u64::low(n), bytes.as_ptr().cast())
    }
}

/// The classes of 64 bytes (a zero byte has none).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn classify(v: __m512i) -> Classes<u64> {
    let splat = |b: u8| _mm512_set1_epi8(i8::from_le_bytes([b]));
    let is = |b: u8| _mm512_cmpeq_epi8_mask(v, splat(b));
    // `first <= x < first + len`, unsigned.
    let within = |x: __m512i, first: u8, len: u8| {
        _mm512_cmplt_epu8_mask(_mm512_sub_epi8(x, splat(first)), splat(len))
    };
    let letter = within(_mm512_or_si512(v, splat(0x20)), b'a', 26);
    let space = is(b' ');
    Classes {
        alnum: letter | within(v, b'0', 10),
        space,
        whitespace: space | within(v, b'\t', 5),
        separator: is(b':') | is(b'|'),
        dash: is(b'-'),
        // The sign bit marks non-ASCII bytes.
        other: _mm512_movepi8_mask(v) | is(b'&') | is(b'<'),
    }
}

/// The text the key is taken from, byte for byte with the title: letters and digits lower-cased (bit
/// 5 set, which keeps digits and spaces as they are), and `' '` and `'|'` at the bytes in `spaces`
/// and `separators`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn text(v: __m512i, spaces: u64, separators: u64) -> __m512i {
    let splat = |b: u8| _mm512_set1_epi8(i8::from_le_bytes([b]));
    let lowered = _mm512_or_si512(v, splat(0x20));
    let spaced = _mm512_mask_blend_epi8(spaces, lowered, splat(b' '));
    _mm512_mask_blend_epi8(separators, spaced, splat(b'|'))
}

/// The key: the `kept` bytes of `texts` (64 bytes each), where `separators` (kept, `'|'`) split
/// parts. The longest part if there are several and it has 32 characters or more (the first of the
/// longest), else all of it with each `'|'` written `" | "`: spread out with `vpexpandb` in one or
/// two registers (up to 128 bytes written; a longer key, which only titles near 128 bytes with many
/// separators have, goes through strings). Before the two-register case, keys of 65 to 128 bytes went
/// through strings too, which took about 130 ns where such titles now take 75, and the whole list 46.3
/// ns a title against 43.2.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
fn finish<M: Mask + Halves, const H: usize>(texts: [__m512i; H], kept: M, separators: M) -> String {
    if separators == M::default() {
        return gather(texts, kept);
    }
    let (longest, longest_len) = longest_part(kept, separators);
    if longest_len >= KEY_PART_MIN_CHARS {
        return gather(texts, longest);
    }
    // Where the spaces around each `'|'` go in the whole text written out: before and after it,
    // moved by the spaces before it.
    let mut rest = separators;
    let mut inserted = 0u128;
    let mut before = 0;
    while rest != M::default() {
        let next = rest & rest.wrapping_neg();
        rest = rest & !next;
        let at = (kept & next.below()).ones() + before;
        let space = |at: usize| u32::try_from(at).ok().and_then(|at| 1u128.checked_shl(at));
        inserted |= space(at).unwrap_or(0) | space(at + 2).unwrap_or(0);
        before += 2;
    }
    let len = kept.ones() + before;
    let splat = _mm512_set1_epi8(i8::from_le_bytes([b' ']));
    let originals = u128::low(len) & !inserted;
    let halves = [originals as u64, (originals >> 64) as u64];
    let inserted = [inserted as u64, (inserted >> 64) as u64];
    if len > 128 {
        let whole = gather(texts, kept);
        let mut key = String::with_capacity(len);
        for (i, part) in whole.as_bytes().split(|&b| b == b'|').enumerate() {
            if i > 0 {
                key.push_str(" | ");
            }
            key.push_str(std::str::from_utf8(part).unwrap_or_default());
        }
        return key;
    }
    // The kept bytes as 128 (at most 64 when the key is: it is longer by the spaces).
    let [low, high] = stream(texts, kept);
    if len <= 64 {
        let spread = _mm512_maskz_expand_epi8(halves[0], low);
        return into_string(_mm512_mask_blend_epi8(inserted[0], spread, splat), len);
    }
    // The 64 kept bytes the second half of the key starts at.
    let first = halves[0].count_ones() as usize;
    let rest = _mm512_or_si512(
        _mm512_maskz_compress_epi8(!u64::low(first), low),
        _mm512_maskz_expand_epi8(!u64::low(64 - first), high),
    );
    let mut h = 0;
    let chunks = [low, rest].map(|text| {
        let chunk =
            _mm512_mask_blend_epi8(inserted[h], _mm512_maskz_expand_epi8(halves[h], text), splat);
        h += 1;
        chunk
    });
    into_string_128(chunks, len)
}

/// The `selected` bytes of `texts` (at most 128), in order, in two registers.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
fn stream<M: Mask + Halves, const H: usize>(texts: [__m512i; H], selected: M) -> [__m512i; 2] {
    let mut low = _mm512_setzero_si512();
    let mut high = _mm512_setzero_si512();
    let mut at = 0;
    for (h, text) in texts.into_iter().enumerate() {
        let selected = selected.half(h);
        let packed = _mm512_maskz_compress_epi8(selected, text);
        // The first bytes fill `low` up from `at`, the others go to the start of `high`.
        low = _mm512_or_si512(low, _mm512_maskz_expand_epi8(!u64::low(at), packed));
        high = _mm512_or_si512(high, _mm512_maskz_compress_epi8(!u64::low(64 - at), packed));
        at += selected.count_ones() as usize;
    }
    [low, high]
}

/// The `selected` bytes of `texts`, in order, as a string.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
fn gather<M: Mask + Halves, const H: usize>(texts: [__m512i; H], selected: M) -> String {
    let len = selected.ones();
    let mut key: Vec<u8> = Vec::with_capacity(len);
    let mut at = 0;
    for (h, text) in texts.into_iter().enumerate() {
        let selected = selected.half(h);
        let count = selected.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi8(selected, text);
        let Some(out) = key.spare_capacity_mut().get_mut(at..at + count) else {
            break;
        };
        #[allow(unsafe_code)]
        // SAFETY: the mask selects the first `count` bytes from `out`, which are in the vector's
        // spare capacity (checked above); a masked store writes no other byte, and none at all when
        // `count` is zero.
        unsafe {
            _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), u64::low(count), packed);
        }
        at += count;
    }
    ascii(key, at)
}

/// The first `len` bytes of `text` (at most 64) as a string.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn into_string(text: __m512i, len: usize) -> String {
    let len = len.min(64);
    let mut key: Vec<u8> = Vec::with_capacity(len);
    #[allow(unsafe_code)]
    // SAFETY: the mask selects the first `len` bytes, which are in the vector's capacity; a masked
    // store writes no other byte (none when `len` is zero).
    unsafe {
        _mm512_mask_storeu_epi8(key.as_mut_ptr().cast(), u64::low(len), text);
    }
    ascii(key, len)
}

/// The first `len` bytes (at most 128) of two registers' 128 as a string.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn into_string_128(chunks: [__m512i; 2], len: usize) -> String {
    let len = len.min(128);
    let mut key: Vec<u8> = Vec::with_capacity(len);
    let [first, second] = chunks;
    #[allow(unsafe_code)]
    // SAFETY: the masks select the first `len` bytes, which are in the vector's capacity: up to 64
    // from its start, and the rest from byte 64 if there are more; masked stores write no other byte.
    unsafe {
        let at = key.as_mut_ptr();
        _mm512_mask_storeu_epi8(at.cast(), u64::low(len.min(64)), first);
        if len > 64 {
            _mm512_mask_storeu_epi8(at.add(64).cast(), u64::low(len - 64), second);
        }
    }
    ascii(key, len)
}

/// `key` with its first `len` bytes written, which are ASCII, as a string.
#[inline(always)]
fn ascii(mut key: Vec<u8>, len: usize) -> String {
    #[allow(unsafe_code)]
    // SAFETY: the caller wrote the first `len` bytes, within the capacity. They are ASCII, so the
    // string is UTF-8: the text holds the title's letters, digits and spaces with bit 5 set (the kept
    // bytes of a title without `classes.other`, or whose other bytes `Settled` let be, which are never
    // kept), and `' '` and `'|'`.
    unsafe {
        key.set_len(len.min(key.capacity()));
        debug_assert!(key.is_ascii());
        String::from_utf8_unchecked(key)
    }
}

/// Masks of up to two 64-bit halves.
trait Halves: Mask {
    fn half(self, h: usize) -> u64;
    /// The mask of up to two halves, the first the low bits.
    fn from_halves<const H: usize>(halves: [u64; H]) -> Self;
}

impl Halves for u64 {
    #[inline(always)]
    fn half(self, _: usize) -> u64 {
        self
    }

    #[inline(always)]
    fn from_halves<const H: usize>(halves: [u64; H]) -> Self {
        halves.first().copied().unwrap_or(0)
    }
}

impl Halves for u128 {
    #[inline(always)]
    fn half(self, h: usize) -> u64 {
        (self >> (64 * (h & 1))) as u64
    }

    #[inline(always)]
    fn from_halves<const H: usize>(halves: [u64; H]) -> Self {
        let half = |h: usize| u128::from(halves.get(h).copied().unwrap_or(0));
        half(0) | half(1) << 64
    }
}
