//! On PostgreSQL, each story's index terms are also kept in a narrow table of their own,
//! `story_terms (story_id, terms)`, with a GIN index of its own; nothing changes on SQLite.
//!
//! Counts and top sources of a query, with the stories' facts kept in memory, need only the ids
//! of its matches. Listed from the GIN index over `stories.search_terms` (`m0014_story_days`),
//! each match's row of `stories` is visited to check that it is visible: for a common word at a
//! million stories all of the table's ~38,000 pages, wide rows, copied into shared buffers on
//! every call at the server's default settings (docs/research.md, stops 41 and 43). In
//! `story_terms` a row is an id and a pointer to its terms in TOAST (`toast_tuple_target = 128`):
//! the same ids come from ~7,000 pages (57 MiB at a million), which stay in shared buffers.
//!
//! The terms stay in `stories` too, with their index, for everything else: a page of stories, a
//! sample of top words and the counts in SQL combine the word index with the stories' own
//! columns and indexes (days, ids, clusters) on one heap; moved to `story_terms` alone (tried in
//! stop 43), they were joined back to `stories` and the word query over 30 days went from 22–99 to
//! 99–450 ms p95, PostgreSQL filtering candidates by terms it reads from TOAST, a cost its
//! planner does not count. The price is the terms kept twice (about 7 GiB more at a million
//! stories: 4.9 GiB of TOAST and 2.2 GiB of index).
//!
//! Triggers on `stories` keep the table: a story inserted or whose words or pairs change gets
//! its terms (the expression of `stories.search_terms`: its words and pairs as one `tsvector`, no
//! parser); words and pairs cleared (NULL) or the story deleted remove them. The migration copies
//! the stored column and builds the index. Down drops the table, its triggers and function.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

const POSTGRES_UP: &[&str] = &[
    "CREATE TABLE story_terms (story_id bigint PRIMARY KEY, terms tsvector NOT NULL) \
     WITH (toast_tuple_target = 128)",
    "CREATE FUNCTION story_terms_follow() RETURNS trigger LANGUAGE plpgsql AS $$ \
     DECLARE terms tsvector; \
     BEGIN \
       IF TG_OP = 'DELETE' THEN \
         DELETE FROM story_terms WHERE story_id = OLD.id; \
         RETURN NULL; \
       END IF; \
       terms := array_to_tsvector(array_cat(string_to_array(NEW.search_words, ' '), \
         string_to_array(NEW.search_pairs, ' '))); \
       IF terms IS NULL THEN \
         DELETE FROM story_terms WHERE story_id = NEW.id; \
       ELSE \
         INSERT INTO story_terms (story_id, terms) VALUES (NEW.id, terms) \
         ON CONFLICT (story_id) DO UPDATE SET terms = EXCLUDED.terms; \
       END IF; \
       RETURN NULL; \
     END $$",
    "CREATE TRIGGER story_terms_insert_delete AFTER INSERT OR DELETE ON stories \
     FOR EACH ROW EXECUTE FUNCTION story_terms_follow()",
    "CREATE TRIGGER story_terms_update AFTER UPDATE OF search_words, search_pairs ON stories \
     FOR EACH ROW WHEN (OLD.search_words IS DISTINCT FROM NEW.search_words \
       OR OLD.search_pairs IS DISTINCT FROM NEW.search_pairs) \
     EXECUTE FUNCTION story_terms_follow()",
    "INSERT INTO story_terms (story_id, terms) \
     SELECT id, search_terms FROM stories WHERE search_terms IS NOT NULL ORDER BY id \
     ON CONFLICT (story_id) DO NOTHING",
    "CREATE INDEX idx_story_terms ON story_terms USING gin (terms)",
    "ANALYZE story_terms",
];

const POSTGRES_DOWN: &[&str] = &[
    "DROP TRIGGER IF EXISTS story_terms_update ON stories",
    "DROP TRIGGER IF EXISTS story_terms_insert_delete ON stories",
    "DROP FUNCTION IF EXISTS story_terms_follow()",
    "DROP TABLE IF EXISTS story_terms",
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
