"""Ranges and steps as Blink's ``StepRange`` checks them (range underflow/overflow, step
mismatch), the messages that show the limits, and a value as a number.

Part of :mod:`formtools._forms.values`; see it for how these rules were measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from formtools._spec.microsyntax import parse_float
from formtools._forms.values.decimal import _DOUBLE_MAX, _Decimal, _NAN, _ZERO, _number_decimal, _serialize_number
from formtools._forms.values.temporal import _LAST_MONTH, _MAX_YEAR, _MS_PER_DAY, _PARSERS, _days_since_epoch, _first_week_offset, _moment, parse_date, parse_datetime_local, parse_month, parse_time, parse_week

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


@lru_cache(maxsize=1024)
def _step_range(
    input_type: str, min: str | None, max: str | None, step: str | None, value_attribute: str | None
) -> _StepRange:
    """A control's range and step, parsed from its attributes with Blink's decimal arithmetic.

    Kept for the last 1,024 distinct attribute sets (a pure function of strings, its answer
    immutable): one value's validity asks for it up to four times (underflow, overflow, step
    mismatch, the message), and a tool's controls keep their attributes from call to call."""
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


def _number(input_type: str, value: str) -> _Decimal | None:
    """A (sanitized) value of a ranged type as a finite number, else None (no range applies)."""
    if input_type not in _STEPS:
        return None
    number = _STEPS[input_type].to_number(value)
    return number if number.finite else None


def _outside(input_type: str, number: _Decimal, min: str | None, max: str | None) -> tuple[bool, bool]:
    """(below min, above max) for a value's number; a value inside a reversed time range's
    gap counts both ways."""
    limits = _step_range(input_type, min, max, None, None)
    if limits.reversed:
        gap = number > limits.maximum and number < limits.minimum
        return gap, gap
    return number < limits.minimum, number > limits.maximum


def range_underflow(input_type: str, value: str, *, min: str | None = None, max: str | None = None) -> bool:
    """validity.rangeUnderflow for a (sanitized) value."""
    number = _number(input_type, value)
    return number is not None and _outside(input_type, number, min, max)[0]


def range_overflow(input_type: str, value: str, *, min: str | None = None, max: str | None = None) -> bool:
    """validity.rangeOverflow for a (sanitized) value."""
    number = _number(input_type, value)
    return number is not None and _outside(input_type, number, min, max)[1]


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
    number = _number(input_type, value)
    return number is not None and _step_range(input_type, min, max, step, value_attribute).mismatch(number)


def range_flag(
    input_type: str,
    value: str,
    *,
    min: str | None = None,
    max: str | None = None,
    step: str | None = None,
    value_attribute: str | None = None,
) -> str | None:
    """The first of rangeUnderflow, rangeOverflow and stepMismatch a (sanitized) value sets, or
    None: the three checks with the value parsed once (asked one by one, each parsed it again)."""
    number = _number(input_type, value)
    if number is None:
        return None
    below, above = _outside(input_type, number, min, max)
    if below:
        return "rangeUnderflow"
    if above:
        return "rangeOverflow"
    if _step_range(input_type, min, max, step, value_attribute).mismatch(number):
        return "stepMismatch"
    return None


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


