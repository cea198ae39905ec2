//! Collections: named groups of sources (a country's national press, a region's local news),
//! which queries (`collection:NAME`) and counts filter by.
//!
//! A collection is unique by its name; a source may be in any number of collections. Adding a
//! collection or a source to one again changes nothing.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use sea_orm::{ActiveValue::NotSet, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::Archive;
use crate::entity::{collection, collection_source};
use crate::error::{Context as _, Error, Result};
use crate::text::{self, line_owned};

/// A stored collection and its sources.
#[derive(Debug, Clone, PartialEq)]
pub struct Collection {
    /// The archive's id.
    pub id: i64,
    /// The unique name.
    pub name: String,
    /// Its sources' ids, ascending.
    pub source_ids: Vec<i64>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
}

/// Creates the collection of this name if there is none; returns it, with its sources.
pub async fn add(archive: &Archive, name: &str) -> Result<Collection> {
    let row = collection::ActiveModel {
        id: NotSet,
        name: Set(line_owned(name)),
        created_at: Set(Utc::now()),
    };
    collection::Entity::insert(row)
        .on_conflict_do_nothing_on([collection::Column::Name])
        .exec(&archive.db)
        .await
        .doing("adding a collection")?;
    by_name(archive, name)
        .await?
        .ok_or_else(|| Error::NotFound { what: format!("collection {name:?} after inserting it") })
}

/// Puts these sources in the collection (those already in it stay); an unknown collection is
/// [`Error::NotFound`].
pub async fn add_sources(archive: &Archive, collection_id: i64, source_ids: &[i64]) -> Result<()> {
    if source_ids.is_empty() {
        return Ok(());
    }
    let txn = archive.begin_write().await?;
    for &source_id in source_ids {
        let row = collection_source::ActiveModel {
            collection_id: Set(collection_id),
            source_id: Set(source_id),
        };
        collection_source::Entity::insert(row)
            .on_conflict_do_nothing_on([
                collection_source::Column::CollectionId,
                collection_source::Column::SourceId,
            ])
            .exec(&txn)
            .await
            .doing("adding a source to a collection")?;
    }
    txn.commit().await.doing("committing a collection's sources")
}

/// The collection of this name (as [`text::line`] keeps it), with its sources, if any.
pub async fn by_name(archive: &Archive, name: &str) -> Result<Option<Collection>> {
    let Some(row) = collection::Entity::find()
        .filter(collection::Column::Name.eq(text::line(name).as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a collection")?
    else {
        return Ok(None);
    };
    let source_ids = collection_source::Entity::find()
        .filter(collection_source::Column::CollectionId.eq(row.id))
        .order_by_asc(collection_source::Column::SourceId)
        .all(&archive.db)
        .await
        .doing("reading a collection's sources")?
        .into_iter()
        .map(|member| member.source_id)
        .collect();
    Ok(Some(Collection { id: row.id, name: row.name, source_ids, created_at: row.created_at }))
}

/// Every collection with its sources, by name.
pub async fn list(archive: &Archive) -> Result<Vec<Collection>> {
    let mut members: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for member in collection_source::Entity::find()
        .order_by_asc(collection_source::Column::SourceId)
        .all(&archive.db)
        .await
        .doing("reading collections' sources")?
    {
        members.entry(member.collection_id).or_default().push(member.source_id);
    }
    Ok(collection::Entity::find()
        .order_by_asc(collection::Column::Name)
        .all(&archive.db)
        .await
        .doing("listing collections")?
        .into_iter()
        .map(|row| Collection {
            id: row.id,
            source_ids: members.remove(&row.id).unwrap_or_default(),
            name: row.name,
            created_at: row.created_at,
        })
        .collect())
}
