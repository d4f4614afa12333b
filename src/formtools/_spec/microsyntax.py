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
from typing import Final

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
    "PatternShape",
    "pattern_shape",
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
    Raises :class:`~formtools.errors.Unsupported` for a pattern formtools cannot match safely
    or V8 compiles with the v flag and regress does not (see :func:`v_flag_regex`)."""
    if compiles_with_v_flag(pattern):
        return v_flag_regex(pattern, pattern)
    _refuse_beyond_limits(pattern)
    try:
        return regress.Regex(pattern, "u")
    except (regress.RegressError, UnicodeEncodeError):
        return None


def v_flag_regex(source: str, pattern: str) -> regress.Regex:
    """``source``, a regex built around the attribute ``pattern`` that V8 compiles with the v
    flag, compiled by regress for matching. regress refuses some patterns V8 compiles: nesting
    deeper than 255 groups, a few property aliases (``\\p{WSpace}``), string properties negated
    inside set operations, bounds beyond 2**31, lone surrogates (65 of the 2,066 valid patterns
    in ``fixtures/expected/regex-v-flag.json``); and it would crash the process on others (see
    :func:`_refuse_beyond_limits`). Such a pattern raises
    :class:`~formtools.errors.Unsupported`: the browser checks values against it, and falling
    back to the u flag, or to no check, would answer differently without saying so."""
    _refuse_beyond_limits(pattern)
    try:
        return regress.Regex(source, "v")
    except (regress.RegressError, UnicodeEncodeError) as error:
        reason = error.reason if isinstance(error, UnicodeEncodeError) else str(error)
        raise _unsupported(pattern, f"its regex engine (regress) refuses it ({reason.lower()})") from None


def _unsupported(pattern: str, why: str) -> Unsupported:
    shown = pattern if len(pattern) <= 40 else pattern[:40] + "…"
    return Unsupported(f"formtools cannot check values against the pattern {shown!r}, which the browser compiles: {why}")


#: regress compiles alternatives by recursion, a disjunction nested in another's last
#: alternative included: some 50,000 of them (in one place, or 5,000 in each of 16 nested
#: disjunctions) overflow an 8 MiB stack and kill the process (SIGSEGV). formtools' bound counts
#: every alternative of the pattern, and leaves room for smaller thread stacks.
MAX_ALTERNATIVES: Final = 10_000
#: regress runs a quantifier's minimum count of iterations even when they match nothing, with
#: memory for each: ``(a|){100000000}`` asks for 10 GB, and nested counts multiply. A pattern
#: forcing more than this many is refused (a million ran in 22 ms).
MAX_FORCED_ITERATIONS: Final = 1_000_000
_BOUND = re.compile(r"\{([0-9]+)(?:,[0-9]*)?\}")
_GROUP_PREFIX = re.compile(r"\?(?:<[^>=!]*>|[a-zA-Z-]*:|<?[=!])")


@dataclass(frozen=True)
class PatternShape:
    """What matching a pattern costs before any value is read, as one linear pass measures it:
    how deeply its groups nest, how many alternatives it has, and how many iterations its
    quantifiers force (see :func:`pattern_shape`)."""

    depth: int
    alternatives: int
    forced_iterations: int


def pattern_shape(pattern: str) -> PatternShape:
    """Measure ``pattern`` in one pass, read as ECMAScript reads it: escapes and classes (nested
    ones too; ``[]`` and ``[^]`` end at their first ``]``) hold no groups; each group keeps the
    cost of its costliest alternative, an atom costs 1 and a quantifier multiplies its atom's
    cost by its minimum count (a count of more than ten digits is taken as 2**31). The forced
    iterations saturate just past :data:`MAX_FORCED_ITERATIONS`."""
    # each frame: [cost of the alternatives closed so far, cost of the current one, cost of
    # its last atom]
    frames = [[0, 0, 0]]
    depth = forced = 0
    alternatives = 1
    at, length = 0, len(pattern)
    while at < length:
        character, frame = pattern[at], frames[-1]
        atom = 0  # the cost of an atom that ends here, if one does
        if character == "\\":
            atom, at = 1, at + 2
        elif character == "[":
            nesting, at = 1, at + 1
            while at < length and nesting:
                if pattern[at] == "\\":
                    at += 1
                elif pattern[at] == "[":
                    nesting += 1
                elif pattern[at] == "]":
                    nesting -= 1
                at += 1
            atom = 1
        elif character == "(":
            frames.append([0, 0, 0])
            depth = max(depth, len(frames) - 1)
            prefix = _GROUP_PREFIX.match(pattern, at + 1)  # (?:, (?=, (?<name>, (?i: …
            at = prefix.end() if prefix else at + 1
        elif character == ")" and len(frames) > 1:
            inner = frames.pop()
            frame, atom, at = frames[-1], max(1, inner[0], inner[1]), at + 1
        elif character == "|":
            frame[0], frame[1], frame[2] = max(frame[0], frame[1]), 0, 0
            alternatives += 1
            at += 1
        elif character == "{" and (bound := _BOUND.match(pattern, at)):
            digits = bound.group(1)
            count = max(1, int(digits) if len(digits) <= 10 else 2**31)
            frame[1] += frame[2] * (count - 1)
            frame[2] *= count
            at = bound.end()
        else:
            atom = 0 if character in "*+?" else 1
            at += 1
        if atom:
            frame[1] += atom
            frame[2] = atom
        if frame[1] > MAX_FORCED_ITERATIONS:  # saturate: nested counts would grow without end
            frame[1] = frame[2] = MAX_FORCED_ITERATIONS + 1
        forced = max(forced, frame[1])
    return PatternShape(depth, alternatives, forced)


def _refuse_beyond_limits(pattern: str) -> None:
    """Raise :class:`~formtools.errors.Unsupported` when matching ``pattern`` with regress could
    crash the process or exhaust its memory (:data:`MAX_ALTERNATIVES`,
    :data:`MAX_FORCED_ITERATIONS`)."""
    shape = pattern_shape(pattern)
    if shape.alternatives > MAX_ALTERNATIVES:
        raise _unsupported(pattern, f"it has more than {MAX_ALTERNATIVES:,} alternatives")
    if shape.forced_iterations > MAX_FORCED_ITERATIONS:
        raise _unsupported(pattern, f"it repeats more than {MAX_FORCED_ITERATIONS:,} times whatever the value")
