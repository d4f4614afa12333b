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
import math

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from formtools._spec.constants import MASK
from formtools._spec.memo import IdentityMemo
from formtools._forms.state import normalize_newlines
from formtools._spec.microsyntax import compiled_pattern, pattern_budget, regex_matches
from formtools._execute.fill import (
    BEYOND_JSON,
    NOT_JSON,
    TOO_LARGE,
    beyond_json,
    check_file_names,
    holds_lone_surrogate,
    js_to_string,
    non_json_value,
    too_large_when_written,
)
from formtools._forms.sensitive import sensitive_keys
from formtools._synth.tool import Tool, require_tool, thaw
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
    """``instance`` as a message quotes it: as JSON, the language of the input (``"ams"``, not
    Python's ``'ams'``), and never the value of a secret (``writeOnly``)."""
    return _json(MASK) if schema.get("writeOnly") else _json(instance)


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    regex = compiled_pattern(pattern)
    if regex is not None and not regex_matches(regex, instance):
        yield _Flagged(f"{_quoted(instance, schema)} does not match {_json(pattern)}", "patternMismatch")


def _multiple_of(validator: Any, step: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """JSON Schema's ``multipleOf``, which jsonschema computes with ``int()`` and ``Fraction``:
    NaN and Infinity (a Python caller's floats; ``1e400`` in JSON text parses to Infinity)
    raised ValueError and OverflowError out of :func:`validate_input`. They are no multiple of
    anything."""
    if isinstance(instance, float) and not math.isfinite(instance):
        yield ValidationError(f"{instance!r} is not a multiple of {step!r}")
        return
    yield from _MULTIPLE_OF(validator, step, instance, schema)


_MULTIPLE_OF = Draft202012Validator.VALIDATORS["multipleOf"]


def _address_pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string") or instance == "":
        return
    regex = compiled_pattern(pattern)
    if regex is not None and any(not regex_matches(regex, address) for address in instance.split(",")):
        yield _Flagged(f"an address of {_quoted(instance, schema)} does not match {_json(pattern)}", "patternMismatch")


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


# --- keywords whose stock implementation costs options x items ----------------------------------
#
# A select or checkbox group of n options says its values as an ``enum`` and an ``anyOf`` of
# ``const`` entries (and a group's required boxes as an ``allOf`` of ``contains``); jsonschema
# compares each item with every option, so a call of n items cost n² (4,000 options: 73 s). The
# option lists are marked once per validation (:func:`_marked`) and answered from sets; the
# errors are the ones the stock keywords give, but for those :func:`validate_input` would drop
# anyway (it keeps the first problem per field and flag).

_STANDARD = Draft202012Validator.VALIDATORS

#: The options an ``enum`` message lists; a longer list is cut, and its length said.
_ENUM_SHOWN = 20


class _Options(list[Any]):
    """An ``enum`` or an ``anyOf`` of string ``const`` entries, with its strings as a set."""

    def __init__(self, entries: list[Any], strings: frozenset[str]) -> None:
        super().__init__(entries)
        self.strings = strings


class _Musts(list[Any]):
    """An ``allOf`` of ``{"contains": {"const": string}}``: a group's required checkboxes."""

    def __init__(self, entries: list[Any], strings: list[str]) -> None:
        super().__init__(entries)
        self.strings = strings


def _string_const(entry: Any) -> str | None:
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("const"), str)
        and entry.keys() <= {"const", "title", "type"}
        and entry.get("type", "string") == "string"
    ):
        return str(entry["const"])
    return None


def _marked(schema: Any) -> Any:
    """``schema`` (a thawed copy, changed in place) with its option lists marked."""
    if isinstance(schema, list):
        for item in schema:
            _marked(item)
    elif isinstance(schema, dict):
        for value in schema.values():
            _marked(value)
        enum = schema.get("enum")
        if isinstance(enum, list) and all(isinstance(value, str) for value in enum):
            schema["enum"] = _Options(enum, frozenset(enum))
        any_of = schema.get("anyOf")
        if isinstance(any_of, list):
            consts = [_string_const(entry) for entry in any_of]
            if consts and all(const is not None for const in consts):
                schema["anyOf"] = _Options(any_of, frozenset(c for c in consts if c is not None))
        all_of = schema.get("allOf")
        if isinstance(all_of, list):
            musts = [
                _string_const(entry["contains"]) if isinstance(entry, dict) and entry.keys() == {"contains"} else None
                for entry in all_of
            ]
            if musts and all(must is not None for must in musts):
                schema["allOf"] = _Musts(all_of, [must for must in musts if must is not None])
    return schema


class _InJSON(ValidationError):  # type: ignore[misc]  # jsonschema is untyped
    """An error of a standard keyword whose message quotes its values as JSON already, so
    :func:`_as_json` leaves it as it is."""


def _enum(validator: Any, enum: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(enum, _Options):
        yield from _STANDARD["enum"](validator, enum, instance, schema)
    elif not (isinstance(instance, str) and instance in enum.strings):
        shown = ", ".join(map(_json, enum[:_ENUM_SHOWN]))
        rest = f", … {len(enum)} in all" if len(enum) > _ENUM_SHOWN else ""
        yield _InJSON(f"{_json(instance)} is not one of [{shown}{rest}]")


def _any_of(validator: Any, any_of: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(any_of, _Options):
        yield from _STANDARD["anyOf"](validator, any_of, instance, schema)
    elif not (isinstance(instance, str) and instance in any_of.strings):
        # every entry fails alike (field and flag): the first one's errors say why
        first = list(validator.descend(instance, any_of[0], schema_path=0))
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas", context=first)


def _all_of(validator: Any, all_of: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not (isinstance(all_of, _Musts) and validator.is_type(instance, "array")):
        yield from _STANDARD["allOf"](validator, all_of, instance, schema)
        return
    present = {item for item in instance if isinstance(item, str)}
    missing = next((index for index, must in enumerate(all_of.strings) if must not in present), None)
    if missing is not None:  # the first missing box: the others are the same field and flag
        yield from validator.descend(instance, all_of[missing], schema_path=missing)


def _required(validator: Any, required: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's ``required``, each error placed at its missing key, so that the key is not
    read back out of the message by searching every required name (n missing: n²)."""
    if validator.is_type(instance, "object"):
        for key in required:
            if key not in instance:
                yield ValidationError(f"{key!r} is a required property", path=[key])


def _additional_properties(
    validator: Any, allowed: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """A closed schema's unknown keys, one error each placed at its key: jsonschema's one error
    naming them all made each key's problem carry every other key (n unknown keys: n²)."""
    if allowed is not False or "patternProperties" in schema:
        yield from _STANDARD["additionalProperties"](validator, allowed, instance, schema)
    elif validator.is_type(instance, "object"):
        known = schema.get("properties", {})
        for key in instance:
            if key not in known:
                yield ValidationError(f"Additional properties are not allowed ({key!r} was unexpected)", path=[key])


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's ``uniqueItems`` in linear time: its own compares every pair of an array it
    cannot sort (mixed kinds)."""
    if unique and validator.is_type(instance, "array"):
        keys = [_json_key(item) for item in instance]
        if len(set(keys)) != len(keys):
            yield ValidationError(f"{instance!r} has non-unique elements")


def _json_key(value: Any) -> Any:
    """A hashable key equal for equal JSON values, as JSON Schema compares them: ``1`` is
    ``1.0`` and ``true`` is not ``1``; objects compare without order, arrays with."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(_json_key(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _json_key(item)) for key, item in value.items()))
    if isinstance(value, str):
        return ("string", value)
    return ("not JSON", id(value))  # (a set, bytes … from a Python caller: equal only to itself)


# --- subschemas validated by validators built once ----------------------------------------------
#
# jsonschema's ``descend`` builds a validator for the subschema it enters (a resolver, the
# keyword list) at every value of every call: a third of validating an input went there. A
# tool's property schemas, and the ``items`` schemas of its arrays, get theirs once, with the
# tool's validator (:func:`_with_validators`); entering them gives what ``descend`` gives.


class _Properties(dict[str, Any]):
    """A ``properties`` mapping with a validator per property schema."""

    def __init__(self, properties: dict[str, Any], validators: dict[str, Any]) -> None:
        super().__init__(properties)
        self.validators = validators


class _Items(dict[str, Any]):
    """An ``items`` schema with its validator, built over a plain copy of it: a validator of the
    schema itself would make a cycle, left for the garbage collector when the tool goes."""

    def __init__(self, items: dict[str, Any]) -> None:
        super().__init__(items)
        self.validator = _Validator(dict(items))


def _entered(
    validator: Any, instance: Any, path: str | int, schema_path: str | None
) -> Iterator[ValidationError]:
    """``descend`` into the schema of ``validator``, built for it: its errors placed as
    ``descend`` places them."""
    for error in validator.iter_errors(instance):
        error.path.appendleft(path)
        if schema_path is not None:
            error.schema_path.appendleft(schema_path)
        yield error


def _properties(validator: Any, properties: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(properties, _Properties):
        yield from _STANDARD["properties"](validator, properties, instance, schema)
    elif validator.is_type(instance, "object"):
        for key, subschema in properties.items():
            if key in instance:
                built = properties.validators.get(key)
                if built is None:  # a boolean schema
                    yield from validator.descend(instance[key], subschema, path=key, schema_path=key)
                else:
                    yield from _entered(built, instance[key], key, key)


def _items(validator: Any, items: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not isinstance(items, _Items) or "prefixItems" in schema:
        yield from _STANDARD["items"](validator, items, instance, schema)
    elif validator.is_type(instance, "array"):
        for index, item in enumerate(instance):
            yield from _entered(items.validator, item, index, None)


#: keywords that refer to, or name, a place in the whole schema (a validator built for a
#: subschema alone has no root to resolve them against: ``descend`` keeps the root's resolver),
#: and ``$schema``, by which ``descend`` validates a subschema under another draft's rules
_REFERENCING = frozenset({"$ref", "$dynamicRef", "$id", "$anchor", "$dynamicAnchor", "$schema"})


def _refers(schema: Any) -> bool:
    """Whether any (sub)schema of ``schema`` uses a keyword of :data:`_REFERENCING`."""
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if not _REFERENCING.isdisjoint(node):
                return True
            pending += node.values()
        elif isinstance(node, list):
            pending += node
    return False


def _with_validators(schema: Any) -> Any:
    """``schema`` (a thawed copy, changed in place) with a validator built for each property
    schema and each of their ``items`` schemas, innermost first (a validator reads its
    schema's keywords when it is built). A schema that refers to places in itself or names a
    draft (a caller's ``replace(tool, input_schema=...)``; formtools writes neither) is left to
    ``descend``."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or _refers(schema):
        return schema
    for subschema in properties.values():
        if isinstance(subschema, dict) and isinstance(subschema.get("items"), dict):
            subschema["items"] = _Items(subschema["items"])
    schema["properties"] = _Properties(
        properties, {key: _Validator(sub) for key, sub in properties.items() if isinstance(sub, dict)}
    )
    return schema


#: Errors placed at the key they are about (the input's object is their instance).
_ABOUT_A_KEY = frozenset({"required", "additionalProperties"})

_Validator = validators.extend(
    Draft202012Validator,
    {
        "pattern": _pattern,
        "x-formtools-address-pattern": _address_pattern,
        "x-formtools-html-type": _html_type,
        "multipleOf": _multiple_of,
        "enum": _enum,
        "anyOf": _any_of,
        "allOf": _all_of,
        "required": _required,
        "additionalProperties": _additional_properties,
        "uniqueItems": _unique_items,
        "properties": _properties,
        "items": _items,
    },
)


def _validator(tool: Tool, _: None) -> Any:
    return _Validator(_with_validators(_marked(thaw(tool.input_schema))))


#: a tool's validator, its schema's option lists marked and its subschemas' validators built
#: once: it only reads the schema, which is never handed out
_VALIDATORS = IdentityMemo(_validator)

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
    path = error.absolute_path
    if path:
        return [str(path[0])]
    return [None]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=repr)  # (repr: not JSON)


def _as_json(error: ValidationError) -> str:
    """jsonschema's message with the values it quotes as Python reprs (``'x'``, ``['a', 'b']``,
    ``True``) written as JSON (``"x"``, ``["a", "b"]``, ``true``), so that a message reads in the
    language of the input it is about."""
    if isinstance(error, _InJSON):
        return str(error.message)
    values: list[Any]
    if error.validator in _ABOUT_A_KEY:
        values = list(error.relative_path)  # the key: nothing else is quoted
    else:
        values = [error.instance, error.validator_value]
    message = str(error.message)
    for value in sorted(values, key=lambda v: len(repr(v)), reverse=True):
        if isinstance(value, (str, int, float, list, dict, bool)) or value is None:
            message = message.replace(repr(value), _json(value))
    return message


#: The deepest tool input taken, in levels of arrays and objects (the input object is level
#: 1). A form's fields take strings, numbers and lists of them; the schema checks and their
#: messages recurse per level, and Python's recursion ended in RecursionError near 500 levels.
MAX_INPUT_DEPTH = 200


def nests_deeper_than_taken(value: Any) -> bool:
    """Whether ``value`` nests more than :data:`MAX_INPUT_DEPTH` levels of lists and dicts
    (counted without recursion, stopping at the first level too deep)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            if level > MAX_INPUT_DEPTH:
                return True
            members = item.values() if isinstance(item, dict) else item
            stack.extend((member, level + 1) for member in members)
    return False


def validate_input(tool: Tool, tool_input: Any, *, files: Iterable[str] = ()) -> list[Problem]:
    """Every problem of ``tool_input`` under ``tool``'s input schema, in field order; then a
    required file input the call attaches no file to (``files``: the names of the file inputs
    it does), which no schema can say and :func:`~formtools.call` would refuse. A name in
    ``files`` that no enabled file input has raises :class:`~formtools.SubmissionError`, as
    :func:`~formtools.prepare_call` does. The patterns it matches share one
    :func:`~formtools._spec.microsyntax.pattern_budget` (a call's, when the call validates)."""
    require_tool(tool, "validate_input")
    with pattern_budget():
        return _problems(tool, tool_input, frozenset(files))


def _problems(tool: Tool, tool_input: Any, attached: frozenset[str]) -> list[Problem]:
    check_file_names(tool.form, attached)
    validator = _VALIDATORS(tool, None)
    schema = validator.schema
    secret_fields = sensitive_keys(tool.form)
    problems: dict[tuple[str | None, str], Problem] = {}
    browser_worded: set[tuple[str | None, str]] = set()
    too_deep = f"nested deeper than {MAX_INPUT_DEPTH} levels of arrays and objects"
    if too_large_when_written(tool_input):  # first: the walks below go through every reference
        return [Problem(None, "badInput", TOO_LARGE)]
    if not isinstance(tool_input, dict) and nests_deeper_than_taken(tool_input):
        return [Problem(None, "badInput", too_deep)]
    not_json = non_json_value(tool_input) if isinstance(tool_input, dict) else None
    if not_json is not None:  # as call refuses it (validate ⇔ call)
        return [Problem(not_json.key, "badInput", not_json.message)]
    if holds_lone_surrogate(tool_input):
        return [Problem(None, "badInput", NOT_JSON)]
    if isinstance(tool_input, dict):
        # a field's value as deep as a whole input may be: level 2 of the input
        deep = [key for key, value in tool_input.items() if nests_deeper_than_taken([value])]
        for key in deep:
            problems[(key, "badInput")] = Problem(key, "badInput", too_deep)
        tool_input = {key: value for key, value in tool_input.items() if key not in deep}
        # executeTool's JSON round trip makes these null, as fill reads them (a call refuses
        # them so); Python keeps a huge integer exact, and arithmetic on it (multipleOf) would overflow
        huge = [
            key for key, value in tool_input.items()
            if beyond_json(value) or (isinstance(value, list) and any(map(beyond_json, value)))
        ]
        for key in huge:
            problems[(key, "badInput")] = Problem(key, "badInput", BEYOND_JSON)
        tool_input = {key: value for key, value in tool_input.items() if key not in huge}
    for error in _leaves(validator.iter_errors(tool_input)):
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
                if field in secret_fields and error.validator not in _ABOUT_A_KEY:  # a secret value is never quoted
                    message = message.replace(_json(error.instance), _json(MASK))
                    message = message.replace(repr(error.instance), repr(MASK))
                problems[key] = Problem(field, flag, message)  # the browser's words win
            if isinstance(error, _Flagged):
                browser_worded.add(key)
    _name_what_leaving_out_fails(tool, tool_input, problems)
    order = {key: place for place, key in enumerate(schema.get("properties", {}))}
    found = sorted(
        problems.values(),
        key=lambda p: (len(order) if p.field is None else order.get(p.field, len(order)), p.field or ""),
    )
    return found + _files_missing(tool, attached)


def _name_what_leaving_out_fails(
    tool: Tool, tool_input: Any, problems: dict[tuple[str | None, str], Problem]
) -> None:
    """A required key left out keeps its control's current state: when that state fails for
    another reason than being empty (a ``value`` off its ``pattern``, outside ``min``/``max``
    …), the problem is reported with that flag and the browser's message, not as
    valueMissing."""
    given = tool_input if isinstance(tool_input, dict) else {}
    missing = [key for key, flag in problems if flag == "valueMissing" and key is not None and key not in given]
    if not missing:
        return
    groups = {parameter.group.key: parameter.group for parameter in parameters_of(tool.form, tool.profile).parameters}
    # only the left-out groups' controls are checked (each control's verdict is its own)
    left_out = {control.index for key in missing if key in groups for control in groups[key].controls}
    controls = [control for control in tool.form.controls if control.index in left_out]
    by_state = {p.control.index: p for p in invalid_controls(initial_state(tool.form), controls)}
    for key in missing:
        group = groups.get(key)
        if group is None:
            continue
        state = next((by_state[c.index] for c in group.controls if c.index in by_state), None)
        if state is not None and state.flag != "valueMissing":
            del problems[(key, "valueMissing")]
            problems[(key, state.flag)] = Problem(key, state.flag, f"left out, it keeps {state.control.describe}'s value: {state.message}")


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
