"""The order a call's input keys are checked and filled in (exec-fill-4), against the real browser.

Chromium hands ``executeTool`` a JavaScript object, whose own keys list array indices ("0",
"10", "4294967294": canonical decimal strings below 2³² − 1) first in numeric order, then the
others in the order given. The order shows in which problem a call with several bad values
reports (the first), and must leave the request itself as Chromium sends it. The forms name
their parameters so that tree order, the order given and JavaScript's order all differ.

``chromium`` is the session's oracle (tests/conftest.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools.errors import InputError

NAMES = ("a", "01", "2", "4294967295", "b", "10", "4294967294")
PAGE = '<!doctype html><meta charset="utf-8">' + "".join(
    f'<form toolname="{method}" tooldescription="Keys" toolautosubmit method="{method}"'
    f' action="/keys-{method}">'
    + "".join(f'<input type="number" name="{name}">' for name in NAMES)
    + "</form>"
    for method in ("get", "post")
)
PATH = "/key-order.html"

#: inputs whose keys come in another order than JavaScript lists them
VALID = [
    {"b": 1, "10": 2, "2": 3, "a": 4},
    {"4294967295": 5, "4294967294": 6, "01": 7, "10": 8, "b": 9},
]
#: several bad values: the first in JavaScript's order is the one reported
INVALID = [
    {"b": "x", "10": "y", "2": "z", "a": "w"},
    {"b": "x", "a": "y", "10": "z"},
    {"01": "x", "4294967295": "y", "4294967294": "z"},
    {"a": 1, "b": "+1", "01": "+2", "nope": 3, "2": "+3"},
    {"nope": 1, "10": "+1"},
]


def _formtools(
    chromium: ChromiumOracle, tool_name: str, tool_input: dict[str, Any]
) -> Any:
    """What formtools sends for the call, in the oracle's shape: (method, target, type, body),
    or the error text."""
    tool = formtools.extract(PAGE, base_url=chromium.site.origin + PATH).tool(tool_name)
    try:
        request = formtools.prepare_call(tool, tool_input).request
    except InputError as error:
        return str(error)
    assert request is not None
    parts = urlsplit(request.url)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    return (request.method, target, request.header("Content-Type"), request.body or b"")


@pytest.mark.spec_step("exec-fill-4")
@pytest.mark.browser
@pytest.mark.parametrize("tool_name", ["get", "post"])
@pytest.mark.parametrize("tool_input", VALID)
def test_index_keys_fill_as_chromium_fills_them(
    chromium: ChromiumOracle, tool_name: str, tool_input: dict[str, Any]
) -> None:
    answer = chromium.execute(PAGE, tool_name, tool_input, path=PATH)
    assert answer.error is None
    sent = answer.request
    assert sent is not None
    chromium_sent = (sent.method, sent.url, sent.content_type, sent.body)
    assert _formtools(chromium, tool_name, tool_input) == chromium_sent


@pytest.mark.spec_step("exec-fill-4")
@pytest.mark.browser
@pytest.mark.parametrize("tool_input", INVALID)
def test_index_keys_are_checked_first(
    chromium: ChromiumOracle, tool_input: dict[str, Any]
) -> None:
    answer = chromium.execute(PAGE, "post", tool_input, path=PATH)
    assert answer.request is None
    assert answer.error is not None
    assert _formtools(chromium, "post", tool_input) == answer.error
    first_given = next(
        key for key, value in tool_input.items() if isinstance(value, str)
    )
    if tool_input is INVALID[0]:  # "b" was given first, "2" is reported
        assert first_given not in answer.error
