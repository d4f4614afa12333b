"""A form's controls sorted out once, for synthesis and for execution alike: grouped by name and
classified by the profile into parameter kinds, or skipped with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from formtools._forms.model import Control, Form
from formtools._synth.profile import Group, Profile, get_profile

__all__ = ["Parameter", "Parameters", "parameters_of"]


@dataclass(frozen=True)
class Parameter:
    """A group of same-named controls and what the profile makes of it: a ``kind`` (a key of
    the profile's fragment table), or the diagnostic ``problem`` that drops it. A dropped
    parameter's name stays known: a tool call that uses it gets "invalid value", not "no such
    parameter"."""

    group: Group
    kind: str | None
    problem: str | None = None

    @property
    def key(self) -> str:
        return self.group.key


@dataclass(frozen=True)
class Parameters:
    """A form's controls sorted out once, for synthesis and for execution alike."""

    parameters: tuple[Parameter, ...]
    skipped: tuple[tuple[Control, str], ...]
    submit_button: Control | None

    def get(self, key: str) -> Parameter | None:
        return next((p for p in self.parameters if p.key == key), None)


def parameters_of(form: Form, profile: str | Profile = "chromium") -> Parameters:
    """Group the form's kept controls by name, in order of first appearance, and classify them."""
    rules = get_profile(profile)
    groups: dict[str, list[Control]] = {}
    skipped: list[tuple[Control, str]] = []
    submit_button = None
    for control in form.controls:
        reason = rules.skip(control)
        if reason is not None:
            skipped.append((control, reason))
            continue
        if submit_button is None and control.is_submit_button:
            submit_button = control
        groups.setdefault(control.key, []).append(control)
    parameters = []
    for key, members in groups.items():
        group = Group(key, tuple(members))
        kind, problem = rules.classify(group)
        parameters.append(Parameter(group, kind or None, problem))
    return Parameters(tuple(parameters), tuple(skipped), submit_button)
