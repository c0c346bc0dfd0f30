"""The upload page refuses a tournament already stored and imports it once the arbiter confirms."""

from __future__ import annotations

import datetime as dt
import io

from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubrating.club.store.models import AuditEntry, Club, Tournament
from clubrating.formats.pgn import write_pgn
from clubrating.formats.trf import write_trf
from clubrating.formats.typed import parse_typed

GAMES = (
    "1, Anna Smith, Bob Jones, 1-0\n1, Carl Berg, Dana "
    "White, 1/2-1/2\n2, Bob Jones, Carl Berg, 0-1\n"
)
NIGHT = dt.date(2024, 3, 5)


def _files() -> tuple[bytes, bytes]:
    record = parse_typed(GAMES, name="Club night", date=NIGHT)
    trf, pgn = io.StringIO(), io.StringIO()
    write_trf(record, trf)
    write_pgn(record, pgn, results_only=True)
    return trf.getvalue().encode(), pgn.getvalue().encode()


def test_the_pgn_of_a_stored_trf_asks_for_a_confirmation_and_is_imported_once_confirmed(
    club: Club, arbiter_client: Client
) -> None:
    trf, pgn = _files()
    page = "/c/riverside/arbiter/upload/"
    assert (
        arbiter_client.post(page, {"file": SimpleUploadedFile("night.trf", trf)}).status_code == 302
    )
    first = Tournament.objects.get(club=club)
    refused = arbiter_client.post(page, {"file": SimpleUploadedFile("night.pgn", pgn)})
    html = refused.content.decode()
    assert refused.status_code == 200 and Tournament.objects.filter(club=club).count() == 1
    message = [str(m) for m in get_messages(refused.wsgi_request)][-1]
    assert message == (
        f"this looks like tournament {first.id} 'Club night' of 2024-03-05, already stored: same "
        "players and results: to import it anyway, tick the box below and send it again "
        "(choose the file again)"
    )
    assert 'name="force"' in html and f'href="/c/riverside/arbiter/t/{first.id}/"' in html
    assert 'name="force"' not in arbiter_client.get(page).content.decode()  # only once refused
    confirmed = arbiter_client.post(
        page, {"file": SimpleUploadedFile("night.pgn", pgn), "force": "on"}
    )
    assert confirmed.status_code == 302 and Tournament.objects.filter(club=club).count() == 2
    audit = AuditEntry.objects.filter(action="import").order_by("-id").first()
    assert audit is not None and audit.new["forced"] == f"looks like tournament {first.id}"


def test_typed_games_already_stored_keep_what_was_typed_for_the_confirmation(
    club: Club, arbiter_client: Client
) -> None:
    page = "/c/riverside/arbiter/upload/"
    form = {"name": "Club night", "date": "2024-03-05", "rows": GAMES}
    assert arbiter_client.post(page, form).status_code == 302
    refused = arbiter_client.post(page, {**form, "name": "Club night, typed again"})
    html = refused.content.decode()
    assert (
        "already stored" in html
        and "Anna Smith, Bob Jones" in html
        and 'value="2024-03-05"' in html
    )
    assert arbiter_client.post(page, {**form, "force": "on"}).status_code == 302
    assert Tournament.objects.filter(club=club).count() == 2
