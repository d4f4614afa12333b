"""web-platform-tests' own value tables, held out, against formtools and the live Chromium.

``tests/data/wpt-value-tables.json`` holds wpt's constraint-validation tables
(``form-validation-validity-*.html``: conditions and a value per input type, textarea) and its
value-sanitization tables (``the-input-element/{number,color,week,time-2,datetime-local}.html``),
extracted from the tests' scripts by ``scripts/extract_wpt_value_tables.py``. No generator of
formtools made them. Every case becomes two forms of one page, one control each:

- *default*: the value is the control's ``value`` attribute (a textarea's text) and the call
  gives nothing: ``validate_input(tool, {})`` under ``html`` finds no problem iff Chromium's
  ``checkValidity()`` is true on the loaded page, and the entry list formtools submits is the
  one Chromium builds (``new FormData(form)``: the value as sanitized);
- *fill*: the control has no value and the call gives it, as ``executeTool`` fills it (by
  script): ``validate_input`` under ``html`` accepts iff Chromium keeps the value and
  ``checkValidity()`` is true, and an accepted value is the one submitted.

A value a JSON input cannot spell for a number field (``"1e2"``, ``"-0"``, ``" 1"``) has no
*fill* form; checkboxes, radios and file inputs have only the *default* one; the tables of
``select`` (their options are in the test's markup, not in the table) and ``customError`` (a
script's message) are not used.

wpt's expectations are never the authority: Chromium is asked. Run as wpt's own harness sets the
conditions, Chromium 156 departs from wpt (2021) in 18 rows, each where the HTML Standard
changed or wpt was wrong, so Chromium and the Standard agree and these tests follow both:
a pattern that is no ``v``-flag expression (``\\u1234\\cx[5-[]{2}``) is ignored, no mismatch (7 rows);
a color is any CSS color, serialized (``crimson`` is ``#dc143c``, ``#fff`` and `` #ffffff`` are
``#ffffff``; 9 rows); a datetime-local is not clamped to ``min``/``max`` (2 rows).
``test_chromium_profile_calls_match_execute_tool_on_wpt_tables`` calls a seeded draw of
:data:`CALLS` of the cases (``FORMTOOLS_WPT_VALUE_CALLS``; all 1,200 agreed once the numbers
JSON cannot spell were fixed, in 5 minutes).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._execute.fill import js_to_string
from tests.test_browser_heldout_calls import _differences
from tests.support.parity import call_differences, calls_may_share_a_load
from tests.test_html_profile_browser import validity_differences

pytestmark = pytest.mark.browser

TABLES = json.loads((Path(__file__).parent / "data" / "wpt-value-tables.json").read_text(encoding="utf-8"))
_NOT_ATTRIBUTES = ("value", "message", "files", "checked", "name")

# For each [toolname, value or null]: reset the form, fill its one control by script when a value
# is given, and answer [kept and checkValidity(), FormData entries].
_ASK = """
(questions) => questions.map(([toolname, value]) => {
  const form = [...document.forms].find((f) => f.getAttribute("toolname") === toolname);
  HTMLFormElement.prototype.reset.call(form);
  let kept = true;
  if (value !== null) {
    const control = form.elements[0];
    control.value = value;
    kept = control.value === value;
  }
  const entries = [...new FormData(form)].map(([name, v]) => [name, v instanceof File ? v.name : v]);
  return [kept && form.checkValidity(), entries];
})
"""


def _cases() -> list[dict[str, Any]]:
    """Every usable case as {where, tag, type, attributes, value, checked, name}."""
    cases = []
    for row in TABLES["validity"]:
        conditions = row["conditions"]
        if row["tag"] not in ("input", "textarea") or "message" in conditions:
            continue
        cases.append({
            "where": f"{row['source']} [{row['flag']}] {row['name']} {conditions}",
            "tag": row["tag"], "type": row["type"],
            "attributes": {k: v for k, v in conditions.items() if k not in _NOT_ATTRIBUTES},
            "value": conditions.get("value"), "checked": conditions.get("checked"),
            "name": conditions.get("name", "f"),
        })  # fmt: skip
    for row in TABLES["sanitization"]:
        cases.append({
            "where": f"{row['source']} {row['name']}", "tag": "input", "type": row["type"],
            "attributes": row.get("attributes", {}), "value": row.get("value"), "checked": None, "name": "f",
        })  # fmt: skip
    return cases


def _attribute_text(attributes: dict[str, Any]) -> str:
    """The IDL attributes wpt sets, as markup: true booleans present, false ones absent."""
    parts = []
    for name, value in attributes.items():
        if value is True:
            parts.append(f" {name.lower()}")
        elif value is not False and value is not None:
            text = value if isinstance(value, str) else js_to_string(value)
            parts.append(f' {name.lower()}="{escape(text)}"')
    return "".join(parts)


def _control(case: dict[str, Any], with_value: bool) -> str:
    attributes = _attribute_text(case["attributes"]) + f' name="{escape(case["name"])}"'
    value = case["value"] if with_value and case["value"] is not None else None
    if case["tag"] == "textarea":
        return f"<textarea{attributes}>{escape(js_to_string(value)) if value is not None else ''}</textarea>"
    if value is not None:
        attributes += f' value="{escape(js_to_string(value))}"'
    if case["checked"]:
        attributes += " checked"
    return f'<input type="{case["type"]}"{attributes}>'


def _fill_value(case: dict[str, Any], schema: dict[str, Any]) -> Any:
    """The JSON value a call gives for wpt's value, or None when it has no such spelling: a
    number field takes a number whose JavaScript string is wpt's text exactly."""
    value = case["value"]
    text = value if isinstance(value, str) else js_to_string(value)
    if schema.get("type") == "string":
        return text
    try:
        number = float(text)
    except ValueError:
        return None
    return number if text and js_to_string(number) == text else None


def _form(toolname: str, control: str) -> str:
    return f'<form toolname="{toolname}" tooldescription="d" action="/sink">{control}<button>Go</button></form>'


def _entries(tool: formtools.Tool, sample: dict[str, Any]) -> list[tuple[str, str]] | None:
    """The name-value pairs formtools submits for ``sample`` (None when it refuses the input)."""
    try:
        request = formtools.prepare_call(tool, sample).request
    except (formtools.InputError, formtools.ValidationError):
        return None
    assert request is not None
    return parse_qsl(urlsplit(request.url).query, keep_blank_values=True)


def _newlines_as_lf(entries: list[Any]) -> list[tuple[str, str]]:
    """FormData keeps a textarea's LF; the submission makes it CRLF, as formtools' query shows."""
    return [(name, value.replace("\r\n", "\n")) for name, value in entries]


def _disagreements(chromium: ChromiumOracle, counts: Counter[str]) -> list[str]:
    cases = _cases()
    forms, plans = [], []
    for number, case in enumerate(cases):
        forms.append(_form(f"d{number}", _control(case, with_value=True)))
        forms.append(_form(f"f{number}", _control(case, with_value=False)))
    page = "<!doctype html><meta charset=utf-8>" + "".join(forms)
    url = chromium.site.put("/wpt-values", page.encode("utf-8"), "text/html; charset=utf-8")
    tools = {tool.name: tool for tool in formtools.synthesize(formtools.parse_html(page, url=url), "html").tools}
    questions: list[list[Any]] = []
    for number, case in enumerate(cases):
        plans.append((case, f"d{number}", {}))
        questions.append([f"d{number}", None])
        properties = tools[f"f{number}"].to_dict()["inputSchema"]["properties"]
        schema = properties.get(case["name"])
        fill = None if schema is None or case["value"] is None or case["type"] in ("checkbox", "radio", "file") \
            else _fill_value(case, schema)  # fmt: skip
        if fill is None:
            counts["fill: not expressible as a call's value"] += 1
            continue
        plans.append((case, f"f{number}", {case["name"]: fill}))
        questions.append([f"f{number}", js_to_string(fill)])
    chromium.page.goto(url)
    answers = chromium.page.evaluate(_ASK, questions)
    found = []
    for (case, toolname, sample), (browser_valid, browser_entries) in zip(plans, answers, strict=True):
        where = f"{case['where']}\n    {_control(case, toolname.startswith('d'))} {sample}"
        counts["samples"] += 1
        problems, differences = validity_differences(where, tools[toolname], sample, browser_valid)
        found += differences
        counts["browser valid" if browser_valid else "browser invalid"] += 1
        ours = _entries(tools[toolname], sample)
        if ours is not None and browser_valid and _newlines_as_lf(ours) != _newlines_as_lf(browser_entries):
            found.append(f"{where}: Chromium submits {browser_entries}, formtools {ours}")
        counts["entries compared"] += ours is not None and browser_valid
    return found


@pytest.mark.spec_step("exec-validate-2", "exec-request-5")
def test_html_profile_and_entries_agree_on_wpt_tables(chromium: ChromiumOracle) -> None:
    counts: Counter[str] = Counter()
    found = _disagreements(chromium, counts)
    print("\nwpt value tables:", dict(counts))
    assert counts["samples"] >= 900 and counts["browser valid"] >= 300
    assert not found, f"{len(found)} disagreement(s):\n" + "\n".join(found[:30])


CALLS = int(os.environ.get("FORMTOOLS_WPT_VALUE_CALLS", "40"))


def _call_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """Each case as a one-form page for ``executeTool``: (label, page, input), the *default*
    form called with nothing and the *fill* form with wpt's value, typed as the ``chromium``
    schema asks (a number field's value as a number)."""
    calls = []
    for case in _cases():
        for with_value in (True, False):
            page = (
                "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d toolautosubmit action=/sink>"
                f"{_control(case, with_value)}<button>Go</button></form>"
            )
            if with_value:
                calls.append((f"{case['where']} (default)", page, {}))
                continue
            tool = formtools.extract(formtools.parse_html(page)).tool("t")
            schema = tool.to_dict()["inputSchema"]["properties"].get(case["name"])
            if schema is None or case["value"] is None or case["type"] in ("checkbox", "radio", "file"):
                continue
            fill = _fill_value(case, schema)
            if fill is not None:
                calls.append((f"{case['where']} (fill)", page, {case["name"]: fill}))
    return calls


@pytest.mark.spec_step("exec-fill-4")
def test_chromium_profile_calls_match_execute_tool_on_wpt_tables(chromium: ChromiumOracle) -> None:
    calls = _call_cases()
    drawn = random.Random(16).sample(calls, min(CALLS, len(calls)))
    differences = _differences(chromium, drawn)
    assert not differences, f"{len(differences)} of {2 * len(drawn)}:\n" + "\n".join(differences[:20])


# Numbers JSON cannot spell (number.html's Infinity and NaN rows, as a call's value, found it)
_BEYOND_JSON: tuple[Any, ...] = (float("nan"), float("inf"), float("-inf"), 10**400, -(10**400))
_ANY_CONTROL = (
    "<input name=f>", "<input type=number name=f>", "<input type=range name=f>", "<input type=hidden name=f>",
    "<input type=date name=f>", "<input type=color name=f>", "<textarea name=f></textarea>",
    "<input type=checkbox name=f>", "<input type=radio name=f value=1>",
    "<select name=f><option>1</option></select>", "<select name=f multiple><option>1</option></select>",
)  # fmt: skip


@pytest.mark.spec_step("exec-fill-1")
def test_numbers_json_cannot_spell_are_refused_as_null(chromium: ChromiumOracle) -> None:
    """``executeTool`` sends its input through ``JSON.stringify`` and back, so NaN, ±Infinity
    and whole numbers beyond the doubles arrive as null and are refused as null is; formtools
    filled a text field with "Infinity" and a range with its default, and sent them. Two seeded
    draws of those numbers for every kind of control (an array of one for a multi-select). One
    page, a form per control (tool ``t<n>``), every call made in its one load (``again``)."""
    rng = random.Random(16)
    page = "<!doctype html><meta charset=utf-8>" + "".join(
        f"<form toolname=t{number} tooldescription=d toolautosubmit action=/sink>{control}<input name=other><button>Go</button></form>"
        for number, control in enumerate(_ANY_CONTROL)
    )
    again = calls_may_share_a_load(page)
    assert again
    differences, cases = [], 0
    for number, control in enumerate(_ANY_CONTROL):
        for value in rng.sample(_BEYOND_JSON, 2):
            shown = "±10**400" if isinstance(value, int) else repr(value)
            tool_input = {"f": [value] if "multiple" in control else value}
            cases += 1
            differences += [
                f"{control} {shown} {d}"
                for d in call_differences(chromium, page, tool_input, "/heldout/beyond-json.html", f"t{number}", again=again)
            ]
    assert cases == 2 * len(_ANY_CONTROL)
    assert not differences, f"{len(differences)} of {2 * cases}:\n" + "\n".join(differences[:20])
