"""Unicode classes as Chromium 156 reads them: a character's strong direction (``dir=auto``),
and whether it is a combining mark (UTS #46: a host label may not begin with one).

Chromium reads both from its ICU's Unicode data, not from the Unicode of Python's
``unicodedata`` (14.0 in Python 3.11, another in each Python): there a letter or mark of a
script added since (Kawi, Nag Mundari) has no class and an unassigned code point none either,
where ICU gives each its class, and an unassigned one that of its block (L, or R/AL in a
right-to-left block: ``U+05FF`` is R). So the classes are Chromium's own, recorded from the
browser by ``scripts/record_unicode_classes.py`` into ``unicode_classes.json``: for each
class, runs of code points of one answer.
"""

from __future__ import annotations

import functools
import json
from bisect import bisect_right
from importlib.resources import files

__all__ = ["first_strong_direction", "is_mark"]

_FILE = "unicode_classes.json"
_DIRECTIONS = {"L": "ltr", "R": "rtl"}  # the strong answers (R: R or AL; "-": neither)


@functools.cache
def _runs(name: str) -> tuple[tuple[int, ...], str]:
    """Where each run of class ``name`` starts, and the runs' answers (read once, when the
    class is first asked)."""
    recorded = json.loads(files(__package__).joinpath(_FILE).read_text("utf-8"))[name]
    return tuple(recorded["starts"]), recorded["values"]


def _answer(name: str, char: str) -> str:
    starts, values = _runs(name)
    return values[bisect_right(starts, ord(char)) - 1]


def first_strong_direction(text: str) -> str | None:
    """``ltr`` or ``rtl`` from the first character of ``text`` with a strong direction (bidi
    class L, or R or AL), None when it has none."""
    for char in text:
        direction = _DIRECTIONS.get(_answer("strong", char))
        if direction is not None:
            return direction
    return None


def is_mark(char: str) -> bool:
    """Whether ``char`` is a combining mark (General_Category M)."""
    return _answer("mark", char) == "1"
