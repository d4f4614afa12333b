"""``formtools diff`` stopped by Ctrl-C or SIGTERM at each line of the browser's start-up after
Chromium is launched (:mod:`tests.support.command_interruptions`): one line, exit 130 or 143, no
traceback, no process left and no profile left in its temporary directory, as
docs/guide/cli.md promises for a Chromium-backed command.

A real signal lands while the oracle waits for Chromium nearly always; the line that left a
profile (the last of ``ChromiumOracle.__enter__``) was hit by 1 in 30 seeded lines of
formtools._conformance. Each run costs a Chromium, so the lines are shared between two parts."""

from __future__ import annotations

import inspect
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from formtools._conformance import browser
from tests.support.processes import left_after
from tests.test_mcp_bridge import ENV, ROOT

_PARTS = 2
_PAGE = "<form toolname=s tooldescription=d toolautosubmit><input name=q required><button>Go</button></form>"
_ENTER, _FIRST = inspect.getsourcelines(browser.ChromiumOracle.__enter__)
#: the lines of the oracle's start-up from Chromium's launch on
_AFTER_LAUNCH = range(_FIRST + next(i for i, text in enumerate(_ENTER) if "launch_persistent_context" in text), _FIRST + len(_ENTER))


def _run(page: Path, mode: str, record: Path, point: list[Any] | None = None) -> tuple[int, str, list[str], list[str]]:
    """``formtools diff page`` in a temporary directory of its own: its exit code, standard
    error, the processes of its session left running and what it left in the directory."""
    temporary = Path(tempfile.mkdtemp(prefix="ft-", dir="/tmp"))  # short: Chromium's socket path
    env = {**ENV, "PYTHONPATH": f"{ENV['PYTHONPATH']}{os.pathsep}{ROOT}", "TMPDIR": str(temporary), "FORMTOOLS_POINT": json.dumps(point)}
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.command_interruptions", mode, str(record), "--", "diff", str(page)],
            env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        _, err = process.communicate(timeout=120)
        left = left_after(process.pid, 5.0)
        return process.returncode, err.decode(), left, sorted(entry.name for entry in temporary.iterdir())
    finally:
        subprocess.run(["rm", "-rf", str(temporary)], check=False)


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[Any]]]:
    if not os.access(browser.CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser tests: no Chromium")
        pytest.skip("no Chromium")
    root = tmp_path_factory.mktemp("browser")
    page = root / "page.html"
    page.write_text(_PAGE)
    code, err, _, _ = _run(page, "lines", root / "lines.json")
    assert code == 0, err
    ran = json.loads((root / "lines.json").read_text())
    yield page, [entry for entry in ran if entry[0] == browser.__file__ and entry[1] in _AFTER_LAUNCH]


@pytest.mark.parametrize("part", range(_PARTS))
def test_a_signal_while_the_browser_starts_closes_it_and_removes_its_profile(
    started: tuple[Path, list[Any]], part: int, tmp_path: Path
) -> None:
    """Before, a signal at the oracle's ``return self`` (after its stack was handed over) reached
    no ``__exit__``: Chromium outlived the profile's removal and wrote it again, which stayed
    for ever, naming no owner for the next run to find."""
    page, lines = started
    assert len(lines) >= 5
    rng = random.Random(part)
    for filename, line, count in lines[part::_PARTS]:
        point = [filename, line, rng.randint(1, count), rng.choice(["SIGINT", "SIGTERM"])]
        code, err, left, files = _run(page, "interrupt", tmp_path / "sent", point)
        assert code in (130, 143), (point, code, err[-3000:])
        assert err.splitlines() == ["formtools: interrupted" if code == 130 else "formtools: terminated"], (point, err[-3000:])
        assert left == [] and files == [], (point, left, files)
