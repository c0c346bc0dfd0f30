"""A database migrated to an older state of the schema (Django's ``migrate club NNNN``, backwards,
or forwards from ``zero``) and forwards again, through processes of its own on a SQLite file or
a database of the PostgreSQL server of ``CLUBRATING_DATABASE_URL``. The club app's
``post_migrate`` receiver (the CPI ledger's re-scoring after an upgrade) reads the club's tables
as the newest models describe them, so it must leave an older schema alone."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .databases import own_database, query

pytestmark = pytest.mark.storage  # the processes open the databases of $CLUBRATING_DATABASE_URL

MIGRATIONS = Path(__file__).resolve().parents[2] / "src/clubrating/club/store/migrations"
DEADLINE = 180.0  # seconds a process may take on a busy 2-core machine
EVENING = "# date: 2024-01-09\nround,white,black,result\n1,Anna Berg,Bob Cole,1-0\n"

# Sets Django up on the database as a command does (its schema brought up to date first), then
# runs Django's migrate to each target in turn (an empty target: every app to its newest).
MIGRATE = """
import sys
from django.core.management import call_command
from clubrating import djangoenv
djangoenv.setup(sys.argv[1])
for target in sys.argv[2:]:
    call_command("migrate", *(["club", target] if target else []), verbosity=0)
"""


def the_club_s_migrations() -> list[str]:
    """The club app's migrations by their files' names, oldest first (not Django's loader)."""
    return sorted(p.stem for p in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))


def run(*words: str) -> subprocess.CompletedProcess[str]:
    paths = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return subprocess.run(
        [sys.executable, *words],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
    )


def migrate(database: str, *targets: str) -> None:
    done = run("-c", MIGRATE, database, *targets)
    assert done.returncode == 0, f"migrate {' then '.join(targets)}: {done.stderr}"


def cli(database: str, *words: str) -> str:
    done = run("-m", "clubrating", "--database", database, *words)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def applied(database: str) -> list[str]:
    rows = query(database, "SELECT name FROM django_migrations WHERE app = 'club' ORDER BY name")
    return [name for (name,) in rows]


def test_a_database_migrated_to_an_older_schema_and_forwards_again(tmp_path: Path) -> None:
    names = the_club_s_migrations()
    older = names[-2]
    csv = tmp_path / "jan.csv"
    csv.write_text(EVENING, encoding="utf-8")
    with own_database(tmp_path, "older") as database:
        cli(database, "init", "Riverside")
        cli(database, "import", str(csv), "--accept-exact")
        cli(database, "link", "1", "--all-new")
        cli(database, "publish", "1")
        # backwards to the migration before the newest, then to it again (nothing to apply:
        # Django still signals every app, on a schema older than the models)
        migrate(database, older, older)
        assert applied(database) == names[:-1]
        migrate(database, "")  # forwards: the newest schema, the club as it was
        assert applied(database) == names
        assert re.search(r"Anna Berg\s+1\d{3}", cli(database, "ratings"))
        # from nothing to the older schema, then to the newest
        migrate(database, "zero", older)
        assert applied(database) == names[:-1]
        migrate(database, "")
        assert applied(database) == names
        assert "created club" in cli(database, "init", "Hillside")
