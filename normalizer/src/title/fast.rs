//! The one-pass title folder: tag stripping, reference decoding, NFKC, case folding and part splitting
//! in a single scan, with the exact results of the general path (`TitleParts::general`) for every
//! title it accepts.
//!
//! Runs of ASCII letters, digits and single spaces are found, lower-cased and copied eight bytes at a
//! time; other ASCII bytes go by a byte table; tags are skipped and references decoded in place; other
//! characters fold through the table of [`super::chars`]. The folder gives up (`None`, and the caller
//! takes the general path) on a character that does not fold on its own, on a reference whose
//! decoding twice could depend on the text after it (an `&` or `<` right after it), and when the key
//! reaches its length limit.

use std::cell::Cell;

use super::chars::{self, Class, Fold};
use super::{MAX_KEY_CHARS, Ranges, SEPARATOR};
use crate::html::{self, DecodedText};

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

/// Runs `f` on the folded text of `title` (UTF-8) and the ranges of its parts; `None` when the title
/// needs the general path.
pub(super) fn with_folded<R>(title: &str, f: impl FnOnce(&[u8], &Ranges) -> R) -> Option<R> {
    let mut buffer = BUFFER.try_with(Cell::take).unwrap_or_default();
    if buffer.len() < BUFFER_LEN {
        buffer.resize(BUFFER_LEN, 0);
    }
    let mut ranges = Ranges::default();
    let result =
        fold(title, &mut buffer, &mut ranges).map(|()| f(&buffer[..ranges.end()], &ranges));
    let _ = BUFFER.try_with(|cell| cell.set(buffer));
    result
}

/// Folds and splits `title` into `out`, recording its parts in `ranges`.
fn fold(title: &str, out: &mut [u8], ranges: &mut Ranges) -> Option<()> {
    let bytes = title.as_bytes();
    let mut s = State::default();
    let mut i = 0;
    // Letters, digits, spaces and plain punctuation inline, everything else in `State::other`, which
    // settles a dash before coming back here (so no dash is pending in this loop).
    while let Some(&b) = bytes.get(i) {
        match BYTE_CLASS[usize::from(b)] {
            WORD => {
                if s.pending_space {
                    *out.get_mut(s.len)? = b' ';
                    s.len += 1;
                    s.pending_space = false;
                }
                loop {
                    let (lowered, run) = word_prefix(load_word(bytes, i));
                    out.get_mut(s.len..s.len + 8)?.copy_from_slice(&lowered.to_le_bytes());
                    s.len += run;
                    i += run;
                    if s.len - s.extra >= MAX_KEY_CHARS {
                        return None;
                    }
                    if run < 8 {
                        break;
                    }
                }
                s.attached = true;
            }
            SPACE => {
                s.pending_space = s.len > s.part_start;
                s.attached = false;
                i += 1;
            }
            DROP => {
                s.attached = false;
                i += 1;
            }
            class => (s, i) = s.other(title, i, class, out, ranges)?,
        }
    }
    if s.len > s.part_start {
        s.close_part(ranges);
    }
    // The general path stops at the length limit, and may leave the text unnormalised there.
    (s.len - s.extra < MAX_KEY_CHARS).then_some(())
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
        ranges: &mut Ranges,
    ) -> Option<(State, usize)> {
        let bytes = title.as_bytes();
        let next = match class {
            AMPERSAND => self.reference(title, i, out, ranges)?,
            TAG => self.tag(bytes, i, out, ranges)?,
            NON_ASCII => self.non_ascii(bytes, i, out, ranges)?,
            _ => {
                self.push_char(char::from(bytes[i]), out, ranges)?;
                i + 1
            }
        };
        // Settle a dash now if the next character is plain ASCII, which the caller handles.
        if self.pending_dash
            && let Some(&b) = bytes.get(next)
            && matches!(BYTE_CLASS[usize::from(b)], WORD | SPACE | DROP | SEPARATOR_BYTE | DASH)
        {
            self.settle_dash(ascii_class(b), out, ranges)?;
        }
        Some((self, next))
    }

    fn settle_dash(&mut self, next: Class, out: &mut [u8], ranges: &mut Ranges) -> Option<()> {
        self.pending_dash = false;
        if next == Class::Space {
            self.separate(out, ranges)?;
        }
        Some(())
    }

    /// One character of folded text, of class `class`.
    fn push(&mut self, c: char, class: Class, out: &mut [u8], ranges: &mut Ranges) -> Option<()> {
        if self.pending_dash {
            self.settle_dash(class, out, ranges)?;
        }
        match class {
            Class::Keep => {
                if self.pending_space {
                    *out.get_mut(self.len)? = b' ';
                    self.len += 1;
                    self.pending_space = false;
                }
                self.write(c, out)?;
                self.attached = true;
            }
            // A kept mark follows a kept character, so no space is pending.
            Class::Mark if self.attached => self.write(c, out)?,
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

    fn write(&mut self, c: char, out: &mut [u8]) -> Option<()> {
        if self.len - self.extra >= MAX_KEY_CHARS {
            return None;
        }
        let n = c.encode_utf8(out.get_mut(self.len..self.len + 4)?).len();
        self.len += n;
        self.extra += n - 1;
        Some(())
    }

    fn push_char(&mut self, c: char, out: &mut [u8], ranges: &mut Ranges) -> Option<()> {
        if c.is_ascii() {
            return self.push(c.to_ascii_lowercase(), ascii_class(c as u8), out, ranges);
        }
        let code_point = u32::from(c);
        self.push_fold(chars::block(code_point)?, code_point, out, ranges)
    }

    fn push_fold(
        &mut self,
        block: &chars::Block,
        code_point: u32,
        out: &mut [u8],
        ranges: &mut Ranges,
    ) -> Option<()> {
        match chars::fold_in(block, code_point) {
            Fold::General => None,
            Fold::One { c, class } => self.push(c, class, out, ranges),
            Fold::Many { start, len } => {
                let start = usize::from(start);
                for &(c, class) in block.many.get(start..start + usize::from(len))? {
                    self.push(c, class, out, ranges)?;
                }
                Some(())
            }
        }
    }

    /// Ends a part at a separator.
    fn separate(&mut self, out: &mut [u8], ranges: &mut Ranges) -> Option<()> {
        if self.len > self.part_start {
            if self.len - self.extra >= MAX_KEY_CHARS {
                return None;
            }
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

    fn close_part(&self, ranges: &mut Ranges) {
        let chars = self.len - self.part_start - (self.extra - self.part_extra);
        ranges.push(self.part_start, self.len, chars);
    }

    /// A `<` at `i`: a tag (to the next `>`, with no `<` before it) is skipped, otherwise the `<` is text.
    fn tag(
        &mut self,
        bytes: &[u8],
        i: usize,
        out: &mut [u8],
        ranges: &mut Ranges,
    ) -> Option<usize> {
        let rest = bytes.get(i + 1..)?;
        match rest.iter().position(|&b| b == b'<' || b == b'>') {
            Some(j) if rest[j] == b'>' => Some(i + 1 + j + 1),
            _ => {
                self.push('<', Class::Drop, out, ranges)?;
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
        ranges: &mut Ranges,
    ) -> Option<usize> {
        let after = title.get(i + 1..)?;
        let (first, end) = html::scan_reference(after);
        // What the decision looked at must be the same text in both passes and after tag stripping.
        if is_markup(after.as_bytes().get(end)) {
            return None;
        }
        let Some((decoded, used)) = first else {
            self.push('&', Class::Drop, out, ranges)?;
            return Some(i + 1);
        };
        if !is_ampersand(decoded) {
            self.push_decoded(decoded, out, ranges)?;
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
                self.push_decoded(decoded, out, ranges)?;
                Some(i + 1 + used + used_again)
            }
            None => {
                self.push('&', Class::Drop, out, ranges)?;
                Some(i + 1 + used)
            }
        }
    }

    fn push_decoded(
        &mut self,
        decoded: DecodedText,
        out: &mut [u8],
        ranges: &mut Ranges,
    ) -> Option<()> {
        match decoded {
            DecodedText::Char(c) => self.push_char(c, out, ranges),
            DecodedText::Str(s) => s.chars().try_for_each(|c| self.push_char(c, out, ranges)),
        }
    }

    /// The character whose first byte is at `i` (the input is UTF-8, so the others follow).
    fn non_ascii(
        &mut self,
        bytes: &[u8],
        i: usize,
        out: &mut [u8],
        ranges: &mut Ranges,
    ) -> Option<usize> {
        let lead = u32::from(bytes[i]);
        let tail = |k: usize| bytes.get(i + k).map(|&b| u32::from(b & 0x3F));
        let (code_point, len) = if lead < 0xE0 {
            ((lead & 0x1F) << 6 | tail(1)?, 2)
        } else if lead < 0xF0 {
            ((lead & 0x0F) << 12 | tail(1)? << 6 | tail(2)?, 3)
        } else {
            ((lead & 0x07) << 18 | tail(1)? << 12 | tail(2)? << 6 | tail(3)?, 4)
        };
        self.push_fold(chars::block(code_point)?, code_point, out, ranges)?;
        Some(i + len)
    }
}

fn is_markup(b: Option<&u8>) -> bool {
    matches!(b, Some(b'&' | b'<'))
}

fn is_ampersand(decoded: DecodedText) -> bool {
    matches!(decoded, DecodedText::Char('&') | DecodedText::Str("&"))
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
/// or a digit; the byte after it is unknown, so a space last is never counted.
fn word_prefix(word: u64) -> (u64, usize) {
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
    let copied = kept | (space & ascii & ((kept << 8) | 0x80) & (kept >> 8));
    let run = ((!copied & splat(0x80)).trailing_zeros() / 8) as usize;
    // Upper-case letters have bit 5 clear; moving the letter bit (7) to bit 5 lowers them.
    let upper = letter & ascii & !(low << 2);
    (word | (upper >> 2), run)
}

#[cfg(test)]
mod tests;
