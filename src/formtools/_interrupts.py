"""Ctrl-C and SIGTERM held back while code that must not be left half-way runs: the standard
library's pool, futures and threads (the batch), and the close of a browser (the oracle).

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
Chromium's close, cut short, leaves its profile or its singleton socket's folder in the
temporary directory (see formtools._conformance.browser).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from queue import Empty, SimpleQueue
from types import FrameType
from typing import Any, TypeVar

__all__ = ["held", "holdable", "waited"]

_T = TypeVar("_T")

_Handler = Callable[[int, FrameType | None], Any]

#: Seconds between a wait's checks for a signal another thread took (see :func:`waited`).
_WAKE = 0.05

#: The signals that interrupt a run: the terminal's Ctrl-C, and SIGTERM, which the command line
#: turns into the same interrupt (see formtools.cli).
_SIGNALS = (signal.SIGINT, signal.SIGTERM)

# Signals are the process's and reach its main thread alone, so the state is the module's.
_replaced: dict[int, _Handler] = {}  # the handlers :class:`holdable` stands in front of
_holding = False  # a holdable block is running
_depth = 0  # :func:`held` blocks entered and not left
_pending: tuple[_Handler, int, FrameType | None] | None = None  # the interrupt held back


class holdable:
    """Within: interrupts can be :func:`held`. Only the main thread runs signal handlers, so
    elsewhere (and within another ``holdable`` block) this does nothing; nor for a signal whose
    handler is none of Python's (ignored, or the system's default, which ends the process on
    the spot).

    An interrupt can come while the handlers are being swapped too, and what it left half-done
    was the next run's: a batch interrupted as it swapped them left a handler recorded, every
    later ``holdable`` of that process took itself for nested and did nothing, and the next
    interrupt in the pool's start hung that run (a library caller's loop of batches; in CI,
    the test that interrupts one batch at every line). So an interrupt that comes while our
    handler is in place and the handlers are being swapped is held until they are, one whose
    handler is back is raised once all are (:func:`_put_back`), and a block starts from a
    clean state.

    A class, not a generator under ``contextlib.contextmanager``: that one's ``__enter__`` and
    ``__exit__`` are frames of contextlib between the ``with`` and the generator, where Python
    runs a handler (``__exit__``'s start; ``__enter__`` back from the generator, whose ``with``
    then never calls ``__exit__``) with neither the swapping's code on the stack nor a held block.
    An interrupt there left the handlers swapped and the holding on, so that every later batch of
    the process held nothing, for as long as the interrupt (its frames, the suspended generator)
    was kept, as the command line keeps it. Here ``__enter__`` and ``__exit__`` are the
    swapping's own frames, and each raises what came while it ran before it returns."""

    _swapped = False  # this block swapped the handlers: it puts them back

    def __enter__(self) -> None:
        global _holding, _depth, _pending
        if threading.current_thread() is not threading.main_thread():
            return
        if _holding:  # within another: one that came as this ran (its frame was on the stack)
            _raise_pending()
            return
        _depth, _pending = 0, None  # nothing is held outside a holdable block
        try:
            _holding = self._swapped = True
            for number in _SIGNALS:
                handler = signal.getsignal(number)
                if handler is _arrived:  # left by an end cut short by a second signal: recorded
                    continue
                _replaced.pop(number, None)
                if callable(handler):
                    _replaced[number] = handler  # recorded before it is replaced: see _arrived
                    signal.signal(number, _arrived)
            _raise_pending()  # one that came meanwhile
        except BaseException:  # an interrupt: no block runs, and no __exit__ puts them back
            self.__exit__()
            raise

    def __exit__(self, *exc_info: object) -> None:
        global _holding
        if not self._swapped:
            if threading.current_thread() is threading.main_thread():
                _raise_pending()  # within another: one that came as this ran
            return
        _holding = self._swapped = False
        _put_back()


def _put_back() -> None:
    """Every handler :class:`holdable` stood in front of, put back, unless it set its own (the
    command line's ignores the signals after the first, for its clean-up's sake). A handler
    that is back runs as its signal comes, and may raise, at any instruction: the loop starts
    over until none is left, and then the interrupt comes out."""
    interrupt: BaseException | None = None
    while True:
        try:
            while _replaced:
                number, original = next(iter(_replaced.items()))
                if signal.getsignal(number) is _arrived:
                    signal.signal(number, original)
                del _replaced[number]
            break
        except BaseException as error:  # a handler put back ran, and raised
            interrupt = interrupt or error
    if interrupt is not None:
        raise interrupt
    _raise_pending()


def _arrived(number: int, frame: FrameType | None) -> None:
    global _pending
    handler = _replaced[number]
    if not _depth and not _swapping(frame):
        handler(number, frame)
    elif _pending is None:  # the first is the one acted on, as without holding
        _pending = (handler, number, frame)


def _swapping(frame: FrameType | None) -> bool:
    """Whether the handlers are being swapped: :class:`holdable`'s start or end is on the stack
    (neither is while its block runs)."""
    while frame is not None:
        if frame.f_code in _SWAPPING:
            return True
        frame = frame.f_back
    return False


def _raise_pending() -> None:
    global _pending
    if not _depth and _pending is not None:
        handler, number, frame = _pending
        _pending = None
        handler(number, frame)


_SWAPPING = frozenset({holdable.__enter__.__code__, holdable.__exit__.__code__, _put_back.__code__})


@contextmanager
def held() -> Iterator[None]:
    """Within: an interrupt is raised as the block ends, not where it came. Only in the main
    thread, which alone runs signal handlers: a block of another thread (a batch run there
    while the main thread runs one) held the main thread's interrupt, then raised it in the
    other thread as its block ended, and the main thread's batch went on."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        _raise_pending()


def waited(queue: SimpleQueue[_T]) -> _T:
    """``queue.get()`` that a signal stops at once wherever it was delivered. Python runs the
    handlers in the main thread, but the signal may be taken by another (``signal.pthread_kill``,
    ``_thread.interrupt_main`` or ``signal.raise_signal`` from a caller's thread; the kernel's
    choice for one sent to the process, when the main thread has one pending), and a main thread
    asleep in a lock's wait is not woken by it: Ctrl-C waited for the next worker's result, 40 s
    for two costly pages. So the wait wakes every :data:`_WAKE` seconds, where the handler runs."""
    while True:
        try:
            return queue.get(timeout=_WAKE)
        except Empty:
            continue
