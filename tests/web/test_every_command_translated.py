"""Every command of the command line in Armenian and in Russian, crawled: no English text left in
what it prints for a person (not ``--json``, whose keys and values stay English by the stable
contract of docs/cli.md).

The club is the page crawl's (tests/web/test_every_page_translated.py: a published evening with
analysed games, a Swiss evening with moves links, drafts with names to confirm, a merge taken back,
audit entries of many kinds), with an initial list besides. Each verb of the parser is run here, or
excused with a reason, and a new verb fails the crawl until it is one or the other. The commands
run in this process (``cli.main``) under ``LANG=hy_AM.UTF-8`` or ``ru_RU.UTF-8``, as an arbiter's
terminal sets it; their stdout and stderr are read with the page crawl's check: the English words
of the catalogue's msgids, names, figures, moves and the command line's own syntax aside."""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import translation

from clubrating.cli import build_parser, main
from clubrating.club.store.models import Club, Member, MovesLink, Tournament

from .test_every_page_translated import Site, english_words, site  # noqa: F401  (the club)
from .test_translated_pages import catalogue  # noqa: F401  (the fixture: the .po files compiled)
from clubrating.club.services.clubs import set_privacy

LOCALES = {"hy": "hy_AM.UTF-8", "ru": "ru_RU.UTF-8"}
PASSWORD = "long secret phrase for alice\n"
NO_CLUB = ("rate",)  # the verb that reads no club's database

# The verbs not run here, each with the reason and where its words are checked instead.
EXCUSED = {
    "serve": "runs until stopped: its start-up line is read in tests/test_language_commands",
    "worker": "runs until stopped (or --once an engine analysis): tests/test_language_commands",
    "demo": "builds a club of seasons with the engine, minutes: tests/test_language_commands",
    "calibrate": "needs 13 rated games analysed by the engine: tests/cpi/test_calibrate.py",
    "analyze": "the engine's run: tests/test_language_commands.py reads its text in hy and ru",
    "analyse-club": "the engine's run: tests/test_language_commands.py reads its text in hy and ru",
    "analyse": "the old name of analyse-club",
    "backup": "copies the database file; the test database is in memory: tests/club/test_backup.py",
    "restore": "into an empty database only: tests/club/test_backup.py",
    "import-club": "into an empty database only: tests/club/test_archive.py",
    "init": "creates a database: the crawl's is the test database, made by the fixture",
}

RATINGS = "Անուն;Վարկանիշ;Խաղեր\nAnna Smith;1650;40\nZora Kalnins;1500;10\n"
TRF = """012 Monday Blitz
042 2024/05/06
001    1      Ana Smith                         1600                             1.0    1     2 w 1
001    2      Bob Jones                         1500                             0.0    2     1 b 0
"""
CSV_NIGHT = (
    "round,white,black,result,notes\n1,Ana Smith,Bob Jones,1-0,\n"  # a column not read: a warning
)


CUP = "@tournament: Club Cup"  # made by the crawl: its number is looked up when its turn comes
LINK = "@link: the first of Club Cup"


def looked_up(word: str) -> str:
    """A word of a command, the number of what the crawl made before it put in."""
    if word == CUP:
        return str(Tournament.objects.get(name="Club Cup").id)
    if word == LINK:
        return str(MovesLink.objects.filter(tournament__name="Club Cup").order_by("id")[0].id)
    return word


# English a command prints that the crawl knows of and leaves, each with its reason: what the
# arbiter types, named as the command line takes it (the page crawl's KNOWN says the same).
TYPED = "what an arbiter types, named as the command line and the file formats take it"
KNOWN = [
    ("settings", re.compile(r"\b(club|fide|en|hy|ru)\b"), TYPED),  # policy=club, language=hy
    ("cpi-weights", re.compile(r"\b(spec)\b"), TYPED),  # the CPI preset, as --preset takes it
    ("fairplay", re.compile(r"'spec'"), TYPED),
]


def known(verb: str, line: str) -> str:
    """The line with the words KNOWN leaves on this verb's lines taken out."""
    for on, words, _why in KNOWN:
        if verb == on:
            line = words.sub(" ", line)
    return line


@dataclass(frozen=True)
class Command:
    words: tuple[str, ...]
    stdin: str = ""


def ids(club: Club) -> dict[str, str]:
    """The numbers the commands name: tournaments and members of the crawl's club."""
    tournaments = {t.name: str(t.id) for t in Tournament.objects.filter(club=club)}
    members = {m.name: str(m.id) for m in Member.objects.filter(club=club)}
    return {**tournaments, **members}


def commands(club: Club, folder: Path) -> list[Command]:
    """Every verb of the command line as an arbiter runs it on the crawl's club, in an order in
    which each one has what it needs: reads first, then the writes, each saying what it did."""
    n = ids(club)
    (folder / "ratings.csv").write_text(RATINGS, encoding="utf-8")
    (folder / "night.csv").write_text(CSV_NIGHT, encoding="utf-8")
    (folder / "members.txt").write_text("Anna Smith\nBob Jones\n", encoding="utf-8")
    swiss, robin, draft = n["Thursday Swiss"], n["Friday Round Robin"], n["Saturday Blitz"]
    published, sunday = n["Tuesday Rapid"], n["Sunday Open"]
    rob, bob = n["Robert Jones"], n["Bob Jones"]
    line = [
        ("ratings",),
        ("ratings", "--list", "rapid"),
        ("monthly", "list"),
        ("monthly", "show", "2024-04"),
        ("player", "Anna Smith"),
        ("tournament",),
        ("tournament", published),
        ("tournament", swiss),
        ("entries", draft),
        ("duplicates",),
        ("audit",),
        ("privacy",),
        ("settings",),
        ("status",),
        ("arbiter", "list"),
        ("moves-links", swiss),
        ("evening", "show", swiss),
        ("evening", "show", robin),
        ("cpi", "Anna Berg"),
        ("coach", "Anna Berg"),
        ("fairplay",),
        ("cpi-weights",),
        ("match", "Ana Smit", "Robert Jons"),
        ("match", "Ana Smit", "--roster", str(folder / "members.txt")),
        ("rate", str(folder / "night.csv")),
        ("seed-ratings", str(folder / "ratings.csv"), "--accept-exact"),
        ("entries", "initial"),
        ("import", str(folder / "night.csv"), "--name", "Monday Blitz", "--date", "2024-05-06"),
        ("link", draft, "--exact"),
        ("link", draft, "--all-new"),
        ("publish", draft),
        ("correct", draft, "1", "Carl Berg", "1/2-1/2"),
        ("redate", draft, "2024-02-04"),
        ("unpublish", draft),
        ("delete", draft),
        ("member", bob),
        ("member", bob, "--junior", "yes", "--consent", "no"),
        ("member", rob, "--name", "Robert B. Jones"),
        ("distinct", rob, bob),
        ("distinct", rob, bob, "--undo"),
        ("merge", rob, bob),
        ("unmerge", rob),
        ("rebuild",),
        ("monthly", "publish", "2024-03"),
        ("privacy", "--visibility", "unlisted", "--names", "initials"),
        ("settings", "time-zone=Asia/Yerevan", "inactive-months=24"),
        ("cpi-weights", "--preset", "fide-classical"),
        ("moves-links", swiss, "--make", "1"),
        ("moves", published, "--round", "2", "--player", "2", "--typed", "1. e4 e5 2. Nf3"),
        ("evening", "result", swiss, "2", "0-1"),
        ("evening", "start", "Club Cup", "--date", "2026-11-26", "--rounds", "3"),
        ("evening", "register", CUP, "Ada Quinn", "Bea Roth", "Cy Stone", "Anna Smith"),
        ("link", CUP, "--all-new"),
        ("evening", "pair", CUP),
        ("evening", "colours", CUP, "1"),
        ("evening", "exchange", CUP, "1", "3"),
        ("evening", "repair", CUP),
        ("evening", "result", CUP, "1", "1-0"),
        ("evening", "show", CUP),
        ("moves-links", CUP, "--make", "1"),
        ("moves-links", CUP, "--revoke", LINK),
        ("evening", "publish", robin),
        ("link", sunday, "--exact"),
        ("export-club", str(folder / "club.jsonl.gz")),
    ]
    done = [Command(words) for words in line]
    done.append(Command(("arbiter", "add", "alice", "--password-stdin"), PASSWORD))
    done.append(Command(("arbiter", "remove", "alice")))
    # a user's mistakes: the one line of each
    done += [
        Command(("tournament", "99999")),
        Command(("player", "Nobody At All")),
        Command(("seed-ratings", str(folder / "missing.csv"))),
        Command(("evening", "result", swiss, "1", "2-0")),
        Command(("settings", "k-new=abc")),
        Command(("monthly", "publish", "2024-04")),
        Command(("monthly", "show", "2023-01")),
        Command(("link", swiss, "99", "Nobody")),
    ]
    return done


def verbs() -> set[str]:
    parser = build_parser()
    found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(found.choices)


def run(words: tuple[str, ...], stdin: str, language: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``clubrating --club riverside WORDS`` prints, stdout and stderr, in ``language``."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", LOCALES[language])
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    try:
        # a command's process activates its language once, when Django starts (djangoenv.setup)
        with translation.override(language):
            main([words[0], *(() if words[0] in NO_CLUB else ("--club", "riverside")), *words[1:]])
    finally:
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        monkeypatch.setattr(sys, "stderr", sys.__stderr__)
    return out.getvalue() + err.getvalue()


def terminal_words(text: str, names: list[str], language: str) -> list[str]:
    """The catalogue's English words in a line a command printed, the command line's syntax aside:
    options (``--club``), settings' names (``k-new-games``) and the placeholders of a command to
    type (``NAME``). A word before a colon is read too ("link: /c/x/")."""
    text = re.sub(r"(\w):(?=\s|$)", r"\1 ", text)
    text = re.sub(
        r"(?<![\w-])(--?[a-z][a-z-]*|[a-z]+(-[a-z]+)+|[A-Z]{2,}(_[A-Z]+)*)(?![\w-])", " ", text
    )
    return english_words(text, names, language)


def crawl(site: Site, language: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    club = Club.objects.get(slug="riverside")
    set_privacy(club, who="test:arbiter", visibility="public")
    names = [
        *site.names,
        "Monday Blitz",
        "Club Cup",
        "Zora Kalnins",
        "Robert B. Jones",
        "alice",
        "Nobody At All",
        "Ada Quinn",
        "Bea Roth",
        "Cy Stone",
    ]
    names = sorted(set(names), key=len, reverse=True)
    found: list[str] = []
    for command in commands(club, folder):
        typed = tuple(looked_up(word) for word in command.words)
        printed = run(typed, command.stdin, language, monkeypatch)
        for line in printed.splitlines():
            if english := terminal_words(known(typed[0], line), names, language):
                found.append(f"{' '.join(typed)} [{language}]: {line!r} ({', '.join(english)})")
    return found


def test_every_verb_is_crawled_or_excused_with_a_reason(site: Site, tmp_path: Path) -> None:
    club = Club.objects.get(slug="riverside")
    crawled = {command.words[0] for command in commands(club, tmp_path)}
    assert sorted(verbs() - crawled - set(EXCUSED)) == []  # a new verb: crawl it, or excuse it
    assert sorted((crawled | set(EXCUSED)) - verbs()) == []  # a verb gone: drop it here
    assert crawled.isdisjoint(EXCUSED)


@pytest.mark.parametrize("language", sorted(LOCALES))
def test_no_command_prints_english_in_armenian_or_russian(
    catalogue: None,  # noqa: F811
    site: Site,  # noqa: F811
    language: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = crawl(site, language, tmp_path, monkeypatch)
    assert found == [], f"{len(found)} lines with English:\n" + "\n".join(found)


def test_the_check_finds_english_and_passes_names_options_and_figures(
    catalogue: None,  # noqa: F811
) -> None:
    said: Callable[[str], list[str]] = lambda line: terminal_words(line, ["Anna Smith"], "ru")
    assert said("registered 'Anna Smith' as number 1: to link") == [
        "registered",
        "as",
        "number",
        "to",
        "link",
    ]
    assert said("Anna Smith 1650 --club riverside 2024-05-06 1. e4 e5") == []
    assert said("Анна: рейтинг 1650 (clubrating ratings --json)") == []
