"""A batch interrupted at any line its process runs: Ctrl-C and SIGTERM raise KeyboardInterrupt in
the batch's main thread wherever it is, in the standard library's pool and locks as in formtools,
and a real signal lands on a few of those places by chance only (the hang this catches came once
in some hundred CI runs). Here a trace function sends the signal at a chosen occurrence of a chosen
line, so that every line can be tried, each in a run of its own.

Run as ``python -m tests.support.interruptions lines|interrupt SITE ARCHIVE URLS OUT`` in a process of
its own (the batch forks its workers only from a process with no other thread, and a hang must
not take pytest's worker with it): ``lines`` runs the batch whole and prints the lines it ran,
with how often; ``interrupt`` reads ``[file, line, occurrence, signal]`` points as JSON from standard
input and prints one JSON object per point (see :func:`_interrupted`). Both first run the batch
once untraced and print its output (``{"reference": …}``), so that the points are lines of a
run that imports nothing. A run that does not end
within :data:`_WATCHDOG` seconds prints every thread's stack and exits 3.
"""

from __future__ import annotations

import dis
import faulthandler
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

#: The code an interrupt is raised in: the pool, its locks and queues, and formtools' batch.
WATCHED = ("/concurrent/futures/", "/threading.py", "/queue.py", "/multiprocessing/", "/formtools/_crawl/", "/formtools/_interrupts.py")

#: Seconds a run (and what it leaves to end) may take before the driver calls it a hang.
_WATCHDOG = 20

_Tracer = Any

#: Where a run is interrupted: a line of a file, its occurrence, and the signal (SIGINT, SIGTERM);
#: optionally a second signal, sent at the k-th place after the first where Python runs a
#: handler (see :func:`_then`): ``(file, line, occurrence, signal, k, second signal)``.
Point = tuple[Any, ...]


def _batch(site: str, archive: str, urls: str, out: Path) -> None:
    """The batch, with chunks of a few pages and spans of a KiB: each run forks the pool and
    extracts every page up to its signal, so a corpus of two dozen pages, which takes every
    path of the chunking and the spans (the first chunks and full ones, a part chunk before
    the archive and after the URLs, a span read again, the spans' and the chunks' waits),
    costs a run a fifth of the CPU 250 pages with the real sizes did, for the same lines
    (compared with ``lines``: 759 of 759). A wait wakes every 5 ms rather than 50, so that its
    wake-up lines run in every run, not only when a worker happens to take 50 ms. The URL
    fetcher has fewer slots (3) than the list has URLs (7), as the default 16 had with 40: a
    fetcher the batch failed to stop waits for a slot for ever, and the run does not end,
    rather than fetching the rest and ending as if it had been stopped."""
    from formtools import _interrupts
    from formtools._crawl import batch
    from formtools._crawl.pages import FetchOptions

    batch._CHUNK_PAGES, batch._FIRST_CHUNK_PAGES, batch._SPAN_BYTES = 4, 1, 1024
    _interrupts._WAKE = 0.005
    options = batch.BatchOptions(jobs=2, fetch=FetchOptions(concurrency=3))
    batch.run_batch([site, archive], out, urls=Path(urls), options=options)


def _counting(parent: int, seen: dict[tuple[str, int], int]) -> _Tracer:
    def tracer(frame: FrameType, event: str, arg: object) -> _Tracer:
        if os.getpid() != parent:  # a forked worker inherits the trace (see _signalling)
            sys.settrace(None)
            return None
        filename = frame.f_code.co_filename
        if event == "line" and any(part in filename for part in WATCHED):
            key = (filename, frame.f_lineno)
            seen[key] = seen.get(key, 0) + 1
        return tracer

    return tracer


#: A line that begins with it (3.11's ``try:``) gets its signal as the next line begins: Python
#: runs no handler at a NOP, and an exception a trace raises there is outside the exception
#: table of the ``with`` around it, whose ``__exit__`` is then never called, which no signal can do.
_NOP = dis.opmap["NOP"]


def _signalling(parent: int, point: Point, sent: list[bool]) -> _Tracer:
    """A trace that sends this process the point's signal as its line begins for the
    occurrence-th time, and stops tracing: the handler then runs where a signal that came at
    that moment would run it."""
    filename, line, occurrence, name = point
    count = 0
    due = False  # the occurrence came at a line whose first instruction is a NOP

    def tracer(frame: FrameType, event: str, arg: object) -> _Tracer:
        nonlocal count, due
        if os.getpid() != parent:  # a forked worker inherits the trace: called at each of its
            sys.settrace(None)  # calls, it cost the workers half as much CPU again
            return None
        if event != "line":
            return tracer
        if frame.f_lineno == line and frame.f_code.co_filename == filename:
            count += 1
            due = due or count == occurrence
        if due and frame.f_code.co_code[frame.f_lasti] != _NOP:
            sys.settrace(None)
            sent.append(True)
            signal.raise_signal(getattr(signal, name))
            return None
        return tracer

    return tracer


def _then(parent: int, point: Point, sent: list[bool], second: list[bool]) -> Callable[..., None] | None:
    """A profile that sends the point's second signal at the k-th place, after the first signal
    was sent, where Python runs a handler: a function's start, or the return from a call of C
    (a profile, not the trace: the first signal's interrupt, raised in the trace, ends tracing).
    None for a point of one signal."""
    if len(point) < 6:
        return None
    k, name = point[4], point[5]
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if os.getpid() != parent:  # a forked worker inherits the profile
            sys.setprofile(None)
            return
        if sent and event in ("call", "c_return"):
            count += 1
            if count == k:
                sys.setprofile(None)
                second.append(True)
                signal.raise_signal(getattr(signal, name))

    return profile


def _ended(seconds: float) -> bool:
    """Whether the run's workers and the pool's threads end within ``seconds`` (what Python's
    exit waits for after an interrupt)."""
    deadline = time.monotonic() + seconds
    while multiprocessing.active_children() or threading.active_count() > 1:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _interrupted(site: str, archive: str, urls: str, out: Path, point: Point) -> dict[str, Any]:
    """One run interrupted at ``point``: whether the signal was sent (a run may not reach an
    occurrence another reached), whether its interrupt came out of the batch (one raised in a
    finalizer is lost, as it is in any Python program), whether everything the run started
    ended, and the output; for a point of two signals, whether the second was sent too."""
    sent: list[bool] = []
    second: list[bool] = []
    _current[:] = [point]
    out.unlink(missing_ok=True)
    signal.alarm(_WATCHDOG)
    sys.setprofile(_then(os.getpid(), point, sent, second))
    sys.settrace(_signalling(os.getpid(), point[:4], sent))
    try:
        _batch(site, archive, urls, out)
        escaped = False
    except KeyboardInterrupt:
        escaped = True
    finally:
        sys.settrace(None)
        sys.setprofile(None)
    ended = _ended(10.0)
    signal.alarm(0)
    changed = _as_before()
    left = [thread.name for thread in threading.enumerate()][1:] + [str(child) for child in multiprocessing.active_children()]
    return {"point": point, "sent": bool(sent), "second": bool(second), "escaped": escaped, "ended": ended, "changed": changed, "left": left, "output": out.read_text("utf-8") if out.exists() else ""}


def _as_before() -> list[str]:
    """What the run left changed in the process's interrupt handling, which the next run (or a
    library caller's next batch) would inherit: the handlers, and the holding's own state."""
    from formtools import _interrupts as interrupts

    changed = []
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        changed.append(f"SIGINT: {signal.getsignal(signal.SIGINT)}")
    if signal.getsignal(signal.SIGTERM) is not _terminate:
        changed.append(f"SIGTERM: {signal.getsignal(signal.SIGTERM)}")
    clean = {"_replaced": {}, "_depth": 0, "_pending": None, "_holding": False}
    state = {name: vars(interrupts).get(name, value) for name, value in clean.items()}
    if state != clean:
        changed.append(f"interrupts: {state}")
    return changed


#: The point of the run under way, for :func:`_hung` to name.
_current: list[Point] = []


def _hung(signum: int, frame: object) -> None:
    print(f"hung: {_current}", file=sys.stderr, flush=True)
    faulthandler.dump_traceback(all_threads=True)
    os._exit(3)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM as the command line's first signal: an interrupt (its handler then ignores the
    signals after it, which the many interrupted runs of one process here must not)."""
    raise KeyboardInterrupt


def main() -> None:
    mode, site, archive, urls, out = sys.argv[1:6]
    signal.signal(signal.SIGALRM, _hung)
    signal.signal(signal.SIGTERM, _terminate)
    signal.alarm(_WATCHDOG)
    _batch(site, archive, urls, Path(out))  # whatever is imported or made once is, before any trace
    print(json.dumps({"reference": Path(out).read_text("utf-8")}))
    if mode == "lines":
        seen: dict[tuple[str, int], int] = {}
        signal.alarm(_WATCHDOG)
        sys.settrace(_counting(os.getpid(), seen))
        try:
            _batch(site, archive, urls, Path(out))
        finally:
            sys.settrace(None)
        print(json.dumps([[filename, line, count] for (filename, line), count in sorted(seen.items())]))
        return
    for point in json.load(sys.stdin):
        print(json.dumps(_interrupted(site, archive, urls, Path(out), tuple(point))), flush=True)


if __name__ == "__main__":
    main()
