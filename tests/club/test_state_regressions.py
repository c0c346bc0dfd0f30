"""Sequences of arbiter actions the state machine (test_state_machine.py) found to leave
wrong numbers, each as a plain test: the stored ratings must equal a full replay after it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from clubrating.club.derived.ledger import rebuild_cpi
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CurrentRating,
    Entry,
    InitialEntry,
    Member,
    RatingChange,
)
from clubrating.club.derived.ratings import rebuild_ratings
from clubrating.club.services import initial_list
from clubrating.club.services.club_settings import change_settings, parse_settings
from clubrating.errors import Refused
from clubrating.formats.ratinglist import ListedRating
from clubrating.formats.records import TournamentKind

from .conftest import ARBITER, Publisher, make_record
from .rating_oracle import oracle_differences
from clubrating.club.services.members import merge
from clubrating.club.services.names import accept_exact, all_new_members, link, new_member
from clubrating.club.services.tournaments import SameTournament, change_date, import_tournament
from clubrating.club.services import tournaments as tournament_services

DAY = dt.date(2026, 3, 2)


def replay_differences(club: Club) -> tuple[int, int, int]:
    """(rating changes, current ratings, ledger rows) a full rebuild would change; nothing is
    kept."""
    with transaction.atomic():
        ratings = rebuild_ratings(club, reason="check", expect_difference=False)
        ledger = rebuild_cpi(club, from_scratch=True)
        transaction.set_rollback(True)
    return ratings.changes_differing, ratings.ratings_changed, ledger.entries_differing


def test_a_published_name_made_a_new_member_of_the_same_name_moves_its_games(
    club: Club, publish: Publisher
) -> None:
    tournament = publish(
        "Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")]
    )
    entry = Entry.objects.get(tournament=tournament, name="Anna Berg")
    old = entry.member
    new_member(entry, who=ARBITER)
    entry.refresh_from_db()
    assert entry.member_id != old.id and entry.member.name == old.name
    assert replay_differences(club) == (0, 0, 0)
    assert list(
        RatingChange.objects.filter(tournament=tournament, member__name="Anna Berg").values_list(
            "member_id", flat=True
        )
    ) == [entry.member_id]
    assert not Member.objects.get(pk=old.pk).rating_changes.exists()


def test_a_name_cannot_be_linked_to_a_member_whose_merged_twin_plays_in_the_tournament(
    club: Club, publish: Publisher
) -> None:
    first = publish("Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    publish(
        "Tuesday",
        DAY + dt.timedelta(days=1),
        ["A. Berg", "Cara Dunn"],
        [(1, "A. Berg", "Cara Dunn", "0-1")],
    )
    anna, a_berg = Member.objects.get(name="Anna Berg"), Member.objects.get(name="A. Berg")
    merge(anna, a_berg, who=ARBITER)
    ben = Entry.objects.get(tournament=first, name="Ben Cole")
    with pytest.raises(Refused, match="already 'Anna Berg'"):
        link(ben, a_berg, who=ARBITER)
    assert Entry.objects.get(pk=ben.pk).member.name == "Ben Cole"


def test_a_merge_is_refused_when_a_member_merged_earlier_shares_a_tournament(
    club: Club, publish: Publisher
) -> None:
    publish("Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    publish(
        "Tuesday",
        DAY + dt.timedelta(days=1),
        ["A. Berg", "Cara Dunn"],
        [(1, "A. Berg", "Cara Dunn", "0-1")],
    )
    anna, a_berg, ben = (Member.objects.get(name=n) for n in ("Anna Berg", "A. Berg", "Ben Cole"))
    merge(anna, a_berg, who=ARBITER)
    with pytest.raises(Refused, match="both played in tournament"):
        merge(ben, a_berg, who=ARBITER)  # Ben played Anna, who is A. Berg now
    assert Member.objects.get(pk=ben.pk).merged_into_id is None


def listed(*rows: tuple[str, float]) -> list[ListedRating]:
    return [ListedRating(name, rating, 30, line) for line, (name, rating) in enumerate(rows, 1)]


def test_an_initial_row_linked_to_another_member_of_the_same_name_moves_its_rating(
    club: Club, publish: Publisher
) -> None:
    publish("Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    twin = Member.objects.create(
        club=club, name="Anna Berg"
    )  # a second Anna, as a stale page makes one
    initial_list.seed_ratings(club, listed(("Anna Berg", 1800.0)), who=ARBITER, source="list.csv")
    row = InitialEntry.objects.get(club=club)
    initial_list.link_initial(
        row, Member.objects.filter(name="Anna Berg").order_by("id").first(), who=ARBITER
    )
    initial_list.link_initial(row, twin, who=ARBITER)
    assert replay_differences(club) == (0, 0, 0)


def test_two_members_with_initial_ratings_cannot_be_merged(club: Club) -> None:
    initial_list.seed_ratings(
        club, listed(("Anna Berg", 1800.0), ("A. Berg", 1500.0)), who=ARBITER, source="list.csv"
    )
    initial_list.all_new_initial(club, who=ARBITER)
    anna, a_berg = Member.objects.get(name="Anna Berg"), Member.objects.get(name="A. Berg")
    with pytest.raises(Refused, match="initial list"):
        merge(anna, a_berg, who=ARBITER)
    assert Member.objects.get(pk=anna.pk).merged_into_id is None


def test_an_initial_row_cannot_be_linked_to_a_member_whose_merged_twin_has_one(club: Club) -> None:
    initial_list.seed_ratings(
        club, listed(("Anna Berg", 1800.0), ("A. Berg", 1500.0)), who=ARBITER, source="list.csv"
    )
    initial_list.new_member_initial(InitialEntry.objects.get(name="Anna Berg"), who=ARBITER)
    anna = Member.objects.get(name="Anna Berg")
    a_berg = Member.objects.create(club=club, name="A. Berg")
    merge(anna, a_berg, who=ARBITER)
    with pytest.raises(Refused, match="already 'Anna Berg'"):
        initial_list.link_initial(InitialEntry.objects.get(name="A. Berg"), a_berg, who=ARBITER)


def test_a_new_initial_list_that_spells_a_linked_name_twice_keeps_the_member_on_the_first_row(
    club: Club,
) -> None:
    initial_list.seed_ratings(club, listed(("CARA DUNN", 1500.0)), who=ARBITER, source="old.csv")
    initial_list.new_member_initial(InitialEntry.objects.get(club=club), who=ARBITER)
    initial_list.seed_ratings(
        club, listed(("CARA DUNN", 1500.0), ("Cara Dunn", 1600.0)), who=ARBITER, source="new.csv"
    )
    rows = list(
        InitialEntry.objects.filter(club=club)
        .order_by("number")
        .values_list("name", "member__name")
    )
    assert rows == [("CARA DUNN", "CARA DUNN"), ("Cara Dunn", None)]
    assert replay_differences(club) == (0, 0, 0)


def test_redating_a_tournament_to_its_own_date_is_refused_and_keeps_its_place_in_the_day(
    club: Club, publish: Publisher
) -> None:
    first = publish(
        "Morning", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")]
    )
    publish("Evening", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "0-1")])
    audits = AuditEntry.objects.count()
    with pytest.raises(Refused, match="already"):
        change_date(first, DAY, who=ARBITER, today=dt.date(2030, 1, 1))
    first.refresh_from_db()
    assert first.sequence == 1 and AuditEntry.objects.count() == audits


@pytest.mark.parametrize("names", [("Anna Berg", "Berg, Anna"), ("Cara Dunn", "CARA DUNN")])
def test_a_file_of_two_spellings_of_one_name_imported_again_is_refused_as_the_same(
    club: Club, names: tuple[str, str]
) -> None:
    record = make_record("Event", DAY, names, [(1, names[0], names[1], "1-0")])
    import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    with pytest.raises(SameTournament):
        import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))


def test_a_later_publish_keeps_the_initial_ratings_on_a_list_whose_only_tournament_had_no_games(
    club: Club, publish: Publisher
) -> None:
    """With one list per time control the initial list counts on each list the history has; a
    rebuild from a later tournament must not drop the rows of a list it does not replay."""
    Club.objects.filter(pk=club.pk).update(separate_lists=True)
    club.refresh_from_db()
    initial_list.seed_ratings(
        club, listed(("Anna Berg", 1800.0), ("Ben Cole", 1600.0)), who=ARBITER, source="list.csv"
    )
    initial_list.all_new_initial(club, who=ARBITER)
    record = make_record(
        "Rapid night", DAY, ["Anna Berg", "Ben Cole"], [], byes=[(1, "Anna Berg", 1)]
    )
    rapid = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    rapid.time_control = "rapid"
    rapid.save(update_fields=["time_control"])
    accept_exact(rapid, who=ARBITER)
    tournament_services.publish(rapid, who=ARBITER)
    assert replay_differences(club) == (0, 0, 0)
    publish(
        "Monday",
        DAY + dt.timedelta(days=7),
        ["Anna Berg", "Ben Cole"],
        [(1, "Anna Berg", "Ben Cole", "1-0")],
    )
    assert replay_differences(club) == (0, 0, 0)


def test_under_fide_rules_the_current_ratings_are_provisional_by_fides_count_not_the_clubs_old_one(
    club: Club, publish: Publisher
) -> None:
    """policy=fide fixes the numbers (docs/ratings.md): a club that counted a player provisional
    below 1 game and then chose FIDE's rules rates him as provisional below 5 (R7), and its list
    must show him so. The independent oracle found the list still using the club's old 1."""
    change_settings(club, parse_settings({"provisional-games": "1"}), who=ARBITER)
    publish("Monday", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "1-0")])
    assert set(
        CurrentRating.objects.filter(member__club=club).values_list("provisional", flat=True)
    ) == {False}
    change_settings(club, parse_settings({"policy": "fide"}), who=ARBITER)
    assert set(
        CurrentRating.objects.filter(member__club=club).values_list("provisional", flat=True)
    ) == {True}
    assert oracle_differences(club) == []


def test_a_bughouse_night_opens_no_rating_list(club: Club) -> None:
    """R8: bughouse is kept out of the rating. With one list per time control, a published
    bughouse blitz night made a blitz list holding the initial list's members, a list of no
    rated game. The independent oracle found it."""
    Club.objects.filter(pk=club.pk).update(separate_lists=True)
    club.refresh_from_db()
    initial_list.seed_ratings(club, listed(("Anna Berg", 1500.0)), who=ARBITER, source="list.csv")
    initial_list.all_new_initial(club, who=ARBITER)
    record = make_record(
        "Bughouse",
        DAY,
        ["Anna Berg", "Ben Cole"],
        [(1, "Anna Berg", "Ben Cole", "1-0")],
        kind=TournamentKind.BUGHOUSE,
    )
    night = import_tournament(club, record, who=ARBITER, today=dt.date(2030, 1, 1))
    night.time_control = "blitz"
    night.save(update_fields=["time_control"])
    accept_exact(night, who=ARBITER)
    all_new_members(night, who=ARBITER)
    tournament_services.publish(night, who=ARBITER)
    assert list(
        CurrentRating.objects.filter(member__club=club).values_list("rating_list", "rating")
    ) == [("standard", 1500.0)]
    assert oracle_differences(club) == [] and replay_differences(club) == (0, 0, 0)


def test_an_initial_rating_of_2400_keeps_k_10_when_a_later_tournament_is_published(
    club: Club, publish: Publisher
) -> None:
    """docs/ratings.md: an initial rating of 2400 or more counts as FIDE's "once reached
    2400" (K 10 under policy=fide). Anna starts at 2401 and drops to 2396; the publish of a
    later tournament replays from the stored rows, which forgot the initial 2401, and rated
    her at K 20. The independent oracle found it."""
    Club.objects.filter(pk=club.pk).update(policy="fide")
    club.refresh_from_db()
    initial_list.seed_ratings(
        club, listed(("Anna Berg", 2401.0), ("Ben Cole", 2401.0)), who=ARBITER, source="list.csv"
    )
    initial_list.all_new_initial(club, who=ARBITER)
    publish("One", DAY, ["Anna Berg", "Ben Cole"], [(1, "Anna Berg", "Ben Cole", "0-1")])
    later = publish(
        "Two",
        DAY + dt.timedelta(days=7),
        ["Anna Berg", "Ben Cole"],
        [(1, "Anna Berg", "Ben Cole", "0-1")],
    )
    assert list(
        RatingChange.objects.filter(tournament=later)
        .order_by("rating_before")
        .values_list("rating_before", "rating_after", "k")
    ) == [(2396.0, 2391.0, 10.0), (2406.0, 2411.0, 10.0)]
    assert oracle_differences(club) == [] and replay_differences(club) == (0, 0, 0)
