"""What the recording scripts share: choosing fixture pages, batched questions to a page,
weighted random draws, the unstable entries to keep, and writing expected-output JSON in JSON.stringify form."""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from formtools._spec.jsjson import dumps

ROOT = Path(__file__).resolve().parent.parent
HTML_DIR = ROOT / "fixtures" / "html"

T = TypeVar("T")


def write_json(path: Path, value: Any) -> None:
    path.write_text(dumps(value, pretty=True) + "\n", encoding="utf-8")


def fixture_pages(argv: list[str] | None, description: str, example: str) -> list[Path]:
    """The fixture pages an ``--only GLOB`` command line selects (all by default)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--only",
        metavar="GLOB",
        default="*",
        help=f"record only pages whose stem (or file name) matches GLOB, e.g. {example!r}",
    )
    only = parser.parse_args(argv).only
    return sorted(
        page
        for page in HTML_DIR.glob("*.html")
        if fnmatch.fnmatchcase(page.stem, only) or fnmatch.fnmatchcase(page.name, only)
    )


def kept_unstable(unstable_file: Path, pages: Sequence[Path]) -> list[dict[str, Any]]:
    """The entries of ``unstable_file`` to keep when ``pages`` are recorded again: those of pages
    not asked about this time, unless they left fixtures/html."""
    if not unstable_file.exists():
        return []
    asked = {page.stem for page in pages}
    existing = {page.stem for page in HTML_DIR.glob("*.html")}
    previous = json.loads(unstable_file.read_text("utf-8"))
    return [entry for entry in previous if entry["page"] not in asked and entry["page"] in existing]


def evaluate_in_batches(page: Any, script: str, items: Sequence[Any], batch: int) -> list[Any]:
    """``page.evaluate(script, chunk)`` over ``items`` in chunks, answers concatenated in order:
    one round trip per chunk instead of one per item."""
    answers: list[Any] = []
    for start in range(0, len(items), batch):
        answers += page.evaluate(script, list(items[start : start + batch]))
    return answers


def weighted_draws(
    rng: random.Random, makers: Sequence[tuple[Callable[[random.Random], T], int]], count: int
) -> list[T]:
    """``count`` values, each from a maker chosen with the given weights."""
    population = [maker for maker, weight in makers for _ in range(weight)]
    return [rng.choice(population)(rng) for _ in range(count)]


STAMP = ROOT / "fixtures" / "expected" / "BROWSER.json"


def stamped(oracle: Any) -> dict[str, Any]:
    """The browser this recording comes from; refuse to mix it with recordings of another.

    Every file under ``fixtures/expected`` was recorded with the browser ``BROWSER.json`` names
    (product string and flags). A recording made with another one would silently mix two
    browsers' answers, so a script stops here: record everything again with ``--restamp``
    (``FORMTOOLS_RESTAMP=1``), or use the browser the stamp names."""
    import os

    current: dict[str, Any] = oracle.stamp
    if STAMP.exists():
        recorded = json.loads(STAMP.read_text(encoding="utf-8"))
        if recorded != current and os.environ.get("FORMTOOLS_RESTAMP") != "1":
            raise SystemExit(
                f"fixtures/expected was recorded with {recorded['product']} {recorded['flags']}; "
                f"this browser is {current['product']} {current['flags']}: re-record every "
                "expectation with FORMTOOLS_RESTAMP=1, or use the stamped browser"
            )
    write_json(STAMP, current)
    return current
