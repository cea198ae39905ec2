//! Command-line arguments: clap derive types, one doc comment per flag.

use std::path::PathBuf;

use chrono::{DateTime, NaiveDate, Utc};
use clap::{Parser, Subcommand, ValueEnum};

/// morgue: a standing news archive.
///
/// Crawls media sources, extracts and normalizes their stories, finds duplicates, and answers
/// researchers' queries. The archive is a SQLite file (`morgue.db` in the working directory) or a
/// PostgreSQL database.
#[derive(Debug, Parser, PartialEq)]
#[command(name = "morgue", version, about, max_term_width = 100)]
pub(crate) struct Args {
    /// The archive: a SQLite file path or `sqlite:PATH`, or a `postgres://` URL [default:
    /// `database-url` in morgue.toml, else morgue.db].
    #[arg(
        long,
        global = true,
        env = "MORGUE_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub(crate) database_url: Option<String>,

    /// The settings file [default: morgue.toml in the working directory, when there is one].
    #[arg(long, global = true, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,

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
    /// Add, import and list media sources.
    #[command(subcommand)]
    Sources(SourcesCommand),
    /// Named groups of sources (a country's national press, a region's local news), which
    /// queries (`collection:NAME`), `--collection` and counts filter by.
    #[command(subcommand)]
    Collections(CollectionsCommand),
    /// Find the feeds and sitemaps of sources (those never searched, or the ones named).
    Discover {
        /// Sources to search again, by name; with none, every source never searched.
        #[arg(long = "source", value_name = "NAME")]
        sources: Vec<String>,
        /// Search every source again.
        #[arg(long, conflicts_with = "sources")]
        all: bool,
        #[command(flatten)]
        crawl: CrawlArgs,
    },
    /// Crawl: discover new sources, poll due feeds and sitemaps, fetch due articles, extract and
    /// store them. Keeps going on the schedule unless `--once` is given.
    Crawl {
        /// One pass: stop when nothing is due.
        #[arg(long)]
        once: bool,
        #[command(flatten)]
        crawl: CrawlArgs,
    },
    /// Keep crawling on the schedule until interrupted (SIGINT or SIGTERM finish the work in
    /// flight, then stop). The same as `crawl` without `--once`.
    Run {
        #[command(flatten)]
        crawl: CrawlArgs,
    },
    /// Extract the archived raw pages again with this version's extractor: stories extracted by
    /// another version (or all, with --all) get new fields, and the repeated-sentence index of
    /// their weeks is rebuilt.
    Reextract {
        /// Every story, whatever version extracted it.
        #[arg(long)]
        all: bool,
        /// Also take a repeated sentence out of the earliest story that has it.
        #[arg(long)]
        strict_sentences: bool,
        /// This worker's name on the archive's re-extraction claim [default: HOST:PID].
        #[arg(long, value_name = "NAME")]
        worker: Option<String>,
    },
    /// Find fuzzy duplicates and story clusters: of the archive's new stories (against the stories
    /// of their time window), or with --input of a JSON-lines corpus, without an archive.
    ///
    /// Archive: links (method, scores, thresholds) and clusters are stored; each story is
    /// compared once, when it is new. Corpus: input lines {"id", "source", "url", "title", "text", "published", "language"} (id
    /// required; published RFC 3339; the rest optional). Output: one line per input line, in
    /// order: {"id", "cluster", "relation", "duplicate_of", "score", "method"}, relation null for
    /// a cluster's representative; an unusable line gives {"line": N, "error": "..."}.
    Dedup(DedupArgs),
    /// List or export the archive's stories for research, one row per story with its cluster:
    /// CSV with a header row (opens in a spreadsheet) or JSON lines.
    ///
    /// Columns: id, source, published_day, published_at, language, title, url, canonical_url,
    /// authors (joined by "; "), cluster (its id), cluster_size, representative (the story that
    /// stands for the cluster), relation (duplicate or similar; empty for the representative and
    /// for stories in no cluster), and with --text the text without the sentences its source
    /// repeats. Rows come in the order stories were stored.
    Stories(StoriesArgs),
    /// Attention over time: per day, week or month, the stories QUERY matches, the story
    /// clusters it matches (copies folded: a wire story carried by 40 outlets counts once), and
    /// both as a share of all stories and clusters of the chosen sources that period.
    ///
    /// Columns: period (its first day), stories, clusters, all_stories, all_clusters,
    /// stories_share (stories / all_stories), clusters_share (clusters / all_clusters).
    /// Stories without a publication day are not counted.
    Counts(CountsArgs),
    /// The sources or words of the stories QUERY matches, with how many stories (raw) and story
    /// clusters (copies folded) each has. Words leave out stop words and the sentences each
    /// source repeats, and are counted over the 5,000 most recent matching stories.
    Top {
        /// Sources or words.
        #[arg(value_enum)]
        kind: TopWhat,
        #[command(flatten)]
        counts: CountsArgs,
        /// How many to list.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// The archive's health: workers (alive, last heartbeat, what each holds), queues by kind,
    /// the oldest overdue work, sources failing or silent, and how far dedup lags. Reads only.
    Status,
    /// Copy the whole archive (every table, with its ids) into another, empty one, usually from
    /// SQLite to PostgreSQL: all or nothing, each table verified by its row count and a SHA-256
    /// over its rows before the copy commits; prints both per table. The destination is created
    /// and migrated when needed.
    Copy {
        /// The destination archive (`postgres://…`, or a SQLite file).
        #[arg(long, value_name = "URL")]
        to: String,
    },
    /// Collection health: per source and day (UTC), feeds polled, pages fetched, failures by
    /// kind, stories kept and duplicates found, over the last days; sources that went silent or
    /// whose failures jumped are flagged. Reads only.
    Stats(StatsArgs),
    /// Serve the archive read-only on the web: a search page at `/` (results folded by cluster;
    /// the attention chart, top sources and words in frames under `/panels/`), a page per story (`/stories/ID`: text,
    /// provenance, removed sentences, URLs, its cluster and why), `/sources`, and a JSON API
    /// (`/api/stories` with the filters of `morgue stories` as query parameters, a page at a time;
    /// `/api/stories/ID`; `/api/counts`; `/api/top/sources`, `/api/top/words`; `/api/sources`,
    /// `/api/collections`). SIGINT or SIGTERM stop it after the requests in flight.
    Serve {
        /// The address to listen on; port 0 picks a free port.
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// The search page's panels (chart, top sources, top words) worked on at once; the
        /// others wait their turn, so that the results and the story pages never queue behind
        /// them. More answers panels sooner on a machine with cores to spare.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=32))]
        panel_lanes: u16,
    },
    /// Extract article text and metadata from raw pages, as JSON.
    ///
    /// With a FILE (or standard input): the raw bytes of one page give one JSON object: every
    /// field with its provenance, the text, its quality and the warnings. With `--jsonl`: each
    /// standard-input line `{"id", "url", "html"}` gives one output line with the same `id`, in
    /// input order, extracted on all cores; a line that cannot be used gives
    /// `{"id": ..., "error": "..."}`.
    Extract(ExtractArgs),
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
    /// Try morgue on a generated web of news sites served on loopback: crawl it into an archive
    /// (demo.db unless --database-url says otherwise) and show what it holds.
    Demo {
        /// How many sites.
        #[arg(long, default_value_t = 8)]
        sites: usize,
        /// Recent articles per site.
        #[arg(long, default_value_t = 30)]
        articles: usize,
        /// The loopback port the sites are served on.
        #[arg(long, default_value_t = 48080)]
        port: u16,
    },
    /// Measure morgue on generated data (run a release build).
    #[command(subcommand)]
    Bench(BenchCommand),
}

/// `morgue dedup` flags.
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub(crate) struct DedupArgs {
    /// A corpus to deduplicate instead of the archive: JSON lines; `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,
    /// Where the corpus results go, JSON lines; `-` or none writes standard output.
    #[arg(long, value_name = "FILE", requires = "input")]
    pub(crate) output: Option<PathBuf>,
    /// Compare two dated stories only when published at most this far apart (e.g. 5d, 36h).
    /// Undated stories are compared with all.
    #[arg(long, value_name = "DURATION", default_value = "5d")]
    pub(crate) window: String,
    /// Worker threads [default: the machine's cores]. Results never depend on it.
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Add every score, the thresholds in force and the candidate families to each match.
    #[arg(long)]
    pub(crate) explain: bool,
    /// This worker's name on the archive's dedup claim [default: HOST:PID].
    #[arg(long, value_name = "NAME", conflicts_with = "input")]
    pub(crate) worker: Option<String>,
}

/// `morgue stories` flags.
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub(crate) struct StoriesArgs {
    /// Only stories this query matches: words (all of them), "exact phrases", OR, AND, NOT or
    /// -word, (parentheses), prefix*, and the fields title:, source:, collection:, lang:; case
    /// and diacritics do not matter (`malmo` finds Malmö). See docs/research.md.
    #[arg(value_name = "QUERY", conflicts_with = "search")]
    pub(crate) query: Option<String>,
    /// Only stories of this source, by name; repeat for several.
    #[arg(long = "source", value_name = "NAME")]
    pub(crate) sources: Vec<String>,
    /// Only stories of the sources of this collection, by name; repeat for several (any of them).
    #[arg(long = "collection", value_name = "NAME")]
    pub(crate) collections: Vec<String>,
    /// Only stories published on this day or later (YYYY-MM-DD, the source's calendar day).
    /// Stories without a publication date are left out when --since or --until is given.
    #[arg(long, value_name = "DAY", value_parser = parse_day)]
    pub(crate) since: Option<NaiveDate>,
    /// Only stories published on this day or earlier (YYYY-MM-DD).
    #[arg(long, value_name = "DAY", value_parser = parse_day)]
    pub(crate) until: Option<NaiveDate>,
    /// Only stories in this language (ISO 639-1, e.g. en).
    #[arg(long, value_name = "CODE")]
    pub(crate) language: Option<String>,
    /// The same as QUERY (kept for scripts written before the query language).
    #[arg(long, value_name = "QUERY")]
    pub(crate) search: Option<String>,
    /// The deduplicated view: one row per story cluster (its representative) and the stories in
    /// no cluster.
    #[arg(long)]
    pub(crate) one_per_cluster: bool,
    /// Add each story's text (CSV and JSON lines).
    #[arg(long)]
    pub(crate) text: bool,
    /// At most this many rows.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
    pub(crate) format: ExportFormat,
    /// Write to FILE instead of standard output (`-` is standard output). The file appears
    /// complete or not at all.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

/// `morgue counts` flags.
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub(crate) struct CountsArgs {
    /// The query (as for `morgue stories`); all stories of the chosen sources without one.
    #[arg(value_name = "QUERY")]
    pub(crate) query: Option<String>,
    /// The length of a period.
    #[arg(long, value_enum, default_value_t = CountPeriod::Day)]
    pub(crate) by: CountPeriod,
    /// Only stories of this source, by name; repeat for several.
    #[arg(long = "source", value_name = "NAME")]
    pub(crate) sources: Vec<String>,
    /// Only stories of this collection's sources, by name; repeat for several.
    #[arg(long = "collection", value_name = "NAME")]
    pub(crate) collections: Vec<String>,
    /// The first day counted (YYYY-MM-DD).
    #[arg(long, value_name = "DAY", value_parser = parse_day)]
    pub(crate) since: Option<NaiveDate>,
    /// The last day counted (YYYY-MM-DD).
    #[arg(long, value_name = "DAY", value_parser = parse_day)]
    pub(crate) until: Option<NaiveDate>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountsFormat::Table)]
    pub(crate) format: CountsFormat,
    /// Also draw the stories and clusters per period as an SVG chart in FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub(crate) chart: Option<PathBuf>,
}

/// What `morgue top` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TopWhat {
    /// The sources with the most stories.
    Sources,
    /// The words in the most stories.
    Words,
}

/// The periods of `morgue counts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CountPeriod {
    /// Calendar days.
    Day,
    /// Weeks from Monday.
    Week,
    /// Calendar months.
    Month,
}

/// What `morgue stats` reports on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub(crate) struct StatsArgs {
    /// One row per source over the whole window (flags beside), or one per day and source.
    #[arg(long, value_enum, default_value_t = StatsBy::Source)]
    pub(crate) by: StatsBy,
    /// How many days, today (UTC) included.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=3660))]
    pub(crate) days: u32,
    /// Days without a new story, before the archive's last active day, after which a source
    /// counts as silent.
    #[arg(long, value_name = "DAYS", default_value_t = 2)]
    pub(crate) silent_after: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountsFormat::Table)]
    pub(crate) format: CountsFormat,
}

/// The rows of `morgue stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StatsBy {
    /// One row per source, the window's totals, flagged.
    Source,
    /// One row per day and source.
    Day,
}

/// How `morgue counts` writes its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CountsFormat {
    /// Aligned columns for people.
    Table,
    /// CSV with a header row.
    Csv,
    /// One JSON document.
    Json,
}

/// How `morgue stories` writes rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    /// CSV with a header row, for spreadsheets and scripts.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// The archived raw responses (request, response and metadata records) as WARC 1.1, for
    /// web archivists' tools; gzipped record by record when the output file ends in `.gz`.
    Warc,
}

/// `morgue bench` subcommands.
#[derive(Debug, Subcommand, PartialEq)]
pub(crate) enum BenchCommand {
    /// Crawl a generated test web on loopback end to end (discover, poll, fetch, extract, store)
    /// with no per-host interval, and report pages/s and peak memory.
    Crawl {
        /// Sites in the test web.
        #[arg(long, default_value_t = 500)]
        hosts: usize,
        /// Recent articles per site.
        #[arg(long, default_value_t = 200)]
        articles: usize,
        /// Requests in flight at once.
        #[arg(long, default_value_t = 64)]
        concurrency: usize,
        /// The test web's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep the archive here instead of in a temporary directory (a SQLite path or a
        /// postgres:// URL of a database that may be emptied).
        #[arg(long, value_name = "URL")]
        archive: Option<String>,
    },
    /// Crawl a generated test web on loopback with 1, 2 and 4 worker processes (`morgue crawl
    /// --once --worker wN`) on one PostgreSQL archive each (a throwaway database on the server),
    /// and report pages/s, the workers' and PostgreSQL's CPU per page, the database's share and
    /// transactions per page, with the cores a 500,000-stories-a-day archive needs.
    Workers {
        /// Sites in the test web.
        #[arg(long, default_value_t = 60)]
        hosts: usize,
        /// Recent articles per site.
        #[arg(long, default_value_t = 30)]
        articles: usize,
        /// The numbers of workers to run, one run each.
        #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_value = "1,2,4")]
        workers: Vec<usize>,
        /// The test web's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The PostgreSQL server, as the URL of a database on it that can be connected to; the
        /// bench creates and drops databases of its own there.
        #[arg(
            long,
            value_name = "URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        server: String,
    },
    /// Fill an archive with generated stories of realistic shape (sources in collections, days
    /// over a year, clusters of copies, repeated sentences) and report p50 and p95 of the
    /// research queries (a folded word query over 30 days, a phrase, a boolean query with a
    /// field, counts by day, top sources, top words), and the index sizes.
    Archive {
        /// Stories to generate.
        #[arg(long, default_value_t = 100_000)]
        stories: u64,
        /// The generator's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Build the archive here instead of in a temporary directory (a SQLite path or a
        /// postgres:// URL; the database is created if missing and must hold no stories).
        #[arg(long, value_name = "URL")]
        archive: Option<String>,
        /// Measure the archive `--archive` names as it is when an earlier run with the same
        /// `--stories` and `--seed` filled it, instead of filling it again.
        #[arg(long, requires = "archive")]
        reuse: bool,
    },
    /// Put `morgue serve` under load: `--clients` clients at once ask in turn for search pages
    /// (a word over 30 days, folded, with the chart and top lists) and story pages of an archive
    /// `morgue bench archive` filled; report p50, p95 and the longest answer of each, the
    /// answers by status, and the server's peak memory.
    Serve {
        /// The archive (a SQLite path or a postgres:// URL) an earlier `morgue bench archive`
        /// filled.
        #[arg(long, value_name = "URL")]
        archive: String,
        /// Clients asking at once, each on its own connection.
        #[arg(long, default_value_t = 20)]
        clients: usize,
        /// Pages asked for in all.
        #[arg(long, default_value_t = 2_000)]
        requests: usize,
        /// The seed `morgue bench archive` filled the archive with (its words).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// `morgue serve --panel-lanes`.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=32))]
        panel_lanes: u16,
    },
}

/// `morgue sources` subcommands.
#[derive(Debug, Subcommand, PartialEq)]
pub(crate) enum SourcesCommand {
    /// Add one source. Adding it again with the same homepage changes nothing.
    Add {
        /// The name people know it by; unique in the archive.
        #[arg(long)]
        name: String,
        /// Its homepage URL.
        #[arg(long, value_name = "URL")]
        homepage: String,
        /// The IANA timezone of its calendar days, e.g. Europe/Madrid.
        #[arg(long, value_name = "TZ", default_value = "UTC")]
        timezone: String,
        /// A feed or sitemap URL to poll besides the ones discovery finds (repeatable).
        #[arg(long = "feed", value_name = "URL")]
        feeds: Vec<String>,
    },
    /// Import sources from a CSV file with a header row: name, homepage, and optionally
    /// timezone, feeds (several URLs separated by spaces) and collections (names separated by
    /// `;`). A source list exported from Media Cloud's directory (columns id, url, name,
    /// pub_country, …) is read as it is: url is the homepage, name the name, the rest ignored.
    /// `-` reads standard input.
    Import {
        /// The CSV file.
        file: PathBuf,
        /// Also put every source of the file in this collection (created if missing).
        #[arg(long, value_name = "NAME")]
        collection: Option<String>,
    },
    /// List the sources with their feed counts and discovery state.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
}

/// `morgue collections` subcommands.
#[derive(Debug, Subcommand, PartialEq)]
pub(crate) enum CollectionsCommand {
    /// Create a collection (if there is none of this name) and put sources in it.
    Add {
        /// The collection's name.
        name: String,
        /// A source to put in it, by name (repeatable).
        #[arg(long = "source", value_name = "NAME")]
        sources: Vec<String>,
    },
    /// List the collections with how many sources each holds.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// List the sources of a collection.
    Show {
        /// The collection's name.
        name: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
}

/// How lists are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    /// Aligned columns for people.
    Table,
    /// CSV with a header row, for spreadsheets and scripts.
    Csv,
}

/// Crawler settings. Each can also be set in morgue.toml under the same name (`host-interval =
/// "5s"`); a flag given here wins.
#[derive(Debug, Clone, Default, PartialEq, clap::Args)]
pub(crate) struct CrawlArgs {
    /// Fetch only articles published within this long, by their feed or sitemap dates (e.g. 7d,
    /// 36h) [default: 7d].
    #[arg(long, value_name = "DURATION")]
    pub(crate) since: Option<String>,
    /// Requests in flight at once, across all hosts [default: 16].
    #[arg(long, value_name = "N")]
    pub(crate) concurrency: Option<usize>,
    /// Least time between two request starts to one host (e.g. 5s, 500ms); a longer
    /// robots.txt Crawl-delay wins [default: 5s].
    #[arg(long, value_name = "DURATION")]
    pub(crate) host_interval: Option<String>,
    /// The User-Agent header; its first word is the robots.txt product token.
    #[arg(long, short = 'A', value_name = "NAME")]
    pub(crate) user_agent: Option<String>,
    /// Allow connections to loopback, private, link-local and multicast addresses (tests, demos).
    #[arg(long)]
    pub(crate) allow_private_addresses: bool,
    /// Resolve HOST to IP instead of asking DNS, like curl's --resolve; `*.DOMAIN=IP` covers a
    /// domain and everything under it. Repeatable.
    #[arg(long, value_name = "HOST=IP")]
    pub(crate) resolve: Vec<String>,
    /// Time limit for one whole request, redirects included [default: 60s].
    #[arg(long, short = 'm', value_name = "DURATION")]
    pub(crate) max_time: Option<String>,
    /// Time limit for connecting [default: 10s].
    #[arg(long, value_name = "DURATION")]
    pub(crate) connect_timeout: Option<String>,
    /// Largest response body accepted, in bytes (k, M and G suffixes) [default: 10M].
    #[arg(long, value_name = "BYTES")]
    pub(crate) max_filesize: Option<String>,
    /// Most redirects followed [default: 10].
    #[arg(long, value_name = "N")]
    pub(crate) max_redirs: Option<usize>,
    /// Poll every feed and sitemap now, whatever its schedule says.
    #[arg(long)]
    pub(crate) force_poll: bool,
    /// This worker's name on the leases it takes [default: HOST:PID].
    #[arg(long, value_name = "NAME")]
    pub(crate) worker: Option<String>,
    /// Also take a repeated sentence out of the earliest story that has it, not only out of the
    /// later ones (by default the earliest story of the source's week keeps it).
    #[arg(long)]
    pub(crate) strict_sentences: bool,
    /// After each pass, find fuzzy duplicates and clusters among the new stories (what `morgue
    /// dedup` does), with the default five-day window.
    #[arg(long)]
    pub(crate) dedup: bool,
    /// Serve Prometheus metrics at http://ADDR/metrics while crawling (fetches by outcome, bytes,
    /// latency, queue depths, stories per minute, dedup lag); port 0 picks a free one.
    #[arg(long, value_name = "ADDR")]
    pub(crate) metrics: Option<std::net::SocketAddr>,
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

/// A calendar day, such as `2025-06-01`.
fn parse_day(text: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|err| format!("not a day ({err}), e.g. 2025-06-01"))
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
        assert_eq!(
            args,
            Args { database_url: Some("x.db".into()), config: None, command: Command::Migrate }
        );
        let args =
            Args::try_parse_from(["morgue", "--database-url", "postgres://h/db", "init"]).unwrap();
        assert_eq!(args.database_url.as_deref(), Some("postgres://h/db"));
    }

    #[test]
    fn crawl_flags_look_like_curls() {
        let args = Args::try_parse_from([
            "morgue",
            "crawl",
            "--once",
            "-A",
            "Bot/1",
            "-m",
            "30s",
            "--resolve",
            "*.test=127.0.0.1",
            "--resolve",
            "a.example=10.0.0.1",
            "--max-redirs",
            "3",
        ])
        .unwrap();
        let Command::Crawl { once, crawl } = args.command else { panic!("not crawl") };
        assert!(once);
        assert_eq!(crawl.user_agent.as_deref(), Some("Bot/1"));
        assert_eq!(crawl.max_time.as_deref(), Some("30s"));
        assert_eq!(crawl.resolve.len(), 2);
        assert_eq!(crawl.max_redirs, Some(3));
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
