"""Profiles: the rules that turn a group of controls into a schema fragment, as data.

A :class:`Profile` is a table from *group kind* (``"text"``, ``"number"``, ``"radio"`` …) to a
fragment builder, plus the few policies that differ between profiles (which controls are
skipped, how a parameter is described). Synthesis looks rules up here and never branches on a
profile's name; a new profile is a new table, usually derived from an existing one with
:meth:`Profile.extend`.
"""

from __future__ import annotations

import importlib

from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from formtools.errors import UnknownProfile, require
if TYPE_CHECKING:  # names for annotations only: looking a profile up loads no stage
    from formtools._forms.model import Control, Form

__all__ = ["Group", "Profile", "register_profile", "get_profile", "profile_names"]


@dataclass(frozen=True)
class Group:
    """The controls that share one parameter name, in tree order. ``peers``: the form's other
    radio buttons in the radio groups of these (disabled ones, which are no parameter): their
    ``required`` and checkedness count in those groups' validity all the same."""

    key: str
    controls: tuple[Control, ...]
    peers: tuple[Control, ...] = ()

    @property
    def first(self) -> Control:
        return self.controls[0]


FragmentBuilder = Callable[[Group], dict[str, Any]]


@dataclass(frozen=True)
class Profile:
    """A named set of synthesis rules.

    ``skip``: a control → the diagnostic code for leaving it out of every group, or None.
    ``classify``: a group → its kind (a key of ``fragments``), or a diagnostic code when the
    group is not a parameter. ``fragments``: kind → builder of the parameter's schema.
    ``required``: whether the group's parameter is required. ``annotations``: a form → the
    tool's annotations. ``says_unsatisfiable``: a form no input can make valid gets a schema
    that accepts nothing (``"not": {}``) and says why (``x-formtools-unsatisfiable``). ``closed``: the input schema says
    ``"additionalProperties": false`` (a call with an unknown key is rejected, as Chromium does).
    ``enforces_schema``: a call is checked against the tool's input schema before it is filled,
    so that the schema is the whole contract (``html``: whatever ``validate`` rejects, ``call``
    rejects, and the other way round); without it a call is filled as Chromium fills it, with
    JavaScript's conversions (``"5"`` for a number, ``1`` for a checkbox).
    ``selects_by_value``: a multi-select's options are selected by their values, as HTML means
    (``html``); without it, as Chromium 156's ``executeTool`` does: by position among the
    select's list items, so an optgroup shifts the selection (``_execute.fill``).
    """

    name: str
    skip: Callable[[Control], str | None]
    classify: Callable[[Group], tuple[str, str | None]]
    fragments: Mapping[str, FragmentBuilder]
    required: Callable[[Group], bool]
    annotations: Callable[[Form], dict[str, Any]]
    summary: str = ""
    closed: bool = False
    says_unsatisfiable: bool = False
    enforces_schema: bool = False
    selects_by_value: bool = False

    def __post_init__(self) -> None:
        """``fragments`` as a read-only copy: a frozen profile whose table was the caller's dict
        (the built-in ``chromium`` one was) could be changed through ``tool.profile.fragments``,
        and every later tool of that profile, the registered one's included, came out changed."""
        object.__setattr__(self, "fragments", MappingProxyType(dict(self.fragments)))

    def __hash__(self) -> int:
        # the rules are functions and a table; the name tells profiles apart as well (equal
        # profiles hash alike, which is all a hash owes equality)
        return hash(self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        """A registered profile pickles as its name (its rules are functions, closures among
        them, which pickle cannot carry), so a tool can go to another process and come back
        with the rules it was made by; any other profile pickles field by field."""
        if _REGISTRY.get(self.name) is self:
            return (get_profile, (self.name,))
        return (Profile, tuple(getattr(self, rule.name) for rule in fields(self)))

    def extend(self, name: str, *, fragments: Mapping[str, FragmentBuilder] | None = None, **changes: Any) -> "Profile":
        """A new profile: this one with some rules replaced."""
        table = dict(self.fragments)
        table.update(fragments or {})
        return replace(self, name=name, fragments=table, **changes)


_REGISTRY: dict[str, Profile] = {}

# The built-in profiles register themselves when their module is imported; each is imported the
# first time somebody asks for it, so a tool that only needs ``chromium`` never loads the others.
_BUILT_IN = MappingProxyType(
    {
        "chromium": "formtools._synth.chromium",
        "html": "formtools._synth.html",
        "portable": "formtools._synth.portable",
    }
)


def register_profile(profile: Profile) -> Profile:
    _REGISTRY[profile.name] = profile
    return profile


def get_profile(name: str | Profile) -> Profile:
    """Look a profile up by name; unknown names raise :class:`~formtools.UnknownProfile`."""
    if isinstance(name, Profile):
        return name
    require(name, str, "a profile argument", "a profile's name or a formtools.Profile")
    if name not in _REGISTRY and name in _BUILT_IN:
        importlib.import_module(_BUILT_IN[name])
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownProfile(
            f"unknown profile {name!r} (known: {', '.join(profile_names())})"
        ) from None


def profile_names() -> tuple[str, ...]:
    return tuple(sorted({*_REGISTRY, *_BUILT_IN}))
