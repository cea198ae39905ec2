//! The archive's connection and transactions: sea-orm's, with every bound text value made
//! storable on the way in ([`crate::text::storable`]).
//!
//! Every statement the store runs goes through [`Db`] or [`Txn`], so the rule holds for inserts,
//! updates and filters alike, whatever builds them: a lookup by a key with a NUL finds the row
//! stored under the cleaned key, on both backends, instead of failing on PostgreSQL.

use std::borrow::Cow;

use sea_orm::entity::prelude::async_trait::async_trait;
use sea_orm::sea_query::{Value, Values};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, ExecResult,
    QueryResult, Statement, TransactionOptions, TransactionTrait,
};

use crate::text::storable;

/// A connection (a pool, or a transaction) whose statements carry only storable text.
#[derive(Debug, Clone)]
pub(crate) struct Clean<C> {
    inner: C,
    /// Whether a statement that failed because its connection was lost is sent again (on a
    /// pool, which opens a new connection; never within a transaction, which died with it).
    retry: bool,
}

/// The archive's pool of connections.
pub(crate) type Db = Clean<DatabaseConnection>;

/// A transaction of the archive.
pub(crate) type Txn = Clean<DatabaseTransaction>;

impl Db {
    pub(crate) fn new(inner: DatabaseConnection) -> Db {
        Clean { inner, retry: true }
    }

    /// The connection itself, for the migrator (whose statements carry no values from outside).
    pub(crate) fn raw(&self) -> &DatabaseConnection {
        &self.inner
    }

    /// Starts a transaction with these options.
    pub(crate) async fn begin_with_options(
        &self,
        options: TransactionOptions,
    ) -> Result<Txn, DbErr> {
        let mut delays = RETRY_DELAYS.iter();
        loop {
            match self.inner.begin_with_options(options).await {
                Ok(inner) => return Ok(Clean { inner, retry: false }),
                Err(err) => match delays.next() {
                    Some(delay) if connection_lost(&err) => {
                        tracing::warn!(
                            "the archive's connection was lost ({err}); starting the transaction again in {delay:?}"
                        );
                        tokio::time::sleep(*delay).await;
                    }
                    _ => return Err(err),
                },
            }
        }
    }

    /// Closes every connection.
    pub(crate) async fn close(self) -> Result<(), DbErr> {
        self.inner.close().await
    }
}

impl Txn {
    /// Commits the transaction.
    pub(crate) async fn commit(self) -> Result<(), DbErr> {
        self.inner.commit().await
    }
}

/// How long to wait before each new attempt of a statement whose connection was lost: about half
/// a minute in all, as long as a PostgreSQL restart takes.
const RETRY_DELAYS: [std::time::Duration; 10] = {
    use std::time::Duration;
    [
        Duration::from_millis(100),
        Duration::from_millis(200),
        Duration::from_millis(400),
        Duration::from_millis(800),
        Duration::from_millis(1600),
        Duration::from_millis(3200),
        Duration::from_secs(5),
        Duration::from_secs(5),
        Duration::from_secs(5),
        Duration::from_secs(5),
    ]
};

/// Whether an error means the connection was lost (the server restarted, or ended it), not that
/// the statement was wrong: an I/O error, a connection that could not be had from the pool, or
/// PostgreSQL's classes 08 (connection exception) and 57P (operator intervention: terminated by
/// an administrator, a shutdown, a server not yet accepting connections).
pub(crate) fn connection_lost(err: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    use sea_orm::sqlx::Error as Sqlx;
    let sqlx = match err {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => return true,
        DbErr::Exec(RuntimeErr::SqlxError(sqlx)) | DbErr::Query(RuntimeErr::SqlxError(sqlx)) => {
            sqlx
        }
        _ => return false,
    };
    match sqlx.as_ref() {
        Sqlx::Io(_) | Sqlx::PoolTimedOut | Sqlx::PoolClosed | Sqlx::WorkerCrashed => true,
        Sqlx::Database(db) => {
            db.code().is_some_and(|code| code.starts_with("08") || code.starts_with("57P"))
        }
        _ => false,
    }
}

/// Runs `attempt` until it succeeds, fails for another reason than a lost connection, or the
/// retries run out (when `retry` is off: once).
async fn with_retries<T, F, Fut>(retry: bool, mut attempt: F) -> Result<T, DbErr>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, DbErr>>,
{
    let mut delays = RETRY_DELAYS.iter();
    loop {
        match attempt().await {
            Err(err) if retry && connection_lost(&err) => match delays.next() {
                Some(delay) => {
                    tracing::warn!(
                        "the archive's connection was lost ({err}); trying again in {delay:?}"
                    );
                    tokio::time::sleep(*delay).await;
                }
                None => return Err(err),
            },
            result => return result,
        }
    }
}

/// The statement with every text value made storable.
fn clean(mut stmt: Statement) -> Statement {
    if let Some(Values(values)) = &mut stmt.values {
        values.iter_mut().for_each(clean_value);
    }
    stmt
}

fn clean_value(value: &mut Value) {
    match value {
        Value::String(Some(text)) => {
            if let Cow::Owned(cleaned) = storable(text) {
                *text = cleaned;
            }
        }
        Value::Char(Some(c)) if *c == '\0' => *c = crate::text::REPLACEMENT,
        Value::Array(_, Some(items)) => items.iter_mut().for_each(clean_value),
        _ => {}
    }
}

/// Whether a raw SQL text can be sent as it is: maintenance statements are written by us, and one
/// with a NUL is a bug to report, not text to change.
fn check_unprepared(sql: &str) -> Result<(), DbErr> {
    if sql.contains('\0') {
        return Err(DbErr::Custom("a raw SQL statement contains a NUL character".to_owned()));
    }
    Ok(())
}

#[async_trait]
impl<C: ConnectionTrait + Send + Sync> ConnectionTrait for Clean<C> {
    fn get_database_backend(&self) -> DbBackend {
        self.inner.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        let stmt = clean(stmt);
        with_retries(self.retry, || self.inner.execute_raw(stmt.clone())).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        check_unprepared(sql)?;
        with_retries(self.retry, || self.inner.execute_unprepared(sql)).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        let stmt = clean(stmt);
        with_retries(self.retry, || self.inner.query_one_raw(stmt.clone())).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        let stmt = clean(stmt);
        with_retries(self.retry, || self.inner.query_all_raw(stmt.clone())).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_value_of_a_statement_is_made_storable() {
        let values = vec![
            Value::from("a\0b"),
            Value::from('\0'),
            Value::from(7_i64),
            Value::from(Option::<String>::None),
            Value::from("clean"),
        ];
        let stmt = Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT $1, $2, $3, $4, $5",
            values,
        );
        let cleaned = clean(stmt).values.map(|Values(values)| values).unwrap_or_default();
        assert_eq!(
            cleaned,
            vec![
                Value::from("a\u{FFFD}b"),
                Value::from('\u{FFFD}'),
                Value::from(7_i64),
                Value::from(Option::<String>::None),
                Value::from("clean"),
            ]
        );
        assert!(check_unprepared("SELECT 1").is_ok() && check_unprepared("SELECT '\0'").is_err());
    }
}
