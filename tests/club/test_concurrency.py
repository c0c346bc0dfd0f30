"""Two writers of one club's history at once: real processes
running the ``clubrating`` command on a database of their own (a SQLite file, or a new
database on the PostgreSQL server of ``CLUBRATING_DATABASE_URL``).

The races that start from a published club start from a copy of one built once per module
(the commands that build it are not what these tests race, and each has tests of its own).
Each race is made deterministic by a barrier, not by sleeping: the first process
stops inside its transaction, after it has written (``racer.py``'s ``hold``); the
second is started and the first is let go only once the second is inside its own
transaction or waiting for a lock. Whatever the second checked, it checked while
the first's change was not committed yet: unless the checks run under the club's
lock, after the first has committed.
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import queue
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from .databases import own_database, query

pytestmark = (
    pytest.mark.storage
)  # the racers open the database of $CLUBRATING_DATABASE_URL's server
RACER = str(Path(__file__).with_name("racer.py"))
DEADLINE = 120.0  # seconds a race may take at most, on a busy 2-core machine, before the test fails


def _server_url() -> str:
    return os.environ.get("CLUBRATING_DATABASE_URL", "")


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """A database of the test's own: none of pytest-django's, since other processes write it."""
    with own_database(tmp_path, "race", _server_url()) as url:
        yield url


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The club of ``published_club``, built once for the module's races (per xdist worker)."""
    folder = tmp_path_factory.mktemp("published")
    with own_database(folder, "racetemplate", _server_url()) as url:
        published_club(url, folder)
        yield url


@pytest.fixture
def published(published_template: str, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own holding a copy of ``published_template``."""
    with own_database(tmp_path, "race", template=published_template) as url:
        yield url


def is_waiting_on_a_lock(database: str, backend: int | None, pid: int) -> bool:
    """PostgreSQL: the process's server backend waits for a lock. Any file lock
    (flock, fcntl) the process waits for: Linux lists it in /proc/locks with '->'."""
    if backend is not None and not database.startswith("sqlite:"):
        import psycopg

        with psycopg.connect(database) as connection:
            row = connection.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [backend]
            ).fetchone()
        if row and row[0]:
            return True
    with open("/proc/locks", encoding="ascii") as locks:
        return any(
            "->" in line and line.split()[5 if line.split()[1] == "->" else 4] == str(pid)
            for line in locks
        )


class Racer:
    """One ``clubrating`` command in its own process (``racer.py``), its stdout read line by
    line."""

    def __init__(self, database: str, role: str, command: list[str], tmp_path: Path) -> None:
        self.errors = tmp_path / f"stderr-{uuid.uuid4().hex[:8]}.txt"
        self.process = subprocess.Popen(
            [sys.executable, RACER, database, role, *command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors.open("w"),
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))
            self.lines.put(line.rstrip("\n"))
        self.lines.put("eof")

    def next_line(self, timeout: float) -> str | None:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_for_inside(self) -> None:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            line = self.next_line(1.0)
            if line == "inside":
                return
            if line == "eof":
                raise AssertionError(f"the first process ended before its write: {self.finish()}")
        raise AssertionError("the first process never reached its write")

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str, str]:
        code = self.process.wait(timeout=DEADLINE)
        return code, "\n".join(self.output), self.errors.read_text()


def wait_until_in_the_race(second: Racer, database: str) -> None:
    """Until the second process is inside its transaction, about to take a write lock,
    waiting for one, or finished."""
    backend: int | None = None
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        line = second.next_line(0.05)
        if line is not None and line.startswith("backend "):
            backend = int(line.split()[1])
        elif line in ("inside", "lock", "eof") or (line or "").startswith("done "):
            return
        if is_waiting_on_a_lock(database, backend, second.process.pid):
            return
    raise AssertionError("the second process never came into the race")


def race(
    database: str, first: list[str], second: list[str], tmp_path: Path
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """Run ``first`` up to its write, then ``second`` until it is in the race, then let both end."""
    one = Racer(database, "hold", first, tmp_path)
    try:
        one.wait_for_inside()
        two = Racer(database, "second", second, tmp_path)
        try:
            wait_until_in_the_race(two, database)
        finally:
            one.go()
        return one.finish(), two.finish()
    finally:
        one.process.kill()


def run(database: str, *commands: list[str]) -> None:
    """Commands one after another in one process (the set-up of a race)."""
    done = subprocess.run(
        [sys.executable, RACER, database, "batch"],
        input=json.dumps(commands),
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stderr


def cli(database: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", database, *argv],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )


def write_csv(path: Path, date: str, rows: list[str]) -> str:
    path.write_text(
        f"# date: {date}\nround,white,black,result\n" + "\n".join(rows) + "\n", encoding="utf-8"
    )
    return str(path)


EVENING = [
    "1,Anna Berg,Bob Cole,1-0",
    "1,Carl Dahl,Dana Eck,0-1",
    "2,Anna Berg,Dana Eck,1/2-1/2",
    "2,Bob Cole,Carl Dahl,1-0",
]


def published_club(database: str, tmp_path: Path) -> None:
    """A club with one published evening (tournament 1: Anna, Bob, Carl, Dana, members 1-4)."""
    run(
        database,
        ["init", "Riverside"],
        ["import", write_csv(tmp_path / "jan.csv", "2024-01-09", EVENING)],
        ["link", "1", "--all-new"],
        ["publish", "1"],
    )


def assert_clean_refusal(result: tuple[int, str, str], words: str) -> None:
    code, _, errors = result
    assert code == 2, errors
    assert words in errors and "Traceback" not in errors, errors
    assert len(errors.strip().splitlines()) == 1, errors


def assert_history_matches_a_replay(database: str) -> None:
    done = cli(database, "rebuild", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matched"], done.stdout


# --- the races -------------------------------------------------------------------------------


def test_two_corrections_at_once_both_count_and_the_ratings_are_a_replay(published, tmp_path):
    """On PostgreSQL the second correction replayed a history without the first (a lost update)
    or failed on one_change_per_member. SQLite's BEGIN IMMEDIATE serialised them already."""
    database = published
    one, two = race(
        database,
        ["correct", "1", "1", "Anna Berg", "0-1"],
        ["correct", "1", "2", "Bob Cole", "0-1"],
        tmp_path,
    )
    assert one[0] == 0, one[2]
    assert two[0] == 0, two[2]
    assert query(
        database, "SELECT round, white_points, black_points FROM club_game ORDER BY round, id"
    ) == [(1, 0, 2), (1, 0, 2), (2, 1, 1), (2, 0, 2)]
    assert_history_matches_a_replay(database)


def test_merge_a_b_while_merge_b_a_runs_merges_once_and_makes_no_cycle(published, tmp_path):
    database = published
    run(
        database,
        ["import", write_csv(tmp_path / "feb.csv", "2024-02-06", ["1,A. Berg,Carl Dahl,1-0"])],
        ["link", "2", "--exact", "--all-new"],
        ["publish", "2"],
    )  # A. Berg: member 5, never met Anna
    one, two = race(database, ["merge", "5", "1"], ["merge", "1", "5"], tmp_path)
    assert one[0] == 0, one[2]
    assert_clean_refusal(two, "A. Berg was merged into Anna Berg: merge into that member")
    merged = dict(query(database, "SELECT id, merged_into_id FROM club_member"))
    assert merged == {1: None, 2: None, 3: None, 4: None, 5: 1}
    assert_history_matches_a_replay(database)


def test_two_names_of_one_tournament_linked_to_one_member_at_once_link_one(published, tmp_path):
    database = published
    run(
        database,
        [
            "import",
            write_csv(
                tmp_path / "feb.csv",
                "2024-02-06",
                ["1,A. Berg,Ann Berg,1-0", "1,Bob Cole,Carl Dahl,0-1"],
            ),
        ],
    )
    one, two = race(database, ["link", "2", "1", "1"], ["link", "2", "2", "1"], tmp_path)
    assert one[0] == 0, one[2]
    assert_clean_refusal(two, "Anna Berg is already 'A. Berg' (number 1) in this tournament")
    assert query(
        database, "SELECT number FROM club_entry WHERE tournament_id = 2 AND member_id = 1"
    ) == [(1,)]


def test_two_publishes_of_one_tournament_at_once_publish_it_once(published, tmp_path):
    database = published
    run(
        database,
        ["import", write_csv(tmp_path / "feb.csv", "2024-02-06", EVENING)],
        ["link", "2", "--exact"],
    )
    one, two = race(database, ["publish", "2"], ["publish", "2"], tmp_path)
    assert one[0] == 0, one[2]
    assert_clean_refusal(two, "tournament 2 is already published")
    assert query(database, "SELECT count(*) FROM club_auditentry WHERE action = 'publish'") == [
        (2,)
    ]
    assert_history_matches_a_replay(database)


def test_two_first_commands_on_a_new_database_migrate_it_once(database, tmp_path):
    one, two = race(database, ["init", "Riverside"], ["init", "Lakeside"], tmp_path)
    assert one[0] == 0, one[2]
    assert two[0] == 0, two[2]
    assert sorted(query(database, "SELECT slug FROM club_club")) == [("lakeside",), ("riverside",)]


# --- the website and the command line at once --------------------------------------------------

PASSWORD = "correct horse battery staple"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Browser:
    """An arbiter's browser: cookies kept, forms posted with the CSRF token, nothing followed."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port, self.cookies = port, dict(cookies or {})

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=DEADLINE)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, urlencode(form) if form is not None else None, headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";")[0]
        connection.close()
        return response.status, text

    def post(self, path: str, form: dict[str, str]) -> tuple[int, str]:
        return self.request(
            "POST", path, {**form, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
        )


def start_server(database: str, tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "CLUBRATING_DEBUG": "0", "CLUBRATING_PAGE_CACHE": str(tmp_path / "pages")}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clubrating",
            "--database",
            database,
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "server.txt").open("w"),
        start_new_session=True,
    )
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        try:
            Browser(port).request("GET", "/robots.txt")
            return server, port
        except OSError:
            time.sleep(0.1)  # polling for the server to listen, not ordering a race
    server.kill()
    raise AssertionError((tmp_path / "server.txt").read_text())


def test_arbiters_posting_while_the_command_line_corrects_wait_and_never_see_a_server_error(
    published, tmp_path
):
    """gunicorn's workers and `clubrating correct` write the same club at once: on PostgreSQL
    17 of 32 posts were HTTP 500 (a duplicate rating-change row). Waiting is fine, a 500 is not."""
    database = published
    added = subprocess.run(
        [
            sys.executable,
            "-m",
            "clubrating",
            "--database",
            database,
            "arbiter",
            "add",
            "anna",
            "--password-stdin",
        ],
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
    )
    assert added.returncode == 0, added.stderr
    games = [str(g) for (g,) in query(database, "SELECT id FROM club_game ORDER BY id")]
    server, port = start_server(database, tmp_path)
    try:
        login = Browser(port)
        login.request("GET", "/accounts/login/")
        status, _ = login.post("/accounts/login/", {"username": "anna", "password": PASSWORD})
        assert status == 302 and "sessionid" in login.cookies
        statuses: list[int] = []

        def arbiter(number: int) -> None:
            browser = Browser(port, login.cookies)
            for i in range(8):
                form = {
                    "game": games[(number + i) % len(games)],
                    "result": ("1-0", "0-1", "1/2-1/2")[i % 3],
                }
                statuses.append(browser.post("/c/riverside/arbiter/t/1/result/", form)[0])

        corrections: list[subprocess.CompletedProcess[str]] = []

        def command_line() -> None:
            for i in range(6):
                player = ("Anna Berg", "Carl Dahl")[i % 2]
                corrections.append(
                    cli(database, "correct", "1", "1", player, ("0-1", "1-0", "1/2-1/2")[i % 3])
                )

        threads = [threading.Thread(target=arbiter, args=(n,)) for n in range(4)]
        threads.append(threading.Thread(target=command_line))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=DEADLINE * 3)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    assert len(statuses) == 32 and statuses.count(500) == 0, statuses
    assert set(statuses) == {302}, statuses
    # a correction the arbiters' posts made already is refused in one line ("nothing to correct")
    assert (
        all(
            c.returncode == 0 or (c.returncode == 2 and "nothing to correct" in c.stderr)
            for c in corrections
        )
        and len(corrections) == 6
    ), [c.stderr for c in corrections]
    assert_history_matches_a_replay(database)


# --- what guards the history whatever writes it ------------------------------------------------


def execute(database: str, sql: str) -> None:
    """Write the database straight, as an older version or a mistaken hand could have."""
    if database.startswith("sqlite:///"):
        with sqlite3.connect(database.removeprefix("sqlite:///")) as connection:
            connection.execute(sql)
        return
    import psycopg

    with psycopg.connect(database) as connection:
        connection.execute(sql)


def test_a_database_linking_one_member_twice_in_a_tournament_is_told_what_to_do_before_upgrading(
    published, tmp_path
):
    database = published
    # the import, then the schema taken back to before the one-name-per-member constraint: one
    # process
    back = (
        "import sys; from clubrating import cli, djangoenv; "
        "assert cli.main(['--database', sys.argv[1], 'import', sys.argv[2]]) == 0; "
        "djangoenv.setup(sys.argv[1]); from django.core.management import call_command; "
        "call_command('migrate', 'club', '0005', verbosity=0)"
    )
    subprocess.run(
        [
            sys.executable,
            "-c",
            back,
            database,
            write_csv(tmp_path / "feb.csv", "2024-02-06", ["1,A. Berg,Ann Berg,1-0"]),
        ],
        check=True,
        timeout=DEADLINE,
    )
    execute(database, "UPDATE club_entry SET member_id = 1 WHERE tournament_id = 2")
    done = cli(database, "ratings")
    assert_clean_refusal(
        (done.returncode, done.stdout, done.stderr),
        "links one member to two names of one tournament (tournament 2: member 1 is numbers 1, 2)",
    )
    assert "clubrating link TOURNAMENT NUMBER MEMBER" in done.stderr
    assert query(
        database, "SELECT count(*) FROM django_migrations WHERE app = 'club' AND name LIKE '0006%'"
    ) == [(0,)]


def test_the_database_refuses_one_member_under_two_names_of_one_tournament(club, publish):
    from django.db import IntegrityError, transaction

    from clubrating.club.store.models import Entry

    t = publish(
        "January",
        dt.date(2024, 1, 9),
        ["Anna Berg", "Bob Cole"],
        [(1, "Anna Berg", "Bob Cole", "1-0")],
    )
    anna = Entry.objects.get(tournament=t, number=1).member
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(tournament=t, number=2).update(member=anna)


@contextmanager
def at_most(seconds: int) -> Iterator[None]:
    """Stop an endless loop of this process (SIGALRM) instead of hanging the test suite."""

    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_a_cycle_of_merges_held_by_a_database_is_one_clear_error_not_an_endless_walk(club):
    from clubrating.club.store.models import Member
    from clubrating.club.read.members import resolve_members
    from clubrating.errors import Refused

    one, two, three = (
        Member.objects.create(club=club, name=name) for name in ("Ann", "Bea", "Cal")
    )
    Member.objects.filter(pk=one.pk).update(merged_into=two)
    Member.objects.filter(pk=two.pk).update(merged_into=three)
    Member.objects.filter(pk=three.pk).update(merged_into=one)  # never made by services.merge
    cycle = (
        f"the stored merges form a cycle (members {one.pk} -> {two.pk} -> {three.pk} -> {one.pk})"
    )
    with at_most(10):
        with pytest.raises(Refused) as walked:
            resolve_members(club)
        assert cycle in str(walked.value) and f"clubrating unmerge {one.pk}" in str(walked.value)
        one.refresh_from_db()
        with pytest.raises(Refused, match="form a cycle"):
            one.active()
