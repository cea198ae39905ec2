//! Stories, and every URL variant seen for each.
//!
//! A story is unique by its lossy URL: inserting a story whose lossy URL is already stored returns
//! the stored one untouched ("first sighting wins"). Every URL that leads to a story (the first,
//! later variants, redirect targets, `rel=canonical`) is a row of its own in `story_urls`.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait,
    IdenStatic as _, Iterable as _, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Select,
    Set,
};

use sea_orm::sea_query::{Condition, Expr, ExprTrait};

use crate::Archive;
use crate::entity::{removed_sentence, story, story_url};
use crate::error::{Context as _, Error, Result};
use crate::json;
use crate::matching::{self, Matcher};
use crate::search;
use crate::sources::inserted_row;
use crate::text::{self, line_opt, line_owned, long_owned};

/// A story to insert.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewStory {
    /// The source it belongs to.
    pub source_id: i64,
    /// The raw fetch it was extracted from.
    pub fetch_id: Option<i64>,
    /// The URL it was first seen at.
    pub url: String,
    /// Its lossy key; unique in the archive.
    pub lossy_url: String,
    /// The page's canonical URL, if it named one.
    pub canonical_url: Option<String>,
    /// The display title.
    pub title: Option<String>,
    /// The normalized title key, `None` when the title is too short or generic to match on.
    pub normalized_title: Option<String>,
    /// The main text, paragraphs separated by blank lines.
    pub text: String,
    /// The language (ISO 639-1).
    pub language: Option<String>,
    /// The authors, in page order.
    pub authors: Vec<String>,
    /// When it was published.
    pub published_at: Option<DateTime<Utc>>,
    /// The calendar day of publication in the source's timezone.
    pub published_day: Option<NaiveDate>,
    /// Which tag or rule produced each metadata field, e.g. `title` → `og:title`.
    pub provenance: BTreeMap<String, String>,
    /// The extractor version that produced the fields.
    pub extractor_version: String,
}

/// A stored story.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    /// The archive's id.
    pub id: i64,
    /// The fields as inserted.
    pub story: NewStory,
    /// The text without the sentences its source repeated that week (see [`set_sentence_removal`]);
    /// `None` when nothing was removed, and the text is then searchable as it is.
    pub searchable_text: Option<String>,
    /// When it was inserted.
    pub created_at: DateTime<Utc>,
}

impl Story {
    /// The text to read and search: without the sentences its source repeated that week.
    pub fn searchable(&self) -> &str {
        self.searchable_text.as_deref().unwrap_or(&self.story.text)
    }
}

impl TryFrom<story::Model> for Story {
    type Error = Error;

    fn try_from(row: story::Model) -> Result<Story> {
        Ok(Story {
            id: row.id,
            story: NewStory {
                source_id: row.source_id,
                fetch_id: row.fetch_id,
                url: row.url,
                lossy_url: row.lossy_url,
                canonical_url: row.canonical_url,
                title: row.title,
                normalized_title: row.normalized_title,
                text: row.text,
                language: row.language,
                authors: json::decode(&row.authors, "story authors")?,
                published_at: row.published_at,
                published_day: row.published_day,
                provenance: json::decode(&row.provenance, "story provenance")?,
                extractor_version: row.extractor_version,
            },
            searchable_text: row.searchable_text,
            created_at: row.created_at,
        })
    }
}

/// Whether [`insert`] stored a new story or found one with the same lossy URL.
#[derive(Debug, Clone, PartialEq)]
pub enum Inserted {
    /// A new story.
    New(Story),
    /// A story with the same lossy URL was already stored; nothing was written.
    Existing(Story),
}

impl Inserted {
    /// The story, new or not.
    pub fn story(&self) -> &Story {
        match self {
            Inserted::New(story) | Inserted::Existing(story) => story,
        }
    }
}

/// How a URL came to point at a story.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UrlKind {
    /// The URL the story was first stored under.
    First,
    /// Another URL that was requested and led to the story: one with the same lossy key, or a page
    /// whose redirect target or canonical URL is the story's.
    Variant,
    /// Where a URL redirected to.
    Redirect,
    /// The page's `<link rel=canonical>`.
    Canonical,
    /// A URL of a story found to be the same by its title (same source and day).
    Title,
}

impl UrlKind {
    /// Every kind.
    pub const ALL: [UrlKind; 5] =
        [UrlKind::First, UrlKind::Variant, UrlKind::Redirect, UrlKind::Canonical, UrlKind::Title];

    /// The name stored in the archive.
    pub fn as_str(self) -> &'static str {
        match self {
            UrlKind::First => "first",
            UrlKind::Variant => "variant",
            UrlKind::Redirect => "redirect",
            UrlKind::Canonical => "canonical",
            UrlKind::Title => "title",
        }
    }

    /// The kind with this stored name.
    pub fn parse(name: &str) -> Option<UrlKind> {
        UrlKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// A URL recorded for a story.
#[derive(Debug, Clone, PartialEq)]
pub struct StoryUrl {
    /// The archive's id.
    pub id: i64,
    /// The story it leads to.
    pub story_id: i64,
    /// The URL, verbatim; unique in the archive.
    pub url: String,
    /// Its lossy key.
    pub lossy_url: String,
    /// How it came to point at the story.
    pub kind: UrlKind,
    /// When it was recorded.
    pub created_at: DateTime<Utc>,
}

impl TryFrom<story_url::Model> for StoryUrl {
    type Error = Error;

    fn try_from(row: story_url::Model) -> Result<StoryUrl> {
        let kind = UrlKind::parse(&row.kind).ok_or_else(|| Error::Corrupt {
            what: format!("story URL {}: unknown kind {:?}", row.id, row.kind),
        })?;
        Ok(StoryUrl {
            id: row.id,
            story_id: row.story_id,
            url: row.url,
            lossy_url: row.lossy_url,
            kind,
            created_at: row.created_at,
        })
    }
}

/// A story's fields as the archive keeps them: the text as [`text::long`], every other string as
/// [`text::line`] (authors and provenance inside their JSON documents).
fn stored_fields(new: &NewStory) -> NewStory {
    NewStory {
        source_id: new.source_id,
        fetch_id: new.fetch_id,
        url: line_owned(&new.url),
        lossy_url: line_owned(&new.lossy_url),
        canonical_url: line_opt(new.canonical_url.as_deref()),
        title: line_opt(new.title.as_deref()),
        normalized_title: line_opt(new.normalized_title.as_deref()),
        text: long_owned(&new.text),
        language: line_opt(new.language.as_deref()),
        authors: json::decode(&json::encode(&new.authors), "story authors").unwrap_or_default(),
        published_at: new.published_at,
        published_day: new.published_day,
        provenance: json::decode(&json::encode(&new.provenance), "story provenance")
            .unwrap_or_default(),
        extractor_version: line_owned(&new.extractor_version),
    }
}

/// Inserts a story unless its lossy URL is already stored, and records its first URL. Text is kept
/// as [`text`] says.
pub async fn insert(archive: &Archive, new: &NewStory) -> Result<Inserted> {
    // The search terms are folded before the write transaction begins.
    let prepared = Prepared::new(new);
    let txn = archive.begin_write().await?;
    let inserted = prepared.insert(&txn).await?;
    txn.commit().await.doing("committing a story")?;
    Ok(inserted)
}

/// A story made ready to store: its fields as the archive keeps them and its row with the folded
/// search terms, so that a write transaction spends no time folding.
pub(crate) struct Prepared {
    fields: NewStory,
    row: story::ActiveModel,
}

impl Prepared {
    pub(crate) fn new(new: &NewStory) -> Prepared {
        let fields = stored_fields(new);
        let row = new_row(&fields, Utc::now());
        Prepared { fields, row }
    }

    /// Inserts the story within `db` (a write transaction) unless its lossy URL is stored, and
    /// records its first URL.
    pub(crate) async fn insert(self, db: &impl ConnectionTrait) -> Result<Inserted> {
        let new = &self.fields;
        let result = story::Entity::insert(self.row)
            .on_conflict_do_nothing_on([story::Column::LossyUrl])
            .exec(db)
            .await
            .doing("inserting a story")?;
        let stored = find_by_lossy_url(db, &new.lossy_url)
            .await?
            .ok_or_else(|| Error::NotFound { what: format!("story {}", new.lossy_url) })?;
        let inserted = inserted_row(&result);
        if inserted {
            insert_url(db, stored.id, &new.url, &new.lossy_url, UrlKind::First).await?;
        }
        Ok(if inserted { Inserted::New(stored) } else { Inserted::Existing(stored) })
    }
}

/// The row of a new story as [`insert`] and [`insert_batch`] write it, with its search terms.
fn new_row(new: &NewStory, created_at: DateTime<Utc>) -> story::ActiveModel {
    let (words, pairs) = search::terms(new.title.as_deref(), &new.text);
    story::ActiveModel {
        id: NotSet,
        source_id: Set(new.source_id),
        fetch_id: Set(new.fetch_id),
        url: Set(new.url.clone()),
        lossy_url: Set(new.lossy_url.clone()),
        canonical_url: Set(new.canonical_url.clone()),
        title: Set(new.title.clone()),
        normalized_title: Set(new.normalized_title.clone()),
        text: Set(new.text.clone()),
        searchable_text: Set(None),
        search_words: Set(Some(words)),
        search_pairs: Set(Some(pairs)),
        language: Set(new.language.clone()),
        authors: Set(json::encode(&new.authors)),
        published_at: Set(new.published_at),
        published_day: Set(new.published_day),
        provenance: Set(json::encode(&new.provenance)),
        extractor_version: Set(new.extractor_version.clone()),
        created_at: Set(created_at),
        cluster_representative: Set(None),
    }
}

/// Stories a batch insert writes per statement: well within both backends' limits on bound
/// parameters (19 a row).
const INSERT_ROWS: usize = 500;

/// Inserts many stories at once, as [`insert`] does each (a story whose lossy URL is stored
/// already, or comes earlier in `stories`, is not written again), in one transaction and a few
/// statements: for bulk loads (`morgue bench archive`), where a transaction a story is the whole
/// cost. Returns the stored story's id for each of `stories`, in order, and whether it is new.
pub async fn insert_batch(archive: &Archive, stories: &[NewStory]) -> Result<Vec<(i64, bool)>> {
    let stored: Vec<NewStory> = stories.iter().map(stored_fields).collect();
    let txn = archive.begin_write().await?;
    let keys: Vec<&str> = stored.iter().map(|new| new.lossy_url.as_str()).collect();
    let mut ids = ids_by_lossy_url(&txn, &keys).await?;
    let existing: std::collections::HashSet<String> = ids.keys().cloned().collect();
    let mut fresh: Vec<&NewStory> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut is_new = Vec::with_capacity(stored.len());
    for new in &stored {
        let first = !existing.contains(&new.lossy_url) && seen.insert(new.lossy_url.as_str());
        if first {
            fresh.push(new);
        }
        is_new.push(first);
    }
    let now = Utc::now();
    for chunk in fresh.chunks(INSERT_ROWS) {
        let rows = chunk.iter().map(|new| new_row(new, now));
        story::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await
            .doing("inserting stories")?;
    }
    let fresh_keys: Vec<&str> = fresh.iter().map(|new| new.lossy_url.as_str()).collect();
    let inserted = ids_by_lossy_url(&txn, &fresh_keys).await?;
    for chunk in fresh.chunks(INSERT_ROWS) {
        let rows = chunk.iter().map(|new| story_url::ActiveModel {
            id: NotSet,
            story_id: Set(inserted.get(&new.lossy_url).copied().unwrap_or_default()),
            url: Set(new.url.clone()),
            lossy_url: Set(new.lossy_url.clone()),
            kind: Set(UrlKind::First.as_str().to_owned()),
            created_at: Set(now),
        });
        story_url::Entity::insert_many(rows)
            .on_conflict_do_nothing_on([story_url::Column::Url])
            .exec_without_returning(&txn)
            .await
            .doing("recording story URLs")?;
    }
    txn.commit().await.doing("committing stories")?;
    ids.extend(inserted);
    stored
        .iter()
        .zip(is_new)
        .map(|(new, is_new)| {
            let id = ids
                .get(&new.lossy_url)
                .copied()
                .ok_or_else(|| Error::NotFound { what: format!("story {}", new.lossy_url) })?;
            Ok((id, is_new))
        })
        .collect()
}

/// The ids of the stories with these lossy URLs, by lossy URL.
async fn ids_by_lossy_url(
    db: &impl ConnectionTrait,
    keys: &[&str],
) -> Result<std::collections::HashMap<String, i64>> {
    let mut ids = std::collections::HashMap::new();
    for chunk in keys.chunks(INSERT_ROWS) {
        let rows: Vec<(i64, String)> = story::Entity::find()
            .select_only()
            .columns([story::Column::Id, story::Column::LossyUrl])
            .filter(story::Column::LossyUrl.is_in(chunk.iter().copied()))
            .into_tuple()
            .all(db)
            .await
            .doing("looking up stories by lossy URL")?;
        ids.extend(rows.into_iter().map(|(id, key)| (key, id)));
    }
    Ok(ids)
}

pub(crate) async fn find_by_lossy_url(
    db: &impl ConnectionTrait,
    lossy_url: &str,
) -> Result<Option<Story>> {
    readable()
        .filter(story::Column::LossyUrl.eq(text::line(lossy_url).as_ref()))
        .one(db)
        .await
        .doing("reading a story")?
        .map(Story::try_from)
        .transpose()
}

pub(crate) async fn insert_url(
    db: &impl ConnectionTrait,
    story_id: i64,
    url: &str,
    lossy_url: &str,
    kind: UrlKind,
) -> Result<(StoryUrl, bool)> {
    let url = text::line(url);
    let row = story_url::ActiveModel {
        id: NotSet,
        story_id: Set(story_id),
        url: Set(url.clone().into_owned()),
        lossy_url: Set(line_owned(lossy_url)),
        kind: Set(kind.as_str().to_owned()),
        created_at: Set(Utc::now()),
    };
    let result = story_url::Entity::insert(row)
        .on_conflict_do_nothing_on([story_url::Column::Url])
        .exec(db)
        .await
        .doing("recording a story URL")?;
    let stored = story_url::Entity::find()
        .filter(story_url::Column::Url.eq(url.as_ref()))
        .one(db)
        .await
        .doing("reading a story URL")?
        .ok_or_else(|| Error::NotFound { what: format!("story URL {url}") })?;
    Ok((StoryUrl::try_from(stored)?, inserted_row(&result)))
}

/// Up to `limit` stories after `after_id`, by id: those extracted by another version than
/// `version`, or all of them when `version` is `None`.
pub async fn page_for_reextraction(
    archive: &Archive,
    version: Option<&str>,
    after_id: i64,
    limit: u64,
) -> Result<Vec<Story>> {
    let mut query = readable().filter(story::Column::Id.gt(after_id));
    if let Some(version) = version {
        query = query.filter(story::Column::ExtractorVersion.ne(version));
    }
    query
        .order_by_asc(story::Column::Id)
        .limit(limit)
        .all(&archive.db)
        .await
        .doing("listing stories to re-extract")?
        .into_iter()
        .map(Story::try_from)
        .collect()
}

/// Replaces what extraction produced for a story: title and its key, canonical URL, text,
/// language, authors, publication time and day, provenance and extractor version. The URLs the
/// story is known by and its source never change.
pub async fn replace_extraction(archive: &Archive, id: i64, new: &NewStory) -> Result<Story> {
    let new = &stored_fields(new);
    let row = story::ActiveModel {
        canonical_url: Set(new.canonical_url.clone()),
        title: Set(new.title.clone()),
        normalized_title: Set(new.normalized_title.clone()),
        text: Set(new.text.clone()),
        language: Set(new.language.clone()),
        authors: Set(json::encode(&new.authors)),
        published_at: Set(new.published_at),
        published_day: Set(new.published_day),
        provenance: Set(json::encode(&new.provenance)),
        extractor_version: Set(new.extractor_version.clone()),
        ..Default::default()
    };
    let result = story::Entity::update_many()
        .set(row)
        .filter(story::Column::Id.eq(id))
        .exec(&archive.db)
        .await
        .doing("replacing a story's extraction")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("story {id}") });
    }
    search::refresh(&archive.db, id).await?;
    get(archive, id).await
}

/// The stories of a source published in `[from, to)`, by id.
pub async fn published_between(
    archive: &Archive,
    source_id: i64,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<Story>> {
    readable()
        .filter(story::Column::SourceId.eq(source_id))
        .filter(story::Column::PublishedAt.gte(from))
        .filter(story::Column::PublishedAt.lt(to))
        .order_by_asc(story::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing a source's stories")?
        .into_iter()
        .map(Story::try_from)
        .collect()
}

/// A sentence taken out of a story's searchable text because an earlier story of the same source
/// and week has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedSentence {
    /// Its position among the story's sentences.
    pub position: i32,
    /// The sentence.
    pub sentence: String,
    /// The story that keeps it.
    pub owner_story_id: i64,
}

/// Records a story's sentence removal: its searchable text (`None`: nothing removed) and the
/// sentences removed, replacing what was recorded before. The story's `text` is never changed.
pub async fn set_sentence_removal(
    archive: &Archive,
    story_id: i64,
    searchable_text: Option<&str>,
    removed: &[RemovedSentence],
) -> Result<()> {
    let txn = archive.begin_write().await?;
    let result = story::Entity::update_many()
        .col_expr(story::Column::SearchableText, Expr::value(searchable_text.map(long_owned)))
        .filter(story::Column::Id.eq(story_id))
        .exec(&txn)
        .await
        .doing("recording a story's searchable text")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("story {story_id}") });
    }
    search::refresh(&txn, story_id).await?;
    removed_sentence::Entity::delete_many()
        .filter(removed_sentence::Column::StoryId.eq(story_id))
        .exec(&txn)
        .await
        .doing("clearing removed sentences")?;
    for chunk in removed.chunks(200) {
        let rows = chunk.iter().map(|removed| removed_sentence::ActiveModel {
            id: NotSet,
            story_id: Set(story_id),
            position: Set(removed.position),
            sentence: Set(long_owned(&removed.sentence)),
            owner_story_id: Set(removed.owner_story_id),
        });
        removed_sentence::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await
            .doing("recording removed sentences")?;
    }
    txn.commit().await.doing("committing removed sentences")?;
    Ok(())
}

/// The sentences removed from a story, in position order.
pub async fn removed_sentences(archive: &Archive, story_id: i64) -> Result<Vec<RemovedSentence>> {
    Ok(removed_sentence::Entity::find()
        .filter(removed_sentence::Column::StoryId.eq(story_id))
        .order_by_asc(removed_sentence::Column::Position)
        .all(&archive.db)
        .await
        .doing("reading removed sentences")?
        .into_iter()
        .map(|row| RemovedSentence {
            position: row.position,
            sentence: row.sentence,
            owner_story_id: row.owner_story_id,
        })
        .collect())
}

/// Records that `url` leads to a story. Recording a URL again is a no-op; the returned row says
/// which story the URL was first recorded for, which may be another one. Returns whether it is new.
pub async fn add_url(
    archive: &Archive,
    story_id: i64,
    url: &str,
    lossy_url: &str,
    kind: UrlKind,
) -> Result<(StoryUrl, bool)> {
    insert_url(&archive.db, story_id, url, lossy_url, kind).await
}

/// The story with this id.
pub async fn get(archive: &Archive, id: i64) -> Result<Story> {
    get_in(&archive.db, id).await
}

/// The story with this id, read through `db` (the pool or a transaction).
pub(crate) async fn get_in(db: &impl ConnectionTrait, id: i64) -> Result<Story> {
    readable()
        .filter(story::Column::Id.eq(id))
        .one(db)
        .await
        .doing("reading a story")?
        .ok_or_else(|| Error::NotFound { what: format!("story {id}") })?
        .try_into()
}

/// The stories with these ids that exist, by id (an id not in the archive is left out).
pub async fn get_many(archive: &Archive, ids: &[i64]) -> Result<Vec<Story>> {
    let mut stories = Vec::with_capacity(ids.len());
    // Bounded lists, well within every backend's limit on bound parameters.
    for chunk in ids.chunks(500) {
        let rows = readable()
            .filter(story::Column::Id.is_in(chunk.iter().copied()))
            .all(&archive.db)
            .await
            .doing("reading stories")?;
        for row in rows {
            stories.push(Story::try_from(row)?);
        }
    }
    stories.sort_by_key(|story| story.id);
    stories.dedup_by_key(|story| story.id);
    Ok(stories)
}

/// The story with this lossy URL, if any.
pub async fn by_lossy_url(archive: &Archive, lossy_url: &str) -> Result<Option<Story>> {
    find_by_lossy_url(&archive.db, lossy_url).await
}

/// The oldest story with a recorded URL whose lossy key is one of `lossy_urls`.
///
/// All the matching rows are read (a key has one or a few) and the oldest is picked here: asked
/// for the first by story id, PostgreSQL's generic plan walks the story id index and filters on the
/// key, which reads the whole table once it has grown, for every page crawled.
pub(crate) async fn oldest_recorded(
    db: &impl ConnectionTrait,
    lossy_urls: &[&str],
) -> Result<Option<i64>> {
    let ids: Vec<i64> = story_url::Entity::find()
        .select_only()
        .column(story_url::Column::StoryId)
        .filter(story_url::Column::LossyUrl.is_in(lossy_urls.iter().map(|key| line_owned(key))))
        .into_tuple()
        .all(db)
        .await
        .doing("looking up story URLs")?;
    Ok(ids.into_iter().min())
}

/// The story a lossy key leads to: its own key, or a URL recorded for it (the oldest story when
/// several match).
pub async fn by_any_lossy_url(archive: &Archive, lossy_url: &str) -> Result<Option<Story>> {
    let own = find_by_lossy_url(&archive.db, lossy_url).await?;
    let recorded = oldest_recorded(&archive.db, &[lossy_url]).await?;
    match (own, recorded) {
        (Some(story), Some(id)) if id < story.id => get(archive, id).await.map(Some),
        (Some(story), _) => Ok(Some(story)),
        (None, Some(id)) => get(archive, id).await.map(Some),
        (None, None) => Ok(None),
    }
}

/// The story a URL was recorded for (exactly this URL, any kind), if any.
pub async fn by_url(archive: &Archive, url: &str) -> Result<Option<Story>> {
    let found = story_url::Entity::find()
        .filter(story_url::Column::Url.eq(text::line(url).as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a story URL")?;
    match found {
        Some(row) => get(archive, row.story_id).await.map(Some),
        None => Ok(None),
    }
}

/// Every URL recorded for a story, in the order they were recorded.
pub async fn urls(archive: &Archive, story_id: i64) -> Result<Vec<StoryUrl>> {
    story_url::Entity::find()
        .filter(story_url::Column::StoryId.eq(story_id))
        .order_by_asc(story_url::Column::Id)
        .all(&archive.db)
        .await
        .doing("reading story URLs")?
        .into_iter()
        .map(StoryUrl::try_from)
        .collect()
}

/// The earliest-stored other story of the same source and day with the same normalized title.
pub async fn title_match(
    archive: &Archive,
    source_id: i64,
    day: NaiveDate,
    normalized_title: &str,
    excluding: i64,
) -> Result<Option<Story>> {
    readable()
        .filter(story::Column::SourceId.eq(source_id))
        .filter(story::Column::PublishedDay.eq(day))
        .filter(story::Column::NormalizedTitle.eq(text::line(normalized_title).as_ref()))
        .filter(story::Column::Id.ne(excluding))
        .order_by_asc(story::Column::Id)
        .one(&archive.db)
        .await
        .doing("matching a story title")?
        .map(Story::try_from)
        .transpose()
}

/// Which stories [`page`] returns. Empty and `None` fields do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only stories of these sources.
    pub source_ids: Vec<i64>,
    /// Only stories published on this day or later (the day in the source's timezone); stories
    /// without a publication date are left out when either day is set.
    pub from_day: Option<NaiveDate>,
    /// Only stories published on this day or earlier.
    pub to_day: Option<NaiveDate>,
    /// Only stories in this language (as the extractor names it: ISO 639-1, `en`).
    pub language: Option<String>,
    /// Only stories this query may match: a superset when the query has phrases or `title:`, or
    /// while some stories' words are not written yet (see [`search`]); check each with
    /// [`Matcher::matches`] where that matters.
    pub query: Option<Matcher>,
    /// The deduplicated view: only the stories in no cluster and each cluster's representative
    /// (`stories.cluster_representative`, indexed, so a folded page reads only what it returns).
    pub one_per_cluster: bool,
}

impl Filter {
    /// The condition on `stories` that selects what the filter keeps, and whether it is exact
    /// (see [`Matcher::exact`]; it is a superset when not).
    pub(crate) async fn condition(&self, archive: &Archive) -> Result<(Condition, bool)> {
        let mut condition = self.scope();
        let mut exact = true;
        if let Some(matcher) = &self.query {
            let backend = archive.db.get_database_backend();
            let unindexed = search::any_missing(&archive.db).await?;
            let ids = day_window_ids(archive, self.from_day, self.to_day).await?;
            if let Some((least, greatest)) = ids {
                condition = condition.add(story::Column::Id.between(least, greatest));
            }
            let scope = matching::Scope { backend, unindexed, ids };
            let (expr, query_exact) = matcher.condition_within(&scope);
            condition = condition.add(expr);
            exact = query_exact;
        }
        if self.one_per_cluster {
            condition = condition.add(representatives());
        }
        Ok((condition, exact))
    }

    /// The condition on `stories` for all but the query: sources, days, language and the
    /// deduplicated view.
    pub(crate) fn plain_condition(&self) -> Condition {
        let mut condition = self.scope();
        if self.one_per_cluster {
            condition = condition.add(representatives());
        }
        condition
    }

    /// Sources, days and language.
    fn scope(&self) -> Condition {
        let mut condition = Condition::all();
        if !self.source_ids.is_empty() {
            condition =
                condition.add(story::Column::SourceId.is_in(self.source_ids.iter().copied()));
        }
        if let Some(day) = self.from_day {
            condition = condition.add(story::Column::PublishedDay.gte(day));
        }
        if let Some(day) = self.to_day {
            condition = condition.add(story::Column::PublishedDay.lte(day));
        }
        if let Some(language) = &self.language {
            condition = condition.add(story::Column::Language.eq(text::line(language).as_ref()));
        }
        condition
    }
}

/// Windows of more days than this are not bounded by [`day_window_ids`] (two index probes a day).
const MAX_WINDOW_DAYS: i64 = 3_700;

/// The least and greatest id of the stories published from `from` to `to` (an open end is the
/// archive's first or last day), `(1, 0)` when there are none, `None` when neither end is set or
/// the window is longer than [`MAX_WINDOW_DAYS`].
///
/// A text query's matches are listed by the word index before the statement keeps those of the
/// days asked for: for a word in a third of a million stories, 350,000 matches listed for a page
/// of 50 from one month (SQLite 150 ms; PostgreSQL walked the primary key from the first id,
/// testing each story's day, 230 to 300 ms). Bounded by the month's ids, FTS5 lists only the
/// matches among them and PostgreSQL starts its walk at the month (6 to 60 ms). The bounds are
/// read as each day's first and last entry of the index on the day, whose entries are in id
/// order within a day (SQLite's `idx_stories_day` ends with the rowid; PostgreSQL's
/// `idx_stories_day_id`, migration `m0019_story_day_ids`): under a millisecond for a month. They
/// are exact whatever order stories came in (a story published long before it was archived
/// widens them but is never left out); they pay because ids mostly follow publication days, as a
/// crawl archives the news as it comes.
pub(crate) async fn day_window_ids(
    archive: &Archive,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Option<(i64, i64)>> {
    if from.is_none() && to.is_none() {
        return Ok(None);
    }
    let backend = archive.db.get_database_backend();
    let sql = if backend == DatabaseBackend::Postgres {
        format!(
            "SELECT count(*), min(x.lo), max(x.hi) \
             FROM (SELECT COALESCE(CAST($1 AS date), (SELECT min(published_day) FROM stories)) \
                          AS first, \
                      COALESCE(CAST($2 AS date), (SELECT max(published_day) FROM stories)) \
                          AS last) AS e \
             CROSS JOIN LATERAL generate_series(e.first, \
                 CASE WHEN e.last - e.first < {MAX_WINDOW_DAYS} THEN e.last ELSE e.first - 1 END, \
                 INTERVAL '1 day') AS d(day) \
             CROSS JOIN LATERAL (SELECT min(id) AS lo, max(id) AS hi FROM stories \
                 WHERE published_day = CAST(d.day AS date)) AS x"
        )
    } else {
        format!(
            "WITH RECURSIVE ends(first, last) AS (SELECT \
                 COALESCE(?, (SELECT min(published_day) FROM stories)), \
                 COALESCE(?, (SELECT max(published_day) FROM stories))), \
             days(day) AS (SELECT first FROM ends \
                 WHERE julianday(last) - julianday(first) < {MAX_WINDOW_DAYS} \
                 UNION ALL SELECT date(day, '+1 day') FROM days, ends WHERE day < last) \
             SELECT count(*), \
                 min((SELECT min(id) FROM stories WHERE published_day = day)), \
                 max((SELECT max(id) FROM stories WHERE published_day = day)) \
             FROM days"
        )
    };
    let day = |day: Option<NaiveDate>| day.map(|day| day.format("%Y-%m-%d").to_string());
    let statement =
        sea_orm::Statement::from_sql_and_values(backend, sql, [day(from).into(), day(to).into()]);
    let doing = "finding the ids of a window of days";
    let row = archive.db.query_one_raw(statement).await.doing(doing)?;
    let Some(row) = row else { return Ok(None) };
    let days: i64 = row.try_get_by_index(0).doing(doing)?;
    let least: Option<i64> = row.try_get_by_index(1).doing(doing)?;
    let greatest: Option<i64> = row.try_get_by_index(2).doing(doing)?;
    Ok(match (days, least, greatest) {
        (0, _, _) => None,
        (_, Some(least), Some(greatest)) => Some((least, greatest)),
        _ => Some((1, 0)),
    })
}

/// Up to `limit` stories that `filter` selects with ids above `after`, by id: an export reads the
/// archive a page at a time, each page starting after the last id of the one before.
pub async fn page(
    archive: &Archive,
    filter: &Filter,
    after: i64,
    limit: u64,
) -> Result<Vec<Story>> {
    let (condition, _) = filter.condition(archive).await?;
    let query = readable()
        .filter(story::Column::Id.gt(after))
        .filter(condition)
        .order_by_asc(story::Column::Id)
        .limit(limit);
    let backend = archive.db.get_database_backend();
    let rows = if backend == DatabaseBackend::Sqlite
        && filter.query.is_some()
        && (filter.from_day.is_some() || filter.to_day.is_some() || filter.one_per_cluster)
    {
        // Each of the index's matches is tested for the days and the deduplicated view in the
        // covering index of the story's id, day, cluster representative and source
        // (`idx_stories_facts`) before its row, kilobytes, is read: a page of 30 days starts
        // after the matches of the months before. SQLite's planner looks the matches up by rowid
        // instead when its statistics say so, so the statement names the index.
        let mut statement = sea_orm::QueryTrait::build(&query, backend);
        statement.sql = statement.sql.replacen(
            r#"FROM "stories""#,
            r#"FROM "stories" INDEXED BY "idx_stories_facts""#,
            1,
        );
        story::Entity::find().from_raw_sql(statement).all(&archive.db).await
    } else if let Some(terms) = filter
        .query
        .as_ref()
        .filter(|matcher| backend == DatabaseBackend::Postgres && matcher.has_phrase())
        .and_then(|matcher| matcher.index_join(backend))
        .map(|(terms, _)| terms)
    {
        return phrase_page(archive, query, &terms).await;
    } else {
        query.all(&archive.db).await
    };
    rows.doing("reading a page of stories")?.into_iter().map(Story::try_from).collect()
}

/// How many of the index's matches make a query's pairs common (PostgreSQL, [`phrase_page`]): where
/// the two plans cost the same at a million stories. Reading the matches through the index costs
/// about 8 µs a match (each is read and rechecked; 40 to 49 ms for 5,000), walking the primary key
/// about 40 µs a story tested, and a page of 50 walks 50 / share stories: for `m` matches in a
/// million stories, `m × 8 µs` against `2 × 10⁹ / m µs`, equal near 16,000 (docs/research.md).
const COMMON_MATCHES: i64 = 16_000;

/// PostgreSQL settings for the rest of a transaction that leave its planner only the bitmap paths:
/// a text query's matches come from the GIN index, not from a walk along another index that reads
/// each story's terms from TOAST ([`phrase_page`], top words' sample).
pub(crate) const BITMAP_ONLY: &str =
    "SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = off";

/// A page of a query with a phrase, on PostgreSQL. Its planner walks the primary key testing each
/// story's terms, a read of the story's `search_terms` from TOAST that it does not count, expecting
/// a phrase's pair (never among the index's most common elements) in 0.5% of the stories: for a
/// rare pair that is a walk through the whole archive (18 to 24 s at a million stories) where the
/// GIN index answers in milliseconds, and for a common pair a short walk (under 40 ms) where the
/// index's matches, every one of them read before sorting, take hundreds (docs/research.md).
/// So the index is asked first, with index scans off so that it is asked through a bitmap, for at
/// most [`COMMON_MATCHES`] matches: fewer, and the page is read the same way; as many, and the
/// planner's own plan reads it. One transaction; the settings are its own (`SET LOCAL`).
async fn phrase_page(
    archive: &Archive,
    query: Select<story::Entity>,
    terms: &str,
) -> Result<Vec<Story>> {
    let doing = "reading a page of stories";
    let txn = archive.begin_write().await?;
    txn.execute_unprepared(BITMAP_ONLY).await.doing(doing)?;
    let probe = sea_orm::Statement::from_sql_and_values(
        DatabaseBackend::Postgres,
        format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM stories \
             WHERE search_terms @@ CAST($1 AS tsquery) LIMIT {COMMON_MATCHES}) AS probe"
        ),
        [terms.into()],
    );
    let matches: i64 = txn
        .query_one_raw(probe)
        .await
        .and_then(|row| row.map(|row| row.try_get_by_index(0)).transpose())
        .doing(doing)?
        .unwrap_or(0);
    if matches >= COMMON_MATCHES {
        txn.execute_unprepared("SET LOCAL enable_indexscan = on; SET LOCAL enable_seqscan = on")
            .await
            .doing(doing)?;
    }
    let rows = query.all(&txn).await.doing(doing)?;
    txn.commit().await.doing(doing)?;
    rows.into_iter().map(Story::try_from).collect()
}

/// The stories table read as [`Story`] needs it: every column but the stored search words and
/// pairs, read back as NULL. A story does not hold them, and at about 3.7 kB a story they were most
/// of what a page of stories copied (an export of 100,000 stories spent its time decoding them).
pub(crate) fn readable() -> Select<story::Entity> {
    let null = || Expr::cust("CAST(NULL AS TEXT)");
    story::Entity::find()
        .select_only()
        .columns(story::Column::iter().filter(|column| {
            !matches!(column, story::Column::SearchWords | story::Column::SearchPairs)
        }))
        .column_as(null(), story::Column::SearchWords.as_str())
        .column_as(null(), story::Column::SearchPairs.as_str())
}

/// The stories the deduplicated view keeps: those in no cluster, and each cluster's representative.
pub(crate) fn representatives() -> Condition {
    Condition::any().add(story::Column::ClusterRepresentative.is_null()).add(
        Expr::col((story::Entity, story::Column::ClusterRepresentative))
            .equals((story::Entity, story::Column::Id)),
    )
}

/// Drops the GIN indexes of `stories` and `story_terms` before a bulk load (PostgreSQL; nothing
/// on SQLite) and returns their definitions for [`restore_indexes`]: each story stored updates
/// them over hundreds of terms, where building them once after the load is several times
/// cheaper. For benchmarks (`morgue bench archive`): searches are slow until the indexes are back.
pub async fn drop_bulk_indexes(archive: &Archive) -> Result<Vec<String>> {
    if archive.db.get_database_backend() != DatabaseBackend::Postgres {
        return Ok(Vec::new());
    }
    let rows = archive
        .db
        .query_all_raw(sea_orm::Statement::from_string(
            DatabaseBackend::Postgres,
            "SELECT indexname::text, indexdef FROM pg_indexes \
             WHERE schemaname = current_schema() AND tablename IN ('stories', 'story_terms') \
             AND indexdef LIKE '% USING gin %' ORDER BY indexname",
        ))
        .await
        .doing("listing the story indexes")?;
    let mut definitions = Vec::with_capacity(rows.len());
    for row in rows {
        let name: String = row.try_get_by_index(0).doing("reading an index name")?;
        let definition: String = row.try_get_by_index(1).doing("reading an index definition")?;
        archive
            .db
            .execute_unprepared(&format!("DROP INDEX \"{}\"", name.replace('"', "\"\"")))
            .await
            .doing("dropping an index before a bulk load")?;
        definitions.push(definition);
    }
    Ok(definitions)
}

/// Creates again the indexes [`drop_bulk_indexes`] dropped.
pub async fn restore_indexes(archive: &Archive, definitions: &[String]) -> Result<()> {
    for definition in definitions {
        archive
            .db
            .execute_unprepared(definition)
            .await
            .doing("restoring an index after a bulk load")?;
    }
    Ok(())
}

/// How many stories were stored at `since` or later.
pub async fn count_created_since(archive: &Archive, since: DateTime<Utc>) -> Result<u64> {
    story::Entity::find()
        .filter(story::Column::CreatedAt.gte(since))
        .count(&archive.db)
        .await
        .doing("counting recent stories")
}

/// How many stories the archive holds.
pub async fn count(archive: &Archive) -> Result<u64> {
    story::Entity::find().count(&archive.db).await.doing("counting stories")
}
