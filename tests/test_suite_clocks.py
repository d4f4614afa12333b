"""No test's verdict depends on how busy the machine is.

Tests that compared a wall-clock delta with a few seconds passed alone and failed when the suite
ran beside other work (load 8 to 20 on 2 cores): an MCP session "not blocked" by another was
0.508 s against 0.5 s, a byte cap "cut the body" in 3.37 s against 2 s, a heavy page outlasted
the client's 20 s wait. What such tests mean to check is an order (session B answered while A
still ran), a count (bytes read, matches tried) or which limit stopped the work (the error says
so), and a slow machine changes none of these. Speed goals live in benchmarks/.

This scan keeps the class out. In every test module, and every script a module keeps in a string
to run in a child process, it flags:

- an assertion that a wall-clock delta (``time.monotonic()``, ``time.perf_counter()``,
  ``time.time()``, and names and results carrying one) is below a constant under
  :data:`HANG_GUARD`, or below another such delta;
- a deadline ``clock() + c`` and an ``anyio.fail_after(c)`` or ``read_timeout_seconds=c`` with
  ``c`` under :data:`HANG_GUARD`: a polling loop or a wait whose end a loaded machine reaches;
- a wait for a process, thread or future (``wait``, ``join``, ``communicate``, ``result``,
  ``subprocess.run``'s ``timeout=``) bounded by a second or more but under :data:`HANG_GUARD`.

CPU time (``time.process_time()``) is not flagged: other processes' load leaves it alone.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: The shortest wait that is only a hang guard: a bound a loaded machine never reaches unless the
#: code under test really hangs
HANG_GUARD = 60.0
_WALL_CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns", "time_ns"}


def _is_wall_clock_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _WALL_CLOCKS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "time"
    )


def _constant(node: ast.AST) -> float | None:
    """The value of a numeric expression of constants alone (``1.5 + 0.3``), else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        if isinstance(node, ast.BinOp):
            left, right = _constant(node.left), _constant(node.right)
            if left is not None and right is not None:
                operations = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
                return operations.get(type(node.op))
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _short(node: ast.AST) -> bool:
    value = _constant(node)
    return value is not None and value < HANG_GUARD


@dataclass
class _Clocks:
    """What of one scope carries a wall-clock reading or a delta of two, found by following
    names until nothing more is found. A scope is a top-level function with every function
    inside it (a test's inner coroutines share its names), or the module's other statements;
    what the module's top-level functions return is known in all of them (``_timed``)."""

    marks: set[str]  # names bound to a reading: ``started = time.monotonic()``
    timed: set[str]  # names bound to (containers of) deltas
    returns: dict[str, set[int | None]]  # function → which of its returned tuple's items are timed (None: all)

    def has_clock(self, node: ast.AST) -> bool:
        return any(_is_wall_clock_call(n) or (isinstance(n, ast.Name) and n.id in self.marks) for n in ast.walk(node))

    def is_timed(self, node: ast.AST) -> bool:
        for inner in ast.walk(node):
            if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub) and self.has_clock(inner):
                return True
            if isinstance(inner, ast.Name) and inner.id in self.timed:
                return True
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and None in self.returns.get(inner.func.id, ()):
                return True
        return False

    def timed_items(self, value: ast.AST) -> set[int | None]:
        """Which items of the tuple ``value`` evaluates to are timed (None: all of it)."""
        if isinstance(value, ast.Tuple):
            return {index for index, item in enumerate(value.elts) if self.is_timed(item)}
        if self.is_timed(value):
            return {None}
        if isinstance(value, ast.Call):  # run(main), _timed(lambda: …): what the functions named return
            return {
                item
                for name in ast.walk(value)
                if isinstance(name, ast.Name)
                for item in self.returns.get(name.id, ())
            }
        return set()

    def size(self) -> int:
        return len(self.marks) + len(self.timed) + sum(map(len, self.returns.values()))

    def follow(self, scope: list[ast.stmt]) -> _Clocks:
        """These clocks and what ``scope``'s statements add to them."""
        clocks = _Clocks(set(self.marks), set(self.timed), {name: set(items) for name, items in self.returns.items()})
        nodes = [node for statement in scope for node in _walked(statement) if _binds(node)]
        while True:
            before = clocks.size()
            for node in nodes:
                clocks._bind(node)
            if clocks.size() == before:
                return clocks

    def _bind(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if _is_wall_clock_call(node.value):
                self.marks.update(n for t in targets for n in _names(t))
                return
            items = self.timed_items(node.value)
            for target in targets:
                if isinstance(target, ast.Tuple) and None not in items:
                    self.timed.update(n for i in items if i is not None and i < len(target.elts) for n in _names(target.elts[i]))
                elif items:
                    self.timed.update(_names(target.value if isinstance(target, ast.Subscript) else target))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "add"):
            if any(self.is_timed(argument) for argument in node.args):
                self.timed.update(_names(node.func.value))
        elif isinstance(node, ast.comprehension) and self.is_timed(node.iter):
            self.timed.update(_names(node.target))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returned = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            self.returns.setdefault(node.name, set()).update(*(self.timed_items(value) for value in returned))


def _binds(node: ast.AST) -> bool:
    """Whether ``node`` may bind a name to a reading or a delta (what ``_Clocks._bind`` reads)."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "add")
    return isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.comprehension, ast.FunctionDef, ast.AsyncFunctionDef))


@functools.lru_cache(maxsize=8192)
def _walked(statement: ast.stmt) -> tuple[ast.AST, ...]:
    """A statement's nodes, walked once for the several passes over them."""
    return tuple(ast.walk(statement))


def _names(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _scopes(tree: ast.Module) -> Iterator[tuple[list[ast.stmt], _Clocks]]:
    """Each scope of the module with its clocks."""
    defined = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    rest = [node for node in tree.body if node not in defined]
    module = _Clocks(set(), set(), {})
    while True:  # the top-level functions' returns, each followed in its own scope
        before = module.size()
        module = module.follow(rest)
        followed = [(node, module.follow([node])) for node in defined]
        for node, clocks in followed:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                module.returns.setdefault(node.name, set()).update(clocks.returns.get(node.name, set()))
        if module.size() == before:  # (so each function was followed from what the module now knows)
            break
    yield rest, module
    for node, clocks in followed:
        yield [node], clocks


def _asserted_short_bounds(tree: ast.Module) -> Iterator[int]:
    for scope, clocks in _scopes(tree):
        for statement in (node for top in scope for node in _walked(top)):
            if not isinstance(statement, ast.Assert):
                continue
            for compare in ast.walk(statement.test):
                if not isinstance(compare, ast.Compare):
                    continue
                operands = [compare.left, *compare.comparators]
                for left, operation, right in zip(operands, compare.ops, operands[1:]):
                    if isinstance(operation, (ast.Gt, ast.GtE)):
                        left, right = right, left
                    elif not isinstance(operation, (ast.Lt, ast.LtE)):
                        continue
                    if clocks.is_timed(left) and (_short(right) or clocks.is_timed(right)):
                        yield compare.lineno


def _short_waits(tree: ast.Module) -> Iterator[int]:
    for node in (node for statement in tree.body for node in _walked(statement)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if (_is_wall_clock_call(node.left) and _short(node.right)) or (_is_wall_clock_call(node.right) and _short(node.left)):
                yield node.lineno
        elif isinstance(node, ast.Call):
            named = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if named == "fail_after" and node.args and _short(node.args[0]):
                yield node.lineno
            if any(k.arg == "read_timeout_seconds" and _short(k.value) for k in node.keywords):
                yield node.lineno
            if named in _WAITS and any(_a_guard_too_short(bound) for bound in _bounds(node)):
                yield node.lineno


#: Calls whose first argument or ``timeout=`` bounds a wait for a process, a thread or a future
_WAITS = {"wait", "join", "communicate", "result", "run", "check_output", "check_call"}


def _bounds(call: ast.Call) -> list[ast.expr]:
    named = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    positional = call.args[:1] if named in ("wait", "join", "communicate", "result") else []
    return positional + [k.value for k in call.keywords if k.arg == "timeout"]


def _a_guard_too_short(bound: ast.AST) -> bool:
    """A bound of a second or more, and under :data:`HANG_GUARD`: a hang guard a loaded machine
    can reach (a shorter one is a pause, ``stopping.wait(0.05)``; a child's SIGTERM'd bridge
    parsing a heavy page outlived ``wait(10)`` under load)."""
    value = _constant(bound)
    return value is not None and 1 <= value < HANG_GUARD


def load_dependent_lines(source: str, tree: ast.Module | None = None) -> list[int]:
    """The lines of ``source`` (parsed: ``tree``) whose verdict a loaded machine can change."""
    tree = tree or ast.parse(source)
    bounds = _asserted_short_bounds(tree) if _READINGS.search(source) else iter(())  # (the costly part)
    return sorted(set(bounds) | set(_short_waits(tree)))


def _scripts(tree: ast.Module) -> Iterator[tuple[str, str, ast.Module]]:
    """The Python scripts a module keeps in module-level strings, to run in a child process."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            text = node.value.value
            if "import " not in text or not _CLUES.search(text):
                continue
            try:
                script = ast.parse(text)
            except SyntaxError:
                continue
            yield _names(node.targets[0])[0], text, script


#: What a module must hold for the scan to find anything in it (the rest are not parsed), and
#: for a delta to be followed through its names
_READINGS = re.compile(r"\btime\.(?:" + "|".join(sorted(_WALL_CLOCKS)) + r")\(")
_CLUES = re.compile(_READINGS.pattern + r"|fail_after|read_timeout_seconds|timeout=|\.wait\(|\.join\(|\.result\(")


def test_no_test_depends_on_the_machines_load() -> None:
    found: dict[str, list[int]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not _CLUES.search(source):
            continue
        tree = ast.parse(source)
        if lines := load_dependent_lines(source, tree):
            found[path.name] = lines
        for name, script, script_tree in _scripts(tree):
            if lines := load_dependent_lines(script, script_tree):
                found[f"{path.name} {name}"] = lines
    assert not found, f"check an order, a count or what stopped the work, or wait {HANG_GUARD:.0f} s or more: {found}"


def test_the_check_sees_each_shape_and_spares_hang_guards_lower_bounds_and_cpu_time() -> None:
    """The shapes this suite had, and what it may keep: a hang guard, a lower bound (no
    deadline fires early), CPU time."""
    flagged = {
        "delta": "import time\nstart = time.perf_counter()\nf()\nassert time.perf_counter() - start < 0.5\n",
        "appended": "import time\nlat = []\nt = time.perf_counter()\nlat.append(time.perf_counter() - t)\nassert max(lat) < 0.5\n",
        "returned": (
            "import time\ndef _timed(f):\n    began = time.monotonic()\n    f()\n    return 1, time.monotonic() - began\n"
            "error, took = _timed(g)\nassert error and took < 2.0\n"
        ),
        "relative": (
            "import time\ndef main():\n    s = time.perf_counter()\n    heavy = time.perf_counter() - s\n"
            "    return heavy, max([heavy])\nheavy, worst = run(main)\nassert worst < heavy / 5\n"
        ),
        "chained": "import time\nb = time.monotonic()\nassert 0.9 <= time.monotonic() - b < 2.0\n",
        "polled": "import time\nd = time.monotonic() + 5\nwhile time.monotonic() < d:\n    pass\n",
        "awaited": "import anyio\nwith anyio.fail_after(20):\n    pass\nClientSession(r, w, read_timeout_seconds=20)\n",
        "waited": "process.wait(10)\n",
        "communicated": "out, err = process.communicate(timeout=20)\n",
        "ran": "import subprocess\nsubprocess.run(['x'], timeout=30)\n",
        "joined": "writer.join(5)\n",
    }
    spared = {
        "guard": "import time\nstart = time.monotonic()\nf()\nassert time.monotonic() - start < 60\n",
        "lower bound": "import time\nstart = time.monotonic()\nf()\nassert time.monotonic() - start >= 0.9\n",
        "cpu": "import time\nstart = time.process_time()\nf()\nassert time.process_time() - start < 5\n",
        "long deadline": "import time\nd = time.monotonic() + 60\nwith anyio.fail_after(120):\n    pass\n",
        "long waits": "process.wait(60)\nsubprocess.run(['x'], timeout=120)\nstopping.wait(0.05)\n",
    }
    assert {name: bool(load_dependent_lines(source)) for name, source in flagged.items()} == dict.fromkeys(flagged, True)
    assert {name: load_dependent_lines(source) for name, source in spared.items()} == dict.fromkeys(spared, [])
