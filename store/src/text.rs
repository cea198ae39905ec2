//! What text the archive stores: the one cleaning every text value goes through.
//!
//! Both backends must accept every value, and give back the same one. Rust strings are valid
//! UTF-8, which both accept, with one exception: PostgreSQL's `text` cannot hold U+0000 (NUL), and
//! refuses the whole statement with "invalid byte sequence for encoding UTF8: 0x00". So:
//!
//! - **NUL becomes U+FFFD** (the replacement character), in every string bound to any statement
//!   (inserts, updates, filters), on both backends alike: the archive's connection does it
//!   ([`crate::Archive`]'s statements pass through [`storable`]), so no code path can forget it.
//!   U+FFFD rather than nothing, because it keeps the place of what was there (as HTML parsers
//!   do with NUL) instead of joining the words around it; nothing else is changed.
//! - **Lengths are capped** per column, in bytes, on a character boundary, after the replacement:
//!   one-line text (URLs, keys, names, titles, statuses, error messages: every column but those
//!   below) at [`MAX_LINE`], which also keeps each value under PostgreSQL's limit for a B-tree
//!   index entry (about 2.7 kB); long text (a story's text and searchable text, a removed sentence)
//!   at [`MAX_TEXT`]. JSON documents are capped inside (`json.rs`): their strings, and how
//!   many entries an array or object keeps ([`MAX_ENTRIES`]).
//!
//! What is read back is exactly [`line()`] or [`long()`] of what was written, on both backends. A
//! caller who needs the whole of a longer value (a URL it will fetch, say) must check
//! [`fits_line`] itself: the archive never refuses text, it cuts it.

use std::borrow::Cow;

/// The character NUL is replaced with.
pub const REPLACEMENT: char = '\u{FFFD}';

/// The longest one-line value kept, in bytes (URLs, keys, names, titles, statuses, errors). A URL
/// this long is already past what browsers and the sitemap protocol accept.
pub const MAX_LINE: usize = 2048;

/// The longest long text kept, in bytes (a story's text, its searchable text, a removed sentence).
pub const MAX_TEXT: usize = 4 << 20;

/// The most entries an array or object of a JSON document keeps.
pub const MAX_ENTRIES: usize = 1000;

/// `text` with every NUL replaced by [`REPLACEMENT`]; borrowed when there is none.
pub fn storable(text: &str) -> Cow<'_, str> {
    if text.contains('\0') {
        Cow::Owned(text.replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `text` made storable and cut to at most `cap` bytes, on a character boundary.
pub fn capped(text: &str, cap: usize) -> Cow<'_, str> {
    match storable(text) {
        Cow::Borrowed(text) => Cow::Borrowed(cut(text, cap)),
        Cow::Owned(mut text) => {
            let keep = cut(&text, cap).len();
            text.truncate(keep);
            Cow::Owned(text)
        }
    }
}

/// A one-line value as the archive keeps it: storable, at most [`MAX_LINE`] bytes.
pub fn line(text: &str) -> Cow<'_, str> {
    capped(text, MAX_LINE)
}

/// A long text as the archive keeps it: storable, at most [`MAX_TEXT`] bytes.
pub fn long(text: &str) -> Cow<'_, str> {
    capped(text, MAX_TEXT)
}

/// Whether the archive keeps `text` whole as a one-line value (no NUL, at most [`MAX_LINE`] bytes).
pub fn fits_line(text: &str) -> bool {
    text.len() <= MAX_LINE && !text.contains('\0')
}

/// The longest prefix of `text` of at most `cap` bytes that ends on a character boundary.
fn cut(text: &str, cap: usize) -> &str {
    &text[..text.floor_char_boundary(cap)]
}

/// [`line`], owned.
pub(crate) fn line_owned(text: &str) -> String {
    line(text).into_owned()
}

/// [`line`] of an optional value, owned.
pub(crate) fn line_opt(text: Option<&str>) -> Option<String> {
    text.map(line_owned)
}

/// [`long`], owned.
pub(crate) fn long_owned(text: &str) -> String {
    long(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_becomes_the_replacement_character_and_nothing_else_changes() {
        assert_eq!(storable("a\0b\0"), "a\u{FFFD}b\u{FFFD}");
        assert!(matches!(storable("caf\u{e9} \u{1}\u{7f}"), Cow::Borrowed(_)));
        assert_eq!(line(""), "");
    }

    #[test]
    fn caps_cut_on_a_character_boundary_after_the_replacement() {
        let long = "\u{e9}".repeat(MAX_LINE);
        assert_eq!(line(&long).len(), MAX_LINE);
        let odd = format!("a{long}");
        assert_eq!(line(&odd).len(), MAX_LINE - 1, "never half a character");
        let nuls = "\0".repeat(MAX_LINE);
        let cleaned = line(&nuls);
        assert!(cleaned.len() <= MAX_LINE && cleaned.chars().all(|c| c == REPLACEMENT));
        assert_eq!(cleaned.chars().count(), MAX_LINE / 3);
        assert!(fits_line(&"x".repeat(MAX_LINE)) && !fits_line(&"x".repeat(MAX_LINE + 1)));
        assert!(!fits_line("a\0"));
    }

    proptest::proptest! {
        #[test]
        fn cleaning_is_bounded_idempotent_and_keeps_a_prefix(text: String, cap in 0usize..64) {
            let once = capped(&text, cap);
            proptest::prop_assert!(once.len() <= cap);
            proptest::prop_assert!(!once.contains('\0'));
            proptest::prop_assert_eq!(capped(&once, cap), once.clone());
            proptest::prop_assert!(storable(&text).starts_with(once.as_ref()));
        }
    }
}
