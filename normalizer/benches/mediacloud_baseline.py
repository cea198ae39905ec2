#!/usr/bin/env python3
"""Media Cloud's own implementation on the benchmark lists: mcmetadata.urls.normalize_url and
mcmetadata.titles.normalize_title, timed on one core, printed in the format of examples/throughput.rs.

Needs `pip install mediacloud-metadata` (measured with 2.1.0). `--dump` prints each input and its key,
tab-separated, instead (`<none>` when there is no key), for diffing with the Rust side. `--classes`
prints the time per title of `normalize_title` for each kind of title, the best of many passes, as
`examples/throughput.rs -- --classes` does (same kinds, same columns but the floor).
"""

import logging
import os
import sys
import time

# tldextract tries to download the public suffix list on first use and logs the failure when offline;
# it then falls back to its bundled snapshot, which is what Media Cloud uses without network too.
logging.disable(logging.CRITICAL)

from importlib.metadata import version  # noqa: E402

from mcmetadata import titles as mc_titles  # noqa: E402
from mcmetadata import urls as mc_urls  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SECONDS_PER_FUNCTION = 3


def read_lines(name):
    with open(os.path.join(HERE, "data", name), encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def rate(items, fn):
    for item in items:
        fn(item)
    start = time.perf_counter()
    done = 0
    while time.perf_counter() - start < SECONDS_PER_FUNCTION:
        for item in items:
            fn(item)
        done += len(items)
    return done / (time.perf_counter() - start)


def is_latin(title):
    """Latin script, Latin-1 and general punctuation (curly quotes, dashes)."""
    return all(ord(c) < 0x370 or 0x2000 <= ord(c) <= 0x206F for c in title)


def has_markup(title):
    return "&" in title or "<" in title


KINDS = [
    ("all", lambda t: True),
    ("ascii", lambda t: t.isascii() and not has_markup(t)),
    ("ascii, references or tags", lambda t: t.isascii() and has_markup(t)),
    ("latin, non-ascii", lambda t: not t.isascii() and is_latin(t)),
    ("other scripts", lambda t: not t.isascii() and not is_latin(t)),
]


def best_ns(items, fn, passes=30):
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best * 1e9 / max(len(items), 1)


def classes(titles):
    print(f"{'titles':28} {'count':>6} {'ns/title':>10}")
    for name, keep in KINDS:
        items = [t for t in titles if keep(t)]
        print(f"{name:28} {len(items):>6} {best_ns(items, mc_titles.normalize_title):>10.1f}")


def main():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    urls = read_lines("urls.txt")
    titles = read_lines("titles.txt")
    if "--dump" in sys.argv[1:]:
        for url in urls:
            try:
                key = mc_urls.normalize_url(url)
            except Exception:  # the reference raises on some inputs; that is a "no key" here
                key = None
            print(f"url\t{url}\t{key if key is not None else '<none>'}")
        for title in titles:
            print(f"title\t{title}\t{mc_titles.normalize_title(title)}")
        return
    if "--classes" in sys.argv[1:]:
        classes(titles)
        return
    mc_urls.normalize_url(urls[0])  # the first call loads the suffix list
    print(f"implementation: python mcmetadata {version('mediacloud-metadata')}")
    print(f"inputs: {len(urls)} urls, {len(titles)} titles")
    print(f"url items/s: {rate(urls, mc_urls.normalize_url):.0f}")
    print(f"title items/s: {rate(titles, mc_titles.normalize_title):.0f}")


if __name__ == "__main__":
    main()
