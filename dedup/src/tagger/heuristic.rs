//! The fallback for languages without a model: a few rules, never silence.
//!
//! In order: tokens of punctuation only are `PUNCT`, of symbols `SYM`; tokens with digits and
//! only digits and number punctuation are `NUM`; a small list of function words per language
//! gives their usual tag; a capitalised word not at the start of the sentence is `PROPN`, and so
//! is an all-capitals or internally capitalised word anywhere; a few suffixes make `ADV` or
//! `VERB`; anything else is `NOUN`. Languages without a list of their own use the union of the
//! lists.

use super::upos::Upos;

/// Tags one sentence by the rules above; `language` is an ISO 639-1 code.
pub(crate) fn tag(language: &str, tokens: &[&str]) -> Vec<Upos> {
    let words = function_words(language);
    tokens.iter().enumerate().map(|(i, token)| tag_one(words, i == 0, token)).collect()
}

fn tag_one(words: &[(&str, Upos)], first: bool, token: &str) -> Upos {
    let mut chars = token.chars();
    let Some(initial) = chars.next() else { return Upos::X };
    if token.chars().all(is_punctuation) {
        return Upos::Punct;
    }
    if token.chars().all(|ch| !ch.is_alphanumeric()) {
        return Upos::Sym;
    }
    if token.chars().any(|ch| ch.is_numeric())
        && token.chars().all(|ch| ch.is_numeric() || ",.:/-–'’%".contains(ch))
    {
        return Upos::Num;
    }
    let lower = token.to_lowercase();
    if let Some(&(_, tag)) = words.iter().find(|(word, _)| *word == lower) {
        return tag;
    }
    let capitalised = initial.is_uppercase();
    let inner_capital = chars.any(char::is_uppercase);
    if (capitalised && !first) || inner_capital {
        return Upos::Propn;
    }
    const ADVERB: [&str; 4] = ["mente", "ment", "ly", "lijk"];
    const VERB: [&str; 12] =
        ["are", "ere", "ire", "ando", "endo", "ato", "ito", "ing", "ed", "ieren", "eren", "ede"];
    if lower.chars().count() > 5 && ADVERB.iter().any(|suffix| lower.ends_with(suffix)) {
        return Upos::Adv;
    }
    if lower.chars().count() > 4 && VERB.iter().any(|suffix| lower.ends_with(suffix)) {
        return Upos::Verb;
    }
    Upos::Noun
}

fn is_punctuation(ch: char) -> bool {
    ch.is_ascii_punctuation() && !"$%&+<=>^|~#@*".contains(ch)
        || matches!(ch, '«' | '»' | '“' | '”' | '„' | '‘' | '’' | '–' | '—' | '…' | '¡' | '¿' | '·')
}

/// The function words of a language, or of all the languages listed.
fn function_words(language: &str) -> &'static [(&'static str, Upos)] {
    match language {
        "it" => ITALIAN,
        "sv" => SWEDISH,
        "no" | "nb" | "nn" => NORWEGIAN,
        "en" => ENGLISH,
        _ => ALL,
    }
}

use Upos::{Adp, Adv, Aux, Cconj, Det, Part, Pron, Sconj};

const ITALIAN: &[(&str, Upos)] = &[
    ("il", Det),
    ("lo", Det),
    ("la", Det),
    ("i", Det),
    ("gli", Det),
    ("le", Det),
    ("un", Det),
    ("una", Det),
    ("uno", Det),
    ("di", Adp),
    ("a", Adp),
    ("da", Adp),
    ("in", Adp),
    ("con", Adp),
    ("su", Adp),
    ("per", Adp),
    ("tra", Adp),
    ("fra", Adp),
    ("del", Adp),
    ("della", Adp),
    ("dei", Adp),
    ("al", Adp),
    ("alla", Adp),
    ("nel", Adp),
    ("nella", Adp),
    ("e", Cconj),
    ("o", Cconj),
    ("ma", Cconj),
    ("che", Sconj),
    ("se", Sconj),
    ("è", Aux),
    ("sono", Aux),
    ("ha", Aux),
    ("hanno", Aux),
    ("non", Adv),
    ("si", Pron),
    ("lui", Pron),
    ("lei", Pron),
    ("questo", Det),
    ("questa", Det),
];

const SWEDISH: &[(&str, Upos)] = &[
    ("en", Det),
    ("ett", Det),
    ("den", Det),
    ("det", Pron),
    ("de", Pron),
    ("i", Adp),
    ("på", Adp),
    ("av", Adp),
    ("till", Adp),
    ("med", Adp),
    ("för", Adp),
    ("om", Adp),
    ("från", Adp),
    ("och", Cconj),
    ("eller", Cconj),
    ("men", Cconj),
    ("att", Part),
    ("som", Pron),
    ("är", Aux),
    ("var", Aux),
    ("har", Aux),
    ("hade", Aux),
    ("inte", Adv),
    ("han", Pron),
    ("hon", Pron),
    ("vi", Pron),
    ("jag", Pron),
    ("sig", Pron),
];

const NORWEGIAN: &[(&str, Upos)] = &[
    ("en", Det),
    ("et", Det),
    ("ei", Det),
    ("den", Det),
    ("det", Pron),
    ("de", Pron),
    ("i", Adp),
    ("på", Adp),
    ("av", Adp),
    ("til", Adp),
    ("med", Adp),
    ("for", Adp),
    ("om", Adp),
    ("fra", Adp),
    ("og", Cconj),
    ("eller", Cconj),
    ("men", Cconj),
    ("å", Part),
    ("at", Sconj),
    ("som", Pron),
    ("er", Aux),
    ("var", Aux),
    ("har", Aux),
    ("hadde", Aux),
    ("ikke", Adv),
    ("han", Pron),
    ("hun", Pron),
    ("vi", Pron),
    ("jeg", Pron),
    ("seg", Pron),
];

const ENGLISH: &[(&str, Upos)] = &[
    ("the", Det),
    ("a", Det),
    ("an", Det),
    ("this", Det),
    ("that", Pron),
    ("of", Adp),
    ("in", Adp),
    ("on", Adp),
    ("at", Adp),
    ("to", Part),
    ("for", Adp),
    ("with", Adp),
    ("by", Adp),
    ("from", Adp),
    ("and", Cconj),
    ("or", Cconj),
    ("but", Cconj),
    ("is", Aux),
    ("are", Aux),
    ("was", Aux),
    ("were", Aux),
    ("be", Aux),
    ("been", Aux),
    ("has", Aux),
    ("have", Aux),
    ("had", Aux),
    ("will", Aux),
    ("would", Aux),
    ("not", Part),
    ("it", Pron),
    ("he", Pron),
    ("she", Pron),
    ("they", Pron),
    ("we", Pron),
    ("i", Pron),
    ("you", Pron),
    ("if", Sconj),
    ("as", Adp),
];

/// Words that are function words in every listed language where they occur.
const ALL: &[(&str, Upos)] = &[
    ("the", Det),
    ("a", Det),
    ("an", Det),
    ("of", Adp),
    ("in", Adp),
    ("on", Adp),
    ("at", Adp),
    ("to", Part),
    ("for", Adp),
    ("with", Adp),
    ("and", Cconj),
    ("or", Cconj),
    ("is", Aux),
    ("are", Aux),
    ("was", Aux),
    ("il", Det),
    ("la", Det),
    ("le", Det),
    ("les", Det),
    ("lo", Det),
    ("gli", Det),
    ("el", Det),
    ("los", Det),
    ("las", Det),
    ("un", Det),
    ("una", Det),
    ("une", Det),
    ("der", Det),
    ("das", Det),
    ("ein", Det),
    ("eine", Det),
    ("het", Det),
    ("een", Det),
    ("di", Adp),
    ("da", Adp),
    ("du", Adp),
    ("del", Adp),
    ("con", Adp),
    ("per", Adp),
    ("para", Adp),
    ("por", Adp),
    ("pour", Adp),
    ("dans", Adp),
    ("und", Cconj),
    ("et", Cconj),
    ("y", Cconj),
    ("och", Cconj),
    ("og", Cconj),
    ("en", Adp),
    ("på", Adp),
    ("av", Adp),
    ("med", Adp),
    ("che", Sconj),
    ("que", Sconj),
    ("dass", Sconj),
    ("att", Part),
    ("non", Adv),
    ("nicht", Part),
    ("ikke", Adv),
    ("inte", Adv),
    ("no", Adv),
    ("ne", Adv),
    ("pas", Adv),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_in_order() {
        let tokens = [
            "Ieri",
            "il",
            "sindaco",
            "Rossi",
            "ha",
            "firmato",
            "1.250",
            "contratti",
            ",",
            "€",
            "rapidamente",
            "dall'ONU",
            "!",
        ];
        let tags = tag("it", &tokens);
        use Upos::*;
        assert_eq!(
            tags,
            [Noun, Det, Noun, Propn, Aux, Verb, Num, Noun, Punct, Sym, Adv, Propn, Punct]
        );
    }

    #[test]
    fn unknown_languages_use_every_list_and_never_panic() {
        assert_eq!(tag("xx", &["och", "Stockholm", ""]), [Upos::Cconj, Upos::Propn, Upos::X]);
        assert_eq!(tag("", &[]), []);
    }
}
