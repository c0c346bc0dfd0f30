"""docs/architecture.md cannot drift from the code: its table of packages names every package and
top-level module of ``src/clubrating`` and nothing else, its table of the club app's folders
names every folder of ``club/`` (lowest layer first, as tests/test_layers.py orders them) and
nothing else, its account of the command line names every module of ``commands/``, and every path
it names in backticks exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SRC = ROOT / "src" / "clubrating"
CLUB = SRC / "club"

# a table's first cell: one backticked name, as in "| `club/store/` | ..."
FIRST_CELL = re.compile(r"^\| `([^`]+)` \|", re.M)
# a backticked path: a folder (``docs/``), a file (``x/y.py``, ``a.md``) or a path with a slash
PATH = re.compile(r"`([\w.-]+(?:/[\w.-]*)+|[\w.-]+\.(?:py|md))`")


def section(text: str, title: str) -> str:
    """The text under ``## title`` up to the next section of the same level."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_names(text: str, title: str) -> list[str]:
    return FIRST_CELL.findall(section(text, title))


def packages_on_disk() -> list[str]:
    folders = [f"{p.name}/" for p in SRC.iterdir() if (p / "__init__.py").exists()]
    return sorted(folders + [p.name for p in SRC.glob("*.py")])


def club_folders_on_disk() -> list[str]:
    return sorted(f"club/{p.name}/" for p in CLUB.iterdir() if (p / "__init__.py").exists())


def club_layers() -> list[str]:
    """The folders of ``club/`` in tests/test_layers.py's order (``CLUB_LAYERS``)."""
    tree = ast.parse((ROOT / "tests" / "test_layers.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "CLUB_LAYERS":
            assert node.value is not None
            return [f"club/{folder}/" for folder, _ in ast.literal_eval(node.value)]
    raise AssertionError("tests/test_layers.py has no CLUB_LAYERS")


def missing_paths(text: str) -> list[str]:
    """Backticked paths that name nothing: looked for from the repository, ``src/clubrating``
    and ``docs/``; a bare file name in a table's row, in the folder that row names."""
    missing = set()
    for line in text.splitlines():
        row = FIRST_CELL.match(line)
        folder = SRC / row.group(1) if row and row.group(1).endswith("/") else None
        for path in PATH.findall(line):
            bases = (ROOT, SRC, ROOT / "docs")
            if folder is not None and "/" not in path:
                bases = (folder,)
            if not any((base / path).exists() for base in bases):
                missing.add(path)
    return sorted(missing)


def test_the_table_of_packages_names_every_package_and_module_there_is() -> None:
    named = table_names(DOC.read_text(encoding="utf-8"), "The packages")
    assert len(named) == len(set(named)), "a package named twice"
    assert sorted(named) == packages_on_disk()


def test_the_table_of_club_folders_names_every_folder_in_layer_order() -> None:
    named = table_names(DOC.read_text(encoding="utf-8"), "The club app's folders")
    assert sorted(named) == club_folders_on_disk()
    assert named == club_layers()


def test_every_module_of_the_commands_is_named_where_the_command_line_translates() -> None:
    text = section(
        DOC.read_text(encoding="utf-8"), "Where the command line and the website translate"
    )
    named = set(re.findall(r"`([\w/.]+)`", text))
    modules = {p.stem for p in (SRC / "commands").glob("*.py")} - {"__init__"}
    missing = {m for m in modules if m not in named and f"commands/{m}.py" not in named}
    assert sorted(missing) == []


def test_every_path_the_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert len(PATH.findall(text)) > 40, "the doc's paths were not found"
    assert missing_paths(text) == []


def test_the_checks_see_a_package_too_many_or_missing_and_a_path_that_is_gone() -> None:
    sample = (
        "# T\n\n## The packages\n\n| Package | What |\n| --- | --- |\n| `rating/` | pure |\n"
        "| `gone/` | nothing |\n\n## Other\n\n| `web/` | not this table |\n"
        "See `club/store/models.py`, `club/store/old.py`, `tests/test_layers.py` and `x.md`.\n"
        "| `club/store/` | `models.py`, `ratings.py` |\n"
    )
    assert table_names(sample, "The packages") == ["rating/", "gone/"]
    assert missing_paths(sample) == ["club/store/old.py", "gone/", "ratings.py", "x.md"]
    assert "gone/" not in packages_on_disk() and "rating/" in packages_on_disk()
