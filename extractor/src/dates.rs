//! Parsing dates as pages write them, and the plausibility rule applied to every candidate.
//!
//! Accepted forms: ISO 8601 and its common relatives (`2024-05-01`, `2024-05-01T10:00:00Z`,
//! `2024-05-01 10:00:00+0200`, `2024/05/01`), RFC 2822 (`Wed, 01 May 2024 10:00:00 GMT`), textual dates
//! with English month names (`May 1, 2024`, `1 May 2024`, `1st of May 2024`) and Unix timestamps (ten
//! digits). Dates in URLs are read from `/2024/05/01/`, `/2024-05-01`, `/20240501` and `/2024/05/`
//! (the first of the month).
//!
//! Rule: a date is rejected when it is before [`MIN_YEAR`] or later than "now" plus
//! [`FUTURE_TOLERANCE_HOURS`] (time zones and clock skew justify a day; Media Cloud allows 90 days,
//! which let through obviously wrong dates). A date without a time is taken as midnight, and a time
//! without an offset as UTC. The offset written on the page is kept, so the local calendar day stays
//! what the page says.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

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

const MONTHS: &[(&str, u32)] = &[
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
];

/// Month number of an English month name or abbreviation.
fn month_of(word: &str) -> Option<u32> {
    let lower = word.trim_end_matches('.').to_ascii_lowercase();
    MONTHS.iter().find(|(name, _)| *name == lower).map(|&(_, m)| m)
}

/// Textual dates: `May 1, 2024`, `1 May 2024`, `1st of May, 2024`, `Monday, May 1st 2024 10:00`,
/// and numeric dates written with a four-digit year last: `12.05.2024` is read day first (the
/// European convention with dots) and `05/12/2024` month first (the American one with slashes),
/// unless one of the two numbers is above 12, which settles the order.
pub(crate) fn parse_textual(text: &str) -> Option<DateTime<FixedOffset>> {
    if let Some(date) = parse_numeric(text) {
        return Some(date);
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|w| !w.is_empty())
        .take(40)
        .collect();
    for (i, word) in words.iter().enumerate() {
        let Some(month) = month_of(word) else { continue };
        let day_of = |w: &str| -> Option<u32> {
            let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '.');
            (digits.len() <= 2).then(|| digits.parse().ok()).flatten()
        };
        let year_of = |w: &str| -> Option<i32> {
            let w = w.trim_end_matches(['.', ';', ')']);
            (w.len() == 4).then(|| w.parse().ok()).flatten()
        };
        // Month day year.
        if let (Some(d), Some(y)) =
            (words.get(i + 1).and_then(|w| day_of(w)), words.get(i + 2).and_then(|w| year_of(w)))
            && let Some(date) = NaiveDate::from_ymd_opt(y, month, d)
        {
            return Some(midnight(date));
        }
        // Day (of) month year.
        let before = if i >= 2 && words[i - 1].eq_ignore_ascii_case("of") {
            i - 2
        } else {
            i.wrapping_sub(1)
        };
        if let (Some(d), Some(y)) =
            (words.get(before).and_then(|w| day_of(w)), words.get(i + 1).and_then(|w| year_of(w)))
            && let Some(date) = NaiveDate::from_ymd_opt(y, month, d)
        {
            return Some(midnight(date));
        }
    }
    None
}

/// The first `d.m.yyyy` or `m/d/yyyy` date in a text (see [`parse_textual`]).
fn parse_numeric(text: &str) -> Option<DateTime<FixedOffset>> {
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == '|').take(40) {
        let word = word.trim_matches(|c: char| !c.is_ascii_digit());
        let separator = if word.contains('.') {
            '.'
        } else if word.contains('/') {
            '/'
        } else {
            continue;
        };
        let parts: Vec<&str> = word.split(separator).collect();
        let [a, b, y] = parts.as_slice() else { continue };
        if y.len() != 4 || a.is_empty() || b.is_empty() || a.len() > 2 || b.len() > 2 {
            continue;
        }
        let (Ok(a), Ok(b), Ok(y)) = (a.parse::<u32>(), b.parse::<u32>(), y.parse::<i32>()) else {
            continue;
        };
        let (day, month) = match (a > 12, b > 12, separator) {
            (true, false, _) => (a, b),
            (false, true, _) => (b, a),
            (false, false, '.') => (a, b),
            (false, false, _) => (b, a),
            (true, true, _) => continue,
        };
        if let Some(date) = NaiveDate::from_ymd_opt(y, month, day) {
            return Some(midnight(date));
        }
    }
    None
}

fn midnight(date: NaiveDate) -> DateTime<FixedOffset> {
    NaiveDateTime::new(date, NaiveTime::MIN).and_utc().fixed_offset()
}

/// The date shown near the headline: the first short text block between the `<h1>` (or a little
/// before the main text) and the start of the main text that reads as a date, e.g. a byline's
/// "Updated August 14, 2025". The flag says whether the line announces an update rather than the
/// publication.
pub(crate) fn visible(
    dom: &crate::dom::Dom<'_>,
    first_content: Option<usize>,
) -> Option<(DateTime<FixedOffset>, bool)> {
    let first_content = first_content?;
    // The window spans the headline and the start of the main text, whichever comes first, plus a
    // few blocks around them (a "last updated" line sometimes sits just above the headline).
    let h1 = dom.blocks.iter().position(|b| b.kind == crate::dom::Kind::Heading(1));
    let (start, end) = match h1 {
        Some(h) => (h.min(first_content).saturating_sub(3), h.max(first_content) + VISIBLE_AFTER),
        None => (first_content.saturating_sub(VISIBLE_WINDOW), first_content + VISIBLE_AFTER),
    };
    let end = end.min(dom.blocks.len());
    dom.blocks[start..end].iter().filter(|b| b.chars <= 160).find_map(|b| {
        let date = parse_textual(&b.text)?;
        let lower = b.text.to_lowercase();
        let update =
            ["updated", "modified", "revised", "reviewed"].iter().any(|w| lower.contains(w));
        Some((date, update))
    })
}

/// The first short block anywhere on the page that is just a date line ("Posted on April 13, 2023").
pub(crate) fn anywhere(dom: &crate::dom::Dom<'_>) -> Option<DateTime<FixedOffset>> {
    dom.blocks.iter().filter(|b| b.chars <= 60).find_map(|b| parse_textual(&b.text))
}

/// How many blocks before the main text are searched for a visible date when there is no `<h1>`.
const VISIBLE_WINDOW: usize = 15;

/// How many blocks after the headline or the start of the main text are searched.
const VISIBLE_AFTER: usize = 8;

/// A date written in a URL path: `/2024/05/01/`, `/2024-05-01`, `/20240501`, or `/2024/05/` (day 1).
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
            let month = segments
                .get(i + 1)
                .filter(|s| (1..=2).contains(&s.len()))
                .and_then(|s| s.parse().ok());
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
    use super::*;

    fn day(date: Option<DateTime<FixedOffset>>) -> String {
        date.map(|d| d.format("%Y-%m-%d %H:%M %z").to_string()).unwrap_or_default()
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
