#!/usr/bin/env python3
"""Media Cloud's own implementation on the benchmark lists: mcmetadata.urls.normalize_url and
mcmetadata.titles.normalize_title, timed on one core, printed in the format of examples/throughput.rs.

Needs `pip install mediacloud-metadata` (measured with 2.1.0). `--dump` prints each input and its key,
tab-separated, instead (`<none>` when there is no key), for diffing with the Rust side.
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
    mc_urls.normalize_url(urls[0])  # the first call loads the suffix list
    print(f"implementation: python mcmetadata {version('mediacloud-metadata')}")
    print(f"inputs: {len(urls)} urls, {len(titles)} titles")
    print(f"url items/s: {rate(urls, mc_urls.normalize_url):.0f}")
    print(f"title items/s: {rate(titles, mc_titles.normalize_title):.0f}")


if __name__ == "__main__":
    main()
