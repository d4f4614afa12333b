"""Diagnostics: why a form is not a tool, why a control is not a parameter.

Synthesis never raises for a page's content; it yields :class:`Diagnostic` values, so a crawler
can keep going and ``formtools lint`` can explain every dropped form and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["Severity", "Diagnostic", "CODES"]


class Severity(str, Enum):
    ERROR = "error"  # the author meant something that does not happen (a tool or parameter lost)
    WARNING = "warning"  # works, but an agent gets less than it could
    INFO = "info"  # a rule applied as designed (a disabled control, a button)


# code → (severity, explanation). The explanation says what the browser does and why.
CODES: dict[str, tuple[Severity, str]] = {
    "never-valid": (
        Severity.ERROR,
        "no input can make this form valid: a control fails constraint validation whatever a "
        "call does (one no call can fill, in a form with toolautosubmit; one no call can fill "
        "that the person cannot complete either: hidden, or a required select whose every "
        "choice is disabled; or a required select with nothing to choose), so no call gets it "
        "submitted (the html profile's schema accepts nothing)",
    ),
    "needs-person": (
        Severity.WARNING,
        "no call can make this form valid on its own: a control no call can fill fails "
        "constraint validation as the page gives it, so each call fills the form and waits for "
        "the person to complete it before they submit it (the html profile's schema accepts "
        "nothing; with toolautosubmit, every call would fail)",
    ),
    "not-a-tool": (Severity.INFO, "the form has neither toolname nor tooldescription"),
    "missing-tooldescription": (
        Severity.ERROR,
        "the form has toolname but no tooldescription attribute, so it is not registered",
    ),
    "missing-toolname": (
        Severity.ERROR,
        "the form has tooldescription but no toolname attribute, so it is not registered",
    ),
    "invalid-toolname": (
        Severity.ERROR,
        "toolname must be 1–128 characters of A–Z a–z 0–9 _ . -, so the form is not registered",
    ),
    "duplicate-toolname": (
        Severity.ERROR,
        "an earlier form registered the same toolname; the first registration wins",
    ),
    "inferred-tool": (
        Severity.INFO,
        "--all-forms: the form has no toolname, so formtools named and described it from the page",
    ),
    "not-inferred": (
        Severity.INFO,
        "--all-forms: the form has no toolname and is not made a tool, because calling it could "
        "do nothing useful",
    ),
    "disabled": (Severity.INFO, "disabled controls are not parameters"),
    "readonly": (Severity.INFO, "readonly controls are not parameters"),
    "button": (Severity.INFO, "buttons are not parameters"),
    "hidden-without-description": (
        Severity.INFO,
        "a hidden input becomes a parameter only with a non-empty toolparamdescription",
    ),
    "unsupported-type": (Severity.WARNING, "this kind of control is never a parameter"),
    "not-submittable": (
        Severity.INFO,
        "fieldsets and outputs are listed in the form but never submitted, so they are not parameters",
    ),
    "duplicate-name": (
        Severity.ERROR,
        "several controls share this name, which only radio buttons or checkboxes may do; "
        "the parameter is dropped",
    ),
    "mixed-types": (
        Severity.ERROR,
        "controls of different kinds share this name; the parameter is dropped",
    ),
    "shares-name-with-button": (
        Severity.ERROR,
        "a button, output or fieldset has the same name; the parameter is dropped",
    ),
    "empty-name": (Severity.WARNING, "the control's name is missing, empty or white space, so its parameter is called \"\""),
    "unnamed-dropped": (
        Severity.WARNING,
        "the control has no name, so the browser never submits it; nor is it a parameter: Chromium "
        "groups every unnamed control under the name \"\" and drops that group",
    ),
    "ignored-fieldset-description": (
        Severity.WARNING,
        "toolparamdescription on a <fieldset> describes only a group of radio buttons or checkboxes "
        "sharing a name inside it, and there is none: put it on each field instead",
    ),
    "false-boolean": (
        Severity.ERROR,
        "a boolean attribute is on whatever its value, \"false\" included: remove the attribute "
        "to turn it off",
    ),
    "unknown-attribute": (
        Severity.WARNING,
        "the attribute looks like a tool attribute, but neither Chromium nor formtools knows it, "
        "so it is ignored",
    ),
    "invalid-pattern": (
        Severity.WARNING,
        "the pattern does not compile as an ECMAScript regular expression with the v flag; "
        "the browser ignores it",
    ),
    "missing-description": (
        Severity.WARNING,
        "the parameter has no description (toolparamdescription, label or aria-description)",
    ),
    "no-submit-button": (
        Severity.ERROR,
        "the form has no submit button and no toolautosubmit, so calling the tool fails",
    ),
    "event-handler": (
        Severity.WARNING,
        "the page has an event handler a call sets off (onsubmit or onformdata on the form or an "
        "element around it, oninput or onchange on a control or an element around it), a script "
        "formtools does not run: in a browser it may change the "
        "values sent, add entries, or cancel the submission (Chromium then refuses the call as a "
        "programming error, unless it answers with respondWith()), while formtools submits the "
        "form as the call filled it",
    ),
    "form-action-blocked": (
        Severity.WARNING,
        "the page's Content-Security-Policy form-action (a header or a <meta http-equiv> in its "
        "head) does not allow the form's action: Chromium registers the tool, and every call of "
        "it submits nothing and never completes (formtools gives not-sent)",
    ),
    "undeclared-encoding": (
        Severity.WARNING,
        "the page names no encoding (no BOM, charset in Content-Type, <meta charset> or XML "
        "declaration) and is not plain ASCII: Chromium guesses the encoding from its text, which "
        "formtools does not reproduce; formtools reads windows-1252, so its names, descriptions "
        "and submitted bytes may differ from Chromium's. Declare the encoding",
    ),
}


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a form or a control.

    ``form`` and ``field`` say where: the form as a person would name it (``form #2
    (toolname='search', line 12)``) and the parameter name or control.
    """

    code: str
    form: str
    field: str | None = None
    line: int | None = None
    detail: str | None = None

    @property
    def severity(self) -> Severity:
        return CODES[self.code][0]

    @property
    def message(self) -> str:
        text = CODES[self.code][1]
        return f"{text} ({self.detail})" if self.detail else text

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "form": self.form,
            "field": self.field,
            "line": self.line,
            "message": self.message,
        }

    def __str__(self) -> str:
        where = self.form + (f", field {self.field}" if self.field is not None else "")
        return f"{self.severity.value}: {where}: {self.message} [{self.code}]"
