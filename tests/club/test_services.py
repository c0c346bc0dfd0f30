"""The club's services on a real database: import, link, publish, correct, rebuild, merge."""

from __future__ import annotations

import datetime as dt

import pytest

from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CurrentRating,
    Entry,
    Game,
    Member,
    RatingChange,
    Tournament,
)
from clubrating.club.read.tournaments import standings
from clubrating.club.read.players import player_history, rating_list
from clubrating.club.derived.rebuild import rebuild_derived
from clubrating.errors import InputError, NotFound, Refused
from clubrating.formats.records import TournamentKind

from .conftest import ARBITER, make_record
from clubrating.club.services.clubs import create_club
from clubrating.club.services.members import merge, unmerge
from clubrating.club.services.names import (
    accept_exact,
    all_new_members,
    exact_candidates,
    link,
    new_member,
)
from clubrating.club.services.tournaments import (
    change_date,
    correct_result,
    delete_tournament,
    find_game,
    import_tournament,
    unpublish,
)
from clubrating.club.services import tournaments as tournament_services
from clubrating.club.services.evening import start_evening

D1, D2, D3 = dt.date(2026, 1, 7), dt.date(2026, 1, 14), dt.date(2026, 1, 21)
FOUR = ["Anna Berg", "Ben Cole", "Cara Dunn", "Dan Eng"]
ROUND_ROBIN = [
    (1, "Anna Berg", "Ben Cole", "1-0"),
    (1, "Cara Dunn", "Dan Eng", "="),
    (2, "Ben Cole", "Cara Dunn", "0-1"),
    (2, "Dan Eng", "Anna Berg", "0-1"),
    (3, "Anna Berg", "Cara Dunn", "="),
    (3, "Ben Cole", "Dan Eng", "1-0"),
]


def snapshot(club: Club) -> list[tuple]:
    """Every derived row, exactly (floats compared bit for bit)."""
    changes = list(
        RatingChange.objects.filter(tournament__club=club)
        .order_by("tournament_id", "member_id")
        .values_list(
            "tournament_id",
            "member_id",
            "rating_list",
            "rating_before",
            "rating_after",
            "k",
            "games_before",
            "games_rated",
            "score_rated",
            "expected",
            "provisional_before",
        )
    )
    current = list(
        CurrentRating.objects.filter(member__club=club)
        .order_by("member_id", "rating_list")
        .values_list("member_id", "rating_list", "rating", "games", "provisional", "last_played")
    )
    return changes + current


def standing(club: Club) -> dict[str, tuple[float, int]]:
    return {
        r.member.name: (r.rating, r.games) for r in CurrentRating.objects.filter(member__club=club)
    }


def rating_of(club: Club, name: str) -> float:
    return CurrentRating.objects.get(member__club=club, member__name=name).rating


def test_a_published_round_robin_rates_everybody_from_1200(club, publish):
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    ratings = {r["name"]: r for r in rating_list(club)}
    assert set(ratings) == set(FOUR)
    # All start at 1200 with K 40 (R3, R4): Anna scored 2.5 of 3 against expected 1.5.
    assert ratings["Anna Berg"]["rating"] == pytest.approx(1200 + 40 * (2.5 - 1.5))
    assert ratings["Ben Cole"]["rating"] == pytest.approx(1200 + 40 * (1 - 1.5))
    assert all(r["provisional"] and r["games"] == 3 for r in ratings.values())
    assert sum(r["rating"] for r in ratings.values()) == pytest.approx(4 * 1200)


def test_import_is_a_draft_until_published_and_links_nothing_by_itself(club):
    record = make_record("Evening", D1, FOUR, ROUND_ROBIN)
    first = import_tournament(club, record, who=ARBITER, today=D3)
    all_new_members(first, who=ARBITER)
    tournament_services.publish(first, who=ARBITER)
    second = import_tournament(
        club, make_record("Next", D2, FOUR, ROUND_ROBIN[:2]), who=ARBITER, today=D3
    )
    assert second.status == "draft"
    assert Entry.objects.filter(tournament=second, member=None).count() == 4
    with pytest.raises(Refused, match="not linked"):
        tournament_services.publish(second, who=ARBITER)
    outcome = accept_exact(second, who=ARBITER)
    assert "linked 4" in str(outcome)
    assert Entry.objects.filter(tournament=second, member=None).count() == 0


def test_exact_means_the_same_words_in_either_customary_order_and_one_member_only(club):
    first = import_tournament(
        club, make_record("Evening", D1, FOUR, ROUND_ROBIN), who=ARBITER, today=D3
    )
    all_new_members(first, who=ARBITER)
    tournament_services.publish(first, who=ARBITER)
    typed = [
        "BERG, Anna",
        "Cole Ben",
        "Cara Dünn",
        "D. Eng",
    ]  # the last two differ by more than case and order
    games = [(1, typed[0], typed[1], "1-0"), (1, typed[2], typed[3], "0-1")]
    second = import_tournament(club, make_record("Next", D2, typed, games), who=ARBITER, today=D3)
    assert "linked 2" in str(accept_exact(second, who=ARBITER))
    linked = dict(Entry.objects.filter(tournament=second).values_list("name", "member__name"))
    assert linked == {
        "BERG, Anna": "Anna Berg",
        "Cole Ben": "Ben Cole",
        "Cara Dünn": None,
        "D. Eng": None,
    }


def test_exact_links_nobody_when_two_members_carry_the_name(club):
    first = import_tournament(
        club, make_record("Evening", D1, FOUR, ROUND_ROBIN), who=ARBITER, today=D3
    )
    all_new_members(first, who=ARBITER)
    tournament_services.publish(first, who=ARBITER)
    twin = ["Berg, Anna", "Ben Cole", "Cara Dunn", "Dan Eng"]
    other = import_tournament(
        club, make_record("Twins", D2, twin, [(1, twin[0], twin[1], "1-0")]), who=ARBITER, today=D3
    )
    new_member(Entry.objects.get(tournament=other, name="Berg, Anna"), who=ARBITER)
    assert len(exact_candidates(club, "Anna Berg")) == 2
    third = import_tournament(
        club, make_record("Third", D3, FOUR, ROUND_ROBIN[:1]), who=ARBITER, today=D3
    )
    accept_exact(third, who=ARBITER)
    assert Entry.objects.get(tournament=third, name="Anna Berg").member is None


def test_byes_forfeits_and_bughouse_never_change_a_rating(club, publish):
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    before = standing(club)
    publish(
        "Forfeits",
        D2,
        FOUR,
        [(1, "Anna Berg", "Ben Cole", "+-"), (1, "Cara Dunn", "Dan Eng", "-+")],
        byes=[(2, "Anna Berg", 2), (2, "Ben Cole", 1)],
    )
    publish(
        "Bughouse night",
        D3,
        FOUR,
        [(1, "Anna Berg", "Ben Cole", "1-0"), (1, "Cara Dunn", "Dan Eng", "1-0")],
        kind=TournamentKind.BUGHOUSE,
    )
    assert standing(club) == before
    table = standings(Tournament.objects.get(name="Forfeits"))
    anna = next(p for p in table["players"] if p["name"] == "Anna Berg")
    assert anna["points"] == 2.0 and anna["change"] is None
    assert [c["rated"] for c in anna["rounds"]] == [False, False]


def test_a_correction_rebuilds_and_its_reversal_restores_the_history_exactly(club, publish):
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    second = publish("Evening 2", D2, FOUR, ROUND_ROBIN)
    publish("Evening 3", D3, FOUR, ROUND_ROBIN)
    before = snapshot(club)
    game = find_game(second, 1, "Anna Berg")
    outcome = correct_result(game, "0-1", who=ARBITER)
    assert outcome.rebuild is not None and outcome.rebuild.tournaments == 2
    assert "rebuilt 2 tournaments, 4 ratings changed" in str(outcome)
    assert snapshot(club) != before
    correct_result(Game.objects.get(id=game.id), "1-0", who=ARBITER)
    assert snapshot(club) == before
    assert rebuild_derived(club, reason="check").changes_differing == 0


def test_deleting_unpublishing_and_redating_each_rebuild_the_history(club, publish):
    first = publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    second = publish("Evening 2", D2, FOUR, ROUND_ROBIN[:2])
    only_second_then_first = snapshot(club)
    unpublish(first, who=ARBITER)
    assert RatingChange.objects.filter(tournament=first).count() == 0
    assert rating_of(club, "Ben Cole") == pytest.approx(1200 + 40 * (0 - 0.5))
    tournament_services.publish(Tournament.objects.get(id=first.id), who=ARBITER)
    assert snapshot(club) == only_second_then_first
    outcome = change_date(Tournament.objects.get(id=second.id), dt.date(2025, 12, 31), who=ARBITER)
    assert outcome.rebuild.tournaments == 2
    assert (
        RatingChange.objects.get(tournament=second, member__name="Ben Cole").rating_before == 1200
    )
    delete_tournament(Tournament.objects.get(id=second.id), who=ARBITER)
    assert not Tournament.objects.filter(id=second.id).exists()
    assert RatingChange.objects.get(tournament=first, member__name="Ben Cole").rating_before == 1200
    assert rebuild_derived(club, reason="check").changes_differing == 0


def test_a_manual_rebuild_reports_a_stored_rating_that_was_quietly_wrong(club, publish):
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    assert rebuild_derived(club, reason="check", expect_difference=False).changes_differing == 0
    RatingChange.objects.filter(member__name="Anna Berg").update(
        rating_after=1500
    )  # a missed rebuild
    report = rebuild_derived(club, reason="check", expect_difference=False)
    assert report.changes_differing == 1
    assert rebuild_derived(club, reason="check").changes_differing == 0


def test_a_rebuild_from_a_tournament_on_equals_a_full_replay(club, publish):
    tournaments = [
        publish(f"Evening {i}", D1 + dt.timedelta(days=7 * i), FOUR, ROUND_ROBIN) for i in range(6)
    ]
    game = find_game(tournaments[3], 2, "Dan Eng")
    correct_result(game, "1-0", who=ARBITER)  # replays from tournament 3 on, from snapshots
    incremental = snapshot(club)
    full = rebuild_derived(club, reason="full")
    assert full.changes_differing == 0
    assert snapshot(club) == incremental


def test_every_change_of_history_leaves_an_audit_entry(club, publish):
    t = publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    correct_result(find_game(t, 1, "1"), "=", who="alice")
    entry = AuditEntry.objects.filter(club=club, action="correct-result").get()
    assert (
        entry.who == "alice"
        and entry.old == {"result": "1-0"}
        and entry.new == {"result": "1/2-1/2"}
    )
    assert {"create-club", "import", "new-member", "link", "publish"} <= set(
        AuditEntry.objects.filter(club=club).values_list("action", flat=True)
    )


def test_merge_and_unmerge_restore_both_histories_even_after_later_tournaments(club, publish):
    publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    other = ["Anna Berg", "Ben Cole", "Cara Dunn", "D. Eng"]
    renamed = [
        (r, w.replace("Dan Eng", "D. Eng"), b.replace("Dan Eng", "D. Eng"), x)
        for r, w, b, x in ROUND_ROBIN
    ]
    publish("Evening 2", D2, other, renamed)
    dan, d = Member.objects.get(name="Dan Eng"), Member.objects.get(name="D. Eng")
    separate = snapshot(club)
    dan_alone = player_history(dan)
    merge(d, dan, who=ARBITER)
    merged = player_history(Member.objects.get(id=dan.id))
    assert [t["tournament"] for t in merged["tournaments"]] == ["Evening 1", "Evening 2"]
    assert "D. Eng" in merged["aliases"]
    publish("Evening 3", D3, FOUR, ROUND_ROBIN)  # later work goes on while merged
    unmerge(Member.objects.get(id=d.id), who=ARBITER)
    unpublish(Tournament.objects.get(name="Evening 3"), who=ARBITER)
    assert snapshot(club) == separate
    assert player_history(Member.objects.get(id=dan.id))["tournaments"] == dan_alone["tournaments"]


def test_refused_operations_change_nothing(club, publish):
    t = publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    anna = Member.objects.get(name="Anna Berg")
    stranger = Member.objects.create(club=create_club("Other club", who=ARBITER), name="Eve Fox")
    before, audit_count = snapshot(club), AuditEntry.objects.count()
    with pytest.raises(Refused, match="itself"):
        merge(anna, anna, who=ARBITER)
    with pytest.raises(Refused, match="never merged"):
        unmerge(anna, who=ARBITER)
    with pytest.raises(Refused, match="another club"):
        link(Entry.objects.get(tournament=t, number=1), stranger, who=ARBITER)
    with pytest.raises(Refused, match="both played"):
        merge(anna, Member.objects.get(name="Ben Cole"), who=ARBITER)
    assert snapshot(club) == before and AuditEntry.objects.count() == audit_count


def test_the_same_file_twice_and_a_future_date_are_refused_and_nothing_is_stored(club):
    record = make_record("Evening", D1, FOUR, ROUND_ROBIN)
    t = import_tournament(club, record, who=ARBITER, content_hash="abc", today=D3)
    with pytest.raises(Refused, match=f"tournament {t.id} 'Evening'"):
        import_tournament(club, record, who=ARBITER, content_hash="abc", today=D3)
    with pytest.raises(InputError, match="in the future"):
        import_tournament(club, make_record("Later", D3, FOUR, ROUND_ROBIN), who=ARBITER, today=D2)
    assert Tournament.objects.count() == 1 and Entry.objects.count() == 4


@pytest.mark.parametrize("early", [dt.date(1, 1, 1), dt.date(1850, 12, 31)])
def test_a_date_before_any_tournament_is_refused_by_every_writer_and_nothing_is_stored(
    club, publish, early
):
    t = publish("Evening", D1, FOUR, ROUND_ROBIN)
    before = snapshot(club), AuditEntry.objects.count(), list(Tournament.objects.values())
    with pytest.raises(InputError, match=f"{early.isoformat()} is before 1851-01-01"):
        import_tournament(club, make_record("Old", early, FOUR, ROUND_ROBIN), who=ARBITER)
    with pytest.raises(InputError, match=f"{early.isoformat()} is before 1851-01-01"):
        change_date(t, early, who=ARBITER)
    with pytest.raises(InputError, match=f"{early.isoformat()} is before 1851-01-01"):
        start_evening(club, "Old evening", early, 5, who=ARBITER)
    assert (snapshot(club), AuditEntry.objects.count(), list(Tournament.objects.values())) == before


def test_results_typed_by_the_arbiter_are_checked(club, publish):
    t = publish("Evening 1", D1, FOUR, ROUND_ROBIN)
    with pytest.raises(InputError, match="unknown result"):
        correct_result(find_game(t, 1, "Anna Berg"), "2-0", who=ARBITER)
    with pytest.raises(NotFound):
        find_game(t, 9, "Anna Berg")
