"""Stage 5 — fill: a tool call's input → the form's new state, checked before anything changes.

What a call changes is a :class:`~formtools._forms.state.FormState`, replaced, never mutated.
Chromium checks every key of the input before it fills any control, and so does
:func:`fill`: it returns a new state or raises :class:`InputError` listing every bad key, with
Chromium's own message for each.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from formtools.errors import InputError, SubmissionError, UsageProblem
from formtools._spec.limits import MAX_PAGE_BYTES
from formtools._spec.microsyntax import EXACT_DECIMALS
from formtools._forms.model import Control, Form
from formtools._forms.sensitive import is_sensitive
from formtools._synth.profile import Group, Profile, get_profile
from formtools._synth.parameters import Parameter, parameters_of
from formtools._forms.state import (
    ControlState,
    FormState,
    initial_state,
    normalize_newlines,
    sanitized_value,
)

__all__ = [
    "InputProblem",
    "fill",
    "js_to_string",
    "OMITTED",
]


@dataclass(frozen=True)
class InputProblem:
    """One rejected key: ``message`` is Chromium's text for it."""

    key: str | None
    message: str

    def __str__(self) -> str:
        return self.message


# ---- JavaScript conversions, as Chromium applies them to tool input -------------------------


def js_double(value: int | float) -> float:
    """The double ``JSON.parse`` gives for a JSON number: an integer beyond the doubles is
    ±Infinity (Python's ``float()`` raised OverflowError on it out of every conversion)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _is_int32(number: float) -> bool:
    """Whether Chromium holds a JSON number as an integer: the tool input reaches it as JSON
    text, and its JSON reader makes an integer only of a whole number that fits in 32 bits;
    any other number is a double."""
    return number.is_integer() and -(2**31) <= number < 2**31


def js_to_string(value: Any) -> str:
    """How Chromium turns a JSON scalar into the string it fills in.

    Integers that fit in 32 bits print in full; other numbers print as ``toPrecision(6)``,
    with trailing zeros trimmed in fixed notation only (``12345678.9`` → ``1.23457e+7``).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    number = js_double(value)
    if _is_int32(number):
        return str(int(number))
    return _to_precision6(number)


#: six significant digits, the first before the point: what ``toPrecision(6)`` rounds to
_SIX_DIGITS = Decimal("1.00000")


def _to_precision6(number: float) -> str:
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    sign = "-" if number < 0 else ""
    exact = Decimal(abs(number))
    exponent = exact.adjusted()
    rounded = exact.scaleb(-exponent, EXACT_DECIMALS).quantize(_SIX_DIGITS, context=EXACT_DECIMALS)
    if rounded >= 10:  # 9.999995 rounds up to 10.00000: one more digit before the point
        exponent += 1
        rounded = _SIX_DIGITS
    digits = str(rounded).replace(".", "")
    if exponent < -6 or exponent >= 6:
        sign_e = "+" if exponent >= 0 else "-"
        return f"{sign}{digits[0]}.{digits[1:]}e{sign_e}{abs(exponent)}"
    if exponent >= 0:
        whole, fraction = digits[: exponent + 1], digits[exponent + 1 :]
    else:
        whole, fraction = "0", "0" * (-exponent - 1) + digits
    fraction = fraction.rstrip("0")
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"


def _to_boolean(value: Any) -> bool | None:
    """Chromium's checkbox conversion: a boolean, an integer (one Chromium holds as an integer:
    a whole number beyond 32 bits is a double, refused like ``0.5``), or true/false/1/0 strings."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0 if _is_int32(js_double(value)) else None
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
    return None


# ---- per-kind rules: (parameter, value, state) → changed control states --------------------


class _Invalid(Exception):
    """This value does not fit the parameter; ``scalar`` says which message applies."""

    def __init__(self, shown: str | None) -> None:
        self.shown = shown


Changes = dict[int, ControlState]
Rule = Callable[[Group, Any, FormState], Changes]


def _scalar(value: Any) -> str:
    if value is None or isinstance(value, (dict, list)):
        raise _Invalid(None)
    return js_to_string(value)


# Chromium refuses an empty string for these even though range would sanitize it to its default.
_NUMERIC = frozenset({"number", "range"})


def _input_value(group: Group, value: Any, state: FormState) -> Changes:
    control = group.first
    text = _scalar(value)
    if control.type == "hidden":
        return {control.index: replace(state.of(control), value=text)}
    clean = sanitized_value(control, text)
    if (text and not clean) or (not text and control.type in _NUMERIC):
        raise _Invalid(text)
    return {control.index: replace(state.of(control), value=clean)}


def _textarea(group: Group, value: Any, state: FormState) -> Changes:
    control = group.first
    return {control.index: replace(state.of(control), value=normalize_newlines(_scalar(value)))}


def _select_one(group: Group, value: Any, state: FormState) -> Changes:
    control = group.first
    text = _scalar(value)
    values = [option.value for option in control.options]
    if text not in values:
        raise _Invalid(text)
    chosen = values.index(text)
    selection = tuple(i == chosen for i in range(len(values)))
    return {control.index: replace(state.of(control), selected=selection)}


def _listed_values(value: Any, allowed: list[str]) -> set[str]:
    if not isinstance(value, list):
        raise _Invalid(None if value is None or isinstance(value, dict) else js_to_string(value))
    texts = [_scalar(item) for item in value]
    wanted = set(texts)
    if len(wanted) != len(texts) or not wanted <= set(allowed):
        raise _Invalid(None)
    return wanted


def _select_multiple_by_value(group: Group, value: Any, state: FormState) -> Changes:
    """HTML's meaning (the ``html`` profile): select exactly the options with those values."""
    control = group.first
    wanted = _listed_values(value, [option.value for option in control.options])
    selection = tuple(option.value in wanted for option in control.options)
    return {control.index: replace(state.of(control), selected=selection)}


def _select_multiple(group: Group, value: Any, state: FormState) -> Changes:
    """Chromium 156's ``executeTool``: it deselects every option, then for each position *i*
    of the list of options whose option has a wanted value it selects the *i*-th of the
    select's list items (options and optgroups). Before the first optgroup the two are the same
    option; after one, position *i* is an optgroup (nothing is selected) or an earlier option:
    in ``<option>a<optgroup><option>c<option>d</optgroup>``, ``["d"]`` selects ``c`` and
    ``["c"]`` nothing. Measured live by ``tests/test_browser_values.py``."""
    control = group.first
    options = control.options
    wanted = _listed_values(value, [option.value for option in options])
    at_item = {option.list_item: position for position, option in enumerate(options)}
    chosen = {at_item.get(i) for i, option in enumerate(options) if option.value in wanted}
    selection = tuple(position in chosen for position in range(len(options)))
    return {control.index: replace(state.of(control), selected=selection)}


def _checkbox(group: Group, value: Any, state: FormState) -> Changes:
    control = group.first
    if value is None or isinstance(value, (dict, list)):
        raise _Invalid(None)
    checked = _to_boolean(value)
    if checked is None:
        raise _Invalid(js_to_string(value))
    return {control.index: replace(state.of(control), checked=checked)}


def _choice_value(control: Control) -> str:
    return control.attributes.get("value", "on")


def _checkbox_group(group: Group, value: Any, state: FormState) -> Changes:
    wanted = _listed_values(value, [_choice_value(c) for c in group.controls])
    return {
        c.index: replace(state.of(c), checked=_choice_value(c) in wanted) for c in group.controls
    }


def _radio(group: Group, value: Any, state: FormState) -> Changes:
    text = _scalar(value)
    chosen = next((c for c in group.controls if _choice_value(c) == text), None)
    if chosen is None:
        raise _Invalid(text)
    return {c.index: replace(state.of(c), checked=c is chosen) for c in group.controls}


CHROMIUM_RULES: Mapping[str, Rule] = MappingProxyType(
    {
        "text": _input_value,
        "hidden": _input_value,
        "date": _input_value,
        "time": _input_value,
        "datetime-local": _input_value,
        "month": _input_value,
        "week": _input_value,
        "color": _input_value,
        "number": _input_value,
        "range": _input_value,
        "textarea": _textarea,
        "select-one": _select_one,
        "select-multiple": _select_multiple,
        "checkbox": _checkbox,
        "checkbox-group": _checkbox_group,
        "radio": _radio,
    }
)


#: the ``html`` profile's rules (:attr:`Profile.selects_by_value`): HTML's meaning where
#: Chromium's fill departs from it
HTML_RULES: Mapping[str, Rule] = MappingProxyType(
    {**CHROMIUM_RULES, "select-multiple": _select_multiple_by_value}
)


def _invalid_message(key: str, shown: str | None) -> str:
    if shown is None:
        return f"Invalid value for parameter {key}"
    return f'Invalid value "{shown}" for parameter {key}'


OMITTED: Any = object()  # a call without input, which Chromium treats as {}
_NOT_AN_OBJECT = (
    "Failed to execute 'executeTool' on 'ModelContext': invalid input object: value is not an object"
)
# Chromium serializes the input object and parses it again with its own JSON parser, which
# refuses a lone surrogate anywhere, in a key or a value: the call is rejected with this message.
_LONE_SURROGATE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
NOT_JSON = "Failed to parse input string as JSON"


def holds_lone_surrogate(tool_input: Any) -> bool:
    """Whether a string in ``tool_input`` (key or value, at any depth) holds a lone surrogate,
    which a Chromium call refuses with :data:`NOT_JSON`. One pass over the input."""
    pending = [tool_input]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, (list, tuple)):
            pending.extend(value)
    return False


_JSON_TYPES = (dict, list, str, bool, int, float, type(None))
#: what :func:`non_json_value` says of an array or object inside itself (V8's words for it)
CIRCULAR = "Converting circular structure to JSON: an array or object holds itself"


#: what validation and a call say of an input whose arrays and objects share members so often
#: that, written out as JSON, it would pass the byte limit a JSON text input has
TOO_LARGE = (
    f"the input written as JSON would be longer than {MAX_PAGE_BYTES:,} bytes, the most a JSON input "
    "may be (its arrays and objects hold the same members many times over)"
)


def values_written_out(value: Any, bound: int) -> int:
    """How many values and keys ``value`` holds written out as JSON text, each shared array or
    object as often as it is referred to, capped at ``bound + 1``: worked out once per array or
    object (post-order, with its own stack), so the cost is linear in the Python object however
    often its parts are shared. A Python caller's ``a = [x, x]; b = [a, a]; …`` 60 deep is
    2**60 values written out in a few hundred objects: every walk of validation and fill went
    through each reference, exponential work, where a JSON text that long would be refused at
    its byte limit. An array or object inside itself counts once (:func:`non_json_value`
    refuses it)."""
    written: dict[int, int] = {}
    entered: set[int] = set()
    pending: list[tuple[Any, bool]] = [(value, False)]
    while pending:
        item, leaving = pending.pop()
        if not isinstance(item, (dict, list, tuple)):
            continue
        members = list(item.values()) if isinstance(item, dict) else item
        if leaving:
            count = 1 + len(item) * isinstance(item, dict)  # the array or object, and its keys
            count += sum(written.get(id(member), 1) for member in members)
            written[id(item)] = min(count, bound + 1)
        elif id(item) not in entered:
            entered.add(id(item))
            pending.append((item, True))
            pending.extend((member, False) for member in members)
    return written.get(id(value), 1)


def too_large_when_written(tool_input: Any) -> bool:
    """Whether ``tool_input`` written out as JSON holds more values than a JSON text input of
    :data:`~formtools._spec.limits.MAX_PAGE_BYTES` (the limit of ``--input @file`` and of
    every page read) can: each value takes a byte of such a text at least."""
    return values_written_out(tool_input, MAX_PAGE_BYTES) > MAX_PAGE_BYTES


def non_json_value(tool_input: Mapping[Any, Any]) -> InputProblem | None:
    """The first key or value of ``tool_input`` (in order, at any depth) that ``JSON.parse``
    cannot give — a ``datetime.date``, a ``Decimal``, a tuple, ``bytes``, a key that is no
    string — as the problem of its top-level key. A Chromium call takes its input as JSON text,
    so no such value reaches it; fill read them as numbers and raised Python's own TypeError,
    which no ``except FormtoolsError`` catches. An array or object that holds itself (a
    Python caller's ``d["q"] = d``) is refused too, as ``JSON.stringify`` refuses it: walked,
    it made validation and a call loop for ever."""
    for key in tool_input:
        if not isinstance(key, str):
            return InputProblem(None, f"a Python {type(key).__name__} key ({key!r}) is not JSON: keys are strings")
    # each entry: a top-level key, a value under it, and whether the walk is leaving that value
    pending: list[tuple[str | None, Any, bool]] = [(key, value, False) for key, value in reversed(list(tool_input.items()))]
    around = {id(tool_input)}  # the arrays and objects the value looked at is inside
    while pending:
        key, value, leaving = pending.pop()
        if leaving:
            around.discard(id(value))
            continue
        if not isinstance(value, _JSON_TYPES):
            return InputProblem(
                key,
                f"a Python {type(value).__name__} is not a JSON value: give a string, number, boolean, null, array or object",
            )
        if isinstance(value, (dict, list)):
            if id(value) in around:
                return InputProblem(key, CIRCULAR)
            around.add(id(value))
            pending.append((key, value, True))
        if isinstance(value, dict):
            if any(not isinstance(inner, str) for inner in value):
                return InputProblem(key, "an object whose keys are not all strings is not JSON")
            pending.extend((key, inner, False) for inner in reversed(list(value.values())))
        elif isinstance(value, list):
            pending.extend((key, item, False) for item in reversed(value))
    return None


def beyond_json(value: Any) -> bool:
    """Whether ``value`` is a number JSON has no spelling for: NaN, ±Infinity, or a whole
    number beyond the doubles (which ``JSON.parse`` reads as ±Infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not math.isfinite(js_double(value))


#: what validation says of a value :func:`beyond_json` (a call refuses it as it refuses null)
BEYOND_JSON = "a number JSON has no spelling for (NaN, ±Infinity, or beyond the doubles): Chromium receives null"


def _as_json_gives(value: Any) -> Any:
    return None if beyond_json(value) else value


def as_json_round_trip_gives(tool_input: dict[str, Any]) -> dict[str, Any]:
    """``tool_input`` as Chromium's fill reads it. ``executeTool`` serializes the input with
    ``JSON.stringify`` and parses it again, so NaN, ±Infinity and whole numbers beyond the
    doubles (a Python caller's floats; ``json.loads`` of an agent's ``1e400``) arrive as null,
    refused as null is ("Invalid value for parameter f"): formtools filled a text field with
    "Infinity" and a range with its default and sent them. A value or an array item is all a
    fill reads (an array inside an array, or an object, is refused whatever it holds)."""
    return {
        key: [_as_json_gives(item) for item in value] if isinstance(value, list) else _as_json_gives(value)
        for key, value in tool_input.items()
    }


def refuse_lone_surrogates(tool_input: Any) -> None:
    """Raise :class:`InputError` as a Chromium call does if ``tool_input`` holds a lone
    surrogate (:func:`holds_lone_surrogate`)."""
    if holds_lone_surrogate(tool_input):
        raise InputError([InputProblem(None, NOT_JSON)])


def _state_of(form: Form, state: Any) -> FormState:
    """``state`` if it is a state of ``form``. Another form's state (a call's ``state`` carried
    to another tool) was filled and submitted as it was: the other form's fields went to this
    form's action; and a value that is no FormState raised AttributeError, or (``{}``) was
    taken for no state at all."""
    if not isinstance(state, FormState):
        raise UsageProblem(f"state is a FormState (a previous call's .state), not a {type(state).__name__}")
    if state.form is not form and state.form != form:
        raise UsageProblem(f"state is the state of {state.form.describe}, not of this tool's {form.describe}")
    return state


def fill(
    form: Form,
    tool_input: Any = OMITTED,
    state: FormState | None = None,
    *,
    profile: str | Profile = "chromium",
) -> FormState:
    """Check every key of ``tool_input``, then fill them all, in JavaScript's key order.

    Keys not given keep the control's current state (``state``, else the page's initial one).
    Raises :class:`InputError` with every rejected key and changes nothing when any is bad.
    """
    tool_input = as_json_round_trip_gives(require_object(tool_input))
    refuse_lone_surrogates(tool_input)
    current = initial_state(form) if state is None else _state_of(form, state)
    chosen_profile = get_profile(profile)
    parameters = parameters_of(form, chosen_profile)
    rules = HTML_RULES if chosen_profile.selects_by_value else CHROMIUM_RULES
    problems: list[InputProblem] = []
    changes: Changes = {}
    for key in _js_key_order(tool_input):
        value = tool_input[key]
        parameter: Parameter | None = parameters.get(key)
        if parameter is None:
            problems.append(
                InputProblem(
                    key, f'Input contains a parameter "{key}" but there is no such parameter for the tool'
                )
            )
            continue
        try:
            if parameter.kind is None:
                raise _Invalid(_shown(value))
            changes.update(rules[parameter.kind](parameter.group, value, current))
        except _Invalid as invalid:
            # Chromium quotes the rejected value; a secret is not quoted back
            secret = any(is_sensitive(c) for c in parameter.group.controls)
            problems.append(InputProblem(key, _invalid_message(key, None if secret else invalid.shown)))
    if problems:
        raise InputError(problems)
    return current.with_states(changes)


def require_object(tool_input: Any) -> dict[str, Any]:
    """The input as the object a call fills (nothing given is ``{}``), or Chromium's error for
    an array or a scalar: the first thing ``executeTool`` checks, before the submit button and
    before any key (exec-fill-1). A Python value JSON cannot hold inside it is refused here too,
    as no such input reaches the browser."""
    if tool_input is OMITTED:
        return {}
    if isinstance(tool_input, list):
        raise InputError([InputProblem(None, "JSON input arguments must be an object")])
    if not isinstance(tool_input, dict):
        raise InputError([InputProblem(None, _NOT_AN_OBJECT)])
    if too_large_when_written(tool_input):
        raise InputError([InputProblem(None, TOO_LARGE)])
    not_json = non_json_value(tool_input)
    if not_json is not None:
        raise InputError([not_json])
    return tool_input


def _is_array_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1


def _js_key_order(tool_input: dict[str, Any]) -> list[str]:
    """The input's keys as a JavaScript object lists them, the order Chromium checks and fills
    them in: array-index keys ("0", "10") first in numeric order, then the others as given."""
    indices = sorted((k for k in tool_input if _is_array_index(k)), key=int)
    return indices + [k for k in tool_input if not _is_array_index(k)]


def _shown(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return js_to_string(value)


def check_file_names(form: Form, names: Iterable[str]) -> None:
    """Refuse the names a call attaches files to (``files=``, the CLI's ``--file NAME=PATH``)
    that no enabled file input of ``form`` has, as an unknown submitter is refused: a typo or a
    text field's name was ignored, and the form went without the file the caller meant."""
    inputs = [c for c in form.controls if c.tag == "input" and c.type == "file"]
    enabled = {c.attributes.get("name", "") for c in inputs if not c.disabled}
    for name in names:
        if name in enabled:
            continue
        if any(c.attributes.get("name", "") == name for c in inputs):
            raise SubmissionError(f"the file input {name!r} is disabled: no file is sent with it")
        known = ", ".join(repr(n) for n in sorted(enabled) if n) or "none"
        raise SubmissionError(f"the form has no file input named {name!r} (file inputs: {known})")
