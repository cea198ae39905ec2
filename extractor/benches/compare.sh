#!/usr/bin/env bash
# Quality and speed of this crate next to Python trafilatura, on the same pages in the same run.
#
# Usage: extractor/benches/compare.sh <wcxb-dir> [python]
#   <wcxb-dir>  a directory with html/<id>.html.gz and ground-truth/<id>.json (e.g. shared/data/extraction/wcxb-dev)
#   [python]    a Python with `trafilatura` and `lxml_html_clean` installed (default: python3)
# Set COMPARE=1 to also measure the Rust crates dom_smoothie, trafilatura and rs-trafilatura
# (a separate release build with `--features compare`, about five minutes the first time).
set -euo pipefail
dir=${1:?usage: compare.sh <wcxb-dir> [python]}
python=${2:-python3}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-extractor}

cargo build --release -p extractor --example eval --example bench
echo "== quality (morgue)"
"$CARGO_TARGET_DIR/release/examples/eval" "$dir"
if [[ "${COMPARE:-0}" == 1 ]]; then
    compare_target="$CARGO_TARGET_DIR-compare"
    CARGO_TARGET_DIR=$compare_target cargo build --release -p extractor --example eval --features compare
    for candidate in dom_smoothie trafilatura rs_trafilatura; do
        echo "== quality ($candidate)"
        "$compare_target/release/examples/eval" "$dir" --candidate "$candidate"
    done
fi
echo "== speed (morgue)"
"$CARGO_TARGET_DIR/release/examples/bench" "$dir" --rounds 3
echo "== quality and speed (Python trafilatura)"
"$python" "$here/trafilatura_baseline.py" "$dir"
