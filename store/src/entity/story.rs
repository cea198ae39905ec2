//! The `stories` table.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "stories")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub source_id: i64,
    pub fetch_id: Option<i64>,
    pub url: String,
    pub lossy_url: String,
    pub canonical_url: Option<String>,
    pub title: Option<String>,
    pub normalized_title: Option<String>,
    pub text: String,
    pub searchable_text: Option<String>,
    pub search_words: Option<String>,
    pub search_pairs: Option<String>,
    pub language: Option<String>,
    pub authors: String,
    pub published_at: Option<DateTimeUtc>,
    pub published_day: Option<Date>,
    pub provenance: String,
    pub extractor_version: String,
    pub created_at: DateTimeUtc,
    pub cluster_representative: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
