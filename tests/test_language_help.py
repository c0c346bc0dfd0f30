"""``clubrating --help`` and argparse's own words (``usage:``, its parsing errors) in the language
of the environment: every help text of every parser translated, argparse's msgids still
argparse's, and under the C locale the help exactly as argparse alone prints it."""

from __future__ import annotations

import argparse
import gettext
import inspect
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clubrating import cli
from clubrating.commands import argparse_words

ROOT = Path(__file__).resolve().parents[1]


def clubrating(language: str, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    environ.update(LANG=language, COLUMNS="100", PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "clubrating", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


def words(text: str) -> str:
    """``text`` with argparse's line breaks undone, to find a help text it wrapped."""
    return " ".join(text.split())


def parsers_of(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and each of its verbs' parsers, in a fixed order."""
    yield parser
    for action in parser._actions:  # argparse keeps no public list of its verbs
        if isinstance(action, argparse._SubParsersAction):
            for verb_parser in dict.fromkeys(action.choices.values()):
                yield from parsers_of(verb_parser)


def texts_of(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every text a person reads in the help of ``parser`` and its verbs': descriptions, epilogs,
    the headings of the groups, each option's and each verb's help."""
    for each in parsers_of(parser):
        yield from (each.description or "", each.epilog or "")
        yield from (group.title or "" for group in each._action_groups)
        for action in each._actions:
            if action.help is not argparse.SUPPRESS:
                yield action.help or ""
            if isinstance(action, argparse._SubParsersAction):
                yield from (verb.help or "" for verb in action._choices_actions)


def built_in(language: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("LANG", language)
    return list(texts_of(cli.build_parser()))


def test_every_help_text_of_every_parser_is_translated_into_armenian_and_russian(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    english = built_in("C.UTF-8", monkeypatch)
    assert (
        "show this help message and exit" in english
        and "rate one tournament file (no database)" in english
    )
    helpless = [
        f"{each.prog} {action.dest}"
        for each in parsers_of(cli.build_parser())
        for action in each._actions
        if action.help is None and not isinstance(action, argparse._SubParsersAction)
    ]
    assert not helpless, f"an argument without help=: {helpless}"
    for language in ("hy_AM.UTF-8", "ru_RU.UTF-8"):
        translated = built_in(language, monkeypatch)
        assert len(translated) == len(english)
        untranslated = {text for text, said in zip(english, translated) if text and said == text}
        assert not untranslated, (
            f"{language}: no translation (scripts/messages, then the .po files): {untranslated}"
        )


def test_the_argparse_texts_of_the_catalogue_are_the_ones_argparse_says() -> None:
    source = inspect.getsource(argparse)
    for text in (
        *argparse_words.MESSAGES,
        *(form for pair in argparse_words.COUNTED for form in pair),
        argparse_words.VERSION_HELP,
    ):
        assert repr(text)[1:-1] in source or text in source, f"argparse no longer says {text!r}"


def test_every_argparse_text_of_the_catalogue_is_translated() -> None:
    for code in ("hy", "ru"):
        catalogue = gettext.translation(
            "django", ROOT / "src" / "clubrating" / "locale", languages=[code]
        )
        for text in (*argparse_words.MESSAGES, argparse_words.VERSION_HELP):
            assert catalogue.gettext(text) != text, (code, text)
        singular, many = argparse_words.COUNTED[0]
        assert catalogue.ngettext(singular, many, 2) not in (singular, many), code


@pytest.mark.parametrize(
    ("language", "expected", "rate_expected"),
    [
        (
            "ru_RU.UTF-8",
            [
                "использование: clubrating",
                "позиционные аргументы:",
                "параметры:",
                "-h, --help показать эту справку и выйти",
                "--version показать версию программы и выйти",
                "rate обсчитать один файл турнира (без базы данных)",
                "--json вывести один документ JSON в стандартный вывод",
                "Пример: clubrating rate evening.trf --prior ratings.csv --json",
            ],
            [
                "использование: clubrating rate",
                "Изменение рейтинга каждого игрока одного файла турнира",
                "FILE файл турнира (TRF, PGN или CSV)",
                "--policy {club,fide} правила рейтинга: клубные (по умолчанию) или ФИДЕ",
                "Пример: clubrating rate evening.trf",
            ],
        ),
        (
            "hy_AM.UTF-8",
            [
                "օգտագործում՝ clubrating",
                "դիրքային արգումենտներ:",
                "պարամետրեր:",
                "-h, --help ցույց տալ այս օգնությունը և դուրս գալ",
                "rate գնահատել մրցաշարի մեկ ֆայլ (առանց տվյալների բազայի)",
                "Օրինակ՝ clubrating rate evening.trf --prior ratings.csv --json",
            ],
            [
                "օգտագործում՝ clubrating rate",
                "FILE մրցաշարի ֆայլը (TRF, PGN կամ CSV)",
                "--policy {club,fide} վարկանիշի կանոնները՝ ակումբինը (լռելյայն) կամ FIDE-ինը",
            ],
        ),
    ],
)
def test_the_help_of_the_command_and_of_a_verb_is_in_the_language_of_the_environment(
    language: str, expected: list[str], rate_expected: list[str]
) -> None:
    for args, wanted in ((["--help"], expected), (["rate", "--help"], rate_expected)):
        run = clubrating(language, *args)
        assert (run.returncode, run.stderr) == (0, ""), run.stderr
        said = words(run.stdout)
        assert said.startswith(wanted[0]), run.stdout
        missing = [text for text in wanted if text not in said]
        assert not missing, run.stdout
        for english in (
            "usage:",
            "options:",
            "positional arguments",
            "show this help",
            "Example:",
            "the tournament",
        ):
            assert english not in said, (english, run.stdout)


def test_a_missing_argument_is_one_translated_line_after_the_usage() -> None:
    run = clubrating("ru_RU.UTF-8", "rate")
    assert (run.returncode, run.stdout) == (2, ""), run.stderr
    lines = run.stderr.splitlines()
    assert lines[0].startswith("использование: clubrating rate"), run.stderr
    assert lines[-1] == "clubrating rate: ошибка: обязательны аргументы: FILE"
    assert [line for line in lines if "ошибка" in line] == lines[-1:]
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["rate", "x.trf", "--policy", "elo"],
            "clubrating rate: ошибка: аргумент --policy: недопустимое "
            "значение: 'elo' (выберите одно из: 'club', 'fide')",
        ),
        (
            ["rate", "x.trf", "--prior"],
            "clubrating rate: ошибка: аргумент --prior: ожидается один аргумент",
        ),
        (
            ["correct", "12", "x", "1", "1-0"],
            "clubrating correct: ошибка: аргумент round: 'x' — не целое число",
        ),
        (["ratings", "--colour"], "clubrating: ошибка: нераспознанные аргументы: --colour"),
    ],
)
def test_a_mistake_on_the_command_line_is_one_translated_line_after_the_usage(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    with pytest.raises(SystemExit) as exit:
        cli.main(args)
    said = capsys.readouterr()
    assert (exit.value.code, said.out) == (2, "")
    lines = said.err.splitlines()
    assert lines[0].startswith("использование: clubrating"), said.err
    assert lines[-1] == error
    assert [line for line in lines if "ошибка" in line] == [error]


def test_under_the_c_locale_the_help_is_exactly_what_argparse_alone_prints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = clubrating("C.UTF-8", "--help")
    assert run.returncode == 0, run.stderr
    # the same parser with argparse's own gettext, never pointed at our catalogue
    monkeypatch.setattr(cli, "speak_the_command_language", lambda: None)
    monkeypatch.setattr(argparse, "_", gettext.gettext)
    monkeypatch.setattr(argparse, "ngettext", gettext.ngettext)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("COLUMNS", "100")
    assert run.stdout == cli.build_parser().format_help()
    assert run.stdout.startswith("usage: clubrating [-h]") and "\noptions:\n" in run.stdout
