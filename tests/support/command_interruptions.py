"""A formtools command interrupted at a chosen line of its main thread, as a real Ctrl-C or
SIGTERM interrupts it wherever it is: the technique of :mod:`tests.support.interruptions`, for
commands a test drives from outside (``serve`` with an MCP client talking to it, ``call``,
``diff``) rather than a batch run in a loop.

Run as ``python -m tests.support.command_interruptions MODE FILE -- ARGV…``: the command line
(:func:`formtools.cli.main`) runs ``ARGV`` in this process, traced in its main thread.

- ``lines``: the lines it ran in :data:`WATCHED` code, with how often, are written to FILE as
  JSON as it exits (``[[file, line, count], …]``);
- ``interrupt``: the point ``[file, line, occurrence, signal]`` in the environment variable
  ``FORMTOOLS_POINT`` gets its signal (``signal.raise_signal``) as its line begins for the
  occurrence-th time, and ``sent`` is written to FILE then.

With ``FORMTOOLS_IN_LOOP=1`` in the environment only what runs while an event loop runs in the
main thread is counted, in both modes: the lines of the loop's tasks and callbacks, not of the
imports and start-up before it.

A run still going :data:`WATCHDOG` seconds after it began prints every thread's stack and exits
3: the driver tells a hang from a slow run so.
"""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

#: The code an interrupt is raised in: formtools, the event loop and its threads, the MCP SDK, the
#: HTTP server and client, the browser's driver, and code made from a string (``<string>``: the
#: methods dataclasses and namedtuple make with ``exec``).
WATCHED = (
    "/formtools/", "/anyio/", "/asyncio/", "/threading.py", "/queue.py", "/concurrent/", "/mcp/",
    "/uvicorn/", "/starlette/", "/httpx/", "/httpcore/", "/playwright/", "/subprocess.py", "/tempfile.py",
    "/shutil.py", "<string>",
)

WATCHDOG = 25

_Tracer = Any


def _counted() -> bool:
    """Whether a line running now is counted (see ``FORMTOOLS_IN_LOOP``). asyncio is imported
    only then: imported here for every run, it was never imported by the command itself, whose
    import of it (``batch --urls``) could then not be signalled."""
    if os.environ.get("FORMTOOLS_IN_LOOP") != "1":
        return True
    from asyncio import _get_running_loop

    return _get_running_loop() is not None


def _hung(signum: int, frame: object) -> None:
    print(f"hung: {os.environ.get('FORMTOOLS_POINT')}", file=sys.stderr, flush=True)
    faulthandler.dump_traceback(all_threads=True)
    os._exit(3)


def _counting(seen: dict[tuple[str, int], int]) -> _Tracer:
    main = threading.main_thread()

    def tracer(frame: FrameType, event: str, arg: object) -> _Tracer:
        if threading.current_thread() is not main:
            return None
        filename = frame.f_code.co_filename
        if not any(part in filename for part in WATCHED):
            return None  # no line of this call is counted: not traced, which is slow
        if event == "line" and _counted():
            key = (filename, frame.f_lineno)
            seen[key] = seen.get(key, 0) + 1
        return tracer

    return tracer


def _signalling(point: list[Any], record: Path) -> _Tracer:
    filename, line, occurrence, name = point
    count = 0

    def tracer(frame: FrameType, event: str, arg: object) -> _Tracer:
        nonlocal count
        if frame.f_code.co_filename != filename:
            return None
        if event == "line" and frame.f_lineno == line and _counted():
            count += 1
            if count == occurrence:
                sys.settrace(None)
                record.write_text("sent")
                signal.raise_signal(getattr(signal, name))
                return None
        return tracer

    return tracer


def main() -> None:
    mode, record = sys.argv[1], Path(sys.argv[2])
    argv = sys.argv[sys.argv.index("--") + 1 :]
    sys.argv = ["formtools", *argv]
    signal.signal(signal.SIGALRM, _hung)
    signal.alarm(WATCHDOG * (8 if mode == "lines" else 1))  # tracing every line is slow
    from formtools import cli

    exit_now = os._exit
    if mode == "lines":
        seen: dict[tuple[str, int], int] = {}

        def written() -> None:
            sys.settrace(None)
            record.write_text(json.dumps([[f, n, c] for (f, n), c in sorted(seen.items())]))

        def leave(code: int) -> None:  # serve over stdio leaves so (see formtools.cli.serve)
            written()
            exit_now(code)

        os._exit = leave  # type: ignore[assignment]
        _traced(_counting(seen))
        try:
            cli.main()
        finally:
            written()
    else:
        _traced(_signalling(json.loads(os.environ["FORMTOOLS_POINT"]), record))
        cli.main()


def _traced(tracer: _Tracer) -> None:
    """Trace the main thread with ``tracer`` from now on or, with ``FORMTOOLS_IN_LOOP=1``, from
    the moment an event loop first runs in it: only then is a line counted, and a trace
    function called at every call of the start-up before it (the imports of the MCP SDK, the
    HTTP server and client) cost each ``serve`` run 1.3 s of CPU, two fifths of it. The frames
    already running then get the tracer as their call would have given it (as pdb's
    ``set_trace`` does), so that the same lines are traced as from the start."""
    if os.environ.get("FORMTOOLS_IN_LOOP") != "1":
        sys.settrace(tracer)
        return
    from asyncio import events

    set_running_loop = events._set_running_loop
    started: list[bool] = []
    caller = sys._getframe(1)  # traced from here on, not itself (sys.settrace traces new calls)

    def set_running_loop_and_trace(loop: Any) -> None:
        set_running_loop(loop)
        if loop is None or started or threading.current_thread() is not threading.main_thread():
            return
        started.append(True)
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and frame is not caller:
            frame.f_trace = tracer(frame, "call", None)
            frame = frame.f_back
        sys.settrace(tracer)

    events._set_running_loop = set_running_loop_and_trace


if __name__ == "__main__":
    main()
