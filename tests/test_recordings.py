"""Recordings carry the browser they come from, and are not mixed with another's.

``fixtures/expected/BROWSER.json`` names the Chromium build and flags every expectation under
``fixtures/expected`` was recorded with; the recording scripts write it and refuse to record with
another browser (``scripts/_recording.py``, ``stamped``). The per-page golden files of
``chromium/`` and ``chromium-calls/`` are stamped by it as a whole; every other recording
(``results.json``, ``regex-v-flag.json``, ``value-rules.json``, ``validation-messages.json``, and
``tests/data/url/chromium-departures.json``) also carries the same stamp itself, as ``"browser"``.
``html/`` and ``portable/`` are formtools' own outputs (``scripts/make_report.py``), not
recordings. A file that fits none of these fails the test below.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import EXPECTED, ROOT

STAMP = json.loads((EXPECTED / "BROWSER.json").read_text(encoding="utf-8"))


def test_the_stamp_names_chromium_156_with_webmcp() -> None:
    assert STAMP["product"].startswith("Chrome/156.")
    assert "--enable-features=WebMCP,WebMCPTesting,DeclarativeWebmcp" in STAMP["flags"]


#: directories of per-page golden files, stamped as a whole by BROWSER.json: the script that
#: records each (it must call ``stamped``)
STAMPED_DIRECTORIES = {
    "chromium": "record_chromium.py",
    "chromium-calls": "record_chromium_calls.py",
}
#: formtools' own outputs, kept beside the recordings for other implementations (not recorded)
FORMTOOLS_OUTPUTS = {"html", "portable"}
#: recordings kept outside fixtures/expected
ELSEWHERE = [ROOT / "tests" / "data" / "url" / "chromium-departures.json"]


def _unstamped(path: Path) -> str | None:
    """Why ``path`` is not a recording stamped as BROWSER.json says, or None."""
    relative = path.relative_to(EXPECTED) if path.is_relative_to(EXPECTED) else path
    parts = relative.parts
    if path.is_relative_to(EXPECTED) and len(parts) > 1:
        if parts[0] in FORMTOOLS_OUTPUTS and len(parts) == 2 and path.suffix == ".json":
            return None
        script = STAMPED_DIRECTORIES.get(parts[0])
        if script is None or len(parts) != 2 or path.suffix != ".json":
            return f"{relative}: no stamp covers this directory"
        source = (ROOT / "scripts" / script).read_text(encoding="utf-8")
        if "stamped(oracle)" not in source:
            return f"{relative}: scripts/{script} does not record through stamped()"
        return None
    if path == EXPECTED / "BROWSER.json":
        return None
    try:
        recording = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        return f"{relative}: not JSON ({error})"
    if not isinstance(recording, dict) or "browser" not in recording:
        return f"{relative}: no \"browser\" stamp"
    if recording["browser"] != STAMP:
        return f"{relative}: stamped {recording['browser']}, not BROWSER.json's {STAMP}"
    return None


def test_every_recording_carries_the_stamp() -> None:
    files = sorted(path for path in EXPECTED.rglob("*") if path.is_file()) + ELSEWHERE
    assert len(files) > 300
    unstamped = [reason for path in files if (reason := _unstamped(path)) is not None]
    assert unstamped == []


def test_an_unstamped_recording_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a bare list, a stamp of other flags, an unknown directory."""
    bare = tmp_path / "bare.json"
    bare.write_text("[]", encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"browser": {**STAMP, "flags": []}, "rows": []}), encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"browser": STAMP, "rows": []}), encoding="utf-8")
    (tmp_path / "new-dir").mkdir()
    (tmp_path / "new-dir" / "page.json").write_text("[]", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "EXPECTED", tmp_path)
    assert "no \"browser\" stamp" in str(_unstamped(bare))
    assert "not BROWSER.json's" in str(_unstamped(other))
    assert _unstamped(good) is None
    assert "no stamp covers" in str(_unstamped(tmp_path / "new-dir" / "page.json"))


@pytest.mark.browser
def test_the_installed_browser_is_the_stamped_major_version(chromium) -> None:
    """Live comparisons are only meaningful against the browser the goldens come from."""
    live = chromium.stamp
    assert live["flags"] == STAMP["flags"]
    assert live["product"].split(".")[0] == STAMP["product"].split(".")[0]
