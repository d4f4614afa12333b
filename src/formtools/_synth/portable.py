"""The ``portable`` profile: the ``html`` profile's meaning in the JSON Schema every client takes.

MCP clients, OpenAI function calling (strict mode included) and the JSON Schema subset that
webmcp#289 proposes for ``registerTool()`` (``formtools._spec.schema_subset``) agree on little
more than ``type``, ``properties``, ``required``, ``enum``, ``pattern``, ``minimum``/``maximum``,
``items`` and ``description`` (plus ``additionalProperties: false`` on the tool's object, which
strict mode needs). Anything else — ``title`` (not in #289's allowlist), ``format``, ``const``,
``anyOf``/``allOf``, ``multipleOf``, ``uniqueItems``, ``minLength``, ``minItems``, ``default``,
``examples`` and the ``html`` profile's ``x-`` keywords — is rejected by some client or by the
subset, or silently ignored by others.

So this profile does not have rules of its own: it takes each ``html`` fragment and rewrites it,
keyword by keyword (:data:`_REWRITES`), into the subset. A keyword with an exact equivalent is
translated (``const: true`` → ``enum: [true]``, ``minLength: 1`` → a non-empty ``pattern``); one
without is dropped and its constraint said in words, appended to the ``description`` ("a multiple
of 0.5", "on or after 2026-01-01"), so a model still reads it. The result is never stricter than
the ``html`` schema: every input the ``html`` validator accepts, a standard validator accepts
under the ``portable`` schema, and every schema passes #289's meta-validation
(``tests/test_portable_profile.py``).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final

from formtools._synth.chromium import _NUMBER_STEP
from formtools._synth.html import HTML
from formtools._spec.jsjson import dumps
from formtools._spec.microsyntax import EXACT_DECIMALS, allowed_step, parse_decimal
from formtools._synth.profile import FragmentBuilder, Group, register_profile
from formtools._spec.microsyntax import compiled_pattern, pattern_shape, regex_matches
from formtools.errors import Unsupported

__all__ = ["ALLOWED_KEYWORDS", "PORTABLE", "portable_fragment"]

#: The keywords a ``portable`` schema may use (``additionalProperties`` only as ``false`` on the
#: tool's object): a part of #289's allowlist, ``SUBSET_KEYWORDS``.
ALLOWED_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "enum",
        "pattern",
        "minimum",
        "maximum",
        "items",
        "description",
    }
)

_NON_EMPTY = "[\\s\\S]"  # unanchored: matches iff the string has a character (newlines included)
_TYPE_NOTES: Mapping[str, str] = MappingProxyType(
    {
        "email": "an e-mail address",
        "url": "an absolute URL",
        "date": "a valid calendar date",
        "datetime-local": "a valid calendar date and time, seconds only when not zero",
        "textarea": "line breaks as \\n",
    }
)
_STEP_UNITS: Mapping[str, str] = MappingProxyType(
    {
        "date": " days",
        "week": " weeks",
        "month": " months",
        "time": " seconds",
        "datetime-local": " seconds",
    }
)
_NUMERIC = frozenset({"number", "integer"})
_HINTS = frozenset({"default", "examples"})  # what a value may be, after what it must be
_CLASS_SET_SYNTAX = re.compile(r"&&|--|\\q\{|\[[^\]]*\[")  # a "[" inside a class: nested

# A rewrite sees the html fragment and the portable one being built; it returns notes (constraints
# said in words) and may set keywords on the portable fragment.
Rewrite = Callable[[Mapping[str, Any], dict[str, Any]], list[str]]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value)


def _keep(keyword: str) -> Rewrite:
    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        out[keyword] = source[keyword]
        return []

    return rewrite


def _say(say: Callable[[Any], str]) -> Callable[[str], Rewrite]:
    """A keyword with no equivalent: dropped, its value said in words."""

    def for_keyword(keyword: str) -> Rewrite:
        return lambda source, out: [say(source[keyword])]

    return for_keyword


def _drop(keyword: str) -> Rewrite:
    return lambda source, out: []


def _items(keyword: str) -> Rewrite:
    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        items, notes = _rewritten(source[keyword])
        out[keyword] = items
        return notes

    return rewrite


def _const(keyword: str) -> Rewrite:
    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        out["enum"] = [source[keyword]]
        return []

    return rewrite


def _plain(pattern: str) -> bool:
    """Whether ``pattern`` reads the same to every client: it compiles in Python's ``re`` (what
    ``jsonschema`` checks a schema's patterns with) and in formtools' own matcher, nests at most
    :data:`_MAX_PLAIN_DEPTH` groups deep and uses none of the ``v`` flag's class-set syntax
    (nested classes, ``&&``, ``--``, ``\\q{}``), which other engines read differently or not at
    all. Erring towards "not plain" only drops a pattern, which loosens the schema."""
    if _CLASS_SET_SYNTAX.search(pattern) or pattern_shape(pattern).depth > _MAX_PLAIN_DEPTH:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", FutureWarning)  # re's "possible nested set"
            re.compile(pattern)
        compiled_pattern(pattern)
    # re's own errors, and its OverflowError (a{4294967296}) and ValueError (a bound of more than
    # 4,300 digits); Unsupported: regress refuses it
    except (re.error, OverflowError, ValueError, FutureWarning, Unsupported):
        return False
    return True


# Python's re parses a group by recursing, so a pattern some 500 groups deep exhausts the
# interpreter's stack (how deep exactly depends on the caller's); regress stops at 255. A
# portable pattern (formtools' own bound) stays well inside both.
_MAX_PLAIN_DEPTH: Final = 100


def _pattern(keyword: str) -> Rewrite:
    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        if _plain(source[keyword]):
            out[keyword] = source[keyword]
            return []
        return [f"matches the ECMAScript pattern {source[keyword]} (v flag)"]

    return rewrite


def _min_length(keyword: str) -> Rewrite:
    """Only ``minLength: 1`` (a required field) occurs: a pattern says it exactly, unless the
    fragment has a pattern already (one pattern per schema): then words do, when that pattern
    lets the empty string through."""

    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        if "pattern" in source and _plain(source["pattern"]):
            regex = compiled_pattern(source["pattern"])
            return [] if regex is not None and not regex_matches(regex, "") else ["not empty"]
        out["pattern"] = _NON_EMPTY
        return []

    return rewrite


def _titles(keyword: str) -> Rewrite:
    """``anyOf`` only carries option titles next to the ``enum``: said as "value = title"."""

    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        pairs = [
            f"{_text(entry['const'])} = {entry['title']}"
            for entry in source[keyword]
            if "title" in entry and entry["title"] != entry.get("const")
        ]
        return ["options: " + ", ".join(pairs)] if pairs else []

    return rewrite


def _contains(keyword: str) -> Rewrite:
    """``allOf`` only carries a checkbox group's required members (``contains: {const}``)."""

    def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
        musts = [entry["contains"]["const"] for entry in source[keyword]]
        return ["must include " + ", ".join(map(_text, musts))]

    return rewrite


def _type_note(keyword: str) -> Rewrite:
    return lambda source, out: [note] if (note := _TYPE_NOTES.get(source[keyword])) else []


def _bound(word: str, numeric_keyword: str) -> Callable[[str], Rewrite]:
    """``x-formtools-min`` / ``x-formtools-max``: a number's is ``minimum``/``maximum`` already; a date's is said."""

    def for_keyword(keyword: str) -> Rewrite:
        def rewrite(source: Mapping[str, Any], out: dict[str, Any]) -> list[str]:
            return [] if numeric_keyword in source else [f"{word} {source[keyword]}"]

        return rewrite

    return for_keyword


def _step_note(source: Mapping[str, Any]) -> list[str]:
    """``multipleOf``, ``x-formtools-step`` and ``x-formtools-step-base`` together: the allowed values, in words,
    unless ``type: integer`` says them already."""
    if "multipleOf" in source:
        return [f"a multiple of {_text(source['multipleOf'])}"]
    html_type = source.get("x-formtools-html-type", "")
    if source.get("type") in _NUMERIC and html_type:
        step = allowed_step(source.get("x-formtools-step"), _NUMBER_STEP)
        if step is None or (source["type"] == "integer" and step == 1):
            return []
        base = parse_decimal(source.get("x-formtools-step-base")) or Decimal(0)
        multiple = f"a multiple of {_number(step)}"
        return [multiple if base == 0 else f"{_number(base)} plus {multiple}"]
    written = parse_decimal(source.get("x-formtools-step"))
    if written is None or written <= 0:
        return []
    steps = f"in steps of {source['x-formtools-step']}{_STEP_UNITS.get(html_type, '')}"
    start = source.get("x-formtools-step-base")
    return [f"{steps} from {start}" if start else steps]


def _number(value: Decimal) -> str:
    return format(value.normalize(EXACT_DECIMALS), "f")


_REWRITES: Mapping[str, Callable[[str], Rewrite]] = MappingProxyType(
    {
        "type": _keep,
        "enum": _keep,
        "pattern": _pattern,
        "minimum": _keep,
        "maximum": _keep,
        "properties": _keep,
        "required": _keep,
        "items": _items,
        "const": _const,
        "minLength": _min_length,
        "anyOf": _titles,
        "allOf": _contains,
        "x-formtools-html-type": _type_note,
        "x-formtools-min": _bound("on or after", "minimum"),
        "x-formtools-max": _bound("on or before", "maximum"),
        "x-formtools-multiple": _say(lambda _: "comma-separated e-mail addresses, no spaces"),
        "x-formtools-address-pattern": _say(lambda pattern: f"each address matches {pattern}"),
        "minItems": _say(lambda count: f"at least {count} item" + ("s" if count != 1 else "")),
        "uniqueItems": _say(lambda _: "no duplicates"),
        "examples": _say(lambda values: "e.g. " + ", ".join(map(_text, values))),
        "default": _say(lambda value: f"default {_text(value)}"),
        "writeOnly": _say(lambda _: "a secret: never shown back"),
        "x-formtools-inferred-hints": _drop,  # (#289's subset has no place for it)
        # said by the rewrites they go with
        "description": _drop,
        "title": _drop,  # the parameter's name in words: portable_fragment puts it first
        "format": _drop,  # x-formtools-html-type's note says it
        "multipleOf": _drop,  # the three are said together by _step_note
        "x-formtools-step": _drop,
        "x-formtools-step-base": _drop,
    }
)


def _rewritten(source: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The portable fragment and the notes for constraints it could not express."""
    out: dict[str, Any] = {}
    notes: list[str] = []
    constraints = [keyword for keyword in source if keyword not in _HINTS]
    for keyword in constraints:
        notes += _REWRITES[keyword](keyword)(source, out)
    notes += _step_note(source)
    for keyword in (keyword for keyword in source if keyword in _HINTS):  # said last
        notes += _REWRITES[keyword](keyword)(source, out)
    return out, notes


def portable_fragment(source: Mapping[str, Any]) -> dict[str, Any]:
    """An ``html`` fragment in the portable subset, with its lost constraints described.

    The ``title`` (``toolparamtitle``, else ``aria-label``) names the parameter, and #289's
    allowlist has no ``title``: it leads the description ("Department: …") instead."""
    out, notes = _rewritten(source)
    title, text = source.get("title"), source.get("description")
    description = f"{title}: {text}" if title and text and text != title else title or text
    said = "; ".join(dict.fromkeys(notes))
    if description and said:
        out["description"] = f"{description} ({said})"
    elif description or said:
        out["description"] = description or said
    return out


def _portable(builder: FragmentBuilder) -> FragmentBuilder:
    def build(group: Group) -> dict[str, Any]:
        return portable_fragment(builder(group))

    return build


PORTABLE = register_profile(
    HTML.extend(
        "portable",
        summary="the html profile in the JSON Schema subset MCP clients and OpenAI accept",
        fragments={kind: _portable(builder) for kind, builder in HTML.fragments.items()},
        # the subset leaves constraints in words: the call is Chromium's, checked by the form
        enforces_schema=False,
        selects_by_value=False,
        says_unsatisfiable=False,  # the subset has no "accepts nothing"; lint says it instead
    )
)
