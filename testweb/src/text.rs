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

    pub(crate) fn pick_ref<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
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
    "Bilbao",
    "Tampere",
    "Graz",
    "Brno",
    "Cluj",
    "Malmo",
    "Antwerp",
    "Seville",
    "Glasgow",
    "Utrecht",
];

/// A field of news: who acts in it and what its stories are about.
#[derive(Debug)]
struct Domain {
    actors: &'static [&'static str],
    roles: &'static [&'static str],
    nouns: &'static [&'static str],
    verbs: &'static [&'static str],
    adjectives: &'static [&'static str],
}

const DOMAINS: &[Domain] = &[
    Domain {
        actors: &[
            "the city council",
            "the regional assembly",
            "the opposition party",
            "the mayor's office",
        ],
        roles: &[
            "a councillor",
            "the party's spokesperson",
            "a deputy mayor",
            "an assembly member",
        ],
        nouns: &[
            "budget",
            "motion",
            "coalition",
            "referendum",
            "ballot",
            "amendment",
            "committee",
            "mandate",
            "petition",
            "caucus",
            "manifesto",
            "tax",
            "debate",
            "vote",
            "inquiry",
            "resignation",
        ],
        verbs: &[
            "approved",
            "rejected",
            "postponed",
            "debated",
            "tabled",
            "blocked",
            "endorsed",
            "withdrew",
        ],
        adjectives: &["controversial", "narrow", "unanimous", "delayed", "cross-party", "binding"],
    },
    Domain {
        actors: &[
            "the central bank",
            "the statistics office",
            "the chamber of commerce",
            "the finance ministry",
        ],
        roles: &["an economist", "a bank analyst", "a trade negotiator", "a fund manager"],
        nouns: &[
            "inflation",
            "exports",
            "interest rates",
            "unemployment",
            "mortgages",
            "bonds",
            "tariffs",
            "wages",
            "investment",
            "shares",
            "deficit",
            "pension funds",
            "retail sales",
            "factory orders",
            "currency",
            "earnings",
        ],
        verbs: &["rose", "fell", "stalled", "rebounded", "slowed", "surged", "dipped", "recovered"],
        adjectives: &["quarterly", "annual", "weaker", "stronger", "unexpected", "seasonal"],
    },
    Domain {
        actors: &["the football club", "the cycling federation", "the league", "the national team"],
        roles: &["the head coach", "the team captain", "a midfielder", "the club's chairman"],
        nouns: &[
            "striker",
            "semi-final",
            "stadium",
            "transfer",
            "injury",
            "penalty",
            "championship",
            "derby",
            "season",
            "goalkeeper",
            "relegation",
            "trophy",
            "sprint",
            "medal",
            "fixture",
            "contract",
        ],
        verbs: &["won", "lost", "signed", "scored", "qualified", "drew", "beat", "suspended"],
        adjectives: &["dramatic", "late", "decisive", "away", "home", "record"],
    },
    Domain {
        actors: &["the weather service", "the flood agency", "the coastguard", "the fire brigade"],
        roles: &["a meteorologist", "a forecaster", "a rescue coordinator", "a hydrologist"],
        nouns: &[
            "storm",
            "rainfall",
            "heatwave",
            "drought",
            "gusts",
            "snowfall",
            "river levels",
            "evacuation",
            "warning",
            "frost",
            "wildfire",
            "tide",
            "landslide",
            "hail",
            "temperatures",
            "flooding",
        ],
        verbs: &[
            "hit",
            "battered",
            "swept",
            "eased",
            "intensified",
            "flooded",
            "cooled",
            "threatened",
        ],
        adjectives: &["severe", "coastal", "record", "torrential", "unseasonal", "northern"],
    },
    Domain {
        actors: &["the high court", "the prosecutor's office", "the appeals court", "the police"],
        roles: &["a defence lawyer", "the prosecutor", "a judge", "a detective"],
        nouns: &[
            "trial",
            "verdict",
            "sentence",
            "fraud",
            "testimony",
            "jury",
            "appeal",
            "bail",
            "indictment",
            "witness",
            "evidence",
            "arrest",
            "lawsuit",
            "settlement",
            "hearing",
            "charges",
        ],
        verbs: &[
            "convicted",
            "acquitted",
            "charged",
            "sentenced",
            "released",
            "overturned",
            "adjourned",
            "testified",
        ],
        adjectives: &["lengthy", "landmark", "closed-door", "criminal", "civil", "disputed"],
    },
    Domain {
        actors: &[
            "the hospital trust",
            "the health ministry",
            "the nurses' union",
            "the medicines agency",
        ],
        roles: &["a surgeon", "a ward manager", "an epidemiologist", "a general practitioner"],
        nouns: &[
            "vaccine",
            "waiting lists",
            "clinic",
            "outbreak",
            "ambulances",
            "surgery",
            "nurses",
            "patients",
            "prescriptions",
            "screening",
            "infections",
            "beds",
            "pharmacies",
            "diagnosis",
            "treatment",
            "symptoms",
        ],
        verbs: &[
            "treated",
            "admitted",
            "screened",
            "vaccinated",
            "diagnosed",
            "discharged",
            "recruited",
            "closed",
        ],
        adjectives: &["emergency", "routine", "chronic", "rural", "paediatric", "winter"],
    },
    Domain {
        actors: &["the opera house", "the film festival", "the city museum", "the book fair"],
        roles: &["the festival director", "a curator", "a novelist", "a conductor"],
        nouns: &[
            "exhibition",
            "premiere",
            "orchestra",
            "novel",
            "gallery",
            "festival",
            "sculpture",
            "documentary",
            "choir",
            "manuscript",
            "retrospective",
            "audience",
            "tickets",
            "playwright",
            "award",
            "collection",
        ],
        verbs: &[
            "opened",
            "premiered",
            "acquired",
            "staged",
            "restored",
            "unveiled",
            "toured",
            "cancelled",
        ],
        adjectives: &[
            "acclaimed",
            "sold-out",
            "experimental",
            "medieval",
            "contemporary",
            "intimate",
        ],
    },
    Domain {
        actors: &[
            "the university",
            "the space agency",
            "the research institute",
            "the observatory",
        ],
        roles: &["a physicist", "a marine biologist", "a lead researcher", "an astronomer"],
        nouns: &[
            "telescope",
            "satellite",
            "genome",
            "fossils",
            "laboratory",
            "experiment",
            "species",
            "reactor",
            "microscope",
            "glacier",
            "algorithm",
            "vaccine trial",
            "probe",
            "dataset",
            "enzyme",
            "particles",
        ],
        verbs: &[
            "discovered",
            "launched",
            "measured",
            "sequenced",
            "observed",
            "published",
            "tested",
            "mapped",
        ],
        adjectives: &[
            "peer-reviewed",
            "deep-sea",
            "orbital",
            "microscopic",
            "ancient",
            "experimental",
        ],
    },
    Domain {
        actors: &[
            "the rail operator",
            "the port authority",
            "the airport",
            "the transport ministry",
        ],
        roles: &[
            "a train driver",
            "a union organiser",
            "the airport's director",
            "a logistics manager",
        ],
        nouns: &[
            "timetable",
            "strike",
            "tram line",
            "cargo",
            "runway",
            "ferries",
            "fares",
            "signals",
            "delays",
            "motorway",
            "bridge",
            "tunnel",
            "freight",
            "commuters",
            "terminal",
            "platforms",
        ],
        verbs: &[
            "cancelled",
            "reopened",
            "delayed",
            "expanded",
            "halted",
            "rerouted",
            "electrified",
            "upgraded",
        ],
        adjectives: &["overnight", "regional", "high-speed", "suburban", "long-haul", "temporary"],
    },
];

const ROLE_NOUNS: &[&str] =
    &["residents", "officials", "families", "workers", "visitors", "businesses"];
const MONTHS: &[&str] = &["January", "March", "April", "June", "September", "October", "December"];

/// What one story is about: a field, the few things it keeps coming back to, and its people and
/// places. Two stories share a topic only when they are copies of one another.
#[derive(Debug, Clone)]
pub(crate) struct Topic {
    domain: &'static Domain,
    focus: Vec<&'static str>,
    verbs: Vec<&'static str>,
    people: Vec<String>,
    places: Vec<&'static str>,
    actor: &'static str,
    shapes: Vec<usize>,
}

impl Topic {
    /// The topic of the story with these coordinates.
    pub(crate) fn new(seed: u64, parts: &[u64]) -> Topic {
        let mut rng = Rng::new(seed, parts);
        let domain = &DOMAINS[rng.below(DOMAINS.len())];
        let mut focus = Vec::new();
        while focus.len() < 5 {
            let noun = rng.pick(domain.nouns);
            if !focus.contains(&noun) {
                focus.push(noun);
            }
        }
        let verbs = (0..3).map(|_| rng.pick(domain.verbs)).collect();
        let people = (0..2).map(|_| person(&mut rng)).collect();
        let places = (0..2).map(|_| rng.pick(PLACES)).collect();
        let actor = rng.pick(domain.actors);
        let shapes = (0..4).map(|_| rng.below(SHAPES)).collect();
        Topic { domain, focus, verbs, people, places, actor, shapes }
    }
}

/// A place name, for site names.
pub(crate) fn capitalised_place(rng: &mut Rng) -> &'static str {
    rng.pick(PLACES)
}

/// A person's name.
pub(crate) fn person(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(FIRST_NAMES), rng.pick(LAST_NAMES))
}

/// A headline for a topic.
pub(crate) fn headline(topic: &Topic, rng: &mut Rng) -> String {
    let place = topic.places[0];
    let noun = topic.focus[0];
    let other = topic.focus[1];
    let verb = topic.verbs[0];
    match rng.below(3) {
        0 => format!("{place}: {} {verb} {noun} as {other} looms", capitalise(topic.actor)),
        1 => format!(
            "{} {verb} {place} {noun} after {} {other}",
            capitalise(topic.actor),
            rng.pick(topic.domain.adjectives)
        ),
        _ => format!("{place} {noun}: what {} means for {}", topic.people[0], rng.pick(ROLE_NOUNS)),
    }
}

/// How many sentence shapes there are; each topic uses a few of them, as each reporter has a
/// manner, so that stories on different topics share little beyond their field's words.
const SHAPES: usize = 16;

/// One sentence of a story on a topic.
pub(crate) fn sentence(topic: &Topic, rng: &mut Rng) -> String {
    let noun = *rng.pick_ref(&topic.focus);
    let other = *rng.pick_ref(&topic.focus);
    let verb = *rng.pick_ref(&topic.verbs);
    let adjective = rng.pick(topic.domain.adjectives);
    let person = &topic.people[rng.below(topic.people.len())];
    let place = topic.places[rng.below(topic.places.len())];
    let actor = topic.actor;
    let n = rng.between(2, 9800);
    match topic.shapes[rng.below(topic.shapes.len())] {
        0 => format!(
            "{} {verb} the {adjective} {noun} in {place} on {}.",
            capitalise(actor),
            weekday(rng)
        ),
        1 => format!(
            "{person}, {} in {place}, expects the {noun} to reach {n} by {}.",
            rng.pick(topic.domain.roles),
            rng.pick(MONTHS)
        ),
        2 => format!(
            "According to {actor}, {} per cent of the {other} in {place} {verb} since {}.",
            n % 97,
            rng.pick(MONTHS)
        ),
        3 => format!("{person} called the {noun} {adjective} and the {other} overdue."),
        4 => format!("The {noun} was {verb} after {n} {other} in {place}."),
        5 => format!("Critics of the {noun} blamed the {adjective} {other} on {actor}."),
        6 => format!("In {place}, {n} {} queued for the {noun} before dawn.", rng.pick(ROLE_NOUNS)),
        7 => format!("{} {verb} again on {}, {person} confirmed.", capitalise(noun), weekday(rng)),
        8 => format!("Figures from {actor} put the {other} at {n}, up from {}.", n / 2 + 1),
        9 => format!("\"The {noun} is {adjective},\" {person} wrote in {place}."),
        10 => format!("Nobody in {place} expected the {other} to be {verb} so soon."),
        11 => format!(
            "{person} and {} met over the {noun} for {} hours.",
            topic.people[0],
            n % 11 + 1
        ),
        12 => format!(
            "A {adjective} {noun} had been {verb} in {place} once before, in {}.",
            1950 + n % 70
        ),
        13 => format!("The {other} of {place} remains {adjective}, {actor} said."),
        14 => format!(
            "{} {noun}, {} {other}: {place} counts {n} of each.",
            capitalise(adjective),
            adjective
        ),
        _ => format!("Asked about the {noun}, {person} pointed to {place} and its {other}."),
    }
}

/// A paragraph of three to six sentences on a topic.
pub(crate) fn paragraph(topic: &Topic, rng: &mut Rng) -> String {
    let count = rng.between(3, 6);
    let mut text = String::new();
    for i in 0..count {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&sentence(topic, rng));
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
        let topic = Topic::new(7, &[9]);
        let a = paragraph(&topic, &mut Rng::new(7, &[1, 2]));
        let b = paragraph(&topic, &mut Rng::new(7, &[1, 2]));
        let c = paragraph(&topic, &mut Rng::new(7, &[1, 3]));
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
