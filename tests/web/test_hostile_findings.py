"""What the hostile-input suite (test_hostile_cli.py, test_hostile_web.py) found, each pinned by
the input that showed it: without these, a derandomized CI run could draw other examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from django.test import Client

from clubrating.cli import main
from clubrating.club.jobs.analysis import analysis_config, default_jobs
from clubrating.club.services import keizer
from clubrating.errors import InputError
from clubrating.club.store.models import Club, Member, Tournament


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse's usage errors
        code = int(exit.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("interval", ["nan", "inf", "-1", "0", "1e308", "1 second"])
def test_a_worker_told_to_wait_nan_inf_or_negative_seconds_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], interval: str
) -> None:
    # found: --interval was any float, so inf or nan hung the worker and -1 killed it
    code, err = run(capsys, "worker", "--once", "--interval", interval)
    assert code == 2 and err.splitlines()[-1].startswith(
        "clubrating worker: error: argument --interval:"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["worker", "--once", "--jobs", "99999999999999999999"],
        ["worker", "--once", "--nodes", "-1"],
        ["analyse-club", "--jobs", "100000"],
        ["analyse-club", "--nodes", "99999999999"],
    ],
)
def test_engine_options_beyond_any_machine_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, err = run(capsys, *argv)
    assert code == 2 and "is out of range: expected from 1 to" in err.splitlines()[-1]


def test_analyze_with_more_engine_processes_than_any_machine_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = tmp_path / "g.pgn"
    games.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    code, err = run(capsys, "analyze", str(games), "--jobs", "99999999999999999999")
    assert code == 2 and err.splitlines() == [
        "clubrating analyze: error: --nodes must be at most 10,000,000 and --jobs at most 64"
    ]


def test_cpi_weights_loading_json_nested_past_the_stack_is_one_line(
    club: Club, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # found: json.load raised RecursionError, a traceback
    deep = tmp_path / "deep.json"
    deep.write_text('{"settings": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, err = run(capsys, "cpi-weights", "--load", str(deep))
    assert code == 2 and err.splitlines() == [
        f"clubrating cpi-weights: error: {deep}: not JSON (nested too deep)"
    ]
    assert Club.objects.get(pk=club.pk).cpi_weights == {"preset": "spec"}
    assert Tournament.objects.count() == 0


def test_a_member_looked_up_by_a_name_longer_than_any_is_a_message_not_a_500(
    evening: Tournament, arbiter_client: Client
) -> None:
    # found: SQLite's "LIKE or GLOB pattern too complex" on 70,000 characters, a 500 on the
    # members page and a database error on the command line
    anna = Member.objects.get(club=evening.club, name="Anna Smith")
    r = arbiter_client.post(
        "/c/riverside/arbiter/members/rename/", {"member": "A" * 70_000, "name": "Ann"}, follow=True
    )
    assert r.status_code == 200 and "a name of 70000 characters: at most 200" in r.content.decode()
    assert Member.objects.get(pk=anna.pk).name == "Anna Smith"


def test_an_evening_page_with_a_number_past_sqlites_integers_is_a_404(
    evening: Tournament, arbiter_client: Client
) -> None:
    # found: OverflowError ("Python int too large to convert to SQLite INTEGER"), a 500
    for page in ("", "round/"):
        r = arbiter_client.get(f"/c/riverside/arbiter/evening/9223372036854775808/{page}")
        assert r.status_code == 404


# Numbers that str.isdigit() takes and int() refuses: '²' (a digit, not a decimal one), and
# thousands of ASCII digits (Python's "Exceeds the limit (4300 digits)"). Each was a ValueError,
# a 500; formats/bounds.whole_number reads both as no number.
SUPERSCRIPT, THOUSANDS = "²", "9" * 5000
PGN = '[White "Anna Smith"]\n[Black "Bob Jones"]\n[Result "1-0"]\n[Round "1"]\n\n1. e4 1-0\n'


@pytest.mark.parametrize(
    "page, status",
    [
        ("p/{anna}/?vs=" + SUPERSCRIPT, 200),
        ("p/{anna}/?vs=" + THOUSANDS, 200),
        ("t/{t}/print/pairings/?round=" + SUPERSCRIPT, 404),
        ("t/{t}/print/names/?round=" + THOUSANDS, 404),
    ],
)
def test_a_public_page_given_a_number_int_refuses_is_not_a_500(
    evening: Tournament, page: str, status: int
) -> None:
    anna = Member.objects.get(club=evening.club, name="Anna Smith")
    path = "/c/riverside/" + page.replace("{anna}", str(anna.id)).replace("{t}", str(evening.id))
    assert Client().get(path).status_code == status


@pytest.mark.parametrize(
    "url, form",
    [
        ("arbiter/audit/?page=" + THOUSANDS, None),
        ("arbiter/audit/?page=" + SUPERSCRIPT, None),
        ("arbiter/t/{t}/slips/", {"action": "print", "round": THOUSANDS}),
        ("arbiter/t/{t}/slips/", {"action": "print", "round": SUPERSCRIPT}),
        ("arbiter/t/{t}/moves/", {"pgn": PGN, "accept": THOUSANDS}),
        ("arbiter/t/{t}/moves/", {"pgn": PGN, f"result-{SUPERSCRIPT}": "correct"}),
        ("arbiter/t/{t}/moves/", {"pgn": PGN, f"result-{THOUSANDS}": "drop"}),
        (
            "arbiter/evening/",
            {
                "name": "K",
                "date": "2024-05-05",
                "rounds": "5",
                "system": "keizer",
                "keizer-top": "²",
            },
        ),
    ],
)
def test_an_arbiters_form_given_a_number_int_refuses_is_a_message_not_a_500(
    evening: Tournament, arbiter_client: Client, url: str, form: dict[str, str] | None
) -> None:
    before = Tournament.objects.count()
    path = "/c/riverside/" + url.replace("{t}", str(evening.id))
    r = arbiter_client.get(path) if form is None else arbiter_client.post(path, form, follow=True)
    assert r.status_code in (200, 400)
    assert Tournament.objects.count() == before  # the Keizer season with top=² is not made


def test_an_initial_list_row_given_a_superscript_number_is_one_line(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(capsys, "link", "initial", SUPERSCRIPT, "Anna Smith")
    assert code == 2 and err.splitlines() == [
        "clubrating link: error: the initial list has no row ²"
    ]


def test_a_players_start_number_given_as_a_superscript_is_one_line(
    evening: Tournament, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(capsys, "link", str(evening.id), SUPERSCRIPT, "Anna Smith")
    assert code == 2 and err.splitlines() == [
        f"clubrating link: error: tournament {evening.id} has no player number ²"
    ]
    assert run(capsys, "evening", "start", "Night", "--date", "2024-05-05", "--rounds", "3")[0] == 0
    night = Tournament.objects.get(name="Night")
    assert run(capsys, "evening", "register", str(night.id), "Ada Quinn", "Bea Roth")[0] == 0
    code, err = run(capsys, "evening", "exchange", str(night.id), SUPERSCRIPT, "1")
    assert code == 2 and err.splitlines() == [
        f"clubrating evening: error: no player number ² in tournament {night.id}"
    ]


@pytest.mark.parametrize("name", ["CLUBRATING_NODES", "CLUBRATING_JOBS"])
@pytest.mark.parametrize("value", [SUPERSCRIPT, THOUSANDS, "-1", "1e3"])
def test_an_engine_setting_of_the_environment_that_is_no_number_is_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    # found: '²' passed str.isdigit() and int() raised ValueError, a traceback at a worker's start
    monkeypatch.setenv(name, value)
    with pytest.raises(InputError, match=f"^{name} must be a whole number, not "):
        analysis_config() if name == "CLUBRATING_NODES" else default_jobs()


@pytest.mark.parametrize("text", ["1e5000", "-1e-5000", "1_0/3", "²/3"])
def test_a_keizer_fraction_in_exponent_form_is_refused_before_it_is_computed(
    db: None, text: str
) -> None:
    # found: Fraction("1e99999999") computes ten to that power: minutes of CPU for one form
    with pytest.raises(InputError) as caught:
        keizer.parse_settings({"bye": text})
    assert str(caught.value) == f"bye={text}: expected a fraction such as 1/3"


@pytest.mark.parametrize("text, value", [("1/3", "1/3"), ("0.5", "1/2"), (" 2/3 ", "2/3")])
def test_a_keizer_fraction_as_people_write_it_is_read(db: None, text: str, value: str) -> None:
    assert keizer.parse_settings({"bye": text})["rules"]["bye"] == value
