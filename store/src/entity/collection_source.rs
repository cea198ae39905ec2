//! The `collection_sources` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "collection_sources")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub collection_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub source_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
