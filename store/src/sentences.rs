//! Sentences per source and week: which story first had each one.
//!
//! The key is (source, ISO week start in the source's timezone, 64-bit sentence hash). The owner
//! of a sentence is the earliest-published story that has it (ties broken by the smaller story
//! id), whatever order stories are recorded in, so re-processing converges on one answer.
//! The sentence-removal algorithm itself lives in `extractor`; this module keeps the counts.

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::NotSet, ColumnTrait, Condition, EntityTrait, QueryFilter, Set};

use crate::Archive;
use crate::entity::sentence;
use crate::error::{Context as _, Error, Result};

/// One story's sighting of a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sighting {
    /// The story's source.
    pub source_id: i64,
    /// The Monday that starts the story's ISO week, in the source's timezone.
    pub week_start: NaiveDate,
    /// The sentence's 64-bit hash.
    pub hash: i64,
    /// The story.
    pub story_id: i64,
    /// When the story was published.
    pub published_at: DateTime<Utc>,
}

/// The story that owns a sentence in its source-week.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    /// The earliest-published story with the sentence.
    pub story_id: i64,
    /// When it was published.
    pub published_at: DateTime<Utc>,
}

/// Records a sighting and returns the sentence's owner after it.
pub async fn record(archive: &Archive, sighting: &Sighting) -> Result<Owner> {
    let row = sentence::ActiveModel {
        id: NotSet,
        source_id: Set(sighting.source_id),
        week_start: Set(sighting.week_start),
        hash: Set(sighting.hash),
        first_story_id: Set(sighting.story_id),
        first_published_at: Set(sighting.published_at),
    };
    sentence::Entity::insert(row)
        .on_conflict_do_nothing_on([
            sentence::Column::SourceId,
            sentence::Column::WeekStart,
            sentence::Column::Hash,
        ])
        .exec(&archive.db)
        .await
        .doing("recording a sentence")?;
    // One conditional statement, so concurrent workers cannot interleave a read and a write.
    let earlier =
        Condition::any().add(sentence::Column::FirstPublishedAt.gt(sighting.published_at)).add(
            Condition::all()
                .add(sentence::Column::FirstPublishedAt.eq(sighting.published_at))
                .add(sentence::Column::FirstStoryId.gt(sighting.story_id)),
        );
    sentence::Entity::update_many()
        .col_expr(sentence::Column::FirstStoryId, Expr::value(sighting.story_id))
        .col_expr(sentence::Column::FirstPublishedAt, Expr::value(sighting.published_at))
        .filter(key(sighting.source_id, sighting.week_start, sighting.hash))
        .filter(earlier)
        .exec(&archive.db)
        .await
        .doing("recording a sentence")?;
    owner(archive, sighting.source_id, sighting.week_start, sighting.hash).await?.ok_or_else(|| {
        Error::NotFound { what: format!("sentence {} after recording it", sighting.hash) }
    })
}

fn key(source_id: i64, week_start: NaiveDate, hash: i64) -> Condition {
    Condition::all()
        .add(sentence::Column::SourceId.eq(source_id))
        .add(sentence::Column::WeekStart.eq(week_start))
        .add(sentence::Column::Hash.eq(hash))
}

/// The owner of a sentence in a source-week, if any story has it.
pub async fn owner(
    archive: &Archive,
    source_id: i64,
    week_start: NaiveDate,
    hash: i64,
) -> Result<Option<Owner>> {
    Ok(sentence::Entity::find()
        .filter(key(source_id, week_start, hash))
        .one(&archive.db)
        .await
        .doing("reading a sentence")?
        .map(|row| Owner { story_id: row.first_story_id, published_at: row.first_published_at }))
}
