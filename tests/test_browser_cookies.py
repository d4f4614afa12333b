"""Which hosts a cookie goes back to: the guarded fetch's jar against Chromium, live.

A cookie carried to a host a browser would not send it to leaks one site's session to another
(the MCP bridge keeps one jar per session for every page and submission). Python's cookie
policy follows RFC 2965, which names a dotless host ``host.local``: ``Domain=local`` from
``evil`` went to ``intranet`` and ``localhost``, a host-only cookie of ``evil`` to
``evil.local``. The cases are generated — a seeded sample of (host, ``Domain`` attribute) from
a pool of dotless, ``.local``, unknown-TLD, ordinary and public-suffix hosts, each ``Domain``
one of the host's own suffixes. Chromium's page is answered inside the browser (a Playwright
route: no name is resolved), formtools' by a hostile server on 127.0.0.1 reached through a
lying ``getaddrinfo``. The truth is what Chromium's cookie store holds for each host of the pool.
"""

from __future__ import annotations

import json
import random
import re
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import httpx
import pytest

from formtools._net import Fetcher, FetchPolicy, cookie_jar
from tests.support.hostile import HostileServer, LyingResolver

if TYPE_CHECKING:
    from playwright.sync_api import Route

    from formtools._conformance.browser import ChromiumOracle

HOSTS = (
    "evil", "intranet", "localhost", "evil.local", "x.evil.local", "good.local", "a.evil.corp",
    "good.corp", "a.shop.com", "shop.com", "b.shop.com", "mallory.github.io", "alice.github.io",
    "github.io", "www.shop.co.uk", "shop.co.uk",
)


def _cases(seed: int, count: int) -> list[tuple[str, str]]:
    """(host, Domain attribute) pairs: no attribute, each suffix of the host, with a leading dot
    or in capitals."""
    every: list[tuple[str, str]] = []
    for host in HOSTS:
        labels = host.split(".")
        suffixes = [".".join(labels[i:]) for i in range(len(labels))]
        every += [(host, "")] + [(host, s) for s in suffixes] + [(host, "." + labels[-1]), (host, host.upper())]
    return random.Random(seed).sample(every, count)


_PREFIX = "jar_case_"  # the cookies' names: case numbers, apart from any other test's cookies


def _set_cookie(number: int, domain: str) -> str:
    return f"{_PREFIX}{number}=1; Path=/" + (f"; Domain={domain}" if domain else "")


def _setting(number: int, domain: str) -> str:
    """The path of the hostile server that sets cookie ``number``, for ``domain`` if any."""
    return "/cookie?" + urlencode({"name": f"{_PREFIX}{number}", **({"domain": domain} if domain else {})})


def _sent_by_chromium(chromium: ChromiumOracle, cases: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Each case's ``Set-Cookie`` answered to a navigation to its host (the answers are made
    inside the browser, so no name needs resolving), then the names of the cookies Chromium's
    store holds for each host of the pool. The cookies are cleared again afterwards."""
    page = chromium.page
    answers = {f"http://{host}/set/{number}": _set_cookie(number, domain) for number, (host, domain) in enumerate(cases)}

    def answer(route: Route) -> None:
        route.fulfill(status=200, headers={"Set-Cookie": answers[route.request.url]}, body="<p>set</p>")

    page.route("http://*/set/*", answer)
    try:
        for url in answers:
            page.goto(url, wait_until="commit")
        return {h: sorted(c["name"] for c in page.context.cookies([f"http://{h}/"])) for h in HOSTS}
    finally:
        page.unroute("http://*/set/*")
        page.context.clear_cookies(name=re.compile("^" + _PREFIX))


def test_the_jar_sends_a_cookie_to_the_hosts_chromium_sends_it_to(
    chromium: ChromiumOracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = _cases(seed=6265, count=20)
    truth = _sent_by_chromium(chromium, cases)
    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({h: [["127.0.0.1"]] for h in HOSTS}))

    with HostileServer("127.0.0.1") as server:

        def through(fetcher: Fetcher) -> dict[str, list[str]]:
            """Each case's cookie set through ``fetcher``, then what each host of the pool is sent."""
            for number, (host, domain) in enumerate(cases):
                fetcher.fetch("GET", f"http://{host}:{server.port}{_setting(number, domain)}")
            got: dict[str, list[str]] = {}
            for host in HOSTS:
                echo = json.loads(fetcher.fetch("GET", f"http://{host}:{server.port}/echo").body)
                cookie = echo["headers"].get("cookie", "")
                got[host] = sorted(part.split("=")[0].strip() for part in cookie.split(";") if part.strip())
            return got

        policy = FetchPolicy(timeout=5.0)
        # a caller's jar (an httpx.Client's, under Python's default policy), and formtools' own
        # (the bridge's sessions)
        with Fetcher(policy, cookies=httpx.Cookies()) as fetcher:
            callers = through(fetcher)
        with Fetcher(policy, cookies=cookie_jar()) as fetcher:
            own = through(fetcher)

    def differences(ours: dict[str, list[str]]) -> list[str]:
        found = []
        for host in HOSTS:
            for name in sorted(set(ours[host]) ^ set(truth[host])):
                setter, domain = cases[int(name.removeprefix(_PREFIX))]
                who = "formtools" if name in ours[host] else "Chromium"
                found.append(f"{setter} sets {name} for Domain={domain!r} → {host}: only {who} sends it")
        return found

    assert sum(map(len, truth.values())) > len(cases) // 2  # the cookies were set at all
    assert differences(callers) == []
    assert differences(own) == []
