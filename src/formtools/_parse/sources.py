"""Reading a page from where a user points: a file, standard input, or an http(s) URL.

This is the only module of the synthesis pipeline that does I/O. For a URL the final URL after
redirects is the document URL and the ``Content-Type`` charset takes part in decoding, as in a
browser; for a file the document URL is its ``file:`` URL unless the caller gives one.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, AnyStr, BinaryIO, Union

from formtools._parse import parse_html
from formtools._parse.document import Document, Parser, is_tree
from formtools._spec.limits import MAX_PAGE_BYTES, check_page_size, too_large
from formtools._spec.mime import page_problem
from formtools._spec.scheme import is_url
from formtools.errors import NetworkError, SourceError, UsageProblem, shown, shown_argument

__all__ = ["PageSource", "RawPage", "document_of", "load_page", "opened", "read_page", "read_path", "read_standard_input"]

#: Everything the library takes as a page: markup (``str``; ``bytes`` decoded as a browser
#: decodes them), a path, an open binary or text file, a URL object (``httpx.URL``,
#: ``ada_url.URL``, anything whose ``str()`` is an http(s) URL and whose type is named ``URL``),
#: a parsed :class:`Document`, or an lxml / BeautifulSoup tree.
PageSource = Union[str, bytes, "os.PathLike[str]", IO[bytes], IO[str], Document, Any]


@dataclass(frozen=True)
class RawPage:
    """A page's bytes as read, before any decoding."""

    body: bytes
    url: str | None
    content_type: str | None
    label: str
    referrer_policy: str | None = None  # the Referrer-Policy response header of a fetched page
    security_policies: tuple[str, ...] = ()  # and its Content-Security-Policy header lines


def read_standard_input(max_bytes: int = MAX_PAGE_BYTES) -> bytes:
    """Standard input's bytes, up to the page size limit. Raises :class:`SourceError` when it is
    closed (``<&-``: Python then has no ``sys.stdin``, and reading it was an AttributeError
    traceback) or cannot be read."""
    if sys.stdin is None:
        raise SourceError("<stdin>: standard input is closed")
    try:
        body: bytes = _read_at_most(sys.stdin.buffer, max_bytes)
    except OSError as error:
        raise SourceError(f"<stdin>: cannot read: {error.strerror or error}") from None
    check_page_size(body, "<stdin>", max_bytes)
    return body


def read_page(
    source: str | Path, *, base_url: str | None = None, timeout: float = 30.0, max_bytes: int = MAX_PAGE_BYTES
) -> RawPage:
    """Read the page at ``source``: a path, ``-`` for standard input, or an http(s) URL.

    ``base_url`` sets the document URL for a file or standard input (a URL keeps its own final
    URL); ``max_bytes``: the page size limit (``formtools._spec.limits``). Raises
    :class:`SourceError` with a one-line message when the page cannot be read.
    """
    text = str(source)
    if text == "-":
        return RawPage(read_standard_input(max_bytes), base_url, None, "<stdin>")
    if is_url(text):
        return _fetch(text, timeout, max_bytes)
    body = read_path(text, "a page", max_bytes)
    check_page_size(body, shown_argument(text), max_bytes)
    return RawPage(body, base_url or Path(text).resolve().as_uri(), None, text)


def read_path(name: str, what: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` + 1 bytes of the path ``name``, :func:`opened` as ``what`` (the
    caller says what more than ``max_bytes`` means: a page, an upload have limits of their own)."""
    with opened(name, what) as file:
        try:
            return _bounded_read(file, max_bytes)
        except OSError as error:
            raise cannot_read(name, error) from None


def opened(name: str, what: str) -> BinaryIO:
    """The path ``name`` opened to be read as ``what`` (``"a page"``, ``"a list of URLs"``…):
    the one rule of every path a user hands formtools. Whatever opens is read as a stream, each
    reader within its own limit: a file, a pipe (``--urls <(grep …)``), a socket, a device
    (``/dev/null`` is empty, ``/dev/zero`` reaches the limit); whatever does not is one line that
    names what it is. Each option had its own test and words: ``--urls`` took a FIFO or
    ``/dev/zero`` for "no such file or directory", ``--file`` said "cannot read the file: Is a
    directory", a page "no such file"."""
    try:
        return open(name, "rb")
    except (FileNotFoundError, NotADirectoryError):
        raise SourceError(f"{shown_argument(name)}: no such file or directory") from None
    except IsADirectoryError:
        raise SourceError(f"{shown_argument(name)}: is a directory, not {what}") from None
    except OSError as error:
        raise cannot_read(name, error) from None
    except ValueError as error:  # a NUL in the name, which no file name holds
        raise SourceError(f"{shown_argument(name)!r}: cannot read: {error}") from None


def cannot_read(name: str, error: OSError) -> SourceError:
    """The one line of a path ``name`` that opened but whose read failed (``EIO``: ``/proc/self/mem``),
    whichever reader read it (a page, an upload, a URL list), its name as
    :func:`~formtools.errors.shown_argument` shows it (a URL mistyped as a path may hold a password)."""
    return SourceError(f"{shown_argument(name)}: cannot read: {error.strerror or error}")


def _bounded_read(file: IO[bytes], max_bytes: int) -> bytes:
    """At most ``max_bytes`` + 1 bytes of ``file``: /dev/zero or a FIFO never ends. A regular
    file is read whole when its size allows (``read(n)`` would first allocate n bytes: three
    times slower on a crawl's small pages)."""
    status = os.fstat(file.fileno())
    if stat.S_ISREG(status.st_mode) and status.st_size <= max_bytes:
        return file.read()
    return _read_at_most(file, max_bytes)


_CHUNK = 1 << 20


def _read_at_most(stream: IO[AnyStr], max_bytes: int) -> AnyStr:
    """At most ``max_bytes`` + 1 bytes (or characters, of a text stream) of ``stream``, a chunk
    at a time: ``read(n)`` allocates n bytes before it reads one, so a large limit on a stream
    that never ends (``/dev/zero``, a FIFO) asked for all of it at once (``MemoryError`` at
    ``--max-bytes 100000000000``, ``OverflowError`` near 2**63)."""
    chunks: list[AnyStr] = []
    left = max_bytes + 1
    while left > 0:
        chunk = stream.read(min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return chunks[0][:0].join(chunks) if chunks else stream.read(0)


def load_page(
    source: str | Path, *, base_url: str | None = None, timeout: float = 30.0, max_bytes: int = MAX_PAGE_BYTES
) -> Document:
    """Read and parse the page at ``source`` (see :func:`read_page`)."""
    raw = read_page(source, base_url=base_url, timeout=timeout, max_bytes=max_bytes)
    return parse_html(
        raw.body, url=raw.url, content_type=raw.content_type, source=raw.label, referrer_policy=raw.referrer_policy,
        security_policies=raw.security_policies,
    )


def document_of(
    page: PageSource,
    *,
    base_url: str | None = None,
    parser: Parser = "auto",
    timeout: float = 30.0,
    max_bytes: int = MAX_PAGE_BYTES,
) -> Document:
    """The :class:`Document` of any page source (see :data:`PageSource`), with the document URL
    a browser would give it: a file's ``file:`` URL, a fetched page's final URL, ``base_url``
    when given for markup, files and streams. A page read from elsewhere (a path, an open file,
    a URL) is read within ``max_bytes``, the page size limit; markup the caller holds in memory
    is parsed whatever its size (reading it costs nothing more, and the parse has its time
    limit)."""
    if isinstance(page, Document):
        return page
    if isinstance(page, str) and _names_a_page(page):
        how = f"load_page({page!r})" if is_url(page.strip()) else f"Path({page!r}) or load_page({page!r})"
        raise UsageProblem(f"{page!r} is markup without a tag, a page's name rather than the page: give {how} to read it")
    if isinstance(page, (str, bytes)):
        return parse_html(page, url=base_url, parser=parser)
    if isinstance(page, os.PathLike):
        raw = read_page(Path(os.fspath(page)), base_url=base_url, timeout=timeout, max_bytes=max_bytes)
    elif _is_url_object(page):
        raw = read_page(str(page), timeout=timeout, max_bytes=max_bytes)
    elif callable(getattr(page, "read", None)):
        raw = _read_stream(page, base_url, max_bytes)
    elif is_tree(page):
        from formtools._parse.exact import from_tree

        return from_tree(page, url=base_url)
    else:
        raise SourceError(
            f"cannot read a page from a {type(page).__name__}: give markup, bytes, a path, "
            "a file, a URL object, a Document or an lxml/BeautifulSoup tree"
        )
    return parse_html(
        raw.body,
        url=raw.url,
        content_type=raw.content_type,
        source=raw.label,
        parser=parser,
        referrer_policy=raw.referrer_policy,
        security_policies=raw.security_policies,
    )


_PAGE_SUFFIXES = (".html", ".htm", ".xhtml")


def _names_a_page(text: str) -> bool:
    """Whether ``text``, given as markup, is a URL or an HTML file's name instead: a ``str`` is
    markup, so ``extract_tools("page.html")`` or ``extract_tools("https://…")`` parsed the name
    itself and found no tools, without a word. Markup holding a tag, or any text with a space
    in it, is never taken for a name."""
    name = text.strip()
    if not name or "<" in name or any(c.isspace() for c in name):
        return False
    return is_url(name) or name.lower().endswith(_PAGE_SUFFIXES)


def _is_url_object(page: Any) -> bool:
    return type(page).__name__ == "URL" and is_url(str(getattr(page, "href", page)))


def _read_stream(stream: Any, base_url: str | None, max_bytes: int) -> RawPage:
    """An open file: its bytes (text is read as the UTF-8 it came from), up to ``max_bytes``;
    a file opened from a path has that path's ``file:`` URL as document URL, unless
    ``base_url`` says otherwise."""
    data = _read_at_most(stream, max_bytes)
    name = getattr(stream, "name", None)
    label = name if isinstance(name, str) else "<stream>"
    check_page_size(data, label, max_bytes)
    body = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    url = base_url
    if url is None and isinstance(name, str) and os.path.isfile(name):
        url = Path(name).resolve().as_uri()
    return RawPage(body, url, None, label)


def _fetch(url: str, timeout: float, max_bytes: int) -> RawPage:
    """One guarded, bounded GET (``formtools._net``): the deadline covers the whole fetch."""
    from formtools._net import FetchError, FetchPolicy, TooLarge, fetch

    try:
        response = fetch(
            "GET",
            url,
            headers={"Accept": "text/html,*/*;q=0.8"},
            policy=FetchPolicy(timeout=timeout, max_bytes=max_bytes),
        )
    except TooLarge:
        raise SourceError(too_large(shown(url), max_bytes)) from None
    except FetchError as error:
        raise NetworkError(str(error)) from None
    problem = page_problem(url, response.head, response.body)
    if problem is not None:
        raise (NetworkError if response.status >= 400 else SourceError)(problem)
    return RawPage(
        # the label names the page in every message and lint line: without the URL's credentials
        response.body,
        response.url,
        response.content_type,
        shown(url),
        response.headers.get("referrer-policy"),
        response.head.policies,
    )
