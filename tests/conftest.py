from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "html"
EXPECTED = ROOT / "fixtures" / "expected"

#: Seconds each test file took in a whole run (its tests' setup, call and teardown), recorded by
#: ``python -m pytest --record-file-seconds tests/data/file_seconds.json``.
FILE_SECONDS = ROOT / "tests" / "data" / "file_seconds.json"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-file-seconds",
        metavar="PATH",
        help="write each test file's seconds (setup, call, teardown summed) to PATH as JSON, "
        "for the workers' longest-file-first order (tests/data/file_seconds.json)",
    )


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under ``--dist loadfile``, hand out the files longest first (by :data:`FILE_SECONDS`).

    xdist hands them out by number of tests, so a long file of few tests (the WPT export, the
    interrupt drivers, the architecture gate's mypy) came last and ran alone while the other
    worker sat idle. Longest first (the classic list-scheduling rule) leaves the short files to
    fill the end. A file the table lacks comes after those it has, in xdist's own order; a
    stale table costs only balance, never a test.
    """
    from xdist.scheduler import LoadFileScheduling

    if config.getoption("dist") != "loadfile":
        return None
    seconds: dict[str, float] = json.loads(FILE_SECONDS.read_text("utf-8")) if FILE_SECONDS.exists() else {}

    class LongestFileFirst(LoadFileScheduling):
        ordered = False

        def _assign_work_unit(self, node: object) -> None:
            # the first assignment follows the building of the work queue (one unit per file);
            # xdist's own internals, so an xdist that keeps them otherwise keeps its own order
            queue = getattr(self, "workqueue", None)
            if not self.ordered and isinstance(queue, dict):
                units = sorted(queue.items(), key=lambda unit: -seconds.get(unit[0], 0.0))
                queue.clear()
                queue.update(units)
            self.ordered = True
            super()._assign_work_unit(node)

    return LongestFileFirst(config, log)


_file_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up each file's seconds for ``--record-file-seconds`` (the reports of every worker
    reach the controller)."""
    file = report.nodeid.split("::", 1)[0]
    _file_seconds[file] = _file_seconds.get(file, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the seconds ``--record-file-seconds`` asked for, slowest file first."""
    path = session.config.getoption("record_file_seconds")
    if path and not hasattr(session.config, "workerinput"):  # the controller, or -n0
        ranked = sorted(_file_seconds.items(), key=lambda item: -item[1])
        Path(path).write_text(json.dumps({file: round(s, 1) for file, s in ranked}, indent=1) + "\n", "utf-8")


@pytest.fixture(scope="session")
def chromium() -> Iterator["ChromiumOracle"]:  # noqa: F821
    """One headless Chromium for the whole session; under CI a missing browser fails the run."""
    from formtools._conformance.browser import BrowserUnavailable, ChromiumOracle

    manager = ChromiumOracle()
    try:
        running = manager.__enter__()
    except BrowserUnavailable as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests: {error}")
        pytest.skip(str(error))
    try:
        yield running
    finally:
        manager.__exit__(None, None, None)


def run_async(main, *args):
    """Run an async ``main(*args)`` to completion in a thread of its own.

    The browser tests' Playwright keeps an asyncio loop running in the main thread for the whole
    session, so ``asyncio.run`` / ``anyio.run`` cannot be called there once they have started.
    """
    import concurrent.futures

    import anyio

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, main, *args).result()
