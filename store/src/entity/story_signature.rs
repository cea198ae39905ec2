//! The `story_signatures` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "story_signatures")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub story_id: i64,
    pub published_at: Option<DateTimeUtc>,
    pub signature: Vec<u8>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
