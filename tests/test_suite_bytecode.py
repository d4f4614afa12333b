"""The bytecode the suite writes for its subprocesses (tests/conftest.py) never runs stale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import compile_for_subprocesses


def test_an_edit_keeping_size_and_modification_time_runs_the_new_code(tmp_path: Path) -> None:
    """A one-character mutant written within the same second keeps a module's size and, to the
    second, its modification time: what a timestamp ``.pyc`` is checked against. Here the edit
    keeps both exactly, so only a check of the source itself notices it."""
    module = tmp_path / "mutated.py"
    module.write_text("ANSWER = 1\n")
    compile_for_subprocesses(tmp_path)
    stamp = module.stat()
    module.write_text("ANSWER = 2\n")
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    done = subprocess.run(
        [sys.executable, "-c", "import mutated; print(mutated.ANSWER)"],
        cwd=tmp_path, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert done.stdout == "2\n"
