//! Fetches by page: each fetch keeps the lossy key of the URL that answered, indexed, so that a
//! page fetched once (during discovery, at the end of another URL's redirect chain, or by a worker
//! killed before it stored the story) is found and used as the article's fetch rather than
//! requested again.
//!
//! A nullable text column on `fetches`: fetches archived before it have none and are never reused.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum Fetches {
    Table,
    LossyUrl,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Fetches::Table)
                    .add_column(text_null(Fetches::LossyUrl))
                    .take(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_fetches_lossy_url")
                    .table(Fetches::Table)
                    .col(Fetches::LossyUrl)
                    .if_not_exists()
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop().name("idx_fetches_lossy_url").table(Fetches::Table).to_owned(),
            )
            .await?;
        manager
            .alter_table(Table::alter().table(Fetches::Table).drop_column(Fetches::LossyUrl).take())
            .await
    }
}
