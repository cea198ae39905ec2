//! Search words written again for the stories whose words changed: those holding Chinese, Japanese
//! or Korean characters (now indexed as characters and pairs of neighbours, not as whole runs) or
//! invisible formatting characters (soft hyphens, zero-width spaces, word joiners, byte-order
//! marks; now left out by folding).
//!
//! The migration only forgets their words (`search_words` back to `NULL`): `store` writes the words
//! of such stories after migrating, as it does for the stories archived before word search (see
//! `m0002_word_search`), and searches read them whole until then. On SQLite the update trigger of
//! `m0002` takes them out of the FTS5 index.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

/// The characters whose words changed, as a bracket expression both backends read: PostgreSQL's
/// regular expressions and SQLite's `GLOB` (which compares whole UTF-8 characters).
const CHANGED: &str = "\u{AD}\u{200B}\u{2060}\u{FEFF}\u{1100}-\u{11FF}\u{3040}-\u{30FF}\
    \u{3130}-\u{318F}\u{31F0}-\u{31FF}\u{3400}-\u{4DBF}\u{4E00}-\u{9FFF}\u{A960}-\u{A97F}\
    \u{AC00}-\u{D7FF}\u{F900}-\u{FAFF}\u{20000}-\u{3134F}";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let sql = match manager.get_database_backend() {
            DatabaseBackend::Sqlite => format!(
                "UPDATE stories SET search_words = NULL \
                 WHERE search_words IS NOT NULL AND search_words GLOB '*[{CHANGED}]*'"
            ),
            DatabaseBackend::Postgres => format!(
                "UPDATE stories SET search_words = NULL \
                 WHERE search_words IS NOT NULL AND search_words ~ '[{CHANGED}]'"
            ),
            other => {
                return Err(DbErr::Migration(format!("the archive does not support {other:?}")));
            }
        };
        manager.get_connection().execute_unprepared(&sql).await?;
        Ok(())
    }

    /// Nothing to undo: the words are written again either way.
    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        Ok(())
    }
}
