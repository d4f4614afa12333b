"""Chromium's Unicode: every Unicode class formtools reads where it answers as Chromium 156 does.

Chromium reads characters' classes from its ICU, whose data is Unicode 17.0 (measured: the code
points the browser's ``/\\p{Cn}/v`` finds unassigned are exactly Unicode 17.0's, of 1,114,112),
not from Python's ``unicodedata`` (14.0 in Python 3.11, another in each Python): there a letter
or mark of a script added since (Kawi, Garay, Sidetic) has no class, no combining class and no
Bidi_Class, and a composition added since (Tulu-Tigalari, Kirat Rai) is not made. So the
classes come from ``unicodedata2`` pinned at Chromium's Unicode version (pyproject.toml: it
moves with Chromium's ICU), which agrees with the browser on every assigned code point's strong
direction and on every code point's being a mark (measured). The one class it cannot give is
an unassigned code point's direction, which ICU takes from its block (L, or R/AL in a
right-to-left block: ``U+05FF`` is R) and ``dir=auto`` reads in any text: that is recorded from
the browser by ``scripts/record_unicode_classes.py`` into ``unicode_classes.json``, as runs of
code points of one answer.
"""

from __future__ import annotations

import functools
import json
from bisect import bisect_right
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # unicodedata2 ships no types: it is unicodedata's API at another version
    import unicodedata as unicodedata2
else:
    import unicodedata2

__all__ = [
    "bidi_class",
    "combining_class",
    "first_strong_direction",
    "is_assigned",
    "is_mark",
    "nfc",
]

_FILE = "unicode_classes.json"
_DIRECTIONS = {"L": "ltr", "R": "rtl"}  # the strong answers (R: R or AL; "-": neither)


@functools.cache
def _strong_runs() -> tuple[tuple[int, ...], str]:
    """Where each run of one strong direction starts, and the runs' answers (read once, when
    first asked)."""
    recorded = json.loads(files(__package__).joinpath(_FILE).read_text("utf-8"))["strong"]
    return tuple(recorded["starts"]), recorded["values"]


def first_strong_direction(text: str) -> str | None:
    """``ltr`` or ``rtl`` from the first character of ``text`` with a strong direction (bidi
    class L, or R or AL), None when it has none."""
    starts, values = _strong_runs()
    for char in text:
        direction = _DIRECTIONS.get(values[bisect_right(starts, ord(char)) - 1])
        if direction is not None:
            return direction
    return None


def is_assigned(char: str) -> bool:
    """Whether Chromium's Unicode assigns ``char`` (a later Unicode's letter is unassigned)."""
    return unicodedata2.category(char) != "Cn"


def is_mark(char: str) -> bool:
    """Whether ``char`` is a combining mark (General_Category M)."""
    return unicodedata2.category(char)[0] == "M"


def bidi_class(char: str) -> str:
    """The Bidi_Class of an assigned character (``L``, ``R``, ``AL``, ``EN``, ``NSM``...)."""
    return unicodedata2.bidirectional(char)


def combining_class(char: str) -> int:
    """The Canonical_Combining_Class of ``char`` (9: a virama)."""
    return unicodedata2.combining(char)


def nfc(text: str) -> str:
    """``text`` in Normalization Form C."""
    return unicodedata2.normalize("NFC", text)
