//! Word search over stories: which words a story is found by, and the index that finds them.
//!
//! A story is found by the words of its title and of its searchable text (the text without the
//! sentences its source repeated that week), folded by the normalizer for case, compatibility forms
//! and diacritics, so that `Malmö`, `MALMØ` and `malmo` are one word. Folding is Rust code, so both
//! backends see the same words: each story keeps them in `stories.search_words`, space-separated,
//! and the backend indexes that column its own way (migration `m0002_word_search`): an FTS5 table
//! on SQLite, a GIN index over the words as an array on PostgreSQL.
//!
//! `condition` selects the stories that have every word asked for, and the stories whose words
//! are not written yet (archived before word search, until [`fill_missing`] runs, which `morgue
//! migrate` does), so a search never misses a story. The index is exact on both backends; the
//! stories without words are not, and callers check those with [`has_words`].

use std::collections::HashSet;

use normalizer::{FoldOptions, fold_text};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

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

/// The words of `text`, folded, each once, in the order they first appear.
pub fn words(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    folded_words(&fold_text(text, FoldOptions { diacritics: true }))
        .filter(|word| seen.insert(*word))
        .map(str::to_owned)
        .collect()
}

/// The words of already folded text.
fn folded_words(folded: &str) -> impl Iterator<Item = &str> {
    folded.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty())
}

/// Whether a story's title or searchable text has every one of `terms` (folded, as [`words`] gives
/// them) as a word, as the index says it once the story's words are written (a word longer than
/// [`MAX_WORD_BYTES`] is never found). True when `terms` is empty.
pub fn has_words(title: Option<&str>, searchable: &str, terms: &[String]) -> bool {
    let mut missing: HashSet<&str> = terms.iter().map(String::as_str).collect();
    for part in [title.unwrap_or_default(), searchable] {
        if missing.is_empty() {
            break;
        }
        let folded = fold_text(part, FoldOptions { diacritics: true });
        for word in folded_words(&folded).filter(|word| word.len() <= MAX_WORD_BYTES) {
            if missing.remove(word) && missing.is_empty() {
                return true;
            }
        }
    }
    missing.is_empty()
}

/// What `stories.search_words` holds for a story with this title and searchable text.
pub(crate) fn column(title: Option<&str>, searchable: &str) -> String {
    let title = fold_text(title.unwrap_or_default(), FoldOptions { diacritics: true });
    let text = fold_text(searchable, FoldOptions { diacritics: true });
    let mut seen = HashSet::new();
    let mut column = String::new();
    for word in folded_words(&title).chain(folded_words(&text)) {
        if word.len() <= MAX_WORD_BYTES && seen.insert(word) {
            if !column.is_empty() {
                column.push(' ');
            }
            column.push_str(word);
        }
    }
    column
}

/// The stories that have every one of `terms` (folded, as [`words`] gives them), and with
/// `unindexed` those whose words are not written yet (an `OR` that keeps the planners from the
/// word index, so callers add it only while [`any_missing`] finds such stories).
pub(crate) fn condition(backend: DatabaseBackend, terms: &[String], unindexed: bool) -> Condition {
    let indexed = match backend {
        DatabaseBackend::Postgres => Expr::cust_with_values(
            r#"string_to_array("stories"."search_words", ' ') @> string_to_array($1, ' ')"#,
            [terms.join(" ")],
        ),
        // FTS5's query language: each term a quoted string (terms are letters and digits only),
        // all of them required.
        _ => Expr::cust_with_values(
            r#""stories"."id" IN (SELECT rowid FROM story_search WHERE story_search MATCH ?)"#,
            [terms
                .iter()
                .map(|term| format!("\"{}\"", term.replace('"', "\"\"")))
                .collect::<Vec<_>>()
                .join(" AND ")],
        ),
    };
    let condition = Condition::any().add(indexed);
    if unindexed { condition.add(story::Column::SearchWords.is_null()) } else { condition }
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

/// Writes the search words of one story, from its title and searchable text as stored.
pub(crate) async fn refresh(db: &impl ConnectionTrait, story_id: i64) -> Result<()> {
    let row = story::Entity::find_by_id(story_id)
        .select_only()
        .columns([story::Column::Title, story::Column::Text, story::Column::SearchableText])
        .into_tuple::<(Option<String>, String, Option<String>)>()
        .one(db)
        .await
        .doing("reading a story's words")?;
    let Some((title, text, searchable)) = row else { return Ok(()) };
    let words = column(title.as_deref(), searchable.as_deref().unwrap_or(&text));
    story::Entity::update_many()
        .col_expr(story::Column::SearchWords, Expr::value(words))
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
    fn overlong_words_are_not_indexed_and_never_found() {
        let long = "x".repeat(MAX_WORD_BYTES + 1);
        let longest = "y".repeat(MAX_WORD_BYTES);
        assert_eq!(column(Some(&long), &format!("a {longest} b")), format!("a {longest} b"));
        assert!(!has_words(None, &long, &words(&long)));
        assert!(has_words(None, &longest, &words(&longest)));
    }

    #[test]
    fn every_term_must_be_a_whole_word_of_title_or_text() {
        let terms = words("malmo again");
        assert!(has_words(Some("Malmö wins"), "It won again.", &terms));
        assert!(!has_words(Some("Malmö wins"), "It won once.", &terms));
        assert!(!has_words(Some("Malmöhus"), "again", &terms));
        assert!(has_words(None, "anything", &[]));
    }
}
