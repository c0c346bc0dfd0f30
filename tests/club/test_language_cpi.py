"""``clubrating cpi`` and ``coach`` tell a member's CPI and exercises in the arbiter's language
(LANG), their tables aligned as a terminal shows them, and their JSON the same bytes in every
language."""

from __future__ import annotations

import pytest

from clubrating.cli import main
from clubrating.club.store.models import Club
from clubrating.words import display_width
from tests.cpi.coach_games import publish_analysed


def in_language(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", language)


def test_the_coach_speaks_russian(
    club: Club, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    publish_analysed(club, 2)
    in_language(monkeypatch, "ru_RU.UTF-8")
    assert main(["coach", "Anna Berg", "--solutions", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        "  самый слабый фактор: H, зевки (ходы, стоившие 15 и более пунктов шансов на победу): "
        "1.00 за партию (в клубе 0.50 за партию), стоит "
    ) in out
    assert "   Найдите лучший ход за белых. Подсказка: " in out
    assert "   Решение: " in out and "; сыграно " in out
    assert "weakest" not in out and "Hint" not in out and "Solution" not in out


def test_the_ledger_speaks_armenian_and_russian_and_its_columns_stay_aligned(
    club: Club, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    publish_analysed(club, 2)
    in_language(monkeypatch, "hy_AM.UTF-8")
    assert main(["cpi", "Anna Berg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert " CPI " in lines[0] and "2 հաշվված խաղերից հետո" in lines[0], lines[0]
    assert "  գործոնները այս 2 խաղերում՝" in lines
    heading = next(i for i, line in enumerate(lines) if line.startswith("ամսաթիվ"))
    assert lines[heading].split() == [
        "ամսաթիվ",
        "մրցակից",
        "գույն",
        "արդյունք",
        "առաջ",
        "ΔCPI",
        "հետո",
    ]
    games = [
        lines[heading + 1],
        lines[heading + 4],
    ]  # each game: its line, its factors, their parts
    assert lines[heading + 3].startswith("    ΔCPI-ի բաղադրիչները՝ ")
    assert {display_width(line) for line in [lines[heading], *games]} == {
        display_width(lines[heading])
    }
    assert all(" սպիտակներ " in line for line in games)
    in_language(monkeypatch, "ru_RU.UTF-8")
    assert main(["cpi", "Anna Berg"]) == 0
    out = capsys.readouterr().out
    assert "чем меньше, тем лучше" in out and "после 2 учтённых партий" in out
    assert "fewer is better" not in out and "scored games" not in out


@pytest.mark.parametrize(
    "command",
    [["cpi", "Anna Berg", "--json"], ["coach", "Anna Berg", "--json", "--solutions"]],
    ids=["cpi", "coach"],
)
def test_the_json_of_cpi_and_coach_is_the_same_bytes_in_every_language(
    club: Club,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    publish_analysed(club, 2)
    documents = []
    for language in ("C", "ru_RU.UTF-8", "hy_AM.UTF-8"):
        in_language(monkeypatch, language)
        assert main(command) == 0
        documents.append(capsys.readouterr().out)
    assert (
        documents[0].startswith("{")
        and documents[1] == documents[0]
        and documents[2] == documents[0]
    )


def test_fair_play_speaks_russian_in_aligned_columns(
    club: Club, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from clubrating.club.services.cpi_weights import set_cpi_weights
    from tests.club.test_cpi_fit import FITTED, uneven_game

    set_cpi_weights(
        club, {k: float(v) for k, v in FITTED.items()}, who="test:arbiter", preset="spec"
    )
    publish_analysed(club, 10, facts=uneven_game)
    in_language(monkeypatch, "ru_RU.UTF-8")
    assert main(["fairplay"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Качество игры в последних 10 проанализированных партиях ")
    assert lines[2].split() == [
        "член",
        "клуба",
        "рейтинг",
        "партии",
        "ΔCPI",
        "ожидается",
        "z",
        "B1",
        "точн.",
    ]
    assert lines[3].startswith("Ben Cole ") and lines[3].endswith("  <- присмотреться")
    rows = [line.removesuffix("  <- присмотреться") for line in lines[3:]]
    assert {len(row) for row in rows} == {len(lines[2])}, lines


def test_every_rating_pool_has_its_name_in_armenian_and_russian() -> None:
    """A new preset's pool needs its translations: the dashboard and ``cpi`` say its name."""
    from django.utils import translation

    from clubrating.cpi.index import PRESET_POOLS

    for language in ("hy", "ru"):
        with translation.override(language):
            untranslated = [
                name for name in PRESET_POOLS.values() if translation.gettext(name) == name
            ]
        assert untranslated == [], language
