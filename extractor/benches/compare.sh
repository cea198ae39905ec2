#!/usr/bin/env bash
# Quality and speed of this crate next to Python trafilatura, on the same pages in the same run.
#
# Usage: extractor/benches/compare.sh <wcxb-dir> [python]
#   <wcxb-dir>  a directory with html/<id>.html.gz and ground-truth/<id>.json (e.g. shared/data/extraction/wcxb-dev)
#   [python]    a Python with `trafilatura` and `lxml_html_clean` installed (default: python3)
# Set COMPARE=1 to also measure the Rust crates dom_smoothie, readability, trafilatura and rs-trafilatura
# (a separate release build with `--features compare`, about five minutes the first time).
# See extractor/benches/README.md.
set -euo pipefail
dir=${1:?usage: compare.sh <wcxb-dir> [python]}
python=${2:-python3}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
target=${CARGO_TARGET_DIR:-$PWD/target}

cargo build --release -p extractor --example eval --example bench
echo "== quality (morgue)"
"$target/release/examples/eval" "$dir"
if [[ "${COMPARE:-0}" == 1 ]]; then
    compare_target="$target/compare"
    CARGO_TARGET_DIR=$compare_target cargo build --release -p extractor --example eval --features compare
    for candidate in dom_smoothie readability trafilatura rs_trafilatura; do
        echo "== quality ($candidate)"
        "$compare_target/release/examples/eval" "$dir" --candidate "$candidate"
    done
fi
# Speed: ours, then trafilatura, then ours again, so that a load change on a shared machine shows.
echo "== speed (morgue, before)"
before=$("$target/release/examples/bench" "$dir" --rounds 3)
echo "$before"
echo "== quality and speed (Python trafilatura)"
theirs=$("$python" "$here/trafilatura_baseline.py" "$dir")
echo "$theirs"
echo "== speed (morgue, after)"
after=$("$target/release/examples/bench" "$dir" --rounds 3)
echo "$after"
one_core() { sed -n 's/^extract: one core \([0-9.]*\) pages\/s.*/\1/p'; }
all_cores() { sed -n 's/^extract: [0-9]* cores \([0-9.]*\) pages\/s.*/\1/p'; }
one_cpu() { sed -n 's/^extract: one core \([0-9.]*\) pages per CPU second.*/\1/p'; }
ours_one=$( (one_core <<<"$before"; one_core <<<"$after") | sort -g | head -1)
ours_all=$( (all_cores <<<"$before"; all_cores <<<"$after") | sort -g | head -1)
ours_cpu=$( (one_cpu <<<"$before"; one_cpu <<<"$after") | sort -g | head -1)
traf=$(sed -n 's/^seconds .*(\([0-9.]*\) pages\/s, one core)/\1/p' <<<"$theirs")
traf_cpu=$(sed -n 's/^cpu seconds .*(\([0-9.]*\) pages per CPU second)/\1/p' <<<"$theirs")
echo "== summary (the slower of the two morgue runs)"
awk -v o="$ours_one" -v a="$ours_all" -v t="$traf" -v oc="${ours_cpu:-0}" -v tc="${traf_cpu:-0}" 'BEGIN {
    printf "wall clock:  morgue one core %8.1f pages/s (%.1fx trafilatura), all cores %8.1f pages/s (%.1fx); trafilatura %.1f pages/s\n", o, o / t, a, a / t, t
    if (oc > 0 && tc > 0)
        printf "CPU time:    morgue %8.1f pages per CPU second, trafilatura %.1f (%.1fx)\n", oc, tc, oc / tc
}'
