"""Every fixture page against the tool list recorded from Chromium 156 (scripts/record_chromium.py)."""

from __future__ import annotations

import json

import pytest

import formtools
from tests.conftest import EXPECTED, FIXTURES

PAGES = sorted(FIXTURES.glob("*.html"))
UNSTABLE = {
    entry["page"]
    for entry in json.loads((EXPECTED / "chromium" / "UNSTABLE.json").read_text("utf-8"))
} if (EXPECTED / "chromium" / "UNSTABLE.json").exists() else set()


def test_every_fixture_has_a_recording() -> None:
    missing = [
        p.name for p in PAGES
        if p.stem not in UNSTABLE and not (EXPECTED / "chromium" / f"{p.stem}.json").exists()
    ]
    assert len(PAGES) >= 80
    assert not missing, f"run scripts/record_chromium.py for: {missing}"


@pytest.mark.spec_step(
    "synth-1.1", "synth-1.2", "synth-1.2.1", "synth-1.2.2", "synth-1.2.3", "synth-1.2.4",
    "synth-1.2.5", "synth-1.3", "synth-2.1", "synth-2.2", "synth-2.4", "synth-2.5", "synth-2.6",
    "synth-3.1", "synth-3.2", "synth-3.3", "synth-3.6", "synth-4.1", "synth-4.2", "synth-4.3",
    "synth-5.1", "synth-5.2", "synth-5.3", "synth-5.4", "synth-5.5", "synth-5.6", "synth-5.7",
    "synth-5.8", "synth-5.9", "synth-5.10", "synth-5.11", "synth-5.12", "synth-5.13", "synth-5.14",
    "synth-5.15", "synth-6.1",
)
@pytest.mark.parametrize("page", [p for p in PAGES if p.stem not in UNSTABLE], ids=lambda p: p.stem)
def test_matches_chromium_byte_for_byte(page) -> None:
    expected = (EXPECTED / "chromium" / f"{page.stem}.json").read_text("utf-8")
    document = formtools.parse_html(page.read_bytes(), url="http://127.0.0.1/" + page.name)
    tools = formtools.extract_tools(document)
    actual = formtools.dumps([t.to_dict() for t in tools], pretty=True) + "\n"
    assert actual == expected
