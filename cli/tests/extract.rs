//! `morgue extract`: one page to one JSON object, and JSON lines streamed in order.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::{morgue, morgue_with_stdin, stderr, stdout};

const PAGE: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Storm hits the coast | Daily Planet</title>
<meta property="og:site_name" content="Daily Planet">
<meta property="article:published_time" content="2025-05-20T08:30:00-04:00">
</head><body><nav><a href="/">Home</a> <a href="/world">World</a></nav>
<article><h1>Storm hits the coast</h1>
<p>A powerful storm hit the coast on Tuesday, bringing heavy rain, strong winds and flooding to several towns.</p>
<p>Officials said thousands of homes lost power, and emergency crews worked through the night to clear roads.</p>
</article></body></html>"#;

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|err| panic!("{err}: {text}"))
}

#[test]
fn one_page_from_a_file_gives_one_json_object() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("page.html"), PAGE).unwrap();
    let output = morgue(
        dir.path(),
        &[
            "extract",
            "--url",
            "https://news.example/2025/05/20/storm",
            "--now",
            "2025-06-01T00:00:00Z",
            "page.html",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let result = parse(&stdout(&output));
    assert_eq!(result["url"], json!("https://news.example/2025/05/20/storm"));
    assert_eq!(result["quality"], json!("ok"));
    assert_eq!(result["title"], json!({ "value": "Storm hits the coast", "provenance": "h1" }));
    assert_eq!(
        result["published"],
        json!({ "value": "2025-05-20T08:30:00-04:00", "provenance": "article:published_time" })
    );
    assert_eq!(result["site_name"]["value"], json!("Daily Planet"));
    assert_eq!(result["language"]["value"], json!("en"));
    assert_eq!(result["encoding"], json!({ "value": "UTF-8", "provenance": "meta" }));
    assert_eq!(result["paragraphs"].as_array().map(Vec::len), Some(2));
    assert!(result["text"].as_str().unwrap().starts_with("A powerful storm"), "{result}");
    assert_eq!(result["warnings"], json!([]));
    for key in ["modified", "authors", "canonical_url", "description", "image"] {
        assert!(result.get(key).is_some(), "{key} missing");
    }
}

#[test]
fn one_page_from_standard_input_with_warnings() {
    let noise: Vec<u8> =
        (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let output = morgue_with_stdin(&["extract"], &noise);
    assert!(output.status.success(), "{}", stderr(&output));
    let result = parse(&stdout(&output));
    assert_eq!(result["quality"], json!("not_html"));
    assert_eq!(result["url"], Value::Null);
    assert_eq!(result["warnings"], json!([{ "kind": "not_html" }]));

    // A page bigger than the extractor takes is cut, and says so.
    let big = format!(
        "<html><body>{}</body></html>",
        "<p>Filler text for a very large page.</p>\n".repeat(250_000)
    );
    let output = morgue_with_stdin(&["extract"], big.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let result = parse(&stdout(&output));
    assert_eq!(result["warnings"][0]["kind"], json!("truncated"));
    assert_eq!(result["warnings"][0]["original_bytes"], json!(big.len()));
}

#[test]
fn a_missing_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = morgue(dir.path(), &["extract", "nowhere.html"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot read nowhere.html"), "{err}");
}

#[test]
fn json_lines_keep_their_ids_and_order_and_bad_lines_give_errors() {
    let mut input = String::new();
    for i in 0..40 {
        let html =
            PAGE.replace("Storm hits the coast", &format!("Storm number {i} hits the coast"));
        input += &json!({ "id": format!("page-{i}"), "url": format!("https://news.example/{i}"), "html": html }).to_string();
        input += "\n";
        if i == 10 {
            input += "this is not json\n\n";
        }
        if i == 20 {
            input += "{\"id\": 99, \"url\": \"https://x.test\"}\n";
        }
    }
    let output = morgue_with_stdin(&["extract", "--jsonl", "--workers", "3"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output).lines().map(parse).collect();
    assert_eq!(lines.len(), 42);
    let ids: Vec<Value> = lines.iter().map(|l| l["id"].clone()).collect();
    let mut expected: Vec<Value> = (0..40).map(|i| json!(format!("page-{i}"))).collect();
    expected.insert(21, json!(99));
    expected.insert(11, Value::Null);
    assert_eq!(ids, expected);
    assert!(lines[11]["error"].as_str().unwrap().starts_with("invalid JSON"), "{}", lines[11]);
    assert_eq!(lines[22]["error"], json!("missing \"html\" string"));
    assert_eq!(lines[5]["title"]["value"], json!("Storm number 5 hits the coast"));
    assert_eq!(lines[5]["url"], json!("https://news.example/5"));
    assert!(stderr(&output).contains("2 of 42 lines were not usable"), "{}", stderr(&output));
}

#[test]
fn json_lines_stream_before_the_input_ends() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morgue"))
        .args(["extract", "--jsonl"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run morgue");
    // A guard against a hang: if no answer comes, the child is killed and the reads below see the
    // end of its output, which fails the test.
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let id = child.id();
    let guard = std::thread::spawn(move || {
        if finished.recv_timeout(std::time::Duration::from_secs(300)).is_err() {
            let _ = Command::new("kill").arg(id.to_string()).status();
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for i in 0..3 {
        let line = json!({ "id": i, "url": null, "html": PAGE });
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        // The input is still open: the answer must come anyway.
        let mut answer = String::new();
        out.read_line(&mut answer).unwrap();
        assert_eq!(parse(&answer)["id"], json!(i), "{answer}");
    }
    drop(stdin);
    let mut rest = String::new();
    out.read_line(&mut rest).unwrap();
    assert_eq!(rest, "");
    assert!(child.wait().unwrap().success());
    let _ = done.send(());
    guard.join().unwrap();
}

#[test]
fn a_closed_output_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morgue"))
        .args(["extract", "--jsonl"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run morgue");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = json!({ "id": 1, "url": null, "html": PAGE }).to_string() + "\n";
        for _ in 0..2000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(parse(&first)["id"], json!(1));
    drop(out);
    writer.join().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
}
