"""Every command of ``clubrating --help`` has an example in the command reference, docs/cli.md: a
new command cannot land without its line there (as sqlite-utils keeps its CLI reference
complete). The examples themselves are run by tests/club/test_readme_commands.py."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from clubrating.cli import build_parser

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def commands_of(parser: argparse.ArgumentParser) -> set[str]:
    """Each command name, and ``NAME VERB`` for a command whose first argument is one of a few
    verbs (``arbiter add``, ``arbiter list``, ...)."""
    found: set[str] = set()
    for action in parser._actions:  # argparse keeps no public list of its sub-commands
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for name, sub in action.choices.items():
            found.add(name)
            verbs = next(
                (a.choices for a in sub._actions if not a.option_strings and a.choices), None
            )
            found.update(f"{name} {verb}" for verb in verbs or ())
    return found


def examples_of(text: str, known: set[str]) -> set[str]:
    """The commands (as :func:`commands_of` names them) of the ``clubrating`` lines of ``text``'s
    ``sh`` blocks; options before the command (``--database URL``) are skipped."""
    found, in_block = set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh" and not in_block
            continue
        if not in_block or not line.startswith("clubrating "):
            continue
        for part in line.split(" ; "):
            words = shlex.split(part, comments=True)[1:]
            while words and words[0].startswith("--"):
                words = words[1:] if "=" in words[0] or words[0] == "--json" else words[2:]
            if words:
                found.add(words[0])
                found.update({" ".join(words[:2])} & known)
    return found


def test_the_examples_are_read_as_commands() -> None:
    known = {"init", "arbiter", "arbiter add", "arbiter list", "demo", "merge", "unmerge"}
    text = (
        "```sh\nclubrating init 'A B'   # a club\nclubrating arbiter add x "
        "--password-stdin\nclubrating --database sqlite:///d.sqlite3 demo\nclubrating "
        "merge 3 1 ; clubrating unmerge 3\n```\nclubrating arbiter list\n"
    )
    assert examples_of(text, known) == {
        "init",
        "arbiter",
        "arbiter add",
        "demo",
        "merge",
        "unmerge",
    }


def test_the_parser_names_every_command_and_verb() -> None:
    names = commands_of(build_parser())
    assert {
        "rate",
        "init",
        "publish",
        "arbiter",
        "arbiter add",
        "arbiter remove",
        "arbiter list",
    } <= names


def test_every_command_has_an_example_in_the_command_reference() -> None:
    known = commands_of(build_parser())
    missing = sorted(known - examples_of(REFERENCE.read_text(encoding="utf-8"), known))
    assert not missing, (
        "commands without an example in docs/cli.md (add a line to one of its sh blocks): "
        + ", ".join(missing)
    )
