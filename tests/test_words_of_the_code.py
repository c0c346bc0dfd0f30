"""No ticket numbers in the code, the tests or the docs: a reader outside the project cannot look
them up, so a comment or docstring says what and why instead of pointing at a ticket."""

from __future__ import annotations

import re
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
FOLDERS = ("src", "tests", "docs", "benchmarks", "acceptance")
FILES = ("README.md", "Makefile", "pyproject.toml")
# Built, so that this file does not hold what it looks for.
TICKET = re.compile(r"\b" + "is" + "sue" + r"\s+#?\d+", re.IGNORECASE)


def ticket_numbers(text: str) -> list[tuple[int, str]]:
    """Each line (1-based) of ``text`` that names a ticket by its number, with the line."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if TICKET.search(line)]


def test_the_pattern_finds_a_ticket_number_and_nothing_else() -> None:
    word = "Is" + "sue"
    assert ticket_numbers(f"x\n# {word} 12: the evening\n") == [(2, f"# {word} 12: the evening")]
    assert ticket_numbers(f"({word.lower()} #4)")
    assert not ticket_numbers("no issues found; 12 tissues; an issue of 2024-style dates")


def test_no_file_names_a_ticket_number() -> None:
    found = []
    paths = [CHECKOUT / name for name in FILES]
    for folder in FOLDERS:
        paths += sorted((CHECKOUT / folder).rglob("*"))
    for path in paths:
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue   # binary: a database, an image
        found += [f"{path.relative_to(CHECKOUT)}:{n}: {line}" for n, line in ticket_numbers(text)]
    assert not found, "ticket numbers an outside reader cannot look up:\n" + "\n".join(found)
