//! The `feeds` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "feeds")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub source_id: i64,
    pub url: String,
    pub url_key: String,
    pub kind: String,
    pub title: Option<String>,
    pub discovered_via: String,
    pub depth: i32,
    pub update_hint_secs: Option<i64>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub body_hash: Option<String>,
    pub poll_interval_secs: i64,
    pub next_poll_at: Option<DateTimeUtc>,
    pub failure_count: f64,
    pub last_status: Option<String>,
    pub last_polled_at: Option<DateTimeUtc>,
    pub last_success_at: Option<DateTimeUtc>,
    pub last_new_item_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
