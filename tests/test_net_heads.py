"""An answer's head and framing read as Chromium reads them, offline: a raw server on 127.0.0.1
(:mod:`tests.support.rawsite`) writes each answer as it stands, however odd, and the fetch (or
the :class:`~formtools._net.head.Dechunker` alone) reads it. The live comparisons with Chromium
are in test_browser_headers.py and test_browser_heads.py; these are the limits only an
answer past them reaches."""

from __future__ import annotations

import random
import ssl
import sys
from collections.abc import Awaitable, Callable

import pytest
from support.hostile import certificates

import formtools
from formtools._net import AsyncFetcher, Fetcher, FetchError, FetchPolicy, Response, fetch
from formtools._spec.limits import MAX_URL_CHARS
from tests.conftest import run_async
from tests.support.rawsite import raw_site

_INT_MAX = 2**31 - 1


def _chromium_status(digits: str) -> int:
    """What ``base::StringToInt`` makes of ``digits``: the number, clamped to ``INT_MAX``
    (Python's own reading with its 4,300-digit guard lifted, the oracle for the fetch's)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return min(int(digits), _INT_MAX)
    finally:
        sys.set_int_max_str_digits(limit)


def test_a_status_code_of_any_length_is_read_as_chromium_clamps_it() -> None:
    """Chromium reads a status line's code as its digits clamped to ``INT_MAX``, however many.
    The fetch read them with ``int()``, which Python refuses past 4,300 digits: a ValueError
    traceback out of ``extract``, ``batch`` and ``serve``. Seeded codes of 1 to 9,000 digits,
    leading zeros among them, each with a ``Content-Length`` as long, through a real fetch."""
    rng = random.Random(2301)
    codes = ["0" * rng.randrange(0, 6000) + "200", "2" * 5000, "0" * 4400, "000", "2147483648", "99" * 3000]
    while len(codes) < 18:
        code = "".join(rng.choice("0123456789") for _ in range(rng.choice([1, 3, 10, 11, 4301, 9000])))
        if _chromium_status(code) // 100 != 1:  # after a 1xx head another head comes
            codes.append(code)
    with raw_site() as (origin, answers):
        for number, code in enumerate(codes):
            length = "0" * rng.randrange(0, 5000) + "2"
            answers[f"/{number}"] = f"HTTP/1.1 {code} X\r\nContent-Length: {length}\r\n\r\nhi".encode()
        seen = [(fetch("GET", f"{origin}/{number}").status, _chromium_status(code)) for number, code in enumerate(codes)]
    assert all(status == expected for status, expected in seen), seen


def test_a_redirect_to_a_url_past_chromiums_longest_is_not_followed() -> None:
    """Chromium goes to no URL longer than ``MAX_URL_CHARS`` (2 MiB), a redirect's target
    included; the fetch checked only the first URL and followed any redirect. A target exactly
    at the limit is followed; one character more is not, and after a submission that is a sent
    call with no result (as any redirect Chromium does not follow), not a refusal."""
    with raw_site() as (origin, answers):
        # a page's URL just inside the limit, whose redirect adds 10,000 characters (a head
        # holds at most 100 KiB): to exactly the limit, and to one more
        room = MAX_URL_CHARS - len(origin) - len("//") - 10_000
        for name, start in (("at", "a" * room), ("past", "p" * (room + 1))):
            answers[f"/{start}/"] = f"HTTP/1.1 302 Found\r\nLocation: {'b' * 10_000}\r\nContent-Length: 0\r\n\r\n".encode()
            answers[f"/{start}/{'b' * 10_000}"] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"
        followed = fetch("GET", f"{origin}/{'a' * room}/")
        with pytest.raises(FetchError) as refused:
            fetch("GET", f"{origin}/{'p' * (room + 1)}/")
        past = f"{origin}/{'p' * (room + 1)}/"
        submitted = formtools.send_request(formtools.Request("POST", past, body=b"q=1"))
    assert len(followed.url) == MAX_URL_CHARS and followed.body == b"hi"
    assert type(refused.value).__name__ == "UnfollowedRedirect" and f"{MAX_URL_CHARS:,}" in str(refused.value)
    assert submitted.status == "completed" and submitted.withheld and submitted.url == past, submitted


def test_a_head_cut_short_is_read_over_http_and_fails_over_https() -> None:
    """A connection closed inside an answer's head: Chromium reads what came as the whole head
    over plain HTTP, and fails the load over a cryptographic scheme
    (``HttpStreamParser::HandleReadHeaderResult``: ERR_RESPONSE_HEADERS_TRUNCATED). The fetch
    accepted it over HTTPS too. Seeded heads cut at seeded points past the status line, through
    the threaded and the async fetcher, each over both; whole heads load over both."""
    rng = random.Random(2304)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-One: a b\r\nSet-Cookie: s=1\r\nContent-Length: 4\r\n\r\n"
    cuts = sorted(rng.sample(range(len(b"HTTP/1.1 200 OK\r\n"), head.index(b"\r\n\r\n") + 2), 6))
    answers_by_path = {f"/cut{cut}": head[:cut] for cut in cuts} | {"/whole": head + b"page"}
    server_tls, _, _ = certificates("raw.example")
    client_tls = ssl.create_default_context()
    client_tls.check_hostname, client_tls.verify_mode = False, ssl.CERT_NONE

    def outcomes(origin: str) -> dict[str, str]:
        with Fetcher(FetchPolicy(), ssl_context=client_tls) as fetcher:
            threaded = {path: _shown(lambda: fetcher.fetch("GET", origin + path)) for path in answers_by_path}

        async def main() -> dict[str, str]:
            async with AsyncFetcher(FetchPolicy(), ssl_context=client_tls) as fetcher:
                return {path: await _shown_async(fetcher.fetch("GET", origin + path)) for path in answers_by_path}

        assert run_async(main) == threaded
        return threaded

    with raw_site() as (origin, answers):
        answers.update(answers_by_path)
        plain = outcomes(origin)
    with raw_site(server_tls) as (origin, answers):
        answers.update(answers_by_path)
        secure = outcomes(origin)
    assert plain["/whole"] == secure["/whole"] == "200 b'page'", (plain, secure)
    assert all(plain[path] == "200 b''" for path in answers_by_path if path != "/whole"), plain
    assert all("closed inside the answer's head" in secure[path] for path in answers_by_path if path != "/whole"), secure


def _shown(fetched: Callable[[], Response]) -> str:
    """The status and body ``fetched()`` gives, or its failure's sentence."""
    try:
        answer = fetched()
    except FetchError as error:
        return f"failed: {error}"
    return f"{answer.status} {answer.body!r}"


async def _shown_async(fetched: Awaitable[Response]) -> str:
    """:func:`_shown` of an awaited fetch."""
    try:
        answer = await fetched
    except FetchError as error:
        return f"failed: {error}"
    return f"{answer.status} {answer.body!r}"
