"""Errors raised in a worker process (analysis runs in a process pool) come back pickled: every
kind of the project's errors must survive the trip with its one-line text and its attributes."""

import pickle
from typing import TypeVar

import chess

from clubrating.analysis.analyzer import OverBudget
from clubrating.errors import InputError, NotFound, Text
from clubrating.formats.movetext import MoveError


E = TypeVar("E", bound=Exception)


def _trip(error: E) -> E:
    back: E = pickle.loads(pickle.dumps(error))
    return back


def test_an_error_over_the_budget_comes_back_from_a_worker_with_its_line() -> None:
    error = OverBudget(12.5, 10.0, 100_000, 40, 90)
    back = _trip(error)
    assert type(back) is OverBudget
    assert str(back) == str(error)
    assert "40 of 90" in str(back)


def test_a_bad_move_comes_back_with_where_it_stood() -> None:
    error = MoveError(12, chess.BLACK, "Kz9", chess.STARTING_FEN, Text("no such square"), 7)
    back = _trip(error)
    assert type(back) is MoveError
    assert (back.number, back.typed, back.offset) == (12, "Kz9", 7)
    assert str(back) == str(error)


def test_the_plain_kinds_keep_their_place_and_text() -> None:
    error = InputError("expected %(what)s", what="a rating", file="list.csv", line=3)
    back = _trip(error)
    assert str(back) == "list.csv:3: expected a rating"
    assert (back.file, back.line) == ("list.csv", 3)
    assert str(_trip(NotFound("no member %(n)s", n=4))) == "no member 4"
