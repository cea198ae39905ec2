#!/usr/bin/env python3
"""Build the evaluation paragraphs for the embedder (read at evaluation time, never shipped).

    python3 dedup/tools/eval_corpus.py ../shared/data > /tmp/paragraphs.jsonl

One JSON object per line: {"lang", "doc", "text"}. English paragraphs come from the wcxb-dev
ground-truth texts (CC BY 4.0); Danish, Dutch, French, German, Portuguese and Spanish ones join
four consecutive sentences of a UD treebank's `# text` lines (CC BY-SA); a few hand-written
sentences cover scripts the treebanks lack. Deterministic: no randomness, sorted inputs.
"""

import glob
import json
import os
import sys

UD = {
    "da": "UD_Danish-DDT/da_ddt-ud-test.conllu",
    "de": "UD_German-GSD/de_gsd-ud-test.conllu",
    "es": "UD_Spanish-GSD/es_gsd-ud-test.conllu",
    "fr": "UD_French-GSD/fr_gsd-ud-test.conllu",
    "nl": "UD_Dutch-Alpino/nl_alpino-ud-test.conllu",
    "pt": "UD_Portuguese-Bosque/pt_bosque-ud-dev.conllu",
}
PER_LANGUAGE = 60

# Hand-written by the project for this check; each entry is one short paragraph.
HANDWRITTEN = {
    "ru": ["Правительство объявило о новом пакете мер поддержки малого бизнеса. Министр финансов заявил, что программа начнёт работать уже в марте.",
           "В Москве прошёл сильный снегопад. Движение на нескольких улицах было затруднено, городские службы работали всю ночь.",
           "Сборная страны по футболу выиграла товарищеский матч со счётом 2:1. Тренер отметил хорошую игру молодых игроков."],
    "zh": ["政府宣布了一项支持小企业的新措施。财政部长表示，该计划将于三月开始实施。",
           "北京今天下了大雪，多条道路交通受阻，城市服务部门连夜工作。",
           "国家足球队在友谊赛中以二比一获胜。主教练称赞了年轻球员的表现。"],
    "ja": ["政府は中小企業を支援する新たな対策を発表した。財務大臣によると、計画は三月に始まる。",
           "東京では大雪が降り、いくつかの道路で交通が乱れた。"],
    "ar": ["أعلنت الحكومة عن حزمة جديدة من الإجراءات لدعم الشركات الصغيرة. وقال وزير المالية إن البرنامج سيبدأ في مارس.",
           "فاز المنتخب الوطني لكرة القدم في مباراة ودية بنتيجة اثنين مقابل واحد."],
    "ko": ["정부는 중소기업을 지원하기 위한 새로운 대책을 발표했다. 재무장관은 이 계획이 3월에 시작된다고 말했다."],
    "tr": ["Hükümet küçük işletmeleri desteklemek için yeni bir paket açıkladı. Maliye bakanı programın mart ayında başlayacağını söyledi."],
    "pl": ["Rząd ogłosił nowy pakiet wsparcia dla małych firm. Minister finansów powiedział, że program ruszy w marcu."],
    "it": ["Il governo ha annunciato un nuovo pacchetto di misure per le piccole imprese. Il ministro delle finanze ha detto che il programma partirà a marzo."],
    "th": ["รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือธุรกิจขนาดเล็ก รัฐมนตรีคลังกล่าวว่าโครงการจะเริ่มในเดือนมีนาคม"],
    "mixed": ["  Leading   and trailing  spaces\tand\ttabs\nand newlines  ",
              "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ and ligatures ﬁ ﬂ, café vs café (combining), ½ ², e-mail: a.b@example.org",
              "Emoji 😀👍🏽 and symbols ☃ ✓ → €100 £5 ¥3, quotes «like this» „and this“ ‘and’ this.",
              "Zero\u200bwidth\u200cjoiners\u200d and soft\u00adhyphen and no\u00a0break\u00a0space.",
              "URL https://example.com/a?b=1&c=2 #hashtag @mention 3.14159 1,000,000 2026-11-22T10:00:00Z"],
}


def ud_paragraphs(path, lang):
    sentences = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# text = "):
                sentences.append(line[len("# text = "):].strip())
    out = []
    for i in range(0, len(sentences) - 3, 4):
        out.append({"lang": lang, "doc": f"{lang}-{i // 40}", "text": " ".join(sentences[i:i + 4])})
        if len(out) == PER_LANGUAGE:
            break
    return out


def main():
    data = sys.argv[1]
    rows = []
    files = sorted(glob.glob(os.path.join(data, "extraction/wcxb-dev/ground-truth/*.json")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            gt = json.load(f)["ground_truth"]
        paragraphs = [p.strip() for p in (gt.get("main_content") or "").split("\n\n")]
        paragraphs = [p for p in paragraphs if len(p.split()) >= 25]
        for p in paragraphs[:4]:
            rows.append({"lang": "en", "doc": os.path.basename(path), "text": p})
    for lang, rel in UD.items():
        rows.extend(ud_paragraphs(os.path.join(data, "ud", rel), lang))
    for lang, texts in HANDWRITTEN.items():
        rows.extend({"lang": lang, "doc": f"{lang}-hand", "text": t} for t in texts)
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
