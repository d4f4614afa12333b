"""The suite's processes start with SIGINT's default action however the run was started
(tests/conftest.py ``take_back_interrupts``)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import ENV, ROOT

_PROBE = '''
import signal, subprocess, sys

def test_sigint_is_pythons_own_here_and_default_in_what_it_starts():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    child = subprocess.run(
        [sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"],
        capture_output=True, text=True, timeout=60,
    )
    assert child.stdout == "True\\n", child
'''


def test_a_run_started_with_sigint_ignored_gives_its_processes_sigints_default(tmp_path: Path) -> None:
    """A background start (``pytest &`` from a script) ignored SIGINT in every process of the
    run: ``test_cli_conventions``' held browser, stopped with SIGINT, then slept on. The probe
    runs in an xdist worker of a run whose every process started with SIGINT ignored."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(_PROBE)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.conftest", "-o", "addopts=",
         "-q", "-n", "1", str(probe)],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
