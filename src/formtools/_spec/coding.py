"""HTTP content codings (RFC 9110 §8.4.1): inflating a body's ``gzip`` and ``deflate`` a bounded
piece at a time. A fetched answer (:mod:`formtools._net.fetch`) and an archived one (a WARC
record's, :mod:`formtools._crawl.warc`) are decoded by the same layer, never past what their
caller allows. Only ``zlib``: ``formtools batch`` reading archives loads it without the network
stack (importing that costs half a second of start-up)."""

from __future__ import annotations

import zlib

__all__ = ["CodingError", "Inflate"]

#: what a corrupt body raises
CodingError = zlib.error


class Inflate:
    """One ``gzip`` (``x-gzip``) or ``deflate`` layer, decoding no more than it is allowed to
    produce: what a call leaves undecoded is :attr:`pending`, for the next call (a WARC record's
    body is decoded a bounded piece at a time) or the sign of an answer over its byte cap."""

    CODINGS = ("gzip", "x-gzip", "deflate")

    def __init__(self, coding: str) -> None:
        self._deflate = coding == "deflate"
        self._fresh = True
        self._obj = zlib.decompressobj(zlib.MAX_WBITS if self._deflate else zlib.MAX_WBITS | 16)

    @property
    def pending(self) -> bytes:
        """Input the last call took in and did not decode, its ``limit`` reached."""
        return self._obj.unconsumed_tail

    @property
    def ended(self) -> bool:
        """Whether the coded data has ended (what follows it is no part of the body)."""
        return self._obj.eof

    def feed(self, data: bytes, limit: int) -> bytes:
        try:
            out = self._obj.decompress(data, limit)
        except zlib.error:
            if not (self._deflate and self._fresh):
                raise
            self._obj = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some servers send
            out = self._obj.decompress(data, limit)
        self._fresh = False
        return out

    def flush(self) -> bytes:
        return self._obj.flush()
