//! Claims: leases on the work that is not a frontier entry (a source's discovery, a feed's poll,
//! the archive's dedup batch), so that one worker of many does each, and a worker that dies only
//! delays it until the lease expires.
//!
//! One row per piece of work being done, keyed by its kind (`discover`, `poll`, `dedup`) and its
//! key within the kind (a source or feed id, `archive`), with the worker that holds it and when
//! the lease expires. A claim is an `INSERT … ON CONFLICT DO NOTHING` followed by a
//! compare-and-set on an expired lease; giving it back deletes the row.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{text, timestamp_with_time_zone};

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Claims {
    Table,
    Kind,
    Key,
    Owner,
    Until,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Claims::Table)
                    .if_not_exists()
                    .col(text(Claims::Kind))
                    .col(text(Claims::Key))
                    .col(text(Claims::Owner))
                    .col(timestamp_with_time_zone(Claims::Until))
                    .primary_key(Index::create().col(Claims::Kind).col(Claims::Key))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_claims_owner")
                    .table(Claims::Table)
                    .col(Claims::Owner)
                    .if_not_exists()
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Claims::Table).if_exists().take()).await
    }
}
