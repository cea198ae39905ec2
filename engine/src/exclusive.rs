//! Work done by one worker at a time over a whole archive: a fuzzy-dedup batch, a re-extraction.
//!
//! Such work holds the archive's claim of its kind (`store::claims`, key `archive`), renewed every
//! third of [`LEASE`] while it runs and given back after; a worker that finds the claim held does
//! not run it. A claim rather than an advisory lock: it works alike on both backends, expires when
//! its worker dies (its heartbeat goes stale), and shows in `morgue status` who holds it.
//!
//! A command-line run (`morgue dedup`, `morgue reextract`) takes part as a worker of its own
//! (`as_worker`): its clock measured, registered with a heartbeat (an unregistered owner's claims
//! are given back by any worker's reaping), removed when done. A claim held by a worker of the same
//! machine whose process is gone (a run killed midway) is taken over at once rather than after
//! its heartbeat goes stale, two minutes later.

use std::future::Future;
use std::sync::Arc;

use chrono::Duration;
use store::Archive;
use store::claims::Kind;
/// A worker about to start, as the archive's `workers` table knows it.
pub use store::workers::NewWorker;

use crate::crawl::LEASE;
use crate::crawl::clock::Clock;
use crate::{Error, Result};

/// The key of an archive's one claim of a kind.
const ARCHIVE_KEY: &str = "archive";

/// A claim's lease, [`LEASE`].
fn lease() -> Duration {
    Duration::from_std(LEASE).unwrap_or(Duration::MAX)
}

/// What a kind of work is called in messages.
fn what(kind: Kind) -> &'static str {
    match kind {
        Kind::Dedup => "dedup batch",
        Kind::Reextract => "re-extraction",
        Kind::Discover => "source search",
        Kind::Poll => "feed poll",
    }
}

/// Runs `work` as worker `me`: clock measured, registered with a heartbeat, holding the archive's
/// claim of `kind`. Fails with [`Error::BatchRunning`] when another live worker holds it.
pub(crate) async fn as_worker<T, F: Future<Output = Result<T>>>(
    archive: &Archive,
    me: &NewWorker,
    kind: Kind,
    work: impl FnOnce() -> F,
) -> Result<T> {
    let clock = Arc::new(Clock::default());
    clock.measure(archive).await?;
    store::workers::register(archive, me, clock.now()).await?;
    let heartbeat =
        tokio::spawn(crate::crawl::heartbeat(archive.clone(), me.clone(), Arc::clone(&clock)));
    let result = claimed(archive, me, kind, &clock, work).await;
    heartbeat.abort();
    let removed = store::workers::remove(archive, &me.name).await;
    let done = result?;
    removed?;
    Ok(done)
}

/// `work` under the claim, for [`as_worker`], taking over the claim of a gone local process.
async fn claimed<T, F: Future<Output = Result<T>>>(
    archive: &Archive,
    me: &NewWorker,
    kind: Kind,
    clock: &Arc<Clock>,
    work: impl FnOnce() -> F,
) -> Result<T> {
    crate::crawl::reap_dead_workers(archive, clock.now()).await?;
    let lease = lease();
    let mut holder = None;
    for _ in 0..2 {
        if store::claims::take(archive, kind, ARCHIVE_KEY, &me.name, clock.now(), lease).await? {
            return held(archive, &me.name, kind, clock, work()).await;
        }
        let claims = store::claims::list(archive).await?;
        let Some(claim) = claims
            .into_iter()
            .find(|claim| Kind::parse(&claim.kind) == Some(kind) && claim.key == ARCHIVE_KEY)
        else {
            // Given back meanwhile: try again.
            continue;
        };
        let gone = match store::workers::get(archive, &claim.owner).await? {
            Some(worker) => worker.host == me.host && !process_runs(worker.pid),
            None => false,
        };
        if !gone {
            holder = Some(claim.owner);
            break;
        }
        tracing::info!(worker = %claim.owner, "the worker holding the {} is gone; taking it over", what(kind));
        store::workers::remove_gone(archive, &claim.owner, clock.now()).await?;
    }
    Err(Error::BatchRunning {
        what: what(kind),
        owner: holder.unwrap_or_else(|| "another worker".to_owned()),
    })
}

/// Runs `work` holding the archive's claim of `kind` for `worker`, renewed while it runs and given
/// back after. `None` (nothing run) when another worker holds it.
pub(crate) async fn under_claim<T>(
    archive: &Archive,
    kind: Kind,
    worker: &str,
    clock: &Arc<Clock>,
    work: impl Future<Output = Result<T>>,
) -> Result<Option<T>> {
    let lease = lease();
    if !store::claims::take(archive, kind, ARCHIVE_KEY, worker, clock.now(), lease).await? {
        return Ok(None);
    }
    held(archive, worker, kind, clock, work).await.map(Some)
}

/// Runs `work` whose claim `worker` has just taken: renewed while it runs, given back after.
async fn held<T>(
    archive: &Archive,
    worker: &str,
    kind: Kind,
    clock: &Arc<Clock>,
    work: impl Future<Output = Result<T>>,
) -> Result<T> {
    let renewing = tokio::spawn(renew(archive.clone(), kind, worker.to_owned(), Arc::clone(clock)));
    let result = work.await;
    renewing.abort();
    // A failure is logged: the claim expires by itself, and the work is stored already.
    if let Err(err) = store::claims::give_back(archive, kind, ARCHIVE_KEY, worker).await {
        tracing::warn!("cannot give back the {} claim: {err}", what(kind));
    }
    result
}

/// Takes the claim again every third of [`LEASE`], for as long as its work runs.
async fn renew(archive: Archive, kind: Kind, worker: String, clock: Arc<Clock>) {
    let lease = lease();
    loop {
        tokio::time::sleep(LEASE / 3).await;
        match store::claims::take(&archive, kind, ARCHIVE_KEY, &worker, clock.now(), lease).await {
            Ok(true) => {}
            Ok(false) => tracing::warn!("the {} claim was lost while its work ran", what(kind)),
            Err(err) => tracing::warn!("cannot renew the {} claim: {err}", what(kind)),
        }
    }
}

/// Whether a process with this id runs on this machine (always taken to run where that cannot be
/// told).
fn process_runs(pid: i64) -> bool {
    if cfg!(target_os = "linux") {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}
