"""Regex matches that can be stopped: run in a helper process with a wall-clock deadline.

regress holds the GIL while it matches and has no backtrack budget, so a pattern that
backtracks exponentially (``(a+)+$`` on 40 ``a`` and a ``!``) runs for hours and no thread
can interrupt it. A match sent here runs in a separate Python process instead, which is killed
when it overruns its deadline, and which ends itself a little after that deadline when nobody is
left to kill it (its parent was killed mid-match). Helpers are started with ``subprocess`` (a fresh interpreter,
never ``fork``: the MCP bridge has threads), lazily, on first use; an idle one is kept for the
next match and a killed one is replaced the next time one is needed. Each thread takes a helper
of its own, so one session's long match never waits behind another's. A caller may bound the
whole of a match, the helper's start included (:func:`match_with_deadline`'s ``until``): a start
is about 0.1 s on an idle machine but seconds on a loaded one, and a call that replaced a killed
helper per control took 33 s at load 15 where its budget was a second.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import threading
import time
from typing import Final

__all__ = ["match_with_deadline"]

# the helper: one JSON request per line ([source, flags, text, seconds]), one answer per line
# ("1" a match, "0" none), after a "ready" line once regress is imported (about 0.1 s). Each match
# runs under a timer of ``seconds`` whose SIGALRM, with no handler installed, ends the process
# even while regress holds the GIL: a parent killed mid-match (kill -9, or Ctrl-C while it
# waits) can no longer kill its helper, which otherwise went on backtracking for hours, an orphan.
_WORKER: Final = """
import json, signal, sys
import regress
compiled = {}
print("ready", flush=True)
for line in sys.stdin:
    source, flags, text, seconds = json.loads(line)
    regex = compiled.get((source, flags))
    if regex is None:
        if len(compiled) > 256:
            compiled.clear()
        regex = compiled[(source, flags)] = regress.Regex(source, flags)
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, seconds)
    found = regex.find(text) is not None
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    sys.stdout.write("1\\n" if found else "0\\n")
    sys.stdout.flush()
"""

#: Idle helpers kept for reuse; more only live while that many threads match at once.
_MAX_IDLE: Final = 2
#: How long a new helper may take to start (a loaded machine) before it counts as broken. A caller
#: that gives up on it sooner (``until``) leaves it starting, for the next match to use.
_START_TIMEOUT: Final = 30.0
#: How long past its deadline a helper ends itself: its parent kills it at the deadline, so this
#: only counts when the parent is gone, and it keeps a loaded machine's late answer from racing it.
_SELF_KILL_AFTER: Final = 1.0


class _Helper:
    """One helper process and the thread that reads its answers (a queue with a timeout
    works on every platform, where ``select`` on a pipe does not)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.started = time.monotonic()
        self.ready = False
        self.answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, name="formtools-match-reader", daemon=True).start()

    def wait_ready(self, until: float) -> bool:
        """Whether the helper has started by the instant ``until`` (``time.monotonic()``); False
        leaves it starting. Raises :class:`OSError` when it exited, or is still not ready
        :data:`_START_TIMEOUT` after it was started (it is then killed)."""
        if self.ready:
            return True
        broken_at = self.started + _START_TIMEOUT
        try:
            line = self.answers.get(timeout=max(min(until, broken_at) - time.monotonic(), 0.0))
        except queue.Empty:
            if time.monotonic() < broken_at:
                return False
            line = ""
        if line != "ready":
            self.kill()
            raise OSError(f"the helper process ({sys.executable}) did not start")
        self.ready = True
        return True

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.answers.put(line.strip())
        self.answers.put("")  # the helper is gone

    def ask(self, source: str, flags: str, text: str, timeout: float) -> bool | None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps([source, flags, text, max(timeout, 0.0) + _SELF_KILL_AFTER]) + "\n")
            self.process.stdin.flush()
            answer = self.answers.get(timeout=max(timeout, 0.0))
        except (OSError, queue.Empty):
            return None
        return {"1": True, "0": False}.get(answer)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """End an idle helper: a ready one exits when its input ends; one still starting is
        killed (waiting for it to read its input's end would hold up the exit for its start)."""
        if not self.ready:
            self.kill()
            return
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


_idle: list[_Helper] = []
_lock = threading.Lock()


def _forget_in_child() -> None:
    """A forked child (``batch --jobs``) must not share its parent's helpers: their pipes and
    answers are the parent's, and the threads reading them did not survive the fork."""
    global _lock
    _idle.clear()
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


@atexit.register
def _close_idle() -> None:
    with _lock:
        while _idle:
            _idle.pop().close()


def _keep(helper: _Helper) -> None:
    """Keep ``helper`` (ready or still starting) for the next match, or end it when enough are
    kept already."""
    with _lock:
        if len(_idle) < _MAX_IDLE:
            _idle.append(helper)
            return
    helper.kill()


def match_with_deadline(source: str, flags: str, text: str, timeout: float, until: float | None = None) -> bool | None:
    """Whether regress finds ``source`` (compiled with ``flags``) in ``text``, or None when it
    has not answered within ``timeout`` seconds of matching (the helper is then killed) or by
    the instant ``until`` (``time.monotonic()``), which bounds the helper's start too: a helper
    still starting then is kept for the next match. Without ``until`` a start may take
    :data:`_START_TIMEOUT`. ``text`` holds Unicode scalar values only (regress takes nothing
    else). Raises :class:`OSError` when no helper can be started."""
    with _lock:
        helper = _idle.pop() if _idle else None
    if helper is None:
        helper = _Helper()
    if not helper.wait_ready(time.monotonic() + _START_TIMEOUT if until is None else until):
        _keep(helper)
        return None
    if until is not None:
        timeout = min(timeout, until - time.monotonic())
    if timeout <= 0:  # the start took all the time there was: nothing to kill
        _keep(helper)
        return None
    answer = helper.ask(source, flags, text, timeout)
    if answer is None:
        helper.kill()
        return None
    _keep(helper)
    return answer
