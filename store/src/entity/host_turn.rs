//! The `host_turns` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "host_turns")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub host: String,
    pub next_at: DateTimeUtc,
    pub holder: Option<String>,
    pub token: i64,
    pub interval_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
