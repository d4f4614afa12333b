"""Seeded tool-call inputs derived from a tool's ``inputSchema``, for the execution oracle.

Why this exists: formtools must execute a tool call exactly as Chromium 156 does: accept or
reject each value with the same message, fill and sanitize it the same way, and send the same
request. ``scripts/record_chromium_calls.py`` records what Chromium does with these inputs, and
the tests replay them against formtools. The inputs come from the schema alone (the tool as
``getTools()``/formtools give it), so any page's tools can be exercised.

What is drawn, per tool (see :func:`tagged_calls_for`):

- ``valid``: ``{}``, every property at once with a value that should pass (for strings the key
  and description are used to guess e-mail and URL fields), and only the required properties.
- ``boundary``: the valid input with one property replaced by an edge of its kind: min/max/step
  edges, empty string, unicode, CR/LF, a very long string, each enum value, ``[]``...
- ``invalid``: an unknown key, a key in the wrong case or padded, the wrong JSON type, ``null``,
  arrays where scalars go, objects, duplicates in arrays, values outside an enum, numbers as
  strings (``"7"``, ``"+1"``, ``" 1"``, ``"1e3"``), booleans as strings and numbers, impossible
  dates and times, CSS color names, and inputs that are not objects at all.
- ``random``: a few inputs mixing mostly-valid values for a random subset of the properties.

A property's *kind* comes from its schema: ``array``, ``boolean``, ``number`` (``minimum``,
``maximum``, ``multipleOf``), ``enum`` (``anyOf``/``enum``), or a string whose ``format`` says
``date``, or whose format regex is one of Chromium's for time, datetime-local, month, week and
color; anything else is a plain ``string`` (``pattern`` is honoured when a candidate matches).

Determinism: everything is drawn from the ``random.Random`` passed in (seed it with a string:
``random.Random("page-name")`` is the same in every process), there is no clock, and the output
is deduplicated in order. Inputs are plain JSON values; numbers are ints where integral, so the
JSON text is stable.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = ["KINDS", "TAGS", "calls_for", "property_kind", "tagged_calls_for"]

TAGS = ("valid", "boundary", "invalid", "random")
KINDS = (
    "array",
    "boolean",
    "number",
    "enum",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "color",
    "string",
)

Schema = dict[str, Any]
Value = Any

LONG = "long " * 200  # 1,000 characters
UNICODE = "héllo wörld ✓ 日本語 😀 עברית"
CRLF = "a\r\nb\nc\rd"


def property_kind(schema: Schema) -> str:
    """One of :data:`KINDS` for a property schema as Chromium emits it."""
    type_ = schema.get("type")
    if type_ == "array":
        return "array"
    if type_ == "boolean":
        return "boolean"
    if type_ == "number":
        return "number"
    if "enum" in schema or "anyOf" in schema:
        return "enum"
    fmt = schema.get("format")
    if fmt == "date":
        return "date"
    if isinstance(fmt, str):
        if fmt.startswith("^#"):
            return "color"
        if "-W" in fmt:
            return "week"
        if "T" in fmt:
            return "datetime-local"
        if fmt.startswith("^([01]"):
            return "time"
        if fmt.startswith("^[0-9]{4}-"):
            return "month"
    return "string"


# ---------------------------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------------------------


def _dec(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        return None


def _num(value: Decimal) -> int | float:
    """A JSON number: an int when integral (and safely so), else the nearest float."""
    if value == value.to_integral_value() and abs(value) < 2**53:
        return int(value)
    return float(value)


class _NumberSpace:
    """The edges of a number property: minimum, maximum and multipleOf (the step)."""

    def __init__(self, schema: Schema) -> None:
        self.lo = _dec(schema.get("minimum"))
        self.hi = _dec(schema.get("maximum"))
        self.step = _dec(schema.get("multipleOf"))
        self.base = self.lo if self.lo is not None else Decimal(0)

    def snap(self, value: Decimal) -> Decimal:
        """``value`` moved onto the step grid (toward the base) and into the range."""
        if self.step:
            value = self.base + ((value - self.base) // self.step) * self.step
        if self.lo is not None and value < self.lo:
            value = self.lo
        if self.hi is not None and value > self.hi:
            value = self.hi
            if self.step:
                value = self.base + ((value - self.base) // self.step) * self.step
        return value

    def valid(self) -> Decimal:
        if self.lo is not None and self.hi is not None:
            return self.snap((self.lo + self.hi) / 2)
        if self.lo is not None:
            return self.snap(self.lo + (self.step or 1) * 3)
        if self.hi is not None:
            return self.snap(self.hi - (self.step or 1) * 3)
        return self.snap(Decimal(7))

    def edges(self) -> list[Decimal]:
        step = self.step or Decimal(1)
        out = []
        if self.lo is not None:
            out += [self.lo, self.lo - step, self.lo + step]
        if self.hi is not None:
            out += [self.hi, self.hi + step, self.snap(self.hi - step)]
        if self.step:
            out.append(self.valid() + self.step / 2)  # off the grid
        else:
            out.append(self.valid() + Decimal("0.5"))
        out.append(Decimal(0))
        out.append(Decimal(-1))
        return out

    def random(self, rng: random.Random) -> Decimal:
        lo = self.lo if self.lo is not None else Decimal(-1000)
        hi = self.hi if self.hi is not None else lo + 2000
        hi = max(hi, lo)
        value = lo + (hi - lo) * Decimal(rng.randint(0, 1000)) / 1000
        return self.snap(value) if rng.random() < 0.8 else value.quantize(Decimal("0.001"))


# Numbers whose string form matters (§8.5 ToString) and number-like strings (§8.6).
NUMBER_TEXT_CASES: list[Value] = [
    0.1,
    100.125,
    123456.5,
    0.00001,
    12345678.9,
    3000000000,
    1e21,
    1.5e-7,
    -2147483648,
    2147483648,
    12.0,
    -0.5,
]
NUMBER_STRINGS: list[Value] = [
    "7",
    "+1",
    " 1",
    "1 ",
    "1e3",
    "1E3",
    "-0",
    ".5",
    "1.",
    "0x10",
    "abc",
    "",
    "Infinity",
    "NaN",
    "1,5",
    "١",
]


# ---------------------------------------------------------------------------------------------
# strings and their formats
# ---------------------------------------------------------------------------------------------

STRING_EDGES: list[Value] = ["", UNICODE, CRLF]  # and LONG, once per tool
STRING_MORE: list[Value] = [
    "plain text",
    " padded ",
    "a+b&c=d%20#?/~*'!()",
    "\t",
    "\n",
    " ",
    "user@example.com",
    "https://example.com/path?q=1#f",
    "AB12",
    "123",
    'quote " backslash \\',
    "\u200b\u00a0",
    "שלום",
    "a\u0000b",
    "<b>x</b>",
    "line1\r\nline2",
]
FORMAT_VALUES: dict[str, tuple[list[Value], list[Value]]] = {
    # kind: (valid values, invalid or odd values)
    "date": (
        ["2024-02-29", "2024-01-01", "0001-01-01", "275760-09-13", ""],
        [
            "error",
            "2024-02-30",
            "2023-02-29",
            "2024-1-1",
            "2024-13-01",
            "24-01-01",
            " 2024-01-01",
            "2024-01-01T00:00",
            "+002024-01-01",
            "0000-01-01",
        ],
    ),
    "time": (
        ["13:45", "00:00", "23:59", "13:45:30", "13:45:30.5", "13:45:30.123", ""],
        ["25:00:00", "20:20:39+00:00", "9:00", "13:60", "13:45:30.1234", "noon", "13:45:"],
    ),
    "datetime-local": (
        ["2024-06-01T08:15", "2024-06-01T08:15:30", "2024-06-01T08:15:00.000", ""],
        [
            "2024-06-01 08:15",
            "2024-02-30T10:00",
            "2024-06-01T25:00",
            "2024-06-01",
            "2024-06-01T08:15Z",
            "error",
        ],
    ),
    "month": (
        ["2024-03", "1970-01", "0001-01", ""],
        ["2024-13", "2024-3", "2024-00", "2024-03-01", "error"],
    ),
    "week": (
        ["2024-W10", "2020-W53", "2024-W01", ""],
        ["2024-W53", "2024-W00", "2024-W1", "2024W10", "2024-w10", "error"],
    ),
    "color": (
        ["#ffaa00", "#FaB000", "#000000", ""],
        ["crimson", "#FFF", "nope", "rgb(1, 2, 3)", "#ff000080", "transparent", "ff0000"],
    ),
}
PATTERN_CANDIDATES: list[str] = [
    "AB12",
    "ab12",
    "123",
    "12345",
    "abc",
    "ABC",
    "A",
    "a",
    "hello",
    "x1",
    "1a",
    "user@example.com",
    "https://example.com",
    "+1 555 0100",
    "2024-01-01",
    "ABC-123",
]


def _pattern_match(pattern: str) -> Callable[[str], bool] | None:
    """A whole-value matcher for an ECMAScript ``v``-flag pattern, if regress is installed."""
    try:
        import regress  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - regress is a formtools dependency
        return None
    try:
        regex = regress.Regex(f"^(?:{pattern})$", "v")
    except regress.RegressError:
        return None
    return lambda value: regex.find(value) is not None


def _valid_string(key: str, schema: Schema) -> str:
    hint = (key + " " + str(schema.get("description", ""))).lower()
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        matches = _pattern_match(pattern)
        if matches is not None:
            for candidate in PATTERN_CANDIDATES:
                if matches(candidate):
                    return candidate
    if "mail" in hint:
        return "user@example.com"
    if any(word in hint for word in ("url", "site", "web", "link", "homepage")):
        return "https://example.com/"
    return "value of " + key if key else "value"


# ---------------------------------------------------------------------------------------------
# per kind: one valid value, the boundary values, the invalid values, a random value
# ---------------------------------------------------------------------------------------------


def _enum_values(schema: Schema) -> list[str]:
    items = schema.get("items", schema) if schema.get("type") == "array" else schema
    values = items.get("enum")
    if values is None:
        values = [entry.get("const") for entry in items.get("anyOf", [])]
    return [value for value in values if isinstance(value, str)]


WRONG_TYPES: list[Value] = [None, [], {}]


def _valid(key: str, schema: Schema) -> Value:
    kind = property_kind(schema)
    if kind == "array":
        values = _enum_values(schema)
        return values[:1]
    if kind == "boolean":
        return True
    if kind == "number":
        return _num(_NumberSpace(schema).valid())
    if kind == "enum":
        values = _enum_values(schema)
        non_empty = [value for value in values if value]
        return (non_empty or values or [""])[-1 if len(non_empty) > 1 else 0]
    if kind in FORMAT_VALUES:
        return FORMAT_VALUES[kind][0][0]
    return _valid_string(key, schema)


def _boundary(key: str, schema: Schema, rng: random.Random, thorough: bool) -> list[Value]:
    kind = property_kind(schema)
    if kind == "array":
        values = _enum_values(schema)
        return [[], values, list(reversed(values)), values[-1:]]
    if kind == "boolean":
        return [True, False]
    if kind == "number":
        space = _NumberSpace(schema)
        edges: list[Value] = [_num(value) for value in space.edges()]
        if space.lo is None and space.hi is None and space.step is None:
            edges += NUMBER_TEXT_CASES  # no constraint hides how the number is written
        return edges
    if kind == "enum":
        return list(_enum_values(schema))
    if kind in FORMAT_VALUES:
        return _some(rng, FORMAT_VALUES[kind][0], thorough, 2)
    return STRING_EDGES + rng.sample(STRING_MORE, 4 if thorough else 1)


def _some(rng: random.Random, values: list[Value], thorough: bool, count: int) -> list[Value]:
    """All of ``values`` for the first property of its kind in a tool, else ``count`` of them."""
    return list(values) if thorough else rng.sample(values, min(count, len(values)))


def _invalid(key: str, schema: Schema, rng: random.Random, thorough: bool) -> list[Value]:
    kind = property_kind(schema)
    if kind == "array":
        values = _enum_values(schema) or ["x"]
        odd: list[Value] = [
            values[:1] * 2,  # a duplicate
            ["not-an-option"],
            values[0],  # a scalar where an array goes
            [1],
            [values[0], None],
            [[values[0]]],
            None,
            {},
        ]
        return _some(rng, odd, thorough, 3)
    if kind == "boolean":
        return _some(rng, BOOLEAN_ODD, thorough, 5)
    if kind == "number":
        return (
            _some(rng, NUMBER_STRINGS, thorough, 4)
            + _some(rng, NUMBER_TEXT_CASES, thorough, 3)
            + _some(rng, [True, None, [1], {}], thorough, 1)
        )
    if kind == "enum":
        values = _enum_values(schema) or ["x"]
        first = values[0]
        choices: list[Value] = [
            "not-an-option",
            first.upper() if first.upper() != first else first + " ",
            " " + first,
            1,
            True,
            [first],
            None,
        ]
        if "" not in values:
            choices.append("")
        return _some(rng, choices, thorough, 3)
    if kind in FORMAT_VALUES:
        return _some(rng, FORMAT_VALUES[kind][1] + [20240101, True, *WRONG_TYPES], thorough, 3)
    return _some(rng, STRING_ODD, thorough, 3)


BOOLEAN_ODD: list[Value] = [
    "true",
    "TRUE",
    "False",
    "1",
    "0",
    1,
    0,
    2,
    -1,
    1.5,
    # whole numbers at the 32-bit edge: Chromium's JSON reader makes a double of one beyond it,
    # which a checkbox refuses as it refuses 1.5 (formtools took any whole number)
    2**31 - 1,
    2**31,
    -(2**31) - 1,
    "yes",
    "on",
    "",
    None,
    [],
    [True],
]
STRING_ODD: list[Value] = [7, 1.5, 12345678.9, 1e21, True, False, None, [], {}, {"a": 1}, [UNICODE]]


def _random(key: str, schema: Schema, rng: random.Random) -> Value:
    kind = property_kind(schema)
    if rng.random() < 0.12:  # now and then something that should fail
        return rng.choice(_invalid(key, schema, rng, False))
    if kind == "array":
        values = _enum_values(schema)
        return rng.sample(values, rng.randint(0, len(values)))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "number":
        return _num(_NumberSpace(schema).random(rng))
    if kind == "enum":
        values = _enum_values(schema)
        return rng.choice(values) if values else ""
    if kind == "date":
        year, month = rng.randint(1900, 2100), rng.randint(1, 12)
        return f"{year:04d}-{month:02d}-{rng.randint(1, 31):02d}"
    if kind == "time":
        text = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        return text + (f":{rng.randint(0, 59):02d}" if rng.random() < 0.4 else "")
    if kind == "datetime-local":
        return (
            f"{rng.randint(1990, 2040):04d}-{rng.randint(1, 12):02d}-"
            f"{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        )
    if kind == "month":
        return f"{rng.randint(1900, 2100):04d}-{rng.randint(1, 12):02d}"
    if kind == "week":
        return f"{rng.randint(1900, 2100):04d}-W{rng.randint(1, 53):02d}"
    if kind == "color":
        return "#" + "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(6))
    alphabet = "abcXYZ019 _-.&=+%#?/é日😀\n"
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
    return rng.choice([text, text, _valid_string(key, schema)])


# ---------------------------------------------------------------------------------------------
# the inputs of a tool
# ---------------------------------------------------------------------------------------------

NON_OBJECTS: list[Value] = ["a string", None, [], 42, True]


def _unknown_keys(keys: Sequence[str], rng: random.Random) -> list[str]:
    odd = [""]
    for key in keys[:1]:
        if key.upper() != key:
            odd.append(key.upper())
        odd.append(f" {key} ")
    return [key for key in ["no_such_parameter", rng.choice(odd)] if key not in keys]


def _generate(
    tool: dict[str, Any], rng: random.Random, randoms: int, covered: set[str]
) -> Iterator[tuple[str, Value]]:
    schema = tool.get("inputSchema") or {}
    properties: dict[str, Schema] = schema.get("properties") or {}
    required = [key for key in schema.get("required") or [] if key in properties]
    keys = list(properties)
    valid = {key: _valid(key, properties[key]) for key in keys}
    # The first property of each kind (in `covered`'s lifetime) gets every odd value; the others
    # a sample.
    kinds = [property_kind(properties[key]) for key in keys]
    thorough = {}
    for key, kind in zip(keys, kinds):
        thorough[key] = kind not in covered
        covered.add(kind)

    yield "valid", {}
    yield "valid", valid
    yield "valid", {key: valid[key] for key in required}
    for key in keys:
        for value in _boundary(key, properties[key], rng, thorough[key]):
            yield "boundary", {**valid, key: value}
    strings = [key for key, kind in zip(keys, kinds) if kind == "string" and thorough[key]]
    if strings:
        yield "boundary", {**valid, strings[0]: LONG}
    for key in keys:
        for value in _invalid(key, properties[key], rng, thorough[key]):
            yield "invalid", {**valid, key: value}
    for key in _unknown_keys(keys, rng):
        yield "invalid", {**valid, key: "x"}
    yield "invalid", rng.choice(NON_OBJECTS + [[valid]])
    for _ in range(randoms):
        chosen = [key for key in keys if rng.random() < 0.7]
        rng.shuffle(chosen)
        value = {key: _random(key, properties[key], rng) for key in chosen}
        if rng.random() < 0.1:
            value[rng.choice(["extra", "Extra", "q2"])] = "x"
        yield "random", value


def tagged_calls_for(
    tool: dict[str, Any],
    rng: random.Random,
    *,
    randoms: int = 3,
    covered: set[str] | None = None,
) -> list[tuple[str, Value]]:
    """``(tag, input)`` pairs for ``tool``; the tag is one of :data:`TAGS`.

    The first property of each kind gets every odd value of its kind, later ones a sample.
    ``covered`` carries the kinds already treated so across calls (it is updated), so that the
    tools of one page do not all repeat the same type checks; by default each tool starts afresh.

    Deduplicated by JSON text, keeping the first occurrence (and its tag), so the order and the
    tags are stable for a given seed.
    """
    seen: set[str] = set()
    out = []
    for tag, value in _generate(tool, rng, randoms, set() if covered is None else covered):
        text = json.dumps(value, ensure_ascii=False)
        if text not in seen:
            seen.add(text)
            out.append((tag, value))
    return out


def calls_for(
    tool: dict[str, Any],
    rng: random.Random,
    *,
    randoms: int = 3,
    covered: set[str] | None = None,
) -> list[Value]:
    """Tool-call inputs for ``tool`` (valid, boundary, invalid and random), seeded by ``rng``."""
    return [value for _, value in tagged_calls_for(tool, rng, randoms=randoms, covered=covered)]
