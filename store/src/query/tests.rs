//! Tests of the query language: every operator, field and error, and arbitrary input.

use proptest::prelude::*;

use super::*;

fn parse(text: &str) -> Query {
    Query::parse(text).unwrap_or_else(|err| panic!("{text:?}: {err}"))
}

fn words(list: &[&str]) -> Query {
    Query::Words(list.iter().map(|w| (*w).to_owned()).collect())
}

fn word(w: &str) -> Query {
    words(&[w])
}

fn phrase(list: &[&str]) -> Query {
    Query::Phrase(list.iter().map(|w| (*w).to_owned()).collect())
}

fn not(q: Query) -> Query {
    Query::Not(Box::new(q))
}

fn error(text: &str) -> (usize, String) {
    match Query::parse(text) {
        Ok(query) => panic!("{text:?} parsed as {query:?}"),
        Err(err) => (err.position, err.message),
    }
}

#[test]
fn words_are_folded_and_side_by_side_means_and() {
    assert_eq!(parse("Malmö"), word("malmo"));
    assert_eq!(parse("flood  Malmö"), Query::And(vec![word("flood"), word("malmo")]));
    // Operators are words in capitals; in lower case they are words.
    assert_eq!(parse("rock and roll"), Query::And(vec![word("rock"), word("and"), word("roll")]));
    // A term that folds to several words is their phrase; a CJK run is its pairs.
    assert_eq!(parse("São-Paulo"), phrase(&["sao", "paulo"]));
    assert_eq!(parse("covid-19"), phrase(&["covid", "19"]));
    assert_eq!(parse("東京都"), words(&["東京", "京都"]));
    assert_eq!(parse("雨"), word("雨"));
}

#[test]
fn operators_and_their_precedence() {
    assert_eq!(parse("a OR b"), Query::Or(vec![word("a"), word("b")]));
    assert_eq!(
        parse("a b OR c AND d"),
        Query::Or(vec![
            Query::And(vec![word("a"), word("b")]),
            Query::And(vec![word("c"), word("d")])
        ])
    );
    assert_eq!(
        parse("(storm OR hurricane) AND NOT sport"),
        Query::And(vec![Query::Or(vec![word("storm"), word("hurricane")]), not(word("sport"))])
    );
    assert_eq!(parse("climate -hoax"), Query::And(vec![word("climate"), not(word("hoax"))]));
    assert_eq!(parse("-(a OR b)"), not(Query::Or(vec![word("a"), word("b")])));
    assert_eq!(parse("NOT NOT a"), not(not(word("a"))));
    // A dash that stands alone or inside a word is not an operator.
    assert_eq!(parse("a - b"), Query::And(vec![word("a"), word("b")]));
    assert_eq!(parse("Trump & Biden"), Query::And(vec![word("trump"), word("biden")]));
    assert_eq!(parse("((a))"), word("a"));
}

#[test]
fn phrases_prefixes_and_fields() {
    assert_eq!(parse("\"Climate Change\""), phrase(&["climate", "change"]));
    assert_eq!(parse("\"  Malmö \""), word("malmo"));
    assert_eq!(parse("vaccin*"), Query::Prefix("vaccin".to_owned()));
    assert_eq!(parse("Ökon*"), Query::Prefix("okon".to_owned()));
    assert_eq!(parse("title:earthquake"), Query::Title(Box::new(word("earthquake"))));
    assert_eq!(
        parse("title:(earthquake OR quake)"),
        Query::Title(Box::new(Query::Or(vec![word("earthquake"), word("quake")])))
    );
    assert_eq!(parse("title:\"big quake\""), Query::Title(Box::new(phrase(&["big", "quake"]))));
    assert_eq!(parse("source:\" The Daily \""), Query::Source("The Daily".to_owned()));
    assert_eq!(parse("SOURCE:daily"), Query::Source("daily".to_owned()));
    assert_eq!(parse("collection:\"US national\""), Query::Collection("US national".to_owned()));
    assert_eq!(parse("lang:ES"), Query::Language("es".to_owned()));
    assert_eq!(
        parse("lang:es -source:daily"),
        Query::And(vec![Query::Language("es".to_owned()), not(Query::Source("daily".to_owned()))])
    );
    // A colon that follows no field's name is part of the term.
    assert_eq!(parse("10:30"), phrase(&["10", "30"]));
}

#[test]
fn errors_say_where_and_what_was_expected() {
    for empty in ["", "   ", "... &"] {
        assert_eq!(error(empty), (1, "the query has no words to search for".to_owned()));
    }
    assert_eq!(error("a \"b c"), (3, "this quote is never closed".to_owned()));
    assert_eq!(
        error("(a OR b"),
        (8, "expected `)` to close the `(` at character 1, found the end of the query".to_owned())
    );
    assert_eq!(error("a)"), (2, "expected an operator, a term or the end, found `)`".to_owned()));
    assert_eq!(
        error("a OR"),
        (5, "expected a word, a phrase or `(`, found the end of the query".to_owned())
    );
    assert_eq!(error("OR a"), (1, "expected a word, a phrase or `(`, found `OR`".to_owned()));
    assert_eq!(
        error("a AND AND b"),
        (7, "expected a word, a phrase or `(`, found `AND`".to_owned())
    );
    assert_eq!(error("()"), (2, "expected a word, a phrase or `(`, found `)`".to_owned()));
    assert_eq!(
        error("source:"),
        (
            8,
            "expected a name after `source:` (quoted if it has spaces), found the end of the query"
                .to_owned()
        )
    );
    assert_eq!(
        error("lang:(es)"),
        (6, "expected a name after `lang:` (quoted if it has spaces), found `(`".to_owned())
    );
    assert_eq!(error("source:\"  \""), (1, "`source:` needs a name".to_owned()));
    assert_eq!(error("v*"), (1, "a prefix needs at least 2 letters before `*`".to_owned()));
    assert_eq!(error("a**"), (1, "a prefix is one word followed by one `*`".to_owned()));
    assert_eq!(error("new-yo*"), (1, "a prefix is one word followed by one `*`".to_owned()));
    assert_eq!(error("\"!!\""), (1, "this phrase has no words".to_owned()));
    // Positions count characters, not bytes.
    assert_eq!(error("東京 OR").0, 6);
    let deep = format!("{}a{}", "(".repeat(40), ")".repeat(40));
    assert!(error(&deep).1.contains("nested"), "{:?}", error(&deep));
    let long = "a ".repeat(MAX_QUERY_CHARS);
    assert!(error(&long).1.contains("longer than"));
    let message = Query::parse("a OR").unwrap_err().to_string();
    assert_eq!(
        message,
        "query: at character 5: expected a word, a phrase or `(`, found the end of the query"
    );
}

proptest! {
    #[test]
    fn arbitrary_queries_parse_or_fail_with_a_position_inside_them(
        text in r#"[a-zA-Zé東 ()"*:\-]{0,60}|(AND|OR|NOT|title:|lang:|source:|[a-z]{1,5}|[()"\-* ]){0,20}"#
    ) {
        match Query::parse(&text) {
            Ok(_) => {}
            Err(err) => prop_assert!(
                (1..=text.chars().count() + 1).contains(&err.position),
                "{text:?}: {err}"
            ),
        }
    }
}
