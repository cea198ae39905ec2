//! Opening an archive on SQLite or PostgreSQL, and keeping its schema current.

use std::path::Path;
use std::time::Duration;

use migrations::{Migrator, MigratorTrait};
use sea_orm::sqlx::postgres::{PgConnectOptions, PgConnection};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DbErr, SqliteTransactionMode, TransactionOptions,
};

use crate::db::{Db, Txn};
use crate::error::{Context as _, Error, Result};

/// The database engine behind an archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file: the default, for one machine.
    Sqlite,
    /// A PostgreSQL server: for a standing archive and many workers.
    Postgres,
}

/// Whether opening may create the archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Create the SQLite file, or the PostgreSQL database, when it does not exist yet.
    Create,
    /// The archive must already exist.
    Existing,
}

/// Where an archive lives, parsed from what the user typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file at this path.
    Sqlite(String),
    /// A PostgreSQL URL, as given.
    Postgres(String),
}

impl Location {
    /// Parses a database URL: `sqlite:PATH`, `sqlite://PATH`, `postgres://…`, `postgresql://…`,
    /// or a plain file path, which means SQLite.
    pub fn parse(raw: &str) -> Result<Location> {
        let raw = raw.trim();
        let bad = |reason: &str| Error::BadUrl { url: mask_password(raw), reason: reason.into() };
        if raw.is_empty() {
            return Err(bad("it is empty"));
        }
        if let Some(rest) = raw.strip_prefix("sqlite:") {
            let path = rest.strip_prefix("//").unwrap_or(rest);
            let path = path.split(['?', '#']).next().unwrap_or_default();
            if path.is_empty() {
                return Err(bad("it names no file"));
            }
            if path == ":memory:" {
                return Err(bad("an in-memory archive would be lost on exit; name a file"));
            }
            return Ok(Location::Sqlite(path.to_owned()));
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            let parsed = url::Url::parse(raw).map_err(|err| bad(&err.to_string()))?;
            if parsed.host_str().is_none_or(str::is_empty) {
                return Err(bad("it names no host"));
            }
            return Ok(Location::Postgres(raw.to_owned()));
        }
        match raw.split_once("://") {
            Some((scheme, _)) => Err(bad(&format!(
                "the scheme {scheme}:// is not supported (use sqlite:PATH or postgres://)"
            ))),
            None => Ok(Location::Sqlite(raw.to_owned())),
        }
    }

    /// The location for messages, with any password masked.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => format!("sqlite:{path}"),
            Location::Postgres(url) => mask_password(url),
        }
    }
}

/// Replaces the password of a URL (in the userinfo or a `password=` parameter) with `***`.
///
/// Works on malformed URLs too, since it is used to report them.
pub fn mask_password(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some(scheme_end) = out.find("://") {
        let start = scheme_end + 3;
        let authority_end =
            out[start..].find(['/', '?', '#']).map_or(out.len(), |offset| start + offset);
        if let Some(at) = out[start..authority_end].rfind('@') {
            let at = start + at;
            if let Some(colon) = out[start..at].find(':') {
                out.replace_range(start + colon + 1..at, "***");
            }
        }
    }
    if let Some(query_start) = out.find('?') {
        let mut masked = out[..=query_start].to_owned();
        let params: Vec<String> = out[query_start + 1..]
            .split('&')
            .map(|param| match param.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => param.to_owned(),
            })
            .collect();
        masked.push_str(&params.join("&"));
        out = masked;
    }
    out
}

/// An open archive: a pool of connections to its database.
///
/// Cheap to share by reference across tasks; every repository function takes `&Archive`.
#[derive(Debug, Clone)]
pub struct Archive {
    /// The connection pool; every statement's text values pass through [`crate::text::storable`].
    pub(crate) db: Db,
    backend: Backend,
    display: String,
    /// Every story's facts, when this process keeps them ([`Archive::keep_facts`]).
    pub(crate) facts: std::sync::Arc<crate::facts::Slot>,
}

/// What [`Archive::server_activity`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerActivity {
    /// Transactions committed in the archive's database since the server's statistics were reset.
    pub commits: i64,
    /// The process ids of the other backends connected to it now.
    pub backends: Vec<i32>,
}

/// What [`Archive::migrate`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationReport {
    /// The migrations applied by this run, in order; empty when the schema was current.
    pub applied: Vec<String>,
    /// Every migration now applied, in order.
    pub current: Vec<String>,
    /// How many stories archived before word search had their search words written.
    pub search_words_filled: u64,
}

impl Archive {
    /// Opens the archive at `url` (see [`Location::parse`]).
    ///
    /// Does not migrate: call [`Archive::migrate`] or [`Archive::check_schema`] next.
    pub async fn open(url: &str, mode: OpenMode) -> Result<Archive> {
        let location = Location::parse(url)?;
        Archive::open_location(&location, mode).await
    }

    /// Opens the archive at a parsed location.
    pub async fn open_location(location: &Location, mode: OpenMode) -> Result<Archive> {
        let display = location.display();
        let connect_err = |source: Box<dyn std::error::Error + Send + Sync>| Error::Connect {
            url: display.clone(),
            source,
        };
        let (db, backend) = match location {
            Location::Sqlite(path) => {
                if mode == OpenMode::Existing && !Path::new(path).exists() {
                    return Err(connect_err(
                        format!("no archive file at {path} (create one with `morgue init`)").into(),
                    ));
                }
                let db = Database::connect(sqlite_options(path, mode))
                    .await
                    .map_err(|err| connect_err(Box::new(err)))?;
                (db, Backend::Sqlite)
            }
            Location::Postgres(url) => {
                // The pool retries refused connections until its timeout and then reports only
                // "pool timed out"; one direct connection first gives the real reason at once.
                let probe = match probe_postgres(url).await {
                    Err(err) if mode == OpenMode::Create && is_missing_database(err.as_ref()) => {
                        create_postgres_database(url).await.map_err(connect_err)?;
                        probe_postgres(url).await
                    }
                    other => other,
                };
                probe.map_err(connect_err)?;
                let db = Database::connect(postgres_options(url))
                    .await
                    .map_err(|err| connect_err(Box::new(err)))?;
                (db, Backend::Postgres)
            }
        };
        Ok(Archive { db: Db::new(db), backend, display, facts: crate::facts::slot() })
    }

    /// Opens an existing SQLite archive whose file may grow to at most `pages` pages (`PRAGMA
    /// max_page_count` on every connection): past it, writes fail as on a full disk. For tests of
    /// a full disk; a limit below the file's size is the file's size.
    #[doc(hidden)]
    pub async fn open_sqlite_with_page_limit(path: &str, pages: u64) -> Result<Archive> {
        let location = Location::Sqlite(path.to_owned());
        let display = location.display();
        let mut options = sqlite_options(path, OpenMode::Existing);
        options.map_sqlx_sqlite_opts(move |opts| opts.pragma("max_page_count", pages.to_string()));
        let db = Database::connect(options)
            .await
            .map_err(|err| Error::Connect { url: display.clone(), source: Box::new(err) })?;
        Ok(Archive {
            db: Db::new(db),
            backend: Backend::Sqlite,
            display,
            facts: crate::facts::slot(),
        })
    }

    /// The database engine.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Where the archive lives, password masked, for messages.
    pub fn display_url(&self) -> &str {
        &self.display
    }

    /// Applies every pending migration, then writes what a migration left for Rust code to fill
    /// (the search words of stories archived before word search, see [`crate::search`]).
    /// Running it on a current archive changes nothing.
    pub async fn migrate(&self) -> Result<MigrationReport> {
        let migrate_err = |err: DbErr| Error::Migrate { source: Box::new(err) };
        let pending: Vec<String> = Migrator::get_pending_migrations(self.db.raw())
            .await
            .map_err(migrate_err)?
            .iter()
            .map(|migration| migration.name().to_owned())
            .collect();
        if !pending.is_empty() {
            Migrator::up(self.db.raw(), None).await.map_err(migrate_err)?;
        }
        let current = self.applied_migrations().await.map_err(migrate_err)?;
        let search_words_filled = crate::search::fill_missing(self).await?;
        Ok(MigrationReport { applied: pending, current, search_words_filled })
    }

    /// Fails unless the schema is exactly the one this program was built for.
    pub async fn check_schema(&self) -> Result<()> {
        let known: Vec<String> =
            Migrator::migrations().iter().map(|migration| migration.name().to_owned()).collect();
        let applied = self.applied_migrations().await.doing("reading the schema version")?;
        if let Some(unknown) = applied.iter().find(|name| !known.contains(name)) {
            return Err(Error::SchemaTooNew { name: unknown.clone() });
        }
        let pending = known.iter().filter(|name| !applied.contains(name)).count();
        if pending > 0 {
            return Err(Error::SchemaOutOfDate { pending });
        }
        Ok(())
    }

    async fn applied_migrations(&self) -> Result<Vec<String>, DbErr> {
        Ok(Migrator::get_migration_models(self.db.raw())
            .await?
            .into_iter()
            .map(|model| model.version)
            .collect())
    }

    /// Starts a transaction that writes. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`), waiting for it as long as the busy timeout allows: a deferred transaction takes
    /// its snapshot at its first statement and, when another connection commits before it gets the
    /// write lock, fails at once with "database is locked" (`SQLITE_BUSY_SNAPSHOT`, which no busy
    /// timeout waits out). That aborted crawls whose fetch, frontier and story writes overlapped.
    /// PostgreSQL ignores the mode.
    pub(crate) async fn begin_write(&self) -> Result<Txn> {
        let options = TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        };
        self.db.begin_with_options(options).await.doing("starting a transaction")
    }

    /// The one text value `statement` returns (an aggregate: `group_concat`, `string_agg`), empty
    /// when it returns no row or NULL. Lists of thousands of ids or records come back this way
    /// because the driver hands each row of a result from its thread to ours on its own.
    pub(crate) async fn one_text(
        &self,
        statement: sea_orm::Statement,
        doing: &'static str,
    ) -> Result<String> {
        let value: Option<Option<String>> = self
            .db
            .query_one_raw(statement)
            .await
            .and_then(|row| row.map(|row| row.try_get_by_index(0)).transpose())
            .doing(doing)?;
        Ok(value.flatten().unwrap_or_default())
    }

    /// Closes every connection, flushing SQLite's write-ahead log.
    pub async fn close(self) -> Result<()> {
        self.db.close().await.doing("closing the archive")
    }

    /// The size on disk of the stories table and of each of its indexes (SQLite's FTS5 tables
    /// included; PostgreSQL's `story_terms` with its TOAST table and index), in bytes, by name;
    /// for benchmarks.
    pub async fn story_index_sizes(&self) -> Result<Vec<(String, i64)>> {
        let sql = match self.backend() {
            Backend::Postgres => {
                "SELECT relname || ' (table)', pg_relation_size(oid) FROM pg_class \
                 WHERE oid IN ('stories'::regclass, 'story_terms'::regclass) \
                 UNION ALL SELECT relname || ' (its TOAST table)', \
                 COALESCE(pg_total_relation_size(NULLIF(reltoastrelid, 0)), 0) FROM pg_class \
                 WHERE oid IN ('stories'::regclass, 'story_terms'::regclass) \
                 UNION ALL SELECT indexrelname::text, pg_relation_size(indexrelid) \
                 FROM pg_stat_user_indexes WHERE relname IN ('stories', 'story_terms') ORDER BY 1"
            }
            Backend::Sqlite => {
                "SELECT name, SUM(pgsize) FROM dbstat WHERE name = 'stories' \
                 OR name LIKE 'story_search%' OR name LIKE 'idx_stories%' \
                 OR name LIKE 'sqlite_autoindex_stories%' GROUP BY name ORDER BY name"
            }
        };
        let backend = self.db.get_database_backend();
        let rows = self
            .db
            .query_all_raw(sea_orm::Statement::from_string(backend, sql))
            .await
            .doing("measuring the story indexes")?;
        rows.iter()
            .map(|row| {
                let name: String = row.try_get_by_index(0).doing("reading an index size")?;
                let bytes: i64 = row.try_get_by_index(1).doing("reading an index size")?;
                Ok((name, bytes))
            })
            .collect()
    }

    /// On PostgreSQL, what the server says of this archive's database: transactions committed
    /// so far (`pg_stat_database.xact_commit`) and the process ids of the backends connected to
    /// it, this connection's left out (`pg_stat_activity`); `None` on SQLite. For benchmarks.
    pub async fn server_activity(&self) -> Result<Option<ServerActivity>> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let backend = self.db.get_database_backend();
        let ask = |sql: &str| sea_orm::Statement::from_string(backend, sql.to_owned());
        let doing = "reading the server's activity";
        let commits = self
            .db
            .query_one_raw(ask("SELECT CAST(xact_commit AS BIGINT) FROM pg_stat_database \
                 WHERE datname = current_database()"))
            .await
            .doing(doing)?;
        let commits: i64 = match commits {
            Some(row) => row.try_get_by_index(0).doing(doing)?,
            None => 0,
        };
        let rows = self
            .db
            .query_all_raw(ask("SELECT pid FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            .await
            .doing(doing)?;
        let backends = rows
            .iter()
            .map(|row| row.try_get_by_index::<i32>(0).doing(doing))
            .collect::<Result<Vec<i32>>>()?;
        Ok(Some(ServerActivity { commits, backends }))
    }

    /// Undoes the last `steps` migrations (their `down`); for tests of a migration over rows
    /// stored before it (`store::testing::undo_migrations`).
    #[cfg(feature = "test-support")]
    pub(crate) async fn undo_migrations(&self, steps: u32) -> Result<()> {
        Migrator::down(self.db.raw(), Some(steps))
            .await
            .map_err(|err| Error::Migrate { source: Box::new(err) })
    }

    /// Runs a raw statement; for tests and maintenance, not for application queries.
    pub async fn execute_unprepared(&self, sql: &str) -> Result<()> {
        self.db.execute_unprepared(sql).await.doing("running a maintenance statement")?;
        Ok(())
    }
}

fn sqlite_options(path: &str, mode: OpenMode) -> ConnectOptions {
    let open_mode = match mode {
        OpenMode::Create => "rwc",
        OpenMode::Existing => "rw",
    };
    // A connection handed out of the pool must not believe it is inside a transaction. When
    // SQLite rolls a transaction back itself (`SQLITE_FULL` in a statement without a statement
    // journal), sqlx's `ROLLBACK` then fails and its count of open transactions stays at one;
    // the connection's next `BEGIN IMMEDIATE` would be sent as a `SAVEPOINT`, which SQLite starts
    // deferred, without the write lock, and whose first write after another connection's commit
    // fails with `SQLITE_BUSY_SNAPSHOT` ("database is locked"). Such a connection is closed
    // instead (SQLite rolls back whatever it still held) and the pool opens a fresh one.
    let mut options = ConnectOptions::new(format!("sqlite:{path}?mode={open_mode}"));
    options
        .max_connections(4)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(30))
        .sqlx_logging(false)
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(30))
        })
        .map_sqlx_sqlite_before_acquire(|conn, _meta| {
            Box::pin(async move { Ok(!sea_orm::sqlx::Connection::is_in_transaction(conn)) })
        });
    options
}

/// Every statement is planned for its own values (`plan_cache_mode = force_custom_plan`): sqlx
/// prepares each statement once per connection, and after five runs PostgreSQL would keep a
/// generic plan that knows none of them. For a text query over a window of days that plan walks
/// the window's days, testing every story's terms (735 ms at a million stories), where the plan
/// for the values ANDs the word's matches with the window's ids (40 ms): how selective a word,
/// a window or a source is varies too much between calls for one plan to serve them all.
fn postgres_options(url: &str) -> ConnectOptions {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .max_connections(16)
        .min_connections(1)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false)
        .map_sqlx_postgres_opts(|opts| opts.options([("plan_cache_mode", "force_custom_plan")]));
    options
}

/// Opens and closes one connection, returning the driver's own error.
async fn probe_postgres(url: &str) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use sea_orm::sqlx::Connection as _;
    let options: PgConnectOptions = url.parse()?;
    let deadline = Duration::from_secs(10);
    let connection = tokio::time::timeout(deadline, PgConnection::connect_with(&options))
        .await
        .map_err(|_| format!("no answer within {} s", deadline.as_secs()))??;
    connection.close().await?;
    Ok(())
}

/// PostgreSQL's "database does not exist" (SQLSTATE 3D000).
fn is_missing_database(err: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    let text = err.to_string();
    text.contains("3D000") || (text.contains("database") && text.contains("does not exist"))
}

/// Creates the database a PostgreSQL URL names, connecting to the server's `postgres` database.
async fn create_postgres_database(
    url: &str,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut admin = url::Url::parse(url)?;
    let name = admin.path().trim_start_matches('/').to_owned();
    if name.is_empty() || name.contains('"') {
        return Err(format!("cannot create a database named {name:?}").into());
    }
    admin.set_path("/postgres");
    let db = Database::connect(postgres_options(admin.as_str())).await?;
    db.execute_unprepared(&format!("CREATE DATABASE \"{name}\"")).await?;
    db.close().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_passwords() {
        let cases = [
            ("postgres://user:secret@host/db", "postgres://user:***@host/db"),
            ("postgres://user@host/db", "postgres://user@host/db"),
            ("postgres://host/db?password=secret&x=1", "postgres://host/db?password=***&x=1"),
            ("postgres://u:p:q@[::1/db", "postgres://u:***@[::1/db"),
            ("not a url", "not a url"),
            ("sqlite:morgue.db", "sqlite:morgue.db"),
        ];
        for (input, expected) in cases {
            assert_eq!(mask_password(input), expected, "{input}");
        }
    }

    #[test]
    fn parses_locations() {
        let ok = [
            ("morgue.db", Location::Sqlite("morgue.db".into())),
            ("sqlite:a/b.db", Location::Sqlite("a/b.db".into())),
            ("sqlite:///tmp/x.db?mode=rwc", Location::Sqlite("/tmp/x.db".into())),
            ("postgres://u:p@h/db", Location::Postgres("postgres://u:p@h/db".into())),
            ("postgresql://h:5432/db", Location::Postgres("postgresql://h:5432/db".into())),
        ];
        for (input, expected) in ok {
            assert_eq!(Location::parse(input).unwrap(), expected, "{input}");
        }
        for bad in ["", "mysql://u:secret@h/db", "sqlite:", "sqlite::memory:", "postgres://"] {
            let err = Location::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with("unsupported database URL"), "{bad}: {err}");
            assert!(!err.contains("secret"), "{err}");
        }
    }
}
