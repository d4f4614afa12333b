"""The conformance report's evidence for webmcp#289: how many pages' schemas would pass the
JSON Schema subset it proposes — Chromium's, the ``html`` profile's, the ``portable`` profile's —
and, for those that fail, which keywords make them fail.

The check is :func:`formtools._spec.schema_subset.subset_violations` (the meta-schema shipped as
data) run on each tool's ``inputSchema``. A page fails when one of its tools does: a browser
implementing #289 would reject that tool's ``registerTool()``. Why Chromium writes each keyword
is said by :data:`CHROMIUM_KEYWORDS`, and tied to the question of
:mod:`.report_questions` it bears on, because that is what the spec discussion needs: which of
its own choices the subset rules out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from formtools._spec.schema_subset import Violation, subset_violations
from formtools._synth.tool import thaw

__all__ = [
    "CHROMIUM_KEYWORDS",
    "KeywordTally",
    "SideTally",
    "SubsetSample",
    "SubsetPage",
    "tally_side",
]

#: Why Chromium's schemas carry a keyword the subset refuses, and the question it bears on.
CHROMIUM_KEYWORDS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "anyOf": (
            "a select's options and a radio group's buttons, as `{type, const, title}` entries "
            "beside the `enum` (`const` and `title` are outside the subset too)",
            "option-labels",
        ),
        "format": (
            "`format: date` for a date; a regular expression in `format` for time, "
            "datetime-local, month, week and color",
            "formats",
        ),
        "multipleOf": (
            "the `step` of a number or range input, when the step base is a multiple of it",
            "numbers",
        ),
        "uniqueItems": (
            "the array of a checkbox group or a `<select multiple>`: each value at most once",
            "options",
        ),
    }
)


@dataclass(frozen=True)
class SubsetPage:
    """One page's tools on one side: ``label`` names the page, ``size`` is its length in bytes
    (the smallest page is the example), ``tools`` are tool definitions (``to_dict()`` shape,
    frozen or not)."""

    label: str
    size: int
    tools: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class KeywordTally:
    """How many tools and pages one refused keyword fails, and the smallest such page."""

    keyword: str
    tools: int
    pages: int
    smallest: str


@dataclass(frozen=True)
class SideTally:
    """One side's schemas under the subset: pages and tools, how many fail, by which keyword
    (most tools first), and each failing page with its failing tools' keywords."""

    side: str
    pages: int
    pages_failing: int
    tools: int
    tools_failing: int
    keywords: tuple[KeywordTally, ...]
    failing: tuple[tuple[str, int, tuple[str, ...]], ...]  # (page, tools failing, keywords)

    @property
    def pages_passing(self) -> int:
        return self.pages - self.pages_failing


@dataclass(frozen=True)
class SubsetSample:
    """The same tallies on pages that are not the report's own (the generated sample
    ``scripts/make_report.py`` adds): ``description`` says which pages, ``note`` how their
    sides were computed; texts mark code with backticks."""

    description: str
    note: str
    sides: tuple[SideTally, ...]


def tally_side(side: str, pages: Sequence[SubsetPage]) -> SideTally:
    """Run the subset check on every tool of ``pages`` and count."""
    tools = tools_failing = 0
    tools_by_keyword: Counter[str] = Counter()
    pages_by_keyword: dict[str, list[SubsetPage]] = {}
    failing: list[tuple[str, int, tuple[str, ...]]] = []
    for page in pages:
        page_keywords: dict[str, None] = {}
        page_failing = 0
        for tool in page.tools:
            tools += 1
            keywords = _keywords(subset_violations(thaw(tool["inputSchema"])))
            if keywords:
                page_failing += 1
                tools_by_keyword.update(keywords)
                page_keywords.update(dict.fromkeys(keywords))
        tools_failing += page_failing
        for keyword in page_keywords:
            pages_by_keyword.setdefault(keyword, []).append(page)
        if page_failing:
            failing.append((page.label, page_failing, tuple(page_keywords)))
    tallies = tuple(
        KeywordTally(
            keyword,
            count,
            len(pages_by_keyword[keyword]),
            min(pages_by_keyword[keyword], key=lambda page: (page.size, page.label)).label,
        )
        for keyword, count in sorted(tools_by_keyword.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    return SideTally(
        side, len(pages), len(failing), tools, tools_failing, tallies, tuple(failing)
    )


def _keywords(violations: Sequence[Violation]) -> tuple[str, ...]:
    """The distinct keywords of a tool's violations, in order."""
    return tuple(dict.fromkeys(violation.keyword for violation in violations))
