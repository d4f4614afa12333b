"""The web-platform-tests export, run in the real Chromium: every exported subtest passes or fails
exactly as ``expectations.json`` says; the schema subtests expected to fail are exactly the
(tool, keyword or parameter) pairs where the conformance report (``formtools report --format
json``) lists a difference between Chromium and HTML-exact, no more, no less; the call subtests
expected to fail are exactly those whose recorded Chromium outcome differs from HTML-exact's.
The JSON manifest holds every recorded call with each profile's outcome.

The runner serves the export from a local site with a minimal testharness stand-in
(``tests/support/testharness_shim.js``); under WPT the real testharness.js runs the same files.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from formtools._conformance.wpt import WPT_LINE_LINTS
from tests.conftest import EXPECTED, FIXTURES, ROOT, made_once_per_run

SHIM = (ROOT / "tests" / "support" / "testharness_shim.js").read_bytes()
RESOURCES = "/webmcp/declarative/resources/"


def _formtools(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "formtools", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export of the fixture pages, written once for the run (8 s of CPU) whichever
    workers its tests run on."""
    return made_once_per_run(
        tmp_path_factory, "wpt", lambda out: _formtools("report", "--format", "wpt", "--out", str(out))
    )


@pytest.fixture(scope="module")
def expectations(export: Path) -> dict[str, bool]:
    data = json.loads((export / "webmcp" / "declarative" / "expectations.json").read_text())
    assert data["expected"].startswith("HTML-exact")
    tests: dict[str, bool] = data["tests"]
    return tests


def _run_in_chromium(chromium, folder: Path, tests: list[Path] | None = None) -> tuple[dict[str, bool], dict[str, str]]:
    """Run the tests of an export (every one unless ``tests`` are named) in Chromium 156 under
    the testharness stand-in: each subtest passes or not, and its message."""
    site = chromium.site
    site.put("/resources/testharness.js", SHIM, "text/javascript")
    site.put("/resources/testharnessreport.js", b"", "text/javascript")
    for resource in (folder / "resources").iterdir():
        site.put(f"{RESOURCES}{quote(resource.name)}", resource.read_bytes(), "text/html")
    seen: dict[str, bool] = {}
    messages: dict[str, str] = {}
    stalled: list[str] = []
    for test in sorted(folder.glob("*.https.html")) if tests is None else tests:
        url = site.put(f"/webmcp/declarative/{quote(test.name)}", test.read_bytes(), "text/html; charset=utf-8")
        # Chromium 156 now and then never finishes a call test's frame (its renderer stalls
        # after a frame that re-registered tools is removed), and then the harness times out:
        # the browser's instability, not the export's. Such a file runs again in a fresh tab,
        # and the stall is reported; a file that times out three times fails.
        results = None
        for _attempt in range(3):
            chromium.page.goto(url)
            try:
                chromium.page.wait_for_function("window.__wptDone === true", timeout=75_000)
                results = chromium.page.evaluate("window.__wptResults")
            except PlaywrightTimeout:
                results = None
            if results is not None and all(result["status"] in ("PASS", "FAIL") for result in results):
                break
            stalled.append(test.name)
            chromium.renew_page()
        else:
            pytest.fail(f"{test.name} timed out in three fresh tabs: {results}")
        for result in results or []:
            seen[result["name"]] = result["status"] == "PASS"
            messages[result["name"]] = result.get("message", "")
    chromium.renew_page()
    if stalled:
        print(f"\nChromium stalled on (and finished on a retry): {stalled}")
    return seen, messages


def _recorded_calls() -> dict[str, list[dict[str, Any]]]:
    return {
        path.stem: json.loads(path.read_text("utf-8"))
        for path in sorted((EXPECTED / "chromium-calls").glob("*.json"))
        if path.name != "UNSTABLE.json"
    }


def _call_tests(folder: Path) -> dict[str, dict[str, Any]]:
    """Every exported call subtest by name: its page, tool, input and expectation."""
    found = {}
    for test in folder.glob("*-calls.tentative.https.html"):
        text = test.read_text("utf-8")
        block = text.split('<script type="application/json" id="calls">', 1)[1].split("</script>", 1)[0]
        for call in json.loads(block):
            found[call["name"]] = {"page": test.name.removesuffix("-calls.tentative.https.html"), **call}
    return found


def test_the_export_has_a_test_per_page_and_a_manifest(export: Path) -> None:
    folder = export / "webmcp" / "declarative"
    pages = sorted(FIXTURES.glob("*.html"))
    recorded = _recorded_calls()
    assert sorted(p.name for p in folder.glob("*.https.html")) == sorted(
        [f"{p.stem}.tentative.https.html" for p in pages]
        + [f"{stem}-calls.tentative.https.html" for stem, calls in recorded.items() if calls]
    )
    assert all((folder / "resources" / p.name).read_bytes() == p.read_bytes() for p in pages)
    text = (folder / "realistic-search.tentative.https.html").read_text()
    block = text.split('<script type="application/json" id="expected">', 1)[1].split("</script>", 1)[0]
    assert '<script src="/resources/testharness.js"></script>' in text and "x-formtools" not in block
    assert json.loads(block)["tools"]["site_search"]["inputSchema"]["additionalProperties"] is False
    assert "executeTool" in (folder / "realistic-search-calls.tentative.https.html").read_text()
    readme = (folder / "README.md").read_text()
    assert "HTML-exact" in readme and "x-formtools-*" in readme


def test_the_manifest_has_every_recorded_call_with_each_profiles_outcome(export: Path) -> None:
    pages = sorted(FIXTURES.glob("*.html"))
    recorded = _recorded_calls()
    index = json.loads((export / "manifest.json").read_text())
    assert index["version"] == 2 and [p["page"] for p in index["pages"]] == [p.name for p in pages]
    assert index["calls"] == sum(map(len, recorded.values())) == sum(p["calls"] for p in index["pages"])
    for entry in index["pages"]:
        files = [export / name for name in entry["files"]]
        assert all(f.stat().st_size < 200_000 for f in files), entry
        parts = [json.loads(f.read_text()) for f in files]
        assert set(parts[0]["tools"]) == {"chromium", "html", "portable"}
        assert parts[0]["base_url"].endswith(RESOURCES + entry["page"])
        calls = [call for part in parts for call in part["calls"]]
        stem = entry["page"].removesuffix(".html")
        assert [(c["tool"], c["input"], c["recorded"]) for c in calls] == [
            (c["tool"], c["input"], c["outcome"]) for c in recorded.get(stem, [])
        ]
        for call in calls:
            for profile in ("chromium", "html", "portable"):
                (kind,) = call[profile]
                assert kind in ("request", "rejection", "not_sent")
                if kind == "rejection":
                    assert call[profile]["rejection"]["message"]
            # formtools' chromium profile rejects exactly the calls Chromium rejected
            assert ("error" in call["recorded"]) == ("rejection" in call["chromium"]), (stem, call)


def test_the_expected_schema_failures_are_the_reports_differences(export: Path, expectations: dict[str, bool]) -> None:
    """Both ways: every difference the report lists (but formtools' own keywords, tool titles
    and annotations, which getTools() does not show) is an expected failure of its (tool,
    keyword or parameter) subtest, and every expected failure is such a difference."""
    report = json.loads(_formtools("report", "--format", "json").stdout)
    differing = set()
    for difference in report["differences"]:
        keyword, tool, parameter = difference["keyword"], difference["tool"], difference["parameter"]
        if difference["extension"] or keyword.startswith("annotations") or (keyword == "title" and parameter is None):
            continue
        page = Path(difference["page"]).stem
        if keyword.startswith("inputSchema."):
            differing.add(f"{page}: {tool}: inputSchema.{keyword.split('.')[1]}")
        elif parameter is not None:
            differing.add(f"{page}: {tool}: properties.{parameter}")
        else:
            differing.add(f"{page}: {tool}: {keyword}")
    calls = _call_tests(export / "webmcp" / "declarative")
    failing = {name for name, passes in expectations.items() if not passes and name not in calls}
    assert differing, "the report lists differences"
    assert failing - differing == set(), "expected to fail, but the report lists no difference there"
    assert differing - failing == set(), "the report lists a difference no subtest expects"
    # one subtest per (tool, parameter) pair the report counts
    for page in report["pages"]:
        stem = Path(page["page"]).stem
        assert sum(name.startswith(f"{stem}: ") and ": properties." in name for name in expectations) == page["parameters"]


def _relocated(stem: str, outcome: dict[str, Any]) -> dict[str, Any]:
    """A recorded outcome as a call subtest sees it, the page moved from /pages/ (where it was
    recorded) to the export's resources/."""
    if "error" in outcome:
        return {"rejected": True}
    url = outcome["request"]["url"]
    return {"url": RESOURCES + url.removeprefix("/pages/") if url.startswith("/pages/") else url}


def test_the_call_expectations_are_the_recorded_outcomes(export: Path, expectations: dict[str, bool]) -> None:
    """A call subtest is expected to pass in Chromium exactly when what Chromium did with the
    call (recorded by scripts/record_chromium_calls.py) is what HTML-exact execution does; the
    manifest's html outcome is the one the subtest expects."""
    recorded = _recorded_calls()
    calls = _call_tests(export / "webmcp" / "declarative")
    assert len(calls) >= 100 and {c["page"] for c in calls.values()} == {s for s, c in recorded.items() if c}
    kinds = {(passes, "rejected" in call["expected"]) for name, call in calls.items() for passes in [expectations[name]]}
    # both agree on rejecting or on the URL; Chromium submits where HTML-exact rejects (no
    # recorded call is rejected by Chromium and submitted by HTML-exact)
    assert kinds >= {(True, True), (True, False), (False, True)}
    # each page's first manifest file, read once (not once per call: 270 parses of up to 200 kB)
    first_files = {
        page: json.loads((export / "manifest" / f"{page}.json").read_text()) for page in {c["page"] for c in calls.values()}
    }
    for name, call in calls.items():
        index = int(name.split("call #")[1].split(" ")[0])
        case = recorded[call["page"]][index]
        assert (case["tool"], case["input"]) == (call["tool"], call["input"])
        assert expectations[name] == (_relocated(call["page"], case["outcome"]) == call["expected"]), name
        html = next((c["html"] for c in first_files[call["page"]]["calls"] if c["index"] == index), None)
        if html is not None:  # the call is in the page's first manifest file
            assert ("rejection" in html) == ("rejected" in call["expected"]), name


#: the pages' tests run in Chromium in this many parts (a part's pages: every _PARTS-th), so
#: that xdist's workers share the 95 s they take
_PARTS = 5


def test_every_subtest_belongs_to_one_page(expectations: dict[str, bool]) -> None:
    """A subtest's name starts with its page's name, so the parts below, each holding some
    pages' subtests, hold every subtest once between them."""
    stems = [page.stem for page in FIXTURES.glob("*.html")]
    assert {name: owners for name in expectations for owners in [[s for s in stems if name.startswith(f"{s}: ")]] if len(owners) != 1} == {}


@pytest.mark.browser
@pytest.mark.parametrize("part", range(_PARTS))
def test_chromium_passes_and_fails_exactly_as_expected(
    chromium, export: Path, expectations: dict[str, bool], part: int
) -> None:
    """Every subtest of the part's pages (the page's own test and its calls') passes or fails
    in Chromium as ``expectations.json`` says."""
    folder = export / "webmcp" / "declarative"
    stems = [page.stem for page in sorted(FIXTURES.glob("*.html"))][part::_PARTS]
    tests = [
        test
        for stem in stems
        for test in (folder / f"{stem}.tentative.https.html", folder / f"{stem}-calls.tentative.https.html")
        if test.exists()
    ]
    seen, messages = _run_in_chromium(chromium, folder, tests)
    assert set(seen) == {name for name in expectations if name.startswith(tuple(f"{stem}: " for stem in stems))}
    surprises = {name: (passed, messages[name]) for name, passed in seen.items() if passed != expectations[name]}
    assert not surprises, surprises


def test_the_figures_the_guide_quotes_are_the_exports(export: Path, expectations: dict[str, bool]) -> None:
    """docs/guide/spec-oracle.md quotes the export's counts; they are this export's."""
    text = (ROOT / "docs" / "guide" / "spec-oracle.md").read_text("utf-8")
    section = " ".join(text.split("## Tests another implementation can run", 1)[1].split("\n## ", 1)[0].split())
    calls = _call_tests(export / "webmcp" / "declarative")
    schema = {name: passes for name, passes in expectations.items() if name not in calls}
    index = json.loads((export / "manifest.json").read_text())
    figures = {
        "pages": f"{len(list(FIXTURES.glob('*.html')))} pages",
        "schema subtests": f"{len(schema):,} schema subtests ({sum(not p for p in schema.values()):,} expected to",
        "additionalProperties": f"{sum(not p for n, p in schema.items() if n.endswith(': inputSchema.additionalProperties'))} of them `additionalProperties`",
        "call subtests": f"{len(calls)} call subtests ({sum(not expectations[n] for n in calls)} expected to fail",
        "call pages": f"for the {len({c['page'] for c in calls.values()})} pages with calls",
        "manifest": f"({index['calls']:,} on {sum(1 for p in index['pages'] if p['calls'])} pages, in "
        f"{sum(len(p['files']) for p in index['pages'])} files)",
    }
    wrong = {name: figure for name, figure in figures.items() if figure not in section}
    assert not wrong, f"spec-oracle.md quotes other figures than the export gives: {wrong}"


#: characters a page's file name may hold that HTML attributes, URLs, JavaScript strings and
#: template literals, comments and fnmatch patterns each give a meaning to
ODD_NAME = 'a"b\'c<d>e&f#g?h%i`j${k}l*m[n] o--> p.html'


@pytest.mark.browser
def test_a_page_with_any_file_name_exports_a_test_that_runs(chromium, tmp_path: Path) -> None:
    """The page's name goes into the test's title, its iframe's URL and its subtests' names
    (before: as written, so a quote ended the src attribute and the JavaScript string, and the
    test was a syntax error); the test runs and its subtests are the expectations'."""
    page = tmp_path / "pages" / ODD_NAME
    page.parent.mkdir()
    shutil.copyfile(FIXTURES / "realistic-search.html", page)
    out = tmp_path / "out"
    _formtools("report", "--format", "wpt", "--out", str(out), str(page))
    folder = out / "webmcp" / "declarative"
    expectations = json.loads((folder / "expectations.json").read_text())["tests"]
    seen, messages = _run_in_chromium(chromium, folder)
    assert set(seen) == set(expectations) and len(seen) > 10
    assert all(name.startswith(page.stem + ": ") for name in seen)
    assert {name: passed for name, passed in seen.items() if passed != expectations[name]} == {}, messages


def _lint(export: Path) -> dict[str, set[str]]:
    """What web-platform-tests' lint (tools/lint/lint.py) finds in the export's files, by path
    under the WPT root: its line regexps (every file), the path length, and for a test the
    testharness structure — one testharness.js and one testharnessreport.js at /resources/, the
    report after the harness, at most one <meta name=timeout>, "long", before the harness."""
    found: dict[str, set[str]] = {}
    for file in sorted(export.rglob("*")):
        path = file.relative_to(export).as_posix()
        if not file.is_file() or not path.startswith("webmcp/"):
            continue
        text = file.read_bytes()
        errors = {name for name, rule in WPT_LINE_LINTS.items() if file.suffix == ".html" and any(rule.search(line) for line in text.split(b"\n"))}
        if len(path) > 150:
            errors.add("PATH LENGTH")
        if file.name.endswith(".https.html"):
            if ".tentative." not in file.name:  # they assert a proposal, which WPT marks tentative
                errors.add("not .tentative.")
            markup = text.decode("utf-8")
            scripts = re.findall(r'<script src="([^"]*)">', markup)
            harness = [i for i, src in enumerate(scripts) if src.endswith("testharness.js")]
            report = [i for i, src in enumerate(scripts) if src.endswith("testharnessreport.js")]
            if [scripts[i] for i in harness] != ["/resources/testharness.js"]:
                errors.add("TESTHARNESS-PATH or MULTIPLE-TESTHARNESS")
            if [scripts[i] for i in report] != ["/resources/testharnessreport.js"] or report[0] < harness[0]:
                errors.add("MISSING-, MULTIPLE- or EARLY-TESTHARNESSREPORT")
            timeouts = re.findall(r'<meta name="timeout" content="([^"]*)">', markup)
            if len(timeouts) > 1 or any(t != "long" for t in timeouts):
                errors.add("MULTIPLE- or INVALID-TIMEOUT")
            if timeouts and markup.index('<meta name="timeout"') > markup.index("/resources/testharness.js"):
                errors.add("LATE-TIMEOUT")
        if errors:
            found[path] = errors
    return found


def test_the_export_passes_wpts_lint_but_for_the_lines_it_writes_for_lint_ignore(export: Path) -> None:
    """The generated tests pass WPT's lint (before: every one called setTimeout, SET TIMEOUT)
    and are named as WPT names tests of a proposal no spec requires yet (``.tentative.``; before:
    not);
    a page copied as it is into resources/ may not (tool-description-text.html keeps a tab in a
    description), and the export's lint.ignore holds exactly the lines WPT needs for those."""
    found = _lint(export)
    assert not {path: errors for path, errors in found.items() if "/resources/" not in path}
    ignore = {tuple(line.split(": ", 1)) for line in (export / "lint.ignore").read_text().splitlines()}
    assert ignore == {(error, path) for path, errors in found.items() for error in errors}
    assert ("INDENT TABS", "webmcp/declarative/resources/tool-description-text.html") in ignore
