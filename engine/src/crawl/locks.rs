//! Which pages may be stored at the same time.
//!
//! Storing a page (merging it into stories, then taking out the sentences its source repeated that
//! week) reads and writes rows that other pages may also touch, and the results must not depend on
//! which of two pages got there first:
//!
//! - two pages that share a lossy URL (a redirect and its target, a page and the page its
//!   `rel=canonical` names) must become one story, which only holds if one is merged after the
//!   other has been stored;
//! - the title rule and the repeated-sentence index work within one source (one source, day and
//!   title; one source and week).
//!
//! So a page holds, while it is stored, the locks of its source and of each of its lossy URLs
//! (the URL it was requested under, its redirect target, its canonical URL); pages of different
//! sources with no URL in common are stored at once. Keys are hashed onto a fixed set of stripes and
//! a page takes its stripes in ascending order, so two pages never wait for each other in a cycle;
//! two unrelated keys that share a stripe only wait longer.
//!
//! One lock for all pages was what bounded a crawl on PostgreSQL: about 17 ms held per page, so at
//! most about 60 pages a second, with a third of the processor idle. `morgue bench crawl --hosts 100
//! --articles 100`, alternating binaries: PostgreSQL 46 to 52 pages a second with one lock, 69 to
//! 79 with these; SQLite, whose writers still take turns at its write lock, 105 to 174 and 118 to
//! 202 (each pair run back to back).

use std::hash::{DefaultHasher, Hash, Hasher};

use store::merge::Sighting;
use tokio::sync::{Mutex, MutexGuard};

/// Stripes: far more than pages stored at once, so that unrelated pages rarely share one.
pub(crate) const STRIPES: usize = 64;

/// The locks pages take while they are stored.
#[derive(Debug)]
pub(crate) struct MergeLocks {
    stripes: Vec<Mutex<()>>,
}

/// What a page locks.
#[derive(Debug, Clone, Copy, Hash)]
enum Key<'a> {
    Source(i64),
    LossyUrl(&'a str),
}

impl MergeLocks {
    /// `stripes` locks (at least one).
    pub(crate) fn new(stripes: usize) -> MergeLocks {
        MergeLocks { stripes: (0..stripes.max(1)).map(|_| Mutex::new(())).collect() }
    }

    /// Waits for every lock of a sighting; they are held until the guards are dropped.
    pub(crate) async fn lock(&self, sighting: &Sighting) -> Vec<MutexGuard<'_, ()>> {
        let mut guards = Vec::new();
        for stripe in self.stripes_of(sighting) {
            if let Some(lock) = self.stripes.get(stripe) {
                guards.push(lock.lock().await);
            }
        }
        guards
    }

    /// The stripes a sighting takes, ascending, each once.
    fn stripes_of(&self, sighting: &Sighting) -> Vec<usize> {
        let own = [Key::Source(sighting.story.source_id), Key::LossyUrl(&sighting.story.lossy_url)];
        let keys =
            own.into_iter().chain(sighting.also.iter().map(|also| Key::LossyUrl(&also.lossy_url)));
        let mut stripes: Vec<usize> = keys.map(|key| self.stripe(key)).collect();
        stripes.sort_unstable();
        stripes.dedup();
        stripes
    }

    fn stripe(&self, key: Key<'_>) -> usize {
        // `DefaultHasher::new` has fixed keys: the same key always lands on the same stripe.
        let mut hasher = DefaultHasher::new();
        key.hash(&mut hasher);
        (hasher.finish() % self.stripes.len() as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use store::merge::AlsoUrl;
    use store::stories::{NewStory, UrlKind};

    use super::*;

    fn sighting(source_id: i64, lossy_url: &str, also: &[&str]) -> Sighting {
        Sighting {
            story: NewStory {
                source_id,
                fetch_id: None,
                url: format!("https://{lossy_url}"),
                lossy_url: lossy_url.to_owned(),
                canonical_url: None,
                title: None,
                normalized_title: None,
                text: String::new(),
                language: None,
                authors: Vec::new(),
                published_at: None,
                published_day: None,
                provenance: Default::default(),
                extractor_version: String::new(),
            },
            also: also
                .iter()
                .map(|lossy| AlsoUrl {
                    url: format!("https://{lossy}"),
                    lossy_url: (*lossy).to_owned(),
                    kind: UrlKind::Canonical,
                })
                .collect(),
        }
    }

    #[test]
    fn stripes_are_ascending_distinct_and_cover_every_key() {
        let locks = MergeLocks::new(STRIPES);
        let page = sighting(7, "a.example/1", &["a.example/1", "b.example/x", "c.example/y"]);
        let stripes = locks.stripes_of(&page);
        assert!(stripes.windows(2).all(|pair| pair[0] < pair[1]), "{stripes:?}");
        for key in [
            Key::Source(7),
            Key::LossyUrl("a.example/1"),
            Key::LossyUrl("b.example/x"),
            Key::LossyUrl("c.example/y"),
        ] {
            assert!(stripes.contains(&locks.stripe(key)), "{key:?} not locked");
        }
        // Pages that share a URL, or a source, share a stripe.
        let target = sighting(9, "b.example/x", &[]);
        assert!(locks.stripes_of(&target).iter().any(|s| stripes.contains(s)));
        let same_source = sighting(7, "d.example/2", &[]);
        assert!(locks.stripes_of(&same_source).iter().any(|s| stripes.contains(s)));
        // One stripe: every page takes it.
        assert_eq!(MergeLocks::new(1).stripes_of(&page), vec![0]);
        assert_eq!(MergeLocks::new(0).stripes_of(&target), vec![0]);
    }

    /// Whether `page` gets its locks without waiting (a zero timeout polls the locking once).
    async fn free(locks: &MergeLocks, page: &Sighting) -> bool {
        tokio::time::timeout(Duration::ZERO, locks.lock(page)).await.is_ok()
    }

    #[test]
    fn pages_that_share_a_url_or_a_source_wait_and_others_do_not() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let locks = MergeLocks::new(STRIPES);
            let first = sighting(1, "a.example/story", &["a.example/canonical"]);
            let held = locks.lock(&first).await;
            // A page of another source whose URL is the first one's canonical URL waits, and so
            // does another page of the first one's source.
            let sharing = sighting(2, "a.example/canonical", &[]);
            assert!(!free(&locks, &sharing).await, "a page sharing a URL did not wait");
            assert!(!free(&locks, &sighting(1, "a.example/other", &[])).await);
            // A page of another source with nothing in common does not (once its stripes differ).
            let mine = locks.stripes_of(&first);
            let other = (3..)
                .map(|source| sighting(source, &format!("z.example/{source}"), &[]))
                .find(|page| locks.stripes_of(page).iter().all(|s| !mine.contains(s)))
                .unwrap();
            assert!(free(&locks, &other).await, "an unrelated page waited");
            drop(held);
            assert!(free(&locks, &sharing).await);
            // With one stripe, every page waits for every other.
            let one = MergeLocks::new(1);
            let _held = one.lock(&first).await;
            assert!(!free(&one, &other).await);
        });
    }
}
