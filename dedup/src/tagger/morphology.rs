//! A finite-state morphological analyser: what categories a Turkish word form can be.
//!
//! The transducer is Google's two-level Turkish analyser (PyPI `turkish-morphology`, Apache
//! 2.0; see `dedup/models/tr/ATTRIBUTION.md`), converted by `cargo run --release -p dedup
//! --example tr_morphology` from its OpenFST archive into this module's compact format with
//! only what the tagger reads kept on the output side: the root's part of speech, the category
//! each derivation turns the word into, the derivation's name, and whether the last
//! inflectional group has a tense or a copula. Everything else (lemmas, person, case,
//! possessive: the bulk of the analyses) is left out.
//!
//! The input side is the word's UTF-8 bytes. An analysis is a path from the start state to a
//! final one that reads every byte; arcs that read nothing (input 0) are followed freely.
//! [`Transducer::analyses`] walks every such path depth-first, with a budget of arcs visited
//! per word so a pathological input costs a bounded time, and summarises each path as one
//! [`Analysis`].
//!
//! # Format
//!
//! | field | bytes |
//! | --- | --- |
//! | magic `MFST`, version 1 | 5 |
//! | start state, states, arcs | 3 × u32 LE |
//! | output labels: count, then each as a length byte and UTF-8 | 1 + … |
//! | final states, one bit each (LSB first) | ⌈states / 8⌉ |
//! | per state: its arc count as a LEB128 varint, then per arc the input byte, the output label and the next state as a zig-zag LEB128 varint of its difference from this state | … |
//!
//! Labels are `r:TAG` (a root's part of speech), `g:TAG` (a new inflectional group: the
//! category a derivation makes), `d:NAME` (the derivation), `t` (a tense, aspect or mood) and
//! `c` (a copula); label 0 is no output.

use std::fmt;

use super::model::{read_varint, write_varint};

/// A transducer that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransducerError(String);

impl fmt::Display for TransducerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unusable morphology transducer: {}", self.0)
    }
}

impl std::error::Error for TransducerError {}

const MAGIC: &[u8; 5] = b"MFST\x01";

/// How many arcs one word may follow before its search stops (`güzelleştirilmesi` follows
/// about 9,000, `ve` 900).
const BUDGET: usize = 50_000;

/// How many arcs one path may take: a word's bytes and the arcs that read nothing between
/// them (a guard against cycles of such arcs, which would otherwise recurse without end).
const MAX_DEPTH: usize = 1024;

/// The state of one word's search.
struct Walk {
    /// The labels output so far.
    path: Vec<u8>,
    budget: usize,
    /// The distinct analyses found, as label numbers.
    found: Vec<Key>,
    depth: usize,
}

/// An analysis as label numbers (0 for none): root, last group, last derivation, and bit 0 a
/// tense, bit 1 a copula in the last group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    root: u8,
    last: u8,
    derivation: u8,
    flags: u8,
}

/// What an output label is, from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Root,
    Group,
    Derivation,
    Tense,
    Copula,
    Other,
}

impl Kind {
    fn of(label: &str) -> Kind {
        match label.split_once(':').map_or(label, |(kind, _)| kind) {
            "r" => Kind::Root,
            "g" => Kind::Group,
            "d" => Kind::Derivation,
            "t" => Kind::Tense,
            "c" => Kind::Copula,
            _ => Kind::Other,
        }
    }
}

/// A transducer in memory: arcs grouped by state.
#[derive(Clone, PartialEq, Eq)]
pub struct Transducer {
    start: u32,
    /// Each state's first arc; one more entry closes the last state's arcs.
    first: Vec<u32>,
    input: Vec<u8>,
    output: Vec<u8>,
    next: Vec<u32>,
    finals: Vec<bool>,
    labels: Vec<String>,
    /// What each label is, as `labels`.
    kinds: Vec<Kind>,
    /// Per state, what can come next, directly or after arcs that read nothing: bit `b % 63`
    /// for each byte `b` an arc then reads, bit 63 if a final state is reached (see
    /// [`lookahead`]).
    ahead: Vec<u64>,
    /// The states with at least [`WIDE`] arcs, in order, each with its arcs that read a byte,
    /// keyed by that byte and one the state they lead to can read next (`first << 8 | second`),
    /// sorted: see [`wide_index`].
    wide: Vec<(u32, Vec<(u16, u32)>)>,
}

impl fmt::Debug for Transducer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transducer")
            .field("states", &self.finals.len())
            .field("arcs", &self.input.len())
            .field("labels", &self.labels.len())
            .finish()
    }
}

/// One arc, for building a transducer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Arc {
    /// The byte read, 0 for none.
    pub input: u8,
    /// The output label, 0 for none.
    pub output: u8,
    /// The state it leads to.
    pub next: u32,
}

/// One path's summary.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Analysis {
    /// The root's part of speech (the analyser's own tags: `NN`, `NNP`, `VB`, `JJ`, `NOMP` …).
    pub root: String,
    /// The category of the last inflectional group, when a derivation made one.
    pub last: Option<String>,
    /// The last derivation's name (`Make`, `AorPart`, `Nonf` …).
    pub derivation: Option<String>,
    /// Whether the last inflectional group has a tense, aspect or mood (a finite verb).
    pub tense: bool,
    /// Whether the last inflectional group has a copula.
    pub copula: bool,
}

impl Analysis {
    /// The category the word ends as: the last group's, or the root's.
    pub fn category(&self) -> &str {
        self.last.as_deref().unwrap_or(&self.root)
    }
}

impl Transducer {
    /// A transducer from its parts: the arcs of each state, state by state (`states`; each
    /// state's are sorted here, those that read nothing first), which states are final, the
    /// output labels (label 0, no output, is implied and not in `labels`).
    pub fn new(
        start: u32,
        states: Vec<Vec<Arc>>,
        finals: Vec<bool>,
        labels: Vec<String>,
    ) -> Result<Transducer, TransducerError> {
        if states.len() != finals.len() {
            return Err(TransducerError("as many final flags as states needed".into()));
        }
        if labels.len() > 255 || labels.iter().any(|label| label.len() > 255) {
            return Err(TransducerError("too many or too long labels".into()));
        }
        let count = u32::try_from(states.len())
            .map_err(|_| TransducerError("more than 2^32 states".into()))?;
        let mut first = Vec::with_capacity(states.len() + 1);
        let (mut input, mut output, mut next) = (Vec::new(), Vec::new(), Vec::new());
        for mut arcs in states {
            arcs.sort_unstable();
            first.push(
                u32::try_from(input.len())
                    .map_err(|_| TransducerError("more than 2^32 arcs".into()))?,
            );
            for arc in &arcs {
                if arc.next >= count || usize::from(arc.output) > labels.len() {
                    return Err(TransducerError("an arc leads nowhere".into()));
                }
                input.push(arc.input);
                output.push(arc.output);
                next.push(arc.next);
            }
        }
        first.push(
            u32::try_from(input.len())
                .map_err(|_| TransducerError("more than 2^32 arcs".into()))?,
        );
        if start >= count {
            return Err(TransducerError("the start state is not a state".into()));
        }
        let kinds = labels.iter().map(|label| Kind::of(label)).collect();
        let ahead = lookahead(&first, &input, &next, &finals);
        let wide = wide_index(&first, &input, &next);
        Ok(Transducer { start, first, input, output, next, finals, labels, kinds, ahead, wide })
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.finals.len()
    }

    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.input.len()
    }

    /// The output labels (label `n` is `labels()[n - 1]`).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The transducer in the format above.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.arcs() * 4);
        out.extend_from_slice(MAGIC);
        for n in [self.start, self.first.len() as u32 - 1, self.input.len() as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.push(self.labels.len() as u8);
        for label in &self.labels {
            out.push(label.len() as u8);
            out.extend_from_slice(label.as_bytes());
        }
        let mut bits = vec![0_u8; self.finals.len().div_ceil(8)];
        for (state, _) in self.finals.iter().enumerate().filter(|(_, f)| **f) {
            bits[state / 8] |= 1 << (state % 8);
        }
        out.extend_from_slice(&bits);
        for state in 0..self.states() {
            let (from, to) = (self.first[state] as usize, self.first[state + 1] as usize);
            write_varint(&mut out, (to - from) as u64);
            for arc in from..to {
                out.push(self.input[arc]);
                out.push(self.output[arc]);
                let delta = i64::from(self.next[arc]) - state as i64;
                write_varint(&mut out, ((delta << 1) ^ (delta >> 63)) as u64);
            }
        }
        out
    }

    /// Reads the format above.
    pub fn from_bytes(bytes: &[u8]) -> Result<Transducer, TransducerError> {
        let error = |what: &str| TransducerError(what.to_owned());
        let mut input = Reader { bytes, at: 0 };
        if input.take(MAGIC.len())? != MAGIC {
            return Err(error("not a morphology transducer of this version"));
        }
        let start = input.u32()?;
        let states = input.u32()? as usize;
        let arcs = input.u32()? as usize;
        if states > bytes.len() || arcs > bytes.len() {
            return Err(error("more states or arcs than bytes"));
        }
        let mut labels = Vec::new();
        for _ in 0..input.byte()? {
            let len = usize::from(input.byte()?);
            let label = std::str::from_utf8(input.take(len)?).map_err(|_| error("label"))?;
            labels.push(label.to_owned());
        }
        let bits = input.take(states.div_ceil(8))?;
        let finals: Vec<bool> = (0..states).map(|s| bits[s / 8] & (1 << (s % 8)) != 0).collect();
        let mut built = Vec::with_capacity(states);
        let mut total = 0_usize;
        for state in 0..states {
            let count = usize::try_from(input.varint()?).unwrap_or(usize::MAX);
            total = total.saturating_add(count);
            if total > arcs {
                return Err(error("more arcs than the header says"));
            }
            let mut list = Vec::with_capacity(count);
            for _ in 0..count {
                let (byte, output) = (input.byte()?, input.byte()?);
                let zigzag = input.varint()?;
                let delta = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
                let next = (state as i64)
                    .checked_add(delta)
                    .and_then(|next| u32::try_from(next).ok())
                    .ok_or_else(|| error("an arc leads nowhere"))?;
                list.push(Arc { input: byte, output, next });
            }
            built.push(list);
        }
        if input.at != bytes.len() || total != arcs {
            return Err(error("trailing bytes, or fewer arcs than the header says"));
        }
        Transducer::new(start, built, finals, labels)
    }

    /// Every analysis of `word` (distinct, sorted), or none if the analyser does not accept it
    /// or the search ran out of its budget before finding one.
    pub fn analyses(&self, word: &str) -> Vec<Analysis> {
        self.analyses_of_bytes(word.as_bytes())
    }

    fn analyses_of_bytes(&self, word: &[u8]) -> Vec<Analysis> {
        let mut walk = Walk { path: Vec::new(), budget: BUDGET, found: Vec::new(), depth: 0 };
        self.walk(self.start, word, &mut walk);
        walk.found.sort_unstable();
        let value = |label: u8| {
            let text = self.labels.get(usize::from(label).checked_sub(1)?)?;
            Some(text.split_once(':').map_or(text.as_str(), |(_, value)| value).to_owned())
        };
        walk.found
            .into_iter()
            .map(|key| Analysis {
                root: value(key.root).unwrap_or_default(),
                last: value(key.last),
                derivation: value(key.derivation),
                tense: key.flags & 1 != 0,
                copula: key.flags & 2 != 0,
            })
            .collect()
    }

    fn walk(&self, state: u32, rest: &[u8], walk: &mut Walk) {
        let state_index = state as usize;
        if rest.is_empty()
            && self.finals[state_index]
            && let Some(key) = self.summary(&walk.path)
            && !walk.found.contains(&key)
        {
            walk.found.push(key);
        }
        if walk.depth >= MAX_DEPTH {
            return;
        }
        walk.depth += 1;
        // A state's arcs are sorted by input: those reading nothing first, then each byte's.
        let arcs = self.first[state_index] as usize..self.first[state_index + 1] as usize;
        let inputs = &self.input[arcs.clone()];
        let reading_nothing = inputs.partition_point(|&b| b == 0);
        for arc in arcs.start..arcs.start + reading_nothing {
            self.follow(arc, rest, walk);
        }
        // A wide state's arcs that read the next two bytes, from its index; another's that
        // read the next byte.
        let pair = match rest {
            [a, b, ..] if inputs.len() >= WIDE => Some(u16::from(*a) << 8 | u16::from(*b)),
            _ => None,
        };
        match pair
            .and_then(|pair| Some((pair, self.wide.binary_search_by_key(&state, |w| w.0).ok()?)))
        {
            Some((pair, at)) => {
                let index = &self.wide[at].1;
                let from = index.partition_point(|&(p, _)| p < pair);
                for &(p, arc) in &index[from..] {
                    if p != pair {
                        break;
                    }
                    self.follow(arc as usize, rest, walk);
                }
            }
            None => {
                if let Some(&c) = rest.first() {
                    let from = inputs.partition_point(|&b| b < c);
                    let to = inputs.partition_point(|&b| b <= c);
                    for arc in arcs.start + from..arcs.start + to {
                        self.follow(arc, rest, walk);
                    }
                }
            }
        }
        walk.depth -= 1;
    }

    /// Takes `arc` with `rest` left to read before it, unless the budget is spent or the state
    /// it leads to cannot go on.
    fn follow(&self, arc: usize, rest: &[u8], walk: &mut Walk) {
        if walk.budget == 0 {
            return;
        }
        walk.budget -= 1;
        let rest = if self.input[arc] == 0 { rest } else { &rest[1..] };
        if self.ahead[self.next[arc] as usize] & wanted(rest) == 0 {
            return;
        }
        let output = self.output[arc];
        if output != 0 {
            walk.path.push(output);
        }
        self.walk(self.next[arc], rest, walk);
        if output != 0 {
            walk.path.pop();
        }
    }

    fn summary(&self, path: &[u8]) -> Option<Key> {
        let mut key: Option<Key> = None;
        for &label in path {
            let kind = *self.kinds.get(usize::from(label).checked_sub(1)?)?;
            match (kind, key.as_mut()) {
                (Kind::Root, None) => {
                    key = Some(Key { root: label, last: 0, derivation: 0, flags: 0 });
                }
                (Kind::Group, Some(key)) => {
                    *key = Key { last: label, derivation: 0, flags: 0, ..*key }
                }
                (Kind::Derivation, Some(key)) => key.derivation = label,
                (Kind::Tense, Some(key)) => key.flags |= 1,
                (Kind::Copula, Some(key)) => key.flags |= 2,
                _ => {}
            }
        }
        key
    }
}

/// How many arcs make a state wide enough to index by two bytes. Google's analyser has one
/// such state, its start, with an arc per root (185,000) that reads the root's first letter:
/// without the index a word visited every root with its first letter, 1,800 arcs for `ve`.
const WIDE: usize = 1024;

/// [`Transducer::wide`]: for each arc of a wide state that reads a byte, the bytes the state it
/// leads to can read next, directly or after arcs that read nothing (searched up to
/// [`CLOSURE`] states per arc; an arc whose search is cut short is kept under every byte).
fn wide_index(first: &[u32], input: &[u8], next: &[u32]) -> Vec<(u32, Vec<(u16, u32)>)> {
    let mut wide = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for state in 0..first.len() - 1 {
        let arcs = first[state] as usize..first[state + 1] as usize;
        if arcs.len() < WIDE {
            continue;
        }
        let mut index = Vec::new();
        for arc in arcs {
            let byte = input[arc];
            if byte == 0 {
                continue;
            }
            let mut seconds = [false; 256];
            seen.clear();
            stack.clear();
            stack.push(next[arc]);
            while let Some(at) = stack.pop() {
                if seen.contains(&at) {
                    continue;
                }
                if seen.len() >= CLOSURE {
                    seconds = [true; 256];
                    break;
                }
                seen.push(at);
                for to in first[at as usize] as usize..first[at as usize + 1] as usize {
                    match input[to] {
                        0 => stack.push(next[to]),
                        b => seconds[usize::from(b)] = true,
                    }
                }
            }
            for (second, _) in seconds.iter().enumerate().filter(|(_, s)| **s) {
                index.push((u16::from(byte) << 8 | second as u16, arc as u32));
            }
        }
        index.sort_unstable();
        wide.push((state as u32, index));
    }
    wide
}

/// How many states the search for an indexed arc's next bytes visits at most.
const CLOSURE: usize = 64;

/// The bit of [`Transducer::ahead`] that a search with `rest` left to read needs.
fn wanted(rest: &[u8]) -> u64 {
    rest.first().map_or(1 << 63, |&b| 1 << (b % 63))
}

/// [`Transducer::ahead`] of every state: each state's own bytes and finality, then what the
/// states its arcs that read nothing lead to have, until nothing changes (a cycle of such arcs
/// ends too, as bits are only added). The search skips an arc whose state cannot go on with the
/// next byte: most of a word's branches are a suffix that does not follow, and this ends each
/// one an arc sooner.
fn lookahead(first: &[u32], input: &[u8], next: &[u32], finals: &[bool]) -> Vec<u64> {
    let states = finals.len();
    let mut ahead: Vec<u64> = (0..states)
        .map(|state| {
            let arcs = first[state] as usize..first[state + 1] as usize;
            let own = input[arcs].iter().filter(|&&b| b != 0).fold(0, |m, &b| m | 1 << (b % 63));
            own | u64::from(finals[state]) << 63
        })
        .collect();
    loop {
        let mut changed = false;
        for state in 0..states {
            let arcs = first[state] as usize..first[state + 1] as usize;
            let reading_nothing = input[arcs.clone()].partition_point(|&b| b == 0);
            let mut mask = ahead[state];
            for arc in arcs.start..arcs.start + reading_nothing {
                mask |= ahead[next[arc] as usize];
            }
            if mask != ahead[state] {
                ahead[state] = mask;
                changed = true;
            }
        }
        if !changed {
            return ahead;
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TransducerError> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| TransducerError("truncated".into()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, TransducerError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, TransducerError> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn varint(&mut self) -> Result<u64, TransducerError> {
        read_varint(self.bytes, &mut self.at).map_err(|what| TransducerError(what.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ev` (house, a noun), `evle` (to house: a verb made from it) and `evler` (it houses: a
    /// finite verb), with a cycle of arcs that read nothing after it.
    fn small() -> Transducer {
        let labels: Vec<String> = ["c", "d:Make", "g:VB", "r:NN", "t"].map(String::from).into();
        let arc = |input: u8, output: u8, next: u32| Arc { input, output, next };
        let states = vec![
            vec![arc(b'e', 4, 1)],
            vec![arc(b'v', 0, 2)],
            vec![arc(0, 3, 3)],
            vec![arc(0, 2, 4)],
            vec![arc(b'l', 0, 5)],
            vec![arc(b'e', 0, 6)],
            vec![arc(b'r', 5, 7)],
            vec![arc(0, 0, 7), arc(0, 1, 7)],
        ];
        let finals = vec![false, false, true, false, false, false, true, true];
        Transducer::new(0, states, finals, labels).unwrap()
    }

    fn analysis(root: &str, last: Option<&str>, derivation: Option<&str>, tense: bool) -> Analysis {
        Analysis {
            root: root.to_owned(),
            last: last.map(str::to_owned),
            derivation: derivation.map(str::to_owned),
            tense,
            copula: false,
        }
    }

    #[test]
    fn paths_become_analyses() {
        let fst = small();
        assert_eq!(fst.analyses("ev"), [analysis("NN", None, None, false)]);
        let made = analysis("NN", Some("VB"), Some("Make"), false);
        assert_eq!(made.category(), "VB");
        assert_eq!(fst.analyses("evle"), [made]);
        // The cycle after `evler` adds a copula on some paths; the search ends all the same.
        let finite = analysis("NN", Some("VB"), Some("Make"), true);
        let with_copula = Analysis { copula: true, ..finite.clone() };
        assert_eq!(fst.analyses("evler"), [finite, with_copula]);
        for word in ["", "e", "evl", "eve", "x", "evlerr"] {
            assert!(fst.analyses(word).is_empty(), "{word}");
        }
    }

    #[test]
    fn a_wide_state_finds_what_a_narrow_one_does() {
        // A start with 1,100 arcs, each reading one byte and then another, as a root list does;
        // arc `i` reads `1 + i % 200` and then `1 + i / 200`, and half of them read nothing
        // before their second byte.
        let labels = vec!["r:NN".to_owned()];
        let arc = |input: u8, output: u8, next: u32| Arc { input, output, next };
        let count: u32 = 1_100;
        let mut states = vec![Vec::new(); 2 * count as usize + 2];
        let last = 2 * count + 1;
        for i in 0..count {
            let (first, second) = ((1 + i % 200) as u8, (1 + i / 200) as u8);
            states[0].push(arc(first, 1, 1 + i));
            if i % 2 == 0 {
                states[1 + i as usize].push(arc(second, 0, last));
            } else {
                states[1 + i as usize].push(arc(0, 0, 1 + count + i));
                states[(1 + count + i) as usize].push(arc(second, 0, last));
            }
        }
        let mut finals = vec![false; states.len()];
        finals[last as usize] = true;
        let fst = Transducer::new(0, states, finals, labels).unwrap();
        assert_eq!(fst.wide.len(), 1);
        for first in 0..=255_u8 {
            for second in [0, 1, 3, 5, 6, 7, 200] {
                let found = !fst.analyses_of_bytes(&[first, second]).is_empty();
                let expected =
                    (0..count).any(|i| (1 + i % 200, 1 + i / 200) == (first.into(), second.into()));
                assert_eq!(found, expected, "{first} {second}");
            }
        }
    }

    #[test]
    fn the_format_round_trips_and_damage_is_refused() {
        let fst = small();
        let bytes = fst.to_bytes();
        assert_eq!(Transducer::from_bytes(&bytes), Ok(fst.clone()));
        for cut in 0..bytes.len() {
            assert!(Transducer::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Transducer::from_bytes(&longer).is_err());
        let mut wrong = bytes.clone();
        wrong[4] = 2;
        assert!(Transducer::from_bytes(&wrong).is_err());
        // An arc count or a next state's difference of 64 bits is refused, not overflowed.
        let header =
            MAGIC.len() + 12 + 1 + fst.labels().iter().map(|l| 1 + l.len()).sum::<usize>() + 1;
        let huge = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        let mut count = bytes[..header].to_vec();
        count.extend_from_slice(&huge);
        assert!(Transducer::from_bytes(&count).is_err());
        let mut delta = bytes[..header].to_vec();
        delta.extend_from_slice(&[1, b'e', 4]);
        delta.extend_from_slice(&huge);
        assert!(Transducer::from_bytes(&delta).is_err());
    }

    #[test]
    fn arcs_must_lead_somewhere() {
        let arc = Arc { input: b'a', output: 0, next: 1 };
        assert!(Transducer::new(0, vec![vec![arc]], vec![true], Vec::new()).is_err());
        let labelled = Arc { input: b'a', output: 1, next: 0 };
        assert!(Transducer::new(0, vec![vec![labelled]], vec![true], Vec::new()).is_err());
        assert!(Transducer::new(1, vec![Vec::new()], vec![true], Vec::new()).is_err());
        assert!(Transducer::new(0, vec![Vec::new()], vec![], Vec::new()).is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic_the_reader(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)
        ) {
            let mut with_magic = MAGIC.to_vec();
            with_magic.extend_from_slice(&bytes);
            for input in [bytes.as_slice(), with_magic.as_slice()] {
                if let Ok(fst) = Transducer::from_bytes(input) {
                    let _ = fst.analyses("evler");
                }
            }
        }

        #[test]
        fn arbitrary_words_never_panic_the_search(word in "\\PC{0,30}") {
            let _ = small().analyses(&word);
        }
    }
}
