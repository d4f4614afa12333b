"""JSON text exactly as a browser's ``JSON.stringify`` writes it.

Tool definitions are compared byte for byte with what Chromium reports, so numbers must be
written the way ECMAScript's Number::toString writes them (``1e-7``, ``1e+21``, ``0.1``, ``5``),
not the way Python's ``repr`` does (``1e-07``, ``1e+21``, ``0.1``, ``5.0``). Key order is the
insertion order of the dicts, which mirrors the order Chromium builds its objects in.
"""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring as _quote
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from formtools.errors import UNSHOWABLE_PAST_C0

__all__ = ["js_number", "copy_json", "dumps", "loads", "nests_deeper", "plain"]


def js_number(value: float | int) -> str:
    """Format a number as ECMAScript Number::toString (radix 10) does."""
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers here")
    if isinstance(value, int):
        if abs(value) < 2**53:
            return str(value)
        try:
            value = float(value)
        except OverflowError:  # beyond the doubles: JSON.parse makes ±Infinity of it
            return "null"
    if math.isnan(value) or math.isinf(value):
        return "null"  # what JSON.stringify writes for NaN and ±Infinity
    if value == 0:
        return "0"  # covers -0 too
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    # n: where the decimal point sits, counted in digits from the left (ECMAScript's "n")
    n = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        exp = ("+" if e >= 0 else "-") + str(abs(e))
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + exp
    return sign + text


# _quote (json's C string encoder) writes a string exactly as json.dumps(s, ensure_ascii=False)
# does, without building a JSONEncoder for every string.


def _compact(value: Any) -> str:
    """``value`` as JSON without whitespace: :func:`_encode` without an indent, on the types
    tool definitions are made of (exact ``str``, ``dict``, ``list``, ``tuple``, mapping proxies),
    in one pass of joins; anything else goes to :func:`_encode`."""
    kind = type(value)
    if kind is str:
        return _quote(value)
    if kind is dict or kind is MappingProxyType:
        if not value:
            return "{}"
        return (
            "{"
            + ",".join(
                f"{_quote(key) if type(key) is str else _quote(str(key))}:{_compact(item)}"
                for key, item in value.items()
            )
            + "}"
        )
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return "[" + ",".join([_compact(item) for item in value]) + "]"
    if kind is int:
        return str(value) if -(2**53) < value < 2**53 else js_number(value)
    out: list[str] = []
    _encode(value, out, None, 0)
    return "".join(out)


class _Leaving(int):
    """The ``id`` of an array or object :func:`_encode` has written to its end."""


def _encode(value: Any, out: list[str], indent: str | None, level: int) -> None:
    """Append ``value``'s JSON to ``out``, nested ``level`` deep. With its own stack, not
    Python's: a landing page's JSON-LD block may be as deep as Chromium keeps (1,000 levels),
    and one call per level ended in RecursionError, a traceback out of ``formtools call``."""
    pending: list[Any] = [(value, level)]  # (a value, its level) to write, text as it is, or a _Leaving
    around: set[int] = set()  # the arrays and objects being written: one inside itself never ends
    while pending:
        item = pending.pop()
        if type(item) is str:
            out.append(item)
            continue
        if type(item) is _Leaving:
            around.discard(item)
            continue
        value, level = item
        if value is None:
            out.append("null")
        elif value is True:
            out.append("true")
        elif value is False:
            out.append("false")
        elif isinstance(value, str):
            out.append(_quote(value))
        elif isinstance(value, (int, float)):
            out.append(js_number(value))
        elif isinstance(value, (Mapping, list, tuple)):
            mapping = isinstance(value, Mapping)
            opening, closing = "{}" if mapping else "[]"
            if not value:
                out.append(opening + closing)
                continue
            if id(value) in around:
                raise ValueError("Converting circular structure to JSON: an array or object holds itself")
            around.add(id(value))
            inner = "" if indent is None else "\n" + indent * (level + 1)
            colon = ":" if indent is None else ": "
            steps: list[Any] = []
            members: Iterable[tuple[Any, Any]] = value.items() if isinstance(value, Mapping) else enumerate(value)
            for i, (key, member) in enumerate(members):
                steps.append(("," if i else "") + inner + (_quote(str(key)) + colon if mapping else ""))
                steps.append((member, level + 1))
            steps.append(("" if indent is None else "\n" + indent * level) + closing)
            steps.append(_Leaving(id(value)))
            out.append(opening)
            pending.extend(reversed(steps))
        else:
            raise TypeError(f"cannot serialize {type(value).__name__} as JSON")


def copy_json(value: Any) -> Any:
    """A fresh copy of a JSON value (dicts, lists, tuples as lists), made with its own stack
    for the same reason as :func:`_encode`: a parsed JSON-LD block can be 1,000 levels deep."""
    def fresh(item: Any) -> Any:
        if isinstance(item, Mapping):
            copied: Any = {}
        elif isinstance(item, (list, tuple)):
            copied = []
        else:
            return item
        pending.append((item, copied))
        return copied

    pending: list[tuple[Any, Any]] = []
    top = fresh(value)
    while pending:
        original, copied = pending.pop()
        if isinstance(copied, dict):
            for key, member in original.items():
                copied[key] = fresh(member)
        else:
            copied.extend(fresh(member) for member in original)
    return top


def dumps(value: Any, *, pretty: bool = False) -> str:
    """Serialize like ``JSON.stringify(value)`` (or with a two-space indent when ``pretty``).

    Non-ASCII characters are written as themselves, as JSON.stringify does.
    """
    if not pretty:
        try:
            return _compact(value)
        except RecursionError:
            pass  # nested deeper than _compact's two frames a level reach: _encode takes one
    out: list[str] = []
    _encode(value, out, "  " if pretty else None, 0)
    return "".join(out)



def plain(text: str) -> str:
    """The JSON ``text`` (:func:`dumps`' output) with every control and format character it holds
    as is written as its ``\\u`` escape: the same JSON to any parser, and plain text to a
    terminal. A page's description printed by ``formtools extract`` held U+009B and U+009D as
    they were (C1's CSI and OSC, which a terminal reading C1 controls, xterm's default, runs as
    ESC [ and ESC ]), U+202E turned the rest of a line around, tag characters hid text. Such a
    character is only ever inside a string, where an escape stands for it (C0's are escaped
    there already: outside, they are whitespace). An ASCII text, most of a crawl's lines, holds
    none but DEL and is passed on at once (the search costs 50 ns a character)."""
    if text.isascii() and "\x7f" not in text:
        return text
    return UNSHOWABLE_PAST_C0.sub(lambda found: json.dumps(found.group()).strip('"'), text)


def loads(text: str | bytes) -> Any:
    """Parse JSON as ``JSON.parse`` does, keeping key order: integral numbers stay ints, others
    become floats; ``NaN`` and ``Infinity``, which Python's parser takes, are no JSON."""
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Strings are passed over whole, an unterminated one to the end of the text: possessive, so
# that a string costs one pass (no backtracking state per character) and every quote the scan
# meets opens a match (a string left open once failed and was tried again from each escaped
# quote inside it, ``["\"\"\"…``: 32 KB took 3 s, quadratic).
_BRACKETS = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)


def nests_deeper(text: str, levels: int) -> bool:
    """Whether the JSON ``text`` opens more than ``levels`` arrays and objects inside one
    another: scanned, not parsed, so that Python's recursive parser (which fails near 1,000
    levels) never meets a text deeper than its caller takes."""
    depth = 0
    for token in _BRACKETS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > levels:
                return True
        elif bracket in "]}":
            depth -= 1
    return False
