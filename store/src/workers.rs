//! Workers: the crawl processes sharing an archive, and their heartbeats.
//!
//! A worker registers under its name when it starts ([`register`]), refreshes its heartbeat while
//! it runs ([`heartbeat`]) and removes itself when it stops ([`remove`]). A worker whose last
//! heartbeat is older than a bound the caller chooses is dead, whatever machine it ran on and
//! whatever became of its process (gone, a zombie, a machine that lost power): [`reap`] gives its
//! leases back and removes it, and gives back the leases of owners that never registered.
//!
//! Leases carry the worker's name (`frontier.lease_owner`), and names are unique among live
//! workers: a worker that starts under the name of an earlier one (a service restarted under a
//! stable name) is its successor and takes its leases back at once.
//!
//! Heartbeats are stamped with the worker's clock and judged by the reaper's: the machines of one
//! archive must agree on the time to well within the bound. Workers read the database's clock
//! ([`database_now`]) when they start and stamp every time in it (correcting for a small offset,
//! refusing to start when far off), so they agree even when their machines' clocks do not quite.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, OnConflict, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::Archive;
use crate::entity::{frontier, worker};
use crate::error::{Context as _, Result};
use crate::frontier::State;
use crate::text::{self, line_owned};

/// A worker about to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWorker {
    /// Its name, unique among live workers; its leases carry it.
    pub name: String,
    /// The machine it runs on.
    pub host: String,
    /// Its process id there.
    pub pid: u32,
}

/// A registered worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worker {
    /// Its name.
    pub name: String,
    /// The machine it runs on.
    pub host: String,
    /// Its process id there.
    pub pid: i64,
    /// When it registered.
    pub started_at: DateTime<Utc>,
    /// When it last said it was alive.
    pub heartbeat_at: DateTime<Utc>,
}

impl From<worker::Model> for Worker {
    fn from(row: worker::Model) -> Worker {
        Worker {
            name: row.name,
            host: row.host,
            pid: row.pid,
            started_at: row.started_at,
            heartbeat_at: row.heartbeat_at,
        }
    }
}

/// What [`register`] found and did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    /// The earlier worker of the same name, if one was registered (it is taken to be gone).
    pub predecessor: Option<Worker>,
    /// How many of its leases and claims were given back.
    pub released: u64,
}

/// Registers a worker at `now`, replacing any earlier worker of the same name, whose leases and
/// claims are given back (due at `now`), and whose host turns are given back an interval after
/// `now`.
pub async fn register(
    archive: &Archive,
    new: &NewWorker,
    now: DateTime<Utc>,
) -> Result<Registered> {
    let name = line_owned(&new.name);
    let predecessor = get(archive, &name).await?;
    upsert(archive, new, now, true).await?;
    let released = crate::frontier::release(archive, &name, now).await?
        + crate::claims::give_back_all(archive, &name).await?;
    crate::turns::release_holder(archive, &name, now).await?;
    Ok(Registered { predecessor, released })
}

async fn upsert(archive: &Archive, new: &NewWorker, now: DateTime<Utc>, start: bool) -> Result<()> {
    let row = worker::ActiveModel {
        name: Set(line_owned(&new.name)),
        host: Set(line_owned(&new.host)),
        pid: Set(i64::from(new.pid)),
        started_at: Set(now),
        heartbeat_at: Set(now),
    };
    let mut update = vec![worker::Column::Host, worker::Column::Pid, worker::Column::HeartbeatAt];
    if start {
        update.push(worker::Column::StartedAt);
    }
    worker::Entity::insert(row)
        .on_conflict(OnConflict::column(worker::Column::Name).update_columns(update).to_owned())
        .exec_without_returning(&archive.db)
        .await
        .doing("registering a worker")?;
    Ok(())
}

/// Records that the worker is alive at `now`. Returns `false` when it was not registered any more
/// (another worker took it for dead after missed heartbeats and gave its leases back): it is then
/// registered again.
pub async fn heartbeat(archive: &Archive, new: &NewWorker, now: DateTime<Utc>) -> Result<bool> {
    let result = worker::Entity::update_many()
        .col_expr(worker::Column::HeartbeatAt, Expr::value(now))
        .filter(worker::Column::Name.eq(text::line(&new.name).as_ref()))
        .exec(&archive.db)
        .await
        .doing("recording a heartbeat")?;
    if result.rows_affected > 0 {
        return Ok(true);
    }
    upsert(archive, new, now, true).await?;
    Ok(false)
}

/// Removes a worker that stops (after giving back its leases).
pub async fn remove(archive: &Archive, name: &str) -> Result<()> {
    worker::Entity::delete_many()
        .filter(worker::Column::Name.eq(text::line(name).as_ref()))
        .exec(&archive.db)
        .await
        .doing("removing a worker")?;
    Ok(())
}

/// Removes a worker known to be gone (its process is no longer running), giving back its leases
/// (due at `now`) and claims, as [`reap`] does for a silent one. Returns whether it was registered.
pub async fn remove_gone(archive: &Archive, name: &str, now: DateTime<Utc>) -> Result<bool> {
    let name = line_owned(name);
    let removed = worker::Entity::delete_many()
        .filter(worker::Column::Name.eq(name.as_str()))
        .exec(&archive.db)
        .await
        .doing("removing a worker that is gone")?;
    crate::frontier::release(archive, &name, now).await?;
    crate::claims::give_back_all(archive, &name).await?;
    Ok(removed.rows_affected > 0)
}

/// The worker with this name, if registered.
pub async fn get(archive: &Archive, name: &str) -> Result<Option<Worker>> {
    Ok(worker::Entity::find_by_id(text::line(name).into_owned())
        .one(&archive.db)
        .await
        .doing("reading a worker")?
        .map(Worker::from))
}

/// Every registered worker, by name.
pub async fn list(archive: &Archive) -> Result<Vec<Worker>> {
    Ok(worker::Entity::find()
        .order_by_asc(worker::Column::Name)
        .all(&archive.db)
        .await
        .doing("listing workers")?
        .into_iter()
        .map(Worker::from)
        .collect())
}

/// What [`reap`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reaped {
    /// The workers found dead and removed, by name.
    pub workers: Vec<String>,
    /// How many leases were given back (theirs, and those of owners never registered).
    pub leases: u64,
    /// How many claims on discovery, polls and dedup were given back (likewise).
    pub claims: u64,
}

/// Gives back (due at `now`) the leases and claims of every worker whose last heartbeat is before
/// `stale_before`, removes those workers, and gives back the leases and claims of owners that are
/// not registered at all (taken before workers registered, or by a worker removed as dead).
pub async fn reap(
    archive: &Archive,
    stale_before: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<Reaped> {
    let mut reaped = Reaped::default();
    let dead: Vec<worker::Model> = worker::Entity::find()
        .filter(worker::Column::HeartbeatAt.lt(stale_before))
        .order_by_asc(worker::Column::Name)
        .all(&archive.db)
        .await
        .doing("finding dead workers")?;
    for worker in dead {
        // Only if it is still silent: a heartbeat may have come in since.
        let removed = worker::Entity::delete_many()
            .filter(worker::Column::Name.eq(worker.name.as_str()))
            .filter(worker::Column::HeartbeatAt.lt(stale_before))
            .exec(&archive.db)
            .await
            .doing("removing a dead worker")?;
        if removed.rows_affected > 0 {
            reaped.leases += crate::frontier::release(archive, &worker.name, now).await?;
            reaped.claims += crate::claims::give_back_all(archive, &worker.name).await?;
            reaped.workers.push(worker.name);
        }
    }
    let registered = Query::select().column(worker::Column::Name).from(worker::Entity).to_owned();
    let orphans = frontier::Entity::update_many()
        .col_expr(frontier::Column::State, Expr::value(State::Pending.as_str()))
        .col_expr(frontier::Column::LeaseOwner, Expr::value(Option::<String>::None))
        .col_expr(frontier::Column::LeaseUntil, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(frontier::Column::NextAttemptAt, Expr::value(now))
        .filter(frontier::Column::State.eq(State::Leased.as_str()))
        .filter(frontier::Column::LeaseOwner.is_not_null())
        .filter(frontier::Column::LeaseOwner.not_in_subquery(registered))
        .exec(&archive.db)
        .await
        .doing("releasing leases of unregistered workers")?;
    reaped.leases += orphans.rows_affected;
    reaped.claims += crate::claims::give_back_orphans(archive).await?;
    Ok(reaped)
}

/// The database's clock now, read from the server (on SQLite, this machine's clock as SQLite reads
/// it): what a worker compares its own clock with, since leases, heartbeats and host turns written
/// by many machines are only comparable if those machines agree on the time.
pub async fn database_now(archive: &Archive) -> Result<DateTime<Utc>> {
    use sea_orm::{ConnectionTrait as _, Statement};
    let sql = match archive.backend() {
        crate::Backend::Postgres => {
            "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"
        }
        crate::Backend::Sqlite => {
            "SELECT CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER)"
        }
    };
    let backend = archive.db.get_database_backend();
    let row = archive
        .db
        .query_one_raw(Statement::from_string(backend, sql))
        .await
        .doing("reading the database's clock")?;
    let micros: i64 = match row {
        Some(row) => row.try_get_by_index(0).doing("reading the database's clock")?,
        None => {
            return Err(crate::Error::Corrupt {
                what: "answer to the database's clock".to_owned(),
            });
        }
    };
    DateTime::<Utc>::from_timestamp_micros(micros)
        .ok_or_else(|| crate::Error::Corrupt { what: format!("database clock reading {micros}") })
}
