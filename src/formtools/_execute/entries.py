"""Stage 6 — entry list: a filled form → the name/value pairs a submission carries.

#constructing-the-form-data-set, applied to the immutable :class:`~formtools._forms.state.FormState`.
Where Chromium 156 differs from the text of the standard it is followed (a submit input without
``value`` sends its label ``Submit``), and each such place says so.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from formtools._execute.encode import Entry, File
from formtools._forms.state import FormState
from formtools._forms.model import Control
from formtools._spec.unicode_classes import first_strong_direction
from formtools._spec.microsyntax import ascii_lowercase, non_negative_integer

__all__ = ["construct_entry_list", "directionality"]

# #auto-directionality-form-associated-elements: controls whose dirname is submitted.
_DIRNAME_INPUT_TYPES = frozenset(
    {"hidden", "text", "search", "tel", "url", "email", "password", "submit", "reset", "button"}
)
_SUBMIT_LABEL = "Submit"  # Chromium's default label of <input type=submit>, which it submits


def directionality(control: Control, value: str) -> str:
    """dirname's value, as Chromium 156 sends it: the control's own dir when it is ``ltr`` or
    ``rtl`` in any case, *as written* (``dir=RTL`` sends ``RTL``); ``auto``: the value's first
    strong character (ltr when none); a telephone input without dir: ltr; else (no dir, or an
    invalid one) the nearest HTML ancestor's, ``<html>`` included (see ``Control.inherited_dir``);
    ltr at the top."""
    own = control.attributes.get("dir")
    if own is None and control.type == "tel":
        return "ltr"  # a telephone number reads left to right whatever surrounds it (Chromium)
    if own is not None and ascii_lowercase(own) in ("ltr", "rtl"):
        return own
    if own is not None and ascii_lowercase(own) == "auto":
        return first_strong_direction(value) or "ltr"
    return control.inherited_dir or "ltr"


_INT_MAX = 2**31 - 1
_BREAKABLE = re.compile(r" +|[^ ]+?(?:-(?=[^0-9 ])|(?= )|$)")


def _hard_wrapped(text: str, columns: int) -> str:
    """The textarea wrapping transformation for ``wrap=hard``, as Chromium lays it out with its
    default monospace font: a line holds ``cols + 1`` characters, spaces hang past the edge,
    lines break at a space or after a hyphen not followed by a digit (UAX #14) before the piece
    that does not fit, and a longer piece is cut."""
    width = columns + 1
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _BREAKABLE.findall(paragraph):
            if token.startswith(" "):
                line += token
                continue
            if line and len(line) + len(token) > width:
                lines.append(line)
                line = ""
            # a longer piece is cut into lines where it stands (cutting what is left off the
            # piece each time copied the rest per line: quadratic, a 800 KB word at cols=1 4 s)
            cut = (len(token) - 1) // width * width
            lines.extend(token[at : at + width] for at in range(0, cut, width))
            line += token[cut:]
        lines.append(line)
    return "\n".join(lines)


def _textarea_value(control: Control, value: str) -> str:
    if control.attributes.get("wrap", "").lower() != "hard":
        return value
    # cols is a non-negative integer as Chromium reads one (" 5", "+5", "5px" are 5), kept in
    # an int: 0, none, or above 2147483647 is the default 20
    cols = non_negative_integer(control.attributes.get("cols")) or 20
    return _hard_wrapped(value, cols if cols <= _INT_MAX else 20)


def construct_entry_list(
    state: FormState,
    submitter: Control | None,
    *,
    encoding: str,
    image_coordinates: tuple[int, int] = (0, 0),
    files: Mapping[str, Sequence[File]] | None = None,
) -> tuple[Entry, ...]:
    """The entry list of the form in ``state`` as ``submitter`` submits it.

    ``encoding`` is the form's encoding (what ``_charset_`` reports); ``files`` maps a file
    input's name to the files chosen for it (none: one empty entry, as a browser sends).
    """
    entries: list[Entry] = []
    for control in state.form.controls:
        if control.disabled or control.tag in ("fieldset", "output", "object"):
            continue
        if control.is_button and control is not submitter:
            continue
        current = state.of(control)
        kind = control.type
        if control.tag == "input" and kind in ("checkbox", "radio") and not current.checked:
            continue
        name = control.attributes.get("name")
        if control.tag == "input" and kind == "image":
            prefix = f"{name}." if name else ""
            x, y = image_coordinates
            entries += [(f"{prefix}x", str(x)), (f"{prefix}y", str(y))]
            continue
        if not name:
            continue
        if control.tag == "select":
            entries += [
                (name, option.value)
                for option, selected in zip(control.options, current.selected)
                if selected and not option.disabled
            ]
            continue
        value = _value(control, current.value, encoding, files or {})
        if isinstance(value, list):
            entries += [(name, item) for item in value]
            continue
        dirname = control.attributes.get("dirname")
        direction = None
        if dirname is not None and (
            control.tag == "textarea" or (control.tag == "input" and kind in _DIRNAME_INPUT_TYPES)
        ):
            # Chromium also sends an empty dirname, and a submit button's before its value
            direction = (dirname, directionality(control, value))
        if direction and control.is_submit_button:
            entries.append(direction)
            direction = None
        entries.append((name, value))
        if direction:
            entries.append(direction)
    return tuple(entries)


def _value(
    control: Control, value: str, encoding: str, files: Mapping[str, Sequence[File]]
) -> str | list[File]:
    attributes = control.attributes
    if control.tag == "textarea":
        return _textarea_value(control, value)
    if control.tag == "button":
        return attributes.get("value", "")
    kind = control.type
    if kind in ("checkbox", "radio"):
        return attributes.get("value", "on")
    if kind == "file":
        chosen = list(files.get(attributes.get("name", ""), ()))
        return chosen or [File(filename="", content_type="application/octet-stream")]
    if kind == "hidden":
        name = attributes.get("name", "")
        return encoding if name.lower() == "_charset_" else value
    if kind == "submit":
        return attributes.get("value", _SUBMIT_LABEL)
    return value
