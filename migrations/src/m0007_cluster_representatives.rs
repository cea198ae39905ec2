//! Which story represents each story's cluster, on the story itself, where the index can use it.
//!
//! `stories.cluster_representative` is the representative of the story's cluster (the story
//! itself for the representative), `NULL` for a story in no cluster, written by `store` whenever
//! clusters change. The deduplicated view is then a condition on the row
//! (`cluster_representative IS NULL OR cluster_representative = id`), so folded pages read only
//! what they return, and counts fold copies with `COUNT(DISTINCT COALESCE(cluster_representative,
//! id))`. This migration fills it for the clusters already stored.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::big_integer_null;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Stories {
    Table,
    ClusterRepresentative,
}

const FILL: &str = "UPDATE stories SET cluster_representative = \
     (SELECT story_clusters.representative_story_id FROM cluster_members \
      JOIN story_clusters ON story_clusters.id = cluster_members.cluster_id \
      WHERE cluster_members.story_id = stories.id) \
     WHERE id IN (SELECT story_id FROM cluster_members)";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Stories::Table)
                    .add_column(big_integer_null(Stories::ClusterRepresentative))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_stories_cluster_representative")
                    .table(Stories::Table)
                    .col(Stories::ClusterRepresentative)
                    .if_not_exists()
                    .take(),
            )
            .await?;
        manager.get_connection().execute_unprepared(FILL).await.map(|_| ())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_stories_cluster_representative")
                    .table(Stories::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Stories::Table)
                    .drop_column(Stories::ClusterRepresentative)
                    .take(),
            )
            .await
    }
}
