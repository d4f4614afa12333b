"""HTML microsyntaxes and step rules (#common-microsyntaxes, #concept-input-step).

Numbers are parsed twice on purpose: as binary floats where the browser compares and prints
doubles, and as :class:`~decimal.Decimal` where Chromium does its step arithmetic in decimal
(``min=0.3 step=0.1`` *is* a multiple, which binary floats would deny).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Context, Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache, update_wrapper
from typing import Final

import regress

from formtools._spec.constants import ASCII_WHITESPACE, ASCII_WHITESPACE_RUNS, ascii_lowercase
from formtools._spec.ecmaregex import compiles_with_v_flag
from formtools._spec.matchworker import match_with_deadline
from formtools.errors import Unsupported

__all__ = [
    "non_negative_integer",
    "parse_float",
    "parse_decimal",
    "StepRule",
    "allowed_step",
    "step_base",
    "is_multiple",
    "EXACT_DECIMALS",
    "ASCII_WHITESPACE_RUNS",
    "ascii_lowercase",
    "collapse_whitespace",
    "CompiledPattern",
    "compiled_pattern",
    "PatternCache",
    "v_flag_regex",
    "regex_matches",
    "pattern_budget",
    "MATCH_BUDGET",
    "CALL_MATCH_BUDGET",
    "PatternShape",
    "pattern_shape",
    "compiles_as_v_flag_regex",
]

# #valid-floating-point-number, as Chromium's ParseToDoubleForNumberType accepts it: no leading
# "+" or whitespace, no trailing ".", an optional exponent.
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


#: Blink keeps a non-negative integer attribute in an ``unsigned``: a larger value is an error
_UNSIGNED_MAX = 2**32 - 1
_DIGITS = re.compile("[0-9]*")


def non_negative_integer(text: str | None) -> int | None:
    """#rules-for-parsing-non-negative-integers as Chromium 156 applies them: leading ASCII
    whitespace, a sign (``+`` is skipped; ``-`` leaves only ``0`` a value), digits, anything
    after them ignored; a value above 4294967295 is an error, as a missing one is. Measured on
    ``<select size>`` (``+2`` and `` +02`` are 2; ``4294967296`` is no size)."""
    if text is None:
        return None
    rest = text.lstrip(ASCII_WHITESPACE)
    negative = rest.startswith("-")
    if rest[:1] in ("+", "-"):
        rest = rest[1:]
    digits = _DIGITS.match(rest)
    if digits is None or not digits.group():
        return None
    value = int(digits.group())
    return None if (negative and value) or value > _UNSIGNED_MAX else value


def parse_float(text: str | None) -> float | None:
    """A valid floating-point number as a finite double, else None."""
    if text is None or not _FLOAT.match(text) or text.endswith("."):
        return None
    value = float(text)
    if not math.isfinite(value):
        return None
    return value + 0.0  # -0 becomes 0


def collapse_whitespace(text: str) -> str:
    """#strip-and-collapse-ascii-whitespace."""
    return " ".join(ASCII_WHITESPACE_RUNS.split(text.strip(ASCII_WHITESPACE)))


#: The context of every :class:`~decimal.Decimal` operation formtools does: exact whatever the
#: operands' length (a ``Decimal`` is built exactly from a string or a double without one), halves
#: rounded up where an operation rounds on purpose (``toPrecision``). Never the thread's own
#: ``decimal.getcontext()``, which is its caller's to set: under a caller's ``prec = 10`` a step of
#: 12345678 from 1234567890123 was described as "1234567890000 plus …" and a filled 0.1234565 was
#: sent as 0.123457, and under ``prec = 3`` a call raised ``decimal.InvalidOperation``.
EXACT_DECIMALS: Final = Context(prec=MAX_PREC, rounding=ROUND_HALF_UP, Emin=MIN_EMIN, Emax=MAX_EMAX)


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
        return EXACT_DECIMALS.multiply(rule.default, rule.scale) if rule.any_is_default else None
    step = parse_decimal(step_attribute)
    if step is None or step <= 0:
        return EXACT_DECIMALS.multiply(rule.default, rule.scale)
    return EXACT_DECIMALS.multiply(step, rule.scale)


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


def keyword(value: str) -> str:
    """An attribute's keyword as formtools compares it: ASCII white space around it stripped
    (a no-break space or U+3000 is part of the value, as in HTML) and ASCII-lowercased."""
    return ascii_lowercase(value.strip(ASCII_WHITESPACE))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class CompiledPattern:
    """A regex compiled by regress, with what matching it may cost: its ``source`` and
    ``flags`` (to match it in a helper process) and its :class:`PatternShape`."""

    source: str
    flags: str
    regex: regress.Regex = field(compare=False, repr=False)
    shape: PatternShape = field(compare=False, repr=False)

    @classmethod
    def compile(cls, source: str, flags: str) -> CompiledPattern:
        return cls(source, flags, regress.Regex(source, flags), pattern_shape(source))


#: formtools' own approximation of V8's backtrack limit, in seconds of matching. Blink compiles
#: the ``pattern`` attribute with a limit of about a million backtracks and, past it, counts the
#: value a patternMismatch ("Please match the requested format."), even one that would match:
#: ``(a+)+b|a+c`` matches 19 ``a`` and a ``c`` in Chromium 156, not 20. regress has no such
#: limit and holds the GIL, so a pattern that may backtrack this far is matched in a helper
#: process (:mod:`formtools._spec.matchworker`) that is killed after this long, and the value is
#: then a mismatch, as Chromium says past its limit. regress does a million backtracks in about
#: 20 ms, so a value V8 gives up on but regress finishes within the budget (``(a+)+b|a+c`` on 20
#: to some 23 ``a``) is answered by regress: a match.
MATCH_BUDGET: Final = 0.25
#: What the bounded matches of one call (:func:`pattern_budget`: a validation, a tool call)
#: spend together, in all: matching, helper starts (about 0.1 s idle, seconds on a loaded
#: machine), waits and kills. A form of many such controls costs about a second, not N ×
#: :data:`MATCH_BUDGET` (nor N helper starts: one call took 33 s at load 15 when each killed
#: helper's replacement started uncounted). Once it is spent, a bounded match is not tried: the
#: value is a patternMismatch, what Chromium reports when V8 gives up on a match, so a harmless
#: value of a flagged pattern (``(\\w+\\s?)*`` on a few words) after enough catastrophic ones
#: is a mismatch here where Chromium, which gives up per match, finds it.
CALL_MATCH_BUDGET: Final = 1.0
#: A match whose worst case (:meth:`PatternShape.worst_case`) is at most this many paths runs in
#: process, as fast as regress is: a million paths of a dense alternation took 20 ms, so at
#: most about 0.1 s holding the GIL, and an ordinary pattern on an ordinary value (an e-mail
#: pattern with three ``+`` on 44 characters) far less. A costlier one goes to the helper.
IN_PROCESS_PATHS: Final = 5_000_000


@dataclass
class _CallBudget:
    deadline: float
    verdicts: dict[tuple[str, str, str], bool]


_CALL_BUDGET: ContextVar[_CallBudget | None] = ContextVar("formtools_pattern_budget", default=None)


@contextmanager
def pattern_budget() -> Iterator[None]:
    """One call's matches share :data:`CALL_MATCH_BUDGET` (an outer call's, when nested) and
    their bounded verdicts, so ``validate_input`` and the constraint validation of the same call
    answer a value alike."""
    if _CALL_BUDGET.get() is not None:
        yield
        return
    token = _CALL_BUDGET.set(_CallBudget(time.monotonic() + CALL_MATCH_BUDGET, {}))
    try:
        yield
    finally:
        _CALL_BUDGET.reset(token)


def regex_matches(pattern: CompiledPattern, text: str) -> bool:
    """Whether ``pattern`` finds a match in ``text``, a JavaScript string, in bounded time.

    regress takes only Unicode scalar values, so a lone surrogate (JSON allows ``"\\ud800"``,
    the browser keeps it) is matched as U+FFFD: the same for ``.``, negated classes and
    ``\\W``/``\\S``; only a pattern naming surrogates (``\\p{Cs}``, ``[\\ud800-\\udfff]``)
    would answer otherwise. A match whose worst case is beyond :data:`IN_PROCESS_PATHS` runs in
    a helper process within :data:`MATCH_BUDGET` and what is left of its call's
    :data:`CALL_MATCH_BUDGET` (a match outside any call is a call of its own); overrunning, or
    a budget spent before it, is a mismatch, as Chromium answers past V8's backtrack limit."""
    text = _LONE_SURROGATE.sub("\ufffd", text)
    if pattern.shape.worst_case(len(text)) <= IN_PROCESS_PATHS:
        return pattern.regex.find(text) is not None
    budget = _CALL_BUDGET.get()
    if budget is None:
        with pattern_budget():
            return regex_matches(pattern, text)
    key = (pattern.source, pattern.flags, text)
    if key not in budget.verdicts:
        found = False
        if budget.deadline > time.monotonic():
            try:
                found = match_with_deadline(pattern.source, pattern.flags, text, MATCH_BUDGET, budget.deadline) is True
            except OSError as error:
                raise _unsupported(pattern.source, f"no helper process to match it in ({error})") from None
        budget.verdicts[key] = found
    return budget.verdicts[key]


class PatternCache:
    """A function compiling a pattern, its answers kept for the 4,096 patterns used last, a
    refusal (:class:`~formtools.errors.Unsupported`) included: ``lru_cache`` keeps no
    exception, so a pattern formtools refuses was read, measured and handed to regress again at
    every value checked against it (a page's 60 nesting shapes cost 2 s per value). A refusal
    comes back as a new exception with the same message.

    The answers kept are bounded by their patterns' length too (:data:`_CACHED_CHARACTERS` in
    all): a compiled pattern takes about 60 bytes per character of its source (10,000
    alternatives: 1.2 MB), so 4,096 of the largest a page may hold would keep gigabytes in a
    long-lived ``serve``; the least recently used go first, and a pattern longer than the whole
    bound is compiled at each use and never kept."""

    def __init__(self, compile_pattern: Callable[[str], CompiledPattern | None]) -> None:
        self._compile_pattern = compile_pattern
        self._outcomes: OrderedDict[str, CompiledPattern | None | str] = OrderedDict()
        self._characters = 0  # of the patterns kept
        self._lock = threading.Lock()
        update_wrapper(self, compile_pattern)

    def _outcome(self, pattern: str) -> CompiledPattern | None | str:
        """The compiled pattern, None, or the refusal's message (not the exception, whose
        context holds regress's error and its frames)."""
        try:
            return self._compile_pattern(pattern)
        except Unsupported as refusal:
            return str(refusal)

    def _kept(self, pattern: str) -> CompiledPattern | None | str:
        with self._lock:
            if pattern in self._outcomes:
                self._outcomes.move_to_end(pattern)
                return self._outcomes[pattern]
        outcome = self._outcome(pattern)  # (compiled outside the lock: another thread may too)
        with self._lock:
            if pattern not in self._outcomes:
                self._outcomes[pattern] = outcome
                self._characters += len(pattern)
                while len(self._outcomes) > _CACHED_PATTERNS or self._characters > _CACHED_CHARACTERS:
                    evicted, _ = self._outcomes.popitem(last=False)
                    self._characters -= len(evicted)
        return outcome

    def __call__(self, pattern: str) -> CompiledPattern | None:
        outcome = self._kept(pattern)
        if isinstance(outcome, str):
            raise Unsupported(outcome)
        return outcome

    def cache_clear(self) -> None:
        """Forget every answer (tests that count compilations start from none)."""
        with self._lock:
            self._outcomes.clear()
            self._characters = 0


#: :class:`PatternCache`'s bounds: answers kept, and the characters of their patterns in all
_CACHED_PATTERNS: Final = 4096
_CACHED_CHARACTERS: Final = 1_000_000


@PatternCache
def compiled_pattern(pattern: str) -> CompiledPattern | None:
    """``pattern`` with ECMAScript semantics: the v flag when V8 compiles it so (as HTML compiles
    the attribute), else the u flag (JSON Schema's), else None (a pattern the browser ignores).
    (Kept, refusals too, for as many patterns as :func:`compiles_as_v_flag_regex` keeps
    answers: with 1,024, a page of more patterns had each evicted between extraction and
    validation, compiled twice.)
    Raises :class:`~formtools.errors.Unsupported` for a pattern formtools cannot match safely
    or V8 compiles with the v flag and regress does not (see :func:`v_flag_regex`)."""
    if compiles_with_v_flag(pattern):
        return v_flag_regex(pattern, pattern)
    _refuse_beyond_limits(pattern)
    try:
        return CompiledPattern.compile(pattern, "u")
    except (regress.RegressError, UnicodeEncodeError):
        return None


def v_flag_regex(source: str, pattern: str) -> CompiledPattern:
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
        return CompiledPattern.compile(_punctuators_apart(source), "v")
    except (regress.RegressError, UnicodeEncodeError) as error:
        reason = error.reason if isinstance(error, UnicodeEncodeError) else str(error)
        raise _unsupported(pattern, f"its regex engine (regress) refuses it ({reason.lower()})") from None


#: ECMAScript's ClassSetReservedDoublePunctuator characters: two of the same are reserved in a
#: v-flag class (``&&`` is intersection); two different ones are two characters
_PUNCTUATORS: Final = frozenset("&!#$%*+,.:;<=>?@^`~")


def _punctuators_apart(source: str) -> str:
    """``source`` with each class punctuator that a different one follows escaped (``[%+]`` →
    ``[\\%+]``), the same characters to V8. regress refuses two different punctuators side by
    side in a v-flag class, which V8 compiles: the common e-mail pattern ``[a-z0-9._%+-]+@…``
    was Unsupported. Every one of them may be escaped there (a syntax character or a reserved
    punctuator); a doubled one (``&&``) and the ``^`` that negates a class are left alone, and
    so are escapes and what ``\\p{}``, ``\\u{}`` and ``\\k<>`` name. One pass; ``source`` is a
    pattern V8 compiles with the v flag (:func:`compiles_with_v_flag`)."""
    out: list[str] = []
    depth = 0  # open classes (v-flag classes nest)
    position, end = 0, len(source)
    while position < end:
        character = source[position]
        if character == "\\":
            named = source[position + 1 : position + 3]
            if named[:1] in ("p", "P", "u", "k") and named[1:] in ("{", "<"):
                close = source.find("}" if named[1:] == "{" else ">", position)
                stop = end if close < 0 else close + 1
            else:
                stop = position + 2  # (\q{ opens a class string: its characters are read as a class's)
            out.append(source[position:stop])
            position = stop
            continue
        if character == "[":
            depth += 1
            out.append(character)
            if source.startswith("^", position + 1):
                out.append("^")
                position += 1
        elif character == "]" and depth:
            depth -= 1
            out.append(character)
        elif (
            depth
            and character in _PUNCTUATORS
            and source[position + 1 : position + 2] in _PUNCTUATORS
            and source[position + 1] != character
            and (not out or out[-1] != character)
        ):
            out.append("\\" + character)
        else:
            out.append(character)
        position += 1
    return "".join(out)


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


#: A bounded quantifier with a wider range than this (``a{0,5000}``) is counted as unbounded.
_WIDE_RANGE: Final = 1_000
#: Where the path counts saturate: far beyond :data:`IN_PROCESS_PATHS` already.
_MANY: Final = 10**18
# \p{…} / \P{…}: a property of strings (RGI_Emoji, Basic_Emoji, …_Sequence) matches strings of
# several code points, an alternation in disguise
_PROPERTY = re.compile(r"[pP]\{([^}]*)\}")


def _count(digits: str) -> int:
    """A quantifier's count; one of more than ten digits is taken as 2**31."""
    return int(digits) if len(digits) <= 10 else 2**31


def _names_strings(escape: re.Match[str] | None) -> bool:
    return escape is not None and ("emoji" in escape.group(1).lower() or "sequence" in escape.group(1).lower())


@dataclass(frozen=True)
class PatternShape:
    """What matching a pattern costs before any value is read, as one linear pass measures it:
    how deeply its groups nest, how many alternatives it has, how many iterations its
    quantifiers force, and how many ways a backtracking matcher may try to match it (see
    :func:`pattern_shape` and :meth:`worst_case`)."""

    depth: int
    alternatives: int
    forced_iterations: int
    #: a group (or a class of strings) that holds a choice, repeated more than once: ``(a+)+``,
    #: ``(a|a)*``, ``(a*){3}``, ``[\q{a|aa}]*`` — paths grow exponentially with the value
    nested_repetition: bool = False
    #: the product of every bounded choice: a disjunction's alternatives, ``?``, ``{2,5}``'s 4
    fixed_paths: int = 1
    #: the choices as wide as the value: ``*``, ``+``, ``{2,}``, a range wider than _WIDE_RANGE
    unbounded_choices: int = 0

    def worst_case(self, length: int) -> int:
        """An upper bound on the paths a backtracking matcher tries on a value of ``length``
        code units, from every start: each unbounded choice stops at one of ``length + 1``
        places, each bounded one multiplies by its count. Saturates at a huge number; a nested
        repetition has no polynomial bound at all."""
        if self.nested_repetition:
            return _MANY
        paths = self.fixed_paths * (length + 1)
        for _ in range(self.unbounded_choices):
            paths *= length + 1
            if paths >= _MANY:
                return _MANY
        return min(paths, _MANY)


def pattern_shape(pattern: str) -> PatternShape:
    """Measure ``pattern`` in one pass, read as ECMAScript reads it: escapes and classes (nested
    ones too; ``[]`` and ``[^]`` end at their first ``]``) hold no groups; each group keeps the
    cost of its costliest alternative, an atom costs 1 and a quantifier multiplies its atom's
    cost by its minimum count (a count of more than ten digits is taken as 2**31). The forced
    iterations saturate just past :data:`MAX_FORCED_ITERATIONS`.

    The same pass counts choices (see :class:`PatternShape`), erring towards more: a lazy
    ``+?`` counts its ``?`` too, every disjunction counts wherever it is."""
    # each frame: [cost of the alternatives closed so far, cost of the current one, cost of
    # its last atom, alternatives so far, whether it holds a choice, whether its last atom does]
    frames = [[0, 0, 0, 1, 0, 0]]
    depth = forced = 0
    alternatives = 1
    nested = False
    fixed, unbounded = 1, 0
    at, length = 0, len(pattern)
    while at < length:
        character, frame = pattern[at], frames[-1]
        atom = 0  # the cost of an atom that ends here, if one does
        atom_choice = 0  # whether that atom holds a choice
        repeat: tuple[int, int | None] | None = None  # a quantifier's (min, max) if one ends here
        if character == "\\":
            escape = _PROPERTY.match(pattern, at + 1)
            atom, atom_choice = 1, int(_names_strings(escape))
            at = escape.end() if escape else at + 2
        elif character == "[":
            nesting, at = 1, at + 1
            while at < length and nesting:
                if pattern[at] == "\\":
                    if pattern.startswith("q{", at + 1) or _names_strings(_PROPERTY.match(pattern, at + 1)):
                        atom_choice = 1  # \q{a|aa}, \p{RGI_Emoji}: strings
                    at += 1
                elif pattern[at] == "[":
                    nesting += 1
                elif pattern[at] == "]":
                    nesting -= 1
                at += 1
            atom = 1
        elif character == "(":
            frames.append([0, 0, 0, 1, 0, 0])
            depth = max(depth, len(frames) - 1)
            prefix = _GROUP_PREFIX.match(pattern, at + 1)  # (?:, (?=, (?<name>, (?i: …
            at = prefix.end() if prefix else at + 1
        elif character == ")" and len(frames) > 1:
            inner = frames.pop()
            fixed = min(fixed * inner[3], _MANY)
            frame, atom, atom_choice, at = frames[-1], max(1, inner[0], inner[1]), inner[4], at + 1
        elif character == "|":
            frame[0], frame[1], frame[2] = max(frame[0], frame[1]), 0, 0
            frame[3] += 1
            frame[4], frame[5] = 1, 0
            alternatives += 1
            at += 1
        elif character == "{" and (bound := _BOUND.match(pattern, at)):
            low, comma, high = bound.group(0)[1:-1].partition(",")
            count = max(1, _count(low))
            frame[1] += frame[2] * (count - 1)
            frame[2] *= count
            repeat = (_count(low), None if comma and not high else _count(high or low))
            at = bound.end()
        else:
            atom = 0 if character in "*+?" else 1
            if not atom:
                repeat = (0, 1) if character == "?" else (int(character == "+"), None)
            at += 1
        if repeat is not None:
            least, most = repeat
            if frame[5] and (most is None or most > 1):
                nested = True
            if most is None or most - least > _WIDE_RANGE:
                unbounded += 1
            else:
                fixed = min(fixed * (most - least + 1), _MANY)
            if most != least or frame[5]:
                frame[4] = 1
        if atom:
            frame[1] += atom
            frame[2] = atom
            frame[5] = atom_choice
        if frame[1] > MAX_FORCED_ITERATIONS:  # saturate: nested counts would grow without end
            frame[1] = frame[2] = MAX_FORCED_ITERATIONS + 1
        forced = max(forced, frame[1])
    fixed = min(fixed * frames[0][3], _MANY)
    for unclosed in frames[1:]:  # a pattern the browser refuses; counted all the same
        fixed = min(fixed * unclosed[3], _MANY)
    return PatternShape(depth, alternatives, forced, nested, fixed, unbounded)


def _refuse_beyond_limits(pattern: str) -> None:
    """Raise :class:`~formtools.errors.Unsupported` when matching ``pattern`` with regress could
    crash the process or exhaust its memory (:data:`MAX_ALTERNATIVES`,
    :data:`MAX_FORCED_ITERATIONS`)."""
    shape = pattern_shape(pattern)
    if shape.alternatives > MAX_ALTERNATIVES:
        raise _unsupported(pattern, f"it has more than {MAX_ALTERNATIVES:,} alternatives")
    if shape.forced_iterations > MAX_FORCED_ITERATIONS:
        raise _unsupported(pattern, f"it repeats more than {MAX_FORCED_ITERATIONS:,} times whatever the value")
