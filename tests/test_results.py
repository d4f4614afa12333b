"""A call's result as Chromium hands it to the agent, recorded from the browser
(``scripts/record_chromium_results.py`` → ``fixtures/expected/results.json``) and reproduced by
formtools against the same pages served from a real local HTTP server.

Chromium's answer is ``Completed`` with the landing document's JSON-LD, ``Error`` (a landing
page of another origin) or nothing (the call stays pending: ``javascript:``/``data:``/``mailto:``
actions, ``method=dialog``, a new window, a download). formtools gives the same JSON-LD where
Chromium completes, and ``result`` ``None`` with a reason everywhere Chromium gives the agent
nothing — never an error of its own.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest

import formtools
from formtools._conformance.site import LocalSite
from formtools._spec.jsjson import dumps
from tests.conftest import EXPECTED

# the recording nests as deep as the deepest JSON-LD block Chromium keeps (1,000 levels), inside
# the file's own levels: Python's json recurses once per level
sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
RECORDED = json.loads((EXPECTED / "results.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in RECORDED["cases"]}


@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    with LocalSite() as running:
        yield running


def test_the_recording_is_stamped() -> None:
    assert RECORDED["browser"]["product"].startswith("Chrome/156.")
    assert "--enable-features=WebMCP,WebMCPTesting,DeclarativeWebmcp" in RECORDED["browser"]["flags"]


@pytest.mark.spec_step("exec-result-3")
@pytest.mark.parametrize(
    ("depth", "inner", "kept"),
    [(257, "", True), (999, "", True), (999, "0", True), (1000, "", True), (1000, "0", False),
     (1001, "", False), (1001, "0", False)],
)  # fmt: skip
def test_json_ld_nesting_boundary_is_recorded(depth: int, inner: str, kept: bool) -> None:
    """Chromium keeps a block of 1,000 levels, counting the innermost value as one: 1,000 empty
    arrays, or 999 around a number; 1,000 arrays around a number, or 1,001 empty, are skipped.
    (``test_result_as_chromium_gives_it`` holds formtools to the same cases.)"""
    case = CASES[f"landing-json-ld-depth-{depth}" + ("-scalar" if inner else "")]
    (body,) = case["pages"].values()
    assert "[" * depth + inner + "]" * depth in body[1]
    output = case["answer"]["output"]
    blocks = json.loads(output) if isinstance(output, str) else output
    assert blocks[-1] == {"landed": "after"}
    assert len(blocks) == (2 if kept else 1)


@pytest.mark.spec_step("exec-request-6", "exec-result-1", "exec-result-2", "exec-result-3", "exec-result-4")
@pytest.mark.parametrize("name", sorted(CASES))
def test_result_as_chromium_gives_it(site: LocalSite, name: str) -> None:
    case = CASES[name]
    for path, (content_type, body) in case["pages"].items():
        site.put(path, body.encode("utf-8"), f"{content_type}; charset=utf-8")
    alt = site.origin.replace("127.0.0.1", "localhost")
    page = case["page"].replace("{alt}", alt)
    url = site.put(f"/results/{name}", page.encode("utf-8"))
    (tool,) = formtools.extract_tools(page, base_url=url)
    result = formtools.call_tool(tool, case["input"], confirm=True)
    answer = case["answer"]
    if answer["status"] == "Completed" and isinstance(answer["output"], str):
        # DevTools hands a result nested too deep for its own values over as the JSON text
        # (at 999 levels and more; a JSON value at 257): formtools' must be that text
        assert result.status == "completed", result
        assert dumps(result.result) == answer["output"]
    elif answer["status"] == "Completed":
        assert result.status == "completed", result
        assert result.result == answer["output"]
    else:  # Error (another origin) or pending: the agent gets no result, and formtools says why
        assert result.result is None, result
        assert result.reason, result
        assert result.to_dict().get("result") is None
