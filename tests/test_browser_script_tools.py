"""Script tools and ordinary markup, against the real Chromium 156.

A page can register tools from a script (``document.modelContext.registerTool`` — Chromium 156
has no ``navigator.modelContext``) next to its declarative forms, and such a tool may have no
``inputSchema``. ``formtools diff`` crashed on it with ``KeyError: 'inputSchema'``; formtools runs
no scripts, so it lists such tools ("script tool, not compared") and compares the forms' tools.

The ordinary-markup generator (:mod:`tests.support.markupgen`) backs lint's no-false-error
property; here its pages are checked to be what it says: every tool form registers in Chromium,
with the schema formtools gives.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import formtools
from formtools._conformance.diff import browser_diff, unified_diff
from tests.support.markupgen import ordinary_pages
from tests.support.parity import one_load_suffices

pytestmark = pytest.mark.browser

SCRIPTED = """<!doctype html>
<title>Scripted</title>
<form toolname="search" tooldescription="Search the shop">
  <label>Query <input name="q" required></label>
  <button>Search</button>
</form>
<script>
  document.modelContext.registerTool({
    name: "cart_count", description: "How many items are in the cart", execute: async () => "3",
  });
  document.modelContext.registerTool({
    name: "add_note", description: "Add a note",
    inputSchema: {type: "object", properties: {text: {type: "string"}}},
    execute: async ({text}) => text,
  });
</script>
"""

SEARCH = {
    "name": "search",
    "title": "",
    "description": "Search the shop",
    "inputSchema": {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "Query"}},
        "required": ["q"],
    },
    "annotations": {"autosubmit": False},
}


def test_the_oracle_lists_script_tools_as_such(chromium) -> None:
    tools = chromium.tools(SCRIPTED)
    assert [tool["name"] for tool in tools] == ["add_note", "cart_count", "search"]
    by_name = {tool["name"]: tool for tool in tools}
    assert by_name["cart_count"] == {
        "name": "cart_count",
        "title": "",
        "description": "How many items are in the cart",
        "script": True,
    }
    assert by_name["add_note"]["script"] is True
    assert by_name["add_note"]["inputSchema"] == {"type": "object", "properties": {"text": {"type": "string"}}}
    assert by_name["search"] == SEARCH


def test_diff_compares_the_forms_and_lists_script_tools(chromium, tmp_path) -> None:
    page = tmp_path / "scripted.html"
    page.write_text(SCRIPTED, encoding="utf-8")
    report = browser_diff(str(page), oracle=chromium)
    assert report.identical and report.stable
    assert report.text.splitlines() == [
        f"{page}: identical (1 tool(s))",
        f"{page}: add_note: script tool, not compared",
        f"{page}: cart_count: script tool, not compared",
    ]
    assert [tool.to_dict() for tool in formtools.extract_tools(page)] == [SEARCH]


def test_diff_still_reports_a_difference_next_to_script_tools(chromium, tmp_path, monkeypatch) -> None:
    """Script tools are set aside, not everything: a form formtools got wrong still differs."""
    from formtools._conformance import diff as module

    page = tmp_path / "scripted.html"
    page.write_text(SCRIPTED, encoding="utf-8")
    real = module.synthesize

    def wrong(document, *args, **kwargs):  # a formtools that forgot the form's only tool
        extraction = real(document, *args, **kwargs)
        return type(extraction)((), extraction.diagnostics, extraction.forms, extraction.document)

    monkeypatch.setattr(module, "synthesize", wrong)
    report = browser_diff(str(page), oracle=chromium)
    assert not report.identical and '-    "name": "search",' in report.text
    assert report.text.endswith(f"{page}: cart_count: script tool, not compared")


def test_the_diff_command_does_not_crash_on_script_tools(chromium, tmp_path) -> None:
    page = tmp_path / "scripted.html"
    page.write_text(SCRIPTED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "diff", str(page)], capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"Traceback" not in done.stderr
    assert done.stdout.decode().splitlines()[1:] == [
        f"{page}: add_note: script tool, not compared",
        f"{page}: cart_count: script tool, not compared",
    ]


def test_ordinary_markup_pages_are_what_chromium_registers(chromium) -> None:
    """60 generated pages: every tool form registers, with formtools' schema byte for byte."""
    for page_id, markup in ordinary_pages(60):
        answer = chromium.stable_tools(markup, reload=not one_load_suffices(markup))
        assert answer.stable, page_id
        assert len(answer.tools) == len(re.findall(r"<form[^>]*toolname", markup)), page_id
        ours = [tool.to_dict() for tool in formtools.extract_tools(markup.encode())]
        diff = unified_diff(answer.tools, ours, page_id)
        assert not diff, diff
