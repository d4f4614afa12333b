"""The formtools command, run as a user runs it: a real process, real files, a real HTTP server."""

from __future__ import annotations

import functools
import html
import json
import os
import random
import re
import subprocess
import sys
import threading
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

import formtools
from formtools.cli import app
from formtools.errors import UNSHOWABLE, ValidationError
from tests.conftest import ENV, FIXTURES
from tests.support.forkserve import formtools_command

PAGE = FIXTURES / "tool-multiple-forms.html"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """``formtools ARGS``, forked from a warm interpreter (tests/support/forkserve.py): its exit
    code and output as from ``python -m formtools``, without importing formtools again for each
    of the file's runs."""
    return subprocess.run([*formtools_command(ENV), *args], input=stdin, capture_output=True, env=ENV, timeout=60)


def test_extract_prints_a_json_array_of_tools() -> None:
    done = run("extract", str(PAGE))
    assert done.returncode == 0, done.stderr
    tools = json.loads(done.stdout)
    assert tools and all(
        list(t) == ["name", "title", "description", "inputSchema", "annotations"] for t in tools
    )
    assert [t["name"] for t in tools] == sorted(t["name"] for t in tools)
    assert b"\n  " not in done.stdout  # compact unless --pretty
    assert b"\n  " in run("extract", str(PAGE), "--pretty").stdout


def test_extract_mcp_format_leaves_out_an_empty_title() -> None:
    page = b"<form toolname=t tooldescription=d><input name=q><button>go</button></form>"
    tools = json.loads(run("extract", "-", "--format", "mcp", stdin=page).stdout)
    assert tools == [
        {
            "name": "t",
            "description": "d",
            "inputSchema": {
                "type": "object",
                "properties": {"q": {"type": "string"}},
                "required": [],
            },
            # MCP's own hints only (chromium has none); the rest where the bridge puts it
            "annotations": {},
            "_meta": {"formtools/hints": {"autosubmit": False}},
        }
    ]
    (html,) = json.loads(run("extract", "-", "--format", "mcp", "--profile", "html", stdin=page).stdout)
    assert list(html["annotations"]) == ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]
    assert list(html["_meta"]["formtools/hints"]) == [
        "autosubmit", "humanInTheLoopHint", "sensitiveHint", "x-formtools-inferred-hints",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("extract", "no-such-page.html"), "no-such-page.html: no such file"),
        (("extract", str(PAGE), "--profile", "firefox"), "unknown profile 'firefox'"),
        (("extract", str(PAGE), "--format", "yaml"), "unknown format 'yaml'"),
        (("lint", str(FIXTURES)), "is a directory"),
        # unparseable URLs exited 3 (network), other schemes said "no such file"
        (("extract", "http://"), "http://: not a valid URL"),
        (("extract", "https://[::1"), "https://[::1: not a valid URL"),
        (("lint", "ftp://x.example/a.html"), "only http(s) URLs are fetched"),
        (("validate", "file:///etc/hosts", "t"), "only http(s) URLs are fetched"),
    ],
)
def test_user_mistakes_get_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    err = done.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert done.stdout == b""


def test_every_path_a_user_gives_is_read_as_a_stream_or_named_in_one_line(tmp_path: Path) -> None:
    """One rule for every path a command reads (the page, ``--urls``, ``--input @``, ``--file``):
    what opens is read as it comes, a pipe included (``--urls <(grep …)``, which said "no such
    file or directory", as /dev/zero did); what does not, or whose read fails, is one line in
    the same words (``--file`` said "cannot read the file: Is a directory", a page "no such
    file"; ``--urls /proc/self/mem`` ended in an ExceptionGroup traceback). In this
    process (the commands' own code, their errors as raised for the one line that prints them)."""
    page = tmp_path / "page.html"
    page.write_text(
        "<form toolname=t tooldescription=d action=https://x.example/ method=post enctype=multipart/form-data>"
        "<input name=q><input type=file name=f><button>go</button></form>"
    )
    uses = [  # (the arguments around the path, what it is read as, what a pipe brings, what it then prints)
        (("extract", "PATH"), "a page", page.read_bytes(), b'"name":"t"'),
        (("batch", "-j", "1", "--out", "-", "--urls", "PATH"), "a list of URLs", b"ftp://x.example/\n", b'"line":1'),
        (("call", str(page), "t", "--dry-run", "--input", "@PATH"), "a JSON file", b'{"q": "piped"}', b"piped"),
        (("call", str(page), "t", "--dry-run", "--input", "{}", "--file", "f=PATH"), "a file to upload", b"PIPED", b"PIPED"),
    ]
    directory = tmp_path / "a directory"
    directory.mkdir()
    for number, (around, what, piped, printed) in enumerate(uses):
        for path, said in (
            (tmp_path / f"missing{number}", "no such file or directory"),
            (directory, f"is a directory, not {what}"),
            (Path("/proc/self/mem"), "cannot read: Input/output error"),  # opens; its first read fails (EIO)
        ):
            done = CliRunner().invoke(app, [arg.replace("PATH", str(path)) for arg in around])
            assert isinstance(done.exception, formtools.SourceError), (around, done.output)
            assert str(done.exception).endswith(f"{path}: {said}"), (around, done.exception)
        if "--out" in around:  # a run that fails before its first line changes no output
            out = tmp_path / "out.jsonl"
            for before in (None, b'{"line": "the last run\'s"}\n'):
                if before is not None:
                    out.write_bytes(before)
                for resume in ((), ("--resume",)):
                    failing = [{"-": str(out), "PATH": "/proc/self/mem"}.get(arg, arg) for arg in around]
                    done = CliRunner().invoke(app, [*failing, *resume])
                    assert isinstance(done.exception, formtools.SourceError), (resume, done.output)
                    assert (out.read_bytes() if out.exists() else None) == before, (resume, before)
        fifo = tmp_path / f"pipe{number}"
        os.mkfifo(fifo)
        writer = threading.Thread(target=fifo.write_bytes, args=(piped,), daemon=True)
        writer.start()
        done = CliRunner().invoke(app, [arg.replace("PATH", str(fifo)) for arg in around])
        if writer.is_alive():  # never opened: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        assert done.exit_code == 0 and printed in done.stdout_bytes, (around, done.exception, done.output)


def test_an_input_nested_too_deep_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """``--input`` nested 1,000 deep (4 KB that JSON.parse takes) crashed validate and call
    with a RecursionError traceback, exit 1; one level past the limit is refused the same way,
    at the limit the input is parsed and checked as any other."""
    page = tmp_path / "page.html"
    page.write_text("<form toolname=s tooldescription=d><input name=q><button>go</button></form>")
    deep = tmp_path / "deep.json"
    deep.write_text('{"q":' + "[" * 1000 + "]" * 1000 + "}")
    past_the_limit = '{"q":' + "[" * 200 + "]" * 200 + "}"  # 201 levels with the object
    for args in (
        ("validate", str(page), "s", "--input", f"@{deep}"),
        ("call", str(page), "s", "--dry-run", "--input", deep.read_text()),
        ("validate", str(page), "s", "--input", past_the_limit),
        ("call", str(page), "s", "--dry-run", "--profile", "html", "--input", past_the_limit),
    ):
        done = run(*args)
        err = done.stderr.decode()
        assert done.returncode == 2, (args, err)
        assert "nests deeper than 200 levels" in err and err.count("\n") == 1, err
    at_the_limit = '{"q":' + "[" * 199 + "]" * 199 + "}"
    done = run("validate", str(page), "s", "--profile", "html", "--input", at_the_limit)
    assert done.returncode == 1 and b'is not of type "string" (badInput)' in done.stdout, done


# actions that need the page's URL: none, empty (the page itself), path-absolute, query-only
_RELATIVE_ACTIONS = ("", 'action=""', 'action="/submit"', 'action="?q=1"')


@pytest.mark.parametrize("action", _RELATIVE_ACTIONS)
def test_a_call_on_a_saved_page_without_base_url_names_the_option(tmp_path: Path, action: str) -> None:
    """The newcomer's first call: a page saved to a file (or piped in) and no ``--base-url``.
    From a file the action resolved against the file's own URL and the send was refused as a
    network failure (exit 3, ``Refused to fetch file:///submit``); from standard input the call
    failed with exit 1 and the library's ``(give base_url)``. Both are the one user mistake:
    exit 2, one line that names ``--base-url``; ``--dry-run`` still shows the browser's request."""
    page = tmp_path / "saved.html"
    markup = f"<form {action} method=post toolname=t tooldescription=d toolautosubmit><input name=q></form>"
    page.write_text(markup)
    for args, stdin in (((str(page),), None), (("-",), markup.encode())):
        done = run("call", *args, "t", "--input", '{"q": "x"}', stdin=stdin)
        err = done.stderr.decode()
        assert done.returncode == 2 and err.count("\n") == 1 and "pass --base-url" in err, (args, err)
        assert "Traceback" not in err and done.stdout == b""
    if action == "":
        done = run("call", str(page), "t", "--input", '{"q": "x"}', "--dry-run")
        assert done.returncode == 0 and json.loads(done.stdout)["url"].startswith("file:///"), done


def test_a_network_failure_is_one_line_and_exit_3() -> None:
    done = run("extract", "http://127.0.0.1:9/")
    assert done.returncode == 3
    err = done.stderr.decode()
    assert "Could not fetch http://127.0.0.1:9/" in err and "Connection refused" in err and err.count("\n") == 1
    assert done.stdout == b""


def test_lint_explains_dropped_forms_and_fields_and_fails_on_errors(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        "<form toolname='bad name' tooldescription=d></form>\n"
        "<form toolname=ok tooldescription=d>\n<input name=a><input name=a>\n"
        "<input type=hidden name=h><button>go</button></form>"
    )
    done = run("lint", str(page))
    assert done.returncode == 1
    out = done.stdout.decode()
    assert f"{page}:1: error: form #1 (toolname='bad name', line 1)" in out
    assert "[invalid-toolname]" in out and "[duplicate-name]" in out
    assert "[hidden-without-description]" not in out  # informational: only with --verbose
    assert "[hidden-without-description]" in run("lint", str(page), "-v").stdout.decode()
    report = json.loads(run("lint", str(page), "--json").stdout)
    assert report["version"] == 1 and report["page"] == str(page)
    findings = report["diagnostics"]
    assert {f["code"] for f in findings} >= {"invalid-toolname", "duplicate-name", "hidden-without-description"}
    assert all(f["message"] for f in findings)
    assert report["counts"]["errors"] == sum(f["severity"] == "error" for f in findings) > 0


def test_lint_passes_a_clean_page(tmp_path: Path) -> None:
    page = tmp_path / "ok.html"
    page.write_text(
        "<form toolname=ok tooldescription=d><label>Q <input name=q></label><button>go</button></form>"
    )
    done = run("lint", str(page))
    assert done.returncode == 0, done.stdout
    assert "1 tool(s); 0 error(s), 0 warning(s)" in done.stdout.decode()


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/shop/page")
            self.end_headers()
            return
        body = b"<form toolname=t tooldescription='Caf\xe9'><input name=q></form>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=windows-1252")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_extract_from_a_url_follows_redirects_and_decodes_by_header() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/moved"
        tools = json.loads(run("extract", url).stdout)
        assert tools[0]["description"] == "Caf\u00e9"
    finally:
        server.shutdown()


def _scheme_spellings(rng: random.Random) -> list[str]:
    """``http://`` and ``https://`` in seeded mixes of case, as the URL Standard reads alike."""
    return ["".join(rng.choice([c, c.upper()]) for c in scheme) + "://" for scheme in ["http"] * 4 + ["https"] * 2]


def test_a_url_whose_scheme_is_in_capitals_is_a_url_at_every_edge(tmp_path: Path) -> None:
    """``HTTP://…`` names a URL (the URL Standard's scheme state lowercases it): extract said
    "no such file", the library the same, batch took it for a missing input rather than a URL
    to list, and a URL list's line was "not an http(s) URL"."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for scheme in _scheme_spellings(random.Random(5)):
            url = f"{scheme}127.0.0.1:{server.server_port}/page"
            if scheme.lower() == "https://":  # a URL, fetched: TLS to a plain server fails there
                done = run("extract", url)
                assert done.returncode == 3 and b"no such file" not in done.stderr, done.stderr
                continue
            assert json.loads(run("extract", url).stdout)[0]["name"] == "t", url
            assert [tool.name for tool in formtools.extract_tools(formtools.load_page(url))] == ["t"]
            refused = run("batch", url, "--out", "-")
            assert refused.returncode == 2 and b"put URLs in a file for --urls" in refused.stderr, refused.stderr
            listing = tmp_path / "urls.txt"
            listing.write_text(url + "\n")
            listed = run("batch", "--urls", str(listing), "--out", "-")
            assert json.loads(listed.stdout)["tools"][0]["name"] == "t", listed.stdout
    finally:
        server.shutdown()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("extract", str(PAGE), "--bogus"), "No such option: --bogus (see 'python -m formtools extract --help')"),
        (("extract", str(PAGE), "--base-ur", "x"), "Possible options: --base-url"),
        (("validate", str(PAGE)), "Missing argument 'tool'. (see 'python -m formtools validate --help')"),
        (("lint",), "Missing argument 'page'."),
        (("nosuchcommand",), "No such command 'nosuchcommand'."),
        (("batch", str(PAGE), "--jobs", "x", "--out", "-"), "Invalid value for '--jobs'"),
        (("lint", str(PAGE), "--json", "--format", "sarif"), "--json and --format sarif ask for two formats"),
        (("lint", str(PAGE), "--format", "text", "--json"), "--json and --format text ask for two formats"),
        (("lint", str(PAGE), "--format", "bogus", "--json"), "--format: unknown value 'bogus'"),
    ],
)
def test_command_line_mistakes_are_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    """click's own rendering of a usage mistake took four lines (usage, a hint, a blank line,
    ``Error: …``) unlike every other mistake's ``formtools: error: …`` line (cli.md: "every user
    mistake is one line"); now one line in that form, naming the command's help."""
    done = run(*args)
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("formtools: error: ") and err.count("\n") == 1, err
    assert message in err and "Traceback" not in err and done.stdout == b""


#: Each command with a number among its options, with arguments that make it run.
_RUNS = {
    "extract": [str(PAGE)],
    "serve": [str(FIXTURES / "realistic-search.html"), "--base-url", "https://shop.example/"],
    "batch": [str(PAGE), "--out", "-"],
}


def _number_options() -> list[tuple[str, str, str]]:
    """``(command, option, value)``: every int and float option of every command, with nan and
    -1 (``--timeout`` with 0 too: a deadline of none; ``--port`` too: the server announced port 0
    while it listened on another), read from the command line's definition so that a new one is
    tried as it comes. An option several commands share (``--max-bytes``: one definition) is
    tried with the first command that has it: the others parse it alike."""
    import typer.main

    from formtools.cli import app

    found = []
    tried = set()
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        for param in command.params:  # click's types by name: typer may bring its own click
            definition = (param.opts[0], param.type.name, param.help)
            if param.param_type_name == "option" and param.type.name.split()[0] in ("integer", "int", "float") and definition not in tried:
                tried.add(definition)
                found += [(name, param.opts[0], value) for value in ("nan", "-1", *(["0"] if param.opts[0] in ("--timeout", "--port") else []))]
    return found


@pytest.mark.parametrize(("command", "option", "value"), _number_options())
def test_a_number_option_out_of_its_range_is_one_line_and_exit_2(command: str, option: str, value: str) -> None:
    """``serve --timeout 0`` (or -1, or nan) started a server whose every tool call failed, the
    server printing a traceback ("ValueError: timeout must be positive"); ``--max-bytes -1``
    started one that said it answered "up to -1 bytes"; ``--port -1`` was taken (and ignored over
    stdio); ``batch --page-time-limit nan`` ran with no limit (click's range lets NaN through):
    6 of these 11 before. Each must be one line naming the option, exit 2, before anything runs."""
    done = subprocess.run(
        [sys.executable, "-m", "formtools", command, *_RUNS[command], option, value],
        capture_output=True, stdin=subprocess.DEVNULL, timeout=120,
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("formtools: error: ") and err.count("\n") == 1, err
    assert option in err and "Traceback" not in err


def test_formtools_alone_shows_its_help() -> None:
    done = run()
    assert done.returncode == 2 and b"Usage: python -m formtools" in done.stdout


def _help_sources() -> dict[str, list[str]]:
    """What each ``--help`` page is written from, by command ('' for formtools itself): the
    command's docstring and every parameter's help, as the source spells them; for formtools
    itself, the first paragraph of each command's."""
    import typer.main

    from formtools.cli import app

    group = typer.main.get_command(app)
    commands = getattr(group, "commands")
    listed = ((command.help or "").partition("\n\n")[0] for command in commands.values())
    sources = {"": [group.help or "", *listed]}  # the list shows a command's first paragraph
    for name, command in commands.items():
        shown = sorted(command.params, key=lambda param: param.param_type_name != "argument")  # a panel each
        sources[name] = [command.help or "", *(getattr(param, "help", None) or "" for param in shown)]
    return sources


def _breaks_early(lines: list[str], width: int) -> list[tuple[str, str]]:
    """Pairs of lines of one paragraph where the second's first word would have fitted on the
    first: a line broken before the width, not wrapped at it."""
    return [
        (first, second)
        for first, second in zip(lines, lines[1:])
        if first and second and len(first) + 1 + len(second.split()[0]) <= width
    ]


def test_every_help_page_says_all_its_source_says_in_flowing_paragraphs() -> None:
    """A newcomer's first read is ``--help``. Each page shows every word its docstring and its
    options' help say, in order, with no source markup (RST's double backticks showed raw) and
    no line broken before the width: the rich mode kept the docstrings' source line breaks, so
    ``validate``'s line in the command list and ``call``'s paragraphs broke mid-sentence."""
    sources = _help_sources()
    env = {**ENV, "COLUMNS": "80"}
    for name, texts in sources.items():
        args = [name, "--help"] if name else ["--help"]
        done = subprocess.run([*formtools_command(env), *args], capture_output=True, env=env, timeout=60)
        page = done.stdout.decode()
        assert done.returncode == 0 and "`" not in page, page
        shown = re.findall(r"[\w'-]+", page)
        at = 0
        for word in re.findall(r"[\w'-]+", " ".join(texts).partition("\f")[0]):
            assert word in shown[at:], f"{args}: {word!r} not shown (in order)"
            at = shown.index(word, at) + 1
        lines = page.splitlines()
        header = lines[lines.index(next(line for line in lines if "Usage:" in line)) + 1 :]
        header = header[: next((i for i, line in enumerate(header) if line.startswith("╭")), len(header))]
        width = max(len(line.strip()) for line in header)
        for paragraph in "\n".join(line.strip() for line in header).split("\n\n"):
            assert not _breaks_early(paragraph.split("\n"), width), (args, paragraph)
        if not name:  # the command list: a description column whose cells continue indented
            start = lines.index(next(line for line in lines if "─ Commands ─" in line))
            table = [line[1:-1] for line in lines[start + 1 :] if line.startswith("│")]
            column = len(table[0]) - len(table[0].split(maxsplit=1)[1])
            cells: list[list[str]] = []
            for row in table:
                if row[:column].strip():
                    cells.append([])
                cells[-1].append(row[column:].rstrip())
            width = max(len(line) for cell in cells for line in cell)
            for cell in cells:
                assert not _breaks_early(cell, width), cell


def test_openai_tools_are_portable_unless_a_profile_is_named() -> None:
    """``extract --format openai`` without ``--profile`` gave the chromium profile's schemas, whose
    keywords (option titles in ``anyOf``, ``const``, ``format``, ``multipleOf``) OpenAI rejects:
    the docs said to add ``--profile portable``, which a newcomer does not know to. Now the
    default for that format; on every fixture page each function's parameters are in the
    webmcp#289 subset, and a profile named on the command line is still honoured."""
    from formtools._spec.schema_subset import subset_violations

    runner = CliRunner()
    outside: list[str] = []
    functions = 0
    for page in sorted(FIXTURES.glob("*.html")):
        done = runner.invoke(app, ["extract", str(page), "--format", "openai"])
        assert done.exit_code == 0, (page.name, done.output)
        for function in json.loads(done.stdout):
            functions += 1
            outside += [f"{page.name} {function['name']}: {v}" for v in subset_violations(function["parameters"])]
    assert functions > 200 and not outside, outside[:5]
    named = runner.invoke(app, ["extract", str(FIXTURES / "realistic-search.html"), "--format", "openai", "--profile", "chromium"])
    assert '"anyOf"' in named.stdout


def test_lint_says_where_its_hidden_notes_are() -> None:
    """A newcomer's first page, a form without ``toolname``: ``lint`` printed only ``0 tool(s);
    0 error(s), 0 warning(s), 1 note(s)``, the reason (``not-a-tool``) hidden behind ``-v``
    with nothing saying so. On every fixture page the summary says ``-v`` shows the notes
    exactly when some are hidden, and ``-v`` shows them all."""
    from typer.testing import CliRunner

    from formtools.cli import app

    runner = CliRunner()
    hinted = 0
    for page in [*sorted(FIXTURES.glob("*.html"))]:
        quiet = runner.invoke(app, ["lint", str(page)]).stdout.splitlines()
        loud = runner.invoke(app, ["lint", str(page), "-v"]).stdout.splitlines()
        notes = int(quiet[-1].split(", ")[-1].split()[0])
        assert quiet[-1].endswith("(-v shows them)") == (notes > 0), (page.name, quiet[-1])
        assert len(loud) == len(quiet) + notes and not loud[-1].endswith("(-v shows them)"), page.name
        hinted += notes > 0
    assert hinted > 50



def _grouped_page(rng: random.Random) -> str:
    """A tool form as design systems render their choice components (a Django ``RadioSelect``,
    GOV.UK radios and checkboxes, Bootstrap's stacked checks): groups of two to five radios or
    checkboxes sharing a name, required on some or all members, next to a required text field."""
    parts = ['<label for="n">Name</label><input id="n" name="full-name" required>']
    for group in range(rng.randint(1, 3)):
        kind = rng.choice(["radio", "checkbox"])
        size = rng.randint(2, 5)
        marked = rng.choice([range(size), range(rng.randint(1, size))])
        boxes = "".join(
            f'<div class="item"><input type="{kind}" id="g{group}-{i}" name="g{group}" value="v{i}"'
            f'{" required" if i in marked else ""}><label for="g{group}-{i}">Option {i}</label></div>'
            for i in range(size)
        )
        parts.append(f"<fieldset><legend>Question {group}</legend>{boxes}</fieldset>")
    return f'<form toolname=t tooldescription=d toolautosubmit action="/apply">{"".join(parts)}<button>Continue</button></form>'


def test_a_form_without_autosubmit_that_fails_validation_is_filled_and_waits() -> None:
    """Chromium 156 fills such a form and waits for the person (validation is the submission's):
    ``--dry-run`` prints the request it would hold and, on standard error, what stops the
    person's submission (exit 1); ``--yes`` confirms, and the submission is refused, nothing sent."""
    page = b'<form toolname=t tooldescription=d action="/go"><input name=q required><button>Go</button></form>'
    dry = run("call", "-", "t", "--input", "{}", "--dry-run", "--base-url", "https://shop.example/", stdin=page)
    assert dry.returncode == 1
    assert json.loads(dry.stdout)["url"] == "https://shop.example/go?q="
    assert dry.stderr.decode().splitlines() == ["formtools: q: Please fill out this field. (valueMissing)"]
    confirmed = run("call", "-", "t", "--input", "{}", "--yes", "--base-url", "https://shop.example/", stdin=page)
    assert confirmed.returncode == 1 and confirmed.stdout == b""
    assert confirmed.stderr.decode().splitlines() == dry.stderr.decode().splitlines()


def test_a_failing_group_is_one_line_per_field() -> None:
    """``call`` promises one message per field, but printed Chromium's message per control: a
    required group of three radios was the same line three times (Django's RadioSelect, GOV.UK
    radios). The library's ``str()`` keeps Chromium's repeated text (the browser parity tests
    compare it); the lines an edge prints (the CLI, the MCP bridge) are each problem once."""
    rng = random.Random("one-line-per-field")
    repeated = 0
    for _ in range(40):
        page = _grouped_page(rng)
        (tool,) = formtools.extract_tools(page)
        with pytest.raises(ValidationError) as failed:
            formtools.prepare_call(tool, {})
        problems = [str(problem) for problem in failed.value.problems]
        repeated += len(problems) > len(set(problems))
        keys = [problem.key for problem in failed.value.problems]
        assert failed.value.lines() == list(dict.fromkeys(problems))
        assert len(failed.value.lines()) == len(set(keys))  # one line per field
        assert str(failed.value) == "Form validation failed: " + "".join(
            f"{p.key}: {p.message}. " for p in failed.value.problems
        )
    assert repeated > 20  # the generator makes the case: a group failing on several members
    done = run("call", "-", "t", "--dry-run", "--base-url", "https://shop.example/", stdin=page.encode())
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [f"formtools: {line}" for line in failed.value.lines()]


def test_an_unknown_or_disabled_submitter_is_a_usage_mistake_naming_the_buttons(tmp_path: Path) -> None:
    """``--submitter`` is the caller's word, as ``--file`` is: a name no enabled submit button
    has (by name or id) is one line, exit 2, naming the buttons it could be, and nothing is
    prepared. Before, it exited 1, the code of an input the tool rejects, with no buttons named.
    Seeded: the buttons (named, id only, unnamed, disabled) and the name asked for."""
    rng = random.Random(7)
    buttons = [
        ("<button name=save>Save</button>", "save"),
        ("<input type=submit id=publish value=Publish>", "publish"),
        ("<button>Go</button>", None),
        ("<button name=old disabled>Old</button>", None),
        ("<input type=image name=map alt=Map src=m.png>", "map"),
    ]
    for case in range(3):
        chosen = rng.sample(buttons, k=rng.randint(1, len(buttons)))
        page = tmp_path / f"p{case}.html"
        page.write_text("<form toolname=t tooldescription=d action=/a><input name=q>" + "".join(b for b, _ in chosen) + "</form>")
        asked = rng.choice(["nope", "old", "Save"])
        done = run("call", str(page), "t", "--input", '{"q": "x"}', "--submitter", asked, "--base-url", "https://shop.example/", "--dry-run")
        known = ", ".join(repr(name) for _, name in chosen if name) or "none"
        why = f"the submit button {asked!r} is disabled" if asked == "old" and any("old" in b for b, _ in chosen) else (
            f"the form has no submit button named {asked!r} (submit buttons with a name or id: {known})"
        )
        assert (done.returncode, done.stdout, done.stderr.decode()) == (2, b"", f"formtools: error: --submitter: {why}\n"), chosen



@functools.cache
def _unshowable() -> frozenset[str]:
    """Every character a terminal runs or a reader cannot see, by the running Python's Unicode
    data: controls (C0, DEL, C1: ESC starts the escape sequences), format characters
    (zero-width, bidirectional, tags) and line and paragraph separators."""
    return frozenset(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp"))


def test_what_formtools_escapes_is_every_control_and_format_character() -> None:
    """The one list the edges escape (and the MCP bridge strips from a page's text) holds every
    character of Unicode's categories Cc, Cf, Zl, Zp, and nothing assigned besides."""
    listed = {chr(c) for c in range(0x110000) if UNSHOWABLE.match(chr(c))}
    assert _unshowable() <= listed
    assert {unicodedata.category(char) for char in listed - _unshowable()} <= {"Cn"}


def _plain_text(text: str) -> bool:
    """Nothing in ``text`` but printable characters and the line feeds between its lines."""
    return all(char == "\n" or char not in _unshowable() for char in text)


def _spiked_page(seed: str) -> tuple[list[str], list[str], str]:
    """A page whose twelve field names (and description) hold every character of
    :func:`_unshowable` that HTML keeps (not NUL, CR), shuffled by ``seed``: the characters in
    their order, the names, the page."""
    rng = random.Random(seed)
    unshowable = sorted(_unshowable() - set("\x00\r"))  # (HTML reads them as U+FFFD and \n)
    rng.shuffle(unshowable)
    names = [f"f{i}" + "".join(unshowable[i::12]) + "]0;x\x07" for i in range(12)]
    fields = "".join(f'<label>{html.escape(n)}<input name="{html.escape(n)}" required></label>' for n in names)
    description = html.escape("Order " + "".join(unshowable))
    page = f'<meta charset=utf-8><form toolname=t tooldescription="{description}" action="/go">{fields}<button>Go</button></form>'
    return unshowable, names, page


def test_a_page_or_an_input_cannot_write_escape_sequences_to_the_terminal() -> None:
    """A field's name is the page's to choose and a key of ``--input`` the caller's, and the
    problem lines of ``validate`` and ``call`` quote both verbatim: a field named ``ESC]0;…BEL``
    retitled the terminal, ``ESC[2J`` cleared it, ``ESC]52;…`` could write the clipboard, a
    carriage return printed over the line before, a line feed made one problem two lines.
    Every such character (every one, shuffled by a seed into twelve names) is printed as its
    escape, one line per problem."""
    unshowable, names, page = _spiked_page("terminal-escapes")
    (tool,) = formtools.extract_tools(page, profile="html", base_url="https://shop.example/")
    assert sorted(tool.input_schema["properties"]) == sorted(names)
    arguments = json.dumps({f"k{char}\x1b[2J": "v\x1b]0;y\x07" for char in unshowable[:8]})
    checked = run("validate", "-", "t", "--input", arguments, stdin=page.encode())
    problems = formtools.validate_input(tool, json.loads(arguments))
    assert checked.returncode == 1 and len(problems) == len(names) + 8
    printed = checked.stdout.decode()
    assert _plain_text(printed) and len(printed.splitlines()) == len(problems)
    base = ("--base-url", "https://shop.example/")
    for arguments in ("{}", json.dumps({f"k{char}": 1 for char in unshowable[:8]})):
        called = run("call", "-", "t", "--input", arguments, "--dry-run", *base, stdin=page.encode())
        complaints = called.stderr.decode()
        assert called.returncode == 1 and _plain_text(complaints), complaints
        assert len(complaints.splitlines()) == (len(names) if arguments == "{}" else 8)


def test_every_json_output_writes_control_and_format_characters_as_escapes(tmp_path: Path) -> None:
    """JSON.stringify writes C1 controls (U+009B CSI, U+009D OSC: escape sequences to a terminal
    that reads C1, xterm's default), bidirectional and format characters as they are, and so did
    every JSON output of formtools on a terminal: ``extract``, ``lint --format json|sarif``,
    ``validate --format json``, ``call --dry-run``, ``batch --out -``. Each now writes them as
    ``\\u`` escapes: the output is plain text, and the same JSON (the page's names and
    description come back whole)."""
    unshowable, names, page = _spiked_page("json-escapes")
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    base = ("--base-url", "https://shop.example/")
    outputs = {
        "extract": run("extract", "-", "--profile", "html", *base, stdin=page.encode()),
        "lint": run("lint", "-", "--format", "json", *base, stdin=page.encode()),
        "sarif": run("lint", "-", "--format", "sarif", *base, stdin=page.encode()),
        "validate": run("validate", "-", "t", "--format", "json", *base, stdin=page.encode()),
        "call": run("call", "-", "t", "--dry-run", "--input", json.dumps({n: n for n in names}), *base, stdin=page.encode()),
        "batch": run("batch", str(tmp_path / "page.html"), "--out", "-", "-j", "1"),
    }
    for command, done in outputs.items():
        printed = done.stdout.decode()
        assert _plain_text(printed), (command, [char for char in printed if char in _unshowable() and char != "\n"][:5])
    (tool,) = json.loads(outputs["extract"].stdout)
    assert sorted(tool["inputSchema"]["properties"]) == sorted(names)
    assert set("\x9b\x9d\u202e\U000e0041") <= set(tool["description"])  # CSI, OSC, RLO, a tag: kept
    assert sorted(p["field"] for p in json.loads(outputs["validate"].stdout)["problems"]) == sorted(names)
    (line,) = outputs["batch"].stdout.decode().splitlines()
    assert sorted(json.loads(line)["tools"][0]["inputSchema"]["properties"]) == sorted(names)


def test_the_report_writes_a_pages_control_and_format_characters_as_escapes(tmp_path: Path) -> None:
    """``formtools report`` prints a page's source, names and descriptions in Markdown, HTML or
    JSON, and printed them as they were: a page's ``ESC]0;…BEL`` retitled the terminal,
    U+009B ran as CSI, U+202E turned lines around. Each document is now plain text (the page's
    tabs and line feeds kept in its source): the source shows every other such character as
    its Python escape, and the JSON is the same JSON (every name comes back whole)."""
    unshowable, names, page = _spiked_page("report-escapes")
    (tmp_path / "spiked.html").write_text(page, encoding="utf-8")
    laid_out = set("\t\n")
    source = "".join(
        char.encode("unicode_escape").decode("ascii") if char in unshowable and char not in laid_out else char
        for char in page
    )
    for format in ("md", "html", "json"):
        done = run("report", str(tmp_path / "spiked.html"), "--format", format)
        printed = done.stdout.decode()
        assert done.returncode == 0, done.stderr
        raw = [char for char in printed if char in _unshowable() - laid_out]
        assert not raw, (format, raw[:5])
        if format == "md":
            assert source in printed  # the smallest page's source, escaped and laid out
        if format == "json":
            parameters = {d["parameter"] for d in json.loads(printed)["differences"]}
            assert parameters - {None} == set(names)
