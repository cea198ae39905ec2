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
//!
//! A long-lived process that keeps every story's facts in memory ([`crate::facts`],
//! [`Archive::keep_facts`]) counts an exact query's matches there instead: the same counts,
//! without a lookup per match in the database.

use std::collections::{BTreeMap, HashSet};

use chrono::{Datelike, Days, NaiveDate};
use sea_orm::sea_query::{Alias, Condition, Expr, ExprTrait, Query, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait,
};

use crate::Archive;
use crate::entity::story;
use crate::error::{Context as _, Error, Result};
use crate::stories::{Filter, Story};

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

    /// The first day of the period after the one `day` falls in.
    pub fn next(self, day: NaiveDate) -> NaiveDate {
        let start = self.start(day);
        match self {
            Period::Day => start + Days::new(1),
            Period::Week => start + Days::new(7),
            Period::Month => start.checked_add_months(chrono::Months::new(1)).unwrap_or(start),
        }
    }

    /// The name of the period's kind in the kept totals (`period_clusters.kind`).
    fn kind(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
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
            // The column as it is (`YYYY-MM-DD`): `date()` parsed it again for every story.
            (_, Period::Day) => r#""stories"."published_day""#,
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
    let kept = crate::facts::tally(archive, &selected, crate::facts::By::Period(period)).await?;
    let counted = match kept {
        Some(rows) => rows
            .into_iter()
            .map(|(start, stories, clusters)| {
                let start = i32::try_from(start)
                    .ok()
                    .and_then(NaiveDate::from_num_days_from_ce_opt)
                    .ok_or_else(|| Error::Corrupt { what: format!("period start {start}") })?;
                Ok((start, stories, clusters))
            })
            .collect::<Result<Vec<_>>>()?,
        None => match self::selected(archive, &selected, true).await? {
            Some(statement) => grouped(archive, statement.select, period).await?,
            None => {
                let (condition, _) = selected.condition(archive).await?;
                checked(archive, &selected, condition, period).await?
            }
        },
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
/// (`story_days`, migration `m0014_story_days`); the clusters of the clustered stories, for every
/// source, from those kept per period (`period_clusters`, migration `m0015_folded_totals`), and
/// for chosen sources (and the days of a period the filter's days cut) counted from the partial
/// index of the stories in a cluster (`idx_stories_clustered`).
async fn totals(
    archive: &Archive,
    filter: &Filter,
    period: Period,
) -> Result<Vec<(NaiveDate, u64, u64)>> {
    let mut periods: BTreeMap<NaiveDate, (u64, u64)> = BTreeMap::new();
    // Counted from the facts kept in memory when they are (a scan of every story's, cheaper than
    // summing tens of thousands of `story_days` rows), else read from `story_days`.
    let everything =
        Filter { query: None, language: None, one_per_cluster: false, ..filter.clone() };
    let kept = crate::facts::tally(archive, &everything, crate::facts::By::Totals(period)).await?;
    match kept {
        Some(rows) => {
            for (start, stories, unclustered) in rows {
                let start = i32::try_from(start)
                    .ok()
                    .and_then(NaiveDate::from_num_days_from_ce_opt)
                    .ok_or_else(|| Error::Corrupt { what: format!("period start {start}") })?;
                periods.insert(start, (stories, unclustered));
            }
        }
        None => periods = kept_totals(archive, filter, period).await?,
    }
    let clustered = if filter.source_ids.is_empty() {
        kept_clusters(archive, filter, period).await?
    } else {
        counted_clusters(archive, filter, filter.from_day, filter.to_day, period).await?
    };
    for (day, clusters) in clustered {
        periods.entry(day).or_default().1 += clusters;
    }
    Ok(periods
        .into_iter()
        .filter(|(_, (stories, _))| *stories > 0)
        .map(|(start, (stories, clusters))| (start, stories, clusters))
        .collect())
}

/// The stories of the filter's sources and days, and those in no cluster, per period, from the
/// totals kept per source and day (`story_days`).
async fn kept_totals(
    archive: &Archive,
    filter: &Filter,
    period: Period,
) -> Result<BTreeMap<NaiveDate, (u64, u64)>> {
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
    Ok(periods)
}

/// The clusters of every source's clustered stories per period, within the filter's days: those
/// of the periods wholly inside them as kept (`period_clusters`), those of a period they cut
/// (a week or a month) counted over its days inside them.
async fn kept_clusters(
    archive: &Archive,
    filter: &Filter,
    period: Period,
) -> Result<Vec<(NaiveDate, u64)>> {
    // The first and last whole periods' starts, and the days of cut periods to count.
    let mut counted = Vec::new();
    let first = match filter.from_day {
        Some(day) if period.start(day) != day => {
            let next = period.next(day);
            counted.push((day, next.pred_opt().unwrap_or(day)));
            Some(next)
        }
        day => day,
    };
    let last = match filter.to_day {
        Some(day) if period.next(day) != day.succ_opt().unwrap_or(day) => {
            let start = period.start(day);
            counted.push((start, day));
            Some(start.pred_opt().unwrap_or(start))
        }
        day => day,
    };
    let mut kept: Vec<(NaiveDate, u64)> = Vec::new();
    if let (Some(first), Some(last)) = (first, last)
        && first > last
    {
        // No whole period: the filter's days are counted as they are.
        counted = vec![(filter.from_day.unwrap_or(first), filter.to_day.unwrap_or(last))];
    } else {
        let backend = archive.db.get_database_backend();
        let mut select = Query::select();
        select
            .from(Alias::new("period_clusters"))
            .column(Alias::new("period_start"))
            .column(Alias::new("clusters"))
            .and_where(Expr::col(Alias::new("kind")).eq(period.kind()));
        if let Some(first) = first {
            select.and_where(Expr::col(Alias::new("period_start")).gte(first));
        }
        if let Some(last) = last {
            select.and_where(Expr::col(Alias::new("period_start")).lte(last));
        }
        let rows: Vec<(NaiveDate, i64)> = archive
            .db
            .query_all_raw(backend.build(&select))
            .await
            .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
            .doing("reading the clusters kept per period")?;
        kept.extend(rows.into_iter().map(|(start, n)| (start, u64::try_from(n).unwrap_or(0))));
    }
    counted.sort();
    counted.dedup();
    for (from, to) in counted {
        kept.extend(counted_clusters(archive, filter, Some(from), Some(to), period).await?);
    }
    Ok(kept)
}

/// The distinct clusters of the filter's sources' clustered stories per period, from `from` to
/// `to`, counted from the partial index of the stories in a cluster.
async fn counted_clusters(
    archive: &Archive,
    filter: &Filter,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    period: Period,
) -> Result<Vec<(NaiveDate, u64)>> {
    let backend = archive.db.get_database_backend();
    let all = Filter {
        query: None,
        language: None,
        one_per_cluster: false,
        from_day: from,
        to_day: to,
        ..filter.clone()
    };
    let start = period.sql(backend);
    let select = story::Entity::find()
        .select_only()
        .column_as(Expr::cust(start), "start")
        .column_as(Expr::cust(r#"COUNT(DISTINCT "stories"."cluster_representative")"#), "clusters")
        .filter(all.plain_condition())
        .filter(story::Column::ClusterRepresentative.is_not_null())
        .filter(story::Column::PublishedDay.is_not_null())
        .group_by(Expr::cust(start));
    let rows: Vec<(String, i64)> = archive
        .db
        .query_all_raw(select.build(backend))
        .await
        .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
        .doing("counting the clusters per period")?;
    rows.into_iter()
        .map(|(start, clusters)| Ok((parse_start(&start)?, u64::try_from(clusters).unwrap_or(0))))
        .collect()
}

fn parse_start(start: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(start, "%Y-%m-%d")
        .map_err(|_| Error::Corrupt { what: format!("period start {start:?}") })
}

/// The columns a count of stories and clusters reads, in this order: the stories, those in a
/// cluster, and the distinct clusters of those ([`folded`] makes them the clusters).
pub(crate) const COUNTED: [&str; 3] = [
    "COUNT(*)",
    r#"COUNT("stories"."cluster_representative")"#,
    r#"COUNT(DISTINCT "stories"."cluster_representative")"#,
];

/// Stories and clusters from the [`COUNTED`] columns: a story in no cluster is a cluster of its
/// own (only the clustered stories go through `DISTINCT`, the costly part of a count).
pub(crate) fn folded(stories: i64, clustered: i64, distinct: i64) -> (u64, u64) {
    let n = |x: i64| u64::try_from(x).unwrap_or(0);
    (n(stories), n(stories).saturating_sub(n(clustered)) + n(distinct))
}

/// The facts of each story, by its id (SQLite; migration `m0015_folded_totals`).
const FACTS: &str = "story_facts";

/// A counting statement's `FROM` and `WHERE` for the stories `filter` selects, named `"stories"`
/// (its columns and grouping are the caller's); `None` when the archive cannot decide the query
/// exactly (its candidates are then checked one by one).
///
/// On SQLite, with `facts`, the statement reads the narrow `story_facts` (source, day, cluster
/// representative and language by story id) in place of the stories' wide rows; and a query whose
/// words the index answers starts from the FTS5 table's matches, joined by id (the index hands
/// them over in id order, each looked up by its rowid), instead of testing each story for being
/// among them (`id IN (...)`, which first copies every match into a temporary table).
pub(crate) async fn selected(
    archive: &Archive,
    filter: &Filter,
    facts: bool,
) -> Result<Option<Selected>> {
    let backend = archive.db.get_database_backend();
    let sqlite = backend == DatabaseBackend::Sqlite;
    let mut select = Query::select();
    if sqlite && facts {
        select.from_as(Alias::new(FACTS), story::Entity);
    } else {
        select.from(story::Entity);
    }
    let mut condition = filter.plain_condition();
    let mut joined = false;
    if let Some(matcher) = &filter.query {
        if !matcher.exact() || crate::search::any_missing(&archive.db).await? {
            return Ok(None);
        }
        match matcher.index_join(backend).filter(|_| sqlite) {
            Some((expr, rest)) => {
                select.inner_join(
                    Alias::new("story_search"),
                    Expr::cust(r#"story_search.rowid = "stories"."id""#),
                );
                condition = condition.add(Expr::cust_with_values("story_search MATCH ?", [expr]));
                if let Some(rest) = rest {
                    condition = condition.add(rest);
                }
                if let Some((first, last)) =
                    crate::stories::day_window_ids(archive, filter.from_day, filter.to_day).await?
                {
                    condition = condition
                        .add(Expr::cust_with_values("story_search.rowid >= ?", [first]))
                        .add(Expr::cust_with_values("story_search.rowid <= ?", [last]));
                }
                joined = true;
            }
            None => condition = condition.add(matcher.condition(backend, false).0),
        }
    }
    select.cond_where(condition);
    Ok(Some(Selected { select, joined }))
}

/// A counting statement of [`selected`].
pub(crate) struct Selected {
    /// `FROM` and `WHERE`.
    pub(crate) select: SelectStatement,
    /// Whether it starts from the FTS5 table's matches (`story_search`, ordered by `rowid`).
    pub(crate) joined: bool,
}

/// Counts in SQL: per period, stories and distinct clusters.
async fn grouped(
    archive: &Archive,
    mut select: SelectStatement,
    period: Period,
) -> Result<Vec<(NaiveDate, u64, u64)>> {
    let start = period.sql(archive.db.get_database_backend());
    select.expr(Expr::cust(start));
    let day = Expr::col((story::Entity, story::Column::PublishedDay));
    // By day, grouped by the column itself: its text is then made once a day, not once a story.
    let group = if period == Period::Day { day.clone() } else { Expr::cust(start) };
    select.cond_where(day.is_not_null());
    let rows: Vec<(String, u64, u64)> =
        per_key(archive, select, group, "counting stories per period").await?;
    rows.into_iter()
        .map(|(start, stories, clusters)| Ok((parse_start(&start)?, stories, clusters)))
        .collect()
}

/// Runs `select`, whose one column so far is a key, grouped by `group`: each key with its stories
/// and clusters (copies folded, [`folded`]).
pub(crate) async fn per_key<K: sea_orm::TryGetable>(
    archive: &Archive,
    mut select: SelectStatement,
    group: Expr,
    doing: &'static str,
) -> Result<Vec<(K, u64, u64)>> {
    for column in COUNTED {
        select.expr(Expr::cust(column));
    }
    select.add_group_by([group]);
    let backend = archive.db.get_database_backend();
    let rows: Vec<(K, i64, i64, i64)> = archive
        .db
        .query_all_raw(backend.build(&select))
        .await
        .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
        .doing(doing)?;
    Ok(rows
        .into_iter()
        .map(|(key, stories, clustered, distinct)| {
            let (stories, clusters) = folded(stories, clustered, distinct);
            (key, stories, clusters)
        })
        .collect())
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
