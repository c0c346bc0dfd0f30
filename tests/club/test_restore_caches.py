"""After ``clubrating restore`` of an older backup, no cached page, and no part of a page kept in
the cache (web/views.kept), shows the lineage the restore threw away.

A restore takes the ids of the audit, rebuild and ledger rows back to the backup's (SQLite's
``sqlite_sequence`` is in the file, pg_restore sets every sequence from the dump): the same kind
of write after it takes the same ids as the lost write did. Here the lost lineage corrects a
game one way, the restored one the other way, with the same ids; a real ``clubrating serve``
keeps its pages in its worker's memory, or in a shared directory that outlives the database
(as a restore on a new machine finds it), and the page it answers after the restore must show
the ratings the database holds. On a SQLite file, and on PostgreSQL in its pass.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from clubrating.web.access import CACHE_HEADER

from .databases import on_postgres, own_database, query
from .test_backup import SUFFIX, cli, ok, published_club

pytestmark = pytest.mark.storage  # the commands open the databases of the PostgreSQL server

PAGE = re.compile(
    r'href="/c/riverside/p/(\d+)/">[^<]*</a>(?: <span class="tag">[^<]*</span>)?</td>'
    r'<td class="num">(\d*)</td>'
)
IDS = (
    "SELECT (SELECT MAX(id) FROM club_auditentry), (SELECT MAX(id) FROM club_rebuildlog), "
    "(SELECT MAX(id) FROM club_cpientry)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, path: str) -> tuple[str, str]:
    """The page's text and whether the page cache answered (``hit`` or ``miss``)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        return response.read().decode(), response.headers.get(CACHE_HEADER, "")


class Server:
    """``clubrating serve`` with one gunicorn worker (so a cache in memory is the one asked
    each time), its page cache where ``pages`` says."""

    def __init__(self, database: str, pages: str) -> None:
        self.port = free_port()
        env = {**os.environ, "CLUBRATING_DEBUG": "0", "CLUBRATING_PAGE_CACHE": pages}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "clubrating", "--database", database, "serve"]
            + ["--port", str(self.port), "--workers", "1"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        for _ in range(300):
            try:
                get(self.port, "/robots.txt")
                return
            except OSError:
                time.sleep(0.1)
        self.process.kill()
        raise AssertionError(f"the server did not answer: {self.process.communicate()[1]!r}")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=30)


def shown(page: str) -> dict[int, int]:
    """Member -> the rating the club page shows."""
    return {int(member): int(rating) for member, rating in PAGE.findall(page) if rating}


def stored(database: str) -> dict[int, int]:
    """Member -> the current rating the database holds (one rating list here), as the page
    rounds it."""
    rows = query(database, "SELECT member_id, rating, rating_list FROM club_currentrating")
    assert len({row[2] for row in rows}) == 1, rows
    return {member: int(f"{rating:.0f}") for member, rating, _ in rows}


def empty(database: str) -> None:
    """The database made empty again under the same name, as before a restore (the server
    keeps running: its next request opens the new one)."""
    if not on_postgres(database):
        path = database.removeprefix("sqlite:///")
        for file in (path, f"{path}-wal", f"{path}-shm"):
            Path(file).unlink(missing_ok=True)
        return
    import psycopg

    parts = urlsplit(database)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")


@pytest.fixture
def club(tmp_path: Path) -> Iterator[str]:
    """A public club with one published evening (Anna Berg - Bob Cole 1-0 in round 1)."""
    with own_database(tmp_path, "lineage") as database:
        published_club(database, tmp_path)
        ok(cli(database, "privacy", "--visibility", "public"))
        yield database


@pytest.mark.parametrize("pages", ["memory", "directory"])
def test_after_a_restore_no_cached_page_or_kept_part_shows_the_lineage_it_threw_away(
    club: str, pages: str, tmp_path: Path
) -> None:
    cache = "memory" if pages == "memory" else str(tmp_path / "pages")
    backup = tmp_path / f"before{SUFFIX}"
    ok(cli(club, "backup", str(backup)))
    server = Server(club, cache)
    try:
        ok(cli(club, "correct", "1", "1", "Anna Berg", "0-1"))  # the lineage the restore loses
        lost = ok(cli(club, "ratings", "--json"))
        get(server.port, "/c/riverside/")
        page, answered = get(server.port, "/c/riverside/")
        assert answered == "hit" and shown(page) == stored(club)  # cached, and true then
        lost_ids, lost_ratings = query(club, IDS), stored(club)
        if pages == "directory":  # a new machine: the old server gone, its directory kept
            server.stop()
        empty(club)
        ok(cli(club, "restore", str(backup)))  # without the cache's place: it cannot empty it
        if pages == "directory":
            server = Server(club, cache)
        ok(cli(club, "correct", "1", "1", "Anna Berg", "1/2-1/2"))
        assert query(club, IDS) == lost_ids  # the ids of the lost lineage came again
        assert stored(club) != lost_ratings, lost
        page, _ = get(server.port, "/c/riverside/")
        assert shown(page) == stored(club)
        # another address: the page is made anew, around the rating table kept beside it
        page, answered = get(server.port, "/c/riverside/?from=restore")
        assert answered == "miss" and shown(page) == stored(club)
    finally:
        server.stop()


def test_a_restore_that_reaches_the_shared_cache_directory_empties_it(
    club: str, tmp_path: Path
) -> None:
    backup, pages = tmp_path / f"club{SUFFIX}", tmp_path / "pages"
    ok(cli(club, "backup", str(backup)))
    server = Server(club, str(pages))
    try:
        get(server.port, "/c/riverside/")
    finally:
        server.stop()
    assert list(pages.glob("*.djcache"))
    empty(club)
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", club, "restore", str(backup)],
        env={**os.environ, "CLUBRATING_PAGE_CACHE": str(pages)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert not list(pages.glob("*.djcache"))


def test_every_table_of_the_club_app_never_reuses_an_id(club: str) -> None:
    """A deleted row's id is never taken again (a club deleted, a ledger rewritten): SQLite's
    AUTOINCREMENT, a sequence or identity on PostgreSQL, for every model's table."""
    if on_postgres(club):
        rows = query(
            club,
            "SELECT c.relname, pg_get_serial_sequence(c.relname, 'id') FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' "
            "AND n.nspname = 'public' AND c.relname LIKE 'club\\_%'",
        )
        assert rows and [t for t, sequence in rows if sequence is None] == []
        return
    rows = query(club, "SELECT name, sql FROM sqlite_master WHERE name LIKE 'club\\_%' ESCAPE '\\'")
    tables = [(name, sql) for name, sql in rows if sql and sql.startswith("CREATE TABLE")]
    assert tables and [name for name, sql in tables if "AUTOINCREMENT" not in sql] == []
