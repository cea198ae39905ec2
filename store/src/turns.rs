//! Host turns: per-host politeness shared by every worker of an archive.
//!
//! Before a request to a host, a worker claims the host's turn ([`claim`]): a compare-and-set on
//! the host's row that succeeds only when the host's next allowed time has come, and that pushes
//! the next allowed time out by `hold` (the longest an exchange may take) and records the holder
//! and a token. When the exchange ends the worker gives the turn back ([`release`]) with the next
//! allowed time: the end of the exchange plus the host's interval (or a `Retry-After`). So two
//! requests to one host, from any workers, start at least an interval after the previous one
//! ended, and a worker that dies holding a turn blocks the host for `hold` at most.
//!
//! Under PostgreSQL's row locks two concurrent claims of one row serialise, and the second sees
//! the first's `next_at` and fails; on SQLite a single writer makes the statement trivially
//! atomic. Times are the workers' clocks, which must agree (NTP), as for heartbeats.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::Archive;
use crate::entity::host_turn;
use crate::error::{Context as _, Result};
use crate::text::{self, line_owned};

/// What [`claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The turn is the caller's (under the token it gave) until it is released or `hold` passes.
    Taken,
    /// Not now: the host's next request may start at `next_at`, unless `holder` (a worker with a
    /// request in flight) gives the turn back sooner.
    Busy {
        /// When the host's turn comes, or the holder's claim expires.
        next_at: DateTime<Utc>,
        /// The worker holding the turn, if any.
        holder: Option<String>,
    },
}

/// One host's turn, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The host, lower-cased.
    pub host: String,
    /// When its next request may start (while held: when the claim expires).
    pub next_at: DateTime<Utc>,
    /// The worker with a request in flight, if any.
    pub holder: Option<String>,
}

/// A claim of a host's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask<'a> {
    /// The host (any case).
    pub host: &'a str,
    /// The worker asking.
    pub holder: &'a str,
    /// The worker's token for this claim (its release and renewal name it).
    pub token: i64,
    /// The host's interval as the worker knows it (its `Crawl-delay`, or the default).
    pub interval: Duration,
}

/// Claims a host's turn as `ask` says at `now`, for at most `hold`.
pub async fn claim(
    archive: &Archive,
    ask: Ask<'_>,
    now: DateTime<Utc>,
    hold: Duration,
) -> Result<Claim> {
    let Ask { host, holder, token, interval } = ask;
    let host = line_owned(&host.to_ascii_lowercase());
    for _ in 0..2 {
        let taken = host_turn::Entity::update_many()
            .col_expr(host_turn::Column::NextAt, Expr::value(now + hold))
            .col_expr(host_turn::Column::Holder, Expr::value(text::line(holder).as_ref()))
            .col_expr(host_turn::Column::Token, Expr::value(token))
            .col_expr(host_turn::Column::IntervalMs, Expr::value(interval.num_milliseconds()))
            .filter(host_turn::Column::Host.eq(host.as_str()))
            .filter(host_turn::Column::NextAt.lte(now))
            .exec(&archive.db)
            .await
            .doing("claiming a host's turn")?;
        if taken.rows_affected == 1 {
            return Ok(Claim::Taken);
        }
        let row = host_turn::Entity::find_by_id(host.clone())
            .one(&archive.db)
            .await
            .doing("reading a host's turn")?;
        if let Some(row) = row {
            return Ok(Claim::Busy { next_at: row.next_at, holder: row.holder });
        }
        // A host never asked: its row, due at once, then the claim again.
        let row = host_turn::ActiveModel {
            host: Set(host.clone()),
            next_at: Set(DateTime::<Utc>::UNIX_EPOCH),
            holder: Set(None),
            token: Set(0),
            interval_ms: Set(0),
        };
        host_turn::Entity::insert(row)
            .on_conflict_do_nothing_on([host_turn::Column::Host])
            .exec_without_returning(&archive.db)
            .await
            .doing("adding a host's turn")?;
    }
    // Added and taken by another worker between our statements.
    let row = host_turn::Entity::find_by_id(host.clone())
        .one(&archive.db)
        .await
        .doing("reading a host's turn")?;
    Ok(Claim::Busy {
        next_at: row.as_ref().map_or(now, |row| row.next_at),
        holder: row.and_then(|row| row.holder),
    })
}

/// Keeps a held turn for another `hold` from `now` (a request kept waiting for a slot). Returns
/// `false` when the turn is no longer `holder`'s under `token` (its claim expired and another
/// worker took it).
pub async fn renew(
    archive: &Archive,
    host: &str,
    holder: &str,
    token: i64,
    now: DateTime<Utc>,
    hold: Duration,
) -> Result<bool> {
    let result = host_turn::Entity::update_many()
        .col_expr(host_turn::Column::NextAt, Expr::value(now + hold))
        .filter(host_turn::Column::Host.eq(line_owned(&host.to_ascii_lowercase())))
        .filter(host_turn::Column::Holder.eq(text::line(holder).as_ref()))
        .filter(host_turn::Column::Token.eq(token))
        .filter(host_turn::Column::NextAt.gt(now))
        .exec(&archive.db)
        .await
        .doing("renewing a host's turn")?;
    Ok(result.rows_affected == 1)
}

/// Gives back `host`'s turn held by `holder` under `token`: its next request may start at
/// `next_at`. Returns `false` when the turn was no longer theirs (nothing is changed then).
pub async fn release(
    archive: &Archive,
    host: &str,
    holder: &str,
    token: i64,
    next_at: DateTime<Utc>,
) -> Result<bool> {
    let result = host_turn::Entity::update_many()
        .col_expr(host_turn::Column::NextAt, Expr::value(next_at))
        .col_expr(host_turn::Column::Holder, Expr::value(Option::<String>::None))
        .filter(host_turn::Column::Host.eq(line_owned(&host.to_ascii_lowercase())))
        .filter(host_turn::Column::Holder.eq(text::line(holder).as_ref()))
        .filter(host_turn::Column::Token.eq(token))
        .exec(&archive.db)
        .await
        .doing("giving back a host's turn")?;
    Ok(result.rows_affected == 1)
}

/// Gives back the turns `holder` holds, known to be gone (a worker started under its name
/// succeeds it): each host's next request may start its interval after `now`, by when the gone
/// worker's last exchange had ended. Returns how many.
pub async fn release_holder(archive: &Archive, holder: &str, now: DateTime<Utc>) -> Result<u64> {
    let held: Vec<host_turn::Model> = host_turn::Entity::find()
        .filter(host_turn::Column::Holder.eq(text::line(holder).as_ref()))
        .all(&archive.db)
        .await
        .doing("finding a worker's host turns")?;
    let mut released = 0;
    for row in held {
        let next_at = (now + Duration::milliseconds(row.interval_ms)).min(row.next_at);
        if release(archive, &row.host, holder, row.token, next_at).await? {
            released += 1;
        }
    }
    Ok(released)
}

/// The turns held now (a request in flight), by host.
pub async fn held(archive: &Archive) -> Result<Vec<Turn>> {
    Ok(host_turn::Entity::find()
        .filter(host_turn::Column::Holder.is_not_null())
        .order_by_asc(host_turn::Column::Host)
        .all(&archive.db)
        .await
        .doing("listing held host turns")?
        .into_iter()
        .map(|row| Turn { host: row.host, next_at: row.next_at, holder: row.holder })
        .collect())
}
