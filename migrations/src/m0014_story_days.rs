//! Kept totals for counts over time, and (PostgreSQL) each story's index terms stored.
//!
//! `story_days` holds, per source and publication day, how many stories there are and how many
//! of them are in no cluster. Counts over time take the shares' denominators from it (all stories
//! of the selected sources per period: a year is 365 rows a source, not a row a story), and the
//! folded denominator adds the distinct clusters of the clustered stories, read from the partial
//! index `idx_stories_clustered` (only stories in a cluster). Triggers on `stories` keep the
//! table (insert, delete, and an update of the day, the source or whether the story is in a
//! cluster): SQLite triggers, PostgreSQL a PL/pgSQL trigger function. The migration fills it for
//! the stories already stored. Stories without a publication day are not in it.
//!
//! On PostgreSQL, the terms each story is found by (its words and pairs) become a stored generated
//! `tsvector` column, `stories.search_terms`, the same expression as the index of
//! `m0012_phrase_pairs` had, with its GIN index `idx_stories_search_column` in place of that
//! expression index: a sequential scan then reads the terms instead of rebuilding them a row at a
//! time. And `toast_tuple_target = 128` moves a story's big columns (text, words, pairs, terms) out
//! of its row, so the rows counts read stay narrow.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

/// The table, filled from the stories already stored, and the partial index over clustered
/// stories: the same statements on both backends.
const TABLE: &str = "CREATE TABLE story_days (source_id bigint NOT NULL, day date NOT NULL, \
     stories bigint NOT NULL, unclustered bigint NOT NULL, PRIMARY KEY (source_id, day))";
const TABLE_INDEX: &str = "CREATE INDEX idx_story_days_day ON story_days (day, source_id)";
const BACKFILL: &str = "INSERT INTO story_days (source_id, day, stories, unclustered) \
     SELECT source_id, published_day, COUNT(*), \
     SUM(CASE WHEN cluster_representative IS NULL THEN 1 ELSE 0 END) \
     FROM stories WHERE published_day IS NOT NULL GROUP BY source_id, published_day";
const CLUSTERED_INDEX: &str = "CREATE INDEX idx_stories_clustered ON stories \
     (published_day, source_id, cluster_representative) WHERE cluster_representative IS NOT NULL";

const SQLITE_UP: &[&str] = &[
    TABLE,
    TABLE_INDEX,
    BACKFILL,
    CLUSTERED_INDEX,
    "CREATE TRIGGER story_days_insert AFTER INSERT ON stories \
     WHEN new.published_day IS NOT NULL BEGIN \
     INSERT INTO story_days (source_id, day, stories, unclustered) \
     VALUES (new.source_id, new.published_day, 1, new.cluster_representative IS NULL) \
     ON CONFLICT (source_id, day) DO UPDATE SET stories = stories + 1, \
     unclustered = unclustered + excluded.unclustered; END",
    "CREATE TRIGGER story_days_delete AFTER DELETE ON stories \
     WHEN old.published_day IS NOT NULL BEGIN \
     UPDATE story_days SET stories = stories - 1, \
     unclustered = unclustered - (old.cluster_representative IS NULL) \
     WHERE source_id = old.source_id AND day = old.published_day; \
     DELETE FROM story_days WHERE source_id = old.source_id AND day = old.published_day \
     AND stories <= 0; END",
    // One trigger: the old day's totals lose the story before the new day's gain it.
    "CREATE TRIGGER story_days_update \
     AFTER UPDATE OF published_day, source_id, cluster_representative ON stories \
     WHEN old.published_day IS NOT new.published_day OR old.source_id IS NOT new.source_id \
     OR (old.cluster_representative IS NULL) IS NOT (new.cluster_representative IS NULL) BEGIN \
     UPDATE story_days SET stories = stories - 1, \
     unclustered = unclustered - (old.cluster_representative IS NULL) \
     WHERE old.published_day IS NOT NULL \
     AND source_id = old.source_id AND day = old.published_day; \
     DELETE FROM story_days WHERE old.published_day IS NOT NULL \
     AND source_id = old.source_id AND day = old.published_day AND stories <= 0; \
     INSERT INTO story_days (source_id, day, stories, unclustered) \
     SELECT new.source_id, new.published_day, 1, new.cluster_representative IS NULL \
     WHERE new.published_day IS NOT NULL \
     ON CONFLICT (source_id, day) DO UPDATE SET stories = stories + 1, \
     unclustered = unclustered + excluded.unclustered; END",
];

const SQLITE_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS story_days_update",
    "DROP TRIGGER IF EXISTS story_days_delete",
    "DROP TRIGGER IF EXISTS story_days_insert",
    "DROP INDEX IF EXISTS idx_stories_clustered",
    "DROP TABLE IF EXISTS story_days",
];

const POSTGRES_UP: &[&str] = &[
    TABLE,
    TABLE_INDEX,
    BACKFILL,
    CLUSTERED_INDEX,
    "CREATE FUNCTION story_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$ \
     BEGIN \
       IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.published_day IS NOT NULL THEN \
         UPDATE story_days SET stories = stories - 1, \
           unclustered = unclustered - CASE WHEN OLD.cluster_representative IS NULL \
             THEN 1 ELSE 0 END \
           WHERE source_id = OLD.source_id AND day = OLD.published_day; \
         DELETE FROM story_days WHERE source_id = OLD.source_id AND day = OLD.published_day \
           AND stories <= 0; \
       END IF; \
       IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.published_day IS NOT NULL THEN \
         INSERT INTO story_days AS d (source_id, day, stories, unclustered) \
           VALUES (NEW.source_id, NEW.published_day, 1, \
             CASE WHEN NEW.cluster_representative IS NULL THEN 1 ELSE 0 END) \
           ON CONFLICT (source_id, day) DO UPDATE SET stories = d.stories + 1, \
             unclustered = d.unclustered + EXCLUDED.unclustered; \
       END IF; \
       RETURN NULL; \
     END $$",
    "CREATE TRIGGER story_days_insert_delete AFTER INSERT OR DELETE ON stories \
     FOR EACH ROW EXECUTE FUNCTION story_days_follow()",
    "CREATE TRIGGER story_days_update \
     AFTER UPDATE OF published_day, source_id, cluster_representative ON stories FOR EACH ROW \
     WHEN (OLD.published_day IS DISTINCT FROM NEW.published_day \
       OR OLD.source_id IS DISTINCT FROM NEW.source_id \
       OR (OLD.cluster_representative IS NULL) <> (NEW.cluster_representative IS NULL)) \
     EXECUTE FUNCTION story_days_follow()",
    // The terms, stored: the expression of `idx_stories_search_terms` (m0012).
    "ALTER TABLE stories ADD COLUMN search_terms tsvector GENERATED ALWAYS AS (array_to_tsvector(\
     array_cat(string_to_array(search_words, ' '), string_to_array(search_pairs, ' ')))) STORED",
    "DROP INDEX IF EXISTS idx_stories_search_terms",
    "CREATE INDEX idx_stories_search_column ON stories USING gin (search_terms)",
    "ALTER TABLE stories SET (toast_tuple_target = 128)",
];

const POSTGRES_DOWN: &[&str] = &[
    "ALTER TABLE stories RESET (toast_tuple_target)",
    "DROP INDEX IF EXISTS idx_stories_search_column",
    "ALTER TABLE stories DROP COLUMN IF EXISTS search_terms",
    "CREATE INDEX idx_stories_search_terms ON stories USING gin (array_to_tsvector(\
     array_cat(string_to_array(search_words, ' '), string_to_array(search_pairs, ' '))))",
    "DROP TRIGGER IF EXISTS story_days_update ON stories",
    "DROP TRIGGER IF EXISTS story_days_insert_delete ON stories",
    "DROP FUNCTION IF EXISTS story_days_follow()",
    "DROP INDEX IF EXISTS idx_stories_clustered",
    "DROP TABLE IF EXISTS story_days",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_UP).await,
            DatabaseBackend::Postgres => crate::execute(manager, POSTGRES_UP).await,
            other => Err(DbErr::Migration(format!("the archive does not support {other:?}"))),
        }
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, SQLITE_DOWN).await,
            DatabaseBackend::Postgres => crate::execute(manager, POSTGRES_DOWN).await,
            other => Err(DbErr::Migration(format!("the archive does not support {other:?}"))),
        }
    }
}
