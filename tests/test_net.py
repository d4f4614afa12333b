"""The one guarded, bounded fetch (``formtools._net``) against a hostile server.

Real parts only: real HTTP(S) servers on 127.0.0.1 and [::1] (``support.hostile``), the real
socket-level ``getaddrinfo`` replaced by a lying one where a test needs DNS to lie. Every test
runs both the threaded and the async fetcher where both exist; every slow route is bounded.
"""

from __future__ import annotations

import ipaddress
import json
import pickle
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from support.hostile import (
    LAYERED_PAGE,
    HostileServer,
    LyingResolver,
    certificates,
    ipv6_loopback,
    twin_servers,
)

from formtools._net import (
    AsyncFetcher,
    BadURL,
    Blocked,
    Fetcher,
    FetchError,
    FetchPolicy,
    FetchTimeout,
    Response,
    TooLarge,
    TooManyRedirects,
    Unreachable,
    acheck_target,
    afetch,
    check_target,
    classify,
    cookie_jar,
    deadline,
    fetch,
)
from formtools._spec.coding import MAX_CODINGS
from formtools.errors import FormtoolsError
from tests.conftest import run_async

GUARDED = FetchPolicy(allow_private=False, timeout=5.0)
OPEN = FetchPolicy(allow_private=True, timeout=5.0)


# --- the servers ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[HostileServer, HostileServer, HostileServer]]:
    """The servers of this module, started once (each test starts with their logs empty)."""
    if not ipv6_loopback():
        pytest.skip("needs an IPv6 loopback (::1)")
    v4, v6 = twin_servers()
    with HostileServer("127.0.0.1", label="start") as first, v4, v6:
        yield first, v4, v6


@pytest.fixture(autouse=True)
def _fresh_logs(request: pytest.FixtureRequest) -> None:
    if "servers" in request.fixturenames:
        for server in request.getfixturevalue("servers"):
            server.seen.clear()


@pytest.fixture
def start(servers: tuple[HostileServer, HostileServer, HostileServer]) -> HostileServer:
    """Where a hostile chain starts: a server the policy trusts (as the bridge trusts the pages
    its operator chose); everything it redirects to is guarded."""
    return servers[0]


@pytest.fixture
def twins(servers: tuple[HostileServer, HostileServer, HostileServer]) -> tuple[HostileServer, HostileServer]:
    """The targets: a server on 127.0.0.1 and one on [::1], on the same port number."""
    return servers[1], servers[2]


@pytest.fixture
def v4(twins: tuple[HostileServer, HostileServer]) -> HostileServer:
    return twins[0]


@pytest.fixture
def v6(twins: tuple[HostileServer, HostileServer]) -> HostileServer:
    return twins[1]


def trusting(server: HostileServer, **changes: Any) -> FetchPolicy:
    return FetchPolicy(**{"allow_private": False, "timeout": 5.0, "trusted": (server.origin,), **changes})


@pytest.fixture(params=["threads", "async"])
def get(request: pytest.FixtureRequest) -> Callable[..., Response]:
    """``get(url, policy, method=…, …)`` through :class:`Fetcher` or :class:`AsyncFetcher`."""

    def threads(url: str, policy: FetchPolicy, method: str = "GET", **kw: Any) -> Response:
        cookies = kw.pop("cookies", None)
        with Fetcher(policy, cookies=cookies, ssl_context=kw.pop("ssl_context", None)) as fetcher:
            return fetcher.fetch(method, url, **kw)

    def asynchronous(url: str, policy: FetchPolicy, method: str = "GET", **kw: Any) -> Response:
        cookies = kw.pop("cookies", None)
        context = kw.pop("ssl_context", None)

        async def main() -> Response:
            async with AsyncFetcher(policy, cookies=cookies, ssl_context=context) as fetcher:
                return await fetcher.fetch(method, url, **kw)

        return run_async(main)  # type: ignore[no-any-return]

    return threads if request.param == "threads" else asynchronous


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Iterator[LyingResolver]:
    import socket

    lying = LyingResolver({})
    monkeypatch.setattr(socket, "getaddrinfo", lying)
    yield lying
    lying.released.set()  # a lookup left hanging ends with its test


# --- the address classifier -------------------------------------------------------------------

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("100.127.255.254", "carrier-grade NAT"),
    ("169.254.169.254", "link-local"),
    ("192.0.0.8", "IETF protocol"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.1", "documentation"),
    ("203.0.113.1", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("198.19.255.1", "benchmarking"),
    ("192.88.99.1", "6to4 relay"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "broadcast"),
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("::ffff:127.0.0.1", "loopback (IPv4-mapped 127.0.0.1)"),
    ("::ffff:10.0.0.1", "private (IPv4-mapped 10.0.0.1)"),
    ("::ffff:169.254.169.254", "link-local (IPv4-mapped"),
    ("::127.0.0.1", "loopback (IPv4-compatible 127.0.0.1)"),
    ("::192.168.0.1", "private (IPv4-compatible"),
    ("2002:7f00:1::1", "loopback (6to4 127.0.0.1)"),
    ("2002:a9fe:a9fe::", "link-local (6to4 169.254.169.254)"),
    ("64:ff9b::127.0.0.1", "loopback (NAT64 127.0.0.1)"),
    ("64:ff9b::10.0.0.1", "private (NAT64"),
    ("64:ff9b:1::a00:1", "local-use NAT64"),
    ("2001::1", "Teredo"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("fc00::1", "unique local"),
    ("fd12:3456::1", "unique local"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "zone id"),
    ("2606:4700::1111%1", "zone id"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("ff0e::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("2001:2::1", "benchmarking"),
    ("100::1", "discard-only"),
    ("5f00::1", "SRv6"),
]

PUBLIC = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111",
          "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1", "2a00:1450:4001::200e"]


@pytest.mark.parametrize(("address", "why"), REFUSED)
def test_the_classifier_refuses_every_non_public_range(address: str, why: str) -> None:
    reason = classify(address)
    assert reason is not None and why in reason, (address, reason)
    assert classify(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize("address", PUBLIC)
def test_the_classifier_lets_public_addresses_through(address: str) -> None:
    assert classify(address) is None


# every spelling of a loopback or private target a browser accepts, as a URL: the WHATWG parser
# normalises it first, then the address is judged (no DNS: these are all IP literals)
SPELLINGS = [
    ("http://127.0.0.1/", "loopback"),
    ("http://2130706433/", "loopback"),  # decimal
    ("http://0177.0.0.1/", "loopback"),  # octal
    ("http://0x7f.1/", "loopback"),  # hex, short
    ("http://0x7f000001/", "loopback"),  # hex
    ("http://127.1/", "loopback"),  # short
    ("http://0177.1/", "loopback"),  # octal, short
    ("http://127.0.0.1./", "loopback"),  # trailing dot
    ("http://0/", "unspecified"),
    ("http://0x0a.0.0.1/", "private"),
    ("http://167772161/", "private"),  # 10.0.0.1
    ("http://0xa9fea9fe/", "link-local"),  # 169.254.169.254
    ("http://0251.0376.0251.0376/", "link-local"),
    ("http://100.64.1.1/", "carrier-grade NAT"),
    ("http://%31%32%37.0.0.1/", "loopback"),  # percent-encoded host
    ("http://[::1]/", "loopback"),
    ("http://[0:0:0:0:0:0:0:1]/", "loopback"),
    ("http://[::]/", "unspecified"),
    ("http://[::ffff:127.0.0.1]/", "loopback"),  # IPv4-mapped
    ("http://[::ffff:7f00:1]/", "loopback"),
    ("http://[::ffff:a9fe:a9fe]/", "link-local"),
    ("http://[::127.0.0.1]/", "loopback"),  # IPv4-compatible
    ("http://[2002:7f00:1::]/", "loopback"),  # 6to4
    ("http://[64:ff9b::7f00:1]/", "loopback"),  # NAT64
    ("http://[64:ff9b:1::1]/", "local-use NAT64"),
    ("http://[2001::1]/", "Teredo"),
    ("http://[fd00::1]/", "unique local"),
    ("http://[fe80::1]/", "link-local"),
    ("http://[fec0::1]/", "site-local"),
    ("http://[ff02::1]/", "multicast"),
    ("http://user:pw@127.0.0.1:8080/", "loopback"),
    ("https://[::1]:443/", "loopback"),
]


@pytest.mark.parametrize(("url", "why"), SPELLINGS)
def test_every_spelling_of_a_private_target_is_refused(url: str, why: str) -> None:
    with pytest.raises(Blocked) as caught:
        check_target(url, policy=GUARDED)
    assert why in caught.value.reason
    assert "pw@" not in str(caught.value)
    check_target(url, policy=OPEN)  # allow_private turns the address check off


# the IPv6 forms that carry an IPv4 address, by the standards that define them: (prefix, where
# the IPv4 bits start): IPv4-mapped and -compatible (RFC 4291 2.5.5), IPv4-translated (RFC 2765
# 4.2, SIIT), NAT64's well-known prefix (RFC 6052), 6to4 (RFC 3056)
CARRIERS = [("::ffff:0:0", 96), ("::", 96), ("::ffff:0:0:0", 96), ("64:ff9b::", 96), ("2002::", 16)]


def _carried(ipv4: str, prefix: str, start: int, rng: random.Random) -> str:
    """``ipv4`` inside ``prefix`` at bit ``start``, spelled as a URL host in one of the ways the
    URL parser reads: compressed, every group written out, capitals, the last 32 bits dotted."""
    value = int(ipaddress.IPv6Address(prefix)) | int(ipaddress.IPv4Address(ipv4)) << (128 - start - 32)
    address = ipaddress.IPv6Address(value)
    spelled = rng.choice([address.compressed, address.exploded, address.exploded.upper()])
    if start == 96 and rng.random() < 0.5:
        groups = address.exploded.split(":")[:6]
        spelled = ":".join(groups) + ":" + ipv4
    return f"http://[{spelled}]/"


def test_every_non_public_ipv4_address_is_refused_inside_every_ipv6_form_that_carries_one() -> None:
    """Each non-public IPv4 address of :data:`REFUSED` inside each form of :data:`CARRIERS`, in a
    seeded spelling, is refused for its IPv4 reason (``::ffff:0:7f00:1``, SIIT's form, was
    fetched: Python's ``is_global`` calls it public)."""
    rng = random.Random(20261129)
    checked = 0
    for ipv4, why in REFUSED:
        if ":" in ipv4 or ipv4 == "0.0.0.0":  # (:: itself is the unspecified address)
            continue
        for prefix, start in CARRIERS:
            url = _carried(ipv4, prefix, start, rng)
            with pytest.raises(Blocked) as caught:
                check_target(url, policy=GUARDED)
            assert why in caught.value.reason, (url, caught.value.reason)
            checked += 1
    assert checked == 21 * len(CARRIERS)


@pytest.mark.parametrize(
    "url",
    [
        "http://[fe80::1%25eth0]/",  # a zone id: no valid URL for a browser either
        "http://[fe80::1%eth0]/",
        "http://1.2.3.4.5/",
        "http://0x100000000/",
        "http://[::1/",
        "http:// /",
        "ftp://127.0.0.1/",
        "file:///etc/passwd",
        "gopher://127.0.0.1:25/",
        "javascript:alert(1)",
        "data:text/html,hi",
        "ws://127.0.0.1/",
        "not a url",
    ],
)
def test_bad_urls_and_other_schemes_are_refused_even_when_private_is_allowed(url: str) -> None:
    with pytest.raises(BadURL) as caught:
        fetch("GET", url, policy=OPEN)
    assert str(caught.value).endswith(".")
    with pytest.raises(BadURL):
        run_async(lambda: acheck_target(url, policy=OPEN))


# --- allow_private: loopback is served, IPv4 and IPv6 -----------------------------------------


def test_allow_private_fetches_from_127_0_0_1_and_the_ipv6_literal(
    get: Callable[..., Response], v4: HostileServer, v6: HostileServer
) -> None:
    for server in (v4, v6):
        answer = get(server.url("/ok"), OPEN)
        assert answer.status == 200
        assert answer.body == f"<!doctype html><p>hello from {server.label}</p>".encode()
        assert answer.url == server.url("/ok")
        assert answer.content_type == "text/html; charset=utf-8"
        assert answer.redirects == ()
    assert v6.origin.startswith("http://[::1]:")


def test_the_library_default_allows_private_targets(v4: HostileServer) -> None:
    assert FetchPolicy().allow_private is True
    assert fetch("GET", v4.url("/ok")).status == 200
    assert run_async(lambda: afetch("GET", v4.url("/ok"))).status == 200


def test_a_guarded_fetch_refuses_loopback_before_connecting(
    get: Callable[..., Response], v4: HostileServer, v6: HostileServer
) -> None:
    for server, reason in ((v4, "loopback"), (v6, "loopback")):
        with pytest.raises(Blocked) as caught:
            get(server.url("/ok"), GUARDED)
        assert caught.value.reason == reason
        assert caught.value.code == "blocked"
    assert v4.seen == [] and v6.seen == []


# --- redirect chains: every hop is guarded ---------------------------------------------------

HOPS = [
    "http://127.0.0.1:{port}/ok",
    "http://2130706433:{port}/ok",
    "http://0177.0.0.1:{port}/ok",
    "http://0x7f.1:{port}/ok",
    "http://0x7f000001:{port}/ok",
    "http://127.1:{port}/ok",
    "http://127.0.0.1.:{port}/ok",
    "http://0:{port}/ok",
    "http://[::ffff:127.0.0.1]:{port}/ok",
    "http://[::ffff:7f00:1]:{port}/ok",
    "http://[::127.0.0.1]:{port}/ok",
    "http://[::1]:{port}/ok",
    "http://[::]:{port}/ok",
    "http://localhost:{port}/ok",  # a name, resolved by the system resolver to loopback
    "//127.0.0.1:{port}/ok",  # scheme-relative
]


@pytest.mark.parametrize("hop", HOPS)
def test_a_redirect_to_loopback_in_any_spelling_is_refused(
    get: Callable[..., Response], start: HostileServer, v4: HostileServer, v6: HostileServer, hop: str
) -> None:
    target = hop.format(port=v4.port)
    url = start.url("/redirect?" + httpx.QueryParams({"to": target}).__str__())
    with pytest.raises(Blocked) as caught:
        get(url, trusting(start))
    assert caught.value.reason.startswith(("loopback", "unspecified")), caught.value.reason
    assert v4.seen == [] and v6.seen == [], "the refused target was connected to"
    assert start.paths() == ["/redirect?" + httpx.QueryParams({"to": target}).__str__()]


def test_every_hop_of_a_long_chain_is_guarded(
    get: Callable[..., Response], start: HostileServer, v6: HostileServer
) -> None:
    """Three hops inside the trusted origin, then one to [::1]: refused at the fourth."""
    last = f"http://[::1]:{v6.port}/ok"
    url = last
    for _ in range(3):
        url = start.url("/redirect?" + str(httpx.QueryParams({"to": url})))
    with pytest.raises(Blocked) as caught:
        get(url, trusting(start))
    assert len(start.seen) == 3 and v6.seen == []
    assert caught.value.url == last
    assert f"reached by a redirect from {start.origin}/redirect?to=" in str(caught.value)


def test_a_redirect_to_a_name_that_resolves_to_loopback_is_refused(
    get: Callable[..., Response], start: HostileServer, v4: HostileServer, resolver: LyingResolver
) -> None:
    resolver.script["internal.example"] = [["127.0.0.1"]]
    url = start.url("/redirect?" + str(httpx.QueryParams({"to": f"http://internal.example:{v4.port}/ok"})))
    with pytest.raises(Blocked) as caught:
        get(url, trusting(start))
    assert "internal.example resolves to 127.0.0.1, a loopback address" in str(caught.value)
    assert v4.seen == [] and resolver.lookups == {"internal.example": 1}


def test_redirects_inside_the_trusted_origin_are_followed_and_recorded(
    get: Callable[..., Response], start: HostileServer
) -> None:
    answer = get(start.url("/chain/3"), trusting(start))
    assert answer.body == b"<p>end of the chain</p>"
    assert answer.url == start.url("/chain/0")
    assert answer.redirects == tuple(start.url(f"/chain/{n}") for n in (3, 2, 1))


# --- the deadline is total --------------------------------------------------------------------
# What stops each of these is the deadline, and the error says so: every server below would go on
# far longer (a trickle or a silence of 20 s, redirects slower together than the deadline, a
# resolver that hangs until the test ends). Only lower bounds are timed (a deadline never fires
# early); a busy machine can make a fetch later, never earlier, so no upper bound is asserted.


def _timed(action: Callable[[], object]) -> tuple[BaseException, float]:
    began = time.monotonic()
    with pytest.raises(FetchError) as caught:
        action()
    return caught.value, time.monotonic() - began


def test_a_server_trickling_a_byte_every_200_ms_is_cut_at_the_total_deadline(
    get: Callable[..., Response], v4: HostileServer
) -> None:
    policy = FetchPolicy(timeout=1.0)
    error, took = _timed(lambda: get(v4.url("/trickle?gap=0.2"), policy))
    assert isinstance(error, FetchTimeout), error
    assert took >= 0.9, took
    assert str(error) == (
        f"Could not fetch {v4.url('/trickle?gap=0.2')}: no complete answer within the 1 s deadline of the whole fetch."
    )


@pytest.mark.parametrize("path", ["/trickle-headers?gap=0.05", "/stall", "/chain/6?delay=0.15"])
def test_slow_headers_silence_and_slow_redirects_all_share_one_deadline(
    get: Callable[..., Response], v4: HostileServer, path: str
) -> None:
    """Headers a byte at a time, no answer at all, and redirects that are each quick enough
    for a per-step timeout but too slow together."""
    error, took = _timed(lambda: get(v4.url(path), FetchPolicy(timeout=0.5)))
    assert isinstance(error, FetchTimeout), error
    assert took >= 0.45, took


def test_fetches_inside_one_deadline_share_it(v4: HostileServer) -> None:
    """Two fetches of 0.6 s each inside ``deadline(1.0)``: the second is cut where the shared
    deadline ends, and says it was the whole call's, in the threaded and the async fetcher."""
    url = v4.url("/chain/1?delay=0.6")

    def threads() -> None:
        with Fetcher(OPEN) as fetcher, deadline(1.0):
            fetcher.fetch("GET", url)
            fetcher.fetch("GET", url)

    async def asynchronous() -> None:
        async with AsyncFetcher(OPEN) as fetcher:
            with deadline(1.0):
                await fetcher.fetch("GET", url)
                await fetcher.fetch("GET", url)

    for action in (threads, lambda: run_async(asynchronous)):
        error, took = _timed(action)  # each fetch alone is well within the deadline: no error
        assert isinstance(error, FetchTimeout) and took >= 1.0, (error, took)
        assert str(error).endswith("no complete answer within the 1 s deadline of the whole call.")


def test_a_hanging_resolver_cannot_hold_the_fetch(
    get: Callable[..., Response], resolver: LyingResolver
) -> None:
    """The fetch ends at its deadline while the lookup is still hanging (it hangs until the test
    ends, or 60 s: a fetch held by it ends after its answer)."""
    resolver.script["slow.example"] = [["127.0.0.1"]]
    resolver.delay["slow.example"] = 60.0
    error, took = _timed(lambda: get("http://slow.example:9/", FetchPolicy(timeout=0.5)))
    assert isinstance(error, FetchTimeout), error
    assert resolver.lookups["slow.example"] == 1 and resolver.answered.get("slow.example", 0) == 0, took


def test_one_slow_fetch_does_not_hold_the_others_sharing_its_async_fetcher(v4: HostileServer) -> None:
    """Five quick fetches, started once the slow one's request has reached the server, all
    answer while the slow one still waits for its first byte (it waits 60 s, then times out: a
    fetcher that serialised its fetches answers the quick ones only after that)."""
    done: list[str] = []

    async def main() -> None:
        async with AsyncFetcher(FetchPolicy(timeout=60.0)) as fetcher, anyio.create_task_group() as group:

            async def slow() -> None:
                with pytest.raises(FetchTimeout):
                    await fetcher.fetch("GET", v4.url("/stall"))
                done.append("slow")

            async def quick() -> None:
                answer = await fetcher.fetch("GET", v4.url("/ok"))
                assert answer.status == 200
                done.append("quick")

            group.start_soon(slow)
            while "/stall" not in v4.paths():
                await anyio.sleep(0.01)
            async with anyio.create_task_group() as quick_ones:
                for _ in range(5):
                    quick_ones.start_soon(quick)
            group.cancel_scope.cancel()  # the slow one has shown what it had to

    run_async(main)
    assert done == ["quick"] * 5, done


# --- the byte cap -----------------------------------------------------------------------------

CAP = FetchPolicy(max_bytes=2**20, timeout=5.0)


@pytest.mark.parametrize("path", ["/huge", "/endless", "/bomb"])
def test_gigantic_bodies_are_cut_at_the_byte_cap(get: Callable[..., Response], v4: HostileServer, path: str) -> None:
    """A declared terabyte (refused from its Content-Length), an endless body without a length,
    and a gzip bomb (64 MiB from a few dozen KiB: counted after decoding)."""
    error, _ = _timed(lambda: get(v4.url(path), CAP))
    # the cap, not the 5 s deadline (each body outlasts it), is what ended the fetch
    assert isinstance(error, TooLarge), error
    assert str(error) == f"Could not fetch {v4.url(path)}: the answer is larger than 1048576 bytes."


def test_a_gzip_body_is_decoded(get: Callable[..., Response], v4: HostileServer) -> None:
    answer = get(v4.url("/gzip"), CAP)
    assert answer.body == b"<p>" + b"squeezed " * 1000 + b"</p>"
    assert answer.headers["content-encoding"] == "gzip"


def test_bytes_after_the_gzip_data_end_the_body(get: Callable[..., Response], v4: HostileServer) -> None:
    """A server that goes on sending after a page's gzip data: the page is the body as soon as
    its gzip data ends, as Chromium ignores bytes after it (they were fed on to zlib, which kept
    them uncounted, copying them once per chunk, until the deadline: 30 s and 160 MB for a
    15-byte page; here the 5 s deadline, a FetchTimeout instead of the page)."""
    answer = get(v4.url("/gzip-then-endless"), CAP)
    assert answer.body == b"<p>squeezed</p>"


def _codings_query(rng: random.Random) -> tuple[str, int]:
    """A seeded ``/layers`` query and how many codings its answer lists: up to one past what is
    decoded, or a few (one past) repeated until the header lists thousands."""
    count = rng.choice([1, MAX_CODINGS - 1, MAX_CODINGS, MAX_CODINGS + 1])
    spelled = ["".join(c.upper() if rng.random() < 0.3 else c for c in rng.choice(["gzip", "x-gzip", "deflate"])) for _ in range(count)]
    times = rng.choice([1, 1, 1, 1500 // count])
    cuts = sorted(rng.sample(range(1, count * times), min(rng.randint(0, 3), count * times - 1)))
    query = f"/layers?codings={','.join(spelled)}&times={times}&split={','.join(map(str, cuts))}"
    return query, count * times


def test_a_body_in_more_codings_than_chromium_decodes_is_refused_before_a_layer_is_made(
    get: Callable[..., Response], v4: HostileServer
) -> None:
    """16 seeded answers in gzip/deflate layers, listed on one or more ``Content-Encoding``
    lines: up to :data:`MAX_CODINGS` (Chromium's, tests/test_browser_codings.py) the page,
    past it a one-line error naming the count. Each layer held zlib's state and window while the
    body streamed: a header listing 16,000 made one fetch hold 600 MB; a listing of 1,500 here
    made 1,500 decoders before the body said it was in 11."""
    rng = random.Random(20261129)
    for _ in range(16):
        query, count = _codings_query(rng)
        if count <= MAX_CODINGS:
            assert get(v4.url(query), CAP).body == LAYERED_PAGE, query
            continue
        error, _ = _timed(lambda: get(v4.url(query), CAP))
        assert isinstance(error, Unreachable), (query, error)
        assert str(error) == (
            f"Could not fetch {v4.url(query)}: the body is in {count} content codings, more than the "
            f"{MAX_CODINGS} Chromium decodes."
        )


def test_a_body_exactly_at_the_cap_is_accepted(get: Callable[..., Response], v4: HostileServer) -> None:
    size = len(f"<!doctype html><p>hello from {v4.label}</p>")
    assert get(v4.url("/ok"), FetchPolicy(max_bytes=size)).status == 200
    with pytest.raises(TooLarge):
        get(v4.url("/ok"), FetchPolicy(max_bytes=size - 1))


# --- the redirect cap -------------------------------------------------------------------------


def test_an_endless_redirect_loop_stops_at_the_cap(get: Callable[..., Response], v4: HostileServer) -> None:
    with pytest.raises(TooManyRedirects) as caught:
        get(v4.url("/loop"), FetchPolicy(max_redirects=5))
    assert str(caught.value) == f"Could not fetch {v4.url('/loop')}: it redirected more than 5 times."
    assert len(v4.seen) == 6  # the first request and five redirects followed


def test_a_chain_exactly_at_the_cap_is_followed(get: Callable[..., Response], v4: HostileServer) -> None:
    assert len(get(v4.url("/chain/5"), FetchPolicy(max_redirects=5)).redirects) == 5
    with pytest.raises(TooManyRedirects):
        get(v4.url("/chain/6"), FetchPolicy(max_redirects=5))


def test_a_redirect_to_another_scheme_or_nowhere_is_refused(get: Callable[..., Response], v4: HostileServer) -> None:
    for target, error in (("file:///etc/passwd", BadURL), ("http://[::1/", BadURL), ("gopher://x/", BadURL)):
        with pytest.raises(error) as caught:
            get(v4.url("/redirect?" + str(httpx.QueryParams({"to": target}))), OPEN)
        assert str(caught.value).count("\n") == 0 and str(caught.value).endswith(".")


# --- DNS rebinding ----------------------------------------------------------------------------


def test_dns_rebinding_gets_nowhere_the_checked_address_is_the_one_connected_to(
    get: Callable[..., Response], v4: HostileServer, resolver: LyingResolver
) -> None:
    """The name answers a public address to the first lookup and 127.0.0.1 to every later one.
    A client that checks one answer and connects with another lookup reaches the server on
    127.0.0.1; the guarded fetch looks up once and connects to the public address (which,
    here, refuses or never answers)."""
    resolver.script["rebind.example"] = [["8.8.8.8"], ["127.0.0.1"]]
    try:
        answer: Response | None = get(f"http://rebind.example:{v4.port}/ok", FetchPolicy(allow_private=False, timeout=0.5))
    except (Unreachable, FetchTimeout):
        answer = None  # what 8.8.8.8 does with a request to a random port
    assert answer is None or b"hello from" not in answer.body
    assert resolver.lookups == {"rebind.example": 1}
    assert resolver.next_answer("rebind.example") == ["127.0.0.1"]  # the trap was armed
    assert v4.seen == []  # and never sprung


def test_one_private_address_among_public_ones_refuses_the_name(
    get: Callable[..., Response], v4: HostileServer, resolver: LyingResolver
) -> None:
    resolver.script["mixed.example"] = [["8.8.8.8", "127.0.0.1"]]
    with pytest.raises(Blocked) as caught:
        get(f"http://mixed.example:{v4.port}/ok", GUARDED)
    assert caught.value.address == "127.0.0.1"
    assert resolver.lookups == {"mixed.example": 1} and v4.seen == []


def test_each_connection_goes_to_the_address_its_single_lookup_answered(
    get: Callable[..., Response], twins: tuple[HostileServer, HostileServer], resolver: LyingResolver
) -> None:
    """With private targets allowed the same pinning holds: the name answers 127.0.0.1, then
    ::1; each fetch looks it up once and talks to the server at that answer."""
    v4, _ = twins
    resolver.script["pinned.example"] = [["127.0.0.1"], ["::1"]]
    url = f"http://pinned.example:{v4.port}/echo"
    first = get(url, OPEN)
    assert resolver.lookups == {"pinned.example": 1}
    second = get(url, OPEN)
    assert resolver.lookups == {"pinned.example": 2}
    assert [b'"label": "v4"' in first.body, b'"label": "v6"' in second.body] == [True, True]
    assert b'"host": "pinned.example:' in first.body  # the Host header names the name, not the IP


def test_tls_connects_to_the_pinned_address_but_verifies_the_name(
    get: Callable[..., Response], resolver: LyingResolver
) -> None:
    server_tls, client_tls, asked = certificates("pinned.example")
    with HostileServer("127.0.0.1", tls=server_tls) as server:
        resolver.script["pinned.example"] = [["127.0.0.1"]]
        resolver.script["impostor.example"] = [["127.0.0.1"]]
        answer = get(f"https://pinned.example:{server.port}/ok", OPEN, ssl_context=client_tls)
        assert answer.body.endswith(b"hello from v4</p>")
        assert asked == ["pinned.example"]  # SNI carried the name
        for wrong in (f"https://impostor.example:{server.port}/ok", f"https://127.0.0.1:{server.port}/ok"):
            with pytest.raises(Unreachable) as caught:
                get(wrong, OPEN, ssl_context=client_tls)
            text = str(caught.value)
            assert "certificate" in text.lower() or "hostname" in text.lower()
            assert text.endswith(".") and ". " not in text and "_ssl.c" not in text, text
        assert len(server.seen) == 1


def test_a_throwaway_certificate_leaves_nothing_in_the_temporary_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's chain goes through a file (ssl loads it from none else): every run left a
    folder holding the test key pair in the temporary directory."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    certificates("pinned.example")
    assert list(tmp_path.iterdir()) == []


# --- redirects as browsers follow them --------------------------------------------------------


@pytest.mark.parametrize(("status", "method"), [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")])
def test_a_post_redirect_changes_method_as_browsers_do(
    get: Callable[..., Response], v4: HostileServer, status: int, method: str
) -> None:
    url = v4.url(f"/redirect?status={status}&to=/echo")
    answer = get(url, OPEN, method="POST", content=b"a=1&b=2",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    import json

    echo = json.loads(answer.body)
    assert echo["method"] == method
    assert answer.redirects == (url,)
    assert answer.url == v4.url("/echo")
    if method == "GET":
        assert echo["body"] == "" and "content-type" not in echo["headers"]
    else:
        assert echo["body"] == "a=1&b=2"
        assert echo["headers"]["content-type"] == "application/x-www-form-urlencoded"


def test_303_turns_even_a_put_into_a_get_and_302_keeps_a_put(get: Callable[..., Response], v4: HostileServer) -> None:
    import json

    after_303 = get(v4.url("/redirect?status=303&to=/echo"), OPEN, method="PUT", content=b"x")
    after_302 = get(v4.url("/redirect?status=302&to=/echo"), OPEN, method="PUT", content=b"x")
    assert json.loads(after_303.body)["method"] == "GET"
    assert json.loads(after_302.body)["method"] == "PUT"


def test_cookies_set_on_a_redirect_are_sent_on_the_next_hop_and_kept(
    get: Callable[..., Response], v4: HostileServer
) -> None:
    import json

    jar = httpx.Cookies()
    answer = get(v4.url("/cookie"), OPEN, cookies=jar)
    assert json.loads(answer.body)["headers"]["cookie"] == "sid=s3cret"
    assert jar.get("sid") == "s3cret"
    again = get(v4.url("/echo"), OPEN, cookies=jar)  # a later fetch with the same jar
    assert json.loads(again.body)["headers"]["cookie"] == "sid=s3cret"
    assert "cookie" not in json.loads(get(v4.url("/echo"), OPEN).body)["headers"]
    # without a jar, a cookie still lives as long as the redirect chain, as in a browser
    assert json.loads(get(v4.url("/cookie"), OPEN).body)["headers"]["cookie"] == "sid=s3cret"


def test_a_jar_stays_within_its_bounds_whatever_sites_set(
    v4: HostileServer, resolver: LyingResolver
) -> None:
    """Seeded answers from 20 sites, each setting 170 to 400 cookies (a header of 100 KB holds
    4,000): no site keeps more than Chromium's 180, the jar no more than formtools' own 3,300
    (reached here), and each answer's newest cookies stay. Unbounded, a site grew a session's jar by 5,000 an answer
    (123,000 after 41 answers: each fetch walked them all, 1.9 s, and sent them all)."""
    rng = random.Random(20261129)
    sites = [f"s{n}.crowd{n}.test" for n in range(20)]
    for name in sites:
        resolver.script[name] = [["127.0.0.1"]]
    jar = cookie_jar()
    with Fetcher(OPEN, cookies=jar) as fetcher:
        most = 0
        for number in range(21):
            site, count = sites[number % len(sites)], rng.choice([170, 181, 181, 400] if number < 3 else [170, 175, 180])
            fetcher.fetch("GET", f"http://{site}:{v4.port}/cookies?prefix=a{number}x&count={count}")
            names = Counter(cookie.domain for cookie in jar.jar)
            assert max(names.values()) <= 180 and sum(names.values()) <= 3300, names
            most = max(most, sum(names.values()))
            kept = {cookie.name for cookie in jar.jar if cookie.name.startswith(f"a{number}x")}
            newest = {f"a{number}x{n}" for n in range(count - min(count, 150), count)}
            assert newest <= kept, (number, count, len(kept))
        sent = json.loads(fetcher.fetch("GET", f"http://{site}:{v4.port}/echo").body)["headers"]["cookie"]
        assert len(sent.split("; ")) <= 180
    assert most > 3000  # the jar's own bound was reached


def test_no_cookie_for_a_public_suffix_as_browsers_refuse_it(
    get: Callable[..., Response], v4: HostileServer, resolver: LyingResolver
) -> None:
    """``mallory.github.io`` sets ``Domain=github.io`` (a public suffix, in the list's private
    section): the cookie is dropped, so ``alice.github.io`` is never sent it. A ``Domain`` of
    the site's own registrable domain still works, and a public suffix that is the host itself
    makes a host-only cookie (RFC 6265, 5.3 step 5), which :func:`cookie_jar` keeps to its host."""
    import json

    for name in ("mallory.github.io", "alice.github.io", "github.io", "www.example.co.uk", "example.co.uk"):
        resolver.script[name] = [["127.0.0.1"]]

    def sent(host: str, jar: httpx.Cookies) -> str | None:
        echo = json.loads(get(f"http://{host}:{v4.port}/echo", OPEN, cookies=jar).body)
        return echo["headers"].get("cookie")  # type: ignore[no-any-return]

    def cookie(host: str, domain: str) -> httpx.Cookies:
        jar = cookie_jar()
        get(f"http://{host}:{v4.port}/cookie?domain={domain}", OPEN, cookies=jar)
        return jar

    assert sent("alice.github.io", cookie("mallory.github.io", "github.io")) is None
    assert sent("mallory.github.io", cookie("mallory.github.io", ".GitHub.io")) is None
    assert sent("example.co.uk", cookie("www.example.co.uk", "co.uk")) is None
    assert sent("example.co.uk", cookie("www.example.co.uk", "example.co.uk")) == "sid=s3cret"
    host_only = cookie("github.io", "github.io")
    assert sent("github.io", host_only) == "sid=s3cret" and sent("alice.github.io", host_only) is None


def test_credentials_are_sent_but_not_to_another_origin_and_never_shown(
    get: Callable[..., Response], v4: HostileServer, v6: HostileServer
) -> None:
    import json

    same = get(f"http://alice:s%40fe@127.0.0.1:{v4.port}/echo", OPEN)
    assert json.loads(same.body)["headers"]["authorization"] == "Basic YWxpY2U6c0BmZQ=="  # alice:s@fe
    hop = f"http://[::1]:{v6.port}/echo"
    away = get(f"http://alice:s%40fe@127.0.0.1:{v4.port}/redirect?" + str(httpx.QueryParams({"to": hop})), OPEN,
               headers={"Authorization": "Bearer t0ken"})
    assert "authorization" not in json.loads(away.body)["headers"]
    with pytest.raises(TooManyRedirects) as caught:
        get(f"http://alice:s%40fe@127.0.0.1:{v4.port}/loop", FetchPolicy(max_redirects=1))
    assert "alice" not in str(caught.value) and "s%40fe" not in str(caught.value)
    assert "alice" not in caught.value.url


def _header_shapes(seed: int, count: int) -> list[tuple[str, str, str, bool]]:
    """(name, value, secret, valid): a secret token as a header value or inside a name, broken
    at a random place by what RFC 9110 forbids there (a line break, a NUL, a space or tab at an
    end, a character beyond latin-1; a space or colon in a name) or kept valid (inner spaces
    and tabs, latin-1 obs-text)."""
    import random

    pick = random.Random(seed)
    shapes = []
    for _ in range(count):
        secret = "".join(pick.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(16))
        value = pick.choice(["Bearer ", "token=", ""]) + secret
        where = pick.randrange(1, len(value))
        kind = pick.choice(["inner", "obs", "newline", "cr", "nul", "trailing", "leading", "wide", "name"])
        if kind == "inner":
            shapes.append(("Authorization", value[:where] + pick.choice([" ", "\t"]) + value[where:], secret, True))
        elif kind == "obs":
            shapes.append(("X-Api-Key", value[:where] + "é" + value[where:], secret, True))
        elif kind == "name":
            shapes.append((f"Authorization{pick.choice([': ', ' ', ':'])}{value}", "", secret, False))
        else:
            broken = {"newline": "\n", "cr": "\r", "nul": "\0", "wide": "☃"}.get(kind)
            if broken is not None:
                value = value[:where] + broken + value[where:]
            else:
                value = value + pick.choice([" ", "\t", "\n"]) if kind == "trailing" else pick.choice([" ", "\t"]) + value
            shapes.append(("Authorization", value, secret, False))
    return shapes


def test_a_bad_header_is_refused_before_sending_and_its_value_never_shown(
    get: Callable[..., Response], v4: HostileServer
) -> None:
    """A header the caller gives (a token read from a file keeps its newline) that is no valid
    HTTP field was refused by h11 with the value quoted: ``Illegal header value b'Bearer
    s3cret\\n'`` in the fetch's error, where an agent or a log reads it. Seeded shapes: a bad
    one is a one-line usage error naming the header and never the secret, with nothing sent; a
    valid one arrives as it was given."""
    import json

    from formtools.errors import UsageProblem

    for name, value, secret, valid in _header_shapes(seed=9110, count=40):
        if valid:
            echo = json.loads(get(v4.url("/echo"), OPEN, headers=[(name, value)]).body)
            assert echo["headers"][name.lower()] == value
            continue
        with pytest.raises(UsageProblem) as caught:
            get(v4.url("/echo"), OPEN, headers=[(name, value)])
        text = str(caught.value)
        assert secret not in text and "\n" not in text and text.endswith("."), text
    assert all(seen.path == "/echo" for seen in v4.seen)
    assert len(v4.seen) == sum(valid for *_, valid in _header_shapes(seed=9110, count=40))


def test_a_fragment_survives_a_redirect_that_has_none(get: Callable[..., Response], v4: HostileServer) -> None:
    answer = get(v4.url("/redirect?to=/ok#kept") , OPEN)
    assert answer.url == v4.url("/ok#kept")
    assert get(v4.url("/chain/1#frag"), OPEN).url == v4.url("/chain/0#frag")


def test_a_4xx_or_5xx_answer_is_returned_not_raised(get: Callable[..., Response], v4: HostileServer) -> None:
    answer = get(v4.url("/nowhere"), OPEN)
    assert (answer.status, answer.body) == (404, b"not found")


# --- the errors -------------------------------------------------------------------------------


def test_errors_are_formtools_errors_one_sentence_with_a_code_and_survive_pickling(
    v4: HostileServer,
) -> None:
    made: list[FetchError] = []
    for url, policy in (
        (v4.url("/ok"), GUARDED),
        (v4.url("/loop"), FetchPolicy(max_redirects=0)),
        (v4.url("/endless"), FetchPolicy(max_bytes=10)),
        (v4.url("/stall"), FetchPolicy(timeout=0.2)),
        ("http://127.0.0.1:9/", OPEN),  # nothing listens on the discard port
        ("ftp://example.com/", OPEN),
    ):
        with pytest.raises(FetchError) as caught:
            fetch("GET", url, policy=policy)
        made.append(caught.value)
    assert [e.code for e in made] == ["blocked", "too-many-redirects", "too-large", "timeout", "network", "bad-url"]
    for error in made:
        text = str(error)
        assert isinstance(error, FormtoolsError) and isinstance(error, OSError)
        assert text.endswith(".") and "\n" not in text and ". " not in text, text
        assert error.url.split("/")[2] in text  # names the URL's host
        assert error.exit_code == 3
        assert error.to_dict() == {"error": error.code, "message": text, "url": error.url}
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == text and copy.url == error.url


def test_the_policy_rejects_nonsense_and_trusted_origins_must_be_urls() -> None:
    with pytest.raises(ValueError):
        FetchPolicy(timeout=0)
    with pytest.raises(ValueError):
        FetchPolicy(max_bytes=-1)
    with pytest.raises(BadURL):
        FetchPolicy(trusted=("not a url",))
    assert FetchPolicy(trusted=["http://localhost:8000"]).exempt == frozenset({("localhost", 8000)})  # type: ignore[arg-type]


def test_a_url_that_does_not_parse_shows_no_piece_of_its_password() -> None:
    """A URL that is no URL (``http://bob:pa@ss@[::1/``) is named in the error without its
    user info; the fallback split it at the first ``@`` or looked only before the first ``/``
    and showed ``ss@[::1/`` or the whole ``pa/ss``. Seeded passwords holding the characters
    that end or split an authority, before hosts that do not parse."""
    import random

    import ada_url

    pick = random.Random(3986)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    tried = 0
    for _ in range(80):
        pieces = ["".join(pick.choices(alphabet, k=4)) for _ in range(3)]
        password = "".join(p + pick.choice("@/?#:[\\%") for p in pieces[:-1]) + pieces[-1]
        url = f"http://{pick.choice(['bob', ''])}:{password}@{pick.choice(['[::1', 'a b', 'h:99999', '[x]', 'h%00'])}/"
        if ada_url.check_url(url):  # a "/" or "#" ends the authority first: no password at all
            continue
        tried += 1
        with pytest.raises(BadURL) as caught:
            fetch("GET", url, policy=OPEN)
        for text in (str(caught.value), caught.value.url):
            assert not any(piece in text for piece in pieces), (url, text)
    assert tried > 30


def test_proxy_variables_and_netrc_are_not_read(
    get: Callable[..., Response], v4: HostileServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A proxy named by the environment would make the connection for us, to an address the
    guard never checked, and see every request; a ``.netrc`` would add its password for the
    action's host. Neither is read (httpx's ``trust_env`` reads both): the request reaches the
    server itself, with no ``Authorization``, and the proxy never hears of it."""
    import json
    import socket

    with socket.socket() as proxy:
        proxy.bind(("127.0.0.1", 0))
        proxy.listen()
        proxy.settimeout(0.2)
        address = f"http://127.0.0.1:{proxy.getsockname()[1]}"
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, address)
        monkeypatch.setenv("NO_PROXY", "")
        netrc = tmp_path / ".netrc"
        netrc.write_text("machine 127.0.0.1 login nina password n3trc\ndefault login nina password n3trc\n")
        netrc.chmod(0o600)
        monkeypatch.setenv("NETRC", str(netrc))
        monkeypatch.setenv("HOME", str(tmp_path))
        echo = json.loads(get(v4.url("/echo"), OPEN).body)
        assert echo["label"] == "v4" and "authorization" not in echo["headers"]
        with pytest.raises(socket.timeout):
            proxy.accept()


def test_only_fetchs_cors_safelisted_headers_cross_origins_range_and_the_1024_byte_total_included(
    get: Callable[..., Response], v4: HostileServer
) -> None:
    """Fetch's "CORS-unsafe request-header names" has two rules the first filter missed: a
    ``Range`` of bytes from a first one (``bytes=5-``, ``bytes=0-9``) is safelisted, and was
    dropped on a cross-origin redirect; safelisted values longer than 1,024 bytes in all make
    every one of them unsafe, and nine ``Accept-Language`` headers of 120 bytes went on.
    Seeded: 30 redirects to another origin (``localhost``), each with a range value (simple,
    suffix, reversed, spaced, several ranges, another unit) and 1 to 10 language headers of 60
    to 128 bytes; what crosses is what Fetch's rules, as written here, let cross."""
    import json
    import random

    pick = random.Random(1024)
    ranges = [("bytes=0-", True), ("bytes=5-9", True), ("BYTES=7-7", True), ("bytes=-5", False),
              ("bytes=9-5", False), ("bytes= 1-2", False), ("bytes=1-2,4-5", False), ("items=1-2", False)]
    target = f"http://localhost:{v4.port}/echo"
    for round in range(30):
        start = v4.url("/redirect?" + str(httpx.QueryParams({"to": target, "status": "307"})))
        span, simple = pick.choice(ranges)
        language = ("fr-CH,fr;q=0.9,de;q=0.8," * 10)[: pick.randint(60, 128)]
        count = pick.randint(1, 10)
        headers = [("Range", span), *[("Accept-Language", language)] * count]
        total = len(language) * count + (len(span) if simple else 0)
        echo = json.loads(get(start, OPEN, headers=headers).body)["headers"]
        within = total <= 1024
        assert (echo.get("range") == span) is (simple and within), (span, count, len(language))
        assert (echo.get("accept-language") == language) is within, (span, count, len(language))


def test_a_callers_headers_go_to_no_other_origin_after_a_redirect(
    get: Callable[..., Response], v4: HostileServer, v6: HostileServer
) -> None:
    """A header the caller asked for is meant for the origin asked: ``Authorization`` was
    dropped when a redirect left the origin, but ``Proxy-Authorization`` went on, and so did
    every other header — an ``X-Api-Key``, a token in a custom header reached whatever origin
    the site redirected to. Now only Fetch's CORS-safelisted headers (what a page may send to
    another origin unasked: ``Accept``, the languages, a form's ``Content-Type``) cross.
    Seeded: 40 redirects, each with 3 headers — credentials and custom names in any letter case,
    safelisted names with safe and unsafe values — every status, a same-origin hop (all kept) or
    one to [::1] or ``localhost`` (another origin)."""
    import json
    import random

    pick = random.Random(27776)
    unsafe = ["authorization", "proxy-authorization", "x-api-key", "x-auth-token", "api-key", "x-csrf-token",
              "private-token", "x-s3cr3t"]
    safelisted = [("accept", "text/html", True), ("accept", "text/(html)", False),
                  ("accept-language", "fr-CH, fr;q=0.9", True), ("content-language", "de_DE", False),
                  ("content-type", "text/plain; charset=utf-8", True), ("content-type", "application/json", False)]
    for round in range(40):
        status = pick.choice([301, 302, 303, 307, 308])
        target = pick.choice([v4.url("/echo"), v6.url("/echo"), f"http://localhost:{v4.port}/echo"])
        start = v4.url("/redirect?" + str(httpx.QueryParams({"to": target, "status": str(status)})))
        headers, expected = [], {}
        for name in pick.sample(unsafe, 2):
            value = f"s3cr3t-{round}-{pick.randrange(10**6)}"
            headers.append(("".join(c.upper() if pick.random() < 0.5 else c for c in name), value))
            expected[name] = (value, False)
        name, value, safe = pick.choice(safelisted)
        headers.append((name, value))
        expected[name] = (value, safe)
        echo = json.loads(get(start, OPEN, headers=headers).body)["headers"]
        same = target.startswith(v4.origin)
        for name, (value, safe) in expected.items():
            if name == "content-type" and status in (301, 302, 303):
                continue  # a GET after the redirect carries no body, nor its headers
            assert (echo.get(name) == value) is (same or safe), (name, value, status, target)
