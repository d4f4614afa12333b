"""Random values and validity against live Chromium, beyond the fixed tables.

The recorded tables (``value-rules.json``, the recorded calls) and the fixture pages hold the
cases somebody wrote down. These tests draw forms and inputs from a seeded generator
(``tests/support/valuegen.py``: odd attribute syntax, odd JSON values, choices with optgroups,
disabled and duplicate options) and ask the browser each time:

- the ``html`` profile's verdict (``validate_input``) is Chromium's ``checkValidity()`` after
  filling by script, ``validate`` ⇔ ``call``, and every input the ``html`` profile accepts
  passes the ``portable`` schema (never stricter, docs/guide/profiles.md);
- a ``chromium``-profile call refuses, or sends byte for byte, what ``executeTool`` does, on both
  parse paths. This found that Chromium 156 selects a multi-select's options by their position
  among the select's list items, so an optgroup shifts the selection.

``FORMTOOLS_VALUEGEN_SEED`` changes the draw (default 9); a failure names the page, its markup
and the input.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import jsonschema
import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._spec.jsjson import dumps
from tests.support.parity import call_differences, calls_may_share_a_load, each_page_together
from tests.support.valuegen import choice_pages, value_pages
from tests.test_html_profile_browser import _typed, fill_and_check, submits, validity_differences

pytestmark = pytest.mark.browser

SEED = int(os.environ.get("FORMTOOLS_VALUEGEN_SEED", "9"))
VALUE_PAGES = 8  # six forms each: about 1,000 samples
CHOICE_PAGES = 14  # one select each, about five inputs: about 70 calls on two parse paths


def _html_disagreements(chromium: ChromiumOracle, counts: Counter[str]) -> list[str]:
    found = []
    for name, page, forms in value_pages(VALUE_PAGES, SEED):
        document = formtools.parse_html(page)
        extraction = formtools.synthesize(document, "html")
        tools = {tool.name: tool for tool in extraction.tools}
        portable = {tool.name: tool for tool in formtools.synthesize(document, "portable").tools}
        chromium.page.goto(chromium.site.put(f"/values/{name}", page.encode(), "text/html"))
        for form in forms:
            tool = tools.get(form.tool)
            if tool is None:
                continue
            where = f"{name} {form.markup}\n   "
            properties = tool.to_dict()["inputSchema"].get("properties", {})
            samples = []
            for case in form.cases:
                if all(k in properties and _typed(v, properties[k]) for k, v in case.items()):
                    samples.append(case)
                elif not formtools.validate_input(tool, case) or submits(tool, case):
                    found.append(f"{where}{dumps(case)}: of the wrong kind, accepted")
            answers = fill_and_check(chromium, extraction, tool, samples)
            assert answers is not None, where
            portable_schema = jsonschema.Draft202012Validator(portable[tool.name].to_dict()["inputSchema"])
            for sample, browser_valid in zip(samples, answers, strict=True):
                counts["samples"] += 1
                problems, differences = validity_differences(f"{where}{dumps(sample)}", tool, sample, browser_valid)
                found += differences
                if not problems:
                    counts["valid"] += 1
                    if not portable_schema.is_valid(sample):
                        found.append(f"{where}{dumps(sample)}: html accepts, portable rejects")
    return found


@pytest.mark.spec_step("exec-validate-2")
def test_html_profile_agrees_on_random_values(chromium: ChromiumOracle) -> None:
    counts: Counter[str] = Counter()
    found = _html_disagreements(chromium, counts)
    print(f"\nrandom values (seed {SEED}):", dict(counts))
    assert counts["samples"] >= 800 and counts["valid"] >= 150
    assert not found, f"{len(found)} disagreement(s):\n" + "\n".join(found[:20])


@pytest.mark.spec_step("exec-fill-5.4")
def test_choice_calls_match_execute_tool(chromium: ChromiumOracle) -> None:
    cases: list[tuple[str, str, dict[str, Any]]] = []
    for name, page, forms in choice_pages(CHOICE_PAGES, SEED):
        seen: set[str] = set()
        for case in forms[0].cases:
            if dumps(case) not in seen:
                seen.add(dumps(case))
                cases.append((f"{name} {forms[0].markup} {dumps(case)}", page, case))
    random.Random(SEED).shuffle(cases)
    assert len(cases) >= 50
    # each page's calls at one path of its own (the forms submit to /submit)
    number = {page: number for number, page in enumerate(dict.fromkeys(page for _, page, _ in cases))}
    differences = [
        f"{name} {difference}"
        for name, page, case in each_page_together(cases, lambda case: case[1])
        for difference in call_differences(
            chromium, page, case, f"/choices/{number[page]}.html", again=calls_may_share_a_load(page)
        )
    ]
    assert not differences, f"{len(differences)} of {2 * len(cases)}:\n" + "\n".join(differences[:20])


def test_whole_numbers_print_as_json_stringify_does(chromium: ChromiumOracle) -> None:
    """``formtools.dumps`` writes a JSON number as ``JSON.stringify(JSON.parse(text))`` does. A
    whole number beyond the doubles (an agent's ``1`` and 400 zeros is a Python ``int``) raised
    OverflowError; JavaScript reads it as ±Infinity and writes ``null``. Seeded whole numbers of
    every length up to 420 digits, both signs, and the edges of the doubles, against Chromium."""
    rng = random.Random(SEED)
    numbers = [rng.randrange(10 ** (digits - 1), 10**digits) * rng.choice((1, -1)) for digits in range(1, 421)]
    numbers += [2**53, 2**53 + 1, 2**1024 - 2**970, 2**1024 - 2**970 - 1, 2**1024, -(2**1024)]
    texts = [str(number) for number in numbers]
    theirs = chromium.page.evaluate("texts => texts.map(t => JSON.stringify(JSON.parse(t)))", texts)
    found = [f"{text[:30]}… ({len(text)} characters): Chromium {expected}" for text, number, expected
             in zip(texts, numbers, theirs, strict=True) if formtools.dumps(number) != expected]
    assert not found, "\n".join(found[:10])


def test_numbers_fill_as_execute_tool_writes_them(chromium: ChromiumOracle) -> None:
    """A JSON number given for a text field is written as ``executeTool`` writes it (32-bit
    integers in full, else ``toPrecision(6)``), also under a calling program's own
    ``decimal`` context, which the fill's rounding used (``prec = 10`` sent 0.1234565 as
    0.123457). Seeded doubles of every magnitude: halfway between two six-digit answers and
    the doubles on either side, random ones, and the edges (32 bits, -0, the smallest and
    largest doubles), in one call of one form."""
    import decimal
    import math

    from scripts.record_chromium_calls import outcome_of
    from tests.support.parity import prepared_as_recorded

    rng = random.Random(SEED)
    numbers: list[float] = [2**31 - 1, 2**31, -(2**31), -(2**31) - 1, -0.0, 5e-324, 1.7976931348623157e308, 1e21, 1e-7]
    for _ in range(60):
        exponent = rng.randrange(-12, 25)
        halfway = (rng.randrange(10**5, 10**6) * 10 + 5) * 10.0 ** (exponent - 6)
        number = rng.choice(
            (math.nextafter(halfway, 0), halfway, math.nextafter(halfway, math.inf), rng.uniform(0, 10**exponent))
        )
        numbers.append(number * rng.choice((1, -1)))
    tool_input = {f"f{i}": number for i, number in enumerate(numbers)}
    page = '<form toolname="t" tooldescription="d" toolautosubmit action="/submit">'
    page += "".join(f'<input name="{key}">' for key in tool_input) + "</form>"
    theirs = outcome_of(chromium.execute(page, "t", tool_input, path="/numbers.html", landing=False))
    theirs.pop("result", None)
    url = chromium.site.origin + "/numbers.html"
    assert prepared_as_recorded(page, url, tool_input, "auto") == theirs
    with decimal.localcontext(prec=10):
        assert prepared_as_recorded(page, url, tool_input, "auto") == theirs
