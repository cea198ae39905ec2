//! `morgue normalize`: one output line per input line, in order, whatever the input.

use crate::{morgue_with_stdin, stderr, stdout};

#[test]
fn urls_from_stdin_give_one_line_each_and_bad_ones_give_empty_lines() {
    let input = b"https://www.example.com/a?utm_source=x\r\nnot a url\n\nftp://example.com/file\nhttps://m.example.com/b#frag\n\xff\xfe broken bytes\nhttp://example.com/c";
    let output = morgue_with_stdin(&["normalize", "url"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "http://example.com/a\n\n\n\nhttp://example.com/b\n\nhttp://example.com/c\n"
    );
    let err = stderr(&output);
    assert!(err.contains("4 of 7 inputs were not usable http(s) URLs"), "{err}");
}

#[test]
fn urls_from_arguments() {
    let output = morgue_with_stdin(
        &[
            "normalize",
            "url",
            "--mode",
            "domain",
            "https://news.bbc.co.uk/x",
            "https://www.elpais.es/y",
            "nope",
        ],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "bbc.co.uk\nelpais.es\n\n");
}

#[test]
fn canonical_mode_keeps_the_page() {
    let output = morgue_with_stdin(
        &["normalize", "url", "--mode", "canonical", "HTTP://Example.COM:80/A?b=1#c"],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let line = stdout(&output);
    assert!(line.starts_with("http://example.com/A"), "{line}");
}

#[test]
fn titles_with_a_source() {
    let input = "Mayor announces new budget plan for city schools - The Daily\nThe Daily\n\nEl alcalde anuncia un nuevo plan de presupuesto para las escuelas | El Diario\n";
    let output =
        morgue_with_stdin(&["normalize", "title", "--source", "The Daily"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "mayor announces new budget plan for city schools");
    assert_eq!(lines[1], "", "the source's own name is no key");
    assert_eq!(lines[2], "");
    assert_eq!(lines[3], "el alcalde anuncia un nuevo plan de presupuesto para las escuelas");

    let clean = morgue_with_stdin(
        &["normalize", "title", "--source", "The Daily", "--mode", "clean"],
        input.as_bytes(),
    );
    let first = stdout(&clean).lines().next().unwrap_or_default().to_owned();
    assert_eq!(first, "Mayor announces new budget plan for city schools");
}

#[test]
fn a_large_batch_stays_in_order() {
    let input: String = (0..20_000)
        .map(|i| format!("https://www.example.com/story/{i}?utm_medium=rss\n"))
        .collect();
    let output = morgue_with_stdin(&["normalize", "url"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20_000);
    assert_eq!(lines[12_345], "http://example.com/story/12345");
}
