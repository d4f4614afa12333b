"""How many content codings a page may be sent in, live: Chromium 156 loads a page in ten gzip and
deflate layers and fails the load of one in eleven; formtools' fetch decodes exactly as many
(``formtools._spec.coding.MAX_CODINGS``). Each layer holds zlib's state and a 32 KiB window while
the body streams, so without the bound a header that lists ``gzip`` 16,000 times made one fetch
hold 600 MB. The codings are generated: gzip, ``x-gzip`` and zlib-wrapped deflate in any mix,
any letter case, spaces around the commas, split over several ``Content-Encoding`` lines.
"""

from __future__ import annotations

import gzip
import random
import zlib

import pytest
from playwright.sync_api import Error as PlaywrightError

import formtools
from formtools._conformance.browser import ChromiumOracle, OracleError
from formtools._spec.coding import MAX_CODINGS
from formtools.errors import FormtoolsError
from support.codinggen import coded

pytestmark = pytest.mark.browser

PAGE = b'<!doctype html><form toolname=layered tooldescription="Sent in layers"><input name=q></form>'
_CODERS = {"gzip": lambda data: gzip.compress(data, 1), "x-gzip": lambda data: gzip.compress(data, 1), "deflate": zlib.compress}


def layered(count: int, rng: random.Random) -> tuple[bytes, list[tuple[str, str]]]:
    """:data:`PAGE` in ``count`` codings, and the ``Content-Encoding`` lines that list them (in
    the order they were applied, as HTTP lists them), spelled as the generator likes."""
    codings = [rng.choice(sorted(_CODERS)) for _ in range(count)]
    body = PAGE
    for coding in codings:
        body = _CODERS[coding](body)
    spelled = ["".join(c.upper() if rng.random() < 0.3 else c for c in coding) for coding in codings]
    lines, start = [], 0
    while start < count:
        size = rng.randint(1, count - start)
        lines.append(("Content-Encoding", rng.choice([",", ", ", " , "]).join(spelled[start : start + size])))
        start += size
    return body, lines


# what Playwright says of a failed load: its net error, or the error page that interrupted it
FAILED_LOAD = ("ERR_ABORTED", "ERR_CONTENT_DECODING_FAILED", "chrome-error://")


def chromiums_tools(chromium: ChromiumOracle, body: bytes, headers: list[tuple[str, str]]) -> list[str] | None:
    """The page's tools in Chromium, or ``None`` when its load fails (an eleventh coding:
    net::ERR_ABORTED; a list it refuses: net::ERR_CONTENT_DECODING_FAILED)."""
    try:
        return [tool["name"] for tool in chromium.tools(body, headers=headers)]
    except (OracleError, PlaywrightError) as error:
        assert any(sign in str(error) for sign in FAILED_LOAD), error
        chromium.renew_page()  # its error page may still be coming: the next load starts clean
        return None


def formtools_tools(url: str) -> list[str] | None:
    """The page's tools as formtools fetches it, or ``None`` when the fetch fails."""
    try:
        return [tool.name for tool in formtools.extract_tools(formtools.load_page(url))]
    except FormtoolsError:
        return None


@pytest.mark.parametrize("seed", range(2))
def test_a_page_is_decoded_through_as_many_codings_as_chromium_decodes(chromium: ChromiumOracle, seed: int) -> None:
    rng = random.Random(20261129 + seed)
    for count in (MAX_CODINGS, MAX_CODINGS + 1, rng.randint(1, MAX_CODINGS - 1)):
        body, headers = layered(count, rng)
        url = chromium.site.put(f"/codings/{seed}/{count}", body, "text/html", headers)
        expected = chromiums_tools(chromium, body, headers)
        assert formtools_tools(url) == expected, (count, headers)
        assert expected == (["layered"] if count <= MAX_CODINGS else None), (count, headers)


def test_a_page_is_decoded_only_when_chromium_decodes_its_listed_codings(chromium: ChromiumOracle) -> None:
    """16 seeded ``Content-Encoding`` spellings (tests/support/codinggen.py: gzip, deflate, br,
    zstd, ``identity``, empty and unknown names, letter case, spaces and tabs, no-break space and
    NEL, one or more lines), one load each: formtools finds the tools Chromium finds. Chromium
    passes the body through as it stands when one listed name is ``identity``, empty or unknown
    (after trimming only spaces and tabs); formtools decoded ``gzip, identity``, ``gzip, foo``,
    ``gzip,`` and ``gzip\\xa0`` (and found a tool Chromium does not), and could not decode ``br``
    or ``zstd`` (no tool where Chromium has one). Chromium fails the load of a list it refuses
    (``*``, ``br ;q=1``, ``\\xa0gzip foo``: formtools._spec.coding.refused_codings), where
    formtools read the body as it stands (the tool of an uncoded body)."""
    rng = random.Random(2026112922)
    for number in range(16):
        answer = coded(rng)
        url = chromium.site.put(f"/spelled/{number}", answer.body, "text/html", answer.headers)
        expected = chromiums_tools(chromium, answer.body, answer.headers)
        assert formtools_tools(url) == expected, answer.lines


def test_br_and_zstd_are_offered_and_decoded_only_where_chromium_offers_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page in each coding at a loopback address, at ``localhost`` and at another name
    (``shop.test``, mapped to 127.0.0.1 in Chromium by a resolver rule and in formtools by a
    lying resolver): formtools sends the ``Accept-Encoding`` Chromium sends there (br and zstd
    only to https and localhost origins) and finds the tools Chromium finds, none when the page
    is in a coding that was not offered (Chromium's ``ContentEncodingsValid``). formtools
    offered and decoded br and zstd everywhere."""
    import socket

    from support.hostile import LyingResolver

    import concurrent.futures

    monkeypatch.setattr(socket, "getaddrinfo", LyingResolver({"shop.test": [["127.0.0.1"]]}))
    # a second browser of its own (a resolver rule), in a thread of its own: Playwright's sync
    # API runs one browser per thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        measured = pool.submit(_offered_and_read).result()
    assert [found for coding, host, *_, found, _ in measured if host == "shop.test"] == [["layered"], ["layered"], None, None]


def _offered_and_read() -> list[tuple[str, str, str, list[str] | None, str | None]]:
    """What Chromium and formtools are offered and find at each host, each coding: they must agree."""
    from urllib.parse import urlsplit

    from formtools._conformance.browser import ChromiumOracle
    from support.codinggen import CODERS

    flags = ["--host-resolver-rules=MAP shop.test 127.0.0.1", "--disable-features=HttpsUpgrades"]
    with ChromiumOracle(extra_args=flags) as chromium:
        port = urlsplit(chromium.site.origin).port
        measured = []
        for coding in ("gzip", "x-gzip", "br", "zstd"):
            for host in ("127.0.0.1", "localhost", "shop.test"):
                path = f"/offered/{coding}/{host}"
                chromium.site.put(path, CODERS[coding](PAGE), "text/html", [("Content-Encoding", coding)])
                page = chromium.page.context.new_page()
                try:
                    page.goto(f"http://{host}:{port}{path}")
                    found = page.evaluate("[...document.querySelectorAll('form[toolname]')].map(f => f.getAttribute('toolname'))")
                except PlaywrightError as error:
                    assert "ERR_CONTENT_DECODING_FAILED" in str(error), error
                    found = None  # a failed load, as formtools_tools says a failed fetch
                finally:
                    page.close()
                measured.append((coding, host, path, found, chromium.site.requests[-1].header("Accept-Encoding")))
        for coding, host, path, found, offered in measured:
            assert formtools_tools(f"http://{host}:{port}{path}") == found, (coding, host)
            assert chromium.site.requests[-1].header("Accept-Encoding") == offered, (coding, host)
    return measured


_FETCHED_JS = """async paths => Promise.all(paths.map(async path => {
    try { return Array.from(new Uint8Array(await (await fetch(path)).arrayBuffer())); }
    catch (error) { return null; }
}))"""


def formtools_body(url: str) -> list[int] | None:
    """The body formtools' fetch decodes at ``url``, or ``None`` when the fetch fails."""
    from formtools._net import FetchError, fetch

    try:
        return list(fetch("GET", url).body)
    except FetchError:
        return None


def test_a_body_with_more_frames_members_or_bytes_after_it_is_read_as_chromium_reads_it(chromium: ChromiumOracle) -> None:
    """Seeded bodies, two or more per coding, as servers also send them
    (tests/support/codinggen.as_sent: zstd frames among skippable ones, a gzip member with any
    header fields and a wrong trailer followed by more, brotli and zlib streams followed by
    other bytes, raw deflate followed or not by its Adler-32 or other bytes), each fetched by
    the page with ``fetch()`` in one load: formtools decodes the bytes Chromium decodes, and
    fails where Chromium fails. formtools read a zstd page's first frame only, failed a gzip
    member whose CRC was wrong, failed a brotli body followed by other bytes (the brotli module
    fails the call) and read raw deflate followed by four bytes or more that are not its
    Adler-32 (Chromium reads raw deflate behind a made-up zlib header, so fails them; a page
    navigated to then never finishes loading, and shows no tools)."""
    from support.codinggen import CODERS, as_sent

    rng = random.Random(2026112929)
    paths, bodies = [], []
    for number, coding in enumerate([*sorted(CODERS) * 2, "br", "br", "deflate", "deflate", "deflate", "deflate"]):
        body = as_sent(coding, PAGE, rng)
        paths.append(chromium.site.put(f"/as-sent/{number}/{coding}", body, "text/html", [("Content-Encoding", coding)]))
        bodies.append((coding, body))
    chromium.page.goto(chromium.site.put("/as-sent/page", b"<!doctype html><p>fetching</p>", "text/html"))
    theirs = chromium.page.evaluate(_FETCHED_JS, paths)
    differences = [
        f"{coding} {body[-12:]!r}: Chromium {'failed' if chromiums is None else 'read'}, formtools {'failed' if ours is None else 'read other bytes'}"
        for (coding, body), path, chromiums in zip(bodies, paths, theirs)
        if (ours := formtools_body(path)) != chromiums
    ]
    assert not differences, "\n".join(differences)
    assert None in theirs and list(PAGE) in theirs, theirs
