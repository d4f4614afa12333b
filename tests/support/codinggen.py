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
the body: its ContentEncodingsValid fails what HttpUtil::ParseContentEncoding refuses;
formtools._spec.coding.refused_codings): a name with parameters or inner white space
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

import brotlicffi

if sys.version_info >= (3, 14):
    from compression import zstd
else:
    from backports import zstd

PAGE = b'<!doctype html><form toolname=coded tooldescription="Sent coded"><input name=q></form>'

CODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda data: gzip.compress(data, 1),
    "x-gzip": lambda data: gzip.compress(data, 1),
    "deflate": zlib.compress,
    "br": lambda data: brotlicffi.compress(data, quality=1),
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


def _skippable(rng: random.Random) -> bytes:
    """A zstd skippable frame (RFC 8878 §3.1.2: magic 0x184D2A50..5F, a length, that many bytes)."""
    data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    return (0x184D2A50 + rng.randrange(16)).to_bytes(4, "little") + len(data).to_bytes(4, "little") + data


def _gzip_member(page: bytes, rng: random.Random) -> bytes:
    """``page`` as one gzip member (RFC 1952) with seeded header fields (FEXTRA, FNAME,
    FCOMMENT, FHCRC with any value, reserved flags) and a trailer whose CRC-32 and length may
    be wrong: Chromium checks none of them."""
    flags = rng.randrange(256)
    head = b"\x1f\x8b\x08" + bytes([flags]) + bytes(rng.randrange(256) for _ in range(6))
    if flags & 4:
        extra = bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))
        head += len(extra).to_bytes(2, "little") + extra
    for bit in (8, 16):
        if flags & bit:
            head += bytes(rng.randrange(1, 256) for _ in range(rng.randint(0, 30))) + b"\0"
    if flags & 2:
        head += bytes(rng.randrange(256) for _ in range(2))
    raw = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
    crc = zlib.crc32(page) if rng.random() < 0.5 else rng.randrange(1 << 32)
    return head + raw.compress(page) + raw.flush() + crc.to_bytes(4, "little") + (len(page) & 0xFFFFFFFF).to_bytes(4, "little")


def _raw_deflate(page: bytes, rng: random.Random) -> bytes:
    """``page`` as raw deflate (RFC 1951, what some servers send as ``deflate``) followed by
    nothing, its Adler-32 (what a zlib stream ends in), part of it, or four bytes or more of
    something else (Chromium 156 reads raw deflate behind a made-up zlib header, so checks them)."""
    raw = zlib.compressobj(rng.choice([1, 6, 9]), zlib.DEFLATED, -zlib.MAX_WBITS)
    body = raw.compress(page) + raw.flush()
    adler = zlib.adler32(page).to_bytes(4, "big")
    return body + rng.choice([b"", adler, adler[: rng.randint(1, 3)], adler + b"garbage!", b"garbage!", bytes(rng.randrange(256) for _ in range(rng.randint(4, 9)))])


def as_sent(coding: str, page: bytes, rng: random.Random) -> bytes:
    """``page`` in ``coding`` as a server may also send it; what Chromium 156 reads of it is
    the browser's to say (tests/test_browser_codings.py, live): zstd as several frames with
    skippable frames among them (it decodes every frame and skips the others), gzip with any
    header fields and trailer (_gzip_member) followed by a second member or other bytes (it
    ignores what follows the first member's trailer), brotli and zlib-wrapped deflate followed
    by other bytes (ignored after the stream's end, or the Adler-32 check), and raw deflate with
    or without what a zlib stream's Adler-32 would be (_raw_deflate)."""
    if coding == "zstd":
        cuts = sorted(rng.randint(0, len(page)) for _ in range(rng.randint(0, 3)))
        parts = [page[a:b] for a, b in zip([0, *cuts], [*cuts, len(page)])]
        frames = [_skippable(rng) if rng.random() < 0.3 else b"" for _ in parts]
        return b"".join(skip + zstd.compress(part) for skip, part in zip(frames, parts)) + (
            _skippable(rng) if rng.random() < 0.5 else b""
        )
    if coding == "deflate" and rng.random() < 0.5:
        return _raw_deflate(page, rng)
    body = _gzip_member(page, rng) if coding in ("gzip", "x-gzip") else CODERS[coding](page)
    after = rng.choice([b"", b"garbage!", CODERS[coding](b"<p>a second member</p>"), bytes(rng.randrange(256) for _ in range(9))])
    return body + after
