//! `morgue bench workers`: pages/s of 1, 2 and 4 worker processes on one PostgreSQL archive, and
//! the database's share of the work.
//!
//! A generated test web (`testweb`) is served from this process on loopback. For each number of
//! workers N, a throwaway database `morgue_bench_workers_<pid>_<N>` is created on the server,
//! migrated and given the web's sites as sources; N processes `morgue crawl --once --worker wI`
//! (this executable) crawl it to completion with no per-host interval; the database is dropped.
//!
//! Measured per run: wall time from the first spawn to the last exit; pages (stories stored);
//! the workers' CPU time (this process's `cutime + cstime` from `/proc/self/stat`, which counts
//! children once waited for); PostgreSQL's CPU time, the `utime + stime` of the backends
//! connected to the bench database (found in `pg_stat_activity` every 100 ms while the workers
//! run, each read from `/proc/<pid>/stat`, its last reading kept: up to 100 ms of a backend's last
//! work is missed, and the server's own processes, WAL writer and checkpointer, are not counted);
//! and transactions per page (`pg_stat_database.xact_commit`, whose counts reach the statistics
//! with a delay of up to a second: read after a pause).

use std::collections::HashMap;
use std::io::Write as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use store::{Archive, OpenMode};

/// Stories a day the extrapolation is for, and the peak over the mean it provisions for.
const STORIES_PER_DAY: f64 = 500_000.0;
const PEAK: f64 = 3.0;

/// What one run of N workers measured.
struct Run {
    workers: usize,
    seconds: f64,
    pages: u64,
    worker_cpu: f64,
    pg_cpu: f64,
    commits: i64,
}

/// Runs `morgue bench workers`.
pub(crate) async fn run(
    hosts: usize,
    articles: usize,
    counts: &[usize],
    seed: u64,
    server: &str,
) -> Result<()> {
    if counts.is_empty() || counts.contains(&0) {
        bail!("--workers takes numbers of workers of 1 or more, e.g. 1,2,4");
    }
    let mut config = testweb::Config::small(seed, hosts, articles, chrono::Utc::now());
    config.stale_articles = 0;
    config.spread_hours = 120;
    let web = testweb::TestWeb::start(config).context("cannot start the test web")?;
    let expected = web.world().reachable(chrono::Utc::now() - chrono::Duration::days(7)).len();
    let tick = clock_ticks();
    let mut runs = Vec::new();
    for &n in counts {
        let name = format!("morgue_bench_workers_{}_{n}", std::process::id());
        let url = database_url(server, &name)?;
        let result = run_once(&web, &url, n, tick).await;
        drop_database(server, &name).await;
        runs.push(result?);
    }
    report(&runs, hosts, expected);
    Ok(())
}

async fn run_once(web: &testweb::TestWeb, url: &str, n: usize, tick: f64) -> Result<Run> {
    let archive = Archive::open(url, OpenMode::Create).await?;
    archive.migrate().await?;
    crate::demo::add_sources(&archive, web).await?;
    let exe = std::env::current_exe().context("cannot find this executable")?;
    let logs = std::env::temp_dir().join(format!("morgue-bench-workers-{}", std::process::id()));
    std::fs::create_dir_all(&logs).with_context(|| format!("cannot create {}", logs.display()))?;
    let before = archive.server_activity().await?.map_or(0, |a| a.commits);
    let children_before = children_cpu_ticks()?;
    let started = Instant::now();
    let mut children = Vec::new();
    for i in 1..=n {
        let log = logs.join(format!("w{i}.log"));
        let file = std::fs::File::create(&log)
            .with_context(|| format!("cannot create {}", log.display()))?;
        let child = std::process::Command::new(&exe)
            .args(["crawl", "--once", "--worker", &format!("w{i}")])
            .args(["--host-interval", "0s", "--concurrency", "32", "--allow-private-addresses"])
            .args(["--resolve", "*.test=127.0.0.1"])
            .env("MORGUE_DATABASE_URL", url)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        children.push((child, log));
    }
    // The backends' CPU, sampled until every worker has exited.
    let mut backends: HashMap<i32, u64> = HashMap::new();
    let mut failed = Vec::new();
    while !children.is_empty() {
        if let Some(activity) = archive.server_activity().await? {
            for pid in activity.backends {
                if let Some(ticks) = process_cpu_ticks(&format!("/proc/{pid}/stat")) {
                    backends.insert(pid, ticks);
                }
            }
        }
        let mut running = Vec::new();
        for (mut child, log) in children {
            match child.try_wait().context("cannot wait for a worker")? {
                Some(status) if !status.success() => failed.push((status, log)),
                Some(_) => {}
                None => running.push((child, log)),
            }
        }
        children = running;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    let worker_cpu = (children_cpu_ticks()? - children_before) as f64 / tick;
    if let Some((status, log)) = failed.first() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let last = text.lines().last().unwrap_or("(no output)").to_owned();
        bail!("a worker failed ({status}): {last}");
    }
    // The statistics collector reports commits with a delay.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let commits = archive.server_activity().await?.map_or(0, |a| a.commits) - before;
    let pages = store::stories::count(&archive).await?;
    archive.close().await?;
    let _ = std::fs::remove_dir_all(&logs);
    let pg_cpu = backends.values().sum::<u64>() as f64 / tick;
    Ok(Run { workers: n, seconds, pages, worker_cpu, pg_cpu, commits })
}

fn report(runs: &[Run], hosts: usize, expected: usize) {
    outln!("test web: {hosts} sites, {expected} reachable articles; no per-host interval");
    outln!(
        "workers  seconds  pages  pages/s  worker CPU ms/page  PG CPU ms/page  PG share  xacts/page"
    );
    for run in runs {
        let pages = run.pages.max(1) as f64;
        outln!(
            "{:>7}  {:>7.1}  {:>5}  {:>7.1}  {:>18.1}  {:>14.1}  {:>7.0}%  {:>10.1}",
            run.workers,
            run.seconds,
            run.pages,
            run.pages as f64 / run.seconds,
            run.worker_cpu * 1000.0 / pages,
            run.pg_cpu * 1000.0 / pages,
            100.0 * run.pg_cpu / (run.pg_cpu + run.worker_cpu).max(1e-9),
            run.commits as f64 / pages,
        );
    }
    for run in runs.iter().filter(|run| run.pages != expected as u64) {
        // Across workers, a redirect and its target fetched at the same moment may still become
        // two stories (docs/crawler.md); fewer would be a loss.
        outln!(
            "note: {} worker(s) stored {} stories for {expected} articles",
            run.workers,
            run.pages
        );
    }
    let pages: f64 = runs.iter().map(|run| run.pages as f64).sum::<f64>().max(1.0);
    let worker_ms = runs.iter().map(|run| run.worker_cpu).sum::<f64>() * 1000.0 / pages;
    let pg_ms = runs.iter().map(|run| run.pg_cpu).sum::<f64>() * 1000.0 / pages;
    let rate = STORIES_PER_DAY / 86_400.0 * PEAK;
    outln!(
        "{STORIES_PER_DAY:.0} stories/day at {PEAK}x peak = {rate:.1} pages/s: at {worker_ms:.1} ms \
         worker CPU and {pg_ms:.1} ms PostgreSQL CPU per page (all runs), {:.2} cores for \
         workers and {:.2} for PostgreSQL",
        rate * worker_ms / 1000.0,
        rate * pg_ms / 1000.0,
    );
}

/// `server` with its database replaced by `name`.
fn database_url(server: &str, name: &str) -> Result<String> {
    if !server.starts_with("postgres://") && !server.starts_with("postgresql://") {
        bail!("--server must be a postgres:// URL, not {}", store::mask_password(server));
    }
    let mut url = url::Url::parse(server)
        .with_context(|| format!("--server {} is not a URL", store::mask_password(server)))?;
    url.set_path(&format!("/{name}"));
    Ok(url.into())
}

/// Drops a bench database; a failure is said, not fatal.
async fn drop_database(server: &str, name: &str) {
    let dropped = async {
        let admin = Archive::open(server, OpenMode::Existing).await?;
        admin
            .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            .await?;
        admin.close().await?;
        Ok::<(), store::Error>(())
    };
    if let Err(err) = dropped.await {
        tracing::warn!("cannot drop the bench database {name}: {err}");
    }
}

/// `utime + stime` of a process, in clock ticks, from its `/proc/<pid>/stat`.
fn process_cpu_ticks(path: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(path).ok()?;
    let fields = stat_fields(&stat)?;
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// `cutime + cstime` of this process: the CPU of its children once waited for, in clock ticks.
fn children_cpu_ticks() -> Result<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").context("cannot read /proc/self/stat")?;
    let fields = stat_fields(&stat).context("cannot parse /proc/self/stat")?;
    let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    field(13).zip(field(14)).map(|(u, s)| u + s).context("cannot parse /proc/self/stat")
}

/// The fields of a `/proc/<pid>/stat` line after the command name (field 3, the state, first).
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    let after = &stat[stat.rfind(')')? + 1..];
    Some(after.split_whitespace().collect())
}

/// Clock ticks per second (`getconf CLK_TCK`; 100, Linux's, if that cannot be run).
fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|ticks| *ticks > 0.0)
        .unwrap_or(100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_times_from_a_stat_line_whose_name_has_spaces_and_parentheses() {
        let line = "4242 (post gres (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 \
                    17 5 3 2 20 0 1 0 100 1000 10";
        let fields = stat_fields(line).unwrap();
        assert_eq!(fields[0], "S");
        assert_eq!((fields[11], fields[12], fields[13], fields[14]), ("17", "5", "3", "2"));
        assert_eq!(stat_fields("no parenthesis"), None);
    }

    #[test]
    fn a_bench_database_url_keeps_the_server_and_refuses_sqlite() {
        let url = database_url("postgres://u:p@127.0.0.1:5432/test", "bench_1").unwrap();
        assert_eq!(url, "postgres://u:p@127.0.0.1:5432/bench_1");
        let err = database_url("sqlite:x.db", "bench_1").unwrap_err().to_string();
        assert!(err.contains("postgres://"), "{err}");
    }
}
