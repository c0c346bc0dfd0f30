"""The translation catalogue is up to date with every marked text: ``scripts/messages --check``
fails the suite when a text marked for translation is missing from a .po file (the translators
then never see it), and writes nothing either way."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = Path("src/clubrating/locale")


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(root / "scripts/messages"), "--check"], capture_output=True, text=True,
                          env={**os.environ, "PYTHON": sys.executable}, timeout=120, check=False)


def catalogues(root: Path) -> dict[str, str]:
    return {str(po): po.read_text(encoding="utf-8") for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/django.po"))}


def test_every_marked_text_is_in_the_catalogue() -> None:
    before = catalogues(ROOT)
    result = check(ROOT)
    assert (result.returncode, result.stderr) == (0, "")
    assert catalogues(ROOT) == before and len(before) == 3


def test_a_marked_text_missing_from_the_catalogue_fails_the_check(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    shutil.copytree(ROOT / "src/clubrating", tmp_path / "src/clubrating",
                    ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    template = tmp_path / "src/clubrating/web/templates/web/index.html"
    template.write_text(template.read_text(encoding="utf-8")
                        + '{% translate "A text no catalogue has yet" %}\n', encoding="utf-8")
    before = catalogues(tmp_path)
    result = check(tmp_path)
    assert result.returncode == 1
    assert result.stderr == ("messages: the catalogue of en hy ru is not up to date with the marked texts: "
                             "run scripts/messages\n")
    assert catalogues(tmp_path) == before


def test_no_message_of_the_catalogue_is_a_fuzzy_guess() -> None:
    """Django skips a fuzzy message (the English shows), and a translator could take the guess for done."""
    fuzzy = {po: po.read_text(encoding="utf-8").count("#, fuzzy") for po in (ROOT / LOCALE).glob("*/LC_MESSAGES/django.po")}
    assert fuzzy and all(count == 0 for count in fuzzy.values()), fuzzy
