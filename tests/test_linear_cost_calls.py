"""Synthesis, validation and calls cost work linear in the form and the input, counted, not timed.

Like ``test_linear_cost.py`` for pages, each shape is run at n and 2n and the Python lines it
executes (``sys.settrace``) must about double. Every shape here was quadratic (an adversarial
review measured them): diagnostics naming every member of a large group, inferred names counted
from 1 for each form, radio groups whose members each looked at the whole group (synthesis,
constraint validation, the ``html`` schema's values), a parameter looked up by walking the
list, ``validate_input`` searching every required name for the one each error is about and
quoting every unknown key in each key's problem, options compared with every item (``enum``,
``anyOf`` of ``const``, ``allOf`` of ``contains``), ``uniqueItems`` comparing every pair of a
mixed array, and the problems sorted by a list search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.cost import lines, pages_written

import formtools

BASE = "https://site.example/"


def form(body: str) -> str:
    return f"<form toolname=t tooldescription=d action=/x>{body}<button>go</button></form>"


def radios(n: int) -> str:
    return form("".join(f"<input type=radio name=r value=v{i} required>" for i in range(n)))


def required_texts(n: int) -> str:
    return form("".join(f"<input name=q{i} required>" for i in range(n)))


def multiple_select(n: int) -> str:
    return form("<select multiple name=s>" + "".join(f"<option>o{i}" for i in range(n)) + "</select>")


def checkboxes(n: int, required: str = "") -> str:
    return form("".join(f"<input type=checkbox name=c value=v{i} {required}>" for i in range(n)))


def tool(page: str, profile: str = "chromium") -> formtools.Tool:
    return formtools.extract(page, profile=profile, base_url=BASE).tools[0]


def call(page: str, profile: str, tool_input: dict[str, Any]) -> None:
    try:
        formtools.prepare_call(tool(page, profile), tool_input)
    except (formtools.InputError, formtools.ValidationError):
        pass


def validate(page: str, profile: str, tool_input: dict[str, Any]) -> None:
    formtools.validate_input(tool(page, profile), tool_input)


#: name → (page for n, what is run on it for n)
SHAPES: dict[str, tuple[Callable[[int], str], Callable[[str, int], object]]] = {
    "unnamed inputs (diagnostics)": (
        lambda n: form("<input>" * n),
        lambda page, n: formtools.extract(page),
    ),
    "forms inferring one name": (
        lambda n: "<form><input name=q><button>Search</button></form>" * n,
        lambda page, n: formtools.extract(page, all_forms=True),
    ),
    "radio group, html schema": (radios, lambda page, n: tool(page, "html")),
    "radio group, call": (radios, lambda page, n: call(page, "chromium", {"r": f"v{n - 1}"})),
    "radio group, validate": (radios, lambda page, n: validate(page, "html", {"r": f"v{n - 1}"})),
    "required fields, validate {}": (required_texts, lambda page, n: validate(page, "html", {})),
    "required fields, call": (
        required_texts,
        lambda page, n: call(page, "chromium", {f"q{i}": "x" for i in range(n)}),
    ),
    "unknown keys, validate": (
        required_texts,
        lambda page, n: validate(page, "html", {f"u{i}": 1 for i in range(n)}),
    ),
    "unknown keys, html call": (
        required_texts,
        lambda page, n: call(page, "html", {f"u{i}": 1 for i in range(n)}),
    ),
    "every option, validate": (
        multiple_select,
        lambda page, n: validate(page, "chromium", {"s": [f"o{i}" for i in range(n)]}),
    ),
    "every option, html call": (
        multiple_select,
        lambda page, n: call(page, "html", {"s": [f"o{i}" for i in range(n)]}),
    ),
    "no option, validate": (
        multiple_select,
        lambda page, n: validate(page, "html", {"s": [f"z{i}" for i in range(n)]}),
    ),
    "mixed items, uniqueItems": (
        multiple_select,
        lambda page, n: validate(page, "html", {"s": [i if i % 2 else f"o{i}" for i in range(n)]}),
    ),
    "checkbox group, validate": (
        checkboxes,
        lambda page, n: validate(page, "html", {"c": [f"v{i}" for i in range(n)]}),
    ),
    "checkbox group, call": (
        checkboxes,
        lambda page, n: call(page, "chromium", {"c": [f"v{i}" for i in range(n)]}),
    ),
    "required boxes missing, validate": (
        lambda n: checkboxes(n, "required"),
        lambda page, n: validate(page, "html", {"c": [f"x{i}" for i in range(n)]}),
    ),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_calls_cost_linear_work(shape: str) -> None:
    make, run = SHAPES[shape]
    counts = []
    for n in (200, 400):
        page = make(n)
        run(page, n)  # warm-up: lazy imports and compiled regexes are not the shape's cost
        counts.append(lines(lambda: run(page, n)))
    small, large = counts
    assert large < 2.3 * small, (small, large)


def test_a_large_group_is_named_in_part() -> None:
    """Each member of a large unnamed group gets a diagnostic; each names the first five
    members and how many more there are (the 40 inputs and the form's unnamed button), not
    all of them."""
    diagnostics = formtools.extract(form("<input>" * 40)).diagnostics
    details = [d.detail for d in diagnostics if d.code == "unnamed-dropped"]
    assert len(details) == 40
    assert all(detail is not None and detail.endswith(" and 36 more") for detail in details)


def test_unknown_keys_are_each_their_own_problem() -> None:
    """Each unknown key is reported once, naming itself only."""
    problems = formtools.validate_input(tool(required_texts(2), "html"), {"q0": "x", "q1": "y", "b": 1, "a": 2})
    assert [(p.field, p.flag, p.message) for p in problems] == [
        ("a", "unknownParameter", 'Additional properties are not allowed ("a" was unexpected)'),
        ("b", "unknownParameter", 'Additional properties are not allowed ("b" was unexpected)'),
    ]


def test_a_long_option_list_is_quoted_in_part() -> None:
    """A value not among 30 options: the message lists the first 20 and says how many."""
    problems = formtools.validate_input(tool(multiple_select(30), "html"), {"s": ["zz"]})
    shown = ", ".join(f'"o{i}"' for i in range(20))
    assert [p.message for p in problems] == [f'"zz" is not one of [{shown}, … 30 in all]']


@pytest.mark.parametrize("options", [5, 30])
def test_an_option_list_message_quotes_values_as_json_and_never_a_secret(options: int) -> None:
    """Options and values holding quotes are written as JSON, whole; a sensitive field's value
    is masked however long the option list (the cut list was once converted value by value,
    which rewrote the quotes inside the value itself so the mask no longer found it)."""
    listed = "<option>'b'</option><option>b</option>" + "".join(f"<option>o{i}</option>" for i in range(options))
    plain = tool(form(f"<select name=s>{listed}</select>"), "html")
    [problem] = formtools.validate_input(plain, {"s": "it's"})
    assert problem.message.startswith('"it\'s" is not one of ["\'b\'", "b", "o0"')
    secret = tool(form(f"<select name=s autocomplete=cc-exp-month>{listed}</select>"), "html")
    for value in ("4111 'b' 1111", "x'y", '"q"'):
        [problem] = formtools.validate_input(secret, {"s": value})
        assert problem.message.startswith('"[redacted]" is not one of'), problem.message
        assert value not in problem.message


class _CountedText(str):
    """A string that counts how often it is compared for equality (in C, where a line count
    sees nothing: ``value in a_list`` compares with every element)."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        _CountedText.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


@pytest.mark.parametrize("make", [multiple_select, checkboxes], ids=["select", "checkboxes"])
def test_a_call_compares_each_listed_value_with_the_options_once(make: Callable[[int], str]) -> None:
    """fill checked each listed value against the option list with ``in``: n values, n options,
    n² comparisons (in C). Counted through the values' own ``__eq__``, they must double with n."""
    counts = []
    for n in (500, 1_000):
        name, prefix = ("s", "o") if make is multiple_select else ("c", "v")
        t = tool(make(n))
        _CountedText.comparisons = 0
        formtools.prepare_call(t, {name: [_CountedText(f"{prefix}{i}") for i in range(n)]})
        counts.append(_CountedText.comparisons)
    assert counts[1] < 2.3 * max(counts[0], 1), counts


def test_values_json_cannot_hold_are_problems_not_crashes() -> None:
    """A Python caller's set or bytes among a list's items (JSON has neither) is reported as a
    wrong kind of value, never a TypeError from the duplicate check."""
    for profile in ("chromium", "html", "portable"):
        problems = formtools.validate_input(tool(checkboxes(3), profile), {"c": [{1}, b"v1", "v2"]})
        assert problems and all(p.field == "c" for p in problems), (profile, problems)


def _counted_keys(value: Any) -> Any:
    """A JSON schema whose property names and required names count their comparisons."""
    if isinstance(value, dict):
        return {_CountedText(k): _counted_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_CountedText(v) if isinstance(v, str) else _counted_keys(v) for v in value]
    return value


def test_problems_are_put_in_field_order_without_searching_the_fields() -> None:
    """validate_input ordered its problems by each field's place in a list of the properties
    (``list.index``, in C): n problems over n properties cost n² comparisons."""
    from dataclasses import replace

    from formtools._synth.tool import freeze, thaw

    counts = []
    for n in (300, 600):
        plain = tool(required_texts(n), "html")
        counted = replace(plain, input_schema=freeze(_counted_keys(thaw(plain.input_schema))))
        _CountedText.comparisons = 0
        assert len(formtools.validate_input(counted, {})) == n
        counts.append(_CountedText.comparisons)
    assert counts[1] < 2.3 * max(counts[0], 1), counts


_FOLDED_HEAD = """
from formtools._net.head import HeadReader

def prepare(n):
    return b"HTTP/1.1 200 OK\\r\\nX: a" + b"\\n b" * n + b"\\r\\n\\r\\n"

def run(head):
    reader = HeadReader()
    reader.request_sent()
    reader.feed(head)
"""


def test_an_answers_head_continued_by_many_folded_lines_is_copied_in_linear_work() -> None:
    """An answer's header line continued by n obs-fold lines was joined a line at a time, the
    value copied whole for each (bytes concatenation: 32k folds cost 10x at 4n, adv22). Counted
    as the memory pages the head's reading writes (each fold's copy is new pages), at 8k and
    32k folds: before the fix (2067ed6^) 1,749 and 222,744 pages, after 329 and 1,314."""
    small, large = (pages_written(_FOLDED_HEAD, n) for n in (8_000, 32_000))
    assert large < 6 * small, (small, large)
