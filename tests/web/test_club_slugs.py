"""A club's address word (its slug) from a name in any script, and the arbiter changing it: the
old address leads to the new one, and two clubs never share one."""

from __future__ import annotations

import pytest
from django.test import Client

from clubrating.club.store.models import AuditEntry, Club, Tournament
from clubrating.club.services.club_settings import change_settings, parse_settings
from clubrating.club.services.clubs import slug_for
from clubrating.errors import Refused

from .conftest import WHO, make_arbiter
from clubrating.club.services.clubs import create_club, set_privacy


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Երևանի շախմատի ակումբ", "erevani-shakhmati-akumb"),
        ("Գյումրու շախմատային ակումբ", "gyumru-shakhmatayin-akumb"),
        ("Шахматный клуб «Ладья»", "shakhmatnyy-klub-ladya"),
        ("Клуб Ёлки", "klub-elki"),
        ("Riverside Chess Club", "riverside-chess-club"),
        ("«»—!", ""),
    ],
)
def test_a_name_in_any_script_gives_a_readable_latin_slug(name: str, slug: str) -> None:
    assert slug_for(name) == slug


@pytest.mark.django_db
def test_two_clubs_named_in_armenian_or_cyrillic_get_distinct_readable_slugs() -> None:
    clubs = [
        create_club(name, who=WHO)
        for name in ("Երևանի շախմատի ակումբ", "Գյումրու շախմատային ակումբ", "Шахматный клуб")
    ]
    assert [c.slug for c in clubs] == [
        "erevani-shakhmati-akumb",
        "gyumru-shakhmatayin-akumb",
        "shakhmatnyy-klub",
    ]


def test_the_arbiter_changes_the_slug_and_the_old_address_leads_to_the_new_one(
    club: Club, evening: Tournament, arbiter_client: Client
) -> None:
    response = arbiter_client.post(
        "/c/riverside/arbiter/settings/", {"slug": "Риверсайд"}, follow=True
    )
    club.refresh_from_db()
    assert club.slug == "riversayd"
    assert response.redirect_chain[-1][0] == "/c/riversayd/arbiter/settings/"
    assert AuditEntry.objects.filter(action="settings", old__slug="riverside").count() == 1
    public = Client().get(f"/c/riverside/t/{evening.id}/?x=1")
    assert (public.status_code, public["Location"]) == (301, f"/c/riversayd/t/{evening.id}/?x=1")
    assert Client().get(f"/c/riversayd/t/{evening.id}/").status_code == 200
    assert Client().get("/c/no-such-club/").status_code == 404


def test_a_slug_another_club_holds_is_refused_and_changes_nothing(
    club: Club, arbiter_client: Client
) -> None:
    create_club("Lakeside", who=WHO, slug="lakeside")
    response = arbiter_client.post(
        "/c/riverside/arbiter/settings/", {"slug": "lakeside"}, follow=True
    )
    assert "a club with the short name &#x27;lakeside&#x27; exists already" in (
        response.content.decode()
    )
    club.refresh_from_db()
    assert club.slug == "riverside" and not AuditEntry.objects.filter(action="settings").exists()
    with pytest.raises(Refused):
        change_settings(club, parse_settings({"slug": "Lakeside"}), who=WHO)


def test_the_old_address_of_a_club_hidden_from_the_public_leads_nowhere(club: Club) -> None:
    set_privacy(club, who=WHO, visibility="arbiter")
    change_settings(club, parse_settings({"slug": "hidden"}), who=WHO)
    assert Client().get("/c/riverside/").status_code == 404
    arbiter = Client()
    arbiter.force_login(make_arbiter(club, "bea"))
    answer = arbiter.get("/c/riverside/arbiter/")
    assert (answer.status_code, answer["Location"]) == (301, "/c/hidden/arbiter/")
