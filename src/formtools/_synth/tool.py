"""Stage 4 — tool definition: what a form registers, as an immutable value.

The schema is frozen (read-only mappings and tuples) so a :class:`Tool` can be shared between
threads and cached by crawlers; :meth:`Tool.to_dict` gives a fresh, mutable copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from formtools.errors import UnknownFormat, UsageProblem, require
from formtools._forms.model import Form
from formtools._synth.profile import Profile

__all__ = ["FORMATS", "PageContext", "Tool", "fits_openai_strict", "freeze", "listing", "require_tool", "thaw"]

FORMATS = ("webmcp", "mcp", "openai", "evals")
# how an inferred tool (an unannotated form, --all-forms) is marked in webmcp and mcp output
INFERRED_ANNOTATION = "x-formtools-inferred"
INFERRED_META = "formtools/inferred"
#: MCP's own tool annotations; every other hint of a tool goes to ``_meta`` under HINTS_META.
MCP_ANNOTATIONS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
HINTS_META = "formtools/hints"
# the document a format's tools are written as: a bare array, or an object holding it under a key
_LISTING_KEYS: Mapping[str, str] = MappingProxyType({"evals": "tools"})  # webmcp-evals --tools=


# Values that are their own frozen and thawed copy, told apart by exact type first: schemas are
# mostly strings, and isinstance against a tuple of types costs more than the copy itself.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """A read-only copy of a JSON value (dicts → mappings, lists → tuples)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or kind is MappingProxyType or isinstance(value, (dict, MappingProxyType)):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if kind is list or kind is tuple or isinstance(value, (list, tuple)):
        return tuple([freeze(v) for v in value])
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable JSON value from a frozen one."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is MappingProxyType or kind is dict or isinstance(value, (dict, MappingProxyType)):
        return {k: thaw(v) for k, v in value.items()}
    if kind is tuple or isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def fits_openai_strict(schema: Mapping[str, Any]) -> bool:
    """Whether OpenAI's strict mode takes ``schema`` as it is: every object lists all its
    properties in ``required`` and says ``"additionalProperties": false``."""
    if schema.get("type") == "object":
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required", ())) != set(properties):
            return False
        if not all(fits_openai_strict(p) for p in properties.values()):
            return False
    items = schema.get("items")
    return not isinstance(items, Mapping) or fits_openai_strict(items)


@dataclass(frozen=True)
class PageContext:
    """What executing a tool needs to know about its page: the document URL (an empty action
    submits there), the base URL (relative actions resolve against it), the encoding (the
    form's default charset), the ``<base target>`` (a form's default target) and the names of
    its iframes (a ``target`` naming one navigates that frame, any other name a new window) and
    its ``<meta name=referrer>`` policy (which Referer and Origin a submission carries)."""

    url: str | None = None
    base_url: str | None = None
    encoding: str = "UTF-8"
    base_target: str | None = None
    frame_names: frozenset[str] = frozenset()
    referrer_policy: str | None = None
    #: its ``Content-Security-Policy`` sandboxes it without ``allow-forms``: no form submits
    forms_sandboxed: bool = False
    #: the ``form-action`` source lists of its enforced policies (header lines and ``<meta>``s
    #: in its head: ``formtools._spec.csp.form_action_lists``), each of which must allow an action
    form_action: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Tool:
    """A WebMCP tool synthesized from a form.

    ``input_schema`` and ``annotations`` are read-only JSON values in the profile's key order (a
    copy of the mappings it is made with);
    ``form`` is the model the tool was built from (execution fills it), ``page`` where it lives,
    ``profile`` the rules that made it (execution groups the form's controls by the same rules, so
    a profile made with :meth:`Profile.extend` executes too).
    ``inferred``: the form has no ``toolname``; formtools named and described it (``--all-forms``).
    ``repr()`` shows the tool as an agent sees it, and the profile's name: with the form model and
    the profile's rule functions a printed tool ran to thousands of characters of
    ``<function _text at 0x…>``.
    """

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    annotations: Mapping[str, Any]
    form: Form
    profile: Profile
    page: PageContext = PageContext()
    inferred: bool = False

    def __post_init__(self) -> None:
        """Keep read-only copies of the schema and annotations, whatever mapping they came as: a
        call keeps what it derives from a tool while the tool lives (its validator, see
        :mod:`formtools._spec.memo`), so a caller's dict changed after ``replace(tool,
        input_schema=d)`` validated by the old schema while ``to_dict`` showed the new one."""
        object.__setattr__(self, "input_schema", freeze(self.input_schema))
        object.__setattr__(self, "annotations", freeze(self.annotations))

    def __hash__(self) -> int:
        """Frozen, so hashable (a dict key, a set member, a ``functools.cache`` argument); the
        generated hash raised TypeError on the read-only schema. Equal tools hash alike."""
        return hash((self.name, self.description, self.form, self.page))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in (
                ("name", self.name), ("title", self.title), ("description", self.description),
                ("input_schema", thaw(self.input_schema)), ("annotations", thaw(self.annotations)),
                ("profile", self.profile.name), ("inferred", self.inferred),
            )
        )
        return f"Tool({shown})"

    def to_dict(self, format: str = "webmcp") -> dict[str, Any]:
        """The tool as JSON-ready data.

        ``webmcp``: ``name, title, description, inputSchema, annotations``, as Chromium reports
        a declarative tool. ``mcp``: the entry of an MCP ``tools/list`` result (``title`` only
        when there is one). ``openai``: a function tool of OpenAI's Responses API, ``strict``
        when the schema fits strict mode (see :func:`fits_openai_strict`; the ``portable``
        profile's schemas are the ones OpenAI accepts). ``evals``: an entry of the ``tools``
        array of a webmcp-evals (GoogleChromeLabs/webmcp-tools ``evals-cli``) tools file.

        An inferred tool says so in ``webmcp`` (``"x-formtools-inferred": true`` in
        ``annotations``) and ``mcp`` (``"_meta": {"formtools/inferred": true}``, MCP's place for
        extensions); ``openai`` and ``evals`` entries have fixed keys (OpenAI rejects others).
        An ``mcp`` entry's ``annotations`` hold MCP's four hints (:data:`MCP_ANNOTATIONS`), the
        rest (``autosubmit``, ``humanInTheLoopHint``, ``sensitiveHint`` …) is in
        ``_meta["formtools/hints"]``, as the MCP bridge lists them.
        """
        if format == "webmcp":
            annotations = thaw(self.annotations)
            if self.inferred:
                annotations[INFERRED_ANNOTATION] = True
            return {
                "name": self.name,
                "title": self.title,
                "description": self.description,
                "inputSchema": thaw(self.input_schema),
                "annotations": annotations,
            }
        if format == "mcp":
            entry: dict[str, Any] = {"name": self.name}
            if self.title:
                entry["title"] = self.title
            entry["description"] = self.description
            entry["inputSchema"] = thaw(self.input_schema)
            hints = thaw(self.annotations)
            entry["annotations"] = {key: hints.pop(key) for key in MCP_ANNOTATIONS if key in hints}
            meta: dict[str, Any] = {HINTS_META: hints} if hints else {}
            if self.inferred:
                meta[INFERRED_META] = True
            if meta:
                entry["_meta"] = meta
            return entry
        if format == "openai":
            return {
                "type": "function",
                "name": self.name,
                "description": self.description,
                "parameters": thaw(self.input_schema),
                "strict": fits_openai_strict(self.input_schema),
            }
        if format == "evals":
            return {
                "name": self.name,
                "description": self.description,
                "inputSchema": thaw(self.input_schema),
            }
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(FORMATS)})")


def require_tool(value: Any, taker: str) -> Tool:
    """``value`` if it is a :class:`Tool`: a tool's name or its ``to_dict()`` given to
    ``taker`` raised AttributeError (``'str' object has no attribute 'form'``) from deep
    inside."""
    return require(value, Tool, taker, "a formtools.Tool (one of extract_tools' tools)")


def listing(tools: Iterable[Tool], format: str = "webmcp") -> Any:
    """Several tools as one JSON document in ``format``: an array of :meth:`Tool.to_dict`
    entries, or for ``evals`` a whole tools file (``{"tools": [...]}``)."""
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Iterable):
        raise UsageProblem(f"listing takes formtools.Tools (extract_tools' answer), not a {type(tools).__name__}")
    entries = [require_tool(tool, "listing").to_dict(format) for tool in tools]
    key = _LISTING_KEYS.get(format)
    return entries if key is None else {key: entries}
