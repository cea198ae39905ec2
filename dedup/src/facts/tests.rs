//! Tests of facts: numbers normalised, names read from tags and capitals, agreement over shared text.

use super::*;
use crate::tagger::{Tagger, sentences, tokenize};

fn value(token: &str, next: Option<&str>, comma_decimal: bool) -> Option<String> {
    number_value(token, next, comma_decimal, 9).map(|(v, _)| v)
}

#[test]
fn numbers_are_normalised_where_the_language_says_how() {
    for (token, next, want) in [
        ("1,200", None, "1200"),
        ("1200", None, "1200"),
        ("1.2k", None, "1200"),
        ("1.2", Some("thousand"), "1200"),
        ("$1.2", Some("billion"), "1200000000"),
        ("1,200", Some("million"), "1200000000"),
        ("3.5", None, "3.5"),
        ("3.50", None, "3.5"),
        ("0.5%", None, "0.5"),
        ("09:30", None, "9:30"),
        ("3-1", None, "3-1"),
        ("2024-01-05", None, "2024-1-5"),
        ("1st", None, "1"),
        ("1990s", None, "1990"),
        ("007", None, "7"),
        ("0", None, "0"),
    ] {
        assert_eq!(value(token, next, false).as_deref(), Some(want), "{token} {next:?}");
    }
    // German, Spanish, French…: the comma is the decimal mark, the dot groups thousands.
    assert_eq!(value("1.200", None, true).as_deref(), Some("1200"));
    assert_eq!(value("1,5", None, true).as_deref(), Some("1.5"));
    assert_eq!(value("1.234,5", None, true).as_deref(), Some("1234.5"));
    assert_eq!(value("3,5", Some("Millionen"), true).as_deref(), Some("3500000"));
    // A decimal in English with three places after the point stays a decimal.
    assert_eq!(value("1.200", None, false).as_deref(), Some("1.2"));
    // Korean, Chinese, Japanese: a counter, unit or particle after the digits is dropped, a
    // scale read.
    for (token, want) in [
        ("3일", "3"),
        ("1950년에는", "1950"),
        ("5명이", "5"),
        ("12조원", "12000000000000"),
        ("3만", "30000"),
        ("2억", "200000000"),
        ("2024年", "2024"),
        ("3万", "30000"),
    ] {
        assert_eq!(value(token, None, false).as_deref(), Some(want), "{token}");
    }
    assert_eq!(value("3일a", None, false), None);
    // Identifiers are not figures.
    for token in ["COVID-19", "A320", "G7", "mp3", "x86-64", "1a2b"] {
        assert_eq!(value(token, None, false), None, "{token}");
    }
    assert_eq!(value(&"9".repeat(100), None, false), None);
}

/// The words of a text as the pipeline reads them: (word, folded, byte offset, begins a sentence).
fn words_of(text: &str, headline: bool) -> Vec<(String, String, u32, bool)> {
    let base = text.as_ptr() as usize;
    let mut start = true;
    let mut out = Vec::new();
    for t in crate::text::tokens(text) {
        match t {
            crate::text::Token::Word(w) => {
                let offset = (w.as_ptr() as usize - base) as u32;
                out.push((w.to_owned(), crate::text::fold(w), offset, start || headline));
                start = false;
            }
            crate::text::Token::End => start = true,
        }
    }
    out
}

/// Gives the collector the numbers, dates and lower-case words of `words`, and (past the tagged
/// stretch) their names by capitals.
fn read_words(collector: &mut Collector, words: &[(String, String, u32, bool)], headline: bool) {
    let list: Vec<Word<'_>> = words
        .iter()
        .enumerate()
        .map(|(i, (text, folded, offset, sentence_start))| Word {
            text,
            folded,
            hash: hash_bytes(folded.as_bytes()),
            offset: *offset,
            position: if headline { 0 } else { i as u16 + 1 },
            sentence_start: *sentence_start,
        })
        .collect();
    collector.read_words(&list);
}

/// Each token its own key, as the tagger gives them for every language but Korean.
fn keys<'a>(tokens: &[&'a str], tags: &[Upos]) -> Vec<Key<'a>> {
    tokens.iter().zip(tags).map(|(&form, &tag)| Key { form, tag }).collect()
}

fn facts(language: &str, title: &str, text: &str) -> Facts {
    let tagger = Tagger::for_language(language);
    let mut collector = Collector::new(Some(language));
    let title_tokens = tokenize(title);
    let tags = tagger.tag(&title_tokens);
    collector.read_names(title, &title_tokens, &keys(&title_tokens, &tags), true);
    let tokens = tokenize(text);
    for sentence in sentences(&tokens) {
        let tags = tagger.tag(sentence);
        collector.read_names(text, sentence, &keys(sentence, &tags), false);
    }
    read_words(&mut collector, &words_of(title, true), true);
    let text_words = words_of(text, false);
    read_words(&mut collector, &text_words, false);
    collector.locate(&text_words.iter().map(|w| w.2).collect::<Vec<_>>());
    collector.finish()
}

#[test]
fn names_and_numbers_of_a_match_report() {
    let f = facts(
        "en",
        "Ajax beat PSV 3-1",
        "Ajax beat PSV Eindhoven 3-1 at the Johan Cruijff Arena on Sunday. Brian Brobbey scored \
         twice before 54,000 fans. The Government said the match was safe. Brobbey was named man \
         of the match.",
    );
    let names = f.names();
    for name in ["Ajax", "PSV Eindhoven", "Johan Cruijff Arena", "Brian Brobbey"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // `Government` is written at the start of a sentence, not as a name.
    assert!(!names.iter().any(|n| n.contains("Government")), "{names:?}");
    let numbers = f.numbers();
    for number in ["3-1", "54,000", "Sunday"] {
        assert!(numbers.contains(&number), "{number} missing from {numbers:?}");
    }
}

#[test]
fn template_stories_disagree_and_copies_agree() {
    let a = facts(
        "en",
        "",
        "Ajax beat PSV Eindhoven 3-1 at the Johan Cruijff Arena on Sunday. Brian Brobbey scored \
         twice before 54,000 fans in Amsterdam.",
    );
    let b = facts(
        "en",
        "",
        "Celtic beat Rangers 2-0 at Celtic Park on Sunday. Kyogo Furuhashi scored twice before \
         59,000 fans in Glasgow.",
    );
    let names = agreement(&a, Span::ALL, &b, Span::ALL, false, 1);
    assert!(names.share() < 0.3, "{names:?}");
    let numbers = agreement(&a, Span::ALL, &b, Span::ALL, true, 1);
    assert!(numbers.changed(), "{numbers:?}");
    // A copy with a byline of its own still agrees through the original's side.
    let copy = facts(
        "en",
        "",
        "By Maria Santos (Reuters). Ajax beat PSV Eindhoven 3-1 at the Johan Cruijff Arena on \
         Sunday.",
    );
    let names = agreement(&copy, Span::ALL, &a, Span { from: 1, to: 12 }, false, 1);
    assert!(names.share() > 0.9, "{names:?}");
    assert_eq!(missing(&copy, false, Span::ALL, &a, 3), vec!["Maria Santos", "Reuters"]);
}

#[test]
fn surnames_match_full_names() {
    let a = facts("en", "", "President Joe Biden met Emmanuel Macron in Paris.");
    let b = facts("en", "", "Biden and Macron talked for an hour in Paris on Monday.");
    let names = agreement(&a, Span::ALL, &b, Span::ALL, false, 1);
    assert_eq!(names.share(), 1.0, "{names:?} {:?} {:?}", a.names(), b.names());
}

#[test]
fn names_respelled_by_one_edit_are_the_same_name() {
    let a = facts("en", "", "President Volodymyr Zelensky met Emmanuel Macron in Paris.");
    // A transliteration and a typo: one edit each.
    let b = facts("en", "", "President Volodymyr Zelenskyy met Emmanuel Marcon in Paris.");
    let names = agreement(&a, Span::ALL, &b, Span::ALL, false, 1);
    assert_eq!((names.differ(), names.share()), (0, 1.0), "{names:?} {:?}", b.names());
    assert!(missing(&a, false, Span::ALL, &b, 3).is_empty());
    // Another name of the same length is two edits or more away; short names must match exactly.
    let c = facts("en", "", "President Volodymyr Zelensky met Emmanuel Barrot in Rome.");
    let names = agreement(&a, Span::ALL, &c, Span::ALL, false, 1);
    assert_eq!(names.differ(), 2, "{names:?} {:?}", c.names());
    assert_eq!(missing(&a, false, Span::ALL, &c, 3), vec!["Emmanuel Macron", "Paris"]);
}

#[test]
fn one_edit() {
    for (a, b) in
        [("zelensky", "zelenskyy"), ("macron", "marcon"), ("macron", "macson"), ("ab", "ab")]
    {
        assert!(within_one_edit(a, b) && within_one_edit(b, a), "{a} {b}");
    }
    for (a, b) in [("macron", "barrot"), ("macron", "macro on"), ("abcd", "badc"), ("ab", "abcd")] {
        assert!(!within_one_edit(a, b) && !within_one_edit(b, a), "{a} {b}");
    }
}

#[test]
fn names_past_the_tagged_start_are_found_by_their_capitals() {
    let mut collector = Collector::new(Some("en"));
    // Nothing tagged: every name comes from capitals.
    let text = "The talks in Geneva ended. Officials from the Bank of England met Ursula von der \
                Leyen and NATO envoys. Geneva was quiet.";
    let words = words_of(text, false);
    read_words(&mut collector, &words, false);
    collector.locate(&words.iter().map(|w| w.2).collect::<Vec<_>>());
    let facts = collector.finish();
    let names = facts.names();
    for name in ["Geneva", "Bank of England", "Ursula von der Leyen", "NATO"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // `The`, `Officials` begin sentences.
    assert!(!names.iter().any(|n| n.contains("Officials") || *n == "The"), "{names:?}");
}

#[test]
fn a_figure_changed_into_one_stated_elsewhere_is_seen_by_its_place() {
    let story = "Police said 12 people were hurt and 3 were missing. Rescuers found 3 boats and 7 \
                 cars on Monday.";
    // The update changes 12 into 7, a figure the story states elsewhere: the sets of values
    // agree on the update's side, so no value differs on both sides…
    let update = story.replacen("12 people", "7 people", 1);
    let (a, b) = (facts("en", "", story), facts("en", "", &update));
    let all = Span::ALL;
    let values = agreement(&a, all, &b, all, true, 1);
    assert_eq!(values.differ(), 0, "{values:?}");
    // …but the 12 and the new 7 stand where the other states nothing of the kind.
    let places = place_agreement(&a, all, &b, all);
    assert_eq!(places, Agreement { first: 5, first_found: 4, second: 5, second_found: 4 });
    assert_eq!(places.differ(), 1);
    assert_eq!(misplaced(&a, all, &b, 3), vec!["12"]);
    assert_eq!(misplaced(&b, all, &a, 3), vec!["7"]);
    // A copy whose word after a figure was swapped for a synonym keeps its place by the word
    // before it; one whose paragraphs moved, by the word after it.
    let copy = facts("en", "", &story.replace("12 people", "12 persons"));
    assert_eq!(place_agreement(&a, all, &copy, all).differ(), 0);
    let moved = facts("en", "", &story.replace("said 12", "reported 12"));
    assert_eq!(place_agreement(&a, all, &moved, all).differ(), 0);
    // Both neighbours replaced: that figure is no longer found by place.
    let both = facts("en", "", &story.replace("said 12 people", "reported 12 persons"));
    assert_eq!(place_agreement(&a, all, &both, all).differ(), 1);
    // Only the text's occurrences have places, each with the value's label.
    let titled = facts("en", "12 hurt", story);
    assert_eq!(titled.places().len(), a.places().len());
    assert!(a.places().windows(2).all(|w| w[0].position < w[1].position));
}

#[test]
fn number_places_run_across_the_stretches_words_are_read_in() {
    let text = "Officials counted 41 cases on Friday and 9 more later.";
    let words = words_of(text, false);
    let whole = {
        let mut c = Collector::new(Some("en"));
        read_words(&mut c, &words, false);
        c.finish()
    };
    // Read in two stretches, cut right after the figure: its next word is in the second.
    let cut = words.iter().position(|w| w.0 == "41").unwrap() + 1;
    let split = {
        let mut c = Collector::new(Some("en"));
        read_stretch(&mut c, &words[..cut], 1);
        read_stretch(&mut c, &words[cut..], cut as u16 + 1);
        c.finish()
    };
    assert_eq!(whole.places(), split.places());
    assert_eq!(whole.places().len(), 3);
}

/// Like `read_words`, for a stretch of the text whose first word has position `first`.
fn read_stretch(collector: &mut Collector, words: &[(String, String, u32, bool)], first: u16) {
    let list: Vec<Word<'_>> = words
        .iter()
        .enumerate()
        .map(|(i, (text, folded, offset, sentence_start))| Word {
            text,
            folded,
            hash: hash_bytes(folded.as_bytes()),
            offset: *offset,
            position: first + i as u16,
            sentence_start: *sentence_start,
        })
        .collect();
    collector.read_words(&list);
}
