"""The club's initial list: stored history the replay starts from, its names linked as a
tournament's are, replaced by a second file, audited; a bad file stores nothing."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import (
    AuditEntry,
    Club,
    CurrentRating,
    InitialEntry,
    Member,
    RatingChange,
)
from clubrating.club.read.players import player_history
from clubrating.club.services import initial_list as il
from clubrating.errors import Refused
from clubrating.formats.ratinglist import read_rating_list
from tests.club.conftest import ARBITER, make_record
from clubrating.club.services.history import check_history
from clubrating.club.services.members import merge
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament
from clubrating.club.services import tournaments as tournament_services

LIST = "Name;Rating;Games\nAnna Berg;1600;40\nBEN  COLE;1450;3\nCara Dunn;1500;\n"


def listed(text: str = LIST) -> tuple:
    return read_rating_list(io.StringIO(text), "list.csv")


def publish(club: Club, name: str, date: dt.date, games: list[tuple[int, str, str, str]]) -> None:
    players = sorted({p for g in games for p in g[1:3]})
    tournament = import_tournament(club, make_record(name, date, players, games), who=ARBITER)
    accept_exact(tournament, who=ARBITER)
    all_new_members(tournament, who=ARBITER)
    tournament_services.publish(tournament, who=ARBITER)


def rating(club: Club, name: str) -> CurrentRating:
    return CurrentRating.objects.get(member=Member.objects.get(club=club, name=name))


def test_the_list_is_the_start_of_the_history_once_its_names_are_linked(club: Club) -> None:
    publish(club, "Tuesday", dt.date(2024, 1, 9), [(1, "Anna Berg", "Cara Dunn", "1-0")])
    il.seed_ratings(club, listed(), who=ARBITER, source="list.csv")
    assert rating(club, "Anna Berg").rating == 1220  # unlinked rows do not count
    outcome = il.accept_exact_initial(club, who=ARBITER)
    assert outcome.message == "linked 2 names that matched one member exactly"
    change = RatingChange.objects.get(member__name="Anna Berg")
    assert (change.rating_before, change.games_before, change.k) == (1600, 40, 20)
    cara = RatingChange.objects.get(member__name="Cara Dunn")
    assert (cara.rating_before, cara.games_before, cara.provisional_before) == (1500, 20, False)
    assert check_history(club, who=ARBITER).changes_differing == 0


def test_a_listed_name_is_linked_or_made_a_new_member_as_at_an_import(club: Club) -> None:
    il.seed_ratings(club, listed(), who=ARBITER, source="list.csv")
    ben = il.get_initial_row(club, 2)
    il.new_member_initial(ben, who=ARBITER)
    member = Member.objects.get(club=club, name="BEN  COLE")
    assert (
        rating(club, "BEN  COLE").rating == 1450 and rating(club, "BEN  COLE").last_played is None
    )
    other = il.get_initial_row(club, 1)
    with pytest.raises(Refused, match="already 'BEN  COLE' \\(row 2\\)"):
        il.link_initial(other, member, who=ARBITER)
    il.unlink_initial(il.get_initial_row(club, 2), who=ARBITER)
    assert not CurrentRating.objects.filter(member=member).exists()
    actions = list(AuditEntry.objects.filter(club=club).values_list("action", flat=True))
    assert actions[:4] == ["unlink-initial", "link-initial", "new-member", "seed-ratings"]


def test_a_later_tournament_rebuilt_from_its_date_equals_the_full_replay(club: Club) -> None:
    il.seed_ratings(club, listed(), who=ARBITER, source="list.csv")
    il.all_new_initial(club, who=ARBITER)
    publish(club, "One", dt.date(2024, 1, 9), [(1, "Anna Berg", "Cara Dunn", "=")])
    publish(club, "Two", dt.date(2024, 2, 9), [(1, "BEN  COLE", "Dan Eng", "1-0")])
    partial = sorted(
        RatingChange.objects.values_list(
            "tournament_id", "member_id", "rating_before", "rating_after"
        )
    )
    assert check_history(club, who=ARBITER).changes_differing == 0
    assert (
        sorted(
            RatingChange.objects.values_list(
                "tournament_id", "member_id", "rating_before", "rating_after"
            )
        )
        == partial
    )
    ben = RatingChange.objects.get(member__name="BEN  COLE")
    assert (ben.rating_before, ben.games_before, ben.provisional_before) == (1450, 3, True)


def test_a_second_list_replaces_the_first_and_keeps_the_links_of_names_written_as_before(
    club: Club,
) -> None:
    il.seed_ratings(club, listed(), who=ARBITER, source="list.csv")
    il.all_new_initial(club, who=ARBITER)
    outcome = il.seed_ratings(
        club, listed("name,rating\nanna berg,1700\nEva Fox,1300\n"), who=ARBITER, source="new.csv"
    )
    assert outcome.message == "initial list of 2 players from new.csv (1 linked to members)"
    assert list(
        InitialEntry.objects.filter(club=club).values_list("name", "rating", "member__name")
    ) == [("anna berg", 1700.0, "Anna Berg"), ("Eva Fox", 1300.0, None)]
    assert rating(club, "Anna Berg").rating == 1700
    assert not CurrentRating.objects.filter(member__name="Cara Dunn").exists()
    entry = AuditEntry.objects.filter(club=club, action="seed-ratings").first()
    assert entry.old["rows"][0][:3] == ["Anna Berg", 1600.0, 40] and entry.new["rows"][1] == [
        "Eva Fox",
        1300.0,
        None,
        None,
    ]
    assert check_history(club, who=ARBITER).changes_differing == 0


def test_a_merged_member_brings_the_listed_rating_to_the_one_it_was_merged_into(club: Club) -> None:
    publish(club, "One", dt.date(2024, 1, 9), [(1, "Anna Berg", "Cara Dunn", "1-0")])
    il.seed_ratings(
        club, listed("name,rating,games\nA. Berg,1600,4\n"), who=ARBITER, source="list.csv"
    )
    il.all_new_initial(club, who=ARBITER)
    merge(Member.objects.get(name="A. Berg"), Member.objects.get(name="Anna Berg"), who=ARBITER)
    assert RatingChange.objects.get(member__name="Anna Berg").rating_before == 1600
    history = player_history(Member.objects.get(name="Anna Berg"))
    assert history["initial"] == {"name_as_written": "A. Berg", "rating": 1600.0, "games": 4}


def test_the_players_history_starts_with_the_initial_rating(club: Club) -> None:
    il.seed_ratings(club, listed(), who=ARBITER, source="list.csv")
    il.all_new_initial(club, who=ARBITER)
    publish(club, "One", dt.date(2024, 1, 9), [(1, "Anna Berg", "Cara Dunn", "=")])
    history = player_history(Member.objects.get(name="Anna Berg"))
    assert (
        history["initial"]["rating"] == 1600 and history["tournaments"][0]["rating_before"] == 1600
    )


def test_rating_settings_replay_the_list_too(club: Club) -> None:
    from clubrating.club.services import club_settings

    il.seed_ratings(club, listed("name,rating\nAnna Berg,1600\n"), who=ARBITER, source="list.csv")
    il.all_new_initial(club, who=ARBITER)
    assert rating(club, "Anna Berg").games == 20
    club_settings.change_settings(
        club, club_settings.parse_settings({"k-new-games": "30"}), who=ARBITER
    )
    assert rating(club, "Anna Berg").games == 30


# --- the command line ----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_seed_ratings_and_its_names_from_the_command_line(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "list.csv").write_text(LIST, encoding="utf-8")
    (tmp_path / "evening.csv").write_text(
        "# event: Tuesday\n# date: 2024-01-09\nround,white,black,result\n1,Anna Berg,Dan Eng,1-0\n",
        encoding="utf-8",
    )
    run(capsys, "init", "Riverside")
    run(capsys, "import", "evening.csv")
    run(capsys, "link", "1", "--all-new")
    run(capsys, "publish", "1")
    code, out, _ = run(capsys, "seed-ratings", "list.csv", "--accept-exact")
    assert code == 0 and "initial list of 3 players from list.csv" in out
    assert "Anna Berg                          1600/40 = Anna Berg (member 1)" in out
    assert "2 names to confirm" in out
    code, out, _ = run(capsys, "link", "initial", "3", "Dan Eng", "--new", "2")
    assert code == 0 and "every name is linked" in out
    code, out, _ = run(capsys, "entries", "initial", "--json")
    assert [(r["name"], r["member"]) for r in json.loads(out)] == [
        ("Anna Berg", "Anna Berg"),
        ("BEN  COLE", "BEN  COLE"),
        ("Cara Dunn", "Dan Eng"),
    ]
    code, out, _ = run(capsys, "player", "Anna Berg")
    assert out.splitlines()[3].split() == ["initial", "list", "40", "1600.0"]
    code, out, _ = run(capsys, "rebuild")
    assert code == 0 and "matched the replay exactly" in out


@pytest.mark.django_db(transaction=True)
def test_a_bad_list_is_one_line_with_file_and_line_and_stores_nothing(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.csv").write_text(
        "name,rating,games\nAnna Berg,1600,40\nBen Cole,high,3\n", encoding="utf-8"
    )
    run(capsys, "init", "Riverside")
    code, out, err = run(capsys, "seed-ratings", "bad.csv")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "bad.csv:3: rating 'high': expected a number" in err
    assert (
        not InitialEntry.objects.exists()
        and not AuditEntry.objects.filter(action="seed-ratings").exists()
    )
    code, _, err = run(capsys, "seed-ratings", "missing.csv")
    assert code == 2 and "missing.csv: no such file" in err
    code, _, err = run(capsys, "link", "initial", "9", "Anna")
    assert code == 2 and "the initial list has no row 9" in err
