"""The 2-minute "Lax-allowing-unsafe" window of a cookie without ``SameSite``, on its clock.

tests/test_browser_samesite.py compares formtools with Chromium live, but only with cookies a
few seconds old: a live comparison past Chromium's 2 minutes (kLaxAllowUnsafeMaxAge) would
cost that long. Chromium 156 was measured once by hand (the same submissions, 125 s after the
cookies were set: a cookie without ``SameSite`` no longer goes on a cross-site top-level POST,
while a GET still carries it; a cookie set again 100 s after its first setting with the same
value still counts from the first, with another value or after a deletion from the second).
Here the jar's clock is what is checked: a cookie's age counts from when it was stored,
whichever fetcher (a fresh one per call, as ``call_tool`` makes) installed the policy, a
cookie set again keeps it as Chromium does, and the window ends at
:attr:`BrowserCookiePolicy.LAX_ALLOWING_UNSAFE`.
"""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlencode

import pytest

from formtools._net import BrowserCookiePolicy, Fetcher, FetchPolicy, Initiator, cookie_jar
from formtools._net.fetch import _CREATED, site
from tests.support.hostile import HostileServer, LyingResolver

ATTRIBUTES = {"strict": "; SameSite=Strict", "lax": "; SameSite=Lax", "none": "; SameSite=None; Secure", "unset": ""}


def _sent(fetcher: Fetcher, method: str, url: str, page: str) -> list[str]:
    echo = json.loads(fetcher.fetch(method, url, initiator=Initiator(page)).body)
    cookie = echo["headers"].get("cookie", "")
    return sorted(part.split("=")[0].strip() for part in cookie.split(";") if part.strip())


@pytest.mark.parametrize("age", [0.0, BrowserCookiePolicy.LAX_ALLOWING_UNSAFE - 1, BrowserCookiePolicy.LAX_ALLOWING_UNSAFE + 1])
def test_a_cookie_without_samesite_goes_on_a_cross_site_post_for_two_minutes(
    age: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({"a.localhost": [["127.0.0.1"]], "b.localhost": [["127.0.0.1"]]}))
    jar = cookie_jar()
    with HostileServer("127.0.0.1") as server:
        b, a = f"http://b.localhost:{server.port}", f"http://a.localhost:{server.port}/form"
        with Fetcher(FetchPolicy(timeout=5.0), cookies=jar) as setting:
            for name, attributes in ATTRIBUTES.items():
                setting.fetch("GET", f"{b}/cookie?" + urlencode({"name": name, "attributes": attributes}))
        for cookie in jar.jar:  # as if set ``age`` seconds ago
            _CREATED[cookie] -= age
        young = age < BrowserCookiePolicy.LAX_ALLOWING_UNSAFE
        with Fetcher(FetchPolicy(timeout=5.0), cookies=jar) as fetcher:  # a fetcher of its own, as per call
            assert _sent(fetcher, "POST", f"{b}/echo", a) == (["none", "unset"] if young else ["none"])
            assert _sent(fetcher, "GET", f"{b}/echo", a) == ["lax", "none", "unset"]
            assert _sent(fetcher, "POST", f"{b}/echo", f"{b}/form") == sorted(ATTRIBUTES)
            # a POST turned into a GET by a 303 is a safe navigation again: Lax goes on it
            to = f"{b}/redirect?" + urlencode({"to": f"{b}/echo", "status": 303})
            assert _sent(fetcher, "POST", to, a) == ["lax", "none", "unset"]


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("http://x.b.test/", "http://b.test/", True),
        ("http://b.test/", "https://b.test/", False),  # schemeful, as Chromium (measured)
        ("https://a.github.io/", "https://b.github.io/", False),  # a private-section suffix
        ("http://localhost:1/", "http://localhost:2/", True),
        ("http://a.localhost/", "http://b.localhost/", False),
        ("http://127.0.0.1/", "http://127.0.0.2/", False),
        ("http://[::1]:1/", "http://[::1]:2/", True),
        ("file:///x", "file:///x", False),  # an opaque origin is same-site with nothing
    ],
)
def test_the_site_is_scheme_and_registrable_domain(one: str, other: str, same: bool) -> None:
    first, second = site(one), site(other)
    assert (first is not None and first == second) is same


def test_a_cookie_set_again_keeps_its_age_and_one_deleted_first_starts_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """As measured in Chromium 156: ``again`` set anew with the same value and ``other`` with
    other attributes 100 s after their first setting are still past the 2 minutes 25 s later
    (not sent on a cross-site POST); ``fresh``, deleted (``Max-Age=0``) before its new setting,
    is 25 s old (sent), and so is ``changed``, set again with another value."""
    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({"a.localhost": [["127.0.0.1"]], "b.localhost": [["127.0.0.1"]]}))
    jar = cookie_jar()
    with HostileServer("127.0.0.1") as server, Fetcher(FetchPolicy(timeout=5.0), cookies=jar) as fetcher:
        b = f"http://b.localhost:{server.port}"

        def setting(name: str, attributes: str = "") -> None:
            fetcher.fetch("GET", f"{b}/cookie?" + urlencode({"name": name, "attributes": attributes}))

        for name in ("again", "other", "fresh"):
            setting(name)
        jar.set("changed", "1", domain="b.localhost", path="/")
        for cookie in jar.jar:
            _CREATED[cookie] = _CREATED.get(cookie, time.monotonic()) - 125
        setting("again")
        setting("other", "; HttpOnly")
        setting("fresh", "; Max-Age=0")
        setting("fresh")
        setting("changed")  # its value becomes the server's s3cret
        assert _sent(fetcher, "POST", f"{b}/echo", f"http://a.localhost:{server.port}/form") == ["changed", "fresh"]
