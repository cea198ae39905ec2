//! `morgue dedup`: one output line per input line, in order, whatever the input.

use serde_json::Value;

use crate::{morgue_with_stdin, stderr, stdout};

const STORY: &str = "The city council of Springfield approved a new budget of 12 million dollars on Monday after a long debate about schools, roads and the public library. Mayor Ann Lee said the plan would hire 40 teachers and repair the main bridge before winter. Opponents argued that the tax increase would hurt small businesses in the old town district.";
const OTHER: &str = "A storm brought heavy snow to the northern mountains overnight, closing two highways and cutting power to 3,000 homes. Rescue teams reached a stranded bus near the pass early on Tuesday, and forecasters expect more snow through the weekend.";

fn line(id: &str, title: &str, text: &str, published: &str) -> String {
    serde_json::json!({"id": id, "source": "s", "url": format!("https://example.test/{id}"), "title": title, "text": text, "published": published}).to_string()
}

fn run(input: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["dedup", "--input", "-"];
    all.extend_from_slice(args);
    let output = morgue_with_stdin(&all, input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

#[test]
fn copies_cluster_and_bad_lines_keep_their_place() {
    let copy = format!("By Staff Reporter\n\n{STORY}\n\nCopyright The Daily. All rights reserved.");
    let input = [
        line("a", "Council approves budget", STORY, "2026-01-05T08:00:00Z"),
        "this is not json".to_owned(),
        line("b", "Springfield passes 12m budget", &copy, "2026-01-05T10:30:00+01:00"),
        String::new(),
        line("c", "Snow closes highways", OTHER, "2026-01-05"),
        line("a", "Repeated id", OTHER, "2026-01-06"),
        r#"{"title": "no id"}"#.to_owned(),
        line("d", "Bad date", OTHER, "yesterday"),
        serde_json::json!({"id": 7, "text": ""}).to_string(),
    ]
    .join("\n");
    let out = run(&input, &["--threads", "2"]);
    assert_eq!(out.len(), 9, "{out:?}");
    assert_eq!(out[0]["id"], "a");
    assert_eq!(out[0]["cluster"], "a");
    assert_eq!(out[0]["relation"], Value::Null);
    assert_eq!(out[1]["line"], 2);
    assert!(out[1]["error"].as_str().unwrap().contains("JSON"), "{}", out[1]);
    assert_eq!(out[2]["id"], "b");
    assert_eq!(out[2]["cluster"], "a");
    assert_eq!(out[2]["relation"], "duplicate");
    assert_eq!(out[2]["duplicate_of"], "a");
    assert_eq!(out[2]["method"], "minhash");
    assert!(out[2]["score"].as_f64().unwrap() >= 0.75);
    assert_eq!(out[3]["error"], "empty line");
    assert_eq!(out[4]["cluster"], "c");
    assert!(out[5]["error"].as_str().unwrap().contains("duplicate id \"a\" (first on line 1)"));
    assert!(out[6]["error"].as_str().unwrap().contains("missing id"));
    assert!(out[7]["error"].as_str().unwrap().contains("bad published"));
    assert_eq!(out[8]["id"], "7");
    assert_eq!(out[8]["cluster"], "7");
}

#[test]
fn output_file_explain_and_thread_count_do_not_change_results() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = dir.path().join("in.jsonl");
    let copy = format!("{STORY} Read more at our site.");
    let text = [
        line("x", "Budget", STORY, "2026-01-05T08:00:00Z"),
        line("y", "Budget again", &copy, "2026-01-06T08:00:00Z"),
        line("z", "Far later copy", STORY, "2026-03-01T08:00:00Z"),
    ]
    .join("\n");
    std::fs::write(&input, text).expect("write input");
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("out{threads}.jsonl"));
        let output = crate::morgue(
            dir.path(),
            &[
                "dedup",
                "--input",
                input.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
                "--threads",
                threads,
                "--explain",
                "--window",
                "5d",
            ],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        outputs.push(std::fs::read_to_string(out).expect("read output"));
    }
    assert_eq!(outputs[0], outputs[1]);
    let lines: Vec<Value> = outputs[0].lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[1]["cluster"], "x");
    assert!(lines[1]["scores"]["containment"].as_f64().unwrap() > 0.9);
    assert!(lines[1]["thresholds"]["duplicate_containment"].as_f64().is_some());
    assert!(lines[1]["explanation"].as_str().unwrap().starts_with("near-copy: "), "{}", lines[1]);
    // Outside the five-day window: its own cluster.
    assert_eq!(lines[2]["cluster"], "z");
}

#[test]
fn empty_input_gives_empty_output_and_bad_flags_fail() {
    assert!(run("", &[]).is_empty());
    let output = morgue_with_stdin(&["dedup", "--input", "-", "--window", "soon"], b"");
    assert!(!output.status.success());
    assert!(stderr(&output).contains("bad window"), "{}", stderr(&output));
}

/// The golden set: real news text (WCXB, CC-BY-4.0; see `fixtures/dedup/README.md`) turned into
/// one case of each hard kind, with the relation and the explanation each must get.
#[test]
fn golden_cases_of_every_hard_kind_get_their_relation_and_explanation() {
    let input = include_str!("fixtures/dedup/golden.jsonl");
    let out = run(input, &["--explain"]);
    let by_id = |id: &str| out.iter().find(|v| v["id"] == id).unwrap_or_else(|| panic!("{id}"));
    let link_with = |doc: &Value, other: &str| -> Value {
        doc["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["with"] == other)
            .cloned()
            .unwrap_or_default()
    };
    let original = by_id("rental");
    assert_eq!(original["cluster"], "rental", "the first publication represents the story");

    // A brief (the first two paragraphs under a byline and a footer of its own): a duplicate.
    let brief = by_id("rental-brief");
    assert_eq!((&brief["cluster"], &brief["relation"]), (&"rental".into(), &"duplicate".into()));
    let why = brief["explanation"].as_str().unwrap();
    assert!(why.starts_with("near-copy: ") || why.starts_with("contained: "), "{why}");
    assert!(why.ends_with("; shares all 4 names and all 6 numbers"), "{why}");

    // A later version (two figures changed, a paragraph added): similar, saying which changed.
    let update = by_id("rental-update");
    assert_eq!((&update["cluster"], &update["relation"]), (&"rental".into(), &"similar".into()));
    assert_eq!(update["method"], "facts/update");
    assert_eq!(
        update["explanation"],
        "later version: a copy by its wording (near-copy 99%), numbers changed: 8,200, 734 → \
         9,400, 741; shares all 10 names"
    );

    // Another story on the same template (every company, place and figure replaced): no link,
    // and the reason is kept on both sides.
    let template = by_id("rental-template");
    assert_eq!(template["cluster"], "rental-template");
    assert_eq!(template["links"].as_array().unwrap().len(), 0, "{template}");
    let refused = template["not_linked"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["with"] == "rental")
        .unwrap_or_else(|| panic!("{template}"));
    assert_eq!(
        refused["explanation"],
        "same wording (passages 60%), names differ: J.D. Power, North America, Travel vs Ipsos \
         Mori, Europe, Condé Nast (2 of 10 names shared)"
    );
    assert_eq!(link_with(original, "rental-template"), Value::Null);

    // A roundup quoting the ledes of three stories is a story of its own, and so are they.
    for id in ["roundup", "teachers", "builders"] {
        let doc = by_id(id);
        assert_eq!(doc["cluster"], id, "{doc}");
        assert_eq!(doc["links"].as_array().unwrap().len(), 0, "{doc}");
    }
}

/// A later version whose changed figures are figures the story states elsewhere (a score
/// revised to another score of the table): the set of values does not change, their places do.
/// Real text from the golden set's `rental` (WCXB, CC-BY-4.0).
#[test]
fn figures_changed_into_figures_stated_elsewhere_make_a_later_version() {
    let golden = include_str!("fixtures/dedup/golden.jsonl");
    let rental: Value = serde_json::from_str(golden.lines().next().unwrap()).unwrap();
    let text = rental["text"].as_str().unwrap();
    let mut revised = text.to_owned();
    for (from, to) in [
        ("scoring 711 points", "scoring 704 points"),
        ("among the 13 companies", "among the 14 companies"),
        ("approximately 80% of", "approximately 22% of"),
        ("just over 14 minutes", "just over 13 minutes"),
    ] {
        assert!(revised.contains(from), "{from}");
        revised = revised.replacen(from, to, 1);
    }
    let title = rental["title"].as_str().unwrap();
    let input = [
        line("rental", title, text, "2025-12-18T09:00:00Z"),
        line("rental-revised", title, &revised, "2025-12-19T09:00:00Z"),
    ]
    .join("\n");
    let out = run(&input, &["--explain"]);
    let revised = &out[1];
    assert_eq!(
        (&revised["cluster"], &revised["relation"], &revised["method"]),
        (&"rental".into(), &"similar".into(), &"facts/update".into()),
        "{revised}"
    );
    assert_eq!(
        revised["explanation"],
        "later version: a copy by its wording (passages 98%), numbers changed: 711, 13, 80 → 704, \
         14, 22 (in place); shares all 10 names"
    );
}
