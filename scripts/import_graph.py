"""Numbers of formtools' import graph: modules, internal import edges, cycles, levels, largest module.

The architecture issue measured the flat layout with these numbers; this script measures any
tree the same way (``python scripts/import_graph.py [SRC_DIR]``), so before and after compare.
Every ``import`` counts, lazy and ``TYPE_CHECKING`` ones included: a cycle hidden in a function
body is still a cycle of the design.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(tree: ast.AST, name: str, is_package: bool, known: set[str]) -> set[str]:
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            result.append(component)

    sys.setrecursionlimit(10_000)
    for node in graph:
        if node not in index:
            visit(node)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", nargs="?", default=str(Path(__file__).resolve().parent.parent / "src"))
    src = Path(parser.parse_args().src)
    files = sorted((src / "formtools").rglob("*.py"))
    names = {module_name(path, src): path for path in files}
    known = set(names)
    graph = {
        name: imported_modules(
            ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", known
        )
        for name, path in names.items()
    }
    # the package __init__ re-exports the public API: it is the top, not a dependency of anyone
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    condensed = {m: i for i, c in enumerate(strongly_connected(graph)) for m in c}
    levels: dict[str, int] = {}

    def level(node: str, seen: frozenset[str] = frozenset()) -> int:
        if node not in levels:
            below = [o for o in graph[node] if condensed[o] != condensed[node] and o not in seen]
            levels[node] = 1 + max((level(o, seen | {node}) for o in below), default=0)
        return levels[node]

    depth = max(level(name) for name in graph)
    largest = max(files, key=lambda p: len(p.read_text(encoding="utf-8").splitlines()))
    print(f"modules:        {len(files)}")
    print(f"import edges:   {sum(len(v) for v in graph.values())}")
    print(f"cycles:         {len(cycles)} {cycles if cycles else ''}")
    print(f"import levels:  {depth}")
    print(
        f"largest module: {largest.relative_to(src)} "
        f"({len(largest.read_text(encoding='utf-8').splitlines())} lines)"
    )


if __name__ == "__main__":
    main()
