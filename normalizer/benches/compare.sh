#!/usr/bin/env bash
# Runs Media Cloud's Python implementation and this crate on the same lists, one core each, and prints
# both throughputs and their ratio, in alternating rounds (ROUNDS, default 5) and their median. Needs
# `pip install mediacloud-metadata`; PYTHON picks the interpreter; CLASSES=1 adds the ratio by kind of
# title; RUST_BIN runs that build of `examples/throughput` instead of building one (to set two builds
# side by side in one session).
# Usage, from anywhere: bash normalizer/benches/compare.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
workspace="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 0); fi

if [[ -n "${RUST_BIN:-}" ]]; then
    rust_bin="$RUST_BIN"
else
    (cd "$workspace" && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$workspace/target}" \
        cargo build --release --quiet -p normalizer --example throughput)
    rust_bin="${CARGO_TARGET_DIR:-$workspace/target}/release/examples/throughput"
fi

value() { echo "$1" | awk -v key="$2" -F': ' '$1 == key { print $2 }'; }
# Rounds alternate the two sides, so that a slow spell of a shared machine hits both; each round's
# ratio is printed, then the median of the rounds.
rounds="${ROUNDS:-5}"
declare -A ratios
for ((round = 1; round <= rounds; round++)); do
    py_out="$("${pin[@]}" "$python" "$here/mediacloud_baseline.py")"
    rs_out="$("${pin[@]}" "$rust_bin")"
    if ((round == 1)); then
        echo "$py_out" | head -2
        echo "$rs_out" | head -2
    fi
    for kind in url title; do
        py="$(value "$py_out" "$kind items/s")"
        rs="$(value "$rs_out" "$kind items/s")"
        ratio="$(awk -v p="$py" -v r="$rs" 'BEGIN { printf "%.1f", r / p }')"
        ratios[$kind]+="$ratio "
        printf 'round %d %s: rust %.0f/s, python %.0f/s, ratio %sx\n' "$round" "$kind" "$rs" "$py" "$ratio"
    done
done
# With CLASSES=1, also the time per title by kind of title on both sides (best of many passes) and
# their ratio: how the ratio would move with a list of another mix.
if [[ "${CLASSES:-0}" == 1 ]]; then
    py_classes="$("${pin[@]}" "$python" "$here/mediacloud_baseline.py" --classes)"
    rs_classes="$("${pin[@]}" "$rust_bin" --classes)"
    printf '%-28s %6s %10s %10s %7s\n' kind titles "python ns" "rust ns" ratio
    join -t $'\t' \
        <(echo "$py_classes" | tail -n +2 | sed -E 's/^(.{28}) +([0-9]+) +([0-9.]+).*/\1\t\2\t\3/' | sort) \
        <(echo "$rs_classes" | tail -n +2 | sed -E 's/^(.{28}) +([0-9]+) +([0-9.]+).*/\1\t\3/' | sort) |
        awk -F'\t' '{ printf "%-28s %6d %10.1f %10.1f %6.1fx\n", $1, $2, $3, $4, $3 / $4 }'
fi
for kind in url title; do
    median="$(echo "${ratios[$kind]}" | tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
    echo "$kind: median ratio ${median}x over $rounds rounds (${ratios[$kind]% })"
done
