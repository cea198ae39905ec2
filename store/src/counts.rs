//! Attention over time: per day, week or month, how many stories a filter selects, how many
//! story clusters (copies folded: a wire story carried by 40 outlets counts once), and how many
//! of each there are without the query, for the share.
//!
//! A cluster counts once in each period in which one of its selected stories was published; a
//! story in no cluster is its own. The archive counts in SQL (grouped by the period, clusters as
//! `COUNT(DISTINCT COALESCE(cluster_representative, id))`) when the query's index answer is exact
//! ([`crate::matching::Matcher::exact`]); otherwise (phrases, `title:`, stories whose words are
//! not written yet) the candidates are read a page at a time and each is checked. Stories without
//! a publication day are not counted.

use std::collections::{BTreeMap, HashSet};

use chrono::{Datelike, Days, NaiveDate};
use sea_orm::sea_query::{Alias, Condition, Expr, ExprTrait, Query};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait,
};

use crate::Archive;
use crate::entity::story;
use crate::error::{Context as _, Error, Result};
use crate::stories::{Filter, Story};

/// The story clusters among the rows counted, copies folded: a story in no cluster counts as
/// its own.
pub(crate) const COUNT_CLUSTERS: &str =
    r#"COUNT(DISTINCT COALESCE("stories"."cluster_representative", "stories"."id"))"#;

/// The length of a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// Calendar days (the source's).
    Day,
    /// Weeks from Monday.
    Week,
    /// Calendar months.
    Month,
}

impl Period {
    /// The first day of the period `day` falls in.
    pub fn start(self, day: NaiveDate) -> NaiveDate {
        match self {
            Period::Day => day,
            Period::Week => day - Days::new(u64::from(day.weekday().num_days_from_monday())),
            Period::Month => day.with_day(1).unwrap_or(day),
        }
    }

    /// The period's start as the backend computes it from `stories.published_day`, as text.
    fn sql(self, backend: DatabaseBackend) -> &'static str {
        match (backend, self) {
            (DatabaseBackend::Postgres, Period::Day) => {
                r#"to_char("stories"."published_day", 'YYYY-MM-DD')"#
            }
            (DatabaseBackend::Postgres, Period::Week) => {
                r#"to_char(date_trunc('week', "stories"."published_day"), 'YYYY-MM-DD')"#
            }
            (DatabaseBackend::Postgres, Period::Month) => {
                r#"to_char(date_trunc('month', "stories"."published_day"), 'YYYY-MM-DD')"#
            }
            (_, Period::Day) => r#"date("stories"."published_day")"#,
            (_, Period::Week) => {
                r#"date("stories"."published_day", '-' || ((CAST(strftime('%w', "stories"."published_day") AS INTEGER) + 6) % 7) || ' days')"#
            }
            (_, Period::Month) => r#"strftime('%Y-%m-01', "stories"."published_day")"#,
        }
    }
}

/// One period's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodCount {
    /// The period's first day.
    pub start: NaiveDate,
    /// Stories the filter selects.
    pub stories: u64,
    /// Story clusters the filter selects (a story in no cluster is one).
    pub clusters: u64,
    /// Stories of the filter's sources and days, whatever the query and language.
    pub all_stories: u64,
    /// Story clusters of the filter's sources and days.
    pub all_clusters: u64,
}

/// Stories and clusters a filter selects, per period, and all stories and clusters of its sources
/// and days; by period, every period with stories of those sources (empty ones left out).
pub async fn counts(
    archive: &Archive,
    filter: &Filter,
    period: Period,
) -> Result<Vec<PeriodCount>> {
    let selected = Filter { one_per_cluster: false, ..filter.clone() };
    let mut periods: BTreeMap<NaiveDate, PeriodCount> = BTreeMap::new();
    for (start, stories, clusters) in totals(archive, filter, period).await? {
        let row = periods.entry(start).or_insert_with(|| empty(start));
        row.all_stories = stories;
        row.all_clusters = clusters;
    }
    let (condition, exact) = selected.condition(archive).await?;
    let counted = if exact {
        grouped(archive, condition, period).await?
    } else {
        checked(archive, &selected, condition, period).await?
    };
    for (start, stories, clusters) in counted {
        let row = periods.entry(start).or_insert_with(|| empty(start));
        row.stories = stories;
        row.clusters = clusters;
    }
    Ok(periods.into_values().collect())
}

fn empty(start: NaiveDate) -> PeriodCount {
    PeriodCount { start, stories: 0, clusters: 0, all_stories: 0, all_clusters: 0 }
}

/// All stories and clusters of the filter's sources and days, per period (whatever its query and
/// language): the stories, and those in no cluster, from the totals kept per source and day
/// (`story_days`, migration `m0014_story_days`); the distinct clusters of the others from the
/// partial index of the stories in a cluster (`idx_stories_clustered`).
async fn totals(
    archive: &Archive,
    filter: &Filter,
    period: Period,
) -> Result<Vec<(NaiveDate, u64, u64)>> {
    let backend = archive.db.get_database_backend();
    let mut days = Query::select();
    days.from(Alias::new("story_days"))
        .column(Alias::new("day"))
        .expr(Expr::cust("CAST(SUM(stories) AS BIGINT)"))
        .expr(Expr::cust("CAST(SUM(unclustered) AS BIGINT)"))
        .and_where(Expr::col(Alias::new("stories")).gt(0))
        .group_by_col(Alias::new("day"));
    if !filter.source_ids.is_empty() {
        days.and_where(Expr::col(Alias::new("source_id")).is_in(filter.source_ids.iter().copied()));
    }
    if let Some(day) = filter.from_day {
        days.and_where(Expr::col(Alias::new("day")).gte(day));
    }
    if let Some(day) = filter.to_day {
        days.and_where(Expr::col(Alias::new("day")).lte(day));
    }
    let rows: Vec<(NaiveDate, i64, i64)> = archive
        .db
        .query_all_raw(backend.build(&days))
        .await
        .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
        .doing("reading the stories kept per day")?;
    let mut periods: BTreeMap<NaiveDate, (u64, u64)> = BTreeMap::new();
    for (day, stories, unclustered) in rows {
        let entry = periods.entry(period.start(day)).or_default();
        entry.0 += u64::try_from(stories).unwrap_or(0);
        entry.1 += u64::try_from(unclustered).unwrap_or(0);
    }
    let all = Filter { query: None, language: None, one_per_cluster: false, ..filter.clone() };
    let (condition, _) = all.condition(archive).await?;
    let start = period.sql(backend);
    let select = story::Entity::find()
        .select_only()
        .column_as(Expr::cust(start), "start")
        .column_as(Expr::cust(r#"COUNT(DISTINCT "stories"."cluster_representative")"#), "clusters")
        .filter(condition)
        .filter(story::Column::ClusterRepresentative.is_not_null())
        .filter(story::Column::PublishedDay.is_not_null())
        .group_by(Expr::cust(start));
    let rows: Vec<(String, i64)> = archive
        .db
        .query_all_raw(select.build(backend))
        .await
        .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
        .doing("counting the clusters per period")?;
    for (start, clusters) in rows {
        let day = parse_start(&start)?;
        periods.entry(day).or_default().1 += u64::try_from(clusters).unwrap_or(0);
    }
    Ok(periods
        .into_iter()
        .filter(|(_, (stories, _))| *stories > 0)
        .map(|(start, (stories, clusters))| (start, stories, clusters))
        .collect())
}

fn parse_start(start: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(start, "%Y-%m-%d")
        .map_err(|_| Error::Corrupt { what: format!("period start {start:?}") })
}

/// Counts in SQL: per period, stories and distinct clusters.
async fn grouped(
    archive: &Archive,
    condition: Condition,
    period: Period,
) -> Result<Vec<(NaiveDate, u64, u64)>> {
    let backend = archive.db.get_database_backend();
    let start = period.sql(backend);
    let select = story::Entity::find()
        .select_only()
        .column_as(Expr::cust(start), "start")
        .column_as(Expr::cust("COUNT(*)"), "stories")
        .column_as(Expr::cust(COUNT_CLUSTERS), "clusters")
        .filter(condition)
        .filter(story::Column::PublishedDay.is_not_null())
        .group_by(Expr::cust(start));
    let rows: Vec<(String, i64, i64)> =
        by_facts(archive, select).await.doing("counting stories per period")?;
    rows.into_iter()
        .map(|(start, stories, clusters)| {
            let day = parse_start(&start)?;
            Ok((day, u64::try_from(stories).unwrap_or(0), u64::try_from(clusters).unwrap_or(0)))
        })
        .collect()
}

/// The covering index of the columns counts read (SQLite; migration `m0012_phrase_pairs`).
const FACTS_INDEX: &str = "idx_stories_facts";

/// Runs a counting `select` over `stories`, its rows as tuples. On SQLite it reads the covering
/// index of the story's id, day, cluster representative and source (`idx_stories_facts`) instead of
/// the table: a story's row holds its text and words, kilobytes, and a count over 200,000 stories
/// read the table's pages for each (seconds), where the index has a few hundred stories a page.
/// SQLite's planner does not take the index by itself for `id IN (...)` (it looks a row up by its
/// id), so the statement names it (`INDEXED BY`).
pub(crate) async fn by_facts<T: sea_orm::TryGetableMany>(
    archive: &Archive,
    select: sea_orm::Select<story::Entity>,
) -> std::result::Result<Vec<T>, sea_orm::DbErr> {
    let backend = archive.db.get_database_backend();
    let mut statement = select.build(backend);
    if backend == DatabaseBackend::Sqlite {
        statement.sql = statement.sql.replacen(
            r#"FROM "stories""#,
            &format!(r#"FROM "stories" INDEXED BY "{FACTS_INDEX}""#),
            1,
        );
    }
    archive
        .db
        .query_all_raw(statement)
        .await?
        .iter()
        .map(|row| row.try_get_many_by_index())
        .collect()
}

/// Counts candidates checked one by one ([`crate::matching::Matcher::matches`]).
async fn checked(
    archive: &Archive,
    filter: &Filter,
    condition: Condition,
    period: Period,
) -> Result<Vec<(NaiveDate, u64, u64)>> {
    let mut periods: BTreeMap<NaiveDate, (u64, HashSet<i64>)> = BTreeMap::new();
    each_match(archive, filter, condition, true, |story, fold| {
        if let Some(day) = story.story.published_day {
            let entry = periods.entry(period.start(day)).or_default();
            entry.0 += 1;
            entry.1.insert(fold);
        }
    })
    .await?;
    Ok(periods
        .into_iter()
        .map(|(start, (stories, clusters))| (start, stories, clusters.len() as u64))
        .collect())
}

/// Calls `f` with each story `condition` selects that the filter's query matches, by id, with
/// the key its cluster is counted by (its representative, or itself); with `dated`, only the
/// stories with a publication day.
pub(crate) async fn each_match(
    archive: &Archive,
    filter: &Filter,
    condition: Condition,
    dated: bool,
    mut f: impl FnMut(&Story, i64),
) -> Result<()> {
    let mut after = 0;
    loop {
        let mut query = crate::stories::readable()
            .filter(condition.clone())
            .filter(story::Column::Id.gt(after))
            .order_by_asc(story::Column::Id)
            .limit(500);
        if dated {
            query = query.filter(story::Column::PublishedDay.is_not_null());
        }
        let rows = query.all(&archive.db).await.doing("reading stories to count")?;
        let Some(last) = rows.last() else { return Ok(()) };
        after = last.id;
        for row in rows {
            let fold = row.cluster_representative.unwrap_or(row.id);
            let story = Story::try_from(row)?;
            if filter.query.as_ref().is_none_or(|matcher| matcher.matches(&story)) {
                f(&story, fold);
            }
        }
    }
}
