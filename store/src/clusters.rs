//! Story clusters: stories about one event, with a representative.
//!
//! A story belongs to at most one cluster. Putting it in another moves it; a cluster left without
//! members is deleted. Every change also writes `stories.cluster_representative` of the stories it
//! touches (their cluster's representative, as the cluster tables say), which the deduplicated
//! view and folded counts read.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use crate::Archive;
use crate::entity::{cluster_member, story, story_cluster};
use crate::error::{Context as _, Error, Result};

/// A story's place in a cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The story.
    pub story_id: i64,
    /// How it relates to the representative (`duplicate`, `similar`); `None` for the
    /// representative itself.
    pub relation: Option<String>,
    /// Its score against the representative.
    pub score: Option<f64>,
}

/// A stored cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// The archive's id.
    pub id: i64,
    /// The story that stands for the cluster.
    pub representative_story_id: i64,
    /// The members, by story id (the representative included).
    pub members: Vec<Member>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When its membership last changed.
    pub updated_at: DateTime<Utc>,
}

/// Creates a cluster with these members (the representative is added if missing).
pub async fn create(archive: &Archive, representative: i64, members: &[Member]) -> Result<Cluster> {
    let txn = archive.begin_write().await?;
    let now = Utc::now();
    let row = story_cluster::ActiveModel {
        id: NotSet,
        representative_story_id: Set(representative),
        created_at: Set(now),
        updated_at: Set(now),
    };
    let id = story_cluster::Entity::insert(row)
        .exec(&txn)
        .await
        .doing("creating a cluster")?
        .last_insert_id;
    put_members(&txn, id, representative, members).await?;
    txn.commit().await.doing("committing a cluster")?;
    get(archive, id).await
}

/// Creates many clusters at once, in one transaction: for bulk loads (`morgue bench archive`).
/// Each is a representative and its other members; none of the stories may be in a cluster
/// already, nor in two of `clusters` ([`Error::Conflict`], and nothing is written). Returns the
/// new clusters' ids, in order.
pub async fn create_many(archive: &Archive, clusters: &[(i64, Vec<Member>)]) -> Result<Vec<i64>> {
    let mut story_ids = Vec::new();
    for (representative, members) in clusters {
        story_ids.push(*representative);
        story_ids.extend(members.iter().map(|m| m.story_id).filter(|id| id != representative));
    }
    let mut unique = BTreeSet::new();
    if let Some(twice) = story_ids.iter().find(|&&id| !unique.insert(id)) {
        return Err(Error::Conflict { what: format!("story {twice} is in two new clusters") });
    }
    let txn = archive.begin_write().await?;
    for chunk in story_ids.chunks(500) {
        let clustered: Option<i64> = cluster_member::Entity::find()
            .select_only()
            .column(cluster_member::Column::StoryId)
            .filter(cluster_member::Column::StoryId.is_in(chunk.iter().copied()))
            .into_tuple()
            .one(&txn)
            .await
            .doing("reading cluster members")?;
        if let Some(story_id) = clustered {
            return Err(Error::Conflict { what: format!("story {story_id} is in a cluster") });
        }
    }
    let now = Utc::now();
    let mut ids = Vec::with_capacity(clusters.len());
    let mut rows = Vec::new();
    for (representative, members) in clusters {
        let row = story_cluster::ActiveModel {
            id: NotSet,
            representative_story_id: Set(*representative),
            created_at: Set(now),
            updated_at: Set(now),
        };
        let id = story_cluster::Entity::insert(row)
            .exec(&txn)
            .await
            .doing("creating a cluster")?
            .last_insert_id;
        ids.push(id);
        rows.push(cluster_member::ActiveModel {
            story_id: Set(*representative),
            cluster_id: Set(id),
            relation: Set(None),
            score: Set(None),
        });
        for member in members.iter().filter(|m| m.story_id != *representative) {
            rows.push(cluster_member::ActiveModel {
                story_id: Set(member.story_id),
                cluster_id: Set(id),
                relation: Set(crate::text::line_opt(member.relation.as_deref())),
                score: Set(member.score),
            });
        }
    }
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        cluster_member::Entity::insert_many(rows.by_ref().take(500))
            .exec_without_returning(&txn)
            .await
            .doing("adding cluster members")?;
    }
    write_representatives(&txn, &story_ids).await?;
    txn.commit().await.doing("committing clusters")?;
    Ok(ids)
}

/// Replaces a cluster's representative and members.
pub async fn replace(
    archive: &Archive,
    id: i64,
    representative: i64,
    members: &[Member],
) -> Result<Cluster> {
    let txn = archive.begin_write().await?;
    let updated = story_cluster::Entity::update_many()
        .col_expr(story_cluster::Column::RepresentativeStoryId, Expr::value(representative))
        .col_expr(story_cluster::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(story_cluster::Column::Id.eq(id))
        .exec(&txn)
        .await
        .doing("updating a cluster")?;
    if updated.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("cluster {id}") });
    }
    let before: Vec<i64> = cluster_member::Entity::find()
        .select_only()
        .column(cluster_member::Column::StoryId)
        .filter(cluster_member::Column::ClusterId.eq(id))
        .into_tuple()
        .all(&txn)
        .await
        .doing("reading cluster members")?;
    cluster_member::Entity::delete_many()
        .filter(cluster_member::Column::ClusterId.eq(id))
        .exec(&txn)
        .await
        .doing("updating cluster members")?;
    put_members(&txn, id, representative, members).await?;
    write_representatives(&txn, &before).await?;
    txn.commit().await.doing("committing a cluster")?;
    get(archive, id).await
}

/// Writes `stories.cluster_representative` of these stories from the cluster tables.
async fn write_representatives(db: &impl ConnectionTrait, story_ids: &[i64]) -> Result<()> {
    for ids in story_ids.chunks(500) {
        story::Entity::update_many()
            .col_expr(
                story::Column::ClusterRepresentative,
                Expr::cust(
                    "(SELECT story_clusters.representative_story_id FROM cluster_members \
                     JOIN story_clusters ON story_clusters.id = cluster_members.cluster_id \
                     WHERE cluster_members.story_id = stories.id)",
                ),
            )
            .filter(story::Column::Id.is_in(ids.iter().copied()))
            .exec(db)
            .await
            .doing("writing stories' cluster representatives")?;
    }
    Ok(())
}

async fn put_members(
    db: &impl ConnectionTrait,
    id: i64,
    representative: i64,
    members: &[Member],
) -> Result<()> {
    let mut all: Vec<Member> = members.to_vec();
    if !all.iter().any(|member| member.story_id == representative) {
        all.push(Member { story_id: representative, relation: None, score: None });
    }
    let story_ids: Vec<i64> = all.iter().map(|member| member.story_id).collect();
    // Clusters the members leave are deleted if that empties them.
    let left: BTreeSet<i64> = cluster_member::Entity::find()
        .filter(cluster_member::Column::StoryId.is_in(story_ids))
        .all(db)
        .await
        .doing("reading cluster members")?
        .into_iter()
        .map(|row| row.cluster_id)
        .collect();
    for member in &all {
        let row = cluster_member::ActiveModel {
            story_id: Set(member.story_id),
            cluster_id: Set(id),
            relation: Set(crate::text::line_opt(member.relation.as_deref())),
            score: Set(member.score),
        };
        cluster_member::Entity::insert(row)
            .on_conflict(
                OnConflict::column(cluster_member::Column::StoryId)
                    .update_columns([
                        cluster_member::Column::ClusterId,
                        cluster_member::Column::Relation,
                        cluster_member::Column::Score,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await
            .doing("adding a cluster member")?;
    }
    for cluster_id in left.into_iter().filter(|&cluster_id| cluster_id != id) {
        let remaining = cluster_member::Entity::find()
            .filter(cluster_member::Column::ClusterId.eq(cluster_id))
            .count(db)
            .await
            .doing("counting cluster members")?;
        if remaining == 0 {
            story_cluster::Entity::delete_by_id(cluster_id)
                .exec(db)
                .await
                .doing("deleting an empty cluster")?;
        }
    }
    let story_ids: Vec<i64> = all.iter().map(|member| member.story_id).collect();
    write_representatives(db, &story_ids).await
}

/// The cluster with this id, members included.
pub async fn get(archive: &Archive, id: i64) -> Result<Cluster> {
    let row = story_cluster::Entity::find_by_id(id)
        .one(&archive.db)
        .await
        .doing("reading a cluster")?
        .ok_or_else(|| Error::NotFound { what: format!("cluster {id}") })?;
    let members = cluster_member::Entity::find()
        .filter(cluster_member::Column::ClusterId.eq(id))
        .order_by_asc(cluster_member::Column::StoryId)
        .all(&archive.db)
        .await
        .doing("reading cluster members")?
        .into_iter()
        .map(|member| Member {
            story_id: member.story_id,
            relation: member.relation,
            score: member.score,
        })
        .collect();
    Ok(Cluster {
        id: row.id,
        representative_story_id: row.representative_story_id,
        members,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// Takes a story out of its cluster, if it is in one; a cluster left with fewer than two members
/// is deleted.
pub async fn remove_story(archive: &Archive, story_id: i64) -> Result<()> {
    let txn = archive.begin_write().await?;
    let member = cluster_member::Entity::find_by_id(story_id)
        .one(&txn)
        .await
        .doing("reading a cluster member")?;
    if let Some(member) = member {
        let mut touched: Vec<i64> = cluster_member::Entity::find()
            .select_only()
            .column(cluster_member::Column::StoryId)
            .filter(cluster_member::Column::ClusterId.eq(member.cluster_id))
            .into_tuple()
            .all(&txn)
            .await
            .doing("reading cluster members")?;
        touched.push(story_id);
        cluster_member::Entity::delete_by_id(story_id)
            .exec(&txn)
            .await
            .doing("removing a cluster member")?;
        let remaining = cluster_member::Entity::find()
            .filter(cluster_member::Column::ClusterId.eq(member.cluster_id))
            .count(&txn)
            .await
            .doing("counting cluster members")?;
        if remaining < 2 {
            cluster_member::Entity::delete_many()
                .filter(cluster_member::Column::ClusterId.eq(member.cluster_id))
                .exec(&txn)
                .await
                .doing("removing cluster members")?;
            story_cluster::Entity::delete_by_id(member.cluster_id)
                .exec(&txn)
                .await
                .doing("deleting a cluster")?;
        }
        write_representatives(&txn, &touched).await?;
    }
    txn.commit().await.doing("committing a cluster change")?;
    Ok(())
}

/// How many clusters the archive holds.
pub async fn count(archive: &Archive) -> Result<u64> {
    story_cluster::Entity::find().count(&archive.db).await.doing("counting clusters")
}

/// Where a story stands in its cluster, for listing many stories at once.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The cluster's id.
    pub cluster_id: i64,
    /// The story that stands for the cluster.
    pub representative_story_id: i64,
    /// How many stories the cluster holds, the representative included.
    pub size: u64,
    /// How the story relates to the representative (`duplicate`, `similar`); `None` for the
    /// representative itself.
    pub relation: Option<String>,
}

/// The placement of each of these stories that is in a cluster, by story id.
pub async fn placements(archive: &Archive, story_ids: &[i64]) -> Result<BTreeMap<i64, Placement>> {
    let mut placements = BTreeMap::new();
    // Bounded lists, well within every backend's limit on bound parameters.
    for ids in story_ids.chunks(500) {
        let members = cluster_member::Entity::find()
            .filter(cluster_member::Column::StoryId.is_in(ids.iter().copied()))
            .all(&archive.db)
            .await
            .doing("reading cluster members")?;
        let cluster_ids: BTreeSet<i64> = members.iter().map(|m| m.cluster_id).collect();
        let representatives: BTreeMap<i64, i64> = story_cluster::Entity::find()
            .filter(story_cluster::Column::Id.is_in(cluster_ids.iter().copied()))
            .all(&archive.db)
            .await
            .doing("reading clusters")?
            .into_iter()
            .map(|cluster| (cluster.id, cluster.representative_story_id))
            .collect();
        let sizes: BTreeMap<i64, i64> = cluster_member::Entity::find()
            .select_only()
            .column(cluster_member::Column::ClusterId)
            .column_as(cluster_member::Column::StoryId.count(), "size")
            .filter(cluster_member::Column::ClusterId.is_in(cluster_ids.iter().copied()))
            .group_by(cluster_member::Column::ClusterId)
            .into_tuple::<(i64, i64)>()
            .all(&archive.db)
            .await
            .doing("counting cluster members")?
            .into_iter()
            .collect();
        for member in members {
            let Some(&representative_story_id) = representatives.get(&member.cluster_id) else {
                continue;
            };
            let size = sizes.get(&member.cluster_id).map_or(0, |&n| u64::try_from(n).unwrap_or(0));
            placements.insert(
                member.story_id,
                Placement {
                    cluster_id: member.cluster_id,
                    representative_story_id,
                    size,
                    relation: member.relation,
                },
            );
        }
    }
    Ok(placements)
}

/// The member stories of each of these clusters, by cluster id, each list by story id (the
/// representative included): the copies of a page of folded results, in one statement per 500
/// clusters rather than one per cluster.
pub async fn members_of(archive: &Archive, cluster_ids: &[i64]) -> Result<BTreeMap<i64, Vec<i64>>> {
    let mut members: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for ids in cluster_ids.chunks(500) {
        let rows: Vec<(i64, i64)> = cluster_member::Entity::find()
            .select_only()
            .column(cluster_member::Column::ClusterId)
            .column(cluster_member::Column::StoryId)
            .filter(cluster_member::Column::ClusterId.is_in(ids.iter().copied()))
            .order_by_asc(cluster_member::Column::StoryId)
            .into_tuple()
            .all(&archive.db)
            .await
            .doing("reading cluster members")?;
        for (cluster, story) in rows {
            members.entry(cluster).or_default().push(story);
        }
    }
    Ok(members)
}

/// The cluster a story belongs to, if any.
pub async fn of_story(archive: &Archive, story_id: i64) -> Result<Option<Cluster>> {
    let member = cluster_member::Entity::find_by_id(story_id)
        .one(&archive.db)
        .await
        .doing("reading a cluster member")?;
    match member {
        Some(member) => get(archive, member.cluster_id).await.map(Some),
        None => Ok(None),
    }
}
