//! Where the log of changed stories (`fact_changes`, `m0017_fact_changes`) was trimmed: its rows
//! below `fact_changes_trimmed.below` (a `seq` on SQLite, a transaction id on PostgreSQL) are
//! gone.
//!
//! The log would otherwise grow by about one row for every story stored and every cluster
//! change, forever. After each dedup batch the archive keeps only its latest rows, about as many
//! as an eighth of the stories: a process whose kept facts are further behind than that reads
//! every story's facts again anyway. A process that last looked before the trimmed part sees
//! `below` past where it looked, and reads them all again too, in the same statement as the rows,
//! so never from a log with a hole in it.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const UP: &[&str] = &[
    "CREATE TABLE fact_changes_trimmed (below bigint NOT NULL)",
    "INSERT INTO fact_changes_trimmed (below) VALUES (0)",
];

const DOWN: &[&str] = &["DROP TABLE IF EXISTS fact_changes_trimmed"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::execute(manager, UP).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::execute(manager, DOWN).await
    }
}
