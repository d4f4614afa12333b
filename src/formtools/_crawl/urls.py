"""The pages of a URL list, fetched concurrently (``formtools batch --urls``).

Its own module so that a batch over files and archives never imports the HTTP client or asyncio.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Callable, Coroutine, Iterator
from contextlib import suppress
from dataclasses import dataclass
from queue import SimpleQueue
from typing import Any, BinaryIO

from formtools._net import AsyncFetcher, FetchError, FetchPolicy, TooLarge

from formtools._interrupts import held, waited
from formtools._crawl.pages import FetchOptions, Origin, Page, Resumed, Unreadable
from formtools._spec.limits import MAX_URL_CHARS, too_large
from formtools._spec.mime import page_problem
from formtools._spec.scheme import is_url
from formtools._spec.url import parse
from formtools._parse.sources import cannot_read
from formtools.errors import SourceError, before_user_info, shown

__all__ = ["MAX_URL_BYTES", "fetched"]

#: The longest line of a URL list read as a URL, in bytes (its line break not counted):
#: :data:`~formtools._spec.limits.MAX_URL_CHARS`, Chromium's longest URL. A line was read
#: whole: one of 60 MB took 695 MB and came back twice, whole, in its output line.
MAX_URL_BYTES = MAX_URL_CHARS

#: The most bytes one read of the list takes (a line comes a piece at a time)
_PIECE = 1 << 16

#: The bytes of a line too long that its output line shows
_SHOWN = 200

_END = object()


def fetched(
    listing: BinaryIO, done: Resumed, options: FetchOptions
) -> Iterator[Page | Unreadable]:
    """The pages of a URL list, fetched by an asyncio loop in a thread, in completion order.

    The fetching runs at most ``options.concurrency`` pages ahead of extraction: each page holds
    a slot of the loop's until it is taken here. The pages come over a SimpleQueue, whose get
    is a call of C that an interrupt (Ctrl-C, SIGTERM) leaves as it found it, woken to run a
    handler whichever thread took the signal (see :mod:`formtools._interrupts`). When the
    iteration stops, however it stops, the fetching is cancelled and its thread waited for: it
    went on fetching after the batch had stopped, and its loop, cut off by the interpreter's
    exit, printed a traceback (one Ctrl-C of ``batch --urls`` in about ten).
    """
    handover: SimpleQueue[Any] = SimpleQueue()
    slots = asyncio.Semaphore(options.concurrency)
    # the loop is made here, so that it can be cancelled before it runs (the factory: not made
    # this thread's current loop, which would be left closed), whole: a loop an interrupt left
    # half made failed in its __del__ ("Exception ignored … no attribute '_ssock'")
    with held():
        runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)
        loop = runner.get_loop()
    # the fetching's coroutine, made in its thread: one made here and never run, its thread not
    # started when an interrupt came, would be warned of as never awaited
    fetching: list[Coroutine[Any, Any, None]] = []

    def fetch_all() -> None:
        fetching.append(_fetch_all(listing, done, options, handover, slots))
        try:
            with runner:
                runner.run(fetching[0])
        except asyncio.CancelledError:  # the iteration stopped
            pass
        except BaseException as error:  # raised again in the consuming thread
            handover.put(error)
        handover.put(_END)

    thread = threading.Thread(target=fetch_all, name="formtools-fetch", daemon=True)
    try:
        with held():  # Thread.start waits on a Condition
            thread.start()
        while (item := waited(handover)) is not _END:
            if isinstance(item, BaseException):
                raise item
            _in_loop(loop, slots.release)
            yield item
    finally:
        _in_loop(loop, _cancel, loop, fetching)  # first: a thread whose start was interrupted ends too
        if thread.is_alive():
            thread.join()  # interruptible (a second Ctrl-C): what it leaves, the exit ends


def _in_loop(loop: asyncio.AbstractEventLoop, call: Callable[..., object], *args: Any) -> None:
    """``call(*args)`` in the fetching loop, unless it has ended (it then has no use for it)."""
    with held(), suppress(RuntimeError):  # the loop is closed
        loop.call_soon_threadsafe(call, *args)


def _cancel(loop: asyncio.AbstractEventLoop, fetching: list[Coroutine[Any, Any, None]]) -> None:
    """Cancel the fetching's own task (made before this runs, even when the loop has not yet
    run), which cancels its pages' tasks and waits for them, each cancelling its connections
    through anyio. Not every task of the loop: anyio's connect_tcp starts a task per address,
    and a task cancelled before it first ran never runs anyio's wrapper, which alone awaits the
    coroutine inside, so that Python warned "coroutine 'connect_tcp.<locals>.try_connect' was
    never awaited" (anyio's own cancellation skips tasks not yet started)."""
    for task in asyncio.all_tasks(loop):
        if task.get_coro() in fetching:
            task.cancel()


async def _fetch_all(
    listing: BinaryIO,
    done: Resumed,
    options: FetchOptions,
    handover: SimpleQueue[Any],
    slots: asyncio.Semaphore,
) -> None:
    """Fetch the listed URLs, each page (or why there is none) handed over holding a slot, its
    origin its line in the list (a URL listed twice is two pages)."""
    hosts: defaultdict[str, asyncio.Semaphore] = defaultdict(
        lambda: asyncio.Semaphore(options.per_host)
    )
    policy = FetchPolicy(timeout=options.timeout, max_bytes=options.max_bytes)
    async with AsyncFetcher(policy, max_connections=options.concurrency) as client:

        async def one(url: str, host: str, origin: Origin) -> None:
            async with hosts[host]:
                handover.put(await _fetch(client, url, options.max_bytes, origin))

        unreadable: SourceError | None = None
        async with asyncio.TaskGroup() as pages:  # cancelled, it cancels its pages' tasks and waits
            try:
                for line in _listed_lines(listing):
                    if line is None:  # a piece of a line too long: the loop takes its turn (a
                        await asyncio.sleep(0)  # line without end, /dev/zero, can be stopped)
                        continue
                    url, problem = _listed_url(line)
                    origin = Origin(line=line.number)
                    if not url or url.startswith("#") or done.has("url", shown(url), origin):
                        continue
                    if problem is None:
                        # per host: the host the URL Standard parses, where the fetch connects
                        # (urllib's netloc made user@host, host:080 and 0x7f.1 other hosts)
                        parsed = parse(url)
                        if parsed is None and is_url(url):
                            problem = f"{url}: not a valid URL (the URL Standard's parser refuses it)"
                        host = url if parsed is None else parsed.hostname  # no host: _fetch names why
                    await slots.acquire()
                    if problem is not None:
                        handover.put(Unreadable("url", url, problem, origin=origin))
                        continue
                    pages.create_task(one(url, host, origin))
            except SourceError as error:  # raised out of the group, it came in an ExceptionGroup: a traceback
                unreadable = error
        if unreadable is not None:
            raise unreadable


@dataclass(frozen=True)
class _ListedLine:
    """A line of a URL list: its ``number`` (from 1) and its ``text`` without the line break
    (LF or CR LF); of a line longer than :data:`MAX_URL_BYTES`, ``too_long`` is its length and
    ``text`` only what its output line shows of it (:class:`_Cut`)."""

    number: int
    text: bytes
    too_long: int = 0


def _listed_lines(listing: BinaryIO) -> Iterator[_ListedLine | None]:
    """:func:`_lines_read` of ``listing``, a read that fails (``EIO``: ``/proc/self/mem``) one
    line naming the list, as every reader of a path says it (:func:`~formtools._parse.sources.cannot_read`)."""
    try:
        yield from _lines_read(listing)
    except OSError as error:
        raise SourceError(f"--urls: {cannot_read(listing.name, error)}") from None


def _lines_read(listing: BinaryIO) -> Iterator[_ListedLine | None]:
    """The lines of a URL list, read a piece (:data:`_PIECE`) at a time, so that what is held
    stays within :data:`MAX_URL_BYTES` and a piece whatever the list holds (a line without end,
    no line break at all, ``/dev/zero``). A line too long is read to its end without being
    kept, one ``None`` for each piece of it (the caller's turn to let others run)."""
    number = 0
    while piece := listing.readline(_PIECE):
        number += 1
        pieces, size = [piece], len(piece)
        while not piece.endswith(b"\n") and size <= MAX_URL_BYTES + 2 and (piece := listing.readline(_PIECE)):
            pieces.append(piece)
            size += len(piece)
        text = _without_break(b"".join(pieces))
        if len(text) <= MAX_URL_BYTES:
            yield _ListedLine(number, text)
            continue
        cut = _Cut(b"".join(pieces))
        while piece and not piece.endswith(b"\n"):
            yield None
            piece = listing.readline(_PIECE)
            cut.add(piece)
        yield _ListedLine(number, cut.shown(), cut.length())


def _without_break(line: bytes) -> bytes:
    """``line`` without its line break: LF or CR LF."""
    return line.removesuffix(b"\n").removesuffix(b"\r") if line.endswith(b"\n") else line


class _Cut:
    """What a line too long shows, gathered a piece at a time: its first :data:`_SHOWN` bytes,
    or, when it holds an ``@``, its scheme and slashes and the first bytes after its last
    ``@``. A line this long is no URL any parser reads, so whatever comes before its last ``@``
    may be a user name and password (as :func:`~formtools.errors.shown` takes them from a URL that does not
    parse), and only the whole line says where that is."""

    def __init__(self, start: bytes) -> None:
        self.head = start[:_SHOWN]
        self.size = 0
        self.end = b""  # the last two bytes read: the line break, once read
        self.after_at: bytes | None = None
        self.add(start)

    def add(self, piece: bytes) -> None:
        self.size += len(piece)
        self.end = (self.end + piece)[-2:]
        at = piece.rfind(b"@")
        if at >= 0:
            self.after_at = piece[at + 1 : at + 1 + _SHOWN]
        elif self.after_at is not None and len(self.after_at) < _SHOWN:
            self.after_at += piece[: _SHOWN - len(self.after_at)]

    def length(self) -> int:
        """The line's bytes, its line break not counted."""
        return self.size - (len(self.end) - len(_without_break(self.end)))

    def shown(self) -> bytes:
        """What comes before where its user information would be (as
        :func:`~formtools.errors.shown` reads a URL that does not parse: ``"http://``,
        ``http_s://``, never ``user:pw``), then what follows its last ``@``. Read as Latin-1, one character a byte, so the bytes it keeps
        are the line's own, whatever their encoding."""
        if self.after_at is None:
            return self.head
        return before_user_info(self.head.decode("latin-1")).encode("latin-1") + self.after_at


def _listed_url(line: _ListedLine) -> tuple[str, str | None]:
    """The URL on a line of the list, and why it cannot be fetched if it cannot be read: a
    line that is not UTF-8 is named with its bad bytes escaped (``\\xe9``), the same name on
    every run, so ``--resume`` finds its error line; a line too long by what it shows of its
    start, cut (``…``)."""
    if line.too_long:
        shown = _without_break(line.text).decode("utf-8", "backslashreplace").strip() + "…"
        return shown, (
            f"{shown}: line {line.number} of the URL list is {line.too_long:,} bytes long, longer than "
            f"{MAX_URL_BYTES:,}, the longest URL Chromium takes; not read"
        )
    try:
        return line.text.decode("utf-8").strip(), None
    except UnicodeDecodeError:
        url = line.text.decode("utf-8", "backslashreplace").strip()
        return url, f"{url}: line {line.number} of the URL list is not UTF-8"


async def _fetch(client: AsyncFetcher, url: str, max_bytes: int, origin: Origin) -> Page | Unreadable:
    """One page through the guarded, bounded fetch (``timeout`` is the whole fetch's)."""
    if not is_url(url):
        return Unreadable("url", url, f"{url}: not an http(s) URL", origin=origin)
    try:
        response = await client.fetch("GET", url, headers={"Accept": "text/html,*/*;q=0.8"})
    except TooLarge:
        return Unreadable("url", url, too_large(url, max_bytes), origin=origin)
    except FetchError as error:
        return Unreadable("url", url, str(error), origin=origin)
    except Exception as error:  # a URL the client cannot even send: one page, not the batch
        return Unreadable("url", url, f"{url}: cannot fetch: {type(error).__name__}: {error}", origin=origin)
    if response.status >= 400 and (problem := page_problem(url, response.head, response.body)) is not None:
        return Unreadable("url", url, problem, origin=origin)
    return Page("url", url, response.body, response.url, response.content_type, origin, response.head)
