"""WHATWG URLs (``formtools._spec.url``): the URL Standard's own test data, every case, and the
one step written here (the query in the document's encoding), against Chromium.

The tables in ``tests/data/url/`` are web-platform-tests' ``url/resources`` files, verbatim (see
the README there): ``urltestdata.json`` (parsing, with and without a base), ``toascii.json`` and
``IdnaTestV2.json`` (hosts, UTS 46 ToASCII), each run as wpt's own harness runs it
(``url-constructor.any.js``, ``url-origin.any.js``, ``toascii.any.js``, ``IdnaTestV2.any.js``).

``setters_tests.json`` is kept with them but not run: it tests the ``URL`` class's setters
(``url.host = …``), which formtools has no use for and does not expose. The one URL mutation
the form submission algorithm makes, "set parsed action's query component to query", assigns
the component; it is not the ``search`` setter (which re-encodes the value and turns ``""`` into
no query), and :meth:`Url.with_query` is tested below as that.

The ``browser`` tests ask Chromium 156: ``<a href>`` in a page of each of the 37 encodings for
the query step, ``new URL()`` on all of ``urltestdata.json`` for where Chromium's parser departs
from the standard (``chromium-departures.json``; ``FORMTOOLS_RECORD_URL_DEPARTURES=1`` records
it again), and ``<base href>``.
"""

from __future__ import annotations

import doctest
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from formtools._spec import url as url_module
from formtools._spec.encoding import _NAMES as ENCODINGS
from formtools._spec.url import (
    Url,
    can_parse,
    default_port,
    encode_query,
    frozen_base_url,
    is_special,
    parse,
    parse_host,
    resolve,
    same_origin,
)

DATA = Path(__file__).resolve().parent / "data" / "url"
COMPONENTS = (
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash",
)  # fmt: skip


def _table(name: str) -> list[dict[str, Any]]:
    """A wpt table's cases (the strings between them are comments)."""
    rows = json.loads((DATA / name).read_text(encoding="utf-8"))
    return [row for row in rows if isinstance(row, dict)]


def _id(text: str, limit: int = 100) -> str:
    shown = ascii(text)[1:-1]
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _parse_id(case: dict[str, Any]) -> str:
    base = case.get("base")
    return _id(case["input"]) + ("" if base is None else f" against {_id(base, 60)}")


URLTESTDATA = _table("urltestdata.json")
TOASCII = _table("toascii.json")
# IdnaTestV2.any.js: "cannot test empty string input through new URL()"
IDNA = [case for case in _table("IdnaTestV2.json") if case["input"] != ""]


def test_the_tables_are_all_there() -> None:
    """The counts of this copy of wpt (a new copy changes them on purpose)."""
    assert (len(URLTESTDATA), len(TOASCII), len(IDNA)) == (891, 87, 2670)


def test_doctests() -> None:
    assert doctest.testmod(url_module).failed == 0


# --- urltestdata.json: url-constructor.any.js and url-origin.any.js --------------------------


@pytest.mark.parametrize("case", URLTESTDATA, ids=[_parse_id(c) for c in URLTESTDATA])
def test_urltestdata(case: dict[str, Any]) -> None:
    parsed = parse(case["input"], case.get("base"), standard=True)
    if case.get("failure"):
        assert parsed is None
        assert not can_parse(case["input"], case.get("base"))
        return
    assert parsed is not None
    expected = {key: case[key] for key in (*COMPONENTS, "origin") if key in case}
    assert {key: getattr(parsed, key) for key in expected} == expected
    assert resolve(case["input"], case.get("base"), standard=True) == case["href"]
    # The query and fragment properties agree with the getters.
    assert (parsed.query or "") == parsed.search[1:] and (parsed.fragment or "") == parsed.hash[1:]


# --- hosts: toascii.any.js and IdnaTestV2.any.js -----------------------------------------------


def _check_host(text: str, encoded: str, output: str | None) -> None:
    """wpt's check: ``new URL("https://" + input + "/x")`` has ``output`` as host and hostname,
    or throws; :func:`parse_host` gives ``output`` from the input itself."""
    parsed = parse(f"https://{encoded}/x", standard=True)
    if output is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert (parsed.host, parsed.hostname, parsed.pathname, parsed.href) == (
            output, output, "/x", f"https://{output}/x",
        )  # fmt: skip
    assert parse_host(text) == output


@pytest.mark.parametrize("case", TOASCII, ids=[_id(c["input"]) for c in TOASCII])
def test_toascii(case: dict[str, Any]) -> None:
    _check_host(case["input"], case["input"], case["output"])


def _encode_host_ending_code_points(text: str) -> str:
    """IdnaTestV2.any.js: ``: / ? # \\`` percent-encoded so that they reach the host parser."""
    return "".join(f"%{ord(c):02X}" if c in ":/?#\\" else c for c in text)


@pytest.mark.parametrize("case", IDNA, ids=[_id(c["input"]) for c in IDNA])
def test_idna(case: dict[str, Any]) -> None:
    _check_host(case["input"], _encode_host_ending_code_points(case["input"]), case["output"])


# --- what the issue found urllib.parse getting wrong ------------------------------------------


@pytest.mark.parametrize(
    ("given", "base", "href"),
    [
        ("http://faß.de/", None, "http://xn--fa-hia.de/"),  # UTS 46, not IDNA 2003's fass.de
        ("http://0x7f.1/", None, "http://127.0.0.1/"),
        ("http://127.1/", None, "http://127.0.0.1/"),
        ("http://x:0443/", None, "http://x:443/"),
        ("http://x:80/", None, "http://x/"),
        ("https://x:443/", None, "https://x/"),
        ("http://[::ffff:127.0.0.1]/", None, "http://[::ffff:7f00:1]/"),
        ("http://EXAMPLE.com:/x", None, "http://example.com/x"),
        ("http://ex%41mple.com/", None, "http://example.com/"),
        ("\\\\h\\a\\b?c\\d", "http://x/", "http://h/a/b?c\\d"),
        ("/a/%2e%2E/./b/..%2f", "http://x/", "http://x/b/..%2f"),
        (" \t/a\n|b^?q=|^\r ", "http://x/", "http://x/a%7Cb%5E?q=|^"),  # the path set has ^; Chromium also encodes | (parse follows Chromium by default)
        ("javascript:alert(1)", "http://x/", "javascript:alert(1)"),
        ("data:text/html,<b>hi", "http://x/", "data:text/html,<b>hi"),
        ("about:blank", "http://x/", "about:blank"),
        ("mailto:a@b.example?subject=x y", None, "mailto:a@b.example?subject=x%20y"),
        ("", "http://x/p?q#f", "http://x/p?q"),
        ("#g", "http://x/p?q#f", "http://x/p?q#g"),
    ],
)
def test_what_urllib_gets_wrong(given: str, base: str | None, href: str) -> None:
    parsed = parse(given, base)
    assert parsed is not None and parsed.href == href


@pytest.mark.parametrize(
    "given", ["http://[::1", "http://a:99999/", "http://1.2.3.4.5.6/x", "//x", "http://a b/", "x"]
)
def test_failures(given: str) -> None:
    assert parse(given) is None
    assert resolve(given, None) is None


def test_components() -> None:
    parsed = parse("HTTPS://u:p@Example.com:8443/a/b?c=d#e")
    assert parsed == Url(
        href="https://u:p@example.com:8443/a/b?c=d#e", protocol="https:", username="u",
        password="p", host="example.com:8443", hostname="example.com", port="8443",
        pathname="/a/b", search="?c=d", hash="#e", origin="https://example.com:8443",
    )  # fmt: skip
    assert (parsed.scheme, parsed.is_special, parsed.port_number) == ("https", True, 8443)
    assert (parsed.query, parsed.fragment) == ("c=d", "e")
    assert parsed.href_without_fragment == "https://u:p@example.com:8443/a/b?c=d"
    assert str(parsed) == parsed.href


def test_empty_and_absent_query_and_fragment() -> None:
    bare = parse("http://x/p?#")
    assert bare is not None
    assert (bare.search, bare.hash, bare.query, bare.fragment) == ("", "", "", "")
    none = parse("http://x/p")
    assert none is not None and (none.query, none.fragment) == (None, None)


def test_with_query_assigns_the_component() -> None:
    """HTML's GET submission: the query replaced (even by an empty one), the fragment kept."""
    action = parse("https://a.example/find?old=1#top")
    assert action is not None
    assert action.with_query("q=a+b%26c").href == "https://a.example/find?q=a+b%26c#top"
    assert action.with_query("q=a+b%26c").search == "?q=a+b%26c"
    assert action.with_query("").href == "https://a.example/find?#top"
    assert action.with_query("").search == ""
    assert action.with_query(None).href == "https://a.example/find#top"
    assert action.with_query("x=1") == parse("https://a.example/find?x=1#top")


def test_ports_origins_and_schemes() -> None:
    assert [default_port(s) for s in ("http", "https", "ws", "wss", "ftp", "file", "mailto")] == [
        80, 443, 80, 443, 21, None, None,
    ]  # fmt: skip
    assert all(map(is_special, ("http", "https", "ws", "wss", "ftp", "file")))
    assert not any(map(is_special, ("HTTP", "mailto", "javascript", "data", "about", "blob")))
    a, b, c = parse("http://x/a"), parse("HTTP://X:80/b?c"), parse("https://x/")
    assert a is not None and b is not None and c is not None
    assert same_origin(a, b) and not same_origin(a, c)
    f, g = parse("file:///a"), parse("file:///a")
    assert f is not None and g is not None
    assert f.origin == "null" and not same_origin(f, g)  # each opaque origin is a new one
    assert (f.port_number, a.port_number, c.port_number) == (None, 80, 443)


def test_parse_host() -> None:
    assert parse_host("faß.de") == "xn--fa-hia.de"
    assert parse_host("0x7f.1") == "127.0.0.1"
    assert parse_host("[::ffff:127.0.0.1]") == "[::ffff:7f00:1]"
    assert parse_host("EX%41MPLE.com") == "example.com"
    for refused in ("", "a b", "a\tb", "a:80", "a/b", "a@b", "[::1", "a%2Fb", "xn--a.ß"):
        assert parse_host(refused) is None, refused


def test_lone_surrogates_are_u_fffd() -> None:
    parsed = parse("http://x/\ud800?\udfff#\ud800")
    assert parsed is not None and parsed.href == "http://x/%EF%BF%BD?%EF%BF%BD#%EF%BF%BD"


def test_a_base_can_be_a_parsed_url() -> None:
    base = parse("http://x/a/b")
    assert base is not None
    assert resolve("../c", base) == resolve("../c", "http://x/a/b") == "http://x/c"


# --- the query in the document's encoding -----------------------------------------------------

PAGE = "http://example.com/dir/form.html"


@pytest.mark.spec_step("exec-request-2")
@pytest.mark.parametrize(
    ("action", "encoding", "href"),
    [
        ("?q=é", "windows-1252", f"{PAGE}?q=%E9"),
        ("?q=é", "UTF-8", f"{PAGE}?q=%C3%A9"),
        ("?q=é", "latin1", f"{PAGE}?q=%E9"),  # any label
        ("?q=€", "windows-1252", f"{PAGE}?q=%80"),
        ("?q=日本", "Shift_JIS", f"{PAGE}?q=%93%FA%96{{"),
        ("?q=日本", "EUC-JP", f"{PAGE}?q=%C6%FC%CB%DC"),
        ("?q=日本", "gb18030", f"{PAGE}?q=%C8%D5%B1%BE"),
        ("?q=한국", "EUC-KR", f"{PAGE}?q=%C7%D1%B1%B9"),
        ("?q=☃", "windows-1252", f"{PAGE}?q=%26%239731%3B"),  # unencodable: &#9731;
        ("?q=é", "Shift_JIS", f"{PAGE}?q=%26%23233%3B"),
        ("?q=😀", "windows-1251", f"{PAGE}?q=%26%23128512%3B"),
        ("?q=&%23233;&amp;☃", "windows-1252", f"{PAGE}?q=&%23233;&amp;%26%239731%3B"),
        ("?q=&#233;", "windows-1252", f"{PAGE}?q=&#233;"),  # "#" starts the fragment
        ("?a='\"<> `", "windows-1252", f"{PAGE}?a=%27%22%3C%3E%20`"),
        ("?q=é#é", "windows-1252", f"{PAGE}?q=%E9#%C3%A9"),  # the fragment is UTF-8
        ("/é/?é", "windows-1252", "http://example.com/%C3%A9/?%E9"),  # the path is UTF-8
        ("https://u:é@faß.de/é?é", "windows-1252", "https://u:%C3%A9@xn--fa-hia.de/%C3%A9?%E9"),
        ("file:///p?é", "windows-1252", "file:///p?%E9"),
        ("ftp://h/?é", "windows-1252", "ftp://h/?%E9"),
        ("\t ?q=\né\r ", "windows-1252", f"{PAGE}?q=%E9"),
        ("?q=é", "UTF-16LE", f"{PAGE}?q=%C3%A9"),  # UTF-16 pages' URLs are UTF-8
        ("#f", "windows-1252", f"{PAGE}#f"),
        ("", "windows-1252", PAGE),
        ("?", "windows-1252", f"{PAGE}?"),
        ("?\u00a5\u203es\\\uff90\u4f69", "ISO-2022-JP", f"{PAGE}?%1B(J\\~s%1B(B\\%1B$B%_PP%1B(B"),
    ],
)
def test_the_query_is_in_the_documents_encoding(action: str, encoding: str, href: str) -> None:
    parsed = parse(action, PAGE, encoding=encoding)
    assert parsed is not None and parsed.href == href
    assert parse(action, PAGE, encoding=encoding, standard=True) == parsed  # special: no departure


def test_the_base_urls_query_is_not_encoded_again() -> None:
    """A query that comes from the base URL was encoded when the base was parsed."""
    assert resolve("", "http://x/?%E9", encoding="Shift_JIS") == "http://x/?%E9"
    assert resolve("#f", "http://x/?%C3%A9", encoding="windows-1252") == "http://x/?%C3%A9#f"


@pytest.mark.parametrize(
    ("action", "chromium", "standard"),
    [
        # the standard: ws and wss, and non-special URLs, are UTF-8; Chromium encodes them too
        ("ws://h/?é", "ws://h/?%E9", "ws://h/?%C3%A9"),
        ("wss://h/?☃", "wss://h/?%26%239731%3B", "wss://h/?%E2%98%83"),
        ("foo://h/?é", "foo://h/?%E9", "foo://h/?%C3%A9"),
        ("foo:/p?é", "foo:/p?%E9", "foo:/p?%C3%A9"),
        # … but not opaque paths; and Chromium percent-encodes ' in every query
        ("mailto:a@b?subject=é'", "mailto:a@b?subject=%C3%A9%27", "mailto:a@b?subject=%C3%A9'"),
        ("javascript:x?é'", "javascript:x?%C3%A9%27", "javascript:x?%C3%A9'"),
        ("data:,x?é'", "data:,x?%C3%A9%27", "data:,x?%C3%A9'"),
        ("foo://h/?'", "foo://h/?%27", "foo://h/?'"),
    ],
)
def test_where_chromium_departs_in_the_query(action: str, chromium: str, standard: str) -> None:
    assert resolve(action, PAGE, encoding="windows-1252") == chromium
    assert resolve(action, PAGE, encoding="windows-1252", standard=True) == standard


# wpt encoding/iso-2022-jp-encoder.html: a.href = "https://example.com/?" + input in an
# ISO-2022-JP page, a.search without its "?".
ISO_2022_JP = [
    ("s", "s"),
    ("\u00a5\u203es\\\uff90\u4f69", "%1B(J\\~s%1B(B\\%1B$B%_PP%1B(B"),
    ("\uff61", "%1B$B!%23%1B(B"),
    ("\u0393", "%1B$B&%23%1B(B"),
    ("\x0e\x0f\x1bx", "%26%2365533%3B%26%2365533%3B%26%2365533%3Bx"),
    ("\u203e\x0e\x0f\x1bx", "%1B(J~%26%2365533%3B%26%2365533%3B%26%2365533%3Bx%1B(B"),
    ("\uff61\x0e\x0f\x1bx", "%1B$B!%23%1B(B%26%2365533%3B%26%2365533%3B%26%2365533%3Bx"),
    ("\u0393\x0e\x0f\x1bx", "%1B$B&%23%1B(B%26%2365533%3B%26%2365533%3B%26%2365533%3Bx"),
    ("\ufffd", "%26%2365533%3B"),
    ("\u203e\ufffd", "%1B(J~%26%2365533%3B%1B(B"),
    ("\uff61\ufffd", "%1B$B!%23%1B(B%26%2365533%3B"),
]


@pytest.mark.parametrize(("query", "search"), ISO_2022_JP, ids=[_id(q) for q, _ in ISO_2022_JP])
def test_iso_2022_jp_is_stateful(query: str, search: str) -> None:
    assert encode_query(query, "ISO-2022-JP") == search
    parsed = parse("https://example.com/?" + query, encoding="ISO-2022-JP")
    assert parsed is not None and parsed.search == "?" + search


def test_encode_query_refuses_a_number_sign() -> None:
    with pytest.raises(ValueError):
        encode_query("a#b", "windows-1252")
    with pytest.raises(LookupError):
        parse("?x", PAGE, encoding="no-such-encoding")


# --- <base href> ----------------------------------------------------------------------------


def test_frozen_base_url() -> None:
    page = "https://example.com/a/page.html"
    assert frozen_base_url("/b/", page) == "https://example.com/b/"
    assert frozen_base_url("  https://other.example/x/ ", page) == "https://other.example/x/"
    assert frozen_base_url("data:text/html,x", page) == page
    assert frozen_base_url("javascript:void(0)", page) == page
    # Chromium parses it as UTF-8; the standard with the document's encoding
    assert frozen_base_url("?q=é", page, encoding="windows-1252") == f"{page}?q=%C3%A9"
    assert frozen_base_url("?q=é", page, encoding="windows-1252", standard=True) == f"{page}?q=%E9"
    # an href that does not parse: Chromium's base URL is invalid, the standard's the fallback
    assert frozen_base_url("http://[bad/", page) is None
    assert frozen_base_url("http://[bad/", page, standard=True) == page
    assert frozen_base_url("/b/", None) is None and frozen_base_url("http://x/", None) == "http://x/"


# --- Chromium 156 -----------------------------------------------------------------------------

HREF_TEMPLATES = [
    "?{}", "http://h.example/p?{}", "/p/é?{}#{}", "file:///p?{}", "ws://h/?{}", "wss://h/?{}",
    "foo://h/?{}", "foo:/p?{}", "ftp://h/?{}", "  ?{}\t\n", "javascript:x?{}", "mailto:a@b?{}",
    "https://h/é?{}#é",
]  # fmt: skip
QUERY_SAMPLES = [
    "é", "€", "☃", "日本", "\u00a5\u203e~\\", "ｱｲ", "Γ", "\ufffd", "😀", "&#233;",
    "'\"<> `{}|^", "%41%zz", "\x01\x7f", "\u0080", "ßΩЖ", "a=1&b=2", "\u0393\u203e\ufffdx\uff61\u00a5",
    "한국어", "繁體", "\x1b\x0e\x0fx", "中文€",
]  # fmt: skip


def _random_queries(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)

    def char() -> str:
        low, high = rng.choice([(0x20, 0x7F), (0xA0, 0x3000), (0x3000, 0xD800), (0xE000, 0xFFFE),
                                (0x10000, 0x30000)])  # fmt: skip
        return chr(rng.randrange(low, high)).replace("#", "")

    return ["".join(char() for _ in range(6)) for _ in range(count)]


_A_HREFS = """(hrefs) => hrefs.map(href => {
  const a = document.createElement("a"); a.setAttribute("href", href); return a.href; })"""


@pytest.mark.browser
def test_chromium_writes_queries_as_parse_does(chromium: Any) -> None:
    """``<a href>`` (encoding-parsing, as a form's action) in a page of every encoding."""
    hrefs = [t.replace("{}", q) for q in QUERY_SAMPLES + _random_queries(40, 5) for t in HREF_TEMPLATES]
    differ = []
    for name in ENCODINGS:
        if name == "replacement":
            continue  # a page is never decoded as replacement
        page = chromium.site.put(f"/url-{name}.html", b"<!doctype html><title>x</title>",
                                 f"text/html; charset={name}")  # fmt: skip
        chromium.page.goto(page)
        for href, got in zip(hrefs, chromium.page.evaluate(_A_HREFS, hrefs)):
            parsed = parse(href, page, encoding=name)
            mine = href if parsed is None else parsed.href  # a.href is the attribute then
            if mine != got:
                differ.append((name, href, mine, got))
    assert differ == [], f"{len(differ)} of {len(hrefs) * (len(ENCODINGS) - 1)}: {differ[:20]}"


_NEW_URLS = """(cases) => cases.map(([input, base]) => {
  try {
    const u = base === null ? new URL(input) : new URL(input, base);
    return {href: u.href, protocol: u.protocol, username: u.username, password: u.password,
            host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname,
            search: u.search, hash: u.hash, origin: u.origin};
  } catch (e) { return null; } })"""
DEPARTURES = DATA / "chromium-departures.json"
BROWSER_STAMP = Path(__file__).resolve().parent.parent / "fixtures" / "expected" / "BROWSER.json"


def _stamp() -> dict[str, Any]:
    """The browser every recording comes from (``fixtures/expected/BROWSER.json``)."""
    stamp: dict[str, Any] = json.loads(BROWSER_STAMP.read_text(encoding="utf-8"))
    return stamp


def test_chromium_departures_carry_the_stamp() -> None:
    """``chromium-departures.json`` is ``{"browser": STAMP, "departures": [...]}``, recorded with
    the browser and flags every other recording names."""
    recorded = json.loads(DEPARTURES.read_text(encoding="utf-8"))
    assert recorded["browser"] == _stamp()
    assert recorded["departures"], "a recording with no departure is not Chromium 156's"


@pytest.mark.browser
def test_chromium_departures_are_the_recorded_ones(chromium: Any) -> None:
    """Where Chromium's ``new URL()`` departs from the URL Standard on ``urltestdata.json``
    (the standard being what :func:`parse` does, as every case above shows).

    With ``FORMTOOLS_RECORD_URL_DEPARTURES=1`` the answer is recorded, stamped with the live
    browser, which must be the one ``BROWSER.json`` names (recordings of two browsers are never
    mixed; see ``scripts/_recording.py``, ``stamped``). Without it, the installed Chromium 156
    (Debian ships patch releases: 156.0.8078.79 recorded, .108 seen since) must depart exactly
    as recorded."""
    chromium.page.goto(chromium.site.put("/url-utf8.html", b"<!doctype html><title>x</title>"))
    cases = [[case["input"], case.get("base")] for case in URLTESTDATA]
    departures = []
    for (given, base), got in zip(cases, chromium.page.evaluate(_NEW_URLS, cases)):
        parsed = parse(given, base, standard=True)
        standard = None if parsed is None else {k: getattr(parsed, k) for k in (*COMPONENTS, "origin")}
        if standard != got:
            departures.append({"input": given, "base": base, "standard": standard, "chromium": got})
    if os.environ.get("FORMTOOLS_RECORD_URL_DEPARTURES") == "1":
        assert chromium.stamp == _stamp(), "not the browser fixtures/expected/BROWSER.json names"
        recording = {"browser": chromium.stamp, "departures": departures}
        DEPARTURES.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    recorded = json.loads(DEPARTURES.read_text(encoding="utf-8"))
    product = recorded["browser"]["product"], chromium.stamp["product"]
    assert departures == recorded["departures"], "recorded with %s, live %s" % product


@pytest.mark.browser
@pytest.mark.parametrize(
    ("encoding", "href"),
    [
        ("windows-1252", "?q=é"), ("Shift_JIS", "/dir/?日本"), ("UTF-8", "data:text/html,x"),
        ("UTF-8", "javascript:void(0)"), ("UTF-8", "http://[bad/"), ("UTF-8", "  /x/y/ "),
        ("UTF-8", "https://other.example/base/"), ("windows-1252", "//faß.de/a"),
    ],
)  # fmt: skip
def test_chromium_base_href(chromium: Any, encoding: str, href: str) -> None:
    body = f'<!doctype html><base href="{href}"><a href="y?é">1</a><a href="http://abs.example/z">2</a>'
    page = chromium.site.put(f"/url-base-{abs(hash((encoding, href)))}.html",
                             body.encode(encoding, "xmlcharrefreplace"), f"text/html; charset={encoding}")  # fmt: skip
    chromium.page.goto(page)
    base_uri, relative, absolute = chromium.page.evaluate(
        "[document.baseURI, ...Array.from(document.links, a => a.href)]"
    )
    base = frozen_base_url(href, page, encoding=encoding)
    assert absolute == "http://abs.example/z"
    if base is None:  # an invalid base URL: nothing relative resolves
        assert relative == "y?é"
    else:
        assert base_uri == base
        assert relative == resolve("y?é", base, encoding=encoding)
