"""The page size limit is one (``formtools._spec.limits``): every entry point that reads a page
from elsewhere (a file, standard input, a URL, a WARC record, a submission's answer) gives its
tools at the limit and the same one-line error one byte beyond it, and takes another limit
(``--max-bytes``, ``max_bytes=``); markup a caller holds in memory is never refused.

Before, ``formtools extract`` and ``extract_tools`` of a path read up to 50 MiB, ``batch``'s
files 50 MiB and its URLs and WARC records 10 MiB, the Spark job 10 MiB, and Scrapy's
``tools_of``, ``extract_tools`` of markup or of an open file no limit at all: a page of 20 MiB
gave tools at one entry point and an error at the next. Then the one limit refused markup in
memory (an 11 MiB form-less response raised in a Scrapy callback), only ``serve`` could raise
it, and a submission's answer said it otherwise.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import formtools
from formtools._conformance.site import LocalSite
from formtools._spec.limits import MAX_PAGE_BYTES, too_large

#: what every entry point says of a page one byte beyond the limit, after the page's name
BEYOND = too_large("page").removeprefix("page: ")
#: the entry points given markup in memory, which no limit refuses
IN_MEMORY = ("extract_tools(bytes)", "extract_tools(str)", "scrapy tools_of")


def _page(size: int, rng: random.Random) -> tuple[str, bytes]:
    """A page of exactly ``size`` bytes with one tool of a drawn name (and the name), padded
    after the form with drawn filler (spaces, a comment, text) that costs the parser little."""
    name = "".join(rng.choice("abcdefgh") for _ in range(8))
    form = f"<!doctype html><form toolname={name} tooldescription=d toolautosubmit><input name=q></form>".encode()
    opening, filler, closing = rng.choice([(b"", b" ", b""), (b"<!--", b"x", b"-->"), (b"<p>", b"a", b"</p>")])
    padding = size - len(form) - len(opening) - len(closing)
    return name, form + opening + filler * padding + closing


@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    """The pages the tests serve, by path (the oracle's site, Chromium not needed)."""
    with LocalSite() as site:
        yield site


def _answer(found: Any) -> str:
    """An entry point's answer, comparable across them: the tool names, or the error after the
    page's name."""
    if isinstance(found, BaseException):
        found = str(found)
    if isinstance(found, str):
        return "error: " + (BEYOND if found.rstrip().endswith(BEYOND) else found)
    return "tools: " + ",".join(sorted(found))


def _raised(call: Any) -> Any:
    try:
        return call()
    except formtools.FormtoolsError as error:
        return error


def _warc(pages: dict[str, bytes]) -> bytes:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=False)
    for url, body in pages.items():
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers))
    return stream.getvalue()


def test_a_page_at_the_limit_gives_its_tools_and_one_byte_more_the_same_error_everywhere(
    tmp_path: Path, site: LocalSite
) -> None:
    """Seeded pages of ``MAX_PAGE_BYTES`` and one byte more through ``formtools extract``,
    ``extract_tools`` (bytes, text, a path, an open file), ``batch`` (a file, a URL, a WARC
    record), the Spark job's row function, Scrapy's ``tools_of`` and ``serve``'s fetch: at the
    limit each gives the page's tool, beyond it each that reads the page from elsewhere says
    :func:`too_large` of it, and each given the markup in memory gives the tool (a form-less
    response beyond it is no error in Scrapy's callback either: the prefilter passes it by)."""
    from scrapy.http import HtmlResponse

    from formtools import mcp
    from formtools._crawl.batch import BatchOptions, run_batch
    from formtools.scrapy import tools_of
    from formtools.spark import _archive_rows

    served = site.origin
    rng = random.Random(2103)
    (name, at), (beyond_name, beyond) = _page(MAX_PAGE_BYTES, rng), _page(MAX_PAGE_BYTES + 1, rng)
    pages = {"at": at, "beyond": beyond}
    expected = {"at": _answer([name]), "beyond": "error: " + BEYOND}
    in_memory = {"at": _answer([name]), "beyond": _answer([beyond_name])}
    for kind, body in pages.items():
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "page.html").write_bytes(body)
        site.put(f"/{kind}", body, "text/html")
    archive = tmp_path / "crawl.warc"
    archive.write_bytes(_warc({f"https://{kind}.example/": body for kind, body in pages.items()}))
    listing = tmp_path / "urls.txt"
    listing.write_text("".join(f"{served}/{kind}\n" for kind in pages))
    out = tmp_path / "out.jsonl"
    run_batch([str(tmp_path / kind) for kind in pages] + [str(archive)], out, urls=listing, options=BatchOptions(jobs=1))
    batch_lines = [json.loads(line) for line in out.read_text().splitlines()]
    spark_rows = list(_archive_rows((str(archive), archive.read_bytes()), "chromium", False))

    wrong = []
    for kind, body in pages.items():
        path = tmp_path / kind / "page.html"
        cli = subprocess.run([sys.executable, "-m", "formtools", "extract", str(path)], capture_output=True, text=True)
        answers = {
            "formtools extract": _answer([t["name"] for t in json.loads(cli.stdout)]) if cli.returncode == 0 else _answer(cli.stderr),
            "extract_tools(bytes)": _answer(_raised(lambda: [t.name for t in formtools.extract_tools(body)])),
            "extract_tools(str)": _answer(_raised(lambda: [t.name for t in formtools.extract_tools(body.decode())])),
            "extract_tools(path)": _answer(_raised(lambda: [t.name for t in formtools.extract_tools(path)])),
            "extract_tools(file)": _answer(_raised(lambda: [t.name for t in formtools.extract_tools(path.open("rb"))])),
            "scrapy tools_of": _answer(
                _raised(lambda: [t.name for t in tools_of(HtmlResponse(f"{served}/{kind}", body=body, headers={"Content-Type": "text/html"}))])
            ),
            "serve's fetch": _answer(
                _raised(lambda: [t.name for p in mcp.load_pages([f"{served}/{kind}"], options=mcp.BridgeOptions(allow_private=True)) for t in p.tools])
            ),
        }
        for line in batch_lines:
            if line.get("path") == str(path) or line.get("url") in (f"{served}/{kind}", f"https://{kind}.example/"):
                where = "batch URL" if "line" in line else "batch WARC" if "offset" in line else "batch file"
                answers[where] = _answer(line["error"]) if "error" in line else _answer([t["name"] for t in line["tools"]])
        rows = [row for row in spark_rows if row[0] == f"https://{kind}.example/"]
        answers["spark rows"] = _answer(rows[0][9]) if rows[0][9] else _answer([row[2] for row in rows])
        assert len(answers) == 11, answers
        wrong += [
            f"{kind}: {where}: {answer}"
            for where, answer in answers.items()
            if answer != (in_memory if where in IN_MEMORY else expected)[kind]
        ]
    formless = beyond.replace(b"<form", b"<from").replace(b"</form", b"</from")
    if tools_of(HtmlResponse(f"{served}/formless", body=formless, headers={"Content-Type": "text/html"})) != []:
        wrong.append("scrapy tools_of: a form-less page beyond the limit gave tools")
    assert not wrong, f"expected {expected}, and tools in memory:\n" + "\n".join(wrong)


def test_every_command_and_reader_takes_a_limit_and_an_answer_beyond_it_says_so(tmp_path: Path, site: LocalSite) -> None:
    """A drawn limit N: a page of N bytes and one of N + 1 through every command that reads a
    page, with ``--max-bytes N`` (``extract``, ``lint``, ``validate``, ``call --dry-run``,
    ``batch``; ``diff`` beyond it only, at it Chromium would start), and through the library's
    readers with ``max_bytes=N`` (``extract_tools`` of a path, an open file and a URL object,
    ``load_page``): at N each reads the page, beyond it each says :func:`too_large` of N, while
    ``extract_tools`` of the bytes reads it whatever N is. A submission's answer of N + 1 bytes
    under ``call_tool(max_bytes=N)`` fails with the same line, naming the answer's URL. Before,
    only ``serve`` took ``--max-bytes``, ``extract_tools`` no ``max_bytes``, and the answer said
    ``Could not fetch …: the answer is larger than N bytes.``"""
    from typer.testing import CliRunner

    from formtools.cli import app

    served = site.origin
    rng = random.Random(2104)
    limit = rng.randint(2_000, 9_000)
    beyond_limit = too_large("page", limit).removeprefix("page: ")
    runner = CliRunner()
    wrong = []
    for size in (limit, limit + 1):
        name, body = _page(size, rng)
        path = tmp_path / f"{size}.html"
        path.write_bytes(body)
        site.put(f"/limit/{size}", body, "text/html")
        expected = "read" if size == limit else "refused"

        def said(found: Any) -> str:
            text = str(found)
            return "refused" if text.rstrip().endswith(beyond_limit) else "read" if name in text else f"other: {text[:200]}"

        commands = {
            "extract": ["extract", str(path)],
            "lint": ["lint", str(path)],
            "validate": ["validate", str(path), name, "--input", '{"q": "x"}'],
            "call --dry-run": ["call", str(path), name, "--input", '{"q": "x"}', "--dry-run", "--base-url", served + "/"],
            "batch": ["batch", str(path), "--out", str(tmp_path / f"{size}.jsonl"), "--jobs", "1"],
            **({"diff": ["diff", str(path)]} if size > limit else {}),
        }
        for command, arguments in commands.items():
            done = runner.invoke(app, [*arguments, "--max-bytes", str(limit)])
            if command == "batch" and done.exit_code == 0:  # a page's error is its line's
                (line,) = map(json.loads, (tmp_path / f"{size}.jsonl").read_text().splitlines())
                answer = said(line.get("error") or [tool["name"] for tool in line["tools"]])
            elif done.exception is not None and not isinstance(done.exception, SystemExit):
                answer = said(done.exception)
            else:
                answer = "read" if done.exit_code == 0 else f"other: exit {done.exit_code}: {done.output[:200]}"
            if answer != expected:
                wrong.append(f"{size} bytes: {command}: {answer}")
        readers = {
            "extract_tools(path)": lambda: [t.name for t in formtools.extract_tools(path, max_bytes=limit)],
            "extract_tools(file)": lambda: [t.name for t in formtools.extract_tools(path.open("rb"), max_bytes=limit)],
            "extract_tools(URL)": lambda: [
                t.name for t in formtools.extract_tools(httpx.URL(f"{served}/limit/{size}"), max_bytes=limit)
            ],
            "load_page": lambda: [t.name for t in formtools.extract_tools(formtools.load_page(str(path), max_bytes=limit))],
        }
        for reader, read in readers.items():
            if said(_raised(read)) != expected:
                wrong.append(f"{size} bytes: {reader}: {said(_raised(read))}")
        if said(_raised(lambda: [t.name for t in formtools.extract_tools(body, max_bytes=limit)])) != "read":
            wrong.append(f"{size} bytes: extract_tools(bytes) was refused")
        (tool,) = formtools.extract_tools(f'<form toolname=t tooldescription=d toolautosubmit action="/limit/{size}"><input name=q></form>', base_url=served + "/")
        answer = _raised(lambda: formtools.call_tool(tool, {"q": "x"}, max_bytes=limit))
        answered = "refused" if str(answer).endswith(beyond_limit) and f"/limit/{size}" in str(answer) else "read"
        if answered != expected:
            wrong.append(f"{size} bytes: a submission's answer: {answer}")
    assert not wrong, f"limit {limit}:\n" + "\n".join(wrong)



def test_a_limit_of_any_size_is_a_limit_and_no_crash(site: LocalSite) -> None:
    """Any ``max_bytes`` is a limit (adv21): one near 2**63 overflowed zlib's C size
    (``OverflowError`` out of a gzip answer's fetch and out of ``call``); a large one on a
    stream made ``read(n)`` allocate n bytes first (``MemoryError`` at 10**11 on a pipe holding
    100 bytes). The command line's ``--input @PATH`` reads within the page size limit, as
    ``@-`` does (``@/dev/zero`` took memory without end)."""
    import gzip
    import os

    page = gzip.compress(b"<form toolname=z tooldescription=d toolautosubmit><input name=q></form>")
    url = site.put("/gzipped", page, "text/html", [("Content-Encoding", "gzip")])
    for limit in (2**63 - 1, 2**64, 10**11):
        assert [tool.name for tool in formtools.extract_tools(formtools.load_page(url, max_bytes=limit))] == ["z"]
    reading, writing = os.pipe()
    os.write(writing, b"<form toolname=p tooldescription=d><input name=q></form>")
    os.close(writing)
    with open(reading, "rb", buffering=0) as pipe:  # a FileIO: read(n) allocates n bytes
        assert [tool.name for tool in formtools.extract_tools(pipe, max_bytes=10**11)] == ["p"]
    page = "<form toolname=t tooldescription=d><input name=q></form>"
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "validate", "-", "t", "--input", "@/dev/zero"],
        input=page.encode(), capture_output=True, timeout=60,
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and BEYOND in err and "Traceback" not in err, err


def test_the_files_of_a_call_are_read_within_the_upload_limit_together(tmp_path: Path) -> None:
    """A call read the files it attaches whole (``--file f=/dev/zero`` took memory without end,
    adv21). Now what the files given by path hold together is at most the upload limit (100
    MiB, README "Limits"): the file that goes beyond it is one line naming it and the limit,
    read no further. Seeded: a first file of a drawn size, a second (sparse) that with it is one
    byte too many; then /dev/zero alone."""
    limit = 100 * 2**20
    rng = random.Random(2203)
    page = (
        "<form toolname=t tooldescription=d action=https://x.example/ method=post enctype=multipart/form-data>"
        "<input type=file name=f multiple><button>go</button></form>"
    )
    (tool,) = formtools.extract_tools(page)
    first, second = tmp_path / "first.bin", tmp_path / "second.bin"
    first.write_bytes(rng.randbytes(rng.randrange(1, 1 << 16)))
    with second.open("wb") as sparse:
        sparse.truncate(limit + 1 - first.stat().st_size)
    beyond = f"the call's files are larger than {limit:,} bytes together, the upload limit; not read"
    for files, named in (([first, second], second), ([str(first), "/dev/zero"], "/dev/zero")):
        with pytest.raises(formtools.SourceError) as refused:
            formtools.prepare_call(tool, {}, files={"f": files})
        assert str(refused.value) == f"{named}: {beyond}"
    prepared = formtools.prepare_call(tool, {}, files={"f": [first]})  # under the limit: attached
    assert prepared.request is not None and first.read_bytes() in prepared.request.body
