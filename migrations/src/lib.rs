//! The archive schema's history, as sea-orm-migration migrations.
//!
//! [`Migrator`] lists every migration in order; `store` runs it (`morgue migrate`, `morgue init`).
//! Migrations are frozen history: they name tables and columns with their own identifiers and
//! never import `store`'s entities, which describe only the present schema.
//! A migration, once released, is never edited; a change to the schema is a new migration.
//!
//! Every migration must run on both backends the archive supports, SQLite and PostgreSQL,
//! so it sticks to portable column types: big integers for ids and counters, `text` for strings
//! (also for JSON documents, which SQLite has no type for), timestamps with time zone, dates,
//! doubles and blobs. Where a backend has a better tool for a job (full-text indexes), a migration
//! branches on the backend, and the store reads the result the same way on both.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

/// The trait that runs [`Migrator`], re-exported so `store` needs no direct dependency on
/// sea-orm-migration.
pub use sea_orm_migration::MigratorTrait;

mod m0001_archive;
mod m0002_word_search;
mod m0003_workers;
mod m0004_link_explanations;
mod m0005_refold_search_words;
mod m0006_queries_and_collections;
mod m0007_cluster_representatives;
mod m0008_host_turns;
mod m0009_claims;
mod m0011_fetch_requests;
mod m0012_phrase_pairs;
mod m0013_fetch_lossy_urls;
mod m0014_story_days;
mod m0015_folded_totals;
mod m0016_story_words;
mod m0017_fact_changes;
mod m0018_fact_changes_trimmed;
mod m0019_story_day_ids;
mod m0020_story_terms;

/// Runs a migration's SQL statements in order. On SQLite, as one batch on one connection: the
/// pool's other connections may hold the schema from before a trigger was dropped, and SQLite
/// refuses to create a trigger its stale schema still names ("already exists") without looking
/// again (found with `m0012`).
async fn execute<S: AsRef<str>>(
    manager: &SchemaManager<'_>,
    statements: &[S],
) -> Result<(), DbErr> {
    if manager.get_database_backend() == DatabaseBackend::Sqlite {
        let batch = statements.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(";\n");
        manager.get_connection().execute_unprepared(&batch).await?;
        return Ok(());
    }
    for sql in statements {
        manager.get_connection().execute_unprepared(sql.as_ref()).await?;
    }
    Ok(())
}

/// Runs a PostgreSQL-only migration's statements ([`execute`]); on any other backend, nothing
/// (`m0019`, `m0020`: indexes and tables only PostgreSQL's plans need).
async fn execute_on_postgres(
    manager: &SchemaManager<'_>,
    statements: &[&str],
) -> Result<(), DbErr> {
    match manager.get_database_backend() {
        DatabaseBackend::Postgres => execute(manager, statements).await,
        _ => Ok(()),
    }
}

/// The archive's migrations, in the order they apply.
#[derive(Debug)]
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m0001_archive::Migration),
            Box::new(m0002_word_search::Migration),
            Box::new(m0003_workers::Migration),
            Box::new(m0004_link_explanations::Migration),
            Box::new(m0005_refold_search_words::Migration),
            Box::new(m0006_queries_and_collections::Migration),
            Box::new(m0007_cluster_representatives::Migration),
            Box::new(m0008_host_turns::Migration),
            Box::new(m0009_claims::Migration),
            Box::new(m0011_fetch_requests::Migration),
            Box::new(m0012_phrase_pairs::Migration),
            Box::new(m0013_fetch_lossy_urls::Migration),
            Box::new(m0014_story_days::Migration),
            Box::new(m0015_folded_totals::Migration),
            Box::new(m0016_story_words::Migration),
            Box::new(m0017_fact_changes::Migration),
            Box::new(m0018_fact_changes_trimmed::Migration),
            Box::new(m0019_story_day_ids::Migration),
            Box::new(m0020_story_terms::Migration),
        ]
    }
}
