"""The size limit every entry point reads a page within, in one place (README, "Limits").

A page is read by ``formtools extract``, :func:`formtools.extract_tools` and
:func:`formtools.load_page`, ``formtools batch`` (files, URL lists, WARC records), the Spark
job, Scrapy's :func:`formtools.scrapy.tools_of` and ``formtools serve``; a submission's answer by
every call. Each had a limit of its own (50 MiB, 10 MiB, none at all), so one page gave tools at
one and an error, or a stalled crawl, at another. Each now reads :data:`MAX_PAGE_BYTES`, or the
user's override where the entry point has one (``formtools serve --max-bytes``,
``FetchOptions(max_bytes=…)`` for batch, ``max_bytes=`` of a call), and a page beyond it is the
one-line error :func:`too_large` words.
"""

from __future__ import annotations

from formtools.errors import SourceError

__all__ = ["MAX_PAGE_BYTES", "check_page_size", "page_size", "too_large"]

#: The largest page (and submission answer) formtools reads, in bytes: 10 MiB, ten times the
#: record Common Crawl keeps and far above any form page's; a page of this size parses in a
#: tenth of a second to a few seconds.
MAX_PAGE_BYTES = 10 * 2**20


def too_large(name: str, limit: int = MAX_PAGE_BYTES) -> str:
    """The one line that says the page ``name`` is beyond ``limit``, the same at every entry
    point."""
    return f"{name}: larger than {limit:,} bytes, the page size limit; not read"


def page_size(markup: str | bytes) -> int:
    """The bytes of a page: given as text, those of its UTF-8 encoding."""
    if isinstance(markup, bytes):
        return len(markup)
    return len(markup.encode("utf-8", "surrogatepass"))


def check_page_size(markup: str | bytes, name: str, limit: int = MAX_PAGE_BYTES) -> None:
    """Raise :class:`~formtools.SourceError` (:func:`too_large`) for a page beyond ``limit``
    (text is encoded to count only when its length leaves the answer open: a character is at
    most four bytes)."""
    if len(markup) * (1 if isinstance(markup, bytes) else 4) > limit and page_size(markup) > limit:
        raise SourceError(too_large(name, limit))
