"""PGN: rounds and boards, result-only and forfeited games, bughouse, errors with file:line, round
trip."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import random
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubrating.errors import InputError
from clubrating.files import read_tournament_file
from clubrating.formats.pgn import read_pgn, write_pgn
from clubrating.formats.reading import read_tournament_text
from clubrating.formats.records import (
    Pairing,
    PlayerEntry,
    TimeControl,
    TournamentKind,
    TournamentRecord,
    Unplayed,
)

DATA = Path(__file__).parent / "data"


def game(tags: dict[str, str], movetext: str) -> str:
    return "".join(f'[{tag} "{value}"]\n' for tag, value in tags.items()) + f"\n{movetext}\n\n"


def test_a_club_night_is_read_with_rounds_boards_and_unplayed_games() -> None:
    record = read_tournament_file(str(DATA / "club_night.pgn"))
    names = {p.number: p.name for p in record.players}
    rows = [
        (
            p.round,
            p.board,
            names[p.white],
            names[p.black],
            p.white_points,
            p.black_points,
            p.unplayed,
        )
        for p in record.pairings
    ]
    assert rows == [
        (1, 1, "Anna Petrosyan", "John Smith", 2, 0, None),
        (1, 2, "Ann Lee", "Bob Brown", 1, 1, None),  # result only: played
        (2, 1, "John Smith", "Ann Lee", 2, 0, Unplayed.FORFEIT),  # Termination "forfeit"
        (
            2,
            2,
            "Bob Brown",
            "Anna Petrosyan",
            0,
            2,
            Unplayed.FORFEIT,
        ),  # lichess "Abandoned", no move
        (2, 3, "Maria Garcia", "Zed", 0, 2, None),  # lost on time after moves: played
        (3, 1, "Anna Petrosyan", "Maria Garcia", 2, 0, Unplayed.FORFEIT),  # a comment says forfeit
    ]
    assert list(names.values()) == [
        "Anna Petrosyan",
        "John Smith",
        "Ann Lee",
        "Bob Brown",
        "Maria Garcia",
        "Zed",
    ]
    assert (record.name, record.date, record.rounds) == ("Tuesday Rapid", dt.date(2024, 3, 5), 3)
    assert record.time_control is TimeControl.RAPID  # 600+5: 10 + 5 minutes (FIDE A.1)
    assert (record.kind, record.format) == (TournamentKind.CHESS, "pgn")
    assert [p.line for p in record.pairings] == [1, 14, 24, 34, 44, 54]


def test_the_movetext_is_kept_with_its_clock_comments_and_the_tags_as_written() -> None:
    first, second = read_tournament_file(str(DATA / "club_night.pgn")).pairings[:2]
    assert first.moves == (
        "1. e4 { [%clk 0:10:00] } 1... e5 { [%clk 0:09:58] } 2. Qh5 Nc6 3. Bc4 Nf6\n4. Qxf7# 1-0"
    )
    assert dict(first.headers)["TimeControl"] == "600+5"
    assert second.moves is None and "Site" in dict(second.headers)
    assert ("Site", "?") not in read_tournament_file(str(DATA / "club_night.pgn")).pairings[
        2
    ].headers


def test_games_without_round_tags_take_their_order_and_unknown_dates_stay_unknown() -> None:
    record = read_tournament_file(str(DATA / "no_rounds_crlf.pgn"))
    assert [(p.round, p.board, p.white, p.black) for p in record.pairings] == [
        (1, None, 1, 2),
        (2, None, 2, 1),
    ]
    assert (record.name, record.date, record.time_control) == ("", None, TimeControl.STANDARD)
    assert record.pairings[0].moves == "1. f3 e5 2. g4 Qh4# 0-1"


def test_a_crlf_handle_that_was_not_translated_reads_the_same() -> None:
    raw = (DATA / "no_rounds_crlf.pgn").read_bytes().decode()
    record = read_pgn(io.StringIO(raw, newline=""), "raw.pgn")
    assert [(p.round, p.white_points) for p in record.pairings] == [(1, 0), (2, 2)]


def test_a_bughouse_file_is_a_bughouse_tournament_with_its_moves_kept() -> None:
    record = read_tournament_file(str(DATA / "bughouse.pgn"))
    assert record.kind is TournamentKind.BUGHOUSE
    assert record.pairings[0].moves == "1. e4 e5 2. Nf3 P@f6 3. N@g5 fxg5 1-0"
    assert record.pairings[1].moves is None and record.pairings[1].played


@pytest.mark.parametrize(
    ("control", "expected"),
    [
        ("5400+30", TimeControl.STANDARD),
        ("3600", TimeControl.STANDARD),
        ("40/7200:3600", TimeControl.STANDARD),
        ("900+10", TimeControl.RAPID),
        ("1500", TimeControl.RAPID),
        ("600", TimeControl.BLITZ),
        ("180+2", TimeControl.BLITZ),
        ("300+0", TimeControl.BLITZ),
        ("3000+60", TimeControl.STANDARD),
    ],
)
def test_the_time_control_tag_gives_the_fide_category(control: str, expected: TimeControl) -> None:
    text = game({"White": "A", "Black": "B", "Result": "1-0", "TimeControl": control}, "1-0")
    assert read_pgn(io.StringIO(text)).time_control is expected


def test_a_lichess_event_name_gives_the_time_control_when_no_tag_does() -> None:
    text = game(
        {"Event": "Rated Blitz game", "White": "A", "Black": "B", "Result": "1-0"}, "1. e4 e5 1-0"
    )
    assert read_pgn(io.StringIO(text)).time_control is TimeControl.BLITZ


GOOD = {"Event": "E", "Round": "1", "White": "A", "Black": "B", "Result": "1-0"}


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (game(GOOD, "1. e4 e5 2. Ke3 1-0"), 7, ["illegal san: 'Ke3'", "expected legal moves"]),
        (game(GOOD, "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Qxh7 1-0"), 9, ["Qxh7"]),
        (
            game({**GOOD, "Result": "*"}, "1. e4 *"),
            1,
            ["result '*'", "unfinished", "1-0, 0-1 or 1/2-1/2"],
        ),
        (game({**GOOD, "Result": "2-0"}, "2-0"), 1, ["result '2-0'"]),
        (game({**GOOD, "White": "?"}, "1-0"), 1, ["both player names"]),
        (game({**GOOD, "Variant": "Atomic"}, "1-0"), 1, ["variant 'Atomic' is not supported"]),
        (
            game(GOOD, "1-0") + game({**GOOD, "Round": "?"}, "1-0"),
            9,
            ["no Round tag while others have one"],
        ),
        (
            game(GOOD, "1-0") + game({**GOOD, "Round": "1", "White": "C"}, "1-0"),
            9,
            ["B appears twice in round 1 (first at line 1)"],
        ),
        (game({**GOOD, "Round": "first"}, "1-0"), 1, ["Round 'first'", '"3.2"']),
        (
            game(GOOD, "1-0") + game({**GOOD, "Round": "2", "Variant": "Bughouse"}, "1-0"),
            9,
            ["bughouse and ordinary"],
        ),
    ],
)
def test_a_bad_game_is_refused_with_its_line_and_what_was_expected(
    text: str, line: int, words: list[str]
) -> None:
    with pytest.raises(InputError) as caught:
        read_pgn(io.StringIO(text), "games.pgn")
    assert (caught.value.file, caught.value.line) == ("games.pgn", line)
    for word in words:
        assert word in str(caught.value)


def test_a_file_without_games_is_refused() -> None:
    with pytest.raises(InputError, match="no game found"):
        read_pgn(io.StringIO("\n\n"), "empty.pgn")


def test_writing_keeps_games_with_moves_and_results_only_on_request() -> None:
    record = read_tournament_file(str(DATA / "club_night.pgn"))
    out = io.StringIO()
    write_pgn(record, out)
    assert out.getvalue().count("[Event ") == 2  # the two games with moves
    everything = io.StringIO()
    write_pgn(record, everything, results_only=True)
    again = read_pgn(io.StringIO(everything.getvalue()), "again.pgn")
    assert len(again.pairings) == 3  # every played game (the three forfeits were not played)


def test_moves_of_a_game_both_players_lost_by_forfeit_are_written_with_no_result() -> None:
    """An evening's board can hold typed moves and then a double forfeit (0-0): PGN has no
    result for it, so the game is written with "*" and Termination "forfeit" (the tournament's
    PGN download was a server error); a 0-0 played over the board with "*" alone."""
    moves = "1. e4 e5 2. Nf3 Nc6"
    players = (PlayerEntry(1, "Anna Berg"), PlayerEntry(2, "Ben Cole"))
    both_lost = Pairing(1, 1, 2, 0, 0, played=False, unplayed=Unplayed.DOUBLE_FORFEIT, moves=moves)
    record = TournamentRecord(
        name="Tuesday", date=dt.date(2026, 3, 3), pairings=(both_lost,), players=players
    )
    out = io.StringIO()
    write_pgn(record, out)
    written = chess.pgn.read_game(io.StringIO(out.getvalue()))
    assert written is not None and not written.errors
    assert written.headers["Result"] == "*" and written.headers["Termination"] == "forfeit"
    assert [m.uci() for m in written.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    played = dataclasses.replace(both_lost, played=True, unplayed=None)  # 0-0 over the board
    out = io.StringIO()
    write_pgn(dataclasses.replace(record, pairings=(played,)), out)
    written = chess.pgn.read_game(io.StringIO(out.getvalue()))
    assert written is not None and written.headers["Result"] == "*"
    assert "Termination" not in written.headers


# --- round trip property -----------------------------------------------------------------


def random_movetext(seed: int, plies: int) -> str:
    board, rng = chess.Board(), random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return chess.Board().variation_san(board.move_stack)


@st.composite
def pgn_tournaments(draw: st.DrawFn) -> TournamentRecord:
    names = draw(
        st.lists(
            st.text(st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=20),
            min_size=2,
            max_size=8,
            unique=True,
        )
    )
    pairings = []
    for round_ in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(range(1, len(names) + 1)))
        for board in range(draw(st.integers(1, len(names) // 2))):
            points = draw(st.sampled_from([(2, 0), (0, 2), (1, 1)]))
            moves = random_movetext(draw(st.integers(0, 10**6)), draw(st.integers(1, 60)))
            pairings.append(
                Pairing(
                    round_,
                    order[2 * board],
                    order[2 * board + 1],
                    *points,
                    board=board + 1,
                    moves=moves + " { [%clk 0:05:00] }",
                )
            )
    return TournamentRecord(
        name="Club",
        date=dt.date(2024, 1, 2),
        pairings=tuple(pairings),
        players=tuple(PlayerEntry(n, name) for n, name in enumerate(names, start=1)),
    )


@settings(max_examples=40, deadline=None)
@given(pgn_tournaments())
def test_writing_then_reading_games_keeps_rounds_boards_players_results_and_moves(
    record: TournamentRecord,
) -> None:
    out = io.StringIO()
    write_pgn(record, out)
    again = read_pgn(io.StringIO(out.getvalue()), "round-trip.pgn")
    before = {p.number: p.name for p in record.players}
    after = {p.number: p.name for p in again.players}
    key = lambda p, names: (
        p.round,
        p.board,
        names[p.white],
        names[p.black],
        p.white_points,  # noqa: E731
        p.black_points,
        p.played,
    )
    assert sorted(key(p, after) for p in again.pairings) == sorted(
        key(p, before) for p in record.pairings
    )
    moves = {(p.round, p.board): p.moves for p in record.pairings}
    for pairing in again.pairings:
        assert pairing.moves is not None and pairing.moves.startswith(
            moves[(pairing.round, pairing.board)]
        )
    assert (again.name, again.date) == ("Club", dt.date(2024, 1, 2))


def test_a_comment_line_that_starts_with_a_bracket_stays_in_the_movetext() -> None:
    text = game(GOOD, "1. e4 {\n[%clk 0:05:00] } e5 1-0")
    assert read_pgn(io.StringIO(text)).pairings[0].moves == "1. e4 {\n[%clk 0:05:00] } e5 1-0"


def test_a_game_whose_tags_follow_the_previous_result_without_a_blank_line_is_its_own_game() -> (
    None
):
    text = (
        '[White "A"]\n[Black "B"]\n[Round "1"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
        '[White "C"]\n[Black "D"]\n[Round "1"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n'
    )
    record = read_pgn(io.StringIO(text), "chesscom.pgn")
    names = {p.number: p.name for p in record.players}
    assert [(names[p.white], names[p.black], p.line, p.moves) for p in record.pairings] == [
        ("A", "B", 1, "1. e4 e5 1-0"),
        ("C", "D", 7, "1. d4 d5 0-1"),
    ]


def test_a_broadcast_time_control_written_in_minutes_is_standard() -> None:
    text = game({"White": "A", "Black": "B", "Result": "1-0", "TimeControl": "90+30"}, "1-0")
    assert read_pgn(io.StringIO(text)).time_control is TimeControl.STANDARD


def test_a_file_of_several_events_that_clash_says_so() -> None:
    text = game({**GOOD, "Event": "Open A"}, "1-0") + game(
        {**GOOD, "Event": "Open B", "White": "C"}, "1-0"
    )
    with pytest.raises(
        InputError, match="holds games of 2 different events: expected one tournament per file"
    ):
        read_pgn(io.StringIO(text), "twic.pgn")


@pytest.mark.parametrize(
    ("moves", "line", "said"),
    [
        (
            "1. e4 e5 2. Qh5 d6\n3. Bc4 Nf6 4. Qxe5# 1-0",
            8,
            "games.pgn:8: move 4 (White) 'Qxe5#': written as mate (#), but it only gives check; "
            "the position: rnbqkb1r/ppp2ppp/3p1n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4",
        ),
        (
            "1. e4+ { a comment } e5 1-0",
            7,
            "games.pgn:7: move 1 (White) 'e4+': written as check (+)",
        ),
        (
            "1. e4 e5 { 2. d3+ in a comment } 2. Qh5 (2. d4+ "
            "exd4) 2... Nc6 $2\n3. Qxf7+!? Kxf7\n4. d3+ 1-0",
            9,
            "games.pgn:9: move 4 (White) 'd3+': written as check (+), but it gives no check",
        ),
    ],
)
def test_a_check_or_mate_sign_the_position_contradicts_is_refused_with_its_line(
    moves: str, line: int, said: str
) -> None:
    with pytest.raises(InputError) as caught:
        read_pgn(io.StringIO(game(GOOD, moves)), "games.pgn")
    assert (caught.value.file, caught.value.line) == ("games.pgn", line)
    assert str(caught.value).startswith(said)


def test_a_move_after_the_75_move_rule_is_refused_with_its_line_even_without_any_sign() -> None:
    text = game(GOOD, " ".join(["Nf3", "Nf6", "Ng1", "Ng8"] * 37) + "\nNf3 Nf6 Ng1 1-0")
    with pytest.raises(InputError) as caught:
        read_pgn(io.StringIO(text), "games.pgn")
    assert str(caught.value).startswith(
        "games.pgn:8: move 76 (White) 'Ng1': the game was over before it"
    )
    assert read_pgn(io.StringIO(text.replace(" Ng1 1-0", " 1-0")), "games.pgn").pairings[0].moves


def test_signs_in_comments_and_variations_and_right_signs_are_read() -> None:
    moves = "1. e4 e5 { 2. d3# } 2. Qh5 (2. d4+ exd4) 2... Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0"
    record = read_pgn(io.StringIO(game(GOOD, moves)), "games.pgn")
    assert record.pairings[0].moves is not None and record.pairings[0].moves.endswith(
        "4. Qxf7# 1-0"
    )


def test_a_game_longer_than_max_plies_is_refused_with_its_first_line() -> None:
    from clubrating.formats.movetext import MAX_PLIES

    from tests.formats.long_games import long_game

    for plies, refused in ((MAX_PLIES, False), (MAX_PLIES + 1, True)):
        text = game(GOOD, long_game(plies) + " 1-0")
        if not refused:
            assert read_pgn(io.StringIO(text), "games.pgn").pairings[0].moves
            continue
        with pytest.raises(InputError) as caught:
            read_pgn(io.StringIO(text), "games.pgn")
        assert str(caught.value) == (
            "games.pgn:7: the game is longer than 1,200 half-moves; no game played "
            "under the rules is that long (the longest had 538)"
        )


@pytest.mark.parametrize("tag", ["9" * 5000, "1." + "9" * 5000])
def test_a_round_tag_of_thousands_of_digits_is_one_line(tag: str) -> None:
    # found: int() raised ValueError ("Exceeds the limit (4300 digits)"), a traceback
    text = f'[Round "{tag}"]\n[White "A B"]\n[Black "C D"]\n[Result "1-0"]\n\n1-0\n'
    with pytest.raises(InputError, match="expected a round number such as"):
        read_tournament_text(text, "x.pgn", format="pgn")
