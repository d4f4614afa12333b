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

So this minimal pre-pass reads each head that way (:class:`HeadReader`) and hands h11 only the
framing Chromium reads the message by (``HttpStreamParser::ParseResponseHeaders``), spelled so
that h11 takes it: the status line with its version clamped to 1.0 or 1.1 and a three-digit code
that frames the body as Chromium's code does (the fetch reads the code itself from
:attr:`Head.status`), Chromium's ``Content-Length`` (the first value, unless signed, negative or
too large: then the body runs to the end of the connection), and ``Connection: close``. When
Chromium de-chunks (a value among the ``Transfer-Encoding`` lines is ``chunked`` and the version
is 1.1 or later: a 1.0 answer's chunks are its body), :class:`Dechunker` does, by Chromium's
rules, and h11 reads the body to the end it is given. Like Chromium it fails an answer with
differing ``Content-Length`` values (unless chunked), ``Content-Disposition`` values or
``Location`` lines. The fetch reads every header from :meth:`Head.as_read`, the headers as
Chromium read them; h11 never sees the others, so they cannot refuse the answer.
"""

from __future__ import annotations

import re

import httpcore

from formtools._spec.head import Head, RefusedHead, parsed

__all__ = ["MAX_CHUNK_LINE", "MAX_HEAD_BYTES", "Dechunker", "HeadReader"]

#: The longest head read: what httpcore lets h11 hold of an incomplete event (100 KiB), the
#: bound formtools had before this pre-pass took the head from h11.
MAX_HEAD_BYTES = 100 * 1024

# the head's end (net::HttpUtil::LocateEndOfHeaders): an LF, maybe one CR, then an LF
_END = re.compile(rb"\n\r?\n")
# where a status line may begin (HttpUtil::LocateStartOfStatusLine): "http" in any case after
# at most four other bytes; a head that has none in its first eight bytes is HTTP/0.9
_STATUS_START = re.compile(rb"(?is).{0,4}?http")
_STATUS_SLOP = 8


def _read(head: bytes) -> Head:
    """``head`` as Chromium reads it, one it fails the answer for raising httpcore's error
    (which the fetch reports as an answer it cannot read)."""
    try:
        return parsed(head).checked()
    except RefusedHead as error:
        raise httpcore.RemoteProtocolError(str(error)) from None


class HeadReader:
    """What a connection reads, with each answer's head replaced by :meth:`Head.for_h11`. A
    head is expected after every write (httpcore sends a request whole before it reads the
    answer, and reuses a connection only once the answer has been read), the rest passes as it
    comes. As in Chromium (``HttpStreamParser``), a status line may follow up to four other
    bytes, which are dropped; an answer without one is HTTP/0.9, which fails; and a connection
    closed inside a head has what came read as the whole head (h11 refused both), unless it is
    ``cryptographic`` (TLS), where Chromium fails the answer (``ERR_RESPONSE_HEADERS_TRUNCATED``:
    an attacker who cuts the connection must not choose which headers count)."""

    def __init__(self, *, cryptographic: bool = False) -> None:
        self._cryptographic = cryptographic
        self._pending = bytearray()  # a head's bytes read so far
        self._searched = 0  # how far the end was looked for: a head trickled in is searched once
        self._in_head = False
        self._located = False  # the status line's start was found in _pending (which begins there)
        self._chunks: Dechunker | None = None  # the chunked body being read
        self.head: Head | None = None  #: the last head read
        #: whether the connection closed while a body was being read: what came is the body,
        #: however short of its framing (Chromium shows it)
        self.closed_in_body = False

    @property
    def body_ended(self) -> bool:
        """Whether a chunked body's last chunk and trailer have been read: h11 is told the
        body ended (the connection is not read again)."""
        return self._chunks is not None and self._chunks.ended

    def request_sent(self) -> None:
        self._in_head = True
        self._located = False
        self._chunks = None
        self.head = None
        self.closed_in_body = False

    def feed(self, data: bytes) -> bytes:
        """What to hand h11 for ``data`` (``b""`` while a head is incomplete; at the end of the
        stream, given ``b""``, an incomplete head read as whole, or the bytes that came without
        a status line, for h11 to refuse)."""
        if not self._in_head:
            self.closed_in_body = self.closed_in_body or not data
            return data if self._chunks is None else self._chunks.feed(data)
        if not data:
            self._in_head = False
            pending, self._pending = bytes(self._pending), bytearray()
            if self._located and pending:
                if self._cryptographic:
                    raise httpcore.RemoteProtocolError(
                        "the connection closed inside the answer's head, which Chromium refuses over TLS"
                    )
                self.head = _read(pending)
                self._chunks = Dechunker() if self.head.chunked and self.head.has_body else None
                return self.head.for_h11()
            return pending
        self._pending += data
        out = b""
        while self._in_head:
            if not self._located and not self._locate():
                return out
            end = _END.search(self._pending, max(self._searched - 2, 0))
            self._searched = len(self._pending)
            if end is None:
                if len(self._pending) > MAX_HEAD_BYTES:
                    raise httpcore.RemoteProtocolError(f"the answer's head is longer than {MAX_HEAD_BYTES} bytes")
                return out
            if end.end() > MAX_HEAD_BYTES:
                raise httpcore.RemoteProtocolError(f"the answer's head is longer than {MAX_HEAD_BYTES} bytes")
            self.head = _read(bytes(self._pending[: end.end()]))
            del self._pending[: end.end()]
            self._searched = 0
            self._located = False
            out += self.head.for_h11()
            self._in_head = self.head.informational
        self._chunks = Dechunker() if self.head is not None and self.head.chunked and self.head.has_body else None
        rest, self._pending = bytes(self._pending), bytearray()
        return out + (rest if self._chunks is None else self._chunks.feed(rest))

    def _locate(self) -> bool:
        """Whether the status line's start is found (the bytes before it dropped); raises for
        an answer that has none where Chromium looks (``LocateStartOfStatusLine``)."""
        start = _STATUS_START.match(self._pending)
        if start is not None:
            del self._pending[: start.end() - 4]
            self._located = True
            return True
        if len(self._pending) >= _STATUS_SLOP:
            raise httpcore.RemoteProtocolError("the answer has no status line (HTTP/0.9), which Chromium refuses")
        return False


#: The longest chunk-size or trailer line Chromium reads (``HttpChunkedDecoder::kMaxLineBufLen``).
MAX_CHUNK_LINE = 16 * 1024
_HEX_DIGITS = re.compile(rb"[0-9a-fA-F]+")


class Dechunker:
    """A chunked body read as Chromium reads it (``HttpChunkedDecoder``), where h11 refused
    chunk lines that end in a bare LF, and read a chunk size past 64 bits (19 ``f``) as a
    length to wait for. A line ends at LF, one CR before it dropped; a chunk-size line is hex
    digits only (no sign, no ``0x``), then spaces, any extension after a ``;`` ignored, its
    value below 2**63; a chunk's data is followed by an empty line; after the last chunk
    (size 0) trailer lines are skipped up to an empty line, and nothing after it is read. A
    line held unfinished past :data:`MAX_CHUNK_LINE` (Chromium checks the limit only on a line
    not ended within one read) or any other line fails the answer (ERR_INVALID_CHUNKED_ENCODING).
    As in ``ScanForChunkRemaining``, a CR is dropped at the end of each piece read, so a line
    ``3\\r\\r\\n`` is bad read whole and good read as ``3\\r`` then ``\\r\\n``. Each byte is
    looked at once."""

    def __init__(self) -> None:
        self._line = bytearray()  # a line's bytes so far
        self._left = 0  # the current chunk's data still to come
        self._after_data = False  # an empty line must come next
        self._last = False  # the last chunk went by: trailer lines follow
        self.ended = False

    def feed(self, data: bytes) -> bytes:
        """The body's bytes in ``data``."""
        out = bytearray()
        at = 0
        while at < len(data) and not self.ended:
            if self._left:
                taken = data[at : at + self._left]
                out += taken
                at += len(taken)
                self._left -= len(taken)
                self._after_data = not self._left
                continue
            end = data.find(b"\n", at)
            piece = data[at : len(data) if end < 0 else end]
            if piece.endswith(b"\r"):  # a CR at the end of what came is dropped, as Chromium drops it
                piece = piece[:-1]
            if end < 0:  # a partial line, kept whole up to the limit
                if len(self._line) + len(piece) > MAX_CHUNK_LINE:
                    raise httpcore.RemoteProtocolError(f"a chunk line of the answer is longer than {MAX_CHUNK_LINE} bytes")
                self._line += piece
                break
            at = end + 1
            line = bytes(self._line + piece)
            self._line.clear()
            self._read_line(line)
        return bytes(out)

    def _read_line(self, line: bytes) -> None:
        if self._last:
            self.ended = not line  # a trailer line is skipped
        elif self._after_data:
            if line:
                raise httpcore.RemoteProtocolError("a chunk of the answer is not followed by a line break")
            self._after_data = False
        else:
            size = line.partition(b";")[0].rstrip(b" ")
            if not _HEX_DIGITS.fullmatch(size) or int(size, 16) >= 2**63:
                raise httpcore.RemoteProtocolError("a chunk size of the answer is not a hex number below 2**63")
            self._left = int(size, 16)
            self._last = not self._left
