//! `morgue demo`: the whole pipeline on a generated web, with nothing to set up.
//!
//! It serves a small test web on loopback from this process (a fixed port, so that a second run
//! finds the same sites), adds its sites as sources of an
//! archive (`demo.db` in the working directory unless `--database-url` says otherwise), crawls it
//! politely (a short per-host interval, so the demo takes seconds), finds the syndicated copies
//! among the stories, and prints what the archive now holds: sources and their feeds, stories,
//! and story clusters.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};
use store::sources::NewSource;
use store::{Archive, OpenMode};

use engine::crawl::{Engine, Mode};

use crate::args::CrawlArgs;
use crate::config::FileConfig;
use crate::progress::Status;

/// Runs the demo.
pub(crate) async fn run(
    database_url: Option<String>,
    sites: usize,
    articles: usize,
    port: u16,
) -> Result<()> {
    let mut config = testweb::Config::small(2026, sites, articles, chrono::Utc::now());
    config.crawl_delay_every = 3;
    config.crawl_delay_secs = 0.3;
    // A fixed port keeps the sites' URLs, so running the demo again adds to the same archive.
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let web = testweb::TestWeb::start_on(config, addr)
        .with_context(|| format!("cannot serve the demo web on {addr} (choose another --port)"))?;
    let url = database_url.unwrap_or_else(|| "demo.db".to_owned());
    let archive = Archive::open(&url, OpenMode::Create).await?;
    archive.migrate().await?;
    outln!("serving {sites} generated news sites on {} (names under .test)", web.addr());
    add_sources(&archive, &web).await?;
    let args = CrawlArgs {
        host_interval: Some("100ms".to_owned()),
        allow_private_addresses: true,
        resolve: vec!["*.test=127.0.0.1".to_owned()],
        dedup: true,
        ..CrawlArgs::default()
    };
    let settings = crate::config::crawl_settings(&args, &FileConfig::default())?;
    let status = Status::new();
    let stop = crate::signals::stop_on_signals();
    let engine =
        Arc::new(Engine::new(archive.clone(), settings, status.counts(), Mode::Once, stop)?);
    {
        let _ticker = status.show();
        engine.run().await?;
    }
    outln!("crawl: {}", status.summary());
    outln!();
    for source in store::sources::list(&archive).await? {
        let feeds = store::feeds::for_source(&archive, source.id).await?;
        let kinds: Vec<&str> = feeds.iter().map(|feed| feed.kind.as_str()).collect();
        outln!("{:<32} {}", source.name, kinds.join(", "));
    }
    let stories = store::stories::count(&archive).await?;
    let clusters = store::clusters::count(&archive).await?;
    outln!();
    outln!(
        "{stories} stories and {clusters} story clusters in {} (try `morgue --database-url {url} stories --one-per-cluster`)",
        archive.display_url()
    );
    archive.close().await?;
    Ok(())
}

/// Adds every site of the test web as a source.
pub(crate) async fn add_sources(archive: &Archive, web: &testweb::TestWeb) -> Result<()> {
    for (name, homepage) in web.sources() {
        let canonical_domain = normalizer::canonical_domain(&homepage).unwrap_or_default();
        let new = NewSource { name, homepage, canonical_domain, timezone: "UTC".to_owned() };
        store::sources::add(archive, &new).await?;
    }
    Ok(())
}
