"""An answer's head read as Chromium 156 reads it, live (formtools._net.head): header lines h11
refuses (a value holding ``\\x0b`` or ``\\x0c``, a name holding a byte that is no token
character, a space before the colon, a line without a colon or with an empty name, a bare CR)
are read or dropped as Chromium reads or drops them, obs-fold continues a header line, and a
NUL byte fails the load. What is seen is a ``Content-Encoding: gzip`` line spelled among such
lines over a body coded or not: whether the page shows its tools tells how the line was read.
"""

from __future__ import annotations

import gzip
import random

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools.errors import FormtoolsError

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
