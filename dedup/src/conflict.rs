//! Link conflicts: a story cannot be a copy of two stories that are each other's template twins.
//!
//! Verification judges each pair alone. A story on a template (a match report, a market close)
//! may pass against its original and against another story of the same template whose names and
//! numbers happen to overlap with it, and clustering then folds the two template stories, each
//! other's refused pair, into one cluster through this "hub". After verification, for every
//! document linked to two partners A and B whose own pair is refused by its facts (its wording
//! matches a duplicate rule, its names or numbers veto the link: [`Veto::Names`],
//! [`Veto::Numbers`]; numbers changed under the same names are a later version, not a twin), the
//! hub cannot be a copy of both: each partner is scored by how many facts it disagrees with the
//! hub on (the hub's names and numbers it lacks, and its own names and numbers in the text it
//! shares with the hub that the hub lacks: a template twin's replaced values), and the link to a
//! partner is kept only when the other disagrees on at least [`Thresholds::conflict_margin`] more
//! (the partner that agrees clearly better with the hub's facts). With a margin of 1 or more, a
//! tie keeps neither; with 0, a tie keeps both. A link dropped this way is reported as a refusal
//! ([`Veto::Conflict`]).
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
    /// The link's other end's names and numbers in the text it shares with the hub that the hub
    /// does not state.
    pub own: u16,
    /// The same for the rival.
    pub rival_own: u16,
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

/// How many of `partner`'s names and numbers in the text it shares with `hub` (located by their
/// shared passages; its whole text when they share fewer than two) `hub` does not state anywhere:
/// the values a template twin replaced in the sentences the hub repeats.
fn partner_own(hub: &Signature, partner: &Signature) -> u16 {
    let shared = crate::passages::shared(&hub.passages, &partner.passages);
    let own = |numbers: bool| {
        let a =
            facts::agreement(&hub.facts, shared.first, &partner.facts, shared.second, numbers, 1);
        a.second - a.second_found
    };
    own(false).saturating_add(own(true))
}

/// Whether two documents are template twins: their wording matches a duplicate rule and their
/// names or numbers refuse the link, on names that are the story's (each side states at least
/// [`Thresholds::name_min`] names in the text they share, or the actors differ): copies of a
/// short wire story that each add a contributor and an outlet, refused on those few names, are
/// not twins. Numbers that changed under names that agree as a later version's do
/// ([`Thresholds::update_name_agreement`]) are the same developing story (a trimmed copy of the
/// first version and the update with every figure of the copy's span changed), not twins.
fn twins(a: &Signature, b: &Signature, thresholds: &Thresholds) -> bool {
    let Some(scores) = verify::score(a, b, thresholds) else { return false };
    let Some(method) = thresholds.wording(&scores) else { return false };
    if method.relation() != Relation::Duplicate {
        return false;
    }
    // Names replaced in place: the same sentences about other people, twins whatever else.
    if thresholds.names_replaced(&scores) {
        return true;
    }
    // The other facts, as they judge the pair without the names replaced in place.
    let others = Thresholds { replaced_names: u16::MAX, ..*thresholds };
    match others.verdict(&scores) {
        Verdict::Veto(_, veto) => match veto {
            Veto::Numbers => {
                scores.names.changed() && scores.names.share() < thresholds.update_name_agreement
            }
            Veto::Names => {
                scores.names.fewer() >= thresholds.name_min
                    || thresholds.actors_differ(&scores.key_names)
            }
            Veto::Replaced | Veto::DocNames | Veto::DocNumbers | Veto::Conflict => false,
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
        // The partners' own facts in the text they share with the hub, read when first needed.
        let mut own: Vec<Option<u16>> = vec![None; partners.len()];
        let mut own_of =
            |i: usize| *own[i].get_or_insert_with(|| partner_own(h, sigs[partners[i]]));
        for i in 0..partners.len() {
            for j in i + 1..partners.len() {
                let (p, q) = (partners[i], partners[j]);
                if p == q || linked.contains(&key(p, q)) || !twins(sigs[p], sigs[q], thresholds) {
                    continue;
                }
                let (n, fp) = facts[i];
                let (_, fq) = facts[j];
                let (op, oq) = (own_of(i), own_of(j));
                // Facts each disagrees on: the hub's it lacks, its own the hub lacks.
                let (lp, lq) =
                    (i32::from(n - fp) + i32::from(op), i32::from(n - fq) + i32::from(oq));
                for (partner, rival, shares, rival_shares, own, rival_own, lacks, rival_lacks) in
                    [(p, q, fp, fq, op, oq, lp, lq), (q, p, fq, fp, oq, op, lq, lp)]
                {
                    if !keeps(lacks, rival_lacks, margin) {
                        out.push(Dropped {
                            link: key(*hub, partner),
                            hub: *hub,
                            rival,
                            facts: n,
                            shares,
                            rival_shares,
                            own,
                            rival_own,
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

/// Whether the link to a partner that disagrees with the hub on `lacks` facts stands against a
/// rival that disagrees on `rival_lacks`: the rival must disagree on at least `margin` more.
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
        let names: Vec<(&str, u16)> = names.iter().map(|n| (*n, 0)).collect();
        doc(id, &names, &[], &[])
    }

    /// The same with names and numbers at word positions, and passage fingerprints (key, word
    /// position).
    fn doc(
        id: &str,
        names: &[(&str, u16)],
        numbers: &[(&str, u16)],
        passages: &[(u32, u16)],
    ) -> Signature {
        let marks = |facts: &[(&str, u16)]| {
            let mut marks: Vec<(facts::Mark, String)> = facts
                .iter()
                .map(|&(n, position)| {
                    let key = crate::text::hash_bytes(crate::text::fold(n).as_bytes()) as u32;
                    (facts::Mark { key, position, count: 1 }, n.to_owned())
                })
                .collect();
            marks.sort_by_key(|(m, _)| m.key);
            marks
        };
        let (names, numbers) = (marks(names), marks(numbers));
        let labels = names.iter().chain(&numbers).map(|(_, n)| n.as_str()).collect::<Vec<_>>();
        let mut passages: Vec<facts::Mark> = passages
            .iter()
            .map(|&(key, position)| facts::Mark { key, position, count: 1 })
            .collect();
        passages.sort_by_key(|m| m.key);
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
            passages: passages.into(),
            facts: facts::Facts::from_parts(
                names.iter().map(|(m, _)| *m).collect(),
                numbers.iter().map(|(m, _)| *m).collect(),
                labels.join("\u{1f}").into(),
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
            vec![Dropped {
                link: (2, 0),
                hub: 0,
                rival: 1,
                facts: 6,
                shares: 1,
                rival_shares: 6,
                own: 5,
                rival_own: 0
            }]
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
        // The twin lacks 3 of the hub's names and states 3 of its own: 6 facts of difference
        // against the copy's none. A margin of 7 asks more: the copy and its twin both go.
        let hub_sigs = [
            &hub,
            &sig("copy", &STORY),
            &sig(
                "twin",
                &["Amsterdam", "Berlusconi", "Copenhagen", "Quimper", "Rotterdam", "Salzburg"],
            ),
        ];
        let seven = Thresholds { conflict_margin: Some(7), ..t };
        assert_eq!(dropped(&hub_sigs, &hubs, &HashSet::new(), &seven, &Pool::new(1)).len(), 2);
        let six = Thresholds { conflict_margin: Some(6), ..t };
        assert_eq!(dropped(&hub_sigs, &hubs, &HashSet::new(), &six, &Pool::new(1)).len(), 1);
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
    fn numbers_changed_under_the_same_names_are_a_later_version_not_a_twin() {
        let t = Thresholds::default();
        let at = |names: &[&'static str]| -> Vec<(&'static str, u16)> {
            names.iter().map(|n| (*n, 0)).collect()
        };
        let story = at(&STORY);
        let numbers = [("9", 0), ("85", 0), ("33", 0)];
        let hub = doc("hub", &story, &numbers, &[]);
        let copy = doc("copy", &story, &numbers, &[]);
        // Every figure of the text the copy shares changed, the names kept: an update.
        let update = doc("update", &story, &[("99", 0), ("7", 0), ("34", 0)], &[]);
        let refused = verify::score(&copy, &update, &t).expect("scores");
        assert_eq!(t.verdict(&refused), Verdict::Veto(crate::Method::NearCopy, Veto::Numbers));
        assert!(!twins(&copy, &update, &t));
        let sigs = [&hub, &copy, &update];
        let hubs = hubs_of([(1, 0), (2, 0)], None);
        assert!(dropped(&sigs, &hubs, &HashSet::new(), &t, &Pool::new(1)).is_empty());
        // The next edition of a bulletin: its figures and a third of its names changed.
        let bulletin = doc(
            "bulletin",
            &at(&["Amsterdam", "Berlusconi", "Copenhagen", "Dortmund", "Marseille", "Nottingham"]),
            &[("99", 0), ("7", 0), ("34", 0)],
            &[],
        );
        let refused = verify::score(&copy, &bulletin, &t).expect("scores");
        assert_eq!(t.verdict(&refused), Verdict::Veto(crate::Method::NearCopy, Veto::Numbers));
        assert!(twins(&copy, &bulletin, &t));
    }

    #[test]
    fn a_twins_own_values_in_the_shared_text_count_against_it() {
        let t = Thresholds::default();
        // A brief repeats the lede (fingerprints 1..=11 at words 1..=31) with two names and two
        // numbers; the original and its template twin both state all four somewhere, but the
        // twin's lede says 7 where the brief says 1 (its own 1 comes later).
        let lede: Vec<(u32, u16)> = (1..=11).map(|k| (k, 1 + 3 * (k as u16 - 1))).collect();
        let body: Vec<(u32, u16)> = (100..=120).map(|k| (k, 100 + 3 * (k as u16 - 100))).collect();
        let both: Vec<(u32, u16)> = lede.iter().chain(&body).copied().collect();
        let brief =
            doc("brief", &[("Ashford", 3), ("Bolton", 20)], &[("1", 10), ("10", 30)], &lede);
        let original = doc(
            "original",
            &[("Ashford", 3), ("Bolton", 20), ("Carlisle", 110), ("Dover", 120)]
                .into_iter()
                .chain([("Exeter", 130), ("Fulham", 140)])
                .collect::<Vec<_>>(),
            &[("1", 10), ("10", 30), ("5", 150)],
            &both,
        );
        let twin = doc(
            "twin",
            &[("Ashford", 3), ("Bolton", 20), ("Penrith", 110), ("Quarry", 120)]
                .into_iter()
                .chain([("Reading", 130), ("Swindon", 140)])
                .collect::<Vec<_>>(),
            &[("7", 10), ("10", 30), ("1", 150)],
            &both,
        );
        assert!(twins(&original, &twin, &t));
        assert_eq!((partner_own(&brief, &original), partner_own(&brief, &twin)), (0, 1));
        let sigs = [&original, &twin, &brief];
        let hubs = hubs_of([(2, 0), (2, 1)], None);
        let dropped = dropped(&sigs, &hubs, &HashSet::new(), &t, &Pool::new(1));
        // Both state all four of the brief's facts: without the twin's own 7, a tie and neither
        // link would stand.
        assert_eq!(
            dropped,
            vec![Dropped {
                link: (2, 1),
                hub: 2,
                rival: 0,
                facts: 4,
                shares: 4,
                rival_shares: 4,
                own: 1,
                rival_own: 0
            }]
        );
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
