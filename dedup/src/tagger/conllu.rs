//! Reading CoNLL-U one line at a time, for `morgue tag` and for training.
//!
//! Only the two first columns, ID and FORM, must be there; missing columns count as `_`.
//! See <https://universaldependencies.org/format.html>.

use std::fmt;

/// The number of columns of a CoNLL-U token line.
pub const COLUMNS: usize = 10;

/// The index of the UPOS column.
pub const UPOS_COLUMN: usize = 3;

/// One line of a CoNLL-U file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'a> {
    /// An empty line: the end of a sentence.
    Blank,
    /// A comment, `# …`; `sent_id` and `text` comments are comments too.
    Comment(&'a str),
    /// A syntactic word, ID an integer from 1.
    Word(Fields<'a>),
    /// A multiword token, ID a range `a-b`; its words follow on their own lines.
    Range {
        /// The first word's ID.
        first: u32,
        /// The last word's ID.
        last: u32,
        /// The columns; FORM is the surface form.
        fields: Fields<'a>,
    },
    /// An empty node of an enhanced graph, ID `a.b`.
    Empty(Fields<'a>),
}

/// The columns of a token line, missing ones as `_`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields<'a> {
    /// ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC.
    pub columns: [&'a str; COLUMNS],
}

impl<'a> Fields<'a> {
    /// The word's or token's form.
    pub fn form(&self) -> &'a str {
        self.columns[1]
    }

    /// The UPOS column as written (`_` when unknown).
    pub fn upos(&self) -> &'a str {
        self.columns[UPOS_COLUMN]
    }

    /// The line again, tab-separated, with `upos` in the UPOS column.
    pub fn with_upos(&self, upos: &str) -> String {
        let mut columns = self.columns;
        columns[UPOS_COLUMN] = upos;
        columns.join("\t")
    }
}

/// Why a line is not CoNLL-U.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError(String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// Reads one line, without its line ending.
pub fn parse_line(line: &str) -> Result<Line<'_>, LineError> {
    if line.trim().is_empty() {
        return Ok(Line::Blank);
    }
    if let Some(comment) = line.strip_prefix('#') {
        return Ok(Line::Comment(comment));
    }
    let mut columns = ["_"; COLUMNS];
    let mut count = 0;
    for column in line.split('\t') {
        if count == COLUMNS {
            return Err(LineError(format!("more than {COLUMNS} tab-separated columns")));
        }
        columns[count] = column;
        count += 1;
    }
    if count < 2 {
        return Err(LineError("expected tab-separated ID and FORM columns".to_owned()));
    }
    let fields = Fields { columns };
    if fields.form().is_empty() {
        return Err(LineError("empty FORM column".to_owned()));
    }
    let id = columns[0];
    if let Some((first, last)) = id.split_once('-') {
        let (first, last) = (word_id(first), word_id(last));
        return match (first, last) {
            (Some(first), Some(last)) if first <= last => Ok(Line::Range { first, last, fields }),
            _ => Err(bad_id(id)),
        };
    }
    if let Some((word, node)) = id.split_once('.') {
        return match (word.parse::<u32>(), word_id(node)) {
            (Ok(_), Some(_)) => Ok(Line::Empty(fields)),
            _ => Err(bad_id(id)),
        };
    }
    match word_id(id) {
        Some(_) => Ok(Line::Word(fields)),
        None => Err(bad_id(id)),
    }
}

fn word_id(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&id| id > 0)
}

fn bad_id(id: &str) -> LineError {
    let shown: String = id.chars().take(20).collect();
    LineError(format!(
        "bad ID {shown:?}: expected a word number, a range like 1-2 or a node like 1.1"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_kinds() {
        assert_eq!(parse_line(""), Ok(Line::Blank));
        assert_eq!(parse_line("  "), Ok(Line::Blank));
        assert_eq!(parse_line("# text = Hi"), Ok(Line::Comment(" text = Hi")));
        let Ok(Line::Word(word)) = parse_line("1\tHi") else { panic!("a word") };
        assert_eq!(word.form(), "Hi");
        assert_eq!(word.upos(), "_");
        assert_eq!(word.with_upos("INTJ"), "1\tHi\t_\tINTJ\t_\t_\t_\t_\t_\t_");
        let full = "3\tdog\tdog\tNOUN\tNN\t_\t2\tobj\t_\tSpaceAfter=No";
        let Ok(Line::Word(word)) = parse_line(full) else { panic!("a word") };
        assert_eq!(word.with_upos("NOUN"), full);
        assert!(matches!(parse_line("1-2\tdu\t_"), Ok(Line::Range { first: 1, last: 2, .. })));
        assert!(matches!(parse_line("8.1\tgone"), Ok(Line::Empty(_))));
    }

    #[test]
    fn malformed_lines() {
        for line in ["word", "x\tword", "0\tword", "2-1\tdu", "1.x\ta", "1\t", "-1\tx", "1-\tx"] {
            assert!(parse_line(line).is_err(), "{line:?}");
        }
        let eleven = ["1"; 11].join("\t");
        assert!(parse_line(&eleven).unwrap_err().to_string().contains("more than 10"));
    }
}
