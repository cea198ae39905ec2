//! Dedup signatures: the fuzzy-dedup signals of each story, kept so that later batches compare
//! against stored stories without computing them again.
//!
//! The bytes are `dedup`'s own format (versioned by it); the store only keeps them with the story's
//! publication time, for window queries. A story without a signature has not been deduplicated.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait, Set};

use crate::Archive;
use crate::entity::{story, story_signature};
use crate::error::{Context as _, Result};
use crate::stories::Story;

/// A stored signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The story.
    pub story_id: i64,
    /// The time the signature was computed for (the story's publication, or its archiving).
    pub published_at: Option<DateTime<Utc>>,
    /// `dedup`'s bytes.
    pub bytes: Vec<u8>,
}

/// Stores (or replaces) a story's signature.
pub async fn put(archive: &Archive, signature: &Stored) -> Result<()> {
    let row = story_signature::ActiveModel {
        story_id: Set(signature.story_id),
        published_at: Set(signature.published_at),
        signature: Set(signature.bytes.clone()),
        created_at: Set(Utc::now()),
    };
    story_signature::Entity::insert(row)
        .on_conflict(
            OnConflict::column(story_signature::Column::StoryId)
                .update_columns([
                    story_signature::Column::PublishedAt,
                    story_signature::Column::Signature,
                    story_signature::Column::CreatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&archive.db)
        .await
        .doing("storing a signature")?;
    Ok(())
}

/// Up to `limit` stories with no signature yet, after `after_id`, by id.
pub async fn missing(archive: &Archive, after_id: i64, limit: u64) -> Result<Vec<Story>> {
    let signed = story_signature::Entity::find()
        .select_only()
        .column(story_signature::Column::StoryId)
        .filter(story_signature::Column::StoryId.gt(after_id))
        .into_query();
    crate::stories::readable()
        .filter(story::Column::Id.gt(after_id))
        .filter(story::Column::Id.not_in_subquery(signed))
        .order_by_asc(story::Column::Id)
        .limit(limit)
        .all(&archive.db)
        .await
        .doing("finding stories without a signature")?
        .into_iter()
        .map(Story::try_from)
        .collect()
}

/// The signatures whose time is in `[from, to]`, by story id.
pub async fn between(
    archive: &Archive,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<Stored>> {
    Ok(story_signature::Entity::find()
        .filter(story_signature::Column::PublishedAt.gte(from))
        .filter(story_signature::Column::PublishedAt.lte(to))
        .order_by_asc(story_signature::Column::StoryId)
        .all(&archive.db)
        .await
        .doing("reading signatures")?
        .into_iter()
        .map(|row| Stored {
            story_id: row.story_id,
            published_at: row.published_at,
            bytes: row.signature,
        })
        .collect())
}

/// How many stories have a signature.
pub async fn count(archive: &Archive) -> Result<u64> {
    use sea_orm::PaginatorTrait;
    story_signature::Entity::find().count(&archive.db).await.doing("counting signatures")
}
