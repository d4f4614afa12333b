"""Work counted, not timed: the Python lines a call runs (``sys.settrace``), which do not depend
on the machine or its load. The linear-cost tests measure each shape at n and 2n with it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import formtools


_WARM_UP = "<form toolname=t tooldescription=d><input name=q><button>Go</button></form>"


def lines(run: Callable[[], Any]) -> int:
    """The Python lines ``run`` executes."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(None)
    return count


def extraction_lines(page: str, parser: str = "auto") -> int:
    """The lines extracting ``page``'s tools runs (after a first, uncounted extraction of a
    small page: the stages' lazy imports and regex compilation would count otherwise)."""
    formtools.extract_tools(_WARM_UP, parser=parser)  # type: ignore[arg-type]
    return lines(lambda: formtools.extract_tools(page, parser=parser))  # type: ignore[arg-type]


def lines_after_the_parse(page: str, parser: str = "auto") -> int:
    """The lines extracting the tools of ``page``, parsed beforehand and uncounted, runs: for a
    question about the stages after the parse (forms, sections, labels), whose counted work the
    parse's own would drown unless the page were many times larger (and slower) than the
    question needs."""
    formtools.extract_tools(formtools.parse_html(_WARM_UP, parser=parser))  # type: ignore[arg-type]
    document = formtools.parse_html(page, parser=parser)  # type: ignore[arg-type]
    return lines(lambda: formtools.extract_tools(document))
