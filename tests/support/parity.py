"""formtools next to the live Chromium, as the held-out browser tests compare them: a page's
tools on both parse paths, and a call's request (or refusal) in the recorded form."""

from __future__ import annotations

from typing import Any

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._conformance.diff import unified_diff
from formtools._conformance.wpt import request_as_recorded
from formtools.errors import InputError, ValidationError
from scripts.record_chromium_calls import outcome_of

PARSERS = ("auto", "html5lib")


def tool_differences(chromium: ChromiumOracle, html: str, label: str) -> list[str]:
    """The unified diffs of ``html``'s tools, on each parse path, against Chromium's answer,
    which must be stable (two navigations agree)."""
    answer = chromium.stable_tools(html)
    assert answer.stable, label
    differences = []
    for parser in PARSERS:
        ours = [tool.to_dict() for tool in formtools.extract_tools(html, parser=parser)]  # type: ignore[arg-type]
        diff = unified_diff(answer.tools, ours, f"{label} ({parser})")
        if diff:
            differences.append(diff)
    return differences


def prepared_as_recorded(html: str, url: str, tool_input: Any, parser: str, name: str = "t") -> dict[str, Any]:
    """``prepare_call``'s request for tool ``name`` of ``html`` served at ``url``, as the
    recorded calls hold Chromium's (``{"request": …}``), or its refusal (``{"error": …}``)."""
    tool = formtools.extract(formtools.parse_html(html, url=url, parser=parser)).tool(name)  # type: ignore[arg-type]
    try:
        request = formtools.prepare_call(tool, tool_input, boundary="BOUNDARY").request
    except (InputError, ValidationError) as error:
        return {"error": str(error)}
    assert request is not None
    return {"request": request_as_recorded(request)}


def call_differences(chromium: ChromiumOracle, html: str, tool_input: Any, path: str, name: str = "t") -> list[str]:
    """``executeTool`` on tool ``name`` of ``html`` served at ``path``, against ``prepare_call``
    on each parse path: one line per path whose request or refusal differs."""
    theirs = outcome_of(chromium.execute(html, name, tool_input, path=path))
    theirs.pop("result", None)
    found = []
    for parser in PARSERS:
        ours = prepared_as_recorded(html, chromium.site.origin + path, tool_input, parser, name)
        if ours != theirs:
            found.append(f"({parser}): Chromium {theirs} formtools {ours}")
    return found
