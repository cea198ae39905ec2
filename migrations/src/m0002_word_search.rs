//! Word search: each story's folded words in `stories.search_words`, and an index over them that
//! each backend builds its own way.
//!
//! The words are written by `store` (the folding is Rust code, the same on both backends); this
//! migration adds the column, empty for the stories already archived, which `store` fills after
//! migrating (a partial index finds them, and tells searches whether there are any). The index:
//! - SQLite: an FTS5 table with the column as external content, kept in step by triggers. A story
//!   is in it exactly when its words are written (not `NULL`): FTS5 must be told the words it
//!   indexed to forget them, and the stories found here by the migration were never indexed. Its
//!   `ascii` tokeniser splits only at ASCII characters other than letters and digits, so each of
//!   the column's words (letters and digits, folded already) is one token, in any script: the
//!   index holds exactly the words `store` wrote;
//! - PostgreSQL: a GIN index over the column's words as an array (`string_to_array`), which
//!   answers `@>` (has all of these words) exactly.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Stories {
    Table,
    SearchWords,
}

/// The stories whose words are still to be written: none, once `store` has filled them.
const WITHOUT_WORDS: &str =
    "CREATE INDEX idx_stories_without_words ON stories (id) WHERE search_words IS NULL";

const SQLITE_UP: &[&str] = &[
    WITHOUT_WORDS,
    "CREATE VIRTUAL TABLE story_search USING fts5(search_words, content='stories', \
     content_rowid='id', tokenize='ascii')",
    "CREATE TRIGGER stories_search_insert AFTER INSERT ON stories \
     WHEN new.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(rowid, search_words) VALUES (new.id, new.search_words); END",
    "CREATE TRIGGER stories_search_delete AFTER DELETE ON stories \
     WHEN old.search_words IS NOT NULL BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words) \
     VALUES ('delete', old.id, old.search_words); END",
    // One trigger, so that the old words go before the new ones come (SQLite gives no order
    // between triggers on one event).
    "CREATE TRIGGER stories_search_update AFTER UPDATE OF search_words ON stories BEGIN \
     INSERT INTO story_search(story_search, rowid, search_words) \
     SELECT 'delete', old.id, old.search_words WHERE old.search_words IS NOT NULL; \
     INSERT INTO story_search(rowid, search_words) \
     SELECT new.id, new.search_words WHERE new.search_words IS NOT NULL; END",
];

const SQLITE_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS stories_search_update",
    "DROP TRIGGER IF EXISTS stories_search_delete",
    "DROP TRIGGER IF EXISTS stories_search_insert",
    "DROP TABLE IF EXISTS story_search",
    "DROP INDEX IF EXISTS idx_stories_without_words",
];

const POSTGRES_UP: &[&str] = &[
    WITHOUT_WORDS,
    "CREATE INDEX idx_stories_search_words ON stories USING gin (string_to_array(search_words, ' '))",
];

const POSTGRES_DOWN: &[&str] = &[
    "DROP INDEX IF EXISTS idx_stories_search_words",
    "DROP INDEX IF EXISTS idx_stories_without_words",
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
        manager
            .alter_table(
                Table::alter()
                    .table(Stories::Table)
                    .add_column(text_null(Stories::SearchWords))
                    .take(),
            )
            .await?;
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => execute(manager, SQLITE_UP).await,
            DatabaseBackend::Postgres => execute(manager, POSTGRES_UP).await,
            other => Err(DbErr::Migration(format!("the archive does not support {other:?}"))),
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => execute(manager, SQLITE_DOWN).await?,
            DatabaseBackend::Postgres => execute(manager, POSTGRES_DOWN).await?,
            other => {
                return Err(DbErr::Migration(format!("the archive does not support {other:?}")));
            }
        }
        manager
            .alter_table(
                Table::alter().table(Stories::Table).drop_column(Stories::SearchWords).take(),
            )
            .await
    }
}
