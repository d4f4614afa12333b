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
from collections.abc import Iterator

import pytest

import formtools
from formtools._conformance.site import LocalSite
from tests.conftest import EXPECTED

RECORDED = json.loads((EXPECTED / "results.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in RECORDED["cases"]}


@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    with LocalSite() as running:
        yield running


def test_the_recording_is_stamped() -> None:
    assert RECORDED["browser"]["product"].startswith("Chrome/156.")
    assert "--enable-features=WebMCP,WebMCPTesting,DeclarativeWebmcp" in RECORDED["browser"]["flags"]


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
    if answer["status"] == "Completed":
        assert result.status == "completed", result
        assert result.result == answer["output"]
    else:  # Error (another origin) or pending: the agent gets no result, and formtools says why
        assert result.result is None, result
        assert result.reason, result
        assert result.to_dict().get("result") is None
