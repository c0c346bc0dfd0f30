"""The club's verbs from the command line: import, link, publish, correct, rebuild, audit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clubrating.cli import main
from clubrating.club.store.models import RatingChange

CSV_EVENING = """# event: Tuesday evening
# date: 2026-03-03
round,white,black,result
1,Anna Berg,Ben Cole,1-0
1,Cara Dunn,Dan Eng,1/2-1/2
2,Ben Cole,Cara Dunn,0-1
2,Dan Eng,Anna Berg,0-1
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    path = tmp_path / "evening.csv"
    path.write_text(CSV_EVENING, encoding="utf-8")
    return path


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_an_arbiter_imports_links_publishes_and_corrects_from_the_terminal(capsys, evening):
    assert run(capsys, "init", "Riverside Chess Club")[0] == 0
    code, out, _ = run(capsys, "import", str(evening))
    assert code == 0 and "as a draft" in out and "4 names to confirm" in out
    code, out, _ = run(capsys, "link", "1", "--all-new")
    assert code == 0 and "made 4 new members" in out
    code, out, _ = run(capsys, "publish", "1")
    assert code == 0 and "rebuilt 1 tournament, 4 ratings changed" in out
    code, out, _ = run(capsys, "ratings", "--json")
    players = json.loads(out)["players"]
    assert [p["name"] for p in players][0] == "Anna Berg" and all(p["provisional"] for p in players)
    code, out, _ = run(capsys, "correct", "1", "1", "Anna Berg", "0-1", "--json")
    document = json.loads(out)
    assert document["rebuild"]["tournaments"] == 1 and document["rebuild"]["ratings_changed"] == 2
    code, out, _ = run(capsys, "rebuild")
    assert code == 0 and "matched the replay exactly" in out
    code, out, _ = run(capsys, "audit", "--json")
    assert [a["action"] for a in json.loads(out)["entries"]][:2] == ["rebuild", "correct-result"]
    code, out, _ = run(capsys, "tournament", "1")
    assert code == 0 and "Anna Berg" in out
    code, out, _ = run(capsys, "player", "Anna Berg", "--json")
    assert json.loads(out)["tournaments"][0]["games_rated"] == 2


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_second_evening_links_exact_names_in_one_go(capsys, evening, tmp_path):
    run(capsys, "init", "Riverside Chess Club")
    run(capsys, "import", str(evening))
    run(capsys, "link", "1", "--all-new")
    run(capsys, "publish", "1")
    second = tmp_path / "second.csv"
    second.write_text(
        CSV_EVENING.replace("2026-03-03", "2026-03-10").replace("Dan Eng", "D. Eng"),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "import", str(second), "--accept-exact")
    assert "linked 3 names" in out
    code, out, _ = run(capsys, "entries", "2", "--json")
    unlinked = [e for e in json.loads(out) if e["member_id"] is None]
    assert [e["name"] for e in unlinked] == ["D. Eng"]
    assert unlinked[0]["proposals"][0]["member"] == "Dan Eng"
    code, out, _ = run(capsys, "link", "2", str(unlinked[0]["number"]), "Dan Eng")
    assert code == 0 and out.splitlines()[-1] == "every name is linked: clubrating publish 2"
    run(capsys, "publish", "2")
    code, out, _ = run(capsys, "entries", "2")
    assert out.splitlines()[-1] == "every name is linked"  # published: nothing more to do


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_user_mistakes_are_one_line_errors(capsys, evening):
    code, _, err = run(capsys, "ratings")
    assert code == 2 and "clubrating init" in err
    run(capsys, "init", "Riverside Chess Club")
    run(capsys, "import", str(evening))
    code, _, err = run(capsys, "import", str(evening))
    assert (
        code == 2 and "imported already: tournament 1" in err and len(err.strip().splitlines()) == 1
    )
    code, _, err = run(capsys, "publish", "1")
    assert code == 2 and "not linked" in err
    code, _, err = run(capsys, "correct", "1", "1", "Anna Berg", "3-0")
    assert code == 2 and "unknown result" in err
    code, _, err = run(capsys, "merge", "1", "1")
    assert code == 2 and "no member" in err
    assert RatingChange.objects.count() == 0


def test_a_malformed_file_is_refused_with_file_and_line_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "round,white,black,result\n1,Anna Berg,Ben Cole,1-0\n1,Cara Dunn,Dan Eng,5-3\n",
        encoding="utf-8",
    )
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    command = [sys.executable, "-m", "clubrating", "--database", database]
    made = subprocess.run(command + ["init", "Riverside"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        command + ["import", str(bad), "--date", "2026-01-06"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"{bad}:3:" in done.stderr
    listed = subprocess.run(
        command + ["tournament", "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(listed.stdout) == []


@pytest.mark.parametrize(
    ("database", "expected"),
    [
        (
            "postgresql://nobody@127.0.0.1:9/none",
            "clubrating ratings: error: database: ",
        ),  # nothing listens on 9
        (
            "sqlite:////no/such/directory/club.sqlite3",  # the path and the reason
            "clubrating ratings: error: /no/such/directory/club.sqlite3: "
            "cannot open the database: no directory /no/such/directory",
        ),
        (
            "sqlite:////tmp",  # a directory: its path and that it is one
            "clubrating ratings: error: /tmp: cannot open the database: it is a directory",
        ),
        # a scheme the product has no database for: one line naming it, never the password
        ("foo://anna:secret@host/db", "clubrating ratings: error: the database URL's scheme "),
        ("mysql://anna:secret@host/db", "clubrating ratings: error: the database URL's scheme "),
        ("not a url", "clubrating ratings: error: the database URL's scheme "),
        ("postgres://", "clubrating ratings: error: the database URL names no database: "),
    ],
)
def test_a_database_that_cannot_be_reached_is_one_line_without_traceback(database, expected):
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", database, "ratings"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr
    assert "secret" not in done.stderr


def test_matching_against_a_database_without_a_club_says_so(tmp_path):
    database = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "clubrating", "--database", database, "match", "Smith, John"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and not (tmp_path / "empty.sqlite3").exists()
    assert done.stderr == (
        f"clubrating match: error: {tmp_path / 'empty.sqlite3'}: no "
        "database here: create one with clubrating init 'CLUB NAME', or "
        "choose one with --database URL or $CLUBRATING_DATABASE_URL\n"
    )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_demo_club_is_built_published_and_its_rebuild_matches(capsys):
    code, out, _ = run(capsys, "demo", "--seasons", "1", "--members", "16", "--json")
    summary = json.loads(out)
    assert (
        code == 0
        and summary["tournaments"] > 10
        and summary["merges"] == 1
        and summary["corrections"] == 1
    )
    code, out, _ = run(capsys, "ratings", "--club", "demo", "--json")
    assert len(json.loads(out)["players"]) == summary["members"]
    code, out, _ = run(capsys, "rebuild", "--club", "demo", "--json")
    assert code == 0 and json.loads(out)["matched"] is True
    code, _, err = run(capsys, "demo")
    assert code == 2 and "demo club already" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["audit", "--limit", "-5"], "argument --limit: -5 is out of range: expected at least 1"),
        (
            ["demo", "--members", "3"],
            "argument --members: 3 is out of range: expected from 8 to 5000",
        ),
        (
            ["serve", "--port", "70000"],
            "argument --port: 70000 is out of range: expected from 1 to 65535",
        ),
        (["serve", "--workers", "x"], "argument --workers: 'x' is not a whole number"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err
