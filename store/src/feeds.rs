//! Feeds and sitemaps of a source, with their conditional-GET state and poll schedule.
//!
//! The schedule itself (intervals, backoff) is the crawler's policy; this module records it.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::NotSet, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};

use crate::Archive;
use crate::entity::feed;
use crate::error::{Context as _, Error, Result};
use crate::sources::inserted_row;
use crate::text::{self, line_opt, line_owned};

/// What a feed URL serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeedKind {
    /// RSS 0.9x/2.0.
    Rss,
    /// Atom 1.0.
    Atom,
    /// RSS 1.0 (RDF).
    Rdf,
    /// JSON Feed.
    Json,
    /// A sitemap `<urlset>`.
    Sitemap,
    /// A `<sitemapindex>` of further sitemaps.
    SitemapIndex,
    /// A Google News sitemap (a urlset with `news:` fields).
    NewsSitemap,
}

impl FeedKind {
    /// Every kind, for parsing and listing.
    pub const ALL: [FeedKind; 7] = [
        FeedKind::Rss,
        FeedKind::Atom,
        FeedKind::Rdf,
        FeedKind::Json,
        FeedKind::Sitemap,
        FeedKind::SitemapIndex,
        FeedKind::NewsSitemap,
    ];

    /// The name stored in the archive.
    pub fn as_str(self) -> &'static str {
        match self {
            FeedKind::Rss => "rss",
            FeedKind::Atom => "atom",
            FeedKind::Rdf => "rdf",
            FeedKind::Json => "json",
            FeedKind::Sitemap => "sitemap",
            FeedKind::SitemapIndex => "sitemap_index",
            FeedKind::NewsSitemap => "news_sitemap",
        }
    }

    /// The kind with this stored name.
    pub fn parse(name: &str) -> Option<FeedKind> {
        FeedKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// A feed or sitemap to add.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFeed {
    /// The source it belongs to.
    pub source_id: i64,
    /// Its URL as discovered.
    pub url: String,
    /// The feed-URL comparison key; unique in the archive.
    pub url_key: String,
    /// What it serves.
    pub kind: FeedKind,
    /// Its title, when it has one.
    pub title: Option<String>,
    /// How it was found, e.g. `link[rel=alternate]`, `robots.txt`, `guess:/feed`, `manual`.
    pub discovered_via: String,
    /// 0 for a feed found on the site; one more than its index for a sitemap listed by a
    /// sitemap index (which bounds how deep nested indexes are followed).
    pub depth: i32,
    /// The poll interval the feed itself asks for (`sy:updatePeriod`), in seconds.
    pub update_hint_secs: Option<i64>,
    /// The first poll interval.
    pub poll_interval_secs: i64,
    /// When to poll it first; `None` means as soon as possible.
    pub next_poll_at: Option<DateTime<Utc>>,
}

/// A stored feed or sitemap.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// The archive's id.
    pub id: i64,
    /// The source it belongs to.
    pub source_id: i64,
    /// Its URL.
    pub url: String,
    /// The feed-URL comparison key.
    pub url_key: String,
    /// What it serves.
    pub kind: FeedKind,
    /// Its title.
    pub title: Option<String>,
    /// How it was found.
    pub discovered_via: String,
    /// How many sitemap indexes lead to it (0 for a feed found on the site).
    pub depth: i32,
    /// The poll interval the feed itself asks for, in seconds.
    pub update_hint_secs: Option<i64>,
    /// The last `ETag` the server sent.
    pub etag: Option<String>,
    /// The last `Last-Modified` the server sent, verbatim.
    pub last_modified: Option<String>,
    /// A hash of the last body that parsed, to skip unchanged documents.
    pub body_hash: Option<String>,
    /// The current poll interval.
    pub poll_interval_secs: i64,
    /// When it is due next; `None` means now.
    pub next_poll_at: Option<DateTime<Utc>>,
    /// Failures since the last success (fractional: soft and temporary failures count less).
    pub failure_count: f64,
    /// The last poll's outcome, for people: `Working`, `HTTP 404 Not Found`, `connect timeout`.
    pub last_status: Option<String>,
    /// When it was last polled.
    pub last_polled_at: Option<DateTime<Utc>>,
    /// When a poll last succeeded.
    pub last_success_at: Option<DateTime<Utc>>,
    /// When a poll last found a new item.
    pub last_new_item_at: Option<DateTime<Utc>>,
    /// When it was added.
    pub created_at: DateTime<Utc>,
}

impl TryFrom<feed::Model> for Feed {
    type Error = Error;

    fn try_from(row: feed::Model) -> Result<Feed> {
        let kind = FeedKind::parse(&row.kind).ok_or_else(|| Error::Corrupt {
            what: format!("feed {}: unknown kind {:?}", row.id, row.kind),
        })?;
        Ok(Feed {
            id: row.id,
            source_id: row.source_id,
            url: row.url,
            url_key: row.url_key,
            kind,
            title: row.title,
            discovered_via: row.discovered_via,
            depth: row.depth,
            update_hint_secs: row.update_hint_secs,
            etag: row.etag,
            last_modified: row.last_modified,
            body_hash: row.body_hash,
            poll_interval_secs: row.poll_interval_secs,
            next_poll_at: row.next_poll_at,
            failure_count: row.failure_count,
            last_status: row.last_status,
            last_polled_at: row.last_polled_at,
            last_success_at: row.last_success_at,
            last_new_item_at: row.last_new_item_at,
            created_at: row.created_at,
        })
    }
}

/// Adds a feed unless one with the same key exists. Returns the stored feed and whether it is new.
/// Text is kept as [`text::line`] says.
pub async fn add(archive: &Archive, new: &NewFeed) -> Result<(Feed, bool)> {
    let url_key = text::line(&new.url_key);
    let row = feed::ActiveModel {
        id: NotSet,
        source_id: Set(new.source_id),
        url: Set(line_owned(&new.url)),
        url_key: Set(url_key.clone().into_owned()),
        kind: Set(new.kind.as_str().to_owned()),
        title: Set(line_opt(new.title.as_deref())),
        discovered_via: Set(line_owned(&new.discovered_via)),
        depth: Set(new.depth),
        update_hint_secs: Set(new.update_hint_secs),
        etag: Set(None),
        last_modified: Set(None),
        body_hash: Set(None),
        poll_interval_secs: Set(new.poll_interval_secs),
        next_poll_at: Set(new.next_poll_at),
        failure_count: Set(0.0),
        last_status: Set(None),
        last_polled_at: Set(None),
        last_success_at: Set(None),
        last_new_item_at: Set(None),
        created_at: Set(Utc::now()),
    };
    let result = feed::Entity::insert(row)
        .on_conflict_do_nothing_on([feed::Column::UrlKey])
        .exec(&archive.db)
        .await
        .doing("adding a feed")?;
    let stored = feed::Entity::find()
        .filter(feed::Column::UrlKey.eq(url_key.as_ref()))
        .one(&archive.db)
        .await
        .doing("reading a feed")?
        .ok_or_else(|| Error::NotFound { what: format!("feed {}", new.url) })?;
    Ok((Feed::try_from(stored)?, inserted_row(&result)))
}

/// The feed with this id.
pub async fn get(archive: &Archive, id: i64) -> Result<Feed> {
    feed::Entity::find_by_id(id)
        .one(&archive.db)
        .await
        .doing("reading a feed")?
        .ok_or_else(|| Error::NotFound { what: format!("feed {id}") })?
        .try_into()
}

/// The feeds of a source, by id.
pub async fn for_source(archive: &Archive, source_id: i64) -> Result<Vec<Feed>> {
    feed::Entity::find()
        .filter(feed::Column::SourceId.eq(source_id))
        .order_by_asc(feed::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing feeds")?
        .into_iter()
        .map(Feed::try_from)
        .collect()
}

/// Up to `limit` feeds due at `now`, never-polled first, then the most overdue.
pub async fn due(archive: &Archive, now: DateTime<Utc>, limit: u64) -> Result<Vec<Feed>> {
    feed::Entity::find()
        .filter(
            Condition::any()
                .add(feed::Column::NextPollAt.is_null())
                .add(feed::Column::NextPollAt.lte(now)),
        )
        .order_by_asc(Expr::col(feed::Column::NextPollAt).is_not_null())
        .order_by_asc(feed::Column::NextPollAt)
        .order_by_asc(feed::Column::Id)
        .limit(limit)
        .all(&archive.db)
        .await
        .doing("listing due feeds")?
        .into_iter()
        .map(Feed::try_from)
        .collect()
}

/// How many feeds and sitemaps are due for a poll at `now` (never polled, or past their time).
pub async fn count_due(archive: &Archive, now: DateTime<Utc>) -> Result<u64> {
    use sea_orm::{Condition, PaginatorTrait};
    feed::Entity::find()
        .filter(
            Condition::any()
                .add(feed::Column::NextPollAt.is_null())
                .add(feed::Column::NextPollAt.lte(now)),
        )
        .count(&archive.db)
        .await
        .doing("counting due feeds")
}

/// When the next feed is due: `None` without feeds; a time in the past when one is overdue or was
/// never polled.
pub async fn next_due(archive: &Archive) -> Result<Option<DateTime<Utc>>> {
    let never: Option<i64> = feed::Entity::find()
        .select_only()
        .column(feed::Column::Id)
        .filter(feed::Column::NextPollAt.is_null())
        .into_tuple()
        .one(&archive.db)
        .await
        .doing("finding the next due feed")?;
    if never.is_some() {
        return Ok(Some(DateTime::<Utc>::MIN_UTC));
    }
    let next: Option<Option<DateTime<Utc>>> = feed::Entity::find()
        .select_only()
        .column_as(feed::Column::NextPollAt.min(), "next")
        .into_tuple()
        .one(&archive.db)
        .await
        .doing("finding the next due feed")?;
    Ok(next.flatten())
}

/// Corrects what a feed serves (a sitemap index's child turns out to be a news sitemap, a feed
/// changes format).
pub async fn set_kind(archive: &Archive, id: i64, kind: FeedKind) -> Result<()> {
    let result = feed::Entity::update_many()
        .col_expr(feed::Column::Kind, Expr::value(kind.as_str()))
        .filter(feed::Column::Id.eq(id))
        .exec(&archive.db)
        .await
        .doing("changing a feed's kind")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("feed {id}") });
    }
    Ok(())
}

/// Every feed, by id.
pub async fn list(archive: &Archive) -> Result<Vec<Feed>> {
    feed::Entity::find()
        .order_by_asc(feed::Column::Id)
        .all(&archive.db)
        .await
        .doing("listing feeds")?
        .into_iter()
        .map(Feed::try_from)
        .collect()
}

/// The outcome of one poll, already scheduled by the crawler's policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Poll {
    /// When the poll happened.
    pub polled_at: DateTime<Utc>,
    /// Whether it succeeded (including "not modified").
    pub success: bool,
    /// The status for people.
    pub status: String,
    /// The new `ETag`, when the server sent one.
    pub etag: Option<String>,
    /// The new `Last-Modified`, when the server sent one.
    pub last_modified: Option<String>,
    /// The hash of the body, when one parsed.
    pub body_hash: Option<String>,
    /// Whether it found a new item.
    pub found_new_items: bool,
    /// The update interval the document asked for, when it said (kept otherwise).
    pub update_hint_secs: Option<i64>,
    /// The failure count after this poll.
    pub failure_count: f64,
    /// The interval chosen for the next poll.
    pub poll_interval_secs: i64,
    /// When to poll next.
    pub next_poll_at: DateTime<Utc>,
}

/// Records a poll's outcome and the next poll time. Validators and the body hash are kept from
/// the previous poll when this one did not bring new ones. Text is kept as [`text::line`] says.
pub async fn record_poll(archive: &Archive, id: i64, poll: &Poll) -> Result<Feed> {
    let mut row: feed::ActiveModel = feed::ActiveModel {
        last_polled_at: Set(Some(poll.polled_at)),
        last_status: Set(Some(line_owned(&poll.status))),
        failure_count: Set(poll.failure_count),
        poll_interval_secs: Set(poll.poll_interval_secs),
        next_poll_at: Set(Some(poll.next_poll_at)),
        ..Default::default()
    };
    if poll.success {
        row.last_success_at = Set(Some(poll.polled_at));
    }
    if poll.found_new_items {
        row.last_new_item_at = Set(Some(poll.polled_at));
    }
    if poll.etag.is_some() {
        row.etag = Set(line_opt(poll.etag.as_deref()));
    }
    if poll.last_modified.is_some() {
        row.last_modified = Set(line_opt(poll.last_modified.as_deref()));
    }
    if poll.body_hash.is_some() {
        row.body_hash = Set(line_opt(poll.body_hash.as_deref()));
    }
    if poll.update_hint_secs.is_some() {
        row.update_hint_secs = Set(poll.update_hint_secs);
    }
    let result = feed::Entity::update_many()
        .set(row)
        .filter(feed::Column::Id.eq(id))
        .exec(&archive.db)
        .await
        .doing("recording a feed poll")?;
    if result.rows_affected == 0 {
        return Err(Error::NotFound { what: format!("feed {id}") });
    }
    get(archive, id).await
}
