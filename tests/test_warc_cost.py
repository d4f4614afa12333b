"""The work of reading a WARC.gz with workers stays linear whatever its gzip members hold.

A WARC.gz is written with one gzip member per record, but ``gzip crawl.warc`` makes one member of
the whole archive. A worker reading a record alone from its location inflates its member from the
start, so with a member per record it inflates only that record; workers handed every record of
one member so inflated the archive once per record (16,000 records: 28 s with ``--jobs 2``
against 1 s with ``--jobs 1``). The work is counted, not timed: the bytes the archive reader
inflates, in the parent and in the workers, against the archive's uncompressed size.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import multiprocessing
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from formtools._crawl import batch, warc
from formtools._crawl.batch import BatchOptions, FetchOptions, run_batch

TOOL = b"<form toolname=search%d tooldescription='Search'><input name=q></form>"
NO_TOOL = b"<p>page %d: no form here</p>"
MAX_BYTES = 2000


def _response(writer: WARCWriter, url: str, payload: bytes, *coding: tuple[str, str]) -> None:
    headers = StatusAndHeaders(
        "200 OK", [("Content-Type", "text/html"), *coding], protocol="HTTP/1.1"
    )
    writer.write_record(
        writer.create_warc_record(
            url, "response", payload=io.BytesIO(payload), http_headers=headers
        )
    )


def plain_warc(records: int) -> bytes:
    """An uncompressed WARC of ``records`` pages, a third with a tool, and what a worker must
    decode or refuse: a chunked page, a gzip-coded one and one over the size cap."""
    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=False)
    tool = TOOL % 0
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(tool), tool)
    _response(writer, "https://coded.example/chunked", chunked, ("Transfer-Encoding", "chunked"))
    gzipped = gzip.compress(tool)
    _response(writer, "https://coded.example/gzip", gzipped, ("Content-Encoding", "gzip"))
    _response(writer, "https://coded.example/big", tool + b"x" * MAX_BYTES)
    for number in range(records):
        page = (TOOL if number % 3 == 0 else NO_TOOL) % number
        _response(writer, f"https://site.example/{number}", page + b"<p>%d</p>" % number * 20)
    return stream.getvalue()


class _CountedInflate:
    """A decompress object adding the bytes it gives out to a counter shared with the workers."""

    def __init__(self, inner: Any, counter: Any) -> None:
        self._inner = inner
        self._counter = counter

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        out: bytes = self._inner.decompress(data, max_length)
        with self._counter.get_lock():
            self._counter.value += len(out)
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def inflated_by_batch(archive: Path, out: Path, monkeypatch: pytest.MonkeyPatch, resume: bool = False) -> int:
    """The bytes ``formtools batch --jobs 2`` inflates reading ``archive`` (its workers are
    forked, so they count into the same shared counter)."""
    counter = multiprocessing.Value("q", 0)
    real = warc.zlib

    def decompressobj(wbits: int) -> _CountedInflate:
        return _CountedInflate(real.decompressobj(wbits), counter)

    with monkeypatch.context() as patched:
        counting = SimpleNamespace(MAX_WBITS=real.MAX_WBITS, decompressobj=decompressobj)
        patched.setattr(warc, "zlib", counting)
        options = BatchOptions(jobs=2, fetch=FetchOptions(max_bytes=MAX_BYTES), resume=resume)
        tally = run_batch([str(archive)], out, options=options)
    assert tally.workers == 2
    return int(counter.value)


@pytest.mark.skipif(
    sys.platform != "linux" or batch._start_method() != "fork",
    reason="counting the workers' inflating needs them forked",
)
@pytest.mark.parametrize("reading", ["spans", "index"])
def test_workers_inflate_a_warc_gzipped_whole_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reading: str
) -> None:
    """With every record in one gzip member, ``--jobs 2`` inflates the archive at most about
    twice at n and 2n records, and writes the lines of ``--jobs 1``, byte for byte, a cut
    archive's damage line included. Read in spans (4 KiB here, so that most spans look for a
    member to begin at inside the one there is), the first span's worker reads it all; indexed
    (under ``--resume`` with a line written), the parent's index, then a worker's read of the
    first record not written yet."""
    monkeypatch.setattr(batch, "_SPAN_BYTES", 4096)
    for records in (150, 300):
        plain = plain_warc(records)
        size = len(plain)
        archive = tmp_path / f"whole{records}.warc.gz"
        archive.write_bytes(gzip.compress(plain))
        cut = tmp_path / f"cut{records}.warc.gz"
        cut.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
        counted = tmp_path / "jobs2.jsonl"
        if reading == "index":  # a resumed run, with the first record's line written
            run_batch([str(archive)], counted, options=BatchOptions(jobs=1, fetch=FetchOptions(max_bytes=MAX_BYTES)))
            counted.write_text(counted.read_text("utf-8").splitlines()[0] + "\n", encoding="utf-8")
        inflated = inflated_by_batch(archive, counted, monkeypatch, resume=reading == "index")
        assert inflated <= 2 * size, f"{records} records: inflated {inflated / size:.1f} times"
        outputs = []
        for jobs in (1, 2):
            out = tmp_path / f"all{jobs}.jsonl"
            options = BatchOptions(jobs=jobs, fetch=FetchOptions(max_bytes=MAX_BYTES))
            run_batch([str(archive), str(cut)], out, options=options)
            outputs.append(sorted(out.read_text("utf-8").splitlines()))
        assert outputs[0] == outputs[1]
        assert len(outputs[1]) == records + 3 + 1  # every page, then the cut archive's damage


def test_an_index_reads_every_body_a_member_holds_after_other_records() -> None:
    """Coded bodies are left to the workers only where reading the record alone inflates no
    more than its own member: in a WARC gzipped whole, every record after the first is read by
    the index, coded or not."""
    data = gzip.compress(plain_warc(3))
    items = warc.warc_records(io.BytesIO(data), "a.warc.gz", 1 << 20, bodies=False)
    indexed = [item for item in items if isinstance(item, warc.Record)]
    assert [(r.url, r.location.skip > 0, r.has_body) for r in indexed[:3]] == [
        ("https://coded.example/chunked", False, False),
        ("https://coded.example/gzip", True, True),
        ("https://coded.example/big", True, True),
    ]
    assert all(r.has_body for r in indexed[1:])
    assert indexed[1].body == TOOL % 0  # decoded, as a full read gives it


def _member(data: bytes) -> bytes:
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
    return compressor.compress(data) + compressor.flush()


def _warc_record(kind: str, number: int, page: bytes = b"<p>hi</p>") -> bytes:
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    head = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{number}>\r\n"
        f"WARC-Target-URI: https://a.example/{number}\r\n"
        f"Content-Type: application/http; msgtype={kind}\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def _most_members_remembered(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The most gzip members the reader remembered at once while reading ``data``, and the
    records it gave."""
    most = 0
    inflated = warc._GzipMembers._inflated

    def counting(self: Any, chunk: bytes, at: int) -> bytes:
        nonlocal most
        most = max(most, len(self._spans))
        return inflated(self, chunk, at)

    with monkeypatch.context() as patched:
        patched.setattr(warc._GzipMembers, "_inflated", counting)
        items = list(warc.warc_records(io.BytesIO(data), "a.warc.gz", 1 << 20, bodies=False))
    assert all(isinstance(item, warc.Record) for item in items)
    return most, len(items)


def test_what_a_warc_gz_reader_remembers_does_not_grow_with_the_archive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The members remembered to locate records stay under a bound at n and 2n records: a run of
    request records (only response records used to forget members; 2,000 requests: 2,000
    remembered, each forgotten by a list pop(0) moving the rest) and members holding two
    records each (a record was held until the count of ended members passed its index, so half
    of them were held and their members remembered)."""
    for shape in ("requests", "pairs"):
        most = []
        for records in (2000, 4000):
            if shape == "requests":
                runs = [_member(_warc_record("request", n)) for n in range(records)]
                data = b"".join(runs) + _member(_warc_record("response", records))
                expected = 1
            else:
                pairs = range(0, records, 2)
                data = b"".join(
                    _member(_warc_record("response", n) + _warc_record("response", n + 1))
                    for n in pairs
                )
                expected = records
            remembered, given = _most_members_remembered(data, monkeypatch)
            assert given == expected
            most.append(remembered)
        # at most what one 64 KiB read of compressed data holds, whatever the archive's length
        assert max(most) < 200, (shape, most)


class _CountedReads(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.given = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.given += len(data)
        return data


def test_a_line_too_long_for_a_header_is_damage_found_after_reading_a_bounded_prefix() -> None:
    """A WARC header line of n or 2n bytes, a file without a newline (any file named .warc) and
    the same gzipped: the archive is damaged at byte 0 after reading little more than
    ``MAX_LINE`` (1 MiB), at n and 2n alike (warcio's reader read the whole file as one line,
    copying the line per 16 KiB block: 16 MiB took 0.7 s, a 100 MiB file 239 s)."""
    shapes = {
        "header": lambda size: b"WARC/1.0\r\nWARC-Type: response\r\nX-Junk: " + b"a" * size,
        "no newline": lambda size: b"a" * size,
    }
    for name, shape in shapes.items():
        for gzipped in (False, True):
            read = []
            for size in (4 << 20, 8 << 20):
                data = shape(size) + b"\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
                stream = _CountedReads(gzip.compress(data, 1) if gzipped else data)
                items = list(warc.warc_records(stream, "x.warc", 1 << 20))
                assert len(items) == 1 and isinstance(items[0], warc.Damage), (name, items)
                assert (items[0].offset, items[0].record) == (0, 0)
                assert "a line longer than 1,048,576 bytes" in items[0].reason
                read.append(stream.given)
            assert read[1] <= 2 << 20, (name, gzipped, read)


def test_headers_too_long_together_are_damage_found_after_reading_a_bounded_prefix() -> None:
    """A record with n or 2n bytes of short WARC or HTTP header lines, plain and gzipped: the
    archive is damaged at byte 0 after reading little more than ``MAX_HEADERS`` (1 MiB), at n
    and 2n alike (warcio kept every line, about 17 times its size: 29 MB of HTTP header lines
    took 484 MB and 13 s)."""

    def lines(size: int, prefix: str) -> bytes:
        return "".join(f"{prefix}{n}: v\r\n" for n in range(size // 12)).encode()

    body = b"<form toolname=t tooldescription=d></form>"
    shapes = {
        "http": lambda size: _block(b"HTTP/1.1 200 OK\r\n" + lines(size, "X-H") + b"\r\n" + body),
        "warc": lambda size: _block(b"HTTP/1.1 200 OK\r\n\r\n" + body, lines(size, "X-W")),
    }
    for name, shape in shapes.items():
        for gzipped in (False, True):
            read = []
            for size in (2 << 20, 4 << 20):
                data = shape(size)
                stream = _CountedReads(gzip.compress(data, 1) if gzipped else data)
                items = list(warc.warc_records(stream, "x.warc", 1 << 20))
                assert len(items) == 1 and isinstance(items[0], warc.Damage), (name, items)
                assert (items[0].offset, items[0].record) == (0, 0)
                assert "header lines longer than 1,048,576 bytes together" in items[0].reason
                read.append(stream.given)
            assert read[1] <= 2 << 20, (name, gzipped, read)


def test_a_gzip_member_of_zeros_is_inflated_in_bounded_steps() -> None:
    """A WARC.gz record whose member holds 32 or 64 MiB of zeros (64 KiB of gzip data inflate to
    64 MiB, which the reader inflated in one step: a 1 GB record took 184 MB of memory): the
    peak of memory is the same at n and 2n, and of the cap's order; the next record is read."""
    import tracemalloc

    peaks = []
    for size in (32 << 20, 64 << 20):
        block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + bytes(size)
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        member = packer.compress(_block(block)) + packer.flush()
        data = member + gzip.compress(_block(b"HTTP/1.1 200 OK\r\n\r\n<p>next</p>"))
        tracemalloc.start()
        try:
            items = list(warc.warc_records(io.BytesIO(data), "a.warc.gz", 1 << 20, bodies=False))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert [type(item) for item in items] == [warc.Record, warc.Record]
        assert items[1].body == b"<p>next</p>"
    assert max(peaks) < 8 << 20, f"peaks {[peak >> 20 for peak in peaks]} MiB"


def _block(block: bytes, warc_headers: bytes = b"") -> bytes:
    head = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/\r\n" + warc_headers
        + b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(block)
    )
    return head + block + b"\r\n\r\n"


def test_a_warc_gzipped_whole_is_read_in_bounded_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every record of a WARC gzipped whole waits for the archive's CRC at its end: past
    ``HELD_IN_MEMORY`` bytes they wait in a temporary file, so the peak of memory is the same
    at n and 2n records (it grew by the archive's bodies: 100 MiB took 149 MB), and the records
    come out the same and in order."""
    import random
    import tracemalloc

    monkeypatch.setattr(warc, "HELD_IN_MEMORY", 1 << 18, raising=False)
    rng = random.Random(7)
    peaks = []
    for records in (150, 300):
        pages = [rng.randbytes(5000).hex().encode() for _ in range(records)]
        plain = b"".join(_warc_record("response", n, page) for n, page in enumerate(pages))
        data = gzip.compress(plain, 1)
        given = hashlib.sha256()  # the bodies given, kept by their digest alone
        tracemalloc.start()
        try:
            for item in warc.warc_records(io.BytesIO(data), "a.warc.gz", 1 << 20):
                assert isinstance(item, warc.Record)
                given.update(item.body)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert given.digest() == hashlib.sha256(b"".join(pages)).digest()
    assert peaks[1] < peaks[0] * 1.2, peaks


def _brotli_metadata(blocks: int, size: int) -> bytes:
    """A brotli stream (RFC 7932 §9.2) of ``blocks`` metadata blocks of ``size`` bytes each,
    then its last, empty block: valid, and decoded to nothing."""
    out, bits, count = bytearray(), 0, 0

    def put(value: int, width: int) -> None:
        nonlocal bits, count
        bits |= value << count
        count += width
        while count >= 8:
            out.append(bits & 255)
            bits >>= 8
            count -= 8

    def align() -> None:
        nonlocal bits, count
        if count:
            out.append(bits & 255)
            bits = count = 0

    put(0, 1)  # a 64 KiB window
    for _ in range(blocks):
        put(0, 1), put(3, 2), put(0, 1), put(3, 2), put(size - 1, 24)  # not last, metadata of size bytes
        align()
        out.extend(bytes(size))
    put(1, 1), put(1, 1)  # last, empty
    align()
    return bytes(out)


@pytest.mark.parametrize("coding", ["br", "deflate"])
def test_a_coded_body_that_gives_no_output_is_read_in_bounded_memory(coding: str) -> None:
    """A body whose coding gives nothing for a long time (brotli metadata blocks, raw deflate's
    empty stored blocks) at n and 4n bytes: the reader holds what it sniffs for the coding's
    start, not the body (it kept all of it, copying it at every piece: 32 MiB of br metadata
    took 7.8 s and held the body whole)."""
    import tracemalloc

    peaks = []
    for mib in (4, 16):
        if coding == "br":
            data = _brotli_metadata(mib, 1 << 20)
        else:
            data = b"\x00\x00\x00\xff\xff" * ((mib << 20) // 5)
        pieces = [data[at : at + (1 << 16)] for at in range(0, len(data), 1 << 16)]
        del data
        tracemalloc.start()
        try:
            assert b"".join(warc._decoded(iter(pieces), coding)) == b""
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] < 2 * peaks[0] + (1 << 20) and peaks[1] < 4 << 20, peaks
