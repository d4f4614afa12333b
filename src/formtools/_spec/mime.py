"""What a browser renders as a document with forms, by a response's ``Content-Type``.

One rule for every page formtools reads from elsewhere: archived records, URL lists, Scrapy
responses, ``formtools extract URL`` and the MCP bridge's pages (a JSON API that echoes
``<form toolname…>`` is no page with tools: a browser shows it as text).
"""

from __future__ import annotations

from formtools._spec.constants import HTTP_WHITESPACE

__all__ = ["HTML_TYPES", "media_type", "not_a_page", "renders_as_html"]

#: The media types a browser renders as a document with forms (XHTML, too, registers tools).
HTML_TYPES = ("text/html", "application/xhtml+xml")


def media_type(content_type: str | None) -> str:
    """The ``type/subtype`` of an HTTP ``Content-Type``, lowercased, HTTP white space around it
    stripped and no other ("" without one)."""
    return (content_type or "").partition(";")[0].strip(HTTP_WHITESPACE).lower()


def renders_as_html(content_type: str | None) -> bool:
    """Whether a response with this HTTP ``Content-Type`` is a page a browser would register
    tools for: HTML or XHTML; or no type at all, which a browser sniffs (and a page without a
    ``toolname`` is then skipped by the prefilter anyway). JSON, text, images are not, whatever
    their bytes hold."""
    kind = media_type(content_type)
    return not kind or kind in HTML_TYPES


def not_a_page(url: str, content_type: str | None) -> str:
    """The one-line reason a fetched response is no page with tools."""
    return f"{url}: not HTML ({media_type(content_type)}): a browser registers no tools for it"
