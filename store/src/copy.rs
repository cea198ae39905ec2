//! Copying a whole archive into another (`morgue copy --to postgres://…`): every table, row for row
//! with its ids, into an empty archive, in one transaction of the destination, verified before it
//! commits.
//!
//! **All or nothing.** The destination must be migrated and empty (its every table). Rows are
//! read from the source a page at a time, in primary-key order, and inserted in the destination
//! inside one transaction; each table is then read back from that transaction and compared with
//! the source: the row count and a SHA-256 over every row, in order. Only when every table
//! matches does the transaction commit (PostgreSQL's id sequences moved past the copied ids
//! first), so a failure, a mismatch or a kill leaves the destination as empty as it was, and the
//! copy can simply be run again. Tables go in the order their foreign keys need.
//!
//! **Checksums** hash each row's fields as the store reads them, so both backends hash the same
//! text for the same row. Timestamps are compared at microseconds, PostgreSQL's precision (SQLite
//! keeps what it was given, nanoseconds from the clock): digits past the sixth of a fraction of a
//! second are left out of the hashed text on both sides, and the copy keeps the microseconds.
//! SQLite's full-text table is not copied: PostgreSQL indexes the same `search_words` column its
//! own way.

use sea_orm::sea_query::{Alias, Expr, Query};
use sea_orm::{
    ConnectionTrait, EntityTrait, IntoActiveModel, Iterable, PaginatorTrait, PrimaryKeyToColumn,
    PrimaryKeyTrait, QueryOrder, Statement,
};
use sha2::{Digest, Sha256};

use crate::Archive;
use crate::db::Txn;
use crate::entity;
use crate::error::{Context as _, Error, Result};

/// Rows read and written at a time.
const PAGE: u64 = 200;

/// What was copied of one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCopy {
    /// The table's name.
    pub table: &'static str,
    /// Rows copied (the same in both archives).
    pub rows: u64,
    /// The hex SHA-256 over the table's rows, the same in both archives.
    pub checksum: String,
}

/// Copies every table of `from` into `to`, which must be migrated and empty; returns each table's
/// rows and checksum, verified in the destination before the copy committed.
pub async fn copy(from: &Archive, to: &Archive) -> Result<Vec<TableCopy>> {
    from.check_schema().await?;
    to.check_schema().await?;
    let txn = to.begin_write().await?;
    let mut copies = Vec::new();
    // Tables whose id is a serial (a sequence on PostgreSQL).
    let mut serial = Vec::new();
    macro_rules! tables {
        ($($module:ident => $name:literal),* $(,)?) => {$(
            copies.push(copy_table::<entity::$module::Entity>(from, &txn, $name).await?);
            if <entity::$module::PrimaryKey as PrimaryKeyTrait>::auto_increment() {
                serial.push($name);
            }
        )*};
    }
    tables!(
        media_source => "media_sources",
        feed => "feeds",
        frontier => "frontier",
        fetch => "fetches",
        story => "stories",
        story_url => "story_urls",
        sentence => "sentences",
        removed_sentence => "removed_sentences",
        story_signature => "story_signatures",
        duplicate_link => "duplicate_links",
        story_cluster => "story_clusters",
        cluster_member => "cluster_members",
        collection => "collections",
        collection_source => "collection_sources",
        worker => "workers",
        claim => "claims",
        host_turn => "host_turns",
    );
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        for table in serial {
            let sql = format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            );
            txn.execute_raw(Statement::from_string(sea_orm::DbBackend::Postgres, sql))
                .await
                .doing("moving an id sequence past the copied rows")?;
        }
    }
    txn.commit().await.doing("committing the copy")?;
    Ok(copies)
}

async fn copy_table<E>(from: &Archive, to: &Txn, table: &'static str) -> Result<TableCopy>
where
    E: EntityTrait,
    E::Model: IntoActiveModel<E::ActiveModel> + std::fmt::Debug + Send + Sync,
{
    let already = count_rows(to, table).await?;
    if already > 0 {
        return Err(Error::Conflict {
            what: format!("the destination is not empty: {table} has {already} rows"),
        });
    }
    let ordered = || {
        let mut query = E::find();
        for key in E::PrimaryKey::iter() {
            query = query.order_by_asc(key.into_column());
        }
        query
    };
    let mut source = Sha256::new();
    let mut rows = 0;
    let mut pages = ordered().paginate(&from.db, PAGE);
    while let Some(page) = pages.fetch_and_next().await.doing("reading rows to copy")? {
        if page.is_empty() {
            break;
        }
        for row in &page {
            hash_row(&mut source, row);
        }
        rows += page.len() as u64;
        E::insert_many(page.into_iter().map(IntoActiveModel::into_active_model))
            .exec_without_returning(to)
            .await
            .doing("copying rows")?;
    }
    let mut copied = Sha256::new();
    let mut copied_rows = 0;
    let mut pages = ordered().paginate(to, PAGE);
    while let Some(page) = pages.fetch_and_next().await.doing("reading copied rows back")? {
        if page.is_empty() {
            break;
        }
        for row in &page {
            hash_row(&mut copied, row);
        }
        copied_rows += page.len() as u64;
    }
    let (checksum, copied) = (hex(source.finalize()), hex(copied.finalize()));
    if copied_rows != rows || checksum != copied {
        return Err(Error::Corrupt {
            what: format!(
                "copy of {table}: {rows} rows read (SHA-256 {checksum}), {copied_rows} rows \
                 written (SHA-256 {copied}); nothing was kept"
            ),
        });
    }
    Ok(TableCopy { table, rows, checksum })
}

async fn count_rows(txn: &Txn, table: &'static str) -> Result<u64> {
    let query = Query::select().expr(Expr::cust("COUNT(*)")).from(Alias::new(table)).to_owned();
    let backend = txn.get_database_backend();
    let row =
        txn.query_one_raw(backend.build(&query)).await.doing("counting the destination's rows")?;
    let count: i64 = match row {
        Some(row) => row.try_get_by_index(0).doing("counting the destination's rows")?,
        None => 0,
    };
    Ok(u64::try_from(count).unwrap_or(0))
}

/// Hashes a row's fields as read, with fractions of a second cut to microseconds.
fn hash_row(hasher: &mut Sha256, row: &impl std::fmt::Debug) {
    let text = format!("{row:?}");
    hasher.update(micros(&text).as_bytes());
    hasher.update(b"\n");
}

/// `text` with every timestamp whose fraction of a second has more than six digits (as `Debug`
/// writes a date and time: `2026-11-26T13:45:43.123456789` before a `Z` or `+`) cut to
/// microseconds, as the PostgreSQL driver cuts it when the copy stores it, and written again as
/// `Debug` writes the cut time (which drops trailing zeros by threes: `.120000001` is `.120`, as
/// the stored `.120000` reads back).
fn micros(text: &str) -> String {
    /// `YYYY-MM-DDTHH:MM:SS`
    const STAMP: usize = 19;
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'.' {
            let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let end = i + 1 + digits;
            if digits > 6
                && matches!(bytes.get(end), Some(b'Z' | b'+'))
                && let Some(start) = i.checked_sub(STAMP)
                && let Some(cut) = text.get(start..end).and_then(cut_to_micros)
                && out.len() >= STAMP
                && out.is_char_boundary(out.len() - STAMP)
            {
                out.truncate(out.len() - STAMP);
                out.push_str(&cut);
                i = end;
                continue;
            }
        }
        // Copies up to the next `.` (`i` and every `.` are char boundaries: `.` is ASCII).
        let next =
            bytes[i + 1..].iter().position(|&b| b == b'.').map_or(text.len(), |at| i + 1 + at);
        out.push_str(&text[i..next]);
        i = next;
    }
    out
}

/// A date and time with a fraction of a second, cut to microseconds, as `Debug` writes it;
/// `None` if it does not parse.
fn cut_to_micros(stamp: &str) -> Option<String> {
    let time = chrono::NaiveDateTime::parse_from_str(stamp, "%Y-%m-%dT%H:%M:%S%.f").ok()?;
    let rest = i64::from(chrono::Timelike::nanosecond(&time) % 1000);
    Some(format!("{:?}", time - chrono::TimeDelta::nanoseconds(rest)))
}

fn hex(digest: impl AsRef<[u8]>) -> String {
    use std::fmt::Write as _;
    digest.as_ref().iter().fold(String::new(), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    use super::micros;

    #[test]
    fn fractions_of_seconds_are_cut_to_microseconds() {
        assert_eq!(
            micros(
                "at: 2026-11-26T13:45:43.123456789Z, x: 1.5, y: 2026-01-01T00:00:00.1234567+00:00"
            ),
            "at: 2026-11-26T13:45:43.123456Z, x: 1.5, y: 2026-01-01T00:00:00.123456+00:00"
        );
        // Written as the stored microseconds read back: trailing zeros dropped by threes.
        assert_eq!(micros("2026-01-01T00:00:00.120000001Z"), "2026-01-01T00:00:00.120Z");
        assert_eq!(micros("2026-01-01T00:00:07.000000999Z"), "2026-01-01T00:00:07Z");
        // Not a timestamp: kept.
        assert_eq!(micros("é.1234567Z."), "é.1234567Z.");
        assert_eq!(micros("x: 3.14159265+2"), "x: 3.14159265+2");
        assert_eq!(micros(""), "");
    }
}
