"""HTTP content codings (RFC 9110 §8.4.1) read as Chromium reads them: which codings a body is
in (:func:`codings_to_undo`, from its ``Content-Encoding`` lines), and a decoder per layer
(:func:`decoder`: ``gzip``, ``deflate``, ``br`` and ``zstd``) that gives a bounded piece at a
time. A fetched answer (:mod:`formtools._net.fetch`: pages and call answers) and an archived
one (a WARC record's, :mod:`formtools._crawl.warc`) are read by this one rule and these
decoders, never past what their caller allows. Only ``zlib`` is imported up front:
``formtools batch`` reading archives loads it without the network stack (importing that costs
half a second of start-up), and the brotli and zstd modules load with their first layer."""

from __future__ import annotations

import sys
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["CODINGS", "MAX_CODINGS", "CodingError", "Decoder", "codings_to_undo", "decoder", "refused_codings", "too_many_codings"]


class CodingError(ValueError):
    """What a body that is not in its coding raises (corrupt data)."""


#: The content codings Chromium 156 decodes, by the names it knows them
#: (``FilterSourceStream::ParseEncodingType``, matched after ASCII lower-casing). Any other
#: name in the list, ``identity`` or an empty one has the whole body used as it stands
#: (tests/test_browser_codings.py).
CODINGS = frozenset({"gzip", "x-gzip", "deflate", "br", "zstd"})

#: The most content codings a body is decoded through: Chromium 156 loads a page sent in ten
#: and fails the load of one in eleven (tests/test_browser_codings.py); a list naming a coding
#: it does not know is not counted, since the body is then used as it stands. Each layer holds
#: its decoder's state and window while the body streams, so a header listing ``gzip`` 16,000
#: times (what 100 KB of header holds) made one fetch hold 600 MB for a body of a few hundred
#: KB, and a WARC record listing 2,000 stopped the archive's reading at that record
#: (RecursionError, every later page lost).
MAX_CODINGS = 10

# what makes Chromium refuse a whole Content-Encoding list (HttpUtil::ParseContentEncoding)
_REFUSING_MARKS = ('"', "=", ";", "*")

# the bytes of ASCII upper case only: Chromium lower-cases a coding with base::ToLowerASCII
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def codings_to_undo(lines: Iterable[str]) -> tuple[str, ...]:
    """The codings a body with the ``Content-Encoding`` header lines ``lines`` is decoded
    through, in the order listed (the last applied last, so undone first), or ``()`` for the
    body as it stands. Chromium (``URLRequestHttpJob::SetUpSourceStream``) splits each line at
    its commas, trims only spaces and tabs from each name and lower-cases it in ASCII; a single
    name that is empty, ``identity`` or not in :data:`CODINGS` makes it pass the raw body
    through, whatever the others are. formtools trimmed every Unicode white space
    (``gzip\\xa0`` was gzip), dropped the names it did not know and decoded the rest
    (``gzip, identity`` and ``gzip, foo`` were gzip), where Chromium decodes neither. The
    lists whose load Chromium fails (``HttpNetworkTransaction::ContentEncodingsValid`` failing a
    header ``HttpUtil::ParseContentEncoding`` refuses) are told by :func:`refused_codings`."""
    names = []
    for line in lines:
        for listed in line.split(","):
            name = listed.strip(" \t").translate(_ASCII_LOWER)
            if name not in CODINGS:
                return ()
            names.append(name)
    return tuple(names)


def refused_codings(lines: Sequence[str]) -> str | None:
    """Why Chromium fails the load of an answer with the ``Content-Encoding`` lines ``lines``
    (ERR_CONTENT_DECODING_FAILED, whatever the body), or ``None``. Before it decodes anything,
    Chromium (``HttpNetworkTransaction::ContentEncodingsValid``, ``HttpUtil::ParseContentEncoding``)
    joins the lines with ``", "`` and refuses the whole list when it holds ``"``, ``=``, ``;`` or
    ``*``, or a name (split at commas, nothing between two commas skipped, spaces and tabs
    trimmed) holding a space or tab, or an empty one, which names no coding it offered in
    ``Accept-Encoding``. So ``gzip;q=1``, ``gzip foo``, ``gzip, ,gzip`` and a second line that
    is empty or begins with a comma fail, where ``gzip,`` and an empty first line do not.
    formtools read these lists by :func:`codings_to_undo` (the body as it stands: a page with
    tools where Chromium shows an error page)."""
    joined = ", ".join(lines)
    if any(mark in joined for mark in _REFUSING_MARKS):
        return 'the Content-Encoding holds a ", =, ; or *'
    for listed in joined.split(","):
        name = listed.strip(" \t")
        if listed and not name:
            return "the Content-Encoding lists an empty name"
        if " " in name or "\t" in name:
            return "a Content-Encoding name holds a space or tab"
    return None


def too_many_codings(count: int) -> str | None:
    """Why a body in ``count`` codings is not decoded, or ``None`` when it is: asked before a
    single layer is made."""
    if count <= MAX_CODINGS:
        return None
    return f"the body is in {count} content codings, more than the {MAX_CODINGS} Chromium decodes"


class Decoder(ABC):
    """One layer of a coded body, decoding no more than it is allowed to produce: what a call
    leaves undecoded is :attr:`held`, for the next call (fed ``b""`` or more data: a WARC
    record's body is decoded a bounded piece at a time) or the sign of an answer over its byte
    cap."""

    @abstractmethod
    def feed(self, data: bytes, limit: int) -> bytes:
        """Up to ``limit`` bytes decoded from ``data`` (and what was held before it), the same
        however the data is split."""

    @property
    @abstractmethod
    def held(self) -> bool:
        """Whether the last call reached its ``limit`` with decoded output still to give."""

    @property
    @abstractmethod
    def ended(self) -> bool:
        """Whether the coded data has ended (what follows it is no part of the body)."""

    @property
    @abstractmethod
    def decided(self) -> bool:
        """Whether the data is in this coding as far as its start tells. Until then a
        :class:`CodingError` means the body is not coded at all (the WARC reader then takes it
        as stored decoded)."""

    def flush(self) -> bytes:
        """What the decoder still holds once the data has all gone in."""
        return b""


def decoder(coding: str) -> Decoder:
    """A fresh layer for ``coding``, one of :data:`CODINGS` (as :func:`codings_to_undo` gives it)."""
    if coding == "br":
        return _Brotli()
    if coding == "zstd":
        return _Zstd()
    if coding == "deflate":
        return _Inflate()
    return _Gzip()


class _Gzip(Decoder):
    """``gzip`` (``x-gzip``, RFC 1952) as Chromium 156 reads it (``GzipSourceStream`` and
    ``GZipHeader``): the first member's header, whose magic number and method are checked and
    whose optional fields are skipped (reserved flags and the header's CRC are not looked at),
    then its raw deflate data, and nothing more: the trailer's CRC-32 and length are not checked
    and what follows the member is no part of the body. zlib's own gzip reading checks them: a
    member with a wrong CRC, which Chromium loads (measured live), was corrupt."""

    def __init__(self) -> None:
        self._start = b""  # the body's first two bytes, as they come
        self._fixed = bytearray()  # the header's first ten bytes, as they come
        # the optional fields still to skip: "xlen" (FEXTRA's length, then an int), a count of
        # bytes, or "zero" (a field ending in a NUL: FNAME, FCOMMENT)
        self._fields: list[str | int] = []
        self._length = bytearray()  # FEXTRA's two length bytes, as they come
        self._in_body = False
        self._obj = zlib.decompressobj(-zlib.MAX_WBITS)

    @property
    def held(self) -> bool:
        return bool(self._obj.unconsumed_tail) and not self._obj.eof  # (the trailer follows the end)

    @property
    def ended(self) -> bool:
        return self._obj.eof

    @property
    def decided(self) -> bool:
        return self._start == b"\x1f\x8b"  # gzip's magic number

    def feed(self, data: bytes, limit: int) -> bytes:
        if not self._in_body:
            data = self._after_header(data)
        if not self._in_body or self._obj.eof:
            return b""
        try:
            # zlib takes a C ssize_t: a limit beyond it (--max-bytes 2**63-1) is no limit here
            out: bytes = self._obj.decompress(self._obj.unconsumed_tail + data, min(limit, sys.maxsize))
        except zlib.error as error:
            raise CodingError(str(error)) from None
        return out

    def _after_header(self, data: bytes) -> bytes:
        """What follows the header in ``data``, once the header is read (``b""`` before)."""
        while data and not self._in_body:
            field = self._fields[0] if self._fields else None
            if len(self._fixed) < 10:
                data = self._fixed_part(data)
            elif field == "zero":
                end = data.find(b"\0")
                data = b"" if end < 0 else data[end + 1 :]
                if end >= 0:
                    self._fields.pop(0)
            elif field == "xlen":
                taken = data[: 2 - len(self._length)]
                self._length += taken
                data = data[len(taken) :]
                if len(self._length) == 2:
                    self._fields[0] = int.from_bytes(self._length, "little")
            elif isinstance(field, int):
                data, self._fields[0] = data[field:], field - min(field, len(data))
            if self._fields and self._fields[0] == 0:
                self._fields.pop(0)
            self._in_body = len(self._fixed) == 10 and not self._fields
        return data

    def _fixed_part(self, data: bytes) -> bytes:
        taken = data[: 10 - len(self._fixed)]
        self._start = (self._start + taken)[:2]
        if not b"\x1f\x8b\x08".startswith(bytes(self._fixed + taken)[:3]):
            raise CodingError("not a gzip member (its magic number and method are 1f 8b 08)")
        self._fixed += taken
        if len(self._fixed) == 10:
            flags = self._fixed[3]
            self._fields = [
                *(["xlen"] if flags & 4 else []),
                *(["zero"] if flags & 8 else []),
                *(["zero"] if flags & 16 else []),
                *([2] if flags & 2 else []),
            ]
        return data[len(taken) :]

    def flush(self) -> bytes:
        try:
            return self._obj.flush()
        except zlib.error as error:
            raise CodingError(str(error)) from None


class _Inflate(Decoder):
    """``deflate`` as Chromium 156 reads it (``GzipSourceStream``, net/filter): a zlib stream
    (RFC 1950), sniffed until it gives output, ends or has taken
    :data:`_ZLIB_HEADER_SNIFF_BYTES`; an error while sniffing has the data read again from its
    start as raw deflate (RFC 1951) behind a made-up zlib header (``78 01``,
    ``InsertZlibHeader``), and an error after that fails the body. So raw deflate is checked
    against an Adler-32 as zlib data is: followed by four bytes or more that are not the
    Adler-32 of its output it fails (Chromium fails the load), followed by fewer it is read
    (Chromium reads a truncated body), and after the Adler-32 nothing more is read. formtools
    read raw deflate with zlib's raw mode, which checks no Adler-32: a page Chromium fails
    (measured live, tests/test_browser_codings.py) gave its tools. The result does not depend
    on how the data is split: zlib holds a split header, and the replay starts from the first
    byte whatever piece the error came in."""

    def __init__(self) -> None:
        self._obj = zlib.decompressobj(zlib.MAX_WBITS)
        self._sniffed = bytearray()  # the input taken while sniffing, to read again as raw deflate
        self._sniffing = True
        self._header = False  # a zlib header went in (two bytes without an error)
        self._gave = False

    @property
    def held(self) -> bool:
        return bool(self._obj.unconsumed_tail)

    @property
    def ended(self) -> bool:
        return self._obj.eof

    @property
    def decided(self) -> bool:
        # a zlib header went in, or the data gave output or ended as deflate
        return self._header or self._gave or self._obj.eof

    def feed(self, data: bytes, limit: int) -> bytes:
        # zlib takes a C ssize_t: a limit beyond it (--max-bytes 2**63-1) is no limit here
        limit = min(limit, sys.maxsize)
        try:
            if not self._sniffing:
                out = self._obj.decompress(self._obj.unconsumed_tail + data, limit)
            else:
                out = self._sniffed_piece(data, limit)
        except zlib.error as error:
            raise CodingError(str(error)) from None
        self._gave = self._gave or bool(out)
        return out

    def _sniffed_piece(self, data: bytes, limit: int) -> bytes:
        """``data`` decoded while the zlib header is not yet trusted (GzipSourceStream's
        ``STATE_SNIFFING_DEFLATE_HEADER``)."""
        self._sniffed += data
        try:
            out: bytes = self._obj.decompress(data, limit)
            self._header = self._header or len(self._sniffed) >= 2
        except zlib.error:
            self._sniffing = False
            self._obj = zlib.decompressobj(zlib.MAX_WBITS)
            self._obj.decompress(b"\x78\x01")
            replayed, self._sniffed = bytes(self._sniffed), bytearray()
            return self._obj.decompress(replayed, limit)
        if out or self._obj.eof or len(self._sniffed) >= _ZLIB_HEADER_SNIFF_BYTES:
            self._sniffing, self._sniffed = False, bytearray()
        return out

    def flush(self) -> bytes:
        try:
            return self._obj.flush()
        except zlib.error as error:
            raise CodingError(str(error)) from None


#: How much of a deflate body is read as a zlib stream before its header is trusted
#: (``kMaxZlibHeaderSniffBytes``): an error within it has the body read as raw deflate.
_ZLIB_HEADER_SNIFF_BYTES = 1000


#: The most input the brotli and zstd decoders are given at once. A zstd frame's decoder gives
#: back what follows its frame as a copy (``unused_data``), so a body of many small frames cost
#: the square of its size when each was given all the rest; a corrupt brotli body that gave
#: output in its first slice is known to be brotli (:attr:`Decoder.decided`) whatever the size
#: of the pieces it came in; brotlicffi copies the input it holds at every call.
_SLICE = 1 << 14


#: The most output asked of the brotli decoder at once: brotlicffi allocates (and zeroes) a
#: buffer of the whole output limit it is given at every call.
_BROTLI_BLOCK = 1 << 16


class _Brotli(Decoder):
    """``br`` (RFC 7932), through brotlicffi. Brotli has no magic number: the data is taken as
    brotli once it gives output. Chromium (``BrotliSourceStream``) reads the stream to its end
    and ignores what follows; the ``brotli`` module failed a call whose input went past the
    end (and dropped that call's output), with no way to tell where the end was, so a page
    with bytes after its stream failed where Chromium shows it. brotlicffi keeps the input it
    did not take and says when the stream is finished: input stops going in then, in slices of
    :data:`_SLICE` bytes, so nothing is decoded twice. A call decodes one byte past its limit to
    know whether output is :attr:`held`, and keeps it for the next call."""

    def __init__(self) -> None:
        import brotlicffi

        self._error: type[Exception] = brotlicffi.error
        self._obj: Any = brotlicffi.Decompressor()
        self._waiting = b""  # input not yet given to the decoder, from offset _at
        self._at = 0
        self._extra = b""  # output decoded past the last call's limit
        self._gave = False

    @property
    def held(self) -> bool:
        return bool(self._extra)

    @property
    def ended(self) -> bool:
        return bool(self._obj.is_finished()) and not self._extra

    @property
    def decided(self) -> bool:
        return self._gave

    def feed(self, data: bytes, limit: int) -> bytes:
        finished = bool(self._obj.is_finished())
        if data and not finished:
            self._waiting, self._at = self._waiting[self._at :] + data, 0
        out = bytearray(self._extra)
        self._extra = b""
        try:
            while len(out) <= limit and not finished:
                given = b""
                if self._obj.can_accept_more_data():
                    given = self._waiting[self._at : self._at + _SLICE]
                    self._at += len(given)
                room = min(limit + 1 - len(out), _BROTLI_BLOCK)
                piece: bytes = self._obj.process(given, output_buffer_limit=room)
                finished = bool(self._obj.is_finished())
                if not (piece or given):
                    break
                self._gave = self._gave or bool(piece)
                out += piece
        except self._error as error:
            raise CodingError(str(error)) from None
        if finished:  # what follows the stream is no part of the body
            self._waiting, self._at = b"", 0
        self._extra = bytes(out[limit:])
        return bytes(out[:limit])


class _Zstd(Decoder):
    """``zstd`` (RFC 8878): every frame the body holds, one after another, each with a window of
    at most 8 MiB: what RFC 9659 asks of the content coding, and Chromium 156's bound (measured:
    a page in a frame with an 8 MiB window loads, one with 16 MiB never finishes loading), so the
    most one layer holds here. Chromium (``ZstdSourceStream::FilterData``) calls
    ``ZSTD_decompressStream`` on whatever input is left after a frame, so a second frame is
    decoded too, a skippable frame (magic ``0x184D2A50``..``5F``) gives nothing, and bytes that
    start no frame fail the load; the data never ends before the body does. Python's decompressor
    stops at its frame's end (the rest is its ``unused_data``), so a fresh one takes the rest: a
    page in two frames gave its first only. Input goes in :data:`_SLICE` bytes at a time. As
    for brotli, a call decodes one byte past its limit to know whether output is :attr:`held`,
    and keeps the excess for the next call. The body is zstd once it begins with a frame's magic
    number (a corrupt frame in the same piece as its start was taken for a body stored decoded)."""

    def __init__(self) -> None:
        if sys.version_info >= (3, 14):
            from compression import zstd
        else:
            from backports import zstd

        self._module: Any = zstd
        self._error: type[Exception] = zstd.ZstdError
        self._obj: Any = self._frame()
        self._input = b""  # input not yet given to a frame's decoder, from offset _at
        self._at = 0
        self._extra = b""  # output decoded past the last call's limit
        self._start = b""  # the body's first four bytes, once they came: a frame's magic number

    def _frame(self) -> Any:
        zstd = self._module
        return zstd.ZstdDecompressor(options={zstd.DecompressionParameter.window_log_max: 23})

    @property
    def held(self) -> bool:
        return bool(self._extra)

    @property
    def ended(self) -> bool:
        return False  # another frame may follow, as in Chromium

    @property
    def decided(self) -> bool:
        """Whether the body begins with a frame's magic number (RFC 8878 §3.1.1, or a skippable
        frame's, §3.1.2), however much of what followed went in with it."""
        magic = int.from_bytes(self._start, "little")
        return len(self._start) == 4 and (magic == 0xFD2FB528 or magic >> 4 == 0x184D2A5)

    def feed(self, data: bytes, limit: int) -> bytes:
        out = bytearray(self._extra)
        self._extra = b""
        if len(self._start) < 4:
            self._start += data[: 4 - len(self._start)]
        if data:
            self._input, self._at = self._input[self._at :] + data, 0
        try:
            while len(out) <= limit:
                given = self._input[self._at : self._at + _SLICE]
                self._at += len(given)
                out += self._obj.decompress(given, min(limit + 1 - len(out), sys.maxsize))
                if self._obj.eof:
                    self._at -= len(self._obj.unused_data)
                    self._obj = self._frame()
                elif not self._obj.needs_input:
                    continue  # output at the limit (the loop ends), input still inside the decoder
                if self._at >= len(self._input):
                    break
        except self._error as error:
            raise CodingError(str(error)) from None
        if self._at >= len(self._input):
            self._input, self._at = b"", 0
        self._extra = bytes(out[limit:])
        return bytes(out[:limit])
