"""The house rules of the layout: the curated public API, the pipeline's layers, custom profiles
that execute."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import formtools
from formtools._synth.chromium import CHROMIUM
from support.site import TestSite

ROOT = Path(__file__).resolve().parent.parent

PUBLIC_API = sorted(formtools.__all__)


@pytest.fixture(scope="module")
def site():
    with TestSite() as running:
        yield running


def test_public_api_is_pinned() -> None:
    """Adding or removing a public name is a decision, not an accident of an import."""
    assert PUBLIC_API == sorted(
        json.loads((ROOT / "tests" / "data" / "public-api.json").read_text(encoding="utf-8"))
    )
    for name in PUBLIC_API:
        assert getattr(formtools, name) is not None, name


def test_every_error_is_exported_and_in_the_tree() -> None:
    from formtools import errors

    for name in errors.__all__:
        value = getattr(errors, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, formtools.FormtoolsError)
            assert getattr(formtools, name) is value, f"formtools.{name} is not exported"


def test_layers_hold() -> None:
    """`lint-imports` checks the contract in pyproject.toml: a stage imports only stages below."""
    done = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 kept, 0 broken" in done.stdout


def test_mypy_strict_is_clean(mypy_cache: Path) -> None:
    """The code is typed: ``mypy --strict`` (configured in pyproject.toml) finds nothing."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(mypy_cache)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


def test_a_profile_made_with_extend_synthesizes_and_executes(site: TestSite) -> None:
    """A Tool carries its Profile, so a custom profile's tool can be called (not only listed)."""
    def shouting(group):  # a custom rule: every text parameter described in capitals
        fragment = CHROMIUM.fragments["text"](group)
        fragment["description"] = fragment.get("description", group.key).upper()
        return fragment

    custom = CHROMIUM.extend("shouting", fragments={"text": shouting})
    page = (
        '<form toolname="greet" tooldescription="Say hi" action="/submit" method="post">'
        '<label>Name <input name="who"></label><button>Go</button></form>'
    )
    url = site.put("greet", page.encode())
    (tool,) = formtools.synthesize(formtools.parse_html(page, url=url), custom).tools
    assert tool.profile is custom
    assert tool.input_schema["properties"]["who"]["description"] == "NAME"
    result = formtools.call_tool(tool, {"who": "Ada"}, confirm=True)
    assert result.status == "completed"
    assert result.status_code == 200
    (received,) = site.submissions()[-1:]
    assert received.body == b"who=Ada"


def test_unknown_profile_names_stay_an_error() -> None:
    with pytest.raises(formtools.UnknownProfile, match="unknown profile 'nope'"):
        formtools.get_profile("nope")
