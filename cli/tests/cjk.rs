//! Japanese and Chinese end to end: `morgue tag` over CoNLL-U, and an article of each through
//! `morgue extract`, `morgue normalize title` and `morgue dedup`.

use serde_json::{Value, json};

use crate::{morgue_with_stdin, stderr, stdout};

/// A Japanese story, a copy of it, and another story.
const JA: [&str; 3] = [
    "政府は3日、新しい経済対策を閣議決定した。総額は12兆円で、物価の上昇に苦しむ家庭を支援する。岸田首相は記者会見で「国民の生活を守る」と述べた。対策には電気料金の補助やガソリン価格の抑制が含まれる。野党は財源の説明が不十分だと批判している。",
    "【東京】政府は3日、新しい経済対策を閣議決定した。総額は12兆円で、物価の上昇に苦しむ家庭を支援する。岸田首相は記者会見で「国民の生活を守る」と述べた。対策には電気料金の補助やガソリン価格の抑制が含まれる。野党は財源の説明が不十分だと批判している。（共同）",
    "大阪市の動物園で5日、ジャイアントパンダの赤ちゃんが生まれた。体重は約150グラムで、母親のそばで元気に過ごしている。動物園は名前を一般から募集する予定だ。来園者の数は週末に増える見込みだという。",
];

/// A Chinese story, a copy of it, and another story.
const ZH: [&str; 3] = [
    "国务院3日在北京召开常务会议，决定推出新的经济刺激计划。计划总额为12万亿元，主要用于支持受物价上涨影响的家庭。总理在会上表示，要保障人民的基本生活。计划还包括电费补贴和控制汽油价格等措施。部分专家认为资金来源仍不明确。",
    "新华社北京电 国务院3日在北京召开常务会议，决定推出新的经济刺激计划。计划总额为12万亿元，主要用于支持受物价上涨影响的家庭。总理在会上表示，要保障人民的基本生活。计划还包括电费补贴和控制汽油价格等措施。部分专家认为资金来源仍不明确。",
    "上海动物园5日迎来一只大熊猫幼崽。幼崽体重约150克，目前在母亲身边健康成长。动物园表示将向公众征集名字。预计周末前来参观的游客人数将大幅增加。",
];

fn page(lang: &str, title: &str, text: &str) -> String {
    let paragraphs: String =
        text.split_inclusive(['。']).map(|p| format!("<p>{p}</p>\n")).collect();
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title>\
         <meta property=\"article:published_time\" content=\"2024-12-03T09:00:00+09:00\"></head>\
         <body><nav><a href=\"/\">Home</a></nav><article><h1>{title}</h1>{paragraphs}</article>\
         <footer>Copyright</footer></body></html>"
    )
}

fn story(id: &str, title: &str, text: &str, language: &str) -> String {
    json!({"id": id, "source": id, "url": format!("https://example.test/{id}"), "title": title, "text": text, "published": "2024-12-03", "language": language}).to_string()
}

#[test]
fn japanese_and_chinese_round_trip_conllu_with_their_tags() {
    let cases = [
        ("ja", "政府 は 新しい 法律 を 発表 し た 。", "NOUN ADP ADJ NOUN ADP VERB AUX AUX PUNCT"),
        // `_`: not checked. The Chinese post-tagger, trained on UD Chinese-GSD's conventions,
        // cuts 国务院 into 国务 院 and tags 在 here VERB and 新 PART (errors it makes; its
        // accuracy is measured in docs/tagger.md), so only the others are checked.
        ("zh", "国务院 在 北京 发表 了 新 政策 。", "_ _ PROPN VERB AUX _ NOUN PUNCT"),
    ];
    for (language, words, expected) in cases {
        let mut input = format!("# text = {}\n", words.replace(' ', ""));
        for (at, word) in words.split(' ').enumerate() {
            input.push_str(&format!("{}\t{word}\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n", at + 1));
        }
        input.push('\n');
        let output = morgue_with_stdin(&["tag", "--lang", language], input.as_bytes());
        assert!(output.status.success(), "{language}: {}", stderr(&output));
        assert!(!stderr(&output).contains("no tagger model"), "{}", stderr(&output));
        let out = stdout(&output);
        assert_eq!(out.lines().count(), input.lines().count(), "{out}");
        let tags: Vec<&str> = out
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split('\t').nth(3).unwrap_or(""))
            .collect();
        let expected: Vec<&str> = expected.split(' ').collect();
        assert_eq!(tags.len(), expected.len(), "{language}: {tags:?}");
        for (tag, want) in tags.iter().zip(&expected) {
            assert!(*want == "_" || tag == want, "{language}: {tags:?}, expected {expected:?}");
        }
        for (line_in, line_out) in input.lines().zip(out.lines()) {
            let (a, b): (Vec<&str>, Vec<&str>) =
                (line_in.split('\t').collect(), line_out.split('\t').collect());
            assert_eq!(a.len(), b.len());
            for k in (0..a.len()).filter(|&k| k != 3) {
                assert_eq!(a[k], b[k], "{line_out}");
            }
        }
    }
}

#[test]
fn japanese_and_chinese_articles_from_page_to_cluster() {
    for (language, texts, title, site, expected_key) in [
        ("ja", JA, "政府、新たな経済対策を決定", "｜毎日ニュース", "政府新たな経済対策を決定"),
        ("zh", ZH, "国务院推出新经济刺激计划", " - 新华网", "国务院推出新经济刺激计划"),
    ] {
        // Extraction: the title, the whole text, the language.
        let html = page(language, &format!("{title}{site}"), texts[0]);
        let input = json!({"id": "p", "url": "https://example.test/p", "html": html}).to_string();
        let output = morgue_with_stdin(&["extract", "--jsonl"], input.as_bytes());
        assert!(output.status.success(), "{}", stderr(&output));
        let extracted: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON line");
        assert_eq!(extracted["language"]["value"], json!(language), "{extracted}");
        assert_eq!(extracted["title"]["value"], json!(format!("{title}{site}")), "{extracted}");
        let text = extracted["text"].as_str().unwrap_or_default();
        assert_eq!(text.replace('\n', ""), texts[0], "{extracted}");
        assert!(extracted["published"]["value"].as_str().unwrap_or("").starts_with("2024-12-03"));

        // The title key: the source's name is cut, the CJK characters kept, punctuation gone.
        let source = site.trim_start_matches(['｜', ' ', '-']);
        let output = morgue_with_stdin(
            &["normalize", "title", "--source", source],
            format!("{title}{site}\n").as_bytes(),
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stdout(&output).trim_end(), expected_key, "{language}");

        // Dedup: the copy is linked, the other story is not.
        let input = [
            story("a", title, texts[0], language),
            story("b", "別題", texts[1], language),
            story("c", "別の話", texts[2], language),
        ]
        .join("\n");
        let output = morgue_with_stdin(&["dedup", "--input", "-", "--explain"], input.as_bytes());
        assert!(output.status.success(), "{}", stderr(&output));
        let out: Vec<Value> = stdout(&output)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(out.len(), 3, "{out:?}");
        assert_eq!(out[1]["cluster"], "a", "{language}: {}", out[1]);
        assert_eq!(out[1]["relation"], "duplicate", "{language}: {}", out[1]);
        assert_eq!(out[1]["duplicate_of"], "a");
        // The names and numbers come from the segmenter's words.
        let explanation = out[1]["explanation"].as_str().unwrap_or_default();
        assert!(explanation.contains("name"), "{language}: {explanation}");
        assert!(explanation.contains("number"), "{language}: {explanation}");
        assert_eq!(out[2]["cluster"], "c", "{language}: {}", out[2]);
        assert_eq!(out[2]["relation"], Value::Null, "{language}: {}", out[2]);
    }
}
