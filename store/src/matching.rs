//! Running a [`Query`] against the archive: which stories match, the same on SQLite and
//! PostgreSQL.
//!
//! A query is first [resolved](Matcher::new): `source:` and `collection:` names become the ids of
//! their sources (an unknown name is [`Error::NotFound`]). Then each backend's word index selects
//! the candidates, and Rust code decides where the index cannot:
//!
//! - Words, prefixes, `OR`, `AND` and `NOT` over them are answered by the index exactly. SQLite
//!   asks its FTS5 table (`"flood" AND ("storm" OR "hurri" *) NOT "sport"`); PostgreSQL a GIN
//!   index over a `tsvector` built from our own folded words (`array_to_tsvector`, no parser,
//!   no stemming) and stored with each story (`stories.search_terms`, a generated column of
//!   migration `m0014_story_days`), with the same tree as a `tsquery` (`'flood' & ('storm' |
//!   'hurri':*) & !'sport'`). Both hold exactly the words `search` wrote, so both find the same stories.
//! - Sources, collections and languages are plain column conditions.
//! - Phrases are answered by the index too: beside its words, each story keeps every pair of
//!   neighbouring words of its title and of its text (`stories.search_pairs`, `a·b`, see
//!   [`search`]), indexed with the words. A phrase of two words is its one pair, exactly; a longer
//!   phrase asks for all its pairs, a superset (the pairs may stand apart) that
//!   [`Matcher::matches`] checks over the folded title and text.
//! - `title:` is not in the index (title and text words are kept together): the index gives the
//!   stories with the words anywhere, and [`Matcher::matches`] checks each candidate's title.
//!
//! Pairs were chosen over positions in the index (FTS5 phrase queries, `tsvector` positions with
//! `<->`): PostgreSQL keeps at most 255 positions a word and none past 16,383, so its index would
//! miss phrases in long texts, and the two backends would have to agree on what a position is
//! (title and text apart, CJK pairs). A pair is one more term, the same on both backends, built by
//! one piece of Rust code; it costs about as much index as the words themselves.
//!
//! The condition is a superset of the matches, and [`Matcher::exact`] says when it is the
//! matches themselves (no phrase of three words or more and no `title:` where the index cannot tell,
//! every story's words written): callers that count in SQL need that; others run [`Matcher::matches`] on each
//! candidate, which is always right.

use sea_orm::DatabaseBackend;
use sea_orm::sea_query::{Expr, ExprTrait};

use crate::Archive;
use crate::entity::story;
use crate::error::{Error, Result};
use crate::query::Query;
use crate::search::{self, Indexed};
use crate::stories::Story;
use crate::text;

/// A query with its names resolved, ready to select stories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    node: Node,
}

/// A [`Query`] with `source:` and `collection:` turned into source ids.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Words(Vec<String>),
    Phrase(Vec<String>),
    Prefix(String),
    Title(Box<Node>),
    /// Stories of any of these sources (ascending).
    Sources(Vec<i64>),
    Language(String),
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    /// No story: words longer than the index keeps ([`search::MAX_WORD_BYTES`]).
    Never,
}

impl Matcher {
    /// Resolves the names of `query`'s sources and collections.
    pub async fn new(archive: &Archive, query: &Query) -> Result<Matcher> {
        Ok(Matcher { node: Box::pin(resolve(archive, query)).await? })
    }

    /// Whether the archive's condition for the query selects exactly the matching
    /// stories when every story's words are written; otherwise it selects a superset, and
    /// [`Matcher::matches`] decides.
    pub fn exact(&self) -> bool {
        sql(&self.node, &Scope { backend: DatabaseBackend::Sqlite, unindexed: false, ids: None }).1
    }

    /// The condition on `stories` that selects every matching story (and, with `unindexed`,
    /// also the stories whose words are not written yet), and whether it selects only them.
    pub(crate) fn condition(&self, backend: DatabaseBackend, unindexed: bool) -> (Expr, bool) {
        self.condition_within(&Scope { backend, unindexed, ids: None })
    }

    /// [`Matcher::condition`] for a statement that also keeps only the stories whose ids are in
    /// `scope.ids` (its caller's condition must say so): on SQLite the word index then lists only
    /// its matches in that range, where otherwise it lists every match before the statement keeps
    /// those of the range.
    pub(crate) fn condition_within(&self, scope: &Scope) -> (Expr, bool) {
        let (expr, exact) = sql(&self.node, scope);
        (expr.unwrap_or_else(|| Expr::cust("1 = 1")), exact)
    }

    /// The query as one index expression that every match satisfies (FTS5's `MATCH` or a
    /// `tsquery`), and the condition on the stories' columns for the rest of it (sources,
    /// languages), when the query is the two joined by `AND`: a statement can then start from the
    /// index's matches (SQLite: a join with the FTS5 table, which hands its matches over in id
    /// order) instead of testing each story for being among them. Exact when [`Matcher::exact`]
    /// is; `None` for other shapes (an `OR` of words and a source, say).
    pub(crate) fn index_join(&self, backend: DatabaseBackend) -> Option<(String, Option<Expr>)> {
        if let Some((expr, _)) = index_expr(&self.node, backend) {
            return Some((expr, None));
        }
        let Node::And(parts) = &self.node else { return None };
        let (words, others): (Vec<&Node>, Vec<&Node>) = parts.iter().partition(|part| {
            let inner = if let Node::Not(inner) = part { inner } else { *part };
            index_expr(inner, backend).is_some()
        });
        let words: Vec<Node> = words.into_iter().cloned().collect();
        let (expr, _) = index_and(&words, backend)?;
        let rest = others
            .into_iter()
            .map(|part| sql(part, &Scope { backend, unindexed: false, ids: None }).0)
            .collect::<Option<Vec<Expr>>>()?
            .into_iter()
            .reduce(Expr::and);
        Some((expr, rest))
    }

    /// Whether the query has a phrase of two words or more (answered by the index's pairs).
    pub(crate) fn has_phrase(&self) -> bool {
        fn any(node: &Node) -> bool {
            match node {
                Node::Phrase(words) => words.len() >= 2,
                Node::Title(inner) | Node::Not(inner) => any(inner),
                Node::And(parts) | Node::Or(parts) => parts.iter().any(any),
                _ => false,
            }
        }
        any(&self.node)
    }

    /// Whether a story matches: its folded title and searchable text, its source and language.
    pub fn matches(&self, story: &Story) -> bool {
        let title = search::fold(story.story.title.as_deref().unwrap_or_default());
        let text = search::fold(story.searchable());
        let doc = Doc {
            title: search::indexed(&title),
            text: search::indexed(&text),
            source_id: story.story.source_id,
            language: story.story.language.as_deref(),
        };
        eval(&self.node, &doc, false)
    }
}

async fn resolve(archive: &Archive, query: &Query) -> Result<Node> {
    Ok(match query {
        Query::Words(words) | Query::Phrase(words) if words.iter().any(|w| too_long(w)) => {
            Node::Never
        }
        Query::Prefix(prefix) if too_long(prefix) => Node::Never,
        Query::Words(words) => Node::Words(words.clone()),
        Query::Phrase(words) => Node::Phrase(words.clone()),
        Query::Prefix(prefix) => Node::Prefix(prefix.clone()),
        Query::Title(inner) => Node::Title(Box::new(Box::pin(resolve(archive, inner)).await?)),
        Query::Source(name) => match crate::sources::by_name(archive, name).await? {
            Some(source) => Node::Sources(vec![source.id]),
            None => return Err(Error::NotFound { what: format!("source {name:?}") }),
        },
        Query::Collection(name) => match crate::collections::by_name(archive, name).await? {
            Some(collection) => Node::Sources(collection.source_ids), // ascending
            None => return Err(Error::NotFound { what: format!("collection {name:?}") }),
        },
        Query::Language(code) => Node::Language(text::line(code).into_owned()),
        Query::And(parts) | Query::Or(parts) => {
            let mut nodes = Vec::with_capacity(parts.len());
            for part in parts {
                nodes.push(Box::pin(resolve(archive, part)).await?);
            }
            if matches!(query, Query::And(_)) { Node::And(nodes) } else { Node::Or(nodes) }
        }
        Query::Not(inner) => Node::Not(Box::new(Box::pin(resolve(archive, inner)).await?)),
    })
}

/// Whether the index never holds this word.
fn too_long(word: &str) -> bool {
    word.len() > search::MAX_WORD_BYTES
}

/// A search expression in the backend's index language (FTS5 `MATCH`, or a `tsquery`), and
/// whether it selects exactly the matches; `None` when part of `node` is not about words.
fn index_expr(node: &Node, backend: DatabaseBackend) -> Option<(String, bool)> {
    let postgres = backend == DatabaseBackend::Postgres;
    let lexeme = |word: &str| {
        if postgres {
            format!("'{}'", word.replace('\\', "\\\\").replace('\'', "''"))
        } else {
            format!("\"{}\"", word.replace('"', "\"\""))
        }
    };
    let (and, or) = if postgres { (" & ", " | ") } else { (" AND ", " OR ") };
    let all = |words: &[String]| {
        format!("({})", words.iter().map(|w| lexeme(w)).collect::<Vec<_>>().join(and))
    };
    match node {
        Node::Words(words) => Some((all(words), true)),
        // Two words: the one pair, exactly. More: every pair of neighbours, in any order, so a
        // superset that [`Matcher::matches`] decides.
        Node::Phrase(words) if words.len() >= 2 => {
            let pairs: Vec<String> =
                words.windows(2).map(|pair| search::pair(&pair[0], &pair[1])).collect();
            Some((all(&pairs), words.len() == 2))
        }
        Node::Phrase(words) => Some((all(words), false)),
        Node::Prefix(prefix) => {
            Some((format!("{}{}", lexeme(prefix), if postgres { ":*" } else { " *" }), true))
        }
        Node::Title(inner) => index_expr(inner, backend).map(|(expr, _)| (expr, false)),
        Node::And(parts) => index_and(parts, backend),
        Node::Or(parts) => {
            let mut exprs = Vec::with_capacity(parts.len());
            let mut exact = true;
            for part in parts {
                let (expr, part_exact) = index_expr(part, backend)?;
                exprs.push(expr);
                exact &= part_exact;
            }
            Some((format!("({})", exprs.join(or)), exact))
        }
        Node::Not(_) | Node::Sources(_) | Node::Language(_) | Node::Never => None,
    }
}

/// The parts of an `AND` as one index expression: its positive parts, less its negated ones
/// (FTS5 has only a binary `NOT`, so at least one part must be positive). A negated part the
/// index cannot decide exactly is left to [`Matcher::matches`].
fn index_and(parts: &[Node], backend: DatabaseBackend) -> Option<(String, bool)> {
    let postgres = backend == DatabaseBackend::Postgres;
    let mut positive = Vec::new();
    let mut negative = Vec::new();
    let mut exact = true;
    for part in parts {
        if let Node::Not(inner) = part {
            match index_expr(inner, backend)? {
                (expr, true) => negative.push(expr),
                (_, false) => exact = false,
            }
        } else {
            let (expr, part_exact) = index_expr(part, backend)?;
            positive.push(expr);
            exact &= part_exact;
        }
    }
    if positive.is_empty() {
        return None;
    }
    let mut expr = format!("({})", positive.join(if postgres { " & " } else { " AND " }));
    for not in negative {
        expr = if postgres { format!("({expr} & !{not})") } else { format!("({expr} NOT {not})") };
    }
    Some((expr, exact))
}

/// How a condition asks the word index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope {
    pub(crate) backend: DatabaseBackend,
    /// Whether the stories whose words are not written yet are let through.
    pub(crate) unindexed: bool,
    /// The least and greatest id of the stories the statement keeps, when it keeps only those
    /// (SQLite hands the range to FTS5, which lists only its matches in it).
    pub(crate) ids: Option<(i64, i64)>,
}

/// The stories an index expression selects (and, with `unindexed`, those without words).
fn index_condition(expr: String, scope: &Scope) -> Expr {
    let selects = match (scope.backend, scope.ids) {
        (DatabaseBackend::Postgres, _) => {
            Expr::cust_with_values(r#""stories"."search_terms" @@ CAST($1 AS tsquery)"#, [expr])
        }
        (_, None) => Expr::cust_with_values(
            r#""stories"."id" IN (SELECT rowid FROM story_search WHERE story_search MATCH ?)"#,
            [expr],
        ),
        (_, Some((least, greatest))) => Expr::cust_with_values(
            r#""stories"."id" IN (SELECT rowid FROM story_search WHERE story_search MATCH ? AND rowid >= ? AND rowid <= ?)"#,
            [sea_orm::Value::from(expr), least.into(), greatest.into()],
        ),
    };
    if scope.unindexed {
        selects.or(Expr::col((story::Entity, story::Column::SearchWords)).is_null())
    } else {
        selects
    }
}

/// The condition selecting a superset of `node`'s matches (`None`: every story), and whether it
/// selects exactly them.
fn sql(node: &Node, scope: &Scope) -> (Option<Expr>, bool) {
    let backend = scope.backend;
    if let Some((expr, exact)) = index_expr(node, backend) {
        return (Some(index_condition(expr, scope)), exact && !scope.unindexed);
    }
    match node {
        Node::Sources(ids) => (
            Some(Expr::col((story::Entity, story::Column::SourceId)).is_in(ids.iter().copied())),
            true,
        ),
        Node::Language(code) => {
            let column = || Expr::col((story::Entity, story::Column::Language));
            // Never NULL, so that its `NOT` is the stories in other languages or in none.
            (Some(column().is_not_null().and(column().eq(code.as_str()))), true)
        }
        Node::Never => (Some(Expr::cust("1 = 0")), true),
        Node::Title(inner) => (sql(inner, scope).0, false),
        Node::And(parts) => {
            // The parts the index answers, as one expression; the others one by one.
            let (words, others): (Vec<&Node>, Vec<&Node>) = parts.iter().partition(|part| {
                let inner = if let Node::Not(inner) = part { inner } else { *part };
                index_expr(inner, backend).is_some()
            });
            let mut exprs = Vec::new();
            let mut exact = true;
            let mut rest = others;
            let words: Vec<Node> = words.into_iter().cloned().collect();
            match index_and(&words, backend) {
                Some((expr, words_exact)) => {
                    exprs.push(index_condition(expr, scope));
                    exact &= words_exact && !scope.unindexed;
                }
                None => rest.extend(parts.iter().filter(|part| words.contains(part))),
            }
            for part in rest {
                let (expr, part_exact) = sql(part, scope);
                exprs.extend(expr);
                exact &= part_exact;
            }
            (exprs.into_iter().reduce(Expr::and), exact)
        }
        Node::Or(parts) => {
            let mut exprs = Vec::with_capacity(parts.len());
            let mut exact = true;
            for part in parts {
                let (expr, part_exact) = sql(part, scope);
                let Some(expr) = expr else { return (None, false) };
                exprs.push(expr);
                exact &= part_exact;
            }
            (exprs.into_iter().reduce(Expr::or), exact)
        }
        Node::Not(inner) => match sql(inner, scope) {
            (Some(expr), true) => (Some(expr.not()), true),
            _ => (None, false),
        },
        // Answered by the index above.
        Node::Words(_) | Node::Phrase(_) | Node::Prefix(_) => (None, false),
    }
}

/// What a story is matched against.
struct Doc<'a> {
    title: Indexed<'a>,
    text: Indexed<'a>,
    source_id: i64,
    language: Option<&'a str>,
}

fn eval(node: &Node, doc: &Doc<'_>, title_only: bool) -> bool {
    let parts: &[&Indexed<'_>] = if title_only { &[&doc.title] } else { &[&doc.title, &doc.text] };
    let has = |word: &String| parts.iter().any(|part| part.words.contains(word.as_str()));
    match node {
        Node::Words(words) => words.iter().all(has),
        Node::Phrase(words) => {
            words.iter().all(has) && parts.iter().any(|part| part.has_run(words))
        }
        Node::Prefix(prefix) => {
            parts.iter().any(|part| part.words.iter().any(|word| word.starts_with(prefix.as_str())))
        }
        Node::Title(inner) => eval(inner, doc, true),
        Node::Sources(ids) => ids.binary_search(&doc.source_id).is_ok(),
        Node::Language(code) => doc.language == Some(code.as_str()),
        Node::And(nodes) => nodes.iter().all(|node| eval(node, doc, title_only)),
        Node::Or(nodes) => nodes.iter().any(|node| eval(node, doc, title_only)),
        Node::Not(inner) => !eval(inner, doc, title_only),
        Node::Never => false,
    }
}

impl Indexed<'_> {
    /// Whether `words` follow each other in this text.
    fn has_run(&self, words: &[String]) -> bool {
        !words.is_empty() && self.sequence.windows(words.len()).any(|window| window == words)
    }
}
