//! On PostgreSQL, the index on a story's day also holds its id (`idx_stories_day_id` on
//! `(published_day, id)`, in place of `idx_stories_day` on the day alone).
//!
//! A text query over a window of days is bounded by the least and greatest id of the window's
//! stories (the store's `Filter::condition`), read as each day's first and last entry. SQLite's
//! index on the day already keeps each day's entries in id order (its rowid ends every entry);
//! PostgreSQL's ends with the row's place in the table, so reading a day's least id meant reading
//! all its rows: 9.7 s for 31 days at a million stories, against 0.6 ms through this index.
//! Everything the day alone was used for, the pair serves too. Nothing changes on SQLite.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const POSTGRES_UP: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS idx_stories_day_id ON stories (published_day, id)",
    "DROP INDEX IF EXISTS idx_stories_day",
];

const POSTGRES_DOWN: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS idx_stories_day ON stories (published_day)",
    "DROP INDEX IF EXISTS idx_stories_day_id",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::execute_on_postgres(manager, POSTGRES_UP).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::execute_on_postgres(manager, POSTGRES_DOWN).await
    }
}
