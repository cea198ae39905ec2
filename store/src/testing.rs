//! Fresh archives for tests (feature `test-support`, enabled from the dev-dependencies of `store`,
//! `engine` and `cli`): a migrated SQLite archive in a temporary directory, and a PostgreSQL
//! database of its own for each test, dropped when the test ends, also when it panics.
//!
//! PostgreSQL tests fail closed: with [`POSTGRES_VAR`] unset they panic and say how to run them
//! (`MORGUE_TEST_POSTGRES_URL=postgres://…`) or skip them (`MORGUE_TEST_POSTGRES_URL=skip`); only
//! the explicit `skip` makes them return early, and each says on standard error that it did.
//!
//! This module is for tests: a test that cannot get the archive it asks for panics.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::{Archive, OpenMode};

/// The variable that points the PostgreSQL tests at a server, e.g.
/// `postgres://postgres@127.0.0.1:5432/test`, or says `skip`.
pub const POSTGRES_VAR: &str = "MORGUE_TEST_POSTGRES_URL";

/// The value of [`POSTGRES_VAR`] that skips the PostgreSQL tests explicitly.
pub const SKIP: &str = "skip";

/// A migrated archive that cleans up after itself: its SQLite directory is removed, or its
/// PostgreSQL database dropped, when it is dropped.
#[derive(Debug)]
pub struct TestArchive {
    /// The open archive.
    pub archive: Archive,
    /// Its URL, to open it again (from another runtime, say).
    pub url: String,
    place: Place,
}

#[derive(Debug)]
enum Place {
    Sqlite(#[allow(dead_code, reason = "removes the directory when dropped")] tempfile::TempDir),
    Postgres(#[allow(dead_code, reason = "drops the database when dropped")] TestDatabase),
}

impl TestArchive {
    /// Which backend the archive is on, for messages.
    pub fn backend(&self) -> &'static str {
        match self.place {
            Place::Sqlite(_) => "sqlite",
            Place::Postgres(_) => "postgres",
        }
    }
}

/// What SQLite's `PRAGMA integrity_check` says of the archive (`ok` when it is sound), and its
/// size in pages (`PRAGMA page_count`). Panics on PostgreSQL.
pub async fn sqlite_integrity(archive: &Archive) -> (String, u64) {
    use sea_orm::{ConnectionTrait as _, Statement};
    assert_eq!(archive.backend(), crate::Backend::Sqlite, "an integrity check of SQLite");
    let backend = archive.db.get_database_backend();
    let ask = |sql: &str| Statement::from_string(backend, sql.to_owned());
    let rows = archive.db.query_all_raw(ask("PRAGMA integrity_check")).await.expect("check");
    let lines: Vec<String> =
        rows.iter().map(|row| row.try_get_by_index::<String>(0).expect("a line")).collect();
    let pages = archive.db.query_one_raw(ask("PRAGMA page_count")).await.expect("page count");
    let pages: i64 = pages.expect("a row").try_get_by_index(0).expect("a count");
    (lines.join("; "), u64::try_from(pages).unwrap_or_default())
}

/// The one integer a statement answers (`SELECT COUNT(*) ...`), for checking tables the store
/// keeps by triggers against what they are kept from. Panics when it fails.
pub async fn integer(archive: &Archive, sql: &str) -> i64 {
    answer(archive, sql).await
}

/// The one text a statement answers (`SELECT current_setting(...)`). Panics when it fails.
pub async fn text(archive: &Archive, sql: &str) -> String {
    answer(archive, sql).await
}

/// The first column of the one row a statement answers. Panics when it fails.
async fn answer<T: sea_orm::TryGetable>(archive: &Archive, sql: &str) -> T {
    use sea_orm::{ConnectionTrait as _, Statement};
    let backend = archive.db.get_database_backend();
    let row = archive
        .db
        .query_one_raw(Statement::from_string(backend, sql.to_owned()))
        .await
        .expect("a statement that answers");
    row.expect("a row").try_get_by_index(0).expect("a value of the asked type")
}

/// A fresh, migrated SQLite archive in a temporary directory.
pub async fn sqlite() -> TestArchive {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("morgue.db");
    let url = path.to_str().expect("UTF-8 temp path").to_owned();
    let archive = Archive::open(&url, OpenMode::Create).await.expect("open SQLite archive");
    archive.migrate().await.expect("migrate SQLite archive");
    TestArchive { archive, url, place: Place::Sqlite(dir) }
}

/// A fresh, migrated PostgreSQL archive, or `None` when the run skips PostgreSQL
/// (`MORGUE_TEST_POSTGRES_URL=skip`). Panics when the variable is unset or the server unusable.
pub async fn postgres() -> Option<TestArchive> {
    let database = TestDatabase::new()?;
    let archive = Archive::open(&database.url, OpenMode::Create)
        .await
        .unwrap_or_else(|err| panic!("{POSTGRES_VAR} is set but PostgreSQL is unusable: {err:?}"));
    archive.migrate().await.expect("migrate PostgreSQL archive");
    let url = database.url.clone();
    Some(TestArchive { archive, url, place: Place::Postgres(database) })
}

/// Undoes the archive's last `steps` migrations (their `down`), so that a test can store rows
/// in the schema of before and see what migrating again makes of them.
pub async fn undo_migrations(archive: &Archive, steps: u32) {
    archive.undo_migrations(steps).await.expect("undo migrations");
}

/// The place of a PostgreSQL database of a test's own, on the server [`POSTGRES_VAR`] names: not
/// created here (`morgue init` creates it, say), dropped when this is dropped if it exists.
#[derive(Debug)]
pub struct TestDatabase {
    /// The database's URL.
    pub url: String,
    admin_url: String,
    name: String,
}

impl TestDatabase {
    /// A new database's place, or `None` when the run skips PostgreSQL. Panics, saying how to
    /// run or skip the test, when [`POSTGRES_VAR`] is unset.
    pub fn new() -> Option<TestDatabase> {
        let admin_url = postgres_server()?;
        // The time too: a database left by an earlier run whose process had this id is not reused.
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.subsec_nanos())
            .unwrap_or_default();
        let name = format!(
            "morgue_test_{}_{}_{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let mut url = url::Url::parse(&admin_url)
            .unwrap_or_else(|err| panic!("{POSTGRES_VAR}={admin_url:?} is not a URL: {err}"));
        url.set_path(&format!("/{name}"));
        Some(TestDatabase { url: url.into(), admin_url, name })
    }
}

impl Drop for TestDatabase {
    // A database left behind fails no test, but people should hear of it.
    #[allow(clippy::print_stderr, reason = "test support: the test's own output")]
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop may run inside a test's runtime, which cannot be blocked on: a thread of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let admin = Archive::open(&admin_url, OpenMode::Existing).await?;
                admin
                    .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .await?;
                admin.close().await?;
                Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
            })
        })
        .join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(err)) => eprintln!("could not drop the test database {}: {err}", self.name),
            Err(_) => {
                eprintln!("could not drop the test database {}: its thread panicked", self.name)
            }
        }
    }
}

/// The server's URL from [`POSTGRES_VAR`]; `None` (said on standard error) when it is `skip`.
/// Panics when it is unset or empty.
#[allow(clippy::print_stderr, reason = "test support: a skipped test says so")]
fn postgres_server() -> Option<String> {
    match std::env::var(POSTGRES_VAR) {
        Ok(value) if value.trim() == SKIP => {
            eprintln!("skipped: a PostgreSQL test, because {POSTGRES_VAR}={SKIP}");
            None
        }
        Ok(value) if !value.trim().is_empty() => Some(value.trim().to_owned()),
        _ => panic!(
            "{POSTGRES_VAR} is not set, and this test needs PostgreSQL. Run it with a server, \
             e.g. {POSTGRES_VAR}=postgres://postgres@127.0.0.1:5432/test (any database the user \
             may connect to; each test creates and drops a database of its own), or skip the \
             PostgreSQL tests explicitly with {POSTGRES_VAR}={SKIP}"
        ),
    }
}

/// Defines each test twice, as `sqlite::name` and `postgres::name`, each on a fresh archive
/// ([`sqlite`], [`postgres`]): `async fn name(archive: &Archive) { … }`. The module that uses it
/// needs tokio's `macros` and `rt` features.
#[macro_export]
macro_rules! on_both_backends {
    ($(async fn $name:ident($archive:ident: &$ty:ty) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    let test = $crate::testing::sqlite().await;
                    let $archive: &$ty = &test.archive;
                    $body
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(test) = $crate::testing::postgres().await else { return };
                    let $archive: &$ty = &test.archive;
                    $body
                }
            )*
        }
    };
}

/// A write transaction left open, for tests of what readers see while it runs
/// ([`uncommitted`]).
pub struct Uncommitted(crate::db::Txn);

impl std::fmt::Debug for Uncommitted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Uncommitted")
    }
}

/// Starts a write transaction on the archive and runs `sql` in it, leaving it open.
pub async fn uncommitted(archive: &Archive, sql: &str) -> Uncommitted {
    use sea_orm::ConnectionTrait as _;
    let txn = archive.begin_write().await.expect("a transaction");
    txn.execute_unprepared(sql).await.expect("a statement");
    Uncommitted(txn)
}

impl Uncommitted {
    /// Commits the transaction.
    pub async fn commit(self) {
        self.0.commit().await.expect("commit");
    }
}
