//! Settings: command-line flags over morgue.toml over defaults.
//!
//! morgue.toml (in the working directory, or `--config FILE`) uses the flags' names:
//!
//! ```toml
//! database-url = "postgres://morgue@db.internal/morgue"
//! since = "7d"
//! concurrency = 16
//! host-interval = "5s"
//! user-agent = "morgue/0.1 (+https://archive.example/about)"
//! allow-private-addresses = false
//! resolve = ["news.internal=10.1.2.3"]
//! max-time = "60s"
//! connect-timeout = "10s"
//! max-filesize = "10M"
//! max-redirs = 10
//! worker = "crawler-1"
//! strict-sentences = false
//! dedup = true
//! ```
//!
//! Unknown keys are an error (a misspelt setting must not be silently ignored).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use crawler::client::ClientConfig;
use crawler::fetch::FetchConfig;
use engine::crawl::Settings;
use serde::Deserialize;

use crate::args::CrawlArgs;

/// The archive used when nothing says otherwise.
pub(crate) const DEFAULT_DATABASE_URL: &str = "morgue.db";

/// morgue.toml, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct FileConfig {
    pub(crate) database_url: Option<String>,
    since: Option<String>,
    concurrency: Option<usize>,
    host_interval: Option<String>,
    user_agent: Option<String>,
    allow_private_addresses: Option<bool>,
    resolve: Option<Vec<String>>,
    max_time: Option<String>,
    connect_timeout: Option<String>,
    max_filesize: Option<String>,
    max_redirs: Option<usize>,
    worker: Option<String>,
    strict_sentences: Option<bool>,
    dedup: Option<bool>,
}

impl FileConfig {
    /// Reads `path`, or morgue.toml when no path is given and it exists (otherwise defaults).
    pub(crate) fn load(path: Option<&Path>) -> Result<FileConfig> {
        let (path, required) = match path {
            Some(path) => (path.to_path_buf(), true),
            None => (PathBuf::from("morgue.toml"), false),
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if !required && err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(FileConfig::default());
            }
            Err(err) => {
                return Err(err).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        toml::from_str(&text).map_err(|err| {
            // toml's messages span several lines with a source excerpt; keep the first.
            let message = err.message().to_owned();
            let at = err
                .span()
                .map(|span| format!(" (line {})", text[..span.start].lines().count().max(1)))
                .unwrap_or_default();
            anyhow::anyhow!("{}: {message}{at}", path.display())
        })
    }
}

/// The engine's crawl settings: flags over the file over defaults.
pub(crate) fn crawl_settings(args: &CrawlArgs, file: &FileConfig) -> Result<Settings> {
    let since =
        parse_duration(args.since.as_deref().or(file.since.as_deref()).unwrap_or("7d"), "since")?;
    let concurrency = args.concurrency.or(file.concurrency).unwrap_or(16);
    if concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let mut fetch = FetchConfig::default();
    if let Some(agent) = args.user_agent.clone().or_else(|| file.user_agent.clone()) {
        if agent.trim().is_empty() {
            bail!("--user-agent must not be empty");
        }
        fetch.user_agent = agent;
    }
    fetch.allow_private_addresses =
        args.allow_private_addresses || file.allow_private_addresses.unwrap_or(false);
    let rules = if args.resolve.is_empty() {
        file.resolve.clone().unwrap_or_default()
    } else {
        args.resolve.clone()
    };
    fetch.resolve = rules.iter().map(|rule| rule.parse()).collect::<Result<Vec<_>, _>>()?;
    if let Some(max_time) = args.max_time.as_deref().or(file.max_time.as_deref()) {
        fetch.total_timeout = parse_std_duration(max_time, "max-time")?;
        // The other limits never exceed the whole.
        fetch.first_byte_timeout = fetch.first_byte_timeout.min(fetch.total_timeout);
        fetch.idle_timeout = fetch.idle_timeout.min(fetch.total_timeout);
    }
    if let Some(connect) = args.connect_timeout.as_deref().or(file.connect_timeout.as_deref()) {
        fetch.connect_timeout = parse_std_duration(connect, "connect-timeout")?;
    }
    if let Some(size) = args.max_filesize.as_deref().or(file.max_filesize.as_deref()) {
        fetch.max_body_bytes = parse_size(size)?;
        fetch.max_decoded_bytes = fetch.max_decoded_bytes.max(fetch.max_body_bytes);
    }
    if let Some(redirects) = args.max_redirs.or(file.max_redirs) {
        fetch.max_redirects = redirects;
    }
    let host_interval = parse_std_duration(
        args.host_interval.as_deref().or(file.host_interval.as_deref()).unwrap_or("5s"),
        "host-interval",
    )?;
    let worker = args.worker.clone().or_else(|| file.worker.clone()).unwrap_or_else(default_worker);
    let strict = args.strict_sentences || file.strict_sentences.unwrap_or(false);
    let sentences = if strict {
        extractor::sentences::Mode::Strict
    } else {
        extractor::sentences::Mode::Normal
    };
    Ok(Settings {
        dedup: args.dedup || file.dedup.unwrap_or(false),
        sentences,
        since,
        concurrency,
        client: ClientConfig { fetch, host_interval, ..ClientConfig::default() },
        force_poll: args.force_poll,
        worker,
        host: hostname(),
        politeness: engine::crawl::Politeness::ByBackend,
    })
}

/// `HOST:PID`: unique among live workers, and recognisable after a crash (see `crawl`).
pub(crate) fn default_worker() -> String {
    format!("{}:{}", hostname(), std::process::id())
}

/// This machine's name, or `localhost` when it cannot be read.
pub(crate) fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty() && !name.contains(':'))
        .unwrap_or_else(|| "localhost".to_owned())
}

/// A duration like `7d`, `36h`, `90m`, `5s`, `250ms` or `1.5s`.
pub(crate) fn parse_std_duration(text: &str, what: &str) -> Result<Duration> {
    let bad = || {
        anyhow::anyhow!(
            "bad {what} {text:?}: expected a number and a unit (ms, s, m, h, d), e.g. 5s"
        )
    };
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).ok_or_else(bad)?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|_| bad())?;
    let seconds = match unit.trim() {
        "ms" => number / 1000.0,
        "s" | "sec" | "secs" => number,
        "m" | "min" | "mins" => number * 60.0,
        "h" => number * 3600.0,
        "d" => number * 86_400.0,
        _ => return Err(bad()),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| bad())
}

fn parse_duration(text: &str, what: &str) -> Result<chrono::Duration> {
    let std = parse_std_duration(text, what)?;
    chrono::Duration::from_std(std).map_err(|_| anyhow::anyhow!("{what} {text:?} is too long"))
}

/// A size like `10M`, `512k`, `1G` or `4096`.
pub(crate) fn parse_size(text: &str) -> Result<usize> {
    let bad = || anyhow::anyhow!("bad size {text:?}: expected bytes, optionally with k, M or G");
    let text = text.trim();
    let (number, factor) = match text.char_indices().last() {
        Some((i, 'k' | 'K')) => (&text[..i], 1usize << 10),
        Some((i, 'm' | 'M')) => (&text[..i], 1 << 20),
        Some((i, 'g' | 'G')) => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    let number: usize = number.trim().parse().map_err(|_| bad())?;
    number.checked_mul(factor).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_std_duration("5s", "x").unwrap(), Duration::from_secs(5));
        assert_eq!(parse_std_duration("250ms", "x").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_std_duration("1.5h", "x").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_std_duration("7d", "x").unwrap(), Duration::from_secs(7 * 86_400));
        assert_eq!(parse_std_duration("0s", "x").unwrap(), Duration::ZERO);
        for bad in ["", "5", "s", "5 parsecs", "-1s", "1e400s"] {
            assert!(parse_std_duration(bad, "x").is_err(), "{bad}");
        }
        assert_eq!(parse_size("10M").unwrap(), 10 << 20);
        assert_eq!(parse_size("512k").unwrap(), 512 << 10);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert!(parse_size("lots").is_err());
    }

    #[test]
    fn flags_win_over_the_file_and_the_file_over_defaults() {
        let file: FileConfig = toml::from_str(
            "since = \"2d\"\nconcurrency = 3\nhost-interval = \"1s\"\nresolve = [\"a.test=127.0.0.1\"]\n",
        )
        .unwrap();
        let args = CrawlArgs { concurrency: Some(9), ..CrawlArgs::default() };
        let settings = crawl_settings(&args, &file).unwrap();
        assert_eq!(settings.concurrency, 9);
        assert_eq!(settings.since, chrono::Duration::days(2));
        assert_eq!(settings.client.host_interval, Duration::from_secs(1));
        assert_eq!(settings.client.fetch.resolve.len(), 1);
        let defaults = crawl_settings(&CrawlArgs::default(), &FileConfig::default()).unwrap();
        assert_eq!(defaults.client.host_interval, Duration::from_secs(5));
        assert_eq!(defaults.since, chrono::Duration::days(7));
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<FileConfig>("host-intervall = \"1s\"").is_err());
    }
}
