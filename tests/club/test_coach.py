"""Coach by CPI for a club member (spec C6): stored analyses written by hand (no engine),
the ledger rebuilt, exercises from the member's own games; and ``clubrating coach``."""

from __future__ import annotations

import datetime as dt
import json

import chess
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.cli import main
from clubrating.club.derived.coach import COACH_GAMES, cpi_brief, exercises_for, parse_factor
from clubrating.club.derived.ledger import member_ledger
from clubrating.club.store.models import Game, Member
from clubrating.errors import InputError
from tests.cpi.coach_games import OPEN_GAME, build, publish_analysed

from .conftest import ARBITER
from clubrating.club.services.clubs import create_club
from clubrating.club.services.members import merge
from clubrating.club.services.tournaments import correct_result


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """The club's averages are cached in the process; ids repeat between tests rolled back."""
    from django.core.cache import cache

    cache.clear()


def anna() -> Member:
    return Member.objects.get(name="Anna Berg")


def test_the_weakest_factor_and_exercises_come_from_the_members_own_games(club) -> None:
    games = publish_analysed(club, 5)
    doc = exercises_for(anna())
    assert (doc["games"], doc["games_coached"], doc["factor"]) == (5, 5, "H")
    assert doc["weakest"]["factor"] == "H" and doc["weakest"]["average"] == pytest.approx(1.0)
    assert doc["weakest"]["cost_per_game"] == pytest.approx(25.0)
    # the club's average: Anna's hang a game and Ben's none, over ten ledger rows
    assert doc["weakest"]["club_average"] == pytest.approx(0.5)
    exercises = doc["exercises"]
    assert len(exercises) == 5 and {e["game_id"] for e in exercises} == {g.id for g in games}
    assert [e["hint"] for e in exercises][
        0
    ] == "the move played hung 340 cp: find a move that keeps the balance"
    assert all(e["side_to_move"] == "white" and e["factor"] == "H" for e in exercises)
    assert exercises[0]["tournament"] == "Evening 1" and exercises[0]["date"] == "2026-01-06"
    assert len({e["fen"] for e in exercises}) == 5


def test_the_coach_names_the_same_weakest_factor_as_the_members_summary(club) -> None:
    publish_analysed(club, 6)
    for member in (anna(), Member.objects.get(name="Ben Cole")):
        summary, doc = member_ledger(member), exercises_for(member)
        assert doc["weakest"]["factor"] == summary["weakest"]["factor"]
        assert doc["weakest"]["cost_per_game"] == pytest.approx(summary["weakest"]["cost_per_game"])


def test_the_brief_for_the_player_page_agrees_with_the_ledger_in_one_query(club) -> None:
    publish_analysed(club, 7)
    for member in (anna(), Member.objects.get(name="Ben Cole")):
        ledger = member_ledger(member)
        with CaptureQueriesContext(connection) as context:
            brief = cpi_brief(member, club)
        assert len(context.captured_queries) == 1
        assert brief is not None and (brief["cpi"], brief["games"]) == (ledger["cpi"], 7)
        assert brief["weakest"]["factor"] == ledger["weakest"]["factor"]
        assert brief["weakest"]["cost_per_game"] == pytest.approx(
            ledger["weakest"]["cost_per_game"]
        )
    assert cpi_brief(create_club("Empty", who=ARBITER).members.create(name="Nobody")) is None


def test_another_factor_can_be_asked_for_and_a_perfect_player_has_no_exercise(club) -> None:
    publish_analysed(club, 3)
    assert [e["ply"] for e in exercises_for(anna(), factor="e")["exercises"]] == [5, 3, 1]
    ben = exercises_for(Member.objects.get(name="Ben Cole"), factor="H")
    assert ben["factor"] == "H" and ben["exercises"] == [] and ben["averages"]["H"]["average"] == 0
    assert ben["averages"]["T"]["average"] is None  # no clocks: not available, not 0 %
    assert ben["averages"]["T"]["club_average"] is None and ben["averages"]["E"][
        "club_average"
    ] == pytest.approx((0.70 + 0.69 + 0.68 + 3) / 6)


def test_the_limit_and_the_factor_are_checked(club) -> None:
    publish_analysed(club, 3)
    assert len(exercises_for(anna(), limit=2)["exercises"]) == 2
    with pytest.raises(InputError, match="between 1 and 100"):
        exercises_for(anna(), limit=0)
    with pytest.raises(InputError, match="unknown factor 'X1'"):
        exercises_for(anna(), factor="X1")
    assert parse_factor(" br ") == "Br" and parse_factor("m2") == "M2"


def test_only_the_latest_games_give_exercises(club) -> None:
    publish_analysed(club, COACH_GAMES + 3, per_evening=10)
    doc = exercises_for(anna(), limit=100)
    newest = set(
        Game.objects.order_by("-tournament__date", "-round").values_list("id", flat=True)[
            :COACH_GAMES
        ]
    )
    assert doc["games"] == COACH_GAMES + 3 and doc["games_coached"] == COACH_GAMES
    assert {e["game_id"] for e in doc["exercises"]} <= newest
    assert len(doc["exercises"]) == 5  # five distinct positions, each hung in many games


def test_a_corrected_result_is_the_one_the_mates_are_judged_by(club) -> None:
    # Anna keeps a mate in 2 with her last move and the game ends: found only if she won.
    kept = build(OPEN_GAME[:9], {9: {"best": [("Nc3", "#2")], "after": "#1"}}, result="1-0")
    (game,) = publish_analysed(club, 1, facts=lambda _: kept)  # stored as 1-0 by the club
    assert exercises_for(anna(), factor="M2")["exercises"] == []
    correct_result(game, "0-1", who=ARBITER)
    (exercise,) = exercises_for(anna(), factor="M2")["exercises"]
    assert exercise["hint"] == "White has a mate in 2" and exercise["ply"] == 9


def test_a_merged_name_gets_the_surviving_members_exercises(club) -> None:
    publish_analysed(club, 2)
    publish_analysed(club, 2, white="A. Berg")
    alias = Member.objects.get(name="A. Berg")
    merge(alias, anna(), who=ARBITER)
    doc = exercises_for(alias)
    assert (doc["member_id"], doc["games"]) == (anna().id, 4)


def test_the_coach_costs_the_same_queries_for_five_games_or_thirty(club) -> None:
    def queries() -> int:
        member = anna()
        with CaptureQueriesContext(connection) as context:
            exercises_for(member)
        return len(context.captured_queries)

    publish_analysed(club, 5)
    few = queries()
    publish_analysed(club, 25)
    assert queries() == few == 5
    assert queries() == 4  # the club's averages from the cache: the ledger did not change


def test_a_member_without_analysed_games_gets_no_exercise(club, publish) -> None:
    publish(
        "Quiet evening",
        dt.date(2026, 1, 6),
        ["Anna Berg", "Ben Cole"],
        [(1, "Anna Berg", "Ben Cole", "=")],
    )
    doc = exercises_for(anna())
    assert (doc["games"], doc["weakest"], doc["factor"], doc["exercises"]) == (0, None, None, [])


# --- the command -------------------------------------------------------------------------------


def test_the_command_prints_the_weakest_factor_and_the_exercises_without_solutions(
    club, capsys
) -> None:
    publish_analysed(club, 2)
    assert main(["coach", "Anna Berg"]) == 0
    out = capsys.readouterr().out
    assert (
        "weakest factor: H, hangs (moves costing 15 points of "
        "win chance or more): 1.00 a game (club 0.50 a game)" in out
    )
    assert (
        "FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" not in out
    )  # Black's turn: no
    assert "Find the best move for White. Hint: the move played hung 310 cp" in out
    assert "Solution" not in out and "Bc4" not in out


def test_the_command_shows_the_solutions_when_asked(club, capsys) -> None:
    publish_analysed(club, 1)
    assert main(["coach", "Anna Berg", "--solutions", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in out
    assert "Solution: d4 (+0.00); played e4" in out


def test_the_command_json_is_one_document(club, capsys) -> None:
    publish_analysed(club, 3)
    assert main(["coach", "Anna Berg", "--factor", "E", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["factor"] == "E" and doc["weakest"]["factor"] == "H" and len(doc["exercises"]) == 3
    assert (
        "best" not in doc["exercises"][0]
        and doc["exercises"][0]["task"] == "Find the best move for White"
    )
    assert main(["coach", "Anna Berg", "--json", "--solutions"]) == 0
    assert json.loads(capsys.readouterr().out)["exercises"][0]["best"] == "Bc4"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["coach", "Anna Berg", "--factor", "Q"], "unknown factor 'Q'"),
        (["coach", "Anna Berg", "--limit", "0"], "between 1 and 100"),
        (["coach", "Nobody"], "no member 'Nobody'"),
    ],
)
def test_the_command_reports_a_mistake_in_one_line(club, capsys, argv, message) -> None:
    publish_analysed(club, 1)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_help_has_an_example(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["coach", "--help"])
    assert "Example: clubrating coach" in capsys.readouterr().out


@pytest.mark.engine
def test_exercises_from_a_real_engine_analysis_are_legal_positions(club) -> None:
    from .test_cpi import EVENING, PLAYERS, analyse, publish_games

    publish_games(club, "Tuesday evening", dt.date(2026, 3, 3), PLAYERS, EVENING)
    analyse(club)
    shown = 0
    for member in Member.objects.filter(club=club):
        for factor in ("E", "B1", "M1", "H", "O", "Br"):
            for e in exercises_for(member, factor=factor)["exercises"]:
                board = chess.Board(e["fen"])
                assert board.is_valid() and (board.turn == chess.WHITE) == (
                    e["side_to_move"] == "white"
                )
                assert chess.Move.from_uci(e["played_uci"]) in board.legal_moves
                assert (
                    e["best_uci"] is None or chess.Move.from_uci(e["best_uci"]) in board.legal_moves
                )
                assert board.san(chess.Move.from_uci(e["played_uci"])) == e["played"]
                shown += 1
    assert shown > 0  # the short games have mistakes: Bxd1?? and the fool's mate moves


def test_the_command_shows_the_moves_in_the_terminals_piece_letters_and_json_keeps_san(
    club, capsys, monkeypatch
) -> None:
    publish_analysed(club, 3)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    assert main(["coach", "Anna Berg", "--solutions", "--factor", "E"]) == 0
    out = capsys.readouterr().out
    assert "Сc4" in out and "Кc3" in out and "Bc4" not in out and "Nc3" not in out
    assert main(["coach", "Anna Berg", "--json", "--solutions"]) == 0
    assert json.loads(capsys.readouterr().out)["exercises"][0]["best"] == "Bc4"
