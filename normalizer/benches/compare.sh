#!/usr/bin/env bash
# Runs Media Cloud's Python implementation and this crate on the same lists, one core each, and prints
# both throughputs and their ratio. Needs `pip install mediacloud-metadata`; PYTHON picks the interpreter.
# Usage, from anywhere: bash normalizer/benches/compare.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
workspace="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 0); fi

(cd "$workspace" && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$workspace/target}" \
    cargo build --release --quiet -p normalizer --example throughput)
rust_bin="${CARGO_TARGET_DIR:-$workspace/target}/release/examples/throughput"

py_out="$("${pin[@]}" "$python" "$here/mediacloud_baseline.py")"
rs_out="$("${pin[@]}" "$rust_bin")"
echo "$py_out"
echo "$rs_out"

value() { echo "$1" | awk -v key="$2" -F': ' '$1 == key { print $2 }'; }
for kind in url title; do
    py="$(value "$py_out" "$kind items/s")"
    rs="$(value "$rs_out" "$kind items/s")"
    awk -v k="$kind" -v p="$py" -v r="$rs" 'BEGIN { printf "%s: rust %.0f/s, python %.0f/s, ratio %.1fx\n", k, r, p, r / p }'
done
