"""Control characters refused on every way in (a form, the players' phone page, a query
string, the command line) and escaped on the way out of the CLI, so that a name stored with an
ESC sequence before they were refused clears no terminal; an archive's are dropped."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.test import Client

from clubrating.cli import main
from clubrating.club.store.models import Entry, Member, MovesSubmission, Tournament
from clubrating.club.services import moves_links as ml
from clubrating.club.services.archive import read_lines

from .conftest import WHO

HOSTILE_NAME = "Ev\x1b[2J\x1b]0;pwned\x07il"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_name_stored_with_an_escape_sequence_is_printed_escaped_and_its_json_keeps_it(
    evening: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    Entry.objects.filter(tournament=evening, name="Anna Smith").update(
        name=HOSTILE_NAME
    )  # stored before the fix
    code, out, _ = run(capsys, "entries", str(evening.id))
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "Ev\\u001b[2J\\u001b]0;pwned\\u0007il" in out
    code, out, _ = run(capsys, "entries", str(evening.id), "--json")
    assert HOSTILE_NAME in [entry["name"] for entry in json.loads(out)]


@pytest.mark.parametrize("word", ["A\x1bB", "A\x00B", "A\nB", "A\x9bB", "A\udcffB"])
def test_a_word_of_the_command_line_with_a_control_character_is_one_line_and_stores_nothing(
    evening: Tournament, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    anna = Member.objects.get(club=evening.club, name="Anna Smith")
    code, out, err = run(capsys, "member", str(anna.id), "--name", word)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "has a control character U+" in err and "\x1b" not in err and "\x00" not in err
    assert Member.objects.get(pk=anna.pk).name == "Anna Smith"


def test_moves_typed_on_the_command_line_may_run_over_lines_but_hold_no_other_control(
    evening: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys,
        "moves",
        str(evening.id),
        "--round",
        "1",
        "--player",
        "Carl Berg",
        "--typed",
        "1. e4 e5\n2. Nf3\x1b Nc6",
    )
    assert code == 2 and "word 8 of the command line" in err and "U+001B" in err


def test_a_form_value_with_an_escape_is_refused_400_naming_the_field(
    club: object, arbiter_client: Client
) -> None:
    r = arbiter_client.post(
        "/c/riverside/arbiter/upload/",
        {"rows": "1, Anna Smith, Bob Jones, 1-0\n", "name": "Night\x1b[2J", "date": "2024-03-05"},
    )
    assert (
        r.status_code == 400
        and "field name holds a control character (U+001B)" in r.content.decode()
    )
    assert not Tournament.objects.exists()


def test_a_textarea_keeps_its_tabs_and_line_ends(club: object, arbiter_client: Client) -> None:
    r = arbiter_client.post(
        "/c/riverside/arbiter/upload/",
        {"rows": "1\tAnna Smith\tBob Jones\t1-0\r\n", "name": "Night", "date": "2024-03-05"},
    )
    assert r.status_code in (200, 302) and Tournament.objects.get().name == "Night"


def test_the_players_phone_refuses_moves_with_a_nul_and_an_escape_and_stores_nothing(
    evening: Tournament, arbiter_client: Client
) -> None:
    links = ml.issue_links(evening, 1, who=WHO)
    client = Client(enforce_csrf_checks=True)
    client.get(f"/m/{links[0].token}/")
    r = client.post(
        f"/m/{links[0].token}/",
        {
            "moves": "1. e4 {\x00\x1b[2J} e5",
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert r.status_code == 400 and "control character (U+0000)" in r.content.decode()
    assert not MovesSubmission.objects.exists()


def test_a_query_string_with_a_control_character_is_refused(club: object) -> None:
    r = Client().get("/", {"q": "Anna\x1b[2J"})
    assert r.status_code == 400


def test_an_archives_control_characters_are_dropped_and_its_layout_kept(tmp_path: Path) -> None:
    archive = tmp_path / "club.jsonl.gz"
    with gzip.open(archive, "wt", encoding="utf-8") as handle:
        handle.write(
            json.dumps(
                {
                    "table": "club.member",
                    "name": HOSTILE_NAME,
                    "notes": ["a\tb\nc\x00"],
                    "k\x1b": {"x": "\x9b"},
                }
            )
            + "\n"
        )
    [(line, document)] = list(read_lines(archive))
    assert line == 1 and document == {
        "table": "club.member",
        "name": "Ev[2J]0;pwnedil",
        "notes": ["a\tb\nc"],
        "k": {"x": ""},
    }


def test_export_club_never_replaces_an_existing_file(
    evening: Tournament, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # found by the hostile-input suite: a path-like FILE such as /etc/hostname or /dev/full was
    # replaced by the archive (a temporary file renamed over it), as root a device node too
    kept = tmp_path / "hostname"
    kept.write_text("vm\n")
    code, out, err = run(capsys, "export-club", str(kept))
    assert (
        code == 2
        and out == ""
        and err.strip().endswith(f"{kept} exists already: choose another file name")
    )
    assert kept.read_text() == "vm\n" and sorted(p.name for p in tmp_path.iterdir()) == ["hostname"]
    code, out, _ = run(capsys, "export-club", str(tmp_path / "new.jsonl.gz"))
    assert code == 0 and (tmp_path / "new.jsonl.gz").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostname", "new.jsonl.gz"]
