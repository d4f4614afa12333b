"""Regenerate what formtools computes for the fixture pages and ships in the repository:

- ``fixtures/expected/html/<stem>.json`` and ``fixtures/expected/portable/<stem>.json``: the tools
  of ``fixtures/html/<stem>.html`` under the ``html`` and ``portable`` profiles, in the shape of the
  Chromium recordings (``fixtures/expected/chromium/``), so other implementations can test against
  them too;
- ``docs/conformance/``: the conformance report (Chromium's recordings next to the ``html``
  profile, every difference explained and filed under a spec question; ``formtools report``),
  as Markdown and as HTML, one file per part (``index``, one per question, ``subset-289``,
  ``extensions``, ``pages``) so that every file stays small. Its #289 section adds a sample of
  generated pages (``tests/support/formgen.py``, seeded): how many of them Chromium's schemas
  (computed by the ``chromium`` profile) and the ``portable`` profile's pass the subset.

Everything comes from this checkout's ``src/`` (put first on ``sys.path``, whatever formtools is
installed), with the document URL ``http://127.0.0.1/<page>.html``, as in
``tests/test_golden_chromium.py``. Files of pages that left ``fixtures/html`` are deleted.

    python scripts/make_report.py            # rewrite what changed
    python scripts/make_report.py --check    # change nothing; exit 1 when something is out of date

``tests/test_report.py`` runs the same computation and fails when the files differ from it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "src", ROOT):  # this checkout's formtools, and the scripts package
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from formtools import parse_html, synthesize  # noqa: E402
from formtools._spec.jsjson import dumps  # noqa: E402
from formtools._conformance.report_compare import Report, compare_page  # noqa: E402
from formtools._conformance.report_render import render_files  # noqa: E402
from formtools._conformance.report_subset import SubsetPage, SubsetSample, tally_side  # noqa: E402
from scripts._recording import HTML_DIR  # noqa: E402
from tests.support.formgen import generate_pages  # noqa: E402

PROFILES = ("html", "portable")
EXPECTED_DIRS = {profile: ROOT / "fixtures" / "expected" / profile for profile in PROFILES}
REPORT_DIR = ROOT / "docs" / "conformance"
REPORT_FORMATS = ("md", "html")
SAMPLE_PAGES, SAMPLE_SEED = 300, 289  # the generated pages the #289 section adds


def _pages() -> list[Path]:
    return sorted(HTML_DIR.glob("*.html"))


def _document_url(page: Path) -> str:
    return f"http://127.0.0.1/{page.name}"


def fixture_report() -> Report:
    """The conformance report of every fixture page, pages named by their repository path."""
    return Report(
        tuple(
            compare_page(
                str(page),
                label=page.relative_to(ROOT).as_posix(),
                base_url=_document_url(page),
            )
            for page in _pages()
        )
    )


def subset_sample() -> SubsetSample:
    """The #289 tallies of the generated sample: Chromium's schemas as the ``chromium`` profile
    computes them (the differential tests hold it to the browser) and the ``portable``
    profile's."""
    pages = [(name, html.encode()) for name, html in generate_pages(SAMPLE_PAGES, seed=SAMPLE_SEED)]
    documents = [(name, body, parse_html(body)) for name, body in pages]
    sides = tuple(
        tally_side(
            side,
            [
                SubsetPage(name, len(body), [tool.to_dict() for tool in synthesize(doc, side).tools])
                for name, body, doc in documents
            ],
        )
        for side in ("chromium", "portable")
    )
    description = f"{SAMPLE_PAGES} generated pages (`tests/support/formgen.py`, seed {SAMPLE_SEED})"
    note = (
        "Chromium's schemas for generated pages are computed by formtools' `chromium` profile, "
        "which the differential tests hold to the browser byte for byte."
    )
    return SubsetSample(description, note, sides)


def outputs(report: Report | None = None) -> dict[Path, str]:
    """Every generated file (absolute path → text); ``report`` is :func:`fixture_report`'s, when
    the caller has it already."""
    files: dict[Path, str] = {}
    for page in _pages():
        document = parse_html(page.read_bytes(), url=_document_url(page))
        for profile in PROFILES:
            tools = [tool.to_dict() for tool in synthesize(document, profile).tools]
            files[EXPECTED_DIRS[profile] / f"{page.stem}.json"] = dumps(tools, pretty=True) + "\n"
    report = report or fixture_report()
    sample = subset_sample()
    for format in REPORT_FORMATS:
        for name, text in render_files(report, format, sample).items():
            files[REPORT_DIR / name] = text
    return files


def out_of_date(files: dict[Path, str]) -> list[Path]:
    """Generated files whose text on disk differs from ``files`` (or that are missing)."""
    return [path for path, text in files.items() if _current(path) != text]


def stale(files: dict[Path, str]) -> list[Path]:
    """Generated files that nothing generates any more: expected outputs of pages that left the
    fixtures, report parts that are gone."""
    found = [path for directory in EXPECTED_DIRS.values() for path in directory.glob("*.json")]
    found += [path for format in REPORT_FORMATS for path in REPORT_DIR.glob(f"*.{format}")]
    return sorted(path for path in found if path not in files)


def _current(path: Path) -> str | None:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 when out of date"
    )
    check = parser.parse_args(argv).check
    files = outputs()
    changed = out_of_date(files)
    removed = stale(files)
    for path in changed + removed:
        verb = "out of date" if check else "wrote" if path in files else "deleted"
        print(f"{verb}: {path.relative_to(ROOT)}")
    if check:
        return 1 if changed or removed else 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    for path in removed:
        path.unlink()
    pages = len(_pages())
    unchanged = len(files) - len(changed)
    print(f"{pages} pages: {len(changed)} written, {len(removed)} deleted, {unchanged} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
