"""Stage 4 — tool definition: what a form registers, as an immutable value.

The schema is frozen (read-only mappings and tuples) so a :class:`Tool` can be shared between
threads and cached by crawlers; :meth:`Tool.to_dict` gives a fresh, mutable copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from ._errors import UnknownFormat
from ._forms import Form

__all__ = ["PageContext", "Tool", "FORMATS", "freeze", "thaw"]

FORMATS = ("webmcp", "mcp")


def freeze(value: Any) -> Any:
    """A read-only copy of a JSON value (dicts → mappings, lists → tuples)."""
    if isinstance(value, (dict, MappingProxyType)):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable JSON value from a frozen one."""
    if isinstance(value, (dict, MappingProxyType)):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class PageContext:
    """What executing a tool needs to know about its page: the document URL (an empty action
    submits there), the base URL (relative actions resolve against it) and the encoding (the
    form's default charset)."""

    url: str | None = None
    base_url: str | None = None
    encoding: str = "UTF-8"


@dataclass(frozen=True)
class Tool:
    """A WebMCP tool synthesized from a form.

    ``input_schema`` and ``annotations`` are read-only JSON values in the profile's key order;
    ``form`` is the model the tool was built from (execution fills it), ``page`` where it lives.
    """

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    annotations: Mapping[str, Any]
    form: Form
    profile: str
    page: PageContext = PageContext()

    def to_dict(self, format: str = "webmcp") -> dict[str, Any]:
        """The tool as JSON-ready data.

        ``webmcp``: ``name, title, description, inputSchema, annotations``, as Chromium reports
        a declarative tool. ``mcp``: the entry of an MCP ``tools/list`` result (``title`` only
        when there is one).
        """
        if format == "webmcp":
            return {
                "name": self.name,
                "title": self.title,
                "description": self.description,
                "inputSchema": thaw(self.input_schema),
                "annotations": thaw(self.annotations),
            }
        if format == "mcp":
            entry: dict[str, Any] = {"name": self.name}
            if self.title:
                entry["title"] = self.title
            entry["description"] = self.description
            entry["inputSchema"] = thaw(self.input_schema)
            entry["annotations"] = thaw(self.annotations)
            return entry
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
