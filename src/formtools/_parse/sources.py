"""Reading a page from where a user points: a file, standard input, or an http(s) URL.

This is the only module of the synthesis pipeline that does I/O. For a URL the final URL after
redirects is the document URL and the ``Content-Type`` charset takes part in decoding, as in a
browser; for a file the document URL is its ``file:`` URL unless the caller gives one.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import httpx

from formtools.errors import SourceError
from formtools._parse.document import Document
from formtools._parse import parse_html

__all__ = ["RawPage", "read_page", "load_page", "is_url"]

_MAX_BYTES = 50 * 1024 * 1024


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


@dataclass(frozen=True)
class RawPage:
    """A page's bytes as read, before any decoding."""

    body: bytes
    url: str | None
    content_type: str | None
    label: str


def read_page(source: str | Path, *, base_url: str | None = None, timeout: float = 30.0) -> RawPage:
    """Read the page at ``source``: a path, ``-`` for standard input, or an http(s) URL.

    ``base_url`` sets the document URL for a file or standard input (a URL keeps its own final
    URL). Raises :class:`SourceError` with a one-line message when the page cannot be read.
    """
    text = str(source)
    if text == "-":
        return RawPage(sys.stdin.buffer.read(), base_url, None, "<stdin>")
    if is_url(text):
        return _fetch(text, timeout)
    path = Path(text)
    try:
        body = path.read_bytes()
    except FileNotFoundError:
        raise SourceError(f"{text}: no such file") from None
    except IsADirectoryError:
        raise SourceError(f"{text}: is a directory, not a page") from None
    except OSError as error:
        raise SourceError(f"{text}: cannot read: {error.strerror or error}") from None
    return RawPage(body, base_url or path.resolve().as_uri(), None, text)


def load_page(
    source: str | Path, *, base_url: str | None = None, timeout: float = 30.0
) -> Document:
    """Read and parse the page at ``source`` (see :func:`read_page`)."""
    raw = read_page(source, base_url=base_url, timeout=timeout)
    return parse_html(raw.body, url=raw.url, content_type=raw.content_type, source=raw.label)


def _fetch(url: str, timeout: float) -> RawPage:
    try:
        with httpx.Client(follow_redirects=True, timeout=timeout) as client:
            with client.stream("GET", url, headers={"Accept": "text/html,*/*;q=0.8"}) as response:
                if response.status_code >= 400:
                    raise SourceError(f"{url}: HTTP {response.status_code}")
                body = bytearray()
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > _MAX_BYTES:
                        raise SourceError(f"{url}: larger than {_MAX_BYTES // 2**20} MiB")
                return RawPage(
                    bytes(body), str(response.url), response.headers.get("content-type"), url
                )
    except httpx.HTTPError as error:
        raise SourceError(f"{url}: {type(error).__name__}: {error}") from None
