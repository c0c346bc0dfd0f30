"""The hostile-input suite, command line: every command that reads a value or a file, given what
an attacker would type or upload (tests/web/hostile_inputs.py). Each must end in success or in
exit 2 with one error line: never a traceback, never a write when it refused (the whole database
compared before and after), and a control character always refused.

Every command of ``clubrating --help`` and every option of it that takes a value is covered
here or listed in NO_INPUT with the reason: a command or option added later fails
test_every_command_and_option_is_covered_or_listed until it is. In-process (``cli.main``) on
pytest-django's database, each input rolled back after; ``CLUBRATING_HOSTILE_EXAMPLES`` draws more
(derandomized in CI by tests/conftest.py)."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gzip
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from clubrating.cli import build_parser, main
from clubrating.club.services import evening as ev
from clubrating.club.store.models import Club, Member, Tournament
from clubrating.club.services.monthly_lists import publish_month

from .conftest import WHO
from .hostile_inputs import (
    COUNTS,
    bounded,
    record,
    has_control,
    hostile_archive,
    hostile_file,
    hostile_text,
)

EXAMPLES = int(os.environ.get("CLUBRATING_HOSTILE_EXAMPLES", "2"))
NO_SHRINK = (
    Phase.explicit,
    Phase.reuse,
    Phase.generate,
)  # each failure says its input; shrinking a slow one costs minutes

GOOD = {
    "csv": (
        "# event: Night\n# date: 2024-03-05\nround,white,black,result\n1,Anna "
        "Smith,Zed New,1-0\n1,Bob Jones,Carl Berg,0-1\n"
    ),
    "trf": (
        "012 Night\n042 2024/03/05\n001    1      Anna Smith                                "
        "  1500                             1.0    1     2 w 1\n001    2      Bob Jones     "
        "                              1400                             0.0    2     1 b 0\n"
    ),
    "pgn": (
        '[Event "Tuesday Rapid"]\n[Date "2024.01.09"]\n[Round "1"]\n[White "Anna Smith"]\n[Black '
        '"Bob Jones"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    ),
    "list": "name,rating,games\nAnna Smith,1500,10\nZed New,1300,0\n",
    "names": "Anna Smith\nA. Smith\nBob Jones\n",
    "weights": "",  # made from the club's weight names (weights_file)
    "backup": "SQLite format 3\x00" + "\x00" * 84,
}

# command -> its argv templates; {V} the hostile value, {F:kind} a hostile file of that kind,
# {G:kind} a good one, {OUT} a path under the test's folder named by the value (written by the
# command, so never outside it), {T} the published evening, {D} a draft with names to link,
# {E} an evening being run, {M} and {M2} two members.
CLI: dict[str, list[list[str]]] = {
    "rate": [
        ["rate", "{F:csv}"],
        ["rate", "{F:trf}"],
        ["rate", "{G:csv}", "--prior", "{F:list}"],
        ["rate", "{G:csv}", "--junior", "{V}"],
        ["rate", "{G:csv}", "--policy", "{V}"],
    ],
    "init": [
        ["init", "{V}"],
        ["init", "Hostile Club", "--slug", "{V}"],
        ["init", "Zone Club", "--time-zone", "{V}"],
        ["init", "Policy Club", "--policy", "{V}"],
        ["init", "Slug Club", "--club", "{V}"],
    ],
    "import": [
        ["import", "{F:csv}"],
        ["import", "{F:trf}"],
        ["import", "{F:pgn}"],
        ["import", "{G:csv}", "--name", "{V}"],
        ["import", "{G:csv}", "--date", "{V}"],
        ["import", "{G:csv}", "--club", "{V}"],
    ],
    "publish": [["publish", "{V}"], ["publish", "{D}", "--club", "{V}"]],
    "unpublish": [["unpublish", "{V}"], ["unpublish", "{T}", "--club", "{V}"]],
    "delete": [["delete", "{V}"], ["delete", "{D}", "--club", "{V}"]],
    "correct": [
        ["correct", "{V}", "1", "Anna Smith", "1-0"],
        ["correct", "{T}", "{V}", "Anna Smith", "1-0"],
        ["correct", "{T}", "1", "{V}", "1-0"],
        ["correct", "{T}", "1", "Anna Smith", "{V}"],
        ["correct", "{T}", "1", "Anna Smith", "0-1", "--club", "{V}"],
    ],
    "redate": [
        ["redate", "{T}", "{V}"],
        ["redate", "{V}", "2024-01-10"],
        ["redate", "{T}", "2024-01-10", "--club", "{V}"],
    ],
    "tournament": [["tournament", "{V}"], ["tournament", "--club", "{V}"]],
    "entries": [["entries", "{V}"], ["entries", "{D}", "--club", "{V}"]],
    "link": [
        ["link", "{D}", "{V}", "Anna Smith"],
        ["link", "{D}", "2", "{V}"],
        ["link", "{D}", "--new", "{V}"],
        ["link", "{V}", "--all-new"],
        ["link", "{D}", "--all-new", "--club", "{V}"],
    ],
    "merge": [
        ["merge", "{V}", "{M}"],
        ["merge", "{M}", "{V}"],
        ["merge", "{M}", "{M2}", "--club", "{V}"],
    ],
    "duplicates": [["duplicates", "--min-score", "{V}"], ["duplicates", "--club", "{V}"]],
    "distinct": [
        ["distinct", "{V}", "{M}"],
        ["distinct", "{M}", "{V}"],
        ["distinct", "{M}", "{M2}", "--club", "{V}"],
    ],
    "unmerge": [["unmerge", "{V}"], ["unmerge", "{M}", "--club", "{V}"]],
    "member": [
        ["member", "{V}", "--junior", "yes"],
        ["member", "{M}", "--name", "{V}"],
        ["member", "{M}", "--junior", "{V}"],
        ["member", "{M}", "--consent", "{V}"],
        ["member", "{M}", "--consent", "yes", "--club", "{V}"],
        ["member", "{M}", "--left", "{V}"],
        ["member", "{V}", "--returned"],
    ],
    "rebuild": [["rebuild", "--club", "{V}"]],
    "ratings": [["ratings", "--list", "{V}"], ["ratings", "--club", "{V}"]],
    "monthly": [
        ["monthly", "{V}"],
        ["monthly", "show", "{V}"],
        ["monthly", "publish", "{V}"],
        ["monthly", "publish", "2024-02", "--list", "{V}", "--replace"],
        ["monthly", "show", "2024-02", "--list", "{V}"],
        ["monthly", "list", "--club", "{V}"],
    ],
    "player": [["player", "{V}"], ["player", "{M}", "--club", "{V}"]],
    "audit": [["audit", "--page", "{V}"], ["audit", "--limit", "{V}"], ["audit", "--club", "{V}"]],
    "privacy": [
        ["privacy", "--visibility", "{V}"],
        ["privacy", "--names", "{V}"],
        ["privacy", "--club", "{V}"],
    ],
    "settings": [
        ["settings", "{V}"],
        ["settings", "k_new={V}"],
        ["settings", "start_rating={V}"],
        ["settings", "time_zone={V}"],
        ["settings", "{V}=1"],
        ["settings", "--club", "{V}"],
    ],
    "seed-ratings": [["seed-ratings", "{F:list}"], ["seed-ratings", "{G:list}", "--club", "{V}"]],
    "match": [
        ["match", "{V}"],
        ["match", "--names", "{F:names}"],
        ["match", "Anna", "--roster", "{F:names}"],
        ["match", "Anna", "--limit", "{V}"],
        ["match", "Anna", "--club", "{V}"],
    ],
    "analyze": [
        ["analyze", "{F:pgn}", "--nodes", "200"],
        ["analyze", "{G:pgn}", "--nodes", "{V}"],
        ["analyze", "{G:pgn}", "--nodes", "200", "--jobs", "{V}"],
        ["analyze", "{G:pgn}", "--nodes", "200", "--cache", "{OUT}"],
        ["analyze", "{G:pgn}", "--nodes", "200", "--preset", "{V}"],
    ],
    "arbiter": [
        ["arbiter", "{V}"],
        ["arbiter", "add", "{V}", "--club", "riverside", "--password-stdin"],
        ["arbiter", "add", "olga", "--club", "{V}", "--password-stdin"],
        ["arbiter", "add", "olga", "--club", "riverside", "--password-stdin", "<{V}"],
        ["arbiter", "reset", "{V}", "--club", "riverside"],
    ],
    "analyse-club": [
        ["analyse-club", "--nodes", "{V}"],
        ["analyse-club", "--jobs", "{V}"],
        ["analyse-club", "--club", "{V}"],
    ],
    "analyse": [
        ["analyse", "--nodes", "{V}"],
        ["analyse", "--jobs", "{V}"],
        ["analyse", "--club", "{V}"],
    ],
    "cpi": [["cpi", "{V}"], ["cpi", "{M}", "--club", "{V}"]],
    "cpi-weights": [
        ["cpi-weights", "--set", "{V}"],
        ["cpi-weights", "--set", "{W}={V}"],
        ["cpi-weights", "--preset", "{V}"],
        ["cpi-weights", "--load", "{F:weights}"],
        ["cpi-weights", "--club", "{V}"],
    ],
    "fairplay": [["fairplay", "--games", "{V}"], ["fairplay", "--club", "{V}"]],
    "coach": [
        ["coach", "{V}"],
        ["coach", "{M}", "--factor", "{V}"],
        ["coach", "{M}", "--limit", "{V}"],
        ["coach", "{M}", "--club", "{V}"],
    ],
    "calibrate": [
        ["calibrate", "{F:pgn}", "--nodes", "200", "--out", "{OUT}"],
        *(
            [
                ["calibrate", "{G:pgn}", "--nodes", "200", option, "{V}"]
                for option in (
                    "--pool",
                    "--time-control",
                    "--nodes",
                    "--jobs",
                    "--folds",
                    "--min-plies",
                    "--window",
                )
            ]
        ),
        *(
            [
                ["calibrate", "{G:pgn}", "--nodes", "200", option, "{OUT}"]
                for option in ("--cache", "--store", "--out")
            ]
        ),
    ],
    "moves-links": [
        ["moves-links", "{V}"],
        ["moves-links", "{E}", "--make", "{V}"],
        ["moves-links", "{E}", "--make", "1", "--site", "{V}"],
        ["moves-links", "{E}", "--revoke", "{V}"],
        ["moves-links", "{E}", "--club", "{V}"],
    ],
    "moves": [
        ["moves", "{V}"],
        ["moves", "{T}", "{F:pgn}"],
        ["moves", "{T}", "--round", "{V}", "--player", "Anna Smith", "--typed", "1. e4"],
        ["moves", "{T}", "--round", "1", "--player", "{V}", "--typed", "1. e4"],
        ["moves", "{T}", "--round", "1", "--player", "Anna Smith", "--typed", "{V}"],
        ["moves", "{T}", "{G:pgn}", "--club", "{V}"],
    ],
    "restore": [["restore", "{F:backup}"], ["restore", "{G:backup}", "--club", "{V}"]],
    "status": [["status", "--club", "{V}"]],
    "evening": [
        ["evening", "start", "{V}", "--date", "2024-03-12"],
        ["evening", "start", "Night", "--date", "{V}"],
        ["evening", "start", "Night", "--date", "2024-03-12", "--rounds", "{V}"],
        ["evening", "start", "Night", "--date", "2024-03-12", "--system", "{V}"],
        ["evening", "start", "Night", "--date", "2024-03-12", "--time-control", "{V}"],
        ["evening", "register", "{E}", "{V}"],
        ["evening", "{V}", "{E}"],
        ["evening", "show", "{V}"],
        ["evening", "pair", "{E}", "--order", "{V}"],
        ["evening", "pair", "{E}", "--seed", "{V}"],
        ["evening", "result", "{E}", "{V}", "1-0"],
        ["evening", "result", "{E}", "1", "{V}"],
        ["evening", "exchange", "{E}", "{V}", "1", "--confirm-rematch"],
        ["evening", "show", "{E}", "--club", "{V}"],
        ["evening", "start", "Season", "--system", "keizer", "--keizer", "{V}"],
        ["evening", "start", "Season", "--system", "keizer", "--keizer", "top={V}"],
        ["evening", "start", "Season", "--system", "keizer", "--keizer", "bye={V}"],
        ["evening", "mark", "{E}", "{V}", "1"],
        ["evening", "mark", "{E}", "absent", "{V}"],
        ["evening", "next", "{T}", "{V}"],
        ["evening", "next", "{T}", "Night", "--date", "{V}"],
    ],
    "export-club": [["export-club", "{OUT}"], ["export-club", "{OUT}", "--club", "{V}"]],
    "import-club": [
        ["import-club", "{F:archive}"],
        ["import-club", "{F:archive}", "--arbiters", "{V}"],
        ["import-club", "{F:archive}", "--arbiters", "link", "{V}"],
    ],
}

# Commands given no hostile input here, and why.
NO_INPUT = {
    "serve": (
        "serves the website until stopped: its input is the web's, "
        "every URL of test_hostile_web.py; its port, host and workers "
        "are argparse numbers and a bind, tested in test_serve.py"
    ),
    "demo": (
        "builds a simulated club for minutes from whole "
        "numbers (output.whole) and a seed: no text of anybody's"
    ),
    "worker": (
        "runs the queue as a process of its own, whose transactions the savepoint every "
        "input here runs in cannot hold (on PostgreSQL its replays differed): its three "
        "values are bounded numbers, each edge pinned in test_hostile_findings.py"
    ),
    "backup": (
        "its one value is the new file's path, and copying the database waits, in "
        "SQLite's C code, for the savepoint every input here runs in: its path is "
        "tested by tests/club/test_backup.py (an existing file is never replaced)"
    ),
}
# Options read by every command the same way, tested elsewhere: the process's database, engine and
# book.
GLOBAL_OPTIONS = {"--database", "--engine", "--book", "--json", "--help", "--version"}


def verbs() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    return dict(
        next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    )


def test_every_command_and_option_is_covered_or_listed() -> None:
    missing = []
    for name, parser in verbs().items():
        if name in NO_INPUT:
            continue
        if name not in CLI:
            missing.append(name)
            continue
        written = {word for template in CLI[name] for word in template}
        for action in parser._actions:
            options = set(action.option_strings) - GLOBAL_OPTIONS
            if options and action.nargs != 0 and not options & written:
                missing.append(f"{name} {sorted(options)[0]}")
    assert missing == [], f"neither fuzzed in CLI nor listed in NO_INPUT with a reason: {missing}"
    assert set(CLI) <= set(verbs())


# --- the club every input is tried on -------------------------------------------------------------

IGNORED_TABLES = {
    "django_session",
    "axes_accessattempt",
    "axes_accesslog",
    "axes_accessfailurelog",
    "axes_accessattemptexpiration",
}


def database_dump() -> list[tuple[str, list[Any]]]:
    """Every row of every table, in key order: the oracle that a refused input wrote nothing."""
    return [
        (model._meta.db_table, list(model._base_manager.order_by("pk").values_list()))
        for model in apps.get_models()
        if model._meta.db_table not in IGNORED_TABLES and model._meta.managed
    ]


@pytest.fixture
def places(
    evening: Tournament, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, str]:
    """The club's numbers the templates refer to, and the good files."""
    club = evening.club
    good = tmp_path / "good"
    good.mkdir()
    for kind, text in GOOD.items():
        (good / f"good.{kind}").write_text(
            text if kind != "weights" else weights_file(), encoding="utf-8"
        )
    draft_csv = good / "draft.csv"
    draft_csv.write_text(
        GOOD["csv"].replace("2024-03-05", "2024-02-20").replace("Anna Smith", "A. Smith")
    )
    assert main(["import", str(draft_csv)]) == 0
    draft = Tournament.objects.filter(club=club, status="draft").latest("pk")
    night = ev.start_evening(
        club, "Wednesday", dt.date(2024, 3, 6), 3, who=WHO, today=dt.date(2024, 3, 6)
    )
    for name in ("Anna Smith", "Bob Jones", "Carl Berg", "Dana White"):
        ev.register(night, name, who=WHO)
    publish_month(club, dt.date(2024, 2, 1), who=WHO)  # the evening's list, for ``monthly show``
    members = list(Member.objects.filter(club=club).order_by("pk"))
    capsys.readouterr()
    return {
        "T": str(evening.id),
        "D": str(draft.id),
        "E": str(night.id),
        "M": str(members[0].id),
        "M2": str(members[1].id),
        "good": str(good),
        "tmp": str(tmp_path),
        "W": weight_name(),
    }


def weight_name() -> str:
    from clubrating.club.derived.ledger import WEIGHT_NAMES

    return sorted(WEIGHT_NAMES)[0]


def weights_file() -> str:
    return json.dumps({"settings": {weight_name(): 1.0}})


def archive_of(club: Club, folder: Path) -> bytes:
    """The club's own archive, under another short name so that it could be loaded beside it."""
    path = folder / "club.jsonl.gz"
    if not path.exists():
        assert main(["export-club", str(path)]) == 0
    lines = gzip.decompress(path.read_bytes()).decode().replace('"riverside"', '"moved"')
    return gzip.compress(lines.encode(), mtime=0)


def filled(
    template: list[str], places: dict[str, str], value: str, file: bytes | None
) -> tuple[list[str], str]:
    """The argv of ``template`` and the text for stdin (``<{V}``)."""
    argv, stdin = [], ""
    for word in template:
        if word == "<{V}":
            stdin = value + "\n"
            continue
        if word.startswith("{F:"):
            path = Path(places["tmp"]) / f"hostile.{word[3:-1]}"
            path.write_bytes(file or b"")
            argv.append(str(path))
        elif word.startswith("{G:"):
            argv.append(str(Path(places["good"]) / f"good.{word[3:-1]}"))
        elif word == "{OUT}":
            folder = Path(places["tmp"]) / "out"
            folder.mkdir(exist_ok=True)
            argv.append(
                str(folder) + "/" + value.replace("\x00", "")
            )  # under the test's folder, whatever it says
        else:
            for name in ("T", "D", "E", "M2", "M", "W"):
                word = word.replace("{" + name + "}", places[name])
            argv.append(word.replace("{V}", value))  # last: a value spelling {T} stays as typed
    return argv, stdin


@contextlib.contextmanager
def rolled_back() -> Iterator[None]:
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def run_cli(
    argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's usage errors
        code = exit.code if isinstance(exit.code, int) else 2
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return code, out, err


def check_outcome(
    surface: str, argv: list[str], value: str, code: int, out: str, err: str, before: Any
) -> None:
    shown = f"{surface}: {ascii(argv)[:300]} -> {code}\n{err[-2000:]}"
    assert "Traceback" not in err, shown
    allowed = (0, 1, 2) if surface == "status" else (0, 2)
    assert code in allowed, shown
    if code != 0:
        errors = [line for line in err.splitlines() if ": error: " in line]
        assert len(errors) == 1, shown
        assert database_dump() == before, f"a refused input changed the database: {shown}"
    if has_control(value) and value in argv:
        assert code == 2, f"a control character was taken: {shown}"


FILE_KINDS = ("csv", "trf", "pgn", "list", "names", "weights", "backup")


def file_strategy(kind: str, club_archive: bytes) -> st.SearchStrategy[tuple[str, bytes]]:
    if kind == "archive":
        return hostile_archive(club_archive)
    return hostile_file(GOOD[kind] if kind != "weights" else weights_file())


@pytest.mark.parametrize("surface", sorted(CLI))
def test_a_command_given_hostile_input_succeeds_or_says_one_line_and_writes_nothing(
    surface: str, places: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    club_archive = (
        archive_of(Club.objects.get(slug="riverside"), tmp_path)
        if surface == "import-club"
        else b""
    )
    capsys.readouterr()

    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=list(HealthCheck),
        database=None,
        phases=NO_SHRINK,
    )
    @given(data=st.data())
    def each(data: st.DataObject) -> None:
        for template in CLI[surface]:
            kinds = [word[3:-1] for word in template if word.startswith("{F:")]
            family, file = data.draw(file_strategy(kinds[0], club_archive)) if kinds else ("", None)
            family_v, value = (
                data.draw(hostile_text()) if any("{V}" in w for w in template) else ("", "")
            )
            argv, stdin = filled(template, places, value, file)
            COUNTS[surface] += 1
            with rolled_back():
                before = database_dump()
                with bounded(ascii(argv)[:300]):
                    code, out, err = run_cli(argv, stdin, capsys)
                check_outcome(surface, argv, value, code, out, err, before)

    each()
    record(surface)
