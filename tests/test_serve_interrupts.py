"""``formtools serve`` over stdio and over HTTP stopped by Ctrl-C or SIGTERM wherever its main thread is: it
exits (0, or 130/143 while the command line is still starting it), with one last line and no
traceback, leaving no process.

A real signal lands where the server happens to be, nearly always waiting in the event loop's
``select``, which was safe; one that lands while a task runs (the SDK dispatching a request, the
HTTP client sending a submission to the site) raised the interrupt inside that task. So each
run here is interrupted at a seeded line of the code that runs while the loop runs
(:mod:`tests.support.command_interruptions`), in a session that initializes, lists and calls a
tool that sends to a real 127.0.0.1 site, then ends its input. The session is spoken over the
pipes as JSON lines (the stdio transport's framing) rather than through the SDK's
``stdio_client``, which kills a server that outlives its input by 2 s and would hide a hang;
over HTTP the SDK's own client calls the tool, and SIGTERM ends a server still serving after.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("mcp")

from tests.conftest import run_async
from tests.support.processes import left_after
from tests.test_cli_interrupts import site  # noqa: F401 (the fixture: the page both call)
from tests.test_mcp_bridge import ENV, ROOT, free_port, http_session

_PARTS = 2
_PER_PART = 3
#: The code that runs in the event loop's tasks during a session.
_IN_TASKS = ("/mcp/", "/anyio/", "/httpcore/", "/httpx/", "/formtools/mcp.py", "/formtools/_net/", "/formtools/_execute/")
_HELLO = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


def _line(**message: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


def _session(url: str, mode: str, record: Path, point: list[Any] | None = None) -> tuple[int, str, list[str]]:
    """One ``serve`` run driven through a session: its exit code, standard error and what of
    its session was left running."""
    env = _env(point)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.command_interruptions", mode, str(record), "--", "serve", url, "--allow-private"],
        env=env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    requests = [
        _line(id=1, method="initialize", params=_HELLO),
        _line(method="notifications/initialized") + _line(id=2, method="tools/list"),
        _line(id=3, method="tools/call", params={"name": "s", "arguments": {"q": "x"}}),
    ]
    try:
        for request in requests:
            process.stdin.write(request)
            process.stdin.flush()
            process.stdout.readline()  # its answer, or nothing once the server has stopped
        process.stdin.close()
    except OSError:  # it stopped before reading everything
        pass
    process.stdin = None
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode(), left_after(process.pid)


def _env(point: list[Any] | None) -> dict[str, str]:
    return {**ENV, "PYTHONPATH": f"{ENV['PYTHONPATH']}{os.pathsep}{ROOT}", "FORMTOOLS_POINT": json.dumps(point), "FORMTOOLS_IN_LOOP": "1"}


def _http_session(url: str, mode: str, record: Path, point: list[Any] | None = None) -> tuple[int, str, list[str]]:
    """:func:`_session` over HTTP: the SDK's client calls the tool, then SIGTERM stops a server
    still running (the point may lie in its shutdown)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.command_interruptions", mode, str(record), "--", "serve", url,
         "--transport", "http", "--port", str(port), "--allow-private"],
        env=_env(point), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    deadline = time.monotonic() + 60  # a hang guard
    while process.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            time.sleep(0.05)
            continue

        async def call() -> None:
            with anyio.fail_after(60):  # a hang guard
                async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
                    await session.call_tool("s", {"q": "x"})

        try:
            run_async(call)
        except BaseException:  # the server stopped under it
            pass
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        break
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode(), left_after(process.pid)


_SESSIONS = {"stdio": _session, "http": _http_session}


@pytest.fixture(scope="module", params=sorted(_SESSIONS))
def served(request: pytest.FixtureRequest, site: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, list[Any]]:
    """The transport, the site's page and the lines an uninterrupted session runs while its
    event loop runs."""
    record = tmp_path_factory.mktemp("serve") / "lines.json"
    code, err, _ = _SESSIONS[request.param](site, "lines", record)
    assert code == 0, err
    ran = [entry for entry in json.loads(record.read_text()) if any(part in entry[0] for part in _IN_TASKS)]
    return request.param, site, ran


@pytest.mark.parametrize("part", range(_PARTS))
def test_a_signal_at_a_line_a_task_of_serve_runs_stops_it_cleanly(served: tuple[str, str, list[Any]], part: int, tmp_path: Path) -> None:
    """Before, an interrupt raised inside a task became the task's exception as well: the SDK's
    task groups gathered it, and asyncio's shutdown printed a 60-line exception group before
    ``stopped`` (10 in 100 points at any line of the serving thread; 3 in 24 at lines of the
    tasks), or the server hung in the SDK's shutdown (mcp/server/runner.py) until killed. Over
    HTTP, uvicorn sends the signal again as it has stopped, which must not stop the ending loop
    a second time (a RuntimeError's traceback, exit 1)."""
    transport, url, ran = served
    rng = random.Random(part)
    record = tmp_path / "sent"
    for filename, line, count in rng.sample(ran, _PER_PART):
        point = [filename, line, rng.randint(1, count), rng.choice(["SIGINT", "SIGTERM"])]
        record.unlink(missing_ok=True)
        code, err, left = _SESSIONS[transport](url, "interrupt", record, point)
        said = err.splitlines()
        assert code in (0, 130, 143), (point, err[-3000:])  # 3: it hung (the stacks are in err)
        assert "Traceback" not in err and left == [], (point, err[-3000:], left)
        if record.exists():
            stop = {0: "formtools serve: stopped", 130: "formtools: interrupted", 143: "formtools: terminated"}[code]
            assert said[-1] == stop, (point, said)
