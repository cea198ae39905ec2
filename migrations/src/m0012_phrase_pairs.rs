//! Phrases answered by the index: each story's pairs of neighbouring words.
//!
//! `stories.search_pairs` holds, space-separated, every pair of words that stand next to each
//! other in the story's title or in its searchable text (never one word of each), as `a·b` (the
//! middle dot is no letter or digit, so it is never part of a word). Both backends index the
//! pairs with the words, as more terms of the same index: a phrase of two words is then one
//! term, and a longer phrase the pairs it is made of (a superset, checked in Rust). See
//! the `search` module of `store`.
//!
//! - SQLite: the FTS5 table of `m0002_word_search` again, with the pairs as a second column (its
//!   `ascii` tokeniser keeps `a·b` whole: it splits only at ASCII characters), and its triggers
//!   on both columns.
//! - PostgreSQL: the GIN index of `m0006_queries_and_collections` over the words and the pairs
//!   together (`array_cat` of both lists).
//!
//! And, on SQLite, a covering index of what counts and top sources read of each story (its id,
//! day, cluster representative and source), so that counting 200,000 matching stories reads the
//! index's narrow entries, not the stories' rows (their text and words: kilobytes each). PostgreSQL
//! reads its rows (a GIN index gives row addresses only).
//!
//! The pairs are written by `store` (the folding is Rust code): the migration forgets every
//! story's words (`search_words` back to `NULL`), and `store` writes words and pairs again
//! after migrating, as it does for stories archived before word search; searches read those
//! stories whole until then.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Stories {
    Table,
    SearchPairs,
}

const SQLITE_UP: &[&str] = &[
    "DROP TRIGGER IF EXISTS stories_search_update",
    "DROP TRIGGER IF EXISTS stories_search_delete",
    "DROP TRIGGER IF EXISTS stories_search_insert",
    "DROP TABLE IF EXISTS story_search",
    "UPDATE stories SET search_words = NULL, search_pairs = NULL",
    "CREATE VIRTUAL TABLE story_search USING fts5(search_words, search_pairs, \
     content='stories', content_rowid='id', tokenize='ascii')",
    "CREATE TRIGGER stories_search_insert AFTER INSERT ON stories \
     WHEN new.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(rowid, search_words, search_pairs) \
     VALUES (new.id, new.search_words, new.search_pairs); END",
    "CREATE TRIGGER stories_search_delete AFTER DELETE ON stories \
     WHEN old.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words, search_pairs) \
     VALUES ('delete', old.id, old.search_words, old.search_pairs); END",
    // One trigger, so that the old terms go before the new ones come. A story is in the index
    // exactly when its words are written; its pairs are written with them.
    "CREATE TRIGGER stories_search_update AFTER UPDATE OF search_words, search_pairs ON stories \
     BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words, search_pairs) \
     SELECT 'delete', old.id, old.search_words, old.search_pairs \
     WHERE old.search_words IS NOT NULL; \
     INSERT INTO story_search(rowid, search_words, search_pairs) \
     SELECT new.id, new.search_words, new.search_pairs WHERE new.search_words IS NOT NULL; END",
    FACTS,
];

/// What counts and top sources read of each story, in a covering index (SQLite).
const FACTS: &str = "CREATE INDEX idx_stories_facts ON stories \
     (id, published_day, cluster_representative, source_id)";

const SQLITE_DOWN: &[&str] = &[
    "DROP INDEX IF EXISTS idx_stories_facts",
    "DROP TRIGGER IF EXISTS stories_search_update",
    "DROP TRIGGER IF EXISTS stories_search_delete",
    "DROP TRIGGER IF EXISTS stories_search_insert",
    "DROP TABLE IF EXISTS story_search",
    "UPDATE stories SET search_words = NULL",
    "CREATE VIRTUAL TABLE story_search USING fts5(search_words, content='stories', \
     content_rowid='id', tokenize='ascii')",
    "CREATE TRIGGER stories_search_insert AFTER INSERT ON stories \
     WHEN new.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(rowid, search_words) VALUES (new.id, new.search_words); END",
    "CREATE TRIGGER stories_search_delete AFTER DELETE ON stories \
     WHEN old.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words) \
     VALUES ('delete', old.id, old.search_words); END",
    "CREATE TRIGGER stories_search_update AFTER UPDATE OF search_words ON stories BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words) \
     SELECT 'delete', old.id, old.search_words WHERE old.search_words IS NOT NULL; \
     INSERT INTO story_search(rowid, search_words) \
     SELECT new.id, new.search_words WHERE new.search_words IS NOT NULL; END",
];

const POSTGRES_UP: &[&str] = &[
    "DROP INDEX IF EXISTS idx_stories_search_lexemes",
    "UPDATE stories SET search_words = NULL, search_pairs = NULL",
    "CREATE INDEX idx_stories_search_terms ON stories USING gin (array_to_tsvector(\
     array_cat(string_to_array(search_words, ' '), string_to_array(search_pairs, ' '))))",
];

const POSTGRES_DOWN: &[&str] = &[
    "DROP INDEX IF EXISTS idx_stories_search_terms",
    "CREATE INDEX idx_stories_search_lexemes ON stories \
     USING gin (array_to_tsvector(string_to_array(search_words, ' ')))",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Stories::Table)
                    .add_column(text_null(Stories::SearchPairs))
                    .take(),
            )
            .await?;
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_UP).await,
            DatabaseBackend::Postgres => crate::execute(manager, POSTGRES_UP).await,
            other => Err(DbErr::Migration(format!("the archive does not support {other:?}"))),
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_DOWN).await?,
            DatabaseBackend::Postgres => crate::execute(manager, POSTGRES_DOWN).await?,
            other => {
                return Err(DbErr::Migration(format!("the archive does not support {other:?}")));
            }
        }
        manager
            .alter_table(
                Table::alter().table(Stories::Table).drop_column(Stories::SearchPairs).take(),
            )
            .await
    }
}
