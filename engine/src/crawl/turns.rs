//! Per-host politeness across workers: the polite client's turns, also claimed from the
//! archive's host turns (`store::turns`), so that two workers never hit one host closer than its
//! interval or its `Crawl-delay`.
//!
//! The client asks only once its own process's turn for the host has come (its tasks queue in
//! memory), so the archive sees one claim and one release per request, not one per waiting task.
//! Times are this worker's clock corrected to the database's (`clock.rs`), so that workers on
//! machines whose clocks differ a little still agree.

use std::sync::Arc;
use std::time::Duration;

use super::clock::Clock;
use crawler::polite::{SharedClaim, SharedFuture, SharedTurns};
use store::Archive;
use store::turns::{Ask, Claim};

/// The archive's host turns, as a worker named `worker` claims them.
pub(super) struct ArchiveTurns {
    pub(super) archive: Archive,
    pub(super) worker: String,
    /// The worker's clock, corrected to the database's.
    pub(super) clock: Arc<Clock>,
}

fn chrono_duration(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}

impl SharedTurns for ArchiveTurns {
    fn claim<'a>(
        &'a self,
        host: &'a str,
        token: i64,
        interval: Duration,
        hold: Duration,
    ) -> SharedFuture<'a, SharedClaim> {
        Box::pin(async move {
            let now = self.clock.now();
            let ask =
                Ask { host, holder: &self.worker, token, interval: chrono_duration(interval) };
            let claim = store::turns::claim(&self.archive, ask, now, chrono_duration(hold))
                .await
                .map_err(|err| err.to_string())?;
            Ok(match claim {
                Claim::Taken => SharedClaim::Taken,
                Claim::Busy { next_at, holder } => SharedClaim::Busy {
                    retry_in: (next_at - now).to_std().unwrap_or(Duration::ZERO),
                    held: holder.is_some(),
                },
            })
        })
    }

    fn renew<'a>(&'a self, host: &'a str, token: i64, hold: Duration) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let now = self.clock.now();
            store::turns::renew(
                &self.archive,
                host,
                &self.worker,
                token,
                now,
                chrono_duration(hold),
            )
            .await
            .map_err(|err| err.to_string())
        })
    }

    fn release<'a>(&'a self, host: &'a str, token: i64, next_in: Duration) -> SharedFuture<'a, ()> {
        Box::pin(async move {
            let next_at = self.clock.now() + chrono_duration(next_in);
            store::turns::release(&self.archive, host, &self.worker, token, next_at)
                .await
                .map(|_| ())
                .map_err(|err| err.to_string())
        })
    }
}
