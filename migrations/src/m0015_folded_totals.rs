//! Folded totals kept, and (SQLite) each story's facts in a narrow table of their own.
//!
//! `cluster_periods` holds, per kind of period (`day`, `week` from Monday, `month`), period start
//! and cluster (named by its representative), how many of the cluster's stories were published in
//! that period; `period_clusters` holds, per kind and start, how many clusters have a story in
//! the period: the distinct clusters of every source's clustered stories, which counts over time
//! added up from the clustered stories themselves before (hundreds of thousands of index entries
//! a year at a million stories). Triggers on `stories` keep `cluster_periods` (insert, delete,
//! and an update of the day or the cluster), and triggers on `cluster_periods` keep
//! `period_clusters` (a row inserted or deleted), on both backends. Stories without a
//! publication day or in no cluster are not in them (`story_days` of `m0014_story_days` counts
//! the stories in no cluster).
//!
//! On SQLite, `story_facts` holds what counts and top sources read of every story (its source,
//! day, cluster representative and language) by the story's id as its rowid, kept by triggers:
//! counts look each matching story up there by its id, a rowid lookup in rows of a few bytes,
//! cheaper than a lookup in the covering index `idx_stories_facts` of `m0012_phrase_pairs`. That
//! index stays: pages of stories (`id IN (...)` with days and the deduplicated view) test each
//! candidate's day and cluster in it before reading the story's wide row.
//! PostgreSQL reads the same columns from the stories' own narrow rows (`m0014_story_days`).
//!
//! The migration fills the tables from the stories already stored.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const PERIODS: &str = "CREATE TABLE cluster_periods (kind text NOT NULL, \
     period_start date NOT NULL, representative bigint NOT NULL, stories bigint NOT NULL, \
     PRIMARY KEY (kind, period_start, representative))";
const PERIOD_CLUSTERS: &str = "CREATE TABLE period_clusters (kind text NOT NULL, \
     period_start date NOT NULL, clusters bigint NOT NULL, PRIMARY KEY (kind, period_start))";
/// Filled after `cluster_periods`, before the triggers on it exist.
const PERIOD_CLUSTERS_BACKFILL: &str = "INSERT INTO period_clusters (kind, period_start, clusters) \
     SELECT kind, period_start, COUNT(*) FROM cluster_periods GROUP BY kind, period_start";

/// The kinds of period and, for a story row (`new`, `old` or `stories`), the start of its period
/// of that kind, on SQLite.
fn sqlite_starts(row: &str) -> [(&'static str, String); 3] {
    let day = format!("{row}.published_day");
    [
        ("day", format!("date({day})")),
        (
            "week",
            format!(
                "date({day}, '-' || ((CAST(strftime('%w', {day}) AS INTEGER) + 6) % 7) || ' days')"
            ),
        ),
        ("month", format!("strftime('%Y-%m-01', {day})")),
    ]
}

/// The same on PostgreSQL (timestamps without time zone, so the session's zone plays no part).
fn postgres_starts(row: &str) -> [(&'static str, String); 3] {
    let day = format!("{row}.published_day");
    [
        ("day", day.clone()),
        ("week", format!("CAST(date_trunc('week', CAST({day} AS timestamp)) AS date)")),
        ("month", format!("CAST(date_trunc('month', CAST({day} AS timestamp)) AS date)")),
    ]
}

/// Fills `cluster_periods` from the stories already stored.
fn periods_backfill(starts: [(&'static str, String); 3]) -> Vec<String> {
    starts
        .into_iter()
        .map(|(kind, start)| {
            format!(
                "INSERT INTO cluster_periods (kind, period_start, representative, stories) \
                 SELECT '{kind}', {start}, cluster_representative, COUNT(*) FROM stories \
                 WHERE published_day IS NOT NULL AND cluster_representative IS NOT NULL \
                 GROUP BY {start}, cluster_representative"
            )
        })
        .collect()
}

/// SQLite: the statements of a trigger body that count the story `row` (`new`) in, or (`old`)
/// out of, its cluster's periods; nothing when it has no day or no cluster.
fn sqlite_follow(row: &str) -> String {
    let rep = format!("{row}.cluster_representative");
    let known = format!("{row}.published_day IS NOT NULL AND {rep} IS NOT NULL");
    let mut body = String::new();
    for (kind, start) in sqlite_starts(row) {
        if row == "new" {
            body.push_str(&format!(
                "INSERT INTO cluster_periods (kind, period_start, representative, stories) \
                 SELECT '{kind}', {start}, {rep}, 1 WHERE {known} \
                 ON CONFLICT (kind, period_start, representative) \
                 DO UPDATE SET stories = stories + 1; "
            ));
        } else {
            let key =
                format!("kind = '{kind}' AND period_start = {start} AND representative = {rep}");
            body.push_str(&format!(
                "UPDATE cluster_periods SET stories = stories - 1 WHERE {known} AND {key}; \
                 DELETE FROM cluster_periods WHERE {known} AND {key} AND stories <= 0; "
            ));
        }
    }
    body
}

fn sqlite_up() -> Vec<String> {
    let mut up =
        vec![format!("{PERIODS} WITHOUT ROWID"), format!("{PERIOD_CLUSTERS} WITHOUT ROWID")];
    up.extend(periods_backfill(sqlite_starts("stories")));
    up.push(PERIOD_CLUSTERS_BACKFILL.to_owned());
    up.extend([
        "CREATE TRIGGER period_clusters_insert AFTER INSERT ON cluster_periods BEGIN \
         INSERT INTO period_clusters (kind, period_start, clusters) \
         VALUES (new.kind, new.period_start, 1) \
         ON CONFLICT (kind, period_start) DO UPDATE SET clusters = clusters + 1; END"
            .to_owned(),
        "CREATE TRIGGER period_clusters_delete AFTER DELETE ON cluster_periods BEGIN \
         UPDATE period_clusters SET clusters = clusters - 1 \
         WHERE kind = old.kind AND period_start = old.period_start; \
         DELETE FROM period_clusters WHERE kind = old.kind AND period_start = old.period_start \
         AND clusters <= 0; END"
            .to_owned(),
        format!(
            "CREATE TRIGGER cluster_periods_insert AFTER INSERT ON stories BEGIN {} END",
            sqlite_follow("new")
        ),
        format!(
            "CREATE TRIGGER cluster_periods_delete AFTER DELETE ON stories BEGIN {} END",
            sqlite_follow("old")
        ),
        // One trigger: the old periods lose the story before the new ones gain it.
        format!(
            "CREATE TRIGGER cluster_periods_update \
             AFTER UPDATE OF published_day, cluster_representative ON stories \
             WHEN old.published_day IS NOT new.published_day \
             OR old.cluster_representative IS NOT new.cluster_representative BEGIN {} {} END",
            sqlite_follow("old"),
            sqlite_follow("new")
        ),
        // The facts, by story id.
        "CREATE TABLE story_facts (id INTEGER PRIMARY KEY, source_id bigint NOT NULL, \
         published_day text, cluster_representative bigint, language text)"
            .to_owned(),
        "INSERT INTO story_facts (id, source_id, published_day, cluster_representative, language) \
         SELECT id, source_id, published_day, cluster_representative, language FROM stories"
            .to_owned(),
        "CREATE TRIGGER story_facts_insert AFTER INSERT ON stories BEGIN \
         INSERT INTO story_facts (id, source_id, published_day, cluster_representative, language) \
         VALUES (new.id, new.source_id, new.published_day, new.cluster_representative, \
         new.language); END"
            .to_owned(),
        "CREATE TRIGGER story_facts_update \
         AFTER UPDATE OF source_id, published_day, cluster_representative, language ON stories \
         BEGIN UPDATE story_facts SET source_id = new.source_id, \
         published_day = new.published_day, cluster_representative = new.cluster_representative, \
         language = new.language WHERE id = new.id; END"
            .to_owned(),
        "CREATE TRIGGER story_facts_delete AFTER DELETE ON stories BEGIN \
         DELETE FROM story_facts WHERE id = old.id; END"
            .to_owned(),
    ]);
    up
}

const SQLITE_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS story_facts_delete",
    "DROP TRIGGER IF EXISTS story_facts_update",
    "DROP TRIGGER IF EXISTS story_facts_insert",
    "DROP TABLE IF EXISTS story_facts",
    "DROP TRIGGER IF EXISTS cluster_periods_update",
    "DROP TRIGGER IF EXISTS cluster_periods_delete",
    "DROP TRIGGER IF EXISTS cluster_periods_insert",
    "DROP TRIGGER IF EXISTS period_clusters_delete",
    "DROP TRIGGER IF EXISTS period_clusters_insert",
    "DROP TABLE IF EXISTS period_clusters",
    "DROP TABLE IF EXISTS cluster_periods",
];

/// PostgreSQL: the statements of the trigger function that count `OLD` out of, or `NEW` into,
/// its cluster's periods.
fn postgres_follow(row: &str) -> String {
    let rep = format!("{row}.cluster_representative");
    let mut body = String::new();
    for (kind, start) in postgres_starts(row) {
        if row == "NEW" {
            body.push_str(&format!(
                "INSERT INTO cluster_periods AS p (kind, period_start, representative, stories) \
                 VALUES ('{kind}', {start}, {rep}, 1) \
                 ON CONFLICT (kind, period_start, representative) \
                 DO UPDATE SET stories = p.stories + 1; "
            ));
        } else {
            let key =
                format!("kind = '{kind}' AND period_start = {start} AND representative = {rep}");
            body.push_str(&format!(
                "UPDATE cluster_periods SET stories = stories - 1 WHERE {key}; \
                 DELETE FROM cluster_periods WHERE {key} AND stories <= 0; "
            ));
        }
    }
    body
}

fn postgres_up() -> Vec<String> {
    let mut up = vec![PERIODS.to_owned(), PERIOD_CLUSTERS.to_owned()];
    up.extend(periods_backfill(postgres_starts("stories")));
    up.push(PERIOD_CLUSTERS_BACKFILL.to_owned());
    up.extend([
        "CREATE FUNCTION period_clusters_follow() RETURNS trigger LANGUAGE plpgsql AS $$ \
         BEGIN \
           IF TG_OP = 'INSERT' THEN \
             INSERT INTO period_clusters AS c (kind, period_start, clusters) \
               VALUES (NEW.kind, NEW.period_start, 1) \
               ON CONFLICT (kind, period_start) DO UPDATE SET clusters = c.clusters + 1; \
           ELSE \
             UPDATE period_clusters SET clusters = clusters - 1 \
               WHERE kind = OLD.kind AND period_start = OLD.period_start; \
             DELETE FROM period_clusters WHERE kind = OLD.kind \
               AND period_start = OLD.period_start AND clusters <= 0; \
           END IF; \
           RETURN NULL; \
         END $$"
            .to_owned(),
        "CREATE TRIGGER period_clusters_follow AFTER INSERT OR DELETE ON cluster_periods \
         FOR EACH ROW EXECUTE FUNCTION period_clusters_follow()"
            .to_owned(),
        format!(
            "CREATE FUNCTION cluster_periods_follow() RETURNS trigger LANGUAGE plpgsql AS $$ \
             BEGIN \
               IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.published_day IS NOT NULL \
                 AND OLD.cluster_representative IS NOT NULL THEN {} END IF; \
               IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.published_day IS NOT NULL \
                 AND NEW.cluster_representative IS NOT NULL THEN {} END IF; \
               RETURN NULL; \
             END $$",
            postgres_follow("OLD"),
            postgres_follow("NEW")
        ),
        "CREATE TRIGGER cluster_periods_insert_delete AFTER INSERT OR DELETE ON stories \
         FOR EACH ROW EXECUTE FUNCTION cluster_periods_follow()"
            .to_owned(),
        "CREATE TRIGGER cluster_periods_update \
         AFTER UPDATE OF published_day, cluster_representative ON stories FOR EACH ROW \
         WHEN (OLD.published_day IS DISTINCT FROM NEW.published_day \
           OR OLD.cluster_representative IS DISTINCT FROM NEW.cluster_representative) \
         EXECUTE FUNCTION cluster_periods_follow()"
            .to_owned(),
    ]);
    up
}

const POSTGRES_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS cluster_periods_update ON stories",
    "DROP TRIGGER IF EXISTS cluster_periods_insert_delete ON stories",
    "DROP FUNCTION IF EXISTS cluster_periods_follow()",
    "DROP TRIGGER IF EXISTS period_clusters_follow ON cluster_periods",
    "DROP FUNCTION IF EXISTS period_clusters_follow()",
    "DROP TABLE IF EXISTS period_clusters",
    "DROP TABLE IF EXISTS cluster_periods",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DatabaseBackend::Sqlite => crate::execute(manager, &sqlite_up()).await,
            DatabaseBackend::Postgres => crate::execute(manager, &postgres_up()).await,
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
