"""The MCP bridge end to end: a real web site on 127.0.0.1, ``python -m formtools serve`` as a real
subprocess, and real MCP client sessions from the ``mcp`` SDK over stdio and streamable HTTP."""

from __future__ import annotations

import http.client
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import IO, Any

import anyio
import pytest

if os.environ.get("CI") != "true":  # CI installs the test extra, mcp included: never skip there
    pytest.importorskip("mcp")

import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ENV, ROOT, run_async
from tests.support.forkserve import serve_command
from tests.support.site import TestSite

SHOP = """<!doctype html><meta charset=utf-8><title>Shop</title>
<form toolname=search tooldescription="Search the shop" toolautosubmit action=/submit>
  <label>Query <input name=q required></label>
  <select name=sort><option value=new>Newest</option><option value=old>Oldest</option></select>
  <button>Search</button>
</form>
<form toolname=contact tooldescription="Send a message" toolautosubmit method=post action=/submit>
  <input type=email name=email required><textarea name=message></textarea><button>Send</button>
</form>
<form toolname=upload_note tooldescription="Attach a note" toolautosubmit method=post
      enctype=multipart/form-data action=/submit>
  <input name=note><button>Upload</button>
</form>
<form toolname=login tooldescription="Sign in" toolautosubmit method=post action=/login>
  <input type=email name=email required><input type=password name=password><button>Sign in</button>
</form>
<form toolname=whoami tooldescription="Show the account" toolautosubmit action=/account>
  <button>Account</button>
</form>
<form toolname=order tooldescription="Place an order" method=post action=/submit>
  <input name=item required><button>Order</button>
</form>
<form toolname=register tooldescription="Create an account" toolautosubmit method=post action=/submit>
  <input name=user required><input type=password name=secret required><button>Register</button>
</form>
<form toolname=delete_note tooldescription="Remove a note" toolautosubmit method=post action=/submit>
  <input name=note required><button>Delete</button>
</form>
"""

SERVE = [sys.executable, "-m", "formtools", "serve"]


def forked_serve() -> list[str]:
    """``SERVE`` forked from a warm interpreter (tests/support/forkserve.py): the same command
    over the same pipes and ports, without importing the MCP SDK again for every test. Tests of
    signals and of the process itself keep ``SERVE``."""
    return serve_command(ENV)


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def sent(site: TestSite) -> list[Any]:
    return [r for r in site.received if r.path in ("/submit", "/login", "/account")]


class Notes:
    """What a client session saw: notifications and elicitation requests."""

    def __init__(self, answer: str | None = None) -> None:
        self.answer = answer
        self.notifications: list[Any] = []
        self.elicitations: list[types.ElicitRequestParams] = []

    async def on_message(self, message: Any) -> None:
        self.notifications.append(message)

    async def elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.elicitations.append(params)
        content = {"submit": True} if self.answer == "accept" else None
        return types.ElicitResult(action=self.answer or "decline", content=content)

    def session(self, read: Any, write: Any) -> ClientSession:
        return ClientSession(
            read,
            write,
            read_timeout_seconds=120,  # a hang guard: a loaded machine answers in seconds
            message_handler=self.on_message,
            elicitation_callback=self.elicit if self.answer else None,
        )


@asynccontextmanager
async def stdio_session(args: list[str], notes: Notes | None = None) -> AsyncIterator[ClientSession]:
    notes = notes or Notes()
    command, *serve = forked_serve()
    params = StdioServerParameters(command=command, args=[*serve, *args], env=ENV, cwd=str(ROOT))
    with open(os.devnull, "w") as errlog:  # noqa: ASYNC230 (opening the null device does not block)
        async with stdio_client(params, errlog=errlog) as (read, write), notes.session(read, write) as session:
            await session.initialize()
            yield session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: Seconds a ``serve`` started by a test may take to listen: a hang guard, far past the second or
#: two it takes (20 s was passed on a loaded machine)
START_UP = 90.0


def wait_until_listening(
    port: int, process: subprocess.Popen[bytes], address: str = "127.0.0.1", within: float = START_UP
) -> None:
    """Return once ``process`` (``serve --transport http``) accepts connections on ``port``; if it
    ends first, or ``within`` seconds pass, kill it and fail with what it wrote. Its
    output is read once it has ended: read while it ran (past a deadline of 20 s, on a loaded
    machine), standard error gave nothing until the server closed it, and the test waited
    for ever."""
    deadline = time.monotonic() + within
    while True:
        try:
            socket.create_connection((address, port), timeout=0.2).close()
            return
        except OSError:
            if process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
        process.kill()
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # a child of it still holds the pipe: say so, not wait
            err = b"(its standard error stayed open after it was killed)"
        raise RuntimeError(
            f"serve did not listen on {address}:{port} within {within:g} s "
            f"(exit {process.returncode}):\n{(err or b'').decode(errors='replace')}"
        )


def line_within(stream: IO[bytes], process: subprocess.Popen[bytes], within: float = START_UP) -> bytes:
    """The next line ``process`` writes to ``stream`` (its start-up line, its first answer): read
    aside, so that a server that writes none within ``within`` seconds is killed and the test
    fails with what it wrote, instead of waiting in ``readline`` for ever."""
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(within)
    if read:
        return read[0]
    process.kill()
    reader.join(60)
    raise RuntimeError(f"no line within {within:g} s (exit {process.wait(60)}): {b''.join(read)!r}")


@pytest.fixture()
def http_server(site: TestSite):
    """``formtools serve --transport http`` on a free port, serving the shop page."""
    url = site.put("shop", SHOP.encode())
    port = free_port()
    process = subprocess.Popen(
        [*forked_serve(), url, "--transport", "http", "--port", str(port), "--allow-private"],
        env=ENV,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(60)


def test_a_server_that_never_starts_fails_the_start_up_waits_with_its_output() -> None:
    """The start-up waits end: a child that writes part of a line and never listens (a ``serve``
    slower than the wait, a hung one) is killed when the wait is over, and the failure quotes it.
    The wait read the child's standard error while it still ran, and waited for ever. The wait
    starts once the child has written (it says so on standard output): on a loaded machine a
    child not yet started in half a second had written nothing to quote."""
    hung = [sys.executable, "-c", "import sys, time; sys.stderr.write('loading pages'); sys.stderr.flush(); "
            "print('written', flush=True); time.sleep(600)"]
    for wait in (lambda p: wait_until_listening(free_port(), p, within=0.5), lambda p: line_within(p.stderr, p, within=0.5)):
        process = subprocess.Popen(hung, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.stdout is not None and select.select([process.stdout], [], [], 60)[0]  # the hang guard
        assert process.stdout.readline() == b"written\n"
        outcome: list[BaseException] = []
        waiting = threading.Thread(target=lambda: outcome.append(pytest.raises(RuntimeError, wait, process).value), daemon=True)
        waiting.start()
        waiting.join(60)  # the hang guard: the wait itself is half a second
        process.kill()
        process.wait(60)
        assert outcome and "loading pages" in str(outcome[0]) and process.returncode == -9


@asynccontextmanager
async def http_session(endpoint: str, notes: Notes | None = None) -> AsyncIterator[ClientSession]:
    notes = notes or Notes()
    async with streamable_http_client(endpoint) as (read, write), notes.session(read, write) as session:
        await session.initialize()
        yield session


def run(main: Any) -> Any:
    return run_async(main)


# ---------------------------------------------------------------------------------------------
# stdio


def test_stdio_lists_every_tool_with_mcp_annotations(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> types.ListToolsResult:
        async with stdio_session([url, "--allow-private"]) as session:
            assert session.initialize_result is not None
            assert session.initialize_result.capabilities.tools.list_changed is True
            return await session.list_tools()

    listed = {t.name: t for t in run(main).tools}
    assert sorted(listed) == [
        "contact", "delete_note", "formtools_refresh", "login", "order", "register", "search",
        "upload_note", "whoami",
    ]
    search = listed["search"].model_dump(by_alias=True, exclude_none=True)
    assert search == {
        "name": "search",
        "description": "Search the shop",
        "inputSchema": {
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "Query"},
                "sort": {
                    "type": "string",
                    "anyOf": [
                        {"type": "string", "const": "new", "title": "Newest"},
                        {"type": "string", "const": "old", "title": "Oldest"},
                    ],
                    "enum": ["new", "old"],
                },
            },
            "required": ["q"],
        },
        "annotations": {
            "readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": True,
        },
        "_meta": {
            "formtools/hints": {
                # no untrustedContentHint: the author's word only (WebMCP ToolAnnotations)
                "autosubmit": True,
                "humanInTheLoopHint": "none",
                "sensitiveHint": False,
                "x-formtools-inferred-hints": [
                    "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint",
                    "humanInTheLoopHint", "sensitiveHint",
                ],
                "writeOnlyFields": [],
            }
        },
    }
    assert listed["contact"].annotations.read_only_hint is False
    assert listed["contact"].annotations.destructive_hint is False
    assert listed["delete_note"].annotations.destructive_hint is True
    # a payment is no destructive update in MCP's sense, and asks for a yes all the same
    assert listed["order"].annotations.destructive_hint is False
    assert listed["order"].meta["formtools/hints"]["humanInTheLoopHint"] == "confirm"
    assert listed["register"].meta["formtools/hints"]["writeOnlyFields"] == ["secret"]
    assert listed["register"].meta["formtools/hints"]["humanInTheLoopHint"] == "notify"


def test_stdio_calls_get_post_and_multipart_and_the_site_receives_them(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> list[types.CallToolResult]:
        async with stdio_session([url, "--allow-private"]) as session:
            return [
                await session.call_tool("search", {"q": "milk & honey", "sort": "old"}),
                await session.call_tool("contact", {"email": "ann@example.com", "message": "hi"}),
                await session.call_tool("upload_note", {"note": "hello"}),
            ]

    search, contact, upload = run(main)
    get, post, multipart = sent(site)
    assert get.method == "GET" and get.query == "q=milk+%26+honey&sort=old"
    assert search.is_error is False
    assert search.structured_content == {
        "result": [
            {"@type": "Submission", "method": "GET", "query": get.query, "contentType": None, "body": ""},
            "second",
        ],
        "status_code": 200,
        "url": f"{site.origin}/submit?q=milk+%26+honey&sort=old",
    }
    assert search.content[0].text.startswith("search: HTTP 200 from ")
    assert post.method == "POST" and post.body == b"email=ann%40example.com&message=hi"
    assert post.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert contact.structured_content["result"][0]["body"] == "email=ann%40example.com&message=hi"
    assert multipart.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'Content-Disposition: form-data; name="note"\r\n\r\nhello\r\n' in multipart.body
    assert upload.structured_content["status_code"] == 200


def test_stdio_invalid_input_is_a_tool_error_and_nothing_is_sent(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> list[types.CallToolResult]:
        async with stdio_session([url, "--allow-private"]) as session:
            return [
                await session.call_tool("search", {"q": {}, "sort": "random", "nope": 1}),
                await session.call_tool("search", {"sort": "new"}),
                await session.call_tool("no_such_tool", {}),
            ]

    bad_input, invalid_form, unknown = run(main)
    assert bad_input.is_error is True
    assert bad_input.content[0].text.splitlines() == [
        "Invalid value for parameter q",
        'Invalid value "random" for parameter sort',
        'Input contains a parameter "nope" but there is no such parameter for the tool',
    ]
    assert invalid_form.is_error is True and "q" in invalid_form.content[0].text
    assert unknown.is_error is True and "no_such_tool" in unknown.content[0].text
    assert sent(site) == []


def test_stdio_login_redirect_after_post_and_cookies(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> tuple[types.CallToolResult, types.CallToolResult]:
        async with stdio_session([url, "--allow-private"]) as session:
            login = await session.call_tool("login", {"email": "ann@example.com", "password": "pw"})
            return login, await session.call_tool("whoami", {})

    login, whoami = run(main)
    assert login.structured_content == {
        "result": [{"@type": "Account", "user": "ann@example.com"}],
        "status_code": 200,
        "url": f"{site.origin}/account",
    }
    assert whoami.structured_content["result"] == [{"@type": "Account", "user": "ann@example.com"}]
    assert [r.method + " " + r.path for r in sent(site)] == ["POST /login", "GET /account", "GET /account"]


@pytest.mark.spec_step("exec-hitl-3")
def test_stdio_without_elicitation_a_form_without_autosubmit_awaits_confirmation(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> types.CallToolResult:
        async with stdio_session([url, "--allow-private"]) as session:
            return await session.call_tool("order", {"item": "tea"})

    result = run(main)
    assert result.is_error is False
    assert result.structured_content["status"] == "awaiting-user"
    assert result.structured_content["request"] == {"method": "POST", "url": f"{site.origin}/submit"}
    assert sent(site) == []


@pytest.mark.spec_step("exec-hitl-3")
@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_stdio_elicitation_asks_and_submits_only_on_accept(site: TestSite, answer: str) -> None:
    url = site.put("shop", SHOP.encode())
    notes = Notes(answer)

    async def main() -> types.CallToolResult:
        async with stdio_session([url, "--allow-private"], notes) as session:
            return await session.call_tool("order", {"item": "tea"})

    result = run(main)
    (asked,) = notes.elicitations
    assert asked.message == (
        "order: the form may change something that cannot be undone (humanInTheLoopHint: confirm). "
        f"Submit it (POST {site.origin}/submit)?"
    )
    if answer == "accept":
        assert result.structured_content["result"][0]["body"] == "item=tea"
        assert [r.body for r in sent(site)] == [b"item=tea"]
    else:
        assert result.structured_content["status"] == "declined"
        assert sent(site) == []


def test_a_form_without_autosubmit_that_fails_validation_is_an_error_without_asking(site: TestSite) -> None:
    """prepare_call keeps such a call (Chromium fills the form and waits for the person, who
    could correct it); this client cannot let the person correct it, so the agent is told why and
    nobody is asked to confirm a submission validation would stop."""
    url = site.put("shop", SHOP.encode())
    notes = Notes("accept")

    async def main() -> types.CallToolResult:
        async with stdio_session([url, "--allow-private"], notes) as session:
            return await session.call_tool("order", {})

    result = run(main)
    assert result.is_error is True
    assert result.content[0].text.splitlines() == ["item: Please fill out this field. (valueMissing)"]
    assert notes.elicitations == [] and sent(site) == []


def test_a_sensitive_value_reaches_the_site_and_never_comes_back(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())
    notes = Notes()

    async def main() -> list[types.CallToolResult]:
        async with stdio_session([url, "--allow-private"], notes) as session:
            return [
                await session.call_tool("register", {"user": "ann", "secret": "hunter22"}),
                await session.call_tool("register", {"user": "ann", "secret": {"no": 1}}),
            ]

    registered, rejected = run(main)
    (received,) = sent(site)
    assert received.body == b"user=ann&secret=hunter22"  # the site gets the secret …
    shown = registered.model_dump_json() + rejected.model_dump_json()
    assert "hunter22" not in shown  # … the client never sees it again
    assert registered.structured_content["result"][0]["body"] == "user=ann&secret=[redacted]"
    assert rejected.is_error and rejected.content[0].text == "Invalid value for parameter secret"
    # humanInTheLoopHint "notify": sent, and the result tells the person first (MCP log
    # notifications are deprecated, SEP-2577: none is sent)
    notice = f"formtools submitted register (POST {site.origin}/submit)"
    assert registered.meta["formtools/notice"] == notice
    assert registered.content[0].text.startswith(notice + ". register: HTTP 200")
    assert not [n for n in notes.notifications if getattr(n, "method", "") == "notifications/message"]


@pytest.mark.spec_step("exec-hitl-3")
def test_a_destructive_form_is_confirmed_even_with_toolautosubmit(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())
    notes = Notes("decline")

    async def main() -> types.CallToolResult:
        async with stdio_session([url, "--allow-private"], notes) as session:
            return await session.call_tool("delete_note", {"note": "n1"})

    result = run(main)
    (asked,) = notes.elicitations
    assert "humanInTheLoopHint: confirm" in asked.message
    assert result.structured_content["status"] == "declined"
    assert sent(site) == []


def test_loopback_destinations_are_refused_without_allow_private(site: TestSite) -> None:
    url = site.put("shop", SHOP.encode())

    async def main() -> types.CallToolResult:
        async with stdio_session([url]) as session:
            return await session.call_tool("search", {"q": "x"})

    result = run(main)
    assert result.is_error is True
    text = result.content[0].text
    assert text.startswith(f"refused: {site.origin}/submit?q=x")
    assert text.endswith(": 127.0.0.1 is a loopback address; the operator can allow it with --allow-private")
    assert sent(site) == []


def test_cross_origin_actions_are_refused_without_allow_cross_origin(site: TestSite) -> None:
    port = site.origin.rsplit(":", 1)[1]
    html = f"""<form toolname=elsewhere tooldescription="x" toolautosubmit method=post
        action="http://localhost:{port}/submit"><input name=a><button>Go</button></form>"""
    url = site.put("cross", html.encode())

    async def main(*flags: str) -> types.CallToolResult:
        async with stdio_session([url, "--allow-private", *flags]) as session:
            return await session.call_tool("elsewhere", {"a": "1"})

    refused = run(main)
    assert refused.is_error is True
    assert refused.content[0].text.startswith(
        f"refused: the form submits to http://localhost:{port}/submit, another origin than its page's"
    )
    assert sent(site) == []
    allowed = run_async(main, "--allow-cross-origin")
    assert allowed.is_error is False and [r.body for r in sent(site)] == [b"a=1"]


def test_refresh_after_a_submission_to_the_page_and_on_the_refresh_tool(site: TestSite) -> None:
    first = b"""<form toolname=add tooldescription="Add" toolautosubmit method=post>
        <input name=item><button>Add</button></form>"""
    second = first + b"""<form toolname=checkout tooldescription="Check out" toolautosubmit
        action=/submit><button>Pay</button></form>"""
    url = site.put("cart", first)
    notes = Notes()

    async def main() -> dict[str, Any]:
        async with stdio_session([url, "--allow-private"], notes) as session:
            seen: dict[str, Any] = {"before": [t.name for t in (await session.list_tools()).tools]}
            site.put("cart", second)  # the page the submission returns to now has a second form
            seen["added"] = await session.call_tool("add", {"item": "tea"})
            seen["after"] = [t.name for t in (await session.list_tools()).tools]
            seen["notified"] = sum(
                getattr(n, "method", "") == "notifications/tools/list_changed" for n in notes.notifications
            )
            site.put("cart", first)
            seen["refresh"] = await session.call_tool("formtools_refresh", {})
            seen["final"] = [t.name for t in (await session.list_tools()).tools]
            return seen

    seen = run(main)
    assert seen["before"] == ["add", "formtools_refresh"]
    assert seen["added"].content[0].text.endswith("the page's tools changed (tools/list again)")
    assert seen["after"] == ["add", "checkout", "formtools_refresh"]
    assert seen["notified"] == 1
    assert seen["refresh"].structured_content == {"changed": True, "tools": ["add"]}
    assert seen["final"] == ["add", "formtools_refresh"]
    changes = [n for n in notes.notifications if isinstance(n, types.ToolListChangedNotification)]
    assert len(changes) == 2


def test_a_refresh_reads_a_served_directory_as_it_is_now(site: TestSite, tmp_path: Any) -> None:
    """``serve DIR``: a page deleted from the directory kept its tools, and every refresh failed
    "no such file". Now a page gone is a page whose tools go (and come back with the file), a
    page added to the directory is served (its document URL under ``--base-url`` as at
    start-up); a page there but unreadable (here: grown past ``--max-bytes``) fails the refresh, which keeps
    every tool as it was. ``formtools_refresh`` takes no arguments: its schema says so, and a
    call with unknown ones is an error naming them, not a refresh. Seeded pages and deletions,
    through the SDK's client."""
    rng = random.Random("deleted pages")
    names = [f"t{number}_{rng.randrange(10**6)}" for number in range(rng.randint(3, 6))]
    pages = {name: tmp_path / f"{name}.html" for name in names}
    for name, path in pages.items():
        path.write_text(f"<form toolname={name} tooldescription=d toolautosubmit><input name=q><button>Go</button></form>")
    gone = rng.sample(names, rng.randint(1, len(names) - 1))
    kept = [name for name in names if name not in gone]
    notes = Notes()

    async def main() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        args = [str(tmp_path), "--base-url", site.origin + "/", "--allow-private", "--max-bytes", "4096"]
        async with stdio_session(args, notes) as session:
            listed = (await session.list_tools()).tools
            seen["before"] = sorted(t.name for t in listed)
            seen["schema"] = next(t.input_schema for t in listed if t.name == "formtools_refresh")
            for name in gone:
                pages[name].unlink()
            seen["refresh"] = await session.call_tool("formtools_refresh", {})
            seen["after"] = sorted(t.name for t in (await session.list_tools()).tools)
            seen["unknown"] = await session.call_tool("formtools_refresh", {"pages": "all", "x\x1b": 1})
            pages[gone[0]].write_text(f"<form toolname={gone[0]} tooldescription=d><input name=q></form>")
            pages[kept[0]].write_text("<!--" + "x" * 5000 + "-->")
            seen["too large"] = await session.call_tool("formtools_refresh", {})
            seen["unchanged"] = sorted(t.name for t in (await session.list_tools()).tools)
            pages[kept[0]].unlink()
            (tmp_path / "sub").mkdir()
            (tmp_path / "sub" / f"{gone[0]}.html").write_text("<form toolname=added tooldescription=d toolautosubmit><input name=q><button>Go</button></form>")
            seen["back"] = await session.call_tool("formtools_refresh", {})
            seen["added"] = await session.call_tool("added", {"q": "x"})
            return seen

    seen = run(main)
    assert seen["before"] == sorted([*names, "formtools_refresh"])
    assert seen["schema"].get("additionalProperties") is False
    assert seen["refresh"].is_error is False and seen["refresh"].structured_content["changed"] is True
    assert seen["after"] == sorted([*kept, "formtools_refresh"])
    unknown = seen["unknown"]
    assert unknown.is_error is True and "'pages'" in unknown.content[0].text and "\x1b" not in unknown.content[0].text
    assert seen["too large"].is_error is True and kept[0] in seen["too large"].content[0].text
    assert "\n" not in seen["too large"].content[0].text
    assert seen["unchanged"] == seen["after"]
    assert sorted(seen["back"].structured_content["tools"]) == sorted([gone[0], *kept[1:], "added"])
    assert seen["added"].structured_content["url"] == f"{site.origin}/sub/{gone[0]}.html?q=x"


def test_name_collisions_across_pages_get_namespaced_names(site: TestSite, tmp_path: Any) -> None:
    url = site.put("shop", SHOP.encode())
    (tmp_path / "saved.html").write_text(
        '<form toolname=search tooldescription="Saved search" toolautosubmit action=/submit>'
        "<input name=q><button>Go</button></form>"
    )

    async def main() -> tuple[list[str], types.CallToolResult]:
        args = [url, str(tmp_path), "--base-url", site.origin + "/", "--allow-private"]
        async with stdio_session(args) as session:
            names = [t.name for t in (await session.list_tools()).tools]
            return names, await session.call_tool("saved__search", {"q": "x"})

    names, result = run(main)
    assert "127.0.0.1__search" in names and "saved__search" in names and "search" not in names
    assert result.structured_content["url"] == f"{site.origin}/submit?q=x"


# ---------------------------------------------------------------------------------------------
# streamable HTTP


def test_http_lists_and_calls(site: TestSite, http_server: str) -> None:
    async def main() -> tuple[list[str], types.CallToolResult]:
        async with http_session(http_server) as session:
            assert session.initialize_result is not None
            assert session.initialize_result.capabilities.tools.list_changed is True
            names = [t.name for t in (await session.list_tools()).tools]
            return names, await session.call_tool("search", {"q": "tea"})

    names, result = run(main)
    assert "search" in names and "login" in names
    assert result.structured_content["url"] == f"{site.origin}/submit?q=tea&sort=new"
    assert [r.query for r in sent(site)] == ["q=tea&sort=new"]


def test_http_two_concurrent_sessions_keep_separate_cookies(site: TestSite, http_server: str) -> None:
    users: dict[str, Any] = {}

    async def user(email: str) -> None:
        async with http_session(http_server) as session:
            await session.call_tool("login", {"email": email, "password": "pw"})
            await anyio.sleep(0.2)  # both sessions are logged in at the same time
            users[email] = (await session.call_tool("whoami", {})).structured_content["result"]

    async def main() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(user, "ann@example.com")
            group.start_soon(user, "bob@example.com")

    run(main)
    assert users == {
        "ann@example.com": [{"@type": "Account", "user": "ann@example.com"}],
        "bob@example.com": [{"@type": "Account", "user": "bob@example.com"}],
    }
    # the redirect after each login and each whoami carry that session's cookie only
    assert sorted(r.headers.get("Cookie", "") for r in sent(site) if r.method == "GET") == [
        "session=ann@example.com", "session=ann@example.com",
        "session=bob@example.com", "session=bob@example.com",
    ]


def _closed_by_the_server(connection: socket.socket) -> bool:
    """Whether the server closed ``connection`` (its end of stream, or a reset) before the
    socket's timeout, the test's hang guard, ran out."""
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_connection_that_never_finishes_its_request_head_is_closed(site: TestSite) -> None:
    """``serve --transport http`` held a connection that sent nothing, or part of a request's
    head, for ever: uvicorn bounds only the idle time after a response, so one client held
    3,000 (attack22), and one reaching the process's file limit would lock the port. Each
    head must now be whole within ``--head-timeout`` (1 s here): connections cut at seeded
    points of a head, one cut in its second request's head, and one trickling a byte every
    0.2 s are closed (within a 30 s hang guard), while a real MCP session is served
    alongside."""
    rng = random.Random("head-timeout")
    url = site.put("shop", SHOP.encode())
    port = free_port()
    process = subprocess.Popen(
        [*forked_serve(), url, "--transport", "http", "--port", str(port), "--allow-private", "--head-timeout", "1"],
        env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json, text/event-stream\r\n"
        "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n"
    ).encode()
    try:
        wait_until_listening(port, process)
        held = []
        for cut in [0, *sorted(rng.sample(range(1, len(head) - 1), 8))]:
            connection = socket.create_connection(("127.0.0.1", port), timeout=30)
            connection.sendall(head[:cut])
            held.append(connection)
        answered = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        answered.request("GET", "/mcp")
        answered.getresponse().read()
        assert answered.sock is not None
        answered.sock.sendall(head[: rng.randrange(1, len(head) - 1)])  # a second request's head
        held.append(answered.sock)

        async def listed() -> list[str]:
            with anyio.fail_after(60):
                async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
                    return [tool.name for tool in (await session.list_tools()).tools]

        assert "search" in run(listed)
        trickling = socket.create_connection(("127.0.0.1", port))
        sent = 0
        while sent < len(head) and not select.select([trickling], [], [], 0.2)[0]:
            trickling.sendall(head[sent : sent + 1])
            sent += 1
        trickling.settimeout(30)
        held.append(trickling)
        assert sent < len(head)  # the head was never whole: the bound is not renewed by each byte
        assert [_closed_by_the_server(connection) for connection in held] == [True] * len(held)
    finally:
        process.terminate()
        process.wait(60)


def _answered(connection: socket.socket, port: int) -> bool:
    """Whether the server answers a whole request sent on ``connection`` (False: it had closed it)."""
    try:
        connection.sendall(f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        return connection.recv(9) == b"HTTP/1.1 "
    except (ConnectionResetError, BrokenPipeError):
        return False


def test_a_request_body_and_a_flood_of_connections_hold_the_server_within_their_bounds(site: TestSite) -> None:
    """After its head, a request's body had no bound on its time: a body dripped a byte every
    0.2 s, or a head promising 100 bytes and sending 7, held a connection for ever, 2,000 of
    them by one client (12 KB each, up to the file limit). Each body must now be whole within
    ``--body-timeout`` (1 s here; the head's 60 s bound cannot close these), and a real MCP
    session is served alongside; a head promising 1 GB is answered 413 at once (the MCP SDK
    reads 4 MiB at most) and its connection closed. A second bridge holds ``--max-connections
    8``, one peer at most half of them: of 6 connections one client opens (silent: its 120 s
    head bound closes none of them within the test), the first 4 are answered, the 2 beyond are
    closed at once; a second peer (127.0.0.2) still gets its 4, and a third none (all 8 held).
    One peer took all 8 before, and held them for ever as ``GET /mcp`` event streams, which
    no timer bounds."""
    url = site.put("shop", SHOP.encode())
    timed, flooded = free_port(), free_port()
    processes = [
        subprocess.Popen(
            [*forked_serve(), url, "--transport", "http", "--port", str(port), "--allow-private", *limits],
            env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        for port, limits in [
            (timed, ["--head-timeout", "60", "--body-timeout", "1"]),
            (flooded, ["--head-timeout", "120", "--max-connections", "8"]),
        ]
    ]

    def head(length: int, port: int = timed) -> bytes:
        return (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json, text/event-stream\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
        ).encode()

    try:
        for port, process in zip([timed, flooded], processes):
            wait_until_listening(port, process)
        held = socket.create_connection(("127.0.0.1", timed), timeout=60)
        held.sendall(head(100) + b'{"json"')
        promised = socket.create_connection(("127.0.0.1", timed), timeout=60)
        promised.sendall(head(10**9) + b"{")
        assert promised.recv(12) == b"HTTP/1.1 413"
        dripping = socket.create_connection(("127.0.0.1", timed))
        dripping.sendall(head(100))

        async def listed() -> list[str]:
            with anyio.fail_after(60):
                async with http_session(f"http://127.0.0.1:{timed}/mcp") as session:
                    return [tool.name for tool in (await session.list_tools()).tools]

        assert "search" in run(listed)
        sent = 0
        while sent < 100 and not select.select([dripping], [], [], 0.2)[0]:
            dripping.sendall(b" ")
            sent += 1
        dripping.settimeout(60)
        assert sent < 100  # the body was never whole: the bound is not renewed by each byte
        assert [_closed_by_the_server(c) for c in (held, dripping)] == [True, True]
        while promised.recv(4096):  # the rest of the 413, then the end
            pass

        # the connection wait_until_listening opened is gone once a later request is answered
        with socket.create_connection(("127.0.0.1", flooded), timeout=60) as first:
            assert _answered(first, flooded)
            first.shutdown(socket.SHUT_WR)  # the server closes on it, having counted it gone
            while first.recv(4096):
                pass
        answered, held_open = {}, []  # every connection stays open (a dropped socket closes)
        for peer, count in [("127.0.0.1", 6), ("127.0.0.2", 6), ("127.0.0.3", 1)]:  # a peer's after the last's are counted
            flood = [socket.create_connection(("127.0.0.1", flooded), timeout=60, source_address=(peer, 0)) for _ in range(count)]
            answered[peer] = [_answered(connection, flooded) for connection in flood]
            held_open += flood
        assert answered == {"127.0.0.1": [True] * 4 + [False] * 2, "127.0.0.2": [True] * 4 + [False] * 2, "127.0.0.3": [False]}
    finally:
        for process in processes:
            process.terminate()
            process.wait(60)


def test_http_elicitation_accept(site: TestSite, http_server: str) -> None:
    notes = Notes("accept")

    async def main() -> types.CallToolResult:
        async with http_session(http_server, notes) as session:
            return await session.call_tool("order", {"item": "tea"})

    result = run(main)
    assert len(notes.elicitations) == 1
    assert result.structured_content["result"][0]["body"] == "item=tea"


def test_a_directory_without_base_url_is_a_one_line_error(tmp_path: Any) -> None:
    """Run plain and forked: the forked start (see :func:`forked_serve`) ends as the plain one,
    with the same exit code and the same standard output and error."""
    (tmp_path / "a.html").write_text("<p>no forms</p>")
    plain, forked = (
        subprocess.run([*serve, str(tmp_path)], env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
        for serve in (SERVE, forked_serve())
    )
    assert plain.returncode == 2
    assert plain.stderr.strip().splitlines() == [
        f"formtools: error: {tmp_path}: saved pages need --base-url (the site they come from)"
    ]
    assert (forked.returncode, forked.stdout, forked.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_a_forked_start_is_a_plain_start() -> None:
    """What a process started through the fork server finds (tests/support/startprobe.py: its
    argv, sys.path, ``__main__``, standard streams and their buffering, signal handlers, session,
    open descriptors, environment, standard input) is what ``python -m`` gives a plain one, and
    its exit code reaches the client; each run from another directory than the fork server's."""
    import json

    forked = forked_serve()[:-3]  # the launcher, without "-m formtools serve"
    runs = [
        subprocess.run(
            [*command, "-m", "support.startprobe", "a", "b c"], env=ENV, cwd=ROOT / "tests",
            input=b"line\n", capture_output=True, start_new_session=True, timeout=60, check=False,
        )
        for command in ([sys.executable], forked)
    ]
    plain, through_fork = ((run.returncode, json.loads(run.stdout), run.stderr) for run in runs)
    assert plain[0] == 3 and plain[1]["argv"][1:] == ["a", "b c"] and plain[1]["stdin"] == "line\n"
    assert through_fork == plain


def test_a_forked_start_in_another_interpreter_environment_is_refused(tmp_path: Any) -> None:
    """A fork inherits what its fork server's interpreter read as it started (``PYTHON*``;
    ``LANG`` and ``LC_*``: UTF-8 mode, the locale, the streams' encoding), so a start whose
    values differ is refused in one line naming them, not their values, with exit code 2."""
    (tmp_path / "a.html").write_text("<p>no forms</p>")
    done = subprocess.run(
        [*forked_serve(), str(tmp_path)], env={**ENV, "LC_ALL": "C", "PYTHONHASHSEED": "7"},
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "forkserve: LC_ALL, PYTHONHASHSEED differ from the fork server's: give formtools_command the same environment"
    ]


def test_a_forked_server_ends_with_its_launcher(site: TestSite) -> None:
    """The forked path's own promise (tests/support/forkserve.py): the SDK's client SIGKILLs a
    server that outlives its grace period, which on that path is the launcher, and the server
    forked for it must end too, or it would serve on unseen. Its standard output, which only
    that server holds open, ends once the launcher is killed (while its input stays open)."""
    import select

    url = site.put("shop", SHOP.encode())
    process = subprocess.Popen(
        [*forked_serve(), url, "--allow-private"],
        env=ENV, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    try:
        assert line_within(process.stderr, process).startswith(b"formtools serve: stdio; ")
        process.kill()
        assert process.wait(60) == -9
        ended, _, _ = select.select([process.stdout], [], [], 10)
        assert ended and process.stdout.read() == b"", "the forked server outlived its launcher"
    finally:
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()


def test_a_page_a_browser_does_not_render_as_html_is_not_served(tmp_path: Any) -> None:
    """A JSON response echoing form markup is no page with tools (the crawlers' rule, which
    the bridge's page loads now follow too)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Json(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = b"<form toolname=t tooldescription=d><input name=q></form>"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Json)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/api"
    try:
        done = subprocess.run(
            [*forked_serve(), url, "--allow-private"], env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2
    assert f"{url}: not HTML (application/json): a browser registers no tools for it" in done.stderr


def test_without_the_mcp_extra_serve_names_the_install_command() -> None:
    hide = (
        "import sys; sys.modules['mcp'] = sys.modules['mcp_types'] = None; "
        "sys.argv = ['formtools', 'serve', 'https://shop.example/']; "
        "from formtools.cli import main; main()"
    )
    done = subprocess.run([sys.executable, "-c", hide], env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == "formtools: error: formtools serve needs the mcp extra: pip install 'formtools[mcp]'\n"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/", "http://localhost:8080/", "http://10.1.2.3/", "http://192.168.0.1/",
        "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
        "http://[fe80::1]/", "http://100.64.0.1/", "http://0.0.0.0/", "http://240.0.0.1/",
        "http://224.0.0.1/", "ftp://93.184.215.14/", "file:///etc/passwd",
    ],
)
def test_private_reserved_and_non_http_destinations_are_refused(url: str) -> None:
    from formtools.mcp import check_destination
    from formtools.errors import Refused

    with pytest.raises(Refused, match="^refused: "):
        run_async(lambda: check_destination(url, allow_private=False))


def test_public_addresses_pass_and_allow_private_lets_loopback_through() -> None:
    from formtools.mcp import check_destination

    async def main() -> None:
        await check_destination("https://93.184.215.14/x", allow_private=False)
        await check_destination("http://[2606:4700::1111]/", allow_private=False)
        await check_destination("http://127.0.0.1:9/", allow_private=True)

    run_async(main)


def test_http_limits_that_would_answer_no_one_are_a_usage_problem() -> None:
    """``formtools.mcp.HttpLimits`` (``serve(limits=…)``, the library's ``--head-timeout``,
    ``--body-timeout`` and ``--max-connections``) took a negative or nan timeout and 0
    connections, a server that answers no one; they are refused as the options are, naming the
    field, and sound limits are kept. Seeded values either side of each bound."""
    import math

    from formtools.errors import UsageProblem
    from formtools.mcp import HttpLimits

    rng = random.Random(2305)
    refused, kept = [], []
    for _ in range(12):
        field_name = rng.choice(["head_timeout", "body_timeout", "max_connections"])
        whole = field_name == "max_connections"
        value = rng.choice([0, -1, rng.randrange(-5, 1)] if whole else [0.0, -rng.random(), math.nan, -math.inf])
        good = rng.randrange(1, 5000) if whole else rng.uniform(0.001, 100)
        with pytest.raises(UsageProblem) as caught:
            HttpLimits(**{field_name: value})
        refused.append(str(caught.value))
        kept.append(getattr(HttpLimits(**{field_name: good}), field_name) == good)
    assert all(len(message.splitlines()) == 1 and message.split(":")[0] in ("head_timeout", "body_timeout", "max_connections") for message in refused), refused
    assert all(kept)
