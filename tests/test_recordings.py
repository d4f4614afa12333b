"""Recordings carry the browser they come from, and are not mixed with another's.

``fixtures/expected/BROWSER.json`` names the Chromium build and flags every expectation under
``fixtures/expected`` was recorded with; the recording scripts write it and refuse to record with
another browser (``scripts/_recording.py``, ``stamped``). ``results.json`` carries the same stamp
itself.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXPECTED

STAMP = json.loads((EXPECTED / "BROWSER.json").read_text(encoding="utf-8"))


def test_the_stamp_names_chromium_156_with_webmcp() -> None:
    assert STAMP["product"].startswith("Chrome/156.")
    assert "--enable-features=WebMCP,WebMCPTesting,DeclarativeWebmcp" in STAMP["flags"]


def test_stamped_files_agree_with_the_stamp() -> None:
    assert json.loads((EXPECTED / "results.json").read_text(encoding="utf-8"))["browser"] == STAMP


@pytest.mark.browser
def test_the_installed_browser_is_the_stamped_major_version(chromium) -> None:
    """Live comparisons are only meaningful against the browser the goldens come from."""
    live = chromium.stamp
    assert live["flags"] == STAMP["flags"]
    assert live["product"].split(".")[0] == STAMP["product"].split(".")[0]
