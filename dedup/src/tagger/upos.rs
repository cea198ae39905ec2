//! The seventeen Universal Dependencies part-of-speech tags.

use std::fmt;
use std::str::FromStr;

/// A universal part-of-speech tag (UPOS), as in Universal Dependencies v2.
///
/// The discriminants are the tags' indices in the model files (alphabetical order) and never
/// change once a model has shipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Upos {
    /// Adjective.
    Adj = 0,
    /// Adposition (preposition or postposition).
    Adp = 1,
    /// Adverb.
    Adv = 2,
    /// Auxiliary verb.
    Aux = 3,
    /// Coordinating conjunction.
    Cconj = 4,
    /// Determiner.
    Det = 5,
    /// Interjection.
    Intj = 6,
    /// Common noun.
    Noun = 7,
    /// Numeral.
    Num = 8,
    /// Particle.
    Part = 9,
    /// Pronoun.
    Pron = 10,
    /// Proper noun.
    Propn = 11,
    /// Punctuation.
    Punct = 12,
    /// Subordinating conjunction.
    Sconj = 13,
    /// Symbol.
    Sym = 14,
    /// Verb (not an auxiliary).
    Verb = 15,
    /// Other: foreign words, typos, unanalysable material.
    X = 16,
}

impl Upos {
    /// How many tags there are.
    pub const COUNT: usize = 17;

    /// Every tag, in index order.
    pub const ALL: [Upos; Upos::COUNT] = [
        Upos::Adj,
        Upos::Adp,
        Upos::Adv,
        Upos::Aux,
        Upos::Cconj,
        Upos::Det,
        Upos::Intj,
        Upos::Noun,
        Upos::Num,
        Upos::Part,
        Upos::Pron,
        Upos::Propn,
        Upos::Punct,
        Upos::Sconj,
        Upos::Sym,
        Upos::Verb,
        Upos::X,
    ];

    /// The tag's index, `0..Upos::COUNT`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The tag with this index, if there is one.
    pub fn from_index(index: usize) -> Option<Upos> {
        Upos::ALL.get(index).copied()
    }

    /// The tag as written in CoNLL-U (`NOUN`, `PROPN`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Upos::Adj => "ADJ",
            Upos::Adp => "ADP",
            Upos::Adv => "ADV",
            Upos::Aux => "AUX",
            Upos::Cconj => "CCONJ",
            Upos::Det => "DET",
            Upos::Intj => "INTJ",
            Upos::Noun => "NOUN",
            Upos::Num => "NUM",
            Upos::Part => "PART",
            Upos::Pron => "PRON",
            Upos::Propn => "PROPN",
            Upos::Punct => "PUNCT",
            Upos::Sconj => "SCONJ",
            Upos::Sym => "SYM",
            Upos::Verb => "VERB",
            Upos::X => "X",
        }
    }
}

/// Whether a tag is in the content class that fuzzy dedup compares: nouns, proper nouns,
/// numerals and verbs.
pub fn is_content(tag: Upos) -> bool {
    matches!(tag, Upos::Noun | Upos::Propn | Upos::Num | Upos::Verb)
}

impl fmt::Display for Upos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a string that is not a UPOS tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTag(pub String);

impl fmt::Display for UnknownTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown UPOS tag {:?}", self.0)
    }
}

impl std::error::Error for UnknownTag {}

impl FromStr for Upos {
    type Err = UnknownTag;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Upos::ALL.into_iter().find(|tag| tag.as_str() == s).ok_or_else(|| UnknownTag(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_names_round_trip() {
        for (index, tag) in Upos::ALL.into_iter().enumerate() {
            assert_eq!(tag.index(), index);
            assert_eq!(Upos::from_index(index), Some(tag));
            assert_eq!(tag.as_str().parse::<Upos>(), Ok(tag));
            assert_eq!(tag.to_string(), tag.as_str());
        }
        assert_eq!(Upos::from_index(Upos::COUNT), None);
        assert!("noun".parse::<Upos>().is_err());
    }

    #[test]
    fn the_content_class() {
        let content: Vec<Upos> = Upos::ALL.into_iter().filter(|&tag| is_content(tag)).collect();
        assert_eq!(content, [Upos::Noun, Upos::Num, Upos::Propn, Upos::Verb]);
    }
}
