"""The rating list's heading names what the list holds: a club that rates every time control in
one list (stored as "standard") says so, in every language, rather than "Standard" (классика,
դասական) over rapid and blitz games; a club with a list per time control names each."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from django.test import Client

from clubrating.formats.records import TimeControl
from clubrating.formats.typed import parse_typed

from .conftest import TODAY, WHO
from .test_translated_pages import catalogue  # noqa: F401  (the committed .po files compiled)
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.names import accept_exact, all_new_members
from clubrating.club.services.tournaments import import_tournament, publish

GAMES = "1, Anna Smith, Bob Jones, 1-0\n2, Bob Jones, Anna Smith, 1/2-1/2\n"
CAPTION = re.compile(r"<caption>(.*?)</caption>", re.S)


def _club(separate: bool) -> None:
    club = create_club("Riverside", who=WHO, slug="riverside", separate_lists=separate)
    set_privacy(club, who=WHO, visibility="public")
    for day, control in ((9, TimeControl.RAPID), (16, TimeControl.BLITZ)):
        record = dataclasses.replace(
            parse_typed(GAMES, name=f"{control.value} night", date=dt.date(2024, 1, day)),
            time_control=control,
        )
        t = import_tournament(club, record, who=WHO, today=TODAY)
        accept_exact(t, who=WHO)
        all_new_members(t, who=WHO)
        publish(t, who=WHO)


def _caption(language: str, query: str = "") -> str:
    page = Client().get(f"/c/riverside/{query}", headers={"accept-language": language})
    assert page.status_code == 200
    found = CAPTION.search(page.content.decode())
    assert found is not None
    return found[1].strip()


@pytest.mark.parametrize(
    ("language", "heading", "not_this"),
    [
        ("en", "Ratings of every time control", "Standard"),
        ("ru", "Рейтинги (все контроли времени)", "лассика"),
        ("hy", "Վարկանիշներ (ժամանակի բոլոր վերահսկումները)", "ասական"),
    ],
)
def test_one_list_of_rapid_and_blitz_is_headed_every_time_control(
    db: None,
    catalogue: None,
    language: str,
    heading: str,
    not_this: str,  # noqa: F811
) -> None:
    _club(separate=False)
    caption = _caption(language)
    assert caption == heading and not_this not in caption


def test_a_list_per_time_control_is_headed_by_its_time_control(db: None) -> None:
    _club(separate=True)
    assert _caption("en", "?list=rapid") == "Rapid ratings"
    assert _caption("en", "?list=blitz") == "Blitz ratings"
