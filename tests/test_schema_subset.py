"""The #289 subset meta-schema (``src/formtools/_spec/webmcp_input_schema_subset.json``) says
what the pull request's checklist says: the allowlisted keywords pass with values of their Draft
2020-12 shape, the keywords it excludes by name — and any other — are refused, and
``additionalProperties`` passes only as ``false``; violations name the keyword and its place."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from formtools._spec.schema_subset import (
    SUBSET_KEYWORDS,
    Violation,
    meta_schema,
    subset_violations,
)

# The pull request's checklist, as written there ("Subset: …").
ALLOWLIST = {
    "type", "properties", "required", "enum", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "pattern", "items", "prefixItems",
    "additionalProperties", "default", "description",
}
# Its exclusions named with a rationale, and keywords formtools' profiles or Chromium use.
REFUSED = [
    ("$ref", "#/$defs/a"), ("$defs", {}), ("unevaluatedProperties", False), ("format", "date"),
    ("contentEncoding", "base64"), ("contentMediaType", "text/plain"),
    ("dependentRequired", {}), ("dependentSchemas", {}), ("title", "A title"), ("const", 1),
    ("anyOf", [{"const": 1}]), ("allOf", []), ("multipleOf", 1), ("minItems", 1),
    ("uniqueItems", True), ("examples", ["x"]), ("writeOnly", True), ("x-formtools-step", "1"),
]


def _with(keyword: str, value: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"p": {"type": "string", keyword: value}}}


def test_the_meta_schema_is_draft_2020_12_and_lists_the_allowlist() -> None:
    jsonschema.Draft202012Validator.check_schema(meta_schema())
    assert SUBSET_KEYWORDS == ALLOWLIST
    rules = meta_schema()["$defs"]["schema"]["properties"]
    assert all("#289 allowlist" in rule["$comment"] for rule in rules.values())


def test_every_allowlisted_keyword_passes() -> None:
    schema = {
        "type": "object",
        "description": "d",
        "additionalProperties": False,
        "required": ["s"],
        "properties": {
            "s": {"type": ["string", "null"], "minLength": 1, "maxLength": 9, "pattern": "^a",
                  "enum": ["a", None], "default": "a"},
            "n": {"type": "number", "minimum": 0, "maximum": 9, "exclusiveMinimum": -1,
                  "exclusiveMaximum": 10},
            "a": {"type": "array", "items": {"type": "integer"}, "prefixItems": [{"type": "integer"}]},
        },
    }
    assert subset_violations(schema) == ()


@pytest.mark.parametrize(("keyword", "value"), REFUSED, ids=[k for k, _ in REFUSED])
def test_a_keyword_outside_the_allowlist_is_refused_where_it_is(keyword: str, value: Any) -> None:
    assert subset_violations(_with(keyword, value)) == (
        Violation("/properties/p", keyword, True, f"{keyword} is not in the subset"),
    )


@pytest.mark.parametrize(
    ("schema", "place"),
    [
        ({"type": "object", "additionalProperties": True}, ("", "additionalProperties")),
        ({"type": "object", "additionalProperties": {}}, ("", "additionalProperties")),
        (_with("minLength", -1), ("/properties/p", "minLength")),
        (_with("pattern", 3), ("/properties/p", "pattern")),
        ({"required": [1]}, ("", "required")),
        ({"type": "date"}, ("", "type")),
        ({"properties": {"a": {"type": "array", "items": {"maxLength": 1.5}}}},
         ("/properties/a/items", "maxLength")),
    ],
)
def test_an_allowed_keyword_with_a_refused_value(schema: Any, place: tuple[str, str]) -> None:
    [violation] = subset_violations(schema)
    assert (violation.pointer, violation.keyword, violation.outside) == (*place, False)
    assert str(violation).startswith(f"{place[0] or '/'}: {place[1]}: ")
