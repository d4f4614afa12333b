"""Ctrl-C and SIGTERM held back while the standard library's pool, futures and threads run.

Their handlers raise KeyboardInterrupt in the main thread at whatever line it is running, and
the standard library's process pool, futures and threads are not written to be left half-way.
concurrent.futures.wait takes each future's lock in a loop: interrupted between two, it left the
first held for ever, the pool's thread blocked on it, and the run's shutdown waited for that
thread for ever (a SIGTERMed ``batch --jobs 2 --resume`` hung in CI so). A Condition's
``__enter__`` is Python code that an interrupt can leave with its lock taken and no ``with`` to
give it back; Event.wait can leave it given back twice. A pool interrupted while it forks its
workers never starts the thread that would stop them, and Python's exit waits for them for
ever. So an interrupt that comes while such code runs is held and raised as that code returns;
everywhere else, and above all while the batch waits for its workers, it is raised at once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["held", "holdable"]

_Handler = Callable[[int, FrameType | None], Any]

#: The signals that interrupt a run: the terminal's Ctrl-C, and SIGTERM, which the command line
#: turns into the same interrupt (see formtools.cli).
_SIGNALS = (signal.SIGINT, signal.SIGTERM)

# Signals are the process's and reach its main thread alone, so the state is the module's.
_replaced: dict[int, _Handler] = {}  # the handlers :func:`holdable` stands in front of
_depth = 0  # :func:`held` blocks entered and not left
_pending: tuple[_Handler, int, FrameType | None] | None = None  # the interrupt held back


@contextmanager
def holdable() -> Iterator[None]:
    """Within: interrupts can be :func:`held`. Only the main thread runs signal handlers, so
    elsewhere (and within another ``holdable`` block) this does nothing; nor for a signal whose
    handler is none of Python's (ignored, or the system's default, which ends the process on
    the spot)."""
    if threading.current_thread() is not threading.main_thread() or _replaced:
        yield
        return
    for number in _SIGNALS:
        handler = signal.getsignal(number)
        if callable(handler):
            _replaced[number] = handler
            signal.signal(number, _arrived)
    try:
        yield
    finally:
        for replaced, original in _replaced.items():
            if signal.getsignal(replaced) is _arrived:  # unless the handler set its own (ignored)
                signal.signal(replaced, original)
        _replaced.clear()


def _arrived(number: int, frame: FrameType | None) -> None:
    global _pending
    handler = _replaced[number]
    if not _depth:
        handler(number, frame)
    elif _pending is None:  # the first is the one acted on, as without holding
        _pending = (handler, number, frame)


@contextmanager
def held() -> Iterator[None]:
    """Within: an interrupt is raised as the block ends, not where it came. Only in the main
    thread, which alone runs signal handlers: a block of another thread (a batch run there
    while the main thread runs one) held the main thread's interrupt, then raised it in the
    other thread as its block ended, and the main thread's batch went on."""
    global _depth, _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if not _depth and _pending is not None:
            handler, number, frame = _pending
            _pending = None
            handler(number, frame)
