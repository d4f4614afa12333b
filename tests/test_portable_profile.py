"""The ``portable`` profile and the ``openai`` / ``evals`` formats, without a browser.

The profile's promise has two halves, each checked on every fixture page and on generated pages:
its schemas use only the keywords every client accepts (valid JSON Schema 2020-12, and inside the
subset webmcp#289 proposes — its meta-schema, on a further large generated sample too), and they
are never stricter than the ``html`` schemas they come from — every sampled input that the
``html`` validator accepts passes the ``portable`` schema too.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import formtools
from formtools._spec.schema_subset import SUBSET_KEYWORDS, subset_violations
from formtools._synth.portable import ALLOWED_KEYWORDS, portable_fragment
from formtools.cli import app
from tests.conftest import FIXTURES
from tests.support.callgen import calls_for
from tests.support.formgen import generate_pages

GENERATED_PAGES = 40
SUBSET_SAMPLE = 600  # generated pages held to #289's meta-schema alone (about 1,000 tools)
MIN_HTML_VALID = 3000  # html-valid samples the superset check must have seen


def _pages() -> list[tuple[str, bytes]]:
    pages = [(path.stem, path.read_bytes()) for path in sorted(Path(FIXTURES).glob("*.html"))]
    pages += [(name, html.encode()) for name, html in generate_pages(GENERATED_PAGES, seed=11)]
    return pages


@functools.cache
def _tool_pairs() -> list[tuple[str, formtools.Tool, formtools.Tool]]:
    """(page, html tool, portable tool) for every tool of every page: made when a test first
    asks, not at import (every xdist worker imports every module to collect it, and making
    them there cost each worker 2.5 s of CPU)."""
    pairs = []
    for name, body in _pages():
        document = formtools.parse_html(body)
        portable = {t.name: t for t in formtools.synthesize(document, "portable").tools}
        pairs += [(name, tool, portable[tool.name]) for tool in formtools.synthesize(document, "html").tools]
    return pairs


def _keywords(schema: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (path, keyword) of a schema, descending into properties and items only."""
    assert isinstance(schema, dict), path
    for keyword, value in schema.items():
        yield path, keyword
        if keyword == "properties":
            for name, sub in value.items():
                yield from _keywords(sub, f"{path}/{name}")
        elif keyword == "items":
            yield from _keywords(value, f"{path}/items")


def test_pages_have_tools() -> None:
    assert len(_tool_pairs()) > 100


def test_only_portable_keywords() -> None:
    for page, _, tool in _tool_pairs():
        schema = tool.to_dict()["inputSchema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        for path, keyword in _keywords(schema):
            assert keyword in ALLOWED_KEYWORDS, f"{page} {tool.name}{path}: {keyword}"
            assert keyword != "additionalProperties" or path == "", f"{page} {tool.name}{path}"
        assert schema["additionalProperties"] is False, f"{page} {tool.name}"
        assert not subset_violations(schema), f"{page} {tool.name}: {subset_violations(schema)}"
        for name, prop in schema["properties"].items():
            enum = prop.get("enum") or prop.get("items", {}).get("enum")
            assert enum is None or len(enum) == len(set(map(json.dumps, enum))), f"{page} {tool.name} {name}"


def test_the_keywords_are_a_part_of_289s_allowlist() -> None:
    assert ALLOWED_KEYWORDS <= SUBSET_KEYWORDS, ALLOWED_KEYWORDS - SUBSET_KEYWORDS


def test_a_large_generated_sample_passes_289s_meta_validation() -> None:
    """Another seed and many more pages than the pairs above: every portable schema is a valid
    WebMCP input schema under #289 (a title, from toolparamtitle or aria-label, was not)."""
    tools = failing = 0
    found: list[str] = []
    for name, html in generate_pages(SUBSET_SAMPLE, seed=289):
        for tool in formtools.synthesize(formtools.parse_html(html.encode()), "portable").tools:
            tools += 1
            violations = subset_violations(tool.to_dict()["inputSchema"])
            failing += bool(violations)
            found += [f"{name} {tool.name} {v}" for v in violations]
    assert tools > 800
    assert not failing, "\n".join(found[:20])


def test_same_tools_and_required_as_html() -> None:
    for page, html, portable in _tool_pairs():
        html_schema, schema = html.to_dict()["inputSchema"], portable.to_dict()["inputSchema"]
        assert list(schema["properties"]) == list(html_schema["properties"]), page
        assert schema.get("required") == html_schema.get("required"), page
        assert (portable.description, portable.annotations) == (html.description, html.annotations)


def test_portable_accepts_every_input_html_accepts() -> None:
    """Samples from the html, portable and chromium schemas (tests/support/callgen.py): valid,
    boundary, invalid and random inputs. The portable schema is checked with formtools'
    validator, which is plain JSON Schema 2020-12 with ECMAScript patterns for a schema without
    x- keywords."""
    html_valid = portable_only = 0
    stricter: list[str] = []
    for page, html, portable in _tool_pairs():
        rng = random.Random(f"{page}/{html.name}")
        samples: dict[str, Any] = {}
        for source in (html, portable):
            for sample in calls_for(source.to_dict(), rng):
                samples.setdefault(json.dumps(sample, sort_keys=True), sample)
        for text, sample in samples.items():
            html_ok = not formtools.validate_input(html, sample)
            portable_problems = formtools.validate_input(portable, sample)
            html_valid += html_ok
            portable_only += not html_ok and not portable_problems
            if html_ok and portable_problems:
                stricter.append(f"{page} {html.name} {text}: {portable_problems}")
    assert not stricter, "\n".join(stricter[:20])
    assert html_valid >= MIN_HTML_VALID, html_valid
    assert portable_only > 0  # the loss is real: some constraints are only said in words


# ---- the rewrite, rule by rule -----------------------------------------------------------------


PAGE = """<!doctype html>
<form toolname="order" tooldescription="Order" action="/o">
  <label>Name <input name="name" required></label>
  <label>Code <input name="code" required pattern="[a-z]*"></label>
  <input type="email" name="mail" aria-label="Mail">
  <label>Note <input name="note" toolparamtitle="Gift note"></label>
  <input type="email" name="cc" multiple pattern=".+@x\\.org">
  <label>Weight <input type="number" name="kg" step="0.5" min="1"></label>
  <label>Pairs <input type="number" name="pairs" step="2" value="4"></label>
  <label>Odd <input type="number" name="odd" step="2" min="1"></label>
  <input type="time" name="at" step="900" min="09:00">
  <select name="size" required><option value="">Size…</option><option value="s">Small</option>
    <option value="l">Large</option></select>
  <select name="extras" multiple required><option>bread</option><option>wine</option></select>
  <input type="checkbox" name="terms" required>
  <input type="checkbox" name="diet" value="veg" required><input type="checkbox" name="diet" value="gf">
  <input name="city" list="cities"><datalist id="cities"><option value="Paris"></datalist>
  <button>Order</button>
</form>
"""


@pytest.fixture(scope="module")
def properties() -> dict[str, Any]:
    tool = formtools.extract(PAGE, profile="portable").tool("order")
    assert tool is not None
    return tool.to_dict()["inputSchema"]["properties"]


def test_rewrites(properties: dict[str, Any]) -> None:
    assert properties["name"] == {"type": "string", "pattern": "[\\s\\S]", "description": "Name"}
    # the pattern lets "" through, so "not empty" is said, not expressed
    assert properties["code"]["pattern"] == "^(?:[a-z]*)$"
    assert properties["code"]["description"] == "Code (not empty)"
    # the title (aria-label, toolparamtitle) is not in #289's subset: it leads the description
    assert properties["mail"] == {"type": "string", "description": "Mail (an e-mail address)"}
    assert properties["note"] == {"type": "string", "description": "Gift note: Note"}
    assert "comma-separated" in properties["cc"]["description"]
    assert "each address matches ^(?:.+@x\\.org)$" in properties["cc"]["description"]
    assert properties["kg"]["type"] == "number" and properties["kg"]["minimum"] == 1
    assert properties["kg"]["description"] == "Weight (1 plus a multiple of 0.5)"
    assert properties["pairs"]["type"] == "integer"
    assert properties["pairs"]["description"] == "Pairs (a multiple of 2; default 4)"
    assert properties["odd"]["description"] == "Odd (1 plus a multiple of 2)"
    at = properties["at"]["description"]
    assert at == "on or after 09:00; in steps of 900 seconds from 09:00"
    assert properties["size"] == {
        "type": "string",
        "enum": ["s", "l"],
        "description": "options: s = Small, l = Large",
    }
    assert properties["extras"]["items"] == {"type": "string", "enum": ["bread", "wine"]}
    assert properties["extras"]["description"] == "no duplicates; at least 1 item; default []"
    assert properties["terms"]["enum"] == [True]
    assert "must include veg" in properties["diet"]["description"]
    assert properties["city"]["description"] == "e.g. Paris"


def test_fragment_without_losses_is_unchanged() -> None:
    fragment = {"type": "integer", "minimum": 0, "maximum": 3, "description": "Count"}
    assert portable_fragment(fragment) == fragment


# ---- formats ----------------------------------------------------------------------------------


def test_openai_format() -> None:
    strict = formtools.extract(
        '<form toolname="s" tooldescription="Search"><input name="q" required></form>',
        profile="portable",
    ).tools[0]
    entry = strict.to_dict("openai")
    assert entry == {
        "type": "function",
        "name": "s",
        "description": "Search",
        "parameters": {
            "type": "object",
            "properties": {"q": {"type": "string", "pattern": "[\\s\\S]"}},
            "required": ["q"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    loose = formtools.extract(PAGE, profile="portable").tools[0].to_dict("openai")
    assert loose["strict"] is False  # optional parameters: strict mode needs every key required
    chromium = formtools.extract(PAGE).tools[0].to_dict("openai")
    assert chromium["strict"] is False  # no additionalProperties: false


def test_evals_format() -> None:
    tool = formtools.extract(PAGE, profile="portable").tools[0]
    assert tool.to_dict("evals") == {
        "name": "order",
        "description": "Order",
        "inputSchema": tool.to_dict()["inputSchema"],
    }
    assert formtools.listing([tool], "evals") == {"tools": [tool.to_dict("evals")]}
    assert formtools.listing([tool], "openai") == [tool.to_dict("openai")]


@pytest.mark.parametrize("format", ["openai", "evals"])
def test_cli_formats(tmp_path: Path, format: str) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    result = CliRunner().invoke(
        app, ["extract", str(page), "--profile", "portable", "--format", format]
    )
    assert result.exit_code == 0, result.output
    tools = formtools.extract(PAGE, profile="portable").tools
    assert json.loads(result.output) == formtools.listing(tools, format)


def test_profile_and_formats_are_listed() -> None:
    assert "portable" in formtools.profile_names()
    assert {"openai", "evals"} <= set(formtools.FORMATS)
