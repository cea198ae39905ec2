//! Converts Google's Turkish morphological analyser, as the PyPI package `turkish-morphology`
//! carries it (an OpenFST archive), into the compact transducer the Turkish tagger's hints
//! read (`dedup/src/tagger/morphology.rs`).
//!
//! ```sh
//! pip download --no-deps turkish-morphology==1.2.5 -d /tmp/pypi
//! unzip -q /tmp/pypi/turkish_morphology-1.2.5-py3-none-any.whl -d /tmp/tm
//! cargo run --release -p dedup --example tr_morphology -- \
//!     /tmp/tm/src/analyzer/bin/turkish.far dedup/models/tr/morphology.fst.gz
//! cargo run --release -p dedup --example tr_morphology -- --analyse dedup/models/tr/morphology.fst.gz kitapları
//! ```
//!
//! The archive holds one transducer in OpenFST's `vector` format with `standard` (tropical,
//! f32) arcs and its symbol tables: bytes in, one symbol per morpheme out (`(kitap[NN]`,
//! `)([VB]`, `-lA[Derivation=Make]`, `+lAr[PersonNumber=A3pl]` …). Each output symbol becomes
//! one of the labels the tagger reads (see the module docs) or none; weights are all zero in
//! this analyser and are dropped. Then states with the same future (final alike, and arcs with
//! the same input, label and next state's block) are merged until nothing changes (a
//! bisimulation; the paths and their outputs are unchanged). The archive's transducer is
//! already minimal, so this merges few (245,578 states to 245,111): each root's part of speech
//! is written on the arc that reads its first letter, so roots do not share prefixes. The
//! output is gzip-compressed (3.5 MB to 1.3 MB); the same input gives the same bytes.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::ExitCode;

use dedup::tagger::morphology::{Arc, Transducer};
use rustc_hash::FxHashMap;

/// A reader of OpenFST's little-endian binary fields.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().map_err(|_| "i32")?))
    }

    fn i64(&mut self) -> Result<i64, String> {
        Ok(i64::from_le_bytes(self.take(8)?.try_into().map_err(|_| "i64")?))
    }

    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().map_err(|_| "f32")?))
    }

    fn string(&mut self) -> Result<String, String> {
        let len = usize::try_from(self.i32()?).map_err(|_| "negative string length")?;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }

    /// A symbol table: its magic, name, next free key, size, then (symbol, key) pairs.
    fn symbols(&mut self) -> Result<BTreeMap<i64, String>, String> {
        if self.i32()? != 2_125_658_996 {
            return Err("not a symbol table".into());
        }
        let _name = self.string()?;
        let _available = self.i64()?;
        let size = self.i64()?;
        let mut table = BTreeMap::new();
        for _ in 0..size {
            let symbol = self.string()?;
            table.insert(self.i64()?, symbol);
        }
        Ok(table)
    }
}

/// An OpenFST transducer as read: start, per state its final weight and arcs (input, output,
/// next), and the output symbols.
struct OpenFst {
    start: usize,
    finals: Vec<bool>,
    arcs: Vec<Vec<(i32, i32, i32)>>,
    outputs: BTreeMap<i64, String>,
}

/// Reads an STList archive's first transducer.
fn read_far(bytes: &[u8]) -> Result<OpenFst, String> {
    let mut input = Reader { bytes, at: 0 };
    if input.i32()? != 2_125_656_924 {
        return Err("not an OpenFST STList archive".into());
    }
    let _version = input.i32()?;
    let _key = input.string()?;
    if input.i32()? != 2_125_659_606 {
        return Err("not an OpenFST transducer".into());
    }
    let (kind, arc_kind) = (input.string()?, input.string()?);
    if kind != "vector" || arc_kind != "standard" {
        return Err(format!("a {kind} transducer of {arc_kind} arcs: only vector/standard"));
    }
    let _version = input.i32()?;
    let flags = input.i32()?;
    let _properties = input.i64()?;
    let start = usize::try_from(input.i64()?).map_err(|_| "no start state")?;
    let states = usize::try_from(input.i64()?).map_err(|_| "state count unknown")?;
    let _arc_count = input.i64()?;
    // The input symbols are the bytes (label n reads byte n): the table is skipped.
    if flags & 1 != 0 {
        input.symbols()?;
    }
    let outputs =
        if flags & 2 != 0 { input.symbols()? } else { return Err("no output symbols".into()) };
    let mut finals = Vec::with_capacity(states);
    let mut arcs = Vec::with_capacity(states);
    for _ in 0..states {
        finals.push(input.f32()?.is_finite());
        let count = usize::try_from(input.i64()?).map_err(|_| "negative arc count")?;
        let mut list = Vec::with_capacity(count);
        for _ in 0..count {
            let (ilabel, olabel) = (input.i32()?, input.i32()?);
            let _weight = input.f32()?;
            list.push((ilabel, olabel, input.i32()?));
        }
        arcs.push(list);
    }
    Ok(OpenFst { start, finals, arcs, outputs })
}

/// The label an output symbol becomes, if any (see `dedup/src/tagger/morphology.rs`).
fn label(symbol: &str) -> Option<String> {
    let tag_in = |s: &str| -> Option<String> {
        let open = s.rfind('[')?;
        let tag = s[open + 1..].strip_suffix(']')?;
        (!tag.contains('=') && !tag.is_empty()).then(|| tag.to_owned())
    };
    if let Some(group) = symbol.strip_prefix(")([").or_else(|| symbol.strip_prefix("([")) {
        return group.strip_suffix(']').map(|tag| format!("g:{tag}"));
    }
    if let Some(feature) = symbol.find("[Derivation=") {
        let name = symbol[feature + "[Derivation=".len()..].strip_suffix(']')?;
        return Some(format!("d:{name}"));
    }
    if symbol.contains("[TenseAspectMood=") {
        return Some("t".into());
    }
    if symbol.contains("[Copula=") || symbol.contains("[PCopula=") {
        return Some("c".into());
    }
    if symbol.starts_with('(') || symbol.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return tag_in(symbol).map(|tag| format!("r:{tag}"));
    }
    None
}

/// A state's block and its arcs' (input, label, next block), sorted and distinct.
type Signature = (u32, Vec<(u8, u8, u32)>);

/// Merges states with the same future: partition refinement from final/not final, each round
/// splitting blocks by their arcs' (input, label, next block), until the count stops growing.
/// Returns each state's block and the number of blocks.
fn bisimulation(finals: &[bool], arcs: &[Vec<Arc>]) -> (Vec<u32>, usize) {
    let mut block: Vec<u32> = finals.iter().map(|&f| u32::from(f)).collect();
    let mut count = 2;
    loop {
        let mut ids: FxHashMap<Signature, u32> = FxHashMap::default();
        let mut next_block = Vec::with_capacity(block.len());
        for (state, list) in arcs.iter().enumerate() {
            let mut signature: Vec<(u8, u8, u32)> =
                list.iter().map(|arc| (arc.input, arc.output, block[arc.next as usize])).collect();
            signature.sort_unstable();
            signature.dedup();
            let fresh = ids.len() as u32;
            next_block.push(*ids.entry((block[state], signature)).or_insert(fresh));
        }
        let new_count = ids.len();
        block = next_block;
        if new_count == count {
            return (block, count);
        }
        count = new_count;
    }
}

fn convert(far: &str, out: &str) -> Result<(), String> {
    let bytes = std::fs::read(far).map_err(|e| format!("{far}: {e}"))?;
    let fst = read_far(&bytes).map_err(|e| format!("{far}: {e}"))?;
    let arc_count: usize = fst.arcs.iter().map(Vec::len).sum();
    eprintln!(
        "read {} states, {arc_count} arcs, {} output symbols",
        fst.finals.len(),
        fst.outputs.len()
    );
    // Labels in sorted order, so the same input gives the same bytes.
    let mut by_symbol: BTreeMap<i64, String> = BTreeMap::new();
    for (&key, symbol) in &fst.outputs {
        if let Some(label) = label(symbol) {
            by_symbol.insert(key, label);
        }
    }
    let mut labels: Vec<String> = by_symbol.values().cloned().collect();
    labels.sort_unstable();
    labels.dedup();
    let index: BTreeMap<&str, u8> =
        labels.iter().enumerate().map(|(n, label)| (label.as_str(), n as u8 + 1)).collect();
    if labels.len() > 255 {
        return Err(format!("{} labels: at most 255", labels.len()));
    }
    let mut arcs = Vec::with_capacity(fst.arcs.len());
    for list in &fst.arcs {
        let mut converted = Vec::with_capacity(list.len());
        for &(ilabel, olabel, next) in list {
            let input =
                u8::try_from(ilabel).map_err(|_| format!("input label {ilabel} is not a byte"))?;
            let output = by_symbol.get(&i64::from(olabel)).map_or(0, |label| index[label.as_str()]);
            let next = u32::try_from(next).map_err(|_| "negative state")?;
            converted.push(Arc { input, output, next });
        }
        arcs.push(converted);
    }
    let (block, count) = bisimulation(&fst.finals, &arcs);
    let mut states: Vec<Option<Vec<Arc>>> = vec![None; count];
    let mut finals = vec![false; count];
    for (state, list) in arcs.iter().enumerate() {
        let b = block[state] as usize;
        finals[b] = fst.finals[state];
        if states[b].is_none() {
            let mut merged: Vec<Arc> =
                list.iter().map(|arc| Arc { next: block[arc.next as usize], ..*arc }).collect();
            merged.sort_unstable();
            merged.dedup();
            states[b] = Some(merged);
        }
    }
    let states: Vec<Vec<Arc>> = states.into_iter().map(Option::unwrap_or_default).collect();
    let merged_arcs: usize = states.iter().map(Vec::len).sum();
    let transducer =
        Transducer::new(block[fst.start], states, finals, labels).map_err(|e| e.to_string())?;
    let raw = transducer.to_bytes();
    // gzip with no name and no time in its header, so the same input gives the same bytes.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&raw).map_err(|e| e.to_string())?;
    let written = encoder.finish().map_err(|e| e.to_string())?;
    std::fs::write(out, &written).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "wrote {out}: {count} states, {merged_arcs} arcs, {} labels, {} bytes ({} before gzip)",
        transducer.labels().len(),
        written.len(),
        raw.len()
    );
    Ok(())
}

fn analyse(path: &str, words: &[String]) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_end(&mut raw)
        .map_err(|e| format!("{path}: {e}"))?;
    let transducer = Transducer::from_bytes(&raw).map_err(|e| format!("{path}: {e}"))?;
    for word in words {
        println!("{word}");
        for analysis in transducer.analyses(word) {
            println!("    {analysis:?}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, path, words @ ..] if flag == "--analyse" => analyse(path, words),
        [far, out] => convert(far, out),
        _ => Err("usage: tr_morphology FAR OUT | --analyse OUT WORD...".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tr_morphology: {e}");
            ExitCode::FAILURE
        }
    }
}
