"""No test starts an event loop in a worker's main thread.

Playwright's sync API, which the browser tests' session-wide Chromium runs on, keeps an asyncio
loop marked as running in the main thread from the first browser test of a worker to its end.
``asyncio.run`` or ``anyio.run`` there then raises "Cannot run the event loop while another loop
is running", or, where a test swallows errors around it, silently does nothing: whether a test
checked what it says depended on which tests xdist had run on its worker before it. A full run
showed both (test_results' acall_tool chains failed; test_serve_interrupts' HTTP calls never
ran, two "coroutine was never awaited" warnings). ``tests.conftest.run_async`` runs a loop in a
thread of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
_LOOP_STARTERS = {("asyncio", "run"), ("anyio", "run")}


def _handed_to_threads(tree: ast.AST) -> set[str]:
    """Names of functions the module runs in a thread of their own: ``pool.submit(f, …)``,
    ``Thread(target=f)``."""
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "submit" and node.args:
            first = node.args[0]
            names.add(first.id if isinstance(first, ast.Name) else "")
        names.update(
            keyword.value.id
            for keyword in node.keywords
            if keyword.arg == "target" and isinstance(keyword.value, ast.Name)
        )
    return names


def _loops_started_in_the_main_thread(tree: ast.Module) -> list[int]:
    """Lines of ``asyncio.run(…)`` / ``anyio.run(…)`` calls not inside a function the module
    hands to a thread."""
    threaded = _handed_to_threads(tree)
    found: list[int] = []

    def visit(node: ast.AST, in_thread: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_thread = in_thread or node.name in threaded
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and (owner.id, node.func.attr) in _LOOP_STARTERS and not in_thread:
                found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, in_thread)

    visit(tree, False)
    return found


def test_no_test_starts_an_event_loop_in_the_main_thread() -> None:
    found = {
        path.name: lines
        for path in sorted(TESTS.rglob("*.py"))
        if (lines := _loops_started_in_the_main_thread(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not found, f"use tests.conftest.run_async: {found}"


def test_the_check_sees_a_loop_started_in_the_main_thread_and_not_one_in_a_thread() -> None:
    """The check itself, on the two shapes: a direct call is found, the same call inside a
    function handed to a pool or a thread is not."""
    direct = ast.parse("import anyio\ndef test_x():\n    anyio.run(main)\n")
    threaded = ast.parse(
        "import asyncio, threading\ndef work():\n    asyncio.run(main())\n"
        "def test_y(pool):\n    pool.submit(work).result()\n    threading.Thread(target=work).start()\n"
    )
    assert _loops_started_in_the_main_thread(direct) == [3]
    assert _loops_started_in_the_main_thread(threaded) == []
