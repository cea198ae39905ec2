//! UD sentences whose gold words are placed in their raw text, for the examples that measure
//! segmentation against it (`segment_eval`, `train_chinese`).

use std::ops::Range;
use std::path::Path;

use dedup::tagger::Upos;
use dedup::tagger::conllu::{self, Line};

/// A sentence: its raw text and its gold words as byte ranges of it.
pub(crate) struct Sentence {
    pub(crate) text: String,
    pub(crate) words: Vec<(Range<usize>, Upos)>,
}

impl Sentence {
    /// The gold tag of each of `words` (byte ranges of the text, as a segmenter cut it): that of
    /// the gold word it matches, else of the first content gold word it overlaps, else of the
    /// first it overlaps. For the post-taggers' training (`train_chinese`, `train_korean`).
    #[allow(dead_code)] // `segment_eval` includes this file and trains nothing.
    pub(crate) fn gold_tags<T>(&self, words: &[(Range<usize>, T)]) -> Vec<Upos> {
        words
            .iter()
            .map(|(range, _)| {
                let overlapping = self
                    .words
                    .iter()
                    .filter(|(gold, _)| gold.start < range.end && range.start < gold.end);
                let mut first = None;
                for (gold, tag) in overlapping {
                    if gold == range || dedup::tagger::is_content(*tag) {
                        return *tag;
                    }
                    first.get_or_insert(*tag);
                }
                first.unwrap_or(Upos::X)
            })
            .collect()
    }
}

/// The sentences of a CoNLL-U file whose gold words can be placed in their `# text`; how many
/// others were left out is said on standard error.
pub(crate) fn read(path: &Path) -> Result<Vec<Sentence>, String> {
    let data = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut text = String::new();
    let mut forms: Vec<(String, Upos)> = Vec::new();
    let mut skipped = 0;
    for line in data.lines().chain(std::iter::once("")) {
        match conllu::parse_line(line).map_err(|e| e.to_string())? {
            Line::Comment(comment) => {
                if let Some(t) = comment.strip_prefix(" text = ") {
                    t.clone_into(&mut text);
                }
            }
            Line::Word(fields) => {
                let tag = fields.upos().parse().map_err(|e| format!("{e:?}"))?;
                forms.push((fields.form().to_owned(), tag));
            }
            Line::Blank => {
                if !forms.is_empty() {
                    match place(&text, &forms) {
                        Some(words) => out.push(Sentence { text: text.clone(), words }),
                        None => skipped += 1,
                    }
                }
                forms.clear();
                text.clear();
            }
            Line::Range { .. } | Line::Empty(_) => {}
        }
    }
    if skipped > 0 {
        eprintln!(
            "{}: {skipped} sentences whose words are not their text, left out",
            path.display()
        );
    }
    Ok(out)
}

/// The byte ranges of `forms` in `text`, in order, white space between them skipped.
fn place(text: &str, forms: &[(String, Upos)]) -> Option<Vec<(Range<usize>, Upos)>> {
    let mut at = 0;
    let mut out = Vec::with_capacity(forms.len());
    for (form, tag) in forms {
        let rest = &text[at..];
        at += rest.len() - rest.trim_start().len();
        if !text[at..].starts_with(form.as_str()) {
            return None;
        }
        out.push((at..at + form.len(), *tag));
        at += form.len();
    }
    Some(out)
}
