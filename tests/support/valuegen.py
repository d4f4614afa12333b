"""Seeded random forms built to stress values and validity, with candidate tool inputs.

Why this exists: ``formgen`` draws pages for *registration* (names, labels, owners, grouping),
and ``record_value_rules`` draws single ``input.value = X`` assignments. Neither puts odd
attribute syntax and odd JSON values through the whole call: fill, constraint validation, the
``html`` schema and the submitted body. This generator does. Each form holds one to three
controls whose attributes come from pools of real but odd syntax (``step=" 1"``, ``"1e1"``,
``"0x1"``, ``"ANY"``, ``min`` above ``max``, invalid and ``v``-flag patterns, ``minlength``
above ``maxlength``, options that are disabled, duplicated or placeholders, a disabled fieldset
with its first-legend exception), and each form comes with candidate inputs: strings with
surrounding whitespace and CR/LF, numbers as numbers and as strings, impossible dates, 24:00,
upper-case colors, booleans, ``null``, arrays with duplicates and unknown items, missing and
extra keys.

Determinism: everything comes from the ``random.Random`` seeded with the page number; no clock,
no set iteration. ``value_pages(count, seed)`` gives ``(name, html, cases)`` where ``cases`` is a
list of ``(tool_name, tool_input)``; every form is ``toolautosubmit`` with a submit button, so a
valid call submits.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ValueForm", "choice_pages", "value_pages"]

# --- attribute pools: what pages write, odd spellings included --------------------------------

NUMBER_ATTRS = [" 1", "1e1", "+1", ".5", "1.", "0x1", "any", "ANY", "-1", "0", "1e400", "2", "0.1",
                "10", "", "abc", "1e-7", "100", "3", "-5", "0.25", "7", "1E2", "5 "]  # fmt: skip
TEMPORAL_ATTRS = {
    "date": ["2024-02-29", "2023-02-29", "2024-01-01", "0001-01-01", "275760-09-13", "275760-09-14",
             "2024-1-1", " 2024-01-01", "2025-12-31", "2024-02-30", "1969-12-31"],
    "month": ["2024-02", "2024-13", "0001-01", "275760-09", "2024-2", "1970-01", "2030-12"],
    "week": ["2024-W01", "2020-W53", "2021-W53", "2024-W52", "2024-W5", "1970-W01", "2026-W53"],
    "time": ["00:00", "12:30", "23:59", "24:00", "10:30:15", "10:30:15.5", "9:30", "23:59:59.999",
             "18:00", "06:00"],
    "datetime-local": ["2024-01-01T10:30", "2024-01-01 10:30", "2024-02-30T00:00", "1970-01-01T00:00",
                       "2024-01-01T24:00", "2024-12-31T23:59:59.999", "275760-09-13T00:00"],
}  # fmt: skip
TEMPORAL_STEPS = ["1", "60", "86400", "2", "0.5", "any", "ANY", "7", "900", "3600", "-1", "0", "1e1",
                  "abc", " 60"]  # fmt: skip
PATTERNS = ["[a-z]+", "^[a-z]+$", "[0-9]{3}", "\\d+", "a|b", "(", "[", "\\p{L}+", "\\p{Lu}",
            "[\\p{L}--[a-z]]+", "[[a-z]&&[aeiou]]+", "(?<=a)b", "(?<!x).+", ".*", "", "\\q{ab}",
            "[^]", "a{2,1}", "\\w+@\\w+", "[\\w-]+", "\\u{1F600}", ".", "ab?", "(?i:a)", "\\S+",
            "[a-z]+\\d?"]  # fmt: skip
LENGTHS = ["0", "1", "2", "3", "5", "-1", "abc", "", " 2", "10"]
TEXT_VALUES = ["", "abc", " abc ", "a\nb", "ABC", "x@y.example", "http://a.example/", "123", "é"]


@dataclass
class ValueForm:
    """One form: its markup and the inputs to try on it."""

    tool: str
    markup: str
    cases: list[dict[str, Any]] = field(default_factory=list)


def _attr(name: str, value: str | bool | None) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return f" {name}"
    return f' {name}="{html.escape(value, quote=True)}"'


def _maybe(rng: random.Random, p: float, value: str | bool) -> str | bool | None:
    return value if rng.random() < p else None


def _state(rng: random.Random) -> str:
    return (
        _attr("required", _maybe(rng, 0.4, True))
        + _attr("readonly", _maybe(rng, 0.08, True))
        + _attr("disabled", _maybe(rng, 0.05, True))
    )


# --- candidate JSON values per kind ------------------------------------------------------------

_ANY_VALUES: list[Any] = [None, True, False, [], ["a"], {}, "", " ", 0, 1, -0.0, [1], [None], ["a", "a"],
                          [["a"]], "a", 1.5, {"a": 1}, [True]]
_STRINGS = [" 1", "1 ", "\n1", "1\r\n", "01", "1e3", "-0", ".5", "1.", "+1", "0x1", "1e400", "abc",
            "2024-02-30", "0001-01-01", "275760-09-13", "275760-09-14", "2024-W53", "2020-W53",
            "2024-W52", "10:30:00", "10:30:00.000", "10:30:00.5", "24:00", "00:00", "23:59:59.999",
            "2024-01-01T10:30", "2024-01-01 10:30", "2024-01-01T10:30:00", "2024-02", "2024-13",
            "#ABCDEF", "#abc", "#abcdef", "red", "a@b.example", " a@b.example", "a@b.example,c@d.example",
            "a@b.example, c@d.example", "a@b", "ä@b.example", "http://x.example/", "x.example",
            " http://x.example/ ", "mailto:a", "a b", "a\nb", "a\rb", "a\r\nb", "abc\n", "ß", "ABC",
            "\ta@b.example", "a@b.example\f", "\u00a0a@b.example", "1\u00a0", "\t1", "\f1",
            "http://x.example/\t", "http://x.example/\f", "a\u0000b", "a\u2028b", "\ufeff1", "\u0661",
            "\uff11", "a@b\u00fc.example", "a@[1.2.3.4]", "a@-b.example", "http://[::1]/", "http:x",
            "1,5", "1_000", "Infinity", "NaN", "-Infinity", "1e-400", "0.1e1", "2024-02-29T10:30:00.0001",
            "002024-01-01", "+2024-01-01", "2024-W01-1", "T10:30", "10:30Z", "#abcdef00", "#ABCDEF "]  # fmt: skip
_NUMBERS: list[Any] = [0, 1, -1, 2, 3, 5, 7, 10, 100, 0.5, 0.1, 0.25, 1.5, -5, 1e3, 1e21, 12345.675, 1e-7,
                       123456.7, 1.0000001, 2**53, 9.5, 60, 86400, 99.99]  # fmt: skip


def _value_pool(rng: random.Random, kind: str, extra: list[Any]) -> list[Any]:
    pool: list[Any] = list(extra)
    if kind in ("number", "range"):
        pool += rng.sample(_NUMBERS, 6) + rng.sample(_STRINGS, 3)
    elif kind == "checkbox":
        pool += [True, False, "true", "false", "on", 1, 0, "TRUE"]
    elif kind in ("select-multiple", "checkbox-group"):
        pool += [[], ["zz"], [1], [None], [True], "a", ["1"], [" a"], ["a", 1]]
    else:
        pool += rng.sample(_STRINGS, 8) + rng.sample(_NUMBERS, 1)
    pool += rng.sample(_ANY_VALUES, 2)
    return pool


# --- controls ----------------------------------------------------------------------------------

Control = tuple[str, str, list[Any]]  # markup, kind for values, kind-specific good values


def _text_like(rng: random.Random, name: str) -> Control:
    type_ = rng.choice(["text", "search", "email", "email", "url", "tel", "password", "TEXT", "Email"])
    attrs = _attr("type", type_) + _attr("name", name) + _state(rng)
    if type_.lower() == "email":
        attrs += _attr("multiple", _maybe(rng, 0.5, True))
    attrs += _attr("pattern", _maybe(rng, 0.4, rng.choice(PATTERNS)))
    attrs += _attr("minlength", _maybe(rng, 0.2, rng.choice(LENGTHS)))
    attrs += _attr("maxlength", _maybe(rng, 0.2, rng.choice(LENGTHS)))
    attrs += _attr("value", _maybe(rng, 0.3, rng.choice(TEXT_VALUES + _STRINGS)))
    if rng.random() < 0.1:
        attrs += _attr("list", "dl-" + name)
        return (f"<input{attrs}><datalist id=dl-{name}><option value=abc><option value=x@y.example disabled>"
                f"</datalist>", "text", ["abc", "a", "b", "ab", "x@y.example", "aé"])
    return f"<input{attrs}>", "text", ["a", "b", "ab", "aeiou", "a1", "x@y.example", "a@b.c,d@e.f"]


def _decimal(rng: random.Random) -> str:
    """A number as a page might write it: sign, digits, fraction, exponent, in any mix."""
    text = rng.choice(["", "-", "+"]) + str(rng.randint(0, 10 ** rng.randint(0, 4)))
    if rng.random() < 0.5:
        text += "." + str(rng.randint(0, 999)).rjust(rng.randint(1, 3), "0")
    if rng.random() < 0.2:
        text += rng.choice(["e", "E"]) + rng.choice(["", "-", "+"]) + str(rng.randint(0, 3))
    return text


def _near(rng: random.Random, attributes: dict[str, str]) -> list[Any]:
    """Numbers near the edges the attributes set: min, max and steps from the base."""
    def number(text: str | None) -> float | None:
        try:
            value = float(text) if text is not None else None
        except ValueError:
            return None
        return value if value is not None and abs(value) < 1e15 else None

    low, high, base = number(attributes.get("min")), number(attributes.get("max")), number(attributes.get("value"))
    step = number(attributes.get("step")) or 1.0
    step = step if step > 0 else 1.0
    start = low if low is not None else (base if base is not None else 0.0)
    out: list[Any] = []
    for anchor in (low, high, start):
        if anchor is not None:
            out += [anchor, anchor - step, anchor + step, anchor + step / 2]
    out += [start + step * rng.randint(-3, 30) for _ in range(3)]
    out = [int(v) if float(v).is_integer() and abs(v) < 2**53 else round(v, 12) for v in out]
    return out + [str(v) for v in out[:2]]


def _numeric(rng: random.Random, name: str) -> Control:
    type_ = rng.choice(["number", "number", "range"])
    attrs = _attr("type", type_) + _attr("name", name) + _state(rng)
    written: dict[str, str] = {}
    for key in ("min", "max", "step", "value"):
        if rng.random() < 0.5:
            written[key] = rng.choice(NUMBER_ATTRS) if rng.random() < 0.6 else _decimal(rng)
            attrs += _attr(key, written[key])
    return f"<input{attrs}>", type_, _near(rng, written)


def _temporal(rng: random.Random, name: str) -> Control:
    type_ = rng.choice(list(TEMPORAL_ATTRS))
    pool = TEMPORAL_ATTRS[type_]
    attrs = _attr("type", type_) + _attr("name", name) + _state(rng)
    for key in ("min", "max", "value"):
        attrs += _attr(key, _maybe(rng, 0.45, rng.choice(pool)))
    attrs += _attr("step", _maybe(rng, 0.5, rng.choice(TEMPORAL_STEPS)))
    return f"<input{attrs}>", type_, list(pool)


def _color(rng: random.Random, name: str) -> Control:
    value = _maybe(rng, 0.5, rng.choice(["#ABCDEF", "#abc", "red", "#00ff00", ""]))
    return (f"<input type=color{_attr('name', name)}{_state(rng)}{_attr('value', value)}>", "color",
            ["#000000", "#ABCDEF", "#abc", "#abcdef", "#00FF00"])  # fmt: skip


def _checkbox(rng: random.Random, name: str) -> Control:
    attrs = _attr("name", name) + _state(rng) + _attr("checked", _maybe(rng, 0.3, True))
    attrs += _attr("value", _maybe(rng, 0.3, rng.choice(["yes", "", " x "])))
    return f"<input type=checkbox{attrs}>", "checkbox", []


def _group(rng: random.Random, name: str) -> Control:
    kind = rng.choice(["radio", "checkbox"])
    values = [rng.choice(["a", "b", "c", "", " a", "A", "1", "true", "on"]) for _ in range(rng.randint(2, 4))]
    members = []
    checked_done = False
    for value in values:
        checked = rng.random() < 0.25 and not (kind == "radio" and checked_done)
        checked_done = checked_done or checked
        members.append(
            f"<input type={kind}{_attr('name', name)}{_attr('value', value)}"
            f"{_attr('required', _maybe(rng, 0.3, True))}{_attr('disabled', _maybe(rng, 0.1, True))}"
            f"{_attr('checked', checked)}>"
        )
    description = f'<fieldset toolparamdescription="group {name}">' if rng.random() < 0.5 else "<fieldset>"
    good = sorted(set(values))
    extra: list[Any] = (list(good) + ["zz", 1, True, 1.0] if kind == "radio"
                        else [good, good[:1], good * 2, [v.upper() for v in good], [1], [True], "a"])
    return description + "".join(members) + "</fieldset>", "radio" if kind == "radio" else "checkbox-group", extra


def _select(rng: random.Random, name: str) -> Control:
    multiple = rng.random() < 0.35
    options = []
    values = []
    if rng.random() < 0.4:
        options.append("<option value=''>Pick one</option>")
        values.append("")
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(["a", "b", "c", " d ", "a"])
        no_value = rng.random() < 0.2
        value = text if no_value else rng.choice(["a", "b", "c", "", "a ", "1", "true", "null", "1.0"])
        values.append(value.strip() if no_value else value)
        option = (f"<option{'' if no_value else _attr('value', value)}{_attr('disabled', _maybe(rng, 0.15, True))}"
                  f"{_attr('selected', _maybe(rng, 0.15, True))}>{html.escape(text)}</option>")  # fmt: skip
        if rng.random() < 0.2:
            option = f"<optgroup label=g{_attr('disabled', _maybe(rng, 0.5, True))}>{option}</optgroup>"
        options.append(option)
    attrs = _attr("name", name) + _attr("multiple", multiple) + _state(rng)
    attrs += _attr("size", _maybe(rng, 0.15, rng.choice(["1", "2", "4"])))
    good = sorted(set(values))
    extra: list[Any] = [good, good[:1], good[:1] * 2, ["zz"]] if multiple else good + ["zz"]
    return f"<select{attrs}>{''.join(options)}</select>", "select-multiple" if multiple else "select-one", extra


def _textarea(rng: random.Random, name: str) -> Control:
    attrs = _attr("name", name) + _state(rng)
    attrs += _attr("minlength", _maybe(rng, 0.2, rng.choice(LENGTHS)))
    attrs += _attr("maxlength", _maybe(rng, 0.2, rng.choice(LENGTHS)))
    content = rng.choice(["", "abc", "a\r\nb", "\nlead", "x\ry"]) if rng.random() < 0.4 else ""
    return f"<textarea{attrs}>{html.escape(content)}</textarea>", "textarea", ["a\r\nb", "a\rb", "\n", "\na"]


def _hidden(rng: random.Random, name: str) -> Control:
    value = _maybe(rng, 0.6, rng.choice(["x", "", " a\r\nb "]))
    return (f'<input type=hidden{_attr("name", name)}{_attr("value", value)} toolparamdescription="h">',
            "hidden", ["a", "a\nb"])  # fmt: skip


_CONTROLS: list[tuple[float, Callable[[random.Random, str], Control]]] = [
    (4, _text_like), (4, _numeric), (4, _temporal), (1, _color), (1.5, _checkbox), (2, _group),
    (2.5, _select), (1.5, _textarea), (0.7, _hidden),
]  # fmt: skip


def _wrap(rng: random.Random, markup: str) -> str:
    """Sometimes inside a disabled fieldset, inside or outside its first legend."""
    roll = rng.random()
    if roll < 0.06:
        return f"<fieldset disabled><legend>L {markup}</legend></fieldset>"
    if roll < 0.1:
        return f"<fieldset disabled><legend>L</legend>{markup}</fieldset>"
    if roll < 0.12:
        return f"<fieldset disabled><legend>L</legend><legend>{markup}</legend></fieldset>"
    return markup


def _form(rng: random.Random, number: int) -> ValueForm:
    tool = f"t{number}"
    parts = []
    pools: dict[str, list[Any]] = {}
    for index in range(rng.choices([1, 2, 3], weights=[5, 3, 1])[0]):
        name = f"p{index}"
        make = rng.choices([m for _, m in _CONTROLS], weights=[w for w, _ in _CONTROLS])[0]
        markup, kind, good = make(rng, name)
        parts.append(_wrap(rng, markup))
        pools[name] = _value_pool(rng, kind, good)
    novalidate = _attr("novalidate", _maybe(rng, 0.05, True))
    method = rng.choice(["", " method=post", " method=post enctype=multipart/form-data"])
    markup = (f'<form toolname="{tool}" tooldescription="d" toolautosubmit action="/submit/{tool}"'
              f"{method}{novalidate}>{''.join(parts)}<button>Go</button></form>")  # fmt: skip
    form = ValueForm(tool, markup)
    names = list(pools)
    form.cases.append({})
    for name in names:
        for value in pools[name]:
            form.cases.append({name: value})
    for _ in range(4):  # several keys at once, sometimes an unknown one
        case = {name: rng.choice(pools[name]) for name in names if rng.random() < 0.8}
        if rng.random() < 0.2:
            case[rng.choice(["zz", "P0", " p0"])] = "x"
        form.cases.append(case)
    return form


def value_pages(count: int, seed: int, forms_per_page: int = 6) -> Iterator[tuple[str, str, list[ValueForm]]]:
    """``count`` pages of ``forms_per_page`` forms each, drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    for page in range(count):
        forms = [_form(rng, number) for number in range(forms_per_page)]
        body = "\n".join(form.markup for form in forms)
        yield f"values-{seed}-{page}", f"<!doctype html><meta charset=utf-8>\n{body}\n", forms


def choice_pages(count: int, seed: int) -> Iterator[tuple[str, str, list[ValueForm]]]:
    """``count`` pages of one form around a select, multiple or not: options and optgroups
    (some disabled, empty or first), duplicate values, preselected options, with inputs that
    pick subsets of the values in either order, duplicates and unknown values. How a call
    selects options is where Chromium's fill departs from HTML's (an optgroup shifts a
    multi-select's selection), so these pages exercise exactly that."""
    rng = random.Random(seed)
    for page in range(count):
        multiple = rng.random() < 0.75
        parts: list[str] = []
        values: list[str] = []
        for _ in range(rng.randint(2, 6)):
            roll = rng.random()
            if roll < 0.3:
                inner = []
                for _ in range(rng.randint(0, 3)):
                    value = rng.choice("abcde")
                    values.append(value)
                    inner.append(f"<option{_attr('disabled', _maybe(rng, 0.15, True))}"
                                 f"{_attr('selected', _maybe(rng, 0.2, True))}>{value}</option>")  # fmt: skip
                disabled = _attr("disabled", _maybe(rng, 0.2, True))
                parts.append(f"<optgroup label=g{disabled}>{''.join(inner)}</optgroup>")
            else:
                value = rng.choice("abcde")
                values.append(value)
                parts.append(f"<option{_attr('disabled', _maybe(rng, 0.15, True))}"
                             f"{_attr('selected', _maybe(rng, 0.2, True))}>{value}</option>")  # fmt: skip
        known = sorted(set(values)) or ["a"]
        required = _attr("required", _maybe(rng, 0.3, True))
        markup = (f'<form toolname="t" tooldescription="d" toolautosubmit action="/submit">'
                  f"<select name=p{_attr('multiple', multiple)}{required}>{''.join(parts)}</select>"
                  f"<button>Go</button></form>")  # fmt: skip
        form = ValueForm("t", markup)
        for _ in range(4):
            chosen = rng.sample(known, rng.randint(0 if multiple else 1, len(known)))
            form.cases.append({"p": chosen if multiple else chosen[0]})
        form.cases.append({"p": [known[0], "zz"] if multiple else "zz"})
        yield f"choice-{seed}-{page}", f"<!doctype html><meta charset=utf-8>\n{markup}\n", [form]
