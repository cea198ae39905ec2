//! Korean end to end: `morgue tag --lang ko` over CoNLL-U (eojeols tagged through mecab-ko-dic),
//! and a Korean story, an edited copy and another story through `morgue dedup`.

use serde_json::{Value, json};

use crate::{morgue_with_stdin, stderr, stdout};

/// A Korean story, a wire copy of it, and another story.
const KO: [&str; 3] = [
    "정부는 3일 새로운 경제 대책을 발표했다. 총액은 12조 원으로 물가 상승에 어려움을 겪는 가정을 지원한다. 김민수 장관은 기자회견에서 국민의 생활을 지키겠다고 말했다. 대책에는 전기요금 보조와 휘발유 가격 억제가 포함된다. 야당은 재원에 대한 설명이 부족하다고 비판했다.",
    "(서울=연합뉴스) 정부는 3일 새로운 경제 대책을 발표했다. 총액은 12조 원으로 물가 상승에 어려움을 겪는 가정을 지원한다. 김민수 장관은 기자회견에서 국민의 생활을 지키겠다고 말했다. 대책에는 전기요금 보조와 휘발유 가격 억제가 포함된다. 야당은 재원에 대한 설명이 부족하다고 비판했다. (끝)",
    "서울대공원에서 5일 자이언트 판다 새끼가 태어났다. 몸무게는 약 150그램이며 어미 곁에서 건강하게 지내고 있다. 동물원은 이름을 시민들에게 공모할 예정이다. 주말에는 방문객이 크게 늘어날 것으로 보인다.",
];

fn story(id: &str, title: &str, text: &str) -> String {
    json!({"id": id, "source": id, "url": format!("https://example.test/{id}"), "title": title, "text": text, "published": "2024-12-03", "language": "ko"}).to_string()
}

#[test]
fn korean_round_trips_conllu_with_eojeol_tags() {
    let words = ["정부는", "새로운", "법안을", "발표했다", "."];
    let mut input = String::from("# sent_id = 1\n# text = 정부는 새로운 법안을 발표했다.\n");
    for (at, word) in words.iter().enumerate() {
        let misc = if at == 3 { "SpaceAfter=No" } else { "_" };
        input.push_str(&format!("{}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{misc}\n", at + 1));
    }
    input.push('\n');
    let output = morgue_with_stdin(&["tag", "--lang", "ko"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stderr(&output).contains("no tagger model"), "{}", stderr(&output));
    let out = stdout(&output);
    assert_eq!(out.lines().count(), input.lines().count(), "{out}");
    let tags: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').nth(3).unwrap_or(""))
        .collect();
    assert_eq!(tags.join(" "), "NOUN ADJ NOUN VERB PUNCT", "{out}");
    for (line_in, line_out) in input.lines().zip(out.lines()) {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (line_in.split('\t').collect(), line_out.split('\t').collect());
        assert_eq!(a.len(), b.len());
        for k in (0..a.len()).filter(|&k| k != 3) {
            assert_eq!(a[k], b[k], "{line_out}");
        }
    }
}

#[test]
fn a_korean_copy_is_linked_and_another_story_is_not() {
    let input = [
        story("a", "정부, 새 경제 대책 발표", KO[0]),
        story("b", "새 경제 대책", KO[1]),
        story("c", "판다 새끼 탄생", KO[2]),
    ]
    .join("\n");
    let output = morgue_with_stdin(&["dedup", "--input", "-", "--explain"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let out: Vec<Value> =
        stdout(&output).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[1]["cluster"], "a", "{}", out[1]);
    assert_eq!(out[1]["relation"], "duplicate", "{}", out[1]);
    assert_eq!(out[1]["duplicate_of"], "a");
    // The name comes from the tagger's eojeols (`김민수`, a proper noun). Numbers glued to
    // their counters (`3일`, `12조`) are not read as numbers by the facts yet (docs/dedup.md).
    let explanation = out[1]["explanation"].as_str().unwrap_or_default();
    assert!(explanation.contains("shares the one name"), "{explanation}");
    assert_eq!(out[2]["cluster"], "c", "{}", out[2]);
    assert_eq!(out[2]["relation"], Value::Null, "{}", out[2]);
}
