"""Input values as Chromium 156 sanitizes, converts and validates them.

An agent's arguments are written into controls with ``input.value = X``, and what the form then
submits, and whether it validates, is whatever the browser made of X. This module answers the
same questions without a browser: :func:`sanitize` is #value-sanitization-algorithm per type,
the ``parse_*`` functions are the string-to-number conversions, and :func:`type_mismatch`,
:func:`range_underflow`, :func:`range_overflow` and :func:`step_mismatch` are the validity
flags (:func:`range_flag`: the first of the last three, the value parsed once). ``tests/test_values.py`` holds every function to thousands of answers recorded from the
real browser (``fixtures/expected/value-rules.json``).

The spec alone does not agree with Chromium, so each part models what Chromium does instead:

- Min, max and step arithmetic runs in Blink's own decimal type (18 significant digits,
  truncating alignment, half-away-from-zero rounding, a single-precision tolerance for
  ``step``). :class:`_Decimal` models it, so ``range`` rounds and ``stepMismatch`` decides as
  Chromium does, and range values print as Chromium prints decimals (``1e+2``, not ``100``).
- A datetime-local's milliseconds pass through a double of microseconds, inexact far from 1970.
- ``type=url`` accepts what GURL parses, not what the URL Standard does (``http://a b`` is
  valid, ``file://host#x`` is not), and ``type=email`` is checked as ASCII.
- ``type=color`` takes any CSS color Chromium can resolve without an element (hex, keywords,
  system colors, rgb() to color(), with calc()) and keeps ``#rrggbb``: alpha is dropped and
  other color spaces are converted and clipped with Chromium's matrices, in single precision
  where Chromium uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from formtools._spec.microsyntax import parse_float
from formtools._forms.values.temporal import parse_date, parse_datetime_local, parse_month, parse_time, parse_week
from formtools._forms.values.steps import RangeProblem, nearest_valid_values, range_flag, range_overflow, range_problem, range_underflow, step_mismatch, temporal_fields, value_as_number
from formtools._forms.values.email_url import email_to_ascii, is_valid_absolute_url, is_valid_email, type_mismatch
from formtools._forms.values.decimal import _number_decimal, _serialize_number
from formtools._forms.values.temporal import _PARSERS, _moment, _normalized_datetime
from formtools._forms.values.steps import _step_range
from formtools._forms.values.color import _sanitize_color

__all__ = [
    "sanitize",
    "parse_date",
    "parse_month",
    "parse_week",
    "parse_time",
    "parse_datetime_local",
    "value_as_number",
    "is_valid_email",
    "email_to_ascii",
    "is_valid_absolute_url",
    "type_mismatch",
    "range_underflow",
    "range_overflow",
    "step_mismatch",
    "range_flag",
    "RangeProblem",
    "range_problem",
    "nearest_valid_values",
    "temporal_fields",
]

_HTML_SPACES = " \t\n\f\r"
_LINE_BREAKS = str.maketrans("", "", "\r\n")



# --- sanitization: one rule per control kind ------------------------------------------------------


@dataclass(frozen=True)
class _Attributes:
    """The attributes value sanitization reads: ``multiple`` (email), the others (range)."""

    multiple: bool
    min: str | None
    max: str | None
    step: str | None
    value: str | None


def _without_line_breaks(value: str, _: _Attributes) -> str:
    return value.translate(_LINE_BREAKS)


def _url(value: str, _: _Attributes) -> str:
    return value.translate(_LINE_BREAKS).strip(_HTML_SPACES)


def _email(value: str, attributes: _Attributes) -> str:
    value = value.translate(_LINE_BREAKS)
    if not attributes.multiple:
        return value.strip(_HTML_SPACES)
    return ",".join(part.strip(_HTML_SPACES) for part in value.split(","))


def _number(value: str, _: _Attributes) -> str:
    return value if parse_float(value) is not None else ""


def _range(value: str, attributes: _Attributes) -> str:
    limits = _step_range("range", attributes.min, attributes.max, attributes.step, attributes.value)
    number = _number_decimal(value)
    return _serialize_number(limits.clamp(number if number.finite else limits.default_range_value()))


def _datetime_local(value: str, _: _Attributes) -> str:
    moment = _moment("datetime-local", value)
    return "" if moment is None else _normalized_datetime(moment)


def _temporal(input_type: str) -> Callable[[str, _Attributes], str]:
    def sanitized(value: str, _: _Attributes) -> str:
        return value if _moment(input_type, value) is not None else ""

    return sanitized


def _color(value: str, _: _Attributes) -> str:
    return _sanitize_color(value)


#: input type → its value sanitization algorithm (#value-sanitization-algorithm, as Chromium
#: runs it); types not listed (hidden, checkbox, radio, file, buttons) keep the value as it is.
SANITIZERS: Mapping[str, Callable[[str, _Attributes], str]] = MappingProxyType(
    {
        **dict.fromkeys(("text", "search", "tel", "password"), _without_line_breaks),
        "url": _url,
        "email": _email,
        "number": _number,
        "range": _range,
        "datetime-local": _datetime_local,
        **{kind: _temporal(kind) for kind in _PARSERS if kind != "datetime-local"},
        "color": _color,
    }
)


def sanitize(
    input_type: str,
    value: str,
    *,
    multiple: bool = False,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    value_attribute: str | None = None,
) -> str:
    """#value-sanitization-algorithm as Chromium 156 runs it for ``input.value = value``.

    ``input_type`` is the normalized type keyword (lowercase; unknown types are ``text``). The
    attributes matter only to ``email`` (``multiple``) and ``range`` (all the others).
    """
    rule = SANITIZERS.get(input_type)
    if rule is None:
        return value
    return rule(value, _Attributes(multiple, min, max, step, value_attribute))
