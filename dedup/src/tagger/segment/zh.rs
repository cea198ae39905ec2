//! Chinese: jieba's segmentation and its ICTCLAS-style tags, mapped to UPOS as UD
//! Chinese-GSDSimp tags words (a few frequent function words by their form). The table is in
//! `docs/tagger.md`.

use std::ops::Range;
use std::sync::OnceLock;

use crate::tagger::Upos;

/// jieba with the dictionary inside the crate, loaded the first time it is needed.
fn jieba() -> &'static jieba_rs::Jieba {
    static JIEBA: OnceLock<jieba_rs::Jieba> = OnceLock::new();
    JIEBA.get_or_init(jieba_rs::Jieba::new)
}

/// Appends the words of `text` with their tags.
pub(super) fn analyse(text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
    if text.is_empty() {
        return;
    }
    let mut previous = None;
    for tag in jieba().tag(text, true) {
        let mut upos = upos(tag.word, tag.tag);
        // 的 after a verb ends a relative clause (我买的书): UD tags it SCONJ, else PART (中国的).
        if tag.word == "的"
            && matches!(previous, Some(Upos::Verb | Upos::Aux | Upos::Adv | Upos::Adj))
        {
            upos = Upos::Sconj;
        }
        out.push((tag.byte_start..tag.byte_end, upos));
        previous = Some(upos);
    }
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
