"""Damaged archives, generated: every cut and every flipped byte of real WARC and WARC.gz files.

warcio alone reads a cut gzip member as a shorter one and a record whose bytes run out as a
shorter record, so a truncated download used to look like a smaller crawl. The property held
here for every cut position: the records wholly before the cut come out, then exactly one
damage report naming the archive, a byte offset and a record index — except at the positions
where the cut leaves a valid, shorter archive (between gzip members; between records).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from formtools._crawl.warc import Damage, Record, record_at, warc_records

PAGES = [
    (f"https://site.example/{i}", f'<form toolname="t{i}" tooldescription="d"><input name=q></form>{"x" * (97 * i)}')
    for i in range(6)
]


def archive(gzip: bool) -> tuple[bytes, list[int]]:
    """An archive of PAGES and the offsets where each record (gzip: member) ends."""
    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=gzip)
    ends = []
    for url, html in PAGES:
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(url, "response", payload=io.BytesIO(html.encode()), http_headers=headers)
        )
        ends.append(stream.tell())
    return stream.getvalue(), ends


def read(data: bytes) -> tuple[list[Record], list[Damage]]:
    items = list(warc_records(io.BytesIO(data), "a.warc", 1 << 20))
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Damage)]


@pytest.mark.parametrize("gzip", [True, False], ids=["warc.gz", "warc"])
def test_every_cut_is_reported_after_the_records_before_it(gzip: bool) -> None:
    data, ends = archive(gzip)
    starts = [0, *ends[:-1]]
    checked = 0
    for cut in range(0, len(data) + 1, 1 if gzip else 3):
        records, damages = read(data[:cut])
        whole = sum(1 for end in ends if end <= cut)
        # a cut inside an uncompressed record's closing CRLF CRLF leaves its block whole
        boundary = cut in (0, *ends) or (not gzip and any(end - 4 < cut < end for end in ends))
        assert [r.url for r in records][:whole] == [url for url, _ in PAGES[:whole]], cut
        assert all(r.body == PAGES[r.index][1].encode() for r in records), cut
        if boundary:
            assert damages == [] and len(records) in (whole, whole + 1), cut
            continue
        assert len(damages) == 1, cut
        (damage,) = damages
        damaged = next(i for i, end in enumerate(ends) if cut < end)
        assert (damage.record, damage.offset) == (damaged, starts[damaged]), (cut, damage)
        # a record whose block was whole but whose member lost its CRC trailer is still given
        assert len(records) in (damaged, damaged + 1), cut
        assert str(damage).startswith(f"a.warc: damaged archive at byte {starts[damaged]:,} ")
        checked += 1
    assert checked > 300


def test_every_flipped_byte_of_a_gzip_archive_is_caught() -> None:
    """gzip's CRC catches a corrupted WARC.gz member: the records before it survive, and no
    corrupted record ever comes out. (A flipped bit in a deflate block's padding changes no data
    at all: then every record comes out, intact.)"""
    data, ends = archive(gzip=True)
    starts = [0, *ends[:-1]]
    for position in range(0, len(data), 5):
        damaged = next(i for i, end in enumerate(ends) if position < end)
        if position - starts[damaged] in range(4, 10):  # gzip header flags/mtime/xfl/os: unchecked
            continue
        corrupt = bytearray(data)
        corrupt[position] ^= 0x5A
        records, damages = read(bytes(corrupt))
        assert all(r.body == PAGES[r.index][1].encode() for r in records), position
        if damages:
            assert [r.index for r in records] == list(range(damaged)), position
            assert [d.record for d in damages] == [damaged], position
        else:
            assert [r.index for r in records] == list(range(len(PAGES))), position


def run_batch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "formtools", "batch", *args], capture_output=True, text=True, check=False
    )


def test_batch_reports_a_truncated_download_and_fails_unless_allowed(tmp_path: Path) -> None:
    data, ends = archive(gzip=True)
    cut = tmp_path / "crawl.warc.gz"
    cut.write_bytes(data[: ends[3] + 40])  # three records and a bit of the fourth
    out = tmp_path / "tools.jsonl"
    failed = run_batch(str(cut), "--out", str(out), "-j", "1")
    assert failed.returncode == 2
    assert "1 damaged archives" in failed.stderr
    assert "formtools: error: 1 archives are damaged" in failed.stderr
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(f["url"] for f in found if "url" in f) == [url for url, _ in PAGES[:4]]
    assert [f for f in found if "path" in f] == [
        {
            "path": str(cut),
            "input": str(cut),
            "error": f"{cut}: damaged archive at byte {ends[3]:,} (record 4): "
            "the file ends inside a gzip member",
        }
    ]
    allowed = run_batch(str(cut), "--out", str(out), "-j", "1", "--allow-damaged")
    assert allowed.returncode == 0, allowed.stderr
    assert sorted(out.read_text().splitlines()) == sorted(
        json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in found
    )


def index(data: bytes) -> tuple[list[Record], list[Damage]]:
    items = list(warc_records(io.BytesIO(data), "a.warc", 1 << 20, bodies=False))
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Damage)]


@pytest.mark.parametrize("gzip", [True, False], ids=["warc.gz", "warc"])
def test_an_index_without_bodies_finds_each_record_where_it_can_be_read_alone(gzip: bool) -> None:
    """``formtools batch`` indexes an archive and its workers read each record alone from its
    location: at every cut, the index holds the records, plain bodies and damage of a full
    read, and every location reads back the body a full read gives."""
    data, ends = archive(gzip)
    for cut in range(0, len(data) + 1, 7 if gzip else 11):
        records, damages = read(data[:cut])
        indexed, index_damages = index(data[:cut])
        assert [(r.index, r.url, r.body, r.has_body) for r in indexed] == [
            (r.index, r.url, r.body, True) for r in records
        ], cut
        assert index_damages == damages, cut
        for record in indexed:
            assert record_at(io.BytesIO(data[:cut]), record.location, 1 << 20) == (
                PAGES[record.index][1].encode()
            ), (cut, record.location)


def test_records_are_found_in_concatenated_archives_and_in_a_member_holding_many() -> None:
    """Archives concatenated (``cat a.warc.gz b.warc.gz``) stay one valid archive; a WARC
    compressed as one gzip member (``gzip crawl.warc``) holds every record in one member, so a
    record is found by the member's offset and the bytes to skip in its decompressed data."""
    import gzip as gz

    compressed, ends = archive(True)
    plain, _ = archive(False)
    cases = {
        "concatenated": (compressed * 3, 3 * len(PAGES)),
        "one member": (gz.compress(plain), len(PAGES)),
    }
    for name, (data, count) in cases.items():
        indexed, damages = index(data)
        assert damages == [] and len(indexed) == count, name
        bodies = [record_at(io.BytesIO(data), r.location, 1 << 20) for r in indexed]
        assert bodies == [PAGES[i % len(PAGES)][1].encode() for i in range(count)], name
    second = index(compressed * 2)[0][len(PAGES)]
    assert (second.location.offset, second.location.skip) == (len(compressed), 0)
    assert second.location.length == ends[0]  # its gzip member and nothing more
    one = index(gz.compress(plain))[0]
    assert {r.location.offset for r in one} == {0} and one[-1].location.skip > 0


def test_an_index_leaves_coded_bodies_to_the_reader() -> None:
    """A chunked or gzip-coded body is not decoded by the index (``has_body`` false): the
    reader of the record decodes it, as warcio does for a full read."""
    import gzip as gz

    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=True)
    page = PAGES[1][1].encode()
    codings = {
        "chunked": ([("Transfer-Encoding", "chunked")], b"%x\r\n%s\r\n0\r\n\r\n" % (len(page), page)),
        "gzip": ([("Content-Encoding", "gzip")], gz.compress(page)),
        "plain": ([], page),
    }
    for name, (extra, payload) in codings.items():
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), *extra], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(f"https://site.example/{name}", "response",
                                      payload=io.BytesIO(payload), http_headers=headers)
        )
    data = stream.getvalue()
    indexed, damages = index(data)
    assert damages == [] and [(r.url, r.has_body) for r in indexed] == [
        ("https://site.example/chunked", False),
        ("https://site.example/gzip", False),
        ("https://site.example/plain", True),
    ]
    assert [r.body for r in read(data)[0]] == [page] * 3
    assert [record_at(io.BytesIO(data), r.location, 1 << 20) for r in indexed] == [page] * 3


def _member(record: bytes) -> bytes:
    import gzip as gz

    return gz.compress(record, mtime=0)


HEADER_DAMAGE = {
    # a record line no WARC reader accepts
    "record line": lambda record: record.replace(b"WARC/1.0", b"XARC/1.0", 1),
    # a Content-Length that is not a number
    "content length": lambda record: record.replace(b"Content-Length: ", b"Content-Length: x", 1),
}


def damaged_archives() -> list[tuple[str, bytes, int, int]]:
    """(name, archive, damaged record, where its gzip member begins) for every record of the
    archive and every kind of damage: a corrupted record line or header inside a gzip member
    whose CRC is intact, and a member of garbage inserted before the record."""
    plain, plain_ends = archive(gzip=False)
    records = [plain[start:end] for start, end in zip([0, *plain_ends[:-1]], plain_ends)]
    members = [_member(record) for record in records]
    cases = []
    for k in range(len(records)):
        before = b"".join(members[:k])
        after = b"".join(members[k + 1 :])
        for name, damage in HEADER_DAMAGE.items():
            changed = damage(records[k])
            assert changed != records[k]
            cases.append((f"{name}-{k}", before + _member(changed) + after, k, len(before)))
        garbage = _member(b"NOTWARC/1.0\r\nfoo: bar\r\n\r\n")
        cases.append((f"inserted-{k}", before + garbage + members[k] + after, k, len(before)))
    return cases


def test_damage_inside_an_intact_gzip_member_is_reported_where_the_member_begins() -> None:
    """The offset of a damaged record is its gzip member's, wherever read-ahead had got to (the
    whole archive is one read: the last member begun was the archive's last)."""
    for name, data, record, start in damaged_archives():
        for read_with in (read, index):
            records, damages = read_with(data)
            assert [r.index for r in records] == list(range(record)), name
            assert [(d.record, d.offset) for d in damages] == [(record, start)], (name, damages)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_reports_damage_inside_an_intact_member_at_the_member(tmp_path: Path, jobs: str) -> None:
    expected = {}
    for name, data, record, start in damaged_archives():
        path = tmp_path / f"{name}.warc.gz"
        path.write_bytes(data)
        expected[str(path)] = f"{path}: damaged archive at byte {start:,} (record {record}): "
    done = run_batch(*expected, "--out", "-", "-j", jobs, "--allow-damaged")
    assert done.returncode == 0, done.stderr
    errors = [json.loads(line) for line in done.stdout.splitlines() if '"error"' in line]
    found = {e["path"]: e["error"] for e in errors}
    assert found.keys() == expected.keys()
    for path, error in found.items():
        assert error.startswith(expected[path]), error
