"""``formtools diff``: where formtools and the installed Chromium disagree about a page's tools.

The same bytes go to both: Chromium loads them from a local server (WebMCP needs a secure
context, which ``http://127.0.0.1`` is) and is asked twice; formtools parses them once. The
report is a unified diff of the two pretty-printed tool lists.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from formtools._spec.limits import MAX_PAGE_BYTES
from formtools._spec.jsjson import dumps, plain
from formtools._parse import parse_html
from formtools._parse.sources import read_page
from formtools._synth.synthesize import synthesize

if TYPE_CHECKING:
    from formtools._conformance.browser import ChromiumOracle

__all__ = ["DiffReport", "browser_diff", "unified_diff"]


@dataclass(frozen=True)
class DiffReport:
    """The comparison of one page: ``identical`` is true only when Chromium's answer was stable
    and equal to formtools' byte for byte."""

    identical: bool
    stable: bool
    text: str


def unified_diff(chromium: list[Any], formtools: list[Any], label: str = "page") -> str:
    """A readable diff of two tool lists, compared as canonical pretty JSON.

    difflib matches lines in time quadratic in the lines that differ (2,000 tools all differing:
    10 s, 4,000: 40 s), so the two texts are first cut into pieces that correspond by the JSON's
    structure (a tool to the tool of its name, a key's value to the same key's, a list's member
    to the same member), and difflib matches only within a piece; the hunks are then those of
    one unified diff."""
    # lines end at "\n" alone: str.splitlines also ends one at a U+2028, U+2029 or U+0085 in a
    # string (JSON leaves them unescaped), which cut a description in two, and the hunks' line
    # numbers no longer matched the text a patch tool reads
    # plain: the text goes to a terminal, and a page's strings hold what JSON.stringify leaves
    # unescaped (C1 controls, bidirectional overrides: see formtools._spec.jsjson.plain)
    expected = plain(dumps(chromium, pretty=True)).split("\n")
    actual = plain(dumps(formtools, pretty=True)).split("\n")
    opcodes: list[_Opcode] = []
    for a_lo, a_hi, b_lo, b_hi in _pieces(chromium, 0, formtools, 0):
        matcher = difflib.SequenceMatcher(None, expected[a_lo:a_hi], actual[b_lo:b_hi])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal" and opcodes and opcodes[-1][0] == "equal":
                # one run across pieces, as difflib's grouping expects: two equal opcodes in a
                # row made a hunk of context alone, which patch refuses as malformed
                opcodes[-1] = ("equal", opcodes[-1][1], a_lo + i2, opcodes[-1][3], b_lo + j2)
                continue
            opcodes.append((tag, a_lo + i1, a_lo + i2, b_lo + j1, b_lo + j2))
    lines: list[str] = []
    for group in _Matched(opcodes).get_grouped_opcodes(3):
        if not lines:
            lines += [f"--- chromium: {label}", f"+++ formtools: {label}"]
        first, last = group[0], group[-1]
        lines.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
        for kind, i1, i2, j1, j2 in group:
            if kind == "equal":
                lines += [" " + line for line in expected[i1:i2]]
                continue
            lines += ["-" + line for line in expected[i1:i2]]
            lines += ["+" + line for line in actual[j1:j2]]
    return "\n".join(lines)


_Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]


class _Matched(difflib.SequenceMatcher[str]):
    """difflib's grouping of opcodes into hunks, over opcodes matched piece by piece."""

    def __init__(self, opcodes: list[_Opcode]) -> None:
        super().__init__(None, [], [])
        self._opcodes = opcodes

    def get_opcodes(self) -> list[_Opcode]:
        return self._opcodes


def _range(start: int, stop: int) -> str:
    """A hunk's line range as ``diff -u`` writes it (difflib's rule)."""
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start + 1 if length else start},{length}"


def _lines(value: Any) -> int:
    """How many lines ``dumps(value, pretty=True)`` takes (strings hold no line break)."""
    if isinstance(value, dict) and value:
        return 2 + sum(_lines(member) for member in value.values())
    if isinstance(value, list) and value:
        return 2 + sum(_lines(member) for member in value)
    return 1


def _members(value: Any) -> list[tuple[Any, Any]] | None:
    """The members of a JSON value by what pairs them across the two sides: an object's by key,
    a list of tools by name, another list's by their JSON text (an ``enum``'s values); each
    list member also by its occurrence of that (a name twice: a script's tool, say). None for
    what is compared whole."""
    if isinstance(value, dict) and value:
        return list(value.items())
    if not isinstance(value, list) or not value:
        return None
    tools = all(isinstance(member, dict) and "name" in member for member in value)
    seen: Counter[str] = Counter()
    keyed = []
    for member in value:
        text = dumps(member["name"] if tools else member)
        seen[text] += 1
        keyed.append(((tools, text, seen[text]), member))
    return keyed


def _pieces(a: Any, a_at: int, b: Any, b_at: int) -> Iterator[tuple[int, int, int, int]]:
    """Line ranges of the two pretty texts that correspond, in order, covering both: the values
    ``a`` (its first line at ``a_at``) and ``b`` cut at the members both have in the same order,
    each such pair cut again; what lies between is a piece of its own."""
    a_end, b_end = a_at + _lines(a), b_at + _lines(b)
    ours, theirs = _members(a), _members(b)
    if ours is None or theirs is None or type(a) is not type(b) or a == b:
        yield a_at, a_end, b_at, b_end
        return
    b_place = {key: index for index, (key, _) in enumerate(theirs)}
    a_line, b_line = a_at + 1, b_at + 1  # after the opening line
    b_starts = [b_line]
    for _, member in theirs:
        b_starts.append(b_starts[-1] + _lines(member))
    gap_a, gap_b, next_b = a_at, b_at, 0  # (the first gap holds the opening lines)
    for key, member in ours:
        index = b_place.get(key, -1)
        if index >= next_b:  # in both, in the same order: the pair is cut on its own
            if (gap_a, gap_b) != (a_line, b_starts[index]):
                yield gap_a, a_line, gap_b, b_starts[index]
            yield from _pieces(member, a_line, theirs[index][1], b_starts[index])
            gap_b = b_starts[index + 1]
            gap_a = a_line + _lines(member)
            next_b = index + 1
        a_line += _lines(member)
    yield gap_a, a_end, gap_b, b_end  # the members after the last pair, and the closing line
def browser_diff(
    source: str, *, base_url: str | None = None, oracle: ChromiumOracle | None = None, max_bytes: int = MAX_PAGE_BYTES
) -> DiffReport:
    """Compare the page's tools in Chromium (``oracle``, else a browser of its own) with
    formtools'. Tools a script registered (``registerTool``) are listed, not compared: formtools
    runs no scripts."""
    from formtools._conformance.browser import ChromiumOracle

    raw = read_page(source, base_url=base_url, max_bytes=max_bytes)
    content_type = raw.content_type or "text/html"
    if oracle is None:
        with ChromiumOracle() as own:
            answer = own.stable_tools(raw.body, content_type=content_type)
    else:
        answer = oracle.stable_tools(raw.body, content_type=content_type)
    document = parse_html(raw.body, url=raw.url, content_type=raw.content_type, source=raw.label)
    ours = [tool.to_dict() for tool in synthesize(document).tools]
    if not answer.stable:
        text = "Chromium gave two different answers for this page (its registration is racy):\n"
        text += unified_diff(answer.runs[0], answer.runs[1], raw.label)
        return DiffReport(identical=False, stable=False, text=text)
    declared = [tool for tool in answer.tools if not tool.get("script")]
    scripts = "".join(
        f"\n{raw.label}: {tool['name']}: script tool, not compared"
        for tool in answer.tools
        if tool.get("script")
    )
    text = unified_diff(declared, ours, raw.label)
    if not text:
        return DiffReport(True, True, f"{raw.label}: identical ({len(ours)} tool(s))" + scripts)
    return DiffReport(False, True, text + scripts)
