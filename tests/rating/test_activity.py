"""Who is inactive: the months before the list's latest rated game, by the calendar."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.rating.activity import cutoff, is_inactive, months_before

D = dt.date


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (D(2025, 11, 19), 12, D(2024, 11, 19)),
        (D(2024, 3, 31), 1, D(2024, 2, 29)),  # leap year: the month's last day
        (D(2023, 3, 31), 1, D(2023, 2, 28)),
        (D(2024, 1, 15), 1, D(2023, 12, 15)),  # across the year
        (D(2024, 5, 1), 0, D(2024, 5, 1)),
        (D(2024, 5, 1), 25, D(2022, 4, 1)),
    ],
)
def test_months_before_counts_calendar_months(day: dt.date, months: int, expected: dt.date) -> None:
    assert months_before(day, months) == expected


def test_the_cutoff_is_counted_from_the_latest_rated_game_of_the_list() -> None:
    assert cutoff([D(2024, 11, 19), None, D(2025, 11, 20)], 12) == (
        D(2025, 11, 20),
        D(2024, 11, 20),
    )
    assert cutoff([D(2024, 1, 1)], 0) is None  # the rule is off
    assert cutoff([None], 12) is None  # nobody has played


@pytest.mark.parametrize(
    ("case", "last", "first", "inactive"),
    [
        ("played the day the window opens", D(2024, 11, 20), None, False),
        ("played the day before", D(2024, 11, 19), None, True),
        ("never played, the list began long ago", None, D(2020, 1, 1), True),
        ("never played, the list began within the window", None, D(2025, 1, 1), False),
        ("never played, nobody did", None, None, False),
    ],
)
def test_a_member_is_inactive_without_a_rated_game_since_the_cutoff(
    case: str, last: dt.date | None, first: dt.date | None, inactive: bool
) -> None:
    assert is_inactive(last, first, D(2024, 11, 20)) is inactive, case
