"""Work counted, not timed: the Python lines a call runs (``sys.settrace``), which do not depend
on the machine or its load. The linear-cost tests measure each shape at n and 2n with it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import formtools


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
    """The lines extracting ``page``'s tools runs."""
    return lines(lambda: formtools.extract_tools(page, parser=parser))  # type: ignore[arg-type]
