"""No ticket numbers, numbered work periods, references to the machine the work was done on or
commit hashes as provenance in the code, the tests or the docs: a reader outside the project
cannot look them up, so a comment, docstring or page says what and why, and a figure says how
to reproduce it (the command), not when and where it was taken."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
FOLDERS = ("src", "tests", "docs", "benchmarks", "acceptance", "scripts", ".ci")
FILES = ("README.md", "Makefile", "pyproject.toml")
# Built, so that this file does not hold what it looks for.
TICKET = re.compile(r"\b" + "is" + "sue" + r"\s+#?\d+", re.IGNORECASE)
WORK_PERIOD = re.compile(r"\b(?:" + "ses" + "sion|" + "per" + r"iod)s?\s+\d+\b", re.IGNORECASE)
MACHINE = re.compile(
    r"\b(?:this|our)\s+(?:\d+-core\s+|quiet\s+|own\s+)?" + "mach" + r"ine\b", re.IGNORECASE
)
HEX = re.compile(r"(?<![\w.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")
# A hex word is a commit hash as provenance when the words around it say so, or when it names a
# commit of this repository.
AS_COMMIT = re.compile(r"(?:commit|revision|worktree of|checkout of|\brev)\W{1,3}$", re.IGNORECASE)
# Where the machine named is the user's computer, the one the command runs on, said to the user.
MACHINE_MEANT = {
    ("src/clubrating/commands/serve.py", "not an address of"),
    ("src/clubrating/commands/serve.py", "Serve the club website (Django) on"),
    *(
        (
            f"src/clubrating/locale/{code}/LC_MESSAGES/django.po",
            "Serve the club website (Django) on",
        )
        for code in ("en", "hy", "ru")
    ),
}  # serve's description, in the catalogue


def line_of(text: str, index: int) -> tuple[int, str]:
    """The line number (1-based) of ``text[index]`` and that line."""
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text.count("\n", 0, index) + 1, text[start : end if end >= 0 else len(text)].strip()


def provenance_words(
    text: str, commits: frozenset[str] = frozenset()
) -> Iterator[tuple[int, str, str]]:
    """Each (line, what, the line) of ``text`` naming a ticket, a numbered work period, the
    machine the work was done on, or a commit (by the words before it, a ``^``/``~`` after it,
    or because it is one of ``commits``). A match may span lines: "ticket\\n 12" is found."""
    for what, pattern in (
        ("ticket number", TICKET),
        ("work period", WORK_PERIOD),
        ("machine", MACHINE),
    ):
        for match in pattern.finditer(text):
            yield *line_of(text, match.start()), what
    for match in HEX.finditer(text):
        word, after = match.group(), text[match.end() : match.end() + 1]
        if (
            word in commits
            or after in ("^", "~")
            or AS_COMMIT.search(text[max(0, match.start() - 14) : match.start()])
        ):
            yield *line_of(text, match.start()), "commit hash"


def repository_commits(words: set[str]) -> frozenset[str]:
    """Those of ``words`` that name a commit of the checkout's repository (none without git)."""
    if not words or not (CHECKOUT / ".git").exists():
        return frozenset()
    ordered = sorted(words)
    try:
        done = subprocess.run(
            ["git", "-C", str(CHECKOUT), "cat-file", "--batch-check"],
            input="".join(word + "\n" for word in ordered),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return frozenset()
    answers = (
        done.stdout.splitlines()
    )  # one a word, in order: "<sha> commit <size>", "<word> missing", ...
    if len(answers) != len(ordered):
        return frozenset()
    return frozenset(
        word for word, answer in zip(ordered, answers) if answer.split()[1:2] == ["commit"]
    )


def test_the_patterns_find_provenance_and_nothing_else() -> None:
    ticket, period, machine = "Is" + "sue", "ses" + "sion", "mach" + "ine"
    found = lambda text: [(n, what) for n, _, what in provenance_words(text)]  # noqa: E731
    assert found(f"x\n# {ticket} 12: the evening\n") == [(2, "ticket number")]
    assert found(f"({ticket.lower()} #4)") and found(f"before {ticket.lower()}\n   11 both")
    assert found(f"measured in {period} 3") == [(1, "work period")]
    assert found(f"on this 2-core {machine}, quiet") == [(1, "machine")] and found(
        f"on this {machine}"
    )
    commit = "3abf" + "652"
    assert found(f"the `src` of a worktree of {commit}^") == [(1, "commit hash")]
    assert found(f"as of commit {commit}d, the rate") == [(1, "commit hash")]
    assert [what for _, _, what in provenance_words(f"fixed in {commit}", frozenset({commit}))] == [
        "commit hash"
    ]
    assert not found(
        "no issues found; 12 tissues; an issue of 2024-style dates; 2 sessions; a session cookie"
    )
    assert not found("a 2-core machine; the machine's load; a period of 30 days; a login session")
    assert not found(
        "WIN = -0.00368208; colour #ffcc00; uuid 550e8400-e29b-41d4; sha256 " + "ab12" * 16
    )


def text_files() -> Iterator[tuple[str, str]]:
    paths = [CHECKOUT / name for name in FILES]
    for folder in FOLDERS:
        paths += sorted((CHECKOUT / folder).rglob("*"))
    for path in paths:
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            yield str(path.relative_to(CHECKOUT)), path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: a database, an image


def test_no_file_names_a_ticket_a_work_period_the_machine_or_a_commit() -> None:
    files = list(text_files())
    commits = repository_commits({word for _, text in files for word in HEX.findall(text)})
    found = []
    for name, text in files:
        for n, line, what in provenance_words(text, commits):
            if what == "machine" and any(
                name == path and phrase in line for path, phrase in MACHINE_MEANT
            ):
                continue
            found.append(f"{name}:{n}: {what}: {line}")
    assert not found, "provenance an outside reader cannot look up:\n" + "\n".join(found)
