//! A word tokenizer for raw text, close to the Universal Dependencies conventions.
//!
//! Text is cut at white space; then punctuation is split off the ends of each piece, except
//! where it belongs to the word:
//!
//! - numbers keep their inner separators: `1,234.5`, `12:30`, `2024-01-05`, `3/4`;
//! - words keep inner hyphens, apostrophes, periods and at signs: `well-known`, `U.S.`,
//!   `jean-pierre`, `a.m.`, `user@example.com`;
//! - a trailing period stays on abbreviations: a piece with an inner period (`U.S.`, `e.g.`), a
//!   single letter (`J.`) or a known short title (`Dr.`, `Mr.`, `St.`, `Sr.`, `Jr.`, …);
//! - URLs (`scheme://…`, `www.…`) stay whole, less a trailing punctuation mark;
//! - French and Italian elisions are split after the apostrophe (`l'homme` → `l'` `homme`,
//!   `dall'ONU` → `dall'` `ONU`), and English clitics before it (`don't` → `do` `n't`,
//!   `it's` → `it` `'s`), as the treebanks do;
//! - every other punctuation mark or symbol is a token of its own (`"Yes!"` → `"` `Yes` `!` `"`),
//!   runs of the same mark stay together (`...`, `!!`, `--`).
//!
//! Tokens are slices of the input, in order; nothing is dropped but white space.

/// Splits `text` into word and punctuation tokens.
pub fn tokenize(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for piece in text.split(char::is_whitespace).filter(|piece| !piece.is_empty()) {
        split_piece(piece, &mut tokens);
    }
    tokens
}

/// Splits tokens into sentences after `.`, `!`, `?`, `…` and runs of them (closing quotes and
/// brackets right after stay with the sentence; a straight quote closes when the sentence has
/// an odd number of them).
pub fn sentences<'a, 'b>(tokens: &'b [&'a str]) -> Vec<&'b [&'a str]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut open_quotes = 0;
    while i < tokens.len() {
        if tokens[i] == "\"" {
            open_quotes += 1;
        }
        if is_sentence_end(tokens[i]) {
            let mut end = i + 1;
            while end < tokens.len() {
                let token = tokens[end];
                if token == "\"" && open_quotes % 2 == 1 {
                    open_quotes += 1;
                } else if !is_sentence_end(token) && !is_closing(token) {
                    break;
                }
                end += 1;
            }
            open_quotes = 0;
            out.push(&tokens[start..end]);
            start = end;
            i = end;
        } else {
            i += 1;
        }
    }
    if start < tokens.len() {
        out.push(&tokens[start..]);
    }
    out
}

fn is_sentence_end(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|ch| matches!(ch, '.' | '!' | '?' | '…' | '。'))
}

fn is_closing(token: &str) -> bool {
    matches!(token, "”" | "’" | "»" | ")" | "]")
}

/// Short words that take a period as abbreviations.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "sra", "srta", "no", "nr", "vs", "etc",
    "inc", "ltd", "co", "corp", "gen", "gov", "sen", "rep", "jan", "feb", "mar", "apr", "jun",
    "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mme", "mlle", "hr", "fr", "dhr", "bzw",
    "ca", "z.b", "u.a", "kr", "pág", "núm", "art", "av", "vol", "ed", "pp", "p",
];

/// Marks that may stand inside a word or number, joining the characters around them.
fn is_joiner(ch: char) -> bool {
    matches!(ch, '-' | '\'' | '’' | '.' | ',' | ':' | '/' | '@' | '_' | '&' | '·' | '‑')
}

fn split_piece<'a>(piece: &'a str, tokens: &mut Vec<&'a str>) {
    if piece.contains("://") || piece.starts_with("www.") {
        let core = piece.trim_end_matches(|ch: char| ".,;:!?)]\"'”’»".contains(ch));
        let core = if core.is_empty() { piece } else { core };
        tokens.push(core);
        split_marks(&piece[core.len()..], tokens);
        return;
    }
    // Leading marks.
    let start = piece.find(|ch: char| ch.is_alphanumeric()).unwrap_or(piece.len());
    split_marks(&piece[..start], tokens);
    let rest = &piece[start..];
    if rest.is_empty() {
        return;
    }
    // The word runs while letters and digits follow, or a joiner with a letter or digit after it.
    let chars: Vec<(usize, char)> = rest.char_indices().collect();
    let mut end = 0;
    for (k, &(at, ch)) in chars.iter().enumerate() {
        let joins = is_joiner(ch)
            && chars.get(k + 1).is_some_and(|&(_, next)| next.is_alphanumeric())
            && k > 0;
        if ch.is_alphanumeric() || is_mark(ch) || joins {
            end = at + ch.len_utf8();
        } else {
            break;
        }
    }
    let mut word = &rest[..end];
    let mut after = &rest[end..];
    // A period after an abbreviation stays with it.
    if after.starts_with('.') && is_abbreviation(word) && !after[1..].starts_with('.') {
        word = &rest[..end + 1];
        after = &rest[end + 1..];
    }
    split_word(word, tokens);
    // Anything after the word is marks and maybe more words (`"Yes!"No`): split it again.
    if !after.is_empty() {
        let next_word = after.find(|ch: char| ch.is_alphanumeric()).unwrap_or(after.len());
        split_marks(&after[..next_word], tokens);
        if next_word < after.len() {
            split_piece(&after[next_word..], tokens);
        }
    }
}

/// Combining marks belong to the letter before them.
fn is_mark(ch: char) -> bool {
    matches!(ch as u32, 0x0300..=0x036f | 0x0483..=0x0489 | 0x0591..=0x05bd | 0x064b..=0x065f)
}

fn is_abbreviation(word: &str) -> bool {
    let lower = word.to_lowercase();
    let single_letter = word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    let dotted = word.contains('.') && word.chars().any(char::is_alphabetic);
    single_letter || dotted || ABBREVIATIONS.contains(&lower.as_str())
}

/// Splits elisions and clitics off a word.
fn split_word<'a>(word: &'a str, tokens: &mut Vec<&'a str>) {
    let apostrophe = word.find(['\'', '’']);
    if let Some(at) = apostrophe {
        let (head, tail) = word.split_at(at);
        let mark = tail.chars().next().map_or(1, char::len_utf8);
        let after = &tail[mark..];
        let lower_tail = tail.to_lowercase().replace('’', "'");
        // English clitics: split before the apostrophe (and before n't).
        if head.to_lowercase().ends_with('n') && lower_tail == "'t" && head.chars().count() > 1 {
            let cut = head.len() - 1;
            tokens.push(&word[..cut]);
            tokens.push(&word[cut..]);
            return;
        }
        if matches!(lower_tail.as_str(), "'s" | "'re" | "'ve" | "'ll" | "'d" | "'m")
            && !head.is_empty()
        {
            tokens.push(head);
            tokens.push(tail);
            return;
        }
        // Elisions: a short, lower-case head (`l'`, `d'`, `qu'`, `dall'`, `nell'`).
        let head_chars = head.chars().count();
        let lower_head = head.chars().all(char::is_lowercase) || head_chars == 1;
        if (1..=5).contains(&head_chars)
            && lower_head
            && after.chars().next().is_some_and(char::is_alphabetic)
            && !(head_chars == 1
                && head.chars().all(char::is_uppercase)
                && after.chars().next().is_some_and(char::is_uppercase))
        {
            tokens.push(&word[..at + mark]);
            split_word(after, tokens);
            return;
        }
    }
    tokens.push(word);
}

/// Splits a run of marks into tokens, keeping runs of the same mark together.
fn split_marks<'a>(marks: &'a str, tokens: &mut Vec<&'a str>) {
    let mut start = 0;
    let mut previous: Option<char> = None;
    for (at, ch) in marks.char_indices() {
        if previous.is_some_and(|p| p != ch) {
            tokens.push(&marks[start..at]);
            start = at;
        }
        previous = Some(ch);
    }
    if start < marks.len() {
        tokens.push(&marks[start..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, expected: &[&str]) {
        assert_eq!(tokenize(text), expected, "{text:?}");
    }

    #[test]
    fn words_and_punctuation() {
        check("Hello, world!", &["Hello", ",", "world", "!"]);
        check("\"Yes,\" she said.", &["\"", "Yes", ",", "\"", "she", "said", "."]);
        check("(see below)...", &["(", "see", "below", ")", "..."]);
        check("Wait!!", &["Wait", "!!"]);
        check("  \t\n", &[]);
        check("«Bonjour»", &["«", "Bonjour", "»"]);
        check("¿Qué?", &["¿", "Qué", "?"]);
    }

    #[test]
    fn numbers_stay_whole() {
        check(
            "It cost $1,234.50 on 2024-01-05 at 12:30.",
            &["It", "cost", "$", "1,234.50", "on", "2024-01-05", "at", "12:30", "."],
        );
        check("3/4 of 1.000.000 (5%)", &["3/4", "of", "1.000.000", "(", "5", "%", ")"]);
    }

    #[test]
    fn abbreviations_keep_their_period() {
        check(
            "The U.S. and Dr. Smith, e.g. here.",
            &["The", "U.S.", "and", "Dr.", "Smith", ",", "e.g.", "here", "."],
        );
        check("J. R. R. Tolkien", &["J.", "R.", "R.", "Tolkien"]);
        check("It ended.", &["It", "ended", "."]);
    }

    #[test]
    fn hyphens_urls_and_addresses() {
        check(
            "a well-known state-of-the-art tool",
            &["a", "well-known", "state-of-the-art", "tool"],
        );
        check(
            "See https://example.com/a?b=1, or www.example.org.",
            &["See", "https://example.com/a?b=1", ",", "or", "www.example.org", "."],
        );
        check("mail user@example.com now", &["mail", "user@example.com", "now"]);
        check("- dash -- and —", &["-", "dash", "--", "and", "—"]);
    }

    #[test]
    fn elisions_and_clitics() {
        check("l'homme d'affaires qu'il", &["l'", "homme", "d'", "affaires", "qu'", "il"]);
        check("dall'ONU", &["dall'", "ONU"]);
        check("don't it's we're O'Brien", &["do", "n't", "it", "'s", "we", "'re", "O'Brien"]);
        check("John’s", &["John", "’s"]);
    }

    #[test]
    fn sentences_end_at_final_marks() {
        let tokens = tokenize("He left. \"Why?\" she asked! OK");
        let split = sentences(&tokens);
        assert_eq!(
            split,
            [&["He", "left", "."][..], &["\"", "Why", "?", "\""], &["she", "asked", "!"], &["OK"]]
        );
        assert!(sentences(&[]).is_empty());
    }
}
