//! The one-pass title folder: tag stripping, reference decoding, NFKC, case folding and part splitting
//! in a single scan, with the exact results of the general path (`TitleParts::general`) for every
//! title it accepts.
//!
//! Runs of ASCII letters, digits and single spaces between them are found, lower-cased and copied
//! eight bytes at a time; for titles of 16 to 240 bytes the runs, and the short plain ASCII gaps
//! between them, are read from per-byte lanes computed first, sixteen bytes at a time ([`Lanes`]),
//! and other titles find runs with word arithmetic ([`word_prefix`]). Other ASCII bytes go by a byte
//! table, punctuation and separators taking the spaces after them along; runs of non-ASCII letters
//! fold through the table of [`super::chars`] in an inner loop; tags are skipped and references
//! decoded in place. The common cases are inline in [`fold_with`], the rest in [`State::other`]. The
//! folder gives up (`None`, and the caller takes the general path) on a character that does not fold
//! on its own, on a reference whose decoding twice could depend on the text after it (an `&` or `<`
//! right after it), and when the key reaches its length limit.
//!
//! [`key`], the key without a source name, folds straight into the buffer of the string it returns
//! and keeps only what the key needs of the parts (how many, the longest); [`with_folded`], for the
//! other uses, folds into a buffer on the stack for titles up to 160 bytes, else into a buffer kept
//! per thread, with every part's range.
//!
//! Where the time goes is measured in `benches/README.md`: a fixed cost per call, the lanes and the
//! scan, and a table lookup per non-ASCII character.
//!
//! # The text is UTF-8
//!
//! The folder writes bytes, and its text is checked when it is taken as a string (`str::from_utf8`,
//! a few nanoseconds on ASCII text and about ten on a title in other scripts). The check never fails:
//! the text only ever grows by whole characters at its end (`State::len`): an ASCII word of a run
//! (made ASCII as it is written), `' '`, the separator, and a `Utf8Char`, which is made only from a
//! `char`. Writes may reach past the end, but the next one starts at the end again. A part begins
//! and ends where the text ended at the time, so parts and their ends are whole characters too. Were
//! it to fail, the title would take the general path.

use std::cell::Cell;

use super::chars::{self, Class, Fold, Utf8Char};
use super::{KEY_PART_MIN_CHARS, MAX_KEY_CHARS, Ranges, SEPARATOR};
use crate::html;

/// Room for the longest text the folder writes before it gives up: under [`MAX_KEY_CHARS`] characters
/// of up to four bytes, then one step (an eight-byte word, a separator, or a space and a character).
const BUFFER_LEN: usize = MAX_KEY_CHARS * 4 + 16;

thread_local! {
    /// The folder's output buffer, reused by every title of a thread.
    static BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Input byte classes: ASCII by the rules of the key, and the bytes that start something longer.
const WORD: u8 = 0;
const SPACE: u8 = 1;
const DROP: u8 = 2;
const SEPARATOR_BYTE: u8 = 3;
const DASH: u8 = 4;
const AMPERSAND: u8 = 5;
const TAG: u8 = 6;
const NON_ASCII: u8 = 7;
const BYTE_CLASS: [u8; 256] = {
    let mut table = [NON_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => WORD,
            // The characters `char::is_whitespace` accepts in ASCII.
            b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' => SPACE,
            b':' | b'|' => SEPARATOR_BYTE,
            b'-' => DASH,
            b'&' => AMPERSAND,
            b'<' => TAG,
            _ => DROP,
        };
        b += 1;
    }
    table
};

/// The class of an ASCII character of folded text (where `&` and `<` are plain punctuation).
fn ascii_class(b: u8) -> Class {
    match BYTE_CLASS[usize::from(b)] {
        WORD => Class::Keep,
        SPACE => Class::Space,
        SEPARATOR_BYTE => Class::Separator,
        DASH => Class::Dash,
        _ => Class::Drop,
    }
}

/// Runs `f` on the folded text of `title` and the ranges of its parts; `None` when the title needs
/// the general path.
#[inline]
pub(super) fn with_folded<R>(title: &str, f: impl FnOnce(&str, &Ranges) -> R) -> Option<R> {
    let mut ranges = Ranges::default();
    if title.len() <= SHORT_TITLE {
        let mut buffer = [0; SHORT_BUFFER];
        if fold(title, &mut buffer, &mut ranges).is_some() {
            return Some(f(folded_text(&buffer, &ranges)?, &ranges));
        }
        ranges = Ranges::default();
    }
    let mut buffer = BUFFER.try_with(Cell::take).unwrap_or_default();
    if buffer.len() < BUFFER_LEN {
        buffer.resize(BUFFER_LEN, 0);
    }
    let result = match fold(title, &mut buffer, &mut ranges) {
        Some(()) => folded_text(&buffer, &ranges).map(|text| f(text, &ranges)),
        None => None,
    };
    let _ = BUFFER.try_with(|cell| cell.set(buffer));
    result
}

/// The text [`fold`] wrote into `buffer`, up to the end of its last part in `ranges`.
#[inline(always)]
fn folded_text<'a>(buffer: &'a [u8], ranges: &Ranges) -> Option<&'a str> {
    std::str::from_utf8(buffer.get(..ranges.end())?).ok()
}

/// Where the folder records the parts it finds.
pub(super) trait Parts {
    /// A part: its byte range in the folded text and its length in characters.
    fn push(&mut self, start: usize, end: usize, chars: usize);
}

impl Parts for Ranges {
    #[inline(always)]
    fn push(&mut self, start: usize, end: usize, chars: usize) {
        Ranges::push(self, start, end, chars);
    }
}

/// The parts as the key without a source needs them: how many, where the text ends, and the longest
/// (the first of the longest).
#[derive(Debug, Default)]
struct Longest {
    count: usize,
    end: usize,
    start_of_longest: usize,
    end_of_longest: usize,
    chars_of_longest: usize,
}

impl Parts for Longest {
    #[inline(always)]
    fn push(&mut self, start: usize, end: usize, chars: usize) {
        self.count += 1;
        self.end = end;
        if chars > self.chars_of_longest {
            self.start_of_longest = start;
            self.end_of_longest = end;
            self.chars_of_longest = chars;
        }
    }
}

/// The key of `title` without a source name (what `choose_key` gives), or `None` when the title
/// needs the general path.
///
/// The text is folded straight into the key's own buffer: a part that is the key is moved to its
/// start. Titles that grow by more than [`KEY_ROOM`] bytes take the other path.
// Inline: returned from a call, the string is written as words and read back as a pair, which the
// processor cannot forward and waits for.
#[inline(always)]
pub(super) fn key(title: &str) -> Option<String> {
    // Not `vec![0; n]`: glibc's zeroed allocation skips its per-thread cache, which costs about 5 ns a
    // title here, more than the zeroing.
    #[allow(clippy::slow_vector_initialization)]
    let mut out = Vec::with_capacity(title.len() + KEY_ROOM);
    out.resize(title.len() + KEY_ROOM, 0);
    let mut parts = Longest::default();
    fold(title, &mut out, &mut parts)?;
    let (start, end) = if parts.count > 1 && parts.chars_of_longest >= KEY_PART_MIN_CHARS {
        (parts.start_of_longest, parts.end_of_longest)
    } else {
        (0, parts.end)
    };
    if start > 0 {
        out.copy_within(start..end, 0);
    }
    out.truncate(end - start);
    String::from_utf8(out).ok()
}

/// How many bytes the text of a title may grow by in [`key`]'s buffer (separators written ` | `,
/// characters that fold to several), and room for the eight-byte writes past its end.
const KEY_ROOM: usize = 48;

/// Titles up to this many bytes are first folded into a buffer on the stack, which is enough unless
/// they expand (a title the stack buffer cannot hold is folded again into the thread's buffer).
const SHORT_TITLE: usize = 160;
const SHORT_BUFFER: usize = 256;

/// Folds and splits `title` into `out`, recording its parts in `ranges`.
///
/// Writes check only that they stay in `out`: the text is checked against the length limit at the
/// end, which is enough since it only grows.
fn fold(title: &str, out: &mut [u8], ranges: &mut impl Parts) -> Option<()> {
    let len = title.len();
    // The arrays are filled where they stay: returned by value, they would be copied.
    if (Lanes::<64>::MIN..=Lanes::<64>::MAX).contains(&len) {
        let mut lanes = Lanes::<64>::EMPTY;
        lanes.fill(title.as_bytes());
        fold_with(title, out, ranges, &lanes)
    } else if (Lanes::<128>::MIN..=Lanes::<128>::MAX).contains(&len) {
        let mut lanes = Lanes::<128>::EMPTY;
        lanes.fill(title.as_bytes());
        fold_with(title, out, ranges, &lanes)
    } else if (Lanes::<256>::MIN..=Lanes::<256>::MAX).contains(&len) {
        let mut lanes = Lanes::<256>::EMPTY;
        lanes.fill(title.as_bytes());
        fold_with(title, out, ranges, &lanes)
    } else {
        fold_with(title, out, ranges, &Swar)
    }
}

/// How the folder finds runs of ASCII letters, digits and single spaces between them.
trait Runs {
    /// The eight bytes from `i` with ASCII letters lowered, and how many of them are in the run (the
    /// byte at `i` is a letter or a digit, and so is the one before it if `i` is not where the run
    /// started).
    fn run(&self, bytes: &[u8], i: usize) -> Option<(u64, usize)>;

    /// When the bytes from `i` (not a letter or a digit) up to the next letter or digit are fewer
    /// than eight and plain ASCII: their lanes' [`GAP_SPACE`] and [`GAP_SEPARATOR`] bits, and how many
    /// they are. `None` sends the folder through them one by one.
    fn gap(&self, i: usize) -> Option<(u64, usize)>;
}

/// Runs found eight bytes at a time with word arithmetic ([`word_prefix`]), for titles of any length.
struct Swar;

impl Runs for Swar {
    #[inline(always)]
    fn run(&self, bytes: &[u8], i: usize) -> Option<(u64, usize)> {
        let word = load_word(bytes, i);
        let then_word = bytes.get(i + 8).is_some_and(|&b| BYTE_CLASS[usize::from(b)] == WORD);
        Some(word_prefix(word, then_word))
    }

    #[inline(always)]
    fn gap(&self, _: usize) -> Option<(u64, usize)> {
        None
    }
}

/// Runs read from two arrays computed for the whole title first, sixteen bytes at a time in a way
/// the compiler turns into vector instructions: each byte with bit 5 set (lowering ASCII letters,
/// leaving digits and spaces), and whether it ends a run (`0x80`) or not (0). Past the title every
/// byte ends a run. For titles of [`Lanes::MIN`] to [`Lanes::MAX`] bytes.
///
/// (Sixteen bytes is what every x86-64 processor's vectors hold; a version 32 bytes at a time for
/// processors with AVX2, and one 64 at a time with AVX-512, were quicker, but only through the
/// processor's intrinsics, which the compiler cannot check.)
struct Lanes<const N: usize> {
    lowered: [u8; N],
    stops: [u8; N],
}

impl<const N: usize> Lanes<N> {
    /// Shorter titles have no sixteen bytes to read at once.
    const MIN: usize = 16;
    /// Eight-byte reads from the end of the title stay in the arrays.
    const MAX: usize = N - 16;

    /// Nothing read yet: every byte ends a run. (The lowered bytes past the title are never part of
    /// a run; one value for both arrays lets them be filled rather than copied from a template, about
    /// 4 ns a title quicker.)
    const EMPTY: Self = Lanes { lowered: [0x80; N], stops: [0x80; N] };

    /// Fills the lanes of `bytes` sixteen bytes at a time (none for a title under sixteen bytes).
    #[inline(always)]
    fn fill(&mut self, bytes: &[u8]) {
        let len = bytes.len();
        let mut start = 0;
        while start < len {
            // The last sixteen bytes again when the title is not a multiple of sixteen long: the
            // lanes they overlap come out the same.
            let at = start.min(len.saturating_sub(CHUNK));
            self.chunk(bytes, at);
            start += CHUNK;
        }
    }

    #[inline(always)]
    fn chunk(&mut self, bytes: &[u8], at: usize) {
        let Some(&chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<CHUNK>) else {
            return;
        };
        // The bytes one before and one after, read again where the title has them (only the first
        // and the last chunk need shifting).
        let previous = match at.checked_sub(1).and_then(|j| bytes.get(j..)?.first_chunk::<CHUNK>())
        {
            Some(&previous) => previous,
            None => std::array::from_fn(|j| j.checked_sub(1).map_or(0, |j| chunk[j])),
        };
        let next = match bytes.get(at + 1..).and_then(<[u8]>::first_chunk::<CHUNK>) {
            Some(&next) => next,
            None => std::array::from_fn(|j| chunk.get(j + 1).copied().unwrap_or(0)),
        };
        let mut lowered = [0; CHUNK];
        let mut stops = [0; CHUNK];
        for j in 0..CHUNK {
            let b = chunk[j];
            let copied = is_alnum(b) | ((b == b' ') & is_alnum(previous[j]) & is_alnum(next[j]));
            let dash = b == b'-';
            let separator = (b == b':') | (b == b'|') | (dash & is_space(next[j]));
            let special = is_special(b) | (dash & is_special(next[j]));
            stops[j] = if copied {
                0
            } else {
                0x80 | u8::from(is_space(b)) | u8::from(separator) << 1 | u8::from(special) << 2
            };
            lowered[j] = b | 0x20;
        }
        if let Some(out) = self.lowered.get_mut(at..at + CHUNK) {
            out.copy_from_slice(&lowered);
        }
        if let Some(out) = self.stops.get_mut(at..at + CHUNK) {
            out.copy_from_slice(&stops);
        }
    }
}

/// How many bytes [`Lanes::fill`] computes at a time.
const CHUNK: usize = 16;

/// The bits of a gap byte's lane besides `0x80`: whitespace, a separator (a dash followed by
/// whitespace included), and a byte the lanes cannot settle (a non-ASCII byte, `&`, `<`, or a dash
/// before one, which may separate or not).
const GAP_SPACE: u64 = splat(0x01);
const GAP_SEPARATOR: u64 = splat(0x02);
const GAP_SPECIAL: u64 = splat(0x04);

/// ASCII whitespace (what `char::is_whitespace` accepts in ASCII), without branches.
#[inline(always)]
fn is_space(b: u8) -> bool {
    (b == b' ') | (b.wrapping_sub(b'\t') < 5)
}

/// A byte that starts a non-ASCII character, a reference or a tag, without branches.
#[inline(always)]
fn is_special(b: u8) -> bool {
    (b >= 0x80) | (b == b'&') | (b == b'<')
}

/// An ASCII letter or digit, without branches (`|`, not `||`), so that it vectorises.
#[inline(always)]
fn is_alnum(b: u8) -> bool {
    ((b | 0x20).wrapping_sub(b'a') < 26) | (b.wrapping_sub(b'0') < 10)
}

impl<const N: usize> Runs for Lanes<N> {
    #[inline(always)]
    fn gap(&self, i: usize) -> Option<(u64, usize)> {
        let lanes = u64::from_le_bytes(*self.stops.get(i..)?.first_chunk::<8>()?);
        // The lanes of copied bytes are 0; the first one after a gap is a letter or a digit.
        let copied = !lanes & splat(0x80);
        let len = (copied.trailing_zeros() / 8) as usize;
        if len == 0 || len == 8 {
            return None;
        }
        let gap = lanes & (u64::MAX >> (64 - 8 * len));
        (gap & GAP_SPECIAL == 0).then_some((gap, len))
    }

    #[inline(always)]
    fn run(&self, _: &[u8], i: usize) -> Option<(u64, usize)> {
        let stops = u64::from_le_bytes(*self.stops.get(i..)?.first_chunk::<8>()?);
        let lowered = u64::from_le_bytes(*self.lowered.get(i..)?.first_chunk::<8>()?);
        Some((lowered, (stops.trailing_zeros() / 8) as usize))
    }
}

/// [`fold`] with runs found by `runs`.
#[inline(always)]
fn fold_with(title: &str, out: &mut [u8], ranges: &mut impl Parts, runs: &impl Runs) -> Option<()> {
    let bytes = title.as_bytes();
    let mut s = State::default();
    let mut i = 0;
    // Letters, digits, spaces, plain punctuation and characters that fold to a letter inline,
    // everything else in `State::other`, which settles a dash before coming back here if it can (so
    // that the inline cases need not look for one).
    while let Some(&b) = bytes.get(i) {
        // An `if` chain in order of frequency predicts better than a jump table; non-ASCII characters
        // before the gaps, whose lanes would only send them on.
        let class = BYTE_CLASS[usize::from(b)];
        if class == WORD {
            s.space_if_pending(out)?;
            loop {
                let (lowered, run) = runs.run(bytes, i)?;
                // Runs are ASCII; the word is made so (the bytes after the run are of no matter),
                // so that the text stays UTF-8 whatever found the run.
                debug_assert!(run <= ascii_prefix(lowered));
                let ascii = lowered & splat(0x7F);
                out.get_mut(s.len..s.len + 8)?.copy_from_slice(&ascii.to_le_bytes());
                if run < 8 {
                    s.len += run;
                    i += run;
                    break;
                }
                // A constant step, so that the next load need not wait for this word's sums.
                s.len += 8;
                i += 8;
            }
            s.attached = true;
        } else if class == NON_ASCII && !s.pending_dash {
            let (code_point, len) = decode(bytes, i)?;
            let block = chars::block(code_point)?;
            match chars::fold_in(block, code_point) {
                Fold::One { utf8, class: Class::Keep } => {
                    s.space_if_pending(out)?;
                    s.write(utf8, out)?;
                    s.attached = true;
                    i += len;
                    // The rest of the word, while its characters fold to one letter each.
                    let (mut block, mut block_number) = (block, code_point >> chars::BLOCK_BITS);
                    while bytes.get(i).is_some_and(|&b| b >= 0x80) {
                        let (code_point, len) = decode(bytes, i)?;
                        if code_point >> chars::BLOCK_BITS != block_number {
                            block = chars::block(code_point)?;
                            block_number = code_point >> chars::BLOCK_BITS;
                        }
                        let Fold::One { utf8, class: Class::Keep } =
                            chars::fold_in(block, code_point)
                        else {
                            break;
                        };
                        s.write(utf8, out)?;
                        i += len;
                    }
                    continue;
                }
                Fold::One { class: Class::Drop, .. } => s.attached = false,
                Fold::One { class: Class::Space, .. } => {
                    s.pending_space = s.len > s.part_start;
                    s.attached = false;
                }
                fold => {
                    (s, i) = s.other_fold(bytes, i + len, block, fold, out, ranges)?;
                    continue;
                }
            }
            i += len;
        } else if !s.pending_dash
            && let Some((gap, len)) = runs.gap(i)
        {
            // What the branches below do one byte at a time: a separator ends the part (and makes
            // whitespace after it change nothing), whitespace alone makes a space pending.
            if gap & GAP_SEPARATOR != 0 {
                s.separate(out, ranges)?;
            } else if gap & GAP_SPACE != 0 {
                s.pending_space = s.len > s.part_start;
            }
            s.attached = false;
            i += len;
        } else if class == SPACE {
            s.pending_space = s.len > s.part_start;
            s.attached = false;
            i = skip_spaces(bytes, i + 1);
        } else if class == DROP {
            s.attached = false;
            i += 1;
            // Punctuation is often followed by a space.
            if bytes.get(i).is_some_and(|&b| BYTE_CLASS[usize::from(b)] == SPACE) {
                s.pending_space = s.len > s.part_start;
                i = skip_spaces(bytes, i + 1);
            }
        } else if class == SEPARATOR_BYTE {
            s.separate(out, ranges)?;
            s.attached = false;
            // Whitespace right after a separator changes nothing.
            i = skip_spaces(bytes, i + 1);
        } else if class == DASH {
            s.attached = false;
            i += 1;
            // Whitespace next makes a separator; a plain ASCII character or the end, nothing.
            match bytes.get(i).map(|&b| BYTE_CLASS[usize::from(b)]) {
                Some(SPACE) => {
                    s.separate(out, ranges)?;
                    i = skip_spaces(bytes, i + 1);
                }
                Some(AMPERSAND | TAG | NON_ASCII) => s.pending_dash = true,
                _ => {}
            }
        } else {
            (s, i) = s.other(title, i, class, out, ranges)?;
        }
    }
    if s.len > s.part_start {
        s.close_part(ranges);
    }
    // The general path stops at the length limit, and may leave the text unnormalised there.
    (s.len - s.extra < MAX_KEY_CHARS).then_some(())
}

/// Where the run of ASCII whitespace from `i` ends.
fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|&b| BYTE_CLASS[usize::from(b)] == SPACE) {
        i += 1;
    }
    i
}

/// The code point of the character whose first byte is at `i`, and its length in bytes (the input is
/// UTF-8, so the bytes are there and well formed).
fn decode(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    let lead = u32::from(*bytes.get(i)?);
    let tail = |k: usize| bytes.get(i + k).map(|&b| u32::from(b & 0x3F));
    Some(if lead < 0xE0 {
        ((lead & 0x1F) << 6 | tail(1)?, 2)
    } else if lead < 0xF0 {
        ((lead & 0x0F) << 12 | tail(1)? << 6 | tail(2)?, 3)
    } else {
        ((lead & 0x07) << 18 | tail(1)? << 12 | tail(2)? << 6 | tail(3)?, 4)
    })
}

/// Where a scan is: how much it wrote, and the state of `TitleParts::from_folded`.
#[derive(Debug, Clone, Copy, Default)]
struct State {
    len: usize,
    /// Bytes written beyond one per character, so that `len - extra` characters were written.
    extra: usize,
    part_start: usize,
    part_extra: usize,
    pending_space: bool,
    /// A dash was the last character: it separates if whitespace comes next.
    pending_dash: bool,
    /// Whether the last character was kept; a combining mark is kept only on a kept base.
    attached: bool,
}

impl State {
    /// The byte at `i` starts a separator, a dash, a reference, a tag or a non-ASCII character.
    /// Returns the new state and where the scan goes on.
    #[inline(never)]
    fn other(
        mut self,
        title: &str,
        i: usize,
        class: u8,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<(State, usize)> {
        let bytes = title.as_bytes();
        let next = match class {
            AMPERSAND => self.reference(title, i, out, ranges)?,
            TAG => self.tag(bytes, i, out, ranges)?,
            NON_ASCII => {
                let (code_point, len) = decode(bytes, i)?;
                self.push_fold(chars::block(code_point)?, code_point, out, ranges)?;
                i + len
            }
            _ => {
                self.push_char(char::from(bytes[i]), out, ranges)?;
                i + 1
            }
        };
        self.settle_before(bytes, next, out, ranges)?;
        Some((self, next))
    }

    /// A non-ASCII character that does not fold to one letter, `fold` from `block`; `next` is where
    /// the scan goes on.
    #[inline(never)]
    fn other_fold(
        mut self,
        bytes: &[u8],
        next: usize,
        block: &chars::Block,
        fold: Fold,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<(State, usize)> {
        self.push_folds(block, fold, out, ranges)?;
        self.settle_before(bytes, next, out, ranges)?;
        Some((self, next))
    }

    /// Settles a pending dash if the byte at `next` is plain ASCII, which the caller handles inline.
    fn settle_before(
        &mut self,
        bytes: &[u8],
        next: usize,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<()> {
        if self.pending_dash
            && let Some(&b) = bytes.get(next)
            && matches!(BYTE_CLASS[usize::from(b)], WORD | SPACE | DROP | SEPARATOR_BYTE | DASH)
        {
            self.settle_dash(ascii_class(b), out, ranges)?;
        }
        Some(())
    }

    #[inline(always)]
    fn space_if_pending(&mut self, out: &mut [u8]) -> Option<()> {
        if self.pending_space {
            *out.get_mut(self.len)? = b' ';
            self.len += 1;
            self.pending_space = false;
        }
        Some(())
    }

    fn settle_dash(&mut self, next: Class, out: &mut [u8], ranges: &mut impl Parts) -> Option<()> {
        self.pending_dash = false;
        if next == Class::Space {
            self.separate(out, ranges)?;
        }
        Some(())
    }

    /// One character of folded text, of class `class`.
    fn push(
        &mut self,
        utf8: Utf8Char,
        class: Class,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<()> {
        if self.pending_dash {
            self.settle_dash(class, out, ranges)?;
        }
        match class {
            Class::Keep => {
                self.space_if_pending(out)?;
                self.write(utf8, out)?;
                self.attached = true;
            }
            // A kept mark follows a kept character, so no space is pending.
            Class::Mark if self.attached => self.write(utf8, out)?,
            Class::Mark | Class::Drop => self.attached = false,
            Class::Space => {
                self.pending_space = self.len > self.part_start;
                self.attached = false;
            }
            Class::Separator => {
                self.separate(out, ranges)?;
                self.attached = false;
            }
            Class::Dash => {
                self.pending_dash = true;
                self.attached = false;
            }
        }
        Some(())
    }

    #[inline(always)]
    fn write(&mut self, utf8: Utf8Char, out: &mut [u8]) -> Option<()> {
        out.get_mut(self.len..self.len + 4)?.copy_from_slice(&utf8.bytes());
        let len = utf8.len();
        self.len += len;
        self.extra += len.saturating_sub(1);
        Some(())
    }

    /// A character of folded text, but for the case of ASCII letters.
    fn push_char(&mut self, c: char, out: &mut [u8], ranges: &mut impl Parts) -> Option<()> {
        if c.is_ascii() {
            let b = c as u8;
            let lowered = Utf8Char::new(char::from(b.to_ascii_lowercase()));
            return self.push(lowered, ascii_class(b), out, ranges);
        }
        let code_point = u32::from(c);
        self.push_fold(chars::block(code_point)?, code_point, out, ranges)
    }

    fn push_fold(
        &mut self,
        block: &chars::Block,
        code_point: u32,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<()> {
        self.push_folds(block, chars::fold_in(block, code_point), out, ranges)
    }

    fn push_folds(
        &mut self,
        block: &chars::Block,
        fold: Fold,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<()> {
        match fold {
            Fold::General => None,
            Fold::One { utf8, class } => self.push(utf8, class, out, ranges),
            Fold::Many { start, len } => {
                let start = usize::from(start);
                for &(c, class) in block.many.get(start..start + usize::from(len))? {
                    self.push(Utf8Char::new(c), class, out, ranges)?;
                }
                Some(())
            }
        }
    }

    /// Ends a part at a separator.
    fn separate(&mut self, out: &mut [u8], ranges: &mut impl Parts) -> Option<()> {
        if self.len > self.part_start {
            self.close_part(ranges);
            let end = self.len + SEPARATOR.len();
            out.get_mut(self.len..end)?.copy_from_slice(SEPARATOR.as_bytes());
            self.len = end;
            self.part_start = end;
            self.part_extra = self.extra;
        }
        self.pending_space = false;
        Some(())
    }

    fn close_part(&self, ranges: &mut impl Parts) {
        let chars = self.len - self.part_start - (self.extra - self.part_extra);
        ranges.push(self.part_start, self.len, chars);
    }

    /// A `<` at `i`: a tag (to the next `>`, with no `<` before it) is skipped, otherwise the `<` is text.
    fn tag(
        &mut self,
        bytes: &[u8],
        i: usize,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<usize> {
        let rest = bytes.get(i + 1..)?;
        match rest.iter().position(|&b| b == b'<' || b == b'>') {
            Some(j) if rest[j] == b'>' => Some(i + 1 + j + 1),
            _ => {
                self.push(Utf8Char::new('<'), Class::Drop, out, ranges)?;
                Some(i + 1)
            }
        }
    }

    /// An `&` at `i`: decodes the reference there the way decoding the whole text twice does.
    fn reference(
        &mut self,
        title: &str,
        i: usize,
        out: &mut [u8],
        ranges: &mut impl Parts,
    ) -> Option<usize> {
        let after = title.get(i + 1..)?;
        let (first, end) = html::scan_reference(after);
        // What the decision looked at must be the same text in both passes and after tag stripping.
        if is_markup(after.as_bytes().get(end)) {
            return None;
        }
        let Some((decoded, used)) = first else {
            self.push(Utf8Char::new('&'), Class::Drop, out, ranges)?;
            return Some(i + 1);
        };
        if decoded != '&' {
            self.push_char(decoded, out, ranges)?;
            return Some(i + 1 + used);
        }
        // The second pass reads this `&` with the text after it.
        let rest = after.get(used..)?;
        let (second, end) = html::scan_reference(rest);
        if is_markup(rest.as_bytes().get(end)) {
            return None;
        }
        match second {
            Some((decoded, used_again)) => {
                self.push_char(decoded, out, ranges)?;
                Some(i + 1 + used + used_again)
            }
            None => {
                self.push(Utf8Char::new('&'), Class::Drop, out, ranges)?;
                Some(i + 1 + used)
            }
        }
    }
}

fn is_markup(b: Option<&u8>) -> bool {
    matches!(b, Some(b'&' | b'<'))
}

/// How many of the word's first bytes are ASCII (8 for all of them).
#[inline(always)]
fn ascii_prefix(word: u64) -> usize {
    ((word & splat(0x80)).trailing_zeros() / 8) as usize
}

/// Eight copies of a byte in a word.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Eight bytes from `i` (at most the length of `bytes`), little-endian, padded with zero bytes (which
/// end any run) past the end.
fn load_word(bytes: &[u8], i: usize) -> u64 {
    if let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return u64::from_le_bytes(*word);
    }
    if let Some(last) = bytes.last_chunk::<8>() {
        // The last eight bytes, shifted so that byte `i` comes first (nothing at the end).
        let shift = 8 * (i + 8).saturating_sub(bytes.len());
        return u32::try_from(shift)
            .ok()
            .and_then(|shift| u64::from_le_bytes(*last).checked_shr(shift))
            .unwrap_or(0);
    }
    let mut word = [0; 8];
    for (w, &b) in word.iter_mut().zip(bytes.get(i..).unwrap_or_default()) {
        *w = b;
    }
    u64::from_le_bytes(word)
}

/// The word with its upper-case ASCII letters lowered, and how many of its first bytes are copied
/// so: ASCII letters and digits, and single spaces between them. The byte before the word is a letter
/// or a digit; `then_word` says whether the byte after it is one.
fn word_prefix(word: u64, then_word: bool) -> (u64, usize) {
    // For bytes under 0x80, `x + (0x80 - lo)` has its high bit set exactly when `x >= lo`, and no byte
    // carries into the next; bytes from 0x80 are masked to seven bits here and excluded below.
    let ascii = !word & splat(0x80);
    let low = word & splat(0x7F);
    let at_least = |x: u64, lo: u8| x.wrapping_add(splat(0x80 - lo)) & splat(0x80);
    // Setting bit 5 maps upper-case letters onto lower-case ones and nothing else onto letters.
    let folded = low | splat(0x20);
    let letter = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
    let digit = at_least(low, b'0') & !at_least(low, b'9' + 1);
    // `t + 0x7F` has its high bit clear exactly when `t` is zero.
    let space = !(low ^ splat(b' ')).wrapping_add(splat(0x7F)) & splat(0x80);
    let kept = (letter | digit) & ascii;
    let before = (kept << 8) | 0x80;
    let after = (kept >> 8) | (u64::from(then_word) << 63);
    let copied = kept | (space & ascii & before & after);
    let run = ((!copied & splat(0x80)).trailing_zeros() / 8) as usize;
    // Upper-case letters have bit 5 clear; moving the letter bit (7) to bit 5 lowers them.
    let upper = letter & !(low << 2);
    (word | (upper >> 2), run)
}

#[cfg(test)]
mod tests;
