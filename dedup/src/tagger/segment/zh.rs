//! Chinese: jieba's segmentation, re-cut where UD Chinese-GSD cuts jieba's words consistently
//! (a table learned from the treebank's dev split), then tagged by an averaged perceptron
//! trained over those words (the tagger's own model, with jieba's tag and a rule-based guess as
//! a hint). `docs/tagger.md` has the method and the figures; `dedup/examples/train_chinese.rs`
//! learns the table and the model.
//!
//! The rule-based mapping of jieba's ICTCLAS-style tags to UPOS (a few frequent function words
//! by their form) is the hint's second half, and what tags Chinese if the model is left out.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use crate::tagger::{Model, Upos};

/// The post-tagger, trained by `train_chinese` on UD Chinese-GSDSimp's dev split.
const MODEL: &[u8] = include_bytes!("../../../models/zh/zh.upos");

/// The re-segmentation table learned with the model (see [`Splits`]).
const SPLITS: &str = include_str!("../../../models/zh/splits.tsv");

/// jieba with the dictionary inside the crate, loaded the first time it is needed.
fn jieba() -> &'static jieba_rs::Jieba {
    static JIEBA: OnceLock<jieba_rs::Jieba> = OnceLock::new();
    JIEBA.get_or_init(jieba_rs::Jieba::new)
}

/// The shipped post-tagger, read the first time it is needed.
fn model() -> &'static Model {
    static LOADED: OnceLock<Model> = OnceLock::new();
    // The shipped file is checked by the tests: failing here is a build defect.
    LOADED.get_or_init(|| Model::from_bytes(MODEL).expect("the shipped Chinese model"))
}

/// Where UD Chinese-GSD cuts jieba's words: words cut into given pieces (`一个` → `一` `个`),
/// words kept whole, and single characters cut off the end (`市`: `天津市` → `天津` `市`) or the
/// start (`这`: `这种` → `这` `种`) of any other word written in Han characters. The file format,
/// one rule per line (`#` starts a comment line): `WORD<TAB>PIECE PIECE…` (the pieces making up
/// the word; one piece: kept whole), `*C<TAB>* C` (a suffix), `C*<TAB>C *` (a prefix), and
/// `A B<TAB>AB`: two jieba words in a row joined into one (`第 一<TAB>第一`).
#[derive(Debug, Clone, Default)]
pub struct Splits {
    /// Words with their pieces' byte lengths; one piece: kept whole.
    table: HashMap<String, Vec<usize>>,
    suffixes: HashSet<char>,
    prefixes: HashSet<char>,
    /// Pairs of jieba words joined into one word (`第` `一` → `第一`), by the first.
    joins: HashMap<String, Vec<String>>,
}

impl Splits {
    /// Reads a table; lines whose pieces do not make up their word are left out.
    pub fn parse(text: &str) -> Splits {
        let mut splits = Splits::default();
        for line in text.lines().filter(|line| !line.starts_with('#')) {
            let Some((word, pieces)) = line.split_once('\t') else { continue };
            let pieces: Vec<&str> = pieces.split(' ').filter(|p| !p.is_empty()).collect();
            let mut chars = word.chars();
            match (chars.next(), chars.next(), chars.next(), pieces.as_slice()) {
                (Some('*'), Some(c), None, ["*", piece])
                    if *piece == c.encode_utf8(&mut [0; 4]) =>
                {
                    splits.suffixes.insert(c);
                }
                (Some(c), Some('*'), None, [piece, "*"])
                    if *piece == c.encode_utf8(&mut [0; 4]) =>
                {
                    splits.prefixes.insert(c);
                }
                _ if word.contains(' ') => {
                    if let Some((a, b)) = word.split_once(' ')
                        && !a.is_empty()
                        && !b.is_empty()
                        && !b.contains(' ')
                        && pieces.len() == 1
                        && pieces[0] == format!("{a}{b}")
                    {
                        splits.joins.entry(a.to_owned()).or_default().push(b.to_owned());
                    }
                }
                _ if !pieces.is_empty() && pieces.concat() == word => {
                    splits.table.insert(word.to_owned(), pieces.iter().map(|p| p.len()).collect());
                }
                _ => {}
            }
        }
        splits
    }

    /// The shipped table.
    pub fn shipped() -> &'static Splits {
        static LOADED: OnceLock<Splits> = OnceLock::new();
        LOADED.get_or_init(|| Splits::parse(SPLITS))
    }

    /// How many rules the table has.
    pub fn len(&self) -> usize {
        self.table.len()
            + self.suffixes.len()
            + self.prefixes.len()
            + self.joins.values().map(Vec::len).sum::<usize>()
    }

    /// Whether the table has no rule.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pieces' byte lengths of `word` by the rules for whole words only.
    pub fn listed(&self, word: &str) -> Option<&[usize]> {
        self.table.get(word).map(Vec::as_slice)
    }

    /// Whether the words `a` and `b`, in a row, are joined into one.
    fn joins(&self, a: &str, b: &str) -> bool {
        self.joins.get(a).is_some_and(|next| next.iter().any(|n| n == b))
    }

    /// The pieces' byte lengths of `word`, if the table cuts it.
    pub fn pieces(&self, word: &str) -> Option<Vec<usize>> {
        if let Some(pieces) = self.table.get(word) {
            return (pieces.len() > 1).then(|| pieces.clone());
        }
        let han = |ch: char| ch.is_alphabetic() && !ch.is_ascii();
        if !word.chars().all(han) {
            return None;
        }
        let mut rest = word;
        let mut out = Vec::new();
        let mut chars = rest.chars();
        if let (Some(first), Some(_)) = (chars.next(), chars.next())
            && self.prefixes.contains(&first)
        {
            out.push(first.len_utf8());
            rest = &rest[first.len_utf8()..];
            if let Some(pieces) = self.table.get(rest) {
                out.extend(pieces);
                return Some(out);
            }
        }
        let mut back = rest.chars().rev();
        if let (Some(last), Some(_)) = (back.next(), back.next())
            && self.suffixes.contains(&last)
        {
            out.push(rest.len() - last.len_utf8());
            out.push(last.len_utf8());
        } else if !out.is_empty() {
            out.push(rest.len());
        }
        (!out.is_empty()).then_some(out)
    }
}

/// A word of a sentence: its byte range and its hint, jieba's tag and the rule-based tag
/// (`v:VERB`).
pub type Word = (Range<usize>, String);

/// jieba's words of `text` (white space is never a word; runs between it are analysed in
/// pieces of at most `LONGEST_PIECE` bytes), with jieba's tags.
pub fn jieba_words(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let mut out = Vec::new();
    let base = text.as_ptr() as usize;
    for run in text.split(char::is_whitespace).filter(|run| !run.is_empty()) {
        let offset = run.as_ptr() as usize - base;
        for piece in super::pieces(run) {
            let at = offset + piece.start;
            for tag in jieba().tag(&run[piece], true) {
                out.push((at + tag.byte_start..at + tag.byte_end, intern(tag.tag)));
            }
        }
    }
    out
}

/// The words of one sentence: jieba's, cut by `splits`, each with its hint (see [`Word`]).
pub fn words(text: &str, splits: &Splits) -> Vec<Word> {
    let mut cut: Vec<(Range<usize>, &'static str, Upos)> = Vec::new();
    let mut previous = None;
    for (range, tag, joined) in joined(text, jieba_words(text), splits) {
        let word = &text[range.clone()];
        let mut push = |range: Range<usize>, tag: &'static str| {
            let upos = rule_tag(&text[range.clone()], tag, previous);
            previous = Some(upos);
            cut.push((range, tag, upos));
        };
        match splits.pieces(word).filter(|_| !joined) {
            Some(pieces) => {
                // A piece gets the tag jieba gives it alone, if it is one word to jieba.
                let mut at = range.start;
                for length in pieces {
                    let piece = &text[at..at + length];
                    let alone = jieba().tag(piece, false);
                    let tag = match alone.as_slice() {
                        [one] => intern(one.tag),
                        _ => tag,
                    };
                    push(at..at + length, tag);
                    at += length;
                }
            }
            None => push(range, tag),
        }
    }
    // Function words also say whether the rules see a verb before them and after them in the
    // clause (between punctuation): 的 ends a relative clause when a verb comes before it, 在
    // is a verb when none comes after it.
    let mut verb_before = vec![false; cut.len()];
    let mut seen = false;
    for (i, (_, _, upos)) in cut.iter().enumerate() {
        verb_before[i] = seen;
        seen = match upos {
            Upos::Punct => false,
            Upos::Verb => true,
            _ => seen,
        };
    }
    let mut out = Vec::with_capacity(cut.len());
    let mut seen = false;
    for (i, (range, tag, upos)) in cut.into_iter().enumerate().rev() {
        let hint = if matches!(upos, Upos::Adp | Upos::Aux | Upos::Part | Upos::Sconj | Upos::Cconj)
        {
            let flag = |on: bool, mark: &'static str| if on { mark } else { "" };
            format!("{tag}:{}:{}{}", upos.as_str(), flag(verb_before[i], "b"), flag(seen, "a"))
        } else {
            format!("{tag}:{}", upos.as_str())
        };
        seen = match upos {
            Upos::Punct => false,
            Upos::Verb => true,
            _ => seen,
        };
        out.push((range, hint));
    }
    out.reverse();
    out
}

/// jieba's `words` of `text`, with the pairs `splits` joins joined (tagged as the first), and
/// numbers cut at their thousands separators put back together (`2` `,` `000`); each with
/// whether it was joined.
fn joined(
    text: &str,
    words: Vec<(Range<usize>, &'static str)>,
    splits: &Splits,
) -> Vec<(Range<usize>, &'static str, bool)> {
    let digits = |range: &Range<usize>| text[range.clone()].bytes().all(|b| b.is_ascii_digit());
    let grouped = |range: &Range<usize>| {
        text[range.clone()].bytes().all(|b| b.is_ascii_digit() || b == b',')
            && text[range.clone()].bytes().next().is_some_and(|b| b.is_ascii_digit())
    };
    let mut out: Vec<(Range<usize>, &'static str, bool)> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let (range, tag) = words[i].clone();
        // `,` and three digits after digits: a thousands group.
        if let Some((last, _, joined)) = out.last_mut()
            && last.end == range.start
            && &text[range.clone()] == ","
            && grouped(last)
            && let Some((next, _)) = words.get(i + 1)
            && next.start == range.end
            && next.len() == 3
            && digits(next)
        {
            last.end = next.end;
            *joined = true;
            i += 2;
            continue;
        }
        if let Some((next, _)) = words.get(i + 1)
            && next.start == range.end
            && splits.joins(&text[range.clone()], &text[next.clone()])
        {
            out.push((range.start..next.end, tag, true));
            i += 2;
            continue;
        }
        out.push((range, tag, false));
        i += 1;
    }
    out
}

/// Tags `words` of `text` with `model`; a word without letters or digits is `PUNCT` or `SYM`
/// whatever the model says (the treebank has few ASCII marks to learn them from).
pub fn tag(model: &Model, text: &str, words: &[Word]) -> Vec<Upos> {
    let tokens: Vec<&str> = words.iter().map(|(range, _)| &text[range.clone()]).collect();
    let hints: Vec<&str> = words.iter().map(|(_, hint)| hint.as_str()).collect();
    let mut tags = model.tag_with_hints(&tokens, &hints);
    for (tag, token) in tags.iter_mut().zip(&tokens) {
        if token.chars().all(|ch| !ch.is_alphanumeric()) {
            *tag = super::punctuation(token);
        }
    }
    tags
}

/// Appends the words of one sentence with their tags.
pub(super) fn analyse(text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
    let words = words(text, Splits::shipped());
    if words.is_empty() {
        return;
    }
    let tags = tag(model(), text, &words);
    out.extend(words.into_iter().map(|(range, _)| range).zip(tags));
}

/// The rule-based tag of a word from its form, jieba's tag and the rule-based tag of the word
/// before.
fn rule_tag(word: &str, tag: &str, previous: Option<Upos>) -> Upos {
    // 的 after a verb ends a relative clause (我买的书): UD tags it SCONJ, else PART (中国的).
    if word == "的" && matches!(previous, Some(Upos::Verb | Upos::Aux | Upos::Adv | Upos::Adj)) {
        return Upos::Sconj;
    }
    upos(word, tag)
}

/// jieba's tags, so a word's tag outlives the text it was found in.
const JIEBA_TAGS: [&str; 58] = [
    "a", "ad", "ag", "an", "b", "bg", "c", "cc", "d", "df", "dg", "e", "eng", "f", "g", "h", "i",
    "j", "k", "l", "m", "mg", "mq", "n", "ng", "nr", "nrfg", "nrt", "ns", "nt", "nz", "o", "p",
    "q", "r", "rg", "rr", "rz", "s", "t", "tg", "u", "ud", "ug", "uj", "ul", "uv", "uz", "v", "vd",
    "vg", "vi", "vn", "vq", "w", "x", "y", "z",
];

/// The static copy of one of jieba's tags; `?` for one not in [`JIEBA_TAGS`].
fn intern(tag: &str) -> &'static str {
    JIEBA_TAGS.iter().find(|known| **known == tag).copied().unwrap_or("?")
}

/// The UPOS of a word from its form and jieba's tag.
fn upos(word: &str, tag: &str) -> Upos {
    if let Some(upos) = function_word(word) {
        return upos;
    }
    if word.chars().any(|ch| ch.is_ascii_digit() || matches!(ch, '０'..='９'))
        && word.chars().all(|ch| ch.is_ascii_digit() || matches!(ch, '.' | ',' | '０'..='９'))
    {
        return Upos::Num;
    }
    if word.chars().all(|ch| !ch.is_alphanumeric()) {
        return super::punctuation(word);
    }
    match tag {
        "nr" | "nrt" | "nrfg" | "ns" | "nt" | "nz" | "j" => Upos::Propn,
        "eng" => Upos::X,
        "v" | "vd" | "vg" | "vi" | "vq" | "l" | "i" => Upos::Verb,
        "vn" => Upos::Noun,
        "a" | "ag" | "b" | "z" | "zg" => Upos::Adj,
        "ad" | "d" | "df" | "dg" => Upos::Adv,
        "an" => Upos::Noun,
        "m" | "mq" | "mg" => Upos::Num,
        "r" | "rr" | "rg" | "rz" => Upos::Pron,
        "p" => Upos::Adp,
        "c" | "cc" => Upos::Cconj,
        "u" | "uj" | "uv" | "ud" | "y" | "k" => Upos::Part,
        "ul" | "uz" | "ug" => Upos::Aux,
        "f" => Upos::Adp,
        "e" | "o" => Upos::Intj,
        "x" | "w" => Upos::Punct,
        _ => Upos::Noun,
    }
}

/// Frequent function words whose UD tag jieba's tag does not give (UD Chinese-GSD tags
/// clause-linking adverbs and conjunctions `SCONJ`, the copula `为` `AUX`).
fn function_word(word: &str) -> Option<Upos> {
    Some(match word {
        "是" | "为" | "会" | "能" | "可以" | "要" | "应该" | "可能" | "被" | "了" | "着" | "过" => {
            Upos::Aux
        }
        "这" | "那" | "每" | "各" | "该" | "此" | "这些" | "那些" | "其他" | "任何" => {
            Upos::Det
        }
        "其" => Upos::Pron,
        "的" | "之" | "们" | "地" | "得" | "所" => Upos::Part,
        "在" | "把" | "将" | "从" | "对" | "于" | "向" | "以" | "时" | "由于" | "因为" | "虽然"
        | "期间" => Upos::Adp,
        "由" => Upos::Verb,
        "和" | "或" | "及" | "以及" | "与" | "至" => Upos::Cconj,
        "也" | "都" | "就" | "还" | "又" | "亦" | "则" | "才" | "却" | "但" | "并" | "而"
        | "但是" | "并且" => Upos::Sconj,
        "个" | "等" | "年" | "月" | "日" | "人" | "其中" | "同时" | "岁" => Upos::Noun,
        "一些" => Upos::Adj,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_and_table_load() {
        assert_eq!(model().language(), "zh");
        assert!(!Splits::shipped().is_empty());
    }

    #[test]
    fn splits_cut_words_into_their_pieces() {
        let splits = Splits::parse(
            "# comment\n一个\t一 个\n坏行\t坏 了\n*市\t* 市\n这*\t这 *\n城市\t城市\n",
        );
        assert_eq!(splits.len(), 4);
        assert_eq!(splits.pieces("天津市"), Some(vec![6, 3]));
        assert_eq!(splits.pieces("城市"), None);
        assert_eq!(splits.pieces("这种"), Some(vec![3, 3]));
        assert_eq!(splits.pieces("这座城市"), Some(vec![3, 6, 3]));
        assert_eq!(splits.pieces("这城市"), Some(vec![3, 6]));
        assert_eq!(splits.pieces("这市"), Some(vec![3, 3]));
        assert_eq!(splits.pieces("市"), None);
        assert_eq!(splits.pieces("A市"), None);
        let text = "他是一个 学生";
        let got: Vec<&str> = words(text, &splits).iter().map(|(r, _)| &text[r.clone()]).collect();
        assert!(got.contains(&"一") && got.contains(&"个"), "{got:?}");
        assert!(!got.contains(&"一个"));
        assert_eq!(got.concat(), "他是一个学生");
        let plain: Vec<&str> =
            words(text, &Splits::default()).iter().map(|(r, _)| &text[r.clone()]).collect();
        assert_eq!(plain.concat(), got.concat());
    }

    #[test]
    fn hints_are_jiebas_tag_and_the_rule() {
        let text = "我买的书在北京。";
        let got = words(text, &Splits::default());
        let hint = |word: &str| {
            got.iter().find(|(r, _)| &text[r.clone()] == word).map(|(_, h)| h.as_str())
        };
        assert_eq!(hint("北京"), Some("ns:PROPN"));
        assert_eq!(hint("。"), Some("x:PUNCT"));
        assert_eq!(hint("的"), Some("uj:SCONJ:b"));
        assert_eq!(intern("nrfg"), "nrfg");
        assert_eq!(intern("zz"), "?");
    }
}
