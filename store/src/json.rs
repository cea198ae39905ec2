//! JSON documents kept in text columns (portable across SQLite and PostgreSQL).
//!
//! A document is capped inside, never cut as text (which would leave it unreadable): every string
//! in it, keys included, is cleaned as [`crate::text`] says with the cap the caller gives, and
//! every array and object keeps its first [`MAX_ENTRIES`] entries.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::text::{self, MAX_ENTRIES, MAX_LINE};

/// Encodes a document whose strings are one-line values (names, URLs, titles).
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> String {
    encode_capped(value, MAX_LINE)
}

/// Encodes a document, each string cut to `cap` bytes.
pub(crate) fn encode_capped<T: Serialize + ?Sized>(value: &T, cap: usize) -> String {
    // Serializing plain maps, vectors and strings cannot fail.
    let Ok(mut value) = serde_json::to_value(value) else { return "null".to_owned() };
    clean(&mut value, cap);
    value.to_string()
}

fn clean(value: &mut Value, cap: usize) {
    match value {
        Value::String(text) => {
            let cleaned = text::capped(text, cap);
            if cleaned != text.as_str() {
                *text = cleaned.into_owned();
            }
        }
        Value::Array(items) => {
            items.truncate(MAX_ENTRIES);
            items.iter_mut().for_each(|item| clean(item, cap));
        }
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries.into_iter().take(MAX_ENTRIES) {
                clean(&mut item, cap);
                map.insert(text::capped(&key, cap).into_owned(), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

pub(crate) fn decode<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|err| Error::Corrupt { what: format!("{what}: {err}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_containers_are_capped_inside() {
        let authors: Vec<String> =
            (0..MAX_ENTRIES + 5).map(|i| format!("{i}\0{}", "x".repeat(MAX_LINE))).collect();
        let back: Vec<String> = decode(&encode(&authors), "authors").unwrap();
        assert_eq!(back.len(), MAX_ENTRIES);
        assert!(back.iter().all(|a| a.len() <= MAX_LINE && a.contains('\u{FFFD}')));
        let headers = vec![("a\0".to_owned(), "y".repeat(MAX_LINE * 2))];
        let back: Vec<(String, String)> =
            decode(&encode_capped(&headers, MAX_LINE * 4), "headers").unwrap();
        assert_eq!(back, vec![("a\u{FFFD}".to_owned(), "y".repeat(MAX_LINE * 2))]);
    }
}
