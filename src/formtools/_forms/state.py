"""A form's state: what each control holds now, starting from what a freshly loaded page gives it.

The form model (:mod:`formtools._forms.model`) is immutable; what a call changes is a
:class:`FormState` (each control's value, checkedness, selectedness), built from the page's
initial state and replaced, never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

from formtools._forms.model import Control, Form, display_size
from formtools._spec.memo import IdentityMemo
from formtools.errors import require
from formtools._forms.values import email_to_ascii, sanitize

__all__ = ["ControlState", "FormState", "initial_state", "normalize_newlines", "sanitized_value"]


@dataclass(frozen=True)
class ControlState:
    """What a control holds now: ``value`` (value-mode inputs, textarea's API value, hidden's
    value attribute), ``checked`` (checkbox, radio), ``selected`` (one flag per option)."""

    value: str = ""
    checked: bool = False
    selected: tuple[bool, ...] = ()


@dataclass(frozen=True)
class FormState:
    """A form and the state of each of its controls, keyed by the control's document index."""

    form: Form
    controls: Mapping[int, ControlState]

    def __hash__(self) -> int:
        return hash((self.form, frozenset(self.controls.items())))  # (see Control.__hash__)

    def of(self, control: Control) -> ControlState:
        return self.controls[control.index]

    def with_states(self, changes: Mapping[int, ControlState]) -> "FormState":
        merged = dict(self.controls)
        merged.update(changes)
        return FormState(self.form, MappingProxyType(merged))


# ---- initial state ---------------------------------------------------------------------------


def _initial_selection(control: Control) -> tuple[bool, ...]:
    """#selectedness-setting-algorithm applied to the parsed options."""
    selected = [option.selected for option in control.options]
    if control.type == "select-multiple":
        return tuple(selected)
    if any(selected):
        last = max(i for i, flag in enumerate(selected) if flag)
        return tuple(i == last for i in range(len(selected)))
    if display_size(control.attributes) == 1:
        for i, option in enumerate(control.options):
            if not option.disabled:
                return tuple(j == i for j in range(len(selected)))
    return tuple(selected)


def sanitized_value(control: Control, value: str) -> str:
    """An input's value after #value-sanitization-algorithm, with the attributes it reads."""
    attributes = control.attributes
    return sanitize(
        control.type,
        value,
        multiple="multiple" in attributes,
        min=attributes.get("min"),
        max=attributes.get("max"),
        step=attributes.get("step"),
        value_attribute=attributes.get("value"),
    )


def _initial_value(control: Control) -> str:
    attributes = control.attributes
    if control.tag == "textarea":
        return normalize_newlines(control.text)
    if control.tag != "input":
        return attributes.get("value", "")
    value = sanitized_value(control, attributes.get("value", ""))
    if control.type == "email":  # the default value's domain in ASCII, as Chromium holds it
        return email_to_ascii(value, multiple="multiple" in attributes)
    return value


def initial_state(form: Form) -> FormState:
    """The state a freshly loaded page gives the form's controls. The controls' states are kept
    while the form lives (both are immutable): every call of its tool fills from them, and
    validation reads them again for the keys a call leaves out."""
    require(form, Form, "initial_state", "a formtools.Form (one of extract's forms)")
    return FormState(form, _INITIAL_STATES(form, None))


def _initial_states(form: Form, _: None) -> Mapping[int, ControlState]:
    """The controls' initial states, by document index: no reference to the form, which the
    memo would keep alive."""
    states: dict[int, ControlState] = {}
    last_checked_radio: dict[str, int] = {}
    for control in form.controls:
        checked = "checked" in control.attributes
        if control.tag == "input" and control.type == "radio" and checked and control.name:
            # the parser sets checkedness radio by radio: a later checked radio unchecks the others
            earlier = last_checked_radio.get(control.name)
            if earlier is not None:
                states[earlier] = replace(states[earlier], checked=False)
            last_checked_radio[control.name] = control.index
        states[control.index] = ControlState(
            value=_initial_value(control),
            checked=checked,
            selected=_initial_selection(control) if control.tag == "select" else (),
        )
    return MappingProxyType(states)


_INITIAL_STATES = IdentityMemo(_initial_states)


def controls_initial_state(controls: tuple[Control, ...]) -> FormState:
    """The initial state of some controls, in tree order, as a form of their own (a parameter
    group and its radio peers): such a form lives for one question, so its states are computed
    each time, not kept as a form's are."""
    form = Form(index=-1, attributes=MappingProxyType({}), controls=controls)
    return FormState(form, _initial_states(form, None))


def normalize_newlines(text: str) -> str:
    """#normalize-newlines: CRLF and CR become LF (a textarea's API value)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
