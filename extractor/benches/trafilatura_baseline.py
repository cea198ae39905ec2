"""Python trafilatura on a WCXB-style directory: the same quality figures as examples/eval.rs, and single-core speed.

Usage: python3 trafilatura_baseline.py <dir> [--tsv FILE]

Pages are decompressed into memory first; only `trafilatura.bare_extraction` is timed, one page after
another in one process (one core), by the wall clock and in CPU seconds of the process. Word F1, date accuracy and title match follow the definitions in
examples/eval.rs (lower-cased `\\w+` tokens, multiset overlap, mean over pages).
"""

import collections
import gzip
import json
import pathlib
import re
import sys
import time

import trafilatura

WORD = re.compile(r"\w+")


def tokens(text):
    return collections.Counter(t.lower() for t in WORD.findall(text or ""))


def word_f1(predicted, truth):
    p, t = tokens(predicted), tokens(truth)
    np_, nt = sum(p.values()), sum(t.values())
    if np_ == 0 and nt == 0:
        return 1.0
    if np_ == 0 or nt == 0:
        return 0.0
    overlap = sum((p & t).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / np_, overlap / nt
    return 2 * precision * recall / (precision + recall)


def main():
    args = sys.argv[1:]
    tsv = None
    if "--tsv" in args:
        i = args.index("--tsv")
        tsv = args[i + 1]
        del args[i : i + 2]
    root = pathlib.Path(args[0])
    pages = []
    for gt_path in sorted((root / "ground-truth").glob("*.json")):
        page_id = gt_path.stem
        html_path = root / "html" / f"{page_id}.html.gz"
        if not html_path.exists():
            continue
        gt = json.loads(gt_path.read_text())
        pages.append((page_id, gzip.decompress(html_path.read_bytes()), gt))
    outputs = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    for page_id, html, gt in pages:
        try:
            doc = trafilatura.bare_extraction(html, url=gt.get("url"), with_metadata=True)
        except Exception:  # noqa: BLE001 - a failing page scores zero, as in the Rust harness.
            doc = None
        outputs.append(doc)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    f1_sum = date_total = date_ok = title_ok = 0
    rows = []
    for (page_id, _, gt), doc in zip(pages, outputs):
        truth = gt["ground_truth"]
        doc = doc.as_dict() if doc is not None and hasattr(doc, "as_dict") else (doc or {})
        f1 = word_f1(doc.get("text") or "", truth.get("main_content") or "")
        f1_sum += f1
        truth_date = (truth.get("publish_date") or "")[:10]
        guess_date = (doc.get("date") or "")[:10]
        if truth_date:
            date_total += 1
            date_ok += truth_date == guess_date
        title_ok += (doc.get("title") or "") == (truth.get("title") or "")
        rows.append(f"{page_id}\t{f1:.4f}\t{truth_date or '-'}\t{guess_date or '-'}")
    n = len(pages)
    print("candidate      python-trafilatura", trafilatura.__version__)
    print("pages         ", n)
    print(f"word F1 mean   {f1_sum / n:.4f}")
    print(f"date accuracy  {date_ok / max(date_total, 1):.4f} ({date_ok}/{date_total})")
    print(f"title exact    {title_ok / n:.4f} ({title_ok})")
    print(f"seconds        {elapsed:.2f} ({n / elapsed:.1f} pages/s, one core)")
    print(f"cpu seconds    {cpu:.2f} ({n / cpu:.1f} pages per CPU second)")
    if tsv:
        pathlib.Path(tsv).write_text("id\tf1\tdate_truth\tdate_guess\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
