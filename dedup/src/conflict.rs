//! Link conflicts: a story cannot be a copy of two stories that are each other's template twins.
//!
//! Verification judges each pair alone. A story on a template (a match report, a market close)
//! may pass against its original and against another story of the same template whose names and
//! numbers happen to overlap with it, and clustering then folds the two template stories, each
//! other's refused pair, into one cluster through this "hub". After verification, for every
//! document linked to two partners A and B whose own pair is refused by its facts (its wording
//! matches a duplicate rule, its names or numbers veto the link: [`Veto::Names`],
//! [`Veto::Numbers`]), the hub cannot be a copy of both: each partner is scored by how many of
//! the hub's names and numbers it lacks, and the link to a partner is kept only when the other
//! lacks at least [`Thresholds::conflict_margin`] more of them (the partner that shares clearly
//! more of the hub's facts). With a margin of 1 or more, a tie keeps neither; with 0, a tie keeps
//! both. A link dropped this way is reported as a refusal ([`Veto::Conflict`]).
//!
//! Only the links of one hub and the pairs among its partners decide, so an incremental run
//! reaches the decisions a batch run does when it is shown every link of each hub that gains one
//! (`Deduper::update` verifies an existing hub's pairs with the stored window again for that).

use std::collections::{BTreeMap, HashSet};

use crate::facts::{self, Span};
use crate::parallel::Pool;
use crate::signature::Signature;
use crate::verify::{self, Relation, Thresholds, Verdict, Veto};

/// A link dropped for a conflict, with what decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Dropped {
    /// The link's ranks: the later, the earlier.
    pub link: (usize, usize),
    /// The document linked to both (one end of the link).
    pub hub: usize,
    /// The partner whose link conflicts with this one.
    pub rival: usize,
    /// The hub's names and numbers.
    pub facts: u16,
    /// How many of them the link's other end states.
    pub shares: u16,
    /// How many of them the rival states.
    pub rival_shares: u16,
}

/// The link of ranks `a` and `b` in the pipeline's order: the later (higher rank) first.
fn key(a: usize, b: usize) -> (usize, usize) {
    (a.max(b), a.min(b))
}

/// How many of `hub`'s names and numbers (all of them) it states, and how many `partner`
/// states anywhere.
fn shared_facts(hub: &Signature, partner: &Signature) -> (u16, u16) {
    let names = facts::agreement(&hub.facts, Span::ALL, &partner.facts, Span::ALL, false, 1);
    let numbers = facts::agreement(&hub.facts, Span::ALL, &partner.facts, Span::ALL, true, 1);
    (
        names.first.saturating_add(numbers.first),
        names.first_found.saturating_add(numbers.first_found),
    )
}

/// Whether two documents are template twins: their wording matches a duplicate rule and their
/// names or numbers refuse the link, on names that are the story's (each side states at least
/// [`Thresholds::name_min`] names in the text they share, or the actors differ): copies of a
/// short wire story that each add a contributor and an outlet, refused on those few names, are
/// not twins.
fn twins(a: &Signature, b: &Signature, thresholds: &Thresholds) -> bool {
    let Some(scores) = verify::score(a, b, thresholds) else { return false };
    match thresholds.verdict(&scores) {
        Verdict::Veto(method, veto) if method.relation() == Relation::Duplicate => match veto {
            Veto::Numbers => true,
            Veto::Names => {
                scores.names.fewer() >= thresholds.name_min
                    || scores.key_names.differ() >= thresholds.key_name_differ
            }
            Veto::DocNames | Veto::Conflict => false,
        },
        _ => false,
    }
}

/// The links dropped for conflicts at these hubs.
///
/// `hubs` gives each hub's rank and every partner it is linked to (as a batch run would see
/// them); `linked` every linked pair known, as (higher rank, lower rank), so that partners linked
/// to each other are not compared again. Returns each dropped link once (with the first reason
/// by hub and rival rank), sorted by link. Empty when the rule is off.
pub(crate) fn dropped(
    sigs: &[&Signature],
    hubs: &[(usize, Vec<usize>)],
    linked: &HashSet<(usize, usize)>,
    thresholds: &Thresholds,
    pool: &Pool,
) -> Vec<Dropped> {
    let Some(margin) = thresholds.conflict_margin else { return Vec::new() };
    let margin = i32::from(margin);
    let per_hub = pool.map(hubs, |(hub, partners)| {
        let mut out = Vec::new();
        if partners.len() < 2 {
            return out;
        }
        let h = sigs[*hub];
        let facts: Vec<(u16, u16)> = partners.iter().map(|&p| shared_facts(h, sigs[p])).collect();
        for i in 0..partners.len() {
            for j in i + 1..partners.len() {
                let (p, q) = (partners[i], partners[j]);
                if p == q || linked.contains(&key(p, q)) || !twins(sigs[p], sigs[q], thresholds) {
                    continue;
                }
                let (n, fp) = facts[i];
                let (_, fq) = facts[j];
                // Facts of the hub each lacks.
                let (lp, lq) = (i32::from(n - fp), i32::from(n - fq));
                for (partner, rival, shares, rival_shares, lacks, rival_lacks) in
                    [(p, q, fp, fq, lp, lq), (q, p, fq, fp, lq, lp)]
                {
                    if !keeps(lacks, rival_lacks, margin) {
                        out.push(Dropped {
                            link: key(*hub, partner),
                            hub: *hub,
                            rival,
                            facts: n,
                            shares,
                            rival_shares,
                        });
                    }
                }
            }
        }
        out
    });
    let mut first: BTreeMap<(usize, usize), Dropped> = BTreeMap::new();
    for d in per_hub.into_iter().flatten() {
        first
            .entry(d.link)
            .and_modify(|kept| {
                if (d.hub, d.rival) < (kept.hub, kept.rival) {
                    *kept = d;
                }
            })
            .or_insert(d);
    }
    first.into_values().collect()
}

/// Whether the link to a partner that lacks `lacks` of the hub's facts stands against a rival
/// that lacks `rival_lacks`: the rival must lack at least `margin` more.
fn keeps(lacks: i32, rival_lacks: i32, margin: i32) -> bool {
    rival_lacks - lacks >= margin
}

/// The hubs of a set of links and every partner of each, for the hubs in `wanted` (all when
/// `None`), partners sorted by rank.
pub(crate) fn hubs_of(
    links: impl IntoIterator<Item = (usize, usize)>,
    wanted: Option<&HashSet<usize>>,
) -> Vec<(usize, Vec<usize>)> {
    let mut partners: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (a, b) in links {
        if a == b {
            continue;
        }
        for (hub, partner) in [(a, b), (b, a)] {
            if wanted.is_none_or(|w| w.contains(&hub)) {
                partners.entry(hub).or_default().push(partner);
            }
        }
    }
    partners
        .into_iter()
        .filter_map(|(hub, mut list)| {
            list.sort_unstable();
            list.dedup();
            (list.len() >= 2).then_some((hub, list))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hubs_gather_their_partners_once() {
        let links = [(3, 1), (1, 2), (3, 1), (4, 0)];
        let hubs = hubs_of(links, None);
        assert_eq!(hubs, vec![(1, vec![2, 3])]);
        let only: HashSet<usize> = [3].into_iter().collect();
        assert!(hubs_of(links, Some(&only)).is_empty());
        let two: HashSet<usize> = [1, 0].into_iter().collect();
        assert_eq!(hubs_of([(1, 2), (1, 3), (0, 4), (0, 5)], Some(&two)).len(), 2);
    }

    /// A signature whose wording is a near-copy of every other such signature's, with these
    /// names (stated in the headline, so every span holds them).
    fn sig(id: &str, names: &[&str]) -> Signature {
        let mut marks: Vec<(facts::Mark, &str)> = names
            .iter()
            .map(|n| {
                let key = crate::text::hash_bytes(crate::text::fold(n).as_bytes()) as u32;
                (facts::Mark { key, position: 0, count: 1 }, *n)
            })
            .collect();
        marks.sort_by_key(|(m, _)| m.key);
        let labels = marks.iter().map(|(_, n)| *n).collect::<Vec<_>>().join("\u{1f}");
        let (embedding, embedding_scale) = Signature::quantise(&[0.6, 0.8]);
        Signature {
            id: id.into(),
            published: None,
            language: None,
            words: 300,
            shingles: 297,
            minhash: (0..crate::minhash::MINHASH_LEN as u32).collect(),
            content: vec![1, 2, 3].into(),
            embedding,
            embedding_scale,
            passages: Default::default(),
            facts: facts::Facts::from_parts(
                marks.iter().map(|(m, _)| *m).collect(),
                Box::default(),
                labels.into(),
            ),
            keys: Default::default(),
        }
    }

    const STORY: [&str; 6] =
        ["Amsterdam", "Berlusconi", "Copenhagen", "Dortmund", "Eindhoven", "Frankfurt"];

    #[test]
    fn the_partner_sharing_clearly_more_keeps_its_link() {
        let t = Thresholds::default();
        let hub = sig("hub", &STORY);
        let copy = sig("copy", &STORY);
        // The copy's template twin: other names but the first.
        let twin = sig(
            "twin",
            &["Amsterdam", "Marseille", "Nottingham", "Pamplona", "Quimper", "Rotterdam"],
        );
        assert!(twins(&copy, &twin, &t));
        assert!(!twins(&hub, &copy, &t));
        let sigs = [&hub, &copy, &twin];
        let hubs = hubs_of([(1, 0), (2, 0)], None);
        let dropped = dropped(&sigs, &hubs, &HashSet::new(), &t, &Pool::new(1));
        assert_eq!(
            dropped,
            vec![Dropped { link: (2, 0), hub: 0, rival: 1, facts: 6, shares: 1, rival_shares: 6 }]
        );
        // Partners linked to each other are no conflict.
        let linked: HashSet<(usize, usize)> = [(2, 1)].into_iter().collect();
        assert!(super::dropped(&sigs, &hubs, &linked, &t, &Pool::new(1)).is_empty());
    }

    #[test]
    fn a_tie_keeps_neither_unless_the_margin_is_zero() {
        let hub = sig("hub", &STORY);
        let first = sig(
            "first",
            &["Amsterdam", "Berlusconi", "Copenhagen", "Marseille", "Nottingham", "Pamplona"],
        );
        let second = sig(
            "second",
            &["Dortmund", "Eindhoven", "Frankfurt", "Quimper", "Rotterdam", "Salzburg"],
        );
        let sigs = [&hub, &first, &second];
        let hubs = hubs_of([(1, 0), (2, 0)], None);
        let t = Thresholds::default();
        let both = dropped(&sigs, &hubs, &HashSet::new(), &t, &Pool::new(1));
        assert_eq!(both.iter().map(|d| d.link).collect::<Vec<_>>(), vec![(1, 0), (2, 0)]);
        assert!(both.iter().all(|d| d.shares == 3 && d.rival_shares == 3 && d.facts == 6));
        let zero = Thresholds { conflict_margin: Some(0), ..t };
        assert!(dropped(&sigs, &hubs, &HashSet::new(), &zero, &Pool::new(2)).is_empty());
        // A margin of 4 asks more than 3 names' difference: the copy and its twin both go.
        let hub_sigs = [
            &hub,
            &sig("copy", &STORY),
            &sig(
                "twin",
                &["Amsterdam", "Berlusconi", "Copenhagen", "Quimper", "Rotterdam", "Salzburg"],
            ),
        ];
        let four = Thresholds { conflict_margin: Some(4), ..t };
        assert_eq!(dropped(&hub_sigs, &hubs, &HashSet::new(), &four, &Pool::new(1)).len(), 2);
        let three = Thresholds { conflict_margin: Some(3), ..t };
        assert_eq!(dropped(&hub_sigs, &hubs, &HashSet::new(), &three, &Pool::new(1)).len(), 1);
    }

    #[test]
    fn copies_refused_on_a_few_names_of_their_own_are_not_twins() {
        // Two copies of a short wire story, each with a contributor and an outlet of its own:
        // refused against each other on those few names, but not template twins.
        let t = Thresholds::default();
        let hub = sig("hub", &["Amsterdam", "Berlusconi", "Copenhagen"]);
        let first = sig("first", &["Amsterdam", "Marseille", "Nottingham"]);
        let second = sig("second", &["Amsterdam", "Quimper", "Rotterdam"]);
        let refused = crate::verify::score(&first, &second, &t).expect("scores");
        assert_eq!(t.verdict(&refused), Verdict::Veto(crate::Method::NearCopy, Veto::Names));
        assert!(!twins(&first, &second, &t));
        let sigs = [&hub, &first, &second];
        let hubs = hubs_of([(1, 0), (2, 0)], None);
        assert!(dropped(&sigs, &hubs, &HashSet::new(), &t, &Pool::new(1)).is_empty());
    }

    #[test]
    fn keeping_asks_the_margin() {
        assert!(keeps(1, 6, 1));
        assert!(!keeps(6, 1, 1));
        assert!(!keeps(3, 3, 1));
        assert!(keeps(3, 3, 0));
        assert!(!keeps(3, 4, 2));
    }

    #[test]
    fn off_drops_nothing() {
        let t = Thresholds { conflict_margin: None, ..Thresholds::default() };
        let hubs = vec![(0, vec![1, 2])];
        assert!(dropped(&[], &hubs, &HashSet::new(), &t, &Pool::new(1)).is_empty());
    }
}
