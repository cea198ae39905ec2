//! sea-orm entities: the archive's present schema, private to this crate.
//!
//! Column types mirror `migrations`; the repository modules convert rows to the public types.
//! The derive macros generate `pub` items, so the module as a whole is crate-private instead.
#![allow(unreachable_pub)]

pub(crate) mod claim;
pub(crate) mod cluster_member;
pub(crate) mod collection;
pub(crate) mod collection_source;
pub(crate) mod duplicate_link;
pub(crate) mod feed;
pub(crate) mod fetch;
pub(crate) mod frontier;
pub(crate) mod host_turn;
pub(crate) mod media_source;
pub(crate) mod removed_sentence;
pub(crate) mod sentence;
pub(crate) mod story;
pub(crate) mod story_cluster;
pub(crate) mod story_signature;
pub(crate) mod story_url;
pub(crate) mod worker;
