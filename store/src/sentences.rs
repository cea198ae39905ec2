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
        shared: Set(false),
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
    sentence::Entity::update_many()
        .col_expr(sentence::Column::Shared, Expr::value(true))
        .filter(key(sighting.source_id, sighting.week_start, sighting.hash))
        .filter(sentence::Column::FirstStoryId.ne(sighting.story_id))
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

/// What the index knows of a sentence in a source-week.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    /// The earliest-published story with it (ties: the smaller id).
    pub first_story_id: i64,
    /// When that story was published.
    pub first_published_at: DateTime<Utc>,
    /// Whether more than one story has had it.
    pub shared: bool,
}

/// All the sentences of one story, to record at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorySentences<'a> {
    /// The story's source.
    pub source_id: i64,
    /// The Monday that starts the story's ISO week, in the source's timezone.
    pub week_start: NaiveDate,
    /// The story.
    pub story_id: i64,
    /// When it was published.
    pub published_at: DateTime<Utc>,
    /// Its sentences' hashes.
    pub hashes: &'a [i64],
}

/// What recording a story's sentences changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recorded {
    /// Every sentence's holder after recording.
    pub holders: std::collections::HashMap<i64, Holder>,
    /// Stories that owned one of the sentences until now (the new story was published earlier):
    /// their searchable text must be decided again.
    pub displaced: Vec<i64>,
    /// Owners whose sentence became shared through this story (strict mode drops those too).
    pub now_shared: Vec<i64>,
}

/// Records every sentence of a story in one transaction, and says whose sentences it took over.
/// Recording a story again changes nothing.
pub async fn record_story(archive: &Archive, story: &StorySentences<'_>) -> Result<Recorded> {
    let txn = archive.begin_write().await?;
    let mut recorded = Recorded::default();
    let mut hashes: Vec<i64> = story.hashes.to_vec();
    hashes.sort_unstable();
    hashes.dedup();
    for chunk in hashes.chunks(300) {
        let rows = chunk.iter().map(|&hash| sentence::ActiveModel {
            id: NotSet,
            source_id: Set(story.source_id),
            week_start: Set(story.week_start),
            hash: Set(hash),
            first_story_id: Set(story.story_id),
            first_published_at: Set(story.published_at),
            shared: Set(false),
        });
        sentence::Entity::insert_many(rows)
            .on_conflict_do_nothing_on([
                sentence::Column::SourceId,
                sentence::Column::WeekStart,
                sentence::Column::Hash,
            ])
            .exec_without_returning(&txn)
            .await
            .doing("recording sentences")?;
        let before = sentence::Entity::find()
            .filter(sentence::Column::SourceId.eq(story.source_id))
            .filter(sentence::Column::WeekStart.eq(story.week_start))
            .filter(sentence::Column::Hash.is_in(chunk.iter().copied()))
            .all(&txn)
            .await
            .doing("reading sentences")?;
        let in_chunk = || {
            Condition::all()
                .add(sentence::Column::SourceId.eq(story.source_id))
                .add(sentence::Column::WeekStart.eq(story.week_start))
                .add(sentence::Column::Hash.is_in(chunk.iter().copied()))
        };
        // Another story has these: they are shared now.
        sentence::Entity::update_many()
            .col_expr(sentence::Column::Shared, Expr::value(true))
            .filter(in_chunk())
            .filter(sentence::Column::FirstStoryId.ne(story.story_id))
            .exec(&txn)
            .await
            .doing("recording sentences")?;
        let earlier =
            Condition::any().add(sentence::Column::FirstPublishedAt.gt(story.published_at)).add(
                Condition::all()
                    .add(sentence::Column::FirstPublishedAt.eq(story.published_at))
                    .add(sentence::Column::FirstStoryId.gt(story.story_id)),
            );
        sentence::Entity::update_many()
            .col_expr(sentence::Column::FirstStoryId, Expr::value(story.story_id))
            .col_expr(sentence::Column::FirstPublishedAt, Expr::value(story.published_at))
            .filter(in_chunk())
            .filter(earlier)
            .exec(&txn)
            .await
            .doing("recording sentences")?;
        let rank = (story.published_at, story.story_id);
        for row in before {
            let other = row.first_story_id != story.story_id;
            let theirs = (row.first_published_at, row.first_story_id);
            let holder = if other && rank < theirs {
                recorded.displaced.push(row.first_story_id);
                Holder {
                    first_story_id: story.story_id,
                    first_published_at: story.published_at,
                    shared: true,
                }
            } else {
                if other && !row.shared {
                    recorded.now_shared.push(row.first_story_id);
                }
                Holder {
                    first_story_id: row.first_story_id,
                    first_published_at: row.first_published_at,
                    shared: row.shared || other,
                }
            };
            recorded.holders.insert(row.hash, holder);
        }
    }
    txn.commit().await.doing("committing sentences")?;
    recorded.displaced.sort_unstable();
    recorded.displaced.dedup();
    recorded.now_shared.sort_unstable();
    recorded.now_shared.dedup();
    Ok(recorded)
}

/// The holders of these sentences in a source-week (absent hashes are not recorded).
pub async fn holders(
    archive: &Archive,
    source_id: i64,
    week_start: NaiveDate,
    hashes: &[i64],
) -> Result<std::collections::HashMap<i64, Holder>> {
    let mut found = std::collections::HashMap::new();
    for chunk in hashes.chunks(300) {
        let rows = sentence::Entity::find()
            .filter(sentence::Column::SourceId.eq(source_id))
            .filter(sentence::Column::WeekStart.eq(week_start))
            .filter(sentence::Column::Hash.is_in(chunk.iter().copied()))
            .all(&archive.db)
            .await
            .doing("reading sentences")?;
        for row in rows {
            let holder = Holder {
                first_story_id: row.first_story_id,
                first_published_at: row.first_published_at,
                shared: row.shared,
            };
            found.insert(row.hash, holder);
        }
    }
    Ok(found)
}

/// Forgets every sentence of a source-week, before recording its stories again (after their
/// texts changed). Returns how many were forgotten.
pub async fn clear_week(archive: &Archive, source_id: i64, week_start: NaiveDate) -> Result<u64> {
    let result = sentence::Entity::delete_many()
        .filter(sentence::Column::SourceId.eq(source_id))
        .filter(sentence::Column::WeekStart.eq(week_start))
        .exec(&archive.db)
        .await
        .doing("clearing a week's sentences")?;
    Ok(result.rows_affected)
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
