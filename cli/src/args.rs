//! Command-line arguments: clap derive types, one doc comment per flag.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand, ValueEnum};

/// morgue: a standing news archive.
///
/// Crawls media sources, extracts and normalizes their stories, finds duplicates, and answers
/// researchers' queries. The archive is a SQLite file (`morgue.db` in the working directory) or a
/// PostgreSQL database.
#[derive(Debug, Parser, PartialEq)]
#[command(name = "morgue", version, about, max_term_width = 100)]
pub(crate) struct Args {
    /// The archive: a SQLite file path or `sqlite:PATH`, or a `postgres://` URL.
    #[arg(
        long,
        global = true,
        env = "MORGUE_DATABASE_URL",
        default_value = "morgue.db",
        value_name = "URL",
        hide_env_values = true
    )]
    pub(crate) database_url: String,

    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand, PartialEq)]
pub(crate) enum Command {
    /// Create an archive (the SQLite file or the PostgreSQL database) and bring its schema up to
    /// date. Safe to run on an existing archive.
    Init,
    /// Bring an existing archive's schema up to date. Running it again changes nothing.
    Migrate,
    /// Print the normalizer's keys for URLs or titles, one output line per input line.
    #[command(subcommand)]
    Normalize(NormalizeCommand),
    /// Extract article text and metadata from raw pages, as JSON.
    ///
    /// With a FILE (or standard input): the raw bytes of one page give one JSON object: every
    /// field with its provenance, the text, its quality and the warnings. With `--jsonl`: each
    /// standard-input line `{"id", "url", "html"}` gives one output line with the same `id`, in
    /// input order, extracted on all cores; a line that cannot be used gives
    /// `{"id": ..., "error": "..."}`.
    Extract(ExtractArgs),
}

/// `morgue extract` options.
#[derive(Debug, clap::Args, PartialEq)]
pub(crate) struct ExtractArgs {
    /// The page's final URL: for dates in it, relative links and charset hints.
    #[arg(long, value_name = "URL", conflicts_with = "jsonl")]
    pub(crate) url: Option<String>,
    /// The HTTP `Content-Type` header the page came with (its charset is believed first).
    #[arg(long, value_name = "HEADER", conflicts_with = "jsonl")]
    pub(crate) content_type: Option<String>,
    /// Read JSON lines `{"id", "url", "html"}` (and optionally `"content_type"`) from standard
    /// input and write one JSON line per input line.
    #[arg(long)]
    pub(crate) jsonl: bool,
    /// Worker threads for `--jsonl` (default: one per core).
    #[arg(long, value_name = "N", requires = "jsonl")]
    pub(crate) workers: Option<usize>,
    /// The time of the fetch, RFC 3339: later dates are rejected as impossible (default: now).
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    pub(crate) now: Option<DateTime<Utc>>,
    /// The page's raw bytes (default: standard input); at most 64 MiB are read.
    #[arg(value_name = "FILE", conflicts_with = "jsonl")]
    pub(crate) file: Option<PathBuf>,
}

/// An RFC 3339 time, such as `2025-06-01T12:00:00Z`.
fn parse_time(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.to_utc())
        .map_err(|err| format!("not an RFC 3339 time ({err}), e.g. 2025-06-01T12:00:00Z"))
}

/// `morgue normalize` subcommands. With no inputs on the command line, each reads one input per
/// line from standard input; an unusable input gives an empty output line, never an abort.
#[derive(Debug, Subcommand, PartialEq)]
pub(crate) enum NormalizeCommand {
    /// Normalize URLs.
    Url {
        /// Which form to print.
        #[arg(long, value_enum, default_value_t = UrlMode::Lossy)]
        mode: UrlMode,
        /// The URLs; read from standard input when none are given.
        urls: Vec<String>,
    },
    /// Normalize titles.
    Title {
        /// The source's name: a title that is just the source's name has no key, and a
        /// publisher prefix or suffix equal to it is removed.
        #[arg(long, value_name = "NAME")]
        source: Option<String>,
        /// Which form to print.
        #[arg(long, value_enum, default_value_t = TitleMode::Key)]
        mode: TitleMode,
        /// The titles; read from standard input when none are given.
        titles: Vec<String>,
    },
}

/// The forms of a URL `morgue normalize url` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum UrlMode {
    /// The archive's dedup key: one story per lossy URL.
    Lossy,
    /// A cleaned-up URL that still leads to the same page.
    Canonical,
    /// The canonical domain (public-suffix aware) that attributes a URL to a source.
    Domain,
}

/// The forms of a title `morgue normalize title` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TitleMode {
    /// The title key that same-source, same-day stories are matched on.
    Key,
    /// The display title, publisher prefix or suffix removed.
    Clean,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_global_database_url_anywhere() {
        let args = Args::try_parse_from(["morgue", "migrate", "--database-url", "x.db"]).unwrap();
        assert_eq!(args, Args { database_url: "x.db".into(), command: Command::Migrate });
        let args =
            Args::try_parse_from(["morgue", "--database-url", "postgres://h/db", "init"]).unwrap();
        assert_eq!(args.database_url, "postgres://h/db");
    }

    #[test]
    fn extract_options() {
        let args =
            Args::try_parse_from(["morgue", "extract", "--url", "https://x.test/a", "page.html"])
                .unwrap();
        let Command::Extract(extract) = args.command else { panic!("not extract") };
        assert_eq!(extract.url.as_deref(), Some("https://x.test/a"));
        assert_eq!(extract.file, Some(PathBuf::from("page.html")));
        assert!(Args::try_parse_from(["morgue", "extract", "--jsonl", "page.html"]).is_err());
        assert!(Args::try_parse_from(["morgue", "extract", "--workers", "2"]).is_err());
        assert!(Args::try_parse_from(["morgue", "extract", "--now", "yesterday"]).is_err());
        let args = Args::try_parse_from([
            "morgue",
            "extract",
            "--jsonl",
            "--now",
            "2025-06-01T12:00:00+02:00",
        ])
        .unwrap();
        let Command::Extract(extract) = args.command else { panic!("not extract") };
        assert_eq!(
            extract.now.map(|t| t.to_rfc3339()).as_deref(),
            Some("2025-06-01T10:00:00+00:00")
        );
    }

    #[test]
    fn clap_configuration_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
