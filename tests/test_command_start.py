"""A command's start imports only what the command uses: ``--help`` and the commands that read a
club import none of the heavy libraries of the commands that analyse, fit, match or pair
(docs/testing.md, "The start of a command"; a few hundred ``clubrating`` processes a test run).

Each command runs in a new Python process on a club of one published tournament, with an import
hook that records who imported each heavy module first, so that a failure names the chain.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clubrating.commands import VERBS

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
TRF = ROOT / "tests" / "club" / "readme" / "tuesday.trf"
HEAVY = (
    "numpy",
    "chess",
    "rapidfuzz",
    "pairing_core",
    "caissify_pairings",
    "tiebreak_core",
    "clubrating.analysis.engine",
)

# Runs clubrating's main() with the arguments given; prints {heavy module: the importers' chain}.
WATCH = """
import builtins, json, sys
heavy, chains, importers = json.loads(sys.argv[1]), {}, []
original = builtins.__import__
def watched(name, globals=None, locals=None, fromlist=(), level=0):
    importers.append((globals or {}).get("__name__", "?"))
    try:
        return original(name, globals, locals, fromlist, level)
    finally:   # the innermost import that finds the module loaded: the chain to it is on the stack
        for module in heavy:
            if module in sys.modules and module not in chains:
                chain = []
                for step in importers:
                    if step == module or step.startswith(module + "."):
                        break
                    if not step.startswith(("importlib", "_")) and (not chain or chain[-1] != step):
                        chain.append(step)
                chains[module] = chain + [module]
        importers.pop()
builtins.__import__ = watched
from clubrating.cli import main
try:
    status = main(sys.argv[2:])
except SystemExit as exit:
    status = exit.code
sys.stdout.flush()
print(json.dumps({"status": status, "chains": chains}), file=sys.stderr)
"""

BUILD = """
import sys
from clubrating.cli import main
url, trf = sys.argv[1:]
links = [["link", "1", "--new", str(n)] for n in range(1, 10)]
steps = [["init", "Riverside"], ["import", trf]] + links
for words in steps + [["publish", "1"]]:
    assert main(["--database", url, *words]) == 0, words
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('start') / 'club.sqlite3'}"
    subprocess.run(
        [sys.executable, "-c", BUILD, url, str(TRF)],
        env=ENV,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return url


def heavy_imports(*words: str) -> dict[str, list[str]]:
    run = subprocess.run(
        [sys.executable, "-c", WATCH, json.dumps(HEAVY), *words],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(run.stderr.splitlines()[-1])
    assert report["status"] in (0, None), run.stderr
    chains: dict[str, list[str]] = report["chains"]
    return chains


def test_the_help_imports_no_heavy_library() -> None:
    chains = heavy_imports("--help")
    assert chains == {}, "\n".join(
        f"{module} <- {' -> '.join(chain)}" for module, chain in chains.items()
    )


@pytest.mark.parametrize(
    "words",
    [
        ["ratings"],
        ["ratings", "--json"],
        ["player", "1"],
        ["audit"],
        ["entries", "1"],
        ["settings"],
    ],
    ids=" ".join,
)
def test_a_command_that_reads_the_club_imports_no_heavy_library(
    club: str, words: list[str]
) -> None:
    chains = heavy_imports("--database", club, *words)
    assert chains == {}, "\n".join(
        f"{module} <- {' -> '.join(chain)}" for module, chain in chains.items()
    )


def test_the_watch_names_the_chain_of_a_command_that_needs_a_heavy_library(club: str) -> None:
    # the tournament's table computes its tie-breaks (tiebreak-core) when the command runs
    chains = heavy_imports("--database", club, "tournament", "1")
    assert "tiebreak_core" in chains
    assert chains["tiebreak_core"][-2:] == ["clubrating.tournament.standings", "tiebreak_core"]


# Sets Django up on a new database, schema included, as a command does; prints the heavy modules
# then loaded and the command modules (none: the app imports no command).
SETUP = """
import json, sys
from clubrating import djangoenv
djangoenv.setup(sys.argv[2], migrate=True, must_exist=False)
heavy = [m for m in json.loads(sys.argv[1]) if m in sys.modules]
commands = sorted(m for m in sys.modules if m.startswith("clubrating.commands"))
print(json.dumps({"heavy": heavy, "commands": commands}))
"""


def test_django_s_setup_imports_no_heavy_library(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    run = subprocess.run(
        [sys.executable, "-c", SETUP, json.dumps(HEAVY), url],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report == {"heavy": [], "commands": []}


# Runs the command line, then prints the modules it imported whose names start with argv[1].
IMPORTED = """
import json, sys
from clubrating.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(sys.argv[1]))))
"""


def modules_imported(prefix: str, *words: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", IMPORTED, prefix, *words],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    imported: list[str] = json.loads(run.stdout.splitlines()[-1])
    return imported


def commands_imported(*words: str) -> list[str]:
    return modules_imported("clubrating.commands", *words)


@pytest.mark.parametrize(
    "words", [["ratings"], ["player", "1"], ["audit"], ["settings"]], ids=" ".join
)
def test_a_command_that_shows_no_cpi_imports_neither_the_cpi_nor_its_ledger(
    club: str, words: list[str]
) -> None:
    # the start compares each club's mark of the CPI rules with this version's in one query
    # (club/apps.py); the ledger and the CPI's rules come only with a club scored by others
    imported = modules_imported("clubrating.c", "--database", club, *words)
    cpi = [m for m in imported if m.startswith(("clubrating.cpi.", "clubrating.club.derived."))]
    assert cpi == ["clubrating.cpi.version"]


def test_the_help_imports_neither_django_nor_the_database_urls_reader() -> None:
    # --help, rate and analyze use no database: the database URL is read by Django's settings
    imported = modules_imported("d", "--help")
    assert [m for m in imported if m.split(".")[0] in ("django", "dj_database_url")] == []
    assert "dj_database_url" in modules_imported("d", "--database", "sqlite:///:memory:", "audit")


def test_the_help_imports_no_command_module_and_a_verb_its_own() -> None:
    shared = ["clubrating.commands", "clubrating.commands.argparse_words"]
    assert commands_imported("--help") == shared + ["clubrating.commands.output"]
    assert commands_imported("rate", "--help") == sorted(
        shared + ["clubrating.commands.output", "clubrating.commands.rate"]
    )


def test_the_verbs_table_is_what_the_modules_register(monkeypatch: pytest.MonkeyPatch) -> None:
    from clubrating.cli import build_parser, common_options
    from clubrating.commands import MODULES, VERBS

    for module in MODULES:
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers()
        importlib.import_module(module).register(subparsers, common_options())
        assert list(subparsers.choices) == [v.name for v in VERBS if v.path == module]
    for language in ("en_US.UTF-8", "ru_RU.UTF-8", "hy_AM.UTF-8"):
        monkeypatch.setenv("LANG", language)
        # clubrating --help from the table alone is the help of the parser of every module
        assert build_parser("").format_help() == build_parser().format_help()


@pytest.mark.parametrize(
    "module", sorted({v.path for v in VERBS if not v.django}), ids=lambda m: m.split(".")[-1]
)
def test_a_module_marked_without_django_imports_without_it(module: str) -> None:
    code = (
        f"import sys, {module}; from django.apps import apps; "
        "assert not apps.ready and 'clubrating.club.store.models' not in sys.modules"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
