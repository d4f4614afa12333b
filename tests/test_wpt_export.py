"""The web-platform-tests export, run in the real Chromium: every exported test passes or fails
exactly as ``expectations.json`` says, and the expectations are the conformance report's
differences (those a browser test can see), no more, no less.

The runner serves the export from a local site with a minimal testharness stand-in
(``tests/support/testharness_shim.js``); under WPT the real testharness.js runs the same files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

SHIM = (ROOT / "tests" / "support" / "testharness_shim.js").read_bytes()


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wpt")
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "report", "--format", "wpt", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_export_has_a_test_per_page_and_a_manifest(export: Path) -> None:
    folder = export / "webmcp" / "declarative"
    pages = sorted(FIXTURES.glob("*.html"))
    assert sorted(p.name for p in folder.glob("*.html")) == [p.name for p in pages]
    assert all((folder / "resources" / p.name).read_bytes() == p.read_bytes() for p in pages)
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["version"] == 1 and len(manifest["pages"]) == len(pages)
    search = next(p for p in manifest["pages"] if p["page"] == "realistic-search.html")
    assert set(search["tools"]) == {"chromium", "html", "portable"}
    calls = [c for p in manifest["pages"] for c in p["calls"]]
    assert calls and all(("request" in c) or ("rejection" in c) or ("not_sent" in c) for c in calls)
    text = (folder / "realistic-search.html").read_text()
    assert '<script src="/resources/testharness.js"></script>' in text and "x-formtools" not in text


@pytest.mark.browser
def test_chromium_passes_and_fails_exactly_as_expected(chromium, export: Path) -> None:
    folder = export / "webmcp" / "declarative"
    expectations = json.loads((folder / "expectations.json").read_text())["tests"]
    site = chromium.site
    site.put("/resources/testharness.js", SHIM, "text/javascript")
    site.put("/resources/testharnessreport.js", b"", "text/javascript")
    for resource in (folder / "resources").iterdir():
        site.put(f"/webmcp/declarative/resources/{resource.name}", resource.read_bytes(), "text/html")
    seen: dict[str, bool] = {}
    for test in sorted(folder.glob("*.html")):
        url = site.put(f"/webmcp/declarative/{test.name}", test.read_bytes(), "text/html; charset=utf-8")
        chromium.page.goto(url)
        chromium.page.wait_for_function("window.__wptDone === true", timeout=20_000)
        for result in chromium.page.evaluate("window.__wptResults"):
            seen[result["name"]] = result["status"] == "PASS"
    assert set(seen) == set(expectations)
    surprises = {name: passed for name, passed in seen.items() if passed != expectations[name]}
    assert not surprises, surprises
