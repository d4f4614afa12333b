"""A server on 127.0.0.1 that writes each path's whole answer as it stands (status line, head
and body, however malformed), then closes the connection: what a live check of how Chromium
and formtools read an answer's head serves."""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class RawSite(socketserver.ThreadingTCPServer):
    """A server on 127.0.0.1 writing each path's answer as it stands, then closing."""

    daemon_threads = True

    def __init__(self, answers: dict[str, bytes]) -> None:
        self.answers = answers
        super().__init__(("127.0.0.1", 0), _RawHandler)


class _RawHandler(socketserver.StreamRequestHandler):
    server: RawSite

    def handle(self) -> None:
        request_line = self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        path = request_line.split(b" ")[1].decode().partition("?")[0] if request_line.count(b" ") >= 2 else ""
        self.wfile.write(self.server.answers.get(path, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))


@contextmanager
def raw_site() -> Iterator[tuple[str, dict[str, bytes]]]:
    """A running :class:`RawSite`: its origin and the answers it serves by path (fill them in)."""
    answers: dict[str, bytes] = {}
    with RawSite(answers) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}", answers
        finally:
            server.shutdown()
