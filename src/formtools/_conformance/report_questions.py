"""The questions the conformance report is organised by: what a spec editor has to decide, each
with the webmcp issues it bears on, the HTML construct it is about, and the rules of
:data:`.report.RULES` whose differences are its evidence.

Why a second table: a rule says why one keyword differs ("fractional multipleOf"), which is how
the differences are explained, but a spec editor reads by decision ("number or integer, and how
is a step said?"), and one decision gathers several rules. Every rule belongs to exactly one
question and every cited issue is in :data:`ISSUES` (``tests/test_report.py`` holds both), so
every explained difference lands in one question.

The issues are webmachinelearning/webmcp threads, cited by number with their titles as they
stand on GitHub; #289 is the pull request that defines the JSON Schema subset
(:mod:`formtools._spec.schema_subset`).

formtools' own keywords (``x-formtools-…``) explain a difference too, but they are formtools'
means of enforcing HTML, not something the spec is asked to adopt: :func:`is_extension` tells
them apart, and the report counts them beside each question instead of listing them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from formtools._conformance.report_diff import Difference, Explanation

__all__ = ["EXTENSION_PREFIX", "ISSUES", "QUESTIONS", "Issue", "Question", "is_extension", "question_of"]

#: What formtools' own keywords and annotations start with.
EXTENSION_PREFIX = "x-formtools-"

_REPOSITORY = "https://github.com/webmachinelearning/webmcp"


@dataclass(frozen=True)
class Issue:
    """A webmachinelearning/webmcp issue or pull request."""

    number: int
    title: str
    pull: bool = False

    @property
    def url(self) -> str:
        return f"{_REPOSITORY}/{'pull' if self.pull else 'issues'}/{self.number}"


#: The threads the questions cite, by number.
ISSUES: Mapping[int, Issue] = MappingProxyType(
    {
        issue.number: issue
        for issue in (
            Issue(22, "Declarative API Equivalent"),
            Issue(53, "Introduce semantic hints for side-effects of tools"),
            Issue(68, "Schema for minimum and maximum date"),
            Issue(92, "Who owns the validation layer?"),
            Issue(
                110,
                "Proposal: `sensitiveHint` annotation for tool outputs and a standardized secret "
                "reference content type",
            ),
            Issue(
                163,
                "ToolAnnotations (or something similar) should be implemented for Declarative Tools",
            ),
            Issue(
                210,
                "Define the declarative input-schema synthesis algorithm (#declarative-api is "
                "currently a TODO)",
            ),
            Issue(289, "Input validation (Fixes #92)", pull=True),
            Issue(
                316,
                "Guidance for sensitive form fields (credentials, card data, national IDs) in "
                "declarative and imperative tools",
            ),
        )
    }
)


@dataclass(frozen=True)
class Question:
    """A decision the spec has to make. ``construct`` is the HTML it is about, ``stake`` what
    goes wrong without a decision (and what #289's subset allows), ``rules`` the ids of the rules
    whose differences are its evidence; texts mark code with backticks."""

    id: str
    question: str
    construct: str
    stake: str
    issues: tuple[int, ...]
    rules: tuple[str, ...]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "pattern",
        "Is a `pattern` anchored, and where does it apply?",
        "`<input pattern>` on text, search, tel, url, email and password inputs, `pattern` on "
        "other types, and `<input type=email multiple pattern>`.",
        "HTML matches the whole value and checks each address of an e-mail list on its own; "
        "JSON Schema's `pattern` matches anywhere in the string. An algorithm that copies the "
        "attribute makes the schema accept values the form refuses. #289 keeps `pattern` "
        "(unanchored, as in JSON Schema), so the synthesis has to anchor it.",
        (210, 289),
        ("pattern-anchored", "pattern-not-applicable", "email-list"),
    ),
    Question(
        "required",
        "Which parameters are required?",
        "`required` on a control whose current value already satisfies it; a `value` outside "
        "`min`/`max` or off the step, with no `required`.",
        "Chromium lists a parameter iff one of its controls has the `required` attribute. What "
        "decides whether leaving it out submits is constraint validation of the control's "
        "current state, which the attribute alone does not tell.",
        (210, 289),
        ("required-already-satisfied", "required-by-state", "never-valid"),
    ),
    Question(
        "not-empty",
        "Does `required` mean non-empty, checked, selected?",
        "`required` on text, date and time inputs, on a checkbox, on a member of a checkbox "
        "group, on `<select multiple>`.",
        'JSON Schema\'s `required` only says the key is present: `""`, `false` and `[]` satisfy '
        "it, and the form refuses each. #289 allows `minLength`, but not `const`, `allOf` or "
        "`minItems`: a required checkbox can be `enum: [true]`, a required multiple select has "
        "no spelling in the subset.",
        (210, 289),
        ("required-not-empty", "required-checkbox", "required-group-member", "required-selection"),
    ),
    Question(
        "options",
        "Are placeholder, disabled and duplicate options enum members?",
        "`<select required>` whose first option has an empty value; `<option disabled>` (or in "
        "a disabled `<optgroup>`); options or radios that share a value.",
        "Selecting the placeholder fails validation and a disabled option is never submitted, "
        "yet both are values a script can set: an enum built from every option offers the agent "
        "values that do not submit.",
        (210,),
        ("placeholder-option", "disabled-option", "duplicate-value"),
    ),
    Question(
        "option-labels",
        "How are option labels carried?",
        "The text of `<option>` elements and the labels of radio buttons.",
        "Chromium pairs `enum` with `anyOf: [{type, const, title}]`. None of `anyOf`, `const` "
        "and `title` is in #289's subset, so Chromium's select and radio parameters fail it "
        "(the most frequent reason, see the #289 section); a subset schema can only say the "
        "labels in the `description`.",
        (210, 289),
        ("entry-type", "empty-title"),
    ),
    Question(
        "numbers",
        "`number` or `integer`, and how is a `step` said?",
        "`<input type=number>` and `<input type=range>` with `step`, `min` and `value`.",
        "stepMismatch counts from the step base (`min`, else `value`) in decimal. `multipleOf` "
        "counts from zero in binary floating point: it cannot say an offset base, it misjudges "
        "fractional steps, and #289 does not allow it. `type: integer` is in the subset and "
        "says an integral step from an integral base exactly.",
        (210, 289),
        (
            "integer-step",
            "multipleof-integer",
            "multipleof-fraction",
            "step-any",
            "huge-step-base",
            "step",
            "bounds-as-written",
        ),
    ),
    Question(
        "formats",
        "Dates, times, e-mail, URL and colour: a `format` name, a `pattern`, or nothing?",
        "`<input type=date|time|datetime-local|month|week|color|email|url>`.",
        "Chromium writes `format: date`, puts regular expressions in `format` for the other "
        "temporal types and colour, and says nothing for e-mail and URL. #289 excludes `format` "
        "altogether, so each of those parameters fails the subset; #210 asks whether `pattern` "
        "should carry the shapes instead.",
        (210, 289, 22),
        (
            "regex-in-format",
            "date-format",
            "date-description",
            "temporal-shape",
            "color-shape",
            "email-format",
            "url-format",
        ),
    ),
    Question(
        "date-bounds",
        "How are the `min` and `max` of a date or time said?",
        "`min` and `max` on date, time, datetime-local, month and week inputs.",
        "JSON Schema's `minimum` and `maximum` compare numbers, not dates: there is no keyword "
        "for the range, in the subset or outside it, and Chromium drops it.",
        (68,),
        ("temporal-bounds",),
    ),
    Question(
        "sanitization",
        "Can a schema say what the input type itself refuses?",
        "Every text-like input (line breaks stripped, e-mail and URL values trimmed), e-mail and "
        "URL syntax (typeMismatch), a textarea's line breaks.",
        "Value sanitization and typeMismatch have no JSON Schema keyword: a validator that only "
        "knows the schema — the browser's, once #289 has it validate `executeTool()` input — "
        "passes values the form rewrites or refuses.",
        (92, 289, 210),
        ("value-sanitization", "html-type"),
    ),
    Question(
        "defaults",
        "Does the schema say what a left-out parameter submits?",
        "A control's current value, checkedness or selection; `<input list>` suggestions.",
        "A parameter the agent leaves out keeps the control's state, and the form submits it. "
        "#289 allows `default`; `examples` is not in it.",
        (210, 289),
        ("default", "datalist-examples"),
    ),
    Question(
        "texts",
        "Where do a parameter's title and description come from?",
        "`toolparamtitle`, `aria-label`, the `title` attribute, `placeholder`.",
        "Chromium describes a parameter by `toolparamdescription`, its labels and "
        "`aria-description`, and names it by nothing else. #289 has `description` but no "
        "`title`.",
        (210, 289),
        ("parameter-title", "description-fallback"),
    ),
    Question(
        "closed",
        "Does a tool accept keys it does not declare?",
        "Every form.",
        "Chromium's `executeTool` rejects an input with an unknown key, but its schema allows "
        "any key. #289's subset has `additionalProperties: false` for exactly this.",
        (289, 92),
        ("closed-object",),
    ),
    Question(
        "annotations",
        "Do declarative tools carry annotations?",
        "The form's method, action, submit label and fields; `toolautosubmit`.",
        "Chromium reports only `autosubmit`, and only to DevTools: `getTools()` gives a declarative "
        "tool no annotations. Whether a declarative tool reads or changes state, "
        "and whether a person should confirm it, is what the imperative API's hints say; the "
        "declarative API has no attributes for them yet.",
        (163, 53),
        ("annotation-hints",),
    ),
    Question(
        "secrets",
        "How is a secret field marked?",
        "`<input type=password>`; `autocomplete` tokens such as `cc-number`, "
        "`current-password`, `one-time-code`.",
        "Nothing in Chromium's schema says a value is a secret, which is #316's question. JSON "
        "Schema's `writeOnly` does, but #289 does not allow it (#110's `sensitiveHint` is about a "
        "tool's output, not its input).",
        (316, 289),
        ("sensitive-field",),
    ),
)

_BY_RULE: Mapping[str, Question] = MappingProxyType(
    {rule: question for question in QUESTIONS for rule in question.rules}
)


def question_of(rule: Explanation | None) -> Question | None:
    """The question a rule's differences are evidence for (None: unexplained)."""
    return _BY_RULE.get(rule.id) if rule is not None else None


def is_extension(difference: Difference) -> bool:
    """Whether the difference is in one of formtools' own keywords or annotations."""
    return any(part.startswith(EXTENSION_PREFIX) for part in difference.keyword.split("."))

