//! Prints the piece ids of each input line, for checking the tokenizer against SentencePiece.
//!
//! `cargo run --release -p dedup --example embed_tokens < paragraphs.jsonl > ids.jsonl`
//!
//! Input: one JSON object with a `text` field per line. Output, per line:
//! `{"full": [...], "words": [...]}`: the ids of the whole-text `tokenizers` pipeline and those
//! the embedder uses (word by word through its cache, without the token limit).
#![allow(clippy::print_stdout)]

use std::io::{BufRead, Write};

fn main() {
    let embedder =
        dedup::embed::default_model().expect("shipped model").with_max_tokens(usize::MAX);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("read stdin");
        let value: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
        let text = value["text"].as_str().unwrap_or_default();
        let row = serde_json::json!({
            "full": embedder.token_ids(text),
            "words": embedder.embedded_ids(text),
        });
        writeln!(out, "{row}").expect("write stdout");
    }
}
