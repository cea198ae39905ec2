//! Duplicate links: "story A is a duplicate of story B", with the evidence.
//!
//! Every link records the method that found it (`title`, `near_copy`, `embedding`, …), the
//! deciding score, every score computed, and the thresholds in force, so any decision can be
//! explained and re-judged later under other thresholds.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, Set,
};

use crate::Archive;
use crate::entity::duplicate_link;
use crate::error::{Context as _, Error, Result};
use crate::json;
use crate::sources::inserted_row;
use crate::text::{self, line_owned};

/// A link to record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewLink {
    /// The later story.
    pub story_id: i64,
    /// The story it duplicates.
    pub of_story_id: i64,
    /// The method that found it, e.g. `title`.
    pub method: String,
    /// The deciding score (1.0 for exact methods).
    pub score: f64,
    /// Every score computed for the pair, by name.
    pub scores: BTreeMap<String, f64>,
    /// The thresholds in force, by name.
    pub thresholds: BTreeMap<String, f64>,
    /// Why, in words, as the method wrote it (`None` when it wrote nothing).
    pub explanation: Option<String>,
}

/// A stored link.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The archive's id.
    pub id: i64,
    /// The link as recorded.
    pub link: NewLink,
    /// When it was recorded.
    pub created_at: DateTime<Utc>,
}

impl TryFrom<duplicate_link::Model> for Link {
    type Error = Error;

    fn try_from(row: duplicate_link::Model) -> Result<Link> {
        Ok(Link {
            id: row.id,
            link: NewLink {
                story_id: row.story_id,
                of_story_id: row.of_story_id,
                method: row.method,
                score: row.score,
                scores: json::decode(&row.scores, "duplicate scores")?,
                thresholds: json::decode(&row.thresholds, "duplicate thresholds")?,
                explanation: row.explanation,
            },
            created_at: row.created_at,
        })
    }
}

/// Records a link unless the same (story, of story, method) exists. Returns the stored link and
/// whether it is new.
pub async fn link(archive: &Archive, new: &NewLink) -> Result<(Link, bool)> {
    if new.story_id == new.of_story_id {
        return Err(Error::Conflict {
            what: format!("story {} cannot duplicate itself", new.story_id),
        });
    }
    let row = duplicate_link::ActiveModel {
        id: NotSet,
        story_id: Set(new.story_id),
        of_story_id: Set(new.of_story_id),
        method: Set(line_owned(&new.method)),
        score: Set(new.score),
        scores: Set(json::encode(&new.scores)),
        thresholds: Set(json::encode(&new.thresholds)),
        created_at: Set(Utc::now()),
        explanation: Set(new.explanation.as_deref().map(line_owned)),
    };
    let result = duplicate_link::Entity::insert(row)
        .on_conflict_do_nothing_on([
            duplicate_link::Column::StoryId,
            duplicate_link::Column::OfStoryId,
            duplicate_link::Column::Method,
        ])
        .exec(&archive.db)
        .await
        .doing("recording a duplicate link")?;
    let stored = duplicate_link::Entity::find()
        .filter(duplicate_link::Column::StoryId.eq(new.story_id))
        .filter(duplicate_link::Column::OfStoryId.eq(new.of_story_id))
        .filter(duplicate_link::Column::Method.eq(text::line(&new.method).as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a duplicate link")?
        .ok_or_else(|| Error::NotFound { what: "duplicate link after recording it".to_owned() })?;
    Ok((Link::try_from(stored)?, inserted_row(&result)))
}

/// Deletes the link of (story, of story, method), if there is one: a link that a later
/// comparison judged again and dropped (dedup's link conflicts). Returns whether one was deleted.
pub async fn unlink(
    archive: &Archive,
    story_id: i64,
    of_story_id: i64,
    method: &str,
) -> Result<bool> {
    let result = duplicate_link::Entity::delete_many()
        .filter(duplicate_link::Column::StoryId.eq(story_id))
        .filter(duplicate_link::Column::OfStoryId.eq(of_story_id))
        .filter(duplicate_link::Column::Method.eq(text::line(method).as_ref()))
        .exec(&archive.db)
        .await
        .doing("deleting a duplicate link")?;
    Ok(result.rows_affected > 0)
}

/// Every link among these stories (both sides in the set) with one of these methods, in the order
/// they were recorded.
pub async fn among(archive: &Archive, story_ids: &[i64], methods: &[&str]) -> Result<Vec<Link>> {
    let mut links = Vec::new();
    let ids: std::collections::BTreeSet<i64> = story_ids.iter().copied().collect();
    for chunk in story_ids.chunks(500) {
        let rows = duplicate_link::Entity::find()
            .filter(duplicate_link::Column::StoryId.is_in(chunk.iter().copied()))
            .filter(duplicate_link::Column::Method.is_in(methods.iter().map(|m| line_owned(m))))
            .order_by_asc(duplicate_link::Column::Id)
            .all(&archive.db)
            .await
            .doing("reading duplicate links")?;
        for row in rows.into_iter().filter(|row| ids.contains(&row.of_story_id)) {
            links.push(Link::try_from(row)?);
        }
    }
    links.sort_by_key(|link| link.id);
    Ok(links)
}

/// Every link among these stories (both sides in the set), whatever its method, in the order
/// they were recorded: the links inside a cluster, say.
pub async fn within(archive: &Archive, story_ids: &[i64]) -> Result<Vec<Link>> {
    let mut links = Vec::new();
    let ids: std::collections::BTreeSet<i64> = story_ids.iter().copied().collect();
    for chunk in story_ids.chunks(500) {
        let rows = duplicate_link::Entity::find()
            .filter(duplicate_link::Column::StoryId.is_in(chunk.iter().copied()))
            .order_by_asc(duplicate_link::Column::Id)
            .all(&archive.db)
            .await
            .doing("reading duplicate links")?;
        for row in rows.into_iter().filter(|row| ids.contains(&row.of_story_id)) {
            links.push(Link::try_from(row)?);
        }
    }
    links.sort_by_key(|link| link.id);
    Ok(links)
}

/// Every link in which the story takes part, either side, in the order they were recorded.
pub async fn involving(archive: &Archive, story_id: i64) -> Result<Vec<Link>> {
    duplicate_link::Entity::find()
        .filter(
            Condition::any()
                .add(duplicate_link::Column::StoryId.eq(story_id))
                .add(duplicate_link::Column::OfStoryId.eq(story_id)),
        )
        .order_by_asc(duplicate_link::Column::Id)
        .all(&archive.db)
        .await
        .doing("reading duplicate links")?
        .into_iter()
        .map(Link::try_from)
        .collect()
}
