"""The JSON Schema subset that webmcp#289 proposes for tool input schemas, and where a schema
leaves it.

The subset is the spec discussion's, not formtools': it lives as data, a Draft 2020-12
meta-schema (``webmcp_input_schema_subset.json`` beside this module) whose every rule cites the
pull request's allowlist and the JSON Schema section that shapes the keyword's value, so that
another implementation can reuse the file as it is. This module only runs it and turns the
validator's errors into answers a report can count: which keyword, at which place of the schema.

Two users: the ``portable`` profile promises to stay inside the subset (its tests hold every
fixture and generated page to it), and the conformance report counts how many of Chromium's
schemas a browser implementing #289 would refuse at ``registerTool()``, and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema

__all__ = ["SUBSET_KEYWORDS", "SUBSET_SOURCE", "Violation", "meta_schema", "subset_violations"]

#: Where the subset comes from: the pull request whose checklist lists the allowed keywords.
SUBSET_SOURCE = "https://github.com/webmachinelearning/webmcp/pull/289"

_FILE = "webmcp_input_schema_subset.json"
_SUBSCHEMA_MAPS = frozenset({"properties"})  # keyword → {name: schema}
_SUBSCHEMA_LISTS = frozenset({"prefixItems"})  # keyword → [schema, …]
_SUBSCHEMAS = frozenset({"items"})  # keyword → schema


@cache
def meta_schema() -> dict[str, Any]:
    """The meta-schema, as shipped with the package."""
    loaded: dict[str, Any] = json.loads(files(__package__).joinpath(_FILE).read_text("utf-8"))
    return loaded


@cache
def _validator() -> Any:
    return jsonschema.Draft202012Validator(meta_schema())


def _allowed() -> frozenset[str]:
    return frozenset(meta_schema()["$defs"]["schema"]["properties"])


#: The keywords the subset allows (``additionalProperties`` only as ``false``).
SUBSET_KEYWORDS = _allowed()


@dataclass(frozen=True, order=True)
class Violation:
    """One way a schema leaves the subset: ``keyword`` at ``pointer`` (a JSON Pointer to the
    schema object that holds it: ``""`` is the root, ``/properties/when`` a parameter).
    ``outside`` is True for a keyword the subset does not allow at all, False for an allowed
    keyword whose value it refuses (``additionalProperties: true``)."""

    pointer: str
    keyword: str
    outside: bool
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"


def subset_violations(schema: Any) -> tuple[Violation, ...]:
    """Every place ``schema`` leaves the #289 subset, sorted by place; empty when it is a
    valid WebMCP input schema under the subset."""
    found: list[Violation] = []
    allowed = SUBSET_KEYWORDS
    for error in _validator().iter_errors(schema):
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            pointer = _pointer(path)
            found += [
                Violation(pointer, key, True, f"{key} is not in the subset")
                for key in error.instance
                if key not in allowed
            ]
            continue
        holder, keyword = _keyword_of(path)
        found.append(Violation(_pointer(holder), keyword, False, f"{keyword}: {error.message}"))
    return tuple(sorted(set(found)))


def _keyword_of(path: list[Any]) -> tuple[list[Any], str]:
    """The schema keyword whose value holds the error at ``path``, and the path of the schema
    object holding that keyword; a path walks schema → keyword → (name | index) → schema…"""
    holder: list[Any] = []
    keyword = ""
    index = 0
    while index < len(path):
        keyword = str(path[index])
        step = 2 if keyword in _SUBSCHEMA_MAPS | _SUBSCHEMA_LISTS else 1 if keyword in _SUBSCHEMAS else 0
        if not step or index + step >= len(path):
            break
        index += step
        holder = path[:index]
    return holder, keyword or "(schema)"


def _pointer(path: list[Any]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
