//! SQLite: each story's searchable words in a narrow table of their own, `story_words`, by the
//! story's id as its rowid, kept by triggers on `stories`.
//!
//! Top words read the words of a sample of the matching stories (the store crate's `top`). In
//! `stories` the words sit at the end of a row of kilobytes, after the text, and SQLite reaches
//! them by following the row's chain of overflow pages: two or three page reads a story. Here a story's
//! words (about a kilobyte) are a row of their own, one page read or less. PostgreSQL keeps each
//! big column out of line already (`toast_tuple_target` of `m0014_story_days`), so it reads a
//! story's words without its text and has no such table.
//!
//! The migration fills the table from the stories already stored.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const SQLITE_UP: &[&str] = &[
    "CREATE TABLE story_words (id INTEGER PRIMARY KEY, words text NOT NULL)",
    "INSERT INTO story_words (id, words) \
     SELECT id, search_words FROM stories WHERE search_words IS NOT NULL",
    "CREATE TRIGGER story_words_insert AFTER INSERT ON stories \
     WHEN new.search_words IS NOT NULL BEGIN \
     INSERT INTO story_words (id, words) VALUES (new.id, new.search_words); END",
    "CREATE TRIGGER story_words_update AFTER UPDATE OF search_words ON stories BEGIN \
     DELETE FROM story_words WHERE id = old.id; \
     INSERT INTO story_words (id, words) SELECT new.id, new.search_words \
     WHERE new.search_words IS NOT NULL; END",
    "CREATE TRIGGER story_words_delete AFTER DELETE ON stories BEGIN \
     DELETE FROM story_words WHERE id = old.id; END",
];

const SQLITE_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS story_words_delete",
    "DROP TRIGGER IF EXISTS story_words_update",
    "DROP TRIGGER IF EXISTS story_words_insert",
    "DROP TABLE IF EXISTS story_words",
];

async fn execute(manager: &SchemaManager<'_>, statements: &[&str]) -> Result<(), DbErr> {
    for sql in statements {
        manager.get_connection().execute_unprepared(sql).await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => execute(manager, SQLITE_UP).await,
            _ => Ok(()),
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => execute(manager, SQLITE_DOWN).await,
            _ => Ok(()),
        }
    }
}
