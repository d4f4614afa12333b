from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "html"
EXPECTED = ROOT / "fixtures" / "expected"


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
