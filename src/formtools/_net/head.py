"""An answer's head read as Chromium reads it, before h11 frames the message.

h11, the HTTP/1.1 parser under httpcore, refuses the whole answer for a header line it finds
malformed, and has no option to do otherwise: a value holding ``\\x0b`` or ``\\x0c``, a name
holding a byte that is no token character (``X P``, ``X\\xe9P``), a space before the colon, a
line without a colon or with an empty name, a bare CR. Chromium 156 loads every one of these
answers (tests/test_browser_headers.py, live). Its rule (``HttpUtil::AssembleRawHeaders`` and
``HttpUtil::HeadersIterator``, net/http/http_util.cc): the head ends at ``\\n\\n`` or
``\\n\\r\\n``; after the status line it is split at every run of CR and LF; a line beginning
with a space or tab continues a previous line that holds a colon after a non-empty name (its
spaces and tabs trimmed, one space joining); a line without a colon, with an empty name, a
name beginning with a space or tab, or a name that is no token (spaces and tabs around it
trimmed) is dropped; the value is what follows the colon, spaces and tabs trimmed. A NUL byte
anywhere in the head fails the load.

So this minimal pre-pass reads each head that way (:class:`HeadReader`) and hands h11 only what
it frames the message by: the status line and the ``Content-Length``, ``Transfer-Encoding`` and
``Connection`` lines. The fetch reads every header from :attr:`HeadReader.head`, the headers as
Chromium read them; h11 never sees the others, so they cannot refuse the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import httpcore

__all__ = ["MAX_HEAD_BYTES", "Head", "HeadReader"]

#: The longest head read: what httpcore lets h11 hold of an incomplete event (100 KiB), the
#: bound formtools had before this pre-pass took the head from h11.
MAX_HEAD_BYTES = 100 * 1024

# the head's end (net::HttpUtil::LocateEndOfHeaders): an LF, maybe one CR, then an LF
_END = re.compile(rb"\n\r?\n")
_LINE_BREAKS = re.compile(rb"[\r\n]+")
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+")
_LWS = b" \t"
# the headers h11 frames a message by: the only ones it is handed
_FRAMING = frozenset({b"content-length", b"transfer-encoding", b"connection"})


@dataclass(frozen=True)
class Head:
    """One answer's status line and headers (names and values as Chromium keeps them, in order)."""

    status_line: bytes
    headers: tuple[tuple[bytes, bytes], ...]

    @property
    def informational(self) -> bool:
        """Whether it is a 1xx head other than 101, after which another head comes (h11 and
        httpcore read past them)."""
        parts = self.status_line.split(None, 2)
        return len(parts) > 1 and len(parts[1]) == 3 and parts[1].startswith(b"1") and parts[1] != b"101"

    def for_h11(self) -> bytes:
        """The head h11 is handed: the status line and the framing lines, CR LF after each."""
        lines = [self.status_line]
        lines += [name + b": " + value for name, value in self.headers if name.lower() in _FRAMING]
        return b"\r\n".join(lines) + b"\r\n\r\n"


def _continuable(line: bytes) -> bool:
    # a header line a following space- or tab-led line continues (IsLineSegmentContinuable)
    name, colon, _ = line.partition(b":")
    return bool(colon) and bool(name) and name[0] not in _LWS


def parsed(head: bytes) -> Head:
    """``head`` (up to its blank line) read as Chromium reads it."""
    if b"\0" in head:
        raise httpcore.RemoteProtocolError("the answer's head holds a NUL byte, which Chromium refuses")
    status_line, *lines = _LINE_BREAKS.split(head.strip(b"\r\n"))
    joined: list[bytes] = []
    continuable = False
    for line in lines:
        if continuable and line[0] in _LWS:
            joined[-1] += b" " + line.strip(_LWS)
        else:
            joined.append(line)
            continuable = _continuable(line)
    headers = []
    for line in joined:
        name, colon, value = line.partition(b":")
        if not colon or not name or name[0] in _LWS:
            continue
        name = name.strip(_LWS)
        if _TOKEN.fullmatch(name):
            headers.append((name, value.strip(_LWS)))
    return Head(status_line, tuple(headers))


class HeadReader:
    """What a connection reads, with each answer's head replaced by :meth:`Head.for_h11`. A
    head is expected after every write (httpcore sends a request whole before it reads the
    answer, and reuses a connection only once the answer has been read), the rest passes as it
    comes."""

    def __init__(self) -> None:
        self._pending = bytearray()  # a head's bytes read so far
        self._searched = 0  # how far the end was looked for: a head trickled in is searched once
        self._in_head = False
        self.head: Head | None = None  #: the last head read

    def request_sent(self) -> None:
        self._in_head = True
        self.head = None

    def feed(self, data: bytes) -> bytes:
        """What to hand h11 for ``data`` (``b""`` while a head is incomplete; at the end of the
        stream, given ``b""``, the incomplete head as it came, for h11 to refuse)."""
        if not self._in_head:
            return data
        if not data:
            self._in_head = False
            pending, self._pending = bytes(self._pending), bytearray()
            return pending
        self._pending += data
        out = b""
        while self._in_head:
            end = _END.search(self._pending, max(self._searched - 2, 0))
            self._searched = len(self._pending)
            if end is None:
                if len(self._pending) > MAX_HEAD_BYTES:
                    raise httpcore.RemoteProtocolError(f"the answer's head is longer than {MAX_HEAD_BYTES} bytes")
                return out
            if end.end() > MAX_HEAD_BYTES:
                raise httpcore.RemoteProtocolError(f"the answer's head is longer than {MAX_HEAD_BYTES} bytes")
            self.head = parsed(bytes(self._pending[: end.end()]))
            del self._pending[: end.end()]
            self._searched = 0
            out += self.head.for_h11()
            self._in_head = self.head.informational
        rest, self._pending = bytes(self._pending), bytearray()
        return out + rest
