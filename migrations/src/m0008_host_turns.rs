//! Host turns: per-host politeness shared by every worker of an archive.
//!
//! One row per host the crawl has asked: when its next request may start (`next_at`), and while a
//! request is in flight, which worker holds the turn (`holder`) under which token (`token`). A
//! turn is claimed with a compare-and-set (`UPDATE … WHERE host = ? AND next_at <= now`) that
//! also pushes `next_at` out by the longest an exchange may take, so a worker that dies holding a
//! turn blocks the host only that long; giving the turn back sets `next_at` to the end of the
//! exchange plus the host's interval. The holder's interval for the host (`interval_ms`) is kept
//! with its claim, so that a worker taking over from a dead one of the same name knows how long
//! after the dead one's last exchange the host's next request may start.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, text, text_null, timestamp_with_time_zone};

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum HostTurns {
    Table,
    Host,
    NextAt,
    Holder,
    Token,
    IntervalMs,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(HostTurns::Table)
                    .if_not_exists()
                    .col(text(HostTurns::Host).primary_key())
                    .col(timestamp_with_time_zone(HostTurns::NextAt))
                    .col(text_null(HostTurns::Holder))
                    .col(big_integer(HostTurns::Token))
                    .col(big_integer(HostTurns::IntervalMs))
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(HostTurns::Table).if_exists().take()).await
    }
}
