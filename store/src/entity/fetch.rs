//! The `fetches` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "fetches")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub frontier_id: Option<i64>,
    pub feed_id: Option<i64>,
    pub requested_url: String,
    pub final_url: String,
    pub redirect_chain: String,
    pub status: Option<i32>,
    pub headers: String,
    pub content_type: Option<String>,
    pub body: Option<Vec<u8>>,
    pub body_encoding: String,
    pub body_len: i64,
    pub body_sha256: Option<String>,
    pub error: Option<String>,
    pub started_at: DateTimeUtc,
    pub first_byte_ms: Option<i64>,
    pub total_ms: Option<i64>,
    pub request: Option<String>,
    pub lossy_url: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
