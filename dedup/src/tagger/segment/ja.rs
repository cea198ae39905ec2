//! Japanese: IPADIC through vibrato, its tags mapped to UPOS as UD Japanese-GSD tags words.
//!
//! The dictionary's features are what `dedup/examples/mecab_dict.rs` keeps: three
//! part-of-speech fields and, for words other than nouns, the base form
//! (`動詞,自立,*,する`). The table is in `docs/tagger.md`.

use std::io::Read;
use std::ops::Range;
use std::sync::OnceLock;

use crate::tagger::Upos;

/// IPADIC 2.7.0, converted by `dedup/examples/mecab_dict.rs` and gzip-compressed.
const DICTIONARY: &[u8] = include_bytes!("../../../models/ja/ipadic.dic.gz");

/// The analyser, built from the dictionary the first time it is needed.
fn tokenizer() -> &'static vibrato::Tokenizer {
    static TOKENIZER: OnceLock<vibrato::Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| {
        let mut raw = Vec::new();
        // The shipped file is checked by the tests: failing here is a build defect.
        flate2::read::GzDecoder::new(DICTIONARY)
            .read_to_end(&mut raw)
            .expect("the shipped Japanese dictionary decompresses");
        let dictionary =
            vibrato::Dictionary::read(raw.as_slice()).expect("the shipped Japanese dictionary");
        // An unknown word is at most 24 characters long, so a long run of one script costs
        // linear time.
        vibrato::Tokenizer::new(dictionary).max_grouping_len(24)
    })
}

/// Appends the words of `text` with their tags.
pub(super) fn analyse(text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
    if text.is_empty() {
        return;
    }
    let mut worker = tokenizer().new_worker();
    worker.reset_sentence(text);
    worker.tokenize();
    let first = out.len();
    let mut previous: Option<&str> = None;
    for i in 0..worker.num_tokens() {
        let token = worker.token(i);
        let feature = token.feature();
        let surface = token.surface();
        let tag = if surface.chars().all(|ch| !ch.is_alphanumeric()) {
            super::punctuation(surface)
        } else {
            upos(surface, feature, previous)
        };
        // A verbal noun before する or できる is the verb (発表 した: VERB AUX).
        if tag == Upos::Aux
            && out.len() > first
            && previous.is_some_and(|p| p.starts_with("名詞,サ変接続"))
        {
            let at = out.len() - 1;
            out[at].1 = Upos::Verb;
        }
        out.push((token.range_byte(), tag));
        previous = Some(feature);
    }
}

/// The UPOS of a word from its surface, its features (`品詞,細分類1,細分類2,基本形`) and the
/// features of the word before it.
fn upos(surface: &str, feature: &str, previous: Option<&str>) -> Upos {
    let mut fields = feature.split(',');
    let pos = fields.next().unwrap_or_default();
    let sub = fields.next().unwrap_or_default();
    let sub2 = fields.next().unwrap_or_default();
    let base = fields.next().unwrap_or_default();
    let after_noun = previous.is_some_and(|p| p.starts_with("名詞"));
    match pos {
        "名詞" => match sub {
            "固有名詞" => Upos::Propn,
            "代名詞" => Upos::Pron,
            "数" => Upos::Num,
            "形容動詞語幹" => Upos::Adj,
            // 的 (経済的): a suffix particle in UD.
            "接尾" if sub2 == "形容動詞語幹" => Upos::Part,
            // の, ん as nominalisers (行くのは).
            "非自立" if matches!(surface, "の" | "ん") => Upos::Sconj,
            "特殊" => Upos::Aux,
            // さ of 高さ.
            "接尾" if sub2 == "特殊" => Upos::Part,
            _ => Upos::Noun,
        },
        "動詞" => match sub {
            // する, できる after a noun (発表する, 参加できる) are auxiliaries in UD.
            "自立" if after_noun && matches!(base, "する" | "できる") => Upos::Aux,
            // いる, ある, くる, いく, しまう after a verb's て form are verbs in UD.
            "自立" | "非自立" => Upos::Verb,
            _ => Upos::Aux,
        },
        "形容詞" => match sub {
            "自立" => Upos::Adj,
            _ => Upos::Aux,
        },
        "副詞" => Upos::Adv,
        "連体詞" => {
            if matches!(base.chars().next(), Some('こ' | 'そ' | 'あ' | 'ど')) {
                Upos::Det
            } else {
                Upos::Adj
            }
        }
        "接続詞" => Upos::Cconj,
        "助詞" => match sub {
            "接続助詞" => Upos::Sconj,
            "終助詞" | "副助詞／並立助詞／終助詞" => Upos::Part,
            // に of 静かに: the copula's form in UD.
            "副詞化" => Upos::Aux,
            _ => Upos::Adp,
        },
        "助動詞" => Upos::Aux,
        "接頭詞" => Upos::Noun,
        "感動詞" | "フィラー" => Upos::Intj,
        "記号" => match sub {
            "アルファベット" => Upos::Noun,
            _ => Upos::Sym,
        },
        "その他" => Upos::X,
        _ => Upos::Noun,
    }
}
