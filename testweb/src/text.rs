//! Deterministic randomness and news-like prose: a small PRNG and a sentence generator.
//!
//! Everything in the test web is a function of the seed, so a page served twice is the same
//! bytes, and two runs with one seed serve the same web.

/// SplitMix64: tiny, fast, and good enough to vary test content.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator for this seed and these coordinates (host, article, ...).
    pub(crate) fn new(seed: u64, parts: &[u64]) -> Rng {
        let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
        for &part in parts {
            rng.0 ^= part.wrapping_mul(0xD1B5_4A32_D192_ED03);
            rng.next();
        }
        rng
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        // The modulo bias is irrelevant at these sizes.
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub(crate) fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FIRST_NAMES: &[&str] = &[
    "Ana", "Marcus", "Lena", "Tomás", "Priya", "Jonas", "Amara", "Kenji", "Sofia", "Daniel",
    "Fatima", "Oliver", "Ingrid", "Mateo", "Chloe", "Yusuf", "Hanna", "Lucas", "Maya", "Pieter",
];
const LAST_NAMES: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Castillo",
    "Brennan",
    "Nakamura",
    "Schmidt",
    "Duarte",
    "Haddad",
    "Kowalski",
    "Whitfield",
    "Rossi",
    "Van Dijk",
    "Mensah",
    "Ferreira",
    "Novak",
];
const PLACES: &[&str] = &[
    "Lisbon",
    "Rotterdam",
    "Nairobi",
    "Manchester",
    "Lyon",
    "Porto Alegre",
    "Gdansk",
    "Osaka",
    "Valencia",
    "Aarhus",
    "Leipzig",
    "Montreal",
    "Adelaide",
    "Bergen",
    "Cork",
    "Turin",
];
const BODIES: &[&str] = &[
    "the city council",
    "the transport ministry",
    "the regional water authority",
    "the national statistics office",
    "the hospital trust",
    "the teachers' union",
    "the central bank",
    "the port authority",
    "the energy regulator",
    "the university senate",
    "the fire service",
    "the housing board",
];
const TOPICS: &[&str] = &[
    "budget",
    "bridge repairs",
    "flood defences",
    "school meals",
    "bus fares",
    "wind farm",
    "housing plan",
    "hospital waiting lists",
    "heatwave warning",
    "rail strike",
    "harbour expansion",
    "library closures",
    "water prices",
    "election results",
    "tram line",
    "recycling scheme",
];
const VERBS: &[&str] = &[
    "approved",
    "rejected",
    "postponed",
    "announced",
    "defended",
    "criticised",
    "reviewed",
    "expanded",
    "suspended",
    "welcomed",
];
const HEADLINE_VERBS: &[&str] =
    &["approves", "rejects", "delays", "unveils", "defends", "questions", "expands", "halts"];
const CONNECTIVES: &[&str] = &[
    "Officials said",
    "According to documents seen by reporters,",
    "Residents told the newspaper that",
    "In a statement on Tuesday,",
    "Critics argued that",
    "Supporters of the plan said",
    "Figures published this week show that",
    "Speaking at a press conference,",
];
const CLAIMS: &[&str] = &[
    "the changes would take effect before the end of the year",
    "the cost had risen by almost a third since the first estimate",
    "more than two thousand households would be affected",
    "the decision followed months of negotiations",
    "an independent review would be published in the spring",
    "the timetable was realistic despite the recent delays",
    "the money would come from savings elsewhere in the budget",
    "local businesses had not been consulted properly",
    "the scheme had already been tested in three districts",
    "the vote was closer than many had expected",
    "further details would be released after the summer",
    "the figures were the highest recorded since the series began",
];

/// A place name, for site names.
pub(crate) fn capitalised_place(rng: &mut Rng) -> &'static str {
    rng.pick(PLACES)
}

/// A person's name.
pub(crate) fn person(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(FIRST_NAMES), rng.pick(LAST_NAMES))
}

/// A headline of five to twelve words.
pub(crate) fn headline(rng: &mut Rng) -> String {
    let place = rng.pick(PLACES);
    let body = rng.pick(BODIES);
    let topic = rng.pick(TOPICS);
    let verb = rng.pick(HEADLINE_VERBS);
    match rng.below(3) {
        0 => format!("{place}: {} {verb} {topic} after long debate", capitalise(body)),
        1 => format!("{} {verb} {place} {topic}", capitalise(body)),
        _ => format!("{place} {topic}: what the {} decision means for residents", strip_the(body)),
    }
}

/// One sentence of news prose.
pub(crate) fn sentence(rng: &mut Rng) -> String {
    let body = rng.pick(BODIES);
    let topic = rng.pick(TOPICS);
    match rng.below(4) {
        0 => format!(
            "{} {} the {topic} plan for {} on {}.",
            capitalise(body),
            rng.pick(VERBS),
            rng.pick(PLACES),
            weekday(rng)
        ),
        1 => format!("{} {}.", rng.pick(CONNECTIVES), rng.pick(CLAIMS)),
        2 => format!(
            "{}, who has followed the {topic} for years, said {}.",
            person(rng),
            rng.pick(CLAIMS)
        ),
        _ => format!(
            "The {topic} was {} by {body} in {}, and {} more people are expected to be affected.",
            rng.pick(VERBS),
            rng.pick(PLACES),
            rng.between(120, 9800)
        ),
    }
}

/// A paragraph of three to six sentences.
pub(crate) fn paragraph(rng: &mut Rng) -> String {
    let count = rng.between(3, 6);
    let mut text = String::new();
    for i in 0..count {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&sentence(rng));
    }
    text
}

fn weekday(rng: &mut Rng) -> &'static str {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"][rng.below(5)]
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn strip_the(text: &str) -> &str {
    text.strip_prefix("the ").unwrap_or(text)
}

/// A URL slug of a headline: lower-case words joined by `-`.
pub(crate) fn slug(text: &str) -> String {
    let mut out = String::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
        if out.len() > 60 {
            break;
        }
    }
    out
}

/// Escapes text for HTML and XML.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_coordinates_give_the_same_text() {
        let a = paragraph(&mut Rng::new(7, &[1, 2]));
        let b = paragraph(&mut Rng::new(7, &[1, 2]));
        let c = paragraph(&mut Rng::new(7, &[1, 3]));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.split_whitespace().count() > 20, "{a}");
    }

    #[test]
    fn slugs_and_escapes() {
        assert_eq!(
            slug("Lisbon: The City council approves budget"),
            "lisbon-the-city-council-approves-budget"
        );
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
