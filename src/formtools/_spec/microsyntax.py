"""HTML microsyntaxes and step rules (#common-microsyntaxes, #concept-input-step).

Numbers are parsed twice on purpose: as binary floats where the browser compares and prints
doubles, and as :class:`~decimal.Decimal` where Chromium does its step arithmetic in decimal
(``min=0.3 step=0.1`` *is* a multiple, which binary floats would deny).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

import regress

from formtools._spec.constants import ASCII_WHITESPACE
from formtools._spec.ecmaregex import compiles_with_v_flag
from formtools.errors import Unsupported

__all__ = [
    "parse_float",
    "parse_decimal",
    "StepRule",
    "allowed_step",
    "step_base",
    "is_multiple",
    "ASCII_WHITESPACE_RUNS",
    "collapse_whitespace",
    "compiled_pattern",
    "v_flag_regex",
    "compiles_as_v_flag_regex",
]

# #valid-floating-point-number, as Chromium's ParseToDoubleForNumberType accepts it: no leading
# "+" or whitespace, no trailing ".", an optional exponent.
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def parse_float(text: str | None) -> float | None:
    """A valid floating-point number as a finite double, else None."""
    if text is None or not _FLOAT.match(text) or text.endswith("."):
        return None
    value = float(text)
    if not math.isfinite(value):
        return None
    return value + 0.0  # -0 becomes 0


ASCII_WHITESPACE_RUNS = re.compile(f"[{ASCII_WHITESPACE}]+")


def collapse_whitespace(text: str) -> str:
    """#strip-and-collapse-ascii-whitespace."""
    return " ".join(ASCII_WHITESPACE_RUNS.split(text.strip(ASCII_WHITESPACE)))


def parse_decimal(text: str | None) -> Decimal | None:
    """Like :func:`parse_float`, keeping the decimal digits as written."""
    if parse_float(text) is None:
        return None
    try:
        return Decimal(text)  # type: ignore[arg-type]
    except InvalidOperation:  # pragma: no cover - the grammar above excludes it
        return None


@dataclass(frozen=True)
class StepRule:
    """#concept-input-step-default and #concept-input-step-scale for one input type."""

    default: Decimal
    scale: Decimal
    default_base: Decimal = Decimal(0)
    any_is_default: bool = False  # range needs a step for its slider: "any" means the default


def allowed_step(step_attribute: str | None, rule: StepRule) -> Decimal | None:
    """#concept-input-step: the allowed step, or None for ``step=any``.

    A missing, unparsable, zero or negative step means the default step.
    """
    if step_attribute is not None and step_attribute.lower() == "any":
        return rule.default * rule.scale if rule.any_is_default else None
    step = parse_decimal(step_attribute)
    if step is None or step <= 0:
        return rule.default * rule.scale
    return step * rule.scale


def step_base(min_attribute: str | None, value_attribute: str | None, rule: StepRule) -> Decimal:
    """#concept-input-min-zero: ``min`` if it parses, else the ``value`` attribute, else the default."""
    for candidate in (min_attribute, value_attribute):
        parsed = parse_decimal(candidate)
        if parsed is not None:
            return parsed
    return rule.default_base


def is_multiple(value: Decimal, step: Decimal) -> bool:
    """Whether ``value`` is an integer multiple of ``step``, exactly: ``Decimal``'s ``%`` fails
    once the quotient outgrows its context (``1e21 % 1e-7``), fractions never do."""
    return Fraction(value) % Fraction(step) == 0


@lru_cache(maxsize=4096)
def compiles_as_v_flag_regex(pattern: str) -> bool:
    """Whether ``pattern`` compiles as an ECMAScript RegExp with the ``v`` flag, as V8 decides
    (``regress``, which does the matching, accepts more than V8 does)."""
    return compiles_with_v_flag(pattern)


_ASCII_UPPER_TO_LOWER = {ord(c): ord(c) + 32 for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


def ascii_lowercase(text: str) -> str:
    """Infra's "ASCII lowercase": A–Z only (``str.lower`` also folds other letters, and the
    Kelvin sign K becomes an ASCII ``k``)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_UPPER_TO_LOWER)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def regex_matches(regex: regress.Regex, text: str) -> bool:
    """Whether ``regex`` finds a match in ``text``, a JavaScript string. regress takes only
    Unicode scalar values, so a lone surrogate (JSON allows ``"\\ud800"``, the browser keeps it)
    is matched as U+FFFD: the same for ``.``, negated classes and ``\\W``/``\\S``; only a
    pattern naming surrogates (``\\p{Cs}``, ``[\\ud800-\\udfff]``) would answer otherwise."""
    return regex.find(_LONE_SURROGATE.sub("\ufffd", text)) is not None


@lru_cache(maxsize=1024)
def compiled_pattern(pattern: str) -> regress.Regex | None:
    """``pattern`` with ECMAScript semantics: the v flag when V8 compiles it so (as HTML compiles
    the attribute), else the u flag (JSON Schema's), else None (a pattern the browser ignores).
    Raises :class:`~formtools.errors.Unsupported` for a pattern V8 compiles with the v flag and
    regress does not (see :func:`v_flag_regex`)."""
    if compiles_with_v_flag(pattern):
        return v_flag_regex(pattern, pattern)
    try:
        return regress.Regex(pattern, "u")
    except (regress.RegressError, UnicodeEncodeError):
        return None


def v_flag_regex(source: str, pattern: str) -> regress.Regex:
    """``source``, a regex built around the attribute ``pattern`` that V8 compiles with the v
    flag, compiled by regress for matching. regress refuses some patterns V8 compiles: nesting
    deeper than 255 groups, a few property aliases (``\\p{WSpace}``), string properties negated
    inside set operations, bounds beyond 2**31, lone surrogates (65 of the 2,066 valid patterns
    in ``fixtures/expected/regex-v-flag.json``). Such a pattern raises
    :class:`~formtools.errors.Unsupported`: the browser checks values against it, and falling
    back to the u flag, or to no check, would answer differently without saying so."""
    try:
        return regress.Regex(source, "v")
    except (regress.RegressError, UnicodeEncodeError) as error:
        reason = error.reason if isinstance(error, UnicodeEncodeError) else str(error)
        shown = pattern if len(pattern) <= 40 else pattern[:40] + "…"
        raise Unsupported(
            f"formtools cannot check values against the pattern {shown!r}, which the browser "
            f"compiles: its regex engine (regress) refuses it ({reason.lower()})"
        ) from None
