"""A WARC record's HTTP payload, generated in every coding an archive holds, and in lies.

warcio decoded a record's body for formtools: it read a whole chunk of a chunked body at once and
inflated it at once (a chunked gzip record of 1 MB: 2 GB of memory, 9.5 s, for a page capped at
10 MiB), its ``br`` decoder fails with today's brotli (AttributeError: the archive was reported
damaged at that record and every later record lost), a coding it does not know (``zstd``) gave
the compressed bytes as the page (no tool, silently), and a ``Content-Length`` shorter than its
block gave the page cut short with a warning on standard error. Held here, for seeded codings
and seeded lies, on both ways a record is read (the index then :func:`record_at`, as batch's
workers read; the whole archive in one pass, as ``--jobs 1`` and Spark read): every record
comes out as the page written, or as an error line naming why, or as damage at that record;
never a page other than the one written, never a lost archive.
"""

from __future__ import annotations

import gzip
import io
import random
import subprocess
import sys
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from formtools._crawl.batch import warc_pages
from formtools._crawl.pages import Page, Unreadable
from formtools._conformance.site import LocalSite
from formtools._crawl.warc import Damage, Record, Undecodable, record_at, warc_records
from formtools._net.fetch import fetch
from formtools._spec.coding import MAX_CODINGS, CodingError, decoder
from formtools.errors import FormtoolsError
from support.codinggen import CODERS, as_sent, coded

MAX_BYTES = 1 << 20
PAGE = b"<form toolname=t%d tooldescription=d><input name=q></form>"


def _record(number: int, block: bytes, *, length: int | None = None, extra: str = "") -> bytes:
    head = (
        f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{number}>\r\n"
        f"WARC-Target-URI: https://a.example/{number}\r\n{extra}"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(block) if length is None else length}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def _http(body: bytes, headers: list[tuple[str, str]]) -> bytes:
    lines = "".join(f"{name}: {value}\r\n" for name, value in [("Content-Type", "text/html"), *headers])
    return f"HTTP/1.1 200 OK\r\n{lines}\r\n".encode("latin-1") + body


def _chunked(body: bytes, rng: random.Random) -> bytes:
    out = b""
    while body:
        size = rng.randint(1, max(1, len(body)))
        extension = rng.choice([b"", b";name=value"])
        out += b"%x%s\r\n%s\r\n" % (size if size <= len(body) else len(body), extension, body[:size])
        body = body[size:]
    return out + b"0\r\n\r\n"


def _corrupt(coding: str, page: bytes) -> bytes:
    """``page`` in ``coding``, then data its decoder fails on: after gzip's header, a deflate
    block of the reserved type; after zstd's frame, bytes that start no frame; after an
    uncompressed brotli meta-block holding the page, a metadata block with its reserved bit set
    (RFC 7932 §9.2)."""
    if coding == "gzip":
        return gzip.compress(b"")[:10] + b"\xff" * 8
    if coding == "zstd":
        return CODERS["zstd"](page) + b"garbage!"
    # a 64 KiB window (bit 0), not last (1), four nibbles of size (2-3), the size less one
    # (4-19), uncompressed (20), padded to a byte; the page and 20 KB more, so that output
    # comes from the decoder's first input (formtools._spec.coding._SLICE) and tells brotli
    held = page + b" " * 20_000
    head = ((len(held) - 1) << 4 | 1 << 20).to_bytes(3, "little")
    return head + held + bytes([3 << 1 | 1 << 3])  # not last, metadata, reserved bit set


def _coded(page: bytes, rng: random.Random) -> tuple[bytes, list[tuple[str, str]], bytes | str]:
    """``page`` in a seeded coding: the body, its headers, and what the record is read as (the
    page, or the body as it stands when a listed name is not one Chromium decodes:
    tests/test_browser_codings.py), or the words of its error line for a corrupt body."""
    kind = rng.choice(["plain", "gzip", "x-gzip", "deflate", "raw-deflate", "gzip,gzip", "br", "zstd", "unknown", "corrupt"])
    chunked = rng.random() < 0.5
    body, headers, read_as = page, [], page
    if kind in ("gzip", "x-gzip"):
        body, headers = gzip.compress(page), [("Content-Encoding", kind)]
    elif kind == "deflate":
        body, headers = zlib.compress(page), [("Content-Encoding", "deflate")]
    elif kind == "raw-deflate":
        raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        body, headers = raw.compress(page) + raw.flush(), [("Content-Encoding", "deflate")]
    elif kind == "gzip,gzip":
        body, headers = gzip.compress(gzip.compress(page)), [("Content-Encoding", "gzip, gzip")]
    elif kind in ("br", "zstd"):
        body, headers = CODERS[kind](page), [("Content-Encoding", kind)]
    elif kind == "unknown":
        listed = rng.choice(["compress", "x-bzip2", "gzip, foo", "identity, gzip", "gzip\xa0"])
        body, headers = gzip.compress(page), [("Content-Encoding", listed)]
        read_as = body
    elif kind == "corrupt":
        coding = rng.choice(["gzip", "br", "zstd"])
        body, headers = _corrupt(coding, page), [("Content-Encoding", coding)]
        read_as = f"the body's {coding} coding is corrupt ("
    if chunked:
        body, headers = _chunked(body, rng), [*headers, ("Transfer-Encoding", "chunked")]
    return body, headers, read_as


def _both_ways(data: bytes) -> tuple[list[Page | Unreadable], list[Page | Unreadable]]:
    """The archive read in one pass (``--jobs 1``, Spark), and by an index whose records are
    read alone where they lie (batch's workers), as the same pages and error lines."""
    whole = list(warc_pages(io.BytesIO(data), "a.warc", max_bytes=MAX_BYTES))
    alone: list[Page | Unreadable] = []
    for item in warc_records(io.BytesIO(data), "a.warc", MAX_BYTES, bodies=False):
        if isinstance(item, Damage):
            alone.append(Unreadable("path", "a.warc", str(item), damaged=True))
            continue
        url = item.url or ""
        try:
            if item.error is not None:
                raise Undecodable(item.error)
            body = item.body if item.has_body else record_at(io.BytesIO(data), item.location, MAX_BYTES)
        except Undecodable as error:
            alone.append(Unreadable("url", url, f"{url}: {error}"))
            continue
        alone.append(Page("url", url, body, url, item.content_type))
    return whole, alone


def _assert_read_as(data: bytes, expected: list[Any], why: Callable[[Any], str]) -> None:
    """Each record of the archive ``data``, read both ways, is what ``expected`` says: its
    page's bytes, or an error line (not damage: the archive reads on) whose text holds
    ``why(wanted)``."""
    for read in _both_ways(data):
        assert len(read) == len(expected)
        for item, wanted in zip(read, expected):
            if isinstance(wanted, bytes):
                assert isinstance(item, Page) and item.body == wanted, item
            else:
                assert isinstance(item, Unreadable) and not item.damaged, item
                assert why(wanted) in item.error


@pytest.mark.parametrize("compressed", [False, True], ids=["warc", "warc.gz"])
def test_every_coding_gives_its_page_or_its_error_and_the_archive_reads_on(compressed: bool) -> None:
    """200 seeded records in 9 codings, chunked or not: each is its page, or its body as it
    stands when a listed name is not one Chromium decodes (it was an error line naming the
    coding, and ``br`` and ``zstd`` were not decoded), or for a corrupt gzip, br or zstd body an
    error line naming the coding; every record after it is read."""
    rng = random.Random(20261127)
    expected: list[bytes | str] = []
    records = []
    for number in range(200):
        page = PAGE % number + b"x" * rng.randint(0, 3000)
        body, headers, read_as = _coded(page, rng)
        expected.append(read_as)
        record = _record(number, _http(body, headers))
        records.append(gzip.compress(record) if compressed else record)
    _assert_read_as(b"".join(records), expected, str)


def _small_first_chunks(body: bytes, rng: random.Random) -> bytes:
    """``body`` chunked with a first chunk of one or two bytes (a server's first small write)."""
    first = rng.choice([1, 1, 2])
    return b"%x\r\n%s\r\n" % (first, body[:first]) + _chunked(body[first:], rng)


@pytest.mark.parametrize("compressed", [False, True], ids=["warc", "warc.gz"])
def test_a_body_reads_the_same_however_small_its_first_chunk(compressed: bool) -> None:
    """zlib tells a zlib header from raw deflate, and gzip's magic from a body stored decoded,
    by the first two bytes: with a first chunk of one byte, raw deflate and stored-decoded
    bodies (whole pages warcio read) were error lines ('coding is corrupt'). 60 seeded records
    in gzip, zlib deflate, raw deflate and stored decoded under either coding, on both read
    paths, and the same bodies through the layer itself (the fetch's too), one byte first."""
    rng = random.Random(2026112702)
    kinds = ["gzip", "deflate", "raw-deflate", "stored-gzip", "stored-deflate"]
    expected, records = [], []
    for number in range(60):
        page = PAGE % number + b"x" * rng.randint(0, 2000)
        kind = kinds[number % len(kinds)]
        if kind == "gzip":
            body = gzip.compress(page)
        elif kind == "deflate":
            body = zlib.compress(page)
        elif kind == "raw-deflate":
            raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
            body = raw.compress(page) + raw.flush()
        else:
            body = page
        coding = "gzip" if "gzip" in kind else "deflate"
        layer = decoder(coding)  # the layer itself, fed one byte and then the rest
        if kind.startswith("stored"):
            with pytest.raises(CodingError):
                for piece in (body[:1], body[1:]):
                    layer.feed(piece, len(page) + 1)
            assert not layer.decided
        else:
            decoded = b"".join(layer.feed(piece, len(page) + 1) for piece in (body[:1], body[1:]))
            assert decoded + layer.flush() == page, kind
        expected.append(page)
        headers = [("Content-Encoding", coding), ("Transfer-Encoding", "chunked")]
        record = _record(number, _http(_small_first_chunks(body, rng), headers))
        records.append(gzip.compress(record) if compressed else record)
    for read in _both_ways(b"".join(records)):
        assert [item.body if isinstance(item, Page) else item for item in read] == expected


def _bomb(kind: str, decoded: int) -> bytes:
    """One record whose body decodes to ``decoded`` bytes: gzip, br or zstd in one chunk, or a
    plain chunk."""
    if kind.startswith("chunked "):
        coding = kind.removeprefix("chunked ")
        data = CODERS[coding](PAGE % 0 + b" " * decoded)
        headers = [("Content-Encoding", coding), ("Transfer-Encoding", "chunked")]
    elif kind == "bytes after the gzip data":
        body = gzip.compress(PAGE % 0) + b" " * decoded
        return _record(0, _http(body, [("Content-Encoding", "gzip")]))
    else:
        data = PAGE % 0 + b" " * decoded
        headers = [("Transfer-Encoding", "chunked")]
    return _record(0, _http(b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data), headers))


@pytest.mark.parametrize("kind", ["chunked gzip", "chunked br", "chunked zstd", "one big chunk", "bytes after the gzip data"])
def test_the_byte_cap_bounds_the_memory_a_coded_body_takes(kind: str) -> None:
    """A body decoding to 16 and 32 times the cap (or a page whose gzip data is followed by that
    much, which the decoder kept as unused data) takes memory of the cap's order on both ways a
    record is read, not of the decoded (or chunk, or record) size (tracemalloc's peak, Python's
    allocations; the archive itself is made before counting)."""
    peaks = []
    for decoded in (16 * MAX_BYTES, 32 * MAX_BYTES):
        data = _bomb(kind, decoded)
        tracemalloc.start()
        try:
            whole, alone = _both_ways(data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        peaks.append(peak)
        if kind == "bytes after the gzip data":
            assert [page.body for page in (*whole, *alone) if isinstance(page, Page)] == [PAGE % 0] * 2
            continue
        # over the cap: recognised (one byte past it), not read whole
        assert len(whole) == 1 and isinstance(whole[0], Unreadable) and "larger than" in whole[0].error
        assert len(alone) == 1 and isinstance(alone[0], Page) and len(alone[0].body) == MAX_BYTES + 1
    assert max(peaks) < 8 * MAX_BYTES, f"{kind}: peaks {[p // MAX_BYTES for p in peaks]} MiB"


def _lengths(rng: random.Random, blocks: list[bytes]) -> Iterator[int | None]:
    for block in blocks:
        yield rng.choice([None, None, len(block) - rng.randint(1, 40), len(block) + rng.randint(4, 40)])


@pytest.mark.parametrize("compressed", [False, True], ids=["warc", "warc.gz"])
def test_a_content_length_that_lies_is_damage_at_its_record(compressed: bool) -> None:
    """300 seeded archives of 5 records, some with a Content-Length too short (by 1 to 40 bytes)
    or too long (by 4 to 40; by 1 to 3 it takes only blank lines, which no reader can tell
    without the block's digest): the records before the first lie are their pages, then one
    damage line at the lying record; never a page other than the one written (a short one gave
    the page cut short, with warcio's warning on standard error; a long one the page with the
    next record's header in it)."""
    rng = random.Random(7)
    for _ in range(300):
        pages = [PAGE % n + b"y" * rng.randint(0, 200) for n in range(5)]
        blocks = [_http(page, []) for page in pages]
        lengths = list(_lengths(rng, blocks))
        records = [_record(n, block, length=length) for n, (block, length) in enumerate(zip(blocks, lengths))]
        data = b"".join(gzip.compress(record) if compressed else record for record in records)
        items = list(warc_records(io.BytesIO(data), "a.warc", MAX_BYTES))
        given = [item for item in items if isinstance(item, Record)]
        assert [r.body for r in given] == pages[: len(given)], lengths
        liar = next((n for n, length in enumerate(lengths) if length is not None), None)
        if liar is None:
            assert len(given) == 5 and len(items) == 5
            continue
        damage = items[-1]
        assert isinstance(damage, Damage), (lengths, items)
        assert (len(given), damage.record) == (liar, liar), (lengths, damage)


def test_warcio_writes_nothing_on_standard_error(capfd: pytest.CaptureFixture[str]) -> None:
    """Damage is a line of the output: warcio's own three-line warning is silenced."""
    block = _http(PAGE % 0, [])
    data = _record(0, block, length=len(block) - 5) + _record(1, block)
    assert isinstance(list(warc_records(io.BytesIO(data), "a.warc", MAX_BYTES))[-1], Damage)
    assert capfd.readouterr().err == ""


def test_a_segmented_record_is_an_error_line_not_its_first_segment() -> None:
    """A record split into segments (WARC-Segment-Number) is not joined: an error line, never
    its first segment read as a page cut short; the archive reads on."""
    block = _http(PAGE % 0, [])
    data = (
        _record(0, block[:40], extra="WARC-Segment-Number: 1\r\n")
        + _record(1, block[40:], extra="WARC-Segment-Number: 2\r\n").replace(b"response", b"continuation", 1)
        + _record(2, _http(PAGE % 2, []))
    )
    for read in _both_ways(data):
        assert isinstance(read[0], Unreadable) and "segmented record" in read[0].error
        assert [type(item) for item in read] == [Unreadable, Page]


def _layered(page: bytes, count: int, rng: random.Random) -> tuple[bytes, str]:
    """``page`` in ``count`` seeded gzip/deflate codings (up to one past what is decoded; a
    longer list only names them: such a body is refused from its header), and the
    ``Content-Encoding`` value listing them in the order applied."""
    codings = [rng.choice(["gzip", "x-gzip", "deflate"]) for _ in range(count)]
    body = page
    for coding in codings[: MAX_CODINGS + 1]:
        body = zlib.compress(body) if coding == "deflate" else gzip.compress(body)
    return body, rng.choice([",", ", "]).join(c.upper() if rng.random() < 0.2 else c for c in codings)


@pytest.mark.parametrize("compressed", [False, True], ids=["warc", "warc.gz"])
def test_a_body_in_more_codings_than_chromium_decodes_is_its_error_line_and_the_archive_reads_on(compressed: bool) -> None:
    """40 seeded records, each in 0 to a few thousand gzip/deflate layers (chunked or not): up to
    :data:`MAX_CODINGS` (Chromium's, tests/test_browser_codings.py) the page, past it an error
    line naming the count, and every record after it read. A layer was a generator inside the
    last one's: 2,000 made the archive "damaged at byte 0 (RecursionError)", its later pages lost."""
    rng = random.Random(20261129)
    expected: list[bytes | int] = []
    records = []
    for number in range(40):
        page = PAGE % number
        count = rng.choice([0, MAX_CODINGS - 1, MAX_CODINGS, MAX_CODINGS + 1, rng.randint(1, 3000)])
        body, listed = _layered(page, count, rng)
        headers = [("Content-Encoding", listed)] if count else []
        if rng.random() < 0.5:
            body, headers = _chunked(body, rng), [*headers, ("Transfer-Encoding", "chunked")]
        expected.append(page if count <= MAX_CODINGS else count)
        record = _record(number, _http(body, headers))
        records.append(gzip.compress(record) if compressed else record)
    _assert_read_as(
        b"".join(records), expected, lambda count: f"the body is in {count} content codings, more than the {MAX_CODINGS}"
    )


def test_reading_coded_records_loads_no_network_stack(tmp_path: Path) -> None:
    """The decoder the fetch shares lives apart from it: ``formtools batch`` reading an archive
    of gzip and chunked records imports no httpx (half a second of start-up), as before."""
    archive = tmp_path / "a.warc"
    body, headers = gzip.compress(PAGE % 0), [("Content-Encoding", "gzip")]
    archive.write_bytes(_record(0, _http(body, headers)) + _record(1, _http(_chunked(body, random.Random(1)), [*headers, ("Transfer-Encoding", "chunked")])))
    script = (
        "import sys; from formtools._crawl.batch import warc_pages; "
        f"pages = list(warc_pages(open({str(archive)!r}, 'rb'), 'a.warc')); "
        "print([p.body for p in pages], sorted(m for m in sys.modules if m.split('.')[0] in ('httpx', 'httpcore', 'anyio')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{[PAGE % 0] * 2} []"


def test_a_record_is_decoded_as_the_fetch_decodes_the_same_answer() -> None:
    """60 seeded ``Content-Encoding`` spellings (tests/support/codinggen.py, the ones the live
    test holds formtools' fetch to Chromium with), each served from 127.0.0.1 and archived as a
    record with the same header lines and body: the record reads as the fetch's body, or both
    are refused (more codings than Chromium decodes). The reader took only the first
    ``Content-Encoding`` line, stripped every Unicode white space, and refused names it did not
    know, where the fetch dropped them and decoded the rest."""
    rng = random.Random(2026112923)
    with LocalSite() as site:
        for number in range(60):
            answer = coded(rng)
            url = site.put(f"/coded/{number}", answer.body, "text/html", answer.headers)
            try:
                fetched: bytes | None = fetch("GET", url).body
            except FormtoolsError:
                fetched = None
            (read,) = _both_ways(_record(number, _http(answer.body, answer.headers)))[0]
            assert (read.body if isinstance(read, Page) else None) == fetched, answer.lines
            assert isinstance(read, Page) or any(why in read.error for why in ("content codings, more than", "Content-Encoding")), read


def test_every_layer_gives_its_whole_body_however_fed_and_limited() -> None:
    """Each coding's layer (the fetch's and the WARC reader's), fed a seeded body in seeded
    pieces with a seeded output limit per call, and fed nothing while it holds output, gives
    the body whole. Brotli's decoder keeps input it has not decoded without saying so: a layer
    that asked it whether it would take more input (rather than decoding past its limit) lost
    all but the first 98,272 bytes of 200,000 decoded in 64 KiB calls."""
    rng = random.Random(2026112924)
    for number in range(40):
        coding = sorted(CODERS)[number % len(CODERS)]
        page = bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000))) + b"x" * rng.randint(0, 300_000)
        data, out, layer = CODERS[coding](page), b"", decoder(coding)
        at = 0
        while at < len(data):
            piece = data[at : at + rng.choice([1, 7, 4096, len(data)])]
            at += len(piece)
            out += layer.feed(piece, rng.choice([1, 1000, 65536]))
            while layer.held:
                out += layer.feed(b"", rng.choice([1, 1000, 65536]))
        assert out + layer.flush() == page, (coding, len(page))


def _read_whole(coding: str, pieces: list[bytes]) -> bytes | None:
    """What a reader (the fetch, a WARC record) gets from a layer fed ``pieces`` until the
    coded data ends: the body, or ``None`` for a corrupt one."""
    layer, out = decoder(coding), bytearray()
    try:
        for piece in pieces:
            if layer.ended:
                break
            out += layer.feed(piece, MAX_BYTES)
        return bytes(out + layer.flush())
    except CodingError:
        return None


def _fails_its_adler32(coding: str, page: bytes, data: bytes) -> bool:
    """Whether ``data`` is a deflate body Chromium fails: raw deflate (no zlib header) of
    ``page`` followed by four bytes or more that are not its Adler-32 (Chromium 156 reads raw
    deflate behind a made-up zlib header, so checks them: tests/test_browser_codings.py). Read
    from the body itself, so a layer that fails every deflate body fails the test."""
    raw = zlib.decompressobj(-zlib.MAX_WBITS)
    try:
        if coding != "deflate" or raw.decompress(data) != page or not raw.eof:
            return False
    except zlib.error:  # a zlib-wrapped stream
        return False
    return len(raw.unused_data) >= 4 and raw.unused_data[:4] != zlib.adler32(page).to_bytes(4, "big")


def _split(data: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted({rng.randint(0, len(data)) for _ in range(rng.choice([1, 2, 5, 40]))})
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]


def test_a_layer_gives_one_answer_however_its_data_is_split() -> None:
    """Each coding's body as servers also send it (tests/support/codinggen.as_sent: zstd in
    several frames among skippable ones, a gzip member, brotli or zlib stream followed by other
    bytes, raw deflate followed by an Adler-32 or not), whole and split at seeded offsets, one
    byte at a time for some: one answer however split (the page, or none where the body fails
    as tests/test_browser_codings.py shows Chromium fails it); and zstd followed by bytes that start no frame is corrupt however
    split. A zstd layer decoded the first frame only (a page in two frames lost its second)."""
    rng = random.Random(2026112925)
    checked = failed = 0
    for number in range(60):
        coding = sorted(CODERS)[number % len(CODERS)]
        page = PAGE % number + bytes(rng.randrange(256) for _ in range(rng.randint(0, 2000)))
        data = as_sent(coding, page, rng)
        splits = [[data], *(_split(data, rng) for _ in range(8))]
        if number < 10:
            splits.append([data[at : at + 1] for at in range(len(data))])
        answers = {_read_whole(coding, pieces) for pieces in splits}
        assert answers == {None if _fails_its_adler32(coding, page, data) else page}, (coding, number, answers)
        checked += coding == "deflate"
        failed += _fails_its_adler32(coding, page, data)
        if coding == "zstd":
            corrupt = data + b"garbage!"
            assert {_read_whole(coding, _split(corrupt, rng)) for _ in range(8)} == {None}, number
    assert failed and checked - failed, (checked, failed)  # both kinds of deflate body were drawn
