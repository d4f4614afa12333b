"""Shapes from web-platform-tests' form markup, a corpus no generator of ours wrote, against the
real Chromium 156, live.

The whole of WPT's form tests (html/semantics/forms, the form-related conformance-checker
documents and rendering tests, each page's forms given a ``toolname``, with and without their
scripts, and the pages without a form wrapped in one) was compared with Chromium once; what it
found is kept here as small seeded families, with the WPT files they come from in
``tests/data/``:

- twelve of its pages as a whole (``tests/data/wpt-form-pages.json``: form owners around
  tables and ``form=``, named items, radio groups, resets, legends, unnamed controls of every
  kind): their tools byte for byte on both parse paths, and seeded calls (``callgen``) giving
  Chromium's request or rejection;
- patterns that backtrack catastrophically (:data:`CATASTROPHIC`): formtools ran for hours
  where Chromium answers patternMismatch in under a second; now a bounded match
  (``MATCH_BUDGET``) gives Chromium's answer;
- form actions that resolve to the page's own origin (``tests/data/wpt-form-actions.json``):
  a bare fragment (``#``, ``#;?``), ``?``, ``:``, relative and odd-scheme paths, submitted by
  GET with no entries, GET with one and POST. The request-target Chromium sends keeps the empty
  query of a GET of no entries (``/p?``) and drops the fragment; the request formtools reports
  for comparison (``request_as_recorded``, also the WPT export's manifest) dropped the ``?``
  whenever the action had a fragment.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._conformance.diff import unified_diff
from scripts.record_chromium_calls import outcome_of
from tests.support.callgen import calls_for
from tests.support.parity import call_differences, calls_may_share_a_load, one_load_suffices

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parent / "data"
ACTIONS: list[dict[str, str]] = json.loads((DATA / "wpt-form-actions.json").read_text("utf-8"))["actions"]
PAGES: list[dict[str, Any]] = json.loads((DATA / "wpt-form-pages.json").read_text("utf-8"))["pages"]

# (method, body, input): no entries at all, one entry, and a POST (whose URL keeps no query)
SUBMISSIONS = [
    ("get", "", {}),
    ("get", "<input name=q>", {"q": "a b&c"}),
    ("post", "<input name=q>", {"q": "a b"}),
]


def test_wpt_pages_give_chromiums_tools_and_calls(chromium: ChromiumOracle) -> None:
    rng = random.Random("wpt-form-pages")
    differences, calls = [], 0
    for number, entry in enumerate(PAGES):
        page, source = entry["markup"], entry["source"]
        path = f"/wpt-pages/{number}.html"
        answer = chromium.stable_tools(page, reload=not one_load_suffices(page), path=path)
        assert answer.stable, source
        for parser in ("auto", "html5lib"):
            ours = [tool.to_dict() for tool in formtools.extract_tools(page, parser=parser)]  # type: ignore[arg-type]
            diff = unified_diff(answer.tools, ours, f"{source} ({parser})")
            if diff:
                differences.append(diff)
        if not entry["calls"]:
            continue
        again = calls_may_share_a_load(page)  # (the calls in the document read above)
        for tool in answer.tools:
            for tool_input in calls_for(tool, rng, randoms=1)[:4]:
                calls += 1
                for difference in call_differences(chromium, page, tool_input, path, tool["name"], again=again):
                    differences.append(f"{source} {tool['name']} {tool_input} {difference}")
    assert calls >= 60
    assert not differences, "\n".join(differences[:10])


def test_wpt_actions_submit_the_request_chromium_sends(chromium: ChromiumOracle) -> None:
    """Every action with a GET of no entries (where the empty query shows), and one of the other
    two submissions drawn at random."""
    rng = random.Random("wpt-form-actions")
    cases = [(entry, submission) for entry in ACTIONS for submission in (SUBMISSIONS[0], rng.choice(SUBMISSIONS[1:]))]
    assert len(cases) >= 60
    # one page, a form per case (tool t<n>): an action resolves with the page's URL and encoding,
    # which the forms share, and its form's own attributes; the calls share the page's load where
    # calls_may_share_a_load admits it (a javascript: action makes each call load it afresh)
    page = "<!doctype html><meta charset=utf-8>" + "".join(
        f"<form toolname=t{number} tooldescription=d toolautosubmit "
        f'method={method} action="{html.escape(entry["action"])}">{body}</form>'
        for number, (entry, (method, body, _)) in enumerate(cases)
    )
    again = calls_may_share_a_load(page)
    differences = []
    for number, (entry, (method, _, tool_input)) in enumerate(cases):
        for difference in call_differences(chromium, page, tool_input, "/wpt-actions/dir/page.html", f"t{number}", again=again):
            differences.append(f"{entry['action']!r} {method} {tool_input} from {entry['source']} {difference}")
    assert not differences, f"{len(differences)} of {2 * len(cases)}:\n" + "\n".join(differences[:15])


#: Patterns whose matching backtracks exponentially: WPT's own
#: (html/semantics/forms/constraints/infinite-backtracking.html, which expects the value to be
#: :invalid, not a hang) and the classic shapes around it. Chromium answers each in well under
#: a second: it stops after some million backtracks and counts the value a patternMismatch, even
#: one that matches (``(a+)+b|a+c`` on 20 or more ``a`` and a ``c``, where 19 match); regress,
#: which formtools matches with, has no such budget and holds the GIL, so one call ran for hours
#: until formtools matched such patterns in a helper process within its own budget.
CATASTROPHIC = [r"(\d+)*$", r"(a+)+$", r"(a|a)*$", r"(\w+\s?)*$", r"(a+)+b|a+c"]

_OUTCOME_IN_A_CHILD = """
import json, sys
import formtools
from formtools._conformance.wpt import request_as_recorded
from formtools.errors import InputError, ValidationError
page, url, tool_input = json.loads(sys.argv[1])
tool = formtools.extract(formtools.parse_html(page, url=url)).tool("t")
try:
    request = formtools.prepare_call(tool, tool_input, boundary="BOUNDARY").request
    print(json.dumps({"request": request_as_recorded(request)}))
except (InputError, ValidationError) as error:
    print(json.dumps({"error": str(error)}))
"""


@pytest.mark.spec_step("exec-validate-1")
def test_catastrophic_patterns_answer_as_chromium_does(chromium: ChromiumOracle) -> None:
    """Each in a child process with a deadline, so a hang fails the test instead of the run."""
    import subprocess
    import sys

    rng = random.Random("catastrophic-patterns")
    differences = []
    for number, pattern in enumerate(CATASTROPHIC):
        run = "1" if "\\d" in pattern else "a"
        value = run * rng.randint(36, 44) + ("c" if "c" in pattern else "!")
        page = (
            "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d toolautosubmit>"
            f'<input name=q pattern="{html.escape(pattern)}"></form>'
        )
        path = f"/wpt-patterns/{number}.html"
        theirs = outcome_of(chromium.execute(page, "t", {"q": value}, path=path, landing=False))
        theirs.pop("result", None)
        try:
            done = subprocess.run(
                [sys.executable, "-c", _OUTCOME_IN_A_CHILD, json.dumps([page, chromium.site.origin + path, {"q": value}])],
                # a hang's guard, not a time limit: a call's matches may take 1 s, and a child
                # on a machine loaded far past its cores (load 22) took more than the 5 s it had
                capture_output=True, text=True, timeout=60,
            )
            ours = json.loads(done.stdout) if done.returncode == 0 else {"crashed": done.stderr[-200:]}
        except subprocess.TimeoutExpired:
            ours = {"timeout": "no answer in 60 s"}
        if ours != theirs:
            differences.append(f"{pattern!r} on {value!r}: chromium {theirs}, formtools {ours}")
    assert not differences, "\n".join(differences)


def test_a_cli_call_on_a_catastrophic_pattern_answers_chromiums_error_in_time(chromium: ChromiumOracle, tmp_path: Path) -> None:
    """``formtools call … --dry-run``, a real process, on each page of :data:`CATASTROPHIC` (two
    controls each, so the call spends its budget on both): it ran for hours; now it exits 1
    within a generous bound of CPU, with the problems Chromium reports for the same call. (The
    bound was on wall time, which a loaded machine's scheduler decides: two calls took 10.3 and
    11.1 s at load 18.)"""
    import resource
    import subprocess
    import sys

    rng = random.Random("catastrophic-cli")
    slow, differences = [], []
    for number, pattern in enumerate(CATASTROPHIC):
        run = "1" if "\\d" in pattern else "a"
        tool_input = {key: run * rng.randint(36, 44) + ("c" if "c" in pattern else "!") for key in ("q", "r")}
        page = (
            "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d toolautosubmit>"
            f'<input name=q pattern="{html.escape(pattern)}"><input name=r pattern="{html.escape(pattern)}"></form>'
        )
        path = f"/wpt-patterns-cli/{number}.html"
        theirs = outcome_of(chromium.execute(page, "t", tool_input, path=path))
        saved = tmp_path / f"{number}.html"
        saved.write_text(page, "utf-8")
        start = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, "-m", "formtools", "call", str(saved), "t", "--dry-run",
             "--base-url", chromium.site.origin + path, "--input", json.dumps(tool_input)],
            capture_output=True, text=True, timeout=60,  # a hang's guard (as above), not the bound
        )
        end = resource.getrusage(resource.RUSAGE_CHILDREN)  # the process and its match helpers
        took = end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime
        if took > 10:
            slow.append(f"{pattern!r}: {took:.1f} s of CPU")
        # Chromium: "Form validation failed: q: <message>. r: <message>. "; the CLI: one line
        # per problem, "formtools: q: <message> (patternMismatch)"
        lines = done.stderr.splitlines() if done.returncode == 1 else [done.stderr]
        ours = "Form validation failed: " + "".join(
            line.removeprefix("formtools: ").removesuffix(" (patternMismatch)") + ". " for line in lines
        )
        if ours != theirs.get("error"):
            differences.append(f"{pattern!r}: chromium {theirs}, formtools exit {done.returncode} {done.stderr!r}")
    assert not slow, slow
    assert not differences, "\n".join(differences)
