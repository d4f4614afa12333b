"""The prefilter's byte scan against parsing, measured in the same run.

    python benchmarks/bench_prefilter.py            # a generated 20 MB corpus
    python benchmarks/bench_prefilter.py --mb 5

Batch extraction parses only pages the prefilter passes, so its speed on pages without tools is
the scan's. The corpus is bench_extract's crawl-like pages; the scan is timed on them as they are
(most hold a tool, so the scan stops at the first ``toolname``) and with every ``toolname``
renamed (the scan reads every byte: the worst case and the common one in a crawl), in UTF-8 and
UTF-16. The parse-only baselines run on a slice of the same pages.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_extract import corpus  # noqa: E402

from formtools._parse import parse_html  # noqa: E402
from formtools._prefilter import may_hold_tools  # noqa: E402


def rate(pages: list[bytes], work: Callable[[bytes], object], repeat: int) -> float:
    """MB/s, best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for page in pages:
            work(page)
        best = min(best, time.perf_counter() - start)
    return sum(map(len, pages)) / best / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20.0, help="size of the generated corpus")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pages = corpus(args.mb)
    without = [page.replace(b"toolname", b"toolnome") for page in pages]
    formless = [page.replace(b"<form", b"<farm") for page in without]
    wide = [
        ("\ufeff" + page.decode("utf-8")).encode("utf-16-le") for page in without[: len(pages) // 4]
    ]
    sample = pages[: max(1, len(pages) // 20)]
    print(
        f"{len(pages)} pages, {sum(map(len, pages)) / 1e6:.1f} MB; parsers on {len(sample)} of them"
    )
    rows = [
        ("prefilter, pages with tools", pages, may_hold_tools, args.repeat),
        ("prefilter, no toolname (full scan)", without, may_hold_tools, args.repeat),
        (
            "prefilter --all-forms, no <form",
            formless,
            lambda p: may_hold_tools(p, all_forms=True),
            args.repeat,
        ),
        ("prefilter, UTF-16, no toolname", wide, may_hold_tools, args.repeat),
        ("lxml.html parse only", sample, lxml.html.document_fromstring, 2),
        ("formtools parse (html5lib)", sample, parse_html, 1),
    ]
    for label, corpus_pages, work, repeat in rows:
        print(f"  {label:<38} {rate(corpus_pages, work, repeat):10,.1f} MB/s")


if __name__ == "__main__":
    main()
