//! `morgue status`: the engine's reading of an archive's health, rendered for people.

use std::io::Write as _;

use anyhow::Result;
use chrono::{DateTime, Utc};
use engine::health::Health;
use store::Archive;

/// Prints the archive's health now, by the database's clock (the one workers stamp their
/// heartbeats and leases in, whatever this machine's says).
pub(crate) async fn run(archive: &Archive) -> Result<()> {
    let health =
        engine::health::read(archive, engine::health::database_now(archive).await?).await?;
    let mut out = std::io::stdout().lock();
    out.write_all(render(&health).as_bytes())?;
    Ok(())
}

/// `12s`, `3m`, `5h`, `2d` ago (or ahead, for a time in the future).
fn age(now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    let seconds = (now - at).num_seconds();
    let (n, ahead) = (seconds.unsigned_abs(), seconds < 0);
    let text = match n {
        0..120 => format!("{n}s"),
        120..7200 => format!("{}m", n / 60),
        7200..172_800 => format!("{}h", n / 3600),
        _ => format!("{}d", n / 86_400),
    };
    if ahead { format!("in {text}") } else { format!("{text} ago") }
}

fn render(health: &Health) -> String {
    let now = health.now;
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };
    line(format!("workers: {}", health.workers.len()));
    for worker in &health.workers {
        let state = if worker.alive { "alive" } else { "silent (taken for dead at the next reap)" };
        let mut held = vec![format!("{} leased URLs", worker.leases)];
        held.extend(worker.claims.iter().cloned());
        if !worker.turns.is_empty() {
            held.push(format!("turns of {}", worker.turns.join(", ")));
        }
        line(format!(
            "  {} on {} (pid {}): {state}, heartbeat {}; holds {}",
            worker.name,
            worker.host,
            worker.pid,
            age(now, worker.heartbeat_at),
            held.join(", ")
        ));
    }
    let frontier: Vec<String> =
        health.frontier.iter().map(|(state, n)| format!("{n} {}", state.as_str())).collect();
    line(format!(
        "frontier: {}",
        if frontier.is_empty() { "empty".to_owned() } else { frontier.join(", ") }
    ));
    line(format!(
        "oldest overdue URL: {}",
        health.oldest_overdue_url.map_or("none".to_owned(), |at| format!("due {}", age(now, at)))
    ));
    line(format!("sources: {} ({} never searched)", health.sources, health.unsearched));
    line(format!("feeds and sitemaps: {} ({} due now)", health.feeds, health.feeds_due));
    line(format!(
        "oldest overdue poll: {}",
        health
            .oldest_overdue_feed
            .as_ref()
            .map_or("none".to_owned(), |(url, at)| format!("{url}, due {}", age(now, *at)))
    ));
    line(format!("failing feeds: {}", health.failing.len()));
    for feed in health.failing.iter().take(20) {
        line(format!(
            "  {} {} ({} failures): {}",
            feed.source, feed.url, feed.failures, feed.last_status
        ));
    }
    line(format!(
        "silent sources (no new item in {} days): {}",
        engine::health::SILENT_AFTER.num_days(),
        health.silent.len()
    ));
    for name in health.silent.iter().take(20) {
        line(format!("  {name}"));
    }
    line(format!("stories: {}; dedup lag: {} not compared yet", health.stories, health.dedup_lag));
    text
}
