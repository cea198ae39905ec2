//! Claims: leases on work that is not a frontier entry, so that one worker of many does it.
//!
//! A claim names a kind of work ([`Kind`]) and a key within it (a source's or feed's id, or
//! `archive` for the one dedup batch or re-extraction at a time). [`take`] gives it to one worker
//! until the lease expires: an `INSERT … ON CONFLICT DO NOTHING`, then a compare-and-set that takes
//! over a lease that expired (its worker died) or that the same worker already holds.
//! [`give_back`] ends it.
//! A dead worker's claims are given back with its frontier leases ([`crate::workers::reap`]).
//!
//! A claim says who does the work now, not whether it is still to be done: a worker that takes
//! one checks again that the work is due (another may have done it between the check and the
//! claim), so a redo after a crash or a race does nothing twice.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::Archive;
use crate::entity::{claim, worker};
use crate::error::{Context as _, Result};
use crate::text::{self, line_owned};

/// A kind of claimed work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Finding a source's feeds and sitemaps (keyed by source id).
    Discover,
    /// Polling a feed or sitemap (keyed by feed id).
    Poll,
    /// A fuzzy-dedup batch over the archive's new stories (one key, `archive`).
    Dedup,
    /// A re-extraction of the archive's stories (one key, `archive`).
    Reextract,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Discover, Kind::Poll, Kind::Dedup, Kind::Reextract];

    /// The name stored in the archive.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Discover => "discover",
            Kind::Poll => "poll",
            Kind::Dedup => "dedup",
            Kind::Reextract => "reextract",
        }
    }

    /// The kind with this stored name.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// A claim as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The kind of work, as stored (see [`Kind::parse`]).
    pub kind: String,
    /// Which piece of it.
    pub key: String,
    /// The worker doing it.
    pub owner: String,
    /// When the lease expires.
    pub until: DateTime<Utc>,
}

/// Takes the claim `(kind, key)` for `owner` until `now + lease`, unless another worker holds it
/// and its lease has not expired. Returns whether `owner` holds it now.
pub async fn take(
    archive: &Archive,
    kind: Kind,
    key: &str,
    owner: &str,
    now: DateTime<Utc>,
    lease: Duration,
) -> Result<bool> {
    let key = line_owned(key);
    let owner = line_owned(owner);
    let row = claim::ActiveModel {
        kind: Set(kind.as_str().to_owned()),
        key: Set(key.clone()),
        owner: Set(owner.clone()),
        until: Set(now + lease),
    };
    let inserted = claim::Entity::insert(row)
        .on_conflict_do_nothing_on([claim::Column::Kind, claim::Column::Key])
        .exec(&archive.db)
        .await
        .doing("claiming work")?;
    if crate::sources::inserted_row(&inserted) {
        return Ok(true);
    }
    let taken = claim::Entity::update_many()
        .col_expr(claim::Column::Owner, Expr::value(owner.as_str()))
        .col_expr(claim::Column::Until, Expr::value(now + lease))
        .filter(claim::Column::Kind.eq(kind.as_str()))
        .filter(claim::Column::Key.eq(key.as_str()))
        .filter(
            Condition::any()
                .add(claim::Column::Until.lte(now))
                .add(claim::Column::Owner.eq(owner.as_str())),
        )
        .exec(&archive.db)
        .await
        .doing("claiming work")?;
    Ok(taken.rows_affected == 1)
}

/// Ends `owner`'s claim `(kind, key)`. Returns whether it was theirs.
pub async fn give_back(archive: &Archive, kind: Kind, key: &str, owner: &str) -> Result<bool> {
    let result = claim::Entity::delete_many()
        .filter(claim::Column::Kind.eq(kind.as_str()))
        .filter(claim::Column::Key.eq(text::line(key).as_ref()))
        .filter(claim::Column::Owner.eq(text::line(owner).as_ref()))
        .exec(&archive.db)
        .await
        .doing("giving back claimed work")?;
    Ok(result.rows_affected == 1)
}

/// Ends every claim `owner` holds (a worker stopping, or found dead). Returns how many.
pub async fn give_back_all(archive: &Archive, owner: &str) -> Result<u64> {
    let result = claim::Entity::delete_many()
        .filter(claim::Column::Owner.eq(text::line(owner).as_ref()))
        .exec(&archive.db)
        .await
        .doing("giving back a worker's claims")?;
    Ok(result.rows_affected)
}

/// Ends the claims of owners that are not registered workers. Returns how many.
pub(crate) async fn give_back_orphans(archive: &Archive) -> Result<u64> {
    let registered = Query::select().column(worker::Column::Name).from(worker::Entity).to_owned();
    let result = claim::Entity::delete_many()
        .filter(claim::Column::Owner.not_in_subquery(registered))
        .exec(&archive.db)
        .await
        .doing("giving back the claims of unregistered workers")?;
    Ok(result.rows_affected)
}

/// Every claim, by kind, key.
pub async fn list(archive: &Archive) -> Result<Vec<Claim>> {
    Ok(claim::Entity::find()
        .order_by_asc(claim::Column::Kind)
        .order_by_asc(claim::Column::Key)
        .all(&archive.db)
        .await
        .doing("listing claims")?
        .into_iter()
        .map(|row| Claim { kind: row.kind, key: row.key, owner: row.owner, until: row.until })
        .collect())
}
