"""Members who leave the club and come back: off the current list and the evening's
registration, every tournament and the rating kept, back by one action; audited."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from django.test import Client

from clubrating.cli import main
from clubrating.club.services import evening as evenings
from clubrating.club.store.models import AuditEntry, Club, CurrentRating, Member, RatingChange
from clubrating.errors import Refused
from tests.club.crawl import assert_views_agree
from tests.club.rating_oracle import oracle_differences
from tests.web.conftest import WHO, member, publish_typed
from clubrating.club.services.members import come_back, leave, merge

NIGHT = "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana White, 1/2-1/2"
DAY = dt.date(2026, 11, 30)


def listed(client: Client) -> list[str]:
    players = json.loads(client.get("/c/riverside/ratings.json").content)["players"]
    return [p["name"] for p in players]


def test_a_member_who_left_is_off_the_list_keeps_the_history_and_comes_back_unchanged(
    club: Club,
) -> None:
    t = publish_typed(club, NIGHT, "Autumn", dt.date(2026, 10, 6))
    bob = member(club, "Bob Jones")
    rating = CurrentRating.objects.get(member=bob).rating
    leave(bob, DAY, who=WHO)
    web = Client()
    assert "Bob Jones" not in listed(web) and "Anna Smith" in listed(web)
    assert "Bob Jones" not in web.get("/c/riverside/").content.decode()
    assert "Bob Jones" in web.get(f"/c/riverside/t/{t.id}/").content.decode()  # his place kept
    page = web.get(f"/c/riverside/p/{bob.id}/").content.decode()
    assert "Left the club on 2026-11-30" in page
    assert json.loads(web.get(f"/api/c/riverside/players/{bob.id}").content)["left"] == (
        "2026-11-30"
    )
    assert CurrentRating.objects.get(member=bob).rating == rating  # nothing replayed or deleted
    assert RatingChange.objects.filter(member=bob, tournament=t).exists()
    assert oracle_differences(club) == []
    assert_views_agree(club)
    come_back(bob, who=WHO)
    assert "Bob Jones" in listed(web)
    assert CurrentRating.objects.get(member=bob).rating == rating
    entries = AuditEntry.objects.filter(club=club, action__in=("member-left", "member-returned"))
    assert [(e.action, e.old, e.new) for e in entries.order_by("id")] == [
        ("member-left", {"left": None}, {"left": "2026-11-30"}),
        ("member-returned", {"left": "2026-11-30"}, {"left": None}),
    ]


@pytest.mark.parametrize(
    ("step", "refusal"),
    [
        ("twice", "left already, on 2026-11-30"),
        ("future", "is after today"),
        ("merged", "was merged into"),
        ("not-left", "has not left the club"),
    ],
)
def test_what_cannot_be_said_of_a_member_is_refused_and_changes_nothing(
    club: Club, step: str, refusal: str
) -> None:
    publish_typed(club, NIGHT, "Autumn", dt.date(2026, 10, 6))
    bob, anna = member(club, "Bob Jones"), member(club, "Anna Smith")
    if step == "twice":
        leave(bob, DAY, who=WHO)
    if step == "merged":  # said of a member merged away: refused, naming the one it is now
        absorbed = Member.objects.create(club=club, name="Anne Smith")
        merge(absorbed, anna, who=WHO)
        bob = Member.objects.get(pk=absorbed.pk)
    audits = AuditEntry.objects.filter(club=club).count()
    with pytest.raises(Refused, match=refusal):
        if step == "not-left":
            come_back(bob, who=WHO)
        else:
            leave(bob, dt.date(2099, 1, 1) if step == "future" else DAY, who=WHO)
    assert AuditEntry.objects.filter(club=club).count() == audits


def test_the_evening_does_not_offer_nor_register_a_member_who_left(
    club: Club, arbiter_client: Client
) -> None:
    publish_typed(club, NIGHT, "Autumn", dt.date(2026, 10, 6))
    bob = member(club, "Bob Jones")
    leave(bob, DAY, who=WHO)
    t = evenings.start_evening(club, "Tuesday", dt.date(2026, 12, 1), 3, who=WHO)
    page = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert "Anna Smith" in page
    assert f'value="Bob Jones (#{bob.id})"' not in page and "Bob Jones" not in page
    for typed in ("Bob Jones", str(bob.id)):
        with pytest.raises(Refused, match="left the club on 2026-11-30"):
            evenings.register(t, typed, who=WHO)
    come_back(bob, who=WHO)
    assert evenings.register(t, "Bob Jones", who=WHO).member_id == bob.id


def test_the_members_page_marks_a_member_as_left_and_back(
    club: Club, arbiter_client: Client
) -> None:
    publish_typed(club, NIGHT, "Autumn", dt.date(2026, 10, 6))
    bob = member(club, "Bob Jones")
    base = "/c/riverside/arbiter/members/"
    page = arbiter_client.post(
        f"{base}leave/", {"member": bob.id, "day": "2026-11-30"}, follow=True
    ).content.decode()
    assert "left the club on 2026-11-30" in page
    assert Member.objects.get(pk=bob.pk).left == DAY
    page = arbiter_client.post(f"{base}leave/", {"member": bob.id, "day": "30.11"}, follow=True)
    assert "is not a date" in page.content.decode() and page.status_code == 200
    arbiter_client.post(f"{base}return/", {"member": bob.id}, follow=True)
    assert Member.objects.get(pk=bob.pk).left is None
    arbiter_client.post(f"{base}leave/", {"member": bob.id, "day": ""}, follow=True)
    assert Member.objects.get(pk=bob.pk).left is not None  # blank: today


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_member_command_marks_leaving_and_returning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    path.write_text(
        "# event: Autumn\n# date: 2026-10-06\nround,white,black,result\n"
        "1,Anna Smith,Bob Jones,1-0\n",
        encoding="utf-8",
    )
    assert main(["init", "Riverside Chess Club"]) == 0
    assert main(["import", str(path)]) == 0
    assert main(["link", "1", "--all-new"]) == 0 and main(["publish", "1"]) == 0
    capsys.readouterr()
    assert main(["member", "Bob Jones", "--left", "2026-11-30"]) == 0
    assert "left the club on 2026-11-30" in capsys.readouterr().out
    assert main(["ratings", "--json"]) == 0
    assert [p["name"] for p in json.loads(capsys.readouterr().out)["players"]] == ["Anna Smith"]
    assert main(["member", "Bob Jones", "--left", "30/11/2026"]) == 2  # a usage error
    assert "is not a date" in capsys.readouterr().err
    assert main(["member", "Bob Jones", "--left", "2026-12-01", "--returned"]) == 2
    assert "give --left DATE or --returned, not both" in capsys.readouterr().err
    assert main(["member", "Bob Jones", "--returned"]) == 0
    assert "is a member again" in capsys.readouterr().out
    assert main(["ratings", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["players"]) == 2
