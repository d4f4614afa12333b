"""What Chromium 156 makes of a page's own answer head, before any form, live: seeded heads
and bodies (a type that says nothing, ``text/plain``, a type part without a slash, lines listing
values, white space Chromium does not trim, ``X-Content-Type-Options`` spellings,
``Content-Disposition`` spellings and lines, statuses (304, a 1xx head before the answer's),
``Content-Security-Policy: sandbox`` spellings; bodies beginning with each tag Chromium's sniffer
knows after white space, inside and past its 512-byte window, ``<?xml``, a byte order mark,
binary bytes inside and past its 1,024-byte window, magic numbers) served whole by a raw
server, each in an iframe of one page, against what formtools finds on the same URL
(``extract``, ``batch --urls``) and in the same answer stored as a WARC record (``batch``).
One rule decides for every reader (:mod:`formtools._spec.mime`).

Left out of the generator: XHTML in an answer of an XML type (``text/xml``, a sniffed
``<?xml``), which Chromium reads as an XML document and registers tools of, while formtools
reads no XML document as a page.
"""

from __future__ import annotations

import json
import random
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._crawl.batch import BatchOptions, run_batch
from formtools.errors import FormtoolsError
from tests.support.rawsite import raw_site

pytestmark = pytest.mark.browser

FORM = b"<form toolname=t tooldescription=d action=/x><input name=q></form>"
# the types Chromium sniffs (mime_sniffer.cc IsUnknownMimeType, and text/plain for binary
# bytes), two it reads as no type at all (GetMimeTypeAndCharset), and some it takes as they are
# a type whose type part holds no slash (ignored: the type before stands, or none), a line
# listing types (split at its commas), white space Chromium does not trim (form feed, NBSP)
TYPES = ["", "junk", "*/*", "unknown/unknown", "Application/Unknown", "text/plain", "text/html",
         "application/octet-stream", "image/png", "text/html; charset=utf-8", "text /html", "texthtml;x=a/b",
         "html(x/y)", "te xt/html", "text/plain, text/html", "text/html, image/png", "\x0ctext/html",
         "text/html\xa0"]  # fmt: skip
NOSNIFF = ["nosniff", "NoSniff", " nosniff", "nosniff,foo", "foo, nosniff", "nosniff;", "no-sniff", "nosniff\x0c"]
DISPOSITIONS = ["attachment", "Attachment; filename=a.html", "inline", "filename=a.html", "foo",
                '"attachment"', "\xa0attachment", "attachment;", "", "inline, attachment",
                "attachment, attachment", "\x0cattachment"]  # fmt: skip
# a page's own policy: sandboxed without allow-scripts, Chromium registers no tools. Each
# sandbox allows the same origin: an opaque-origin frame's tools are never listed to the page
# holding it, so without it "sandbox allow-scripts" would look like "sandbox" here
POLICIES = ["Content-Security-Policy: sandbox allow-same-origin",
            "Content-Security-Policy: sandbox allow-scripts allow-same-origin",
            "Content-Security-Policy: SANDBOX Allow-Forms allow-same-origin",
            "Content-Security-Policy: sandbox allow-forms allow-scripts allow-same-origin",
            "Content-Security-Policy: default-src *, sandbox allow-same-origin",
            "Content-Security-Policy: sandbox allow-scripts allow-same-origin; sandbox allow-same-origin",
            "Content-Security-Policy: sandbox ALLOW-SCRIPTS\tallow-same-origin",
            "Content-Security-Policy: sandbox allow-same-origin allow-scripts;",
            "Content-Security-Policy: sandbox\xa0allow-scripts allow-same-origin",
            "Content-Security-Policy: script-src 'none'",
            "Content-Security-Policy-Report-Only: sandbox allow-same-origin"]  # fmt: skip
STATUSES = ["200 OK"] * 8 + ["205 Reset Content", "404 Not Found", "500 Oops", "302 Found", "418 Teapot", "304 Not Modified"]
# heads Chromium reads past to the answer's own head
INFORMATIONAL = ["100 Continue", "103 Early Hints"]
# what a body begins with: kSniffableTags in any case and with nothing required after them,
# what is none of them, and magic numbers
STARTS = [b"<html>", b"<!DOCTYPE html>", b"<!doctype HTML x>", b"<pRE>", b"<Body", b"<!--x-->", b"<header>",
          b"<h1x>", b"<bdi>", b"<script>x</script>", b"<?xml version='1.0'?><root>", b"<?XML version='1.0'?>",
          b"<form", b"<svg>", b"text ", b"From ", b"%PDF-1 ", b"GIF89a", b"MZ", b"\xef\xbb\xbf<html>",
          b"\xff\xfe<html>", b"<h\0tml>", b"<p\0>", b"#!"]  # fmt: skip
SPACES = b" \t\n\r\x0b\x0c"  # base::IsAsciiWhitespace, which SniffForHTML skips


def _head(rng: random.Random) -> list[str]:
    lines = [f"Content-Type: {rng.choice(TYPES)}" for _ in range(rng.choice([0, 1, 1, 1, 2]))]
    if rng.random() < 0.4:
        lines.append(f"X-Content-Type-Options: {rng.choice(NOSNIFF)}")
    if rng.random() < 0.2:
        lines += [f"Content-Disposition: {rng.choice(DISPOSITIONS)}" for _ in range(rng.choice([1, 1, 2]))]
    if rng.random() < 0.25:
        lines.append(rng.choice(POLICIES))
    rng.shuffle(lines)
    return lines


def _body(rng: random.Random) -> bytes:
    """White space (sometimes past the 512 bytes Chromium looks at for a tag), a start, the
    form; sometimes a binary byte before or past the 1,024 bytes Chromium looks at for one."""
    spaces = rng.choice([0, 0, 3, rng.randint(490, 530)])
    body = bytes(rng.choice(SPACES) for _ in range(spaces)) + rng.choice(STARTS) + FORM
    if rng.random() < 0.25:
        body += b"x" * rng.randint(0, 1100) + rng.choice([b"\x01", b"\x0b", b"\x1c", b"\x1b"])
    return body


def answer(rng: random.Random) -> bytes:
    """One whole answer of seeded status, head and body (its length given: the raw server
    closes the connection after it)."""
    body = _body(rng)
    before = f"HTTP/1.1 {rng.choice(INFORMATIONAL)}\r\n\r\n" if rng.random() < 0.1 else ""
    head = [f"HTTP/1.1 {rng.choice(STATUSES)}", *_head(rng), f"Content-Length: {len(body)}"]
    return (before + "\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


# The tools getTools() lists for each iframe's document, once a few turns in a row give the
# same (registration is a posted task); [] for a frame that holds no document (a download)
_FRAME_TOOLS_JS = """async () => {
  const frames = [...document.querySelectorAll('iframe')];
  const byFrame = async () => {
    const tools = frames.map(() => []);
    for (const tool of await document.modelContext.getTools()) {
      const index = frames.findIndex((frame) => frame.contentWindow === tool.window);
      if (index >= 0) tools[index].push(tool.name);
    }
    return JSON.stringify(tools.map((names) => names.sort()));
  };
  let last = await byFrame(), calm = 0;
  while (calm < 5) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const current = await byFrame();
    calm = current === last ? calm + 1 : 0;
    last = current;
  }
  return JSON.parse(last);
}"""


def _warc(answers: list[bytes]) -> bytes:
    """The answers as response records of one WARC file, record N at https://w.example/N."""
    records = b""
    for number, block in enumerate(answers):
        head = (
            f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{number}>\r\n"
            f"WARC-Target-URI: https://w.example/{number}\r\n"
            f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(block)}\r\n\r\n"
        )
        records += head.encode() + block + b"\r\n\r\n"
    return records


def _extracted(url: str) -> list[str]:
    """The tools ``formtools extract URL`` finds (none when it names why there are none)."""
    try:
        return sorted(tool.name for tool in formtools.extract_tools(formtools.load_page(url)))
    except FormtoolsError:
        return []


def _batched(tmp_path: Path, urls: list[str], answers: list[bytes]) -> Iterator[tuple[str, list[str]]]:
    """``batch`` over the URL list and the WARC file of the same answers, in one run: each
    line's URL and tool names (a record that is no page has no line)."""
    listing, archive, out = tmp_path / "urls.txt", tmp_path / "a.warc", tmp_path / "out.jsonl"
    listing.write_text("".join(f"{url}\n" for url in urls))
    archive.write_bytes(_warc(answers))
    run_batch([str(archive)], out, urls=listing, options=BatchOptions(jobs=1))
    for line in map(json.loads, out.read_text("utf-8").splitlines()):
        yield line["url"], sorted(tool["name"] for tool in line.get("tools", []))


def test_a_pages_head_and_first_bytes_decide_its_tools_as_in_chromium(chromium: ChromiumOracle, tmp_path: Path) -> None:
    """64 seeded answers in iframes of one page; formtools reads each by URL (extract, batch
    --urls) and as a WARC record. Before ``formtools._spec.mime.why_no_tools``, an answer of no
    type (or ``*/*``, ``junk``) was HTML whatever its bytes and however nosniff was spelled,
    ``unknown/unknown`` was never sniffed, an attachment gave its tools, a 205 gave tools, a
    page sandboxed without ``allow-scripts`` gave tools, and a 4xx/5xx page with a form was an
    error. Before ``Head.answer_head`` read stored answers (WARC, Scrapy), a type part without
    a slash (``text /html``) was a download, WARC read a line listing types whole (``text/plain,
    text/html``: text), trimmed ``\\x0c``/NBSP as Chromium does not, and read a body after 304
    and a 1xx head as the answer."""
    rng = random.Random(2026112924)
    answers = [answer(rng) for _ in range(64)]
    with raw_site() as (origin, served):
        paths = [f"/p{number}" for number in range(len(answers))]
        served.update(zip(paths, answers))
        frames = "".join(f'<iframe src="{path}"></iframe>' for path in paths).encode()
        served["/frames"] = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(frames), frames)
        chromium.page.goto(origin + "/frames")
        theirs = chromium.page.evaluate(_FRAME_TOOLS_JS)
        urls = [origin + path for path in paths]
        extracted = [_extracted(url) for url in urls]
        batched = dict(_batched(tmp_path, urls, answers))
    differences = []
    for number, (raw, url) in enumerate(zip(answers, urls)):
        ours = {
            "extract": extracted[number],
            "batch --urls": batched.get(url, []),
            "WARC": batched.get(f"https://w.example/{number}", []),
        }
        wrong = {reader: tools for reader, tools in ours.items() if tools != theirs[number]}
        if wrong:
            differences.append(f"{raw[:200]!r}: Chromium {theirs[number]}, formtools {wrong}")
    assert not differences, f"{len(differences)} of {len(answers)} differ:\n" + "\n".join(differences)
    assert [] in theirs and ["t"] in theirs, theirs


def _alarm(signum: int, frame: object) -> None:
    raise TimeoutError("the oracle gave no answer within 60 s")


def test_a_sandboxed_page_loaded_on_its_own_has_the_tools_chromium_gives_it(chromium: ChromiumOracle) -> None:
    """The sandbox policies of the generator without ``allow-same-origin`` (an opaque origin),
    each page loaded on its own by the oracle (no parent to list its tools to) and by
    ``extract URL``. Before the oracle read scripting from the parser, a page sandboxed without
    ``allow-scripts`` hung its read for good (its turns never come): the test fails after
    60 s."""
    policies = [re.sub(r"[ \t]allow-same-origin", "", policy) for policy in POLICIES]
    differences, kinds = [], set()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        for number, policy in enumerate(policies):
            name, _, value = policy.partition(": ")
            path = f"/heads/top/{number}"
            theirs = [tool["name"] for tool in chromium.tools(FORM, headers=[(name, value)], path=path)]
            ours = _extracted(chromium.site.origin + path)
            kinds.add(bool(theirs))
            if ours != theirs:
                differences.append(f"{policy!r}: Chromium {theirs}, formtools {ours}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not differences, "\n".join(differences)
    assert kinds == {True, False}, "the policies sandbox with and without allow-scripts"


# --- the answer a call lands on: the same rule --------------------------------------------------

LANDING_TYPES = ["", "junk", "unknown/unknown", "text/plain"]
LANDING_STARTS = [b"<p>", b"<!--x-->", b"\n<TITLE>x</title>", b"text ", b"From ", b"\xef\xbb\xbf<html>", b"{"]
JSON_LD = b'<script type="application/ld+json">{"landed": "x"}</script>'


@pytest.mark.spec_step("exec-result-2")
def test_an_answer_a_call_lands_on_is_sniffed_as_chromium_sniffs_it(chromium: ChromiumOracle) -> None:
    """Three seeded answers of a type Chromium sniffs (or none), a call landing on each: the
    agent's result is the JSON-LD of an answer sniffed as HTML, ``[]`` of one shown as text.
    Before, formtools read any answer of no type as HTML (``text <script …>`` gave its block)."""
    rng = random.Random(2026112928)
    differences, kinds = [], set()
    for number in range(3):
        content_type, start = rng.choice(LANDING_TYPES), rng.choice(LANDING_STARTS)
        headers = [("X-Content-Type-Options", "nosniff")] if rng.random() < 0.25 else []
        chromium.site.put(f"/heads/landing/{number}", start + JSON_LD, content_type, headers)
        form = f'<form toolname="t" tooldescription="d" toolautosubmit action="/heads/landing/{number}"><input name="q"></form>'
        url = chromium.site.put(f"/heads/form/{number}", form.encode())
        answer, _ = chromium.agent_answer(url, "t", {"q": "x"})
        theirs = answer.get("output") if answer["status"] == "Completed" else answer
        (tool,) = formtools.extract_tools(form, base_url=url)
        ours = formtools.call_tool(tool, {"q": "x"}, confirm=True).result
        kinds.add(bool(theirs))
        if ours != theirs:
            differences.append(f"{content_type!r} {headers} {start + JSON_LD!r}: Chromium {theirs}, formtools {ours}")
    assert not differences, "\n".join(differences)
    assert kinds == {True, False}, "the seed draws answers sniffed as HTML and as text"


# --- the page's policy when a call is made --------------------------------------------------------

FORMS_SANDBOXED = ["sandbox allow-scripts", "SANDBOX Allow-Scripts allow-popups", "default-src *, sandbox allow-scripts",
                   "sandbox allow-scripts allow-same-origin"]  # fmt: skip


@pytest.mark.spec_step("exec-request-6")
def test_a_call_on_a_page_sandboxed_without_allow_forms_sends_nothing(chromium: ChromiumOracle) -> None:
    """A page whose ``Content-Security-Policy`` sandboxes it with ``allow-scripts`` and without
    ``allow-forms`` (a seeded spelling): Chromium registers its tool, and a call submits nothing
    (the agent's call stays pending, the server hears no request). Before, ``formtools call``
    sent the request and gave the landing page's result."""
    policy = random.Random(2026112925).choice(FORMS_SANDBOXED)
    site = chromium.site
    site.put("/heads/sandboxed/landing", b'<script type="application/ld+json">{"landed": "x"}</script>')
    form = b'<form toolname="t" tooldescription="d" toolautosubmit action="/heads/sandboxed/landing"><input name="q"></form>'
    url = site.put("/heads/sandboxed/form", form, headers=[("Content-Security-Policy", policy)])
    heard = len([request for request in site.requests if request.path == "/heads/sandboxed/landing"])
    answer, _ = chromium.agent_answer(url, "t", {"q": "x"}, pending_after=2.0)
    assert answer == {"status": "pending"}, (policy, answer)
    (tool,) = formtools.extract_tools(formtools.load_page(url))
    result = formtools.call_tool(tool, {"q": "x"}, confirm=True)
    assert len([request for request in site.requests if request.path == "/heads/sandboxed/landing"]) == heard
    assert result.status == "not-sent" and "allow-forms" in (result.reason or ""), (policy, result)
