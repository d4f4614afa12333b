"""The documentation runs: the site builds with warnings as errors (API reference from the
docstrings included), and every command and code example in it is executed.

Examples are fenced ``console`` (each ``$ formtools …`` line is run from the repository root and
must exit 0 or 1 — 1 is lint's and validate's "findings" — without a traceback; the lines under
a command, when there are any, are its output, ``…`` standing for any text; ``page.html`` is the
page's ``html`` example above the command) or ``python`` (run in a fresh namespace, from the
repository root, and type-checked with ``mypy --strict`` as a user's code would be; one that
defines ``main(origin)`` is run against the test site, and a ``console`` block right after it
that runs nothing is its output). Illustrations that need a remote host, Spark or an installed
package are fenced ``text`` and shown, not run — those that are Python are type-checked too.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "conformance.md")
PAGES.append(ROOT / "README.md")
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Example:
    where: str
    kind: str
    code: str
    page_html: str | None  # the page's nearest ``html`` example above this one
    output: str | None  # a python example's: the console block right after it that runs nothing


def _all_examples() -> list[Example]:
    found: list[Example] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        fences = list(_FENCE.finditer(text))
        page_html = None
        for number, match in enumerate(fences):
            kind, code = match.group(1), match.group(2)
            following = fences[number + 1] if number + 1 < len(fences) else None
            output = None
            if kind == "python" and following is not None and following.group(1) == "console":
                if not any(line.startswith("$ ") for line in following.group(2).splitlines()):
                    output = following.group(2)
            found.append(Example(f"{page.relative_to(ROOT)}#{number}", kind, code, page_html, output))
            if kind == "html":
                page_html = code
    return found


EXAMPLES = _all_examples()


def examples(kind: str) -> list[tuple[str, str]]:
    return [(e.where, e.code) for e in EXAMPLES if e.kind == kind]


def _commands(example: Example) -> list[tuple[str, str, str | None]]:
    """``(command, expected output or None, page_html)`` of a console example; a line ending in
    a backslash goes on on the next one."""
    commands: list[tuple[str, list[str]]] = []
    continued = False
    for line in example.code.splitlines():
        if continued:
            commands[-1] = (commands[-1][0][:-1].rstrip() + " " + line.strip(), commands[-1][1])
        elif line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        continued = bool(commands) and commands[-1][0].endswith("\\") and not commands[-1][1]
    return [(c, "\n".join(out) if out else None, example.page_html) for c, out in commands]


COMMANDS = [
    (f"{e.where}: {command}", command, output, page_html)
    for e in EXAMPLES
    if e.kind == "console"
    for command, output, page_html in _commands(e)
    if command.startswith("formtools ")
]


def _matches(expected: str, actual: str) -> bool:
    """``actual`` is ``expected`` with each ``…`` standing for any text."""
    pattern = ".*?".join(re.escape(part) for part in expected.rstrip("\n").split("…"))
    return re.fullmatch(pattern, actual.rstrip("\n"), re.S) is not None


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    reference = (tmp_path / "site" / "reference" / "index.html").read_text()
    assert "extract_tools" in reference and "FormtoolsError" in reference


def test_there_are_examples() -> None:
    assert len(COMMANDS) >= 8 and len(examples("python")) >= 2


@pytest.mark.parametrize(("command", "output", "page_html"), [c[1:] for c in COMMANDS], ids=[c[0] for c in COMMANDS])
def test_every_command_example_runs(command: str, output: str | None, page_html: str | None, tmp_path: Path) -> None:
    arguments = shlex.split(command)[1:]
    if "page.html" in arguments:
        assert page_html is not None, "page.html names the page's html example above the command"
        (tmp_path / "page.html").write_text(page_html, encoding="utf-8")
        arguments = [str(tmp_path / "page.html") if a == "page.html" else a for a in arguments]
    done = subprocess.run(
        [sys.executable, "-m", "formtools", *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    if output is not None:  # what the page shows is what the command prints
        assert _matches(output, done.stdout + done.stderr), done.stdout + done.stderr


_PYTHON = [e for e in EXAMPLES if e.kind == "python"]


@pytest.mark.parametrize("example", _PYTHON, ids=[e.where for e in _PYTHON])
def test_every_python_example_runs(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": "docs_example", "html": (ROOT / "fixtures/html/realistic-search.html").read_text()}
    exec(compile(example.code, "<docs example>", "exec"), namespace)
    if example.output is None:
        return
    # an example that needs a site defines main(origin); its output is the block after it
    from support.site import TestSite
    from tests.conftest import run_async

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    printed = io.StringIO()
    with TestSite() as site, contextlib.redirect_stdout(printed):
        run_async(namespace["main"], site.origin)
    port = re.compile(r"127\.0\.0\.1:\d+")
    shown = port.sub("127.0.0.1:PORT", example.output)
    assert _matches(shown, port.sub("127.0.0.1:PORT", printed.getvalue())), printed.getvalue()


def test_the_readmes_python_tour_prepares_the_request_its_console_tour_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """README's two tours make the same call. The Python one read the page from its file without
    the address it came from, and printed ``GET file:///submit?q=milk&dept=all`` (the form's
    relative action joined with the file's own URL) where the console one's ``call … --dry-run``
    shows ``https://shop.example/submit?…``; the ``call_tool`` its comment says sends it refused
    that ``file:`` URL (``Refused``). What the Python tour prints must be the console tour's
    request."""
    readme = [example for example in EXAMPLES if example.where.startswith("README.md#")]
    tour = next(example for example in readme if example.kind == "python")
    command = next(c[1] for c in COMMANDS if c[0].startswith("README.md#") and " call " in c[1] and "--dry-run" in c[1])
    done = subprocess.run(
        [sys.executable, "-m", "formtools", *shlex.split(command)[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    request = json.loads(done.stdout)
    monkeypatch.chdir(ROOT)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tour.code, "<README tour>", "exec"), {"__name__": "docs_example"})
    assert printed.getvalue() == f"{request['method']} {request['url']}\n"


# what a text example that is Python takes as given; its functions may go unannotated (an
# inline setting of the file: the package is checked with the repository's own settings, so
# that the gate's mypy cache serves this run too)
_GIVEN = "# mypy: allow-untyped-defs\nfrom typing import Any\nhtml: str = ''\nspark: Any = None\n"


def test_python_examples_type_check(tmp_path: Path, mypy_cache: Path) -> None:
    """A user's code checked with ``mypy --strict`` must accept what the docs show: README's
    ``prepared.request.method`` (``request`` is ``None`` for a form that sends nothing) and the
    library guide's ``extract(...).tool(name)`` (``None`` for no such tool) passed as a ``Tool``
    were errors in every strict user's code. Functions may go unannotated (a Scrapy callback),
    their bodies are checked all the same."""
    files = []
    for number, example in enumerate(EXAMPLES):
        python_text = example.kind == "text" and re.match(r"(import|from) \w", example.code)
        if example.kind == "python" or python_text:
            path = tmp_path / f"example_{number}.py"
            path.write_text(_GIVEN + example.code, encoding="utf-8")
            files.append((path, example.where))
    assert len(files) >= 6
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--strict",
         "--cache-dir", str(mypy_cache), *(str(path) for path, _ in files)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "MYPYPATH": str(ROOT / "src")},
    )
    report = done.stdout
    for path, where in files:  # lines counted in the example, without the givens
        report = re.sub(
            rf"(?:\S*/)?{re.escape(path.name)}:(\d+)", lambda m: f"{where}:{int(m[1]) - _GIVEN.count(chr(10))}", report
        )
    assert done.returncode == 0, report


_REPO_PATH = re.compile(r"`((?:src|tests|scripts|benchmarks|fixtures)/[\w./-]+)`")
_SOURCE_PATH = re.compile(r"`(_[a-z]\w*(?:/\w+)*(?:\.py|/))`")  # `_execute/fill.py`, `_forms/values/`
_TEST_FILE = re.compile(r"`(test_\w+\.py)`")
_DOTTED = re.compile(r"`(formtools(?:\.\w+)+)")


def _resolves(dotted: str) -> bool:
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def test_the_sources_the_docs_name_exist() -> None:
    """The layout became packages (``_execute/fill.py``) while the guides still sent readers to
    ``_fill.py``, ``_fastparse.py``, ``src/formtools/_portable_profile.py`` and
    ``formtools._browser``: 25 names on three pages led nowhere. Every repository path, source
    module, test file and dotted ``formtools.…`` name the docs quote must exist (what a script
    generates into a git-ignored folder aside)."""
    source = ROOT / "src" / "formtools"
    generated = [line.strip() for line in (ROOT / ".gitignore").read_text().splitlines() if "/" in line]
    missing = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        where = page.relative_to(ROOT)
        missing += [f"{where}: {p}" for p in _REPO_PATH.findall(text) if not (ROOT / p).exists() and not p.startswith(tuple(generated))]
        missing += [f"{where}: {p}" for p in _SOURCE_PATH.findall(text) if not (source / p).exists()]
        missing += [f"{where}: {p}" for p in _TEST_FILE.findall(text) if not (ROOT / "tests" / p).exists()]
        missing += [f"{where}: {d}" for d in _DOTTED.findall(text) if not _resolves(d)]
    assert not missing, "\n".join(missing)
