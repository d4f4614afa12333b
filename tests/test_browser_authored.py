"""Forms their authors annotated for WebMCP, against live Chromium: a held-out corpus.

Why this exists: every earlier corpus got its WebMCP attributes from formtools' own generators or
from byte insertions into saved pages. Session 12 took the declarative forms people wrote
themselves, as they read the explainer and Chrome's early-preview docs (Chrome Labs' demos,
tutorials, documentation sites, agent skills, starter kits): 40 pages, 42 distinct forms, 10
repositories (``tests/data/authored-forms.json``, each cited by repository, commit and path).
Most of them have no ``toolautosubmit`` — the explainer's own ``search-cars`` form has none —
which no corpus had exercised with calls that fail constraint validation. What it found is kept
here as a class:

- a call of a form without ``toolautosubmit`` whose values fail constraint validation (``{}`` on
  the explainer's form, whose fields are ``required``) was refused by formtools with "Form
  validation failed", where Chromium 156 fills the form and waits for the person: validation is
  the submission's, and the submission is theirs. formtools now prepares such a call with its
  ``problems`` (``awaiting-user``; a confirmed submit raises them, as the person's submit is
  stopped). Drawn here over every such tool of the corpus, valid and invalid inputs alike, and
  what those forms would send compared byte for byte with ``toolautosubmit`` inserted.

The run: 40 tools on 40 pages were Chromium's on both parse paths (none unstable); of 586 seeded
calls (each form as written, and with ``toolautosubmit`` inserted) 575 agreed and 11 were this
class; the ``html`` profile matched ``checkValidity()`` on 850 samples. Lint's errors on the
corpus (``no-submit-button`` 2, ``invalid-toolname`` 1: the explainer's ``toolname="Search
flights"``, which Chromium does not register) and warnings (``unknown-attribute`` for
``tool-name``, ``unnamed-dropped``, ``missing-description``, ``undeclared-encoding``) were each
true of the markup.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._spec.jsjson import dumps
from scripts.record_chromium_calls import outcome_of
from tests.support.callgen import calls_for
from tests.support.parity import PARSERS, call_differences, calls_the_oracle_sees, prepared_as_recorded, tool_differences

pytestmark = pytest.mark.browser

SEED = 12
DATA = json.loads((Path(__file__).parent / "data" / "authored-forms.json").read_text("utf-8"))
#: an author's page keeps its markup; its scripts (which build result panels, never the forms
#: compared here) must not run, nor reach for the network
AUTHORED = (("Content-Security-Policy", "default-src 'self'"),)
TOOL_PAGES = 12  # a seeded sample of the pages, their tools on both parse paths
WAITING_CALLS = 24  # calls of tools without toolautosubmit, half of them failing validation
SENT_CALLS = 10  # calls of the tools with toolautosubmit inserted: the request itself is compared
_FORM = re.compile(r"<form(?=[\t\n\f\r />])", re.I)


def _label(entry: dict[str, Any]) -> str:
    block = f"#html-block-{entry['html_block']}" if "html_block" in entry else ""
    return f"{entry['repo']}@{entry['commit'][:8]}:{entry['path']}{block}"


def test_authored_tools_are_chromiums(chromium: ChromiumOracle) -> None:
    found: list[str] = []
    for entry in random.Random(SEED).sample(DATA["pages"], TOOL_PAGES):
        found += tool_differences(chromium, entry["text"], _label(entry), headers=AUTHORED)
    assert not found, "\n".join(found)


def _waiting_cases(rng: random.Random) -> list[tuple[str, int, str, Any]]:
    """(label, page number, tool, input) for the corpus' tools without ``toolautosubmit``: seeded
    inputs of every kind, half of them ones the filled form fails constraint validation on."""
    invalid, others = [], []
    for number, entry in enumerate(DATA["pages"]):
        path = f"/authored/{number}.html"
        document = formtools.parse_html(entry["text"], url="http://127.0.0.1" + path)
        for tool in formtools.extract(document).tools:
            if tool.annotations["autosubmit"]:
                continue
            for value in calls_for(tool.to_dict(), rng, randoms=1):
                case = (_label(entry), number, tool.name, value)
                flags = {problem.flag for problem in formtools.validate_input(tool, value)}
                # constraint validation's problems only: a value of the wrong kind is refused
                fails = bool(flags) and not flags & {"badInput", "unknownParameter"}
                (invalid if fails else others).append(case)
    half = WAITING_CALLS // 2
    return rng.sample(invalid, min(half, len(invalid))) + rng.sample(others, WAITING_CALLS - min(half, len(invalid)))


@pytest.mark.spec_step("exec-submit-4", "exec-hitl-2")
def test_calls_of_forms_that_wait_for_a_person_are_chromiums(chromium: ChromiumOracle) -> None:
    """Chromium answers a call of a form without ``toolautosubmit`` by filling it and waiting
    (formtools: the prepared request, problems or none), or refuses it with a message formtools
    must give word for word (a value of the wrong kind, a missing submit button)."""
    cases = _waiting_cases(random.Random(SEED))
    assert len(cases) == WAITING_CALLS
    found = []
    for label, number, name, value in cases:
        page, path = DATA["pages"][number]["text"], f"/authored/{number}.html"
        answer = chromium.execute(page, name, value, path=path, headers=AUTHORED, wait_for_user=0.3)
        theirs = outcome_of(answer)
        theirs.pop("result", None)
        for parser in PARSERS:
            try:
                ours = prepared_as_recorded(page, chromium.site.origin + path, value, parser, name)
            except formtools.NoSubmitButton as error:
                ours = {"error": str(error)}
            if ours != theirs and not (theirs == {"waiting_for_user": True} and "request" in ours):
                found.append(f"{label} {name} {dumps(value)} ({parser}): Chromium {theirs} formtools {ours}")
    assert not found, "\n".join(found)


def test_authored_forms_send_chromiums_request(chromium: ChromiumOracle) -> None:
    """What a form without ``toolautosubmit`` would send is never seen while Chromium waits, so
    the attribute is inserted after ``<form`` (the first of a repeated attribute wins; a form
    that has it keeps its own) and the request, or the refusal, is compared byte for byte."""
    rng = random.Random(SEED)
    cases = []
    for number, entry in enumerate(DATA["pages"]):
        page, path = _FORM.sub("<form toolautosubmit", entry["text"]), f"/authored/sent-{number}.html"
        document = formtools.parse_html(page, url=chromium.site.origin + path)
        for name, value in calls_the_oracle_sees(document, rng, chromium.site.origin):
            cases.append((_label(entry), page, path, name, value))
    found = []
    for label, page, path, name, value in rng.sample(cases, SENT_CALLS):
        found += [f"{label} {name} {dumps(value)} {d}" for d in call_differences(chromium, page, value, path, name, headers=AUTHORED)]
    assert not found, "\n".join(found)
