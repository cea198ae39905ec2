//! Converts a MeCab dictionary's source files into the compressed vibrato dictionary that
//! `dedup::tagger` compiles in for Japanese.
//!
//! ```sh
//! apt-get download mecab-ipadic && dpkg -x mecab-ipadic_*.deb /tmp/ipadic
//! cargo run --release -p dedup --example mecab_dict -- \
//!     /tmp/ipadic/usr/share/mecab/dic/ipadic dedup/models/ja/ipadic.dic.gz
//! ```
//!
//! The source folder holds the lexicon (`*.csv`), `matrix.def`, `char.def` and `unk.def`, in
//! EUC-JP as IPADIC ships them (`--utf8` if they are already UTF-8, as those that
//! `dedup/tools/decode_mecab_dic.py` writes from mecab-ko-dic's compiled files are; `--korean`
//! for those, see `dedup/models/ko/ATTRIBUTION.md`). Each lexicon entry keeps its
//! surface, connection ids and cost, and of its features only what the tagger reads: the three
//! part-of-speech fields and, except for nouns, the base form (`する`, `ある`: auxiliaries by
//! their lemma). Readings and conjugation forms are dropped, which makes the dictionary about
//! four times smaller. With `--korean` an entry keeps its part of speech (`NNG`, `VV+EP+EF`)
//! and the form of its last morpheme (`trim_korean`). The result is vibrato's dictionary format, gzip-compressed; the same
//! input gives the same bytes.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let korean = args.iter().any(|a| a == "--korean");
    let utf8 = korean || args.iter().any(|a| a == "--utf8");
    args.retain(|a| a != "--utf8" && a != "--korean");
    let [source, out] = args.as_slice() else {
        eprintln!("usage: mecab_dict SOURCE_DIR OUT.dic.gz [--utf8 | --korean]");
        return ExitCode::FAILURE;
    };
    let trim = if korean { trim_korean } else { trim_entry };
    match convert(Path::new(source), Path::new(out), utf8, trim) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Keeps what the tagger reads of one lexicon line (`None` if it is not one).
type Trim = fn(&str, usize) -> Option<String>;

fn convert(source: &Path, out: &Path, utf8: bool, trim: Trim) -> Result<(), String> {
    let read = |name: &Path| -> Result<String, String> {
        let bytes =
            std::fs::read(name).map_err(|e| format!("cannot read {}: {e}", name.display()))?;
        if utf8 {
            String::from_utf8(bytes).map_err(|e| format!("{} is not UTF-8: {e}", name.display()))
        } else {
            let (text, _, bad) = encoding_rs::EUC_JP.decode(&bytes);
            if bad {
                return Err(format!("{} is not EUC-JP", name.display()));
            }
            Ok(text.into_owned())
        }
    };
    let mut csvs: Vec<PathBuf> = std::fs::read_dir(source)
        .map_err(|e| format!("cannot list {}: {e}", source.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "csv"))
        .collect();
    csvs.sort();
    if csvs.is_empty() {
        return Err(format!("no *.csv lexicon files in {}", source.display()));
    }
    let mut lexicon = String::new();
    let mut entries = 0_usize;
    for csv in &csvs {
        for line in read(csv)?.lines().filter(|line| !line.trim().is_empty()) {
            lexicon.push_str(
                &trim(line, 4).ok_or_else(|| {
                    format!("{}: not a MeCab lexicon line: {line}", csv.display())
                })?,
            );
            lexicon.push('\n');
            entries += 1;
        }
    }
    let mut unknown = String::new();
    for line in read(&source.join("unk.def"))?.lines().filter(|line| !line.trim().is_empty()) {
        unknown
            .push_str(&trim(line, 4).ok_or_else(|| format!("unk.def: not an entry line: {line}"))?);
        unknown.push('\n');
    }
    let matrix = read(&source.join("matrix.def"))?;
    let chars = read(&source.join("char.def"))?;
    let dictionary = vibrato::SystemDictionaryBuilder::from_readers(
        lexicon.as_bytes(),
        matrix.as_bytes(),
        chars.as_bytes(),
        unknown.as_bytes(),
    )
    .map_err(|e| format!("vibrato refused the dictionary: {e}"))?;
    let mut raw = Vec::new();
    dictionary.write(&mut raw).map_err(|e| format!("cannot write the dictionary: {e}"))?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&raw).map_err(|e| e.to_string())?;
    let compressed = gz.finish().map_err(|e| e.to_string())?;
    // Check that it reads back before writing it.
    let mut again = Vec::new();
    flate2::read::GzDecoder::new(compressed.as_slice())
        .read_to_end(&mut again)
        .map_err(|e| e.to_string())?;
    vibrato::Dictionary::read(again.as_slice())
        .map_err(|e| format!("the written dictionary does not read back: {e}"))?;
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(out, &compressed).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{entries} entries from {} files: {} bytes, {} compressed, in {}",
        csvs.len(),
        raw.len(),
        compressed.len(),
        out.display()
    );
    Ok(())
}

/// The fields of a lexicon line: the surface (which only may be quoted, `","` in
/// mecab-ko-dic) and the rest, split at every comma.
fn split_entry(line: &str) -> Option<Vec<&str>> {
    let (surface, rest) = match line.strip_prefix('"') {
        Some(quoted) => {
            let mut end = 0;
            let bytes = quoted.as_bytes();
            loop {
                let at = end + quoted[end..].find('"')?;
                if bytes.get(at + 1) == Some(&b'"') {
                    end = at + 2;
                } else {
                    break (&line[..at + 2], quoted[at + 1..].strip_prefix(',')?);
                }
            }
        }
        None => line.split_once(',')?,
    };
    Some(std::iter::once(surface).chain(rest.split(',')).collect())
}

/// A mecab-ko-dic entry with its first four fields (surface, left id, right id, cost), its
/// part of speech (`NNG`, or the sequence of an inflected or compound entry, `VV+EP+EF`) and
/// the form of its last morpheme when the entry holds several (`다` of
/// `먹/VV/*+었/EP/*+다/EF/*`), else `*`. The semantic class, final-consonant flag, reading
/// and the rest of the expression are dropped.
fn trim_korean(line: &str, fixed: usize) -> Option<String> {
    let fields = split_entry(line)?;
    let pos = fields.get(fixed)?;
    if fields.len() < fixed + 1 || pos.is_empty() {
        return None;
    }
    let last = match fields.get(fixed + 7) {
        Some(expression) if pos.contains('+') && *expression != "*" => {
            let morpheme = expression.rsplit('+').next()?;
            let form = morpheme.split('/').next()?;
            if form.is_empty() { "*" } else { form }
        }
        _ => "*",
    };
    Some(format!("{},{pos},{last}", fields[..fixed].join(",")))
}

/// The entry with its first four fields (surface, left id, right id, cost), its first three
/// part-of-speech fields and, unless it is a noun, its seventh feature (IPADIC's base form,
/// mecab-ko-dic's last part of speech). Only the surface may be quoted (`","` in
/// mecab-ko-dic); a comma separates every other field.
fn trim_entry(line: &str, fixed: usize) -> Option<String> {
    let fields = split_entry(line)?;
    if fields.len() < fixed + 3 {
        return None;
    }
    let pos = &fields[fixed..fixed + 3];
    let base = if pos[0] == "名詞" { "*" } else { fields.get(fixed + 6).copied().unwrap_or("*") };
    Some(format!("{},{},{base}", fields[..fixed].join(","), pos.join(",")))
}
