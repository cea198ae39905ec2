//! Media sources: a name, a homepage, the canonical domain and the timezone of its calendar days.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveValue::NotSet, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::Archive;
use crate::entity::media_source;
use crate::error::{Context as _, Error, Result};
use crate::text::{self, line_owned};

/// A source to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSource {
    /// The name people know it by; unique in the archive.
    pub name: String,
    /// Its homepage URL.
    pub homepage: String,
    /// The canonical domain (the normalizer's `canonical_domain` of the homepage).
    pub canonical_domain: String,
    /// The IANA timezone its calendar days are counted in, e.g. `Europe/Madrid`.
    pub timezone: String,
}

/// A stored media source.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The archive's id.
    pub id: i64,
    /// The unique name.
    pub name: String,
    /// The homepage URL.
    pub homepage: String,
    /// The canonical domain.
    pub canonical_domain: String,
    /// The IANA timezone.
    pub timezone: String,
    /// When it was added.
    pub created_at: DateTime<Utc>,
    /// When its feeds and sitemaps were last discovered, if ever.
    pub discovered_at: Option<DateTime<Utc>>,
}

impl From<media_source::Model> for Source {
    fn from(row: media_source::Model) -> Source {
        Source {
            id: row.id,
            name: row.name,
            homepage: row.homepage,
            canonical_domain: row.canonical_domain,
            timezone: row.timezone,
            created_at: row.created_at,
            discovered_at: row.discovered_at,
        }
    }
}

/// Whether [`add`] created the source or found it already there.
#[derive(Debug, Clone, PartialEq)]
pub enum Added {
    /// A new source.
    New(Source),
    /// The same source (same name and homepage) was already there.
    Existing(Source),
}

impl Added {
    /// The source, new or not.
    pub fn source(&self) -> &Source {
        match self {
            Added::New(source) | Added::Existing(source) => source,
        }
    }
}

/// Adds a source. Adding the same name and homepage again is a no-op; the same name with another
/// homepage is a [`Error::Conflict`]. Every field is kept as [`text::line`] says.
pub async fn add(archive: &Archive, new: &NewSource) -> Result<Added> {
    let row = media_source::ActiveModel {
        id: NotSet,
        name: Set(line_owned(&new.name)),
        homepage: Set(line_owned(&new.homepage)),
        canonical_domain: Set(line_owned(&new.canonical_domain)),
        timezone: Set(line_owned(&new.timezone)),
        created_at: Set(Utc::now()),
        discovered_at: Set(None),
    };
    let inserted = media_source::Entity::insert(row)
        .on_conflict_do_nothing_on([media_source::Column::Name])
        .exec(&archive.db)
        .await
        .doing("adding a media source")?;
    let existing = by_name(archive, &new.name).await?.ok_or_else(|| Error::NotFound {
        what: format!("media source {:?} after inserting it", new.name),
    })?;
    if inserted_row(&inserted) {
        return Ok(Added::New(existing));
    }
    if existing.homepage != text::line(&new.homepage) {
        return Err(Error::Conflict {
            what: format!(
                "a media source named {:?} already exists with homepage {}",
                new.name, existing.homepage
            ),
        });
    }
    Ok(Added::Existing(existing))
}

/// Whether an `ON CONFLICT DO NOTHING` insert wrote a row.
pub(crate) fn inserted_row<T>(result: &sea_orm::TryInsertResult<T>) -> bool {
    matches!(result, sea_orm::TryInsertResult::Inserted(_))
}

/// The source with this id.
pub async fn get(archive: &Archive, id: i64) -> Result<Source> {
    media_source::Entity::find_by_id(id)
        .one(&archive.db)
        .await
        .doing("reading a media source")?
        .map(Source::from)
        .ok_or_else(|| Error::NotFound { what: format!("media source {id}") })
}

/// The source with this name (as [`text::line`] keeps it), if any.
pub async fn by_name(archive: &Archive, name: &str) -> Result<Option<Source>> {
    Ok(media_source::Entity::find()
        .filter(media_source::Column::Name.eq(text::line(name).as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a media source")?
        .map(Source::from))
}

/// Every source, by id.
pub async fn list(archive: &Archive) -> Result<Vec<Source>> {
    Ok(media_source::Entity::find()
        .order_by_asc(media_source::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing media sources")?
        .into_iter()
        .map(Source::from)
        .collect())
}

/// The sources whose feeds and sitemaps were never discovered, by id.
pub async fn undiscovered(archive: &Archive) -> Result<Vec<Source>> {
    Ok(media_source::Entity::find()
        .filter(media_source::Column::DiscoveredAt.is_null())
        .order_by_asc(media_source::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing undiscovered media sources")?
        .into_iter()
        .map(Source::from)
        .collect())
}

/// Records that the source's feeds and sitemaps were discovered at `at`.
pub async fn mark_discovered(archive: &Archive, id: i64, at: DateTime<Utc>) -> Result<()> {
    let result = media_source::Entity::update_many()
        .col_expr(media_source::Column::DiscoveredAt, sea_orm::sea_query::Expr::value(at))
        .filter(media_source::Column::Id.eq(id))
        .exec(&archive.db)
        .await
        .doing("marking a media source discovered")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("media source {id}") });
    }
    Ok(())
}
