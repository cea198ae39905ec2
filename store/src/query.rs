//! The researchers' query language, parsed: words, `"exact phrases"`, `OR`, `AND`, `NOT` and
//! `-word`, parentheses, `prefix*`, and the fields `title:`, `source:`, `collection:` and `lang:`.
//!
//! ```text
//! flood OR flooding                    either word
//! "climate change" -hoax               the phrase, and not the word
//! (storm OR hurricane) AND NOT sport   operators in capitals; two terms side by side mean AND
//! title:(earthquake OR quake)          in the title
//! source:"The Daily" lang:es           stories of a source (by name), in a language
//! collection:"US national" vaccin*     stories of a collection's sources, words starting vaccin
//! ```
//!
//! Precedence, loosest first: `OR`, then `AND` (written or not), then `NOT` / `-`. Operators are
//! words in capitals; in lower case they are words to search for. Words are folded as the index
//! folds them ([`crate::search::words`]: case, compatibility forms, diacritics), so `Malmö` finds
//! `MALMO`; a term that folds to several words (`São-Paulo`) is the phrase of those words; a run of
//! Chinese, Japanese or Korean characters is the pairs of neighbours the index holds. Field values
//! of `source:`, `collection:` and `lang:` are names, compared as written (trimmed). A mistake is
//! reported with the character position where it was found and what was expected there
//! ([`ParseError`]).
//!
//! This module only parses; [`crate::matching`] selects the stories a [`Query`] matches.

use std::fmt;

use crate::search;

/// Most characters in a query (a longer one is refused, not cut).
pub const MAX_QUERY_CHARS: usize = 4_000;
/// Deepest nesting of parentheses and `NOT`s.
const MAX_DEPTH: usize = 32;
/// Fewest letters before a `*`: shorter prefixes would match most of the index.
pub const MIN_PREFIX_CHARS: usize = 2;

/// A parsed query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// Stories with every one of these folded words (a plain word is one; a CJK run its pairs).
    Words(Vec<String>),
    /// Stories with these folded words next to each other, in this order.
    Phrase(Vec<String>),
    /// Stories with a word that starts with this folded prefix.
    Prefix(String),
    /// The query, looked for in the title only.
    Title(Box<Query>),
    /// Stories of the source of this name.
    Source(String),
    /// Stories of the sources in the collection of this name.
    Collection(String),
    /// Stories in this language (an ISO 639-1 code, as stories are labelled).
    Language(String),
    /// Stories matching every part.
    And(Vec<Query>),
    /// Stories matching any part.
    Or(Vec<Query>),
    /// Stories not matching the query.
    Not(Box<Query>),
}

/// Why a query could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Character position (from 1) where the problem was found; one past the end for "the query
    /// ended too soon".
    pub position: usize,
    /// What was wrong, or what was expected there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "query: at character {}: {}", self.position, self.message)
    }
}

impl std::error::Error for ParseError {}

impl Query {
    /// Parses a query (module docs).
    pub fn parse(text: &str) -> Result<Query, ParseError> {
        let chars = text.chars().count();
        if chars > MAX_QUERY_CHARS {
            return Err(ParseError {
                position: MAX_QUERY_CHARS + 1,
                message: format!("the query is longer than {MAX_QUERY_CHARS} characters"),
            });
        }
        let tokens = lex(text)?;
        let mut parser = Parser { tokens, next: 0, end: chars + 1 };
        if parser.tokens.is_empty() {
            return Err(ParseError {
                position: 1,
                message: "the query has no words to search for".to_owned(),
            });
        }
        let query = parser.or(0)?;
        match parser.peek() {
            None => Ok(query),
            Some(token) => Err(parser.error_at(token, "expected an operator, a term or the end")),
        }
    }
}

/// A lexical token and the character position (from 1) where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    kind: Kind,
    position: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Open,
    Close,
    And,
    Or,
    Not,
    /// `-` right before a term or `(`.
    Minus,
    /// `title:` and the like.
    Field(Field),
    /// A word as written (with a trailing `*` for a prefix).
    Term(String),
    /// A quoted phrase's text.
    Phrase(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Title,
    Source,
    Collection,
    Language,
}

impl Field {
    fn of(name: &str) -> Option<Field> {
        match name.to_ascii_lowercase().as_str() {
            "title" => Some(Field::Title),
            "source" => Some(Field::Source),
            "collection" => Some(Field::Collection),
            "lang" | "language" => Some(Field::Language),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Source => "source",
            Field::Collection => "collection",
            Field::Language => "lang",
        }
    }
}

/// Characters that end a bare term.
fn ends_term(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '"')
}

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let position = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let kind = match c {
            '(' => {
                i += 1;
                Kind::Open
            }
            ')' => {
                i += 1;
                Kind::Close
            }
            '"' => {
                let close = chars[i + 1..].iter().position(|&c| c == '"').ok_or(ParseError {
                    position,
                    message: "this quote is never closed".to_owned(),
                })?;
                let phrase: String = chars[i + 1..i + 1 + close].iter().collect();
                i += close + 2;
                Kind::Phrase(phrase)
            }
            '-' if chars.get(i + 1).is_some_and(|&n| !n.is_whitespace() && n != ')') => {
                i += 1;
                Kind::Minus
            }
            _ => {
                let start = i;
                let mut field = None;
                while i < chars.len() && !ends_term(chars[i]) {
                    // A colon after a field's name ends the field; any other colon is part of the
                    // term (`10:30`, `http://`).
                    if chars[i] == ':' {
                        let name: String = chars[start..i].iter().collect();
                        if let Some(named) = Field::of(&name) {
                            i += 1;
                            field = Some(named);
                            break;
                        }
                    }
                    i += 1;
                }
                match field {
                    Some(field) => Kind::Field(field),
                    None => {
                        let word: String = chars[start..i].iter().collect();
                        match word.as_str() {
                            "AND" => Kind::And,
                            "OR" => Kind::Or,
                            "NOT" => Kind::Not,
                            // Punctuation standing alone (`a - b`, `Trump & Biden`) is no term.
                            _ if !word.chars().any(char::is_alphanumeric) => continue,
                            _ => Kind::Term(word),
                        }
                    }
                }
            }
        };
        tokens.push(Token { kind, position });
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    next: usize,
    /// The position one past the last character.
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn error_at(&self, token: &Token, message: &str) -> ParseError {
        ParseError {
            position: token.position,
            message: format!("{message}, found {}", describe(&token.kind)),
        }
    }

    fn expected(&self, message: &str) -> ParseError {
        match self.peek() {
            Some(token) => self.error_at(token, message),
            None => ParseError {
                position: self.end,
                message: format!("{message}, found the end of the query"),
            },
        }
    }

    fn deeper(&self, depth: usize) -> Result<usize, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.expected(&format!("at most {MAX_DEPTH} nested parentheses or NOTs")));
        }
        Ok(depth + 1)
    }

    /// `and ("OR" and)*`
    fn or(&mut self, depth: usize) -> Result<Query, ParseError> {
        let mut parts = vec![self.and(depth)?];
        while self.peek().is_some_and(|t| t.kind == Kind::Or) {
            self.next += 1;
            parts.push(self.and(depth)?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Query::Or(parts) })
    }

    /// `unary (["AND"] unary)*`
    fn and(&mut self, depth: usize) -> Result<Query, ParseError> {
        let mut parts = vec![self.unary(depth)?];
        loop {
            match self.peek().map(|t| &t.kind) {
                Some(Kind::And) => {
                    self.next += 1;
                    parts.push(self.unary(depth)?);
                }
                Some(Kind::Or | Kind::Close) | None => break,
                Some(_) => parts.push(self.unary(depth)?),
            }
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Query::And(parts) })
    }

    /// `("NOT" | "-") unary | primary`
    fn unary(&mut self, depth: usize) -> Result<Query, ParseError> {
        if self.peek().is_some_and(|t| matches!(t.kind, Kind::Not | Kind::Minus)) {
            self.next += 1;
            let depth = self.deeper(depth)?;
            return Ok(Query::Not(Box::new(self.unary(depth)?)));
        }
        self.primary(depth)
    }

    /// `"(" or ")" | field ":" value | term | phrase`
    fn primary(&mut self, depth: usize) -> Result<Query, ParseError> {
        let Some(token) = self.peek().cloned() else {
            return Err(self.expected("expected a word, a phrase or `(`"));
        };
        self.next += 1;
        match token.kind {
            Kind::Open => {
                let depth = self.deeper(depth)?;
                let inner = self.or(depth)?;
                match self.peek() {
                    Some(Token { kind: Kind::Close, .. }) => {
                        self.next += 1;
                        Ok(inner)
                    }
                    _ => Err(self.expected(&format!(
                        "expected `)` to close the `(` at character {}",
                        token.position
                    ))),
                }
            }
            Kind::Field(field) => self.field(field, token.position, depth),
            Kind::Term(word) => term(&word, token.position),
            Kind::Phrase(text) => {
                let words = search::phrase_words(&text);
                if words.is_empty() {
                    return Err(ParseError {
                        position: token.position,
                        message: "this phrase has no words".to_owned(),
                    });
                }
                Ok(if words.len() == 1 { Query::Words(words) } else { Query::Phrase(words) })
            }
            Kind::Close | Kind::And | Kind::Or | Kind::Not | Kind::Minus => {
                Err(self.error_at(&token, "expected a word, a phrase or `(`"))
            }
        }
    }

    /// What follows `field:`: for `title:` a term, a phrase or a group; for the others a name.
    fn field(&mut self, field: Field, position: usize, depth: usize) -> Result<Query, ParseError> {
        let make: fn(String) -> Query = match field {
            Field::Title => {
                let depth = self.deeper(depth)?;
                return Ok(Query::Title(Box::new(self.primary(depth)?)));
            }
            Field::Source => Query::Source,
            Field::Collection => Query::Collection,
            Field::Language => |code| Query::Language(code.to_ascii_lowercase()),
        };
        let value = match self.peek().map(|t| t.kind.clone()) {
            Some(Kind::Term(value) | Kind::Phrase(value)) => {
                self.next += 1;
                value.trim().to_owned()
            }
            _ => {
                return Err(self.expected(&format!(
                    "expected a name after `{}:` (quoted if it has spaces)",
                    field.name()
                )));
            }
        };
        if value.is_empty() {
            return Err(ParseError {
                position,
                message: format!("`{}:` needs a name", field.name()),
            });
        }
        Ok(make(value))
    }
}

/// A bare term: a word, a prefix (`vaccin*`), or several words once folded (a phrase).
fn term(word: &str, position: usize) -> Result<Query, ParseError> {
    if let Some(stem) = word.strip_suffix('*') {
        let words = search::words(stem);
        return match words.as_slice() {
            [_] if stem.contains('*') => Err(ParseError {
                position,
                message: "a prefix is one word followed by one `*`".to_owned(),
            }),
            [one] if one.chars().count() >= MIN_PREFIX_CHARS => Ok(Query::Prefix(one.clone())),
            [_] => Err(ParseError {
                position,
                message: format!("a prefix needs at least {MIN_PREFIX_CHARS} letters before `*`"),
            }),
            _ => Err(ParseError {
                position,
                message: "a prefix is one word followed by one `*`".to_owned(),
            }),
        };
    }
    let words = search::words(word);
    if words.is_empty() {
        // Letters or digits the index does not keep (a word longer than it indexes is still one).
        return Err(ParseError {
            position,
            message: format!("`{word}` has no letters or digits to search for"),
        });
    }
    if words.len() == 1 || word.chars().any(search::is_cjk) {
        return Ok(Query::Words(words));
    }
    Ok(Query::Phrase(search::phrase_words(word)))
}

fn describe(kind: &Kind) -> String {
    match kind {
        Kind::Open => "`(`".to_owned(),
        Kind::Close => "`)`".to_owned(),
        Kind::And => "`AND`".to_owned(),
        Kind::Or => "`OR`".to_owned(),
        Kind::Not => "`NOT`".to_owned(),
        Kind::Minus => "`-`".to_owned(),
        Kind::Field(field) => format!("`{}:`", field.name()),
        Kind::Term(word) => format!("`{word}`"),
        Kind::Phrase(text) => format!("\"{text}\""),
    }
}

#[cfg(test)]
mod tests;
