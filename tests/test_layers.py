"""One direction of dependency: every import of ``clubrating`` points down.

Every module is read with ``ast`` (imports at the top and inside functions,
``import x`` and ``from x import y``, relative imports); an import of a module
in a higher layer fails the test, naming the file, the line and the import.

The order of the packages (a package may import its own layer and the ones
before it):
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "clubrating"

PACKAGE_LAYERS: list[tuple[str, ...]] = [
    ("errors", "__init__", "words"),  # the version, the error types, counted nouns
    ("formats", "identity"),  # pure readers and names
    ("rating", "cpi", "tournament", "files"),  # pure rules, and the files they read
    ("analysis",),  # the engine shell
    ("djangoenv",),  # Django set up
    ("club",),  # the Django app: history, services, jobs
    ("web",),  # views
    ("demo",),  # the simulator, self-play and the demo club's build
    ("commands", "cli", "settings", "wsgi", "__main__"),  # the outer shell
]
"""Packages (and top-level modules) of ``clubrating``, lowest first."""

CLUB_LAYERS: list[tuple[str, str]] = [
    ("store", "the tables and migrations, the signals, the club's lock, the audit log"),
    ("read", "reads of stored rows, one module per subject, and the rating policy"),
    ("derived", "the ratings replay, the CPI ledger, their rebuild, the card, coach, fair play"),
    ("services", "every write, split by subject, the evening and its pairing changes included"),
    ("jobs", "background jobs: the engine analysis, its tasks, RQ workers and leases"),
    ("ops", "the installation as a whole: backup and restore, health"),
]
"""The folders of ``clubrating.club``, lowest first: a module's layer is its folder on disk."""

CLUB_WIRING = ("apps", "rq_jobs")
"""The only modules of ``clubrating.club`` outside a folder, above every layer: the app's wiring
(``apps`` connects the jobs' receivers of the services' signals when Django starts) and the RQ
jobs' old dotted names (``rq_jobs``: jobs queued in Redis by earlier versions name it)."""

CLUB = SRC / ROOT / "club"


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    imported: str  # dotted module name
    path: Path
    line: int
    text: str  # the statement as written

    def __str__(self) -> str:
        return f"{self.path.relative_to(SRC.parent)}:{self.line}: {self.text}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted((SRC / ROOT).rglob("*.py"))}


def _resolve(importer: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".") if path.name == "__init__.py" else importer.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(importer: str, path: Path) -> list[Import]:
    """Every import of a ``clubrating`` module in the file, wherever it stands."""
    found: list[Import] = []
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(importer, path, node)
            # ``from package import submodule`` imports the submodule
            targets = [
                f"{module}.{a.name}" if f"{module}.{a.name}" in MODULES else module
                for a in node.names
            ]
        else:
            continue
        text = ast.get_source_segment(source, node) or ""
        found += [
            Import(importer, t, path, node.lineno, " ".join(text.split()))
            for t in dict.fromkeys(targets)
            if t == ROOT or t.startswith(ROOT + ".")
        ]
    return found


ALL_IMPORTS = [i for name, path in MODULES.items() for i in imports_of(name, path)]


def _top(module: str) -> str:
    """The package (or top-level module) of ``clubrating`` a module belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def package_rank(module: str) -> int | None:
    return next((rank for rank, layer in enumerate(PACKAGE_LAYERS) if _top(module) in layer), None)


def club_rank(module: str) -> int | None:
    """The rank of a module of ``clubrating.club``: its folder's, or the wiring's above them."""
    if not module.startswith(f"{ROOT}.club."):
        return None
    first = module.removeprefix(f"{ROOT}.club.").split(".")[0]
    if first in CLUB_WIRING and f"{ROOT}.club.{first}" == module:
        return len(CLUB_LAYERS)
    return next((rank for rank, (folder, _) in enumerate(CLUB_LAYERS) if folder == first), None)


def club_layer_name(rank: int) -> str:
    return CLUB_LAYERS[rank][0] if rank < len(CLUB_LAYERS) else "the wiring"


def test_the_club_folders_on_disk_are_its_layers() -> None:
    """Every folder of ``club/`` is a layer and every layer a folder; no module stands loose
    beside them but the wiring."""
    folders = {p.name for p in CLUB.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    loose = {p.stem for p in CLUB.glob("*.py")} - {"__init__"}
    assert folders == {folder for folder, _ in CLUB_LAYERS}
    assert loose == set(CLUB_WIRING)


def test_every_module_has_a_layer() -> None:
    missing = [
        name
        for name in MODULES
        if package_rank(name) is None
        or (name.startswith(f"{ROOT}.club.") and club_rank(name) is None)
    ]
    assert missing == [], "modules without a layer: add them to PACKAGE_LAYERS or CLUB_LAYERS"


def test_packages_import_only_their_layer_and_those_below() -> None:
    upward = [
        f"{i} ({_top(i.importer)} may not import {_top(i.imported)})"
        for i in ALL_IMPORTS
        if (package_rank(i.importer) or 0) < (package_rank(i.imported) or 0)
    ]
    assert upward == []


def test_club_modules_import_only_their_layer_and_those_below() -> None:
    upward = []
    for i in ALL_IMPORTS:
        mine, theirs = club_rank(i.importer), club_rank(i.imported)
        if mine is not None and theirs is not None and mine < theirs:
            upward.append(f"{i} ({club_layer_name(mine)} may not import {club_layer_name(theirs)})")
    assert upward == []


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_no_module_of_the_club_imports_itself_through_others() -> None:
    graph: dict[str, set[str]] = {}
    for i in ALL_IMPORTS:
        if (
            club_rank(i.importer) is not None
            and club_rank(i.imported) is not None
            and i.importer != i.imported
        ):
            graph.setdefault(i.importer, set()).add(i.imported)
    cycle = _cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])


def test_the_checker_sees_imports_inside_functions_and_relative_ones(tmp_path: Path) -> None:
    package = tmp_path / "src" / ROOT / "club" / "derived"
    package.mkdir(parents=True)
    module = package / "ratings.py"
    module.write_text(
        "from ..store import models\n\ndef f():\n    from ..services import publish\n"
        "    import clubrating.club.jobs.tasks\n",
        encoding="utf-8",
    )
    found = [(i.imported, i.line) for i in imports_of("clubrating.club.derived.ratings", module)]
    assert found == [
        ("clubrating.club.store.models", 1),
        ("clubrating.club.services", 4),
        ("clubrating.club.jobs.tasks", 5),
    ]


APART = [("derived.ratings", "derived.ledger")]
"""Derived data rebuilt side by side: neither imports the other; ``derived.rebuild`` calls both,
in order."""


def test_the_ratings_and_the_ledger_meet_only_in_history() -> None:
    crossing = [
        str(i)
        for one, other in APART
        for a, b in ((one, other), (other, one))
        for i in ALL_IMPORTS
        if i.importer == f"{ROOT}.club.{a}" and i.imported == f"{ROOT}.club.{b}"
    ]
    assert crossing == []


DEMO_REACH = {"simulate": "rating", "selfplay": "analysis"}
"""The highest package each module of ``clubrating.demo`` may import: the simulator is pure,
self-play drives the engine; only the build (``demo.build``) stores a club."""


def demo_rank(module: str) -> int | None:
    """A module's package rank, the simulator and self-play counted at the layer they may reach."""
    top = DEMO_REACH.get(module.removeprefix(f"{ROOT}.demo."))
    return (
        package_rank(f"{ROOT}.{top}")
        if module.startswith(f"{ROOT}.demo.") and top
        else package_rank(module)
    )


def test_the_demos_simulator_is_pure_and_its_self_play_stores_nothing() -> None:
    upward = [
        str(i)
        for i in ALL_IMPORTS
        if i.importer.removeprefix(f"{ROOT}.demo.") in DEMO_REACH
        and (demo_rank(i.importer) or 0) < (demo_rank(i.imported) or 0)
    ]
    assert upward == []


def test_no_module_imports_itself_through_others() -> None:
    graph: dict[str, set[str]] = {}
    for i in ALL_IMPORTS:
        if i.importer != i.imported:
            graph.setdefault(i.importer, set()).add(i.imported)
    cycle = _cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])


def test_no_command_imports_the_command_line_back() -> None:
    # what the verbs share with cli.py lives below both (commands/output.py)
    assert [i for i in ALL_IMPORTS if i.imported == "clubrating.cli"] == [
        i for i in ALL_IMPORTS if i.importer == "clubrating.__main__"
    ]


# Imports inside functions: the few left where a module may not import at its top (Django's
# apps before their models, what a command imports only after it has set Django up on its
# database, the optional queue libraries, the engine's and numpy's users below a light caller);
# benchmarks/import_census.py --list names each, docs/architecture.md says why. Lower this
# ceiling as they go; never raise it without saying why there.
FUNCTION_LEVEL_CEILING = 32


def function_level_imports(path: Path) -> list[int]:
    found: list[int] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                found.append(child.lineno)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_imports_inside_functions_stay_under_the_ceiling() -> None:
    counted = sum(len(function_level_imports(path)) for path in MODULES.values())
    assert function_level_imports(SRC / ROOT / "cli.py") == []
    assert counted <= FUNCTION_LEVEL_CEILING, (
        f"{counted} imports inside functions (ceiling {FUNCTION_LEVEL_CEILING}): move the new "
        "ones to the top of their module (benchmarks/import_census.py --list)"
    )
