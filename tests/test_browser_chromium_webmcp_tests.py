"""The markup of Chromium's own WebMCP tests, against live Chromium: a held-out corpus.

Why this exists: every corpus before was written by formtools' authors, by spec and test authors
about forms in general, by design systems, real sites or the authors of WebMCP demos. The
engineers who built Chromium's declarative WebMCP wrote tests of their own, and those encode what
*they* thought mattered: labels that several ``<label for>`` name, ``aria-description``, radio
and checkbox groups whose first member carries ``toolparamtitle``, hidden inputs made parameters
by a description, duplicate and mixed-type names, a step base off the step, a ``select multiple``
drawn as a menu list, and the inputs their tests hand to ``executeTool`` or ``FillFormControls``
(numbers as strings, ``1`` for a checkbox, ``"false"``, transactional refusals). Session 13 cut
them out of ``chromium/chromium`` (``tests/data/chromium-webmcp-tests.json``: 101 pages from
web_tests/external/wpt/webmcp, web_tests/wpt_internal/webmcp, html_form_mcp_tool_test.cc and
model_context_test.cc, each cited by commit, path and test; scripts cut out, since formtools runs
none) and compared them live:

- tools on both parse paths were Chromium's on all 101 pages (none unstable), and on 550
  seeded variants of them (attributes added to their forms and controls, controls added);
- the 77 calls the tests make, and 2,672 seeded calls, were refused or sent as Chromium does
  (each form as written, and with ``toolautosubmit`` inserted), 443 more on the variants;
- the ``html`` profile matched ``checkValidity()`` on 4,013 samples;
- every lint error on the corpus (``no-submit-button``, ``missing-toolname``,
  ``missing-tooldescription``, ``duplicate-name``, ``mixed-types``) is true of Chromium.

What it found is kept as a class: model_context_test.cc's FlexibleTypes gives a checkbox ``1``
and ``"false"``; over 430 such values on its form, formtools took a whole number beyond 32 bits
(``2147483648``, ``1e21``) as ``true``, where Chromium, whose JSON reader makes a double of it,
refuses it as it refuses ``1.5`` (:func:`test_odd_booleans_are_chromiums`).

Where a test asserts what Chromium 156 does not do, the binary is the authority and the data
says so (``chromium_156``): a hidden input with only ``toolparamtitle`` is no parameter, file
inputs are none without the ``WebMCPDeclarativeFileInput`` flag the C++ test turns on, and a
custom element is no parameter without the script that defines it. The C++ tests' expected
schemas (at fac06947) differ from Chromium 156 too, which the tools comparison shows: 156 knows
no ``toolparamtitle`` (no ``title`` on a text input, a select, a radio or checkbox group), takes
no description for a radio or checkbox group from its first member's ``toolparamdescription``,
and writes option lists as ``anyOf`` of ``{type, const, title}`` where the tests expect
``oneOf`` of ``{const, title}``. This module checks a seeded sample of each kind.
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
from tests.support.callgen import BOOLEAN_ODD
from tests.support.parity import (
    PARSERS,
    answer_differences,
    call_differences,
    calls_may_share_a_load,
    calls_the_oracle_sees,
    prepared_as_recorded,
)
from tests.test_html_profile_browser import _samples, fill_and_check, validity_differences

pytestmark = pytest.mark.browser

SEED = 13
DATA = json.loads((Path(__file__).parent / "data" / "chromium-webmcp-tests.json").read_text("utf-8"))
PAGES: list[dict[str, Any]] = DATA["pages"]
#: the tests' scripts are cut out; nothing else on their pages may run or reach out either
SERVED = (("Content-Security-Policy", "default-src 'self'"),)
TOOL_PAGES = 24  # a seeded sample of the pages, their tools on both parse paths
VARIANTS = 10  # seeded variants of the pages: attributes and controls added
TEST_CALLS = 20  # a sample of the calls the tests make (and every noted one), toolautosubmit inserted
WAITING_CALLS = 6  # the same, on the form as written (most have no toolautosubmit)
SEEDED_CALLS = 6  # calls drawn from the schemas, toolautosubmit inserted
HTML_PAGES = 16  # pages whose html-profile verdicts are compared with checkValidity()
_FORM = re.compile(r"<form(?=[\t\n\f\r />])", re.I)
_TOOLNAME = re.compile(r"toolname='([^']*)'")
#: what a test's input is refused for when Chromium will not fill the form with it (other
#: refusals, "Form validation failed", come after the form was filled)
_FILL_REFUSALS = ("Invalid value", "Input contains a parameter", "JSON input arguments")


def _label(entry: dict[str, Any]) -> str:
    test = f"#{entry['test']}" if "test" in entry else ""
    return f"{entry['path'].rsplit('/', 1)[1]}@{entry['commit'][:8]}{test}"


def _tool_name(text: str) -> str:
    return formtools.extract(formtools.parse_html(text)).tools[0].name


# attributes Chromium's tests put on controls and forms, and controls they add: the variants
# recombine them on the tests' own markup
_CONTROL = re.compile(r"<(input|select|textarea|button|option|label)(?=[\t\n\f\r />])", re.I)
_ON_CONTROLS = (
    " required", " disabled", " readonly", ' toolparamtitle="T"', ' toolparamdescription="D"',
    ' aria-description="A"', ' toolparamdescription=""', ' value="7"', ' min="5"', ' step="any"',
    ' form="nope"', " type=hidden", " type=checkbox", " type=radio", " type=submit", " multiple",
    " size=3", " checked", ' name="dup"', ' name=""', ' pattern="[a-z]+"', ' id="text"', " formnovalidate",
)  # fmt: skip
_ON_FORMS = (' tooltitle="TT"', " toolautosubmit", " novalidate", " method=post", ' tooldescription=""', ' toolname=""')
_ADDED = (
    '<fieldset disabled><input name=fd></fieldset>', '<label for="text">Extra label</label>',
    "<button>Go</button>", "<input type=radio name=size value=q>", "<input type=checkbox name=fruit value=kiwi>",
    "<input name=text1 type=text>", "<output name=o>1</output>",
)  # fmt: skip


def _variant(text: str, rng: random.Random) -> str:
    """``text`` with one to four of the tests' attributes or controls put in at seeded places."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.6 and (controls := list(_CONTROL.finditer(text))):
            end = rng.choice(controls).end()
            text = text[:end] + rng.choice(_ON_CONTROLS) + text[end:]
        elif kind < 0.85 and (forms := list(_FORM.finditer(text))):
            end = rng.choice(forms).end()
            text = text[:end] + rng.choice(_ON_FORMS) + text[end:]
        elif (close := text.find("</form>")) >= 0:
            text = text[:close] + rng.choice(_ADDED) + text[close:]
    return text


@pytest.fixture(scope="module")
def live(chromium: ChromiumOracle) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """A seeded sample of the pages with Chromium's tools for each (two navigations agreeing)."""
    answers = []
    for entry in random.Random(SEED).sample(PAGES, TOOL_PAGES):
        answer = chromium.stable_tools(entry["text"], headers=SERVED)
        assert answer.stable, _label(entry)
        answers.append((entry, answer.tools))
    return answers


def test_the_corpus_is_cited_and_scriptless() -> None:
    assert len(PAGES) >= 101
    for entry in PAGES:
        assert entry["repo"] == "chromium/chromium" and re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry
        assert "<script" not in entry["text"].lower(), _label(entry)


def test_tools_are_chromiums(live: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    found: list[str] = []
    for entry, tools in live:
        found += answer_differences(tools, entry["text"], _label(entry))
    assert not found, "\n".join(found)


def test_variants_tools_are_chromiums(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED)
    found: list[str] = []
    for number in range(VARIANTS):
        entry = rng.choice(PAGES)
        text = _variant(entry["text"], rng)
        answer = chromium.stable_tools(text, headers=SERVED)
        if answer.stable:  # an unstable registration is Chromium's race, not formtools' bug
            found += [f"{diff}\n{text}" for diff in answer_differences(answer.tools, text, f"{_label(entry)} variant {number}")]
    assert not found, "\n".join(found)


def _test_calls() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(entry, call) for entry in PAGES for call in entry.get("calls", [])]


@pytest.mark.spec_step("exec-fill-5.4")
def test_the_tests_calls_are_chromiums(chromium: ChromiumOracle) -> None:
    """Each input a test gives ``executeTool`` or ``FillFormControls``: Chromium's request or
    refusal, byte for byte, on both parse paths (with ``toolautosubmit`` inserted, so what the
    form would send is seen); and whether Chromium fills the form (and then refuses the call,
    where the test says so) is what the test expects,
    except where the data says Chromium 156 does otherwise (each such call is made, so that the
    note stays true)."""
    noted = [(entry, call) for entry, call in _test_calls() if "chromium_156" in call]
    others = [(entry, call) for entry, call in _test_calls() if "chromium_156" not in call]
    found = []
    for number, (entry, call) in enumerate(noted + random.Random(SEED).sample(others, TEST_CALLS)):
        page, path = _FORM.sub("<form toolautosubmit", entry["text"]), f"/chromium-tests/sent-{number}.html"
        name, value = _tool_name(page), call["input"]
        where = f"{_label(entry)} {dumps(value)}"
        # nothing of where the call lands is read: a form submitting to its own page (12 of
        # the 24) does not load it a second time
        answer = chromium.execute(page, name, value, path=path, headers=SERVED, landing=False)
        theirs = outcome_of(answer)
        theirs.pop("result", None)
        for parser in PARSERS:
            ours = prepared_as_recorded(page, chromium.site.origin + path, value, parser, name)
            if ours != theirs:
                found.append(f"{where} ({parser}): Chromium {theirs} formtools {ours}")
        filled = not str(theirs.get("error", "")).startswith(_FILL_REFUSALS)
        if (filled == call["fills"]) == ("chromium_156" in call):
            found.append(f"{where}: the test expects fills={call['fills']}, Chromium 156 {theirs}; data: {call.get('chromium_156')}")
        if call.get("refused") and "error" not in theirs:
            found.append(f"{where}: the test expects the call refused, Chromium 156 {theirs}")
    assert not found, "\n".join(found)


def _as_written(
    chromium: ChromiumOracle, entry: dict[str, Any], path: str, name: str, value: Any
) -> tuple[dict[str, Any], list[str]]:
    """Chromium's outcome of a call of the form as written, and a line per parse path where
    formtools' differs (a prepared request matches Chromium waiting for the person)."""
    answer = chromium.execute(entry["text"], name, value, path=path, headers=SERVED, wait_for_user=0.3)
    theirs = outcome_of(answer)
    theirs.pop("result", None)
    found = []
    for parser in PARSERS:
        try:
            ours = prepared_as_recorded(entry["text"], chromium.site.origin + path, value, parser, name)
        except formtools.NoSubmitButton as error:
            ours = {"error": str(error)}
        if ours != theirs and not (theirs == {"waiting_for_user": True} and "request" in ours):
            found.append(f"{_label(entry)} {dumps(value)} ({parser}): Chromium {theirs} formtools {ours}")
    return theirs, found


@pytest.mark.spec_step("exec-submit-4", "exec-hitl-2")
def test_the_tests_calls_on_the_forms_as_written(chromium: ChromiumOracle) -> None:
    """Most of the tests' forms have no ``toolautosubmit`` and no submit button: Chromium
    refuses the call, waits for the person, or refuses the input first; formtools the same."""
    found = []
    for number, (entry, call) in enumerate(random.Random(SEED + 1).sample(_test_calls(), WAITING_CALLS)):
        path = f"/chromium-tests/{number}.html"
        found += _as_written(chromium, entry, path, _tool_name(entry["text"]), call["input"])[1]
    assert not found, "\n".join(found)


@pytest.mark.spec_step("exec-fill-5.4")
def test_odd_booleans_are_chromiums(chromium: ChromiumOracle) -> None:
    """model_context_test.cc's FlexibleTypes gives a checkbox ``1`` and ``"false"``: every odd
    value callgen has for a boolean, on a seeded one of the corpus' checkboxes. This found that
    a whole number beyond 32 bits (``2147483648``) was taken as ``true`` by formtools, where
    Chromium, whose JSON reader makes a double of it, refuses it as it refuses ``1.5``."""
    rng = random.Random(SEED)
    checkboxes = []
    for number, entry in enumerate(PAGES):
        page = _FORM.sub("<form toolautosubmit", entry["text"])
        for tool in formtools.extract(formtools.parse_html(page)).tools:
            properties = tool.to_dict()["inputSchema"]["properties"]
            checkboxes += [(number, page, tool.name, key) for key, schema in properties.items() if schema["type"] == "boolean"]
    number, page, name, key = rng.choice(checkboxes)
    found = []
    path, again = f"/chromium-tests/boolean-{number}.html", calls_may_share_a_load(page)  # (one load for every value)
    for value in BOOLEAN_ODD:
        found += [
            f"{PAGES[number]['path']} {key}={dumps(value)} {d}"
            for d in call_differences(chromium, page, {key: value}, path, name, headers=SERVED, again=again)
        ]
    assert not found, "\n".join(found)


def test_seeded_calls_are_chromiums(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED)
    cases = []
    for number, entry in enumerate(PAGES):
        page, path = _FORM.sub("<form toolautosubmit", entry["text"]), f"/chromium-tests/seeded-{number}.html"
        document = formtools.parse_html(page, url=chromium.site.origin + path)
        cases += [(entry, page, path, name, value) for name, value in calls_the_oracle_sees(document, rng, chromium.site.origin)]
    found = []
    for entry, page, path, name, value in rng.sample(cases, SEEDED_CALLS):
        found += [f"{_label(entry)} {dumps(value)} {d}" for d in call_differences(chromium, page, value, path, name, headers=SERVED)]
    assert not found, "\n".join(found)


@pytest.mark.spec_step("exec-validate-2")
def test_html_profile_is_check_validity(chromium: ChromiumOracle) -> None:
    found, samples = [], 0
    for number, entry in enumerate(random.Random(SEED).sample(PAGES, HTML_PAGES)):
        document = formtools.parse_html(entry["text"])
        extraction = formtools.synthesize(document, "html")
        chromium_tools = {tool.name: tool for tool in formtools.synthesize(document, "chromium").tools}
        chromium.page.goto(chromium.site.put(f"/chromium-tests/html-{number}", entry["text"].encode(), "text/html", SERVED))
        for tool in extraction.tools:
            cases = _samples(tool, chromium_tools[tool.name], random.Random(f"{_label(entry)}/{tool.name}"))
            answers = fill_and_check(chromium, extraction, tool, cases)
            assert answers is not None, _label(entry)
            for sample, valid in zip(cases, answers, strict=True):
                samples += 1
                found += validity_differences(f"{_label(entry)} {dumps(sample)}", tool, sample, valid)[1]
    assert samples >= 300
    assert not found, "\n".join(found[:20])


def test_lint_errors_are_true_of_chromium(
    chromium: ChromiumOracle, live: list[tuple[dict[str, Any], list[dict[str, Any]]]]
) -> None:
    """Each lint error on a sampled page is checked against the live browser: a dropped
    parameter is absent from Chromium's schema, a form that is no tool is not registered, and a
    registered form without a submit button is refused by Chromium as by formtools."""
    found, checked = [], 0
    for number, (entry, tools) in enumerate(live):
        extraction = formtools.extract(formtools.parse_html(entry["text"]))
        live_names = {tool["name"] for tool in tools}
        schemas = {tool["name"]: tool["inputSchema"] for tool in tools}
        for diagnostic in extraction.errors:
            checked += 1
            named = _TOOLNAME.search(diagnostic.form)
            toolname = named.group(1) if named else None
            where = f"{_label(entry)}: {diagnostic}"
            if diagnostic.code in ("duplicate-name", "mixed-types", "shares-name-with-button"):
                if toolname not in live_names or diagnostic.field in schemas[toolname]["properties"]:
                    found.append(where)
            elif diagnostic.code in ("missing-toolname", "missing-tooldescription", "invalid-toolname"):
                if len(live_names) != len(extraction.tools):
                    found.append(where)
            elif diagnostic.code == "no-submit-button" and toolname not in live_names:
                # lint lists every reason at once: the form's registration error is checked,
                # and its missing button is a fact of the markup once it registers
                continue
            elif diagnostic.code == "no-submit-button":
                theirs, differences = _as_written(chromium, entry, f"/chromium-tests/lint-{number}.html", str(toolname), {})
                found += differences
                if "error" not in theirs:
                    found.append(f"{where}: Chromium {theirs}")
            else:
                found.append(f"{where}: an error this test does not know how to check")
    assert checked >= 10
    assert not found, "\n".join(found)
