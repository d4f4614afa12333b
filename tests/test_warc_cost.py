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
import io
import multiprocessing
import sys
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

    def decompress(self, data: bytes) -> bytes:
        out: bytes = self._inner.decompress(data)
        with self._counter.get_lock():
            self._counter.value += len(out)
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def inflated_by_batch(archive: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """The bytes ``formtools batch --jobs 2`` inflates reading ``archive`` (its workers are
    forked, so they count into the same shared counter)."""
    counter = multiprocessing.Value("q", 0)
    real = warc.zlib

    def decompressobj(wbits: int) -> _CountedInflate:
        return _CountedInflate(real.decompressobj(wbits), counter)

    with monkeypatch.context() as patched:
        counting = SimpleNamespace(MAX_WBITS=real.MAX_WBITS, decompressobj=decompressobj)
        patched.setattr(warc, "zlib", counting)
        options = BatchOptions(jobs=2, fetch=FetchOptions(max_bytes=MAX_BYTES))
        tally = run_batch([str(archive)], out, options=options)
    assert tally.workers == 2
    return int(counter.value)


@pytest.mark.skipif(
    sys.platform != "linux" or batch._start_method() != "fork",
    reason="counting the workers' inflating needs them forked",
)
def test_workers_inflate_a_warc_gzipped_whole_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every record in one gzip member, ``--jobs 2`` inflates the archive at most about
    twice (the parent's index, then a worker's read of the first record) at n and 2n records,
    and writes the lines of ``--jobs 1``, byte for byte, a cut archive's damage line included."""
    for records in (150, 300):
        plain = plain_warc(records)
        size = len(plain)
        archive = tmp_path / f"whole{records}.warc.gz"
        archive.write_bytes(gzip.compress(plain))
        cut = tmp_path / f"cut{records}.warc.gz"
        cut.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
        inflated = inflated_by_batch(archive, tmp_path / "jobs2.jsonl", monkeypatch)
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
