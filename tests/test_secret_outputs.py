"""No secret in any output: an attack that plants distinctive secrets in every input position
and greps every byte formtools gives back for them.

Secrets (seeded, ``s3cr3t-…``): a page URL's user name and password, a sensitive field's value,
a header the caller adds, the cookies a site sets, a token a site sends in a redirect's
``Set-Cookie``, the password of the proxy the environment names (``HTTP_PROXY`` …, which
formtools never uses: a proxy would connect to addresses the guard never checked). Positions: real servers on 127.0.0.1 and [::1] that answer, redirect (within
and across origins), fail with 500, refuse connections, speak no TLS, stall past a deadline or
answer with garbage. Outputs: every CLI command's standard output and error (``extract``,
``lint`` in each format, ``validate``, ``call`` with and without ``--dry-run``/``--text``,
``report`` to standard output and into files, ``batch --urls`` and its summary, its output
file and a resumed run), the MCP bridge in process (its tool list, every call's result or
error, a refresh), every log record at DEBUG (httpcore's included), the
``str`` and ``repr`` of every error and of the public objects a call returns. Each secret is
looked for as written, percent-encoded, JSON-escaped and in base64 (alone, and as the
``user:password`` of ``Authorization: Basic``).
"""

from __future__ import annotations

import base64
import io
import json
import logging
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from support.hostile import ipv6_loopback
from typer.testing import CliRunner
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import formtools
from formtools._crawl.batch import BatchOptions, run_batch
from formtools.cli import app
from tests.conftest import run_async

SEED = 20261128


@dataclass(frozen=True)
class Secrets:
    user: str
    password: str
    field: str  # a sensitive field's value (type=password)
    header: str  # a header the caller adds
    cookie: str  # set by the form's page
    token: str  # set by the landing redirect
    proxy: str  # the password of a proxy the environment names (formtools uses none)

    @classmethod
    def planted(cls, seed: int) -> Secrets:
        """Each a distinctive core; a URL's user name and password and the field's value end
        with characters a URL or a form percent-encodes (non-ASCII, ``@``, ``/``, ``:``, ``%``,
        a space), so that a leak of their encoded form is found by the core."""
        pick = random.Random(seed)
        made = [f"s3cr3t-{name}-{pick.randrange(16**10):010x}" for name in ("u", "p", "f", "h", "c", "t", "x")]
        tails = ["".join(pick.sample("äé@/:% ", 3)) for _ in range(3)] + ["", "", "", ""]
        return cls(*(core + tail for core, tail in zip(made, tails)))

    def written(self) -> dict[str, str]:
        """Every secret in every form it may be written in, each naming what it is."""
        forms: dict[str, str] = {}
        for name, value in vars(self).items():
            forms[value] = name
            forms[quote(value, safe="")] = name
            forms[json.dumps(value)[1:-1]] = name
            forms[base64.b64encode(value.encode()).decode().rstrip("=")] = name + " (base64)"
        basic = base64.b64encode(f"{self.user}:{self.password}".encode()).decode().rstrip("=")
        forms[basic] = "user:password (Authorization: Basic)"
        return forms

    def found_in(self, text: str) -> list[str]:
        cores = {value[:19]: name for name, value in vars(self).items()}  # "s3cr3t-x-" and 10 hex digits
        return sorted({name for form, name in {**self.written(), **cores}.items() if form in text})


def _page(secrets: Secrets, other: str) -> dict[str, tuple[int, list[tuple[str, str]], bytes]]:
    login = (
        "<!doctype html><title>Sign in</title>"
        "<form toolname=sign_in tooldescription='Sign in' toolautosubmit method=post action=/login>"
        "<input name=user><input name=password type=password required><button>Go</button></form>"
        "<form toolname=lost tooldescription='Sign in elsewhere' toolautosubmit method=post action=/gone>"
        "<input name=pin type=password><button>Go</button></form>"
        "<form toolname=away tooldescription='Sign in away' toolautosubmit method=post action=/away>"
        "<input name=pin type=password><button>Go</button></form>"
        "<form toolname=broken tooldescription='Sign in broken' toolautosubmit method=post action=/garbage>"
        "<input name=pin type=password><button>Go</button></form>"
        "<form toolname=slow tooldescription='Sign in slowly' toolautosubmit method=post action=/stall>"
        "<input name=pin type=password><button>Go</button></form>"
        "<form toolname=strict tooldescription='Sign in strictly' toolautosubmit method=post action=/login>"
        "<input name=pin type=password minlength=99 pattern='[0-9]+'><input name=secret type=email>"
        "<input name=otp autocomplete=one-time-code maxlength=4><button>Go</button></form>"
        "<form toolname=query tooldescription='Sign in by GET' toolautosubmit action=/done>"
        "<input name=pin type=password><button>Go</button></form>"
    ).encode()
    done = b'<!doctype html><script type="application/ld+json">{"signed_in": true}</script><p>Welcome</p>'
    return {
        "/form": (200, [("Set-Cookie", f"sid={secrets.cookie}; Path=/")], login),
        "/login": (303, [("Set-Cookie", f"session={secrets.token}; Path=/"), ("Location", "/done")], b""),
        "/done": (200, [("Set-Cookie", f"again={secrets.token}; Path=/")], done),
        "/gone": (302, [("Location", "http://127.0.0.1:1/closed")], b""),
        "/away": (307, [("Location", other + "/done")], b""),
        "/500": (500, [("Set-Cookie", f"e={secrets.token}")], b"<p>oops</p>"),
    }


class _Site:
    """A site on ``host`` answering ``routes``; ``/garbage`` answers with no HTTP at all and
    ``/stall`` answers nothing."""

    def __init__(self, host: str) -> None:
        site = self
        self.routes: dict[str, tuple[int, list[tuple[str, str]], bytes]] = {}

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                path = self.path.split("?")[0]
                if path == "/garbage":
                    self.wfile.write(b"\x00\x01 not http at all\r\n\r\n")
                    return
                if path == "/stall":
                    time.sleep(1)
                    return
                status, headers, body = site.routes.get(path, (404, [], b"no"))
                self.send_response(status)
                for name, value in [("Content-Type", "text/html"), *headers]:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True

            do_GET = do_POST = _serve

            def log_message(self, *args: object) -> None:
                pass

        server_class = type("Server", (ThreadingHTTPServer,), {"daemon_threads": True,
                            "address_family": socket.AF_INET6 if ":" in host else socket.AF_INET})
        self._server = server_class((host, 0), Handler)
        self.origin = f"http://{f'[{host}]' if ':' in host else host}:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[_Site, _Site]]:
    if not ipv6_loopback():
        pytest.skip("no IPv6 loopback")
    v4, v6 = _Site("127.0.0.1"), _Site("::1")
    yield v4, v6
    v4.close()
    v6.close()


def _with_credentials(origin: str, secrets: Secrets) -> str:
    scheme, rest = origin.split("://")
    return f"{scheme}://{quote(secrets.user, safe='')}:{quote(secrets.password, safe='')}@{rest}"


def _cli(*args: str, stdin: str | None = None) -> str:
    """A command's standard output and error, in process (its error as the console script
    renders it: ``str()`` of a FormtoolsError, one line each, and its ``repr`` too)."""
    done = CliRunner().invoke(app, list(args), input=stdin)
    error = done.exception if not isinstance(done.exception, SystemExit) else None
    return f"{done.output}{error!s}{error!r}"


def _batch(*args: str) -> str:
    """``batch`` in its own process (its workers fork from it)."""
    done = subprocess.run([sys.executable, "-m", "formtools", "batch", *args], capture_output=True,
                          text=True, timeout=60)
    return done.stdout + done.stderr


def _cli_outputs(secrets: Secrets, origins: list[str], tmp_path: Path) -> list[str]:
    """Every command against every site, with secrets in the URL and the input."""
    outputs = []
    field = json.dumps({"user": "ann", "password": secrets.field})
    pin = json.dumps({"pin": secrets.field})
    listing = tmp_path / "urls.txt"
    lines = []
    for number, origin in enumerate(origins):
        page = _with_credentials(origin, secrets) + "/form"
        lines += [page, _with_credentials(origin, secrets) + "/500"]
        outputs.append(_cli("call", page, "sign_in", "--input", field, "--text"))
        outputs.append(_cli("call", page, "away", "--input", pin))
        outputs.append(_cli("extract", _with_credentials(origin, secrets) + "/garbage"))
        if number:
            continue  # the rest once: they show the same whatever the address
        outputs.append(_cli("extract", page, "--profile", "html"))
        for form in ("text", "json", "sarif", "github"):
            outputs.append(_cli("lint", page, "--format", form, "-v"))
        outputs.append(_cli("validate", page, "sign_in", "--input", field))
        outputs.append(_cli("validate", page, "sign_in", "--input", field, "--format", "json"))
        outputs.append(_cli("call", page, "sign_in", "--input", field, "--dry-run"))
        for strict in ({"pin": secrets.field}, {"secret": secrets.field}, {"otp": secrets.field},
                       {"pin": [secrets.field]}, {"pin": {secrets.field: 1}}):
            for format in ("text", "json"):
                outputs.append(_cli("validate", page, "strict", "--input", json.dumps(strict), "--profile",
                                    "html", "--format", format))
            outputs.append(_cli("call", page, "strict", "--input", json.dumps(strict)))
        for tool in ("lost", "broken", "nope"):
            outputs.append(_cli("call", page, tool, "--input", pin))
        outputs.append(_cli("extract", _with_credentials(origin, secrets) + "/500"))
        outputs.append(_cli("report", page, "--format", "json"))
        for written in ("report.md", "report.html", "report"):
            outputs.append(_cli("report", page, "--out", str(tmp_path / written)))
            files = [tmp_path / written] if "." in written else sorted((tmp_path / written).iterdir())
            outputs += [file.read_text() for file in files]
        outputs.append(_cli("extract", _with_credentials(origin.replace("http:", "https:"), secrets) + "/form"))
    for bad in ("http://[::1", "http://h:99999", "http://[bad"):  # URLs that do not parse
        outputs.append(_cli("extract", _with_credentials(bad, secrets)))
        outputs.append(_cli("extract", "-", "--base-url", _with_credentials(bad, secrets), stdin="<p>"))
    outputs.append(_cli("extract", _with_credentials("ftp://h", secrets)))
    outputs.append(_cli("batch", _with_credentials("http://h", secrets), "--out", "-"))
    refused = _with_credentials("http://127.0.0.1:1", secrets) + "/form"
    outputs.append(_cli("extract", refused))
    outputs.append(_cli("call", "-", "sign_in", "--input", field, "--base-url", refused,
                        stdin=_page(secrets, "")["/form"][2].decode()))
    listing.write_text("\n".join([*lines, refused, _with_credentials("ftp://h", secrets) + "/x", ""]))
    archive = tmp_path / "crawl.warc.gz"
    with archive.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for path, body in (("/form", _page(secrets, "")["/form"][2]), ("/cut", b"<form toolname")):
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            target = _with_credentials(origins[0], secrets) + path
            writer.write_record(writer.create_warc_record(target, "response", payload=io.BytesIO(body),
                                                          http_headers=headers))
    outputs.append(_batch(str(archive), "--out", "-", "--jobs", "2"))  # records read by workers
    lines = io.StringIO()
    outputs += [run_batch([str(archive)], lines, options=BatchOptions(jobs=1)).summary(), lines.getvalue()]
    out = tmp_path / "out.jsonl"
    outputs += [_batch("--urls", str(listing), "--out", str(out), "--jobs", "1"), out.read_text()]
    tally = run_batch([], out, urls=listing, options=BatchOptions(jobs=1, resume=True))
    outputs += [tally.summary(), out.read_text()]
    return outputs


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """The record's message; the bridge's as ``serve`` writes it, in both log formats."""
        self.lines.append(f"{record.name}: {record.getMessage()}")
        if record.name == "formtools.serve":
            from formtools.mcp import _JsonFormat, _TextFormat

            self.lines += [_TextFormat().format(record), _JsonFormat().format(record)]


def _library_outputs(secrets: Secrets, origins: list[str]) -> list[str]:
    """The library's calls with logging at DEBUG: the records, and the str and repr of what
    each call returns or raises."""
    records = _Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(records)
    root.setLevel(logging.DEBUG)
    shown: list[Any] = []
    try:
        for origin in origins:
            page = _with_credentials(origin, secrets)
            for path in ("/form", "/500", "/garbage"):
                try:
                    loaded = formtools.load_page(page + path)
                    shown.append(loaded)
                except formtools.FormtoolsError as error:
                    shown += [error, error.to_dict()]
            try:
                formtools.extract_tools(page + "/form")  # a URL given as markup
            except formtools.FormtoolsError as error:
                shown += [error, error.to_dict()]
            tools = {tool.name: tool for tool in formtools.extract_tools(formtools.load_page(page + "/form"))}
            shown.append(tools)
            for name in ("sign_in", "lost", "away", "broken", "slow", "query"):
                prepared = formtools.prepare_call(tools[name], {"user": "ann", "password": secrets.field}
                                                  if name == "sign_in" else {"pin": secrets.field})
                shown += [prepared, prepared.shown, prepared.request]
                try:
                    result = formtools.submit(prepared, confirm=True, include_text=True, timeout=0.3)
                    shown += [result, result.to_dict()]
                except formtools.FormtoolsError as error:
                    shown += [error, error.to_dict()]
            request = formtools.Request("GET", page + "/done", (("X-Api-Key", secrets.header),
                                                                 ("Authorization", f"Bearer {secrets.header}")))
            shown += [request, formtools.send_request(request)]
        shown += _bridge_outputs(secrets, origins[0])
    finally:
        root.removeHandler(records)
        root.setLevel(level)
    return records.lines + [f"{thing!s}\n{thing!r}" for thing in shown]


def _bridge_outputs(secrets: Secrets, origin: str) -> list[Any]:
    """``formtools serve`` in process (the SDK's in-memory client): the tool list, every call's
    result (completed, refused, failed, timed out, invalid) and a refresh."""
    from mcp import Client

    from formtools.mcp import Bridge, BridgeOptions, load_pages

    options = BridgeOptions(allow_private=True, timeout=0.5)
    bridge = Bridge(load_pages([_with_credentials(origin, secrets) + "/form"], options=options), options)
    calls = [(name, {"pin": secrets.field}) for name in ("lost", "away", "broken", "slow")]
    calls += [("sign_in", {"user": "ann", "password": secrets.field}), ("sign_in", {"password": [secrets.field]}),
              ("formtools_refresh", {})]

    async def main() -> list[Any]:
        async with Client(bridge.server()) as client:
            listed = await client.list_tools()
            published = {tool.name.rsplit("__", 1)[-1]: tool.name for tool in listed.tools}
            results = [await client.call_tool(published.get(name, name), arguments) for name, arguments in calls]
            return [listed, *results]

    return [thing.model_dump_json() for thing in run_async(main)]


def test_no_secret_reaches_any_output(
    sites: tuple[_Site, _Site], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = Secrets.planted(SEED)
    proxy = f"http://proxy-user:{secrets.proxy}@127.0.0.1:1"  # one that refuses, asked for by name
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.setenv(name, proxy)
    v4, v6 = sites
    v4.routes, v6.routes = _page(secrets, v6.origin), _page(secrets, v4.origin)
    origins = [v4.origin, v6.origin]
    leaks = []
    for output in [*_library_outputs(secrets, origins), *_cli_outputs(secrets, origins, tmp_path)]:
        found = secrets.found_in(output)
        if found:
            leaks.append(f"{found}: {output[:600]}")
    assert not leaks, "\n\n".join(leaks)


def test_the_browsers_validation_text_is_kept_byte_for_byte_by_the_credential_scrub() -> None:
    """``FormtoolsError`` removes a URL's user name and password from its message, and that
    rewrote Chromium's own validation text: an email field's value ``a://u:p@`` is quoted by
    "Please enter a part following '@'. 'a://u:p@' is incomplete.", and ``str()`` of the
    ValidationError read ``'a://' is incomplete`` while its ``problems`` (and the browser)
    said otherwise. The value is the caller's own, already in ``problems``: an InputError's
    and a ValidationError's message is now the problems' text as the browser wrote it. Seeded:
    60 email values of URL-like pieces (schemes, ``user:pass@``, ``@``, dots) on a strict
    email field and on an ordinary one filled to fail."""
    import formtools

    pick = random.Random(4040)
    html = ("<form toolname=t tooldescription=d toolautosubmit><input type=email name=e><input name=s pattern='[a-z]+'>"
            "<button>Go</button></form>")
    tool = formtools.extract_tools(html, base_url="https://example.test/")[0]
    pieces = ["a://", "ftp://", "u:p@", "@", "x", "h.", ".", "s3cr3t", ":", "/"]
    checked = 0
    for _ in range(60):
        value = "".join(pick.choice(pieces) for _ in range(pick.randint(1, 5)))
        try:
            formtools.prepare_call(tool, {"e": value, "s": "ok"})
        except (formtools.InputError, formtools.ValidationError) as error:
            if isinstance(error, formtools.InputError):
                assert str(error) == error.problems[0].message, (value, str(error))
            else:
                assert str(error) == "Form validation failed: " + "".join(
                    f"{p.key}: {p.message}. " for p in error.problems
                ), (value, str(error))
            checked += "@" in value and "://" in value
    assert checked > 5


def test_urls_are_found_in_a_message_in_linear_time_and_each_ones_credentials_go() -> None:
    """``shown_in_text`` (every FormtoolsError's message) and the call redactor find URLs with
    one pattern, which started a match at every letter: a run of scheme characters with no
    ``://`` after it was scanned again from each letter, so 100,000 of them and an ``@`` (a
    tool name or a value an agent sends, quoted back) took about 7 s, 400,000 two minutes.
    Seeded runs of scheme characters (letters, digits, ``+.-``) of 100,000 characters, and
    short texts with URLs carrying a password glued to such runs: each costs milliseconds,
    and no password is left."""
    from formtools._execute.redact import without_queries
    from formtools.errors import shown_in_text

    pick = random.Random(4000)
    alphabet = "abcxyz019+.-"
    started = time.process_time()  # CPU, which other processes' load leaves alone
    for _ in range(4):
        run = "".join(pick.choice(alphabet) for _ in range(100_000))
        for text in (run + "@", "@" + run + ":/", run + " http://u@h"):
            shown_in_text(text)
            without_queries(text)
    assert time.process_time() - started < 2.0  # (quadratic: 28 s)
    for number in range(200):
        secret = f"s3cr3t{number}"
        prefix = "".join(pick.choice(alphabet + " '") for _ in range(pick.randint(0, 6)))
        scheme = pick.choice(["http", "https", "ftp", "x+y", "a1.b-c"])
        text = f"{prefix}{scheme}://user:{secret}@host.example/p?q=1 and more"
        assert secret not in shown_in_text(text), text


def test_a_url_is_shown_as_written_but_for_its_user_name_and_password() -> None:
    """``shown`` (every message and crawl line naming a URL) gave the parsed ``href`` of a URL
    with credentials, another spelling of it: ``HTTP:\\\\h`` became ``http://h/``, and since a
    message's URL ends at a space, ``http://u:p@exa mple.com/`` came out ``http://exa/
    mple.com/`` and a list line's escaped ``\\xe9`` the path ``/xe9`` (adv21). Seeded URLs as
    people write them (scheme case, slashes and backslashes, tabs, spaces, ``@`` after the
    host, escapes): each is shown as written without its user information, and what is shown
    parses (ada, the URL Standard) to the URL without credentials."""
    import ada_url

    from formtools.errors import shown, shown_in_text

    pick = random.Random(2204)
    tried = 0
    for number in range(300):
        secret = f"s3cr{number}t"
        scheme = pick.choice(["http", "HTTPS", "hTtp", "ftp", "ws", "foo", "git+ssh"])
        special = scheme.lower() in ("http", "https", "ftp", "ws")
        slashes = pick.choice(["//", "\\\\", "/\\", "", "///", "/\t/"] if special else ["//"])
        user = pick.choice(["user", "", "a@b", "u\tv", "x%40y"])
        host = pick.choice(["host.example", "127.0.0.1:8080", "[::1]", "exa\tmple.com", "xn--fa-hia.de"])
        rest = pick.choice(["", "/", "/a b", "/caf\\xe9", "/p@x?q=a@b#f@g", "?@", "#x", "/\\xe9 z"])
        written = f"{scheme}:{slashes}{user}:{secret}@{host}{rest}"
        try:
            parsed = ada_url.URL(written)
        except ValueError:
            continue
        if not (parsed.username or parsed.password):
            continue
        tried += 1
        parsed.username, parsed.password = "", ""
        assert shown(written) == f"{scheme}:{slashes}{host}{rest}", written
        assert ada_url.URL(shown(written)).href == parsed.href, written
        if slashes == "//" and not any(c.isspace() for c in user + host):  # a URL a message's words hold
            assert shown_in_text(f"at {written}: refused") == f"at {scheme}:{slashes}{host}{rest}: refused", written
    assert tried > 150


_ONE_FORM = "<form toolname=t tooldescription=d action=/x><input name=q><button>Go</button></form>"


def test_no_password_shows_however_a_url_is_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``shown`` hid the user information of a URL that does not parse only after a scheme of
    URL characters at its very start, so a URL in quotes or ``<>``, with a misspelled, spaced or
    full-width scheme, or none (``user:pw@host/``, which parses as the scheme ``user:`` with no
    host) kept its password: in ``extract``'s and ``call``'s errors, the library's errors, a
    click usage error quoting an argument, and every message (``shown_in_text`` looked for
    ``://`` only). Seeded would-be URLs (:mod:`tests.support.urlgen`) through each: no piece of
    a password anywhere. And the other way: a URL without credentials, however wrapped or
    spelled, is shown as written, on one line."""
    from formtools import cli
    from formtools.errors import one_line as escaped
    from formtools.errors import shown, shown_in_text
    from tests.support import urlgen

    pick = random.Random(2206)
    leaks = []
    for number in range(60):
        written = urlgen.with_credentials(pick)
        text = written.text
        outputs = [shown(text), shown_in_text(f"at {text}: refused"), shown_in_text(f"at {text!r}: refused")]
        if number % 6 == 0:  # (the commands cost most: a sixth of the URLs)
            outputs += [_cli("extract", text),
                        _cli("call", "-", "t", "--input", "{}", "--base-url", text, "--dry-run", stdin=_ONE_FORM)]
        for call in (lambda: formtools.load_page(text), lambda: formtools.parse_html("<p>", url=text),
                     lambda: formtools.send_request(formtools.Request("GET", text), timeout=1)):
            try:
                outputs.append(repr(call()))
            except formtools.FormtoolsError as error:
                outputs += [str(error), repr(error), json.dumps(error.to_dict())]
        if number % 10 == 0:  # click's own usage error, which quotes the argument
            monkeypatch.setattr(sys, "argv", ["formtools", "extract", "page.html", text])
            with pytest.raises(SystemExit):
                cli._main()
            outputs.append(capsys.readouterr().err)
        leaks += [(text, output) for output in outputs if any(piece in output for piece in written.secrets)]
    assert not leaks, leaks[:5]

    for number in range(60):
        text = urlgen.without_credentials(pick, breaks="\t\n")
        assert shown(text) == text and shown_in_text(f"at {text}: x") == f"at {text}: x", text
        if not urlgen.fetched(text) and number % 6 == 0:  # a page's name that is no URL: a file's, not found
            assert f"{escaped(text)}: no such file or directory" in _cli("extract", text), text

    # a password with spaces or tabs, in a message that quotes the whole argument (a URL that
    # does not parse, one not http(s), a path): shown_in_text's words ended at its first space
    out = str(tmp_path / "out.jsonl")
    for _ in range(12):
        written = urlgen.with_credentials(pick, breaks="", joins=urlgen.SPACED_JOINS)
        text = written.text
        outputs = [_cli("extract", text), _cli("batch", "--urls", text, "--out", out), _cli("batch", text, "--out", out)]
        leaks += [(text, output) for output in outputs if any(piece in output for piece in written.secrets)]
    assert not leaks, leaks[:5]


@pytest.mark.parametrize("target", ["javascript:alert(1)", "data:text/html,x", "http://[oops"])
def test_a_short_secret_in_a_submission_that_redirects_nowhere_stays_out_of_the_reason(target: str) -> None:
    """A GET submission whose answer redirects where Chromium does not go completes without a
    result, and its reason names the URLs it was refused at, whose query is the form's. A
    secret shorter than four characters (a card code, a PIN) is masked by its parameter's name
    only, as error messages are masked; the reason was masked as page text, by value, which
    skips such short ones, so ``pin=7q9`` showed (and a long query cut at 200 characters hid the
    value's end from a value match too)."""
    from support.site import TestSite

    with TestSite() as site:
        site.redirects["/pay"] = target
        page = (
            "<form toolname=pay tooldescription=d toolautosubmit action=/pay>"
            "<input type=password name=pin autocomplete=cc-csc><input name=note><button>Pay</button></form>"
        )
        url = site.put("pay", page.encode())
        (tool,) = formtools.extract_tools(site.pages["/page/pay"], base_url=url)
        result = formtools.call_tool(tool, {"note": "n" * 250, "pin": "7q9"})
    assert result.withheld and result.reason and "redirects" in result.reason, result
    assert "7q9" not in result.reason and "7q9" not in repr(result), result.reason


def test_a_secret_autocomplete_field_is_masked_with_every_token_html_lets_it_carry() -> None:
    """An autocomplete value is detail tokens (HTML's autofill: an optional ``section-*``,
    ``shipping``/``billing``, the field name, then an optional ``webauthn``, any ASCII case,
    any ASCII white space between). The processing model takes a trailing ``webauthn`` off
    before it reads the field name; formtools read ``webauthn`` as the field, so ``cc-csc
    webauthn`` or ``one-time-code WebAuthn`` printed the value in clear in ``call --dry-run``.
    Generated: each secret field name formtools knows, seeded token mixes, every spelling's
    value masked in the shown request; the same value under a field that is no secret shown."""
    rng = random.Random(2111)
    secrets = ["cc-csc", "cc-number", "cc-exp", "current-password", "new-password", "one-time-code"]
    for field in [*secrets, "email", "street-address"]:
        for _ in range(8):
            tokens = [
                rng.choice(["", "section-a"]),
                rng.choice(["", "billing", "shipping"]),
                "".join(rng.choice([c, c.upper()]) for c in field),
                rng.choice(["", "webauthn", "WebAuthn", "WEBAUTHN"]),
            ]
            value = rng.choice([" ", "\t", "\n "]).join(token for token in tokens if token)
            page = (
                "<form toolname=t tooldescription=d toolautosubmit method=post action=/x>"
                f'<input name=a autocomplete="{value}"><button>Go</button></form>'
            )
            (tool,) = formtools.extract_tools(page, base_url="https://s.example/")
            shown = formtools.prepare_call(tool, {"a": "SECRET1234"}).shown
            printed = json.dumps(shown.to_dict())
            assert ("SECRET1234" in printed) == (field not in secrets), (value, printed)


def test_the_reports_messages_show_no_password_however_a_page_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``report``'s messages quoted a page and its ``--out`` as given: a directory named like a
    URL with its credentials (``PAGE: no .html pages in this directory``) and an output it
    cannot write (``--out: OUT: cannot write``) showed the password. Seeded would-be URLs
    (:mod:`tests.support.urlgen`) as both, in process: no piece of a password, and each
    message still says what is wrong."""
    from tests.support import urlgen

    monkeypatch.chdir(tmp_path)
    pick = random.Random(2324)
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    page = tmp_path / "page.html"
    page.write_text(_ONE_FORM)
    leaks = []
    for number in range(40):
        written = urlgen.with_credentials(pick, breaks="", joins=urlgen.SPACED_JOINS if number % 2 else urlgen.JOINS)
        directory = Path(written.text.replace("\\", "/"))  # a directory the text names
        directory.mkdir(parents=True, exist_ok=True)
        outputs = [
            _cli("report", written.text.replace("\\", "/")),
            _cli("report", "--out", f"{blocker.name}/{written.text}", "--format", "md", page.name),
        ]
        assert "no .html pages in this directory" in outputs[0], outputs[0]
        assert "cannot write" in outputs[1], outputs[1]
        leaks += [(written.text, output) for output in outputs if any(piece in output for piece in written.secrets)]
    assert not leaks, leaks[:5]


def test_batchs_out_messages_show_no_password_however_the_out_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``batch``'s messages about ``--out`` quoted it as given: an output whose directory does
    not exist (``--out: DIR: no such directory``), one that is a directory, one that is an
    input and one that cannot be written showed the password of an output named like a URL.
    Seeded would-be URLs (:mod:`tests.support.urlgen`) that a path keeps as written as each,
    in process: no piece of a password, and each message still says what is wrong."""
    from tests.support import urlgen

    monkeypatch.chdir(tmp_path)
    pick = random.Random(2308)
    page = tmp_path / "page.html"
    page.write_text(_ONE_FORM)
    leaks, said = [], []
    while len(said) < 24:
        written = urlgen.with_credentials(pick, breaks="", joins=urlgen.SPACED_JOINS if len(said) % 2 else urlgen.JOINS)
        text = written.text.replace("\\", "/")
        if str(Path(text)) != text:  # a Path keeps one slash of "//": left out (the report names it)
            continue
        folder = Path(text)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "in.html").write_text(_ONE_FORM)
        outputs = [
            _cli("batch", page.name, "--out", f"{text}/missing/x.jsonl"),
            _cli("batch", page.name, "--out", text),
            _cli("batch", f"{text}/in.html", "--out", f"{text}/in.html"),
        ]
        said += [[why in output for why, output in zip(["no such directory", "is a directory", "is the input"], outputs)]]
        leaks += [(written.text, output) for output in outputs if any(piece in output for piece in written.secrets)]
    assert all(all(each) for each in said), said
    assert not leaks, leaks[:5]


def test_an_insecure_actions_password_stays_out_of_the_mixed_content_reason() -> None:
    """An https page whose form targets ``http://user:password@…``: the call is not sent (mixed
    content) and its reason names the action without the user name and password. Before, the
    reason quoted the action as written, password and all."""
    rng = random.Random(2026112923)
    secret = f"s3cr3t-{rng.randrange(10**9)}"
    page = formtools.parse_html(
        f'<form toolname=t tooldescription=d toolautosubmit action="http://u:{secret}@shop.example/s"><input name=q></form>',
        url="https://shop.example/p",
    )
    (tool,) = formtools.extract_tools(page)
    result = formtools.call_tool(tool, {"q": "x"}, confirm=True)
    assert result.status == "not-sent" and "Mixed Content" in (result.reason or ""), result
    assert secret not in repr(result) and "shop.example/s" in (result.reason or ""), result.reason
