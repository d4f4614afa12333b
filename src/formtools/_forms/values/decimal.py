"""Blink's decimal type (``Decimal``): 18 significant digits, truncating alignment,
half-away-from-zero rounding — the arithmetic of ``min``, ``max`` and ``step``.

Part of :mod:`formtools._forms.values`; see it for how these rules were measured.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from formtools._spec.jsjson import js_number

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


