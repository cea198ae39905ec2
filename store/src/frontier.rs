//! The URL frontier: article URLs waiting to be fetched, one row per lossy URL.
//!
//! Workers take work with [`lease_due`]: a lease is a compare-and-set on the row (state and lease
//! expiry), so any number of workers on one PostgreSQL archive never fetch a URL twice at once,
//! and a worker that dies only delays its URLs until the lease expires. The same statements work
//! on SQLite, where a single writer makes them trivially safe.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};

use crate::Archive;
use crate::entity::frontier;
use crate::error::{Context as _, Error, Result};
use crate::json;
use crate::sources::inserted_row;
use crate::text::{self, line_opt, line_owned};

/// Where a URL is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// Waiting for its next attempt.
    Pending,
    /// A worker holds it until the lease expires.
    Leased,
    /// Fetched and handed on.
    Done,
    /// Given up on after errors.
    Failed,
    /// Deliberately not fetched (robots.txt, out of the date window, not an article).
    Skipped,
}

impl State {
    /// Every state.
    pub const ALL: [State; 5] =
        [State::Pending, State::Leased, State::Done, State::Failed, State::Skipped];

    /// The name stored in the archive.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Leased => "leased",
            State::Done => "done",
            State::Failed => "failed",
            State::Skipped => "skipped",
        }
    }

    /// The state with this stored name.
    pub fn parse(name: &str) -> Option<State> {
        State::ALL.into_iter().find(|state| state.as_str() == name)
    }
}

/// A URL to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewUrl {
    /// The URL as found.
    pub url: String,
    /// Its lossy key; unique in the frontier.
    pub lossy_url: String,
    /// The source it belongs to.
    pub source_id: i64,
    /// The feed or sitemap it came from.
    pub feed_id: Option<i64>,
    /// When it may be fetched first.
    pub next_attempt_at: DateTime<Utc>,
    /// The publication time the feed or sitemap gave, if any.
    pub hint_published_at: Option<DateTime<Utc>>,
    /// The title the feed or sitemap gave, if any.
    pub hint_title: Option<String>,
    /// Further metadata from the feed or sitemap, with provenance (a JSON object).
    pub hint_meta: Option<serde_json::Value>,
}

/// A stored frontier entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The archive's id.
    pub id: i64,
    /// The URL as first found.
    pub url: String,
    /// Its lossy key.
    pub lossy_url: String,
    /// The source it belongs to.
    pub source_id: i64,
    /// The feed or sitemap it came from.
    pub feed_id: Option<i64>,
    /// Where it is in its life.
    pub state: State,
    /// Fetch attempts so far.
    pub attempts: i32,
    /// When it may be attempted next.
    pub next_attempt_at: DateTime<Utc>,
    /// The worker holding the lease.
    pub lease_owner: Option<String>,
    /// When the lease expires.
    pub lease_until: Option<DateTime<Utc>>,
    /// When it was first found.
    pub discovered_at: DateTime<Utc>,
    /// The publication time the feed or sitemap gave.
    pub hint_published_at: Option<DateTime<Utc>>,
    /// The title the feed or sitemap gave.
    pub hint_title: Option<String>,
    /// Further metadata from the feed or sitemap.
    pub hint_meta: Option<serde_json::Value>,
    /// The last error, for people.
    pub last_error: Option<String>,
}

impl TryFrom<frontier::Model> for Entry {
    type Error = Error;

    fn try_from(row: frontier::Model) -> Result<Entry> {
        let state = State::parse(&row.state).ok_or_else(|| Error::Corrupt {
            what: format!("frontier entry {}: unknown state {:?}", row.id, row.state),
        })?;
        let hint_meta = match row.hint_meta.as_deref() {
            Some(text) => Some(json::decode(text, "frontier hint metadata")?),
            None => None,
        };
        Ok(Entry {
            id: row.id,
            url: row.url,
            lossy_url: row.lossy_url,
            source_id: row.source_id,
            feed_id: row.feed_id,
            state,
            attempts: row.attempts,
            next_attempt_at: row.next_attempt_at,
            lease_owner: row.lease_owner,
            lease_until: row.lease_until,
            discovered_at: row.discovered_at,
            hint_published_at: row.hint_published_at,
            hint_title: row.hint_title,
            hint_meta,
            last_error: row.last_error,
        })
    }
}

/// Enqueues a URL unless its lossy key is already in the frontier. Returns the stored entry and
/// whether it is new. Text is kept as [`text::line`] says (callers skip URLs that do not
/// [`text::fits_line`]: a cut URL leads elsewhere).
pub async fn enqueue(archive: &Archive, new: &NewUrl) -> Result<(Entry, bool)> {
    let row = frontier::ActiveModel {
        id: NotSet,
        url: Set(line_owned(&new.url)),
        lossy_url: Set(line_owned(&new.lossy_url)),
        host: Set(line_owned(&host_of(&new.url))),
        source_id: Set(new.source_id),
        feed_id: Set(new.feed_id),
        state: Set(State::Pending.as_str().to_owned()),
        attempts: Set(0),
        next_attempt_at: Set(new.next_attempt_at),
        lease_owner: Set(None),
        lease_until: Set(None),
        discovered_at: Set(Utc::now()),
        hint_published_at: Set(new.hint_published_at),
        hint_title: Set(line_opt(new.hint_title.as_deref())),
        hint_meta: Set(new.hint_meta.as_ref().map(json::encode)),
        last_error: Set(None),
    };
    let result = frontier::Entity::insert(row)
        .on_conflict_do_nothing_on([frontier::Column::LossyUrl])
        .exec(&archive.db)
        .await
        .doing("enqueueing a URL")?;
    let stored = by_lossy_url(archive, &new.lossy_url)
        .await?
        .ok_or_else(|| Error::NotFound { what: format!("frontier entry {}", new.lossy_url) })?;
    Ok((stored, inserted_row(&result)))
}

/// The lower-case host of a URL, the key of per-host scheduling (empty when it has none).
pub fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}

/// The latest attempt time among `host`'s pending entries: where a new entry of the host goes
/// to keep the host's entries an interval apart.
pub async fn last_slot(archive: &Archive, host: &str) -> Result<Option<DateTime<Utc>>> {
    let last: Option<Option<DateTime<Utc>>> = frontier::Entity::find()
        .select_only()
        .column_as(frontier::Column::NextAttemptAt.max(), "last")
        .filter(frontier::Column::Host.eq(text::line(host).as_ref()))
        .filter(frontier::Column::State.eq(State::Pending.as_str()))
        .into_tuple()
        .one(&archive.db)
        .await
        .doing("finding a host's last slot")?;
    Ok(last.flatten())
}

/// The entry with this id.
pub async fn get(archive: &Archive, id: i64) -> Result<Entry> {
    frontier::Entity::find_by_id(id)
        .one(&archive.db)
        .await
        .doing("reading a frontier entry")?
        .ok_or_else(|| Error::NotFound { what: format!("frontier entry {id}") })?
        .try_into()
}

/// The entry with this lossy key (as [`text::line`] keeps it), if any.
pub async fn by_lossy_url(archive: &Archive, lossy_url: &str) -> Result<Option<Entry>> {
    frontier::Entity::find()
        .filter(frontier::Column::LossyUrl.eq(text::line(lossy_url).as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a frontier entry")?
        .map(Entry::try_from)
        .transpose()
}

fn leasable(now: DateTime<Utc>, fresh_until: DateTime<Utc>) -> Condition {
    Condition::any()
        .add(
            Condition::all()
                .add(frontier::Column::State.eq(State::Pending.as_str()))
                .add(frontier::Column::NextAttemptAt.lte(now)),
        )
        .add(
            Condition::all()
                .add(frontier::Column::State.eq(State::Pending.as_str()))
                .add(frontier::Column::Attempts.eq(0))
                .add(frontier::Column::NextAttemptAt.lte(fresh_until)),
        )
        .add(
            Condition::all()
                .add(frontier::Column::State.eq(State::Leased.as_str()))
                .add(frontier::Column::LeaseUntil.lte(now)),
        )
}

/// What a worker asks [`lease`] for.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaseRequest<'a> {
    /// The present.
    pub now: DateTime<Utc>,
    /// Entries never attempted are due up to this time (a pass that fetches everything queued
    /// takes them early; its per-host turns keep it polite). Retries are due only at `now`.
    pub fresh_until: DateTime<Utc>,
    /// The most entries returned.
    pub limit: u64,
    /// The worker's name.
    pub owner: &'a str,
    /// How long the lease lasts.
    pub lease_for: Duration,
    /// Hosts whose entries are left alone for now (their robots.txt cannot be read, say).
    pub skip_hosts: &'a [String],
}

/// Leases up to `limit` due entries to `owner` until `now + lease_for`, oldest due first.
///
/// Entries whose lease expired (a worker died) are due again. Each returned entry has had its
/// attempt count raised by one.
pub async fn lease_due(
    archive: &Archive,
    now: DateTime<Utc>,
    limit: u64,
    owner: &str,
    lease_for: Duration,
) -> Result<Vec<Entry>> {
    lease(
        archive,
        &LeaseRequest { now, fresh_until: now, limit, owner, lease_for, skip_hosts: &[] },
    )
    .await
}

/// Leases due entries as `request` says, earliest due first.
pub async fn lease(archive: &Archive, request: &LeaseRequest<'_>) -> Result<Vec<Entry>> {
    let LeaseRequest { now, fresh_until, limit, owner, lease_for, skip_hosts } = *request;
    let mut query = frontier::Entity::find()
        .select_only()
        .column(frontier::Column::Id)
        .filter(leasable(now, fresh_until));
    if !skip_hosts.is_empty() {
        query = query.filter(
            frontier::Column::Host.is_not_in(skip_hosts.iter().map(|host| line_owned(host))),
        );
    }
    let candidates: Vec<i64> = query
        .order_by_asc(frontier::Column::NextAttemptAt)
        .order_by_asc(frontier::Column::Id)
        .limit(limit)
        .into_tuple()
        .all(&archive.db)
        .await
        .doing("finding due URLs")?;
    let until = now + lease_for;
    let mut leased = Vec::with_capacity(candidates.len());
    for id in candidates {
        // Compare-and-set: only one worker's update matches a still-leasable row.
        let result = frontier::Entity::update_many()
            .col_expr(frontier::Column::State, Expr::value(State::Leased.as_str()))
            .col_expr(frontier::Column::LeaseOwner, Expr::value(text::line(owner).as_ref()))
            .col_expr(frontier::Column::LeaseUntil, Expr::value(until))
            .col_expr(frontier::Column::Attempts, Expr::col(frontier::Column::Attempts).add(1))
            .filter(frontier::Column::Id.eq(id))
            .filter(leasable(now, fresh_until))
            .exec(&archive.db)
            .await
            .doing("leasing a URL")?;
        if result.rows_affected == 1 {
            leased.push(get(archive, id).await?);
        }
    }
    Ok(leased)
}

/// What [`lease_page`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum PageLease {
    /// The entry was leasable and is now leased to the caller.
    Leased(Entry),
    /// The entry is leased to someone (another worker, or another task of the caller's) now.
    Held(Entry),
    /// The entry is not leasable for another reason (settled, or waiting for a retry).
    Other(Entry),
    /// No entry has this lossy key.
    Absent,
}

/// Leases the entry of `lossy_url`, whatever its due time, if it is pending or its lease expired:
/// for a page about to be requested at the end of another URL's redirect chain, so that no other
/// fetch requests it meanwhile. The attempt count is not raised (the page is not this entry's
/// own attempt).
pub async fn lease_page(
    archive: &Archive,
    lossy_url: &str,
    owner: &str,
    now: DateTime<Utc>,
    lease_for: Duration,
) -> Result<PageLease> {
    let Some(entry) = by_lossy_url(archive, lossy_url).await? else {
        return Ok(PageLease::Absent);
    };
    let leasable = Condition::any().add(frontier::Column::State.eq(State::Pending.as_str())).add(
        Condition::all()
            .add(frontier::Column::State.eq(State::Leased.as_str()))
            .add(frontier::Column::LeaseUntil.lte(now)),
    );
    let result = frontier::Entity::update_many()
        .col_expr(frontier::Column::State, Expr::value(State::Leased.as_str()))
        .col_expr(frontier::Column::LeaseOwner, Expr::value(text::line(owner).as_ref()))
        .col_expr(frontier::Column::LeaseUntil, Expr::value(now + lease_for))
        .filter(frontier::Column::Id.eq(entry.id))
        .filter(leasable)
        .exec(&archive.db)
        .await
        .doing("leasing a page")?;
    let entry = get(archive, entry.id).await?;
    Ok(if result.rows_affected == 1 {
        PageLease::Leased(entry)
    } else if entry.state == State::Leased {
        PageLease::Held(entry)
    } else {
        PageLease::Other(entry)
    })
}

/// Gives back a lease [`lease_page`] took: the entry is pending again, its due time unchanged.
pub async fn release_page(archive: &Archive, id: i64, owner: &str) -> Result<()> {
    frontier::Entity::update_many()
        .col_expr(frontier::Column::State, Expr::value(State::Pending.as_str()))
        .col_expr(frontier::Column::LeaseOwner, Expr::value(Option::<String>::None))
        .col_expr(frontier::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .filter(frontier::Column::Id.eq(id))
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .filter(frontier::Column::LeaseOwner.eq(text::line(owner).as_ref()))
        .exec(&archive.db)
        .await
        .doing("giving back a page's lease")?;
    Ok(())
}

/// Ends a lease: the entry becomes `state`, with an optional error and next attempt time (for
/// `Pending`, the retry time).
pub async fn settle(
    archive: &Archive,
    id: i64,
    state: State,
    last_error: Option<&str>,
    next_attempt_at: Option<DateTime<Utc>>,
) -> Result<Entry> {
    let mut row = frontier::ActiveModel {
        state: Set(state.as_str().to_owned()),
        lease_owner: Set(None),
        lease_until: Set(None),
        last_error: Set(line_opt(last_error)),
        ..Default::default()
    };
    if let Some(at) = next_attempt_at {
        row.next_attempt_at = Set(at);
    }
    let result = frontier::Entity::update_many()
        .set(row)
        .filter(frontier::Column::Id.eq(id))
        .exec(&archive.db)
        .await
        .doing("settling a frontier entry")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("frontier entry {id}") });
    }
    get(archive, id).await
}

/// Ends a lease that did not get as far as a request (the host's robots.txt could not be read):
/// the entry is pending again, due at `at`, with `reason` (as [`text::line`] keeps it) as its last
/// error, and the attempt its lease counted is taken back.
pub async fn defer(archive: &Archive, id: i64, reason: &str, at: DateTime<Utc>) -> Result<Entry> {
    let update = || {
        frontier::Entity::update_many()
            .col_expr(frontier::Column::State, Expr::value(State::Pending.as_str()))
            .col_expr(frontier::Column::LeaseOwner, Expr::value(Option::<String>::None))
            .col_expr(frontier::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
            .col_expr(frontier::Column::LastError, Expr::value(line_owned(reason)))
            .col_expr(frontier::Column::NextAttemptAt, Expr::value(at))
            .filter(frontier::Column::Id.eq(id))
    };
    let result = update()
        .col_expr(frontier::Column::Attempts, Expr::col(frontier::Column::Attempts).sub(1))
        .filter(frontier::Column::Attempts.gt(0))
        .exec(&archive.db)
        .await
        .doing("deferring a frontier entry")?;
    if result.rows_affected == 0 {
        let result = update().exec(&archive.db).await.doing("deferring a frontier entry")?;
        if result.rows_affected == 0 {
            return Err(Error::NotFound { what: format!("frontier entry {id}") });
        }
    }
    get(archive, id).await
}

/// The workers holding leases now.
pub async fn lease_owners(archive: &Archive) -> Result<Vec<String>> {
    let owners: Vec<Option<String>> = frontier::Entity::find()
        .select_only()
        .column(frontier::Column::LeaseOwner)
        .distinct()
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .into_tuple()
        .all(&archive.db)
        .await
        .doing("listing lease owners")?;
    Ok(owners.into_iter().flatten().collect())
}

/// The entries `owner` holds leased now (a killed worker's: those it may have been fetching).
pub async fn leased_by(archive: &Archive, owner: &str) -> Result<Vec<Entry>> {
    let rows = frontier::Entity::find()
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .filter(frontier::Column::LeaseOwner.eq(owner))
        .order_by_asc(frontier::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing a worker's leases")?;
    rows.into_iter().map(Entry::try_from).collect()
}

/// How many entries each worker holds leased now, by worker.
pub async fn lease_counts(archive: &Archive) -> Result<Vec<(String, i64)>> {
    let rows: Vec<(Option<String>, i64)> = frontier::Entity::find()
        .select_only()
        .column(frontier::Column::LeaseOwner)
        .column_as(frontier::Column::Id.count(), "count")
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .group_by(frontier::Column::LeaseOwner)
        .order_by_asc(frontier::Column::LeaseOwner)
        .into_tuple()
        .all(&archive.db)
        .await
        .doing("counting leases by worker")?;
    Ok(rows.into_iter().filter_map(|(owner, count)| Some((owner?, count))).collect())
}

/// Gives back every lease `owner` holds, due again at `now` (a worker that is known to be gone,
/// or one shutting down). The attempts it had started still count, so a URL that kills its
/// workers ends up failed rather than retried forever. Returns how many were released.
pub async fn release(archive: &Archive, owner: &str, now: DateTime<Utc>) -> Result<u64> {
    let result = frontier::Entity::update_many()
        .col_expr(frontier::Column::State, Expr::value(State::Pending.as_str()))
        .col_expr(frontier::Column::LeaseOwner, Expr::value(Option::<String>::None))
        .col_expr(frontier::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(frontier::Column::NextAttemptAt, Expr::value(now))
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .filter(frontier::Column::LeaseOwner.eq(text::line(owner).as_ref()))
        .exec(&archive.db)
        .await
        .doing("releasing leases")?;
    Ok(result.rows_affected)
}

/// When the next entry is due (pending, or leased with an expiring lease); `None` when nothing
/// is waiting.
pub async fn next_due(archive: &Archive) -> Result<Option<DateTime<Utc>>> {
    let pending: Option<Option<DateTime<Utc>>> = frontier::Entity::find()
        .select_only()
        .column_as(frontier::Column::NextAttemptAt.min(), "next")
        .filter(frontier::Column::State.eq(State::Pending.as_str()))
        .into_tuple()
        .one(&archive.db)
        .await
        .doing("finding the next due URL")?;
    let leased: Option<Option<DateTime<Utc>>> = frontier::Entity::find()
        .select_only()
        .column_as(frontier::Column::LeaseUntil.min(), "next")
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .into_tuple()
        .one(&archive.db)
        .await
        .doing("finding the next expiring lease")?;
    Ok([pending.flatten(), leased.flatten()].into_iter().flatten().min())
}

/// How many entries are in each state.
pub async fn counts(archive: &Archive) -> Result<Vec<(State, i64)>> {
    let rows: Vec<(String, i64)> = frontier::Entity::find()
        .select_only()
        .column(frontier::Column::State)
        .column_as(frontier::Column::Id.count(), "count")
        .group_by(frontier::Column::State)
        .into_tuple()
        .all(&archive.db)
        .await
        .doing("counting frontier entries")?;
    rows.into_iter()
        .map(|(name, count)| {
            State::parse(&name)
                .map(|state| (state, count))
                .ok_or_else(|| Error::Corrupt { what: format!("frontier state {name:?}") })
        })
        .collect()
}
