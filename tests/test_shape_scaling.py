"""The scaling search: generated page shapes cost work linear in their size, counted, not timed.

``tests/support/shapes.py`` builds shapes from ~100 fragments of form markup (every listed
control, labels, fieldsets, selects, datalists, radio groups, ``form=`` owners, tables, misnested
formatting elements, templates, SVG, MathML, long and many attributes, shared ids…) under five
combinators (side by side, nested, interleaved, misnested, closed in order). Each entry point
(extraction on both parse paths, lint, every profile, ``validate_input`` and ``prepare_call``
with inputs growing with n, the batch's JSON line) is counted (``sys.settrace``) at n, 2n and
4n: the work added by the second doubling may be at most 2.5 times the work added by the first
(linear work: 2, quadratic: 4, whatever a call's constant cost). A nested shape may cost at most
4 times the same fragments side by side. ``FORMTOOLS_SCALING_SHAPES`` (default 6) and
``FORMTOOLS_SCALING_SEED`` vary the search; a deep run is ``FORMTOOLS_SCALING_SHAPES=2500``.

Work done in C (lexbor, libxml2, ``re``, ``bytes`` searches) is invisible to a line count: the
shapes the search found slow only in C are pinned here by counting what the C calls are given.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from support.cost import extraction_lines, lines
from support.shapes import (
    ENTRY_POINTS,
    FORM,
    Shape,
    deep_stack_page,
    deep_stacks,
    false_closing_page,
    false_closings,
    shapes,
)

from formtools._parse import fast, scan

SHAPE_COUNT = int(os.environ.get("FORMTOOLS_SCALING_SHAPES", "6"))
SEED = int(os.environ.get("FORMTOOLS_SCALING_SEED", "16"))
SIZE = 8  # n: each shape is counted at 8, 16 and 32 repeats (nesting stays below Blink's cap)


def _counted(run: Callable[[str, int], object], page: str, n: int) -> int:
    run(page, n)  # warm-up: lazy imports and compiled regexes are not the shape's cost
    return lines(lambda: run(page, n))


@pytest.mark.parametrize("shape", shapes(SHAPE_COUNT, SEED), ids=lambda shape: shape.name)
def test_generated_shapes_cost_linear_work(shape: Shape) -> None:
    for entry, run in ENTRY_POINTS.items():
        small, middle, large = (_counted(run, shape.page(n), n) for n in (SIZE, 2 * SIZE, 4 * SIZE))
        assert large - middle <= 2.5 * max(middle - small, 1), (entry, small, middle, large)
        if shape.combinator != "side by side" and entry in ("extract html5lib", "validate html"):
            side_by_side = _counted(run, shape.side_by_side(4 * SIZE), 4 * SIZE)
            assert large <= 4 * side_by_side, (entry, large, side_by_side)


def test_strings_holding_marks_do_not_each_search_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a character reference on the page makes a mark's character is asked where a
    string the skeleton reads held a mark (tag-like text in an attribute value): the page was
    searched once per such string. The bytes those searches read must double with n."""
    searched = []

    class _CountedPattern:
        def search(self, page: bytes) -> object:
            searched.append(len(page))
            return pattern.search(page)

    pattern = fast._MARK_REFERENCE
    monkeypatch.setattr(fast, "_MARK_REFERENCE", _CountedPattern())
    counts = []
    for n in (500, 1_000):
        searched.clear()
        controls = "".join(f"<input name=q{i} title='<input x'>" for i in range(n))
        assert fast.fast_document(f"<form toolname=t tooldescription=d>{controls}</form>") is not None
        counts.append(sum(searched))
    assert counts[1] < 2.3 * counts[0], counts


class _ScannedBytes(bytes):
    """The lowered page, counting the bytes each ``part in page`` may read (in C)."""

    scanned = 0

    def __contains__(self, part: object) -> bool:
        _ScannedBytes.scanned += len(self)
        return bytes.__contains__(self, part)  # type: ignore[operator]


def test_dir_auto_elements_do_not_each_search_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ``dir=auto`` element the fast path copied searched the whole page for ``dirname``:
    2,400 ``<div dir=auto>`` took 0.47 s in lexbor's path (n² bytes read in C, linear in lines).
    The bytes the page's searches read must double with n."""
    lowered = fast.lowered
    monkeypatch.setattr(fast, "lowered", lambda data: _ScannedBytes(lowered(data)))
    counts = []
    for n in (1_000, 2_000):
        _ScannedBytes.scanned = 0
        assert fast.fast_document(Shape("side by side", ("dir auto",)).page(n).encode()) is not None
        counts.append(_ScannedBytes.scanned)
    assert counts[1] < 2.3 * counts[0], counts


def _lexbor_parses(page: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times the fast path had lexbor parse ``page``."""
    parses = 0
    parser = fast.LexborHTMLParser

    def counted(*args: object, **options: object) -> object:
        nonlocal parses
        parses += 1
        return parser(*args, **options)

    with monkeypatch.context() as patched:
        patched.setattr(fast, "LexborHTMLParser", counted)
        fast.fast_document(page.encode())
    return parses


DEEP_STACKS = deep_stacks(6, SEED)


@pytest.mark.parametrize("deepener, walker", DEEP_STACKS, ids=[" then ".join(pair) for pair in DEEP_STACKS])
def test_pages_lexbor_would_walk_quadratically_do_not_reach_it(
    deepener: str, walker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lexbor walks the stack of open elements for most tags (an element in scope? a template on
    the stack?): 16,000 ``<span>`` then 16,000 ``<input>`` took 1.0 s in lexbor alone, 32,000
    6.0 s, ``<table><form><tr><td>`` x 16,000 2.0 s. Such a page goes to the exact path before
    lexbor sees it (the screen reads its tags once, its counted lines at most a fixed number a
    tag); the same shape a sixteenth as deep still takes lexbor (1,000 deep costs it little)."""
    page = deep_stack_page(deepener, walker, 16_000)
    assert _lexbor_parses(page, monkeypatch) == 0
    low = page.encode().lower()
    assert lines(lambda: scan.lexbor_walks_too_far(low)) < 30 * low.count(b"<")
    assert _lexbor_parses(deep_stack_page(deepener, walker, 1_000), monkeypatch) == 1


FALSE_CLOSINGS = false_closings(SEED)


@pytest.mark.parametrize(
    "closing, deepener, walker", FALSE_CLOSINGS, ids=[" / ".join(triple) for triple in FALSE_CLOSINGS]
)
def test_a_deep_stack_under_an_element_the_parser_keeps_does_not_reach_lexbor(
    closing: str, deepener: str, walker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen's estimate closed elements the parser keeps open: a table part outside a
    table (which the parser ignores) closed by a later cell, row or end tag, a heading closed by
    the end tag of another level's (which closes the topmost heading), an SVG or MathML <a>,
    <button> or <td> closed by another (foreign content implies no end tag). Under each, a deep
    stack then tags that walk it reached lexbor: <caption>, 16,000 <span>, </caption>, 16,000
    <input> took it 6.7 s (0.19 s at 4,000); each of the 188 triples passed the screen. The same
    pages a sixteenth as deep still take lexbor."""
    assert _lexbor_parses(false_closing_page(closing, deepener, walker, 16_000), monkeypatch) == 0
    assert _lexbor_parses(false_closing_page(closing, deepener, walker, 1_000), monkeypatch) == 1


#: Deep stacks an estimate that pops an element for each end tag of its name, or counts only
#: start tags, would not see: (page at n).
HIDDEN_DEPTH: dict[str, Callable[[int], str]] = {
    "end tags the parser ignores (a special element above)": lambda n: (
        ("<span>" * 50 + "<div>" + "</span>" * 50) * (n // 50) + "<input name=w>" * n
    ),
    "formatting elements the parser reopens": lambda n: (
        "<div>" + "".join(f"<b id=b{i}>" for i in range(n)) + "</div>x" + "<input name=w>" * n
    ),
    "misnested formatting (the adoption agency keeps the depth)": lambda n: "<b><div></b>" * n + "<input>" * n,
}


@pytest.mark.parametrize("shape", list(HIDDEN_DEPTH))
def test_a_deep_stack_the_end_tags_seem_to_close_does_not_reach_lexbor(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lexbor alone at 16,000: 1.1 s, 3.9 s, 1.4 s. The screen's estimate pops only where the
    standard's walk reaches an element and counts the formatting elements that may be reopened."""
    assert _lexbor_parses(FORM.format(HIDDEN_DEPTH[shape](16_000)), monkeypatch) == 0


EXACT_DEEP_STACKS = deep_stacks(3, SEED + 1)


@pytest.mark.parametrize(
    "deepener, walker", EXACT_DEEP_STACKS, ids=[" then ".join(pair) for pair in EXACT_DEEP_STACKS]
)
def test_the_exact_path_takes_linear_work_on_deep_stacks(deepener: str, walker: str) -> None:
    """The exact path, where a page whose deep stack lexbor would walk goes, answers "in
    scope?" from its counted stack, and an end tag no open element has at once, in HTML or in
    SVG and MathML: ``<svg><g>`` x 600 then ``</b>`` x 600 walked every ``<g>`` per end tag
    (2,114,932 -> 7,830,832 lines at 300 -> 600)."""
    small, large = (extraction_lines(deep_stack_page(deepener, walker, n), parser="html5lib") for n in (300, 600))
    assert large < 2.3 * small, (small, large)
