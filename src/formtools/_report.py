"""The conformance report: what Chromium registers next to what the ``html`` profile says, every
difference explained.

For each page (in the fixtures each one is about one construct, named by its ``<title>`` and
explained by its first comment) the report shows Chromium's tools — the recording in
``fixtures/expected/chromium/`` when the page has one, else formtools' ``chromium`` profile, which
the test suite holds to the recordings byte for byte — and the ``html`` profile's tools, and
compares them keyword by keyword: a structural JSON diff in which key order does not count,
``enum`` / ``required`` members and ``anyOf`` entries are compared one by one, and
``inputSchema.required`` members are charged to their parameter.

Each difference is explained by the first rule of :data:`RULES` that covers it. The rules are
data — the keywords, kinds of change and controls a rule covers, plus at most one small predicate
for what the keyword alone cannot tell (a placeholder option from a disabled one) — and their
reasons are written for a spec editor: what HTML does, what Chromium's schema says, what the
``html`` profile says instead. A difference no rule covers is reported as *unexplained*;
``tests/test_report.py`` fails on any in the fixtures, so the table keeps up with the profiles.
Annotations are compared generically, whatever hints a profile adds.

The report is built as a small document model and rendered to Markdown or to one self-contained
HTML file (every text escaped).
"""

from __future__ import annotations

import enum
import html
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from lxml import etree

from ._errors import SourceError, UnknownFormat
from ._forms import Control
from ._jsjson import dumps
from ._microsyntax import parse_float
from ._parse import Document
from ._profiles import Group
from ._sources import is_url, load_page
from ._synth import parameters_of, synthesize
from ._tool import Tool, freeze

__all__ = [
    "ABSENT",
    "REPORT_FORMATS",
    "RULES",
    "Condition",
    "Context",
    "Difference",
    "PageComparison",
    "Report",
    "Rule",
    "compare_page",
    "explain",
    "page_sources",
    "recording_of",
    "render",
    "report_format",
]

REPORT_FORMATS = ("md", "html")
_TEXT_TYPES = frozenset({"text", "search", "tel", "url", "email", "password"})
_TEMPORAL_TYPES = frozenset({"date", "time", "datetime-local", "month", "week"})
_NUMERIC_TYPES = frozenset({"number", "range"})
_DATE_NOTE = (
    "Dates MUST be provided in 'YYYY-MM-DD' format."  # what Chromium adds to a date's description
)


class _Absent(enum.Enum):
    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"


#: A keyword, member or tool one side does not have (JSON ``null`` is a value, not an absence).
ABSENT = _Absent.ABSENT


# ---- differences ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One keyword (or list member) on which Chromium's tool and the ``html`` tool disagree.

    ``keyword`` is the dotted path of keywords from the parameter's schema (``pattern``,
    ``items.enum``, ``anyOf.type``), or from the tool definition (``annotations.readOnlyHint``,
    ``inputSchema.additionalProperties``; ``parameter`` is None, except for an
    ``inputSchema.required`` member, which is charged to the parameter it names). ``where`` is
    the same path with the member spelled out (``enum[""]``, ``anyOf["y"].type``). ``member`` is the
    ``enum`` value, ``anyOf`` entry's ``const`` or ``required`` name the difference is about, and
    ``occurrences`` how often it appears in each side's list (a duplicate keeps one on the other
    side). ``rule`` explains it, or is None: unexplained.
    """

    tool: str
    parameter: str | None
    keyword: str
    where: str
    chromium: Any = ABSENT
    html: Any = ABSENT
    member: Any = ABSENT
    occurrences: tuple[int, int] | None = None
    rule: Rule | None = None

    @property
    def change(self) -> str:
        """``added`` (only the html profile has it), ``removed`` (only Chromium) or ``changed``."""
        if self.chromium is ABSENT:
            return "added"
        if self.html is ABSENT:
            return "removed"
        return "changed"


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _same(a: Any, b: Any) -> bool:
    """JSON equality as JavaScript sees it: ``1`` is ``1.0``, ``true`` is not ``1``."""
    return dumps(a) == dumps(b)


def _changes(chromium: Any, html_: Any, keyword: str, where: str) -> Iterator[Difference]:
    """The structural differences of two JSON values (tool and parameter still to be set)."""
    if isinstance(chromium, Mapping) and isinstance(html_, Mapping):
        for key in dict.fromkeys([*chromium, *html_]):
            yield from _changes(
                chromium.get(key, ABSENT),
                html_.get(key, ABSENT),
                _join(keyword, key),
                _join(where, key),
            )
    elif isinstance(chromium, (list, tuple)) and isinstance(html_, (list, tuple)):
        if _same(chromium, html_):
            return
        if all(_is_entry(e) for e in chromium) and all(_is_entry(e) for e in html_):
            yield from _entry_changes(chromium, html_, keyword, where)
        else:
            yield from _member_changes(chromium, html_, keyword, where)
    elif chromium is ABSENT or html_ is ABSENT or not _same(chromium, html_):
        yield Difference("", None, keyword, where, chromium, html_)


def _is_entry(value: Any) -> bool:
    """An ``anyOf`` entry naming a value: compared with the other side's entry for that value."""
    return isinstance(value, Mapping) and "const" in value


def _unmatched(values: Sequence[Any], theirs: Counter[str]) -> Iterator[tuple[str, Any]]:
    """(canonical text, value) of each occurrence in ``values`` beyond the other side's count."""
    seen: Counter[str] = Counter()
    for value in values:
        text = dumps(value)
        seen[text] += 1
        if seen[text] > theirs[text]:
            yield text, value


def _member_changes(
    chromium: Sequence[Any], html_: Sequence[Any], keyword: str, where: str
) -> Iterator[Difference]:
    """A list of values compared as a multiset: one difference per member only one side has."""
    before, after = Counter(map(dumps, chromium)), Counter(map(dumps, html_))
    if before == after:  # the same members in another order
        yield Difference("", None, keyword, where, chromium, html_)
        return
    for text, value in _unmatched(chromium, after):
        yield Difference(
            "", None, keyword, f"{where}[{text}]", value, ABSENT, value, (before[text], after[text])
        )
    for text, value in _unmatched(html_, before):
        yield Difference(
            "", None, keyword, f"{where}[{text}]", ABSENT, value, value, (before[text], after[text])
        )


def _entry_changes(
    chromium: Sequence[Mapping[str, Any]],
    html_: Sequence[Mapping[str, Any]],
    keyword: str,
    where: str,
) -> Iterator[Difference]:
    """``anyOf`` entries matched by their ``const`` (and occurrence), then compared keyword by
    keyword."""

    def keyed(entries: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], Mapping[str, Any]]:
        seen: Counter[str] = Counter()
        out = {}
        for entry in entries:
            text = dumps(entry["const"])
            seen[text] += 1
            out[(text, seen[text])] = entry
        return out

    before, after = keyed(chromium), keyed(html_)
    counts = Counter(text for text, _ in before), Counter(text for text, _ in after)
    for key in dict.fromkeys([*before, *after]):
        text = key[0]
        old, new = before.get(key, ABSENT), after.get(key, ABSENT)
        member = before[key]["const"] if key in before else after[key]["const"]
        occurrences = (counts[0][text], counts[1][text])
        if old is ABSENT or new is ABSENT:
            yield Difference("", None, keyword, f"{where}[{text}]", old, new, member, occurrences)
            continue
        for inner in _changes(old, new, "", ""):
            yield replace(
                inner,
                keyword=_join(keyword, inner.keyword),
                where=f"{where}[{text}]" + (f".{inner.where}" if inner.where else ""),
                member=member,
                occurrences=occurrences,
            )


# ---- rules ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What a rule may look at besides the difference: the parameter's kind and controls (from
    the ``html`` tool's form) and both sides' schema fragments (the tool definitions for a
    difference of the tool itself)."""

    kind: str | None
    group: Group | None
    chromium: Mapping[str, Any]
    html: Mapping[str, Any]

    @property
    def control(self) -> Control | None:
        return self.group.first if self.group is not None else None

    @property
    def names(self) -> frozenset[str]:
        """The group kind and the first control's type (``text``/``email``, ``select-one``…)."""
        if self.control is None:
            return frozenset()
        return frozenset(name for name in (self.kind, self.control.type) if name)


@dataclass(frozen=True)
class Condition:
    """What a rule needs beyond keyword, change and control: a test, and its words for the
    report."""

    text: str
    test: Callable[[Difference, Context], bool]


_CHANGES = frozenset({"added", "removed", "changed"})
_ITEMS = re.compile(r"^(?:items\.)+")


@dataclass(frozen=True)
class Rule:
    """Why the ``html`` profile differs from Chromium on some keywords.

    It covers a difference when the keyword (``items.`` prefixes removed: an array's items follow
    the rules of a single value) matches one of ``keywords`` (``fnmatch`` patterns), the change is
    one of ``changes``, the parameter's kind or control type is one of ``controls`` (any when
    empty) and ``when`` (if given) holds. ``reason`` marks code with backticks.
    """

    id: str
    title: str
    keywords: tuple[str, ...]
    reason: str
    changes: frozenset[str] = _CHANGES
    controls: frozenset[str] = frozenset()
    when: Condition | None = None

    def covers(self, difference: Difference, context: Context) -> bool:
        keyword = _ITEMS.sub("", difference.keyword)
        return (
            any(fnmatchcase(keyword, pattern) for pattern in self.keywords)
            and difference.change in self.changes
            and (not self.controls or bool(self.controls & context.names))
            and (self.when is None or self.when.test(difference, context))
        )


def _placeholder(difference: Difference, context: Context) -> bool:
    control = context.control
    if control is None or control.tag != "select" or not control.options:
        return False
    first = control.options[0]
    return (
        control.has("required") and first.value == "" == difference.member and not first.in_optgroup
    )


def _disabled_option(difference: Difference, context: Context) -> bool:
    control = context.control
    return control is not None and any(
        option.disabled and option.value == difference.member for option in control.options
    )


def _duplicate(difference: Difference, context: Context) -> bool:
    return difference.occurrences is not None and min(difference.occurrences) > 0


def _one(difference: Difference, context: Context) -> bool:
    return context.html.get("type") == "integer" and _same(difference.chromium, 1)


def _fraction(difference: Difference, context: Context) -> bool:
    value = difference.chromium
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value % 1 != 0


def _step_any(difference: Difference, context: Context) -> bool:
    control = context.control
    return control is not None and control.attributes.get("step", "").strip().lower() == "any"


def _address_list(difference: Difference, context: Context) -> bool:
    return context.html.get("x-multiple") is True


def _empty_title(difference: Difference, context: Context) -> bool:
    return difference.chromium == ""


def _date_note(difference: Difference, context: Context) -> bool:
    return isinstance(difference.chromium, str) and _DATE_NOTE in difference.chromium


def _is_one(difference: Difference, context: Context) -> bool:
    return _same(difference.html, 1)


def _hint(difference: Difference, context: Context) -> bool:
    return difference.keyword != "annotations.autosubmit"


def _huge_base(difference: Difference, context: Context) -> bool:
    base = parse_float(context.html.get("x-step-base"))
    return base is not None and abs(base) >= 2**52


def _to_integer(difference: Difference, context: Context) -> bool:
    return difference.chromium == "number" and difference.html == "integer"


def _rule(
    id: str,
    title: str,
    keywords: str | tuple[str, ...],
    reason: str,
    *,
    changes: str = "added removed changed",
    controls: Iterable[str] = (),
    when: Condition | None = None,
) -> Rule:
    return Rule(
        id,
        title,
        (keywords,) if isinstance(keywords, str) else keywords,
        reason,
        frozenset(changes.split()),
        frozenset(controls),
        when,
    )


#: Why the ``html`` profile differs from Chromium, first match wins.
RULES: tuple[Rule, ...] = (
    # -- the tool ---------------------------------------------------------------------------------
    _rule(
        "closed-object",
        "unknown keys are refused",
        "inputSchema.additionalProperties",
        "`executeTool` rejects an input with a key that is not a parameter (\"Input contains a "
        "parameter … but there is no such parameter for the tool\"), yet Chromium's schema "
        "allows any key. The html profile closes the object with `additionalProperties: false`.",
        changes="added",
    ),
    _rule(
        "required-already-satisfied",
        "required only when leaving it out fails",
        "inputSchema.required",
        "Chromium lists a parameter in `required` when a control has the `required` attribute. A "
        "parameter the agent leaves out keeps the control's current state, and when that state "
        "already satisfies the constraint (a non-empty `value`, a checked radio, a selected "
        "option that is not a placeholder) the form submits. The html profile lists a parameter "
        "iff leaving it out fails constraint validation.",
        changes="removed",
    ),
    _rule(
        "required-by-state",
        "the current state is invalid",
        "inputSchema.required",
        "The control's current state fails constraint validation although no `required` "
        "attribute says so (a `value` outside `min`/`max` or off the step), so leaving the "
        "parameter out makes the submission fail. The html profile lists it in `required`; "
        "Chromium does not.",
        changes="added",
    ),
    _rule(
        "annotation-hints",
        "tool annotations",
        "annotations.*",
        "Chromium describes a declarative tool with one annotation, `autosubmit` (the form has "
        "`toolautosubmit`). The html profile describes it with MCP-style hints "
        "(`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`, …) inferred from "
        "the form — its method, action, submit label and fields — unless the author sets them "
        "with the form's hint attributes; they tell an agent whether a call changes anything and "
        "whether a person must confirm it.",
        when=Condition("the annotation is not autosubmit", _hint),
    ),
    # -- values the form cannot take as given ---------------------------------------------------
    _rule(
        "sensitive-field",
        "sensitive field",
        "x-sensitive",
        "The field holds a secret (a password, an `autocomplete` token such as `cc-number`, "
        "`current-password` or `one-time-code`). `x-sensitive: true` tells an agent, and "
        "formtools' executor, to keep the value out of logs, results and error messages. "
        "Chromium has no such marker.",
        changes="added",
    ),
    _rule(
        "email-list",
        "e-mail address lists",
        ("pattern", "x-address-pattern", "x-multiple"),
        "An `<input type=email multiple>` takes a comma-separated list of addresses, and HTML "
        "checks each address on its own, against the e-mail syntax and against `pattern`. "
        "Chromium applies the pattern to the whole list. JSON Schema has no keyword for a list in "
        "a string: the html profile says `x-multiple: true` and `x-address-pattern`, which "
        "formtools' validator enforces.",
        controls=("email",),
        when=Condition("the html profile says x-multiple", _address_list),
    ),
    _rule(
        "pattern-anchored",
        "anchored pattern",
        "pattern",
        "HTML's `pattern` must match the whole value (it is compiled as `^(?:p)$` with the `v` "
        "flag) and an empty value never mismatches. JSON Schema's `pattern` is unanchored, so "
        "Chromium's copy accepts any value that merely contains a match (`[A-Z]{3}` accepts "
        "`xABCx`). The html profile writes `^(?:p)$` for a required field and `^(?:p)?$` "
        "otherwise.",
        changes="changed",
        controls=_TEXT_TYPES,
    ),
    _rule(
        "pattern-not-applicable",
        "pattern where HTML ignores it",
        "pattern",
        "HTML applies `pattern` only to text, search, tel, url, email and password inputs. "
        "Chromium copies it onto other types (number, hidden), where the browser never checks "
        "it, so Chromium's schema rejects values the form accepts.",
        changes="removed",
        controls=("number", "hidden"),
    ),
    _rule(
        "email-format",
        "e-mail syntax",
        "format",
        "An email input refuses a value that is not a valid e-mail address (typeMismatch); "
        "Chromium's schema says nothing. The html profile adds `format: email`, and, since most "
        "validators treat `format` as an annotation, `x-html-type` applies HTML's exact rule "
        "(ASCII addresses, as Chromium checks them).",
        changes="added",
        controls=("email",),
    ),
    _rule(
        "url-format",
        "URL syntax",
        "format",
        "A url input refuses a value that is not an absolute URL (typeMismatch); Chromium's "
        "schema says nothing. The html profile adds `format: uri`, and `x-html-type` applies the "
        "URL parser's rule (any scheme), which validators that only annotate `format` skip.",
        changes="added",
        controls=("url",),
    ),
    _rule(
        "regex-in-format",
        "regex in format",
        "format",
        "Chromium puts a regular expression in `format`. JSON Schema's `format` takes a name "
        "from its registry (`date`, `email`, `uri`…); validators ignore a name they do not know, "
        "so the constraint is lost, and a model reading it as a format name is misled. The html "
        "profile states the shape as `pattern`.",
        changes="removed",
        controls=("time", "datetime-local", "month", "week", "color"),
    ),
    _rule(
        "date-format",
        "date as a pattern",
        "format",
        "`format: date` is RFC 3339's full-date, which stops at year 9999 where HTML's date "
        "input goes on, and JSON Schema 2020-12 validators need not check `format` at all. The "
        "html profile states the shape as `pattern` and the calendar (no 30 February) through "
        "`x-html-type`.",
        changes="removed",
        controls=("date",),
    ),
    _rule(
        "date-description",
        "date note in the description",
        "description",
        "Chromium appends \"Dates MUST be provided in 'YYYY-MM-DD' format.\" to a date's "
        "description. The html profile says it with `pattern` and keeps the author's text as "
        "written.",
        changes="changed removed",
        controls=("date",),
        when=Condition("Chromium's text has its date note", _date_note),
    ),
    _rule(
        "temporal-shape",
        "exact date and time shapes",
        "pattern",
        "The shape a date, time, month or week value must have to survive the type's value "
        "sanitization, or empty (the browser empties a value in any other shape, so the form "
        "would not submit the value given): years of four or more digits, and seconds and "
        "milliseconds whatever the step (the step is `x-step`'s business). Chromium's `format` "
        "regex allows only four-digit years, any two-digit day in datetime-local, and drops "
        "seconds when the step is a whole minute.",
        changes="added",
        controls=_TEMPORAL_TYPES,
    ),
    _rule(
        "color-shape",
        "lowercase #rrggbb",
        "pattern",
        "A color input keeps only a lowercase `#rrggbb` value as given: the browser lowercases "
        "hex digits and replaces anything else with `#000000`. Chromium's `^#[0-9a-zA-Z]{6}$` "
        "accepts `#ZZZZZZ`, which the form submits as `#000000`.",
        changes="added",
        controls=("color",),
    ),
    _rule(
        "value-sanitization",
        "value sanitization",
        "x-html-type",
        "The value must survive the type's value sanitization unchanged: single-line text loses "
        "CR and LF, e-mail and URL values are trimmed, a textarea's line breaks are LF. JSON "
        "Schema has no keyword for it; `x-html-type` names the type and formtools' validator "
        "applies the rule. Chromium's schema says nothing.",
        changes="added",
        controls=_TEXT_TYPES | {"textarea"},
    ),
    _rule(
        "html-type",
        "type rules beyond JSON Schema",
        "x-html-type",
        "`x-html-type` names the input type whose sanitization, typeMismatch, range and step "
        "rules formtools' validator applies — rules JSON Schema cannot say (calendar dates, "
        "decimal steps, values the browser rewrites). Chromium's schema has no equivalent.",
        changes="added",
    ),
    # -- required ---------------------------------------------------------------------------------
    _rule(
        "required-not-empty",
        "required means not empty",
        "minLength",
        '`required` on a text, date or time field means "not empty" (valueMissing). Listing '
        'the key in `required` does not say that — `""` satisfies it — so the html profile '
        "adds `minLength: 1`.",
        changes="added",
        when=Condition("the html profile says 1", _is_one),
    ),
    _rule(
        "required-checkbox",
        "required checkbox",
        "const",
        "A required checkbox must be checked (valueMissing). Chromium's `type: boolean` accepts "
        "`false`; the html profile adds `const: true`.",
        changes="added",
        controls=("checkbox",),
    ),
    _rule(
        "required-group-member",
        "required member of a checkbox group",
        "allOf",
        "A checkbox with `required` in a group must itself be checked. Chromium only lists the "
        "group in `required`, which an empty array satisfies; the html profile adds "
        "`allOf: [{contains: {const: v}}]` for each required member.",
        changes="added",
        controls=("checkbox-group",),
    ),
    _rule(
        "required-selection",
        "required multiple select",
        "minItems",
        "A required multiple select needs a selected option (valueMissing); Chromium's "
        "`required` is satisfied by `[]`. The html profile adds `minItems: 1`.",
        changes="added",
    ),
    # -- choices ----------------------------------------------------------------------------------
    _rule(
        "placeholder-option",
        "placeholder option",
        ("enum", "anyOf"),
        "The first option of a required single-line `<select>`, when its value is empty, is the "
        "placeholder label option: selecting it fails validation (valueMissing). Chromium offers "
        "it as a valid value; the html profile leaves it out.",
        changes="removed",
        when=Condition("the value is a required select's empty first option", _placeholder),
    ),
    _rule(
        "disabled-option",
        "disabled option",
        ("enum", "anyOf"),
        "A script can select a disabled option (or one in a disabled `<optgroup>`), but the form "
        "never submits it: the value the agent chose is lost. Chromium lists it; the html profile "
        "leaves it out.",
        changes="removed",
        when=Condition("the value is a disabled option's", _disabled_option),
    ),
    _rule(
        "duplicate-value",
        "one entry per value",
        ("enum", "anyOf"),
        "Options or radios with the same value are one choice (`select.value = v` selects the "
        "first such option). Chromium lists every control, so a value can appear twice with "
        "different titles; the html profile lists it once, with the first title.",
        changes="removed",
        when=Condition("the other side still has the value", _duplicate),
    ),
    _rule(
        "entry-type",
        "type in each option",
        "anyOf.type",
        "Chromium repeats `type: string` in every `anyOf` entry; the enclosing `type` says it "
        "already, so the html profile leaves it out. The meaning is the same.",
        changes="removed",
    ),
    _rule(
        "empty-title",
        "option without text",
        "anyOf.title",
        'An option with no text has no title; Chromium writes `title: ""`, the html profile '
        "leaves the title out.",
        changes="removed",
        when=Condition("Chromium's title is empty", _empty_title),
    ),
    # -- numbers, dates and steps ----------------------------------------------------------------
    _rule(
        "integer-step",
        "integer when the step is",
        "type",
        "With an integral step and an integral step base (`min`, else `value`), only integers "
        "pass stepMismatch, and `type: integer` is what every validator and model understands. "
        "Chromium always says `number`.",
        changes="changed",
        controls=_NUMERIC_TYPES,
        when=Condition("number becomes integer", _to_integer),
    ),
    _rule(
        "multipleof-integer",
        "multipleOf 1 is integer",
        "multipleOf",
        "`multipleOf: 1` says what `type: integer` says; the html profile uses the type.",
        changes="removed",
        when=Condition("Chromium says 1 and the html profile integer", _one),
    ),
    _rule(
        "multipleof-fraction",
        "fractional multipleOf",
        "multipleOf",
        "A fractional `multipleOf` fails in binary floating point (most validators reject 0.3 "
        "as a multiple of 0.1). The html profile keeps the step as written (`x-step`), and "
        "formtools' validator checks it in decimal, as the browser does.",
        changes="removed",
        when=Condition("Chromium's value is not an integer", _fraction),
    ),
    _rule(
        "step-any",
        "step=any",
        "multipleOf",
        "With `step=any` HTML has no step constraint: any value in range passes. Chromium's "
        "schema still says `multipleOf` for a range with `step=any`.",
        changes="removed",
        when=Condition("the control has step=any", _step_any),
    ),
    _rule(
        "huge-step-base",
        "steps beyond 2^52",
        "multipleOf",
        "Beyond 2^52 the browser stops checking steps (its step arithmetic loses the units), so "
        "the html profile makes no step claim there; Chromium still says `multipleOf`.",
        changes="removed",
        when=Condition("the step base is 2^52 or more", _huge_base),
    ),
    _rule(
        "step",
        "step and step base",
        ("x-step", "x-step-base"),
        "stepMismatch: a value must be the step base (`min`, else the `value` attribute) plus a "
        "multiple of the step. Chromium says at most `multipleOf`, and only when the base is a "
        "multiple of the step; for dates and times nothing. The html profile keeps the step and "
        "step base as written (`x-step`, `x-step-base`) for formtools' validator.",
        changes="added",
    ),
    _rule(
        "temporal-bounds",
        "date and time bounds",
        ("x-min", "x-max"),
        "`min` and `max` of a date or time input (rangeUnderflow, rangeOverflow; a reversed time "
        "range wraps past midnight). Chromium drops them. JSON Schema cannot compare dates, so "
        "the html profile says `x-min` / `x-max`, which formtools' validator enforces.",
        changes="added",
        controls=_TEMPORAL_TYPES,
    ),
    _rule(
        "bounds-as-written",
        "bounds as written",
        ("x-min", "x-max"),
        "The `min` / `max` attributes as written, for formtools' validator's decimal "
        "arithmetic; `minimum` / `maximum` carry the same bounds for every other validator.",
        changes="added",
        controls=_NUMERIC_TYPES,
    ),
    # -- what a value may be ----------------------------------------------------------------------
    _rule(
        "default",
        "current state",
        "default",
        "A parameter the agent leaves out keeps the control's current state (its value, "
        "checkedness or selection), and the form submits that. Chromium does not say what it is; "
        "the html profile states it as `default`.",
        changes="added",
    ),
    _rule(
        "datalist-examples",
        "datalist suggestions",
        "examples",
        "A `list` datalist suggests values without restricting them: the html profile lists them "
        "as `examples`. Chromium ignores the datalist.",
        changes="added",
    ),
    _rule(
        "parameter-title",
        "parameter title",
        "title",
        "`toolparamtitle`, else `aria-label`, names the parameter: the html profile's `title`. "
        "Chromium uses neither.",
        changes="added",
    ),
    _rule(
        "description-fallback",
        "more description sources",
        "description",
        "With no `toolparamdescription`, label or `aria-description`, the html profile describes "
        "the parameter by its `title` attribute or `placeholder`; Chromium leaves it "
        "undescribed.",
        changes="added",
    ),
)


def explain(difference: Difference, context: Context) -> Rule | None:
    """The first rule that covers ``difference``, or None."""
    return next((rule for rule in RULES if rule.covers(difference, context)), None)


# ---- one page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageComparison:
    """One page's tools under Chromium and under the ``html`` profile, and their differences.

    ``recording`` names the Chromium recording the ``chromium`` side comes from, or is None when
    formtools' ``chromium`` profile computed it (the page has no recording). Tool lists are
    frozen JSON values (``to_dict()`` shape).
    """

    label: str
    construct: str
    explanation: str | None
    recording: str | None
    chromium: tuple[Mapping[str, Any], ...]
    html: tuple[Mapping[str, Any], ...]
    differences: tuple[Difference, ...]
    parameters: tuple[tuple[str, str], ...]  # (tool, parameter) on either side

    @property
    def unexplained(self) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if d.rule is None)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """Every tool either side registers: Chromium's order, then the html profile's others."""
        return tuple(dict.fromkeys(tool["name"] for tool in (*self.chromium, *self.html)))

    @property
    def differing(self) -> frozenset[tuple[str, str]]:
        """The (tool, parameter) pairs with at least one difference."""
        return frozenset((d.tool, d.parameter) for d in self.differences if d.parameter is not None)


def recording_of(page: Path) -> Path | None:
    """The Chromium recording of a page kept in the fixtures layout
    (``ROOT/html/<page>.html`` → ``ROOT/expected/chromium/<page>.json``), if there is one."""
    if page.parent.name != "html":
        return None
    candidate = page.parent.parent / "expected" / "chromium" / f"{page.stem}.json"
    return candidate if candidate.is_file() else None


def page_sources(sources: Sequence[str]) -> list[str]:
    """The pages a ``report`` command line names: files and URLs as given, directories
    replaced by their ``*.html`` files (sorted)."""
    pages: list[str] = []
    for source in sources:
        path = Path(source)
        if not is_url(source) and path.is_dir():
            found = sorted(path.glob("*.html"))
            if not found:
                raise SourceError(f"{source}: no .html pages in this directory")
            pages += [str(page) for page in found]
        else:
            pages.append(source)
    return pages


def compare_page(
    source: str, *, label: str | None = None, base_url: str | None = None
) -> PageComparison:
    """Compare Chromium's tools for the page at ``source`` (a path or an http(s) URL) with the
    ``html`` profile's. ``label`` is how the report names the page (default: ``source``);
    ``base_url`` the document URL of a file."""
    label = label or source
    document = load_page(source, base_url=base_url)
    recorded = None if is_url(source) else recording_of(Path(source))
    if recorded is None:
        chromium = freeze([tool.to_dict() for tool in synthesize(document, "chromium").tools])
        recording = None
    else:
        chromium = freeze(_read_recording(recorded))
        recording = (Path(label).parent.parent / "expected" / "chromium" / recorded.name).as_posix()
    html_tools = synthesize(document, "html").tools
    differences, parameters = _page_differences(chromium, html_tools)
    construct, explanation = _construct(document)
    return PageComparison(
        label=label,
        construct=construct or Path(label).stem,
        explanation=explanation,
        recording=recording,
        chromium=chromium,
        html=tuple(_definition(tool) for tool in html_tools),
        differences=tuple(differences),
        parameters=tuple(parameters),
    )


def _definition(tool: Tool) -> Mapping[str, Any]:
    """The tool as ``formtools extract`` prints it, frozen."""
    return freeze(tool.to_dict())


def _read_recording(path: Path) -> list[Any]:
    try:
        tools = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise SourceError(f"{path}: not a readable recording: {error}") from None
    if not isinstance(tools, list):
        raise SourceError(f"{path}: not a recording (expected a JSON array of tools)")
    return tools


def _collapse(text: str | None) -> str | None:
    return (" ".join(text.split()) or None) if text else None


def _construct(document: Document) -> tuple[str | None, str | None]:
    """What the page is about: its ``<title>`` (else its first heading), and its first comment."""
    root = document.root
    title = _collapse(root.findtext(".//title"))
    if title is None:
        heading = next(root.iter("h1", "h2", "h3", "h4", "h5", "h6"), None)
        if heading is not None:
            title = _collapse(etree.tostring(heading, method="text", encoding=str, with_tail=False))
    comments = [
        *reversed(list(root.itersiblings(etree.Comment, preceding=True))),
        *root.iter(etree.Comment),
    ]
    explanation = next((text for c in comments if (text := _collapse(c.text))), None)
    restore = document.restore
    return (title and restore(title)), (explanation and restore(explanation))


def _page_differences(
    chromium: Sequence[Mapping[str, Any]], html_tools: Sequence[Tool]
) -> tuple[list[Difference], list[tuple[str, str]]]:
    """Every difference of the page's tools, explained, and every (tool, parameter) pair."""
    chromium_by_name = {tool["name"]: tool for tool in chromium}
    html_by_name = {tool.name: tool for tool in html_tools}
    differences: list[Difference] = []
    parameters: list[tuple[str, str]] = []
    for name in dict.fromkeys([*chromium_by_name, *html_by_name]):
        theirs = chromium_by_name.get(name, ABSENT)
        ours = html_by_name.get(name)
        found, keys = _tool_differences(name, theirs, ours)
        differences += found
        parameters += [(name, key) for key in keys]
    return differences, parameters


def _properties(tool: Any) -> Mapping[str, Any]:
    return tool["inputSchema"].get("properties", {}) if isinstance(tool, Mapping) else {}


def _tool_differences(
    name: str, chromium: Mapping[str, Any] | _Absent, tool: Tool | None
) -> tuple[list[Difference], list[str]]:
    ours: Mapping[str, Any] | _Absent = _definition(tool) if tool is not None else ABSENT
    groups = {p.key: p for p in parameters_of(tool.form, tool.profile).parameters} if tool else {}
    theirs_properties, our_properties = _properties(chromium), _properties(ours)
    keys = list(dict.fromkeys([*theirs_properties, *our_properties]))

    def context(parameter: str | None) -> Context:
        if parameter is None:
            return Context(None, None, _mapping(chromium), _mapping(ours))
        found = groups.get(parameter)
        return Context(
            found.kind if found else None,
            found.group if found else None,
            theirs_properties.get(parameter, {}),
            our_properties.get(parameter, {}),
        )

    def explained(raw: Difference, parameter: str | None) -> Difference:
        placed = replace(raw, tool=name, parameter=parameter)
        return replace(placed, rule=explain(placed, context(parameter)))

    if chromium is ABSENT or ours is ABSENT:
        return [explained(Difference(name, None, "tool", "tool", chromium, ours), None)], keys
    found: list[Difference] = []
    for key in dict.fromkeys([*chromium, *ours]):
        if key in ("name", "inputSchema"):
            continue
        found += [
            explained(d, None)
            for d in _changes(chromium.get(key, ABSENT), ours.get(key, ABSENT), key, key)
        ]
    theirs_schema = _without(chromium["inputSchema"], "properties")
    our_schema = _without(ours["inputSchema"], "properties")
    for raw in _changes(theirs_schema, our_schema, "inputSchema", "inputSchema"):
        member = raw.member if raw.keyword == "inputSchema.required" else ABSENT
        found.append(explained(raw, member if isinstance(member, str) else None))
    for key in keys:
        theirs_fragment = theirs_properties.get(key, ABSENT)
        our_fragment = our_properties.get(key, ABSENT)
        if theirs_fragment is ABSENT or our_fragment is ABSENT:
            where = f"inputSchema.properties[{dumps(key)}]"
            raw = Difference(
                name, key, "inputSchema.properties", where, theirs_fragment, our_fragment, key
            )
            found.append(explained(raw, key))
            continue
        found += [explained(d, key) for d in _changes(theirs_fragment, our_fragment, "", "")]
    return found, keys


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _without(schema: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != key}


# ---- the whole report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """The comparison of several pages, and the counts a summary needs."""

    pages: tuple[PageComparison, ...]

    @property
    def differences(self) -> tuple[Difference, ...]:
        return tuple(d for page in self.pages for d in page.differences)

    @property
    def unexplained(self) -> tuple[tuple[PageComparison, Difference], ...]:
        return tuple((page, d) for page in self.pages for d in page.unexplained)


@dataclass(frozen=True)
class _Tally:
    """How many differences one reason explains, and on how many parameters, tools and pages."""

    differences: int = 0
    parameters: int = 0
    tools: int = 0
    pages: int = 0

    @staticmethod
    def of(pairs: Sequence[tuple[PageComparison, Difference]]) -> _Tally:
        return _Tally(
            len(pairs),
            len(
                {(page.label, d.tool, d.parameter) for page, d in pairs if d.parameter is not None}
            ),
            len({(page.label, d.tool) for page, d in pairs}),
            len({page.label for page, _ in pairs}),
        )


def _tallies(report: Report) -> dict[str | None, _Tally]:
    """Counts per rule id (None: unexplained)."""
    pairs: dict[str | None, list[tuple[PageComparison, Difference]]] = {}
    for page in report.pages:
        for difference in page.differences:
            pairs.setdefault(difference.rule.id if difference.rule else None, []).append(
                (page, difference)
            )
    return {key: _Tally.of(found) for key, found in pairs.items()}


# ---- a small document model, rendered to Markdown or HTML ----------------------------------------


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Link:
    text: str
    target: str  # an anchor id in the same document


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Break:
    """A line break inside a table cell."""


Inline = str | Code | Link | Strong | Break
Line = tuple[Inline, ...]


@dataclass(frozen=True)
class Heading:
    level: int
    text: Line
    anchor: str | None = None


@dataclass(frozen=True)
class Paragraph:
    text: Line


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Line, ...], ...]


Block = Heading | Paragraph | Table


def _marked(text: str) -> Line:
    """A rule's reason, with `backticks` as code."""
    return tuple(
        Code(part) if index % 2 else part for index, part in enumerate(text.split("`")) if part
    )


def _json(value: Any) -> Inline:
    return "—" if value is ABSENT else Code(dumps(value))


def _anchor(prefix: str, name: str) -> str:
    return prefix + "-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "x")


def _page_anchors(pages: Sequence[PageComparison]) -> dict[str, str]:
    """A unique anchor id for each page of one report (by label)."""
    used: set[str] = set()
    out: dict[str, str] = {}
    for page in pages:
        base = _anchor("page", Path(page.label).stem)
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        out[page.label] = anchor
    return out


def _rule_link(rule: Rule | None) -> Inline:
    return Link(rule.title, _anchor("r", rule.id)) if rule else Strong("unexplained")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


_INTRODUCTION = (
    "For each page: the tools Chromium registers (recorded from the browser, or, for a page "
    "without a recording, computed by formtools' `chromium` profile, which reproduces the "
    "recordings byte for byte), the tools of the `html` profile — a schema that accepts a value "
    "iff the browser's constraint validation does — and every difference, keyword by keyword, "
    "with its reason. Key order is not compared; `enum` and `required` members and `anyOf` "
    "entries are compared one by one."
)


def _blocks(report: Report) -> list[Block]:
    anchors = _page_anchors(report.pages)
    tallies = _tallies(report)
    blocks: list[Block] = [
        Heading(1, ("Conformance report: Chromium and the ", Code("html"), " profile")),
        Paragraph(_marked(_INTRODUCTION)),
    ]
    blocks += _summary(report, tallies, anchors)
    blocks += _reasons(report, tallies, anchors)
    blocks += _unexplained(report, anchors)
    for page in report.pages:
        blocks += _page(page, anchors[page.label])
    return blocks


def _summary(
    report: Report, tallies: Mapping[str | None, _Tally], anchors: Mapping[str, str]
) -> list[Block]:
    pages = report.pages
    recorded = sum(page.recording is not None for page in pages)
    tools = sum(len(page.tool_names) for page in pages)
    parameters = sum(len(page.parameters) for page in pages)
    differing = sum(len(page.differing) for page in pages)
    changed_tools = sum(
        len({d.tool for d in page.differences if d.parameter is None}) for page in pages
    )
    total = len(report.differences)
    unexplained = len(report.unexplained)
    rows: list[tuple[str, str]] = [
        ("pages", f"{len(pages):,}"),
        ("pages with a Chromium recording", f"{recorded:,}"),
        ("pages computed with the chromium profile (no recording)", f"{len(pages) - recorded:,}"),
        ("tools", f"{tools:,}"),
        ("parameters (properties)", f"{parameters:,}"),
        ("parameters that differ", f"{differing:,}"),
        ("parameters identical in both", f"{parameters - differing:,}"),
        ("tools whose definition differs outside its parameters", f"{changed_tools:,}"),
        ("differences (keywords and members)", f"{total:,}"),
        ("explained", f"{total - unexplained:,}"),
        ("unexplained", f"{unexplained:,}"),
    ]
    blocks: list[Block] = [
        Heading(2, ("Summary",), "summary"),
        Table(("", "count"), tuple(((label,), (value,)) for label, value in rows)),
        Heading(3, ("Differences by reason",)),
    ]
    ordered: list[tuple[Rule | None, _Tally]] = sorted(
        ((rule, tallies[rule.id]) for rule in RULES if rule.id in tallies),
        key=lambda pair: -pair[1].differences,
    )
    if None in tallies:
        ordered.append((None, tallies[None]))
    blocks.append(
        Table(
            ("reason", "differences", "parameters", "tools", "pages"),
            tuple(
                (
                    (_rule_link(rule),),
                    (f"{tally.differences:,}",),
                    (f"{tally.parameters:,}",),
                    (f"{tally.tools:,}",),
                    (f"{tally.pages:,}",),
                )
                for rule, tally in ordered
            ),
        )
    )
    blocks += _annotations(report)
    blocks.append(Heading(3, ("Pages",)))
    blocks.append(
        Table(
            ("page", "construct", "tools", "parameters", "differ", "Chromium"),
            tuple(
                (
                    (Link(Path(page.label).stem, anchors[page.label]),),
                    (page.construct,),
                    (str(len(page.tool_names)),),
                    (str(len(page.parameters)),),
                    (str(len(page.differing)),),
                    ("recorded" if page.recording else "computed",),
                )
                for page in report.pages
            ),
        )
    )
    return blocks


def _annotations(report: Report) -> list[Block]:
    """Every annotation either side uses: its values on each side and how many tools differ."""
    # annotation → (Chromium's values, the html profile's values), as JSON text; None: absent
    values: dict[str, tuple[Counter[str | None], Counter[str | None]]] = {}
    differ: Counter[str] = Counter()
    for page in report.pages:
        chromium = {t["name"]: t.get("annotations", {}) for t in page.chromium}
        ours = {t["name"]: t.get("annotations", {}) for t in page.html}
        for name in page.tool_names:
            theirs_notes, our_notes = chromium.get(name, {}), ours.get(name, {})
            for key in dict.fromkeys([*theirs_notes, *our_notes]):
                before, after = _shown(theirs_notes, key), _shown(our_notes, key)
                counts = values.setdefault(key, (Counter(), Counter()))
                counts[0][before] += 1
                counts[1][after] += 1
                differ[key] += before != after

    def spread(counter: Counter[str | None]) -> Line:
        line: list[Inline] = []
        for index, (text, count) in enumerate(
            sorted(counter.items(), key=lambda kv: (-kv[1], kv[0] or ""))
        ):
            line += [", "] if index else []
            line += ["absent" if text is None else Code(text), f" ×{count:,}"]
        return tuple(line)

    return [
        Heading(3, ("Annotations",)),
        Paragraph(
            (
                "Each annotation either side reports, with its values over all tools (see ",
                _rule_link(next(rule for rule in RULES if rule.id == "annotation-hints")),
                ").",
            ),
        ),
        Table(
            ("annotation", "Chromium", "html", "tools that differ"),
            tuple(
                ((Code(key),), spread(before), spread(after), (f"{differ[key]:,}",))
                for key, (before, after) in values.items()
            ),
        ),
    ]


def _shown(annotations: Mapping[str, Any], key: str) -> str | None:
    return dumps(annotations[key]) if key in annotations else None


_EXAMPLES = 3  # per reason, from as many different pages


def _reasons(
    report: Report, tallies: Mapping[str | None, _Tally], anchors: Mapping[str, str]
) -> list[Block]:
    blocks: list[Block] = [
        Heading(2, ("Reasons",), "reasons"),
        Paragraph(
            _marked(
                "The table of rules the differences are explained by (`RULES` in "
                "`src/formtools/_report.py`); the first rule that covers a difference explains it. "
                "Each comes with examples from different pages."
            )
        ),
    ]
    for rule in RULES:
        tally = tallies.get(rule.id, _Tally())
        covers: list[Inline] = []
        for index, keyword in enumerate(rule.keywords):
            covers += [", "] if index else []
            covers.append(Code(keyword))
        covers.append(" " + " or ".join(sorted(rule.changes)))
        if rule.controls:
            covers.append(" on " + ", ".join(sorted(rule.controls)))
        if rule.when is not None:
            covers.append(" when " + rule.when.text)
        seen = f"{_count(tally.differences, 'difference')} in {_count(tally.pages, 'page')}"
        blocks += [
            Heading(3, (rule.title,), _anchor("r", rule.id)),
            Paragraph((Code(rule.id), " — covers ", *covers, ". Seen: ", seen, ".")),
            Paragraph(_marked(rule.reason)),
        ]
        examples: dict[str, Difference] = {}
        for page in report.pages:
            found = next((d for d in page.differences if d.rule is rule), None)
            if found is not None and len(examples) < _EXAMPLES:
                examples[page.label] = found
        if examples:
            pages = {page.label: page for page in report.pages}
            blocks.append(
                _difference_table([(pages[label], d) for label, d in examples.items()], anchors)
            )
    return blocks


def _difference_table(
    pairs: Sequence[tuple[PageComparison, Difference]], anchors: Mapping[str, str]
) -> Table:
    return Table(
        ("page", "tool", "parameter", "where", "Chromium", "html"),
        tuple(
            (
                (Link(Path(page.label).stem, anchors[page.label]),),
                (Code(d.tool),),
                (_parameter_name(d.parameter),),
                (Code(d.where),),
                (_json(d.chromium),),
                (_json(d.html),),
            )
            for page, d in pairs
        ),
    )


def _unexplained(report: Report, anchors: Mapping[str, str]) -> list[Block]:
    if not report.unexplained:
        return []
    return [
        Heading(2, ("Unexplained differences",), "unexplained"),
        Paragraph(("No rule covers these: the rule table needs a new entry, or a profile a fix.",)),
        _difference_table(report.unexplained, anchors),
    ]


def _parameter_name(parameter: str | None) -> Inline:
    return "(tool)" if parameter is None else Code(dumps(parameter))


def _page(page: PageComparison, anchor: str) -> list[Block]:
    source: Line = (
        ("Chromium: recorded, ", Code(page.recording))
        if page.recording
        else (
            "Chromium: ",
            Strong("no recording"),
            " — computed with formtools' ",
            Code("chromium"),
            " profile",
        )
    )
    blocks: list[Block] = [
        Heading(2, (page.construct,), anchor),
        Paragraph((Code(page.label), " · ", *source)),
    ]
    if page.explanation:
        blocks.append(Paragraph((page.explanation,)))
    chromium = {t["name"]: t for t in page.chromium}
    ours = {t["name"]: t for t in page.html}
    if not page.tool_names:
        blocks.append(Paragraph(("No tool registers, under either.",)))
    for name in page.tool_names:
        blocks += _tool(page, name, chromium.get(name, ABSENT), ours.get(name, ABSENT))
    return blocks


def _places(wheres: Sequence[str]) -> str:
    """Places in one line, siblings under their parent once: ``annotations.{a, b}``."""
    parent = wheres[0].rpartition(".")[0]
    leaves = [where[len(parent) + 1 :] for where in wheres]
    if len(wheres) > 1 and parent and all(
        where.startswith(parent + ".") and "." not in leaf and "[" not in leaf
        for where, leaf in zip(wheres, leaves)
    ):
        return f"{parent}.{{{', '.join(leaves)}}}"
    return ", ".join(wheres)


def _tool(page: PageComparison, name: str, chromium: Any, ours: Any) -> list[Block]:
    """One row for the tool's own definition and one per parameter: both sides' JSON, and each
    difference's place and reason (the values are in the JSON next to it)."""

    shared = {
        key: chromium[key]
        for key in ("title", "description")
        if chromium is not ABSENT and ours is not ABSENT and _same(chromium[key], ours[key])
    }

    def definition(tool: Any) -> Inline:
        """The tool's own keys (``title`` and ``description`` said once above when the same)."""
        if tool is ABSENT:
            return "—"
        shown = {k: v for k, v in tool.items() if k != "name" and k not in shared}
        if "inputSchema" in shown:
            shown["inputSchema"] = _without(shown["inputSchema"], "properties")
        return _json(shown)

    def explained(parameter: str | None) -> Line:
        """The differences grouped by (reason, change), in order of first appearance."""
        groups: dict[tuple[str | None, str], list[Difference]] = {}
        for d in page.differences:
            if d.tool == name and d.parameter == parameter:
                groups.setdefault((d.rule.id if d.rule else None, d.change), []).append(d)
        line: list[Inline] = []
        for (_, change), members in groups.items():
            line += [Break()] if line else []
            line += [Code(_places([d.where for d in members])), f" {change}: "]
            line.append(_rule_link(members[0].rule))
        return tuple(line) or ("same",)

    keys = [parameter for tool, parameter in page.parameters if tool == name]
    rows: list[tuple[Line, ...]] = [
        (("(tool)",), (definition(chromium),), (definition(ours),), explained(None))
    ]
    rows += [
        (
            (_parameter_name(key),),
            (_json(_properties(chromium).get(key, ABSENT)),),
            (_json(_properties(ours).get(key, ABSENT)),),
            explained(key),
        )
        for key in keys
    ]
    said: list[Inline] = []
    for key, value in shared.items():
        said += [" · " if said else "Both: ", f"{key} ", _json(value)]
    return [
        Heading(3, ("Tool ", Code(name))),
        *([Paragraph(tuple(said))] if said else []),
        Table(("parameter", "Chromium", "html", "differences and reasons"), tuple(rows)),
    ]


# ---- Markdown ------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&|#~!])")


def _md_text(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split("\n")))


def _md_code(text: str, in_table: bool) -> str:
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else text
    if in_table:
        padded = padded.replace("|", "\\|")
    return f"{fence}{padded}{fence}"


def _md_line(line: Line, in_table: bool = False) -> str:
    out = []
    for part in line:
        if isinstance(part, Code):
            out.append(_md_code(part.text, in_table))
        elif isinstance(part, Link):
            out.append(f"[{_md_text(part.text)}](#{part.target})")
        elif isinstance(part, Strong):
            out.append(f"**{_md_text(part.text)}**")
        elif isinstance(part, Break):
            out.append("<br>")
        else:
            out.append(_md_text(part))
    return "".join(out)


def _markdown(blocks: Sequence[Block]) -> str:
    out: list[str] = ["<!-- Generated by formtools report (src/formtools/_report.py). -->"]
    for block in blocks:
        if isinstance(block, Heading):
            anchor = f'<a id="{block.anchor}"></a>' if block.anchor else ""
            out.append(f"{'#' * block.level} {anchor}{_md_line(block.text)}")
        elif isinstance(block, Paragraph):
            out.append(_md_line(block.text))
        else:
            lines = ["| " + " | ".join(_md_text(cell) for cell in block.header) + " |"]
            lines.append("|" + "---|" * len(block.header))
            lines += [
                "| " + " | ".join(_md_line(cell, in_table=True) for cell in row) + " |"
                for row in block.rows
            ]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


# ---- HTML ----------------------------------------------------------------------------------------

_STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 78rem;
       padding: 0 1rem; color: #1b1b1b; }
h1, h2, h3 { line-height: 1.25; }
h2 { border-top: 1px solid #ccc; padding-top: 1rem; margin-top: 2.5rem; }
table { border-collapse: collapse; margin: 0.75rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
code { font: 13px/1.4 ui-monospace, monospace; background: #f6f6f6; padding: 0 0.2em; }
td code { white-space: pre-wrap; word-break: break-all; }
td:first-child code { white-space: nowrap; word-break: normal; }
strong { color: #a00; }
""".strip()


def _html_line(line: Line) -> str:
    out = []
    for part in line:
        if isinstance(part, Code):
            out.append(f"<code>{html.escape(part.text)}</code>")
        elif isinstance(part, Link):
            out.append(f'<a href="#{html.escape(part.target)}">{html.escape(part.text)}</a>')
        elif isinstance(part, Strong):
            out.append(f"<strong>{html.escape(part.text)}</strong>")
        elif isinstance(part, Break):
            out.append("<br>")
        else:
            out.append(html.escape(part))
    return "".join(out)


def _plain(part: Inline) -> str:
    return part if isinstance(part, str) else "" if isinstance(part, Break) else part.text


def _html(blocks: Sequence[Block]) -> str:
    title = next((b for b in blocks if isinstance(b, Heading)), None)
    title_text = "".join(_plain(part) for part in title.text) if title else "report"
    out = [
        "<!doctype html>",
        "<!-- Generated by formtools report (src/formtools/_report.py). -->",
        '<html lang="en">',
        '<head>\n<meta charset="utf-8">',
        f"<title>{html.escape(title_text)}</title>",
        f"<style>\n{_STYLE}\n</style>\n</head>\n<body>",
    ]
    for block in blocks:
        if isinstance(block, Heading):
            anchor = f' id="{html.escape(block.anchor)}"' if block.anchor else ""
            out.append(f"<h{block.level}{anchor}>{_html_line(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{_html_line(block.text)}</p>")
        else:
            header = "".join(f"<th>{html.escape(cell)}</th>" for cell in block.header)
            rows = "".join(
                "<tr>" + "".join(f"<td>{_html_line(cell)}</td>" for cell in row) + "</tr>\n"
                for row in block.rows
            )
            out.append(
                f"<table>\n<thead><tr>{header}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>"
            )
    out.append("</body>\n</html>")
    return "\n".join(out) + "\n"


def report_format(format: str | None, out: Path | None = None) -> str:
    """``--format`` as given, else from the output file's suffix (``.html``/``.htm``), else md."""
    if format is None:
        format = "html" if out is not None and out.suffix.lower() in (".html", ".htm") else "md"
    if format not in REPORT_FORMATS:
        raise UnknownFormat(
            f"unknown report format {format!r} (known: {', '.join(REPORT_FORMATS)})"
        )
    return format


def render(report: Report, format: str = "md") -> str:
    """The report as a Markdown document (``md``) or one self-contained HTML file (``html``)."""
    format = report_format(format)
    blocks = _blocks(report)
    return _markdown(blocks) if format == "md" else _html(blocks)
