//! Every link and every refusal explained in words: which rule decided, its scores, and how the
//! facts agreed or disagreed.
//!
//! ```text
//! near-copy: 94% of the shorter text's word sequences are in the longer; shares 14 of 15 names and all 6 numbers
//! contained: 62 words, 88% of the shorter text's passages, are in the longer (length ratio 0.05); shares 4 of 4 names
//! later version: a copy by its wording (near-copy 91%), numbers changed: 31, 2 → 45, 3; shares all 12 names
//! same wording, names differ: Ajax, PSV vs Celtic, Rangers (1 of 9 names shared)
//! near-copy: 80% of …; dropped: conflicts with the link of story 7 to story 9 (a template twin of this one), which shares 12 of the 13 names and numbers against 7, and in the text they share states 0 names and numbers that story 7 lacks, against 4
//! ```
//!
//! The first document is the link's `doc` (the later), the second its `of`; "vs" lists the
//! first's facts before the second's, and a later version's changed numbers read from the
//! earlier document's to the later's ("31 → 45").

use std::fmt::Write;

use crate::facts::{self, Agreement, Facts};
use crate::passages;
use crate::signature::Signature;
use crate::verify::{Method, Scores, Veto};

/// How many facts a "differ" list names on each side.
const LISTED: usize = 3;

fn percent(x: f32) -> String {
    format!("{:.0}%", (x * 100.0).clamp(0.0, 100.0))
}

/// The wording half: the rule and its scores.
fn wording(method: Method, s: &Scores) -> String {
    match method {
        Method::NearCopy => format!(
            "near-copy: {} of the shorter text's word sequences are in the longer",
            percent(s.containment)
        ),
        Method::Contained => format!(
            "contained: {:.0} words, {} of the shorter text's passages, are in the longer (length ratio {:.2})",
            s.shared_words,
            percent(s.passage),
            s.length_ratio
        ),
        Method::Reworded => format!(
            "reworded copy: meaning cosine {:.2}, content words in common {}",
            s.cosine,
            percent(s.content_jaccard)
        ),
        Method::Similar | Method::Update => format!(
            "same story: meaning cosine {:.2}, content words in common {}",
            s.cosine,
            percent(s.content_jaccard)
        ),
    }
}

/// "shares 14 of 15 names", from the side that agrees better.
fn shares(agreement: &Agreement, kind: &str) -> Option<String> {
    let first_is_better = agreement.second == 0
        || (agreement.first > 0
            && f32::from(agreement.first_found) / f32::from(agreement.first)
                >= f32::from(agreement.second_found) / f32::from(agreement.second));
    let (n, found) = if first_is_better {
        (agreement.first, agreement.first_found)
    } else {
        (agreement.second, agreement.second_found)
    };
    match (n, found) {
        (0, _) => None,
        (1, 1) => Some(format!("the one {}", kind.trim_end_matches('s'))),
        (n, f) if n == f => Some(format!("all {n} {kind}")),
        (n, f) => Some(format!("{f} of {n} {kind}")),
    }
}

/// "Ajax, PSV vs Celtic, Rangers": each side's facts (inside the shared span, or anywhere when
/// `whole`) the other lacks, the first's, `between`, the second's.
fn differ(a: &Signature, b: &Signature, numbers: bool, between: &str) -> String {
    differ_in(a, b, numbers, between, false)
}

fn differ_in(a: &Signature, b: &Signature, numbers: bool, between: &str, whole: bool) -> String {
    let mut shared = passages::shared(&a.passages, &b.passages);
    if whole {
        (shared.first, shared.second) = (facts::Span::ALL, facts::Span::ALL);
    }
    let list = |x: &Facts, span, y: &Facts| {
        let missing = facts::missing(x, numbers, span, y, LISTED);
        if missing.is_empty() { "none".to_owned() } else { missing.join(", ") }
    };
    format!(
        "{}{between}{}",
        list(&a.facts, shared.first, &b.facts),
        list(&b.facts, shared.second, &a.facts)
    )
}

/// The facts half of a link's explanation.
fn agreeing(s: &Scores) -> String {
    let parts: Vec<String> =
        [shares(&s.names, "names"), shares(&s.numbers, "numbers")].into_iter().flatten().collect();
    if parts.is_empty() {
        "no names or numbers to compare".to_owned()
    } else {
        format!("shares {}", parts.join(" and "))
    }
}

/// Why a link was made.
pub(crate) fn link(method: Method, s: &Scores, a: &Signature, b: &Signature) -> String {
    let mut out = String::new();
    if method == Method::Update {
        // The rule the wording matched before the numbers spoke.
        let copy = if s.containment >= s.passage {
            format!("near-copy {}", percent(s.containment))
        } else {
            format!("passages {}", percent(s.passage))
        };
        // From the earlier document's figures to the later's: the values one states that the
        // other lacks, or, when the values agree (a figure changed into one the text states
        // elsewhere), the figures that stand where the other states them nowhere.
        let changed = if s.numbers.changed() {
            differ(b, a, true, " → ")
        } else {
            let shared = passages::shared(&b.passages, &a.passages);
            let list = |x: &Facts, span, y: &Facts| {
                let moved = facts::misplaced(x, span, y, LISTED);
                if moved.is_empty() { "none".to_owned() } else { moved.join(", ") }
            };
            format!(
                "{} → {} (in place)",
                list(&b.facts, shared.first, &a.facts),
                list(&a.facts, shared.second, &b.facts)
            )
        };
        let _ = write!(
            out,
            "later version: a copy by its wording ({copy}), numbers changed: {changed}"
        );
        if let Some(names) = shares(&s.names, "names") {
            let _ = write!(out, "; shares {names}");
        }
        return out;
    }
    let _ = write!(out, "{}; {}", wording(method, s), agreeing(s));
    out
}

/// Why wording that matched was refused.
pub(crate) fn veto(method: Method, veto: Veto, s: &Scores, a: &Signature, b: &Signature) -> String {
    let how = match method {
        Method::NearCopy => format!("near-copy {}", percent(s.containment)),
        Method::Contained => format!("passages {}", percent(s.passage)),
        Method::Reworded | Method::Similar | Method::Update => {
            format!("meaning cosine {:.2}", s.cosine)
        }
    };
    match veto {
        Veto::DocNames => format!(
            "same subject ({how}), names differ: {} ({} names shared)",
            differ_in(a, b, false, " vs ", true),
            shared_count(&s.doc_names)
        ),
        Veto::Names => format!(
            "same wording ({how}), names differ: {} ({} names shared)",
            differ(a, b, false, " vs "),
            shared_count(&s.names)
        ),
        Veto::DocNumbers => format!(
            "same subject ({how}), numbers differ: {} ({} numbers shared)",
            differ_in(a, b, true, " vs ", true),
            shared_count(&s.doc_numbers)
        ),
        Veto::Numbers => format!(
            "same wording ({how}), numbers differ: {} ({} numbers shared)",
            differ(a, b, true, " vs "),
            shared_count(&s.numbers)
        ),
        Veto::Replaced => {
            let pairs = facts::replacements(&a.facts, &a.passages, &b.facts, &b.passages, LISTED);
            let (mine, theirs): (Vec<&str>, Vec<&str>) = pairs.into_iter().unzip();
            format!(
                "same sentences ({how}), names replaced in place: {} vs {} ({} of {} names replaced)",
                mine.join(", "),
                theirs.join(", "),
                s.name_slots.first_found.min(s.name_slots.second_found),
                s.names.first.max(s.names.second)
            )
        }
        // Told by `conflict` with the rival link; this is the fallback without it.
        Veto::Conflict => {
            format!("{}; dropped: conflicts with another link", link(method, s, a, b))
        }
    }
}

/// Why a link that passed alone was dropped for a conflict: `hub` (one of its ends) is also
/// linked to `rival`, this link's other end's template twin, which states `rival_shares` of the
/// hub's `facts` names and numbers against this link's `shares`, and `rival_own` names and numbers
/// of its own in the text it shares with the hub that the hub lacks, against this link's `own`.
pub(crate) fn conflict(link_explanation: &str, hub: &str, rival: &str, d: &Conflict) -> String {
    let &Conflict { facts, shares, rival_shares, own, rival_own } = d;
    let versus = if rival_shares == shares {
        format!("as many as this one ({shares} of the {facts} names and numbers)")
    } else {
        format!("{rival_shares} of the {facts} names and numbers against {shares}")
    };
    let own = if own == 0 && rival_own == 0 {
        String::new()
    } else {
        format!(
            ", and in the text they share states {rival_own} names and numbers that story {hub} \
             lacks, against {own}"
        )
    };
    format!(
        "{link_explanation}; dropped: conflicts with the link of story {hub} to story {rival} (a \
         template twin of this one), which shares {versus}{own}"
    )
}

/// The counts that decided a link conflict ([`conflict`]).
pub(crate) struct Conflict {
    /// The hub's names and numbers.
    pub facts: u16,
    /// How many of them the link's other end states.
    pub shares: u16,
    /// How many of them the rival states.
    pub rival_shares: u16,
    /// The link's other end's names and numbers in the text it shares with the hub that the hub
    /// lacks.
    pub own: u16,
    /// The same for the rival.
    pub rival_own: u16,
}

/// "1 of 9": the shared facts of the side that states more.
fn shared_count(a: &Agreement) -> String {
    if a.first >= a.second {
        format!("{} of {}", a.first_found, a.first)
    } else {
        format!("{} of {}", a.second_found, a.second)
    }
}
