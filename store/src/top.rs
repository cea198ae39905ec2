//! Top lists of a selection: its sources and its words, raw (stories) and folded (story
//! clusters: a wire story carried by 40 outlets counts once).
//!
//! Sources are counted by the archive (in SQL when the query's index answer is exact, else each
//! candidate checked, as [`crate::counts`] does), or from the facts a long-lived process keeps in
//! memory ([`crate::facts`]). Words are counted over the stories' searchable
//! text (the title, and the text without the sentences its source repeated that week: bylines,
//! boilerplate, subscription pleas), folded as the index folds them, each word once per story;
//! stop words of the commonest languages, words under three letters and numbers are left out.
//! Words are counted over at most [`WORD_SAMPLE`] stories (the most recent by id), as Media Cloud
//! samples too: the list's order is stable long before its counts are exact.

use std::collections::{BTreeMap, HashSet};

use rustc_hash::FxHashMap;
use sea_orm::sea_query::{Alias, Expr, Order, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::Archive;
use crate::entity::story;
use crate::error::{Context as _, Result};
use crate::search;
use crate::stories::{Filter, Story};

/// Each story's words by its id (SQLite; migration `m0016_story_words`).
const WORDS: &str = "story_words";

/// The most stories [`words`] reads.
pub const WORD_SAMPLE: u64 = 5_000;

/// A source's or a word's share of a selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top<K> {
    /// The source's id, or the word.
    pub key: K,
    /// Stories.
    pub stories: u64,
    /// Story clusters.
    pub clusters: u64,
}

/// The `limit` sources with the most stories the filter selects (ties by id), with their
/// clusters.
pub async fn sources(archive: &Archive, filter: &Filter, limit: usize) -> Result<Vec<Top<i64>>> {
    let filter = Filter { one_per_cluster: false, ..filter.clone() };
    let kept = crate::facts::tally(archive, &filter, crate::facts::By::Source).await?;
    let mut counted: Vec<Top<i64>> = if let Some(rows) = kept {
        rows.into_iter().map(|(key, stories, clusters)| Top { key, stories, clusters }).collect()
    } else if let Some(statement) = crate::counts::selected(archive, &filter, true).await? {
        let mut select = statement.select;
        let source = Expr::col((story::Entity, story::Column::SourceId));
        select.expr(source.clone());
        crate::counts::per_key(archive, select, source, "counting stories per source")
            .await?
            .into_iter()
            .map(|(key, stories, clusters)| Top { key, stories, clusters })
            .collect()
    } else {
        let mut per: BTreeMap<i64, (u64, HashSet<i64>)> = BTreeMap::new();
        let (condition, _) = filter.condition(archive).await?;
        crate::counts::each_match(archive, &filter, condition, false, |story, fold| {
            let entry = per.entry(story.story.source_id).or_default();
            entry.0 += 1;
            entry.1.insert(fold);
        })
        .await?;
        per.into_iter()
            .map(|(key, (stories, folds))| Top { key, stories, clusters: folds.len() as u64 })
            .collect()
    };
    counted.sort_by(|a, b| b.stories.cmp(&a.stories).then(a.key.cmp(&b.key)));
    counted.truncate(limit);
    Ok(counted)
}

/// The `limit` words in the most stories the filter selects (of the [`WORD_SAMPLE`] most recent),
/// with the clusters they are in; ties by word.
///
/// A story's words are read from `stories.search_words`, where they are written folded and each
/// once already (title and searchable text, as the index holds them); a story whose words are not
/// written yet is folded here the same way (`search::column`). When the index decides the query
/// exactly, the sample is one statement over three columns; otherwise the candidates are read
/// whole and checked ([`crate::matching::Matcher::matches`]).
pub async fn words(archive: &Archive, filter: &Filter, limit: usize) -> Result<Vec<Top<String>>> {
    words_of(archive, filter, limit, WORD_SAMPLE).await
}

/// [`words`] over the `sample` most recent matching stories (`u64::MAX`: all of them, which holds
/// every matching story's words in memory at once: for measuring what the sample costs in
/// accuracy, `morgue bench archive`).
pub async fn words_of(
    archive: &Archive,
    filter: &Filter,
    limit: usize,
    sample_size: u64,
) -> Result<Vec<Top<String>>> {
    let filter = Filter { one_per_cluster: false, ..filter.clone() };
    // Each sampled story: the key its cluster is counted by, and its words.
    let mut sample: Vec<(i64, String)> = Vec::new();
    let backend = archive.db.get_database_backend();
    let sqlite = backend == DatabaseBackend::Sqlite;
    if let Some(statement) = crate::counts::selected(archive, &filter, sqlite).await? {
        let mut select = statement.select;
        select
            .column((story::Entity, story::Column::Id))
            .column((story::Entity, story::Column::ClusterRepresentative));
        if sqlite {
            // The narrow `story_facts` and `story_words` (migrations `m0015_folded_totals`,
            // `m0016_story_words`), not the stories' wide rows, whose words SQLite reaches only
            // through the text's overflow pages.
            select.left_join(
                Alias::new(WORDS),
                Expr::cust(format!(r#"{WORDS}.id = "stories"."id""#)),
            );
            select.expr(Expr::cust(format!("{WORDS}.words")));
        } else {
            select.column((story::Entity, story::Column::SearchWords));
        }
        if let Ok(limit) = i64::try_from(sample_size) {
            select.limit(limit.unsigned_abs());
        }
        // The index's matches, newest first: the statement stops after the sample.
        if statement.joined {
            select.order_by_expr(Expr::cust("story_search.rowid"), Order::Desc);
        } else {
            select.order_by((story::Entity, story::Column::Id), Order::Desc);
        }
        // One value only for a bounded sample: SQLite's values stop at a gigabyte.
        let rows: Vec<(i64, Option<i64>, Option<String>)> = if sqlite && sample_size <= WORD_SAMPLE
        {
            sqlite_sample(archive, &select).await?
        } else if !sqlite
            && filter.query.as_ref().is_some_and(|matcher| matcher.index_join(backend).is_some())
        {
            postgres_sample(archive, &select, sample_size).await?
        } else {
            archive
                .db
                .query_all_raw(backend.build(&select))
                .await
                .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
                .doing("reading stories for their words")?
        };
        for (id, representative, words) in rows {
            let words = match words {
                Some(words) => words,
                None => story_words(&crate::stories::get(archive, id).await?),
            };
            sample.push((representative.unwrap_or(id), words));
        }
    } else {
        let (condition, _) = filter.condition(archive).await?;
        let mut before = i64::MAX;
        while (sample.len() as u64) < sample_size {
            let rows = story::Entity::find()
                .filter(condition.clone())
                .filter(story::Column::Id.lt(before))
                .order_by_desc(story::Column::Id)
                .limit(500)
                .all(&archive.db)
                .await
                .doing("reading stories for their words")?;
            let Some(last) = rows.last() else { break };
            before = last.id;
            for row in rows {
                let fold = row.cluster_representative.unwrap_or(row.id);
                let words = row.search_words.clone();
                let story = Story::try_from(row)?;
                if (sample.len() as u64) >= sample_size
                    || filter.query.as_ref().is_some_and(|matcher| !matcher.matches(&story))
                {
                    continue;
                }
                sample.push((fold, words.unwrap_or_else(|| story_words(&story))));
            }
        }
    }
    sample.sort_unstable_by_key(|(fold, _)| *fold);
    let mut counted: Vec<Top<String>> = count_words(&sample)
        .into_iter()
        .map(|(key, (stories, clusters))| Top { key: key.to_owned(), stories, clusters })
        .collect();
    counted.sort_by(|a, b| b.stories.cmp(&a.stories).then_with(|| a.key.cmp(&b.key)));
    counted.truncate(limit);
    Ok(counted)
}

/// The sample of [`words_of`] on PostgreSQL (id, cluster representative, words), read through the
/// GIN index's matches (a bitmap, index scans off for its transaction). PostgreSQL's own plan walks
/// the primary key from the newest story, testing each story's terms, a read from TOAST it does not
/// count: for a word in 3% of a million stories that is 170,000 reads for a sample of 5,000, where
/// the bitmap of the index's matches, sorted for the newest 5,000, reads only the sample's words.
///
/// A bitmap visits the row of every match, to check that it is visible, before the newest are
/// sorted out: for a word in a third of a million stories, 330,000 visits for a sample of 5,000
/// (450 to 790 ms, docs/research.md). So the matches are asked for among the newest ids first
/// (`id > floor`: the planner ANDs the primary key's bitmap of that range with the word's), over a
/// range as wide as the planner's estimate of the matches says the sample needs (with half again
/// as margin, at least [`SPAN_PER_STORY`] times the sample), and again over a range widened as
/// the share of matches found so far says (at least four times wider), until the range holds the
/// sample or reaches the oldest story. Each statement is planned for its word and range
/// (`force_custom_plan`). The sample is the same as without the ranges: the newest `sample`
/// matches.
async fn postgres_sample(
    archive: &Archive,
    select: &SelectStatement,
    sample: u64,
) -> Result<Vec<(i64, Option<i64>, Option<String>)>> {
    let doing = "reading stories for their words";
    let txn = archive.begin_write().await?;
    let newest: Option<i64> = txn
        .query_one_raw(sea_orm::Statement::from_string(
            DatabaseBackend::Postgres,
            "SELECT max(id) FROM stories",
        ))
        .await
        .and_then(|row| row.map(|row| row.try_get_by_index(0)).transpose())
        .doing(doing)?
        .flatten();
    txn.execute_unprepared(crate::stories::BITMAP_ONLY).await.doing(doing)?;
    // Planned for each word and range (every connection plans for its values: `archive.rs`,
    // `postgres_options`), so the primary key's range is ANDed with the word's matches.
    let read = |select: SelectStatement| {
        let txn = &txn;
        async move {
            txn.query_all_raw(DatabaseBackend::Postgres.build(&select))
                .await
                .and_then(|rows| rows.iter().map(|row| row.try_get_many_by_index()).collect())
                .doing(doing)
        }
    };
    let bounded = i64::try_from(sample).ok().filter(|&sample| sample <= WORD_SAMPLE as i64);
    let rows = match (newest, bounded) {
        (Some(newest), Some(sample)) => {
            // The first range from the planner's estimate of the matches, with half again as
            // margin: one range for most words.
            let estimate = estimated_rows(&txn, select).await?.max(1.0);
            let share = (estimate / newest.max(1) as f64).min(1.0);
            let span = (1.5 * sample as f64 / share).min(newest as f64) as i64;
            let mut span = span.max(sample.saturating_mul(SPAN_PER_STORY));
            loop {
                let floor = newest.saturating_sub(span);
                let mut within = select.clone();
                within.and_where(story::Column::Id.gt(floor));
                let rows: Vec<(i64, Option<i64>, Option<String>)> = read(within).await?;
                let found = rows.len() as i64;
                if found >= sample || floor <= 0 {
                    break rows;
                }
                // The span the share found so far needs for the sample, with half again as
                // margin; at least four times the last.
                let needed = span.saturating_mul(sample) / found.max(1);
                span = needed.saturating_add(needed / 2).max(span.saturating_mul(4));
            }
        }
        _ => read(select.clone()).await?,
    };
    txn.commit().await.doing(doing)?;
    Ok(rows)
}

/// How many ids wide a range of [`postgres_sample`] is at least, per story of the sample.
const SPAN_PER_STORY: i64 = 4;

/// The planner's estimate of the rows `select` matches, without its order and limit
/// (`EXPLAIN (FORMAT JSON)`); 0 when it gives none.
async fn estimated_rows(txn: &crate::db::Txn, select: &SelectStatement) -> Result<f64> {
    let mut probe = select.clone();
    probe.clear_order_by().reset_limit();
    let mut statement = DatabaseBackend::Postgres.build(&probe);
    statement.sql = format!("EXPLAIN (FORMAT JSON) {}", statement.sql);
    let plan: Option<serde_json::Value> = txn
        .query_one_raw(statement)
        .await
        .and_then(|row| row.map(|row| row.try_get_by_index(0)).transpose())
        .doing("estimating the matches")?;
    Ok(plan
        .as_ref()
        .and_then(|plan| plan.get(0)?.get("Plan")?.get("Plan Rows")?.as_f64())
        .unwrap_or_default())
}

/// The sample of [`words_of`] on SQLite (id, cluster representative, words), handed over as one
/// value: the driver passes each row of a result from SQLite's thread to ours on its own, and for
/// 5,000 rows that hand-over cost more than SQLite's reading of them.
async fn sqlite_sample(
    archive: &Archive,
    select: &SelectStatement,
) -> Result<Vec<(i64, Option<i64>, Option<String>)>> {
    let mut statement = DatabaseBackend::Sqlite.build(select);
    // Records are separated by U+001E and fields by a space: words are folded letters and digits.
    statement.sql = format!(
        "SELECT group_concat(id || ' ' || IFNULL(cluster_representative, '') || ' ' || \
         IFNULL(words, char(1)), char(30)) FROM ({}) AS sample",
        statement.sql
    );
    let joined = archive.one_text(statement, "reading stories for their words").await?;
    let mut rows = Vec::new();
    for record in joined.split('\u{1e}') {
        let mut fields = record.splitn(3, ' ');
        let (Some(id), Some(representative), Some(words)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(id) = id.parse::<i64>() else { continue };
        let representative = representative.parse::<i64>().ok();
        let words = (words != "\u{1}").then(|| words.to_owned());
        rows.push((id, representative, words));
    }
    Ok(rows)
}

/// Stories and clusters per counted word of a sample of (cluster key, the story's words as
/// `search_words` holds them: each once), sorted by cluster key, so that a word counts a cluster
/// once: each word keeps the last cluster that counted it. Whether a word is listed at all is
/// asked once per distinct word, after counting (the stop words are a list, searched in order).
fn count_words(sample: &[(i64, String)]) -> FxHashMap<&str, (u64, u64)> {
    // Per word: stories, clusters, and the cluster key it was last counted for. Hashed by
    // rustc-hash's hasher, not the standard one (SipHash, made to withstand chosen keys, which
    // these are not worth): half a million short words a sample.
    let mut per: FxHashMap<&str, (u64, u64, Option<i64>)> = FxHashMap::default();
    for (fold, words) in sample {
        for word in words.split(' ').filter(|word| !word.is_empty()) {
            let entry = per.entry(word).or_default();
            entry.0 += 1;
            if entry.2 != Some(*fold) {
                entry.1 += 1;
                entry.2 = Some(*fold);
            }
        }
    }
    per.into_iter()
        .filter(|(word, _)| counted_word(word))
        .map(|(word, (stories, clusters, _))| (word, (stories, clusters)))
        .collect()
}

/// A story's words as `stories.search_words` holds them, for a story whose words are not written.
fn story_words(story: &Story) -> String {
    search::column(story.story.title.as_deref(), story.searchable())
}

/// Whether a folded word is worth listing: not a stop word, not a number, three letters or more
/// (a CJK pair counts as a word).
fn counted_word(word: &str) -> bool {
    let cjk = word.chars().any(search::is_cjk);
    (cjk && word.chars().count() >= 2 || word.chars().count() >= 3)
        && !word.chars().all(|c| c.is_numeric())
        && !STOP_WORDS.contains(&word)
}

/// Stop words of English, Spanish, French, German, Portuguese and Italian, folded (no
/// diacritics), of three letters or more.
const STOP_WORDS: &[&str] = &[
    // English
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was",
    "one", "our", "out", "has", "have", "him", "his", "how", "its", "may", "new", "now", "own",
    "she", "than", "that", "them", "then", "there", "these", "they", "this", "those", "too",
    "very", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with",
    "would", "could", "should", "from", "into", "about", "after", "again", "also", "been",
    "before", "being", "both", "did", "does", "doing", "down", "during", "each", "few", "further",
    "here", "just", "more", "most", "much", "only", "other", "over", "same", "some", "such",
    "their", "theirs", "through", "under", "until", "upon", "were", "your", "yours", "said",
    "says", "say", "like", "because", "between", "against", "off", "per", "via", "yet",
    // Spanish
    "que", "los", "las", "del", "por", "con", "una", "para", "como", "mas", "pero", "sus", "este",
    "esta", "ese", "esa", "son", "entre", "cuando", "muy", "sin", "sobre", "tambien", "hasta",
    "desde", "donde", "todo", "todos", "nos", "ante", "les", "han", "fue", "ser",
    // French
    "les", "des", "une", "est", "pas", "par", "sur", "pour", "dans", "qui", "que", "avec", "aux",
    "ces", "son", "sont", "mais", "plus", "ont", "elle", "ils", "leur", "leurs", "cette",
    // German
    "der", "die", "das", "und", "den", "dem", "des", "ein", "eine", "einer", "eines", "nicht",
    "mit", "sich", "auf", "fur", "ist", "auch", "als", "aus", "bei", "nach", "wie", "sie", "wird",
    "sind", "oder", "vom", "zum", "zur", "uber", "hat", "werden", "noch",
    // Portuguese and Italian
    "nao", "uma", "com", "seu", "sua", "dos", "das", "pelo", "pela", "foi", "mais", "mas", "della",
    "delle", "degli", "nel", "nella", "per", "che", "non", "sono", "alla", "anche",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_numbers_and_short_words_are_not_listed() {
        for word in ["the", "que", "und", "2026", "of", "a"] {
            assert!(!counted_word(word), "{word}");
        }
        for word in ["flood", "malmo", "地震", "covid19"] {
            assert!(counted_word(word), "{word}");
        }
    }

    #[test]
    fn a_word_counts_each_story_and_each_cluster_once() {
        // Stories 1 and 2 are one cluster (key 1); the sample is sorted by cluster key.
        let sample = vec![
            (1, "flood münchen".to_owned()),
            (1, "flood".to_owned()),
            (2, "internationalised 地震 flood".to_owned()),
            (3, "the flood".to_owned()),
        ];
        let counted = count_words(&sample);
        assert_eq!(counted.get("flood"), Some(&(4, 3)));
        assert_eq!(counted.get("münchen"), Some(&(1, 1)));
        assert_eq!(counted.get("internationalised"), Some(&(1, 1)));
        assert_eq!(counted.get("地震"), Some(&(1, 1)));
        assert_eq!(counted.get("the"), None, "a stop word is not listed");
        assert_eq!(counted.len(), 4);
    }
}
