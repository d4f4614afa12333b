"""Attributes authors get wrong: misspelled tool attributes (``toolparamdescripton``,
``tool-name``, ``toolpropdescription``), and boolean attributes written ``="false"``.

A browser ignores an attribute it does not know, so a typo in a tool attribute silently loses a
description or a whole tool. HTML attribute names are case-insensitive (the parser lowercases
them, so ``toolName`` *is* ``toolname``); everything else is compared as written. An attribute
counts as a would-be tool attribute when it starts with ``tool`` (except a few ordinary words,
such as the ``tooltip`` of many widget libraries) or is close to a known name (a
:class:`difflib.SequenceMatcher` ratio of at least 0.8); lint names the nearest known name.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from functools import lru_cache

from formtools._spec.microsyntax import keyword
from formtools._forms.model import Form
from formtools._synth.diagnostics import Diagnostic
from formtools._synth.hints import OVERRIDES

__all__ = ["KNOWN_ATTRIBUTES", "nearest_tool_attribute", "unknown_attributes"]

_ON_FORMS = ("toolname", "tooldescription", "tooltitle", "toolautosubmit", *OVERRIDES)
_ON_CONTROLS = ("toolparamdescription", "toolparamtitle", "toolparamsensitive")
#: The tool attributes Chromium reads, formtools' ``html``/``portable`` ones, and its hint overrides.
KNOWN_ATTRIBUTES = frozenset((*_ON_FORMS, *_ON_CONTROLS))
_ORDINARY = ("tooltip", "toolbar", "toolkit")  # words of their own, not tool attributes
_CLOSE = 0.8  # a ratio this high is a typo of a known name, whatever it starts with
_SUGGEST = 0.6  # below this, a tool… attribute gets no suggestion


@lru_cache(maxsize=4096)
def nearest_tool_attribute(name: str, on_form: bool = False) -> tuple[bool, str | None]:
    """Whether ``name`` (lowercased) is an unknown would-be tool attribute, and the known name
    nearest to it (None when nothing is close): one meant for the element (a form's or a
    control's) when one is close, else any."""
    if name in KNOWN_ATTRIBUTES:
        return False, None
    matches = difflib.get_close_matches(name, sorted(KNOWN_ATTRIBUTES), n=1, cutoff=_SUGGEST)
    nearest = matches[0] if matches else None
    close = nearest is not None and difflib.SequenceMatcher(None, name, nearest).ratio() >= _CLOSE
    tool_like = name.startswith("tool") and not name.startswith(_ORDINARY)
    own = difflib.get_close_matches(name, _ON_FORMS if on_form else _ON_CONTROLS, n=1, cutoff=_SUGGEST)
    return close or tool_like, own[0] if own else nearest


def unknown_attributes(form: Form) -> Iterator[Diagnostic]:
    """An ``unknown-attribute`` warning for each would-be tool attribute on the form or one of
    its controls."""
    owners: list[tuple[Mapping[str, str], str | None, int | None]] = [(form.attributes, None, form.line)]
    owners += [(control.attributes, control.describe, control.line) for control in form.controls]
    for attributes, field, line in owners:
        for name in attributes:
            unknown, nearest = nearest_tool_attribute(name, field is None)
            if unknown:
                hint = f", did you mean {nearest}?" if nearest else ""
                detail = f"unknown attribute {name}{hint}"
                yield Diagnostic("unknown-attribute", form.describe, field, line, detail)


#: boolean attributes that change what a tool is or does, on the form and on its controls
#: (a fieldset's ``disabled`` disables every control in it)
_BOOLEANS_ON_FORMS = ("toolautosubmit", "novalidate")
_BOOLEANS_ON_CONTROLS = ("required", "disabled", "readonly", "checked", "multiple", "formnovalidate")


def false_booleans(form: Form) -> Iterator[Diagnostic]:
    """A ``false-boolean`` error for each boolean attribute written ``="false"``: HTML reads a
    boolean attribute by its presence alone (#boolean-attributes), so ``toolautosubmit="false"``
    submits without asking and ``required="false"`` requires — the opposite of what its author
    wrote (Chromium 156 does the same, ``tests/test_lint_truth.py`` measures it)."""
    owners: list[tuple[Mapping[str, str], tuple[str, ...], str | None, int | None]] = [
        (form.attributes, _BOOLEANS_ON_FORMS, None, form.line)
    ]
    owners += [(c.attributes, _BOOLEANS_ON_CONTROLS, c.describe, c.line) for c in form.controls]
    for attributes, booleans, field, line in owners:
        for name in booleans:
            value = attributes.get(name)
            if value is not None and keyword(value) == "false":
                yield Diagnostic("false-boolean", form.describe, field, line, f'{name}="{value}" turns {name} on')
