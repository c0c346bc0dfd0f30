"""``clubrating backup`` and ``restore`` on the real database (a SQLite file, or databases of
the PostgreSQL server of ``CLUBRATING_DATABASE_URL``), through the real command in processes of
its own, with a writer publishing and correcting in another process while the backup is taken."""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from clubrating.cpi.version import SCORING_VERSION

from .databases import own_database, query

pytestmark = (
    pytest.mark.storage
)  # the commands open the databases of $CLUBRATING_DATABASE_URL's server

WRITER = str(Path(__file__).with_name("writer_loop.py"))
DEADLINE = 180.0  # seconds a command may take on a busy 2-core machine
ON_POSTGRES = os.environ.get("CLUBRATING_DATABASE_URL", "").startswith("postgres")
SUFFIX = ".pgdump" if ON_POSTGRES else ".sqlite3"
EVENING = [
    "1,Anna Berg,Bob Cole,1-0",
    "1,Carl Dahl,Dana Eck,0-1",
    "2,Anna Berg,Dana Eck,1/2-1/2",
    "2,Bob Cole,Carl Dahl,1-0",
]

Databases = Callable[[], str]


@pytest.fixture
def new_database(tmp_path: Path) -> Iterator[Databases]:
    """Makes empty databases of the test's own (none of pytest-django's: other processes write
    them)."""
    with ExitStack() as stack:
        yield lambda: stack.enter_context(own_database(tmp_path, "backup"))


@pytest.fixture(scope="module")
def built_club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The published club (``published_club``) and the evening it was built from, made once for
    the module's tests, which are not about those commands: each test works on a copy."""
    folder = tmp_path_factory.mktemp("built")
    with own_database(folder, "built") as database:
        published_club(database, folder)
        if database.startswith(
            "sqlite:///"
        ):  # closed cleanly: the file alone is the whole database
            assert not Path(database.removeprefix("sqlite:///") + "-wal").exists()
        yield database, folder / "jan.csv"


@pytest.fixture(scope="module")
def built_backup(built_club: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``clubrating backup`` of the published club (of a copy), taken once for the tests about
    restoring it: each restores a copy of the file."""
    database, _ = built_club
    folder = tmp_path_factory.mktemp("backup")
    file = folder / f"club{SUFFIX}"
    with own_database(folder, "backup", template=database) as copy:
        ok(cli(copy, "backup", str(file)))
    return file


@pytest.fixture
def source(built_club: tuple[str, Path], tmp_path: Path) -> Iterator[str]:
    """A copy of the published club, the test's own."""
    with own_database(tmp_path, "backup", template=built_club[0]) as copy:
        yield copy


def tables(database: str) -> list[str]:
    if database.startswith("sqlite:///"):
        return [
            row[0] for row in query(database, "SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
    return [
        row[0]
        for row in query(database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    ]


AUDIT = "SELECT id, club_id, who, action, target, new FROM club_auditentry ORDER BY id"


def cli(database: str, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    # a PYTHONPATH relative to the checkout (PYTHONPATH=src) still finds it from another directory
    paths = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", database, *argv],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
    )


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def published_club(database: str, tmp_path: Path) -> None:
    """A club with one published evening (tournament 1: Anna, Bob, Carl, Dana)."""
    csv = tmp_path / "jan.csv"
    csv.write_text(
        "# date: 2024-01-09\nround,white,black,result\n" + "\n".join(EVENING) + "\n",
        encoding="utf-8",
    )
    ok(cli(database, "init", "Riverside"))
    ok(cli(database, "import", str(csv)))
    ok(cli(database, "link", "1", "--all-new"))
    ok(cli(database, "publish", "1"))


class Writer:
    """writer_loop.py on the database, its ``wrote N`` lines read as they come."""

    def __init__(self, database: str, tmp_path: Path) -> None:
        self.errors = tmp_path / "writer-stderr.txt"
        self.process = subprocess.Popen(
            [sys.executable, WRITER, database, str(tmp_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors.open("w"),
            text=True,
        )
        self.writes = 0

    def wait_for(self, writes: int) -> None:
        assert self.process.stdout is not None
        while self.writes < writes:
            line = self.process.stdout.readline()
            assert line, f"the writer stopped: {self.errors.read_text()}"
            self.writes = int(line.split()[1])

    def stop(self) -> None:
        self.process.communicate("stop\n", timeout=DEADLINE)
        assert self.process.returncode == 0, self.errors.read_text()


def test_a_backup_taken_while_a_writer_publishes_and_corrects_restores_a_consistent_history(
    source: str, new_database: Databases, tmp_path: Path
) -> None:
    target = new_database()
    writer = Writer(source, tmp_path)
    try:
        writer.wait_for(3)
        file = tmp_path / f"during{SUFFIX}"
        ok(cli(source, "backup", str(file)))
        started = writer.writes
        writer.wait_for(started + 3)  # the writer went on while and after the backup was taken
    finally:
        writer.stop()
    assert oct(file.stat().st_mode & 0o777) == "0o600"
    restored = ok(cli(target, "restore", str(file)))
    assert restored.startswith(f"restored {file}: 1 club, ")
    kept, everything = query(target, AUDIT), query(source, AUDIT)
    assert len(kept) >= 3 + 9 and len(kept) < len(
        everything
    )  # the writes up to the backup, not those after
    assert kept == everything[: len(kept)]  # every entry up to the backup, as it was
    assert "matched the replay exactly" in ok(cli(target, "rebuild"))
    tournaments = query(target, "SELECT count(*) FROM club_tournament WHERE status = 'published'")[
        0
    ][0]
    assert tournaments >= 1 + started // 3


def test_a_truncated_or_damaged_backup_is_refused_in_one_line_and_nothing_is_written(
    built_club: tuple[str, Path], built_backup: Path, new_database: Databases, tmp_path: Path
) -> None:
    target, evening = new_database(), built_club[1]
    whole = tmp_path / f"whole{SUFFIX}"
    shutil.copy2(built_backup, whole)
    data = whole.read_bytes()
    cut = tmp_path / f"cut{SUFFIX}"
    cut.write_bytes(data[: len(data) * 2 // 3])
    damaged = tmp_path / f"damaged{SUFFIX}"
    damaged.write_bytes(data[:4096] + bytes(len(data) - 4096))
    for bad in (cut, damaged, evening):  # and a file that is no backup at all
        done = cli(target, "restore", str(bad))
        assert done.returncode == 2, done.stdout + done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"clubrating restore: error: {bad}: "), (
            done.stderr
        )
        assert "club_auditentry" not in tables(target)
    ok(cli(target, "restore", str(whole)))  # the whole file restores into the same database


def test_a_database_holding_rows_is_refused_and_left_as_it_was(
    built_backup: Path, new_database: Databases, tmp_path: Path
) -> None:
    target = new_database()
    file = tmp_path / f"club{SUFFIX}"
    shutil.copy2(built_backup, file)
    ok(cli(target, "init", "Another Club"))
    before = query(target, AUDIT)
    done = cli(target, "restore", str(file))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "clubrating restore: error: the database is not empty (table club_auditentry "
        "holds rows): a backup restores into an empty database only; nothing was written"
    )
    assert query(target, AUDIT) == before
    assert [row[0] for row in query(target, "SELECT name FROM club_club")] == ["Another Club"]


FROZEN = (
    "SELECT l.month, l.rating_list, r.position, r.member_id, r.name, r.rating, r.games, r.rank "
    "FROM club_frozenrow r JOIN club_frozenlist l ON l.id = r.frozen_list_id ORDER BY r.id"
)


def test_a_backup_keeps_the_monthly_lists(
    source: str, new_database: Databases, tmp_path: Path
) -> None:
    """The monthly lists are stored, not derived (no rebuild makes them again): a backup
    restored holds them as published, and a restored database still refuses the month again."""
    ok(cli(source, "monthly", "publish", "2024-02"))
    published = query(source, FROZEN)
    assert len(published) == 4
    file = tmp_path / f"lists{SUFFIX}"
    ok(cli(source, "backup", str(file)))
    target = new_database()
    ok(cli(target, "restore", str(file)))
    assert query(target, FROZEN) == published
    again = cli(target, "monthly", "publish", "2024-02")
    assert again.returncode == 2 and "published already" in again.stderr


def test_a_database_with_empty_tables_only_is_empty_and_restores(
    source: str, built_backup: Path, new_database: Databases, tmp_path: Path
) -> None:
    target = new_database()
    file = tmp_path / f"club{SUFFIX}"
    shutil.copy2(built_backup, file)
    migrate = (
        "import sys; from clubrating import djangoenv; djangoenv.setup(sys.argv[1], migrate=True)"
    )
    subprocess.run(
        [sys.executable, "-c", migrate, target], check=True, timeout=DEADLINE
    )  # tables, no row
    assert "club_auditentry" in tables(target)
    ok(cli(target, "restore", str(file)))
    assert query(target, AUDIT) == query(source, AUDIT)


def test_migrations_newer_than_the_backup_are_applied_after_the_restore(
    source: str, new_database: Databases, tmp_path: Path
) -> None:
    target = new_database()
    newest = query(
        source, "SELECT name FROM django_migrations WHERE app = 'club' ORDER BY id DESC LIMIT 1"
    )[0][0]
    older = query(
        source, "SELECT name FROM django_migrations WHERE app = 'club' ORDER BY id DESC LIMIT 2"
    )[1][0]
    # the source taken back to the migration before the newest, as an older installation's was
    code = (
        "import sys; from clubrating import djangoenv; "
        "djangoenv.setup(sys.argv[1]); from django.core.management import "
        "call_command; call_command('migrate', 'club', sys.argv[2], verbosity=0)"
    )
    subprocess.run([sys.executable, "-c", code, source, older], check=True, timeout=DEADLINE)
    file = tmp_path / f"older{SUFFIX}"
    ok(cli(source, "backup", str(file)))
    restored = ok(cli(target, "restore", str(file)))
    assert "1 newer migration applied" in restored
    assert (
        query(target, f"SELECT count(*) FROM django_migrations WHERE name = '{newest}'")[0][0] == 1
    )
    # the restore's own start checked the ledger of the club its backup holds (of no mark when
    # the backup is older than migration 0033: docs/cpi.md, "A new version's rules")
    assert query(target, "SELECT cpi_scored_with FROM club_club") == [(SCORING_VERSION,)]
    assert "matched the replay exactly" in ok(cli(target, "rebuild"))


def test_the_default_file_is_named_by_the_time_and_never_replaced(
    source: str, tmp_path: Path
) -> None:
    out = ok(cli(source, "backup", cwd=tmp_path))
    name = re.search(r"to (clubrating-\d{8}-\d{6}" + re.escape(SUFFIX) + ")", out)
    assert name is not None, out
    again = cli(source, "backup", name.group(1), cwd=tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr
    assert [
        p.name for p in tmp_path.iterdir() if p.name.startswith((".clubrating", "clubrating"))
    ] == [name.group(1)]


# A tampered backup: objects no migration makes, added to a copy of the file (SQLite) or to the
# database before the dump (PostgreSQL). Restored, each would go on running: the first two make
# every club public with full names on the next audited change, and copy a new arbiter's
# password hash into a public member's name.
SQLITE_BACKDOORS = {
    "trigger publish_all": "CREATE TRIGGER publish_all AFTER INSERT ON club_auditentry BEGIN "
    "UPDATE club_club SET visibility = 'public', names = 'full'; END",
    "trigger leak_hashes": "CREATE TRIGGER leak_hashes AFTER INSERT ON auth_user BEGIN "
    "UPDATE club_member SET name = NEW.password WHERE id = 1; END",
    "view members_view": "CREATE VIEW members_view AS SELECT name FROM club_member",
    "table stash": "CREATE TABLE stash (secret TEXT)",
    "index club_member_by_name": "CREATE INDEX club_member_by_name ON club_member (name)",
}
PG_BACKDOORS = {
    "FUNCTION public publish_all()": (
        "CREATE FUNCTION publish_all() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "UPDATE club_club SET visibility = 'public', names = 'full'; RETURN NEW; END $$"
    ),
    "TRIGGER public club_auditentry publish_all": (
        "CREATE TRIGGER publish_all AFTER INSERT ON club_auditentry "
        "FOR EACH ROW EXECUTE FUNCTION publish_all()"
    ),
    "VIEW public members_view": "CREATE VIEW members_view AS SELECT name FROM club_member",
    "TABLE public stash": "CREATE TABLE stash (secret TEXT)",
    # kinds migrations make, on clubrating's tables, but not made so: only the probe database's
    # schema tells them apart
    "INDEX public club_member_by_name": "CREATE INDEX club_member_by_name ON club_member (name)",
    "TABLE public club_club": (
        "ALTER TABLE club_club DROP CONSTRAINT club_club_k_new_games_check, ADD "
        "CONSTRAINT club_club_k_new_games_check CHECK (k_new_games >= -1000000)"
    ),
}


SQLITE_LACKS = {"index club_audite_club_id_33496d_idx": "DROP INDEX club_audite_club_id_33496d_idx"}
"""An object taken away: an index dropped (for a unique one, a uniqueness lost)."""
CASES = [(name, False) for name in (PG_BACKDOORS if ON_POSTGRES else SQLITE_BACKDOORS)] + (
    [] if ON_POSTGRES else [(name, True) for name in SQLITE_LACKS]
)


def tampered(built_backup: Path, source: str, tmp_path: Path, name: str) -> Path:
    """The backup with ``name`` added (or taken away): SQLite's file edited, PostgreSQL's
    database changed before its dump (a TRIGGER with the function it runs)."""
    file = tmp_path / f"tampered{SUFFIX}"
    if not ON_POSTGRES:
        import sqlite3

        shutil.copy2(built_backup, file)
        with sqlite3.connect(file) as database:
            database.execute({**SQLITE_BACKDOORS, **SQLITE_LACKS}[name])
        return file
    import psycopg

    with psycopg.connect(source, autocommit=True) as database:
        if name.startswith("TRIGGER"):
            database.execute(PG_BACKDOORS["FUNCTION public publish_all()"])
        database.execute(PG_BACKDOORS[name])
    ok(cli(source, "backup", str(file)))
    return file


@pytest.mark.parametrize("name, taken_away", CASES)
def test_a_backup_holding_an_object_no_migration_makes_is_refused_before_anything_is_written(
    built_backup: Path,
    source: str,
    new_database: Databases,
    tmp_path: Path,
    name: str,
    taken_away: bool,
) -> None:
    file = tampered(built_backup, source, tmp_path, name)
    target = new_database()
    done = cli(target, "restore", str(file))
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    said = f"the backup lacks {name} " if taken_away else "the backup holds "
    assert len(lines) == 1 and lines[0].startswith(f"clubrating restore: error: {file}: {said}"), (
        done.stderr
    )
    assert name in lines[0] and "nothing was written" in lines[0]
    assert tables(target) == []
    if ON_POSTGRES:
        assert probes(target) == []


def test_an_untouched_backup_still_restores_after_its_schema_is_compared(
    built_backup: Path, new_database: Databases, tmp_path: Path
) -> None:
    target = new_database()
    file = tmp_path / f"club{SUFFIX}"
    shutil.copy2(built_backup, file)
    assert ok(cli(target, "restore", str(file))).startswith(f"restored {file}: 1 club, ")


def probes(database: str) -> list[str]:
    """The probe databases the schema checks of a restore into ``database`` left on the server
    (none: each is dropped after); another test's restore may have its own probe meanwhile."""
    prefix = (
        database.rsplit("/", 1)[-1][:30] + "_probe_"
    )  # the tests' database names: letters, digits and _
    sql = f"SELECT datname FROM pg_database WHERE starts_with(datname, '{prefix}')"
    return [row[0] for row in query(database, sql)]


def test_a_role_that_may_not_create_a_database_restores_after_the_kinds_check_and_says_so(
    built_backup: Path, new_database: Databases, tmp_path: Path
) -> None:
    import psycopg
    from urllib.parse import urlsplit, urlunsplit

    target = new_database()
    parts = urlsplit(target)
    role, name = f"restorer_{tmp_path.name[-12:].replace('-', '_').lower()}", parts.path.lstrip("/")
    with psycopg.connect(target, autocommit=True) as database:
        database.execute(f"CREATE ROLE {role} LOGIN NOCREATEDB")
        database.execute(f"ALTER DATABASE {name} OWNER TO {role}")
    try:
        as_role = urlunsplit(parts._replace(netloc=f"{role}@{parts.hostname}:{parts.port}"))
        file = tmp_path / f"club{SUFFIX}"
        shutil.copy2(built_backup, file)
        done = cli(as_role, "restore", str(file))
        assert done.returncode == 0 and done.stdout.startswith(f"restored {file}: 1 club, "), (
            done.stdout + done.stderr
        )
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "only the kinds of schema object were checked" in lines[0], (
            done.stderr
        )
        assert probes(target) == []
    finally:
        with psycopg.connect(target, autocommit=True) as database:
            database.execute(f"REASSIGN OWNED BY {role} TO CURRENT_USER")
            database.execute(f"DROP OWNED BY {role}")
            database.execute(f"ALTER DATABASE {name} OWNER TO CURRENT_USER")
            database.execute(f"DROP ROLE {role}")


# a role without CREATEDB is PostgreSQL's: the test is collected on PostgreSQL only (a skip fails
# CI)
test_a_role_that_may_not_create_a_database_restores_after_the_kinds_check_and_says_so.__test__ = (
    ON_POSTGRES  # type: ignore[attr-defined]
)


def test_a_second_statement_on_a_session_setting_line_of_a_dump_is_compared() -> None:
    """A custom-format dump can be edited to hide a statement after a line pg_restore writes
    itself (``SET ...;``): only the whole line is noise."""
    from clubrating.club.ops.backup_schema import _pg_objects

    header = (
        "--\n-- Name: club_club; Type: TABLE; Schema: public; Owner: "
        "-\n--\n\nCREATE TABLE public.club_club (id integer);\n"
    )
    plain = _pg_objects(header)
    assert (
        _pg_objects(
            header
            + (
                "SET default_tablespace = '';\nSELECT pg_catalog.set_config('search_path', "
                "'', false);\n\\restrict abc123\n-- a comment\n"
            )
        )
        == plain
    )
    for hidden in (
        "SET default_tablespace = ''; CREATE TRIGGER t "
        "AFTER INSERT ON club_club EXECUTE FUNCTION f();",
        "SELECT pg_catalog.set_config('search_path', '', false); DROP TABLE club_club;",
        "SET lock_timeout = 0;SELECT 1;",
    ):
        assert _pg_objects(header + hidden + "\n") != plain, hidden


@pytest.mark.parametrize("verb", ["backup", "restore"])
def test_a_whole_database_command_given_a_club_refuses_it_and_names_export_club(
    tmp_path: Path, verb: str
) -> None:
    """``backup --club riverside`` copied every club of the database: whoever hands the file to
    one club hands over the others. One line pointing to export-club, and no file."""
    database = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    command = [sys.executable, "-m", "clubrating", "--database", database]
    for name in ("Riverside", "Hillside"):
        subprocess.run(command + ["init", name], capture_output=True, check=True)
    target = tmp_path / "riverside.sqlite3"
    files = {"backup": [str(target)], "restore": [str(tmp_path / "two.sqlite3")]}
    done = subprocess.run(
        command + [verb, *files[verb], "--club", "riverside"], capture_output=True, text=True
    )
    assert done.returncode == 2 and not target.exists()
    assert done.stderr == (
        f"clubrating {verb}: error: --club riverside: {verb} copies the whole database, every "
        "club; one club moves with clubrating export-club --club SLUG FILE and import-club FILE\n"
    )


def test_a_club_archive_given_to_restore_says_import_club_reads_it(tmp_path: Path) -> None:
    archive = tmp_path / "riverside.jsonl.gz"
    archive.write_bytes(gzip.compress(b'{"format":"clubrating-club","version":1}\n'))
    database = tmp_path / "new.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", f"sqlite:///{database}", "restore"]
        + [str(archive)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and not database.exists()
    assert done.stderr == (
        f"clubrating restore: error: {archive}: a gzip file: a club archive is read by "
        "clubrating import-club\n"
    )
