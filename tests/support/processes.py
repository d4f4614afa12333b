"""The processes a command leaves behind, found by session: a command under test is started
with ``start_new_session=True``, so its session id is its pid and every process it starts
(workers, helpers, a browser) stays in that session unless it makes one of its own."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def alive_in_session(session: int) -> list[str]:
    """``pid command`` of every process of ``session`` that still runs (zombies, which run
    nothing and are reaped by whoever adopted them, are not counted)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # it ended while we looked
            continue
        # pid (comm) state ppid pgrp session …: comm may hold spaces and parentheses
        state, _ppid, _pgrp, sid = stat[stat.rindex(")") + 2 :].split()[:4]
        if int(sid) == session and state != "Z":
            found.append(f"{entry.name} {command[:100]}")
    return found


#: How long :func:`left_after` waits for a session to end: a hang guard, not a speed goal (the
#: wait ends as the last process does; 3 to 5 s, as callers once gave, a loaded machine missed)
HANG_GUARD = 60.0


def left_after(session: int) -> list[str]:
    """What of ``session`` still runs after waiting up to :data:`HANG_GUARD` for it to end;
    whatever is left is then killed, so that a failing test leaves no process behind either."""
    deadline = time.monotonic() + HANG_GUARD
    while (left := alive_in_session(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for line in left:
        try:
            os.kill(int(line.split()[0]), signal.SIGKILL)
        except ProcessLookupError:
            pass
    return left
