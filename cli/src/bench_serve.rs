//! `morgue bench serve`: `morgue serve` under load, as researchers would put it.
//!
//! It starts `morgue serve` on the archive (this executable, a process of its own, on a free
//! loopback port), then `--clients` clients at once, each on its own keep-alive connection, ask in
//! turn for a search page and a story page until `--requests` have been answered:
//!
//! - the search page `/?q=WORD&since=DAY&until=DAY+30`: a word of middling frequency over 30 days,
//!   folded by cluster, with its attention chart and its top sources and words: everything the
//!   page draws;
//! - a story page `/stories/ID` of a random id: the text, URLs, removed sentences and cluster.
//!
//! The archive is one `morgue bench archive` filled (its words are those of the generator's
//! vocabulary for `--seed`; its ids run from 1 to its number of stories). The report gives, per
//! page, p50, p95 and the longest answer, the answers by status (a 5xx is a failure of the
//! check), the pages a second, and the server's peak resident memory (`VmHWM`). The first
//! `--clients` answers warm the caches and are not counted.

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
use hyper_util::rt::TokioIo;
use store::{Archive, OpenMode};
use tokio::sync::Mutex;

/// The two pages asked for, in turn.
const PAGES: [&str; 2] = ["search page", "story page"];

/// One answer: which page, its status, how long it took.
struct Answer {
    page: usize,
    status: u16,
    took: Duration,
}

/// Runs `morgue bench serve`.
pub(crate) async fn run(url: &str, clients: usize, requests: usize, seed: u64) -> Result<()> {
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
    let mut server = Server::start(url)?;
    let result = load(&server.addr, stories, clients, requests, seed).await;
    let peak = server.peak_rss_kib();
    server.stop();
    let (answers, elapsed) = result?;

    outln!("archive              {shown}");
    outln!("stories              {stories}");
    outln!("clients              {clients}");
    let counted = &answers[clients.min(answers.len())..];
    outln!(
        "answers              {} in {:.1} s ({:.1} pages/s; the first {clients} not counted)",
        answers.len(),
        elapsed.as_secs_f64(),
        answers.len() as f64 / elapsed.as_secs_f64()
    );
    for (page, name) in PAGES.iter().enumerate() {
        let mut times: Vec<Duration> =
            counted.iter().filter(|a| a.page == page).map(|a| a.took).collect();
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
    let by_class = |class: u16| answers.iter().filter(|a| a.status / 100 == class).count();
    outln!(
        "statuses             2xx {}  3xx {}  4xx {}  5xx {}",
        by_class(2),
        by_class(3),
        by_class(4),
        by_class(5)
    );
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
    fn start(url: &str) -> Result<Server> {
        let exe = std::env::current_exe().context("cannot find this executable")?;
        let mut child = Command::new(exe)
            .args(["--database-url", url, "serve", "--listen", "127.0.0.1:0"])
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
    let answers = Arc::new(Mutex::new(Vec::with_capacity(requests)));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..clients {
        let (addr, words, next, answers) =
            (addr.to_owned(), Arc::clone(&words), Arc::clone(&next), Arc::clone(&answers));
        tasks.spawn(async move {
            let stream = tokio::net::TcpStream::connect(&addr)
                .await
                .with_context(|| format!("cannot connect to {addr}"))?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .context("cannot talk HTTP to the server")?;
            tokio::spawn(connection);
            let mut rng = Rng(seed ^ (client as u64).wrapping_mul(0x9E37_79B9));
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests {
                    return anyhow::Ok(());
                }
                let page = i % PAGES.len();
                let path = match page {
                    0 => {
                        // Words of middling frequency, as `morgue bench archive` asks for.
                        let word = &words[20 + rng.below(500)];
                        let day = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or_default()
                            + Days::new(rng.below(330) as u64);
                        format!("/?q={word}&since={day}&until={}", day + Days::new(30))
                    }
                    _ => format!("/stories/{}", 1 + rng.below(stories as usize)),
                };
                let request = Request::get(&path)
                    .header(hyper::header::HOST, &addr)
                    .body(Empty::<Bytes>::new())
                    .context("cannot build a request")?;
                let t = Instant::now();
                let response = sender
                    .send_request(request)
                    .await
                    .with_context(|| format!("no answer to GET {path}"))?;
                let status = response.status().as_u16();
                response
                    .into_body()
                    .collect()
                    .await
                    .with_context(|| format!("cannot read the answer to GET {path}"))?;
                answers.lock().await.push(Answer { page, status, took: t.elapsed() });
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
