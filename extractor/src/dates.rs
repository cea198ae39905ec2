//! Parsing dates as pages write them, finding the dates a page shows by its headline, choosing the
//! publication date, and the plausibility rule applied to every candidate.
//!
//! Machine-readable values (`parse`): ISO 8601 and its common relatives (`2024-05-01`,
//! `2024-05-01T10:00:00Z`, `2024-05-01 10:00:00+0200`, `2024/05/01`), RFC 2822
//! (`Wed, 01 May 2024 10:00:00 GMT`), Unix timestamps (ten digits), else the first date of the text.
//! Running text (`find_in_text`): month names in English, French, German, Spanish, Portuguese,
//! Italian, Dutch, Swedish, Danish, Indonesian, Polish, Russian, Ukrainian and Turkish, numeric dates,
//! ISO dates and CJK dates, each with the label the words before it give ("Published", "Updated",
//! in those languages too). Dates in URLs are read from `/2024/05/01/`, `/2024/may/01/`,
//! `/2024-05-01`, `/20240501` and `/2024/05/` (the first of the month).
//!
//! The dates shown by the headline (`near_headline`) are weighed against the metadata's by
//! `choose`, whose docs give the rules.
//!
//! A numeric date with slashes whose two first numbers could both be the month (`03/12/2024`) is
//! read the way the page's language and country write dates (`SlashOrder::of_page`): month first
//! in American English (and English pages that give no country), day first everywhere else;
//! dots and dashes are read day first whatever the language.
//!
//! Rule: a date is rejected when it is before [`MIN_YEAR`] or later than "now" plus
//! [`FUTURE_TOLERANCE_HOURS`] (time zones and clock skew justify a day; Media Cloud allows 90 days,
//! which let through obviously wrong dates). A date without a time is taken as midnight, and a time
//! without an offset as UTC. The offset written on the page is kept, so the local calendar day stays
//! what the page says.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

use crate::Field;

/// Which number comes first in a numeric date written with slashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SlashOrder {
    /// `03/12/2024` is March 12 (American English; the reading when nothing says otherwise).
    #[default]
    MonthFirst,
    /// `03/12/2024` is the 3rd of December (the rest of the world).
    DayFirst,
}

/// Countries of English-language pages that write the month first.
const MONTH_FIRST_COUNTRIES: &[&str] =
    &["us", "ph", "fm", "pw", "mh", "um", "as", "gu", "pr", "vi"];

/// Top-level domains of countries whose English-language pages write the day first.
const DAY_FIRST_DOMAINS: &[&str] = &[
    "uk", "ie", "au", "nz", "in", "za", "ng", "ke", "gh", "pk", "bd", "lk", "sg", "my", "hk", "mt",
    "jm", "tt", "ug", "tz", "zw", "zm", "bw", "na", "mw",
];

impl SlashOrder {
    /// The convention of a page: from its declared language (`de`, `en-gb`, `tr`) and, for English
    /// without a country, from its URL's top-level domain (`.co.uk`, `.com.au`). A page that
    /// declares no language keeps the month-first reading.
    pub(crate) fn of_page(language: Option<&str>, url: Option<&str>) -> SlashOrder {
        let Some(language) = language else { return SlashOrder::MonthFirst };
        let mut parts = language.split(['-', '_']);
        let primary = parts.next().unwrap_or_default().to_ascii_lowercase();
        if primary.is_empty() {
            return SlashOrder::MonthFirst;
        }
        if primary != "en" {
            return SlashOrder::DayFirst;
        }
        if let Some(country) = parts.find(|p| p.len() == 2) {
            let country = country.to_ascii_lowercase();
            return if MONTH_FIRST_COUNTRIES.contains(&country.as_str()) {
                SlashOrder::MonthFirst
            } else {
                SlashOrder::DayFirst
            };
        }
        let tld = url
            .and_then(|u| url::Url::parse(u).ok())
            .and_then(|u| u.host_str().and_then(|h| h.rsplit('.').next().map(str::to_owned)));
        match tld {
            Some(tld) if DAY_FIRST_DOMAINS.contains(&tld.as_str()) => SlashOrder::DayFirst,
            _ => SlashOrder::MonthFirst,
        }
    }
}

/// Dates before this year are rejected as impossible for a web page.
pub const MIN_YEAR: i32 = 1990;

/// How far after "now" a date may lie and still be accepted.
pub const FUTURE_TOLERANCE_HOURS: i64 = 26;

/// Whether a parsed date is plausible for a page fetched at `now`.
pub(crate) fn plausible(date: &DateTime<FixedOffset>, now: DateTime<Utc>) -> bool {
    use chrono::Datelike;
    date.year() >= MIN_YEAR
        && date.with_timezone(&Utc) <= now + chrono::Duration::hours(FUTURE_TOLERANCE_HOURS)
}

/// Parses a date as found in metadata or a `<time datetime>` attribute.
pub(crate) fn parse(text: &str) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    if text.is_empty() || text.len() > 120 {
        return None;
    }
    if let Ok(date) = DateTime::parse_from_rfc3339(text) {
        return Some(date);
    }
    if let Some(date) = parse_iso_like(text) {
        return Some(date);
    }
    if let Ok(date) = DateTime::parse_from_rfc2822(text) {
        return Some(date);
    }
    if text.len() == 10 && text.bytes().all(|b| b.is_ascii_digit()) {
        let seconds: i64 = text.parse().ok()?;
        return Utc.timestamp_opt(seconds, 0).single().map(|d| d.fixed_offset());
    }
    parse_textual(text)
}

/// ISO 8601 with the usual liberties: space or `T`, `/` or `.` separators, fractional seconds,
/// offsets written `Z`, `+02:00`, `+0200` or `+02`, and trailing zone names ignored.
fn parse_iso_like(text: &str) -> Option<DateTime<FixedOffset>> {
    let bytes = text.as_bytes();
    if bytes.len() < 8 || !bytes[..4].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let year: i32 = text[..4].parse().ok()?;
    let (month, day, rest) = if matches!(bytes[4], b'-' | b'/' | b'.') {
        let sep = bytes[4];
        let rest = &text[5..];
        let (month, rest) = take_number(rest, 2)?;
        let rest = rest.strip_prefix(sep as char)?;
        let (day, rest) = take_number(rest, 2)?;
        (month, day, rest)
    } else if bytes[..8].iter().all(u8::is_ascii_digit) {
        (text[4..6].parse().ok()?, text[6..8].parse().ok()?, &text[8..])
    } else {
        return None;
    };
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    let rest = rest.trim_start_matches(['T', ' ', 't']);
    let (time, rest) = if rest.len() >= 5 && rest.as_bytes()[2] == b':' {
        let (hour, r) = take_number(rest, 2)?;
        let r = r.strip_prefix(':')?;
        let (minute, r) = take_number(r, 2)?;
        let (second, r) = match r.strip_prefix(':') {
            Some(r) => take_number(r, 2)?,
            None => (0, r),
        };
        let r = match r.strip_prefix(['.', ',']) {
            Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
            None => r,
        };
        (NaiveTime::from_hms_opt(hour, minute, second.min(59))?, r)
    } else {
        (NaiveTime::MIN, rest)
    };
    let naive = NaiveDateTime::new(date, time);
    let offset = parse_offset(rest.trim()).unwrap_or(FixedOffset::east_opt(0)?);
    offset.from_local_datetime(&naive).single()
}

/// Reads up to `max` leading digits (at least one).
fn take_number(text: &str, max: usize) -> Option<(u32, &str)> {
    let len = text.bytes().take(max).take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return None;
    }
    Some((text[..len].parse().ok()?, &text[len..]))
}

/// An offset such as `Z`, `+02:00`, `+0200`, `-05` or `GMT`/`UTC`.
fn parse_offset(text: &str) -> Option<FixedOffset> {
    let upper = text.to_ascii_uppercase();
    if upper.starts_with('Z') || upper.starts_with("UTC") || upper.starts_with("GMT") {
        return FixedOffset::east_opt(0);
    }
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = text[1..].chars().filter(char::is_ascii_digit).take(4).collect();
    let (hours, minutes) = match digits.len() {
        2 => (digits.parse::<i32>().ok()?, 0),
        4 => (digits[..2].parse::<i32>().ok()?, digits[2..].parse::<i32>().ok()?),
        _ => return None,
    };
    FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60))
}

/// Month names and abbreviations, lower-case, in the languages news is archived in.
const MONTHS: &[(&str, u32)] = &[
    // English.
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
    // French.
    ("janvier", 1),
    ("février", 2),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    ("janv", 1),
    ("févr", 2),
    ("fév", 2),
    ("avr", 4),
    ("juil", 7),
    ("déc", 12),
    // German.
    ("januar", 1),
    ("jänner", 1),
    ("februar", 2),
    ("märz", 3),
    ("maerz", 3),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("dezember", 12),
    ("mär", 3),
    ("okt", 10),
    ("dez", 12),
    // Spanish.
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    // Portuguese.
    ("janeiro", 1),
    ("fevereiro", 2),
    ("março", 3),
    ("marco", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("novembro", 11),
    ("dezembro", 12),
    // Italian.
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    // Dutch, Swedish, Danish, Indonesian.
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mei", 5),
    ("augustus", 8),
    ("marts", 3),
    ("maj", 5),
    ("augusti", 8),
    ("maret", 3),
    ("agustus", 8),
    ("desember", 12),
    // Polish (genitive, as dates write them).
    ("stycznia", 1),
    ("lutego", 2),
    ("marca", 3),
    ("kwietnia", 4),
    ("maja", 5),
    ("czerwca", 6),
    ("lipca", 7),
    ("sierpnia", 8),
    ("września", 9),
    ("października", 10),
    ("listopada", 11),
    ("grudnia", 12),
    // Russian (genitive).
    ("января", 1),
    ("февраля", 2),
    ("марта", 3),
    ("апреля", 4),
    ("мая", 5),
    ("июня", 6),
    ("июля", 7),
    ("августа", 8),
    ("сентября", 9),
    ("октября", 10),
    ("ноября", 11),
    ("декабря", 12),
    // Ukrainian (genitive).
    ("січня", 1),
    ("лютого", 2),
    ("березня", 3),
    ("квітня", 4),
    ("травня", 5),
    ("червня", 6),
    ("липня", 7),
    ("серпня", 8),
    ("вересня", 9),
    ("жовтня", 10),
    ("листопада", 11),
    ("грудня", 12),
    // Turkish.
    ("ocak", 1),
    ("şubat", 2),
    ("mart", 3),
    ("nisan", 4),
    ("mayıs", 5),
    ("haziran", 6),
    ("temmuz", 7),
    ("ağustos", 8),
    ("eylül", 9),
    ("ekim", 10),
    ("kasım", 11),
    ("aralık", 12),
];

/// Month number of a month name or abbreviation in any language of [`MONTHS`].
fn month_of(word: &str) -> Option<u32> {
    if word.len() > 24 {
        return None;
    }
    let lower = word.to_lowercase();
    MONTHS.iter().find(|(name, _)| *name == lower).map(|&(_, m)| m)
}

/// Words that announce an update rather than the publication (stems, lower-case).
const UPDATED_WORDS: &[&str] = &[
    "updat",
    "modifi",
    "revised",
    "reviewed",
    "edited",
    "aktuali",
    "geändert",
    "actualiz",
    "atualiz",
    "aggiorn",
    "mis à jour",
    "mise à jour",
    "bijgewerkt",
    "gewijzigd",
    "обновл",
    "uppdater",
    "opdater",
    "oppdater",
    "güncel",
    "diperbarui",
    "оновл",
];

/// Words that announce the publication (stems, lower-case).
const PUBLISHED_WORDS: &[&str] = &[
    "publi",
    "pubblic",
    "posted",
    "created",
    "submitted",
    "veröffentlicht",
    "erschienen",
    "geplaatst",
    "опублик",
    "опублік",
    "yayın",
    "diterbitkan",
];

/// What the words before a date shown on the page say about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    /// "Published", "Posted", "Veröffentlicht"...
    Published,
    /// "Updated", "Last modified", "Mis à jour"...
    Updated,
    /// Nothing: a bare date.
    Bare,
}

/// The label announced by a stretch of text: the last keyword in it wins.
fn label_of(text: &str) -> Label {
    let lower = text.to_lowercase();
    let last = |words: &[&str]| words.iter().filter_map(|w| lower.rfind(w)).max();
    match (last(PUBLISHED_WORDS), last(UPDATED_WORDS)) {
        (Some(p), Some(u)) if p > u => Label::Published,
        (_, Some(_)) => Label::Updated,
        (Some(_), None) => Label::Published,
        (None, None) => Label::Bare,
    }
}

/// A date written in running text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shown {
    pub(crate) date: DateTime<FixedOffset>,
    /// The other reading of an all-numeric date such as `03/04/2024`, when both are valid dates.
    pub(crate) alternative: Option<DateTime<FixedOffset>>,
    /// What the words between the previous date (or the start) and this one say.
    pub(crate) label: Label,
    /// Byte range of the date in the text.
    pub(crate) span: std::ops::Range<usize>,
    /// Whether it is written the ISO way (`2024-05-01`), year first.
    pub(crate) iso: bool,
    /// Whether the time of day and offset were written too, so the instant is known.
    pub(crate) exact: bool,
}

/// One token of running text for the date scanner.
#[derive(Debug, Clone, Copy)]
struct Token<'t> {
    text: &'t str,
    start: usize,
    kind: TokenKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    /// Digits only.
    Number,
    /// Digits with `.`, `/` or `-` between them: `12.05.2024`, `2024-05-12`.
    Numeric,
    /// Letters.
    Word,
}

/// Cuts text into numbers, numeric dates and words. Words also break where case goes from lower to
/// upper and where letters meet digits, because inline elements are often glued together
/// ("HealthDECEMBER 22, 2022Updated"); each character of a script without case is its own word.
fn tokenize(text: &str, max: usize) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if tokens.len() >= max {
            break;
        }
        if c.is_ascii_digit() {
            let mut end = start + 1;
            let mut numeric = false;
            while end < bytes.len() {
                let b = bytes[end];
                // A year glued to a time ("November 9, 202211:01 AM"): the year ends after four digits.
                if b == b':' && !numeric && end - start > 4 && end - start <= 6 {
                    end = start + 4;
                    break;
                }
                if b.is_ascii_digit() {
                    end += 1;
                } else if matches!(b, b'.' | b'/' | b'-')
                    && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
                {
                    numeric = true;
                    end += 2;
                } else {
                    break;
                }
            }
            while chars.peek().is_some_and(|&(i, _)| i < end) {
                chars.next();
            }
            let kind = if numeric { TokenKind::Numeric } else { TokenKind::Number };
            tokens.push(Token { text: &text[start..end], start, kind });
        } else if c.is_alphabetic() {
            let mut end = start + c.len_utf8();
            let cased = c.is_lowercase() || c.is_uppercase();
            let mut previous = c;
            while cased && let Some(&(i, next)) = chars.peek() {
                let uncased = next.is_alphabetic() && !next.is_lowercase() && !next.is_uppercase();
                if !next.is_alphabetic()
                    || uncased
                    || (previous.is_lowercase() && next.is_uppercase())
                {
                    break;
                }
                previous = next;
                end = i + next.len_utf8();
                chars.next();
            }
            tokens.push(Token { text: &text[start..end], start, kind: TokenKind::Word });
        }
    }
    tokens
}

/// Ordinal suffixes that may follow a day number ("1st", "1er", "1º").
const ORDINALS: &[&str] = &["st", "nd", "rd", "th", "er", "e", "o", "º", "ª"];

/// Words that may sit between the day, the month and the year ("5th of May", "5 de mayo de 2024").
const CONNECTORS: &[&str] = &["of", "de", "del"];

/// A day of the month written with one or two digits.
fn day_number(token: &Token<'_>) -> Option<u32> {
    (token.kind == TokenKind::Number && token.text.len() <= 2)
        .then(|| token.text.parse().ok())
        .flatten()
        .filter(|d| (1..=31).contains(d))
}

/// A year written with four digits.
fn year_number(token: &Token<'_>) -> Option<i32> {
    (token.kind == TokenKind::Number && token.text.len() == 4)
        .then(|| token.text.parse().ok())
        .flatten()
        .filter(|y| (1900..2200).contains(y))
}

/// A year glued to the digits of the next inline element ("Mar 27, 20255 min read"): the first
/// four of five or six digits, when they make a year of this century.
fn glued_year(token: &Token<'_>) -> Option<i32> {
    (token.kind == TokenKind::Number && (5..=6).contains(&token.text.len()))
        .then(|| token.text[..4].parse().ok())
        .flatten()
        .filter(|y| (2000..2100).contains(y))
}

/// Every date written in a text, in order (at most the first 200 tokens are read).
///
/// Forms: month-name dates in any language of [`MONTHS`] (`May 1, 2024`, `1 May 2024`,
/// `1st of May, 2024`, `1. Mai 2024`, `1 de mayo de 2024`, `1 мая 2024`); ISO dates, with their
/// time and offset when written (`2024-05-01`, `2024-05-01T10:00+02:00`, `2024/05/01`); numeric
/// dates with a four-digit year last, where `12.05.2024` and `12-05-2024` are read day first (the
/// convention with dots and dashes) and `05/12/2024` month first (the American one), unless one of the two
/// numbers is above 12, which settles the order (the other reading is kept as
/// [`Shown::alternative`]); and `2024年5月1日` or `2024년 5월 1일`.
pub(crate) fn find_in_text(text: &str, order: SlashOrder) -> Vec<Shown> {
    let tokens = tokenize(text, 200);
    let mut found = Vec::new();
    let mut label_from = 0;
    let mut i = 0;
    while i < tokens.len() {
        let Some((date, alternative, used)) = date_at(text, &tokens, i, order) else {
            i += 1;
            continue;
        };
        let start = tokens[i].start;
        let last = &tokens[i + used - 1];
        let end = last.start + last.text.len();
        let label = label_of(&text[label_from..start]);
        let iso = tokens[i].kind == TokenKind::Numeric && tokens[i].text.len() >= 10;
        let exact = iso && text[end..].starts_with(['T', 't']);
        found.push(Shown { date, alternative, label, span: start..end, iso, exact });
        label_from = end;
        i += used;
    }
    found
}

/// The date starting at token `i`, its other reading, and how many tokens it took.
fn date_at(
    text: &str,
    tokens: &[Token<'_>],
    i: usize,
    order: SlashOrder,
) -> Option<(DateTime<FixedOffset>, Option<DateTime<FixedOffset>>, usize)> {
    let token = &tokens[i];
    let lower = |t: Option<&Token<'_>>| t.map(|t| t.text.to_lowercase()).unwrap_or_default();
    // Skips an ordinal suffix, then connectors, from position `j`.
    let skip = |mut j: usize, ordinal: bool| {
        if ordinal && ORDINALS.contains(&lower(tokens.get(j)).as_str()) {
            j += 1;
        }
        while CONNECTORS.contains(&lower(tokens.get(j)).as_str()) {
            j += 1;
        }
        j
    };
    match token.kind {
        TokenKind::Numeric => {
            let (date, alternative) = numeric_date(text, token, order)?;
            Some((date, alternative, 1))
        }
        TokenKind::Word => {
            // Month day year.
            let month = month_of(token.text)?;
            let day = day_number(tokens.get(i + 1)?)?;
            let j = skip(i + 2, true);
            let year = year_number(tokens.get(j)?).or_else(|| glued_year(tokens.get(j)?))?;
            let date = NaiveDate::from_ymd_opt(year, month, day)?;
            Some((midnight(date), None, j + 1 - i))
        }
        TokenKind::Number => {
            // Year 年 month 月 day 日.
            if let Some(year) = year_number(token) {
                let unit = |k: usize, units: &[&str]| {
                    tokens.get(k).is_some_and(|t| units.contains(&t.text))
                };
                if unit(i + 1, &["年", "년"])
                    && unit(i + 3, &["月", "월"])
                    && unit(i + 5, &["日", "일"])
                {
                    let month = tokens[i + 2].text.parse().ok()?;
                    let day = day_number(&tokens[i + 4])?;
                    let date = NaiveDate::from_ymd_opt(year, month, day)?;
                    return Some((midnight(date), None, 6));
                }
                return None;
            }
            // Day month year.
            let day = day_number(token)?;
            let j = skip(i + 1, true);
            let month = month_of(tokens.get(j).filter(|t| t.kind == TokenKind::Word)?.text)?;
            let k = skip(j + 1, false);
            let year = year_number(tokens.get(k)?)?;
            let date = NaiveDate::from_ymd_opt(year, month, day)?;
            Some((midnight(date), None, k + 1 - i))
        }
    }
}

/// A numeric date token: ISO (with the time and offset that follow it, if any) or day and month
/// with a four-digit year (see [`find_in_text`]).
fn numeric_date(
    text: &str,
    token: &Token<'_>,
    order: SlashOrder,
) -> Option<(DateTime<FixedOffset>, Option<DateTime<FixedOffset>>)> {
    let parts: Vec<&str> = token.text.split(['.', '/', '-']).collect();
    let [a, b, c] = parts.as_slice() else { return None };
    if a.len() == 4 {
        // ISO order; the time and offset may follow up to the next space.
        let rest = &text[token.start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len()).min(40);
        let mut cut = end;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        return parse_iso_like(&rest[..cut])
            .or_else(|| parse_iso_like(token.text))
            .map(|d| (d, None));
    }
    if c.len() != 4 || a.len() > 2 || b.len() > 2 || a.is_empty() || b.is_empty() {
        return None;
    }
    let separator = token.text.as_bytes()[a.len()];
    let (a, b, year): (u32, u32, i32) = (a.parse().ok()?, b.parse().ok()?, c.parse().ok()?);
    let day_first = match (a > 12, b > 12) {
        (true, true) => return None,
        (true, false) => true,
        (false, true) => false,
        (false, false) => separator != b'/' || order == SlashOrder::DayFirst,
    };
    let (day, month) = if day_first { (a, b) } else { (b, a) };
    let date = midnight(NaiveDate::from_ymd_opt(year, month, day)?);
    let alternative = (a <= 12 && b <= 12 && a != b)
        .then(|| NaiveDate::from_ymd_opt(year, day, month))
        .flatten()
        .map(midnight);
    Some((date, alternative))
}

/// Parses a machine-readable date ([`parse`]), keeping the other reading of an ambiguous
/// numeric one such as `02-12-2025`.
fn parse_with_alternative(
    text: &str,
) -> Option<(DateTime<FixedOffset>, Option<DateTime<FixedOffset>>)> {
    let date = parse(text)?;
    let alternative =
        find_in_text(text, SlashOrder::default()).into_iter().next().and_then(|s| s.alternative);
    Some((date, alternative))
}

/// The first date in a text (see [`find_in_text`]), slash dates read month first.
pub(crate) fn parse_textual(text: &str) -> Option<DateTime<FixedOffset>> {
    parse_textual_in(text, SlashOrder::default())
}

/// The first date in a text, slash dates read in `order`.
fn parse_textual_in(text: &str, order: SlashOrder) -> Option<DateTime<FixedOffset>> {
    find_in_text(text, order).into_iter().next().map(|shown| shown.date)
}

fn midnight(date: NaiveDate) -> DateTime<FixedOffset> {
    NaiveDateTime::new(date, NaiveTime::MIN).and_utc().fixed_offset()
}

/// A date shown near the headline, with where it was found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NearHeadline {
    pub(crate) shown: Shown,
    /// Blocks between it and the headline (or the start of the main text without an `<h1>`),
    /// dates after the headline first: `(0, n)` after, `(1, n)` before.
    pub(crate) distance: (u8, usize),
}

/// The dates shown in short blocks around the headline and the start of the main text, nearest
/// first (those after the headline before those above it).
///
/// The window spans the `<h1>` and the start of the main text, whichever comes first, plus a few
/// blocks around them (a "last updated" line sometimes sits just above the headline). Blocks longer
/// than [`MAX_DATE_LINE`] characters, sentences of prose that mention a date and teasers (blocks
/// that are mostly link text) are not date lines. A `<time datetime>` inside the window gives its
/// attribute's value (with the time and offset the page wrote) in place of the text it shows. A
/// date's label comes from the words before it, else from the `class` of the innermost date element
/// around it ("published", "updated").
pub(crate) fn near_headline(
    dom: &crate::dom::Dom<'_>,
    first_content: Option<usize>,
    order: SlashOrder,
) -> Vec<NearHeadline> {
    let Some(first_content) = first_content else { return Vec::new() };
    let h1 = dom.blocks.iter().position(|b| b.kind == crate::dom::Kind::Heading(1));
    let (start, end, anchor) = match h1 {
        Some(h) => {
            (h.min(first_content).saturating_sub(3), h.max(first_content) + VISIBLE_AFTER, h)
        }
        None => (
            first_content.saturating_sub(VISIBLE_WINDOW),
            first_content + VISIBLE_AFTER,
            first_content,
        ),
    };
    let end = end.min(dom.blocks.len());
    let first_el = dom.date_els.partition_point(|e| e.block < start);
    let mut out = Vec::new();
    for index in start..end {
        let block = &dom.blocks[index];
        if block.chars as usize > MAX_DATE_LINE {
            continue;
        }
        let distance = if index >= anchor { (0, index - anchor) } else { (1, anchor - index) };
        let mut shown = find_in_text(&block.text, order);
        if is_prose(&block.text, &shown) || is_teaser(block, &shown) {
            continue;
        }
        // ISO dates written for people are whole lines; inside a line they start changelog
        // entries and table rows.
        let words = block.text.split_whitespace().count();
        shown.retain(|s| s.label != Label::Bare || !s.iso || words <= ISO_LINE_WORDS);
        let els: Vec<&crate::dom::DateEl<'_>> = dom.date_els[first_el..]
            .iter()
            .take_while(|e| e.block <= index)
            .filter(|e| e.block == index)
            .collect();
        // The innermost element around a span with a telling class.
        let class_label = |span: &std::ops::Range<usize>| {
            els.iter()
                .rev()
                .filter(|e| {
                    e.span.start <= span.start && span.start < e.span.end.max(span.start + 1)
                })
                .map(|e| label_of_class(&e.class))
                .find(|l| *l != Label::Bare)
                .unwrap_or(Label::Bare)
        };
        let mut found = Vec::new();
        for el in &els {
            let Some(value) = el.datetime else { continue };
            let Some((date, alternative)) = parse_with_alternative(value) else { continue };
            // The text's label (or the classes') goes with the attribute's value.
            let covered =
                shown.iter().position(|s| s.span.start < el.span.end && el.span.start < s.span.end);
            let label = match covered {
                Some(position) => shown.remove(position).label,
                None => label_of(&block.text[..el.span.start.min(block.text.len())]),
            };
            let label = if label == Label::Bare { class_label(&el.span) } else { label };
            let exact = value.contains(':');
            found.push(Shown {
                date,
                alternative,
                label,
                span: el.span.clone(),
                iso: false,
                exact,
            });
        }
        for mut s in shown {
            if s.label == Label::Bare {
                s.label = class_label(&s.span);
            }
            found.push(s);
        }
        out.extend(found.into_iter().map(|shown| NearHeadline { shown, distance }));
    }
    out.sort_by_key(|n| (n.distance, n.shown.span.start));
    out
}

/// The label a date element's `class`, `id` or `itemprop` gives. A class saying "updated" proves
/// nothing: hAtom requires an `updated` class on the date a post shows, so themes put it on the
/// publication date too (WordPress writes `entry-date published updated`); only `itemprop`
/// `dateModified` marks an update.
fn label_of_class(class: &str) -> Label {
    let words = || class.split_ascii_whitespace();
    if words().any(|w| w == "datemodified") && !words().any(|w| w == "datepublished") {
        return Label::Updated;
    }
    let published =
        class.contains("publish") || class.contains("created") || class.contains("posted");
    let updated = class.contains("updated") || class.contains("modified");
    if published && !updated { Label::Published } else { Label::Bare }
}

/// Whether a block is a sentence of prose that happens to mention a date, rather than a date line:
/// many words besides the dates, and sentence punctuation at the end.
fn is_prose(text: &str, shown: &[Shown]) -> bool {
    let mut words = text.split_whitespace().count();
    for s in shown {
        words = words.saturating_sub(text[s.span.clone()].split_whitespace().count());
    }
    words > PROSE_WORDS && text.trim_end().ends_with(['.', '!', '?', '。'])
}

/// Whether a block's dates are inside links (tickers and teasers of other stories): there is less
/// text outside links than the dates take.
fn is_teaser(block: &crate::dom::Block, shown: &[Shown]) -> bool {
    let date_chars: usize = shown
        .iter()
        .map(|s| block.text[s.span.clone()].chars().filter(|c| !c.is_whitespace()).count())
        .sum();
    ((block.chars - block.link_chars) as usize) < date_chars
}

/// The first short block anywhere on the page that is just a date line ("Posted on April 13, 2023").
pub(crate) fn anywhere(
    dom: &crate::dom::Dom<'_>,
    order: SlashOrder,
) -> Option<DateTime<FixedOffset>> {
    dom.blocks.iter().filter(|b| b.chars <= 60).find_map(|b| parse_textual_in(&b.text, order))
}

/// Chooses the publication date from the metadata's and the dates shown by the headline
/// (`shown`, nearest first).
///
/// 1. A numeric date that reads both ways takes the reading that matches the metadata or the URL.
/// 2. A shown date on the URL's day wins over a metadata date on another day: the URL carries the
///    publisher's own calendar day, while metadata is often written in UTC.
/// 3. A shown date (not an update) that agrees with the metadata's publication keeps the
///    metadata's value: the same day, the same instant written in another offset, or a day the
///    metadata's instant falls on in some time zone.
/// 4. Otherwise a date the page labels as its publication wins, then a bare date: pages often carry
///    template or first-draft dates in their tags, and what the headline shows is what readers see.
/// 5. A date labelled as an update only stands in when the metadata has no publication date.
pub(crate) fn choose(
    meta_published: Option<Field<DateTime<FixedOffset>>>,
    meta_modified: Option<&Field<DateTime<FixedOffset>>>,
    url_date: Option<DateTime<FixedOffset>>,
    shown: Vec<NearHeadline>,
    now: DateTime<Utc>,
) -> Option<Field<DateTime<FixedOffset>>> {
    let known: Vec<NaiveDate> =
        [meta_published.as_ref().map(|f| f.value), meta_modified.map(|f| f.value), url_date]
            .into_iter()
            .flatten()
            .map(|d| d.date_naive())
            .collect();
    let shown: Vec<NearHeadline> = shown
        .into_iter()
        .map(|mut n| {
            if let Some(alternative) = n.shown.alternative
                && known.contains(&alternative.date_naive())
                && !known.contains(&n.shown.date.date_naive())
            {
                n.shown.date = alternative;
            }
            n
        })
        .filter(|n| plausible(&n.shown.date, now))
        .collect();
    if let Some(published) = &meta_published {
        let meta = published.value;
        // The URL's day is the page's own calendar day: a shown date agreeing with it wins.
        let on_url_day = |n: &&NearHeadline| {
            url_date.is_some_and(|u| u.date_naive() == n.shown.date.date_naive())
                && n.shown.label != Label::Updated
        };
        if url_date.is_some_and(|u| u.date_naive() != meta.date_naive())
            && let Some(n) = shown.iter().find(on_url_day)
        {
            return Some(Field::new(n.shown.date, "text:byline+url"));
        }
        // A shown date that agrees with the metadata's publication is the same event, and the
        // metadata's value stands: the same day, the same instant written in another offset, or
        // a date without a time whose day the metadata's instant falls on in some time zone (a
        // page renders its date in its own zone, its metadata is often in UTC).
        let confirms = |n: &NearHeadline| {
            let day = n.shown.date.date_naive();
            if n.shown.label == Label::Updated {
                false
            } else if day == meta.date_naive() {
                true
            } else if n.shown.exact {
                (n.shown.date - meta).num_minutes().abs() <= 1
            } else {
                let start = day.and_time(NaiveTime::MIN).and_utc() - chrono::Duration::hours(14);
                let end = start + chrono::Duration::hours(50);
                meta.time() != NaiveTime::MIN && (start..end).contains(&meta.to_utc())
            }
        };
        if shown.iter().any(confirms) {
            return meta_published;
        }
    }
    let pick = |label: Label| shown.iter().find(|n| n.shown.label == label);
    let field = |n: &NearHeadline, provenance: &'static str| Field::new(n.shown.date, provenance);
    if let Some(n) = pick(Label::Published) {
        return Some(field(n, "text:published"));
    }
    if let Some(n) = pick(Label::Bare) {
        return Some(field(n, "text:byline"));
    }
    if let Some(n) = pick(Label::Updated)
        && meta_published.is_none()
    {
        return Some(field(n, "text:updated"));
    }
    meta_published
}

/// Blocks longer than this many characters are not date lines.
const MAX_DATE_LINE: usize = 160;

/// A bare ISO date counts as shown only in a block of at most this many words.
const ISO_LINE_WORDS: usize = 2;

/// A block with more words than this besides its dates, ending like a sentence, is prose.
const PROSE_WORDS: usize = 6;

/// How many blocks before the main text are searched for a visible date when there is no `<h1>`.
const VISIBLE_WINDOW: usize = 15;

/// How many blocks after the headline or the start of the main text are searched.
const VISIBLE_AFTER: usize = 8;

/// A date written in a URL path: `/2024/05/01/`, `/2024/may/01/`, `/2024-05-01`, `/20240501`, or
/// `/2024/05/` (day 1).
pub(crate) fn from_url(url: &str) -> Option<(DateTime<FixedOffset>, bool)> {
    let path =
        url.split("://").nth(1).map_or(url, |rest| rest.find('/').map_or("", |p| &rest[p..]));
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').collect();
    for (i, segment) in segments.iter().enumerate() {
        // `/2024/05/01/` and `/2024/05/`.
        if segment.len() == 4 && segment.bytes().all(|b| b.is_ascii_digit()) {
            let year: i32 = segment.parse().ok()?;
            if !(MIN_YEAR..2100).contains(&year) {
                continue;
            }
            let month = segments.get(i + 1).and_then(|s| {
                if (1..=2).contains(&s.len()) { s.parse().ok() } else { month_of(s) }
            });
            let Some(month) = month else { continue };
            let day = segments
                .get(i + 2)
                .filter(|s| (1..=2).contains(&s.len()))
                .and_then(|s| s.parse::<u32>().ok());
            if let Some(date) = NaiveDate::from_ymd_opt(year, month, day.unwrap_or(1)) {
                return Some((midnight(date), day.is_some()));
            }
        }
        // `2024-05-01` or `20240501` at the start of a segment.
        let digits = segment.as_bytes();
        if digits.len() >= 10
            && digits[4] == b'-'
            && digits[7] == b'-'
            && let Some(date) = parse_iso_like(&segment[..10])
            && (digits.len() == 10 || !digits[10].is_ascii_digit())
        {
            return Some((date, true));
        }
        if digits.len() >= 8
            && digits[..8].iter().all(u8::is_ascii_digit)
            && (digits.len() == 8 || !digits[8].is_ascii_digit())
            && let Some(date) = parse_iso_like(&segment[..8])
            && (MIN_YEAR..2100).contains(&chrono::Datelike::year(&date))
        {
            return Some((date, true));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use chrono::Datelike;

    use super::*;

    fn day(date: Option<DateTime<FixedOffset>>) -> String {
        date.map(|d| d.format("%Y-%m-%d %H:%M %z").to_string()).unwrap_or_default()
    }

    #[test]
    fn slash_dates_follow_the_pages_language_and_country() {
        let order = SlashOrder::of_page;
        assert_eq!(order(None, None), SlashOrder::MonthFirst);
        assert_eq!(order(Some("en"), Some("https://news.example.com/a")), SlashOrder::MonthFirst);
        assert_eq!(order(Some("en-us"), None), SlashOrder::MonthFirst);
        assert_eq!(order(Some("en-GB"), None), SlashOrder::DayFirst);
        assert_eq!(order(Some("en"), Some("https://www.bbc.co.uk/news/1")), SlashOrder::DayFirst);
        assert_eq!(order(Some("en"), Some("https://www.abc.net.au/news")), SlashOrder::DayFirst);
        for language in ["de", "tr", "fr-fr", "pt-br", "es", "id", "ru"] {
            assert_eq!(order(Some(language), None), SlashOrder::DayFirst, "{language}");
        }
        let first = |text: &str, order: SlashOrder| {
            day(find_in_text(text, order).first().map(|s| s.date)).get(..10).map(str::to_owned)
        };
        assert_eq!(first("03/12/2024", SlashOrder::DayFirst).as_deref(), Some("2024-12-03"));
        assert_eq!(first("03/12/2024", SlashOrder::MonthFirst).as_deref(), Some("2024-03-12"));
        // A number above 12 settles the order whatever the convention; dots are day first.
        assert_eq!(first("12/25/2024", SlashOrder::DayFirst).as_deref(), Some("2024-12-25"));
        assert_eq!(first("03.12.2024", SlashOrder::MonthFirst).as_deref(), Some("2024-12-03"));
        // The other reading is kept either way.
        let shown = find_in_text("03/12/2024", SlashOrder::DayFirst);
        assert_eq!(shown[0].alternative.map(|d| (d.month(), d.day())), Some((3, 12)));
    }

    #[test]
    fn parses_common_forms() {
        assert_eq!(day(parse("2024-05-01T10:00:00Z")), "2024-05-01 10:00 +0000");
        assert_eq!(day(parse("2024-05-01T23:30:00-07:00")), "2024-05-01 23:30 -0700");
        assert_eq!(day(parse("2024-05-01T10:00:00.123+0200")), "2024-05-01 10:00 +0200");
        assert_eq!(day(parse("2024-05-01 10:00")), "2024-05-01 10:00 +0000");
        assert_eq!(day(parse("2024/05/01")), "2024-05-01 00:00 +0000");
        assert_eq!(day(parse("20240501")), "2024-05-01 00:00 +0000");
        assert_eq!(day(parse("Wed, 01 May 2024 10:00:00 GMT")), "2024-05-01 10:00 +0000");
        assert_eq!(day(parse("May 1, 2024")), "2024-05-01 00:00 +0000");
        assert_eq!(
            day(parse("Published on 1st of September, 2025 at 10:00")),
            "2025-09-01 00:00 +0000"
        );
        assert_eq!(day(parse("1714557600")), "2024-05-01 10:00 +0000");
        assert_eq!(day(parse("2024-02-30")), "");
        assert_eq!(day(parse_textual("Updated 12.05.2024")), "2024-05-12 00:00 +0000");
        assert_eq!(day(parse_textual("05/12/2024")), "2024-05-12 00:00 +0000");
        assert_eq!(day(parse_textual("25/12/2024")), "2024-12-25 00:00 +0000");
        assert_eq!(day(parse("yesterday")), "");
    }

    #[test]
    fn url_dates() {
        let url = |u: &str| from_url(u).map(|(d, full)| (d.format("%Y-%m-%d").to_string(), full));
        assert_eq!(url("https://x.test/2024/05/01/story"), Some(("2024-05-01".into(), true)));
        assert_eq!(url("https://x.test/news/2024/5/story"), Some(("2024-05-01".into(), false)));
        assert_eq!(url("https://x.test/2024-05-01-story"), Some(("2024-05-01".into(), true)));
        assert_eq!(url("https://x.test/a/20240501/story"), Some(("2024-05-01".into(), true)));
        assert_eq!(url("https://x.test/product/12345678901"), None);
        assert_eq!(url("https://x.test/2024/story"), None);
        assert_eq!(url("https://x.test/blog/2023/october/03/x"), Some(("2023-10-03".into(), true)));
    }

    /// Every date of a text as `YYYY-MM-DD label`.
    fn shown(text: &str) -> Vec<String> {
        find_in_text(text, SlashOrder::MonthFirst)
            .iter()
            .map(|s| format!("{} {:?}", s.date.format("%Y-%m-%d"), s.label))
            .collect()
    }

    #[test]
    fn dates_in_many_languages_and_forms() {
        let one = |text: &str| day(parse_textual(text)).get(..10).unwrap_or("").to_owned();
        assert_eq!(one("le 3 février 2024"), "2024-02-03");
        assert_eq!(one("Veröffentlicht am 3. März 2024, 10:15 Uhr"), "2024-03-03");
        assert_eq!(one("3 de marzo de 2024"), "2024-03-03");
        assert_eq!(one("3 de março de 2024"), "2024-03-03");
        assert_eq!(one("3 marzo 2024"), "2024-03-03");
        assert_eq!(one("3 maart 2024"), "2024-03-03");
        assert_eq!(one("3 marca 2024"), "2024-03-03");
        assert_eq!(one("3 марта 2024 г."), "2024-03-03");
        assert_eq!(one("3 березня 2024"), "2024-03-03");
        assert_eq!(one("3 Mart 2024"), "2024-03-03");
        assert_eq!(one("2024年3月3日 10:00"), "2024-03-03");
        assert_eq!(one("2024년 3월 3일"), "2024-03-03");
        assert_eq!(one("December 15th 2025"), "2025-12-15");
        assert_eq!(one("Sept. 4, 2025"), "2025-09-04");
        // Inline elements glued together: case changes, letters after digits, a year glued to a
        // time or to a reading time.
        assert_eq!(one("Mental HealthDECEMBER 22, 2022Updated"), "2022-12-22");
        assert_eq!(one("Dec 17, 2025Julian Arni"), "2025-12-17");
        assert_eq!(one("November 9, 202211:01 AM ET"), "2022-11-09");
        assert_eq!(one("Mar 27, 20255 mins"), "2025-03-27");
        assert_eq!(one("[Submitted on 18 Dec 2025]"), "2025-12-18");
        assert_eq!(day(parse_textual("2022-11-23T08:10+02:00")), "2022-11-23 08:10 +0200");
        // Dashes and dots read day first, slashes month first, unless a number settles it.
        assert_eq!(one("02-12-2025"), "2025-12-02");
        assert_eq!(one("09/10/2024"), "2024-09-10");
        assert_eq!(one("13/10/2024"), "2024-10-13");
        assert_eq!(
            find_in_text("09/10/2024", SlashOrder::MonthFirst)[0].alternative.map(|d| d.day()),
            Some(9)
        );
        // Not dates.
        assert_eq!(one("May 2024"), "");
        assert_eq!(one("May 45, 2024"), "");
        assert_eq!(one("call 555-123-4567"), "");
        assert_eq!(one("version 1.2.3"), "");
    }

    #[test]
    fn labels_say_published_or_updated() {
        assert_eq!(
            shown("Published May 1, 2024 · Updated May 3, 2024"),
            ["2024-05-01 Published", "2024-05-03 Updated"]
        );
        assert_eq!(shown("By Ann Lee | May 12, 2025"), ["2025-05-12 Bare"]);
        assert_eq!(shown("Last updated:Sep 4, 2025"), ["2025-09-04 Updated"]);
        assert_eq!(shown("Mis à jour le 4 septembre 2025"), ["2025-09-04 Updated"]);
        assert_eq!(shown("Publicado el 4 de septiembre de 2025"), ["2025-09-04 Published"]);
        assert_eq!(
            shown("Updated November 11, 2022 Originally published November 9, 2022"),
            ["2022-11-11 Updated", "2022-11-09 Published"]
        );
        assert_eq!(label_of_class("entry-date published"), Label::Published);
        assert_eq!(label_of_class("entry-date published updated"), Label::Bare);
        assert_eq!(label_of_class("updated"), Label::Bare);
        assert_eq!(label_of_class("x datemodified"), Label::Updated);
    }

    #[test]
    fn choosing_between_metadata_and_shown_dates() {
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let meta = |s: &str| Some(Field::new(parse(s).unwrap(), "meta"));
        let near = |text: &str| -> Vec<NearHeadline> {
            find_in_text(text, SlashOrder::MonthFirst)
                .into_iter()
                .map(|shown| NearHeadline { shown, distance: (0, 1) })
                .collect()
        };
        let pick =
            |published: Option<Field<DateTime<FixedOffset>>>, url: Option<&str>, text: &str| {
                let url = url.map(|u| parse(u).unwrap());
                choose(published, None, url, near(text), now)
                    .map(|f| format!("{} {}", f.value.format("%Y-%m-%d"), f.provenance))
                    .unwrap_or_default()
            };
        // A bare date by the headline beats a different metadata date.
        assert_eq!(pick(meta("2015-04-06"), None, "May 12, 2025"), "2025-05-12 text:byline");
        // An update line does not replace the metadata's publication, only stands in for it.
        assert_eq!(pick(meta("2015-04-06"), None, "Updated May 12, 2025"), "2015-04-06 meta");
        assert_eq!(pick(None, None, "Updated May 12, 2025"), "2025-05-12 text:updated");
        // A labelled publication wins over a bare date shown first.
        assert_eq!(
            pick(None, None, "May 14, 2025 Published May 12, 2025"),
            "2025-05-12 text:published"
        );
        // Agreement keeps the metadata's precise value, also across a time-zone shift.
        assert_eq!(pick(meta("2021-12-10T02:17:00Z"), None, "December 9, 2021"), "2021-12-10 meta");
        assert_eq!(
            pick(meta("2021-12-10T22:17:00Z"), None, "December 9, 2021"),
            "2021-12-09 text:byline"
        );
        // The URL's day settles a shift the other way.
        assert_eq!(
            pick(meta("2021-12-10T02:17:00Z"), Some("2021-12-09"), "December 9, 2021"),
            "2021-12-09 text:byline+url"
        );
        // An ambiguous numeric date takes the reading the metadata confirms.
        assert_eq!(pick(meta("2024-10-09T12:00:00Z"), None, "09/10/2024"), "2024-10-09 meta");
        // Future dates are not shown dates.
        assert_eq!(pick(meta("2024-10-09"), None, "May 1, 2031"), "2024-10-09 meta");
    }

    #[test]
    fn future_and_ancient_dates_are_rejected() {
        let now = Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap();
        assert!(plausible(&parse("2024-12-31T23:00:00Z").unwrap(), now));
        assert!(plausible(&parse("2025-01-02T01:00:00Z").unwrap(), now));
        assert!(!plausible(&parse("2025-01-03T00:00:00Z").unwrap(), now));
        assert!(!plausible(&parse("1970-01-01").unwrap(), now));
    }
}
