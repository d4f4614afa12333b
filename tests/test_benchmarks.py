"""The benchmark corpus generator and the crawl benchmark, end to end at their smallest sizes.

The corpus is what other tests and benchmarks build on, so its promises are checked on real
output: same seed, same bytes (files, manifest and WARC); a smaller corpus is a prefix of a
bigger one; each page declares the charset it is encoded in; the manifest tells the truth about
forms and toolname; the WARC holds the same pages as the directory (``formtools batch`` gives the
same tools for both). The benchmark runs as its command does, in its quickest mode, and only the
shape of its output is checked: timings are not asserted anywhere in the tests.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from benchmarks.make_corpus import PAGES_PER_FOLDER, generate, iter_pages, load
from formtools import parse_html
from formtools._crawl.batch import BatchOptions, run_batch

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_crawl.py"
CASES = {
    "form-in-table",
    "form-across-cells",
    "foster-parented",
    "form-closed-by-div",
    "unclosed-form",
    "nested-form",
    "form-attribute",
    "template-form",
    "script-string",
    "uppercase",
}
CODECS = {
    "utf-8": "utf-8",
    "windows-1252": "cp1252",
    "iso-8859-1": "cp1252",
    "shift_jis": "shift_jis",
}


def _tree_bytes(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_same_seed_same_bytes_and_smaller_is_a_prefix(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", size_mb=0.3, seed=5)
    second = generate(tmp_path / "b", size_mb=0.3, seed=5)
    assert first.size >= 300_000
    assert _tree_bytes(first.directory) == _tree_bytes(second.directory)
    assert first.warc is not None and first.warc.stat().st_size > 0
    other_seed = generate(tmp_path / "c", size_mb=0.3, seed=6, warc=False)
    assert first.bodies()[0] != other_seed.bodies()[0]
    prefix = generate(tmp_path / "d", pages=2, seed=5, warc=False)
    assert prefix.bodies() == first.bodies()[:2]
    assert load(first.directory) == first


def test_pages_are_crawl_like_and_the_manifest_is_true(tmp_path: Path) -> None:
    corpus = generate(tmp_path, pages=120, seed=2, page_kb=(2, 6), warc=False)
    assert len(corpus.pages) == 120
    assert len(list(corpus.pages_dir.rglob("*.html"))) == 120
    seen_cases: set[str] = set()
    for page, body in zip(corpus.pages, corpus.bodies(), strict=True):
        assert page.bytes == len(body)
        assert page.file.startswith(f"pages/{int(Path(page.file).stem) // PAGES_PER_FOLDER:04d}/")
        declared = re.search(rb"charset=\"?([\w-]+)", body[:1024])
        assert declared and declared.group(1).decode().lower() == page.charset, page.file
        text = body.decode(CODECS[page.charset])  # encoded in what it declares
        assert ("<form" in text.lower()) == (page.forms > 0), page.file
        assert ("toolname" in text.lower()) == (page.toolname_forms > 0), page.file
        seen_cases.update(page.cases)
        if page.charset == "shift_jis":  # the parser decodes it by the <meta> into Japanese
            title = parse_html(body).root.findtext(".//title")
            assert title and any("\u3040" <= ch <= "\u9fff" for ch in title), title
    assert seen_cases == CASES
    assert {page.charset for page in corpus.pages} == set(CODECS)
    with_forms = sum(1 for page in corpus.pages if page.forms)
    assert 0.35 < with_forms / len(corpus.pages) < 0.65


def test_forms_only_pages_all_carry_one_to_three_forms(tmp_path: Path) -> None:
    corpus = generate(tmp_path / "a", pages=40, seed=4, forms_only=True, warc=False)
    again = generate(tmp_path / "b", pages=3, seed=4, forms_only=True, warc=False)
    assert again.bodies() == corpus.bodies()[:3]  # deterministic, and a prefix
    mixed = generate(tmp_path / "c", pages=3, seed=4, warc=False)
    assert mixed.bodies() != again.bodies()  # its own pages, not the mixed corpus's
    for page, body in zip(corpus.pages, corpus.bodies(), strict=True):
        # 1-3 forms; a nested or script-string form adds a <form tag that is no form
        assert 1 <= page.forms <= 5 and b"<form" in body.lower(), page.file
    sizes = sorted(page.bytes for page in corpus.pages)
    assert 30_000 < sizes[len(sizes) // 2] < 120_000  # median about 60 KB


def test_default_pages_are_20_to_400_kb() -> None:
    pages = iter_pages(seed=9)
    sizes = [next(pages).info.bytes for _ in range(12)]
    assert all(15_000 <= size <= 480_000 for size in sizes), sizes  # forms can add a few KB
    assert len(set(sizes)) == len(sizes)


def test_warc_holds_the_directory_pages(tmp_path: Path) -> None:
    corpus = generate(tmp_path / "corpus", pages=30, seed=3, page_kb=(2, 6))
    assert corpus.warc is not None
    with corpus.warc.open("rb") as stream:
        records = [
            (
                r.rec_type,
                r.rec_headers.get_header("WARC-Target-URI"),
                r.http_headers.get_header("Content-Type") if r.http_headers else None,
                r.content_stream().read(),
            )
            for r in ArchiveIterator(stream)
        ]
    assert records[0][0] == "warcinfo"
    html = {
        url: (ctype, body)
        for kind, url, ctype, body in records
        if kind == "response" and ctype.startswith("text/html")
    }
    assert {url: body for url, (_, body) in html.items()} == {
        p.url: b for p, b in zip(corpus.pages, corpus.bodies(), strict=True)
    }
    assert any(url.endswith("/robots.txt") for _, url, _, _ in records)

    options = BatchOptions(jobs=1)
    run_batch([str(corpus.pages_dir)], tmp_path / "dir.jsonl", options=options)
    run_batch([str(corpus.warc)], tmp_path / "warc.jsonl", options=options)
    by_file = {str(corpus.path(p)): p.url for p in corpus.pages}
    from_dir = {
        by_file[r["path"]]: r["tools"] for r in map(json.loads, (tmp_path / "dir.jsonl").open())
    }
    from_warc = {r["url"]: r["tools"] for r in map(json.loads, (tmp_path / "warc.jsonl").open())}
    assert from_dir.keys() == from_warc.keys() == set(by_file.values())
    assert sum(map(len, from_dir.values())) > 0
    assert from_dir == from_warc


def _bench(tmp_path: Path, *arguments: str) -> tuple[dict, str]:
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--size-mb", "0.3", "--json", str(out), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8")), done.stdout


def test_bench_quick_end_to_end(tmp_path: Path) -> None:
    results, printed = _bench(
        tmp_path,
        "--only",
        "parse,prefilter,scaling,memory",
        "--memory-pages",
        "20,60",
        "--jobs",
        "2",
    )
    assert results["sections"] == ["parse", "prefilter", "scaling", "memory"]
    pages = results["corpus"]["pages"]

    parse = results["parse"]
    assert [row["engine"] for row in parse["rows"]] == [
        "lexbor (selectolax), parse only",
        "lxml.html, parse only",
        "html5lib, parse only",
        "formtools.parse_html",
        "formtools.extract (+ prefilter on all)",
    ]
    assert parse["rows"][0]["vs_lexbor_all"] == 1.0
    assert 0 < parse["toolname_pages"] < pages
    for row in parse["rows"]:
        assert row["all"]["pages"] == pages and row["toolname"]["pages"] == parse["toolname_pages"]
        assert row["all"]["mb_per_s"] > 0

    assert len(results["prefilter"]["rows"]) == 4
    scaling = results["scaling"]["rows"]
    assert [(row["input"], row["jobs"]) for row in scaling] == [
        ("directory", 1),
        ("directory", 2),
        ("WARC.gz", 2),
    ]
    assert all(row["lines"] == pages for row in scaling)
    assert scaling[0]["speedup"] == 1.0

    memory = results["memory"]["rows"]
    assert [row["pages"] for row in memory] == [20, 60]
    for row in memory:
        assert row["lines"] == row["pages"]
        assert 10 < row["largest_process_mib"] <= row["tree_peak_mib"]

    for heading in ("## parse", "## prefilter", "## scaling", "## memory"):
        assert heading in printed
    assert "| lexbor (selectolax), parse only" in printed


def test_bench_rejects_an_unknown_section(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--only", "parse,speed"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "unknown section(s) speed" in done.stderr


@pytest.mark.browser
def test_bench_chromium_section(tmp_path: Path) -> None:
    from formtools._conformance.browser import CHROMIUM

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests: no {CHROMIUM}")
        pytest.skip(f"no {CHROMIUM}")
    results, printed = _bench(tmp_path, "--only", "chromium", "--sample", "3")
    chromium = results["chromium"]
    assert chromium["pages"] == len(chromium["rows"]) == 3
    assert chromium["chromium"].startswith("Chromium")
    assert chromium["same_tools"] == 3  # formtools and the browser agree on these pages
    assert "headless Chromium" in printed
