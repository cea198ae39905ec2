//! The `duplicate_links` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "duplicate_links")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub story_id: i64,
    pub of_story_id: i64,
    pub method: String,
    pub score: f64,
    pub scores: String,
    pub thresholds: String,
    pub created_at: DateTimeUtc,
    pub explanation: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
