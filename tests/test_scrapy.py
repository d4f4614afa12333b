"""The Scrapy integration in a real crawl of the real test site on 127.0.0.1.

``ToolSpider`` below is run by Scrapy's own ``scrapy runspider`` in a subprocess (Twisted's
reactor cannot restart inside the pytest process): it follows the site's links, writes the tools
of every page as items, and submits the tool calls it is given; the landing pages' tool results
are items too. The test holds what the site received to the requests formtools built.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import scrapy
from scrapy.http import HtmlResponse

import formtools
import formtools.scrapy
from formtools.scrapy import (
    FINISHING_KEY,
    REQUEST_KEY,
    extraction_of,
    result_of,
    tool_request,
    tools_of,
)
from tests.conftest import ROOT
from tests.support.rawsite import raw_site
from tests.support.site import TestSite

SHOP = """<!doctype html><meta charset=utf-8><title>Shop</title>
<a href=/page/upload>upload</a> <a href=/page/about>about</a>
<form toolname=search tooldescription='Search the shop' action='/page/results|all^' toolautosubmit>
  <input name=q required><input name=page type=number min=1 value=1>
</form>
<form toolname=subscribe tooldescription='Get the letter' method=post action=/login>
  <input name=email type=email required><button>Subscribe</button>
</form>"""
UPLOAD = """<!doctype html><title>Upload</title><a href=/page/shop>shop</a>
<form toolname=upload tooldescription='Send a note' method=post action=/submit
      enctype=multipart/form-data toolautosubmit>
  <input name=title required><textarea name=note></textarea>
</form>"""
ABOUT = "<!doctype html><title>About</title><form action=/x><input name=a></form>"
RESULTS = '<!doctype html><script type="application/ld+json">{"@type": "SearchResults"}</script>'

CALLS = {
    "search": {"input": {"q": "café & crème", "page": 2}},
    "subscribe": {"input": {"email": "ada@example.com"}, "confirm": True},
    "upload": {"input": {"title": "Hi", "note": "line one\nline two — é"}},
    "quiet": {"input": {"q": "x"}},
}


class ToolSpider(scrapy.Spider):
    """Crawls a site from ``start``, yields ``{"page", "tools"}`` for every page and submits
    the ``calls`` (JSON: tool name → ``{"input", "confirm"}``) of the tools it finds, yielding
    ``{"tool", "request", "result"}`` for each landing page."""

    name = "tools"

    def __init__(self, start: str, calls: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.calls = json.loads(calls)

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        tools = tools_of(response)
        yield {"page": response.url, "tools": [tool.name for tool in tools]}
        for tool in tools:
            if tool.name in self.calls:
                call = self.calls[tool.name]
                yield tool_request(
                    tool,
                    call["input"],
                    confirm=call.get("confirm", False),
                    callback=self.landed,
                    cb_kwargs={"tool": tool.name},
                )
        yield from response.follow_all(css="a::attr(href)", callback=self.parse)

    def landed(self, response: scrapy.http.Response, tool: str) -> Iterator[Any]:
        result = result_of(response)
        yield {"tool": tool, "request": result.request.to_dict(), "result": result.to_dict()}


@pytest.fixture
def site() -> Iterator[TestSite]:
    with TestSite() as running:
        running.put("shop", SHOP.encode())
        running.put("upload", UPLOAD.encode())
        running.put("about", ABOUT.encode())
        running.put("results%7Call%5E", RESULTS.encode())
        yield running


def crawl(start: str, out: Path) -> list[dict[str, Any]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scrapy",
            "runspider",
            __file__,
            "-a",
            f"start={start}",
            "-a",
            f"calls={json.dumps(CALLS)}",
            "-o",
            f"{out}:jsonlines",
            "-s",
            "TELNETCONSOLE_ENABLED=0",
            "-L",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        check=False,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert b"ERROR" not in done.stderr, done.stderr.decode()[-3000:]
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_a_crawl_extracts_tools_and_submits_calls_as_the_browser_would(
    site: TestSite, tmp_path: Path
) -> None:
    items = crawl(f"{site.origin}/page/shop", tmp_path / "items.jsonl")
    pages = {item["page"]: item["tools"] for item in items if "page" in item}
    assert pages == {
        f"{site.origin}/page/shop": ["search", "subscribe"],
        f"{site.origin}/page/upload": ["upload"],
        f"{site.origin}/page/about": [],
    }
    landed = {item["tool"]: item for item in items if "tool" in item}
    assert sorted(landed) == ["search", "subscribe", "upload"]
    received = {r.path: r for r in site.received}

    # GET: the query replaced, the action path serialized as Chromium does (`|` and `^` escaped)
    search = landed["search"]
    assert search["request"]["url"] == (
        f"{site.origin}/page/results%7Call%5E?q=caf%C3%A9+%26+cr%C3%A8me&page=2"
    )
    assert received["/page/results%7Call%5E"].target == "/page/results%7Call%5E?q=caf%C3%A9+%26+cr%C3%A8me&page=2"
    assert search["result"]["result"] == [{"@type": "SearchResults"}]
    assert received["/page/results%7Call%5E"].headers["Referer"] == f"{site.origin}/page/shop"

    # POST without toolautosubmit (confirmed): 303 to /account, whose page sees the cookie
    login = received["/login"]
    assert login.method == "POST" and login.body == b"email=ada%40example.com"
    assert login.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert login.headers["Origin"] == site.origin
    subscribe = landed["subscribe"]["result"]
    assert subscribe["url"] == f"{site.origin}/account"
    assert subscribe["redirects"] == [f"{site.origin}/login"]
    assert subscribe["result"] == [{"@type": "Account", "user": "ada@example.com"}]

    # multipart: the body and its boundary are the engine's, byte for byte
    upload = landed["upload"]
    sent = received["/submit"]
    assert sent.method == "POST"
    assert sent.headers["Content-Type"] == upload["request"]["headers"]["Content-Type"]
    assert sent.body.decode("utf-8") == upload["request"]["body"]
    assert 'name="note"\r\n\r\nline one\r\nline two — é\r\n' in upload["request"]["body"]
    assert upload["result"]["result"][0]["body"] == sent.body.decode("latin-1")


@pytest.mark.parametrize("policy", ["no-referrer", "same-origin"])
def test_scrapy_adds_no_referer_the_page_policy_withholds(tmp_path: Path, policy: str) -> None:
    """A page whose referrer policy withholds ``Referer`` (``no-referrer``; ``same-origin`` to
    another origin) submits without one, in Scrapy as in the engine: Scrapy's RefererMiddleware
    added the page's whole URL under its own default policy."""
    with TestSite() as origin, TestSite() as other:
        other.put("results", RESULTS.encode())
        page = (
            f"<!doctype html><meta name=referrer content={policy}>"
            f"<form toolname=quiet tooldescription=Quiet action='{other.origin}/page/results' "
            "toolautosubmit><input name=q></form>"
        )
        origin.put("quiet", page.encode())
        items = crawl(f"{origin.origin}/page/quiet", tmp_path / "items.jsonl")
        engine = formtools.prepare_call(
            formtools.extract(page, base_url=f"{origin.origin}/page/quiet").tool("quiet"), CALLS["quiet"]["input"]
        ).request
        received = [r for r in other.received if r.path == "/page/results"]
    assert [item["tool"] for item in items if "tool" in item] == ["quiet"]
    assert engine is not None and engine.header("Referer") is None
    assert len(received) == 1 and received[0].headers.get("Referer") == engine.header("Referer")


def shop_response() -> HtmlResponse:
    return HtmlResponse(
        "https://shop.example/page/shop",
        body=SHOP.encode(),
        headers={"Content-Type": "text/html; charset=utf-8"},
    )


def test_the_scrapy_request_is_the_engine_request() -> None:
    (search, subscribe) = tools_of(shop_response())
    prepared = formtools.prepare_call(search, {"q": "a b"})
    request = tool_request(search, {"q": "a b"}, meta={"depth": 3}, dont_filter=True)
    assert (request.method, request.url, request.body) == ("GET", prepared.request.url, b"")
    assert request.url == "https://shop.example/page/results%7Call%5E?q=a+b&page=1"
    assert request.meta == {
        "depth": 3,
        "verbatim_url": True,
        "referrer_policy": prepared.request.referrer.policy,  # the page's, for Scrapy's RefererMiddleware
        REQUEST_KEY: prepared.request,
        FINISHING_KEY: prepared.finishing(),
    }
    assert request.dont_filter
    assert request.headers.to_unicode_dict() == dict(prepared.request.headers)

    posted = tool_request(subscribe, {"email": "x@y.example"}, confirm=True)
    assert (posted.method, posted.body) == ("POST", b"email=x%40y.example")
    assert posted.headers["Content-Type"] == b"application/x-www-form-urlencoded"


def test_calls_the_engine_refuses_never_become_requests() -> None:
    (search, subscribe) = tools_of(shop_response())
    with pytest.raises(formtools.SubmissionError, match="'subscribe'.*confirm=True"):
        tool_request(subscribe, {"email": "x@y.example"})
    with pytest.raises(formtools.InputError):
        tool_request(search, {"q": "a", "page": "many"})
    with pytest.raises(formtools.ValidationError):
        tool_request(subscribe, {"email": "not an address"}, confirm=True)
    dialog = HtmlResponse(
        "https://shop.example/",
        body=b"<form toolname=close tooldescription=c method=dialog toolautosubmit></form>",
        headers={"Content-Type": "text/html"},  # (untyped, Chromium would sniff "<form" as text)
    )
    with pytest.raises(formtools.SubmissionError, match="'close'.*dialog"):
        tool_request(tools_of(dialog)[0], {})


def test_pages_without_toolname_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []

    def counting(body: bytes, **kwargs: Any) -> formtools.Document:
        parsed.append(kwargs["url"])
        return formtools.parse_html(body, **kwargs)

    monkeypatch.setattr(formtools.scrapy, "parse_html", counting)
    plain = HtmlResponse("https://shop.example/about", body=ABOUT.encode(), encoding="utf-8")
    assert tools_of(plain) == []
    assert parsed == []
    assert [tool.name for tool in tools_of(shop_response())] == ["search", "subscribe"]
    # every form is there for diagnostics when asked
    assert len(extraction_of(plain).forms) == 1
    assert parsed == ["https://shop.example/page/shop", "https://shop.example/about"]
    # with all_forms the page has a <form, so it is parsed, and its form is an inferred tool
    (inferred,) = tools_of(plain, all_forms=True)
    assert inferred.inferred and inferred.to_dict() == formtools.extract_tools(
        ABOUT, base_url="https://shop.example/about", all_forms=True
    )[0].to_dict()
    assert len(parsed) == 3
    no_form = HtmlResponse("https://shop.example/empty", body=b"<p>toolname</p>", encoding="utf-8")
    assert tools_of(no_form, all_forms=True) == [] and len(parsed) == 3


def test_tools_of_a_response_a_browser_does_not_render_as_html_are_none() -> None:
    """tools_of parsed JSON, text, PNG and octet-stream bodies as HTML (a tool from a JSON
    response no browser registers); now only HTML, XHTML and an untyped response Chromium
    sniffs as HTML give tools, as in formtools batch: ``<form`` begins no tag its sniffer
    knows (text), ``<!doctype html>`` does."""
    from scrapy.http import Response

    # well-formed, its form in the XHTML namespace: an XHTML page Chromium registers the tool of
    body = b'<form xmlns="http://www.w3.org/1999/xhtml" toolname="t" tooldescription="d"><input name="q"/><button>go</button></form>'
    found = {}
    for kind in ("text/html", "application/xhtml+xml", "application/json", "text/plain",
                 "image/png", "application/octet-stream", None):
        headers = {"Content-Type": kind} if kind else {}
        response = Response("https://a.example/x", body=body, headers=headers)
        found[kind] = [tool.name for tool in tools_of(response)]
    found["sniffed"] = [tool.name for tool in tools_of(Response("https://a.example/x", body=b"<!doctype html>" + body))]
    assert found == {
        "text/html": ["t"], "application/xhtml+xml": ["t"], None: [], "sniffed": ["t"],
        "application/json": [], "text/plain": [], "image/png": [], "application/octet-stream": [],
    }


def test_tools_of_reads_a_head_as_the_fetch_reads_it() -> None:
    """Seeded heads from the lines tests/test_browser_heads.py ties to Chromium (types, lists of
    types, types without a slash, dispositions, nosniff spellings; 200 or 304), served by a raw
    server and read by formtools' own fetch (``extract URL``), and the same lines in a Scrapy
    response: ``tools_of`` finds what the fetch finds. Values Twisted trims before Scrapy sees
    them (white space at their ends) are not drawn. Before ``Head.answer_head``, Scrapy read
    a line listing values whole (``text/plain, text/html`` was text, ``inline, attachment`` a
    page) and a 304's body."""
    from scrapy.http import Headers, Response

    from tests.test_browser_heads import DISPOSITIONS, NOSNIFF, TYPES

    rng = random.Random(2026112941)
    body = b"<!doctype html><form toolname=t tooldescription=d action=/x><input name=q></form>"
    differences, kinds = [], set()
    with raw_site() as (origin, served):
        for number in range(40):
            lines = [("Content-Type", rng.choice(TYPES)) for _ in range(rng.choice([1, 2]))]
            if rng.random() < 0.3:
                lines.append(("Content-Disposition", rng.choice(DISPOSITIONS)))
            if rng.random() < 0.2:
                lines.append(("X-Content-Type-Options", rng.choice(NOSNIFF)))
            lines = [(name, value) for name, value in lines if value == value.strip()]
            status = rng.choice([200, 200, 200, 304])
            head = f"HTTP/1.1 {status} X\r\n" + "".join(f"{name}: {value}\r\n" for name, value in lines)
            served[f"/s{number}"] = f"{head}Content-Length: {len(body)}\r\n\r\n".encode("latin-1") + body
            url = f"{origin}/s{number}"
            try:
                fetched = [tool.name for tool in formtools.extract_tools(formtools.load_page(url))]
            except formtools.errors.FormtoolsError:
                fetched = []
            headers = Headers()
            for name, value in lines:
                headers.appendlist(name, value.encode("latin-1"))
            crawled = [tool.name for tool in tools_of(Response(url, status=status, headers=headers, body=body))]
            kinds.add(bool(fetched))
            if crawled != fetched:
                differences.append(f"{status} {lines}: fetch {fetched}, Scrapy {crawled}")
    assert not differences, "\n".join(differences)
    assert kinds == {True, False}, "the seed draws heads with tools and without"


LANDING = b'<!doctype html><script type="application/ld+json">{"@type": "Done"}</script><p>ok</p>'
# nested deeper than the fast path goes: the html5lib path, about 4 s (its time limit applies)
SLOW = b"<p><b><i>" * 20000 + LANDING


def test_a_landing_answer_gives_the_result_call_tool_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """result_of read every answer as an HTML page, with no parse time limit: a zip or an
    attachment gave a result where call_tool (and Chromium) give none, and a landing page built
    to cost the html5lib path more than its size held the crawl's reactor. Now seeded answers
    (8 types × 3 dispositions × a fast and a slow page, the limit made 0.2 s) give what
    formtools' own send path gives for the same answer."""
    from scrapy.http import Response

    from formtools._execute import send
    from formtools._net import Response as Fetched

    monkeypatch.setattr(send, "DEFAULT_TIME_LIMIT", 0.2)
    formtools.parse_html(LANDING)  # (the parser's first use loads it: not a page's time)
    kinds = ("text/html", "application/xhtml+xml", "text/plain", "application/json",
             "application/zip", "application/octet-stream", "text/html; charset=utf-8", None)
    compared = 0
    for kind in kinds:
        for disposition in (None, "attachment; filename=x.html", "inline"):
            for body in (LANDING, SLOW):
                headers = {k: v for k, v in (("Content-Type", kind), ("Content-Disposition", disposition)) if v}
                scrapy_answer = Response("https://a.example/done", status=201, body=body, headers=headers,
                                         request=scrapy.Request("https://a.example/done"))
                ours = send.landing_result(None, Fetched("https://a.example/done", 201, httpx.Headers(headers), body))
                assert result_of(scrapy_answer) == ours, (kind, disposition, body is SLOW)
                compared += 1
    assert compared == 48
    assert ours.withheld  # (the last: a slow page under the tiny limit)
    monkeypatch.setattr(formtools.scrapy, "DEFAULT_TIME_LIMIT", 0.2)
    with pytest.raises(formtools.ParseTimeLimit):
        tools_of(HtmlResponse("https://a.example/", body=SLOW + b"<form toolname=t>", encoding="utf-8"))


def test_a_response_tied_to_no_request_gives_the_result_of_a_plain_get() -> None:
    """A Scrapy response built from a stored body (``scrapy shell``, a cache, a test) has no
    request, and Scrapy refuses its ``meta`` with AttributeError: ``result_of`` raised it, out
    of a function that reads the method as GET when there is no request. Each seeded answer
    (types, statuses, dispositions) gives what it gives tied to a plain GET request."""
    import random

    from scrapy.http import Response

    rng = random.Random("no request")
    compared = 0
    for _ in range(12):
        headers = {"Content-Type": rng.choice(["text/html", "application/json", "application/zip", "text/plain"])}
        if rng.random() < 0.3:
            headers["Content-Disposition"] = "attachment; filename=x.html"
        status, body = rng.choice([200, 201, 404, 500]), rng.choice([LANDING, b"", b"<p>no data</p>"])
        alone = Response("https://a.example/done", status=status, body=body, headers=headers)
        tied = Response("https://a.example/done", status=status, body=body, headers=headers,
                        request=scrapy.Request("https://a.example/done"))
        assert result_of(alone) == result_of(tied), (headers, status, body)
        compared += 1
    assert compared == 12


def test_scrapy_sends_the_referer_the_engine_sends_from_pages_of_every_scheme() -> None:
    """Scrapy's own ``RefererMiddleware`` over the requests of seeded pages (``file:``,
    ``data:``, http(s); seeded referrer policies, ``unsafe-url`` among them) adds the
    ``Referer`` the engine's request carries: none from a page of an opaque origin, as Chromium
    sends none. Since ``Referrer.of`` gives such a page a state (``Origin: null``), the policy
    handed to Scrapy was the page's, and ``unsafe-url`` sent a ``file:`` page's local path."""
    import random

    from scrapy import Spider
    from scrapy.spidermiddlewares.referer import RefererMiddleware
    from scrapy.utils.test import get_crawler

    rng = random.Random(2303)
    pages = ["file:///home/ann/secret/page.html", "data:text/html,x", "https://a.example/p?q=1", "http://a.example/p"]
    policies = ["unsafe-url", "no-referrer-when-downgrade", "origin", "strict-origin-when-cross-origin", "same-origin"]
    middleware = RefererMiddleware.from_crawler(get_crawler(Spider))
    seen = []
    for _ in range(12):
        url, policy = rng.choice(pages), rng.choice(policies)
        action = rng.choice(["https://example.com/search", "http://a.example/s"])
        body = f"<!doctype html><meta name=referrer content={policy}><form toolname=s tooldescription=d action='{action}' toolautosubmit><input name=q></form>"
        response = HtmlResponse(url=url, body=body.encode(), encoding="utf-8", request=scrapy.Request(url))
        (tool,) = tools_of(response)
        engine = formtools.prepare_call(tool, {"q": "x"}).request
        (sent,) = middleware.process_spider_output(response, [tool_request(tool, {"q": "x"})])
        referer = sent.headers.get(b"Referer")
        seen.append((url, policy, None if referer is None else referer.decode(), engine.header("Referer")))
    assert any(url.startswith(("file:", "data:")) and policy == "unsafe-url" for url, policy, _, _ in seen), seen
    assert all(scrapys == engines for _, _, scrapys, engines in seen), seen
