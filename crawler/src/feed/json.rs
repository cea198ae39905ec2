//! The JSON Feed reader (versions 1.0 and 1.1), field by field over a `serde_json::Value`.
//!
//! The body must parse as JSON (text after the first value is ignored with a warning). An object
//! with a `version` naming jsonfeed.org, or with an `items` array, is a JSON Feed; any other JSON
//! is not. A field of the wrong type is ignored (and counted), an item that is not an object is
//! skipped: one bad item never costs the feed. Item links are `url`, then `external_url`, then an
//! `id` that is an absolute URL; ids may be strings or numbers.

use serde_json::{Map, Value};

use super::{Collect, Draft, Head, Link, NotAFeed, Oddity};

/// Reads a JSON Feed.
pub(super) fn read(
    text: &str,
    encoding: &'static str,
    collect: &mut Collect<'_>,
) -> Result<Head, NotAFeed> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = match values.next() {
        Some(Ok(value)) => value,
        Some(Err(err)) => return Err(NotAFeed::BadJson { encoding, reason: err.to_string() }),
        None => return Err(NotAFeed::Empty),
    };
    if !text[values.byte_offset()..].trim().is_empty() {
        collect.warn("text after the JSON value ignored".to_owned());
    }
    let not_a_feed = |reason: &str| NotAFeed::NotJsonFeed { encoding, reason: reason.to_owned() };
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => return Err(not_a_feed("an array, not an object")),
        _ => return Err(not_a_feed("not an object")),
    };
    let version = object.get("version").and_then(Value::as_str);
    let is_json_feed = version.is_some_and(|version| version.contains("jsonfeed.org/version"));
    let items = match object.get("items") {
        Some(Value::Array(items)) => items.as_slice(),
        Some(_) if is_json_feed => {
            collect.warn("the items field is not an array".to_owned());
            &[]
        }
        None if is_json_feed => {
            collect.warn("no items array".to_owned());
            &[]
        }
        Some(_) => return Err(not_a_feed("items is not an array")),
        None => return Err(not_a_feed("no items array")),
    };
    if !is_json_feed {
        collect.warn("no JSON Feed version; read as one for its items array".to_owned());
    }
    let head = Head {
        title: string(&object, "title", collect),
        link: string(&object, "home_page_url", collect).map(|href| Link::relative(0, href, None)),
        update_hint: None,
    };
    for item in items {
        if collect.full() {
            break;
        }
        let Value::Object(item) = item else {
            collect.odd(Oddity::NotAnObject);
            continue;
        };
        let draft = draft(item, collect);
        collect.item(draft);
    }
    Ok(head)
}

/// One item's fields; each of the wrong type is left out and counted once per item.
fn draft(item: &Map<String, Value>, collect: &mut Collect<'_>) -> Draft {
    let mut wrong = false;
    let mut field = |name: &str| match item.get(name) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => {
            wrong = true;
            None
        }
    };
    let mut draft = Draft::default();
    if let Some(url) = field("url") {
        draft.links.push(Link::relative(0, url, None));
    }
    if let Some(url) = field("external_url") {
        draft.links.push(Link::relative(1, url, None));
    }
    draft.title = field("title");
    for (rank, name) in [(0, "date_published"), (4, "date_modified")] {
        if let Some(date) = field(name) {
            draft.date(rank, date);
        }
    }
    draft.guid = match item.get("id") {
        Some(Value::String(id)) => Some(id.clone()),
        Some(Value::Number(id)) => Some(id.to_string()),
        None | Some(Value::Null) => None,
        Some(_) => {
            wrong = true;
            None
        }
    };
    if let Some(id) = &draft.guid {
        draft.links.push(Link::absolute(2, id.clone()));
    }
    if wrong {
        collect.odd(Oddity::WrongType);
    }
    draft
}

/// A feed-level string field; one of another type is ignored with a warning.
fn string(object: &Map<String, Value>, name: &str, collect: &mut Collect<'_>) -> Option<String> {
    match object.get(name) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => {
            collect.warn(format!("the feed's {name} is not a string; ignored"));
            None
        }
    }
}
