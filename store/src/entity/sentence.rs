//! The `sentences` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "sentences")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub source_id: i64,
    pub week_start: Date,
    pub hash: i64,
    pub first_story_id: i64,
    pub first_published_at: DateTimeUtc,
    pub shared: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
