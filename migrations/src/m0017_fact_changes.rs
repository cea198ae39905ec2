//! A log of the stories whose facts changed (`fact_changes`): one row each time a story is
//! inserted or deleted, or its source, publication day, cluster representative or language
//! changes, written by triggers on `stories` on both backends.
//!
//! A long-lived process (the web server, the benchmark) keeps those facts of every story in
//! memory, densely by id, and counts the matches of a query there instead of looking each match
//! up in the database (the store crate's `facts`). Before it answers, it reads the log's end (one
//! small query) and reads again the facts of the stories logged since it last looked, so it never
//! answers from facts older than the call.
//!
//! The log's order is the order in which changes became visible:
//!
//! - SQLite has one writer at a time, so the log's rowid (`seq`) grows in commit order, and "the
//!   rows after the last one read" are exactly the changes since.
//! - PostgreSQL's writers commit in any order, so a sequence's numbers could be seen out of
//!   order (a transaction that took 10 committing after one that took 11): each row carries
//!   instead the writing transaction's id (`xid`, `pg_current_xact_id()`), and a reader keeps,
//!   from the snapshot it last looked in, the first transaction id not yet given out
//!   (`pg_snapshot_xmax`) and the transactions still running (`pg_snapshot_xip`): every change
//!   it has not seen carries that id or a later one, or one of those.
//!
//! No rows are written for stories stored before the migration: a reader starts from every
//! story's facts and then follows the log from its end.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const SQLITE_UP: &[&str] = &[
    "CREATE TABLE fact_changes (seq INTEGER PRIMARY KEY, story_id bigint NOT NULL)",
    "CREATE TRIGGER fact_changes_insert AFTER INSERT ON stories BEGIN \
     INSERT INTO fact_changes (story_id) VALUES (new.id); END",
    "CREATE TRIGGER fact_changes_update \
     AFTER UPDATE OF id, source_id, published_day, cluster_representative, language ON stories \
     WHEN old.id IS NOT new.id OR old.source_id IS NOT new.source_id \
     OR old.published_day IS NOT new.published_day \
     OR old.cluster_representative IS NOT new.cluster_representative \
     OR old.language IS NOT new.language BEGIN \
     INSERT INTO fact_changes (story_id) VALUES (old.id); \
     INSERT INTO fact_changes (story_id) SELECT new.id WHERE new.id IS NOT old.id; END",
    "CREATE TRIGGER fact_changes_delete AFTER DELETE ON stories BEGIN \
     INSERT INTO fact_changes (story_id) VALUES (old.id); END",
];

const SQLITE_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS fact_changes_delete",
    "DROP TRIGGER IF EXISTS fact_changes_update",
    "DROP TRIGGER IF EXISTS fact_changes_insert",
    "DROP TABLE IF EXISTS fact_changes",
];

const POSTGRES_UP: &[&str] = &[
    "CREATE TABLE fact_changes (\
     xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint), \
     story_id bigint NOT NULL)",
    "CREATE INDEX idx_fact_changes_xid ON fact_changes (xid)",
    "CREATE FUNCTION fact_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$ \
     BEGIN \
       IF TG_OP IN ('DELETE', 'UPDATE') THEN \
         INSERT INTO fact_changes (story_id) VALUES (OLD.id); \
       END IF; \
       IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.id IS DISTINCT FROM OLD.id) THEN \
         INSERT INTO fact_changes (story_id) VALUES (NEW.id); \
       END IF; \
       RETURN NULL; \
     END $$",
    "CREATE TRIGGER fact_changes_insert_delete AFTER INSERT OR DELETE ON stories \
     FOR EACH ROW EXECUTE FUNCTION fact_changes_log()",
    "CREATE TRIGGER fact_changes_update \
     AFTER UPDATE OF id, source_id, published_day, cluster_representative, language ON stories \
     FOR EACH ROW \
     WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.source_id IS DISTINCT FROM NEW.source_id \
       OR OLD.published_day IS DISTINCT FROM NEW.published_day \
       OR OLD.cluster_representative IS DISTINCT FROM NEW.cluster_representative \
       OR OLD.language IS DISTINCT FROM NEW.language) \
     EXECUTE FUNCTION fact_changes_log()",
];

const POSTGRES_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS fact_changes_update ON stories",
    "DROP TRIGGER IF EXISTS fact_changes_insert_delete ON stories",
    "DROP FUNCTION IF EXISTS fact_changes_log()",
    "DROP TABLE IF EXISTS fact_changes",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_UP).await,
            _ => crate::execute(manager, POSTGRES_UP).await,
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_DOWN).await,
            _ => crate::execute(manager, POSTGRES_DOWN).await,
        }
    }
}
