"""An answer's head read as Chromium reads it (``HttpUtil::AssembleRawHeaders``,
``HttpUtil::HeadersIterator``, ``HttpResponseHeaders``): the one reading of header lines into
values for every reader of an answer, the live fetch (formtools._net.head, which frames the
message by it) and the stored ones (WARC records, Scrapy responses), so that each reads the
same answer as the others do. No network code: a WARC reader imports none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formtools._spec.mime import AnswerHead, chromium_content_type

__all__ = ["Head", "RefusedHead", "parsed"]


class RefusedHead(ValueError):
    """A head Chromium fails the answer for (the message says why, in one line)."""


_LINE_BREAKS = re.compile(rb"[\r\n]+")
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+")
_LWS = b" \t"
# a header value's pieces (net::HttpUtil::ValuesIterator): a quoted run, a comma (which
# splits values when outside quotes), or anything else
_VALUE_PIECE = re.compile(rb"""(?s)"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|[^,"']+|,""")
# the headers whose every line is one value (net::HttpUtil::IsNonCoalescingHeader)
_NON_COALESCING = frozenset({
    b"date", b"expires", b"last-modified", b"location", b"retry-after", b"set-cookie",
    b"www-authenticate", b"proxy-authenticate", b"strict-transport-security",
})
# the headers Chromium fails an answer for when they differ (HttpStreamParser::ParseResponseHeaders)
_SINGLE = (b"content-disposition", b"location")
# Chromium's version of a status line (HttpResponseHeaders::ParseVersion): "http" in any case, a
# slash, then a digit, and the digit after the first dot anywhere after that slash
_VERSION = re.compile(rb"(?i:http)[^/]*/(?P<major>.)[^.]*\.(?P<minor>.)?")
# its status code: the digits after the first run of spaces (ParseStatusLine; 200 without them)
_CODE = re.compile(rb"[^ ]* +(?P<code>[0-9]+)")
_INT_MAX = 2**31 - 1
# the codes whose answer has no body (HttpStreamParser::CalculateResponseBodySize)
_NO_BODY = frozenset({204, 205, 304})
@dataclass(frozen=True)
class Head:
    """One answer's status line and headers (names and values as Chromium keeps them, in order)."""

    status_line: bytes
    headers: tuple[tuple[bytes, bytes], ...]

    @property
    def status(self) -> int:
        """The status code as Chromium reads it (``ParseStatus``): the digits after the first
        run of spaces, however many (a value past ``INT_MAX`` clamped to it), 200 without them.
        h11 refused a code that is not three digits (``2000``, ``099``), which Chromium loads."""
        status = _CODE.match(self.status_line)
        return _clamped_decimal(status["code"], _INT_MAX) if status else 200

    @property
    def informational(self) -> bool:
        """Whether it is a 1xx head other than 101, after which another head comes (h11 and
        httpcore read past them; Chromium's ``response_code() / 100 == 1``)."""
        return self.status // 100 == 1 and self.status != 101

    def values(self, name: bytes) -> list[bytes]:
        """Every value of the header ``name`` (lowercase), as Chromium enumerates them
        (``HttpResponseHeaders::AddHeader``): a line per value for a non-coalescing header, else
        each line split at its commas outside quotes, spaces and tabs trimmed."""
        lines = [value for key, value in self.headers if key.lower() == name]
        if name in _NON_COALESCING:
            return lines
        return [part.strip(_LWS) for value in lines for part in _split(value)]

    @property
    def http11(self) -> bool:
        """Whether Chromium reads the answer as HTTP/1.1 or later (``ParseStatusLine``, which
        clamps a version it cannot read to 1.0)."""
        version = _VERSION.match(self.status_line)
        if version is None or not version["minor"] or not (version["major"] + version["minor"]).isdigit():
            return False
        return (int(version["major"]), int(version["minor"])) >= (1, 1)

    @property
    def chunked(self) -> bool:
        """Whether Chromium de-chunks the body (``HttpResponseHeaders::IsChunkEncoded``)."""
        return self.http11 and any(value.lower() == b"chunked" for value in self.values(b"transfer-encoding"))

    @property
    def content_length(self) -> int | None:
        """The length Chromium reads the body by (``GetContentLength``): the first value, unless
        it is signed, no number or beyond 64 bits (then ``None``: the body runs to the end)."""
        lengths = self.values(b"content-length")
        if self.chunked or not lengths or not lengths[0].isdigit():
            return None
        length = _clamped_decimal(lengths[0], 2**63)
        return None if length == 2**63 else length

    def checked(self) -> Head:
        """This head, unless Chromium fails the answer for it: for differing values of
        ``Content-Length`` (when not chunked), ``Content-Disposition`` or ``Location``, which
        smuggle a second answer (``HttpUtil::HeadersContainMultipleCopiesOfField``)."""
        for name in (b"content-length",) * (not self.chunked) + _SINGLE:
            if len(set(self.values(name))) > 1:
                raise RefusedHead(f"the answer has differing {name.decode()} headers, which Chromium refuses")
        return self

    def as_read(self) -> tuple[tuple[bytes, bytes], ...]:
        """The headers as Chromium reads them: each one Chromium reads as one value
        (``Content-Type``, ``Content-Length``, ``Content-Disposition``, ``Location``) on one line
        holding that value (none when Chromium reads none), the others as they came."""
        kept = tuple((name, value) for name, value in self.headers if name.lower() not in _READ_AS_ONE)
        content_type = chromium_content_type(self.values(b"content-type"))
        location = next((value for value in self.values(b"location") if value), None)
        length = self.content_length
        ones = {
            b"Content-Type": content_type or None,
            b"Content-Length": None if length is None else str(length).encode(),
            b"Content-Disposition": next(iter(self.values(b"content-disposition")), None),
            b"Location": location,
        }
        return kept + tuple((name, value) for name, value in ones.items() if value is not None)

    @property
    def answer_head(self) -> AnswerHead:
        """What of this head decides what Chromium makes of the answer
        (:mod:`formtools._spec.mime`), each header's lines split into values as Chromium splits
        them (:meth:`values`): every reader of a stored answer (WARC, Scrapy) reads it this way,
        as the fetch reads a live one. Values are bytes as they came, read as Latin-1."""
        disposition = next(iter(self.values(b"content-disposition")), None)
        return AnswerHead(
            self.status,
            chromium_content_type(self.values(b"content-type")).decode("latin-1") or None,
            None if disposition is None else disposition.decode("latin-1"),
            tuple(value.decode("latin-1") for name, value in self.headers if name.lower() == b"x-content-type-options"),
            tuple(value.decode("latin-1") for name, value in self.headers if name.lower() == b"content-security-policy"),
        )

    @property
    def has_body(self) -> bool:
        """Whether Chromium reads a body after this head (not after a 1xx, 204, 205 or 304)."""
        return self.status // 100 != 1 and self.status not in _NO_BODY

    def for_h11(self) -> bytes:
        """The head h11 is handed: the framing Chromium reads the message by, CR LF after each
        line (a chunked body is de-chunked by :class:`Dechunker`, h11 reading it to the end it
        is given), with a three-digit code h11 takes that frames the body as Chromium does (the fetch
        reads the code from :attr:`status`): 1xx as it stands, 204 for the codes whose body
        Chromium reads as empty (204, 205, 304: ``HttpStreamParser::CalculateResponseBodySize``),
        else 200."""
        code = self.status if self.informational or self.status == 101 else 204 if self.status in _NO_BODY else 200
        lines = [(b"HTTP/1.1 %d" if self.http11 else b"HTTP/1.0 %d") % code]
        length = self.content_length
        if length is not None:
            lines.append(b"Content-Length: %d" % length)
        if any(value.lower() == b"close" for value in self.values(b"connection")):
            lines.append(b"Connection: close")
        return b"\r\n".join(lines) + b"\r\n\r\n"


def _clamped_decimal(digits: bytes, ceiling: int) -> int:
    """The number ``digits`` (ASCII digits, leading zeros allowed) spell, or ``ceiling`` when
    it is larger, as Chromium's ``StringToInt`` clamps. Never ``int()`` of the whole text:
    Python refuses more than 4,300 digits (a ValueError), and an answer's code or length may
    have any number."""
    significant = digits.lstrip(b"0")
    if len(significant) > len(str(ceiling)):
        return ceiling
    return min(int(significant or b"0"), ceiling)


def _split(value: bytes) -> list[bytes]:
    """``value`` split at its commas outside quotes."""
    parts: list[list[bytes]] = [[]]
    for piece in _VALUE_PIECE.findall(value):
        if piece == b",":
            parts.append([])
        else:
            parts[-1].append(piece)
    return [b"".join(part) for part in parts]


_READ_AS_ONE = frozenset({b"content-type", b"content-length", b"content-disposition", b"location"})



def _continuable(line: bytes) -> bool:
    # a header line a following space- or tab-led line continues (IsLineSegmentContinuable)
    name, colon, _ = line.partition(b":")
    return bool(colon) and bool(name) and name[0] not in _LWS


def parsed(head: bytes) -> Head:
    """``head`` (up to its blank line) read as Chromium reads it."""
    if b"\0" in head:
        raise RefusedHead("the answer's head holds a NUL byte, which Chromium refuses")
    status_line, *lines = _LINE_BREAKS.split(head.strip(b"\r\n"))
    joined: list[list[bytes]] = []  # each line with its continuations, joined once (linear in the head)
    continuable = False
    for line in lines:
        if continuable and line[0] in _LWS:
            joined[-1].append(line.strip(_LWS))
        else:
            joined.append([line])
            continuable = _continuable(line)
    headers = []
    for pieces in joined:
        name, colon, value = b" ".join(pieces).partition(b":")
        if not colon or not name or name[0] in _LWS:
            continue
        name = name.strip(_LWS)
        if _TOKEN.fullmatch(name):
            headers.append((name, value.strip(_LWS)))
    return Head(status_line, tuple(headers))
