from __future__ import annotations

import compileall
import fcntl
import os
import py_compile
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "html"
EXPECTED = ROOT / "fixtures" / "expected"
#: The environment of the formtools commands tests start: this checkout's formtools, whatever is
#: installed; one dict for every module, so that they share a fork server (tests/support/forkserve.py).
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


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


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package and the tests' support modules to bytecode once, before xdist's
    workers start. The suite starts hundreds of Python subprocesses (``python -m formtools``,
    the interrupt drivers, the fork servers), and where ``PYTHONDONTWRITEBYTECODE`` is set, as
    on this project's machines and CI, no import ever writes ``__pycache__``: each subprocess
    compiled formtools from source again (13 % of the CLI and bridge files' CPU). ``compileall``
    writes regardless. The ``.pyc`` files are checked against their source's hash at every
    import, not its modification time and size: an edit within the same second that keeps the
    size (a one-character mutant) would otherwise run the old bytecode. Compiling everything
    afresh costs about 0.5 s of CPU a run."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # the controller, or a run without xdist
        for folder in (ROOT / "src", ROOT / "tests" / "support"):
            compile_for_subprocesses(folder)
    take_back_interrupts()


def take_back_interrupts() -> None:
    """A run started in the background of a shell without job control (``pytest &`` in a
    script, some CI runners) inherits SIGINT ignored, xdist's workers and every process a test
    starts with it: a test that stops its command or a held browser with SIGINT then waited
    for ever. The run takes Python's own handler back, as an interactive start has it, so the
    processes it starts begin with SIGINT's default action."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def compile_for_subprocesses(folder: Path) -> None:
    """Write the bytecode of every module under ``folder``, checked by source hash (see
    :func:`pytest_configure`)."""
    compileall.compile_dir(folder, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``one_worker`` go first, in their order. ``--dist worksteal`` hands the
    first worker the first half of the tests and lets the other steal only from the end of a
    queue, so tests at the front all run on the first worker, and a module fixture they share
    (a Spark session: a JVM, some 20 s of CPU) is set up once, not on both workers."""
    items.sort(key=lambda item: item.get_closest_marker("one_worker") is None)  # (a stable sort)


def _run_folder(factory: pytest.TempPathFactory) -> Path | None:
    """The temporary folder of the whole run that every xdist worker shares (each worker's
    basetemp is in it); None without xdist, where this process is the whole run."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return None
    return factory.getbasetemp().parent


def made_once_per_run(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder ``make`` fills, made once for the whole run and read by every xdist worker.

    Workers steal tests from each other (``--dist worksteal``), so a module's tests can run on
    both workers and a costly module fixture would be made twice; the folder goes in the run's
    temporary folder that all workers share, made by the first worker to ask, under a lock.
    """
    shared = _run_folder(factory)
    if shared is None:
        folder = factory.mktemp(name)
        make(folder)
        return folder
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / f"{name}.done").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed left
            folder.mkdir()
            make(folder)
            (shared / f"{name}.done").touch()
    return folder


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mypy's cache for this run, shared by its workers: the gate (``mypy --strict`` over the
    package) and the docs' examples (which import the package) check formtools once between
    them, not twice (18 s of CPU each). A cache new with the run holds nothing stale; mypy writes
    its entries atomically, so two workers may use it at once."""
    shared = _run_folder(tmp_path_factory)
    if shared is None:
        return tmp_path_factory.mktemp("mypy-cache")
    folder = shared / "mypy-cache"
    folder.mkdir(exist_ok=True)
    return folder


def run_async(main, *args):
    """Run an async ``main(*args)`` to completion in a thread of its own.

    The browser tests' Playwright keeps an asyncio loop running in the main thread for the whole
    session, so ``asyncio.run`` / ``anyio.run`` cannot be called there once they have started.
    """
    import concurrent.futures

    import anyio

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, main, *args).result()
