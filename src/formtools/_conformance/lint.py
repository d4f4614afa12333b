"""``formtools lint``'s findings in the formats tools already read.

- ``json``: a versioned document (``"version": 1``) — the page, its tools, counts per severity
  and every diagnostic — documented in docs/guide/cli.md and stable within a version;
- ``sarif``: SARIF 2.1.0, which GitHub code scanning and editors read (checked against the
  OASIS schema in the tests);
- ``github``: GitHub Actions workflow commands (``::error file=…,line=…::…``), which annotate a
  pull request's diff;
- ``text``: one line per finding and a closing count, for a person.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from formtools._synth.diagnostics import CODES, Diagnostic, Severity

__all__ = ["LINT_FORMATS", "LINT_JSON_VERSION", "as_github", "as_json", "as_sarif", "as_text"]

LINT_FORMATS = ("text", "json", "sarif", "github")
LINT_JSON_VERSION = 1

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    found = list(diagnostics)
    return {
        "errors": sum(d.severity is Severity.ERROR for d in found),
        "warnings": sum(d.severity is Severity.WARNING for d in found),
        "notes": sum(d.severity is Severity.INFO for d in found),
    }


def as_json(page: str, tools: Sequence[str], diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    """``{"version": 1, "page", "tools": [names], "counts": {"errors", "warnings", "notes"},
    "diagnostics": [{"severity", "code", "form", "field", "line", "message"}]}``."""
    return {
        "version": LINT_JSON_VERSION,
        "page": page,
        "tools": list(tools),
        "counts": _counts(diagnostics),
        "diagnostics": [d.to_dict() for d in diagnostics],
    }


def as_text(page: str, tools: Sequence[str], diagnostics: Sequence[Diagnostic], shown: Sequence[Diagnostic]) -> str:
    lines = [f"{page}{f':{d.line}' if d.line else ''}: {d}" for d in shown]
    counts = _counts(diagnostics)
    # a page whose forms lack toolname has notes only, and the summary alone ("0 tool(s) …
    # 1 note(s)") did not say where the reason was
    hidden = " (-v shows them)" if len(shown) < len(diagnostics) else ""
    lines.append(
        f"{len(tools)} tool(s); {counts['errors']} error(s), {counts['warnings']} warning(s), "
        f"{counts['notes']} note(s){hidden}"
    )
    return "\n".join(lines)


def as_sarif(page: str, diagnostics: Sequence[Diagnostic], version: str) -> dict[str, Any]:
    """One SARIF run: every diagnostic code is a rule (its explanation the rule's text), every
    finding a result located at the page and line."""
    codes = sorted({d.code for d in diagnostics})
    rules = [
        {
            "id": code,
            "shortDescription": {"text": CODES[code][1]},
            "defaultConfiguration": {"level": _SARIF_LEVEL[CODES[code][0]]},
        }
        for code in codes
    ]
    results = []
    for diagnostic in diagnostics:
        location: dict[str, Any] = {"artifactLocation": {"uri": page}}
        if diagnostic.line:
            location["region"] = {"startLine": diagnostic.line}
        where = diagnostic.form + (f", field {diagnostic.field}" if diagnostic.field is not None else "")
        results.append(
            {
                "ruleId": diagnostic.code,
                "ruleIndex": codes.index(diagnostic.code),
                "level": _SARIF_LEVEL[diagnostic.severity],
                "message": {"text": f"{where}: {diagnostic.message}"},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "formtools",
                        "version": version,
                        "informationUri": "https://github.com/webmachinelearning/webmcp",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


def _escape(text: str, *, property_value: bool = False) -> str:
    """Workflow-command escaping: ``%``, CR and LF always; ``:`` and ``,`` in properties."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def as_github(page: str, diagnostics: Sequence[Diagnostic]) -> str:
    """One workflow command per finding (``::error file=page,line=12,title=code::message``)."""
    lines = []
    for diagnostic in diagnostics:
        properties = [f"file={_escape(page, property_value=True)}"]
        if diagnostic.line:
            properties.append(f"line={diagnostic.line}")
        properties.append(f"title={_escape(diagnostic.code, property_value=True)}")
        where = diagnostic.form + (f", field {diagnostic.field}" if diagnostic.field is not None else "")
        message = _escape(f"{where}: {diagnostic.message}")
        lines.append(f"::{_GITHUB_COMMAND[diagnostic.severity]} {','.join(properties)}::{message}")
    return "\n".join(lines)
