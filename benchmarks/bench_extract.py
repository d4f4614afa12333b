"""Extraction throughput against parse-only baselines, measured in the same run.

    python benchmarks/bench_extract.py            # fixtures + a generated 10 MB corpus
    python benchmarks/bench_extract.py --mb 2     # a smaller corpus

Prints pages/s and MB/s for: lxml.html parse only, html5lib parse only (its default ElementTree builder), formtools
parse only (html5lib + form-owner hook), and formtools extract (parse + forms + synthesis), with
each figure's ratio to the html5lib baseline. No goal is enforced here; the figures go in the
README.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

import html5lib
import lxml.html

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import formtools  # noqa: E402
from formtools._parse import parse_html  # noqa: E402

FILLER = (
    "<div class=card><h2>Section {n}</h2><p>Lorem ipsum <a href='/x/{n}'>dolor</a> sit amet, "
    "<b>consectetur</b> adipiscing elit. <span class=tag>#{n}</span></p>"
    "<ul><li>One</li><li>Two</li><li>Three</li></ul>"
    "<table><tr><th>Col</th><td>{n}</td></tr></table></div>\n"
)


def corpus(megabytes: float, seed: int = 7) -> list[bytes]:
    """Form-heavy pages: fixture forms embedded in navigation, prose and tables."""
    rng = random.Random(seed)
    fixtures = [p.read_text("utf-8", errors="replace") for p in sorted((ROOT / "fixtures/html").glob("*.html"))]
    bodies = [f.split("<body>", 1)[-1].split("</body>", 1)[0] for f in fixtures]
    pages, total = [], 0
    while total < megabytes * 1_000_000:
        parts = ["<!doctype html><html><head><meta charset=utf-8><title>p</title></head><body>"]
        parts.append("<nav>" + "".join(f"<a href='/n{i}'>Item {i}</a>" for i in range(30)) + "</nav>")
        for n in range(rng.randint(5, 40)):
            parts.append(FILLER.format(n=n))
            if rng.random() < 0.3:
                parts.append(rng.choice(bodies))
        parts.append("</body></html>")
        page = "".join(parts).encode("utf-8")
        pages.append(page)
        total += len(page)
    return pages


def measure(label: str, pages: list[bytes], work: Callable[[bytes], object], repeat: int) -> float:
    size = sum(map(len, pages))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for page in pages:
            work(page)
        best = min(best, time.perf_counter() - start)
    print(f"  {label:<34} {len(pages) / best:9.1f} pages/s {size / best / 1e6:8.2f} MB/s", end="")
    return size / best


def run(name: str, pages: list[bytes], repeat: int) -> None:
    print(f"{name}: {len(pages)} pages, {sum(map(len, pages)) / 1e6:.2f} MB (best of {repeat})")
    baseline = measure(
        "html5lib parse only (baseline)", pages,
        lambda page: html5lib.HTMLParser(namespaceHTMLElements=False).parse(page, useChardet=False),
        repeat,
    )
    print("   1.00x")
    for label, work in (
        ("lxml.html parse only", lambda page: lxml.html.document_fromstring(page)),
        ("formtools parse (owner hook)", lambda page: parse_html(page)),
        ("formtools extract", lambda page: formtools.extract(page)),
    ):
        speed = measure(label, pages, work, repeat)
        print(f"   {speed / baseline:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0, help="size of the generated corpus")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    fixtures = [p.read_bytes() for p in sorted((ROOT / "fixtures/html").glob("*.html"))]
    run("fixtures", fixtures, args.repeat)
    run("generated corpus", corpus(args.mb), max(1, args.repeat - 2))


if __name__ == "__main__":
    main()
