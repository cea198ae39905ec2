//! The worker's clock, as the archive's database keeps time.
//!
//! Leases, heartbeats, host turns and due polls are times written by one worker and compared by
//! others: they are only comparable if the machines agree. A worker reads the database's clock
//! when it starts, and again every 10 minutes while it runs ([`Clock::measure`]), and takes every such time from [`Clock::now`]: its own
//! clock corrected by the offset measured, so that a machine whose clock is a little off still
//! stamps its leases and turns in the database's time. A clock more than [`MAX_CLOCK_SKEW`] off
//! is a machine to fix (NTP), not one to correct silently: the worker refuses to start.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use store::Archive;

use crate::{Error, Result};

/// How far a worker's clock may be from the database's before it refuses to start.
pub const MAX_CLOCK_SKEW: std::time::Duration = std::time::Duration::from_secs(60);

/// How far it may be before a warning is logged.
pub const WARN_CLOCK_SKEW: std::time::Duration = std::time::Duration::from_secs(2);

/// Readings of the database's clock taken per measure; the quickest one counts.
const READINGS: usize = 5;

/// A reading whose round trip took longer than this says too little about the offset.
const MAX_ROUND_TRIP: std::time::Duration = std::time::Duration::from_millis(20);

/// This worker's clock: the machine's, plus a skew (zero, except in tests that play a machine
/// whose clock is off), corrected by the offset to the database's clock as last measured.
#[derive(Debug, Default)]
pub struct Clock {
    /// Added to the machine's clock to play a clock that is off, in microseconds.
    skew_micros: AtomicI64,
    /// The database's clock minus this worker's (machine plus skew), in microseconds.
    offset_micros: AtomicI64,
}

impl Clock {
    /// A clock `skew` ahead of the machine's (behind when negative), not yet measured.
    pub fn with_skew(skew: Duration) -> Clock {
        let clock = Clock::default();
        clock.set_skew(skew);
        clock
    }

    /// Plays a machine whose clock is `skew` ahead (behind when negative); for tests, before the
    /// clock is measured.
    #[doc(hidden)]
    pub fn set_skew(&self, skew: Duration) {
        self.skew_micros.store(skew.num_microseconds().unwrap_or(0), Ordering::Relaxed);
    }

    /// This worker's own clock, uncorrected.
    pub fn local(&self) -> DateTime<Utc> {
        Utc::now() + Duration::microseconds(self.skew_micros.load(Ordering::Relaxed))
    }

    /// The database's time as this worker reckons it: its own clock plus the offset measured.
    pub fn now(&self) -> DateTime<Utc> {
        self.local() + self.offset()
    }

    /// The database's clock minus this worker's, as last measured (zero before).
    pub fn offset(&self) -> Duration {
        Duration::microseconds(self.offset_micros.load(Ordering::Relaxed))
    }

    /// Measures the offset to the archive's clock: the quickest of 5 readings, each
    /// `database - (sent + received) / 2`, counting only those whose round trip was within 20 ms
    /// (with none, the offset stays zero). Fails with [`Error::ClockSkew`] when
    /// the offset is over [`MAX_CLOCK_SKEW`]; warns over [`WARN_CLOCK_SKEW`].
    pub async fn measure(&self, archive: &Archive) -> Result<Duration> {
        let mut best: Option<(std::time::Duration, Duration, DateTime<Utc>)> = None;
        for _ in 0..READINGS {
            let started = Instant::now();
            let sent = self.local();
            let database = store::workers::database_now(archive).await?;
            let round_trip = started.elapsed();
            let received = sent + Duration::from_std(round_trip).unwrap_or(Duration::zero());
            let middle = sent + (received - sent) / 2;
            let offset = database - middle;
            if round_trip <= MAX_ROUND_TRIP
                && best.is_none_or(|(quickest, ..)| round_trip < quickest)
            {
                best = Some((round_trip, offset, database));
            }
        }
        let Some((round_trip, offset, database)) = best else {
            tracing::debug!(
                "no reading of the database's clock came back within {MAX_ROUND_TRIP:?}; \
                 taking this worker's clock as the database's"
            );
            self.offset_micros.store(0, Ordering::Relaxed);
            return Ok(Duration::zero());
        };
        check(offset, database, self.local())?;
        // The true offset lies within half the round trip of the one measured: when that span
        // holds zero, no offset was measured (a database on this machine, or clocks in step), and
        // the machine's clock is taken as it is rather than moved by the reading's noise.
        let uncertainty = Duration::from_std(round_trip / 2).unwrap_or(Duration::zero());
        let offset = if offset.abs() <= uncertainty { Duration::zero() } else { offset };
        let micros = offset.num_microseconds().unwrap_or(0);
        self.offset_micros.store(micros, Ordering::Relaxed);
        let off = offset.abs().to_std().unwrap_or_default();
        if off > WARN_CLOCK_SKEW {
            tracing::warn!(
                offset_ms = offset.num_milliseconds(),
                "this worker's clock is {:.1} s {} the database's; times it writes are corrected, \
                 but the machine's clock should be set right (NTP)",
                off.as_secs_f64(),
                if offset > Duration::zero() { "behind" } else { "ahead of" }
            );
        } else {
            tracing::debug!(offset_us = micros, ?round_trip, "measured the database's clock");
        }
        Ok(offset)
    }
}

/// Fails when `offset` (database minus worker) is beyond [`MAX_CLOCK_SKEW`].
fn check(offset: Duration, database: DateTime<Utc>, local: DateTime<Utc>) -> Result<()> {
    let off = offset.abs().to_std().unwrap_or(std::time::Duration::MAX);
    if off > MAX_CLOCK_SKEW {
        return Err(Error::ClockSkew {
            worker: local.format("%Y-%m-%d %H:%M:%S%.3f UTC").to_string(),
            database: database.format("%Y-%m-%d %H:%M:%S%.3f UTC").to_string(),
            seconds: off.as_secs_f64(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skew_over_the_bound_is_refused_naming_both_clocks_and_one_under_it_is_not() {
        let database = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        let local = database + Duration::minutes(5);
        let err = check(database - local, database, local).expect_err("five minutes off");
        let message = err.to_string();
        assert!(message.contains("2027-01-15 08:05:00.000 UTC"), "{message}");
        assert!(message.contains("2027-01-15 08:00:00.000 UTC"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        assert!(check(Duration::seconds(-59), database, local).is_ok());
        assert!(check(Duration::seconds(61), database, local).is_err());
    }

    #[test]
    fn a_clock_with_a_skew_reads_ahead_and_its_offset_corrects_it() {
        let clock = Clock::with_skew(Duration::minutes(3));
        let ahead = clock.local() - Utc::now();
        assert!(ahead > Duration::seconds(170) && ahead <= Duration::minutes(3), "{ahead}");
        clock
            .offset_micros
            .store(Duration::minutes(-3).num_microseconds().unwrap_or(0), Ordering::Relaxed);
        let corrected = (clock.now() - Utc::now()).abs();
        assert!(corrected < Duration::seconds(5), "{corrected}");
    }
}
