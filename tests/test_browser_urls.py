"""URLs as Chromium resolves them, live (a host that ends in a number but is no IPv4 address, such
as ``a.b.c.1``, is a recorded departure: Chromium accepts it, the standard and formtools do not): a generator of hostile actions, ``formaction``s, ``<base
href>``s and page encodings, and formtools' request held to the request line that arrives at the
site (for hosts that reach it: IPv4 and IPv6 spellings of the loopback, zero-padded ports) and to
``form.action`` as Chromium serializes it (for hosts that do not: IDN, other IPv4/IPv6 forms).
"""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle, OracleError

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


def form(kind: str, host: str, path: str, method: str, name: str = "t") -> str:
    action = f"http://{host}/{path}" if kind in ("absolute", "formaction") else path
    form_action = "" if kind == "formaction" else f' action="{action}"'
    button = f'<button formaction="{action}">Go</button>' if kind == "formaction" else "<button>Go</button>"
    return f"<form toolname={name} tooldescription=d toolautosubmit method={method}{form_action}><input name=v>{button}</form>"


def page(kind: str, encoding: str, host: str, path: str, method: str) -> str:
    base = f'<base href="http://{host}/dir/">' if kind == "base" else ""
    return f'<meta charset="{encoding}">{base}' + form(kind, host, path, method)


@pytest.mark.spec_step("exec-request-2")
def test_submissions_arrive_where_formtools_sends_them(chromium: ChromiumOracle) -> None:
    """60 generated forms, those of the same encoding and ``<base>`` in one page whose calls are
    made in one load (``again``: the forms are reset before each; a document's encoding and base
    URL are all a form's action resolves with besides its own attributes)."""
    port = urlsplit(chromium.site.origin).port
    assert port is not None
    pages: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
    for number, (kind, encoding, host, path) in enumerate(cases(port, 60, seed=20261125)):
        method = "get" if number % 2 else "post"
        pages.setdefault((encoding, host if kind == "base" else None), []).append(
            (f"t{number}", form(kind, host, path, method, f"t{number}"))
        )
    checked = 0
    for number, ((encoding, base_host), forms) in enumerate(pages.items()):
        base = f'<base href="http://{base_host}/dir/">' if base_host is not None else ""
        html = f'<meta charset="{encoding}">{base}' + "".join(markup for _, markup in forms)
        body = html.encode(encoding, "xmlcharrefreplace")
        extraction = formtools.extract(body, base_url=f"{chromium.site.origin}/u/{number}/p")
        for name, markup in forms:
            answer = chromium.execute(body, name, {"v": "é"}, path=f"/u/{number}/p", content_type="text/html", again=True)
            request = formtools.prepare_call(extraction.tool(name), {"v": "é"}).request
            if answer.request is None:
                assert request is None or answer.error, (html, markup, answer)
                continue
            assert request is not None, (html, markup)
            sent = urlsplit(request.url)
            ours = sent.path + (f"?{sent.query}" if "?" in request.url.split("#")[0] else "")
            assert (answer.request.method, answer.request.url) == (request.method, ours), (html, markup)
            checked += 1
    assert checked >= 40


def test_offsite_actions_serialize_as_chromium_does(chromium: ChromiumOracle) -> None:
    """60 generated actions, those of the same encoding as forms of one page (a form's action
    resolves with the document's encoding and URL and its own attribute only): one load each."""
    from formtools._spec.url import parse

    rng = random.Random(7)
    by_encoding: dict[str, list[str]] = {}
    for _ in range(60):
        encoding = rng.choice(ENCODINGS)
        by_encoding.setdefault(encoding, []).append(f"http://{rng.choice(OFFSITE)}/{rng.choice(PATHS)}{rng.choice(QUERIES)}")
    departures = []
    for number, (encoding, actions) in enumerate(by_encoding.items()):
        html = f'<meta charset="{encoding}">' + "".join(f'<form action="{action}"></form>' for action in actions)
        url = chromium.site.put(f"/off/{number}", html.encode(encoding, "xmlcharrefreplace"), "text/html")
        chromium.page.goto(url)
        resolved = chromium.page.evaluate("[...document.forms].map((form) => form.action)")
        tool_page = html.replace("<form ", "<form toolname=t tooldescription=d toolautosubmit ")
        forms = formtools.extract(tool_page.encode(encoding, "xmlcharrefreplace"), base_url=url).forms
        assert len(resolved) == len(forms) == len(actions)
        for action, form, theirs in zip(actions, forms, resolved):
            ours = parse(form.attributes["action"], url, encoding=encoding)
            expected = ours.href if ours is not None else url  # an invalid action reflects as the page URL
            if theirs != expected:
                departures.append((encoding, action, theirs, expected))
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
    # one page per URL, a form per (host, method, rel) in it, each called in the one load
    variants = [(h, m, r) for h in (f"127.0.0.1:{port}", f"localhost:{port}") for m in ("get", "post") for r in ("", " rel=noreferrer")]
    for page_number, (page_path, query) in enumerate(REFERRER_PAGES):
        forms = [
            (f"t{number}", f"http://{host}/landing/{page_number}-{number}", method, rel)
            for number, (host, method, rel) in enumerate(variants)
        ]
        html = "".join(
            f"<form toolname={name} tooldescription=d toolautosubmit method={method}{rel} action='{action}'><input name=v></form>"
            for name, action, method, rel in forms
        )
        path = page_path.replace("page", f"page{page_number}")
        page_url = f"{chromium.site.origin}{path}{query}"
        extraction = formtools.extract(html.encode(), base_url=page_url)
        for name, action, method, rel in forms:
            answer = chromium.execute(html.encode(), name, {"v": "1"}, path=path, query=query, content_type="text/html", again=True)
            assert answer.request is not None, (html, name, answer)
            arrived = next(r for r in reversed(chromium.site.requests) if r.path == urlsplit(action).path)
            request = formtools.prepare_call(extraction.tool(name), {"v": "1"}).request
            assert request is not None
            ours = dict(request.headers)
            assert (arrived.header("Referer"), arrived.header("Origin") if method == "post" else None) == (
                ours.get("Referer"),
                ours.get("Origin"),
            ), (page_url, action, method, rel)
            checked += 1
    assert checked == 32


@pytest.mark.spec_step("exec-request-9")
def test_a_page_of_no_http_origin_posts_with_origin_null(chromium: ChromiumOracle, tmp_path: Path) -> None:
    """A page read from a file (``formtools call page.html``), a ``data:`` URL or ``about:blank``
    has an opaque origin: Chromium submits its form with no Referer and, on a POST,
    ``Origin: null``, where formtools sent no Origin at all. WebMCP is not offered to such
    pages (no ``document.modelContext``), so the form is submitted as a person would."""
    checked = 0
    for number, where in enumerate(("file", "data", "about")):
        html = f"<form method=post action='{chromium.site.origin}/opaque/{number}'><input name=v value=1></form>"
        page_url = {
            "file": (tmp_path / f"page{number}.html").as_uri(),
            "data": "data:text/html," + quote(html),
            "about": "about:blank",
        }[where]
        (tmp_path / f"page{number}.html").write_text(html)
        chromium.page.goto(page_url)
        if where == "about":
            chromium.page.set_content(html)
        # answered once the site has recorded it (204: the tab stays on the page)
        with chromium.site.without_landing(), chromium.page.expect_response(f"**/opaque/{number}*"):
            chromium.page.evaluate("document.forms[0].requestSubmit()")
        arrived = next(r for r in reversed(chromium.site.requests) if r.path == f"/opaque/{number}")
        (tool,) = formtools.extract_tools(html, base_url=page_url, all_forms=True)
        request = formtools.prepare_call(tool, {}).request
        assert request is not None
        assert (arrived.header("Referer"), arrived.header("Origin")) == (
            request.header("Referer"),
            request.header("Origin"),
        ), page_url
        checked += 1
    assert checked == 3


# <meta name=referrer> where and how pages write it; each measured against Chromium 156 below
META_REFERRERS = [
    "<head><meta name=referrer content=no-referrer></head>",
    "<head><meta name=referrer content=origin></head>",
    "<body><p>x<meta name=referrer content=no-referrer>",
    "<head><meta name=referrer content=no-referrer><meta name=referrer content=unsafe-url></head>",
    "<head><meta name=referrer content=origin><meta name=referrer content=bogus></head>",
    "<head><meta name=referrer content=never></head>",
    "<head><meta name=referrer content=always></head>",
    "<head><meta name=referrer content=default></head>",
    "<head><meta name=referrer content=origin-when-crossorigin></head>",
    "<head><meta name=REFERRER content=NO-REFERRER></head>",
    "<head><meta name=referrer content=' origin '></head>",
    "<head><meta name=referrer content='no-referrer, unsafe-url'></head>",
    "<head><meta name=referrer content=''></head>",
    "<head><meta name=referrer content=same-origin></head>",
    "<head><meta name=referrer content=strict-origin></head>",
    "<head><meta name=referrer content=no-referrer-when-downgrade></head>",
    "<head><meta name=referrer content=origin-when-cross-origin></head>",
    "<head><template><meta name=referrer content=no-referrer></template></head>",
    "<head><noscript><meta name=referrer content=no-referrer></noscript></head>",
    "<head><meta http-equiv=referrer content=no-referrer></head>",
    "<body><svg><meta name=referrer content=no-referrer></svg>",
]


@pytest.mark.spec_step("exec-request-9")
def test_meta_referrer_policies_are_chromiums(chromium: ChromiumOracle) -> None:
    """A page's ``<meta name=referrer>`` decides Referer and Origin: before, formtools always
    applied the default policy (a ``no-referrer`` page still sent its full URL)."""
    port = urlsplit(chromium.site.origin).port
    checked = 0
    variants = [(h, v) for h in (f"127.0.0.1:{port}", f"localhost:{port}") for v in ("get", "post")]
    for meta_number, meta in enumerate(META_REFERRERS):
        # the meta before the forms (the head's, the page's start) and after them (which counts as
        # well): a page each, each form called in its one load
        for after in (False, True):
            forms = [
                (f"t{number}", f"/meta/{meta_number}-{number}-{after:d}", host, method)
                for number, (host, method) in enumerate(variants)
                if (number % 3 == 0) == after
            ]
            markup = "".join(
                f"<form toolname={name} tooldescription=d toolautosubmit method={method} action='http://{host}{land}'><input name=v></form>"
                for name, land, host, method in forms
            )
            html = (markup + meta) if after else (meta + markup)
            path = f"/m/page{meta_number}-{after:d}"
            extraction = formtools.extract(html.encode(), base_url=f"{chromium.site.origin}{path}?q=1")
            for name, land, host, method in forms:
                chromium.execute(html.encode(), name, {"v": "1"}, path=path, query="?q=1", content_type="text/html", again=True)
                arrived = next(r for r in reversed(chromium.site.requests) if r.path == land)
                request = formtools.prepare_call(extraction.tool(name), {"v": "1"}).request
                assert request is not None
                assert (arrived.header("Referer"), arrived.header("Origin")) == (
                    request.header("Referer"),
                    request.header("Origin"),
                ), (html, host, method)
                checked += 1
    assert checked == len(META_REFERRERS) * 4


Hop = tuple[str, str, "str | None", "str | None"]


def _hops_both_send(
    chromium: ChromiumOracle, forms: list[tuple[str, tuple[str, str]]], path: str, meta: str = ""
) -> list[tuple[list[Hop], list[Hop]]]:
    """For each of ``forms`` (a tool name and the two paths its submission takes: the redirect
    and where it lands), the requests (path, method, Referer, Origin) that reached those paths
    when Chromium called the tool, and those formtools' call of the same tool sent to the same
    site. The forms are one page, after ``meta``, each called in its one load (``again``)."""
    site = chromium.site
    html = meta + "".join(
        f"<form toolname={name} tooldescription=d toolautosubmit method=post action='{hop}'><input name=v></form>"
        for name, (hop, _) in forms
    )
    extraction = formtools.extract(html.encode(), base_url=f"{site.origin}{path}?q=1")
    both = []
    for name, (hop, land) in forms:
        paths = (urlsplit(hop).path, land)
        seen = len(site.requests)
        chromium.execute(html.encode(), name, {"v": "1"}, path=path, query="?q=1", content_type="text/html", again=True)
        browser = [(r.path, r.method, r.header("Referer"), r.header("Origin")) for r in site.requests[seen:] if r.path in paths]
        seen = len(site.requests)
        formtools.call_tool(extraction.tool(name), {"v": "1"})
        both.append((browser, [(r.path, r.method, r.header("Referer"), r.header("Origin")) for r in site.requests[seen:]]))
    return both


@pytest.mark.spec_step("exec-request-9")
def test_redirect_hops_carry_chromiums_referer_and_origin(chromium: ChromiumOracle) -> None:
    """Every hop of a submission's redirect chain, sent by formtools to the same site, carries
    the Referer and Origin Chromium's hop carried: the policy applied to the referrer the previous
    hop sent (so a detour through another origin keeps it cut), Origin ``null`` after a
    cross-origin redirect. Before, the first hop's headers went unchanged to every hop. A page
    per policy, a form per (status, chain) in it."""
    site = chromium.site
    port = urlsplit(site.origin).port
    checked = 0
    chains = [("127.0.0.1", "localhost"), ("localhost", "127.0.0.1"), ("127.0.0.1", "127.0.0.1"), ("localhost", "localhost")]
    for page_number, policy in enumerate(("", "no-referrer", "same-origin", "origin-when-cross-origin", "unsafe-url")):
        forms, labels = [], []
        for number, (status, (first, second)) in enumerate((s, c) for s in (302, 307, 303) for c in chains):
            hop, land = f"/hop/{page_number}-{number}", f"/land/{page_number}-{number}"
            site.redirect(hop, f"http://{second}:{port}{land}", status)
            forms.append((f"t{number}", (f"http://{first}:{port}{hop}", land)))
            labels.append((policy, status, first, second))
        meta = f"<meta name=referrer content={policy}>" if policy else ""
        for label, (browser, ours) in zip(labels, _hops_both_send(chromium, forms, f"/redirecting/{page_number}", meta)):
            assert len(browser) == 2 and ours == browser, label
            checked += 1
    assert checked == 60
    chromium.renew_page()  # a tab that followed redirected submissions stalls the next test's loads


def _downgrade_cases(https_origin: str, port: int) -> list[tuple[str, str, str, str]]:
    http_loopback, http_host = f"http://127.0.0.1:{port}", f"http://shop.test:{port}"
    policies = ("", "no-referrer-when-downgrade", "strict-origin", "same-origin", "origin-when-cross-origin")
    # Left out: pages on the mapped ordinary host, whose submissions Chromium's Local Network
    # Access blocks here (the host resolves to loopback; formtools does not model LNA, and the
    # bridge refuses private targets anyway). A blocked call costs the oracle its wait, so the
    # Mixed Content pair (an https page, an untrustworthy http target) is tried once a method.
    pairs = ((https_origin, http_loopback), (http_loopback, http_loopback), (http_loopback, http_host))
    cases = [(page, target, policy, method) for page, target in pairs for policy in policies for method in ("get", "post")]
    return cases + [(https_origin, http_host, "", method) for method in ("get", "post")]


def _measure_downgrades() -> list[tuple[str, str, tuple[str | None, str | None] | None]]:
    """Run in a thread of its own (Playwright's sync API allows one instance a thread, and the
    session's oracle holds this one): Chromium that accepts a throwaway certificate and resolves
    ``shop.test`` to 127.0.0.1, an https page server next to its http site. Returns, per case, the
    page URL, the form and the (Referer, Origin) that arrived, or None when nothing did."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from tests.support.hostile import certificates

    server_context, _, _ = certificates("localhost")
    tls_pages: dict[str, bytes] = {}

    class Pages(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = tls_pages.get(self.path.partition("?")[0], b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    server.socket = server_context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    https_origin = f"https://localhost:{server.server_address[1]}"
    # HTTPS-Upgrades would try https://shop.test first and wait for the fallback: a navigation
    # feature of its own, which formtools does not model, so it is off here
    flags = ["--ignore-certificate-errors", "--host-resolver-rules=MAP shop.test 127.0.0.1",
             "--disable-features=HttpsUpgrades"]
    measured = []
    try:
        with ChromiumOracle(extra_args=flags) as chromium:
            port = urlsplit(chromium.site.origin).port
            assert port is not None
            for number, (page, target, policy, method) in enumerate(_downgrade_cases(https_origin, port)):
                meta = f"<meta name=referrer content={policy}>" if policy else ""
                html = meta + (
                    f"<form toolname=t tooldescription=d toolautosubmit method={method} "
                    f"action='{target}/tls-land/{number}'><input name=v></form>"
                )
                path = f"/tls-page/{number}"
                if page == https_origin:
                    tls_pages[path] = html.encode()
                else:
                    chromium.site.put(path, html.encode())
                page_url = f"{page}{path}?q=1"
                seen = len(chromium.site.requests)
                try:
                    answer = chromium.execute_at(page_url, "t", {"v": "1"})
                except OracleError:  # "navigated, but no request arrived": a blocked navigation
                    chromium.renew_page()
                    answer = None
                arrived = next((r for r in chromium.site.requests[seen:] if r.path == f"/tls-land/{number}"), None)
                # the oracle sees each submission that arrived (one to http://shop.test carries no
                # Fetch Metadata; the oracle took it for none and waited 5 s)
                assert (arrived is None) == (answer is None or answer.request is None), (page_url, arrived)
                headers = None if arrived is None else (arrived.header("Referer"), arrived.header("Origin"))
                measured.append((page_url, html, headers))
    finally:
        server.shutdown()
        server.server_close()
    return measured


def test_downgrades_and_trustworthy_origins_are_chromiums() -> None:
    """Referer and Origin across security levels: an https page and an http page on a loopback
    address (potentially trustworthy, Secure Contexts) submitting to a trustworthy and an
    untrustworthy http address, under the policies that look at downgrades. Chromium drops the
    Referer for any https → http request (the standard would keep it towards a trustworthy
    loopback address), and an https page's form aimed at an untrustworthy http address is never
    submitted (Mixed Content: ``executeTool`` resolves ``null``): formtools makes no request either."""
    import concurrent.futures
    import os

    from formtools._conformance.browser import CHROMIUM

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        measured = worker.submit(_measure_downgrades).result()
    blocked = 0
    for page_url, html, arrived in measured:
        (tool,) = formtools.extract_tools(html.encode(), base_url=page_url)
        request = formtools.prepare_call(tool, {"v": "1"}).request
        if arrived is None:
            assert request is None, (page_url, html, "Chromium sent nothing")
            blocked += 1
            continue
        assert request is not None, (page_url, html, "Chromium sent it")
        assert arrived == (request.header("Referer"), request.header("Origin")), (page_url, html)
    assert len(measured) == 32 and blocked == 2


# Referrer-Policy response headers as sites send them, alone and with a <meta name=referrer>
HEADER_POLICIES = [
    ("no-referrer", ""),
    ("origin", ""),
    ("same-origin", ""),
    ("unsafe-url, bogus", ""),
    ("bogus, origin", ""),
    ("no-referrer,unsafe-url", ""),
    ("ORIGIN", ""),
    (" origin ", ""),
    ("origin-when-cross-origin, strict-origin-when-cross-origin", ""),
    ("no-referrer", "<meta name=referrer content=unsafe-url>"),
    ("unsafe-url", "<meta name=referrer content=bogus>"),
]


@pytest.mark.spec_step("exec-request-9")
def test_referrer_policy_headers_are_chromiums(chromium: ChromiumOracle) -> None:
    """A fetched page's ``Referrer-Policy`` header sets its policy (the last valid token of the
    list), a valid ``<meta name=referrer>`` overrides it: formtools loading the page from the same
    server sends what Chromium sent."""
    from formtools._parse.sources import load_page

    site = chromium.site
    port = urlsplit(site.origin).port
    checked = 0
    variants = [(h, m) for h in (f"127.0.0.1:{port}", f"localhost:{port}") for m in ("get", "post")]
    for page_number, (header, meta) in enumerate(HEADER_POLICIES):
        # a page per policy, a form per (host, method) in it, each called in its one load
        forms = [(f"t{number}", f"/rp/{page_number}-{number}", host, method) for number, (host, method) in enumerate(variants)]
        html = meta + "".join(
            f"<form toolname={name} tooldescription=d toolautosubmit method={method} action='http://{host}{land}'>"
            "<input name=v></form>"
            for name, land, host, method in forms
        )
        url = site.put(f"/rp-page/{page_number}", html.encode(), headers=[("Referrer-Policy", header)])
        tools = {tool.name: tool for tool in formtools.synthesize(load_page(url + "?q=1")).tools}
        for name, land, host, method in forms:
            chromium.execute_at(url + "?q=1", name, {"v": "1"}, again=True)
            arrived = next(r for r in reversed(site.requests) if r.path == land)
            request = formtools.prepare_call(tools[name], {"v": "1"}).request
            assert request is not None
            assert (arrived.header("Referer"), arrived.header("Origin")) == (
                request.header("Referer"),
                request.header("Origin"),
            ), (header, meta, host, method)
            checked += 1
    assert checked == len(HEADER_POLICIES) * 4


@pytest.mark.spec_step("exec-request-9")
def test_a_redirects_referrer_policy_header_holds_for_the_next_hops(chromium: ChromiumOracle) -> None:
    """Fetch's HTTP-redirect fetch: a redirect's ``Referrer-Policy`` header becomes the request's
    policy for the hops after it (here the page's default meets a redirect saying otherwise)."""
    site = chromium.site
    port = urlsplit(site.origin).port
    forms, labels = [], []
    for number, (policy, status, second) in enumerate(
        (p, s, h) for p in ("no-referrer", "unsafe-url", "origin", "same-origin") for s in (302, 307)
        for h in ("127.0.0.1", "localhost")
    ):
        hop, land = f"/rp-hop/{number}", f"/rp-land/{number}"
        site.redirect(hop, f"http://{second}:{port}{land}", status, headers=[("Referrer-Policy", policy)])
        forms.append((f"t{number}", (f"{site.origin}{hop}", land)))
        labels.append((policy, status, second))
    # one page, a form per redirect, each called in its one load
    checked = 0
    for label, (browser, ours) in zip(labels, _hops_both_send(chromium, forms, "/rp-redirecting")):
        assert len(browser) == 2 and ours == browser, label
        checked += 1
    assert checked == 16
    chromium.renew_page()  # as above


def test_a_url_longer_than_chromium_goes_to_is_blocked_as_in_chromium(chromium: ChromiumOracle) -> None:
    """A URL grows when it is parsed: a GET form's query writes each ``é`` of a value as
    ``%C3%A9``, six characters. Past ``url::kMaxURLChars`` (2 MiB) Chromium goes nowhere: the
    submission lands on ``about:blank#blocked`` and a page is not loaded; formtools built and
    sent the request, and fetched the page. Read from the browser here, at the bound and one
    past it, as the page's URL after the submission and after a load: formtools' request (or
    ``navigation-blocked``) goes where Chromium's page went, and a page URL past the bound is a
    one-line error where Chromium's load is aborted."""
    from formtools._spec.limits import MAX_URL_CHARS

    markup = ("<meta charset=utf-8><form id=f toolname=t tooldescription=d toolautosubmit action=/long>"
              "<input name=q id=q></form>")
    url = chromium.site.put("/long-url-form", markup.encode())
    (tool,) = formtools.extract_tools(markup, base_url=url)
    prefix = chromium.site.origin + "/long?q="
    page = chromium.page
    try:
        for length in (MAX_URL_CHARS, MAX_URL_CHARS + 1):
            six, rest = divmod(length - len(prefix), 6)
            value = "é" * six + "a" * rest
            page.goto(url)
            with page.expect_navigation(wait_until="commit", timeout=60_000):
                page.evaluate("v => { document.getElementById('q').value = v; document.getElementById('f').submit() }", value)
            outcome = formtools.prepare_call(tool, {"q": value}).outcome
            assert (len(page.url), page.url[:40]) == (len(outcome.url or ""), (outcome.url or "")[:40]), length
            assert getattr(outcome, "reason", None) == (None if length == MAX_URL_CHARS else "navigation-blocked")
        too_long = chromium.site.origin + "/p?" + "a" * MAX_URL_CHARS
        with pytest.raises(Exception, match="ERR_ABORTED"):
            page.goto(too_long)
        with pytest.raises(formtools.FormtoolsError, match="past 2,097,152, the longest URL Chromium goes to"):
            formtools.load_page(too_long)
    finally:
        chromium.renew_page()
