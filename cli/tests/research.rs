//! Collections, Media Cloud's source lists, and queries on the command line (bad input: one-line
//! errors that say where).

use crate::{morgue, stderr, stdout};

const MEDIA_CLOUD: &str = "\
id,url,name,pub_country,pub_state,primary_language,media_type
1,http://nytimes.com,nytimes.com,USA,,en,print_native
2,https://www.washingtonpost.com,washingtonpost.com,USA,US-DC,en,print_native
3,latimes.com,latimes.com,USA,US-CA,en,
";

#[test]
fn media_cloud_source_lists_and_collections_come_in_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    assert!(morgue(dir.path(), &["init"]).status.success());
    std::fs::write(dir.path().join("us.csv"), MEDIA_CLOUD).unwrap();
    let import =
        morgue(dir.path(), &["sources", "import", "us.csv", "--collection", "US national"]);
    assert!(import.status.success(), "{}", stderr(&import));
    assert!(stdout(&import).contains("imported 3 new sources"), "{}", stdout(&import));
    // Ours, with a collections column (names separated by `;`).
    std::fs::write(
        dir.path().join("ours.csv"),
        "name,homepage,collections\nThe Daily,https://daily.example/,US national; Local\n",
    )
    .unwrap();
    let import = morgue(dir.path(), &["sources", "import", "ours.csv"]);
    assert!(import.status.success(), "{}", stderr(&import));
    let add = morgue(dir.path(), &["collections", "add", "Local", "--source", "latimes.com"]);
    assert!(add.status.success(), "{}", stderr(&add));
    assert!(stdout(&add).trim().ends_with(": Local (2 sources)"), "{}", stdout(&add));

    // Ids aside (an insert that finds the name taken may use one up on SQLite).
    let list = morgue(dir.path(), &["collections", "list", "--format", "csv"]);
    let list = stdout(&list);
    let rows: Vec<&str> = list.lines().map(|line| line.split_once(',').unwrap().1).collect();
    assert_eq!(rows, ["name,sources", "Local,2", "US national,4"]);
    let show = morgue(dir.path(), &["collections", "show", "US national", "--format", "csv"]);
    assert_eq!(
        stdout(&show),
        "id,name,homepage\n1,nytimes.com,http://nytimes.com/\n2,washingtonpost.com,https://www.washingtonpost.com/\n3,latimes.com,http://latimes.com/\n4,The Daily,https://daily.example/\n"
    );

    // Queries and collections filter `morgue stories`; an empty archive gives the header only.
    let stories =
        morgue(dir.path(), &["stories", "collection:Local storm*", "--collection", "US national"]);
    assert!(stories.status.success(), "{}", stderr(&stories));
    assert_eq!(stdout(&stories).lines().count(), 1);

    for (args, expected) in [
        (
            &["stories", "(storm OR"][..],
            "error: query: at character 10: expected a word, a phrase or `(`, found the end of the query",
        ),
        (
            &["stories", "collection:Nowhere"][..],
            "error: query: collection \"Nowhere\" is not in the archive (see `morgue sources list` and `morgue collections list`)",
        ),
        (
            &["stories", "storm", "--collection", "Nowhere"][..],
            "error: query: collection \"Nowhere\" is not in the archive (see `morgue sources list` and `morgue collections list`)",
        ),
        (
            &["collections", "show", "Nowhere"][..],
            "error: no collection named \"Nowhere\" (see `morgue collections list`)",
        ),
        (
            &["collections", "add", "X", "--source", "Nobody"][..],
            "error: no source named \"Nobody\" (see `morgue sources list`)",
        ),
    ] {
        let output = morgue(dir.path(), args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&output).trim_end(), expected, "{args:?}");
    }
}
