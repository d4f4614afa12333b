"""Seeded ``Content-Encoding`` spellings and bodies, for checking that a coded answer is read as
Chromium reads it (tests/test_browser_codings.py, live) and that every reader of formtools reads
it alike (the fetch of pages and call answers, and the WARC reader: tests/test_warc_payload.py).

A spelling lists names drawn from the codings Chromium decodes (any ASCII letter case, spaces
and tabs around), ``identity``, names it does not know, and a decoded name with other white
space next to it (no-break space, NEL), split over one or more header lines, a line sometimes
ending in a comma (an empty last name). The body is coded through the decoded names as listed,
or sent as it stands: which of the two the reader should take is the browser's to say, not this
module's.

Some spellings are ones whose load Chromium 156 fails (ERR_CONTENT_DECODING_FAILED, whatever
the body: formtools._spec.coding.refused_codings): a name with parameters or inner white space
(``gzip;q=1``, ``gzip foo``), a ``"``, ``=`` or ``*``, a space between commas (``gzip, ,gzip``),
and a later line that is empty or begins with a comma. A first line that is empty or a line
ending in commas is no such spelling.
"""

from __future__ import annotations

import gzip
import random
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import brotli

if sys.version_info >= (3, 14):
    from compression import zstd
else:
    from backports import zstd

PAGE = b'<!doctype html><form toolname=coded tooldescription="Sent coded"><input name=q></form>'

CODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda data: gzip.compress(data, 1),
    "x-gzip": lambda data: gzip.compress(data, 1),
    "deflate": zlib.compress,
    "br": lambda data: brotli.compress(data, quality=1),
    "zstd": zstd.compress,
}
OTHER_NAMES = ("identity", "foo", "compress", "dcb", "x-compress", "bzip2")
OTHER_WHITE_SPACE = ("\xa0", "\x85")
# a listed name ({}) made one whose load Chromium fails: parameters, inner white space, its
# marks, nothing but a space between two commas
REFUSED = ("{};q=1", "{} foo", "{}\t;", '"{}"', "{}=", "*", " ", "{} ,\t,x")


@dataclass(frozen=True)
class Coded:
    """An answer's ``Content-Encoding`` lines and body; ``names`` are the names as drawn
    (a coding's name, or ``None`` for one that is not a coding as spelled)."""

    lines: tuple[str, ...]
    body: bytes
    names: tuple[str | None, ...]

    @property
    def headers(self) -> list[tuple[str, str]]:
        return [("Content-Encoding", line) for line in self.lines]


def _cased(name: str, rng: random.Random) -> str:
    return "".join(c.upper() if rng.random() < 0.3 else c for c in name)


def coded(rng: random.Random, page: bytes = PAGE) -> Coded:
    """One seeded spelling and its body. Every body listing only decoded names is coded
    through them all (a body that is not in its codings is a corrupt one: Chromium shows an
    error page, or waits for ever on corrupt brotli)."""
    count = rng.choice([1, 1, 2, 2, 3, 4, 10, 11])
    names: list[str | None] = []
    spelled = []
    for _ in range(count):
        if rng.random() < (0.97 if count >= 10 else 0.75):
            name = rng.choice(sorted(CODERS))
            text = _cased(name, rng)
            if rng.random() < 0.1 and count < 10:
                spot = rng.choice(OTHER_WHITE_SPACE)
                text = spot + text if rng.random() < 0.5 else text + spot
                names.append(None)
            else:
                names.append(name)
            text = rng.choice(["", " ", "\t", " \t "]) + text + rng.choice(["", " ", "\t"])
        else:
            text = rng.choice(["", " "]) + _cased(rng.choice(OTHER_NAMES), rng)
            names.append(None)
        spelled.append(text)
    if count < 10 and rng.random() < 0.2:
        spot = rng.randrange(count)
        spelled[spot] = rng.choice(REFUSED).format(spelled[spot])
        names[spot] = None
    lines, start = [], 0
    while start < count:
        size = rng.randint(1, count - start)
        ends_empty = count < 10 and rng.random() < 0.1
        lines.append(",".join(spelled[start : start + size]) + ("," if ends_empty else ""))
        start += size
    if count < 10 and rng.random() < 0.08:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["", ",", ", gzip", ",br"]))
    if any(not line or line.startswith(",") or line.endswith(",") for line in lines):
        names.append(None)  # an empty name (where in the list does not matter to the body)
    body = page
    if None not in names or rng.random() < 0.5:
        for name in names:
            if name is not None:
                body = CODERS[name](body)
    return Coded(tuple(lines), body, tuple(names))
