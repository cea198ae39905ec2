//! The key of a plain title, from bit masks: ASCII, no `&` or `<`, at most 128 bytes. Most English
//! titles are plain; the others take the one-pass folder of [`super::fast`]. Where the processor has
//! AVX-512, [`avx512`] makes the same key with 64-byte registers, and takes a few more titles; where
//! it has AVX2 but not AVX-512, [`avx2`] does, with 32-byte registers. What those two share beyond
//! [`marks`] is in [`wide`].
//!
//! On a plain title the rules of the key reduce to this. Bytes are *copied* (ASCII letters and digits,
//! and a single space between two of them, lower-cased) or not; the bytes that are not copied form
//! *gaps*. A gap with a separator in it (`:`, `|`, a dash followed by whitespace) ends a part, a gap
//! with whitespace in it is one space, any other gap (punctuation) is nothing; a gap before the first
//! copied byte is nothing whatever it holds. So the key is the runs of copied bytes, each after `" | "`,
//! `" "` or nothing as its gap says, and then the longest part if there are several and it has 32
//! characters or more.
//!
//! Every byte's classes are found sixteen at a time and kept as one bit per byte ([`Mask`]), so that
//! what each gap holds comes from a few word operations for the whole title at once: adding a gap's
//! first bit to the gap's bits carries past its end unless a bit on the way was cleared, which is how
//! `(gap & !whitespace) + first` tells the gaps without whitespace. The only loop left is over the runs
//! (one or a few a title), each copied in fixed sixteen-byte pieces. Branches that depend on the text
//! are what made the folder slow: each costs about as much as twenty bytes of work when mispredicted.

use super::KEY_PART_MIN_CHARS;

/// The key of `title` if it is plain (what the general path gives), else `None`.
#[inline]
pub(super) fn key(title: &str) -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        #[allow(unsafe_code)]
        // SAFETY: `available` said this processor has what `avx512::key` needs.
        return unsafe { avx512::key(title) };
    } else if avx2::available() {
        #[allow(unsafe_code)]
        // SAFETY: `available` said this processor has what `avx2::key` needs.
        return unsafe { avx2::key(title) };
    }
    key_sse2(title)
}

/// The one-pass folder's lanes of `bytes` (`fast::Lanes`), computed 64 bytes at a time where the
/// processor has AVX-512 (as [`key`] would use it); `false` where it has not, and nothing is written.
#[inline]
pub(super) fn wide_lanes(bytes: &[u8], lowered: &mut [u8], stops: &mut [u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        #[allow(unsafe_code)]
        // SAFETY: `available` said this processor has what `avx512::lanes` needs.
        unsafe {
            avx512::lanes(bytes, lowered, stops);
        }
        return true;
    }
    let _ = (bytes, lowered, stops);
    false
}

/// [`key`] with sixteen-byte vectors (SSE2 on x86-64, a portable loop elsewhere).
#[inline]
fn key_sse2(title: &str) -> Option<String> {
    let n = title.len();
    if n <= 64 {
        key_in::<u64, { 64 + READ_AHEAD }>(title.as_bytes())
    } else if n <= 128 {
        key_in::<u128, { 128 + READ_AHEAD }>(title.as_bytes())
    } else {
        None
    }
}

/// Bytes read past any byte of the title when a run is copied from it.
const READ_AHEAD: usize = 64;

/// A bit per byte of a title: `u64` for titles up to 64 bytes, `u128` up to 128.
trait Mask:
    Copy
    + Default
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const BYTES: usize;
    const ONE: Self;
    /// Sixteen bits for the bytes from `16 * chunk`.
    fn chunk(bits: u16, chunk: usize) -> Self;
    /// The mask of two 64-bit halves, the first the low bits; a `u64` is only the first (for the
    /// AVX2 path).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn from_u64s(halves: [u64; 2]) -> Self;
    /// The bits of the first 32 bytes (for the AVX2 path).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn low_u32(self) -> u32;
    /// The zeros above the highest bit set (for the AVX2 path).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn leading_zeros(self) -> u32;
    /// The bits of the first `n` bytes.
    fn low(n: usize) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn trailing_zeros(self) -> u32;
    /// How many bits are set (for the wide paths).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn ones(self) -> usize;
    /// The bits below a single bit, all of them for zero (for the wide paths).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn below(self) -> Self;
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const BYTES: usize = <$t>::BITS as usize;
            const ONE: Self = 1;

            #[inline(always)]
            fn chunk(bits: u16, chunk: usize) -> Self {
                <$t>::from(bits) << (16 * chunk)
            }

            #[inline(always)]
            fn from_u64s(halves: [u64; 2]) -> Self {
                let [low, high] = halves.map(u128::from);
                // `high` is cut off from a `u64`.
                (low | high << 64) as $t
            }

            #[inline(always)]
            fn low_u32(self) -> u32 {
                self as u32
            }

            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }

            #[inline(always)]
            fn low(n: usize) -> Self {
                // Plain arithmetic: the `Option` combinators were left as calls in the AVX-512
                // functions, each with a `vzeroupper`.
                let bits = <$t>::BITS as usize;
                if n == 0 || n > bits { 0 } else { <$t>::MAX >> (bits - n) }
            }

            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }

            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }

            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }

            #[inline(always)]
            fn ones(self) -> usize {
                <$t>::count_ones(self) as usize
            }

            #[inline(always)]
            fn below(self) -> Self {
                <$t>::wrapping_sub(self, 1)
            }
        }
    };
}

mask!(u64);
mask!(u128);

/// A title's bytes by class, a bit each.
#[derive(Default, Clone, Copy)]
struct Classes<M> {
    /// ASCII letters and digits.
    alnum: M,
    /// `' '`.
    space: M,
    /// ASCII whitespace (what `char::is_whitespace` accepts in ASCII).
    whitespace: M,
    /// `:` and `|`.
    separator: M,
    /// `-`.
    dash: M,
    /// Bytes a plain title has none of: non-ASCII, `&`, `<`.
    other: M,
}

#[inline(always)]
fn key_in<M: Mask, const PADDED: usize>(bytes: &[u8]) -> Option<String> {
    let n = bytes.len();
    // The title, then zeros (no class): runs are copied from here sixteen bytes at a time.
    let mut padded = [0u8; PADDED];
    fill(bytes, &mut padded)?;
    let mut classes = Classes::<M>::default();
    for k in 0..M::BYTES / 16 {
        let chunk = padded.get(16 * k..)?.first_chunk::<16>()?;
        let [alnum, space, whitespace, separator, dash, other] = classify(chunk);
        classes.alnum |= M::chunk(alnum, k);
        classes.space |= M::chunk(space, k);
        classes.whitespace |= M::chunk(whitespace, k);
        classes.separator |= M::chunk(separator, k);
        classes.dash |= M::chunk(dash, k);
        classes.other |= M::chunk(other, k);
    }
    if classes.other != M::default() {
        return None;
    }
    let Marks { copied, after_gaps, separated, spaced } = marks(&classes, n);
    let mut starts = after_gaps | (copied & M::ONE);
    let mut ends = copied & !(copied >> 1);
    // The text grows by at most two bytes a gap (a one-byte separator written `" | "`); then room for
    // the last sixteen-byte pieces.
    let room = 2 * n + READ_AHEAD + 24;
    // Not `vec![0; room]`, which allocates zeroed memory: slower here (see `fast::key`).
    #[allow(clippy::slow_vector_initialization)]
    let mut out = Vec::with_capacity(room);
    out.resize(room, 0);
    let mut len = 0;
    let mut part_start = 0;
    let (mut parts, mut longest_start, mut longest_len) = (0, 0, 0);
    while starts != M::default() {
        let bit = starts & starts.wrapping_neg();
        let start = starts.trailing_zeros() as usize;
        let end = ends.trailing_zeros() as usize + 1;
        starts = starts & !bit;
        ends = ends & !(ends & ends.wrapping_neg());
        // Selections by masks, not branches: whether a run follows a separator is unpredictable.
        let separates = usize::from(separated & bit != M::default());
        let part = len - part_start;
        let longer = (separates & usize::from(part > longest_len)).wrapping_neg();
        longest_len ^= (longest_len ^ part) & longer;
        longest_start ^= (longest_start ^ part_start) & longer;
        parts += separates;
        out.get_mut(len..len + 4)?.copy_from_slice(b" |  ");
        len += 3 * separates + usize::from(spaced & bit != M::default());
        part_start ^= (part_start ^ len) & separates.wrapping_neg();
        // Sixteen bytes at a time, lower-cased (setting bit 5 lowers letters and keeps digits and
        // spaces); what is written past the run is overwritten or cut off.
        let mut k = 0;
        while k < READ_AHEAD.max(end - start) {
            let mut piece = *padded.get(start + k..)?.first_chunk::<16>()?;
            for b in &mut piece {
                *b |= 0x20;
            }
            out.get_mut(len + k..len + k + 16)?.copy_from_slice(&piece);
            k += 16;
        }
        len += end - start;
    }
    let part = len - part_start;
    if part > longest_len {
        (longest_start, longest_len) = (part_start, part);
    }
    parts += usize::from(len > 0);
    let (start, end) = if parts > 1 && longest_len >= KEY_PART_MIN_CHARS {
        (longest_start, longest_start + longest_len)
    } else {
        (0, len)
    };
    if start > 0 {
        out.copy_within(start..end, 0);
    }
    out.truncate(end - start);
    debug_assert!(out.is_ascii());
    #[allow(unsafe_code)]
    // SAFETY: every byte of `out` is ASCII, so it is UTF-8: `out` starts as zeros, and is written only
    // with `b" |  "` and with bytes of `padded` with bit 5 set, which are ASCII because the title has
    // no non-ASCII byte (`classes.other` is empty) and the rest of `padded` is zeros. (Validating the
    // key took about 11 ns a title, a sixth of the time of the whole key.)
    Some(unsafe { String::from_utf8_unchecked(out) })
}

/// Where the key's text comes from, a bit per byte of the title.
struct Marks<M> {
    /// The bytes copied (lower-cased): letters, digits, single spaces between them.
    copied: M,
    /// The first copied byte after each gap.
    after_gaps: M,
    /// Of those, the ones after a gap that separates parts (written `" | "` before the run).
    separated: M,
    /// And the ones after a gap with whitespace but no separator (a space before the run).
    spaced: M,
}

/// The runs and what each gap between them holds, from the classes of a title of `n` bytes.
#[inline(always)]
fn marks<M: Mask>(classes: &Classes<M>, n: usize) -> Marks<M> {
    let Classes { alnum, space, whitespace, dash, .. } = *classes;
    let copied = alnum | (space & (alnum << 1) & (alnum >> 1));
    let separator = classes.separator | (dash & (whitespace >> 1));
    let gaps = !copied & M::low(n);
    let gap_starts = gaps & !(gaps << 1);
    // The first bit after each gap, and the same for the gaps without whitespace, without separators.
    let after = |bits: M| (bits & gaps).wrapping_add(gap_starts) & !gaps;
    let after_gaps = after(gaps) & copied;
    let no_whitespace = after(!whitespace);
    let no_separator = after(!separator);
    let first = copied & copied.wrapping_neg();
    let later = after_gaps & !first;
    let separated = later & !no_separator;
    let spaced = later & no_separator & !no_whitespace;
    Marks { copied, after_gaps, separated, spaced }
}

/// Copies `bytes` (at most `PADDED - READ_AHEAD` of them) to the start of `padded` in sixteen-byte
/// pieces, so that the sixteen-byte reads of [`classify`] find them in whole stores; the rest stays zero.
#[inline(always)]
fn fill<const PADDED: usize>(bytes: &[u8], padded: &mut [u8; PADDED]) -> Option<()> {
    let n = bytes.len();
    let Some(last) = bytes.last_chunk::<16>() else {
        padded.get_mut(..n)?.copy_from_slice(bytes);
        return Some(());
    };
    let last = u128::from_le_bytes(*last);
    for at in (0..PADDED - READ_AHEAD).step_by(16) {
        let piece = match bytes.get(at..).and_then(<[u8]>::first_chunk::<16>) {
            Some(piece) => u128::from_le_bytes(*piece),
            // The title's last sixteen bytes, shifted down to the ones from `at` (none past its end).
            None => u32::try_from(8 * (at + 16 - n))
                .ok()
                .and_then(|shift| last.checked_shr(shift))
                .unwrap_or(0),
        };
        padded.get_mut(at..at + 16)?.copy_from_slice(&piece.to_le_bytes());
    }
    Some(())
}

/// The classes of sixteen bytes, a bit each: letters and digits, `' '`, whitespace, `:` or `|`, `-`,
/// and the bytes a plain title has none of (in the order of [`Classes`]).
#[inline(always)]
fn classify(chunk: &[u8; 16]) -> [u16; 6] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        #[allow(unsafe_code)]
        // SAFETY: `classify_sse2` needs SSE2, which this build enables for every function (the
        // `cfg` above); it has no other requirement.
        unsafe {
            classify_sse2(chunk)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        classify_portable(chunk)
    }
}

/// [`classify`] with SSE2 compares and `pmovmskb`, which gathers a bit from each byte and which no
/// portable loop compiles to.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
#[target_feature(enable = "sse2")]
fn classify_sse2(chunk: &[u8; 16]) -> [u16; 6] {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set_epi64x, _mm_set1_epi8,
    };
    let [low, high] = [chunk.first_chunk::<8>(), chunk.last_chunk::<8>()]
        .map(|half| half.map_or(0, |half| i64::from_le_bytes(*half)));
    // One unaligned load: the compiler merges the halves.
    let v = _mm_set_epi64x(high, low);
    let splat = |b: u8| _mm_set1_epi8(i8::from_le_bytes([b]));
    let is = |b: u8| _mm_cmpeq_epi8(v, splat(b));
    // `first <= x < first + len` as a signed compare after shifting `first` to -128.
    let within = |x: __m128i, first: u8, len: u8| {
        _mm_cmplt_epi8(_mm_add_epi8(x, splat(0x80u8.wrapping_sub(first))), splat(0x80 + len))
    };
    let letter = within(_mm_or_si128(v, splat(0x20)), b'a', 26);
    let digit = within(v, b'0', 10);
    let space = is(b' ');
    let whitespace = _mm_or_si128(space, within(v, b'\t', 5));
    let separator = _mm_or_si128(is(b':'), is(b'|'));
    // The sign bit marks non-ASCII bytes.
    let other = _mm_or_si128(v, _mm_or_si128(is(b'&'), is(b'<')));
    let bits = |x: __m128i| _mm_movemask_epi8(x) as u16;
    [
        bits(_mm_or_si128(letter, digit)),
        bits(space),
        bits(whitespace),
        bits(separator),
        bits(is(b'-')),
        bits(other),
    ]
}

/// [`classify`] a byte at a time, for other processors (and for tests to compare with).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn classify_portable(chunk: &[u8; 16]) -> [u16; 6] {
    let mut bits = [0; 6];
    for (j, &b) in chunk.iter().enumerate() {
        let classes = [
            b.is_ascii_alphanumeric(),
            b == b' ',
            b == b' ' || (b'\t'..=b'\r').contains(&b),
            b == b':' || b == b'|',
            b == b'-',
            !b.is_ascii() || b == b'&' || b == b'<',
        ];
        for (mask, class) in bits.iter_mut().zip(classes) {
            *mask |= u16::from(class) << j;
        }
    }
    bits
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod wide;
