"""The pure packages import no Django, no database, no subprocess and no engine
(docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "clubrating"
PURE = ("rating", "identity", "formats", "tournament", "cpi")
FORBIDDEN = (
    "django",
    "sqlite3",
    "subprocess",
    "psycopg",
    "chess.engine",
    "clubrating.club",
    "clubrating.web",
    "clubrating.analysis",
    "multiprocessing",
    "socket",
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", PURE)
def test_pure_package_imports_nothing_impure(package: str) -> None:
    files = sorted((SRC / package).rglob("*.py"))
    assert files, f"{package} has no modules"
    offenders = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in files
        for name in imported_modules(path)
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)
    ]
    assert offenders == []


@pytest.mark.parametrize("package", PURE)
def test_pure_package_does_no_file_io_of_its_own(package: str) -> None:
    offenders = []
    for path in sorted((SRC / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "open"
            ):
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno} calls open()")
    assert offenders == []
