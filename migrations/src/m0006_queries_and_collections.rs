//! The query language's index and collections of sources.
//!
//! - Collections: named groups of sources (`collections`, unique by name) and which sources each
//!   holds (`collection_sources`, one row per pair, deleted with either side).
//! - PostgreSQL: the words of `stories.search_words` as a `tsvector` built from the words
//!   themselves (`array_to_tsvector`, which neither parses nor stems: each of our folded words is
//!   one lexeme), under a GIN index that answers a whole boolean query (`&`, `|`, `!`, prefixes
//!   `:*`) at once. It replaces the GIN index over the words as an array (`@>`), which could not
//!   answer prefixes. SQLite's FTS5 table (`m0002_word_search`) answers the same queries already.
//! - Both: an index on the publication day, which counts over time and date ranges read.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, big_pk_auto, text, timestamp_with_time_zone};
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Collections {
    Table,
    Id,
    Name,
    CreatedAt,
}

#[derive(DeriveIden)]
enum CollectionSources {
    Table,
    CollectionId,
    SourceId,
}

#[derive(DeriveIden)]
enum MediaSources {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Stories {
    Table,
    PublishedDay,
}

const POSTGRES_UP: &[&str] = &[
    "CREATE INDEX idx_stories_search_lexemes ON stories \
     USING gin (array_to_tsvector(string_to_array(search_words, ' ')))",
    "DROP INDEX IF EXISTS idx_stories_search_words",
];

const POSTGRES_DOWN: &[&str] = &[
    "CREATE INDEX idx_stories_search_words ON stories USING gin (string_to_array(search_words, ' '))",
    "DROP INDEX IF EXISTS idx_stories_search_lexemes",
];

fn cascade(
    column: CollectionSources,
    to: impl IntoIden + 'static,
    to_id: impl IntoIden + 'static,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(CollectionSources::Table, column)
        .to(to, to_id)
        .on_delete(ForeignKeyAction::Cascade)
        .take()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Collections::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Collections::Id))
                    .col(text(Collections::Name).unique_key())
                    .col(timestamp_with_time_zone(Collections::CreatedAt))
                    .take(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(CollectionSources::Table)
                    .if_not_exists()
                    .col(big_integer(CollectionSources::CollectionId))
                    .col(big_integer(CollectionSources::SourceId))
                    .primary_key(
                        Index::create()
                            .col(CollectionSources::CollectionId)
                            .col(CollectionSources::SourceId),
                    )
                    .foreign_key(&mut cascade(
                        CollectionSources::CollectionId,
                        Collections::Table,
                        Collections::Id,
                    ))
                    .foreign_key(&mut cascade(
                        CollectionSources::SourceId,
                        MediaSources::Table,
                        MediaSources::Id,
                    ))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_collection_sources_source")
                    .table(CollectionSources::Table)
                    .col(CollectionSources::SourceId)
                    .if_not_exists()
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_stories_day")
                    .table(Stories::Table)
                    .col(Stories::PublishedDay)
                    .if_not_exists()
                    .take(),
            )
            .await?;
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            for sql in POSTGRES_UP {
                manager.get_connection().execute_unprepared(sql).await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            for sql in POSTGRES_DOWN {
                manager.get_connection().execute_unprepared(sql).await?;
            }
        }
        manager
            .drop_index(Index::drop().name("idx_stories_day").table(Stories::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(CollectionSources::Table).if_exists().take())
            .await?;
        manager.drop_table(Table::drop().table(Collections::Table).if_exists().take()).await
    }
}
