"""The conformance report as a document for a spec editor, organised by the questions the spec
has to decide (:data:`.report_questions.QUESTIONS`), not by formtools' rules.

The parts, each one file when the report is split (``render_files``; the shipped report in
``docs/conformance/`` keeps every file small), or one document (``render``):

- ``index``: what was compared, the counts, one row per question, the #289 verdict in numbers;
- ``q-<question>``: the construct, what is at stake, the webmcp issues, the smallest page that
  raises it with both outputs side by side, why they differ (the rules and their reasons), then
  every difference, grouped where the same change recurs;
- ``subset-289``: how many pages' schemas — Chromium's, the ``html`` profile's, the
  ``portable`` profile's — pass the JSON Schema subset of webmcp#289, and why Chromium's fail;
- ``extensions``: formtools' own ``x-formtools-…`` keywords, counted, never listed as spec
  differences (they are how formtools enforces HTML, not a proposal);
- ``pages``: each page with its counts and the questions it raises.

``report_json`` says all of it, and every difference, as JSON for programs.

The document is built from :mod:`.report_markup`'s model and written as Markdown or HTML by it;
this module decides only what the report says.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from formtools.errors import UnknownFormat
from formtools._spec.jsjson import dumps, plain
from formtools._spec.schema_subset import SUBSET_KEYWORDS, SUBSET_SOURCE
from formtools._conformance.report import RULES, Rule
from formtools._conformance.report_compare import (
    PageComparison,
    Report,
    properties_of,
    without_properties,
)
from formtools._conformance.report_diff import ABSENT, Difference, Explanation
from formtools._conformance.report_markup import (
    Block,
    Break,
    Code,
    CodeBlock,
    External,
    Heading,
    Inline,
    Line,
    Link,
    Paragraph,
    Place,
    Strong,
    Table,
    html_page,
    joined,
    markdown,
    marked,
)
from formtools._conformance.report_questions import (
    ISSUES,
    QUESTIONS,
    Question,
    is_extension,
    question_of,
)
from formtools._conformance.report_subset import (
    CHROMIUM_KEYWORDS,
    SideTally,
    SubsetPage,
    SubsetSample,
    tally_side,
)

__all__ = ["REPORT_FORMATS", "render", "render_files", "report_format", "report_json"]

_WRITERS: dict[str, tuple[Callable[[Sequence[Block], Place], str], str]] = {
    "md": (markdown, ".md"),
    "html": (html_page, ".html"),
}
REPORT_FORMATS = (*_WRITERS, "json")
_SUFFIXES = {".html": "html", ".htm": "html", ".json": "json", ".md": "md"}
_META_SCHEMA = "src/formtools/_spec/webmcp_input_schema_subset.json"
_SIDES = {
    "chromium": "Chromium",
    "html": "`html` profile (HTML-exact)",
    "portable": "`portable` profile",
}


def report_format(format: str | None, out: Path | None = None) -> str:
    """``--format`` as given, else from the output file's suffix (``.html``/``.htm``,
    ``.json``), else md."""
    if format is None:
        format = _SUFFIXES.get(out.suffix.lower(), "md") if out is not None else "md"
    if format not in REPORT_FORMATS:
        # the command's --format also takes wpt (tests written by formtools._conformance.wpt,
        # never rendered here): the message names every value the help lists
        raise UnknownFormat(
            f"unknown report format {format!r} (known: {', '.join((*REPORT_FORMATS, 'wpt'))})"
        )
    return format


def render(report: Report, format: str = "md", sample: SubsetSample | None = None) -> str:
    """The report as one document: Markdown (``md``), one self-contained HTML file (``html``)
    or JSON (``json``). ``sample``: #289 tallies of further pages, said beside the report's."""
    format = report_format(format)
    if format == "json":
        return report_json(report, sample)
    writer, _ = _WRITERS[format]
    return writer([block for part in _Report(report, sample).parts() for block in part.blocks], Place())


def render_files(
    report: Report, format: str = "md", sample: SubsetSample | None = None
) -> dict[str, str]:
    """The report as files (name → text): ``index`` and one file per part, linked to each
    other; JSON is one file, ``report.json``."""
    format = report_format(format)
    if format == "json":
        return {"report.json": report_json(report, sample)}
    writer, suffix = _WRITERS[format]
    parts = _Report(report, sample).parts()
    names = frozenset(part.name for part in parts)
    return {part.name + suffix: writer(part.blocks, Place(part.name, names)) for part in parts}


def report_json(report: Report, sample: SubsetSample | None = None) -> str:
    """Everything the report says, and every difference, as JSON: control and format characters
    a page put in it as ``\\u`` escapes, as in every JSON output of formtools."""
    return plain(dumps(_Report(report, sample).as_json(), pretty=True)) + "\n"


# ---- what the report computes once ---------------------------------------------------------------

Pair = tuple[PageComparison, Difference]


@dataclass(frozen=True)
class _Tally:
    """How many differences, and on how many parameters, tools and pages."""

    differences: int = 0
    parameters: int = 0
    tools: int = 0
    pages: int = 0

    @staticmethod
    def of(pairs: Sequence[Pair]) -> _Tally:
        return _Tally(
            len(pairs),
            len({(p.label, d.tool, d.parameter) for p, d in pairs if d.parameter is not None}),
            len({(p.label, d.tool) for p, d in pairs}),
            len({p.label for p, _ in pairs}),
        )


@dataclass(frozen=True)
class _Part:
    name: str
    blocks: list[Block] = field(default_factory=list)


class _Report:
    """The report's facts, and its parts as blocks."""

    def __init__(self, report: Report, sample: SubsetSample | None) -> None:
        self.report = report
        self.sample = sample
        self.pairs: list[Pair] = [(page, d) for page in report.pages for d in page.differences]
        self.by_question: dict[str, list[Pair]] = {q.id: [] for q in QUESTIONS}
        for page, d in self.pairs:
            question = question_of(d.rule)
            if question is not None:
                self.by_question[question.id].append((page, d))
        self.page_anchors = _page_anchors(report.pages)

    # -- facts ---------------------------------------------------------------------------------

    def spec(self, question: Question) -> list[Pair]:
        """The question's differences in keywords the spec could adopt (not formtools' own)."""
        return [(p, d) for p, d in self.by_question[question.id] if not is_extension(d)]

    def extensions(self, question: Question) -> list[Pair]:
        return [(p, d) for p, d in self.by_question[question.id] if is_extension(d)]

    def asked(self) -> list[Question]:
        """The questions some page raises."""
        return [q for q in QUESTIONS if self.by_question[q.id]]

    def minimal(self, question: Question) -> Pair | None:
        """The smallest page raising the question (by a spec difference when it has one), and
        its first such difference."""
        pairs = self.spec(question) or self.by_question[question.id]
        if not pairs:
            return None
        page = min((p for p, _ in pairs), key=lambda p: (p.size, p.label))
        return next((p, d) for p, d in pairs if p is page)

    @cached_property
    def subset(self) -> tuple[SideTally, ...]:
        pages = self.report.pages
        return tuple(
            tally_side(side, [SubsetPage(p.label, p.size, getattr(p, side)) for p in pages])
            for side in _SIDES
        )

    @cached_property
    def counts(self) -> list[tuple[str, str, int]]:
        """(JSON key, label, number) for the summary."""
        pages = self.report.pages
        recorded = sum(page.recording is not None for page in pages)
        one_sided = [
            (page, name)
            for page in pages
            for name, chromium, ours in page.sides()
            if chromium is ABSENT or ours is ABSENT
        ]
        parameters = sum(len(page.parameters) for page in pages)
        differing = sum(len(page.differing) for page in pages)
        annotations = sum(
            d.keyword.startswith("annotations.") and not is_extension(d) for _, d in self.pairs
        )
        extensions = sum(is_extension(d) for _, d in self.pairs)
        unexplained = len(self.report.unexplained)
        one_sided_parameters = sum(d.keyword == "inputSchema.properties" for _, d in self.pairs)
        schema = len(self.pairs) - annotations - extensions - unexplained
        return [
            ("pages", "pages", len(pages)),
            ("recordedPages", "pages with a Chromium recording", recorded),
            ("computedPages", "pages computed with the chromium profile (no recording)",
             len(pages) - recorded),
            ("tools", "tools", sum(len(page.tool_names) for page in pages)),
            ("oneSidedTools", "tools only one side registers", len(one_sided)),
            ("parameters", "parameters (properties)", parameters),
            ("oneSidedParameters", "parameters only one side declares", one_sided_parameters),
            ("differingParameters", "parameters that differ", differing),
            ("identicalParameters", "parameters identical in both", parameters - differing),
            ("differences", "differences", len(self.pairs)),
            ("schemaDifferences", "in JSON Schema keywords", schema),
            ("annotationDifferences", "in annotations", annotations),
            ("extensionDifferences", "in formtools' own keywords (x-formtools-…)", extensions),
            ("unexplained", "unexplained", unexplained),
        ]

    # -- parts ---------------------------------------------------------------------------------

    def parts(self) -> list[_Part]:
        return [
            self._index(),
            *(self._question(q) for q in self.asked()),
            self._subset(),
            self._extensions(),
            self._pages(),
        ]

    def _index(self) -> _Part:
        counts = {key: n for key, _, n in self.counts}
        rows: list[tuple[Line, ...]] = []
        for question in QUESTIONS:
            pairs = self.by_question[question.id]
            every, own = _Tally.of(pairs), len(self.extensions(question))
            minimal = self.minimal(question)
            rows.append(
                (
                    (_question_link(question) if pairs else question.question,),
                    _issue_links(question.issues),
                    (_n(every.parameters),),
                    (_n(every.tools),),
                    (_n(every.pages),),
                    (_n(every.differences - own),),
                    (_n(own),),
                    (Code(Path(minimal[0].label).stem),) if minimal else ("—",),
                )
            )
        chromium, _, portable = self.subset
        blocks: list[Block] = [
            Heading(1, ("Conformance report: Chromium and HTML, by spec question",), "index"),
            Paragraph(marked(_INTRODUCTION)),
            Heading(2, ("Summary",), "summary"),
            Table(("", "count"), tuple(((label,), (_n(n),)) for _, label, n in self.counts)),
            Paragraph(
                marked(
                    _OTHER_PARAMETERS
                    if counts["oneSidedTools"] or counts["oneSidedParameters"]
                    else _SAME_PARAMETERS
                )
            ),
            Heading(2, ("Questions",), "questions"),
            Paragraph(marked(_QUESTIONS_INTRO)),
            Table(
                ("question", "webmcp", "parameters", "tools", "pages", "differences",
                 "formtools' own", "smallest page"),
                tuple(rows),
            ),
            Heading(2, ("The JSON Schema subset of webmcp#289",), "subset"),
            Paragraph(self._subset_verdict(chromium, portable)),
            Paragraph(
                (
                    "More: ",
                    Link("#289 in detail", "subset-289", "subset-289"),
                    " · ",
                    Link("formtools' own keywords", "extensions", "extensions"),
                    " · ",
                    Link("every page", "pages", "pages"),
                    ".",
                )
            ),
        ]
        if self.report.unexplained:
            blocks += [
                Heading(2, ("Unexplained differences",), "unexplained"),
                Paragraph(("No rule covers these: the rule table needs an entry, or a profile a fix.",)),
                self._difference_table(list(self.report.unexplained)),
            ]
        return _Part("index", blocks)

    def _subset_verdict(self, chromium: SideTally, portable: SideTally) -> Line:
        """The numbers the spec discussion needs, in two or three sentences."""
        why = joined(((Code(k.keyword), f" ({_n(k.tools)} tools)") for k in chromium.keywords), ", ")
        line: list[Inline] = [
            f"Chromium's schemas: {_n(chromium.pages_failing)} of {_n(chromium.pages)} pages "
            f"({_n(chromium.tools_failing)} of {_n(chromium.tools)} tools) would be refused by a "
            "registerTool() that meta-validates them against the subset",
            *((", because of ", *why) if why else ()),
            ". The portable profile's: "
            f"{_n(portable.pages_failing)} of {_n(portable.pages)} pages fail "
            f"({_n(portable.tools_failing)} of {_n(portable.tools)} tools).",
        ]
        if self.sample:
            line += [" On ", *marked(self.sample.description), ": "]
            line += joined(
                (
                    (*marked(_SIDES[tally.side]), f" {_n(tally.pages_failing)} of {_n(tally.pages)} pages fail")
                    for tally in self.sample.sides
                ),
                ", ",
            )
            line.append(".")
        return tuple(line)

    def _question(self, question: Question) -> _Part:
        name = _question_part(question)
        spec, own = self.spec(question), self.extensions(question)
        tally = _Tally.of(spec)
        on = [_count(tally.parameters, "parameter")] if tally.parameters else []
        on += [_count(tally.tools, "tool"), _count(tally.pages, "page")]
        seen = f"Seen: {_count(tally.differences, 'difference')} on {', '.join(on[:-1])} and {on[-1]}."
        blocks: list[Block] = [
            Heading(1, marked(question.question), name),
            Paragraph(("Bears on: ", *joined((_issue_line(n) for n in question.issues), " · "))),
            Paragraph((Strong("Construct."), " ", *marked(question.construct))),
            Paragraph((Strong("At stake."), " ", *marked(question.stake))),
            Paragraph((seen, *self._own_note(own))),
        ]
        blocks += self._minimal(question)
        blocks += [Heading(2, ("Why they differ",), f"{name}-why")]
        rules = [rule for rule in RULES if question_of(rule) is question]
        by_rule = Counter(d.rule.id for _, d in spec if d.rule)  # (formtools' own: counted apart)
        for rule in rules:
            blocks += [
                Heading(3, (rule.title,), _anchor("r", rule.id)),
                Paragraph(
                    (
                        Code(rule.id),
                        " — covers ",
                        *_covers(rule),
                        f". Seen: {_count(by_rule[rule.id], 'difference')}.",
                    )
                ),
                Paragraph(marked(rule.reason)),
            ]
        if question.id == "annotations":
            blocks += self._annotations()
        elif spec:
            blocks += [
                Heading(2, ("Every difference",), f"{name}-all"),
                Paragraph(("Grouped where the same change recurs; pages link to ",
                           Link("the list of pages", "pages", "pages"), ".")),
                self._grouped(spec),
            ]
        return _Part(name, blocks)

    def _own_note(self, own: Sequence[Pair]) -> Line:
        if not own:
            return ()
        keywords = Counter(_extension_keyword(d) for _, d in own)
        return (
            f" Besides, {_count(len(own), 'difference')} in formtools' own keywords (",
            *joined(((Code(k), f" ×{_n(n)}") for k, n in keywords.most_common()), ", "),
            "), counted in ",
            Link("formtools' own keywords", "extensions", "extensions"),
            ".",
        )

    def _minimal(self, question: Question) -> list[Block]:
        found = self.minimal(question)
        if found is None:
            return []
        page, example = found
        blocks: list[Block] = [
            Heading(2, ("Smallest page",), f"{_question_part(question)}-page"),
            Paragraph(
                (
                    Code(page.label),
                    f" ({_n(page.size)} bytes) — ",
                    page.construct,
                    *((". ", page.explanation) if page.explanation else ()),
                )
            ),
        ]
        if page.markup is not None:
            blocks.append(CodeBlock(page.markup, "html"))
        chromium = _tool(page.chromium, example.tool)
        ours = _tool(page.html, example.tool)
        if example.parameter is None:
            left, right = _definition(chromium), _definition(ours)
        else:
            left = properties_of(chromium).get(example.parameter, ABSENT)
            right = properties_of(ours).get(example.parameter, ABSENT)
        same_place = [
            d
            for d in page.differences
            if d.tool == example.tool
            and d.parameter == example.parameter
            and question_of(d.rule) is question
        ]
        blocks.append(
            Table(
                ("tool", "parameter", "Chromium", "HTML-exact (html profile)", "differences"),
                (
                    (
                        (Code(example.tool),),
                        (_parameter_name(example.parameter),),
                        (_json(left),),
                        (_json(right),),
                        joined(((Code(d.where), f" {d.change}") for d in same_place), Break()),
                    ),
                ),
            )
        )
        return blocks

    def _grouped(self, pairs: Sequence[Pair]) -> Table:
        """One row per (reason, keyword, change, both values), in the order of the rules, with
        every tool and parameter it is seen on: the keyword, not the member's place, so that
        the same change on many options (``anyOf["a"].type``, ``anyOf["b"].type``…) is one row."""
        order = {rule.id: index for index, rule in enumerate(RULES)}
        groups: dict[tuple[str, str, str, str, str], list[Pair]] = {}
        for page, d in pairs:
            key = (d.rule.id if d.rule else "", d.keyword, d.change, _text(d.chromium), _text(d.html))
            groups.setdefault(key, []).append((page, d))
        rows = []
        for key, found in sorted(groups.items(), key=lambda kv: order.get(kv[0][0], len(order))):
            d = found[0][1]
            seen = joined(self._seen(found), "; ")
            rows.append(
                (
                    (_rule_link(d.rule),),
                    (Code(d.keyword),),
                    (d.change,),
                    (_json(d.chromium),),
                    (_json(d.html),),
                    (f"×{_n(len(found))}: ", *seen),
                )
            )
        return Table(("reason", "keyword", "change", "Chromium", "HTML-exact", "seen on"), tuple(rows))

    def _seen(self, pairs: Sequence[Pair]) -> Iterable[Line]:
        """Each page once, linked, with the tools and parameters seen there."""
        places: dict[str, list[str]] = {}
        for page, d in pairs:
            places.setdefault(page.label, []).append(
                d.tool if d.parameter is None else f"{d.tool}.{d.parameter}"
            )
        for label, where in places.items():
            link = Link(Path(label).stem, self.page_anchors[label], "pages")
            yield (link, " ", ", ".join(dict.fromkeys(where)))

    def _annotations(self) -> list[Block]:
        """Every annotation either side uses: its values on each side and how many tools
        differ (the annotations are not listed one by one: one per tool and hint)."""
        values: dict[str, tuple[Counter[str | None], Counter[str | None]]] = {}
        differ: Counter[str] = Counter()
        for page in self.report.pages:
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
                (("absent" if text is None else Code(text), f" ×{_n(count)}") for text, count in ordered),
                ", ",
            )

        return [
            Heading(2, ("Every annotation",), "annotations-all"),
            Paragraph(("Each annotation either side reports, with its values over all tools.",)),
            Table(
                ("annotation", "Chromium", "HTML-exact", "tools that differ"),
                tuple(
                    ((Code(key),), spread(before), spread(after), (_n(differ[key]),))
                    for key, (before, after) in values.items()
                ),
            ),
        ]

    def _subset(self) -> _Part:
        chromium, html, portable = self.subset
        sides: list[SideTally] = list(self.subset)
        labels = [f"{_SIDES[s.side]}, the report's pages" for s in sides]
        if self.sample:
            sides += self.sample.sides
            labels += [f"{_SIDES[s.side]}, {self.sample.description}" for s in self.sample.sides]
        blocks: list[Block] = [
            Heading(1, ("The JSON Schema subset of webmcp#289",), "subset-289"),
            Paragraph(
                (
                    External("webmcp#289", SUBSET_SOURCE),
                    f" ({ISSUES[289].title}) defines a JSON Schema subset that registerTool() "
                    "checks a tool's inputSchema against, rejecting a schema outside it with a "
                    "TypeError. The allowlist: ",
                    *joined(((Code(k),) for k in sorted(SUBSET_KEYWORDS)), ", "),
                    " (",
                    Code("additionalProperties"),
                    " only as ",
                    Code("false"),
                    "). Its meta-schema, with the source of every rule: ",
                    Code(_META_SCHEMA),
                    ". A page fails when one of its tools does.",
                    *((" ", *marked(self.sample.note)) if self.sample else ()),
                )
            ),
            Heading(2, ("Pages and tools that pass",), "subset-289-pass"),
            Table(
                ("schemas", "pages", "pass", "fail", "tools", "tools that fail"),
                tuple(
                    (
                        marked(label),
                        (_n(s.pages),),
                        (_n(s.pages_passing),),
                        (_n(s.pages_failing),),
                        (_n(s.tools),),
                        (_n(s.tools_failing),),
                    )
                    for label, s in zip(labels, sides)
                ),
            ),
            Heading(2, ("Why Chromium's schemas fail",), "subset-289-why"),
            Paragraph(marked(_CHROMIUM_KEYWORDS_INTRO)),
            self._keyword_table(chromium, explain=True),
        ]
        if self.sample:
            for tally in self.sample.sides:
                if tally.side == "chromium" and tally.keywords:
                    blocks += [
                        Paragraph(("On ", *marked(self.sample.description), ":")),
                        self._keyword_table(tally, explain=False),
                    ]
        blocks += [
            Heading(2, ("What HTML-exact schemas would need",), "subset-289-html"),
            Paragraph(marked(_HTML_KEYWORDS_INTRO)),
            self._keyword_table(html, explain=False),
            Heading(2, ("Pages whose Chromium schemas fail",), "subset-289-pages"),
            Table(
                ("page", "tools that fail", "keywords"),
                tuple(
                    (
                        (Link(Path(label).stem, self.page_anchors[label], "pages"),),
                        (_n(count),),
                        joined(((Code(k),) for k in keywords), ", "),
                    )
                    for label, count, keywords in chromium.failing
                ),
            ),
        ]
        return _Part("subset-289", blocks)

    def _keyword_table(self, tally: SideTally, *, explain: bool) -> Table:
        rows = []
        for k in tally.keywords:
            why, question_id = CHROMIUM_KEYWORDS.get(k.keyword, ("not in the allowlist", ""))
            question = next((q for q in QUESTIONS if q.id == question_id), None)
            row: tuple[Line, ...] = ((Code(k.keyword),), (_n(k.tools),), (_n(k.pages),))
            if explain:
                row += (
                    marked(why),
                    (_question_link(question),) if question and self.by_question[question.id] else ("—",),
                )
            row += ((Code(Path(k.smallest).stem),),)
            rows.append(row)
        header: tuple[str, ...] = ("keyword", "tools", "pages")
        header += ("why Chromium writes it", "question") if explain else ()
        return Table((*header, "smallest page"), tuple(rows))

    def _extensions(self) -> _Part:
        pairs = [(p, d) for p, d in self.pairs if is_extension(d)]
        groups: dict[str, list[Pair]] = {}
        for page, d in pairs:
            groups.setdefault(_extension_keyword(d), []).append((page, d))
        rows = []
        for keyword, found in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            tally = _Tally.of(found)
            rules = list(dict.fromkeys(d.rule for _, d in found if d.rule is not None))
            questions = list(dict.fromkeys(q for r in rules if (q := question_of(r)) is not None))
            rows.append(
                (
                    (Code(keyword),),
                    (_n(tally.differences),),
                    (_n(tally.parameters),),
                    (_n(tally.pages),),
                    joined(((_rule_link(r),) for r in rules), ", "),
                    joined(((_question_link(q),) for q in questions), ", "),
                )
            )
        return _Part(
            "extensions",
            [
                Heading(1, ("formtools' own keywords",), "extensions"),
                Paragraph(marked(_EXTENSIONS_INTRO)),
                Table(
                    ("keyword", "differences", "parameters", "pages", "explained by", "question"),
                    tuple(rows),
                ),
            ],
        )

    def _pages(self) -> _Part:
        chromium, _, portable = self.subset
        failing = {label: count for label, count, _ in chromium.failing}
        portable_failing = {label: count for label, count, _ in portable.failing}
        rows = []
        for page in self.report.pages:
            asked = [q for q in self.asked() if any(p is page for p, _ in self.by_question[q.id])]
            rows.append(
                (
                    (Code(Path(page.label).stem),),
                    (page.construct,),
                    (_n(len(page.tool_names)),),
                    (_n(len(page.parameters)),),
                    (_n(len(page.differing)),),
                    (Code(page.recording),) if page.recording else (Strong("computed"),),
                    (f"{failing.get(page.label, 0)} / {portable_failing.get(page.label, 0)}",),
                    joined(((_question_link(q, short=True),) for q in asked), ", "),
                )
            )
        anchors = tuple(self.page_anchors[page.label] for page in self.report.pages)
        return _Part(
            "pages",
            [
                Heading(1, ("Pages",), "pages"),
                Paragraph(marked(_PAGES_INTRO)),
                Table(
                    ("page", "construct", "tools", "parameters", "differ", "Chromium's side",
                     "#289 fails (Chromium / portable tools)", "questions"),
                    tuple(rows),
                    anchors,
                ),
            ],
        )

    def _difference_table(self, pairs: Sequence[Pair]) -> Table:
        return Table(
            ("page", "tool", "parameter", "where", "Chromium", "HTML-exact"),
            tuple(
                (
                    (Link(Path(page.label).stem, self.page_anchors[page.label], "pages"),),
                    (Code(d.tool),),
                    (_parameter_name(d.parameter),),
                    (Code(d.where),),
                    (_json(d.chromium),),
                    (_json(d.html),),
                )
                for page, d in pairs
            ),
        )

    # -- JSON -----------------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        def side(tally: SideTally) -> dict[str, Any]:
            return {
                "side": tally.side,
                "pages": tally.pages,
                "pagesFailing": tally.pages_failing,
                "tools": tally.tools,
                "toolsFailing": tally.tools_failing,
                "keywords": [
                    {
                        "keyword": k.keyword,
                        "tools": k.tools,
                        "pages": k.pages,
                        "smallestPage": k.smallest,
                        **_chromium_why(k.keyword, tally.side),
                    }
                    for k in tally.keywords
                ],
                "failing": [
                    {"page": label, "tools": count, "keywords": list(keywords)}
                    for label, count, keywords in tally.failing
                ],
            }

        questions = []
        for question in QUESTIONS:
            minimal = self.minimal(question)
            spec = _Tally.of(self.spec(question))
            questions.append(
                {
                    "id": question.id,
                    "question": question.question,
                    "construct": question.construct,
                    "stake": question.stake,
                    "issues": [
                        {"number": n, "title": ISSUES[n].title, "url": ISSUES[n].url}
                        for n in question.issues
                    ],
                    "rules": [
                        {"id": r.id, "title": r.title, "reason": r.reason}
                        for r in RULES
                        if question_of(r) is question
                    ],
                    "differences": spec.differences,
                    "parameters": spec.parameters,
                    "tools": spec.tools,
                    "pages": _Tally.of(self.by_question[question.id]).pages,
                    "extensionDifferences": len(self.extensions(question)),
                    "smallestPage": None if minimal is None else _json_difference(*minimal),
                }
            )
        return {
            "report": "formtools conformance report",
            "version": 1,
            "summary": {key: n for key, _, n in self.counts},
            "questions": questions,
            "subset289": {
                "source": SUBSET_SOURCE,
                "metaSchema": _META_SCHEMA,
                "allowed": sorted(SUBSET_KEYWORDS),
                "sides": [side(tally) for tally in self.subset],
                "sample": None
                if self.sample is None
                else {
                    "description": self.sample.description,
                    "sides": [side(tally) for tally in self.sample.sides],
                },
            },
            "pages": [
                {
                    "page": page.label,
                    "construct": page.construct,
                    "explanation": page.explanation,
                    "recording": page.recording,
                    "size": page.size,
                    "tools": len(page.tool_names),
                    "parameters": len(page.parameters),
                    "differing": len(page.differing),
                }
                for page in self.report.pages
            ],
            "differences": [_json_difference(page, d) for page, d in self.pairs],
        }


# ---- texts ----------------------------------------------------------------------------------------

_INTRODUCTION = (
    "What Chromium 156 registers for a form (recorded from the browser, or, for a page without "
    "a recording, computed by formtools' `chromium` profile, which reproduces the recordings "
    "byte for byte) next to the HTML-exact schema — formtools' `html` profile, which accepts a "
    "value iff the browser's constraint validation does — and every difference between them, "
    "keyword by keyword, explained and filed under the question the spec has to decide. Key "
    "order is not compared; `enum` and `required` members and `anyOf` entries are compared "
    "one by one. formtools' own `x-formtools-…` keywords are counted apart: they are how "
    "formtools enforces what JSON Schema cannot say, not something the spec is asked to adopt."
)
_SAME_PARAMETERS = (
    "Which controls become parameters: both sides register the same tools with the same "
    "parameters on every page; they differ only in what the schemas say."
)
_OTHER_PARAMETERS = (
    "Which controls become parameters: the sides do not register the same tools and "
    "parameters on every page (counted above)."
)
_QUESTIONS_INTRO = (
    "Each question with the webmcp threads it bears on. Counts are of differences in JSON "
    "Schema keywords and annotations; formtools' own keywords are in their column. The "
    "smallest page is the smallest file that raises the question."
)
_CHROMIUM_KEYWORDS_INTRO = (
    "A tool can fail on several keywords; each is counted for every tool it fails. Each "
    "keyword is a choice of Chromium's synthesis that the subset rules out."
)
_HTML_KEYWORDS_INTRO = (
    "The keywords the `html` profile uses to say exactly what HTML accepts, that the subset "
    "does not allow: a measure of what a subset-only schema cannot say (the `portable` "
    "profile says it in the description instead)."
)
_EXTENSIONS_INTRO = (
    "The `html` profile carries what JSON Schema cannot say — value sanitization, steps and "
    "their base, date and time bounds, e-mail address lists — in `x-formtools-…` keywords that "
    "formtools' validator enforces, and lists the hints it infers in "
    "`x-formtools-inferred-hints`. They differ from Chromium wherever they appear, so they are "
    "counted here, by keyword, with the rule that explains them and the question they are "
    "evidence for, and not listed as spec differences."
)
_PAGES_INTRO = (
    "Every page the report compares. The outputs themselves are "
    "`fixtures/expected/chromium/<page>.json` and `fixtures/expected/html/<page>.json` for the "
    "fixture pages (`formtools extract PAGE --profile html` for any page); the #289 column "
    "counts the tools whose schema the subset refuses."
)


# ---- small parts ---------------------------------------------------------------------------------


def _question_part(question: Question) -> str:
    return f"q-{question.id}"


def _question_link(question: Question, short: bool = False) -> Link:
    text = question.id if short else question.question.replace("`", "")
    return Link(text, _question_part(question), _question_part(question))


def _issue_links(numbers: Iterable[int]) -> Line:
    return joined(((External(f"#{n}", ISSUES[n].url),) for n in numbers), " ")


def _issue_line(number: int) -> Line:
    issue = ISSUES[number]
    return (External(f"webmcp#{number}", issue.url), " ", *marked(issue.title))


def _rule_link(rule: Explanation | None) -> Inline:
    if rule is None:
        return Strong("unexplained")
    question = question_of(rule)
    part = _question_part(question) if question else None
    return Link(rule.title, _anchor("r", rule.id), part)


def _covers(rule: Rule) -> Line:
    covers: list[Inline] = [
        *joined(((Code(keyword),) for keyword in rule.keywords), ", "),
        " " + " or ".join(sorted(rule.changes)),
    ]
    if rule.controls:
        covers.append(" on " + ", ".join(sorted(rule.controls)))
    if rule.when is not None:
        covers.append(" when " + rule.when.text)
    return tuple(covers)


def _extension_keyword(d: Difference) -> str:
    return next(part for part in d.keyword.split(".") if part.startswith("x-formtools-"))


def _chromium_why(keyword: str, side: str) -> dict[str, str]:
    if side != "chromium" or keyword not in CHROMIUM_KEYWORDS:
        return {}
    why, question = CHROMIUM_KEYWORDS[keyword]
    return {"why": why, "question": question}


def _json_difference(page: PageComparison, d: Difference) -> dict[str, Any]:
    question = question_of(d.rule)
    out: dict[str, Any] = {
        "page": page.label,
        "tool": d.tool,
        "parameter": d.parameter,
        "where": d.where,
        "keyword": d.keyword,
        "change": d.change,
        "rule": d.rule.id if d.rule else None,
        "question": question.id if question else None,
        "extension": is_extension(d),
    }
    if d.chromium is not ABSENT:
        out["chromium"] = d.chromium
    if d.html is not ABSENT:
        out["html"] = d.html
    return out


def _tool(tools: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any] | Any:
    return next((tool for tool in tools if tool["name"] == name), ABSENT)


def _definition(tool: Any) -> Any:
    """A tool's own keys and its input schema without the parameters."""
    if tool is ABSENT:
        return ABSENT
    shown = {k: v for k, v in tool.items() if k != "name"}
    shown["inputSchema"] = without_properties(shown["inputSchema"])
    return shown


def _annotations_of(tool: Any) -> Mapping[str, Any]:
    return tool.get("annotations", {}) if tool is not ABSENT else {}


def _shown(annotations: Mapping[str, Any], key: str) -> str | None:
    return _json_code(annotations[key]) if key in annotations else None


def _text(value: Any) -> str:
    return "" if value is ABSENT else dumps(value)


def _json(value: Any) -> Inline:
    return "—" if value is ABSENT else Code(_json_code(value))


def _parameter_name(parameter: str | None) -> Inline:
    return "(tool)" if parameter is None else Code(_json_code(parameter))


def _json_code(value: Any) -> str:
    """``value`` as the JSON a code span shows: a control or format character of the page's as
    its ``\\u`` escape (:func:`plain`), so the span stays JSON when the writers escape what
    remains (:func:`.report_markup.markdown`)."""
    return plain(dumps(value))


def _n(number: int) -> str:
    return f"{number:,}"


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
