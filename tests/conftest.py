from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "html"
EXPECTED = ROOT / "fixtures" / "expected"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
