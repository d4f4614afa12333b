"""``formtools batch``: directories, files, WARC archives and URL lists in, JSON lines out.

Runs the real command (worker processes included) on pages and archives built here and a real
HTTP server on 127.0.0.1, and holds every line to what ``formtools extract`` says of the page.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import formtools
from formtools._crawl import batch as _batch
from formtools._crawl.batch import BatchOptions, FetchOptions, run_batch
from formtools._parse.prefilter import may_hold_tools
from formtools.cli import app
from tests.conftest import ENV, FIXTURES
from tests.support.forkserve import formtools_command

# well-formed XML with its form in the XHTML namespace: served as XHTML it is a page Chromium's
# XML parser registers the tool of (tests/test_browser_xhtml.py)
TOOL = b"<form xmlns='http://www.w3.org/1999/xhtml' toolname='search' tooldescription='Search the site'><input name='q'/></form>"
LATIN = "<form toolname=cafe tooldescription='Caf\xe9 cr\xe8me'><input name=q></form>".encode(
    "cp1252"
)
NO_TOOL = b"<form action=/login><input name=user></form><p>no tools here</p>"
UNNAMED = b"<form tooldescription='forgot its name'><input name=q></form>"


def run(*args: str) -> subprocess.CompletedProcess:
    """``formtools batch ARGS``, forked from a warm interpreter (tests/support/forkserve.py): its
    exit code, output and files as from ``python -m formtools``, without importing formtools
    again for each of the file's runs. Tests of signals and of the process keep a plain start."""
    return subprocess.run([*formtools_command(ENV), "batch", *args], capture_output=True, env=ENV, timeout=120)


def lines(out: Path) -> dict[str, dict]:
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    by_name = {record.get("path", record.get("url")): record for record in records}
    assert len(by_name) == len(records), "a page appears twice"
    return by_name


def cli_extract(path: Path) -> list[dict]:
    done = CliRunner().invoke(app, ["extract", str(path)])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def test_a_directory_of_fixtures_matches_formtools_extract(tmp_path: Path) -> None:
    out = tmp_path / "tools.jsonl"
    done = run(str(FIXTURES), "--out", str(out), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    found = lines(out)
    pages = sorted(FIXTURES.rglob("*.html"))
    assert sorted(found) == sorted(str(p) for p in pages)
    for page in pages:
        record = found[str(page)]
        assert record["tools"] == cli_extract(page), page.name
        result = formtools.extract(formtools.load_page(page))
        errors = sum(d.severity is formtools.Severity.ERROR for d in result.diagnostics)
        warnings = sum(d.severity is formtools.Severity.WARNING for d in result.diagnostics)
        if "skipped" not in record:
            assert record["diagnostics"] == {"errors": errors, "warnings": warnings}, page.name
    # stderr holds the one-line summary only: no progress bar when it is not a terminal
    summary = done.stderr.decode().strip()
    assert summary.startswith(f"formtools: {len(pages)} pages (") and "\n" not in summary
    assert f"{sum(len(r['tools']) for r in found.values())} tools" in summary


def write_pages(root: Path) -> dict[str, bytes]:
    pages = {
        "tool.html": TOOL,
        "deep/er/latin.htm": b"<meta charset=windows-1252>" + LATIN,
        "deep/none.HTML": NO_TOOL,
        "utf16.html": "\ufeff<form TOOLNAME=wide tooldescription=w><input name=q></form>".encode(
            "utf-16-le"
        ),
    }
    for name, body in pages.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(body)
    (root / "notes.txt").write_bytes(TOOL)  # not a page: never read
    return pages


@pytest.mark.parametrize("jobs", ["1", "2"])  # 2: the worker processes read the files
def test_directory_recursion_explicit_files_and_an_unreadable_file(tmp_path: Path, jobs: str) -> None:
    site = tmp_path / "site"
    write_pages(site)
    out = tmp_path / "tools.jsonl"
    unreadable = str(tmp_path / "loop.html")  # there, but unreadable (a link to itself): its error line
    os.symlink(unreadable, unreadable)
    done = run(str(site), unreadable, str(site / "tool.html"), "--out", str(out), "--jobs", jobs)
    assert done.returncode == 0, done.stderr
    text = out.read_text("utf-8").splitlines()
    assert len(text) == 6  # tool.html twice: once in the directory, once by name
    found = {json.loads(line).get("path"): json.loads(line) for line in text}
    assert "error" in found[unreadable]
    assert [t["name"] for t in found[str(site / "utf16.html")]["tools"]] == ["wide"]
    assert found[str(site / "deep/er/latin.htm")]["tools"][0]["description"] == "Café crème"
    assert found[str(site / "deep/none.HTML")] == {
        "path": str(site / "deep/none.HTML"),
        "input": str(site),  # the input it came from: the directory, as given
        "tools": [],
        "diagnostics": {"errors": 0, "warnings": 0},
        "skipped": "no toolname attribute",
    }
    assert str(site / "notes.txt") not in found
    assert "1 errors" in done.stderr.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="no FIFOs")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_in_a_directory_is_skipped_with_a_reason(tmp_path: Path, jobs: str) -> None:
    """A FIFO named *.html in a crawled directory hung the batch for ever (open() waits for a
    writer); now it is an error line saying why, and the rest of the directory is read."""
    import os

    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_bytes(TOOL)
    os.mkfifo(site / "b.html")
    out = tmp_path / "tools.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "batch", str(site), "--out", str(out), "-j", jobs],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found = lines(out)
    fifo = str(site / "b.html")
    assert found[fifo] == {"path": fifo, "input": str(site), "error": f"{fifo}: not a regular file, skipped"}
    assert found[str(site / "a.html")]["tools"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_page_that_outlives_its_time_limit_is_an_error_line(tmp_path: Path, jobs: str) -> None:
    """A page built to cost the html5lib path more than its size (nested misnested formatting
    elements: minutes for 40 KB) held a worker, and so the crawl, for that long; now its line
    says the parse outlived --page-time-limit and the rest of the batch goes on."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_bytes(TOOL)
    costly = b"<dialog></dialog>" + TOOL + b"".join(b"<b id=a%d><div>" % i for i in range(1_500)) + b"</b>x" * 1_500
    (site / "b.html").write_bytes(costly)
    out = tmp_path / "tools.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "batch", str(site), "--out", str(out), "-j", jobs, "--page-time-limit", "0.5"],
        capture_output=True,
        timeout=120,
    )
    found = lines(out)
    slow = str(site / "b.html")
    assert found[slow] == {"path": slow, "input": str(site), "error": "ParseTimeLimit: the page took longer than 0.5 s to parse (its time limit)"}
    assert found[str(site / "a.html")]["tools"]
    assert b"Traceback" not in done.stderr


def warc_records(writer: WARCWriter) -> None:
    def response(url: str, content_type: str, body: bytes) -> None:
        headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=headers
            )
        )

    writer.write_record(
        writer.create_warc_record(
            "https://a.example/", "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\n\r\n")
        )
    )
    response("https://a.example/", "text/html; charset=utf-8", TOOL)
    response("https://a.example/logo.png", "image/png", b"\x89PNG" + TOOL)
    response("https://b.example/menu", "text/html; charset=windows-1252", LATIN)
    response(
        "https://b.example/wide",
        "text/html; charset=utf-16",
        "<form toolname=w16 tooldescription=d></form>".encode("utf-16-le"),
    )
    response("https://c.example/none", "text/html", NO_TOOL)


@pytest.mark.parametrize("suffix", [".warc", ".warc.gz"])
def test_warc_html_responses_with_their_url_and_charset(tmp_path: Path, suffix: str) -> None:
    archive = tmp_path / f"crawl{suffix}"
    with archive.open("wb") as stream:
        warc_records(WARCWriter(stream, gzip=suffix.endswith(".gz")))
    out = tmp_path / "tools.jsonl"
    done = run(str(archive), "--out", str(out), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    found = lines(out)
    assert sorted(found) == [
        "https://a.example/",
        "https://b.example/menu",
        "https://b.example/wide",
        "https://c.example/none",
    ]
    assert [t["name"] for t in found["https://a.example/"]["tools"]] == ["search"]
    assert found["https://b.example/menu"]["tools"][0]["description"] == "Café crème"
    assert [t["name"] for t in found["https://b.example/wide"]["tools"]] == ["w16"]
    assert found["https://c.example/none"]["skipped"] == "no toolname attribute"
    expected = formtools.extract(
        formtools.parse_html(
            LATIN, url="https://b.example/menu", content_type="text/html; charset=windows-1252"
        )
    )
    assert found["https://b.example/menu"]["tools"] == [t.to_dict() for t in expected.tools]


def test_broken_archives_are_error_lines(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.warc.gz"
    garbage.write_bytes(b"not a warc at all")
    truncated = tmp_path / "truncated.warc"
    with truncated.open("wb") as stream:
        warc_records(WARCWriter(stream, gzip=False))
    truncated.write_bytes(truncated.read_bytes() + b"WARC/1.0\r\nWARC-Type: response\r\nbroken")
    os.symlink(tmp_path / "loop.warc", tmp_path / "loop.warc")  # there, but unreadable
    out = tmp_path / "tools.jsonl"
    page = str(FIXTURES / "tool-multiple-forms.html")
    done = run(
        str(garbage),
        str(truncated),
        str(tmp_path / "loop.warc"),
        page,
        "--out",
        str(out),
        "-j",
        "1",
    )
    assert done.returncode == 2, done.stderr  # damaged archives fail the run unless allowed
    assert b"2 damaged archives" in done.stderr
    found = lines(out)
    assert found[str(garbage)]["error"] == (
        f"{garbage}: damaged archive at byte 0 (record 0): not a WARC archive"
    )
    assert found[str(truncated)]["error"].startswith(f"{truncated}: damaged archive at byte ")
    assert found["https://b.example/menu"]["tools"]  # the records before the damage are kept
    assert "Too many levels of symbolic links" in found[str(tmp_path / "loop.warc")]["error"]
    assert found[page]["tools"]


class _Site(BaseHTTPRequestHandler):
    pages = {
        "/tool": ("text/html; charset=utf-8", TOOL),
        "/latin": ("text/html; charset=windows-1252", LATIN),
        "/none": ("text/html", NO_TOOL),
        "/big": ("text/html", TOOL + b" " * 5000),
    }

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/tool")
            self.end_headers()
            return
        if self.path not in self.pages:
            self.send_error(404)
            return
        content_type, body = self.pages[self.path]
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_url_list_is_fetched_and_failures_are_error_lines(tmp_path: Path, site: str) -> None:
    unreachable = "http://127.0.0.1:1/nothing"
    listing = tmp_path / "urls.txt"
    listing.write_text(
        "\n".join(
            [
                f"{site}/tool",
                f"{site}/latin",
                "# a comment",
                "",
                f"{site}/none",
                f"{site}/moved",
                f"{site}/gone",
                unreachable,
                "ftp://x.example/",
            ]
        )
    )
    out = tmp_path / "tools.jsonl"
    done = run("--urls", str(listing), "--out", str(out), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    found = lines(out)
    assert len(found) == 7
    assert [t["name"] for t in found[f"{site}/tool"]["tools"]] == ["search"]
    assert [t["name"] for t in found[f"{site}/moved"]["tools"]] == ["search"]
    assert found[f"{site}/latin"]["tools"][0]["description"] == "Café crème"
    assert found[f"{site}/none"]["tools"] == []
    # a 404 whose body is an HTML page is that page, as Chromium shows it (tests/test_browser_heads.py)
    assert found[f"{site}/gone"]["tools"] == [] and "error" not in found[f"{site}/gone"]
    assert found[unreachable]["error"] == f"Could not fetch {unreachable}: All connection attempts failed."
    assert found["ftp://x.example/"]["error"] == "ftp://x.example/: not an http(s) URL"


def test_a_url_list_line_that_is_no_url_is_an_error_line_and_the_batch_goes_on(
    tmp_path: Path, site: str
) -> None:
    """A host with a stray bracket (urlsplit raises ValueError) and a line that is not UTF-8
    killed the run with a traceback, nothing written; now each is an error line, the pages
    around them are fetched, and --resume finds the lines again (the same names)."""
    listing = tmp_path / "urls.txt"
    listing.write_bytes(
        f"{site}/tool\nhttp://a]/\n".encode() + b"http://x.example/caf\xe9\n" + f"{site}/none\n".encode()
    )
    out = tmp_path / "tools.jsonl"
    done = run("--urls", str(listing), "--out", str(out), "--jobs", "1")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    found = lines(out)
    assert [t["name"] for t in found[f"{site}/tool"]["tools"]] == ["search"]
    assert found[f"{site}/none"]["tools"] == []
    assert found["http://a]/"]["error"].startswith("http://a]/: not a valid URL (")
    assert found["http://x.example/caf\\xe9"] == {
        "url": "http://x.example/caf\\xe9",
        "line": 3,
        "error": "http://x.example/caf\\xe9: line 3 of the URL list is not UTF-8",
    }
    again = run("--urls", str(listing), "--out", str(out), "--resume")
    assert again.returncode == 0 and "0 pages" in again.stderr.decode(), again.stderr
    assert len(out.read_text("utf-8").splitlines()) == 4


def test_a_url_list_is_read_a_piece_at_a_time_and_a_line_too_long_is_its_one_error_line(tmp_path: Path) -> None:
    """A URL list was read a line at a time, each line whole: a 60 MB line took 695 MB and came
    back whole, twice, in its output line. Now a line longer than url::kMaxURLChars (2 MiB,
    Chromium's longest URL) is one error line showing its start cut, without what comes before
    its last ``@`` (a password), and the run goes on. Seeded lines around the limit (LF, CR LF,
    no final line break, NUL bytes) each give their line, and the memory the run takes, traced,
    stays under 48 MiB beside a 64 MiB line (read whole, it took more than twice that; what it
    holds is the lines up to the limit, a few copies of one in flight)."""
    import tracemalloc

    MAX_URL_BYTES = 2 * 1024 * 1024  # url::kMaxURLChars, url/url_constants.h
    rng = random.Random(2222)
    written: list[bytes] = []  # each line as written, its break apart
    breaks: list[bytes] = []
    for _ in range(7):
        length = MAX_URL_BYTES + rng.choice([-2, -1, 0, 1, 2, 4000])
        prefix = rng.choice([b"ftp://x.example/", b"ftp://user:s3cret@x.example/", b"ftp://u:s3cret/", b"u:s3cret@x://"])
        body = bytearray(rng.choice(b"abc\x00/") for _ in range(64)) * (length // 64 + 1)
        line = (prefix + bytes(body))[:length]
        if b"s3cret/" in prefix:  # a password that runs past the cut, then its "@"
            line = line[: length - 8] + b"@host/ab"
        written.append(line)
        breaks.append(rng.choice([b"\n", b"\r\n"]))
    written.insert(3, b"ftp://p:s3cret@" + b"w" * (64 * 2**20) + b"@x.example/tail")
    breaks.insert(3, b"\n")
    breaks[-1] = b""  # no final line break
    listing = tmp_path / "urls.txt"
    listing.write_bytes(b"".join(line + end for line, end in zip(written, breaks)))
    out = tmp_path / "tools.jsonl"
    # one line in flight at a time, the modules it loads loaded before the memory is traced
    options = BatchOptions(jobs=1, fetch=FetchOptions(concurrency=1))
    (tmp_path / "warm.txt").write_bytes(b"ftp://x.example/\n")
    run_batch([], tmp_path / "warm.jsonl", urls=tmp_path / "warm.txt", options=options)
    tracemalloc.start()
    try:
        run_batch([], out, urls=listing, options=options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 48 * 2**20, f"{peak:,} bytes held"

    records = {record["line"]: record for record in map(json.loads, out.read_text("utf-8").splitlines())}
    assert sorted(records) == list(range(1, len(written) + 1))
    for number, line in enumerate(written, 1):
        record = records[number]
        assert "s3cret" not in json.dumps(record), number
        if len(line) <= MAX_URL_BYTES:  # read whole, and named as the line is
            assert record["error"] == f"{record['url']}: not an http(s) URL", number
            if b"s3cret" not in line:
                assert record["url"] == line.decode(), number
            continue
        assert record["url"].endswith("…") and len(record["url"]) <= 200 + len("ftp://…"), number
        assert record["error"] == (
            f"{record['url']}: line {number} of the URL list is {len(line):,} bytes long, "
            f"longer than {MAX_URL_BYTES:,}, the longest URL Chromium takes; not read"
        ), number
        start = record["url"].removesuffix("…").encode()  # its start, or its scheme and what follows its last "@"
        after = line.rpartition(b"@")[2]
        assert after.startswith(start) or after.startswith(start.partition(b"://")[2]) if b"@" in line else line.startswith(start), number


def test_a_url_list_line_shows_no_password_however_it_is_written(tmp_path: Path) -> None:
    """A list line's error quoted the line as written and left the password to the search for
    URLs in a message, which looks for ``://`` and stops at a space: ``http:\\\\u:p@h/`` (a URL
    the URL Standard reads) and an unparseable ``http:\\\\u:p@[::1/`` showed it in the error
    line, the second in its ``url`` too (adv21); then a line in quotes or ``<>``, with a
    misspelled scheme or none (``user:pw@host/``) showed it in its ``url`` (the user
    information was looked for only after a scheme of URL characters). Seeded lines
    (:mod:`tests.support.urlgen`: wrappers, schemes right, wrong and missing, slashes,
    backslashes, tabs, hosts that parse or not; some too long to be read, and cut): no piece of
    a password anywhere in the output; and a line without credentials keeps its name as
    written."""
    from formtools._crawl.urls import MAX_URL_BYTES
    from tests.support import urlgen

    pick = random.Random(2205)
    secret = [urlgen.with_credentials(pick, breaks="\t\r") for _ in range(60)]
    plain = [urlgen.without_credentials(pick) for _ in range(30)]
    too_long = "/" + "x" * MAX_URL_BYTES  # a line cut: what it shows is gathered a piece at a time
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(written.text + (too_long if number % 10 == 0 else "") for number, written in enumerate(secret))
                       + "\n" + "\n".join(plain) + "\n")
    out = tmp_path / "tools.jsonl"
    summary = run_batch([], out, urls=listing, options=BatchOptions(jobs=1, fetch=FetchOptions(timeout=5))).summary()
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert sorted(line["line"] for line in lines) == list(range(1, len(secret) + len(plain) + 1))
    for line in lines:
        number = line["line"] - 1
        if number < len(secret):
            shown = json.dumps(line, ensure_ascii=False) + summary
            assert not [piece for piece in secret[number].secrets if piece in shown], (secret[number].text, line)
        else:
            assert line["url"] == plain[number - len(secret)].strip(), line


class _Stalling(BaseHTTPRequestHandler):
    """/fast answers a page; /slow answers nothing until the test releases it."""

    served = threading.Event()
    release = threading.Event()

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/slow":
            self.release.wait(60)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(NO_TOOL)))
        self.end_headers()
        self.wfile.write(NO_TOOL)  # skipped by the prefilter: its line is written at once
        self.served.set()

    def log_message(self, *args: object) -> None:
        pass


def test_ctrl_c_says_interrupted_after_the_summary_so_far(tmp_path: Path) -> None:
    """SIGINT to the process group, as Ctrl-C sends it, while a fetch hangs: exit 130 with the
    summary of what was written, then 'formtools: interrupted' (Typer turned the interrupt into
    exit code 130 silently: empty standard error)."""
    import os
    import signal
    import time

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stalling)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{base}/slow\n{base}/fast\n")
    out = tmp_path / "tools.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", "batch", "--urls", str(listing), "--out", str(out)]
        + ["-j", "1"],
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert _Stalling.served.wait(60)  # the fast page, while the slow one hangs
        time.sleep(1)  # its line written
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        _Stalling.release.set()
        server.shutdown()
        server.server_close()
    assert process.returncode == 130, err
    lines_said = err.decode().splitlines()
    assert lines_said[-1] == "formtools: interrupted", err
    assert lines_said[-2].startswith("formtools: ") and " pages (" in lines_said[-2], err
    assert out.read_text("utf-8").endswith("\n")  # whole lines: --resume goes on from them


class _Typed(BaseHTTPRequestHandler):
    """Serves TOOL under the Content-Type its path names (/none: no Content-Type)."""

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        if self.path != "/none":
            self.send_header("Content-Type", self.path[1:].replace("_", "/"))
        self.send_header("Content-Length", str(len(TOOL)))
        self.end_headers()
        self.wfile.write(TOOL)

    def log_message(self, *args: object) -> None:
        pass


TYPES = ["text/html", "application/xhtml+xml", "application/json", "text/plain", "image/png"]


def test_extract_of_a_url_a_browser_does_not_render_as_html_says_so() -> None:
    """``formtools extract URL`` (and ``load_page``) parsed a JSON or text response as HTML
    and found its tool; it now holds it to the crawlers' rule (a finding left open by the
    crawler fix, closed here)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Typed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        found = {
            kind: subprocess.run(
                [sys.executable, "-m", "formtools", "extract", f"{base}/{kind.replace('/', '_')}"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            for kind in TYPES
        }
        with pytest.raises(formtools.SourceError, match=r"not HTML \(application/json\)"):
            formtools.load_page(f"{base}/application_json")
    finally:
        server.shutdown()
        server.server_close()
    for kind in ("text/html", "application/xhtml+xml"):
        assert found[kind].returncode == 0 and json.loads(found[kind].stdout)[0]["name"] == "search", kind
    for kind in ("application/json", "text/plain", "image/png"):
        message = f"{base}/{kind.replace('/', '_')}: not HTML ({kind}): a browser registers no tools for it"
        assert (found[kind].returncode, found[kind].stderr.strip()) == (2, f"formtools: error: {message}"), kind


def test_a_page_a_browser_does_not_render_as_html_has_no_tools_fetched_or_archived(
    tmp_path: Path,
) -> None:
    """The same tool markup served as JSON, text or PNG: batch --urls parsed it into a tool
    while the same records archived were left out. Now fetched it is a skipped line naming the
    type, archived it is left out as before, and HTML and XHTML give the tool both ways. A
    response without a type is sniffed, as Chromium sniffs it: ``<form`` begins no tag its
    sniffer knows, so it is text (tests/test_browser_heads.py holds this to Chromium live)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Typed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        listing = tmp_path / "urls.txt"
        paths = [kind.replace("/", "_") for kind in TYPES] + ["none"]
        listing.write_text("".join(f"{base}/{path}\n" for path in paths))
        fetched = tmp_path / "fetched.jsonl"
        done = run("--urls", str(listing), "--out", str(fetched), "-j", "1")
        assert done.returncode == 0, done.stderr
    finally:
        server.shutdown()
        server.server_close()
    archive = tmp_path / "typed.warc"
    with archive.open("wb") as stream:
        writer = WARCWriter(stream, gzip=False)
        for path, kind in zip(paths, [*TYPES, None]):
            headers = StatusAndHeaders(
                "200 OK", [("Content-Type", kind)] if kind else [], protocol="HTTP/1.1"
            )
            writer.write_record(
                writer.create_warc_record(
                    f"{base}/{path}", "response", payload=io.BytesIO(TOOL), http_headers=headers
                )
            )
    archived = tmp_path / "archived.jsonl"
    assert run(str(archive), "--out", str(archived), "-j", "1").returncode == 0
    by_fetch, by_archive = lines(fetched), lines(archived)
    tools = ["text_html", "application_xhtml+xml"]
    for path in paths:
        url = f"{base}/{path}"
        if path in tools:
            assert [t["name"] for t in by_fetch[url]["tools"]] == ["search"], path
            assert by_archive[url]["tools"] == by_fetch[url]["tools"], path
        else:
            kind = "no type, sniffed as text/plain" if path == "none" else path.replace("_", "/")
            assert by_fetch[url]["skipped"] == f"not HTML ({kind})" and not by_fetch[url]["tools"]
            assert url not in by_archive


def test_the_fetch_size_cap(tmp_path: Path, site: str) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{site}/big\n{site}/tool\n")
    out = tmp_path / "tools.jsonl"
    options = BatchOptions(jobs=1, fetch=FetchOptions(max_bytes=1000, per_host=1))
    tally = run_batch([], out, urls=listing, options=options)
    found = lines(out)
    assert found[f"{site}/big"]["error"] == f"{site}/big: larger than 1,000 bytes, the page size limit; not read"
    assert found[f"{site}/tool"]["tools"]
    assert (tally.pages, tally.parsed, tally.failed, tally.tools) == (2, 1, 1, 1)


def test_resume_skips_pages_already_in_the_output_and_redoes_a_torn_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_pages(site)
    out = tmp_path / "tools.jsonl"
    first = run_batch([str(site)], out, options=BatchOptions(jobs=1))
    assert first.pages == 4
    whole = out.read_bytes()
    out.write_bytes(whole[: whole.rindex(b"\n", 0, -1) + 1] + b'{"path":"torn')  # killed mid-line
    (site / "new.html").write_bytes(TOOL)
    done = run(str(site), "--out", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    assert "2 pages (" in done.stderr.decode() and "3 already in the output" in done.stderr.decode()
    found = lines(out)  # every page exactly once
    assert sorted(found) == sorted(
        str(p) for p in site.rglob("*") if p.suffix.lower() in (".html", ".htm")
    )
    assert json.loads(whole.splitlines()[0]) == found[json.loads(whole.splitlines()[0])["path"]]
    assert run(str(site), "--out", str(out)).returncode == 0
    assert len(out.read_text().splitlines()) == 5  # without --resume the output starts over


def _killed_when_writing(args: list[str], out: Path, signal_number: int, at_bytes: int) -> tuple[int, int, list[str]]:
    """Run ``formtools batch ARGS`` in a session of its own and send it ``signal_number`` once
    ``out`` holds ``at_bytes`` more bytes; its pid (its session's id), exit code and standard
    error lines."""
    import signal
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", "batch", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    start = out.stat().st_size if out.exists() else 0
    while (out.stat().st_size if out.exists() else 0) < start + at_bytes:
        assert process.poll() is None, "the batch ended before it could be interrupted"
        time.sleep(0.005)
    process.send_signal(signal_number)
    _, err = process.communicate(timeout=60)
    return process.pid, process.returncode, err.decode().splitlines()


def test_a_killed_batch_leaves_no_worker_and_resume_completes_it_exactly(tmp_path: Path) -> None:
    """``batch --jobs 2`` killed by SIGKILL, then its ``--resume`` killed by SIGTERM, each at a
    seeded point of its output, then resumed to the end: no process of either run may be left
    (forked workers waited for work for ever, orphans holding the parent's standard error open),
    each interrupted output is JSON lines up to its last newline, and the resumed output holds
    exactly the lines of an uninterrupted run, each page once. SIGTERM stops the batch as Ctrl-C
    does (Python's default ended it on the spot, its buffered lines unwritten, no summary): the
    summary, ``formtools: terminated``, exit 143, whole lines."""
    import random
    import signal

    from tests.support.processes import left_after

    rng = random.Random(10)
    site = tmp_path / "site"
    site.mkdir()
    for index in range(500):
        body = f"<form toolname=t{index} tooldescription='page {index}'><input name=q{rng.randrange(99)}></form>"
        (site / f"p{index:03d}.html").write_text(body if rng.random() < 0.8 else "<p>no tool</p>")
    whole = tmp_path / "whole.jsonl"
    run_batch([str(site)], whole, options=BatchOptions(jobs=1))
    out = tmp_path / "tools.jsonl"
    args = [str(site), "--out", str(out), "--jobs", "2"]
    for signal_number, resume in ((signal.SIGKILL, []), (signal.SIGTERM, ["--resume"])):
        session, code, said = _killed_when_writing(args + resume, out, signal_number, rng.randrange(1, 12_000))
        assert left_after(session) == [], signal_number
        text = out.read_text("utf-8")
        for line in text[: text.rfind("\n") + 1].splitlines():
            json.loads(line)
        if signal_number == signal.SIGTERM:
            assert code == 143 and said[-1] == "formtools: terminated", said
            assert " pages (" in said[-2] and text.endswith("\n")
    assert run(*args, "--resume").returncode == 0
    assert sorted(out.read_text("utf-8").splitlines()) == sorted(whole.read_text("utf-8").splitlines())
    assert len(lines(out)) == 500


def test_resume_passes_over_lines_that_are_json_but_name_no_page(tmp_path: Path) -> None:
    """Output lines that are JSON but no object naming a page by a string (``5``, ``null``, a
    string, ``{"path":[1]}``) crashed --resume with a TypeError traceback; they are passed
    over, kept, and the page is extracted."""
    page = tmp_path / "page.html"
    page.write_bytes(TOOL)
    out = tmp_path / "tools.jsonl"
    foreign = ["5", "null", '"path"', '{"path":[1]}', '{"url":{"a":1}}']
    out.write_text("".join(line + "\n" for line in foreign))
    done = run(str(page), "--out", str(out), "--resume", "-j", "1")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    written = out.read_text("utf-8").splitlines()
    assert written[:5] == foreign
    assert json.loads(written[5])["path"] == str(page) and len(written) == 6


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resume_writes_an_archive_error_line_once(tmp_path: Path, jobs: str) -> None:
    """A damaged archive's and an unreadable archive's error lines were appended again on
    every --resume, which exited 2 every time; now a resumed run writes nothing new."""
    whole = tmp_path / "whole.warc.gz"
    with whole.open("wb") as stream:
        warc_records(WARCWriter(stream, gzip=True))
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(whole.read_bytes()[:-40])
    out = tmp_path / "tools.jsonl"
    os.symlink(tmp_path / "loop.warc", tmp_path / "loop.warc")  # there, but unreadable
    args = (str(cut), str(tmp_path / "loop.warc"), "--out", str(out), "-j", jobs, "--resume")
    assert run(*args).returncode == 2
    first = out.read_text("utf-8")
    assert first.count('"path"') == 2
    again = run(*args)
    assert again.returncode == 0, again.stderr
    assert out.read_text("utf-8") == first


def test_pages_without_toolname_are_never_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    write_pages(site)
    (site / "unnamed.html").write_bytes(UNNAMED)
    (site / "prose.html").write_bytes(b"<p>toolbox, name, tool name</p>")
    parsed: list[str] = []
    import formtools._parse as parse_stage  # extract_page imports parse_html from here when it runs

    real = parse_stage.parse_html

    def counting(body: bytes, **kwargs: object) -> formtools.Document:
        parsed.append(str(kwargs["source"]))
        return real(body, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parse_stage, "parse_html", counting)
    out = tmp_path / "tools.jsonl"
    tally = run_batch([str(site)], out, options=BatchOptions(jobs=1))
    names = {str(site / n) for n in ("tool.html", "deep/er/latin.htm", "utf16.html")}
    assert set(parsed) == names and tally.parsed == 3 and tally.pages == 6
    assert lines(out)[str(site / "unnamed.html")]["diagnostics"] == {"errors": 0, "warnings": 0}

    parsed.clear()
    run_batch([str(site)], out, options=BatchOptions(jobs=1, all_forms=True))
    assert set(parsed) == names | {str(site / "deep/none.HTML"), str(site / "unnamed.html")}
    found = lines(out)
    # missing-toolname stays an error; the form is now an inferred tool whose field 'q' has no
    # description (a warning)
    unnamed = found[str(site / "unnamed.html")]
    assert unnamed["diagnostics"] == {"errors": 1, "warnings": 1}
    assert [t["description"] for t in unnamed["tools"]] == ["forgot its name"]
    assert found[str(site / "prose.html")]["skipped"] == "no <form"


def test_a_page_too_slow_to_parse_is_skipped_in_no_time(tmp_path: Path) -> None:
    # nested tables cost html5lib quadratic time: 3,000 of them take 12 s, these would take hours
    (tmp_path / "huge.html").write_bytes(b"<table><tr><td><form><input name=q>" * 50_000)
    out = tmp_path / "tools.jsonl"
    done = run(str(tmp_path / "huge.html"), "--out", str(out), "-j", "1")
    assert done.returncode == 0, done.stderr
    assert lines(out)[str(tmp_path / "huge.html")]["skipped"] == "no toolname attribute"


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        (b"<form toolname=x>", None, True),
        (b"<form TOOLname=x>", None, True),
        (b"<form tOoLnAmE=x>", "text/html; charset=shift_jis", True),
        (b"<form tool-name=x>", None, False),
        (b"<form tool\0name=x>", None, False),
        ("<form toolName=x>".encode("utf-16-le"), "text/html; charset=utf-16", True),
        ("<form toolName=x>".encode("utf-16-be"), "text/html; charset=UTF-16BE", True),
        ("\ufeff<form TOOLNAME=x>".encode("utf-16-le"), None, True),
        ("\ufeff<form TOOLNAME=x>".encode("utf-16-be"), "text/html; charset=utf-8", True),
        ("\ufeff<form toolname=x>".encode("utf-8"), "text/html; charset=utf-16", True),
        ("<form action=x>".encode("utf-16-le"), "text/html; charset=utf-16", False),
        ("<?xml version='1.0'?><form toolName=x>".encode("utf-16-le"), None, True),  # UTF-16 for Chromium
    ],
)
def test_prefilter(body: bytes, content_type: str | None, expected: bool) -> None:
    assert may_hold_tools(body, content_type) is expected
    if expected:  # never a false negative: the parser finds the attribute too
        document = formtools.parse_html(body, content_type=content_type)
        assert any("toolname" in form.attrib for form in document.root.iter("{*}form", "form"))


def test_prefilter_all_forms() -> None:
    assert may_hold_tools(b"<FORM>", all_forms=True)
    assert may_hold_tools(
        "<Form>".encode("utf-16-le"), "text/html; charset=utf-16le", all_forms=True
    )
    assert not may_hold_tools(b"<p toolname=x>formulas</p>", all_forms=True)
    assert not may_hold_tools(b"<input form=f>", all_forms=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "nothing to extract"),
        (("https://example.com/",), "put URLs in a file for --urls"),
        (("x.html", "--profile", "nope"), "unknown profile"),
        (("--urls", "missing.txt"), "missing.txt: no such file"),
        (("--urls", "."), "--urls: .: is a directory, not a list of URLs"),  # said "no such file"
    ],
)
def test_usage_mistakes_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = run(*args, "--out", str(tmp_path / "o.jsonl"))
    assert done.returncode == 2
    assert message in done.stderr.decode()


def test_a_missing_input_is_a_usage_mistake_that_writes_nothing(tmp_path: Path) -> None:
    """An input named on the command line that does not exist (a mistyped path: an HTML file, a
    WARC, a directory, a path under a file) exits 2 with one line naming it, creates no output
    and leaves an existing one as it was, with or without ``--resume``. It used to be an
    ``error`` line and exit 0. Seeded: the missing path's kind and place among real inputs."""
    import random

    rng = random.Random(1605)
    site = tmp_path / "site"
    write_pages(site)
    kept = tmp_path / "kept.jsonl"
    kept.write_text('{"path":"earlier.html","tools":[]}\n')
    before = kept.read_bytes()
    for case in range(8):
        missing = str(tmp_path / rng.choice(["gone.html", "gone.warc.gz", "gone.warc", "gone/", "kept.jsonl/x.html"]))
        inputs = [str(site), str(site / "tool.html")]
        inputs.insert(rng.randrange(len(inputs) + 1), missing)
        fresh = tmp_path / f"fresh{case}.jsonl"
        for out, extra in ((fresh, ()), (kept, ("--resume",)), (kept, ())):
            done = run(*inputs, *extra, "--out", str(out), "--jobs", rng.choice(["1", "2"]))
            error = done.stderr.decode()
            assert done.returncode == 2, (inputs, extra, error)
            assert error == f"formtools: error: {missing}: no such file or directory\n"
        assert not fresh.exists()
        assert kept.read_bytes() == before


def test_an_output_that_is_an_input_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    """``--out`` naming an input archive, the URL list or an HTML file in an input directory
    exits 2 with one line and leaves every file as it was (the archive used to be truncated to
    0 bytes, "0 pages", exit 0)."""
    archive = tmp_path / "crawl.warc.gz"
    with archive.open("wb") as stream:
        warc_records(WARCWriter(stream, gzip=True))
    urls = tmp_path / "urls.txt"
    urls.write_text("https://example.invalid/\n")
    pages = tmp_path / "site"
    pages.mkdir()
    (pages / "a.html").write_bytes(TOOL)
    before = {path: path.read_bytes() for path in (archive, urls, pages / "a.html")}
    cases = [
        ([str(archive), "--out", str(archive)], "is the input"),
        ([str(archive), "--resume", "--out", str(tmp_path / "." / "crawl.warc.gz")], "is the input"),
        (["--urls", str(urls), "--out", str(urls)], "is the input"),
        ([str(pages), "--out", str(pages / "a.html")], "HTML file in the input directory"),
        ([str(pages), "--out", str(pages / "new.html")], "HTML file in the input directory"),
    ]
    # an output named as no HTML file that leads to one in an input directory, existing or not,
    # through a chain of one to three symbolic links, each relative or absolute (a seeded draw)
    rng = random.Random("out-through-links")
    for case, target in enumerate([pages / "a.html", pages / "new.html"] * 2):
        hops = [tmp_path / f"out{case}-{hop}.jsonl" for hop in range(rng.randint(1, 3))]
        for link, to in zip(hops, [*hops[1:], target]):
            link.symlink_to(to.name if rng.random() < 0.5 and to.parent == link.parent else to)
        cases.append(([str(pages), "--out", str(hops[0])], "HTML file in the input directory"))
    for args, message in cases:
        done = run(*args, "-j", "1")
        assert done.returncode == 2, (args, done.stderr)
        error = done.stderr.decode()
        assert message in error and error.count("\n") == 1 and "Traceback" not in error
    assert {path: path.read_bytes() for path in before} == before
    assert not (pages / "new.html").exists()


def _archive_for_workers(path: Path, gzip: bool) -> None:
    """The archive of ``warc_records`` and what makes reading a record alone harder: a page
    sent with chunked transfer coding (warcio decodes it), a record over the size cap, a
    revisit record, then the same archive's records again under other URLs."""
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=gzip)
        warc_records(writer)
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(TOOL), TOOL)
        headers = StatusAndHeaders(
            "200 OK",
            [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")],
            protocol="HTTP/1.1",
        )
        writer.write_record(
            writer.create_warc_record(
                "https://d.example/chunked", "response", payload=io.BytesIO(chunked),
                http_headers=headers,
            )
        )
        big = TOOL + b"<p>" + b"x" * 5000
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(
                "https://d.example/big", "response", payload=io.BytesIO(big), http_headers=headers
            )
        )
        writer.write_record(
            writer.create_warc_record("https://a.example/", "revisit", payload=io.BytesIO(b""))
        )
        for number in range(40):  # more than a chunk of records
            body = TOOL.replace(b"search", b"search%d" % number) if number % 3 else NO_TOOL
            headers = StatusAndHeaders(
                "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
            )
            writer.write_record(
                writer.create_warc_record(
                    f"https://e.example/{number}", "response", payload=io.BytesIO(body),
                    http_headers=headers,
                )
            )


@pytest.mark.parametrize("suffix", [".warc", ".warc.gz"])
def test_workers_read_warc_records_where_they_are_and_write_the_same_lines(
    tmp_path: Path, suffix: str
) -> None:
    """With workers, the parent only indexes an archive and each worker reads its records by
    offset; the lines are those of ``--jobs 1``, which reads every record in one pass (as the
    Spark job does), byte for byte, a cut archive's damage line included."""
    archive = tmp_path / f"crawl{suffix}"
    _archive_for_workers(archive, gzip=suffix.endswith(".gz"))
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(archive.read_bytes()[: archive.stat().st_size * 2 // 3])
    options = FetchOptions(max_bytes=4000)
    outputs = []
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.jsonl"
        tally = run_batch(
            [str(archive), str(cut)], out, options=BatchOptions(jobs=jobs, fetch=options)
        )
        assert tally.workers == jobs and tally.damaged == 1
        outputs.append(sorted(out.read_text("utf-8").splitlines()))
    assert outputs[0] == outputs[1]
    found = [json.loads(line) for line in outputs[1]]
    by_url = {f["url"]: f for f in found if "url" in f}
    assert [t["name"] for t in by_url["https://d.example/chunked"]["tools"]] == ["search"]
    assert by_url["https://d.example/big"]["error"] == "https://d.example/big: larger than 4,000 bytes, the page size limit; not read"
    assert by_url["https://e.example/0"]["skipped"] == "no toolname attribute"
    assert [t["name"] for t in by_url["https://e.example/38"]["tools"]] == ["search38"]
    damage = [f for f in found if "path" in f]
    assert [f["path"] for f in damage] == [str(cut)]
    assert damage[0]["error"].startswith(f"{cut}: damaged archive at byte ")


def test_a_resumed_archive_skips_its_records_already_written(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    _archive_for_workers(archive, gzip=True)
    out = tmp_path / "tools.jsonl"
    run_batch([str(archive)], out, options=BatchOptions(jobs=2))
    whole = sorted(out.read_text("utf-8").splitlines())
    kept = whole[:10]
    out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    tally = run_batch([str(archive)], out, options=BatchOptions(jobs=2, resume=True))
    assert tally.resumed == 10 and tally.pages == len(whole) - 10
    assert sorted(out.read_text("utf-8").splitlines()) == whole


def _inputs_that_repeat_pages(root: Path, site: str, rng: random.Random) -> tuple[list[str], Path]:
    """Inputs naming pages more than once, seeded: a directory named twice and one of its files
    by name; a WARC.gz that is an archive concatenated with itself (the same URLs, the same
    record ids), a plain WARC likewise, the same records gzipped whole (one member); a URL list
    with URLs listed again. The command-line inputs and the URL list."""
    pages = root / "site"
    for number in range(rng.randrange(3, 7)):
        (pages / f"d{number % 2}").mkdir(parents=True, exist_ok=True)
        (pages / f"d{number % 2}" / f"p{number}.html").write_bytes(rng.choice([TOOL, NO_TOOL, LATIN]))
    archive = io.BytesIO()
    writer = WARCWriter(archive, gzip=False)
    warc_records(writer)
    for number in range(rng.randrange(2, 6)):  # URLs again within the archive too
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        body = rng.choice([TOOL, NO_TOOL])
        record = writer.create_warc_record(f"https://r.example/{number % 2}", "response", payload=io.BytesIO(body), http_headers=headers)
        writer.write_record(record)
    plain = archive.getvalue()
    gzipped = io.BytesIO()
    warc_records(WARCWriter(gzipped, gzip=True))
    (root / "twice.warc.gz").write_bytes(gzipped.getvalue() * rng.randrange(2, 4))
    (root / "twice.warc").write_bytes(plain * 2)
    (root / "whole.warc.gz").write_bytes(gzip.compress(plain * 2))
    listing = root / "urls.txt"
    listing.write_text("\n".join(rng.choice([f"{site}/tool", f"{site}/none", f"{site}/gone"]) for _ in range(rng.randrange(4, 9))))
    inputs = [str(pages), str(root / "twice.warc.gz"), str(pages / "d0" / "p0.html"), str(root / "twice.warc"), str(root / "whole.warc.gz"), str(pages / "d1")]
    inputs.append(rng.choice(inputs))  # one input given twice
    inputs.append(rng.choice(inputs).replace(str(root), f"{root}/./", 1))  # one again, spelled otherwise
    rng.shuffle(inputs)
    return inputs, listing


def test_resume_after_an_interruption_gives_the_lines_of_an_uninterrupted_run(tmp_path: Path, site: str) -> None:
    """A page named twice in the input (a URL listed twice, a record in an archive concatenated
    with itself, a directory named twice) is two lines, and a run interrupted at a seeded byte of
    its output (a torn last line included) then resumed writes exactly the lines of an
    uninterrupted run. Resume skipped every page whose name it had seen: a repeated page written
    once before the interruption lost its other lines."""
    rng = random.Random(1616)
    inputs, listing = _inputs_that_repeat_pages(tmp_path, site, rng)
    out = tmp_path / "tools.jsonl"
    run_batch(inputs, out, urls=listing, options=BatchOptions(jobs=2))
    whole = out.read_bytes()
    expected = sorted(whole.decode().splitlines())
    for cut in sorted(rng.sample(range(len(whole)), 6)):
        out.write_bytes(whole[:cut])
        jobs = rng.choice([1, 2])
        run_batch(inputs, out, urls=listing, options=BatchOptions(jobs=jobs, resume=True))
        assert sorted(out.read_text("utf-8").splitlines()) == expected, (cut, jobs)
    names = [json.loads(line).get("path", json.loads(line).get("url")) for line in expected]
    assert len(set(names)) < len(names) and len(set(expected)) == len(expected)  # names repeat; lines do not


def test_resume_with_the_inputs_in_another_order_and_one_more_writes_each_page_once(tmp_path: Path, site: str) -> None:
    """A resumed run may take its inputs in another order, with an input that joined them (a
    glob such as ``crawls/*.warc.gz`` after a new archive arrived that sorts first): it writes
    exactly the lines a fresh run of its inputs writes. The origin counted inputs by position,
    so every page of an input that moved was written a second time, with no word said."""
    rng = random.Random(1618)
    inputs, listing = _inputs_that_repeat_pages(tmp_path, site, rng)
    joined = tmp_path / "joined.warc.gz"
    joined.write_bytes((tmp_path / "twice.warc.gz").read_bytes())
    fresh = tmp_path / "fresh.jsonl"
    later = [str(joined), *reversed(inputs)]
    run_batch(later, fresh, urls=listing, options=BatchOptions(jobs=1))
    expected = sorted(fresh.read_text("utf-8").splitlines())
    for jobs in (1, 2):
        out = tmp_path / f"tools{jobs}.jsonl"
        run_batch(inputs, out, urls=listing, options=BatchOptions(jobs=jobs))
        whole = out.read_bytes()
        out.write_bytes(whole[: rng.randrange(len(whole))])
        run_batch(later, out, urls=listing, options=BatchOptions(jobs=jobs, resume=True))
        assert sorted(out.read_text("utf-8").splitlines()) == expected, jobs


def test_resume_of_an_output_without_origins_skips_by_name(tmp_path: Path, site: str) -> None:
    """An output written before lines carried their origin (``input``, ``copy``, ``offset``,
    ``skip``, ``line``: those lines without them) resumes as it did then: every page of a name written is
    skipped, the others are done."""
    rng = random.Random(1617)
    inputs, listing = _inputs_that_repeat_pages(tmp_path, site, rng)
    out = tmp_path / "tools.jsonl"
    run_batch(inputs, out, urls=listing, options=BatchOptions(jobs=2))
    origins = ("input", "copy", "offset", "skip", "line")
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    kept = records[: len(records) // 2]
    old = [json.dumps({key: value for key, value in record.items() if key not in origins}) for record in kept]
    out.write_text("".join(line + "\n" for line in old), encoding="utf-8")
    tally = run_batch(inputs, out, urls=listing, options=BatchOptions(jobs=1, resume=True))
    written = {(key, record[key]) for record in kept for key in ("path", "url") if key in record}
    added = [json.loads(line) for line in out.read_text("utf-8").splitlines()[len(old) :]]
    assert tally.resumed == len(written)
    assert not [record for record in added if ("path", record.get("path")) in written or ("url", record.get("url")) in written]
    left = [record for record in records if not any((key, record.get(key)) in written for key in ("path", "url"))]
    assert sorted(map(json.dumps, left)) == sorted(map(json.dumps, added))


def test_jobs_0_starts_a_worker_per_core_this_process_may_use(tmp_path: Path) -> None:
    """``--jobs 0`` counts the cores of the process's affinity mask (``taskset``, cpusets),
    not the machine's: pinned to one core, the batch runs in its own process."""
    import os

    site = tmp_path / "site"
    write_pages(site)
    out = tmp_path / "tools.jsonl"
    allowed = len(os.sched_getaffinity(0))
    done = run(str(site), "--out", str(out), "--jobs", "0")
    assert done.returncode == 0, done.stderr
    expected = "1 process" if allowed == 1 else f"{allowed} worker processes"
    assert f", {expected})" in done.stderr.decode()
    pinned = subprocess.run(
        [sys.executable, "-m", "formtools", "batch", str(site), "--out", str(out), "--jobs", "0"],
        capture_output=True,
        timeout=120,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
    )
    assert pinned.returncode == 0, pinned.stderr
    assert ", 1 process)" in pinned.stderr.decode()
    assert len(out.read_text().splitlines()) == 4


def test_the_progress_line_runs_no_thread_of_its_own() -> None:
    """Workers are forked; a thread running in the parent at that moment (rich's refresher)
    could hold a lock the children then wait on for ever. (Counted against the threads already
    running: an earlier test in the same process may have left one, a match helper's reader.)"""
    before = set(threading.enumerate())
    with _batch.progress_display(True) as show:
        show(_batch.Tally(pages=3))
        assert set(threading.enumerate()) <= before


def test_an_empty_input_starts_no_worker(tmp_path: Path) -> None:
    """Nothing to do makes no pool: multiprocessing is not even loaded (start-up time)."""
    (tmp_path / "empty").mkdir()
    script = (
        "import sys; from pathlib import Path; from formtools._crawl.batch import *; "
        f"run_batch([{str(tmp_path / 'empty')!r}], Path({str(tmp_path / 'out.jsonl')!r}), "
        "options=BatchOptions(jobs=2)); print(sorted(m for m in sys.modules if 'multiproc' in m))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_threaded_program_gets_spawned_workers_and_the_same_lines(tmp_path: Path) -> None:
    """In a program running other threads, forking could leave a lock held in the children
    for ever: the workers are spawned instead (as on macOS), and write the same lines."""
    site = tmp_path / "site"
    write_pages(site)
    archive = tmp_path / "crawl.warc.gz"
    _archive_for_workers(archive, gzip=True)
    alone = tmp_path / "alone.jsonl"
    run_batch([str(site), str(archive)], alone, options=BatchOptions(jobs=2))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _batch._start_method() == "spawn"
        threaded = tmp_path / "threaded.jsonl"
        run_batch([str(site), str(archive)], threaded, options=BatchOptions(jobs=2))
    finally:
        stop.set()
        other.join()
    assert sorted(threaded.read_text().splitlines()) == sorted(alone.read_text().splitlines())


class _Counting(BaseHTTPRequestHandler):
    """A page that takes a while, counting how many requests it answers at once."""

    lock = threading.Lock()
    now = most = 0

    def do_GET(self) -> None:
        cls = type(self)
        with cls.lock:
            cls.now += 1
            cls.most = max(cls.most, cls.now)
        time.sleep(0.05)
        with cls.lock:
            cls.now -= 1
        body = b"<form toolname=t tooldescription=d><input name=q></form>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _spellings_of_one_host(port: int, rng: random.Random) -> list[str]:
    """URLs of 127.0.0.1:``port`` spelled as the URL Standard parses them to that host:
    credentials, a scheme in capitals, the port with leading zeros, IPv4 in hex, octal, one
    number or fewer parts, a backslash for the path's slash."""
    hosts = ["127.0.0.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "127.1", "0x7F000001", "127.0.1"]
    spelled = []
    for index in range(24):
        user = rng.choice(["", "user@", "user:secret@", "%75@"])
        scheme = rng.choice(["http", "HTTP", "hTtP"])
        digits = rng.choice(["", "0", "00"]) + str(port)
        slash = rng.choice(["/", "\\", "/./"])
        spelled.append(f"{scheme}://{user}{rng.choice(hosts)}:{digits}{slash}p{index}")
    return spelled


def test_the_per_host_limit_holds_however_the_host_is_spelled(tmp_path: Path) -> None:
    """``per_host`` counts the host the URL Standard parses, which is where the fetch connects:
    keyed by urllib's ``netloc``, ``user@host``, ``host:080`` or ``0x7f.1`` were each another
    host, so one host got as many requests at once as it had spellings."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        listing = tmp_path / "urls.txt"
        urls = _spellings_of_one_host(server.server_port, random.Random(7))
        listing.write_text("".join(f"{url}\n" for url in urls))
        out = tmp_path / "tools.jsonl"
        options = BatchOptions(jobs=1, fetch=FetchOptions(concurrency=16, per_host=2))
        tally = run_batch([], out, urls=listing, options=options)
    finally:
        server.shutdown()
        server.server_close()
    assert (tally.pages, tally.failed) == (len(urls), 0), out.read_text()
    assert _Counting.most <= 2, f"{_Counting.most} requests at once to one host"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, a directory no one can create a file in")
def test_an_output_that_cannot_be_written_is_refused_before_any_page_is_fetched(tmp_path: Path) -> None:
    """The output is opened at its first line (a run failing before it changes nothing), so an
    output in a directory no file can be made in (``/proc``, as any user) was reported only
    after the URL list's first page was fetched, as ``cannot write the output`` (exit 1). It is
    now a usage mistake naming ``--out`` before anything is fetched, creating nothing; an
    existing output is checked without being truncated."""
    from support.site import TestSite

    from formtools.errors import UsageProblem

    with TestSite() as site:
        listing = tmp_path / "urls.txt"
        listing.write_text(f"{site.put('one', b'<form toolname=t tooldescription=d><input name=q></form>')}\n")
        out = Path(f"/proc/formtools-{random.Random(2309).randrange(10**9)}.jsonl")
        with pytest.raises(UsageProblem) as refused:
            run_batch([], out, urls=listing, options=BatchOptions(jobs=1))
        kept = tmp_path / "kept.jsonl"
        kept.write_text('{"path":"earlier.html","tools":[]}\n')
        run_batch([], kept, urls=listing, options=BatchOptions(jobs=1, resume=True))
        asked = [r.path for r in site.received]
    assert str(refused.value).startswith(f"--out: {out}: cannot write"), refused.value
    assert not out.exists() and asked == ["/page/one"], asked
    assert kept.read_text().startswith('{"path":"earlier.html","tools":[]}\n')
