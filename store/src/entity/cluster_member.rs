//! The `cluster_members` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "cluster_members")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub story_id: i64,
    pub cluster_id: i64,
    pub relation: Option<String>,
    pub score: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
