"""The command speaks the arbiter's language: chosen from the environment as gettext chooses it,
errors translated where they are shown (``str`` stays English), the text output translated and
the JSON documents and files never.

The tests whose commands start from a club start from a copy of one ``clubrating init`` made
once for the module, and the commands that only prepare a test's club (in English, none of what
the test reads) run in one process."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from clubrating import djangoenv
from clubrating.djangoenv import language_from_environment
from clubrating.errors import ENGLISH, InputError, Refused, Text
from clubrating.formats.trf import read_trf, write_trf
from clubrating.formats.typed import parse_typed
from clubrating.words import N_, Nn_

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "formats" / "data"
ENGINE = Path("/usr/games/stockfish")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),  # nothing set: the C locale
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "hy_AM.UTF-8"}, "hy"),
        ({"LANG": "hy_AM"}, "hy"),
        ({"LANG": "ru"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # no catalogue of German
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "sr_RS.UTF-8@latin"}, "en"),
        ({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "hy_AM.UTF-8"}, "ru"),  # LC_MESSAGES before LANG
        (
            {"LC_ALL": "hy_AM.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"},
            "hy",
        ),  # LC_ALL before LC_MESSAGES
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),  # LC_ALL=C wins over LANG
        ({"LC_ALL": "", "LANG": "ru_RU.UTF-8"}, "ru"),  # an empty variable is unset
        ({"LANGUAGE": "hy:ru", "LANG": "ru_RU.UTF-8"}, "hy"),  # LANGUAGE's list first ...
        ({"LANGUAGE": "de:ru", "LANG": "hy_AM.UTF-8"}, "ru"),  # ... its first language we have
        ({"LANGUAGE": "de:fr", "LANG": "ru_RU.UTF-8"}, "en"),  # ... none of them: English
        ({"LANGUAGE": "ru", "LANG": "C.UTF-8"}, "en"),  # ... ignored in the C locale
        ({"LANGUAGE": "ru"}, "en"),  # ... and with no locale at all
        ({"LANGUAGE": "ru", "LC_ALL": "C"}, "en"),
    ],
)
def test_the_language_of_the_command_comes_from_the_environment_as_gettext_reads_it(
    environ: dict[str, str], language: str
) -> None:
    assert language_from_environment(environ) == language


class Shouting:
    """A catalogue that shows what was translated: every template upper-cased."""

    def gettext(self, message: str, /) -> str:
        return "".join(
            part if part.startswith("%(") else part.upper()
            for part in re.split(r"(%\(\w+\)s)", message)
        )

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return self.gettext(singular if count == 1 else plural)


def test_an_error_is_english_as_a_string_and_translated_where_it_is_shown() -> None:
    error = InputError(
        N_("expected %(what)s, got %(text)s"), file="club.trf", line=7, what="a name", text="'x'"
    )
    assert str(error) == "club.trf:7: expected a name, got 'x'"
    assert error.translated(ENGLISH) == str(error)
    assert (
        error.translated(Shouting()) == "club.trf:7: EXPECTED a name, GOT 'x'"
    )  # the place and values kept
    assert error.translated(Shouting()).startswith("club.trf:7: ")


def test_texts_inside_a_text_and_counted_texts_are_translated_with_it() -> None:
    where = Text(N_("round %(round)s"), round=3)
    counted = Text(Nn_("%(count)s name", "%(count)s names"), count=2)
    error = Refused(N_("%(where)s: %(names)s"), where=where, names=counted)
    assert str(error) == "round 3: 2 names"
    assert error.translated(Shouting()) == "ROUND 3: 2 NAMES"
    assert Text(Nn_("%(count)s name", "%(count)s names"), count=1).translated() == "1 name"


def test_an_error_without_parameters_keeps_a_percent_sign_as_written() -> None:
    assert str(Refused("100% sure")) == "100% sure"


@pytest.mark.parametrize("django_ready", [False, True], ids=["catalogue-file", "django"])
def test_a_reader_s_error_is_translated_in_russian_and_armenian(
    monkeypatch: pytest.MonkeyPatch, django_ready: bool
) -> None:
    monkeypatch.setattr(djangoenv, "_ready", django_ready)
    with pytest.raises(InputError) as caught:
        read_trf(io.StringIO("012 x\n001    x      A\n"), "club.trf")
    assert (
        str(caught.value)
        == "club.trf:2: expected the player's start number in columns 5-8, got 'x'"
    )
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert caught.value.translated(djangoenv) == (
        "club.trf:2: ожидается стартовый номер игрока в столбцах 5-8, получено 'x'"
    )
    monkeypatch.setenv("LANG", "hy_AM.UTF-8")
    assert caught.value.translated(djangoenv).startswith(
        "club.trf:2: սպասվում է խաղացողի մեկնարկային համարը"
    )


@pytest.mark.parametrize(
    ("count", "russian", "armenian"),
    [
        (1, "1 партия", "1 խաղ"),
        (2, "2 партии", "2 խաղ"),
        (5, "5 партий", "5 խաղ"),
        (11, "11 партий", "11 խաղ"),
        (21, "21 партия", "21 խաղ"),
        (22, "22 партии", "22 խաղ"),
    ],
)
@pytest.mark.parametrize("django_ready", [False, True], ids=["catalogue-file", "django"])
def test_counts_take_the_plural_forms_of_the_language(
    monkeypatch: pytest.MonkeyPatch, count: int, russian: str, armenian: str, django_ready: bool
) -> None:
    monkeypatch.setattr(
        djangoenv, "_ready", django_ready
    )  # before and after the command set Django up
    for language, expected in (
        ("ru_RU.UTF-8", russian),
        ("hy_AM.UTF-8", armenian),
        ("C.UTF-8", None),
    ):
        monkeypatch.setenv("LANG", language)
        said = djangoenv.ngettext("%(count)s game", "%(count)s games", count) % {"count": count}
        assert said == (expected or f"{count} game{'s' if count != 1 else ''}")


def environment(language: str) -> dict[str, str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    environ.update(LANG=language, PYTHONPATH=str(ROOT / "src"))
    return environ


def clubrating(
    language: str, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clubrating", *args],
        capture_output=True,
        text=True,
        env=environment(language),
        cwd=cwd,
        timeout=300,
    )


# The command line's main() for each command of argv[2] (JSON) on the database of argv[1], in turn.
COMMANDS_IN_ONE_PROCESS = """import json, sys
from clubrating.cli import main
for argv in json.loads(sys.argv[2]):
    if main([*argv, "--database", sys.argv[1]]) != 0:
        sys.exit(f"clubrating {' '.join(argv)} failed")
"""


def prepare(database: str, *commands: list[str]) -> None:
    """Commands that only prepare a test's club, in English, one after another in one process."""
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS_IN_ONE_PROCESS, database, json.dumps(commands)],
        capture_output=True,
        text=True,
        env=environment("C.UTF-8"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def initialised(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file after ``clubrating init Riverside``, made once for the module (per xdist
    worker)."""
    path = tmp_path_factory.mktemp("initialised") / "club.sqlite3"
    created = clubrating("C.UTF-8", "init", "Riverside", "--database", f"sqlite:///{path}")
    assert created.returncode == 0, created.stderr
    return path


@pytest.fixture
def riverside(initialised: Path, tmp_path: Path) -> str:
    """The URL of the test's own copy of ``initialised`` (SQLite's online backup)."""
    path = tmp_path / "club.sqlite3"
    with closing(sqlite3.connect(initialised)) as source, closing(sqlite3.connect(path)) as target:
        source.backup(target)
    return f"sqlite:///{path}"


@pytest.mark.parametrize(
    ("language", "prefix", "reason"),
    [
        (
            "ru_RU.UTF-8",
            "clubrating rate: ошибка: ",
            "ожидается стартовый номер игрока в столбцах 5-8, получено 'x'",
        ),
        (
            "hy_AM.UTF-8",
            "clubrating rate: սխալ: ",
            "սպասվում է խաղացողի մեկնարկային համարը 5-8 սյունակներում, ստացվել է 'x'",
        ),
        (
            "C.UTF-8",
            "clubrating rate: error: ",
            "expected the player's start number in columns 5-8, got 'x'",
        ),
    ],
)
def test_a_bad_file_is_one_translated_line_with_its_file_and_line(
    tmp_path: Path, language: str, prefix: str, reason: str
) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Club night\n001    x      Anna\n", encoding="utf-8")
    run = clubrating(language, "rate", str(bad))
    assert (run.returncode, run.stdout) == (2, ""), run.stderr
    assert run.stderr.splitlines() == [f"{prefix}{bad}:2: {reason}"]
    assert "Traceback" not in run.stderr


def test_an_unknown_command_is_one_translated_line(tmp_path: Path) -> None:
    run = clubrating("ru_RU.UTF-8", "rat", "x.trf")
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1] == (
        "clubrating: ошибка: неизвестная команда 'rat': список команд — clubrating --help"
    )


def test_the_rating_table_is_translated_and_stays_aligned() -> None:
    lines = {
        language: clubrating(
            language, "rate", str(DATA / "gros_open_2010_javafo_TRFXSample2.trf")
        ).stdout.splitlines()
        for language in ("ru_RU.UTF-8", "hy_AM.UTF-8", "C.UTF-8")
    }
    assert lines["ru_RU.UTF-8"][0].endswith("клубные правила")
    assert lines["ru_RU.UTF-8"][1].split() == [
        "Имя",
        "До",
        "После",
        "Изм.",
        "K",
        "Партии",
        "Очки",
        "Ожид.",
    ]
    assert (
        lines["ru_RU.UTF-8"][-1]
        == "(П) предварительный до этого турнира: меньше 5 рейтинговых партий"
    )
    assert lines["hy_AM.UTF-8"][1].split()[:3] == ["Անուն", "Առաջ", "Հետո"]
    assert lines["C.UTF-8"][1].split() == [
        "Name",
        "Before",
        "After",
        "Change",
        "K",
        "Games",
        "Score",
        "Exp",
    ]
    for table in lines.values():
        body = table[1:-1]  # the headings and the players: every line as wide as the headings
        assert len({len(line) for line in body}) == 1, body


def test_the_summary_of_an_import_is_translated_with_its_counts(tmp_path: Path) -> None:
    trf = tmp_path / "night.trf"
    with trf.open("w", encoding="utf-8") as handle:
        write_trf(
            parse_typed(
                "1, Anna Smith, Bob Jones, 1-0", name="Club night", date=dt.date(2024, 1, 9)
            ),
            handle,
        )
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    created = clubrating("ru_RU.UTF-8", "init", "Riverside", "--database", database)
    assert created.stdout.splitlines()[0] == "создан клуб «Riverside» (riverside), правила club", (
        created.stdout
    )
    run = clubrating("ru_RU.UTF-8", "import", str(trf), "--database", database)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert (
        lines[0]
        == "импортирован турнир 1 «Club night» (2024-01-09) как черновик: 2 игрока, 1 партия"
    ), lines
    assert lines[1].endswith("? ни один член клуба не похож на это имя"), lines
    assert lines[-1] == (
        "2 имени нужно подтвердить: clubrating link 1 НОМЕР ЧЛЕН или с --new НОМЕР, "
        "--exact или --all-new"
    ), lines
    english = clubrating("C.UTF-8", "entries", "1", "--database", database).stdout.splitlines()
    assert english[0] == "tournament 1 'Club night' (2024-01-09), draft"
    assert english[-1].startswith("2 names to confirm: clubrating link 1 NUMBER MEMBER")
    again = clubrating("hy_AM.UTF-8", "import", str(trf), "--database", database)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert again.stderr.splitlines() == [
        f"clubrating import: սխալ: {trf}-ն արդեն ներմուծված է՝ մրցաշար 1 «Club night» (2024-01-09)"
    ], again.stderr


def json_of(language: str, *args: str) -> str:
    run = clubrating(language, *args, "--json")
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["rate", str(DATA / "gros_open_2010_javafo_TRFXSample2.trf")],
        ["rate", str(DATA / "all_codes.trf"), "--policy", "fide"],
        ["match", "A. Smith", "Smith Anna", "nobody at all", "--roster", "ROSTER"],
        pytest.param(
            [
                "analyze",
                str(ROOT / "tests" / "analysis" / "data" / "hung_queen.pgn"),
                "--nodes",
                "2000",
                "--engine",
                str(ENGINE),
            ],
            marks=pytest.mark.skipif(not ENGINE.exists(), reason="no Stockfish here"),
        ),
    ],
    ids=["rate", "rate-fide", "match", "analyze"],
)
def test_the_json_documents_are_the_same_bytes_in_every_language(
    tmp_path: Path, command: list[str]
) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("Anna Smith\nBob Jones\n", encoding="utf-8")
    command = [str(roster) if word == "ROSTER" else word for word in command]
    english = json_of("C", *command)
    assert english.startswith(("{", "["))
    for language in ("ru_RU.UTF-8", "hy_AM.UTF-8"):
        assert json_of(language, *command) == english


def test_the_proposals_of_match_are_told_in_the_language_and_its_json_is_not(
    tmp_path: Path,
) -> None:
    roster = tmp_path / "roster.txt"
    roster.write_text("Anna Smith\n", encoding="utf-8")
    run = clubrating("ru_RU.UTF-8", "match", "A. Smith", "Zed Q", "--roster", str(roster))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "A. Smith",
        "   94.0  Anna Smith  инициал вместо имени",
        "Zed Q",
        "  (нет предложений: новый член клуба?)",
    ]
    document = clubrating(
        "ru_RU.UTF-8", "match", "A. Smith", "--roster", str(roster), "--json"
    ).stdout
    assert '"initial for the first name"' in document


def test_publishing_the_rating_list_and_the_standings_in_russian_and_armenian(
    tmp_path: Path, riverside: str
) -> None:
    trf = tmp_path / "night.trf"
    with trf.open("w", encoding="utf-8") as handle:
        write_trf(
            parse_typed(
                "1, Anna Smith, Bob Jones, 1-0\n2, Bob Jones, Anna Smith, 1/2-1/2",
                name="Club night",
                date=dt.date(2024, 1, 9),
            ),
            handle,
        )
    database = riverside
    prepare(database, ["import", str(trf)], ["link", "1", "--all-new"])
    published = clubrating("ru_RU.UTF-8", "publish", "1", "--database", database)
    assert published.stdout.splitlines() == [
        "опубликован «Club night»; пересчитано: 1 турнир, изменено: 2 рейтинга"
    ]
    ratings = clubrating("ru_RU.UTF-8", "ratings", "--database", database).stdout.splitlines()
    assert ratings[0] == "Riverside — рейтинг-лист классика"  # the list's name in words
    assert ratings[1].split() == ["место", "имя", "рейтинг", "партии", "последняя", "партия"]
    assert ratings[2].endswith("2024-01-09  предварительный")
    assert (
        len({len(line.split("  2024")[0]) for line in ratings[2:]}) == 1
    )  # the columns stay aligned
    standings = clubrating(
        "hy_AM.UTF-8", "tournament", "1", "--database", database
    ).stdout.splitlines()
    assert standings[2].split()[:4] == ["տեղ", "№", "անուն", "միավոր"]
    assert standings[-1].startswith("№՝ մեկնարկային համար")
    english = clubrating("C.UTF-8", "tournament", "1", "--database", database).stdout.splitlines()
    assert english[2].split()[:4] == ["place", "no.", "name", "points"]
    for table in (standings, english):  # the heading as wide as the players' lines
        assert len({len(line) for line in table[2:-1]}) == 1, table


def test_a_setting_s_error_is_translated_with_what_the_setting_expects(riverside: str) -> None:
    database = riverside
    run = clubrating("ru_RU.UTF-8", "settings", "k-new=abc", "--database", database)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "clubrating settings: ошибка: k-new 'abc': ожидается число от 1 до 100"
    ]


def test_tonight_s_evening_is_shown_in_russian_and_its_json_stays_english(riverside: str) -> None:
    database = riverside
    prepare(
        database,
        ["evening", "start", "Tuesday", "--date", "2024-01-09", "--rounds", "3"],
        ["evening", "register", "1", "Anna Smith", "Bob Jones", "Carl Berg"],
        ["link", "1", "--all-new"],
    )
    paired = clubrating("ru_RU.UTF-8", "evening", "pair", "1", "--database", database)
    assert paired.stdout.startswith(
        "тур 1: жеребьёвка проведена, 1 доска, пропуск тура по жеребьёвке: "
    ), paired.stdout
    shown = clubrating(
        "ru_RU.UTF-8", "evening", "show", "1", "--database", database
    ).stdout.splitlines()
    assert shown[0] == (
        "Tuesday: швейцарская система (голландская система ФИДЕ), "
        "жеребьёвка проведена на 1 тур из 3"
    )
    assert shown[1].startswith("  доска 1: ") and shown[2].startswith("  без доски: ")
    assert "турнирная таблица:" in shown
    document = clubrating(
        "ru_RU.UTF-8", "evening", "show", "1", "--json", "--database", database
    ).stdout
    assert '"standings:"' in document and "доска" not in document


def test_the_plan_of_a_pgn_s_moves_is_told_in_russian(tmp_path: Path, riverside: str) -> None:
    trf, pgn = tmp_path / "night.trf", tmp_path / "games.pgn"
    with trf.open("w", encoding="utf-8") as handle:
        write_trf(
            parse_typed(
                "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1-0",
                name="Club night",
                date=dt.date(2024, 1, 9),
            ),
            handle,
        )
    pgn.write_text(
        '[Event "Club night"]\n[Round "1"]\n[White "Anna Smith"]\n[Black "Bob Jones"]\n'
        '[Result "0-1"]\n\n'
        "1. e4 e5 0-1\n\n"
        '[Event "Club night"]\n[Round "1"]\n[White "Zed Q"]\n[Black "Yan Other"]\n'
        '[Result "1-0"]\n\n'
        "1. d4 d5 1-0\n",
        encoding="utf-8",
    )
    database = riverside
    prepare(database, ["import", str(trf)], ["link", "1", "--all-new"])
    run = clubrating("ru_RU.UTF-8", "moves", "1", str(pgn), "--database", database)
    assert "= тур 1: Anna Smith - Bob Jones 0-1" in run.stdout, run.stdout + run.stderr
    assert "        результат отличается: в файле 0-1, сохранён " in run.stdout
    assert (
        "- тур 1: Zed Q - Yan Other 1-0  [не сохранено: "
        "нет сохранённой пары этого тура с этими игроками]" in run.stdout
    )


def test_the_arbiters_and_a_backup_are_told_in_armenian_and_russian(
    tmp_path: Path, riverside: str
) -> None:
    database = riverside
    listed = clubrating("hy_AM.UTF-8", "arbiter", "list", "--database", database)
    assert listed.stdout.splitlines() == ["Riverside-ը դեռ մրցավարի մուտքանուն չունի"], (
        listed.stderr
    )
    backup = tmp_path / "copy.sqlite3"
    saved = clubrating("ru_RU.UTF-8", "backup", str(backup), "--database", database)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.startswith(f"резервная копия базы данных записана в {backup} (")
    assert saved.stdout.rstrip().endswith(f"восстановить: clubrating restore {backup}")


def test_a_member_not_found_is_told_in_russian(riverside: str) -> None:
    database = riverside
    run = clubrating("ru_RU.UTF-8", "player", "Zed", "--database", database)
    assert (run.returncode, run.stderr.splitlines()) == (
        2,
        ["clubrating player: ошибка: нет члена клуба 'Zed' в клубе Riverside"],
    )
