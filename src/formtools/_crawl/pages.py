"""What a crawl reads, before extraction: a page's bytes, a page that could not be read, and how
URL lists are fetched. Shared by batch (files, archives) and the URL fetcher."""

from __future__ import annotations

from dataclasses import dataclass

from formtools._spec.mime import media_type, renders_as_html

__all__ = ["FetchOptions", "Page", "Unreadable", "media_type", "renders_as_html"]


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
