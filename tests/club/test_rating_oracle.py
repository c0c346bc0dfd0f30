"""The harness of the independent oracle (rating_oracle.py) sees a stored number that is wrong."""

from __future__ import annotations

import datetime as dt

from clubrating.club.store.models import Club, CurrentRating, RatingChange
from clubrating.club.services import initial_list
from clubrating.formats.ratinglist import ListedRating

from .conftest import ARBITER, Publisher
from .rating_oracle import oracle_differences
from clubrating.club.services.tournaments import unpublish

DAY = dt.date(2026, 3, 2)


def test_the_stored_ratings_of_a_small_history_are_the_oracles(
    club: Club, publish: Publisher
) -> None:
    initial_list.seed_ratings(
        club, [ListedRating("Anna Berg", 1500.0, None, 1)], who=ARBITER, source="list.csv"
    )
    publish(
        "Monday",
        DAY,
        ["Anna Berg", "Ben Cole", "Cara Dunn"],
        [
            (1, "Anna Berg", "Ben Cole", "1-0"),
            (2, "Cara Dunn", "Ben Cole", "="),
            (3, "Anna Berg", "Cara Dunn", "+-"),
        ],
    )
    initial_list.accept_exact_initial(club, who=ARBITER)
    publish(
        "Tuesday",
        DAY + dt.timedelta(days=1),
        ["Anna Berg", "Cara Dunn"],
        [(1, "Cara Dunn", "Anna Berg", "1-0")],
    )
    assert (
        RatingChange.objects.filter(tournament__club=club).count() == 3
    )  # R7: Anna, established, is not moved
    assert oracle_differences(club) == []


def test_a_rating_change_or_current_rating_off_by_a_thousandth_is_reported(
    club: Club, publish: Publisher
) -> None:
    publish("Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    change = RatingChange.objects.filter(tournament__club=club).order_by("id").first()
    assert change is not None
    RatingChange.objects.filter(pk=change.pk).update(rating_after=change.rating_after + 0.001)
    CurrentRating.objects.filter(member=change.member).update(games=7)
    found = oracle_differences(club)
    assert len(found) == 2 and found[0].startswith("rating change of tournament")
    assert found[1].startswith(f"current rating of member {change.member_id}")


def test_a_missing_row_is_reported(club: Club, publish: Publisher) -> None:
    tournament = publish(
        "Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "=")]
    )
    RatingChange.objects.filter(tournament=tournament).delete()
    assert len(oracle_differences(club)) == 2
    unpublish(tournament, who=ARBITER)
    assert oracle_differences(club) == []
