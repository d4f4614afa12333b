"""``formtools diff`` stopped by Ctrl-C or SIGTERM at each line of the browser's start-up after
Chromium is launched (:mod:`tests.support.command_interruptions`): one line, exit 130 or 143, no
traceback, no process left and no profile left in its temporary directory, as
docs/guide/cli.md promises for a Chromium-backed command.

A real signal lands while the oracle waits for Chromium nearly always; the line that left a
profile (the last of ``ChromiumOracle.__enter__``) was hit by 1 in 30 seeded lines of
formtools._conformance. Each run costs a Chromium, so the lines are shared between two parts."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from formtools._conformance import browser
from formtools._conformance.site import LocalSite
from tests.support.processes import left_after
from tests.test_mcp_bridge import ENV, ROOT

_PARTS = 2
_PAGE = "<form toolname=s tooldescription=d toolautosubmit><input name=q required><button>Go</button></form>"
_ENTER, _FIRST = inspect.getsourcelines(browser.ChromiumOracle.__enter__)
#: the lines of the oracle's start-up from Chromium's launch on
_AFTER_LAUNCH = range(_FIRST + next(i for i, text in enumerate(_ENTER) if "launch_persistent_context" in text), _FIRST + len(_ENTER))


def _run(page: Path, mode: str, record: Path, point: list[Any] | None = None) -> tuple[int, str, list[str], list[str]]:
    """``formtools diff page`` in a temporary directory of its own: its exit code, standard
    error, the processes of its session left running and what it left in the directory."""
    temporary = Path(tempfile.mkdtemp(prefix="ft-", dir="/tmp"))  # short: Chromium's socket path
    env = {**ENV, "PYTHONPATH": f"{ENV['PYTHONPATH']}{os.pathsep}{ROOT}", "TMPDIR": str(temporary), "FORMTOOLS_POINT": json.dumps(point)}
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.command_interruptions", mode, str(record), "--", "diff", str(page)],
            env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        _, err = process.communicate(timeout=120)
        left = left_after(process.pid)
        return process.returncode, err.decode(), left, sorted(entry.name for entry in temporary.iterdir())
    finally:
        subprocess.run(["rm", "-rf", str(temporary)], check=False)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[Any]]]:
    """The page, and the lines one ``diff`` of it runs (file, line, how often)."""
    if not os.access(browser.CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    root = tmp_path_factory.mktemp("browser")
    page = root / "page.html"
    page.write_text(_PAGE)
    code, err, _, _ = _run(page, "lines", root / "lines.json")
    assert code == 0, err
    yield page, json.loads((root / "lines.json").read_text())


@pytest.fixture(scope="module")
def started(ran: tuple[Path, list[Any]]) -> tuple[Path, list[Any]]:
    page, lines = ran
    return page, [entry for entry in lines if entry[0] == browser.__file__ and entry[1] in _AFTER_LAUNCH]


def _signalled(page: Path, point: list[Any], tmp_path: Path) -> None:
    """``diff`` signalled at ``point`` ends as docs/guide/cli.md says: one line, 130 or 143, no
    process and nothing in its temporary directory left."""
    code, err, left, files = _run(page, "interrupt", tmp_path / "sent", point)
    assert code in (130, 143), (point, code, err[-3000:])
    assert err.splitlines() == ["formtools: interrupted" if code == 130 else "formtools: terminated"], (point, err[-3000:])
    assert left == [] and files == [], (point, left, files)


@pytest.mark.parametrize("part", range(_PARTS))
def test_a_signal_while_the_browser_starts_closes_it_and_removes_its_profile(
    started: tuple[Path, list[Any]], part: int, tmp_path: Path
) -> None:
    """Before, a signal at the oracle's ``return self`` (after its stack was handed over) reached
    no ``__exit__``: Chromium outlived the profile's removal and wrote it again, which stayed
    for ever, naming no owner for the next run to find."""
    page, lines = started
    assert len(lines) >= 5
    rng = random.Random(part)
    for filename, line, count in lines[part::_PARTS]:
        _signalled(page, [filename, line, rng.randint(1, count), rng.choice(["SIGINT", "SIGTERM"])], tmp_path)


def _lines_of(function: Any, start: str = "") -> tuple[str, range]:
    """``function``'s file and lines, from the first that holds ``start`` on."""
    source, first = inspect.getsourcelines(function)
    skip = next(index for index, text in enumerate(source) if start in text)
    return function.__code__.co_filename, range(first + skip, first + len(source))


def test_a_signal_while_playwrights_event_loop_is_at_work_closes_the_browser(ran: tuple[Path, list[Any]], tmp_path: Path) -> None:
    """A signal in a step of the event loop that Playwright runs in the main thread: as its task
    reading the driver handles a message, or as the loop takes a callback from its queue (seeded
    runs of those lines while the browser is used). Raised there, the interrupt became that
    task's exception, which ended the connection to the driver, so that Chromium could not be
    closed (``Target page, context or browser has been closed`` or ``cannot write the output:
    Directory not empty``, exit 1, the profile left), or lost the callback, and the close
    waited for ever (8 in 60 seeded lines of Playwright's and asyncio's code before)."""
    from asyncio.base_events import BaseEventLoop

    from playwright._impl.transport import PipeTransport

    page, lines = ran
    steps = [_lines_of(PipeTransport.run), _lines_of(BaseEventLoop._run_once, "ntodo = len(self._ready)")]
    candidates = [entry for entry in lines if any(entry[0] == name and entry[1] in span for name, span in steps) and entry[2] > 1]
    assert len(candidates) >= 10
    rng = random.Random(15)
    for filename, line, count in rng.sample(candidates, 3):
        _signalled(page, [filename, line, rng.randint(count // 2, count), rng.choice(["SIGINT", "SIGTERM"])], tmp_path)


_SECOND_SIGNAL = """
import signal, sys
import playwright.sync_api._generated as generated
from formtools import cli
from formtools._conformance import browser

first, second, step = signal.Signals[sys.argv[1]], signal.Signals[sys.argv[2]], sys.argv[3]
owner = generated.BrowserContext if step == "close" else browser.DevTools
real_close, real_tools = owner.close, browser.ChromiumOracle.tools

def tools(self, *args, **kwargs):
    signal.raise_signal(first)  # the first signal, as the browser is used
    return real_tools(self, *args, **kwargs)

def close(self, *args, **kwargs):
    signal.raise_signal(second)  # the second, as the clean-up the first started closes the browser
    real_close(self, *args, **kwargs)
    print("closed", file=sys.stderr)

browser.ChromiumOracle.tools, owner.close = tools, close
sys.argv = ["formtools", "diff", sys.argv[4]]
cli.main()
"""


def test_a_second_signal_during_the_clean_up_the_first_started_does_not_cut_it_short(tmp_path: Path) -> None:
    """A second Ctrl-C or SIGTERM while ``diff`` closes the browser the first one stopped (seeded
    signals, in Playwright's close of Chromium or the DevTools connection's): the clean-up runs
    to its end, one line, exit 130 or 143. Ignored only once the command line had caught the
    first, the second interrupted Playwright's close, and Chromium wrote its profile as it was
    removed: left in the temporary directory (3 in 14 double SIGTERMs to ``diff``), or an exit 1
    saying ``cannot write the output: Directory not empty`` (1 in 14)."""
    page = tmp_path / "page.html"
    page.write_text(_PAGE)
    rng = random.Random(14)
    first, second = rng.choice(["SIGINT", "SIGTERM"]), rng.choice(["SIGINT", "SIGTERM"])
    for step in ("close", "devtools"):
        temporary = Path(tempfile.mkdtemp(prefix="ft-", dir="/tmp"))  # short: Chromium's socket path
        try:
            done = subprocess.run(
                [sys.executable, "-c", _SECOND_SIGNAL, first, second, step, str(page)],
                env={**ENV, "TMPDIR": str(temporary)}, capture_output=True, text=True, timeout=60,
            )
            left = os.listdir(temporary)
        finally:
            subprocess.run(["rm", "-rf", str(temporary)], check=False)
        assert done.returncode == (143 if first == "SIGTERM" else 130), done.stderr
        assert done.stderr.splitlines() == ["closed", f"formtools: {'terminated' if first == 'SIGTERM' else 'interrupted'}"]
        assert not [name for name in left if name.startswith(browser.PROFILE_PREFIX)], left


_SIGNAL_IN_CLOSE = """
import signal, sys
import playwright.sync_api._generated as generated
from formtools import cli

first, steps = signal.Signals[sys.argv[1]], int(sys.argv[2])
real_close = generated.BrowserContext.close

def close(self, *args, **kwargs):
    def step(left):  # one callback a turn of the event loop, as it works on the close
        if left:
            self._loop.call_soon(step, left - 1)
        else:
            signal.raise_signal(first)
    if steps:
        self._loop.call_soon(step, steps - 1)
    else:
        signal.raise_signal(first)  # as the close begins
    real_close(self, *args, **kwargs)
    print("closed", file=sys.stderr)

generated.BrowserContext.close = close
sys.argv = ["formtools", "diff", sys.argv[3]]
cli.main()
"""


def test_a_first_signal_as_the_browser_closes_lets_the_close_finish(tmp_path: Path) -> None:
    """The first Ctrl-C or SIGTERM as ``diff`` closes the browser at the end of its run, at a
    seeded turn of the event loop working on the close (a close takes 25 turns or more): the
    close finishes, then one line, exit 130 or 143, nothing left in the temporary directory.
    Before, the interrupt cut Playwright's close short and the driver ended Chromium, which left
    its profile or its singleton socket's folder behind (in the seeded runs: the close never
    ended)."""
    page = tmp_path / "page.html"
    page.write_text(_PAGE)
    rng = random.Random(15)
    for steps in [0, *rng.sample(range(1, 21), 2)]:
        first = rng.choice(["SIGINT", "SIGTERM"])
        temporary = Path(tempfile.mkdtemp(prefix="ft-", dir="/tmp"))  # short: Chromium's socket path
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _SIGNAL_IN_CLOSE, first, str(steps), str(page)],
                env={**ENV, "TMPDIR": str(temporary)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
            )
            _, err = process.communicate(timeout=60)
            left = left_after(process.pid)
            files = os.listdir(temporary)
        finally:
            subprocess.run(["rm", "-rf", str(temporary)], check=False)
        said = ["closed", f"formtools: {'terminated' if first == 'SIGTERM' else 'interrupted'}"]
        expected = (143 if first == "SIGTERM" else 130, said, [], [])
        assert (process.returncode, err.decode().splitlines(), left, files) == expected, (steps, err.decode()[-3000:])


def test_the_local_site_says_nothing_when_the_browser_goes_away_mid_answer(capfd: pytest.CaptureFixture[str]) -> None:
    """A browser closed by a signal as a page loaded goes away before the local site has
    written its answer: socketserver printed the BrokenPipeError's traceback on standard error,
    before ``formtools: terminated`` (1 in 14 double SIGTERMs to ``diff``). Here clients that
    reset their connection right after asking, for pages of seeded sizes: nothing printed."""
    rng = random.Random(11)
    with LocalSite() as site:
        for index in range(6):
            url = site.put(f"/p{index}", b"x" * rng.randrange(2**20, 2**23))
            host, port = url.split("/")[2].split(":")
            client = socket.create_connection((host, int(port)))
            client.sendall(f"GET /p{index} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            client.recv(1)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()
        time.sleep(0.3)  # the server's threads have met the reset
    assert "Traceback" not in capfd.readouterr().err


_HANG_IN_CLOSE = """
import os, signal, sys, threading, time
from formtools._conformance.browser import ChromiumOracle

limit, stop_children, page = float(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]
oracle = ChromiumOracle().__enter__()
oracle.close_time_limit = limit
oracle.tools(page)
parents = {}  # from /proc, not from the oracle: Playwright starts Chromium in a session of its own
for entry in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{entry}/stat").read()
    except OSError:
        continue
    parents[int(entry)] = int(stat.rpartition(")")[2].split()[1])
def mine(pid):
    while pid > 1:
        pid = parents.get(pid, 0)
        if pid == os.getpid():
            return True
    return False
chromium = []
for pid in parents:
    try:
        if mine(pid) and os.readlink(f"/proc/{pid}/exe").endswith("/chromium"):
            chromium.append((pid, b"--type=" in open(f"/proc/{pid}/cmdline", "rb").read()))
    except OSError:
        pass
for pid, child in chromium:
    if stop_children or not child:
        os.kill(pid, signal.SIGSTOP)
# a close that never ends would hang the test: the stopped processes go on after a while
thawed = threading.Event()

def thaw():
    thawed.set()
    for pid, _ in chromium:
        os.kill(pid, signal.SIGCONT)

timer = threading.Timer(limit + 60, thaw)
timer.daemon = True
timer.start()
began = time.monotonic()
oracle.__exit__(None, None, None)
print(f"{time.monotonic() - began:.2f}", "thawed" if thawed.is_set() else "stopped", *[pid for pid, _ in chromium])
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, reaped by whoever adopted it, runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_a_browser_that_hangs_in_its_close_is_killed_after_the_close_time_limit(tmp_path: Path) -> None:
    """Chromium stopped for real (SIGSTOP: the browser process alone, or with every child
    process, seeded) before the oracle closes it: the close returns within its time limit (and
    a few seconds for the kill and the driver's exit), with none of Chromium's processes left
    and its profile removed. Playwright's close has no time limit: it waited for ever (here
    until the test's own SIGCONT after the limit and 30 s)."""
    rng = random.Random(16)
    limit = 3.0
    for stop_children in rng.sample(["0", "1"], 2):
        chromium: list[str] = []
        temporary = Path(tempfile.mkdtemp(prefix="ft-", dir="/tmp"))  # short: Chromium's socket path
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _HANG_IN_CLOSE, str(limit), stop_children, _PAGE],
                env={**ENV, "TMPDIR": str(temporary)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            )
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, err.decode()[-3000:]
            took, stopped, *chromium = out.decode().split()
            deadline = time.monotonic() + 60  # a hang guard
            while (left := [pid for pid in chromium if _running(int(pid))]) and time.monotonic() < deadline:
                time.sleep(0.1)
            files = os.listdir(temporary)
        finally:
            subprocess.run(["rm", "-rf", str(temporary)], check=False)
            for pid in chromium:
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)  # a failing run leaves nothing behind either
        assert len(chromium) >= 2  # the browser and its children were there to stop
        # the close ended while Chromium was still stopped: the time limit ended it, not the
        # thaw a minute after (an order, not a duration: before, a bound of limit + 5 s)
        assert float(took) >= limit and stopped == "stopped", (stop_children, took, stopped)
        assert (left, files) == ([], []), stop_children
