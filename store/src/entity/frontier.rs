//! The `frontier` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "frontier")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub url: String,
    pub lossy_url: String,
    pub host: String,
    pub source_id: i64,
    pub feed_id: Option<i64>,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    pub lease_owner: Option<String>,
    pub lease_until: Option<DateTimeUtc>,
    pub discovered_at: DateTimeUtc,
    pub hint_published_at: Option<DateTimeUtc>,
    pub hint_title: Option<String>,
    pub hint_meta: Option<String>,
    pub last_error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
