//! The plain-title key with AVX2, on processors that have it but not AVX-512 (checked at run time):
//! the same classes and marks as [`super::key_in`], without its copy into a padded buffer and its
//! loop over runs.
//!
//! The title is loaded into registers 32 bytes at a time, straight from its bytes (the last piece
//! ending at the title's end and overlapping the one before, so that nothing past it is read; see
//! [`Pieces`]). Each piece is classified with one compare per class and `vpmovmskb`, the bits are
//! moved to their place in the title's masks, and [`super::marks`] says which bytes the key keeps,
//! as in the AVX-512 path: letters and digits (lower-cased), single spaces between them, and the last
//! byte of each gap that writes a space or a separator (made `' '`). The kept bytes are packed
//! together sixteen at a time, with a `pshufb` whose order comes from a table of the 256 ways to keep
//! bytes of eight (one for each half) and a second that joins the halves, in a fixed number of steps
//! for the title's size class, from the registers straight into the key's string. (Eight at a time,
//! with one `pshufb` each, the whole list took 55.6 ns a title against 54.5.) Then the parts are the text between the separators' spaces: the longest, packed on its
//! own, if it is long enough; or the whole text, each separator's space widened to `" | "` in place.
//!
//! A title with `&`, `<` or non-ASCII bytes has them settled from its bytes, a character at a time
//! ([`Settled`]), as the AVX-512 path does: the characters a plain title may also have, the rest
//! declined. The classes and the text of the first pass are kept; only a reference's letters and
//! digits are taken out of the text again. (Loading and classifying such a title a second time, with
//! a compare for each of the rarer bytes, took about a third of its time.)

use std::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_set_epi64x, _mm_shuffle_epi8, _mm_storeu_si128,
    _mm256_add_epi8, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castsi256_si128,
    _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_set1_epi32, _mm256_set1_epi64x,
    _mm256_setr_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8,
};

use super::wide::{Detected, Settled, kept, longest_part};
use super::{Classes, KEY_PART_MIN_CHARS, Mask, marks};

/// Whether [`key`] may be called here (checked once, [`Detected`]).
#[inline]
pub(super) fn available() -> bool {
    static AVAILABLE: Detected = Detected::new();
    AVAILABLE.get(|| is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt"))
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
        key_in::<u64, 2>(title)
    } else if n <= 96 {
        key_in::<u128, 3>(title)
    } else if n <= 128 {
        key_in::<u128, 4>(title)
    } else {
        None
    }
}

/// The key of a title of at most `32 * C` bytes.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn key_in<M: Mask, const C: usize>(title: &str) -> Option<String> {
    let pieces = load::<C>(title.as_bytes())?;
    let mut bits = [[0; 6]; C];
    let mut texts = pieces.v;
    for (text, bits) in texts.iter_mut().zip(&mut bits) {
        (*bits, *text) = classify(*text);
    }
    let shifts = shifts(&pieces.at);
    // The other bytes first: a title with letters beyond ASCII is declined before the rest is joined.
    let other: M = join_class(&bits.map(|piece| piece[5]), &shifts);
    let settled = if other == M::default() { None } else { Some(Settled::scan(other, title)?) };
    let mut classes = join::<M, C>(&bits, &shifts);
    if let Some(settled) = settled {
        let alnum = classes.alnum;
        settled.apply(&mut classes);
        // A character reference's letters and digits are not the key's, and the gap's byte a
        // reference may hold is a space: the text is made again where references took any.
        if classes.alnum != alnum {
            let space = _mm256_set1_epi8(b' ' as i8);
            for (text, &at) in texts.iter_mut().zip(&pieces.at) {
                let alnum = bytes_of((classes.alnum >> at as u32).low_u32());
                *text = _mm256_blendv_epi8(space, *text, alnum);
            }
        }
    }
    finish(&texts, &pieces.at, &classes, title.len())
}

/// A title of at most `32 * C` bytes in registers: piece `c` is the 32 bytes from `at[c]`, which is
/// `32 * c` but never past the title's last 32 bytes, so that the last pieces may overlap the ones
/// before. Piece `c` stands for the title's bytes from `32 * c` (up to 32 of them). Nothing past
/// the title is read: a title of fewer than 32 bytes is put together from overlapping loads of its
/// own bytes, zeros after it ([`short_halves`]).
struct Pieces<const C: usize> {
    v: [__m256i; C],
    at: [usize; C],
}

#[inline]
#[target_feature(enable = "avx2")]
fn load<const C: usize>(bytes: &[u8]) -> Option<Pieces<C>> {
    let n = bytes.len();
    let mut v = [_mm256_setzero_si256(); C];
    if n < 32 {
        let [a, b] = short_halves(bytes);
        let half =
            |x: u128| [x as u64, (x >> 64) as u64].map(|w| i64::from_le_bytes(w.to_le_bytes()));
        let ([a0, a1], [b0, b1]) = (half(a), half(b));
        *v.first_mut()? = _mm256_setr_epi64x(a0, a1, b0, b1);
        return Some(Pieces { v, at: std::array::from_fn(|c| 32 * c) });
    }
    let at: [usize; C] = std::array::from_fn(|c| (32 * c).min(n - 32));
    for (v, &at) in v.iter_mut().zip(&at) {
        *v = load32(bytes.get(at..)?.first_chunk::<32>()?);
    }
    Some(Pieces { v, at })
}

/// A title of fewer than 32 bytes as two sixteen-byte halves, zeros after it, from overlapping loads
/// of its own bytes. (Copied into a zeroed buffer and loaded from there, as before, the load waited
/// for the copy's stores: titles of up to 32 bytes took 44 ns where longer ones took 32.)
#[inline(always)]
fn short_halves(bytes: &[u8]) -> [u128; 2] {
    let n = bytes.len();
    // The title's first and last `K` bytes (`K` at most `n`), the last moved to where they are in
    // the title; the bytes both hold are the same.
    let overlapped = |first: u128, last: u128, k: usize| {
        first | u32::try_from(8 * (n - k)).ok().and_then(|s| last.checked_shl(s)).unwrap_or(0)
    };
    let word = |at: usize| {
        bytes.get(at..).and_then(<[u8]>::first_chunk::<8>).map(|w| u64::from_le_bytes(*w))
    };
    if let (Some(first), Some(last)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) {
        // 16 to 31 bytes: the second half is the last sixteen moved down to the title's byte 16.
        let high = u32::try_from(8 * (32 - n))
            .ok()
            .and_then(|s| u128::from_le_bytes(*last).checked_shr(s))
            .unwrap_or(0);
        return [u128::from_le_bytes(*first), high];
    }
    if n >= 8 {
        let (first, last) = (word(0).unwrap_or(0), word(n - 8).unwrap_or(0));
        return [overlapped(u128::from(first), u128::from(last), 8), 0];
    }
    let mut low = 0u128;
    for (i, &b) in bytes.iter().enumerate() {
        low |= u128::from(b) << (8 * i);
    }
    [low, 0]
}

#[inline]
#[target_feature(enable = "avx2")]
fn load32(bytes: &[u8; 32]) -> __m256i {
    #[allow(unsafe_code)]
    // SAFETY: reads the 32 bytes of `bytes`; an unaligned load needs no alignment.
    unsafe {
        _mm256_loadu_si256(bytes.as_ptr().cast())
    }
}

/// The classes of a title from those of its pieces (a bit each, in the order of [`Classes`]).
#[inline(always)]
fn join<M: Mask, const C: usize>(bits: &[[u32; 6]; C], shifts: &[u32; C]) -> Classes<M> {
    let class =
        |k: usize| join_class(&bits.map(|piece| piece.get(k).copied().unwrap_or(0)), shifts);
    Classes {
        alnum: class(0),
        space: class(1),
        whitespace: class(2),
        separator: class(3),
        dash: class(4),
        other: class(5),
    }
}

/// Where [`join_class`] moves each piece's bits: byte `j` of piece `c` is the title's byte
/// `at[c] + j`, in the 64-bit half `c / 2`; it is shifted there from bit `32 + j`, to the right only.
#[inline(always)]
fn shifts<const C: usize>(at: &[usize; C]) -> [u32; C] {
    std::array::from_fn(|c| {
        (32 + 64 * (c / 2)).saturating_sub(at.get(c).copied().unwrap_or(0)) as u32
    })
}

/// A bit per byte of a title from a bit per byte of each of its pieces, moved by [`shifts`]. Bits
/// shifted out below a half are of bytes that the pieces before have too, as are the bits that
/// overlap theirs.
#[inline(always)]
fn join_class<M: Mask, const C: usize>(bits: &[u32; C], shifts: &[u32; C]) -> M {
    let mut halves = [0u64; 2];
    for (c, (&bits, &shift)) in bits.iter().zip(shifts).enumerate() {
        if let Some(half) = halves.get_mut(c / 2) {
            *half |= (u64::from(bits) << 32).checked_shr(shift).unwrap_or(0);
        }
    }
    M::from_u64s(halves)
}

/// The key from the title's classes and its pieces as [`classify`] writes them (`n` bytes).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn finish<M: Mask, const C: usize>(
    texts: &[__m256i; C],
    at: &[usize; C],
    classes: &Classes<M>,
    n: usize,
) -> Option<String> {
    let marks = marks(classes, n);
    // The gaps' last bytes that are kept are `' '` in the text already: `classify` made every byte
    // but letters and digits a space.
    let separators = marks.separated >> 1;
    let kept = kept(&marks);
    let len = kept.ones();
    // The longest part if there are several and it is long enough, else the whole text with room
    // for the separators: one call of `packed`, which is then inlined.
    let (longest, longest_len) = longest_part(kept, separators);
    let whole = separators == M::default() || longest_len < KEY_PART_MIN_CHARS;
    let count = if whole { separators.ones() } else { 0 };
    let (selected, room) = if whole { (kept, len + 2 * count) } else { (longest, longest_len) };
    let key = packed(texts, at, selected, room);
    if count == 0 {
        return Some(key);
    }
    let mut key = key.into_bytes();
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

/// The `kept` bytes of the title, from its pieces' text, in order, as a string with room for `room`
/// bytes (at least their number).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn packed<M: Mask, const C: usize>(
    texts: &[__m256i; C],
    at: &[usize; C],
    kept: M,
    room: usize,
) -> String {
    let len = kept.ones();
    let mut key: Vec<u8> = Vec::with_capacity(room.max(len) + 16);
    let mut written = 0;
    for (c, (&text, &at)) in texts.iter().zip(at).enumerate() {
        // The kept bytes this piece stands for: from the title's byte `32 * c`, its own `32 * c - at`.
        let own = (kept >> at as u32).low_u32()
            & u32::MAX.checked_shl((32 * c).saturating_sub(at) as u32).unwrap_or(0);
        for (h, half) in halves(text).into_iter().enumerate() {
            let selected = (own >> (16 * h)) as u16;
            // Sixteen bytes are written; those past the kept ones are overwritten or cut off.
            let Some(out) = key.spare_capacity_mut().get_mut(written..written + 16) else {
                break;
            };
            for (slot, b) in out.iter_mut().zip(pack(half, selected)) {
                slot.write(b);
            }
            written += selected.count_ones() as usize;
        }
    }
    #[allow(unsafe_code)]
    // SAFETY: the first `len` bytes were written (each step wrote sixteen bytes from the number kept
    // before it, and `len` is all of them), within the capacity. They are ASCII, so the string is
    // UTF-8: the text holds ASCII letters and digits with bit 5 set, and spaces (`classify`, and
    // `settled`, wrote every other byte as a space).
    unsafe {
        key.set_len(written.min(len).min(key.capacity()));
        debug_assert!(key.is_ascii());
        String::from_utf8_unchecked(key)
    }
}

/// The two sixteen-byte halves of a piece, the first the low bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn halves(v: __m256i) -> [__m128i; 2] {
    [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)]
}

/// The bytes of `half` at the bits of `selected`, packed at the start; zeros after them. Each
/// eight-byte group is packed by `pshufb` with an order from [`PACK`], the second group's moved to
/// the second eight bytes; a second `pshufb` moves it down to the end of the first group's.
/// (`pshufb` is SSSE3, which AVX2 implies.)
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn pack(half: __m128i, selected: u16) -> [u8; 16] {
    let [low, high] = selected.to_le_bytes();
    // The second group's indices are 8 to 15; `0x80` (a zero byte) stays negative.
    let high_order = PACK[usize::from(high)].wrapping_add(0x0808_0808_0808_0808);
    let order = _mm_set_epi64x(high_order, PACK[usize::from(low)]);
    let groups = _mm_shuffle_epi8(half, order);
    let join = JOIN.get(low.count_ones() as usize).unwrap_or(&[0x80; 16]);
    let mut out = [0u8; 16];
    #[allow(unsafe_code)]
    // SAFETY: `join` and `out` are sixteen bytes; the load and the store are unaligned.
    unsafe {
        let joined = _mm_shuffle_epi8(groups, _mm_loadu_si128(join.as_ptr().cast()));
        _mm_storeu_si128(out.as_mut_ptr().cast(), joined);
    }
    out
}

/// For each number of bytes `n` the first group keeps, the `pshufb` order that moves the second
/// group's bytes (from byte 8) to just after them: bytes `0..n` stay, byte `n + k` is byte `8 + k`.
const JOIN: [[u8; 16]; 9] = {
    let mut table = [[0x80u8; 16]; 9];
    let mut n = 0;
    while n <= 8 {
        let mut j = 0;
        while j < 16 {
            table[n][j] = if j < n {
                j as u8
            } else if j < n + 8 {
                (j - n + 8) as u8
            } else {
                0x80
            };
            j += 1;
        }
        n += 1;
    }
    table
};

/// A byte per bit: `0xFF` where `bits` has a one.
#[inline]
#[target_feature(enable = "avx2")]
fn bytes_of(bits: u32) -> __m256i {
    // Byte `i` gets byte `i / 8` of `bits` (within each 16-byte lane, which holds all four), then
    // its own bit of it.
    let spread = _mm256_shuffle_epi8(
        _mm256_set1_epi32(i32::from_le_bytes(bits.to_le_bytes())),
        _mm256_setr_epi64x(0, 0x0101_0101_0101_0101, 0x0202_0202_0202_0202, 0x0303_0303_0303_0303),
    );
    let select = _mm256_set1_epi64x(i64::from_le_bytes([1, 2, 4, 8, 16, 32, 64, 128]));
    _mm256_cmpeq_epi8(_mm256_and_si256(spread, select), select)
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
fn classify(v: __m256i) -> ([u32; 6], __m256i) {
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
    (
        [bits(alnum), bits(space), bits(whitespace), bits(separator), bits(is(b'-')), bits(other)],
        _mm256_blendv_epi8(splat(b' '), lowered, alnum),
    )
}
