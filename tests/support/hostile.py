"""A hostile web server and a lying resolver, for the guarded fetch's tests.

:class:`HostileServer` is a real HTTP server (threads, ``http.server``) on ``127.0.0.1`` or
``[::1]``, optionally over TLS. Its routes do what an attacker's server does:

- ``/ok``: a small page naming the server (``hello from <label>``);
- ``/echo``: JSON of the request it got (method, path, headers, body);
- ``/redirect?to=<url>&status=<code>``: a redirect to anywhere (raw ``Location``);
- ``/loop``: a redirect to itself, forever;
- ``/chain/<n>?delay=<s>``: ``n`` redirects, each answered after ``delay`` seconds, then a page;
- ``/cookie?domain=<d>&name=<n>&attributes=<a>``: sets ``<n>=s3cret`` (``sid`` by default; for
  ``Domain=<d>`` if given; ``<a>``, such as ``; Secure``, appended) and redirects to ``/echo``;
- ``/set-cookie?line=<hex>``: a page whose ``Set-Cookie`` is those bytes, as they are (a line
  of its own after each newline);
- ``/cookies?prefix=<p>&count=<n>``: a page setting ``n`` cookies, ``<p>0=1`` and on;
- ``/trickle?gap=<s>``: a 200 promising a megabyte, then one byte every ``gap`` seconds;
- ``/trickle-headers?gap=<s>``: the status line and headers, one byte every ``gap`` seconds;
- ``/stall``: reads the request, answers nothing;
- ``/huge``: declares a terabyte, then sends zeros until the client leaves;
- ``/endless``: no length at all, zeros until the client leaves;
- ``/bomb``: a gzip body of a few dozen kilobytes that inflates to 64 MiB;
- ``/gzip``: a small, honest gzip page;
- ``/gzip-then-endless``: a small gzip page, then zeros after its gzip data until the client leaves.
- ``/layers?codings=<list>&split=<n,…>&times=<n>``: a small page coded by each coding of the
  comma-separated list in turn (``gzip``, ``x-gzip``, ``deflate``, any letter case), its
  ``Content-Encoding`` the list as written, ``times`` times over, on a new line after each of
  the ``split`` positions.

Every slow route stops when the client goes away or the server stops, and after 20 s anyway:
a failing test cannot leave a thread streaming forever.

:class:`LyingResolver` replaces ``socket.getaddrinfo`` (the real socket-level function, through
``monkeypatch``): a name it knows answers from a script — a public address first, loopback next
— and every other name goes to the real resolver. It counts the lookups of each name.
"""

from __future__ import annotations

import datetime
import functools
import gzip
import ipaddress
import json
import socket
import ssl
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

_SLOW_LIMIT = 20.0  # no slow route runs longer than this
LAYERED_PAGE = b"<!doctype html><p>in layers</p>"  # what /layers sends, coded


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@functools.cache
def _bomb(size: int = 64 * 2**20) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    zeros = bytes(2**20)
    parts = [packer.compress(zeros) for _ in range(size // len(zeros))]
    return b"".join(parts) + packer.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class _Server6(_Server):
    address_family = socket.AF_INET6


class HostileServer:
    """A hostile HTTP(S) server on ``host`` (``127.0.0.1`` or ``::1``); ``label`` names it in
    its pages. ``port=0`` picks a free port."""

    __test__ = False

    def __init__(self, host: str = "127.0.0.1", *, port: int = 0, label: str | None = None,
                 tls: ssl.SSLContext | None = None) -> None:
        self.host = host
        self.label = label or ("v6" if ":" in host else "v4")
        self.seen: list[Seen] = []
        self.stopping = threading.Event()
        server_class = _Server6 if ":" in host else _Server
        self._server = server_class((host, port), self._handler())
        self.tls = tls is not None
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def origin(self) -> str:
        scheme = "https" if self.tls else "http"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def paths(self) -> list[str]:
        return [seen.path for seen in self.seen]

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    # -- routes ------------------------------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # answers leave at once: with Nagle on, each waits ~40 ms for the client's delayed ACK
            disable_nagle_algorithm = True

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                server.seen.append(Seen(self.command, self.path, dict(self.headers.items()), body))
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                route = getattr(server, "_route_" + parts.path.strip("/").split("/")[0].replace("-", "_"), None)
                try:
                    if route is None:
                        self._answer(404, b"not found")
                    else:
                        route(self, parts.path, query, body)
                except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
                    pass  # the client hung up: what a guarded client does to a hostile server
                self.close_connection = True

            do_GET = do_POST = do_PUT = do_HEAD = _serve

            def _answer(self, status: int, body: bytes, headers: list[tuple[str, str]] | None = None,
                        content_type: str = "text/html; charset=utf-8") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for name, value in headers or []:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        return Handler

    def _slow(self) -> Callable[[], bool]:
        """True while a slow route may go on."""
        end = time.monotonic() + _SLOW_LIMIT
        return lambda: not self.stopping.is_set() and time.monotonic() < end

    def _route_ok(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        h._answer(200, f"<!doctype html><p>hello from {self.label}</p>".encode())

    def _route_echo(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        echo = {"label": self.label, "method": h.command, "path": h.path,
                "headers": {k.lower(): v for k, v in h.headers.items()}, "body": body.decode("latin-1")}
        h._answer(200, json.dumps(echo).encode(), content_type="application/json")

    def _route_redirect(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        h._answer(int(query.get("status", "302")), b"", [("Location", query["to"])])

    def _route_loop(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        h._answer(302, b"", [("Location", "/loop")])

    def _route_chain(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        left = int(path.rsplit("/", 1)[1])
        delay = float(query.get("delay", "0"))
        if delay:
            self.stopping.wait(delay)
        if left == 0:
            h._answer(200, b"<p>end of the chain</p>")
        else:
            suffix = f"?delay={delay}" if delay else ""
            h._answer(302, b"", [("Location", f"/chain/{left - 1}{suffix}")])

    def _route_cookie(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        domain = f"; Domain={query['domain']}" if "domain" in query else ""
        name, attributes = query.get("name", "sid"), query.get("attributes", "")
        h._answer(302, b"", [("Set-Cookie", f"{name}=s3cret; Path=/{domain}{attributes}"), ("Location", "/echo")])

    def _route_set_cookie(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        lines = bytes.fromhex(query["line"]).decode("latin-1").split("\n")
        h._answer(200, b"<p>set</p>", [("Set-Cookie", line) for line in lines])

    def _route_cookies(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        prefix, count = query["prefix"], int(query["count"])
        h._answer(200, b"<p>set</p>", [("Set-Cookie", f"{prefix}{n}=1; Path=/") for n in range(count)])

    def _route_trickle(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        gap = float(query.get("gap", "0.2"))
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Content-Length", str(2**20))
        h.end_headers()
        h.wfile.flush()
        going = self._slow()
        while going():
            h.wfile.write(b"x")
            h.wfile.flush()
            self.stopping.wait(gap)

    def _route_trickle_headers(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        gap = float(query.get("gap", "0.2"))
        going = self._slow()
        head = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 100_000
        for byte in head:
            if not going():
                break
            h.wfile.write(bytes([byte]))
            h.wfile.flush()
            self.stopping.wait(gap)

    def _route_stall(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        going = self._slow()
        while going():
            self.stopping.wait(0.05)
            try:  # stop once the client has gone
                if h.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                    return
            except BlockingIOError:
                pass

    def _zeros(self, h: Any, headers: list[tuple[str, str]], first: bytes = b"") -> None:
        h.send_response(200)
        for name, value in headers:
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(first)
        zeros = bytes(64 * 1024)
        going = self._slow()
        while going():
            h.wfile.write(zeros)

    def _route_huge(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        self._zeros(h, [("Content-Type", "text/html"), ("Content-Length", str(10**12))])

    def _route_endless(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        self._zeros(h, [("Content-Type", "text/html"), ("Connection", "close")])

    def _route_bomb(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        h._answer(200, _bomb(), [("Content-Encoding", "gzip")])

    def _route_gzip(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        h._answer(200, gzip.compress(b"<p>" + b"squeezed " * 1000 + b"</p>"), [("Content-Encoding", "gzip")])

    def _route_layers(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        codings = query["codings"].split(",")
        page = LAYERED_PAGE
        for coding in codings:
            page = zlib.compress(page) if coding.strip().lower() == "deflate" else gzip.compress(page)
        listed = codings * int(query.get("times", "1"))
        cuts = [0, *sorted(int(n) for n in query.get("split", "").split(",") if n), len(listed)]
        lines = [("Content-Encoding", ",".join(listed[a:b])) for a, b in zip(cuts, cuts[1:]) if b > a]
        h._answer(200, page, lines)

    def _route_gzip_then_endless(self, h: Any, path: str, query: dict[str, str], body: bytes) -> None:
        headers = [("Content-Type", "text/html"), ("Content-Encoding", "gzip"), ("Connection", "close")]
        self._zeros(h, headers, first=gzip.compress(b"<p>squeezed</p>"))


def twin_servers(**kwargs: Any) -> tuple[HostileServer, HostileServer]:
    """A server on 127.0.0.1 and one on ::1 listening on the same port number (so that a name
    resolving to either reaches one of them with the same URL)."""
    for _ in range(20):
        v4 = HostileServer("127.0.0.1", **kwargs)
        try:
            v6 = HostileServer("::1", port=v4.port, **kwargs)
        except OSError:
            v4._server.server_close()
            continue
        return v4, v6
    raise OSError("no port free on both 127.0.0.1 and ::1")


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


# --- a resolver that lies -------------------------------------------------------------------


@dataclass
class LyingResolver:
    """``socket.getaddrinfo`` that answers ``script[name]`` one answer per lookup (the last one
    repeating) and passes every other name to the real resolver."""

    script: dict[str, list[list[str]]]
    delay: dict[str, float] = field(default_factory=dict)  # a resolver that hangs for a name
    released: threading.Event = field(default_factory=threading.Event)  # ends every hang at once
    answered: dict[str, int] = field(default_factory=dict)  # lookups that returned, per name
    real: Callable[..., Any] = field(default=socket.getaddrinfo)
    lookups: dict[str, int] = field(default_factory=dict)

    def __call__(self, host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0,
                 flags: int = 0) -> list[tuple[Any, ...]]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in self.script:
            return self.real(host, port, family, type, proto, flags)  # type: ignore[no-any-return]
        count = self.lookups.get(name, 0)
        self.lookups[name] = count + 1
        if name in self.delay:
            self.released.wait(self.delay[name])
        self.answered[name] = self.answered.get(name, 0) + 1
        answers = self.script[name]
        answer = answers[min(count, len(answers) - 1)]
        number = int(port or 0)
        infos: list[tuple[Any, ...]] = []
        for text in answer:
            address = ipaddress.ip_address(text)
            if address.version == 4:
                infos.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (text, number)))
            else:
                infos.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (text, number, 0, 0)))
        return infos

    def next_answer(self, name: str) -> list[str]:
        """What the next lookup of ``name`` would answer (without counting it)."""
        answers = self.script[name]
        return answers[min(self.lookups.get(name, 0), len(answers) - 1)]


# --- certificates ---------------------------------------------------------------------------


def certificates(*names: str) -> tuple[ssl.SSLContext, ssl.SSLContext, list[str]]:
    """A throwaway CA and a server certificate for ``names``: the server's SSL context, a client
    context trusting only that CA, and a list that collects the SNI names the server is asked
    for."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def build(subject: str, key: Any, issuer: Any, issuer_key: Any, ca: bool) -> Any:
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(issuer)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if not ca:
            builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False)
        return builder.sign(issuer_key, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "formtools test CA")])
    ca_cert = build("formtools test CA", ca_key, ca_name, ca_key, True)
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = build(names[0], leaf_key, ca_name, ca_key, False)

    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    # ssl loads a chain from a file only: one that lives as long as the loading (it held a
    # private key in a folder every run left in the temporary directory)
    with tempfile.TemporaryDirectory(prefix="formtools-tls-") as folder:
        pem = Path(folder) / "leaf.pem"
        pem.write_bytes(
            leaf.public_bytes(serialization.Encoding.PEM)
            + leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption())
        )
        server.load_cert_chain(pem)
    asked: list[str] = []

    def remember(sock: Any, name: str | None, context: Any) -> None:
        asked.append(name or "")

    server.sni_callback = remember
    client = ssl.create_default_context(cadata=ca_cert.public_bytes(serialization.Encoding.PEM).decode())
    return server, client, asked
