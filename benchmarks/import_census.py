"""The import census of ``src/clubrating``: imports inside function bodies, the import graph
(modules, imports, imports that run against the layering of ``tests/test_layers.py``, cycles).

    python benchmarks/import_census.py            # the figures
    python benchmarks/import_census.py --list     # and every function-level import, file:line

Read with ``ast`` only (nothing is imported but the layering test's tables); the figures are in
docs/benchmarks.md.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _layers():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("test_layers", ROOT / "tests" / "test_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["test_layers"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def function_level(path: Path) -> list[int]:
    """Lines of the imports that stand inside a function's body."""
    lines: list[int] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                lines.append(child.lineno)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return lines


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def main() -> None:
    layers = _layers()
    files = sorted((SRC / "clubrating").rglob("*.py"))
    inside = {p: function_level(p) for p in files}
    per_package = Counter(
        p.relative_to(SRC / "clubrating").parts[0].removesuffix(".py")
        for p, lines in inside.items()
        for _ in lines
    )
    functions = sum(bool(v) for v in inside.values())
    graph: dict[str, set[str]] = {}
    for i in layers.ALL_IMPORTS:
        if i.importer != i.imported:
            graph.setdefault(i.importer, set()).add(i.imported)
    edges = {(i.importer, i.imported) for i in layers.ALL_IMPORTS if i.importer != i.imported}
    upward = [
        i
        for i in layers.ALL_IMPORTS
        if (layers.package_rank(i.importer) or 0) < (layers.package_rank(i.imported) or 0)
        or (
            layers.club_rank(i.importer) is not None
            and layers.club_rank(i.imported) is not None
            and layers.club_rank(i.importer) < layers.club_rank(i.imported)
        )
    ]
    found = cycles(graph)
    up_to_cli = sorted(
        {i.importer for i in layers.ALL_IMPORTS if i.imported == "clubrating.cli"}
        - {"clubrating.__main__"}
    )
    print(f"function-level imports: {sum(map(len, inside.values()))} in {functions} files")
    print("  by package: " + ", ".join(f"{k} {v}" for k, v in per_package.most_common()))
    print(f"modules: {len(layers.MODULES)}; imports between them (distinct edges): {len(edges)}")
    print(f"imports against the layering: {len(upward)}")
    for i in upward:
        print(f"  {i}")
    print(f"modules importing clubrating.cli back (besides __main__): {len(up_to_cli)}")
    print(f"cycles (strongly connected groups of modules): {len(found)}")
    for c in found:
        print("  " + " <-> ".join(c))
    if "--list" in sys.argv:
        for p, lines in inside.items():
            for line in lines:
                print(f"{p.relative_to(ROOT)}:{line}")


if __name__ == "__main__":
    main()
