"""HTTP content codings (RFC 9110 §8.4.1): inflating a body's ``gzip`` and ``deflate`` a bounded
piece at a time. A fetched answer (:mod:`formtools._net.fetch`) and an archived one (a WARC
record's, :mod:`formtools._crawl.warc`) are decoded by the same layer, never past what their
caller allows. Only ``zlib``: ``formtools batch`` reading archives loads it without the network
stack (importing that costs half a second of start-up)."""

from __future__ import annotations

import sys
import zlib

__all__ = ["MAX_CODINGS", "CodingError", "Inflate", "too_many_codings"]

#: what a corrupt body raises
CodingError = zlib.error

#: The most content codings a body is decoded through: Chromium 156 loads a page sent in ten
#: (gzip and deflate in any mix) and fails the load of one in eleven
#: (tests/test_browser_codings.py). Each layer holds zlib's state and its 32 KiB window
#: while the body streams, so a header listing ``gzip`` 16,000 times (what 100 KB of header
#: holds) made one fetch hold 600 MB for a body of a few hundred KB, and a WARC record listing
#: 2,000 stopped the archive's reading at that record (RecursionError, every later page lost).
MAX_CODINGS = 10


def too_many_codings(count: int) -> str | None:
    """Why a body in ``count`` gzip/deflate codings is not decoded, or ``None`` when it is:
    asked before a single layer is made."""
    if count <= MAX_CODINGS:
        return None
    return f"the body is in {count} content codings, more than the {MAX_CODINGS} Chromium decodes"


class Inflate:
    """One ``gzip`` (``x-gzip``) or ``deflate`` layer, decoding no more than it is allowed to
    produce: what a call leaves undecoded is :attr:`pending`, for the next call (a WARC record's
    body is decoded a bounded piece at a time) or the sign of an answer over its byte cap."""

    CODINGS = ("gzip", "x-gzip", "deflate")

    def __init__(self, coding: str) -> None:
        self._deflate = coding == "deflate"
        self._head = b""  # a first byte, until a second comes
        self._started = False  # the first two bytes went in
        self._unsure = False  # raw deflate tried after the zlib header failed, no output yet
        self._obj = zlib.decompressobj(zlib.MAX_WBITS if self._deflate else zlib.MAX_WBITS | 16)

    @property
    def pending(self) -> bytes:
        """Input the last call took in and did not decode, its ``limit`` reached."""
        return self._obj.unconsumed_tail

    @property
    def ended(self) -> bool:
        """Whether the coded data has ended (what follows it is no part of the body)."""
        return self._obj.eof

    @property
    def decided(self) -> bool:
        """Whether the data is in this coding as far as its start tells: gzip's magic or a zlib
        header went in, or raw deflate has given output. Until then a :class:`CodingError`
        means the body is not coded at all (the WARC reader then takes it as stored decoded)."""
        return self._started and not self._unsure

    def feed(self, data: bytes, limit: int) -> bytes:
        """Up to ``limit`` bytes decoded from ``data``, the same however the data is split: a
        first byte is held until a second comes, as zlib tells gzip's magic and a zlib header
        (else raw deflate) by the first two, and raw deflate is not taken as decided before it
        gives output. With a first piece of one or two bytes (a chunk, a server's first write),
        raw deflate failed as corrupt, and so did a WARC body stored decoded."""
        if not self._started:
            data, self._head = self._head + data, b""
            if len(data) < 2:
                self._head = data
                return b""
            try:
                out = self._decoded(data, limit)
            except zlib.error:
                if not self._deflate:
                    raise
                self._obj = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some servers send
                self._unsure = True
                out = self._decoded(data, limit)
            self._started = True
            return out
        return self._decoded(data, limit)

    def _decoded(self, data: bytes, limit: int) -> bytes:
        # zlib takes a C ssize_t: a limit beyond it (--max-bytes 2**63-1) is no limit here
        out = self._obj.decompress(data, min(limit, sys.maxsize))
        if out or self._obj.eof:
            self._unsure = False
        return out

    def flush(self) -> bytes:
        head, self._head = self._head, b""
        return (self._obj.decompress(head) if head else b"") + self._obj.flush()
