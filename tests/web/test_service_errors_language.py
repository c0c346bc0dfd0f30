"""A service's error, or what it did, is shown to the arbiter in the page's language: the
service keeps the English template and its values, the view translates them."""

from __future__ import annotations

from django.contrib.messages import get_messages
from django.test import Client

from clubrating.club.store.models import Club, Tournament

HOME = "/c/riverside/arbiter/"


def said(response) -> str:
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def test_a_refused_publication_is_told_in_russian_on_a_russian_page(
    club: Club, arbiter_client: Client
) -> None:
    arbiter_client.post(
        f"{HOME}upload/",
        {"name": "Week 2", "date": "2024-01-16", "rows": "1, Zoe New, Yan Other, 1-0\n"},
    )
    t = Tournament.objects.get(club=club, name="Week 2")
    english = arbiter_client.post(f"{HOME}t/{t.id}/publish/")
    assert said(english) == (
        "2 names are not linked to members yet: 'Zoe New', 'Yan Other' "
        "(link them, or make them new members)"
    )
    russian = arbiter_client.post(f"{HOME}t/{t.id}/publish/", HTTP_ACCEPT_LANGUAGE="ru")
    assert said(russian) == (
        "2 имени ещё не связаны с членами клуба: 'Zoe New', 'Yan Other' "
        "(свяжите их или создайте новых членов клуба)"
    )
    armenian = arbiter_client.post(f"{HOME}t/{t.id}/publish/", HTTP_ACCEPT_LANGUAGE="hy")
    assert said(armenian).startswith("2 անուն դեռ կապված չեն անդամների հետ՝ 'Zoe New', 'Yan Other'")


def test_a_bad_typed_line_is_shown_in_russian_with_its_place(
    club: Club, arbiter_client: Client
) -> None:
    page = arbiter_client.post(
        f"{HOME}upload/",
        {"name": "x", "date": "2024-02-01", "rows": "1, Anna Smith, Bob Jones, 3-0"},
        HTTP_ACCEPT_LANGUAGE="ru",
    ).content.decode()
    assert "typed:1: неизвестный результат &#x27;3-0&#x27;: ожидается один из" in page, page[-3000:]


def test_what_a_service_did_is_told_in_the_page_s_language(
    club: Club, arbiter_client: Client
) -> None:
    arbiter_client.post(
        f"{HOME}upload/",
        {"name": "Week 3", "date": "2024-01-23", "rows": "1, Zoe New, Yan Other, 1-0\n"},
    )
    t = Tournament.objects.get(club=club, name="Week 3")
    arbiter_client.post(f"{HOME}t/{t.id}/all-new/", HTTP_ACCEPT_LANGUAGE="ru")
    published = arbiter_client.post(f"{HOME}t/{t.id}/publish/", HTTP_ACCEPT_LANGUAGE="ru")
    assert said(published).startswith("опубликован «Week 3»; пересчитано: "), said(published)
