"""A page's ``Content-Security-Policy`` header as Chromium 156 reads it, as far as it decides
what becomes of a page and of the answer a call lands on: its ``sandbox`` directive.

One reading for the page side (a page sandboxed without ``allow-scripts`` registers no tools:
:mod:`formtools._spec.mime`) and the landing side (a landing page sandboxed without
``allow-same-origin`` has an opaque origin, no result comes from it:
``formtools._execute.send``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

import ada_url

from formtools._spec.constants import ASCII_WHITESPACE, ASCII_WHITESPACE_RUNS, ascii_lowercase

__all__ = ["form_action_blocker", "form_action_lists", "sandbox_flags"]

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


# CSP3 source expressions (Chromium 156 drops one it cannot parse: it allows nothing)
_SCHEME_SOURCE = re.compile(r"([a-z][a-z0-9+.\-]*):")
_HOST_SOURCE = re.compile(
    r"(?:(?P<scheme>[a-z][a-z0-9+.\-]*)://)?(?P<host>\*|(?:\*\.)?[a-z0-9\-]+(?:\.[a-z0-9\-]+)*)"
    r"(?::(?P<port>[0-9]+|\*))?(?P<path>/[^?#]*)?"
)
_SHOWN = 200  # the characters of a directive a one-line message shows
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# a scheme a source names also allows its secure upgrade (CSP3 "scheme-part match")
_UPGRADES = {"http": ("http", "https"), "ws": ("ws", "wss")}


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


def _source_allows(source: str, page: ada_url.URL | None, action: ada_url.URL, redirected: bool) -> bool:
    """Whether one source expression (:func:`_case_folded`) matches ``action`` on a page at ``page``
    (CSP3 "Does url match expression in origin with redirect count"): a scheme named allows its
    secure upgrade, a host-source without a scheme takes the page's, a port left out means the
    scheme's default (80 also allows https on 443), a path ending in ``/`` is a prefix and any
    other is the whole path, and after a redirect paths are not compared. Without a ``page``
    (markup parsed without its URL) ``'self'`` and a source without a scheme match nothing."""
    scheme, self_scheme = action.protocol[:-1], page.protocol[:-1] if page is not None else ""
    if source == "*":
        return scheme in _DEFAULT_PORTS or scheme == self_scheme
    if source == "'self'":
        if page is None:
            return False
        source = f"{self_scheme}://{page.hostname}:{_port(self_scheme, page.port)}"
    if (only := _SCHEME_SOURCE.fullmatch(source)) is not None:
        return scheme in _UPGRADES.get(only[1], (only[1],))
    parts = _HOST_SOURCE.fullmatch(source)
    if parts is None:
        return False
    named = parts["scheme"] or self_scheme
    if not named or scheme not in _UPGRADES.get(named, (named,)):
        return False
    host, wanted = ascii_lowercase(action.hostname), parts["host"]
    if wanted != "*" and not (host.endswith(wanted[1:]) if wanted.startswith("*.") else host == wanted):
        return False
    port = _port(scheme, action.port)
    if parts["port"] != "*":
        listed = int(parts["port"]) if parts["port"] else _DEFAULT_PORTS.get(named)
        if port != listed and not (listed == 80 and port == 443 and scheme == "https"):
            return False
    if redirected or not parts["path"]:
        return True
    path, listed_path = unquote(action.pathname), unquote(parts["path"])
    return path.startswith(listed_path) if listed_path.endswith("/") else path == listed_path


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
