"""Stage 3 — synthesize: forms → tool definitions under a profile, with a reason for every loss.

The driver is profile-agnostic: it applies the WebMCP registration rules (a connected form with
``toolname`` and ``tooldescription``, a valid and unused name), groups the kept controls by
parameter name in order of first appearance, and asks the profile's table for each group's
schema fragment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ._constants import TOOL_NAME
from ._diagnostics import Diagnostic, Severity
from ._forms import Form, forms_of
from ._microsyntax import compiles_as_v_flag_regex
from ._parse import Document
from ._profiles import Group, Profile, get_profile
from ._tool import Tool, freeze

__all__ = ["Extraction", "synthesize"]


@dataclass(frozen=True)
class Extraction:
    """What one page yields: its tools (sorted by name, as ``getTools()`` lists them), every
    diagnostic, and the parsed forms."""

    tools: tuple[Tool, ...]
    diagnostics: tuple[Diagnostic, ...]
    forms: tuple[Form, ...]
    document: Document

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)


def synthesize(document: Document, profile: str | Profile = "chromium") -> Extraction:
    """Every tool the document's forms register under ``profile``."""
    rules = get_profile(profile)
    forms = forms_of(document)
    tools: list[Tool] = []
    diagnostics: list[Diagnostic] = []
    registered: set[str] = set()
    for form in forms:
        problem = _registration_problem(form, registered)
        if problem is not None:
            diagnostics.append(Diagnostic(problem, form.describe, line=form.line))
            continue
        name = form.attributes["toolname"]
        registered.add(name)
        schema_diagnostics: list[Diagnostic] = []
        schema = _input_schema(form, rules, schema_diagnostics)
        diagnostics.extend(schema_diagnostics)
        tools.append(
            Tool(
                name=name,
                title=form.attributes.get("tooltitle", ""),
                description=form.attributes["tooldescription"],
                input_schema=freeze(schema),
                annotations=freeze(rules.annotations(form.attributes)),
                form=form,
                profile=rules.name,
            )
        )
    tools.sort(key=lambda tool: tool.name)
    return Extraction(tuple(tools), tuple(diagnostics), forms, document)


def _registration_problem(form: Form, registered: set[str]) -> str | None:
    has_name = "toolname" in form.attributes
    has_description = "tooldescription" in form.attributes
    if not has_name and not has_description:
        return "not-a-tool"
    if not has_name:
        return "missing-toolname"
    if not has_description:
        return "missing-tooldescription"
    name = form.attributes["toolname"]
    if not TOOL_NAME.fullmatch(name):
        return "invalid-toolname"
    if name in registered:
        return "duplicate-toolname"
    return None


def _input_schema(form: Form, rules: Profile, diagnostics: list[Diagnostic]) -> dict:
    groups: dict[str, list] = {}
    has_submit_button = False
    for control in form.controls:
        reason = rules.skip(control)
        if reason is not None:
            diagnostics.append(
                Diagnostic(reason, form.describe, control.describe, control.line)
            )
            continue
        has_submit_button = has_submit_button or control.is_submit_button
        groups.setdefault(control.key, []).append(control)
    if not has_submit_button and "toolautosubmit" not in form.attributes:
        diagnostics.append(Diagnostic("no-submit-button", form.describe, line=form.line))

    properties: dict[str, dict] = {}
    required: list[str] = []
    for key, members in groups.items():
        group = Group(key, tuple(members))
        kind, problem = rules.classify(group)
        if problem is not None:
            diagnostics.append(
                Diagnostic(problem, form.describe, repr(key), group.first.line, _members(group))
            )
            continue
        fragment = rules.fragments[kind](group)
        properties[key] = fragment
        if rules.required(group):
            required.append(key)
        diagnostics.extend(_parameter_warnings(form, group, fragment))
    return {"type": "object", "properties": properties, "required": required}


def _members(group: Group) -> str | None:
    if len(group.controls) < 2:
        return None
    return "controls: " + ", ".join(c.describe for c in group.controls)


def _parameter_warnings(form: Form, group: Group, fragment: dict) -> Iterator[Diagnostic]:
    field = repr(group.key)
    if group.key == "":
        yield Diagnostic("empty-name", form.describe, field, group.first.line)
    for control in group.controls:
        pattern = control.attributes.get("pattern")
        if pattern is not None and control.tag == "input" and not compiles_as_v_flag_regex(pattern):
            yield Diagnostic("invalid-pattern", form.describe, field, control.line, repr(pattern))
    if "description" not in fragment:
        yield Diagnostic("missing-description", form.describe, field, group.first.line)
