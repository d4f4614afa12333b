"""Batch extraction: many pages in, one JSON line per page out, for crawls.

Pages stream in from directories, files, WARC archives and URL lists (fetched concurrently) and
stream out as JSON lines, so memory stays flat however many pages there are. With a page costing
a few milliseconds, the parent process must stay out of the way. It sends the workers *where*
pages are, not their bytes: for files their paths (the parent only walks the directories), for
a WARC.gz spans of the file, which each worker reads whole (see :func:`_spanned`: the archive is
inflated once, in parallel). Each worker reads its pages, runs the byte prefilter (most crawled
pages hold no tool and are never parsed) and extracts. A plain WARC, or any archive under
``--resume``, is indexed here instead: the parent sends each record's place in the archive (see
:func:`.warc.record_at`), prefiltering the plain bodies that pass by and writing their
``skipped`` lines itself, so that only candidates cost a worker a second read. Pages that exist
nowhere but in the parent (fetched URLs) are prefiltered there too, and only candidates travel,
as bytes; so do the records a gzip member holds after others (a WARC gzipped whole), which a
worker could reach only by inflating the member up to them again, once per record.

Work goes out in chunks (a few dozen pages or about a megabyte) and comes back as the chunk's
output lines, at most two chunks per worker in flight. Workers are forked where the platform
allows it (Linux) after the parent has loaded the stages once, so a worker is ready in
milliseconds instead of starting an interpreter and importing everything again: that start-up,
paid per worker, was what made ``--jobs 2`` slower than ``--jobs 1`` on a small crawl. No pool is
made for an empty input. A page that cannot be read or parsed becomes an ``error`` line; the
batch goes on. The output is also the resume log: each line names its page and where it was
found (:class:`~formtools._crawl.pages.Origin`), and a rerun with ``resume`` skips exactly the
pages it holds, a page named twice in the input (a URL listed twice, a record archived twice)
once for each line.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from queue import SimpleQueue
from types import FrameType
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, TypeVar

from formtools._interrupts import held, holdable, waited
from formtools._crawl.pages import FetchOptions, Input, Origin, Page, Resumed, Unreadable
from formtools._spec.mime import AnswerHead, may_be_a_page, why_no_tools
from formtools._spec.jsjson import dumps, plain
from formtools._spec.scheme import is_url
from formtools._spec.limits import too_large
from formtools._synth.profile import get_profile, profile_names
from formtools.errors import SourceError, UsageProblem, WorkerLost, shown, shown_argument, shown_in_text

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from formtools._crawl.warc import Damage, Location, Record, SpanEnd

_T = TypeVar("_T")

__all__ = ["BatchOptions", "FetchOptions", "Outcome", "Page", "Tally", "cores", "run_batch"]

_HTML_SUFFIXES = (".html", ".htm")
_WARC_SUFFIXES = (".warc", ".warc.gz")


@dataclass(frozen=True)
class BatchOptions:
    profile: str = "chromium"
    all_forms: bool = False  # every page with a <form>: forms without toolname become tools too
    jobs: int = 0  # worker processes; 0: one per core (see cores()), 1: in this process
    resume: bool = False
    fetch: FetchOptions = FetchOptions()
    # seconds one page's parse may take (None: no limit): formtools._parse.DEFAULT_TIME_LIMIT,
    # not imported here (the parse stage loads where pages are extracted: start-up time)
    page_time_limit: float | None = 60.0


def cores() -> int:
    """The cores this process may run on: its affinity mask (which ``taskset``, cpusets and
    container limits narrow), not the machine's count. ``--jobs 0`` starts this many workers."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity masks on this platform (macOS, Windows)
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Outcome:
    """One output line and what it counts for."""

    line: str
    size: int
    tools: int = 0
    parsed: bool = False
    failed: bool = False
    damaged: bool = False


@dataclass
class Tally:
    """Running totals for the progress display and the closing summary."""

    pages: int = 0
    parsed: int = 0
    tools: int = 0
    failed: int = 0
    damaged: int = 0  # archives cut short or corrupt
    size: int = 0
    resumed: int = 0
    workers: int = 1  # processes extracting (1: this one)
    started: float = field(default_factory=time.perf_counter)

    def add(self, outcome: Outcome) -> None:
        self.pages += 1
        self.parsed += outcome.parsed
        self.tools += outcome.tools
        self.failed += outcome.failed
        self.damaged += outcome.damaged
        self.size += outcome.size

    def rates(self) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        return f"{self.pages / seconds:,.0f} pages/s, {self.size / seconds / 1e6:,.2f} MB/s"

    def summary(self) -> str:
        seconds = time.perf_counter() - self.started
        kept = f"; {self.resumed:,} already in the output" if self.resumed else ""
        if self.damaged:
            kept += f"; {self.damaged:,} damaged archives"
        skipped = self.pages - self.parsed - self.failed
        workers = "1 process" if self.workers == 1 else f"{self.workers} worker processes"
        return (
            f"{self.pages:,} pages ({self.parsed:,} parsed, {skipped:,} skipped by the "
            f"prefilter, {self.failed:,} errors), {self.tools:,} tools, "
            f"{self.size / 1e6:,.1f} MB in {seconds:.1f} s ({self.rates()}, {workers}){kept}"
        )


def _line(key: str, name: str, origin: Origin, **fields: Any) -> str:
    """One output line: the page's name, where it was found (see :class:`Origin`), what was
    found. Every line is written through here, so here a page named by its URL loses the URL's
    user name and password (:class:`Page` names it so already; an archive record's or a
    worker's error line comes this way too)."""
    if key == "url":
        name = shown(name)
    if isinstance(fields.get("error"), str):
        fields["error"] = shown_in_text(fields["error"])
    return plain(dumps({key: name, **origin.fields(), **fields}))  # (plain: --out - may be a terminal)


# --- in a worker ----------------------------------------------------------------------------


def extract_page(
    page: Page, profile: str, all_forms: bool = False, time_limit: float | None = BatchOptions.page_time_limit
) -> Outcome:
    """Parse and synthesize one page (runs in a worker process); ``all_forms``: with the
    inferred tools of its forms without toolname; ``time_limit``: the seconds its parse may take
    (a page built to cost the html5lib path more than its size is an error line, not a stall)."""
    from formtools._parse import parse_html  # the stages load where pages are extracted
    from formtools._synth.diagnostics import Severity
    from formtools._synth.synthesize import synthesize

    global _IN_PAGE
    try:
        _IN_PAGE = True
        if _STOP_ASKED:  # asked before the page began: the signal found no page to cut short
            raise _Stopped
        document = parse_html(
            page.body, url=page.url, content_type=page.content_type, source=page.name, time_limit=time_limit
        )
        result = synthesize(document, profile, all_forms=all_forms)
    except Exception as error:  # one bad page never stops the batch
        return _failed(page.key, page.name, f"{type(error).__name__}: {error}", len(page.body), origin=page.origin)
    finally:
        _IN_PAGE = False
    severities = [d.severity for d in result.diagnostics]
    line = _line(
        page.key,
        page.name,
        page.origin,
        tools=[tool.to_dict() for tool in result.tools],
        diagnostics={
            "errors": severities.count(Severity.ERROR),
            "warnings": severities.count(Severity.WARNING),
        },
    )
    return Outcome(line, len(page.body), tools=len(result.tools), parsed=True)


def _skipped(page: Page, all_forms: bool, reason: str | None = None) -> Outcome:
    """The line of a page never parsed: by default, one the prefilter found no tool in."""
    if reason is None:
        reason = "no <form" if all_forms else "no toolname attribute"
    line = _line(
        page.key, page.name, page.origin, tools=[], diagnostics={"errors": 0, "warnings": 0}, skipped=reason
    )
    return Outcome(line, len(page.body))


def _prefiltered(page: Page, profile: str, all_forms: bool, time_limit: float | None) -> Outcome:
    """The page extracted, or skipped if its bytes show it can hold no tool."""
    from formtools._parse.prefilter import may_hold_tools

    why = None if page.head is None else why_no_tools(page.head, page.body)
    if why is not None:  # an answer Chromium shows no HTML page for
        return _skipped(page, all_forms, why)
    if not may_hold_tools(page.body, page.content_type, all_forms=all_forms):
        return _skipped(page, all_forms)
    return extract_page(page, profile, all_forms, time_limit)


@dataclass(frozen=True)
class HtmlFile:
    """An HTML file for a worker to read: its path and the command-line input it came from."""

    name: str
    input: Input


def extract_file(
    file: HtmlFile,
    profile: str,
    all_forms: bool = False,
    time_limit: float | None = BatchOptions.page_time_limit,
    max_bytes: int = FetchOptions.max_bytes,
) -> Outcome:
    """Read the HTML file ``file`` (within ``max_bytes``, as every page of the batch), run the
    byte prefilter on it and extract it if it passes (runs in a worker process)."""
    from formtools._parse.sources import read_page

    origin = Origin(file.input)
    try:
        raw = read_page(file.name, max_bytes=max_bytes)
    except SourceError as error:
        return _failed("path", file.name, str(error), origin=origin)
    return _prefiltered(Page("path", file.name, raw.body, raw.url, None, origin), profile, all_forms, time_limit)


@dataclass(frozen=True)
class ArchiveRecord:
    """A WARC record for a worker to read: its archive, where it is in it, and what the parent
    read of its headers (URL, HTTP ``Content-Type``)."""

    archive: str
    url: str
    content_type: str | None
    location: Location
    input: Input
    head: AnswerHead

    @property
    def origin(self) -> Origin:
        return _record_origin(self.input, self.location)


def extract_record(
    record: ArchiveRecord, profile: str, all_forms: bool, max_bytes: int, time_limit: float | None
) -> Outcome:
    """Read a WARC record where the parent found it, prefilter and extract it (runs in a
    worker process): the same line as for the record's bytes read in the parent."""
    from formtools._crawl.warc import Undecodable, record_at

    url, origin = record.url, record.origin
    try:
        with open(record.archive, "rb") as archive:
            body = record_at(archive, record.location, max_bytes)
    except Undecodable as error:  # the line of --jobs 1, which reads it in the index
        return _failed("url", url, f"{url}: {error}", origin=origin)
    except (OSError, ValueError) as error:
        where = f"{record.archive} at byte {record.location.offset:,}"
        return _failed("url", url, f"{url}: cannot read the record ({where}): {error}", origin=origin)
    if len(body) > max_bytes:
        return _failed("url", url, too_large(url, max_bytes), origin=origin)
    return _prefiltered(Page("url", url, body, url, record.content_type, origin, record.head), profile, all_forms, time_limit)


@dataclass(frozen=True)
class ArchiveSpan:
    """Part of a WARC.gz for a worker to read whole: the records that begin a gzip member from
    byte ``start`` up to ``end`` (see :func:`_spanned`). ``known``: a record begins at ``start``,
    after ``records_before`` records in ``members_before`` members; else the worker looks for
    the first record from ``start`` and counts from there. ``input``: the command-line input it is."""

    archive: str
    start: int
    end: int
    known: bool = False
    records_before: int = 0
    members_before: int = 0
    input: Input | None = None


@dataclass(frozen=True)
class SpanResult:
    """A span's lines, where its first record was found (None: none in it), and how it ended:
    ``end`` where its records stop, or (None) the archive ends in it: ``damage`` (its line is
    the parent's to write, numbered once the records before the span are known), or an
    unreadable archive, whose line closes ``outcomes``."""

    outcomes: tuple[Outcome, ...]
    first: int | None
    end: SpanEnd | None = None
    damage: Damage | None = None


def extract_span(
    span: ArchiveSpan, profile: str, all_forms: bool, max_bytes: int, time_limit: float | None
) -> SpanResult:
    """Read one span of a WARC.gz and prefilter and extract its pages (runs in a worker
    process): the lines ``--jobs 1`` writes for those records."""
    from formtools._crawl.warc import Damage, Span, SpanAbandoned, SpanEnd, first_record_member, warc_span

    outcomes: list[Outcome] = []
    first = span.start if span.known else None
    try:
        with open(span.archive, "rb") as archive:
            limit = None
            if first is None:
                first = first_record_member(archive, span.start, span.end)
                if first is None:
                    return SpanResult((), None)
                # a guess reads at most a span past the span's end: the work spent on guesses
                # stays linear in the archive, whatever the guess begins (see Span.limit)
                limit = span.end + (span.end - span.start)
            archive.seek(first)
            reading = Span(first, span.end, span.records_before, span.members_before, limit)
            for item in warc_span(archive, span.archive, max_bytes, reading):
                if isinstance(item, SpanAbandoned):
                    return SpanResult((), None)  # as no guess: read from where the span before ends
                if isinstance(item, SpanEnd):
                    return SpanResult(tuple(outcomes), first, end=item)
                if isinstance(item, Damage):
                    return SpanResult(tuple(outcomes), first, damage=item)
                if _STOP_ASKED:
                    raise _Stopped
                page = _archived(item, max_bytes, span.input)
                if isinstance(page, Page):
                    outcomes.append(_prefiltered(page, profile, all_forms, time_limit))
                elif page is not None:
                    outcomes.append(_failed(page.key, page.name, page.error, origin=page.origin))
    except OSError as error:
        why = f"{span.archive}: cannot read the archive: {type(error).__name__}: {error}"
        outcomes.append(_failed("path", span.archive, why, origin=Origin(span.input)))
    return SpanResult(tuple(outcomes), first)


def _failed(
    key: str, name: str, error: str, size: int = 0, damaged: bool = False, origin: Origin = Origin()
) -> Outcome:
    return Outcome(_line(key, name, origin, error=error), size, failed=True, damaged=damaged)


# Work travels to a worker in chunks: with the fast parser a page takes a few milliseconds,
# which a task per page would largely spend on the pool's own round trip; chunks that are too
# large leave one worker alone with the last of them. Paths and archive records count by the
# bytes the worker will read. The first chunks are small, so that every worker starts at once
# rather than after the parent has gathered a full chunk for each.
_CHUNK_PAGES = 32
_CHUNK_BYTES = 2**20
_FIRST_CHUNK_PAGES = 4

_Work = Page | ArchiveRecord | HtmlFile


def extract_pages(
    items: Sequence[_Work], profile: str, all_forms: bool, max_bytes: int, time_limit: float | None
) -> list[Outcome]:
    """The outcome of each item of a chunk (runs in a worker process): a path is read, an
    archive record is read where it lies, then prefiltered and extracted; a :class:`Page`
    the parent read and prefiltered is extracted."""
    found = []
    for item in items:
        if _STOP_ASKED:
            raise _Stopped
        if isinstance(item, HtmlFile):
            found.append(extract_file(item, profile, all_forms, time_limit, max_bytes))
        elif isinstance(item, ArchiveRecord):
            found.append(extract_record(item, profile, all_forms, max_bytes, time_limit))
        else:
            found.append(extract_page(item, profile, all_forms, time_limit))
    return found


# --- sources --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spans:
    """A WARC.gz for the workers to read in spans (:func:`_spanned`), of ``size`` bytes, the
    command-line input ``input``."""

    archive: str
    size: int
    input: Input


# A source yields work for the workers (paths of files, records of archives: each with the bytes
# it will read, for chunking), pages the parent fetched, lines it could already write (records
# the prefilter skips), pages it could not read, and archives the workers read in spans.
_Item = tuple[_Work, int] | Page | Outcome | Unreadable | _Spans


def _file(name: str, size: int, input: Input, done: Resumed) -> Iterator[_Item]:
    if not done.has("path", name, Origin(input)):
        yield HtmlFile(name, input), size


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:
        return 0  # the worker reads it and reports why not


def _directory(root: Path, input: Input, done: Resumed) -> Iterator[_Item]:
    """The HTML files under ``root``. Only regular files are read: opening a FIFO named
    ``*.html`` blocks until something writes to it, which hung the batch (a pipe named on the
    command line is read: ``<(…)`` gives one)."""
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        for filename in sorted(files):
            if filename.lower().endswith(_HTML_SUFFIXES):
                name = os.path.join(folder, filename)
                try:
                    found = os.stat(name)
                except OSError:
                    found = None  # the worker reads it and reports why not
                if found is not None and not stat.S_ISREG(found.st_mode):
                    if not done.has("path", name, Origin(input)):
                        yield Unreadable("path", name, f"{name}: not a regular file, skipped", origin=Origin(input))
                    continue
                yield from _file(name, found.st_size if found else 0, input, done)


def _open_archive(path: str, input: Input) -> BinaryIO | Unreadable:
    try:
        return open(path, "rb")
    except OSError as error:
        why = f"{path}: cannot read the archive: {type(error).__name__}: {error}"
        return Unreadable("path", path, why, origin=Origin(input))


def _warc(path: str, input: Input, done: Resumed, max_bytes: int, all_forms: bool) -> Iterator[_Item]:
    """The HTML response records of a WARC or WARC.gz file, in file order, for the workers:
    where each is, to read it themselves. A plain body (no transfer or content coding) passes
    through the index anyway, so it is prefiltered here and only a candidate goes to a worker:
    in a crawl most records are skipped without a second inflate. A record that a gzip member
    holds after others (a WARC gzipped whole) goes as its bytes, which the index read: from its
    location a worker would inflate the member up to it again, once per record."""
    from formtools._crawl.warc import Damage, warc_records
    from formtools._parse.prefilter import may_hold_tools

    stream = _open_archive(path, input)
    if isinstance(stream, Unreadable):
        yield from _unless_done(stream, done)
        return
    with stream:
        for item in warc_records(stream, path, max_bytes, bodies=False):
            if isinstance(item, Damage):
                yield from _unless_done(Unreadable("path", path, str(item), damaged=True, origin=Origin(input)), done)
                continue
            url = shown(item.url or "")  # the name the output knows it by
            if done.has("url", url, _record_origin(input, item.location)):
                continue
            page = _archived(item, max_bytes, input)  # (a body left undecoded is empty here)
            if not isinstance(page, Page):
                if page is not None:
                    yield page
                continue
            if item.has_body:
                if not may_hold_tools(item.body, item.content_type, all_forms=all_forms):
                    yield _skipped(page, all_forms)
                    continue
                if item.location.skip:  # read alone, it costs its member inflated up to it
                    yield page, len(item.body)
                    continue
            where = item.location
            yield ArchiveRecord(path, url, item.content_type, where, input, item.head), where.length or 0


def warc_pages(
    stream: BinaryIO,
    path: str,
    done: Resumed = Resumed(),
    max_bytes: int = FetchOptions.max_bytes,
    input: Input | None = None,
) -> Iterator[Page | Unreadable]:
    """The HTML response records of the WARC or WARC.gz archive ``stream`` (named ``path``, the
    command-line input ``input`` if it is one), in file order, then an
    :class:`Unreadable` marked ``damaged`` if the archive is cut short or corrupt (see
    :mod:`.warc`). Any binary stream will do, so the Spark job reads archives the same way from
    HDFS or S3 bytes; ``formtools batch --jobs 1`` reads local archives so too."""
    from formtools._crawl.warc import Damage, warc_records

    for item in warc_records(stream, path, max_bytes):
        if isinstance(item, Damage):
            yield from _unless_done(Unreadable("path", path, str(item), damaged=True, origin=Origin(input)), done)
            continue
        if not done.has("url", shown(item.url or ""), _record_origin(input, item.location)):
            page = _archived(item, max_bytes, input)
            if page is not None:
                yield page


def _record_origin(input: Input | None, location: Location) -> Origin:
    """An archived record's origin: its archive's input, where it begins in the archive."""
    return Origin(input, location.offset, location.skip)


def _archived(record: Record, max_bytes: int, input: Input | None) -> Page | Unreadable | None:
    """A response record as a page, why it cannot be read, or None when it is no HTML page."""
    url = shown(record.url or "")  # the name the output knows it by
    origin = _record_origin(input, record.location)
    if not may_be_a_page(record.head):
        return None
    if record.error is not None:
        return Unreadable("url", url, f"{url}: {record.error}", origin=origin)
    if len(record.body) > max_bytes:
        return Unreadable("url", url, too_large(url, max_bytes), origin=origin)
    if record.has_body and why_no_tools(record.head, record.body) is not None:
        return None  # no HTML page in Chromium, as a record of another type is none
    return Page("url", url, record.body, url, record.content_type, origin, record.head)


def _warc_here(path: str, input: Input, done: Resumed, max_bytes: int) -> Iterator[_Item]:
    """``--jobs 1``: the archive's pages read in this process, in one pass."""
    stream = _open_archive(path, input)
    if isinstance(stream, Unreadable):
        yield from _unless_done(stream, done)
        return
    with stream:
        yield from warc_pages(stream, path, done, max_bytes, input)


def _gzipped(path: str) -> bool:
    from formtools._crawl.warc import begins_gzip

    try:
        with open(path, "rb") as archive:
            return begins_gzip(archive.read(2))
    except OSError:
        return False  # read as before, which says why it cannot be


# A WARC.gz goes to the workers in spans of this many bytes of the file, each read whole by one
# worker, so that the archive is inflated once, in parallel: indexing it here first cost this
# process an inflate of the whole archive, and each worker another of its records (--jobs 2 on a
# 2-core machine: 1.59x --jobs 1, the directory of the same pages 1.76x). A quarter of a MiB
# holds about as many pages as a chunk of files (a MiB of pages, inflated), so the first lines come
# as early (an interrupted run stops each worker at once, whatever the size: _stop_asked).
_SPAN_BYTES = 1 << 18


def _spanned(archive: _Spans, workers: _Workers, limits: tuple[Any, ...], in_flight: int) -> Iterator[Outcome]:
    """The lines of a WARC.gz read in spans by the workers, in file order: exactly those of one
    reading from its start. Each span reads the records beginning a gzip member in its bytes,
    from the first it finds, up to the first record beginning a member at or past its end, and
    says where that is. A span's first record is a guess (see
    :func:`~formtools._crawl.warc.first_record_member`) until the span before it ends exactly
    there; otherwise, and when its records end in damage, whose report numbers the records
    before it, the span is read again from where the one before ended, knowing the counts.
    A span that the records before it reach past is dropped. ``size``: the archive's, when it
    was found (a file gone since is the workers' to report, as one reading reports it); ``limits``:
    :func:`extract_span`'s after the span."""
    from collections import deque

    size, input = archive.size, archive.input

    bounds = iter(range(0, size, _SPAN_BYTES))
    queue: deque[tuple[int, Future[SpanResult]]] = deque()

    def fill() -> None:
        while len(queue) < in_flight and (start := next(bounds, None)) is not None:
            span = ArchiveSpan(archive.archive, start, min(start + _SPAN_BYTES, size), known=start == 0, input=input)
            queue.append((start, workers.submit(extract_span, span, *limits)))

    expected = records = members = 0  # where the next record begins, and what came before it
    fill()
    while queue:
        start, future = queue.popleft()
        result = workers.result(future)
        end = min(start + _SPAN_BYTES, size)
        if expected < end:
            if result.first != expected or (result.damage is not None and (records, members) != (0, 0)):
                again = ArchiveSpan(
                    archive.archive, expected, end, True, records_before=records, members_before=members, input=input
                )
                result = workers.result(workers.submit(extract_span, again, *limits))
            yield from result.outcomes
            if result.end is None:  # the archive ends in this span
                if result.damage is not None:
                    yield _failed("path", archive.archive, str(result.damage), damaged=True, origin=Origin(input))
                for _, left in queue:
                    workers.cancel(left)
                return
            expected = result.end.offset
            records += result.end.records
            members += result.end.members
        fill()


def _unless_done(archive_error: Unreadable, done: Resumed) -> Iterator[Unreadable]:
    """An archive's error line, unless a resumed output has it. The archive is read again all
    the same: with workers its error line can be written before its records' lines."""
    if not done.has("path", archive_error.name, archive_error.origin):
        yield archive_error


def _named(inputs: Sequence[str]) -> list[Input]:
    """Each input as its pages' lines name it (:class:`Input`): by name, the same name counted."""
    seen: dict[str, int] = {}
    named = []
    for name in inputs:
        named.append(Input(name, seen.get(name, 0)))
        seen[name] = seen.get(name, 0) + 1
    return named


def _pages(
    inputs: Sequence[str],
    urls: BinaryIO | None,
    done: Resumed,
    fetch: FetchOptions,
    all_forms: bool,
    here: bool,
    before_threads: Callable[[], None],
) -> Generator[_Item, None, None]:
    """Every input's items; ``here``: archives are read in this process (no workers);
    ``before_threads`` runs before the URL fetcher starts its thread."""
    for input, name in zip(_named(inputs), inputs):
        if os.path.isdir(name):
            yield from _directory(Path(name), input, done)
        elif name.lower().endswith(_WARC_SUFFIXES):
            try:
                found: os.stat_result | None = os.stat(name)
            except OSError:
                found = None  # _warc says why it cannot be read
            if here or (found is not None and not stat.S_ISREG(found.st_mode)):
                # a pipe (or a device) is read once, as it comes: its first bytes, looked at, are
                # gone, and neither workers nor spans can open it again where a record is (spans
                # of a pipe, its size 0, gave no line at all; the index hung on it)
                yield from _warc_here(name, input, done, fetch.max_bytes)
            elif found is not None and not done and _gzipped(name):
                yield _Spans(name, found.st_size, input)
            else:
                yield from _warc(name, input, done, fetch.max_bytes, all_forms)
        else:
            yield from _file(name, _size(name), input, done)
    if urls is not None:
        from formtools._crawl.urls import fetched  # httpx and asyncio only for URL lists

        before_threads()
        yield from fetched(urls, done, fetch)


# --- the run --------------------------------------------------------------------------------


@contextmanager
def _opened_list(urls: str | Path | None) -> Iterator[BinaryIO | None]:
    """The URL list open, read as it comes (a file, a pipe: ``--urls <(grep …)``, a device),
    or one line naming why it cannot be, by the rule of every path a user gives
    (:func:`~formtools._parse.sources.opened`)."""
    if urls is None:
        yield None
        return
    from formtools._parse.sources import opened

    try:
        listing = opened(str(urls), "a list of URLs")
    except SourceError as error:
        raise SourceError(f"--urls: {error}") from None
    with listing:
        yield listing


@contextmanager
def _written_from_its_first_line(out: Path | TextIO, *, append: bool) -> Iterator[Callable[[str], object]]:
    """A writer of ``out`` that opens the file (truncating it, or to append under ``--resume``)
    when its first line is written: a run that fails before its first line, as a URL list whose
    first read fails, changes nothing (it left an empty output, or emptied the last run's). A
    run that ends without a line still leaves its output, empty."""
    if not isinstance(out, Path):
        yield out.write
        return
    opened: list[TextIO] = []

    def write(text: str) -> object:
        if not opened:
            opened.append(out.open("a" if append else "w", encoding="utf-8"))
        return opened[0].write(text)

    try:
        yield write
        write("")
    finally:
        for file in opened:
            file.close()


def _refuse_missing_inputs(inputs: Sequence[str]) -> None:
    """Refuse an input named on the command line that does not exist: a mistyped path is the
    user's mistake, said in one line before the output is opened (it used to become an ``error``
    line in a fresh output and exit 0, or be appended under ``--resume``). A file that exists
    but cannot be read, or one that goes away during the run, stays its page's ``error`` line."""
    for name in inputs:
        try:
            os.stat(name)
        except (FileNotFoundError, NotADirectoryError):
            raise SourceError(f"{shown_argument(name)}: no such file or directory") from None
        except OSError:  # there, but not readable (permissions, a loop of links): the page's line says why
            pass


def _refuse_output_among_inputs(out: Path, inputs: Sequence[str]) -> None:
    """Refuse an output that is one of the inputs (the output is truncated before the inputs
    are read: an archive named twice was emptied, and the run reported 0 pages) or an HTML file
    in an input directory (it would be read as a page while being written). The file written
    is the one ``out`` leads to, through its symbolic links: judged by the name it was given, an
    ``out.jsonl`` linking to an input directory's ``a.html`` truncated that page and wrote the
    lines in its place."""
    written = out.resolve()
    for name in inputs:
        try:
            same = os.path.samefile(name, out)
        except OSError:  # either does not exist yet: they are not the same file
            same = False
        if same:
            raise UsageProblem(f"--out: {shown_argument(str(out))} is the input {shown_argument(name)}: write the lines elsewhere")
        if (
            written.name.lower().endswith(_HTML_SUFFIXES)
            and os.path.isdir(name)
            and written.is_relative_to(Path(name).resolve())
        ):
            leads = "" if written == out.absolute() else f" (a link to {shown_argument(str(written))})"
            raise UsageProblem(
                f"--out: {shown_argument(str(out))}{leads} is an HTML file in the input directory "
                f"{shown_argument(name)}: write the lines elsewhere"
            )


def _refuse_unwritable_output(out: Path) -> None:
    """Refuse an output that cannot be written, before any page is read: the output is opened
    at its first line (so that a run failing before it changes nothing), and a run of URLs
    fetched its first page before ``cannot write the output`` came. The file is not created
    (nor truncated): an existing one is opened for writing as it is, and for a new one the
    directory is asked for an unnamed file, gone when closed. A pipe or a device is left to the
    run: opening and closing a pipe would end its reader's input."""
    try:
        if out.is_file():
            os.close(os.open(out, os.O_WRONLY))
        elif not out.exists():
            tempfile.TemporaryFile(dir=out.parent).close()
    except OSError as error:
        raise UsageProblem(f"--out: {shown_argument(str(out))}: cannot write: {error.strerror or error}") from None


def _finished(out: Path) -> Resumed:
    """The pages ``out`` already has a line for, by name and :class:`Origin`; by name alone for
    a line without origin (written by a formtools before origins were). A torn last line (an interrupted
    run) is cut off, so that page is done again; a line that is no JSON object naming a page by
    a string, with whole numbers for its origin, is passed over."""
    import json

    exact: set[tuple[str, str, Origin]] = set()
    named: set[tuple[str, str]] = set()
    whole = 0
    with out.open("rb") as lines:
        for line in lines:
            if not line.endswith(b"\n"):
                break
            whole += len(line)
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):  # a line of some other tool: no page of ours
                continue
            origin = _origin_of(record)
            for key in ("path", "url"):
                name = record.get(key)
                if not isinstance(name, str) or origin is None:
                    continue
                if origin.input is None and origin.line is None:
                    named.add((key, name))
                else:
                    exact.add((key, name, origin))
    if whole < out.stat().st_size:
        os.truncate(out, whole)
    return Resumed(frozenset(exact), frozenset(named))


def _origin_of(record: dict[str, Any]) -> Origin | None:
    """A line's :class:`Origin` (None: a field of it of the wrong kind: an input that is no string, a number that is no whole one)."""
    fields = {name: record.get(name) for name in ("copy", "offset", "skip", "line")}
    if not all(value is None or (type(value) is int and value >= 0) for value in fields.values()):
        return None
    name = record.get("input")
    if name is not None and not isinstance(name, str):
        return None
    given = Input(name, fields["copy"] or 0) if name is not None else None
    return Origin(given, fields["offset"], fields["skip"] or 0, fields["line"])


def _load_stages(profile: str) -> None:
    """Import the stages and extract a small page once, so that forked workers start with
    everything loaded (lexbor, the profile's tables, compiled patterns) instead of each
    loading it again."""
    from formtools._parse import prefilter, sources  # noqa: F401 (what workers use)

    extract_page(Page("path", "", b"<form toolname=t><input name=q></form>", None, None), profile)


def _start_method() -> str:
    """``fork`` on Linux while this process runs no other thread (a thread holding a lock at the
    fork would leave it held for ever in the child); ``spawn`` elsewhere, and in a threaded
    program (macOS's system libraries break after fork)."""
    import threading

    return "fork" if sys.platform == "linux" and threading.active_count() == 1 else "spawn"


#: Linux's prctl option that gives a process a signal for its parent's death.
_PR_SET_PDEATHSIG = 1


#: The signal a parent whose run is interrupted (Ctrl-C, SIGTERM) sends its workers: each stops
#: at once instead of finishing its chunk or span, whose lines nobody would write. Without it the
#: parent's exit waited for the work under way: a span of small pages is hundreds of them, and
#: the page in hand alone could be a costly one, parsed until --page-time-limit (a minute).
#: Windows has no SIGUSR1: there, any signal os.kill sends ends the worker outright, as the pool
#: takes a worker's death (it stops the others).
_STOP_SIGNAL: int = getattr(signal, "SIGUSR1", signal.SIGTERM)

#: In a worker: whether the parent asked it to stop, and whether it is parsing or synthesizing a
#: page, which the ask cuts short (:class:`_Stopped`). Plain flags, not the pool's queues or a
#: multiprocessing Event, whose locks a handler that raises could leave taken.
_STOP_ASKED = False
_IN_PAGE = False


class _Stopped(BaseException):
    """Raised in a worker's page in hand when its parent stops the workers: a BaseException, so
    that the page's ``except Exception`` does not make it an error line. It ends the chunk or
    span as its exception, never as a shorter result: a stop signal someone else sent a worker
    (the parent was not interrupted, and reads on) made every chunk that worker had left return
    what it had done, nothing for the chunks after, and the batch exited 0 with their lines
    missing (15,026 of 20,000 pages). The parent reports it as :class:`WorkerLost`."""


def _stop_asked(signum: int, frame: FrameType | None) -> None:
    global _STOP_ASKED
    _STOP_ASKED = True
    if _IN_PAGE:
        raise _Stopped


def _worker_start(parent: int) -> None:
    """Each worker's initializer: SIGTERM ends the worker as Python's default does (a forked
    worker inherits the command's handler, which turns it into an interrupt to clean up after);
    Ctrl-C, which a terminal sends to every process of the batch, is the parent's to act on (it
    stops the workers with :data:`_STOP_SIGNAL`): a worker it interrupted could die holding the lock of
    the pool's result queue, or take it again in its own error path, and the other workers and
    the parent's shutdown then waited for that lock for ever (one Ctrl-C in about 30 hung so, or
    printed a worker's traceback). The worker also ends when the batch process does, however
    that ends. A forked worker holds both ends of the pool's call queue, so a parent killed
    (SIGTERM, kill -9, the OOM killer) sends it no end of file: it waited for work for ever, an orphan
    holding the parent's standard error open, so that whoever read that pipe waited too. On
    Linux, where workers are forked, the kernel kills it with its parent (the signal follows the
    thread that started the pool, which outlives it: :func:`run_batch` shuts the pool down before
    returning). Spawned workers elsewhere see the queue's end when their parent dies.

    A forked worker also inherits the parent's wakeup fd (``signal.set_wakeup_fd``: asyncio's
    ``add_signal_handler``, trio, Qt), where Python writes each signal its handlers take: the
    stop signal of an interrupted batch's workers reached the caller's loop as its own, and a
    handler the caller had for SIGUSR1 ran once per worker. The worker's signals are its own;
    the stop signal, blocked as the parent forked it (:meth:`_Workers.start`), is taken from here
    on: one sent between the fork and this (a Ctrl-C held in the start, raised as it returns,
    stops the workers just forked) went to the caller's loop through the inherited fd."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _STOP_SIGNAL != signal.SIGTERM:
        signal.signal(_STOP_SIGNAL, _stop_asked)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {_STOP_SIGNAL})
    if sys.platform != "linux":
        return
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


@contextmanager
def _lost_workers() -> Iterator[None]:
    """The pool's BrokenProcessPool, a traceback at the command line, as a one-line error."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        yield
    except BrokenProcessPool:
        raise WorkerLost(
            "a worker process ended abruptly (killed, or out of memory): "
            "the lines written so far stand, and --resume goes on from them"
        ) from None
    except _Stopped:
        raise WorkerLost(
            f"a worker process was stopped by a signal from outside ({signal.Signals(_STOP_SIGNAL).name}): "
            "the lines written so far stand, and --resume goes on from them"
        ) from None


class _Workers:
    """The worker processes, made when the first chunk is ready (an empty input makes none) or
    before the URL fetcher starts its thread, whichever comes first, so that the command forks
    them (see :func:`_start_method`); with ``--jobs 1``, this process.

    Every call into the pool and on a future runs with interrupts held
    (:mod:`formtools._interrupts` says why), and the waits for the workers are in
    SimpleQueue.get, calls of C that an interrupt leaves as it found it, woken to run a handler
    whichever thread took the signal (:func:`formtools._interrupts.waited`): where the run
    spends its time, waiting, an interrupt stops it at once."""

    def __init__(self, jobs: int, profile: str) -> None:
        self._jobs = jobs
        self._profile = profile
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Fork the workers, if they are not running yet (``--jobs 1``: there are none)."""
        if self._pool is not None or self._jobs == 1:
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with held():
            method = _start_method()
            if method == "fork":
                _load_stages(self._profile)
            context = multiprocessing.get_context(method)
            self._pool = ProcessPoolExecutor(
                self._jobs, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
            )
            # the first submission forks every worker, before the pool starts its own thread;
            # a worker takes the stop signal once its initializer has set its handlers
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {_STOP_SIGNAL})
            try:
                self._pool.submit(int)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def submit(
        self, fn: Callable[..., _T], /, *args: Any, finished: SimpleQueue[Future[_T]] | None = None
    ) -> Future[_T]:
        """``fn(*args)`` in a worker (``--jobs 1``: here and now, where an interrupt stops it at
        once); the future is also put in ``finished`` once it is done."""
        from concurrent.futures import Future

        if self._jobs == 1:
            value = fn(*args)
            with held():
                future: Future[_T] = Future()
                future.set_result(value)
        else:
            self.start()
            assert self._pool is not None
            with held(), _lost_workers():
                future = self._pool.submit(fn, *args)
        if finished is not None:
            with held():
                future.add_done_callback(finished.put)  # called at once if it is already done
        return future

    def result(self, future: Future[_T]) -> _T:
        """``future``'s result, once it has one."""
        with held():
            done = future.done()
            if not done:
                finished: SimpleQueue[Future[_T]] = SimpleQueue()
                future.add_done_callback(finished.put)
        if not done:
            waited(finished)
        with held(), _lost_workers():
            return future.result()

    def cancel(self, future: Future[Any]) -> None:
        with held():
            future.cancel()

    @property
    def count(self) -> int:
        """The processes that extracted: 1 (this one) unless workers were started."""
        return self._jobs if self._pool is not None else 1

    def close(self, interrupted: bool = False) -> None:
        """Wait for the workers; an ``interrupted`` run's stop at once, the work under way dropped
        (a worker that has not yet set :func:`_stop_asked` as its handler ends by the signal's
        default action, which the pool takes for a broken worker and stops the others)."""
        if self._pool is None:
            return
        with held():
            if interrupted:
                for pid in self._pool._processes:
                    with suppress(ProcessLookupError):
                        os.kill(pid, _STOP_SIGNAL)
            self._pool.shutdown(cancel_futures=interrupted)


def run_batch(
    inputs: Sequence[str],
    out: Path | TextIO,
    *,
    urls: str | Path | None = None,
    options: BatchOptions = BatchOptions(),
    on_page: Callable[[Tally], None] = lambda tally: None,
) -> Tally:
    """Extract every page of ``inputs`` (directories, HTML files, WARC files) and of the URL list
    ``urls`` into the JSON-lines file ``out``; ``on_page`` sees the totals after each line."""
    if options.profile not in profile_names():  # known without loading a stage (start-up)
        get_profile(options.profile)  # fails before any I/O, naming the profiles there are
    if not inputs and urls is None:
        raise UsageProblem("nothing to extract: give directories, HTML or WARC files, or --urls")
    for name in inputs:
        if is_url(name) or name == "-":
            raise UsageProblem(
                f"{shown_argument(name)}: batch reads files, directories and WARC files; put URLs in a file for --urls"
            )
    _refuse_missing_inputs(inputs)
    if isinstance(out, Path) and not out.parent.is_dir():
        raise UsageProblem(f"--out: {shown_argument(str(out.parent))}: no such directory")
    if isinstance(out, Path) and out.is_dir():
        raise UsageProblem(f"--out: {shown_argument(str(out))} is a directory, not a file")
    if options.resume and not isinstance(out, Path):
        raise UsageProblem("--resume needs an output file, not standard output")
    if isinstance(out, Path):
        _refuse_output_among_inputs(out, [*inputs, *([str(urls)] if urls is not None else [])])
        _refuse_unwritable_output(out)
    done = _finished(out) if isinstance(out, Path) and options.resume and out.exists() else Resumed()
    jobs = options.jobs or cores()
    tally = Tally(resumed=len(done))
    max_bytes = options.fetch.max_bytes

    with (
        _opened_list(urls) as listing,  # before the output: a list that cannot be read changes nothing
        holdable(),
        _written_from_its_first_line(out, append=options.resume) as write,
    ):
        workers = _Workers(jobs, options.profile)

        def emit(outcomes: Iterable[Outcome]) -> None:
            for outcome in outcomes:
                write(outcome.line + "\n")
                tally.add(outcome)
                on_page(tally)

        finished: SimpleQueue[Future[list[Outcome]]] = SimpleQueue()  # chunks, as they are done
        in_flight = 0
        chunk: list[_Work] = []
        chunk_bytes = 0
        sent = 0  # chunks
        work: _Work

        def send_chunk() -> None:
            nonlocal chunk_bytes, sent, in_flight
            work = (tuple(chunk), options.profile, options.all_forms, max_bytes, options.page_time_limit)
            workers.submit(extract_pages, *work, finished=finished)
            in_flight += 1
            chunk.clear()
            chunk_bytes = 0
            sent += 1
            if in_flight >= 2 * jobs:
                emit_next()

        def emit_next() -> None:
            nonlocal in_flight
            outcomes = workers.result(waited(finished))  # waits for a worker: an interrupt stops it here
            in_flight -= 1
            emit(outcomes)

        def emit_in_flight() -> None:
            while in_flight:
                emit_next()

        def read_in_spans(archive: _Spans) -> None:
            """The chunks before it first (the spans' lines come in order, each span waits for
            the one before it), then the archive's spans, at most two per worker in flight."""
            if chunk:
                send_chunk()
            emit_in_flight()

            limits = (options.profile, options.all_forms, max_bytes, options.page_time_limit)
            emit(_spanned(archive, workers, limits, 2 * jobs))

        items = _pages(inputs, listing, done, options.fetch, options.all_forms, jobs == 1, workers.start)
        try:
            for item in items:
                if isinstance(item, _Spans):
                    read_in_spans(item)
                    continue
                if isinstance(item, Outcome):
                    emit([item])
                    continue
                if isinstance(item, Unreadable):
                    emit([_failed(item.key, item.name, item.error, damaged=item.damaged, origin=item.origin)])
                    continue
                if isinstance(item, Page):  # fetched: the parent holds these bytes anyway
                    from formtools._parse.prefilter import may_hold_tools

                    why = None if item.head is None else why_no_tools(item.head, item.body)
                    if why is not None:  # an answer Chromium shows no HTML page for
                        emit([_skipped(item, options.all_forms, why)])
                        continue
                    if not may_hold_tools(item.body, item.content_type, all_forms=options.all_forms):
                        emit([_skipped(item, options.all_forms)])
                        continue
                    work, size = item, len(item.body)
                else:
                    work, size = item
                chunk.append(work)
                chunk_bytes += size
                pages = _CHUNK_PAGES if sent >= jobs else _FIRST_CHUNK_PAGES
                if len(chunk) >= pages or chunk_bytes >= _CHUNK_BYTES:
                    send_chunk()
            if chunk:
                send_chunk()
            emit_in_flight()
        except BaseException:
            tally.workers = workers.count  # an interrupted run's summary says it too
            try:
                workers.close(interrupted=True)
            finally:  # also when a second interrupt, held in the pool's shutdown, ends it
                items.close()  # the URL fetcher stops
            raise
        tally.workers = workers.count
        workers.close()
    return tally


@contextmanager
def progress_display(enabled: bool) -> Iterator[Callable[[Tally], None]]:
    """A live line on standard error (pages/s, MB/s, tools found) when ``enabled``. Redrawn from
    the caller's thread at most ten times a second: rich's own refresh thread would be running
    when the workers are forked."""
    if not enabled:
        yield lambda tally: None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task("starting")
        drawn = 0.0

        def show(tally: Tally) -> None:
            nonlocal drawn
            now = time.monotonic()
            if now - drawn < 0.1:
                return
            drawn = now
            bar.update(
                task,
                description=f"{tally.pages:,} pages, {tally.rates()}, {tally.tools:,} tools, "
                f"{tally.failed:,} errors",
                refresh=True,
            )

        yield show
