//! Command-line arguments: clap derive types, one doc comment per flag.

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
    /// Fill the UPOS column of CoNLL-U read on standard input, line for line.
    ///
    /// Only the ID and FORM columns need be filled. Comments, blank lines, multiword tokens
    /// (`1-2`) and empty nodes (`1.1`) pass through unchanged. A malformed line is written back
    /// unchanged and reported with its line number, and the command fails after writing
    /// everything.
    Tag {
        /// The language, an ISO 639-1 code: en, pt, fr, de, es, da and nl have models; others
        /// get a rule-based fallback.
        #[arg(long, value_name = "LANG")]
        lang: String,
    },
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
    fn clap_configuration_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
