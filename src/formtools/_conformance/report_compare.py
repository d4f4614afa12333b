"""The conformance report's comparison of pages: Chromium's tools next to the ``html`` profile's,
every difference found and explained (and the ``portable`` profile's tools, which the report holds
to webmcp#289's subset).

Chromium's side is the recording in the fixtures layout (``…/html/<page>.html`` →
``…/expected/chromium/<page>.json``) when the page has one, else formtools' ``chromium`` profile,
which the test suite holds to the recordings byte for byte. A tool is diffed in three parts: its
own keys (``title``, ``annotations``…), its ``inputSchema`` outside ``properties`` (an
``inputSchema.required`` member is charged to the parameter it names) and each parameter's
schema, so that every difference belongs to a tool and, where it can, a parameter — the context
a rule of :data:`._report.RULES` needs to explain it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lxml import etree

from formtools.errors import SourceError, shown_argument
from formtools._spec.jsjson import dumps
from formtools._parse.document import Document
from formtools._conformance.report import Context, explain
from formtools._conformance.report_diff import ABSENT, Absent, Difference, changes
from formtools._parse import parse_html
from formtools._parse.sources import read_page
from formtools._spec.scheme import is_url
from formtools._synth.parameters import parameters_of
from formtools._synth.synthesize import synthesize
from formtools._synth.tool import Tool, freeze

__all__ = [
    "PageComparison",
    "Report",
    "compare_page",
    "page_sources",
    "properties_of",
    "recording_of",
    "without_properties",
]

_RECORDINGS = Path("expected", "chromium")  # beside html/ in the fixtures layout
_SHOWN = 4096  # a page up to this many bytes is kept as text: the report shows it as an example


@dataclass(frozen=True)
class PageComparison:
    """One page's tools under Chromium and under the ``html`` profile, and their differences.

    ``recording`` names the Chromium recording the ``chromium`` side comes from, or is None when
    formtools' ``chromium`` profile computed it (the page has no recording). Tool lists are
    frozen JSON values (``to_dict()`` shape). ``size`` is the page's length in bytes, and
    ``markup`` its text when it is small enough to show whole (None otherwise): the report shows
    the smallest page that raises each question.
    """

    label: str
    construct: str
    explanation: str | None
    recording: str | None
    chromium: tuple[Mapping[str, Any], ...]
    html: tuple[Mapping[str, Any], ...]
    differences: tuple[Difference, ...]
    parameters: tuple[tuple[str, str], ...]  # (tool, parameter) on either side
    portable: tuple[Mapping[str, Any], ...] = ()
    size: int = 0
    markup: str | None = None

    @property
    def unexplained(self) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if d.rule is None)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """Every tool either side registers: Chromium's order, then the html profile's others."""
        return tuple(dict.fromkeys(tool["name"] for tool in (*self.chromium, *self.html)))

    @property
    def differing(self) -> frozenset[tuple[str, str]]:
        """The (tool, parameter) pairs with at least one difference."""
        return frozenset((d.tool, d.parameter) for d in self.differences if d.parameter is not None)

    def sides(self) -> Iterator[tuple[str, Mapping[str, Any] | Absent, Mapping[str, Any] | Absent]]:
        """(name, Chromium's tool, the html profile's tool) for each of :attr:`tool_names`;
        ``ABSENT`` where a side does not register it."""
        chromium = {tool["name"]: tool for tool in self.chromium}
        html = {tool["name"]: tool for tool in self.html}
        for name in self.tool_names:
            yield name, chromium.get(name, ABSENT), html.get(name, ABSENT)


@dataclass(frozen=True)
class Report:
    """The comparison of several pages, and the counts a summary needs."""

    pages: tuple[PageComparison, ...]

    @property
    def differences(self) -> tuple[Difference, ...]:
        return tuple(d for page in self.pages for d in page.differences)

    @property
    def unexplained(self) -> tuple[tuple[PageComparison, Difference], ...]:
        return tuple((page, d) for page in self.pages for d in page.unexplained)


def recording_of(page: Path) -> Path | None:
    """The Chromium recording of a page kept in the fixtures layout
    (``ROOT/html/<page>.html`` → ``ROOT/expected/chromium/<page>.json``), if there is one."""
    if page.parent.name != "html":
        return None
    candidate = page.parent.parent / _RECORDINGS / f"{page.stem}.json"
    return candidate if candidate.is_file() else None


def page_sources(sources: Sequence[str]) -> list[str]:
    """The pages a ``report`` command line names: files and URLs as given, directories
    replaced by their ``*.html`` files (sorted)."""
    pages: list[str] = []
    for source in sources:
        path = Path(source)
        if not is_url(source) and path.is_dir():
            found = sorted(path.glob("*.html"))
            if not found:
                raise SourceError(f"{shown_argument(source)}: no .html pages in this directory")
            pages += [str(page) for page in found]
        else:
            pages.append(source)
    return pages


def compare_page(
    source: str, *, label: str | None = None, base_url: str | None = None
) -> PageComparison:
    """Compare Chromium's tools for the page at ``source`` (a path or an http(s) URL) with the
    ``html`` profile's. ``label`` is how the report names the page (default: the page's own
    label, ``source`` — a URL without its user name and password); ``base_url`` the document
    URL of a file."""
    raw = read_page(source, base_url=base_url)
    label = label or raw.label
    document = parse_html(raw.body, url=raw.url, content_type=raw.content_type, source=raw.label)
    recorded = None if is_url(source) else recording_of(Path(source))
    if recorded is None:
        chromium = freeze([tool.to_dict() for tool in synthesize(document, "chromium").tools])
        recording = None
    else:
        chromium = freeze(_read_recording(recorded))
        recording = (Path(label).parent.parent / _RECORDINGS / recorded.name).as_posix()
    html_tools = synthesize(document, "html").tools
    differences, parameters = _page_differences(chromium, html_tools)
    construct, explanation = _construct(document)
    return PageComparison(
        label=label,
        construct=construct or Path(label).stem,
        explanation=explanation,
        recording=recording,
        chromium=chromium,
        html=tuple(_definition(tool) for tool in html_tools),
        differences=tuple(differences),
        parameters=tuple(parameters),
        portable=tuple(_definition(tool) for tool in synthesize(document, "portable").tools),
        size=len(raw.body),
        markup=_shown(raw.body, document.encoding),
    )


def properties_of(tool: Mapping[str, Any] | Absent) -> Mapping[str, Any]:
    """A tool's parameter schemas by name (none for a tool a side does not register)."""
    return tool["inputSchema"].get("properties", {}) if isinstance(tool, Mapping) else {}


def without_properties(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An input schema without its parameters: what it says of the input as a whole."""
    return {k: v for k, v in schema.items() if k != "properties"}


def _definition(tool: Tool) -> Mapping[str, Any]:
    """The tool as ``formtools extract`` prints it, frozen."""
    frozen: Mapping[str, Any] = freeze(tool.to_dict())
    return frozen


def _shown(body: bytes, encoding: str) -> str | None:
    """The page as text, when it is small enough to be an example."""
    if len(body) > _SHOWN:
        return None
    try:
        text = body.decode(encoding, errors="replace")
    except LookupError:  # a WHATWG label Python lacks (x-user-defined): shown as UTF-8
        text = body.decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff")  # a byte order mark is not part of the markup


def _read_recording(path: Path) -> list[Any]:
    try:
        tools = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise SourceError(f"{path}: not a readable recording: {error}") from None
    if not isinstance(tools, list):
        raise SourceError(f"{path}: not a recording (expected a JSON array of tools)")
    return tools


def _construct(document: Document) -> tuple[str | None, str | None]:
    """What the page is about: its ``<title>`` (else its first heading), and its first comment."""
    root = document.root
    title = _collapse(root.findtext(".//title"))
    if title is None:
        heading = next(root.iter("h1", "h2", "h3", "h4", "h5", "h6"), None)
        if heading is not None:
            title = _collapse(etree.tostring(heading, method="text", encoding=str, with_tail=False))
    comments = [
        *reversed(list(root.itersiblings(etree.Comment, preceding=True))),
        *root.iter(etree.Comment),
    ]
    explanation = next((text for c in comments if (text := _collapse(c.text))), None)
    restore = document.restore
    return (title and restore(title)), (explanation and restore(explanation))


def _collapse(text: str | None) -> str | None:
    return (" ".join(text.split()) or None) if text else None


def _page_differences(
    chromium: Sequence[Mapping[str, Any]], html_tools: Sequence[Tool]
) -> tuple[list[Difference], list[tuple[str, str]]]:
    """Every difference of the page's tools, explained, and every (tool, parameter) pair."""
    chromium_by_name = {tool["name"]: tool for tool in chromium}
    html_by_name = {tool.name: tool for tool in html_tools}
    differences: list[Difference] = []
    parameters: list[tuple[str, str]] = []
    for name in dict.fromkeys([*chromium_by_name, *html_by_name]):
        found, keys = _tool_differences(
            name, chromium_by_name.get(name, ABSENT), html_by_name.get(name)
        )
        differences += found
        parameters += [(name, key) for key in keys]
    return differences, parameters


def _tool_differences(
    name: str, chromium: Mapping[str, Any] | Absent, tool: Tool | None
) -> tuple[list[Difference], list[str]]:
    """One tool's differences, explained, and its parameters (Chromium's, then the html
    profile's others)."""
    ours: Mapping[str, Any] | Absent = _definition(tool) if tool is not None else ABSENT
    groups = {p.key: p for p in parameters_of(tool.form, tool.profile).parameters} if tool else {}
    theirs_properties, our_properties = properties_of(chromium), properties_of(ours)
    keys = list(dict.fromkeys([*theirs_properties, *our_properties]))

    def context(parameter: str | None) -> Context:
        if parameter is None:
            return Context(None, None, _mapping(chromium), _mapping(ours))
        found = groups.get(parameter)
        return Context(
            found.kind if found else None,
            found.group if found else None,
            theirs_properties.get(parameter, {}),
            our_properties.get(parameter, {}),
        )

    def explained(raw: Difference, parameter: str | None) -> Difference:
        placed = replace(raw, tool=name, parameter=parameter)
        return replace(placed, rule=explain(placed, context(parameter)))

    if chromium is ABSENT or ours is ABSENT:
        return [explained(Difference(name, None, "tool", "tool", chromium, ours), None)], keys
    found: list[Difference] = []
    for key in dict.fromkeys([*chromium, *ours]):
        if key in ("name", "inputSchema"):
            continue
        found += [
            explained(d, None)
            for d in changes(chromium.get(key, ABSENT), ours.get(key, ABSENT), key, key)
        ]
    theirs_schema = without_properties(chromium["inputSchema"])
    our_schema = without_properties(ours["inputSchema"])
    for raw in changes(theirs_schema, our_schema, "inputSchema", "inputSchema"):
        member = raw.member if raw.keyword == "inputSchema.required" else ABSENT
        found.append(explained(raw, member if isinstance(member, str) else None))
    for key in keys:
        theirs_fragment = theirs_properties.get(key, ABSENT)
        our_fragment = our_properties.get(key, ABSENT)
        if theirs_fragment is ABSENT or our_fragment is ABSENT:
            where = f"inputSchema.properties[{dumps(key)}]"
            raw = Difference(
                name, key, "inputSchema.properties", where, theirs_fragment, our_fragment, key
            )
            found.append(explained(raw, key))
            continue
        found += [explained(d, key) for d in changes(theirs_fragment, our_fragment)]
    return found, keys


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
