"""WARC and WARC.gz archives, read honestly: every record up to the first damage, then the damage.

warcio reads a gzip member that was cut short as if it had ended, and a record whose bytes run
out before its ``Content-Length`` as if it were shorter: a truncated download looks like a
smaller archive, and the records after the cut are silently missing. So this module does the two
checks warcio leaves out. It decompresses gzip members itself, knowing whether the last one
reached its end (and its CRC), and it checks that each record's block was as long as it said.
A damaged archive yields :class:`Damage` (path, byte offset, record index, what went wrong)
after every record read before it; the caller counts it and decides whether that is fatal.

Each record also says where it lies in the file (:class:`Location`), so that one pass can index
an archive without decoding bodies and other processes can read the records they are given on
their own (:func:`record_at`): ``formtools batch`` sends its workers locations, not page bytes,
except for the records a gzip member holds after others, whose bodies the index reads.
"""

from __future__ import annotations

import functools
import io
import pickle
import tempfile
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import IO, Any, BinaryIO, cast

# zlib-ng inflates the same gzip data (same format, same CRC checks, same errors) about twice as
# fast as the zlib Python links: a crawl's archives are read twice (the index, then each worker's
# records), and inflating was the largest single cost of both.
from zlib_ng import zlib_ng as zlib

from formtools._spec.coding import CODINGS, CodingError, codings_to_undo, decoder, refused_codings, too_many_codings
from formtools._spec.head import Head, RefusedHead, parsed
from formtools._spec.mime import AnswerHead

_InflateError: type[Exception] = zlib.error  # type: ignore[assignment]  # (the stub: an instance)

__all__ = [
    "DAMAGED", "Damage", "Location", "Record", "Span", "SpanAbandoned", "SpanEnd", "Undecodable",
    "begins_gzip", "first_record_member", "record_at", "warc_records", "warc_span",
]

#: What every damage report says after the archive's path: the Spark job counts its rows by it.
DAMAGED = ": damaged archive at byte "

_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 16
#: the most bytes one step of inflating gives: 64 KiB of gzip data can hold 64 MiB (a member
#: of zeros), which the reader inflated at once (a 1 GB record of them: 184 MB of memory)
_INFLATED = 1 << 20


@dataclass(frozen=True)
class Location:
    """Where a record lies in its archive file, enough to read it alone: ``length`` bytes of the
    file as stored from ``offset`` (WARC.gz: the gzip members holding the record; None: up to
    the end of the file, for a record whose last member had not ended when it was read), then
    ``skip`` bytes of the decompressed data before the record's first byte (0 unless a member
    holds several records)."""

    offset: int
    length: int | None
    skip: int
    gzip: bool


@dataclass(frozen=True)
class Record:
    """A ``response`` record with HTTP headers: its target URI, HTTP ``Content-Type``, body (at
    most the caller's byte cap plus one byte, so an oversized body is recognised) and where it
    is in the file. ``has_body`` is false (and ``body`` empty) for a record whose body an index
    left undecoded (see :func:`warc_records`). ``error`` says why a record whose archive is
    sound holds no page formtools can read (a content coding it does not decode, a corrupt
    one, a record split into segments); its ``body`` is then empty."""

    index: int
    url: str | None
    content_type: str | None
    body: bytes
    location: Location
    has_body: bool = True
    error: str | None = None
    head: AnswerHead = AnswerHead()


@dataclass(frozen=True)
class Damage:
    """Where an archive stops being readable: ``offset`` is where the damaged record begins in
    the file as stored (for WARC.gz: its gzip member), ``record`` its 0-based index."""

    path: str
    offset: int
    record: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}{DAMAGED}{self.offset:,} (record {self.record}): {self.reason}"


def _answer_head(http_headers: Any) -> AnswerHead:
    """What of a record's HTTP head decides what Chromium makes of the answer, read from the
    head's bytes as the fetch reads a live answer's (:meth:`formtools._spec.head.Head.answer_head`:
    each line split at its commas, only spaces and tabs trimmed: warcio's values are trimmed of
    every Unicode white space, so ``\\x0ctext/html`` was HTML, which Chromium does not read)."""
    return _chromium_head(http_headers).answer_head


def _chromium_head(http_headers: Any) -> Head:
    """The record's HTTP head as Chromium reads its bytes (kept by :func:`_http_parser_class`)."""
    head: Head = http_headers.chromium_head
    return head


def begins_gzip(head: bytes) -> bool:
    """Whether data beginning with ``head`` (its first two bytes, or what there is) is gzip."""
    return bool(head) and _GZIP_MAGIC.startswith(head[:2])


class _GzipMembers(io.RawIOBase):
    """The members of a gzip stream decompressed one after another (RFC 1952 allows many; WARC.gz
    has one per record). ``complete`` is false when the input ended inside a member."""

    def __init__(
        self, raw: BinaryIO | io.RawIOBase, at: int = 0, members_before: int = 0, limit: int | None = None
    ) -> None:
        self._raw = raw
        self._limit = limit  # (see Span.limit)
        self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
        self._inside = False  # bytes of the current member were fed and its end not yet seen
        self._pending = memoryview(b"")  # inflated and not yet read (a view: no copy per read)
        # where the data read so far ends in the file (``at``: where ``raw`` begins in it)
        self.consumed = at
        self._tail = b""  # the last of them, not inflated yet (see _inflated)
        self.member_start = at  # where the member being inflated begins
        self.members_done = members_before  # members inflated to their end (and CRC)
        self.exhausted = False
        self._error: Exception | None = None  # the stream ends once the bytes before it are read
        self._produced = 0  # decompressed bytes given out by members so far
        # where the last member to pass its CRC check ends in the decompressed data
        self.verified_through = 0
        # each member begun and not yet forgotten: [compressed start, decompressed start,
        # compressed end once it has ended]; a deque, since the oldest are forgotten one by one
        self._spans: deque[list[int]] = deque()

    def readable(self) -> bool:
        return True

    @property
    def complete(self) -> bool:
        return not self._inside

    @property
    def error(self) -> Exception | None:
        return self._error

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            if self._error is not None:
                return 0  # the bytes before the corruption were all read: the stream ends here
            if self._tail:  # compressed bytes a bounded inflate left: they end where read ended
                chunk, self._tail = self._tail, b""
            else:
                if self._limit is not None and self.consumed >= self._limit:
                    raise _PastLimit(self.consumed)
                chunk = self._raw.read(_CHUNK)
                if not chunk:
                    self.exhausted = True
                    return 0
                self.consumed += len(chunk)
            self._pending = memoryview(self._inflated(chunk, self.consumed - len(chunk)))
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size

    def _inflated(self, chunk: bytes, at: int) -> bytes:
        out = []
        end = at + len(chunk)
        while chunk:
            if not self._inside:
                self.member_start = end - len(chunk)
                self._spans.append([self.member_start, self._produced, -1])
            self._inside = True
            try:
                inflated = self._inflate.decompress(chunk, _INFLATED)
            except _InflateError as error:
                self._error = error
                break
            out.append(inflated)
            self._produced += len(inflated)
            if not self._inflate.eof:
                self._tail = self._inflate.unconsumed_tail
                break
            chunk = self._inflate.unused_data
            self._spans[-1][2] = end - len(chunk)
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
            self._inside = False
            self.members_done += 1
            self.verified_through = self._produced
        return out[0] if len(out) == 1 else b"".join(out)

    def member_at(self, position: int) -> int:
        """Where the member holding decompressed byte ``position`` begins in the file (the last
        member begun at or before it: an empty member before a record's own is passed over).
        ``member_start`` is the last member begun, which read-ahead can put several members
        past the record warcio is parsing."""
        return self._holding(position)[0] if self._spans else self.member_start

    def into_member(self, position: int) -> int:
        """How far decompressed byte ``position`` lies into the member holding it: what a reader
        of the record beginning there alone must inflate and throw away first (0 with one record
        per member; in a WARC gzipped whole, the archive up to the record)."""
        return position - self._holding(position)[1]

    def _holding(self, position: int) -> list[int]:
        """The span of the member holding decompressed byte ``position`` (see :meth:`member_at`),
        the first one remembered if ``position`` is before it."""
        return next((span for span in reversed(self._spans) if span[1] <= position), self._spans[0])

    def forget_before(self, position: int) -> None:
        """Forget the members wholly before decompressed byte ``position``: no record still to
        be located or read begins before it. Called for every record, whatever its type, so
        that a long run of records never located (requests, metadata) leaves no trail."""
        spans = self._spans
        while len(spans) > 1 and spans[1][1] <= position:
            spans.popleft()

    def ended_before(self, offset: int) -> int:
        """How many members had ended (and passed their CRC check) among those that begin before
        the member at ``offset``, when every member before it has ended (read-ahead may have
        ended some after it, which are not counted)."""
        return self.members_done - sum(1 for span in self._spans if span[0] >= offset and span[2] >= 0)

    def locate(self, start: int, end: int) -> Location:
        """The members holding decompressed bytes ``start`` to ``end`` (records are located in
        file order: the members wholly before ``start`` are forgotten)."""
        self.forget_before(start)
        spans = self._spans
        first = spans[0]
        last = next(
            (span for span, after in zip(spans, islice(spans, 1, None)) if after[1] >= end),
            spans[-1],
        )
        length = last[2] - first[0] if last[2] >= 0 else None
        return Location(first[0], length, start - first[1], gzip=True)


@dataclass(frozen=True)
class Span:
    """Where a reading of part of a WARC.gz begins and ends (see :func:`warc_span`): ``start``
    is a gzip member beginning a record; the records and members before it are counted in
    ``records_before`` and ``members_before`` (what damage reports number records by), when
    known. The span ends before the first record that begins a member at or after ``until``.

    ``limit``: ``start`` is a guess, and the reading gives up (:class:`SpanAbandoned`) rather than
    read the file past ``limit``. A wrong guess can begin a record that never ends (a member that
    continues another record's page, whose text is a record header with a huge
    ``Content-Length``): read to its end, every span of an archive full of them read the rest
    of the file (quadratic in the archive)."""

    start: int
    until: int
    records_before: int = 0
    members_before: int = 0
    limit: int | None = None


@dataclass(frozen=True)
class SpanAbandoned:
    """A span read from a guess reached its :attr:`Span.limit` (``offset``) inside a record: it
    says nothing; the span is to be read from where the span before it ends."""

    offset: int


class _PastLimit(Exception):
    """Raised by :class:`_GzipMembers` asked to read past its limit (see :attr:`Span.limit`)."""


@dataclass(frozen=True)
class SpanEnd:
    """Where a span's reading stopped: ``offset``, the gzip member the next record begins (the
    file's end after its last record); ``records`` and ``members``, how many the span read."""

    offset: int
    records: int
    members: int


def warc_records(
    stream: BinaryIO, path: str, max_bytes: int, *, bodies: bool = True
) -> Iterator[Record | Damage]:
    """The ``response`` records of the archive ``stream`` in file order, then a :class:`Damage`
    if the archive is truncated or corrupt (nothing follows it). Without ``bodies``, an index of
    the archive for :func:`record_at`: a body sent with a transfer or content coding (chunked,
    gzip …) is left undecoded (``has_body`` false); a plain one is read all the same, since its
    bytes pass by anyway and cost nothing more to keep. So is every body of a record that does
    not begin its gzip member (``location.skip`` above 0): :func:`record_at` would inflate the
    member from its start to reach it, so reading each record of a WARC gzipped whole that way
    would inflate the archive once per record.

    A WARC.gz record is given only once its gzip member has passed its CRC check, so a record
    whose bytes were corrupted never comes out (with one record per member, as WARC.gz is
    written; a member holding several records holds them back until it ends)."""
    # without a span nothing ends one
    return cast(Iterator[Record | Damage], _walk(stream, path, max_bytes, bodies, None))


def warc_span(
    stream: BinaryIO, path: str, max_bytes: int, span: Span
) -> Iterator[Record | Damage | SpanEnd | SpanAbandoned]:
    """The ``response`` records of one span of a WARC.gz (``stream`` positioned at
    ``span.start``), as :func:`warc_records` gives them, then where the span ended
    (:class:`SpanEnd`), or the damage that ended the archive in it. Read from a gzip member
    that begins a record, the archive reads as it does from its start: a member holds no
    state of the members before it, and between records the reader holds none either; only
    the numbers damage reports count the records and members before the span, which is why
    the span says them. A reading that reaches ``span.limit`` ends in :class:`SpanAbandoned`."""
    return _walk(stream, path, max_bytes, True, span)


def _walk(
    stream: BinaryIO, path: str, max_bytes: int, bodies: bool, span: Span | None
) -> Iterator[Record | Damage | SpanEnd | SpanAbandoned]:
    head = stream.read(2)
    rest = _Prefixed(head, stream)
    members = None
    if begins_gzip(head):
        members = _GzipMembers(rest, span.start, span.members_before, span.limit) if span else _GzipMembers(rest)
    iterator = _archive_iterator(io.BufferedReader(members if members is not None else rest))
    records = iter(iterator)  # (closed when the walk ends: see _archive_iterator)
    held = _HeldRecords()

    def located(record: Record, start: int, end: int) -> Record:
        if members is not None:
            where = members.locate(start, end)
        else:
            where = Location(start, end - start, 0, gzip=False)
        return replace(record, location=where)

    def checked(damage: Damage | None = None) -> Iterator[Record | Damage]:
        """The held records whose members have all passed their CRC check (all of them in a
        plain WARC), up to the damaged record, then the damage."""
        while (first := held.first()) is not None:
            record, _, end = first
            if members is not None and end > members.verified_through:
                break
            if damage is not None and record.index >= damage.record:
                break
            yield located(*held.pop())
        if damage is not None:
            yield damage

    def damage_at(reason: str, read_through: bool = True, at: int | None = None) -> Damage:
        """The damage warcio noticed, unless broken gzip data explains it (a cut or a flipped
        byte garbles what warcio then reads). ``read_through`` false: reading stopped before
        the end of the data (a line too long), so a member not ended yet is no cut. ``at``:
        where the damaged record begins in the decompressed data (else warcio's offset, where
        the record being read begins)."""
        position = iterator.offset if at is None else at
        offset = members.member_at(position) if members is not None else position
        cut = read_through or (members is not None and members.error is not None)
        return (cut and _gzip_damage(path, members)) or Damage(path, offset, current, reason)

    # the index of the record being read (or whose header warcio is parsing)
    current = span.records_before if span else 0
    try:
        for record in records:
            start = iterator.offset  # warcio's position: in the decompressed data
            if span is not None and members is not None and members.into_member(start) == 0:
                member = members.member_at(start)
                if member >= span.until:
                    yield from checked()  # every member before this one has ended
                    if held.first() is None:
                        yield SpanEnd(member, current - span.records_before, members.ended_before(member) - span.members_before)
                        return
            if members is not None:
                oldest = held.first()
                members.forget_before(oldest[1] if oldest is not None else start)
            if record.format != "warc":  # warcio reads any text as an ARC record
                yield from checked(Damage(path, 0, current, "not a WARC archive"))
                return
            if not (record.rec_headers.get_header("Content-Length") or "").strip().isdigit():
                yield from checked(damage_at("the record's header is cut short or has no Content-Length"))
                return
            body = b""
            is_response = record.rec_type == "response" and record.http_headers is not None
            # a record deep in a member is read here, once: reading it alone inflates the member
            # up to it again (see record_at)
            shares_member = members is not None and members.into_member(start) > 0
            has_body = is_response and (bodies or shares_member or _plain(record.http_headers))
            unread = _unreadable(record) if is_response else None
            if has_body and unread is None:
                try:
                    body = _payload(record, max_bytes)
                except Undecodable as error:
                    unread = str(error)
            while record.raw_stream.read(_CHUNK):  # the rest of the block: its length is checked
                pass
            missing = getattr(record.raw_stream, "limit", 0)
            if missing:
                yield from checked(damage_at(f"the record ends {missing:,} bytes early"))
                return
            end = iterator.fh.tell() - iterator.reader.rem_length()  # the block's end
            warnings = iterator.err_count
            iterator.read_to_end()  # (what warcio does next): the blank lines after the block
            # the next line is this record's to explain, unless a gzip member ended in between
            # (its record ended there: the line is the next record's damage)
            between = members is not None and members.member_at(end) != members.member_at(iterator.offset)
            misplaced = not (between or _begins_record(iterator.next_line))
            if iterator.err_count > warnings or misplaced:
                yield from checked(damage_at(_NEXT_RECORD_MISPLACED, read_through=False, at=start))
                return
            if is_response:
                url = record.rec_headers.get_header("WARC-Target-URI")
                answer_head = _answer_head(record.http_headers)
                record_read = Record(current, url, answer_head.content_type, body, _NOWHERE, has_body, unread, answer_head)
                held.append((record_read, start, end))
            current += 1
            yield from checked()
    except _PastLimit as error:  # (warcio lets any exception but EOFError through)
        yield SpanAbandoned(error.args[0])
        return
    except Exception as error:  # warcio fails on corrupt input with any exception
        yield from checked(damage_at(_reason(error), not isinstance(error, LineTooLong)))
        return
    finally:
        records.close()
    if members is not None and (members.error is not None or not members.complete):
        yield from checked(_gzip_damage(path, members))
    elif current == 0 and head.strip():
        yield Damage(path, 0, 0, "not a WARC archive")
    elif members is None and iterator.offset < rest.delivered:
        # warcio ends quietly on a record whose header the file cut short
        yield Damage(path, iterator.offset, current, "the record's header is cut short")
    else:
        while held.first() is not None:
            yield located(*held.pop())
        if span is not None:
            end = members.consumed if members is not None else span.start + rest.delivered
            done = members.members_done if members is not None else 0
            yield SpanEnd(end, current - span.records_before, done - span.members_before)


_NOWHERE = Location(0, 0, 0, gzip=False)  # a held record's, until its members are known

#: A record's block is followed by two blank lines and the next record's ``WARC/`` line (WARC
#: 1.1 §4); warcio, finding another line there, printed a warning on standard error and read
#: on, so a ``Content-Length`` short of the block gave the record's page cut short, silently,
#: and three lines of noise, and one too long gave the page with the next record's header in
#: it. (A length too long by one to three bytes takes only the blank lines: no reader can tell
#: without the block's digest.)
_NEXT_RECORD_MISPLACED = (
    "the next record does not begin where this one ends (its Content-Length is wrong, or "
    "the bytes after it are damaged)"
)


def _begins_record(line: bytes | None) -> bool:
    """Whether the first line after a record's blank lines can begin the next record: none (the
    archive ends), a ``WARC/`` line, or a line the data cuts short (reported as the next
    record's header cut short)."""
    return line is None or line.startswith(b"WARC/") or not line.endswith(b"\n")


class Undecodable(ValueError):
    """A record holding no page formtools can read, in an archive that is sound: its line is an
    error, and the archive reads on."""


def _unreadable(record: Any) -> str | None:
    """Why a response record holds no whole page, known from its headers alone: one split into
    segments (WARC 1.1 §5.8: its ``continuation`` records hold the rest, which formtools does
    not join, so the first segment alone would be read as a page cut short)."""
    if record.rec_headers.get_header("WARC-Segment-Number") is not None:
        return "a segmented record (WARC-Segment-Number): its segments are not joined"
    return None


def _header_lines(http_headers: Any, name: str) -> list[str]:
    """Every value of the header ``name``, one per line (warcio's ``get_header`` gives the first)."""
    return [value for key, value in http_headers.headers if key.lower() == name.lower()]


def _transfer_codings(http_headers: Any) -> list[str]:
    listed = (c.strip().lower() for line in _header_lines(http_headers, "Transfer-Encoding") for c in line.split(","))
    return [c for c in listed if c and c != "identity"]


def _payload(record: Any, max_bytes: int) -> bytes:
    """The body of a response record as the browser got it, at most ``max_bytes`` plus one byte
    (see :class:`Record`): de-chunked and decoded here a bounded piece at a time, so the work
    and memory stop with the cap. warcio's own decoding read a whole chunk at once (a 100 MB
    chunk: 200 MB of memory) and inflated it at once (a chunked gzip body of 1 MB: 2 GB), and
    its ``br`` decoder fails with the brotli module of today (AttributeError: the archive was
    reported damaged at that record and every record after it was lost).

    The content codings are the ones Chromium decodes, read from every ``Content-Encoding``
    line as the fetch reads them (:func:`~formtools._spec.coding.codings_to_undo`: a list
    naming ``identity``, an empty name or a coding Chromium does not know leaves the body as it
    stands; a list whose load Chromium fails is :class:`Undecodable`, as it is the fetch's
    error, :func:`~formtools._spec.coding.refused_codings`). A transfer coding other than chunked, more codings than Chromium decodes
    (:data:`~formtools._spec.coding.MAX_CODINGS`) and one that turns out corrupt past its start
    are :class:`Undecodable`; a body whose first bytes are not in its coding is read as it
    stands, as warcio reads it (archives that store the decoded body under the original
    ``Content-Encoding``). After a head Chromium reads no body after (1xx, 204, 205, 304) the
    body is empty, and a head Chromium fails the answer for (differing ``Content-Disposition``
    values, :meth:`~formtools._spec.head.Head.checked`) is :class:`Undecodable`."""
    head = _chromium_head(record.http_headers)
    try:
        head.checked()
    except RefusedHead as error:
        raise Undecodable(str(error)) from None
    if not head.has_body:
        return b""
    transfer = _transfer_codings(record.http_headers)
    chunked = bool(transfer) and transfer[-1] == "chunked"
    lines = _header_lines(record.http_headers, "Content-Encoding")
    codings = [*codings_to_undo(lines), *transfer[: -1 if chunked else None]]
    for coding in codings:
        if coding not in CODINGS:
            raise Undecodable(f"the body's transfer coding {coding!r} is not decoded")
    failure = refused_codings(lines) or too_many_codings(len(codings))
    if failure is not None:
        raise Undecodable(failure)
    if not (chunked or codings):
        plain: bytes = record.raw_stream.read(max_bytes + 1)
        return plain
    pieces: Iterator[bytes] = _dechunked(record.raw_stream) if chunked else _pieces(record.raw_stream)
    for coding in reversed(codings):
        pieces = _decoded(pieces, coding)
    body = bytearray()
    for piece in pieces:
        body += piece
        if len(body) > max_bytes:
            break
    return bytes(body[: max_bytes + 1])


def _pieces(stream: Any) -> Iterator[bytes]:
    while piece := stream.read(_CHUNK):
        yield piece


def _dechunked(stream: Any) -> Iterator[bytes]:
    """The data of a chunked body (RFC 9112 §7.1) a bounded piece at a time. A size line that
    is not one ends the chunking: what follows is read as it stands, as warcio reads a body
    that says it is chunked and is not."""
    while True:
        line = stream.readline(64)
        size = line.rstrip(b"\r\n").split(b";")[0].strip()
        if not line.endswith(b"\n") or not size or any(c not in b"0123456789abcdefABCDEF" for c in size):
            yield line
            yield from _pieces(stream)
            return
        left = int(size, 16)
        if not left:
            return
        while left:
            piece = stream.read(min(left, _CHUNK))
            if not piece:
                return  # the block ends inside the chunk: what it held is the body
            left -= len(piece)
            yield piece
        stream.readline(64)  # the chunk's CRLF


#: How much of a coded body may go in without deciding whether it is in its coding (gzip's magic
#: number, a zlib header or output decides); past it, an error is the coding's corruption. Brotli
#: has no magic number and its metadata blocks give no output, nor do raw deflate's empty stored
#: blocks: the reader kept all it was given, copying it at every piece (a 32 MiB br body of
#: metadata: 7.8 s, held whole). Chromium sniffs a deflate body's zlib header in as few bytes
#: (1,000: gzip_source_stream.cc's kMaxZlibHeaderSniffBytes).
_SNIFFED_BYTES = 64 * 1024


def _decoded(pieces: Iterator[bytes], coding: str) -> Iterator[bytes]:
    """``pieces`` decoded, each step giving at most about :data:`_CHUNK` bytes (a gzip bomb
    costs what is read of it, not what it would inflate to). A body whose first
    :data:`_SNIFFED_BYTES` are not in its coding is taken as stored decoded."""
    layer = decoder(coding)
    taken = bytearray()  # what went in while the coding was undecided
    sniffing = True
    for piece in pieces:
        data = piece
        while True:
            try:
                out = layer.feed(data, _CHUNK)
            except CodingError as error:
                if layer.decided or not sniffing:
                    raise Undecodable(f"the body's {coding} coding is corrupt ({error})") from None
                yield bytes(taken + data)  # not in its coding from the start: stored decoded
                yield from pieces
                return
            if sniffing and not layer.decided and len(taken) + len(data) <= _SNIFFED_BYTES:
                taken += data
                break
            sniffing, taken = False, bytearray()
            yield out
            if layer.ended:  # bytes after the coded data are not fed on (nor kept)
                return
            if not layer.held:
                break
            data = b""
    try:
        yield layer.flush()
    except CodingError as error:
        raise Undecodable(f"the body's {coding} coding is corrupt ({error})") from None


#: The longest line read as a WARC or HTTP header line (or a chunk size, or the blank lines
#: between records). Servers refuse header lines far shorter (8 KiB is common); a longer line is
#: damage, found after reading at most this much, instead of a whole file without a newline (any
#: non-WARC file named .warc) read as one line.
MAX_LINE = 1 << 20

#: The most bytes of lines read one after another with no block between: a record's WARC and
#: HTTP headers and the blank lines before them. warcio keeps every header line as Python
#: objects, about 17 times their size (29 MB of HTTP header lines: 484 MB, 13 s), and a body is
#: capped, so the headers must be too; Chromium refuses a response whose headers pass 256 KiB.
MAX_HEADERS = 1 << 20

#: The bytes of held records (bodies, plus a little for the rest) kept in memory; past it they
#: wait in a temporary file.
HELD_IN_MEMORY = 16 << 20
_RECORD_OVERHEAD = 512


class LineTooLong(ValueError):
    """A line longer than :data:`MAX_LINE` where warcio reads a line, or header lines longer
    than :data:`MAX_HEADERS` together."""


def _archive_iterator(stream: io.BufferedIOBase) -> Any:
    """warcio's record iterator over ``stream``, reading lines with :class:`_LineReader`
    (warcio's own reader grows a line a block at a time by copying it: quadratic in its length).

    Its records come from a generator it holds, which holds it: a reference cycle, so a reading
    left before the archive's end (every span of a batch, every :func:`record_at`) kept the
    whole reader (the member's inflater, the last inflated bytes, warcio's buffers, the record)
    until the garbage collector's rare full collection. A worker's memory grew by 9-11 MiB
    over 10,000 pages in spans. So each caller closes the generator (``iter`` of the iterator)
    when it is done reading, which ends the cycle and frees the reader at once."""
    from warcio.archiveiterator import ArchiveIterator

    iterator = ArchiveIterator(stream)
    iterator.INC_RECORD = ""  # its warning on standard error: warc_records reports the damage
    # its reader is made here and first used when iterating; the stream is never gzip (members
    # are inflated by _GzipMembers), so none of warcio's decompression is lost
    iterator.reader = _line_reader(iterator.fh)
    iterator.loader.http_parser = _http_parser_class()([], False)
    return iterator


class _KeptLines:
    """A stream whose lines are kept as they are read (no closure, no class per reading: a
    reference cycle would wait for the collector, see :func:`_archive_iterator`)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.kept: list[bytes] = []

    def readline(self, *args: Any) -> bytes:
        line: bytes = self._stream.readline(*args)
        self.kept.append(line)
        return line


@functools.cache
def _http_parser_class() -> type:
    """warcio's HTTP header parser, reading the head Chromium reads: past a 1xx head (not 101)
    to the answer's head after it, as Chromium does (warcio read the 1xx head and took the final
    answer for its body), and keeping the head's bytes as Chromium reads them
    (``chromium_head``, :func:`formtools._spec.head.parsed`) and each ``Content-Encoding`` value
    as the browser reads it: warcio strips every Unicode white space from a value's ends
    (``str.strip``), so ``gzip\xa0`` read as gzip, which Chromium does not decode (only spaces
    and tabs are trimmed, formtools._spec.coding.codings_to_undo). Made once, as
    :func:`_line_reader_class`."""
    from warcio.statusandheaders import StatusAndHeadersParser

    class _HttpParser(StatusAndHeadersParser):  # type: ignore[misc]  # (warcio has no type stubs)
        def parse(self, stream: Any, full_statusline: Any = None) -> Any:
            read = self._parse_one(stream, full_statusline)
            while read.chromium_head.informational:
                try:
                    read = self._parse_one(stream, None)
                except EOFError:  # (no answer after it: the 1xx head stands, bodiless)
                    break
            return read

        def _parse_one(self, stream: Any, full_statusline: Any) -> Any:
            lines = _KeptLines(stream)
            read = super().parse(lines, full_statusline)
            read.chromium_head = _read_as_chromium(b"".join(lines.kept))
            coding = b"content-encoding:"
            raw = [
                self.decode_header(line[len(coding) :].rstrip(b"\r\n").strip(b" \t"))
                for line in lines.kept
                if line[: len(coding)].lower() == coding
            ]
            kept = [index for index, (name, _) in enumerate(read.headers) if name.lower() == "content-encoding"]
            if len(kept) == len(raw):  # (a value folded over lines, obs-fold, stays warcio's)
                for index, value in zip(kept, raw):
                    read.headers[index] = ("Content-Encoding", value)
            return read

    return _HttpParser


def _read_as_chromium(head: bytes) -> Head:
    """``head`` as Chromium reads it; a head it refuses (a NUL byte) read without its headers,
    as an answer that shows nothing."""
    try:
        return parsed(head)
    except RefusedHead:
        return Head(b"", ())


def _line_reader(stream: Any) -> Any:
    return _line_reader_class()(stream)


@functools.cache
def _line_reader_class() -> type:
    """The class, made once: a class is its own reference cycle, so one made per reading was
    garbage for the collector's full collection (and warcio loads only when an archive is read)."""
    from warcio.bufferedreaders import BufferedReader

    class _LineReader(BufferedReader):  # type: ignore[misc]  # (warcio has no type stubs)
        """warcio's buffered reader whose ``readline`` joins the blocks of a line once (linear in
        its length) and refuses a line longer than :data:`MAX_LINE`, and lines longer than
        :data:`MAX_HEADERS` read one after another (``read``, which reads a block, ends a run)."""

        run = 0  # the bytes of the lines read since the last read()

        def read(self, length: int | None = None) -> bytes:
            self.run = 0
            data: bytes = super().read(length)
            return data

        def readline(self, length: int | None = None) -> bytes:
            parts: list[bytes] = []
            size = 0
            while length is None or size < length:
                self._fillbuff()
                if self.empty():
                    break
                part: bytes = self.buff.readline(-1 if length is None else length - size)
                parts.append(part)
                size += len(part)
                if size > MAX_LINE:
                    raise LineTooLong(
                        f"a line longer than {MAX_LINE:,} bytes (no WARC or HTTP header line is)"
                    )
                if part.endswith(b"\n"):
                    break
            self.run += size
            if self.run > MAX_HEADERS:
                raise LineTooLong(
                    f"header lines longer than {MAX_HEADERS:,} bytes together (no WARC or HTTP "
                    "header is: Chromium refuses response headers past 256 KiB)"
                )
            return b"".join(parts)

    return _LineReader


class _HeldRecords:
    """The records read and waiting for their gzip member's CRC check, in file order, each with
    its first and end offsets in the decompressed data. In memory up to :data:`HELD_IN_MEMORY`
    bytes, past that in a temporary file (deleted when closed): a WARC gzipped whole is one
    member, so every record waits for the archive's end, and memory must not grow with it."""

    def __init__(self) -> None:
        self._memory: deque[tuple[Record, int, int]] = deque()
        self._memory_bytes = 0
        self._spill: IO[bytes] | None = None  # once spilling, every later record goes there
        self._spilled = 0
        self._next_spilled = 0  # where the oldest spilled record is in the file

    def append(self, held: tuple[Record, int, int]) -> None:
        size = _held_size(held)
        if self._spill is None and self._memory_bytes + size <= HELD_IN_MEMORY:
            self._memory.append(held)
            self._memory_bytes += size
            return
        if self._spill is None:
            self._spill = tempfile.TemporaryFile()
        self._spill.seek(0, io.SEEK_END)
        pickle.dump(held, self._spill, pickle.HIGHEST_PROTOCOL)
        self._spilled += 1

    def first(self) -> tuple[Record, int, int] | None:
        """The oldest record held (None if none is)."""
        if not self._memory and self._spill is not None:
            self._spill.seek(self._next_spilled)
            held = cast(tuple[Record, int, int], pickle.load(self._spill))
            self._next_spilled = self._spill.tell()
            self._spilled -= 1
            self._memory.append(held)
            self._memory_bytes += _held_size(held)
            if not self._spilled:
                self._spill.close()
                self._spill, self._next_spilled = None, 0
        return self._memory[0] if self._memory else None

    def pop(self) -> tuple[Record, int, int]:
        """The oldest record held, no longer held (:meth:`first` found it)."""
        held = self._memory.popleft()
        self._memory_bytes -= _held_size(held)
        return held


def _held_size(held: tuple[Record, int, int]) -> int:
    return len(held[0].body) + _RECORD_OVERHEAD


def _plain(http_headers: Any) -> bool:
    """Whether warcio gives the body as its bytes stand (no transfer or content coding)."""
    return not (
        http_headers.get_header("Transfer-Encoding") or http_headers.get_header("Content-Encoding")
    )


def record_at(stream: BinaryIO, where: Location, max_bytes: int) -> bytes:
    """The body of the ``response`` record at ``where`` in the archive file ``stream`` (as
    :func:`warc_records` gives it: at most ``max_bytes`` plus one byte), reading only the bytes
    ``where`` covers, after inflating the ``where.skip`` bytes of its member before it. The
    archive was checked when it was indexed; a record that no longer reads (the file changed
    since) raises :class:`ValueError`, one whose body cannot be read :class:`Undecodable` (the
    ``error`` of its :class:`Record`)."""
    stream.seek(where.offset)
    window = _Window(stream, where.length)
    raw: io.RawIOBase = _GzipMembers(window) if where.gzip else window
    reader = io.BufferedReader(raw)
    if len(reader.read(where.skip)) != where.skip:
        raise ValueError(f"the archive ends before byte {where.offset:,}")
    records = iter(_archive_iterator(reader))
    try:
        record = next(records)
    except StopIteration:
        raise ValueError(f"no record at byte {where.offset:,}") from None
    try:
        if record.rec_type != "response" or record.http_headers is None:
            raise ValueError(f"no response record at byte {where.offset:,}")
        unread = _unreadable(record)
        if unread is not None:
            raise Undecodable(unread)
        return _payload(record, max_bytes)
    finally:
        records.close()  # (see _archive_iterator)


class _Window(io.RawIOBase):
    """At most ``length`` bytes of ``stream`` from where it is (None: to its end)."""

    def __init__(self, stream: BinaryIO, length: int | None) -> None:
        self._stream = stream
        self._left = length

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._left is None:
            return self._stream.read(size)
        wanted = self._left if size < 0 else min(size, self._left)
        data = self._stream.read(wanted)
        self._left -= len(data)
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _gzip_damage(path: str, members: _GzipMembers | None) -> Damage | None:
    """Corrupt or cut gzip data, which explains whatever warcio then made of the record. With
    one record per member (as WARC.gz is written) the member's number is the record's index."""
    if members is None or members.complete and members.error is None:
        return None
    if members.error is not None:
        reason = f"corrupt gzip data ({members.error})"
    else:
        reason = "the file ends inside a gzip member"
    return Damage(path, members.member_start, members.members_done, reason)


def _reason(error: Exception) -> str:
    if isinstance(error, LineTooLong):
        return str(error)
    if type(error).__name__ == "ArchiveLoadFailed":
        return str(error).splitlines()[0]
    return f"the record cannot be parsed ({type(error).__name__})"


class _Prefixed(io.RawIOBase):
    """``stream`` with the bytes already read from it put back in front."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        self._prefix = prefix
        self._stream = stream
        self.delivered = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            size = min(len(buffer), len(self._prefix))
            buffer[:size] = self._prefix[:size]
            self._prefix = self._prefix[size:]
            self.delivered += size
            return size
        data = self._stream.read(len(buffer))
        buffer[: len(data)] = data
        self.delivered += len(data)
        return len(data)


#: How far past a candidate gzip header its first record's ``WARC/`` must come out: a header
#: may carry a name, a comment and extra fields before the deflated data (archives' writers add
#: a few dozen bytes at most; a guess missed is no error, see first_record_member).
_HEADER_READ = 1 << 10
#: The candidates :func:`first_record_member` looks at per read.
_SCAN = 1 << 18
#: The bytes it may feed to candidates, per byte of its span: the magic can come every three
#: bytes (a page of them in a stored member), each candidate fed up to _HEADER_READ bytes.
_SCAN_WORK = 8
_MEMBER_HEADER = _GZIP_MAGIC + b"\x08"  # (deflate: the one method gzip has)


def first_record_member(stream: BinaryIO, start: int, end: int) -> int | None:
    """The first offset from ``start`` and before ``end`` where a gzip member seems to begin a
    record: gzip's magic and method, inflating into ``WARC/``. A guess the caller must confirm:
    compressed bytes hold the magic by chance (about once in 16 MB), and a member's data could
    begin with ``WARC/`` without beginning a record (an archive stored in an archive).
    :func:`formtools._crawl.batch.run_batch` confirms it by the span before, which reads up to
    exactly where its own records end. No guess (None) is as safe: the span is then read from
    where the span before ends, so the work spent guessing is bounded by the span's size."""
    position = start  # where the window begins in the file
    work = _SCAN_WORK * (end - start) + 16 * _HEADER_READ
    while position < end:
        stream.seek(position)
        window = stream.read(_SCAN + _HEADER_READ)
        found = window.find(_MEMBER_HEADER)
        while 0 <= found < _SCAN and position + found < end:
            work -= _HEADER_READ
            if work < 0:
                return None
            if _inflates_to_record(window[found : found + _HEADER_READ]):
                return position + found
            found = window.find(_MEMBER_HEADER, found + 1)
        if len(window) <= _SCAN:
            return None  # the file ends in this window
        position += _SCAN
    return None


def _inflates_to_record(data: bytes) -> bool:
    inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        return bool(inflate.decompress(data, 5) == b"WARC/")
    except _InflateError:
        return False
