"""The portable club archive (``export-club``, ``import-club``): a club moved to another
database, SQLite or PostgreSQL, keeps its whole history: the rebuild check matches the
replay and every public page is the same byte for byte, with the new ids.

Two clubs go through it: the demo club (the real engine's games and analyses, a corrected
result, a merge) and one made by the state machine's arbiter actions. Both are loaded into
one new database, so the second one's ids are not the first's. The commands after the demo's
build run each in a process forked from one that has imported the command line
(tests/club/readme/forks.py): each opens its database as a new process does."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from clubrating.club.store.models import AuditEntry, Club, FrozenRow, Member, Tournament
from clubrating.club.services.accounts import add_arbiter
from clubrating.club.services.monthly_lists import publish_month
from clubrating.club.services.archive import (
    LEFT_OUT,
    Arbiters,
    club_tables,
    export_club,
    import_club,
)
from clubrating.errors import InputError, Refused

from .archive_pages import public_pages
from .conftest import ARBITER
from .databases import own_database
from .forked import Forks
from .test_state_machine import ClubMachine

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "clubrating"]
PAGES = str(Path(__file__).with_name("archive_pages.py"))
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
DEMO = [
    "demo",
    "--seed",
    "5",
    "--seasons",
    "1",
    "--members",
    "10",
    "--with-moves",
    "1",
    "--play-nodes",
    "300",
    "--nodes",
    "600",
    "--jobs",
    "1",
]


Commands = Callable[..., subprocess.CompletedProcess[str]]  # (database, *argv): one forked command


@pytest.fixture(scope="module")
def cli() -> Iterator[Commands]:
    """``clubrating --database DATABASE ARGV...``, each a process of its own forked by forks.py."""
    with Forks(env=ENV) as forks:
        yield lambda database, *argv: forks.run(["--database", database, *argv])


def pages_of(database: str, *slugs: str) -> dict[str, Any]:
    """The public pages of these clubs of the database, by slug, read in one process."""
    done = subprocess.run(
        [sys.executable, PAGES, database, *slugs],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
        check=True,
    )
    documents: dict[str, Any] = json.loads(done.stdout)
    assert sorted(documents) == sorted(slugs)
    return documents


# --- the clubs and the databases -------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_archive(
    tmp_path_factory: pytest.TempPathFactory, cli: Commands
) -> tuple[Path, dict[str, Any], str]:
    """The demo club built in a SQLite file (by python -m clubrating), its archive and its public
    pages."""
    folder = tmp_path_factory.mktemp("demo")
    source = f"sqlite:///{folder / 'demo.sqlite3'}"
    built = subprocess.run(
        [*CLI, "--database", source, *DEMO], capture_output=True, text=True, env=ENV, timeout=600
    )
    assert built.returncode == 0, built.stderr
    archive = folder / "demo.jsonl.gz"
    written = cli(source, "export-club", "--club", "demo", str(archive))
    assert written.returncode == 0, written.stderr
    ratings = cli(source, "ratings", "--club", "demo", "--json")
    return archive, pages_of(source, "demo")["demo"], ratings.stdout


class ArchivingMachine(ClubMachine):
    """The state machine's club, made public and archived (with its pages) before each
    example's rollback."""

    archives: list[tuple[int, Path, dict[str, Any]]] = []
    folder: Path

    def teardown(self) -> None:
        Club.objects.filter(pk=self.club.pk).update(visibility="public")
        path = self.folder / f"machine-{len(self.archives)}.jsonl.gz"
        rows = export_club(Club.objects.get(pk=self.club.pk), path)
        self.archives.append((rows, path, public_pages(self.club.slug)))
        super().teardown()


@pytest.fixture
def machine_archive(db: None, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The largest of a few clubs made by the state machine's actions (a fixed draw)."""
    ArchivingMachine.archives = []
    ArchivingMachine.folder = tmp_path
    run_state_machine_as_test(
        ArchivingMachine,
        settings=settings(
            max_examples=3,
            stateful_step_count=30,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    _, path, pages = max(ArchivingMachine.archives, key=lambda archived: archived[0])
    return path, pages


def postgres_server() -> str:
    """The test PostgreSQL server's URL (scripts/test starts it; by hand: scripts/postgres
    start)."""
    done = subprocess.run(
        [str(ROOT / "scripts" / "postgres"), "url"], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def new_database(kind: str, folder: Path) -> AbstractContextManager[str]:
    """A new database of the test's own, on the test PostgreSQL server or in a SQLite file."""
    return own_database(folder, "archive", "" if kind == "sqlite" else postgres_server())


# --- the pages compared ----------------------------------------------------------------------

# Where the pages show ids: in addresses, in the JSON documents' keys, in the list's CSV
ADDRESS = re.compile(
    r"(?<=/)(t|p|g)/(\d+)(?=/)|(?<=/)(players|tournaments)/(\d+)|[?&](vs)=(\d+)"
    r'|"(tournament_id|last_tournament_id|member_id|opponent_id|opponent_member_id|game_id)": (\d+)'
)
KINDS = {
    "players": "p",
    "tournaments": "t",
    "vs": "p",
    "tournament_id": "t",
    "last_tournament_id": "t",
    "member_id": "p",
    "opponent_id": "p",
    "opponent_member_id": "p",
    "game_id": "g",
}
LIST_ROW = re.compile(r"^(\d+),(\d+),", re.MULTILINE)  # ratings.csv: Rank,ID,Name,...


def with_new_ids(address: str, text: str, ids: dict[str, dict[int, int]]) -> str:
    """The source's page as the target should show it: every id the new one."""

    def renumber(found: re.Match[str]) -> str:
        groups = [g for g in found.groups() if g is not None]
        kind, number = groups[0], int(groups[1])
        new = ids[KINDS.get(kind, kind)][number]
        return found.group(0)[: len(found.group(0)) - len(groups[1])] + str(
            new
        )  # the id ends the match

    text = ADDRESS.sub(renumber, text)
    if address.endswith("ratings.csv"):
        text = LIST_ROW.sub(lambda row: f"{row.group(1)},{ids['p'][int(row.group(2))]},", text)
    return text


def new_ids(source: dict[str, Any], target: dict[str, Any]) -> dict[str, dict[int, int]]:
    """Each old id with its new one: the rows of a kind keep their order (inserted by old id)."""
    assert [len(v) for v in source["ids"].values()] == [len(v) for v in target["ids"].values()]
    return {kind: dict(zip(source["ids"][kind], target["ids"][kind])) for kind in source["ids"]}


def assert_same_pages(source: dict[str, Any], target: dict[str, Any]) -> None:
    ids = new_ids(source, target)
    expected = {
        with_new_ids("", address, ids): [status, with_new_ids(address, body, ids)]
        for address, (status, body) in source["pages"].items()
    }
    differing = [
        address for address, page in expected.items() if target["pages"].get(address) != page
    ]
    assert not differing, (
        f"{len(differing)} of {len(expected)} pages differ, the first {differing[0]}"
    )
    assert sum(1 for status, _ in expected.values() if status == 200) > 10


def test_the_demo_and_the_state_machines_club_move_whole_to_a_new_database(
    demo_archive, machine_archive, cli, tmp_path
):
    """Into PostgreSQL and into SQLite, from the same two archives (built once: a demo build
    and the state machine's run are most of the test's time)."""
    for kind in ("postgresql", "sqlite"):
        with new_database(kind, tmp_path) as target:
            try:
                assert_moved_whole(demo_archive, machine_archive, target, cli)
            except AssertionError as error:
                raise AssertionError(f"moved into {kind}: {error}") from error


def assert_moved_whole(
    demo_archive: tuple[Path, dict[str, Any], str],
    machine_archive: tuple[Path, dict[str, Any]],
    target: str,
    cli: Commands,
) -> None:
    demo, demo_pages, demo_ratings = demo_archive
    machine, machine_pages = machine_archive
    for archive in (machine, demo):  # the demo second: its ids are not the ones it had
        loaded = cli(target, "import-club", str(archive), "--arbiters", "invite")
        assert loaded.returncode == 0, loaded.stderr
        assert "re-invite" in loaded.stdout or archive == machine
    moved = pages_of(target, "demo", "state-machine")
    moved_demo, moved_machine = moved["demo"], moved["state-machine"]
    assert moved_demo["ids"]["t"] != demo_pages["ids"]["t"]
    assert_same_pages(demo_pages, moved_demo)
    assert_same_pages(machine_pages, moved_machine)
    moved_ratings = cli(target, "ratings", "--club", "demo", "--json").stdout
    assert json.loads(moved_ratings) == json.loads(
        with_new_ids("", demo_ratings, new_ids(demo_pages, moved_demo))
    )
    for slug in ("demo", "state-machine"):
        checked = cli(target, "rebuild", "--club", slug)
        assert checked.returncode == 0 and "matched the replay exactly" in checked.stdout, (
            checked.stdout + checked.stderr
        )


# --- the model registry ----------------------------------------------------------------------


def test_every_model_of_the_club_app_is_archived_or_left_out_with_a_reason() -> None:
    from django.apps import apps

    archived = {t.label for t in club_tables()}
    every = {m._meta.label_lower for m in apps.get_app_config("club").get_models()}
    assert archived | set(LEFT_OUT) == every and not archived & set(LEFT_OUT)
    order = [t.label for t in club_tables()]
    assert order[0] == "club.club" and order.index("club.game") < order.index("club.gameanalysis")


# --- in this database: refusals, secrets, the older schema -----------------------------------


@pytest.fixture
def archived(club: Club, publish: Any, tmp_path: Path) -> Path:
    publish(
        "Autumn",
        dt.date(2026, 10, 6),
        ["Anna Berg", "Ben Cole", "Cara Dunn"],
        [(1, "Anna Berg", "Ben Cole", "1-0"), (2, "Ben Cole", "Cara Dunn", "=")],
    )
    add_arbiter(club, "anna", "a long secret phrase", who=ARBITER)
    path = tmp_path / "club.jsonl.gz"
    export_club(club, path)
    return path


def lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return handle.readlines()


def rewrite(path: Path, text: list[str]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.writelines(text)


def test_a_club_whose_short_name_is_taken_is_refused_and_nothing_is_stored(archived: Path) -> None:
    before = Member.objects.count()
    with pytest.raises(
        Refused, match=r"club\.jsonl\.gz:2: a club with the short name 'test-chess-club' exists"
    ):
        import_club(archived, who=ARBITER)
    assert Member.objects.count() == before


def moved_away(path: Path) -> None:
    """The archived club renamed in this database, so that its archive may come back."""
    Club.objects.filter(slug="test-chess-club").update(slug="gone")


def test_the_token_is_issued_anew_and_arbiters_come_without_a_password(archived: Path) -> None:
    old = Club.objects.get()
    assert old.token not in gzip.decompress(archived.read_bytes()).decode()
    moved_away(archived)
    report = import_club(archived, who=ARBITER, arbiters=Arbiters(link=frozenset({"anna"})))
    club = report.club
    assert (
        club.slug == "test-chess-club" and club.token != old.token and club.created == old.created
    )
    assert report.existing_logins == ["anna"]  # the login is this database's already: kept as it is
    assert [m.name for m in Member.objects.filter(club=club).order_by("pk")] == [
        "Anna Berg",
        "Ben Cole",
        "Cara Dunn",
    ]
    assert AuditEntry.objects.filter(club=club, action="import-club").count() == 1


def test_a_new_login_comes_without_a_usable_password(archived: Path) -> None:
    from django.contrib.auth import get_user_model

    moved_away(archived)
    get_user_model().objects.filter(username="anna").delete()
    report = import_club(archived, who=ARBITER, arbiters=Arbiters(invite=True))
    assert report.new_logins == ["anna"]
    assert not get_user_model().objects.get(username="anna").has_usable_password()


@pytest.mark.parametrize(
    "damage, where",
    [
        (lambda text: text[:-3], r":\d+: the archive is cut short: no end line"),
        (
            lambda text: text[:5] + ['{"table": "club.entry", "pk": 1, "fiel\n'] + text[6:],
            r":6: not a line of a club archive",
        ),
        (
            lambda text: [text[0].replace('"version":1', '"version":7')] + text[1:],
            r":1: archive version 7",
        ),
        (lambda text: text[:3] + text[4:], r":\d+: (refers to|the end line counts)"),
        (
            lambda text: text[:2] + [text[2].replace('"name"', '"nickname"')] + text[3:],
            r":3: club.member has no field",
        ),
    ],
)
def test_a_damaged_archive_is_refused_in_one_line_and_leaves_nothing(
    archived: Path, damage: Any, where: str
) -> None:
    moved_away(archived)
    rewrite(archived, damage(lines(archived)))
    counts = Club.objects.count(), Member.objects.count(), Tournament.objects.count()
    with pytest.raises(InputError, match=re.escape(str(archived)) + where):
        import_club(archived, who=ARBITER)
    assert (Club.objects.count(), Member.objects.count(), Tournament.objects.count()) == counts


def test_a_truncated_gzip_stream_is_refused_naming_the_file(archived: Path) -> None:
    moved_away(archived)
    data = archived.read_bytes()
    archived.write_bytes(data[: len(data) // 2])
    with pytest.raises(
        InputError, match=re.escape(str(archived)) + r":\d+: the file is damaged or cut short"
    ):
        import_club(archived, who=ARBITER)
    assert Club.objects.count() == 1


OLDER_SCHEMA = [  # written by hand: a club archived before the fields of later migrations
    {"format": "clubrating-club", "version": 1, "club": "old-club", "schema": "0008_evening"},
    {
        "table": "club.club",
        "pk": 7,
        "fields": {
            "name": "Old Club",
            "slug": "old-club",
            "visibility": "public",
            "names": "full",
            "policy": "club",
            "start_rating": 1200.0,
            "k_new": 40.0,
            "k_established": 20.0,
            "k_new_games": 20,
            "provisional_games": 5,
            "separate_lists": False,
            "cpi_start": 0.0,
            "cpi_weights": {},
            "created": "2025-01-05T19:00:00+00:00",
        },
    },
    {
        "table": "club.member",
        "pk": 3,
        "fields": {
            "club_id": 7,
            "name": "Anna Berg",
            "junior": False,
            "full_name_consent": False,
            "merged_into_id": None,
            "created": "2025-01-05T19:00:00+00:00",
        },
    },
    {
        "table": "club.member",
        "pk": 4,
        "fields": {
            "club_id": 7,
            "name": "Anna Berg-Lund",
            "junior": False,
            "full_name_consent": False,
            "merged_into_id": 3,
            "created": "2025-01-05T19:00:00+00:00",
        },
    },
    {
        "table": "club.merge",
        "pk": 1,
        "fields": {
            "club_id": 7,
            "absorbed_id": 4,
            "into_id": 3,
            "created": "2025-01-06T19:00:00+00:00",
            "undone": None,
        },
    },
    {"end": {"rows": 4}},
]


def test_an_archive_of_an_older_schema_takes_the_defaults_of_the_fields_added_since(
    db: None, tmp_path: Path
) -> None:
    path = tmp_path / "old.jsonl.gz"
    rewrite(path, [json.dumps(line) + "\n" for line in OLDER_SCHEMA])
    club = import_club(path, who=ARBITER).club
    assert (club.time_zone, club.inactive_months) == ("", 12)  # fields of migrations 0009 and 0013
    anna, lund = Member.objects.filter(club=club).order_by("pk")
    assert lund.merged_into_id == anna.pk and anna.pk != 3


# --- an archive edited on the way: only what clubrating writes is loaded ----------------------


def edited(path: Path, number: int, change: Callable[[dict[str, Any]], None]) -> None:
    """The archive with its line ``number`` (1 is the header) changed by ``change``."""
    text = lines(path)
    document = json.loads(text[number - 1])
    change(document)
    text[number - 1] = json.dumps(document) + "\n"
    rewrite(path, text)


def club_field(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda document: document["fields"].__setitem__(name, value)


def first_line_of(path: Path, table: str) -> int:
    return next(n for n, text in enumerate(lines(path), 1) if f'"table":"{table}"' in text)


@pytest.mark.parametrize(
    "number, change, said",
    [
        (
            2,
            club_field("time_zone", "America"),
            ":2: club.club.time_zone: time-zone 'America': expected an IANA time zone",
        ),
        (2, club_field("time_zone", "Z" * 300), ":2: club.club.time_zone: "),
        (2, club_field("slug", ""), ":2: club.club.slug: '' is not a short name"),
        (2, club_field("slug", "../x"), ":2: club.club.slug: '../x' is not valid"),
        (
            2,
            club_field("slug", "Riverside Club"),
            ":2: club.club.slug: 'Riverside Club' is not valid",
        ),
        (
            2,
            club_field("visibility", "everyone"),
            ":2: club.club.visibility: 'everyone' is not valid",
        ),
        (2, club_field("names", "nicknames"), ":2: club.club.names: 'nicknames' is not valid"),
        (
            2,
            club_field("language", "de"),
            ":2: club.club.language: language 'de': expected one of en, hy, ru",
        ),
        (2, club_field("token", "0" * 32), ":2: club.club.token is never written in an archive"),
        (2, club_field("moves_link_days", 10**30), ":2: club.club.moves_link_days: "),
        (
            2,
            club_field("moves_link_days", 400),
            ":2: club.club.moves_link_days: moves-link-days '400': expected",
        ),
        (2, club_field("start_rating", 1e-320), ":2: club.club.start_rating: start-rating "),
        (
            2,
            club_field("k_new_games", True),
            ":2: club.club.k_new_games: True is not valid "
            "(expected a whole number, found true or false)",
        ),
        (
            2,
            club_field("name", "River\nside"),
            ":2: club.club.name: 'River\\nside' is not valid (a control character)",
        ),
        (2, club_field("name", "R" * 201), ":2: club.club.name: "),
        (
            2,
            club_field("policy", "elo"),
            ":2: club.club.policy: policy 'elo': expected 'club' or 'fide'",
        ),
        (
            1,
            lambda header: header.__setitem__("comment", "hi"),
            ":1: the header has no key 'comment'",
        ),
        (2, lambda row: row.__setitem__("note", 1), ":2: a row has no key 'note'"),
        (
            3,
            lambda row: row["fields"].__setitem__("name", 12),
            ":3: club.member.name: 12 is not valid (expected a string",
        ),
    ],
)
def test_a_value_no_form_would_take_is_refused_in_one_line_and_nothing_is_stored(
    archived: Path, number: int, change: Any, said: str
) -> None:
    moved_away(archived)
    edited(archived, number, change)
    counts = Club.objects.count(), Member.objects.count(), AuditEntry.objects.count()
    with pytest.raises(InputError) as refused:
        import_club(archived, who=ARBITER, arbiters=Arbiters(invite=True))
    assert str(refused.value).startswith(str(archived) + said) and "\n" not in str(refused.value), (
        refused.value
    )
    assert (Club.objects.count(), Member.objects.count(), AuditEntry.objects.count()) == counts


@pytest.mark.parametrize(
    "table, name, value, said",
    [
        (
            "club.game",
            "unplayed",
            "walkover",
            "club.game.unplayed: 'walkover' is not valid (expected one of",
        ),
        ("club.game", "round", 10**30, "club.game.round: "),
        (
            "club.game",
            "white_points",
            3,
            "club.game.white_points: 3 is not valid (expected a number from 0 to 2)",
        ),
        (
            "club.tournament",
            "time_control",
            "bullet",
            "club.tournament.time_control: 'bullet' is not valid",
        ),
        ("club.tournament", "date", "yesterday", "club.tournament.date: 'yesterday' is not valid"),
        (
            "club.tournament",
            "date",
            "0001-01-01",  # the writers' bound: a day before it is no date of Python's
            "club.tournament.date: '0001-01-01' is not valid (0001-01-01 is before 1851-01-01",
        ),
    ],
)
def test_a_row_s_value_beyond_the_product_s_bounds_is_refused_naming_its_line(
    archived: Path, table: str, name: str, value: Any, said: str
) -> None:
    moved_away(archived)
    number = first_line_of(archived, table)
    edited(archived, number, club_field(name, value))
    with pytest.raises(InputError, match=re.escape(f"{archived}:{number}: {said}")):
        import_club(archived, who=ARBITER)
    assert Club.objects.count() == 1


def test_a_row_given_twice_is_refused_naming_both_lines_and_nothing_is_stored(
    archived: Path,
) -> None:
    """Two rows of one table with one pk: each would be a row of its own (a member twice), and
    the rows after them would point to the second only."""
    moved_away(archived)
    number = first_line_of(archived, "club.member")
    text = lines(archived)
    text.insert(number, text[number - 1])
    end = json.loads(text[-1])
    end["end"]["rows"] += 1
    text[-1] = json.dumps(end) + "\n"
    rewrite(archived, text)
    counts = Club.objects.count(), Member.objects.count(), AuditEntry.objects.count()
    with pytest.raises(InputError) as refused:
        import_club(archived, who=ARBITER, arbiters=Arbiters(invite=True))
    assert str(refused.value).startswith(
        f"{archived}:{number + 1}: club.member {json.loads(text[number])['pk']} comes twice "
        f"(also line {number})"
    ), refused.value
    assert (Club.objects.count(), Member.objects.count(), AuditEntry.objects.count()) == counts


def test_the_archive_s_arbiters_are_made_only_as_the_import_is_told(archived: Path) -> None:
    """An archive naming a login of this database ("anna", with her password) does not make
    her the imported club's arbiter unless --arbiters link names her; --arbiters invite makes
    only logins that do not exist, without a password."""
    from django.contrib.auth import get_user_model

    moved_away(archived)
    bob = ['{"table":"auth.login","fields":{"username":"bob"}}\n']
    text = lines(archived)
    text = (
        text[:-1] + bob + [text[-1].replace(f'"rows":{len(text) - 2}', f'"rows":{len(text) - 1}')]
    )
    rewrite(archived, text)
    with pytest.raises(InputError, match="--arbiters link carl: the archive names no such arbiter"):
        import_club(archived, who=ARBITER, arbiters=Arbiters(link=frozenset({"carl"})))
    report = import_club(archived, who=ARBITER, arbiters=Arbiters(invite=True))
    assert (report.new_logins, report.existing_logins, report.left_out) == (["bob"], [], ["anna"])
    assert list(report.club.arbiters.values_list("username", flat=True)) == ["bob"]
    assert "not made arbiters here" in str(report) and "anna" in str(report)
    assert not get_user_model().objects.get(username="bob").has_usable_password()


def test_without_arbiters_the_import_makes_no_login_and_says_so(archived: Path) -> None:
    from django.contrib.auth import get_user_model

    moved_away(archived)
    logins = get_user_model().objects.count()
    report = import_club(archived, who=ARBITER)
    assert report.left_out == ["anna"] and not report.club.arbiters.exists()
    assert get_user_model().objects.count() == logins


def test_a_line_beyond_the_limit_is_refused_with_its_number_before_it_is_read_whole(
    db: None, tmp_path: Path
) -> None:
    from clubrating.club.services.archive_values import MAX_LINE_CHARS

    path = tmp_path / "long.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps(OLDER_SCHEMA[0]) + "\n")
        handle.write(
            '{"table":"club.club","pk":1,"fields":{"name":"' + "A" * (MAX_LINE_CHARS + 10) + '"}}\n'
        )
    with pytest.raises(
        InputError, match=re.escape(f"{path}:2: a line longer than {MAX_LINE_CHARS:,} characters")
    ):
        import_club(path, who=ARBITER)
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "line, said",
    [
        ("[" * 100_000 + "]" * 100_000, "not a line of a club archive"),  # RecursionError in json
        (
            '{"end": {"rows": ' + "9" * 5000 + "}}",
            "not a line of a club archive",
        ),  # int() of 5,000 digits
        (
            '{"end": {"rows": NaN}}',
            "not a line of a club archive (NaN is not a number JSON writes)",
        ),
    ],
)
def test_json_that_python_s_reader_chokes_on_is_one_line(
    db: None, tmp_path: Path, line: str, said: str
) -> None:
    path = tmp_path / "odd.jsonl.gz"
    rewrite(path, [json.dumps(OLDER_SCHEMA[0]) + "\n", line + "\n"])
    with pytest.raises(InputError, match=re.escape(f"{path}:2: {said}")):
        import_club(path, who=ARBITER)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "field, value, said",
    [
        ("time_zone", "America", "club.club.time_zone: time-zone 'America'"),
        ("moves_link_days", 10**30, "club.club.moves_link_days: "),
    ],
)
def test_import_club_refuses_a_bad_value_in_one_line_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any, said: str
) -> None:
    from clubrating.cli import main

    path = tmp_path / "club.jsonl.gz"
    rewrite(path, [json.dumps(line) + "\n" for line in OLDER_SCHEMA])
    edited(path, 2, club_field(field, value))
    assert main(["import-club", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and f"error: {path}:2: {said}" in err, err
    assert not Club.objects.exists()


def test_a_row_without_a_column_every_archive_holds_is_one_line_naming_it(
    db: None, tmp_path: Path
) -> None:
    """``created`` has no default (the import keeps the archive's times): without it the
    database refused the row ("NOT NULL constraint failed") instead of the archive's line."""
    path = tmp_path / "club.jsonl.gz"
    rewrite(path, [json.dumps(line) + "\n" for line in OLDER_SCHEMA])
    edited(path, 2, lambda row: row["fields"].pop("created"))
    with pytest.raises(
        InputError,
        match=re.escape(
            f"{path}:2: club.club without its column created, which every archive holds"
        ),
    ):
        import_club(path, who=ARBITER)
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "weights, said",
    [
        ({"preset": "grandmaster"}, "club.club.cpi_weights: unknown CPI preset 'grandmaster'"),
        ({"E": "heavy"}, "club.club.cpi_weights: E: 'heavy' is not a number"),
        (
            {"E": "1e999"},
            "club.club.cpi_weights: E: 'inf' is not a finite number",
        ),  # JSON's 1e999 reads as inf
        ({"Q": 3}, "club.club.cpi_weights: expected NAME=VALUE with NAME one of"),
        ([1, 2], "club.club.cpi_weights: expected an object of weights"),
    ],
)
def test_cpi_weights_are_taken_as_the_cpi_weights_command_takes_them(
    db: None, tmp_path: Path, weights: Any, said: str
) -> None:
    path = tmp_path / "club.jsonl.gz"
    rewrite(path, [json.dumps(line) + "\n" for line in OLDER_SCHEMA])
    edited(path, 2, club_field("cpi_weights", weights))
    rewrite(path, [line.replace('"1e999"', "1e999") for line in lines(path)])
    with pytest.raises(InputError, match=re.escape(f"{path}:2: {said}")):
        import_club(path, who=ARBITER)
    assert not Club.objects.exists()


def test_the_monthly_lists_move_with_the_club(club: Club, publish: Any, tmp_path: Path) -> None:
    """A frozen list is stored, not derived: the archive carries it, rows and members remapped."""
    publish(
        "Autumn",
        dt.date(2026, 10, 6),
        ["Anna Berg", "Ben Cole", "Cara Dunn"],
        [(1, "Anna Berg", "Ben Cole", "1-0"), (2, "Ben Cole", "Cara Dunn", "=")],
    )
    publish_month(club, dt.date(2026, 11, 1), who=ARBITER)
    path = tmp_path / "club.jsonl.gz"
    export_club(club, path)
    moved_away(path)
    moved = import_club(path, who=ARBITER).club

    def listed(of: Club) -> list[tuple[object, ...]]:
        return list(
            FrozenRow.objects.filter(frozen_list__club=of)
            .order_by("position")
            .values_list("member__name", "name", "rating", "games", "rank", "frozen_list__month")
        )

    assert listed(moved) == listed(Club.objects.get(slug="gone")) and len(listed(moved)) == 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, ": is a directory: expected a club archive (the gzip file export-club writes)"),
        (b"SQLite format 3\x00" + b"\x00" * 84, ": a SQLite database: a backup is read by "),
        (b"round,white,black,result\n", ": not a club archive: expected the gzip file"),
    ],
)
def test_a_directory_a_backup_or_a_text_given_to_import_club_says_what_it_is(
    tmp_path: Path, content: bytes | None, said: str
) -> None:
    """Not 'the file is damaged or cut short (Not a gzipped file ...)'."""
    path = tmp_path / "given"
    path.mkdir() if content is None else path.write_bytes(content)
    with pytest.raises(InputError) as refused:
        import_club(path, who=ARBITER)
    assert str(refused.value).startswith(f"{path}{said}"), refused.value
    assert Club.objects.count() == 0
