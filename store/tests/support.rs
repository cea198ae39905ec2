//! Fresh archives for tests: a SQLite file in a temporary directory, and a PostgreSQL database
//! created for the test and dropped afterwards (also when the test panics).

use std::sync::atomic::{AtomicU32, Ordering};

use store::{Archive, OpenMode};

/// The variable that points the PostgreSQL tests at a server, e.g.
/// `postgres://postgres@127.0.0.1:5432/test`.
pub(crate) const POSTGRES_VAR: &str = "MORGUE_TEST_POSTGRES_URL";

/// A migrated archive that cleans up after itself.
pub(crate) struct TestArchive {
    pub(crate) archive: Archive,
    _cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let Cleanup::Postgres { admin_url, name } = self else { return };
        let (admin_url, name) = (admin_url.clone(), name.clone());
        // Drop runs inside the test's runtime, which cannot be blocked on: use a thread of its own.
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
        if let Ok(Err(err)) = dropped {
            eprintln!("could not drop test database: {err}");
        }
    }
}

pub(crate) async fn sqlite() -> TestArchive {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("morgue.db");
    let archive = Archive::open(path.to_str().expect("UTF-8 temp path"), OpenMode::Create)
        .await
        .expect("open SQLite archive");
    archive.migrate().await.expect("migrate SQLite archive");
    TestArchive { archive, _cleanup: Cleanup::Sqlite(dir) }
}

/// A fresh PostgreSQL archive, or `None` when the variable is unset. When it is set, any failure
/// to reach the server fails the test: CI never silently skips PostgreSQL.
pub(crate) async fn postgres() -> Option<TestArchive> {
    let Ok(base) = std::env::var(POSTGRES_VAR) else {
        eprintln!("{POSTGRES_VAR} is not set: this PostgreSQL test checks nothing");
        return None;
    };
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
    let mut url = url::Url::parse(&base).expect("MORGUE_TEST_POSTGRES_URL is a URL");
    url.set_path(&format!("/{name}"));
    let archive = Archive::open(url.as_str(), OpenMode::Create)
        .await
        .unwrap_or_else(|err| panic!("{POSTGRES_VAR} is set but PostgreSQL is unusable: {err:?}"));
    archive.migrate().await.expect("migrate PostgreSQL archive");
    Some(TestArchive { archive, _cleanup: Cleanup::Postgres { admin_url: base, name } })
}

/// Defines each test twice, as `sqlite::name` and `postgres::name`, each on a fresh archive.
macro_rules! on_both_backends {
    ($(async fn $name:ident($archive:ident: &$ty:ty) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    let test = crate::support::sqlite().await;
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
                    let Some(test) = crate::support::postgres().await else { return };
                    let $archive: &$ty = &test.archive;
                    $body
                }
            )*
        }
    };
}
pub(crate) use on_both_backends;
