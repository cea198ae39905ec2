//! The plain-title key with AVX2, on processors that have it but not AVX-512 (checked at run time):
//! the same classes and marks as [`super::key_in`], without its copy into a padded buffer and its
//! loop over runs.
//!
//! The title is copied into a zeroed buffer with 32-byte loads and stores (the last one ending at the
//! title's end, overlapping the one before), each 32 bytes are classified with one compare per class
//! and `vpmovmskb`, and [`super::marks`] says which bytes the key keeps, as in the AVX-512 path:
//! letters and digits (lower-cased), single spaces between them, and the last byte of each gap that
//! writes a space or a separator (made `' '`). The kept bytes are packed together eight at a time
//! with `pshufb` and a table of the 256 ways to keep bytes of eight, in a fixed number of steps for
//! the title's size class, straight into the key's string. Then the parts are the text between the
//! separators' spaces: the longest, packed on its own, if it is long enough; or the whole text, each
//! separator's space widened to `" | "` in place.

use std::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_shuffle_epi8, _mm256_add_epi8,
    _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_storeu_si256,
};

use super::wide::{
    BYTE_80, BYTE_A0, HIGH, LAST_DASH, LAST_QUOTE, LAST_SPACE, LEAD_C2, LEAD_E2, LT, RARE, kept,
    longest_part, references, settle,
};
use super::{Classes, KEY_PART_MIN_CHARS, Mask, marks};

/// Whether [`key`] may be called here (std checks the processor once and keeps the answer).
#[inline]
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
}

/// The key of `title` if it is plain, else `None`: what [`super::key_sse2`] gives, and the key of
/// the titles with a few other characters that the AVX-512 path also takes.
///
/// # Safety
///
/// [`available`] must have said yes.
#[allow(unsafe_code)]
#[inline]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn key(title: &str) -> Option<String> {
    let n = title.len();
    if n <= 64 {
        key_in::<u64, 2, 96>(title)
    } else if n <= 128 {
        key_in::<u128, 4, 160>(title)
    } else {
        None
    }
}

/// The key of a title of at most `32 * C` bytes; `B` is `32 * C + 32`, room for the title and for
/// the eight-byte reads of the packing past it.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn key_in<M: Mask, const C: usize, const B: usize>(title: &str) -> Option<String> {
    let mut text = [0u8; B];
    fill(title.as_bytes(), &mut text)?;
    let mut bits = [[0; 6]; 4];
    for c in 0..C {
        let chunk = text.get_mut(32 * c..)?.first_chunk_mut::<32>()?;
        let lowered;
        (*bits.get_mut(c)?, lowered) = classify(chunk);
        *chunk = lowered;
    }
    let classes = join::<M>(&bits);
    if classes.other != M::default() {
        return settled::<M, C, B>(title);
    }
    finish(&text, &classes, title.len())
}

/// [`key`] for a title with bytes that [`settle`] may let be.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
fn settled<M: Mask, const C: usize, const B: usize>(title: &str) -> Option<String> {
    let mut text = [0u8; B];
    fill(title.as_bytes(), &mut text)?;
    let mut bits = [[0; 6]; 4];
    let mut rare = [[0; RARE + 1]; 4];
    for c in 0..C {
        let chunk = text.get_mut(32 * c..)?.first_chunk_mut::<32>()?;
        let found = classify_rare(chunk);
        // Most titles here have letters beyond ASCII: declined at once, by their first bytes that
        // are no part of what `settle` may let be (which checks exactly).
        let maybe = [LEAD_E2, LEAD_C2, BYTE_80, BYTE_A0, LAST_QUOTE, LAST_DASH, LAST_SPACE]
            .map(|k| found.get(k).copied().unwrap_or(0));
        if found.get(LT) != Some(&0) || found.get(HIGH)? & !maybe.iter().fold(0, |a, b| a | b) != 0
        {
            return None;
        }
        *rare.get_mut(c)? = found;
        let lowered;
        (*bits.get_mut(c)?, lowered) = classify(chunk);
        *chunk = lowered;
    }
    let mut classes = join::<M>(&bits);
    let rare: [M; RARE + 1] =
        std::array::from_fn(|k| M::from_u32s(rare.map(|chunk| chunk.get(k).copied().unwrap_or(0))));
    let (ampersands, rare) = rare.split_last()?;
    let references = references(*ampersands, title)?;
    settle(&mut classes, rare.first_chunk::<RARE>()?, &references)?;
    // A reference's letters and digits are not the key's: the gap's byte it may keep is a space.
    let mut spans = references.spans;
    while spans != M::default() {
        let at = spans.trailing_zeros() as usize;
        spans = spans & !(M::ONE << at as u32);
        *text.get_mut(at)? = b' ';
    }
    finish(&text, &classes, title.len())
}

/// The classes of a title from those of its 32-byte pieces (a bit each, in the order of
/// [`Classes`]).
#[inline(always)]
fn join<M: Mask>(bits: &[[u32; 6]; 4]) -> Classes<M> {
    let class = |k: usize| M::from_u32s(bits.map(|piece| piece.get(k).copied().unwrap_or(0)));
    Classes {
        alnum: class(0),
        space: class(1),
        whitespace: class(2),
        separator: class(3),
        dash: class(4),
        other: class(5),
    }
}

/// The key from the title's classes and `text` (its bytes as [`classify`] writes them; `n` of them).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn finish<M: Mask, const B: usize>(
    text: &[u8; B],
    classes: &Classes<M>,
    n: usize,
) -> Option<String> {
    let marks = marks(classes, n);
    // The gaps' last bytes that are kept are `' '` in `text` already: `classify` made every byte
    // but letters and digits a space.
    let separators = marks.separated >> 1;
    let kept = kept(&marks);
    if separators == M::default() {
        return Some(packed::<M, B>(text, kept, kept.ones()));
    }
    let (longest, longest_len) = longest_part(kept, separators);
    if longest_len >= KEY_PART_MIN_CHARS {
        return Some(packed::<M, B>(text, longest, longest_len));
    }
    let count = separators.ones();
    let len = kept.ones();
    let mut key = packed::<M, B>(text, kept, len + 2 * count).into_bytes();
    key.resize(len + 2 * count, b' ');
    // Each separator's space becomes `" | "`, from the last one back, moving the text after it
    // right by two for each separator up to it.
    let mut end = len;
    let mut rest = separators;
    for moved in (1..=count).rev() {
        let last = M::BYTES as u32 - 1 - rest.leading_zeros();
        rest = rest & !(M::ONE << last);
        let at = (kept & (M::ONE << last).below()).ones();
        key.copy_within(at + 1..end, at + 1 + 2 * moved);
        key.get_mut(at + 2 * (moved - 1)..at + 2 * moved + 1)?.copy_from_slice(b" | ");
        end = at;
    }
    debug_assert!(key.is_ascii());
    #[allow(unsafe_code)]
    // SAFETY: `packed` gave ASCII bytes (see there), and only ASCII was written since.
    Some(unsafe { String::from_utf8_unchecked(key) })
}

/// Copies the title (at most `B - 32` bytes) to the start of `text`, the rest staying zero: 32-byte
/// pieces, the last one ending at the title's end.
#[inline(always)]
fn fill<const B: usize>(bytes: &[u8], text: &mut [u8; B]) -> Option<()> {
    let n = bytes.len();
    if n < 32 {
        text.get_mut(..n)?.copy_from_slice(bytes);
        return Some(());
    }
    let mut at = 0;
    while at < B - 32 {
        // Past the end, the last 32 bytes again, which leaves what is already there as it is.
        let from = at.min(n - 32);
        let piece = bytes.get(from..)?.first_chunk::<32>()?;
        text.get_mut(from..)?.first_chunk_mut::<32>()?.copy_from_slice(piece);
        at += 32;
    }
    Some(())
}

/// The `kept` bytes of `text`, in order, as a string with room for `room` bytes (at least their
/// number).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn packed<M: Mask, const B: usize>(text: &[u8; B], kept: M, room: usize) -> String {
    let len = kept.ones();
    let mut key: Vec<u8> = Vec::with_capacity(room.max(len) + 8);
    let mut at = 0;
    let groups = kept.to_bytes();
    for g in 0..M::BYTES / 8 {
        let selected = groups.get(g).copied().unwrap_or(0);
        let Some(group) = text.get(8 * g..).and_then(|t| t.first_chunk::<8>()) else {
            break;
        };
        let bytes = pack(*group, selected);
        // Eight bytes are written; those past the kept ones are overwritten or cut off.
        let Some(out) = key.spare_capacity_mut().get_mut(at..at + 8) else {
            break;
        };
        for (slot, b) in out.iter_mut().zip(bytes) {
            slot.write(b);
        }
        at += selected.count_ones() as usize;
    }
    #[allow(unsafe_code)]
    // SAFETY: the first `len` bytes were written (each step wrote eight bytes from the number kept
    // before it, and `len` is all of them), within the capacity. They are ASCII, so the string is
    // UTF-8: `text` holds ASCII letters and digits with bit 5 set, and spaces (`classify` wrote every
    // other byte as a space), and zeros.
    unsafe {
        key.set_len(at.min(len).min(key.capacity()));
        debug_assert!(key.is_ascii());
        String::from_utf8_unchecked(key)
    }
}

/// The bytes of `group` at the bits of `selected`, packed at the start; zeros after them.
/// (`pshufb` is SSSE3, which AVX2 implies.)
#[inline]
#[target_feature(enable = "avx2")]
fn pack(group: [u8; 8], selected: u8) -> [u8; 8] {
    let order = _mm_cvtsi64_si128(PACK[usize::from(selected)]);
    let group: __m128i = _mm_cvtsi64_si128(i64::from_le_bytes(group));
    _mm_cvtsi128_si64(_mm_shuffle_epi8(group, order)).to_le_bytes()
}

/// For each way to keep bytes of eight, the `pshufb` order that packs them: the index of each kept
/// byte in turn, then `0x80` (a zero byte).
const PACK: [i64; 256] = {
    let mut table = [0i64; 256];
    let mut selected = 0;
    while selected < 256 {
        let mut order = [0x80u8; 8];
        let (mut bit, mut at) = (0, 0);
        while bit < 8 {
            if selected & (1 << bit) != 0 {
                order[at] = bit as u8;
                at += 1;
            }
            bit += 1;
        }
        table[selected] = i64::from_le_bytes(order);
        selected += 1;
    }
    table
};

/// The classes of 32 bytes, a bit each (in the order of [`Classes`]), and the bytes as the key writes
/// them: letters and digits lower-cased (bit 5 set), everything else `' '`.
#[inline]
#[target_feature(enable = "avx2")]
fn classify(chunk: &[u8; 32]) -> ([u32; 6], [u8; 32]) {
    #[allow(unsafe_code)]
    // SAFETY: reads the 32 bytes of `chunk`; an unaligned load needs no alignment.
    let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
    let splat = |b: u8| _mm256_set1_epi8(i8::from_le_bytes([b]));
    let is = |b: u8| _mm256_cmpeq_epi8(v, splat(b));
    // `first <= x < first + len` as a signed compare after shifting `first` to -128.
    let within = |x: __m256i, first: u8, len: u8| {
        _mm256_cmpgt_epi8(splat(0x80 + len), _mm256_add_epi8(x, splat(0x80u8.wrapping_sub(first))))
    };
    let lowered = _mm256_or_si256(v, splat(0x20));
    let alnum = _mm256_or_si256(within(lowered, b'a', 26), within(v, b'0', 10));
    let space = is(b' ');
    let whitespace = _mm256_or_si256(space, within(v, b'\t', 5));
    let separator = _mm256_or_si256(is(b':'), is(b'|'));
    // The sign bit marks non-ASCII bytes.
    let other = _mm256_or_si256(v, _mm256_or_si256(is(b'&'), is(b'<')));
    let bits = |x: __m256i| _mm256_movemask_epi8(x) as u32;
    let mut text = [0u8; 32];
    #[allow(unsafe_code)]
    // SAFETY: writes the 32 bytes of `text`; an unaligned store needs no alignment.
    unsafe {
        _mm256_storeu_si256(
            text.as_mut_ptr().cast(),
            _mm256_blendv_epi8(splat(b' '), lowered, alnum),
        );
    }
    (
        [bits(alnum), bits(space), bits(whitespace), bits(separator), bits(is(b'-')), bits(other)],
        text,
    )
}

/// What [`settle`] needs to know of 32 bytes, a bit each in the order of [`RARE`]'s classes, then
/// the `&`s.
#[inline]
#[target_feature(enable = "avx2")]
fn classify_rare(chunk: &[u8; 32]) -> [u32; RARE + 1] {
    #[allow(unsafe_code)]
    // SAFETY: reads the 32 bytes of `chunk`; an unaligned load needs no alignment.
    let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
    let splat = |b: u8| _mm256_set1_epi8(i8::from_le_bytes([b]));
    let is = |b: u8| _mm256_cmpeq_epi8(v, splat(b));
    let within = |first: u8, len: u8| {
        _mm256_cmpgt_epi8(splat(0x80 + len), _mm256_add_epi8(v, splat(0x80u8.wrapping_sub(first))))
    };
    let or = _mm256_or_si256;
    let bits = |x: __m256i| _mm256_movemask_epi8(x) as u32;
    [
        bits(is(b'<')),
        bits(v),
        bits(is(0xE2)),
        bits(is(0xC2)),
        bits(is(0x80)),
        bits(is(0xA0)),
        bits(or(or(within(0x98, 2), within(0x9C, 2)), is(0xA6))),
        bits(within(0x93, 2)),
        bits(or(or(within(0x80, 11), within(0xA8, 2)), is(0xAF))),
        bits(is(b'&')),
    ]
}
