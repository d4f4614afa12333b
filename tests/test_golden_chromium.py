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


@pytest.mark.parametrize("page", [p for p in PAGES if p.stem not in UNSTABLE], ids=lambda p: p.stem)
def test_matches_chromium_byte_for_byte(page) -> None:
    expected = (EXPECTED / "chromium" / f"{page.stem}.json").read_text("utf-8")
    document = formtools.parse_html(page.read_bytes(), url="http://127.0.0.1/" + page.name)
    tools = formtools.extract_tools(document)
    actual = formtools.dumps([t.to_dict() for t in tools], pretty=True) + "\n"
    assert actual == expected
