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

from formtools._spec.constants import ASCII_WHITESPACE, ASCII_WHITESPACE_RUNS, ascii_lowercase

__all__ = ["sandbox_flags"]

# What Chromium 156 takes for a directive (CSP3 "parse a serialized CSP", and Chromium's check
# of the characters): only ASCII white space and visible ASCII, else the directive is ignored
# (``sandbox\u00a0``, ``sandbox allow-scripts\u000b``: no sandbox; tests/test_browser_landing.py)
_DIRECTIVE = re.compile(f"[{ASCII_WHITESPACE}\x21-\x7e]*")


def _directives(policy: str) -> dict[str, list[str] | None]:
    """One serialized policy's directives: name (ASCII-lowercased) → its value's tokens
    (ASCII-lowercased), split on ASCII white space as CSP splits (a no-break space, U+3000 or a
    vertical tab separates nothing), or None for a directive ignored for its characters. Of a
    name written twice the first holds, ignored or not (Chromium 156: ``sandbox\\u3000; sandbox``
    sandboxes nothing)."""
    directives: dict[str, list[str] | None] = {}
    for directive in policy.split(";"):
        words = ASCII_WHITESPACE_RUNS.split(directive.strip(ASCII_WHITESPACE))
        if words != [""]:
            name, *value = map(ascii_lowercase, words)
            directives.setdefault(name, value if _DIRECTIVE.fullmatch(directive) else None)
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
                flags.append(frozenset(sandbox))
    return flags
