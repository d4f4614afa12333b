"""Constraint validation at submit, as ``requestSubmit()`` runs it (#constraints).

Each candidate control of the filled form is checked in Chromium's order (valueMissing,
typeMismatch, patternMismatch, rangeUnderflow, rangeOverflow, stepMismatch). An invalid control's
message is its en-US ``validationMessage``, which Chromium builds on its own
(InputType::ValidationMessage) and which does not always follow the flag: a time inside a
reversed range that only mismatches its step says "Value must be 10:00 PM or later.", a min
above the max says so. The values it shows are computed with Chromium's StepRange
(:func:`formtools._forms.values.range_problem`) and localized as ICU writes them for en-US
(:func:`localize_value`); the e-mail messages name the first bad address of a list.
``minlength`` / ``maxlength`` are not checked: they only apply after a user edit, and a tool
call is not one.

``tests/test_validity_messages.py`` holds this module to thousands of messages recorded from
the real browser (``fixtures/expected/validation-messages.json``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from formtools._spec.constants import MASK
from formtools._spec.microsyntax import (
    CompiledPattern,
    PatternCache,
    compiles_as_v_flag_regex,
    pattern_budget,
    regex_matches,
    v_flag_regex,
)
from formtools._forms.state import FormState
from formtools._forms.model import Control, placeholder_label_option
from formtools._forms.sensitive import is_sensitive
from formtools.errors import Unsupported
from formtools._forms.values import (
    RangeProblem,
    is_valid_absolute_url,
    is_valid_email,
    range_flag,
    range_problem,
    temporal_fields,
)

__all__ = ["ValidityProblem", "invalid_controls", "is_candidate", "localize_value", "value_problem"]

# #barred-from-constraint-validation, besides disabled, readonly and datalist descendants
_BARRED_TYPES = frozenset({"hidden", "reset", "button", "submit", "image"})
_VALUE_MISSING_TYPES = frozenset(
    {"text", "search", "url", "tel", "email", "password", "date", "month", "week", "time",
     "datetime-local", "number"}
)  # fmt: skip
# BaseTextInputType: the types that take pattern
_PATTERN_TYPES = frozenset({"text", "search", "url", "tel", "email", "password"})
_RANGED_TYPES = frozenset({"number", "range", "date", "month", "week", "time", "datetime-local"})

_MESSAGES = {
    "valueMissing": "Please fill out this field.",
    "valueMissing:checkbox": "Please check this box if you want to proceed.",
    "valueMissing:radio": "Please select one of these options.",
    "valueMissing:select": "Please select an item in the list.",
    "valueMissing:file": "Please select a file.",
    "typeMismatch:url": "Please enter a URL.",
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


@PatternCache
def _anchored(pattern: str) -> CompiledPattern | None:
    """``pattern`` as constraint validation matches it, the whole value, or None where V8 does
    not compile it (no check). Kept as :func:`~formtools._spec.microsyntax.compiled_pattern`
    keeps patterns: with 1,024, a page of more patterns compiled each again at every call."""
    if not compiles_as_v_flag_regex(pattern):
        return None
    return v_flag_regex(f"^(?:{pattern})$", pattern)


def _pattern_mismatch(kind: str, attributes: Mapping[str, str], value: str) -> bool:
    pattern = attributes.get("pattern")
    if pattern is None or value == "":
        return False
    regex = _anchored(pattern)
    if regex is None:
        return False
    if kind == "email" and "multiple" in attributes:
        return any(not regex_matches(regex, token) for token in value.split(","))
    return not regex_matches(regex, value)


_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_LOCAL_PART_CHARACTERS = frozenset(_ALPHANUMERIC + "!#$%&'*+/=?^_`{|}~.-")
_DOMAIN_CHARACTERS = frozenset(_ALPHANUMERIC + ".-")
_HTML_SPACES = " \t\n\f\r"


def _invalid_address(value: str, multiple: bool) -> str | None:
    """EmailInputType::FindInvalidAddress: the whole value, or the first bad address of a list."""
    if not multiple:
        return None if is_valid_email(value) else value
    for address in value.split(","):
        stripped = address.strip(_HTML_SPACES)
        if not is_valid_email(stripped):
            return stripped
    return None


def _unicode_domain(domain: str) -> str:
    """The domain as the message shows it: ``xn--`` labels decoded (url_formatter::IDNToUnicode).

    Chromium keeps a label in punycode when its spoof checks find it unsafe. Their main rules
    are modelled (mixed scripts, joiners, Cyrillic that looks Latin); the comparison with the
    skeletons of top domains (``xn--pokmon-dva.com`` stays, as ``pokemon.com`` is one) is not.
    """
    if not domain.isascii() or "xn--" not in domain:
        return domain
    labels = domain.split(".")
    ascii_tld = not labels[-1].lower().startswith("xn--")
    return ".".join(_unicode_label(label, ascii_tld) for label in labels)


# components/url_formatter/spoof_checks/idn_spoof_checker.cc
_LATIN_ALIKE_CYRILLIC = frozenset("асԁеһіјӏорԗԛѕԝхуъЬҽпгѵѡ")
_JOINERS = frozenset("\u200c\u200d")
_SCRIPT_MIXES = (  # what ICU's "highly restrictive" level lets one label mix
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)


def _unicode_label(label: str, ascii_tld: bool) -> str:
    import idna  # httpx's dependency

    try:
        mapped = idna.uts46_remap(label, std3_rules=False, transitional=False)
    except idna.IDNAError:
        return label
    if not mapped.startswith("xn--"):
        return label
    try:
        decoded = mapped[4:].encode("ascii").decode("punycode")
        idna.check_label(decoded)
        if decoded.encode("punycode").decode("ascii") != mapped[4:]:
            return label  # not the canonical encoding (xn---p1ai)
    except (UnicodeError, ValueError, idna.IDNAError):
        return label
    if not decoded or decoded.isascii():
        return label
    if any(ch in _JOINERS or "\u0250" <= ch <= "\u02ff" for ch in decoded):
        return label  # joiners; IPA letters and modifiers are outside the allowed identifiers
    scripts = set()
    for ch in decoded:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            scripts.add("KATAKANA" if name.startswith("HALFWIDTH KATAKANA") else name.partition(" ")[0])
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _SCRIPT_MIXES):
        return label
    cyrillic = [ch for ch in decoded if unicodedata.name(ch, "").startswith("CYRILLIC")]
    if ascii_tld and cyrillic and all(ch in _LATIN_ALIKE_CYRILLIC for ch in cyrillic):
        return label
    return decoded


def _email_message(value: str, multiple: bool, secret: bool = False) -> str:
    """EmailInputType::TypeMismatchText for a value that is not a valid e-mail address (list).
    For a ``secret`` field, the parts of the value Chromium quotes are masked."""
    address = _invalid_address(value, multiple)
    if not address:
        return "Please enter a non-empty email address."
    if secret:
        return f"Please enter an email address. '{MASK}' is not one."
    at = address.find("@")
    if at < 0:
        return f"Please include an '@' in the email address. '{address}' is missing an '@'."
    local, domain = address[:at], address[at + 1 :]
    shown_domain = _unicode_domain(domain) if address.isascii() else domain
    if not local:
        return f"Please enter a part followed by '@'. '{local}@{shown_domain}' is incomplete."
    if not domain:
        return f"Please enter a part following '@'. '{address}' is incomplete."
    for char in local:
        if char not in _LOCAL_PART_CHARACTERS:
            return f"A part followed by '@' should not contain the symbol '{char}'."
    for char in domain:
        if char not in _DOMAIN_CHARACTERS:
            return f"A part following '@' should not contain the symbol '{char}'."
    if domain.startswith(".") or domain.endswith(".") or ".." in domain:
        return f"'.' is used at a wrong position in '{shown_domain}'."
    if multiple:
        return "Please enter a comma separated list of email addresses."
    return "Please enter an email address."


def _radio_groups_missing(state: FormState) -> frozenset[str]:
    """The names of the form's radio groups that miss a value: a member is required and none is
    checked. Decided for all groups at once, as every radio of a group asks about all of it.

    HTML puts an unnamed radio button in a group of its own, which a required one leaves
    unchecked; Blink puts it in no group and never reports it missing (measured: checkValidity()
    is true, executeTool submits) — formtools follows the browser."""
    required: set[str] = set()
    checked: set[str] = set()
    for control in state.form.controls:
        name = control.attributes.get("name")
        if control.tag == "input" and control.type == "radio" and name:
            if "required" in control.attributes:
                required.add(name)
            if state.of(control).checked:
                checked.add(name)
    return frozenset(required - checked)


def _select_missing(state: FormState, control: Control) -> bool:
    selected = [i for i, flag in enumerate(state.of(control).selected) if flag]
    if not selected:
        return True
    if control.type == "select-multiple":
        return False
    return selected == [0] and placeholder_label_option(control) is not None


def _problem(
    state: FormState, control: Control, radio_groups_missing: frozenset[str]
) -> tuple[str, str] | None:
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
        if control.attributes.get("name") in radio_groups_missing:
            return "valueMissing", _MESSAGES["valueMissing:radio"]
        return None
    if kind == "file":
        return ("valueMissing", _MESSAGES["valueMissing:file"]) if required else None
    return value_problem(kind, current.value, control.attributes, secret=is_sensitive(control))


def value_problem(
    kind: str, value: str, attributes: Mapping[str, str], *, secret: bool = False
) -> tuple[str, str] | None:
    """(flag, message) for an ``<input>`` of a value-mode type (not checkbox, radio or file)
    holding the sanitized ``value``, or None when it is valid.

    The flag is the first of Chromium's validity flags that is set; the message is
    ``validationMessage`` in en-US, which Chromium computes on its own (InputType::
    ValidationMessage) and which does not always follow the flag.
    """
    if "required" in attributes and kind in _VALUE_MISSING_TYPES and value == "":
        return "valueMissing", _MESSAGES["valueMissing"]
    if value == "":
        return None
    multiple = "multiple" in attributes
    if kind == "email" and not is_valid_email(value, multiple):
        return "typeMismatch", _email_message(value, multiple, secret)
    if kind == "url" and not is_valid_absolute_url(value):
        return "typeMismatch", _MESSAGES["typeMismatch:url"]
    if kind in _PATTERN_TYPES and _pattern_mismatch(kind, attributes, value):
        return "patternMismatch", _MESSAGES["patternMismatch"]
    if kind in _RANGED_TYPES:
        low, high = attributes.get("min"), attributes.get("max")
        step, base = attributes.get("step"), attributes.get("value")
        flag = range_flag(kind, value, min=low, max=high, step=step, value_attribute=base)
        if flag is not None:
            problem = range_problem(kind, value, min=low, max=high, step=step, value_attribute=base)
            return flag, _range_message(kind, problem)
    return None


def _range_message(kind: str, problem: RangeProblem | None) -> str:
    """The steppable part of InputType::ValidationMessage, localized for en-US."""
    if problem is None:
        return ""
    shown = [localize_value(kind, value, seconds=problem.seconds) for value in problem.values]
    temporal = kind not in ("number", "range")
    if problem.kind == "reversed":
        return f"Value must be between {shown[0]} and {shown[1]}."
    if problem.kind == "invalid":
        if temporal:
            return f"Minimum date ({shown[0]}) must come before Maximum date ({shown[1]})."
        return f"Minimum value ({shown[0]}) must be less than the maximum value ({shown[1]})."
    if problem.kind == "equal":
        return f"Value must be {shown[0]}."
    if problem.kind == "underflow":
        if temporal:
            return f"Value must be {shown[0]} or later."
        return f"Value must be greater than or equal to {shown[0]}."
    if problem.kind == "overflow":
        if temporal:
            return f"Value must be {shown[0]} or earlier."
        return f"Value must be less than or equal to {shown[0]}."
    if len(shown) == 1:
        return f"Please enter a valid value. The nearest valid value is {shown[0]}."
    return f"Please enter a valid value. The two nearest valid values are {shown[0]} and {shown[1]}."


_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()


def localize_value(kind: str, text: str, *, seconds: bool = False) -> str:
    """InputType::LocalizeValue in en-US: numbers as they are, dates and times as Chromium's
    ICU patterns write them (``MM/dd/yyyy``, ``MMMM yyyy``, ``'Week' ww, yyyy``, ``h:mm a``).

    A time shows its seconds when they are not zero or when ``seconds`` says the control needs
    them (see :class:`formtools._forms.values.RangeProblem`), and its milliseconds, as three digits,
    when they are not zero.
    """
    fields = temporal_fields(kind, text)
    if fields is None:
        return text
    year, month, day, week, hour, minute, second, millisecond = fields
    if kind == "month":
        return f"{_MONTH_NAMES[month - 1]} {year:04d}"
    if kind == "week":
        return f"Week {week:02d}, {year:04d}"
    date = f"{month:02d}/{day:02d}/{year:04d}"
    if kind == "date":
        return date
    time = f"{hour % 12 or 12}:{minute:02d}"
    if seconds or second or millisecond:
        time += f":{second:02d}"
    if millisecond:
        time += f".{millisecond:03d}"
    time += "\u202fAM" if hour < 12 else "\u202fPM"
    return time if kind == "time" else f"{date}, {time}"


def is_candidate(control: Control) -> bool:
    """Not barred from constraint validation. HTML bars an ``input`` with a ``readonly``
    attribute whatever its type ("If the readonly attribute is specified on an input element,
    the element is barred"), though readonly applies to the value of text-like types only: a
    required readonly checkbox or radio is barred too (measured: willValidate false in Chromium
    for every input type)."""
    if control.disabled or control.in_datalist or control.readonly:
        return False
    if control.tag == "input" and "readonly" in control.attributes:
        return False
    if control.tag in ("fieldset", "output", "object", "button"):
        return False
    return not (control.tag == "input" and control.type in _BARRED_TYPES)


def invalid_controls(
    state: FormState, controls: Sequence[Control] | None = None, *, unknown_as_valid: bool = False
) -> list[ValidityProblem]:
    """Every candidate control of the filled form that fails a constraint, in tree order
    (``controls``: only those of these, which are the form's in tree order). Their patterns
    share one :func:`~formtools._spec.microsyntax.pattern_budget`.

    A control whose value formtools cannot check (a ``pattern`` V8 compiles and regress refuses)
    raises :class:`~formtools.Unsupported`, or with ``unknown_as_valid`` counts as valid: what
    extraction decides from a page's initial state (a parameter is required, a form can never be
    valid) must not fail the page, and a call that keeps such a value is refused when it is
    validated."""
    problems = []
    radio_groups_missing = _radio_groups_missing(state)
    with pattern_budget():
        for control in state.form.controls if controls is None else controls:
            if not is_candidate(control):
                continue
            try:
                found = _problem(state, control, radio_groups_missing)
            except Unsupported:
                if not unknown_as_valid:
                    raise
                continue
            if found is not None:
                problems.append(ValidityProblem(control.key, found[0], found[1], control))
    return problems
