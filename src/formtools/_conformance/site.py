"""The oracle's local web site: it serves the pages the browser loads and records every request
that reaches it (a submission's method, target, headers and body), so that what Chromium sent
can be compared with what formtools would send. It needs no browser.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = ["LocalSite", "RecordedRequest"]


# --- the web server ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request as :class:`LocalSite` received it."""

    method: str
    target: str  #: the request-target: path and query, exactly as sent (percent-encoded)
    headers: tuple[tuple[str, str], ...]  #: in the order received, duplicates kept
    body: bytes

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]

    def header(self, name: str) -> str | None:
        """The first header called ``name`` (case-insensitive), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)

    @property
    def is_document(self) -> bool:
        """Whether it is a top-level document's navigation request: ``Sec-Fetch-Dest: document``
        or, to an origin that is not potentially trustworthy (``http://shop.test``), to which
        Chromium sends no Fetch Metadata at all, ``Upgrade-Insecure-Requests: 1``, which it sends
        on every navigation. Read from Fetch Metadata alone, a submission there was "no request
        arrived" after a 5 s wait, though it had."""
        destination = self.header("Sec-Fetch-Dest")
        if destination is not None:
            return destination.lower() == "document"
        return self.header("Sec-Fetch-Mode") is None and self.header("Upgrade-Insecure-Requests") == "1"

    @property
    def is_navigation(self) -> bool:
        """Whether it is any navigable's navigation request: the top-level document's, or a
        child navigable's (``Sec-Fetch-Dest`` ``iframe``, ``frame``, ``object``, ``embed``), which a
        form submits into when its target names an iframe. Read as top-level documents only, a
        submission into a page's hidden upload iframe was "no request", though it had arrived."""
        destination = self.header("Sec-Fetch-Dest")
        if destination is not None and destination.lower() in _CHILD_NAVIGABLES:
            return True
        return self.is_document


#: the ``Sec-Fetch-Dest`` of a navigation request inside a child navigable, by its container
_CHILD_NAVIGABLES = frozenset({"iframe", "frame", "object", "embed"})

_POST_RECEIVED = b"<!doctype html><title>received</title>"


class LocalSite:
    """A threaded HTTP/1.1 server on a random port of 127.0.0.1, used as a context manager.

    ``put`` maps a path to a response body; GET of an unmapped path is a 404, POST of one gets a
    small HTML page. Every request, favicon fetches included, is recorded in ``requests``.

    Inside ``holding_navigations()`` a navigation request (:attr:`RecordedRequest.is_document`) is
    recorded at once but answered only when the block ends, so that a navigation cannot commit
    while the browser is still answering a script call in the page it replaces. Inside
    ``without_landing()`` one to a path with no page is answered ``204 No Content``.
    """

    def __init__(self) -> None:
        self._pages: dict[str, tuple[bytes, list[tuple[str, str]]]] = {}
        self._redirects: dict[str, tuple[int, list[tuple[str, str]]]] = {}
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._gate = threading.Event()
        self._gate.set()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LocalSite:
        server = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        poll_interval = 0.05  # bounds how long shutdown() waits
        self._thread = threading.Thread(
            target=server.serve_forever, args=(poll_interval,), name="LocalSite", daemon=True
        )
        self._server = server
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None and self._thread is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join()
        self._server = self._thread = None

    @property
    def origin(self) -> str:
        if self._server is None:
            raise RuntimeError("LocalSite is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_port}"

    def put(
        self,
        path: str,
        body: bytes,
        content_type: str = "text/html; charset=utf-8",
        headers: Sequence[tuple[str, str]] = (),
    ) -> str:
        """Serve ``body`` at ``path`` (which starts with ``/``, no query), with ``headers``
        besides its ``Content-Type``, and return its URL."""
        if not path.startswith("/") or "?" in path:
            raise ValueError(f"path must start with '/' and have no query: {path!r}")
        with self._lock:
            self._pages[path] = (body, [("Content-Type", content_type), *headers])
        return self.origin + path

    def served(self, path: str) -> tuple[int, bytes, tuple[tuple[str, str], ...]] | None:
        """The status, body and headers a request for ``path`` is answered with now: a redirect
        registered there (which is answered before a page), else the page; None when there is
        neither. A redirect put at a page's path changes what a load of it gives: asked of the
        page alone, the oracle's ``again=`` reused the document loaded before it."""
        with self._lock:
            return self._served(path)

    def _served(self, path: str) -> tuple[int, bytes, tuple[tuple[str, str], ...]] | None:
        """:meth:`served`, for a caller holding the lock."""
        moved = self._redirects.get(path)
        if moved is not None:
            return moved[0], b"", (*moved[1], ("Content-Type", "text/plain"))
        page = self._pages.get(path)
        return None if page is None else (200, page[0], tuple(page[1]))

    def redirect(self, path: str, location: str, status: int = 302, headers: Sequence[tuple[str, str]] = ()) -> str:
        """Answer every request for ``path`` with ``status``, ``Location: location`` and
        ``headers``; return the path's URL."""
        with self._lock:
            self._redirects[path] = (status, [("Location", location), *headers])
        return self.origin + path

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """A snapshot of the requests received so far, oldest first."""
        with self._lock:
            return tuple(self._requests)

    @contextmanager
    def holding_navigations(self, timeout: float = 30.0) -> Iterator[None]:
        """Hold back the answers to navigation requests (for at most ``timeout`` seconds)."""
        self._gate_timeout = timeout
        self._gate.clear()
        try:
            yield
        finally:
            self._gate.set()

    _gate_timeout = 30.0

    @contextmanager
    def without_landing(self, *, pages_too: bool = False) -> Iterator[None]:
        """Answer a navigation request that arrives in the block for a path the site has neither
        a page nor a redirect for ``204 No Content`` (a top-level one is counted in
        :attr:`no_content_answers`): its navigable stays on its document, and no landing
        document is loaded, which cost the browser as much as a page load (across sites, a
        renderer process started for it and another for the next page). With ``pages_too``, a
        path the site has a page for is answered so as well (a redirect is still followed):
        for a caller that reads nothing of where a submission lands, a form submitting to its
        own page (``action=""``, ``?``, ``#x?``) loaded that page a second time."""
        self._no_content, self._no_content_on_pages = True, pages_too
        try:
            yield
        finally:
            self._no_content = self._no_content_on_pages = False

    _no_content = _no_content_on_pages = False

    @property
    def no_content_answers(self) -> int:
        """How many top-level documents' navigations were answered ``204 No Content`` (see
        :meth:`without_landing`)."""
        with self._lock:
            return self._no_content_answered

    _no_content_answered = 0

    def _answer(self, request: RecordedRequest) -> tuple[int, bytes, list[tuple[str, str]]]:
        with self._lock:
            self._requests.append(request)
            served = self._served(request.path)
            moved = request.path in self._redirects
            no_content = (
                self._no_content
                and (served is None or self._no_content_on_pages)
                and not moved
                and request.is_navigation
            )
        if served is not None and moved:
            return served[0], served[1], list(served[2])
        if request.is_document:
            self._gate.wait(self._gate_timeout)
        if no_content:
            if request.is_document:
                with self._lock:
                    self._no_content_answered += 1
            return 204, b"", []
        if served is not None:
            return served[0], served[1], list(served[2])
        if request.method == "POST":
            return 200, _POST_RECEIVED, [("Content-Type", "text/html; charset=utf-8")]
        return 404, b"not found", [("Content-Type", "text/plain; charset=utf-8")]


class _QuietServer(ThreadingHTTPServer):
    """A server that says nothing when the browser goes away before its answer is written:
    socketserver printed the BrokenPipeError's traceback on standard error, which a Chromium
    closed by Ctrl-C or SIGTERM as a page loaded put before ``formtools: terminated`` (1 in 14
    double SIGTERMs to ``diff``). Any other error is reported as before."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _handler_for(site: LocalSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = RecordedRequest(
                method=self.command,
                target=self.path,
                headers=tuple(self.headers.items()),
                body=self.rfile.read(length) if length else b"",
            )
            status, body, headers = site._answer(request)
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet: requests are recorded, not logged."""

    return Handler


