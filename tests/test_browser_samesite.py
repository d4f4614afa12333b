"""Which ``SameSite`` cookies a submission carries: formtools' sends against Chromium's, live.

One MCP bridge session keeps one cookie jar for every site it serves, so a form on one site
submitting to another must carry only the cookies Chromium would: a ``Strict`` or ``Lax``
session cookie sent on a cross-site POST is the CSRF that ``SameSite`` exists to stop. The
cases are generated — a seeded sample of (page's host × method × redirect chain × status) —
and each form's tool is called in Chromium with WebMCP's ``executeTool`` (the page answered
inside the browser by a Playwright route; the submission and its redirects go to a real server
on 127.0.0.1, ``*.localhost`` being loopback to Chromium) and by formtools (``call_tool`` with
one jar, and ``acall_tool`` with one fetcher as a bridge session; names resolved by a lying
``getaddrinfo``). The truth is the ``Cookie`` header each hop brought the server from
Chromium: hop by hop, formtools' must name the same cookies.

Sites: ``b.localhost`` sets four cookies (``Strict``, ``Lax``, ``None; Secure`` — ``localhost``
names are secure origins —, and none given); ``x.b.localhost`` is the same site,
``a.localhost``, ``localhost`` and ``127.0.0.1`` are other sites.
"""

from __future__ import annotations

import json
import random
import re
import socket
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import httpx
import pytest

import formtools
from formtools._net import AsyncFetcher, Fetcher, FetchPolicy, cookie_jar
from tests.conftest import run_async
from tests.support.hostile import HostileServer, LyingResolver

if TYPE_CHECKING:
    from playwright.sync_api import Route

    from formtools._conformance.browser import ChromiumOracle

_PREFIX = "samesite_case_"  # the cookies' names, apart from any other test's cookies
ATTRIBUTES = {"strict": "; SameSite=Strict", "lax": "; SameSite=Lax", "none": "; SameSite=None; Secure", "unset": ""}
PAGES = ("a.localhost", "x.b.localhost", "b.localhost", "localhost", "127.0.0.1")
OTHER_SITES = ("a.localhost", "localhost", "127.0.0.1")  # not b.localhost's site
CHAINS = ("direct", "via-a", "b-a-b", "b-b")  # the hops before the final one on b.localhost
STATUSES = (302, 303, 307)

Case = tuple[str, str, str, int]  # page host, method, chain, redirect status
Hop = tuple[str, str, str, list[str]]  # method, host, path, the case's cookies it carried


def _cases(seed: int) -> list[Case]:
    """Each (method, chain) once, from a page and with a redirect status picked at random, and
    each (method, redirect status) once from a page of another site, through a chain picked at
    random (14 of the 51 cases)."""
    pick = random.Random(seed)
    each = [(pick.choice(PAGES), method, chain, 302 if chain == "direct" else pick.choice(STATUSES))
            for method in ("get", "post") for chain in CHAINS]
    cross = [(pick.choice(OTHER_SITES), method, pick.choice(CHAINS[1:]), status)
             for method in ("get", "post") for status in STATUSES]
    return each + cross


def _form(port: int, number: int, case: Case) -> str:
    """The case's page: a form whose action is the chain's first hop. A GET form's query is
    its fields, so the redirect's ``to`` and ``status`` are fields (a POST's action keeps them
    in its query too)."""
    _, method, chain, status = case

    def redirect(host: str, to: str) -> str:
        return f"http://{host}:{port}/redirect?" + urlencode({"to": to, "status": status})

    target = f"http://b.localhost:{port}/echo?case={number}"
    if chain == "via-a":
        target = redirect("a.localhost", target)
    elif chain == "b-a-b":
        target = redirect("b.localhost", redirect("a.localhost", target))
    elif chain == "b-b":
        target = redirect("b.localhost", target)
    action, _, query = target.partition("?")
    fields = "".join(f'<input type=hidden name="{k}" value="{v}">' for k, v in parse_qsl(query))
    return (f'<!doctype html><form toolname=go tooldescription="Go" toolautosubmit method={method} '
            f'action="{target if method == "post" else action}">{fields}</form>')


def _page(port: int, number: int, case: Case) -> str:
    return f"http://{case[0]}:{port}/samesite-form/{number}"


def _setting(port: int) -> list[str]:
    return [f"http://b.localhost:{port}/cookie?" + urlencode({"name": _PREFIX + kind, "attributes": attributes})
            for kind, attributes in ATTRIBUTES.items()]


def _hops(server: HostileServer, first: int) -> list[Hop]:
    """The requests the server got from request number ``first`` on (no favicon), each with
    the names of the test's cookies it carried."""
    hops = []
    for seen in server.seen[first:]:
        path = seen.path.split("?")[0]
        if path != "/favicon.ico":
            cookie = {k.lower(): v for k, v in seen.headers.items()}.get("cookie", "")
            names = sorted(p.split("=")[0].strip().removeprefix(_PREFIX) for p in cookie.split(";") if _PREFIX in p)
            hops.append((seen.method, seen.headers.get("Host", "").split(":")[0], path, names))
    return hops


# the page's tool called as an agent calls it (WebMCP's executeTool, the navigation it starts
# not awaited: it replaces the page), once the tool is registered
_CALL_JS = """async () => {
  const context = document.modelContext;
  let tool;
  while (!(tool = (await context.getTools()).find((t) => t.name === "go"))) await new Promise((r) => setTimeout(r, 0));
  context.executeTool(tool, {}).catch(() => {});
}"""


def _by_chromium(chromium: ChromiumOracle, server: HostileServer, cases: list[Case]) -> list[list[Hop]]:
    page = chromium.page
    port = server.port
    forms = {_page(port, number, case): _form(port, number, case) for number, case in enumerate(cases)}

    def answer(route: Route) -> None:
        route.fulfill(status=200, headers={"Content-Type": "text/html"}, body=forms[route.request.url])

    page.route("**/samesite-form/*", answer)
    try:
        for url in _setting(port):
            page.goto(url, wait_until="commit")
        found = []
        for url in forms:
            page.goto(url, wait_until="domcontentloaded")
            first = len(server.seen)
            with page.expect_navigation(url=re.compile(r"/echo\?"), wait_until="commit"):
                page.evaluate(_CALL_JS)
            found.append(_hops(server, first))
        return found
    finally:
        page.unroute("**/samesite-form/*")
        page.context.clear_cookies(name=re.compile(_PREFIX))


def _tool(port: int, number: int, case: Case) -> formtools.Tool:
    (tool,) = formtools.extract_tools(_form(port, number, case), base_url=_page(port, number, case))
    return tool


def _by_formtools(server: HostileServer, cases: list[Case]) -> list[list[Hop]]:
    """``call_tool`` with an ``httpx.Client``'s jar (the library's way to keep cookies)."""
    port = server.port
    with httpx.Client() as client:
        with Fetcher(FetchPolicy(timeout=5.0), cookies=client.cookies) as fetcher:
            for url in _setting(port):
                fetcher.fetch("GET", url)
        found = []
        for number, case in enumerate(cases):
            first = len(server.seen)
            result = formtools.call_tool(_tool(port, number, case), {}, client=client, timeout=5.0)
            assert result.status_code == 200, (case, result)
            found.append(_hops(server, first))
    return found


def _by_the_bridge_way(server: HostileServer, cases: list[Case]) -> list[list[Hop]]:
    """``acall_tool`` with one :class:`AsyncFetcher` and its jar for every site, as an MCP
    bridge session submits."""
    port = server.port

    async def run() -> list[list[Hop]]:
        async with AsyncFetcher(FetchPolicy(timeout=5.0), cookies=cookie_jar()) as fetcher:
            for url in _setting(port):
                await fetcher.fetch("GET", url)
            found = []
            for number, case in enumerate(cases):
                first = len(server.seen)
                result = await formtools.acall_tool(_tool(port, number, case), {}, fetcher=fetcher)
                assert result.status_code == 200, (case, result)
                found.append(_hops(server, first))
            return found

    found: list[list[Hop]] = run_async(run)
    return found


def test_a_submission_carries_the_samesite_cookies_chromium_sends(
    chromium: ChromiumOracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = _cases(seed=6265)
    with HostileServer("127.0.0.1") as server:
        truth = _by_chromium(chromium, server, cases)
        monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({h: [["127.0.0.1"]] for h in PAGES if h[0].isalpha()}))
        ours, bridge = _by_formtools(server, cases), _by_the_bridge_way(server, cases)
    differences = [f"{case}: Chromium {json.dumps(chromium_hops)}, formtools {json.dumps(our_hops)}"
                   for way in (ours, bridge)
                   for case, chromium_hops, our_hops in zip(cases, truth, way) if chromium_hops != our_hops]
    # the cookies were set and sent at all, and the sample has cross-site cases that drop some
    assert any(hop[3] == sorted(ATTRIBUTES) for hops in truth for hop in hops)
    assert any(hop[3] and hop[3] != sorted(ATTRIBUTES) for hops in truth for hop in hops)
    assert differences == []
