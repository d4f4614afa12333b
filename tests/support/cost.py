"""Work counted, not timed: the Python lines a call runs (``sys.settrace``), which do not depend
on the machine or its load. The linear-cost tests measure each shape at n and 2n with it. Work
done in C (bytes copied by ``memcpy``) is counted by :func:`pages_written`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import formtools


_WARM_UP = "<form toolname=t tooldescription=d><input name=q><button>Go</button></form>"


class OverBudget(AssertionError):
    """Raised inside the run by :func:`lines` once it has run more lines than its budget."""


def lines(run: Callable[[], Any], budget: int | None = None) -> int:
    """The Python lines ``run`` executes; past ``budget`` lines (when given) the run is stopped
    with :class:`OverBudget`, so that work that would never end (exponential) fails the test
    at once rather than hanging it."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if budget is not None and count > budget:
                raise OverBudget(f"more than {budget:,} lines run")
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


#: Run in a child by :func:`pages_written`: the child's page faults around ``run(argument)``
_PAGES_WRITTEN = """
import resource, sys
namespace = {}
exec(sys.argv[1], namespace)
argument = namespace["prepare"](int(sys.argv[2]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
namespace["run"](argument)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def pages_written(code: str, n: int) -> int:
    """The fresh memory pages ``run(prepare(n))`` writes, both defined by ``code``, in a child
    whose C library maps every allocation of 4 KiB or more on its own (``MALLOC_MMAP_THRESHOLD_``):
    each such object is then new pages, faulted in as they are written, so the count is the
    bytes copied into large objects, / 4096, on any machine under any load. The Python lines
    :func:`lines` counts miss work done in C: bytes concatenated in a loop (a head's obs-fold
    lines, 10x at 4n) run one line each, however long the bytes."""
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "4096"}
    done = subprocess.run(
        [sys.executable, "-c", _PAGES_WRITTEN, code, str(n)], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    return int(done.stdout)
