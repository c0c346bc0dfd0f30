"""Every message of the Armenian and Russian catalogues is translated, and none is fuzzy: a text
marked for translation and added without its hy and ru translations fails the suite (an empty
msgstr would show the English on a Russian or Armenian page). Read by gettext's own msgfmt."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "src" / "clubrating" / "locale"
TRANSLATED = ("hy", "ru")  # en is the msgids themselves: its msgstrs stay empty


def statistics(po: Path) -> str:
    """msgfmt's count of the file's messages, e.g. '148 translated messages, 2 untranslated
    messages.'"""
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"{po}: {done.stderr.strip()}"
    return done.stderr.strip().splitlines()[
        -1
    ]  # the count is msgfmt's last line, after any warning


def is_complete(counts: str) -> bool:
    return re.fullmatch(r"\d+ translated messages?\.", counts) is not None


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_catalogue_is_translated_and_none_is_fuzzy(language: str) -> None:
    counts = statistics(LOCALE / language / "LC_MESSAGES" / "django.po")
    assert is_complete(counts), f"locale/{language}/LC_MESSAGES/django.po: {counts}"


def test_an_untranslated_or_fuzzy_message_is_found(tmp_path: Path) -> None:
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    cases = {
        "done": 'msgid "Rating"\nmsgstr "Рейтинг"\n',
        "untranslated": 'msgid "Rating"\nmsgstr ""\n',
        "fuzzy": '#, fuzzy\nmsgid "Rating"\nmsgstr "Рейтинг"\n',
    }
    found = {}
    for name, entry in cases.items():
        po = tmp_path / f"{name}.po"
        po.write_text(header + entry, encoding="utf-8")
        found[name] = is_complete(statistics(po))
    assert found == {"done": True, "untranslated": False, "fuzzy": False}
