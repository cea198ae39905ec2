//! A request's query parameters, read strictly: every name must be one the route knows, each
//! non-repeatable name given once, every percent-escape well formed and every value valid UTF-8
//! within [`MAX_VALUE`] characters; days, numbers and flags are parsed with their bounds. What
//! fails is a [`Problem`] (400) that says which parameter and why, on one line.

use chrono::NaiveDate;

use super::Problem;

/// The longest value a parameter may have, in characters (a query of the query language, say).
pub(super) const MAX_VALUE: usize = 2_000;
/// The most parameters one request may carry (a long list of sources, say).
pub(super) const MAX_PARAMS: usize = 200;

/// A request's query parameters, in order.
#[derive(Debug, Default)]
pub(super) struct Params {
    pub(super) pairs: Vec<(String, String)>,
}

/// Which parameters a route knows, and which of them may be repeated.
#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    pub(super) once: &'static [&'static str],
    pub(super) repeated: &'static [&'static str],
}

impl Params {
    /// The parameters of `query` (the part of the URI after `?`), checked against `known`.
    pub(super) fn parse(query: Option<&str>, known: Known) -> Result<Params, Problem> {
        let mut pairs = Vec::new();
        for piece in query.unwrap_or_default().split('&').filter(|piece| !piece.is_empty()) {
            if pairs.len() == MAX_PARAMS {
                return Err(Problem::bad(format!("more than {MAX_PARAMS} parameters")));
            }
            let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
            let name =
                decode(name).map_err(|why| Problem::bad(format!("a parameter name {why}")))?;
            let value = decode(value).map_err(|why| Problem::bad(format!("{name} {why}")))?;
            if !known.once.contains(&name.as_str()) && !known.repeated.contains(&name.as_str()) {
                let mut names: Vec<&str> =
                    known.once.iter().chain(known.repeated).copied().collect();
                names.sort_unstable();
                let allowed = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
                return Err(Problem::bad(format!(
                    "unknown parameter {:?} (this page takes: {allowed})",
                    shorten(&name)
                )));
            }
            if value.chars().count() > MAX_VALUE {
                return Err(Problem::bad(format!("{name} is longer than {MAX_VALUE} characters")));
            }
            if known.once.contains(&name.as_str()) && pairs.iter().any(|(n, _)| *n == name) {
                return Err(Problem::bad(format!("{name} is given more than once")));
            }
            pairs.push((name, value));
        }
        Ok(Params { pairs })
    }

    /// The value of `name`, if given and not empty.
    pub(super) fn one(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
            .filter(|value| !value.is_empty())
    }

    /// Every non-empty value of `name`, in order.
    pub(super) fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.pairs
            .iter()
            .filter(move |(key, value)| key == name && !value.is_empty())
            .map(|(_, value)| value.as_str())
    }

    /// Every non-empty value of `name`, owned.
    pub(super) fn names(&self, name: &str) -> Vec<String> {
        self.all(name).map(str::to_owned).collect()
    }

    /// `name` as a day, `YYYY-MM-DD`.
    pub(super) fn day(&self, name: &str) -> Result<Option<NaiveDate>, Problem> {
        match self.one(name) {
            None => Ok(None),
            Some(text) => NaiveDate::parse_from_str(text, "%Y-%m-%d").map(Some).map_err(|_| {
                Problem::bad(format!("{name} is not a day (YYYY-MM-DD): {:?}", shorten(text)))
            }),
        }
    }

    /// `name` as a whole number from `min` to `max`, or `default` when not given.
    pub(super) fn number(
        &self,
        name: &str,
        min: u64,
        max: u64,
        default: u64,
    ) -> Result<u64, Problem> {
        let Some(text) = self.one(name) else { return Ok(default) };
        let out_of_range = || {
            Problem::bad(format!(
                "{name} must be a whole number from {min} to {max}, not {:?}",
                shorten(text)
            ))
        };
        // Digits only: no sign, no spaces, no exponent; too many digits is out of range too.
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(out_of_range());
        }
        match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(out_of_range()),
        }
    }

    /// `name` as true or false (given empty, it is true, as a bare checkbox name is).
    pub(super) fn flag(&self, name: &str) -> Result<Option<bool>, Problem> {
        let Some((_, value)) = self.pairs.iter().find(|(key, _)| key == name) else {
            return Ok(None);
        };
        match value.as_str() {
            "" | "1" | "true" | "yes" | "on" => Ok(Some(true)),
            "0" | "false" | "no" | "off" => Ok(Some(false)),
            other => {
                Err(Problem::bad(format!("{name} is not true or false: {:?}", shorten(other))))
            }
        }
    }

    /// `name` as one of `choices`, or the first when not given.
    pub(super) fn choice(
        &self,
        name: &str,
        choices: &[&'static str],
    ) -> Result<&'static str, Problem> {
        match self.one(name) {
            None => Ok(choices[0]),
            Some(value) => {
                choices.iter().copied().find(|choice| *choice == value).ok_or_else(|| {
                    Problem::bad(format!(
                        "{name} must be {}, not {:?}",
                        choices.join(" or "),
                        shorten(value)
                    ))
                })
            }
        }
    }

    /// The query string of those of these parameters named in `names`.
    pub(super) fn keeping(&self, names: Known) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (key, value) in &self.pairs {
            let known =
                names.once.contains(&key.as_str()) || names.repeated.contains(&key.as_str());
            if known && !value.is_empty() {
                query.append_pair(key, value);
            }
        }
        query.finish()
    }

    /// The query string of these parameters with `name` set to `value` (or left out when
    /// `None`), for links to the next page or another view.
    pub(super) fn with(&self, name: &str, value: Option<&str>) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (key, old) in &self.pairs {
            if key != name && !old.is_empty() {
                query.append_pair(key, old);
            }
        }
        if let Some(value) = value {
            query.append_pair(name, value);
        }
        query.finish()
    }
}

/// A value cut to a length fit for a one-line message.
pub(super) fn shorten(text: &str) -> String {
    const SHOWN: usize = 60;
    if text.chars().count() <= SHOWN {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(SHOWN).collect();
        cut.push('…');
        cut
    }
}

/// A form-encoded name or value: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
fn decode(text: &str) -> Result<String, &'static str> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16));
                match (hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
                    (Some(high), Some(low)) => {
                        out.push(u8::try_from(high * 16 + low).unwrap_or(b'?'));
                        i += 2;
                    }
                    _ => return Err("has a % not followed by two hexadecimal digits"),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "is not UTF-8 once its percent-escapes are decoded")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: Known = Known {
        once: &["since", "limit", "one_per_cluster", "q", "text", "by"],
        repeated: &["source"],
    };

    fn parse(query: &str) -> Params {
        Params::parse(Some(query), KNOWN).unwrap()
    }

    fn error(query: &str) -> String {
        Params::parse(Some(query), KNOWN).unwrap_err().message
    }

    #[test]
    fn reads_repeats_days_numbers_and_flags() {
        let params =
            parse("source=A+Daily&source=B&since=2026-11-01&limit=5&one_per_cluster=1&q=caf%C3%A9");
        assert_eq!(params.all("source").collect::<Vec<_>>(), ["A Daily", "B"]);
        assert_eq!(params.day("since").unwrap(), NaiveDate::from_ymd_opt(2026, 11, 1));
        assert_eq!(params.number("limit", 1, 500, 50).unwrap(), 5);
        assert_eq!(params.flag("one_per_cluster").unwrap(), Some(true));
        assert_eq!(params.flag("text").unwrap(), None);
        assert_eq!(params.one("q"), Some("café"));
        assert_eq!(params.choice("by", &["day", "week"]).unwrap(), "day");
        assert_eq!(parse("").pairs, []);
    }

    #[test]
    fn refuses_bad_values_with_the_parameter_named() {
        assert!(parse("since=yesterday").day("since").unwrap_err().message.starts_with("since "));
        for limit in ["-1", "0", "501", "1e3", " 5", "99999999999999999999999", "5;DROP"] {
            let message = parse(&format!("limit={}", limit.replace(' ', "+")))
                .number("limit", 1, 500, 50)
                .unwrap_err()
                .message;
            assert!(message.starts_with("limit must be a whole number from 1 to 500"), "{message}");
        }
        assert!(parse("text=maybe").flag("text").is_err());
        assert_eq!(
            parse("by=year").choice("by", &["day", "week"]).unwrap_err().message,
            "by must be day or week, not \"year\""
        );
    }

    #[test]
    fn refuses_bad_escapes_unknown_names_repeats_and_floods() {
        assert_eq!(error("q=%FF"), "q is not UTF-8 once its percent-escapes are decoded");
        assert_eq!(error("q=%C3"), "q is not UTF-8 once its percent-escapes are decoded");
        assert_eq!(error("q=50%"), "q has a % not followed by two hexadecimal digits");
        assert_eq!(error("q=%zz"), "q has a % not followed by two hexadecimal digits");
        assert!(error("%FF=1").starts_with("a parameter name is not UTF-8"));
        assert!(error("sort=id").starts_with("unknown parameter \"sort\" (this page takes: by, "));
        assert_eq!(error("limit=1&limit=2"), "limit is given more than once");
        assert!(error(&format!("q={}", "a".repeat(MAX_VALUE + 1))).ends_with("characters"));
        assert!(error(&"source=a&".repeat(MAX_PARAMS + 1)).starts_with("more than"));
        // Empty values are no value.
        let params = parse("source=&since=&q=");
        assert_eq!(params.all("source").count(), 0);
        assert_eq!(params.day("since").unwrap(), None);
    }

    #[test]
    fn links_keep_the_other_parameters() {
        let params = parse("q=a+b&source=X&limit=5");
        assert_eq!(params.with("limit", Some("9")), "q=a+b&source=X&limit=9");
        assert_eq!(params.with("source", None), "q=a+b&limit=5");
    }
}
