//! The web pages in a real browser: headless Chromium, driven through `chromedriver` (Debian's
//! `chromium` and `chromium-driver`, which `.ci/run` installs when absent) over WebDriver, goes
//! through a query, the folded results and their copies, the chart and the top words (each in its
//! frame), a story page, its cluster's reasons and a copy's page. Missing binaries fail the test and say how to install them.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};

use crate::web::{COPY_REASON, ECHO_REASON, REPEATED, Server};

/// How long one step may wait for the page it expects.
const STEP: Duration = Duration::from_secs(30);

/// `name` on `PATH`, or a failure that says how to install it.
fn binary(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| {
            panic!(
                "the browser test needs `{name}` on PATH: install Debian's chromium and \
                 chromium-driver (apt-get install -y chromium chromium-driver; .ci/run does)"
            )
        })
}

/// `chromedriver` on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        let chromedriver = binary("chromedriver");
        // A free port: bound, read and let go; chromedriver binds it at once.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut child = Command::new(chromedriver)
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".to_owned()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        // It says when it listens; until then a session cannot be asked for.
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut said = String::new();
        loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = child.kill();
                panic!("chromedriver stopped before it listened:\n{said}");
            }
            said.push_str(&line);
            if line.contains("started successfully") {
                break;
            }
        }
        // Keep reading what it says, so that a full pipe never blocks it.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Driver { child, url: format!("http://127.0.0.1:{port}") }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium session.
async fn session(driver: &Driver, profile: &std::path::Path) -> Client {
    let chromium = binary("chromium");
    let options = serde_json::json!({
        "binary": chromium,
        "args": [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--window-size=1280,1024",
            format!("--user-data-dir={}", profile.display()),
        ],
    });
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".to_owned(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .unwrap_or_else(|err| panic!("no Chromium session from chromedriver: {err}"))
}

async fn text(client: &Client, css: &str) -> String {
    let element = client.wait().at_most(STEP).for_element(Locator::Css(css)).await;
    element.unwrap_or_else(|err| panic!("{css}: {err}")).text().await.unwrap()
}

#[test]
fn chromium_goes_through_a_query_its_folded_results_the_chart_and_a_story_that_explains() {
    let server = Server::start();
    let c = server.crafted;
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = session(&driver, profile.path()).await;
        let base = format!("http://127.0.0.1:{}", server.port);

        // A query typed into the search page and sent.
        client.goto(&format!("{base}/")).await.unwrap();
        let query = client.wait().at_most(STEP).for_element(Locator::Css("input[name=q]")).await;
        query.unwrap().send_keys("harbourton").await.unwrap();
        client.find(Locator::Css("#search button")).await.unwrap().click().await.unwrap();
        // The page before the query lists stories too: wait for the answer's own page (its box
        // holds the query as its attribute) before reading rows, or they may be the old page's.
        client
            .wait()
            .at_most(STEP)
            .for_element(Locator::Css("input[name=q][value=harbourton]"))
            .await
            .expect("the query's page");
        let results = client
            .wait()
            .at_most(STEP)
            .for_element(Locator::Css("#results tr.result"))
            .await
            .expect("results after the query");
        assert!(client.current_url().await.unwrap().as_str().contains("q=harbourton"));

        // Folded: one row for the three stories, its two copies counted, listed when opened.
        let rows = client.find_all(Locator::Css("#results tr.result")).await.unwrap();
        assert_eq!(rows.len(), 1);
        assert!(results.text().await.unwrap().contains("Storm floods the coast"));
        let summary = client.find(Locator::Css("details.copies summary")).await.unwrap();
        assert_eq!(summary.text().await.unwrap(), "2 copies");
        let copy = client
            .find(Locator::Css(&format!("details.copies a[href='/stories/{}']", c.storm_copy)))
            .await
            .unwrap();
        assert!(!copy.is_displayed().await.unwrap(), "copies are folded until asked for");
        summary.click().await.unwrap();
        assert!(copy.is_displayed().await.unwrap(), "the copies show once the row is opened");
        assert_eq!(copy.text().await.unwrap(), "Storm floods the coast, 40 homes evacuated");

        // The chart, in a frame of its own: drawn, two lines (every copy, and copies folded),
        // with its title.
        let frame = client.find(Locator::Css("iframe#chart-panel")).await.unwrap();
        let (_, _, width, height) = frame.rectangle().await.unwrap();
        assert!(width > 100.0 && height > 50.0, "chart frame at {width}x{height}");
        frame.enter_frame().await.unwrap();
        client
            .wait()
            .at_most(STEP)
            .for_element(Locator::Css("#chart svg polyline"))
            .await
            .expect("the chart's lines in its frame");
        let lines = client.find_all(Locator::Css("#chart svg polyline")).await.unwrap();
        assert_eq!(lines.len(), 2);
        for line in &lines {
            assert!(line.is_displayed().await.unwrap());
        }
        assert!(text(&client, "#chart svg").await.contains("Attention over time: harbourton"));
        let (_, _, width, height) =
            client.find(Locator::Css("#chart svg")).await.unwrap().rectangle().await.unwrap();
        assert!(width > 100.0 && height > 50.0, "chart drawn at {width}x{height}");
        client.enter_parent_frame().await.unwrap();

        // The top words, in theirs.
        client
            .find(Locator::Css("iframe#top-words-panel"))
            .await
            .unwrap()
            .enter_frame()
            .await
            .unwrap();
        assert!(text(&client, "#top-words").await.contains("harbourton"));
        client.enter_parent_frame().await.unwrap();

        // The story's page: its text, the sentence removed as repeated, its cluster and why.
        let story = client.find(Locator::Css("#results a.story")).await.unwrap();
        let href = story.attr("href").await.unwrap().expect("a story link has its address");
        story.click().await.unwrap();
        // The search page has an h1 too: read the story's page once it is the one shown.
        let story_url = url::Url::parse(&format!("{base}{href}")).unwrap();
        client.wait().at_most(STEP).for_url(&story_url).await.unwrap();
        let heading = text(&client, "h1").await;
        assert_eq!(heading, "Storm floods the coast");
        let body = text(&client, "#text").await;
        assert!(body.contains("Mayor Reyes") && !body.contains(REPEATED), "{body}");
        assert!(text(&client, "#removed").await.contains(REPEATED));
        let cluster = text(&client, "#cluster").await;
        for expected in ["Evening Star", "Quiet Gazette", "representative", "duplicate (0.93)"] {
            assert!(cluster.contains(expected), "{expected} missing from {cluster}");
        }
        let reasons = client.find_all(Locator::Css("#cluster li.reason")).await.unwrap();
        let mut said = Vec::new();
        for reason in reasons {
            said.push(reason.text().await.unwrap());
        }
        assert!(said.iter().any(|r| r.contains(COPY_REASON)), "{said:?}");
        assert!(said.iter().any(|r| r.contains(ECHO_REASON)), "{said:?}");

        // A copy's page, from the cluster: the same cluster, the reason from its side.
        client
            .find(Locator::Css(&format!("#cluster a[href='/stories/{}']", c.storm_echo)))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        client
            .wait()
            .at_most(STEP)
            .for_url(&url::Url::parse(&format!("{base}/stories/{}", c.storm_echo)).unwrap())
            .await
            .unwrap();
        assert_eq!(text(&client, "h1").await, "Harbourton evacuates homes as sea rises");
        assert!(text(&client, "#cluster").await.contains(ECHO_REASON));
        client.close().await.unwrap();
    });
}
