"""The ``html`` profile: the schema HTML says, accepting a value iff the browser would.

Chromium's schemas (the ``chromium`` profile) are loose: unanchored patterns, regexes inside
``format``, placeholder options in enums, ``required`` copied from the attribute. This profile
keeps Chromium's registration and grouping rules and replaces the fragments, so that a tool
input is valid under the schema **iff** the browser, given that input the way ``executeTool``
fills it, keeps every value as given (value sanitization leaves it unchanged, a selected option
is not disabled) and ``form.checkValidity()`` is true. ``tests/test_html_profile_browser.py``
holds it to that against Chromium.

Where JSON Schema has no keyword, the rule is an ``x-`` keyword that formtools' validator
(:mod:`formtools._execute.validate`) enforces with the same predicates as execution
(:mod:`formtools._forms.values`):

- ``x-formtools-html-type``: the control type whose value sanitization must leave the value unchanged
  and whose typeMismatch / range / step rules apply (``email``, ``url``, ``date``, ``textarea``…).
- ``x-formtools-multiple``: an ``<input type=email multiple>`` (a comma-separated list).
- ``x-formtools-min`` / ``x-formtools-max`` / ``x-formtools-step``: the ``min``, ``max`` and ``step`` attributes, as written
  (``min``/``max`` only when they parse for the type; an invalid ``step`` means the default).
- ``x-formtools-step-base``: the step base: ``min`` when it parses, else the ``value`` attribute.
- ``x-formtools-address-pattern``: an e-mail list's pattern, which HTML checks address by address.

``minlength`` / ``maxlength`` are left out on purpose: Chromium does not enforce them on values
set by script (tooShort/tooLong need a user edit), so a schema with them would reject values
the browser accepts.

``required`` lists a parameter iff leaving it out fails constraint validation: the control's
current state (its ``default``) is invalid — a required field that is empty, a checkbox that
must be checked, a number whose value attribute is out of range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from formtools._synth.chromium import _NUMBER_STEP, CHROMIUM, _description, _label_text
from formtools._forms.state import FormState, controls_initial_state
from formtools._forms.model import Control, Form, placeholder_label_option
from formtools._synth.hints import INFERRED_KEY, hints_of
from formtools._forms.sensitive import is_sensitive, secret_by_name_only
from formtools._spec.microsyntax import (
    allowed_step,
    compiles_as_v_flag_regex,
    is_multiple,
    parse_float,
    step_base,
)
from formtools._synth.profile import Group, register_profile
from formtools._forms.validity import invalid_controls, is_candidate
from formtools._forms.values import value_as_number

__all__ = ["HTML", "anchored"]

_PATTERN_TYPES = frozenset({"text", "search", "url", "tel", "email", "password"})
_DATE = "[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME = "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,3})?)?"
# The shape of a value each type's sanitization keeps (empty is one); the calendar (30 February, year 0,
# normalized datetime-local) is left to x-formtools-html-type.
_TEMPORAL_PATTERNS: Mapping[str, str] = MappingProxyType(
    {
        "date": f"^(?:{_DATE})?$",
        "month": "^(?:[0-9]{4,}-(0[1-9]|1[0-2]))?$",
        "week": "^(?:[0-9]{4,}-W(0[1-9]|[1-4][0-9]|5[0-3]))?$",
        "time": f"^(?:{_TIME})?$",
        "datetime-local": f"^(?:{_DATE}T{_TIME})?$",
    }
)
_TEXT_FORMATS: Mapping[str, str] = MappingProxyType({"email": "email", "url": "uri"})


def anchored(pattern: str) -> str:
    """The pattern attribute as HTML applies it: against the whole value."""
    return f"^(?:{pattern})$"


# ---- the group's current state ---------------------------------------------------------------


def _state(group: Group) -> FormState:
    """The page's initial state of the group's controls and their radio peers (a form of just
    them, in tree order)."""
    return controls_initial_state(tuple(sorted((*group.controls, *group.peers), key=lambda c: c.index)))


def _required(group: Group) -> bool:
    """Leaving the parameter out fails validation: its current state is invalid (a value
    formtools cannot check counts as valid: a call leaving it is refused as it is validated)."""
    return bool(invalid_controls(_state(group), unknown_as_valid=True))


# ---- titles and descriptions ------------------------------------------------------------------


def _texts(group: Group) -> dict[str, Any]:
    """``title`` and ``description``: toolparamtitle / aria-label, then toolparamdescription,
    the labels, aria-description, title and placeholder (Chromium's order, then the rest)."""
    attributes = group.first.attributes if len(group.controls) == 1 else {}
    out: dict[str, Any] = {}
    title = attributes.get("toolparamtitle") or attributes.get("aria-label")
    if title:
        out["title"] = title
    description = (
        _description(group) or attributes.get("title") or attributes.get("placeholder") or None
    )
    if description:
        out["description"] = description
    return out


def _finish(schema: dict[str, Any], group: Group, default: Any) -> dict[str, Any]:
    secrets = [c for c in group.controls if is_sensitive(c)]
    if secrets:
        # a secret is marked, and neither its current value nor suggestions are shown
        schema.update(_texts(group))
        schema["writeOnly"] = True
        if all(secret_by_name_only(c) for c in secrets):
            schema[INFERRED_KEY] = ["writeOnly"]  # the name's guess, not the page's word
        return schema
    if default is not None:
        schema["default"] = default
    # a datalist suggests values, it never restricts them
    texts = list(dict.fromkeys(group.first.suggestions))
    suggestions: list[str] | list[float] = texts
    if schema["type"] in ("number", "integer"):
        suggestions = [number for number in map(parse_float, texts) if number is not None]
    if suggestions:
        schema["examples"] = suggestions
    schema.update(_texts(group))
    return schema


# ---- fragments ---------------------------------------------------------------------------------


def _valid_for(kind: str, text: str | None) -> str | None:
    return text if text is not None and value_as_number(kind, text) is not None else None


def _range_keywords(control: Control, kind: str) -> dict[str, Any]:
    """x-formtools-min, x-formtools-max, x-formtools-step, x-formtools-step-base: the attributes that matter, as written."""
    attributes = control.attributes
    low, high = _valid_for(kind, attributes.get("min")), _valid_for(kind, attributes.get("max"))
    out: dict[str, Any] = {}
    if low is not None:
        out["x-formtools-min"] = low
    if high is not None:
        out["x-formtools-max"] = high
    if "step" in attributes:
        out["x-formtools-step"] = attributes["step"]
    base = low if low is not None else _valid_for(kind, attributes.get("value"))
    if base is not None:
        out["x-formtools-step-base"] = base
    return out


def _value_default(group: Group) -> str | None:
    value = _state(group).of(group.first).value
    return value or None


def _text(group: Group) -> dict[str, Any]:
    control = group.first
    kind = control.type if control.tag == "input" else "text"
    schema: dict[str, Any] = {"type": "string", "x-formtools-html-type": kind}
    multiple = kind == "email" and control.has("multiple")
    if multiple:
        schema["x-formtools-multiple"] = True
    elif kind in _TEXT_FORMATS:
        schema["format"] = _TEXT_FORMATS[kind]
    pattern = control.attributes.get("pattern")
    if pattern is not None and kind in _PATTERN_TYPES and compiles_as_v_flag_regex(pattern):
        if multiple:
            schema["x-formtools-address-pattern"] = anchored(pattern)
        else:  # an empty value never mismatches: only a required one may not be empty
            schema["pattern"] = (
                anchored(pattern) if control.has("required") else f"^(?:{pattern})?$"
            )
    if control.has("required"):
        schema["minLength"] = 1
    return _finish(schema, group, _value_default(group))


def _hidden(group: Group) -> dict[str, Any]:
    return _finish({"type": "string"}, group, group.first.attributes.get("value") or None)


def _textarea(group: Group) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "x-formtools-html-type": "textarea"}
    if group.first.has("required"):
        schema["minLength"] = 1
    return _finish(schema, group, _value_default(group))


def _temporal(group: Group) -> dict[str, Any]:
    control = group.first
    kind = control.type
    schema: dict[str, Any] = {
        "type": "string",
        "pattern": _TEMPORAL_PATTERNS[kind],
        "x-formtools-html-type": kind,
    }
    if control.has("required"):
        schema["minLength"] = 1
    schema.update(_range_keywords(control, kind))
    return _finish(schema, group, _value_default(group))


def _color(group: Group) -> dict[str, Any]:
    schema = {"type": "string", "pattern": "^#[0-9a-f]{6}$", "x-formtools-html-type": "color"}
    return _finish(schema, group, _value_default(group))


def _numeric(bounds: Callable[[Mapping[str, str]], tuple[float | None, float | None]]) -> Any:
    def build(group: Group) -> dict[str, Any]:
        control = group.first
        attributes = control.attributes
        step = allowed_step(attributes.get("step"), _NUMBER_STEP)
        base = step_base(attributes.get("min"), attributes.get("value"), _NUMBER_STEP)
        # beyond 2**52 Chromium stops checking steps (StepRange: the quotient loses its units)
        integral = (
            step is not None and is_multiple(step, Decimal(1)) and is_multiple(base, Decimal(1)) and base.copy_abs() < 2**52
        )
        schema: dict[str, Any] = {"type": "integer" if integral else "number"}
        low, high = bounds(attributes)
        if low is not None:
            schema["minimum"] = low
        if high is not None:
            schema["maximum"] = high
        if integral and step is not None and step != 1 and is_multiple(base, step):
            schema["multipleOf"] = int(step)
        schema["x-formtools-html-type"] = control.type
        schema.update(_range_keywords(control, control.type))
        default = _value_default(group)
        return _finish(schema, group, None if default is None else parse_float(default))

    return build


def _number_bounds(attributes: Mapping[str, str]) -> tuple[float | None, float | None]:
    return parse_float(attributes.get("min")), parse_float(attributes.get("max"))


def _range_bounds(attributes: Mapping[str, str]) -> tuple[float | None, float | None]:
    low, high = _number_bounds(attributes)
    low = 0.0 if low is None else low
    high = 100.0 if high is None else high
    return low, max(low, high)


def _entries(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """enum (first occurrence of each value) with titles as anyOf entries."""
    seen: dict[str, str] = {}
    for value, title in pairs:
        seen.setdefault(value, title)
    entries = []
    for value, title in seen.items():
        entry: dict[str, Any] = {"const": value}
        if title:
            entry["title"] = title
        entries.append(entry)
    return {"type": "string", "enum": list(seen), "anyOf": entries}


def _option_pairs(control: Control, *, every_match: bool) -> list[tuple[str, str]]:
    """Values a script can select and keep: ``select.value = v`` selects the first option with
    that value, a multiple selection every one; a disabled option is never submitted, and a
    required drop-down's placeholder label option alone is missing a value."""
    pairs: dict[str, str] = {}
    refused: set[str] = set()
    has_placeholder = placeholder_label_option(control) is not None
    for position, option in enumerate(control.options):
        value = option.value
        placeholder = has_placeholder and position == 0  # the placeholder is the first option
        if placeholder or (option.disabled and (every_match or value not in pairs)):
            refused.add(value)
        elif value not in refused:
            pairs.setdefault(value, option.text)
    return [(value, title) for value, title in pairs.items() if value not in refused]


def _selected_values(group: Group) -> list[str]:
    control = group.first
    flags = _state(group).of(control).selected
    return [o.value for o, flag in zip(control.options, flags) if flag]


def _select_one(group: Group) -> dict[str, Any]:
    control = group.first
    schema = _entries(_option_pairs(control, every_match=False))
    current = next((v for v in _selected_values(group) if v in schema["enum"]), None)
    return _finish(schema, group, current)


def _select_multiple(group: Group) -> dict[str, Any]:
    control = group.first
    items = _entries(_option_pairs(control, every_match=True))
    schema: dict[str, Any] = {"type": "array", "items": items, "uniqueItems": True}
    if control.has("required"):
        schema["minItems"] = 1
    return _finish(schema, group, _selected_values(group))


def _choice_value(control: Control) -> str:
    return control.attributes.get("value", "on")


def _checkbox(group: Group) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "boolean"}
    if group.first.has("required") and is_candidate(group.first):  # (readonly bars it)
        schema["const"] = True
    return _finish(schema, group, _state(group).of(group.first).checked)


def _checkbox_group(group: Group) -> dict[str, Any]:
    pairs = [(_choice_value(c), _label_text(c)) for c in group.controls]
    schema: dict[str, Any] = {"type": "array", "items": _entries(pairs), "uniqueItems": True}
    musts = list(
        dict.fromkeys(_choice_value(c) for c in group.controls if c.has("required") and is_candidate(c))
    )
    if musts:
        schema["allOf"] = [{"contains": {"const": value}} for value in musts]
    state = _state(group)
    checked = [_choice_value(c) for c in group.controls if state.of(c).checked]
    return _finish(schema, group, list(dict.fromkeys(checked)))


def _radio(group: Group) -> dict[str, Any]:
    """The values whose radio button, checked as a call checks it (the first with the value;
    the group's others unchecked), leaves every radio group it touches valid: a required
    group whose name differs from another's only in spaces ("r" and " r", one parameter) is
    left missing by a value of the other."""
    state = _state(group)
    first: dict[str, Control] = {}
    for control in group.controls:
        first.setdefault(_choice_value(control), control)
    # Checking one radio satisfies its own group (its exact name) and no other, so the groups
    # left missing with none of the parameter's radios checked decide every value at once
    # (validating the form once per value made a group of n radios cost n²).
    cleared = state.with_states({c.index: replace(state.of(c), checked=False) for c in group.controls})
    missing = {problem.control.attributes.get("name") for problem in invalid_controls(cleared)}
    kept = [
        (value, _label_text(control))
        for value, control in first.items()
        if missing <= {control.attributes.get("name")}
    ]
    schema = _entries(kept)
    checked = next((_choice_value(c) for c in group.controls if state.of(c).checked), None)
    return _finish(schema, group, checked)


def _annotations(form: Form) -> dict[str, Any]:
    """Chromium's ``autosubmit`` and the hints a client needs to decide how to call the tool."""
    return {"autosubmit": "toolautosubmit" in form.attributes, **hints_of(form).to_dict()}


HTML = register_profile(
    CHROMIUM.extend(
        "html",
        summary="the schema HTML says: valid iff the browser's constraint validation accepts",
        fragments={
            "text": _text,
            "hidden": _hidden,
            "textarea": _textarea,
            "date": _temporal,
            "time": _temporal,
            "datetime-local": _temporal,
            "month": _temporal,
            "week": _temporal,
            "color": _color,
            "number": _numeric(_number_bounds),
            "range": _numeric(_range_bounds),  # step=any allows any value here, unlike the slider
            "select-one": _select_one,
            "select-multiple": _select_multiple,
            "checkbox": _checkbox,
            "checkbox-group": _checkbox_group,
            "radio": _radio,
        },
        required=_required,
        annotations=_annotations,
        closed=True,
        says_unsatisfiable=True,
        # the schema is the contract: Chromium's fill would take "5" for a number input and 1
        # for a checkbox, which the typed schema rejects; a call under html rejects them too
        enforces_schema=True,
        # HTML selects the options with the given values; Chromium 156 selects by position
        # among the list items, so a value after an optgroup selects its neighbour
        selects_by_value=True,
    )
)
