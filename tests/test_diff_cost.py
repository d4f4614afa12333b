"""``formtools diff``'s text: a unified diff of the two tool lists, in work linear in their size.

difflib matched the two pretty-printed lists whole, in time quadratic in the lines that differ
(2,000 tools all differing: 10 s; one tool with 8,000 parameters differing: 25 s; an enum of
8,000 values, every other one differing: 3 s). The lists are now cut into pieces that correspond
by the JSON's structure (a tool to the tool of its name, a key's value to the same key's, a
list's member to the same member) and matched piece by piece. Held here: the work difflib does
(the lines its longest-match search scans, counted) at n and 2n for seeded shapes, and, for
seeded pairs of tool lists, that the diff is one a patch tool applies: it turns Chromium's text
into formtools' line for line, and is empty exactly when the two are equal.
"""

from __future__ import annotations

import difflib
import random
import re
import unicodedata
from typing import Any

import pytest

from formtools._conformance.diff import unified_diff
from formtools._spec.jsjson import dumps, plain


def _tools(rng: random.Random, count: int, parameters: int, tag: str) -> list[dict[str, Any]]:
    tools = []
    for number in range(count):
        properties = {
            f"p{index}": {"type": rng.choice(["string", "number"]), "description": f"{number}.{index}{tag}"}
            for index in range(parameters)
        }
        tools.append(
            {
                "name": f"t{number:05}",
                "title": "",
                "description": f"d{number}{tag}",
                "inputSchema": {"type": "object", "properties": properties, "required": list(properties)},
                "annotations": {"autosubmit": False},
            }
        )
    return tools


SHAPES = {
    # every tool differs (a description each)
    "many tools": lambda rng, n: (_tools(rng, n, 3, "A"), _tools(rng, n, 3, "B")),
    # one tool, every parameter differs
    "many parameters": lambda rng, n: (_tools(rng, 1, n, "A"), _tools(rng, 1, n, "B")),
    # one enum, every other value differs (the same values between)
    "enum": lambda rng, n: tuple(
        [{"name": "t", "inputSchema": {"properties": {"s": {"enum": [f"v{i}{tag * (i % 2)}" for i in range(4 * n)]}}}}]
        for tag in "AB"
    ),
    # half the tools only one side has, the other half the same
    "tools on one side": lambda rng, n: (
        _tools(rng, n, 2, "A"),
        _tools(rng, n, 2, "A")[::2] + [dict(t, name=f"u{t['name']}") for t in _tools(rng, n // 2, 2, "C")],
    ),
}


def _scanned(chromium: list[Any], formtools: list[Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """The lines difflib's longest-match search scans while the diff is made."""
    scanned = 0
    search = difflib.SequenceMatcher.find_longest_match

    def counting(self: Any, alo: int = 0, ahi: Any = None, blo: int = 0, bhi: Any = None) -> Any:
        nonlocal scanned
        scanned += (len(self.a) if ahi is None else ahi) - alo
        return search(self, alo, ahi, blo, bhi)

    with monkeypatch.context() as patched:
        patched.setattr(difflib.SequenceMatcher, "find_longest_match", counting)
        unified_diff(chromium, formtools)
    return scanned


@pytest.mark.parametrize("shape", SHAPES)
def test_the_diff_costs_linear_work(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    work = []
    for n in (400, 800):
        chromium, formtools = SHAPES[shape](random.Random(n), n)
        lines = len(dumps(chromium, pretty=True).splitlines()) + len(dumps(formtools, pretty=True).splitlines())
        work.append(_scanned(chromium, formtools, monkeypatch) / lines)
    assert work[1] <= 1.3 * work[0] + 2, f"{shape}: lines scanned per line {work}"


def _patched(before: list[str], diff: str) -> list[str]:
    """``before`` with the unified ``diff`` applied as GNU patch applies one: lines end at
    ``\n`` alone, each hunk's line counts are those of its lines, every hunk changes something
    (patch refuses one of context alone as malformed), every context and removed line checked."""
    if not diff:
        return before
    lines = diff.split("\n")
    assert lines[0].startswith("--- chromium: ") and lines[1].startswith("+++ formtools: ")
    after: list[str] = []
    at = 0
    hunks = [index for index, line in enumerate(lines) if line.startswith("@@ ")] + [len(lines)]
    for start, end in zip(hunks, hunks[1:]):
        hunk = re.fullmatch(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@", lines[start])
        assert hunk, lines[start]
        body = lines[start + 1 : end]
        assert sum(line[0] in " -" for line in body) == int(hunk[2] or 1), lines[start]
        assert sum(line[0] in " +" for line in body) == int(hunk[3] or 1), lines[start]
        assert any(line[0] in "-+" for line in body), f"a hunk of context alone: {lines[start]}"
        first = int(hunk[1]) - (hunk[2] != "0")
        assert first >= at
        after += before[at:first]
        at = first
        for line in body:
            kind, text = line[0], line[1:]
            if kind in " -":
                assert before[at] == text, (at, line)
                at += 1
            if kind in " +":
                after.append(text)
    return after + before[at:]


#: string leaves: ASCII, and the characters JSON leaves unescaped that str.splitlines() ends a
#: line at (U+2028, U+2029, U+0085) or a terminal runs or hides (C1's CSI, U+202E, a tag)
STRINGS = ["a", "b", "\u2028", "x\u2029y", "\x85", "é", "\x9b31m", "\u202e", "\U000e0041"]


def _value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice([1, 2, 1.5, *STRINGS, True, None, [], {}])
    if roll < 0.7:
        return {rng.choice("abcdef"): _value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _changed(rng: random.Random, value: Any) -> Any:
    if isinstance(value, dict):
        changed = {k: _changed(rng, v) if rng.random() < 0.9 else _value(rng, 2) for k, v in value.items() if rng.random() > 0.1}
        if rng.random() < 0.2:
            changed[rng.choice("abcdefg")] = _value(rng, 2)
        return changed
    if isinstance(value, list):
        changed_list = [_changed(rng, v) for v in value if rng.random() > 0.1]
        if rng.random() < 0.2:
            changed_list.insert(rng.randint(0, len(changed_list)), _value(rng, 2))
        return changed_list
    return value if rng.random() < 0.8 else _value(rng, 3)


def test_the_diff_turns_chromiums_text_into_formtools() -> None:
    """1,500 seeded pairs of tool lists (tools renamed, dropped, added twice; keys dropped,
    added, reordered; values changed at every depth; strings holding line separators that
    JSON does not escape). Before: 216 of 500 such diffs were refused by GNU patch (a hunk of
    context alone, where the run of equal lines crossed pieces), and U+2028 cut lines; a C1
    control or a bidirectional override in a page's string reached the terminal as it was
    (the text is now the JSON with them escaped, jsjson.plain)."""
    rng = random.Random(27)
    for _ in range(1500):
        chromium = [
            {"name": f"t{rng.randint(0, 6)}", "description": rng.choice("de"), "inputSchema": _value(rng, 0)}
            for _ in range(rng.randint(0, 5))
        ]
        formtools = [_changed(rng, tool) for tool in chromium if rng.random() > 0.1]
        if rng.random() < 0.3:
            formtools.insert(rng.randint(0, len(formtools)), {"name": "t0", "inputSchema": _value(rng, 0)})
        before, after = (plain(dumps(side, pretty=True)).split("\n") for side in (chromium, formtools))
        diff = unified_diff(chromium, formtools)
        assert (diff == "") == (before == after)
        assert _patched(before, diff) == after, diff
        assert not any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in diff.replace("\n", ""))
