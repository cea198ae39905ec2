//! `morgue bench serve`: `morgue serve` under load, as researchers would put it.
//!
//! It starts `morgue serve` on the archive (this executable, a process of its own, on a free
//! loopback port), then `--clients` clients at once, each on its own keep-alive connection, ask in
//! turn for a search page and a story page until `--requests` pages have been answered:
//!
//! - the search page `/?q=WORD&since=DAY&until=DAY+30`: a word of middling frequency over 30 days,
//!   folded by cluster; then, as a browser does, every frame the page embeds (the attention
//!   chart, the top sources, the top words), at once, each on a keep-alive connection of the
//!   client's own beside the page's;
//! - a story page `/stories/ID` of a random id: the text, URLs, removed sentences and cluster.
//!
//! The archive is one `morgue bench archive` filled (its words are those of the generator's
//! vocabulary for `--seed`; its ids run from 1 to its number of stories). The report gives, per
//! page and per frame, p50, p95 and the longest answer, and for the search page with its frames
//! the time until the last frame came (what a researcher waits for the whole page); the answers
//! by status (a 5xx is a failure of the check), the pages a second, the server's CPU time and
//! its peak resident memory (`VmHWM`). The first `--clients` pages (and their frames) warm the
//! caches and are not counted.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use chrono::{Days, NaiveDate};
use engine::generate::Rng;
use http_body_util::{BodyExt as _, Empty};
use hyper::Request;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use store::{Archive, OpenMode};
use tokio::sync::Mutex;

/// What the report names the search page, the story page, and a search page with its frames.
const SEARCH: &str = "search page";
const STORY: &str = "story page";
const WHOLE: &str = "search page + frames";

/// One answer: to what, its status, how long it took, and whether it warmed the caches.
struct Answer {
    what: String,
    status: u16,
    took: Duration,
    warming: bool,
}

/// Runs `morgue bench serve`.
pub(crate) async fn run(
    url: &str,
    clients: usize,
    requests: usize,
    seed: u64,
    panel_lanes: u16,
) -> Result<()> {
    if clients == 0 || requests == 0 {
        bail!("--clients and --requests must be at least 1");
    }
    let archive = Archive::open(url, OpenMode::Existing).await?;
    let stories = store::stories::count(&archive).await?;
    let shown = archive.display_url().to_string();
    archive.close().await?;
    if stories == 0 {
        bail!("the archive at {shown} holds no stories: fill it with `morgue bench archive` first");
    }
    let mut server = Server::start(url, panel_lanes)?;
    let cpu_before = server.cpu_seconds();
    let result = load(&server.addr, stories, clients, requests, seed).await;
    let cpu = server.cpu_seconds().zip(cpu_before).map(|(after, before)| after - before);
    let peak = server.peak_rss_kib();
    server.stop();
    let (answers, elapsed) = result?;

    outln!("archive              {shown}");
    outln!("stories              {stories}");
    outln!("clients              {clients}");
    let pages = answers.iter().filter(|a| a.what == SEARCH || a.what == STORY).count();
    outln!(
        "answers              {} pages and {} frames in {:.1} s ({:.1} pages/s; the first {clients} pages and their frames not counted)",
        pages,
        answers.iter().filter(|a| a.what.starts_with('/')).count(),
        elapsed.as_secs_f64(),
        pages as f64 / elapsed.as_secs_f64()
    );
    // The pages first, then each frame by its path, then the whole search page.
    let mut names: Vec<&str> = vec![SEARCH, STORY];
    let mut frames: Vec<&str> =
        answers.iter().map(|a| a.what.as_str()).filter(|w| w.starts_with('/')).collect();
    frames.sort_unstable();
    frames.dedup();
    names.extend(frames);
    names.push(WHOLE);
    for name in names {
        let mut times: Vec<Duration> =
            answers.iter().filter(|a| !a.warming && a.what == name).map(|a| a.took).collect();
        if times.is_empty() {
            continue;
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p95 = (times.len() * 95).div_ceil(100) - 1;
        outln!(
            "{name:<20} p50 {:>8.1} ms  p95 {:>8.1} ms  max {:>8.1} ms  ({} answers)",
            ms(times[times.len() / 2]),
            ms(times[p95]),
            ms(times[times.len() - 1]),
            times.len()
        );
    }
    let by_class =
        |class: u16| answers.iter().filter(|a| a.what != WHOLE && a.status / 100 == class).count();
    outln!(
        "statuses             2xx {}  3xx {}  4xx {}  5xx {}",
        by_class(2),
        by_class(3),
        by_class(4),
        by_class(5)
    );
    if let Some(cpu) = cpu {
        outln!(
            "server CPU           {cpu:.1} s ({:.1} ms a page, its frames included)",
            cpu * 1000.0 / pages.max(1) as f64
        );
    }
    if let Some(kib) = peak {
        outln!("server peak memory   {:.1} MiB", kib as f64 / 1024.0);
    }
    if let Some(load) = crate::bench::load_average() {
        outln!("load average         {load} (1, 5, 15 min)");
    }
    if by_class(5) > 0 {
        bail!("the server answered {} requests with a 5xx", by_class(5));
    }
    Ok(())
}

/// `morgue serve` in a process of its own.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(url: &str, panel_lanes: u16) -> Result<Server> {
        let exe = std::env::current_exe().context("cannot find this executable")?;
        let mut child = Command::new(exe)
            .args(["--database-url", url, "serve", "--listen", "127.0.0.1:0", "--panel-lanes"])
            .arg(panel_lanes.to_string())
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .context("cannot start `morgue serve`")?;
        let stdout = child.stdout.take().context("cannot read `morgue serve`'s output")?;
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .context("cannot read `morgue serve`'s output")?;
        // "serving ARCHIVE on http://ADDR/"
        let Some(addr) =
            line.trim_end().rsplit_once(" on http://").map(|(_, a)| a.trim_end_matches('/'))
        else {
            let _ = child.kill();
            let _ = child.wait();
            bail!("`morgue serve` did not start (it printed {:?})", line.trim_end());
        };
        let addr = addr.to_owned();
        Ok(Server { child, addr })
    }

    fn peak_rss_kib(&self) -> Option<u64> {
        crate::bench::peak_rss_kib_of(&self.child.id().to_string())
    }

    /// The CPU time the server has spent, user and system, all its threads, in seconds (Linux:
    /// `/proc/PID/stat`, in the kernel's clock ticks for user space, 100 a second).
    fn cpu_seconds(&self) -> Option<f64> {
        let text = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<u64>().ok());
        Some((ticks(14)? + ticks(15)?) as f64 / 100.0)
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The clients' run: every answer in the order it came, and the time the run took.
async fn load(
    addr: &str,
    stories: u64,
    clients: usize,
    requests: usize,
    seed: u64,
) -> Result<(Vec<Answer>, Duration)> {
    let words = Arc::new(engine::generate::vocabulary(seed));
    let next = Arc::new(AtomicUsize::new(0));
    let answers = Arc::new(Mutex::new(Vec::with_capacity(requests * 2)));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..clients {
        let (addr, words, next, answers) =
            (addr.to_owned(), Arc::clone(&words), Arc::clone(&next), Arc::clone(&answers));
        tasks.spawn(async move {
            let mut sender = connect(&addr).await?;
            // The connections frames are fetched on, as a browser opens them beside the page's.
            let mut beside: Vec<SendRequest<Empty<Bytes>>> = Vec::new();
            let mut rng = Rng(seed ^ (client as u64).wrapping_mul(0x9E37_79B9));
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests {
                    return anyhow::Ok(());
                }
                let warming = i < clients;
                if i % 2 == 1 {
                    let path = format!("/stories/{}", 1 + rng.below(stories as usize));
                    let (status, took, _) = get(&mut sender, &addr, &path).await?;
                    let what = STORY.to_owned();
                    answers.lock().await.push(Answer { what, status, took, warming });
                    continue;
                }
                // Words of middling frequency, as `morgue bench archive` asks for.
                let word = &words[20 + rng.below(500)];
                let day = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or_default()
                    + Days::new(rng.below(330) as u64);
                let path = format!("/?q={word}&since={day}&until={}", day + Days::new(30));
                let t = Instant::now();
                let (status, took, body) = get(&mut sender, &addr, &path).await?;
                let mut got = vec![Answer { what: SEARCH.to_owned(), status, took, warming }];
                let sources = frame_sources(&String::from_utf8_lossy(&body));
                while beside.len() < sources.len() {
                    beside.push(connect(&addr).await?);
                }
                let mut fetches = tokio::task::JoinSet::new();
                for (mut sender, path) in beside.drain(..).zip(sources) {
                    let addr = addr.clone();
                    fetches.spawn(async move {
                        let answer = get(&mut sender, &addr, &path).await;
                        answer.map(|(status, took, _)| (sender, path, status, took))
                    });
                }
                while let Some(fetched) = fetches.join_next().await {
                    let (sender, path, status, took) =
                        fetched.context("a frame's fetch failed")??;
                    beside.push(sender);
                    let what = path.split('?').next().unwrap_or_default().to_owned();
                    got.push(Answer { what, status, took, warming });
                }
                got.push(Answer { what: WHOLE.to_owned(), status, took: t.elapsed(), warming });
                answers.lock().await.extend(got);
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.context("a client failed")??;
    }
    let elapsed = started.elapsed();
    let answers = std::mem::take(&mut *answers.lock().await);
    Ok((answers, elapsed))
}

/// A keep-alive HTTP/1.1 connection to the server.
async fn connect(addr: &str) -> Result<SendRequest<Empty<Bytes>>> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .with_context(|| format!("cannot connect to {addr}"))?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context("cannot talk HTTP to the server")?;
    tokio::spawn(connection);
    Ok(sender)
}

/// `GET path`: the status, the time until the whole answer came, and its body.
async fn get(
    sender: &mut SendRequest<Empty<Bytes>>,
    addr: &str,
    path: &str,
) -> Result<(u16, Duration, Bytes)> {
    let request = Request::get(path)
        .header(hyper::header::HOST, addr)
        .body(Empty::<Bytes>::new())
        .context("cannot build a request")?;
    let t = Instant::now();
    sender.ready().await.with_context(|| format!("the connection closed before GET {path}"))?;
    let response =
        sender.send_request(request).await.with_context(|| format!("no answer to GET {path}"))?;
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .with_context(|| format!("cannot read the answer to GET {path}"))?
        .to_bytes();
    Ok((status, t.elapsed(), body))
}

/// The paths of the frames a page embeds (`<iframe ... src="PATH">`), unescaped.
fn frame_sources(html: &str) -> Vec<String> {
    let mut sources = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<iframe ") {
        rest = &rest[at..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        if let Some(src) = tag.split(" src=\"").nth(1).and_then(|v| v.split('"').next()) {
            sources.push(
                src.replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            );
        }
        rest = &rest[end..];
    }
    sources
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_found_and_their_paths_unescaped() {
        let html = r#"<p>x</p><iframe id="a" src="/panels/chart?q=a&amp;since=2025-01-01" height="4"></iframe>
<iframe title="&quot;" src="/panels/top/words"></iframe><iframe src=x>"#;
        assert_eq!(
            frame_sources(html),
            ["/panels/chart?q=a&since=2025-01-01", "/panels/top/words"]
        );
        assert!(frame_sources("<p>no frames</p>").is_empty());
    }
}
