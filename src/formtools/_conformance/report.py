"""The conformance report: what Chromium registers next to what the ``html`` profile says, every
difference explained — and, in this module, :data:`RULES`, the table the explanations come from.

The report is built in steps, one module each, every module using only those listed before it:

- :mod:`.report_diff`: the structural JSON diff (key order does not count; ``enum`` /
  ``required`` members and ``anyOf`` entries are compared one by one);
- this module: why the ``html`` profile differs, as a table of rules;
- :mod:`.report_compare`: one page — Chromium's tools (its recording, else formtools'
  ``chromium`` profile) next to the ``html`` profile's, every difference placed and explained;
- :mod:`.report_questions`: the spec questions the rules' differences are evidence for, and the
  webmcp issues each bears on;
- :mod:`.report_subset`: how many schemas webmcp#289's JSON Schema subset would refuse, and why;
- :mod:`.report_markup`: a small document model, written as Markdown or as HTML, every text
  escaped;
- :mod:`.report_render`: what the report says (by question; the #289 counts; formtools' own
  keywords apart; the pages), in that model, as one document, linked files or JSON.

Each difference is explained by the first rule of :data:`RULES` that covers it. The rules are
data — the keywords, kinds of change and controls a rule covers, plus at most one small predicate
for what the keyword alone cannot tell (a placeholder option from a disabled one) — and their
reasons are written for a spec editor: what HTML does, what Chromium's schema says, what the
``html`` profile says instead. A difference no rule covers is reported as *unexplained*;
``tests/test_report.py`` fails on any in the fixtures, so the table keeps up with the profiles.
Annotations are compared generically, whatever hints a profile adds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from formtools._forms.model import Control, placeholder_label_option
from formtools._spec.microsyntax import parse_float
from formtools._synth.profile import Group
from formtools._conformance.report_diff import Difference, same

__all__ = ["RULES", "Condition", "Context", "Rule", "explain"]

_TEXT_TYPES = frozenset({"text", "search", "tel", "url", "email", "password"})
_TEMPORAL_TYPES = frozenset({"date", "time", "datetime-local", "month", "week"})
_NUMERIC_TYPES = frozenset({"number", "range"})
_DATE_NOTE = (
    "Dates MUST be provided in 'YYYY-MM-DD' format."  # what Chromium adds to a date's description
)


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
    return control is not None and difference.member == "" and placeholder_label_option(control) is not None


def _disabled_option(difference: Difference, context: Context) -> bool:
    control = context.control
    return control is not None and any(
        option.disabled and option.value == difference.member for option in control.options
    )


def _duplicate(difference: Difference, context: Context) -> bool:
    return difference.occurrences is not None and min(difference.occurrences) > 0


def _one(difference: Difference, context: Context) -> bool:
    return context.html.get("type") == "integer" and same(difference.chromium, 1)


def _fraction(difference: Difference, context: Context) -> bool:
    value = difference.chromium
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value % 1 != 0


def _step_any(difference: Difference, context: Context) -> bool:
    control = context.control
    return control is not None and control.attributes.get("step", "").strip().lower() == "any"


def _address_list(difference: Difference, context: Context) -> bool:
    return context.html.get("x-formtools-multiple") is True


def _empty_title(difference: Difference, context: Context) -> bool:
    return bool(difference.chromium == "")


def _date_note(difference: Difference, context: Context) -> bool:
    return isinstance(difference.chromium, str) and _DATE_NOTE in difference.chromium


def _is_one(difference: Difference, context: Context) -> bool:
    return same(difference.html, 1)


def _hint(difference: Difference, context: Context) -> bool:
    return difference.keyword != "annotations.autosubmit"


def _huge_base(difference: Difference, context: Context) -> bool:
    base = parse_float(context.html.get("x-formtools-step-base"))
    return base is not None and abs(base) >= 2**52


def _to_integer(difference: Difference, context: Context) -> bool:
    return bool(difference.chromium == "number" and difference.html == "integer")


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
        '`executeTool` rejects an input with a key that is not a parameter ("Input contains a '
        "parameter … but there is no such parameter for the tool\"), yet Chromium's schema "
        "allows any key. The html profile closes the object with `additionalProperties: false`.",
        changes="added",
    ),
    _rule(
        "never-valid",
        "no input can make the form valid",
        ("inputSchema.not", "inputSchema.x-formtools-unsatisfiable"),
        "A control fails constraint validation whatever a call does (one no call can fill, or a "
        "required select with nothing to choose but its placeholder, as when a script fills it "
        "later), so the browser never submits the form (a form without toolautosubmit waits for "
        "the person, who can complete what they can see and choose: not a hidden control, nor a "
        "select whose every choice is disabled). Chromium's schema still accepts inputs; "
        "the html profile's accepts none (`not: {}`) and says why in "
        "`x-formtools-unsatisfiable`.",
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
        "`toolautosubmit`), which only DevTools shows. The html profile describes it with "
        "WebMCP's and MCP's hints (`readOnlyHint`, `destructiveHint`, `idempotentHint`, "
        "`openWorldHint`, …) and those webmcp#198 and #110 propose, inferred by formtools from "
        "the form — its method, action, submit label and fields — unless the author sets them "
        "with the form's hint attributes; they tell an agent whether a call changes anything and "
        "whether a person must confirm it.",
        when=Condition("the annotation is not autosubmit", _hint),
    ),
    # -- values the form cannot take as given ---------------------------------------------------
    _rule(
        "sensitive-field",
        "sensitive field",
        ("writeOnly", "x-formtools-inferred-hints"),
        "The field holds a secret (a password, an `autocomplete` token such as `cc-number`, "
        "`current-password` or `one-time-code`, or a name such as `pin` or `cvc`, which is "
        "formtools' guess and says so in `x-formtools-inferred-hints`). JSON Schema's own "
        "`writeOnly: true` says the value is sent and never read back; formtools' executor keeps "
        "it out of logs, results and error messages. (`x-sensitive` is the sensitiveHint "
        "proposal's marker for *outputs*, webmcp#110, so it is not used for an input; input "
        "secrets are webmcp#316's question.) Chromium has no such marker.",
        changes="added",
    ),
    _rule(
        "email-list",
        "e-mail address lists",
        ("pattern", "x-formtools-address-pattern", "x-formtools-multiple"),
        "An `<input type=email multiple>` takes a comma-separated list of addresses, and HTML "
        "checks each address on its own, against the e-mail syntax and against `pattern`. "
        "So does Chromium's validation, but its schema copies the pattern, which JSON Schema "
        "matches against the whole list as one string. JSON Schema has no keyword for a list in "
        "a string: the html profile says `x-formtools-multiple: true` and `x-formtools-address-pattern`, which "
        "formtools' validator enforces.",
        controls=("email",),
        when=Condition("the html profile says x-formtools-multiple", _address_list),
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
        "validators treat `format` as an annotation, `x-formtools-html-type` applies HTML's exact rule "
        "(ASCII addresses, as Chromium checks them).",
        changes="added",
        controls=("email",),
    ),
    _rule(
        "url-format",
        "URL syntax",
        "format",
        "A url input refuses a value that is not an absolute URL (typeMismatch); Chromium's "
        "schema says nothing. The html profile adds `format: uri`, and `x-formtools-html-type` applies the "
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
        "`x-formtools-html-type`.",
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
        "milliseconds whatever the step (the step is `x-formtools-step`'s business). Chromium's `format` "
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
        "x-formtools-html-type",
        "The value must survive the type's value sanitization unchanged: single-line text loses "
        "CR and LF, e-mail and URL values are trimmed, a textarea's line breaks are LF. JSON "
        "Schema has no keyword for it; `x-formtools-html-type` names the type and formtools' validator "
        "applies the rule. Chromium's schema says nothing.",
        changes="added",
        controls=_TEXT_TYPES | {"textarea"},
    ),
    _rule(
        "html-type",
        "type rules beyond JSON Schema",
        "x-formtools-html-type",
        "`x-formtools-html-type` names the input type whose sanitization, typeMismatch, range and step "
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
        "as a multiple of 0.1). The html profile keeps the step as written (`x-formtools-step`), and "
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
        ("x-formtools-step", "x-formtools-step-base"),
        "stepMismatch: a value must be the step base (`min`, else the `value` attribute) plus a "
        "multiple of the step. Chromium says at most `multipleOf`, and only when the base is a "
        "multiple of the step; for dates and times nothing. The html profile keeps the step and "
        "step base as written (`x-formtools-step`, `x-formtools-step-base`) for formtools' validator.",
        changes="added",
    ),
    _rule(
        "temporal-bounds",
        "date and time bounds",
        ("x-formtools-min", "x-formtools-max"),
        "`min` and `max` of a date or time input (rangeUnderflow, rangeOverflow; a reversed time "
        "range wraps past midnight). Chromium drops them. JSON Schema cannot compare dates, so "
        "the html profile says `x-formtools-min` / `x-formtools-max`, which formtools' validator enforces.",
        changes="added",
        controls=_TEMPORAL_TYPES,
    ),
    _rule(
        "bounds-as-written",
        "bounds as written",
        ("x-formtools-min", "x-formtools-max"),
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
