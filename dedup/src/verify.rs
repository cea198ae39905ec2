//! Verification: a candidate pair's scores, the thresholds in force, and the relation they give.
//!
//! Every pair that candidate generation proposes is scored ([`Scores`]) and decided in two steps.
//!
//! **Wording** says whether the two texts could be one story, rules in this order:
//!
//! 1. **duplicate by near-copy** ([`Method::NearCopy`]): the smaller text's shingles are
//!    contained in the larger (MinHash containment at least
//!    [`Thresholds::duplicate_containment`]) and the shorter text is not a mere fragment (length
//!    ratio at least [`Thresholds::duplicate_length_ratio`]);
//! 2. **duplicate by containment** ([`Method::Contained`]): the shorter text's passage
//!    fingerprints are found in the longer (share at least [`Thresholds::passage_containment`])
//!    and the part they share is substantial (at least [`Thresholds::passage_words`] words, so a
//!    shared byline and footer or a one-line lede is not enough), whatever the length ratio: a
//!    brief, a teaser, an excerpt published as a story of its own;
//! 3. **duplicate by rewording** ([`Method::Reworded`]): embedding cosine at least
//!    [`Thresholds::duplicate_cosine`], POS-filtered Jaccard at least
//!    [`Thresholds::duplicate_content`] and the length-ratio floor: the same text after edits
//!    dense enough to break most shingles (synonyms, typos, reordering);
//! 4. **similar** ([`Method::Similar`]): cosine at least [`Thresholds::similar_cosine`] and
//!    POS-filtered Jaccard at least [`Thresholds::similar_content`]: the same story written
//!    differently (the Spanish study's rule, with tuned thresholds).
//!
//! **Facts** then have the last word (`facts.rs`: names and numbers compared over the text the
//! two share):
//!
//! - names replaced in place veto the link ([`Veto::Replaced`], [`Thresholds::names_replaced`]): a
//!   name in the sentences the two share standing where the other states a name of its own, on
//!   each side, is another story written on the same template, unless the figures agree as a
//!   copy's do (a copy's own credit line or a capitalised synonym stands in a slot too);
//! - names that disagree veto the link ([`Veto::Names`]): the same template with other names is
//!   another story, however alike the sentences (the story's actors, the names each side states
//!   twice or more, veto when [`Thresholds::key_name_differ`] of them differ on each side and
//!   they agree less than [`Thresholds::key_name_agreement`]);
//! - numbers that mostly disagree veto it too ([`Veto::Numbers`]): a bulletin with every figure
//!   changed is another day's bulletin;
//! - a duplicate whose numbers changed on both sides (some, not most) is a later version of the
//!   story: `similar`, by [`Method::Update`], unless its names changed too (a name on each side
//!   that the other lacks, and the names agree less than
//!   [`Thresholds::update_name_agreement`]): a later version keeps its actors, a story written
//!   on the same template changes both ([`Veto::Names`]); so is a duplicate whose numbers
//!   changed in place ([`Thresholds::places_changed`]: figures standing where the other text
//!   states no such figure next to the same words, though the sets of values may agree, as when a
//!   figure becomes another that the story states elsewhere);
//! - a `similar` pair shares no wording to locate a span in, so its names are also compared over
//!   the whole texts ([`Scores::doc_names`]): each side stating at least
//!   [`Thresholds::similar_name_differ`] names the other lacks, and the names agreeing less than
//!   [`Thresholds::similar_name_agreement`] (no more than [`Thresholds::name_few_agreement`] with
//!   fewer than [`Thresholds::name_min`] names on a side), veto it: another
//!   story on the same subject, or on the same template, told with other people and places
//!   ([`Veto::DocNames`]); so do its numbers over the whole texts, each side stating at least
//!   [`Thresholds::similar_number_differ`] numbers the other lacks and the numbers agreeing less
//!   than [`Thresholds::similar_number_agreement`] ([`Veto::DocNumbers`]): a rewrite keeps the
//!   story's figures, another story has its own.
//!
//! A link that passes alone may still be dropped afterwards for a conflict with another link of
//! one of its documents ([`Veto::Conflict`], `conflict.rs`): a story linked to two template
//! twins keeps the link to the one that shares clearly more of its facts.
//!
//! The defaults were tuned on the tuning split of the evaluation set (see `docs/dedup.md`).

use crate::facts::{self, Agreement};
use crate::minhash;
use crate::passages;
use crate::signature::Signature;

/// The two relations between documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// The same text, edited (new headline, cut, boilerplate, typos, rewording), or a part of it
    /// (a brief).
    Duplicate,
    /// The same story, written differently, or a later version of it.
    Similar,
}

impl Relation {
    /// `duplicate` or `similar`.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Duplicate => "duplicate",
            Relation::Similar => "similar",
        }
    }
}

/// Which rule matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// MinHash containment of word shingles (a syndicated copy).
    NearCopy,
    /// Passage containment of the shorter text in the longer (a brief or excerpt).
    Contained,
    /// Embedding cosine plus a high POS-filtered Jaccard (a copy edited word by word).
    Reworded,
    /// Embedding cosine plus POS-filtered Jaccard (the same story).
    Similar,
    /// A copy by its wording whose numbers changed (a later version of the story).
    Update,
}

impl Method {
    /// Every method, in rule order.
    pub const ALL: [Method; 5] =
        [Method::NearCopy, Method::Contained, Method::Reworded, Method::Similar, Method::Update];

    /// A short stable name: `minhash`, `passage`, `embedding+pos-jaccard/duplicate`,
    /// `embedding+pos-jaccard` or `facts/update`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::NearCopy => "minhash",
            Method::Contained => "passage",
            Method::Reworded => "embedding+pos-jaccard/duplicate",
            Method::Similar => "embedding+pos-jaccard",
            Method::Update => "facts/update",
        }
    }

    /// The method of a stable name.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The relation this rule gives.
    pub fn relation(self) -> Relation {
        match self {
            Method::NearCopy | Method::Contained | Method::Reworded => Relation::Duplicate,
            Method::Similar | Method::Update => Relation::Similar,
        }
    }
}

/// Why facts refused a link that wording would make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Veto {
    /// The names disagree: another story on the same template.
    Names,
    /// Most numbers disagree: another edition of the same bulletin.
    Numbers,
    /// A `similar` pair's names disagree over the whole texts: another story on the same
    /// subject told with other people and places.
    DocNames,
    /// A `similar` pair's numbers disagree over the whole texts: another story on the same
    /// subject or template, with figures of its own (a rewrite keeps the story's figures).
    DocNumbers,
    /// Names replaced in place: the sentences the two share state other names in the same
    /// places (another story written on the same template).
    Replaced,
    /// The link passed alone, but one of its documents is linked to another document that is
    /// this link's other end's template twin, and shares clearly more of its names and numbers
    /// (or as many): the document cannot be a copy of both (`conflict.rs`).
    Conflict,
}

/// What the rules say of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Linked by this rule.
    Link(Method),
    /// Wording alone would link them by this rule; facts refuse.
    Veto(Method, Veto),
    /// Not alike.
    Apart,
}

/// Every signal of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scores {
    /// Estimated Jaccard similarity of the word-shingle sets (MinHash).
    pub shingle_jaccard: f32,
    /// Estimated share of the smaller shingle set inside the larger.
    pub containment: f32,
    /// Jaccard similarity of the folded, stemmed, POS-filtered token sets.
    pub content_jaccard: f32,
    /// Cosine of the embeddings.
    pub cosine: f32,
    /// Words of the shorter text over words of the longer (1 for equal lengths).
    pub length_ratio: f32,
    /// Share of the passage fingerprints of the text that has fewer found in the other.
    pub passage: f32,
    /// Words the two texts share, estimated from their passage fingerprints.
    pub shared_words: f32,
    /// How their names agree over the text they share.
    pub names: Agreement,
    /// The same for the names each states at least twice: the story's actors, not a byline or
    /// a promo's.
    pub key_names: Agreement,
    /// How their numbers agree over the text they share.
    pub numbers: Agreement,
    /// How their names agree over the whole texts (compared for `similar` pairs only, which
    /// share no wording to locate a span in; zero otherwise).
    pub doc_names: Agreement,
    /// The same for their numbers.
    pub doc_numbers: Agreement,
    /// How their numbers agree by place over the text they share: each occurrence of a number
    /// found in the other next to the same word before or after it (`facts::place_agreement`).
    pub number_places: Agreement,
    /// Names replaced in place (`facts::replaced_names`): on each side, its names standing in a
    /// narrow gap of the sentences the two share that the other lacks, and of those, how many
    /// stand where the other states a name of its own.
    pub name_slots: Agreement,
}

impl Scores {
    /// Every score by a stable name, for storage and output: the five signals, the passage
    /// share and shared words, and the facts' counts (`names.first`, `names.first_found`, …).
    pub fn fields(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = [
            ("shingle_jaccard", self.shingle_jaccard),
            ("containment", self.containment),
            ("content_jaccard", self.content_jaccard),
            ("cosine", self.cosine),
            ("length_ratio", self.length_ratio),
            ("passage", self.passage),
            ("shared_words", self.shared_words),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), f64::from(value)))
        .collect();
        for (kind, a) in [
            ("names", &self.names),
            ("key_names", &self.key_names),
            ("numbers", &self.numbers),
            ("doc_names", &self.doc_names),
            ("doc_numbers", &self.doc_numbers),
            ("number_places", &self.number_places),
            ("name_slots", &self.name_slots),
        ] {
            for (part, value) in [
                ("first", a.first),
                ("first_found", a.first_found),
                ("second", a.second),
                ("second_found", a.second_found),
            ] {
                out.push((format!("{kind}.{part}"), f64::from(value)));
            }
        }
        out
    }

    /// Scores back from [`Scores::fields`]' names (a missing name reads 0).
    pub fn from_fields(get: impl Fn(&str) -> f64) -> Scores {
        let f = |name: &str| get(name) as f32;
        let count = |name: &str| get(name).clamp(0.0, f64::from(u16::MAX)) as u16;
        let agreement = |kind: &str| Agreement {
            first: count(&format!("{kind}.first")),
            first_found: count(&format!("{kind}.first_found")),
            second: count(&format!("{kind}.second")),
            second_found: count(&format!("{kind}.second_found")),
        };
        Scores {
            shingle_jaccard: f("shingle_jaccard"),
            containment: f("containment"),
            content_jaccard: f("content_jaccard"),
            cosine: f("cosine"),
            length_ratio: f("length_ratio"),
            passage: f("passage"),
            shared_words: f("shared_words"),
            names: agreement("names"),
            key_names: agreement("key_names"),
            numbers: agreement("numbers"),
            doc_names: agreement("doc_names"),
            doc_numbers: agreement("doc_numbers"),
            number_places: agreement("number_places"),
            name_slots: agreement("name_slots"),
        }
    }

    /// The score that decided a match by `method`: containment for a near-copy, passage
    /// containment for a contained text, cosine otherwise.
    pub fn primary(&self, method: Method) -> f32 {
        match method {
            Method::NearCopy => self.containment,
            Method::Contained => self.passage,
            Method::Reworded | Method::Similar => self.cosine,
            Method::Update => self.containment.max(self.passage).max(self.cosine),
        }
    }
}

/// The thresholds of the rules (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Near-copy: least MinHash containment.
    pub duplicate_containment: f32,
    /// Near-copy and reworded duplicates: least length ratio (shorter fragments are contained
    /// texts at most).
    pub duplicate_length_ratio: f32,
    /// Reworded duplicate: least cosine.
    pub duplicate_cosine: f32,
    /// Reworded duplicate: least POS-filtered Jaccard.
    pub duplicate_content: f32,
    /// Similar: least cosine.
    pub similar_cosine: f32,
    /// Similar: least POS-filtered Jaccard.
    pub similar_content: f32,
    /// Contained: least share of the shorter text's passage fingerprints in the longer.
    pub passage_containment: f32,
    /// Contained: least shared words.
    pub passage_words: f32,

    /// Facts: this many names stated at least twice on each side that the other lacks veto a
    /// link (a story's actors replaced: another story on the template)…
    pub key_name_differ: u16,
    /// …when those names agree less than this ([`Agreement::share`]): two of a long story's
    /// twenty-six actors missing on each side are a paragraph each copy cut, not actors replaced.
    pub key_name_agreement: f32,
    /// Facts: this many names on each side that the other lacks veto a link…
    pub name_differ: u16,
    /// …when the names agree less than this ([`crate::Agreement::share`]) and both sides state
    /// at least `name_min` names in the text they share…
    pub name_agreement: f32,
    /// …(a short story whose copies each add a byline and an outlet's name is not enough to
    /// judge by that share)…
    pub name_min: u16,
    /// …or, with fewer names, when they agree no more than this.
    pub name_few_agreement: f32,
    /// Facts: this many numbers on each side that the other lacks veto a link…
    pub number_differ: u16,
    /// …when the numbers agree less than this.
    pub number_agreement: f32,
    /// Facts: this many numbers on each side that the other lacks make a duplicate a later
    /// version of the story (`similar`)…
    pub update_numbers: u16,
    /// …when they are at least this share of the numbers stated ([`Agreement::changed_share`]):
    /// a copy whose inserted promo or cut paragraph brings one figure in sixty is still a copy…
    pub update_number_share: f32,
    /// …if its names agree at least this much whenever a name on each side is missing from the
    /// other: numbers and names changed together are another story on the same template.
    pub update_name_agreement: f32,
    /// Facts, numbers by place ([`Scores::number_places`]): this many number occurrences on
    /// each side that the other states nowhere next to the same words make a duplicate a later
    /// version too (a figure changed into another that the text states elsewhere)…
    pub update_places: u16,
    /// …when they are at least this share of the occurrences of the side that states fewer.
    pub update_place_share: f32,
    /// Facts of a `similar` pair, over the whole texts: this many names on each side that the
    /// other lacks veto the link…
    pub similar_name_differ: u16,
    /// …when the names agree less than this (with at least `name_min` names on each side;
    /// with fewer, no more than `name_few_agreement`).
    pub similar_name_agreement: f32,
    /// Facts of a `similar` pair, over the whole texts: this many numbers on each side that the
    /// other lacks veto the link…
    pub similar_number_differ: u16,
    /// …when the numbers agree less than this: a rewrite keeps the story's figures, another
    /// story on its subject or template has its own.
    pub similar_number_agreement: f32,
    /// Link conflicts (`conflict.rs`): a document linked to two template twins keeps the link to
    /// the one that lacks at least this many fewer of its names and numbers than the other, and
    /// neither on a closer call (`None`: the rule is off).
    pub conflict_margin: Option<u16>,
    /// Facts: this many names replaced in place on each side ([`Scores::name_slots`]: a name
    /// in the sentences the two share where the other states another name) veto a link of any
    /// wording, unless the figures agree as a copy's do ([`Thresholds::names_replaced`]): the
    /// same sentences about other people and places, with other figures or none to compare, are
    /// another story written on the same template (default 1; `u16::MAX`: off).
    pub replaced_names: u16,
}

/// The figures (numbers, dates) each side must state in the text two documents share for their
/// agreement to keep names replaced in place from refusing the pair ([`Thresholds::names_replaced`]):
/// read on the tune pairs of eight seeds, 54 of the 58 copies with a name replaced in place
/// state five or more, and 10 of the 12 template pairs whose figures agree state one or none.
const REPLACED_FIGURES: u16 = 2;

impl Default for Thresholds {
    fn default() -> Self {
        // Tuned on the evaluation set's tune split and read as plateaus (docs/dedup.md).
        Self {
            duplicate_containment: 0.75,
            duplicate_length_ratio: 0.1,
            duplicate_cosine: 0.96,
            duplicate_content: 0.6,
            similar_cosine: 0.75,
            similar_content: 0.2,
            passage_containment: 0.55,
            passage_words: 20.0,
            key_name_differ: 2,
            key_name_agreement: 0.9,
            name_differ: 2,
            name_agreement: 0.55,
            name_min: 5,
            name_few_agreement: 0.34,
            number_differ: 2,
            number_agreement: 0.1,
            update_numbers: 1,
            update_number_share: 0.06,
            update_name_agreement: 0.7,
            update_places: 1,
            update_place_share: 0.2,
            similar_name_differ: 3,
            similar_name_agreement: 0.4,
            similar_number_differ: 3,
            similar_number_agreement: 0.4,
            conflict_margin: Some(1),
            // Only where the figures do not agree (`names_replaced`), so that a copy's own
            // credit line does not refuse it (docs/dedup.md, "Names replaced in place, where the
            // figures do not agree").
            replaced_names: 1,
        }
    }
}

impl Thresholds {
    /// Every threshold by its field name, for storage and output (a rule that is off reads -1).
    pub fn fields(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("duplicate_containment", f64::from(self.duplicate_containment)),
            ("duplicate_length_ratio", f64::from(self.duplicate_length_ratio)),
            ("duplicate_cosine", f64::from(self.duplicate_cosine)),
            ("duplicate_content", f64::from(self.duplicate_content)),
            ("similar_cosine", f64::from(self.similar_cosine)),
            ("similar_content", f64::from(self.similar_content)),
            ("passage_containment", f64::from(self.passage_containment)),
            ("passage_words", f64::from(self.passage_words)),
            ("key_name_differ", f64::from(self.key_name_differ)),
            ("key_name_agreement", f64::from(self.key_name_agreement)),
            ("name_differ", f64::from(self.name_differ)),
            ("name_min", f64::from(self.name_min)),
            ("name_few_agreement", f64::from(self.name_few_agreement)),
            ("name_agreement", f64::from(self.name_agreement)),
            ("number_differ", f64::from(self.number_differ)),
            ("number_agreement", f64::from(self.number_agreement)),
            ("update_numbers", f64::from(self.update_numbers)),
            ("update_number_share", f64::from(self.update_number_share)),
            ("update_name_agreement", f64::from(self.update_name_agreement)),
            ("update_places", f64::from(self.update_places)),
            ("update_place_share", f64::from(self.update_place_share)),
            ("similar_name_differ", f64::from(self.similar_name_differ)),
            ("similar_name_agreement", f64::from(self.similar_name_agreement)),
            ("similar_number_differ", f64::from(self.similar_number_differ)),
            ("similar_number_agreement", f64::from(self.similar_number_agreement)),
            ("conflict_margin", self.conflict_margin.map_or(-1.0, f64::from)),
            ("replaced_names", f64::from(self.replaced_names)),
        ]
    }

    /// Thresholds back from [`Thresholds::fields`]' names; a missing name keeps the default
    /// (links stored before it existed were decided without it).
    pub fn from_fields(get: impl Fn(&str) -> Option<f64>) -> Thresholds {
        let d = Thresholds::default();
        let f = |name: &str, default: f32| get(name).map_or(default, |v| v as f32);
        let n = |name: &str, default: u16| {
            get(name).map_or(default, |v| v.clamp(0.0, f64::from(u16::MAX)) as u16)
        };
        Thresholds {
            duplicate_containment: f("duplicate_containment", d.duplicate_containment),
            duplicate_length_ratio: f("duplicate_length_ratio", d.duplicate_length_ratio),
            duplicate_cosine: f("duplicate_cosine", d.duplicate_cosine),
            duplicate_content: f("duplicate_content", d.duplicate_content),
            similar_cosine: f("similar_cosine", d.similar_cosine),
            similar_content: f("similar_content", d.similar_content),
            passage_containment: f("passage_containment", d.passage_containment),
            passage_words: f("passage_words", d.passage_words),
            key_name_differ: n("key_name_differ", d.key_name_differ),
            key_name_agreement: f("key_name_agreement", d.key_name_agreement),
            name_differ: n("name_differ", d.name_differ),
            name_min: n("name_min", d.name_min),
            name_few_agreement: f("name_few_agreement", d.name_few_agreement),
            name_agreement: f("name_agreement", d.name_agreement),
            number_differ: n("number_differ", d.number_differ),
            number_agreement: f("number_agreement", d.number_agreement),
            update_numbers: n("update_numbers", d.update_numbers),
            update_number_share: f("update_number_share", d.update_number_share),
            update_name_agreement: f("update_name_agreement", d.update_name_agreement),
            update_places: n("update_places", d.update_places),
            update_place_share: f("update_place_share", d.update_place_share),
            similar_name_differ: n("similar_name_differ", d.similar_name_differ),
            similar_name_agreement: f("similar_name_agreement", d.similar_name_agreement),
            similar_number_differ: n("similar_number_differ", d.similar_number_differ),
            similar_number_agreement: f("similar_number_agreement", d.similar_number_agreement),
            replaced_names: n("replaced_names", d.replaced_names),
            // Negative: off.
            conflict_margin: match get("conflict_margin") {
                None => d.conflict_margin,
                Some(v) if v < 0.0 => None,
                Some(v) => Some(v.min(f64::from(u16::MAX)) as u16),
            },
        }
    }

    /// The rule that matches these scores, if any.
    pub fn decide(&self, s: &Scores) -> Option<Method> {
        match self.verdict(s) {
            Verdict::Link(method) => Some(method),
            Verdict::Veto(..) | Verdict::Apart => None,
        }
    }

    /// What the rules say of these scores (module docs).
    pub fn verdict(&self, s: &Scores) -> Verdict {
        let Some(method) = self.wording(s) else { return Verdict::Apart };
        if self.names_replaced(s) {
            return Verdict::Veto(method, Veto::Replaced);
        }
        let names = &s.names;
        if self.actors_differ(&s.key_names)
            || (names.differ() >= self.name_differ
                && if names.fewer() >= self.name_min {
                    names.share() < self.name_agreement
                } else {
                    names.share() <= self.name_few_agreement
                })
        {
            return Verdict::Veto(method, Veto::Names);
        }
        let whole = &s.doc_names;
        if method == Method::Similar
            && whole.differ() >= self.similar_name_differ
            && if whole.fewer() >= self.name_min {
                whole.share() < self.similar_name_agreement
            } else {
                whole.share() <= self.name_few_agreement
            }
        {
            return Verdict::Veto(method, Veto::DocNames);
        }
        let whole = &s.doc_numbers;
        if method == Method::Similar
            && whole.differ() >= self.similar_number_differ
            && whole.share() < self.similar_number_agreement
        {
            return Verdict::Veto(method, Veto::DocNumbers);
        }
        let numbers = &s.numbers;
        if numbers.differ() >= self.number_differ && numbers.share() < self.number_agreement {
            return Verdict::Veto(method, Veto::Numbers);
        }
        // Numbers changed as a later version's do: unless the names changed too. A figure or two
        // under the share (a copy's own dateline or promo) is no later version, and is not read
        // as a template story's changed values either.
        if method.relation() == Relation::Duplicate
            && s.numbers.differ() >= self.update_numbers
            && numbers.changed_share() >= self.update_number_share
        {
            if names.changed() && names.share() < self.update_name_agreement {
                return Verdict::Veto(method, Veto::Names);
            }
            return Verdict::Link(Method::Update);
        }
        if method.relation() == Relation::Duplicate && self.places_changed(&s.number_places) {
            if names.changed() && names.share() < self.update_name_agreement {
                return Verdict::Veto(method, Veto::Names);
            }
            return Verdict::Link(Method::Update);
        }
        Verdict::Link(method)
    }

    /// Whether the names each side states at least twice (the story's actors) differ: at least
    /// [`Thresholds::key_name_differ`] on each side that the other lacks, and agreeing less than
    /// [`Thresholds::key_name_agreement`].
    pub fn actors_differ(&self, key_names: &Agreement) -> bool {
        key_names.differ() >= self.key_name_differ && key_names.share() < self.key_name_agreement
    }

    /// Whether names were replaced in place ([`Scores::name_slots`]): at least
    /// [`Thresholds::replaced_names`] on each side, unless the figures agree as a copy's do
    /// (each side states at least two, `REPLACED_FIGURES`, in the text they share, and they did not
    /// change as a later version's do, by value or in place). A story written on a template
    /// changes its figures with its names; a copy keeps the story's figures, whatever
    /// contributor's credit line or capitalised synonym stands in one of its sentences. A
    /// weekday or a single figure is too little to tell.
    pub fn names_replaced(&self, s: &Scores) -> bool {
        let slots = &s.name_slots;
        let figures_agree = s.numbers.fewer() >= REPLACED_FIGURES
            && !(s.numbers.differ() >= self.update_numbers
                && s.numbers.changed_share() >= self.update_number_share)
            && !self.places_changed(&s.number_places);
        slots.first_found.min(slots.second_found) >= self.replaced_names && !figures_agree
    }

    /// Whether numbers changed in place ([`Scores::number_places`]): at least
    /// [`Thresholds::update_places`] occurrences on each side that the other states nowhere
    /// next to the same words, and at least [`Thresholds::update_place_share`] of the side that
    /// states fewer.
    pub fn places_changed(&self, places: &Agreement) -> bool {
        places.differ() >= self.update_places && places.changed_share() >= self.update_place_share
    }

    /// The rule that the wording alone matches, before facts are heard.
    pub fn wording(&self, s: &Scores) -> Option<Method> {
        let long_enough = s.length_ratio >= self.duplicate_length_ratio;
        if long_enough && s.containment >= self.duplicate_containment {
            Some(Method::NearCopy)
        } else if s.passage >= self.passage_containment && s.shared_words >= self.passage_words {
            Some(Method::Contained)
        } else if long_enough
            && s.cosine >= self.duplicate_cosine
            && s.content_jaccard >= self.duplicate_content
        {
            Some(Method::Reworded)
        } else if s.cosine >= self.similar_cosine && s.content_jaccard >= self.similar_content {
            Some(Method::Similar)
        } else {
            None
        }
    }

    /// Whether no rule can match whatever the POS-filtered Jaccard: lets verification skip
    /// that (dearer) signal and the facts for most candidate pairs.
    fn hopeless(
        &self,
        containment: f32,
        cosine: f32,
        length_ratio: f32,
        passage: f32,
        shared_words: f32,
    ) -> bool {
        let near_copy = length_ratio >= self.duplicate_length_ratio
            && containment >= self.duplicate_containment;
        let contained = passage >= self.passage_containment && shared_words >= self.passage_words;
        !near_copy && !contained && cosine < self.similar_cosine.min(self.duplicate_cosine)
    }
}

/// The passage signals of two signatures: (share, shared words, shared spans).
fn passage(a: &Signature, b: &Signature) -> (f32, f32, passages::Shared) {
    let shared = passages::shared(&a.passages, &b.passages);
    // The words behind the fingerprints of the text that has fewer.
    let (fewer, words) = if a.passages.len() <= b.passages.len() {
        (a.passages.len(), a.words)
    } else {
        (b.passages.len(), b.words)
    };
    let words = (words as usize).min(passages::PASSAGE_WORDS) as f32;
    let shared_words =
        if fewer == 0 { 0.0 } else { f32::from(shared.count) / fewer as f32 * words };
    (shared.containment, shared_words, shared)
}

/// The facts' agreement of two signatures over the spans they share: names, names stated at
/// least twice, numbers, numbers by place.
fn agreements(
    a: &Signature,
    b: &Signature,
    shared: &passages::Shared,
) -> (Agreement, Agreement, Agreement, Agreement) {
    let (fa, fb) = (&a.facts, &b.facts);
    (
        facts::agreement(fa, shared.first, fb, shared.second, false, 1),
        facts::agreement(fa, shared.first, fb, shared.second, false, 2),
        facts::agreement(fa, shared.first, fb, shared.second, true, 1),
        facts::place_agreement(fa, shared.first, fb, shared.second),
    )
}

/// All scores of two signatures, or `None` when no rule could match (the POS-filtered Jaccard and
/// the facts are then not computed; the facts are also left out when the wording matches no
/// rule).
pub(crate) fn score(a: &Signature, b: &Signature, thresholds: &Thresholds) -> Option<Scores> {
    let shingle_jaccard = minhash::jaccard(&a.minhash, &b.minhash);
    let cheap = Cheap {
        shingle_jaccard,
        containment: minhash::containment(shingle_jaccard, a.shingles, b.shingles),
        cosine: a.cosine(b),
        length_ratio: length_ratio(a.words, b.words),
    };
    cheap.finish(a, b, thresholds)
}

/// The signals a pair's scoring reads first, from the MinHash, the embedding and the counts.
struct Cheap {
    shingle_jaccard: f32,
    containment: f32,
    cosine: f32,
    length_ratio: f32,
}

impl Cheap {
    /// The rest of [`score`]: the passages, then (unless no rule can match) the POS-filtered
    /// Jaccard, then (if the wording matches a rule) the facts.
    fn finish(self, a: &Signature, b: &Signature, thresholds: &Thresholds) -> Option<Scores> {
        let Cheap { shingle_jaccard, containment, cosine, length_ratio } = self;
        let (passage, shared_words, shared) = passage(a, b);
        if thresholds.hopeless(containment, cosine, length_ratio, passage, shared_words) {
            return None;
        }
        let mut scores = Scores {
            shingle_jaccard,
            containment,
            content_jaccard: sorted_jaccard(&a.content, &b.content),
            cosine,
            length_ratio,
            passage,
            shared_words,
            ..Scores::default()
        };
        if let Some(method) = thresholds.wording(&scores) {
            (scores.names, scores.key_names, scores.numbers, scores.number_places) =
                agreements(a, b, &shared);
            scores.name_slots = facts::replaced_names(&a.facts, &a.passages, &b.facts, &b.passages);
            if method == Method::Similar {
                let all = facts::Span::ALL;
                scores.doc_names = facts::agreement(&a.facts, all, &b.facts, all, false, 1);
                scores.doc_numbers = facts::agreement(&a.facts, all, &b.facts, all, true, 1);
            }
        }
        Some(scores)
    }
}

/// The signals that every candidate pair reads, packed row by row in rank order: each pair then
/// costs one memory fetch per side instead of three pointer chases, and a document's own row stays
/// in cache while its candidates stream past. Rows that do not have the usual shape (a MinHash of
/// another length, an embedding of another dimension) fall back to the signatures themselves; the
/// scores are [`score`]'s either way.
pub(crate) struct Packed<'s> {
    sigs: &'s [&'s Signature],
    dim: usize,
    minhash: Vec<u32>,
    embedding: Vec<i8>,
    counts: Vec<Counts>,
    regular: Vec<bool>,
}

impl<'s> Packed<'s> {
    pub(crate) fn new(sigs: &'s [&'s Signature]) -> Self {
        let dim = sigs.first().map_or(0, |s| s.embedding.len());
        let mut minhash = Vec::with_capacity(sigs.len() * minhash::MINHASH_LEN);
        let mut embedding = Vec::with_capacity(sigs.len() * dim);
        let mut regular = Vec::with_capacity(sigs.len());
        let counts = sigs
            .iter()
            .map(|s| Counts { words: s.words, shingles: s.shingles, scale: s.embedding_scale })
            .collect();
        for sig in sigs {
            let ok = sig.minhash.len() == minhash::MINHASH_LEN && sig.embedding.len() == dim;
            if ok {
                minhash.extend_from_slice(&sig.minhash);
                embedding.extend_from_slice(&sig.embedding);
            } else {
                minhash.extend(std::iter::repeat_n(minhash::EMPTY, minhash::MINHASH_LEN));
                embedding.extend(std::iter::repeat_n(0, dim));
            }
            regular.push(ok);
        }
        Self { sigs, dim, minhash, embedding, counts, regular }
    }

    /// [`score`] of the signatures at two positions, except that a pair only the embedding
    /// family proposed (`by_minhash` false) is dropped as soon as its cosine is below both cosine
    /// thresholds, without reading its MinHash: such a pair could only be a near-copy that shares
    /// no MinHash band, and a near-copy that also reads far apart in meaning is not worth the
    /// memory traffic of checking every embedding candidate for it (most candidates in a full
    /// window are such pairs).
    pub(crate) fn score(
        &self,
        a: usize,
        b: usize,
        found_by: crate::FoundBy,
        thresholds: &Thresholds,
    ) -> Option<Scores> {
        let lowest_cosine = thresholds.similar_cosine.min(thresholds.duplicate_cosine);
        let by_text = found_by.minhash || found_by.passage;
        if !(self.regular[a] && self.regular[b]) {
            let (sa, sb) = (self.sigs[a], self.sigs[b]);
            if !by_text && sa.cosine(sb) < lowest_cosine {
                return None;
            }
            return score(sa, sb, thresholds);
        }
        let (ea, eb) = (
            &self.embedding[a * self.dim..][..self.dim],
            &self.embedding[b * self.dim..][..self.dim],
        );
        let (pa, pb) = (self.counts[a], self.counts[b]);
        let cosine = crate::signature::dot_i8(ea, eb) as f32 * pa.scale * pb.scale;
        if !by_text && cosine < lowest_cosine {
            return None;
        }
        let row = |i: usize| &self.minhash[i * minhash::MINHASH_LEN..][..minhash::MINHASH_LEN];
        let shingle_jaccard = minhash::jaccard(row(a), row(b));
        let cheap = Cheap {
            shingle_jaccard,
            containment: minhash::containment(shingle_jaccard, pa.shingles, pb.shingles),
            cosine,
            length_ratio: length_ratio(pa.words, pb.words),
        };
        cheap.finish(self.sigs[a], self.sigs[b], thresholds)
    }
}

/// The small fields of a signature that every pair reads.
#[derive(Clone, Copy)]
struct Counts {
    words: u32,
    shingles: u32,
    scale: f32,
}

/// All scores of two signatures, whether or not they would be candidates or match: for
/// explaining why two documents were not linked, and for tuning thresholds.
pub fn scores(a: &Signature, b: &Signature) -> Scores {
    let shingle_jaccard = minhash::jaccard(&a.minhash, &b.minhash);
    let (passage, shared_words, shared) = passage(a, b);
    let (names, key_names, numbers, number_places) = agreements(a, b, &shared);
    Scores {
        shingle_jaccard,
        containment: minhash::containment(shingle_jaccard, a.shingles, b.shingles),
        content_jaccard: sorted_jaccard(&a.content, &b.content),
        cosine: a.cosine(b),
        length_ratio: length_ratio(a.words, b.words),
        passage,
        shared_words,
        names,
        key_names,
        numbers,
        doc_names: facts::agreement(
            &a.facts,
            facts::Span::ALL,
            &b.facts,
            facts::Span::ALL,
            false,
            1,
        ),
        doc_numbers: facts::agreement(
            &a.facts,
            facts::Span::ALL,
            &b.facts,
            facts::Span::ALL,
            true,
            1,
        ),
        number_places,
        name_slots: facts::replaced_names(&a.facts, &a.passages, &b.facts, &b.passages),
    }
}

fn length_ratio(a: u32, b: u32) -> f32 {
    let (small, large) = (a.min(b), a.max(b));
    if large == 0 { 0.0 } else { small as f32 / large as f32 }
}

/// The Jaccard similarity of two sorted sets without repeats (0 when both are empty).
pub(crate) fn sorted_jaccard(a: &[u32], b: &[u32]) -> f32 {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - common;
    if union == 0 { 0.0 } else { common as f32 / union as f32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(containment: f32, content: f32, cosine: f32, length_ratio: f32) -> Scores {
        Scores {
            shingle_jaccard: 0.0,
            containment,
            content_jaccard: content,
            cosine,
            length_ratio,
            ..Scores::default()
        }
    }

    fn agreement(first: u16, first_found: u16, second: u16, second_found: u16) -> Agreement {
        Agreement { first, first_found, second, second_found }
    }

    #[test]
    fn rules_in_order() {
        let t = Thresholds::default();
        assert_eq!(t.decide(&scores(0.9, 0.0, 0.0, 0.5)), Some(Method::NearCopy));
        // A short fragment of a long text is not a duplicate, but it may be similar.
        assert_eq!(t.decide(&scores(0.9, 0.3, 0.8, 0.05)), Some(Method::Similar));
        assert_eq!(t.decide(&scores(0.1, 0.6, 0.97, 0.9)), Some(Method::Reworded));
        assert_eq!(t.decide(&scores(0.1, 0.3, 0.8, 0.9)), Some(Method::Similar));
        // The Jaccard floor keeps same-topic stories with close embeddings apart.
        assert_eq!(t.decide(&scores(0.1, 0.05, 0.8, 0.9)), None);
        assert_eq!(t.decide(&scores(0.1, 0.9, 0.5, 0.9)), None);
        // A brief: most of its passages in the longer text, whatever the length ratio…
        let brief = Scores { passage: 0.7, shared_words: 60.0, ..scores(0.2, 0.1, 0.5, 0.04) };
        assert_eq!(t.decide(&brief), Some(Method::Contained));
        // …but not a shared byline and footer.
        let footer = Scores { passage: 0.7, shared_words: 12.0, ..brief };
        assert_eq!(t.decide(&footer), None);
    }

    #[test]
    fn facts_veto_templates_and_make_updates_similar() {
        let t = Thresholds::default();
        let copy = scores(0.9, 0.7, 0.95, 0.9);
        // Names that disagree on both sides: another story on the same template.
        let template = Scores { names: agreement(6, 1, 7, 1), ..copy };
        assert_eq!(t.verdict(&template), Verdict::Veto(Method::NearCopy, Veto::Names));
        // The story's actors (names stated twice or more) replaced on both sides.
        let actors =
            Scores { names: agreement(9, 7, 9, 7), key_names: agreement(4, 2, 4, 2), ..copy };
        assert_eq!(t.verdict(&actors), Verdict::Veto(Method::NearCopy, Veto::Names));
        // Two of a long story's twenty-six actors missing on each side (a paragraph each copy
        // cut), the rest agreeing: copies.
        let long = Scores {
            names: agreement(57, 51, 58, 51),
            key_names: agreement(26, 24, 27, 24),
            ..copy
        };
        assert_eq!(t.verdict(&long), Verdict::Link(Method::NearCopy));
        assert!(t.actors_differ(&agreement(26, 23, 27, 23)));
        assert!(!t.actors_differ(&agreement(26, 24, 27, 24)));
        // Names that agree on one side (a brief's own byline names do not count against it).
        let brief = Scores { names: agreement(6, 3, 3, 3), ..copy };
        assert_eq!(t.verdict(&brief), Verdict::Link(Method::NearCopy));
        // Too few names to judge.
        let few = Scores { names: agreement(1, 0, 1, 0), ..copy };
        assert_eq!(t.verdict(&few), Verdict::Link(Method::NearCopy));
        // A short story whose copies each add a byline and an outlet: half its names are its
        // own on each side, but the two it tells are shared.
        let bylines = Scores { names: agreement(4, 2, 4, 2), ..copy };
        assert_eq!(t.verdict(&bylines), Verdict::Link(Method::NearCopy));
        // With few names, names that mostly disagree still veto (a brief of a template story).
        let brief_of_template = Scores { names: agreement(3, 0, 3, 0), ..copy };
        assert_eq!(t.verdict(&brief_of_template), Verdict::Veto(Method::NearCopy, Veto::Names));
        // Most figures changed: another edition of a bulletin.
        let bulletin = Scores { numbers: agreement(8, 0, 8, 0), ..copy };
        assert_eq!(t.verdict(&bulletin), Verdict::Veto(Method::NearCopy, Veto::Numbers));
        // Some figures changed on both sides: a later version of the story.
        let update =
            Scores { names: agreement(9, 9, 9, 9), numbers: agreement(6, 4, 6, 4), ..copy };
        assert_eq!(t.verdict(&update), Verdict::Link(Method::Update));
        assert_eq!(Method::Update.relation(), Relation::Similar);
        // Figures and names changed together: another story on the same template.
        let retold = Scores {
            names: agreement(9, 6, 9, 6),
            key_names: agreement(3, 3, 3, 3),
            numbers: agreement(6, 4, 6, 4),
            ..copy
        };
        assert_eq!(t.verdict(&retold), Verdict::Veto(Method::NearCopy, Veto::Names));
        // The same names agreeing as much on a copy whose figures stand: a copy.
        assert_eq!(
            t.verdict(&Scores { numbers: agreement(6, 6, 6, 6), ..retold }),
            Verdict::Link(Method::NearCopy)
        );
        // One figure of forty differing on each side (a promo's price inserted where a cut
        // paragraph's figure was, a typo): still a copy; one of six: a later version.
        let edited =
            Scores { names: agreement(9, 9, 9, 9), numbers: agreement(40, 39, 41, 40), ..copy };
        assert_eq!(t.verdict(&edited), Verdict::Link(Method::NearCopy));
        assert_eq!(
            t.verdict(&Scores { numbers: agreement(6, 5, 6, 5), ..edited }),
            Verdict::Link(Method::Update)
        );
        // Two outlets' copies of a wire story, each with its own contributor and outlet in a
        // credit line (4 of 6 names shared) and its own time in the dateline (1 of 24 figures):
        // too few figures changed for a later version, so not a template story's changed
        // values either, and the names agree as a copy's: a copy (`morgue`'s test web made
        // this; the figure alone used to refuse it).
        let wire = Scores {
            names: agreement(6, 4, 6, 4),
            key_names: agreement(5, 4, 5, 4),
            numbers: agreement(24, 23, 24, 23),
            number_places: agreement(35, 34, 35, 34),
            ..copy
        };
        assert_eq!(t.verdict(&wire), Verdict::Link(Method::NearCopy));
        // A sixth of the figures changed with those names: another story on the template.
        assert_eq!(
            t.verdict(&Scores { numbers: agreement(24, 20, 24, 20), ..wire }),
            Verdict::Veto(Method::NearCopy, Veto::Names)
        );
        // Figures missing on one side only are text the other does not have.
        let trimmed = Scores { numbers: agreement(4, 4, 9, 4), ..copy };
        assert_eq!(t.verdict(&trimmed), Verdict::Link(Method::NearCopy));
        // A similar pair whose names, over the whole texts, are mostly another story's: vetoed;
        // a rewrite that keeps the story's names is not.
        let similar = scores(0.1, 0.3, 0.8, 0.9);
        let other_people = Scores { doc_names: agreement(8, 2, 9, 2), ..similar };
        assert_eq!(t.verdict(&other_people), Verdict::Veto(Method::Similar, Veto::DocNames));
        let rewrite = Scores { doc_names: agreement(8, 5, 12, 5), ..similar };
        assert_eq!(t.verdict(&rewrite), Verdict::Link(Method::Similar));
        // Its numbers, over the whole texts, mostly another story's (19 of 64 on the side that
        // agrees better): vetoed; a rewrite that keeps a third of the figures is not, nor one
        // that differs in two.
        let own_figures = Scores { doc_numbers: agreement(64, 19, 60, 19), ..rewrite };
        assert_eq!(t.verdict(&own_figures), Verdict::Veto(Method::Similar, Veto::DocNumbers));
        let kept = Scores { doc_numbers: agreement(9, 4, 12, 4), ..rewrite };
        assert_eq!(t.verdict(&kept), Verdict::Link(Method::Similar));
        let two = Scores { doc_numbers: agreement(2, 0, 2, 0), ..rewrite };
        assert_eq!(t.verdict(&two), Verdict::Link(Method::Similar));
        // A copy is judged on the numbers of the text it shares, not the whole texts'.
        assert_eq!(
            t.verdict(&Scores { doc_numbers: agreement(64, 19, 60, 19), ..copy }),
            Verdict::Link(Method::NearCopy)
        );
        // A duplicate is judged over its shared span only.
        assert_eq!(
            t.verdict(&Scores { doc_names: agreement(8, 2, 9, 2), ..copy }),
            Verdict::Link(Method::NearCopy)
        );
        // Figures changed into figures the story states elsewhere: the values agree, their
        // places do not (a fifth of the occurrences on each side stand where the other has no
        // such figure): a later version. One occurrence of twenty out of place (a synonym on
        // both sides of a figure) is still a copy.
        let in_place = Scores {
            names: agreement(9, 9, 9, 9),
            numbers: agreement(5, 5, 5, 5),
            number_places: agreement(10, 8, 10, 8),
            ..copy
        };
        assert_eq!(t.verdict(&in_place), Verdict::Link(Method::Update));
        assert_eq!(
            t.verdict(&Scores { number_places: agreement(20, 19, 20, 19), ..in_place }),
            Verdict::Link(Method::NearCopy)
        );
        // Names changed as well: another story on the same template.
        assert_eq!(
            t.verdict(&Scores { names: agreement(9, 5, 9, 5), ..in_place }),
            Verdict::Veto(Method::NearCopy, Veto::Names)
        );
        // A similar story stays similar when its figures moved.
        let similar = Scores { numbers: agreement(6, 4, 6, 4), ..scores(0.1, 0.3, 0.8, 0.9) };
        assert_eq!(t.verdict(&similar), Verdict::Link(Method::Similar));
    }

    #[test]
    fn names_replaced_in_place_veto_only_where_the_figures_do_not_agree() {
        let t = Thresholds::default();
        // One name on each side standing where the other states a name of its own.
        let slots = agreement(2, 1, 2, 1);
        // Two outlets' copies of a wire story, each with its own contributor and outlet in one
        // sentence, the figures agreeing as a copy's (one of 24 differs: each its own time):
        // a copy, not another story.
        let wire = Scores {
            names: agreement(6, 4, 6, 4),
            key_names: agreement(5, 4, 5, 4),
            numbers: agreement(24, 23, 24, 23),
            number_places: agreement(35, 34, 35, 34),
            name_slots: slots,
            ..scores(0.9, 0.7, 0.95, 0.9)
        };
        assert_eq!(t.verdict(&wire), Verdict::Link(Method::NearCopy));
        // The same sentences with no figure to agree on: another story on the template.
        let unfigured =
            Scores { numbers: agreement(0, 0, 0, 0), number_places: agreement(0, 0, 0, 0), ..wire };
        assert_eq!(t.verdict(&unfigured), Verdict::Veto(Method::NearCopy, Veto::Replaced));
        // One figure agreeing (a weekday) is too little to tell: the same.
        assert_eq!(
            t.verdict(&Scores {
                numbers: agreement(1, 1, 1, 1),
                number_places: agreement(1, 1, 1, 1),
                ..wire
            }),
            Verdict::Veto(Method::NearCopy, Veto::Replaced)
        );
        // With the figures changed too (a fifth of them, by value or in place): the same.
        assert_eq!(
            t.verdict(&Scores { numbers: agreement(10, 8, 10, 8), ..wire }),
            Verdict::Veto(Method::NearCopy, Veto::Replaced)
        );
        assert_eq!(
            t.verdict(&Scores { number_places: agreement(10, 8, 10, 8), ..wire }),
            Verdict::Veto(Method::NearCopy, Veto::Replaced)
        );
        // No name replaced on one side: the rule says nothing.
        assert_eq!(
            t.verdict(&Scores { name_slots: agreement(2, 1, 1, 0), ..unfigured }),
            Verdict::Link(Method::NearCopy)
        );
    }

    #[test]
    fn scores_and_thresholds_round_trip_through_their_fields() {
        let s = Scores {
            passage: 0.5,
            shared_words: 40.0,
            names: agreement(3, 2, 4, 1),
            key_names: agreement(1, 1, 0, 0),
            numbers: agreement(7, 7, 9, 7),
            ..scores(0.25, 0.5, 0.75, 0.125)
        };
        let fields: std::collections::HashMap<String, f64> = s.fields().into_iter().collect();
        assert_eq!(Scores::from_fields(|n| fields.get(n).copied().unwrap_or(0.0)), s);
        let t = Thresholds { key_name_differ: 7, passage_words: 3.0, ..Thresholds::default() };
        let fields: std::collections::HashMap<&str, f64> = t.fields().into_iter().collect();
        assert_eq!(Thresholds::from_fields(|n| fields.get(n).copied()), t);
        // Thresholds stored before a rule existed read as its default.
        assert_eq!(Thresholds::from_fields(|_| None), Thresholds::default());
        let off = Thresholds { conflict_margin: None, ..Thresholds::default() };
        let fields: std::collections::HashMap<&str, f64> = off.fields().into_iter().collect();
        assert_eq!(Thresholds::from_fields(|n| fields.get(n).copied()), off);
    }

    #[test]
    fn method_names_round_trip() {
        for m in Method::ALL {
            assert_eq!(Method::from_name(m.as_str()), Some(m));
        }
        assert_eq!(Method::from_name("title"), None);
    }

    #[test]
    fn thresholds_are_inclusive() {
        let t = Thresholds::default();
        let at = scores(t.duplicate_containment, 0.0, 0.0, t.duplicate_length_ratio);
        assert_eq!(t.decide(&at), Some(Method::NearCopy));
        let below = scores(t.duplicate_containment - 1e-3, 0.0, 0.0, 1.0);
        assert_eq!(t.decide(&below), None);
    }

    #[test]
    fn hopeless_pairs_skip_the_jaccard() {
        let t = Thresholds::default();
        assert!(t.hopeless(0.1, 0.2, 1.0, 0.0, 0.0));
        assert!(!t.hopeless(0.9, 0.2, 1.0, 0.0, 0.0));
        assert!(!t.hopeless(0.1, 0.95, 1.0, 0.0, 0.0));
        assert!(!t.hopeless(0.1, 0.2, 0.05, 0.9, 80.0));
    }

    const BY_MINHASH: crate::FoundBy =
        crate::FoundBy { minhash: true, embedding: false, passage: false };
    const BY_EMBEDDING: crate::FoundBy =
        crate::FoundBy { minhash: false, embedding: true, passage: false };

    #[test]
    fn packed_scores_are_the_signatures_scores() {
        let sig = |id: &str, seed: u32, embedding: &[f32], words: u32| {
            let (embedding, embedding_scale) = Signature::quantise(embedding);
            Signature {
                id: id.into(),
                published: None,
                language: None,
                words,
                shingles: words.saturating_sub(3),
                minhash: (0..minhash::MINHASH_LEN as u32).map(|i| i * 7 + seed * (i % 3)).collect(),
                content: vec![1, 2, 3, seed].into(),
                embedding,
                embedding_scale,
                passages: Default::default(),
                facts: Default::default(),
                keys: Default::default(),
            }
        };
        let sigs = [
            sig("a", 0, &[0.6, 0.8, 0.0], 100),
            sig("b", 1, &[0.6, 0.7, 0.387], 90),
            sig("c", 5, &[0.0, 0.0, 1.0], 300),
            // Another embedding dimension: the slow path.
            sig("d", 0, &[0.6, 0.8], 100),
        ];
        let refs: Vec<&Signature> = sigs.iter().collect();
        let packed = Packed::new(&refs);
        let open = Thresholds {
            duplicate_containment: 0.0,
            duplicate_length_ratio: 0.0,
            duplicate_cosine: -1.0,
            duplicate_content: 0.0,
            similar_cosine: -1.0,
            similar_content: 0.0,
            ..Thresholds::default()
        };
        for a in 0..refs.len() {
            for b in 0..refs.len() {
                for found_by in [BY_MINHASH, BY_EMBEDDING] {
                    assert_eq!(packed.score(a, b, found_by, &open), score(refs[a], refs[b], &open));
                }
            }
        }
        // With the shipped thresholds, an embedding-only pair far apart in meaning stops early.
        let shipped = Thresholds::default();
        assert_eq!(packed.score(0, 2, BY_EMBEDDING, &shipped), None);
        assert_eq!(packed.score(0, 2, BY_MINHASH, &shipped), score(refs[0], refs[2], &shipped));
    }

    #[test]
    fn jaccard_of_sorted_sets() {
        assert_eq!(sorted_jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
        assert_eq!(sorted_jaccard(&[], &[]), 0.0);
        assert_eq!(sorted_jaccard(&[1], &[]), 0.0);
        assert_eq!(length_ratio(0, 0), 0.0);
        assert_eq!(length_ratio(50, 100), 0.5);
    }
}
