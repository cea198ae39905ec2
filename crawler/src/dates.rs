//! Dates as feeds and sitemaps write them: W3C datetime (ISO 8601 profiles) and RFC 2822.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// Parses a date from a feed or sitemap, returning it in UTC.
///
/// Accepts RFC 3339 (`2026-11-03T10:00:00+01:00`, fractions, `Z`), the shorter W3C profiles
/// (`2026-11-03T10:00+01:00`, `2026-11-03`, `2026-11`, `2026`: the start of the period, UTC),
/// a date and time without a zone (taken as UTC), and RFC 2822 (`Tue, 03 Nov 2026 10:00:00 GMT`)
/// as feeds write it: a day name in any language (`mer, 16 nov 2022 …`), no seconds, an offset
/// with a colon (`+01:00`), or a zone abbreviation RFC 2822 does not know (taken as UTC: the day
/// is right, the hour may be off). Anything else, or a year outside 1990..=2200, is `None`.
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if text.is_empty() || text.len() > 64 {
        return None;
    }
    let parsed = DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_str(text, "%Y-%m-%dT%H:%M%:z"))
        .or_else(|_| DateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f%z"))
        .or_else(|_| DateTime::parse_from_rfc2822(text))
        .map(|date| date.with_timezone(&Utc))
        .ok()
        .or_else(|| rfc2822_as_feeds_write_it(text))
        .or_else(|| {
            let without_zone = text.strip_suffix('Z').unwrap_or(text);
            ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"]
                .iter()
                .find_map(|format| NaiveDateTime::parse_from_str(without_zone, format).ok())
                .map(|naive| naive.and_utc())
        })
        .or_else(|| {
            let day = NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .or_else(|_| NaiveDate::parse_from_str(&format!("{text}-01"), "%Y-%m-%d"))
                .or_else(|_| NaiveDate::parse_from_str(&format!("{text}-01-01"), "%Y-%m-%d"))
                .ok()?;
            day.and_hms_opt(0, 0, 0).map(|naive| naive.and_utc())
        })?;
    let year = parsed.format("%Y").to_string().parse::<i32>().ok()?;
    (1990..=2200).contains(&year).then_some(parsed)
}

/// RFC 2822 with the liberties feeds take (see [`parse`]).
fn rfc2822_as_feeds_write_it(text: &str) -> Option<DateTime<Utc>> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    // A day name in another language, or none: RFC 2822 makes it optional anyway.
    if words.first().is_some_and(|word| word.ends_with(',')) {
        words.remove(0);
    }
    let mut zone = words.pop()?.to_owned();
    if zone.chars().all(|c| c.is_ascii_alphabetic()) && zone.len() > 1 {
        if !["UT", "GMT", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT"]
            .contains(&zone.to_ascii_uppercase().as_str())
        {
            zone = "+0000".to_owned();
        }
    } else if let [sign @ ('+' | '-'), h1, h2, ':', m1, m2] = zone.chars().collect::<Vec<_>>()[..] {
        zone = [sign, h1, h2, m1, m2].iter().collect();
    }
    let date = format!("{} {zone}", words.join(" "));
    DateTime::parse_from_rfc2822(&date)
        .or_else(|_| DateTime::parse_from_str(&date, "%d %b %Y %H:%M %z"))
        .map(|date| date.with_timezone(&Utc))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let cases = [
            ("2026-11-03T10:00:00+01:00", Some("2026-11-03T09:00:00+00:00")),
            ("2026-11-03T10:00:00.123Z", Some("2026-11-03T10:00:00.123+00:00")),
            ("2026-11-03T10:00+01:00", Some("2026-11-03T09:00:00+00:00")),
            ("2026-11-03T10:00:00", Some("2026-11-03T10:00:00+00:00")),
            ("2026-11-03", Some("2026-11-03T00:00:00+00:00")),
            ("2026-11", Some("2026-11-01T00:00:00+00:00")),
            ("2026", Some("2026-01-01T00:00:00+00:00")),
            ("Tue, 03 Nov 2026 10:00:00 GMT", Some("2026-11-03T10:00:00+00:00")),
            ("Tue, 03 Nov 2026 10:00:00 +0100", Some("2026-11-03T09:00:00+00:00")),
            ("mer, 16 nov 2022 00:38:15 +0100", Some("2022-11-15T23:38:15+00:00")),
            ("16 Nov 2022 00:38:15 +01:00", Some("2022-11-15T23:38:15+00:00")),
            ("Wed, 16 Nov 2022 10:38 EST", Some("2022-11-16T15:38:00+00:00")),
            ("Wed, 16 Nov 2022 10:38:00 CEST", Some("2022-11-16T10:38:00+00:00")),
            ("Wed, 16 Nov 22 10:38:00 GMT", Some("2022-11-16T10:38:00+00:00")),
            ("Wed, 16 Nov 2022", None),
            ("yesterday", None),
            ("1970-01-01", None),
            ("9999-01-01", None),
            ("2026-02-30", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text).map(|d| d.to_rfc3339()), expected.map(str::to_owned), "{text}");
        }
    }
}
