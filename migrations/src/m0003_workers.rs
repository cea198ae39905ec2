//! Workers and their heartbeats: which crawl processes are alive, so that the leases of a dead one
//! are freed by the age of its last heartbeat rather than by looking for its process.
//!
//! One row per running worker, keyed by its name (the name its leases carry in
//! `frontier.lease_owner`), with the machine and process it runs as, when it started and when it
//! last said it was alive.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, text, timestamp_with_time_zone};

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Workers {
    Table,
    Name,
    Host,
    Pid,
    StartedAt,
    HeartbeatAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Workers::Table)
                    .if_not_exists()
                    .col(text(Workers::Name).primary_key())
                    .col(text(Workers::Host))
                    .col(big_integer(Workers::Pid))
                    .col(timestamp_with_time_zone(Workers::StartedAt))
                    .col(timestamp_with_time_zone(Workers::HeartbeatAt))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_workers_heartbeat")
                    .table(Workers::Table)
                    .col(Workers::HeartbeatAt)
                    .if_not_exists()
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Workers::Table).if_exists().take()).await
    }
}
