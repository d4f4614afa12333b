"""Validate a tool input against a tool's ``inputSchema``, with HTML's and ECMAScript's rules.

Why not plain ``jsonschema``: JSON Schema's ``pattern`` is an ECMA-262 regex, and Python's
``re`` is not one (``\\d``, ``$``, classes and Unicode all differ), so ``pattern`` is matched
with ``regress``. The ``html`` profile's ``x-`` keywords (:mod:`formtools._synth.html`) say
what HTML checks and JSON Schema cannot; they are enforced here with the predicates execution
uses (:mod:`formtools._forms.values`, :func:`formtools._forms.validity.value_problem`), so this validator
and the browser agree (``tests/test_html_profile_browser.py``).

Every failure is reported per field with a ValidityState-style ``flag`` (``valueMissing``,
``typeMismatch``, ``patternMismatch``, ``rangeUnderflow``, ``rangeOverflow``, ``stepMismatch``,
``badInput``) or ``unknownParameter``; one problem per field and flag.
"""

from __future__ import annotations

import json

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from formtools._spec.constants import MASK
from formtools._forms.state import normalize_newlines
from formtools._spec.microsyntax import compiled_pattern, regex_matches
from formtools._execute.fill import js_to_string
from formtools._forms.sensitive import sensitive_keys
from formtools._synth.tool import Tool, thaw
from formtools._forms.state import initial_state
from formtools._forms.validity import invalid_controls, is_candidate, value_problem
from formtools._synth.parameters import parameters_of, skips_validation
from formtools._forms.values import sanitize

__all__ = ["Problem", "validate_input"]


@dataclass(frozen=True)
class Problem:
    """One reason a tool input is invalid: the ``field`` (None for the input as a whole), a
    ValidityState-style ``flag`` and a message whose values are written as JSON."""

    field: str | None
    flag: str
    message: str

    @property
    def pointer(self) -> str:
        """The field as a JSON Pointer (RFC 6901) into the input: ``/q``, or ``""`` for the
        input as a whole."""
        if self.field is None:
            return ""
        return "/" + self.field.replace("~", "~0").replace("/", "~1")

    def to_dict(self) -> dict[str, Any]:
        return {"pointer": self.pointer, "field": self.field, "flag": self.flag, "message": self.message}

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message} ({self.flag})"


class _Flagged(ValidationError):  # type: ignore[misc]  # jsonschema is untyped
    """An error raised by one of our keywords, which knows its flag."""

    def __init__(self, message: str, flag: str) -> None:
        super().__init__(message)
        self.flag = flag


def _quoted(instance: Any, schema: Mapping[str, Any]) -> str:
    """``instance`` as a message quotes it: never the value of a secret (``writeOnly``)."""
    return repr(MASK) if schema.get("writeOnly") else repr(instance)


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    regex = compiled_pattern(pattern)
    if regex is not None and not regex_matches(regex, instance):
        yield _Flagged(f"{_quoted(instance, schema)} does not match {pattern!r}", "patternMismatch")


def _address_pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string") or instance == "":
        return
    regex = compiled_pattern(pattern)
    if regex is not None and any(not regex_matches(regex, address) for address in instance.split(",")):
        yield _Flagged(f"an address of {_quoted(instance, schema)} does not match {pattern!r}", "patternMismatch")


_NUMERIC = frozenset({"number", "range"})


def _kept(html_type: str, text: str, schema: Mapping[str, Any]) -> str:
    """What the control holds after ``.value = text``."""
    if html_type == "textarea":
        return normalize_newlines(text)
    return sanitize(
        html_type,
        text,
        multiple=bool(schema.get("x-formtools-multiple")),
        min=schema.get("x-formtools-min"),
        max=schema.get("x-formtools-max"),
        step=schema.get("x-formtools-step"),
        value_attribute=schema.get("x-formtools-step-base"),
    )


def _html_type(
    validator: Any, html_type: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """The value survives the control's sanitization, then passes its type, range and step
    checks (``required`` is ``minLength`` and ``pattern`` is ``pattern``)."""
    expected = "number" if html_type in _NUMERIC else "string"
    if not validator.is_type(instance, expected):
        return
    text = js_to_string(instance)
    if not isinstance(instance, str) and float(text) != instance:
        yield _Flagged(
            f"Chromium fills {_quoted(instance, schema)} as {_quoted(text, schema)} (6 significant digits)", "badInput"
        )
        return
    kept = _kept(html_type, text, schema)
    if kept != text:
        yield _Flagged(f"the browser would change {_quoted(text, schema)} to {_quoted(kept, schema)}", "badInput")
        return
    attributes = {
        name: schema[keyword]
        for name, keyword in (
            ("min", "x-formtools-min"),
            ("max", "x-formtools-max"),
            ("step", "x-formtools-step"),
            ("value", "x-formtools-step-base"),
        )
        if keyword in schema
    }
    if schema.get("x-formtools-multiple"):
        attributes["multiple"] = ""
    found = value_problem(html_type, text, attributes, secret=bool(schema.get("writeOnly")))
    if found is not None:
        yield _Flagged(found[1], found[0])


_Validator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "x-formtools-address-pattern": _address_pattern, "x-formtools-html-type": _html_type},
)

# JSON Schema keyword → ValidityState-style flag, for the standard keywords
_FLAGS: Mapping[str, str] = {
    "required": "valueMissing",
    "minLength": "valueMissing",
    "minItems": "valueMissing",
    "contains": "valueMissing",
    "minimum": "rangeUnderflow",
    "exclusiveMinimum": "rangeUnderflow",
    "maximum": "rangeOverflow",
    "exclusiveMaximum": "rangeOverflow",
    "multipleOf": "stepMismatch",
    "format": "typeMismatch",
    "additionalProperties": "unknownParameter",
}


def _flag(error: ValidationError) -> str:
    if isinstance(error, _Flagged):
        return error.flag
    if error.validator == "not" and "x-formtools-unsatisfiable" in error.schema:
        return "unsatisfiable"
    if error.validator == "const" and error.validator_value is True:
        return "valueMissing"  # a required checkbox left unchecked
    if (
        error.validator == "type"
        and error.validator_value == "integer"
        and isinstance(error.instance, float)
    ):
        return "stepMismatch"
    return _FLAGS.get(str(error.validator), "badInput")


def _leaves(errors: Iterator[ValidationError]) -> Iterator[ValidationError]:
    """The errors that say why: an anyOf/allOf failure is reported through its parts."""
    for error in errors:
        if error.context and error.validator in ("anyOf", "allOf", "oneOf"):
            yield from _leaves(iter(error.context))
        else:
            yield error


def _fields(error: ValidationError) -> list[str | None]:
    path = list(error.absolute_path)
    if path:
        return [str(path[0])]
    if error.validator == "required":
        return [key for key in error.validator_value if repr(key) in error.message]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        return [key for key in error.instance if key not in known]
    return [None]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _as_json(error: ValidationError) -> str:
    """jsonschema's message with the values it quotes as Python reprs (``'x'``, ``['a', 'b']``,
    ``True``) written as JSON (``"x"``, ``["a", "b"]``, ``true``), so that a message reads in the
    language of the input it is about."""
    values: list[Any] = [error.instance, error.validator_value]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        values += [key for key in error.instance if key not in error.schema.get("properties", {})]
    if error.validator == "required" and isinstance(error.validator_value, list):
        values += error.validator_value
    message = str(error.message)
    for value in sorted(values, key=lambda v: len(repr(v)), reverse=True):
        if isinstance(value, (str, int, float, list, dict, bool)) or value is None:
            message = message.replace(repr(value), _json(value))
    return message


def _beyond_doubles(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            float(value)
        except OverflowError:
            return True
    return isinstance(value, list) and any(_beyond_doubles(item) for item in value)


def validate_input(tool: Tool, tool_input: Any, *, files: Iterable[str] = ()) -> list[Problem]:
    """Every problem of ``tool_input`` under ``tool``'s input schema, in field order; then a
    required file input the call attaches no file to (``files``: the names of the file inputs
    it does), which no schema can say and :func:`~formtools.call` would refuse."""
    schema = thaw(tool.input_schema)
    secret_fields = sensitive_keys(tool.form)
    problems: dict[tuple[str | None, str], Problem] = {}
    browser_worded: set[tuple[str | None, str]] = set()
    if isinstance(tool_input, dict):
        # JSON.parse turns an integer beyond the doubles into Infinity, which no control keeps;
        # Python keeps it exact, and arithmetic on it (multipleOf) would overflow
        huge = [key for key, value in tool_input.items() if _beyond_doubles(value)]
        for key in huge:
            problems[(key, "badInput")] = Problem(key, "badInput", "a number beyond what JavaScript holds (Infinity)")
        tool_input = {key: value for key, value in tool_input.items() if key not in huge}
    for error in _leaves(_Validator(schema).iter_errors(tool_input)):
        flag = _flag(error)
        for field in _fields(error):
            key = (field, flag)
            if key not in problems or (isinstance(error, _Flagged) and key not in browser_worded):
                if isinstance(error, _Flagged):
                    message = error.message
                elif flag == "unsatisfiable":
                    message = f"no input can make the form valid: {error.schema['x-formtools-unsatisfiable']}"
                else:
                    message = _as_json(error)
                if field in secret_fields:  # the value is quoted; a secret is not
                    message = message.replace(_json(error.instance), _json(MASK))
                    message = message.replace(repr(error.instance), repr(MASK))
                problems[key] = Problem(field, flag, message)  # the browser's words win
            if isinstance(error, _Flagged):
                browser_worded.add(key)
    order = list(schema.get("properties", {}))
    found = sorted(
        problems.values(),
        key=lambda p: (order.index(p.field) if p.field in order else len(order), p.field or ""),
    )
    return found + _files_missing(tool, frozenset(files))


def _files_missing(tool: Tool, attached: frozenset[str]) -> list[Problem]:
    """The required file inputs left without a file, as constraint validation reports them."""
    form = tool.form
    without = [
        c for c in form.controls
        if c.type == "file" and "required" in c.attributes and is_candidate(c)
        and c.attributes.get("name", "") not in attached
    ]
    if not without or skips_validation(form, parameters_of(form, tool.profile)):
        return []
    return [Problem(p.key, p.flag, p.message) for p in invalid_controls(initial_state(form), without)]
