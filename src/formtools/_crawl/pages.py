"""What a crawl reads, before extraction: a page's bytes, a page that could not be read, and how
URL lists are fetched. Shared by batch (files, archives) and the URL fetcher."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FetchOptions", "Page", "Unreadable", "media_type", "renders_as_html"]

#: The media types a browser renders as a document with forms (XHTML, too, registers tools).
HTML_TYPES = ("text/html", "application/xhtml+xml")


def media_type(content_type: str | None) -> str:
    """The ``type/subtype`` of an HTTP ``Content-Type``, lowercased ("" without one)."""
    return (content_type or "").partition(";")[0].strip().lower()


def renders_as_html(content_type: str | None) -> bool:
    """Whether a response with this HTTP ``Content-Type`` is a page a browser would register
    tools for: HTML or XHTML; or no type at all, which a browser sniffs (and a page without a
    ``toolname`` is then skipped by the prefilter anyway). JSON, text, images are not, whatever
    their bytes hold. Archived records, fetched URLs and Scrapy responses are held to the same
    test."""
    kind = media_type(content_type)
    return not kind or kind in HTML_TYPES


@dataclass(frozen=True)
class FetchOptions:
    """How a URL list is fetched: at most ``concurrency`` requests at once, ``per_host`` to one
    host, ``timeout`` seconds for each page's whole fetch (redirects and every byte included),
    bodies over ``max_bytes`` refused (also the cap on a WARC record)."""

    concurrency: int = 16
    per_host: int = 4
    timeout: float = 30.0
    max_bytes: int = 10 * 2**20


@dataclass(frozen=True)
class Page:
    """A page read, not yet parsed. ``key`` is the output field that names it (``path`` or
    ``url``), ``url`` its document URL, ``content_type`` its HTTP header if it had one."""

    key: str
    name: str
    body: bytes
    url: str | None
    content_type: str | None


@dataclass(frozen=True)
class Unreadable:
    """A page (or a whole archive) that could not be read; ``damaged``: an archive that is cut
    short or corrupt (the records before the damage were read)."""

    key: str
    name: str
    error: str
    damaged: bool = False
