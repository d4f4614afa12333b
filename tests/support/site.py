"""A real web site on 127.0.0.1 for execution tests: it records what it receives and answers the
way sites answer form submissions (JSON-LD pages, redirect-after-POST, cookies)."""

from __future__ import annotations

import base64
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Received:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> str:
        return urlsplit(self.target).query


def _page(*blocks: str, title: str = "result") -> bytes:
    scripts = "".join(f'<script type="application/ld+json">{b}</script>' for b in blocks)
    return f"<!doctype html><title>{title}</title>{scripts}<p>Thanks!</p>".encode()


class TestSite:
    """Routes:

    - ``/submit`` (any method): a page whose JSON-LD echoes the request, plus an empty and a
      broken block (both skipped by the tool result) and one with a comment.
    - ``/login`` (POST): sets ``session=<user>``, then 303 to ``/account``.
    - ``/account``: JSON-LD naming the session cookie's user (or null).
    - ``/moved``: 302 to ``/submit?moved=1``.
    - ``/keys`` (POST): makes an API key, then 303 to ``/keys/<n>``, whose JSON-LD shows it;
      ``/keys-now`` (POST): makes one and shows it in the answer itself (no redirect);
      ``/keys-in-url`` (POST): makes one and redirects to ``/shown?key=<key>``, which shows it;
      ``/keys-lost`` (POST): makes one and redirects to a closed port with it in the query.
    - ``/page/<name>``: pages put with :meth:`put`.

    ``delays`` (path → seconds) makes a path answer that much later: a slow site.
    """

    __test__ = False  # a helper, not a test class

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.pages: dict[str, bytes] = {}
        self.redirects: dict[str, str] = {}  # path → where it now redirects (302)
        self.delays: dict[str, float] = {}  # path → seconds before it answers
        self.keys: list[str] = []  # the API keys /keys made, in order
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def put(self, name: str, html: bytes) -> str:
        self.pages[f"/page/{name}"] = html
        return f"{self.origin}/page/{name}"

    def submissions(self) -> list[Received]:
        return [r for r in self.received if r.path in ("/submit", "/login")]

    def __enter__(self) -> "TestSite":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # answers leave at once: with Nagle on, each waits ~40 ms for the client's delayed ACK
            disable_nagle_algorithm = True

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                received = Received(self.command, self.path, dict(self.headers.items()), body)
                site.received.append(received)
                time.sleep(site.delays.get(received.path, 0.0))
                status, headers, payload = site._route(received)
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _serve  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        return Handler

    def _route(self, request: Received) -> tuple[int, list[tuple[str, str]], bytes]:
        html = [("Content-Type", "text/html; charset=utf-8")]
        if request.path in self.redirects:
            return 302, [("Location", self.redirects[request.path])], b""
        if request.path == "/submit":
            echo = {
                "@type": "Submission",
                "method": request.method,
                "query": request.query,
                "contentType": request.headers.get("Content-Type"),
                "body": request.body.decode("latin-1"),
            }
            return 200, html, _page(json.dumps(echo), "", "{broken", '/* note */ "second"')
        if request.path == "/echo-encoded":  # a site that writes what it got back in other forms
            fields = parse_qs(request.body.decode())
            user, password = fields.get("user", [""])[0], fields.get("password", [""])[0]
            basic = base64.b64encode(f"{user}:{password}".encode()).decode()
            echo = {"@type": "Echo", "authorization": f"Basic {basic}", "raw": request.body.decode()}
            return 200, html, _page(json.dumps(echo))
        if request.path == "/login":
            user = parse_qs(request.body.decode())["email"][0]
            return 303, [("Location", "/account"), ("Set-Cookie", f"session={user}; Path=/")], b""
        if request.path == "/account":
            cookies = dict(
                part.strip().split("=", 1)
                for part in request.headers.get("Cookie", "").split(";")
                if "=" in part
            )
            return 200, html, _page(json.dumps({"@type": "Account", "user": cookies.get("session")}))
        if request.path in ("/keys", "/keys-now", "/keys-in-url", "/keys-lost") and request.method == "POST":
            self.keys.append(f"sk-live-{len(self.keys) + 1:04d}-{'x' * 20}")
            key = self.keys[-1]
            if request.path == "/keys-now":
                return 200, html, _page(json.dumps({"@type": "APIKey", "key": key}))
            if request.path == "/keys-in-url":
                return 303, [("Location", f"/shown?key={key}")], b""
            if request.path == "/keys-lost":
                return 303, [("Location", f"http://127.0.0.1:1/done?key={key}")], b""
            return 303, [("Location", f"/keys/{len(self.keys)}")], b""
        if request.path == "/shown":
            return 200, html, _page(json.dumps({"@type": "APIKey", "key": parse_qs(request.query)["key"][0]}))
        if request.path.startswith("/keys/") and request.path[6:].isdigit():
            key = self.keys[int(request.path[6:]) - 1]
            return 200, html, _page(json.dumps({"@type": "APIKey", "key": key}))
        if request.path == "/moved":
            return 302, [("Location", "/submit?moved=1")], b""
        if request.path in self.pages:
            return 200, html, self.pages[request.path]
        return 404, [("Content-Type", "text/plain")], b"not found"
