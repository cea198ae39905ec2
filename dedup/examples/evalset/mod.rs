//! The dedup evaluation set and the speed corpus: real article text with seeded syndication
//! edits, shared by the `dedup_eval` and `dedup_bench` examples.
//!
//! Base stories are the wcxb-dev ground-truth texts (Web Content eXtraction Benchmark, Murrough
//! Foley 2026, CC-BY-4.0; read from `../shared` at generation time only, never by the crate).
//! Everything below is a pure function of the bases and a seed.
//!
//! - **Duplicates** (the same text, edited): a random mix of a new headline, a trimmed tail,
//!   inserted boilerplate and a byline, reordered paragraphs, synonym swaps and typos.
//! - **Rewrites** (the same story, written differently; truth relation "similar"): a third to
//!   a half of the sentences, shuffled, a quarter of the swappable words swapped, words dropped,
//!   clauses turned round, a new lede and generic reporting sentences.
//! - **Hard negatives**: stories of one source share its boilerplate and byline style and are
//!   grouped by topic tag; long texts are split into two stories of the same source and topic
//!   (the first and second half); roundups quote the ledes of ten or so unrelated stories of
//!   the same days (a chain-maker: truth is a story of its own).
#![allow(dead_code, unreachable_pub)]

use std::path::Path;

/// A small, fixed, seedable generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// One wcxb-dev ground-truth article.
#[derive(Debug, Clone)]
pub struct Base {
    pub file_id: String,
    pub domain: String,
    pub title: String,
    pub text: String,
    pub tags: Vec<String>,
}

/// Loads the ground-truth articles with at least `min_words` words of main content, in file order.
pub fn load_bases(dir: &Path, min_words: usize) -> Vec<Base> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let raw = std::fs::read_to_string(&file).expect("read");
        let value: serde_json::Value = serde_json::from_str(&raw).expect("json");
        let truth = &value["ground_truth"];
        let text = truth["main_content"].as_str().unwrap_or_default().trim().to_owned();
        if text.split_whitespace().count() < min_words {
            continue;
        }
        let url = value["url"].as_str().unwrap_or_default();
        let domain =
            url.split('/').nth(2).unwrap_or("unknown").trim_start_matches("www.").to_owned();
        let tags = value["_internal"]["page_type"]["tags"]
            .as_array()
            .map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_lowercase)).collect())
            .unwrap_or_default();
        out.push(Base {
            file_id: value["file_id"].as_str().unwrap_or_default().to_owned(),
            domain,
            title: truth["title"].as_str().unwrap_or_default().trim().to_owned(),
            text,
            tags,
        });
    }
    out
}

/// What a generated document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Original,
    Duplicate,
    Rewrite,
    Roundup,
    /// Another story written on an original's template: its names, places and numbers replaced
    /// consistently (truth: a story of its own, like the original's other template stories).
    Template,
    /// A later version of a story: the same names, some numbers changed, a paragraph added
    /// (truth: `similar` to the story's other documents).
    Update,
    /// A wire brief or teaser: the first one to three paragraphs of a long story under a new
    /// byline and footer (truth: `duplicate` of the story's copies).
    Brief,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Original,
        Kind::Duplicate,
        Kind::Rewrite,
        Kind::Roundup,
        Kind::Template,
        Kind::Update,
        Kind::Brief,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Original => "original",
            Kind::Duplicate => "copy",
            Kind::Rewrite => "rewrite",
            Kind::Roundup => "roundup",
            Kind::Template => "template",
            Kind::Update => "update",
            Kind::Brief => "brief",
        }
    }
}

/// A generated document with its truth.
#[derive(Debug, Clone)]
pub struct Doc {
    pub id: String,
    pub source: String,
    pub url: String,
    pub title: String,
    pub text: String,
    pub published: Option<i64>,
    /// The true story (cluster).
    pub story: usize,
    /// The template the story is written on: the original story's index for the original's
    /// documents and for every story written on its template, so two documents of one family and
    /// different stories are a template pair.
    pub family: usize,
    pub kind: Kind,
}

impl Doc {
    pub fn to_document(&self) -> dedup::Document {
        dedup::Document {
            id: self.id.clone(),
            source: self.source.clone(),
            url: self.url.clone(),
            title: self.title.clone(),
            text: self.text.clone(),
            published: self.published,
            language: None,
        }
    }
}

/// The true relation of two documents: `Some(Duplicate)` when both are the same text (the
/// original or an edited copy), `Some(Similar)` when one is a rewrite of the same story.
pub fn truth(a: &Doc, b: &Doc) -> Option<dedup::Relation> {
    if a.story != b.story {
        return None;
    }
    let copy =
        |k: Kind| matches!(k, Kind::Original | Kind::Duplicate | Kind::Template | Kind::Brief);
    Some(if copy(a.kind) && copy(b.kind) {
        dedup::Relation::Duplicate
    } else {
        dedup::Relation::Similar
    })
}

/// How much of each edit a generated set has.
#[derive(Debug, Clone, Copy)]
pub struct Mix {
    /// Share of stories with edited copies.
    pub with_duplicates: f64,
    /// Most copies per such story.
    pub max_duplicates: usize,
    /// Share of stories with rewrites.
    pub with_rewrites: f64,
    /// Roundups per 100 stories.
    pub roundups_per_100: f64,
    /// Share of undated documents.
    pub undated: f64,
    /// Days the stories are spread over.
    pub days: i64,
    /// Share of the stories that can take a template ([`NamePool::takes_a_template`]) whose
    /// template other stories are written on (two or three each).
    pub with_templates: f64,
    /// Share of stories (with at least three numbers) that get an update.
    pub with_updates: f64,
    /// Share of long stories (at least 300 words in five paragraphs) that get a brief.
    pub with_briefs: f64,
    /// Whether a template story must state facts of its own in its lede (the paragraphs up to
    /// the first of at least 15 words, what a one-paragraph brief repeats): a story written on a
    /// template names its own teams, index or place in its first sentences, and a variant whose
    /// lede is the original's word for word, every replaced name and number further down, is
    /// left out (its draws are made all the same, so the rest of the set does not change).
    /// Off, the set as it was before this check (for the figures before and after it).
    pub template_ledes_differ: bool,
    /// Whether a template story replaces the acronyms that name an organisation, a place or a
    /// product (`NFPA`, `GHG`, `U.S.`) as it replaces runs of capitalised words inside
    /// sentences, each by another acronym: they are names, and the facts count them as names.
    /// Which stories take a template is decided by the capitalised runs as before. Off, the set
    /// as it was before (for the figures before and after).
    pub template_acronyms: bool,
}

impl Mix {
    /// The evaluation mix: many positives, for statistical power.
    pub fn eval() -> Self {
        Mix {
            with_duplicates: 0.5,
            max_duplicates: 4,
            with_rewrites: 0.3,
            roundups_per_100: 2.0,
            undated: 0.05,
            days: 40,
            with_templates: 0.6,
            with_updates: 0.2,
            with_briefs: 0.25,
            template_ledes_differ: true,
            template_acronyms: true,
        }
    }
}

pub const EPOCH: i64 = 1_767_225_600; // 2026-01-01T00:00:00Z

/// A story to generate from: a headline and paragraphs.
#[derive(Debug, Clone)]
pub struct Story {
    pub source: String,
    pub title: String,
    pub paragraphs: Vec<String>,
    pub tags: Vec<String>,
}

/// The stories of a split of the bases: long texts are split into two stories (same source and
/// topic, different story: the hard negatives), and each base's source is its domain, or, for
/// a third of them, a shared source of its topic (same source, same topic, different stories).
pub fn stories(bases: &[&Base], rng: &mut Rng) -> Vec<Story> {
    let mut out = Vec::new();
    for base in bases {
        let paragraphs: Vec<String> = base
            .text
            .split("\n\n")
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|p| !p.is_empty())
            .collect();
        let source = if rng.chance(0.33) {
            format!("{}-daily.example", base.tags.first().map_or("general", String::as_str))
        } else {
            base.domain.clone()
        };
        let words: usize = paragraphs.iter().map(|p| p.split_whitespace().count()).sum();
        if words >= 1000 && paragraphs.len() >= 6 && rng.chance(0.5) {
            let half = paragraphs.len() / 2;
            let second = paragraphs[half..].to_vec();
            let title = first_words(&second[0], 10);
            out.push(Story {
                source: source.clone(),
                title: base.title.clone(),
                paragraphs: paragraphs[..half].to_vec(),
                tags: base.tags.clone(),
            });
            out.push(Story { source, title, paragraphs: second, tags: base.tags.clone() });
        } else {
            out.push(Story {
                source,
                title: base.title.clone(),
                paragraphs,
                tags: base.tags.clone(),
            });
        }
    }
    out
}

fn first_words(text: &str, n: usize) -> String {
    text.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
}

/// Generates the documents of a set of stories under a mix.
pub fn generate(stories: &[Story], mix: &Mix, rng: &mut Rng, prefix: &str) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut next_id = 0usize;
    let mut id = |kind: &str| {
        next_id += 1;
        format!("{prefix}{kind}{next_id:06}")
    };
    let boiler = Boilerplate;
    let names = NamePool::new(stories);
    // Story numbers past the given stories: template stories, then roundups.
    let mut next_story = stories.len();
    for (s, story) in stories.iter().enumerate() {
        let day = rng.below(mix.days.max(1) as usize) as i64;
        let t0 = EPOCH + day * 86_400 + rng.below(86_400) as i64;
        let dated = |rng: &mut Rng, t: i64| (!rng.chance(mix.undated)).then_some(t);
        let house = boiler.house(&story.source, rng);
        let original_text = join(&house.apply(&story.paragraphs, rng));
        docs.push(Doc {
            id: id("o"),
            source: story.source.clone(),
            url: format!("https://{}/{}", story.source, slug(&story.title)),
            title: story.title.clone(),
            text: original_text.clone(),
            published: dated(rng, t0),
            story: s,
            family: s,
            kind: Kind::Original,
        });
        if rng.chance(mix.with_duplicates) {
            let n = 1 + rng.below(mix.max_duplicates);
            for _ in 0..n {
                let source = format!("outlet{}.example", rng.below(400));
                let (title, text) = edited_copy(story, &source, stories, &boiler, rng);
                let t = t0 + rng.below(2 * 86_400) as i64;
                docs.push(Doc {
                    id: id("d"),
                    url: format!("https://{source}/{}", slug(&title)),
                    source,
                    title,
                    text,
                    published: dated(rng, t),
                    story: s,
                    family: s,
                    kind: Kind::Duplicate,
                });
            }
        }
        if rng.chance(mix.with_rewrites) {
            let n = 1 + rng.below(2);
            for _ in 0..n {
                let source = format!("outlet{}.example", rng.below(400));
                let (title, text) = rewrite(story, rng);
                let t = t0 + rng.below(3 * 86_400) as i64;
                docs.push(Doc {
                    id: id("r"),
                    url: format!("https://{source}/{}", slug(&title)),
                    source,
                    title,
                    text,
                    published: dated(rng, t),
                    story: s,
                    family: s,
                    kind: Kind::Rewrite,
                });
            }
        }
        let words: usize = story.paragraphs.iter().map(|p| p.split_whitespace().count()).sum();
        if words >= 300 && story.paragraphs.len() >= 5 && rng.chance(mix.with_briefs) {
            let source = format!("outlet{}.example", rng.below(400));
            let (title, text) = brief(story, &source, rng);
            let t = t0 + rng.below(86_400) as i64;
            docs.push(Doc {
                id: id("f"),
                url: format!("https://{source}/{}", slug(&title)),
                source,
                title,
                text,
                published: dated(rng, t),
                story: s,
                family: s,
                kind: Kind::Brief,
            });
        }
        let figures = distinct_numbers(&story.paragraphs);
        if figures.len() >= 3 && rng.chance(mix.with_updates) {
            // The same outlet updating its story, or a wire copy of the update elsewhere.
            let source = if rng.chance(0.6) {
                story.source.clone()
            } else {
                format!("outlet{}.example", rng.below(400))
            };
            let (title, paragraphs) = update(story, &figures, stories, rng);
            let house = boiler.house(&source, rng);
            let t = t0 + 3_600 + rng.below(30 * 3_600) as i64;
            docs.push(Doc {
                id: id("u"),
                url: format!("https://{source}/{}-update", slug(&title)),
                source,
                title,
                text: join(&house.apply(&paragraphs, rng)),
                published: dated(rng, t),
                story: s,
                family: s,
                kind: Kind::Update,
            });
        }
        if rng.chance(mix.with_templates) && names.takes_a_template(story) {
            for _ in 0..2 + rng.below(2) {
                let variant = names.template(story, mix.template_acronyms, rng);
                let t = t0 + (rng.below(7 * 86_400) as i64 - 3 * 86_400);
                let house = boiler.house(&variant.source, rng);
                let story_no = next_story;
                next_story += 1;
                let keep = !mix.template_ledes_differ || lede(&variant) != lede(story);
                let at = docs.len();
                docs.push(Doc {
                    id: id("t"),
                    source: variant.source.clone(),
                    url: format!("https://{}/{}", variant.source, slug(&variant.title)),
                    title: variant.title.clone(),
                    text: join(&house.apply(&variant.paragraphs, rng)),
                    published: dated(rng, t),
                    story: story_no,
                    family: s,
                    kind: Kind::Template,
                });
                // A template story is news like any other: sometimes syndicated too.
                if rng.chance(0.3) {
                    let source = format!("outlet{}.example", rng.below(400));
                    let (title, text) = edited_copy(&variant, &source, stories, &boiler, rng);
                    docs.push(Doc {
                        id: id("d"),
                        url: format!("https://{source}/{}", slug(&title)),
                        source,
                        title,
                        text,
                        published: {
                            let later = t + rng.below(86_400) as i64;
                            dated(rng, later)
                        },
                        story: story_no,
                        family: s,
                        kind: Kind::Duplicate,
                    });
                }
                if !keep {
                    docs.truncate(at);
                }
            }
        }
    }
    // Roundups: the ledes of ten or so stories of the same days.
    let roundups = (stories.len() as f64 * mix.roundups_per_100 / 100.0).round() as usize;
    let originals: Vec<usize> =
        (0..docs.len()).filter(|&i| docs[i].kind == Kind::Original).collect();
    for r in 0..roundups {
        let Some(&anchor) = originals.get(rng.below(originals.len().max(1))) else { break };
        let t = docs[anchor].published.unwrap_or(EPOCH);
        let mut near: Vec<usize> = originals
            .iter()
            .copied()
            .filter(|&i| docs[i].published.is_some_and(|p| (p - t).abs() < 2 * 86_400))
            .collect();
        rng.shuffle(&mut near);
        near.truncate(8 + rng.below(8));
        let paragraphs: Vec<String> = near
            .iter()
            .map(|&i| {
                let d = &docs[i];
                let lede = d.text.split("\n\n").find(|p| p.split_whitespace().count() > 12);
                format!("{}. {}", d.title, first_words(lede.unwrap_or(&d.text), 40))
            })
            .collect();
        let title = format!("Morning briefing: the {} stories to know today", paragraphs.len());
        let story_no = next_story;
        next_story += 1;
        docs.push(Doc {
            id: id("b"),
            source: "briefing.example".into(),
            url: format!("https://briefing.example/{r}"),
            title,
            text: join(&paragraphs),
            published: Some(t + 3_600),
            story: story_no,
            family: story_no,
            kind: Kind::Roundup,
        });
    }
    docs
}

/// A story's lede: its paragraphs up to the first of at least 15 words (the one a brief of one
/// paragraph repeats; shorter ones before it are headings, datelines, bylines).
fn lede(story: &Story) -> &[String] {
    let end = story.paragraphs.iter().position(|p| p.split_whitespace().count() >= 15);
    &story.paragraphs[..end.map_or(story.paragraphs.len(), |i| i + 1)]
}

/// A brief of a long story: its first one to three paragraphs (a short paragraph such as a
/// subheading does not count as one), under an agency byline and with a footer: (title, text).
fn brief(story: &Story, source: &str, rng: &mut Rng) -> (String, String) {
    let wanted = 1 + rng.below(3);
    let mut body = Vec::new();
    let mut counted = 0;
    for p in &story.paragraphs {
        if counted == wanted {
            break;
        }
        body.push(p.clone());
        if p.split_whitespace().count() >= 15 {
            counted += 1;
        }
    }
    let mut paragraphs = Vec::new();
    paragraphs.push(if rng.chance(0.5) {
        format!("By {} ({})", rng.pick(NAMES), rng.pick(AGENCIES))
    } else {
        format!("{} — {}", rng.pick(AGENCIES).to_uppercase(), rng.pick(NAMES))
    });
    paragraphs.extend(body);
    let footers = [
        format!("Copyright {source}. All rights reserved."),
        "This is a developing story and will be updated as more information becomes available."
            .to_owned(),
        format!("Read the full story at {}.", story.source),
        format!("Get the latest news from {source} delivered to your inbox every morning."),
    ];
    paragraphs.push(rng.pick(&footers).clone());
    let title = match rng.below(3) {
        0 => story.title.clone(),
        1 => format!("BRIEF: {}", story.title),
        _ => edit_words(&story.title, 0.4, 0.0, 0.0, rng),
    };
    (title, join(&paragraphs))
}

/// The distinct numbers of a story's paragraphs that are not years, in order of appearance.
fn distinct_numbers(paragraphs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in paragraphs {
        for word in p.split_whitespace() {
            let core = word.trim_matches(|c: char| !c.is_ascii_digit());
            if core.is_empty() || is_year(core) || out.iter().any(|n| n == core) {
                continue;
            }
            out.push(core.to_owned());
        }
    }
    out
}

fn is_year(number: &str) -> bool {
    number.len() == 4 && (number.starts_with("19") || number.starts_with("20"))
}

/// Another number of the same shape: the same count of digits, the same separators.
fn other_number(number: &str, rng: &mut Rng) -> String {
    loop {
        let mut first = true;
        let out: String = number
            .chars()
            .map(|c| {
                if !c.is_ascii_digit() {
                    return c;
                }
                let d = if first && number.len() > 1 { 1 + rng.below(9) } else { rng.below(10) };
                first = false;
                char::from(b'0' + d as u8)
            })
            .collect();
        if out != number {
            return out;
        }
    }
}

/// Replaces whole numbers in a text by the map (a word's digits with its punctuation kept).
fn replace_numbers(text: &str, map: &[(String, String)]) -> String {
    text.split(' ')
        .map(|word| {
            let core = word.trim_matches(|c: char| !c.is_ascii_digit());
            match map.iter().find(|(from, _)| from == core) {
                Some((from, to)) if !core.is_empty() => word.replacen(from.as_str(), to, 1),
                _ => word.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A later version of a story: a third to a half of its numbers changed (at least one), a new
/// paragraph that reports the change, sometimes a new headline: (title, paragraphs).
fn update(
    story: &Story,
    figures: &[String],
    stories: &[Story],
    rng: &mut Rng,
) -> (String, Vec<String>) {
    let share = rng.range(0.3, 0.5);
    let mut changed: Vec<(String, String)> = Vec::new();
    for n in figures {
        if rng.chance(share) {
            let to = other_number(n, rng);
            changed.push((n.clone(), to));
        }
    }
    if changed.is_empty() {
        let n = rng.pick(figures).clone();
        let to = other_number(&n, rng);
        changed.push((n, to));
    }
    let mut paragraphs: Vec<String> =
        story.paragraphs.iter().map(|p| replace_numbers(p, &changed)).collect();
    let (_, new_figure) = rng.pick(&changed).clone();
    let other = rng.pick(stories);
    let background = rng.pick(&other.paragraphs).clone();
    let added = format!(
        "{} {}",
        rng.pick(&[
            format!("The figure was revised to {new_figure} later in the day, officials said."),
            format!(
                "By the evening the number had reached {new_figure}, according to the latest count."
            ),
            format!("Updated figures released on Tuesday put the total at {new_figure}."),
        ]),
        // A sentence of background from another story of the day, as updates add context.
        split_sentences(&background)
            .into_iter()
            .find(|s| s.split_whitespace().count() >= 8)
            .unwrap_or_default()
    );
    let at = if rng.chance(0.5) { 1.min(paragraphs.len()) } else { paragraphs.len() };
    paragraphs.insert(at, added);
    let title = match rng.below(3) {
        0 => story.title.clone(),
        1 => format!("UPDATE: {}", story.title),
        _ => replace_numbers(&story.title, &changed),
    };
    (title, paragraphs)
}

/// Words that are capitalised wherever they stand and name no one: left alone by templates.
const CALENDAR: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "I",
];

/// The names of every story (runs of capitalised words inside sentences), to draw a template's
/// new names from: a name is replaced by another name of the same length in words. Found with
/// capitalisation alone, independently of the tagger under test.
pub struct NamePool {
    by_length: Vec<Vec<String>>,
    /// The acronyms of every story, to draw a template's new acronyms from.
    acronyms: Vec<String>,
}

impl NamePool {
    pub fn new(stories: &[Story]) -> Self {
        let mut by_length: Vec<Vec<String>> = vec![Vec::new(); 4];
        for story in stories {
            for name in story.paragraphs.iter().flat_map(|p| Self::names_in_sentences(p)) {
                let n = name.split(' ').count().min(4);
                by_length[n - 1].push(name);
            }
        }
        for names in &mut by_length {
            names.sort();
            names.dedup();
        }
        let mut acronyms: Vec<String> = stories
            .iter()
            .flat_map(|story| &story.paragraphs)
            .filter(|p| !Self::is_heading(p))
            .flat_map(|p| Self::acronyms_in(p))
            .collect();
        acronyms.sort();
        acronyms.dedup();
        NamePool { by_length, acronyms }
    }

    /// Whether a word (less surrounding punctuation) is an acronym: two to six capital letters,
    /// perhaps with `.` or `&` between them (`NFPA`, `U.S`, `R&D`), no lowercase letter, and
    /// not a Roman numeral (`II`, `XIV`).
    fn is_acronym(core: &str) -> bool {
        let letters = core.chars().filter(char::is_ascii_alphabetic).count();
        (2..=6).contains(&letters)
            && core.starts_with(|c: char| c.is_ascii_uppercase())
            && core.chars().all(|c| c.is_ascii_uppercase() || c == '.' || c == '&')
            && !core.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C' | 'M' | 'D'))
    }

    /// The acronyms of a text.
    fn acronyms_in(text: &str) -> impl Iterator<Item = String> + '_ {
        text.split_whitespace()
            .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|core| Self::is_acronym(core))
            .map(str::to_owned)
    }

    /// The names a template story replaces: the capitalised runs of [`Self::entities`] and the
    /// acronyms, each acronym marked `true`.
    fn all_names(&self, story: &Story) -> Vec<(String, bool)> {
        let mut names: Vec<(String, bool)> = Vec::new();
        for paragraph in story.paragraphs.iter().filter(|p| !Self::is_heading(p)) {
            names.extend(Self::names_in(paragraph).into_iter().map(|n| (n, false)));
            names.extend(Self::acronyms_in(paragraph).map(|a| (a, true)));
        }
        names.sort();
        names.dedup();
        names
    }

    /// Runs of capitalised words that do not begin a sentence (less punctuation), at most four
    /// words, calendar words left out.
    fn names_in(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut run: Vec<&str> = Vec::new();
        let mut sentence_start = true;
        for word in text.split_whitespace() {
            let core = word.trim_matches(|c: char| !c.is_alphanumeric());
            let capitalised = core.chars().next().is_some_and(char::is_uppercase)
                && core.chars().any(char::is_lowercase)
                && !CALENDAR.contains(&core);
            let ends = word.ends_with(['.', '!', '?', ':', ';', ',', ')', '"', '”']);
            if capitalised && !sentence_start && word.starts_with(|c: char| c.is_alphanumeric()) {
                run.push(core);
            } else if !run.is_empty() {
                out.push(run.join(" "));
                run.clear();
            }
            if ends && !run.is_empty() {
                out.push(run.join(" "));
                run.clear();
            }
            if run.len() == 4 {
                out.push(run.join(" "));
                run.clear();
            }
            sentence_start = word.ends_with(['.', '!', '?']) || word.ends_with(".\"");
        }
        if !run.is_empty() {
            out.push(run.join(" "));
        }
        out
    }

    /// The names of a paragraph that is made of sentences; none in a heading (a short line
    /// without a sentence's end), whose title case is not names: a guide's subheadings
    /// ("Handling Service Charges") would otherwise count as its names, make a listicle look
    /// like a template story, and have a template story differ from its original in headings
    /// alone.
    fn names_in_sentences(paragraph: &str) -> Vec<String> {
        if Self::is_heading(paragraph) { Vec::new() } else { Self::names_in(paragraph) }
    }

    /// A short line without a sentence's end.
    fn is_heading(paragraph: &str) -> bool {
        paragraph.split_whitespace().count() < 15
            && !paragraph.trim_end().ends_with(['.', '!', '?', '"', '”', ')'])
    }

    /// The distinct names of a story's paragraphs.
    pub fn entities(&self, story: &Story) -> Vec<String> {
        let mut names: Vec<String> =
            story.paragraphs.iter().flat_map(|p| Self::names_in_sentences(p)).collect();
        names.sort();
        names.dedup();
        names
    }

    /// Whether other stories are written on this one's template: the stories that are (a match
    /// report, a market close, a bulletin, an earnings note, an obituary) are news of ordinary
    /// length dense with names, at least three distinct names per hundred words and at most
    /// 1,500 words; a long guide or listicle with a few names is not.
    pub fn takes_a_template(&self, story: &Story) -> bool {
        let words: usize = story.paragraphs.iter().map(|p| p.split_whitespace().count()).sum();
        let names = self.entities(story).len();
        words <= 1_500 && names * 100 >= 3 * words
    }

    /// Another story on this one's template: each name replaced (consistently, and a name's last
    /// word wherever it stands alone) with probability 0.7 to 1, each number that is not a year
    /// replaced with probability 0.7 to 1, by another of the same shape; the same source or
    /// another. With `all_names`, the names of [`Self::all_names`], an acronym replaced by
    /// another acronym.
    pub fn template(&self, story: &Story, all_names: bool, rng: &mut Rng) -> Story {
        let names: Vec<(String, bool)> = if all_names {
            self.all_names(story)
        } else {
            self.entities(story).into_iter().map(|name| (name, false)).collect()
        };
        let name_share = rng.range(0.7, 1.0);
        let mut map: Vec<(String, String)> = Vec::new();
        for (name, acronym) in &names {
            if !rng.chance(name_share) {
                continue;
            }
            let n = name.split(' ').count().min(4);
            let pool = if *acronym { &self.acronyms } else { &self.by_length[n - 1] };
            if pool.is_empty() {
                continue;
            }
            let other = loop {
                let candidate = rng.pick(pool);
                if candidate != name || pool.len() == 1 {
                    break candidate.clone();
                }
            };
            map.push((name.clone(), other));
        }
        // A surname standing alone follows its full name.
        let mut singles: Vec<(String, String)> = Vec::new();
        for (from, to) in &map {
            if let (Some(last_from), Some(last_to)) =
                (from.rsplit(' ').next(), to.rsplit(' ').next())
                && from.contains(' ')
                && !map.iter().any(|(f, _)| f == last_from)
            {
                singles.push((last_from.to_owned(), last_to.to_owned()));
            }
        }
        map.extend(singles);
        // Longest names first, so a full name is replaced before its last word.
        map.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
        let number_share = rng.range(0.7, 1.0);
        let mut numbers: Vec<(String, String)> = Vec::new();
        for n in distinct_numbers(&story.paragraphs) {
            if rng.chance(number_share) {
                let to = other_number(&n, rng);
                numbers.push((n, to));
            }
        }
        let apply = |text: &str| -> String {
            let mut out = replace_names(text, &map);
            out = replace_numbers(&out, &numbers);
            out
        };
        Story {
            source: if rng.chance(0.5) {
                story.source.clone()
            } else {
                format!("outlet{}.example", rng.below(400))
            },
            title: apply(&story.title),
            paragraphs: story.paragraphs.iter().map(|p| apply(p)).collect(),
            tags: story.tags.clone(),
        }
    }
}

/// Replaces whole-word occurrences of each name (map in order), in one pass over the text.
fn replace_names(text: &str, map: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        let at_word_start = out.chars().last().is_none_or(|c| !c.is_alphanumeric());
        if at_word_start {
            for (from, to) in map {
                if let Some(after) = rest.strip_prefix(from.as_str())
                    && after.chars().next().is_none_or(|c| !c.is_alphanumeric())
                {
                    out.push_str(to);
                    rest = after;
                    continue 'outer;
                }
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn join(paragraphs: &[String]) -> String {
    paragraphs.join("\n\n")
}

fn slug(title: &str) -> String {
    title
        .split_whitespace()
        .take(8)
        .map(|w| w.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase())
        .collect::<Vec<_>>()
        .join("-")
}

/// A source's house style: a byline form, a footer, inserted promos.
struct House {
    byline: Option<String>,
    footer: Option<String>,
}

impl House {
    fn apply(&self, paragraphs: &[String], rng: &mut Rng) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(b) = &self.byline {
            out.push(b.clone());
        }
        out.extend(paragraphs.iter().cloned());
        if let Some(f) = &self.footer
            && rng.chance(0.8)
        {
            out.push(f.clone());
        }
        out
    }
}

#[derive(Default)]
struct Boilerplate;

const NAMES: &[&str] = &[
    "Maria Santos",
    "John Carter",
    "Aisha Khan",
    "Lars Nielsen",
    "Sophie Martin",
    "Daniel Weber",
    "Elena Rossi",
    "Tom Becker",
    "Priya Nair",
    "Carlos Mendes",
    "Hannah Lee",
    "Omar Haddad",
];
const AGENCIES: &[&str] = &["Reuters", "AP", "AFP", "Bloomberg", "dpa", "Staff", "Wire Service"];

impl Boilerplate {
    fn house(&self, source: &str, rng: &mut Rng) -> House {
        let byline = rng.chance(0.6).then(|| {
            format!(
                "By {} | {} | {}",
                rng.pick(NAMES),
                source,
                rng.pick(&["Updated", "Published", "Posted"])
            )
        });
        let footer = rng.chance(0.7).then(|| {
            let lines = [
                format!("Copyright {source}. All rights reserved. This material may not be published, broadcast, rewritten or redistributed."),
                format!("Sign up for the {source} newsletter to get the day's top stories delivered to your inbox every morning."),
                format!("Follow {source} on social media and share your news tips with our newsroom."),
            ];
            rng.pick(&lines).clone()
        });
        House { byline, footer }
    }

    fn promo(&self, source: &str, other_title: &str, rng: &mut Rng) -> String {
        let lines = [
            "Advertisement".to_owned(),
            format!("Related: {other_title}"),
            format!("Read more: {other_title}"),
            "Share this article on Facebook, Twitter or by email.".to_owned(),
            format!("Subscribe to {source} for unlimited access to our journalism."),
            "Story continues below advertisement".to_owned(),
        ];
        rng.pick(&lines).clone()
    }
}

/// An edited syndicated copy of a story: (title, text).
fn edited_copy(
    story: &Story,
    source: &str,
    stories: &[Story],
    boiler: &Boilerplate,
    rng: &mut Rng,
) -> (String, String) {
    let mut paragraphs = story.paragraphs.clone();
    // Trimmed tail: keep 45% to 100% of the words.
    if rng.chance(0.6) {
        let total: usize = paragraphs.iter().map(|p| p.split_whitespace().count()).sum();
        let keep = (total as f64 * rng.range(0.45, 1.0)) as usize;
        let mut seen = 0;
        let mut cut = paragraphs.len();
        for (i, p) in paragraphs.iter().enumerate() {
            seen += p.split_whitespace().count();
            if seen >= keep {
                cut = i + 1;
                break;
            }
        }
        paragraphs.truncate(cut.max(1));
    }
    // Reordered paragraphs.
    if rng.chance(0.35) && paragraphs.len() > 3 {
        for _ in 0..1 + rng.below(3) {
            let i = 1 + rng.below(paragraphs.len() - 2);
            paragraphs.swap(i, i + 1);
        }
    }
    // Word-level edits.
    let synonym_rate = if rng.chance(0.5) { rng.range(0.02, 0.15) } else { 0.0 };
    let typo_rate = if rng.chance(0.4) { rng.range(0.003, 0.02) } else { 0.0 };
    let mut paragraphs: Vec<String> =
        paragraphs.iter().map(|p| edit_words(p, synonym_rate, 0.0, typo_rate, rng)).collect();
    // Byline and boilerplate.
    if rng.chance(0.5) {
        let byline = if rng.chance(0.5) {
            format!("By {} ({})", rng.pick(NAMES), rng.pick(AGENCIES))
        } else {
            format!("{} — {}", rng.pick(AGENCIES).to_uppercase(), rng.pick(NAMES))
        };
        paragraphs.insert(0, byline);
    }
    if rng.chance(0.6) {
        for _ in 0..1 + rng.below(3) {
            let other = &rng.pick(stories).title;
            let promo = boiler.promo(source, other, rng);
            let at = rng.below(paragraphs.len() + 1);
            paragraphs.insert(at, promo);
        }
    }
    // New headline.
    let title = match rng.below(4) {
        0 => story.title.clone(),
        1 => format!("{} | {}", story.title, source),
        2 => edit_words(&story.title, 0.4, 0.0, 0.0, rng),
        _ => {
            let lede = story.paragraphs.iter().find(|p| p.split_whitespace().count() > 8);
            first_words(lede.unwrap_or(&story.title), 6 + rng.below(6))
        }
    };
    (title, join(&paragraphs))
}

/// A rewrite of a story by another reporter: (title, text).
fn rewrite(story: &Story, rng: &mut Rng) -> (String, String) {
    let sentences: Vec<String> = story
        .paragraphs
        .iter()
        .flat_map(|p| split_sentences(p))
        .filter(|s| s.split_whitespace().count() >= 4)
        .collect();
    let keep = rng.range(0.3, 0.5);
    let mut kept: Vec<String> = sentences.iter().filter(|_| rng.chance(keep)).cloned().collect();
    if kept.is_empty() {
        kept = sentences.iter().take(3).cloned().collect();
    }
    // Shuffle within windows of four sentences: a different order, the same arc.
    for chunk in kept.chunks_mut(4) {
        rng.shuffle(chunk);
    }
    let mut out: Vec<String> = kept
        .iter()
        .map(|s| {
            let s = if rng.chance(0.3) { turn_clauses(s) } else { s.clone() };
            edit_words(&s, 0.25, 0.1, 0.0, rng)
        })
        .collect();
    let lede = format!(
        "{} {}",
        edit_words(&story.title, 0.3, 0.0, 0.0, rng),
        rng.pick(&[
            ", according to people familiar with the matter.",
            ", officials and experts said this week.",
            ", a development that drew wide attention.",
            "."
        ])
    );
    out.insert(0, lede);
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(out.len() + 1);
        out.insert(at, rng.pick(FILLER).to_string());
    }
    let paragraphs: Vec<String> = out.chunks(3).map(|c| c.join(" ")).collect();
    let title = edit_words(&story.title, 0.5, 0.15, 0.0, rng);
    (title, join(&paragraphs))
}

const FILLER: &[&str] = &[
    "The details were confirmed by several people with knowledge of the plans.",
    "It was not immediately clear what the next steps would be.",
    "Representatives did not respond to requests for comment on Tuesday.",
    "The announcement comes amid growing interest in the subject.",
    "Critics have raised questions about the timing and the cost.",
    "More information is expected to be released in the coming weeks.",
    "Observers said the move could have wider consequences.",
];

fn split_sentences(paragraph: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for word in paragraph.split_whitespace() {
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        if word.ends_with(['.', '!', '?']) && word.len() > 3 {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// "A, B." becomes "B, A." (a crude but common rewriting move).
fn turn_clauses(sentence: &str) -> String {
    let Some((a, b)) = sentence.split_once(", ") else { return sentence.to_owned() };
    let b = b.trim_end_matches(['.', '!', '?']);
    let a = a.chars().next().map_or(String::new(), |c| {
        let rest: String = a.chars().skip(1).collect();
        format!("{}{rest}", c.to_lowercase())
    });
    let mut b_chars = b.chars();
    let b = b_chars
        .next()
        .map_or(String::new(), |c| format!("{}{}", c.to_uppercase(), b_chars.as_str()));
    format!("{b}, {a}.")
}

/// Word-level edits: synonym swaps, word drops (lower-case words only) and typos, each at its rate.
pub fn edit_words(text: &str, synonyms: f64, drops: f64, typos: f64, rng: &mut Rng) -> String {
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let core = word.trim_matches(|c: char| !c.is_alphanumeric());
        let lower = core.to_lowercase();
        if core.chars().next().is_some_and(char::is_lowercase) && rng.chance(drops) {
            continue;
        }
        let mut w = word.to_owned();
        if let Some(alts) = synonyms_of(&lower)
            && rng.chance(synonyms * 2.5)
        {
            let alt = rng.pick(alts);
            let alt = if core.chars().next().is_some_and(char::is_uppercase) {
                let mut c = alt.chars();
                c.next().map_or(String::new(), |f| format!("{}{}", f.to_uppercase(), c.as_str()))
            } else {
                (*alt).to_owned()
            };
            w = word.replacen(core, &alt, 1);
        }
        if rng.chance(typos) && w.chars().count() > 3 {
            w = typo(&w, rng);
        }
        out.push(w);
    }
    out.join(" ")
}

fn typo(word: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    let i = 1 + rng.below(chars.len() - 2);
    match rng.below(3) {
        0 => chars.swap(i, i + 1),
        1 => {
            chars.remove(i);
        }
        _ => {
            let c = chars[i];
            chars.insert(i, c);
        }
    }
    chars.into_iter().collect()
}

/// A hand-made table of common English words and replacements a rewriting editor would use.
fn synonyms_of(word: &str) -> Option<&'static [&'static str]> {
    const TABLE: &[(&str, &[&str])] = &[
        ("said", &["stated", "noted", "added", "explained"]),
        ("says", &["states", "notes", "explains"]),
        ("big", &["large", "major", "huge"]),
        ("large", &["big", "sizeable", "major"]),
        ("small", &["little", "minor", "modest"]),
        ("important", &["key", "crucial", "significant"]),
        ("new", &["fresh", "latest", "recent"]),
        ("help", &["assist", "support", "aid"]),
        ("helps", &["assists", "supports", "aids"]),
        ("use", &["employ", "utilize", "apply"]),
        ("used", &["employed", "utilized", "applied"]),
        ("make", &["create", "produce", "build"]),
        ("makes", &["creates", "produces", "builds"]),
        ("show", &["reveal", "indicate", "demonstrate"]),
        ("shows", &["reveals", "indicates", "demonstrates"]),
        ("many", &["numerous", "several", "lots of"]),
        ("also", &["additionally", "too", "as well"]),
        ("however", &["but", "yet", "still"]),
        ("because", &["since", "as"]),
        ("start", &["begin", "launch", "kick off"]),
        ("started", &["began", "launched"]),
        ("buy", &["purchase", "acquire"]),
        ("get", &["obtain", "receive", "gain"]),
        ("give", &["provide", "offer", "grant"]),
        ("people", &["individuals", "residents", "citizens"]),
        ("company", &["firm", "business", "group"]),
        ("companies", &["firms", "businesses"]),
        ("increase", &["rise", "growth", "jump"]),
        ("decrease", &["drop", "decline", "fall"]),
        ("rise", &["increase", "climb", "gain"]),
        ("fell", &["dropped", "declined", "slipped"]),
        ("rose", &["climbed", "increased", "gained"]),
        ("quickly", &["rapidly", "swiftly", "fast"]),
        ("often", &["frequently", "regularly", "commonly"]),
        ("about", &["around", "roughly", "approximately"]),
        ("around", &["about", "roughly", "nearly"]),
        ("before", &["prior to", "ahead of"]),
        ("after", &["following", "once"]),
        ("need", &["require", "must have"]),
        ("needs", &["requires", "demands"]),
        ("find", &["discover", "locate", "identify"]),
        ("found", &["discovered", "identified", "located"]),
        ("think", &["believe", "reckon", "feel"]),
        ("good", &["strong", "solid", "positive"]),
        ("bad", &["poor", "weak", "negative"]),
        ("best", &["top", "finest", "leading"]),
        ("problem", &["issue", "challenge", "difficulty"]),
        ("problems", &["issues", "challenges", "difficulties"]),
        ("change", &["shift", "alteration", "move"]),
        ("changes", &["shifts", "adjustments", "moves"]),
        ("plan", &["proposal", "scheme", "strategy"]),
        ("plans", &["proposals", "schemes", "strategies"]),
        ("report", &["study", "review", "account"]),
        ("according", &["per"]),
        ("expert", &["specialist", "analyst", "authority"]),
        ("experts", &["specialists", "analysts", "authorities"]),
        ("way", &["method", "approach", "manner"]),
        ("ways", &["methods", "approaches"]),
        ("provide", &["offer", "supply", "deliver"]),
        ("provides", &["offers", "supplies", "delivers"]),
        ("include", &["feature", "contain", "cover"]),
        ("includes", &["features", "contains", "covers"]),
        ("different", &["various", "distinct", "diverse"]),
        ("easy", &["simple", "straightforward", "effortless"]),
        ("hard", &["difficult", "tough", "challenging"]),
        ("very", &["highly", "extremely", "really"]),
        ("really", &["truly", "very", "genuinely"]),
        ("want", &["wish", "hope", "would like"]),
        ("try", &["attempt", "seek", "aim"]),
        ("keep", &["maintain", "retain", "hold"]),
        ("choose", &["select", "pick", "opt for"]),
        ("allow", &["let", "enable", "permit"]),
        ("allows", &["lets", "enables", "permits"]),
        ("improve", &["enhance", "boost", "upgrade"]),
        ("benefits", &["advantages", "gains", "upsides"]),
        ("goal", &["aim", "target", "objective"]),
        ("goals", &["aims", "targets", "objectives"]),
        ("however,", &["but", "still,"]),
        ("while", &["whereas", "although"]),
        ("large", &["big", "vast"]),
        ("high", &["elevated", "steep", "strong"]),
        ("low", &["reduced", "modest", "weak"]),
        ("first", &["initial", "earliest", "opening"]),
        ("last", &["final", "latest", "previous"]),
        ("year", &["twelve months", "season"]),
        ("today", &["now", "these days", "currently"]),
        ("time", &["period", "moment", "stage"]),
        ("work", &["job", "labor", "effort"]),
        ("part", &["portion", "piece", "share"]),
        ("example", &["instance", "case", "illustration"]),
        ("simple", &["easy", "basic", "plain"]),
        ("common", &["widespread", "frequent", "typical"]),
        ("support", &["back", "assist", "help"]),
        ("understand", &["grasp", "comprehend", "see"]),
        ("result", &["outcome", "consequence", "effect"]),
        ("results", &["outcomes", "findings", "effects"]),
    ];
    TABLE.iter().find(|(w, _)| *w == word).map(|(_, alts)| *alts)
}

/// Synthetic articles for the speed corpus: the first 300 to 1,000 words of a base article with
/// every word of four characters or more (names and numbers too) replaced, consistently within
/// the story, by a word of another base article (its "topic"): distinct stories with real sentence structure and word
/// statistics, and stories that share a topic share vocabulary, as a day's news does. Not for
/// quality figures: for speed only.
#[derive(Debug)]
pub struct Synth {
    bases: Vec<(String, Vec<String>)>,
    vocab: Vec<Vec<String>>,
}

impl Synth {
    pub fn new(bases: &[Base]) -> Self {
        let content = |text: &str| -> Vec<String> {
            let mut words: Vec<String> = text
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
                .filter(|w| w.len() >= 4)
                .collect();
            words.sort();
            words.dedup();
            words
        };
        Synth {
            bases: bases
                .iter()
                .map(|b| {
                    let paragraphs = b.text.split("\n\n").map(str::to_owned).collect();
                    (b.title.clone(), paragraphs)
                })
                .collect(),
            vocab: bases.iter().map(|b| content(&b.text)).filter(|v| !v.is_empty()).collect(),
        }
    }

    /// A synthetic story.
    pub fn story(&self, rng: &mut Rng) -> Story {
        let (title, paragraphs) = &self.bases[rng.below(self.bases.len())];
        // The topic: the words of three random bases, so stories rarely share all of it.
        let mut topic: Vec<&String> = Vec::new();
        for _ in 0..3 {
            topic.extend(self.vocab[rng.below(self.vocab.len())].iter());
        }
        let salt = rng.next_u64();
        let map = |text: &str| -> String {
            text.split_whitespace()
                .map(|w| {
                    let core = w.trim_matches(|c: char| !c.is_alphanumeric());
                    if core.len() >= 4 {
                        let h = dedup::text::hash_bytes(core.as_bytes()) ^ salt;
                        w.replacen(
                            core,
                            topic[(dedup::text::mix64(h) % topic.len() as u64) as usize],
                            1,
                        )
                    } else {
                        w.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut budget = 300 + rng.below(700);
        let mut kept = Vec::new();
        for p in paragraphs {
            if budget == 0 {
                break;
            }
            let words: Vec<&str> = p.split_whitespace().take(budget).collect();
            budget -= words.len();
            kept.push(map(&words.join(" ")));
        }
        Story {
            source: format!("site{}.example", rng.below(300)),
            title: map(title),
            paragraphs: kept,
            tags: Vec::new(),
        }
    }
}
