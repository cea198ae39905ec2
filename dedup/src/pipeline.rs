//! [`Deduper`]: documents to signatures, signatures to links, links to clusters, in batch or
//! incrementally.

use std::cmp::Reverse;

use crate::ann::Polytopes;
use crate::candidates::{CandidateConfig, FoundBy, Index};
use crate::cluster::{ClusterConfig, Edge, Node, cluster};
use crate::embed::{Embedder, ModelError, default_model};
use crate::facts::{Collector, Facts, Word};
use crate::minhash::{minhash, shingles};
use crate::pos;
use crate::signature::Signature;
use crate::tagger::{Key, Upos};
use crate::text::{
    Stemmers, Token, fold, guess_language, hash_bytes, language_code, tokens, truncate,
};
use crate::verify::{Method, Packed, Relation, Scores, Thresholds, Verdict, Veto};

/// One document to deduplicate.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// The caller's id, reported back in links and clusters. Ids should be unique; when they are
    /// not, documents are still told apart by their position in the batch.
    pub id: String,
    /// The publisher (not used for matching: a source re-posting its own story is a duplicate).
    pub source: String,
    /// The story's URL (not used for matching: the normalizer's keys catch same-URL copies).
    pub url: String,
    /// The headline.
    pub title: String,
    /// The story's text.
    pub text: String,
    /// Publication time, seconds since the Unix epoch (UTC), if known.
    pub published: Option<i64>,
    /// The language's code (`en`, `pt-BR`, …), if known; guessed from the text otherwise.
    pub language: Option<String>,
}

/// How much of a text each signal reads: bounds on the work per document, so that a 1 MB text
/// costs no more than a long article.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The text is cut to this many bytes (at a character boundary) before anything else; the
    /// word count and every signal see only that much.
    pub max_text_bytes: usize,
    /// Words of the text that make shingles for MinHash.
    pub shingle_words: usize,
    /// Words of the text that are tagged for the POS-filtered tokens (the title's come on top).
    pub content_words: usize,
    /// Bytes of the text that the embedder reads after the title (it stops at its own piece
    /// limit, 512 by default, anyway).
    pub embed_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_text_bytes: 200_000,
            shingle_words: 2_000,
            content_words: 500,
            embed_bytes: 8_000,
        }
    }
}

/// Everything a [`Deduper`] can be told.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Two dated documents are compared only when published at most this many seconds apart
    /// (default five days).
    pub window_secs: i64,
    /// Threads for the parallel steps (at least one). Results never depend on it.
    pub threads: usize,
    /// How much text each signal reads.
    pub limits: Limits,
    /// Candidate generation.
    pub candidates: CandidateConfig,
    /// Verification.
    pub thresholds: Thresholds,
    /// Clustering.
    pub clustering: ClusterConfig,
    /// How documents published at the same time are ordered (the earlier of a linked pair is the
    /// original, the later its copy).
    pub ties: Ties,
}

/// How documents published at the same time are ordered: pages often give only a day (read as
/// midnight), so many copies of a story tie.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ties {
    /// By id, then by position in the input: corpus mode, where the caller chose both.
    #[default]
    Ids,
    /// By their texts (the longer first, as the fuller version; then a fingerprint of the text),
    /// then by id: an archive, whose ids follow the order a crawl happened to fetch the stories
    /// in, so a crawl in another order (or killed and run again) links the same two copies the
    /// same way round. Undated documents are still ordered by id.
    Texts,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            window_secs: 5 * 86_400,
            threads: 1,
            limits: Limits::default(),
            candidates: CandidateConfig::default(),
            thresholds: Thresholds::default(),
            clustering: ClusterConfig::default(),
            ties: Ties::Ids,
        }
    }
}

/// A verified match between two documents, with everything that decided it.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The later document (by date, then id).
    pub doc: String,
    /// The earlier document.
    pub of: String,
    /// Duplicate or similar.
    pub relation: Relation,
    /// The rule that matched.
    pub method: Method,
    /// Every signal of the pair.
    pub scores: Scores,
    /// The thresholds in force.
    pub thresholds: Thresholds,
    /// Which candidate family proposed the pair.
    pub found_by: FoundBy,
    /// Why, in words: the rule, its scores and how the facts agree (e.g. "near-copy: 94% of the
    /// shorter text's word sequences are in the longer; shares 14 of 15 names and all 6
    /// numbers").
    pub explanation: String,
}

/// A pair whose wording matched a rule but whose facts refused the link (a template story, another
/// edition of a bulletin): not a link, kept to explain why two alike documents were not linked.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// The later document (by date, then id).
    pub doc: String,
    /// The earlier document.
    pub of: String,
    /// The rule the wording matched.
    pub method: Method,
    /// What the facts said.
    pub veto: Veto,
    /// Every signal of the pair.
    pub scores: Scores,
    /// Why, in words (e.g. "same wording, names differ: Ajax, PSV vs Celtic, Rangers").
    pub explanation: String,
}

impl Link {
    /// The score that decided the match (containment for a near-copy, cosine otherwise).
    pub fn score(&self) -> f32 {
        self.scores.primary(self.method)
    }
}

/// Where a document ended up.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The document's id.
    pub id: String,
    /// The id of its cluster's representative (its own id when it is the representative or
    /// alone).
    pub cluster: String,
    /// The link that ties it to its cluster: to the representative if they are linked, else its
    /// strongest link to another member. `None` for a representative.
    pub link: Option<Link>,
}

impl Assignment {
    /// The relation to the cluster, `None` for a representative.
    pub fn relation(&self) -> Option<Relation> {
        self.link.as_ref().map(|l| l.relation)
    }

    /// The member this document was matched to, `None` for a representative.
    pub fn duplicate_of(&self) -> Option<&str> {
        let link = self.link.as_ref()?;
        Some(if link.doc == self.id { &link.of } else { &link.doc })
    }
}

/// The result of a batch run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// One assignment per input document, in input order.
    pub assignments: Vec<Assignment>,
    /// Every link found.
    pub links: Vec<Link>,
    /// Every pair alike in wording that the facts kept apart.
    pub rejected: Vec<Rejection>,
    /// Counts of the work done.
    pub stats: Stats,
}

/// The result of an incremental run: only what the new batch changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// The links the batch adds (involving at least one new document).
    pub links: Vec<Link>,
    /// The assignments of every document whose cluster the batch may have changed: every new
    /// document, and every existing document linked (directly or through other links) to one.
    /// New documents first in their input order, then existing ones in their input order.
    pub assignments: Vec<Assignment>,
    /// The pairs (involving at least one new document) alike in wording that the facts kept
    /// apart, and the new links dropped for a conflict ([`Veto::Conflict`]).
    pub rejected: Vec<Rejection>,
    /// Stored links (of `existing_links`) that the batch makes conflict with a new link, judged
    /// again: no longer links, to be deleted ([`Veto::Conflict`], `conflict.rs`). The
    /// assignments already leave them out.
    pub removed: Vec<Rejection>,
    /// Counts of the work done.
    pub stats: Stats,
}

/// Counts of the work done (the pure crate keeps no time: callers time the steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Candidate pairs verified.
    pub candidate_pairs: u64,
    /// Links found.
    pub links: u64,
    /// Pairs alike in wording that the facts kept apart.
    pub rejected: u64,
    /// Links that passed alone but were dropped for a conflict (new ones, and stored ones
    /// removed).
    pub conflicts: u64,
}

/// What the content-token step did for one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentTokens {
    /// Hashes of the distinct folded, stemmed, POS-filtered tokens, sorted.
    pub hashes: Vec<u32>,
    /// Tokens that went through the POS filter.
    pub tagged: usize,
}

/// The fuzzy-dedup pipeline: the models (loaded once) and the configuration.
pub struct Deduper {
    config: Config,
    embedder: Box<dyn Embedder + Send + Sync>,
    stemmers: Stemmers,
    polytopes: Polytopes,
    pool: crate::parallel::Pool,
}

impl std::fmt::Debug for Deduper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deduper")
            .field("config", &self.config)
            .field("embedding_dim", &self.embedder.dim())
            .finish_non_exhaustive()
    }
}

impl Deduper {
    /// A pipeline with the shipped embedding model (about half a second to load: build one and
    /// keep it).
    ///
    /// # Errors
    ///
    /// Only if the shipped model files were damaged.
    pub fn new(config: Config) -> Result<Self, ModelError> {
        Ok(Self::with_embedder(config, Box::new(default_model()?)))
    }

    /// A pipeline with another embedder.
    pub fn with_embedder(config: Config, embedder: Box<dyn Embedder + Send + Sync>) -> Self {
        let polytopes = Polytopes::new(
            embedder.dim(),
            config.candidates.embedding_tables,
            config.candidates.embedding_hashes,
        );
        Self {
            config,
            embedder,
            stemmers: Stemmers::new(),
            polytopes,
            pool: crate::parallel::Pool::new(config.threads),
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The language the signals use for a document: its own label, else the guess from its first
    /// 200 words.
    pub fn language(&self, doc: &Document) -> Option<String> {
        if let Some(code) = doc.language.as_deref().and_then(language_code) {
            return Some(code);
        }
        let text = truncate(&doc.text, self.config.limits.max_text_bytes);
        let folded: Vec<String> = words(text).take(200).map(fold).collect();
        guess_language(folded.iter().map(String::as_str)).map(str::to_owned)
    }

    /// The POS-filtered tokens of the title and the first [`Limits::content_words`] tokens of
    /// the text, folded, stemmed and hashed.
    pub fn content_tokens(&self, doc: &Document, language: Option<&str>) -> ContentTokens {
        self.read_tags(doc, language).0
    }

    /// The names (in the first [`Limits::content_words`] tokens of the text) and numbers (in
    /// the title and the text) of a document (`facts.rs`).
    pub fn facts(&self, doc: &Document, language: Option<&str>) -> Facts {
        let (_, mut collector) = self.read_tags(doc, language);
        self.shingled(doc, &mut collector);
        collector.finish()
    }

    /// One tagging pass over the title and the start of the text, for the content tokens and
    /// the names.
    fn read_tags(&self, doc: &Document, language: Option<&str>) -> (ContentTokens, Collector) {
        // A token is rarely longer than 24 bytes with its space: no need to tokenise more.
        let budget = self.config.limits.content_words;
        let text =
            truncate(&doc.text, budget.saturating_mul(24).min(self.config.limits.max_text_bytes));
        let title = truncate(&doc.title, 1_000);
        let mut hashes = Vec::new();
        let mut facts = Collector::new(language);
        let mut visit = |tokens: &[&str], tags: &[Upos], keys: &[Key<'_>], headline| {
            for (token, &tag) in tokens.iter().zip(tags) {
                if crate::tagger::is_content(tag) {
                    let folded = fold(token);
                    let stem = self.stemmers.stem(language, &folded);
                    hashes.push(hash_bytes(stem.as_bytes()) as u32);
                }
            }
            let read = if headline { title } else { text };
            facts.read_names(read, tokens, keys, headline);
        };
        let mut tagged =
            pos::tag_sentences_keyed(language, title, 200, |t, g, k| visit(t, g, k, true));
        tagged += pos::tag_sentences_keyed(language, text, budget, |t, g, k| visit(t, g, k, false));
        hashes.sort_unstable();
        hashes.dedup();
        (ContentTokens { hashes, tagged }, facts)
    }

    /// The embedding of the title and the start of the text.
    pub fn embedding(&self, doc: &Document) -> Vec<f32> {
        let text = truncate(&doc.text, self.config.limits.embed_bytes);
        self.embedder.embed(&format!("{}\n{}", doc.title, text))
    }

    /// The word count, the number of distinct shingles and the MinHash of the text.
    pub fn near_copy(&self, doc: &Document) -> (u32, u32, Box<[u32]>) {
        let (count, shingles, minhash, _) = self.shingled(doc, &mut Collector::new(None));
        (count, shingles, minhash)
    }

    /// The near-copy signals and the passage fingerprints, from one pass over the words, which
    /// also gives `facts` the numbers of the title and the text.
    fn shingled(
        &self,
        doc: &Document,
        facts: &mut Collector,
    ) -> (u32, u32, Box<[u32]>, Box<[crate::facts::Mark]>) {
        let title: Vec<(&str, String)> =
            words(truncate(&doc.title, 1_000)).map(|w| (w, fold(w))).collect();
        let title: Vec<Word<'_>> = title
            .iter()
            .map(|(w, f)| Word {
                text: w,
                folded: f,
                hash: hash_bytes(f.as_bytes()),
                offset: 0,
                position: 0,
                sentence_start: true,
            })
            .collect();
        facts.read_words(&title);
        let text = truncate(&doc.text, self.config.limits.max_text_bytes);
        let mut count = 0u32;
        let mut hashes = Vec::new();
        let kept = self.config.limits.shingle_words.max(crate::passages::PASSAGE_WORDS);
        // Facts are read a stretch of words at a time (a number may take the next word).
        const STRETCH: usize = 256;
        let mut stretch: Vec<(&str, String, u64, u32, bool)> = Vec::with_capacity(STRETCH);
        let read =
            |stretch: &[(&str, String, u64, u32, bool)], first: u32, facts: &mut Collector| {
                let words: Vec<Word<'_>> = stretch
                    .iter()
                    .enumerate()
                    .map(|(i, (w, f, hash, offset, sentence_start))| Word {
                        text: w,
                        folded: f,
                        hash: *hash,
                        offset: *offset,
                        position: u16::try_from(first as usize + i).unwrap_or(u16::MAX),
                        sentence_start: *sentence_start,
                    })
                    .collect();
                facts.read_words(&words);
            };
        // Where each word begins, to place names found by their byte offsets.
        let mut word_starts: Vec<u32> = Vec::new();
        let base = text.as_ptr() as usize;
        let mut sentence_start = true;
        let mut previous_end = 0usize;
        for token in tokens(text) {
            let word = match token {
                Token::Word(word) => word,
                Token::End => {
                    sentence_start = true;
                    continue;
                }
            };
            count = count.saturating_add(1);
            let at = (word.as_ptr() as usize).saturating_sub(base);
            // A line break begins a sentence too (a heading, an item of a list).
            if text.get(previous_end..at).is_some_and(|gap| gap.contains('\n')) {
                sentence_start = true;
            }
            previous_end = at + word.len();
            let offset = u32::try_from(at).unwrap_or(u32::MAX);
            word_starts.push(offset);
            let folded = fold(word);
            let hash = hash_bytes(folded.as_bytes());
            if hashes.len() < kept {
                hashes.push(hash);
            }
            stretch.push((word, folded, hash, offset, sentence_start));
            sentence_start = false;
            if stretch.len() == STRETCH {
                read(&stretch, count + 1 - STRETCH as u32, facts);
                stretch.clear();
            }
        }
        read(&stretch, count + 1 - stretch.len() as u32, facts);
        facts.locate(&word_starts);
        let passages = crate::passages::fingerprints(&hashes);
        hashes.truncate(self.config.limits.shingle_words);
        let shingles = shingles(&hashes);
        (count, shingles.len() as u32, Box::new(minhash(&shingles)), passages)
    }

    /// The signature of one document. Never fails: an empty text gives an empty signature that
    /// matches nothing.
    pub fn signature(&self, doc: &Document) -> Signature {
        let language = self.language(doc);
        let (content, mut facts) = self.read_tags(doc, language.as_deref());
        let (words, shingles, minhash, passages) = self.shingled(doc, &mut facts);
        let facts = facts.finish();
        let (embedding, embedding_scale) = Signature::quantise(&self.embedding(doc));
        Signature {
            id: doc.id.clone(),
            published: doc.published,
            language,
            words,
            shingles,
            minhash,
            content: content.hashes.into(),
            embedding,
            embedding_scale,
            passages,
            facts,
            keys: Default::default(),
        }
    }

    /// The signatures of many documents, in order, on the configured threads.
    pub fn signatures(&self, docs: &[Document]) -> Vec<Signature> {
        self.pool.map(docs, |doc| self.signature(doc))
    }

    /// Deduplicates a batch: signatures, links, clusters.
    pub fn run(&self, docs: &[Document]) -> Outcome {
        let sigs = self.signatures(docs);
        self.run_signatures(&sigs)
    }

    /// Deduplicates a batch of signatures.
    pub fn run_signatures(&self, sigs: &[Signature]) -> Outcome {
        let update = self.update(sigs, &[], &[]);
        let mut assignments = update.assignments;
        // `update` lists new documents first in input order: here all of them.
        assignments.truncate(sigs.len());
        // Nothing was stored before: nothing to remove.
        Outcome { assignments, links: update.links, rejected: update.rejected, stats: update.stats }
    }

    /// Compares a new batch with the window's existing documents and returns only what changes:
    /// the new links and the assignments of every document in a cluster the batch touches.
    ///
    /// `existing` are the stored signatures of the documents already deduplicated within the
    /// window of the new ones (older documents cannot match); `existing_links` their stored
    /// links, so that clusters among them are rebuilt as they were. The result is the same as a
    /// batch run over both (for the clusters the new batch touches), whatever the split.
    pub fn update(
        &self,
        new: &[Signature],
        existing: &[Signature],
        existing_links: &[Link],
    ) -> Update {
        let _span = tracing::info_span!(
            "dedup_batch",
            documents = new.len(),
            existing = existing.len(),
            existing_links = existing_links.len()
        )
        .entered();
        let all: Vec<(&Signature, bool, usize)> = new
            .iter()
            .enumerate()
            .map(|(i, s)| (s, true, i))
            .chain(existing.iter().enumerate().map(|(i, s)| (s, false, new.len() + i)))
            .collect();
        fn node<'s>(&(s, _, position): &(&'s Signature, bool, usize), ties: Ties) -> Node<'s> {
            let tie = match ties {
                Ties::Ids => (Reverse(0), 0),
                Ties::Texts => {
                    (Reverse(s.words), s.minhash.iter().fold(0u32, |h, &v| h.rotate_left(5) ^ v))
                }
            };
            Node { published: s.published, id: &s.id, position, words: s.words, tie }
        }
        // Each document's node once (its fingerprint folds the whole MinHash), not per comparison.
        let unranked: Vec<Node<'_>> = all.iter().map(|doc| node(doc, self.config.ties)).collect();
        // Ranks: dated first by time, then undated, ties as `Config::ties` says (`Node::order`).
        let mut by_rank: Vec<usize> = (0..all.len()).collect();
        by_rank.sort_by(|&a, &b| unranked[a].order(&unranked[b]));
        let ranked: Vec<&Signature> = by_rank.iter().map(|&i| all[i].0).collect();
        let is_new: Vec<bool> = by_rank.iter().map(|&i| all[i].1).collect();
        let index = Index::build(&ranked, &self.polytopes, &self.config.candidates, &self.pool);

        // Candidates and verification, for each new document against everything before it in
        // rank order that is new, and everything existing on either side.
        let new_ranks: Vec<usize> = (0..ranked.len()).filter(|&r| is_new[r]).collect();
        let packed = Packed::new(&ranked);
        type Found = (u64, Vec<RankLink>, Vec<(usize, usize, Method, Veto, Scores)>);
        let found: Vec<Found> = self.pool.map(&new_ranks, |&r| {
            let candidates = index.candidates(
                r,
                self.config.window_secs,
                self.config.candidates.max_bucket_scan,
                |other| !is_new[other] || other < r,
            );
            let (mut links, mut vetoed) = (Vec::new(), Vec::new());
            for &(other, by) in &candidates {
                let Some(scores) = packed.score(r, other, by, &self.config.thresholds) else {
                    continue;
                };
                match self.config.thresholds.verdict(&scores) {
                    Verdict::Link(method) => {
                        links.push((r.max(other), r.min(other), method, scores, by));
                    }
                    Verdict::Veto(method, veto) => {
                        vetoed.push((r.max(other), r.min(other), method, veto, scores));
                    }
                    Verdict::Apart => {}
                }
            }
            (candidates.len() as u64, links, vetoed)
        });
        let mut stats = Stats::default();
        let mut new_links: Vec<RankLink> = Vec::new();
        let mut vetoed = Vec::new();
        for (count, links, refused) in found {
            stats.candidate_pairs += count;
            new_links.extend(links);
            vetoed.extend(refused);
        }
        new_links.sort_by_key(|l| (l.0, l.1));
        vetoed.sort_by_key(|v| (v.0, v.1));

        // Existing links between documents we were given, mapped to ranks.
        let mut rank_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (r, sig) in ranked.iter().enumerate() {
            if !is_new[r] {
                rank_of.entry(sig.id.as_str()).or_insert(r);
            }
        }
        let mut old: Vec<(usize, usize, &Link)> = Vec::new();
        for link in existing_links {
            if let (Some(&a), Some(&b)) =
                (rank_of.get(link.doc.as_str()), rank_of.get(link.of.as_str()))
                && a != b
            {
                old.push((a, b, link));
            }
        }

        // Link conflicts (`conflict.rs`), at every document that gains a link.
        let dropped = self.conflicts(&ranked, &is_new, &index, &packed, &new_links, &old);
        let dropped_at: std::collections::HashMap<(usize, usize), &crate::conflict::Dropped> =
            dropped.iter().map(|d| (d.link, d)).collect();
        let key = |a: usize, b: usize| (a.max(b), a.min(b));
        let (new_links, conflicted): (Vec<RankLink>, Vec<RankLink>) =
            new_links.into_iter().partition(|l| !dropped_at.contains_key(&key(l.0, l.1)));
        let (old, removed_old): (Vec<_>, Vec<_>) =
            old.into_iter().partition(|&(a, b, _)| !dropped_at.contains_key(&key(a, b)));
        stats.links = new_links.len() as u64;
        stats.rejected = vetoed.len() as u64;
        stats.conflicts = (conflicted.len() + removed_old.len()) as u64;

        let nodes: Vec<Node<'_>> = by_rank.iter().map(|&i| unranked[i]).collect();
        let mut edges: Vec<Edge> = new_links
            .iter()
            .map(|&(a, b, method, scores, _)| Edge { a, b, method, score: scores.primary(method) })
            .collect();
        let mut old_links: Vec<&Link> = Vec::new();
        for &(a, b, link) in &old {
            edges.push(Edge { a, b, method: link.method, score: link.score() });
            old_links.push(link);
        }
        let placements = cluster(&nodes, &edges, &self.config.clustering);

        // Links as the caller sees them.
        let thresholds = self.config.thresholds;
        let dropped_explanation = |a: usize, b: usize, base: &str| -> String {
            let d = dropped_at[&key(a, b)];
            crate::explain::conflict(
                base,
                &ranked[d.hub].id,
                &ranked[d.rival].id,
                &crate::explain::Conflict {
                    facts: d.facts,
                    shares: d.shares,
                    rival_shares: d.rival_shares,
                    own: d.own,
                    rival_own: d.rival_own,
                },
            )
        };
        let make =
            |&(a, b, method, scores, found_by): &(usize, usize, Method, Scores, FoundBy)| Link {
                doc: ranked[a].id.clone(),
                of: ranked[b].id.clone(),
                relation: method.relation(),
                method,
                scores,
                thresholds,
                found_by,
                explanation: crate::explain::link(method, &scores, ranked[a], ranked[b]),
            };
        let links: Vec<Link> = new_links.iter().map(make).collect();
        let mut rejected: Vec<Rejection> = vetoed
            .iter()
            .map(|&(a, b, method, veto, scores)| Rejection {
                doc: ranked[a].id.clone(),
                of: ranked[b].id.clone(),
                method,
                veto,
                scores,
                explanation: crate::explain::veto(method, veto, &scores, ranked[a], ranked[b]),
            })
            .collect();
        rejected.extend(conflicted.iter().map(|&(a, b, method, scores, _)| Rejection {
            doc: ranked[a].id.clone(),
            of: ranked[b].id.clone(),
            method,
            veto: Veto::Conflict,
            scores,
            explanation: dropped_explanation(
                a,
                b,
                &crate::explain::link(method, &scores, ranked[a], ranked[b]),
            ),
        }));
        let removed: Vec<Rejection> = removed_old
            .iter()
            .map(|&(a, b, link)| Rejection {
                doc: link.doc.clone(),
                of: link.of.clone(),
                method: link.method,
                veto: Veto::Conflict,
                scores: link.scores,
                explanation: dropped_explanation(a, b, &link.explanation),
            })
            .collect();
        let edge_link = |e: usize| -> Link {
            if e < links.len() { links[e].clone() } else { old_links[e - links.len()].clone() }
        };

        // What the batch touches: the components of the link graph that hold a new document, or
        // an end of a removed link.
        let touched: std::collections::HashSet<usize> = (0..ranked.len())
            .filter(|&r| is_new[r])
            .chain(removed_old.iter().flat_map(|&(a, b, _)| [a, b]))
            .map(|r| placements[r].component)
            .collect();
        let mut rank_at = vec![0; all.len()];
        for (r, &i) in by_rank.iter().enumerate() {
            rank_at[i] = r;
        }
        let assignments = (0..all.len())
            .map(|i| rank_at[i])
            .filter(|&r| touched.contains(&placements[r].component))
            .map(|r| Assignment {
                id: ranked[r].id.clone(),
                cluster: ranked[placements[r].representative].id.clone(),
                link: placements[r].edge.map(edge_link),
            })
            .collect();
        Update { links, assignments, rejected, removed, stats }
    }

    /// The links dropped for conflicts at every document that gains a link (`conflict.rs`): a
    /// new document's links are all among `new_links`; an existing one's links with other
    /// existing documents are verified again over its candidates, so that a link an earlier
    /// conflict dropped (stored nowhere) still weighs as it would in a batch run.
    fn conflicts(
        &self,
        ranked: &[&Signature],
        is_new: &[bool],
        index: &Index,
        packed: &Packed<'_>,
        new_links: &[RankLink],
        old: &[(usize, usize, &Link)],
    ) -> Vec<crate::conflict::Dropped> {
        let thresholds = &self.config.thresholds;
        if thresholds.conflict_margin.is_none() || new_links.is_empty() {
            return Vec::new();
        }
        let key = |a: usize, b: usize| (a.max(b), a.min(b));
        let hubs: std::collections::HashSet<usize> =
            new_links.iter().flat_map(|l| [l.0, l.1]).collect();
        let mut existing_hubs: Vec<usize> = hubs.iter().copied().filter(|&r| !is_new[r]).collect();
        existing_hubs.sort_unstable();
        let again: Vec<Vec<usize>> = self.pool.map(&existing_hubs, |&hub| {
            index
                .candidates(
                    hub,
                    self.config.window_secs,
                    self.config.candidates.max_bucket_scan,
                    |other| !is_new[other] && other != hub,
                )
                .into_iter()
                .filter(|&(other, by)| {
                    packed
                        .score(hub, other, by, thresholds)
                        .is_some_and(|s| matches!(thresholds.verdict(&s), Verdict::Link(_)))
                })
                .map(|(other, _)| other)
                .collect()
        });
        let mut pairs: std::collections::HashSet<(usize, usize)> =
            new_links.iter().map(|l| key(l.0, l.1)).collect();
        pairs.extend(old.iter().map(|&(a, b, _)| key(a, b)));
        for (&hub, others) in existing_hubs.iter().zip(&again) {
            pairs.extend(others.iter().map(|&o| key(hub, o)));
        }
        let mut sorted: Vec<(usize, usize)> = pairs.iter().copied().collect();
        sorted.sort_unstable();
        let at = crate::conflict::hubs_of(sorted, Some(&hubs));
        crate::conflict::dropped(ranked, &at, &pairs, thresholds, &self.pool)
    }
}

/// A link between ranks: (later, earlier, method, scores, found by).
type RankLink = (usize, usize, Method, Scores, FoundBy);

/// The words of a text, in order.
fn words(text: &str) -> impl Iterator<Item = &str> {
    tokens(text).filter_map(|t| match t {
        Token::Word(w) => Some(w),
        Token::End => None,
    })
}
