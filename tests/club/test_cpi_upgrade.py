"""A new version whose CPI rules differ re-scores each club's stored ledger at its first start,
and a start with every club scored by this version's rules reads no ledger: one query on the
clubs' marks (``Club.cpi_scored_with`` against ``clubrating.cpi.version.SCORING_VERSION``).
Every way a club's rows reach a database leaves a mark that is true or none: a new club, a
whole rebuild, the check of the start, an archive's import (docs/cpi.md, "A new version's
rules")."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.cli import main
from clubrating.club.derived.ledger import (
    RESULTS,
    club_weights,
    ledger_is_current,
    rebuild_cpi,
    scoring_key,
)
from clubrating.club.derived.ratings import order_key
from clubrating.club.services.archive import export_club, import_club
from clubrating.club.store.models import Club, CpiEntry, Tournament
from clubrating.cpi.version import SCORING_VERSION
from clubrating.djangoenv import migrate_once
from clubrating.errors import InputError
from tests.cpi.coach_games import publish_analysed

OLDER = "0123456789abcdef"  # the mark an older version's rules left


@pytest.fixture
def analysed(club: Club) -> Club:
    publish_analysed(club, 6)  # two evenings: five games, then one
    return club


def stored(club: Club) -> list[float]:
    """The club's ledger, row by row in the ledger's order: CPI before, ΔCPI, CPI after."""
    rows = CpiEntry.objects.filter(member__club=club).order_by("ordinal", "color")
    return [x for e in rows for x in (e.cpi_before, e.delta, e.cpi_after)]


def as_older_rules_left_it(club: Club, mark: str = OLDER) -> None:
    """The ledger as an older version's rules would have stored it: other figures under another
    scoring key, and the club marked with those rules."""
    for entry in CpiEntry.objects.filter(member__club=club):
        entry.factors = {**entry.factors, "scored_with": "older-rules"}
        entry.delta, entry.cpi_after = entry.delta + 7, entry.cpi_after + 70
        entry.save()
    Club.objects.filter(pk=club.pk).update(cpi_scored_with=mark)


def mark(club: Club) -> str:
    return Club.objects.values_list("cpi_scored_with", flat=True).get(pk=club.pk)


def test_a_new_club_and_a_whole_rebuild_carry_this_version_s_mark(analysed: Club) -> None:
    assert mark(analysed) == SCORING_VERSION and ledger_is_current(analysed)
    # the key each row is stored under names this version's rules
    entry = CpiEntry.objects.filter(member__club=analysed).select_related("game").first()
    assert entry is not None
    result = RESULTS[entry.game.white_points, entry.game.black_points]
    assert entry.factors["scored_with"] == scoring_key(club_weights(analysed), result)


def test_a_ledger_scored_by_older_rules_is_rescored_at_the_next_command_s_start(
    analysed: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    right = stored(analysed)
    as_older_rules_left_it(analysed)
    assert stored(analysed) != right and not ledger_is_current(analysed)
    assert main(["ratings"]) == 0  # a command that reads no CPI: its start re-scores
    capsys.readouterr()
    assert stored(analysed) == pytest.approx(right)
    assert mark(analysed) == SCORING_VERSION and ledger_is_current(analysed)


def test_a_club_of_unknown_mark_whose_ledger_is_current_is_marked_and_not_rewritten(
    analysed: Club,
) -> None:
    ids = sorted(CpiEntry.objects.values_list("id", flat=True))
    Club.objects.filter(pk=analysed.pk).update(cpi_scored_with="")  # as migration 0033 leaves it
    migrate_once()
    assert mark(analysed) == SCORING_VERSION
    assert sorted(CpiEntry.objects.values_list("id", flat=True)) == ids


def test_a_start_with_every_club_marked_by_this_version_reads_no_ledger(analysed: Club) -> None:
    # the mark is what the start trusts: rows changed behind it (no version writes this) stay
    as_older_rules_left_it(analysed, mark=SCORING_VERSION)
    changed = stored(analysed)
    with CaptureQueriesContext(connection) as start:
        migrate_once()
    assert stored(analysed) == changed
    read = [q["sql"] for q in start.captured_queries if '"club_' in q["sql"]]
    assert len(read) == 1 and "cpi_scored_with" in read[0] and "club_cpientry" not in read[0]


def test_a_rebuild_from_a_tournament_on_leaves_the_mark_and_a_whole_one_sets_it(
    analysed: Club,
) -> None:
    as_older_rules_left_it(analysed)
    second = Tournament.objects.filter(club=analysed).order_by("date").last()
    assert second is not None
    rebuild_cpi(analysed, since=order_key(second))  # the earlier evening's rows are not read
    assert mark(analysed) == OLDER and not ledger_is_current(analysed)
    rebuild_cpi(analysed)
    assert mark(analysed) == SCORING_VERSION and ledger_is_current(analysed)


def test_an_archive_of_a_ledger_scored_by_older_rules_is_rescored_by_its_import(
    analysed: Club, tmp_path: Path
) -> None:
    right = stored(analysed)
    as_older_rules_left_it(analysed)
    path = tmp_path / "club.jsonl.gz"
    export_club(analysed, path)
    text = gzip.decompress(path.read_bytes()).decode()
    assert '"older-rules"' in text and '"cpi_scored_with"' not in text  # the mark is not carried
    Club.objects.filter(pk=analysed.pk).update(slug="gone")
    club = import_club(path, who="test:arbiter").club
    assert mark(club) == SCORING_VERSION and ledger_is_current(club)
    assert stored(club) == pytest.approx(right)


def test_an_archive_holding_a_mark_is_refused(analysed: Club, tmp_path: Path) -> None:
    path = tmp_path / "club.jsonl.gz"
    export_club(analysed, path)
    lines = gzip.decompress(path.read_bytes()).decode().splitlines(keepends=True)
    row = json.loads(lines[1])
    row["fields"]["cpi_scored_with"] = SCORING_VERSION  # "current", whatever the rows say
    lines[1] = json.dumps(row) + "\n"
    path.write_bytes(gzip.compress("".join(lines).encode()))
    Club.objects.filter(pk=analysed.pk).update(slug="gone")
    with pytest.raises(InputError, match=r":2: club.club.cpi_scored_with is never written"):
        import_club(path, who="test:arbiter")
