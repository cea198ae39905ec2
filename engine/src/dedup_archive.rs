//! Fuzzy dedup over the archive (`morgue dedup`, and after each crawl pass when the settings ask
//! for it): the stories not yet deduplicated, against the stories of their time window, with links
//! and clusters stored.
//!
//! Each batch of new stories (those without a stored signature, by id) gets its `dedup`
//! signatures; the stored signatures of the stories published within the window around the batch
//! are read back with the links already found among them; `Deduper::update` returns only what the
//! batch changes: new links, and the assignments of every story whose cluster it touches. Links
//! are stored with their method, every score and the thresholds in force; stored links that the
//! batch makes conflict (a story linked to two template twins, `dedup`'s `conflict.rs`) are
//! deleted; the touched clusters are rewritten; the new signatures are stored last, so a crash halfway only means the batch is
//! compared again (links are unique per pair and method, clusters are rewritten whole). After the
//! batches, the log of changed facts is trimmed to its latest rows ([`Archive::trim_fact_changes`]).
//!
//! One batch runs at a time over an archive, whoever runs it (`morgue run --dedup`'s workers, or
//! `morgue dedup` through [`compare_new_as`]): it holds the archive's dedup claim
//! ([`crate::exclusive`]). Two batches at once would each read the other's stories without their
//! links and write clusters that disagree.
//!
//! A story is compared by its whole text, not its searchable text: a source that posts a story
//! twice in a week would otherwise see the second copy emptied by repeated-sentence removal and
//! never matched. It is placed in time by its publication, or by when it was archived; stories
//! placed at the same time are ordered by their texts, not by their ids (`dedup::Ties::Texts`).

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use dedup::{Config, Deduper, Document, Link, Method, Scores, Signature, Thresholds, Ties};
use store::Archive;
use store::clusters::Member;
use store::duplicates::NewLink;
use store::signatures::Stored;
use store::stories::Story;

use store::claims::Kind;

use crate::{Error, Result};

/// New stories compared at a time.
const BATCH: u64 = 5_000;

/// The method names `dedup` stores links under.
const METHODS: [Method; 5] = Method::ALL;

/// Loads the models (about half a second in a release build): once per process. Stories
/// published at the same time are ordered by their texts ([`Ties::Texts`]) whatever `config`
/// says: an archive's ids follow the order its crawls happened to fetch the stories in.
pub async fn load(config: Config) -> Result<Arc<Deduper>> {
    let config = Config { ties: Ties::Texts, ..config };
    let loaded = tokio::task::spawn_blocking(move || Deduper::new(config))
        .await
        .map_err(|source| Error::Task { what: "model loading", source })?;
    Ok(Arc::new(loaded.map_err(|err| Error::Model { source: Box::new(err) })?))
}

/// What [`compare_new`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Done {
    /// Stories compared (those without a signature).
    pub stories: u64,
    /// Links found (duplicate or similar).
    pub links: u64,
    /// Stored links removed because a new link conflicts with them (`dedup`'s link conflicts).
    pub removed: u64,
    /// Clusters written.
    pub clusters: u64,
}

/// Runs a blocking dedup step on a thread of its own.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(work).await.map_err(|source| Error::Task { what: "dedup", source })
}

/// A story id as `dedup` gives it back.
fn story_id(what: &'static str, id: &str) -> Result<i64> {
    id.parse().map_err(|_| Error::BadId { what, value: id.to_owned() })
}

/// Runs [`compare_new`] as worker `me`, as a crawl worker would run it: its clock measured against
/// the database's, registered with a heartbeat, and holding the archive's dedup claim
/// ([`crate::exclusive`]). Fails with [`Error::BatchRunning`] when another worker is running a
/// batch.
pub async fn compare_new_as(
    archive: &Archive,
    deduper: &Arc<Deduper>,
    me: &store::workers::NewWorker,
) -> Result<Done> {
    crate::exclusive::as_worker(archive, me, Kind::Dedup, || compare_new(archive, deduper)).await
}

/// Compares every story without a signature against its window, storing links, clusters and
/// signatures. It takes no claim: callers that share the archive with other workers use
/// [`compare_new_as`] (or run it inside a crawl worker, which holds the claim).
pub async fn compare_new(archive: &Archive, deduper: &Arc<Deduper>) -> Result<Done> {
    let window = Duration::seconds(deduper.config().window_secs);
    let (mut stories_done, mut links_found, mut clusters_touched) = (0u64, 0u64, 0u64);
    let mut links_removed = 0u64;
    let mut after = 0;
    loop {
        let batch = store::signatures::missing(archive, after, BATCH).await?;
        let Some(last) = batch.last() else { break };
        after = last.id;
        let docs: Vec<Document> = batch.iter().map(document).collect();
        let worker = Arc::clone(deduper);
        let new = blocking(move || worker.signatures(&docs)).await?;
        let times: Vec<DateTime<Utc>> = batch.iter().map(time_of).collect();
        let (Some(&from), Some(&to)) = (times.iter().min(), times.iter().max()) else { continue };
        let new_ids: std::collections::HashSet<i64> = batch.iter().map(|s| s.id).collect();
        let mut existing = Vec::new();
        let mut outdated: Vec<Story> = Vec::new();
        for stored in store::signatures::between(archive, from - window, to + window).await? {
            if new_ids.contains(&stored.story_id) {
                continue;
            }
            match Signature::from_bytes(&stored.bytes) {
                Ok(signature) => existing.push(signature),
                // Written by an earlier morgue (before passages and facts, or before number
                // places): computed again from the story's text, and stored in the current form.
                Err(dedup::SignatureError::Version(_)) => {
                    outdated.push(store::stories::get(archive, stored.story_id).await?);
                }
                Err(err) => tracing::warn!(
                    story = stored.story_id,
                    "unreadable signature, left out of this comparison: {err}"
                ),
            }
        }
        if !outdated.is_empty() {
            tracing::info!(
                stories = outdated.len(),
                "signatures of an earlier format computed again"
            );
            let docs: Vec<Document> = outdated.iter().map(document).collect();
            let worker = Arc::clone(deduper);
            let again = blocking(move || worker.signatures(&docs)).await?;
            store_signatures(archive, &again, &outdated).await?;
            existing.extend(again);
        }
        let existing_ids: Vec<i64> = existing.iter().filter_map(|s| s.id.parse().ok()).collect();
        let names: Vec<&str> = METHODS.iter().map(|m| m.as_str()).collect();
        let existing_links: Vec<Link> = store::duplicates::among(archive, &existing_ids, &names)
            .await?
            .iter()
            .filter_map(|stored| link_from_store(&stored.link))
            .collect();
        let worker = Arc::clone(deduper);
        let (new, update) = blocking(move || {
            let update = worker.update(&new, &existing, &existing_links);
            (new, update)
        })
        .await?;
        for link in &update.links {
            store::duplicates::link(archive, &link_to_store(link)?).await?;
        }
        // Stored links that a new link now conflicts with (a story linked to two template
        // twins): judged again and dropped; the assignments below already leave them out.
        for removed in &update.removed {
            store::duplicates::unlink(
                archive,
                story_id("a linked story", &removed.doc)?,
                story_id("a linked story", &removed.of)?,
                removed.method.as_str(),
            )
            .await?;
            tracing::info!(
                story = removed.doc,
                of = removed.of,
                "duplicate link removed: {}",
                removed.explanation
            );
        }
        links_removed += update.removed.len() as u64;
        links_found += update.links.len() as u64;
        clusters_touched += store_clusters(archive, &update.assignments).await?;
        store_signatures(archive, &new, &batch).await?;
        stories_done += batch.len() as u64;
        tracing::info!(stories = stories_done, links = links_found, "deduplicating");
    }
    if stories_done > 0 {
        // The log of changed facts that long-lived readers follow grows with every story and
        // cluster change: kept to its latest rows (`store::facts`).
        let trimmed = archive.trim_fact_changes().await?;
        tracing::debug!(rows = trimmed, "log of changed facts trimmed");
    }
    Ok(Done {
        stories: stories_done,
        links: links_found,
        removed: links_removed,
        clusters: clusters_touched,
    })
}

/// Stores the signatures of these stories (in the same order), replacing any they had.
async fn store_signatures(
    archive: &Archive,
    signatures: &[Signature],
    stories: &[Story],
) -> Result<()> {
    for (signature, story) in signatures.iter().zip(stories) {
        let stored = Stored {
            story_id: story.id,
            published_at: Some(time_of(story)),
            bytes: signature.to_bytes(),
        };
        store::signatures::put(archive, &stored).await?;
    }
    Ok(())
}

/// The time a story is compared at: its publication, or when it was archived.
fn time_of(story: &Story) -> DateTime<Utc> {
    story.story.published_at.unwrap_or(story.created_at)
}

fn document(story: &Story) -> Document {
    Document {
        id: story.id.to_string(),
        source: story.story.source_id.to_string(),
        url: story.story.url.clone(),
        title: story.story.title.clone().unwrap_or_default(),
        text: story.story.text.clone(),
        published: Some(time_of(story).timestamp()),
        language: story.story.language.clone(),
    }
}

/// Rewrites the clusters of these stories: each group of two or more is one cluster, kept under
/// its representative; a story alone leaves any cluster it was in. Returns how many clusters
/// were written.
async fn store_clusters(archive: &Archive, assignments: &[dedup::Assignment]) -> Result<u64> {
    let mut groups: BTreeMap<&str, Vec<&dedup::Assignment>> = BTreeMap::new();
    for assignment in assignments {
        groups.entry(assignment.cluster.as_str()).or_default().push(assignment);
    }
    let mut written = 0;
    for (representative, members) in groups {
        let representative = story_id("a cluster representative", representative)?;
        if members.len() < 2 {
            for member in members {
                store::clusters::remove_story(archive, story_id("a cluster member", &member.id)?)
                    .await?;
            }
            continue;
        }
        let members: Vec<Member> = members
            .iter()
            .map(|member| {
                Ok(Member {
                    story_id: story_id("a cluster member", &member.id)?,
                    relation: member.relation().map(|r| r.as_str().to_owned()),
                    score: member.link.as_ref().map(|link| f64::from(link.score())),
                })
            })
            .collect::<Result<_>>()?;
        match store::clusters::of_story(archive, representative).await? {
            Some(cluster) => {
                store::clusters::replace(archive, cluster.id, representative, &members).await?;
            }
            None => {
                store::clusters::create(archive, representative, &members).await?;
            }
        }
        written += 1;
    }
    Ok(written)
}

fn link_to_store(link: &Link) -> Result<NewLink> {
    let mut scores: BTreeMap<String, f64> = link.scores.fields().into_iter().collect();
    scores.insert("found_by_minhash".to_owned(), f64::from(u8::from(link.found_by.minhash)));
    scores.insert("found_by_embedding".to_owned(), f64::from(u8::from(link.found_by.embedding)));
    scores.insert("found_by_passage".to_owned(), f64::from(u8::from(link.found_by.passage)));
    Ok(NewLink {
        story_id: story_id("a linked story", &link.doc)?,
        of_story_id: story_id("a linked story", &link.of)?,
        method: link.method.as_str().to_owned(),
        score: f64::from(link.score()),
        scores,
        thresholds: link.thresholds.fields().into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        explanation: Some(link.explanation.clone()),
    })
}

/// A stored link back in `dedup`'s terms, so that clusters among stored stories are rebuilt as
/// they were (`None` for links of other methods).
fn link_from_store(stored: &NewLink) -> Option<Link> {
    let method = Method::from_name(&stored.method)?;
    let s = &stored.scores;
    let flag = |key: &str| s.get(key).is_some_and(|&v| v > 0.5);
    Some(Link {
        doc: stored.story_id.to_string(),
        of: stored.of_story_id.to_string(),
        relation: method.relation(),
        method,
        scores: Scores::from_fields(|key| s.get(key).copied().unwrap_or(0.0)),
        thresholds: Thresholds::from_fields(|key| stored.thresholds.get(key).copied()),
        found_by: dedup::FoundBy {
            minhash: flag("found_by_minhash"),
            embedding: flag("found_by_embedding"),
            passage: flag("found_by_passage"),
        },
        explanation: stored.explanation.clone().unwrap_or_default(),
    })
}
