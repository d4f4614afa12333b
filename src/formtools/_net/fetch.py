"""The one bounded fetch: :func:`fetch`, :func:`afetch` and the reusable :class:`Fetcher` /
:class:`AsyncFetcher`.

Page loading, sending a submission, the MCP bridge and batch all make the same request: a URL
from somewhere untrusted, answered by a server that may be hostile. Each needs the same four
bounds, so they live here once:

- **a target guard** on every hop (:mod:`formtools._net.guard`): http/https only, and — unless
  the policy allows private targets — no loopback, private, link-local or otherwise non-public
  address, judged on the addresses actually connected to;
- **one deadline** for the whole fetch: connecting, every redirect and every body byte;
- **a byte cap** on every body, counted after content decoding (a gzip bomb is cut too; a
  body ends where its coded data ends, bytes sent after it are not read);
- **a redirect cap**, redirects being followed here, one guarded hop at a time, the way
  browsers follow them (the Fetch standard): 303, and 301/302 after a POST, become a GET
  without a body; 307/308 resend the request as it was; a redirect to another origin drops
  every header of the caller's but the CORS-safelisted ones (``Authorization``, an API key, a
  custom header are meant for the origin asked); a location without a fragment keeps the one
  the URL had.

Cookies, when a jar is given, are sent and stored on every hop, as a browser does, and as a
browser refuses a cookie for a public suffix (``Domain=github.io``), so are they here. A
``SameSite`` cookie is sent on a cross-site request only where Chromium sends it: each hop is
same-site or not by its initiator (the page a form is on) and its own URL (:class:`Initiator`).
"""

from __future__ import annotations

import base64
import contextvars
import functools
import ipaddress
import itertools
import logging
import os
import re
import ssl
import time
import weakref
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from email.message import Message
from dataclasses import dataclass, field, replace
from typing import Self
from urllib.parse import unquote, urlsplit
from urllib.request import Request as CookieRequest

import ada_url
import anyio
import httpcore
import httpx
from publicsuffixlist import PublicSuffixList

from formtools._spec.csp import form_action_blocker
from formtools._spec.limits import MAX_PAGE_BYTES, MAX_URL_CHARS
from formtools._spec.mime import AnswerHead
from formtools._spec.referrer import Referrer, policy_from_header, potentially_trustworthy
from formtools._spec.url import parse
from formtools.errors import UsageProblem, quoted
from formtools._spec.coding import CodingError, Decoder, codings_to_undo, decoder, refused_codings, too_many_codings
from formtools._net.errors import (
    shown,
    UnfollowedRedirect,
    Blocked,
    FetchError,
    FetchTimeout,
    TooLarge,
    TooManyRedirects,
    Unreachable,
)
from formtools._net.guard import (
    ALLOWED_SCHEMES,
    Refusal,
    check_url,
    checked,
    resolved,
)
from formtools._net.head import HeadReader
from formtools._net.transport import (
    CLOCK,
    AsyncGuardedBackend,
    Clock,
    GuardedBackend,
    resolve_bounded,
)

__all__ = [
    "HTTP_LOGGERS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_TIMEOUT",
    "AsyncFetcher",
    "BrowserCookiePolicy",
    "FetchPolicy",
    "Fetcher",
    "Initiator",
    "Response",
    "acheck_target",
    "afetch",
    "check_target",
    "cookie_jar",
    "deadline",
    "fetch",
]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = MAX_PAGE_BYTES
DEFAULT_MAX_REDIRECTS = 20  # the Fetch standard's limit, and httpx's

#: What a header argument may be: a mapping, or ``(name, value)`` pairs (repeats allowed).
Headers = Mapping[str, str] | Iterable[tuple[str, str]]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# the Fetch standard's "request-body-header names", dropped when a redirect turns into a GET
_BODY_HEADERS = frozenset(
    {"content-encoding", "content-language", "content-location", "content-type", "content-length"}
)
# the headers httpx's client sends by default, so that servers see what they saw before, but
# for Accept-Encoding (_offered_codings)
_DEFAULT_HEADERS = (
    ("Accept", "*/*"),
    ("Connection", "keep-alive"),
    ("User-Agent", f"python-httpx/{httpx.__version__}"),
)
_CHUNK = 64 * 1024
# Fetch, "CORS-unsafe request-header byte": what a safelisted header's value may not hold
_CORS_UNSAFE_BYTE = re.compile(r'[\x00-\x08\x0a-\x1f"():<>?@\[\\\]{}\x7f]')
_LANGUAGE = re.compile(r"[0-9A-Za-z *,\-.;=]*")
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
# Fetch, "parse a single range header value" without whitespace, with a first byte (a suffix
# range such as bytes=-5 is not safelisted)
_SIMPLE_RANGE = re.compile(r"(?i:bytes)=([0-9]+)-([0-9]*)")
# Fetch, "CORS-unsafe request-header names": safelisted values past this many bytes in all
# make every safelisted header unsafe too
_SAFELIST_TOTAL = 1024


def _cors_safelisted_only(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The headers that are no "CORS-unsafe request-header name" (Fetch): each one safelisted,
    and all of them together no longer than 1,024 bytes of values, or none is."""
    kept = tuple((n, v) for n, v in headers if _cors_safelisted(n, v))
    if sum(len(v.encode("latin-1")) for _, v in kept) > _SAFELIST_TOTAL:
        return ()
    return kept


def _cors_safelisted(name: str, value: str) -> bool:
    """Fetch's "CORS-safelisted request-header" (Accept, Accept-Language, Content-Language, a
    Content-Type a form can send, a Range of bytes from a first one), the only headers a page may
    send to another origin without asking it first (a preflight)."""
    if len(value.encode("latin-1")) > 128:
        return False
    lowered = name.lower()
    if lowered == "accept":
        return not _CORS_UNSAFE_BYTE.search(value)
    if lowered in ("accept-language", "content-language"):
        return bool(_LANGUAGE.fullmatch(value))
    if lowered == "content-type":
        essence = value.partition(";")[0].strip(" \t").lower()
        return not _CORS_UNSAFE_BYTE.search(value) and essence in _FORM_TYPES
    if lowered == "range":
        simple = _SIMPLE_RANGE.fullmatch(value)
        return simple is not None and (not simple[2] or int(simple[1]) <= int(simple[2]))
    return False


@dataclass(frozen=True)
class FetchPolicy:
    """The bounds of a fetch.

    ``timeout``: seconds for the whole fetch (every connection, redirect and byte), not per
    read. ``max_bytes``: the largest body accepted, after content decoding. ``max_redirects``:
    redirects followed before giving up. ``allow_private``: connect to loopback, private and
    other non-public addresses too. The library's default allows them — a command-line user
    fetching their own ``localhost`` page is no attacker — and the MCP bridge, whose URLs come
    from pages and agents, passes ``False``. The scheme check (http/https) holds either way.
    ``trusted``: origins (``http://localhost:8000``) connected to even when private — the
    pages an operator chose — while every hop elsewhere, a redirect away from them included,
    is guarded as usual.
    """

    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    allow_private: bool = True
    trusted: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise ValueError(f"timeout must be positive, not {self.timeout!r}")
        if self.max_bytes < 0 or self.max_redirects < 0:
            raise ValueError("max_bytes and max_redirects cannot be negative")
        object.__setattr__(self, "trusted", tuple(self.trusted))
        for origin in self.trusted:  # a trusted origin that is no URL is the caller's mistake
            check_url(origin)

    @property
    def exempt(self) -> frozenset[tuple[str, int]]:
        """``(host, port)`` of every trusted origin, as connections name them."""
        return frozenset(_host_port(check_url(origin)) for origin in self.trusted)


@dataclass(frozen=True)
class Response:
    """A fetched answer: the final ``url`` (after redirects, WHATWG-serialised), its
    ``status`` and ``headers``, the whole decoded ``body``, ``redirects``: the URL of every
    hop that answered with a redirect, in order (empty when the first answer was final), and
    ``method``: the final request's method (a POST answered with 303 ends as a GET, so its
    answer can be fetched again from ``url``)."""

    url: str
    status: int
    headers: httpx.Headers
    body: bytes
    redirects: tuple[str, ...] = field(default=())
    method: str = "GET"

    @property
    def content_type(self) -> str | None:
        value: str | None = self.headers.get("content-type")
        return value

    @property
    def head(self) -> AnswerHead:
        """What of the head decides what Chromium makes of the answer (:mod:`formtools._spec.mime`)."""
        return AnswerHead(
            self.status,
            self.content_type,
            self.headers.get("content-disposition"),
            tuple(self.headers.get_list("x-content-type-options")),
            tuple(self.headers.get_list("content-security-policy")),
        )


def _host_port(url: ada_url.URL) -> tuple[str, int]:
    """The host and port a connection to ``url`` is made to (what the guard is asked about)."""
    port = int(url.port) if url.port else (443 if url.protocol == "https:" else 80)
    return url.hostname.strip("[]"), port


# --- the HTTP client's logs -------------------------------------------------------------------

#: the loggers the fetch's HTTP client writes to. A filter must sit on each: a logger's
#: filters see only the records logged on it, not those its children pass up (one on
#: "httpcore" saw none of httpcore's records, which all come from "httpcore.http11" and the like)
HTTP_LOGGERS = (
    "httpx",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    "httpcore.socks",
)
# a header as httpcore's DEBUG records show a response's: (b'Name', b'value')
_LOGGED_HEADER = re.compile(r"""\((b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*"), (?:b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")\)""")


class _HeaderValuesFilter(logging.Filter):
    """httpcore's DEBUG records list every response header with its value: the cookies a site
    sets, a token in a redirect's ``Location``. The records keep each header's name and lose
    its value (the status, the names and the order are what a person debugging needs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "(b'" in message or '(b"' in message:
            record.msg, record.args = _LOGGED_HEADER.sub(r"(\1, b'[redacted]')", message), None
        return True


for _name in HTTP_LOGGERS:
    logging.getLogger(_name).addFilter(_HeaderValuesFilter())


# --- one hop ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Initiator:
    """The page a top-level navigation comes from (a submission into the form's own page or a
    new window), which decides the ``SameSite`` cookies it carries (RFC 6265bis, "Same-site and
    cross-site requests", and the "Retrieval Algorithm"'s ``SameSite`` step). ``url``: the
    document's URL (the page the form is on).

    A fetch without one is a navigation the user started (an address typed: the bridge's page
    loads, a crawl), same-site with every URL it reaches. As Chromium 156 decides it (measured:
    tests/test_browser_samesite.py), each hop is same-site when its URL's site — scheme and
    registrable domain (:func:`site`) — is the initiator's: a redirect through another site
    does not make the hops after it cross-site (RFC 6265bis' draft asks that it does; Chromium
    does not), and a hop back to the initiator's site is same-site again.

    ``form_action``: the page's ``form-action`` source lists (:func:`formtools._spec.csp.form_action_lists`)
    when the navigation is its form's submission. Chromium checks every hop a redirect leads
    to against them (CSP3, paths not compared after a redirect) and goes no further when one
    does not match (measured: tests/test_browser_csp.py)."""

    url: str
    form_action: tuple[tuple[str, ...], ...] = ()


def site(url: str) -> tuple[str, str] | None:
    """The site of ``url`` (HTML, "obtain a site"; RFC 6265bis, "Same-site and cross-site
    requests"): its scheme and its host's
    registrable domain by the Public Suffix List with its implicit ``*`` rule (so ``x.b.test``
    and ``b.test`` are one site), the host itself when it has none (an IP address, a public
    suffix such as ``localhost``); ``None`` for an opaque origin (``file:``, ``data:``, a URL
    that does not parse), same-site with nothing. The scheme counts ("schemeful same-site"):
    ``http://b.test`` and ``https://b.test`` are two sites, as in Chromium."""
    try:
        parsed = ada_url.URL(url)
    except ValueError:
        return None
    scheme = parsed.protocol[:-1]
    if scheme not in ALLOWED_SCHEMES:
        return None
    host = parsed.hostname.lower()
    domain = None if _is_ip(host) else _public_suffixes().privatesuffix(host)
    return scheme, domain or host


@dataclass(frozen=True)
class _SameSite:
    """A hop's request as the ``SameSite`` attribute sees it (RFC 6265bis, "Retrieval Algorithm")."""

    same_site: bool
    #: a safe method (GET, HEAD): ``Lax`` cookies go on the top-level navigation anyway; with
    #: another (POST), Chromium's "Lax-allowing-unsafe" enforcement sends it only a cookie
    #: without ``SameSite`` set in the last 2 minutes
    safe: bool


def _same_site(hop: _Hop) -> _SameSite:
    initiator = hop.initiator
    here = site(hop.url.href)
    same = initiator is None or (here is not None and site(initiator.url) == here)
    return _SameSite(same, hop.method.upper() in ("GET", "HEAD"))


class _CookieRequest(CookieRequest):
    """The request a cookie jar is asked about for one hop, with its ``SameSite`` context."""

    def __init__(self, url: str, method: str, context: _SameSite) -> None:
        super().__init__(url, method=method)
        self.same_site = context


@dataclass(frozen=True)
class _Hop:
    method: str
    url: ada_url.URL
    headers: tuple[tuple[str, str], ...]  # the caller's headers, as they stand on this hop
    content: bytes | None
    referrer: Referrer | None = None  # a navigation's Referer/Origin state, hop by hop
    initiator: Initiator | None = None  # the page whose navigation this is (None: the user's own)


# RFC 9110: a field name is a token (5.1); a value has no CR, LF or NUL and no space or tab at
# either end (5.5); a header goes on the wire as latin-1
_FIELD_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_FIELD_VALUE = re.compile(r"(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?")


def _pairs(headers: Headers | None) -> tuple[tuple[str, str], ...]:
    """The caller's headers, each checked before anything is sent: h11 refuses a bad one with
    an error that quotes it, and a header is where a token or password goes (a token read from
    a file keeps its newline). The error names the header, never its value."""
    if headers is None:
        return ()
    items = headers.items() if isinstance(headers, Mapping) else headers
    pairs = tuple((str(name), str(value)) for name, value in items)
    for number, (name, value) in enumerate(pairs, 1):
        if not _FIELD_NAME.fullmatch(name):  # not shown: "Authorization: Bearer …" given as a name
            raise UsageProblem(
                f"Header {number} of {len(pairs)} has no valid HTTP name (RFC 9110: a token, no space or "
                "colon); nothing was sent."
            )
        if not _FIELD_VALUE.fullmatch(value):
            raise UsageProblem(
                f"The value of the {name} header is not a valid HTTP field value (a line break, a NUL, a "
                "character beyond latin-1, or a space or tab at either end); nothing was sent."
            )
    return pairs


def _basic(url: ada_url.URL) -> str | None:
    """The ``Authorization`` a URL's user name and password stand for (as httpx and browsers
    send them)."""
    if not (url.username or url.password):
        return None
    token = f"{unquote(url.username)}:{unquote(url.password)}".encode()
    return "Basic " + base64.b64encode(token).decode("ascii")


def _offered_codings(url: ada_url.URL) -> tuple[str, ...]:
    """The content codings a request to ``url`` offers, as Chromium 156 offers them
    (``URLRequestHttpJob::AddExtraHeaders``): gzip and deflate everywhere, ``br`` and ``zstd``
    only to an https URL or a localhost one (``localhost``, ``*.localhost``, 127.0.0.0/8,
    ``::1``), whose data no proxy reads. Measured live: ``http://shop.test`` is sent
    ``gzip, deflate``, ``http://localhost`` and ``http://127.0.0.1`` all four. The codings are
    the ones decoded here (formtools._spec.coding.CODINGS), each with a bound on what it gives."""
    trusted = parse(url.href)
    if trusted is not None and potentially_trustworthy(trusted):
        return ("gzip", "deflate", "br", "zstd")
    return ("gzip", "deflate")


def _request(hop: _Hop, cookies: httpx.Cookies | None, clock: Clock) -> httpcore.Request:
    """The hop as httpcore sends it: ``Host`` and framing computed here, defaults the caller
    did not override, the cookie jar's ``Cookie`` for this URL."""
    url = hop.url
    given = {name.lower() for name, _ in hop.headers}
    lines: list[tuple[str, str]] = [("Host", url.host)]
    defaults = (_DEFAULT_HEADERS[0], ("Accept-Encoding", ", ".join(_offered_codings(url))), *_DEFAULT_HEADERS[1:])
    lines += [(name, value) for name, value in defaults if name.lower() not in given]
    lines += [(name, value) for name, value in hop.headers if name.lower() not in ("host", "content-length")]
    credentials = _basic(url)
    if credentials is not None and "authorization" not in given:
        lines.append(("Authorization", credentials))
    if cookies is not None:
        probe = _CookieRequest(url.href, hop.method, _same_site(hop))
        cookies.jar.add_cookie_header(probe)  # (not httpx's, which encodes the line as ASCII)
        line = probe.get_header("Cookie")
        if line is not None:
            lines.append(("Cookie", line))
    if hop.content is not None:
        lines.append(("Content-Length", str(len(hop.content))))
    elif hop.method.upper() in ("POST", "PUT", "PATCH"):
        lines.append(("Content-Length", "0"))
    host, port = _host_port(url)
    return httpcore.Request(
        hop.method.encode("ascii"),
        httpcore.URL(
            scheme=url.protocol[:-1].encode("ascii"),
            host=host.encode("ascii"),
            port=port,
            target=((url.pathname or "/") + url.search).encode("ascii"),
        ),
        headers=[(name.encode("latin-1"), value.encode("latin-1")) for name, value in lines],
        content=hop.content,
        # every operation's own limit is what is left of the deadline (see transport)
        extensions={"timeout": {"connect": None, "read": None, "write": None, "pool": max(clock.left(), 0.001)}},
    )


def _remember(cookies: httpx.Cookies | None, hop: _Hop, headers: httpx.Headers) -> None:
    """The answer's cookies into the jar, through Python's cookie jar itself: httpx's
    ``extract_cookies`` decodes the lines again (UTF-8), and its ``Cookie`` header is ASCII.

    A cookie that replaces one of the same name, domain, path and value keeps the old one's
    creation time, and so its age for the 2-minute exception, as Chromium 156 keeps it
    (measured: set again 100 s later, with the same value — other attributes or not — it is
    still past 2 minutes 25 s after that; with another value, or after a deletion, it starts
    anew). RFC 6265 (5.3 step 11.3) keeps it whatever the value."""
    if cookies is not None and "set-cookie" in headers:
        answer = Message()
        for line in _as_browsers_read(headers, hop.url.hostname.lower()):
            answer["Set-Cookie"] = line
        held = tuple(cookies.jar)
        before = {_key(cookie): _CREATED[cookie] for cookie in held if cookie in _CREATED}
        mark = next(_USES)  # the cookies this answer sets are used after it
        cookies.jar.extract_cookies(_Answer(answer), CookieRequest(hop.url.href, method=hop.method))  # type: ignore[arg-type]
        for cookie in cookies.jar:
            created = before.get(_key(cookie))
            if created is not None:
                _CREATED[cookie] = created
        _evict(cookies.jar, held, mark)


#: Chromium's bound on one site's cookies (net/cookies/cookie_monster.cc: kDomainMaxCookies,
#: kDomainPurgeCookies): past 180 of a registrable domain, it purges until 150 are left.
_SITE_MAX, _SITE_KEPT = 180, 150
#: formtools' own bound on a jar's cookies, whatever their sites: past 3,300, the least
#: recently used go until 3,000 are left. Chromium's global purge (3,300 -> 3,000) spares every
#: cookie used in the last 30 days (kSafeFromGlobalPurgeDays), so that in a session it evicts
#: nothing; a long-lived ``serve`` facing sites that each set 180 cookies still needs a bound.
_JAR_MAX, _JAR_KEPT = 3300, 3000

#: a cookie's ``Priority`` attribute (Chromium's CookiePriority; any other value or none: medium)
_PRIORITIES = {"low": 0, "medium": 1, "high": 2}
_MEDIUM = _PRIORITIES["medium"]
#: the cookies of each priority a site's purge spares (kDomainCookiesQuotaLow, -Medium, -High:
#: 180 - 30 - 30 - 50 = 70 of high priority)
_QUOTAS = {0: 30, 1: 50, 2: 70}
#: Chromium's purge rounds (kPurgeRounds), each a priority and whether its Secure cookies are
#: spared: low non-secure, low secure, medium non-secure, high non-secure, medium secure, high
#: secure. A site's Secure session cookie outlives its newer plain ones.
_PURGE_ROUNDS = ((0, True), (0, False), (1, True), (2, True), (1, False), (2, False))


def _cookie_site(cookie: Cookie) -> str:
    """The registrable domain a cookie is counted under (the host itself when it has none)."""
    return _registrable(cookie.domain)


@functools.lru_cache(maxsize=4096)
def _registrable(domain: str) -> str:
    """(asked for every cookie of the jar on every answer that sets one: looked up once)"""
    domain = domain.lstrip(".").lower()
    return domain if _is_ip(domain) else _public_suffixes().privatesuffix(domain) or domain


def _priority(cookie: Cookie) -> int:
    """A cookie's ``Priority`` (low 0, medium 1, high 2), as Chromium reads the attribute:
    ``low``, ``medium`` or ``high`` in any case, anything else medium."""
    rest = {key.lower(): value for key, value in vars(cookie)["_rest"].items()}
    return _PRIORITIES.get(str(rest.get("priority") or "").lower(), _MEDIUM)


@dataclass(frozen=True)
class _Stored:
    """A cookie in a site's replayed store, with what its purge rounds ask of it (read once)."""

    cookie: Cookie
    priority: int
    secure: bool


def _purged(store: list[_Stored]) -> list[Cookie]:
    """The cookies Chromium's purge of one site removes from ``store`` (least recently used
    first), which is past :data:`_SITE_MAX`: round by round (:data:`_PURGE_ROUNDS`), a
    priority's cookies go, least recently used first, while more than its quota are left, the
    round sparing Secure ones going no further than their number — until :data:`_SITE_KEPT`
    are left. ``store`` keeps the others."""
    goal = len(store) - _SITE_KEPT
    doomed: list[Cookie] = []
    for priority, sparing_secure in _PURGE_ROUNDS:
        if goal == 0:
            break
        ranked = [stored for stored in store if stored.priority == priority]
        spared = sum(stored.secure for stored in ranked) if sparing_secure else 0
        deletable = min(goal, len(ranked) - max(spared, _QUOTAS[priority]))
        if deletable <= 0:
            continue
        victims = [stored for stored in ranked if not (sparing_secure and stored.secure)][:deletable]
        gone = set(map(id, victims))
        store[:] = [stored for stored in store if id(stored) not in gone]
        doomed += [stored.cookie for stored in victims]
        goal -= len(victims)
    return doomed


def _site_replayed(held: list[Cookie], added: list[Cookie], present: set[int]) -> list[Cookie]:
    """The cookies of one site Chromium would have purged as ``added`` arrived one by one
    after ``held`` (its cookies before the answer, least recently used first), collecting
    garbage after each insertion as Chromium does. A cookie replacing a held one of the same
    domain, path and name takes its place as it arrives; a held one the answer deleted or let
    expire is gone from the start."""
    replacing = set(map(_slot, added))
    kept = [cookie for cookie in held if id(cookie) in present or _slot(cookie) in replacing]
    if len(kept) + len(added) <= _SITE_MAX:
        return []
    store = [_Stored(cookie, _priority(cookie), cookie.secure) for cookie in kept]
    slots = {_slot(stored.cookie): stored for stored in store}
    doomed: list[Cookie] = []
    for cookie in added:
        earlier = slots.pop(_slot(cookie), None)
        if earlier is not None:
            store = [stored for stored in store if stored is not earlier]
        arriving = _Stored(cookie, _priority(cookie), cookie.secure)
        store.append(arriving)
        slots[_slot(cookie)] = arriving
        if len(store) > _SITE_MAX:
            gone = _purged(store)
            doomed += gone
            for cookie_gone in gone:
                del slots[_slot(cookie_gone)]
    return doomed


def _slot(cookie: Cookie) -> tuple[str, str, str]:
    """What makes two cookies one in a store: domain, path and name."""
    return cookie.domain, cookie.path, cookie.name


def _evict(jar: CookieJar, held: Sequence[Cookie], mark: int) -> None:
    """Keep ``jar`` within bounds after an answer's cookies went in (``held``: the jar's
    cookies before; ``mark``: a use older than the answer's). Each site as Chromium's store
    purges it (:func:`_site_replayed`), then formtools' own bound on the whole jar
    (:data:`_JAR_MAX`). Without a bound a site could set 5,000 cookies an answer (what 100 KB of
    headers hold) for as long as a session lasts: 123,000 after 41 answers, each fetch walking
    them all (1.9 s) and sending them all (a 1.3 MB Cookie header), memory without end."""
    live = [cookie for cookie in jar if not cookie.is_expired()]
    present = set(map(id, live))
    held_by_site: dict[str, list[Cookie]] = {}
    for cookie in sorted(held, key=_recency):
        if not cookie.is_expired():
            held_by_site.setdefault(_cookie_site(cookie), []).append(cookie)
    added_by_site: dict[str, list[Cookie]] = {}
    for cookie in sorted(live, key=_recency):
        if _recency(cookie) > mark:
            added_by_site.setdefault(_cookie_site(cookie), []).append(cookie)
    doomed = [
        cookie
        for site_key, added in added_by_site.items()
        for cookie in _site_replayed(held_by_site.get(site_key, []), added, present)
        if id(cookie) in present
    ]
    gone = set(map(id, doomed))
    survivors = [cookie for cookie in live if id(cookie) not in gone]
    if len(survivors) > _JAR_MAX:
        survivors.sort(key=_recency)
        doomed += survivors[: len(survivors) - _JAR_KEPT]
    for cookie in doomed:
        jar.clear(cookie.domain, cookie.path, cookie.name)


#: when each cookie was last set or sent (monotonic seconds) and in which order, which decides
#: which go first past the bounds
_USED: weakref.WeakKeyDictionary[Cookie, tuple[float, int]] = weakref.WeakKeyDictionary()
_USES = itertools.count()
#: Chromium's kLastAccessThreshold: a cookie sent within a minute of its last use keeps that use
#: (measured: a Domain cookie sent to a sibling host just after being set is evicted as set)
_USE_THRESHOLD = 60.0


def _used(cookie: Cookie, *, sending: bool) -> None:
    """Record a cookie's setting, or its sending when its last use is a minute old or more."""
    now = time.monotonic()
    last = _USED.get(cookie)
    if not sending or last is None or now - last[0] >= _USE_THRESHOLD:
        _USED[cookie] = (now, next(_USES))


def _recency(cookie: Cookie) -> int:
    """A sort key, least recently used first (a cookie a caller's jar held before: first of all)."""
    return _USED.get(cookie, (0.0, -1))[1]


@dataclass(frozen=True)
class _Answer:
    """What ``CookieJar.extract_cookies`` reads of a response: its header lines."""

    headers: Message

    def info(self) -> Message:
        return self.headers


#: when each cookie was stored (monotonic seconds), the 2-minute exception's clock: kept apart
#: from the policy, which every fetcher given a jar installs afresh
_CREATED: weakref.WeakKeyDictionary[Cookie, float] = weakref.WeakKeyDictionary()


def _key(cookie: Cookie) -> tuple[str, str, str, str | None]:
    """What a cookie set again must share with the one it replaces to keep its age: domain,
    path and name (what makes two cookies one in a jar), and value."""
    return cookie.domain, cookie.path, cookie.name, cookie.value


class BrowserCookiePolicy(DefaultCookiePolicy):
    """Which host a cookie belongs to, by RFC 6265 (5.1.3 domain-match, 5.3 steps 6 and 11), as
    browsers decide it, in place of Python's RFC 2965 rules: those give a host without a dot the
    name ``host.local``, so that ``Domain=local`` from ``evil`` was sent to ``intranet``,
    ``localhost`` and every ``*.local`` host, and a host-only cookie of ``evil`` to
    ``evil.local``; and without ``DomainStrictNonDomain`` they send a host-only cookie to every
    subdomain. Here a host-only cookie is stored under its very host and goes back to it alone;
    a ``Domain`` cookie is accepted from, and sent to, the hosts that domain-match it (an IP
    address only matches itself). Public suffixes, and the lines a browser's parser reads
    otherwise than Python's, are :func:`_as_browsers_read`' part."""

    #: how long a cookie without ``SameSite`` still goes on a cross-site top-level POST
    #: (Chromium's kLaxAllowUnsafeMaxAge; RFC 6265bis suggests 2 minutes)
    LAX_ALLOWING_UNSAFE = 120.0

    def return_ok(self, cookie: Cookie, request: CookieRequest) -> bool:
        """On top of the host, path and ``Secure`` rules, ``SameSite`` (RFC 6265bis,
        "Retrieval Algorithm", as Chromium 156 applies it): a cross-site request carries a ``Strict``
        cookie never, a ``Lax`` one on a top-level GET, a ``None`` one always, and one without
        ``SameSite`` as ``Lax`` ("Lax by default") — also on a top-level POST within
        :attr:`LAX_ALLOWING_UNSAFE` seconds of its setting. A request that is not a fetch's
        hop (a caller's own use of the jar) is judged same-site, as it was before. A cookie sent
        counts as used, for the store's bounds (:func:`_evict`)."""
        if not super().return_ok(cookie, request):
            return False
        sent = self._sent_ok(cookie, request)
        if sent:
            _used(cookie, sending=True)
        return sent

    def _sent_ok(self, cookie: Cookie, request: CookieRequest) -> bool:
        """:meth:`return_ok`'s ``SameSite`` rules, for a cookie the host and path rules let go."""
        if not isinstance(request, _CookieRequest) or request.same_site.same_site:
            return True
        context = request.same_site
        rest = {key.lower(): value for key, value in vars(cookie)["_rest"].items()}
        declared = (rest.get("samesite") or "").lower()  # any other value counts as none given
        if declared in ("none", "strict"):
            return declared == "none"
        if context.safe:
            return True
        set_at = _CREATED.get(cookie)
        young = set_at is not None and time.monotonic() - set_at < self.LAX_ALLOWING_UNSAFE
        return declared != "lax" and young

    def set_ok(self, cookie: Cookie, request: CookieRequest) -> bool:
        """RFC 6265bis' rules for secure origins on top (5.7, storage steps 8, 14, 15, 20-21),
        as Chromium applies them: a ``Secure`` cookie, a ``__Secure-`` or ``__Host-`` one
        (the latter also host-only with ``Path=/``) and a ``SameSite=None`` one (which must be
        ``Secure``) come only from a secure origin — https, or a potentially trustworthy
        host (``localhost``, 127.0.0.0/8, ::1) — so that plain http cannot plant a cookie an
        https page of the site would trust."""
        if not super().set_ok(cookie, request):
            return False
        secure = cookie.secure
        name = cookie.name.lower()
        rest = {key.lower(): value for key, value in vars(cookie)["_rest"].items()}
        if name.startswith(("__secure-", "__host-")) or (rest.get("samesite") or "").lower() == "none":
            if not secure:
                return False
        # __Host-: Path=/ written out (Chromium refuses the default path, even when it is /),
        # and no domain cookie (a Domain naming the IP address the cookie comes from is none)
        domain_cookie = cookie.domain_specified and not _is_ip(_host_of(request))
        if name.startswith("__host-") and (domain_cookie or not cookie.path_specified or cookie.path != "/"):
            return False
        if secure and not _secure_origin(request):
            return False
        _CREATED[cookie] = time.monotonic()
        _used(cookie, sending=False)
        return True

    def return_ok_secure(self, cookie: Cookie, request: CookieRequest) -> bool:
        return not cookie.secure or _secure_origin(request)

    def set_ok_domain(self, cookie: Cookie, request: CookieRequest) -> bool:
        host = _host_of(request)
        if not cookie.domain_specified:
            cookie.domain = host  # Python's default would be the "effective" host, host + ".local"
            return True
        return _domain_match(host, cookie.domain)

    def return_ok_domain(self, cookie: Cookie, request: CookieRequest) -> bool:
        host = _host_of(request)
        return _domain_match(host, cookie.domain) if cookie.domain_specified else cookie.domain == host

    def domain_return_ok(self, domain: str, request: CookieRequest) -> bool:
        return _domain_match(_host_of(request), domain)


def _secure_origin(request: CookieRequest) -> bool:
    """https, or a host Secure Contexts call potentially trustworthy (Chromium lets such an
    http origin set and get ``Secure`` cookies)."""
    host = _host_of(request)
    if urlsplit(request.get_full_url()).scheme == "https" or host == "localhost" or host.endswith(".localhost"):
        return True
    return _is_ip(host) and ipaddress.ip_address(host).is_loopback


def _host_of(request: CookieRequest) -> str:
    """The host a cookie request is for, lowercase, without port (an IPv6 address without
    brackets): the WHATWG-serialised URL each hop is made from."""
    return urlsplit(request.get_full_url()).hostname or ""


def _domain_match(host: str, domain: str) -> bool:
    """RFC 6265, 5.1.3: ``host`` is ``domain`` (case-insensitively, a leading dot ignored), or a
    host name (not an IP address) ending in ``.domain``."""
    host, domain = host.lower(), domain.lower().removeprefix(".")
    if host == domain:
        return True
    return host.endswith("." + domain) and not _is_ip(host)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def cookie_jar() -> httpx.Cookies:
    """An empty cookie jar under :class:`BrowserCookiePolicy` (the policy every fetcher also
    gives a jar it is handed)."""
    return httpx.Cookies(CookieJar(BrowserCookiePolicy()))


@functools.cache
def _public_suffixes() -> PublicSuffixList:
    """The Public Suffix List (ICANN and private sections, as browsers use it), the snapshot
    the ``publicsuffixlist`` package ships: read once, never fetched."""
    return PublicSuffixList()


def _as_browsers_read(headers: httpx.Headers, host: str) -> list[str]:
    """``headers``' ``Set-Cookie`` lines as a browser reads them before its store decides,
    where Python's parser (``http.cookiejar.parse_ns_headers``) reads them otherwise. Each line
    is taken as its bytes (latin-1 text, which the ``Cookie`` header gives back byte for byte:
    Chromium stores and returns a UTF-8 value as sent, where httpx decoded it and re-encoded it
    as ASCII, so a page setting ``name=é`` failed to load). A line holding a control character
    other than a tab is ignored whole (RFC 6265bis 5.6, step 1; Chromium's store refuses it)."""
    kept = []
    for name, value in headers.raw:
        if name.lower() == b"set-cookie":
            line = value.decode("latin-1")
            if not _CONTROL.search(line):
                line = _cookie_as_read(line, host)
                if line:
                    kept.append(line)
    return kept


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
#: RFC 6265 5.2.2: a Max-Age value is a DIGIT or "-" and DIGITs, else the attribute is ignored
_MAX_AGE = re.compile("-?[0-9]+")


#: RFC 6265bis' bounds on a cookie's name and value together, and on an attribute's value (bytes:
#: a line is its bytes as latin-1 text)
_NAME_AND_VALUE_MAX, _ATTRIBUTE_MAX = 4096, 1024


def _cookie_as_read(line: str, host: str) -> str:
    """One ``Set-Cookie`` line with the attributes a browser ignores left out, or ``""`` when
    the cookie is dropped. A ``Max-Age`` that is no integer (``abc``, ``1e3``, empty, ``+5``)
    and a ``Path`` not starting with ``/`` are ignored (RFC 6265 5.2.2, 5.2.4: a session
    cookie, the default path), where Python's parser dropped the cookie for the first and kept
    the path ``x`` (matching no request) for the second. The public-suffix rule (5.3, step 5),
    as browsers apply it: a ``Domain`` that is a public suffix (``github.io``, ``co.uk``)
    drops the cookie — ``mallory.github.io`` cannot set a cookie that ``alice.github.io``
    would be sent — unless it is the host itself, which makes the cookie host-only. Python's
    cookie jar has no such list. The sizes RFC 6265bis (5.6) sets, as Chromium 156 applies them:
    a name and value longer than 4,096 bytes together drop the cookie, an attribute whose value
    is longer than 1,024 is ignored (a ``Path`` of 1,025 bytes: the default path) — a site's
    cookies of 90 KB each were kept and sent back on every request."""
    first, *attributes = line.split(";")
    name, _, value = first.partition("=")
    if len(name.strip(" \t")) + len(value.strip(" \t")) > _NAME_AND_VALUE_MAX:
        return ""
    attributes = [attribute for attribute in attributes if len(attribute.partition("=")[2].strip(" \t")) <= _ATTRIBUTE_MAX]
    # an attribute written twice is the last one's (RFC 6265 5.3, as Chromium reads it; Python
    # took the first, so "Path=/a; Path=/" kept the cookie from every page but /a's)
    last = {attribute.partition("=")[0].strip().lower(): attribute for attribute in attributes}
    kept = [first]
    for attribute in last.values():
        key, _, value = attribute.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key == "max-age" and not _MAX_AGE.fullmatch(value):
            continue
        if key == "path" and not value.startswith("/"):
            continue
        if key == "port":
            continue  # RFC 2965's, which Python honours (sending the cookie to that port alone)
        domain = value.lstrip(".").lower()
        # the list's implicit "*" rule, as browsers apply it: an unknown top-level name (local,
        # corp, a dotless intranet host) is a public suffix too
        if key == "domain" and domain and _public_suffixes().is_public(domain):
            if domain != host:
                return ""
            continue
        kept.append(attribute)
    return ";".join(kept)


def _next(
    hop: _Hop, status: int, headers: httpx.Headers, followed: Sequence[str], policy: FetchPolicy, first: str
) -> _Hop | None:
    """The hop a redirect leads to, or ``None`` when ``status`` is a final answer. ``followed``:
    the URLs of the hops before this one that answered with a redirect, which a redirect not
    followed carries (its submission was answered after them)."""
    location = headers.get("location")
    if status not in _REDIRECTS or location is None:
        return None
    if len(followed) >= policy.max_redirects:
        raise TooManyRedirects(
            f"Could not fetch {quoted(first)}: it redirected more than {policy.max_redirects} times.",
            url=shown(hop.url.href),
        )
    try:
        target = ada_url.URL(location, hop.url.href)
    except ValueError:
        raise UnfollowedRedirect(
            f"Could not fetch {quoted(first)}: {quoted(hop.url.href)} redirects to "
            f"{location[:200]!r}, which is not a valid URL.",
            url=shown(hop.url.href),
            redirects=tuple(followed),
        ) from None
    if target.protocol[:-1] not in ALLOWED_SCHEMES:
        raise UnfollowedRedirect(
            f"Refused to fetch {quoted(first)}: {quoted(hop.url.href)} redirects to "
            f"{quoted(target.href)}, and only http and https URLs are fetched.",
            url=shown(hop.url.href),
            redirects=tuple(followed),
        )
    initiator = hop.initiator
    blocker = initiator and form_action_blocker(initiator.form_action, initiator.url, target.href, redirected=True)
    if blocker:
        raise UnfollowedRedirect(
            f"Refused to fetch {quoted(first)}: {quoted(hop.url.href)} redirects to "
            f"{quoted(target.href)}, which the page's Content-Security-Policy ({blocker}) does not "
            "allow a form to go to.",
            url=shown(hop.url.href),
            redirects=tuple(followed),
        )
    if not target.hash and hop.url.hash:
        target.hash = hop.url.hash
    if len(target.href) > MAX_URL_CHARS:  # Chromium follows no redirect to a URL it would not load
        raise UnfollowedRedirect(
            f"Refused to fetch {quoted(first)}: {quoted(hop.url.href)} redirects to "
            f"{quoted(target.href)}, {len(target.href):,} characters long, past {MAX_URL_CHARS:,}, "
            "the longest URL Chromium goes to.",
            url=shown(hop.url.href),
            redirects=tuple(followed),
        )
    method, content, carried = hop.method, hop.content, hop.headers
    if (status in (301, 302) and method.upper() == "POST") or (status == 303 and method.upper() not in ("GET", "HEAD")):
        method, content = "GET", None
        carried = tuple((n, v) for n, v in carried if n.lower() not in _BODY_HEADERS)
    carried = tuple((n, v) for n, v in carried if n.lower() != "cookie")  # the jar's, per hop
    if target.origin != hop.url.origin:
        # A header the caller asked for (an API key, a token, Authorization) is meant for the
        # origin asked, not for wherever that origin redirects: a browser's navigation sends no
        # header of a page's own at all, and its fetch() sends one to another origin only after
        # that origin's preflight agreed. Fetch drops Authorization (HTTP-redirect fetch, step
        # 13; httpx, urllib3 and curl do, Proxy-Authorization too); here every "CORS-unsafe
        # request-header name" goes (Fetch's 1,024-byte total included), and the safelisted ones
        # a form's own request carries (its Content-Type) stay. Referer and Origin are the next
        # hop's own (below).
        carried = _cors_safelisted_only(carried)
    referrer = hop.referrer
    if referrer is not None:  # Referer and Origin are the next hop's own (formtools._spec.referrer)
        referrer = referrer.redirected(hop.url.href, target.href)
        # Fetch, HTTP-redirect fetch: a redirect's Referrer-Policy header is the request's from now on
        changed = policy_from_header(headers.get("referrer-policy"))
        if changed is not None:
            referrer = replace(referrer, policy=changed)
        carried = tuple((n, v) for n, v in carried if n.lower() not in ("referer", "origin"))
        carried += referrer.headers(method, target.href)
    return _Hop(method, target, carried, content, referrer, hop.initiator)


# --- the body ---------------------------------------------------------------------------------


class _Overflow(Exception):
    pass


class _Body:
    """The body as it arrives: decoded layer by layer, never past the byte cap, never past the
    deadline (checked after every chunk, on top of the per-operation limits)."""

    def __init__(self, hop: _Hop, headers: httpx.Headers, policy: FetchPolicy, clock: Clock) -> None:
        self._hop = hop
        self._policy = policy
        self._clock = clock
        self.data = bytearray()
        lines = headers.get_list("content-encoding")
        codings = codings_to_undo(lines)
        failure = refused_codings(lines) or too_many_codings(len(codings))
        if failure is not None:
            raise httpcore.ReadError(failure)
        if not any(name.lower() == "accept-encoding" for name, _ in hop.headers):
            offered = _offered_codings(hop.url)
            for coding in codings:
                if coding.replace("x-gzip", "gzip") not in offered:
                    raise httpcore.ReadError(
                        f"the answer is in the {coding} content coding, which was not offered "
                        f"(Chromium offers {coding} only to https and localhost origins)"
                    )
        self._layers = [decoder(coding) for coding in reversed(codings)]
        length = headers.get("content-length", "")
        if not self._layers and length.isdigit() and int(length) > policy.max_bytes:
            self._too_large()

    def _too_large(self) -> None:
        raise TooLarge(
            f"Could not fetch {quoted(self._hop.url.href)}: the answer is larger than {self._policy.max_bytes} bytes.",
            url=shown(self._hop.url.href),
        )

    @staticmethod
    def _feed(layer: Decoder, data: bytes, limit: int) -> bytes:
        out = layer.feed(data, limit)
        if layer.held:  # the limit was reached with input left: too large
            raise _Overflow
        return out

    def add(self, chunk: bytes) -> None:
        if self._clock.left() <= 0:
            raise httpcore.ReadTimeout("deadline")
        room = self._policy.max_bytes - len(self.data)
        try:
            for layer in self._layers:  # a layer's bytes after its end are no part of the body
                chunk = b"" if layer.ended else self._feed(layer, chunk, room + 1)
        except _Overflow:
            self._too_large()
        except CodingError as error:
            raise httpcore.ReadError(f"the answer's content encoding is corrupt ({error})") from None
        if len(chunk) > room:
            self._too_large()
        self.data += chunk

    @property
    def complete(self) -> bool:
        """Whether a content coding has ended, so that no byte still to come is part of the body
        (a server may send any amount after it: zlib kept it, copying it once per chunk, until
        the deadline — 30 s and 160 MB for a 10-byte page — and it was never counted)."""
        return any(layer.ended for layer in self._layers)

    def finish(self) -> bytes:
        tail = b""
        try:
            for layer in self._layers:
                tail = layer.flush() if not tail else self._feed(layer, tail, self._policy.max_bytes + 1) + layer.flush()
        except _Overflow:
            self._too_large()
        except CodingError as error:
            raise httpcore.ReadError(f"the answer's content encoding is corrupt ({error})") from None
        if len(self.data) + len(tail) > self._policy.max_bytes:
            self._too_large()
        return bytes(self.data + tail)


# --- errors -----------------------------------------------------------------------------------

# what the network can throw at a fetch; anything else is a bug and propagates as it is
_FAILURES = (
    Refusal,
    TimeoutError,
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    httpx.InvalidURL,
    OSError,
    UnicodeError,
)


def _detail(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror
    else:
        text = str(error) or type(error).__name__
    text = re.sub(r"\s*\(_ssl\.c:\d+\)", "", " ".join(text.split())).rstrip(".")
    text = text.replace(". ", "; ")  # one sentence, whatever the library said
    return text if len(text) <= 200 else text[:200] + "…"


def _failed(error: BaseException, hop: _Hop, clock: Clock, first: str | None = None) -> FetchError:
    url = hop.url.href
    if isinstance(error, FetchError):
        return error
    if isinstance(error, Refusal):
        after = f", reached by a redirect from {quoted(first)}" if first and first != url else ""
        return Blocked(
            f"Refused to fetch {quoted(url)}{after}: {error} (private targets are not allowed).",
            url=shown(url),
            address=error.address,
            reason=error.reason,
        )
    if isinstance(error, (TimeoutError, httpcore.TimeoutException)):
        return FetchTimeout(
            f"Could not fetch {quoted(url)}: no complete answer within the {clock.seconds:g} s deadline of the whole {clock.scope}.",
            url=shown(url),
        )
    return Unreachable(f"Could not fetch {quoted(url)}: {_detail(error)}.", url=shown(url))


# --- the deadline -----------------------------------------------------------------------------


_CALL: contextvars.ContextVar[Clock | None] = contextvars.ContextVar("formtools_net_call", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """One deadline for every fetch made inside (in this task or thread): each fetch ends by its
    policy's ``timeout`` or by this, whichever comes first. A caller that makes several fetches
    for one thing (the MCP bridge: a submission, its redirects and the page's refresh) keeps
    its promise of a deadline for the whole of it, not one per fetch."""
    token = _CALL.set(Clock(seconds, "call"))
    try:
        yield
    finally:
        _CALL.reset(token)


def _clock(policy: FetchPolicy) -> Clock:
    """The fetch's own deadline, or the enclosing :func:`deadline` when that ends sooner."""
    own = Clock(policy.timeout)
    call = _CALL.get()
    return call if call is not None and call.end < own.end else own


# --- the fetchers -----------------------------------------------------------------------------

_DEFAULT_SSL: ssl.SSLContext | None = None


def default_ssl_context() -> ssl.SSLContext:
    """Certificate verification as httpx does it by default: certifi's roots, or the files
    named by ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``. Made once and shared."""
    global _DEFAULT_SSL
    if _DEFAULT_SSL is None:
        import certifi

        cafile = os.environ.get("SSL_CERT_FILE")
        capath = os.environ.get("SSL_CERT_DIR")
        if cafile and os.path.isfile(cafile):
            context = ssl.create_default_context(cafile=cafile)
        elif capath and os.path.isdir(capath):
            context = ssl.create_default_context(capath=capath)
        else:
            context = ssl.create_default_context(cafile=certifi.where())
        _DEFAULT_SSL = context
    return _DEFAULT_SSL


def _first(
    method: str,
    url: str,
    headers: Headers | None,
    content: bytes | None,
    referrer: Referrer | None = None,
    initiator: Initiator | None = None,
) -> _Hop:
    return _Hop(method.upper(), check_url(url), _pairs(headers), content, referrer, initiator)


def _heads(response: httpcore.Response) -> HeadReader:
    reader: HeadReader = response.extensions["network_stream"].heads
    return reader


def _head_as_read(response: httpcore.Response) -> tuple[int, httpx.Headers]:
    """The answer's status and headers as Chromium reads them, from its connection's stream
    (:mod:`formtools._net.head`): h11 was handed its framing lines only, as it refuses the whole
    answer for a header line Chromium reads or drops, and a code that is not three digits."""
    head = _heads(response).head
    if head is None:
        raise httpcore.RemoteProtocolError("the answer came without a head")
    return head.status, httpx.Headers(list(head.as_read()))


def _cut_short(response: httpcore.Response) -> bool:
    """Whether h11's error is that the connection closed before the body's framing ended (a
    body shorter than its ``Content-Length``, chunks without their last): Chromium shows what
    came (``HttpStreamParser`` reports ERR_CONTENT_LENGTH_MISMATCH or
    ERR_INCOMPLETE_CHUNKED_ENCODING after the body it delivered), where the fetch failed."""
    return _heads(response).closed_in_body


def _response(hop: _Hop, status: int, headers: httpx.Headers, body: bytes, redirects: list[str]) -> Response:
    return Response(hop.url.href, status, headers, body, tuple(redirects), hop.method)


def _browser_rules(cookies: httpx.Cookies | None) -> httpx.Cookies | None:
    """``cookies`` (a caller's jar: an ``httpx.Client``'s, whose policy is Python's default)
    under :class:`BrowserCookiePolicy` from now on, so that every jar a fetch uses keeps
    cookies to the hosts a browser would send them to."""
    if cookies is not None:
        cookies.jar.set_policy(BrowserCookiePolicy())
    return cookies


def _reusable(connections: Sequence[httpcore.ConnectionInterface | httpcore.AsyncConnectionInterface], hop: _Hop) -> bool:
    """Whether the pool holds an idle kept-alive connection to the hop's origin, which it sends
    the request on (httpcore does not say afterwards whether the connection was new)."""
    origin = httpcore.URL(hop.url.href).origin
    return any(connection.can_handle_request(origin) and connection.is_idle() for connection in connections)


def _closed_before_answering(error: httpcore.RemoteProtocolError) -> bool:
    """Whether the server closed the connection before any byte of its answer: on a reused
    connection, the race of a keep-alive connection the server closed as the request went out,
    which Chromium answers by sending the request again on a new connection
    (``HttpNetworkTransaction::ShouldResendRequest``: a reused socket, closed or reset, no byte
    of the answer read), for every method."""
    return str(error) == "Server disconnected without sending a response."


class Fetcher:
    """Fetches under one :class:`FetchPolicy`, keeping connections (and, with ``cookies``, a
    cookie jar, updated in place and put under :class:`BrowserCookiePolicy`) between fetches;
    without ``cookies``, each fetch has a jar of its own for its redirects. Use it as a context
    manager, or :meth:`close` it. Connections are opened by the guard, so a pooled connection is one the
    policy already allowed."""

    def __init__(
        self,
        policy: FetchPolicy | None = None,
        *,
        cookies: httpx.Cookies | None = None,
        ssl_context: ssl.SSLContext | None = None,
        max_connections: int = 100,
    ) -> None:
        self.policy = policy or FetchPolicy()
        self.cookies = _browser_rules(cookies)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context or default_ssl_context(),
            max_connections=max_connections,
            network_backend=GuardedBackend(allow_private=self.policy.allow_private, trusted=self.policy.exempt),
        )

    def fetch(
        self,
        method: str,
        url: str,
        *,
        headers: Headers | None = None,
        content: bytes | None = None,
        referrer: Referrer | None = None,
        initiator: Initiator | None = None,
    ) -> Response:
        """``method url`` with redirects followed; the final answer, whatever its status.
        Raises a :class:`~formtools._net.errors.FetchError` for anything the policy refuses
        or the network fails at. ``referrer``: a form submission's referrer state, which gives
        every redirect hop its own ``Referer`` and ``Origin`` (the caller's headers carry the
        first hop's). ``initiator``: the page the navigation comes from (a form's page), which
        decides the ``SameSite`` cookies each hop carries; without it, a navigation the user
        started (see :class:`Initiator`)."""
        policy = self.policy
        clock = _clock(policy)
        token = CLOCK.set(clock)
        hop = _first(method, url, headers, content, referrer, initiator)
        first = hop.url.href
        redirects: list[str] = []
        # without a jar of the caller's, cookies still live for the redirect chain, as in a
        # browser (a login that sets a session and redirects to the account page)
        jar = self.cookies if self.cookies is not None else cookie_jar()
        try:
            while True:
                reused = _reusable(self._pool.connections, hop)
                try:
                    response = self._pool.handle_request(_request(hop, jar, clock))
                except httpcore.RemoteProtocolError as error:
                    if not (reused and _closed_before_answering(error)):
                        raise
                    response = self._pool.handle_request(_request(hop, jar, clock))
                try:
                    status, answer = _head_as_read(response)
                    _remember(jar, hop, answer)
                    following = _next(hop, status, answer, redirects, policy, first)
                    if following is None:
                        body = _Body(hop, answer, policy, clock)
                        try:
                            for chunk in response.iter_stream():
                                body.add(chunk)
                                if body.complete:
                                    break
                        except httpcore.RemoteProtocolError:
                            if not _cut_short(response):
                                raise
                        return _response(hop, status, answer, body.finish(), redirects)
                finally:
                    response.close()
                redirects.append(hop.url.href)
                hop = following
        except _FAILURES as error:
            raise _failed(error, hop, clock, first) from None
        finally:
            CLOCK.reset(token)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncFetcher:
    """:class:`Fetcher` for asyncio and trio (through anyio); the deadline also cancels
    whatever is waiting when it passes."""

    def __init__(
        self,
        policy: FetchPolicy | None = None,
        *,
        cookies: httpx.Cookies | None = None,
        ssl_context: ssl.SSLContext | None = None,
        max_connections: int = 100,
    ) -> None:
        self.policy = policy or FetchPolicy()
        self.cookies = _browser_rules(cookies)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context or default_ssl_context(),
            max_connections=max_connections,
            network_backend=AsyncGuardedBackend(allow_private=self.policy.allow_private, trusted=self.policy.exempt),
        )

    async def fetch(
        self,
        method: str,
        url: str,
        *,
        headers: Headers | None = None,
        content: bytes | None = None,
        referrer: Referrer | None = None,
        initiator: Initiator | None = None,
    ) -> Response:
        """:meth:`Fetcher.fetch`, awaited."""
        policy = self.policy
        clock = _clock(policy)
        token = CLOCK.set(clock)
        hop = _first(method, url, headers, content, referrer, initiator)
        first = hop.url.href
        redirects: list[str] = []
        # without a jar of the caller's, cookies still live for the redirect chain, as in a
        # browser (a login that sets a session and redirects to the account page)
        jar = self.cookies if self.cookies is not None else cookie_jar()
        try:
            with anyio.fail_after(max(clock.left(), 0)):
                while True:
                    reused = _reusable(self._pool.connections, hop)
                    try:
                        response = await self._pool.handle_async_request(_request(hop, jar, clock))
                    except httpcore.RemoteProtocolError as error:
                        if not (reused and _closed_before_answering(error)):
                            raise
                        response = await self._pool.handle_async_request(_request(hop, jar, clock))
                    try:
                        status, answer = _head_as_read(response)
                        _remember(jar, hop, answer)
                        following = _next(hop, status, answer, redirects, policy, first)
                        if following is None:
                            body = _Body(hop, answer, policy, clock)
                            try:
                                async for chunk in _chunks(response):
                                    body.add(chunk)
                                    if body.complete:
                                        break
                            except httpcore.RemoteProtocolError:
                                if not _cut_short(response):
                                    raise
                            return _response(hop, status, answer, body.finish(), redirects)
                    finally:
                        await response.aclose()
                    redirects.append(hop.url.href)
                    hop = following
        except _FAILURES as error:
            raise _failed(error, hop, clock, first) from None
        finally:
            CLOCK.reset(token)

    async def aclose(self) -> None:
        await self._pool.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def _chunks(response: httpcore.Response) -> AsyncIterator[bytes]:
    async for chunk in response.aiter_stream():
        yield chunk


def fetch(
    method: str,
    url: str,
    *,
    headers: Headers | None = None,
    content: bytes | None = None,
    policy: FetchPolicy | None = None,
    cookies: httpx.Cookies | None = None,
) -> Response:
    """One fetch with a fresh :class:`Fetcher` (see :meth:`Fetcher.fetch`)."""
    with Fetcher(policy, cookies=cookies) as fetcher:
        return fetcher.fetch(method, url, headers=headers, content=content)


async def afetch(
    method: str,
    url: str,
    *,
    headers: Headers | None = None,
    content: bytes | None = None,
    policy: FetchPolicy | None = None,
    cookies: httpx.Cookies | None = None,
) -> Response:
    """One fetch with a fresh :class:`AsyncFetcher` (see :meth:`Fetcher.fetch`)."""
    async with AsyncFetcher(policy, cookies=cookies) as fetcher:
        return await fetcher.fetch(method, url, headers=headers, content=content)


# --- checking without fetching ----------------------------------------------------------------


def _target(url: str) -> tuple[_Hop, str, int]:
    hop = _first("GET", url, None, None)
    return (hop, *_host_port(hop.url))


def check_target(url: str, *, policy: FetchPolicy | None = None) -> None:
    """Raise what a fetch of ``url`` would raise for its first hop's target (a bad URL, a
    refused address, a name that does not resolve) without connecting: a caller can refuse
    before asking a person to confirm. The fetch itself checks again, on the addresses it
    connects to."""
    policy = policy or FetchPolicy()
    clock = _clock(policy)
    hop, host, port = _target(url)
    try:
        allow = policy.allow_private or (host, port) in policy.exempt
        checked(host, resolve_bounded(host, port, max(clock.left(), 0.001)), allow_private=allow)
    except _FAILURES as error:
        raise _failed(error, hop, clock) from None


async def acheck_target(url: str, *, policy: FetchPolicy | None = None) -> None:
    """:func:`check_target`, resolving in a worker thread within the policy's timeout."""
    policy = policy or FetchPolicy()
    clock = _clock(policy)
    hop, host, port = _target(url)
    try:
        with anyio.fail_after(max(clock.left(), 0)):
            found = await anyio.to_thread.run_sync(resolved, host, port, abandon_on_cancel=True)
        checked(host, found, allow_private=policy.allow_private or (host, port) in policy.exempt)
    except _FAILURES as error:
        raise _failed(error, hop, clock) from None
