//! Fetch requests: every fetch keeps the request that got its response (the protocol version of
//! the response's status line and the headers the crawler set), so an export can write the
//! request and response records an archivist's WARC file holds.
//!
//! A nullable text column on `fetches` holding a JSON document: fetches archived before it have
//! none, and their WARC export writes the response record alone.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Fetches {
    Table,
    Request,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(Fetches::Table).add_column(text_null(Fetches::Request)).take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Fetches::Table).drop_column(Fetches::Request).take())
            .await
    }
}
