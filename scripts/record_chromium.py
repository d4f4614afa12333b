"""Record what Chromium registers for every fixture page.

For each ``fixtures/html/<stem>.html`` this asks the real browser (``formtools._conformance.browser``) for the
page's tools and writes them to ``fixtures/expected/chromium/<stem>.json``. The page is served
byte for byte as ``text/html`` with no charset, so its ``<meta charset>`` (or the browser's
default) decides the encoding, as it would on the web.

A page is asked twice (see ``ChromiumOracle.stable_tools``). If the answers differ, or the
oracle cannot answer (``OracleError``), no golden file is written (an old one is deleted) and
the page is listed in ``fixtures/expected/chromium/UNSTABLE.json`` with both answers (``runs``)
or the ``error``.

    PYTHONPATH=src python scripts/record_chromium.py [--only GLOB]
"""

from __future__ import annotations

import sys
from pathlib import Path

from formtools._conformance.browser import BrowserUnavailable, ChromiumOracle, OracleError

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the shared helpers live in the scripts package
    sys.path.insert(0, str(ROOT))

from scripts._recording import fixture_pages, kept_unstable, stamped, write_json  # noqa: E402

EXPECTED_DIR = ROOT / "fixtures" / "expected" / "chromium"
UNSTABLE_FILE = EXPECTED_DIR / "UNSTABLE.json"


def record(pages: list[Path]) -> None:
    EXPECTED_DIR.mkdir(parents=True, exist_ok=True)
    unstable = kept_unstable(UNSTABLE_FILE, pages)
    recorded = tools_total = 0
    with ChromiumOracle() as oracle:
        stamped(oracle)
        for page in pages:
            golden = EXPECTED_DIR / f"{page.stem}.json"
            try:
                answer = oracle.stable_tools(page.read_bytes(), content_type="text/html")
            except OracleError as error:
                golden.unlink(missing_ok=True)
                unstable.append({"page": page.stem, "error": str(error)})
                print(f"unstable: {page.name}: {error}")
                continue
            if answer.stable:
                write_json(golden, answer.tools)
                recorded += 1
                tools_total += len(answer.tools)
            else:
                golden.unlink(missing_ok=True)
                unstable.append({"page": page.stem, "runs": list(answer.runs)})
                print(f"unstable: {page.name}")
    unstable.sort(key=lambda entry: entry["page"])
    write_json(UNSTABLE_FILE, unstable)
    print(f"{recorded} pages recorded, {len(pages) - recorded} unstable, {tools_total} tools")


def main(argv: list[str] | None = None) -> int:
    pages = fixture_pages(argv, __doc__.partition("\n")[0], "select-*")
    try:
        record(pages)
    except BrowserUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
