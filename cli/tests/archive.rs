//! `morgue init` and `morgue migrate`, and what bad database URLs do.

use crate::{morgue, stderr, stdout};

#[test]
fn init_creates_morgue_db_and_migrate_then_finds_it_current() {
    let dir = tempfile::tempdir().unwrap();
    let init = morgue(dir.path(), &["init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    assert!(stdout(&init).contains("applied m0001_archive"), "{}", stdout(&init));
    assert!(dir.path().join("morgue.db").exists());

    let migrate = morgue(dir.path(), &["migrate"]);
    assert!(migrate.status.success(), "{}", stderr(&migrate));
    assert!(stdout(&migrate).contains("up to date"), "{}", stdout(&migrate));

    let again = morgue(dir.path(), &["init"]);
    assert!(again.status.success());
    assert!(stdout(&again).contains("already current"), "{}", stdout(&again));
}

#[test]
fn migrate_without_an_archive_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let output = morgue(dir.path(), &["migrate"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot open archive sqlite:morgue.db"), "{err}");
    assert!(err.contains("morgue init"), "{err}");
    assert!(!dir.path().join("morgue.db").exists(), "migrate must not create an archive");
}

#[test]
fn the_database_url_also_comes_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_morgue"))
        .arg("init")
        .current_dir(dir.path())
        .env("MORGUE_DATABASE_URL", "sqlite:elsewhere.db")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(dir.path().join("elsewhere.db").exists());
}

#[test]
fn bad_database_urls_fail_in_one_line_without_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // Unreachable: nothing listens on port 1 of loopback.
        (
            "postgres://morgue:hunter2@127.0.0.1:1/archive",
            "cannot open archive postgres://morgue:***@127.0.0.1:1/archive",
        ),
        // Malformed.
        (
            "postgres://morgue:hunter2@[::1/archive",
            "unsupported database URL postgres://morgue:***@[::1/archive",
        ),
        (
            "mysql://morgue:hunter2@127.0.0.1/archive",
            "unsupported database URL mysql://morgue:***@127.0.0.1/archive",
        ),
    ];
    for (url, expected) in cases {
        for command in ["init", "migrate"] {
            let output = morgue(dir.path(), &["--database-url", url, command]);
            let err = stderr(&output);
            assert_eq!(output.status.code(), Some(1), "{url}: {err}");
            assert_eq!(err.lines().count(), 1, "{url}: {err}");
            assert!(err.starts_with(&format!("error: {expected}")), "{url}: {err}");
            assert!(!err.contains("hunter2"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}
