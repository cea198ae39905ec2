//! Title keys (the legacy SQL `get_normalized_title`, section 2.1) and display titles (section 2.3).

use std::borrow::Cow;

use icu_properties::props::GeneralCategoryGroup;

use crate::fold::{self, FoldOptions, NFKC};
use crate::html;

/// A part of a separated title must be at least this many characters to stand for the whole title.
const KEY_PART_MIN_CHARS: usize = 32;
/// Display-title parts shorter than this are prefixes or suffixes (mcmetadata's `SHORT_TITLE_THRESHOLD`).
const SHORT_TITLE_CHARS: usize = 20;
/// The reference keeps the first 1023 characters (`substr(title, 0, 1024)` starts at position 0).
const MAX_KEY_CHARS: usize = 1023;
/// How separators are written inside a key that keeps several parts.
const SEPARATOR: &str = " | ";
/// Title keys that say nothing about the story.
const PLACEHOLDER_KEYS: &[&str] = &["no title", "untitled", "home", "homepage", "home page"];
/// Leading display-title parts that name the site's front page rather than the story.
const HOME_WORDS: &[&str] =
    &["home", "homepage", "inicio", "portada", "accueil", "startseite", "главная"];

/// The title key for same-source dedup: two stories of one source with the same key are one story.
///
/// Media Cloud's legacy SQL key: tags and character references go, text is folded (NFKC, case),
/// `:`, `|` and a dash followed by a space separate parts, punctuation and symbols go, whitespace is
/// collapsed. If the longest part has at least 32 characters it is the key (this drops publisher
/// prefixes and suffixes); otherwise the whole title is, parts joined by ` | `. Parts equal to the
/// source's own name are dropped first, so `Short news | The Globe` and `Short news` meet.
///
/// ```text
/// normalized_title("Mayor announces new budget plan for city schools - The Boston Globe", None)
///     ->  "mayor announces new budget plan for city schools"
/// normalized_title("NYT: Trump Avoids Impeachment", None)  ->  "nyt | trump avoids impeachment"
/// ```
pub fn normalized_title(title: &str, source_name: Option<&str>) -> String {
    if source_name.is_none()
        && let Some(key) = fast::key(title)
    {
        return key;
    }
    let source = source_name.map(source_key).filter(|s| !s.is_empty());
    key_text(title, source.as_deref())
}

/// The title key, or `None` when the title cannot identify a story and must never be matched on.
///
/// `None` for an empty key, a placeholder (`(no title)`, `Untitled`, `Home`), and a title that is only
/// the source's own name.
pub fn title_key(title: &str, source_name: Option<&str>) -> Option<String> {
    let source = source_name.map(source_key).filter(|s| !s.is_empty());
    let key = key_text(title, source.as_deref());
    let useless = key.is_empty()
        || PLACEHOLDER_KEYS.contains(&key.as_str())
        || source.as_deref() == Some(key.as_str());
    (!useless).then_some(key)
}

/// The display title: the page title with the publisher's prefix or suffix removed.
///
/// mcmetadata's `from_html` step 5, on a title that is already text: tags stripped, references decoded,
/// whitespace collapsed, a leading `| Home |` removed. The title is split on ` | `, ` - `, ` – `, ` — `
/// (spaced separators); leading and trailing parts equal to the source name, and leading `Home` parts,
/// are dropped; then the reference's length rules drop short prefixes and suffixes (parts under 20
/// characters). A spaced colon (` : `, French typography) only separates a part equal to the source
/// name; otherwise it stays inside the title.
///
/// ```text
/// clean_title("Best laptops 2026: Premium, budget, gaming | PCWorld", None)
///     ->  "Best laptops 2026: Premium, budget, gaming"
/// ```
pub fn clean_title(html_title: &str, source_name: Option<&str>) -> String {
    let stripped = html::strip_tags(html_title);
    let decoded = html::decode_entities(&stripped);
    let decoded = crate::fold::strip_invisible(&decoded);
    let mut cleaned = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !cleaned.is_empty() {
            cleaned.push(' ');
        }
        cleaned.push_str(word);
    }
    let cleaned = strip_home_prefix(&cleaned);
    let mut pieces = split_display(cleaned);
    if pieces.len() < 2 {
        return cleaned.to_owned();
    }
    let source = source_name.map(compare_key).filter(|s| !s.is_empty());
    let is_source =
        |p: &Piece| source.as_deref().is_some_and(|s| compare_key(p.text(cleaned)) == s);
    let mut first = 0;
    while pieces.len() - first > 1
        && (is_source(&pieces[first]) || is_home(pieces[first].text(cleaned)))
    {
        first += 1;
    }
    while pieces.len() - first > 1 && is_source(&pieces[pieces.len() - 1]) {
        pieces.pop();
    }
    // A spaced colon joins its neighbours into one unit for the length rules.
    let mut units: Vec<Piece> = Vec::with_capacity(pieces.len() - first);
    for piece in pieces.into_iter().skip(first) {
        match units.last_mut() {
            Some(last) if piece.after_colon => last.end = piece.end,
            _ => units.push(piece),
        }
    }
    let lengths: Vec<usize> = units.iter().map(|u| u.text(cleaned).chars().count()).collect();
    let (first, last) = kept_units(&lengths);
    cleaned[units[first].start..units[last].end].trim().to_owned()
}

/// The key of a source name: its folded text, separators kept (the reference's `media_id = 0` case).
fn source_key(name: &str) -> String {
    fast::with_folded(name, |text, _| text.to_owned())
        .unwrap_or_else(|| TitleParts::general(name).text)
}

/// The key of a title: [`choose_key`] on its parts, and again after dropping parts equal to the source.
///
/// Most titles take the one-pass folder of [`fast`]; the others take [`TitleParts::general`], which
/// spells the rules out step by step (and which tests compare the folder with). Without a source,
/// [`normalized_title`] first tries [`fast::key`], the folder writing straight into the key.
fn key_text(title: &str, source: Option<&str>) -> String {
    let rebuilt = match key_from(title, source, true) {
        Key::Text(key) => return key,
        Key::Rebuild(joined) => joined,
    };
    match key_from(&rebuilt, source, false) {
        Key::Text(key) | Key::Rebuild(key) => key,
    }
}

#[inline]
fn key_from(title: &str, source: Option<&str>, drop_source: bool) -> Key {
    fast::with_folded(title, |text, ranges| choose_key(text, ranges, source, drop_source))
        .unwrap_or_else(|| {
            let parts = TitleParts::general(title);
            choose_key(&parts.text, &parts.ranges, source, drop_source)
        })
}

/// The outcome of [`choose_key`].
enum Key {
    Text(String),
    /// The title's parts other than the source's name, joined, to be split again.
    Rebuild(String),
}

/// The key from a title's folded text and parts: with `drop_source`, parts equal to the source go
/// first; then the longest part is the key if it has at least 32 characters and is not the source, else
/// the whole text.
#[inline]
fn choose_key(text: &str, ranges: &Ranges, source: Option<&str>, drop_source: bool) -> Key {
    let part = |i: usize| {
        let (a, b) = ranges.get(i);
        text.get(a..b).unwrap_or_default()
    };
    if drop_source
        && let Some(source) = source
        && ranges.len() > 1
        && (0..ranges.len()).any(|i| part(i) == source)
    {
        let kept: Vec<&str> = (0..ranges.len()).map(part).filter(|p| *p != source).collect();
        if kept.is_empty() {
            return Key::Text(source.to_owned());
        }
        return Key::Rebuild(kept.join(SEPARATOR));
    }
    if ranges.len() < 2 {
        return Key::Text(text.to_owned());
    }
    let mut longest = 0;
    let mut longest_chars = 0;
    for i in 0..ranges.len() {
        let n = ranges.chars(i);
        if n > longest_chars {
            longest = i;
            longest_chars = n;
        }
    }
    if longest_chars < KEY_PART_MIN_CHARS || source == Some(part(longest)) {
        return Key::Text(text.to_owned());
    }
    Key::Text(part(longest).to_owned())
}

/// A title folded and split by the general path: `text` holds the parts joined by [`SEPARATOR`],
/// `ranges` where each is.
struct TitleParts {
    text: String,
    ranges: Ranges,
}

/// Byte ranges of a title's parts and their lengths in characters: the first few inline, since most
/// titles have one to three parts.
#[derive(Default)]
struct Ranges {
    inline: [(usize, usize, usize); 6],
    len: usize,
    more: Vec<(usize, usize, usize)>,
}

impl Ranges {
    fn push(&mut self, start: usize, end: usize, chars: usize) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = (start, end, chars),
            None => self.more.push((start, end, chars)),
        }
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn entry(&self, i: usize) -> (usize, usize, usize) {
        self.inline.get(i).copied().unwrap_or_else(|| self.more[i - self.inline.len()])
    }

    /// The byte range of part `i`.
    fn get(&self, i: usize) -> (usize, usize) {
        let (a, b, _) = self.entry(i);
        (a, b)
    }

    /// The length of part `i` in characters.
    fn chars(&self, i: usize) -> usize {
        self.entry(i).2
    }

    /// Where the text of the last part ends (0 with no parts).
    fn end(&self) -> usize {
        self.len.checked_sub(1).map_or(0, |i| self.get(i).1)
    }

    #[cfg(test)]
    fn to_vec(&self) -> Vec<(usize, usize, usize)> {
        (0..self.len).map(|i| self.entry(i)).collect()
    }
}

impl TitleParts {
    /// The rules step by step: tags, references (twice), NFKC and case folding, then the parts.
    fn general(title: &str) -> TitleParts {
        let stripped = html::strip_tags(title);
        let decoded = html::decode_entities(&stripped);
        TitleParts::from_folded(&fold::fold_chars(&decoded, false))
    }

    /// Splits folded text into parts, dropping punctuation and symbols and collapsing whitespace.
    fn from_folded(folded: &str) -> TitleParts {
        let mut text = String::with_capacity(folded.len());
        let mut ranges = Ranges::default();
        let mut part_start = 0;
        let mut pending_space = false;
        // Whether the last character was kept; a combining mark is kept only on a kept base.
        let mut attached = false;
        // Whether a character was dropped inside the current part, which can denormalise it.
        let mut dropped = false;
        let mut emitted = 0;
        let mut chars = folded.chars().peekable();
        while let Some(c) = chars.next() {
            if emitted >= MAX_KEY_CHARS {
                dropped = true;
                break;
            }
            let separator = match c {
                ':' | '|' => true,
                '-' | '\u{2013}' | '\u{2014}' => chars.peek().is_some_and(|n| n.is_whitespace()),
                _ => false,
            };
            let keep = if c.is_ascii() {
                c.is_ascii_alphanumeric()
            } else {
                let category = fold::general_category(c);
                if GeneralCategoryGroup::Mark.contains(category) {
                    attached
                } else {
                    GeneralCategoryGroup::Letter.contains(category)
                        || GeneralCategoryGroup::Number.contains(category)
                }
            };
            attached = keep;
            if separator {
                if close_part(&mut text, part_start, dropped) {
                    ranges.push(part_start, text.len(), text[part_start..].chars().count());
                    text.push_str(SEPARATOR);
                    emitted += SEPARATOR.len();
                    part_start = text.len();
                }
                pending_space = false;
                dropped = false;
            } else if c.is_whitespace() {
                pending_space = text.len() > part_start;
            } else if keep {
                if pending_space {
                    text.push(' ');
                    emitted += 1;
                    pending_space = false;
                }
                text.push(c);
                emitted += 1;
            } else {
                // Punctuation, a symbol or a control character.
                dropped = true;
            }
        }
        if close_part(&mut text, part_start, dropped) {
            ranges.push(part_start, text.len(), text[part_start..].chars().count());
        }
        text.truncate(ranges.end());
        TitleParts { text, ranges }
    }
}

/// Ends the part that starts at `start`; returns whether it has any text.
///
/// Dropping punctuation can leave text that is no longer normalised (two marks to reorder, Hangul jamo
/// to compose), so a non-ASCII part that lost characters is normalised again; this keeps the key a
/// fixed point.
fn close_part(text: &mut String, start: usize, dropped: bool) -> bool {
    if text.len() == start {
        return false;
    }
    let part = &text[start..];
    if dropped
        && !part.is_ascii()
        && let Cow::Owned(normalized) = NFKC.normalize(part)
    {
        text.truncate(start);
        text.push_str(&normalized);
    }
    true
}

/// One piece of a display title: a byte range of the cleaned title, and whether a ` : ` precedes it.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    after_colon: bool,
}

impl Piece {
    fn text(self, title: &str) -> &str {
        &title[self.start..self.end]
    }
}

/// Splits on a single separator character with a space on both sides, left to right.
fn split_display(title: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut after_colon = false;
    let mut search = 0;
    while let Some(found) = title[search..].find(' ') {
        let space = search + found;
        let mut next = title[space + 1..].chars();
        let sep = next.next();
        let is_sep = matches!(sep, Some(':' | '|' | '-' | '\u{2013}' | '\u{2014}'))
            && next.next() == Some(' ');
        if !is_sep {
            search = space + 1;
            continue;
        }
        let sep = sep.unwrap_or(' ');
        pieces.push(Piece { start, end: space, after_colon });
        after_colon = sep == ':';
        start = space + 2 + sep.len_utf8();
        search = start;
    }
    pieces.push(Piece { start, end: title.len(), after_colon });
    pieces
}

/// The first and last unit kept by mcmetadata's length rules.
fn kept_units(lengths: &[usize]) -> (usize, usize) {
    let short = |i: usize| lengths[i] < SHORT_TITLE_CHARS;
    let n = lengths.len();
    match n {
        0 | 1 => (0, 0),
        // One prefix or suffix: both short means a suffixed title; a long second part means a prefix.
        2 if short(0) && !short(1) => (1, 1),
        2 => (0, 0),
        // Several parts: media-name suffixes are more common than prefixes, so a short first part
        // costs only the last part; otherwise trailing short parts go, unless none is short.
        _ if short(0) => (0, n - 2),
        _ => {
            let mut last = n - 1;
            while last > 0 && short(last) {
                last -= 1;
            }
            if last == n - 1 { (0, 0) } else { (0, last) }
        }
    }
}

/// Removes a leading `^\W+home\W+` (any case): `| Home | Story` is `Story`.
fn strip_home_prefix(title: &str) -> &str {
    let non_word = |c: char| !(c.is_alphanumeric() || c == '_');
    let after_lead = title.trim_start_matches(non_word);
    if after_lead.len() == title.len() {
        return title;
    }
    let Some(word) = after_lead.get(..4).filter(|w| w.eq_ignore_ascii_case("home")) else {
        return title;
    };
    let rest = &after_lead[word.len()..];
    let after = rest.trim_start_matches(non_word);
    if after.len() == rest.len() { title } else { after }
}

/// Letters and digits only, folded without diacritics: how parts are compared with a source name.
fn compare_key(text: &str) -> String {
    fold::fold_text(text, FoldOptions { diacritics: true })
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

fn is_home(part: &str) -> bool {
    HOME_WORDS.contains(&compare_key(part).as_str())
}

mod chars;
mod fast;

#[cfg(test)]
mod tests;
