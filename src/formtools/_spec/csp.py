"""A page's ``Content-Security-Policy`` header as Chromium 156 reads it, as far as it decides
what becomes of a page and of the answer a call lands on: its ``sandbox`` directive, and its
``form-action`` (which actions a form may submit to: Chromium's network-side
``CheckCSPSource``).

One reading for the page side (a page sandboxed without ``allow-scripts`` registers no tools:
:mod:`formtools._spec.mime`) and the landing side (a landing page sandboxed without
``allow-same-origin`` has an opaque origin, no result comes from it:
``formtools._execute.send``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote

import ada_url

from formtools._spec.constants import ASCII_WHITESPACE, ASCII_WHITESPACE_RUNS, ascii_lowercase

__all__ = ["form_action_applies", "form_action_blocker", "form_action_lists", "sandbox_flags"]

# What Chromium 156 takes for a directive (CSP3 "parse a serialized CSP", and Chromium's check
# of the characters): only ASCII white space and visible ASCII, else the directive is ignored
# (``sandbox\u00a0``, ``sandbox allow-scripts\u000b``: no sandbox; tests/test_browser_landing.py)
_DIRECTIVE = re.compile(f"[{ASCII_WHITESPACE}\x21-\x7e]*")


def _directives(policy: str) -> dict[str, list[str] | None]:
    """One serialized policy's directives: name (ASCII-lowercased) → its value's tokens
    (as written: a source's path is case-sensitive), split on ASCII white space as CSP splits (a no-break space, U+3000 or a
    vertical tab separates nothing), or None for a directive ignored for its characters. Of a
    name written twice the first holds, ignored or not (Chromium 156: ``sandbox\\u3000; sandbox``
    sandboxes nothing)."""
    directives: dict[str, list[str] | None] = {}
    for directive in policy.split(";"):
        words = ASCII_WHITESPACE_RUNS.split(directive.strip(ASCII_WHITESPACE))
        if words != [""]:
            name, *value = words
            directives.setdefault(ascii_lowercase(name), value if _DIRECTIVE.fullmatch(directive) else None)
    return directives


def sandbox_flags(headers: Iterable[str]) -> list[frozenset[str]]:
    """The ``sandbox`` directives of the enforced ``Content-Security-Policy`` header lines
    ``headers`` (each line a comma-separated list of policies), each as the keywords it allows
    (``allow-scripts``…); none when no policy sandboxes. (A ``<meta>`` policy cannot sandbox,
    and a report-only one enforces nothing.)"""
    flags = []
    for header in headers:
        for policy in header.split(","):
            sandbox = _directives(policy).get("sandbox")
            if sandbox is not None:
                flags.append(frozenset(map(ascii_lowercase, sandbox)))
    return flags


# CSP3 source expressions as Chromium 156 parses them (``ParseSource``; one it cannot parse is
# dropped: it allows nothing)
_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*")
# a host: ``*``, or labels of letters, digits and ``-`` (only the last may be empty: a trailing
# dot), maybe after ``*.``; no brackets, no ``_``
_HOST = re.compile(r"\*|(?:\*\.)?[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.?")
_PORT = re.compile(r"\*|[0-9]+")
_MAX_PORT = 2**31 - 1  # Chromium reads a port as an int: a longer one does not parse
_SHOWN = 200  # the characters of a directive a one-line message shows
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# the secure upgrade of a scheme (CSP3 "scheme-part match")
_UPGRADES = {"http": "https", "ws": "wss"}
# the schemes of which only a page of the same scheme may submit a form to a URL, and only they
# and http(s) reach the form-action check (other schemes are refused before it)
_LOCAL_SCHEMES = ("file",)


class _Match(enum.Enum):
    """How a source's scheme or port matches a URL's (Chromium's ``SchemeMatchingResult`` and
    ``PortMatchingResult``): a secure upgrade is allowed only when the other part allows it."""

    NONE = enum.auto()
    WILDCARD = enum.auto()
    UPGRADE = enum.auto()
    EXACT = enum.auto()


@dataclass(frozen=True)
class _Source:
    """One parsed source expression: ``scheme`` (empty: the page's), ``host`` (empty and not
    ``any_host``: a scheme-only source), ``port`` (None: none written), ``path`` (decoded; empty:
    none written). Also the page's own origin for ``'self'`` (:func:`_self_source`), which is
    never written back as text: an origin is not always a source expression
    (``http://[::1]:8000``, ``http://a_b.example``)."""

    scheme: str
    host: str = ""
    any_host: bool = False
    port: int | None = None
    any_port: bool = False
    path: str = ""

    @property
    def scheme_only(self) -> bool:
        return not self.host and not self.any_host


def _parsed_source(token: str) -> _Source | None:
    """A source expression (:func:`_case_folded`) as Chromium 156's ``ParseSource`` reads it, or
    None when it does not parse: ``scheme:``, or ``[scheme://]host[:port][path]`` where the path
    stops at ``?`` or ``#`` (the query and fragment are ignored, the source kept)."""
    scheme, rest = "", token
    separator = re.search("[:/]", rest)
    if separator is not None and separator.group() == ":":
        at = separator.start()
        if at + 1 == len(rest):
            return _Source(rest[:at]) if _SCHEME.fullmatch(rest, 0, at) else None
        if rest[at + 1] == "/":
            if not rest.startswith("//", at + 1) or not _SCHEME.fullmatch(rest, 0, at):
                return None
            scheme, rest = rest[:at], rest[at + 3 :]
            separator = re.search("[:/]", rest)
    host_end = len(rest) if separator is None else separator.start()
    if not _HOST.fullmatch(rest, 0, host_end):
        return None
    wildcard = rest.startswith("*")
    host = rest[2:host_end] if wildcard else rest[:host_end]
    rest = rest[host_end:]
    written = ""
    if rest.startswith(":"):
        port_end = rest.find("/") % (len(rest) + 1)
        written, rest = rest[1:port_end], rest[port_end:]
        if not _PORT.fullmatch(written) or (written != "*" and int(written) > _MAX_PORT):
            return None
    any_port = written == "*"
    port = int(written) if written and not any_port else None
    return _Source(scheme, host, wildcard, port, any_port, _path(rest))


def _path(written: str) -> str:
    """A source's path as Chromium keeps it: up to a ``?`` or ``#``, percent-decoded."""
    return unquote(re.split("[?#]", written, maxsplit=1)[0])


def _self_source(page: ada_url.URL) -> _Source:
    """The page's origin as the source ``'self'`` stands for (Chromium 156's
    ``ComputeSelfOrigin``): its scheme, host and port as they are, or for a ``file:`` page the
    scheme alone (its host is forgotten: any ``file:`` URL matches)."""
    scheme = page.protocol[:-1]
    if scheme in _LOCAL_SCHEMES:
        return _Source(scheme)
    return _Source(scheme, ascii_lowercase(page.hostname), port=_port(scheme, page.port))


def form_action_lists(headers: Iterable[str], metas: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """The ``form-action`` source lists (tokens, each :func:`_case_folded`) of the enforced policies in
    the ``Content-Security-Policy`` header lines ``headers`` and the ``<meta http-equiv>``
    contents ``metas`` of the document's head, each line or content a comma-separated list of
    policies. Every list must allow a form's action for it to be submitted (CSP3: each policy
    is enforced on its own); ``form-action`` never falls back to ``default-src``."""
    lists = []
    for serialized in (*headers, *metas):
        for policy in serialized.split(","):
            sources = _directives(policy).get("form-action")
            if sources is not None:
                lists.append(tuple(map(_case_folded, sources)))
    return tuple(lists)


def _case_folded(source: str) -> str:
    """A source expression with what CSP compares ASCII case-insensitively (keywords, scheme,
    host, port) lowercased and its path as written: Chromium 156 compares paths case-sensitively
    (``/csp/OK/`` does not allow ``/csp/ok/a``; measured)."""
    authority = source.find("://")
    path = source.find("/", authority + 3 if authority >= 0 else 0)
    return ascii_lowercase(source) if path < 0 else ascii_lowercase(source[:path]) + source[path:]


def _port(scheme: str, port: str) -> int | None:
    """A URL's port, its scheme's default when it names none (None: a scheme without one)."""
    return int(port) if port else _DEFAULT_PORTS.get(scheme)


def _scheme_match(named: str, scheme: str) -> _Match:
    """How a source's scheme (``named``: written, else the page's) matches a URL's."""
    if named == scheme:
        return _Match.EXACT
    return _Match.UPGRADE if _UPGRADES.get(named) == scheme else _Match.NONE


def _port_match(source: _Source, port: int | None, scheme: str) -> _Match:
    """How a source's port matches a URL's ``port`` (its scheme's default when it names none;
    None for a scheme without one) of ``scheme`` (Chromium 156's ``SourceAllowPort``): none
    written matches the URL scheme's default, and 80 matches 443 as an upgrade."""
    if source.any_port or (source.port is None and port in (None, _DEFAULT_PORTS.get(scheme))):
        return _Match.WILDCARD
    if source.port == port:
        return _Match.EXACT
    listed = source.port if source.port is not None else _DEFAULT_PORTS.get(source.scheme)
    return _Match.UPGRADE if listed == 80 and port == 443 else _Match.NONE


def _source_matches(source: _Source, self_scheme: str, action: ada_url.URL, redirected: bool) -> bool:
    """Whether one parsed source matches ``action`` from a page of ``self_scheme`` (empty: none
    known), as Chromium 156's ``CheckCSPSource``: a scheme-only source matches its scheme and its
    secure upgrade; otherwise an upgraded scheme needs a port written as ``*``, left out or
    80 → 443, and a port upgraded (80 → 443) needs the scheme upgraded too
    (``http://a.com:8080`` does not allow ``https://a.com:8080/``); a host ``*.x`` matches
    subdomains of ``x``; a path ending in ``/`` is a prefix and any other the whole path;
    after a redirect paths are not compared."""
    named = source.scheme or self_scheme
    scheme = action.protocol[:-1]
    scheme_match = _scheme_match(named, scheme) if named else _Match.NONE
    if source.scheme_only or scheme_match is _Match.NONE:
        return scheme_match is not _Match.NONE
    port_match = _port_match(source, _port(scheme, action.port), scheme)
    if scheme_match is _Match.UPGRADE and port_match not in (_Match.WILDCARD, _Match.UPGRADE):
        return False
    if port_match is _Match.NONE or (port_match is _Match.UPGRADE and scheme_match is not _Match.UPGRADE):
        return False
    host = ascii_lowercase(action.hostname)
    if not (host.endswith("." + source.host) if source.any_host and source.host else source.any_host or host == source.host):
        return False
    if redirected or not source.path:
        return True
    path = unquote(action.pathname)
    return path.startswith(source.path) if source.path.endswith("/") else path == source.path


def _source_allows(source: str, page: ada_url.URL | None, action: ada_url.URL, redirected: bool) -> bool:
    """Whether one source expression (:func:`_case_folded`) allows ``action`` on a page at
    ``page`` (CSP3 "Does url match expression in origin with redirect count", as Chromium 156
    does it): ``*`` allows the network schemes and the page's, ``'self'`` the page's origin
    (compared as an origin, never re-parsed as text), any other source as
    :func:`_source_matches` says. Without a ``page`` (markup parsed without its URL) ``'self'``
    and a source without a scheme match nothing."""
    self_scheme = page.protocol[:-1] if page is not None else ""
    if source == "*":
        return action.protocol[:-1] in _DEFAULT_PORTS or action.protocol[:-1] == self_scheme
    if source == "'self'":
        return page is not None and _source_matches(_self_source(page), self_scheme, action, redirected)
    parsed = _parsed_source(source)
    return parsed is not None and _source_matches(parsed, self_scheme, action, redirected)


def form_action_applies(page_url: str | None, action_url: str) -> bool:
    """Whether a page's ``form-action`` is asked about a submission to ``action_url`` at all:
    http(s) actions, and a ``file:`` one from a ``file:`` page (or one whose URL is unknown);
    Chromium refuses other schemes (and a ``file:`` action from a page that is not ``file:``)
    before any policy is read. One rule for ``lint`` and the call, which disagreed on
    ``file:`` actions."""
    scheme = _scheme_of(action_url)
    if scheme in _LOCAL_SCHEMES:
        return page_url is None or _scheme_of(page_url) == scheme
    return scheme in ("http", "https")


def _scheme_of(url: str) -> str:
    """A URL's scheme as the URL Standard parses it ("" when it does not parse)."""
    try:
        return str(ada_url.URL(url).protocol[:-1])
    except ValueError:
        return ""


def form_action_blocker(
    lists: Iterable[tuple[str, ...]], page_url: str | None, action_url: str, redirected: bool = False
) -> str | None:
    """The first of the ``form-action`` source ``lists`` (:func:`form_action_lists`) that does
    not allow a form on ``page_url`` to submit to ``action_url`` (``redirected``: a hop a
    redirect leads to), written as a directive for a message (its first 200 characters); None
    when every list allows it.
    A list of nothing but ``'none'`` or nothing allows nothing; ``'none'`` beside another
    source is ignored, as Chromium 156 ignores it."""
    page, action = ada_url.URL(page_url) if page_url else None, ada_url.URL(action_url)
    for sources in lists:
        if not any(_source_allows(source, page, action, redirected) for source in sources if source != "'none'"):
            written = " ".join(("form-action", *sources))
            return written if len(written) <= _SHOWN else written[: _SHOWN - 1] + "…"
    return None
