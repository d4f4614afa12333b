"""An answer's head and framing read as Chromium reads them, offline: a raw server on 127.0.0.1
(:mod:`tests.support.rawsite`) writes each answer as it stands, however odd, and the fetch (or
the :class:`~formtools._net.head.Dechunker` alone) reads it. The live comparisons with Chromium
are in test_browser_headers.py and test_browser_heads.py; these are the limits only an
answer past them reaches."""

from __future__ import annotations

import random
import socketserver
import ssl
import sys
import threading
from collections.abc import Awaitable, Callable

import httpcore
import pytest
from support.hostile import certificates

import formtools
from formtools._net import AsyncFetcher, Fetcher, FetchError, FetchPolicy, Response, fetch
from formtools._net.head import MAX_CHUNK_LINE, Dechunker
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


def _chunked(rng: random.Random, payload: bytes) -> bytes:
    """``payload`` chunked as servers spell it: sizes in either case with leading zeros, spaces
    and extensions after them, CR LF or a bare LF, trailer lines, bytes after the end."""
    body, at = bytearray(), 0
    while at < len(payload):
        size = rng.randint(1, len(payload) - at)
        digits = rng.choice(["%x", "%X", "000%x"]) % size
        ending = rng.choice([b"\r\n", b"\n"])
        body += digits.encode() + rng.choice([b"", b"  ", b";ext=1", b" ;a=\"b;c\""]) + ending
        body += payload[at : at + size] + rng.choice([b"\r\n", b"\n"])
        at += size
    body += b"0" + rng.choice([b"", b";last"]) + b"\r\n"
    body += b"".join(rng.choice([b"X-Trailer: 1\r\n", b"T: 2\n"]) for _ in range(rng.randint(0, 2)))
    return bytes(body + b"\r\n" + rng.choice([b"", b"after the end"]))


def _dechunked(pieces: list[bytes]) -> tuple[bytes, bool] | str:
    """The body a :class:`Dechunker` fed ``pieces`` gives and whether it ended, or its failure."""
    dechunker, out = Dechunker(), b""
    try:
        for piece in pieces:
            out += dechunker.feed(piece)
    except httpcore.RemoteProtocolError as error:
        return str(error)
    return out, dechunker.ended


def _pieces(data: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted({rng.randint(0, len(data)) for _ in range(rng.choice([0, 1, 3, 30]))})
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]


def test_a_chunked_body_is_read_by_chromiums_rules_and_limits_however_it_comes() -> None:
    """:class:`Dechunker` (Chromium's ``HttpChunkedDecoder``) offline: seeded chunked bodies in
    seeded pieces give their payload and end; a size that is no bare hex number below 2**63
    or data not followed by a line break fails however split; a line left unfinished within a
    read past :data:`MAX_CHUNK_LINE` fails, one ended within it does not (Chromium checks only
    the partial line: formtools checked every line, and one of exactly the limit); a CR ending
    a read is dropped (``3\\r`` then ``\\r\\n`` is a size line, ``3\\r\\r\\n`` whole is not). A
    body cut short comes through a real fetch as far as it came."""
    rng = random.Random(2307)
    for _ in range(40):
        payload = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000)))
        data = _chunked(rng, payload)
        assert {_dechunked(_pieces(data, rng)) for _ in range(4)} == {(payload, True)}, data[:80]
    for bad in [b"+5", b"0x5", b"-1", b" 5", b"5 5", b"", b"8000000000000000", b"g"]:
        data = bad + b"\r\nhello\r\n0\r\n\r\n"
        assert all(isinstance(_dechunked(_pieces(data, rng)), str) for _ in range(4)), bad
    assert _dechunked([b"7fffffffffffffff\r\nab"]) == (b"ab", False)  # the largest size: a body to wait for
    assert isinstance(_dechunked([b"3\r\nabcX\r\n0\r\n\r\n"]), str)  # data not followed by a line break
    extension = b"5;" + b"e" * (MAX_CHUNK_LINE - 2)  # a line of exactly the limit
    for line, pieces_fail in [(extension, False), (extension + b"e", True)]:
        whole = line + b"\r\nhello\r\n0\r\n\r\n"
        assert _dechunked([whole]) == (b"hello", True), len(line)  # ended within one read
        held = _dechunked([line, whole[len(line):]])  # unfinished at the end of a read
        assert isinstance(held, str) if pieces_fail else held == (b"hello", True), (len(line), held)
    assert _dechunked([b"3\r", b"\r\nabc\r\n0\r\n\r\n"]) == (b"abc", True)
    assert isinstance(_dechunked([b"3\r\r\nabc\r\n0\r\n\r\n"]), str)
    with raw_site() as (origin, answers):
        payload = bytes(rng.randrange(256) for _ in range(500))
        data = _chunked(rng, payload)
        cut = rng.randint(1, len(data) // 2)  # short of the payload: the chunk lines are fewer than its 500 bytes
        answers["/cut"] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + data[:cut]
        body = fetch("GET", f"{origin}/cut").body
    assert payload.startswith(body) and len(body) < len(payload), (cut, len(body))


class _ClosingOnReuse(socketserver.ThreadingTCPServer):
    """Answers a connection's first request (kept alive: ``Content-Length``) and closes it at
    its second without a byte: the race of a kept-alive connection the server closed as the
    client reused it, made certain. ``/silent`` is closed unanswered on any connection."""

    daemon_threads = True

    def __init__(self) -> None:
        self.connections = 0
        super().__init__(("127.0.0.1", 0), _ClosingOnReuseHandler)


class _ClosingOnReuseHandler(socketserver.StreamRequestHandler):
    server: _ClosingOnReuse

    def handle(self) -> None:
        self.server.connections += 1
        request_line = self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        if request_line.startswith(b"GET /silent "):
            return
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 4\r\n\r\npage")
        self.wfile.flush()
        self.rfile.readline()  # the next request on this connection: closed unanswered


def test_a_request_on_a_reused_connection_the_server_closed_is_sent_again_on_a_new_one() -> None:
    """Chromium sends a request again on a new connection when a reused kept-alive one closes
    before any byte of the answer (``HttpNetworkTransaction::ShouldResendRequest``); on a new
    connection that closes so, the load fails (ERR_EMPTY_RESPONSE). The fetch failed the
    reused case ("Server disconnected without sending a response"): under load, ``batch --urls``
    lost pages of a server closing after each answer (test_browser_heads, full run r3). Three
    requests a fetcher, threaded and async: each after the first is on a reused connection."""
    with _ClosingOnReuse() as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with Fetcher(FetchPolicy()) as fetcher:
                threaded = [fetcher.fetch("GET", f"{origin}/p{number}").body for number in range(3)]

            async def main() -> list[bytes]:
                async with AsyncFetcher(FetchPolicy()) as fetcher:
                    return [(await fetcher.fetch("GET", f"{origin}/p{number}")).body for number in range(3)]

            assert threaded == run_async(main) == [b"page"] * 3
            assert server.connections == 6  # a new one for each resend: 3 a fetcher
            with Fetcher(FetchPolicy()) as fetcher, pytest.raises(FetchError, match="without sending a response"):
                fetcher.fetch("GET", f"{origin}/silent")
            assert server.connections == 7  # a new connection closed unanswered is not tried again
        finally:
            server.shutdown()
