//! The `morgue` binary: parses arguments, sets up logging, and wires the stages together.
//!
//! This is the only crate that reads the environment or configuration, installs a tracing
//! subscriber, prints, or uses `anyhow`. Errors are printed once, on one line, by `main`.

mod args;
mod extract;
mod normalize;

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use store::{Archive, OpenMode};
use tracing_subscriber::EnvFilter;

use crate::args::{Args, Command};

fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
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
        EnvFilter::new("warn,morgue=info,cli=info,store=info,crawler=info,extractor=info")
    });
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
}

async fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Init => init(&args.database_url).await,
        Command::Migrate => migrate(&args.database_url).await,
        Command::Normalize(command) => {
            normalize::run(&command, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Extract(command) => extract::run(&command),
    }
}

/// Writes a line to stdout; a closed pipe (`morgue … | head`) is not an error worth a message.
macro_rules! outln {
    ($($arg:tt)*) => {{
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, $($arg)*);
    }};
}

async fn init(url: &str) -> Result<()> {
    let archive = Archive::open(url, OpenMode::Create).await?;
    let report = archive.migrate().await.with_context(|| archive.display_url().to_owned())?;
    if report.applied.is_empty() {
        outln!("archive {} is ready; its schema was already current", archive.display_url());
    } else {
        outln!("archive {} is ready; applied {}", archive.display_url(), report.applied.join(", "));
    }
    archive.close().await?;
    Ok(())
}

async fn migrate(url: &str) -> Result<()> {
    let archive = Archive::open(url, OpenMode::Existing).await?;
    let report = archive.migrate().await.with_context(|| archive.display_url().to_owned())?;
    if report.applied.is_empty() {
        outln!("archive {} is up to date ({})", archive.display_url(), report.current.join(", "));
    } else {
        outln!("archive {}: applied {}", archive.display_url(), report.applied.join(", "));
    }
    archive.close().await?;
    Ok(())
}
