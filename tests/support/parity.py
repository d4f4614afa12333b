"""formtools next to the live Chromium, as the held-out browser tests compare them: a page's
tools on both parse paths, and a call's request (or refusal) in the recorded form."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from html import unescape
from typing import Any, TypeVar

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._conformance.diff import unified_diff
from formtools._conformance.wpt import request_as_recorded
from formtools.errors import InputError, ValidationError
from scripts.record_chromium_calls import outcome_of
from tests.support.callgen import calls_for

PARSERS = ("auto", "html5lib")
UTF8 = "text/html; charset=utf-8"
_Case = TypeVar("_Case")

#: what in a page's text can make its document differ from one load to the next, looked for
#: everywhere (in comments, text and attribute values too, so that no parser state hides it):
#: an element that runs a script or holds a document of its own, an event-handler attribute
#: (its name starts after a space, a ``/`` or a quoted value, as the tokenizer starts one), a
#: refresh
_LOAD_DEPENDENT = re.compile(
    r"<(?:script|iframe|embed|fencedframe|portal)|<frame[\s/>]|[\s/\"']on[a-z0-9_-]*\s*=|http-equiv", re.I
)
#: an ``<object>`` runs nothing without ``data`` (looked for anywhere, with the same spelling)
_OBJECT, _DATA = re.compile(r"<object", re.I), re.compile(r"[\s/\"']data\s*=", re.I)
#: each ``toolname`` attribute's value, wherever the word is, spaces before it skipped: cut at
#: a quote, a space, ``<``, ``/`` or ``>`` (a stray quote before it cannot carry the next name away; cutting a value
#: short can only make two names alike, and two loads be asked)
_TOOL_NAME = re.compile(r"""toolname(?:\s*=\s*["']?\s*([^"'\s<>/]*))?""", re.I)
#: encodings in which markup is not ASCII bytes: UTF-16 (a byte order mark, NUL bytes), the
#: ISO-2022 family (ESC sequences that vanish from the text and split a word in the bytes)
_NOT_ASCII_MARKUP = re.compile(rb"^(?:\xff\xfe|\xfe\xff)|[\x00\x1b]")


def one_load_suffices(html: str | bytes, headers: Sequence[tuple[str, str]] = ()) -> bool:
    """Whether one load of ``html``, served with ``headers`` besides its ``Content-Type``, tells
    its stability as two would (``ChromiumOracle.stable_tools(reload=False)``): nothing in it
    can make its document differ from load to load (a script element, an event-handler
    attribute, a ``javascript:`` URL, a nested document, a refresh), and no tool name comes
    twice (which of two such forms wins is the race one load cannot see). A page served with
    other headers needs two loads: a header (``Refresh``) can change a document as its markup
    can, and only the markup is read here.

    Conservative by reading every character as possible markup rather than parsing: a parser's
    state (a comment, a ``<style>``, ``<select>``'s content model) decides what a browser makes
    a tag, and a parser that errs there (html5lib 1.1 drops what a customizable select keeps)
    would hide a handler from the check. The bytes are read one character each: in every
    ASCII-compatible encoding a page may be served in, the markup's ASCII bytes are the
    characters the browser tokenizes, and a multi-byte character can only hide an ASCII letter,
    never add one. ``javascript:`` is looked for with character references decoded and every
    space and control taken out; tool names compare without case or references. A page whose
    markup is not ASCII bytes (UTF-16, ISO-2022) needs two loads."""
    body = html.encode("utf-8") if isinstance(html, str) else html
    if headers or _NOT_ASCII_MARKUP.search(body):
        return False
    text = body.decode("latin-1")
    if _LOAD_DEPENDENT.search(text) or (_OBJECT.search(text) and _DATA.search(text)):
        return False
    try:
        if "javascript:" in "".join(c for c in unescape(text) if c > " ").casefold():
            return False
    except ValueError:  # a numeric reference of more digits than int() reads: two loads
        return False
    names = [unescape(value).casefold() for value in _TOOL_NAME.findall(text)]
    return len(names) == len(set(names))


def calls_may_share_a_load(html: str | bytes) -> bool:
    """Whether calls of ``html``'s tools may be made one after another in one load of it
    (``ChromiumOracle.execute(…, again=True)``, which resets its forms before each): nothing in
    it keeps a state of its own that a call could change beyond its controls' (the script,
    handler, nested document or refresh :func:`one_load_suffices` looks for, and a closed shadow
    root, whose forms no reset reaches; a declarative shadow root of any mode is refused,
    spelled anywhere)."""
    body = html.encode("utf-8") if isinstance(html, str) else html
    return one_load_suffices(body) and b"shadowroot" not in body.lower()


def each_page_together(cases: Sequence[_Case], page_of: Callable[[_Case], object]) -> list[_Case]:
    """``cases`` with each page's together, pages in the order they first come and each page's
    cases in theirs, so that a page whose calls may share a load (:func:`calls_may_share_a_load`)
    is loaded once for them rather than once for each."""
    first: dict[object, int] = {}
    for position, case in enumerate(cases):
        first.setdefault(page_of(case), position)
    return sorted(cases, key=lambda case: first[page_of(case)])


def tool_differences(
    chromium: ChromiumOracle,
    html: str | bytes,
    label: str,
    content_type: str = UTF8,
    headers: Sequence[tuple[str, str]] = (),
) -> list[str]:
    """The unified diffs of ``html``'s tools, on each parse path, against Chromium's answer,
    which must be stable (two answers agree: of two navigations, or of one for a page the same at
    every load, each tool name once). Both are given ``content_type`` (a page's
    bytes served as ``text/html`` are decoded as its ``<meta>`` says); Chromium gets
    ``headers`` too (see :meth:`ChromiumOracle.tools`)."""
    one_load = one_load_suffices(html, headers)
    answer = chromium.stable_tools(html, content_type=content_type, headers=headers, reload=not one_load)
    assert answer.stable, label
    return answer_differences(answer.tools, html, label, content_type)


def answer_differences(
    tools: list[dict[str, Any]], html: str | bytes, label: str, content_type: str = UTF8
) -> list[str]:
    """The unified diffs of ``html``'s tools, on each parse path, against Chromium's ``tools``."""
    differences = []
    for parser in PARSERS:
        document = formtools.parse_html(html, content_type=content_type, parser=parser)  # type: ignore[arg-type]
        ours = [tool.to_dict() for tool in formtools.extract(document).tools]
        diff = unified_diff(tools, ours, f"{label} ({parser})")
        if diff:
            differences.append(diff)
    return differences


def calls_the_oracle_sees(document: formtools.Document, rng: random.Random, origin: str) -> list[tuple[str, Any]]:
    """(tool name, input): seeded inputs of each tool of ``document`` whose request goes to the
    oracle's own site ``origin``, or which formtools refuses (a refusal is compared too); a
    submission to another site, or one that sends nothing (``mailto:``, ``data:``,
    ``javascript:``), never reaches the oracle."""
    found = []
    for tool in formtools.extract(document).tools:
        for tool_input in calls_for(tool.to_dict(), rng, randoms=1):
            try:
                request = formtools.prepare_call(tool, tool_input).request
            except formtools.FormtoolsError:
                found.append((tool.name, tool_input))
                continue
            if request is not None and request.url.startswith(origin + "/"):
                found.append((tool.name, tool_input))
    return found


def prepared_as_recorded(
    html: str | bytes, url: str, tool_input: Any, parser: str, name: str = "t", content_type: str = UTF8
) -> dict[str, Any]:
    """``prepare_call``'s request for tool ``name`` of ``html`` served at ``url``, as the
    recorded calls hold Chromium's (``{"request": …}``), its refusal (``{"error": …}``), or
    ``{"no_request": True}`` for a submission that sends nothing (``about:blank``, where the
    oracle sees no request either)."""
    document = formtools.parse_html(html, url=url, content_type=content_type, parser=parser)  # type: ignore[arg-type]
    tool = formtools.extract(document).tool(name)
    try:
        request = formtools.prepare_call(tool, tool_input, boundary="BOUNDARY").request
    except (InputError, ValidationError) as error:
        return {"error": str(error)}
    if request is None:
        return {"no_request": True}
    return {"request": request_as_recorded(request)}


def call_differences(
    chromium: ChromiumOracle,
    html: str | bytes,
    tool_input: Any,
    path: str,
    name: str = "t",
    content_type: str = UTF8,
    headers: Sequence[tuple[str, str]] = (),
    loaded: bool = False,
    again: bool = False,
) -> list[str]:
    """``executeTool`` on tool ``name`` of ``html`` served at ``path``, against ``prepare_call``
    on each parse path: one line per path whose request or refusal differs. Nothing of where
    the call lands is read, so a form submitting to its own page does not load it again.
    ``loaded``: the tab shows the page at ``path`` already, only read since (``tools(…, path=…)``);
    ``again``: the call may be made where the last load at ``path``, or ``again`` call, left the
    page, as loaded again (its inputs' value attributes put back, its forms reset; for pages
    :func:`calls_may_share_a_load` admits)."""
    answer = chromium.execute(
        html, name, tool_input, path=path, content_type=content_type, headers=headers, landing=False, loaded=loaded,
        again=again,
    )
    theirs = outcome_of(answer)
    theirs.pop("result", None)
    found = []
    for parser in PARSERS:
        ours = prepared_as_recorded(html, chromium.site.origin + path, tool_input, parser, name, content_type)
        if ours != theirs:
            found.append(f"({parser}): Chromium {theirs} formtools {ours}")
    return found
