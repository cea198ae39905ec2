//! JSON documents kept in text columns (portable across SQLite and PostgreSQL).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> String {
    // Serializing plain maps, vectors and strings cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

pub(crate) fn decode<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|err| Error::Corrupt { what: format!("{what}: {err}") })
}
