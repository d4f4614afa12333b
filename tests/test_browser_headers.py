"""An answer's head read as Chromium 156 reads it, live (formtools._net.head): header lines h11
refuses (a value holding ``\\x0b`` or ``\\x0c``, a name holding a byte that is no token
character, a space before the colon, a line without a colon or with an empty name, a bare CR)
are read or dropped as Chromium reads or drops them, obs-fold continues a header line, and a
NUL byte fails the load. What is seen is a ``Content-Encoding: gzip`` line spelled among such
lines over a body coded or not: whether the page shows its tools tells how the line was read.
A second generator writes whole answers from a raw server: status lines, ``Transfer-Encoding``,
``Content-Length`` and ``Connection`` lines Chromium frames the body by, chunks as servers write
them, bodies cut short, heads cut short or missing, and repeated ``Content-Type``, ``Location``
and ``Content-Disposition`` lines; its answers also go through ``call_tool`` with and without a
caller's own HTTP client.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator

import httpx
import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools.errors import FetchError, FormtoolsError, NetworkError, SourceError
from tests.support.rawsite import raw_site as serving

pytestmark = pytest.mark.browser

PAGE = (
    b'<!doctype html><form toolname=t tooldescription=d action="/headers/landing"><input name=q></form>'
    b'<script type="application/ld+json">{"seen": 1}</script><p id=m>decoded</p>'
)
# a header value's and name's bytes that h11 refuses and Chromium keeps, and some it keeps alike
ODD_BYTES = "\x0b\x0c\x01\x1f\x7f\x85\xa0\xe9 "
LINE_BREAKS = ["\r\n", "\r\n", "\n", "\r"]
LWS = " \t"  # what Chromium trims off names and values, and what begins a continuation line

_FRAME_JS = """() => [...document.querySelectorAll('iframe')].map(frame => {
    let document;
    try { document = frame.contentDocument; } catch (error) { return 'failed'; }
    if (!document || document.URL.startsWith('chrome-error:')) return 'failed';
    return document.getElementById('m') ? 'decoded' : 'raw';
})"""


def _noise(rng: random.Random) -> str:
    odd = rng.choice(ODD_BYTES)
    return rng.choice([
        f"X-Noise: a{odd}b", f"X-Noise:{odd}", f"X{odd}Noise: v", "no colon here", ": empty name",
        f"X-Noise{rng.choice(LWS)}: v", f"X-Noise: a\r\n{rng.choice(LWS)}b{odd}", f"X-Noise: v{odd}\r\n c",
    ])


def _coding_line(rng: random.Random) -> tuple[str, int]:
    """A ``Content-Encoding`` line spelled as the generator likes, and how many gzip layers it
    names as drawn (what the body is coded through when it is coded)."""
    name = rng.choice([
        "Content-Encoding", "Content-Encoding", "Content-Encoding ", "Content-Encoding\t",
        f"Content{rng.choice(ODD_BYTES)}Encoding", f"{rng.choice(LWS)}Content-Encoding",
    ])
    value = rng.choice([
        "gzip", "gzip", f"gzip{rng.choice(ODD_BYTES)}", f"{rng.choice(ODD_BYTES)}gzip",
        f"\r\n{rng.choice(LWS)}gzip", f"gzip,\r\n{rng.choice(LWS)}gzip", f"gzip\r\n{rng.choice(LWS)}gzip",
    ])
    return f"{name}: {value}", value.count("gzip")


def answer(rng: random.Random) -> tuple[str, bytes, str]:
    """One head's lines after the status line (sent as the value of a first ``X-Start`` header,
    the server writing it as it stands) and a body: the page, gzipped as many times as the
    ``Content-Encoding`` lines name gzip (a page that is not gzip under a gzip Chromium reads
    never finishes loading). The NUL byte is drawn rarely."""
    lines, layers = [], 0
    for _ in range(rng.randint(1, 3)):
        lines.append(_noise(rng))
    for _ in range(rng.choice([1, 1, 2])):
        line, named = _coding_line(rng)
        lines.insert(rng.randint(0, len(lines)), line)
        layers += named
    if rng.random() < 0.05:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["X-Nul: a\0b", "X\0Nul: v"]))
    head = "1"
    for line in lines:
        head += rng.choice(LINE_BREAKS) + line
    body = PAGE
    for _ in range(layers):
        body = gzip.compress(body, 1)
    return head, body, repr(head)


def formtools_reading(url: str, chromium: ChromiumOracle) -> tuple[str, str]:
    """How formtools read the answer at ``url`` as a page and as a call's answer."""
    try:
        page = "decoded" if formtools.extract_tools(formtools.load_page(url)) else "raw"
    except FormtoolsError:
        page = "failed"
    form = f'<form toolname=c tooldescription=d toolautosubmit action="{url}"><input name=q></form>'
    (tool,) = formtools.extract_tools(form, base_url=chromium.site.origin + "/headers/form")
    try:
        call = "decoded" if formtools.call_tool(tool, {"q": "x"}).result == [{"seen": 1}] else "raw"
    except FormtoolsError:
        call = "failed"
    return page, call


def test_an_answers_head_is_read_as_chromium_reads_it(chromium: ChromiumOracle) -> None:
    """24 seeded heads in iframes of one page; formtools fetches each as a page and as a
    call's answer. Before formtools._net.head, h11 refused every answer with a line it finds
    malformed (``Could not fetch …: illegal header line``) where Chromium loads the page."""
    rng = random.Random(2026112922)
    answers = [answer(rng) for _ in range(24)]
    site = chromium.site
    for number, (head, body, _) in enumerate(answers):
        site.put(f"/headers/{number}", body, "text/html", [("X-Start", head)])
    frames = "".join(f'<iframe src="/headers/{number}"></iframe>' for number in range(len(answers)))
    chromium.page.goto(site.put("/headers/frames", frames.encode(), "text/html"))
    theirs = chromium.page.evaluate(_FRAME_JS)
    differences = []
    for number, (_, _, description) in enumerate(answers):
        page, call = formtools_reading(f"{site.origin}/headers/{number}", chromium)
        if not page == call == theirs[number]:
            differences.append(f"{description}: Chromium {theirs[number]}, formtools page {page}, call {call}")
    assert not differences, "\n".join(differences)
    assert {"decoded", "raw", "failed"} <= set(theirs), theirs


# --- the framing and the headers Chromium reads as one value ---------------------------------

_TOOLS_JS = """() => [...document.querySelectorAll('iframe')].map(frame => {
    const document = frame.contentDocument;
    if (!document || document.URL.startsWith('chrome-error:')) return 'failed';
    return JSON.stringify([...document.querySelectorAll('form[toolname]')].map(form => form.getAttribute('toolname')).sort());
})"""


def _form(name: str) -> bytes:
    return b"<form toolname=%s tooldescription=d action=/x><input name=q></form>" % name.encode()


# status lines: versions in any spelling, codes of other lengths (h11 took three digits only;
# Chromium reads 205 as a code without a body, like 204), up to four bytes before "HTTP" and more
STATUS_LINES = [
    "HTTP/1.1 200 OK", "HTTP/1.0 200 OK", "http/1.1 200 OK", "HTTP/2 200 OK", "HTTP/1.1 200", "Http/1.1  200  OK",
    "HTTP/1.1 099 Odd", "HTTP/1.1 0200 OK", "HTTP/1.1 205 Reset", "HTTP/1.1 204 No Content", "\nHTTP/1.1 200 OK",
    "xx HTTP/1.1 200 OK", "xxxxxHTTP/1.1 200 OK",
]
CHUNKED = ["chunked", "Chunked", "gzip, chunked", "identity", "gzip", "chunked\r\nTransfer-Encoding: chunked", "gzip\r\nTransfer-Encoding: chunked"]
CONTENT_TYPES = ["text/html", "text/html; charset=utf-8", "text/plain", "text/plain, text/html", "Text/HTML (x)"]
# values Chromium reads no type from: among others they change nothing, alone the body would be
# sniffed (which formtools does not do: it takes an answer without a type for HTML)
NO_TYPES = ["junk", "*/*", ""]


def _length_lines(rng: random.Random, length: int) -> list[str]:
    """``Content-Length`` lines: right, unreadable to Chromium (the body then runs to the end of
    the connection), repeated alike or not, longer than the body (the connection closes before
    it ends) or shorter (bytes after it)."""
    return rng.choice([
        [f"Content-Length: {length}"], [f"Content-Length: +{length}"], ["Content-Length: -1"],
        ["Content-Length: 99999999999999999999999"], [f"Content-Length: {length}, {length}"],
        [f"Content-Length: {length}"] * 2, [f"Content-Length: {length}", f"Content-Length: {length + 1}"], [],
        [f"Content-Length: {length + rng.randint(1, 99)}"], [f"Content-Length: {rng.randint(0, length)}"],
    ])


def _chunks(rng: random.Random) -> bytes:
    """A chunked body as servers write it, which Chromium reads whole or in part: the form
    ``inner`` in chunks whose lines end in CR LF or a bare LF, sizes followed by spaces or an
    extension (spelling the form ``ext``, seen only when the chunks are not de-chunked), then
    the last chunk, trailer lines and bytes after them, or the connection closed before the last
    chunk or inside a chunk."""
    inner = _form("inner")
    cut = inner.index(b"<input")  # (a chunk line between two tags leaves the raw markup a form)
    out = b""
    for number, part in enumerate([inner[:cut], inner[cut:]]):
        end = rng.choice([b"\r\n", b"\r\n", b"\n"])
        extension = b";x=%s" % _form("ext") if number == 0 else rng.choice([b"", b" ", b"  ;a=b"])
        out += b"%x%s%s%s%s" % (len(part), extension, end, part, rng.choice([b"\r\n", b"\n"]))
    last = b"0" + rng.choice([b"\r\n", b"\n"]) + rng.choice([b"", b"X-Trailer: t\r\n"]) + rng.choice([b"\r\n", b"\n"])
    ending = rng.choice(["whole", "whole", "whole", "after", "no last", "cut"])
    if ending == "no last":
        return out
    if ending == "cut":
        return out[: rng.randint(len(out) // 2, len(out) - 1)]
    return out + last + (_form("after") if ending == "after" else b"")


def raw_answer(rng: random.Random) -> bytes:
    """One whole answer of seeded spelling: a page whose framing (status line,
    ``Transfer-Encoding``, ``Content-Length`` and ``Connection`` lines) says whether its chunks
    are de-chunked (a form spelled in a chunk extension shows only when they are not) and where
    its body ends, under one to three ``Content-Type`` values; or a redirect by repeated
    ``Location`` lines; or a page with repeated ``Content-Disposition`` lines; or a head the
    connection closes inside, or an answer with no status line at all (HTTP/0.9)."""
    kind = rng.choice(["framing", "framing", "framing", "framing", "location", "disposition", "cut head", "no status"])
    types = [f"Content-Type: {rng.choice(CONTENT_TYPES)}" for _ in range(rng.choice([1, 1, 2]))]
    types.insert(rng.randint(0, len(types)), f"Content-Type: {rng.choice(CONTENT_TYPES + NO_TYPES)}")
    if kind == "location":
        target = rng.choice(["/t", "/u"])
        lines = [f"Location: {rng.choice([target, target, '/u', ''])}" for _ in range(rng.choice([1, 2, 2]))]
        return ("HTTP/1.1 302 Found\r\n" + "\r\n".join([*lines, "Content-Length: 0"]) + "\r\n\r\n").encode()
    if kind == "disposition":
        body = _form("a")
        value = rng.choice(["inline", "inline; filename=a.html"])
        lines = [f"Content-Disposition: {rng.choice([value, value, 'inline'])}" for _ in range(2)]
        return ("HTTP/1.1 200 OK\r\n" + "\r\n".join([*types, *lines, *_length_lines(rng, len(body))]) + "\r\n\r\n").encode() + body
    if kind == "cut head":
        return ("HTTP/1.1 200 OK\r\n" + "\r\n".join(types) + rng.choice(["", "\r\n", "\r\nX-Cut: v"])).encode()
    if kind == "no status":
        return rng.choice([b"", b"<!doctype html>"]) + _form("a")
    chunks = _chunks(rng)
    framing = [f"Transfer-Encoding: {rng.choice(CHUNKED)}", *_length_lines(rng, len(chunks))]
    framing += rng.choice([[], [], ["Connection: close"], ["Connection: keep-alive"]])
    rng.shuffle(framing)
    head = "\r\n".join([rng.choice(STATUS_LINES), *types, *framing])
    return head.encode() + b"\r\n\r\n" + chunks


@pytest.fixture
def raw_site() -> Iterator[tuple[str, dict[str, bytes]]]:
    with serving() as site:
        yield site


def _tools_formtools_shows(url: str) -> str:
    """The tool names formtools finds at ``url`` (as the page script does: none for an answer
    that is no HTML), or ``failed``."""
    try:
        names = sorted(tool.name for tool in formtools.extract_tools(formtools.load_page(url)))
        return json.dumps(names, separators=(",", ":"))
    except (FetchError, NetworkError):
        return "failed"
    except SourceError:
        return "[]"


def test_framing_and_repeated_headers_are_read_as_chromium_reads_them(
    chromium: ChromiumOracle, raw_site: tuple[str, dict[str, bytes]]
) -> None:
    """48 seeded answers in iframes of one page, written whole by a raw server. Before
    ``Head.for_h11`` handed h11 the framing Chromium reads, a 1.0 answer's chunks were
    de-chunked, and h11 refused ``gzip, chunked``, two ``Transfer-Encoding`` lines, a
    ``Content-Length`` of ``+5`` or ``-1``, and ``http/1.1``; before ``Head.as_read``,
    ``text/plain`` then ``text/html`` was no page and two ``Location`` lines were followed joined.
    Before ``Head.status``, ``Dechunker`` and ``HeadReader._locate`` (18 of these 48 differed):
    a body shorter than its ``Content-Length`` or chunks without their last failed the fetch
    (Chromium shows what came), as did a head the connection closed inside (Chromium: an empty
    page), chunk lines ending in a bare LF and codes such as ``099``; a 205 answer's body was
    read (Chromium reads none) and five bytes before ``HTTP/1.1`` were taken (Chromium: HTTP/0.9,
    a failed load)."""
    origin, answers = raw_site
    rng = random.Random(2026112928)
    paths = [f"/a{number}" for number in range(48)]
    for path in paths:
        answers[path] = raw_answer(rng)
    for name in ("t", "u"):
        answers[f"/{name}"] = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(_form(name)), _form(name))
    frames = "".join(f'<iframe src="{path}"></iframe>' for path in paths).encode()
    answers["/frames"] = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(frames), frames)
    chromium.page.goto(origin + "/frames")
    theirs = chromium.page.evaluate(_TOOLS_JS)
    differences = [
        f"{answers[path]!r}: Chromium {theirs[number]}, formtools {ours}"
        for number, path in enumerate(paths)
        if (ours := _tools_formtools_shows(origin + path)) != theirs[number]
    ]
    assert not differences, "\n".join(differences)
    assert {"failed", '["inner"]', '["ext","inner"]', "[]"} <= set(theirs) and {'["t"]', '["u"]'} & set(theirs), theirs


def _call_outcome(url: str, client: httpx.Client | httpx.AsyncClient | None) -> str:
    """What ``call_tool`` (or ``acall_tool``, given an ``httpx.AsyncClient``) gives for a form
    sending to ``url``: the result's status, code, URL and JSON-LD, or the error's kind and words."""
    import asyncio
    import concurrent.futures

    form = f'<form toolname=c tooldescription=d toolautosubmit action="{url}"><input name=q></form>'
    (tool,) = formtools.extract_tools(form, base_url=url)
    try:
        if isinstance(client, httpx.AsyncClient):
            # a thread of its own: Playwright's sync API keeps an event loop in this one
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                result = pool.submit(asyncio.run, formtools.acall_tool(tool, {"q": "x"}, client=client)).result()
        else:
            result = formtools.call_tool(tool, {"q": "x"}, client=client)
    except FormtoolsError as error:
        return f"{type(error).__name__}: {error}"
    return repr((result.status, result.status_code, result.url, result.json_ld, result.reason))


def test_a_callers_http_client_reads_an_answer_as_the_fetch_without_one_reads_it(
    raw_site: tuple[str, dict[str, bytes]],
) -> None:
    """The public API lets a caller hand ``call_tool`` its own ``httpx.Client`` (and
    ``acall_tool`` an ``httpx.AsyncClient``): 16 seeded raw answers (the live test's
    generator, plus heads with lines h11 refuses) give the same outcome with either client as
    without one, for the fetch takes only the client's cookie jar and reads every head and body
    through formtools._net.head. No browser: the outcome without a client is held to Chromium's
    by the tests above."""
    origin, answers = raw_site
    rng = random.Random(2026112930)
    for number in range(16):
        head, body, _ = answer(rng) if number % 4 == 0 else ("", b"", "")
        answers[f"/c{number}"] = (
            b"HTTP/1.1 200 OK\r\nX-Start: %s\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (head.encode("latin-1"), len(body), body)
            if head else raw_answer(rng)
        )
    for name in ("t", "u"):
        answers[f"/{name}"] = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(_form(name)), _form(name))
    differences = []
    with httpx.Client() as client:
        for number in range(16):
            url = f"{origin}/c{number}"
            alone = _call_outcome(url, None)
            given = [_call_outcome(url, client), _call_outcome(url, httpx.AsyncClient())]
            if given != [alone, alone]:
                differences.append(f"{answers[f'/c{number}']!r}: alone {alone}, with clients {given}")
    assert not differences, "\n".join(differences)
