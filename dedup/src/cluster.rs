//! Story clusters from links, refined so that they do not chain, and their representatives.
//!
//! Connected components of the link graph chain: one roundup that mentions twenty stories links
//! to each of them and would glue them into one. So components are only the unit of work; inside
//! each, clusters grow by **average linkage on the link graph**, in two levels:
//!
//! 1. **Duplicate groups.** Documents merge along duplicate links, strongest first, and two groups
//!    merge only when at least [`ClusterConfig::min_link_density`] of the document pairs between
//!    them are linked as duplicates.
//! 2. **Stories.** Duplicate groups then merge along all links (duplicate links first, then
//!    similar, strongest first), counting a pair of groups as linked when any of their documents
//!    are; two clusters merge only when at least the same share of the group pairs between them
//!    are linked.
//!
//! A hub linked to many stories that are not linked to each other therefore joins at most one or
//! two of them (density `1 / k` after `k` of them), while a wire story and its twenty copies, all
//! linked to each other, stay one cluster. Every decision depends only on the component's links
//! and the documents' order keys (date, then id), never on positions in a batch, so an
//! incremental run that sees the same component gives the same clusters.
//!
//! The **representative** is the earliest member (dated before undated, then by id) among those at
//! least [`ClusterConfig::fragment_ratio`] as long as the longest member: the first publication,
//! unless that was a fragment (a teaser, a breaking-news stub), in which case the earliest full
//! version.

use std::cmp::{Ordering, Reverse};

use crate::verify::Method;

/// Clustering parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterConfig {
    /// Least share of linked pairs between two clusters for them to merge.
    pub min_link_density: f32,
    /// A member shorter than this share of the longest member is a fragment, not a
    /// representative (unless all are).
    pub fragment_ratio: f32,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        Self { min_link_density: 0.5, fragment_ratio: 0.5 }
    }
}

/// What clustering needs of a document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<'a> {
    pub(crate) published: Option<i64>,
    pub(crate) id: &'a str,
    /// Position in the caller's input: the last tie-break, for repeated ids.
    pub(crate) position: usize,
    pub(crate) words: u32,
    /// How two documents dated alike compare before their ids ([`crate::Ties`]): equal for all
    /// under `Ties::Ids`; under `Ties::Texts`, the longer text first, then a fingerprint of it.
    pub(crate) tie: (Reverse<u32>, u32),
}

impl Node<'_> {
    /// Dated before undated, then earlier, then (among dated documents) by [`Node::tie`], then by
    /// id, then by position.
    pub(crate) fn order(&self, other: &Node<'_>) -> Ordering {
        let key = |n: &Node<'_>| (n.published.is_none(), n.published.unwrap_or(0));
        key(self)
            .cmp(&key(other))
            .then_with(|| match self.published {
                Some(_) => self.tie.cmp(&other.tie),
                None => Ordering::Equal,
            })
            .then_with(|| self.id.cmp(other.id))
            .then_with(|| self.position.cmp(&other.position))
    }
}

/// A link between two nodes, by index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) method: Method,
    /// The link's primary score.
    pub(crate) score: f32,
}

impl Edge {
    /// Duplicate links rank above similar ones, then by score.
    fn strength(&self) -> (bool, f32) {
        (self.method != Method::Similar, self.score)
    }
}

/// Where clustering put a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The node's connected component in the link graph (its smallest node index).
    pub(crate) component: usize,
    /// The representative of the node's cluster (itself for a representative or a singleton).
    pub(crate) representative: usize,
    /// The edge that ties the node to its cluster: to the representative if there is one, else
    /// the strongest to another member. `None` for a representative.
    pub(crate) edge: Option<usize>,
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self { parent: (0..n).collect() }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
}

/// Clusters the nodes; one placement per node.
pub(crate) fn cluster(
    nodes: &[Node<'_>],
    edges: &[Edge],
    config: &ClusterConfig,
) -> Vec<Placement> {
    // Components first: the unit of work.
    let mut components = UnionFind::new(nodes.len());
    for e in edges {
        let (a, b) = (components.find(e.a), components.find(e.b));
        if a != b {
            components.parent[a.max(b)] = a.min(b);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for n in 0..nodes.len() {
        let root = components.find(n);
        members[root].push(n);
    }
    let mut component_edges: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, e) in edges.iter().enumerate() {
        component_edges[components.find(e.a)].push(i);
    }
    let mut placements =
        vec![Placement { component: 0, representative: 0, edge: None }; nodes.len()];
    for root in 0..nodes.len() {
        if members[root].is_empty() {
            continue;
        }
        cluster_component(
            nodes,
            edges,
            &members[root],
            &component_edges[root],
            config,
            &mut placements,
        );
    }
    placements
}

fn cluster_component(
    nodes: &[Node<'_>],
    edges: &[Edge],
    members: &[usize],
    edge_ids: &[usize],
    config: &ClusterConfig,
    placements: &mut [Placement],
) {
    // Local indices in the order of the nodes' keys, so nothing depends on batch positions.
    let mut order: Vec<usize> = members.to_vec();
    order.sort_by(|&x, &y| nodes[x].order(&nodes[y]));
    let local = |global: usize| order.binary_search_by(|&g| nodes[g].order(&nodes[global])).ok();
    let mut local_edges: Vec<(usize, usize, usize)> = edge_ids
        .iter()
        .filter_map(|&i| {
            let (a, b) = (local(edges[i].a)?, local(edges[i].b)?);
            (a != b).then_some((a.min(b), a.max(b), i))
        })
        .collect();
    // Strongest first; ties by the endpoints' order.
    local_edges.sort_by(|x, y| {
        let (sx, sy) = (edges[x.2].strength(), edges[y.2].strength());
        sy.0.cmp(&sx.0).then(sy.1.total_cmp(&sx.1)).then((x.0, x.1).cmp(&(y.0, y.1)))
    });
    let m = order.len();

    // Level 1: duplicate groups.
    let duplicate_edges: Vec<(usize, usize)> = local_edges
        .iter()
        .filter(|e| edges[e.2].method != Method::Similar)
        .map(|&(a, b, _)| (a, b))
        .collect();
    let group = average_linkage(m, &duplicate_edges, config.min_link_density);

    // Level 2: stories over the duplicate groups.
    let mut group_index = vec![usize::MAX; m];
    let mut groups = 0;
    for &root in &group {
        if group_index[root] == usize::MAX {
            group_index[root] = groups;
            groups += 1;
        }
    }
    let mut seen = std::collections::HashSet::new();
    let group_edges: Vec<(usize, usize)> = local_edges
        .iter()
        .filter_map(|&(a, b, _)| {
            let (x, y) = (group_index[group[a]], group_index[group[b]]);
            (x != y && seen.insert((x.min(y), x.max(y)))).then_some((x.min(y), x.max(y)))
        })
        .collect();
    let story = average_linkage(groups, &group_edges, config.min_link_density);

    // Clusters, their representatives, and each member's tie.
    let mut clusters: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for n in 0..m {
        clusters[story[group_index[group[n]]]].push(n);
    }
    for cluster in clusters.iter().filter(|c| !c.is_empty()) {
        let longest = cluster.iter().map(|&n| nodes[order[n]].words).max().unwrap_or(0);
        let floor = longest as f32 * config.fragment_ratio;
        // Members are in key order, so the first long enough one is the earliest.
        let rep = cluster
            .iter()
            .copied()
            .find(|&n| nodes[order[n]].words as f32 >= floor)
            .unwrap_or(cluster[0]);
        for &n in cluster {
            let edge = (n != rep).then(|| tie(n, rep, cluster, &local_edges)).flatten();
            let component = members.iter().copied().min().unwrap_or(order[n]);
            placements[order[n]] = Placement { component, representative: order[rep], edge };
        }
    }
}

/// The edge from `n` to the representative if any, else the strongest edge from `n` to another
/// member of its cluster (`local_edges` is sorted strongest first).
fn tie(
    n: usize,
    rep: usize,
    cluster: &[usize],
    local_edges: &[(usize, usize, usize)],
) -> Option<usize> {
    let touches = |e: &&(usize, usize, usize), other: usize| {
        (e.0 == n && e.1 == other) || (e.1 == n && e.0 == other)
    };
    local_edges
        .iter()
        .find(|e| touches(e, rep))
        .or_else(|| {
            local_edges.iter().find(|e| {
                let other = if e.0 == n {
                    e.1
                } else if e.1 == n {
                    e.0
                } else {
                    return false;
                };
                cluster.binary_search(&other).is_ok()
            })
        })
        .map(|e| e.2)
}

/// Average-linkage merging of `n` units along `edges` (already strongest first, without repeats):
/// two clusters merge when the share of linked unit pairs between them is at least
/// `min_density`. Returns each unit's cluster root (the cluster's first unit).
fn average_linkage(n: usize, edges: &[(usize, usize)], min_density: f32) -> Vec<usize> {
    let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        adjacency[a].push(b);
        adjacency[b].push(a);
    }
    let mut sets = UnionFind::new(n);
    let mut units: Vec<Vec<usize>> = (0..n).map(|u| vec![u]).collect();
    for &(a, b) in edges {
        let (x, y) = (sets.find(a), sets.find(b));
        if x == y {
            continue;
        }
        let (small, large) = if units[x].len() <= units[y].len() { (x, y) } else { (y, x) };
        let mut linked = 0usize;
        for &u in &units[small] {
            for &v in &adjacency[u] {
                if sets.find(v) == large {
                    linked += 1;
                }
            }
        }
        let pairs = units[x].len() * units[y].len();
        if linked as f32 >= min_density * pairs as f32 {
            let (root, child) = (x.min(y), x.max(y));
            sets.parent[child] = root;
            let moved = std::mem::take(&mut units[child]);
            units[root].extend(moved);
        }
    }
    (0..n).map(|u| sets.find(u)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(n: usize) -> Vec<(String, usize)> {
        (0..n).map(|i| (format!("d{i:03}"), i)).collect()
    }

    fn run(n: usize, links: &[(usize, usize, Method)]) -> Vec<usize> {
        let ids = nodes(n);
        let nodes: Vec<Node<'_>> = ids
            .iter()
            .map(|(id, i)| Node {
                published: Some(*i as i64),
                id,
                position: *i,
                words: 500,
                tie: (Reverse(0), 0),
            })
            .collect();
        let edges: Vec<Edge> =
            links.iter().map(|&(a, b, method)| Edge { a, b, method, score: 0.8 }).collect();
        cluster(&nodes, &edges, &ClusterConfig::default())
            .into_iter()
            .map(|p| p.representative)
            .collect()
    }

    #[test]
    fn documents_dated_alike_are_ordered_by_their_tie_then_their_ids() {
        let node = |id, published, words: u32, fingerprint| Node {
            published,
            id,
            position: 0,
            words,
            tie: (Reverse(words), fingerprint),
        };
        // Two copies dated the same midnight: the longer first, whichever id it has.
        for (long, short) in [("9", "10"), ("10", "9")] {
            let (long, short) =
                (node(long, Some(86_400), 500, 7), node(short, Some(86_400), 480, 3));
            assert_eq!(long.order(&short), Ordering::Less);
        }
        // As long: by the fingerprints, again whatever the ids.
        for (a, b) in [("1", "2"), ("2", "1")] {
            assert_eq!(node(a, Some(0), 500, 3).order(&node(b, Some(0), 500, 7)), Ordering::Less);
        }
        // Time comes first; undated documents keep the order of their ids.
        assert_eq!(node("1", Some(0), 10, 9).order(&node("2", Some(60), 900, 0)), Ordering::Less);
        assert_eq!(node("1", None, 10, 9).order(&node("2", None, 900, 0)), Ordering::Less);
        // Ties alike (`Ties::Ids`): by id.
        let plain =
            |id| Node { published: Some(0), id, position: 0, words: 9, tie: (Reverse(0), 0) };
        assert_eq!(plain("1").order(&plain("2")), Ordering::Less);
    }

    #[test]
    fn a_hub_does_not_glue_the_stories_it_touches() {
        // Node 0 is a roundup similar to 20 unrelated stories.
        let links: Vec<_> = (1..=20).map(|s| (0, s, Method::Similar)).collect();
        let reps = run(21, &links);
        let glued = reps.iter().filter(|&&r| r == reps[0]).count();
        assert!(glued <= 3, "the hub's cluster has {glued} members");
    }

    #[test]
    fn a_chain_does_not_glue() {
        // 0-1-2-3-4-5: each only linked to its neighbours. A link and a half of density (two
        // of the three pairs) may make a triple, never more.
        let links: Vec<_> = (0..5).map(|i| (i, i + 1, Method::Similar)).collect();
        let reps = run(6, &links);
        assert_ne!(reps[0], reps[5]);
        assert_ne!(reps[0], reps[3]);
        let largest = (0..6).map(|r| reps.iter().filter(|&&x| x == r).count()).max();
        assert!(largest <= Some(3));
    }

    #[test]
    fn a_wire_story_with_copies_stays_whole() {
        let mut links = Vec::new();
        for a in 0..12 {
            for b in a + 1..12 {
                links.push((a, b, Method::NearCopy));
            }
        }
        // Two rewrites, each linked to one copy only.
        links.push((3, 12, Method::Similar));
        links.push((7, 13, Method::Similar));
        let reps = run(14, &links);
        assert!(reps.iter().all(|&r| r == 0), "{reps:?}");
    }

    #[test]
    fn representative_is_the_earliest_unless_a_fragment() {
        let ids = nodes(3);
        let words = [40, 900, 1000];
        let nodes: Vec<Node<'_>> = ids
            .iter()
            .map(|(id, i)| Node {
                published: Some(*i as i64),
                id,
                position: *i,
                words: words[*i],
                tie: (Reverse(0), 0),
            })
            .collect();
        let edges: Vec<Edge> = [(0, 1), (0, 2), (1, 2)]
            .iter()
            .map(|&(a, b)| Edge { a, b, method: Method::NearCopy, score: 0.9 })
            .collect();
        let placements = cluster(&nodes, &edges, &ClusterConfig::default());
        assert!(placements.iter().all(|p| p.representative == 1));
        assert_eq!(placements[1].edge, None);
        assert!(placements[0].edge.is_some());
    }
}
