//! The `morgue` binary: parses arguments, sets up logging, and wires the stages together.
//!
//! This is the only crate that reads the environment or configuration, installs a tracing
//! subscriber, prints, or uses `anyhow`. Errors are printed once, on one line, by `main`.

/// Writes a line to stdout; a closed pipe (`morgue … | head`) is not an error worth a message.
macro_rules! outln {
    ($($arg:tt)*) => {{
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, $($arg)*);
    }};
}

mod args;
mod bench;
mod bench_serve;
mod bench_workers;
mod chart;
mod collections;
mod config;
mod counts;
mod dedup;
mod demo;
mod extract;
mod metrics;
mod normalize;
mod progress;
mod serve;
mod signals;
mod sources;
mod stats;
mod status;
mod stories;
mod tag;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser;
use engine::crawl::{Engine, Mode};
use store::{Archive, OpenMode};
use tracing_subscriber::EnvFilter;

use crate::args::{Args, BenchCommand, Command, CrawlArgs, SourcesCommand};
use crate::config::FileConfig;
use crate::progress::{Status, human};

fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
    load_own_models();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => return fail(&anyhow::Error::new(err).context("cannot start the runtime")),
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => fail(&err),
    }
}

/// Prints the whole error chain on one line, as `error: outer: inner: cause`.
///
/// Some drivers repeat their cause inside their own message; a cause already said is left out.
fn fail(err: &anyhow::Error) -> ExitCode {
    let mut message = String::new();
    for cause in err.chain() {
        let text = cause.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() || message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    #[allow(clippy::print_stderr)]
    {
        eprintln!("error: {message}");
    }
    ExitCode::FAILURE
}

/// Logs go to stderr, filtered by `RUST_LOG` (default: our crates at `info`, others at `warn`).
fn init_logging() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        EnvFilter::new(
            "warn,morgue=info,cli=info,engine=info,store=info,crawler=info,extractor=info,dedup=info",
        )
    });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .init();
}

/// Registers the tagger models of the directory `MORGUE_TAGGER_MODELS` names (`LANG.upos`, as
/// `train_tagger --own` writes them) for the languages that ship none (docs/tagger.md). A file
/// that is not a model of its name's language is said as a warning and left out.
fn load_own_models() {
    let Some(dir) = std::env::var_os(::dedup::tagger::OWN_MODELS_VAR).filter(|dir| !dir.is_empty())
    else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) => {
            tracing::warn!("cannot read the tagger models in {}: {err}", dir.display());
            return;
        }
    };
    let mut models = ::dedup::tagger::OwnModels::default();
    for path in entries.flatten().map(|entry| entry.path()) {
        let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
        let Some(language) = name.strip_suffix(".upos") else { continue };
        let model = std::fs::read(&path)
            .map_err(|err| err.to_string())
            .and_then(|bytes| ::dedup::tagger::Model::from_bytes(&bytes).map_err(|e| e.to_string()))
            .and_then(|model| {
                if model.language() == language {
                    Ok(model)
                } else {
                    Err(format!("it is a model of {:?}", model.language()))
                }
            });
        match model {
            Ok(model) => models.add(model),
            Err(why) => tracing::warn!(
                "cannot use the tagger model {}: {why}; {language} gets the rule-based fallback",
                path.display()
            ),
        }
    }
    ::dedup::tagger::set_own_models(models);
}

async fn run(args: Args) -> Result<()> {
    let file = FileConfig::load(args.config.as_deref())?;
    let chosen_url = args.database_url.clone().or_else(|| file.database_url.clone());
    let database_url =
        chosen_url.clone().unwrap_or_else(|| config::DEFAULT_DATABASE_URL.to_owned());
    match args.command {
        Command::Init => init(&database_url).await,
        Command::Migrate => migrate(&database_url).await,
        Command::Status => status::run(&open(&database_url).await?).await,
        Command::Stats(args) => {
            let archive = open(&database_url).await?;
            let result = stats::run(&archive, &args, &mut std::io::stdout().lock()).await;
            archive.close().await?;
            result
        }
        Command::Normalize(command) => {
            normalize::run(&command, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Sources(command) => sources_command(&database_url, command).await,
        Command::Counts(args) => {
            let archive = open(&database_url).await?;
            counts::run(&archive, &args, &mut std::io::stdout().lock()).await?;
            archive.close().await?;
            Ok(())
        }
        Command::Top { kind, counts: args, limit } => {
            let archive = open(&database_url).await?;
            counts::top(&archive, kind, &args, limit, &mut std::io::stdout().lock()).await?;
            archive.close().await?;
            Ok(())
        }
        Command::Collections(command) => {
            let archive = open(&database_url).await?;
            collections::run(&archive, command, &mut std::io::stdout().lock()).await?;
            archive.close().await?;
            Ok(())
        }
        Command::Discover { sources, all, crawl } => {
            discover(&database_url, &file, &crawl, &sources, all).await
        }
        Command::Crawl { once, crawl } => {
            let mode = if once { Mode::Once } else { Mode::Forever };
            crawl_command(&database_url, &file, &crawl, mode).await
        }
        Command::Copy { to } => copy(&database_url, &to).await,
        Command::Run { crawl } => crawl_command(&database_url, &file, &crawl, Mode::Forever).await,
        Command::Reextract { all, strict_sentences, worker } => {
            let me = this_worker(worker);
            let archive = open(&database_url).await?;
            let mode = if strict_sentences {
                extractor::sentences::Mode::Strict
            } else {
                extractor::sentences::Mode::Normal
            };
            let started = Instant::now();
            let result = engine::reextract::run_as(&archive, all, mode, &me).await;
            archive.close().await?;
            let counts = result?;
            outln!(
                "reextract: {} stories extracted again ({} without a raw page, {} no longer stories and left as they were); sentence index rebuilt for {} source-weeks in {}",
                counts.extracted,
                counts.no_raw_page,
                counts.not_stories,
                counts.weeks,
                human(started.elapsed())
            );
            Ok(())
        }
        Command::Demo { sites, articles, port } => {
            demo::run(chosen_url, sites, articles, port).await
        }
        Command::Bench(BenchCommand::Crawl { hosts, articles, concurrency, seed, archive }) => {
            bench::crawl(hosts, articles, concurrency, seed, archive).await
        }
        Command::Bench(BenchCommand::Workers { hosts, articles, workers, seed, server }) => {
            bench_workers::run(hosts, articles, &workers, seed, &server).await
        }
        Command::Bench(BenchCommand::Archive { stories, seed, archive, reuse }) => {
            bench::archive(stories, seed, archive, reuse).await
        }
        Command::Bench(BenchCommand::Serve { archive, clients, requests, seed, panel_lanes }) => {
            bench_serve::run(&archive, clients, requests, seed, panel_lanes).await
        }
        Command::Tag { lang } => tag::run(&lang, std::io::stdin().lock(), std::io::stdout().lock()),
        Command::Extract(command) => extract::run(&command),
        Command::Serve { listen, panel_lanes } => {
            let archive = open(&database_url).await?;
            serve::run(archive, listen, usize::from(panel_lanes), &mut std::io::stdout()).await
        }
        Command::Stories(args) => {
            let archive = open(&database_url).await?;
            let result = stories::run(&archive, &args).await;
            archive.close().await?;
            if let Some(written) = result? {
                tracing::info!(stories = written, "exported");
            }
            Ok(())
        }
        Command::Dedup(args) => {
            let window = config::parse_std_duration(&args.window, "window")?;
            let threads = args.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            });
            let Some(input) = args.input else {
                let config = ::dedup::Config {
                    window_secs: i64::try_from(window.as_secs()).unwrap_or(i64::MAX),
                    threads: threads.max(1),
                    ..::dedup::Config::default()
                };
                let me = this_worker(args.worker);
                let archive = open(&database_url).await?;
                let result = dedup_archive(&archive, config, &me).await;
                archive.close().await?;
                return result;
            };
            let options = dedup::Options {
                input: Some(input),
                output: args.output,
                window_secs: i64::try_from(window.as_secs()).unwrap_or(i64::MAX),
                threads: threads.max(1),
                explain: args.explain,
            };
            tokio::task::block_in_place(|| dedup::run(&options))
        }
    }
}

/// Opens an existing archive whose schema is current.
/// `morgue copy --to URL`: the archive into an empty one, verified table by table.
async fn copy(from_url: &str, to_url: &str) -> Result<()> {
    let started = Instant::now();
    let from = open(from_url).await?;
    let to = Archive::open(to_url, OpenMode::Create).await?;
    to.migrate().await.with_context(|| to.display_url().to_owned())?;
    let copies = store::copy::copy(&from, &to)
        .await
        .with_context(|| format!("copying {} to {}", from.display_url(), to.display_url()))?;
    for table in &copies {
        outln!("{:<18} {:>10} rows  sha256 {}", table.table, table.rows, table.checksum);
    }
    let rows: u64 = copies.iter().map(|t| t.rows).sum();
    outln!(
        "copied {rows} rows of {} tables from {} to {} in {}; counts and checksums match",
        copies.len(),
        from.display_url(),
        to.display_url(),
        human(started.elapsed())
    );
    from.close().await?;
    to.close().await?;
    Ok(())
}

async fn open(url: &str) -> Result<Archive> {
    let archive = Archive::open(url, OpenMode::Existing).await?;
    archive.check_schema().await.with_context(|| {
        format!("{} (bring it up to date with `morgue migrate`)", archive.display_url())
    })?;
    Ok(archive)
}

async fn sources_command(url: &str, command: SourcesCommand) -> Result<()> {
    let archive = open(url).await?;
    let mut stdout = std::io::stdout().lock();
    match command {
        SourcesCommand::Add { name, homepage, timezone, feeds } => {
            let input = sources::SourceInput {
                name: name.clone(),
                homepage,
                timezone,
                feeds,
                collections: Vec::new(),
            };
            match sources::add(&archive, &input).await? {
                sources::AddOutcome::New { id, feeds } => {
                    let _ = writeln!(stdout, "added source {id}: {name} ({feeds} feeds given)");
                }
                sources::AddOutcome::Existing { id, feeds } => {
                    let _ = writeln!(
                        stdout,
                        "source {id}: {name} was already there ({feeds} new feeds given)"
                    );
                }
            }
        }
        SourcesCommand::Import { file, collection } => {
            sources::import(&archive, &file, collection.as_deref(), &mut stdout).await?;
        }
        SourcesCommand::List { format } => sources::list(&archive, format, &mut stdout).await?,
    }
    archive.close().await?;
    Ok(())
}

async fn discover(
    url: &str,
    file: &FileConfig,
    args: &CrawlArgs,
    names: &[String],
    all: bool,
) -> Result<()> {
    let settings = config::crawl_settings(args, file)?;
    let archive = open(url).await?;
    let chosen = if all {
        store::sources::list(&archive).await?
    } else if names.is_empty() {
        store::sources::undiscovered(&archive).await?
    } else {
        let mut chosen = Vec::new();
        for name in names {
            let source = store::sources::by_name(&archive, name)
                .await?
                .with_context(|| format!("no source named {name:?} (see `morgue sources list`)"))?;
            chosen.push(source);
        }
        chosen
    };
    let status = Status::new();
    let stop = signals::stop_on_signals();
    let engine =
        Arc::new(Engine::new(archive.clone(), settings, status.counts(), Mode::Once, stop)?);
    {
        let _ticker = status.show();
        engine.discover(chosen).await?;
        engine.finish().await;
    }
    outln!("discover: {}", status.summary());
    archive.close().await?;
    Ok(())
}

async fn crawl_command(url: &str, file: &FileConfig, args: &CrawlArgs, mode: Mode) -> Result<()> {
    let settings = config::crawl_settings(args, file)?;
    let archive = open(url).await?;
    let status = Status::new();
    let stop = signals::stop_on_signals();
    let engine = Arc::new(Engine::new(archive.clone(), settings, status.counts(), mode, stop)?);
    let metrics = match args.metrics {
        Some(listen) => {
            let (addr, task) = metrics::serve(archive.clone(), listen).await?;
            outln!("metrics on http://{addr}/metrics");
            let _ = std::io::stdout().flush();
            Some(task)
        }
        None => None,
    };
    let result = {
        let _ticker = status.show();
        engine.run().await
    };
    if let Some(task) = metrics {
        task.abort();
    }
    outln!("crawl: {}", status.summary());
    let display = archive.display_url().to_owned();
    archive.close().await?;
    match result {
        // Say which archive: its disk is the one to free.
        Err(err) if err.is_full() => Err(anyhow::Error::new(err).context(format!(
            "crawling {display} (free space on its disk, then crawl again: nothing was half-written)"
        ))),
        result => Ok(result?),
    }
}

/// This process as a worker of the archive: `name`, or `HOST:PID`.
fn this_worker(name: Option<String>) -> engine::exclusive::NewWorker {
    engine::exclusive::NewWorker {
        name: name.unwrap_or_else(config::default_worker),
        host: config::hostname(),
        pid: std::process::id(),
    }
}

/// `morgue dedup` over the archive: the stories not yet deduplicated, as worker `me` (one batch at
/// a time over an archive, whoever runs it).
async fn dedup_archive(
    archive: &Archive,
    config: ::dedup::Config,
    me: &engine::exclusive::NewWorker,
) -> Result<()> {
    let started = Instant::now();
    let deduper = engine::dedup_archive::load(config).await?;
    let done = engine::dedup_archive::compare_new_as(archive, &deduper, me).await?;
    // Links a new batch made conflict (a story that cannot copy two template twins) are removed.
    let removed = match done.removed {
        0 => String::new(),
        1 => ", 1 stored link removed as conflicting".to_owned(),
        n => format!(", {n} stored links removed as conflicting"),
    };
    outln!(
        "dedup: {} stories compared, {} links found{removed}, {} clusters written in {}",
        done.stories,
        done.links,
        done.clusters,
        human(started.elapsed())
    );
    Ok(())
}

async fn init(url: &str) -> Result<()> {
    let archive = Archive::open(url, OpenMode::Create).await?;
    let report = archive.migrate().await.with_context(|| archive.display_url().to_owned())?;
    if report.applied.is_empty() {
        outln!("archive {} is ready; its schema was already current", archive.display_url());
    } else {
        outln!("archive {} is ready; applied {}", archive.display_url(), report.applied.join(", "));
    }
    say_words_filled(&report);
    archive.close().await?;
    Ok(())
}

/// What a migration wrote besides the schema: the words of stories archived before word search.
fn say_words_filled(report: &store::MigrationReport) {
    if report.search_words_filled > 0 {
        outln!("indexed the words of {} stories for search", report.search_words_filled);
    }
}

async fn migrate(url: &str) -> Result<()> {
    let archive = Archive::open(url, OpenMode::Existing).await?;
    let report = archive.migrate().await.with_context(|| archive.display_url().to_owned())?;
    if report.applied.is_empty() {
        outln!("archive {} is up to date ({})", archive.display_url(), report.current.join(", "));
    } else {
        outln!("archive {}: applied {}", archive.display_url(), report.applied.join(", "));
    }
    say_words_filled(&report);
    archive.close().await?;
    Ok(())
}
