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
    "github.io", "www.shop.co.uk", "shop.co.uk", "127.0.0.1",
)


Case = tuple[str, str, str, str]  # host, Domain attribute, name prefix, other attributes


def _cases(seed: int, count: int) -> list[Case]:
    """(host, Domain, prefix, attributes): ``count`` plain cookies without ``Domain`` or for a
    suffix of the host (with a leading dot, in capitals), and two thirds as many host-only or
    for the host itself with a ``__Host-`` or ``__Secure-`` name or none, and ``Secure``,
    ``SameSite=None`` with and without it, or nothing (all over http: only ``localhost`` and
    127.0.0.1 are secure origins there)."""
    pick = random.Random(seed)
    every: list[tuple[str, str]] = []
    for host in HOSTS:
        labels = host.split(".")
        suffixes = [".".join(labels[i:]) for i in range(len(labels))]
        every += [(host, "")] + [(host, s) for s in suffixes] + [(host, "." + labels[-1]), (host, host.upper())]
    plain = [(host, domain, "", "") for host, domain in pick.sample(every, count)]
    prefixes, attributes = ["", "__Host-", "__Secure-"], ["", "; Secure", "; SameSite=None", "; SameSite=None; Secure"]
    secured = []
    for _ in range(count * 2 // 3):
        host = pick.choice(HOSTS)
        secured.append((host, pick.choice(["", host]), pick.choice(prefixes), pick.choice(attributes)))
    return plain + secured


_PREFIX = "jar_case_"  # the cookies' names: case numbers, apart from any other test's cookies


def _name(number: int, case: Case) -> str:
    return f"{case[2]}{_PREFIX}{number}"


def _number(name: str) -> int:
    return int(name.rpartition(_PREFIX)[2])


def _set_cookie(number: int, case: Case) -> str:
    host, domain, _, attributes = case
    return f"{_name(number, case)}=1; Path=/" + (f"; Domain={domain}" if domain else "") + attributes


def _setting(number: int, case: Case) -> str:
    """The path of the hostile server that sets the case's cookie."""
    host, domain, _, attributes = case
    query = {"name": _name(number, case), "attributes": attributes, **({"domain": domain} if domain else {})}
    return "/cookie?" + urlencode(query)


def _by_chromium(chromium: ChromiumOracle, cases: list[Case]) -> tuple[dict[str, list[str]], list[str]]:
    """Each case's ``Set-Cookie`` answered to a navigation to its host (the answers are made
    inside the browser, so no name needs resolving); then the names of the cookies Chromium's
    store would send to each host of the pool, and of all it kept. Cleared again afterwards."""
    page = chromium.page
    answers = {f"http://{case[0]}/set/{number}": _set_cookie(number, case) for number, case in enumerate(cases)}

    def answer(route: Route) -> None:
        route.fulfill(status=200, headers={"Set-Cookie": answers[route.request.url]}, body="<p>set</p>")

    page.route("http://*/set/*", answer)
    try:
        for url in answers:
            page.goto(url, wait_until="commit")
        sent = {h: sorted(c["name"] for c in page.context.cookies([f"http://{h}/"])) for h in HOSTS}
        kept = sorted(c["name"] for c in page.context.cookies() if _PREFIX in c["name"])
        return sent, kept
    finally:
        page.unroute("http://*/set/*")
        page.context.clear_cookies(name=re.compile(_PREFIX))


def test_the_jar_sends_a_cookie_to_the_hosts_chromium_sends_it_to(
    chromium: ChromiumOracle, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = _cases(seed=6265, count=20)
    truth, kept = _by_chromium(chromium, cases)
    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({h: [["127.0.0.1"]] for h in HOSTS if h[0].isalpha()}))

    with HostileServer("127.0.0.1") as server:

        def through(jar: httpx.Cookies) -> tuple[dict[str, list[str]], list[str]]:
            """Each case's cookie set through a fetcher with ``jar``, then what each host of the
            pool is sent, and what the jar kept."""
            with Fetcher(FetchPolicy(timeout=5.0), cookies=jar) as fetcher:
                for number, case in enumerate(cases):
                    fetcher.fetch("GET", f"http://{case[0]}:{server.port}{_setting(number, case)}")
                got: dict[str, list[str]] = {}
                for host in HOSTS:
                    echo = json.loads(fetcher.fetch("GET", f"http://{host}:{server.port}/echo").body)
                    cookie = echo["headers"].get("cookie", "")
                    got[host] = sorted(part.split("=")[0].strip() for part in cookie.split(";") if part.strip())
            return got, sorted(cookie.name for cookie in jar.jar)

        # a caller's jar (an httpx.Client's, under Python's default policy), and formtools' own
        # (the bridge's sessions)
        callers, own = through(httpx.Cookies()), through(cookie_jar())

    def differences(ours: tuple[dict[str, list[str]], list[str]]) -> list[str]:
        sent, stored = ours
        found = [f"{name} ({cases[_number(name)]}): only {'formtools' if name in stored else 'Chromium'} keeps it"
                 for name in sorted(set(stored) ^ set(kept))]
        for host in HOSTS:
            for name in sorted(set(sent[host]) ^ set(truth[host])):
                who = "formtools" if name in sent[host] else "Chromium"
                found.append(f"{name} ({cases[_number(name)]}) → {host}: only {who} sends it")
        return found

    assert len(kept) > len(cases) // 3  # the cookies were set at all
    assert differences(callers) == []
    assert differences(own) == []
