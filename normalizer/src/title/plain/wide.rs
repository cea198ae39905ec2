//! What the wide-vector paths ([`super::avx512`], [`super::avx2`]) share beyond [`super::marks`]:
//! settling the few non-ASCII characters and character references a plain title may also have, the
//! bytes the key keeps, and its longest part.

use std::sync::atomic::{AtomicU8, Ordering};

use super::super::chars::{self, Class, Fold};
use super::{Classes, Marks, Mask};
use crate::html;

/// The bytes that made `classes.other` non-empty, settled when they are characters a plain title may
/// also have: character references to punctuation, dashes, separators and spaces (the reference
/// taking the class of what it decodes to), a literal `&` (punctuation); the no-break space; and
/// from U+2000 to U+202F the spaces (whitespace), the curly quotes and the ellipsis (punctuation)
/// and the en and em dashes (dashes, which separate before whitespace). A tag, a reference to a
/// letter or a digit, another non-ASCII character, and references whose second decoding could depend
/// on what follows them are not.
///
/// Each of these characters folds to itself or to ASCII spaces or full stops, is never kept, and sits
/// whole in a gap, so the rules of the key see in it only what its class says. (English titles have
/// them often: 13% of the benchmark list, which took the folder about twice as long.)
///
/// In two steps, from the title's bytes: [`Settled::scan`] reads the bytes of `classes.other` one
/// character at a time, and declines the title at the first character it may not let be;
/// [`Settled::apply`] changes the classes. A title with a few quotes or an `&` has a handful of such
/// bytes, where masks of them cost a compare and a join for every class of every piece.
pub(super) struct Settled<M> {
    references: References<M>,
    whitespace: M,
    /// The last byte of each en or em dash.
    dash: M,
}

impl<M: Mask> Settled<M> {
    /// The characters at the bits of `other` (a title's non-ASCII bytes, `&` and `<`), or `None`
    /// when one of them is not let be.
    pub(super) fn scan(other: M, title: &str) -> Option<Settled<M>> {
        let bytes = title.as_bytes();
        let zero = M::default();
        let (mut ampersands, mut whitespace, mut dash) = (zero, zero, zero);
        let mut rest = other;
        while rest != zero {
            let at = rest.trailing_zeros() as usize;
            let bit = M::ONE << at as u32;
            let width = match (bytes.get(at)?, bytes.get(at + 1), bytes.get(at + 2)) {
                (b'&', ..) => {
                    ampersands |= bit;
                    1
                }
                // `‘ ’ “ ” …`: punctuation.
                (0xE2, Some(0x80), Some(0x98 | 0x99 | 0x9C | 0x9D | 0xA6)) => 3,
                // `– —`: a dash, by its last byte.
                (0xE2, Some(0x80), Some(0x93 | 0x94)) => {
                    dash |= bit << 2;
                    3
                }
                // U+2000 to U+200A, U+2028, U+2029, U+202F: whitespace.
                (0xE2, Some(0x80), Some(0x80..=0x8A | 0xA8 | 0xA9 | 0xAF)) => {
                    whitespace |= bit | (bit << 1) | (bit << 2);
                    3
                }
                // The no-break space.
                (0xC2, Some(0xA0), _) => {
                    whitespace |= bit | (bit << 1);
                    2
                }
                // `<`, and any other non-ASCII character.
                _ => return None,
            };
            rest = rest & !M::low(at + width);
        }
        Some(Settled { references: references(ampersands, title)?, whitespace, dash })
    }

    /// The classes with these characters settled.
    #[inline(always)]
    pub(super) fn apply(&self, classes: &mut Classes<M>) {
        let Settled { references, whitespace, dash } = self;
        let outside = !references.spans;
        classes.alnum = classes.alnum & outside;
        classes.space = classes.space & outside;
        classes.whitespace = (classes.whitespace & outside) | references.whitespace | *whitespace;
        classes.separator = (classes.separator & outside) | references.separator;
        classes.dash = (classes.dash & outside) | references.dash | *dash;
    }
}

/// The bytes of a title's character references, and the classes they take, a bit each.
#[derive(Default)]
pub(super) struct References<M> {
    pub(super) spans: M,
    pub(super) whitespace: M,
    pub(super) separator: M,
    /// The last byte of a reference to a dash.
    pub(super) dash: M,
}

/// The references of `title` (an `&` at each bit of `ampersands`), with the classes of the
/// characters they decode to, as `html::decode_entities` then folding would see them; a literal `&`
/// stays punctuation. `None` when a reference decodes to a character that is kept or does not fold
/// on its own, or when decoding it twice (as the general path does) could depend on what follows.
pub(super) fn references<M: Mask>(ampersands: M, title: &str) -> Option<References<M>> {
    let bytes = title.as_bytes();
    let zero = M::default();
    let mut found = References::<M>::default();
    let mut rest = ampersands;
    while rest != zero {
        let at = rest.trailing_zeros() as usize;
        rest = rest & !(M::ONE << at as u32);
        let next = |end: usize| bytes.get(end).copied();
        // Decoding runs twice: an `&` next to another may form a reference the second time.
        if at > 0 && next(at - 1) == Some(b'&') {
            return None;
        }
        let Some((decoded, used)) = html::scan_reference(title.get(at + 1..)?).0 else {
            if next(at + 1) == Some(b'&') {
                return None;
            }
            continue;
        };
        let end = at + 1 + used;
        if next(end) == Some(b'&') {
            return None;
        }
        // A decoded `&` is read again with what follows it, which the first decoding left as it
        // was (a reference's name or digits hold no `&`).
        if decoded == '&' && html::scan_reference(title.get(end..)?).0.is_some() {
            return None;
        }
        let span = M::low(end) & !M::low(at);
        found.spans |= span;
        match class_alone(decoded)? {
            Class::Space => found.whitespace |= span,
            Class::Separator => found.separator |= span,
            Class::Dash => found.dash |= M::ONE << (end - 1) as u32,
            _ => {}
        }
    }
    Some(found)
}

/// The class of what `c` folds to on its own, when that is not kept: punctuation (dropped),
/// whitespace, a separator or a dash. `None` for letters, digits, marks, and characters that do not
/// fold on their own.
fn class_alone(c: char) -> Option<Class> {
    let class = if c.is_ascii() {
        chars::class_of(c)
    } else {
        let code_point = u32::from(c);
        let block = chars::block(code_point)?;
        match chars::fold_in(block, code_point) {
            Fold::One { class, .. } => class,
            Fold::Many { start, len } => {
                let many =
                    block.many.get(usize::from(start)..usize::from(start) + usize::from(len))?;
                if many.iter().all(|&(_, class)| class == Class::Drop) {
                    Class::Drop
                } else {
                    return None;
                }
            }
            Fold::General => return None,
        }
    };
    matches!(class, Class::Drop | Class::Space | Class::Separator | Class::Dash).then_some(class)
}

/// The bytes the key keeps: the copied ones, and the last byte of each gap that writes a space or a
/// separator.
#[inline(always)]
pub(super) fn kept<M: Mask>(marks: &Marks<M>) -> M {
    marks.copied | (marks.spaced >> 1) | (marks.separated >> 1)
}

/// The longest part of the `kept` bytes that `separators` (kept bytes) split, as a mask, and its
/// length: the first of the longest. One part when there are no separators.
#[inline(always)]
pub(super) fn longest_part<M: Mask>(kept: M, separators: M) -> (M, usize) {
    let mut rest = separators;
    let mut after = M::ONE;
    let (mut longest, mut longest_len) = (M::default(), 0);
    loop {
        let next = rest & rest.wrapping_neg();
        rest = rest & !next;
        let part = kept & !after.below() & next.below();
        let len = part.ones();
        if len > longest_len {
            (longest, longest_len) = (part, len);
        }
        if next == M::default() {
            return (longest, longest_len);
        }
        after = next << 1;
    }
}

/// Whether the processor has what a path needs, checked once and kept as one byte. (std keeps an
/// answer for each feature; the four checks of the AVX-512 path were a dozen instructions on every
/// title.)
pub(super) struct Detected(AtomicU8);

impl Detected {
    const UNKNOWN: u8 = 0;
    const NO: u8 = 1;
    const YES: u8 = 2;

    pub(super) const fn new() -> Self {
        Detected(AtomicU8::new(Self::UNKNOWN))
    }

    /// The answer, from `check` the first time.
    #[inline(always)]
    pub(super) fn get(&self, check: impl FnOnce() -> bool) -> bool {
        match self.0.load(Ordering::Relaxed) {
            Self::UNKNOWN => {
                let yes = check();
                self.0.store(if yes { Self::YES } else { Self::NO }, Ordering::Relaxed);
                yes
            }
            known => known == Self::YES,
        }
    }
}
