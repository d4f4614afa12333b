"""``batch --jobs N`` reads a WARC.gz in spans, one worker a span, and must write exactly the lines
of one reading from the start (``--jobs 1``, the Spark job): the same pages, errors and damage
report, its byte offset and record number included.

A span begins at a guess (the first gzip member from its start that inflates into ``WARC/``),
confirmed by the span before it, which reads up to exactly where its own records end. What can
make a guess wrong or a span's reading differ is generated here, seeded: several records in one
member, a record split over two members, empty members, stored members with header fields, a
page that holds a gzipped WARC record as raw bytes (a false member start), requests and
metadata between responses, coded bodies; then cuts and flipped bytes anywhere. Spans are made
tiny so that every archive is cut into many of them at every kind of place.
"""

from __future__ import annotations

import gzip
import io
import multiprocessing
import os
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from formtools._crawl import batch
from formtools._crawl.batch import BatchOptions, FetchOptions, run_batch
from formtools._crawl import warc
from formtools._crawl.warc import first_record_member

SEED = 2026_11_28
ARCHIVES = 40


def _record(rng: random.Random, number: int, trap: bool, kind: str | None = None) -> bytes:
    """One uncompressed WARC record of a seeded kind."""
    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=False)
    url = f"https://s{number % 3}.example/{number}"
    kind = kind or rng.choice(["tool", "tool", "plain", "text", "request", "metadata", "chunked"])
    if trap:  # a page holding a gzipped record's bytes as they are (a stored member shows them)
        body = b"<form toolname=trap tooldescription=d><input name=q></form>" + gzip.compress(b"WARC/1.0\r\n\r\n", mtime=0)
        kind = "tool"
    elif kind in ("tool", "chunked"):
        body = f'<form toolname=t{number} tooldescription=d><input name=q{"x" * rng.randrange(300)}></form>'.encode()
    else:
        body = f"<p>{'page ' * rng.randrange(1, 200)}</p>".encode()
    if kind == "request":
        headers = StatusAndHeaders("GET / HTTP/1.1", [("Host", "s.example")], is_http_request=True)
        record = writer.create_warc_record(url, "request", payload=io.BytesIO(b""), http_headers=headers)
    elif kind == "metadata":
        record = writer.create_warc_record(url, "metadata", payload=io.BytesIO(b"via: seed\r\n"))
    else:
        fields = [("Content-Type", "text/plain" if kind == "text" else "text/html")]
        if kind == "chunked":
            fields.append(("Transfer-Encoding", "chunked"))
            body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        headers = StatusAndHeaders("200 OK", fields, protocol="HTTP/1.1")
        record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)
    writer.write_record(record)
    return stream.getvalue()


def _member(data: bytes, rng: random.Random, stored: bool = False) -> bytes:
    """``data`` as one gzip member, sometimes with a file name and comment-free header fields."""
    out = io.BytesIO()
    name = "n" * rng.randrange(0, 400) if rng.random() < 0.2 else ""
    with gzip.GzipFile(filename=name, mode="wb", fileobj=out, compresslevel=0 if stored else 6, mtime=0) as member:
        member.write(data)
    return out.getvalue()


def _archive(rng: random.Random) -> bytes:
    count = rng.randrange(4, 40)
    records = [_record(rng, number, trap=rng.random() < 0.08) for number in range(count)]
    parts: list[bytes] = []
    index = 0
    while index < len(records):
        roll = rng.random()
        if roll < 0.55:
            parts.append(_member(records[index], rng))
            index += 1
        elif roll < 0.7:
            together = rng.randrange(2, 4)
            parts.append(_member(b"".join(records[index : index + together]), rng))
            index += together
        elif roll < 0.8:
            record = records[index]
            cut = rng.randrange(1, len(record))
            parts += [_member(record[:cut], rng), _member(record[cut:], rng)]
            index += 1
        elif roll < 0.87:
            parts.append(_member(b"", rng))
        else:
            parts.append(_member(records[index], rng, stored=True))
            index += 1
    return b"".join(parts)


def _damaged(data: bytes, rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.5:
        return data
    at = rng.randrange(len(data))
    if roll < 0.75:
        return data[:at]
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def _lines(paths: list[str], out: Path, jobs: int) -> tuple[list[str], tuple[int, int, int]]:
    tally = run_batch(paths, out, options=BatchOptions(jobs=jobs, fetch=FetchOptions(max_bytes=1200)))
    assert tally.workers == jobs
    return sorted(out.read_text("utf-8").splitlines()), (tally.pages, tally.failed, tally.damaged)


def test_spans_write_the_lines_of_one_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(SEED)
    paths = []
    for number in range(ARCHIVES):
        archive = tmp_path / f"a{number}.warc.gz"
        archive.write_bytes(_damaged(_archive(rng), rng))
        paths.append(str(archive))
    one, one_tally = _lines(paths, tmp_path / "one.jsonl", 1)
    assert sum('"damaged archive at byte' in line or "damaged archive at byte" in line for line in one) >= 8
    assert sum('"trap"' in line for line in one) >= 3  # the false member starts are there
    for span in (61, 400, 1500, 6000):
        monkeypatch.setattr(batch, "_SPAN_BYTES", span)
        spans, spans_tally = _lines(paths, tmp_path / f"spans{span}.jsonl", 2)
        assert spans_tally == one_tally, span
        assert spans == one, span


def test_a_member_that_continues_a_record_is_a_guess_the_span_before_corrects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record whose page ends with a whole WARC record's text, split into two gzip members just
    before that text: the second member begins with ``WARC/`` and reads as a sound record with
    sound records after it, but no record begins there. A span that begins between the two
    members guesses it; the span reading the split record passes it and ends at the next real
    record, so the guess is dropped (trusted, it adds a page that is not in the archive)."""
    rng = random.Random(SEED)
    inner = _record(rng, 99, trap=False, kind="tool")
    page = b"<form toolname=outer tooldescription=d><input name=q></form><pre>" + inner
    stream = io.BytesIO()
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer = WARCWriter(stream, gzip=False)
    writer.write_record(writer.create_warc_record("https://outer.example/", "response", payload=io.BytesIO(page), http_headers=headers))
    outer = stream.getvalue()
    split = outer.index(inner)
    before = [_member(_record(rng, n, trap=False, kind="tool"), rng) for n in range(3)]
    after = [_member(_record(rng, n, trap=False, kind="tool"), rng) for n in range(3, 6)]
    parts = [*before, _member(outer[:split], rng), _member(outer[split:], rng), *after]
    data = b"".join(parts)
    archive = tmp_path / "split.warc.gz"
    archive.write_bytes(data)
    outer_start = sum(map(len, before))
    continuation = outer_start + len(parts[3])
    real_next = continuation + len(parts[4])
    # a span size whose span k begins after the split record does and guesses its second member,
    # while the record the span before ends at lies inside span k
    with archive.open("rb") as file:
        size = next(
            size for size in range(40, len(data))
            for k in (continuation // size,)
            if outer_start < k * size <= continuation < real_next < (k + 1) * size
            and first_record_member(file, k * size, (k + 1) * size) == continuation
        )
    one, _ = _lines([str(archive)], tmp_path / "one.jsonl", 1)
    monkeypatch.setattr(batch, "_SPAN_BYTES", size)
    spans, _ = _lines([str(archive)], tmp_path / "spans.jsonl", 2)
    assert spans == one and len(one) == 7 and not any("https://s0.example/99" in line for line in one)


def test_a_stored_member_of_a_gzipped_record_is_a_guess_the_span_before_corrects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page holding a gzipped record's bytes in a stored member: the span that begins inside
    that member takes the embedded bytes for a member that begins a record; the span before
    reads past it, so the guess is replaced, and no record is read twice or made up."""
    rng = random.Random(SEED)
    records = [_record(rng, number, trap=number == 2, kind="tool") for number in range(5)]
    data = b"".join(_member(record, rng, stored=number == 2) for number, record in enumerate(records))
    archive = tmp_path / "trap.warc.gz"
    archive.write_bytes(data)
    embedded = data.find(gzip.compress(b"WARC/1.0\r\n\r\n", mtime=0))
    with archive.open("rb") as stream:  # the second span's guess is the embedded member
        assert first_record_member(stream, embedded - 1, len(data)) == embedded
    one, _ = _lines([str(archive)], tmp_path / "one.jsonl", 1)
    monkeypatch.setattr(batch, "_SPAN_BYTES", embedded - 1)
    spans, _ = _lines([str(archive)], tmp_path / "spans.jsonl", 2)
    assert spans == one and len(one) == 5


def test_looking_for_a_member_costs_at_most_a_few_times_the_span(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored page full of gzip headers whose file name never ends: every candidate would feed
    zlib as far as it looks (quadratic in the span); the guessing stops at a budget linear in
    the span, and the span is then read from where the one before ends."""
    rng = random.Random(SEED)
    trap = b"\x1f\x8b\x08\x08" * 50_000  # 200 kB: FNAME set, no NUL
    stream = io.BytesIO()
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer = WARCWriter(stream, gzip=False)
    page = b"<form toolname=t tooldescription=d><input name=q></form>" + trap
    writer.write_record(writer.create_warc_record("https://trap.example/", "response", payload=io.BytesIO(page), http_headers=headers))
    parts = [_member(_record(rng, 0, trap=False, kind="tool"), rng), _member(stream.getvalue(), rng, stored=True)]
    parts += [_member(_record(rng, n, trap=False, kind="tool"), rng) for n in (1, 2)]
    archive = tmp_path / "headers.warc.gz"
    archive.write_bytes(b"".join(parts))
    fed: list[int] = []
    real = warc._inflates_to_record

    def counted(data: bytes) -> bool:
        fed.append(len(data))
        return real(data)

    monkeypatch.setattr(warc, "_inflates_to_record", counted)
    start = len(parts[0]) + 1000
    with archive.open("rb") as file:
        assert first_record_member(file, start, start + 100_000) is None
    assert sum(fed) <= warc._SCAN_WORK * 100_000 + 16 * warc._HEADER_READ
    assert len(fed) > 500  # the budget, not the first candidates, ended it
    monkeypatch.setattr(warc, "_inflates_to_record", real)
    one, _ = _lines([str(archive)], tmp_path / "one.jsonl", 1)
    monkeypatch.setattr(batch, "_SPAN_BYTES", 30_000)
    spans, _ = _lines([str(archive)], tmp_path / "spans.jsonl", 2)
    assert spans == one and len(one) == 4


def _never_ending(rng: random.Random, number: int) -> list[bytes]:
    """A record whose page ends with the text of a record header claiming a body of a terabyte,
    split into two gzip members just before that text: the second reads as the start of a
    record that swallows the rest of the archive."""
    header = b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://x.example/\r\nContent-Length: %d\r\n\r\n"
    text = header % rng.randrange(10**12, 10**13)
    filler = rng.randbytes(rng.randrange(200, 1500)).hex().encode()
    page = b"<form toolname=n%d tooldescription=d><input name=q></form><pre>%s" % (number, filler) + text
    stream = io.BytesIO()
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer = WARCWriter(stream, gzip=False)
    writer.write_record(writer.create_warc_record(f"https://n.example/{number}", "response", payload=io.BytesIO(page), http_headers=headers))
    record = stream.getvalue()
    split = record.index(text)
    return [_member(record[:split], rng), _member(record[split:], rng)]


def test_a_guess_that_begins_a_record_never_ending_costs_at_most_a_span_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Archives where many spans begin inside a record whose next member reads as a record of a
    terabyte: read to its end, each such guess read the rest of the archive (the spans of an
    archive full of them: quadratic). A guessed span reads at most a span past its end (plus
    one read), then is read from where the span before ends; the lines are those of --jobs 1."""
    rng = random.Random(SEED)
    monkeypatch.setattr(warc, "_CHUNK", 512)  # reads as fine as the spans are small
    read: list[int] = []
    real = warc._Prefixed.readinto

    def counted(self: warc._Prefixed, buffer: bytearray | memoryview) -> int:
        size = real(self, buffer)
        read.append(size)
        return size

    paths, abandoned = [], 0
    for number in range(4):
        parts: list[bytes] = []
        for index in range(rng.randrange(30, 60)):
            if rng.random() < 0.6:
                parts += _never_ending(rng, index)
            else:
                parts.append(_member(_record(rng, index, trap=False), rng))
        archive = tmp_path / f"never{number}.warc.gz"
        archive.write_bytes(_damaged(b"".join(parts), rng) if number else b"".join(parts))
        paths.append(str(archive))
        size = archive.stat().st_size
        span = rng.randrange(1500, 4000)
        monkeypatch.setattr(warc._Prefixed, "readinto", counted)
        for start in range(span, size, span):
            read.clear()
            result = batch.extract_span(batch.ArchiveSpan(str(archive), start, min(start + span, size)), "chromium", False, 1200, None)
            assert sum(read) <= 2 * span + warc._CHUNK + 2, (number, start)
            abandoned += result.first is None and sum(read) > 0
        monkeypatch.setattr(warc._Prefixed, "readinto", real)
    assert abandoned >= 20  # the guesses that began a never-ending record were there
    one, one_tally = _lines(paths, tmp_path / "one.jsonl", 1)
    for span in (700, 2500):
        monkeypatch.setattr(batch, "_SPAN_BYTES", span)
        spans, spans_tally = _lines(paths, tmp_path / f"spans{span}.jsonl", 2)
        assert (spans, spans_tally) == (one, one_tally), span


def _fed(fifo: Path, data: bytes) -> threading.Thread:
    """A thread writing ``data`` into the named pipe ``fifo`` once a reader opens it."""

    def write() -> None:
        try:
            with fifo.open("wb") as pipe:
                pipe.write(data)
        except BrokenPipeError:  # the reader stopped reading: what it wrote says so
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def test_archives_that_are_no_regular_file_are_read_as_one_reading_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe called ``*.warc.gz`` or ``*.warc`` cannot be cut into spans (its size is 0,
    its first bytes are gone once looked at) nor indexed and read again by workers: spans gave
    no line at all, the index hung. It is read once, in order, as ``--jobs 1`` reads it; and an
    archive gone between being found and read is reported as ``--jobs 1`` reports it."""
    rng = random.Random(SEED)
    for suffix, data in ((".warc.gz", _archive(rng)), (".warc", b"".join(_record(rng, n, trap=False) for n in range(6)))):
        fifo = tmp_path / f"pipe{suffix}"
        os.mkfifo(fifo)
        found = {}
        for jobs in (1, 2):
            writer = _fed(fifo, data)
            found[jobs] = _lines([str(fifo)], tmp_path / f"pipe{jobs}.jsonl", jobs)
            writer.join(60)
        assert found[2] == found[1] and found[1][1][0] > 0, suffix
    gone = tmp_path / "gone.warc.gz"
    data = _archive(rng)
    gone.write_bytes(data)
    opened = batch._open_archive

    def vanished(name: str) -> bool:
        os.unlink(name)  # (as another process could, once the batch found the file)
        return True

    def vanishing(name: str, input: int) -> Any:
        os.unlink(name)
        return opened(name, input)

    monkeypatch.setattr(batch, "_gzipped", vanished)  # with workers, as the spans are planned
    spans = _lines([str(gone)], tmp_path / "gone2.jsonl", 2)
    gone.write_bytes(data)
    monkeypatch.setattr(batch, "_open_archive", vanishing)  # --jobs 1, as the archive is opened
    one = _lines([str(gone)], tmp_path / "gone1.jsonl", 1)
    assert spans == one and one[1][1] == 1 and "cannot read the archive: FileNotFoundError" in one[0][0]


@pytest.mark.skipif(batch._start_method() != "fork", reason="counting the workers' pages needs them forked")
@pytest.mark.parametrize("kind", ["directory", "WARC.gz"])
def test_an_interrupted_run_stops_its_workers_after_the_page_in_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Ctrl-C or SIGTERM (an interrupt in the parent) ends a run once each worker has finished the
    page in hand, not its chunk or span: a span of small pages is hundreds of them, and the
    parent's exit waited for all that work (4.7-5.6 s with 1 MiB spans), whose lines nobody
    writes. Counted, not timed: the pages the workers extract after the interrupt."""
    pages = [
        f"<form toolname=t{number} tooldescription=d>{'<label>L <input name=q></label>' * 60}</form>"
        for number in range(1200)
    ]  # pages of a few milliseconds: a chunk or span under way at the interrupt is tens of them
    if kind == "WARC.gz":
        source = tmp_path / "pages.warc.gz"
        stream = io.BytesIO()
        writer = WARCWriter(stream, gzip=True)
        headers = [("Content-Type", "text/html")]
        for number, page in enumerate(pages):
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(f"https://p.example/{number}", "response", payload=io.BytesIO(page.encode()), http_headers=http))
        source.write_bytes(stream.getvalue())
        monkeypatch.setattr(batch, "_SPAN_BYTES", 1 << 15)  # (these pages compress well: spans of ~100)
    else:
        source = tmp_path / "pages"
        source.mkdir()
        for number, page in enumerate(pages):
            (source / f"{number}.html").write_text(page)
    counter = multiprocessing.Value("q", 0)
    real = batch.extract_page

    def counted(*args: object, **kwargs: object) -> object:
        with counter.get_lock():
            counter.value += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "extract_page", counted)
    at_interrupt: list[int] = []

    def interrupt(tally: batch.Tally) -> None:
        if tally.pages == 100:  # past the first, small chunks: every chunk now holds 32 pages
            at_interrupt.append(counter.value)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch([str(source)], tmp_path / "out.jsonl", options=BatchOptions(jobs=2), on_page=interrupt)
    after = counter.value - at_interrupt[0]
    assert after <= 2 * 2, f"{after} pages extracted after the interrupt"


def test_a_worker_leaves_nothing_for_the_garbage_collector(tmp_path: Path) -> None:
    """A worker's memory follows the page in hand only if every object that a page's extraction
    or a span's reading makes is freed by its reference count when done. An object in a
    reference cycle waits for the collector's full collection, which comes rarely in a
    long-lived process (the collector counts objects, not the bytes a tree or an inflater holds):
    each span's warcio reader (its inflater, the last inflated bytes, the record) and each
    label's text walk (the page's whole lxml tree) waited so, and a worker reading a WARC.gz grew
    by 9-11 MiB over 10,000 pages. Counted: the cycles the collector finds after the seeded form
    and ordinary-markup pages are read as files, in spans of a WARC.gz and record by record
    (``record_at``), in every profile. Pages the fast path leaves are left out: html5lib's tree
    builder makes a cycle of each element, out of formtools' hands."""
    import gc
    from collections import Counter

    from warcio.statusandheaders import StatusAndHeaders as Headers

    from formtools._parse.fast import fast_document
    from tests.support.formgen import generate_pages
    from tests.support.markupgen import ordinary_pages

    pages = [
        page.encode()
        for _, page in [*generate_pages(20, seed=SEED), *ordinary_pages(20, seed=SEED)]
        if fast_document(page.encode()) is not None
    ]
    assert len(pages) >= 30
    files = tmp_path / "pages"
    files.mkdir()
    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=True)
    for number, page in enumerate(pages):
        (files / f"{number:03d}.html").write_bytes(page)
        http = Headers("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(f"https://p.example/{number}", "response", payload=io.BytesIO(page), http_headers=http))
    archive = tmp_path / "pages.warc.gz"
    archive.write_bytes(stream.getvalue())
    size, span = archive.stat().st_size, 1 << 14
    with archive.open("rb") as index:
        where = [r.location for r in warc.warc_records(index, str(archive), 1 << 20, bodies=False) if isinstance(r, warc.Record)]
    paths = tuple(batch.HtmlFile(str(path), 0) for path in sorted(files.iterdir()))

    def extract(profile: str) -> int:
        lines = len(batch.extract_pages(paths, profile, True, 1 << 20, None))
        for start in range(0, size, span):
            part = batch.ArchiveSpan(str(archive), start, min(start + span, size), known=start == 0)
            lines += len(batch.extract_span(part, profile, True, 1 << 20, None).outcomes)
        with archive.open("rb") as records:
            lines += sum(1 for location in where if warc.record_at(records, location, 1 << 20))
        return lines

    # the weak references of abc's caches (a class's cache set is replaced, not grown, and freed
    # by the collector), and the few objects of the count itself
    bookkeeping = {"ReferenceType", "builtin_function_or_method"}
    for profile in ("chromium", "html", "portable"):
        extract(profile)  # what loads once (modules, tables, classes made when first needed)
        gc.collect()
        gc.disable()  # (a cycle broken by a finalizer, as a suspended generator's, is not
        try:  # counted by gc.collect: the objects the collector tracks are counted instead)
            before = Counter(type(thing).__qualname__ for thing in gc.get_objects())
            assert extract(profile) == 3 * len(pages)
            left = Counter(type(thing).__qualname__ for thing in gc.get_objects()) - before
        finally:
            gc.enable()
        kept = sum(count for kind, count in left.items() if kind not in bookkeeping)
        assert kept <= 8, f"{profile}: objects left for the collector: {left.most_common(8)}"
