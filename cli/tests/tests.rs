//! Runs the `morgue` binary the way people do, in a temporary working directory.

mod archive;
// The web pages in headless Chromium, over WebDriver.
mod browser;
// Japanese and Chinese: tagging, extraction, title keys and dedup.
#[cfg(all(feature = "ja", feature = "zh"))]
mod cjk;
// Korean: tagging and dedup.
#[cfg(feature = "ko")]
mod korean;
// `morgue crawl` and `morgue sources` against the test web.
mod crawl;
// `morgue dedup`: a researcher's JSON-lines corpus, line for line.
mod dedup;
// `morgue extract`: one page, and JSON lines streamed in order.
mod extract;
// `morgue normalize`: line-for-line batch behaviour.
mod normalize;
// Collections, Media Cloud source lists, queries and their errors.
mod research;
// `morgue tag`: CoNLL-U in, the same lines with UPOS out.
mod tag;
// Architecture invariants checked over the source tree.
mod tidy;
// `morgue serve` on a crafted archive: the API, its limits and the pages.
mod web;

use std::path::Path;
use std::process::{Command, Output};

/// The `morgue` command with `args`, run in `dir` with the environment cleared of our own variables.
fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_morgue"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("MORGUE_DATABASE_URL")
        .env_remove("MORGUE_TAGGER_MODELS")
        .env_remove("RUST_LOG");
    command
}

/// `morgue ARGS` started in `dir` with the environment cleared of our own variables, its standard
/// output and error piped or discarded.
pub(crate) fn spawn_morgue(dir: &Path, args: &[&str], piped: bool) -> std::process::Child {
    let stdio = || if piped { std::process::Stdio::piped() } else { std::process::Stdio::null() };
    command(dir, args).stdout(stdio()).stderr(stdio()).spawn().expect("start morgue")
}

/// `morgue ARGS` started in `dir` like [`spawn_morgue`], its standard output discarded and its
/// standard error written to `log` (a file never fills up and blocks it, as an unread pipe would).
pub(crate) fn spawn_morgue_logging(dir: &Path, args: &[&str], log: &Path) -> std::process::Child {
    let log = std::fs::File::create(log).expect("create the log file");
    command(dir, args)
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start morgue")
}

/// `morgue ARGS` in `dir`, with the environment cleared of our own variables.
pub(crate) fn morgue(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().expect("run morgue")
}

/// `morgue ARGS` in a temporary directory, with `input` on standard input.
pub(crate) fn morgue_with_stdin(args: &[&str], input: &[u8]) -> Output {
    morgue_with_stdin_and_env(args, input, &[])
}

/// [`morgue_with_stdin`] with these environment variables set.
pub(crate) fn morgue_with_stdin_and_env(
    args: &[&str],
    input: &[u8],
    env: &[(&str, &std::ffi::OsStr)],
) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut child = command(dir.path(), args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run morgue");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Write from another thread so a large output cannot deadlock against a large input.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("wait for morgue");
    writer.join().expect("writer thread").expect("write stdin");
    output
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
