"""The repository explains itself: docs/rules.md states every rule the code cites (R1-R18 of the
club rating, C1-C7 of the CPI) with where it is implemented and tested, every rule number cited
anywhere is one of those, every document, test and module a file names (``docs/...md``,
``tests/...py``, ``src/clubrating/...py``) exists, and nothing sends its reader to a document
outside the repository.

The acceptance checks and the benchmarks read real data from ``../shared/data`` beside the clone
(README.md, "The data of the acceptance checks"): reading it is no citation, so those folders, the
scripts that run them and the README may name it; nothing else may.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
CLUB_RULES = [f"R{n}" for n in range(1, 19)]
CPI_RULES = [f"C{n}" for n in range(1, 8)]

# What a reader of a clone cannot open: the design notes and the style guide that stood beside
# the project while it was written, anything under ../shared, and "practice N" of that guide.
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|\.\./shared|shared/spec|\b[Pp]ractices? \d+")
DATA = re.compile(r"\.\./shared/data\b")
# The folders whose code reads the shared data (and the README that says where it comes from).
READ_DATA = ("acceptance/", "benchmarks/", "scripts/acceptance", ".ci/", "README.md")
SEARCHED = ("src", "tests", "docs", "benchmarks", "acceptance", "scripts", ".ci")
SEARCHED_FILES = ("README.md", "pyproject.toml", "Makefile")
TEXT = {".py", ".md", ".html", ".txt", ".toml", ".cfg", ".js", ".css", ""}

# R or C and a number: a rule of docs/rules.md, unless it is one of FIDE's own Dutch criteria
# (cited as "C.04.3 C5"), a round of a TRF line ("R2 0000 - -") or a column of a table.
CITATION = re.compile(r"(?<![\w.-])([RC])([1-9]\d?)\b")
NOT_A_RULE = re.compile(r"C\.04\.3 $|criterion $|criteria $")


def repository_files() -> list[Path]:
    files = [ROOT / name for name in SEARCHED_FILES]
    for folder in SEARCHED:
        for path in (ROOT / folder).rglob("*"):
            parts = set(path.relative_to(ROOT).parts)
            if (
                path.is_file()
                and path.suffix in TEXT
                and path != Path(__file__).resolve()
                and not parts & {"__pycache__", "locale", "data", "screenshots"}
                and not any(part.endswith(".egg-info") for part in parts)
            ):
                files.append(path)
    return sorted(files)


def sections() -> dict[str, str]:
    """docs/rules.md's sections by rule number: ``### R1 Expected score`` and its text."""
    text = RULES.read_text(encoding="utf-8")
    found = {}
    for block in re.split(r"^### ", text, flags=re.M)[1:]:
        found[block.split()[0]] = block
    return found


def test_every_rule_is_stated_with_where_it_is_implemented_and_tested() -> None:
    stated = sections()
    assert list(stated) == CLUB_RULES + CPI_RULES
    for rule, text in stated.items():
        for field in ("- Code:", "- Tests:"):
            assert field in text, f"docs/rules.md {rule}: no {field!r} line"
        named = re.findall(r"`((?:src|tests|acceptance|benchmarks)/[^`]+)`", text)
        assert any(p.startswith("src/") for p in named), f"{rule}: no module named"
        assert any(p.startswith(("tests/", "acceptance/")) for p in named), f"{rule}: no test"
        missing = [p for p in named if not (ROOT / p).exists()]
        assert missing == [], f"docs/rules.md {rule} names what does not exist: {missing}"


def outside_references(path: Path, root: Path = ROOT) -> list[str]:
    relative = path.relative_to(root).as_posix()
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in OUTSIDE.finditer(line):
            data = DATA.match(line, match.start())
            if data and relative.startswith(READ_DATA):
                continue
            found.append(f"{relative}:{number}: {match.group(0)}")
    return found


def test_nothing_sends_the_reader_outside_the_repository() -> None:
    files = repository_files()
    assert len(files) > 400, "the repository's files were not found"
    found = [line for path in files for line in outside_references(path)]
    assert found == []


# A path of the repository, where any file of it names one: a document, a test, a module.
NAMED_PATH = re.compile(r"(?<![\w/.-])((?:docs|tests|src/clubrating)/[\w/.-]*\w\.(?:md|py))\b")
# Paths of other repositories, named with them.
ELSEWHERE = {"docs/KeizerForClubs.EN.md"}  # KeizerForClubs' own repository (docs/keizer.md)


def missing_paths(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for named in NAMED_PATH.findall(line):
            if named not in ELSEWHERE and not (root / named).exists():
                found.append(f"{path.relative_to(root)}:{number}: {named}")
    return found


def test_every_document_test_and_module_named_exists() -> None:
    """A module moved or a test renamed leaves no reader looking for the old path."""
    found = [line for path in repository_files() for line in missing_paths(path)]
    assert found == []


def unknown_rules(path: Path, root: Path = ROOT) -> list[str]:
    known = set(CLUB_RULES + CPI_RULES)
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for match in CITATION.finditer(line):
            if NOT_A_RULE.search(line[: match.start()]) or match.group(0) in known:
                continue
            found.append(f"{path.relative_to(root)}:{number}: {match.group(0)}")
    return found


def test_every_rule_number_cited_is_stated_in_docs_rules() -> None:
    found = [line for path in repository_files() for line in unknown_rules(path)]
    assert found == []


def test_the_checks_catch_a_reference_outside_and_an_unknown_rule(tmp_path: Path) -> None:
    # the checks themselves, on a file of each kind written for the test
    sample = tmp_path / "sample.md"
    sample.write_text(
        "see DESIGN.md\nSTYLE.md, practice 4\n../shared/spec/README.md\n../shared/data/x\n"
        "R19 and C8 are no rules; R18, C7 and C.04.3 C12 are\n",
        encoding="utf-8",
    )
    assert [r.split(": ", 1)[1] for r in outside_references(sample, tmp_path)] == [
        "DESIGN.md",
        "STYLE.md",
        "practice 4",
        "../shared",
        "../shared",
    ]
    assert [r.split(": ", 1)[1] for r in unknown_rules(sample, tmp_path)] == ["R19", "C8"]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("", encoding="utf-8")
    sample.write_text(
        "docs/here.md and docs/gone.md; see src/clubrating/club/ratings.py (moved),\n"
        "`tests/rating/test_fide.py`; not a path: mydocs/x.md\n",
        encoding="utf-8",
    )
    assert [r.split(": ", 1)[1] for r in missing_paths(sample, tmp_path)] == [
        "docs/gone.md",
        "src/clubrating/club/ratings.py",
        "tests/rating/test_fide.py",
    ]
