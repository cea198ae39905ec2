//! Link explanations: every duplicate link keeps, in words, why it was made (the rule, its
//! scores, how the two stories' names and numbers agreed), as `dedup` wrote it.
//!
//! A nullable text column on `duplicate_links`: links recorded before it (and links of methods
//! that have nothing to explain, such as an exact title match) have none.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;

#[derive(DeriveMigrationName)]
pub(crate) struct Migration;

#[derive(DeriveIden)]
enum DuplicateLinks {
    Table,
    Explanation,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(DuplicateLinks::Table)
                    .add_column(text_null(DuplicateLinks::Explanation))
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(DuplicateLinks::Table)
                    .drop_column(DuplicateLinks::Explanation)
                    .take(),
            )
            .await
    }
}
