"""The documentation runs: the site builds with warnings as errors (API reference from the
docstrings included), and every command and code example in it is executed.

Examples are fenced ``console`` (each ``$ formtools …`` line is run from the repository root and
must exit 0 or 1 — 1 is lint's and validate's "findings" — without a traceback) or ``python``
(run in a fresh namespace, from the repository root). Illustrations that need a remote host,
Spark or an installed package are fenced ``text`` and shown, not run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "conformance.md")
PAGES.append(ROOT / "README.md")
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def examples(kind: str) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for number, match in enumerate(_FENCE.finditer(page.read_text(encoding="utf-8"))):
            if match.group(1) == kind:
                found.append((f"{page.relative_to(ROOT)}#{number}", match.group(2)))
    return found


COMMANDS = [
    (f"{where}: {line[2:]}", line[2:])
    for where, block in examples("console")
    for line in block.splitlines()
    if line.startswith("$ formtools ")
]


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


@pytest.mark.parametrize("command", [c for _, c in COMMANDS], ids=[w for w, _ in COMMANDS])
def test_every_command_example_runs(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "formtools", *shlex.split(command)[1:]],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("code", [c for _, c in examples("python")], ids=[w for w, _ in examples("python")])
def test_every_python_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": "docs_example", "html": (ROOT / "fixtures/html/realistic-search.html").read_text()}
    exec(compile(code, "<docs example>", "exec"), namespace)


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
