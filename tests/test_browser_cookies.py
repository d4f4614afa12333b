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
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import httpx
import pytest

from formtools._net import Fetcher, FetchPolicy, cookie_jar
from tests.support.hostile import HostileServer, LyingResolver, certificates

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


#: the bytes of a cookie's value: ASCII, UTF-8 (two, three and four bytes), latin-1, a quoted
#: value, and a control character (which makes Chromium ignore the whole line)
VALUES = [b"1", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xe9", b'"a b"', b"a\x01b"]
#: attributes Python's cookie parser reads otherwise than a browser: Max-Age values that are no
#: integer, paths that do not start with a slash, RFC 2965's Port; and ordinary ones beside them
ATTRIBUTES = [
    b"", b"; Max-Age=abc", b"; Max-Age=", b"; Max-Age=1e3", b"; Max-Age=+5", b"; Max-Age=-1", b"; Max-Age=600",
    b"; Path=x", b"; Path=", b"; Path=/a", b"; Path=/a/", b"; Port=1", b"; Port", b"; Expires=garbage",
    b"; Path=\xc3\xa9", b"; Max-Age=0", b"; Secure", b"; Path=/", b"; Domain=127.0.0.1",
]
#: name prefixes with rules of their own (127.0.0.1 is a secure origin): a __Host- cookie needs
#: Path=/ written out and no domain cookie
PREFIXES = [b"", b"", b"__Host-", b"__Secure-"]
#: where a cookie is set from (its default path), and where it is looked for
SET_FROM, SENT_TO = ["/set-cookie", "/a/set-cookie", "/a/b/set-cookie"], ["/echo", "/a/echo", "/a/b/echo", "/x/echo"]


def _lines(seed: int, count: int) -> list[tuple[str, bytes]]:
    """``count`` seeded (path, Set-Cookie line) pairs, a name each (``raw_<n>``, prefixed or
    not), some names set twice."""
    pick = random.Random(seed)
    lines = []
    for number in range(count):
        prefix = pick.choice(PREFIXES)
        name = prefix + f"raw_{pick.randrange(count * 3 // 4)}".encode()
        line = name + b"=" + pick.choice(VALUES) + b"".join(pick.sample(ATTRIBUTES, pick.randint(1, 3)))
        line += b"; Secure" if prefix else b""  # (which a prefix needs in any case)
        lines.append((pick.choice(SET_FROM), line))
    return lines


def test_set_cookie_lines_are_read_as_chromium_reads_them(chromium: ChromiumOracle) -> None:
    """The exact ``Cookie`` bytes each path is sent after seeded ``Set-Cookie`` lines, from
    Chromium and from formtools' jar, one server on 127.0.0.1. Python's parser dropped a cookie
    whose Max-Age is no integer (a browser ignores the attribute), kept ``Path=x`` (a browser
    takes the default path) and ``Port=`` (sending the cookie to that port alone), kept a line
    with a control character; and a non-ASCII byte in a ``Set-Cookie`` made the whole fetch
    fail ('ascii' codec can't encode), where Chromium stores the bytes and sends them back."""
    lines = _lines(seed=62651, count=40)

    def sent(server: HostileServer, visit: Callable[[str], None]) -> dict[str, list[bytes]]:
        for path, line in lines:
            visit(f"{path}?line={line.hex()}")
        server.seen.clear()
        for path in SENT_TO:
            visit(path)
        got = {}
        for seen in server.seen:
            if seen.path in SENT_TO:
                cookie = seen.headers.get("Cookie", "").encode("latin-1")
                got[seen.path] = sorted(part.strip() for part in cookie.split(b";") if b"raw_" in part)
        return got

    with HostileServer("127.0.0.1") as server:
        page = chromium.page
        try:
            theirs = sent(server, lambda path: page.goto(server.url(path), wait_until="commit") and None)
        finally:
            page.context.clear_cookies(name=re.compile("raw_"))
        with Fetcher(FetchPolicy(timeout=5.0), cookies=cookie_jar()) as fetcher:
            ours = sent(server, lambda path: fetcher.fetch("GET", server.url(path)) and None)
    assert sum(map(len, theirs.values())) >= len(lines) // 2  # cookies were set and sent at all
    assert ours == theirs


def _sized(seed: int, count: int) -> list[bytes]:
    """``count`` seeded ``Set-Cookie`` lines around RFC 6265bis' sizes: a name and value of 4,090
    to 4,100 bytes together (spaces around them, latin-1 bytes among them), or an ordinary
    cookie with a ``Path``, ``Domain`` or ``Max-Age`` value of 1,020 to 1,030 bytes."""
    pick = random.Random(seed)
    lines = []
    for number in range(count):
        name = f"size_{number}".encode()
        if pick.random() < 0.5:
            size = pick.randint(4090, 4100) - len(name)
            value = bytes(pick.choice(b"v\xe9") for _ in range(size))
            lines.append(name + pick.choice([b"=", b" = "]) + value + b"; Path=/")
            continue
        size = pick.randint(1020, 1030)
        attribute = pick.choice([
            b"; Path=/" + b"p" * (size - 1),
            b"; Domain=" + b"d" * (size - 10) + b".127.0.0.1",
            b"; Max-Age=" + b"0" * (size - 1) + b"0",
        ])
        lines.append(name + b"=1" + attribute)
    return lines


def test_a_cookie_past_rfc_6265bis_sizes_is_dropped_or_its_attribute_ignored_as_in_chromium(chromium: ChromiumOracle) -> None:
    """Seeded lines around 4,096 bytes of name and value (past it Chromium drops the cookie)
    and 1,024 bytes of an attribute's value (past it the attribute is ignored: a ``Path`` of
    1,025 bytes means the default path, a ``Max-Age`` of zeros no deletion): the cookies
    Chromium's store keeps, and their paths, are the jar's. The jar kept a cookie of any size
    (a site's 90 KB cookies, sent back on every request) and every long attribute."""
    lines = _sized(seed=20261129, count=12)
    with HostileServer("127.0.0.1") as server:
        page = chromium.page
        try:
            for line in lines:
                page.goto(server.url(f"/set-cookie?line={line.hex()}"), wait_until="commit")
            theirs = sorted((c["name"], c["path"]) for c in page.context.cookies() if c["name"].startswith("size_"))
        finally:
            page.context.clear_cookies(name=re.compile("^size_"))
        jar = cookie_jar()
        with Fetcher(FetchPolicy(timeout=5.0), cookies=jar) as fetcher:
            for line in lines:
                fetcher.fetch("GET", server.url(f"/set-cookie?line={line.hex()}"))
    assert 0 < len(theirs) < len(lines)  # some were dropped, some kept
    assert sorted((cookie.name, cookie.path) for cookie in jar.jar) == theirs


#: one site's hosts (its cookies counted together) and another site's
CROWD = ("crowd.test", "a.crowd.test", "b.crowd.test", "other.test")
#: the ``Priority`` attributes drawn: Chromium's three in any case, a value it does not know, none
PRIORITY_ATTRIBUTES = ("", "; Priority=Low", "; priority=LOW", "; Priority=Medium", "; Priority=High",
                       "; PRIORITY=high", "; Priority=urgent")


def _crowd(seed: int) -> list[tuple[str, list[str]]]:
    """Seeded answers, each setting 1 to 120 cookies on a host of :data:`CROWD` (host-only or
    ``Domain=crowd.test``; ``Secure`` or not; a drawn ``Priority``), until one site has had
    about 450: (host, ``Set-Cookie`` lines)."""
    pick = random.Random(seed)
    answers, number = [], 0
    while number < 450:
        host = pick.choice(CROWD)
        secure_share = pick.choice([0.0, 0.2, 0.6])
        lines = []
        for _ in range(pick.randint(1, 120)):
            domain = "; Domain=crowd.test" if host != "other.test" and pick.random() < 0.5 else ""
            secure = "; Secure" if pick.random() < secure_share else ""
            lines.append(f"crowd{number}=1; Path=/{domain}{secure}{pick.choice(PRIORITY_ATTRIBUTES)}")
            number += 1
        answers.append((host, lines))
    return answers


def _classes(answers: list[tuple[str, list[str]]], names: list[str]) -> Counter[tuple[int, bool, str]]:
    """How many of ``names`` each class of equals holds: the answer that set them, ``Secure``
    or not, and the priority Chromium gives them (a ``Priority`` of low, medium or high in any
    case; medium otherwise) — within a class, Chromium stamps the cookies of one answer to the
    microsecond, so that they can tie, and which of them go is its sort's choice."""
    classes = {}
    for number, (_, lines) in enumerate(answers):
        for line in lines:
            attributes = {key.strip().lower(): value.strip().lower() for key, _, value in
                          (attribute.partition("=") for attribute in line.split(";")[1:])}
            priority = attributes.get("priority", "")
            classes[line.partition("=")[0]] = (number, "secure" in attributes,
                                               priority if priority in ("low", "high") else "medium")
    return Counter(classes[name] for name in names)


def test_a_site_keeps_the_cookies_chromium_keeps_past_its_bounds(chromium: ChromiumOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium keeps 180 cookies of a site, then purges down to 150 in rounds (low priority
    plain, low Secure, medium plain, high plain, medium Secure, high Secure), each round the
    least recently used first (a use within a minute of the last not counting) and sparing a
    quota of its priority (30, 50, 70): a site's Secure session cookie outlives 31 newer plain
    ones, where formtools evicted by recency alone; unbounded, a hostile site setting 5,000 an
    answer grew a session's jar without end (123,000 after 41 answers, each fetch walking them
    all, 1.9 s, and sending them all). The same seeded https answers (hundreds of cookies over
    hosts of one site and another, Secure or not, of each priority) set in Chromium and through
    the jar: as many cookies kept of each answer, secureness and priority."""
    answers = _crowd(20261129)
    page = chromium.page
    lines = {f"https://{host}/crowd/{n}": "\n".join(cookies) for n, (host, cookies) in enumerate(answers)}

    def answer(route: Route) -> None:
        route.fulfill(status=200, headers={"Set-Cookie": lines[route.request.url]}, body="<p>set</p>")

    page.route("https://*/crowd/*", answer)
    try:
        for url in lines:
            page.goto(url, wait_until="commit")
        kept = sorted(c["name"] for c in page.context.cookies() if c["name"].startswith("crowd"))
    finally:
        page.unroute("https://*/crowd/*")
        page.context.clear_cookies(name=re.compile("^crowd"))
    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({h: [["127.0.0.1"]] for h in CROWD}))
    server_tls, client_tls, _ = certificates(*CROWD)
    jar = cookie_jar()
    with HostileServer("127.0.0.1", tls=server_tls) as server, \
            Fetcher(FetchPolicy(timeout=5.0), cookies=jar, ssl_context=client_tls) as fetcher:
        for (host, _), url in zip(answers, lines):
            fetcher.fetch("GET", f"https://{host}:{server.port}/set-cookie?line={lines[url].encode().hex()}")
    assert len(kept) < sum(len(cookies) for _, cookies in answers) - 100  # Chromium let cookies go
    theirs = _classes(answers, kept)
    assert sum(count for (_, secure, _), count in theirs.items() if secure) > 30  # Secure ones were kept
    ours = _classes(answers, [cookie.name for cookie in jar.jar])
    assert {key: (ours[key], theirs[key]) for key in ours | theirs if ours[key] != theirs[key]} == {}
