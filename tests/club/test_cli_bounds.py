"""The command line against values no tournament has: a CSV field of 131,073
characters, a round of 99999999999999999999, and every documented spelling of a result
given to ``correct`` (``--`` and ``-+`` used to be argparse's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import Game, Tournament
from clubrating.formats.records import MAX_ROUNDS

from .databases import dump

HUGE = "99999999999999999999"
EVENING = "# event: Tuesday evening\n# date: 2026-03-03\nround,white,black,result\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, verb: str, *said: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"clubrating {verb}: error: "), err
    for text in said:
        assert text in lines[0], err


def test_rate_refuses_a_csv_field_beyond_the_limit_in_one_line(tmp_path, capsys) -> None:
    night = tmp_path / "night.csv"
    night.write_text(EVENING + f"1,{'A' * 131_073},Bob,1-0\n")
    code, _, err = run(capsys, "rate", str(night))
    assert code == 2
    one_line_error(err, "rate", f"{night}:4: unreadable fields")


def test_rate_refuses_a_prior_field_beyond_the_limit_in_one_line(tmp_path, capsys) -> None:
    night = tmp_path / "night.csv"
    night.write_text(EVENING + "1,Anna,Bob,1-0\n")
    prior = tmp_path / "prior.csv"
    prior.write_text(f"name,rating,games\nAnna,1500,3\n{'B' * 131_073},1400,2\n")
    code, _, err = run(capsys, "rate", str(night), "--prior", str(prior))
    assert code == 2
    one_line_error(err, "rate", f"{prior}:3: unreadable fields")


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    "row, said",
    [
        (f"1,{'A' * 131_073},Bob,1-0", "night.csv:4: unreadable fields"),
        (
            f"{HUGE},Anna,Bob,1-0",
            f"night.csv:4: round {HUGE}: expected a round number from 1 to {MAX_ROUNDS}",
        ),
        ("20000,Anna,Bob,1-0", "night.csv:4: round 20000: expected"),
    ],
)
def test_import_refuses_a_value_beyond_the_bounds_and_stores_nothing(
    tmp_path, capsys, row, said
) -> None:
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    night = tmp_path / "night.csv"
    night.write_text(EVENING + row + "\n")
    code, _, err = run(capsys, "import", str(night))
    assert code == 2
    one_line_error(err, "import", said)
    assert not Tournament.objects.exists()


@pytest.fixture
def published(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    night = tmp_path / "night.csv"
    night.write_text(EVENING + "1,Anna Berg,Ben Cole,1-0\n")
    for args in (
        ("init", "Riverside Chess Club"),
        ("import", str(night)),
        ("link", "1", "--all-new"),
        ("publish", "1"),
    ):
        assert run(capsys, *args)[0] == 0


# Every spelling of `correct --help` and of docs/formats.md's result table, and what it stores
# (white's and black's half-points, played).
SPELLINGS = [
    (["1-0"], (2, 0, True)),
    (["0-1"], (0, 2, True)),
    (["1/2-1/2"], (1, 1, True)),
    (["½-½"], (1, 1, True)),
    (["="], (1, 1, True)),
    (["+-"], (2, 0, False)),
    (["-+"], (0, 2, False)),
    (["--"], (0, 0, False)),
    (["+:-"], (2, 0, False)),
    (["-:+"], (0, 2, False)),
    (["-:-"], (0, 0, False)),
    (["+/-"], (2, 0, False)),
    (["-/+"], (0, 2, False)),
    (["-/-"], (0, 0, False)),
    (["1:0"], (2, 0, True)),
    (["0.5-0.5"], (1, 1, True)),
    (["--", "--"], (0, 0, False)),
    (["--", "-+"], (0, 2, False)),
]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("json_first", [False, True])
def test_correct_takes_every_documented_result_spelling(published, capsys, json_first) -> None:
    """Each spelling corrects the game from 1-0, as on a club of its own: one club for all
    of them (building one takes four commands), the game put back to 1-0 after each."""
    wrong = []
    for words, stored in SPELLINGS:
        args = ["correct", "1", "1", "Anna Berg", *words, "--json"]
        if json_first:
            args = ["correct", "--json", "1", "1", "Anna Berg", *words]
        code, out, err = run(capsys, *args)
        game = Game.objects.get()
        if (game.white_points, game.black_points, game.played) != stored:
            wrong.append(
                f"{' '.join(words)}: stored {game.white_points, game.black_points, game.played}, "
                f"expected {stored}"
            )
        elif stored == (
            2,
            0,
            True,
        ):  # the game is 1-0 already: a correction that changes nothing is refused
            if (code, out) != (2, "") or "is 1-0 already: nothing to correct" not in err:
                wrong.append(
                    f"{' '.join(words)}: not refused as a "
                    f"correction to the same result: {code} {err}"
                )
            continue
        elif code != 0 or not json.loads(out)["message"]:
            wrong.append(f"{' '.join(words)}: exit {code}, {err.strip()}")
        assert run(capsys, "correct", "1", "1", "Anna Berg", "1-0")[0] == 0, words  # back to 1-0
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("round_", [HUGE, "20000", str(MAX_ROUNDS + 1), "0"])
def test_correct_refuses_a_round_beyond_the_bounds(published, capsys, round_) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["correct", "1", round_, "Anna Berg", "0-1"])
    assert exit_.value.code == 2
    assert (
        f"argument round: {int(round_)} is out of range: expected from 1 to {MAX_ROUNDS}"
        in capsys.readouterr().err
    )
    assert Game.objects.get().white_points == 2


LIST = "name,rating,games\nAnna Berg,1650,3\nZoe Young,1400,2\n"


@pytest.fixture
def seeded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A club of two members, Anna Berg and Ben Cole, with an initial list of two rows (one
    of them Anna's)."""
    night = tmp_path / "night.csv"
    night.write_text(EVENING + "1,Anna Berg,Ben Cole,1-0\n")
    first = tmp_path / "first.csv"
    first.write_text(LIST)
    for args in (
        ("init", "Riverside Chess Club"),
        ("import", str(night)),
        ("link", "1", "--all-new"),
        ("publish", "1"),
        ("seed-ratings", str(first), "--accept-exact"),
    ):
        assert run(capsys, *args)[0] == 0, args
    return tmp_path


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    "games, said",
    [
        (
            "9223372036854775807",
            "big.csv:3: games '9223372036854775807': expected a whole number of rated games "
            "from 0 to 100000",
        ),
        (
            "99999999999999999999999",
            "big.csv:3: games '99999999999999999999999': expected a whole number",
        ),
        (
            "100001",
            "big.csv:3: games '100001': expected a whole number of rated games from 0 to 100000",
        ),
    ],
)
def test_seed_ratings_refuses_games_beyond_the_maximum_and_leaves_the_database_as_it_was(
    seeded, capsys, games, said
) -> None:
    big = seeded / "big.csv"
    big.write_text(f"name,rating,games\nAnna Berg,1700,3\nBen Cole,1450,{games}\n")
    before = dump()
    code, out, err = run(capsys, "seed-ratings", str(big), "--accept-exact")
    assert (code, out) == (2, "")
    one_line_error(err, "seed-ratings", f"{big.parent}/{said}")
    assert dump() == before


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_step_refused_after_the_list_is_stored_undoes_the_list_too(seeded, capsys) -> None:
    """seed-ratings --accept-exact is one transaction: the database refusing the links (here a
    trigger of the test's own, as a full disk or a constraint would) leaves the old list."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "CREATE TRIGGER refuse_links BEFORE INSERT ON club_auditentry WHEN NEW.action "
                "= 'link-initial' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )
        else:
            cursor.execute(
                "CREATE FUNCTION refuse_links() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "RAISE EXCEPTION 'refused by the test'; END $$"
            )
            cursor.execute(
                "CREATE TRIGGER refuse_links BEFORE INSERT ON club_auditentry FOR EACH ROW "
                "WHEN (NEW.action = 'link-initial') EXECUTE FUNCTION refuse_links()"
            )
    second = seeded / "second.csv"
    second.write_text("name,rating,games\nAnna Berg,1800,9\nBen Cole,1300,9\n")
    before = dump()
    code, _, err = run(capsys, "seed-ratings", str(second), "--accept-exact")
    assert code == 2
    one_line_error(err, "seed-ratings", "refused by the test")
    assert dump() == before
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER refuse_links"
            + ("" if connection.vendor == "sqlite" else " ON club_auditentry")
        )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    "change, said",
    [
        (
            "time-zone=America",
            "time-zone 'America': expected an IANA time zone",
        ),  # IsADirectoryError from tzdata
        ("time-zone=Etc", "time-zone 'Etc': expected an IANA time zone"),
        ("time-zone=" + "Z" * 300, "expected an IANA time zone"),  # OSError: file name too long
        ("time-zone=localtime", "time-zone 'localtime': expected an IANA time zone"),
        ("start-rating=1e-320", "start-rating '1e-320': expected a number from 100 to 3000"),
        ("start-rating=0", "start-rating '0': expected a number from 100 to 3000"),
        (
            "k-new-games=" + "9" * 5000,
            "expected a whole number from 0 to 1000",
        ),  # int() refuses 5,000 digits
    ],
)
def test_settings_refuses_a_bad_value_in_one_line_and_changes_nothing(
    tmp_path, capsys, change, said
) -> None:
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    before = dump()
    code, out, err = run(capsys, "settings", change)
    assert (code, out) == (2, "")
    one_line_error(err, "settings", said)
    assert dump() == before


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_link_with_several_steps_undoes_them_all_when_one_is_refused(tmp_path, capsys) -> None:
    """``link 1 --new 1 --new 9``: player 9 does not exist, so player 1 is no new member either."""
    night = tmp_path / "night.csv"
    night.write_text(EVENING + "1,Anna Berg,Ben Cole,1-0\n")
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    assert run(capsys, "import", str(night))[0] == 0
    before = dump()
    code, out, err = run(capsys, "link", "1", "--new", "1", "--new", "9")
    assert (code, out) == (2, "")
    one_line_error(err, "link", "tournament 1 has no player number 9")
    assert dump() == before
