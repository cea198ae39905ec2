//! The fuzzy-dedup pipeline end to end: relations, determinism, incremental runs, bad input.

use std::sync::OnceLock;

use dedup::{Config, Deduper, Document, Method, Relation, Signature};
use proptest::prelude::*;

/// Built once per test process and thread count: loading the embedder is the slow part.
fn deduper(threads: usize) -> &'static Deduper {
    static ONE: OnceLock<Deduper> = OnceLock::new();
    static TWO: OnceLock<Deduper> = OnceLock::new();
    let cell = if threads == 1 { &ONE } else { &TWO };
    cell.get_or_init(|| Deduper::new(Config { threads, ..Config::default() }).expect("model"))
}

const DAY: i64 = 86_400;
const T0: i64 = 1_767_225_600;

const BUDGET: &str = "The city council of Springfield approved a new budget of 12 million dollars on Monday after a long debate about schools, roads and the public library. Mayor Ann Lee said the plan would hire 40 teachers and repair the main bridge before winter. Opponents argued that the tax increase would hurt small businesses in the old town district. The vote passed seven to four, and the new rates take effect in March.";
const BUDGET_REWRITE: &str = "Springfield will hire 40 teachers and fix its main bridge before winter under a 12 million dollar budget that the council passed on Monday by seven votes to four. Mayor Ann Lee backed the spending plan. Small business owners in the old town district warned that higher taxes from March would hurt them, while supporters pointed to schools, roads and the library.";
const STORM: &str = "A storm brought heavy snow to the northern mountains overnight, closing two highways and cutting power to 3,000 homes. Rescue teams reached a stranded bus near the pass early on Tuesday, and forecasters expect more snow through the weekend across the region.";
const MARKETS: &str = "Shares in Europe rose on Wednesday as investors weighed new inflation figures, with the banking index up 2 percent and carmakers leading the gains. Oil prices slipped after a report showed rising stockpiles in the United States.";

fn doc(id: &str, title: &str, text: &str, published: Option<i64>) -> Document {
    Document {
        id: id.into(),
        source: "test".into(),
        url: format!("https://example.test/{id}"),
        title: title.into(),
        text: text.into(),
        published,
        language: None,
    }
}

fn corpus() -> Vec<Document> {
    vec![
        doc("budget", "Council approves budget", BUDGET, Some(T0)),
        doc(
            "budget-copy",
            "Springfield passes 12m budget",
            &format!("By Staff (Wire)\n\n{BUDGET}\n\nCopyright The Daily. All rights reserved."),
            Some(T0 + 3_600),
        ),
        doc("budget-rewrite", "Springfield to hire 40 teachers", BUDGET_REWRITE, Some(T0 + DAY)),
        doc("storm", "Snow closes highways", STORM, Some(T0 + 2 * DAY)),
        doc("markets", "European shares rise", MARKETS, Some(T0)),
        doc("budget-late", "Council approves budget", BUDGET, Some(T0 + 30 * DAY)),
        doc("storm-undated", "Storm", STORM, None),
    ]
}

fn clusters(outcome: &dedup::Outcome) -> Vec<(String, String)> {
    outcome.assignments.iter().map(|a| (a.id.clone(), a.cluster.clone())).collect()
}

#[test]
fn copies_are_duplicates_rewrites_similar_and_the_window_holds() {
    let outcome = deduper(1).run(&corpus());
    let by_id = |id: &str| outcome.assignments.iter().find(|a| a.id == id).expect(id);
    let copy = by_id("budget-copy");
    assert_eq!(copy.cluster, "budget");
    assert_eq!(copy.relation(), Some(Relation::Duplicate));
    assert_eq!(copy.duplicate_of(), Some("budget"));
    let link = copy.link.as_ref().expect("a link");
    assert_eq!(link.method, Method::NearCopy);
    assert!(link.scores.containment >= link.thresholds.duplicate_containment);
    assert_eq!(link.thresholds, deduper(1).config().thresholds);
    let rewrite = by_id("budget-rewrite");
    assert_eq!(rewrite.cluster, "budget", "{:#?}", outcome.links);
    assert_eq!(rewrite.relation(), Some(Relation::Similar));
    assert_eq!(by_id("markets").cluster, "markets");
    assert_eq!(by_id("storm").cluster, "storm");
    // Thirty days later: outside the window, its own cluster.
    assert_eq!(by_id("budget-late").cluster, "budget-late");
    // Undated: compared with everything; dated documents come first, so the dated one leads.
    assert_eq!(by_id("storm-undated").cluster, "storm");
    assert!(outcome.links.iter().all(|l| l.doc != l.of));
}

#[test]
fn same_output_whatever_the_thread_count_and_input_order() {
    let docs = corpus();
    let one = deduper(1).run(&docs);
    let two = deduper(2).run(&docs);
    assert_eq!(one, two);
    let mut reversed = docs.clone();
    reversed.reverse();
    let mut back = clusters(&deduper(2).run(&reversed));
    back.reverse();
    assert_eq!(back, clusters(&one));
}

#[test]
fn incremental_equals_batch() {
    let docs = corpus();
    let d = deduper(2);
    let batch = d.run(&docs);
    let sigs = d.signatures(&docs);
    for split in 1..docs.len() {
        let (old, new) = sigs.split_at(split);
        // The old documents as a batch, stored as bytes, then the new ones against them.
        let first = d.run_signatures(old);
        let stored: Vec<Signature> =
            old.iter().map(|s| Signature::from_bytes(&s.to_bytes()).expect("bytes")).collect();
        let update = d.update(new, &stored, &first.links);
        let mut expected: Vec<(String, String)> = Vec::new();
        for a in &batch.assignments {
            if update.assignments.iter().any(|u| u.id == a.id) {
                expected.push((a.id.clone(), a.cluster.clone()));
            }
        }
        let mut got: Vec<(String, String)> =
            update.assignments.iter().map(|a| (a.id.clone(), a.cluster.clone())).collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "split at {split}");
        // Every new document is reported, and the links are the batch's links that touch one.
        for s in new {
            assert!(update.assignments.iter().any(|a| a.id == s.id));
        }
        let mut all_links: Vec<_> = first.links.iter().chain(&update.links).cloned().collect();
        let mut batch_links = batch.links.clone();
        let key = |l: &dedup::Link| (l.doc.clone(), l.of.clone());
        all_links.sort_by_key(key);
        batch_links.sort_by_key(key);
        assert_eq!(all_links, batch_links, "split at {split}");
        // Documents in no touched cluster are not reported.
        assert!(update.assignments.len() <= docs.len());
    }
}

#[test]
fn bad_input_never_aborts() {
    let huge = "word ".repeat(220_000); // 1.1 MB
    let no_spaces = "x".repeat(1_000_000);
    let docs = vec![
        doc("empty", "", "", Some(T0)),
        doc("one-word", "", "Hello", Some(T0)),
        doc("huge", "Huge", &huge, Some(T0)),
        doc("huge-too", "Huge", &huge, Some(T0)),
        doc("no-spaces", "", &no_spaces, Some(T0)),
        doc("klingon", "tlhIngan", "Qapla' batlh tIn DaHjaj vIghoS. wa'maH cha' Hoch", None),
        Document { language: Some("!!bad label!!".into()), ..doc("label", "x", STORM, Some(T0)) },
        doc("dup-id", "Storm", STORM, Some(T0)),
        doc("dup-id", "Markets", MARKETS, Some(T0)),
        doc(
            "controls",
            "\u{0}\u{7}",
            "\u{feff}\u{202e}abc\u{0}  \u{300}\u{300} 東京 😀",
            Some(i64::MIN),
        ),
        doc("far-future", "t", "Some words here for a text.", Some(i64::MAX)),
    ];
    let outcome = deduper(2).run(&docs);
    assert_eq!(outcome.assignments.len(), docs.len());
    let by_pos = |i: usize| &outcome.assignments[i];
    // An empty text matches nothing.
    assert_eq!(by_pos(0).cluster, "empty");
    // Two identical 1 MB texts are duplicates, computed on their first 200 KB.
    assert_eq!(by_pos(3).cluster, by_pos(2).cluster);
    let sig = deduper(1).signature(&docs[2]);
    assert!(sig.words <= 40_001, "{}", sig.words);
    // Repeated ids stay apart by position.
    assert_eq!(by_pos(7).id, "dup-id");
    assert_eq!(by_pos(8).id, "dup-id");
}

#[test]
fn signatures_survive_bytes() {
    for d in corpus() {
        let sig = deduper(1).signature(&d);
        assert_eq!(Signature::from_bytes(&sig.to_bytes()), Ok(sig));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(title in "\\PC{0,40}", text in "\\PC{0,400}", lang in "\\PC{0,6}") {
        let document = Document { language: Some(lang), ..doc("p", &title, &text, Some(T0)) };
        let sig = deduper(1).signature(&document);
        prop_assert_eq!(Signature::from_bytes(&sig.to_bytes()), Ok(sig.clone()));
        let outcome = deduper(1).run(&[document.clone(), document]);
        prop_assert_eq!(outcome.assignments.len(), 2);
        let s = dedup::scores(&sig, &sig);
        prop_assert!(s.cosine.is_finite() && s.containment.is_finite());
    }
}
