"""The command line's conventions, run as a user runs them (a real process each time): the
version, ``-`` for standard input and output, ``@-`` for JSON, one exit-code table, machine
formats (a versioned lint JSON, SARIF 2.1.0 checked against the OASIS schema, GitHub annotations,
validation problems as JSON Pointers), colour never with NO_COLOR; and the library taking every
kind of page source."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import jsonschema
import pytest

import formtools
from support.site import TestSite
from tests.conftest import ENV
from tests.support.forkserve import formtools_command

ROOT = Path(__file__).resolve().parent.parent
SEARCH = ROOT / "fixtures" / "html" / "realistic-search.html"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
BROKEN = (
    "<form toolname='bad name' tooldescription=d><input name=a></form>\n"
    "<form toolname=ok tooldescription=d><input name=x><input name=x><button>Go</button></form>\n"
)


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m formtools ARGS`` forked from a warm interpreter (tests/support/forkserve.py):
    these tests ask what a command answers (exit code, output, files), not how a process starts,
    and a fork spares each of the file's ~30 runs the 0.3 s of CPU that importing formtools costs."""
    return subprocess.run([*formtools_command(ENV), *args], input=stdin, capture_output=True, check=False, env=ENV, timeout=120)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    done = run(flag)
    assert (done.returncode, done.stdout.decode()) == (0, f"formtools {formtools.__version__}\n")


def test_a_page_and_an_input_from_standard_input() -> None:
    page = SEARCH.read_bytes()
    extracted = run("extract", "-", "--base-url", "https://shop.example/", stdin=page)
    assert extracted.returncode == 0
    assert "site_search" in [t["name"] for t in json.loads(extracted.stdout)]
    checked = run(
        "validate", str(SEARCH), "site_search", "--input", "@-", stdin=b'{"q": "milk", "dept": "nope"}'
    )
    assert checked.returncode == 1
    assert checked.stdout.decode().startswith('/dept: "nope" is not one of ["all", ')


def test_input_from_a_file_and_its_mistakes(tmp_path: Path) -> None:
    arguments = tmp_path / "input.json"
    arguments.write_text('{"q": "milk"}')
    assert run("validate", str(SEARCH), "site_search", "--input", f"@{arguments}").returncode == 0
    missing = run("validate", str(SEARCH), "site_search", "--input", "@nope.json")
    assert missing.returncode == 2
    assert missing.stderr.decode() == "formtools: error: --input: nope.json: no such file or directory\n"
    with_bom = tmp_path / "bom.json"  # as Notepad saves it: "Unexpected UTF-8 BOM (decode using utf-8-sig)"
    with_bom.write_bytes(b'\xef\xbb\xbf{"q": "milk"}')
    assert run("validate", str(SEARCH), "site_search", "--input", f"@{with_bom}").returncode == 0
    assert run("validate", str(SEARCH), "site_search", "--input", "@-", stdin=with_bom.read_bytes()).returncode == 0
    broken = run("validate", str(SEARCH), "site_search", "--input", "{nope")
    assert broken.returncode == 2 and broken.stderr.decode().startswith("formtools: error: --input is not JSON")


def test_validate_as_json_pointers() -> None:
    done = run("validate", str(SEARCH), "site_search", "--format", "json", "--input", '{"q": 5, "x~/": 1}')
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["tool"] == "site_search" and report["valid"] is False
    pointers = {p["pointer"]: p for p in report["problems"]}
    assert pointers["/q"]["message"] == '5 is not of type "string"'
    assert "/x~0~1" in pointers  # RFC 6901 escaping of ~ and /


def test_batch_to_standard_output_and_into_a_missing_directory(tmp_path: Path) -> None:
    done = run("batch", str(SEARCH), "--out", "-", "-j", "1")
    assert done.returncode == 0
    (line,) = done.stdout.decode().splitlines()
    assert json.loads(line)["path"] == str(SEARCH)
    missing = run("batch", str(SEARCH), "--out", str(tmp_path / "no" / "such" / "out.jsonl"))
    assert missing.returncode == 2
    assert missing.stderr.decode() == f"formtools: error: --out: {tmp_path / 'no' / 'such'}: no such directory\n"
    assert run("batch", str(SEARCH), "--out", "-", "--resume").returncode == 2


def test_report_to_standard_output() -> None:
    done = run("report", str(SEARCH), "--out", "-")
    assert done.returncode == 0 and '\n# <a id="index"></a>Conformance report' in done.stdout.decode()


def test_lint_formats(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text(BROKEN)
    as_json = run("lint", str(page), "--format", "json")
    assert as_json.returncode == 1
    report = json.loads(as_json.stdout)
    assert report["version"] == 1 and report["tools"] == ["ok"]
    assert report["counts"]["errors"] >= 2
    assert {d["code"] for d in report["diagnostics"]} >= {"invalid-toolname", "duplicate-name"}
    assert json.loads(run("lint", str(page), "--json").stdout) == report  # the old flag, same shape

    sarif = run("lint", str(page), "--format", "sarif")
    assert sarif.returncode == 1
    log = json.loads(sarif.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    (sarif_run,) = log["runs"]
    results = sarif_run["results"]
    assert {r["ruleId"] for r in results} == {d["code"] for d in report["diagnostics"]}
    assert all(sarif_run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results} == {1, 2}

    github = run("lint", str(page), "--format", "github")
    assert github.returncode == 1
    lines = github.stdout.decode().splitlines()
    assert lines and all(line.startswith(("::error file=", "::warning file=")) for line in lines)
    assert any(line.startswith(f"::error file={page},line=1,title=invalid-toolname::") for line in lines)

    unknown = run("lint", str(page), "--format", "yaml")
    assert unknown.returncode == 2
    assert unknown.stderr.decode() == "formtools: error: --format: unknown value 'yaml' (known: text, json, sarif, github)\n"


def test_exit_codes_are_one_table(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text(BROKEN)
    clean = tmp_path / "clean.html"
    clean.write_text("<form toolname=ok tooldescription=d><label>Q <input name=q></label><button>Go</button></form>")
    assert run("lint", str(clean)).returncode == 0  # done
    assert run("lint", str(page)).returncode == 1  # findings
    assert run("extract", str(tmp_path / "absent.html")).returncode == 2  # input error
    assert run("extract", "--nope", str(SEARCH)).returncode == 2  # usage error
    assert run("extract", "http://127.0.0.1:9/").returncode == 3  # network


def _on_a_terminal(*args: str, env: dict[str, str]) -> bytes:
    """What the command writes to a real pseudo-terminal."""
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", *args],
        stdin=follower, stdout=follower, stderr=follower, env={**os.environ, "TERM": "xterm-256color", **env},
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(leader)
    return output


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert b"\x1b[" in _on_a_terminal("--help", env={})
    assert b"\x1b[" not in _on_a_terminal("--help", env={"NO_COLOR": "1"})
    assert b"\x1b[" not in run("--help").stdout  # not a terminal


@pytest.fixture(scope="module")
def site():
    with TestSite() as running:
        yield running


def test_the_library_takes_every_kind_of_page(tmp_path: Path, site: TestSite) -> None:
    markup = SEARCH.read_text(encoding="utf-8")
    expected = [t.to_dict() for t in formtools.extract_tools(markup)]
    url = site.put("search", SEARCH.read_bytes())
    kinds = {
        "str": markup,
        "bytes": SEARCH.read_bytes(),
        "Path": SEARCH,
        "binary file": SEARCH.open("rb"),
        "text file": SEARCH.open(encoding="utf-8"),
        "BytesIO": io.BytesIO(SEARCH.read_bytes()),
        "httpx.URL": httpx.URL(url),
        "Document": formtools.parse_html(markup),
    }
    for kind, page in kinds.items():
        tools = formtools.extract_tools(page)
        assert [t.to_dict() for t in tools] == expected, kind
    # the document URL is derived as a browser would: a file's file: URL, a fetched page's URL
    assert formtools.extract_tools(SEARCH)[0].page.url == SEARCH.resolve().as_uri()
    assert formtools.extract_tools(SEARCH.open("rb"))[0].page.url == SEARCH.resolve().as_uri()
    assert formtools.extract_tools(httpx.URL(url))[0].page.url == url
    assert formtools.extract_tools(io.BytesIO(b"<form toolname=t tooldescription=d></form>"))[0].page.url is None
    with pytest.raises(formtools.SourceError, match="cannot read a page from a int"):
        formtools.extract(42)


def test_a_pages_name_given_as_markup_is_refused_not_parsed() -> None:
    """A ``str`` is markup, so ``extract_tools("page.html")`` — the newcomer's first call, and
    what ``extract_tools("https://…")`` looks like it should do — parsed the name itself and
    gave ``[]`` without a word. Every spelling of a file name or URL is now a UsageProblem that
    says what to give; text that is markup (a tag, words with spaces, nothing) still parses,
    and Path, load_page and URL objects read the page as before."""
    names = [
        "page.html", "realistic-search.HTM", "./fixtures/html/realistic-search.html", str(SEARCH),
        " page.xhtml\n", "https://shop.example/", "http://127.0.0.1:8000/search?q=milk",
    ]
    for name in names:
        for call in (formtools.extract_tools, formtools.extract):
            with pytest.raises(formtools.UsageProblem, match=r"a page's name rather than the page: give (Path|load_page)"):
                call(name)
    for markup in ("", "hello world", "see page.html for details", "<p>page.html", "https://x.example/ <form>"):
        assert formtools.extract_tools(markup) == []
    assert formtools.extract_tools(SEARCH) == formtools.extract_tools(formtools.load_page(str(SEARCH)))


@pytest.mark.parametrize(
    "args, message, code",
    [
        (["batch", "{page}", "--out", "{dir}"], "--out: {dir} is a directory, not a file", 2),
        (["extract", "/dev/zero"], "/dev/zero: larger than 10,485,760 bytes, the page size limit; not read", 2),
        (["call", "{page}", "t", "--input", '{"q": NaN}', "--dry-run"], "--input is not JSON: NaN is not JSON", 2),
        (["call", "{page}", "t", "--input", '{"q": Infinity}'], "--input is not JSON: Infinity is not JSON", 2),
        (["extract", "{page}", "--base-url", "notaurl"], "--base-url: 'notaurl' is not an absolute URL", 2),
        (["extract", "{page}", "--base-url", "/relative"], "--base-url: '/relative' is not an absolute URL", 2),
        (["serve", "{page}", "--base-url", "foo"], "--base-url: 'foo' is not an absolute URL", 2),
        (["lint", "{page}", "--base-url", "foo"], "--base-url: 'foo' is not an absolute URL", 2),
    ],
)
def test_misuse_found_by_review_is_one_line(tmp_path: Path, args: list[str], message: str, code: int) -> None:
    """An outsider's attempts that gave tracebacks, read for ever or blamed the page."""
    page = tmp_path / "p.html"
    page.write_text("<form toolname=t tooldescription=d><input name=q></form>")
    fill = {"{page}": str(page), "{dir}": str(tmp_path)}
    done = run(*[fill.get(arg, arg) for arg in args])
    assert done.returncode == code, done.stderr
    assert done.stderr.decode().splitlines() == [f"formtools: error: {message.replace('{dir}', str(tmp_path))}"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["extract", "{page}"], ["batch", "{page}", "--out", "/dev/full"]])
def test_an_output_that_cannot_be_written_is_one_line(tmp_path: Path, command: list[str]) -> None:
    page = tmp_path / "p.html"
    page.write_text("<form toolname=t tooldescription=d><input name=q></form>")
    args = [str(page) if arg == "{page}" else arg for arg in command]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*formtools_command(ENV), *args], stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=120, check=False
        )
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == ["formtools: error: cannot write the output: No space left on device"]


# (command, closed descriptor, exit code, standard error): each command as it behaves with the
# descriptor open, or the one-line error a closed one calls for
_CLOSED_STREAM_CASES = [
    (["extract", "{page}"], 1, 1, ["formtools: error: cannot write the output: standard output is closed"]),
    (["batch", "{page}", "--out", "-"], 1, 1, ["formtools: error: cannot write the output: standard output is closed"]),
    (["extract", "-"], 0, 2, ["formtools: error: <stdin>: standard input is closed"]),
    (["validate", "{page}", "t", "--input", "@-"], 0, 2, ["formtools: error: <stdin>: standard input is closed"]),
    (["batch", "{page}", "--out", "{dir}/out.jsonl"], 2, 0, None),
]


def test_a_standard_stream_closed_at_start_is_one_line_or_silence_never_a_traceback(tmp_path: Path) -> None:
    """``<&-``, ``>&-``, ``2>&-``: Python then has no ``sys.stdin``/``sys.stdout``/``sys.stderr``
    (None), and formtools failed with AttributeError tracebacks (reading ``-`` or ``@-``, writing
    ``batch --out -``), exited 0 having dropped its output (click drops text for a missing
    stream), or exited 1 for a batch that succeeded (it asked standard error whether it is a
    terminal). Now a closed input or output is one line and its exit code; a closed standard
    error changes nothing but the messages' absence. All cases run at once (a process each)."""
    page = tmp_path / "p.html"
    page.write_text("<form toolname=t tooldescription=d><input name=q></form>")
    fill = {"{page}": str(page)}
    runs = []
    for command, closed, code, said in _CLOSED_STREAM_CASES:
        args = [fill.get(arg, arg.replace("{dir}", str(tmp_path))) for arg in command]
        process = subprocess.Popen(
            [sys.executable, "-m", "formtools", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE if closed != 2 else subprocess.DEVNULL,
            preexec_fn=lambda descriptor=closed: os.close(descriptor),  # type: ignore[misc]
        )
        runs.append((command, closed, code, said, process))
    for command, closed, code, said, process in runs:
        err = process.communicate(timeout=120)[0 if closed == 2 else 1]
        assert process.returncode == code, (command, closed, err)
        if said is not None:
            assert err.decode().splitlines() == said, (command, closed)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_report_into_an_existing_file_without_a_suffix_writes_that_file(tmp_path: Path) -> None:
    """``--out /dev/full`` was taken for a directory to make ("File exists")."""
    page = tmp_path / "p.html"
    page.write_text("<form toolname=t tooldescription=d><input name=q></form>")
    done = run("report", str(page), "--out", "/dev/full")
    assert done.returncode == 2
    assert done.stderr.decode().splitlines()[0] == "formtools: error: --out: /dev/full: cannot write: No space left on device"


def test_a_tool_prints_as_an_agent_sees_it() -> None:
    """``print(tools)`` in a REPL showed each tool's form model and its profile's rule functions
    (``<function _text at 0x…>``): 4,330 characters for a three-field login form. A tool's repr
    is now what an agent sees plus the profile's name, on every fixture tool under every
    profile, and never longer than its JSON with some room for Python's spelling."""
    from formtools._spec.jsjson import dumps

    for page in sorted(SEARCH.parent.glob("*.html")):
        for profile in ("chromium", "html", "portable"):
            for tool in formtools.extract_tools(page.read_bytes(), profile=profile):
                shown = repr(tool)
                assert "<function" not in shown and "Control(" not in shown, (page.name, shown[:200])
                assert len(shown) <= 2 * len(dumps(tool.to_dict())) + 100, (page.name, len(shown))
                assert shown.startswith(f"Tool(name={tool.name!r}") and f"profile={profile!r}" in shown


def test_sigterm_during_a_chromium_command_closes_the_browser_and_removes_its_profile(tmp_path: Path) -> None:
    """``formtools diff`` sent SIGTERM (``timeout``, a cancelled CI job) while Chromium runs:
    Python's default ended the process on the spot and each such run left its 2 MB Chromium
    profile in the temporary directory. It now stops as Ctrl-C does: the browser closed, the
    profile removed, ``formtools: terminated``, exit 143, nothing left in its session. Sent a
    seeded moment after the profile appears (the browser starting or comparing)."""
    import random
    import signal
    import time

    from formtools._conformance.browser import CHROMIUM
    from tests.support.processes import left_after

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "formtools", "diff", str(SEARCH)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temporary)},
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not any(temporary.iterdir()):
        assert process.poll() is None and time.monotonic() < deadline, "Chromium never started"
        time.sleep(0.02)
    time.sleep(random.Random(143).uniform(0.0, 0.3))
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err.decode().splitlines()) == (143, ["formtools: terminated"])
    assert left_after(process.pid) == []
    assert list(temporary.iterdir()) == []


def test_a_chromium_command_writes_nothing_beside_its_profile() -> None:
    """Playwright made a folder of its own (``playwright-artifacts-…``) beside the profile in the
    temporary directory, which a run stopped while the browser started left behind (the
    SIGTERM test above, now and then on a busy machine). It now lives in the profile, which
    the run removes: while ``formtools diff`` runs, its temporary directory holds nothing of
    Playwright's beside the profile, and nothing after."""
    import time

    from formtools._conformance.browser import CHROMIUM, PROFILE_PREFIX

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    # short: Chromium's singleton socket goes in it, and a socket's path holds 107 bytes
    temporary = Path(tempfile.mkdtemp(prefix="ft"))
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "formtools", "diff", str(SEARCH)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "TMPDIR": str(temporary)},
        )
        seen: set[str] = set()
        while process.poll() is None:
            seen.update(path.name for path in temporary.iterdir())
            time.sleep(0.01)
        assert process.returncode == 0, (process.stderr.read() if process.stderr else b"").decode()[-3000:]
        # (and Chromium's own: the folder of its singleton socket, and the hidden files it
        # writes and renames, which it removes as it exits; the end is checked below)
        chromiums = ("org.chromium.Chromium.", ".org.chromium.Chromium.")
        assert seen and all(name.startswith((PROFILE_PREFIX, *chromiums)) for name in seen), seen
        assert list(temporary.iterdir()) == []
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def test_a_browser_that_cannot_start_says_why_in_one_short_line() -> None:
    """Chromium aborts when its singleton socket's path would pass 107 bytes (a deep temporary
    directory): ``formtools diff`` printed Playwright's whole launch error as its one line,
    6 KB holding every switch of the command line. It now gives Chromium's own reason."""
    from formtools._conformance.browser import CHROMIUM

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    top = Path(tempfile.mkdtemp(prefix="ft"))
    deep = top / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "formtools", "diff", str(SEARCH)],
            capture_output=True, env={**os.environ, "TMPDIR": str(deep)}, timeout=120,
        )
    finally:
        shutil.rmtree(top, ignore_errors=True)
    (line,) = done.stderr.decode().splitlines()
    assert done.returncode == 2 and "Socket path too long" in line and len(line) < 400, line[:600]


# every command that writes to standard output, as a user pipes it into `head`: {page} is a page
# of one tool (and a form that is not one), {many} a directory of many such pages
_PIPED_COMMANDS = {
    "extract": ["extract", "{page}"],
    "lint": ["lint", "{page}", "--format", "sarif"],
    "validate": ["validate", "{page}", "t", "--input", "{}"],
    "call": ["call", "{page}", "t", "--dry-run", "--input", '{"q": "x"}', "--base-url", "https://shop.example/"],
    "batch": ["batch", "{many}", "--out", "-", "--jobs", "1"],
    "report": ["report", "{page}"],
    "diff": ["diff", "{page}"],
}


def test_a_reader_that_goes_away_ends_every_command_with_141_and_nothing_said(tmp_path: Path) -> None:
    """``formtools batch … --out - | head -1`` exited 1, as every command did: click catches a
    broken pipe inside the command and exits 1 before formtools' own handler, so a script could
    not tell the reader's leaving from findings. Now each command that writes standard output
    (the app's own list, serve aside: it writes MCP to a client) exits 141, as a process SIGPIPE
    ended, with nothing on standard error, whether the reader left before the first write (a
    pipe whose reading end is closed: also ``--help``) or after the first line (``head -1``:
    ``batch`` of 600 pages, more than a pipe holds); and ``diff`` removes its Chromium profile.
    All run at once."""
    from formtools._conformance.browser import CHROMIUM
    from formtools.cli import app

    commands = {command.name or command.callback.__name__ for command in app.registered_commands if command.callback}
    assert commands - {"serve"} == set(_PIPED_COMMANDS), "a command that writes standard output is not tried here"
    page = tmp_path / "p.html"
    page.write_text(
        "<form toolname=t tooldescription=d><input name=q required><button>Go</button></form><form><input name=z></form>"
    )
    many = tmp_path / "many"
    many.mkdir()
    for number in range(600):
        (many / f"{number}.html").write_text(page.read_text())
    temporary = Path(tempfile.mkdtemp(prefix="ft-"))  # short: Chromium's socket path in it has a limit
    fill = {"{page}": str(page), "{many}": str(many)}
    runs = []
    for name, command in [*_PIPED_COMMANDS.items(), ("--help", ["--help"])]:
        if name == "diff" and not os.access(CHROMIUM, os.X_OK):
            continue
        reading, writing = os.pipe()
        os.close(reading)  # the reader left before the first write
        process = subprocess.Popen(
            [sys.executable, "-m", "formtools", *[fill.get(arg, arg) for arg in command]],
            stdin=subprocess.DEVNULL, stdout=writing, stderr=subprocess.PIPE,
            env={**os.environ, "TMPDIR": str(temporary)},
        )
        os.close(writing)
        runs.append((name, process))
    for name, command in [("batch | head -1", _PIPED_COMMANDS["batch"])]:
        process = subprocess.Popen(
            [sys.executable, "-m", "formtools", *[fill.get(arg, arg) for arg in command]],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        assert process.stdout is not None
        process.stdout.readline()
        process.stdout.close()  # the reader left after the first line
        runs.append((name, process))
    outcomes = {name: (process.wait(timeout=120), process.communicate()[1].decode()) for name, process in runs}
    assert outcomes == {name: (141, "") for name, _ in runs}
    assert not list(temporary.iterdir())
    temporary.rmdir()


# (command, exit code) with standard error's reader gone: the code of each as if it were there
_STDERR_GONE_CASES = [
    (["extract", "{dir}/missing.html"], 2),
    (["extract", "--no-such-option"], 2),
    (["validate", "{page}", "t", "--input", "{}"], 1),
    (["batch", "{page}", "--out", "{dir}/out.jsonl"], 0),
]


def test_a_reader_of_standard_error_that_goes_away_changes_no_exit_code(tmp_path: Path) -> None:
    """``2>&1 | head -1`` or a log reader that left: the broken pipe escaped formtools' error
    handler while it wrote the message, so a missing file or an unknown option exited 1, not
    2, and a batch that succeeded (its summary goes to standard error) exited 1. Now the
    messages go nowhere, as with ``2>&-``, and the exit code still tells."""
    page = tmp_path / "p.html"
    page.write_text("<form toolname=t tooldescription=d><input name=q required><button>Go</button></form>")
    fill = {"{page}": str(page)}
    runs = []
    for command, code in _STDERR_GONE_CASES:
        reading, writing = os.pipe()
        os.close(reading)
        process = subprocess.Popen(
            [sys.executable, "-m", "formtools", *[fill.get(arg, arg.replace("{dir}", str(tmp_path))) for arg in command]],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=writing,
        )
        os.close(writing)
        runs.append((command, code, process))
    assert [(command, process.wait(timeout=120)) for command, _, process in runs] == [(c, code) for c, code, _ in runs]


_HOLD_AN_ORACLE = """
import sys, time
from formtools._conformance.browser import ChromiumOracle
with ChromiumOracle():
    print("up", flush=True)
    try:
        time.sleep(float(sys.argv[1]))
    except KeyboardInterrupt:
        pass
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_profile_a_run_killed_outright_left_is_removed_by_the_next_run() -> None:
    """``kill -9`` (or the OOM killer) on a command running Chromium: no handler runs, Playwright's
    driver closes Chromium, and its profile stayed in the temporary directory for ever (168 such
    directories, 4 MB each, had piled up on this project's machine). The next oracle removes a
    profile whose processes are all gone, and leaves one in use by a live run alone."""
    import signal
    import time

    from formtools._conformance.browser import CHROMIUM

    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    # short: Chromium's singleton socket lives there, and a Unix socket's path has 107 bytes at most
    temporary = Path(tempfile.mkdtemp(prefix="ft-"))
    env = {**os.environ, "TMPDIR": str(temporary)}

    def hold(seconds: float) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-c", _HOLD_AN_ORACLE, str(seconds)],
            stdout=subprocess.PIPE, env=env, start_new_session=True,
        )

    holders, profiles = [], []
    try:
        for _ in range(2):  # one after the other, so that each one's profile is the new one
            holders.append(hold(600))
            assert holders[-1].stdout is not None and holders[-1].stdout.readline() == b"up\n"
            (new,) = set(temporary.glob("formtools-*")) - set(profiles)
            profiles.append(new)
        (killed, running), (killed_profile, running_profile) = holders, profiles
        killed.kill()
        killed.wait(60)
        # Playwright's driver closes the killed run's Chromium, whose process ends after it
        # removed its lock (and wrote the profile again after a next run had removed it)
        browser = int(os.readlink(killed_profile / "formtools-browser").rpartition("-")[2])
        deadline = time.monotonic() + 60  # a hang guard
        while _alive(browser):
            assert time.monotonic() < deadline, "the killed run's Chromium lives on"
            time.sleep(0.05)
        assert killed_profile.exists()  # what a run killed outright leaves
        holders.append(hold(0))  # the next run
        assert holders[-1].wait(120) == 0
        assert sorted(temporary.glob("formtools-*")) == [running_profile]
    finally:
        for holder in holders:
            if holder.poll() is None:
                holder.send_signal(signal.SIGINT)
            holder.wait(60)
            assert holder.stdout is not None
            holder.stdout.close()
        left = list(temporary.glob("formtools-*"))
        shutil.rmtree(temporary)  # (and Playwright's artifacts folder the killed run's driver left)
    assert left == []  # the live run then removed its own


@pytest.mark.parametrize(
    "command",
    [
        ["extract", str(SEARCH)],
        ["lint", str(SEARCH)],
        ["validate", str(SEARCH), "site_search", "--input", '{"q": "milk"}'],
        ["call", str(SEARCH), "site_search", "--input", '{"q": "milk"}', "--base-url", "https://shop.example/", "--dry-run"],
    ],
    ids=["extract", "lint", "validate", "call-dry-run"],
)
def test_a_command_that_sends_nothing_loads_no_network_stack(command: list[str]) -> None:
    """httpx (with trio where it is installed) is a third of a dry run's time: a command that
    sends nothing never imports it (the log filter that hides a call's secrets is put on the
    HTTP client's loggers by the first send)."""
    script = (
        "import sys, runpy; sys.argv = ['formtools', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('formtools', run_name='__main__')\n"
        "except SystemExit as end:\n    code = end.code\n"
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & {'httpx', 'httpcore', 'trio', 'anyio'}), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", script, *command], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == "0 []", done.stderr
    assert done.stdout.strip()
