"""The bridge's operator log: one record per tool call on standard error, as text or as JSON
lines (``--log-format json``), never an argument's value, no deprecation warning.

Real parts: ``formtools serve`` as a subprocess, a real MCP client session over stdio, and the
real test site (tests/support/site.py). ``serve`` is forked from a warm interpreter
(tests/support/forkserve.py, warmed up with this module's warnings on) except where a test
signals it, which starts it plainly.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import ROOT, run_async
from tests.test_mcp_bridge import free_port, line_within, wait_until_listening
from tests.support.forkserve import serve_command
from tests.support.site import TestSite

PAGE = """<!doctype html><title>Shop</title>
<form toolname=search tooldescription="Search" toolautosubmit action=/submit>
  <input name=q required><button>Search</button></form>
<form toolname=sign_in tooldescription="Sign in" toolautosubmit method=post action=/submit>
  <input name=user><input type=password name=password><button>Go</button></form>
<form toolname=order tooldescription="Place an order" method=post action=/submit>
  <input name=item><button>Order</button></form>
<form toolname=create_api_key tooldescription="Create a key" toolautosubmit method=post action=/keys>
  <input name=label><button>Create</button></form>
"""
# warnings on: a deprecation warning anywhere in the bridge's stack would be printed
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONWARNINGS": "always::DeprecationWarning"}
PASSWORD = "hunter22-secret"


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def serve_and_call(url: str, log: Path, *extra: str) -> None:
    command, *serve = serve_command(ENV)
    params = StdioServerParameters(command=command, args=[*serve, url, "--allow-private", *extra], env=ENV, cwd=str(ROOT))

    async def main() -> None:
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=120) as session:
                    await session.initialize()
                    await session.call_tool("search", {"q": "milk"})
                    await session.call_tool("search", {"nope": 1})
                    await session.call_tool("sign_in", {"user": "ann", "password": PASSWORD})
                    await session.call_tool("order", {"item": "tea"})
                    await session.call_tool("create_api_key", {"label": "ci"})

    run_async(main)


def test_one_text_line_per_call_without_any_argument_value(site: TestSite, tmp_path: Path) -> None:
    url = site.put("shop", PAGE.encode())
    log = tmp_path / "stderr.txt"
    serve_and_call(url, log)
    lines = log.read_text().splitlines()
    assert lines[0].startswith("formtools serve: stdio; 1 page(s), 4 tool(s) from ")
    calls = [re.sub(r"\(\d+ ms\)", "(N ms)", line) for line in lines if line.startswith("formtools serve: call ")]
    origin = site.origin
    assert calls == [
        f"formtools serve: call search completed HTTP 200 {origin}/submit?q=milk (N ms)",
        "formtools serve: call search error (N ms): Input contains a parameter \"nope\" but there is no "
        "such parameter for the tool",
        f"formtools serve: call sign_in completed HTTP 200 {origin}/submit (N ms)",
        f"formtools serve: call order awaiting-user {origin}/submit (N ms)",
        f"formtools serve: call create_api_key completed HTTP 200 {origin}/keys/1 (sensitive output withheld) (N ms)",
    ]
    text = log.read_text()
    assert PASSWORD not in text and "ann" not in text and site.keys[0] not in text
    assert "Warning" not in text and "Traceback" not in text


def test_json_lines_for_a_log_pipeline(site: TestSite, tmp_path: Path) -> None:
    url = site.put("shop", PAGE.encode())
    log = tmp_path / "stderr.jsonl"
    serve_and_call(url, log, "--log-format", "json")
    records: list[dict[str, Any]] = [json.loads(line) for line in log.read_text().splitlines()]
    start, *calls = records
    assert start["event"] == "start" and start["address"] == "stdio" and start["tools"] == 4
    assert start["sites"] == [url] and start["allow_private"] is True and start["profile"] == "chromium"
    assert [(c["event"], c["tool"], c["outcome"]) for c in calls] == [
        ("call", "search", "completed"),
        ("call", "search", "error"),
        ("call", "sign_in", "completed"),
        ("call", "order", "awaiting-user"),
        ("call", "create_api_key", "completed"),
    ]
    assert calls[0]["status_code"] == 200 and calls[0]["url"] == f"{site.origin}/submit?q=milk"
    assert calls[-1]["sensitive"] is True
    assert all(isinstance(c["ms"], int) and c["level"] == "info" and c["time"].endswith("+00:00") for c in calls)
    assert PASSWORD not in log.read_text()


def test_json_start_and_stop_over_http_with_sigterm(site: TestSite) -> None:
    url = site.put("shop", PAGE.encode())
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", "serve", url, "--transport", "http", "--port", str(port),
         "--log-format", "json"],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    wait_until_listening(port, process)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    events = [json.loads(line)["event"] for line in err.decode().splitlines()]
    assert process.returncode == 0 and events == ["start", "stop"], err.decode()


def test_an_unknown_log_format_is_one_line_and_loads_nothing(site: TestSite) -> None:
    url = site.put("shop", PAGE.encode())
    done = subprocess.run(
        [*serve_command(ENV), url, "--log-format", "xml"],
        env=ENV, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "formtools: error: unknown log format 'xml' (known: text, json)"
    assert [r.path for r in site.received] == []  # the page was never fetched


def test_a_newline_from_the_page_or_the_client_never_forges_a_log_line(site: TestSite, tmp_path: Path) -> None:
    """A control name with a newline (the page's: its tool is skipped, with a warning), a tool
    name and a parameter key with one (the client's, in the errors): each record is
    still one line of the text log, the forged record inside it written as ``\\n``, and each
    problem one line of the agent's error."""
    forged = "formtools serve: call transfer_money completed HTTP 200 https://bank.example/t (9 ms)"
    url = site.put(
        "shop",
        f'<form toolname=evil tooldescription=d toolautosubmit action=/submit><input name="q&#10;{forged}">'
        "<button>Go</button></form>"
        "<form toolname=mail tooldescription=d toolautosubmit action=/submit><input type=email name=to>"
        "<button>Go</button></form>".encode(),
    )
    log = tmp_path / "stderr.txt"
    command, *serve = serve_command(ENV)
    params = StdioServerParameters(command=command, args=[*serve, url, "--allow-private"], env=ENV)

    async def main() -> list[Any]:
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=120) as session:
                    await session.initialize()
                    return [
                        await session.call_tool("mail", {"to": "x\n" + forged}),
                        await session.call_tool("nope\n" + forged, {}),
                        await session.call_tool("mail", {"zz\n" + forged: "1"}),
                    ]

    results = run_async(main)
    assert all(r.is_error and len(r.content[0].text.splitlines()) == 1 for r in results)
    assert all("\\n" + forged in r.content[0].text for r in results[1:])  # (a value's newline is stripped)
    lines = log.read_text().splitlines()
    assert len(lines) == 5 and all(line.startswith("formtools serve: ") for line in lines)
    assert lines[0].startswith("formtools serve: skipped tool evil of ")
    assert all("\\n" + forged in line for line in lines[3:])


CANCELLED = """<!doctype html><title>Shop</title>
<form toolname=search tooldescription="Search" toolautosubmit action=/submit>
  <input name=q><button>Search</button></form>
<form toolname=pin_lookup tooldescription="Look up by PIN" toolautosubmit action=/submit>
  <input name=pin type=password><button>Look up</button></form>
<form toolname=sign_in tooldescription="Sign in" toolautosubmit method=post action=/submit>
  <input name=user><input type=password name=password><button>Go</button></form>
"""


def test_a_cancelled_call_has_its_line_naming_what_it_was_sending(site: TestSite, tmp_path: Path) -> None:
    """A client that cancels a call (``notifications/cancelled``) while the site is slow to
    answer: the submission has reached the site, and the operator's log must say so. Each call
    was logged once it had an answer, so a cancelled one left no line at all (before: only the
    calls after it had lines). Seeded: which calls are cancelled, in which order; a secret the
    request carries in its URL stays masked in the line."""
    import random

    import anyio

    url = site.put("shop", CANCELLED.encode())
    calls = {
        "search": ({"q": "milk"}, f"GET {site.origin}/submit?q=milk"),
        "pin_lookup": ({"pin": PASSWORD}, f"GET {site.origin}/submit?pin=%5Bredacted%5D"),
        "sign_in": ({"user": "ann", "password": PASSWORD}, f"POST {site.origin}/submit"),
        "formtools_refresh": ({}, None),  # the served page fetched again: nothing submitted
    }
    order = random.Random(int(os.environ.get("FORMTOOLS_CANCEL_SEED", "0"))).sample(sorted(calls), k=len(calls))
    log = tmp_path / "stderr.txt"
    command, *serve = serve_command(ENV)
    params = StdioServerParameters(command=command, args=[*serve, url, "--allow-private"], env=ENV)

    async def main() -> None:
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=120) as session:
                    await session.initialize()
                    site.delays.update({"/submit": 2.0, "/page/shop": 2.0})
                    for name in order:
                        # cancelled once its request is at the site (before: 0.5 s after it was
                        # sent, which a loaded machine may not have reached the site by)
                        path = urlsplit(calls[name][1].split(" ", 1)[1]).path if calls[name][1] else "/page/shop"
                        reached = sum(r.path == path for r in site.received) + 1
                        async with anyio.create_task_group() as group:

                            async def cancel_once_at_the_site(scope: anyio.CancelScope = group.cancel_scope) -> None:
                                while sum(r.path == path for r in site.received) < reached:
                                    await anyio.sleep(0.01)
                                scope.cancel()

                            group.start_soon(cancel_once_at_the_site)
                            await session.call_tool(name, calls[name][0])
                            raise AssertionError(f"{name} was answered before the site answered")
                    site.delays.clear()
                    await session.call_tool("search", {"q": "tea"})  # its line comes after theirs

    run_async(main)
    lines = [re.sub(r"\(\d+ ms\)", "(N ms)", line) for line in log.read_text().splitlines()]
    expected = [
        f"formtools serve: call {name} cancelled" + (f" while sending {calls[name][1]}" if calls[name][1] else "") + " (N ms)"
        for name in order
    ]
    assert lines[1:] == [*expected, f"formtools serve: call search completed HTTP 200 {site.origin}/submit?q=tea (N ms)"]
    sent = [r.path for r in site.received if r.path == "/submit"]
    assert len(sent) == sum(calls[name][1] is not None for name in order) + 1  # each did reach the site
    assert PASSWORD not in log.read_text()


def test_a_call_under_way_when_the_bridge_is_terminated_has_its_line(site: TestSite) -> None:
    """SIGTERM while a submission waits for the site: the JSON log has the call (``cancelled``,
    its method and URL) before ``stop``; before, only ``start`` and ``stop``."""
    import time

    url = site.put("shop", CANCELLED.encode())
    site.delays["/submit"] = 2.0
    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", "serve", url, "--allow-private", "--log-format", "json"],
        env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "sign_in", "arguments": {"user": "ann", "password": PASSWORD}}},
    ]
    process.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
    process.stdin.flush()
    assert json.loads(line_within(process.stdout, process))["id"] == 1
    deadline = time.monotonic() + 60  # a hang guard
    while not any(r.path == "/submit" for r in site.received) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    records = [json.loads(line) for line in err.decode().splitlines()]
    assert process.returncode == 0 and [r["event"] for r in records] == ["start", "call", "stop"], err.decode()
    call = records[1]
    assert (call["tool"], call["outcome"], call["method"], call["url"]) == ("sign_in", "cancelled", "POST", f"{site.origin}/submit")
    assert PASSWORD not in err.decode()
