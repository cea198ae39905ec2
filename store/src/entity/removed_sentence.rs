//! The `removed_sentences` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "removed_sentences")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub story_id: i64,
    pub position: i32,
    pub sentence: String,
    pub owner_story_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
