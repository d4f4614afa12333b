"""``formtools diff``: where formtools and the installed Chromium disagree about a page's tools.

The same bytes go to both: Chromium loads them from a local server (WebMCP needs a secure
context, which ``http://127.0.0.1`` is) and is asked twice; formtools parses them once. The
report is a unified diff of the two pretty-printed tool lists.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from formtools._spec.jsjson import dumps
from formtools._parse import parse_html
from formtools._parse.sources import read_page
from formtools._synth.synthesize import synthesize

if TYPE_CHECKING:
    from formtools._conformance.browser import ChromiumOracle

__all__ = ["DiffReport", "browser_diff", "unified_diff"]


@dataclass(frozen=True)
class DiffReport:
    """The comparison of one page: ``identical`` is true only when Chromium's answer was stable
    and equal to formtools' byte for byte."""

    identical: bool
    stable: bool
    text: str


def unified_diff(chromium: list[Any], formtools: list[Any], label: str = "page") -> str:
    """A readable diff of two tool lists, compared as canonical pretty JSON."""
    expected = dumps(chromium, pretty=True).splitlines()
    actual = dumps(formtools, pretty=True).splitlines()
    return "\n".join(
        difflib.unified_diff(
            expected, actual, f"chromium: {label}", f"formtools: {label}", n=3, lineterm=""
        )
    )


def browser_diff(
    source: str, *, base_url: str | None = None, oracle: ChromiumOracle | None = None
) -> DiffReport:
    """Compare the page's tools in Chromium (``oracle``, else a browser of its own) with
    formtools'. Tools a script registered (``registerTool``) are listed, not compared: formtools
    runs no scripts."""
    from formtools._conformance.browser import ChromiumOracle

    raw = read_page(source, base_url=base_url)
    content_type = raw.content_type or "text/html"
    if oracle is None:
        with ChromiumOracle() as own:
            answer = own.stable_tools(raw.body, content_type=content_type)
    else:
        answer = oracle.stable_tools(raw.body, content_type=content_type)
    document = parse_html(raw.body, url=raw.url, content_type=raw.content_type, source=raw.label)
    ours = [tool.to_dict() for tool in synthesize(document).tools]
    if not answer.stable:
        text = "Chromium gave two different answers for this page (its registration is racy):\n"
        text += unified_diff(answer.runs[0], answer.runs[1], raw.label)
        return DiffReport(identical=False, stable=False, text=text)
    declared = [tool for tool in answer.tools if not tool.get("script")]
    scripts = "".join(
        f"\n{raw.label}: {tool['name']}: script tool, not compared"
        for tool in answer.tools
        if tool.get("script")
    )
    text = unified_diff(declared, ours, raw.label)
    if not text:
        return DiffReport(True, True, f"{raw.label}: identical ({len(ours)} tool(s))" + scripts)
    return DiffReport(False, True, text + scripts)
