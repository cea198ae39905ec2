//! Word search over stories: which words a story is found by, and the index that finds them.
//!
//! A story is found by the words of its title and of its searchable text (the text without the
//! sentences its source repeated that week), folded by the normalizer for case, compatibility forms
//! and diacritics, so that `Malmö`, `MALMØ` and `malmo` are one word. Folding is Rust code, so both
//! backends see the same words: each story keeps them in `stories.search_words`, space-separated,
//! and the backend indexes that column its own way (migration `m0002_word_search`): an FTS5 table
//! on SQLite, a GIN index over the words as a `tsvector` on PostgreSQL (each word one lexeme, as
//! written; migration `m0006_queries_and_collections`).
//!
//! Beside its words, each story keeps the pairs of neighbouring words of its title and of its text
//! (`stories.search_pairs`, `a·b`, migration `m0012_phrase_pairs`), indexed with the words, so
//! the index answers phrases ([`crate::matching`]).
//!
//! Chinese, Japanese and Korean write words without spaces between them (Korean puts its particles
//! on the word: `서울에서`, in Seoul), so a run of their characters is indexed as its characters
//! and each pair of neighbours (`東京で地震` as `東 東京 京 京で で で地 地 地震 震`), the way
//! Lucene's CJK analyser does, and a search for `地震` asks for its pairs: a word inside a sentence
//! is found without a dictionary, at the price of finding `東京都` also where `東京` and `京都`
//! stand apart.
//!
//! [`crate::matching`] runs queries over this index, and also selects the stories whose words are
//! not written yet (archived before word search, until [`fill_missing`] runs, which `morgue
//! migrate` does), so a search never misses a story; it checks those over their text with the
//! same folding.

use std::collections::HashSet;

use normalizer::{FoldOptions, fold_text};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::Archive;
use crate::entity::story;
use crate::error::{Context as _, Result};

/// Longer words are not indexed, and a search for one finds nothing: no word of any language is
/// this long, while an unbroken run of base64 or of CJK text can be, and PostgreSQL refuses GIN
/// index entries over about 2.7 kB.
pub const MAX_WORD_BYTES: usize = 240;
/// How many stories [`fill_missing`] reads at a time.
const BATCH: u64 = 500;
/// How often [`fill_missing`] says how far it got, in stories.
const PROGRESS_EVERY: u64 = 10_000;

/// The words of `text`, folded, each once, in the order they first appear: what a search asks
/// for (a run of CJK characters as its pairs of neighbours, or the one character alone).
pub fn words(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let folded = fold_text(text, FoldOptions { diacritics: true });
    let mut out = Vec::new();
    for_each_word(&folded, Pieces::Query, |word| {
        if seen.insert(word) {
            out.push(word.to_owned());
        }
    });
    out
}

/// Which pieces of a CJK run [`for_each_word`] gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pieces {
    /// Each character and each pair: what a story is found by.
    Index,
    /// The pairs, or the character of a one-character run: what a search asks for.
    Query,
}

/// Calls `f` with each word of already folded text: runs of letters and digits, with runs of CJK
/// characters inside them cut into [`Pieces`].
fn for_each_word<'a>(folded: &'a str, pieces: Pieces, mut f: impl FnMut(&'a str)) {
    for word in folded.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()) {
        if !word.chars().any(is_cjk) {
            f(word);
            continue;
        }
        // Split the word where it goes in or out of CJK; cut the CJK runs.
        let mut rest = word;
        while let Some(first) = rest.chars().next() {
            let cjk = is_cjk(first);
            let end = rest.find(|c: char| is_cjk(c) != cjk).unwrap_or(rest.len());
            let (run, after) = rest.split_at(end);
            if cjk {
                cjk_pieces(run, pieces, &mut f);
            } else {
                f(run);
            }
            rest = after;
        }
    }
}

/// The pieces of a run of CJK characters (see [`Pieces`]).
fn cjk_pieces<'a>(run: &'a str, pieces: Pieces, f: &mut impl FnMut(&'a str)) {
    let starts: Vec<usize> = run.char_indices().map(|(i, _)| i).chain([run.len()]).collect();
    let chars = starts.len() - 1;
    for i in 0..chars {
        if pieces == Pieces::Index || chars == 1 {
            f(&run[starts[i]..starts[i + 1]]);
        }
        if i + 2 <= chars {
            f(&run[starts[i]..starts[i + 2]]);
        }
    }
}

/// Whether a character belongs to a script written without spaces between words: Han ideographs,
/// Japanese kana, and Korean Hangul (spaced, but with particles joined to the words).
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF       // Hangul Jamo
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3130..=0x318F     // Hangul compatibility Jamo
        | 0x31F0..=0x31FF     // Katakana phonetic extensions
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xA960..=0xA97F     // Hangul Jamo extended A
        | 0xAC00..=0xD7AF     // Hangul syllables
        | 0xD7B0..=0xD7FF     // Hangul Jamo extended B
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0x20000..=0x3134F   // CJK extensions B to H
    )
}

/// The words a phrase asks for, in order and repeated as written (a run of CJK characters as its
/// pairs of neighbours, or the one character alone).
pub fn phrase_words(text: &str) -> Vec<String> {
    let folded = fold_text(text, FoldOptions { diacritics: true });
    let mut out = Vec::new();
    for_each_word(&folded, Pieces::Query, |word| out.push(word.to_owned()));
    out
}

/// A text's words as a query checks them: the set the index holds for it, and the sequence of
/// words (CJK runs as their pairs) that phrases are looked for in; borrowed from the folded text
/// ([`fold`]).
#[derive(Debug, Default)]
pub(crate) struct Indexed<'a> {
    /// Every word the index holds for the text (none longer than [`MAX_WORD_BYTES`]).
    pub(crate) words: HashSet<&'a str>,
    /// The words in order, as [`phrase_words`] gives them.
    pub(crate) sequence: Vec<&'a str>,
}

/// A text folded as the index folds it.
pub(crate) fn fold(text: &str) -> String {
    fold_text(text, FoldOptions { diacritics: true })
}

/// The words of a folded text (a title, or a searchable text).
pub(crate) fn indexed(folded: &str) -> Indexed<'_> {
    let mut words = HashSet::new();
    for_each_word(folded, Pieces::Index, |word| {
        if word.len() <= MAX_WORD_BYTES {
            words.insert(word);
        }
    });
    let mut sequence = Vec::new();
    for_each_word(folded, Pieces::Query, |word| sequence.push(word));
    Indexed { words, sequence }
}

/// What `stories.search_words` holds for a story with this title and searchable text.
pub(crate) fn column(title: Option<&str>, searchable: &str) -> String {
    words_column(&fold(title.unwrap_or_default()), &fold(searchable))
}

/// [`column`] of a title and a text folded already.
fn words_column(title: &str, text: &str) -> String {
    let mut words = Vec::new();
    for_each_word(title, Pieces::Index, |word| words.push(word));
    for_each_word(text, Pieces::Index, |word| words.push(word));
    let mut seen = HashSet::new();
    let mut column = String::new();
    for word in words {
        if word.len() <= MAX_WORD_BYTES && seen.insert(word) {
            if !column.is_empty() {
                column.push(' ');
            }
            column.push_str(word);
        }
    }
    column
}

/// What joins the two words of a pair in `stories.search_pairs` (`a·b`): no letter or digit, so
/// never part of a word, and not ASCII, so SQLite's `ascii` tokeniser keeps the pair whole.
pub(crate) const PAIR: char = '\u{B7}';

/// A pair of neighbouring words as the index holds it (see [`pairs`]).
pub(crate) fn pair(first: &str, second: &str) -> String {
    format!("{first}{PAIR}{second}")
}

/// What `stories.search_pairs` holds for a story with this title and searchable text: each pair of
/// neighbouring words (as phrases see them, [`phrase_words`]) within the title and within the
/// text, each once, space-separated; none with a word the index does not keep.
#[cfg(test)]
pub(crate) fn pairs(title: Option<&str>, searchable: &str) -> String {
    terms(title, searchable).1
}

/// What `stories.search_words` and `stories.search_pairs` hold for a story with this title and
/// searchable text ([`column`], [`pairs`]), each text folded once.
pub(crate) fn terms(title: Option<&str>, searchable: &str) -> (String, String) {
    let title = fold(title.unwrap_or_default());
    let text = fold(searchable);
    let mut seen = HashSet::new();
    let mut pairs = String::new();
    for part in [&title, &text] {
        let mut sequence = Vec::new();
        for_each_word(part, Pieces::Query, |word| sequence.push(word));
        for window in sequence.windows(2) {
            let [first, second] = window else { continue };
            if first.len() > MAX_WORD_BYTES || second.len() > MAX_WORD_BYTES {
                continue;
            }
            let pair = pair(first, second);
            if !seen.contains(&pair) {
                if !pairs.is_empty() {
                    pairs.push(' ');
                }
                pairs.push_str(&pair);
                seen.insert(pair);
            }
        }
    }
    (words_column(&title, &text), pairs)
}

/// Whether some story's words are not written yet (found by a partial index: quick either way).
pub(crate) async fn any_missing(db: &impl ConnectionTrait) -> Result<bool> {
    let first: Option<i64> = story::Entity::find()
        .select_only()
        .column(story::Column::Id)
        .filter(story::Column::SearchWords.is_null())
        .limit(1)
        .into_tuple()
        .one(db)
        .await
        .doing("looking for stories without search words")?;
    Ok(first.is_some())
}

/// Writes the search words and pairs of one story, from its title and searchable text as stored.
pub(crate) async fn refresh(db: &impl ConnectionTrait, story_id: i64) -> Result<()> {
    let row = story::Entity::find_by_id(story_id)
        .select_only()
        .columns([story::Column::Title, story::Column::Text, story::Column::SearchableText])
        .into_tuple::<(Option<String>, String, Option<String>)>()
        .one(db)
        .await
        .doing("reading a story's words")?;
    let Some((title, text, searchable)) = row else { return Ok(()) };
    let searchable = searchable.as_deref().unwrap_or(&text);
    let (words, pairs) = terms(title.as_deref(), searchable);
    story::Entity::update_many()
        .col_expr(story::Column::SearchWords, Expr::value(words))
        .col_expr(story::Column::SearchPairs, Expr::value(pairs))
        .filter(story::Column::Id.eq(story_id))
        .exec(db)
        .await
        .doing("writing a story's words")?;
    Ok(())
}

/// Writes the search words of every story that has none (stories archived before word search),
/// a batch at a time; returns how many it wrote. Until then, searches read those stories whole.
pub async fn fill_missing(archive: &Archive) -> Result<u64> {
    let mut filled = 0;
    loop {
        let ids: Vec<i64> = story::Entity::find()
            .select_only()
            .column(story::Column::Id)
            .filter(story::Column::SearchWords.is_null())
            .order_by_asc(story::Column::Id)
            .limit(BATCH)
            .into_tuple()
            .all(&archive.db)
            .await
            .doing("listing stories without search words")?;
        if ids.is_empty() {
            return Ok(filled);
        }
        // A transaction a batch: one commit (and one sync to disk) for many stories.
        let txn = archive.begin_write().await?;
        for &id in &ids {
            refresh(&txn, id).await?;
        }
        txn.commit().await.doing("committing search words")?;
        let before = filled;
        filled += ids.len() as u64;
        if filled / PROGRESS_EVERY > before / PROGRESS_EVERY {
            tracing::info!(stories = filled, "writing the search words of earlier stories");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_case_compatibility_forms_and_diacritics() {
        assert_eq!(words("Malmö, MALMØ and malmo! ﬁne"), ["malmo", "and", "fine"]);
        assert!(words(" ,;").is_empty());
    }

    #[test]
    fn the_column_holds_title_and_text_words_once() {
        assert_eq!(column(Some("Malmö wins"), "MALMO WINS again."), "malmo wins again");
        assert_eq!(column(None, ""), "");
    }

    #[test]
    fn pairs_are_neighbours_within_the_title_or_the_text() {
        assert_eq!(
            pairs(Some("Storm hits"), "the coast, the coast."),
            "storm·hits the·coast coast·the"
        );
        assert_eq!(pairs(Some("東京で"), "a"), "東京·京で");
        assert_eq!(pairs(None, ""), "");
        let long = "x".repeat(MAX_WORD_BYTES + 1);
        assert_eq!(pairs(None, &format!("a {long} b c")), "b·c");
        assert_eq!(
            terms(Some("Storm hits"), "the coast").0,
            column(Some("Storm hits"), "the coast")
        );
    }

    #[test]
    fn overlong_words_are_not_indexed_and_never_found() {
        let long = "x".repeat(MAX_WORD_BYTES + 1);
        let longest = "y".repeat(MAX_WORD_BYTES);
        assert_eq!(column(Some(&long), &format!("a {longest} b")), format!("a {longest} b"));
        assert!(!indexed(&long).words.contains(long.as_str()));
        assert!(indexed(&longest).words.contains(longest.as_str()));
    }

    #[test]
    fn a_text_is_checked_by_the_words_the_index_holds_and_their_order() {
        let folded = fold("Malmö wins, again: 東京で地震");
        let text = indexed(&folded);
        let words = &text.words;
        assert!(words.contains("malmo") && words.contains("東") && words.contains("東京"));
        assert_eq!(text.sequence, ["malmo", "wins", "again", "東京", "京で", "で地", "地震"]);
        assert_eq!(phrase_words("the cat, the hat"), ["the", "cat", "the", "hat"]);
    }
}
