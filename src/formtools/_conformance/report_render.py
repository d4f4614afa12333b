"""The conformance report as a document, for a spec editor: a summary (counts per reason, both
sides' annotations, the pages), every rule with its reason and examples, the differences no rule
explains, then one section per page with both sides' JSON per parameter next to each
difference's place and reason.

The document is built from :mod:`._report_markup`'s model and written as Markdown or HTML by it;
this module decides only what the report says.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from formtools.errors import UnknownFormat
from formtools._spec.jsjson import dumps
from formtools._conformance.report import RULES, Rule
from formtools._conformance.report_compare import (
    PageComparison,
    Report,
    properties_of,
    without_properties,
)
from formtools._conformance.report_diff import ABSENT, Difference, Explanation, same
from formtools._conformance.report_markup import (
    Block,
    Break,
    Code,
    Heading,
    Inline,
    Line,
    Link,
    Paragraph,
    Strong,
    Table,
    html_page,
    joined,
    markdown,
    marked,
)

__all__ = ["REPORT_FORMATS", "render", "report_format"]

_WRITERS: dict[str, Callable[[Sequence[Block]], str]] = {"md": markdown, "html": html_page}
REPORT_FORMATS = tuple(_WRITERS)


def report_format(format: str | None, out: Path | None = None) -> str:
    """``--format`` as given, else from the output file's suffix (``.html``/``.htm``), else md."""
    if format is None:
        format = "html" if out is not None and out.suffix.lower() in (".html", ".htm") else "md"
    if format not in REPORT_FORMATS:
        raise UnknownFormat(
            f"unknown report format {format!r} (known: {', '.join(REPORT_FORMATS)})"
        )
    return format


def render(report: Report, format: str = "md") -> str:
    """The report as a Markdown document (``md``) or one self-contained HTML file (``html``)."""
    return _WRITERS[report_format(format)](_document(report))


_INTRODUCTION = (
    "For each page: the tools Chromium registers (recorded from the browser, or, for a page "
    "without a recording, computed by formtools' `chromium` profile, which reproduces the "
    "recordings byte for byte), the tools of the `html` profile — a schema that accepts a value "
    "iff the browser's constraint validation does — and every difference, keyword by keyword, "
    "with its reason. Key order is not compared; `enum` and `required` members and `anyOf` "
    "entries are compared one by one."
)


def _document(report: Report) -> list[Block]:
    anchors = _page_anchors(report.pages)
    tallies = _tallies(report)
    blocks: list[Block] = [
        Heading(1, ("Conformance report: Chromium and the ", Code("html"), " profile")),
        Paragraph(marked(_INTRODUCTION)),
    ]
    blocks += _summary(report, tallies, anchors)
    blocks += _reasons(report, tallies, anchors)
    blocks += _unexplained(report, anchors)
    for page in report.pages:
        blocks += _page(page, anchors[page.label])
    return blocks


# ---- counts --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tally:
    """How many differences one reason explains, and on how many parameters, tools and pages."""

    differences: int = 0
    parameters: int = 0
    tools: int = 0
    pages: int = 0

    @staticmethod
    def of(pairs: Sequence[tuple[PageComparison, Difference]]) -> _Tally:
        return _Tally(
            len(pairs),
            len(
                {(page.label, d.tool, d.parameter) for page, d in pairs if d.parameter is not None}
            ),
            len({(page.label, d.tool) for page, d in pairs}),
            len({page.label for page, _ in pairs}),
        )


def _tallies(report: Report) -> dict[Explanation | None, _Tally]:
    """Counts per rule (None: unexplained)."""
    pairs: dict[Explanation | None, list[tuple[PageComparison, Difference]]] = {}
    for page in report.pages:
        for difference in page.differences:
            pairs.setdefault(difference.rule, []).append((page, difference))
    return {rule: _Tally.of(found) for rule, found in pairs.items()}


# ---- summary -------------------------------------------------------------------------------------


def _summary(
    report: Report, tallies: Mapping[Explanation | None, _Tally], anchors: Mapping[str, str]
) -> list[Block]:
    pages = report.pages
    recorded = sum(page.recording is not None for page in pages)
    parameters = sum(len(page.parameters) for page in pages)
    differing = sum(len(page.differing) for page in pages)
    total = len(report.differences)
    unexplained = len(report.unexplained)
    counts = {
        "pages": len(pages),
        "pages with a Chromium recording": recorded,
        "pages computed with the chromium profile (no recording)": len(pages) - recorded,
        "tools": sum(len(page.tool_names) for page in pages),
        "parameters (properties)": parameters,
        "parameters that differ": differing,
        "parameters identical in both": parameters - differing,
        "tools whose definition differs outside its parameters": sum(
            len({d.tool for d in page.differences if d.parameter is None}) for page in pages
        ),
        "differences (keywords and members)": total,
        "explained": total - unexplained,
        "unexplained": unexplained,
    }
    ordered: list[tuple[Rule | None, _Tally]] = sorted(
        ((rule, tallies[rule]) for rule in RULES if rule in tallies),
        key=lambda pair: -pair[1].differences,
    )
    if None in tallies:
        ordered.append((None, tallies[None]))
    return [
        Heading(2, ("Summary",), "summary"),
        Table(("", "count"), tuple(((label,), (f"{n:,}",)) for label, n in counts.items())),
        Heading(3, ("Differences by reason",)),
        Table(
            ("reason", "differences", "parameters", "tools", "pages"),
            tuple(
                ((_rule_link(rule),), *((f"{n:,}",) for n in astuple(tally)))
                for rule, tally in ordered
            ),
        ),
        *_annotations(report),
        Heading(3, ("Pages",)),
        Table(
            ("page", "construct", "tools", "parameters", "differ", "Chromium"),
            tuple(
                (
                    (_page_link(page, anchors),),
                    (page.construct,),
                    (str(len(page.tool_names)),),
                    (str(len(page.parameters)),),
                    (str(len(page.differing)),),
                    ("recorded" if page.recording else "computed",),
                )
                for page in pages
            ),
        ),
    ]


def _annotations(report: Report) -> list[Block]:
    """Every annotation either side uses: its values on each side and how many tools differ."""
    # annotation → (Chromium's values, the html profile's values), as JSON text; None: absent
    values: dict[str, tuple[Counter[str | None], Counter[str | None]]] = {}
    differ: Counter[str] = Counter()
    for page in report.pages:
        for _, chromium, ours in page.sides():
            theirs_notes, our_notes = _annotations_of(chromium), _annotations_of(ours)
            for key in dict.fromkeys([*theirs_notes, *our_notes]):
                before, after = _shown(theirs_notes, key), _shown(our_notes, key)
                counts = values.setdefault(key, (Counter(), Counter()))
                counts[0][before] += 1
                counts[1][after] += 1
                differ[key] += before != after

    def spread(counter: Counter[str | None]) -> Line:
        ordered = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0] or ""))
        return joined(
            (("absent" if text is None else Code(text), f" ×{count:,}") for text, count in ordered),
            ", ",
        )

    return [
        Heading(3, ("Annotations",)),
        Paragraph(
            (
                "Each annotation either side reports, with its values over all tools (see ",
                _rule_link(next(rule for rule in RULES if rule.id == "annotation-hints")),
                ").",
            ),
        ),
        Table(
            ("annotation", "Chromium", "html", "tools that differ"),
            tuple(
                ((Code(key),), spread(before), spread(after), (f"{differ[key]:,}",))
                for key, (before, after) in values.items()
            ),
        ),
    ]


def _annotations_of(tool: Any) -> Mapping[str, Any]:
    return tool.get("annotations", {}) if tool is not ABSENT else {}


def _shown(annotations: Mapping[str, Any], key: str) -> str | None:
    return dumps(annotations[key]) if key in annotations else None


# ---- reasons -------------------------------------------------------------------------------------

_EXAMPLES = 3  # per reason, from as many different pages


def _reasons(
    report: Report, tallies: Mapping[Explanation | None, _Tally], anchors: Mapping[str, str]
) -> list[Block]:
    blocks: list[Block] = [
        Heading(2, ("Reasons",), "reasons"),
        Paragraph(
            marked(
                "The table of rules the differences are explained by (`RULES` in "
                "`src/formtools/_report.py`); the first rule that covers a difference explains it. "
                "Each comes with examples from different pages."
            )
        ),
    ]
    for rule in RULES:
        tally = tallies.get(rule, _Tally())
        covers: list[Inline] = [
            *joined(((Code(keyword),) for keyword in rule.keywords), ", "),
            " " + " or ".join(sorted(rule.changes)),
        ]
        if rule.controls:
            covers.append(" on " + ", ".join(sorted(rule.controls)))
        if rule.when is not None:
            covers.append(" when " + rule.when.text)
        seen = f"{_count(tally.differences, 'difference')} in {_count(tally.pages, 'page')}"
        blocks += [
            Heading(3, (rule.title,), _anchor("r", rule.id)),
            Paragraph((Code(rule.id), " — covers ", *covers, ". Seen: ", seen, ".")),
            Paragraph(marked(rule.reason)),
        ]
        examples: dict[str, tuple[PageComparison, Difference]] = {}  # one per page label
        for page in report.pages:
            found = next((d for d in page.differences if d.rule is rule), None)
            if found is not None and len(examples) < _EXAMPLES:
                examples[page.label] = (page, found)
        if examples:
            blocks.append(_difference_table(list(examples.values()), anchors))
    return blocks


def _unexplained(report: Report, anchors: Mapping[str, str]) -> list[Block]:
    if not report.unexplained:
        return []
    return [
        Heading(2, ("Unexplained differences",), "unexplained"),
        Paragraph(("No rule covers these: the rule table needs a new entry, or a profile a fix.",)),
        _difference_table(report.unexplained, anchors),
    ]


def _difference_table(
    pairs: Sequence[tuple[PageComparison, Difference]], anchors: Mapping[str, str]
) -> Table:
    return Table(
        ("page", "tool", "parameter", "where", "Chromium", "html"),
        tuple(
            (
                (_page_link(page, anchors),),
                (Code(d.tool),),
                (_parameter_name(d.parameter),),
                (Code(d.where),),
                (_json(d.chromium),),
                (_json(d.html),),
            )
            for page, d in pairs
        ),
    )


# ---- one page ------------------------------------------------------------------------------------


def _page(page: PageComparison, anchor: str) -> list[Block]:
    source: Line = (
        ("Chromium: recorded, ", Code(page.recording))
        if page.recording
        else (
            "Chromium: ",
            Strong("no recording"),
            " — computed with formtools' ",
            Code("chromium"),
            " profile",
        )
    )
    blocks: list[Block] = [
        Heading(2, (page.construct,), anchor),
        Paragraph((Code(page.label), " · ", *source)),
    ]
    if page.explanation:
        blocks.append(Paragraph((page.explanation,)))
    if not page.tool_names:
        blocks.append(Paragraph(("No tool registers, under either.",)))
    for name, chromium, ours in page.sides():
        blocks += _tool(page, name, chromium, ours)
    return blocks


def _tool(page: PageComparison, name: str, chromium: Any, ours: Any) -> list[Block]:
    """One row for the tool's own definition and one per parameter: both sides' JSON, and each
    difference's place and reason (the values are in the JSON next to it)."""

    shared = {
        key: chromium[key]
        for key in ("title", "description")
        if chromium is not ABSENT and ours is not ABSENT and same(chromium[key], ours[key])
    }

    def definition(tool: Any) -> Inline:
        """The tool's own keys (``title`` and ``description`` said once above when the same)."""
        if tool is ABSENT:
            return "—"
        shown = {k: v for k, v in tool.items() if k != "name" and k not in shared}
        if "inputSchema" in shown:
            shown["inputSchema"] = without_properties(shown["inputSchema"])
        return _json(shown)

    def explained(parameter: str | None) -> Line:
        """The differences grouped by (reason, change), in order of first appearance."""
        groups: dict[tuple[Explanation | None, str], list[Difference]] = {}
        for d in page.differences:
            if d.tool == name and d.parameter == parameter:
                groups.setdefault((d.rule, d.change), []).append(d)
        line = joined(
            (
                (Code(_places([d.where for d in members])), f" {change}: ", _rule_link(rule))
                for (rule, change), members in groups.items()
            ),
            Break(),
        )
        return line or ("same",)

    keys = [parameter for tool, parameter in page.parameters if tool == name]
    rows: list[tuple[Line, ...]] = [
        (("(tool)",), (definition(chromium),), (definition(ours),), explained(None))
    ]
    rows += [
        (
            (_parameter_name(key),),
            (_json(properties_of(chromium).get(key, ABSENT)),),
            (_json(properties_of(ours).get(key, ABSENT)),),
            explained(key),
        )
        for key in keys
    ]
    said = joined(((f"{key} ", _json(value)) for key, value in shared.items()), " · ")
    return [
        Heading(3, ("Tool ", Code(name))),
        *([Paragraph(("Both: ", *said))] if said else []),
        Table(("parameter", "Chromium", "html", "differences and reasons"), tuple(rows)),
    ]


def _places(wheres: Sequence[str]) -> str:
    """Places in one line, siblings under their parent once: ``annotations.{a, b}``."""
    parent = wheres[0].rpartition(".")[0]
    leaves = [where[len(parent) + 1 :] for where in wheres]
    if (
        len(wheres) > 1
        and parent
        and all(
            where.startswith(parent + ".") and "." not in leaf and "[" not in leaf
            for where, leaf in zip(wheres, leaves)
        )
    ):
        return f"{parent}.{{{', '.join(leaves)}}}"
    return ", ".join(wheres)


# ---- small parts ---------------------------------------------------------------------------------


def _json(value: Any) -> Inline:
    return "—" if value is ABSENT else Code(dumps(value))


def _parameter_name(parameter: str | None) -> Inline:
    return "(tool)" if parameter is None else Code(dumps(parameter))


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _anchor(prefix: str, name: str) -> str:
    return prefix + "-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "x")


def _page_anchors(pages: Sequence[PageComparison]) -> dict[str, str]:
    """A unique anchor id for each page of one report (by label)."""
    used: set[str] = set()
    out: dict[str, str] = {}
    for page in pages:
        base = _anchor("page", Path(page.label).stem)
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        out[page.label] = anchor
    return out


def _page_link(page: PageComparison, anchors: Mapping[str, str]) -> Link:
    return Link(Path(page.label).stem, anchors[page.label])


def _rule_link(rule: Explanation | None) -> Inline:
    return Link(rule.title, _anchor("r", rule.id)) if rule else Strong("unexplained")
