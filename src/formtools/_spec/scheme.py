"""Whether a user named a page by an http(s) URL, decided from the scheme alone.

The edges (the command line, ``batch``'s inputs and URL list, the MCP bridge's pages, the
library's page sources) decide this before anything is fetched, some of them at start-up, so
it is kept apart from the URL parser (:mod:`formtools._spec.url`, 28 ms to import). The URL
Standard's scheme state reads a scheme in ASCII case-insensitively: ``HTTP://…`` is an http
URL, which was taken for a file's name.
"""

from __future__ import annotations

__all__ = ["is_url"]

_HTTP_PREFIXES = ("http://", "https://")


def is_url(source: str) -> bool:
    """Whether ``source`` begins with an http(s) scheme and ``//``, in any ASCII case."""
    return source[:8].lower().startswith(_HTTP_PREFIXES)
