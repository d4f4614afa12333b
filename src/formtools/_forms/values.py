"""Input values as Chromium 156 sanitizes, converts and validates them.

An agent's arguments are written into controls with ``input.value = X``, and what the form then
submits, and whether it validates, is whatever the browser made of X. This module answers the
same questions without a browser: :func:`sanitize` is #value-sanitization-algorithm per type,
the ``parse_*`` functions are the string-to-number conversions, and :func:`type_mismatch`,
:func:`range_underflow`, :func:`range_overflow` and :func:`step_mismatch` are the validity
flags. ``tests/test_values.py`` holds every function to thousands of answers recorded from the
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

import math
import re
import struct
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from formtools._spec.jsjson import js_number
from formtools._spec.microsyntax import parse_float

__all__ = [
    "sanitize",
    "parse_date",
    "parse_month",
    "parse_week",
    "parse_time",
    "parse_datetime_local",
    "value_as_number",
    "is_valid_email",
    "is_valid_absolute_url",
    "type_mismatch",
    "range_underflow",
    "range_overflow",
    "step_mismatch",
    "RangeProblem",
    "range_problem",
    "nearest_valid_values",
    "temporal_fields",
]

_HTML_SPACES = " \t\n\f\r"
_LINE_BREAKS = str.maketrans("", "", "\r\n")


# --- Chromium's decimal type -------------------------------------------------------------------

_PRECISION = 18
_MAX_COEFFICIENT = 10**_PRECISION - 1
_EXPONENT_MAX = 1023
_EXPONENT_MIN = -1023
_DBL_DIG = 15  # significant digits Decimal::ToString keeps after the point


@dataclass(frozen=True, eq=False)
class _Decimal:
    """A value of Blink's ``Decimal``: sign, 18-digit coefficient, exponent, or ±inf / NaN."""

    negative: bool = False
    exponent: int = 0
    coefficient: int = 0
    special: str = ""  # "", "inf" or "nan"

    @staticmethod
    def of(negative: bool, exponent: int, coefficient: int) -> _Decimal:
        # Too many digits are cut (not rounded) off; out-of-range exponents overflow or vanish.
        if _EXPONENT_MIN <= exponent <= _EXPONENT_MAX:
            while coefficient > _MAX_COEFFICIENT:
                coefficient //= 10
                exponent += 1
        if exponent > _EXPONENT_MAX:
            return _Decimal(negative, special="inf")
        if exponent < _EXPONENT_MIN:
            return _Decimal(negative)
        return _Decimal(negative, exponent, coefficient)

    @staticmethod
    def from_int(value: int) -> _Decimal:
        return _Decimal.of(value < 0, 0, abs(value))

    @staticmethod
    def from_double(value: float) -> _Decimal:
        if math.isnan(value):
            return _NAN
        if math.isinf(value):
            return _Decimal(value < 0, special="inf")
        return _Decimal.from_string(js_number(value))

    @staticmethod
    def from_string(text: str) -> _Decimal:  # noqa: C901 - one state machine, kept whole
        """Decimal::FromString: digits beyond the 18th are dropped, not rounded."""
        exponent = 0
        exponent_negative = False
        digits = after_dot = extra = 0
        negative = False
        accumulator = 0
        state = "start"
        for ch in text:
            digit = "0" <= ch <= "9"
            if state == "digit":
                if digit:
                    if digits < _PRECISION:
                        digits += 1
                        accumulator = accumulator * 10 + ord(ch) - 48
                    else:
                        extra += 1
                elif ch == ".":
                    state = "dot"
                elif ch in "eE":
                    state = "e"
                else:
                    return _NAN
            elif state in ("dot", "dotdigit"):
                if digit:
                    if digits < _PRECISION:
                        digits += 1
                        after_dot += 1
                        accumulator = accumulator * 10 + ord(ch) - 48
                    state = "dotdigit"
                elif ch in "eE":
                    state = "e"
                else:
                    return _NAN
            elif state == "e":
                if ch in "+-":
                    exponent_negative = ch == "-"
                    state = "esign"
                elif digit:
                    exponent = ord(ch) - 48
                    state = "edigit"
                else:
                    return _NAN
            elif state == "edigit":
                if not digit:
                    return _NAN
                exponent = exponent * 10 + ord(ch) - 48
                if exponent > _EXPONENT_MAX + _PRECISION:
                    if accumulator:
                        return _ZERO if exponent_negative else _Decimal(negative, special="inf")
                    return _Decimal(negative)
            elif state == "esign":
                if not digit:
                    return _NAN
                exponent = ord(ch) - 48
                state = "edigit"
            elif state in ("start", "sign"):
                if "1" <= ch <= "9":
                    accumulator = ord(ch) - 48
                    digits = 1
                    state = "digit"
                elif state == "start" and ch in "+-":
                    negative = ch == "-"
                    state = "sign"
                elif ch == "0":
                    state = "zero"
                elif ch == ".":
                    state = "dot"
                else:
                    return _NAN
            else:  # zero
                if ch == "0":
                    continue
                if "1" <= ch <= "9":
                    accumulator = ord(ch) - 48
                    digits = 1
                    state = "digit"
                elif ch == ".":
                    state = "dot"
                elif ch in "eE":
                    state = "e"
                else:
                    return _NAN
        if state == "zero":
            return _Decimal(negative)
        if state not in ("digit", "edigit", "dotdigit"):
            return _NAN
        result_exponent = (-exponent if exponent_negative else exponent) - after_dot + extra
        if result_exponent < _EXPONENT_MIN:
            return _ZERO
        overflow = result_exponent - _EXPONENT_MAX + 1
        if overflow > 0:
            if overflow + digits - after_dot > _PRECISION:
                return _Decimal(negative, special="inf")
            accumulator *= 10**overflow
            result_exponent -= overflow
        return _Decimal.of(negative, result_exponent, accumulator)

    # -- predicates

    @property
    def finite(self) -> bool:
        return not self.special

    @property
    def nan(self) -> bool:
        return self.special == "nan"

    @property
    def zero(self) -> bool:
        return not self.special and not self.coefficient

    # -- arithmetic

    def __neg__(self) -> _Decimal:
        return (
            self if self.nan else _Decimal(not self.negative, self.exponent, self.coefficient, self.special)
        )

    def __abs__(self) -> _Decimal:
        return _Decimal(False, self.exponent, self.coefficient, self.special)

    def _aligned(self, other: _Decimal) -> tuple[int, int, int]:
        # Align both coefficients to the smaller exponent, keeping at most 18 digits: the
        # operand with the smaller exponent loses its low digits when they would not fit.
        lhs, rhs = self.coefficient, other.coefficient
        exponent = min(self.exponent, other.exponent)
        shift = self.exponent - other.exponent
        if shift > 0 and lhs:
            overflow = len(str(lhs)) + shift - _PRECISION
            if overflow <= 0:
                lhs *= 10**shift
            else:
                lhs *= 10 ** (shift - overflow)
                rhs //= 10**overflow
                exponent += overflow
        elif shift < 0 and rhs:
            overflow = len(str(rhs)) - shift - _PRECISION
            if overflow <= 0:
                rhs *= 10**-shift
            else:
                rhs *= 10 ** (-shift - overflow)
                lhs //= 10**overflow
                exponent += overflow
        return lhs, rhs, exponent

    def __add__(self, other: _Decimal) -> _Decimal:
        if self.special or other.special:
            if self.nan or other.nan:
                return _NAN
            if self.special and other.special:
                return self if self.negative == other.negative else _NAN
            return self if self.special else other
        lhs, rhs, exponent = self._aligned(other)
        result = lhs + rhs if self.negative == other.negative else lhs - rhs
        if self.negative and not other.negative and not result:
            return _Decimal.of(False, exponent, 0)
        if result >= 0:
            return _Decimal.of(self.negative, exponent, result)
        return _Decimal.of(not self.negative, exponent, -result)

    def __sub__(self, other: _Decimal) -> _Decimal:
        if self.special or other.special:
            if self.nan or other.nan:
                return _NAN
            if self.special and other.special:
                return _NAN if self.negative == other.negative else self
            return self if self.special else _Decimal(not other.negative, special="inf")
        lhs, rhs, exponent = self._aligned(other)
        result = lhs - rhs if self.negative == other.negative else lhs + rhs
        if self.negative and other.negative and not result:
            return _Decimal.of(False, exponent, 0)
        if result >= 0:
            return _Decimal.of(self.negative, exponent, result)
        return _Decimal.of(not self.negative, exponent, -result)

    def __mul__(self, other: _Decimal) -> _Decimal:
        negative = self.negative != other.negative
        if self.special or other.special:
            if self.nan or other.nan:
                return _NAN
            if (self.special and other.zero) or (other.special and self.zero):
                return _NAN
            return _Decimal(negative, special="inf")
        product = self.coefficient * other.coefficient
        exponent = self.exponent + other.exponent
        while product >= 2**64:  # the 128-bit product is cut back to 64 bits
            product //= 10
            exponent += 1
        return _Decimal.of(negative, exponent, product)

    def __truediv__(self, other: _Decimal) -> _Decimal:
        negative = self.negative != other.negative
        if self.special or other.special:
            if self.nan or other.nan:
                return _NAN
            if self.special and other.special:
                return _NAN
            return _Decimal(negative, special="inf") if self.special else _Decimal(negative)
        if other.zero:
            return _NAN if self.zero else _Decimal(negative, special="inf")
        exponent = self.exponent - other.exponent
        if self.zero:
            return _Decimal.of(negative, exponent, 0)
        remainder, divisor, result = self.coefficient, other.coefficient, 0
        while True:
            while remainder < divisor and result < _MAX_COEFFICIENT // 10:
                remainder *= 10
                result *= 10
                exponent -= 1
            if remainder < divisor:
                break
            quotient = remainder // divisor
            if result > _MAX_COEFFICIENT - quotient:
                break
            result += quotient
            remainder %= divisor
            if not remainder:
                break
        if remainder > divisor // 2:
            result += 1
        return _Decimal.of(negative, exponent, result)

    def rounded(self) -> _Decimal:
        """Decimal::Round: to an integer, halves away from zero."""
        if self.special or self.exponent >= 0:
            return self
        drop = -self.exponent
        if len(str(self.coefficient)) < drop:
            return _ZERO
        result = self.coefficient // 10 ** (drop - 1)
        if result % 10 >= 5:
            result += 10
        return _Decimal.of(self.negative, 0, result // 10)

    # -- comparison: Blink compares by subtracting, so the truncation above applies to it too

    def _compare(self, other: _Decimal) -> _Decimal:
        result = self - other
        if result.special == "inf":
            return _Decimal.from_int(-1 if result.negative else 1)
        return _ZERO if result.zero else result

    def __lt__(self, other: _Decimal) -> bool:
        result = self._compare(other)
        return not result.nan and not result.zero and result.negative

    def __gt__(self, other: _Decimal) -> bool:
        result = self._compare(other)
        return not result.nan and not result.zero and not result.negative

    def _same(self, other: _Decimal) -> bool:
        return (self.negative, self.exponent, self.coefficient, self.special) == (
            other.negative,
            other.exponent,
            other.coefficient,
            other.special,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Decimal):
            return NotImplemented
        return self._same(other) or self._compare(other).zero

    __hash__ = None  # type: ignore[assignment]  # equal values may differ in their digits

    def __le__(self, other: _Decimal) -> bool:
        if self._same(other):
            return True
        result = self._compare(other)
        return not result.nan and (result.zero or result.negative)

    def __ge__(self, other: _Decimal) -> bool:
        if self._same(other):
            return True
        result = self._compare(other)
        return not result.nan and (result.zero or not result.negative)

    # -- output

    def to_string(self) -> str:
        """Decimal::ToString, which SerializeForNumberType uses for range values."""
        if self.special == "nan":
            return "NaN"
        if self.special:
            return "-Infinity" if self.negative else "Infinity"
        sign = "-" if self.negative else ""
        exponent, coefficient = self.exponent, self.coefficient
        if exponent < 0:
            last_digit = 0
            while len(str(coefficient)) > _DBL_DIG:
                last_digit = coefficient % 10
                coefficient //= 10
                exponent += 1
            if last_digit >= 5:
                coefficient += 1
            while exponent < 0 and coefficient and not coefficient % 10:
                coefficient //= 10
                exponent += 1
        digits = str(coefficient)
        adjusted = exponent + len(digits) - 1
        if exponent <= 0 and adjusted >= -6:
            if not exponent:
                return sign + digits
            if adjusted >= 0:
                return sign + digits[: adjusted + 1] + "." + digits[adjusted + 1 :]
            return sign + "0." + "0" * (-adjusted - 1) + digits
        mantissa = digits[0]
        rest = digits[1:].rstrip("0")
        if rest:
            mantissa += "." + rest
        if adjusted:
            mantissa += ("e" if adjusted < 0 else "e+") + str(adjusted)
        return sign + mantissa

    def to_float(self) -> float:
        return float(self.to_string()) if self.finite else math.nan


_NAN = _Decimal(special="nan")
_ZERO = _Decimal()
_DOUBLE_MAX = _Decimal.from_double(sys.float_info.max)


def _number_decimal(text: str | None) -> _Decimal:
    """ParseToDecimalForNumberType: a valid floating-point number as a decimal, else NaN."""
    if not text or not (text[0] in "-." or "0" <= text[0] <= "9") or text.endswith("."):
        return _NAN
    value = _Decimal.from_string(text)
    if not value.finite or value < -_DOUBLE_MAX or value > _DOUBLE_MAX:
        return _NAN
    return _ZERO if value.zero else value


def _serialize_number(value: _Decimal) -> str:
    """SerializeForNumberType for a decimal."""
    if value.zero:
        return "-0" if value.negative else "0"
    return value.to_string()


# --- dates and times (DateComponents) -----------------------------------------------------------

_MIN_YEAR = 1
_MAX_YEAR = 275760  # the year of 8.64e15 ms, the ECMAScript time limit
_LAST_MONTH = 8  # September (0-based) of the maximum year,
_LAST_DAY = 13  # day 13 of it,
_LAST_WEEK = 37  # and its ISO week
_MS_PER_DAY = 86_400_000
_INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class _Moment:
    """What DateComponents parsed: fields are 0 where the syntax has none; month is 0-based."""

    year: int = 1970
    month: int = 0
    day: int = 1
    week: int = 0
    hour: int = 0
    minute: int = 0
    second: int = 0
    millisecond: int = 0


def _digits_at(text: str, start: int) -> int:
    end = start
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return end - start


def _int_at(text: str, start: int, length: int) -> int | None:
    """DateComponents' ToInt: exactly ``length`` ASCII digits at ``start``, no int overflow."""
    if not length or start + length > len(text):
        return None
    value = 0
    for ch in text[start : start + length]:
        if not "0" <= ch <= "9":
            return None
        if value > (_INT_MAX - (ord(ch) - 48)) // 10:
            return None
        value = value * 10 + ord(ch) - 48
    return value


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year: int, month: int) -> int:
    if month == 1:
        return 29 if _is_leap(year) else 28
    return 30 if month in (3, 5, 8, 10) else 31


def _days_since_epoch(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date (month 0-based)."""
    y = year - (month < 2)
    era = y // 400
    year_of_era = y - era * 400
    day_of_year = (153 * ((month + 10) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _weekday(year: int, month: int, day: int) -> int:
    """0 for Sunday."""
    return (_days_since_epoch(year, month, day) + 4) % 7


def _weeks_in_year(year: int) -> int:
    first = _weekday(year, 0, 1)
    return 53 if first == 4 or (first == 3 and _is_leap(year)) else 52


def _first_week_offset(year: int) -> int:
    """Days from January 1 to the Monday of ISO week 1 (may be negative)."""
    offset = 1 - _weekday(year, 0, 1)
    return offset + 7 if offset <= -4 else offset


def _parse_year(text: str, start: int) -> tuple[int, int] | None:
    length = _digits_at(text, start)
    if length < 4:
        return None
    year = _int_at(text, start, length)
    if year is None or not _MIN_YEAR <= year <= _MAX_YEAR:
        return None
    return year, start + length


def _parse_month_at(text: str, start: int) -> tuple[_Moment, int] | None:
    parsed = _parse_year(text, start)
    if parsed is None:
        return None
    year, index = parsed
    if index >= len(text) or text[index] != "-":
        return None
    month = _int_at(text, index + 1, 2)
    if month is None or not 1 <= month <= 12:
        return None
    if year == _MAX_YEAR and month - 1 > _LAST_MONTH:
        return None
    return _Moment(year, month - 1), index + 3


def _parse_date_at(text: str, start: int) -> tuple[_Moment, int] | None:
    parsed = _parse_month_at(text, start)
    if parsed is None:
        return None
    moment, index = parsed
    if index + 2 >= len(text) or text[index] != "-":
        return None
    day = _int_at(text, index + 1, 2)
    if day is None or not 1 <= day <= _days_in_month(moment.year, moment.month):
        return None
    if moment.year == _MAX_YEAR and moment.month == _LAST_MONTH and day > _LAST_DAY:
        return None
    return _Moment(moment.year, moment.month, day), index + 3


def _parse_week_at(text: str, start: int) -> tuple[_Moment, int] | None:
    parsed = _parse_year(text, start)
    if parsed is None:
        return None
    year, index = parsed
    if index + 3 >= len(text) or text[index] != "-" or text[index + 1] != "W":
        return None
    week = _int_at(text, index + 2, 2)
    if week is None or not 1 <= week <= _weeks_in_year(year):
        return None
    if year == _MAX_YEAR and week > _LAST_WEEK:
        return None
    return _Moment(year, week=week), index + 4


def _parse_time_at(text: str, start: int, date: _Moment = _Moment()) -> tuple[_Moment, int] | None:
    hour = _int_at(text, start, 2)
    if hour is None or hour > 23:
        return None
    index = start + 2
    if index >= len(text) or text[index] != ":":
        return None
    minute = _int_at(text, index + 1, 2)
    if minute is None or minute > 59:
        return None
    index += 3
    second = millisecond = 0
    # Seconds and fractions are optional: a malformed tail ends the time early instead of
    # failing, and the caller's "whole string" check rejects it.
    if index + 2 < len(text) and text[index] == ":":
        parsed_second = _int_at(text, index + 1, 2)
        if parsed_second is not None and parsed_second <= 59:
            second = parsed_second
            index += 3
            if index < len(text) and text[index] == ".":
                length = _digits_at(text, index + 1)
                if length > 3:
                    return None
                if length:
                    millisecond = int(text[index + 1 : index + 1 + length]) * 10 ** (3 - length)
                    index += 1 + length
    moment = _Moment(date.year, date.month, date.day, 0, hour, minute, second, millisecond)
    return moment, index


def _parse_datetime_at(text: str, start: int) -> tuple[_Moment, int] | None:
    parsed = _parse_date_at(text, start)
    if parsed is None:
        return None
    date, index = parsed
    if index >= len(text) or text[index] not in "T ":
        return None
    parsed = _parse_time_at(text, index + 1, date)
    if parsed is None:
        return None
    moment, end = parsed
    at_limit = (moment.year, moment.month, moment.day) == (_MAX_YEAR, _LAST_MONTH, _LAST_DAY)
    if at_limit and (moment.hour, moment.minute, moment.second, moment.millisecond) != (0, 0, 0, 0):
        return None
    return moment, end


_PARSERS: dict[str, Callable[[str, int], tuple[_Moment, int] | None]] = {
    "date": _parse_date_at,
    "month": _parse_month_at,
    "week": _parse_week_at,
    "time": _parse_time_at,
    "datetime-local": _parse_datetime_at,
}


def _moment(input_type: str, text: str | None) -> _Moment | None:
    """The whole of ``text`` as a value of a temporal input type, else None."""
    if not text:
        return None
    parsed = _PARSERS[input_type](text, 0)
    if parsed is None or parsed[1] != len(text):
        return None
    return parsed[0]


def _ms_of_day(moment: _Moment) -> int:
    return ((moment.hour * 60 + moment.minute) * 60 + moment.second) * 1000 + moment.millisecond


def parse_date(text: str | None) -> int | None:
    """A valid date string as ms since the epoch at UTC midnight, else None."""
    moment = _moment("date", text)
    return None if moment is None else _days_since_epoch(moment.year, moment.month, moment.day) * _MS_PER_DAY


def parse_month(text: str | None) -> int | None:
    """A valid month string as months since January 1970, else None."""
    moment = _moment("month", text)
    return None if moment is None else (moment.year - 1970) * 12 + moment.month


def parse_week(text: str | None) -> int | None:
    """A valid week string as ms since the epoch at the UTC midnight starting its Monday."""
    moment = _moment("week", text)
    if moment is None:
        return None
    days = _days_since_epoch(moment.year, 0, 1) + _first_week_offset(moment.year) + (moment.week - 1) * 7
    return days * _MS_PER_DAY


def parse_time(text: str | None) -> int | None:
    """A valid time string as ms since midnight, else None."""
    moment = _moment("time", text)
    return None if moment is None else _ms_of_day(moment)


def parse_datetime_local(text: str | None) -> int | None:
    """A valid local date and time string as ms since the epoch, read as UTC, else None."""
    moment = _moment("datetime-local", text)
    if moment is None:
        return None
    return _days_since_epoch(moment.year, moment.month, moment.day) * _MS_PER_DAY + _ms_of_day(moment)


def _normalized_datetime(moment: _Moment) -> str:
    """The datetime-local value Chromium stores: ``T``, and no zero seconds or trailing zeros."""
    text = f"{moment.year:04d}-{moment.month + 1:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}"
    if moment.millisecond:
        return f"{text}:{moment.second:02d}." + f"{moment.millisecond:03d}".rstrip("0")
    if moment.second:
        return f"{text}:{moment.second:02d}"
    return text


# --- steps and ranges (StepRange) ---------------------------------------------------------------


@dataclass(frozen=True)
class _Steps:
    """One steppable type: its string-to-number conversion and its step description."""

    to_number: Callable[[str | None], _Decimal]
    default_step: int
    scale: int
    integer: str  # which value is rounded to an integer: "" (none), "parsed" or "scaled"
    default_base: int
    minimum: int | _Decimal
    maximum: int | _Decimal
    reversible: bool = False  # time: min > max means a range across midnight


def _temporal(parse: Callable[[str | None], int | None]) -> Callable[[str | None], _Decimal]:
    def to_number(text: str | None) -> _Decimal:
        value = parse(text)
        return _NAN if value is None else _Decimal.from_int(value)

    return to_number


def _datetime_number(text: str | None) -> _Decimal:
    """A datetime-local's milliseconds as Chromium has them: through microseconds in a double.

    Beyond 2^53 µs from 1970 (before 1685, after 2255) that double can be inexact, so the ms
    are off by a few or have a fraction: ``100000-01-01T00:01`` is 3093527980860000.5 ms.
    """
    value = parse_datetime_local(text)
    return _NAN if value is None else _Decimal.from_double(float(value * 1000) / 1000.0)


_MIN_DATE_MS = -62_135_596_800_000  # 0001-01-01
_MAX_DATE_MS = 8_640_000_000_000_000  # 275760-09-13

_STEPS: dict[str, _Steps] = {
    "number": _Steps(_number_decimal, 1, 1, "", 0, -_DOUBLE_MAX, _DOUBLE_MAX),
    "range": _Steps(_number_decimal, 1, 1, "", 0, 0, 100),
    "date": _Steps(_temporal(parse_date), 1, _MS_PER_DAY, "parsed", 0, _MIN_DATE_MS, _MAX_DATE_MS),
    "month": _Steps(
        _temporal(parse_month), 1, 1, "parsed", 0, (1 - 1970) * 12, (_MAX_YEAR - 1970) * 12 + _LAST_MONTH
    ),
    "week": _Steps(
        _temporal(parse_week),
        1,
        7 * _MS_PER_DAY,
        "parsed",
        -259_200_000,
        _MIN_DATE_MS,
        _MAX_DATE_MS - 5 * _MS_PER_DAY,
    ),
    "time": _Steps(_temporal(parse_time), 60, 1000, "scaled", 0, 0, _MS_PER_DAY - 1, reversible=True),
    "datetime-local": _Steps(_datetime_number, 60, 1000, "scaled", 0, _MIN_DATE_MS, _MAX_DATE_MS),
}


def _as_decimal(value: int | _Decimal) -> _Decimal:
    return value if isinstance(value, _Decimal) else _Decimal.from_int(value)


@dataclass(frozen=True)
class _StepRange:
    base: _Decimal
    minimum: _Decimal
    maximum: _Decimal
    step: _Decimal  # NaN for step="any"
    real: bool  # steps of number and range may be fractions: mismatches get a tolerance
    reversed: bool

    @property
    def has_step(self) -> bool:
        return self.step.finite

    def default_range_value(self) -> _Decimal:
        """The default of a range: (min + max) / 2, already clamped to a step.

        The midpoint is (min + max) / 2, which with 18 digits is not min + (max - min) / 2, and
        because it is clamped here and again by the caller, ``min=1e2 max=100.9`` gives
        ``1e+2`` (the second clamp returns ``min`` itself, exponent and all).
        """
        if self.minimum >= self.maximum:
            return self.minimum
        return self.clamp((self.minimum + self.maximum) / _Decimal.from_int(2))

    def round_to_step(self, value: _Decimal) -> _Decimal:
        return self.base + ((value - self.base) / self.step).rounded() * self.step

    def clamp(self, value: _Decimal) -> _Decimal:
        """StepRange::ClampValue: into [min, max], then onto the nearest step inside it."""
        in_range = max(self.minimum, min(value, self.maximum))
        if not self.has_step:
            return in_range
        rounded = self.round_to_step(in_range)
        if rounded > self.maximum:
            rounded = rounded - self.step
        elif rounded < self.minimum:
            rounded = rounded + self.step
        if rounded < self.minimum or rounded > self.maximum:
            return in_range  # a step larger than the range
        return rounded

    def mismatch(self, value: _Decimal) -> bool:
        if not self.has_step or not value.finite:
            return False
        distance = abs(value - self.base)
        if not distance.finite:
            return False
        if distance / _Decimal.from_int(2**53) > self.step:
            return False  # beyond double precision, every value is a multiple
        remainder = abs(distance - self.step * (distance / self.step).rounded())
        tolerance = self.step / _Decimal.from_int(2**24) if self.real else _ZERO
        return tolerance < remainder and remainder < self.step - tolerance


def _parse_step(text: str | None, steps: _Steps) -> _Decimal:
    """StepRange::ParseStep, rejecting ``any`` (NaN)."""
    default = _Decimal.from_int(steps.default_step * steps.scale)
    if not text:
        return default
    if text.lower() == "any":
        return _NAN
    step = _number_decimal(text)
    if not step.finite or step <= _ZERO:
        return default
    scale = _Decimal.from_int(steps.scale)
    one = _Decimal.from_int(1)
    if steps.integer == "parsed":
        return max(step.rounded(), one) * scale
    step = step * scale
    return max(step.rounded(), one) if steps.integer == "scaled" else step


def _step_range(
    input_type: str, min: str | None, max: str | None, step: str | None, value_attribute: str | None
) -> _StepRange:
    steps = _STEPS[input_type]
    base = steps.to_number(min)
    if not base.finite:
        base = steps.to_number(value_attribute)
        if not base.finite:
            base = _Decimal.from_int(steps.default_base)
    minimum, maximum = steps.to_number(min), steps.to_number(max)
    limited = minimum.finite or maximum.finite
    if not minimum.finite:
        minimum = _as_decimal(steps.minimum)
    if not maximum.finite:
        maximum = _as_decimal(steps.maximum)
    if input_type == "range" and maximum < minimum:
        maximum = minimum
    reversed_range = limited and steps.reversible and maximum < minimum
    return _StepRange(base, minimum, maximum, _parse_step(step, steps), steps.integer == "", reversed_range)


def _outside(input_type: str, value: str, min: str | None, max: str | None) -> tuple[bool, bool]:
    """(below min, above max) for a (sanitized) value; a value inside a reversed time range's
    gap counts both ways."""
    if input_type not in _STEPS:
        return False, False
    number = _STEPS[input_type].to_number(value)
    if not number.finite:
        return False, False
    limits = _step_range(input_type, min, max, None, None)
    if limits.reversed:
        gap = number > limits.maximum and number < limits.minimum
        return gap, gap
    return number < limits.minimum, number > limits.maximum


def range_underflow(input_type: str, value: str, *, min: str | None = None, max: str | None = None) -> bool:
    """validity.rangeUnderflow for a (sanitized) value."""
    return _outside(input_type, value, min, max)[0]


def range_overflow(input_type: str, value: str, *, min: str | None = None, max: str | None = None) -> bool:
    """validity.rangeOverflow for a (sanitized) value."""
    return _outside(input_type, value, min, max)[1]


def step_mismatch(
    input_type: str,
    value: str,
    *,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    value_attribute: str | None = None,
) -> bool:
    """validity.stepMismatch for a (sanitized) value, with Chromium's decimal arithmetic."""
    if input_type not in _STEPS:
        return False
    number = _STEPS[input_type].to_number(value)
    if not number.finite:
        return False
    return _step_range(input_type, min, max, step, value_attribute).mismatch(number)


# --- what a range or step message shows (InputType::ValidationMessage) --------------------------


@dataclass(frozen=True)
class RangeProblem:
    """The steppable part of Chromium's validation message for a value, before localization.

    ``kind`` and its ``values``: ``"reversed"`` (min, max: a time range across midnight and a
    value outside it), ``"invalid"`` (min, max: min above max), ``"equal"`` (min, which equals
    max), ``"underflow"`` (min), ``"overflow"`` (max), ``"step"`` (the two nearest valid values
    in increasing order, or the only one in range). Values are serialized as the input type
    serializes numbers. ``seconds`` says whether a time shows its seconds even when they are
    zero (BaseTemporalInputType::ShouldHaveSecondField: a min or a step that is not a whole
    number of minutes).
    """

    kind: str
    values: tuple[str, ...]
    seconds: bool = False


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, 0-based month, day) of a day count from 1970-01-01, proleptic Gregorian."""
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = (shifted_month + 2) % 12
    return year_of_era + era * 400 + (month < 2), month, day


def _c_round(value: float) -> int:
    """C's round(): halves away from zero."""
    whole = math.floor(abs(value))
    if abs(value) - whole >= 0.5:  # exact: adding 0.5 first could round the sum
        whole += 1
    return int(math.copysign(whole, value))


def _time_text(ms_of_day: int, seconds: str) -> str:
    """DateComponents::ToStringForTime: ``seconds`` is the least format ("none", "second",
    "millisecond"); non-zero seconds or milliseconds are always written."""
    hour, rest = divmod(ms_of_day, 3_600_000)
    minute, rest = divmod(rest, 60_000)
    second, millisecond = divmod(rest, 1000)
    if millisecond or seconds == "millisecond":
        return f"{hour:02d}:{minute:02d}:{second:02d}.{millisecond:03d}"
    if second or seconds == "second":
        return f"{hour:02d}:{minute:02d}:{second:02d}"
    return f"{hour:02d}:{minute:02d}"


def _serialize_steppable(input_type: str, number: _Decimal, step: _Decimal) -> str:
    """InputType::Serialize of a step-range number (SerializeWithComponents for temporal types)."""
    if input_type in ("number", "range"):
        return _serialize_number(number)
    value = number.to_float()
    if input_type == "month":
        months = _c_round(value)
        return f"{1970 + months // 12:04d}-{months % 12 + 1:02d}"
    ms = _c_round(value)
    if input_type == "time":
        seconds = "none"
        if step.finite:
            whole = int(step.to_float())
            seconds = "none" if not whole % 60_000 else "second" if not whole % 1000 else "millisecond"
        return _time_text(ms % _MS_PER_DAY, seconds)
    days = ms // _MS_PER_DAY
    year, month, day = _civil_from_days(days)
    if input_type == "week":
        # the ISO week holding the day: the week-year is the year of that week's Thursday
        thursday_year = _civil_from_days(days - (days + 3) % 7 + 3)[0]
        first_monday = _days_since_epoch(thursday_year, 0, 1) + _first_week_offset(thursday_year)
        return f"{thursday_year:04d}-W{(days - first_monday) // 7 + 1:02d}"
    date = f"{year:04d}-{month + 1:02d}-{day:02d}"
    if input_type == "date":
        return date
    seconds = "none"
    if step.finite:
        whole = int(step.to_float())
        seconds = "none" if not whole % 60_000 else "second" if not whole % 1000 else "millisecond"
    return f"{date}T{_time_text(ms % _MS_PER_DAY, seconds)}"


def range_problem(
    input_type: str,
    value: str,
    *,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    value_attribute: str | None = None,
) -> RangeProblem | None:
    """What the range and step part of Chromium's validationMessage says about a (sanitized)
    value, or None where it says nothing.

    This is the message's own logic, not the validity flags': a value inside a reversed time
    range (``min=22:00 max=06:00``) that only mismatches its step still gets the underflow or
    overflow message, as in Chromium.
    """
    if input_type not in _STEPS:
        return None
    number = _STEPS[input_type].to_number(value)
    if not number.finite:
        return None
    limits = _step_range(input_type, min, max, step, value_attribute)
    seconds = False
    if input_type in ("time", "datetime-local"):
        minute = _Decimal.from_int(60_000)
        any_is_default = limits.step if limits.has_step else _parse_step(None, _STEPS[input_type])
        seconds = not (_remainder(limits.minimum, minute).zero and _remainder(any_is_default, minute).zero)

    def problem(kind: str, *values: _Decimal) -> RangeProblem:
        shown = tuple(_serialize_steppable(input_type, value, limits.step) for value in values)
        return RangeProblem(kind, shown, seconds)

    if limits.reversed and number < limits.minimum and number > limits.maximum:
        return problem("reversed", limits.minimum, limits.maximum)
    if number < limits.minimum or number > limits.maximum:
        if not limits.reversed and limits.minimum > limits.maximum:
            return problem("invalid", limits.minimum, limits.maximum)
        if limits.minimum == limits.maximum:
            return problem("equal", limits.minimum)
        if number < limits.minimum:
            return problem("underflow", limits.minimum)
        return problem("overflow", limits.maximum)
    if not limits.mismatch(number):
        return None
    first = limits.clamp(number)
    second = first + limits.step if first < number else first - limits.step
    if not second.finite or second < limits.minimum or second > limits.maximum:
        return problem("step", first)
    return problem("step", *((first, second) if first < second else (second, first)))


def _remainder(value: _Decimal, divisor: _Decimal) -> _Decimal:
    """Decimal::Remainder: value minus the quotient truncated toward zero, times the divisor."""
    quotient = value / divisor
    if quotient.special:
        return quotient
    whole = quotient
    if quotient.exponent < 0:
        whole = _Decimal.of(quotient.negative, 0, quotient.coefficient // 10**-quotient.exponent)
    return value - whole * divisor


def nearest_valid_values(
    input_type: str,
    value: str,
    *,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    value_attribute: str | None = None,
) -> tuple[str, ...]:
    """The values a stepMismatch message proposes (one or two, serialized), or () when the
    value is in range and matches its step."""
    problem = range_problem(input_type, value, min=min, max=max, step=step, value_attribute=value_attribute)
    return problem.values if problem is not None and problem.kind == "step" else ()


def temporal_fields(input_type: str, text: str) -> tuple[int, ...] | None:
    """A valid value of a temporal type as (year, month 1-12, day, week, hour, minute, second,
    millisecond), zero where the type has no such field, else None."""
    moment = _moment(input_type, text) if input_type in _PARSERS else None
    if moment is None:
        return None
    return (
        moment.year, moment.month + 1, moment.day, moment.week,
        moment.hour, moment.minute, moment.second, moment.millisecond,
    )  # fmt: skip


def value_as_number(input_type: str, value: str) -> float | None:
    """``valueAsNumber`` of a (sanitized) value, None where it is NaN."""
    if input_type in ("number", "range"):
        return parse_float(value)
    if input_type in _STEPS:
        number = _STEPS[input_type].to_number(value)
        return number.to_float() if number.finite else None
    return None


# --- e-mail and URL ------------------------------------------------------------------------------

_EMAIL = re.compile(
    r"[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
)


def is_valid_email(value: str, multiple: bool = False) -> bool:
    """A valid e-mail address (list): ASCII only, as Chromium checks a value set by script."""
    if not multiple:
        return _EMAIL.fullmatch(value) is not None
    return all(_EMAIL.fullmatch(part.strip(_HTML_SPACES)) for part in value.split(","))


# Schemes Chromium's renderer parses as "standard" (host required); other schemes but file and
# filesystem follow the URL Standard's rules for non-special URLs.
_STANDARD_SCHEMES = frozenset(
    "http https ws wss ftp chrome chrome-extension chrome-untrusted chrome-search chrome-error"
    " chrome-native devtools isolated-app".split()
)
_SCHEMES_WITH_PORT = frozenset("http https ws wss ftp".split())  # the others ignore ":port"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# Code points a host may not contain once percent-decoded (a space is allowed: GURL escapes it).
_SPECIAL_HOST_FORBIDDEN = frozenset(chr(c) for c in range(0x20)) | set("\x7f%/:<>?@[\\]^|#")
# Chromium tests the low byte of each code point of a non-special host (the high surrogate's,
# for a pair) against the forbidden host code points: U+4E00 is rejected like NUL, U+0140 like @.
_OPAQUE_HOST_FORBIDDEN = frozenset(b"\x00\t\n\r #/:<>?@[\\]^|")
_HEX_DIGITS = "0123456789abcdefABCDEF"


def is_valid_absolute_url(value: str) -> bool:
    """Whether Chromium's URL parser (GURL) accepts ``value`` with no base URL.

    This is the typeMismatch rule of ``<input type=url>``: any scheme will do, hosts of the
    standard schemes must canonicalize (IDNA, IPv4 and IPv6 forms, ports up to 65535).
    """
    text = value.strip("".join(chr(c) for c in range(0x21))).translate(str.maketrans("", "", "\t\n\r"))
    match = _SCHEME.match(text)
    if not match:
        return False
    scheme, rest = match.group(1).lower(), text[match.end() :]
    if scheme == "file":
        return _valid_file_url(rest)
    if scheme == "filesystem":
        # filesystem:<standard or file URL with a path of at least one segment>
        inner = _SCHEME.match(rest)
        if not inner or not is_valid_absolute_url(rest):
            return False
        inner_scheme, inner_rest = inner.group(1).lower(), rest[inner.end() :]
        if inner_scheme == "file":
            path = re.sub(r"^//[^/\\?#]*", "", inner_rest)
        elif inner_scheme in _STANDARD_SCHEMES:
            path = re.sub(r"^[/\\]*[^/\\?#]*", "", inner_rest)
        else:
            return False
        return re.match(r"[/\\][^/\\?#]", path) is not None
    if scheme in _STANDARD_SCHEMES:
        authority = re.match(r"[/\\]*([^/\\?#]*)", rest).group(1)  # type: ignore[union-attr]
        return _valid_authority(authority, special=True, ports=scheme in _SCHEMES_WITH_PORT)
    if not rest.startswith("//"):
        return True  # an opaque path: anything goes
    authority = re.match(r"//([^/?#]*)", rest).group(1)  # type: ignore[union-attr]
    return _valid_authority(authority, special=False)


def _valid_file_url(rest: str) -> bool:
    slashes = len(rest) - len(rest.lstrip("/\\"))
    if slashes != 2:
        return True
    host, after = re.match(r"[/\\]*([^/\\?#]*)(.?)", rest).groups()  # type: ignore[union-attr]
    if after in ("?", "#"):
        return False  # a host must be followed by a path before a query or fragment
    return not host or (":" not in host.rpartition("]")[2] and _valid_special_host(host))


def _valid_authority(authority: str, *, special: bool, ports: bool = True) -> bool:
    userinfo, at, hostport = authority.rpartition("@")
    if hostport.startswith("["):
        host, bracket, port = hostport.partition("]")
        host += bracket
        if port and not port.startswith(":"):
            return False
        port = port[1:]
    else:
        host, _, port = hostport.partition(":")
    if ports and port and (not port.isascii() or not port.isdigit() or int(port) > 65535):
        return False
    if not host:  # only a non-special URL may have an empty host, and then no port
        return not special and not at and ":" not in hostport
    if special:
        return _valid_special_host(host)
    if host.startswith("["):
        return host.endswith("]") and _valid_ipv6(host[1:-1])
    return not any(_low_byte(ch) in _OPAQUE_HOST_FORBIDDEN for ch in host)


def _low_byte(ch: str) -> int:
    code = ord(ch)
    if code > 0xFFFF:
        code = 0xD800 + ((code - 0x10000) >> 10)
    return code & 0xFF


def _valid_special_host(host: str) -> bool:
    if host.startswith("["):
        return host.endswith("]") and _valid_ipv6(host[1:-1])
    decoded = _percent_decode(host)
    if decoded is None:
        return False
    if not decoded.isascii():
        mapped = _idna_to_ascii(decoded)
        if mapped is None:
            return False
        decoded = mapped
    if not decoded or any(ch in _SPECIAL_HOST_FORBIDDEN for ch in decoded):
        return False
    return not _ends_in_number(decoded) or _valid_ipv4(decoded)


def _percent_decode(host: str) -> str | None:
    out = bytearray()
    index = 0
    while index < len(host):
        ch = host[index]
        if ch == "%":
            pair = host[index + 1 : index + 3]
            if len(pair) != 2 or not all(c in _HEX_DIGITS for c in pair):
                return None
            out.append(int(pair, 16))
            index += 3
        else:
            out += ch.encode("utf-8", "surrogatepass")
            index += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _idna_to_ascii(host: str) -> str | None:
    """UTS #46 processing as Chromium asks ICU for it: non-transitional, bidi and CONTEXTJ checked.

    Length and hyphen rules are not applied; Chromium accepts ``à-.com``.
    """
    import idna  # httpx's dependency; only hosts with non-ASCII characters need it

    try:
        mapped = unicodedata.normalize("NFC", idna.uts46_remap(host, std3_rules=False, transitional=False))
    except idna.IDNAError:
        return None
    labels = mapped.split(".")
    bidi = any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in mapped)
    out = []
    for label in labels:
        try:
            if bidi and label:  # in a bidi domain name every label, ASCII too, must pass
                idna.check_bidi(label, check_ltr=True)
        except idna.IDNAError:
            return None
        if label.isascii():
            out.append(label)
            continue
        if unicodedata.category(label[0]).startswith("M"):
            return None
        try:
            for pos, ch in enumerate(label):
                if ch in "\u200c\u200d" and not idna.valid_contextj(label, pos):
                    return None
        except idna.IDNAError:
            return None
        out.append("xn--" + label.encode("punycode").decode("ascii"))
    return ".".join(out)


def _ipv4_number(part: str) -> int | None:
    radix = 10
    if part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, radix = part[1:], 8
    if not part:
        return 0
    allowed = {8: "01234567", 10: "0123456789", 16: _HEX_DIGITS}[radix]
    if not all(ch in allowed for ch in part):
        return None
    return int(part, radix)


def _ends_in_number(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return bool(last) and _ipv4_number(last) is not None


def _valid_ipv4(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4 or any(not part for part in parts):
        return False
    numbers = [_ipv4_number(part) for part in parts]
    if any(n is None for n in numbers):
        return False
    if any(n > 255 for n in numbers[:-1]):  # type: ignore[operator]
        return False
    return bool(numbers[-1] < 256 ** (5 - len(numbers)))


def _valid_ipv6(text: str) -> bool:
    """The URL Standard's IPv6 parser, as a yes/no: at most one ``::``, an IPv4 tail allowed."""
    if text.count("::") > 1:
        return False
    head, compressed, tail = text.partition("::")
    if compressed:
        pieces = (head.split(":") if head else []) + (tail.split(":") if tail else [])
    else:
        pieces = text.split(":")
    count = 0
    for index, piece in enumerate(pieces):
        if "." in piece:
            if index != len(pieces) - 1 or not _valid_embedded_ipv4(piece):
                return False
            count += 2
        elif 1 <= len(piece) <= 4 and all(ch in _HEX_DIGITS for ch in piece):
            count += 1
        else:
            return False
    return count < 8 if compressed else count == 8


def _valid_embedded_ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(
        part.isascii() and part.isdigit() and (part == "0" or not part.startswith("0")) and int(part) <= 255
        for part in parts
    )


def type_mismatch(input_type: str, value: str, *, multiple: bool = False) -> bool:
    """validity.typeMismatch for a sanitized value (only url and email can suffer from it)."""
    if not value:
        return False
    if input_type == "email":
        return not is_valid_email(value, multiple)
    if input_type == "url":
        return not is_valid_absolute_url(value)
    return False


# --- colors ----------------------------------------------------------------------------------------

_NAMED_COLORS = {
    name: int(rgb, 16)
    for name, rgb in (
        entry.split(":")
        for entry in """aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff
        beige:f5f5dc bisque:ffe4c4 black:000000 blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2
        brown:a52a2a burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 chocolate:d2691e coral:ff7f50
        cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b darkcyan:008b8b
        darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 darkkhaki:bdb76b
        darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 darkorchid:9932cc darkred:8b0000
        darksalmon:e9967a darkseagreen:8fbc8f darkslateblue:483d8b darkslategray:2f4f4f
        darkslategrey:2f4f4f darkturquoise:00ced1 darkviolet:9400d3 deeppink:ff1493 deepskyblue:00bfff
        dimgray:696969 dimgrey:696969 dodgerblue:1e90ff firebrick:b22222 floralwhite:fffaf0
        forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ghostwhite:f8f8ff gold:ffd700
        goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f grey:808080 honeydew:f0fff0
        hotpink:ff69b4 indianred:cd5c5c indigo:4b0082 ivory:fffff0 khaki:f0e68c lavender:e6e6fa
        lavenderblush:fff0f5 lawngreen:7cfc00 lemonchiffon:fffacd lightblue:add8e6 lightcoral:f08080
        lightcyan:e0ffff lightgoldenrodyellow:fafad2 lightgray:d3d3d3 lightgreen:90ee90 lightgrey:d3d3d3
        lightpink:ffb6c1 lightsalmon:ffa07a lightseagreen:20b2aa lightskyblue:87cefa
        lightslategray:778899 lightslategrey:778899 lightsteelblue:b0c4de lightyellow:ffffe0 lime:00ff00
        limegreen:32cd32 linen:faf0e6 magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa
        mediumblue:0000cd mediumorchid:ba55d3 mediumpurple:9370db mediumseagreen:3cb371
        mediumslateblue:7b68ee mediumspringgreen:00fa9a mediumturquoise:48d1cc mediumvioletred:c71585
        midnightblue:191970 mintcream:f5fffa mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead
        navy:000080 oldlace:fdf5e6 olive:808000 olivedrab:6b8e23 orange:ffa500 orangered:ff4500
        orchid:da70d6 palegoldenrod:eee8aa palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093
        papayawhip:ffefd5 peachpuff:ffdab9 peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6
        purple:800080 rebeccapurple:663399 red:ff0000 rosybrown:bc8f8f royalblue:4169e1
        saddlebrown:8b4513 salmon:fa8072 sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee sienna:a0522d
        silver:c0c0c0 skyblue:87ceeb slateblue:6a5acd slategray:708090 slategrey:708090 snow:fffafa
        springgreen:00ff7f steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8 tomato:ff6347
        turquoise:40e0d0 violet:ee82ee wheat:f5deb3 white:ffffff whitesmoke:f5f5f5 yellow:ffff00
        yellowgreen:9acd32""".split()
    )
}
# System colors as Chromium 156 resolves them for a light color scheme on Linux (recorded).
_SYSTEM_COLORS = {
    name: int(rgb, 16)
    for name, rgb in (
        entry.split(":")
        for entry in """activeborder:767676 activecaption:ffffff activetext:ff0000 appworkspace:ffffff
        background:ffffff buttonborder:767676 buttonface:efefef buttonhighlight:efefef
        buttonshadow:efefef buttontext:000000 canvas:ffffff canvastext:000000 captiontext:000000
        field:ffffff fieldtext:000000 graytext:808080 highlight:0041c6 highlighttext:ffffff
        inactiveborder:767676 inactivecaption:ffffff inactivecaptiontext:808080 infobackground:ffffff
        infotext:000000 linktext:0000ee mark:ffff00 marktext:000000 menu:ffffff menutext:000000
        scrollbar:ffffff selecteditem:1967d2 selecteditemtext:ffffff threeddarkshadow:767676
        threedface:efefef threedhighlight:767676 threedlightshadow:767676 threedshadow:767676
        visitedtext:551a8b window:ffffff windowframe:767676 windowtext:000000""".split()
    )
}


@dataclass(frozen=True)
class _Token:
    kind: str  # ws, ident, function, hash, number, percentage, dimension, delim, "(" or ")"
    text: str = ""  # name, hash value, unit or delimiter
    value: float = 0.0


_CSS_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_CSS_SPACE = " \t\n"


def _css_tokens(text: str) -> list[_Token] | None:  # noqa: C901 - a tokenizer is one big switch
    """CSS Syntax tokens, enough for colors: None for strings, urls and bad escapes."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\0", "\ufffd")
    tokens: list[_Token] = []
    index = 0

    def name_char(ch: str) -> bool:
        return ch.isascii() and (ch.isalnum() or ch in "_-") or not ch.isascii()

    def name_start(ch: str) -> bool:
        return name_char(ch) and not "0" <= ch <= "9" and ch != "-"

    def escape_at(pos: int) -> bool:
        return pos + 1 < len(text) and text[pos] == "\\" and text[pos + 1] != "\n"

    def ident_starts(pos: int) -> bool:
        ch = text[pos : pos + 1]
        if ch == "-":
            nxt = text[pos + 1 : pos + 2]
            return bool(nxt) and (nxt == "-" or name_start(nxt) or escape_at(pos + 1))
        return bool(ch) and (name_start(ch) or escape_at(pos))

    def read_name(pos: int) -> tuple[str, int]:
        out = []
        while pos < len(text):
            ch = text[pos]
            if name_char(ch):
                out.append(ch)
                pos += 1
            elif escape_at(pos):
                hexdigits = re.match(r"[0-9a-fA-F]{1,6}", text[pos + 1 :])
                if hexdigits:
                    code = int(hexdigits.group(), 16)
                    pos += 1 + len(hexdigits.group())
                    if pos < len(text) and text[pos] in _CSS_SPACE:
                        pos += 1
                    valid = 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
                    out.append(chr(code) if valid else "\ufffd")
                else:
                    out.append(text[pos + 1])
                    pos += 2
            else:
                break
        return "".join(out), pos

    while index < len(text):
        ch = text[index]
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = len(text) if end < 0 else end + 2
        elif ch in _CSS_SPACE:
            while index < len(text) and text[index] in _CSS_SPACE:
                index += 1
            tokens.append(_Token("ws"))
        elif ch in "\"'":
            return None
        elif ch == "#" and index + 1 < len(text) and (name_char(text[index + 1]) or escape_at(index + 1)):
            name, index = read_name(index + 1)
            tokens.append(_Token("hash", name))
        elif number := _CSS_NUMBER.match(text, index):
            value = float(number.group())
            index = number.end()
            if ident_starts(index):
                unit, index = read_name(index)
                tokens.append(_Token("dimension", unit.lower(), value))
            elif text[index : index + 1] == "%":
                index += 1
                tokens.append(_Token("percentage", "", value))
            else:
                tokens.append(_Token("number", "", value))
        elif ident_starts(index):
            name, index = read_name(index)
            if text[index : index + 1] == "(":
                if name.lower() == "url":
                    return None
                index += 1
                tokens.append(_Token("function", name.lower()))
            else:
                tokens.append(_Token("ident", name))
        elif ch == "\\":
            return None  # an escape at the end of the input or before a newline: a parse error
        elif ch in "()":
            tokens.append(_Token(ch))
            index += 1
        else:
            tokens.append(_Token("delim", ch))
            index += 1
    return tokens


@dataclass(frozen=True)
class _Block:
    """A function (``name``) or a parenthesized block (``name=""``) and its component values."""

    name: str
    items: tuple[_Token | _Block, ...]


def _component_values(tokens: list[_Token], start: int, closing: bool) -> tuple[list[_Token | _Block], int]:
    items: list[_Token | _Block] = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        if token.kind == ")":
            if closing:
                return items, index + 1
            items.append(token)
            index += 1
        elif token.kind in ("function", "("):
            inner, index = _component_values(tokens, index + 1, True)
            items.append(_Block(token.text if token.kind == "function" else "", tuple(inner)))
        else:
            items.append(token)
            index += 1
    return items, index  # unclosed blocks close at the end of the input


# Typed numbers inside color functions: (value, kind) where kind is number, percentage or angle.
_Typed = tuple[float, str]
_ANGLE_UNITS = {"deg": 1.0, "grad": 0.9, "rad": 180 / math.pi, "turn": 360.0}
_MATH_FUNCTIONS = frozenset(
    "calc min max clamp round abs sign sqrt pow exp log hypot mod rem sin cos tan".split()
)
_CONSTANTS = {"e": math.e, "pi": math.pi, "infinity": math.inf, "-infinity": -math.inf, "nan": math.nan}


def _split(items: tuple[_Token | _Block, ...], separator: str) -> list[list[_Token | _Block]]:
    groups: list[list[_Token | _Block]] = [[]]
    for item in items:
        if isinstance(item, _Token) and item.kind == "delim" and item.text == separator:
            groups.append([])
        else:
            groups[-1].append(item)
    return groups


def _strip_ws(items: list[_Token | _Block]) -> list[_Token | _Block]:
    start, end = 0, len(items)
    while start < end and isinstance(items[start], _Token) and items[start].kind == "ws":  # type: ignore[union-attr]
        start += 1
    while end > start and isinstance(items[end - 1], _Token) and items[end - 1].kind == "ws":  # type: ignore[union-attr]
        end -= 1
    return items[start:end]


def _math(block: _Block) -> _Typed | None:
    """The value of a math function (calc(), min(), round(), ...), or None if it is invalid."""
    arguments = [_strip_ws(group) for group in _split(block.items, ",")]
    name = block.name
    if name == "calc":
        return _sum(arguments[0]) if len(arguments) == 1 else None
    strategy = "nearest"
    first = arguments[0]
    if name == "round" and len(first) == 1 and isinstance(first[0], _Token) and first[0].kind == "ident":
        strategy = first[0].text.lower()
        if strategy not in ("nearest", "up", "down", "to-zero"):
            return None
        arguments = arguments[1:]
    values = [_sum(argument) for argument in arguments]
    if not values or any(value is None for value in values):
        return None
    typed: list[_Typed] = values  # type: ignore[assignment]
    kinds = {kind for _, kind in typed}
    numbers = [number for number, _ in typed]
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if len(numbers) not in _ARITY.get(name, (1, 2, 3, 4, 5, 6, 7, 8)):
        return None
    if name == "min":
        return min(numbers), kind
    if name == "max":
        return max(numbers), kind
    if name == "clamp":
        return max(numbers[0], min(numbers[1], numbers[2])), kind
    if name == "hypot":
        return math.hypot(*numbers), kind
    if name == "abs":
        return abs(numbers[0]), kind
    if name == "sign":
        return (math.copysign(1.0, numbers[0]) if numbers[0] else numbers[0]), "number"
    if name in ("mod", "rem", "round"):
        value, interval = numbers[0], abs(numbers[1]) if len(numbers) == 2 else 1.0
        if name == "round":
            return _round(strategy, value, interval), kind
        if not interval or math.isinf(value):
            return math.nan, kind
        result = math.fmod(value, numbers[1])
        if name == "mod" and result and (result < 0) != (numbers[1] < 0):
            result += numbers[1]
        return result, kind
    if name in ("sin", "cos", "tan"):
        if kind == "percentage":
            return None
        radians = math.radians(numbers[0]) if kind == "angle" else numbers[0]
        return (getattr(math, name)(radians) if math.isfinite(radians) else math.nan), "number"
    if kind != "number":
        return None
    if name == "sqrt":
        return (math.sqrt(numbers[0]) if numbers[0] >= 0 else math.nan), "number"
    if name == "exp":
        return (math.exp(numbers[0]) if numbers[0] < 710 else math.inf), "number"
    if name == "pow":
        try:
            return math.pow(numbers[0], numbers[1]), "number"
        except (OverflowError, ValueError):
            return math.nan, "number"
    # log(value) or log(value, base)
    logs = [math.log(n) if n > 0 else (-math.inf if n == 0 else math.nan) for n in numbers]
    return (logs[0] / logs[1] if len(logs) == 2 else logs[0]), "number"


_ARITY = {
    "clamp": (3,),
    "hypot": (1, 2, 3, 4, 5, 6, 7, 8),
    "abs": (1,),
    "sign": (1,),
    "mod": (2,),
    "rem": (2,),
    "round": (1, 2),
    "sin": (1,),
    "cos": (1,),
    "tan": (1,),
    "sqrt": (1,),
    "exp": (1,),
    "pow": (2,),
    "log": (1, 2),
}


def _round(strategy: str, value: float, interval: float) -> float:
    if not interval:
        return math.nan
    if math.isinf(interval):
        return value if math.isinf(value) else (0.0 if strategy != "up" or value <= 0 else math.inf)
    lower = math.floor(value / interval) * interval
    upper = lower + interval if lower != value else lower
    if strategy == "up":
        return upper
    if strategy == "down":
        return lower
    if strategy == "to-zero":
        return upper if value < 0 else lower
    return upper if value - lower >= upper - value else lower


def _leaf(item: _Token | _Block) -> _Typed | None:
    if isinstance(item, _Block):
        if not item.name:
            return _sum(_strip_ws(list(item.items)))
        return _math(item) if item.name in _MATH_FUNCTIONS else None
    if item.kind == "number":
        return item.value, "number"
    if item.kind == "percentage":
        return item.value, "percentage"
    if item.kind == "dimension" and item.text in _ANGLE_UNITS:
        return item.value * _ANGLE_UNITS[item.text], "angle"
    if item.kind == "ident" and item.text.lower() in _CONSTANTS:
        return _CONSTANTS[item.text.lower()], "number"
    return None


def _sum(items: list[_Token | _Block]) -> _Typed | None:
    """A calc sum: products joined by `` + `` / `` - `` (whitespace required around them)."""
    terms: list[tuple[str, list[_Token | _Block]]] = [("+", [])]
    index = 0
    while index < len(items):
        item = items[index]
        if (
            isinstance(item, _Token)
            and item.kind == "delim"
            and item.text in "+-"
            and 0 < index < len(items) - 1
            and isinstance(items[index - 1], _Token)
            and items[index - 1].kind == "ws"  # type: ignore[union-attr]
            and isinstance(items[index + 1], _Token)
            and items[index + 1].kind == "ws"  # type: ignore[union-attr]
        ):
            terms.append((item.text, []))
        else:
            terms[-1][1].append(item)
        index += 1
    total: _Typed | None = None
    for operator, term in terms:
        value = _product(_strip_ws(term))
        if value is None:
            return None
        if total is None:
            total = value
        elif total[1] != value[1]:
            return None
        else:
            total = (total[0] + value[0] if operator == "+" else total[0] - value[0], total[1])
    return total


def _product(items: list[_Token | _Block]) -> _Typed | None:
    operands = [item for item in items if not (isinstance(item, _Token) and item.kind == "ws")]
    if not operands or len(operands) % 2 == 0:
        return None
    result = _leaf(operands[0])
    for index in range(1, len(operands), 2):
        operator, operand = operands[index], _leaf(operands[index + 1])
        if result is None or operand is None:
            return None
        if not isinstance(operator, _Token) or operator.kind != "delim" or operator.text not in "*/":
            return None
        if operator.text == "*":
            if result[1] != "number" and operand[1] != "number":
                return None
            kind = result[1] if result[1] != "number" else operand[1]
            result = (result[0] * operand[0], kind)
        else:
            if operand[1] != "number":
                return None
            if operand[0] == 0:
                value = (
                    math.nan
                    if result[0] == 0 or math.isnan(result[0])
                    else math.copysign(math.inf, result[0]) * math.copysign(1, operand[0])
                )
            else:
                value = result[0] / operand[0]
            result = (value, result[1])
    return result


def _channel(item: list[_Token | _Block], kinds: str, *, math_ok: bool = True) -> _Typed | None:
    """One argument of a color function: ``none`` or a value of one of ``kinds`` (n, p, a)."""
    if len(item) != 1:
        return None
    only = item[0]
    if isinstance(only, _Token) and only.kind == "ident" and only.text.lower() == "none":
        return (0.0, "none") if "x" in kinds else None
    if isinstance(only, _Block) and not math_ok:
        return None
    if isinstance(only, _Block) and only.name not in _MATH_FUNCTIONS:
        return None
    if isinstance(only, _Token) and only.kind == "ident":
        return None
    value = _leaf(only)
    if value is None:
        return None
    wanted = {"number": "n", "percentage": "p", "angle": "a"}[value[1]]
    if wanted not in kinds:
        return None
    number = value[0]
    if math.isnan(number):
        number = 0.0
    return number, value[1]


_Vector = tuple[float, float, float]
_Matrix = tuple[_Vector, _Vector, _Vector]


def _f32(value: float) -> float:
    """Round to single precision, as Chromium's color math does at each step."""
    if not math.isfinite(value):
        return value
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def _hue(value: _Typed) -> float:
    return 0.0 if math.isinf(value[0]) else value[0] % 360.0


def _hsl_to_srgb(hue: float, saturation: float, lightness: float) -> _Vector:
    """gfx::HSLToSRGB, in single precision."""
    h, s, lum = _f32(hue), _f32(saturation), _f32(lightness)
    if not s:
        return lum, lum, lum
    a = _f32(s * min(lum, _f32(1.0 - lum)))

    def channel(n: float) -> float:
        k = _f32(math.fmod(_f32(n + _f32(h / 30.0)), 12.0))
        return _f32(lum - _f32(a * max(-1.0, min(_f32(k - 3.0), _f32(9.0 - k), 1.0))))

    return channel(0), channel(8), channel(4)


def _hwb_to_srgb(hue: float, white: float, black: float) -> _Vector:
    """gfx::HWBToSRGB, in single precision."""
    white, black = _f32(white), _f32(black)
    total = _f32(white + black)
    if total >= 1:
        gray = _f32(white / total)
        return gray, gray, gray
    red, green, blue = _hsl_to_srgb(hue, 1.0, 0.5)
    return (
        _f32(red + _f32(white - _f32(total * red))),
        _f32(green + _f32(white - _f32(total * green))),
        _f32(blue + _f32(white - _f32(total * blue))),
    )


def _apply(m: _Matrix, v: _Vector) -> _Vector:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def _inverse(m: _Matrix) -> _Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


def _concat(m: _Matrix, n: _Matrix) -> _Matrix:
    """The matrix product m × n."""
    columns = tuple(zip(*n))

    def row(r: _Vector) -> _Vector:
        return (
            sum(x * y for x, y in zip(r, columns[0])),
            sum(x * y for x, y in zip(r, columns[1])),
            sum(x * y for x, y in zip(r, columns[2])),
        )

    return row(m[0]), row(m[1]), row(m[2])


def _diagonal(v: _Vector) -> _Matrix:
    return ((v[0], 0.0, 0.0), (0.0, v[1], 0.0), (0.0, 0.0, v[2]))


def _adapt_to_d50(wx: float, wy: float) -> _Matrix:
    """skcms_AdaptToXYZD50: Bradford adaptation from the white point (wx, wy) to D50."""
    to_lms: _Matrix = ((0.8951, 0.2664, -0.1614), (-0.7502, 1.7135, 0.0367), (0.0389, -0.0685, 1.0296))
    from_lms: _Matrix = (
        (0.9869929, -0.1470543, 0.1599627),
        (0.4323053, 0.5183603, 0.0492912),
        (-0.0085287, 0.0400428, 0.9684867),
    )
    source = _apply(to_lms, (wx / wy, 1.0, (1 - wx - wy) / wy))
    target = _apply(to_lms, (0.96422, 1.0, 0.82521))
    scale = _diagonal((target[0] / source[0], target[1] / source[1], target[2] / source[2]))
    return _concat(from_lms, _concat(scale, to_lms))


def _primaries_to_d50(primaries: tuple[float, ...], white: tuple[float, float]) -> _Matrix:
    """skcms_PrimariesToXYZD50: a gamut given by its primaries' and white point's xy."""
    rx, ry, gx, gy, bx, by = primaries
    wx, wy = white
    to_xyz: _Matrix = ((rx, gx, bx), (ry, gy, by), (1 - rx - ry, 1 - gx - gy, 1 - bx - by))
    scale = _apply(_inverse(to_xyz), (wx / wy, 1.0, (1 - wx - wy) / wy))
    return _concat(_adapt_to_d50(wx, wy), _concat(to_xyz, _diagonal(scale)))


# skcms' named gamuts (linear RGB to XYZ D50) and sRGB-like transfer functions (g, a, b, c, d).
_SRGB_GAMUT: _Matrix = (
    (0.436065674, 0.385147095, 0.143066406),
    (0.222488403, 0.716873169, 0.060607910),
    (0.013916016, 0.097076416, 0.714096069),
)
_FROM_D50_TO_SRGB = _inverse(_SRGB_GAMUT)
_P3_GAMUT: _Matrix = (
    (0.515102, 0.291965, 0.157153),
    (0.241182, 0.692236, 0.0665819),
    (-0.00104941, 0.0418818, 0.784378),
)
_A98_GAMUT: _Matrix = ((0.60974, 0.20528, 0.14919), (0.31111, 0.62567, 0.06322), (0.01947, 0.06087, 0.74457))
_REC2020_GAMUT: _Matrix = (
    (0.673459, 0.165661, 0.125100),
    (0.279033, 0.675338, 0.0456288),
    (-0.00193139, 0.0299794, 0.797162),
)
_PROPHOTO_GAMUT = _primaries_to_d50((0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001), (0.34567, 0.35850))
_D65_TO_D50 = _adapt_to_d50(0.3127, 0.3290)
_IDENTITY = _diagonal((1.0, 1.0, 1.0))
_SRGB_TF = (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
_REC2020_TF = (2.22222, 0.909672, 0.0903276, 0.222222, 0.0812429)
_XYZ_TO_LMS: _Matrix = (
    (0.8190224432164319, 0.3619062562801221, -0.12887378261216414),
    (0.0329836671980271, 0.9292868468965546, 0.03614466816999844),
    (0.048177199566046255, 0.26423952494422764, 0.6335478258136937),
)
_LMS_TO_XYZ = _inverse(_XYZ_TO_LMS)
_OKLAB_TO_LMS: _Matrix = (
    (0.99999999845051981432, 0.39633779217376785678, 0.21580375806075880339),
    (1.0000000088817607767, -0.1055613423236563494, -0.063854174771705903402),
    (1.0000000546724109177, -0.089484182094965759684, -1.2914855378640917399),
)


def _linearize(tf: tuple[float, ...], value: float) -> float:
    g, a, b, c, d = tf
    x = abs(value)
    return math.copysign(c * x if x < d else (a * x + b) ** g, value)


def _gamma(exponent: float) -> Callable[[float], float]:
    return lambda value: math.copysign(abs(value) ** exponent, value)


def _encode_srgb(value: float) -> float:
    g, a, b, c, d = _SRGB_TF
    x = abs(value)
    return math.copysign(x / c if x < c * d else (x ** (1 / g) - b) / a, value)


# color() spaces: the gamut to XYZ D50 and the transfer function to linear light
_RGB_SPACES: dict[str, tuple[_Matrix, Callable[[float], float]]] = {
    "srgb-linear": (_SRGB_GAMUT, float),
    "display-p3": (_P3_GAMUT, lambda v: _linearize(_SRGB_TF, v)),
    "display-p3-linear": (_P3_GAMUT, float),
    "a98-rgb": (_A98_GAMUT, _gamma(2.2)),
    "prophoto-rgb": (_PROPHOTO_GAMUT, _gamma(1.8)),
    "rec2020": (_REC2020_GAMUT, lambda v: _linearize(_REC2020_TF, v)),
    "xyz-d50": (_IDENTITY, float),
    "xyz-d65": (_D65_TO_D50, float),
    "xyz": (_D65_TO_D50, float),
}


def _lab_to_d50(lightness: float, a: float, b: float) -> _Vector:
    y = (lightness + 16) / 116
    x, z = y + a / 500, y - b / 200

    def inverse(t: float) -> float:
        return (108 / 841) * (t - 16 / 116) if t <= 24 / 116 else t**3

    return inverse(x) * 0.9642, inverse(y), inverse(z) * 0.8251


def _oklab_to_d50(lightness: float, a: float, b: float) -> _Vector:
    l_, m, s = _apply(_OKLAB_TO_LMS, (lightness, a, b))
    return _apply(_D65_TO_D50, _apply(_LMS_TO_XYZ, (l_**3, m**3, s**3)))


def _d50_to_srgb(xyz: _Vector) -> _Vector:
    red, green, blue = _apply(_FROM_D50_TO_SRGB, xyz)
    return _encode_srgb(red), _encode_srgb(green), _encode_srgb(blue)


_COLOR_FUNCTIONS = frozenset("rgb rgba hsl hsla hwb lab lch oklab oklch color".split())
_COLOR_SPACES = frozenset(_RGB_SPACES) | {"srgb"}
_LAB_LIKE = frozenset("lab lch oklab oklch".split())  # Chromium 156 rejects math in these


def _color_arguments(block: _Block) -> tuple[str, list[_Typed], bool] | None:
    """The color space and three channels of a color function, and whether it used commas."""
    items = _strip_ws(list(block.items))
    space = block.name
    if space == "color":
        first = items[0] if items else None
        known = isinstance(first, _Token) and first.kind == "ident" and first.text.lower() in _COLOR_SPACES
        if not known:
            return None
        space, items = first.text.lower(), items[1:]  # type: ignore[union-attr]
    commas = [_strip_ws(part) for part in _split(tuple(items), ",")]
    if len(commas) > 1:  # the legacy syntax: rgb(), rgba(), hsl() and hsla() only, no none
        if space not in ("rgb", "rgba", "hsl", "hsla") or len(commas) not in (3, 4):
            return None
        kinds = ("np", "np", "np") if space.startswith("rgb") else ("na", "p", "p")
        channels = [_channel(part, kind) for part, kind in zip(commas, kinds)]
        if len(commas) == 4 and _channel(commas[3], "np") is None:
            return None
        if space.startswith("rgb") and len({c[1] for c in channels if c}) != 1:
            return None  # all numbers or all percentages
        legacy = True
    else:
        slashes = [_strip_ws(part) for part in _split(tuple(items), "/")]
        math_ok = space not in _LAB_LIKE
        if len(slashes) > 2 or (len(slashes) == 2 and _channel(slashes[1], "npx", math_ok=math_ok) is None):
            return None
        values = [item for item in slashes[0] if not (isinstance(item, _Token) and item.kind == "ws")]
        if len(values) != 3:
            return None
        hue_at = 0 if space in ("hsl", "hsla", "hwb") else 2 if space in ("lch", "oklch") else -1
        channels = [
            _channel([item], "nax" if i == hue_at else "npx", math_ok=math_ok)
            for i, item in enumerate(values)
        ]
        legacy = False
    if any(channel is None for channel in channels):
        return None
    return space, [channel for channel in channels if channel], legacy


def _to_srgb(space: str, channels: list[_Typed], clamp: bool) -> _Vector:
    """Gamma-encoded sRGB, not yet clipped, as Chromium converts each space."""
    (v1, k1), (v2, k2), (v3, k3) = channels
    if space in ("rgb", "rgba"):
        rgb = [_f32(min(max(v * 2.55 if k == "percentage" else v, 0.0), 255.0)) for v, k in channels]
        return _f32(rgb[0] / 255), _f32(rgb[1] / 255), _f32(rgb[2] / 255)
    if space in ("hsl", "hsla", "hwb"):
        second, third = max(v2 / 100, 0.0), max(v3 / 100, 0.0)
        if space == "hwb":
            return _hwb_to_srgb(_hue(channels[0]), second, third)
        if clamp:
            second, third = min(second, 1.0), min(third, 1.0)
        return _hsl_to_srgb(_hue(channels[0]), second, third)
    if space in ("lab", "lch"):
        lightness = min(max(v1, 0.0), 100.0)
        if space == "lab":
            a, b = v2 * (1.25 if k2 == "percentage" else 1), v3 * (1.25 if k3 == "percentage" else 1)
        else:
            chroma, hue = max(v2 * (1.5 if k2 == "percentage" else 1), 0.0), math.radians(_hue(channels[2]))
            a, b = chroma * math.cos(hue), chroma * math.sin(hue)
        return _d50_to_srgb(_lab_to_d50(lightness, a, b))
    if space in ("oklab", "oklch"):
        lightness = min(max(v1 / (100 if k1 == "percentage" else 1), 0.0), 1.0)
        if space == "oklab":
            a, b = v2 * (0.004 if k2 == "percentage" else 1), v3 * (0.004 if k3 == "percentage" else 1)
        else:
            chroma, hue = max(v2 * (0.004 if k2 == "percentage" else 1), 0.0), math.radians(_hue(channels[2]))
            a, b = chroma * math.cos(hue), chroma * math.sin(hue)
        return _d50_to_srgb(_oklab_to_d50(lightness, a, b))
    r, g, b = (v / 100 if k == "percentage" else v for v, k in channels)
    if space == "srgb":
        return r, g, b
    gamut, linearize = _RGB_SPACES[space]
    return _d50_to_srgb(_apply(gamut, (linearize(r), linearize(g), linearize(b))))


# Chromium first tries a fast path for simple rgb() and hsl() strings, and it differs from the
# full CSS parser in two ways: it clamps hsl() saturation and lightness to [0%, 100%] (as the
# legacy comma syntax always does; otherwise only negative values are raised to 0, so
# hsl(0 117% 11%) is #380000 but hsl(0 117% 11% / 50%) is #3d0000), and after an alpha and its
# ")" it ignores anything up to a final digit and ")" (rgba(1,2,3,0)x9) is #010203). Its
# grammar, as observed:
_S = "[ \t\n\r\f]"
_N = r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
_HUE = _N + r"(?:(?i:deg|grad|rad|turn))?"
_LEGACY_END = rf"{_S}*(?:,{_S}*{_N}%?\)(?:.*[0-9]\))?|\))"
_MODERN_END = rf"{_S}*(?:/{_S}*{_N}\)(?:.*[0-9]\))?|\))"
_FAST_PATH = re.compile(
    rf"rgba?\({_S}*(?:{_N}(?:{_S}*,{_S}*{_N}){{2}}|{_N}%(?:{_S}*,{_S}*{_N}%){{2}}){_LEGACY_END}"
    rf"|rgba?\({_S}*{_N}%?(?:{_S}+{_N}%?){{2}}{_MODERN_END}"
    rf"|hsla?\({_S}*{_HUE}(?:{_S}*,{_S}*{_N}%){{2}}{_LEGACY_END}"
    rf"|hsla?\({_S}*{_HUE}(?:{_S}+{_N}%){{2}}{_MODERN_END}",
    re.DOTALL,
)


@lru_cache(maxsize=4096)
def _sanitize_color(value: str) -> str:
    """The color input's value: any CSS color Chromium resolves, as ``#rrggbb``, alpha dropped."""
    keyword = value.lower() if value.isascii() else ""
    if keyword in _NAMED_COLORS or keyword in _SYSTEM_COLORS:
        return "#%06x" % _NAMED_COLORS.get(keyword, _SYSTEM_COLORS.get(keyword, 0))
    fast = _FAST_PATH.fullmatch(value) is not None
    if fast:
        value = value[: value.index(")") + 1]
    tokens = _css_tokens(value)
    if tokens is None:
        return "#000000"
    items = _strip_ws(_component_values(tokens, 0, False)[0])
    if len(items) != 1:
        return "#000000"
    item = items[0]
    if isinstance(item, _Token):
        digits = item.text
        if (
            item.kind != "hash"
            or len(digits) not in (3, 4, 6, 8)
            or not re.fullmatch(r"[0-9a-fA-F]+", digits)
        ):
            return "#000000"
        if len(digits) < 6:
            digits = "".join(ch * 2 for ch in digits)
        return "#" + digits[:6].lower()
    arguments = _color_arguments(item) if item.name in _COLOR_FUNCTIONS else None
    if arguments is None:
        return "#000000"
    space, channels, legacy = arguments
    # SkColor4f::toSkColor: clip to [0, 1], then round half up, in single precision
    return "#" + "".join(
        "%02x" % int(_f32(_f32(min(max(_f32(channel), 0.0), 1.0) * 255.0) + 0.5))
        for channel in _to_srgb(space, channels, clamp=fast or legacy)
    )


# --- sanitization ---------------------------------------------------------------------------------


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
    if input_type in ("text", "search", "tel", "password"):
        return value.translate(_LINE_BREAKS)
    if input_type == "url":
        return value.translate(_LINE_BREAKS).strip(_HTML_SPACES)
    if input_type == "email":
        value = value.translate(_LINE_BREAKS)
        if not multiple:
            return value.strip(_HTML_SPACES)
        return ",".join(part.strip(_HTML_SPACES) for part in value.split(","))
    if input_type == "number":
        return value if parse_float(value) is not None else ""
    if input_type == "range":
        limits = _step_range("range", min, max, step, value_attribute)
        number = _number_decimal(value)
        return _serialize_number(limits.clamp(number if number.finite else limits.default_range_value()))
    if input_type == "datetime-local":
        moment = _moment(input_type, value)
        return "" if moment is None else _normalized_datetime(moment)
    if input_type in _PARSERS:
        return value if _moment(input_type, value) is not None else ""
    if input_type == "color":
        return _sanitize_color(value)
    return value
