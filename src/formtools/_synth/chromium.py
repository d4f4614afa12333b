"""The ``chromium`` profile: what Chromium 156 registers, byte for byte.

Every rule here was checked against the browser (``scripts/record_chromium.py`` records the
expected outputs; ``tests/test_browser_parity.py`` compares live). Chromium's output is loose —
patterns stay unanchored, email gets no format, placeholders stay in enums — and that is the
point of this profile: it says what an agent talking to Chrome actually sees.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from formtools._forms.model import Container, Control, Form
from formtools._spec.microsyntax import (
    StepRule,
    allowed_step,
    compiles_as_v_flag_regex,
    is_multiple,
    parse_float,
    step_base,
)
from formtools._synth.profile import Group, Profile, register_profile

__all__ = ["CHROMIUM"]

_TEXT_LIKE = frozenset({"text", "search", "tel", "email", "url", "password"})
_NOT_PARAMETERS = frozenset({"file", "image", "reset", "button", "submit"})
_DATE_NOTE = "Dates MUST be provided in 'YYYY-MM-DD' format."
_NUMBER_STEP = StepRule(default=Decimal(1), scale=Decimal(1))
_RANGE_STEP = StepRule(default=Decimal(1), scale=Decimal(1), any_is_default=True)
_TIME_STEP = StepRule(default=Decimal(60), scale=Decimal(1))

_TIME_MINUTES = "([01][0-9]|2[0-3]):[0-5][0-9]"
_TIME_FORMATS = (  # (step below, regex body) — the first row whose bound the step is under
    (Decimal(1), _TIME_MINUTES + "(:[0-5][0-9](\\.[0-9]{1,3})?)?$"),
    (Decimal(60), _TIME_MINUTES + "(:[0-5][0-9])?$"),
)
_FIXED_FORMATS = {
    "month": "^[0-9]{4}-(0[1-9]|1[0-2])$",
    "week": "^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$",
    "color": "^#[0-9a-zA-Z]{6}$",
}


# ---- skipping and grouping -------------------------------------------------------------------


def _skip(control: Control) -> str | None:
    if control.tag == "object":
        return "unsupported-type"  # listed, but not a form control: it never joins a group
    if control.disabled:
        return "disabled"
    if control.readonly:
        return "readonly"
    return None


def _kind_of(control: Control) -> str:
    """The input type, select-one / select-multiple, or the tag (textarea, button, …)."""
    return control.type if control.tag in ("input", "select") else control.tag


def _classify(group: Group) -> tuple[str, str | None]:
    """The group's kind, or ("", diagnostic code) when it is not a parameter."""
    controls = group.controls
    kinds = {_kind_of(c) for c in controls}
    if any(c.tag in ("button", "output", "fieldset") or c.is_button for c in controls):
        if len(controls) == 1:
            return "", "button" if controls[0].is_button else "not-submittable"
        return "", "shares-name-with-button"
    if len(kinds) > 1:
        return "", "mixed-types"
    kind = kinds.pop()
    if kind in ("checkbox", "radio"):
        if kind == "checkbox" and len(controls) > 1:
            return "checkbox-group", None
        return kind, None
    if len(controls) > 1:
        return "", "duplicate-name"
    if kind in _NOT_PARAMETERS:
        return "", "unsupported-type"
    if kind == "hidden" and not controls[0].attributes.get("toolparamdescription"):
        return "", "hidden-without-description"
    if kind in _TEXT_LIKE:
        return "text", None
    return kind, None


# ---- descriptions ----------------------------------------------------------------------------


def _label_text(control: Control) -> str:
    return "; ".join(control.labels)


def control_description(control: Control) -> str | None:
    """toolparamdescription, else the label text, else aria-description (non-empty only)."""
    return (
        control.attributes.get("toolparamdescription")
        or _label_text(control)
        or control.attributes.get("aria-description")
        or None
    )


def group_fieldset(group: Group) -> Container | None:
    """The fieldset a group of radios or checkboxes takes its description from: the members'
    nearest common form-or-fieldset ancestor, when that is a fieldset."""
    chains = [c.containers for c in group.controls]
    common: list[Container] = []
    for links in zip(*chains):
        if any(link.index != links[0].index for link in links):
            break
        common.append(links[0])
    if not common or common[-1].tag == "form":
        return None
    return common[-1]


def _fieldset_description(group: Group) -> str | None:
    """From the members' nearest common ancestor up to the first fieldset, stopping at a form."""
    fieldset = group_fieldset(group)
    return (fieldset.attributes.get("toolparamdescription") or None) if fieldset is not None else None


def _description(group: Group) -> str | None:
    if len(group.controls) > 1:
        return _fieldset_description(group)
    return control_description(group.first)


def _with_description(schema: dict[str, Any], group: Group) -> dict[str, Any]:
    description = _description(group)
    if description is not None:
        schema["description"] = description
    return schema


# ---- fragments -------------------------------------------------------------------------------


def _pattern(schema: dict[str, Any], control: Control) -> dict[str, Any]:
    pattern = control.attributes.get("pattern")
    if pattern is not None and control.tag == "input" and compiles_as_v_flag_regex(pattern):
        schema["pattern"] = pattern
    return schema


def _text(group: Group) -> dict[str, Any]:
    return _with_description(_pattern({"type": "string"}, group.first), group)


def _textarea(group: Group) -> dict[str, Any]:
    return _with_description({"type": "string"}, group)


def _date(group: Group) -> dict[str, Any]:
    description = _description(group)
    note = f"{description} ({_DATE_NOTE})" if description is not None else _DATE_NOTE
    return {"type": "string", "format": "date", "description": note}


def _time_format(control: Control) -> str:
    step = allowed_step(control.attributes.get("step"), _TIME_STEP)
    if step is None:
        step = _TIME_STEP.default
    for bound, body in _TIME_FORMATS:
        if step < bound:
            return body
    return _TIME_MINUTES + "$"


def _time(group: Group) -> dict[str, Any]:
    return _with_description({"type": "string", "format": "^" + _time_format(group.first)}, group)


def _datetime_local(group: Group) -> dict[str, Any]:
    regex = "^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T" + _time_format(group.first)
    return _with_description({"type": "string", "format": regex}, group)


def _fixed_format(kind: str) -> Any:
    def build(group: Group) -> dict[str, Any]:
        return _with_description({"type": "string", "format": _FIXED_FORMATS[kind]}, group)

    return build


def _multiple_of(control: Control, rule: StepRule) -> float | None:
    """The step, when one applies and the step base is an exact (decimal) multiple of it."""
    attributes = control.attributes
    step = allowed_step(attributes.get("step"), rule)
    if step is None:
        return None
    base = step_base(attributes.get("min"), attributes.get("value"), rule)
    return float(step) if is_multiple(base, step) else None


def _number(group: Group) -> dict[str, Any]:
    control = group.first
    schema: dict[str, Any] = {"type": "number"}
    for keyword, attribute in (("minimum", "min"), ("maximum", "max")):
        value = parse_float(control.attributes.get(attribute))
        if value is not None:
            schema[keyword] = value
    multiple = _multiple_of(control, _NUMBER_STEP)
    if multiple is not None:
        schema["multipleOf"] = multiple
    return _with_description(_pattern(schema, control), group)


def _range(group: Group) -> dict[str, Any]:
    control = group.first
    low = parse_float(control.attributes.get("min"))
    high = parse_float(control.attributes.get("max"))
    low = 0.0 if low is None else low
    high = 100.0 if high is None else high
    schema: dict[str, Any] = {"type": "number", "minimum": low, "maximum": max(high, low)}
    multiple = _multiple_of(control, _RANGE_STEP)
    if multiple is not None:
        schema["multipleOf"] = multiple
    return _with_description(schema, group)


def _option_entries(control: Control) -> tuple[list[dict[str, Any]], list[str]]:
    entries = [{"type": "string", "const": o.value, "title": o.text} for o in control.options]
    return entries, [o.value for o in control.options]


def _select_one(group: Group) -> dict[str, Any]:
    entries, values = _option_entries(group.first)
    return _with_description({"type": "string", "anyOf": entries, "enum": values}, group)


def _select_multiple(group: Group) -> dict[str, Any]:
    entries, values = _option_entries(group.first)
    items = {"type": "string", "anyOf": entries, "enum": values}
    return _with_description({"type": "array", "items": items, "uniqueItems": True}, group)


def _choice_entries(group: Group) -> tuple[list[dict[str, Any]], list[str]]:
    entries, values = [], []
    for control in group.controls:
        value = control.attributes.get("value", "on")
        entry: dict[str, Any] = {"type": "string", "const": value}
        title = _label_text(control)
        if title:
            entry["title"] = title
        entries.append(entry)
        values.append(value)
    return entries, values


def _checkbox(group: Group) -> dict[str, Any]:
    return _with_description({"type": "boolean"}, group)


def _checkbox_group(group: Group) -> dict[str, Any]:
    entries, values = _choice_entries(group)
    items = {"type": "string", "anyOf": entries, "enum": values}
    return _with_description({"type": "array", "items": items, "uniqueItems": True}, group)


def _radio(group: Group) -> dict[str, Any]:
    entries, values = _choice_entries(group)
    return _with_description({"type": "string", "anyOf": entries, "enum": values}, group)


def _required(group: Group) -> bool:
    return any(c.has("required") for c in group.controls)


def _annotations(form: Form) -> dict[str, Any]:
    return {"autosubmit": "toolautosubmit" in form.attributes}


CHROMIUM = register_profile(
    Profile(
        name="chromium",
        summary="byte-identical with what Chromium 156 registers",
        skip=_skip,
        classify=_classify,
        fragments={
            "text": _text,
            "hidden": _text,
            "textarea": _textarea,
            "date": _date,
            "time": _time,
            "datetime-local": _datetime_local,
            "month": _fixed_format("month"),
            "week": _fixed_format("week"),
            "color": _fixed_format("color"),
            "number": _number,
            "range": _range,
            "select-one": _select_one,
            "select-multiple": _select_multiple,
            "checkbox": _checkbox,
            "checkbox-group": _checkbox_group,
            "radio": _radio,
        },
        required=_required,
        annotations=_annotations,
    )
)
