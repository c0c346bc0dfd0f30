"""The audit log reads as sentences, says how many entries it holds and pages through them."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from clubrating.cli import main
from clubrating.club.read import audit_log
from clubrating.club.store.audit_text import sentence
from clubrating.club.store.models import AuditEntry, Club, Game, Member, Tournament
from clubrating.errors import InputError
from clubrating.formats.typed import parse_typed
from clubrating.club.services.clubs import create_club, set_privacy
from clubrating.club.services.names import all_new_members
from clubrating.club.services.tournaments import correct_result, import_tournament, publish

WHO = "test:arbiter"
TODAY = dt.date(2030, 1, 1)
EVENING = """
1, Anna Smith, Bob Jones, 0-1
1, Carl Berg, Dana White, 1/2-1/2
"""


SENTENCE_CASES = [
    (
        "correct-result",
        "tournament 3 round 4 board 2: Anna Smith - Bob Jones",
        {"result": "0-1"},
        {"result": "1/2-1/2"},
        "result of round 4, board 2 (Anna Smith - Bob Jones) of tournament 3 changed "
        "from 0-1 to ½-½",
    ),
    (
        "correct-result",
        "tournament 3 round 4: A - B",
        {"result": "1-0"},
        {"result": "+-"},
        "result of round 4 (A - B) of tournament 3 changed from 1-0 to +-",
    ),
    (
        "evening-result",
        "tournament 5 round 2 board 3",
        None,
        {"result": "1-0"},
        "result of round 2, board 3 of tournament 5 entered: 1-0",
    ),
    (
        "privacy",
        "riverside",
        {"visibility": "arbiter", "names": "full"},
        {"visibility": "public", "names": "full", "token_rotated": True},
        "privacy changed: visibility from arbiter to public; the unlisted link has a new token",
    ),
    (
        "member-flags",
        "member 7 'Dana White'",
        {"junior": False, "full_name_consent": False},
        {"junior": True, "full_name_consent": False},
        "member 7 'Dana White': junior from no to yes",
    ),
    (
        "merge",
        "member 7 'D. White' into 3",
        {"member": 7, "merged_into": None},
        {"member": 7, "merged_into": 3},
        "member 7 'D. White' merged into member 3",
    ),
    (
        "link",
        "tournament 1 #2 'B. Jones'",
        {"member": "Bob Jonas"},
        {"member": "Bob Jones", "member_id": 4},
        "tournament 1 #2 'B. Jones' relinked from Bob Jonas to Bob Jones (member 4)",
    ),
    (
        "rebuild",
        "riverside",
        None,
        {"matched": False, "changes_differing": 1},
        "rebuilt the whole history: 1 stored rating "
        "change differed from the replay and was replaced",
    ),
    (
        "settings",
        "riverside",
        {"k-new": 40.0, "time-zone": ""},
        {"k-new": 30.0, "time-zone": "Asia/Yerevan"},
        "settings changed: k-new from 40 to 30, time-zone from none to Asia/Yerevan",
    ),
    # an action without a sentence of its own (or an entry of an older shape) still reads as words
    (
        "frobnicate",
        "initial list 2",
        {"rating": 1500.0},
        {"rating": 1550.5},
        "frobnicate initial list 2: rating from 1500 to 1550.5",
    ),
    (
        "seed-ratings",
        "initial list from club.csv",
        None,
        {"file": "club.csv", "rows": [["Anna", 1500.0, 12, 1]]},
        "stored the initial list from club.csv: 1 row",
    ),
    (
        "publish",
        "tournament 1 'Week 1'",
        {"status": "draft"},
        {"status": "published"},
        "published tournament 1 'Week 1'",
    ),
    (
        "moves-links",
        "tournament 4 round 2",
        None,
        {"links": 6, "days": 14},
        "6 moves links made for tournament 4 round 2, "
        "working 14 days; the boards' earlier links revoked",
    ),
    (
        "moves-link-release",
        "tournament 4 round 2 board 1",
        None,
        None,
        "the moves link of tournament 4 round 2 board 1 freed from the phone that opened it",
    ),
    (
        "moves-link-device",
        "tournament 4 round 2 board 1",
        None,
        {"link": 7},
        "a moves link of tournament 4 round 2 board 1 "
        "opened on its first device, which it now belongs to",
    ),
    (
        "moves-links-follow",
        "tournament 4 round 2",
        None,
        {"kept": 4, "revoked": 2},
        "the moves links of tournament 4 round 2 follow their players after the "
        "pairing change; 2 links of players no longer paired together revoked",
    ),
    (
        "moves-accept",
        "tournament 4 round 2 board 1",
        None,
        {"submission": 9},
        "the moves the players entered for tournament 4 round 2 board 1 accepted",
    ),
    ("merge", "an unexpected target", None, None, "merge an unexpected target"),
]


@pytest.mark.parametrize(("action", "target", "old", "new", "expected"), SENTENCE_CASES)
def test_an_entry_reads_as_a_sentence(
    action: str, target: str, old: object, new: object, expected: str
) -> None:
    assert sentence(action, target, old, new) == expected


@pytest.mark.parametrize(
    ("language", "action", "target", "old", "new", "expected"),
    [
        ("ru", "publish", "tournament 1 'Week 1'", None, None, "опубликован турнир 1 'Week 1'"),
        ("hy", "publish", "tournament 1 'Week 1'", None, None, "հրապարակված է մրցաշար 1 'Week 1'"),
        (
            "ru",
            "correct-result",
            "tournament 3 round 4 board 2: Anna Smith - Bob Jones",
            {"result": "0-1"},
            {"result": "1/2-1/2"},
            "турнир 3, тур 4, доска 2 (Anna Smith - Bob Jones): результат изменён с 0-1 на ½-½",
        ),
        (
            "ru",
            "member-flags",
            "member 7 'Dana White'",
            {"junior": False},
            {"junior": True},
            "член клуба 7 'Dana White': юниор: с нет на да",
        ),
        # a name is never read as words: "Round Table" stays as written
        (
            "ru",
            "new-member",
            "member 8",
            None,
            {"name": "Round Table"},
            "новый член клуба 8: «Round Table»",
        ),
        (
            "ru",
            "evening-withdraw",
            "tournament 2 #5 'Ann Round 2'",
            None,
            {"withdrawn_from": 3},
            "турнир 2 #5 'Ann Round 2' выбыл: не участвует в жеребьёвке начиная с тура 3",
        ),
        # counts in each language's plural forms
        ("ru", "analyse", "riverside", None, {"games": 1}, "движком проанализирована 1 партия"),
        ("ru", "analyse", "riverside", None, {"games": 3}, "движком проанализированы 3 партии"),
        ("ru", "analyse", "riverside", None, {"games": 25}, "движком проанализировано 25 партий"),
        ("hy", "analyse", "riverside", None, {"games": 25}, "շարժիչով վերլուծված է 25 խաղ"),
        # an action without a sentence of its own keeps its name, its target's nouns translated
        (
            "ru",
            "frobnicate",
            "initial list 2",
            {"rating": 1500.0},
            {"rating": 1550.5},
            "frobnicate начальный список 2: rating: с 1500 на 1550.5",
        ),
    ],
)
def test_an_entry_reads_as_a_sentence_in_the_language(
    language: str, action: str, target: str, old: object, new: object, expected: str
) -> None:
    with translation.override(language):
        assert sentence(action, target, old, new) == expected
    assert sentence(action, target, old, new) != expected  # and in English outside it


@pytest.mark.parametrize("language", ["ru", "hy"])
@pytest.mark.parametrize(("action", "target", "old", "new", "expected"), SENTENCE_CASES)
def test_no_english_word_of_a_sentence_is_left_in_the_language(
    language: str, action: str, target: str, old: object, new: object, expected: str
) -> None:
    """Every English word of the sentence is translated, except the names and values it quotes and
    the action's own name where it has no sentence."""
    kept = " ".join([target, action, str(old), str(new)])
    with translation.override(language):
        translated = sentence(action, target, old, new)
    english = set(re.findall(r"[a-z]{3,}", expected)) - set(
        re.findall(r"[a-z]{3,}", kept.casefold())
    )
    assert not english & set(re.findall(r"[a-z]{3,}", translated.casefold())), translated


def _club_with_history() -> Club:
    club = create_club("Riverside", who=WHO, slug="riverside", time_zone="UTC")
    record = parse_typed(EVENING, name="Week 1", date=dt.date(2026, 3, 3))
    tournament = import_tournament(club, record, who=WHO, today=TODAY)
    all_new_members(tournament, who=WHO)
    publish(tournament, who=WHO)
    game = Game.objects.get(tournament=tournament, white__name="Anna Smith")
    Game.objects.filter(pk=game.pk).update(board=1)
    game.refresh_from_db()
    correct_result(game, "1/2-1/2", who=WHO)
    set_privacy(club, who=WHO, visibility="public")
    return club


@pytest.mark.django_db
def test_every_entry_of_a_real_history_is_a_sentence_without_python_values() -> None:
    club = _club_with_history()
    rows = audit_log.audit_log(club, limit=100)
    tournament, anna = (
        Tournament.objects.get(club=club),
        Member.objects.get(club=club, name="Anna Smith"),
    )
    assert [r["action"] for r in rows][:3] == ["privacy", "correct-result", "publish"]
    assert rows[1]["sentence"] == (
        "result of round 1, board 1 (Anna Smith - Bob Jones) of tournament "
        f"{tournament.id} changed from 0-1 to ½-½"
    )
    for row in rows:
        assert not any(mark in row["sentence"] for mark in ("{", "}", "': ", "None", "True")), row[
            "sentence"
        ]
    assert {r["sentence"] for r in rows} >= {
        f"published tournament {tournament.id} 'Week 1'",
        f"new member {anna.id}: 'Anna Smith'",
        "privacy changed: visibility from arbiter to public",
    }


@pytest.mark.django_db
def test_the_audit_log_pages_and_counts() -> None:
    club = _club_with_history()
    total = AuditEntry.objects.filter(club=club).count()
    first, last = audit_log.audit_page(club, 1, 3), audit_log.audit_page(club, -(-total // 3), 3)
    assert (
        first["total"] == total and first["pages"] == -(-total // 3) and len(first["entries"]) == 3
    )
    assert (
        first["entries"][0]["action"] == "privacy"
        and last["entries"][-1]["action"] == "create-club"
    )
    with pytest.raises(InputError, match=f"page 99: the audit log has {first['pages']} pages of 3"):
        audit_log.audit_page(club, 99, 3)


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_audit_command_prints_sentences_the_count_and_the_next_page(
    capsys: pytest.CaptureFixture[str],
) -> None:
    club = _club_with_history()
    total = AuditEntry.objects.filter(club=club).count()
    assert main(["audit", "--limit", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"Riverside: {total} entries in the audit log, newest first; page 1 of {-(-total // 2)} "
        "(times in UTC)"
    )
    assert out[1].endswith(f"{WHO}: privacy changed: visibility from arbiter to public")
    assert "changed from 0-1 to ½-½; rebuilt 1 tournament, 2 ratings changed" in out[2]
    assert out[-1] == "older entries: clubrating audit --page 2"
    assert main(["audit", "--limit", "2", "--page", "2", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["total"] == total and document["page"] == 2 and len(document["entries"]) == 2
    assert main(["audit", "--page", "50"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "page 50: the audit log has 1 page of 50" in err


@pytest.mark.django_db
def test_the_audit_page_shows_sentences_the_count_and_pages() -> None:
    club = _club_with_history()
    user = User.objects.create_user(username="anna", password="long enough secret")
    club.arbiters.add(user)
    client = Client()
    client.force_login(user)
    total = AuditEntry.objects.filter(club=club).count()
    html = client.get("/c/riverside/arbiter/audit/").content.decode()
    assert f"{total} entries, newest first; page 1 of 1." in html
    assert "changed from 0-1 to ½-½" in html and "{&#x27;" not in html and "{'" not in html
    html = client.get("/c/riverside/arbiter/audit/?page=7").content.decode()
    assert "page 7: the audit log has 1 page of 100" in html and "page 1 of 1." in html
