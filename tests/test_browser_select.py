"""Select soups against the live Chromium 156, on both parse paths.

Chromium 156 parses a select as the customizable select does (whatwg/html#10548): there is no
"in select" insertion mode any more, a select's contents are parsed "in body", a select bounds
"has an element in scope", and only ``<select>``, ``<input>``, ``<option>``, ``<optgroup>`` and
``<hr>`` (and ``</select>``) read an open select. html5lib 1.1 has the old modes, which dropped
every other tag in a select: a ``<button>`` in one was no control, ``<p><select><div>`` closed
the p and the select, ``<form><select></form><input>`` closed the form. And the list of options
is now the select's option descendants (not in an option, datalist, select, template or nested
optgroup), whose list items, the ones executeTool picks a multi-select's options by, count the
``<hr>`` separators too.

A seeded generator (``tests/support/selectgen.py``) writes select soups, and this compares each page's tools (both parse paths, with a stable answer; a page
whose registration is racy is counted apart, not as a difference) and seeded calls with
Chromium's: executeTool's request or refusal for callgen's inputs and for each option of the
select alone (which list item it lands on). A button that is the first element child of a
drop-down select is its select button, which Chromium never takes for a submit button.
``tests/test_fast_path.py`` holds the fast path to the exact one on the same soups.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from formtools._conformance.browser import ChromiumOracle
from support.callgen import calls_for
from support.parity import answer_differences, call_differences, calls_may_share_a_load, one_load_suffices
from support.selectgen import SCRIPT, option_list_soup, select_soup

pytestmark = pytest.mark.browser

SEED = 20261128
PAGES = 40


def _pages() -> list[str]:
    rng = random.Random(SEED)
    return [select_soup(rng) for _ in range(PAGES)]


def _inputs(tool: dict[str, Any], rng: random.Random) -> list[Any]:
    """callgen's first two and a random one, and each of the select's first options alone."""
    drawn = calls_for(tool, rng, randoms=1)
    inputs = drawn[:2] + drawn[-1:]
    schema = tool["inputSchema"]["properties"].get("s", {})
    many = schema.get("type") == "array"
    values = (schema.get("items", {}) if many else schema).get("enum", [])
    inputs += [{"s": [value] if many else value} for value in values[:3]]
    return inputs


def test_select_soups_match_chromium(chromium: ChromiumOracle) -> None:
    rng = random.Random(SEED + 1)
    differences, unstable, calls = [], 0, 0
    for number, html in enumerate(_pages()):
        scriptless = html.replace(SCRIPT, "")
        path = f"/select/{number}.html"
        answer = chromium.stable_tools(html, reload=not one_load_suffices(scriptless), path=path)
        if not answer.stable:
            unstable += 1
            continue
        differences += answer_differences(answer.tools, html, html)
        again = calls_may_share_a_load(scriptless)  # (the calls in the document read above)
        for tool in answer.tools:
            for tool_input in _inputs(tool, rng):
                calls += 1
                differences += [
                    f"{html} {tool_input}: {line}"
                    for line in call_differences(chromium, html, tool_input, path, again=again)
                ]
    assert unstable <= PAGES // 10, f"{unstable} of {PAGES} pages registered their tools unstably"
    assert calls > PAGES, calls
    assert not differences, f"{len(differences)} differences:\n" + "\n".join(differences[:10])


def test_option_lists_match_chromium(chromium: ChromiumOracle) -> None:
    """The list of options and the list items: options in divs and spans, hrs, optgroups
    disabled or nested, datalists, templates, an option in an option; each option of a
    multi-select alone lands on its place among the items, the one executeTool selects."""
    rng = random.Random(SEED + 2)
    differences, calls, unstable = [], 0, 0
    for number in range(12):
        html = option_list_soup(rng)
        path = f"/options/{number}.html"
        answer = chromium.stable_tools(html, reload=not one_load_suffices(html), path=path)
        if not answer.stable:  # (Chromium's registration is racy now and then: not ours to judge)
            unstable += 1
            continue
        differences += answer_differences(answer.tools, html, html)
        schema = answer.tools[0]["inputSchema"]["properties"]["s"]
        many = schema.get("type") == "array"
        again = calls_may_share_a_load(html)  # (the calls in the document read above)
        for value in (schema.get("items", {}) if many else schema).get("enum", [])[:6]:
            calls += 1
            tool_input = {"s": [value] if many else value}
            differences += [
                f"{html} {tool_input}: {line}"
                for line in call_differences(chromium, html, tool_input, path, again=again)
            ]
    assert unstable <= 2 and calls > 20, (unstable, calls)
    assert not differences, f"{len(differences)} differences:\n" + "\n".join(differences[:10])
