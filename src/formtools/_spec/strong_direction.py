"""The first strong character of a text, as Chromium 156 reads it for ``dir=auto``.

HTML's auto directionality (a ``dirname`` entry, an element's ``dir=auto``) takes the first
character whose bidi class is L (left to right) or R or AL (right to left). Chromium reads
the class from its ICU's Unicode data, not from the Unicode of Python's ``unicodedata`` (14.0
in Python 3.11, another in each Python): there a letter of a script added since (Kawi,
Nag Mundari) has no class and an unassigned code point none either, where ICU gives each its
class, and an unassigned one that of its block (L, or R/AL in a right-to-left block: ``U+05FF``
is R). So the classes are Chromium's own, recorded from the browser by
``scripts/record_strong_directions.py`` into ``strong_directions.json``: runs of code points
of one answer (L, R for R or AL, ``-`` for neither).
"""

from __future__ import annotations

import functools
import json
from bisect import bisect_right
from importlib.resources import files

__all__ = ["first_strong_direction"]

_FILE = "strong_directions.json"
_DIRECTIONS = {"L": "ltr", "R": "rtl"}


@functools.cache
def _runs() -> tuple[tuple[int, ...], str]:
    """Where each run starts, and the runs' letters (read once, when a direction is first asked)."""
    recorded = json.loads(files(__package__).joinpath(_FILE).read_text("utf-8"))
    return tuple(recorded["starts"]), recorded["directions"]


def first_strong_direction(text: str) -> str | None:
    """``ltr`` or ``rtl`` from the first character of ``text`` with a strong direction, None
    when it has none."""
    starts, letters = _runs()
    for char in text:
        direction = _DIRECTIONS.get(letters[bisect_right(starts, ord(char)) - 1])
        if direction is not None:
            return direction
    return None
