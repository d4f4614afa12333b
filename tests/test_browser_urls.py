"""URLs as Chromium resolves them, live (a host that ends in a number but is no IPv4 address, such
as ``a.b.c.1``, is a recorded departure: Chromium accepts it, the standard and formtools do not): a generator of hostile actions, ``formaction``s, ``<base
href>``s and page encodings, and formtools' request held to the request line that arrives at the
site (for hosts that reach it: IPv4 and IPv6 spellings of the loopback, zero-padded ports) and to
``form.action`` as Chromium serializes it (for hosts that do not: IDN, other IPv4/IPv6 forms).
"""

from __future__ import annotations

import random
from urllib.parse import urlsplit

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle

pytestmark = pytest.mark.browser

PATHS = ["a b", "%2e%2e/x", "./../y/./z", "sub\\back\\slash", "p|q^r`s", "é/ü", "t\\tab\\nnl", "%7e~", "x?y=1#frag"]
QUERIES = ["", "?q=é", "?a=|^`{}", "?%41%zz", "?'quote'", "?q=日本", "?"]
ENCODINGS = ["utf-8", "windows-1252", "shift_jis", "euc-kr", "gb18030"]


def loopback_hosts(port: int) -> list[str]:
    return [
        f"127.0.0.1:{port}", f"0x7f.1:{port}", f"127.1:{port}", f"2130706433:{port}",
        f"0177.0.0.1:{port}", f"127.0.0.1:0{port}", f"LOCALHOST:{port}", f"127.0.0.1.:{port}",
    ]


OFFSITE = [
    "faß.de", "xn--fa-hia.de", "ÉXAMPLE.com", "[::ffff:127.0.0.1]", "[0:0::1]", "0x7f.0.0.1",
    "example.com:80", "example.com:0443", "example.com:", "[::1]:8080", "%41.example",
    "ex%2Emple.com", "sub.例え.jp",
]


def cases(port: int, count: int, seed: int) -> list[tuple[str, str, str, str]]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        encoding = rng.choice(ENCODINGS)
        path = rng.choice(PATHS) + rng.choice(QUERIES)
        kind = rng.choice(["absolute", "relative", "base", "formaction"])
        host = rng.choice(loopback_hosts(port))
        found.append((kind, encoding, host, path))
    return found


def page(kind: str, encoding: str, host: str, path: str, method: str) -> str:
    action = f"http://{host}/{path}" if kind in ("absolute", "formaction") else path
    base = f'<base href="http://{host}/dir/">' if kind == "base" else ""
    form_action = "" if kind == "formaction" else f' action="{action}"'
    button = f'<button formaction="{action}">Go</button>' if kind == "formaction" else "<button>Go</button>"
    return (
        f'<meta charset="{encoding}">{base}<form toolname=t tooldescription=d toolautosubmit method={method}'
        f"{form_action}><input name=v>{button}</form>"
    )


@pytest.mark.spec_step("exec-request-2")
def test_submissions_arrive_where_formtools_sends_them(chromium: ChromiumOracle) -> None:
    port = urlsplit(chromium.site.origin).port
    assert port is not None
    checked = 0
    for number, (kind, encoding, host, path) in enumerate(cases(port, 60, seed=20261125)):
        method = "get" if number % 2 else "post"
        html = page(kind, encoding, host, path, method)
        body = html.encode(encoding, "xmlcharrefreplace")
        answer = chromium.execute(body, "t", {"v": "é"}, path=f"/u/{number}/p", content_type="text/html")
        (tool,) = formtools.extract_tools(body, base_url=f"{chromium.site.origin}/u/{number}/p")
        request = formtools.prepare_call(tool, {"v": "é"}).request
        if answer.request is None:
            assert request is None or answer.error, (html, answer)
            continue
        assert request is not None, html
        sent = urlsplit(request.url)
        ours = sent.path + (f"?{sent.query}" if "?" in request.url.split("#")[0] else "")
        assert (answer.request.method, answer.request.url) == (request.method, ours), html
        checked += 1
    assert checked >= 40


def test_offsite_actions_serialize_as_chromium_does(chromium: ChromiumOracle) -> None:
    rng = random.Random(7)
    pages = []
    for number in range(60):
        encoding = rng.choice(ENCODINGS)
        action = f"http://{rng.choice(OFFSITE)}/{rng.choice(PATHS)}{rng.choice(QUERIES)}"
        pages.append((encoding, action))
    departures = []
    for number, (encoding, action) in enumerate(pages):
        html = f'<meta charset="{encoding}"><form action="{action}"></form>'
        url = chromium.site.put(f"/off/{number}", html.encode(encoding, "xmlcharrefreplace"), "text/html")
        chromium.page.goto(url)
        resolved = chromium.page.evaluate("document.forms[0].action")
        tool_page = html.replace("<form ", "<form toolname=t tooldescription=d toolautosubmit ")
        (tool,) = formtools.extract_tools(tool_page.encode(encoding, "xmlcharrefreplace"), base_url=url)
        from formtools._spec.url import parse

        ours = parse(tool.form.attributes["action"], url, encoding=encoding)
        expected = ours.href if ours is not None else url  # an invalid action reflects as the page URL
        if resolved != expected:
            departures.append((encoding, action, resolved, expected))
    assert not departures, departures


REFERRER_PAGES = [("/r/page", ""), ("/r/page", "?x=1&y=é"), ("/r/deep/er/page", "?q#frag"), ("/r/%7Eweird%20page/", "")]


@pytest.mark.spec_step("exec-request-9")
def test_referer_and_origin_are_chromiums(chromium: ChromiumOracle) -> None:
    """Referer and Origin as Chromium sends them (default policy strict-origin-when-cross-origin):
    the page's URL without fragment to its own origin, only its origin to another origin
    (``localhost`` is another origin than ``127.0.0.1``, served by the same site), Origin on
    POST only. A form's ``rel=noreferrer`` would, by HTML's form submission, mean no Referer and
    ``Origin: null``; Chromium 156 sends both anyway on a tool call (measured here), and formtools
    follows the browser."""
    port = urlsplit(chromium.site.origin).port
    checked = 0
    for number, ((page_path, query), host, method, rel) in enumerate(
        (p, h, m, r) for p in REFERRER_PAGES for h in (f"127.0.0.1:{port}", f"localhost:{port}")
        for m in ("get", "post") for r in ("", " rel=noreferrer")
    ):
        action = f"http://{host}/landing/{number}"
        html = f"<form toolname=t tooldescription=d toolautosubmit method={method}{rel} action='{action}'><input name=v></form>"
        path = page_path.replace("page", f"page{number}")
        answer = chromium.execute(html.encode(), "t", {"v": "1"}, path=path, query=query, content_type="text/html")
        assert answer.request is not None, (html, answer)
        arrived = next(r for r in reversed(chromium.site.requests) if r.path == f"/landing/{number}")
        page_url = f"{chromium.site.origin}{path}{query}"
        (tool,) = formtools.extract_tools(html.encode(), base_url=page_url)
        request = formtools.prepare_call(tool, {"v": "1"}).request
        assert request is not None
        ours = dict(request.headers)
        assert (arrived.header("Referer"), arrived.header("Origin") if method == "post" else None) == (
            ours.get("Referer"),
            ours.get("Origin"),
        ), (page_url, action, method)
        checked += 1
    assert checked == 32
