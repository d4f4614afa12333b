"""Batch extraction: many pages in, one JSON line per page out, for crawls.

Pages stream in from directories, files, WARC archives and URL lists (fetched concurrently) and
stream out as JSON lines, so memory stays flat however many pages there are. With a page costing
about a millisecond, the parent process must stay out of the way: for files it only walks the
directories and sends *paths* to the worker processes, which read each file, run the byte
prefilter (most crawled pages hold no tool and are never parsed) and extract; pages that only the
parent can read (WARC records, fetched URLs) are prefiltered there and only candidates travel.
Work goes out in chunks, at most two per worker at a time. A page that cannot be read or parsed
becomes an ``error`` line; the batch goes on. The output is also the resume log: a rerun with
``resume`` skips every page it already names.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TextIO


from formtools._synth.diagnostics import Severity
from formtools.errors import SourceError, UsageProblem
from formtools._spec.jsjson import dumps
from formtools._parse.prefilter import may_hold_tools
from formtools._synth.profile import get_profile
from formtools._crawl.pages import FetchOptions, Page, Unreadable
from formtools._crawl.warc import Damage, warc_records
from formtools._parse.sources import is_url, read_page

__all__ = ["BatchOptions", "FetchOptions", "Outcome", "Page", "Tally", "run_batch"]

_HTML_SUFFIXES = (".html", ".htm")
_WARC_SUFFIXES = (".warc", ".warc.gz")


@dataclass(frozen=True)
class BatchOptions:
    profile: str = "chromium"
    all_forms: bool = False  # every page with a <form>: forms without toolname become tools too
    jobs: int = 0  # worker processes; 0: one per core, 1: in this process
    resume: bool = False
    fetch: FetchOptions = FetchOptions()


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
        return (
            f"{self.pages:,} pages ({self.parsed:,} parsed, {skipped:,} skipped by the "
            f"prefilter, {self.failed:,} errors), {self.tools:,} tools, "
            f"{self.size / 1e6:,.1f} MB in {seconds:.1f} s ({self.rates()}){kept}"
        )


def _line(key: str, name: str, **fields: Any) -> str:
    return dumps({key: name, **fields})


def extract_page(page: Page, profile: str, all_forms: bool = False) -> Outcome:
    """Parse and synthesize one page (runs in a worker process); ``all_forms``: with the
    inferred tools of its forms without toolname."""
    from formtools._parse import parse_html  # the stages load in a worker, not at start-up
    from formtools._synth.synthesize import synthesize

    try:
        document = parse_html(
            page.body, url=page.url, content_type=page.content_type, source=page.name
        )
        result = synthesize(document, profile, all_forms=all_forms)
    except Exception as error:  # one bad page never stops the batch
        return _failed(page.key, page.name, f"{type(error).__name__}: {error}", len(page.body))
    severities = [d.severity for d in result.diagnostics]
    line = _line(
        page.key,
        page.name,
        tools=[tool.to_dict() for tool in result.tools],
        diagnostics={
            "errors": severities.count(Severity.ERROR),
            "warnings": severities.count(Severity.WARNING),
        },
    )
    return Outcome(line, len(page.body), tools=len(result.tools), parsed=True)


def _skipped(page: Page, all_forms: bool) -> Outcome:
    reason = "no <form" if all_forms else "no toolname attribute"
    line = _line(
        page.key, page.name, tools=[], diagnostics={"errors": 0, "warnings": 0}, skipped=reason
    )
    return Outcome(line, len(page.body))


def extract_file(name: str, profile: str, all_forms: bool = False) -> Outcome:
    """Read the HTML file ``name``, run the byte prefilter on it and extract it if it passes
    (runs in a worker process)."""
    try:
        raw = read_page(name)
    except SourceError as error:
        return _failed("path", name, str(error))
    page = Page("path", name, raw.body, raw.url, None)
    if not may_hold_tools(page.body, all_forms=all_forms):
        return _skipped(page, all_forms)
    return extract_page(page, profile, all_forms)


def _failed(key: str, name: str, error: str, size: int = 0, damaged: bool = False) -> Outcome:
    return Outcome(_line(key, name, error=error), size, failed=True, damaged=damaged)


# --- sources --------------------------------------------------------------------------------


# A source yields pages the parent has read (archive records, fetched URLs), pages it could not
# read, and paths of files for a worker to read: reading files is most of the parent's old work.
_Item = Page | Unreadable | str


def _file(name: str, done: set[tuple[str, str]]) -> Iterator[_Item]:
    if ("path", name) not in done:
        yield name


def _directory(root: Path, done: set[tuple[str, str]]) -> Iterator[_Item]:
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        for filename in sorted(files):
            if filename.lower().endswith(_HTML_SUFFIXES):
                yield from _file(os.path.join(folder, filename), done)


def _is_html(content_type: str | None) -> bool:
    return (content_type or "").partition(";")[0].strip().lower() == "text/html"


def _warc(path: str, done: set[tuple[str, str]], max_bytes: int) -> Iterator[Page | Unreadable]:
    """The HTML response records of a WARC or WARC.gz file, in file order."""
    try:
        stream = open(path, "rb")
    except OSError as error:
        yield Unreadable(
            "path", path, f"{path}: cannot read the archive: {type(error).__name__}: {error}"
        )
        return
    with stream:
        yield from warc_pages(stream, path, done, max_bytes)


def warc_pages(
    stream: BinaryIO,
    path: str,
    done: AbstractSet[tuple[str, str]] = frozenset(),
    max_bytes: int = FetchOptions.max_bytes,
) -> Iterator[Page | Unreadable]:
    """The HTML response records of the WARC or WARC.gz archive ``stream`` (named ``path``), in
    file order, then an :class:`Unreadable` marked ``damaged`` if the archive is cut short or
    corrupt (see :mod:`.warc`). Any binary stream will do, so the Spark job reads archives the
    same way from HDFS or S3 bytes as batch does from local files."""
    for item in warc_records(stream, path, max_bytes):
        if isinstance(item, Damage):
            yield Unreadable("path", path, str(item), damaged=True)
            continue
        url = item.url or ""
        if not _is_html(item.content_type) or ("url", url) in done:
            continue
        if len(item.body) > max_bytes:
            yield Unreadable("url", url, f"{url}: larger than {max_bytes} bytes")
            continue
        yield Page("url", url, item.body, url, item.content_type)


def _pages(
    inputs: Sequence[str], urls: Path | None, done: set[tuple[str, str]], fetch: FetchOptions
) -> Iterator[_Item]:
    for name in inputs:
        if os.path.isdir(name):
            yield from _directory(Path(name), done)
        elif name.lower().endswith(_WARC_SUFFIXES):
            yield from _warc(name, done, fetch.max_bytes)
        else:
            yield from _file(name, done)
    if urls is not None:
        from formtools._crawl.urls import fetched  # httpx and asyncio only for URL lists

        yield from fetched(urls, done, fetch)


# --- the run --------------------------------------------------------------------------------


def _finished(out: Path) -> set[tuple[str, str]]:
    """The pages ``out`` already has a line for. A torn last line (an interrupted run) is cut
    off, so that page is done again."""
    done: set[tuple[str, str]] = set()
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
            done.update((key, record[key]) for key in ("path", "url") if key in record)
    if whole < out.stat().st_size:
        os.truncate(out, whole)
    return done


class _InProcess(Executor):
    """``--jobs 1``: each page extracted on submission, in this process."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def _executor(jobs: int) -> Executor:
    if jobs == 1:
        return _InProcess()
    # spawn, not fork: the URL fetcher runs in a thread, and forking a threaded process is unsafe
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))


def run_batch(
    inputs: Sequence[str],
    out: Path | TextIO,
    *,
    urls: Path | None = None,
    options: BatchOptions = BatchOptions(),
    on_page: Callable[[Tally], None] = lambda tally: None,
) -> Tally:
    """Extract every page of ``inputs`` (directories, HTML files, WARC files) and of the URL list
    ``urls`` into the JSON-lines file ``out``; ``on_page`` sees the totals after each line."""
    get_profile(options.profile)  # an unknown profile fails before any I/O
    if not inputs and urls is None:
        raise UsageProblem("nothing to extract: give directories, HTML or WARC files, or --urls")
    for name in inputs:
        if is_url(name) or name == "-":
            raise UsageProblem(
                f"{name}: batch reads files, directories and WARC files; put URLs in a file for --urls"
            )
    if urls is not None and not urls.is_file():
        raise SourceError(f"{urls}: no such file")
    if isinstance(out, Path) and not out.parent.is_dir():
        raise UsageProblem(f"--out: {out.parent}: no such directory")
    if options.resume and not isinstance(out, Path):
        raise UsageProblem("--resume needs an output file, not standard output")
    done = _finished(out) if isinstance(out, Path) and options.resume and out.exists() else set()
    tally = Tally(resumed=len(done))
    jobs = options.jobs or os.cpu_count() or 1

    with (
        (
            out.open("a" if options.resume else "w", encoding="utf-8")
            if isinstance(out, Path)
            else nullcontext(out)
        ) as sink,
        _executor(jobs) as pool,
    ):

        def emit(outcomes: Iterable[Outcome]) -> None:
            for outcome in outcomes:
                sink.write(outcome.line + "\n")
                tally.add(outcome)
                on_page(tally)

        pending: set[Future[list[Outcome]]] = set()
        chunk: list[Page | str] = []
        chunk_bytes = 0

        def send_chunk() -> None:
            nonlocal pending, chunk_bytes
            pending.add(pool.submit(extract_pages, tuple(chunk), options.profile, options.all_forms))
            chunk.clear()
            chunk_bytes = 0
            if len(pending) >= 2 * jobs:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                emit(outcome for future in finished for outcome in future.result())

        for item in _pages(inputs, urls, done, options.fetch):
            if isinstance(item, Unreadable):
                emit([_failed(item.key, item.name, item.error, damaged=item.damaged)])
                continue
            if isinstance(item, Page):
                # the parent holds these bytes anyway: only candidates are worth shipping
                if not may_hold_tools(item.body, item.content_type, all_forms=options.all_forms):
                    emit([_skipped(item, options.all_forms)])
                    continue
                chunk_bytes += len(item.body)
            chunk.append(item)
            if len(chunk) >= _CHUNK_PAGES or chunk_bytes >= _CHUNK_BYTES:
                send_chunk()
        if chunk:
            send_chunk()
        emit(outcome for future in wait(pending).done for outcome in future.result())
    return tally


# Work travels to a worker in chunks: with the fast parser a page takes about a millisecond,
# which a task per page would spend on the pool's own round trip. Paths count as pages only:
# their bytes are read by the worker.
_CHUNK_PAGES = 32
_CHUNK_BYTES = 4 * 2**20


def extract_pages(
    items: Sequence[Page | str], profile: str, all_forms: bool = False
) -> list[Outcome]:
    """The outcome of each item of a chunk (runs in a worker process): a :class:`Page` the parent
    read and prefiltered is extracted, a path is read, prefiltered and extracted here."""
    return [
        extract_file(item, profile, all_forms)
        if isinstance(item, str)
        else extract_page(item, profile, all_forms)
        for item in items
    ]


@contextmanager
def progress_display(enabled: bool) -> Iterator[Callable[[Tally], None]]:
    """A live line on standard error (pages/s, MB/s, tools found) when ``enabled``."""
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
    ) as bar:
        task = bar.add_task("starting")

        def show(tally: Tally) -> None:
            bar.update(
                task,
                description=f"{tally.pages:,} pages, {tally.rates()}, {tally.tools:,} tools, "
                f"{tally.failed:,} errors",
            )

        yield show
