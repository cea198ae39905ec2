//! Checks the architecture invariants of docs/ARCHITECTURE.md that the compiler cannot.

use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

const CRATES: [&str; 8] =
    ["cli", "crawler", "dedup", "extractor", "migrations", "normalizer", "store", "testweb"];

#[test]
fn every_module_has_a_doc_line() {
    let mut missing = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&workspace().join(krate).join("src"), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap_or_default();
            if !text.trim_start().starts_with("//!") {
                missing.push(file.display().to_string());
            }
        }
    }
    assert!(missing.is_empty(), "modules without a `//!` line: {missing:#?}");
}

#[test]
fn pure_crates_do_no_io() {
    for krate in ["normalizer", "extractor", "dedup"] {
        let manifest = fs::read_to_string(workspace().join(krate).join("Cargo.toml")).unwrap();
        let dependencies = manifest.split("[dev-dependencies]").next().unwrap_or_default();
        for banned in ["tokio", "reqwest", "sea-orm", "hyper", "store"] {
            let listed = dependencies.lines().any(|line| line.trim_start().starts_with(banned));
            assert!(!listed, "{krate} must not depend on {banned}");
        }
        let mut files = Vec::new();
        rust_files(&workspace().join(krate).join("src"), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            for banned in ["std::fs", "std::net", "SystemTime::now", "Utc::now", "Local::now"] {
                assert!(!text.contains(banned), "{} uses {banned}", file.display());
            }
        }
    }
}

#[test]
fn only_store_uses_the_orm() {
    for krate in CRATES.iter().filter(|krate| !["store", "migrations"].contains(krate)) {
        let mut files = Vec::new();
        rust_files(&workspace().join(krate).join("src"), &mut files);
        rust_files(&workspace().join(krate).join("tests"), &mut files);
        // Spelled in two halves so this file does not trip its own check.
        let needle = concat!("sea", "_orm");
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            assert!(!text.contains(needle), "{} names {needle}", file.display());
        }
    }
}

#[test]
fn migrations_never_import_the_entities() {
    let mut files = Vec::new();
    rust_files(&workspace().join("migrations").join("src"), &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        assert!(!text.contains("store::"), "{} imports store", file.display());
    }
}

#[test]
fn the_store_runs_every_statement_through_its_text_boundary() {
    // Only `db.rs` (which wraps them) and `archive.rs` (which opens them) hold sea-orm's own
    // connection and transaction types; every other module goes through `Db` and `Txn`.
    let mut files = Vec::new();
    rust_files(&workspace().join("store").join("src"), &mut files);
    for file in files {
        let name = file.file_name().and_then(|name| name.to_str()).unwrap_or_default();
        if ["db.rs", "archive.rs"].contains(&name) {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for raw in ["DatabaseConnection", "DatabaseTransaction", "TransactionTrait", ".raw()"] {
            assert!(!text.contains(raw), "{} uses {raw}", file.display());
        }
    }
}

#[test]
fn every_dependency_is_versioned_once_in_the_workspace() {
    let root: toml::Table =
        fs::read_to_string(workspace().join("Cargo.toml")).unwrap().parse().unwrap();
    let members = root["workspace"]["members"].as_array().expect("workspace members");
    let mut pinned = Vec::new();
    for member in members {
        let member = member.as_str().expect("member path");
        let manifest: toml::Table = fs::read_to_string(workspace().join(member).join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        // Dependency tables at the top level and under `[target.'cfg(…)'.*]`.
        let mut tables = vec![&manifest];
        if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
            tables.extend(targets.values().filter_map(toml::Value::as_table));
        }
        for table in tables {
            for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
                let Some(dependencies) = table.get(section).and_then(toml::Value::as_table) else {
                    continue;
                };
                for (name, spec) in dependencies {
                    let inherited =
                        spec.get("workspace").and_then(toml::Value::as_bool) == Some(true);
                    if !inherited {
                        pinned.push(format!("{member}: [{section}] {name}"));
                    }
                }
            }
        }
    }
    assert!(
        pinned.is_empty(),
        "dependencies not taken from [workspace.dependencies] (write `name.workspace = true`): \
         {pinned:#?}"
    );
}

#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let ci = fs::read_to_string(workspace().join(".ci").join("run")).unwrap();
    let readme = fs::read_to_string(workspace().join("README.md")).unwrap();
    let url = ci
        .split("${MORGUE_TEST_POSTGRES_URL:-")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .expect(".ci/run gives MORGUE_TEST_POSTGRES_URL a default");
    let command = ci
        .lines()
        .find(|line| line.starts_with("cargo nextest run"))
        .expect(".ci/run runs cargo nextest");
    let expected = format!("MORGUE_TEST_POSTGRES_URL={url} {command}");
    let lines: Vec<&str> = readme.lines().collect();
    assert!(
        lines.iter().take(20).any(|line| *line == expected),
        "the README's first screen must show the test command .ci/run runs: {expected}"
    );
    assert!(
        lines.iter().filter(|line| **line == expected).count() >= 2,
        "the README's Test section must show the same command: {expected}"
    );
}
