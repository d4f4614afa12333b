"""A server on 127.0.0.1 that writes each path's whole answer as it stands (status line, head
and body, however malformed), then closes the connection: what a live check of how Chromium
and formtools read an answer's head serves. Over TLS when given a server context (its close
a clean TLS close, so the answer ends where the server stopped, as over plain TCP)."""

from __future__ import annotations

import contextlib
import socketserver
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class RawSite(socketserver.ThreadingTCPServer):
    """A server on 127.0.0.1 writing each path's answer as it stands, then closing."""

    daemon_threads = True

    def __init__(self, answers: dict[str, bytes], tls: ssl.SSLContext | None = None) -> None:
        self.answers = answers
        super().__init__(("127.0.0.1", 0), _RawHandler)
        self.tls = tls is not None
        if tls is not None:
            self.socket = tls.wrap_socket(self.socket, server_side=True)


class _RawHandler(socketserver.StreamRequestHandler):
    server: RawSite

    def handle(self) -> None:
        request_line = self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        path = request_line.split(b" ")[1].decode().partition("?")[0] if request_line.count(b" ") >= 2 else ""
        self.wfile.write(self.server.answers.get(path, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
        if isinstance(self.connection, ssl.SSLSocket):
            self.wfile.flush()
            with contextlib.suppress(OSError):  # the client may close first, having read it all
                self.connection.unwrap()  # close_notify: the answer ends here, not in a TLS error


@contextmanager
def raw_site(tls: ssl.SSLContext | None = None) -> Iterator[tuple[str, dict[str, bytes]]]:
    """A running :class:`RawSite` (over TLS with ``tls``): its origin and the answers it serves
    by path (fill them in)."""
    answers: dict[str, bytes] = {}
    with RawSite(answers, tls) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"{'https' if server.tls else 'http'}://127.0.0.1:{server.server_address[1]}", answers
        finally:
            server.shutdown()
