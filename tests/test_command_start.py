"""A command's start imports only what the command uses: ``--help`` and the commands that read a
club import none of the heavy libraries of the commands that analyse, fit, match or pair
(docs/testing.md, "The start of a command"; a few hundred ``clubrating`` processes a test run).

Each command runs in a new Python process on a club of one published tournament, with an import
hook that records who imported each heavy module first, so that a failure names the chain.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
