//! A generated archive of realistic shape, for `morgue bench archive`.
//!
//! 200 sources in 10 collections; stories over the 365 days of 2025, their words drawn from a
//! vocabulary of 20,000 made-up words with Zipf frequencies (so some words are in most stories
//! and most words in few), titles of 8 words and texts of 150, each text ending in its source's
//! boilerplate sentence (repeated by every story of the source; stored as text, not removed);
//! one story in five is a copy of a recent one (a wire story) carried by another source within
//! two days, and copies are clustered with their original. Deterministic for a seed.

use std::collections::{BTreeMap, HashSet};

use chrono::{Days, NaiveDate};
use store::Archive;
use store::clusters::Member;
use store::stories::NewStory;

use crate::Result;

/// Sources generated.
pub const SOURCES: usize = 200;
/// Collections generated (`collection 0` to `collection 9`); source `i` is in `i % 10`.
pub const COLLECTIONS: usize = 10;
/// Words in the vocabulary.
pub const VOCABULARY: usize = 20_000;
/// Stories (and clusters) written a transaction at a time.
const BATCH: usize = 1_000;
/// A progress line in the log every this many stories.
const PROGRESS_EVERY: usize = 50_000;

/// A small deterministic generator (splitmix64).
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// What [`fill`] made.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The vocabulary, commonest first.
    pub words: Vec<String>,
}

struct Words {
    words: Vec<String>,
    /// Cumulative Zipf weights.
    cumulative: Vec<f64>,
}

impl Words {
    fn new(rng: &mut Rng) -> Words {
        const SYLLABLES: [&str; 24] = [
            "ka", "lo", "mi", "ren", "sa", "to", "vi", "del", "mar", "no", "pe", "ri", "su", "tan",
            "go", "be", "lu", "ci", "dor", "fa", "ne", "os", "quin", "ya",
        ];
        let mut seen = HashSet::new();
        let mut words = Vec::with_capacity(VOCABULARY);
        while words.len() < VOCABULARY {
            let n = 2 + rng.below(3);
            let word: String = (0..n).map(|_| SYLLABLES[rng.below(SYLLABLES.len())]).collect();
            if seen.insert(word.clone()) {
                words.push(word);
            }
        }
        let mut total = 0.0;
        let cumulative = (0..VOCABULARY)
            .map(|rank| {
                total += 1.0 / (rank as f64 + 1.0);
                total
            })
            .collect();
        Words { words, cumulative }
    }

    fn pick(&self, rng: &mut Rng) -> &str {
        let total = self.cumulative[VOCABULARY - 1];
        let at = (rng.next_u64() as f64 / u64::MAX as f64) * total;
        let rank = self.cumulative.partition_point(|&c| c < at).min(VOCABULARY - 1);
        &self.words[rank]
    }

    fn sentence(&self, rng: &mut Rng, n: usize) -> String {
        (0..n).map(|_| self.pick(rng)).collect::<Vec<_>>().join(" ")
    }
}

/// The vocabulary [`fill`] draws from for `seed`, commonest first (what it returns).
pub fn vocabulary(seed: u64) -> Vec<String> {
    Words::new(&mut Rng(seed)).words
}

/// Fills an empty migrated archive with `stories` generated stories (module docs).
pub async fn fill(archive: &Archive, stories: u64, seed: u64) -> Result<Generated> {
    let mut rng = Rng(seed);
    let rng = &mut rng;
    let words = Words::new(rng);
    let mut source_ids = Vec::new();
    for i in 0..SOURCES {
        let new = store::sources::NewSource {
            name: format!("source {i}"),
            homepage: format!("https://source{i}.example/"),
            canonical_domain: format!("source{i}.example"),
            timezone: "UTC".to_owned(),
        };
        source_ids.push(store::sources::add(archive, &new).await?.source().id);
    }
    for c in 0..COLLECTIONS {
        let collection = store::collections::add(archive, &format!("collection {c}")).await?;
        let members: Vec<i64> = source_ids.iter().copied().skip(c).step_by(COLLECTIONS).collect();
        store::collections::add_sources(archive, collection.id, &members).await?;
    }
    let first = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap_or_default();
    let started = std::time::Instant::now();
    // Recent originals that copies are made of: (story number, title, text, day).
    let mut originals: Vec<(usize, String, String, NaiveDate)> = Vec::new();
    // Copies by the number of their original.
    let mut clusters: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    // Each story's id, by its number.
    let mut ids: Vec<i64> = Vec::with_capacity(usize::try_from(stories).unwrap_or(0));
    let mut batch = Vec::with_capacity(BATCH);
    for i in 0..stories {
        let number = ids.len() + batch.len();
        let source = rng.below(SOURCES);
        let copy_of = (!originals.is_empty() && rng.below(5) == 0)
            .then(|| originals.len() - 1 - rng.below(originals.len().min(500)));
        let (title, text, day) = match copy_of {
            Some(at) => {
                let (_, title, text, day) = &originals[at];
                (title.clone(), text.clone(), *day + Days::new(rng.below(3) as u64))
            }
            None => {
                let day = first + Days::new(i * 365 / stories.max(1));
                let text = format!(
                    "{}. {}. Subscribe to source {source} for more news.",
                    words.sentence(rng, 75),
                    words.sentence(rng, 75)
                );
                (words.sentence(rng, 8), text, day)
            }
        };
        match copy_of {
            Some(at) => clusters.entry(originals[at].0).or_default().push(number),
            None => {
                originals.push((number, title.clone(), text.clone(), day));
                if originals.len() > 5_000 {
                    originals.drain(..2_500);
                }
            }
        }
        batch.push(NewStory {
            source_id: source_ids[source],
            url: format!("https://source{source}.example/{i}"),
            lossy_url: format!("http://source{source}.example/{i}"),
            title: Some(title),
            text,
            language: Some("en".to_owned()),
            published_day: Some(day),
            extractor_version: "generated".to_owned(),
            ..NewStory::default()
        });
        if batch.len() == BATCH || i + 1 == stories {
            let inserted = store::stories::insert_batch(archive, &batch).await?;
            ids.extend(inserted.into_iter().map(|(id, _)| id));
            batch.clear();
            if ids.len().is_multiple_of(PROGRESS_EVERY) || i + 1 == stories {
                tracing::info!(
                    stories = ids.len(),
                    of = stories,
                    seconds = started.elapsed().as_secs(),
                    "filling the archive"
                );
            }
        }
    }
    let clusters: Vec<(i64, Vec<Member>)> = clusters
        .into_iter()
        .map(|(original, copies)| {
            let members = copies
                .into_iter()
                .map(|copy| Member {
                    story_id: ids[copy],
                    relation: Some("duplicate".to_owned()),
                    score: Some(1.0),
                })
                .collect();
            (ids[original], members)
        })
        .collect();
    for (done, chunk) in clusters.chunks(BATCH).enumerate() {
        store::clusters::create_many(archive, chunk).await?;
        if ((done + 1) * BATCH).is_multiple_of(PROGRESS_EVERY / 2) {
            tracing::info!(
                clusters = (done + 1) * BATCH,
                of = clusters.len(),
                seconds = started.elapsed().as_secs(),
                "clustering the copies"
            );
        }
    }
    Ok(Generated { words: words.words })
}
