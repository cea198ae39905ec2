//! The feed poll schedule: adaptive intervals and failure backoff, as pure policy.
//!
//! Media Cloud's rss-fetcher rules (see `docs/crawler.md` for the deviations), restated:
//!
//! - **Base interval.** A feed's own `sy:updatePeriod`/`sy:updateFrequency` hint when it gives one
//!   (capped at a day), otherwise six hours; after the first poll the interval in force is adapted.
//! - **Adaptation**, only after a success that follows a success: the share of items already seen
//!   (`dup_pct`; 101 when the document was unchanged, 102 when it had no items) decides.
//!   At 67 % or more the interval grows by 10 minutes (60 when the feed has been quiet for 31
//!   days), unless this poll came more than 20 minutes early; below 33 % it shrinks (to 6 hours
//!   when above that, else by an hour; never below the feed's own hint or 10 minutes), unless
//!   this poll came more than 20 minutes late. In between it stays.
//! - **Backoff.** A success clears the failure count. A failure adds 1 (hard: 401, 403, 410, a
//!   malformed URL), 0.5 (soft: 404, 429, 5xx, timeouts, connection and TLS errors, parse errors)
//!   or 0.25 (temporary: DNS resolution failures). The next poll is the interval times the failure
//!   count (linear), capped at a day, or at 30 days once the count passes 30; feeds are never
//!   disabled. A longer `Retry-After` wins (capped at a day); a 429 adds up to an hour of jitter.
//!
//! Everything is computed from the inputs: the caller passes "now" and a jitter seed.

use chrono::{DateTime, Duration, Utc};

/// The shortest poll interval.
pub const MIN_INTERVAL: Duration = Duration::minutes(10);
/// The longest poll interval of a working feed.
pub const MAX_INTERVAL: Duration = Duration::minutes(24 * 60);
/// The interval of a feed that gives no hint.
pub const DEFAULT_INTERVAL: Duration = Duration::minutes(6 * 60);
/// The longest wait after many failures.
pub const MAX_BACKOFF: Duration = Duration::days(30);

/// How bad a failure is for the backoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Unlikely to fix itself soon (401, 403, 410, a malformed URL): counts 1.
    Hard,
    /// Often passing (404, 429, 5xx, timeouts, connection, TLS and parse errors): counts 0.5.
    Soft,
    /// Passing (name resolution failures): counts 0.25.
    Temporary,
}

impl Severity {
    /// How much the failure adds to the failure count.
    pub fn weight(self) -> f64 {
        match self {
            Severity::Hard => 1.0,
            Severity::Soft => 0.5,
            Severity::Temporary => 0.25,
        }
    }

    /// The severity of an HTTP error status.
    pub fn of_status(status: u16) -> Severity {
        match status {
            404 | 408 | 429 | 500..=599 => Severity::Soft,
            _ => Severity::Hard,
        }
    }
}

/// What a poll found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// The document parsed; `new` of its `total` items were not seen before.
    Items {
        /// Items not seen before.
        new: u32,
        /// All items.
        total: u32,
    },
    /// `304 Not Modified`, or a body identical to the last one.
    Unchanged,
    /// The poll failed.
    Failed {
        /// How bad the failure is.
        severity: Severity,
        /// The HTTP status, when there was a response.
        status: Option<u16>,
        /// The server's `Retry-After`, when it sent one.
        retry_after: Option<Duration>,
    },
}

/// A feed's schedule state before a poll.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeedState {
    /// The interval in force.
    pub interval: Duration,
    /// The feed's own update hint (`sy:updatePeriod` / `sy:updateFrequency`), if any.
    pub hint: Option<Duration>,
    /// Failures since the last success.
    pub failures: f64,
    /// When the last successful poll happened.
    pub last_success: Option<DateTime<Utc>>,
    /// When a poll last found a new item (or the feed was added, for a new feed).
    pub last_new_item: Option<DateTime<Utc>>,
}

/// The schedule after a poll.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Next {
    /// The interval now in force.
    pub interval: Duration,
    /// Failures since the last success.
    pub failures: f64,
    /// When to poll next.
    pub at: DateTime<Utc>,
}

/// The interval a feed's `sy:updatePeriod` and `sy:updateFrequency` ask for, capped at a day.
///
/// Unknown periods and non-positive frequencies give `None`, as does no period at all.
pub fn update_hint(period: Option<&str>, frequency: Option<&str>) -> Option<Duration> {
    let minutes: i64 = match period?.trim().to_ascii_lowercase().as_str() {
        "always" | "hourly" => 60,
        "" | "daily" | "dayly" => 24 * 60,
        "weekly" => 7 * 24 * 60,
        "monthly" => 30 * 24 * 60,
        "yearly" => 365 * 24 * 60,
        _ => return None,
    };
    let frequency = match frequency.map(str::trim) {
        None | Some("") => 1.0,
        Some(text) => match text.parse::<f64>() {
            Ok(value) if value > 0.0 && value.is_finite() => value,
            _ => return None,
        },
    };
    let per_update = (minutes as f64 / frequency).round().max(1.0) as i64;
    Some(Duration::minutes(per_update).min(MAX_INTERVAL))
}

/// The first interval of a new feed.
pub fn initial_interval(hint: Option<Duration>) -> Duration {
    hint.unwrap_or(DEFAULT_INTERVAL).clamp(MIN_INTERVAL, MAX_INTERVAL)
}

/// Schedules the next poll after `outcome`, observed at `now`. `jitter_seed` makes the jitter
/// added after a 429 reproducible (use e.g. the feed id mixed with the poll count).
pub fn next_poll(
    state: &FeedState,
    outcome: Outcome,
    now: DateTime<Utc>,
    jitter_seed: u64,
) -> Next {
    match outcome {
        Outcome::Failed { severity, status, retry_after } => {
            let failures = state.failures + severity.weight();
            let cap = if failures > 30.0 { MAX_BACKOFF } else { MAX_INTERVAL };
            let mut wait = scale(state.interval, failures.max(1.0)).min(cap);
            if let Some(retry_after) = retry_after {
                wait = wait.max(retry_after.min(Duration::days(1)));
            }
            if status == Some(429) {
                wait += Duration::seconds((splitmix(jitter_seed) % 3600) as i64);
            }
            Next { interval: state.interval, failures, at: now + wait }
        }
        Outcome::Items { .. } | Outcome::Unchanged => {
            let interval = match state.last_success {
                Some(previous) => adapt(state, outcome, now, previous),
                None => state.interval,
            };
            Next { interval, failures: 0.0, at: now + interval }
        }
    }
}

fn adapt(
    state: &FeedState,
    outcome: Outcome,
    now: DateTime<Utc>,
    previous: DateTime<Utc>,
) -> Duration {
    let dup_pct = match outcome {
        Outcome::Items { total: 0, .. } => 102.0,
        Outcome::Items { new, total } => {
            100.0 * f64::from(total.saturating_sub(new)) / f64::from(total)
        }
        _ => 101.0,
    };
    // Positive when this poll came late, negative when early.
    let lateness = (now - previous) - state.interval;
    let floor = state.hint.map_or(MIN_INTERVAL, |hint| hint.max(MIN_INTERVAL));
    if dup_pct >= 67.0 {
        if lateness < -Duration::minutes(20) {
            return state.interval;
        }
        let recently_new = state.last_new_item.is_some_and(|at| now - at <= Duration::days(31));
        let step = if recently_new || dup_pct < 100.0 {
            Duration::minutes(10)
        } else {
            Duration::minutes(60)
        };
        (state.interval + step).min(MAX_INTERVAL)
    } else if dup_pct < 33.0 {
        if lateness > Duration::minutes(20) {
            return state.interval;
        }
        let shorter = if state.interval > DEFAULT_INTERVAL {
            DEFAULT_INTERVAL
        } else {
            state.interval - Duration::minutes(60)
        };
        shorter.max(floor)
    } else {
        state.interval
    }
}

fn scale(interval: Duration, factor: f64) -> Duration {
    let seconds = interval.num_seconds() as f64 * factor;
    Duration::seconds(seconds.min(MAX_BACKOFF.num_seconds() as f64) as i64)
}

/// A fixed mixing function (SplitMix64's finaliser) for reproducible jitter.
fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    fn state(interval_minutes: i64) -> FeedState {
        FeedState {
            interval: Duration::minutes(interval_minutes),
            hint: None,
            failures: 0.0,
            last_success: Some(at(0)),
            last_new_item: Some(at(0)),
        }
    }

    #[track_caller]
    fn check(state: FeedState, outcome: Outcome, now: i64, interval: i64, next_in: i64) {
        let next = next_poll(&state, outcome, at(now), 7);
        assert_eq!(next.interval, Duration::minutes(interval), "interval");
        assert_eq!(next.at, at(now) + Duration::minutes(next_in), "next poll");
    }

    #[test]
    fn update_hints() {
        let cases = [
            (Some("hourly"), None, Some(60)),
            (Some("hourly"), Some("2"), Some(30)),
            (Some("daily"), Some("4"), Some(360)),
            (Some("weekly"), None, Some(1440)),
            (Some(""), None, Some(1440)),
            (Some("fortnightly"), None, None),
            (Some("daily"), Some("0"), None),
            (Some("daily"), Some("-3"), None),
            (None, Some("2"), None),
        ];
        for (period, frequency, minutes) in cases {
            assert_eq!(
                update_hint(period, frequency),
                minutes.map(Duration::minutes),
                "{period:?}"
            );
        }
        assert_eq!(initial_interval(None), DEFAULT_INTERVAL);
        assert_eq!(initial_interval(Some(Duration::minutes(1))), MIN_INTERVAL);
    }

    #[test]
    fn mostly_seen_items_lengthen_the_interval() {
        check(state(60), Outcome::Items { new: 1, total: 10 }, 60, 70, 70);
        check(state(60), Outcome::Unchanged, 60, 70, 70);
        check(state(1435), Outcome::Unchanged, 1435, 1440, 1440);
    }

    #[test]
    fn a_quiet_feed_lengthens_faster() {
        let mut quiet = state(120);
        quiet.last_new_item = Some(at(-60 * 24 * 40));
        check(quiet, Outcome::Unchanged, 120, 180, 180);
        // Some items were new: the small step.
        check(quiet, Outcome::Items { new: 2, total: 10 }, 120, 130, 130);
    }

    #[test]
    fn mostly_new_items_shorten_the_interval() {
        check(state(120), Outcome::Items { new: 9, total: 10 }, 120, 60, 60);
        check(state(1440), Outcome::Items { new: 9, total: 10 }, 1440, 360, 360);
        check(state(60), Outcome::Items { new: 10, total: 10 }, 60, 10, 10);
        let mut hinted = state(120);
        hinted.hint = Some(Duration::minutes(90));
        check(hinted, Outcome::Items { new: 10, total: 10 }, 120, 90, 90);
    }

    #[test]
    fn middling_share_keeps_the_interval() {
        check(state(120), Outcome::Items { new: 5, total: 10 }, 120, 120, 120);
    }

    #[test]
    fn early_or_late_polls_do_not_mislead() {
        // Polled 30 minutes early with nothing new: not lengthened.
        check(state(120), Outcome::Unchanged, 90, 120, 120);
        // Polled 30 minutes late with everything new: not shortened.
        check(state(120), Outcome::Items { new: 10, total: 10 }, 150, 120, 120);
    }

    #[test]
    fn the_first_success_only_schedules() {
        let mut new_feed = state(360);
        new_feed.last_success = None;
        check(new_feed, Outcome::Items { new: 10, total: 10 }, 5, 360, 360);
    }

    #[test]
    fn failures_back_off_linearly_and_success_resets() {
        let mut failing = state(60);
        let soft =
            Outcome::Failed { severity: Severity::Soft, status: Some(503), retry_after: None };
        let next = next_poll(&failing, soft, at(60), 0);
        assert_eq!((next.failures, next.at), (0.5, at(60) + Duration::minutes(60)));
        failing.failures = 2.5;
        let hard =
            Outcome::Failed { severity: Severity::Hard, status: Some(410), retry_after: None };
        let next = next_poll(&failing, hard, at(60), 0);
        assert_eq!((next.failures, next.at), (3.5, at(60) + Duration::minutes(210)));
        failing.failures = 40.0;
        let next = next_poll(&failing, hard, at(60), 0);
        assert_eq!(next.at, at(60) + Duration::minutes(41 * 60));
        failing.failures = 1000.0;
        assert_eq!(next_poll(&failing, hard, at(60), 0).at, at(60) + MAX_BACKOFF);
        failing.failures = 25.0;
        assert_eq!(
            next_poll(&failing, hard, at(60), 0).at,
            at(60) + MAX_INTERVAL,
            "capped at a day"
        );
        let recovered = next_poll(&failing, Outcome::Unchanged, at(60), 0);
        assert_eq!(recovered.failures, 0.0);
    }

    #[test]
    fn retry_after_and_429_jitter() {
        let limited = Outcome::Failed {
            severity: Severity::Soft,
            status: Some(503),
            retry_after: Some(Duration::hours(5)),
        };
        assert_eq!(next_poll(&state(60), limited, at(0), 0).at, at(0) + Duration::hours(5));
        let forever = Outcome::Failed {
            severity: Severity::Soft,
            status: Some(503),
            retry_after: Some(Duration::days(9)),
        };
        assert_eq!(next_poll(&state(60), forever, at(0), 0).at, at(0) + Duration::days(1));
        let too_many =
            Outcome::Failed { severity: Severity::Soft, status: Some(429), retry_after: None };
        let first = next_poll(&state(60), too_many, at(0), 1).at;
        assert_eq!(first, next_poll(&state(60), too_many, at(0), 1).at, "reproducible");
        assert!(first >= at(60) && first < at(120), "{first}");
        assert_ne!(first, next_poll(&state(60), too_many, at(0), 2).at, "seeded");
    }

    #[test]
    fn severity_of_statuses() {
        assert_eq!(Severity::of_status(404), Severity::Soft);
        assert_eq!(Severity::of_status(503), Severity::Soft);
        assert_eq!(Severity::of_status(410), Severity::Hard);
        assert_eq!(Severity::of_status(403), Severity::Hard);
    }
}
