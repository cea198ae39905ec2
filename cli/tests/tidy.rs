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

const CRATES: [&str; 9] = [
    "cli",
    "crawler",
    "dedup",
    "engine",
    "extractor",
    "migrations",
    "normalizer",
    "store",
    "testweb",
];

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
fn cli_holds_no_crawl_ingest_dedup_or_selection_logic() {
    // The jobs over the archive live in `engine`; `cli` parses, configures, prints and adapts.
    let src = workspace().join("cli").join("src");
    for moved in ["crawl", "ingest.rs", "reextract.rs", "dedup_archive.rs", "selection.rs"] {
        assert!(!src.join(moved).exists(), "cli/src/{moved} belongs in engine");
    }
    // What only the engine's jobs do to the archive: store pages, queue and lease URLs, record
    // polls, sentences, signatures, links and clusters, register workers, page and match stories.
    let engine_only = [
        "store::merge::",
        "store::frontier::",
        "store::fetches::insert",
        "store::sentences::",
        "store::signatures::",
        "store::workers::",
        "store::search::",
        "store::feeds::record_poll",
        "store::duplicates::link",
        "store::duplicates::unlink",
        "store::clusters::create",
        "store::clusters::replace",
        "store::clusters::remove_story",
        "store::stories::insert",
        "store::stories::page",
        "store::stories::replace_extraction",
        "store::stories::set_sentence_removal",
    ];
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for call in engine_only {
            assert!(!text.contains(call), "{} calls {call}: engine logic in cli", file.display());
        }
    }
}

#[test]
fn the_engine_never_prints_parses_arguments_or_reads_the_environment() {
    let manifest = fs::read_to_string(workspace().join("engine").join("Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dev-dependencies]").next().unwrap_or_default();
    for banned in ["cli", "anyhow", "clap", "toml", "tracing-subscriber"] {
        let listed = dependencies
            .lines()
            .any(|line| line.trim_start().split(['.', ' ', '=']).next() == Some(banned));
        assert!(!listed, "engine must not depend on {banned}");
    }
    let mut files = Vec::new();
    rust_files(&workspace().join("engine").join("src"), &mut files);
    // Spelled in pieces so this file does not trip its own check.
    let banned = [
        concat!("print", "ln!"),
        concat!("eprint", "ln!"),
        concat!("print", "!("),
        concat!("std::io::", "stdout"),
        concat!("std::io::", "stderr"),
        concat!("std::", "env::"),
        concat!("any", "how"),
        concat!("cla", "p::"),
    ];
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for needle in banned {
            assert!(!text.contains(needle), "{} uses {needle}", file.display());
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
