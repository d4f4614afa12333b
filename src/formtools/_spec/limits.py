"""The size limit every entry point reads a page within, in one place (README, "Limits").

The limit bounds what formtools reads from elsewhere: a page file, standard input, a URL, a
WARC record, a submission's answer, read by ``formtools extract``, ``lint``, ``validate``,
``call``, ``diff``, ``batch`` and ``serve``, by :func:`formtools.extract_tools` and
:func:`formtools.load_page` given a path, an open file or a URL, and by the Spark job. Each had a
limit of its own (50 MiB, 10 MiB, none at all), so one page gave tools at one and an error, or a
stalled crawl, at another. Each now reads :data:`MAX_PAGE_BYTES`, or the user's override, which
every one of them takes (``--max-bytes`` of each command, ``max_bytes=`` of the library's
readers and calls, ``FetchOptions(max_bytes=…)`` for batch), and a page beyond it is the one-line
error :func:`too_large` words. Markup a caller already holds in memory (``extract_tools`` of
``str`` or ``bytes``, Scrapy's responses, downloaded within Scrapy's ``DOWNLOAD_MAXSIZE``) is
not refused: reading it costs nothing more, and its parse has a time limit.
"""

from __future__ import annotations

from formtools.errors import SourceError

__all__ = ["MAX_PAGE_BYTES", "MAX_UPLOAD_BYTES", "MAX_URL_CHARS", "check_page_size", "page_size", "too_large"]

#: The largest page (and submission answer) formtools reads, in bytes: 10 MiB, ten times the
#: record Common Crawl keeps and far above any form page's; a page of this size parses in a
#: tenth of a second to a few seconds.
MAX_PAGE_BYTES = 10 * 2**20

#: The most bytes the files of one call, read from their paths, hold together: 100 MiB. Chromium
#: posts a file of any size, streamed from disk; formtools builds the request whole (the dry run
#: prints its exact bytes, and the redirects of a 307 send them again), so a path it reads is
#: bounded, the total of a call's files rather than each (``--file f=/dev/zero`` took memory
#: without end). A :class:`~formtools.File` a caller built is in memory already and not counted.
MAX_UPLOAD_BYTES = 100 * 2**20


#: The longest URL Chromium goes to, in characters of its serialization (ASCII once parsed):
#: ``url::kMaxURLChars``, 2 MiB (url/url_constants.h, "Max GURL length passed between
#: processes"; a longer one crosses between its processes as an invalid URL). Measured in
#: Chromium 156 (tests/test_browser_urls.py): a form's submission to a URL one character longer
#: lands on ``about:blank#blocked`` and sends nothing, a page at one is not loaded
#: (``net::ERR_ABORTED``). A URL grows past it when parsed: a query's non-ASCII character is
#: written as up to 15 (``%26%23128512%3B`` in windows-1252), so a form's values of 400 KB make
#: one. The page URLs formtools fetches, the redirects it follows, the actions and the GET
#: submissions it builds and the lines of a ``--urls`` list are held to it here.
MAX_URL_CHARS = 2 * 2**20


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
