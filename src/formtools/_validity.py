"""Constraint validation at submit, as ``requestSubmit()`` runs it (#constraints).

Each candidate control of the filled form is checked in Chromium's order (valueMissing,
typeMismatch, patternMismatch, rangeUnderflow, rangeOverflow, stepMismatch) and the first flag
that applies gives its message. ``minlength`` / ``maxlength`` are not checked: they only apply
after a user edit, and a tool call is not one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping
from functools import lru_cache

import regress

from ._ecmaregex import compiles_with_v_flag
from ._errors import FormtoolsError
from ._fill import FormState
from ._forms import Control
from ._jsjson import js_number
from ._microsyntax import StepRule, allowed_step, parse_decimal, step_base
from ._values import (
    is_valid_absolute_url,
    is_valid_email,
    range_overflow,
    range_underflow,
    step_mismatch,
)

__all__ = ["ValidityProblem", "ValidationError", "invalid_controls"]

# #barred-from-constraint-validation, besides disabled, readonly and datalist descendants
_BARRED_TYPES = frozenset({"hidden", "reset", "button", "submit", "image"})
_VALUE_MISSING_TYPES = frozenset(
    {"text", "search", "url", "tel", "email", "password", "date", "month", "week", "time",
     "datetime-local", "number"}
)  # fmt: skip
_NUMBER_STEP = StepRule(default=Decimal(1), scale=Decimal(1))
_RANGED_TYPES = frozenset({"number", "range", "date", "month", "week", "time", "datetime-local"})

_MESSAGES = {
    "valueMissing": "Please fill out this field.",
    "valueMissing:checkbox": "Please check this box if you want to proceed.",
    "valueMissing:radio": "Please select one of these options.",
    "valueMissing:select": "Please select an item in the list.",
    "valueMissing:file": "Please select a file.",
    "typeMismatch:url": "Please enter a URL.",
    "typeMismatch:email-multiple": "Please enter a comma separated list of email addresses.",
    "patternMismatch": "Please match the requested format.",
}


@dataclass(frozen=True)
class ValidityProblem:
    """One invalid control: ``flag`` is its ValidityState name, ``message`` the browser's."""

    key: str
    flag: str
    message: str
    control: Control

    def __str__(self) -> str:
        return f"{self.key}: {self.message} ({self.flag})"


class ValidationError(FormtoolsError, ValueError):
    """The filled form fails constraint validation; nothing was sent. ``str()`` is Chromium's
    ``Form validation failed: <name>: <message>. …`` text."""

    def __init__(self, problems: list[ValidityProblem]) -> None:
        self.problems = tuple(problems)
        text = "".join(f"{p.key}: {p.message}. " for p in problems)
        super().__init__(f"Form validation failed: {text}")


@lru_cache(maxsize=1024)
def _anchored(pattern: str) -> regress.Regex | None:
    if not compiles_with_v_flag(pattern):
        return None
    return regress.Regex(f"^(?:{pattern})$", "v")


def _pattern_mismatch(control: Control, value: str) -> bool:
    pattern = control.attributes.get("pattern")
    if pattern is None or value == "":
        return False
    regex = _anchored(pattern)
    if regex is None:
        return False
    if control.type == "email" and "multiple" in control.attributes:
        return any(regex.find(token) is None for token in value.split(","))
    return regex.find(value) is None


def _email_message(value: str, multiple: bool) -> str:
    if multiple:
        return _MESSAGES["typeMismatch:email-multiple"]
    at = value.find("@")
    if at < 0:
        return f"Please include an '@' in the email address. '{value}' is missing an '@'."
    local, domain = value[:at], value[at + 1 :]
    if not local:
        return f"Please enter a part followed by '@'. '{value}' is incomplete."
    if not domain:
        return f"Please enter a part following '@'. '{value}' is incomplete."
    for char in local:
        if not (char.isascii() and (char.isalnum() or char in ".!#$%&'*+/=?^_`{|}~-")):
            return f"A part followed by '@' should not contain the symbol '{char}'."
    for char in domain:
        if not (char.isascii() and (char.isalnum() or char in ".-")):
            return f"A part following '@' should not contain the symbol '{char}'."
    return f"'.' is used at a wrong position in '{domain}'."


def _radio_group_missing(state: FormState, control: Control) -> bool:
    name = control.attributes.get("name")
    if not name:
        return "required" in control.attributes and not state.of(control).checked
    members = [
        c for c in state.form.controls
        if c.tag == "input" and c.type == "radio" and c.attributes.get("name") == name
    ]
    return any("required" in c.attributes for c in members) and not any(
        state.of(c).checked for c in members
    )


def _select_missing(state: FormState, control: Control) -> bool:
    selected = [i for i, flag in enumerate(state.of(control).selected) if flag]
    if not selected:
        return True
    if control.type == "select-multiple":
        return False
    size = control.attributes.get("size", "").strip()
    placeholder = (
        (not size.isdigit() or int(size) <= 1)
        and bool(control.options)
        and control.options[0].value == ""
        and not control.options[0].in_optgroup
    )
    return placeholder and selected == [0]


def _problem(state: FormState, control: Control) -> tuple[str, str] | None:
    """(flag, message) for the first constraint the control fails, or None."""
    current = state.of(control)
    kind = control.type
    required = "required" in control.attributes
    if control.tag == "select":
        if required and _select_missing(state, control):
            return "valueMissing", _MESSAGES["valueMissing:select"]
        return None
    if control.tag == "textarea":
        if required and current.value == "":
            return "valueMissing", _MESSAGES["valueMissing"]
        return None
    if kind == "checkbox":
        if required and not current.checked:
            return "valueMissing", _MESSAGES["valueMissing:checkbox"]
        return None
    if kind == "radio":
        if _radio_group_missing(state, control):
            return "valueMissing", _MESSAGES["valueMissing:radio"]
        return None
    if kind == "file":
        return ("valueMissing", _MESSAGES["valueMissing:file"]) if required else None
    value = current.value
    if required and kind in _VALUE_MISSING_TYPES and value == "":
        return "valueMissing", _MESSAGES["valueMissing"]
    if value == "":
        return None
    multiple = "multiple" in control.attributes
    if kind == "email" and not is_valid_email(value, multiple):
        return "typeMismatch", _email_message(value, multiple)
    if kind == "url" and not is_valid_absolute_url(value):
        return "typeMismatch", _MESSAGES["typeMismatch:url"]
    if _pattern_mismatch(control, value):
        return "patternMismatch", _MESSAGES["patternMismatch"]
    if kind in _RANGED_TYPES:
        attributes = control.attributes
        low, high = attributes.get("min"), attributes.get("max")
        shown = _message_values(kind, value, attributes)
        temporal = kind not in ("number", "range")
        if range_underflow(kind, value, min=low, max=high):
            text = f"Value must be {shown.minimum} or later." if temporal else f"Value must be greater than or equal to {shown.minimum}."
            return "rangeUnderflow", text
        if range_overflow(kind, value, min=low, max=high):
            text = f"Value must be {shown.maximum} or earlier." if temporal else f"Value must be less than or equal to {shown.maximum}."
            return "rangeOverflow", text
        if step_mismatch(kind, value, min=low, max=high, step=attributes.get("step"), value_attribute=attributes.get("value")):
            if shown.upper is None:
                text = f"Please enter a valid value. The nearest valid value is {shown.lower}."
            else:
                text = f"Please enter a valid value. The two nearest valid values are {shown.lower} and {shown.upper}."
            return "stepMismatch", text
    return None


@dataclass(frozen=True)
class _Shown:
    minimum: str
    maximum: str
    lower: str
    upper: str | None


def _message_values(kind: str, value: str, attributes: Mapping[str, str]) -> _Shown:
    """The numbers a range or step message shows, as Chromium writes them."""
    low = parse_decimal(attributes.get("min"))
    high = parse_decimal(attributes.get("max"))
    step = allowed_step(attributes.get("step"), _NUMBER_STEP) or Decimal(1)
    base = step_base(attributes.get("min"), attributes.get("value"), _NUMBER_STEP)
    number = parse_decimal(value) or Decimal(0)
    below = base + ((number - base) // step) * step
    above = below + step
    upper = None if high is not None and above > high else _shown(above)
    return _Shown(_shown(low), _shown(high), _shown(below), upper)


def _shown(number: Decimal | None) -> str:
    return "" if number is None else js_number(float(number))


def _candidate(control: Control) -> bool:
    """Not barred from constraint validation."""
    if control.disabled or control.in_datalist or control.readonly:
        return False
    if control.tag in ("fieldset", "output", "object", "button"):
        return False
    return not (control.tag == "input" and control.type in _BARRED_TYPES)


def invalid_controls(state: FormState) -> list[ValidityProblem]:
    """Every candidate control of the filled form that fails a constraint, in tree order."""
    problems = []
    for control in state.form.controls:
        if not _candidate(control):
            continue
        found = _problem(state, control)
        if found is not None:
            problems.append(ValidityProblem(control.key, found[0], found[1], control))
    return problems
