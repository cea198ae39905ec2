//! Every story's facts in memory, for a long-lived process: its source, publication day, cluster
//! representative and language, held densely by story id ("doc values", as search engines keep
//! them for aggregations), so that counts over time and top sources of a query count its matches
//! by array lookups instead of looking each match up in the database.
//!
//! Why: for a word in a third of a million stories, SQLite's FTS5 index lists the ~330,000
//! matches in about 8 ms, but looking each up in `story_facts` by id costs ~200 ns a match and
//! grouping them by day in SQL as much again (`docs/research.md`). Here the database only lists
//! the matches, handed over as one value (`group_concat(rowid)` of the FTS5 table on SQLite,
//! `string_agg(story_id)` of the narrow `story_terms` through its GIN index on PostgreSQL)
//! instead of a row each through the driver, and Rust counts them: stories per key, the matches
//! in no cluster, and the distinct clusters of the others by sorting (key, cluster) pairs.
//!
//! **Off unless asked for** ([`Archive::keep_facts`]): loading the facts of a million stories
//! costs about a second, more than one count in SQL, so a one-shot command keeps the SQL path and
//! the web server and the benchmark, which answer many, keep the facts. With them off, or for a
//! query the index does not decide exactly or that is not a plain index expression on SQLite (a
//! `source:` or `lang:` beside the words, a phrase of three words, `title:`), counts and top
//! sources run in SQL as before ([`crate::counts`], [`crate::top`]).
//!
//! **Never stale**: every insert, delete and change of a story's source, day, cluster
//! representative or language is logged by triggers (`fact_changes`, migration
//! `m0017_fact_changes`). Before each answer the log's end is read (one small query: SQLite's
//! highest log rowid; on PostgreSQL the changes of the transactions that were running, or not
//! yet started, when it last looked),
//! and the facts of the stories logged since are read again (all of them again when more than an
//! eighth of the stories changed). So an answer reflects every change committed before the call
//! began; one committed while it runs may or may not be in it (a story stored after the facts
//! were brought up to date and listed by the index is not counted), as with the SQL path's
//! several statements.
//!
//! **A bounded log**: [`Archive::trim_fact_changes`] (after each dedup batch) keeps the log's
//! latest rows, as many as an eighth of the highest story id and at least 10,000, and records
//! below which key the rows are gone (`fact_changes_trimmed`, migration
//! `m0018_fact_changes_trimmed`). A process that last looked before that key reads every story's
//! facts again, which it would have done anyway for that many changes; the mark is read in the
//! same statement as the rows, so never from a log with a hole in it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use chrono::{Datelike, NaiveDate};
use rustc_hash::{FxHashMap, FxHashSet};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement, Value};
use tokio::sync::{RwLock, RwLockReadGuard};

use crate::Archive;
use crate::counts::Period;
use crate::entity::story;
use crate::error::{Context as _, Result};
use crate::stories::Filter;

/// Stories whose facts are read in one statement when loading them all.
const CHUNK: i64 = 100_000;

/// Ids of changed stories read again in one statement.
const CHANGED_CHUNK: usize = 500;

/// The facts kept for an archive (shared by its clones).
#[derive(Default)]
pub(crate) struct Slot {
    keep: AtomicBool,
    facts: RwLock<Option<Facts>>,
    /// Answers given from the facts, for tests.
    answers: AtomicU64,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot").field("keep", &self.keep.load(Ordering::Relaxed)).finish()
    }
}

pub(crate) fn slot() -> Arc<Slot> {
    Arc::new(Slot::default())
}

/// No story has this id.
const ABSENT: u32 = u32::MAX;
/// A story without a publication day.
const NO_DAY: i32 = i32::MIN;

/// Every story's facts by id (index = id).
struct Facts {
    /// Where the log was when the facts were last brought up to date.
    horizon: Horizon,
    /// The story's source id, [`ABSENT`] for no story.
    source: Vec<u32>,
    /// The publication day (days from the common era), [`NO_DAY`] for none.
    day: Vec<i32>,
    /// The cluster representative's id, 0 for none.
    cluster: Vec<u32>,
    /// The language, as 1 + its place in `languages`; 0 for none.
    language: Vec<u16>,
    languages: Vec<String>,
    /// Whether every id fits (ids, source ids and representatives below 2³² − 1, fewer than
    /// 65,535 languages); otherwise the SQL path answers.
    usable: bool,
}

/// One story's facts as read.
struct Row {
    id: i64,
    source: i64,
    day: Option<NaiveDate>,
    cluster: Option<i64>,
    language: Option<String>,
}

impl Facts {
    fn empty(horizon: Horizon) -> Facts {
        Facts {
            horizon,
            source: Vec::new(),
            day: Vec::new(),
            cluster: Vec::new(),
            language: Vec::new(),
            languages: Vec::new(),
            usable: true,
        }
    }

    fn stories(&self) -> usize {
        self.source.len()
    }

    fn forget(&mut self, id: i64) {
        if let Ok(at) = usize::try_from(id)
            && at < self.source.len()
        {
            self.source[at] = ABSENT;
            self.day[at] = NO_DAY;
            self.cluster[at] = 0;
            self.language[at] = 0;
        }
    }

    fn set(&mut self, row: Row) {
        let fits = |x: i64| u32::try_from(x).ok().filter(|x| *x != ABSENT && *x != 0);
        let (Some(id), Some(source)) = (fits(row.id), fits(row.source)) else {
            self.usable = false;
            return;
        };
        let cluster = match row.cluster {
            None => 0,
            Some(cluster) => match fits(cluster) {
                Some(cluster) => cluster,
                None => {
                    self.usable = false;
                    return;
                }
            },
        };
        let language = match row.language {
            None => 0,
            Some(language) => match self.languages.iter().position(|l| *l == language) {
                Some(at) => at as u16 + 1,
                None if self.languages.len() < usize::from(u16::MAX) - 1 => {
                    self.languages.push(language);
                    self.languages.len() as u16
                }
                None => {
                    self.usable = false;
                    return;
                }
            },
        };
        let at = id as usize;
        if at >= self.source.len() {
            let len = (at + 1).max(self.source.len() + self.source.len() / 8);
            self.source.resize(len, ABSENT);
            self.day.resize(len, NO_DAY);
            self.cluster.resize(len, 0);
            self.language.resize(len, 0);
        }
        self.source[at] = source;
        self.day[at] = row.day.map_or(NO_DAY, |day| day.num_days_from_ce());
        self.cluster[at] = cluster;
        self.language[at] = language;
    }
}

impl Archive {
    /// Whether this process keeps every story's facts in memory for counts and top sources
    /// (module docs of [`crate::facts`]): for a process that answers many queries (a server, a
    /// benchmark). Off by default; turned off, the facts are kept but not used.
    pub fn keep_facts(&self, keep: bool) {
        self.facts.keep.store(keep, Ordering::Relaxed);
    }

    /// Reads every story's facts now (or brings them up to date), so that the first count does
    /// not wait for them; returns how many story ids they cover. Does nothing (0) unless
    /// [`Archive::keep_facts`].
    pub async fn load_facts(&self) -> Result<usize> {
        if !self.facts.keep.load(Ordering::Relaxed) {
            return Ok(0);
        }
        let facts = current(self).await?;
        Ok(facts.stories())
    }

    /// Trims the log of changed stories to its latest rows: as many as an eighth of the highest
    /// story id, and at least 10,000 (module docs of [`crate::facts`]); returns how many rows
    /// it deleted. A process whose kept facts are further behind reads them all again.
    pub async fn trim_fact_changes(&self) -> Result<u64> {
        let keep = (highest_story_id(self).await? / 8).max(10_000);
        self.trim_fact_changes_to(keep).await
    }

    /// [`Archive::trim_fact_changes`] keeping the latest `keep` rows (and those of the same key
    /// as the oldest kept, on PostgreSQL); for tests.
    #[doc(hidden)]
    pub async fn trim_fact_changes_to(&self, keep: i64) -> Result<u64> {
        let backend = self.db.get_database_backend();
        let key = if backend == DatabaseBackend::Sqlite { "seq" } else { "xid" };
        let txn = self.begin_write().await?;
        // The oldest key kept; rows below it go.
        let row: Option<(i64,)> = txn
            .query_one_raw(Statement::from_string(
                backend,
                format!(
                    "SELECT {key} FROM fact_changes ORDER BY {key} DESC LIMIT 1 OFFSET {}",
                    keep.max(1) - 1
                ),
            ))
            .await
            .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
            .doing("finding where to trim the log of changed stories")?;
        let Some((oldest,)) = row else {
            return Ok(0);
        };
        let deleted = txn
            .execute_raw(Statement::from_string(
                backend,
                format!("DELETE FROM fact_changes WHERE {key} < {oldest}"),
            ))
            .await
            .doing("trimming the log of changed stories")?
            .rows_affected();
        txn.execute_raw(Statement::from_string(
            backend,
            format!("UPDATE fact_changes_trimmed SET below = {oldest} WHERE below < {oldest}"),
        ))
        .await
        .doing("marking where the log of changed stories was trimmed")?;
        txn.commit().await.doing("trimming the log of changed stories")?;
        Ok(deleted)
    }

    /// How many counts and top lists the kept facts have answered (the others ran in SQL); for
    /// tests.
    #[doc(hidden)]
    pub fn facts_answers(&self) -> u64 {
        self.facts.answers.load(Ordering::Relaxed)
    }
}

/// What matches are counted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum By {
    /// The period the story was published in (stories without a day left out).
    Period(Period),
    /// The story's source.
    Source,
    /// The period the story was published in, without the distinct clusters: per period, the
    /// stories and those in no cluster (the shares' denominators, which `story_days` keeps).
    Totals(Period),
}

/// Per key (a period's first day as days from the common era, or a source id), the stories the
/// filter selects and their clusters (a story in no cluster is its own; with [`By::Totals`], the
/// stories in no cluster); `None` when the kept
/// facts cannot answer (not kept, or a query they cannot count: see the module docs), for the
/// caller's SQL path.
pub(crate) async fn tally(
    archive: &Archive,
    filter: &Filter,
    by: By,
) -> Result<Option<Vec<(i64, u64, u64)>>> {
    if !archive.facts.keep.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let backend = archive.db.get_database_backend();
    // The matching statement, before the facts are read: the query's shape decides whether
    // they are used at all.
    let matching = match &filter.query {
        None => None,
        Some(matcher) => {
            if !matcher.exact() || crate::search::any_missing(&archive.db).await? {
                return Ok(None);
            }
            Some(match (backend, matcher.index_join(backend)) {
                // The index's matches alone, bounded by the window's ids: SQLite's FTS5 table;
                // PostgreSQL's narrow `story_terms` (migration `m0020_story_terms`), so that no
                // row of `stories` is visited.
                (_, Some((expr, None))) => {
                    let (list, window) = if backend == DatabaseBackend::Sqlite {
                        (
                            "SELECT group_concat(rowid) FROM story_search \
                             WHERE story_search MATCH ?",
                            " AND rowid >= ? AND rowid <= ?",
                        )
                    } else {
                        (
                            "SELECT string_agg(story_id::text, ',') FROM story_terms \
                             WHERE terms @@ CAST($1 AS tsquery)",
                            " AND story_id BETWEEN $2 AND $3",
                        )
                    };
                    let mut sql = list.to_owned();
                    let mut values: Vec<Value> = vec![expr.into()];
                    if let Some((first, last)) =
                        crate::stories::day_window_ids(archive, filter.from_day, filter.to_day)
                            .await?
                    {
                        sql.push_str(window);
                        values.push(first.into());
                        values.push(last.into());
                    }
                    Statement::from_sql_and_values(backend, sql, values)
                }
                (DatabaseBackend::Sqlite, _) => return Ok(None),
                _ => {
                    let mut select = Query::select();
                    select
                        .from(story::Entity)
                        .expr(Expr::cust(r#"string_agg("stories"."id"::text, ',')"#))
                        .and_where(matcher.condition(backend, false).0);
                    backend.build(&select)
                }
            })
        }
    };
    let facts = current(archive).await?;
    if !facts.usable {
        return Ok(None);
    }
    let mut counter = Counter::new(&facts, filter, by);
    match matching {
        None => (1..facts.stories()).for_each(|id| counter.add(id)),
        Some(statement) => {
            let list = archive.one_text(statement, "listing the query's matches").await?;
            for id in ids(&list) {
                if let Ok(id) = usize::try_from(id) {
                    counter.add(id);
                }
            }
        }
    }
    archive.facts.answers.fetch_add(1, Ordering::Relaxed);
    Ok(Some(counter.finish(by)))
}

/// Counts matches by key.
struct Counter<'a> {
    facts: &'a Facts,
    sources: FxHashSet<u32>,
    from: i32,
    to: i32,
    /// The filter's language (1 + its place), 0 for any; `None` when no story has it.
    language: Option<u16>,
    dated: bool,
    by_source: bool,
    /// Whether the clustered matches' distinct clusters are counted.
    distinct: bool,
    /// Per key: stories, and those in no cluster.
    per: FxHashMap<i64, (u64, u64)>,
    /// (key, cluster) of the clustered matches.
    pairs: Vec<(i64, u32)>,
}

impl<'a> Counter<'a> {
    fn new(facts: &'a Facts, filter: &Filter, by: By) -> Counter<'a> {
        let language = match &filter.language {
            None => Some(0),
            Some(language) => {
                let language = crate::text::line(language);
                facts.languages.iter().position(|l| *l == *language).map(|at| at as u16 + 1)
            }
        };
        Counter {
            facts,
            sources: filter
                .source_ids
                .iter()
                .map(|id| u32::try_from(*id).unwrap_or(ABSENT))
                .collect(),
            from: filter.from_day.map_or(i32::MIN + 1, |day| day.num_days_from_ce()),
            to: filter.to_day.map_or(i32::MAX, |day| day.num_days_from_ce()),
            language,
            dated: matches!(by, By::Period(_) | By::Totals(_))
                || filter.from_day.is_some()
                || filter.to_day.is_some(),
            by_source: by == By::Source,
            distinct: !matches!(by, By::Totals(_)),
            per: FxHashMap::default(),
            pairs: Vec::new(),
        }
    }

    fn add(&mut self, id: usize) {
        let facts = self.facts;
        let Some(&source) = facts.source.get(id) else { return };
        if source == ABSENT {
            return;
        }
        let day = facts.day[id];
        if self.dated && (day == NO_DAY || day < self.from || day > self.to) {
            return;
        }
        if !self.sources.is_empty() && !self.sources.contains(&source) {
            return;
        }
        match self.language {
            None => return,
            Some(0) => {}
            Some(language) if facts.language[id] != language => return,
            Some(_) => {}
        }
        let key = if self.by_source { i64::from(source) } else { i64::from(day) };
        let cluster = facts.cluster[id];
        let entry = self.per.entry(key).or_default();
        entry.0 += 1;
        if cluster == 0 {
            entry.1 += 1;
        } else if self.distinct {
            self.pairs.push((key, cluster));
        }
    }

    fn finish(self, by: By) -> Vec<(i64, u64, u64)> {
        let Counter { mut per, mut pairs, .. } = self;
        if let By::Period(period) | By::Totals(period) = by
            && period != Period::Day
        {
            // Days to their periods' first days.
            let start = |day: i64| {
                i32::try_from(day)
                    .ok()
                    .and_then(NaiveDate::from_num_days_from_ce_opt)
                    .map_or(day, |day| i64::from(period.start(day).num_days_from_ce()))
            };
            let starts: FxHashMap<i64, i64> = per.keys().map(|day| (*day, start(*day))).collect();
            let mut periods: FxHashMap<i64, (u64, u64)> = FxHashMap::default();
            for (day, (stories, unclustered)) in per {
                let entry = periods.entry(starts[&day]).or_default();
                entry.0 += stories;
                entry.1 += unclustered;
            }
            per = periods;
            for pair in &mut pairs {
                pair.0 = starts[&pair.0];
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (key, _) in pairs {
            if let Some(entry) = per.get_mut(&key) {
                entry.1 += 1;
            }
        }
        let mut rows: Vec<(i64, u64, u64)> =
            per.into_iter().map(|(key, (stories, clusters))| (key, stories, clusters)).collect();
        rows.sort_unstable();
        rows
    }
}

/// The integers of a comma-separated list (what `group_concat` and `string_agg` give).
fn ids(list: &str) -> impl Iterator<Item = i64> + '_ {
    list.split(',').filter_map(|id| id.trim().parse().ok())
}

/// The facts, up to date with every change committed before the call (module docs), loaded
/// first if they are not yet.
async fn current(archive: &Archive) -> Result<RwLockReadGuard<'_, Facts>> {
    let slot = &archive.facts;
    {
        let guard = slot.facts.read().await;
        if let Some(facts) = guard.as_ref()
            && matches!(pending(archive, &facts.horizon).await?, Pending::None)
        {
            return Ok(RwLockReadGuard::map(guard, |facts| facts.as_ref().expect("checked")));
        }
    }
    let mut guard = slot.facts.write().await;
    match guard.as_mut() {
        None => *guard = Some(load(archive).await?),
        Some(facts) => match pending(archive, &facts.horizon).await? {
            Pending::None => {}
            Pending::Changed(horizon, changed) if changed.len() <= facts.stories() / 8 + 1_000 => {
                reread(archive, facts, &changed).await?;
                facts.horizon = horizon;
            }
            Pending::Changed(..) | Pending::Reload => *guard = Some(load(archive).await?),
        },
    }
    let guard = guard.downgrade();
    Ok(RwLockReadGuard::map(guard, |facts| facts.as_ref().expect("loaded")))
}

/// Where the log was when the facts were last brought up to date.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Horizon {
    /// SQLite: the highest `fact_changes.seq`. PostgreSQL: the first transaction id not yet
    /// given out (`pg_snapshot_xmax`): every change the facts have not seen carries this id or
    /// a later one, or one of `running`.
    end: i64,
    /// PostgreSQL: the transactions then still running (`pg_snapshot_xip`), whose changes were
    /// not visible yet.
    running: Vec<i64>,
}

/// What changed since the facts were brought up to date.
enum Pending {
    /// Nothing.
    None,
    /// Where the log is now, and the stories logged since.
    Changed(Horizon, Vec<i64>),
    /// The log is behind them (its table made again): read every story's facts again.
    Reload,
}

/// What the log holds after `horizon`.
async fn pending(archive: &Archive, horizon: &Horizon) -> Result<Pending> {
    let backend = archive.db.get_database_backend();
    if backend == DatabaseBackend::Sqlite {
        let end = log_end(archive).await?;
        if end.end == horizon.end {
            return Ok(Pending::None);
        }
        if end.end < horizon.end {
            return Ok(Pending::Reload);
        }
        // The rows and where the log was trimmed, in one statement (one read transaction).
        let statement = Statement::from_sql_and_values(
            backend,
            "SELECT group_concat(story_id), (SELECT MAX(below) FROM fact_changes_trimmed) \
             FROM fact_changes WHERE seq > ? AND seq <= ?",
            [horizon.end.into(), end.end.into()],
        );
        let row: Option<(Option<String>, Option<i64>)> = archive
            .db
            .query_one_raw(statement)
            .await
            .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
            .doing("reading the log of changed stories")?;
        let (list, below) = row.unwrap_or_default();
        // Rows after the horizon were trimmed: the facts cannot be brought up to date from it.
        if below.unwrap_or(0) > horizon.end + 1 {
            return Ok(Pending::Reload);
        }
        return Ok(Pending::Changed(end, ids(list.as_deref().unwrap_or_default()).collect()));
    }
    // In one statement, so in one snapshot: the changes of the transactions that had finished
    // before the last look and were not running then were seen then.
    let mut since = format!("xid >= {}", horizon.end);
    if !horizon.running.is_empty() {
        let running: Vec<String> = horizon.running.iter().map(i64::to_string).collect();
        since.push_str(&format!(" OR xid IN ({})", running.join(",")));
    }
    let sql = format!(
        "{SNAPSHOT}, (SELECT string_agg(story_id::text, ',') FROM fact_changes WHERE {since}), \
         (SELECT MAX(below) FROM fact_changes_trimmed) \
         FROM (SELECT pg_current_snapshot() AS snapshot) AS now"
    );
    let row: Option<LogRow> = archive
        .db
        .query_one_raw(Statement::from_string(backend, sql))
        .await
        .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
        .doing("reading the log of changed stories")?;
    // Rows of a transaction the facts have not seen may have been trimmed: read them all again.
    let needed = horizon.running.iter().copied().fold(horizon.end, i64::min);
    if row.as_ref().and_then(|row| row.3).unwrap_or(0) > needed {
        return Ok(Pending::Reload);
    }
    let Some((end, running, Some(list), _)) = row else { return Ok(Pending::None) };
    let running = ids(running.as_deref().unwrap_or_default()).collect();
    Ok(Pending::Changed(Horizon { end, running }, ids(&list).collect()))
}

/// On PostgreSQL, the log read after a horizon: the snapshot's next transaction id and running
/// ones, the changed stories' ids, and the trimmed log's floor.
type LogRow = (i64, Option<String>, Option<String>, Option<i64>);

/// PostgreSQL's snapshot as the horizon's two columns, from a subquery named `now`.
const SNAPSHOT: &str = "SELECT pg_snapshot_xmax(now.snapshot)::text::bigint, \
     (SELECT string_agg(x::text, ',') FROM pg_snapshot_xip(now.snapshot) AS x)";

/// Where the log is now.
async fn log_end(archive: &Archive) -> Result<Horizon> {
    let backend = archive.db.get_database_backend();
    if backend == DatabaseBackend::Sqlite {
        let row: Option<(i64,)> = archive
            .db
            .query_one_raw(Statement::from_string(
                backend,
                "SELECT IFNULL(MAX(seq), 0) FROM fact_changes",
            ))
            .await
            .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
            .doing("reading the log of changed stories")?;
        return Ok(Horizon { end: row.map_or(0, |(end,)| end), running: Vec::new() });
    }
    let sql = format!("{SNAPSHOT} FROM (SELECT pg_current_snapshot() AS snapshot) AS now");
    let row: Option<(i64, Option<String>)> = archive
        .db
        .query_one_raw(Statement::from_string(backend, sql))
        .await
        .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
        .doing("reading the log of changed stories")?;
    Ok(row.map_or_else(Horizon::default, |(end, running)| Horizon {
        end,
        running: ids(running.as_deref().unwrap_or_default()).collect(),
    }))
}

/// Every story's facts, read in chunks of ids; the log's end read first, so that a change made
/// while they are read is read again at the next call.
async fn load(archive: &Archive) -> Result<Facts> {
    let horizon = log_end(archive).await?;
    let last = highest_story_id(archive).await?;
    let mut facts = Facts::empty(horizon);
    let mut after = 0;
    while after < last {
        let until = after + CHUNK;
        read_rows(archive, &format!("id > {after} AND id <= {until}"), &mut facts).await?;
        after = until;
    }
    Ok(facts)
}

/// The highest story id, 0 for none.
async fn highest_story_id(archive: &Archive) -> Result<i64> {
    let backend = archive.db.get_database_backend();
    let table = facts_table(backend);
    let row: Option<(Option<i64>,)> = archive
        .db
        .query_one_raw(Statement::from_string(backend, format!("SELECT MAX(id) FROM {table}")))
        .await
        .and_then(|row| row.map(|row| row.try_get_many_by_index()).transpose())
        .doing("reading the highest story id")?;
    Ok(row.and_then(|(last,)| last).unwrap_or(0))
}

/// Reads again the facts of the `changed` stories (absent if deleted).
async fn reread(archive: &Archive, facts: &mut Facts, changed: &[i64]) -> Result<()> {
    let mut changed = changed.to_vec();
    changed.sort_unstable();
    changed.dedup();
    for &id in &changed {
        facts.forget(id);
    }
    for chunk in changed.chunks(CHANGED_CHUNK) {
        let list: Vec<String> = chunk.iter().map(i64::to_string).collect();
        read_rows(archive, &format!("id IN ({})", list.join(",")), facts).await?;
    }
    Ok(())
}

/// Where each story's facts are: SQLite's narrow `story_facts` (migration
/// `m0015_folded_totals`), PostgreSQL's narrow story rows.
fn facts_table(backend: DatabaseBackend) -> &'static str {
    match backend {
        DatabaseBackend::Sqlite => "story_facts",
        _ => "stories",
    }
}

/// Reads the facts of the stories `condition` (over their ids) selects into `facts`, as one
/// value: records of five fields separated by spaces, the language last as its length in
/// characters, `:`, and itself (so a language may hold any character); `-` for none.
async fn read_rows(archive: &Archive, condition: &str, facts: &mut Facts) -> Result<()> {
    let backend = archive.db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Sqlite => format!(
            "SELECT group_concat(id || ' ' || source_id || ' ' || IFNULL(published_day, '-') \
             || ' ' || IFNULL(cluster_representative, '-') || ' ' \
             || IFNULL(length(language) || ':' || language, '-'), ' ') \
             FROM story_facts WHERE {condition}"
        ),
        _ => format!(
            "SELECT string_agg(id::text || ' ' || source_id::text || ' ' \
             || COALESCE(to_char(published_day, 'YYYY-MM-DD'), '-') || ' ' \
             || COALESCE(cluster_representative::text, '-') || ' ' \
             || COALESCE(char_length(language)::text || ':' || language, '-'), ' ') \
             FROM stories WHERE {condition}"
        ),
    };
    let list = archive
        .one_text(Statement::from_string(backend, sql), "reading the stories' facts")
        .await?;
    let mut rest = list.as_str();
    while !rest.is_empty() {
        let Some(row) = parse_row(&mut rest) else {
            return Err(crate::Error::Corrupt { what: "a story's facts as read".to_owned() });
        };
        facts.set(row);
    }
    Ok(())
}

/// One record of [`read_rows`] from the front of `rest`, which it advances past it (and the space
/// after it).
fn parse_row(rest: &mut &str) -> Option<Row> {
    let mut field = || {
        let (field, after) = rest.split_once(' ')?;
        *rest = after;
        Some(field)
    };
    let id = field()?.parse().ok()?;
    let source = field()?.parse().ok()?;
    let day = match field()? {
        "-" => None,
        day => Some(parse_day(day)?),
    };
    let cluster = match field()? {
        "-" => None,
        cluster => Some(cluster.parse().ok()?),
    };
    let language = if let Some(after) = rest.strip_prefix('-') {
        *rest = after;
        None
    } else {
        let (length, after) = rest.split_once(':')?;
        let length: usize = length.parse().ok()?;
        let end = after.char_indices().nth(length).map_or(after.len(), |(at, _)| at);
        let language = after[..end].to_owned();
        *rest = &after[end..];
        Some(language)
    };
    *rest = rest.strip_prefix(' ').unwrap_or(rest);
    Some(Row { id, source, day, cluster, language })
}

/// `YYYY-MM-DD`, quickly for the usual shape.
fn parse_day(day: &str) -> Option<NaiveDate> {
    let bytes = day.as_bytes();
    if bytes.len() == 10 && bytes[4] == b'-' && bytes[7] == b'-' {
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            bytes[range]
                .iter()
                .try_fold(0u32, |n, b| b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0')))
        };
        let (year, month, date) = (number(0..4)?, number(5..7)?, number(8..10)?);
        return NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, date);
    }
    NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_with_any_language_are_read_back() {
        let list = "1 2 2026-11-02 - 2:en 7 3 - 1 - 9 3 0301-01-09 7 5:a b:c";
        let mut rest = list;
        let mut rows = Vec::new();
        while !rest.is_empty() {
            let row = parse_row(&mut rest).unwrap();
            rows.push((row.id, row.source, row.day, row.cluster, row.language));
        }
        assert_eq!(
            rows,
            [
                (1, 2, NaiveDate::from_ymd_opt(2026, 11, 2), None, Some("en".to_owned())),
                (7, 3, None, Some(1), None),
                (9, 3, NaiveDate::from_ymd_opt(301, 1, 9), Some(7), Some("a b:c".to_owned())),
            ]
        );
    }
}
