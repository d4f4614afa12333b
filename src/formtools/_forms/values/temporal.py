"""Dates and times as Blink's ``DateComponents`` parses and prints them: date, month, week,
time and datetime-local strings and their numbers (milliseconds, months).

Part of :mod:`formtools._forms.values`; see it for how these rules were measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


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


