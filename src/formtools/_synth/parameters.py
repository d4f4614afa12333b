"""A form's controls sorted out once, for synthesis and for execution alike: grouped by name and
classified by the profile into parameter kinds, or skipped with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from formtools._forms.model import Control, Form, placeholder_label_option
from formtools._forms.state import initial_state
from formtools._forms.validity import invalid_controls, is_candidate
from formtools._spec.memo import IdentityMemo
from formtools._synth.profile import Group, Profile, get_profile

__all__ = ["Parameter", "Parameters", "Unsatisfiable", "parameters_of", "skips_validation", "unsatisfiable"]


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
        return self._by_key.get(key)

    @cached_property
    def _by_key(self) -> dict[str, Parameter]:
        """The parameters by key (one group per key): a call looks up each of its keys."""
        return {p.key: p for p in self.parameters}


def parameters_of(form: Form, profile: str | Profile = "chromium") -> Parameters:
    """Group the form's kept controls by name, in order of first appearance, and classify them.

    Synthesis asks this of a form two or three times, and every call of its tool again: the
    answer is kept while the form lives (the form and the profile are frozen)."""
    return _SORTED_OUT(form, get_profile(profile))


def _sort_out(form: Form, rules: Profile) -> Parameters:
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
    # a group's peers are the radios that share a name with one of its radio members and are
    # not members: the skipped ones (a kept radio of that name has the group's key). Assigned
    # in one pass, not searched for per group and compared with each member.
    radio_names = {
        c.attributes.get("name"): key
        for key, members in groups.items()
        for c in members
        if c.tag == "input" and c.type == "radio"
    }
    peers: dict[str, list[Control]] = {}
    for control, _ in skipped:
        name = control.attributes.get("name")
        if control.tag == "input" and control.type == "radio" and name in radio_names:
            peers.setdefault(radio_names[name], []).append(control)
    parameters = []
    for key, members in groups.items():
        group = Group(key, tuple(members), tuple(peers.get(key, ())))
        kind, problem = rules.classify(group)
        parameters.append(Parameter(group, kind or None, problem))
    return Parameters(tuple(parameters), tuple(skipped), submit_button)


_SORTED_OUT = IdentityMemo(_sort_out)


@dataclass(frozen=True)
class Unsatisfiable:
    """Why no call can make a form pass constraint validation.

    ``person_can_complete`` says whether every failing control is one a person can still fill
    on the page: a control no call reaches (unnamed, sharing its name with a button, in a
    dropped group) keeps its initial state for the call, not for the person at the keyboard.
    That decides what the failure means. A form without ``toolautosubmit`` is filled by a call
    and submitted by the person, so it waits for them to complete it (an unnamed "I accept the
    terms" checkbox is the common case, and ordinary). A required select with nothing to choose
    fails for anyone, and one the call cannot reach whose every choice is disabled fails for the
    person, who can pick no disabled option; so does a control the person cannot see
    (:attr:`Control.unseen`: ``hidden`` on it or an ancestor)."""

    reasons: tuple[str, ...]
    person_can_complete: bool

    def __str__(self) -> str:
        return "; ".join(self.reasons)


def unsatisfiable(form: Form, sorted_out: Parameters) -> Unsatisfiable | None:
    """Why no input can make the form pass constraint validation, or None.

    A control no call can change (not a parameter: unnamed, sharing its name with a button, in a
    group the profile drops …; a file input takes the call's ``files``) keeps its initial state;
    if that state is invalid, ``checkValidity()`` is false after every call."""
    fillable = {
        control.index
        for parameter in sorted_out.parameters
        if parameter.kind is not None
        for control in parameter.group.controls
    }
    # only these are checked (the others' problems would be dropped), and the form's initial
    # state is built only when there is one
    unfillable = [
        control
        for control in form.controls
        if control.index not in fillable
        and control.type != "file"  # files: a call's files=
        and is_candidate(control)
    ]
    # a parameter can be as hopeless: a required select with no option but its placeholder
    # (often one a script fills later) misses a value whatever a call chooses
    hopeless = [
        f"{control.describe}: Please select an item in the list. (valueMissing)"
        for control in form.controls
        if control.index in fillable and _nothing_to_choose(control) and is_candidate(control)
    ]
    # (a value formtools cannot check is no reason: a call keeping it is refused as it is validated)
    stuck = invalid_controls(initial_state(form), unfillable, unknown_as_valid=True) if unfillable else []
    reasons = (*hopeless, *(f"{p.control.describe}: {p.message} ({p.flag})" for p in stuck))
    if not reasons:
        return None
    for_anyone = hopeless or any(
        problem.control.unseen or _nothing_to_choose(problem.control, by_person=True) for problem in stuck
    )
    return Unsatisfiable(reasons, person_can_complete=not for_anyone)


def _nothing_to_choose(control: Control, *, by_person: bool = False) -> bool:
    """A required select that is missing its value in every state its chooser can give it: no
    options, or a drop-down whose only option is its placeholder label option
    (:func:`~formtools._forms.model.placeholder_label_option`). A call selects any option, a
    disabled one too (Chromium 156's executeTool does, as script can); a person ``by_person``
    only an enabled one (not disabled, not in a disabled optgroup), so a required select whose
    every choice is disabled stops the person as surely as an empty one stops everyone."""
    if control.tag != "select" or "required" not in control.attributes:
        return False
    skipped = 1 if placeholder_label_option(control) is not None else 0  # the placeholder is the first option
    return not any(not (by_person and option.disabled) for option in control.options[skipped:])


def skips_validation(form: Form, sorted_out: Parameters) -> bool:
    """Whether a call submits without constraint validation: ``novalidate``, or
    ``formnovalidate`` on the submit button a call uses."""
    button = sorted_out.submit_button
    return "novalidate" in form.attributes or (button is not None and "formnovalidate" in button.attributes)
